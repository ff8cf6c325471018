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
// `build` answers which engine build runs: 'threads' (pkg/threads/: SIMD and shared memory) when
// the page is cross-origin isolated and that build is there, else 'simd' (pkg/simd/, WebAssembly
// SIMD) when the browser validates a SIMD module and that build is there, else 'scalar' (pkg/).
// With the threads build a search with `threads` above 1 is Lazy SMP: this worker's engine is the
// main thread and `threads - 1` helper workers (www/helper.js, sharing its memory) the helpers.
// Without it, such a search is split over search workers that share nothing (splitSearch below).
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

/** Whether this worker may load the threads build: a cross-origin isolated page (COOP/COEP, so
 * that shared memory exists) and SIMD (the threads build uses it too); `?threads=0` turns it off. */
function threadsSupported() {
  if (new URL(self.location.href).searchParams.get('threads') === '0') return false;
  return self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function' && simdSupported();
}

let wasm = null; // the engine module's exports: Engine, variantEdit, variantCheck, randomVariant
let build = 'scalar';

/** Loads the threads build where it can run, else the SIMD build where it runs, else (or when they
 * cannot load) the scalar one. Paths are relative, so that the app also works from a sub-folder
 * with pkg/ copied next to it (www/pkg/). */
async function load() {
  // The faster builds first, each only where the browser can run it; one that is absent (built
  // with THREADS=0 or SIMD=0, or no nightly toolchain for the threads build) or fails to start
  // leaves the next one to do the job. The scalar build runs everywhere.
  const builds = [
    ['threads', threadsSupported, './pkg/threads/plyscope.js'],
    ['simd', simdSupported, './pkg/simd/plyscope.js'],
    ['scalar', () => true, './pkg/plyscope.js'],
  ];
  for (const [name, supported, path] of builds) {
    if (!supported()) continue;
    try {
      const m = await import(path);
      await m.default();
      wasm = m;
      build = name;
      return;
    } catch (e) {
      if (name === 'scalar') throw e;
    }
  }
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
  // `threads` above 1 asks for a parallel search: with the threads build, Lazy SMP over this
  // worker and `threads - 1` helper workers sharing its memory (startHelpers); otherwise a split
  // search over that many search workers (splitSearch), whose engines get no `threads` (one
  // thread per worker). Searches that run as one (the engine's split plan says which: not
  // alpha-beta or minimax, a randomness quotient, an exact endgame...) use this worker alone.
  async search(options, id, live) {
    const { threads = 1, ...opts } = options || {};
    options = opts;
    if (Number.isInteger(threads) && threads > 1) {
      const n = Math.min(threads, MAX_WORKERS);
      const plan = need().splitStart(JSON.stringify(options), n);
      if (plan && build === 'threads') {
        plan.free();
        await startHelpers(n - 1);
        options = { ...opts, threads: n, ...HOLD };
      } else if (plan) return splitSearch(plan, options, threads, id);
    }
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
  // A search worker's job (this worker as one of a parallel search's pool): root move `job.move`
  // of `position` searched as the job says, by an engine kept for the next job (its table too).
  searchMove(game, position, options, job) {
    if (!engine || engine.gameId() !== game) {
      const next = new wasm.Engine(game);
      if (engine) engine.free();
      engine = next;
    }
    if (engine.position() !== position) engine.setPosition(position);
    return engine.searchMove(options, job);
  },
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

// The threads build's helper workers (www/helper.js): each instantiates this worker's module with
// its shared memory and then waits; a parallel search posts each helper its index, and the helper
// runs the helper thread's search the engine put in that helper's slot until the search stops it
// (src/search/wasm_threads.rs). They are started before the search, never during it: this worker
// is blocked in the engine while it searches, and a worker's start needs its parent's event loop.

/** Tests only: `?hold=D` in this worker's URL (passed on from the page's by engine-client.js) makes
 * every Lazy SMP search hold its main thread until each helper has completed depth D
 * (`hold_for_helpers`, docs/engine-options.md), so that a test sees the helpers' work however the
 * workers are scheduled. */
const HOLD = (() => {
  const d = Number(new URL(self.location.href).searchParams.get('hold'));
  return Number.isInteger(d) && d > 0 ? { hold_for_helpers: d } : {};
})();

/** The helper workers, started on first use and kept. */
const helpers = [];

/** Starts helper workers until there are `n`, each with the engine loaded; tells the engine. */
async function startHelpers(n) {
  if (helpers.length >= n) return;
  const shared = wasm.threadsShared();
  while (helpers.length < n) {
    const w = new Worker(new URL('./helper.js', self.location.href), { type: 'module' });
    await new Promise((resolve, reject) => {
      w.onmessage = (ev) => (ev.data && ev.data.ready ? resolve() : reject(new Error(`a helper worker failed: ${ev.data && ev.data.err}`)));
      w.onerror = (ev) => {
        ev.preventDefault();
        reject(new Error(`a helper worker failed (${ev.message || 'worker error'})`));
      };
      w.postMessage({ module: shared.module, memory: shared.memory });
    });
    w.onmessage = null;
    helpers.push(w);
  }
  wasm.threadsSetup(helpers.length, (i) => {
    helpers[i].postMessage({ run: i });
  });
}

// A parallel search without shared memory (the scalar and SIMD builds, or a page that is not
// cross-origin isolated: docs/engine-options.md). This worker coordinates and never searches: it
// asks the engine's plan (src/search/engine/split.rs) for jobs, one root move of one depth each,
// hands them to a pool of search workers (this same script, each with its own engine and table,
// kept across searches), and gives each report back to the plan, which joins the result and the
// tree. Progress is posted every 50 ms meanwhile. Cancelling terminates this worker, and the
// search workers it started end with it.

/** The most search workers a search uses. */
const MAX_WORKERS = 8;
/** The search workers, started on first use: `{w, busy, pending, next}`. */
const pool = [];
/** The running parallel search's pump: a search worker freed by a job of an earlier search (its
 * result no longer counts) calls it, so that it gets work. */
let currentPump = null;

function startSearchWorker() {
  const slot = { w: new Worker(new URL(self.location.href), { type: 'module' }), busy: false, pending: new Map(), next: 0 };
  slot.w.onmessage = (ev) => {
    const p = slot.pending.get(ev.data && ev.data.id);
    if (!p) return;
    slot.pending.delete(ev.data.id);
    if ('ok' in ev.data) p.resolve(ev.data.ok);
    else p.reject(Object.assign(new Error(ev.data.err), { fatal: !!ev.data.fatal }));
  };
  slot.w.onerror = (ev) => {
    ev.preventDefault();
    const err = Object.assign(new Error(`a search worker failed (${ev.message || 'worker error'})`), { fatal: true });
    for (const p of slot.pending.values()) p.reject(err);
    slot.pending.clear();
  };
  return slot;
}

function callSlot(slot, op, args) {
  return new Promise((resolve, reject) => {
    const id = ++slot.next;
    slot.pending.set(id, { resolve, reject });
    slot.w.postMessage({ id, op, args });
  });
}

/** Runs `plan` (a SplitSearch) over `threads` search workers; resolves like the `search` op. */
function splitSearch(plan, options, threads, id) {
  while (pool.length < threads) pool.push(startSearchWorker());
  const slots = pool.slice(0, threads);
  const game = engine.gameId();
  const position = engine.position();
  const text = JSON.stringify(options);
  return new Promise((resolve, reject) => {
    let closed = false;
    const timer = setInterval(() => {
      if (!closed) postMessage({ id, progress: plan.progress() });
    }, 50);
    const close = () => {
      closed = true;
      clearInterval(timer);
      if (currentPump === pump) currentPump = null;
    };
    const fail = (e) => {
      if (closed) return;
      close();
      plan.free();
      reject(e);
    };
    const finish = () => {
      close();
      try {
        // The joined tree is built next, silently: this report is not steady. Packing it pulses
        // (the last report again, steady, `stage: 'tree'`), as a single search's does.
        const last = plan.progress();
        postMessage({ id, progress: { ...last, steady: false } });
        const r = plan.finish();
        plan.free();
        const report = JSON.parse(r.report);
        if (!r.tree) {
          resolve(report);
          return;
        }
        let beatAt = Date.now();
        const beat = () => {
          if (Date.now() - beatAt < 50) return;
          beatAt = Date.now();
          postMessage({ id, progress: { ...last, steady: true, stage: 'tree' } });
        };
        report.tree = packedDoc(r.tree, beat);
        resolve(withTransfer(report, [report.tree.packed]));
      } catch (e) {
        reject(e);
      }
    };
    const pump = () => {
      if (closed) return;
      try {
        if (plan.over()) {
          finish();
          return;
        }
        slots.forEach((slot, worker) => {
          if (slot.busy) return;
          const job = plan.next();
          if (!job) return;
          slot.busy = true;
          callSlot(slot, 'searchMove', [game, position, text, job]).then(
            (reportText) => {
              slot.busy = false;
              if (closed) {
                currentPump?.();
                return;
              }
              try {
                plan.done(worker, reportText);
              } catch (e) {
                fail(e);
                return;
              }
              pump();
            },
            (e) => {
              slot.busy = false;
              if (closed) currentPump?.();
              if (e.fatal) {
                // Its engine cannot be trusted any more: a fresh one next time.
                slot.w.terminate();
                pool.splice(pool.indexOf(slot), 1);
              }
              fail(e);
            },
          );
        });
        if (!slots.some((s) => s.busy) && !plan.over()) fail(new Error('the parallel search has no job to run'));
      } catch (e) {
        fail(e);
      }
    };
    currentPump = pump;
    pump();
  });
}

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
    const ok = op === 'search' ? await fn(args[0], id, args[1]) : await fn(...args);
    if (ok && typeof ok === 'object' && ok[TRANSFER]) postMessage({ id, ok: ok.value }, ok[TRANSFER]);
    else postMessage({ id, ok });
  } catch (e) {
    const fatal = e instanceof WebAssembly.RuntimeError;
    postMessage({ id, err: String(e && e.message ? e.message : e), fatal });
  }
};
