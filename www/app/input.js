// The player's input on the board: clicks on cells (a source, then a target, for moves from a cell
// to a cell), swipes by finger or mouse (Threes), and the keyboard (cursor, Space, undo and redo,
// pieces in hand, levels, pause, step, hint, and the Konami code).
import { state, thinking, humanToMove, humanPlay, sideIndex, undo, redo, restart, togglePause, step, suggest, cancelSearch } from './flow.js';
import {
  view,
  board,
  cursor,
  selected,
  boardCanvas as canvas,
  moveCells,
  selectedHand,
  startsFrom,
  placesFrom,
  rotationsOf,
  swipeGame,
  swipeMove,
  cellName,
  setCursor,
  setSelected,
  setSelectedHand,
  updateBoardDecor,
} from './board.js';
import { changeLevel, toggleAiPlays, playerName } from './players.js';
import { say, toast, onlyPass } from './status.js';
import { treeRoot } from './tree-panel.js';
import { renderMoveButtons } from './moves.js';

const same = (a, b) => !!a && !!b && a.x === b.x && a.y === b.y;

/** A click (or Space) on what the renderer's hitTest found: a cell {x, y} or a piece in hand
 * {hand: {player, index}}. On a cell: plays the one legal move ending there (from the selected
 * source, when one is selected), or picks the cell as the source of the moves that start from it. On
 * a piece in hand: picks it as the source of the moves that place it. */
export function cellClicked(hit) {
  if (!hit || !state || state.outcome) return;
  if (thinking || !humanToMove()) {
    say('Wait: it is the AI’s turn.', true);
    return;
  }
  if (hit.hand) return handClicked(hit.hand);
  const c = hit;
  setCursor(c);
  if (onlyPass()) {
    say(`${playerName(state.to_move)} has no move here and must pass: press Pass (or Space).`, true);
    return;
  }
  const cells = moveCells();
  const here = cells.filter((m) => m.x === c.x && m.y === c.y);
  if (selectedHand) {
    const m = distinctMoves(here.filter((h) => placesFrom(h, selectedHand)));
    if (m.length === 1) return humanPlay(m[0]);
  }
  if (selected) {
    const from = here.filter((h) => startsFrom(h, selected));
    // The selected piece's own move first (a Pillbug's throw of a neighbour may end there too).
    const own = distinctMoves(from.filter((h) => same(h.from, selected)));
    const m = own.length ? own : distinctMoves(from);
    if (m.length === 1) return humanPlay(m[0]);
  }
  const distinct = distinctMoves(here);
  if (distinct.length === 1 && !selected && !selectedHand) return humanPlay(distinct[0]);
  // A cell from which moves start (a piece to move, a piece a clone grows from, a piece to turn):
  // select it (again, to change the choice). Rotations of the selected piece show as buttons.
  if (cells.some((m) => startsFrom(m, c)) || rotationsOf(c).length) {
    const again = selected && selected.x === c.x && selected.y === c.y;
    setSelected(again ? null : c);
    if (state.to_move !== 'chance') renderMoveButtons();
    if (!again) explainTargets(c);
    return;
  }
  if (distinct.length === 1) return humanPlay(distinct[0]);
  if (distinct.length > 1) {
    say('Choose where the piece comes from first.', true);
    return;
  }
  say(`${cellName(c)} is not a valid move here.`, true);
  updateBoardDecor();
}

/** The distinct move texts of a list of move cells. */
function distinctMoves(list) {
  return [...new Set(list.map((h) => h.move))];
}

/** A click on a piece in hand: selects it (again: unselects it) when a move places it. */
function handClicked(slot) {
  if (!view.moves.some((m) => placesFrom(m, slot))) {
    say('That piece cannot be placed now.', true);
    return;
  }
  const again = placesFrom({ hand: selectedHand }, slot);
  setSelectedHand(again ? null : slot);
  if (state.to_move !== 'chance') renderMoveButtons();
  if (!again) say('Pick a marked cell to place the piece.');
}

/** Says how the selected piece's targets are marked when it has moves of several kinds. */
function explainTargets(c) {
  const kinds = new Set(moveCells().filter((m) => startsFrom(m, c)).map((m) => m.kind));
  if (kinds.has('clone') && kinds.has('jump')) say('Filled dots: clone (the piece stays); dashed rings: jump (the piece leaves its cell).');
  else if (rotationsOf(c).length) say('Pick a target, or turn the piece with ↺ ↻ beside the board.');
}

