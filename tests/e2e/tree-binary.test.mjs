// End-to-end tests of large search trees on the playing page: trees travel from the engine's worker
// in binary form (www/tree/binary.js), within the page's node budget (250,000 by default), and
// tic-tac-toe's "Whole tree" opens the complete minimax tree. Nothing here depends on the machine's
// speed: every search has a fixed depth and no time limit. Screenshots: target/screenshots/tree-binary-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, pickGame, appState, shot, DESKTOP, PHONE, fixDepth } from './harness.mjs';

const env = useBrowser();

/** Facts about the explorer's model, walked in the page (a tree of many nodes stays there). */
function treeFacts(page) {
  return page.evaluate(() => {
    const m = window.plyscope.explorer.model();
    let searched = 0;
    let truncated = 0;
    let unrecorded = 0;
    let maxDepth = 0;
    let orphans = 0;
    const stack = [m.root];
    let walked = 0;
    while (stack.length) {
      const n = stack.pop();
      walked++;
      if (n.depth > maxDepth) maxDepth = n.depth;
      if (n.kind === 'truncated') {
        truncated++;
        unrecorded += n.count;
      } else if (n.kind !== 'pruned') searched++;
      for (const c of n.children) {
        if (c.parent !== n) orphans++;
        stack.push(c);
      }
    }
    // The principal variation from the root, down to its end.
    const pv = [];
    for (let n = m.root; ; ) {
      const next = n.children.find((c) => c.best);
      if (!next) break;
      pv.push(next.label);
      n = next;
    }
    // A search replaced by a re-search of the same move (note bit 1, failed high) is not a root move of its own.
    const moves = m.root.children.filter((c) => c.kind !== 'pruned' && c.kind !== 'truncated' && !(c.note & 2));
    return {
      count: m.count,
      walked,
      searched,
      truncated,
      unrecorded,
      maxDepth,
      orphans,
      pv,
      binary: m.binaryBytes ?? null,
      stats: m.stats,
      chosen: m.chosen,
      rootMoves: moves.map((c) => ({ id: c.id, move: c.label, value: c.value, bound: c.bound, pre: c.prescore ? c.prescore.total : null })),
    };
  });
}

