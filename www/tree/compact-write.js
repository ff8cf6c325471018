// Writes a tree as a compact (version 2) plyscope-tree document (docs/tree-format.md, "Version
// 2"): what the explorer's Download saves. The text comes back in parts (an array of strings of
// about a megabyte each) that go into a Blob as they are, so a tree of half a million nodes never
// needs one string of its whole size (tic-tac-toe's whole tree is about 40 MB as version 2 and 698
// MB as version 1, beyond Chromium's largest string).
//
// Two sources: the binary form (binary.js: a tree from the engine's worker, or a pasted version-2
// document), read straight from its arrays without making node objects; and any other model (a
// version-1 or foreign document), walked node by node. compact.js reads the result back.
//
// Pure functions with no DOM: they run on the page, in workers and under node's test runner.

import { sections } from './binary.js';
import { noteToCompact } from './note.js';
import { eachBefore } from './walk.js';

const NONE = 0xffffffff;
/** Binary kind codes (binary.js) to version 2's letters; 6 (truncated) is not a node in version 2. */
const KIND_LETTERS = ['x', 'n', 'c', 'l', 't', 'p'];
const MODEL_KIND_LETTERS = { max: 'x', min: 'n', chance: 'c', leaf: 'l', terminal: 't', pruned: 'p' };
/** Nodes written into one part before it is joined. */
const PART_NODES = 8192;
/** The header fields of version 1 copied to version 2, in the order the engine writes them. */
const HEADER = ['game', 'root_position', 'engine', 'algorithm', 'evaluator', 'perspective', 'settings', 'stats', 'chosen'];

/** A number as JSON (the values are finite). */
const num = (x) => (Object.is(x, -0) ? '0' : String(x));

/**
 * A 32-bit float as the shortest decimal that reads back to the same float (raw measures are kept
 * as 32-bit floats: 0.3 is stored as 0.30000001192092896 and written as 0.3 again).
 */
function num32(x) {
  if (Number.isInteger(x)) return num(x);
  for (let p = 1; p < 17; p++) {
    const y = Number(x.toPrecision(p));
    if (Math.fround(y) === x) return String(y);
  }
  return String(x);
}

/** The document's opening: its header fields, the term names and layouts, `ordered`, `"nodes":[`. */
function opening(header, names, layouts, ordered) {
  const head = { format: 'plyscope-tree', version: 2 };
  for (const key of HEADER) if (header[key] !== undefined && header[key] !== null) head[key] = header[key];
  // Fields this writer does not know (added to the header by a newer engine) are kept too.
  for (const key of Object.keys(header)) if (!(key in head) && key !== 'root' && key !== 'nodes' && key !== 'terms' && key !== 'layouts' && key !== 'ordered') head[key] = header[key];
  const text = JSON.stringify(head);
  const ls = layouts.map((l) => `{"t":[${l.t.join(',')}],"w":[${l.w.map(num).join(',')}]}`);
  return `${text.slice(0, -1)},"terms":${JSON.stringify(names)},"layouts":[${ls.join(',')}]${ordered ? ',"ordered":true' : ''},"nodes":[`;
}

/** Collects node texts into parts of PART_NODES nodes. */
class Parts {
  constructor(first) {
    this.parts = [first];
    this.batch = [];
  }

  node(text) {
    this.batch.push(text);
    if (this.batch.length === PART_NODES) this.flush();
  }

  flush() {
    if (!this.batch.length) return;
    this.parts.push((this.parts.length > 1 ? ',' : '') + this.batch.join(','));
    this.batch = [];
  }

  done() {
    this.flush();
    this.parts.push(']}');
    return this.parts;
  }
}

/**
 * The version-2 document of a tree in binary form (an ArrayBuffer as binary.js reads it), as an
 * array of strings to be concatenated. Every field the binary form holds is written: reading the
 * result back (compact.js) gives the same arrays, truncated nodes included (as `u` counts).
 * Throws TreeFormatError for a buffer that is not a binary tree.
 */
