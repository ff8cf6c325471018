// The explorer on a phone and its details panel: a tap selects a node and shows its breakdown with
// buttons for "why A and not B", compare and "Analyse from here"; Compare refuses searches of
// different positions and offers the ones that make sense; smaller things seen by users (one table
// for a leaf, no preview error on a pruned node, "1 child").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, settle, shot, watchErrors, openExplorer } from './harness.mjs';

const env = useBrowser();

/** The standalone explorer in a phone-sized, touch-enabled context. */
async function openPhone() {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${env.server.url}tree/`);
  await page.waitForFunction(() => window.explorer && window.explorer.model());
  await settle(page);
  return { context, page, errors };
}

const box = (page, id) => page.evaluate((i) => window.explorer.nodeBox(i), id);

test('phone: a tap shows the node’s breakdown in a sheet, the tree stays in sight; the ± handle toggles', async () => {
  const { context, page, errors } = await openPhone();
  const ids = await page.evaluate(() => {
    const m = window.explorer.model();
    const a2 = m.root.children.find((c) => c.label === 'a2');
    const c2 = m.root.children.find((c) => c.label === 'c2');
    return { a2: a2.id, c2: c2.id, a2Kids: a2.children.length };
  });
  const shownBefore = await page.evaluate(() => window.explorer.stats().shown);
  let b = await box(page, ids.a2);
  await page.touchscreen.tap(b.x - b.width / 4, b.y);
  await page.waitForSelector('[data-testid=details-panel]:not([hidden])');
  await settle(page);
  assert.equal(await page.evaluate(() => window.explorer.stats().shown), shownBefore, 'a tap on the box does not expand it');
  assert.equal(await page.locator('[data-testid=details-title]').innerText(), 'Move a2');
  const body = await page.locator('[data-testid=details-body]').innerText();
  assert.match(body, /value\s+\+13/);
  assert.match(body, /Pre-score breakdown/);
  assert.match(body, /two_in_line/);
  assert.equal(await page.locator('[data-testid=details-toggle]').innerText(), `Expand (${ids.a2Kids} children)`);
  // A sheet over the bottom of the screen, and the node above it, in the view.
  const sheet = await page.locator('[data-testid=details-panel]').boundingBox();
  assert.ok(sheet.y + sheet.height <= 844 + 1 && sheet.y > 844 * 0.4, `sheet at ${sheet.y}..${sheet.y + sheet.height}`);
  b = await box(page, ids.a2);
  assert.ok(b.y + b.height / 2 < sheet.y && b.y - b.height / 2 > 0, `a2 (y ${b.y}) is above the sheet (top ${sheet.y})`);
  await shot(page, 'tree-phone-details');

  // "Why A and not B" by touch: pick a2 as A, tap c2, ask.
  await page.locator('[data-testid=details-pick]').click();
  b = await box(page, ids.c2);
  await page.touchscreen.tap(b.x - b.width / 4, b.y);
  await page.waitForFunction(() => document.querySelector('[data-testid=details-title]').textContent === 'Move c2');
  assert.equal(await page.locator('[data-testid=details-why]').innerText(), 'Why a2 and not c2?');
  await page.locator('[data-testid=details-why]').click();
  await page.waitForSelector('[data-testid=why-panel]:not([hidden])');
  assert.match(await page.locator('[data-testid=why-verdict]').innerText(), /a tie|prefers/);
  // The sheet gave way to the answer, which is scrolled into sight.
  assert.equal(await page.locator('[data-testid=details-panel]').isHidden(), true);
  const why = await page.locator('[data-testid=why-panel]').boundingBox();
  assert.ok(why.y >= 0 && why.y < 844 - 100, `the why panel's top (${why.y}) is on screen`);
  await shot(page, 'tree-phone-why');

  // The ± handle on the right of a box opens it.
  await page.locator('canvas.ps-canvas').scrollIntoViewIfNeeded();
  await settle(page);
  b = await box(page, ids.a2);
  await page.touchscreen.tap(b.x + b.width / 2 - 2, b.y);
  await settle(page);
  assert.equal(await page.evaluate(() => window.explorer.stats().shown), shownBefore + ids.a2Kids, 'the handle expanded a2');
  assert.deepEqual(errors, []);
  await context.close();
});

