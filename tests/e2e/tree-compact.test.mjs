// The explorer's reader of compact (version 2) documents (www/tree/compact.js into the binary form,
// read by www/tree/binary.js), under node's test runner: the same search written by the CLI in
// version 1 and version 2 (tests/e2e/data/*-v1.json, *-v2.json; regenerate with
// `plyscope search <game> ... --tree f --tree-format v1|v2`) gives the same model, field by field;
// broken documents get the JSON path of their first problem; the model is built lazily.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { importText } from '../../www/tree/import.js';
import { compactToBinary } from '../../www/tree/compact.js';
import { binaryModel, isBinaryTree } from '../../www/tree/binary.js';

const data = (name) => readFileSync(new URL(`./data/${name}`, import.meta.url), 'utf8');
const FIELDS = ['id', 'label', 'kind', 'value', 'bound', 'alpha', 'beta', 'prob', 'best', 'tt', 'count', 'order', 'prescore', 'eval', 'moves', 'cutoff', 'reason', 'depth', 'size', 'visits', 'prior', 'uct'];

/** Field-by-field differences of two models (at most a few). */
function differences(a, b) {
  const out = [];
  const sa = [a.root];
  const sb = [b.root];
  let compared = 0;
  while (sa.length && out.length < 5) {
    const x = sa.pop();
    const y = sb.pop();
    compared++;
    for (const k of FIELDS) {
      const u = JSON.stringify(x[k]);
      const v = JSON.stringify(y[k]);
      if (u !== v) out.push(`node ${x.id} ${k}: ${u} vs ${v}`);
    }
    if (x.children.length !== y.children.length) out.push(`node ${x.id}: ${x.children.length} vs ${y.children.length} children`);
    else for (let i = 0; i < x.children.length; i++) (sa.push(x.children[i]), sb.push(y.children[i]));
  }
  return { out, compared };
}

for (const [game, covers] of [['reversi', 'truncated'], ['threes', 'chance'], ['tictactoe', 'pruned'], ['tictactoe-mcts', 'leaf']]) {
  test(`${game}: version 2 reads into the same model as version 1 of the same search (with ${covers} nodes)`, () => {
    const v1 = importText(data(`${game}-v1.json`));
    const v2 = importText(data(`${game}-v2.json`));
    assert.ok(v1.ok && v2.ok, JSON.stringify([v1.error, v2.error]));
    const a = v1.model;
    const b = v2.model;
    assert.ok(b.binaryBytes > 0, 'version 2 went through the binary form');
    assert.equal(b.count, a.count);
    const { out, compared } = differences(a, b);
    assert.deepEqual(out, []);
    assert.equal(compared, a.count);
    for (const k of ['meta', 'settings', 'chosen']) assert.deepEqual(b[k], a[k], k);
    // Two runs of the same search (one a document): only their times differ.
    assert.deepEqual({ ...b.stats, time_ms: 0 }, { ...a.stats, time_ms: 0 });
    const kinds = [];
    const st = [b.root];
    while (st.length) {
      const n = st.pop();
      kinds.push(n.kind);
      st.push(...n.children);
    }
    assert.ok(kinds.includes(covers), `the case has ${covers} nodes`);
    assert.deepEqual([...new Set(kinds)].sort(), [...b.kindsPresent].sort());
  });
}

test('the parse worker form: version 2 comes back as one buffer in binary form', () => {
  const r = importText(data('threes-v2.json'), {}, { packed: true });
  assert.ok(r.ok);
  assert.ok(isBinaryTree(r.packed));
  assert.equal(binaryModel(r.packed).count, importText(data('threes-v1.json')).model.count);
});

test('nodes are made as they are opened: a large tree costs typed arrays, not objects', () => {
  // A root with 1,000 children of 100 leaves each: 101,001 nodes.
  const nodes = [{ k: 'x', c: 1000, v: 1, pv: 1 }];
  for (let i = 0; i < 1000; i++) {
    nodes.push({ k: 'n', m: `m${i}`, c: 100, v: i === 0 ? 1 : 0, ...(i === 0 ? { pv: 1 } : {}) });
    for (let j = 0; j < 100; j++) nodes.push({ k: 'l', m: `r${j}`, v: j === 0 && i === 0 ? 1 : 0 });
  }
  const model = binaryModel(compactToBinary({ format: 'plyscope-tree', version: 2, game: 'g', algorithm: 'minimax', perspective: 'x', stats: { nodes: 101000 }, nodes }));
  assert.equal(model.count, 101001);
  assert.equal(model.root.size, 101001);
  assert.equal(model.maxDepth, 2);
  assert.deepEqual(model.kindsPresent, ['max', 'min', 'leaf']);
  const made = () => model.root._t.nodes.filter(Boolean).length;
  assert.equal(made(), 1, 'only the root at first');
  assert.equal(model.root.children.length, 1000);
  assert.equal(made(), 1001);
  // A node by id makes its ancestors' children only.
  const n = model.byId(1 + 500 * 101 + 1 + 7);
  assert.equal(n.label, 'r7');
  assert.equal(n.parent.label, 'm500');
  assert.equal(n.parent.size, 101);
  assert.equal(made(), 1101);
  assert.equal(model.root.children[500].children[7], n, 'the same object when reached again');
});

