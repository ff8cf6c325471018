// The one tree walk of the explorer (in the manner of d3-hierarchy's `eachBefore` / `eachAfter` /
// `descendants`), used by the importers, the analyses and the view instead of hand-written loops.
// Every walk is iterative (an explicit stack), so a chain a million levels deep cannot overflow the
// call stack, and each takes an optional `children` accessor so it also walks raw objects.
//
//   eachBefore(root, (node, index, parentIndex) => …)   pre-order: a parent before its subtree
//   eachAfter(root, (node) => …)                        post-order: a subtree before its parent
//   descendants(root)                                   the nodes in pre-order, as an array
//   find(root, (node) => bool)                          the first node in pre-order, or null
//   ancestors(node)                                     node, its parent, …, the root
//   pathFromRoot(node)                                  the root, …, node

const kidsOf = (n) => n.children;

/**
 * Calls `fn(node, index, parentIndex)` on every node in pre-order, children in their order. `index`
 * is the node's position in that order and `parentIndex` its parent's (-1 at the root). When `fn`
 * returns `false` the walk stops there. Returns how many nodes were visited.
 */
export function eachBefore(root, fn, children = kidsOf) {
  if (root === null || root === undefined) return 0;
  const stack = [root];
  const parents = [-1];
  let index = 0;
  while (stack.length) {
    const n = stack.pop();
    const p = parents.pop();
    const i = index++;
    if (fn(n, i, p) === false) return index;
    const kids = children(n);
    if (!kids) continue;
    for (let k = kids.length - 1; k >= 0; k--) {
      stack.push(kids[k]);
      parents.push(i);
    }
  }
  return index;
}

/** Calls `fn(node)` on every node in post-order: all of a node's subtree before the node itself. */
export function eachAfter(root, fn, children = kidsOf) {
  const order = descendants(root, children);
  for (let k = order.length - 1; k >= 0; k--) fn(order[k]);
}

/** Every node under `root` (itself included) in pre-order. */
export function descendants(root, children = kidsOf) {
  const out = [];
  eachBefore(root, (n) => void out.push(n), children);
  return out;
}

/** The first node in pre-order for which `pred` holds, or null; stops there. */
export function find(root, pred, children = kidsOf) {
  let hit = null;
  eachBefore(
    root,
    (n) => {
      if (!pred(n)) return true;
      hit = n;
      return false;
    },
    children,
  );
  return hit;
}

/** The node with this id (compared as text, so "17" finds 17), or null. */
export function findById(root, id) {
  const key = String(id);
  return find(root, (n) => String(n.id) === key);
}

/** `node`, its parent, and so on up to the root (by `parent` links). */
export function ancestors(node) {
  const out = [];
  for (let m = node; m; m = m.parent) out.push(m);
  return out;
}

/** The root, …, `node`: the path down to it. */
export function pathFromRoot(node) {
  return ancestors(node).reverse();
}
