// The engine's worker: loads the WebAssembly engine and answers the page's requests.
//
// Request:  {id, op, args}     Reply: {id, ok: value} or {id, err: message, fatal?: true}
// While a search runs it also posts {id, progress: {fraction, nodes, depth, root_done, root_total,
// elapsed_ms, steady}} about every 50 ms (also while a recorded tree is built: then with `stage: 'tree'`), and, when asked for a live tree, {id, iteration: treeDocument}
// after each completed iteration of iterative deepening. Search trees (the report's `tree` and each
// iteration's) are tree documents in binary form: the header fields and `packed`, an ArrayBuffer
// transferred with the message (docs/tree-format.md, "Binary form", in its packed layout: www/tree/pack.js;
// read by www/tree/binary.js). A "fatal" error means the WebAssembly
// instance trapped (a Rust panic): it cannot be trusted any more and the page starts a fresh worker.
// `hold(name)` takes a Web Lock and keeps it for the worker's life: the page queues for the same
// lock, and gets it when the worker is gone, however it died. `{ping: true}` gets `{pong: true}`
// (the page's heartbeat where Web Locks are missing).
// `build` answers which engine build runs: 'simd' (pkg/simd/, WebAssembly SIMD) when the browser
// validates a SIMD module and that build is there, else 'scalar' (pkg/).
import { packTree } from './tree/pack.js';

/** A module of one function whose body uses SIMD (i8x16.splat, i8x16.popcnt): it validates only
 * where WebAssembly SIMD is supported. */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

