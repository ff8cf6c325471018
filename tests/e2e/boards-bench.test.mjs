// The hex (Hive) and oriented-square (Khet) renderers on their own, without the app: the bench page
// tests/e2e/fixtures/boards.html runs the engine in the page, plays seeded moves and draws its board
// views. The renderers say what they drew in the canvas's data attributes; the tests compare that
// with the engine's view, and check that clicks map onto the cells and hand pieces drawn there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useBrowser, watchErrors, ROOT, DESKTOP, PHONE, shot } from './harness.mjs';

const env = useBrowser();
const BENCH = readFileSync(join(ROOT, 'tests', 'e2e', 'fixtures', 'boards.html'), 'utf8');

async function openBench(viewport = DESKTOP) {
  const page = await env.browser.newPage({ viewport });
  const errors = watchErrors(page);
  await page.route('**/__boards.html', (r) => r.fulfill({ body: BENCH, contentType: 'text/html' }));
  await page.goto(`${env.server.url}__boards.html`);
  await page.waitForFunction(() => window.benchReady, null, { timeout: 20000 });
  return { page, errors };
}

const dataset = (page) => page.evaluate(() => ({ ...document.getElementById('board').dataset }));

/** Seeded moves that climb when they can, else bring a beetle in or move one: a stack soon forms. */
const CLIMB = [
  'm.to && v.cells.some((c) => c.at.x === m.to.x && c.at.y === m.to.y)',
  "m.hand && v.hands[m.hand.player][m.hand.index].piece.kind === 'beetle'",
  "m.from && v.cells.some((c) => c.at.x === m.from.x && c.at.y === m.from.y && c.pieces[c.pieces.length - 1].kind === 'beetle')",
];

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
]) {
  test(`hex board (${name}): stacks, hands and cells as the view says; clicks find cells and hand pieces`, async () => {
    const { page, errors } = await openBench(viewport);
    await page.evaluate(() => window.bench.open('hive-MLP'));
    const view = await page.evaluate((prefer) => window.bench.random(14, 7, 'v.cells.some((c) => c.pieces.length > 1)', prefer), CLIMB);
    const stacks = view.cells.filter((c) => c.pieces.length > 1);
    assert.ok(stacks.length > 0, 'the seeded game made a stack');
    await page.waitForFunction(() => !window.board.animating);
    const ds = await dataset(page);
    assert.equal(Number(ds.pieces), view.cells.reduce((n, c) => n + c.pieces.length, 0));
    assert.deepEqual(ds.stacks.split(' ').sort(), stacks.map((c) => `${c.at.x},${c.at.y}:${c.pieces.length}`).sort());
    const hands = view.hands.map((l) => l.map((h) => `${h.piece.label}${h.count}`).join(' ')).join('|');
    assert.equal(ds.hands, hands);

    // Every occupied cell and every target is drawn where a click finds it, inside the canvas.
    const probe = await page.evaluate(() => {
      const b = window.board;
      const v = window.bench.view();
      const r = document.getElementById('board').getBoundingClientRect();
      const cells = [...v.cells.map((c) => c.at), ...v.moves.filter((m) => m.to).map((m) => m.to)];
      return cells.map((c) => {
        const p = b.cellCenter(c.x, c.y);
        return { c, hit: b.hitTest(p.x, p.y), inside: p.x > r.left && p.x < r.right && p.y > r.top && p.y < r.bottom };
      });
    });
    for (const { c, hit, inside } of probe) {
      assert.deepEqual(hit, { x: c.x, y: c.y }, `cell ${c.x},${c.y}`);
      assert.ok(inside, `cell ${c.x},${c.y} is inside the canvas`);
    }
    // Each hand piece is drawn and a click on it names it.
    const handHits = await page.evaluate(() => {
      const v = window.bench.view();
      const out = [];
      v.hands.forEach((l, player) =>
        l.forEach((_, index) => {
          const p = window.board.handCenter(player, index);
          out.push({ player, index, hit: p && window.board.hitTest(p.x, p.y) });
        }),
      );
      return out;
    });
    assert.ok(handHits.length >= 2);
    for (const h of handHits) assert.deepEqual(h.hit, { hand: { player: h.player, index: h.index } });

    // The keyboard cursor walks the hexes: right then left comes back, up then down too.
    const walk = await page.evaluate(() => {
      const b = window.board;
      const o = { x: 0, y: 0 };
      const back = (a, k1, k2) => b.step(b.step(a, k1), k2);
      return { rl: back(o, 'ArrowRight', 'ArrowLeft'), ud: back(o, 'ArrowUp', 'ArrowDown'), r: b.step(o, 'ArrowRight'), other: b.step(o, 'Enter') };
    });
    assert.deepEqual(walk.rl, { x: 0, y: 0 });
    assert.deepEqual(walk.ud, { x: 0, y: 0 });
    assert.deepEqual(walk.r, { x: 1, y: 0 });
    assert.equal(walk.other, null);

    // Hints are drawn as outlines: the renderer counts what it was given.
    await page.evaluate(() => {
      const v = window.bench.view();
      const hints = v.moves.filter((m) => m.hand && m.hand.index === 0).map((m) => ({ x: m.to.x, y: m.to.y, kind: null }));
      window.bench.decor({ hints, selectedHand: v.moves.find((m) => m.hand).hand });
      window.bench.draw();
    });
    const n = await page.evaluate(() => window.bench.view().moves.filter((m) => m.hand && m.hand.index === 0).length);
    assert.equal(Number((await dataset(page)).hints), n);
    await shot(page, `bench-hive-test-${name}`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test(`oriented board (${name}): the beam is drawn in full and the destroyed piece marked; clicks find squares`, async () => {
    const { page, errors } = await openBench(viewport);
    await page.evaluate(() => window.bench.open('khet-classic'));
    let ds = await dataset(page);
    assert.equal(ds.pieces, '26', 'every piece of the Classic setup is drawn');
    assert.equal(ds.beamTotal, '0', 'no shot yet');
    // Seeded moves until a shot destroys a piece, the last one animated.
    const view = await page.evaluate(() => {
      window.bench.random(200, 5, 'v.highlights.length > 0 || v.moves.length === 0');
      return window.bench.view();
    });
    assert.ok(view.highlights.length > 0, 'a shot destroyed a piece');
    assert.ok(view.paths.length > 0);
    // The beam travels, then is drawn in full (a fixed number of frames later, whatever the speed).
    await page.waitForFunction(() => {
      const d = document.getElementById('board').dataset;
      return d.beam === d.beamTotal && !window.board.animating;
    });
    ds = await dataset(page);
    assert.equal(Number(ds.beam), view.paths.length);
    const names = view.highlights.map((h) => `${view.labels.columns[h.at.x]}${view.labels.rows[h.at.y]}`);
    assert.deepEqual(ds.destroyed.split(' ').sort(), names.sort());
    assert.equal(Number(ds.pieces), view.cells.filter((c) => c.pieces.length).length);

    const probe = await page.evaluate(() => {
      const b = window.board;
      const out = [];
      for (const [x, y] of [[0, 0], [9, 7], [4, 3]]) {
        const p = b.cellCenter(x, y);
        out.push({ x, y, hit: b.hitTest(p.x, p.y) });
      }
      return { out, edge: b.step({ x: 9, y: 0 }, 'ArrowRight'), up: b.step({ x: 3, y: 3 }, 'ArrowUp') };
    });
    for (const { x, y, hit } of probe.out) assert.deepEqual(hit, { x, y });
    assert.equal(probe.edge, null, 'the cursor stops at the edge');
    assert.deepEqual(probe.up, { x: 3, y: 2 });
    await shot(page, `bench-khet-test-${name}`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
