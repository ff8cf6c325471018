// How the page reads each game's position text and move texts for drawing. No rules live here: the
// legal moves always come from the engine; an adapter only says which cell a move text points at.
//
// An adapter: {geometry, style, parse(position, gameId) -> view, target(move) -> {x, y} | null,
// source(move) -> {x, y} | null, cellName(x, y), colLabel(x), rowLabel(y), score?: bool}.
// A view: {w, h, cells: Array<0 | 1 | null>, walls: Set<index>, toMove: 0 | 1 | null}
// (in the 'tiles' style, cells hold card values instead of players, and the view adds `next`, the
// hinted card, `swiped`, a swipe waiting for its card, and `points`, the score).
// Games without an adapter are played through the move buttons and shown as position text.

const letters = 'abcdefghijklmnopqrstuvwxyz';

function cellFromName(text, w, h, rowsUp = false) {
  const m = /^([a-z])(\d{1,2})$/.exec(text);
  if (!m) return null;
  const x = letters.indexOf(m[1]);
  const n = Number(m[2]);
  if (x < 0 || x >= w || n < 1 || n > h) return null;
  return { x, y: rowsUp ? h - n : n - 1 };
}

/** Square boards whose position text is w*h cells row by row from a1 (top-left), then the side. */
function rowsFromTop(size, style, score) {
  return {
    geometry: 'grid',
    style,
    score,
    size,
    parse(pos, id) {
      const n = typeof size === 'function' ? size(id) : size;
      const [cellsText, side] = pos.trim().split(/\s+/);
      const cells = [...(cellsText || '')].slice(0, n * n).map((c) => (c === 'X' ? 0 : c === 'O' ? 1 : null));
      while (cells.length < n * n) cells.push(null);
      return { w: n, h: n, cells, walls: new Set(), toMove: side === 'X' ? 0 : side === 'O' ? 1 : null };
    },
    target(move, view) {
      return cellFromName(move, view.w, view.h);
    },
    source() {
      return null;
    },
    cellName: (x, y) => `${letters[x]}${y + 1}`,
    colLabel: (x) => letters[x],
    rowLabel: (y) => String(y + 1),
  };
}

function reversiSize(id) {
  const m = /^reversi-(\d+)$/.exec(id);
  return m ? Number(m[1]) : 8;
}

/** Ataxx: FEN with rank 7 first, `x` `o` `-` (wall) and digits for empty runs; moves `f2`, `a7c5`. */
const ataxx = {
  geometry: 'grid',
  style: 'discs',
  score: true,
  parse(pos) {
    const [board = '', side] = pos.trim().split(/\s+/);
    const rows = board.split('/');
    const h = rows.length || 7;
    const w = 7;
    const cells = [];
    const walls = new Set();
    for (const row of rows) {
      let count = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) {
          for (let i = 0; i < Number(ch); i++) cells.push(null);
          count += Number(ch);
          continue;
        }
        if (ch === '-') walls.add(cells.length);
        cells.push(ch === 'x' ? 0 : ch === 'o' ? 1 : null);
        count++;
      }
      while (count++ < w) cells.push(null);
    }
    return { w, h, cells, walls, toMove: side === 'x' ? 0 : side === 'o' ? 1 : null };
  },
  target(move, view) {
    return cellFromName(move.length === 4 ? move.slice(2) : move, view.w, view.h, true);
  },
  source(move, view) {
    return move.length === 4 && move !== '0000' ? cellFromName(move.slice(0, 2), view.w, view.h, true) : null;
  },
  /** Whether a listed move can start from cell `sel`: a jump names its origin; a clone grows from
   * any own piece next to its target. */
  startsFrom(m, sel) {
    if (m.from) return m.from.x === sel.x && m.from.y === sel.y;
    return Math.max(Math.abs(m.x - sel.x), Math.abs(m.y - sel.y)) === 1;
  },
  cellName: (x, y) => `${letters[x]}${7 - y}`,
  colLabel: (x) => letters[x],
  rowLabel: (y) => String(7 - y),
};

/**
 * Threes: rows top to bottom split by `/`, cells by spaces (a card value or `.`), then
 * `| deck a b c | next h`. Cells hold card values (numbers) rather than players; swipes have no cell.
 */
const threes = {
  geometry: 'grid',
  style: 'tiles',
  score: false,
  parse(pos) {
    const [board = '', ...rest] = pos.split('|');
    const rows = board.trim().split('/').map((r) => r.trim().split(/\s+/));
    const h = rows.length;
    const w = Math.max(...rows.map((r) => r.length));
    const cells = [];
    for (const r of rows) for (let x = 0; x < w; x++) cells.push(/^\d+$/.test(r[x] || '') ? Number(r[x]) : null);
    const info = rest.map((t) => t.trim()).filter(Boolean);
    const next = info.find((t) => t.startsWith('next '));
    const swiped = info.find((t) => t.startsWith('swiped '));
    // The score as the game counts it: each card of 3 or more is worth 3^(log2(v/3)+1).
    let points = 0;
    for (const v of cells) if (v != null && v >= 3) points += 3 ** (Math.log2(v / 3) + 1);
    return {
      w,
      h,
      cells,
      walls: new Set(),
      toMove: 0,
      next: next ? next.slice(5).trim() : null,
      swiped: swiped ? swiped.split(/\s+/)[1] : null,
      points: Math.round(points),
    };
  },
  target() {
    return null;
  },
  source() {
    return null;
  },
  cellName: (x, y) => `${letters[x]}${y + 1}`,
  colLabel: (x) => letters[x],
  rowLabel: (y) => String(y + 1),
};

export const adapters = {
  threes,
  tictactoe: rowsFromTop(3, 'marks', false),
  reversi: rowsFromTop(reversiSize, 'discs', true),
  ataxx,
};

/** The adapter for a game id (`reversi-12` uses `reversi`'s), or null. */
export function adapterFor(gameId) {
  const base = String(gameId).split('-')[0];
  return adapters[base] || null;
}

/** "black" -> "Black". */
export function titleCase(name) {
  return name ? name[0].toUpperCase() + name.slice(1) : name;
}

/** The banner text for an outcome from the engine ("black wins" -> "Black wins!"). */
export function outcomeBanner(outcome) {
  if (!outcome) return '';
  if (outcome === 'draw') return 'Draw!';
  const win = /^(.+) wins$/.exec(outcome);
  if (win) return `${win[1].length <= 2 ? win[1].toUpperCase() : titleCase(win[1])} wins!`;
  return titleCase(outcome);
}
