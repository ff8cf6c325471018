// End-to-end tests of the threads build (scripts/build-wasm.sh: SIMD and shared memory): in the
// cross-origin isolated page the engine's worker searches by Lazy SMP with helper Web Workers
// sharing its memory. With 2 threads a search plays a legal move with the single-threaded value
// where the search is exact (every line reaches the end of the game, reductions off: tic-tac-toe
// and a Connect Four ending; a helper's entries are then true bounds, tests/parallel.rs), and its
// statistics and the explorer say what each worker searched: each worker's work at the root, and
// at each node whose value or first move came from the helper's table entry, "from worker 2's
// table entry" in its tooltip. Values and counts only, no timing.
// So that they do not depend on the helper worker getting CPU time during a short search, the
// parallel searches hold their main thread until the helper has searched the whole depth
// (`hold_for_helpers`, a test-only option: a handshake, no clock; the page gets it from `?hold=D`):
// the helper must then search, and the main thread finds its entries. Were the helpers to do
// nothing, the workers' nodes and the entries from worker 2 would be missing and the tests fail.
// Skipped, with a message, when the threads build was not made (no nightly toolchain, THREADS=0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, pickGame, setLevel, fixDepth, clickMove, settle, shot } from './harness.mjs';

const env = useBrowser();
const WIDE = { width: 1400, height: 900 };

/** Whether the threads build is there to be served. */
async function hasThreadsBuild(page) {
  return page.evaluate(async () => (await fetch('/pkg/threads/plyscope.js')).ok);
}

