#!/usr/bin/env node
// Tree explorer benchmark: serves the page, generates search trees of about 10^4, 10^5 and 10^6 nodes
// in the page, loads each as a pasted document would be, and prints parse, layout and first-paint
// times, the frame times while panning and zooming (median and 95th percentile), and the longest
// main-thread task (PerformanceObserver 'longtask': tasks over 50 ms) and the longest gap between
// animation frames while the document loads and while 20,000 nodes are opened and laid out.
//
//   node scripts/tree-bench.mjs            # all three sizes
//   node scripts/tree-bench.mjs 4 5        # only 10^4 and 10^5 (the exponents of ten)
//
//   node scripts/tree-bench.mjs 6 v2       # only the version-2 (compact) document of 10^6 nodes
//   node scripts/tree-bench.mjs engine     # only the engine-to-page cases (AI moves, Whole tree)
//
// Each size is loaded as a version-1 document and as a version-2 one (the CLI's default form, read
// into the binary form in the parse worker).
//
// Needs playwright-core (npm install) and Chromium at /usr/bin/chromium (or $CHROMIUM).
import { startServer, launch } from '../tests/e2e/harness.mjs';
import { cpus, loadavg } from 'node:os';

const args = process.argv.slice(2);
const exps = args.map(Number).filter((e) => e >= 2 && e <= 7);
// `engine`: only the engine-to-page cases; `paste`: only the pasted documents; default: both.
const onlyEngine = args.includes('engine');
const sizes = onlyEngine ? [] : exps.length ? exps : [4, 5, 6];

function quantile(xs, q) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}
const f1 = (v) => (Number.isFinite(v) ? v.toFixed(1) : '–');
const f0 = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en') : '–');

