// End-to-end tests of the game page's results and analysis: values in units with whose view they
// take (no raw sentinel anywhere), the pass explained and made the obvious action, the game-over
// banner with the score above the board (dismissable), the move list that jumps (a new line keeps
// the old one), every AI move's tree kept per ply across a reload, the evaluation graph, the
// candidate moves marked on the board, Ataxx's marks and wall editor, and the layouts at
// 1400x900 and 390x844. Screenshots: target/screenshots/analysis-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp as openAppPage, appState as state, pickGame, PHONE, shot, setLevel, setKnob, setPosition, clickMove } from './harness.mjs';

const env = useBrowser();
const WIDE = { width: 1400, height: 900 };
const openApp = (viewport = WIDE) => openAppPage(env, viewport);

/** No number of five digits or more (a raw search value) in the page's visible text. */
async function noRawValues(page) {
  const text = await page.evaluate(() => document.querySelector('main').innerText + document.querySelector('#tree-caption').innerText);
  assert.doesNotMatch(text, /\b\d{5,}\b/, 'no raw search value on the page');
}

test('values read in units with whose view they take; hints mark their best moves on the board', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'ataxx');
  await setLevel(page, 0, 'human');
  await setLevel(page, 1, 'alphabeta');
  await setKnob(page, 1, 'depth', 3);
  const s = await state(page);
  await clickMove(page, s.legal[0].move);
  await page.waitForFunction(() => window.plyscope.state.history.length === 2 && !window.plyscope.thinking, null, { timeout: 30000 });
  const summary = await page.textContent('[data-testid=ai-summary]');
  assert.match(summary, /(pieces?|even|win in \d+ pl|loss in \d+ pl).* for White/, summary);
  assert.match(await page.textContent('[data-testid=tree-caption]'), /Chose \S+ \((.+ pieces?|even|win in|loss in)/);
  // A hint: every root move with its value in pieces, for the player to move; the best three
  // are marked on the board.
  await page.click('[data-testid=suggest]');
  await page.waitForSelector('[data-testid=hint-panel]:not([hidden])', { timeout: 30000 });
  assert.match(await page.textContent('[data-testid=message]'), /^Hint: \S+ \(.+ for Black\)/);
  const vals = await page.$$eval('[data-testid=hint-moves] li .val', (ls) => ls.map((l) => l.textContent));
  assert.ok(vals.length > 0 && vals.every((v) => /pieces?|even|win in|loss in/.test(v)), vals.join(' | '));
  const marks = await page.evaluate(() => window.plyscope.board.decor.candidates);
  assert.ok(marks.length >= 1 && marks.length <= 3 && marks.some((m) => m.best), JSON.stringify(marks));
  await shot(page, 'analysis-hint-marks');
  await noRawValues(page);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a decided game reads as a win in so many plies, never as a raw value', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'tictactoe');
  await setLevel(page, 0, 'human');
  await setLevel(page, 1, 'alphabeta');
  // X to move can win at once (c1).
  await setPosition(page, 'XX-OO---- X');
  await page.click('[data-testid=suggest]');
  await page.waitForSelector('[data-testid=hint-panel]:not([hidden])');
  assert.match(await page.textContent('[data-testid=message]'), /win in 1 ply for X/);
  await noRawValues(page);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a player who must pass is told so, the Pass button stands out, and Space passes', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'ataxx');
  await setLevel(page, 0, 'human');
  await setLevel(page, 1, 'human');
  await setPosition(page, '7/7/7/7/ooo4/ooo4/xoo4 x 0 1');
  assert.match(await page.textContent('[data-testid=status]'), /Black has no move and must pass/);
  const pass = page.locator('[data-testid=move-buttons] button[data-move="0000"]');
  assert.match(await pass.getAttribute('class'), /must/);
  // A click on the board says what to do instead of "not a valid move".
  const c = await page.evaluate(() => window.plyscope.board.cellCenter(4, 0));
  await page.mouse.click(c.x, c.y);
  assert.match(await page.textContent('[data-testid=message]'), /must pass: press Pass/);
  await shot(page, 'analysis-must-pass');
  await page.focus('[data-testid=board]');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.plyscope.state.history.join() === '0000');
  assert.match(await page.textContent('[data-testid=message]'), /Black has no move and passes/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('game over: the result with its score above the board, dismissable', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'ataxx');
  await setLevel(page, 0, 'human');
  await setLevel(page, 1, 'human');
  await setPosition(page, '7/7/7/7/2o4/2o4/x6 x 0 1');
  await clickMove(page, 'b2');
  await page.waitForFunction(() => !!window.plyscope.state.outcome);
  const banner = page.locator('[data-testid=banner]');
  await banner.waitFor({ state: 'visible' });
  assert.match(await banner.innerText(), /Black wins 4–0/);
  assert.match(await page.textContent('[data-testid=status]'), /Game over: Black wins 4–0/);
  const bb = await banner.boundingBox();
  const board = await page.locator('[data-testid=board]').boundingBox();
  assert.ok(bb.y + bb.height <= board.y + 1, `the banner is above the board (${JSON.stringify(bb)} / ${JSON.stringify(board)})`);
  await shot(page, 'analysis-game-over');
  await page.click('[data-testid=banner-close]');
  assert.equal(await banner.isHidden(), true);
  await page.setViewportSize(PHONE);
  await page.click('[data-testid=undo]');
  await page.click('[data-testid=redo]');
  await page.waitForFunction(() => !!window.plyscope.state.outcome);
  await shot(page, 'analysis-game-over-phone');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the move list jumps to a ply; a new move there starts a line and the old line comes back', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'tictactoe');
  await setLevel(page, 0, 'human');
  await setLevel(page, 1, 'human');
  for (const m of ['a1', 'b2', 'c3', 'a3']) {
    await clickMove(page, m);
    await page.waitForFunction((mv) => window.plyscope.state.history.includes(mv), m);
  }
  await page.click('[data-testid=move-list] button[data-ply="1"]');
  await page.waitForFunction(() => window.plyscope.state.history.length === 1);
  assert.deepEqual((await state(page)).redo, ['b2', 'c3', 'a3']);
  await page.click('[data-testid=move-list] button[data-ply="3"]');
  await page.waitForFunction(() => window.plyscope.state.history.length === 3);
  await page.click('[data-testid=move-list] button[data-ply="1"]');
  await page.waitForFunction(() => window.plyscope.state.history.length === 1);
  // Playing the next move of the line keeps the line; another move starts a new one.
  await clickMove(page, 'b2');
  await page.waitForFunction(() => window.plyscope.state.history.length === 2);
  assert.deepEqual((await state(page)).redo, ['c3', 'a3']);
  await clickMove(page, 'c1');
  await page.waitForFunction(() => window.plyscope.state.history.join(' ') === 'a1 b2 c1');
  assert.match(await page.textContent('[data-testid=message]'), /new line from move 3.*old line \(2 later moves\) is kept/);
  await shot(page, 'analysis-new-line');
  await page.click('[data-testid=back-line]');
  await page.waitForFunction(() => window.plyscope.state.history.join(' ') === 'a1 b2');
  assert.deepEqual((await state(page)).redo, ['c3', 'a3']);
  assert.deepEqual(errors, []);
  await context.close();
});

