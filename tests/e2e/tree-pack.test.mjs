// The packed layout of the binary tree form (www/tree/pack.js): every section of the engine's
// trees reads back exactly, the packed buffers are several times smaller, buffers in the plain
// layout (as the page stored them before) are still read, and damaged packed buffers get an error
// saying what was expected. Sizes are printed; no time is measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openApp, DESKTOP } from './harness.mjs';
import { compactToBinary } from '../../www/tree/compact.js';
import { sections, binaryModel, SECTIONS } from '../../www/tree/binary.js';
import { packTree, isPacked, CODEC } from '../../www/tree/pack.js';

const env = useBrowser();

/** Every section of two buffers equal, entry by entry (NaN equal to NaN); the first differences. */
function differences(x, y) {
  const a = sections(x);
  const b = sections(y);
  const out = [];
  if (a.n !== b.n) out.push(`n ${a.n} vs ${b.n}`);
  for (const [name] of SECTIONS) {
    const u = a.s[name];
    const v = b.s[name];
    if (u.length !== v.length) out.push(`${name}: ${u.length} vs ${v.length} entries`);
    else for (let i = 0; i < u.length; i++) if (!(u[i] === v[i] || (u[i] !== u[i] && v[i] !== v[i]))) {
      out.push(`${name}[${i}]: ${u[i]} vs ${v[i]}`);
      break;
    }
  }
  return out;
}

// A small tree with a bit of everything: cut-offs with their moves, chance probabilities,
// breakdowns shared and not, an unrecorded count, values that are not whole numbers.
const smallDoc = {
  format: 'plyscope-tree', version: 2, game: 'g', algorithm: 'alphabeta', perspective: 'x', stats: { nodes: 9 },
  terms: ['a', 'b'], layouts: [{ t: [0, 1], w: [0.5, 3] }], ordered: true,
  nodes: [
    { k: 'x', c: 3, v: 1.25, pv: 1 },
    { k: 'n', m: 'e4', c: 1, v: 1.25, a: -2.5, z: 7.1, p: [1, 0, 2, 0], pv: 1, u: 4, tw: 1, ex: 1, nw: 1 },
    { k: 'l', m: 'e5', v: 1.25, p: [1.25, 0, 2.5, 0], e: true, pv: 1 },
    { k: 'c', m: 'd5', c: 2, v: -3.3 },
    { k: 'l', m: 'x', v: 0.1, q: 0.9, e: [0, 0.2, 0] },
    { k: 'l', m: 'y', v: -34.2, q: 0.1, o: 9 },
    { k: 'p', v: 1.25, a: -2.5, z: 1, n: 2, ms: ['c3', 'c4'], by: 1 },
  ],
};

test('a small tree packs and unpacks to the same sections; a plain buffer is still read; the packed layout is marked', () => {
  const plain = compactToBinary(smallDoc);
  assert.equal(isPacked(plain), false);
  const packed = packTree(plain);
  assert.equal(isPacked(packed), true);
  assert.equal(new Uint32Array(packed, 4, 1)[0], 2, 'layout word 2');
  assert.deepEqual(differences(plain, packed), []);
  assert.equal(binaryModel(packed).root.children[0].tt_worker, 1, 'tt_worker (section 31) is kept');
  // The header is where the plain layout has it (words 4 and 5: offset and length).
  const [off, len] = new Uint32Array(packed, 16, 2);
  assert.equal(JSON.parse(new TextDecoder().decode(new Uint8Array(packed, off, len))).game, 'g');
  // Both layouts give the same model.
  const a = binaryModel(plain);
  const b = binaryModel(packed);
  assert.equal(a.count, b.count);
  assert.deepEqual(b.root.children.map((c) => [c.label, c.value, c.alpha, c.beta, c.kind]), a.root.children.map((c) => [c.label, c.value, c.alpha, c.beta, c.kind]));
  assert.deepEqual(b.byId(6).moves, ['c3', 'c4']);
  assert.deepEqual(b.byId(4).eval, a.byId(4).eval);
  // Packing a packed buffer returns it as it is.
  assert.equal(packTree(packed), packed);
});

// An MCTS tree: visits, priors and selection scores (the last sections) pack like the others.
const mctsDoc = {
  format: 'plyscope-tree', version: 2, game: 'g', algorithm: 'mcts', perspective: 'x', stats: { nodes: 4 },
  terms: [], layouts: [],
  nodes: [
    { k: 'x', c: 3, v: 0.55, N: 300, pv: 1 },
    { k: 'n', m: 'a', v: 0.6, N: 200, P: 0.5, U: 0.71, pv: 1 },
    { k: 'n', m: 'b', v: 0.45, N: 99, P: 0.3, U: 0.69 },
    { k: 'l', m: 'c', N: 0, P: 0.2 },
  ],
};