const server = await startServer();
const browser = await launch();
const rows = [];
const engineRows = [];
try {
  if (!args.includes('paste')) engineRows.push(...(await engineCases(browser, server)));
  const forms = args.includes('v1') ? ['v1'] : args.includes('v2') ? ['v2'] : ['v1', 'v2'];
  for (const e of sizes) for (const form of forms) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${server.url}tree/`);
    await page.waitForFunction(() => window.explorer && window.explorer.model());
    // Every main-thread task over 50 ms from here on, and the gaps between animation frames.
    await page.evaluate(() => {
      window.__longs = [];
      new PerformanceObserver((l) => l.getEntries().forEach((en) => window.__longs.push({ start: en.startTime, ms: en.duration }))).observe({ type: 'longtask' });
      window.__gaps = { on: false, max: 0, last: 0 };
      const tick = (now) => {
        const g = window.__gaps;
        if (g.on) {
          if (g.last) g.max = Math.max(g.max, now - g.last);
          g.last = now;
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      window.__phase = async (fn) => {
        const g = window.__gaps;
        Object.assign(g, { on: true, max: 0, last: 0 });
        const t0 = performance.now();
        const out = await fn();
        // Long tasks are reported a little after they end.
        await new Promise((res) => setTimeout(res, 300));
        g.on = false;
        const t1 = performance.now();
        const longs = window.__longs.filter((l) => l.start >= t0 - 1 && l.start <= t1);
        return { ...out, longest: longs.length ? Math.max(...longs.map((l) => l.ms)) : 0, longCount: longs.length, frameGap: g.max };
      };
    });
    // A tree with 10 children per node, e levels deep: (10^(e+1) - 1) / 9 nodes, values and
    // pre-scores at every node, an evaluation breakdown at every leaf, a best line.
    const gen = await page.evaluate(([depth, form]) => {
      const t0 = performance.now();
      if (form === 'v2') {
        // The same tree as a compact (version 2) document, the CLI's default form.
        const parts = ['{"format":"plyscope-tree","version":2,"game":"bench","engine":"tree-bench","algorithm":"minimax","perspective":"max","stats":{"nodes":0},"terms":["mobility","corners"],"layouts":[{"t":[0,1],"w":[0.5,1]},{"t":[0],"w":[1]}],"nodes":['];
        let id = 0;
        let leaves = 0;
        const B = 10;
        const node = (d, maxing, move, best) => {
          const me = id++;
          const v = ((me * 7919) % 2001) / 10 - 100;
          parts.push(`${me ? ',' : ''}{"k":"${d === 0 ? 'l' : maxing ? 'x' : 'n'}"${move ? `,"m":"${move}"` : ''}${d ? `,"c":${B}` : ''},"v":${v},"p":[${v / 2},0,${me % 9},${v / 2 - (me % 9) / 2}]${d === 0 ? `,"e":[1,${v}]` : ''}${best ? ',"pv":1' : ''}}`);
          if (d === 0) {
            leaves++;
            return;
          }
          for (let i = 0; i < B; i++) node(d - 1, !maxing, `${String.fromCharCode(97 + i)}${d}`, best && i === 0);
        };
        node(depth, true, null, true);
        parts.push(']}');
        window.__benchText = parts.join('');
        return { nodes: id, leaves, mb: window.__benchText.length / 1e6, genMs: performance.now() - t0 };
      }
      const parts = [];
      let id = 0;
      let leaves = 0;
      const B = 10;
      // Written straight as text: building objects and stringifying them would double the memory.
      const node = (d, maxing, move, best) => {
        const me = id++;
        const v = ((me * 7919) % 2001) / 10 - 100;
        parts.push(`{"id":${me}${move ? `,"move":"${move}"` : ''},"kind":"${d === 0 ? 'leaf' : maxing ? 'max' : 'min'}","value":${v}${best ? ',"best":true' : ''},"prescore":{"total":${v / 2},"terms":[{"name":"mobility","raw":${me % 9},"weight":0.5,"value":${(me % 9) / 2}},{"name":"corners","raw":1,"weight":${v / 2 - (me % 9) / 2},"value":${v / 2 - (me % 9) / 2}}]}`);
        if (d === 0) {
          leaves++;
          parts.push(`,"eval":{"total":${v},"terms":[{"name":"mobility","raw":1,"weight":${v},"value":${v}}]}}`);
          return;
        }
        parts.push(',"children":[');
        for (let i = 0; i < B; i++) {
          if (i) parts.push(',');
          node(d - 1, !maxing, `${String.fromCharCode(97 + i)}${d}`, best && i === 0);
        }
        parts.push(']}');
      };
      parts.push('{"format":"plyscope-tree","version":1,"game":"bench","engine":"tree-bench","algorithm":"minimax","perspective":"max","stats":{"nodes":0},"root":');
      node(depth, true, null, true);
      parts.push('}');
      window.__benchText = parts.join('');
      return { nodes: id, leaves, mb: window.__benchText.length / 1e6, genMs: performance.now() - t0 };
    }, [e, form]);
    // Load it as the "Load tree" button would (large texts parse in the worker).
    const load = await page.evaluate(() =>
      window.__phase(async () => {
        const x = window.explorer;
        const r = await x.loadText(window.__benchText, 'bench');
        window.__benchText = null;
        await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
        return { ok: r.ok, nodes: r.nodes, ...x.timings() };
      }),
    );
    if (!load.ok) throw new Error(`10^${e}: the document did not load`);
    // Open up to 20,000 nodes breadth first, then pan and zoom with the mouse while recording frames.
    const open = await page.evaluate(() =>
      window.__phase(async () => {
        const x = window.explorer;
        const t = performance.now();
        const shown = x.expandAll(20000);
        // The page returns at once; the positions come back from the layout worker.
        const pending = x.stats().layoutPending;
        await x.whenLaidOut();
        await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
        const ms = performance.now() - t;
        await new Promise((res) => setTimeout(res, 400));
        const tm = x.timings();
        return { shown, ms, pending, layoutMs: tm.layoutMs, layoutMainMs: tm.layoutMainMs, layoutWorkerMs: tm.layoutWorkerMs };
      }),
    );
    const box = await page.locator('[data-testid=tree-view] canvas.ps-canvas').boundingBox();
    const measure = async (name, act) => {
      await page.evaluate(() => {
        window.explorer.recordFrames(true);
        window.__frames = [];
        window.__recording = true;
        let last = performance.now();
        const tick = (now) => {
          window.__frames.push(now - last);
          last = now;
          if (window.__recording) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      await act();
      return page.evaluate((nm) => {
        window.__recording = false;
        return { name: nm, frames: window.__frames.slice(1), draws: window.explorer.recordFrames(false) };
      }, name);
    };
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const pan = await measure('pan', async () => {
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      for (let i = 1; i <= 60; i++) await page.mouse.move(cx - i * 6, cy - Math.sin(i / 6) * 120);
      await page.mouse.up();
    });
    const zoom = await measure('zoom', async () => {
      await page.mouse.move(cx, cy);
      for (let i = 0; i < 25; i++) await page.mouse.wheel(0, 120);
      for (let i = 0; i < 25; i++) await page.mouse.wheel(0, -120);
    });
    // One click on a collapsed node, to the next painted frame.
    const click = await page.evaluate(async () => {
      const x = window.explorer;
      x.collapseAll();
      await new Promise((res) => setTimeout(res, 400));
      const id = x.model().root.children[3].id;
      const b = x.nodeBox(id);
      const canvas = document.querySelector('[data-testid=tree-view] canvas.ps-canvas');
      const t = performance.now();
      for (const type of ['pointerdown', 'pointerup']) canvas.dispatchEvent(new PointerEvent(type, { clientX: b.x, clientY: b.y, button: 0, bubbles: true, pointerId: 1 }));
      await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
      return performance.now() - t;
    });
    const frames = [...pan.frames, ...zoom.frames];
    const draws = [...pan.draws, ...zoom.draws];
    const row = {
      size: `10^${e} ${form}`,
      nodes: gen.nodes,
      mb: gen.mb,
      parse: load.parseMs,
      layout: load.layoutMs,
      firstPaint: load.firstPaintMs,
      expandShown: open.shown,
      expandMs: open.ms,
      expandLayout: open.layoutMs,
      expandLayoutMain: open.layoutMainMs,
      expandLayoutWorker: open.layoutWorkerMs,
      expandInWorker: open.pending,
      loadLongest: load.longest,
      loadLongCount: load.longCount,
      loadGap: load.frameGap,
      expandLongest: open.longest,
      expandGap: open.frameGap,
      frameMed: quantile(frames, 0.5),
      frameP95: quantile(frames, 0.95),
      drawMed: quantile(draws, 0.5),
      drawP95: quantile(draws, 0.95),
      frames: frames.length,
      clickMs: click,
      errors,
    };
    rows.push(row);
    console.log(
      `${row.size}: ${row.nodes.toLocaleString('en')} nodes, ${row.mb.toFixed(1)} MB; parse ${f1(row.parse)} ms, layout ${f1(row.layout)} ms, first paint ${f1(row.firstPaint)} ms; ` +
        `while loading: longest main-thread task ${f1(row.loadLongest)} ms (${row.loadLongCount} over 50 ms), longest gap between frames ${f1(row.loadGap)} ms; ` +
        `expand ${row.expandShown.toLocaleString('en')} shown in ${f1(row.expandMs)} ms (layout ${row.expandInWorker ? 'in the worker' : 'on the page'}: round trip ${f1(row.expandLayout)} ms, worker ${f1(row.expandLayoutWorker)} ms, page ${f1(row.expandLayoutMain)} ms; longest task ${f1(row.expandLongest)} ms, frame gap ${f1(row.expandGap)} ms); ` +
        `pan+zoom frames median ${f1(row.frameMed)} ms, p95 ${f1(row.frameP95)} ms (${row.frames} frames; drawing median ${f1(row.drawMed)} ms, p95 ${f1(row.drawP95)} ms); ` +
        `click to expand ${f1(row.clickMs)} ms${errors.length ? `; ERRORS ${errors.join(' | ')}` : ''}`,
    );
    await page.close();
  }
} finally {
  await browser.close();
  server.stop();
}
console.log(`\n${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${cpus().length} cores (${cpus()[0] ? cpus()[0].model.trim() : '?'}), load average ${loadavg().map((v) => v.toFixed(1)).join(' ')} (1, 5, 15 min); headless Chromium, 1280×860.\n`);
console.log('| nodes | form | JSON | parse | first paint | longest task / frame gap while loading | open up to 20,000: layout round trip (worker / page) | longest task / frame gap while opening | pan/zoom frame median | p95 | drawing median | p95 | click to expand |');
console.log('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(
    `| ${r.nodes.toLocaleString('en')} | ${r.size.split(' ')[1]} | ${r.mb.toFixed(0)} MB | ${f0(r.parse)} ms | ${f0(r.firstPaint)} ms | ${f0(r.loadLongest)} / ${f0(r.loadGap)} ms | ${f0(r.expandLayout)} ms (${f1(r.expandLayoutWorker)} / ${f1(r.expandLayoutMain)} ms; ${r.expandShown.toLocaleString('en')} shown) | ${f0(r.expandLongest)} / ${f0(r.expandGap)} ms | ${f1(r.frameMed)} ms | ${f1(r.frameP95)} ms | ${f1(r.drawMed)} ms | ${f1(r.drawP95)} ms | ${f1(r.clickMs)} ms |`,
  );
}

if (engineRows.length) {
  console.log('\nEngine to page (a worker searches, the tree crosses to the page, the explorer shows it):\n');
  console.log('| case | form | nodes | bytes crossing | bytes a node | search + writing in the worker | crossing | reading on the page | to first paint (from the answer) | page heap after |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of engineRows) {
    console.log(`| ${r.name} | ${r.form} | ${r.nodes.toLocaleString('en')} | ${(r.bytes / 1e6).toFixed(2)} MB | ${Math.round(r.bytes / r.nodes)} | ${f0(r.workerMs)} ms | ${f1(r.crossMs)} ms | ${f0(r.readMs)} ms | ${f0(r.showMs)} ms | ${r.heapMb ? `${r.heapMb.toFixed(0)} MB` : '–'} |`);
  }
}

/**
 * The tree of an AI move as the page gets it, before and after the binary form: a module worker
 * (the engine, as www/worker.js loads it) searches and sends either the version-1 JSON document as
 * an object (structured clone: the old way) or the binary form (a transferred ArrayBuffer); the
 * standalone explorer shows it. Times are from the worker's answer to the frame after the first paint.
 */
async function engineCases(browser, server) {
  const cases = [
    { name: 'Reversi depth 8, cap 4,000 (the old page)', game: 'reversi', form: 'json', opts: { algorithm: 'alphabeta', depth: 8, node_cap: 4000 } },
    { name: 'Reversi depth 8, cap 250,000', game: 'reversi', form: 'json', opts: { algorithm: 'alphabeta', depth: 8, node_cap: 250000 } },
    { name: 'Reversi depth 8, cap 250,000', game: 'reversi', form: 'binary', opts: { algorithm: 'alphabeta', depth: 8, node_cap: 250000 } },
    { name: 'Reversi depth 10, cap 250,000', game: 'reversi', form: 'binary', opts: { algorithm: 'alphabeta', depth: 10, node_cap: 250000 } },
    { name: 'Reversi depth 8, cap 250,000', game: 'reversi', form: 'packed', opts: { algorithm: 'alphabeta', depth: 8, node_cap: 250000 } },
    { name: 'tic-tac-toe whole tree', game: 'tictactoe', form: 'binary', opts: { algorithm: 'minimax', depth: 9, node_cap: 2000000 } },
    { name: 'tic-tac-toe whole tree', game: 'tictactoe', form: 'packed', opts: { algorithm: 'minimax', depth: 9, node_cap: 2000000 } },
  ];
  const out = [];
  for (const c of cases) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${server.url}tree/`);
    await page.waitForFunction(() => window.explorer && window.explorer.model());
    const r = await page.evaluate(async (c) => {
      const src = `import init, { Engine } from '${location.origin}/pkg/plyscope.js';
        import { packTree } from '${location.origin}/tree/pack.js';
        onmessage = async (ev) => {
          await init();
          const { game, form, opts } = ev.data;
          const e = new Engine(game);
          const text = JSON.stringify({ ...opts, record_tree: true, random_ties: false });
          const t0 = performance.now();
          if (form === 'json') {
            const report = JSON.parse(e.search(text));
            const bytes = JSON.stringify(report).length;
            postMessage({ report, bytes, workerMs: performance.now() - t0, sent: performance.now() + performance.timeOrigin });
          } else {
            const r = e.searchBinary(text);
            // 'packed': as the page's worker sends it (www/worker.js packs with www/tree/pack.js).
            const packed = form === 'packed' ? packTree(r.tree.buffer) : r.tree.buffer;
            postMessage({ report: JSON.parse(r.report), packed, bytes: packed.byteLength, workerMs: performance.now() - t0, sent: performance.now() + performance.timeOrigin }, [packed]);
          }
        };`;
      const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })), { type: 'module' });
      const msg = await new Promise((res, rej) => {
        w.onmessage = (ev) => res({ ...ev.data, got: performance.now() + performance.timeOrigin });
        w.onerror = (e) => rej(new Error(e.message));
        w.postMessage(c);
      });
      w.terminate();
      const t0 = performance.now();
      let doc;
      if (msg.packed) {
        const [off, len] = new Uint32Array(msg.packed, 16, 2);
        doc = { ...JSON.parse(new TextDecoder().decode(new Uint8Array(msg.packed, off, len))), packed: msg.packed };
      } else doc = msg.report.tree;
      const shown = await window.explorer.showDocument(doc);
      const tRead = performance.now();
      await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
      const t1 = performance.now();
      const heap = performance.memory ? performance.memory.usedJSHeapSize / 1e6 : null;
      return { nodes: shown.nodes, bytes: msg.bytes, workerMs: msg.workerMs, crossMs: msg.got - msg.sent, readMs: tRead - t0, showMs: t1 - t0, heapMb: heap };
    }, c);
    if (errors.length) throw new Error(`${c.name}: ${errors.join(' | ')}`);
    const row = { ...c, ...r };
    out.push(row);
    console.log(`${c.name}, ${c.form}: ${row.nodes.toLocaleString('en')} nodes, ${(row.bytes / 1e6).toFixed(2)} MB (${Math.round(row.bytes / row.nodes)} B a node); worker ${f0(row.workerMs)} ms, crossing ${f1(row.crossMs)} ms, reading ${f0(row.readMs)} ms, first paint ${f0(row.showMs)} ms after the answer; heap ${row.heapMb ? row.heapMb.toFixed(0) : '?'} MB`);
    await page.close();
  }
  return out;
}
