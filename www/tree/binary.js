// Reads the binary form of a search tree (written by the engine: src/tree/binary.rs; layout in
// docs/tree-format.md, "Binary form") straight from its ArrayBuffer: typed-array views over the
// sections, no JSON for the nodes. The model's nodes are small objects (id, move, kind, value,
// links, size); everything else (window, bound, breakdowns, cut moves...) is read from the arrays
// when something asks for it, through getters on their prototype.
//
// Pure functions with no DOM: they run on the page, in workers and under node's test runner.

import { KINDS, FORMAT_NAMES, nativeHeader, TreeFormatError } from './import.js';

/** `PSTB` as a little-endian 32-bit word: the first four bytes of the binary form. */
export const BINARY_MAGIC = 0x42545350;
/** The layout version this reader knows. */
export const BINARY_VERSION = 1;
/** The sections, in order, with their element types (docs/tree-format.md lists their meaning). */
export const SECTIONS = [
  ['meta', Uint8Array],
  ['parent', Int32Array],
  ['move', Uint32Array],
  ['kind', Uint8Array],
  ['flags', Uint8Array],
  ['value', Float64Array],
  ['alpha', Float64Array],
  ['beta', Float64Array],
  ['prob', Float64Array],
  ['order', Float64Array],
  ['count', Float64Array],
  ['pre', Uint32Array],
  ['eval', Uint32Array],
  ['ref', Int32Array],
  ['cutAt', Uint32Array],
  ['bdLayout', Uint32Array],
  ['bdAt', Uint32Array],
  ['bdTotal', Float64Array],
  ['raws', Float32Array],
  ['cut', Uint32Array],
  ['moveOffsets', Uint32Array],
  ['moveBytes', Uint8Array],
  ['nameOffsets', Uint32Array],
  ['nameBytes', Uint8Array],
  ['layoutStart', Uint32Array],
  ['layoutNames', Uint32Array],
  ['layoutWeights', Float64Array],
];
const NONE = 0xffffffff;
const BOUND_CODES = [null, 'exact', 'lower', 'upper'];
const REASONS = [null, 'alphabeta', 'branching_limit'];
const PRUNED = KINDS.indexOf('pruned');

/** Whether `x` looks like a binary tree (an ArrayBuffer starting with the magic word). */
export function isBinaryTree(x) {
  return x instanceof ArrayBuffer && x.byteLength >= 16 && new Uint32Array(x, 0, 1)[0] === BINARY_MAGIC;
}

function fail(what) {
  throw new TreeFormatError('binary tree', what);
}

/** The sections of `buffer` as typed arrays, checked to lie inside it: `{ n, s: {name: array} }`. */
export function sections(buffer) {
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength < 16) fail('an ArrayBuffer of at least 16 bytes');
  const head = new Uint32Array(buffer, 0, 4);
  if (head[0] !== BINARY_MAGIC) fail('the magic word PSTB');
  if (head[1] !== BINARY_VERSION) fail(`layout version ${BINARY_VERSION}, found ${head[1]}`);
  const n = head[2];
  if (head[3] !== SECTIONS.length) fail(`${SECTIONS.length} sections, found ${head[3]}`);
  if (buffer.byteLength < 16 + 8 * SECTIONS.length) fail('a complete section table');
  const table = new Uint32Array(buffer, 16, 2 * SECTIONS.length);
  const s = {};
  SECTIONS.forEach(([name, T], k) => {
    const off = table[2 * k];
    const len = table[2 * k + 1];
    if (off % 8 !== 0 || off + len * T.BYTES_PER_ELEMENT > buffer.byteLength) fail(`section ${name} inside the buffer`);
    s[name] = new T(buffer, off, len);
  });
  for (const name of ['parent', 'move', 'kind', 'flags', 'value', 'alpha', 'beta', 'prob', 'order', 'count', 'pre', 'eval', 'ref', 'cutAt']) {
    if (s[name].length !== n) fail(`${n} entries in section ${name}`);
  }
  return { n, s };
}

const decoder = new TextDecoder();

function stringTable(offsets, bytes) {
  const out = new Array(Math.max(0, offsets.length - 1));
  for (let i = 0; i < out.length; i++) out[i] = decoder.decode(bytes.subarray(offsets[i], offsets[i + 1]));
  return out;
}

/** The document header (format, game, settings, stats, chosen...) of a binary tree, as an object. */
export function binaryMeta(buffer) {
  const { s } = sections(buffer);
  return JSON.parse(decoder.decode(s.meta));
}

/** Where a node's facts are read from: the sections and the decoded string tables. */
class Tables {
  constructor(s) {
    this.s = s;
    this.moves = stringTable(s.moveOffsets, s.moveBytes);
    this.names = stringTable(s.nameOffsets, s.nameBytes);
  }

  breakdown(b) {
    if (b === NONE || b >= this.s.bdTotal.length) return null;
    const s = this.s;
    const l = s.bdLayout[b];
    const from = s.layoutStart[l];
    const to = s.layoutStart[l + 1];
    const at = s.bdAt[b];
    const terms = [];
    for (let k = 0; k < to - from; k++) {
      const raw = s.raws[at + k];
      const weight = s.layoutWeights[from + k];
      terms.push({ name: this.names[s.layoutNames[from + k]], raw, weight, value: raw * weight });
    }
    return { total: s.bdTotal[b], terms };
  }
}

