// The engine builds (scripts/build-wasm.sh): the worker loads the threads build (SIMD and shared
// memory) in a cross-origin isolated page, the WebAssembly SIMD build where the browser runs it
// (Chromium does) with ?threads=0, the scalar one with ?simd=0, and both builds count the same
// perft leaves for every game of the catalogue from its start. Counts only: speed is a benchmark
// (scripts/wasm-bench.mjs), not a test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp } from './harness.mjs';

const env = useBrowser();

test('the worker runs the threads build in an isolated page, the SIMD build with ?threads=0 and the scalar one with ?simd=0', async () => {
  const threads = await openApp(env);
  // scripts/serve.py makes the page cross-origin isolated; the threads build is there unless it was
  // skipped (no nightly toolchain, or THREADS=0), and then the SIMD build runs.
  const isolated = await threads.page.evaluate(() => self.crossOriginIsolated);
  assert.equal(isolated, true, 'the dev server sends COOP and COEP');
  const hasThreads = await threads.page.evaluate(async () => (await fetch('/pkg/threads/plyscope.js')).ok);
  assert.equal(await threads.page.evaluate(() => window.plyscope.client.build()), hasThreads ? 'threads' : 'simd');
  if (hasThreads) await threads.page.waitForFunction(() => /shared-memory threads/.test(document.getElementById('engine-build').textContent));
  assert.deepEqual(threads.errors, []);
  await threads.context.close();

  const simd = await openApp(env, undefined, `${env.server.url}?threads=0`);
  assert.equal(await simd.page.evaluate(() => window.plyscope.client.build()), 'simd');
  await simd.page.waitForFunction(() => /SIMD/.test(document.getElementById('engine-build').textContent));
  assert.deepEqual(simd.errors, []);
  await simd.context.close();

  const scalar = await openApp(env, undefined, `${env.server.url}?simd=0`);
  assert.equal(await scalar.page.evaluate(() => window.plyscope.client.build()), 'scalar');
  assert.deepEqual(scalar.errors, []);
  await scalar.context.close();
});

test('the SIMD and scalar builds count the same perft leaves in every game', async () => {
  const { context, page, errors } = await openApp(env);
  const rows = await page.evaluate(async () => {
    const scalar = await import('/pkg/plyscope.js');
    await scalar.default();
    const simd = await import('/pkg/simd/plyscope.js');
    await simd.default();
    const out = [];
    for (const g of JSON.parse(JSON.stringify(scalar.Engine.catalogue()))) {
      for (const id of [g.id, ...(g.variants || []).slice(0, 1).map((v) => v.id)]) {
        const a = new scalar.Engine(id);
        const b = new simd.Engine(id);
        // The same start (Threes deals its start at random).
        b.setPosition(a.position());
        // Deeper until a level counts over 100,000 leaves: every kind of move, and a small cost
        // on a slow machine (the last level is at most a few million leaves, bulk-counted).
        const counts = [];
        for (let d = 1; d <= 9; d++) {
          const x = a.perft(d);
          const y = b.perft(d);
          counts.push([x, y]);
          if (x > 1e5) break;
        }
        a.free();
        b.free();
        out.push({ id, counts });
      }
    }
    return out;
  });
  assert.ok(rows.length >= 8, `every game was counted: ${rows.map((r) => r.id).join(', ')}`);
  for (const { id, counts } of rows) {
    for (const [d, [x, y]] of counts.entries()) assert.equal(y, x, `${id} perft ${d + 1}: SIMD ${y}, scalar ${x}`);
    assert.ok(counts[0][0] > 0, `${id}: perft found moves`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the SIMD and scalar builds search alike: Reversi midgame and endgame, an Ataxx midgame (its network evaluation), same move, value and nodes', async () => {
  const { context, page, errors } = await openApp(env);
  const rows = await page.evaluate(async () => {
    const scalar = await import('/pkg/plyscope.js');
    await scalar.default();
    const simd = await import('/pkg/simd/plyscope.js');
    await simd.default();
    const cases = [
      { game: 'reversi', moves: ['f5', 'd6', 'c3', 'd3', 'c4', 'f4', 'c5', 'b3', 'c2', 'e6', 'c6', 'b4'], depth: 6 },
      { game: 'reversi-6', moves: [], depth: 7 },
      // Ataxx's `nnue` sums its hidden layer with WebAssembly SIMD in the SIMD build.
      { game: 'ataxx', moves: 'b6 b2 c5 b3 c4 b2b4 b5 c3 d4 b3d3 b5b3 d3b5 a7c6 d4b2'.split(' '), depth: 7 },
    ];
    const out = [];
    for (const c of cases) {
      // A fixed seed: the same draw among equally good moves.
      const one = (m) => {
        const e = new m.Engine(c.game);
        for (const x of c.moves) e.play(x);
        const r = JSON.parse(e.search(JSON.stringify({ algorithm: 'alphabeta', depth: c.depth, time_ms: null, record_tree: false, seed: 7 })));
        e.free();
        return { move: r.move, value: r.value, nodes: r.stats.nodes };
      };
      out.push({ game: c.game, scalar: one(scalar), simd: one(simd) });
    }
    return out;
  });
  for (const r of rows) {
    assert.ok(r.scalar.nodes > 100, `${r.game}: a real search (${r.scalar.nodes} nodes)`);
    assert.deepEqual(r.simd, r.scalar, `${r.game}: SIMD ${JSON.stringify(r.simd)}, scalar ${JSON.stringify(r.scalar)}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