test("every AI move's tree is kept per ply, survives a reload, and the evaluation graph jumps", async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'reversi');
  await setLevel(page, 0, 'human');
  await setLevel(page, 1, 'alphabeta');
  await setKnob(page, 1, 'depth', 2);
  for (let i = 0; i < 2; i++) {
    const s = await state(page);
    await clickMove(page, s.legal[0].move);
    await page.waitForFunction((n) => window.plyscope.state.history.length === n && !window.plyscope.thinking, s.history.length + 2, { timeout: 30000 });
  }
  const graph = page.locator('[data-testid=eval-graph]');
  await graph.waitFor({ state: 'visible' });
  assert.match(await page.textContent('[data-testid=eval-caption]'), /Evaluation by ply/);
  // Both searches are in IndexedDB before the reload.
  await page.waitForFunction(async () => (await (await import('./app/tree-store.js')).storedSize()).count >= 2);
  await page.reload();
  await page.waitForFunction(() => window.plyscope?.state?.history.length === 4 && window.plyscope.explorer);
  const s = await state(page);
  // The first AI move (ply 2): the position after it, and the tree of the search that chose it.
  await page.click('[data-testid=move-list] button[data-ply="2"]');
  await page.waitForFunction(() => window.plyscope.state.history.length === 2);
  await page.waitForFunction((mv) => window.plyscope.explorer.current()?.chosen?.move === mv, s.history[1]);
  assert.match(await page.textContent('[data-testid=tree-caption]'), /^Move 2, Chose /);
  // The graph after the reload; a click on its right end goes to the last ply.
  await graph.waitFor({ state: 'visible' });
  const g = await graph.boundingBox();
  await page.mouse.click(g.x + g.width - 2, g.y + g.height / 2);
  await page.waitForFunction(() => window.plyscope.state.history.length === 4);
  await shot(page, 'analysis-graph');
  const stored = await page.evaluate(async () => (await import('./app/tree-store.js')).storedSize());
  assert.ok(stored.count >= 2 && stored.bytes > 0, JSON.stringify(stored));
  await noRawValues(page);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Ataxx: clone and jump targets differ before a piece is picked; a jump marks the cell it left', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'ataxx');
  await setLevel(page, 0, 'human');
  await setLevel(page, 1, 'human');
  const kinds = await page.evaluate(() => [...new Set(window.plyscope.board.decor.hints.map((h) => h.kind))].sort());
  assert.deepEqual(kinds, ['clone', 'jump']);
  await shot(page, 'analysis-ataxx-targets');
  // A jump from a7 to c5: the cell it left is marked.
  const jump = (await state(page)).legal.find((m) => m.move.length === 4).move;
  await page.click('#position-box summary');
  await page.fill('[data-testid=move-input]', jump);
  await page.click('[data-testid=play-move]');
  await page.waitForFunction(() => window.plyscope.state.history.length === 1);
  const from = await page.evaluate(() => window.plyscope.board.decor.from);
  assert.ok(from, 'the last move has a source cell');
  assert.deepEqual(await page.evaluate((f) => window.plyscope.view.cells.find((c) => c.at.x === f.x && c.at.y === f.y).pieces, from), []);
  await page.waitForTimeout(600);
  await shot(page, 'analysis-ataxx-jumped');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Ataxx: a refused wall code is not drawn, and its error does not follow into the tutorial', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'ataxx');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=wall-editor] button').length === 49);
  await page.fill('[data-testid=wall-code]', 'FFFF');
  await page.press('[data-testid=wall-code]', 'Tab');
  await page.waitForFunction(() => document.querySelector('[data-testid=wall-error]').textContent.length > 0);
  assert.equal(await page.locator('[data-testid=wall-editor] button.wall').count(), 0, 'the refused layout is not drawn');
  await page.click('[data-testid=tutorial-start]');
  await page.waitForFunction(() => window.plyscope.state.position.startsWith('7/7/7/3x3/'));
  assert.equal(await page.textContent('[data-testid=wall-error]'), '');
  assert.deepEqual(errors, []);
  await context.close();
});

