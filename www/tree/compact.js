// Reads a compact (version 2) plyscope-tree document (docs/tree-format.md, "Version 2") straight
// into the binary form the engine's worker sends (binary.js): typed arrays filled in one pass over
// the flat node list, no model object per node. The parse worker does this for large pasted
// documents and hands the page one transferable buffer; small ones are read on the page the same way.
//
// Checks what the engine's reader checks (src/tree/compact.rs) and reports the JSON path of the
// first problem, e.g. `$.nodes[17].p: expected 7 raw values after the layout index`.

import { packBinary } from './binary.js';
import { TreeFormatError, BudgetError } from './import.js';

const KIND_CODES = { x: 0, n: 1, c: 2, l: 3, t: 4, p: 5 };
const NONE = 0xffffffff;
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNum = (v) => typeof v === 'number' && Number.isFinite(v);

/** Whether `doc` is a version-2 plyscope-tree document. */
export function isCompactDocument(doc) {
  return isObj(doc) && doc.format === 'plyscope-tree' && doc.version === 2;
}

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

  done() {
    return this.a.slice(0, this.length);
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
  let extra = 0;
  for (let i = 0; i < list.length; i++) if (isObj(list[i]) && list[i].u > 0) extra++;
  const n = list.length + extra;
  if (n > (budget.maxNodes ?? Infinity)) throw new BudgetError('nodes', n, budget.maxNodes);
  const parent = new Int32Array(n);
  const move = new Uint32Array(n).fill(NONE);
  const kind = new Uint8Array(n);
  const flags = new Uint8Array(n);
  const value = new Float64Array(n).fill(NaN);
  const alpha = new Float64Array(n).fill(NaN);
  const beta = new Float64Array(n).fill(NaN);
  const prob = new Float64Array(n).fill(NaN);
  const order = new Float64Array(n).fill(NaN);
  const count = new Float64Array(n).fill(NaN);
  const pre = new Uint32Array(n).fill(NONE);
  const evalIdx = new Uint32Array(n).fill(NONE);
  const ref = new Int32Array(n).fill(-1);
  const cutAt = new Uint32Array(n).fill(NONE);
  const bdLayout = new Grow(Uint32Array);
  const bdAt = new Grow(Uint32Array);
  const bdTotal = new Grow(Float64Array);
  const raws = new Grow(Float32Array, 4096);
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
  /** A breakdown `[layout, raw...]` from `arr` at `from`; returns its index. */
  const breakdown = (arr, from, total, path) => {
    const l = arr[from];
    if (!Number.isInteger(l) || l < 0 || l >= layouts.length) bad(path(), `a layout index below ${layouts.length}`, String(l));
    const want = layoutLen(l);
    if (arr.length - from - 1 !== want) bad(path(), `${want} raw values after the layout index`, String(arr.length - from - 1));
    bdLayout.push(l);
    bdAt.push(raws.length);
    bdTotal.push(total);
    for (let k = from + 1; k < arr.length; k++) {
      if (!isNum(arr[k])) bad(path(), 'finite raw values', String(arr[k]));
      raws.push(arr[k]);
    }
    return bdTotal.length - 1;
  };
  const ordered = doc.ordered === true;
  let prevOrder = null;
  // Open nodes with the children they still expect.
  const openNode = [];
  const openLeft = [];
  const unrecorded = [];
  for (let i = 0; i < list.length; i++) {
    const o = list[i];
    const at = (k) => () => `$.nodes[${i}].${k}`;
    if (!isObj(o)) bad(`$.nodes[${i}]`, 'a node object');
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
    const k = KIND_CODES[o.k];
    if (k === undefined) bad(at('k')(), 'one of x, n, c, l, t, p');
    kind[i] = k;
    if (o.m !== undefined && o.m !== null) {
      if (typeof o.m !== 'string') bad(at('m')(), 'a move text');
      move[i] = moveId(o.m);
    }
    for (const [key, arr] of [['v', value], ['a', alpha], ['z', beta], ['q', prob]]) {
      const v = o[key];
      if (v === undefined || v === null) continue;
      if (!isNum(v)) bad(at(key)(), 'a finite number');
      arr[i] = v;
    }
    let f = 0;
    if (o.pv) f |= 1;
    if (o.tt) f |= 2;
    if (k !== 5) {
      const b = o.b === undefined ? 1 : o.b === 'l' ? 2 : o.b === 'u' ? 3 : o.b === '-' ? 0 : -1;
      if (b < 0) bad(at('b')(), '"l", "u" or "-"');
      f |= b << 3;
    }
    if (ordered) {
      const v = o.o === undefined ? (prevOrder === null ? 0 : prevOrder + 1) : o.o;
      if (!Number.isInteger(v) || v < 0) bad(at('o')(), 'a whole number');
      order[i] = v;
      prevOrder = v;
    }
    if (o.p !== undefined) {
      if (!Array.isArray(o.p) || o.p.length < 2 || !isNum(o.p[0])) bad(at('p')(), '[total, layout, raw...]');
      pre[i] = breakdown(o.p, 1, o.p[0], at('p'));
    }
    if (o.e !== undefined) {
      const total = isNum(o.et) ? o.et : Number.isNaN(value[i]) ? null : value[i];
      if (o.e === true) {
        if (pre[i] === NONE) bad(at('e')(), 'a pre-score (p) to share');
        const b = pre[i];
        bdLayout.push(bdLayout.a[b]);
        bdAt.push(bdAt.a[b]);
        bdTotal.push(total ?? bdTotal.a[b]);
        evalIdx[i] = bdTotal.length - 1;
      } else if (Array.isArray(o.e) && o.e.length >= 1) {
        evalIdx[i] = breakdown(o.e, 0, total ?? 0, at('e'));
      } else bad(at('e')(), 'true or [layout, raw...]');
    }
    if (k === 5) {
      const ms = o.ms === undefined ? [] : o.ms;
      if (!Array.isArray(ms) || ms.some((m) => typeof m !== 'string')) bad(at('ms')(), 'an array of move texts');
      const c = o.n === undefined ? ms.length : o.n;
      if (c !== ms.length) bad(at('n')(), 'the number of moves in ms');
      count[i] = c;
      cutAt[i] = cut.length;
      for (const m of ms) cut.push(moveId(m));
      const r = o.r === undefined ? 1 : o.r === 'b' ? 2 : o.r === '-' ? 0 : -1;
      if (r < 0) bad(at('r')(), '"b" or "-"');
      f |= r << 5;
      if (o.by !== undefined) {
        if (!Number.isInteger(o.by) || o.by < 0 || o.by >= i || parent[o.by] !== p) bad(at('by')(), 'the index of an earlier sibling');
        ref[i] = o.by;
      }
    }
    if (o.s !== undefined) {
      if (!Number.isInteger(o.s) || o.s < 0 || o.s >= i || parent[o.s] !== p) bad(at('s')(), 'the index of an earlier sibling');
      ref[i] = o.s;
    }
    flags[i] = f;
    if (o.u !== undefined) {
      if (!Number.isInteger(o.u) || o.u < 0) bad(at('u')(), 'a whole number');
      if (o.u > 0) unrecorded.push(i, o.u);
    }
    const c = o.c === undefined ? 0 : o.c;
    if (!Number.isInteger(c) || c < 0) bad(at('c')(), 'a whole number');
    if (c > 0) {
      if (k === 5) bad(at('c')(), 'no children under a pruned node');
      if (c >= list.length - i) bad(at('c')(), 'no more children than nodes that follow');
      openNode.push(i);
      openLeft.push(c);
    }
  }
  if (openLeft.some((x) => x > 0)) bad('$.nodes', 'as many nodes as the children counts (c) announce');
  // One `truncated` node for each node with unrecorded nodes below it, after every recorded node,
  // numbered as version 1 numbers them: once the node's whole subtree is (by the end of its
  // subtree, then deepest first).
  if (unrecorded.length) {
    const m = list.length;
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
  for (const key of ['format', 'game', 'root_position', 'engine', 'algorithm', 'evaluator', 'perspective', 'settings', 'stats', 'chosen']) if (doc[key] !== undefined) meta[key] = doc[key];
  meta.version = 1;
  return packBinary(n, {
    meta: enc.encode(JSON.stringify(meta)),
    parent,
    move,
    kind,
    flags,
    value,
    alpha,
    beta,
    prob,
    order,
    count,
    pre,
    eval: evalIdx,
    ref,
    cutAt,
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
  });
}
