// Every AI move's search, kept per ply: its tree document and its value, in memory and in
// IndexedDB so that they survive a reload. The store has a size budget; when it is over, the
// oldest searches are dropped first. A search is found again by its game and the moves before it.

const DB = 'plyscope-trees';
const STORE = 'searches';
/** The most bytes (binary form, or JSON text for older entries) the stored trees may take together, by default. */
export const TREE_BUDGET_BYTES = 96 * 1024 * 1024;
let budget = TREE_BUDGET_BYTES;

/** Sets the stored trees' size budget in bytes (applied at the next search kept). */
export function setTreeBudget(bytes) {
  if (Number.isFinite(bytes) && bytes >= 0) budget = bytes;
}

/** The nodes the page asks the engine to keep of each AI move's tree, by default and at most. */
export const TREE_NODES_DEFAULT = 250_000;
export const TREE_NODES_MAX = 2_000_000;
/** The choices the tree panel offers. */
export const TREE_NODE_CHOICES = [50_000, 100_000, 250_000, 500_000, 1_000_000, 2_000_000];
/**
 * The most memory a kept node costs, in bytes, measured (docs/tree-format.md, "The budget on the
 * page"): the engine's record while it searches (64), the tree in binary form while it is shown
 * (about 130 with Reversi's breakdowns, 99 in tic-tac-toe; kept packed, a fifth to an eighth of
 * that: 26 and 13), the explorer's typed links (about 30) and, once the node is opened or
 * searched, its object (about 200).
 */
export const TREE_BYTES_PER_NODE = 64 + 130 + 30 + 200;
const NODES_KEY = 'plyscope.tree-nodes';

/** The node budget of each AI move's tree (the setting, or the default). */
export function treeNodeBudget() {
  try {
    const n = Number(globalThis.localStorage?.getItem(NODES_KEY));
    if (Number.isInteger(n) && n >= 1000 && n <= TREE_NODES_MAX) return n;
  } catch {
    // No storage (private mode): the default.
  }
  return TREE_NODES_DEFAULT;
}

/** Sets the node budget (clamped to 1,000 .. TREE_NODES_MAX); returns the budget now in force. */
export function setTreeNodeBudget(n) {
  const v = Math.max(1000, Math.min(TREE_NODES_MAX, Math.round(Number(n) || TREE_NODES_DEFAULT)));
  try {
    globalThis.localStorage?.setItem(NODES_KEY, String(v));
  } catch {
    // Kept for this page only.
  }
  return v;
}

/** The memory `nodes` kept nodes imply, as text people read ("67 MB"). */
export function treeMemoryText(nodes) {
  const mb = (nodes * TREE_BYTES_PER_NODE) / 1e6;
  return mb < 10 ? `${mb.toFixed(1)} MB` : `${Math.round(mb)} MB`;
}

let dbPromise = null;
const memory = new Map(); // key -> {key, game, line, value, viewer, doc?, size, time}

function openDb() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve) => {
      if (!('indexedDB' in globalThis)) return resolve(null);
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => {
        const db = req.result;
        const st = db.createObjectStore(STORE, { keyPath: 'key' });
        st.createIndex('time', 'time');
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(null); // private mode, quota: the page works without
    });
  }
  return dbPromise;
}

function done(tx) {
  return new Promise((resolve) => {
    tx.oncomplete = () => resolve(true);
    tx.onerror = tx.onabort = () => resolve(false);
  });
}

/** The key of the search made after `moves` from `start` (null: the game's start) in `game`. */
export function searchKey(game, start, moves) {
  return `${game}\n${start || ''}\n${moves.join(' ')}`;
}

/**
 * Keeps a search: `report` (the engine's search report, with its tree) made after `moves` from
 * `start` in `game`. Resolves once stored (or not, when IndexedDB is unavailable).
 */
export async function keepSearch(game, start, moves, report) {
  const key = searchKey(game, start, moves);
  const entry = {
    key,
    game,
    line: moves.join(' '),
    move: report.move,
    value: report.value_text || null,
    viewer: report.viewer || null,
    doc: report.tree || null,
    time: Date.now(),
  };
  // A tree in binary form (the worker's) counts its bytes; an older document its JSON text.
  entry.size = !entry.doc ? 0 : entry.doc.packed instanceof ArrayBuffer ? entry.doc.packed.byteLength : JSON.stringify(entry.doc).length;
  memory.set(key, entry);
  const db = await openDb();
  if (!db) return;
  try {
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(entry);
    await done(tx);
    await trim(db);
  } catch {
    // Quota or a closed database: the tree stays in memory only.
  }
}

/**
 * Drops the trees of the oldest searches until the stored ones fit the budget; the newest keeps its
 * tree whatever its size. A search whose tree is dropped keeps its move and value (the evaluation
 * graph needs them).
 */
async function trim(db) {
  const tx = db.transaction(STORE, 'readwrite');
  const st = tx.objectStore(STORE);
  const all = await new Promise((resolve) => {
    const out = [];
    const req = st.index('time').openCursor();
    req.onsuccess = () => {
      const c = req.result;
      if (!c) return resolve(out);
      out.push({ key: c.value.key, size: c.value.size || 0 });
      c.continue();
    };
    req.onerror = () => resolve(out);
  });
  let total = all.reduce((a, e) => a + e.size, 0);
  for (const e of all.slice(0, -1)) {
    if (total <= budget) break;
    if (!e.size) continue;
    const got = await new Promise((resolve) => {
      const req = st.get(e.key);
      req.onsuccess = () => resolve(req.result || null);
      req.onerror = () => resolve(null);
    });
    if (got) st.put({ ...got, doc: null, size: 0 });
    const m = memory.get(e.key);
    if (m) memory.set(e.key, { ...m, doc: null, size: 0 });
    total -= e.size;
  }
  await done(tx);
}

/** The kept search after `moves` (see `keepSearch`), or null. */
export async function findSearch(game, start, moves) {
  const key = searchKey(game, start, moves);
  if (memory.has(key)) return memory.get(key);
  const db = await openDb();
  if (!db) return null;
  try {
    const tx = db.transaction(STORE, 'readonly');
    const entry = await new Promise((resolve) => {
      const req = tx.objectStore(STORE).get(key);
      req.onsuccess = () => resolve(req.result || null);
      req.onerror = () => resolve(null);
    });
    memory.set(key, entry);
    return entry;
  } catch {
    return null;
  }
}

/**
 * The kept searches along a line: for each ply n (1-based) of `moves`, the search that chose move n
 * (made after the first n-1 moves), or null. Missing ones are looked up in IndexedDB once.
 */
export async function searchesAlong(game, start, moves) {
  const out = [];
  for (let n = 1; n <= moves.length; n++) out.push(await findSearch(game, start, moves.slice(0, n - 1)));
  return out;
}

/** The total size of the stored trees (bytes of JSON) and their count, for tests and the curious. */
export async function storedSize() {
  const db = await openDb();
  if (!db) return { count: memory.size, bytes: 0 };
  const tx = db.transaction(STORE, 'readonly');
  return new Promise((resolve) => {
    let count = 0;
    let bytes = 0;
    const req = tx.objectStore(STORE).openCursor();
    req.onsuccess = () => {
      const c = req.result;
      if (!c) return resolve({ count, bytes });
      count++;
      bytes += c.value.size || 0;
      c.continue();
    };
    req.onerror = () => resolve({ count, bytes });
  });
}