const opt = (v) => (Number.isNaN(v) ? null : v);

/** Leaves share one empty list (frozen: nothing may add to it); a parent gets its own. */
const NO_CHILDREN = Object.freeze([]);

/** A model node over the binary arrays (see the file's comment). */
class BinNode {
  constructor(t, i, kind, label, value, parent, depth) {
    this.id = i;
    this.label = label;
    this.kind = kind;
    this.value = value;
    this.children = NO_CHILDREN;
    this.parent = parent;
    this.depth = depth;
    this.size = 1;
    this._t = t;
  }

  get bound() { return BOUND_CODES[(this._t.s.flags[this.id] >> 3) & 3]; }
  get best() { return (this._t.s.flags[this.id] & 1) !== 0; }
  get tt() { return (this._t.s.flags[this.id] & 2) !== 0; }
  get alpha() { return this.kind === 'pruned' ? null : opt(this._t.s.alpha[this.id]); }
  get beta() { return this.kind === 'pruned' ? null : opt(this._t.s.beta[this.id]); }
  get prob() { return opt(this._t.s.prob[this.id]); }
  get count() { return opt(this._t.s.count[this.id]); }
  get order() { return opt(this._t.s.order[this.id]); }
  get prescore() { return this._t.breakdown(this._t.s.pre[this.id]); }
  get eval() { return this._t.breakdown(this._t.s.eval[this.id]); }
  get reason() { return this.kind === 'pruned' ? REASONS[(this._t.s.flags[this.id] >> 5) & 3] : null; }

  get moves() {
    if (this.kind !== 'pruned') return null;
    const s = this._t.s;
    const at = s.cutAt[this.id];
    const n = s.count[this.id];
    if (at === NONE || !(n >= 0) || at + n > s.cut.length) return null;
    const out = new Array(n);
    for (let k = 0; k < n; k++) out[k] = this._t.moves[s.cut[at + k]] ?? '';
    return out;
  }

  get cutoff() {
    if (this.reason !== 'alphabeta') return null;
    const s = this._t.s;
    const by = s.ref[this.id];
    return { by: by >= 0 ? by : null, value: opt(s.value[this.id]), alpha: opt(s.alpha[this.id]), beta: opt(s.beta[this.id]) };
  }
}
Object.assign(BinNode.prototype, { inferred: false, visits: null, extra: null });

/**
 * Builds the model of a binary tree: `{ format, meta, settings, stats, chosen, root, count,
 * kindsPresent, hasBestLine, formatName, binaryBytes }`. Nodes are made in blocks; with `yieldNow`
 * (a function returning a promise) the event loop gets a turn every `sliceMs`, and the result is a
 * promise (null when `cancelled()` turns true between slices). Throws TreeFormatError for a buffer
 * that is not a valid binary tree (or rejects, in slices).
 */
export function binaryModel(buffer, { sliceMs = 10, yieldNow = null, cancelled = () => false } = {}) {
  const { n, s } = sections(buffer);
  if (n === 0) fail('at least one node');
  const doc = JSON.parse(decoder.decode(s.meta));
  const t = new Tables(s);
  const nodes = new Array(n);
  let kinds = 0;
  let best = false;
  const { parent, kind, flags, value, move } = s;
  const build = (from, to) => {
    for (let i = from; i < to; i++) {
      const p = parent[i];
      if (i === 0 ? p !== -1 : p < 0 || p >= i) fail(`node ${i}: a parent before it (found ${p})`);
      const pn = i === 0 ? null : nodes[p];
      const k = kind[i];
      if (k > 6) fail(`node ${i}: a kind code from 0 to 6 (found ${k})`);
      const m = move[i];
      const v = value[i];
      const node = new BinNode(t, i, KINDS[k], m === NONE ? null : t.moves[m] ?? null, k === PRUNED || Number.isNaN(v) ? null : v, pn, pn ? pn.depth + 1 : 0);
      kinds |= 1 << k;
      if (flags[i] & 1) best = true;
      if (pn) {
        if (pn.children === NO_CHILDREN) pn.children = [node];
        else pn.children.push(node);
      }
      nodes[i] = node;
    }
  };
  const finish = () => {
    // Subtree sizes, children before parents (a parent's index is always smaller).
    for (let i = n - 1; i > 0; i--) nodes[parent[i]].size += nodes[i].size;
    const head = nativeHeader(doc);
    return {
      ...head,
      format: 'plyscope-tree',
      formatName: FORMAT_NAMES['plyscope-tree'],
      root: nodes[0],
      count: n,
      kindsPresent: KINDS.filter((k, i) => kinds & (1 << i)),
      hasBestLine: best,
      binaryBytes: buffer.byteLength,
    };
  };
  if (!yieldNow) {
    build(0, n);
    return finish();
  }
  return (async () => {
    let at = 0;
    while (at < n) {
      const t0 = performance.now();
      do {
        const to = Math.min(n, at + 1024);
        build(at, to);
        at = to;
      } while (at < n && performance.now() - t0 < sliceMs);
      if (at < n) {
        await yieldNow();
        if (cancelled()) return null;
      }
    }
    return finish();
  })();
}
