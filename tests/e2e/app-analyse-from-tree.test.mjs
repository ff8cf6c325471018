// End-to-end test of "Analyse from here": a node of the AI's search tree, selected in the explorer,
// sets the board to its position as a variation; "Back to the game" brings the game back.
// Screenshot: target/screenshots/analyse-from-tree.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, appState as state, pickGame, shot } from './harness.mjs';

const env = useBrowser();

test('"Analyse from here" in the tree sets the board to the node, as a variation', async () => {
  const { context, page, errors } = await openApp(env, { width: 1400, height: 900 });
  await pickGame(page, 'reversi');
  await page.selectOption('[data-testid=side-0-level]', 'human');
  await page.selectOption('[data-testid=side-1-level]', 'alphabeta');
  await page.fill('[data-testid=side-1-depth]', '3');
  await page.dispatchEvent('[data-testid=side-1-depth]', 'change');
  const first = (await state(page)).legal[0].move;
  const c = await page.evaluate((m) => window.plyscope.cellCenterOf(m), first);
  await page.mouse.click(c.x, c.y);
  await page.waitForFunction(() => window.plyscope.state.history.length === 2 && !window.plyscope.thinking, null, { timeout: 30000 });
  const game = await state(page);
  // A node two plies below the root of the AI's search, on its principal variation.
  const target = await page.evaluate(() => {
    const x = window.plyscope.explorer;
    const root = x.current().root;
    const a = root.children.find((k) => k.children && k.children.length) || root.children[0];
    const b = a.children[0];
    x.select(b.id);
    return { moves: [a.move, b.move], root: x.current().root_position };
  });
  const analyse = page.locator('[data-testid=details-analyse]');
  await analyse.waitFor({ state: 'visible' });
  await analyse.click();
  // The AI searched after the first move: the variation branches off the game there.
  await page.waitForFunction((n) => window.plyscope.state.history.length === n, 1 + target.moves.length);
  const s = await state(page);
  assert.deepEqual(s.history, [game.history[0], ...target.moves]);
  assert.match(await page.textContent('[data-testid=message]'), /A variation from move 1 \(2 moves of the tree\)/);
  assert.equal(await page.evaluate(() => window.plyscope.settings.paused), true, 'the AIs pause on the variation');
  assert.equal(await page.isVisible('[data-testid=back-line]'), true);
  await shot(page, 'analyse-from-tree');
  // Back to the game: as it was.
  await page.click('[data-testid=back-line]');
  await page.waitForFunction((h) => window.plyscope.state.history.join(' ') === h, game.history.join(' '));
  assert.equal((await state(page)).position, game.position);
  assert.deepEqual(errors, []);
  await context.close();
});
