// Unit tests of www/games.js: how the page reads position and move texts for drawing (no browser).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adapterFor, outcomeBanner } from '../../www/games.js';

test('tic-tac-toe: nine cells from a1 (top left), side to move, cell names', () => {
  const a = adapterFor('tictactoe');
  const v = a.parse('XO--X---O O', 'tictactoe');
  assert.equal(v.w, 3);
  assert.deepEqual(v.cells, [0, 1, null, null, 0, null, null, null, 1]);
  assert.equal(v.toMove, 1);
  assert.deepEqual(a.target('c2', v), { x: 2, y: 1 });
  assert.equal(a.target('d1', v), null);
  assert.equal(a.target('pass', v), null);
  assert.equal(a.cellName(2, 1), 'c2');
});

test('Reversi: the size comes from the id; rows 1..N top to bottom', () => {
  const a = adapterFor('reversi-12');
  assert.equal(a, adapterFor('reversi'));
  const text = '-'.repeat(12 * 12 - 1) + 'X O';
  const v = a.parse(text, 'reversi-12');
  assert.equal(v.w, 12);
  assert.equal(v.cells[143], 0);
  assert.deepEqual(a.target('l12', v), { x: 11, y: 11 });
  assert.deepEqual(a.target('d3', a.parse('-'.repeat(64) + ' X', 'reversi')), { x: 3, y: 2 });
  assert.equal(a.target('m1', v), null, 'column m is off a 12-wide board');
});

test('Ataxx: FEN rank 7 first, walls, clones and jumps', () => {
  const a = adapterFor('ataxx-7888');
  const v = a.parse('x2-2o/3-3/3-3/---1---/3-3/3-3/o2-2x x 0 1');
  assert.equal(v.w, 7);
  assert.equal(v.h, 7);
  assert.equal(v.cells[0], 0, 'a7 is black');
  assert.equal(v.cells[6], 1, 'g7 is white');
  assert.ok(v.walls.has(3) && v.walls.has(21) && !v.walls.has(24));
  assert.equal(v.walls.size, 12);
  assert.deepEqual(a.target('f2', v), { x: 5, y: 5 });
  assert.deepEqual(a.source('a7c5', v), { x: 0, y: 0 });
  assert.deepEqual(a.target('a7c5', v), { x: 2, y: 2 });
  assert.equal(a.source('f2', v), null);
  assert.equal(a.target('0000', v), null);
  assert.ok(a.startsFrom({ x: 1, y: 1, from: null }, { x: 0, y: 0 }), 'a clone grows next to its origin');
  assert.ok(!a.startsFrom({ x: 2, y: 2, from: null }, { x: 0, y: 0 }));
});

test('Threes: card values on a 4x4 grid and the next card', () => {
  const a = adapterFor('threes');
  const v = a.parse('3 . 1 2 / . . . . / 12 6 . . / . . . 48 | deck 2 4 3 | next 2');
  assert.equal(v.w, 4);
  assert.deepEqual(v.cells.slice(0, 4), [3, null, 1, 2]);
  assert.equal(v.cells[15], 48);
  assert.equal(v.next, '2');
  assert.equal(v.swiped, null);
  // 3 -> 3, 12 -> 27, 6 -> 9, 48 -> 243.
  assert.equal(v.points, 3 + 27 + 9 + 243);
  assert.equal(a.target('up', v), null);
  const w = a.parse('3 . 1 . / . . . . / 12 6 . . / . . 48 . | deck 2 3 4 | next bonus | swiped left 1 4');
  assert.equal(w.swiped, 'left');
  assert.equal(w.next, 'bonus');
});

test('unknown games have no adapter; outcomes read as banners', () => {
  assert.equal(adapterFor('hive'), null);
  assert.equal(outcomeBanner('white wins'), 'White wins!');
  assert.equal(outcomeBanner('x wins'), 'X wins!');
  assert.equal(outcomeBanner('draw'), 'Draw!');
  assert.equal(outcomeBanner('score 1234'), 'Score 1234');
  assert.equal(outcomeBanner(null), '');
});
