// Screenshots of every game's board, for comparing the look before and after a change to the
// board code: `node scripts/board-shots.mjs <label>` writes target/screenshots/boards-<label>/.
// For each game: the board after a few moves at 1400x900 and 390x844, with a piece selected where
// a move starts from a piece, and a board preview in the standalone explorer's tooltip.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, launch, SHOTS, PHONE, settle } from '../tests/e2e/harness.mjs';

const DESKTOP = { width: 1400, height: 900 };

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
  { id: 'threes', moves: 3, preview: null },
  { id: 'connect4', moves: 5, preview: ['4', '4'] },
  { id: 'hive', moves: 8, select: true, preview: null },
  { id: 'hive-MLP', moves: 12, select: true, preview: null },
  { id: 'khet', moves: 2, select: true, preview: null },
];

// `ONLY=id,id node scripts/board-shots.mjs label` shoots only those games.
const only = process.env.ONLY ? process.env.ONLY.split(',') : null;

const server = await startServer();
const browser = await launch();
try {
  for (const g of GAMES.filter((x) => !only || only.includes(x.id))) {
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
      // A new game (a chance game may have dealt already).
      await page.waitForFunction((id) => window.plyscope.state.game === id && !window.plyscope.thinking, g.id);
      await page.waitForTimeout(300);
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
        // The board view names where a move starts. A placement from hand or a move from a cell
        // (Hive's, Ataxx's jump, Khet's step): click the hand piece or the source, then the target
        // (a click on the target alone is ambiguous when several pieces reach it). A rotation
        // (Khet's): select the piece, then press the rotation's button.
        const plan = await page.evaluate((m) => {
          const p = window.plyscope;
          const vm = p.view && Array.isArray(p.view.moves) ? p.view.moves.find((x) => x.text === m) : null;
          if (!vm || !p.board) return null;
          if (vm.kind === 'rotate') return vm.from ? { turn: p.board.cellCenter(vm.from.x, vm.from.y) } : null;
          if (!vm.to) return null;
          const fromCell = vm.from && (vm.from.x !== vm.to.x || vm.from.y !== vm.to.y);
          const start = vm.hand && p.board.handCenter ? p.board.handCenter(vm.hand.player, vm.hand.index) : fromCell ? p.board.cellCenter(vm.from.x, vm.from.y) : null;
          return start ? { start, to: vm.to } : null;
        }, pick);
        const turn = plan && plan.turn;
        const two = plan && plan.start ? plan : null;
        const c = plan ? null : await page.evaluate((m) => window.plyscope.cellCenterOf(m), pick);
        if (turn) {
          await page.mouse.click(turn.x, turn.y);
          await page.waitForTimeout(50);
          await page.evaluate((m) => [...document.querySelectorAll('#rotate-controls button')].find((x) => x.dataset.move === m)?.click(), pick);
        } else if (two) {
          await page.mouse.click(two.start.x, two.start.y);
          await page.waitForTimeout(50);
          const t = await page.evaluate(([x, y]) => window.plyscope.board.cellCenter(x, y), [two.to.x, two.to.y]);
          await page.mouse.click(t.x, t.y);
        } else if (c) {
          await page.mouse.click(c.x, c.y);
          await page.waitForTimeout(50);
        } else if (
          await page.evaluate((m) => {
            // Move texts may hold quotes and backslashes (Hive's): found by value, not by selector.
            const b = [...document.querySelectorAll('[data-testid=move-buttons] button')].find((x) => x.dataset.move === m);
            b?.click();
            return !!b;
          }, pick)
        ) {
          // clicked
        } else {
          await page.keyboard.press({ up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' }[pick] || 'Escape');
        }
        await page.waitForFunction((n) => window.plyscope.state.history.length > n, st.history.length, { timeout: 10000 }).catch(() => {});
        await page.waitForTimeout(400);
      }
      const played = await page.evaluate(() => window.plyscope.state.history.length);
      if (played < g.moves) console.log(`${g.id} ${vpName}: only ${played} of ${g.moves} moves played`);
      if (g.select) {
        // Select a piece of the player to move, so that its targets show.
        const st = await page.evaluate(() => window.plyscope.state);
        // A move that starts from a piece: from the board view where the page has one, else
        // (older pages) an Ataxx jump's text, whose first two letters name its origin.
        const c = await page.evaluate(() => {
          const p = window.plyscope;
          const moves = p.view && Array.isArray(p.view.moves) ? p.view.moves : null;
          if (moves) {
            const m = moves.find((x) => x.kind === 'jump') || moves.find((x) => x.from);
            if (m && p.board && p.board.cellCenter) return p.board.cellCenter(m.from.x, m.from.y);
            // No move from a cell (Hive before the queen is down): a piece in hand instead.
            const h = moves.find((x) => x.hand);
            return h && p.board && p.board.handCenter ? p.board.handCenter(h.hand.player, h.hand.index) : null;
          }
          const jump = p.state.legal.map((m) => m.move).find((m) => m.length === 4 && m !== '0000');
          return jump ? p.cellCenterOf(jump.slice(0, 2)) : null;
        });
        if (c) await page.mouse.click(c.x, c.y);
      }
      await page.waitForTimeout(500);
      const board = await page.$('[data-testid=board-area]') || await page.$('main') || null;
      await page.screenshot({ path: join(dir, `${g.id}-${vpName}.png`) });
      if (board && vpName === 'desktop') {
        const canvas = await page.$('#board');
        if (canvas && (await canvas.isVisible())) await canvas.screenshot({ path: join(dir, `${g.id}-board.png`) });
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
