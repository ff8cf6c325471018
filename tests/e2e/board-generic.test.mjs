// End-to-end tests of the page's generic board: it knows no game, only the engine's board view.
// Connect Four (added to the engine with no change under www/) plays by clicking the canvas, the AI
// answers and its tree shows; a view the page has no renderer for falls back to the text board with
// its moves as buttons; a view's rotate moves get the turn buttons beside the board, and what the
// page sends back is the move's text alone. Screenshots: target/screenshots/generic-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp as openAppPage, appState as state, pickGame, PHONE, shot, setLevel, fixDepth } from './harness.mjs';

const env = useBrowser();
const DESKTOP = { width: 1400, height: 900 };
const openApp = (viewport = DESKTOP) => openAppPage(env, viewport);

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
]) {
  test(`Connect Four plays in the page with a click, the AI answers and the tree shows (${name})`, async () => {
    const { context, page, errors } = await openApp(viewport);
    await pickGame(page, 'connect4');
    await setLevel(page, 0, 'human');
    await setLevel(page, 1, 'alphabeta');
    await fixDepth(page, 1, 3);
    // Drawn on the canvas by the grid renderer, from the engine's view (7 columns, 6 rows).
    assert.equal(await page.isVisible('[data-testid=board]'), true);
    assert.equal(await page.isVisible('[data-testid=text-board]'), false);
    const geometry = await page.evaluate(() => window.plyscope.view.geometry);
    assert.deepEqual(geometry, { kind: 'square', width: 7, height: 6 });
    // A click on the cell where a disc in column 4 falls plays "4"; a cell above it is no move.
    const landing = await page.evaluate(() => window.plyscope.view.moves.find((m) => m.text === '4').to);
    assert.deepEqual(landing, { x: 3, y: 5 }, 'the first disc lands on the bottom row');
    const above = await page.evaluate(() => window.plyscope.board.cellCenter(3, 2));
    await page.mouse.click(above.x, above.y);
    assert.match(await page.textContent('[data-testid=message]'), /not a valid move/);
    assert.equal((await state(page)).history.length, 0);
    const c = await page.evaluate(() => window.plyscope.cellCenterOf('4'));
    await page.mouse.click(c.x, c.y);
    await page.waitForFunction(() => window.plyscope.state.history.length >= 2, null, { timeout: 30000 });
    const s = await state(page);
    assert.equal(s.history[0], '4');
    // The view after the AI's move: two discs, the last move is the AI's.
    const discs = await page.evaluate(() => window.plyscope.view.cells.filter((x) => x.pieces.length).length);
    assert.equal(discs, 2);
    assert.equal(await page.evaluate(() => window.plyscope.view.last.text), s.history[1]);
    // The tree of the AI's search shows, with the move it chose.
    await page.locator('[data-testid=tree-view]').waitFor({ state: 'visible' });
    await page.waitForFunction(() => window.plyscope.explorer?.current()?.chosen);
    const chosen = await page.evaluate(() => window.plyscope.explorer.current().chosen.move);
    assert.equal(chosen, s.history[1], "the explorer shows the search of the AI's move");
    await page.waitForTimeout(500);
    await shot(page, `generic-connect4-${name}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a geometry with no renderer falls back to the text board, its moves as buttons', async () => {
  const { context, page, errors } = await openApp();
  // Whichever game of the catalogue the page has no renderer for (none: nothing to check here).
  const id = await page.evaluate(async () => {
    const { canDraw } = await import('./board/index.js');
    for (const g of window.plyscope.state ? await window.plyscope.client.catalogue() : []) {
      const v = await window.plyscope.client.variant('startView', g.id);
      if (!canDraw(v)) return g.id;
    }
    return null;
  });
  if (!id) {
    await context.close();
    return;
  }
  await pickGame(page, id);
  await setLevel(page, 0, 'human');
  await setLevel(page, 1, 'human');
  assert.equal(await page.isVisible('[data-testid=board]'), false);
  assert.equal(await page.isVisible('[data-testid=text-board]'), true);
  const s = await state(page);
  assert.equal(await page.textContent('[data-testid=text-board]'), s.position);
  const buttons = await page.$$eval('[data-testid=move-buttons] button', (bs) => bs.map((b) => b.dataset.move));
  assert.deepEqual(buttons.sort(), s.legal.map((m) => m.move).sort(), 'every legal move is a button');
  await page.click(`[data-testid=move-buttons] button[data-move="${s.legal[0].move}"]`);
  await page.waitForFunction(() => window.plyscope.state.history.length === 1);
  assert.equal((await state(page)).history[0], s.legal[0].move);
  assert.deepEqual(errors, []);
  await context.close();
});

test('rotate moves of the selected piece get the turn buttons; the page sends the move text', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'tictactoe');
  await setLevel(page, 0, 'human');
  await setLevel(page, 1, 'human');
  assert.equal(await page.isVisible('[data-testid=rotate-controls]'), false, 'no turn buttons without rotations');
  // The page knows no rules: give it a view in which the engine's move "b2" is described as a
  // clockwise turn of the piece on the centre cell, and "a1" as an anticlockwise one.
  await page.evaluate(async () => {
    const flow = await import('./app/flow.js');
    const s = flow.state;
    const view = structuredClone(s.view);
    view.cells.find((c) => c.at.x === 1 && c.at.y === 1).pieces = [{ owner: 0, kind: 'x' }];
    view.moves = [
      { text: 'b2', kind: 'rotate', from: { x: 1, y: 1 }, rotation: 90 },
      { text: 'a1', kind: 'rotate', from: { x: 1, y: 1 }, rotation: -90 },
      { text: 'c3', kind: 'place', to: { x: 2, y: 2 } },
    ];
    flow.applyState({ ...s, view });
  });
  assert.equal(await page.isVisible('[data-testid=rotate-controls]'), false, 'shown only once the piece is selected');
  const centre = await page.evaluate(() => window.plyscope.board.cellCenter(1, 1));
  await page.mouse.click(centre.x, centre.y);
  await page.waitForSelector('[data-testid=rotate-controls]:not([hidden])');
  assert.equal(await page.getAttribute('[data-testid=rotate-cw]', 'data-move'), 'b2');
  assert.equal(await page.getAttribute('[data-testid=rotate-ccw]', 'data-move'), 'a1');
  const moveButtons = await page.$$eval('[data-testid=move-buttons] button', (bs) => bs.map((b) => b.dataset.move));
  assert.deepEqual(moveButtons, [], 'rotations are not move buttons while the board is drawn');
  await shot(page, 'generic-rotate-controls');
  await page.click('[data-testid=rotate-cw]');
  await page.waitForFunction(() => window.plyscope.state.history.length === 1);
  assert.equal((await state(page)).history[0], 'b2', 'the page sent the move text back');
  // The engine's own view is back: no rotations, no turn buttons.
  assert.equal(await page.isVisible('[data-testid=rotate-controls]'), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Shift+arrows move the keyboard cursor where the renderer says; Space plays there', async () => {
  const { context, page } = await openApp();
  await pickGame(page, 'tictactoe');
  await setLevel(page, 0, 'human');
  await setLevel(page, 1, 'human');
  await page.locator('[data-testid=board]').focus();
  // From the first move's cell (a1, top left), down then right: b2.
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.plyscope.state.history.length === 1);
  assert.equal((await state(page)).history[0], 'b2');
  // The cursor is back on the first move's cell (a1); at the board's edge it stays, so up three
  // times then down once is a2.
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowUp');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.plyscope.state.history.length === 2);
  assert.equal((await state(page)).history[1], 'a2');
  await context.close();
});
