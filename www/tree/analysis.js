// Questions asked of a tree model (pure functions, no DOM; shared by the view, the tests and the bench):
// the line a node leads to, "why A and not B" term by term, finding nodes by several criteria,
// comparing two searches of the same position, and a subtree as a document of its own.

import { toDocument } from './import.js';
import { eachBefore, ancestors } from './walk.js';

/**
 * The child a node's value comes from: the child marked `best`, else (max/min nodes) the first child
 * whose value equals the node's, else null.
 */
export function principalChild(n) {
  if (!n || !n.children.length) return null;
  const marked = n.children.find((c) => c.best && c.kind !== 'pruned' && c.kind !== 'truncated');
  if (marked) return marked;
  if (n.value === null) return null;
  return n.children.find((c) => c.value !== null && c.value === n.value && c.kind !== 'pruned' && c.kind !== 'truncated') || null;
}

/** The principal continuation below `n` (not including `n`), at most `max` nodes. */
export function principalLine(n, max = 64) {
  const line = [];
  for (let c = principalChild(n); c && line.length < max; c = principalChild(c)) line.push(c);
  return line;
}

/** The moves from the root to `n`. */
export function movePath(n) {
  if (!n) return [];
  return ancestors(n)
    .slice(0, -1)
    .reverse()
    .map((m) => m.label);
}

/**
 * Term-by-term comparison of two breakdowns ({total, terms}). Rows are in A's term order, then B's
 * terms that A lacks; a term missing on one side counts as 0 in the difference.
 * Returns { rows: [{name, a, b, diff}], totalA, totalB, diff }.
 */
export function compareBreakdowns(a, b) {
  const rows = [];
  const index = new Map();
  const add = (t, side) => {
    let r = index.get(t.name);
    if (!r) {
      r = { name: t.name, a: null, b: null, diff: 0 };
      index.set(t.name, r);
      rows.push(r);
    }
    r[side] = t.value;
  };
  for (const t of a ? a.terms : []) add(t, 'a');
  for (const t of b ? b.terms : []) add(t, 'b');
  for (const r of rows) r.diff = (r.a ?? 0) - (r.b ?? 0);
  const totalA = a ? a.total : null;
  const totalB = b ? b.total : null;
  return { rows, totalA, totalB, diff: totalA !== null && totalB !== null ? totalA - totalB : null };
}

/**
 * Everything the "why A and not B" panel shows for two nodes: their values, the line each leads to,
 * the evaluation at the end of each line and their pre-scores compared term by term.
 */
export function whyCompare(a, b) {
  const side = (n) => {
    const line = principalLine(n);
    const end = line.length ? line[line.length - 1] : n;
    return { node: n, path: movePath(n), line, end, eval: end.eval || null, prescore: n.prescore || null };
  };
  const A = side(a);
  const B = side(b);
  return {
    a: A,
    b: B,
    valueDiff: a.value !== null && b.value !== null ? a.value - b.value : null,
    eval: A.eval || B.eval ? compareBreakdowns(A.eval, B.eval) : null,
    prescore: A.prescore || B.prescore ? compareBreakdowns(A.prescore, B.prescore) : null,
  };
}

/**
 * Parses the find query of the text box: "#17" (an id), a move text, or nothing. The other criteria
 * come from their own fields. Returns a predicate on nodes, or null when nothing is asked.
 *   { text, depth, min, max, signDiffers }  (each optional; null/'' means "any")
 */
export function matcher(q) {
  const tests = [];
  const text = (q.text ?? '').trim();
  if (text.startsWith('#') && text.length > 1) {
    const id = text.slice(1);
    tests.push((n) => String(n.id) === id);
  } else if (text) {
    const t = text.toLowerCase();
    tests.push((n) => n.label !== null && n.label !== undefined && String(n.label).toLowerCase().includes(t));
  }
  if (q.depth !== null && q.depth !== undefined && q.depth !== '' && Number.isFinite(Number(q.depth))) {
    const d = Number(q.depth);
    tests.push((n) => n.depth === d);
  }
  const hasMin = q.min !== null && q.min !== undefined && q.min !== '' && Number.isFinite(Number(q.min));
  const hasMax = q.max !== null && q.max !== undefined && q.max !== '' && Number.isFinite(Number(q.max));
  if (hasMin || hasMax) {
    const lo = hasMin ? Number(q.min) : -Infinity;
    const hi = hasMax ? Number(q.max) : Infinity;
    tests.push((n) => n.value !== null && n.value >= lo && n.value <= hi);
  }
  if (q.signDiffers) tests.push(signDiffers);
  if (!tests.length) return null;
  return (n) => {
    for (const t of tests) if (!t(n)) return false;
    return true;
  };
}

/** The static score of a node (its evaluation at a leaf, else its pre-score), or null. */
export function staticScore(n) {
  const e = n.eval;
  if (e && e.total !== null && e.total !== undefined) return e.total;
  const p = n.prescore;
  if (p && p.total !== null && p.total !== undefined) return p.total;
  return null;
}

/** Whether a node's static score and its backed-up value have different signs (0 is its own sign). */
export function signDiffers(n) {
  if (n.value === null) return false;
  const s = staticScore(n);
  return s !== null && Math.sign(s) !== Math.sign(n.value);
}

