// End-to-end tests of values on the game page: after an AI move in every game, no raw search value
// (999997, 16739, 504884) shows anywhere (status, summary, hint, move list, tree caption, the
// explorer's boxes and tooltips), every value names whose view it takes, and a decided Reversi
// endgame reads as a disc margin, solved exactly. Screenshots: target/screenshots/values-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp as openAppPage, pickGame, PHONE, shot, settle, setLevel, setKnob, setPosition, fixDepth, clickMove } from './harness.mjs';

const env = useBrowser();
const WIDE = { width: 1400, height: 900 };

/** A number of five digits or more, with or without thousands separators: a raw search value. */
const RAW = /\b\d{5,}\b|\b\d{1,3}(,\d{3}){1,}\b(?! (nodes|positions|bytes|MB))/;

/** Everything the page shows as text about values, the explorer's boxes included. */
async function shownTexts(page) {
  return page.evaluate(() => {
    const ids = ['status', 'ai-summary', 'message', 'tree-caption', 'hint-panel', 'eval-caption'];
    const parts = ids.map((id) => document.querySelector(`[data-testid=${id}]`)?.innerText ?? '');
    const boxes = window.plyscope.explorer?.boxTexts?.() ?? [];
    return { page: parts.join('\n'), boxes: boxes.map((b) => b.join(' ')) };
  });
}

async function assertNoRaw(page, what) {
  const t = await shownTexts(page);
  // Counts of nodes and positions are counts, not values: they are written as "12k nodes".
  // Game scores are points a player reads ("expected score 1,254 in 3 swipes, 1,230 now"), not values.
  const lines = t.page.split('\n').filter((l) => RAW.test(l.replace(/\d[\d,.]*k? (nodes|positions)/g, '').replace(/score [\d,]+|[\d,]+ now/g, '')));
  assert.deepEqual(lines, [], `${what}: raw values on the page`);
  const boxes = t.boxes.filter((b) => /\d{5,}|\d{3}k\b|\dM\b/.test(b));
  assert.deepEqual(boxes, [], `${what}: raw values in the tree's boxes`);
}

const GAMES = [{ id: 'tictactoe' }, { id: 'reversi' }, { id: 'ataxx' }, { id: 'hive' }, { id: 'khet' }, { id: 'connect4' }, { id: 'threes' }];

