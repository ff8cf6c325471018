// Reads a compact (version 2) plyscope-tree document (docs/tree-format.md, "Version 2") straight
// into the binary form the engine's worker sends (binary.js): typed arrays filled in one pass over
// the flat node list, no model object per node. The parse worker does this for large pasted
// documents and hands the page one transferable buffer; small ones are read on the page the same way.
//
// Checks what the engine's reader checks (src/tree/compact.rs) and reports the JSON path of the
// first problem, e.g. `$.nodes[17].p: expected 7 raw values after the layout index`.

import { packBinary } from './binary.js';
import { noteOfCompact } from './note.js';
import { TreeFormatError, BudgetError } from './import.js';

const KIND_CODES = { x: 0, n: 1, c: 2, l: 3, t: 4, p: 5 };
const NONE = 0xffffffff;
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNum = (v) => typeof v === 'number' && Number.isFinite(v);

/** Whether `doc` is a version-2 plyscope-tree document. */
export function isCompactDocument(doc) {
  return isObj(doc) && doc.format === 'plyscope-tree' && doc.version === 2;
}

/** The JSON path of node `i`'s `key`. */
const at = (i, key) => `$.nodes[${i}].${key}`;

function bad(path, expected, found) {
  throw new TreeFormatError(path, expected, found);
}

/** A growable typed array. */
class Grow {
  constructor(T, cap = 1024) {
    this.T = T;
    this.a = new T(cap);
    this.length = 0;
  }

