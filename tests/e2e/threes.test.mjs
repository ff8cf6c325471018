// End-to-end tests of Threes in the page: the AI plays 50 swipes (expectimax at depth 1, nature
// dealing in between), swipes by keyboard and by mouse drag move the cards, and the hint shows the
// AI's choice with the values of every swipe and a tree whose chance nodes carry probabilities.
// Screenshots go to target/screenshots/threes-*.png. Skipped (with a note) while the engine has no
// Threes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp as openAppPage, appState, pickGame, DESKTOP, PHONE, shot, watchErrors } from './harness.mjs';

const env = useBrowser();
const SWIPES = ['up', 'down', 'left', 'right'];

/** A fresh page on the deal from seed 1. */
async function openThrees(t, viewport = DESKTOP) {
  const opened = await openAppPage(env, viewport);
  const { page } = opened;
  await page.selectOption('[data-testid=game-select]', 'threes-1');
  await page.waitForFunction(() => /^threes/.test(window.plyscope.state.game) && window.plyscope.state.history.length === 0);
  return opened;
}

const state = appState;
const cells = (page) => page.evaluate(() => window.plyscope.view.cells);

test('the AI plays 50 swipes, nature dealing in between', async (t) => {
  const o = await openThrees(t);
  const { context, page, errors } = o;
  await page.selectOption('[data-testid=ai-speed]', 'fast');
  await page.evaluate(() => (window.plyscope.settings.sides[0].depth = 1));
  assert.equal(await page.isVisible('[data-testid=ai-plays]'), true, 'one-player games offer "AI plays"');
  await page.click('[data-testid=ai-plays]');
  await page.waitForFunction(
    () => {
      const s = window.plyscope.state;
      return s.outcome || s.history.filter((m) => ['up', 'down', 'left', 'right'].includes(m)).length >= 50;
    },
    null,
    { timeout: 120000 },
  );
  // Stop the AI. Its moves keep the page's layout moving, so a pointer click can wait in vain for
  // the button to hold still (a fresh run timed out so); the button's own click does what a
  // user's press does.
  if (!(await state(page)).outcome) await page.evaluate(() => document.querySelector('[data-testid=ai-plays]').click());
  await page.waitForFunction(() => !window.plyscope.thinking && window.plyscope.state.to_move !== 'chance');
  const s = await state(page);
  console.log(`AI game: ${s.history.length} moves, outcome ${s.outcome}`);
  const swipes = s.history.filter((m) => SWIPES.includes(m));
  assert.ok(swipes.length >= 50 || s.outcome, `the AI swiped ${swipes.length} times`);
  // Every swipe was followed by a deal ("<card> at <cell>, next <hint>").
  for (let i = 0; i < s.history.length; i += 2) {
    assert.ok(SWIPES.includes(s.history[i]), `move ${i + 1} is a swipe: ${s.history[i]}`);
    if (i + 1 < s.history.length) assert.match(s.history[i + 1], /^\d+ at [a-d][1-4], next (1|2|3|bonus)$/);
  }
  const score = await page.textContent('[data-testid=score-0]');
  assert.match(score, /^Score [\d,]+$/);
  assert.ok(Number(score.replace(/\D/g, '')) > 0, 'the score grew');
  assert.match(await page.textContent('#tree-caption'), /expectimax/);
  await shot(page, 'threes-ai-50');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the board and the buttons hold still while the AI plays, on a desk and on a phone', async (t) => {
  for (const viewport of [DESKTOP, PHONE]) {
    const o = await openThrees(t, viewport);
    const { context, page, errors } = o;
    // Each search lasts its time limit (expectimax to depth 64 cannot finish a Threes game), so
    // the progress text is shown and changes while the AI plays, whatever the machine's speed.
    await page.evaluate(() => (window.plyscope.settings.sides[0].time = 400));
    // Every frame, note where the board and the buttons are, and what the progress text says.
    await page.evaluate(() => {
      const ids = ['board', 'undo', 'pause', 'ai-plays', 'move-buttons'];
      window.__places = new Set();
      window.__texts = new Set();
      const look = () => {
        const at = ids.map((id) => {
          const b = document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
          return `${id} ${Math.round(b.x)},${Math.round(b.y)} ${Math.round(b.width)}x${Math.round(b.height)}`;
        });
        window.__places.add(at.join('; '));
        window.__texts.add(document.querySelector('[data-testid=progress-text]').textContent);
        window.__looking = requestAnimationFrame(look);
      };
      look();
    });
    await page.click('[data-testid=ai-plays]');
    await page.waitForFunction(() => window.plyscope.state.history.length >= 12 || window.plyscope.state.outcome, null, { timeout: 120000 });
    await page.evaluate(() => document.querySelector('[data-testid=ai-plays]').click());
    await page.waitForFunction(() => !window.plyscope.thinking);
    const { places, texts } = await page.evaluate(() => {
      cancelAnimationFrame(window.__looking);
      return { places: [...window.__places], texts: [...window.__texts] };
    });
    assert.ok(texts.some((x) => /^Thinking: .*nodes\/s/.test(x)), `progress was shown: ${texts.slice(0, 5).join(' | ')}`);
    assert.ok(texts.some((x) => /Best so far \S+/.test(x)), 'the best move so far was shown');
    assert.ok(texts.length >= 5, `the progress text changed: ${texts.length} texts`);
    assert.equal(places.length, 1, `${viewport.width} px: the layout moved while the AI played:\n${places.join('\n')}`);
    // Idle, the first progress line says what the AI last played.
    assert.match(await page.textContent('[data-testid=progress-text]'), /^AI played (up|down|left|right): .*nodes, [\d.]+ s$/);
    await shot(page, `threes-steady-${viewport.width}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a swipe by keyboard and by mouse drag moves the cards', async (t) => {
  const o = await openThrees(t);
  const { context, page, errors } = o;
  const next = await page.textContent('[data-testid=next-card]');
  assert.match(next, /^Next(1|2|3|\+)$/);
  await shot(page, 'threes-start');

  // Keyboard: the first legal swipe.
  let s = await state(page);
  const before = await cells(page);
  const key = s.legal.map((m) => m.move).find((m) => SWIPES.includes(m));
  await page.focus('[data-testid=board]');
  await page.keyboard.press({ up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' }[key]);
  await page.waitForFunction(() => window.plyscope.state.history.length === 2 && window.plyscope.state.to_move !== 'chance');
  s = await state(page);
  assert.equal(s.history[0], key);
  assert.notDeepEqual(await cells(page), before, 'the cards moved');
  await page.waitForTimeout(400);

  // Mouse drag across the board in a legal direction.
  const dir = s.legal.map((m) => m.move).find((m) => SWIPES.includes(m) && m !== key) || s.legal[0].move;
  const mid = await page.evaluate(() => window.plyscope.board.cellCenter(1.5, 1.5));
  const d = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[dir];
  const afterKey = await cells(page);
  await page.mouse.move(mid.x - d[0] * 60, mid.y - d[1] * 60);
  await page.mouse.down();
  await page.mouse.move(mid.x, mid.y, { steps: 4 });
  await page.mouse.move(mid.x + d[0] * 80, mid.y + d[1] * 80, { steps: 4 });
  await page.mouse.up();
  // Caught mid-slide (the deal follows 200 ms after the swipe).
  await page.waitForTimeout(60);
  await shot(page, 'threes-sliding');
  await page.waitForFunction(() => window.plyscope.state.history.length === 4 && window.plyscope.state.to_move !== 'chance');
  s = await state(page);
  assert.equal(s.history[2], dir, 'the drag played its direction');
  assert.notDeepEqual(await cells(page), afterKey, 'the cards moved again');
  assert.equal(await page.textContent('[data-testid=message]'), '', 'a drag is not taken for a click');

  // Undo takes back the deal and the swipe together.
  await page.click('[data-testid=undo]');
  await page.waitForFunction(() => window.plyscope.state.history.length === 2);
  assert.deepEqual(await cells(page), afterKey);
  await page.waitForTimeout(400);
  await shot(page, 'threes-after-drag');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a finger swipe on a touch screen moves the cards', async (t) => {
  const o = await openThrees(t, PHONE);
  const { context, page, errors } = o;
  const s = await state(page);
  const dir = s.legal.map((m) => m.move).find((m) => SWIPES.includes(m));
  const before = await cells(page);
  await page.locator('[data-testid=board]').scrollIntoViewIfNeeded();
  const mid = await page.evaluate(() => window.plyscope.board.cellCenter(1.5, 1.5));
  const d = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[dir];
  const cdp = await context.newCDPSession(page);
  const touch = (type, k) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x: mid.x + d[0] * 40 * k, y: mid.y + d[1] * 40 * k }],
    });
  await touch('touchStart', -1);
  for (const k of [-0.5, 0, 0.5, 1, 1.5]) await touch('touchMove', k);
  await touch('touchEnd', 1.5);
  await page.waitForFunction(() => window.plyscope.state.history.length === 2 && window.plyscope.state.to_move !== 'chance');
  assert.equal((await state(page)).history[0], dir, 'the finger swipe played its direction');
  assert.notDeepEqual(await cells(page), before);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the hint shows a swipe, the values of all four, and a tree with chance probabilities', async (t) => {
  const o = await openThrees(t);
  const { context, page, errors } = o;
  await page.click('[data-testid=suggest]');
  await page.waitForSelector('[data-testid=hint-panel]:not([hidden])', { timeout: 60000 });
  const s = await state(page);
  const legal = s.legal.map((m) => m.move);
  const best = await page.getAttribute('[data-testid=hint-moves] li.best', 'data-move');
  assert.ok(legal.includes(best), `the hint ${best} is a legal swipe`);
  const listed = await page.$$eval('[data-testid=hint-moves] li', (ls) => ls.map((l) => l.dataset.move));
  assert.deepEqual([...listed].sort(), [...legal].sort(), 'every root move is listed with its value');
  assert.match(await page.textContent('[data-testid=message]'), new RegExp(`Hint: ${best}`));
  assert.match(await page.textContent('[data-testid=hint-why]'), /Expectimax/);
  // The tree behind the hint: chance nodes whose outcomes carry probabilities summing to 1.
  // (The tree crosses from the worker in binary form: its nodes are the explorer's model.)
  await page.waitForFunction(() => window.plyscope.explorer?.model()?.root?.children?.length > 0);
  const chance = await page.evaluate(() => {
    const doc = window.plyscope.explorer.model();
    const out = [];
    const walk = (n) => {
      if (!n) return;
      if (n.kind === 'chance' && n.children?.length) out.push(n.children.reduce((a, c) => a + (c.prob ?? 0), 0));
      for (const c of n.children || []) walk(c);
    };
    walk(doc.root);
    return out;
  });
  assert.ok(chance.length > 0, 'the tree has chance nodes');
  for (const sum of chance.slice(0, 20)) assert.ok(Math.abs(sum - 1) < 1e-6, `probabilities sum to ${sum}`);
  await page.locator('#tree-panel').scrollIntoViewIfNeeded();
  await shot(page, 'threes-hint-tree');
  await page.locator('[data-testid=hint-panel]').scrollIntoViewIfNeeded();
  await shot(page, 'threes-hint');
  // The arrow key of the hint plays it.
  await page.focus('[data-testid=board]');
  await page.keyboard.press({ up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' }[best]);
  await page.waitForFunction(() => window.plyscope.state.history.length >= 1);
  assert.equal((await state(page)).history[0], best);
  assert.equal(await page.isHidden('[data-testid=hint-panel]'), true, 'the hint goes with the position');
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone size: cards, next card and controls fit', async (t) => {
  const o = await openThrees(t, PHONE);
  const { context, page, errors } = o;
  await shot(page, 'threes-phone');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px)`);
  assert.deepEqual(errors, []);
  await context.close();
});
