// The explorer's Download writes the compact (version 2) document (www/tree/compact-write.js), and
// what it writes reads back to the same tree: from the engine's binary form (Reversi with cut-offs
// and breakdowns, Threes with chance nodes, a tree cut by its budget), from a version-1 model, and
// on the playing page for tic-tac-toe's whole tree (549,946 nodes: 698 MB as version 1, more than
// Chromium's largest string), downloaded and opened again as a file. Fixed depths, no time limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { useBrowser, openApp, pickGame, DESKTOP } from './harness.mjs';

const env = useBrowser();

test('version 2 written from the binary form and from a version-1 model reads back to the same model, field by field', async () => {
  const { context, page, errors } = await openApp(env, DESKTOP);
  const out = await page.evaluate(async () => {
    const wasm = await import('./pkg/plyscope.js');
    await wasm.default();
    const { importValue } = await import('./tree/import.js');
    const { binaryModel } = await import('./tree/binary.js');
    const { compactToBinary } = await import('./tree/compact.js');
    const { binaryToCompactParts, modelToCompactParts } = await import('./tree/compact-write.js');
    const FIELDS = ['id', 'label', 'kind', 'value', 'bound', 'alpha', 'beta', 'prob', 'best', 'tt', 'count', 'order', 'prescore', 'eval', 'moves', 'cutoff', 'reason', 'depth', 'size', 'note', 'visits', 'prior', 'uct', 'proven'];
    const compare = (a, b, fields = FIELDS) => {
      const differences = [];
      let compared = 0;
      const sa = [a.root];
      const sb = [b.root];
      while (sa.length && differences.length < 5) {
        const x = sa.pop();
        const y = sb.pop();
        compared++;
        for (const k of fields) {
          const u = JSON.stringify(x[k]);
          const v = JSON.stringify(y[k]);
          if (u !== v) differences.push(`node ${x.id} ${k}: ${u} vs ${v}`);
        }
        if (x.children.length !== y.children.length) differences.push(`node ${x.id}: ${x.children.length} vs ${y.children.length} children`);
        else for (let i = 0; i < x.children.length; i++) (sa.push(x.children[i]), sb.push(y.children[i]));
      }
      return { differences, compared, count: [a.count, b.count], header: JSON.stringify([a.meta, a.settings, a.stats, a.chosen]) === JSON.stringify([b.meta, b.settings, b.stats, b.chosen]) };
    };
    const cases = [
      ['reversi', { algorithm: 'alphabeta', depth: 4, record_tree: true, random_ties: false }],
      ['threes', { algorithm: 'expectimax', depth: 2, record_tree: true, random_ties: false }],
      ['reversi', { algorithm: 'alphabeta', depth: 5, record_tree: true, random_ties: false, node_cap: 300, evaluator: 'strong' }],
      // MCTS with the solver: visits, priors, selection scores and proven results.
      ['tictactoe', { algorithm: 'mcts', mcts_iterations: 3000, record_tree: true, random_ties: false }],
    ];
    const results = [];
    for (const [game, opts] of cases) {
      const e = new wasm.Engine(game);
      e.seed(7);
      const text = JSON.stringify(opts);
      const bin = e.searchBinary(text);
      const json = JSON.parse(e.search(text)).tree;
      e.free();
      const buffer = bin.tree.buffer;
      const a = binaryModel(buffer);
      const v2 = binaryToCompactParts(buffer).join('');
      const doc = JSON.parse(v2);
      const b = binaryModel(compactToBinary(doc));
      const kinds = new Set();
      let proven = 0;
      let notes = 0;
      const st = [a.root];
      while (st.length) {
        const n = st.pop();
        kinds.add(n.kind);
        if (n.proven) proven++;
        if (n.note) notes++;
        st.push(...n.children);
      }
      // From a version-1 model (no binary arrays): the same tree, read back from version 2. Ids are
      // renumbered in pre-order with truncated nodes last, as the binary form numbers them, so the
      // ids and a pruned node's `cutoff.by` (an id) are compared through the node they name.
      const m1 = importValue(json).model;
      const v2b = modelToCompactParts(m1).join('');
      const c = binaryModel(compactToBinary(JSON.parse(v2b)));
      const byLabel = compare(m1, c, FIELDS.filter((k) => k !== 'id' && k !== 'cutoff'));
      results.push({ game, proven, notes, kinds: [...kinds].sort(), version: doc.version, bytes: v2.length, nodes: a.count, fromBinary: compare(a, b), fromModel: byLabel, sameText: v2 === v2b });
    }
    return results;
  });
  for (const r of out) {
    for (const [what, c] of [['from the binary form', r.fromBinary], ['from a version-1 model', r.fromModel]]) {
      assert.deepEqual(c.differences, [], `${r.game} ${what}: ${c.differences.join('; ')}`);
      assert.equal(c.count[0], c.count[1], `${r.game} ${what}: node count`);
      assert.equal(c.compared, c.count[0], `${r.game} ${what}: every node compared`);
      assert.ok(c.header, `${r.game} ${what}: the same header`);
    }
    assert.equal(r.version, 2);
    assert.ok(r.bytes / r.nodes < 200, `${r.game}: ${Math.round(r.bytes / r.nodes)} bytes a node`);
  }
  assert.ok(out[0].kinds.includes('pruned') && out[0].kinds.includes('leaf'), out[0].kinds.join());
  assert.ok(out[1].kinds.includes('chance'), out[1].kinds.join());
  assert.ok(out[2].kinds.includes('truncated'), out[2].kinds.join());
  assert.ok(out[0].notes > 0, 'the Reversi tree has search notes (null windows, reductions) to keep');
  assert.ok(out[3].proven > 0 && out[3].kinds.includes('terminal'), `the MCTS tree has proven nodes (${out[3].proven})`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('tic-tac-toe whole tree: Download saves version 2, and opening the file gives the same 549,946 nodes', async () => {
  const { context, page, errors } = await openApp(env, DESKTOP);
  await pickGame(page, 'tictactoe');
  await page.selectOption('[data-testid=side-0-level]', 'human');
  await page.selectOption('[data-testid=side-1-level]', 'human');
  await page.locator('[data-testid=whole-tree]').click();
  await page.waitForFunction(() => window.plyscope.explorer?.model()?.count === 549946, null, { timeout: 180000 });
  // Every node's facts, from the binary arrays, in a form two trees can be compared by.
  await page.evaluate(async () => {
    const { sections } = await import('./tree/binary.js');
    window.__facts = (buffer) => {
      const { n, s } = sections(buffer);
      const dec = new TextDecoder();
      const moves = [];
      for (let i = 0; i + 1 < s.moveOffsets.length; i++) moves.push(dec.decode(s.moveBytes.subarray(s.moveOffsets[i], s.moveOffsets[i + 1])));
      const names = [];
      for (let i = 0; i + 1 < s.nameOffsets.length; i++) names.push(dec.decode(s.nameBytes.subarray(s.nameOffsets[i], s.nameOffsets[i + 1])));
      const bd = (b) => {
        if (b === 0xffffffff) return 'none';
        const l = s.bdLayout[b];
        const parts = [s.bdTotal[b]];
        for (let k = s.layoutStart[l]; k < s.layoutStart[l + 1]; k++) parts.push(names[s.layoutNames[k]], s.layoutWeights[k], s.raws[s.bdAt[b] + k - s.layoutStart[l]]);
        return parts.join(' ');
      };
      return { n, s, moves, bd };
    };
    window.__orig = window.plyscope.explorer.model().buffer;
  });
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid=download-tree]').click()]);
  const dir = join('target', 'downloads');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'tictactoe-whole-tree.json');
  await download.saveAs(file);
  const bytes = statSync(file).size;
  const head = readFileSync(file, { encoding: 'utf8' }).slice(0, 200);
  assert.match(head, /^\{"format":"plyscope-tree","version":2,"game":"tictactoe"/);
  // Version 2 of the whole tree is a file a person can keep (698 MB as version 1).
  assert.ok(bytes < 120e6, `${(bytes / 1e6).toFixed(1)} MB`);
  assert.equal(download.suggestedFilename(), 'tictactoe-tree.json');
  // Open it again as a file, as a person would ("Open file…").
  await page.evaluate(() => {
    window.__loaded = false;
    const x = window.plyscope.explorer;
    const before = x.model();
    window.__wait = setInterval(() => {
      if (x.model() !== before) (window.__loaded = true), clearInterval(window.__wait);
    }, 50);
  });
  await page.locator('[data-testid=tree-panel] input[type=file]').setInputFiles(file);
  await page.waitForFunction(() => window.__loaded, null, { timeout: 180000 });
  const cmp = await page.evaluate(() => {
    const a = window.__facts(window.__orig);
    const b = window.__facts(window.plyscope.explorer.model().buffer);
    const diffs = [];
    if (a.n !== b.n) diffs.push(`count ${a.n} vs ${b.n}`);
    const same = (x, y) => x === y || (Number.isNaN(x) && Number.isNaN(y));
    for (let i = 0; i < a.n && diffs.length < 5; i++) {
      for (const k of ['parent', 'kind', 'flags', 'value', 'alpha', 'beta', 'prob', 'order', 'count']) if (!same(a.s[k][i], b.s[k][i])) diffs.push(`node ${i} ${k}: ${a.s[k][i]} vs ${b.s[k][i]}`);
      const ma = a.s.move[i] === 0xffffffff ? null : a.moves[a.s.move[i]];
      const mb = b.s.move[i] === 0xffffffff ? null : b.moves[b.s.move[i]];
      if (ma !== mb) diffs.push(`node ${i} move: ${ma} vs ${mb}`);
      for (const k of ['pre', 'eval']) if (a.bd(a.s[k][i]) !== b.bd(b.s[k][i])) diffs.push(`node ${i} ${k}: ${a.bd(a.s[k][i])} vs ${b.bd(b.s[k][i])}`);
    }
    const m = window.plyscope.explorer.model();
    return { diffs, count: m.count, rootMoves: m.root.children.map((c) => [c.label, c.value]), detected: document.querySelector('[data-testid=tree-panel]').innerText.includes('Plyscope') };
  });
  assert.deepEqual(cmp.diffs, []);
  assert.equal(cmp.count, 549946);
  assert.equal(cmp.rootMoves.length, 9);
  for (const [move, value] of cmp.rootMoves) assert.equal(value, 0, `${move} draws`);
  assert.deepEqual(errors, []);
  await context.close();
});
