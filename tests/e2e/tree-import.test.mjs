// Unit tests of the tree importers (www/tree/import.js) and number formats (www/tree/format.js), in node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';
import { importText, importValue, detectFormat, parseJson, findJsonError, lineColumn, toDocument, toWire, fromWire, JsonSyntaxError } from '../../www/tree/import.js';
import { scoreText, valueText, differenceText, valueScale, useScale, scaleInUse, isMate, compactNumber, boundedScore, windowText, percent, percentShort } from '../../www/tree/format.js';

const EXAMPLES = join(ROOT, 'www', 'examples');
const load = (name) => readFileSync(join(EXAMPLES, name), 'utf8');

function walk(root) {
  const out = [];
  const stack = [root];
  while (stack.length) {
    const n = stack.pop();
    out.push(n);
    for (let k = n.children.length - 1; k >= 0; k--) stack.push(n.children[k]);
  }
  return out;
}

function nativeDoc(root, extra = {}) {
  return { format: 'plyscope-tree', version: 1, game: 'test', engine: 't', algorithm: 'alphabeta', perspective: 'x', stats: { nodes: 1 }, root, ...extra };
}

test('every bundled example imports, with the format its name says', () => {
  const expected = {
    'tictactoe-alphabeta.json': 'plyscope-tree',
    'tictactoe-alphabeta-depth3.json': 'plyscope-tree',
    'reversi-alphabeta.json': 'plyscope-tree',
    'threes-expectimax.json': 'plyscope-tree',
    'jit-tree.json': 'jit-tree',
    'jit-graph.json': 'jit-graph',
    'd3-flare.json': 'd3-flare',
    'react-d3-tree.json': 'react-d3-tree',
    'mcts.json': 'mcts',
  };
  const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json') && f !== 'index.json');
  assert.deepEqual(files.sort(), Object.keys(expected).sort());
  for (const f of files) {
    const r = importText(load(f));
    assert.ok(r.ok, `${f}: ${r.error && r.error.message}`);
    assert.equal(r.model.format, expected[f], f);
    const nodes = walk(r.model.root);
    assert.equal(nodes.length, r.model.count, `${f}: count`);
    assert.equal(r.model.root.size, r.model.count, `${f}: subtree size of the root`);
    for (const n of nodes) for (const c of n.children) assert.equal(c.parent, n);
  }
});

test('the native document keeps everything the tooltip shows', () => {
  const r = importText(load('tictactoe-alphabeta.json'));
  const raw = JSON.parse(load('tictactoe-alphabeta.json'));
  const m = r.model;
  assert.equal(m.meta.game, 'tictactoe');
  assert.equal(m.meta.algorithm, 'alphabeta');
  assert.equal(m.stats.nodes, raw.stats.nodes);
  assert.equal(m.chosen.move, raw.chosen.move);
  // Every node of the raw document, in order, matches the model.
  const rawNodes = [];
  const stack = [raw.root];
  while (stack.length) {
    const n = stack.pop();
    rawNodes.push(n);
    for (let k = (n.children || []).length - 1; k >= 0; k--) stack.push(n.children[k]);
  }
  const nodes = walk(m.root);
  assert.equal(nodes.length, rawNodes.length);
  nodes.forEach((n, i) => {
    const o = rawNodes[i];
    assert.equal(n.id, o.id);
    assert.equal(n.kind, o.kind);
    assert.equal(n.label, o.move ?? null);
    assert.equal(n.value, o.value ?? null);
    assert.equal(n.best, o.best === true);
    if (o.prescore) assert.deepEqual(n.prescore.terms.map((t) => t.name), o.prescore.terms.map((t) => t.name));
    if (o.cutoff) assert.equal(n.cutoff.by, o.cutoff.by);
  });
  // The pruned nodes of an engine document name the sibling that caused the cut.
  const pruned = nodes.filter((n) => n.kind === 'pruned' && n.cutoff && n.cutoff.by !== null);
  assert.ok(pruned.length > 0);
  for (const p of pruned) assert.ok(p.parent.children.some((s) => s.id === p.cutoff.by), `cutoff.by ${p.cutoff.by} is a sibling`);
});

