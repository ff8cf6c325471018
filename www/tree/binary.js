// Reads the binary form of a search tree (written by the engine: src/tree/binary.rs; layout in
// docs/tree-format.md, "Binary form") straight from its ArrayBuffer: typed-array views over the
// sections, no JSON for the nodes. The model's nodes are small objects (id, move, kind, value,
// links, size); everything else (window, bound, breakdowns, cut moves...) is read from the arrays
// when something asks for it, through getters on their prototype.
//
// Pure functions with no DOM: they run on the page, in workers and under node's test runner.

import { KINDS, FORMAT_NAMES, nativeHeader, TreeFormatError } from './import.js';
import { isPacked, unpackSections } from './pack.js';

/** `PSTB` as a little-endian 32-bit word: the first four bytes of the binary form. */
export const BINARY_MAGIC = 0x42545350;
/** The plain layout's version word (the packed layout's is 2: pack.js). */
export const BINARY_VERSION = 1;
const PACKED_LAYOUT_WORD = 2;
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
  ['note', Uint8Array],
  // MCTS (absent from buffers written before they were added: read as none).
  ['visits', Float64Array],
  ['prior', Float64Array],
  ['uct', Float64Array],
  // Parallel search: the helper worker whose table entry gave the value or first move (0: none).
  ['ttWorker', Uint8Array],
  // Singular extensions: bit 0 extended, 1 shortened, 2 multi-cut (the note's bits 8-10).
  ['note2', Uint8Array],
];
/** Section counts of buffers written before the last sections were added (28: before the MCTS
 * sections, 31: before ttWorker, 32: before note2); the sections they lack read as null. */
