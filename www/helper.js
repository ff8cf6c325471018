// A helper thread of the engine's threads build (shared memory), started by the engine's worker
// (www/worker.js) before a parallel search. Its first message is `{module, memory}`: it instantiates
// the same WebAssembly module with the same shared memory (wasm-bindgen gives this instance its own
// stack and thread-local storage) and answers `{ready: true}`, or `{err}`. Each later message
// `{run: i}` runs the job the engine put in helper slot i: one helper's Lazy SMP search, until the
// search's stop flag (src/search/wasm_threads.rs). It runs nothing else and answers nothing else.
let engine = null;

onmessage = async (ev) => {
  const msg = ev.data || {};
  if (msg.module) {
    try {
      const m = await import('./pkg/threads/plyscope.js');
      await m.default({ module_or_path: msg.module, memory: msg.memory });
      engine = m;
      postMessage({ ready: true });
    } catch (e) {
      postMessage({ err: String(e && e.message ? e.message : e) });
    }
    return;
  }
  if (engine && Number.isInteger(msg.run)) engine.helperRun(msg.run);
};
