// Screenshots of every game's board, for comparing the look before and after a change to the
// board code: `node scripts/board-shots.mjs <label>` writes target/screenshots/boards-<label>/.
// For each game: the board after a few moves at 1280x800 and 390x844, with a piece selected where
// a move starts from a piece, and a board preview in the standalone explorer's tooltip.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, launch, SHOTS, DESKTOP, PHONE, settle } from '../tests/e2e/harness.mjs';

const label = process.argv[2] || 'now';
const dir = join(SHOTS, `boards-${label}`);
mkdirSync(dir, { recursive: true });

// Game id, moves to play from the start (by clicking), and a cell to select afterwards (or null).
const GAMES = [
  { id: 'tictactoe', moves: 3, preview: ['b2', 'a1'] },
  { id: 'reversi', moves: 4, preview: ['d3', 'c3'] },
  { id: 'reversi-12', moves: 2, preview: null },
  { id: 'ataxx', moves: 3, select: true, preview: ['b6', 'b2'] },
  { id: 'ataxx-8124', moves: 2, select: true, preview: null },
  { id: 'threes-1', moves: 3, preview: null },
  { id: 'connect4', moves: 5, preview: ['4', '4'] },
];

const server = await startServer();
const browser = await launch();
try {
  for (const g of GAMES) {
    for (const [vpName, vp] of [['desktop', DESKTOP], ['phone', PHONE]]) {
      const context = await browser.newContext({ viewport: vp, deviceScaleFactor: vp === PHONE ? 2 : 1 });
      const page = await context.newPage();
      await page.goto(server.url);
      await page.waitForFunction(() => window.plyscope && window.plyscope.state, null, { timeout: 20000 });
      const offered = await page.evaluate((id) => [...document.querySelectorAll('[data-testid=game-select] option')].some((o) => o.value === id), g.id);
      if (!offered) {
        console.log(`${g.id}: not offered by this page`);
        await context.close();
        break;
      }
      await page.selectOption('[data-testid=game-select]', g.id);
      await page.waitForFunction((id) => window.plyscope.state.game === id && window.plyscope.state.history.length === 0, g.id);
      for (const side of [0, 1]) {
        if (await page.$(`[data-testid=side-${side}-level]`)) await page.selectOption(`[data-testid=side-${side}-level]`, 'human').catch(() => {});
      }
      for (let i = 0; i < g.moves; i++) {
        const st = await page.evaluate(() => window.plyscope.state);
        if (st.outcome) break;
        if (st.to_move === 'chance') {
          await page.waitForFunction((n) => window.plyscope.state.history.length > n, st.history.length, { timeout: 10000 });
          continue;
        }
        const legal = st.legal.map((m) => m.move);
        const pick = legal[(i * 5) % legal.length];
        const c = await page.evaluate((m) => window.plyscope.cellCenterOf(m), pick);
        if (c) {
          await page.mouse.click(c.x, c.y);
          // A move that starts from a piece may need a second click (Ataxx's jump).
          await page.waitForTimeout(50);
        } else if (await page.$(`[data-testid=move-buttons] button[data-move="${pick}"]`)) {
          await page.click(`[data-testid=move-buttons] button[data-move="${pick}"]`);
        } else {
          await page.keyboard.press({ up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' }[pick] || 'Escape');
        }
        await page.waitForFunction((n) => window.plyscope.state.history.length > n, st.history.length, { timeout: 10000 }).catch(() => {});
        await page.waitForTimeout(400);
      }
      if (g.select) {
        // Select a piece of the player to move, so that its targets show.
        const st = await page.evaluate(() => window.plyscope.state);
        const jump = st.legal.map((m) => m.move).find((m) => m.length === 4 && m !== '0000');
        if (jump) {
          const c = await page.evaluate((m) => window.plyscope.cellCenterOf(m.slice(0, 2)), jump);
          if (c) await page.mouse.click(c.x, c.y);
        }
      }
      await page.waitForTimeout(500);
      const board = await page.$('[data-testid=board-area]') || await page.$('main') || null;
      await page.screenshot({ path: join(dir, `${g.id}-${vpName}.png`) });
      if (board && vpName === 'desktop') {
        const canvas = await page.$('#board');
        if (canvas) await canvas.screenshot({ path: join(dir, `${g.id}-board.png`) });
      }
      await context.close();
    }
    if (g.preview) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
      await page.goto(`${server.url}tree/`);
      await page.waitForFunction(() => window.explorer && window.explorer.model());
      const [a, b] = g.preview;
      const doc = {
        format: 'plyscope-tree',
        version: 1,
        game: g.id,
        engine: 'screenshots',
        algorithm: 'minimax',
        root: { id: 'r', kind: 'max', value: 0, children: [{ id: 'c', move: a, kind: 'min', value: 0, best: true, children: [{ id: 'cc', move: b, kind: 'leaf', value: 0, best: true }] }] },
      };
      await page.locator('[data-testid=tree-json]').fill(JSON.stringify(doc));
      await page.locator('[data-testid=load-tree]').click();
      await page.waitForFunction(() => window.explorer.current()?.engine === 'screenshots');
      await page.evaluate(() => window.explorer.whenLaidOut());
      await settle(page);
      const box = await page.evaluate(() => window.explorer.nodeBox('cc'));
      if (box) {
        await page.mouse.move(box.x + 4, box.y + 2);
        await page.waitForFunction(() => document.querySelector('canvas.tree-preview')?.dataset.state === 'drawn', null, { timeout: 15000 }).catch(() => {});
        await page.waitForTimeout(200);
        const tip = await page.$('[data-testid=tree-tooltip]');
        if (tip) await tip.screenshot({ path: join(dir, `${g.id}-preview.png`) });
      }
      await page.close();
    }
    console.log(`${g.id}: done`);
  }
} finally {
  await browser.close();
  server.stop();
}
console.log(`screenshots in ${dir}`);
