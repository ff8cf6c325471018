// A million-node tree still opens: parsed in the worker, drawn with the far-out view (plain boxes,
// no labels) when zoomed out, searchable; timings are printed, not asserted (scripts/tree-bench.mjs
// measures them properly).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, shot, watchErrors } from './harness.mjs';

const env = useBrowser();

test('a 1,000,000-node tree opens, finds a deep node, and draws zoomed far out', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 860 } });
  const errors = watchErrors(page);
  await page.goto(`${env.server.url}tree/`);
  await page.waitForFunction(() => window.explorer && window.explorer.model());
  const out = await page.evaluate(async () => {
    // 100 root moves, 100 replies each, 99 leaves under each reply: 1 + 100 + 10,000 + 990,000 nodes.
    const parts = ['{"format":"plyscope-tree","version":1,"game":"synthetic","engine":"test","algorithm":"minimax","perspective":"max","stats":{"nodes":1000100},"root":{"id":0,"kind":"max","value":0,"best":true,"children":['];
    let id = 1;
    for (let a = 0; a < 100; a++) {
      parts.push(`${a ? ',' : ''}{"id":${id++},"move":"a${a}","kind":"min","value":${a === 0 ? 0 : -a}${a === 0 ? ',"best":true' : ''},"children":[`);
      for (let b = 0; b < 100; b++) {
        parts.push(`${b ? ',' : ''}{"id":${id++},"move":"b${b}","kind":"max","value":${a === 0 ? b : -a + b},"children":[`);
        for (let c = 0; c < 99; c++) parts.push(`${c ? ',' : ''}{"id":${id++},"move":"c${c}","kind":"leaf","value":${(id * 7919) % 201 - 100}}`);
        parts.push(']}');
      }
      parts.push(']}');
    }
    parts.push(']}}');
    const text = parts.join('');
    const t = performance.now();
    const r = await window.explorer.loadText(text, 'generated');
    await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    return { ok: r.ok, nodes: r.nodes, ms: Math.round(performance.now() - t), mb: Math.round(text.length / 1e6), last: id - 1 };
  });
  assert.equal(out.ok, true);
  assert.equal(out.nodes, 1000101);
  console.log(`1M tree: ${out.mb} MB loaded in ${out.ms} ms`);
  if (process.env.DEBUG_STEPS) console.log('step find id', new Date().toISOString());
  // The last node, three levels down, by #id: revealed and focused.
  await page.locator('[data-testid=tree-find]').fill(`#${out.last}`);
  await page.locator('[data-testid=tree-find]').press('Enter');
  await page.waitForTimeout(400);
  assert.equal(await page.locator('[data-testid=tree-find-count]').innerText(), '1 of 1');
  assert.ok(await page.evaluate((i) => window.explorer.nodeBox(i), out.last), 'the deepest last node is shown');
  if (process.env.DEBUG_STEPS) console.log('step range', new Date().toISOString());
  // Every leaf in a value range: counted over the whole million.
  const t = Date.now();
  // (The answer is a node, linked to the whole tree: not sent back.)
  await page.evaluate(() => void window.explorer.find({ text: '', depth: 3, min: 99, max: 100 }));
  const count = await page.locator('[data-testid=tree-find-count]').innerText();
  const want = await page.evaluate(() => {
    let k = 0;
    for (const a of window.explorer.model().root.children) for (const b of a.children) for (const c of b.children) if (c.value >= 99) k++;
    return k;
  });
  assert.match(count, new RegExp(` of ${want}$`));
  console.log(`found ${want} leaves by value among 990,000 in ${Date.now() - t} ms (with the reveal)`);
  if (process.env.DEBUG_STEPS) console.log('step expand', new Date().toISOString());
  // Open 20,000 nodes and zoom far out: plain boxes, no labels, still every shown node drawn.
  const shown = await page.evaluate(async () => {
    const n = window.explorer.expandAll(20000);
    await window.explorer.whenLaidOut();
    return n;
  });
  assert.ok(shown >= 19000);
  const canvas = page.locator('[data-testid=tree-view] canvas.ps-canvas');
  const b = await canvas.boundingBox();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  // Expand all opens at a readable zoom: wheel out until far out (each step about halves it).
  for (let i = 0; i < 8 && (await page.evaluate(() => window.explorer.stats().zoom)) >= 0.2; i++) {
    await page.mouse.wheel(0, 400);
    await page.waitForTimeout(60);
  }
  await page.waitForTimeout(300);
  const s = await page.evaluate(() => window.explorer.stats());
  assert.ok(s.zoom < 0.3, `zoomed out to ${s.zoom}`);
  await shot(page, 'tree-1m-far');
  assert.ok(s.drawn > 50, `drawn ${s.drawn}`);
  const draw = await page.evaluate(async () => {
    const log = window.explorer.recordFrames(true);
    const c = document.querySelector('[data-testid=tree-view] canvas.ps-canvas');
    const r = c.getBoundingClientRect();
    for (let i = 0; i < 10; i++) {
      c.dispatchEvent(new WheelEvent('wheel', { deltaY: i % 2 ? 30 : -30, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true, cancelable: true }));
      await new Promise((res) => requestAnimationFrame(res));
    }
    window.explorer.recordFrames(false);
    return log.length ? Math.max(...log) : null;
  });
  console.log(`far-out view: ${s.drawn} of ${s.shown} shown nodes in view, longest frame drawing ${draw && draw.toFixed(1)} ms`);

  assert.deepEqual(errors, []);
  await page.close();
});
