#!/usr/bin/env node
// Screenshots of the Hive and Khet boards drawn by the renderers alone (the bench page
// tests/e2e/fixtures/boards.html, without the app), at 1400x900 and 390x844, into
// target/screenshots/bench-*.png. Needs pkg/ (./build.sh build). Hand-run: node scripts/bench-shots.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, launch, shot, ROOT } from '../tests/e2e/harness.mjs';

const BENCH = readFileSync(join(ROOT, 'tests', 'e2e', 'fixtures', 'boards.html'), 'utf8');

const server = await startServer();
const browser = await launch();
try {
  for (const [label, viewport] of [
    ['desktop', { width: 1400, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ]) {
    const page = await browser.newPage({ viewport, deviceScaleFactor: label === 'phone' ? 3 : 1 });
    page.on('pageerror', (e) => console.error('pageerror', e.message));
    page.on('console', (m) => m.type() === 'error' && console.error('console', m.text()));
    await page.route('**/__boards.html', (r) => r.fulfill({ body: BENCH, contentType: 'text/html' }));
    await page.goto(`${server.url}__boards.html`);
    await page.waitForFunction(() => window.benchReady);
    // Hive after a dozen seeded moves.
    await page.evaluate(() => window.bench.open('hive-MLP'));
    await page.evaluate(() => window.bench.random(14, 7, null, [
      'm.to && v.cells.some((c) => c.at.x === m.to.x && c.at.y === m.to.y)',
      "m.hand && v.hands[m.hand.player][m.hand.index].piece.kind === 'beetle'",
      "m.from && v.cells.some((c) => c.at.x === m.from.x && c.at.y === m.from.y && c.pieces[c.pieces.length - 1].kind === 'beetle')",
    ]));
    // A piece in hand selected, its placements outlined, and the pointer over the stack.
    await page.evaluate(() => {
      const v = window.bench.view();
      const slot = v.moves.find((m) => m.hand).hand;
      const hints = v.moves.filter((m) => m.hand && m.hand.index === slot.index).map((m) => ({ x: m.to.x, y: m.to.y, kind: null, move: m.text }));
      window.bench.decor({ hints, selectedHand: slot });
    });
    const stack = await page.evaluate(() => {
      const c = window.bench.view().cells.find((c) => c.pieces.length > 1);
      return c ? window.board.cellCenter(c.at.x, c.at.y) : null;
    });
    if (stack) await page.mouse.move(stack.x, stack.y);
    await page.waitForTimeout(400);
    console.log(label, 'hive', await page.evaluate(() => JSON.stringify(document.getElementById('board').dataset)));
    await shot(page, `bench-hive-${label}`);
    // Khet at the start, then after a shot that destroyed a piece.
    await page.evaluate(() => window.bench.open('khet-classic-horus'));
    await page.waitForTimeout(200);
    await shot(page, `bench-khet-start-${label}`);
    await page.evaluate(() => window.bench.random(60, 3, 'v.highlights.length > 0'));
    await page.waitForTimeout(400);
    console.log(label, 'khet', await page.evaluate(() => JSON.stringify(document.getElementById('board').dataset)));
    await shot(page, `bench-khet-shot-${label}`);
    await page.close();
  }
} finally {
  await browser.close();
  server.stop();
}
