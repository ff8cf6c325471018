// Parses large tree documents off the main thread. Receives {id, text}; answers {id, result} where
// result is importText's answer with the parent pointers removed (the page sets them again).
import { importText } from './import.js';

self.onmessage = (e) => {
  const { id, text } = e.data;
  let result;
  try {
    result = importText(text);
  } catch (err) {
    result = { ok: false, error: { kind: 'internal', message: `Could not read the document: ${err && err.message}` } };
  }
  if (result.ok) {
    const stack = [result.model.root];
    while (stack.length) {
      const n = stack.pop();
      n.parent = null;
      for (const c of n.children) stack.push(c);
    }
  }
  self.postMessage({ id, result });
};
