// End-to-end tests of Ataxx in the page: a whole game with walls against the AI by clicking the
// canvas, the wall-layout picker and editor (with a layout the engine refuses), and the tutorial.
// Screenshots go to target/screenshots/ataxx-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp as openAppPage, appState, pickGame, DESKTOP, PHONE, shot, watchErrors } from './harness.mjs';

const env = useBrowser();

const openApp = (viewport = DESKTOP) => openAppPage(env, viewport);

const state = appState;


/** Clicks the board cell (x, y) (column from the left, row from the top). */
async function clickCell(page, x, y) {
  const c = await page.evaluate(([cx, cy]) => window.plyscope.board.cellCenter(cx, cy), [x, y]);
  await page.mouse.click(c.x, c.y);
}

const cellOf = (name) => ({ x: name.charCodeAt(0) - 97, y: 7 - Number(name.slice(1)) });

/**
 * The move a patient human player makes, so that the game fills the board rather than ending at once:
 * a clone if there is one (turning as few enemy pieces as it can), else a jump; with the cells to click: its source (a jump's origin, or an own piece next to a clone's
 * target) then its target. Passes have no cells.
 */
async function chooseMove(page) {
  return page.evaluate(() => {
    const { state: s, view: v } = window.plyscope;
    const me = s.players.indexOf(s.to_move);
    // The owner of the piece on (x, y) in the engine's board view (cells row by row from the top).
    const at = (x, y) => (x < 0 || y < 0 || x > 6 || y > 6 ? undefined : v.cells[y * 7 + x].pieces[0]?.owner ?? null);
    const cell = (n) => ({ x: n.charCodeAt(0) - 97, y: 7 - Number(n.slice(1)) });
    let best = null;
    for (const { move } of s.legal) {
      if (move === '0000') return { move, cells: [] };
      const to = cell(move.slice(-2));
      let from = move.length === 4 ? cell(move.slice(0, 2)) : null;
      if (!from) {
        for (let dy = -1; dy <= 1 && !from; dy++) for (let dx = -1; dx <= 1 && !from; dx++) if (at(to.x + dx, to.y + dy) === me) from = { x: to.x + dx, y: to.y + dy };
      }
      let gain = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (at(to.x + dx, to.y + dy) === 1 - me) gain++;
      const score = (move.length === 2 ? 100 : 0) - gain;
      if (!best || score > best.score) best = { move, score, cells: [from, to] };
    }
    return best;
  });
}

