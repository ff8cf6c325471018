// Hive and Khet in the page, played by clicking their boards (www/board/hex.js and oriented.js):
// Hive places from hand (a click on the hand, then on a hex), moves a beetle onto another piece and
// sees the stack drawn; Khet turns a piece with the rotate control, moves one, and sees the beam of
// every shot and the piece a shot destroyed. The AI answers at a fixed depth with no time limit, so
// nothing depends on the machine's speed. The renderers say what they drew in the canvas's data
// attributes (data-stacks, data-hands, data-beam, data-destroyed...), which the tests read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, appState, pickGame, DESKTOP, PHONE, shot } from './harness.mjs';

const env = useBrowser();
const state = appState;

/** The AI of side `side` searches exactly `depth` plies, with no time limit. */
async function fixDepth(page, side, depth) {
  await page.fill(`[data-testid=side-${side}-depth]`, String(depth));
  await page.dispatchEvent(`[data-testid=side-${side}-depth]`, 'change');
  await page.fill(`[data-testid=side-${side}-time]`, '0');
  await page.dispatchEvent(`[data-testid=side-${side}-time]`, 'change');
}

const dataset = (page) => page.evaluate(() => ({ ...document.querySelector('[data-testid=board]').dataset }));

async function clickCell(page, c) {
  const p = await page.evaluate(([x, y]) => window.plyscope.board.cellCenter(x, y), [c.x, c.y]);
  await page.mouse.click(p.x, p.y);
}

async function clickHand(page, slot) {
  const p = await page.evaluate(([pl, i]) => window.plyscope.board.handCenter(pl, i), [slot.player, slot.index]);
  assert.ok(p, `hand piece ${slot.player}/${slot.index} is drawn`);
  await page.mouse.click(p.x, p.y);
}

/** Waits until it is the human's turn again (the AI answered) or the game is over. */
async function aiAnswered(page, before) {
  await page.waitForFunction(
    (n) => {
      const p = window.plyscope;
      return p.state.outcome || (p.state.history.length >= n + 2 && !p.thinking);
    },
    before,
    { timeout: 60000 },
  );
}

/** Plays view move `m` by clicking: its hand piece or its source, then its target. */
async function playByClicks(page, m) {
  const before = (await state(page)).history.length;
  if (m.hand) await clickHand(page, m.hand);
  else if (m.from) await clickCell(page, m.from);
  await clickCell(page, m.to);
  await page.waitForFunction((n) => window.plyscope.state.history.length > n, before, { timeout: 10000 });
  const s = await state(page);
  assert.equal(s.history[before], m.text, 'the clicks played the chosen move');
  return before;
}

