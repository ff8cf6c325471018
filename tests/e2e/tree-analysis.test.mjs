// "Why A and not B", find by criteria, comparing two searches and exporting a subtree: the pure
// functions (www/tree/analysis.js) in node, then the explorer's panels in headless Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, treePixel, useBrowser, settle, openExplorer as openExplorerPage, shot, watchErrors } from './harness.mjs';
import { importText, importValue } from '../../www/tree/import.js';
import { valueScale, termText, termHeading } from '../../www/tree/format.js';
import { principalLine, compareBreakdowns, whyCompare, matcher, findAll, signDiffers, diffTrees, subtreeDocument, movePath } from '../../www/tree/analysis.js';

const REVERSI = readFileSync(join(ROOT, 'www', 'examples', 'reversi-alphabeta.json'), 'utf8');

/** Every node of a model, depth first. */
function nodes(root) {
  const out = [];
  const st = [root];
  while (st.length) {
    const n = st.pop();
    out.push(n);
    for (let k = n.children.length - 1; k >= 0; k--) st.push(n.children[k]);
  }
  return out;
}

/**
 * The reversi example as an earlier search might have left it: c1 was worth 7.5 and was the best
 * move (so the root was 7.5 too); d7 is no longer on the best line. Two values and one best move differ.
 */
function beforeDocument() {
  const doc = JSON.parse(REVERSI);
  const c1 = doc.root.children.find((c) => c.move === 'c1');
  const d7 = doc.root.children.find((c) => c.move === 'd7');
  c1.value = 7.5;
  c1.best = true;
  delete d7.best;
  doc.root.value = 7.5;
  doc.chosen = { move: 'c1', rank: 1, reason: 'best' };
  return doc;
}

// ---------------------------------------------------------------------------------------------
// The pure functions

test('the principal line follows best marks, else the child whose value is the parent’s', () => {
  const m = importText(REVERSI).model;
  const line = principalLine(m.root);
  assert.equal(line[0].label, 'd7');
  for (let i = 0; i < line.length; i++) {
    const parent = i ? line[i - 1] : m.root;
    assert.ok(line[i].best || line[i].value === parent.value, `step ${i} continues the value`);
  }
  assert.equal(line[line.length - 1].children.length === 0 || !line[line.length - 1].children.some((c) => c.best), true);
  // Without any best mark: values alone.
  const bare = importValue({ format: 'plyscope-tree', version: 1, game: 'x', algorithm: 'minimax', perspective: 'a', stats: { nodes: 4 }, root: { id: 0, kind: 'max', value: 2, children: [{ id: 1, move: 'a', kind: 'min', value: 1, children: [{ id: 3, move: 'x', kind: 'leaf', value: 1 }] }, { id: 2, move: 'b', kind: 'min', value: 2, children: [{ id: 4, move: 'y', kind: 'leaf', value: 5 }, { id: 5, move: 'z', kind: 'leaf', value: 2 }] }] } }).model;
  assert.deepEqual(principalLine(bare.root).map((n) => n.label), ['b', 'z']);
});

test('breakdown contributions read in the values\' unit when the document states one, else as plain numbers', () => {
  // Reversi's patterns evaluator: 100 a disc, values shown with one decimal; terms with two.
  const discs = valueScale({ unit: 'discs', one: 'disc', per_unit: 100, decimals: 1, decided: 501000, win: 1000000 });
  assert.equal(termText(-16, discs), '-0.16');
  assert.equal(termText(450, discs), '+4.5');
  assert.equal(termText(0.4, discs), '0');
  assert.equal(termHeading('contribution', discs), 'contribution (discs)');
  // Ataxx: 100 a piece; Threes: points, no decimals.
  const pieces = valueScale({ unit: 'pieces', one: 'piece', per_unit: 100, decimals: 1, decided: 500000, win: 1000000 });
  assert.equal(termText(250, pieces), '+2.5');
  assert.equal(termText(-1, pieces), '-0.01');
  const points = valueScale({ unit: 'points', one: 'point', per_unit: 1, decimals: 0 });
  assert.equal(termText(-7.26, points), '-7.3');
  // No unit (a pasted document without `values`): the numbers as they are.
  const none = valueScale(undefined);
  assert.equal(termText(-16, none), '-16');
  assert.equal(termText(2.65, none), '+2.65');
  assert.equal(termHeading('contribution', none), 'contribution');
});