  push(v) {
    if (this.length === this.a.length) {
      const b = new this.T(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.length++] = v;
  }

  /** The filled part (a view: packBinary copies it into the buffer). */
  done() {
    return this.a.subarray(0, this.length);
  }
}

/**
 * The binary form (an ArrayBuffer) of a parsed version-2 document. Throws TreeFormatError naming
 * the JSON path of the first problem, BudgetError when it has more than `budget.maxNodes` nodes.
 */
export function compactToBinary(doc, budget = {}) {
  if (!isCompactDocument(doc)) bad('$', 'a plyscope-tree document of version 2');
  const list = doc.nodes;
  if (!Array.isArray(list) || list.length === 0) bad('$.nodes', 'at least the root node');
  const b = builder(doc, budget, list.length);
  for (let i = 0; i < list.length; i++) b.node(list[i]);
  return b.finish();
}

/**
 * Fills the binary form's arrays node by node: `node(o)` takes each node object in turn (a parsed
 * one, or the scanner's record), `finish()` checks the end and returns the buffer. `total`: the
 * number of nodes when known (Infinity for the scanner).
 */
function builder(doc, budget, total) {
  const names = doc.terms === undefined ? [] : doc.terms;
  if (!Array.isArray(names) || names.some((x) => typeof x !== 'string')) bad('$.terms', 'an array of term names');
  const layouts = doc.layouts === undefined ? [] : doc.layouts;
  if (!Array.isArray(layouts)) bad('$.layouts', 'an array of {t, w}');
  const layoutStart = new Uint32Array(layouts.length + 1);
  const layoutNames = [];
  const layoutWeights = [];
  layouts.forEach((l, i) => {
    if (!isObj(l) || !Array.isArray(l.t) || !Array.isArray(l.w) || l.t.length !== l.w.length) bad(`$.layouts[${i}]`, 'as many weights (w) as terms (t)');
    for (const x of l.t) if (!Number.isInteger(x) || x < 0 || x >= names.length) bad(`$.layouts[${i}].t`, `term indices below ${names.length}`, String(x));
    for (const w of l.w) if (!isNum(w)) bad(`$.layouts[${i}].w`, 'finite weights');
    layoutNames.push(...l.t);
    layoutWeights.push(...l.w);
    layoutStart[i + 1] = layoutNames.length;
  });
  const layoutLen = (i) => layoutStart[i + 1] - layoutStart[i];
  const maxNodes = budget.maxNodes ?? Infinity;
  let cap = Number.isFinite(total) ? total + 16 : 1 << 16;
  const fresh = () => ({
    parent: new Int32Array(cap),
    move: new Uint32Array(cap).fill(NONE),
    kind: new Uint8Array(cap),
    flags: new Uint8Array(cap),
    note: new Uint8Array(cap),
    value: new Float64Array(cap).fill(NaN),
    alpha: new Float64Array(cap).fill(NaN),
    beta: new Float64Array(cap).fill(NaN),
    prob: new Float64Array(cap).fill(NaN),
    order: new Float64Array(cap).fill(NaN),
    count: new Float64Array(cap).fill(NaN),
    pre: new Uint32Array(cap).fill(NONE),
    eval: new Uint32Array(cap).fill(NONE),
    ref: new Int32Array(cap).fill(-1),
    cutAt: new Uint32Array(cap).fill(NONE),
    visits: new Float64Array(cap).fill(NaN),
    prior: new Float64Array(cap).fill(NaN),
    uct: new Float64Array(cap).fill(NaN),
    ttWorker: new Uint8Array(cap),
    note2: new Uint8Array(cap),
  });
  let A = fresh();
  let { parent, move, kind, flags, note, value, alpha, beta, prob, order, count, pre, eval: evalIdx, ref, cutAt, visits, prior, uct, ttWorker, note2 } = A;
  /** Room for node `i` (capacities double). */
  const room = (i) => {
    if (i < cap) return;
    const old = A;
    while (cap <= i) cap *= 2;
    A = fresh();
    for (const k of Object.keys(A)) A[k].set(old[k]);
    ({ parent, move, kind, flags, note, value, alpha, beta, prob, order, count, pre, eval: evalIdx, ref, cutAt, visits, prior, uct, ttWorker, note2 } = A);
  };
  // Sized for a pre-score at every node and an evaluation at every leaf when the node count is
  // known: growing by doubling from small copies the arrays many times over (a fifth of the time).
  const bdCap = Number.isFinite(total) ? Math.min(2 * total + 16, 1 << 26) : 1024;
  const bdLayout = new Grow(Uint32Array, bdCap);
  const bdAt = new Grow(Uint32Array, bdCap);
  const bdTotal = new Grow(Float64Array, bdCap);
  const raws = new Grow(Float32Array, Math.min(2 * bdCap, 1 << 27));
  const cut = new Grow(Uint32Array);
  const moves = [];
  const moveIds = new Map();
  const moveId = (m) => {
    let id = moveIds.get(m);
    if (id === undefined) {
      id = moves.length;
      moves.push(m);
      moveIds.set(m, id);
    }
    return id;
  };
  /** A breakdown `[layout, raw...]` from `arr` at `from` (node `i`'s `key`); returns its index. */
  const breakdown = (arr, from, total, i, key) => {
    const l = arr[from];
    if (!Number.isInteger(l) || l < 0 || l >= layouts.length) bad(`$.nodes[${i}].${key}`, `a layout index below ${layouts.length}`, String(l));
    const want = layoutStart[l + 1] - layoutStart[l];
    if (arr.length - from - 1 !== want) bad(`$.nodes[${i}].${key}`, `${want} raw values after the layout index`, String(arr.length - from - 1));
    bdLayout.push(l);
    bdAt.push(raws.length);
    bdTotal.push(total);
    for (let k = from + 1; k < arr.length; k++) {
      const r = arr[k];
      if (typeof r !== 'number' || !Number.isFinite(r)) bad(`$.nodes[${i}].${key}`, 'finite raw values', String(r));
      raws.push(r);
    }
    return bdTotal.length - 1;
  };
  /** A finite number, or undefined for an absent (or null) one; `key` names it in the error. */
  const num = (v, key) => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) bad(at(i, key), 'a finite number');
    return v;
  };
  const ordered = doc.ordered === true;
  let prevOrder = null;
  // Open nodes with the children they still expect.
  const openNode = [];
  const openLeft = [];
  const unrecorded = [];
  let i = 0;
  const node = (o) => {
    if (!isObj(o)) bad(`$.nodes[${i}]`, 'a node object');
    if (i + 1 > maxNodes) throw new BudgetError('nodes', i + 1, maxNodes);
    room(i);
    // One pass over the keys the node has (five or six of the nineteen, usually): reading every
    // possible key by name costs a lookup per absent key, on objects of a dozen shapes, and was most
    // of the time spent here (2.7 s of 3.9 s for 10^6 nodes, before).
    let ok, om, ov, oa, oz, oq, opv, ott, ob, oo, op, oe, oet, oms, on, oby, or, os, ou, oc, oN, oP, oU, opr, otw;
    for (const key in o) {
      const x = o[key];
      switch (key) {
        case 'k': ok = x; break;
        case 'm': om = x; break;
        case 'c': oc = x; break;
        case 'v': ov = x; break;
        case 'p': op = x; break;
        case 'e': oe = x; break;
        case 'pv': opv = x; break;
        case 'a': oa = x; break;
        case 'z': oz = x; break;
        case 'b': ob = x; break;
        case 'o': oo = x; break;
        case 'q': oq = x; break;
        case 'tt': ott = x; break;
        case 'et': oet = x; break;
        case 'u': ou = x; break;
        case 's': os = x; break;
        case 'n': on = x; break;
        case 'ms': oms = x; break;
        case 'by': oby = x; break;
        case 'r': or = x; break;
        case 'N': oN = x; break;
        case 'P': oP = x; break;
        case 'U': oU = x; break;
        case 'pr': opr = x; break;
        case 'tw': otw = x; break;
        default: break;
      }
    }
    while (openLeft.length && openLeft[openLeft.length - 1] === 0) {
      openLeft.pop();
      openNode.pop();
    }
    let p = -1;
    if (openLeft.length) {
      openLeft[openLeft.length - 1]--;
      p = openNode[openNode.length - 1];
    } else if (i !== 0) bad(`$.nodes[${i}]`, "a node inside the root's subtree (the children counts `c` end before it)");
    parent[i] = p;
    const k = typeof ok === 'string' ? KIND_CODES[ok] : undefined;
    if (k === undefined) bad(at(i, 'k'), 'one of x, n, c, l, t, p');
    kind[i] = k;
    if (om !== undefined && om !== null) {
      if (typeof om !== 'string') bad(at(i, 'm'), 'a move text');
      move[i] = moveId(om);
    }
    if ((ov = num(ov, 'v')) !== undefined) value[i] = ov;
    if ((oa = num(oa, 'a')) !== undefined) alpha[i] = oa;
    if ((oz = num(oz, 'z')) !== undefined) beta[i] = oz;
    if ((oq = num(oq, 'q')) !== undefined) prob[i] = oq;
    if ((oN = num(oN, 'N')) !== undefined) {
      if (!(Number.isInteger(oN) && oN >= 0)) bad(at(i, 'N'), 'a whole number of visits');
      visits[i] = oN;
    }
    if ((oP = num(oP, 'P')) !== undefined) prior[i] = oP;
    if ((oU = num(oU, 'U')) !== undefined) uct[i] = oU;
    if (otw !== undefined && otw !== null) {
      if (!(Number.isInteger(otw) && otw >= 1 && otw <= 255)) bad(at(i, 'tw'), 'a worker number from 1 to 255');
      ttWorker[i] = otw;
    }
    let f = 0;
    if (opv) f |= 1;
    if (ott) f |= 2;
    if (opr) f |= 128;
    if (k !== 5) {
      const b = ob === undefined ? 1 : ob === 'l' ? 2 : ob === 'u' ? 3 : ob === '-' ? 0 : -1;
      if (b < 0) bad(at(i, 'b'), '"l", "u" or "-"');
      f |= b << 3;
    }
    if (ordered) {
      const v = oo === undefined ? (prevOrder === null ? 0 : prevOrder + 1) : oo;
      if (!Number.isInteger(v) || v < 0) bad(at(i, 'o'), 'a whole number');
      order[i] = v;
      prevOrder = v;
    }
    if (op !== undefined) {
      if (!Array.isArray(op) || op.length < 2 || !isNum(op[0])) bad(at(i, 'p'), '[total, layout, raw...]');
      pre[i] = breakdown(op, 1, op[0], i, 'p');
    }
    if (oe !== undefined) {
      const total = isNum(oet) ? oet : Number.isNaN(value[i]) ? null : value[i];
      if (oe === true) {
        if (pre[i] === NONE) bad(at(i, 'e'), 'a pre-score (p) to share');
        const b = pre[i];
        bdLayout.push(bdLayout.a[b]);
        bdAt.push(bdAt.a[b]);
        bdTotal.push(total ?? bdTotal.a[b]);
        evalIdx[i] = bdTotal.length - 1;
      } else if (Array.isArray(oe) && oe.length >= 1) {
        evalIdx[i] = breakdown(oe, 0, total ?? 0, i, 'e');
      } else bad(at(i, 'e'), 'true or [layout, raw...]');
    }
    if (k === 5) {
      const ms = oms === undefined ? [] : oms;
      if (!Array.isArray(ms) || ms.some((m) => typeof m !== 'string')) bad(at(i, 'ms'), 'an array of move texts');
      const c = on === undefined ? ms.length : on;
      if (c !== ms.length) bad(at(i, 'n'), 'the number of moves in ms');
      count[i] = c;
      cutAt[i] = cut.length;
      for (const m of ms) cut.push(moveId(m));
      const r = or === undefined ? 1 : or === 'b' ? 2 : or === 'f' ? 3 : or === '-' ? 0 : -1;
      if (r < 0) bad(at(i, 'r'), '"b", "f" or "-"');
      f |= r << 5;
      if (oby !== undefined) {
        if (!Number.isInteger(oby) || oby < 0 || oby >= i || parent[oby] !== p) bad(at(i, 'by'), 'the index of an earlier sibling');
        ref[i] = oby;
      }
    }
    if (os !== undefined) {
      if (!Number.isInteger(os) || os < 0 || os >= i || parent[os] !== p) bad(at(i, 's'), 'the index of an earlier sibling');
      ref[i] = os;
    }
    flags[i] = f;
    const nt = noteOfCompact(o);
    note[i] = nt & 255;
    note2[i] = nt >> 8;
    if (ou !== undefined) {
      if (!Number.isInteger(ou) || ou < 0) bad(at(i, 'u'), 'a whole number');
      if (ou > 0) unrecorded.push(i, ou);
    }
    const c = oc === undefined ? 0 : oc;
    if (!Number.isInteger(c) || c < 0) bad(at(i, 'c'), 'a whole number');
    if (c > 0) {
      if (k === 5) bad(at(i, 'c'), 'no children under a pruned node');
      if (c >= total - i) bad(at(i, 'c'), 'no more children than nodes that follow');
      openNode.push(i);
      openLeft.push(c);
    }
    i++;
  };
  const finish = () => {
  if (i === 0) bad('$.nodes', 'at least the root node');
  if (openLeft.some((x) => x > 0)) bad('$.nodes', 'as many nodes as the children counts (c) announce');
  const m = i;
  const n = m + unrecorded.length / 2;
  if (n > maxNodes) throw new BudgetError('nodes', n, maxNodes);
  room(n - 1);
  // One `truncated` node for each node with unrecorded nodes below it, after every recorded node,
  // numbered as version 1 numbers them: once the node's whole subtree is (by the end of its
  // subtree, then deepest first).
  if (unrecorded.length) {
    const size = new Uint32Array(m).fill(1);
    for (let i = m - 1; i > 0; i--) size[parent[i]] += size[i];
    const depth = new Uint32Array(m);
    for (let i = 1; i < m; i++) depth[i] = depth[parent[i]] + 1;
    const which = [];
    for (let j = 0; j < unrecorded.length; j += 2) which.push([unrecorded[j], unrecorded[j + 1]]);
    which.sort(([a], [b]) => a + size[a] - (b + size[b]) || depth[b] - depth[a]);
    which.forEach(([p, u], j) => {
      parent[m + j] = p;
      kind[m + j] = 6;
      count[m + j] = u;
    });
  }
  const enc = new TextEncoder();
  const table = (strings) => {
    const offsets = new Uint32Array(strings.length + 1);
    const parts = strings.map((x) => enc.encode(x));
    let len = 0;
    parts.forEach((b, k) => {
      len += b.length;
      offsets[k + 1] = len;
    });
    const bytes = new Uint8Array(len);
    parts.forEach((b, k) => bytes.set(b, offsets[k]));
    return [offsets, bytes];
  };
  const [moveOffsets, moveBytes] = table(moves);
  const [nameOffsets, nameBytes] = table(names);
  const meta = {};
  for (const key of ['format', 'game', 'root_position', 'engine', 'algorithm', 'evaluator', 'perspective', 'values', 'settings', 'stats', 'chosen']) if (doc[key] !== undefined) meta[key] = doc[key];
  meta.version = 1;
  const cut0 = (a) => a.subarray(0, n);
  return packBinary(n, {
    meta: enc.encode(JSON.stringify(meta)),
    parent: cut0(parent),
    move: cut0(move),
    kind: cut0(kind),
    flags: cut0(flags),
    note: cut0(note),
    value: cut0(value),
    alpha: cut0(alpha),
    beta: cut0(beta),
    prob: cut0(prob),
    order: cut0(order),
    count: cut0(count),
    pre: cut0(pre),
    eval: cut0(evalIdx),
    ref: cut0(ref),
    cutAt: cut0(cutAt),
    bdLayout: bdLayout.done(),
    bdAt: bdAt.done(),
    bdTotal: bdTotal.done(),
    raws: raws.done(),
    cut: cut.done(),
    moveOffsets,
    moveBytes,
    nameOffsets,
    nameBytes,
    layoutStart,
    layoutNames: Uint32Array.from(layoutNames),
    layoutWeights: Float64Array.from(layoutWeights),
    visits: cut0(visits),
    prior: cut0(prior),
    uct: cut0(uct),
    ttWorker: cut0(ttWorker),
    note2: cut0(note2),
  });
  };
  return { node, finish };
}
