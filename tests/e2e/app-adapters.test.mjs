// Unit tests of the page's board code without a browser: the renderers are picked by the view's
// geometry (never by game), the grid renderer reads a view alone, and outcomes read as banners.
// What the views hold for each game is tested in Rust (tests/views.rs, tests/catalogue.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as words from '../../www/games.js';
import { outcomeBanner } from '../../www/games.js';
import { rendererFor, canDraw } from '../../www/board/index.js';
import { GridBoard, gridOf } from '../../www/board/grid.js';
import { HexBoard } from '../../www/board/hex.js';
import { OrientedBoard } from '../../www/board/oriented.js';

const disc = (owner) => ({ owner, kind: 'disc' });

test('renderers are picked by geometry; a geometry without one is drawn as text', () => {
  assert.equal(rendererFor({ geometry: { kind: 'square', width: 3, height: 3 } }), GridBoard);
  assert.equal(rendererFor({ geometry: { kind: 'tiles', width: 4, height: 4 } }), GridBoard);
  assert.equal(rendererFor({ geometry: { kind: 'hex', flat_top: false } }), HexBoard);
  assert.equal(rendererFor({ geometry: { kind: 'oriented_square', width: 10, height: 8 } }), OrientedBoard);
  assert.equal(rendererFor({ geometry: { kind: 'no-such-geometry' } }), null);
  assert.equal(canDraw(null), false);
});

test('the grid renderer reads cells, owners, kinds, walls and card values from the view', () => {
  const view = {
    geometry: { kind: 'square', width: 3, height: 2 },
    cells: [
      { at: { x: 0, y: 0 }, pieces: [disc(0)] },
      { at: { x: 1, y: 0 }, pieces: [], blocked: true },
      { at: { x: 2, y: 0 }, pieces: [] },
      { at: { x: 0, y: 1 }, pieces: [disc(1), disc(0)] },
      { at: { x: 1, y: 1 }, pieces: [{ owner: 1, kind: 'o' }] },
      { at: { x: 2, y: 1 }, pieces: [] },
    ],
  };
  const g = gridOf(view);
  assert.equal(g.w, 3);
  assert.equal(g.h, 2);
  assert.deepEqual(g.cells, [0, null, null, 0, 1, null], 'the top of a stack is what shows');
  assert.deepEqual([...g.walls], [1]);
  assert.equal(g.kinds[4], 'o');
  const tiles = gridOf({
    geometry: { kind: 'tiles', width: 2, height: 1 },
    cells: [
      { at: { x: 0, y: 0 }, pieces: [{ kind: 'card', label: '12' }] },
      { at: { x: 1, y: 0 }, pieces: [] },
    ],
  });
  assert.deepEqual(tiles.cells, [12, null]);
});

test('the page keeps no board adapters; outcomes read as banners', () => {
  assert.equal(words.adapterFor, undefined);
  assert.equal(words.adapters, undefined);
  assert.equal(outcomeBanner('white wins'), 'White wins!');
  assert.equal(outcomeBanner('x wins'), 'X wins!');
  assert.equal(outcomeBanner('draw'), 'Draw!');
  assert.equal(outcomeBanner('score 1234'), 'Score 1234');
  assert.equal(outcomeBanner(null), '');
});