test('Reversi at depth 10: the tree crosses in binary form with every root move, more than the old 4,000-node cap, and why A and not B compares the best two', async () => {
  const { context, page, errors } = await openApp(env, DESKTOP);
  await pickGame(page, 'reversi');
  await page.selectOption('[data-testid=side-0-level]', 'human');
  await page.selectOption('[data-testid=side-1-level]', 'alphabeta');
  // Depth 10: with Reversi's defaults (killer moves off) the last iteration at depth 9 is under
  // 4,000 nodes.
  await fixDepth(page, 1, 10);
  // The default budget, shown with the memory it implies.
  const budget = await page.locator('[data-testid=tree-budget]').inputValue();
  assert.equal(budget, '250000');
  assert.match(await page.locator('[data-testid=tree-budget] option:checked').innerText(), /^250,000 nodes \(up to \d+ MB\)$/);
  const s = await appState(page);
  const first = s.legal[0].move;
  const c = await page.evaluate((m) => window.plyscope.cellCenterOf(m), first);
  await page.mouse.click(c.x, c.y);
  await page.waitForFunction(() => window.plyscope.state.history.length >= 1);
  const legal = (await appState(page)).legal.map((m) => m.move);
  await page.waitForFunction(() => window.plyscope.state.history.length >= 2, null, { timeout: 120000 });
  const aiMove = (await appState(page)).history[1];
  await page.waitForFunction((mv) => window.plyscope.explorer?.model()?.chosen?.move === mv && window.plyscope.explorer.model().stats?.depth_reached === 10, aiMove, { timeout: 60000 });
  const f = await treeFacts(page);
  // The tree came as bytes, not JSON.
  assert.ok(f.binary > 0, 'the model was read from the binary form');
  assert.equal(f.walked, f.count, 'every node is reachable from the root');
  assert.equal(f.orphans, 0, "every node's parent is the node it hangs under");
  assert.ok(f.count > 4000, `the tree holds ${f.count} nodes, more than the old cap of 4,000`);
  // Every legal root move, each with its value and pre-score.
  assert.deepEqual(f.rootMoves.map((r) => r.move).sort(), [...legal].sort(), 'every root move is in the tree');
  for (const r of f.rootMoves) {
    assert.equal(typeof r.value, 'number', `${r.move} has a value`);
    assert.equal(typeof r.pre, 'number', `${r.move} has a pre-score`);
  }
  // Counts consistent with the run's statistics: nothing was cut at this size; the tree is the last
  // iteration's (depth 10) and the run counts every iteration's nodes.
  assert.equal(f.stats.truncated, false);
  assert.equal(f.truncated, 0);
  assert.equal(f.stats.depth_reached, 10);
  assert.ok(f.searched <= Number(f.stats.nodes) + 1, `${f.searched} searched nodes in the tree, ${f.stats.nodes} in the run`);
  assert.ok(f.searched > Number(f.stats.nodes) / 4, `the last iteration is a large share of the run (${f.searched} of ${f.stats.nodes})`);
  const caption = await page.locator('[data-testid=tree-caption]').innerText();
  const said = await page.evaluate(async (n) => (await import('./app/status.js')).formatCount(n), Number(f.stats.nodes));
  assert.ok(caption.includes(`depth 10, ${said} nodes searched`), caption);
  // The chosen move's principal variation reaches the horizon.
  assert.equal(f.pv[0], aiMove);
  assert.equal(f.pv.length, 10, `principal variation ${f.pv.join(' ')}`);
  assert.equal(f.maxDepth, 10);
  // Why A and not B: the chosen move against the second best by value (White minimises? the values
  // are from the searching player's view, so the best has the largest value).
  const ranked = [...f.rootMoves].sort((a, b) => b.value - a.value);
  const chosen = f.rootMoves.find((r) => r.move === aiMove);
  const second = ranked.find((r) => r.move !== aiMove);
  const why = await page.evaluate(([a, b]) => {
    const w = window.plyscope.explorer.why(a, b);
    return w && { a: w.a.path, b: w.b.path, diff: w.valueDiff, evalTerms: w.eval ? w.eval.length ?? Object.keys(w.eval).length : 0 };
  }, [chosen.id, second.id]);
  assert.deepEqual(why.a, [aiMove]);
  assert.deepEqual(why.b, [second.move]);
  assert.ok(why.diff >= 0, `the chosen move is worth at least the second best (${why.diff})`);
  await page.locator('[data-testid=tree-panel]').scrollIntoViewIfNeeded();
  await shot(page, 'tree-binary-reversi-depth10');
  assert.deepEqual(errors, []);
  await context.close();
});