test('JSON syntax errors name line, column and what was expected', () => {
  const text = '{\n  "format": "plyscope-tree",\n  "root": { "id": 0, "kind": "max", }\n}';
  const r = importText(text);
  assert.equal(r.ok, false);
  assert.equal(r.error.line, 3);
  assert.equal(r.error.column, 37);
  assert.match(r.error.message, /line 3, column 37/);
  assert.match(r.error.message, /expected a property name/);
  // The position agrees with JSON.parse's own.
  let pos = null;
  try {
    JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec(e.message);
    if (m) pos = Number(m[1]);
  }
  if (pos !== null) assert.equal(r.error.offset, pos);

  const cases = [
    ['', 1, 1, /a JSON document/],
    ['[1, 2', 1, 6, /',' or '\]'/],
    ['{"a" 1}', 1, 6, /':'/],
    ['{"a": 1}}', 1, 9, /the end of the text/],
    ['{"a": tru}', 1, 7, /a value/],
    ['{"a": "x\ny"}', 1, 9, /control characters/],
    ['{\n\n   "a": 01}', 3, 10, /digits|',' or '}'/],
    ['{"a": 1,\n "b": [1,]}', 2, 10, /a value/],
  ];
  for (const [t, line, col, re] of cases) {
    const e = importText(t);
    assert.equal(e.ok, false, t);
    assert.equal(e.error.line, line, `line of ${JSON.stringify(t)}: ${e.error.message}`);
    assert.equal(e.error.column, col, `column of ${JSON.stringify(t)}: ${e.error.message}`);
    assert.match(e.error.message, re, t);
  }
});

test('the scanner accepts what JSON.parse accepts', () => {
  for (const t of ['{}', '[]', '[1,-2.5e+3,"a\\u00e9\\n",true,false,null,{"x":[{}]}]', '  "s"  ', '0', load('reversi-alphabeta.json')]) {
    assert.equal(findJsonError(t), null, t.slice(0, 40));
    JSON.parse(t);
  }
  assert.throws(() => parseJson('{'), JsonSyntaxError);
  assert.deepEqual(lineColumn('ab\ncd', 4), { line: 2, column: 2 });
});

test('structural problems name the JSON path and what was expected', () => {
  const bad = [
    [nativeDoc({ id: 0, kind: 'max', children: [{ id: 1, kind: 'bogus' }] }), '$.root.children[0].kind', /one of max, min/],
    [nativeDoc({ id: 0, kind: 'max', children: [{ id: 1, kind: 'leaf', value: '3' }] }), '$.root.children[0].value', /finite number/],
    [nativeDoc({ id: 0, kind: 'max', children: {} }), '$.root.children', /array of nodes/],
    [nativeDoc({ id: 0, kind: 'max', children: [{ id: 1, kind: 'leaf' }, { id: 1, kind: 'leaf' }] }), '$.root.children[1].id', /unique id/],
    [nativeDoc({ id: 0, kind: 'leaf', eval: { total: 1, terms: [{ raw: 1 }] } }), '$.root.eval.terms[0].name', /a string/],
    [nativeDoc({ id: 0, kind: 'leaf', bound: 'maybe' }), '$.root.bound', /exact, lower or upper/],
    [nativeDoc({ id: 0, kind: 'max' }, { version: 3 }), '$.version', /version 1 or 2/],
    // Version 2 is the compact form: a flat node list, not a nested root.
    [nativeDoc({ id: 0, kind: 'max' }, { version: 2 }), '$.nodes', /at least the root node/],
    [{ format: 'plyscope-tree', version: 1, root: 5 }, '$.root', /root node object/],
    [42, '$', /a search tree/],
    [{ hello: 'world' }, '$', /a search tree/],
    [[{ id: 'a', name: 'A', adjacencies: [{ nodeTo: 'zz' }] }], '$[0].adjacencies[0].nodeTo', /the id of a node/],
    [{ move: null, N: 'many', children: [] }, '$.N', /number of visits/],
    [{ id: 'r', name: 'R', data: [], children: [] }, '$.data', /an object/],
  ];
  for (const [doc, path, re] of bad) {
    const r = importValue(doc);
    assert.equal(r.ok, false, path);
    assert.equal(r.error.path, path, r.error.message);
    assert.match(r.error.message, re);
  }
});