export function binaryToCompactParts(buffer) {
  const { n, s } = sections(buffer);
  const meta = JSON.parse(new TextDecoder().decode(s.meta));
  const dec = new TextDecoder();
  const strings = (offsets, bytes) => {
    const out = new Array(Math.max(0, offsets.length - 1));
    for (let i = 0; i < out.length; i++) out[i] = JSON.stringify(dec.decode(bytes.subarray(offsets[i], offsets[i + 1])));
    return out;
  };
  const moves = strings(s.moveOffsets, s.moveBytes); // as JSON strings, quoted once
  const names = strings(s.nameOffsets, s.nameBytes).map((q) => JSON.parse(q));
  const layouts = [];
  for (let l = 0; l + 1 < s.layoutStart.length; l++) {
    const from = s.layoutStart[l];
    const to = s.layoutStart[l + 1];
    layouts.push({ t: Array.from(s.layoutNames.subarray(from, to)), w: Array.from(s.layoutWeights.subarray(from, to)) });
  }
  const { parent, kind, flags, value, alpha, beta, prob, order, count, cutAt, ref, cut, bdLayout, bdAt, bdTotal, raws } = s;
  // Children lists in their order (backwards, as binary.js links them), the unrecorded counts that
  // truncated nodes stand for, and the pre-order of the recorded nodes (their version-2 indices).
  const first = new Int32Array(n).fill(-1);
  const next = new Int32Array(n).fill(-1);
  const kids = new Uint32Array(n);
  const unrecorded = new Float64Array(n);
  for (let i = n - 1; i > 0; i--) {
    const p = parent[i];
    if (kind[i] === 6) {
      unrecorded[p] += count[i];
      continue;
    }
    next[i] = first[p];
    first[p] = i;
    kids[p]++;
  }
  const idx = new Int32Array(n).fill(-1);
  const seq = [];
  const stack = [0];
  while (stack.length) {
    const i = stack.pop();
    idx[i] = seq.length;
    seq.push(i);
    const list = [];
    for (let c = first[i]; c >= 0; c = next[c]) list.push(c);
    for (let k = list.length - 1; k >= 0; k--) stack.push(list[k]);
  }
  let ordered = seq.length > 0;
  for (const i of seq) if (Number.isNaN(order[i])) ordered = false;
  const raw = (b) => {
    const from = bdAt[b];
    const len = s.layoutStart[bdLayout[b] + 1] - s.layoutStart[bdLayout[b]];
    let t = '';
    for (let k = 0; k < len; k++) t += `,${num32(raws[from + k])}`;
    return t;
  };
  const sameRaws = (a, b) => {
    if (bdLayout[a] !== bdLayout[b]) return false;
    if (bdAt[a] === bdAt[b]) return true;
    const len = s.layoutStart[bdLayout[a] + 1] - s.layoutStart[bdLayout[a]];
    for (let k = 0; k < len; k++) if (raws[bdAt[a] + k] !== raws[bdAt[b] + k]) return false;
    return true;
  };
  const out = new Parts(opening(meta, names, layouts, ordered));
  let prevOrder = -1;
  for (const i of seq) {
    const k = kind[i];
    const f = flags[i];
    let t = `{"k":"${KIND_LETTERS[k]}"`;
    if (s.move[i] !== NONE) t += `,"m":${moves[s.move[i]]}`;
    if (kids[i] > 0) t += `,"c":${kids[i]}`;
    const v = value[i];
    if (!Number.isNaN(v)) t += `,"v":${num(v)}`;
    if (k !== 5) {
      const b = (f >> 3) & 3;
      if (b !== 1) t += b === 2 ? ',"b":"l"' : b === 3 ? ',"b":"u"' : ',"b":"-"';
    }
    if (!Number.isNaN(alpha[i])) t += `,"a":${num(alpha[i])}`;
    if (!Number.isNaN(beta[i])) t += `,"z":${num(beta[i])}`;
    if (!Number.isNaN(prob[i])) t += `,"q":${num(prob[i])}`;
    const p = s.pre[i];
    if (p !== NONE) t += `,"p":[${num(bdTotal[p])},${bdLayout[p]}${raw(p)}]`;
    const e = s.eval[i];
    if (e !== NONE) {
      t += p !== NONE && sameRaws(p, e) ? ',"e":true' : `,"e":[${bdLayout[e]}${raw(e)}]`;
      if (bdTotal[e] !== v) t += `,"et":${num(bdTotal[e])}`;
    }
    if (f & 1) t += ',"pv":1';
    if (f & 2) t += ',"tt":1';
    if (s.ttWorker && s.ttWorker[i]) t += `,"tw":${s.ttWorker[i]}`;
    if (f & 128) t += ',"pr":1';
    const nt = s.note[i] | (s.note2 ? s.note2[i] << 8 : 0);
    if (nt) t += noteToCompact(nt);
    if (s.visits && !Number.isNaN(s.visits[i])) t += `,"N":${num(s.visits[i])}`;
    if (s.prior && !Number.isNaN(s.prior[i])) t += `,"P":${num(s.prior[i])}`;
    if (s.uct && !Number.isNaN(s.uct[i])) t += `,"U":${num(s.uct[i])}`;
    if (k !== 5 && ref[i] >= 0 && idx[ref[i]] >= 0) t += `,"s":${idx[ref[i]]}`;
    if (unrecorded[i] > 0) t += `,"u":${unrecorded[i]}`;
    if (ordered) {
      const o = order[i];
      if (o !== prevOrder + 1) t += `,"o":${o}`;
      prevOrder = o;
    }
    if (k === 5) {
      const c = Number.isNaN(count[i]) ? 0 : count[i];
      const at = cutAt[i];
      const ms = [];
      if (at !== NONE) for (let j = 0; j < c && at + j < cut.length; j++) ms.push(moves[cut[at + j]]);
      t += `,"n":${ms.length},"ms":[${ms.join(',')}]`;
      if (ref[i] >= 0 && idx[ref[i]] >= 0) t += `,"by":${idx[ref[i]]}`;
      const r = (f >> 5) & 3;
      if (r !== 1) t += r === 2 ? ',"r":"b"' : r === 3 ? ',"r":"f"' : ',"r":"-"';
    }
    out.node(`${t}}`);
  }
  return out.done();
}

