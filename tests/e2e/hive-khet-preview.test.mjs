// Board previews of Hive and Khet in the tree explorer's tooltips: the same renderers as the game
// page (www/board/hex.js, oriented.js) draw the position a node reaches, a Khet node with the laser
// trace of its move. Documents are pasted into the standalone explorer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openExplorer, settle, shot } from './harness.mjs';

const env = useBrowser();

const doc = (game, moves) => ({
  format: 'plyscope-tree',
  version: 1,
  game,
  engine: 'preview test',
  algorithm: 'minimax',
  root: {
    id: 'r',
    kind: 'max',
    value: 0,
    children: [{ id: 'a', move: moves[0], kind: 'min', value: 0, best: true, children: [{ id: 'b', move: moves[1], kind: 'leaf', value: 0, best: true }] }],
  },
});

async function paste(page, d) {
  await page.locator('[data-testid=tree-json]').fill(JSON.stringify(d));
  await page.locator('[data-testid=load-tree]').click();
  await page.waitForFunction(() => window.explorer.current()?.engine === 'preview test');
  await page.evaluate(() => window.explorer.expandAll());
  await page.evaluate(() => window.explorer.whenLaidOut());
  await settle(page);
}

/** Hovers node `id` and waits for its preview; returns what the renderer says it drew. */
async function previewOf(page, id) {
  await page.mouse.move(5, 5);
  await page.waitForSelector('[data-testid=tree-tooltip]', { state: 'hidden' });
  const box = await page.evaluate((i) => window.explorer.nodeBox(i), id);
  assert.ok(box, `node ${id} is shown`);
  await page.mouse.move(box.x + 4, box.y + 2);
  await page.waitForSelector('[data-testid=tree-tooltip]:not([hidden])');
  return page
    .waitForFunction(
      () => {
        const c = document.querySelector('[data-testid=tree-tooltip] canvas.tree-preview');
        if (!c || c.dataset.state !== 'drawn') return null;
        const g = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let differ = 0;
        for (let i = 0; i < g.length; i += 4) if (g[i] !== g[0] || g[i + 1] !== g[1] || g[i + 2] !== g[2]) differ++;
        return { ...c.dataset, differ };
      },
      null,
      { timeout: 15000 },
    )
    .then((h) => h.jsonValue());
}

test('Hive and Khet nodes preview their boards in the tooltip (Khet with the trace)', async () => {
  const { page, errors } = await openExplorer(env);
  await paste(page, doc('hive', ['wS1', 'bS1 wS1-']));
  const hive = await previewOf(page, 'b');
  assert.equal(hive.pieces, '2', 'both placed pieces drawn');
  assert.ok(hive.differ > 200, `the hex board is drawn (${hive.differ} pixels)`);
  await shot(page, 'tree-preview-hive');

  await paste(page, doc('khet', ['c1cw', 'h8cw']));
  const khet = await previewOf(page, 'a');
  assert.equal(khet.pieces, '26');
  assert.ok(Number(khet.beamTotal) > 0 && khet.beam === khet.beamTotal, `the move's trace is drawn: ${JSON.stringify(khet)}`);
  assert.ok(khet.differ > 200);
  const reply = await previewOf(page, 'b');
  assert.equal(reply.pieces, '26', "red's reply is previewed too");
  await shot(page, 'tree-preview-khet');
  assert.deepEqual(errors, []);
  await page.close();
});