test('tic-tac-toe: Whole tree opens the complete minimax tree, 549,946 nodes, with the root’s 9 moves', async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const { context, page, errors } = await openApp(env, viewport);
    await pickGame(page, 'tictactoe');
    await page.selectOption('[data-testid=side-0-level]', 'human');
    await page.selectOption('[data-testid=side-1-level]', 'human');
    const button = page.locator('[data-testid=whole-tree]');
    await button.waitFor({ state: 'visible' });
    await button.click();
    await page.waitForFunction(() => window.plyscope.explorer?.model()?.count === 549946, null, { timeout: 180000 });
    await page.evaluate(() => window.plyscope.explorer.whenLaidOut());
    // Only the opened nodes exist as objects: the rest stay in the binary form's arrays (until the
    // walk below makes them all).
    const made = await page.evaluate(() => window.plyscope.explorer.model().root._t.nodes.filter(Boolean).length);
    assert.ok(made < 5000, `${made} node objects made`);
    const f = await treeFacts(page);
    assert.equal(f.count, 549946);
    assert.equal(f.walked, 549946);
    assert.equal(f.truncated, 0, 'nothing was cut');
    assert.equal(f.stats.nodes, 549945, 'the run searched every node below the root');
    assert.deepEqual(f.rootMoves.map((r) => r.move).sort(), ['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'c1', 'c2', 'c3']);
    // Perfect play draws: every first move is worth 0.
    for (const r of f.rootMoves) assert.equal(r.value, 0, `${r.move} draws with best play`);
    assert.equal(f.maxDepth, 9);
    const caption = await page.locator('[data-testid=tree-caption]').innerText();
    assert.match(caption, /whole game tree from this position: 549,946 nodes/);
    // Collapsed below the first levels: a screenful is drawn, not half a million nodes.
    const shown = await page.evaluate(() => window.plyscope.explorer.stats().shown);
    assert.ok(shown >= 10 && shown < 2000, `${shown} nodes shown`);

    await page.locator('[data-testid=tree-panel]').scrollIntoViewIfNeeded();
    await shot(page, `tree-binary-tictactoe-whole-${viewport === PHONE ? 'phone' : 'desktop'}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the binary form gives the same model as the version-1 JSON of the same search (Reversi, Threes, a capped tree)', async () => {
  const { context, page, errors } = await openApp(env, DESKTOP);
  const out = await page.evaluate(async () => {
    const wasm = await import('./pkg/plyscope.js');
    await wasm.default();
    const { importValue } = await import('./tree/import.js');
    const { binaryModel } = await import('./tree/binary.js');
    const FIELDS = ['id', 'label', 'kind', 'value', 'bound', 'alpha', 'beta', 'prob', 'best', 'tt', 'count', 'order', 'prescore', 'eval', 'moves', 'cutoff', 'reason', 'depth', 'size'];
    const cases = [
      ['reversi', { algorithm: 'alphabeta', depth: 4, record_tree: true, random_ties: false }],
      ['threes', { algorithm: 'expectimax', depth: 2, record_tree: true, random_ties: false }],
      ['reversi', { algorithm: 'alphabeta', depth: 5, record_tree: true, random_ties: false, node_cap: 300, evaluator: 'strong' }],
    ];
    const results = [];
    for (const [game, opts] of cases) {
      const e = new wasm.Engine(game);
      e.seed(7);
      const text = JSON.stringify(opts);
      // Two runs of the same search: only their times differ.
      const json = JSON.parse(e.search(text)).tree;
      const bin = e.searchBinary(text);
      e.free();
      const a = importValue(json).model;
      const b = binaryModel(bin.tree.buffer);
      let differences = [];
      let compared = 0;
      const sa = [a.root];
      const sb = [b.root];
      while (sa.length && differences.length < 5) {
        const x = sa.pop();
        const y = sb.pop();
        compared++;
        for (const k of FIELDS) {
          const u = JSON.stringify(x[k]);
          const v = JSON.stringify(y[k]);
          if (u !== v) differences.push(`node ${x.id} ${k}: ${u} vs ${v}`);
        }
        if (x.children.length !== y.children.length) differences.push(`node ${x.id}: ${x.children.length} vs ${y.children.length} children`);
        else for (let i = 0; i < x.children.length; i++) (sa.push(x.children[i]), sb.push(y.children[i]));
      }
      const kinds = new Set();
      const st = [b.root];
      while (st.length) {
        const n = st.pop();
        kinds.add(n.kind);
        st.push(...n.children);
      }
      results.push({ game, count: [a.count, b.count], compared, differences, kinds: [...kinds].sort(), stats: JSON.stringify({ ...a.stats, time_ms: 0 }) === JSON.stringify({ ...b.stats, time_ms: 0 }), chosen: JSON.stringify(a.chosen) === JSON.stringify(b.chosen), settings: JSON.stringify(a.settings) === JSON.stringify(b.settings) });
    }
    return results;
  });
  for (const r of out) {
    assert.deepEqual(r.differences, [], `${r.game}: ${r.differences.join('; ')}`);
    assert.equal(r.count[0], r.count[1]);
    assert.equal(r.compared, r.count[0]);
    assert.ok(r.stats && r.chosen && r.settings, `${r.game}: the same header`);
  }
  // What the cases cover: cut-offs and breakdowns, chance nodes, and a tree cut by its budget.
  assert.ok(out[0].kinds.includes('pruned') && out[0].kinds.includes('leaf'), out[0].kinds.join());
  assert.ok(out[1].kinds.includes('chance'), out[1].kinds.join());
  assert.ok(out[2].kinds.includes('truncated'), out[2].kinds.join());
  assert.deepEqual(errors, []);
  await context.close();
});
