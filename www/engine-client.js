// The page's side of the engine worker: a promise per request, one cached start-up promise, cancel by
// terminating the worker, and recovery from a crashed worker without losing the game.
//
// The client remembers the game's record (game id, start position, moves played, moves taken back)
// from every state the worker returns, so a fresh worker can be brought to exactly the same game.
//
// A worker that dies without a word (killed by the browser for memory, or terminated by anything but
// this client) sends no error event. Two watches notice it, whichever is first:
// - a Web Lock the worker takes when it starts and holds until it ends: the client queues for the
//   same lock, which it gets when the worker is gone, busy or not. Chromium lets a terminated
//   worker that is running a search go on for about 2 s before it ends it, so the lock comes free
//   only then;
// - the search's own reports: a search reports progress every 50 ms, and each report says whether
//   another follows soon (`steady`). Building and packing a recorded tree, which used to report
//   nothing, pulses too (the last report again, steady, with `stage: 'tree'`, about every 50 ms;
//   src/tree/pulse.rs and worker.js). A terminated worker's messages stop at once, so silence of
//   STEADY_SILENCE_MS after a steady report means the worker is gone: noticed in about a second,
//   before the lock.
// Where Web Locks are missing (an insecure origin), an idle worker must also answer a ping every
// second; during a request without steady reports, BUSY_SILENCE_MS of silence counts as death.

/** The error a request gets when it was cancelled (the worker was stopped under it). */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

/** How long a worker that has Web Locks may take to take its lock before it is called dead. */
const START_MS = 20000;
/** Without Web Locks: the heartbeat's period when idle, and the silence that counts as death. */
const PING_MS = 1000;
const SILENCE_MS = 2000;
/** Without Web Locks, during a request: silence tolerated (the last stage of a large search, when the
 * tree is written, reports nothing). */
const BUSY_SILENCE_MS = 15000;
/** After a steady progress report (another was promised within 50 ms): the silence that counts as
 * death, and how often it is looked at. */
const STEADY_SILENCE_MS = 1000;
const STEADY_CHECK_MS = 200;

let workerSerial = 0;

/** The worker script's URL; `?simd=0` and `?threads=0` on the page's URL are passed on (the worker
 * then loads the scalar build even where SIMD runs, or a build without shared memory even where the
 * page is cross-origin isolated, for comparing them). */
function workerUrl() {
  const url = new URL('./worker.js', import.meta.url);
  const page = typeof location !== 'undefined' ? new URLSearchParams(location.search) : new URLSearchParams();
  for (const key of ['simd', 'threads']) if (page.get(key) === '0') url.searchParams.set(key, '0');
  // Tests only: `?hold=D` holds each Lazy SMP search's main thread until the helpers reach depth D.
  if (/^[1-9]\d?$/.test(page.get('hold') || '')) url.searchParams.set('hold', page.get('hold'));
  return url;
}

export class EngineClient {
  /**
   * @param {object} opts
   * @param {string} [opts.url] the worker script
   * @param {(message: string) => void} [opts.onCrash] told when the worker crashed and was restarted
   */
  constructor({ url = workerUrl(), onCrash = () => {}, locks = true } = {}) {
    this.url = url;
    this.onCrash = onCrash;
    // Whether to watch workers through Web Locks too (tests turn it off to see the other watch alone).
    this.useLocks = locks;
    /** How each dead worker was noticed: 'lock', 'silence' (after a steady report), 'heartbeat'. */
    this.deaths = [];
    this.nextId = 1;
    this.pending = new Map();
    this.record = null; // {game, start, moves, redo}
    this.crashes = [];
    this.ready = this.spawn();
  }