test('JIT tree JSON: name is the label, data.score the value, $-keys ignored, other data kept', () => {
  const doc = {
    id: 'n0',
    name: 'Root',
    data: { score: 12, $color: '#f00', nodes: 40 },
    children: [
      { id: 'n1', name: 'wQ -bA1', data: { ply: 'wQ -bA1', value: '-3.5', queenMobility: 3, $area: 2 }, children: [] },
      { id: 'n2', name: '', data: { move: 'wA1 bQ/', score: 7, type: 'min' }, children: [{ id: 'n3', name: 'leaf', data: { score: 7 } }] },
    ],
  };
  assert.equal(detectFormat(doc), 'jit-tree');
  const m = importValue(doc).model;
  assert.equal(m.formatName, 'JIT tree');
  assert.equal(m.root.label, 'Root');
  assert.equal(m.root.value, 12);
  assert.deepEqual(m.root.extra, [['nodes', '40']]);
  const [a, b] = m.root.children;
  assert.equal(a.value, -3.5);
  assert.deepEqual(a.extra, [['queenMobility', '3']]);
  assert.equal(a.kind, 'leaf');
  assert.equal(b.label, 'wA1 bQ/', 'an empty name falls back on data.move');
  assert.equal(b.kind, 'min');
  assert.equal(m.root.kind, 'max');
  assert.equal(m.root.inferred, true);
  // No best line was marked: it is inferred from the values (the root's 12 is nobody's here).
  assert.equal(a.best, false);
  assert.equal(b.best, false);
  const line = importValue({ id: 'r', name: 'r', data: { score: 7, type: 'max' }, children: [
    { id: 'a', name: 'a', data: { score: 3, type: 'min' }, children: [{ id: 'a1', name: 'a1', data: { score: 3 } }] },
    { id: 'b', name: 'b', data: { score: 7, type: 'min' }, children: [{ id: 'b1', name: 'b1', data: { score: 9 } }, { id: 'b2', name: 'b2', data: { score: 7 } }] },
  ] }).model;
  assert.deepEqual([line.root.best, ...line.root.children.map((c) => c.best), ...line.root.children[1].children.map((c) => c.best)], [true, false, true, false, true]);
  assert.match(line.meta.best_line, /inferred/);
});

test('JIT graph form: adjacencies as objects or ids, listed on one or both ends', () => {
  const doc = [
    { id: 'r', name: 'root', data: { score: 1 }, adjacencies: [{ nodeTo: 'a', data: { $color: '#000' } }, 'b'] },
    { id: 'a', name: 'a', data: { score: 1 }, adjacencies: [{ nodeTo: 'r' }, { nodeTo: 'c' }] },
    { id: 'b', name: 'b', data: { score: -2 } },
    { id: 'c', name: 'c', data: { score: 1 } },
    { id: 'lonely', name: 'x', data: {} },
  ];
  assert.equal(detectFormat(doc), 'jit-graph');
  const m = importValue(doc).model;
  assert.equal(m.count, 4);
  assert.deepEqual(m.root.children.map((c) => c.label), ['a', 'b']);
  assert.deepEqual(m.root.children[0].children.map((c) => c.label), ['c']);
  assert.match(m.meta.note, /1 node/);
  // The root is the node nothing points to, wherever it is in the array.
  const shuffled = importValue([
    { id: 'b', name: 'b', adjacencies: [] },
    { id: 'r', name: 'root', adjacencies: [{ nodeTo: 'b' }, { nodeTo: 'a' }] },
    { id: 'a', name: 'a', adjacencies: [] },
  ]).model;
  assert.equal(shuffled.root.label, 'root');
  assert.deepEqual(shuffled.root.children.map((c) => c.label), ['b', 'a']);
  const dup = importValue([{ id: 'r', name: 'r' }, { id: 'r', name: 's' }]);
  assert.equal(dup.ok, false);
  assert.equal(dup.error.path, '$[1].id');
});