test('a broken version-2 document gets the JSON path of its first problem, never a half-read tree', () => {
  const base = { format: 'plyscope-tree', version: 2, game: 'g', algorithm: 'minimax', perspective: 'x', stats: {}, terms: ['a', 'b'], layouts: [{ t: [0, 1], w: [1, 2] }] };
  const cases = [
    [{ nodes: [] }, /\$\.nodes: expected at least the root node/],
    [{ nodes: [{ k: 'q' }] }, /\$\.nodes\[0\]\.k: expected one of x, n, c, l, t, p/],
    [{ nodes: [{ k: 'x', c: 1 }, { k: 'l', p: [1, 0, 5] }] }, /\$\.nodes\[1\]\.p: expected 2 raw values after the layout index/],
    [{ nodes: [{ k: 'x', c: 1 }, { k: 'l', p: [1, 3, 5, 5] }] }, /\$\.nodes\[1\]\.p: expected a layout index below 1/],
    [{ nodes: [{ k: 'x', c: 2 }, { k: 'l' }] }, /\$\.nodes\[0\]\.c: expected no more children than nodes that follow/],
    [{ nodes: [{ k: 'x', c: 1 }, { k: 'l' }, { k: 'l' }] }, /\$\.nodes\[2\]: expected a node inside the root's subtree/],
    [{ nodes: [{ k: 'x', c: 2 }, { k: 'l' }, { k: 'p', ms: ['a'], by: 0 }] }, /\$\.nodes\[2\]\.by: expected the index of an earlier sibling/],
    [{ nodes: [{ k: 'x', c: 1 }, { k: 'l', e: true }] }, /\$\.nodes\[1\]\.e: expected a pre-score \(p\) to share/],
    [{ nodes: [{ k: 'x', v: 'high' }] }, /\$\.nodes\[0\]\.v: expected a finite number/],
    [{ layouts: [{ t: [0, 9], w: [1, 1] }], nodes: [{ k: 'x' }] }, /\$\.layouts\[0\]\.t: expected term indices below 2/],
  ];
  for (const [part, re] of cases) {
    const r = importText(JSON.stringify({ ...base, ...part }));
    assert.equal(r.ok, false, JSON.stringify(part));
    assert.equal(r.error.kind, 'structure');
    assert.match(r.error.message, re);
  }
  // Over the node budget: refused with its size.
  const big = { ...base, nodes: [{ k: 'x', c: 3 }, { k: 'l' }, { k: 'l' }, { k: 'l' }] };
  const r = importText(JSON.stringify(big), { maxNodes: 3 });
  assert.equal(r.ok, false);
  assert.equal(r.error.kind, 'budget');
});

test('a buffer that is not a binary tree is refused with what was expected', () => {
  assert.throws(() => binaryModel(new ArrayBuffer(8)), /at least 16 bytes/);
  const buf = compactToBinary({ format: 'plyscope-tree', version: 2, game: 'g', algorithm: 'minimax', perspective: 'x', stats: {}, nodes: [{ k: 'x', c: 1 }, { k: 'l' }] });
  const bad = buf.slice(0);
  new Uint32Array(bad, 0, 1)[0] = 7;
  assert.throws(() => binaryModel(bad), /magic word/);
  const short = buf.slice(0, buf.byteLength - 64);
  assert.throws(() => binaryModel(short), /inside the buffer/);
  // A parent after its child.
  const loop = buf.slice(0);
  const w = new Uint32Array(loop, 0, 8);
  new Int32Array(loop, w[6], 2)[1] = 1;
  assert.throws(() => binaryModel(loop), /node 1: a parent before it/);
});

test('an MCTS tree keeps its visits, priors and selection scores through version 2 (N, P, U)', () => {
  const r = importText(data('tictactoe-mcts-v2.json'));
  assert.ok(r.ok, JSON.stringify(r.error));
  const root = r.model.root;
  assert.equal(root.visits, 300);
  assert.equal(root.children.reduce((a, c) => a + c.visits, 0), 300);
  assert.ok(root.children.every((c) => c.prior > 0 && c.prior < 1 && Number.isFinite(c.uct)));
  assert.match(r.model.chosen.reason, /^most visits: \d+ of 300$/);
  // A visit count that is not a whole number is refused with its path.
  const doc = JSON.parse(data('tictactoe-mcts-v2.json'));
  doc.nodes[1].N = 2.5;
  const bad = importText(JSON.stringify(doc));
  assert.equal(bad.ok, false);
  assert.match(bad.error.message, /nodes\[1\]\.N/);
});
