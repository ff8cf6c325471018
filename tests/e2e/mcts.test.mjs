// End-to-end: MCTS as an AI level in the page, and its tree in the explorer's visits mode. The AI
// side has no time limit, so MCTS plays its fixed 10,000 playouts (the same tree on any machine).
// Screenshots: target/screenshots/mcts-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, appState, pickGame, shot, settle, watchErrors } from './harness.mjs';

const env = useBrowser();
const WIDE = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };

async function mctsMoves(viewport, name) {
  const { context, page, errors } = await openApp(env, viewport);
  await pickGame(page, 'tictactoe');
  await page.selectOption('[data-testid=side-0-level]', 'human');
  await page.selectOption('[data-testid=side-1-level]', 'mcts');
  // The level offers the time limit and the quotient; depth means nothing to MCTS.
  assert.equal(await page.isDisabled('[data-testid=side-1-depth]'), true);
  assert.equal(await page.isDisabled('[data-testid=side-1-time]'), false);
  await page.fill('[data-testid=side-1-time]', '0');
  await page.dispatchEvent('[data-testid=side-1-time]', 'change');
  const first = (await appState(page)).legal[0].move;
  const c = await page.evaluate((m) => window.plyscope.cellCenterOf(m), first);
  await page.mouse.click(c.x, c.y);
  await page.waitForFunction(() => window.plyscope.state.history.length >= 2, null, { timeout: 30000 });
  await page.waitForFunction(() => window.plyscope.explorer?.current()?.algorithm === 'mcts', null, { timeout: 20000 });
  const aiMove = (await appState(page)).history[1];
  const doc = await page.evaluate(() => window.plyscope.explorer.current());
  assert.equal(doc.chosen.move, aiMove, "the explorer shows the search of the AI's move");
  // 10,000 playouts, or fewer when the solver proved the root (it then stops).
  const total = doc.root.visits;
  assert.ok(total === 10000 || (doc.root.proven && total < 10000), `the root counts every playout (${total})`);
  const kids = doc.root.children;
  assert.equal(kids.reduce((a, k) => a + k.visits, 0), total, "the root moves' visits add up");
  const top = kids.reduce((a, k) => (k.visits > a.visits ? k : a));
  assert.equal(top.move, aiMove, 'the most visited move is played');
  assert.match(doc.chosen.reason, new RegExp(`^(most visits|proven (win|draw)): ${top.visits} of ${total}$`));
  assert.ok(kids.every((k) => k.prior > 0 && k.prior < 1 && typeof k.uct === 'number'), 'priors and selection scores');
  // The caption gives the reason in words.
  const caption = await page.locator('[data-testid=tree-caption]').innerText();
  assert.match(caption, /mcts/);
  assert.match(caption, new RegExp(`: ${top.visits} of ${total}`));
  // Visits mode is on for this tree: siblings by visits.
  const v = await page.evaluate(() => window.plyscope.explorer.visits());
  assert.deepEqual(v, { offered: true, on: true, order: 'visits' });
  const shownOrder = await page.evaluate(() => {
    const x = window.plyscope.explorer;
    const m = x.model();
    return m.root.children.map((c) => ({ move: c.label, visits: c.visits, box: x.nodeBox(c.id) })).filter((c) => c.box).sort((a, b) => a.box.y - b.box.y);
  });
  assert.ok(shownOrder.length >= 2, 'root moves are shown');
  // The explorer's own fit stops at a zoom where the labels' 10-12 px text reads at 9 px or more
  // (at the Fit command's least, 0.6, the visits lines read at 6 px).
  const zoom = await page.evaluate(() => window.plyscope.explorer.stats().zoom);
  assert.ok(zoom >= 0.88, `${name} zoom ${zoom}`);
  for (let i = 1; i < shownOrder.length; i++) assert.ok(shownOrder[i - 1].visits >= shownOrder[i].visits, `top to bottom by visits: ${JSON.stringify(shownOrder.map((s) => s.visits))}`);
  // The tooltip of the played move gives its visits, prior and PUCT score.
  await page.locator('[data-testid=tree-panel]').scrollIntoViewIfNeeded();
  const box = await page.evaluate((mv) => {
    const x = window.plyscope.explorer;
    const kid = x.model().root.children.find((c) => c.label === mv);
    return x.nodeBox(kid.id);
  }, aiMove);
  await page.mouse.move(box.x, box.y);
  await page.waitForFunction(() => /visits/.test(document.querySelector('[data-testid=tree-tooltip]')?.innerText ?? ''));
  const tip = await page.locator('[data-testid=tree-tooltip]').innerText();
  assert.match(tip, new RegExp(`visits\\s+${top.visits.toLocaleString('en')}`));
  assert.match(tip, /prior/);
  assert.match(tip, /PUCT score/);
  await settle(page);
  await shot(page, `mcts-${name}`);
  // Unticking visits mode goes back to best first.
  await page.mouse.move(5, 5);
  await page.locator('[data-testid=visits-mode]').uncheck();
  assert.deepEqual(await page.evaluate(() => window.plyscope.explorer.visits()), { offered: true, on: false, order: 'value' });
  assert.deepEqual(errors, []);
  await context.close();
}