test('a whole game with walls against the Random AI, played by clicking the canvas', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'ataxx');
  await page.selectOption('[data-testid=side-1-level]', 'random');
  await page.selectOption('[data-testid=ai-speed]', 'fast');
  assert.equal(await page.isVisible('[data-testid=walls-panel]'), true, 'the wall panel shows for Ataxx');
  await page.selectOption('[data-testid=wall-preset]', '01A2');
  await page.waitForFunction(() => window.plyscope.state.game === 'ataxx-01A2' && window.plyscope.state.history.length === 0);
  const walls = await page.evaluate(() => window.plyscope.view.cells.filter((c) => c.blocked));
  assert.ok(walls.length >= 8, `the gates layout has walls on the board (${walls.length})`);

  // Selecting a piece shows its clone and jump targets apart.
  await clickCell(page, 0, 0); // a7, black's corner
  const hints = await page.evaluate(() => window.plyscope.board.decor.hints.map((h) => h.kind));
  assert.ok(hints.includes('clone') && hints.includes('jump'), `clone and jump targets: ${hints}`);
  assert.deepEqual(await page.evaluate(() => window.plyscope.board.decor.selected), { x: 0, y: 0 });
  await shot(page, 'ataxx-selected');
  await clickCell(page, 0, 0); // unselect

  let moves = 0;
  for (let turn = 0; turn < 200; turn++) {
    const s = await state(page);
    if (s.outcome) break;
    const before = s.history.length;
    const m = await chooseMove(page);
    if (m.move === '0000') await page.click('[data-testid=move-buttons] button[data-move="0000"]');
    else {
      await clickCell(page, m.cells[0].x, m.cells[0].y);
      await clickCell(page, m.cells[1].x, m.cells[1].y);
    }
    await page.waitForFunction((n) => window.plyscope.state.history.length > n, before, { timeout: 10000 });
    const after = await state(page);
    assert.equal(after.history[before], m.move, 'the clicks played the chosen move');
    moves++;
    if (turn === 8 && !after.outcome) {
      await page.waitForTimeout(500);
      await shot(page, 'ataxx-game-midway');
    }
    // Wait for the AI's answer (or the end).
    await page.waitForFunction(
      () => {
        const p = window.plyscope;
        return p.state.outcome || (p.state.to_move === p.state.players[0] && !p.thinking);
      },
      null,
      { timeout: 20000 },
    );
  }
  const end = await state(page);
  assert.ok(end.outcome, 'the game ended');
  await page.waitForSelector('[data-testid=banner]:not([hidden])');
  const banner = await page.textContent('[data-testid=banner]');
  assert.match(banner, /(wins|Draw) \d+–\d+/);
  assert.equal(end.game, 'ataxx-01A2', 'the layout stayed for the whole game');
  assert.ok(moves >= 10, `the human made ${moves} moves`);
  console.log(`Ataxx game: ${end.history.length} moves, ${end.outcome}`);
  await page.waitForTimeout(500);
  await shot(page, 'ataxx-game-over');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the layout editor toggles mirrored cells; refused layouts show the engine message', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'ataxx');
  await page.fill('[data-testid=wall-code]', '0000');
  await page.press('[data-testid=wall-code]', 'Tab');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=wall-editor] button').length === 49);
  assert.equal(await page.locator('[data-testid=wall-editor] button.wall').count(), 0);
  // b6 and its mirror images f6, b2, f2.
  await page.click('[data-testid=wall-editor] button[data-name=b6]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=wall-editor] button.wall').length === 4);
  const names = await page.$$eval('[data-testid=wall-editor] button.wall', (bs) => bs.map((b) => b.dataset.name).sort());
  assert.deepEqual(names, ['b2', 'b6', 'f2', 'f6']);
  assert.equal(await page.inputValue('[data-testid=wall-code]'), '0020');
  // The centre stands alone.
  await page.click('[data-testid=wall-editor] button[data-name=d4]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=wall-editor] button.wall').length === 5);
  assert.equal(await page.inputValue('[data-testid=wall-code]'), '8020');
  // Corners are refused by the engine.
  await page.click('[data-testid=wall-editor] button[data-name=a7]');
  await page.waitForFunction(() => document.querySelector('[data-testid=wall-error]').textContent.length > 0);
  assert.match(await page.textContent('[data-testid=wall-error]'), /corner/);
  await page.click('[data-testid=wall-play]');
  await page.waitForFunction(() => window.plyscope.state.game === 'ataxx-8020');
  assert.equal(await page.textContent('[data-testid=wall-error]'), '');
  const walls = await page.evaluate(() => window.plyscope.view.cells.filter((c) => c.blocked).length);
  assert.equal(walls, 5, 'the board has the edited walls');
  await shot(page, 'ataxx-editor');

  // A layout in which black starts without a move: refused, and the game stays.
  await page.fill('[data-testid=wall-code]', '0776');
  await page.click('[data-testid=wall-play]');
  await page.waitForFunction(() => /move at the start/.test(document.querySelector('[data-testid=wall-error]').textContent));
  const msg = await page.textContent('[data-testid=wall-error]');
  assert.match(msg, /0x0776/i);
  assert.equal((await state(page)).game, 'ataxx-8020', 'a refused layout leaves the game as it was');
  // The editor cannot draw a refused layout: it keeps the last playable one, dimmed and named.
  await page.waitForFunction(() => document.querySelector('[data-testid=wall-editor]').classList.contains('stale'));
  assert.equal(await page.getAttribute('[data-testid=wall-editor]', 'data-code'), '8020');
  assert.equal(await page.locator('[data-testid=wall-editor] button.wall').count(), 5);
  // Nonsense is refused by the engine's reader.
  await page.fill('[data-testid=wall-code]', 'zz<b>');
  await page.click('[data-testid=wall-play]');
  await page.waitForFunction(() => /hex digits/.test(document.querySelector('[data-testid=wall-error]').textContent));
  assert.equal(await page.locator('[data-testid=wall-error] b').count(), 0, 'the message is text');
  await shot(page, 'ataxx-refused');

  // A random layout: at most six bits, playable, and the game starts on it.
  await page.click('[data-testid=wall-random]');
  await page.waitForFunction(() => /^ataxx(-[0-9A-F]{4})?$/.test(window.plyscope.state.game) && window.plyscope.state.game !== 'ataxx-8020');
  await page.waitForFunction(() => !document.querySelector('[data-testid=wall-editor]').classList.contains('stale'));
  const code = parseInt((await state(page)).game.slice(6) || '0', 16);
  let bits = 0;
  for (let c = code; c; c >>= 1) bits += c & 1;
  assert.ok(bits <= 6, `random layout ${code.toString(16)} has ${bits} bits`);
  assert.equal(await page.textContent('[data-testid=wall-error]'), '');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the tutorial: a wrong move is taken back, the right one opens the next step', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'ataxx');
  await page.click('[data-testid=tutorial-start]');
  await page.waitForFunction(() => window.plyscope.state.position.startsWith('7/7/7/3x3/'));
  assert.match(await page.textContent('[data-testid=tutorial-title]'), /Clone/);
  assert.equal(await page.isDisabled('[data-testid=tutorial-next]'), true);
  // A jump is the wrong move for the clone step: it is taken back.
  const d4 = cellOf('d4');
  await clickCell(page, d4.x, d4.y);
  const f6 = cellOf('f6');
  await clickCell(page, f6.x, f6.y);
  await page.waitForFunction(() => /Not quite/.test(document.querySelector('[data-testid=tutorial-result]').textContent));
  await page.waitForFunction(() => window.plyscope.state.history.length === 0);
  assert.equal(await page.isDisabled('[data-testid=tutorial-next]'), true);
  // The clone d4 -> e5.
  await clickCell(page, d4.x, d4.y);
  await shot(page, 'ataxx-tutorial-select');
  const e5 = cellOf('e5');
  await clickCell(page, e5.x, e5.y);
  await page.waitForFunction(() => /Well done/.test(document.querySelector('[data-testid=tutorial-result]').textContent));
  assert.deepEqual((await state(page)).history, ['e5']);
  await shot(page, 'ataxx-tutorial-done');
  // The other steps, each with its right move: jump, conversion, pass, end of the game.
  const steps = [
    ['Jump', ['d4', 'f6']],
    ['Conversion', ['a1', 'b2']],
    ['Pass', 'pass'],
    ['End of the game', ['a1', 'b2']],
  ];
  for (const [title, clicks] of steps) {
    await page.click('[data-testid=tutorial-next]');
    await page.waitForFunction(
      (t) => document.querySelector('[data-testid=tutorial-title]').textContent.includes(t) && window.plyscope.state.history.length === 0 && !document.querySelector('[data-testid=tutorial-result]').textContent,
      title,
    );
    if (clicks === 'pass') await page.click('[data-testid=move-buttons] button[data-move="0000"]');
    else for (const n of clicks) await clickCell(page, cellOf(n).x, cellOf(n).y);
    if (title === 'Jump') {
      // Caught in flight: the piece travels from d4 to f6.
      await page.waitForTimeout(90);
      await shot(page, 'ataxx-jumping');
    }
    await page.waitForFunction(() => /Well done/.test(document.querySelector('[data-testid=tutorial-result]').textContent));
    if (title === 'Pass') await shot(page, 'ataxx-tutorial-pass');
  }
  const end = await state(page);
  assert.ok(end.outcome, 'the last step ends the game');
  await shot(page, 'ataxx-tutorial-end');
  await page.click('[data-testid=tutorial-next]');
  await page.waitForSelector('[data-testid=tutorial]', { state: 'hidden' });
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone size: board, wall panel and tutorial fit', async () => {
  const { context, page, errors } = await openApp(PHONE);
  await pickGame(page, 'ataxx-0400');
  await shot(page, 'ataxx-phone');
  await page.click('[data-testid=tutorial-start]');
  await page.waitForFunction(() => window.plyscope.state.position.startsWith('7/7/7/3x3/'));
  assert.ok(await page.evaluate(() => document.querySelector('[data-testid=tutorial]').getBoundingClientRect().top >= -1), 'the tutorial is scrolled into sight');
  const d4 = cellOf('d4');
  await clickCell(page, d4.x, d4.y);
  await page.waitForFunction(() => !!window.plyscope.board.decor.selected);
  await shot(page, 'ataxx-phone-tutorial');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px)`);
  await page.locator('[data-testid=walls-panel]').scrollIntoViewIfNeeded();
  await shot(page, 'ataxx-phone-walls');
  assert.deepEqual(errors, []);
  await context.close();
});