// Swipe games: a drag across the board by finger or mouse plays the swipe in its main direction.
// Other games: a drag from a source (a piece on the board, or in hand) to another cell picks the
// source and then the target, as two clicks would. The click that ends a drag is not a cell click.
let drag = null;
let press = null;
let dragged = false;
// Pointers down on the board; with two or more (a pinch on a board that zooms) no press or swipe
// counts as a move until every finger is lifted.
const down = new Set();
let multi = false;
canvas.addEventListener('pointerdown', (ev) => {
  down.add(ev.pointerId);
  dragged = false;
  press = null;
  if (down.size > 1) {
    multi = true;
    drag = null;
    return;
  }
  multi = false;
  if (!swipeGame()) {
    if (board) press = { hit: board.hitTest(ev.clientX, ev.clientY), id: ev.pointerId };
    return;
  }
  drag = { x: ev.clientX, y: ev.clientY, id: ev.pointerId };
  canvas.setPointerCapture?.(ev.pointerId);
});
canvas.addEventListener('pointerup', (ev) => {
  down.delete(ev.pointerId);
  if (multi) {
    press = null;
    drag = null;
    dragged = true; // nor is the lift a click
    return;
  }
  const p = press;
  press = null;
  if (p && p.id === ev.pointerId && board && p.hit) dragToCell(p.hit, board.hitTest(ev.clientX, ev.clientY));
  const d = drag;
  drag = null;
  if (!d || d.id !== ev.pointerId) return;
  const dx = ev.clientX - d.x;
  const dy = ev.clientY - d.y;
  const r = canvas.getBoundingClientRect();
  if (Math.max(Math.abs(dx), Math.abs(dy)) < Math.max(24, r.width * 0.06)) return;
  dragged = true;
  const dir = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'right' : 'left') : dy > 0 ? 'down' : 'up';
  if (!swipeGame()) return;
  const m = swipeMove(dir);
  if (!m) {
    say(`Nothing can move ${dir}.`, true);
    return;
  }
  humanPlay(m.text);
});
canvas.addEventListener('pointercancel', (ev) => {
  down.delete(ev.pointerId);
  drag = null;
  press = null;
});

/** A press on `from` let go on another cell `to`: when moves start from `from`, pick it as the
 * source and `to` as the target. */
function dragToCell(from, to) {
  if (!to || to.hand || !view || !state || state.outcome || thinking || !humanToMove()) return;
  if (!from.hand && same(from, to)) return;
  const cells = moveCells();
  if (from.hand) {
    if (!cells.some((m) => placesFrom(m, from.hand))) return;
    setSelectedHand(from.hand);
  } else {
    if (!cells.some((m) => startsFrom(m, from))) return;
    setSelected(from);
  }
  dragged = true;
  cellClicked(to);
}

canvas.addEventListener('click', (ev) => {
  if (!board) return;
  if (dragged || view?.geometry?.kind === 'tiles') {
    dragged = false;
    if (swipeGame() && humanToMove()) say('Swipe across the board (or use the arrow keys) to move the cards.');
    return;
  }
  cellClicked(board.hitTest(ev.clientX, ev.clientY));
});

// ---------------------------------------------------------------------------------------------
// Keyboard

const KONAMI = ['ArrowUp', 'ArrowUp', 'ArrowDown', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'ArrowLeft', 'ArrowRight', 'b', 'a'];
let konamiAt = 0;

function cycleMove(dir) {
  // With a source picked (a piece on the board or in hand), only its targets.
  let cells = moveCells();
  if (selected) cells = cells.filter((c) => startsFrom(c, selected));
  else if (selectedHand) cells = cells.filter((c) => placesFrom(c, selectedHand));
  if (!cells.length || !view) return;
  // Reading order (moveCells is sorted by row, then column), whatever the geometry.
  const key = (c) => c.y * 65536 + c.x;
  const cur = cursor ? key(cursor) : -1;
  let next;
  if (dir > 0) next = cells.find((c) => key(c) > cur) || cells[0];
  else next = [...cells].reverse().find((c) => key(c) < cur) || cells[cells.length - 1];
  say(`Highlighted ${next.move}.`);
  setCursor(next);
}

/** Picks the next (dir 1) or previous (dir -1) piece in hand that a legal move places, in the
 * order of the hands (I and Shift+I): the keyboard's way to what a click on a hand piece does. */