test('MCTS plays a move in the page and the explorer shows its visits (wide)', async () => {
  await mctsMoves(WIDE, 'wide');
});

test('MCTS plays a move in the page and the explorer shows its visits (phone)', async () => {
  await mctsMoves(PHONE, 'phone');
});

test('visits mode is offered for trees with visits only', async () => {
  const page = await env.browser.newPage({ viewport: WIDE });
  const errors = watchErrors(page);
  await page.goto(`${env.server.url}tree/`);
  await page.waitForFunction(() => window.explorer && window.explorer.model());
  const v = await page.evaluate(() => window.explorer.visits());
  assert.equal(v.offered, false);
  assert.equal(v.on, false);
  // A pasted MCTS dump (N, Q, P) has visits: the mode is offered and on.
  await page.goto(`${env.server.url}tree/?example=mcts`);
  await page.waitForFunction(() => window.explorer && window.explorer.model()?.root?.visits === 1600);
  assert.deepEqual(await page.evaluate(() => window.explorer.visits()), { offered: true, on: true, order: 'visits' });
  await settle(page);
  await shot(page, 'mcts-dump-visits');
  assert.deepEqual(errors, []);
  await page.close();
});

/** Clicks tic-tac-toe cells (by name) in turn, both sides people. */
async function playCells(page, cells) {
  for (const m of cells) {
    const n = (await appState(page)).history.length;
    const c = await page.evaluate((mv) => window.plyscope.cellCenterOf(mv), m);
    await page.mouse.click(c.x, c.y);
    await page.waitForFunction((k) => window.plyscope.state.history.length === k, n + 1);
  }
}

async function solverProves(viewport, name) {
  const { context, page, errors } = await openApp(env, viewport);
  await pickGame(page, 'tictactoe');
  await page.selectOption('[data-testid=side-0-level]', 'human');
  await page.selectOption('[data-testid=side-1-level]', 'human');
  // X a1, O b1, X b2, O c3: X wins by force (a3 or a2 makes two threats), not in one move.
  await playCells(page, ['a1', 'b1', 'b2', 'c3']);
  await page.selectOption('[data-testid=side-0-level]', 'mcts');
  assert.equal(await page.isChecked('[data-testid=side-0-solver]'), true, 'the solver is on by default');
  await page.waitForFunction(() => window.plyscope.state.history.length === 5, null, { timeout: 30000 });
  await page.waitForFunction(() => window.plyscope.explorer?.current()?.algorithm === 'mcts', null, { timeout: 20000 });
  const doc = await page.evaluate(() => window.plyscope.explorer.current());
  const played = (await appState(page)).history[4];
  assert.ok(['a3', 'a2'].includes(played), `a winning move is played (${played})`);
  assert.equal(doc.chosen.move, played);
  assert.equal(doc.root.proven, true, 'the root is proven');
  assert.equal(doc.root.value, 1);
  assert.ok(doc.root.visits < 10000, `the search ended once proven (${doc.root.visits} playouts)`);
  assert.match(doc.chosen.reason, /^proven win: /);
  // The legend says what the tags mean; the played move's tooltip says "proven win".
  const legend = await page.locator('[data-testid=legend-proven]').innerText();
  // The legend names the tree's perspective as the document records it ("x").
  assert.match(legend, /proven win, loss or draw for x \(MCTS solver\)/i);
  await page.locator('[data-testid=tree-panel]').scrollIntoViewIfNeeded();
  const box = await page.evaluate((mv) => {
    const x = window.plyscope.explorer;
    const kid = x.model().root.children.find((c) => c.label === mv);
    return x.nodeBox(kid.id);
  }, played);
  await page.mouse.move(box.x, box.y);
  await page.waitForFunction(() => /proven win/.test(document.querySelector('[data-testid=tree-tooltip]')?.innerText ?? ''));
  await settle(page);
  await shot(page, `mcts-solver-${name}`);
  assert.deepEqual(errors, []);
  await context.close();
}

test('the MCTS solver proves a forced win in the page, plays it and the explorer says "proven win" (wide)', async () => {
  await solverProves(WIDE, 'wide');
});

test('the MCTS solver proves a forced win in the page (phone)', async () => {
  await solverProves(PHONE, 'phone');
});