test('layouts: "Why this move?" above the fold at 1400x900; nothing overlaps at 390x844', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'reversi');
  const h = await page.locator('#tree-panel h2').boundingBox();
  assert.ok(h.y + h.height <= WIDE.height, `the tree panel's title at ${h.y}`);
  await shot(page, 'analysis-wide');
  await page.setViewportSize(PHONE);
  for (const game of ['reversi', 'ataxx', 'tictactoe']) {
    await pickGame(page, game);
    const boxes = await page.evaluate(() => {
      const ids = ['turn', 'score', 'banner', 'board', 'thinking', 'move-buttons', 'message'];
      const out = [];
      for (const id of ids) {
        const e = document.getElementById(id);
        if (!e || e.hidden || e.offsetParent === null) continue;
        const r = e.getBoundingClientRect();
        if (r.width && r.height) out.push({ id, x: r.x, y: r.y, w: r.width, h: r.height });
      }
      for (const b of document.querySelectorAll('.controls > *:not([hidden]), .top > *')) {
        const r = b.getBoundingClientRect();
        if (r.width && r.height) out.push({ id: b.id || b.className, x: r.x, y: r.y, w: r.width, h: r.height });
      }
      return out;
    });
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        const overlap = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 1 && Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 1;
        assert.ok(!overlap, `${game}: ${a.id} and ${b.id} overlap (${JSON.stringify(a)} ${JSON.stringify(b)})`);
      }
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${game}: horizontal overflow ${overflow}px`);
    await shot(page, `analysis-phone-${game}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the kept trees have a size budget: the oldest trees are dropped first, their moves stay', async () => {
  const { context, page, errors } = await openApp();
  const out = await page.evaluate(async () => {
    const store = await import('./app/tree-store.js');
    // Five searches of about 10 kB each, under a budget of 35 kB: the two oldest lose their trees.
    store.setTreeBudget(35000);
    const doc = (n) => ({ format: 'plyscope-tree', root: { id: 0, move: null, pad: 'x'.repeat(10000), n } });
    for (let i = 0; i < 5; i++) {
      await store.keepSearch('tictactoe', null, ['a1', 'b2', 'c3'].slice(0, i % 4).concat(String(i)), { move: 'a1', tree: doc(i) });
      await new Promise((r) => setTimeout(r, 5));
    }
    const kept = [];
    for (let i = 0; i < 5; i++) {
      const db = await new Promise((res) => {
        const req = indexedDB.open('plyscope-trees');
        req.onsuccess = () => res(req.result);
      });
      const key = store.searchKey('tictactoe', null, ['a1', 'b2', 'c3'].slice(0, i % 4).concat(String(i)));
      const hit = await new Promise((res) => {
        const r = db.transaction('searches').objectStore('searches').get(key);
        r.onsuccess = () => res(r.result ? { tree: !!r.result.doc, move: r.result.move } : null);
      });
      kept.push(hit);
      db.close();
    }
    return { kept, size: await store.storedSize() };
  });
  // The two oldest lose their trees but keep their move and value (the evaluation graph needs them).
  assert.deepEqual(out.kept.map((k) => k && k.tree), [false, false, true, true, true]);
  assert.deepEqual(out.kept.map((k) => k && k.move), ['a1', 'a1', 'a1', 'a1', 'a1']);
  assert.ok(out.size.bytes <= 35000, JSON.stringify(out.size));
  assert.deepEqual(errors, []);
  await context.close();
});
