// End-to-end tests of what the game page keeps for the player: a game replaced by a new one (the
// picker, Enter, the button) comes back with Undo; a new game starts with the AI running; Undo in
// AI-against-AI play pauses the AIs; AI settings are kept per game and side, with a time limit by
// default; the first visit plays against alpha-beta. Screenshots: target/screenshots/flow-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp as openAppPage, appState as state, pickGame, DESKTOP, PHONE, shot, setLevel, clickMove } from './harness.mjs';

const env = useBrowser();
const openApp = (viewport = DESKTOP) => openAppPage(env, viewport);

test('a game replaced by another game comes back with Undo, with its moves and its redo list', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'tictactoe');
  await setLevel(page, 1, 'human');
  for (const m of ['a1', 'b2', 'c3', 'a3']) {
    await clickMove(page, m);
    await page.waitForFunction((mv) => window.plyscope.state.history.includes(mv), m);
  }
  await page.click('[data-testid=undo]');
  await page.waitForFunction(() => window.plyscope.state.redo.length === 1);
  const before = await state(page);
  // The picker starts another game at once...
  await pickGame(page, 'reversi');
  assert.match(await page.textContent('[data-testid=message]'), /Undo brings the previous game back/);
  assert.equal(await page.isDisabled('[data-testid=undo]'), false, 'Undo can bring the game back');
  // ...and survives a reload.
  await page.reload();
  await page.waitForFunction(() => window.plyscope && window.plyscope.state && window.plyscope.state.game === 'reversi');
  await page.click('[data-testid=undo]');
  await page.waitForFunction(() => window.plyscope.state.game === 'tictactoe');
  const back = await state(page);
  assert.deepEqual(back.history, before.history);
  assert.deepEqual(back.redo, before.redo);
  assert.equal(back.position, before.position);
  assert.match(await page.textContent('[data-testid=message]'), /previous game is back/);
  // Enter on the board restarts, and that too can be taken back.
  await page.focus('[data-testid=board]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.plyscope.state.history.length === 0);
  await page.click('[data-testid=undo]');
  await page.waitForFunction((n) => window.plyscope.state.history.length === n, before.history.length);
  await shot(page, 'flow-game-back');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a new game starts with the AI running; Undo in AI-against-AI play pauses the AIs', async () => {
  const { context, page, errors } = await openApp();
  await pickGame(page, 'tictactoe');
  await page.focus('[data-testid=board]');
  await page.keyboard.press('p');
  await page.waitForFunction(() => window.plyscope.settings.paused);
  await setLevel(page, 0, 'human');
  await setLevel(page, 1, 'random');
  // A new game: the AI is not paused any more, and answers the human.
  await page.click('[data-testid=new-game]');
  await page.waitForFunction(() => !window.plyscope.settings.paused);
  await clickMove(page, 'b2');
  await page.waitForFunction(() => window.plyscope.state.history.length === 2);
  // AI against AI: Undo takes one move back and pauses, so the AI does not play it again at once.
  await page.click('[data-testid=new-game]');
  await page.waitForFunction(() => window.plyscope.state.history.length === 0);
  await page.selectOption('[data-testid=ai-speed]', 'slow');
  await setLevel(page, 0, 'random');
  await page.waitForFunction(() => window.plyscope.state.history.length >= 2, null, { timeout: 20000 });
  await page.click('[data-testid=undo]');
  await page.waitForFunction(() => window.plyscope.settings.paused && !window.plyscope.thinking);
  const n = (await state(page)).history.length;
  assert.match(await page.textContent('[data-testid=message]'), /paused/);
  assert.equal(await page.textContent('[data-testid=pause]'), 'Resume AI');
  // Nothing moves while paused: Step plays exactly one move.
  await page.click('[data-testid=step]');
  await page.waitForFunction((k) => window.plyscope.state.history.length === k + 1, n);
  assert.deepEqual(errors, []);
  await context.close();
});

test('AI settings are kept per game and side, with a time limit by default', async () => {
  const { context, page, errors } = await openApp();
  // The first visit plays against alpha-beta with a time limit.
  assert.equal(await page.inputValue('[data-testid=side-0-level]'), 'human');
  assert.equal(await page.inputValue('[data-testid=side-1-level]'), 'alphabeta');
  const t0 = Number(await page.inputValue('[data-testid=side-1-time]'));
  assert.ok(t0 > 0 && t0 <= 10, `a default time limit of a few seconds (${t0})`);
  await pickGame(page, 'tictactoe');
  await page.fill('[data-testid=side-1-depth]', '9');
  await page.dispatchEvent('[data-testid=side-1-depth]', 'change');
  await page.fill('[data-testid=side-1-time]', '1.5');
  await page.dispatchEvent('[data-testid=side-1-time]', 'change');
  // Another game has its own settings...
  await pickGame(page, 'ataxx');
  assert.notEqual(await page.inputValue('[data-testid=side-1-depth]'), '9');
  assert.equal(Number(await page.inputValue('[data-testid=side-1-time]')), t0);
  // ...and tic-tac-toe's come back with it, also after a reload.
  await pickGame(page, 'tictactoe');
  assert.equal(await page.inputValue('[data-testid=side-1-depth]'), '9');
  await page.reload();
  await page.waitForFunction(() => window.plyscope && window.plyscope.state && window.plyscope.state.game === 'tictactoe');
  assert.equal(await page.inputValue('[data-testid=side-1-depth]'), '9');
  assert.equal(await page.inputValue('[data-testid=side-1-time]'), '1.5');
  assert.equal(await page.evaluate(() => window.plyscope.settings.sides[1].time), 1500);
  assert.deepEqual(errors, []);
  await context.close();
});

test('while the AI thinks, the progress shows the time against the limit, the depth, nodes/s and the best move so far', async () => {
  const { context, page } = await openApp();
  await pickGame(page, 'reversi');
  await setLevel(page, 1, 'alphabeta');
  await page.fill('[data-testid=side-1-depth]', '64');
  await page.dispatchEvent('[data-testid=side-1-depth]', 'change');
  await page.fill('[data-testid=side-1-time]', '600');
  await page.dispatchEvent('[data-testid=side-1-time]', 'change');
  const first = (await state(page)).legal[0].move;
  await clickMove(page, first);
  // The search lasts ten minutes at most: long enough to watch on any machine; the test cancels.
  await page.waitForFunction(() => /Best so far \S+/.test(document.querySelector('[data-testid=progress-text]').textContent), null, { timeout: 60000 });
  const text = await page.textContent('[data-testid=progress-text]');
  assert.match(text, /\d+(\.\d)? s of 600 s/);
  assert.match(text, /depth \d+/);
  assert.match(text, /nodes\/s/);
  await shot(page, 'flow-progress');
  await page.setViewportSize(PHONE);
  await shot(page, 'flow-progress-phone');
  await page.click('[data-testid=cancel]');
  await page.waitForFunction(() => !window.plyscope.thinking);
  await context.close();
});