test('breakdowns compare term by term; a term missing on one side counts as zero', () => {
  const a = { total: 3, terms: [{ name: 'mobility', value: 2 }, { name: 'corners', value: 1 }] };
  const b = { total: -1, terms: [{ name: 'corners', value: -2 }, { name: 'edges', value: 1 }] };
  const c = compareBreakdowns(a, b);
  assert.deepEqual(c.rows.map((r) => [r.name, r.a, r.b, r.diff]), [['mobility', 2, null, 2], ['corners', 1, -2, 3], ['edges', null, 1, -1]]);
  assert.equal(c.diff, 4);
  assert.equal(c.rows.reduce((s, r) => s + r.diff, 0), c.diff, 'the differences add up to the total’s');
  // Two root moves of the example: the evaluations at the ends of their lines.
  const m = importText(REVERSI).model;
  const d7 = m.root.children.find((n) => n.label === 'd7');
  const c1 = m.root.children.find((n) => n.label === 'c1');
  const w = whyCompare(d7, c1);
  assert.equal(w.valueDiff, d7.value - c1.value);
  assert.ok(w.eval && w.eval.rows.length >= 3, 'the lines end at evaluated leaves');
  assert.equal(w.a.end.eval.total, w.eval.totalA);
  assert.equal(w.a.end.value, d7.value, 'A’s line ends where its value comes from');
  assert.ok(Math.abs(w.prescore.diff - (d7.prescore.total - c1.prescore.total)) < 1e-9);
});

test('find matches move text, #id, depth, a value range and the sign test, combined', () => {
  const m = importText(REVERSI).model;
  const all = nodes(m.root);
  const count = (q) => findAll(m.root, matcher(q)).length;
  assert.equal(matcher({}), null, 'nothing asked, nothing matched');
  assert.equal(count({ depth: 2 }), all.filter((n) => n.depth === 2).length);
  assert.equal(count({ min: 0, max: 5 }), all.filter((n) => n.value !== null && n.value >= 0 && n.value <= 5).length);
  assert.equal(count({ min: '4' }), all.filter((n) => n.value !== null && n.value >= 4).length);
  assert.equal(count({ depth: 1, max: 4.2 }), all.filter((n) => n.depth === 1 && n.value !== null && n.value <= 4.2).length);
  assert.equal(count({ text: 'C' }), all.filter((n) => n.label && n.label.toLowerCase().includes('c')).length);
  assert.equal(count({ text: `#${all[7].id}` }), 1);
  const signs = all.filter((n) => {
    const s = n.eval ? n.eval.total : n.prescore ? n.prescore.total : null;
    return s !== null && n.value !== null && Math.sign(s) !== Math.sign(n.value);
  });
  assert.ok(signs.length > 0, 'the example has nodes whose pre-score and value disagree');
  assert.equal(count({ signDiffers: true }), signs.length);
  assert.ok(signs.every(signDiffers));
  // Hits come in depth-first pre-order.
  const hits = findAll(m.root, matcher({ depth: 2 }));
  assert.deepEqual(hits, all.filter((n) => n.depth === 2));
});

test('two searches of one position: values and best moves that changed, matched by moves', () => {
  const here = importText(REVERSI).model;
  const there = importValue(beforeDocument()).model;
  const d = diffTrees(here.root, there.root);
  assert.deepEqual(d.rootBest, { here: 'd7', there: 'c1' });
  assert.equal(d.valueChanged, 2, 'the root and c1');
  assert.equal(d.bestChanged, 1, 'the root');
  assert.equal(d.onlyHere + d.onlyThere, 0);
  assert.equal(d.matched, nodes(here.root).filter((n) => n.kind !== 'pruned' && n.kind !== 'truncated').length);
  const c1 = here.root.children.find((n) => n.label === 'c1');
  assert.equal(d.diff.get(c1).other.value, 7.5);
  assert.equal(d.diff.get(here.root).bestChanged, true);
  // A move missing on one side: its whole subtree is counted as unmatched.
  const fewer = beforeDocument();
  const gone = fewer.root.children.find((c) => c.move === 'e6');
  fewer.root.children = fewer.root.children.filter((c) => c !== gone);
  const d2 = diffTrees(here.root, importValue(fewer).model.root);
  const e6 = here.root.children.find((n) => n.label === 'e6');
  assert.equal(d2.onlyHere, nodes(e6).filter((n) => n.kind !== 'pruned' && n.kind !== 'truncated').length);
  assert.equal(d2.diff.has(e6), false);
});

