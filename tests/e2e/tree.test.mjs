// End-to-end tests of the standalone tree explorer (www/tree/index.html) in headless Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, treePixel, useBrowser, settle, openExplorer as openExplorerPage, shot, watchErrors } from './harness.mjs';
import { percentShort } from '../../www/tree/format.js';

const env = useBrowser();

const openExplorer = (query = '') => openExplorerPage(env, query, { width: 1280, height: 860 });

async function hover(page, id) {
  const box = await page.evaluate((i) => window.explorer.nodeBox(i), id);
  assert.ok(box, `node ${id} is shown`);
  await page.mouse.move(box.x + 5, box.y + 3);
  await page.waitForSelector('[data-testid=tree-tooltip]:not([hidden])');
  return page.locator('[data-testid=tree-tooltip]').innerText();
}

async function paste(page, text) {
  const area = page.locator('[data-testid=tree-json]');
  // fill() types long texts slowly (about 40 s for 100 kB): set larger ones directly, as a paste would.
  if (text.length < 20000) await area.fill(text);
  else await area.evaluate((el, v) => {
    el.value = v;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
  await page.locator('[data-testid=load-tree]').click();
}

/** The colour of the canvas pixel at a page position. */
const pixel = async (page, x, y) => `#${(await treePixel(page, x, y)).map((v) => v.toString(16).padStart(2, '0')).join('')}`;

test('the bundled example tree is drawn, with nodes in their kinds’ colours', async () => {
  const { page, errors } = await openExplorer();
  await assert.doesNotReject(page.locator('[data-testid=tree-view]').waitFor());
  assert.equal(await page.locator('[data-testid=tree-format]').innerText(), 'Detected: plyscope tree');
  const stats = await page.evaluate(() => window.explorer.stats());
  assert.ok(stats.shown >= 8, `shown ${stats.shown}`);
  assert.equal(stats.drawn, stats.shown);
  // The root is a max node, its children min nodes: sample the fill just inside each box.
  const model = await page.evaluate(() => {
    const m = window.explorer.model();
    return { root: m.root.id, child: m.root.children[0].id };
  });
  const rootBox = await page.evaluate((i) => window.explorer.nodeBox(i), model.root);
  const childBox = await page.evaluate((i) => window.explorer.nodeBox(i), model.child);
  assert.equal(await pixel(page, rootBox.x + rootBox.width * 0.3, rootBox.y - rootBox.height * 0.3), '#d6e4ff');
  assert.equal(await pixel(page, childBox.x + childBox.width * 0.3, childBox.y - childBox.height * 0.3), '#ffdccf');
  // The legend names the kinds present.
  const legend = await page.locator('.ps-legend').innerText();
  for (const word of ['max', 'min', 'leaf', 'game over', 'pruned', 'best line']) assert.ok(legend.includes(word), `legend has ${word}`);
  await shot(page, 'tree-example');
  assert.deepEqual(errors, []);
  await page.close();
});

test('hovering shows the pre-score terms, the evaluation at a leaf, run stats at the root, the cut at a pruned node', async () => {
  const { page, errors } = await openExplorer();
  const ids = await page.evaluate(() => {
    const m = window.explorer.model();
    const all = [];
    const st = [m.root];
    while (st.length) {
      const n = st.pop();
      all.push(n);
      st.push(...n.children);
    }
    const leaf = all.find((n) => n.kind === 'leaf' && n.eval);
    const pruned = all.find((n) => n.kind === 'pruned' && n.cutoff && n.cutoff.by !== null && n.parent.parent);
    return { root: m.root.id, child: m.root.children[0].id, childTerms: m.root.children[0].prescore.terms.map((t) => t.name), leaf: leaf.id, leafTerms: leaf.eval.terms.map((t) => t.name), pruned: pruned.id, prunedMoves: pruned.moves };
  });
  const child = await hover(page, ids.child);
  assert.match(child, /Pre-score breakdown/);
  assert.match(child, /term\s+raw\s+weight\s+contribution/);
  for (const t of ids.childTerms) assert.ok(child.includes(t), `tooltip lists ${t}`);
  assert.match(child, /total/);
  await shot(page, 'tree-tooltip-node');

  const root = await hover(page, ids.root);
  for (const w of ['Run statistics', 'nodes', 'leaves', 'time', 'prune events', 'pruned nodes', 'TT hits', 'depth reached', 'truncated', 'chosen move', 'rank', 'algorithm', 'alphabeta', 'evaluator', 'Settings']) {
    assert.ok(root.includes(w), `root tooltip has ${w}`);
  }
  await shot(page, 'tree-tooltip-root');

  await page.evaluate((i) => window.explorer.focus(i), ids.leaf);
  await settle(page);
  const leaf = await hover(page, ids.leaf);
  assert.match(leaf, /Evaluation breakdown/);
  for (const t of ids.leafTerms) assert.ok(leaf.includes(t));
  await shot(page, 'tree-tooltip-leaf');

  await page.evaluate((i) => window.explorer.focus(i), ids.pruned);
  await settle(page);
  const pruned = await hover(page, ids.pruned);
  assert.match(pruned, /stands for\s+\d+ siblings? cut at once/);
  assert.match(pruned, /cut by/);
  assert.match(pruned, /window/);
  for (const mv of ids.prunedMoves) assert.ok(pruned.includes(mv));
  await shot(page, 'tree-tooltip-pruned');
  assert.deepEqual(errors, []);
  await page.close();
});

test('clicking expands and re-centres; the keyboard moves the focus; the breadcrumb follows', async () => {
  const { page, errors } = await openExplorer();
  const before = await page.evaluate(() => window.explorer.stats().shown);
  // A collapsed child of the root that has children.
  const target = await page.evaluate(() => {
    const m = window.explorer.model();
    return m.root.children.find((c) => !c.best && c.children.length > 0).id;
  });
  const box = await page.evaluate((i) => window.explorer.nodeBox(i), target);
  await page.mouse.click(box.x, box.y);
  await settle(page);
  const afterClick = await page.evaluate(() => window.explorer.stats().shown);
  assert.ok(afterClick > before, `${afterClick} > ${before}`);
  const status = await page.locator('[data-testid=tree-status]').innerText();
  assert.match(status, /expanded/);
  const crumbs = await page.locator('.ps-crumbs').innerText();
  assert.equal(crumbs.split(/\s*›\s*|\n/).filter(Boolean).length, 2);
  // The clicked node is now at about 35% of the width, in the middle.
  const moved = await page.evaluate((i) => window.explorer.nodeBox(i), target);
  const view = await page.locator('[data-testid=tree-view]').boundingBox();
  assert.ok(Math.abs(moved.y - (view.y + view.height / 2)) < 4, 're-centred vertically');
  await shot(page, 'tree-expanded');

  await page.locator('[data-testid=tree-view] canvas.ps-canvas').focus();
  await page.keyboard.press('ArrowRight');
  await settle(page);
  const s1 = await page.locator('[data-testid=tree-status]').innerText();
  assert.match(s1, /depth 2/);
  // The keyboard shows the focused node's tooltip too.
  assert.equal(await page.locator('[data-testid=tree-tooltip]').isVisible(), true);
  assert.match(await page.locator('[data-testid=tree-tooltip]').innerText(), new RegExp(s1.split(',')[0].replace('Move ', '')));
  await shot(page, 'tree-keyboard');
  await page.keyboard.press('ArrowDown');
  const s2 = await page.locator('[data-testid=tree-status]').innerText();
  assert.notEqual(s2, s1);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.match(await page.locator('[data-testid=tree-status]').innerText(), /^Root/);
  assert.equal(await page.locator('[data-testid=tree-view] canvas.ps-canvas').getAttribute('aria-describedby'), await page.locator('[data-testid=tree-status]').getAttribute('id'));
  assert.equal(await page.locator('[data-testid=tree-status]').getAttribute('aria-live'), 'polite');
  // Wheel zoom changes the scale.
  const k0 = (await page.evaluate(() => window.explorer.stats())).zoom;
  await page.mouse.move(view.x + 300, view.y + 200);
  await page.mouse.wheel(0, -400);
  await page.waitForTimeout(50);
  const k1 = (await page.evaluate(() => window.explorer.stats())).zoom;
  assert.ok(k1 > k0 * 1.2, `zoomed in: ${k0} -> ${k1}`);
  // Two touch pointers moving apart zoom in too.
  const k2 = await page.evaluate(() => {
    const c = document.querySelector('[data-testid=tree-view] canvas.ps-canvas');
    const r = c.getBoundingClientRect();
    const ev = (type, id, x) => c.dispatchEvent(new PointerEvent(type, { pointerId: id, pointerType: 'touch', clientX: r.left + x, clientY: r.top + 200, button: 0, bubbles: true }));
    ev('pointerdown', 11, 300);
    ev('pointerdown', 12, 340);
    ev('pointermove', 12, 360);
    ev('pointerup', 12, 360);
    ev('pointerup', 11, 300);
    return window.explorer.stats().zoom;
  });
  assert.ok(Math.abs(k2 / k1 - 1.5) < 0.01, `pinch: ${k1} -> ${k2}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a pasted document loads; a malformed one shows line and column and keeps the tree', async () => {
  const { page, errors } = await openExplorer();
  const jit = readFileSync(join(ROOT, 'www', 'examples', 'jit-tree.json'), 'utf8');
  await paste(page, jit);
  await page.waitForFunction(() => document.querySelector('[data-testid=tree-format]').textContent === 'Detected: JIT tree');
  const count = await page.evaluate(() => window.explorer.model().count);
  assert.equal(count, 40);
  assert.equal(await page.locator('[data-testid=tree-error]').isVisible(), false);

  await paste(page, '{\n  "id": "r",\n  "name": "root"\n  "children": []\n}');
  const err = page.locator('[data-testid=tree-error]');
  await err.waitFor({ state: 'visible' });
  const text = await err.innerText();
  assert.match(text, /line 4, column 3/);
  assert.match(text, /expected ',' or '}'/);
  // The line is quoted with a caret under the column, and the textarea's caret is put there.
  assert.match(text, /4 \|   "children": \[\]\n\s+\|   \^/);
  assert.equal(await page.locator('[data-testid=tree-json]').evaluate((e) => e.selectionStart), 34);
  assert.equal(await page.evaluate(() => window.explorer.model().count), 40, 'the previous tree stays');
  assert.equal(await page.locator('[data-testid=tree-format]').innerText(), 'Detected: JIT tree');
  await shot(page, 'tree-syntax-error');

  await paste(page, JSON.stringify({ format: 'plyscope-tree', version: 1, root: { id: 0, kind: 'max', children: [{ id: 1, kind: 'sideways' }] } }));
  await page.waitForFunction(() => /children\[0\]\.kind/.test(document.querySelector('[data-testid=tree-error]').textContent));
  assert.equal(await page.evaluate(() => window.explorer.model().count), 40);
  assert.deepEqual(errors, []);
  await page.close();
});

test('hostile labels stay text: no element is created, no script runs', async () => {
  const { page, errors } = await openExplorer();
  const evil = '<img src=x onerror="window.__pwned=1">';
  const doc = {
    format: 'plyscope-tree',
    version: 1,
    game: evil,
    engine: evil,
    algorithm: 'alphabeta',
    perspective: evil,
    settings: { [evil]: evil },
    stats: { nodes: 3, leaves: 2, time_ms: 1, prune_events: 0, pruned_nodes: 0, tt_hits: 0, depth_reached: 1, truncated: false },
    chosen: { move: evil, rank: 1, reason: evil },
    root: {
      id: 0,
      kind: 'max',
      value: 1,
      best: true,
      children: [
        { id: 1, move: evil, kind: 'leaf', value: 1, best: true, eval: { total: 1, terms: [{ name: evil, raw: 1, weight: 1, value: 1 }] } },
        { id: 2, kind: 'pruned', count: 1, moves: [evil], cutoff: { by: 1, value: 1, alpha: 0, beta: 1 }, reason: 'alphabeta' },
      ],
    },
  };
  await paste(page, JSON.stringify(doc));
  await page.waitForFunction(() => window.explorer.model().count === 3);
  await settle(page);
  const tip = await hover(page, 1);
  assert.ok(tip.includes(evil), 'the label is shown literally');
  await hover(page, 0);
  await hover(page, 2);
  await page.evaluate(() => window.explorer.focus(1));
  await settle(page);
  assert.ok((await page.locator('.ps-crumbs').innerText()).includes(evil));
  const jit = { id: 'a', name: evil, data: { [evil]: evil }, children: [{ id: 'b', name: evil, data: {} }] };
  await paste(page, JSON.stringify(jit));
  await page.waitForFunction(() => window.explorer.model().format === 'jit-tree');
  await settle(page);
  await hover(page, 'a');
  assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(errors, []);
  await page.close();
});

test('each foreign format is detected and drawn', async () => {
  const { page, errors } = await openExplorer();
  const cases = [
    ['jit-tree.json', 'JIT tree'],
    ['jit-graph.json', 'JIT graph'],
    ['d3-flare.json', 'd3 hierarchy (flare)'],
    ['react-d3-tree.json', 'react-d3-tree'],
    ['mcts.json', 'MCTS dump'],
    ['threes-expectimax.json', 'plyscope tree'],
    ['reversi-alphabeta.json', 'plyscope tree'],
  ];
  for (const [file, name] of cases) {
    await paste(page, readFileSync(join(ROOT, 'www', 'examples', file), 'utf8'));
    await page.waitForFunction((n) => document.querySelector('[data-testid=tree-format]').textContent === `Detected: ${n}`, name);
    await settle(page);
    const s = await page.evaluate(() => window.explorer.stats());
    assert.ok(s.shown > 3 && s.drawn > 3, `${file}: ${JSON.stringify(s)}`);
    await shot(page, `tree-format-${file.replace('.json', '')}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

/** A search-like tree: `branching` children per node, `depth` plies, pre-scores everywhere, minimax values. */
function bigTree(branching, depth) {
  let id = 0;
  const terms = (r) => [
    { name: 'mobility', raw: r % 7, weight: 0.5, value: (r % 7) * 0.5 },
    { name: 'corners', raw: (r % 3) - 1, weight: 4, value: ((r % 3) - 1) * 4 },
    { name: 'discs', raw: r % 11, weight: 0.1, value: (r % 11) * 0.1 },
  ];
  const total = (t) => t.reduce((s, x) => s + x.value, 0);
  const make = (d, maxing, move) => {
    const n = { id: id++, kind: d === 0 ? 'leaf' : maxing ? 'max' : 'min' };
    if (move) n.move = move;
    const t = terms(n.id * 7919);
    if (move) n.prescore = { total: total(t), terms: t };
    if (d === 0) {
      n.eval = { total: total(t), terms: t };
      n.value = total(t);
      n.bound = 'exact';
      return n;
    }
    n.children = [];
    for (let i = 0; i < branching; i++) n.children.push(make(d - 1, !maxing, `m${i}`));
    const vals = n.children.map((c) => c.value);
    n.value = maxing ? Math.max(...vals) : Math.min(...vals);
    n.bound = 'exact';
    return n;
  };
  const root = make(depth, true, null);
  for (let n = root; n && n.children; ) {
    n.best = true;
    n = n.children.find((c) => c.value === n.value);
    if (n && !n.children) n.best = true;
  }
  return { format: 'plyscope-tree', version: 1, game: 'synthetic', engine: 'test', algorithm: 'minimax', perspective: 'max', stats: { nodes: id, leaves: branching ** depth, time_ms: 0, prune_events: 0, pruned_nodes: 0, tt_hits: 0, depth_reached: depth, truncated: false }, root };
}

test('a 27,000-leaf tree (30 children, 3 plies) opens from a file and expands', async () => {
  const { page, errors } = await openExplorer();
  const text = JSON.stringify(bigTree(30, 3));
  const expectedNodes = 1 + 30 + 900 + 27000;
  await page.evaluate(() => {
    // Long tasks from the moment the page gets the file (the driver's own copying of it comes before).
    window.__longTasks = [];
    window.__changeAt = Infinity;
    document.querySelector('input[type=file]').addEventListener('change', () => (window.__changeAt = performance.now()), { capture: true });
    new PerformanceObserver((l) => l.getEntries().forEach((e) => e.startTime >= window.__changeAt && window.__longTasks.push(Math.round(e.duration)))).observe({ type: 'longtask' });
  });
  const t0 = Date.now();
  await page.locator('input[type=file]').setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForFunction((n) => window.explorer.model().count === n, expectedNodes, { timeout: 30000 });
  const loadMs = Date.now() - t0;
  const inPage = await page.evaluate(() => window.explorer.stats().lastLoadMs);
  await settle(page);
  // Expand a collapsed depth-1 node and time it to the next painted frame.
  const target = await page.evaluate(() => window.explorer.model().root.children.find((c) => !c.best).id);
  const expandMs = await page.evaluate(async (id) => {
    const box = window.explorer.nodeBox(id);
    const t = performance.now();
    const canvas = document.querySelector('[data-testid=tree-view] canvas.ps-canvas');
    for (const type of ['pointerdown', 'pointerup']) canvas.dispatchEvent(new PointerEvent(type, { clientX: box.x, clientY: box.y, button: 0, bubbles: true, pointerId: 1 }));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t;
  }, target);
  await settle(page);
  const s = await page.evaluate(() => window.explorer.stats());
  assert.ok(s.shown > 30, `shown ${s.shown}`);
  assert.equal((await page.locator('[data-testid=tree-status]').innerText()).includes('expanded'), true);
  // "+K more" folds the siblings beyond the first 12; clicking it shows them. The explorer opens at
  // a zoom where labels read, so the fold is below the view until Fit (F) shows the whole branch.
  await page.evaluate(() => window.explorer.fit());
  await settle(page);
  const more = await page.evaluate(() => window.explorer.nodeBox('more'));
  assert.ok(more, 'a "+K more" node is shown');
  await page.mouse.click(more.x, more.y);
  await settle(page);
  const s2 = await page.evaluate(() => window.explorer.stats());
  assert.ok(s2.shown > s.shown, `${s2.shown} > ${s.shown}`);
  const longTasks = await page.evaluate(() => window.__longTasks.sort((a, b) => b - a).slice(0, 3));
  console.log(
    `27,931-node tree (${(text.length / 1e6).toFixed(1)} MB): ${loadMs} ms from setInputFiles (the driver copies the file) to shown; ` +
      `${Math.round(inPage)} ms in the page from read to first layout (parsed in the worker); longest main-thread tasks ${JSON.stringify(longTasks)} ms; ` +
      `a node expanded in ${expandMs.toFixed(1)} ms to the next frame`,
  );
  await shot(page, 'tree-27k');
  assert.deepEqual(errors, []);
  await page.close();
});

test('find a move: the node is revealed, focused and described', async () => {
  const { page, errors } = await openExplorer('?example=reversi-alphabeta');
  const want = await page.evaluate(() => {
    const m = window.explorer.model();
    const all = [];
    const st = [m.root];
    while (st.length) {
      const n = st.pop();
      all.push(n);
      st.push(...n.children);
    }
    const deep = all.find((n) => n.depth === 3 && n.label && !n.parent.parent.best);
    return { label: deep.label, id: deep.id, hits: all.filter((n) => n.label && n.label.toLowerCase().includes(deep.label.toLowerCase())).length };
  });
  await page.locator('[data-testid=tree-find]').fill(want.label);
  await page.locator('[data-testid=tree-find]').press('Enter');
  await settle(page);
  const status = await page.locator('[data-testid=tree-status]').innerText();
  assert.match(status, new RegExp(`^Match \\d+ of ${want.hits}: Move ${want.label}`));
  await page.locator('[data-testid=tree-find]').fill(`#${want.id}`);
  await page.locator('[data-testid=tree-find]').press('Enter');
  await settle(page);
  assert.ok(await page.evaluate((i) => window.explorer.nodeBox(i), want.id), 'the found node is shown');
  assert.match(await page.locator('[data-testid=tree-status]').innerText(), /^Match 1 of 1: .*depth 3/);
  assert.equal((await page.locator('.ps-crumbs li').count()), 4);
  await shot(page, 'tree-find');
  await page.locator('[data-testid=tree-find]').fill('zz9');
  await page.locator('[data-testid=tree-find]').press('Enter');
  assert.match(await page.locator('[data-testid=tree-status]').innerText(), /No node matches/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a 100,000-node tree stays interactive (timings printed, not asserted)', async () => {
  const { page, errors } = await openExplorer();
  const timings = await page.evaluate(async () => {
    // 46 children, 3 plies: 1 + 46 + 2,116 + 97,336 = 99,499 nodes, generated in the page.
    let id = 0;
    const make = (d, maxing, move) => {
      const n = { id: id++, kind: d === 0 ? 'leaf' : maxing ? 'max' : 'min', value: (id * 7919) % 201 - 100, bound: 'exact' };
      if (move) {
        n.move = move;
        n.prescore = { total: 1.5, terms: [{ name: 'mobility', raw: 3, weight: 0.5, value: 1.5 }] };
      }
      if (d > 0) {
        n.children = [];
        for (let i = 0; i < 46; i++) n.children.push(make(d - 1, !maxing, `m${i}`));
      }
      return n;
    };
    const root = make(3, true, null);
    root.best = true;
    root.children[0].best = true;
    const text = JSON.stringify({ format: 'plyscope-tree', version: 1, game: 'synthetic', engine: 'test', algorithm: 'minimax', perspective: 'max', stats: { nodes: id }, root });
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const out = { nodes: id, mb: +(text.length / 1e6).toFixed(1) };
    const longest = [];
    const obs = new PerformanceObserver((l) => l.getEntries().forEach((e) => longest.push(Math.round(e.duration))));
    obs.observe({ type: 'longtask' });
    let t = performance.now();
    const r = await window.explorer.loadText(text);
    await frame();
    out.load = Math.round(performance.now() - t);
    out.ok = r.ok;
    // Expand a depth-1 node, then show all its children (46), then all 46 under one of those.
    const x = window.explorer;
    const m = x.model();
    t = performance.now();
    x.focus(m.root.children[5].children[3].id);
    await frame();
    out.reveal = Math.round(performance.now() - t);
    t = performance.now();
    x.expandAll(20000);
    // 20,000 shown nodes are laid out in the layout worker: the page goes on drawing meanwhile.
    out.pendingAfterExpand = x.stats().layoutPending;
    await x.whenLaidOut();
    await frame();
    out.expand20k = Math.round(performance.now() - t);
    out.shown = x.stats().shown;
    await new Promise((res) => setTimeout(res, 400));
    out.longTasks = longest.sort((a, b) => b - a).slice(0, 5);
    obs.disconnect();
    return out;
  });
  assert.equal(timings.ok, true);
  assert.equal(timings.nodes, 99499);
  assert.ok(timings.shown >= 19000, `shown ${timings.shown}`);
  assert.equal(timings.pendingAfterExpand, true, 'a large layout goes to the worker');
  console.log(`100k tree: ${JSON.stringify(timings)}`);
  await shot(page, 'tree-100k-expanded');
  assert.deepEqual(errors, []);
  await page.close();
});

test('showDocument with keepView keeps the open branches, the focus and the camera', async () => {
  const { page, errors } = await openExplorer();
  const out = await page.evaluate(async () => {
    const x = window.explorer;
    const doc = await (await fetch('../examples/tictactoe-alphabeta.json')).json();
    const r0 = x.showDocument(doc);
    const m = x.model();
    const side = m.root.children.find((c) => !c.best && c.children.length);
    x.focus(side.children[0].id);
    await new Promise((r) => setTimeout(r, 400));
    const before = { shown: x.stats().shown, zoom: x.stats().zoom, status: document.querySelector('[data-testid=tree-status]').textContent };
    // The next iteration's document: same moves, new values.
    const next = JSON.parse(JSON.stringify(doc));
    next.root.value = 42;
    x.showDocument(next, { keepView: true });
    const kept = { shown: x.stats().shown, zoom: x.stats().zoom, status: document.querySelector('[data-testid=tree-status]').textContent, rootValue: x.model().root.value };
    x.showDocument(next);
    const reset = { shown: x.stats().shown };
    return { ok: r0.ok, before, kept, reset };
  });
  assert.equal(out.ok, true);
  assert.equal(out.kept.rootValue, 42);
  assert.equal(out.kept.shown, out.before.shown);
  assert.equal(out.kept.zoom, out.before.zoom);
  assert.equal(out.kept.status, out.before.status);
  assert.ok(out.reset.shown < out.before.shown, `without keepView the view resets: ${out.reset.shown} < ${out.before.shown}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a dropped file loads; Download JSON saves the shown tree as a plyscope-tree document', async () => {
  const { page, errors } = await openExplorer();
  const mcts = readFileSync(join(ROOT, 'www', 'examples', 'mcts.json'), 'utf8');
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'mcts.json', { type: 'application/json' }));
    const target = document.querySelector('[data-testid=tree-view]');
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, mcts);
  await page.waitForFunction(() => document.querySelector('[data-testid=tree-format]').textContent === 'Detected: MCTS dump');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=download-tree]').click()]);
  const path = await download.path();
  const saved = JSON.parse(readFileSync(path, 'utf8'));
  assert.equal(saved.format, 'plyscope-tree');
  assert.equal(saved.algorithm, 'mcts');
  const count = (n) => 1 + (n.children || []).reduce((s, c) => s + count(c), 0);
  assert.equal(count(saved.root), await page.evaluate(() => window.explorer.model().count));
  // And it loads back.
  await paste(page, JSON.stringify(saved));
  await page.waitForFunction(() => document.querySelector('[data-testid=tree-format]').textContent === 'Detected: plyscope tree');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Expand all opens a small tree completely; Collapse and Best line bring it back', async () => {
  const { page, errors } = await openExplorer();
  const count = await page.evaluate(() => window.explorer.model().count);
  await page.getByRole('button', { name: 'Expand all' }).click();
  await settle(page);
  assert.equal(await page.evaluate(() => window.explorer.stats().shown), count);
  // What each number counts: positions (the root included) and cut-off boxes, which make up the whole tree.
  const counts = await page.evaluate(() => {
    const c = { positions: 0, cutoffs: 0 };
    const walk = (n) => {
      if (n.kind === 'pruned') c.cutoffs++;
      else c.positions++;
      n.children.forEach(walk);
    };
    walk(window.explorer.model().root);
    return c;
  });
  assert.equal(counts.positions + counts.cutoffs, count);
  assert.equal(await page.locator('[data-testid=tree-info]').innerText(), `${counts.positions} positions · ${counts.cutoffs} cut-offs · ${count} shown`);
  // It sits above the view, so that it covers no node.
  const info = await page.locator('[data-testid=tree-info]').boundingBox();
  const view = await page.locator('[data-testid=tree-view]').boundingBox();
  assert.ok(info.y + info.height <= view.y, `the counts (bottom ${info.y + info.height}) are above the view (top ${view.y})`);
  // Expand all keeps labels readable: the tree is not shrunk below READABLE_K; the rest is panned to.
  assert.ok((await page.evaluate(() => window.explorer.stats().zoom)) >= 0.85);
  assert.match(await page.locator('[data-testid=tree-status]').innerText(), /Expanded: \d+ nodes shown\. Drag/);
  await shot(page, 'tree-expand-all');
  await page.getByRole('button', { name: 'Collapse' }).click();
  await settle(page);
  const collapsed = await page.evaluate(() => window.explorer.stats().shown);
  assert.equal(collapsed, 1 + (await page.evaluate(() => window.explorer.model().root.children.length)));
  await page.getByRole('button', { name: 'Best line' }).click();
  await settle(page);
  assert.ok((await page.evaluate(() => window.explorer.stats().shown)) > collapsed);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a chain 8,000 plies deep loads, opens fully and finds its last node (no recursion limits)', async () => {
  const { page, errors } = await openExplorer();
  const out = await page.evaluate(async () => {
    let root = { id: 0, kind: 'leaf', value: 0, best: true, move: 'last' };
    for (let i = 1; i < 8000; i++) root = { id: i, kind: i % 2 ? 'min' : 'max', value: 0, best: true, move: `m${i}`, children: [root, { id: 100000 + i, kind: 'leaf', value: 1, move: `x${i}` }] };
    delete root.move;
    const r = window.explorer.showDocument({ format: 'plyscope-tree', version: 1, stats: {}, root });
    const shown = window.explorer.expandAll(20000);
    const found = window.explorer.find('last');
    await window.explorer.whenLaidOut();
    await new Promise((res) => setTimeout(res, 400));
    return { ok: r.ok, shown, found: found && found.depth, crumbs: document.querySelectorAll('.ps-crumbs li').length, status: document.querySelector('[data-testid=tree-status]').textContent };
  });
  assert.equal(out.ok, true);
  assert.equal(out.shown, 15999);
  assert.equal(out.found, 7999);
  assert.equal(out.crumbs, 44, 'the breadcrumb is shortened');
  assert.match(out.status, /Move last, leaf, value 0, depth 7999/);
  await shot(page, 'tree-deep-chain');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the standalone page keeps the focused node in the address; the tooltip ranks a node among its siblings', async () => {
  const { page, errors } = await openExplorer('?example=reversi-alphabeta');
  const target = await page.evaluate(() => {
    const m = window.explorer.model();
    const n = m.root.children.find((c) => c.best).children.find((c) => c.children.length);
    window.explorer.focus(n.id);
    return n.id;
  });
  await settle(page);
  assert.equal(new URL(page.url()).hash, `#${target}`);
  const tip = await hover(page, target);
  assert.match(tip, /among siblings\s+\d+(st|nd|rd|th) of \d+ by value for min/);
  assert.match(tip, /searched\s+\d+(st|nd|rd|th) of \d+; \d+(st|nd|rd|th) by pre-score/);
  // Opening that address shows the same node focused.
  const again = await env.browser.newPage({ viewport: { width: 1280, height: 860 } });
  await again.goto(page.url());
  await again.waitForFunction((id) => window.explorer && window.explorer.model() && /depth 2/.test(document.querySelector('[data-testid=tree-status]').textContent), target);
  assert.ok(await again.evaluate((id) => window.explorer.nodeBox(id), target));
  await again.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('a chance node explains its expectation; siblings can be ordered by pre-score', async () => {
  const { page, errors } = await openExplorer('?example=threes-expectimax');
  const chance = await page.evaluate(() => {
    const c = window.explorer.model().root.children.find((x) => x.best);
    return { id: c.id, value: c.value, n: c.children.length };
  });
  const tip = await hover(page, chance.id);
  assert.match(tip, new RegExp(`outcomes\\s+${chance.n}, probabilities summing to 100%; Σ p·value = \\+${String(Number(chance.value.toPrecision(3))).replace('.', '\\.')}`));
  await shot(page, 'tree-tooltip-chance');
  // Each outcome's probability is written on its edge, in the chance colour, beside its box.
  const edges = await page.evaluate((id) => {
    const x = window.explorer;
    const node = x.model().root.children.find((c) => String(c.id) === String(id));
    const labels = x.stats().draw.edgeLabels;
    const canvas = document.querySelector('[data-testid=tree-view] canvas.ps-canvas');
    const dpr = canvas.width / canvas.getBoundingClientRect().width;
    const ctx = canvas.getContext('2d');
    return node.children.map((c) => {
      const l = labels.find((e) => String(e.id) === String(c.id));
      if (!l) return { prob: c.prob, label: null };
      // The darkest purple-ish pixel around the label: text drawn in #7443c9.
      const g = ctx.getImageData(Math.round((l.x - 16) * dpr), Math.round((l.y - 7) * dpr), Math.round(32 * dpr), Math.round(14 * dpr)).data;
      let purple = 0;
      for (let i = 0; i < g.length; i += 4) if (g[i + 2] > 150 && g[i] < 160 && g[i + 1] < 110) purple++;
      return { prob: c.prob, label: l.text, purple };
    });
  }, chance.id);
  assert.equal(edges.length, chance.n);
  for (const e of edges) {
    assert.equal(e.label, percentShort(e.prob), `edge label for probability ${e.prob}`);
    assert.ok(e.purple > 4, `the label is drawn (${e.purple} purple pixels)`);
  }
  // Order by pre-score: the root's first shown child is the one with the best pre-score.
  await page.locator('.ps-select').selectOption('prescore');
  await settle(page);
  const firstShown = await page.evaluate(() => {
    const m = window.explorer.model();
    const ys = m.root.children.map((c) => [c, window.explorer.nodeBox(c.id).y]).sort((a, b) => a[1] - b[1]);
    const best = Math.max(...m.root.children.map((c) => c.prescore.total));
    return ys[0][0].prescore.total === best;
  });
  assert.equal(firstShown, true);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a large tree shown as an object is written into the textarea only when asked', async () => {
  const { page, errors } = await openExplorer();
  const before = await page.evaluate(async () => {
    const doc = await (await fetch('../examples/tictactoe-alphabeta.json')).json();
    // 5,000 extra leaves under the root.
    for (let i = 0; i < 5000; i++) doc.root.children.push({ id: 10000 + i, move: `x${i}`, kind: 'leaf', value: 0 });
    window.explorer.showDocument(doc);
    return document.querySelector('[data-testid=tree-json]').value.length;
  });
  assert.equal(before, 0);
  assert.match(await page.locator('[data-testid=tree-json]').getAttribute('placeholder'), /5,344 nodes\) is written here when you click/);
  await page.locator('[data-testid=tree-json]').click();
  const after = await page.locator('[data-testid=tree-json]').evaluate((e) => JSON.parse(e.value).root.children.length);
  assert.equal(after, 5007);
  assert.deepEqual(errors, []);
  await page.close();
});