test('desktop: D shows the details of the focused node; Analyse from here hands the page the game, root position and moves', async () => {
  const { page, errors } = await openExplorer(env, '', { width: 1400, height: 900 });
  await page.locator('canvas.ps-canvas').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('d');
  await page.waitForSelector('[data-testid=details-panel]:not([hidden])');
  const title = await page.locator('[data-testid=details-title]').innerText();
  assert.match(title, /^Move /);
  // The standalone page does not handle "Analyse from here": no button. A host that does gets
  // the position as data, and an event.
  assert.equal(await page.locator('[data-testid=details-analyse]').count(), 0);
  const got = await page.evaluate(async () => {
    const { mountExplorer } = await import('./explorer.js');
    const div = document.createElement('div');
    div.style.height = '500px';
    document.body.append(div);
    const heard = [];
    const x = mountExplorer(div, { onAnalyse: (d) => heard.push(d) });
    div.addEventListener('ps-analyse', (e) => heard.push({ event: e.detail.moves }));
    const doc = await (await fetch('../examples/tictactoe-alphabeta.json')).json();
    x.showDocument(doc);
    const b1 = doc.root.children.find((c) => c.move === 'b1');
    const deep = b1.children[0];
    x.select(deep.id);
    const button = div.querySelector('[data-testid=details-analyse]');
    button.click();
    x.destroy();
    return { heard, label: button.textContent, want: ['b1', deep.move] };
  });
  assert.equal(got.label, 'Analyse from here');
  assert.deepEqual(got.heard[0], { game: 'tictactoe', rootPosition: 'O---X---- X', moves: got.want, nodeId: got.heard[0].nodeId });
  assert.deepEqual(got.heard[1], { event: got.want });
  await shot(page, 'tree-desktop-details');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Compare refuses a search of another position, says why, and offers earlier searches of this one', async () => {
  const { page, errors } = await openExplorer(env, '', { width: 1400, height: 900 });
  const out = await page.evaluate(async () => {
    const x = window.explorer;
    const deep = await (await fetch('../examples/tictactoe-alphabeta.json')).json();
    const shallow = await (await fetch('../examples/tictactoe-alphabeta-depth3.json')).json();
    const elsewhere = JSON.parse(JSON.stringify(deep));
    elsewhere.root_position = 'X-------- O';
    x.showDocument(shallow);
    x.showDocument(deep);
    const refused = await x.compareWith(elsewhere, 'a search of another position');
    return {
      refused,
      diff: x.comparison(),
      error: document.querySelector('[data-testid=compare-error]').textContent,
      choices: [...document.querySelectorAll('[data-testid=compare-choice]')].map((b) => b.textContent),
    };
  });
  assert.equal(out.refused.ok, false);
  assert.equal(out.diff, null, 'nothing was compared');
  assert.match(out.error, /different positions \(this one “O---X---- X”, the other “X-------- O”\)/);
  assert.deepEqual(out.choices, ['Earlier search of this position (alphabeta, depth 3, 122 nodes)']);
  await page.locator('[data-testid=compare-panel]').scrollIntoViewIfNeeded();
  await shot(page, 'tree-compare-refused');
  await page.locator('[data-testid=compare-choice]').click();
  await page.waitForFunction(() => window.explorer.comparison() !== null);
  assert.match(await page.locator('[data-testid=compare-summary]').innerText(), /^From an earlier search of this position \(alphabeta, depth 3, 122 nodes\) to this search: best move b3 → b1/);
  // A new search of another position clears the comparison rather than matching unrelated trees.
  const cleared = await page.evaluate(async () => {
    const doc = await (await fetch('../examples/reversi-alphabeta.json')).json();
    window.explorer.showDocument(doc, { keepView: true });
    return { diff: window.explorer.comparison(), error: document.querySelector('[data-testid=compare-error]').textContent };
  });
  assert.equal(cleared.diff, null);
  assert.match(cleared.error, /cleared: the new search starts from another position/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a live search offers its previous iteration to compare with', async () => {
  const { page, errors } = await openExplorer(env, '', { width: 1400, height: 900 });
  const out = await page.evaluate(async () => {
    const x = window.explorer;
    const d5 = await (await fetch('../examples/tictactoe-alphabeta.json')).json();
    const d3 = await (await fetch('../examples/tictactoe-alphabeta-depth3.json')).json();
    x.showDocument(d3, { keepView: true });
    x.showDocument(d5, { keepView: true });
    document.querySelector('[data-testid=compare-open]').click();
    return [...document.querySelectorAll('[data-testid=compare-choice]')].map((b) => b.textContent);
  });
  assert.deepEqual(out, ['Previous iteration (alphabeta, depth 3, 122 nodes)']);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a leaf whose pre-score is its evaluation shows one table; a pruned node asks for no preview; “1 child”', async () => {
  const { page, errors } = await openExplorer(env, '', { width: 1400, height: 900 });
  const warnings = [];
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  const ids = await page.evaluate(() => {
    const m = window.explorer.model();
    const all = [];
    const walk = (n) => {
      all.push(n);
      n.children.forEach(walk);
    };
    walk(m.root);
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const leaf = all.find((n) => n.kind === 'leaf' && n.prescore && n.eval && same(n.prescore, n.eval));
    const pruned = all.find((n) => n.kind === 'pruned');
    return { leaf: leaf.id, pruned: pruned.id };
  });
  for (const id of [ids.leaf, ids.pruned]) {
    await page.evaluate((i) => window.explorer.focus(i), id);
    await settle(page);
    const b = await box(page, id);
    await page.mouse.move(5, 5);
    await page.mouse.move(b.x, b.y);
    await page.waitForSelector('[data-testid=tree-tooltip]:not([hidden])');
    await page.waitForTimeout(300);
    const text = await page.locator('[data-testid=tree-tooltip]').innerText();
    if (id === ids.leaf) {
      assert.equal(await page.locator('[data-testid=tree-tooltip] table.ps-terms').count(), 1, 'one table');
      assert.match(text, /Evaluation breakdown \(also its pre-score, for ordering\)/);
    } else {
      assert.match(text, /cut by/);
      assert.equal(await page.locator('[data-testid=tree-tooltip] canvas.tree-preview').count(), 0);
    }
  }
  assert.deepEqual(warnings.filter((w) => /board preview/.test(w)), [], 'no preview error');
  // Grammar: a node with one child.
  const line = await page.evaluate(() => {
    window.explorer.showDocument({ format: 'plyscope-tree', version: 1, root: { id: 0, kind: 'max', value: 1, children: [{ id: 1, move: 'x', kind: 'min', value: 1, children: [{ id: 2, move: 'y', kind: 'leaf', value: 1 }] }] } });
    window.explorer.focus(1);
    return document.querySelector('[data-testid=tree-status]').textContent;
  });
  assert.match(line, /1 child, /);
  assert.deepEqual(errors, []);
  await page.close();
});