test('a subtree exports as a plyscope-tree document that imports back with the same nodes', () => {
  const m = importText(REVERSI).model;
  const d7 = m.root.children.find((n) => n.label === 'd7');
  const doc = subtreeDocument(m, d7);
  assert.equal(doc.format, 'plyscope-tree');
  assert.equal(doc.root.id, d7.id);
  assert.equal(doc.root.move, undefined, 'the root has no move');
  assert.deepEqual(doc.subtree.path, ['d7']);
  assert.equal(doc.root_position, undefined, 'the position is the whole tree’s, not the subtree’s');
  const back = importValue(JSON.parse(JSON.stringify(doc)));
  assert.ok(back.ok, back.error && back.error.message);
  assert.equal(back.model.count, d7.size);
  const ids = (r) => nodes(r).map((n) => `${n.id}:${n.label}:${n.value}`);
  assert.deepEqual(ids(back.model.root).slice(1), ids(d7).slice(1));
  assert.equal(doc.stats.nodes, nodes(d7).filter((n) => n !== d7 && n.kind !== 'pruned' && n.kind !== 'truncated').length);
  assert.equal(doc.chosen.move, principalLine(d7)[0].label);
  assert.deepEqual(movePath(d7.children[0]), ['d7', d7.children[0].label]);
});

// ---------------------------------------------------------------------------------------------
// In the browser

const env = useBrowser();

const openExplorer = (query = '?example=reversi-alphabeta') => openExplorerPage(env, query, { width: 1280, height: 900 });


async function box(page, id) {
  const b = await page.evaluate((i) => window.explorer.nodeBox(i), id);
  assert.ok(b, `node ${id} is shown`);
  return b;
}

function rootMove(page, move) {
  return page.evaluate((mv) => {
    const n = window.explorer.model().root.children.find((c) => c.label === mv);
    return { id: n.id, value: n.value };
  }, move);
}

/** The colour of the canvas pixel at a page position. */
const pixel = treePixel;

