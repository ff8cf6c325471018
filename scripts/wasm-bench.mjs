// Perft in the browser against native, run by hand: `node scripts/wasm-bench.mjs [runs]`.
// Serves the page (scripts/serve.py), opens headless Chromium (playwright-core, /usr/bin/chromium),
// and times perft from the start of Reversi and Ataxx in the scalar build (pkg/) and the SIMD build
// (pkg/simd/), each run in turn, then the native release CLI (target/release/plyscope perft) the
// same number of times. Prints the best (minimum) time of each, which a loaded machine disturbs
// least, and the ratios, with the load average.
// Build first: scripts/build-wasm.sh and cargo build --release.
// With EDAX=/path/to/lEdax-x86-64-v3 (Edax 4.6, built by hand from github:abulmo/edax-reversi: a peer
// for comparison, never a dependency), Edax's console `perft 10` (no hash table) runs the same
// number of times, interleaved, and the Reversi row gets its time and the ratio Edax / SIMD.
// REVERSI_DEPTH=11 runs Reversi one ply deeper (about 0.6 s a run: less timer noise than depth 10).
import { execFileSync, spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT, startServer, launch } from '../tests/e2e/harness.mjs';

const RUNS = Number(process.argv[2] || 9);
const CASES = [
  { game: 'reversi', depth: Number(process.env.REVERSI_DEPTH || 10) },
  { game: 'ataxx', depth: 6 },
];
const best = (xs) => Math.min(...xs);

/** Edax's own time for `perft depth` from the start, in ms (its console prints m:ss.mmm). */
function edaxPerft(bin, depth) {
  return new Promise((resolve, reject) => {
    const p = spawn(bin, [], { cwd: dirname(bin), stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    const row = new RegExp(`^\\s*${depth},.*?(\\d+):(\\d+)\\.(\\d+),`, 'm');
    p.stdout.on('data', (chunk) => {
      out += chunk;
      const m = row.exec(out);
      if (m) {
        p.stdin.end('quit\n');
        resolve(Number(m[1]) * 60000 + Number(m[2]) * 1000 + Number(m[3]));
      }
    });
    p.on('exit', () => reject(new Error(`Edax ended without a perft ${depth} line:\n${out.slice(-500)}`)));
    p.stdin.write(`perft ${depth}\n`);
  });
}

const server = await startServer();
const browser = await launch();
const page = await browser.newPage();
await page.goto(server.url);
const before = loadavg()[0];
const rows = [];
for (const c of CASES) {
  const wasm = await page.evaluate(
    async ({ game, depth, runs }) => {
      const builds = {};
      for (const [name, path] of [
        ['scalar', '/pkg/plyscope.js'],
        ['simd', '/pkg/simd/plyscope.js'],
      ]) {
        const m = await import(path);
        await m.default();
        builds[name] = m;
      }
      const out = { scalar: [], simd: [], nodes: {} };
      for (let r = 0; r < runs; r++) {
        for (const name of ['scalar', 'simd']) {
          const e = new builds[name].Engine(game);
          const t0 = performance.now();
          const n = e.perft(depth);
          out[name].push(performance.now() - t0);
          out.nodes[name] = n;
          e.free();
        }
      }
      return out;
    },
    { ...c, runs: RUNS },
  );
  if (wasm.nodes.scalar !== wasm.nodes.simd) throw new Error(`${c.game}: the builds disagree: ${JSON.stringify(wasm.nodes)}`);
  const native = [];
  for (let r = 0; r < RUNS; r++) {
    const out = execFileSync(join(ROOT, 'target', 'release', 'plyscope'), ['perft', c.game, String(c.depth), '--json'], { encoding: 'utf8' });
    const last = JSON.parse(out.trim().split('\n').at(-1));
    if (last.nodes !== wasm.nodes.scalar) throw new Error(`${c.game}: native counts ${last.nodes}, wasm ${wasm.nodes.scalar}`);
    // The CLI runs and times each depth in turn; the last line is perft(depth) alone.
    native.push(last.ms);
  }
  let edax = null;
  if (process.env.EDAX && c.game === 'reversi') {
    const times = [];
    for (let r = 0; r < RUNS; r++) times.push(await edaxPerft(process.env.EDAX, c.depth));
    edax = best(times);
  }
  rows.push({ ...c, nodes: wasm.nodes.scalar, native: best(native), scalar: best(wasm.scalar), simd: best(wasm.simd), edax });
}
await browser.close();
server.stop();
const after = loadavg()[0];
console.log(`perft, best of ${RUNS} runs; load average ${before.toFixed(2)} before, ${after.toFixed(2)} after`);
console.log('game      depth        leaves   native ms   scalar ms   simd ms   scalar/native   simd/native   simd speed-up');
for (const r of rows) {
  console.log(
    `${r.game.padEnd(9)} ${String(r.depth).padStart(5)} ${String(r.nodes).padStart(13)} ${r.native.toFixed(1).padStart(11)} ${r.scalar.toFixed(1).padStart(11)} ${r.simd.toFixed(1).padStart(9)} ${(r.native / r.scalar).toFixed(2).padStart(15)}x ${(r.native / r.simd).toFixed(2).padStart(12)}x ${(r.scalar / r.simd).toFixed(2).padStart(14)}x` +
      (r.edax != null ? `   Edax ${r.edax} ms: Edax/scalar ${(r.edax / r.scalar).toFixed(2)}x, Edax/SIMD ${(r.edax / r.simd).toFixed(2)}x` : ''),
  );
}