test('d3 flare and react-d3-tree', () => {
  const flare = { name: 'flare', children: [{ name: 'analytics', children: [{ name: 'cluster', value: 3938 }] }, { name: 'x', value: 'big' }] };
  assert.equal(detectFormat(flare), 'd3-flare');
  const f = importValue(flare).model;
  assert.equal(f.formatName, 'd3 hierarchy (flare)');
  assert.equal(f.root.children[0].children[0].value, 3938);
  assert.equal(f.root.children[0].kind, 'node');
  assert.deepEqual(f.root.children[1].extra, [['value', 'big']]);
  const rd3 = { name: 'CEO', attributes: { department: 'Production', score: 4 }, children: [{ name: 'Manager', attributes: { kind: 'min' } }] };
  assert.equal(detectFormat(rd3), 'react-d3-tree');
  const r = importValue(rd3).model;
  assert.equal(r.root.value, 4);
  assert.deepEqual(r.root.extra, [['department', 'Production']]);
  assert.equal(r.root.children[0].kind, 'min');
});

test('MCTS dumps: N/Q/P and visits/value/prior; the most visited line is the best line', () => {
  const short = { N: 100, Q: 0.5, children: [{ move: 'a', N: 30, Q: 0.4, P: 0.5 }, { move: 'b', N: 69, Q: 0.6, P: 0.5, children: [{ move: 'c', N: 68, Q: 0.61, P: 1 }] }] };
  const long = { visits: 100, value: 0.5, children: [{ action: 'a', visits: 30, value: 0.4, prior: 0.5 }, { action: 'b', visits: 69, W: 41.4, prior: 0.5 }] };
  for (const doc of [short, long]) {
    assert.equal(detectFormat(doc), 'mcts');
    const m = importValue(doc).model;
    assert.equal(m.root.visits, 100);
    const [a, b] = m.root.children;
    assert.equal(a.label, 'a');
    assert.equal(a.prob, 0.5);
    assert.equal(a.best, false);
    assert.equal(b.best, true);
    assert.ok(Math.abs(b.value - 0.6) < 1e-9);
  }
  assert.equal(importValue(short).model.root.children[1].children[0].best, true);
});

test('labels are kept as plain strings, whatever they contain', () => {
  const hostile = '<img src=x onerror="window.__pwned=1">';
  const m = importValue(nativeDoc({ id: 0, kind: 'max', children: [{ id: 1, move: hostile, kind: 'leaf', value: 1, eval: { total: 1, terms: [{ name: hostile, raw: 1, weight: 1, value: 1 }] } }] })).model;
  assert.equal(m.root.children[0].label, hostile);
  assert.equal(m.root.children[0].eval.terms[0].name, hostile);
  const j = importValue({ id: 1, name: hostile, data: { [hostile]: hostile } }).model;
  assert.equal(j.root.label, hostile);
  assert.deepEqual(j.root.extra, [[hostile, hostile]]);
});

test('very deep and very wide trees import without recursion limits', () => {
  let root = { id: 0, kind: 'leaf', value: 0 };
  for (let i = 1; i < 5000; i++) root = { id: i, kind: i % 2 ? 'min' : 'max', value: 0, children: [root] };
  const deep = importValue(nativeDoc(root));
  assert.ok(deep.ok, deep.error && deep.error.message);
  assert.equal(deep.model.count, 5000);
  const wide = importValue(nativeDoc({ id: 0, kind: 'max', children: Array.from({ length: 100000 }, (_, i) => ({ id: i + 1, kind: 'leaf', value: i })) }));
  assert.equal(wide.model.count, 100001);
});