test('MCTS sections (visits, prior, uct) pack and unpack exactly; buffers written before them (28 sections) read them as none and still pack', () => {
  const plain = compactToBinary(mctsDoc);
  const packed = packTree(plain);
  assert.deepEqual(differences(plain, packed), []);
  const { s } = sections(packed);
  assert.deepEqual([...s.visits], [300, 200, 99, 0]);
  assert.deepEqual([...s.prior].slice(1), [0.5, 0.3, 0.2]);
  assert.ok(Number.isNaN(s.uct[3]) && s.uct[1] === 0.71);
  assert.equal(binaryModel(packed).root.children[0].visits, 200);
  // As the page wrote before the MCTS sections: the same buffers with 28 sections in the table.
  const old = compactToBinary(smallDoc).slice(0);
  new Uint32Array(old, 12, 1)[0] = 28;
  const o = sections(old);
  assert.equal(o.s.visits, null);
  assert.equal(o.s.note.length, o.n, 'the sections before them are read');
  const repacked = packTree(old);
  const r = sections(repacked);
  assert.ok([...r.s.visits].every(Number.isNaN), 'packed as none');
  assert.equal(binaryModel(old).root.visits, null);
  const oldPacked = packTree(compactToBinary(smallDoc)).slice(0);
  new Uint32Array(oldPacked, 12, 1)[0] = 28;
  assert.equal(sections(oldPacked).s.uct, null);
  assert.equal(binaryModel(oldPacked).root.children.length, 3);
  // Written before section 31 (ttWorker): 31 sections, read as none.
  const before31 = compactToBinary(smallDoc).slice(0);
  new Uint32Array(before31, 12, 1)[0] = 31;
  assert.equal(sections(before31).s.ttWorker, null);
  assert.ok(sections(before31).s.uct !== null);
  assert.equal(binaryModel(before31).root.tt_worker, null);
  // Written before section 32 (note2, singular extensions): 32 sections; the notes read as the
  // first byte alone.
  const before32 = compactToBinary(smallDoc).slice(0);
  new Uint32Array(before32, 12, 1)[0] = 32;
  assert.equal(sections(before32).s.note2, null);
  assert.ok(sections(before32).s.ttWorker !== null);
  assert.equal(binaryModel(before32).root.children[0].note, 1, 'the null window alone');
  assert.equal(binaryModel(compactToBinary(smallDoc)).root.children[0].note, 256 | 1, 'extended, null window');
  assert.equal(binaryModel(packTree(compactToBinary(smallDoc))).root.children[0].note, 256 | 1, 'and packed');
  // Any other count is refused.
  new Uint32Array(old, 12, 1)[0] = 30;
  assert.throws(() => sections(old), /33 sections, found 30/);
});

test('damaged packed buffers are refused with what was expected, never read past their end', () => {
  const packed = packTree(compactToBinary(smallDoc));
  const table = (buf) => new Uint32Array(buf, 16, 4 * SECTIONS.length);
  const k = SECTIONS.findIndex(([name]) => name === 'value');
  const cases = [
    ['cut short', packed.slice(0, packed.byteLength - 40)],
    ['an unknown codec', (() => { const b = packed.slice(0); table(b)[4 * k + 3] = 99; return b; })()],
    ['a section past the end', (() => { const b = packed.slice(0); table(b)[4 * k + 1] = 1 << 30; return b; })()],
    ['a count larger than its bytes', (() => { const b = packed.slice(0); table(b)[4 * k + 2] = 5000; return b; })()],
    ['a wrong section count', (() => { const b = packed.slice(0); new Uint32Array(b, 12, 1)[0] = 3; return b; })()],
  ];
  for (const [what, buf] of cases) {
    assert.throws(() => binaryModel(buf), (e) => e.name === 'TreeFormatError' && /expected|section|layout/.test(e.message), what);
  }
});

