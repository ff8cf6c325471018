// The tidy layout (www/tree/layout.js) as a pure function, and how the page uses the layout worker:
// large layouts arrive later, stale answers are dropped, the result is the same as on the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tidyLayout } from '../../www/tree/layout.js';
import { useBrowser, openExplorer, settle } from './harness.mjs';

const ROW = 46;
const COUSIN = 58;

// A random tree in pre-order: parent positions.
function randomTree(n, seed) {
  let s = seed;
  const rnd = () => ((s = (s * 16807) % 2147483647) / 2147483647);
  const parent = [-1];
  const depth = [0];
  // Each new node hangs under one of the last few nodes or an ancestor of the last: pre-order holds
  // when the parent is on the path from the root to the previous node.
  const path = [0];
  for (let i = 1; i < n; i++) {
    const keep = 1 + Math.floor(rnd() * path.length);
    path.length = Math.min(path.length, keep);
    const p = path[path.length - 1];
    parent.push(p);
    depth.push(depth[p] + 1);
    path.push(i);
  }
  return { parent: Int32Array.from(parent), depth };
}

test('tidy layout: siblings a row apart, parents between their first and last child, columns never overlap', () => {
  for (const [n, seed] of [[1, 1], [2, 2], [50, 3], [500, 4], [5000, 5]]) {
    const { parent, depth } = randomTree(n, seed);
    const y = tidyLayout(parent, ROW, COUSIN);
    assert.equal(y.length, n);
    assert.equal(y[0], 0);
    const kids = new Map();
    for (let i = 1; i < n; i++) {
      if (!kids.has(parent[i])) kids.set(parent[i], []);
      kids.get(parent[i]).push(i);
    }
    for (const [p, list] of kids) {
      for (let k = 1; k < list.length; k++) assert.ok(Math.abs(y[list[k]] - y[list[k - 1]] - ROW) < 1e-9 || y[list[k]] - y[list[k - 1]] > ROW, `siblings under ${p} in order, at least a row apart`);
      assert.ok(Math.abs(y[p] - (y[list[0]] + y[list[list.length - 1]]) / 2) < 1e-9, `node ${p} midway between its first and last child`);
    }
    // In every column, in pre-order, each node is below the previous one: a row for siblings, more
    // for nodes of different parents.
    const last = new Map();
    for (let i = 0; i < n; i++) {
      const d = depth[i];
      if (last.has(d)) {
        const j = last.get(d);
        const need = parent[i] === parent[j] ? ROW : COUSIN;
        assert.ok(y[i] - y[j] >= need - 1e-9, `n=${n}: nodes ${j} and ${i} at depth ${d} are ${y[i] - y[j]} apart, need ${need}`);
      }
      last.set(d, i);
    }
  }
});

test('tidy layout: a chain 200,000 deep is linear (no recursion), bad input is a RangeError', () => {
  const n = 200000;
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i - 1;
  const y = tidyLayout(parent, ROW, COUSIN);
  assert.equal(y[n - 1], 0);
  assert.throws(() => tidyLayout(Int32Array.from([-1, 2, 0]), ROW, COUSIN), RangeError);
  assert.equal(tidyLayout(new Int32Array(0), ROW, COUSIN).length, 0);
});

const env = useBrowser();

test('large layouts come from the worker, the same as on the page; a stale answer is dropped', async () => {
  const { page, errors } = await openExplorer(env);
  const out = await page.evaluate(async () => {
    const x = window.explorer;
    // Siblings in the document's order, so that the reference below walks them the same way.
    const order = document.querySelector('select[aria-label="Order of siblings"]');
    order.value = 'search';
    order.dispatchEvent(new Event('change'));
    // 1 + 60 + 3,600 nodes.
    let id = 0;
    const kids = (d) => Array.from({ length: 60 }, (_, i) => {
      const n = { id: ++id, move: `m${d}-${i}`, kind: d === 2 ? 'leaf' : 'min', value: (id * 37) % 19 - 9 };
      if (d < 2) n.children = kids(d + 1);
      return n;
    });
    const doc = { format: 'plyscope-tree', version: 1, stats: {}, root: { id: 0, kind: 'max', value: 0, children: kids(1) } };
    x.showDocument(doc);
    const shownBefore = x.stats().shown;
    const n = x.expandAll(10000);
    const pending = x.stats().layoutPending;
    const shownWhilePending = x.stats().shown;
    await x.whenLaidOut();
    const shownAfter = x.stats().shown;
    // The page's positions against the same function run here.
    const { tidyLayout } = await import('./layout.js');
    const m = x.model();
    const seq = [];
    const parents = [];
    const stack = [[m.root, -1]];
    while (stack.length) {
      const [node, p] = stack.pop();
      const i = seq.length;
      seq.push(node);
      parents.push(p);
      for (let k = node.children.length - 1; k >= 0; k--) stack.push([node.children[k], i]);
    }
    const ys = tidyLayout(Int32Array.from(parents), 46, 58);
    const k = x.stats().zoom;
    const root = x.nodeBox(m.root.id);
    let worst = 0;
    for (let i = 0; i < seq.length; i += 97) {
      const b = x.nodeBox(seq[i].id);
      worst = Math.max(worst, Math.abs((b.y - root.y) / k - ys[i]));
    }
    // A live update (keepView) of the same tree keeps all 3,661 open, through the worker, and the camera.
    await new Promise((r) => setTimeout(r, 400)); // the camera's move to fit ends
    const cam = x.stats().zoom;
    const next = JSON.parse(JSON.stringify(doc));
    next.root.value = 5;
    x.showDocument(next, { keepView: true });
    const keepPending = x.stats().layoutPending;
    await x.whenLaidOut();
    const kept = { pending: keepPending, shown: x.stats().shown, zoom: Math.abs(x.stats().zoom - cam) < 1e-9, rootValue: x.model().root.value, box: !!x.nodeBox(seq[seq.length - 1].id) };
    // Open everything, then at once collapse: the worker's answer for the first request must not
    // replace the collapsed layout.
    x.expandAll(10000);
    x.collapseAll();
    const afterCollapse = x.stats().shown;
    await x.whenLaidOut();
    await new Promise((r) => setTimeout(r, 500));
    return { kept, n, shownBefore, pending, shownWhilePending, shownAfter, worst, afterCollapse, later: x.stats().shown, stillPending: x.stats().layoutPending };
  });
  assert.equal(out.n, 3661);
  assert.equal(out.pending, true, 'a layout of 3,661 nodes goes to the worker');
  assert.equal(out.shownWhilePending, out.shownBefore, 'the previous layout stays until the answer comes');
  assert.equal(out.shownAfter, 3661);
  assert.ok(out.worst < 0.01, `positions differ by ${out.worst}`);
  assert.deepEqual(out.kept, { pending: true, shown: 3661, zoom: true, rootValue: 5, box: true });
  // Collapsed: the root, its first 12 children and "+48 more".
  assert.equal(out.afterCollapse, 14, 'a small layout is applied at once');
  assert.equal(out.later, 14, 'the stale answer was dropped');
  assert.equal(out.stillPending, false);
  await settle(page);
  assert.deepEqual(errors, []);
  await page.close();
});
