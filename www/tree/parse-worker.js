// Parses large tree documents off the main thread. Receives {id, text}; answers {id, result} where
// result is importText's answer with the model in its wire form (see toWire in import.js).
import { importText, toWire } from './import.js';

self.onmessage = (e) => {
  const { id, text } = e.data;
  let result;
  try {
    result = importText(text);
  } catch (err) {
    result = { ok: false, error: { kind: 'internal', message: `Could not read the document: ${err && err.message}` } };
  }
  if (!result.ok) {
    self.postMessage({ id, result });
    return;
  }
  const { wire, transfer } = toWire(result.model);
  self.postMessage({ id, result: { ok: true, wire } }, transfer);
};
