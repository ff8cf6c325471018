// A recorded search as a sequence of steps, for the replay (pure functions, no DOM; shared by the
// view and the tests). Nodes are taken in their search order: each node's `order` when the document
// gives one (engine documents), else the document's own order (a parent before its children,
// children in the order listed), which is the order a depth-first search visits them.
//
// Steps:
//   enter  the search arrives at an inner node (its window on entry is α, β);
//   leaf   a leaf is evaluated (or a finished game scored) and its value goes up to its parent;
//   leave  an inner node is done: its value goes up to its parent;
//   cut    a cut-off: the node standing for the pruned siblings, which are not searched.
// The state at a step says, for any node, whether it was visited, whether it is finished, and the
// value and window it holds so far.

import { scoreText, plural, nodeName } from './format.js';

const STAND_IN = new Set(['pruned', 'truncated']);
const KIND_WORDS = { max: 'max', min: 'min', chance: 'chance: the expected value of its outcomes', node: 'node' };

/** The children of `n` in search order (by `order` when every child has one). */
export function searchOrder(n) {
  const kids = n.children;
  if (kids.length < 2 || !kids.every((c) => Number.isFinite(c.order))) return kids;
  return [...kids].sort((a, b) => a.order - b.order);
}

/**
 * The steps of a model's search: `{ steps: [{ type, node }], enter: Map(node → step),
 * done: Map(node → step), cuts: [step…], ordered, windows }` (`ordered`: the document gave a search
 * order, else its own order was used; `windows`: it records alpha-beta windows).
 */
export function buildReplay(model) {
  const steps = [];
  const enter = new Map();
  const done = new Map();
  const cuts = [];
  let ordered = true;
  let windows = false;
  // Depth-first with explicit leave markers; children in search order.
  const stack = [{ node: model.root, leave: false }];
  while (stack.length) {
    const { node, leave } = stack.pop();
    if (leave) {
      done.set(node, steps.length);
      steps.push({ type: 'leave', node });
      continue;
    }
    if (!Number.isFinite(node.order)) ordered = false;
    if ((node.alpha !== null && node.alpha !== undefined) || (node.beta !== null && node.beta !== undefined)) windows = true;
    const at = steps.length;
    enter.set(node, at);
    if (STAND_IN.has(node.kind)) {
      done.set(node, at);
      if (node.kind === 'pruned') cuts.push(at);
      steps.push({ type: node.kind === 'pruned' ? 'cut' : 'unrecorded', node });
      continue;
    }
    if (!node.children.length) {
      done.set(node, at);
      steps.push({ type: 'leaf', node });
      continue;
    }
    steps.push({ type: 'enter', node });
    stack.push({ node, leave: true });
    const kids = searchOrder(node);
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ node: kids[k], leave: false });
  }
  return { steps, enter, done, cuts, ordered, windows };
}

/** Whether `n` was reached by step `s`. */
export function visitedAt(r, n, s) {
  const e = r.enter.get(n);
  return e !== undefined && e <= s;
}

/** Whether `n` (and its whole subtree) was finished by step `s`. */
export function doneAt(r, n, s) {
  const d = r.done.get(n);
  return d !== undefined && d <= s;
}

/**
 * What a node holds at step `s`: `{ value, alpha, beta, final }`. A finished node holds its recorded
 * value. An unfinished max node holds the best value of its finished children so far (min nodes the
 * least, chance nodes the probability-weighted sum so far), and its window narrows with it: α rises
 * to a max node's value, β falls to a min node's. `value` is null when nothing is known yet.
 */
export function holdsAt(r, n, s) {
  const alpha = n.alpha;
  const beta = n.beta;
  if (doneAt(r, n, s)) return { value: n.value, alpha, beta, final: true };
  let value = null;
  let sum = 0;
  // A node whose role is unknown (a foreign tree's) holds nothing before it is done.
  const known = n.kind === 'max' || n.kind === 'min' || n.kind === 'chance';
  for (const c of known ? n.children : []) {
    if (STAND_IN.has(c.kind) || !doneAt(r, c, s) || c.value === null) continue;
    if (n.kind === 'chance') {
      sum += (c.prob ?? 0) * c.value;
      value = sum;
    } else if (n.kind === 'min') value = value === null ? c.value : Math.min(value, c.value);
    else value = value === null ? c.value : Math.max(value, c.value);
  }
  let a = alpha;
  let b = beta;
  if (value !== null && n.kind === 'max') a = a === null ? value : Math.max(a, value);
  if (value !== null && n.kind === 'min') b = b === null ? value : Math.min(b, value);
  return { value, alpha: a, beta: b, final: false };
}

/** The nodes from the root to `n`. */
function pathTo(n) {
  const p = [];
  for (let m = n; m; m = m.parent) p.push(m);
  return p.reverse();
}