function cycleHand(dir) {
  if (!view || !state || state.outcome) return;
  const slots = [];
  for (const m of view.moves) {
    if (m.hand && !slots.some((s) => placesFrom(m, s))) slots.push(m.hand);
  }
  if (!slots.length) {
    say('No piece in hand can be placed now.', true);
    return;
  }
  slots.sort((a, b) => a.player - b.player || a.index - b.index);
  const at = selectedHand ? slots.findIndex((s) => s.player === selectedHand.player && s.index === selectedHand.index) : -1;
  const next = slots[(at + dir + slots.length * 2 + (at < 0 && dir < 0 ? 1 : 0)) % slots.length];
  setSelectedHand(next);
  const held = view.hands?.[next.player]?.[next.index];
  const name = held ? held.piece.kind || held.piece.label : 'piece';
  const count = held && held.count > 1 ? ` (${held.count} in hand)` : '';
  say(`Selected ${name}${count}: move the cursor to a marked cell and press Space to place it.`);
  if (state.to_move !== 'chance') renderMoveButtons();
}

/** Moves the keyboard cursor the way an arrow key points; the renderer says which cell that is
 * (on a hex board too); at the edge it stays. */
function moveCursor(key) {
  if (!board) return;
  const next = board.step(cursor || { x: 0, y: 0 }, key);
  if (next) setCursor(next);
}

document.addEventListener('keydown', (ev) => {
  const t = ev.target;
  const typing = t instanceof HTMLElement && (t.matches('input, textarea, select, [contenteditable]') || t.isContentEditable);
  // The tree explorer has keys of its own (arrows, Enter, Space) while it has the focus.
  if (typing || (t instanceof Node && treeRoot.contains(t))) return;
  const onControl = t instanceof HTMLElement && t.matches('button, summary, a');

  // The Konami code: up up down down left right left right b a.
  const k = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if (k === KONAMI[konamiAt]) {
    konamiAt++;
    if (konamiAt === KONAMI.length) {
      konamiAt = 0;
      document.body.classList.toggle('konami');
      const on = document.body.classList.contains('konami');
      if (board) {
        board.rainbow = on;
        board.request();
      }
      toast(on ? 'Disco discs unlocked!' : 'Disco discs off.');
      return; // the code's last key is not also a command (A: let the AI play)
    }
  } else konamiAt = k === KONAMI[0] ? 1 : 0;

  if (ev.ctrlKey || ev.metaKey) {
    if (k === 'z' && !ev.shiftKey) (ev.preventDefault(), undo());
    else if (k === 'y' || (k === 'z' && ev.shiftKey)) (ev.preventDefault(), redo());
    return;
  }
  if (ev.altKey) return;
  // Games whose moves are directions (Threes' swipes): the arrows play them.
  const dir = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' }[ev.key];
  if (dir && !ev.shiftKey && state && !moveCells().length && swipeMove(dir)) {
    ev.preventDefault();
    humanPlay(swipeMove(dir).text);
    return;
  }
  if (dir && !ev.shiftKey && swipeGame()) {
    ev.preventDefault();
    say(`Nothing can move ${dir}.`, true);
    return;
  }
  switch (ev.key) {
    case 'ArrowLeft':
      ev.preventDefault();
      ev.shiftKey ? moveCursor('ArrowLeft') : cycleMove(-1);
      break;
    case 'ArrowRight':
      ev.preventDefault();
      ev.shiftKey ? moveCursor('ArrowRight') : cycleMove(1);
      break;
    case 'ArrowUp':
      ev.preventDefault();
      moveCursor('ArrowUp');
      break;
    case 'ArrowDown':
      ev.preventDefault();
      moveCursor('ArrowDown');
      break;
    case ' ':
      if (onControl) return;
      ev.preventDefault();
      if (onlyPass() && humanToMove() && !thinking) humanPlay(onlyPass());
      else if (cursor) cellClicked(cursor);
      break;
    case 'Enter':
      if (onControl) return;
      ev.preventDefault();
      restart();
      break;
    case 'PageUp':
      ev.preventDefault();
      changeLevel(1, -1);
      break;
    case 'PageDown':
      ev.preventDefault();
      changeLevel(1, 1);
      break;
    case 'Escape':
      cancelSearch();
      break;
    case 'i':
    case 'I':
      if (thinking || !humanToMove()) return;
      cycleHand(ev.shiftKey ? -1 : 1);
      break;
    case 'p':
    case 'P':
      togglePause();
      break;
    case 's':
    case 'S':
      step();
      break;
    case 'h':
    case 'H':
      suggest();
      break;
    case 'a':
    case 'A':
      toggleAiPlays();
      break;
    default:
  }
});