  /** Starts a worker and, when a game is recorded, rebuilds it there. Resolves when usable. */
  spawn() {
    const w = new Worker(this.url, { type: 'module' });
    this.worker = w;
    w.onmessage = (ev) => {
      this.heard = Date.now();
      if (ev.data && ev.data.pong) return;
      this.receive(ev.data);
    };
    w.onerror = (ev) => {
      ev.preventDefault();
      if (w !== this.worker || w.stopped) return;
      this.crashed(`The engine failed (${ev.message || 'worker error'})`);
    };
    w.onmessageerror = () => this.crashed('The engine sent a message that could not be read');
    this.watch(w);
    const r = this.record;
    if (!r) return Promise.resolve();
    return this.post('restore', [r.game, r.start, r.moves, r.redo]).then(
      (state) => this.remember(state),
      (e) => {
        // The record no longer replays (should not happen): start the game afresh rather than fail.
        if (e instanceof Cancelled) return;
        console.error('could not restore the game', e);
        return this.post('open', [r.game]).then((s) => {
          this.record = { game: r.game, start: null, moves: [], redo: [] };
          return s;
        });
      },
    );
  }

  /** Watches worker `w` for a death without a word: a Web Lock it holds while alive, or a heartbeat. */
  watch(w) {
    const died = (how) => {
      if (w !== this.worker || w.stopped) return;
      this.deaths.push(how);
      this.crashed('The engine stopped without a word (its worker was killed)');
    };
    this.heard = Date.now();
    // Silence after a steady report (a search that promised another within 50 ms). Only silence
    // the page itself was there to hear counts: when this timer runs late, the page was busy (a long
    // task, drawing a large tree) and the worker's reports may be waiting in its queue, so the
    // silence starts again from now.
    let lastTick = Date.now();
    const steadyTimer = setInterval(() => {
      if (w !== this.worker || w.stopped) {
        clearInterval(steadyTimer);
        return;
      }
      const now = Date.now();
      const late = now - lastTick > 2 * STEADY_CHECK_MS;
      lastTick = now;
      if (late) {
        this.heard = Math.max(this.heard, now);
        return;
      }
      const promised = [...this.pending.values()].some((p) => p.steady);
      if (promised && Date.now() - this.heard > STEADY_SILENCE_MS) {
        clearInterval(steadyTimer);
        died('silence');
      }
    }, STEADY_CHECK_MS);
    const locks = this.useLocks && typeof navigator !== 'undefined' ? navigator.locks : undefined;
    if (locks && typeof locks.request === 'function') {
      const name = `plyscope-engine-${Date.now()}-${Math.random().toString(36).slice(2)}-${++workerSerial}`;
      const held = new Promise((resolve, reject) => {
        const id = this.nextId++;
        this.pending.set(id, { resolve, reject, internal: true });
        w.postMessage({ id, op: 'hold', args: [name] });
        setTimeout(() => reject(new Error('the worker did not start')), START_MS);
      });
      held.then(
        // Granted only once the worker has let go of it: when it is gone.
        () => locks.request(name, () => died('lock')),
        (e) => {
          if (!(e instanceof Cancelled)) died('lock');
        },
      );
      return;
    }
    // No Web Locks: a heartbeat.
    const timer = setInterval(() => {
      if (w !== this.worker || w.stopped) {
        clearInterval(timer);
        return;
      }
      const busy = [...this.pending.values()].some((p) => !p.internal);
      const silent = Date.now() - this.heard;
      if (silent > (busy ? BUSY_SILENCE_MS : SILENCE_MS)) {
        clearInterval(timer);
        died('heartbeat');
        return;
      }
      if (!busy) w.postMessage({ ping: true });
    }, PING_MS);
  }

  receive(msg) {
    const p = this.pending.get(msg.id);
    if (!p) return;
    if ('progress' in msg) {
      // Whether the search promised another report soon (see the file's comment).
      p.steady = !!(msg.progress && msg.progress.steady);
      // 'tree' while the worker builds and packs a recorded tree (it pulses then; see worker.js).
      p.stage = (msg.progress && msg.progress.stage) || null;
      p.onProgress?.(msg.progress);
      return;
    }
    if ('iteration' in msg) {
      p.steady = false;
      p.onIteration?.(msg.iteration);
      return;
    }
    this.pending.delete(msg.id);
    if ('ok' in msg) p.resolve(msg.ok);
    else if (msg.fatal) {
      p.reject(new Error(msg.err));
      this.crashed(`The engine crashed (${msg.err})`);
    } else p.reject(new Error(msg.err));
  }