const OLDER_COUNTS = [28, 31, 32];
/** Whether a buffer's section count is one this reader knows. */
export function knownSectionCount(count) {
  return count === SECTIONS.length || OLDER_COUNTS.includes(count);
}
const NONE = 0xffffffff;
const BOUND_CODES = [null, 'exact', 'lower', 'upper'];
const REASONS = [null, 'alphabeta', 'branching_limit', 'futility'];
/** The kind code of `pruned` nodes (KINDS[5]). */
const PRUNED = 5;

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
  let n;
  let s;
  let counts = null;
  if (isPacked(buffer)) {
    // The packed layout (pack.js): decoded into arrays of the plain layout's types (some when
    // first read: their lengths are checked from the table).
    try {
      ({ n, s, counts } = unpackSections(buffer));
    } catch (e) {
      fail(e.message.replace(/^packed binary tree: expected /, 'in the packed layout: '));
    }
  } else {
    if (head[1] !== BINARY_VERSION) fail(`layout version ${BINARY_VERSION} or ${PACKED_LAYOUT_WORD}, found ${head[1]}`);
    n = head[2];
    const count = head[3];
    if (!knownSectionCount(count)) fail(`${SECTIONS.length} sections, found ${count}`);
    if (buffer.byteLength < 16 + 8 * count) fail('a complete section table');
    const table = new Uint32Array(buffer, 16, 2 * count);
    s = {};
    SECTIONS.forEach(([name, T], k) => {
      if (k >= count) {
        s[name] = null;
        return;
      }
      const off = table[2 * k];
      const len = table[2 * k + 1];
      if (off % 8 !== 0 || off + len * T.BYTES_PER_ELEMENT > buffer.byteLength) fail(`section ${name} inside the buffer`);
      s[name] = new T(buffer, off, len);
    });
  }
  for (const name of ['parent', 'move', 'kind', 'flags', 'value', 'alpha', 'beta', 'prob', 'order', 'count', 'pre', 'eval', 'ref', 'cutAt', 'note', 'visits', 'prior', 'uct', 'ttWorker', 'note2']) {
    if (counts ? counts[name] === undefined : s[name] === null) continue; // an optional section absent
    if ((counts ? counts[name] : s[name].length) !== n) fail(`${n} entries in section ${name}`);
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

/**
 * Where a node's facts are read from: the sections, the decoded string tables, and the links,
 * depths and subtree sizes computed once from the parents (typed arrays: no object per node). Node
 * objects are made when their parent's children are first asked for, and kept.
 */
class Tables {
  constructor(s, n) {
    this.s = s;
    this.n = n;
    this.moves = stringTable(s.moveOffsets, s.moveBytes);
    this.names = stringTable(s.nameOffsets, s.nameBytes);
    const { parent, kind, flags } = s;
    if (parent[0] !== -1) fail(`node 0: the root (parent -1, found ${parent[0]})`);
    const first = new Int32Array(n).fill(-1);
    const next = new Int32Array(n).fill(-1);
    const size = new Uint32Array(n).fill(1);
    // Backwards: a node's children are linked in their order, and its size is complete (every
    // descendant has a larger index) before it is added to its parent's.
    for (let i = n - 1; i > 0; i--) {
      const p = parent[i];
      if (p < 0 || p >= i) fail(`node ${i}: a parent before it (found ${p})`);
      next[i] = first[p];
      first[p] = i;
      size[p] += size[i];
    }
    const depth = new Uint32Array(n);
    let maxDepth = 0;
    let kinds = 0;
    let best = false;
    const perKind = new Uint32Array(7);
    for (let i = 0; i < n; i++) {
      if (i > 0) {
        const d = depth[parent[i]] + 1;
        depth[i] = d;
        if (d > maxDepth) maxDepth = d;
      }
      const k = kind[i];
      if (k > 6) fail(`node ${i}: a kind code from 0 to 6 (found ${k})`);
      kinds |= 1 << k;
      perKind[k]++;
      if (flags[i] & 1) best = true;
    }
    Object.assign(this, { first, next, size, depth, maxDepth, kinds, best, perKind });
    this.nodes = new Array(n);
  }

  /** Node object `i`, made with its parent's other children when not made yet. */
  node(i) {
    if (this.nodes[i]) return this.nodes[i];
    if (i === 0) return (this.nodes[0] = this.make(0, null));
    this.kids(this.node(this.s.parent[i]));
    return this.nodes[i];
  }

  make(i, parent) {
    const s = this.s;
    const k = s.kind[i];
    const m = s.move[i];
    const v = s.value[i];
    const node = new BinNode(this, i, KINDS[k], m === NONE ? null : this.moves[m] ?? null, k === PRUNED || Number.isNaN(v) ? null : v, parent, this.depth[i], this.size[i]);
    this.nodes[i] = node;
    return node;
  }

  /** The children of `node` (objects made now, in the order searched). */
  kids(node) {
    if (node._kids !== null) return node._kids;
    let c = this.first[node.id];
    if (c < 0) return (node._kids = NO_CHILDREN);
    const out = [];
    for (; c >= 0; c = this.next[c]) out.push(this.nodes[c] || this.make(c, node));
    return (node._kids = out);
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

/** Leaves share one empty list (frozen: nothing may add to it). */
const NO_CHILDREN = Object.freeze([]);

/** A model node over the binary arrays (see the file's comment). */
class BinNode {
  constructor(t, i, kind, label, value, parent, depth, size) {
    this.id = i;
    this.label = label;
    this.kind = kind;
    this.value = value;
    this.parent = parent;
    this.depth = depth;
    this.size = size;
    this._t = t;
    this._kids = null;
  }

  get children() { return this._kids !== null ? this._kids : this._t.kids(this); }
  get bound() { return BOUND_CODES[(this._t.s.flags[this.id] >> 3) & 3]; }
  get best() { return (this._t.s.flags[this.id] & 1) !== 0; }
  get tt() { return (this._t.s.flags[this.id] & 2) !== 0; }
  /** MCTS with the solver: the value is a proven result (flags bit 7). */
  get proven() { return (this._t.s.flags[this.id] & 128) !== 0; }
  get note() { const h = this._t.s.note2; return this._t.s.note[this.id] | (h === null ? 0 : h[this.id] << 8); }
  get alpha() { return this.kind === 'pruned' ? null : opt(this._t.s.alpha[this.id]); }
  get beta() { return this.kind === 'pruned' ? null : opt(this._t.s.beta[this.id]); }
  get prob() { return opt(this._t.s.prob[this.id]); }
  get count() { return opt(this._t.s.count[this.id]); }
  get order() { return opt(this._t.s.order[this.id]); }
  get prescore() { return this._t.breakdown(this._t.s.pre[this.id]); }
  get eval() { return this._t.breakdown(this._t.s.eval[this.id]); }
  get reason() { return this.kind === 'pruned' ? REASONS[(this._t.s.flags[this.id] >> 5) & 3] : null; }
  get visits() { const a = this._t.s.visits; return a === null ? null : opt(a[this.id]); }
  get prior() { const a = this._t.s.prior; return a === null ? null : opt(a[this.id]); }
  get uct() { const a = this._t.s.uct; return a === null ? null : opt(a[this.id]); }
  /** The helper worker whose shared-table entry gave the value or first move, or null. */
  get tt_worker() { const a = this._t.s.ttWorker; return a === null || a[this.id] === 0 ? null : a[this.id]; }

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
Object.assign(BinNode.prototype, { inferred: false, extra: null });

/**
 * The model of a binary tree: `{ format, meta, settings, stats, chosen, root, count, kindsPresent,
 * hasBestLine, maxDepth, treeCounts, formatName, binaryBytes, byId(id) }`. Costs a few passes over typed arrays
 * whatever the size; node objects are made as the explorer opens them (`byId` makes a node's
 * ancestors' children). Throws TreeFormatError for a buffer that is not a valid binary tree.
 */
export function binaryModel(buffer) {
  const { n, s } = sections(buffer);
  if (n === 0) fail('at least one node');
  const doc = JSON.parse(decoder.decode(s.meta));
  const t = new Tables(s, n);
  let notes = 0;
  for (let i = 0; i < s.note.length; i++) notes |= s.note[i];
  if (s.note2 !== null) for (let i = 0; i < s.note2.length; i++) notes |= s.note2[i] << 8;
  let proven = false;
  for (let i = 0; i < n && !proven; i++) if (s.flags[i] & 128) proven = true;
  const ttWorker = s.ttWorker !== null && s.ttWorker.some((w) => w !== 0);
  return {
    ...nativeHeader(doc),
    format: 'plyscope-tree',
    formatName: FORMAT_NAMES['plyscope-tree'],
    root: t.node(0),
    count: n,
    kindsPresent: KINDS.filter((k, i) => t.kinds & (1 << i)),
    hasBestLine: t.best,
    notesPresent: notes,
    provenPresent: proven,
    ttWorkerPresent: ttWorker,
    maxDepth: t.maxDepth,
    // What analysis.js's treeCounts would count, without walking (and so making) every node.
    treeCounts: { boxes: n, positions: n - t.perKind[5] - t.perKind[6], cutoffs: t.perKind[5], unrecorded: t.perKind[6] },
    binaryBytes: buffer.byteLength,
    /** The binary form itself (Download writes version 2 straight from its arrays). */
    buffer,
    /** The node numbered `id`, or null. */
    byId: (id) => {
      const i = typeof id === 'number' ? id : /^\d+$/.test(String(id)) ? Number(id) : -1;
      return Number.isInteger(i) && i >= 0 && i < n ? t.node(i) : null;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Writing the binary form (the parse worker writes it from a version-2 document: compact.js)

/**
 * Lays out the binary form from its sections (`{meta: Uint8Array, parent: Int32Array, ...}`, one
 * typed array per entry of SECTIONS, in their types): the same bytes src/tree/binary.rs writes.
 */
export function packBinary(n, parts) {
  const head = 16 + 8 * SECTIONS.length;
  let at = head;
  const places = SECTIONS.map(([name, T]) => {
    const a = parts[name];
    if (!(a instanceof T)) throw new TypeError(`section ${name}: expected a ${T.name}`);
    at = Math.ceil(at / 8) * 8;
    const off = at;
    at += a.byteLength;
    return off;
  });
  const buffer = new ArrayBuffer(Math.ceil(at / 8) * 8);
  const words = new Uint32Array(buffer, 0, head / 4);
  words[0] = BINARY_MAGIC;
  words[1] = BINARY_VERSION;
  words[2] = n;
  words[3] = SECTIONS.length;
  const bytes = new Uint8Array(buffer);
  SECTIONS.forEach(([name], k) => {
    const a = parts[name];
    words[4 + 2 * k] = places[k];
    words[5 + 2 * k] = a.length;
    bytes.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), places[k]);
  });
  return buffer;
}