test('a converted tree downloads as a plyscope-tree that imports back the same', () => {
  for (const f of ['jit-tree.json', 'mcts.json', 'reversi-alphabeta.json', 'd3-flare.json']) {
    const m = importText(load(f)).model;
    const doc = toDocument(m);
    assert.equal(doc.format, 'plyscope-tree');
    const again = importValue(JSON.parse(JSON.stringify(doc)));
    assert.ok(again.ok, `${f}: ${again.error && again.error.message}`);
    assert.equal(again.model.format, 'plyscope-tree');
    assert.equal(again.model.count, m.count);
    assert.deepEqual(walk(again.model.root).map((n) => n.label), walk(m.root).map((n) => n.label));
    assert.deepEqual(walk(again.model.root).map((n) => n.value), walk(m.root).map((n) => n.value));
    assert.deepEqual(walk(again.model.root).map((n) => n.extra), walk(m.root).map((n) => n.extra), 'foreign data survives');
  }
});

test('scores are compact, and decided games read as wins and losses in plies', () => {
  assert.equal(scoreText(999995), 'win in 5');
  assert.equal(scoreText(-999998), 'loss in 2');
  assert.equal(scoreText(1_000_000), 'win in 0');
  assert.equal(scoreText(3.5), '+3.5');
  assert.equal(scoreText(0), '0');
  assert.equal(scoreText(-12), '-12');
  assert.equal(scoreText(null), '?');
  assert.equal(compactNumber(123456), '123k');
  assert.equal(compactNumber(-4_560_000), '-4.56M');
  assert.equal(compactNumber(0.123456), '0.123');
  assert.equal(compactNumber(21.5556), '21.6');
  assert.equal(boundedScore(4, 'lower'), '≥ +4');
  assert.equal(boundedScore(-1, 'upper'), '≤ -1');
  assert.equal(windowText(null, 3), '(-∞, +3)');
  assert.equal(windowText(3, 3.0000000000000004), '(+3, +3 + ε): a null window');
  assert.equal(windowText(3, 4), '(+3, +4)');
  assert.equal(percent(0.25), '25%');
  assert.equal(percentShort(1 / 6), '17%');
  assert.equal(percentShort(0.0123), '1.2%');
  assert.equal(percentShort(0.0004), '<0.1%');
});

test('a document that says how its values read is read in its units, without knowing the game', () => {
  const reversi = { unit: 'points', one: 'point', per_unit: 1, decimals: 0, decided: 501000, margin: { per: 100, plies_from: 99, unit: 'discs', one: 'disc' } };
  const won38 = 501000 + 100 * 38 + (99 - 7);
  const s = valueScale(reversi);
  // A finished Reversi game is its disc margin, never "win in 499,xxx" plies.
  assert.equal(scoreText(won38, s), 'win +38');
  assert.equal(valueText(won38, s), 'win by 38 discs');
  assert.equal(valueText(-(501000 + 100 + 98), s), 'loss by 1 disc');
  assert.equal(scoreText(-(501000 + 100 * 12 + 99), s), 'loss −12');
  assert.equal(valueText(203.35, s), '+203 points');
  assert.equal(valueText(0.2, s), 'even');
  assert.ok(isMate(won38, s) && !isMate(203, s));
  // Ataxx counts 100 a piece, and decided games in plies.
  const ataxx = valueScale({ unit: 'pieces', one: 'piece', per_unit: 100, decimals: 1, decided: 500000, win: 1000000 });
  assert.equal(scoreText(130, ataxx), '+1.3');
  assert.equal(valueText(-100, ataxx), '-1 piece');
  assert.equal(valueText(999995, ataxx), 'win in 5 plies');
  assert.equal(differenceText(250, ataxx), '2.5 pieces');
  // Threes: a single player's loss counts the plies survived.
  const threes = valueScale({ unit: 'points', one: 'point', per_unit: 1, decimals: 0, lost: { at: -400000, per_ply: 1000, max_plies: 64 } });
  assert.equal(scoreText(16739, threes), '+16.7k');
  assert.equal(scoreText(-395000, threes), 'lost in 5');
  assert.equal(valueText(-395000, threes), 'lost within 5 plies');
  // Absent or malformed: values read as they always did.
  for (const bad of [undefined, null, 3, [], { unit: 'x' }, { unit: 'x', per_unit: -1 }, { unit: 7, per_unit: 1 }]) {
    const l = valueScale(bad);
    assert.equal(scoreText(999995, l), 'win in 5');
    assert.equal(scoreText(130, l), '+130');
  }
  // The scale in use follows the document shown, and a document with no scale resets it.
  useScale(reversi);
  assert.equal(scoreText(won38), 'win +38');
  const m = importValue(nativeDoc({ id: 0, kind: 'max', value: won38 }, { values: reversi })).model;
  assert.deepEqual(m.values.margin, reversi.margin);
  assert.deepEqual(toDocument(m).values.margin, reversi.margin, 'saving keeps the scale');
  assert.equal(importValue(nativeDoc({ id: 0, kind: 'max', value: 1 })).model.values, null);
  useScale(null);
  assert.equal(scaleInUse().unit, null);
  assert.equal(scoreText(999995), 'win in 5');
});