test('after AI moves in every game no raw search value shows, and values say whose view they take', async () => {
  const { context, page, errors } = await openAppPage(env, WIDE);
  for (const g of GAMES) {
    await pickGame(page, g.id);
    const solo = (await page.evaluate(() => window.plyscope.state.players.length)) === 1;
    // The first player is the AI with the game's default settings (it moves at once); the
    // second, a human, then asks for a hint.
    if (!solo) await setLevel(page, 1, 'human');
    await setLevel(page, 0, 'alphabeta');
    await page.waitForFunction(() => /^AI played/.test(document.querySelector('[data-testid=ai-summary]').textContent), null, { timeout: 60000 });
    if (solo) await page.click('[data-testid=pause]');
    await page.waitForFunction(() => !window.plyscope.thinking, null, { timeout: 60000 });
    await page.evaluate(() => window.plyscope.explorer?.whenLaidOut?.());
    await settle(page);
    const summary = await page.textContent('[data-testid=ai-summary]');
    assert.match(summary, /^AI played .+: .+ for \S+.*, /, `${g.id}: ${summary}`);
    // Threes's value is its expected score a few swipes on (its evaluator's board quality after).
    if (g.id === 'threes') assert.match(summary, /^AI played \w+: expected score \d[\d,]* in 3 swipes, \d[\d,]* now; board quality [\d.]+k? for Player, /, summary);
    await assertNoRaw(page, g.id);
    // A hint for the human (two-player games): every root move's value in words.
    if (!solo) {
      await page.click('[data-testid=suggest]');
      await page.waitForSelector('[data-testid=hint-panel]:not([hidden])', { timeout: 60000 });
      await page.waitForFunction(() => !window.plyscope.thinking);
      assert.match(await page.textContent("[data-testid=message]"), /^Hint: .+ \(.+ for \S+\)/);
      await assertNoRaw(page, `${g.id} hint`);
    }
    await shot(page, `values-${g.id}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

// FFO #40 after five moves of its best line: 15 empty squares, Black to move; a7 wins by 38 discs.
const LATE15 = 'OOXXXXXXXOXXXXXXOOXOXOOXOOXXOOXXOOXOOOXX-O-OOOOX--O-O--X-------- X';

for (const viewport of [WIDE, PHONE]) {
  test(`a decided Reversi endgame reads as a disc margin, solved exactly (${viewport.width}x${viewport.height})`, async () => {
    const { context, page, errors } = await openAppPage(env, viewport);
    await pickGame(page, 'reversi');
    await setLevel(page, 0, 'human');
    await setLevel(page, 1, 'human');
    await setPosition(page, LATE15);
    // Black's hint: the solver's exact margins.
    await page.click('[data-testid=suggest]');
    await page.waitForSelector('[data-testid=hint-panel]:not([hidden])', { timeout: 60000 });
    assert.match(await page.textContent('[data-testid=message]'), /^Hint: a7 \(win by 38 discs for Black\)/);
    const vals = await page.$$eval('[data-testid=hint-moves] li .val', (ls) => ls.map((l) => l.textContent));
    assert.equal(vals[0], 'win by 38 discs');
    assert.ok(vals.slice(1).every((v) => /^(at most )?(win|loss) by \d+ discs?$|^(at most )?even$/.test(v)), vals.join(' | '));
    // Black's AI plays it.
    await setLevel(page, 0, 'alphabeta');
    await page.waitForFunction(() => /^AI played/.test(document.querySelector('[data-testid=ai-summary]').textContent), null, { timeout: 60000 });
    await page.waitForFunction(() => !window.plyscope.thinking);
    const summary = await page.textContent('[data-testid=ai-summary]');
    assert.match(summary, /^AI played a7: win by 38 discs for Black, solved exactly \(/);
    assert.match(await page.textContent('[data-testid=tree-caption]'), /Chose a7 \(win by 38 discs\) for Black: solved exactly to the end of the game/);
    await page.evaluate(() => window.plyscope.explorer.whenLaidOut());
    await settle(page);
    const boxes = await page.evaluate(() => window.plyscope.explorer.boxTexts());
    assert.ok(boxes.some(([move, value]) => move === 'a7' && value === 'win +38'), JSON.stringify(boxes));
    await assertNoRaw(page, 'reversi endgame');
    // The root's tooltip names the solver; a box's tooltip gives the margin in discs.
    const a7 = await page.evaluate(() => {
      const m = window.plyscope.explorer.model();
      return m.root.children.find((c) => c.label === 'a7')?.id ?? null;
    });
    const box = await page.evaluate((id) => window.plyscope.explorer.nodeBox(id), a7);
    assert.ok(box, 'a7 is shown');
    await page.locator('[data-testid=tree-view]').scrollIntoViewIfNeeded();
    const seen = await page.evaluate((id) => window.plyscope.explorer.nodeBox(id), a7);
    await page.mouse.move(seen.x + 5, seen.y + 3);
    await page.waitForSelector('[data-testid=tree-tooltip]:not([hidden])', { timeout: 5000 }).catch(() => {});
    const tip = await page.evaluate(() => document.querySelector('[data-testid=tree-tooltip]')?.innerText ?? '');
    if (viewport === WIDE) assert.match(tip, /win by 38 discs/, tip);
    await shot(page, `values-reversi-endgame-${viewport.width}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

for (const viewport of [WIDE, PHONE]) {
  test(`the AI's best moves stay marked on the board after its move, with values for its side, and can be hidden (${viewport.width}x${viewport.height})`, async () => {
    const { context, page, errors } = await openAppPage(env, viewport);
    await pickGame(page, 'reversi');
    await setLevel(page, 0, 'human');
    await setKnob(page, 1, 'depth', 3);
    await setLevel(page, 1, 'alphabeta');
    const c = await page.evaluate(() => window.plyscope.cellCenterOf('d3'));
    await page.mouse.click(c.x, c.y);
    await page.waitForFunction(() => window.plyscope.state.history.length === 2 && !window.plyscope.thinking, null, { timeout: 60000 });
    const played = await page.evaluate(() => window.plyscope.state.history[1]);
    const marks = await page.evaluate(() => window.plyscope.board.decor.candidates);
    assert.ok(marks.length >= 2 && marks.length <= 3, JSON.stringify(marks));
    const best = marks.filter((m) => m.best);
    assert.equal(best.length, 1);
    // The played move's mark sits on the cell White just played (the view's last move).
    const last = await page.evaluate(() => window.plyscope.view.last?.to ?? null);
    assert.ok(last, "the view says which move was last");
    assert.deepEqual({ x: best[0].x, y: best[0].y }, { x: last.x, y: last.y }, `${played}: ${JSON.stringify(last)}`);
    assert.ok(marks.every((m) => /^[+\u2212]?\d+(\.\d)?$|^0$|^(win|loss) [+\u2212]?\d+$/.test(m.text)), JSON.stringify(marks));
    assert.match(await page.textContent('[data-testid=marks-note]'), /White's AI's best moves with their values for White \(gold: played\)/);
    // The played move's badge is gold, which stands out on the green board; the others are dark.
    await page.waitForFunction(() => window.plyscope.board.anims.size === 0);
    for (const m of marks) {
      const gold = await page.evaluate(({ x, y }) => {
        const b = window.plyscope.board;
        const c = b.cellCenter(x, y);
        const right = b.cellCenter(x + 1, y);
        const cell = Math.abs(right.x - c.x);
        const r = b.canvas.getBoundingClientRect();
        const k = b.canvas.width / r.width;
        const ctx = b.canvas.getContext('2d');
        // The badge's row, a little above the cell's bottom edge, across the middle half of the cell.
        const py = Math.round((c.y + cell * 0.38 - r.top) * k);
        let n = 0;
        for (let px = c.x - cell * 0.25; px <= c.x + cell * 0.25; px += 1) {
          const [R, G, B] = ctx.getImageData(Math.round((px - r.left) * k), py, 1, 1).data;
          if (R > 220 && G > 170 && B < 120) n += 1;
        }
        return n;
      }, m);
      if (m.best) assert.ok(gold >= 4, `the played move's badge is gold (${gold} gold pixels)`);
      else assert.equal(gold, 0, `${m.text}: another move's badge is not gold`);
    }
    await shot(page, `values-marks-${viewport.width}`);
    // Hidden by the toggle, and back.
    await page.click('[data-testid=show-marks]');
    assert.deepEqual(await page.evaluate(() => window.plyscope.board.decor.candidates), []);
    assert.equal(await page.isVisible('[data-testid=marks-note]'), false);
    await page.click('[data-testid=show-marks]');
    assert.equal((await page.evaluate(() => window.plyscope.board.decor.candidates)).length, marks.length);
    // The human's next move clears them (the AI answers with its own).
    await setLevel(page, 1, 'human');
    const next = await page.evaluate(() => window.plyscope.state.legal[0].move);
    const d = await page.evaluate((m) => window.plyscope.cellCenterOf(m), next);
    await page.mouse.click(d.x, d.y);
    await page.waitForFunction(() => window.plyscope.state.history.length === 3);
    assert.deepEqual(await page.evaluate(() => window.plyscope.board.decor.candidates), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('with 2 search workers the AI finds the value of 1 worker, and the tree says which worker searched each root move', async () => {
  // The split search over workers without shared memory (`?threads=0`: not the threads build,
  // which searches by Lazy SMP instead: tests/e2e/threads.test.mjs).
  const { context, page, errors } = await openAppPage(env, WIDE, `${env.server.url}?threads=0`);
  await pickGame(page, 'reversi');
  await setLevel(page, 0, 'human');
  await setLevel(page, 1, 'alphabeta');
  await fixDepth(page, 1, 5);
  // Without late-move reductions a depth's value does not depend on what each worker searched
  // before (its killers and history only order moves): the two searches must agree exactly.
  await page.click('[data-testid=side-1-techniques] summary');
  await page.uncheck('[data-testid=side-1-tech-lmr]');
  const aiReply = async (workers) => {
    await page.selectOption('[data-testid=ai-threads]', String(workers));
    await page.click('[data-testid=new-game]');
    await page.waitForFunction(() => window.plyscope.state.history.length === 0 && !window.plyscope.thinking);
    await clickMove(page, 'd3');
    await page.waitForFunction(() => window.plyscope.state.history.length === 2 && !window.plyscope.thinking, null, { timeout: 60000 });
    await page.evaluate(() => window.plyscope.explorer?.whenLaidOut?.());
    return page.evaluate(() => {
      const m = window.plyscope.explorer.model();
      return { value: m.root.value, workers: m.workers ?? null, kids: m.root.children.map((c) => ({ id: c.id, move: c.label })) };
    });
  };
  const one = await aiReply(1);
  assert.equal(one.workers, null, 'one worker: a single search, no worker list');
  const two = await aiReply(2);
  assert.equal(two.value, one.value, 'the same value with 2 workers as with 1');
  assert.equal(two.workers.length, 2);
  assert.ok(two.workers.every((w) => w.nodes > 0), `both workers searched: ${JSON.stringify(two.workers)}`);
  // Every root move is named by exactly one worker.
  const named = two.workers.flatMap((w) => w.moves);
  assert.deepEqual([...named].sort(), two.kids.map((k) => k.move).sort());
  // The tooltip of a root child says which worker searched it.
  await settle(page);
  const kid = two.kids[0];
  await page.locator('[data-testid=tree-view]').scrollIntoViewIfNeeded();
  const box = await page.evaluate((id) => window.plyscope.explorer.nodeBox(id), kid.id);
  assert.ok(box, `${kid.move} is shown`);
  await page.mouse.move(box.x + 5, box.y + 3);
  await page.waitForSelector('[data-testid=tree-tooltip]:not([hidden])', { timeout: 5000 });
  const tip = await page.evaluate(() => document.querySelector('[data-testid=tree-tooltip]').innerText);
  const owner = two.workers.find((w) => w.moves.includes(kid.move));
  assert.match(tip, new RegExp(`searched by\\s+worker ${owner.worker + 1} of 2`), tip);
  // The tooltip's board preview of that move's position is drawn before the picture is taken.
  await page.waitForSelector('[data-testid=tree-tooltip] canvas.tree-preview[data-state=drawn]', { timeout: 10000 });
  await shot(page, 'values-workers-tooltip-1400');
  // The setting is kept with the others.
  assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('plyscope.app.v1')).settings.threads), 2);
  assert.deepEqual(errors, []);
  await context.close();
});