test('the engine’s trees pack to the same sections, several times smaller (Reversi depth 8, Threes, a capped tree, the whole tic-tac-toe tree)', async () => {
  const { context, page, errors } = await openApp(env, DESKTOP);
  const out = await page.evaluate(async () => {
    const wasm = await import('./pkg/plyscope.js');
    await wasm.default();
    const { sections, SECTIONS } = await import('./tree/binary.js');
    const { packTree } = await import('./tree/pack.js');
    const cases = [
      ['reversi', { algorithm: 'alphabeta', depth: 8, record_tree: true, random_ties: false, node_cap: 250000 }],
      ['threes', { algorithm: 'expectimax', depth: 2, record_tree: true, random_ties: false }],
      ['reversi', { algorithm: 'alphabeta', depth: 5, record_tree: true, random_ties: false, node_cap: 300 }],
      ['tictactoe', { algorithm: 'minimax', depth: 9, record_tree: true, random_ties: false, node_cap: 2000000 }],
    ];
    const results = [];
    for (const [game, opts] of cases) {
      const e = new wasm.Engine(game);
      e.seed(7);
      const b = e.searchBinary(JSON.stringify(opts)).tree;
      e.free();
      const plain = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
      const packed = packTree(plain);
      const x = sections(plain);
      const y = sections(packed);
      const diffs = [];
      for (const [name] of SECTIONS) {
        const u = x.s[name];
        const v = y.s[name];
        if (u.length !== v.length) diffs.push(`${name}: ${u.length} vs ${v.length}`);
        else for (let i = 0; i < u.length; i++) if (!(u[i] === v[i] || (u[i] !== u[i] && v[i] !== v[i]))) {
          diffs.push(`${name}[${i}]: ${u[i]} vs ${v[i]}`);
          break;
        }
      }
      const codecs = new Set();
      const t = new Uint32Array(packed, 16, 4 * SECTIONS.length);
      for (let k = 0; k < SECTIONS.length; k++) codecs.add(t[4 * k + 3]);
      results.push({ game, depth: opts.depth, nodes: x.n, plain: plain.byteLength, packed: packed.byteLength, diffs, codecs: [...codecs].sort() });
    }
    return results;
  });
  for (const r of out) {
    console.log(`${r.game} depth ${r.depth}: ${r.nodes} nodes, plain ${r.plain} bytes (${(r.plain / r.nodes).toFixed(1)} a node), packed ${r.packed} (${(r.packed / r.nodes).toFixed(1)} a node)`);
    assert.deepEqual(r.diffs, [], `${r.game}: ${r.diffs.join('; ')}`);
  }
  // The two large trees, where the size matters: at least four times smaller.
  assert.ok(out[0].plain / out[0].packed >= 4, `Reversi depth 8: ${out[0].plain} -> ${out[0].packed}`);
  assert.ok(out[3].plain / out[3].packed >= 4, `tic-tac-toe: ${out[3].plain} -> ${out[3].packed}`);
  assert.equal(out[3].nodes, 549946);
  // The codecs the cases use between them include the ones for repeated floats and for whole numbers.
  const used = new Set(out.flatMap((r) => r.codecs));
  for (const c of [CODEC.fill, CODEC.varint, CODEC.delta, CODEC.sparse, CODEC.dict]) assert.ok(used.has(c), `codec ${c} used`);
  // A tree stored by an older page (the plain layout, in IndexedDB) still opens: kept through the
  // page's store, read back from IndexedDB (not the memory copy) and shown in the explorer.
  const old = await page.evaluate(async () => {
    const wasm = await import('./pkg/plyscope.js');
    await wasm.default();
    const store = await import('./app/tree-store.js');
    const e = new wasm.Engine('reversi');
    const b = e.searchBinary(JSON.stringify({ algorithm: 'alphabeta', depth: 4, record_tree: true, random_ties: false })).tree;
    e.free();
    const plain = b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    const [off, len] = new Uint32Array(plain, 16, 2);
    const meta = JSON.parse(new TextDecoder().decode(new Uint8Array(plain, off, len)));
    await store.keepSearch('reversi', null, ['old-layout'], { move: 'd3', tree: { ...meta, packed: plain, nodes: new Uint32Array(plain, 8, 1)[0] } });
    const db = await new Promise((res) => {
      const req = indexedDB.open('plyscope-trees');
      req.onsuccess = () => res(req.result);
    });
    const entry = await new Promise((res) => {
      const r = db.transaction('searches').objectStore('searches').get(store.searchKey('reversi', null, ['old-layout']));
      r.onsuccess = () => res(r.result);
    });
    db.close();
    const layout = new Uint32Array(entry.doc.packed, 4, 1)[0];
    const shown = await window.plyscope.explorer.showDocument(entry.doc);
    return { layout, ok: shown.ok, nodes: shown.nodes, want: new Uint32Array(plain, 8, 1)[0], moves: window.plyscope.explorer.model().root.children.length };
  });
  assert.equal(old.layout, 1, 'stored in the plain layout');
  assert.ok(old.ok);
  assert.equal(old.nodes, old.want);
  assert.equal(old.moves, 4, 'the four opening moves of Reversi');
  assert.deepEqual(errors, []);
  await context.close();
});