test('why A and not B: shift-click two root moves, read the terms side by side', async () => {
  const { page, errors } = await openExplorer();
  const d7 = await rootMove(page, 'd7');
  const c1 = await rootMove(page, 'c1');
  const b1 = await box(page, d7.id);
  await page.keyboard.down('Shift');
  await page.mouse.click(b1.x, b1.y);
  const panel = page.locator('[data-testid=why-panel]');
  await panel.waitFor({ state: 'visible' });
  assert.match(await panel.innerText(), /A = d7/);
  const b2 = await box(page, c1.id);
  await page.mouse.click(b2.x, b2.y);
  await page.keyboard.up('Shift');
  await settle(page);
  // The max player at the root prefers d7.
  const verdict = await page.locator('[data-testid=why-verdict]').innerText();
  assert.match(verdict, /max player at root prefers d7: \+6\.85 against \+4\.2, 2\.65 higher than c1/);
  assert.match(await page.locator('[data-testid=why-line-a]').innerText(), /^d7 \| .+ → leaf \+6\.85$/);
  assert.match(await page.locator('[data-testid=why-line-b]').innerText(), /^c1 \| .+ → leaf \+4\.2$/);
  // Every row of the evaluation table: A − B is the difference of the two cells; totals too.
  const rows = await page.locator('[data-testid=why-eval] tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert.deepEqual(rows[0], ['term', 'A d7', 'B c1', 'A − B']);
  const num = (s) => (s === '–' ? 0 : Number(s));
  for (const r of rows.slice(1)) assert.ok(Math.abs(num(r[1]) - num(r[2]) - num(r[3])) < 1e-3, `row ${r.join(' ')}`);
  const total = rows[rows.length - 1];
  assert.equal(total[0], 'total');
  assert.ok(Math.abs(num(total[3]) - 2.65) < 1e-9, `total ${total}`);
  assert.equal(await page.locator('[data-testid=why-prescore] tbody tr').count(), 5);
  // The picks are marked A and B on the canvas (teal outline).
  const a = await box(page, d7.id);
  await shot(page, 'tree-why');
  const k = a.width / 124;
  const [r, g, bl] = await pixel(page, a.x - a.width / 2 - 3 * k, a.y + 8 * k);
  assert.ok(g > 90 && r < 60 && bl > 90, `teal outline at A, got ${[r, g, bl]}`);
  // Swap, then the keyboard: focus a node and press W twice elsewhere.
  await page.locator('[data-testid=why-swap]').click();
  assert.match(await page.locator('[data-testid=why-verdict]').innerText(), /prefers d7/);
  assert.match(await page.locator('.ps-why-title').innerText(), /^Why c1 and not d7\?/);
  await page.locator('[data-testid=why-close]').click();
  assert.equal(await panel.isVisible(), false);
  await page.evaluate((id) => window.explorer.focus(id), c1.id);
  await settle(page);
  await page.locator('[data-testid=tree-view] canvas.ps-canvas').focus();
  await page.keyboard.press('w');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('w');
  assert.match(await page.locator('.ps-why-title').innerText(), /^Why c1 and not /);
  assert.match(await page.locator('[data-testid=tree-status]').innerText(), /prefers/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('find by depth, value range and sign: count, next and previous, each match revealed', async () => {
  const { page, errors } = await openExplorer();
  const want = await page.evaluate(() => {
    const all = [];
    const st = [window.explorer.model().root];
    while (st.length) {
      const n = st.pop();
      all.push(n);
      for (let k = n.children.length - 1; k >= 0; k--) st.push(n.children[k]);
    }
    const range = all.filter((n) => n.depth === 2 && n.value !== null && n.value >= 4 && n.value <= 12);
    const sign = all.filter((n) => {
      const s = n.eval ? n.eval.total : n.prescore ? n.prescore.total : null;
      return s !== null && n.value !== null && Math.sign(s) !== Math.sign(n.value);
    });
    return { range: range.map((n) => n.id), sign: sign.map((n) => n.id) };
  });
  assert.ok(want.range.length >= 3, `${want.range.length} nodes in range`);
  await page.locator('[data-testid=tree-find-depth]').fill('2');
  await page.locator('[data-testid=tree-find-min]').fill('4');
  await page.locator('[data-testid=tree-find-max]').fill('12');
  await page.locator('[data-testid=tree-find-max]').press('Enter');
  await settle(page);
  const count = page.locator('[data-testid=tree-find-count]');
  assert.equal(await count.innerText(), `1 of ${want.range.length}`);
  const focused = () => page.evaluate(() => Number(decodeURIComponent(location.hash.slice(1))));
  assert.equal(await focused(), want.range[0]);
  await page.locator('[data-testid=tree-find-next]').click();
  await settle(page);
  assert.equal(await count.innerText(), `2 of ${want.range.length}`);
  assert.equal(await focused(), want.range[1]);
  await box(page, want.range[1]);
  assert.match(await page.locator('[data-testid=tree-status]').innerText(), new RegExp(`^Match 2 of ${want.range.length}: .*depth 2`));
  await shot(page, 'tree-find-range');
  await page.locator('[data-testid=tree-find-prev]').click();
  await page.locator('[data-testid=tree-find-prev]').click();
  await settle(page);
  assert.equal(await count.innerText(), `${want.range.length} of ${want.range.length}`, 'previous wraps around');
  assert.equal(await focused(), want.range[want.range.length - 1]);
  // The sign test alone, stepped with N on the canvas.
  for (const f of ['depth', 'min', 'max']) await page.locator(`[data-testid=tree-find-${f}]`).fill('');
  await page.locator('[data-testid=tree-find-sign]').check();
  await settle(page);
  assert.match(await count.innerText(), new RegExp(` of ${want.sign.length}$`));
  const first = await focused();
  assert.ok(want.sign.includes(first));
  await page.locator('[data-testid=tree-view] canvas.ps-canvas').focus();
  await page.keyboard.press('n');
  await settle(page);
  const second = await focused();
  assert.equal(want.sign.indexOf(second), (want.sign.indexOf(first) + 1) % want.sign.length);
  await box(page, second);
  assert.match(await page.locator('[data-testid=tree-status]').innerText(), /Its (pre-score|evaluation) is [+-]?[\d.]+, its backed-up value [+-]?[\d.]+\.$/);
  await shot(page, 'tree-find-sign');
  // Nothing matches: said so, and the count is 0.
  await page.locator('[data-testid=tree-find-sign]').uncheck();
  await page.locator('[data-testid=tree-find-min]').fill('2000000');
  await page.locator('[data-testid=tree-find-min]').press('Enter');
  assert.equal(await count.innerText(), '0 of 0');
  assert.match(await page.locator('[data-testid=tree-status]').innerText(), /No node matches/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('compare two searches: summary, changed values badged, changed best move outlined', async () => {
  const { page, errors } = await openExplorer();
  await page.locator('[data-testid=compare-open]').click();
  const area = page.locator('[data-testid=compare-json]');
  await area.waitFor({ state: 'visible' });
  await area.fill(JSON.stringify(beforeDocument()));
  await page.locator('[data-testid=compare-load]').click();
  const summary = page.locator('[data-testid=compare-summary]');
  await summary.waitFor({ state: 'visible' });
  const text = await summary.innerText();
  assert.match(text, /best move c1 → d7; 2 nodes changed value; best move changed at 1 node; \d+ matched\./);
  await settle(page);
  const d7 = await rootMove(page, 'd7');
  const c1 = await rootMove(page, 'c1');
  const bc = await box(page, c1.id);
  // c1's value changed: a magenta Δ badge at its top-right corner; its label says what it was.
  // (Beside the Δ glyph, inside the disc.)
  const [r, g, b] = await pixel(page, bc.x + bc.width / 2 - 18, bc.y - bc.height / 2 - 4);
  assert.ok(r > 150 && g < 80 && b > 60, `magenta badge on c1, got ${[r, g, b]}`);
  const bd = await box(page, d7.id);
  const [r2, g2, b2] = await pixel(page, bd.x + bd.width / 2 - 18, bd.y - bd.height / 2 - 4);
  assert.ok(!(r2 > 150 && g2 < 80), `no badge on d7 (unchanged), got ${[r2, g2, b2]}`);
  // The root's tooltip says where the best move went.
  const rootBox = await box(page, await page.evaluate(() => window.explorer.model().root.id));
  await page.mouse.move(rootBox.x + 5, rootBox.y + 3);
  const tip = page.locator('[data-testid=tree-tooltip]');
  await tip.waitFor({ state: 'visible' });
  const tipText = await tip.innerText();
  assert.match(tipText, /other search\s+\+7\.5, changed by -0\.65/);
  assert.match(tipText, /best move\s+c1 there → d7 here/);
  await shot(page, 'tree-compare');
  await page.mouse.move(5, 5);
  // A live update of the shown search keeps the comparison.
  await page.evaluate(async (t) => window.explorer.showDocument(JSON.parse(t), { keepView: true }), REVERSI);
  assert.match(await summary.innerText(), /best move c1 → d7/);
  // A bad second document: an error, the comparison stays.
  await area.fill('{"root": 3');
  await page.locator('[data-testid=compare-load]').click();
  assert.match(await page.locator('[data-testid=compare-error]').innerText(), /line 1, column 11/);
  assert.match(await summary.innerText(), /best move c1 → d7/);
  // Open file… in the slot: the file chooser, then the same comparison under the file's name.
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator('[data-testid=compare-file]').click()]);
  await chooser.setFiles({ name: 'before.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(beforeDocument())) });
  await page.waitForFunction(() => /^From before\.json to this search: best move c1 → d7/.test(document.querySelector('[data-testid=compare-summary]').textContent));
  await page.locator('[data-testid=compare-clear]').click();
  assert.equal(await page.evaluate(() => window.explorer.comparison()), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Save subtree downloads the focused node’s subtree as a native document', async () => {
  const { page, errors } = await openExplorer();
  const d7 = await rootMove(page, 'd7');
  await page.evaluate((id) => window.explorer.focus(id), d7.id);
  await settle(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=download-subtree]').click()]);
  assert.equal(download.suggestedFilename(), 'reversi-subtree-d7.json');
  const text = readFileSync(await download.path(), 'utf8');
  const doc = JSON.parse(text);
  assert.equal(doc.format, 'plyscope-tree');
  assert.equal(doc.root.id, d7.id);
  assert.deepEqual(doc.subtree.path, ['d7']);
  const size = await page.evaluate((id) => window.explorer.model().root.children.find((c) => c.id === id).size, d7.id);
  // It loads back as a tree of the subtree's size, the document panel's way.
  const r = await page.evaluate((t) => window.explorer.loadText(t), text);
  assert.equal(r.ok, true);
  assert.equal(r.nodes, size);
  // A foreign tree's subtree: renumbered, still native.
  await page.evaluate(() => window.explorer.loadUrl('../examples/jit-tree.json'));
  await page.waitForFunction(() => window.explorer.model().format === 'jit-tree');
  const sub = await page.evaluate(() => window.explorer.subtree(window.explorer.model().root.children[0].id));
  assert.equal(sub.format, 'plyscope-tree');
  assert.equal(typeof sub.root.id, 'number');
  assert.deepEqual(errors, []);
  await page.close();
});

test('hostile moves and term names stay text in the why panel and the comparison', async () => {
  const { page, errors } = await openExplorer();
  const evil = '<img src=x onerror="window.__pwned=1">';
  const doc = (v) => ({
    format: 'plyscope-tree', version: 1, game: evil, algorithm: 'minimax', perspective: evil, stats: { nodes: 2 },
    root: { id: 0, kind: 'max', value: v, best: true, children: [
      { id: 1, move: evil, kind: 'leaf', value: v, best: true, eval: { total: v, terms: [{ name: evil, raw: 1, weight: v, value: v }] } },
      { id: 2, move: `${evil}2`, kind: 'leaf', value: -1, eval: { total: -1, terms: [{ name: `<b>${evil}</b>`, raw: 1, weight: -1, value: -1 }] } },
    ] },
  });
  await page.evaluate((d) => window.explorer.showDocument(d), doc(3));
  await page.evaluate(() => void window.explorer.why(1, 2));
  await page.evaluate((d) => window.explorer.compareWith(d, '<i>other</i>'), doc(2));
  await settle(page);
  const panel = page.locator('[data-testid=why-panel]');
  assert.match(await panel.innerText(), /Why <img src=x onerror="window.__pwned=1"> and not/);
  assert.equal(await page.locator('.ps-explorer img, .ps-explorer b, .ps-explorer i').count(), 0);
  assert.match(await page.locator('[data-testid=compare-summary]').innerText(), /^From <i>other<\/i> to this search/);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the standalone page compares the depth-5 example with the same position searched to depth 3', async () => {
  const { page, errors } = await openExplorer('');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=compare-examples] option').length > 2);
  await page.locator('[data-testid=compare-examples]').selectOption('tictactoe-alphabeta-depth3.json');
  const summary = page.locator('[data-testid=compare-summary]');
  await summary.waitFor({ state: 'visible' });
  // Computed independently: the two documents' chosen moves and the values of the nodes both have.
  const depth3 = JSON.parse(readFileSync(join(ROOT, 'www', 'examples', 'tictactoe-alphabeta-depth3.json'), 'utf8'));
  const depth5 = JSON.parse(readFileSync(join(ROOT, 'www', 'examples', 'tictactoe-alphabeta.json'), 'utf8'));
  let changed = 0;
  const walk = (a, b) => {
    if (a.value !== b.value) changed++;
    for (const c of a.children || []) {
      if (c.move === undefined) continue;
      const o = (b.children || []).find((x) => x.move === c.move);
      if (o) walk(c, o);
    }
  };
  walk(depth5.root, depth3.root);
  const text = await summary.innerText();
  assert.match(text, new RegExp(`best move ${depth3.chosen.move} → ${depth5.chosen.move}; ${changed} nodes? changed value`));
  assert.match(text, /^From Tic-tac-toe, the same position at depth 3 \(to compare\) to this search: /);
  await settle(page);
  await shot(page, 'tree-compare-depths');
  await page.locator('[data-testid=compare-examples]').selectOption('');
  assert.equal(await page.evaluate(() => window.explorer.comparison()), null);
  assert.deepEqual(errors, []);
  await page.close();
});