  post(op, args, onProgress, onIteration) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress, onIteration });
      this.worker.postMessage({ id, op, args });
    });
  }

  /** Sends a request once the worker is ready; resolves with its answer or rejects with its error. */
  async call(op, args = [], onProgress, onIteration) {
    await this.ready;
    return this.post(op, args, onProgress, onIteration);
  }

  /** Stops whatever the worker is doing (a search): pending requests reject with Cancelled. */
  cancel() {
    this.restart();
  }

  restart() {
    this.worker.stopped = true;
    this.worker.terminate();
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(new Cancelled());
    this.ready = this.spawn();
    return this.ready;
  }

  crashed(message) {
    const now = Date.now();
    this.crashes = this.crashes.filter((t) => now - t < 5000).concat(now);
    if (this.crashes.length > 3) {
      this.onCrash(`${message} (repeatedly; reload the page to try again)`);
      this.worker.stopped = true;
      this.worker.terminate();
      for (const p of this.pending.values()) p.reject(new Error(message));
      this.pending.clear();
      return;
    }
    // Restart first, so that whatever onCrash asks for goes to the fresh worker after the replay.
    this.restart();
    this.onCrash(message);
  }

  remember(state, start) {
    if (!state || typeof state !== 'object' || !('history' in state)) return state;
    const prevStart = this.record && this.record.game === state.game ? this.record.start : null;
    this.record = {
      game: state.game,
      start: start !== undefined ? start : prevStart,
      moves: state.history,
      redo: state.redo,
    };
    return state;
  }

  // The game API: each resolves with the new state ({game, position, to_move, players, legal,
  // history, redo, outcome}) or, for play, {played, state}.
  catalogue() {
    return this.call('catalogue');
  }
  async open(game) {
    const s = await this.call('open', [game]);
    return this.remember(s, null);
  }
  async restore(game, start, moves, redo = []) {
    const s = await this.call('restore', [game, start, moves, redo]);
    return this.remember(s, start);
  }
  async play(text) {
    const r = await this.call('play', [text]);
    this.remember(r.state);
    return r;
  }
  async playChance() {
    const r = await this.call('playChance');
    this.remember(r.state);
    return r;
  }
  async undo() {
    return this.remember(await this.call('undo'));
  }
  async redo() {
    return this.remember(await this.call('redo'));
  }
  async setPosition(text) {
    const s = await this.call('setPosition', [text]);
    return this.remember(s, s.position);
  }
  state() {
    return this.call('state');
  }
  /**
   * Searches with the given options; `onProgress` gets the worker's progress reports and
   * `onIteration`, when given, the tree of each completed iteration (iterative deepening).
   */
  search(options, onProgress, onIteration) {
    return this.call('search', [options, !!onIteration], onProgress, onIteration);
  }
  /** `{position, view}` after `moves` from `position` (null: the start), without touching the game. */
  preview(game, position, moves) {
    return this.call('preview', [game, position, moves]);
  }
  /** Variants through the engine's generic interface: `op` is startView(game) (the board view of a
   * variant's start), variantEdit(game, x, y) (the variant changed at a cell: Ataxx toggles a wall),
   * variantCheck(game) (its canonical id, or the engine's reason) or variantRandom(game, seed). */
  variant(op, ...args) {
    return this.call(op, args);
  }
  /** Which engine build the worker runs: 'threads' (SIMD and shared memory), 'simd' (WebAssembly
   * SIMD) or 'scalar'. */
  build() {
    return this.call('build');
  }
  /** Makes the engine panic (for tests of the recovery). */
  panic() {
    return this.call('panic');
  }
}
