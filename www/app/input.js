// The player's input on the board: clicks on cells (a source, then a target, for moves from a cell
// to a cell), swipes by finger or mouse (Threes), and the keyboard (cursor, Space, undo and redo,
// levels, pause, step, hint, and the Konami code).
import { state, thinking, humanToMove, humanPlay, sideIndex, undo, redo, restart, togglePause, step, suggest, cancelSearch } from './flow.js';
import {
  adapter,
  view,
  board,
  cursor,
  selected,
  boardCanvas as canvas,
  moveCells,
  startsFrom,
  swipeGame,
  setCursor,
  setSelected,
  updateBoardDecor,
} from './board.js';
import { changeLevel, toggleAiPlays, playerName } from './players.js';
import { say, toast, onlyPass } from './status.js';
import { treeRoot } from './tree-panel.js';

/** A click (or Space) on cell `c` {x, y}. */
export function cellClicked(c) {
  if (!c || !state || state.outcome) return;
  if (thinking || !humanToMove()) {
    say('Wait: it is the AI’s turn.', true);
    return;
  }
  setCursor(c);
  if (onlyPass()) {
    say(`${playerName(state.to_move)} has no move here and must pass: press Pass (or Space).`, true);
    return;
  }
  const cells = moveCells();
  const here = cells.filter((m) => m.x === c.x && m.y === c.y);
  if (selected) {
    const m = here.find((h) => startsFrom(h, selected));
    if (m) return humanPlay(m.move);
  }
  const distinct = [...new Set(here.map((h) => h.move))];
  if (distinct.length === 1 && !selected) return humanPlay(distinct[0]);
  // A piece of the side to move from which a move starts: select it (again, to change the choice).
  const own = view && view.cells[c.y * view.w + c.x] === sideIndex();
  if (cells.some((m) => m.from && m.from.x === c.x && m.from.y === c.y) || (own && cells.some((m) => startsFrom(m, c)))) {
    const again = selected && selected.x === c.x && selected.y === c.y;
    if (!again && adapter?.startsFrom) say('Filled dots: clone (the piece stays); dashed rings: jump (the piece leaves its cell).');
    setSelected(again ? null : c);
    return;
  }
  if (distinct.length === 1) return humanPlay(distinct[0]);
  if (distinct.length > 1) {
    say('Choose where the piece comes from first.', true);
    return;
  }
  const name = adapter ? adapter.cellName(c.x, c.y) : '';
  say(`${name} is not a valid move here.`, true);
  updateBoardDecor();
}

// Swipe games (Threes): a drag across the board by finger or mouse plays the swipe in its main
// direction; the click that ends a drag is not a cell click.
let drag = null;
let dragged = false;
canvas.addEventListener('pointerdown', (ev) => {
  dragged = false;
  if (adapter?.style !== 'tiles') return;
  drag = { x: ev.clientX, y: ev.clientY, id: ev.pointerId };
  canvas.setPointerCapture?.(ev.pointerId);
});
canvas.addEventListener('pointerup', (ev) => {
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
  if (!state.legal.some((m) => m.move === dir)) {
    say(`Nothing can move ${dir}.`, true);
    return;
  }
  humanPlay(dir);
});
canvas.addEventListener('pointercancel', () => (drag = null));
canvas.addEventListener('click', (ev) => {
  if (!board) return;
  if (dragged || adapter?.style === 'tiles') {
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
  const cells = moveCells();
  if (!cells.length || !view) return;
  const key = (c) => c.y * view.w + c.x;
  const cur = cursor ? key(cursor) : -1;
  let next;
  if (dir > 0) next = cells.find((c) => key(c) > cur) || cells[0];
  else next = [...cells].reverse().find((c) => key(c) < cur) || cells[cells.length - 1];
  say(`Highlighted ${next.move}.`);
  setCursor(next);
}

function moveCursor(dx, dy) {
  if (!view) return;
  const c = cursor || { x: 0, y: 0 };
  setCursor({ x: Math.min(view.w - 1, Math.max(0, c.x + dx)), y: Math.min(view.h - 1, Math.max(0, c.y + dy)) });
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
  if (dir && !ev.shiftKey && state && !moveCells().length && state.legal.some((m) => m.move === dir)) {
    ev.preventDefault();
    humanPlay(dir);
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
      ev.shiftKey ? moveCursor(-1, 0) : cycleMove(-1);
      break;
    case 'ArrowRight':
      ev.preventDefault();
      ev.shiftKey ? moveCursor(1, 0) : cycleMove(1);
      break;
    case 'ArrowUp':
      ev.preventDefault();
      moveCursor(0, -1);
      break;
    case 'ArrowDown':
      ev.preventDefault();
      moveCursor(0, 1);
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
