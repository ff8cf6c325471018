// The replay of a recorded search: the steps of the classic two-ply alpha-beta tree (pure, in node),
// then the timeline in headless Chromium on a tic-tac-toe search recorded at depth 3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importValue, importText } from '../../www/tree/import.js';
import { buildReplay, stateAt, nextCut } from '../../www/tree/replay-model.js';
import { useBrowser, settle, shot, watchErrors } from './harness.mjs';

/**
 * The textbook tree `3 12 8 | 2 4 6 | 14 5 2` searched by alpha-beta, as an engine records it: a MAX
 * root over three MIN nodes; the second is cut after its first leaf (2 ≤ α = 3).
 */
function classic() {
  const leaf = (id, move, value, alpha, beta) => ({ id, move, kind: 'leaf', value, alpha, beta, eval: { total: value, terms: [{ name: 'typed', raw: value, weight: 1, value }] } });
  return {
    format: 'plyscope-tree',
    version: 1,
    game: 'textbook',
    algorithm: 'alphabeta',
    root: {
      id: 0,
      kind: 'max',
      value: 3,
      best: true,
      children: [
        { id: 1, move: 'a', kind: 'min', value: 3, best: true, children: [leaf(2, 'a1', 3, null, null), leaf(3, 'a2', 12, null, 3), leaf(4, 'a3', 8, null, 3)] },
        {
          id: 5,
          move: 'b',
          kind: 'min',
          value: 2,
          bound: 'upper',
          alpha: 3,
          children: [leaf(6, 'b1', 2, 3, null), { id: 7, kind: 'pruned', count: 2, moves: ['b2', 'b3'], cutoff: { by: 6, value: 2, alpha: 3, beta: null }, reason: 'alphabeta' }],
        },
        { id: 8, move: 'c', kind: 'min', value: 2, alpha: 3, children: [leaf(9, 'c1', 14, 3, null), leaf(10, 'c2', 5, 3, 14), leaf(11, 'c3', 2, 3, 5)] },
      ],
    },
  };
}

test('the classic tree: leaves in the order 3 12 8 2 14 5 2, a cut after 2 in the second group, the window at each step, root 3', () => {
  const { model } = importValue(classic());
  const r = buildReplay(model);
  assert.equal(r.ordered, false, 'no order field: document order');
  const leaves = r.steps.map((s, i) => [s, i]).filter(([s]) => s.type === 'leaf');
  assert.deepEqual(leaves.map(([s]) => s.node.value), [3, 12, 8, 2, 14, 5, 2]);
  // The one cut-off comes right after the leaf 2 of the second group.
  assert.deepEqual(r.cuts, [leaves[3][1] + 1]);
  const cut = stateAt(r, r.cuts[0]);
  assert.equal(cut.step.type, 'cut');
  assert.equal(cut.text.split('.')[0], 'α-cut: +2 ≤ α = +3, the 2 remaining siblings are not searched (b2 b3)');
  // The window of the node being searched (the leaf's parent) after each leaf goes up.
  const windows = leaves.map(([s, i]) => {
    const st = stateAt(r, i);
    const parent = st.path[st.path.length - 2];
    const root = st.path[0];
    return [st.node.value, parent.alpha, parent.beta, root.alpha];
  });
  assert.deepEqual(windows, [
    [3, null, 3, null], // a1: a's β falls to 3; the root's α is still −∞
    [12, null, 3, null],
    [8, null, 3, null],
    [2, 3, 2, 3], // b1: b entered with α = 3 (a is done), its β falls to 2 ≤ α: the cut follows
    [14, 3, 14, 3], // c1: the root's α is 3 now
    [5, 3, 5, 3],
    [2, 3, 2, 3],
  ]);
  // Values going up: a1 gives a 3; the root holds 3 once a is done.
  assert.match(stateAt(r, leaves[0][1]).text, /^Evaluate a1: \+3\. a \(min\) now holds \+3\.$/);
  const aDone = r.steps.findIndex((s) => s.type === 'leave' && s.node.label === 'a');
  assert.match(stateAt(r, aDone).text, /The root \(max\) now holds \+3\./);
  const last = stateAt(r, r.steps.length - 1);
  assert.equal(last.step.type, 'leave');
  assert.equal(last.node, model.root);
  assert.equal(last.path[0].value, 3);
  assert.equal(nextCut(r, 0), r.cuts[0]);
  assert.equal(nextCut(r, r.cuts[0]), -1);
});