/** All nodes matching `pred`, in depth-first pre-order (the order the find steps through). */
export function findAll(root, pred) {
  const hits = [];
  eachBefore(root, (n) => {
    if (pred(n)) hits.push(n);
  });
  return hits;
}

/**
 * Compares two searches of the same position, matching nodes by their moves from the root.
 * `here` is the shown tree's root, `there` the other's. Returns
 *   { diff: Map(node here -> { other, valueChanged, bestChanged, bestHere, bestThere }),
 *     matched, valueChanged, bestChanged, onlyHere, onlyThere, rootBest: { here, there } }.
 * A value changed when it differs by more than `eps` (or one side has none); the best move changed
 * when both nodes have a principal child and their moves differ.
 */
export function diffTrees(here, there, eps = 1e-9) {
  const diff = new Map();
  let matched = 0;
  let valueChanged = 0;
  let bestChanged = 0;
  let onlyHere = 0;
  let onlyThere = 0;
  const countSub = (n) => {
    let s = 0;
    eachBefore(n, (m) => {
      if (m.kind !== 'pruned' && m.kind !== 'truncated') s++;
    });
    return s;
  };
  // The shared walk, over pairs of nodes with the same moves from the root.
  const matchedPairs = ([a, b]) => {
    // Children by move; pruned and unrecorded stand-ins have no move and are not matched.
    const byMove = new Map();
    for (const c of b.children) if (c.label !== null && c.label !== undefined && !byMove.has(c.label)) byMove.set(c.label, c);
    const used = new Set();
    const pairs = [];
    for (const c of a.children) {
      if (c.label === null || c.label === undefined) continue;
      const o = byMove.get(c.label);
      if (o && !used.has(o)) {
        used.add(o);
        pairs.push([c, o]);
      } else onlyHere += countSub(c);
    }
    for (const o of byMove.values()) if (!used.has(o)) onlyThere += countSub(o);
    return pairs;
  };
  eachBefore(
    [here, there],
    ([a, b]) => {
      matched++;
      const vc = (a.value === null) !== (b.value === null) || (a.value !== null && Math.abs(a.value - b.value) > eps);
      const pa = principalChild(a);
      const pb = principalChild(b);
      const bc = !!(pa && pb && pa.label !== pb.label);
      if (vc) valueChanged++;
      if (bc) bestChanged++;
      diff.set(a, { other: b, valueChanged: vc, bestChanged: bc, bestHere: pa ? pa.label : null, bestThere: pb ? pb.label : null });
    },
    matchedPairs,
  );
  const rh = principalChild(here);
  const rt = principalChild(there);
  return { diff, matched, valueChanged, bestChanged, onlyHere, onlyThere, rootBest: { here: rh ? rh.label : null, there: rt ? rt.label : null } };
}

/** Counts for a subtree's stats block. */
function subtreeStats(node) {
  const s = { nodes: 0, leaves: 0, time_ms: 0, prune_events: 0, pruned_nodes: 0, tt_hits: 0, depth_reached: 0, truncated: false };
  eachBefore(node, (n) => {
    if (n !== node && n.kind !== 'pruned' && n.kind !== 'truncated') s.nodes++;
    if (n.kind === 'leaf' || n.kind === 'terminal') s.leaves++;
    if (n.kind === 'pruned') {
      s.prune_events++;
      s.pruned_nodes += n.count ?? (n.moves ? n.moves.length : 0);
    }
    if (n.kind === 'truncated') s.truncated = true;
    if (n.tt) s.tt_hits++;
    if (n.depth - node.depth > s.depth_reached) s.depth_reached = n.depth - node.depth;
  });
  return s;
}

/**
 * The subtree under `node` as a plyscope-tree document of its own: its root is `node` (without its
 * move), its stats are counted afresh, and `subtree` says where it was cut from.
 */
export function subtreeDocument(model, node) {
  const sub = { ...model, root: node, stats: subtreeStats(node), chosen: null };
  const meta = { ...model.meta };
  delete meta.root_position;
  sub.meta = meta;
  const doc = toDocument(sub);
  delete doc.root.move;
  delete doc.root.prob;
  delete doc.chosen;
  const pc = principalChild(node);
  if (pc && pc.label !== null) doc.chosen = { move: pc.label, rank: 1, reason: 'best' };
  doc.subtree = { path: movePath(node), of_root_position: model.meta.root_position ?? null, node_id: node.id };
  return doc;
}

/**
 * How many nodes of each sort a tree holds: `boxes` (every node of the document), `positions` (nodes
 * standing for one position: not pruned or unrecorded stand-ins, the root included), `cutoffs` (pruned
 * stand-ins, one per cut-off), `unrecorded` (truncated stand-ins).
 */
export function treeCounts(root) {
  const c = { boxes: 0, positions: 0, cutoffs: 0, unrecorded: 0 };
  eachBefore(root, (n) => {
    c.boxes++;
    if (n.kind === 'pruned') c.cutoffs++;
    else if (n.kind === 'truncated') c.unrecorded++;
    else c.positions++;
  });
  return c;
}
