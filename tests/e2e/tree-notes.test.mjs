// End-to-end tests of how the explorer shows the modern alpha-beta's techniques (docs/tree-format.md,
// `null_window`, `failed_high`, `research`, `reduced`, `null_move`): the tooltip says why a node was
// searched the way it was ("searched 1 ply shallower: late-move reduction"), the node carries a tag,
// and the legend explains the tags. Fixed depths, no time limits: nothing depends on the machine's
// speed. Screenshots: target/screenshots/tree-notes-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openExplorer, openApp, pickGame, appState, shot, settle, clickMove } from './harness.mjs';

const env = useBrowser();

async function hover(page, id, api = 'window.explorer') {
  const box = await page.evaluate(([i, a]) => eval(a).nodeBox(i), [id, api]);
  assert.ok(box, `node ${id} is shown`);
  await page.mouse.move(box.x + 5, box.y + 3);
  await page.waitForSelector('[data-testid=tree-tooltip]:not([hidden])');
  return page.locator('[data-testid=tree-tooltip]').innerText();
}

/** A small alpha-beta tree with each note: a null-window search that failed high and its re-search, a reduced move, a null-move cut, moves skipped by forward pruning, and singular extensions' notes (a move searched deeper, one shallower, a multi-cut). */
const DOC = {
  format: 'plyscope-tree',
  version: 1,
  game: 'tictactoe',
  engine: 'test',
  algorithm: 'alphabeta',
  perspective: 'x',
  stats: { nodes: 9, leaves: 4, time_ms: 0, prune_events: 0, pruned_nodes: 0, tt_hits: 0, depth_reached: 2, truncated: false, researches: 1, reductions: 1, null_cuts: 1 },
  root: {
    id: 0, kind: 'max', value: 3, bound: 'exact', best: true,
    children: [
      { id: 1, move: 'a1', kind: 'min', value: 1, bound: 'exact', children: [{ id: 2, move: 'b1', kind: 'leaf', value: 1 }] },
      { id: 3, move: 'b2', kind: 'min', value: 2, bound: 'lower', alpha: 1, beta: 1.0000000000000002, null_window: true, failed_high: true, children: [{ id: 4, move: 'c1', kind: 'leaf', value: 2 }] },
      { id: 5, move: 'b2', kind: 'min', value: 3, bound: 'exact', alpha: 1, research: true, best: true, children: [{ id: 6, move: 'c1', kind: 'leaf', value: 3, best: true }] },
      { id: 7, move: 'c3', kind: 'min', value: 0, bound: 'upper', alpha: 3, beta: 3.0000000000000004, null_window: true, reduced: 1, children: [{ id: 8, move: 'a3', kind: 'leaf', value: 0 }] },
      { id: 9, move: 'a2', kind: 'min', value: -1, bound: 'upper', alpha: 3, beta: 3.0000000000000004, null_move: true },
      { id: 10, kind: 'pruned', count: 2, moves: ['a3', 'c1'], reason: 'futility' },
      { id: 11, move: 'b3', kind: 'min', value: 0, bound: 'upper', alpha: 3, beta: 3.0000000000000004, extended: true, children: [{ id: 12, move: 'a3', kind: 'leaf', value: 0 }] },
      { id: 13, move: 'c2', kind: 'min', value: 3, bound: 'upper', alpha: 3, beta: 3.0000000000000004, shortened: true, children: [{ id: 14, move: 'a3', kind: 'leaf', value: 3 }] },
      { id: 15, move: 'b1', kind: 'min', value: -2, bound: 'upper', alpha: 3, beta: 3.0000000000000004, multi_cut: true },
    ],
  },
};

