// Shared set-up for the end-to-end tests: serve the page, start Debian's Chromium through
// playwright-core, and save screenshots under target/screenshots/ (git-ignored) for people to look at.
import { chromium } from 'playwright-core';
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

/** Starts scripts/serve.py on a free port; resolves to { url, stop() }. */
export function startServer() {
  return new Promise((resolve, reject) => {
    const proc = spawn('python3', [join(ROOT, 'scripts', 'serve.py'), '--port', '0', '--quiet'], {
      stdio: ['ignore', 'pipe', 'inherit'],
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
