// The explorer under memory pressure: a document or tree larger than the page's budget is refused
// with a message giving its size and the budget; the tree on screen stays and the page goes on
// answering. The budget is lowered for the test (the defaults, 400 MB and two million nodes, would
// need documents of that size).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, settle, openExplorer as openExplorerPage, shot } from './harness.mjs';

const env = useBrowser();

/** A plyscope-tree document: a root with `n` leaf children. */
function wide(n) {
  const kids = [];
  for (let i = 1; i <= n; i++) kids.push({ id: i, move: `m${i}`, kind: 'leaf', value: i % 7 });
  return JSON.stringify({ format: 'plyscope-tree', version: 1, game: 'test', engine: 'test', algorithm: 'minimax', perspective: 'max', stats: { nodes: n + 1 }, root: { id: 0, kind: 'max', value: 6, children: kids } });
}

async function paste(page, text) {
  await page.locator('[data-testid=tree-json]').evaluate((el, v) => {
    el.value = v;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
  await page.locator('[data-testid=load-tree]').click();
}

test('documents over the budget are refused with size and budget; the tree on screen stays', async () => {
  const { page, errors } = await openExplorerPage(env, '', { width: 1280, height: 860 });
  const before = await page.evaluate(() => window.explorer.model().count);
  await page.evaluate(() => window.explorer.setBudget({ maxChars: 200_000, maxNodes: 1000 }));
  const err = page.locator('[data-testid=tree-error]');

  // Too many characters (checked before parsing).
  const big = wide(6000);
  assert.ok(big.length > 200_000);
  await paste(page, big);
  await page.waitForFunction(() => /Too large/.test(document.querySelector('[data-testid=tree-error]').textContent));
  let text = await err.innerText();
  assert.match(text, /the document is \d+\.\d kB \([\d,]+ characters\), more than the page's budget of 200\.0 kB/);
  assert.match(text, /previous tree is kept/);
  assert.equal(await page.evaluate(() => window.explorer.model().count), before);

  // Too many nodes, in a text small enough to be read on the page.
  await paste(page, wide(1500));
  await page.waitForFunction(() => /nodes, more than/.test(document.querySelector('[data-testid=tree-error]').textContent));
  text = await err.innerText();
  assert.match(text, /the tree has at least 1,501 nodes, more than the page's budget of 1,000 nodes/);
  assert.equal(await page.evaluate(() => window.explorer.model().count), before);

  // Too many nodes in a text large enough for the parse worker (over 1 MB): refused there.
  await page.evaluate(() => window.explorer.setBudget({ maxChars: 50_000_000, maxNodes: 10_000 }));
  const large = wide(30_000);
  assert.ok(large.length > 1 << 20);
  await paste(page, large);
  await page.waitForFunction(() => /30,001 nodes, more than the page's budget of 10,000 nodes/.test(document.querySelector('[data-testid=tree-error]').textContent));
  assert.equal(await page.evaluate(() => window.explorer.model().count), before);
  // The page answered all along and still does: the tree on screen can be used.
  await settle(page);
  const stats = await page.evaluate(() => window.explorer.stats());
  assert.ok(stats.shown >= 1);
  await shot(page, 'tree-budget-refused');

  // Within the budget, the same kind of document loads.
  await paste(page, wide(500));
  await page.waitForFunction(() => window.explorer.model().count === 501);
  assert.deepEqual(errors, []);
  await page.close();
});
