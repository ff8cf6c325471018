// The board on the page: the game's position drawn on the canvas (or as text for games without a
// board adapter), the legal moves mapped onto cells, the keyboard cursor, a selected source cell,
// and the hint marks. Input (clicks, swipes, keys) lives in input.js.
import { GridBoard } from '../board/grid.js';
import { adapterFor } from '../games.js';
import { state, thinking, humanToMove } from './flow.js';

const SWIPES = ['up', 'down', 'left', 'right'];

const canvas = document.getElementById('board');
const textBoard = document.getElementById('text-board');

/** The board adapter of the game shown (null when it has none). */
export let adapter = null;
/** The adapter's reading of the position. */
export let view = null;
/** The canvas board (GridBoard), once a game with an adapter was shown. */
export let board = null;
/** The keyboard cursor {x, y}, or null. */
export let cursor = null;
/** A chosen source cell {x, y}, for games whose moves go from a cell to a cell, or null. */
export let selected = null;

/** The board's canvas element. */
export const boardCanvas = canvas;

/** Whether `move` is a swipe (Threes). */
export const isSwipe = (move) => SWIPES.includes(move);

/** Moves the cursor (null: none) and redraws the marks. */
export function setCursor(c) {
  cursor = c ? { x: c.x, y: c.y } : null;
  updateBoardDecor();
}

/** Selects a source cell (null: none) and redraws the marks. */
export function setSelected(c) {
  selected = c ? { x: c.x, y: c.y } : null;
  updateBoardDecor();
}

/** Forgets the board of the last game (a new game starts). */
export function resetBoard() {
  cursor = null;
  view = null;
}

/** Forgets the selected source cell (a new state arrived). */
export function clearSelection() {
  selected = null;
}

let candidates = []; // [{move, text, best}] marked on the board (a hint's or a running search's)

/** A value text in a few characters for a board label: "+1.3", "−2", "win 5", "loss 4". */
function shortValue(vt) {
  if (!vt) return '';
  if (vt.decided != null) return vt.decided >= 0 ? `win ${vt.decided}` : `loss ${-vt.decided}`;
  if (vt.amount == null) return '';
  const a = Math.round(vt.amount * 10) / 10;
  return a === 0 ? '0' : `${a > 0 ? '+' : '\u2212'}${Math.abs(a)}`;
}

/**
 * Marks candidate moves on the board: `moves` [{move, value_text | text, best}] (value_text from
 * the engine); an empty list clears them.
 */
export function setCandidates(moves) {
  candidates = moves.map((m) => ({ move: m.move, text: m.text || shortValue(m.value_text) || m.move, best: !!m.best }));
  updateBoardDecor();
}

/** Legal moves that point at a cell: [{move, x, y, from}], in reading order. */
export function moveCells() {
  if (!adapter || !view || !state) return [];
  const out = [];
  for (const m of state.legal) {
    const t = adapter.target(m.move, view);
    if (t) out.push({ move: m.move, x: t.x, y: t.y, from: adapter.source(m.move, view) });
  }
  out.sort((a, b) => a.y - b.y || a.x - b.x);
  return out;
}

/** Whether move cell `m` starts from cell `sel`. */
export function startsFrom(m, sel) {
  if (adapter?.startsFrom) return adapter.startsFrom(m, sel);
  return !!m.from && m.from.x === sel.x && m.from.y === sel.y;
}

/** Whether the game is played by swiping (Threes) and a swipe is legal now. */
export function swipeGame() {
  return !!state && adapter?.style === 'tiles' && state.legal.some((m) => SWIPES.includes(m.move));
}

/** The cell a move text points at, or null. */
export function targetOf(move) {
  return adapter && view ? adapter.target(move, view) : null;
}

/** The client (CSS pixel) centre of the cell a move text points at, or null. */
export function cellCenterOf(move) {
  const t = targetOf(move);
  return t && board ? board.cellCenter(t.x, t.y) : null;
}

/** Redraws the marks: the human's legal targets, the cursor and the selected cell. */
export function updateBoardDecor() {
  if (!board || !view) return;
  const human = humanToMove() && !thinking;
  const cells = human ? moveCells() : [];
  // In games whose moves may start from a cell chosen first (Ataxx), each target says whether a
  // move reaches it without leaving a cell (a clone: its text names no source) or only by one that
  // does (a jump), so boards draw the two apart, before and after a piece is picked.
  const kinds = !!adapter?.startsFrom;
  const kindOf = (list) => (list.some((c) => !c.from) ? 'clone' : 'jump');
  let hints = cells;
  if (selected) hints = cells.filter((c) => startsFrom(c, selected));
  if (kinds) {
    const byCell = new Map();
    for (const c of hints) byCell.set(c.y * 1024 + c.x, [...(byCell.get(c.y * 1024 + c.x) || []), c]);
    hints = [...byCell.values()].map((list) => ({ ...list[0], kind: kindOf(list) }));
  }
  const marks = [];
  for (const c of candidates) {
    const t = targetOf(c.move);
    if (t) marks.push({ x: t.x, y: t.y, text: c.text, best: c.best });
  }
  board.setDecor({
    candidates: marks,
    hints,
    cursor,
    showCursor: human && cursor != null && cells.length > 0,
    selected,
  });
}

/** Draws the state's position (lastMove: the move that led to it, animated). */
export function renderBoard(lastMove) {
  adapter = adapterFor(state.game);
  if (adapter) {
    const prevW = view?.w;
    view = adapter.parse(state.position, state.game);
    canvas.hidden = false;
    textBoard.hidden = true;
    if (!board) board = new GridBoard(canvas, adapter.style);
    board.setStyle(adapter.style);
    if (prevW !== view.w) cursor = null;
    const lastText = lastMove ?? state.history[state.history.length - 1];
    const last = lastText ? adapter.target(lastText, view) : null;
    // Only a move animates: a position set, a new game or a take-back is shown at once.
    const swipe = SWIPES.includes(lastText) && lastMove != null ? lastText : null;
    const from = lastText ? adapter.source(lastText, view) : null;
    board.setView(view, { last, from, swipe, labels: { col: adapter.colLabel, row: adapter.rowLabel } }, lastMove != null);
    // Swipe games take pointer drags on the board; the page must not scroll under the finger.
    canvas.style.touchAction = adapter.style === 'tiles' ? 'none' : '';
  } else {
    view = null;
    canvas.hidden = true;
    textBoard.hidden = false;
    textBoard.textContent = state.position;
  }
  // As in the seed: each turn starts with the cursor on the first valid move (unless it is on one).
  if (adapter) {
    const cells = moveCells();
    const onMove = cursor && cells.some((c) => c.x === cursor.x && c.y === cursor.y);
    if (!onMove && cells.length) cursor = { x: cells[0].x, y: cells[0].y };
    if (!cursor) cursor = { x: 0, y: 0 };
  }
  updateBoardDecor();
}
