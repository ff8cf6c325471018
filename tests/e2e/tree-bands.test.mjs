// Zoomed far out, the boxes of a column that would be closer than a couple of pixels merge into
// bands with their node count; zoomed back in, every node is a box again. Checked through what is
// drawn: the explorer's draw statistics and the canvas pixels inside a band.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openExplorer, settle, shot, treePixel } from './harness.mjs';

const env = useBrowser();

// 1 + 40 + 1,600 nodes: two full levels of 40 children, all opened.
async function loadWide(page) {
  return page.evaluate(async () => {
    let id = 0;
    const kids = (d) => Array.from({ length: 40 }, (_, i) => {
      const n = { id: ++id, move: `m${d}-${i}`, kind: d === 2 ? 'leaf' : 'min', value: (id * 37) % 19 - 9 };
      if (d < 2) n.children = kids(d + 1);
      return n;
    });
    const root = { id: 0, kind: 'max', value: 0, best: true, children: kids(1) };
    root.children[0].best = true;
    const r = window.explorer.showDocument({ format: 'plyscope-tree', version: 1, stats: {}, root });
    const shown = window.explorer.expandAll(5000);
    await window.explorer.whenLaidOut();
    return { ok: r.ok, shown, count: id + 1 };
  });
}

async function zoomTo(page, want) {
  const canvas = page.locator('[data-testid=tree-view] canvas.ps-canvas');
  const b = await canvas.boundingBox();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  // Each wheel step scales by about 0.84 or 1.2: stop within that of the wanted zoom.
  for (let i = 0; i < 60; i++) {
    const k = await page.evaluate(() => window.explorer.stats().zoom);
    if (k > want * 1.1) await page.mouse.wheel(0, 120);
    else if (k < want / 1.1) await page.mouse.wheel(0, -120);
    else break;
    await page.waitForTimeout(20);
  }
  await settle(page);
  return page.evaluate(() => window.explorer.stats());
}

test('zoomed far out, close boxes merge into counted bands; zoomed in, they are boxes again', async () => {
  const { page, errors } = await openExplorer(env);
  const loaded = await loadWide(page);
  assert.equal(loaded.ok, true);
  assert.equal(loaded.shown, 1641);
  // Far out: 46 px between siblings is about 2 px on screen: runs of leaves merge.
  const far = await zoomTo(page, 0.06);
  assert.ok(far.zoom <= 0.07, `zoom ${far.zoom}`);
  const d = far.draw;
  assert.equal(d.mode, 'far');
  assert.ok(d.bands >= 1, `bands ${d.bands}`);
  assert.ok(d.banded > 100, `nodes in bands ${d.banded}`);
  // Every node in view is in a band or a box of its own (bands count their nodes beyond the view too).
  assert.ok(d.banded + d.boxes >= far.drawn, `${d.banded} + ${d.boxes} >= ${far.drawn}`);
  assert.ok(d.banded <= loaded.count);
  assert.ok(d.boxes < far.drawn / 4, `few single boxes: ${d.boxes} of ${far.drawn}`);
  await shot(page, 'tree-bands-far');
  // Closer (a fifth of the normal size), siblings are still under 2 px apart: bands, now wide enough
  // to say how many nodes they hold.
  const mid = await zoomTo(page, 0.2);
  assert.ok(mid.zoom >= 0.15 && mid.zoom < 0.25, `zoom ${mid.zoom}`);
  assert.ok(mid.draw.bands >= 1 && mid.draw.labelled >= 1, `labelled bands: ${JSON.stringify(mid.draw.bandRects.slice(0, 3))}`);
  await shot(page, 'tree-bands-counted');
  // Too narrow for "40 nodes" across (25 px): written along the band.
  const counted = mid.draw.bandRects.find((b) => b.label && b.nodes === 40);
  assert.ok(counted, `a band of 40 leaves with its count: ${JSON.stringify(mid.draw.bandRects.slice(0, 3))}`);
  // The band is drawn as a block: a pixel inside it (right of its kind bar, below its outline, away
  // from the count in its middle) has the band's fill.
  const canvasBox = await page.locator('[data-testid=tree-view] canvas.ps-canvas').boundingBox();
  const px = canvasBox.x + counted.x + counted.width * 0.75;
  const py = canvasBox.y + Math.max(counted.y, 0) + 5;
  assert.deepEqual(await treePixel(page, px, py), [0xd9, 0xde, 0xe5], 'band fill');
  // Back to normal size: no bands, every node in view is a labelled box.
  const near = await zoomTo(page, 1);
  assert.ok(near.zoom >= 0.9, `zoom ${near.zoom}`);
  assert.equal(near.draw.mode, 'labels');
  assert.equal(near.draw.bands, 0);
  assert.equal(near.draw.boxes, near.drawn);
  assert.deepEqual(errors, []);
  await page.close();
});
