// Plyscope's service worker: keeps the page, its scripts, the engine (wasm) and the example trees in a
// cache so that after one visit the app loads and plays with the network off.
//
// Strategy: network first (a rebuilt engine is picked up at once when online), falling back to the
// cache; every same-origin GET that succeeds refreshes its cached copy.
//
// Cross-origin isolation: every response it serves, from the network or the cache, carries
// Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp, so that a
// page this worker controls is cross-origin isolated even from static hosting that sends no such
// headers, and offline: SharedArrayBuffer then exists and the engine's worker loads the threads
// build (www/worker.js). The first visit, before this worker controls the page, is not isolated
// (the page then uses the builds without shared memory); the next load is.
const CACHE = 'plyscope-v1';
const CORE = [
  './',
  './index.html',
  './style.css',
  './app.js',
  './app/settings.js',
  './app/flow.js',
  './app/board.js',
  './app/status.js',
  './app/players.js',
  './app/moves.js',
  './app/input.js',
  './app/hints.js',
  './app/tree-panel.js',
  './app/tree-store.js',
  './app/graph.js',
  './games/panels.js',
  './games/ataxx/walls.js',
  './games/ataxx/tutorial.js',
  './engine-client.js',
  './worker.js',
  './helper.js',
  './games.js',
  './board/index.js',
  './board/grid.js',
  './board/canvas.js',
  './board/hex.js',
  './board/oriented.js',
  './board/tree.js',
  './preview.js',
  './manifest.webmanifest',
  './icons/icon.svg',
  './icons/icon-192.png',
  './icons/icon-512.png',
  './pkg/plyscope.js',
  './pkg/plyscope_bg.wasm',
];
// Files that may not exist in every build (the tree explorer and its examples): cached when present.
const OPTIONAL = [
  './pkg/simd/plyscope.js',
  './pkg/simd/plyscope_bg.wasm',
  './pkg/threads/plyscope.js',
  './pkg/threads/plyscope_bg.wasm',
  './tree/explorer.js',
  './tree/explorer.css',
  './tree/format.js',
  './tree/import.js',
  './tree/binary.js',
  './tree/pack.js',
  './tree/compact.js',
  './tree/compact-write.js',
  './tree/analysis.js',
  './tree/parse-worker.js',
  './tree/layout.js',
  './tree/layout-worker.js',
  './tree/walk.js',
  './tree/dom.js',
  './tree/constants.js',
  './tree/view.js',
  './tree/camera.js',
  './tree/renderer.js',
  './tree/input.js',
  './tree/tooltip.js',
  './tree/status.js',
  './tree/find.js',
  './tree/why.js',
  './tree/compare.js',
  './tree/details.js',
  './tree/replay.js',
  './tree/replay-model.js',
  './tree/index.html',
  './tree-format.schema.json',
  './examples/index.json',
];

async function precache() {
  const cache = await caches.open(CACHE);
  await cache.addAll(CORE);
  await Promise.all(
    OPTIONAL.map(async (url) => {
      try {
        const res = await fetch(url, { cache: 'no-cache' });
        if (!res.ok) return;
        await cache.put(url, res.clone());
        // An examples index lists the example files: cache them too.
        if (url.endsWith('index.json')) {
          const list = await res.json();
          const files = Array.isArray(list) ? list : Array.isArray(list.examples) ? list.examples : [];
          const base = new URL(url, self.location.href);
          await Promise.all(
            files
              .map((f) => (typeof f === 'string' ? f : f && (f.file || f.url || f.path)))
              .filter((f) => typeof f === 'string')
              .map((f) => cache.add(new URL(f, base).href).catch(() => {})),
          );
        }
      } catch {
        // Not part of this build.
      }
    }),
  );
}

self.addEventListener('install', (ev) => {
  ev.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (ev) => {
  ev.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

/** `res` with the two headers of cross-origin isolation (responses that cannot carry a body, or
 * that a script may not read, pass unchanged). */
function isolated(res) {
  if (!res || res.type === 'opaque' || res.type === 'opaqueredirect' || [101, 204, 205, 304].includes(res.status)) return res;
  const headers = new Headers(res.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  ev.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      try {
        const res = await fetch(req);
        if (res.ok) await cache.put(req, res.clone());
        return isolated(res);
      } catch (err) {
        const hit =
          (await cache.match(req, { ignoreSearch: true })) ||
          (req.mode === 'navigate' ? await cache.match('./index.html') : undefined);
        if (hit) return isolated(hit);
        throw err;
      }
    })(),
  );
});
