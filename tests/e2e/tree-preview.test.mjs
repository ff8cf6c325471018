// Board previews in the standalone explorer (www/tree/index.html): a document pasted from another
// engine that names one of our games and a root position shows, in each node's tooltip, the board the
// node's moves reach, replayed by the engine in a worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openExplorer, pasteTree, previewOf, settle, shot } from './harness.mjs';

const env = useBrowser();

// Tic-tac-toe, O on a1 and X on b2, X to move (cells: a-c left to right, rows 1-3 top to bottom).
const pasted = {
  format: 'plyscope-tree',
  version: 1,
  game: 'tictactoe',
  root_position: 'O---X---- X',
  engine: 'another engine 2.3',
  algorithm: 'minimax',
  perspective: 'x',
  root: {
    id: 'r',
    kind: 'max',
    value: 1,
    children: [
      { id: 'c1', move: 'c1', kind: 'min', value: 1, best: true, children: [{ id: 'c1a3', move: 'a3', kind: 'leaf', value: 1, best: true }] },
      { id: 'bad', move: 'z9', kind: 'leaf', value: -1 },
    ],
  },
};

test('a pasted document naming our game previews each node’s position in its tooltip', async () => {
  const { page, errors } = await openExplorer(env);
  await pasteTree(page, pasted);
  await page.evaluate(() => window.explorer.expandAll());
  await page.evaluate(() => window.explorer.whenLaidOut());
  await settle(page);

  const root = await previewOf(page, 'r');
  assert.equal(root.state, 'drawn');
  assert.equal(root.position, 'O---X---- X', 'the root shows the document’s root position');
  const one = await previewOf(page, 'c1');
  assert.equal(one.position, 'O-X-X---- O', 'X played c1');
  const two = await previewOf(page, 'c1a3');
  assert.equal(two.position, 'O-X-X-O-- X', 'then O played a3');
  assert.ok(two.width >= 100, `the preview is ${two.width} px wide`);
  assert.ok(two.differ > 200, `the preview board is drawn (${two.differ} pixels differ from the background)`);
  await shot(page, 'tree-preview-pasted');

  // A move the engine does not accept: the tooltip is there, without a board, and nothing breaks.
  const bad = await previewOf(page, 'bad');
  assert.equal(bad.state, 'none');
  assert.match(bad.text, /z9/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a document of a game we do not ship, or without a game, has no preview', async () => {
  const { page, errors } = await openExplorer(env);
  await pasteTree(page, { ...pasted, game: 'chess', root_position: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w' });
  const none = await previewOf(page, 'c1');
  assert.equal(none.state, 'none');
  const { game, ...noGame } = pasted;
  assert.equal(game, 'tictactoe');
  await pasteTree(page, noGame);
  assert.equal((await previewOf(page, 'c1')).state, 'none');
  assert.deepEqual(errors, []);
  await page.close();
});