/**
 * The version-2 document of any other model (a version-1 or foreign document, as import.js makes
 * it), as an array of strings; null when a node carries foreign data (`extra`: the keys a foreign
 * format had), which version 2 has no field for: the caller writes version 1 then.
 */
export function modelToCompactParts(model) {
  // First pass: the pre-order indices (for cutoff.by), whether every node is ordered, and the
  // foreign data that would be lost.
  const index = new Map();
  let ordered = true;
  let foreign = false;
  let at = 0;
  eachBefore(model.root, (n) => {
    if (n.kind !== 'truncated') index.set(n.id, at++);
    if (n.extra) foreign = true;
    if (n.kind !== 'truncated' && (n.order === null || n.order === undefined)) ordered = false;
    return !foreign;
  });
  if (foreign) return null;
  const names = [];
  const nameIds = new Map();
  const layouts = [];
  const layoutIds = new Map();
  const layoutOf = (terms) => {
    const t = terms.map((x) => {
      const name = String(x.name);
      if (!nameIds.has(name)) {
        nameIds.set(name, names.length);
        names.push(name);
      }
      return nameIds.get(name);
    });
    const w = terms.map((x) => (Number.isFinite(x.weight) ? x.weight : 1));
    const key = `${t.join(',')}|${w.join(',')}`;
    if (!layoutIds.has(key)) {
      layoutIds.set(key, layouts.length);
      layouts.push({ t, w });
    }
    return layoutIds.get(key);
  };
  const rawsOf = (bd) => bd.terms.map((x) => (Number.isFinite(x.raw) ? num32(Math.fround(x.raw)) : Number.isFinite(x.value) ? num32(Math.fround(x.value)) : '0'));
  const texts = [];
  let prevOrder = -1;
  // Pre-order again, writing; a node's truncated child becomes its `u`.
  eachBefore(model.root, (n) => {
    if (n.kind === 'truncated') return;
    const kids = n.children || [];
    let c = 0;
    let u = 0;
    for (const x of kids) {
      if (x.kind === 'truncated') u += x.count || 0;
      else c++;
    }
    const letter = MODEL_KIND_LETTERS[n.kind] ?? (c ? 'x' : 'l');
    let t = `{"k":"${letter}"`;
    if (n.label !== null && n.label !== undefined && n.kind !== 'pruned') t += `,"m":${JSON.stringify(String(n.label))}`;
    if (c) t += `,"c":${c}`;
    // A pruned node's value is the one that caused the cut.
    const v = letter === 'p' ? (n.cutoff ? n.cutoff.value : null) : n.value;
    if (Number.isFinite(v)) t += `,"v":${num(v)}`;
    if (letter !== 'p') {
      const b = n.bound;
      if (b !== 'exact') t += b === 'lower' ? ',"b":"l"' : b === 'upper' ? ',"b":"u"' : ',"b":"-"';
    }
    const win = n.kind === 'pruned' && n.cutoff ? n.cutoff : n;
    if (Number.isFinite(win.alpha)) t += `,"a":${num(win.alpha)}`;
    if (Number.isFinite(win.beta)) t += `,"z":${num(win.beta)}`;
    if (Number.isFinite(n.prob)) t += `,"q":${num(n.prob)}`;
    const p = n.prescore && Array.isArray(n.prescore.terms) ? n.prescore : null;
    let pText = null;
    if (p) {
      pText = `${layoutOf(p.terms)}${rawsOf(p).map((r) => `,${r}`).join('')}`;
      t += `,"p":[${num(Number.isFinite(p.total) ? p.total : 0)},${pText}]`;
    }
    const e = n.eval && Array.isArray(n.eval.terms) ? n.eval : null;
    if (e) {
      const eText = `${layoutOf(e.terms)}${rawsOf(e).map((r) => `,${r}`).join('')}`;
      t += eText === pText ? ',"e":true' : `,"e":[${eText}]`;
      if (Number.isFinite(e.total) && e.total !== v) t += `,"et":${num(e.total)}`;
    }
    if (n.best) t += ',"pv":1';
    if (n.tt) t += ',"tt":1';
    if (Number.isInteger(n.tt_worker) && n.tt_worker >= 1 && n.tt_worker <= 255) t += `,"tw":${n.tt_worker}`;
    if (n.proven) t += ',"pr":1';
    if (n.note) t += noteToCompact(n.note);
    // Whole visit counts only (version 2's N); a foreign dump's fractional ones stay in version 1.
    if (Number.isInteger(n.visits) && n.visits >= 0) t += `,"N":${n.visits}`;
    if (Number.isFinite(n.prior)) t += `,"P":${num(n.prior)}`;
    if (Number.isFinite(n.uct)) t += `,"U":${num(n.uct)}`;
    if (u > 0) t += `,"u":${u}`;
    if (ordered) {
      if (n.order !== prevOrder + 1) t += `,"o":${n.order}`;
      prevOrder = n.order;
    }
    if (letter === 'p') {
      const ms = Array.isArray(n.moves) ? n.moves.map((m) => JSON.stringify(String(m))) : [];
      t += `,"n":${ms.length},"ms":[${ms.join(',')}]`;
      const by = n.cutoff ? index.get(n.cutoff.by) : undefined;
      if (by !== undefined) t += `,"by":${by}`;
      if (n.reason !== 'alphabeta') t += n.reason === 'branching_limit' ? ',"r":"b"' : n.reason === 'futility' ? ',"r":"f"' : ',"r":"-"';
    }
    texts.push(`${t}}`);
  });
  const header = { ...model.meta, settings: Object.fromEntries(model.settings || []), stats: model.stats ?? { nodes: model.count }, chosen: model.chosen ?? undefined };
  const out = new Parts(opening(header, names, layouts, ordered && texts.length > 0));
  for (const t of texts) out.node(t);
  return out.done();
}
