// The explorer's one tree walk (www/tree/walk.js), in node: orders, early stop, parent positions,
// and depth (a chain deeper than the call stack).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachBefore, eachAfter, descendants, find, findById, ancestors, pathFromRoot } from '../../www/tree/walk.js';

// a ─ b ─ d
//   │   └ e
//   └ c
function sample() {
  const mk = (id, children = []) => ({ id, children, parent: null });
  const d = mk('d');
  const e = mk('e');
  const b = mk('b', [d, e]);
  const c = mk('c');
  const a = mk('a', [b, c]);
  for (const n of [a, b, c, d, e]) for (const k of n.children) k.parent = n;
  return { a, b, c, d, e };
}

test('eachBefore visits in pre-order with each node’s index and its parent’s', () => {
  const { a } = sample();
  const seen = [];
  const count = eachBefore(a, (n, i, p) => void seen.push([n.id, i, p]));
  assert.equal(count, 5);
  assert.deepEqual(seen, [
    ['a', 0, -1],
    ['b', 1, 0],
    ['d', 2, 1],
    ['e', 3, 1],
    ['c', 4, 0],
  ]);
});

test('eachBefore stops when the callback returns false; find and findById stop at the first hit', () => {
  const { a } = sample();
  const seen = [];
  eachBefore(a, (n) => {
    seen.push(n.id);
    return n.id !== 'd';
  });
  assert.deepEqual(seen, ['a', 'b', 'd']);
  assert.equal(find(a, (n) => n.id > 'b').id, 'd');
  assert.equal(find(a, () => false), null);
  const numbered = { id: 17, children: [] };
  assert.equal(findById({ id: 1, children: [numbered] }, '17'), numbered);
});

test('eachAfter visits a subtree before its parent; descendants lists pre-order', () => {
  const { a } = sample();
  const post = [];
  eachAfter(a, (n) => post.push(n.id));
  assert.deepEqual(post, ['c', 'e', 'd', 'b', 'a']);
  for (const n of descendants(a)) assert.ok(post.indexOf(n.id) > Math.max(-1, ...n.children.map((k) => post.indexOf(k.id))));
  assert.deepEqual(descendants(a).map((n) => n.id), ['a', 'b', 'd', 'e', 'c']);
});

test('ancestors and pathFromRoot follow parent links', () => {
  const { e } = sample();
  assert.deepEqual(ancestors(e).map((n) => n.id), ['e', 'b', 'a']);
  assert.deepEqual(pathFromRoot(e).map((n) => n.id), ['a', 'b', 'e']);
});

test('a custom children accessor walks raw objects; a chain 200,000 deep does not overflow', () => {
  const raw = { v: 1, kids: [{ v: 2 }, { v: 3, kids: [{ v: 4 }] }] };
  assert.deepEqual(descendants(raw, (o) => o.kids).map((o) => o.v), [1, 2, 3, 4]);
  const root = { children: [] };
  let n = root;
  for (let i = 0; i < 200000; i++) {
    const c = { children: [] };
    n.children.push(c);
    n = c;
  }
  assert.equal(eachBefore(root, () => {}), 200001);
  assert.equal(descendants(root).length, 200001);
});
