// Parses large tree documents off the main thread. Receives {id, text}, possibly preceded by
// {id, part} messages (a long text is sent in parts, joined here); answers {id, result} where result
// is importText's answer with the model in its wire form (see toWire in import.js), or, for a
// compact (version 2) document, in binary form (`packed`, see binary.js and compact.js).
import { importText, toWire } from './import.js';

const parts = new Map();

self.onmessage = (e) => {
  const { id } = e.data;
  if (e.data.part !== undefined) {
    if (!parts.has(id)) parts.set(id, []);
    parts.get(id).push(e.data.part);
    return;
  }
  let text = e.data.text;
  if (parts.has(id)) {
    const list = parts.get(id);
    parts.delete(id);
    list.push(text);
    text = list.join('');
  }
  let result;
  try {
    // A compact (version 2) document comes back in binary form, one buffer moved to the page.
    result = importText(text, e.data.budget || {}, { packed: true });
  } catch (err) {
    result = { ok: false, error: { kind: 'internal', message: `Could not read the document: ${err && err.message}` } };
  }
  if (!result.ok) {
    self.postMessage({ id, result });
    return;
  }
  if (result.packed) {
    self.postMessage({ id, result }, [result.packed]);
    return;
  }
  // Whatever goes wrong from here is answered too (a page waiting for an answer must get one).
  try {
    const { wire, transfer } = toWire(result.model);
    self.postMessage({ id, result: { ok: true, wire } }, transfer);
  } catch (err) {
    self.postMessage({ id, result: { ok: false, error: { kind: 'internal', message: `Could not hand the tree to the page: ${err && err.message}` } } });
  }
};
