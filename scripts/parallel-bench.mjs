// The page's parallel search, timed in Chromium, run by hand: `node scripts/parallel-bench.mjs [runs]`
// (build first: scripts/build-wasm.sh). Serves the page (scripts/serve.py), opens headless Chromium
// (playwright-core, /usr/bin/chromium) and, through the page's own engine bridge (www/engine-client.js),
// searches fixed positions of Reversi and Ataxx to a fixed depth with 1 search worker (the engine
// worker alone, as with the Workers setting at 1) and with 2 (a coordinator and two search workers
// splitting each depth's root moves), runs taken in turn (1, 2, 1, 2, ...). Prints the best
// (minimum) time of each, which a loaded machine disturbs least, the nodes each searched, the values
// (they must agree for the table-free check row) and the speed-up, with the load average.
// WORKERS=4 adds a third column of workers.
// The page is cross-origin isolated (scripts/serve.py), so with the threads build (pkg/threads/)
// 2 workers means Lazy SMP: the engine worker and one helper worker sharing its memory. BUILD=split
// measures the split search over workers without shared memory instead (the worker's ?threads=0).
import { loadavg } from 'node:os';
import { startServer, launch } from '../tests/e2e/harness.mjs';

const RUNS = Number(process.argv[2] || 5);
const COUNTS = [1, 2, ...(process.env.WORKERS ? [Number(process.env.WORKERS)] : [])];
// The midgame of `plyscope bench --parallel`, and Ataxx from the start, at the depths of the
// 1.6x goal (REVERSI_DEPTH / ATAXX_DEPTH: other depths, several separated by spaces).
const depths = (v, d) => (v || d).split(/\s+/).filter(Boolean).map(Number);
const CASES = [
  ...depths(process.env.REVERSI_DEPTH, '12 13').map((depth) => ({ game: 'reversi', moves: 'f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6 b4', depth })),
  ...depths(process.env.ATAXX_DEPTH, '10 11').map((depth) => ({ game: 'ataxx', moves: '', depth })),
];
// LMR=0 turns late-move reductions off, so that one and two workers search the same tree's value
// (with reductions a null-window test at another worker's bound is reduced differently).
// OPTIONS='{"killers":true}' adds search options (JSON) to every case's: the games' own defaults
// apply to what is not given (Reversi plays without killer moves).
const OPTIONS = { algorithm: 'alphabeta', iterative_deepening: true, exact_endgame: 0, random_ties: false, seed: 1, ...(process.env.LMR === '0' ? { lmr: false } : {}), ...JSON.parse(process.env.OPTIONS || '{}') };

const server = await startServer();
const browser = await launch();
const page = await browser.newPage();
await page.goto(`${server.url}/tree/index.html`);
const before = loadavg()[0];
const rows = [];
for (const c of CASES) {
  const out = await page.evaluate(
    async ({ c, runs, counts, options, split }) => {
      const { EngineClient } = await import('/engine-client.js');
      const client = new EngineClient({ url: new URL(split ? '/worker.js?threads=0' : '/worker.js', location.href) });
      const build = await client.build();
      await client.open(c.game);
      for (const m of c.moves.split(' ').filter(Boolean)) await client.play(m);
      const res = Object.fromEntries(counts.map((n) => [n, { ms: [], nodes: 0, value: null, move: null, mains: [], answered: 0 }]));
      // One search each first, so that every worker has loaded its engine before the clock runs.
      for (const n of counts) await client.search({ ...options, depth: 2, threads: n });
      for (let r = 0; r < runs; r++) {
        for (const n of counts) {
          const t0 = performance.now();
          const rep = await client.search({ ...options, depth: c.depth, threads: n });
          res[n].ms.push(performance.now() - t0);
          // Lazy SMP reports the main thread's nodes as the run's: the sum over every worker.
          res[n].nodes = build === 'threads' && rep.stats.workers ? rep.stats.workers.reduce((a, w) => a + w.nodes, 0) : rep.stats.nodes;
          res[n].main = rep.stats.nodes;
          res[n].mains.push(rep.stats.nodes);
          res[n].value = rep.value;
          res[n].move = rep.move;
          res[n].workers = rep.stats.workers || null;
          // A helper that completed the depth before the main thread answered: the main thread's
          // own depth (the first worker's) is then below the run's.
          if (rep.stats.workers && rep.stats.workers[0].depth_reached < rep.stats.depth_reached) res[n].answered++;
        }
      }
      return { res, build };
    },
    { c, runs: RUNS, counts: COUNTS, options: OPTIONS, split: process.env.BUILD === 'split' },
  );
  rows.push({ c, out: out.res, build: out.build });
}
await browser.close();
server.stop();
const after = loadavg()[0];
const how = rows[0]?.build === 'threads' ? 'Lazy SMP in shared memory (threads build)' : `split search without shared memory (${rows[0]?.build} build)`;
console.log(`fixed-depth search in Chromium, best of ${RUNS} runs taken in turn, ${how}; load average ${before.toFixed(2)} before, ${after.toFixed(2)} after (2 cores)`);
// With Lazy SMP the last columns are 1 worker's nodes over the main thread's (whose search is the
// answer), the median over the runs and the last run's: the speed-up to expect when each worker
// has a free core (natively: `plyscope bench --parallel`), and in how many runs a helper completed
// the depth first and answered; with the split search, the nodes over 1 worker's.
console.log(`game      depth  workers        ms        nodes   value  move   speed-up  nodes/1-worker nodes  ${rows[0]?.build === 'threads' ? '1-worker/main nodes: median, last  helper answered' : ''}`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
for (const { c, out } of rows) {
  const base = Math.min(...out[1].ms);
  for (const n of COUNTS) {
    const r = out[n];
    const ms = Math.min(...r.ms);
    console.log(
      `${c.game.padEnd(9)} ${String(c.depth).padStart(5)} ${String(n).padStart(8)} ${ms.toFixed(1).padStart(9)} ${String(r.nodes).padStart(12)} ${String(r.value).padStart(7)}  ${String(r.move).padEnd(5)} ${(base / ms).toFixed(2).padStart(8)}x ${(r.nodes / out[1].nodes).toFixed(2).padStart(8)}x` +
        (rows[0]?.build === 'threads'
          ? ` ${median(r.mains.map((m, i) => out[1].mains[i] / m)).toFixed(2).padStart(20)}x ${(out[1].main / r.main).toFixed(2).padStart(6)}x ${`${r.answered}/${r.ms.length}`.padStart(16)}`
          : ''),
    );
    // DETAIL=1: each worker's work in the last run (nodes, deepest completed depth, table hits and
    // those on another worker's entries), to compare with `plyscope search --threads` natively.
    if (process.env.DETAIL === '1' && r.workers) {
      for (const w of r.workers) console.log(`    worker ${w.worker}: ${w.nodes} nodes, depth ${w.depth_reached}, tt hits ${w.tt_hits} (${w.tt_hits_other} on another worker's entries)`);
    }
  }
}
