// Hostile documents for the tree importers (www/tree/import.js), in node: each gets a located error
// or a safe model, every accepted model goes through the next stages (the wire form, a structured
// clone, the download) without throwing, and Object.prototype is unchanged afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelToCompactParts } from '../../www/tree/compact-write.js';
import { importText, toWire, fromWire, toDocument, MAX_TERMS, MAX_MOVES, MAX_EXTRA } from '../../www/tree/import.js';

function nativeDoc(root, extra = {}) {
  return { format: 'plyscope-tree', version: 1, game: 'test', engine: 't', algorithm: 'alphabeta', perspective: 'x', stats: { nodes: 1 }, root, ...extra };
}

/** A value nested `depth` levels deep, as JSON text (JSON.stringify itself would overflow). */
function deepText(depth, open = '{"a":', close = '}', inner = '1') {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/** Replaces the string "DEEP" (with its quotes) in `doc`'s JSON by a deep value. */
function withDeep(doc, depth = 100000, open, close) {
  return JSON.stringify(doc).replace('"DEEP"', deepText(depth, open, close));
}

/** Everything a page does with an accepted document after importing it. */
function laterStages(model) {
  const { wire, transfer } = toWire(model);
  // What postMessage does between the parse worker and the page.
  const back = fromWire(structuredClone(wire, { transfer }));
  // The breakdowns are decoded on demand: ask for each of every node.
  const stack = [back.root];
  while (stack.length) {
    const n = stack.pop();
    for (const k of ['prescore', 'eval', 'moves', 'cutoff', 'reason', 'extra']) void n[k];
    for (const c of n.children) stack.push(c);
  }
  JSON.stringify(toDocument(model));
  // The download (version 2 unless foreign data needs version 1) reads back as a tree of as many nodes.
  const parts = modelToCompactParts(model);
  if (parts) {
    const again = importText(parts.join(''));
    assert.ok(again.ok, `the version-2 download reads back: ${again.ok || again.error.message}`);
    assert.equal(again.model.count, model.count);
  }
  structuredClone({ settings: model.settings, stats: model.stats, meta: model.meta, chosen: model.chosen });
  return back;
}

const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort().join(',');

const leaf = (extra = {}) => ({ id: 1, move: 'a1', kind: 'leaf', value: 1, ...extra });

/** [name, text, expectation]: `error` (a path the error must name) or `safe` (a check of the model). */
const CASES = [
  ['a 10^5-deep value in a term', withDeep(nativeDoc({ id: 0, kind: 'max', value: 1, children: [leaf({ prescore: { total: 1, terms: [{ name: 'm', raw: 1, weight: 1, value: 1, x: 'DEEP' }] } })] })), {
    safe: (m) => assert.deepEqual(Object.keys(m.root.children[0].prescore.terms[0]).sort(), ['name', 'raw', 'value', 'weight']),
  }],
  ['a 10^5-deep cutoff.by', withDeep(nativeDoc({ id: 0, kind: 'max', value: 1, children: [leaf({ kind: 'pruned', cutoff: { by: 'DEEP', value: 1 } })] })), {
    safe: (m) => assert.ok(m.root.children[0].cutoff.by.length <= 201),
  }],
  ['a 10^5-deep array in stats', withDeep(nativeDoc({ id: 0, kind: 'leaf', value: 1 }, { stats: { nodes: 1, odd: 'DEEP' } }), 100000, '[', ']'), {
    safe: (m) => assert.equal(typeof m.stats.odd, 'string'),
  }],
  ['a 10^5-deep value in settings', withDeep(nativeDoc({ id: 0, kind: 'leaf', value: 1 }, { settings: { depth: 3, odd: 'DEEP' } })), {
    safe: (m) => assert.ok(m.settings.every(([, v]) => typeof v !== 'object' || v === null)),
  }],
  ['a 10^5-deep value in data', withDeep(nativeDoc({ id: 0, kind: 'leaf', value: 1, data: { odd: 'DEEP' } })), {
    safe: (m) => assert.ok(m.root.extra[0][1].length <= 201),
  }],
  ['a 10^5-deep value in a foreign tree', withDeep({ name: 'root', children: [{ name: 'a', value: 1, odd: 'DEEP' }] }), {
    safe: (m) => assert.ok(m.root.children[0].extra.every(([, v]) => v.length <= 201)),
  }],
  ['too many terms', JSON.stringify(nativeDoc({ id: 0, kind: 'leaf', value: 1, eval: { total: 0, terms: Array.from({ length: MAX_TERMS + 1 }, () => ({ name: 't', raw: 0, weight: 0, value: 0 })) } })), {
    error: '$.root.eval.terms',
  }],
  ['too many moves', JSON.stringify(nativeDoc({ id: 0, kind: 'leaf', value: 1, moves: Array.from({ length: MAX_MOVES + 1 }, () => 'a1') })), {
    error: '$.root.moves',
  }],
  ['a huge data object', JSON.stringify(nativeDoc({ id: 0, kind: 'leaf', value: 1, data: Object.fromEntries(Array.from({ length: 100000 }, (_, i) => [`k${i}`, i])) })), {
    safe: (m) => assert.equal(m.root.extra.length, MAX_EXTRA + 1),
  }],
  ['a huge array in data', JSON.stringify(nativeDoc({ id: 0, kind: 'leaf', value: 1, data: { big: Array.from({ length: 1000000 }, (_, i) => i) } })), {
    safe: (m) => assert.ok(m.root.extra[0][1].length <= 201),
  }],
  ['prototype keys everywhere', '{"format":"plyscope-tree","version":1,"game":"t","engine":"t","algorithm":"a","perspective":"x","__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"stats":{"nodes":1,"__proto__":{"polluted":1}},"settings":{"__proto__":{"polluted":1},"constructor":1},"root":{"id":0,"kind":"max","value":1,"__proto__":{"polluted":1},"data":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}},"children":[{"id":1,"kind":"leaf","value":1,"move":"__proto__","prescore":{"total":1,"terms":[{"name":"__proto__","raw":1,"weight":1,"value":1,"__proto__":{"polluted":1}}]}}]}}', {
    safe: (m) => {
      assert.equal(m.root.children[0].label, '__proto__');
      assert.equal({}.polluted, undefined);
    },
  }],
  ['prototype keys in foreign formats', '{"name":"r","__proto__":{"polluted":1},"children":[{"name":"__proto__","value":1,"constructor":{"prototype":{"polluted":1}}}]}', {
    safe: () => assert.equal({}.polluted, undefined),
  }],
  ['prototype keys in an MCTS dump', '{"N":2,"Q":0.5,"__proto__":{"polluted":1},"children":[{"move":"constructor","N":1,"Q":1,"prototype":{"polluted":1}}]}', {
    safe: () => assert.equal({}.polluted, undefined),
  }],
  ['HTML in labels and data', JSON.stringify(nativeDoc({ id: 0, kind: 'max', value: 1, data: { note: '<script>alert(1)</script>' }, children: [leaf({ move: '<img src=x onerror=alert(1)>' })] })), {
    safe: (m) => assert.equal(m.root.children[0].label, '<img src=x onerror=alert(1)>'),
  }],
  ['raw 1e200 times weight 1e200', JSON.stringify(nativeDoc({ id: 0, kind: 'leaf', value: 1, prescore: { total: 1, terms: [{ name: 'big', raw: '1e200', weight: '1e200' }] } })), {
    error: '$.root.prescore.terms[0]',
  }],
  ['term values whose sum overflows', JSON.stringify(nativeDoc({ id: 0, kind: 'leaf', value: 1, eval: { total: 1, terms: [{ name: 'a', raw: 1, weight: 1, value: 1.5e308 }, { name: 'b', raw: 1, weight: 1, value: 1.5e308 }] } })), {
    error: '$.root.eval.terms[1].value',
  }],
  ['a number too large for a double', '{"format":"plyscope-tree","version":1,"stats":{},"root":{"id":0,"kind":"leaf","value":1e400}}', {
    error: '$.root.value',
  }],
  ['a numeric string too large for a double', JSON.stringify(nativeDoc({ id: 0, kind: 'leaf', value: 1, eval: { total: '1e400', terms: [] } })), {
    error: '$.root.eval.total',
  }],
  ['an MCTS mean that overflows', '{"N":1e-320,"W":1e300,"children":[]}', {
    error: '$.W',
  }],
  ['wrong types: children', JSON.stringify(nativeDoc({ id: 0, kind: 'max', value: 1, children: { a: 1 } })), { error: '$.root.children' }],
  ['wrong types: kind', JSON.stringify(nativeDoc({ id: 0, kind: 7, value: 1 })), { error: '$.root.kind' }],
  ['wrong types: value', JSON.stringify(nativeDoc({ id: 0, kind: 'leaf', value: 'high' })), { error: '$.root.value' }],
  ['wrong types: terms', JSON.stringify(nativeDoc({ id: 0, kind: 'leaf', value: 1, eval: { terms: 'many' } })), { error: '$.root.eval.terms' }],
  ['wrong types: a term name', JSON.stringify(nativeDoc({ id: 0, kind: 'leaf', value: 1, eval: { terms: [{ name: {}, raw: 1, weight: 1 }] } })), { error: '$.root.eval.terms[0].name' }],
  ['wrong types: moves', JSON.stringify(nativeDoc({ id: 0, kind: 'leaf', value: 1, moves: 'a1 b2' })), { error: '$.root.moves' }],
  ['wrong types: stats', JSON.stringify(nativeDoc({ id: 0, kind: 'leaf', value: 1 }, { stats: [1, 2] })), { error: '$.stats' }],
  ['wrong types: a string root', '"root"', { error: '$' }],
  ['a tree 10^5 deep', (() => {
    let t = '{"id":100000,"kind":"leaf","value":0}';
    const open = [];
    for (let i = 0; i < 100000; i++) open.push(`{"id":${i},"kind":"max","value":0,"children":[`);
    return `{"format":"plyscope-tree","version":1,"stats":{},"root":${open.join('')}${t}${']}'.repeat(100000)}}`;
  })(), {
    // The download of a tree this deep would need JSON.stringify to go 10^5 levels down: checked
    // apart (the wire form and the explorer are iterative).
    safe: (m) => assert.equal(m.count, 100001),
    skipDownload: true,
  }],
];

for (const [name, text, want] of CASES) {
  test(`hostile document: ${name}`, () => {
    const r = importText(text);
    if (want.error) {
      assert.equal(r.ok, false, `${name} should be refused`);
      assert.ok(r.error.message.includes(want.error), `${name}: ${r.error.message} should name ${want.error}`);
      assert.ok(r.error.message.length < 500, r.error.message);
    } else {
      assert.equal(r.ok, true, `${name}: ${r.ok ? '' : r.error.message}`);
      want.safe(r.model);
      if (want.skipDownload) {
        const { wire, transfer } = toWire(r.model);
        structuredClone(wire, { transfer });
      } else laterStages(r.model);
    }
    assert.equal(Object.getOwnPropertyNames(Object.prototype).sort().join(','), protoBefore, 'Object.prototype is unchanged');
    assert.equal({}.polluted, undefined);
  });
}

test('a document over the budget is refused with its size and the budget', () => {
  const doc = JSON.stringify(nativeDoc({ id: 0, kind: 'max', value: 0, children: Array.from({ length: 20 }, (_, i) => ({ id: i + 1, kind: 'leaf', value: i })) }));
  let r = importText(doc, { maxChars: 100 });
  assert.equal(r.ok, false);
  assert.equal(r.error.kind, 'budget');
  assert.match(r.error.message, new RegExp(`\\(${doc.length.toLocaleString('en-US')} characters\\), more than the page's budget of 0\\.1 kB`));
  r = importText(doc, { maxNodes: 10 });
  assert.equal(r.error.kind, 'budget');
  assert.match(r.error.message, /at least 21 nodes, more than the page's budget of 10 nodes/);
  r = importText(doc, { maxNodes: 21, maxChars: doc.length });
  assert.equal(r.ok, true);
  // Foreign graph form: counted before it is read.
  r = importText(JSON.stringify(Array.from({ length: 30 }, (_, i) => ({ id: i, name: `n${i}`, adjacencies: i ? [i - 1] : [] }))), { maxNodes: 10 });
  assert.equal(r.error.kind, 'budget');
});