test('the wire form keeps text outside ASCII, string ids and nodes without breakdowns', () => {
  const doc = { format: 'plyscope-tree', version: 1, stats: {}, root: { id: 'rôot', kind: 'max', value: 1, children: [
    { id: 'é', move: 'Ké4♞', kind: 'leaf', value: 1, eval: { total: 1, terms: [{ name: 'mobilité ♞ 𝄞', raw: 1, weight: 1, value: 1 }] } },
    { id: 7, move: 'a1', kind: 'leaf', value: 0 },
    { move: '<img src=x onerror=alert(1)>', kind: 'leaf', value: 2, prescore: { total: 2, terms: [{ name: 'x', raw: 2, weight: 1, value: 2 }] } },
  ] } };
  const m = importValue(doc).model;
  const { wire, transfer } = toWire(m);
  const back = fromWire(structuredClone(wire, { transfer }));
  assert.equal(back.root.id, 'rôot');
  assert.deepEqual(back.root.children.map((c) => c.id), ['é', 7, null]);
  assert.deepEqual(back.root.children.map((c) => c.label), ['Ké4♞', 'a1', '<img src=x onerror=alert(1)>']);
  assert.equal(back.root.children[0].eval.terms[0].name, 'mobilité ♞ 𝄞');
  assert.equal(back.root.children[1].eval, null);
  assert.equal(back.root.children[2].prescore.total, 2);
  assert.deepEqual(back.kindsPresent, ['max', 'leaf']);
});

test('the wire form (worker to page) keeps every field of every node', () => {
  for (const f of ['tictactoe-alphabeta.json', 'reversi-alphabeta.json', 'threes-expectimax.json', 'jit-tree.json', 'mcts.json']) {
    const m = importText(load(f)).model;
    const { wire, transfer } = toWire(m);
    // Numbers in typed arrays, the breakdowns as UTF-8 bytes: all moved, none copied.
    assert.ok(transfer.length >= 9, `transfer ${transfer.length}`);
    assert.ok(transfer.every((b) => b instanceof ArrayBuffer));
    const back = fromWire(structuredClone(wire, { transfer }));
    assert.equal(back.count, m.count);
    assert.equal(back.format, m.format);
    assert.deepEqual(back.stats, m.stats);
    const a = walk(m.root);
    const b = walk(back.root);
    assert.equal(a.length, b.length);
    for (let i = 0; i < a.length; i++) {
      for (const k of ['id', 'label', 'kind', 'inferred', 'value', 'bound', 'alpha', 'beta', 'prob', 'best', 'tt', 'count', 'visits', 'depth', 'size', 'prescore', 'eval', 'moves', 'cutoff', 'reason', 'extra']) {
        // Through JSON, -0 becomes 0: compare the JSON texts.
        assert.equal(JSON.stringify(b[i][k]), JSON.stringify(a[i][k]), `${f} node ${i} field ${k}`);
      }
      assert.equal(b[i].children.length, a[i].children.length);
      if (a[i].parent) assert.equal(b[i].parent, b[a.indexOf(a[i].parent)]);
    }
  }
});
