// The tidy (contour) layout of the explorer's shown nodes, as a pure function on typed arrays: it runs
// in the layout worker (layout-worker.js) for large shown sets and on the page for small ones.
//
// Input: the shown items in pre-order (a parent before its subtree, siblings in their drawing order),
// as `parent`, an Int32Array of each item's parent's position (-1 for the root, at position 0).
// Output: a Float64Array of each item's y (the root at 0). x is the depth times the level gap, so
// the page computes it itself.
//
// Each subtree is packed against the ones above it level by level (its contour), so a collapsed
// sibling does not push the next branch away; a parent sits between its first and last child.
// Siblings are `rowGap` apart (centre to centre), nodes of different parents at least `cousinGap`.
// Iterative, with contours stored deepest level first and merged into the deeper one, so a chain
// thousands of levels deep stays linear.

/** y of every item (see above); `parent[i] < i` for every item but the root. */
export function tidyLayout(parent, rowGap, cousinGap) {
  const n = parent.length;
  const y = new Float64Array(n);
  if (n === 0) return y;
  // Children lists as first child / next sibling, in pre-order.
  const first = new Int32Array(n).fill(-1);
  const next = new Int32Array(n).fill(-1);
  const last = new Int32Array(n).fill(-1);
  for (let i = 1; i < n; i++) {
    const p = parent[i];
    if (p < 0 || p >= i) throw new RangeError(`item ${i}: its parent ${p} does not come before it`);
    if (first[p] < 0) first[p] = i;
    else next[last[p]] = i;
    last[p] = i;
  }
  const rel = new Float64Array(n); // y relative to the parent
  // A contour holds, per level from the deepest up, the top and bottom y relative to `shift`.
  const contour = new Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (first[i] < 0) {
      contour[i] = { top: [0], bot: [0], shift: 0 };
      continue;
    }
    let acc = null;
    let lastOff = 0;
    for (let kid = first[i]; kid >= 0; kid = next[kid]) {
      const c = contour[kid];
      contour[kid] = undefined;
      if (acc === null) {
        rel[kid] = 0;
        acc = c;
        continue;
      }
      const common = Math.min(acc.top.length, c.top.length);
      let off = -Infinity;
      for (let d = 0; d < common; d++) {
        const a = acc.bot[acc.bot.length - 1 - d] + acc.shift;
        const b = c.top[c.top.length - 1 - d] + c.shift;
        off = Math.max(off, a - b + (d === 0 ? rowGap : cousinGap));
      }
      c.shift += off;
      rel[kid] = off;
      lastOff = off;
      if (c.top.length <= acc.top.length) {
        for (let d = 0; d < c.top.length; d++) {
          const ai = acc.bot.length - 1 - d;
          acc.bot[ai] = Math.max(acc.bot[ai], c.bot[c.bot.length - 1 - d] + c.shift - acc.shift);
        }
      } else {
        // The new subtree is deeper: keep its arrays, with the earlier tops where both reach.
        for (let d = 0; d < acc.top.length; d++) {
          const ci = c.top.length - 1 - d;
          const ai = acc.top.length - 1 - d;
          c.top[ci] = acc.top[ai] + acc.shift - c.shift;
          c.bot[ci] = Math.max(c.bot[ci], acc.bot[ai] + acc.shift - c.shift);
        }
        acc = c;
      }
    }
    // The first child sits at offset 0: the parent goes midway between its first and last child.
    const mid = lastOff / 2;
    for (let kid = first[i]; kid >= 0; kid = next[kid]) rel[kid] -= mid;
    acc.shift -= mid;
    acc.top.push(-acc.shift);
    acc.bot.push(-acc.shift);
    contour[i] = acc;
  }
  for (let i = 1; i < n; i++) y[i] = y[parent[i]] + rel[i];
  return y;
}