test('the threads build with 2 threads: a legal move with the single-threaded value of an exact search, and each worker in the statistics', async (t) => {
  const { context, page, errors } = await openApp(env);
  if (!(await hasThreadsBuild(page))) {
    t.skip('no threads build in pkg/threads/ (it needs the nightly toolchain)');
    await context.close();
    return;
  }
  const rows = await page.evaluate(async () => {
    const { EngineClient } = await import('/engine-client.js');
    const client = new EngineClient();
    const build = await client.build();
    // Exact: reductions, null moves and forward pruning off, depth to the end of every line.
    const exact = { algorithm: 'alphabeta', iterative_deepening: true, lmr: false, null_move: false, late_move_pruning: false, futility: false, random_ties: false, exact_endgame: 0, seed: 3, time_ms: null };
    // A Connect Four position 22 plies in, reached by a fixed walk over the legal moves (a linear
    // congruential choice, skipping moves that would end the game), still going; searched to the
    // last empty cell.
    const c4 = async () => {
      let s = await client.open('connect4');
      let x = 12345;
      walk: while (s.history.length < 22) {
        x = (x * 1103515245 + 12345) % 2147483648;
        for (let k = 0; k < s.legal.length; k++) {
          const r = await client.play(s.legal[(x + k) % s.legal.length].move);
          if (!r.state.outcome) {
            s = r.state;
            continue walk;
          }
          s = await client.undo();
        }
        break;
      }
      return s;
    };
    const out = [];
    for (const c of [
      { game: 'tictactoe', depth: () => 9, setup: () => client.open('tictactoe') },
      { game: 'connect4', depth: (s) => 42 - s.history.length, setup: c4 },
    ]) {
      const s = await c.setup();
      c.depth = c.depth(s);
      const one = await client.search({ ...exact, depth: c.depth, threads: 1 });
      const two = await client.search({ ...exact, depth: c.depth, threads: 2, record_tree: true, hold_for_helpers: c.depth });
      out.push({
        game: c.game,
        depth: c.depth,
        outcome: s.outcome,
        legal: s.legal.map((m) => m.move),
        one: { move: one.move, value: one.value, workers: one.stats.workers ?? null },
        two: { move: two.move, value: two.value, nodes: two.stats.nodes, workers: two.stats.workers, treeWorkers: two.tree?.stats?.workers ?? null },
      });
    }
    return { build, out };
  });
  assert.equal(rows.build, 'threads');
  for (const r of rows.out) {
    assert.equal(r.outcome ?? null, null, `${r.game}: the position is still going`);
    assert.ok(r.legal.includes(r.two.move), `${r.game}: ${r.two.move} is legal (${r.legal.join(' ')})`);
    assert.equal(r.two.value, r.one.value, `${r.game}: the same value with 2 threads as with 1`);
    assert.equal(r.one.workers, null, `${r.game}: one thread lists no workers`);
    // Which worker searched what: the main thread (worker 0, whose search is the answer and the
    // recorded tree) and the helper (worker 1), each with its nodes and depth, in the report and
    // in the recorded tree's header.
    assert.deepEqual(
      r.two.workers.map((w) => w.worker),
      [0, 1],
      `${r.game}: ${JSON.stringify(r.two.workers)}`,
    );
    assert.equal(r.two.workers[0].nodes, r.two.nodes, `${r.game}: the main thread's nodes are the run's`);
    assert.deepEqual(r.two.treeWorkers, r.two.workers, `${r.game}: the tree's header lists the same workers`);
    // The hold: the helper searched before the main thread began, and the main thread's search
    // was answered in part by the helper's table entries.
    assert.ok(r.two.workers[1].nodes > 0 && r.two.workers[1].depth_reached > 0, `${r.game}: the helper searched: ${JSON.stringify(r.two.workers)}`);
    assert.ok(r.two.workers[0].tt_hits_other > 0, `${r.game}: the main thread used the helper's entries: ${JSON.stringify(r.two.workers)}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('in the page, with the Workers setting at 2 the threads build searches in parallel and the tree lists each worker', async (t) => {
  // `?hold=6`: the main thread waits until the helper has searched depth 6 (the AI's depth here).
  const { context, page, errors } = await openApp(env, WIDE, new URL('/?hold=6', env.server.url).href);
  if (!(await hasThreadsBuild(page))) {
    t.skip('no threads build in pkg/threads/ (it needs the nightly toolchain)');
    await context.close();
    return;
  }
  await pickGame(page, 'reversi');
  await setLevel(page, 0, 'human');
  await setLevel(page, 1, 'alphabeta');
  await fixDepth(page, 1, 6);
  await page.selectOption('[data-testid=ai-threads]', '2');
  await page.click('[data-testid=new-game]');
  await page.waitForFunction(() => window.plyscope.state.history.length === 0 && !window.plyscope.thinking);
  await clickMove(page, 'd3');
  await page.waitForFunction(() => window.plyscope.state.history.length === 2 && !window.plyscope.thinking, null, { timeout: 60000 });
  await page.evaluate(() => window.plyscope.explorer?.whenLaidOut?.());
  const model = await page.evaluate(() => {
    const m = window.plyscope.explorer.model();
    return { rootId: m.root.id, workers: m.workers ?? null, nodes: m.stats?.nodes ?? null };
  });
  assert.deepEqual(
    model.workers.map((w) => w.worker),
    [0, 1],
    JSON.stringify(model.workers),
  );
  assert.ok(model.workers[0].nodes > 0, 'the main thread searched');
  // The root's tooltip lists each worker's work.
  await settle(page);
  await page.locator('[data-testid=tree-view]').scrollIntoViewIfNeeded();
  const box = await page.evaluate((id) => window.plyscope.explorer.nodeBox(id), model.rootId);
  assert.ok(box, 'the root is shown');
  await page.mouse.move(box.x + 5, box.y + 3);
  await page.waitForSelector('[data-testid=tree-tooltip]:not([hidden])', { timeout: 5000 });
  const tip = await page.evaluate(() => document.querySelector('[data-testid=tree-tooltip]').innerText);
  assert.match(tip, /worker 1\s+[\d,]+ nodes, depth \d+/, tip);
  assert.match(tip, /worker 2\s+[\d,]+ nodes, depth \d+/, tip);
  // Deferral (docs/engine-options.md, `defer_busy`): the main thread records the tree, so it puts
  // off no move (its tree keeps the search's order); the helper's count is a number, shown on its
  // row when it put any off (how many depends on when the two met).
  assert.equal(model.workers[0].deferred, 0, 'the recording main thread puts off no move');
  assert.equal(typeof model.workers[1].deferred, 'number', JSON.stringify(model.workers));
  assert.doesNotMatch(tip, /worker 1[^\n]*put off/, tip);
  if (model.workers[1].deferred > 0) assert.match(tip, /worker 2[^\n]*moves put off/, tip);
  await shot(page, 'threads-workers-tooltip-1400');
  // Nodes whose value or first move came from the helper's entry in the shared table say so, in
  // their tooltip and in the legend (docs/tree-format.md, `tt_worker`). The helper searched the
  // same positions to depth 6 before the main thread began (the hold), so its entries are there.
  const from = await page.evaluate(() => {
    const m = window.plyscope.explorer.model();
    for (let i = 1; i < m.count; i++) {
      const n = m.byId(i);
      if (n && n.tt_worker && n.kind !== 'pruned' && n.kind !== 'truncated') return { id: n.id, worker: n.tt_worker, tt: n.tt };
    }
    return null;
  });
  assert.ok(from, 'some recorded node used the helper\'s table entry');
  assert.equal(from.worker, 1, 'the helper is worker 1 (the second worker)');
  await page.evaluate((id) => window.plyscope.explorer.focus(id), from.id);
  await page.evaluate(() => window.plyscope.explorer.whenLaidOut());
  await settle(page);
  await page.mouse.move(5, 5);
  const at = await page.evaluate((id) => window.plyscope.explorer.nodeBox(id), from.id);
  assert.ok(at, 'the node is shown');
  await page.mouse.move(at.x + 5, at.y + 3);
  await page.waitForSelector('[data-testid=tree-tooltip]:not([hidden])', { timeout: 5000 });
  const tipFrom = await page.evaluate(() => document.querySelector('[data-testid=tree-tooltip]').innerText);
  assert.match(tipFrom, new RegExp(`${from.tt ? 'value' : 'first move'} from worker 2's table entry`), tipFrom);
  assert.equal(await page.locator('[data-testid=legend-tt-worker]').count(), 1, 'the legend explains the tag');
  await shot(page, 'threads-tt-worker-tooltip-1400');
  assert.deepEqual(errors, []);
  await context.close();
});
