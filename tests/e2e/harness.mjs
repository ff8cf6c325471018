// Shared set-up for the end-to-end tests: serve the page, start Debian's Chromium through
// playwright-core, and save screenshots under target/screenshots/ (git-ignored) for people to look at.
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHOTS = join(ROOT, 'target', 'screenshots');

/** The flags Chromium needs on this machine (no sandbox as root, no GPU, no background traffic). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Starts scripts/serve.py on a free port; resolves to { url, stop() }. `isolation: false` leaves out
 * its cross-origin isolation headers (COOP/COEP), as static hosting that sends none. */
export function startServer({ isolation = true } = {}) {
  return new Promise((resolve, reject) => {
    const proc = spawn('python3', [join(ROOT, 'scripts', 'serve.py'), '--port', '0', '--quiet'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, NO_ISOLATION: isolation ? '0' : '1' },
    });
    let buf = '';
    const timer = setTimeout(() => reject(new Error('server did not start within 10 s')), 10000);
    proc.stdout.on('data', (chunk) => {
      buf += chunk;
      const m = buf.match(/serving (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stop: () => proc.kill() });
      }
    });
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

/** Launches headless Chromium. */
export function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

/** Saves a screenshot of `page` as target/screenshots/<name>.png and returns its path. */
export async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Collects page errors and console errors so that tests can assert there were none. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

/**
 * Starts the server and the browser before a test file's tests and stops them after.
 * Returns an object whose `server` and `browser` are set once the tests run.
 */
export function useBrowser() {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    env.server?.stop();
  });
  return env;
}

/** Waits until the tree explorer has finished animating (two frames after the animation's end). */
export async function settle(page) {
  await page.waitForTimeout(320);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Opens the standalone tree explorer (`/tree/<query>`) and waits until it shows a tree. */
export async function openExplorer(env, query = '', viewport = { width: 1280, height: 860 }) {
  const page = await env.browser.newPage({ viewport });
  const errors = watchErrors(page);
  await page.goto(`${env.server.url}tree/${query}`);
  await page.waitForFunction(() => window.explorer && window.explorer.model());
  await settle(page);
  return { page, errors };
}

/** Pastes a tree document into the standalone explorer's text box and loads it; waits until it is
 * shown (expanded whole with `expand`) and laid out. */
export async function pasteTree(page, doc, { expand = false } = {}) {
  await page.locator('[data-testid=tree-json]').fill(JSON.stringify(doc));
  await page.locator('[data-testid=load-tree]').click();
  await page.waitForFunction((e) => window.explorer.current()?.engine === e, doc.engine);
  if (expand) await page.evaluate(() => window.explorer.expandAll());
  await page.evaluate(() => window.explorer.whenLaidOut());
  await settle(page);
}

/** Hovers node `id` in the explorer and waits for its tooltip's board preview to be drawn or given
 * up. Returns `{state: 'none', text}` without a preview, else `{state: 'drawn', text, width,
 * differ, ...}` with what the renderer said it drew (its data attributes: position, pieces, beam...)
 * and `differ`, the number of pixels unlike the top-left one. */
export async function previewOf(page, id) {
  await page.mouse.move(5, 5);
  await page.waitForSelector('[data-testid=tree-tooltip]', { state: 'hidden' });
  const box = await page.evaluate((i) => window.explorer.nodeBox(i), id);
  if (!box) throw new Error(`node ${id} is not shown`);
  await page.mouse.move(box.x + 4, box.y + 2);
  await page.waitForSelector('[data-testid=tree-tooltip]:not([hidden])');
  return page
    .waitForFunction(
      () => {
        const t = document.querySelector('[data-testid=tree-tooltip]');
        const c = t.querySelector('canvas.tree-preview');
        if (!c) return { state: 'none', text: t.innerText };
        if (c.dataset.state !== 'drawn') return null;
        const g = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let differ = 0;
        for (let i = 0; i < g.length; i += 4) if (g[i] !== g[0] || g[i + 1] !== g[1] || g[i + 2] !== g[2]) differ++;
        return { ...c.dataset, state: 'drawn', width: c.getBoundingClientRect().width, differ, text: t.innerText };
      },
      null,
      { timeout: 15000 },
    )
    .then((h) => h.jsonValue());
}

/** The two window sizes the page is tested at. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** A fresh browser context (empty storage) with a page on the app, once the engine is ready. */
export async function openApp(env, viewport = DESKTOP, url = env.server.url) {
  const context = await env.browser.newContext({ viewport, deviceScaleFactor: viewport === PHONE ? 3 : 1 });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  await page.waitForFunction(() => window.plyscope && window.plyscope.state, null, { timeout: 20000 });
  return { context, page, errors };
}

/** The app's state as the page exposes it for tests. */
export const appState = (page) => page.evaluate(() => window.plyscope.state);

/** Picks a game in the picker and waits for its start position. */
export async function pickGame(page, id) {
  await page.selectOption('[data-testid=game-select]', id);
  await page.waitForFunction((g) => window.plyscope.state.game === g && window.plyscope.state.history.length === 0, id);
}

/** Sets side `side`'s player (`human`, `alphabeta`, `mcts`...) in the game page. */
export async function setLevel(page, side, level) {
  await page.selectOption(`[data-testid=side-${side}-level]`, level);
}

/** Sets one of side `side`'s AI settings (`depth`, `time`, ...) and lets the page see the change. */
export async function setKnob(page, side, key, value) {
  await page.fill(`[data-testid=side-${side}-${key}]`, String(value));
  await page.dispatchEvent(`[data-testid=side-${side}-${key}]`, 'change');
}

/** Side `side` searches to exactly `depth` plies, with no time limit (the same search on any machine). */
export async function fixDepth(page, side, depth) {
  await setKnob(page, side, 'depth', depth);
  await setKnob(page, side, 'time', 0);
}

/** Sets the game's position from its text (the "Position and moves as text" box). */
export async function setPosition(page, text) {
  await page.click('#position-box summary');
  await page.fill('[data-testid=position-text]', text);
  await page.click('[data-testid=set-position]');
  await page.waitForFunction((t) => window.plyscope.state.position === t, text);
  await page.click('#position-box summary');
}

/** Plays `move` as the human: a click on its cell, or its button for moves without one. */
export async function clickMove(page, move) {
  const c = await page.evaluate((m) => window.plyscope.cellCenterOf(m), move);
  if (c) await page.mouse.click(c.x, c.y);
  else await page.click(`[data-testid=move-buttons] button[data-move="${move}"]`);
}

/** The [r, g, b] of the tree explorer's canvas at a page position. */
export function treePixel(page, x, y) {
  return page.evaluate(
    ([px, py]) => {
      const c = document.querySelector('[data-testid=tree-view] canvas.ps-canvas');
      const r = c.getBoundingClientRect();
      const s = c.width / r.width;
      const d = c.getContext('2d').getImageData(Math.round((px - r.left) * s), Math.round((py - r.top) * s), 1, 1).data;
      return [d[0], d[1], d[2]];
    },
    [x, y],
  );
}
