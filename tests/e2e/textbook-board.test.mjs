// The textbook trees on the playing page: drawn as trees by the `tree` geometry's renderer
// (www/board/tree.js), played by clicking a child node, at 1400x900 and on a phone (390x844).
// Screenshots: target/screenshots/textbook-board-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, pickGame, shot, PHONE } from './harness.mjs';

const env = useBrowser();
const WIDE = { width: 1400, height: 900 };

async function humans(page) {
  await page.selectOption('[data-testid=side-0-level]', 'human');
  await page.selectOption('[data-testid=side-1-level]', 'human');
}

for (const [name, viewport] of [['desktop', WIDE], ['phone', PHONE]]) {
  test(`textbook tree (${name}): drawn as a tree, a click on a child node plays it, the path follows`, async () => {
    const { context, page, errors } = await openApp(env, viewport);
    await pickGame(page, 'textbook');
    await humans(page);
    const canvas = page.locator('[data-testid=board]');
    await canvas.waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.nodes === '13');
    assert.equal(await canvas.getAttribute('data-edges'), '12');
    // The three children of the root are the legal moves, ringed as hints.
    await page.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.hints === '3');
    await page.locator('[data-testid=board]').scrollIntoViewIfNeeded();
    await shot(page, `textbook-board-start-${name}`);
    // Click the second MIN node (C, at x 8 on level 1): the move a2.
    const c = await page.evaluate(() => window.plyscope.board.cellCenter(8, 1));
    await page.mouse.click(c.x, c.y);
    await page.waitForFunction(() => window.plyscope.state.history.length === 1);
    assert.deepEqual((await page.evaluate(() => window.plyscope.state)).history, ['a2']);
    // Now C's three leaves are the moves; the board hit-tests a leaf box to its cell.
    await page.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.hints === '3');
    const leaf = await page.evaluate(() => window.plyscope.board.cellCenter(6, 2));
    const hit = await page.evaluate(([x, y]) => window.plyscope.board.hitTest(x, y), [leaf.x + 2, leaf.y + 2]);
    assert.deepEqual(hit, { x: 6, y: 2 });
    await shot(page, `textbook-board-after-a2-${name}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('textbook trees with chance nodes and three plies are drawn too (screenshots)', async () => {
  for (const id of ['textbook-chance', 'textbook-deep']) {
    const { context, page, errors } = await openApp(env, WIDE);
    await pickGame(page, id);
    await humans(page);
    const nodes = await page.evaluate(async (g) => (await window.plyscope.client.variant('startView', g)).cells.length, id);
    await page.waitForFunction((n) => document.querySelector('[data-testid=board]').dataset.nodes === String(n), nodes);
    await page.locator('[data-testid=board]').scrollIntoViewIfNeeded();
    await shot(page, `textbook-board-${id}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});
