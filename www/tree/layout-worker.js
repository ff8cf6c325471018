// Lays out the explorer's shown nodes off the main thread. Receives { seq, parent, rowGap, cousinGap }
// (parent: Int32Array, see layout.js); answers { seq, y, ms } with y a Float64Array (transferred), or
// { seq, error } if the input is malformed.
import { tidyLayout } from './layout.js';

self.onmessage = (e) => {
  const { seq, parent, rowGap, cousinGap } = e.data;
  const t0 = performance.now();
  let y;
  try {
    y = tidyLayout(parent, rowGap, cousinGap);
  } catch (err) {
    self.postMessage({ seq, error: String(err && err.message) });
    return;
  }
  self.postMessage({ seq, y, ms: performance.now() - t0 }, [y.buffer]);
};