test('a document’s own search order (`order`) is followed over its listing order', () => {
  const doc = classic();
  // Say that c was searched before b: c's subtree gets the earlier places.
  const put = (n, o) => (n.order = o);
  const [a, b, c] = doc.root.children;
  put(doc.root, 0);
  put(a, 1);
  a.children.forEach((l, i) => put(l, 2 + i));
  put(c, 5);
  c.children.forEach((l, i) => put(l, 6 + i));
  put(b, 9);
  b.children.forEach((l, i) => put(l, 10 + i));
  const r = buildReplay(importValue(doc).model);
  assert.equal(r.ordered, true);
  assert.deepEqual(r.steps.filter((s) => s.type === 'leaf').map((s) => s.node.label), ['a1', 'a2', 'a3', 'c1', 'c2', 'c3', 'b1']);
});

test('expectimax and minimax trees replay too: a chance node’s running Σ p·value, no windows where none were recorded', () => {
  const here = dirname(fileURLToPath(import.meta.url));
  const read = (name) => importText(readFileSync(join(here, '..', '..', 'www', 'examples', `${name}.json`), 'utf8')).model;
  const threes = read('threes-expectimax');
  const r = buildReplay(threes);
  assert.equal(r.windows, false);
  // The first chance node to receive a second outcome's value holds p1·v1 + p2·v2 so far.
  let checked = false;
  for (let i = 0; i < r.steps.length && !checked; i++) {
    const st = r.steps[i];
    const p = st.node.parent;
    if (st.type === 'leaf' || st.type === 'leave') {
      if (!p || p.kind !== 'chance') continue;
      const k = p.children.indexOf(st.node);
      if (k < 1) continue;
      const want = p.children.slice(0, k + 1).reduce((sum, c) => sum + c.prob * c.value, 0);
      const holds = stateAt(r, i).path.find((x) => x.node === p);
      assert.ok(Math.abs(holds.value - want) < 1e-9, `${holds.value} = Σ p·v ${want}`);
      checked = true;
    }
  }
  assert.ok(checked, 'a chance node with two outcomes was found');
  const end = stateAt(r, r.steps.length - 1);
  assert.equal(end.path[0].value, threes.root.value);
  assert.doesNotMatch(stateAt(r, 0).text, /window/);
  // A minimax tree (the tic-tac-toe search without its windows): values go up, no α or β is said.
  const doc = JSON.parse(readFileSync(join(here, '..', '..', 'www', 'examples', 'tictactoe-alphabeta-depth3.json'), 'utf8'));
  const strip = (n) => {
    delete n.alpha;
    delete n.beta;
    (n.children || []).forEach(strip);
  };
  strip(doc.root);
  const mm = buildReplay(importValue(doc).model);
  assert.equal(mm.windows, false);
  assert.ok(mm.steps.every((_, i) => !/α|β = /.test(stateAt(mm, i).step.type === 'cut' ? '' : stateAt(mm, i).text)));
});

const env = useBrowser();

async function openReplay(viewport) {
  const page = await env.browser.newPage({ viewport });
  const errors = watchErrors(page);
  await page.goto(`${env.server.url}tree/?example=tictactoe-alphabeta-depth3`);
  await page.waitForFunction(() => window.explorer && window.explorer.model());
  await settle(page);
  await page.locator('[data-testid=replay-open]').click();
  await page.waitForSelector('[data-testid=replay-panel]:not([hidden])');
  await settle(page);
  return { page, errors };
}

test('replay of a tic-tac-toe search at depth 3: starts stopped at step 0, steps with the keys, path and window match the document', async () => {
  const { page, errors } = await openReplay({ width: 1400, height: 900 });
  let st = await page.evaluate(() => window.explorer.replay.state());
  assert.equal(st.step, 0);
  assert.equal(st.playing, false);
  assert.equal(st.type, 'enter');
  assert.equal(await page.locator('[data-testid=replay-count]').innerText(), `Step 1 of ${st.steps}`);
  // → three times: the root, its first child, that child's first child, and the first leaf.
  await page.locator('canvas.ps-canvas').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  st = await page.evaluate(() => window.explorer.replay.state());
  assert.equal(st.step, 3);
  const doc = await page.evaluate(async () => (await fetch('../examples/tictactoe-alphabeta-depth3.json')).json());
  const first = doc.root.children[0];
  const second = first.children[0];
  const leaf = second.children[0];
  assert.deepEqual(st.path.map((p) => p.id), [doc.root.id, first.id, second.id, leaf.id]);
  assert.equal(st.type, 'leaf');
  // The breadcrumb shows the same path, and the view highlights it (the focus is the current node).
  assert.equal(await page.locator('.ps-crumbs').innerText(), ['root', first.move, second.move, leaf.move].join('\n'));
  // Step back to where `second` was entered: its window is the one the document recorded on entry.
  await page.keyboard.press('ArrowLeft');
  st = await page.evaluate(() => window.explorer.replay.state());
  assert.equal(st.type, 'enter');
  assert.equal(st.id, second.id);
  const here = st.path[st.path.length - 1];
  assert.equal(here.alpha, second.alpha ?? null);
  assert.equal(here.beta, second.beta ?? null);
  const pathText = await page.locator('[data-testid=replay-path]').innerText();
  assert.match(pathText, new RegExp(`${second.move} \\(max\\) value … so far; α = −∞, β = \\+∞`));
  // The leaf's value goes up: its parent holds it now.
  await page.keyboard.press('ArrowRight');
  assert.match(await page.locator('[data-testid=replay-text]').innerText(), new RegExp(`^Evaluate ${leaf.move}: \\+?${leaf.value}\\. ${second.move} \\(max\\) now holds \\+?${leaf.value}\\.$`));
  // Space plays: the step moves on by itself (waiting for it, whatever the machine's speed); Space pauses.
  await page.keyboard.press(' ');
  await page.waitForFunction(() => window.explorer.replay.state().step > 4);
  await page.keyboard.press(' ');
  st = await page.evaluate(() => window.explorer.replay.state());
  assert.equal(st.playing, false);
  assert.deepEqual(errors, []);
  await page.close();
});