const same = (a, b) => !!a && !!b && a.x === b.x && a.y === b.y;

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
]) {
  test(`Hive (${name}): place from hand by clicks, the AI answers, a beetle climbs and the stack shows`, async () => {
    const { context, page, errors } = await openApp(env, viewport);
    await pickGame(page, 'hive');
    await fixDepth(page, 1, 1);
    assert.equal(await page.isVisible('[data-testid=board]'), true, 'Hive is drawn on the canvas');
    let ds = await dataset(page);
    assert.equal(ds.hands, 'Q1 S2 B2 G3 A3|Q1 S2 B2 G3 A3', 'both hands drawn with their counts');

    // A click on a hand piece selects it and outlines its places; a click on one places it.
    let view = await page.evaluate(() => window.plyscope.view);
    const first = view.moves.find((m) => m.hand && m.hand.index === 1); // a spider (no Queen first)
    await clickHand(page, first.hand);
    await page.waitForFunction(() => (window.plyscope.board.decor.hints || []).length > 0);
    assert.equal(Number((await dataset(page)).hints), view.moves.filter((m) => m.hand && m.hand.index === 1).length);
    let before = (await state(page)).history.length;
    await clickCell(page, first.to);
    await page.waitForFunction((n) => window.plyscope.state.history.length > n, before);
    assert.equal((await state(page)).history[before], first.text);
    await aiAnswered(page, before);
    ds = await dataset(page);
    assert.equal(ds.pieces, '2', 'both placed pieces drawn');
    // The pieces are icons; their UHP names stay readable (the tiles' labels, the hover box).
    assert.match(ds.labels, new RegExp(`(^| )w${first.text.replace(/^w/, '')}( |$)`), 'the placed piece has its name');
    assert.match(ds.labels, /(^| )b[QSBGAMLP]\d?( |$)/, "the AI's piece has its name");

    // Then: the Queen, a beetle, and the beetle climbs onto a neighbour.
    let climbed = false;
    for (let turn = 0; turn < 8 && !climbed; turn++) {
      view = await page.evaluate(() => window.plyscope.view);
      const occupied = (c) => view.cells.some((cell) => same(cell.at, c) && cell.pieces.length);
      const beetleAt = (c) => view.cells.some((cell) => same(cell.at, c) && cell.pieces.at(-1).kind === 'beetle' && cell.pieces.at(-1).owner === 0);
      const handKind = (m) => m.hand && view.hands[m.hand.player][m.hand.index].piece.kind;
      const m =
        view.moves.find((x) => x.from && beetleAt(x.from) && occupied(x.to)) ||
        view.moves.find((x) => handKind(x) === 'queen') ||
        view.moves.find((x) => handKind(x) === 'beetle') ||
        view.moves.find((x) => handKind(x) === 'grasshopper');
      assert.ok(m, 'a move to play');
      climbed = !!m.from && occupied(m.to);
      before = await playByClicks(page, m);
      if (climbed) {
        await page.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.stacks !== '');
        const v = await page.evaluate(() => window.plyscope.view);
        const stack = v.cells.find((c) => same(c.at, m.to));
        // (The AI may have answered already, even with a beetle of its own on top.)
        assert.ok(stack && stack.pieces.length >= 2 && stack.pieces[1].kind === 'beetle' && stack.pieces[1].owner === 0, 'the beetle is on the stack');
        assert.match((await dataset(page)).stacks, new RegExp(`(^| )${m.to.x},${m.to.y}:${stack.pieces.length}( |$)`));
        // After the AI's answer (the board still), pointing at a stack shows what is under it.
        await aiAnswered(page, before);
        await page.waitForFunction(() => !window.plyscope.board.animating);
        const at = await page.evaluate(() => window.plyscope.view.cells.find((c) => c.pieces.length > 1)?.at);
        assert.ok(at, 'a stack is still there');
        await page.evaluate(() => (window.plyscope.board.hover = null));
        const p = await page.evaluate(([x, y]) => window.plyscope.board.cellCenter(x, y), [at.x, at.y]);
        await page.mouse.move(p.x, p.y);
        await page.waitForFunction(() => !!window.plyscope.board.hover);
        await page.waitForTimeout(100);
        await shot(page, `hive-stack-${name}`);
        break;
      }
      await aiAnswered(page, before);
    }
    assert.ok(climbed, 'a beetle climbed within 8 turns');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`Khet (${name}): turn a piece with the control, move one, the beam is drawn and a destroyed piece marked`, async () => {
    const { context, page, errors } = await openApp(env, viewport);
    await pickGame(page, 'khet');
    await fixDepth(page, 1, 1);
    let ds = await dataset(page);
    assert.equal(ds.pieces, '26');
    assert.equal(ds.beamTotal, '0', 'no shot before the first move');
    await shot(page, `khet-start-${name}`);

    // Select a piece that can turn: the turn buttons appear; one turns it.
    let view = await page.evaluate(() => window.plyscope.view);
    const turn = view.moves.find((m) => m.kind === 'rotate' && m.rotation === 90);
    await clickCell(page, turn.from);
    await page.waitForSelector('[data-testid=rotate-cw]:not([hidden])');
    assert.equal(await page.getAttribute('[data-testid=rotate-cw]', 'data-move'), turn.text);
    const before = (await state(page)).history.length;
    await page.click('[data-testid=rotate-cw]');
    await page.waitForFunction((n) => window.plyscope.state.history.length > n, before);
    assert.equal((await state(page)).history[before], turn.text);
    await aiAnswered(page, before);
    // The AI's shot is drawn in full once its animation is over.
    await page.waitForFunction(() => {
      const d = document.querySelector('[data-testid=board]').dataset;
      return Number(d.beamTotal) > 0 && d.beam === d.beamTotal && !window.plyscope.board.animating;
    });
    view = await page.evaluate(() => window.plyscope.view);
    assert.equal(Number((await dataset(page)).beam), view.paths.length, 'every segment of the AI shot is drawn');

    // A move that destroys a red pyramid: silver's i2 pyramid steps to h1 and its laser kills h4.
    const POSITION = 'xs4kaspse2/3psw1as4/3Pnw6/pne1Psw1sne1ssepsePnw1/pse1Pnw1SseSne1pne1Psw/6psw3/3An4Pne1/2Pnw1K4Xw s 1 5 khet';
    await page.click('#position-box summary');
    await page.fill('[data-testid=position-text]', POSITION);
    await page.click('[data-testid=set-position]');
    await page.waitForFunction((p) => window.plyscope.state.position === p, POSITION);
    await page.click('#position-box summary');
    view = await page.evaluate(() => window.plyscope.view);
    const kill = view.moves.find((m) => m.text === 'i2-h1');
    assert.ok(kill, 'i2-h1 is legal there');
    const count = Number((await dataset(page)).pieces);
    // The AI waits (Pause), so that the shot stays on the board to be looked at.
    await page.click('[data-testid=pause]');
    await page.waitForFunction(() => window.plyscope.settings.paused);
    const n = await playByClicks(page, kill);
    await page.waitForFunction(() => document.querySelector('[data-testid=board]').dataset.destroyed === 'h4');
    ds = await dataset(page);
    assert.equal(Number(ds.pieces), count - 1, 'the destroyed piece is gone from the board');
    await page.waitForFunction(() => !window.plyscope.board.animating);
    ds = await dataset(page);
    view = await page.evaluate(() => window.plyscope.view);
    assert.equal(Number(ds.beam), view.paths.length, 'the killing shot is drawn in full');
    await shot(page, `khet-shot-${name}`);
    // Step: the AI answers, and its own shot replaces the last one.
    await page.click('[data-testid=step]');
    await page.waitForFunction((k) => window.plyscope.state.history.length > k + 1 && !window.plyscope.thinking, n);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('Hive by keyboard: I picks a piece in hand, the arrows walk its places, Space places it', async () => {
  const { context, page, errors } = await openApp(env, DESKTOP);
  await pickGame(page, 'hive');
  await fixDepth(page, 1, 1);
  const view = await page.evaluate(() => window.plyscope.view);
  const slots = [];
  for (const m of view.moves) if (m.hand && !slots.some((s) => s.player === m.hand.player && s.index === m.hand.index)) slots.push(m.hand);
  slots.sort((a, b) => a.player - b.player || a.index - b.index);
  assert.ok(slots.length >= 2, 'several pieces can be placed at the start');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  const picked = () => page.evaluate(() => window.plyscope.board.decor.selectedHand);
  await page.keyboard.press('i');
  assert.deepEqual(await picked(), slots[0], 'I picks the first placeable piece');
  await page.keyboard.press('i');
  assert.deepEqual(await picked(), slots[1], 'I again: the next one');
  await page.keyboard.press('Shift+I');
  await page.keyboard.press('Shift+I');
  assert.deepEqual(await picked(), slots.at(-1), 'Shift+I goes back, round to the last');
  const slot = slots.at(-1);
  const places = view.moves.filter((m) => m.hand && m.hand.player === slot.player && m.hand.index === slot.index);
  // The arrows now walk only that piece's places; Space places it on the highlighted one.
  await page.keyboard.press('ArrowRight');
  const cursor = await page.evaluate(() => window.plyscope.board.decor.cursor);
  const target = places.find((m) => m.to.x === cursor.x && m.to.y === cursor.y);
  assert.ok(target, `the cursor ${JSON.stringify(cursor)} is on one of the piece's places`);
  await page.keyboard.press('Space');
  await page.waitForFunction(() => window.plyscope.state.history.length > 0);
  assert.equal((await state(page)).history[0], target.text, 'Space placed the picked piece there');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Hive: the Pillbug throws an enemy piece when picked first, then the target', async () => {
  const { context, page, errors } = await openApp(env, DESKTOP);
  await pickGame(page, 'hive');
  await fixDepth(page, 1, 1);
  // White's Pillbug at the centre with Black's Spider west of it, which nothing pins and which did
  // not move last (Black's Queen did): White may throw the Spider to an empty hex beside the Pillbug.
  await page.click('#position-box summary');
  await page.fill('[data-testid=position-text]', 'Base+P;InProgress;White[4];wP;bS1 -wP;wQ wP-;bQ \\bS1;wA1 wQ-;bQ \\wP');
  await page.click('[data-testid=set-position]');
  await page.waitForFunction(() => window.plyscope.state.history.length === 6 || /bQ/.test(window.plyscope.state.position));
  const view = await page.evaluate(() => window.plyscope.view);
  const at = (c) => view.cells.find((x) => x.at.x === c.x && x.at.y === c.y)?.pieces.at(-1);
  const throws = view.moves.filter((m) => m.from && at(m.from)?.owner === 1 && (m.sources || []).some((s) => at(s)?.kind === 'pillbug'));
  assert.ok(throws.length >= 2, `throws of the Spider offered: ${throws.map((m) => m.text).join(', ')}`);
  const m = throws[0];
  const pillbug = m.sources.find((s) => at(s)?.kind === 'pillbug');
  const before = (await state(page)).history.length;
  await clickCell(page, pillbug);
  // The Pillbug picked: its throws are among the marked targets.
  await page.waitForFunction(() => (window.plyscope.board.decor.hints || []).length > 0);
  const hints = await page.evaluate(() => window.plyscope.board.decor.hints.map((h) => `${h.x},${h.y}`));
  for (const t of throws) assert.ok(hints.includes(`${t.to.x},${t.to.y}`), `throw target ${t.text} marked`);
  await clickCell(page, m.to);
  await page.waitForFunction((n) => window.plyscope.state.history.length > n, before);
  assert.equal((await state(page)).history[before], m.text, 'the throw was played');
  const after = await page.evaluate(() => window.plyscope.view);
  const moved = after.cells.find((x) => x.at.x === m.to.x && x.at.y === m.to.y)?.pieces.at(-1);
  assert.equal(moved?.owner, 1, "Black's piece now stands where it was thrown");
  await shot(page, 'hive-pillbug-throw');
  assert.deepEqual(errors, []);
  await context.close();
});

test('Hive (phone): two fingers pinch-zoom and pan the board; the pinch plays no move', async () => {
  const { context, page, errors } = await openApp(env, PHONE);
  await pickGame(page, 'hive');
  await fixDepth(page, 1, 1);
  const view = await page.evaluate(() => window.plyscope.view);
  const first = view.moves.find((m) => m.hand && m.hand.index === 1);
  await clickHand(page, first.hand);
  await clickCell(page, first.to);
  await aiAnswered(page, 0);
  await page.waitForFunction(() => !window.plyscope.board.animating);
  const r = await page.evaluate(async () => {
    const b = window.plyscope.board;
    const c = b.canvas.getBoundingClientRect();
    const cx = c.left + c.width / 2;
    const cy = c.top + c.height / 2;
    const fire = (type, id, x, y) =>
      b.canvas.dispatchEvent(new PointerEvent(type, { pointerId: id, pointerType: 'touch', isPrimary: id === 1, clientX: x, clientY: y, bubbles: true, buttons: type === 'pointerup' ? 0 : 1 }));
    const cam0 = b.layoutCamera();
    const mid0 = b.toCanvas(cx, cy);
    const held = { x: (mid0.px - cam0.ox) / cam0.s, y: (mid0.py - cam0.oy) / cam0.s };
    fire('pointerdown', 1, cx - 30, cy);
    fire('pointerdown', 2, cx + 30, cy);
    // Apart to twice the distance, and the midpoint 40 px down.
    fire('pointermove', 1, cx - 60, cy + 40);
    fire('pointermove', 2, cx + 60, cy + 40);
    const cam1 = b.layoutCamera();
    const mid1 = b.toCanvas(cx, cy + 40);
    fire('pointerup', 2, cx + 60, cy + 40);
    fire('pointerup', 1, cx - 60, cy + 40);
    return {
      zoom: b.user.zoom,
      scale: cam1.s / cam0.s,
      // Where the board point first under the fingers' midpoint is drawn now, against the new midpoint.
      drift: Math.hypot(cam1.ox + held.x * cam1.s - mid1.px, cam1.oy + held.y * cam1.s - mid1.py),
    };
  });
  assert.ok(Math.abs(r.zoom - 2) < 1e-6, `zoom ${r.zoom}`);
  assert.ok(Math.abs(r.scale - 2) < 1e-6, `scale ${r.scale}`);
  assert.ok(r.drift < 1, `the held point follows the fingers (off by ${r.drift} px)`);
  await page.waitForTimeout(50);
  assert.equal((await state(page)).history.length, 2, 'the pinch played nothing');
  await shot(page, 'hive-pinched-phone');
  assert.deepEqual(errors, []);
  await context.close();
});
