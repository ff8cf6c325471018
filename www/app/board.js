// The board on the page: the engine's board view drawn by the renderer for its geometry (or the
// position as text when no renderer draws it), the view's legal moves mapped onto cells, the
// keyboard cursor, a selected source (a cell or a piece in hand), and the hint marks. The page
// knows no rules: which cell a move starts from, ends on, or may be reached from is the view's.
// Input (clicks, swipes, keys) lives in input.js.
import { boardFor } from '../board/index.js';
import { state, thinking, humanToMove } from './flow.js';

const canvas = document.getElementById('board');
const textBoard = document.getElementById('text-board');

/** The engine's board view of the state shown (null before the first state). */
export let view = null;
/** The renderer drawing it, or null when none draws its geometry. */
export let board = null;
/** The keyboard cursor {x, y}, or null. */
export let cursor = null;
/** A chosen source cell {x, y}, for moves that start from a cell, or null. */
export let selected = null;
/** A chosen piece in hand {player, index}, for placements from a hand, or null. */
export let selectedHand = null;

/** The board's canvas element. */
export const boardCanvas = canvas;

const same = (a, b) => !!a && !!b && a.x === b.x && a.y === b.y;

/** The view's move written `text`, or null. */
export function moveOf(text) {
  return view ? view.moves.find((m) => m.text === text) || null : null;
}

/** Whether `text` is a swipe (a move that slides everything one way). */
export const isSwipe = (text) => moveOf(text)?.kind === 'swipe';

/** Moves the cursor (null: none) and redraws the marks. */
export function setCursor(c) {
  cursor = c ? { x: c.x, y: c.y } : null;
  updateBoardDecor();
}

/** Selects a source cell (null: none) and redraws the marks. */
export function setSelected(c) {
  selected = c ? { x: c.x, y: c.y } : null;
  if (c) selectedHand = null;
  updateBoardDecor();
}

/** Selects a piece in hand (null: none) and redraws the marks. */
export function setSelectedHand(slot) {
  selectedHand = slot ? { player: slot.player, index: slot.index } : null;
  if (slot) selected = null;
  updateBoardDecor();
}

/** Forgets the board of the last game (a new game starts). */
export function resetBoard() {
  cursor = null;
  view = null;
}

/** Forgets the selected source (a new state arrived). */
export function clearSelection() {
  selected = null;
  selectedHand = null;
}

/** Whether move `m` places the piece in hand `slot` {player, index}. */
export function placesFrom(m, slot) {
  return !!m.hand && !!slot && m.hand.player === slot.player && m.hand.index === slot.index;
}

/** The rotations of the piece on cell `c`: the view's rotate moves starting there. */
export function rotationsOf(c) {
  return view && c ? view.moves.filter((m) => m.kind === 'rotate' && same(m.from, c)) : [];
}

/** Whether move `m` (from the view) starts from cell `c`: its origin, or a cell it may be reached
 * from (an Ataxx clone's neighbours, a Pillbug). */
export function startsFrom(m, c) {
  return same(m.from, c) || (m.sources || []).some((s) => same(s, c));
}

let candidates = []; // [{x, y, text, best}] marked on the board (a search's or a hint's)
let marksShown = true;
const marksNote = document.getElementById('marks-note');

/** A value text in a few characters for a board label: "+1.3", "−2", "win 5", "loss 4", "win +38". */
function shortValue(vt) {
  if (!vt) return '';
  if (vt.margin != null) return vt.margin === 0 ? 'draw' : vt.margin > 0 ? `win +${vt.margin}` : `loss \u2212${-vt.margin}`;
  if (vt.decided != null) return vt.decided >= 0 ? `win ${vt.decided}` : `loss ${-vt.decided}`;
  if (vt.amount == null) return '';
  const a = Math.round(vt.amount * 10) / 10;
  return a === 0 ? '0' : `${a > 0 ? '+' : '\u2212'}${Math.abs(a)}`;
}

/**
 * Marks candidate moves on the board: `moves` [{move, value_text | text, best}] (value_text from
 * the engine), each on the cell the board view's move ends on, taken from the view shown now (an
 * AI's moves stay where it would have played after its move is made); `note` says whose moves and
 * values they are. An empty list clears them.
 */
export function setCandidates(moves, note = '') {
  candidates = [];
  for (const m of moves) {
    const t = targetOf(m.move);
    if (t) candidates.push({ x: t.x, y: t.y, move: m.move, text: m.text || shortValue(m.value_text) || m.move, best: !!m.best });
  }
  if (marksNote) {
    marksNote.textContent = candidates.length && note ? note : '';
    marksNote.hidden = !(candidates.length && note);
  }
  updateBoardDecor();
}

/** Puts back marks made by setCandidates (candidateMarks()) with their note, whatever the view. */
export function restoreCandidates(marks, note = '') {
  candidates = marks.map((c) => ({ ...c }));
  if (marksNote) {
    marksNote.textContent = candidates.length ? note : '';
    marksNote.hidden = !(candidates.length && note);
  }
  updateBoardDecor();
}

