// Board previews of Hive and Khet in the tree explorer's tooltips: the same renderers as the game
// page (www/board/hex.js, oriented.js) draw the position a node reaches, a Khet node with the laser
// trace of its move. Documents are pasted into the standalone explorer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openExplorer, pasteTree, previewOf, shot } from './harness.mjs';

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

test('Hive and Khet nodes preview their boards in the tooltip (Khet with the trace)', async () => {
  const { page, errors } = await openExplorer(env);
  await pasteTree(page, doc('hive', ['wS1', 'bS1 wS1-']), { expand: true });
  const hive = await previewOf(page, 'b');
  assert.equal(hive.pieces, '2', 'both placed pieces drawn');
  assert.ok(hive.differ > 200, `the hex board is drawn (${hive.differ} pixels)`);
  await shot(page, 'tree-preview-hive');

  await pasteTree(page, doc('khet', ['c1cw', 'h8cw']), { expand: true });
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