for (const [name, viewport] of [['desktop', { width: 1400, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
  test(`replay (${name}): next cut-off lands on a pruned node and names its values`, async () => {
    const { page, errors } = await openReplay(viewport);
    await page.locator('[data-testid=replay-next-cut]').click();
    await settle(page);
    const st = await page.evaluate(() => window.explorer.replay.state());
    assert.equal(st.type, 'cut');
    const node = await page.evaluate((id) => {
      const find = (n) => (String(n.id) === String(id) ? n : n.children.map(find).find(Boolean));
      const n = find(window.explorer.model().root);
      return { kind: n.kind, count: n.count, cutoff: n.cutoff, parentKind: n.parent.kind };
    }, st.id);
    assert.equal(node.kind, 'pruned');
    const text = await page.locator('[data-testid=replay-text]').innerText();
    const fmt = (v) => (v > 0 ? `+${Math.round(v)}` : String(Math.round(v)));
    if (node.parentKind === 'max') assert.ok(text.startsWith(`β-cut: ${fmt(node.cutoff.value)} ≥ β = ${fmt(node.cutoff.beta)}, the ${node.count} remaining siblings are not searched`), text);
    else assert.ok(text.startsWith(`α-cut: ${fmt(node.cutoff.value)} ≤ α = ${fmt(node.cutoff.alpha)}, the ${node.count} remaining siblings are not searched`), text);
    // The cut node is in the view.
    const b = await page.evaluate((id) => window.explorer.nodeBox(id), st.id);
    const view = await page.locator('[data-testid=tree-view]').boundingBox();
    assert.ok(b.x > view.x && b.x < view.x + view.width && b.y > view.y && b.y < view.y + view.height, 'the cut-off is in sight');
    await page.locator('[data-testid=replay-panel]').scrollIntoViewIfNeeded();
    await shot(page, `tree-replay-cut-${name}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('move ordering: a node’s children in the order searched, with pre-scores, the child that caused the cut marked', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = watchErrors(page);
  await page.goto(`${env.server.url}tree/?example=tictactoe-alphabeta-depth3`);
  await page.waitForFunction(() => window.explorer && window.explorer.model());
  // A node with a cut-off among its children.
  const want = await page.evaluate(() => {
    const all = [];
    const walk = (n) => {
      all.push(n);
      n.children.forEach(walk);
    };
    walk(window.explorer.model().root);
    const n = all.find((m) => m.children.some((c) => c.kind === 'pruned') && m.children.filter((c) => c.kind !== 'pruned').length >= 2);
    const pruned = n.children.find((c) => c.kind === 'pruned');
    const searched = n.children.filter((c) => c.kind !== 'pruned');
    return { id: n.id, moves: searched.map((c) => c.label), pre: searched.map((c) => c.prescore.total), cutBy: searched.find((c) => String(c.id) === String(pruned.cutoff.by)).label, count: pruned.count };
  });
  await page.evaluate((i) => window.explorer.select(i), want.id);
  const rows = await page.locator('[data-testid=search-order] tbody tr').allInnerTexts();
  assert.deepEqual(rows.slice(0, want.moves.length).map((r) => r.split('\t')[1]), want.moves, 'in the order searched');
  assert.deepEqual(rows.slice(0, want.moves.length).map((r) => Number(r.split('\t')[2])), want.pre, 'with their pre-scores');
  const marked = rows.find((r) => r.includes('caused the cut-off'));
  assert.equal(marked.split('\t')[1], want.cutBy);
  assert.match(rows[rows.length - 1], new RegExp(`✂ ${want.count} siblings not searched`));
  await page.locator('[data-testid=search-order]').scrollIntoViewIfNeeded();
  await shot(page, 'tree-move-ordering');
  assert.deepEqual(errors, []);
  await page.close();
});