/** Shows (true) or hides the candidate marks. */
export function showMarks(on) {
  marksShown = !!on;
  if (marksNote) marksNote.classList.toggle('off', !marksShown);
  updateBoardDecor();
}

/** The candidate marks as set: [{x, y, move, text, best}]. */
export function candidateMarks() {
  return candidates.map((c) => ({ ...c }));
}

/** Legal moves that end on a cell: [{move, x, y, kind, from, sources, hand}], in reading order. */
export function moveCells() {
  if (!view || !state) return [];
  const out = [];
  for (const m of view.moves) {
    if (!m.to) continue;
    out.push({ move: m.text, x: m.to.x, y: m.to.y, kind: m.kind, from: m.from || null, sources: m.sources || [], hand: m.hand || null });
  }
  out.sort((a, b) => a.y - b.y || a.x - b.x);
  return out;
}

/** Whether the game is played by swiping and a swipe is legal now. */
export function swipeGame() {
  return !!view && view.moves.some((m) => m.kind === 'swipe');
}

/** The legal move that swipes in `direction`, or null. */
export function swipeMove(direction) {
  return view ? view.moves.find((m) => m.kind === 'swipe' && m.direction === direction) || null : null;
}

/** The cell a move text points at, or null. */
export function targetOf(text) {
  return moveOf(text)?.to || null;
}

/** The client (CSS pixel) centre of the cell a move text points at, or null. */
export function cellCenterOf(text) {
  const t = targetOf(text);
  return t && board ? board.cellCenter(t.x, t.y) : null;
}

/** The client (CSS pixel) centre of a cell, or null. */
export function cellCenter(c) {
  return c && board ? board.cellCenter(c.x, c.y) : null;
}

/** The grid's size {w, h} for geometries that have one, else null. */
export function gridSize() {
  const g = view?.geometry;
  return g && g.width && g.height ? { w: g.width, h: g.height } : null;
}

/** Redraws the marks: the human's legal targets, the cursor and the selected source. */
export function updateBoardDecor() {
  if (!board || !view) return;
  const human = humanToMove() && !thinking;
  const cells = human ? moveCells() : [];
  // Moves that start from a cell chosen first and move kinds the board draws apart (Ataxx's clones
  // and jumps): each target says whether a move reaches it without leaving a cell (a clone) or
  // only by one that does (a jump), before and after a piece is picked.
  let hints = cells;
  if (selected) hints = cells.filter((c) => startsFrom(c, selected));
  else if (selectedHand) hints = cells.filter((c) => placesFrom(c, selectedHand));
  const byCell = new Map();
  for (const c of hints) byCell.set(`${c.x},${c.y}`, [...(byCell.get(`${c.x},${c.y}`) || []), c]);
  const kindOf = (list) => (list.some((c) => c.kind === 'clone') ? 'clone' : list.some((c) => c.kind === 'jump') ? 'jump' : null);
  hints = [...byCell.values()].map((list) => ({ x: list[0].x, y: list[0].y, move: list[0].move, kind: kindOf(list) }));
  const marks = marksShown ? candidates.map((c) => ({ x: c.x, y: c.y, text: c.text, best: c.best })) : [];
  board.setDecor({
    candidates: marks,
    hints,
    cursor,
    showCursor: human && cursor != null && cells.length > 0,
    selected,
    selectedHand,
  });
}

/** Draws the state's view (`animate`: a move led to it). */
export function renderBoard(animate) {
  const prevSize = gridSize();
  view = state.view || null;
  board = view ? boardFor(canvas, view, board) : board;
  if (view && board) {
    canvas.hidden = false;
    textBoard.hidden = true;
    const size = gridSize();
    if (!prevSize || !size || prevSize.w !== size.w || prevSize.h !== size.h) cursor = null;
    // Only a move animates: a position set, a new game or a take-back is shown at once.
    board.setView(view, !!animate);
    // Swipe games take pointer drags on the board; the page must not scroll under the finger.
    canvas.style.touchAction = swipeGame() || view.geometry.kind === 'tiles' ? 'none' : '';
  } else {
    canvas.hidden = true;
    textBoard.hidden = false;
    textBoard.textContent = state.position;
  }
  // As in the seed: each turn starts with the cursor on the first valid move (unless it is on one).
  if (view && board) {
    const cells = moveCells();
    const onMove = cursor && cells.some((c) => c.x === cursor.x && c.y === cursor.y);
    if (!onMove && cells.length) cursor = { x: cells[0].x, y: cells[0].y };
    if (!cursor) cursor = { x: 0, y: 0 };
  }
  updateBoardDecor();
}

/** The view's label of a cell (`d3`), for messages. */
export function cellName(c) {
  const l = view?.labels;
  if (!l || !c) return c ? `(${c.x}, ${c.y})` : '';
  return `${l.columns[c.x] ?? c.x}${l.rows[c.y] ?? c.y}`;
}