/** Whether this browser runs WebAssembly SIMD (`?simd=0` in the worker's URL turns it off). */
function simdSupported() {
  if (new URL(self.location.href).searchParams.get('simd') === '0') return false;
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

let wasm = null; // the engine module's exports: Engine, variantEdit, variantCheck, randomVariant
let build = 'scalar';

/** Loads the SIMD build where it runs, else (or when it cannot load) the scalar one. Paths are
 * relative, so that the app also works from a sub-folder with pkg/ copied next to it (www/pkg/). */
async function load() {
  if (simdSupported()) {
    try {
      const m = await import('./pkg/simd/plyscope.js');
      await m.default();
      wasm = m;
      build = 'simd';
      return;
    } catch {
      // No SIMD build here (SIMD=0 when it was built) or it failed: the scalar one does the job.
    }
  }
  const m = await import('./pkg/plyscope.js');
  await m.default();
  wasm = m;
  build = 'scalar';
}

const ready = load();

/**
 * A tree in its binary form as the page's tree document: its header (section 0 of the binary form,
 * JSON: its offset and length are words 4 and 5) and the bytes in `packed`.
 */
function packedDoc(bytes, beat) {
  const plain = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength ? bytes.buffer : bytes.slice().buffer;
  // Packed (www/tree/pack.js: a sixth of the bytes for tic-tac-toe's whole tree): what crosses to the
  // page and what the page keeps per ply. The header stays where the plain layout has it.
  const packed = packTree(plain, beat);
  const [off, len] = new Uint32Array(packed, 16, 2);
  const meta = JSON.parse(new TextDecoder().decode(new Uint8Array(packed, off, len)));
  return { ...meta, packed, nodes: new Uint32Array(packed, 8, 1)[0] };
}

const TRANSFER = Symbol('transfer');
/** An answer whose buffers are moved to the page with the message. */
function withTransfer(value, list) {
  return { [TRANSFER]: list, value };
}
let engine = null;

function need() {
  if (!engine) throw new Error('no game: send "open" first');
  return engine;
}

// Operations that change the game answer with the new state so the page needs one round trip.
const ops = {
  catalogue: () => wasm.Engine.catalogue(),
  build: () => build,
  open(game) {
    const next = new wasm.Engine(game);
    if (engine) engine.free();
    engine = next;
    return engine.state();
  },
  state: () => need().state(),
  play: (text) => ({ played: need().play(text), state: engine.state() }),
  playChance: () => ({ played: need().playChance(), state: engine.state() }),
  undo: () => (need().undo(), engine.state()),
  redo: () => (need().redo(), engine.state()),
  setPosition: (text) => (need().setPosition(text), engine.state()),
  seed: (n) => need().seed(n),
  // Rebuilds a game from its record: start position (or null), moves played, moves taken back.
  restore(game, start, moves, redo) {
    const e = new wasm.Engine(game);
    try {
      if (start) e.setPosition(start);
      for (const m of moves) e.play(m);
      for (const m of redo) e.play(m); // redo lists the next move first
      for (let i = 0; i < redo.length; i++) e.undo();
    } catch (err) {
      e.free();
      throw err;
    }
    if (engine) engine.free();
    engine = e;
    return engine.state();
  },
  // The tree travels in its binary form (www/tree/binary.js): the report's `tree` is the
  // document's header with `packed`, an ArrayBuffer moved to the page, not copied.
  // While the tree is built and packed, which reports nothing of itself, the engine pulses (the
  // last report again, steady, `stage: 'tree'`) and so does packing here, about every 50 ms: the
  // page hears a living worker (engine-client.js calls one silent for a second after a steady
  // report dead).
  search(options, id, live) {
    let last = null;
    let beatAt = 0;
    const report = (p) => {
      last = p;
      beatAt = Date.now();
      postMessage({ id, progress: p });
    };
    const beat = () => {
      if (!last || Date.now() - beatAt < 50) return;
      beatAt = Date.now();
      postMessage({ id, progress: { ...last, steady: true, stage: 'tree' } });
    };
    const r = need().searchBinary(
      JSON.stringify(options),
      report,
      50,
      live
        ? (bytes) => {
            const doc = packedDoc(bytes, beat);
            postMessage({ id, iteration: doc }, [doc.packed]);
          }
        : undefined,
    );
    const out = JSON.parse(r.report);
    if (!r.tree) return out;
    out.tree = packedDoc(r.tree, beat);
    return withTransfer(out, [out.tree.packed]);
  },
  // The position and board view after `moves` from `position`, for board previews (a separate
  // engine: the game is not touched).
  preview(game, position, moves) {
    const e = new wasm.Engine(game);
    try {
      if (position) e.setPosition(position);
      for (const m of moves) e.play(m);
      return { position: e.position(), view: e.view() };
    } finally {
      e.free();
    }
  },
  // Variants (the engine's generic interface): the board view of a variant's start, a variant
  // edited at a cell, a typed variant checked, a random variant. Each answers the engine's own
  // result or message.
  startView(game) {
    const e = new wasm.Engine(game);
    try {
      return e.view();
    } finally {
      e.free();
    }
  },
  variantEdit: (game, x, y) => wasm.variantEdit(game, x, y),
  variantCheck: (game) => wasm.variantCheck(game),
  variantRandom: (game, seed) => wasm.randomVariant(game, seed >>> 0),
  panic: () => need().debugPanic(),
  // Answers once the lock is held; the lock is let go only when the worker ends.
  hold: (name) =>
    new Promise((resolve, reject) => {
      if (!navigator.locks) {
        reject(new Error('no Web Locks here'));
        return;
      }
      navigator.locks
        .request(name, () => {
          resolve(true);
          return new Promise(() => {});
        })
        .catch(reject);
    }),
};

onmessage = async (ev) => {
  if (ev.data && ev.data.ping) {
    postMessage({ pong: true });
    return;
  }
  const { id, op, args = [] } = ev.data;
  try {
    if (op !== 'hold') await ready;
    const fn = ops[op];
    if (!fn) throw new Error(`unknown operation ${op}`);
    const ok = op === 'search' ? fn(args[0], id, args[1]) : await fn(...args);
    if (ok && typeof ok === 'object' && ok[TRANSFER]) postMessage({ id, ok: ok.value }, ok[TRANSFER]);
    else postMessage({ id, ok });
  } catch (e) {
    const fatal = e instanceof WebAssembly.RuntimeError;
    postMessage({ id, err: String(e && e.message ? e.message : e), fatal });
  }
};