test('the tooltip says why a node was searched shallower, again or not at all, and the legend explains the tags', async () => {
  const { page, errors } = await openExplorer(env, '', { width: 1400, height: 900 });
  await page.locator('[data-testid=tree-json]').fill(JSON.stringify(DOC));
  await page.locator('[data-testid=load-tree]').click();
  await page.waitForFunction(() => window.explorer.model()?.root?.children?.length === 9);
  await settle(page);
  const reduced = await hover(page, 7);
  assert.match(reduced, /searched 1 ply shallower: late-move reduction/);
  assert.match(reduced, /null window/);
  // The window of a null-window search reads as one, not as "(+3, +3)".
  assert.match(reduced, /\(\+3, \+3 \+ ε\): a null window/);
  // The board preview of c3's position is drawn before the picture is taken.
  await page.waitForSelector('canvas.tree-preview[data-state=drawn]', { timeout: 10000 });
  await shot(page, 'tree-notes-reduced');
  // A run with internal iterative reduction on: a reduction may also be the node's own.
  await page.locator('[data-testid=tree-json]').fill(JSON.stringify({ ...DOC, settings: { internal_reduction: true, lmr: true } }));
  await page.locator('[data-testid=load-tree]').click();
  await page.waitForFunction(() => window.explorer.model()?.settings?.length === 2);
  await settle(page);
  const own = await hover(page, 7);
  assert.match(own, /searched 1 ply shallower: a late-move reduction .*, or one ply the node took off itself \(internal iterative reduction, on in this run: the transposition table had no move for it\)/);
  await page.locator('[data-testid=tree-json]').fill(JSON.stringify(DOC));
  await page.locator('[data-testid=load-tree]').click();
  await page.waitForFunction(() => window.explorer.model()?.settings?.length === 0);
  await settle(page);
  const failed = await hover(page, 3);
  assert.match(failed, /so the same move was searched again/);
  const again = await hover(page, 5);
  assert.match(again, /searched again, deeper or with the full window/);
  const cut = await hover(page, 9);
  assert.match(cut, /pruned by a null move/);
  await shot(page, 'tree-notes-null-move');
  const futile = await hover(page, 10);
  assert.match(futile, /forward pruning: late-move pruning .* or futility pruning/);
  await shot(page, 'tree-notes-futile');
  const ext = await hover(page, 11);
  assert.match(ext, /searched one ply deeper than its siblings: the transposition table's move here, and singular/);
  const short = await hover(page, 13);
  assert.match(short, /searched one ply shallower than its siblings: .*\(negative extension\)/);
  const mc = await hover(page, 15);
  assert.match(mc, /pruned by a multi-cut/);
  await shot(page, 'tree-notes-multi-cut');
  const legend = await page.locator('.ps-legend').innerText();
  for (const w of ['late-move reduction', 'null window', 're-search', 'null move', 'singular extension', 'negative extension', 'multi-cut']) assert.ok(legend.includes(w), `legend explains ${w}: ${legend}`);
  for (const t of ['X+1', 'X−1', 'MC']) assert.ok(legend.includes(t), `legend shows the tag ${t}: ${legend}`);
  // The notes survive the download (version 1): the document the explorer writes has them.
  const out = await page.evaluate(() => JSON.stringify(window.explorer.subtree(0)));
  for (const k of ['"reduced":1', '"research":true', '"failed_high":true', '"null_move":true', '"null_window":true', '"reason":"futility"', '"extended":true', '"shortened":true', '"multi_cut":true']) assert.ok(out.includes(k), `saved document has ${k}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a Reversi search on the page shows null windows in the tree, and its tooltip says so', async () => {
  const { context, page, errors } = await openApp(env, { width: 1400, height: 900 });
  await pickGame(page, 'reversi');
  await page.selectOption('[data-testid=side-0-level]', 'human');
  await page.selectOption('[data-testid=side-1-level]', 'alphabeta');
  for (const [k, v] of [['depth', '5'], ['time', '0']]) {
    await page.fill(`[data-testid=side-1-${k}]`, v);
    await page.dispatchEvent(`[data-testid=side-1-${k}]`, 'change');
  }
  // The techniques are switches under the AI player; on by default, but internal iterative
  // reduction and late-move pruning at every depth (not measured stronger), and in Reversi the
  // killer moves (the game's own default: measured stronger without them).
  assert.equal(await page.locator('[data-testid=side-1-tech-lmr]').isChecked(), true);
  assert.equal(await page.locator('[data-testid=side-1-tech-iir]').isChecked(), false);
  assert.equal(await page.locator('[data-testid=side-1-tech-lmp_all]').isChecked(), false);
  assert.equal(await page.locator('[data-testid=side-1-tech-malus]').isChecked(), false);
  assert.equal(await page.locator('[data-testid=side-1-tech-killers]').isChecked(), false);
  assert.match(await page.locator('[data-testid=side-1-techniques] summary').innerText(), /\(9 of 14 on, the defaults\)/);
  const first = (await appState(page)).legal[0].move;
  const c = await page.evaluate((m) => window.plyscope.cellCenterOf(m), first);
  await page.mouse.click(c.x, c.y);
  await page.waitForFunction(() => window.plyscope.state.history.length >= 2, null, { timeout: 120000 });
  const aiMove = (await appState(page)).history[1];
  await page.waitForFunction((mv) => window.plyscope.explorer?.current()?.chosen?.move === mv && window.plyscope.explorer.current().stats?.depth_reached === 5, aiMove, { timeout: 60000 });
  await page.locator('[data-testid=tree-panel]').scrollIntoViewIfNeeded();
  const facts = await page.evaluate(() => {
    // The model (nodes with their note byte), not the document.
    const m = window.plyscope.explorer.model();
    let reduced = 0;
    let scouts = 0;
    const stack = [m.root];
    while (stack.length) {
      const n = stack.pop();
      if (n.note >> 4) reduced++;
      if (n.note & 1) scouts++;
      for (const k of n.children || []) stack.push(k);
    }
    const scout = m.root.children.find((k) => k.note & 1);
    return { reduced, scouts, scout: scout ? scout.id : null, settings: window.plyscope.explorer.current().settings };
  });
  assert.ok(facts.scouts > 0, 'null-window searches are in the tree');
  assert.ok(facts.reduced > 0, 'late-move reductions are in the tree');
  assert.equal(facts.settings.lmr, true);
  assert.equal(facts.settings.pvs, true);
  assert.equal(facts.settings.internal_reduction, false);
  assert.equal(facts.settings.late_move_pruning_all_depths, false);
  assert.equal(facts.settings.killers, false);
  assert.notEqual(facts.scout, null, 'a root move searched with a null window');
  const tip = await hover(page, facts.scout, 'window.plyscope.explorer');
  assert.match(tip, /null window: it only asked whether this move beats the best so far/);
  await shot(page, 'tree-notes-app');
  // Ticking the killers is a change from Reversi's defaults, and the switch says why it is off.
  await page.click('[data-testid=side-1-techniques] summary');
  assert.match(await page.locator('[data-testid=side-1-tech-killers]').locator('xpath=..').getAttribute('title'), /Off by default in this game/);
  await page.check('[data-testid=side-1-tech-killers]');
  assert.match(await page.locator('[data-testid=side-1-techniques] summary').innerText(), /\(10 of 14 on, 1 changed\)/);
  assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('plyscope.app.v1')).settings.perGame.reversi.sides[1].tech.killers), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('internal iterative reduction has a switch on the page; with late-move reductions off, the run counts the reductions it made', async () => {
  const { context, page, errors } = await openApp(env, { width: 1400, height: 900 });
  await pickGame(page, 'ataxx');
  await page.selectOption('[data-testid=side-0-level]', 'human');
  await page.selectOption('[data-testid=side-1-level]', 'alphabeta');
  for (const [k, v] of [['depth', '7'], ['time', '0']]) {
    await page.fill(`[data-testid=side-1-${k}]`, v);
    await page.dispatchEvent(`[data-testid=side-1-${k}]`, 'change');
  }
  await page.click('[data-testid=side-1-techniques] summary');
  // Ataxx keeps the killers (Reversi's default is its own), and has singular extensions,
  // internal iterative reduction and the history malus on (its own defaults), which the
  // switches' titles say.
  assert.equal(await page.locator('[data-testid=side-1-tech-killers]').isChecked(), true);
  for (const id of ['singular', 'iir', 'malus']) {
    assert.equal(await page.locator(`[data-testid=side-1-tech-${id}]`).isChecked(), true, id);
    assert.match(await page.locator(`[data-testid=side-1-tech-${id}]`).locator('xpath=..').getAttribute('title'), /On by default in this game/, id);
  }
  assert.match(await page.locator('[data-testid=side-1-techniques] summary').innerText(), /\(13 of 14 on, the defaults\)/);
  await page.uncheck('[data-testid=side-1-tech-lmr]');
  await page.check('[data-testid=side-1-tech-lmp_all]');
  assert.match(await page.locator('[data-testid=side-1-techniques] summary').innerText(), /\(13 of 14 on, 2 changed\)/);
  await shot(page, 'techniques-iir');
  // Ataxx: nodes 4 plies or more from the horizon without a table move are common by depth 7
  // (in Reversi's opening the table has a move for nearly every node). At depth 6, since Ataxx
  // orders the moves next to the horizon too (session 21), the page's search made none.
  await clickMove(page, 'b6');
  await page.waitForFunction(() => window.plyscope.state.history.length >= 2, null, { timeout: 120000 });
  const aiMove = (await appState(page)).history[1];
  await page.waitForFunction((mv) => window.plyscope.explorer?.current()?.chosen?.move === mv && window.plyscope.explorer.current().stats?.depth_reached === 7, aiMove, { timeout: 60000 });
  const facts = await page.evaluate(() => {
    const doc = window.plyscope.explorer.current();
    return { settings: doc.settings, reductions: doc.stats.reductions ?? 0 };
  });
  assert.equal(facts.settings.internal_reduction, true);
  assert.equal(facts.settings.lmr, false);
  assert.equal(facts.settings.late_move_pruning_all_depths, true);
  assert.equal(facts.settings.singular_extensions, true, "Ataxx's own default");
  assert.equal(facts.settings.history_malus, true, "Ataxx's own default");
  // Late-move reductions are off: every reduction the run counts is a node that reduced itself
  // (over all iterations; the last one, which the tree keeps, may have none: its nodes mostly
  // have a table move from the iteration before).
  assert.ok(facts.reductions > 0, `internal iterative reductions are counted: ${facts.reductions}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('settings saved before the games had defaults of their own: switches left at their old default take the game default', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1400, height: 900 } });
  // A save of the previous version: every switch stored, Reversi's killers on (then the default)
  // and its late-move reductions off (a player's change, kept).
  const tech = { tt: true, pvs: true, aspiration: true, killers: true, history: true, lmr: false, null_move: true, lmp: true, futility: true, quiescence: true, lmp_all: false, iir: false };
  const saved = { settings: { game: 'reversi', perGame: { reversi: { sides: [{ level: 'human', depth: 5, time: 0, q: 0, tech }, { level: 'alphabeta', depth: 5, time: 0, q: 0, tech }] } } }, record: null };
  await context.addInitScript((text) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('plyscope.app.v1', text);
      sessionStorage.setItem('seeded', '1');
    }
  }, JSON.stringify(saved));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(env.server.url);
  await page.waitForFunction(() => window.plyscope && window.plyscope.state && window.plyscope.state.game.startsWith('reversi'), null, { timeout: 20000 });
  await page.click('[data-testid=side-1-techniques] summary');
  assert.equal(await page.locator('[data-testid=side-1-tech-killers]').isChecked(), false);
  assert.equal(await page.locator('[data-testid=side-1-tech-lmr]').isChecked(), false);
  assert.match(await page.locator('[data-testid=side-1-techniques] summary').innerText(), /\(8 of 14 on, 1 changed\)/);
  assert.deepEqual(errors, []);
  await context.close();
});