/**
 * Everything the view shows at step `s`: the step, the current node and the path to it (each with
 * what it holds), the value that went up (if any: `{ node, from, to }` on the parent), and the
 * explanation in words.
 */
export function stateAt(r, s) {
  const step = r.steps[Math.max(0, Math.min(r.steps.length - 1, s))];
  const n = step.node;
  const path = pathTo(n).map((m) => ({ node: m, ...holdsAt(r, m, s) }));
  let backedUp = null;
  if ((step.type === 'leaf' || step.type === 'leave') && n.parent) {
    const before = holdsAt(r, n.parent, s - 1).value;
    const after = holdsAt(r, n.parent, s).value;
    backedUp = { node: n.parent, from: before, to: after, changed: before !== after };
  }
  return { index: s, step, node: n, path, backedUp, text: explain(r, step, path, backedUp) };
}

const bound = (v, infinity) => (v === null || v === undefined ? infinity : scoreText(v));

/** The words for a step, with the classic notation for a cut-off. */
function explain(r, step, path, backedUp) {
  const n = step.node;
  const p = n.parent;
  const here = path[path.length - 1];
  const name = p ? nodeName(n) : 'the root';
  switch (step.type) {
    case 'enter': {
      const win = r.windows && (n.kind === 'max' || n.kind === 'min') ? ` with the window α = ${bound(here.alpha, '−∞')}, β = ${bound(here.beta, '+∞')}` : '';
      return `Enter ${name} (${KIND_WORDS[n.kind] ?? n.kind})${win}; ${plural(n.children.length, 'child', 'children')} to search.`;
    }
    case 'leaf': {
      const what = n.kind === 'terminal' ? 'The game is over at' : 'Evaluate';
      return `${what} ${name}: ${scoreText(n.value)}.${backUpText(backedUp)}`;
    }
    case 'leave':
      return `${p ? `Done with ${name}` : 'The search is done'}: its value is ${scoreText(n.value)}.${backUpText(backedUp)}`;
    case 'cut':
      return cutText(n);
    default:
      return `${n.count ?? '?'} nodes were searched here but not recorded (the node cap).`;
  }
}

function backUpText(b) {
  if (!b || !['max', 'min', 'chance'].includes(b.node.kind)) return '';
  const who = b.node.parent ? nodeName(b.node) : 'The root';
  if (!b.changed) return ` ${who} keeps ${b.to === null ? 'no value' : scoreText(b.to)}.`;
  return ` ${who} (${b.node.kind}) now holds ${scoreText(b.to)}${b.from === null ? '' : ` (was ${scoreText(b.from)})`}.`;
}

/**
 * A cut-off in words and in the classic notation: "β-cut: 7 ≥ β = 5, the 3 remaining siblings are
 * not searched" (a max node whose value reached β: the min player above will not allow it), or
 * "α-cut: 2 ≤ α = 3, …" at a min node.
 */
export function cutText(n) {
  const p = n.parent;
  const count = n.count ?? (n.moves ? n.moves.length : 0);
  const rest = `the ${count === 1 ? 'remaining sibling is' : `${count} remaining siblings are`} not searched`;
  const cf = n.cutoff;
  const moves = n.moves && n.moves.length ? ` (${n.moves.slice(0, 6).join(' ')}${n.moves.length > 6 ? ' …' : ''})` : '';
  if (!cf || cf.value === null || !p) return `Cut-off: ${rest}${moves}.`;
  const v = scoreText(cf.value);
  const at = p.parent ? nodeName(p) : 'the root';
  if (p.kind === 'max' && cf.beta !== null) {
    return `β-cut: ${v} ≥ β = ${scoreText(cf.beta)}, ${rest}${moves}. ${at} is already worth at least ${v} to the max player, and the min player above can hold the game to ${scoreText(cf.beta)} elsewhere, so ${at} will not be played.`;
  }
  if (p.kind === 'min' && cf.alpha !== null) {
    return `α-cut: ${v} ≤ α = ${scoreText(cf.alpha)}, ${rest}${moves}. ${at} is already worth at most ${v} to the max player, who can get ${scoreText(cf.alpha)} elsewhere, so ${at} will not be played.`;
  }
  return `Cut-off at ${v} with the window α = ${bound(cf.alpha, '−∞')}, β = ${bound(cf.beta, '+∞')}: ${rest}${moves}.`;
}

/** The index of the first cut-off after step `s` (or before it, dir -1), or -1. */
export function nextCut(r, s, dir = 1) {
  if (dir > 0) return r.cuts.find((c) => c > s) ?? -1;
  for (let k = r.cuts.length - 1; k >= 0; k--) if (r.cuts[k] < s) return r.cuts[k];
  return -1;
}

/** The steps of a replay in a form for tests: [type, label, value] per step. */
export function describeSteps(r) {
  const out = [];
  for (const st of r.steps) out.push([st.type, st.node.parent ? st.node.label : 'root', st.node.value]);
  return out;
}
