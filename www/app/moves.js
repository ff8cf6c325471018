// The moves around the board: buttons for moves without a cell (pass, swipes, games drawn as
// text), the list of moves played (and taken back), and the text box with the position, the game
// record and a move to type.
import { state, thinking, humanToMove, humanPlay, setPosition, replayRecord, goToPly } from './flow.js';
import { view, selected, rotationsOf } from './board.js';
import { sayingError, onlyPass } from './status.js';
import { showPlyTree } from './tree-panel.js';

const $ = (id) => document.getElementById(id);
const el = {
  moveButtons: $('move-buttons'),
  moveList: $('move-list'),
  positionText: $('position-text'),
  recordText: $('record-text'),
  loadRecord: $('load-record'),
  setPosition: $('set-position'),
  moveInput: $('move-input'),
  playMove: $('play-move'),
  rotate: $('rotate-controls'),
  rotateCcw: $('rotate-ccw'),
  rotateCw: $('rotate-cw'),
};

/** Draws the move buttons, the move list and the text boxes for the state. */
export function renderMoves() {
  // Moves that end on no cell (pass, swipes, rotations of the selected piece), and every move when
  // the board is shown as text. At a chance turn the buttons stay (disabled by updateControls), so
  // that the controls do not jump between a swipe and its deal.
  if (state.to_move !== 'chance') renderMoveButtons();

  // Move list: a click (or Enter) on a move shows the position after it.
  el.moveList.replaceChildren();
  const addMove = (text, n, cls) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'ply';
    b.dataset.ply = String(n);
    b.title = `Show the position after move ${n}`;
    const num = document.createElement('span');
    num.className = 'n';
    num.textContent = `${n}.`;
    b.append(num, document.createTextNode(text));
    li.append(b);
    if (cls) li.className = cls;
    el.moveList.append(li);
  };
  state.history.forEach((m, k) => addMove(m, k + 1, k === state.history.length - 1 ? 'last' : ''));
  state.redo.forEach((m, k) => addMove(m, state.history.length + k + 1, 'redo'));
  el.moveList.scrollTop = el.moveList.scrollHeight;

  if (document.activeElement !== el.positionText) el.positionText.value = state.position;
  // Moves may contain spaces (Threes' deals): such records are written with commas.
  const sep = state.history.some((m) => /\s/.test(m)) ? ', ' : ' ';
  if (document.activeElement !== el.recordText) el.recordText.value = state.history.join(sep);
}

/**
 * The buttons for the moves the board does not take: those ending on no cell (a pass; every move
 * when the board is shown as text). Rotations of the selected piece go to the two turn buttons
 * beside the board (↺ anticlockwise, ↻ clockwise), shown only while that piece can turn.
 */
export function renderMoveButtons() {
  el.moveButtons.replaceChildren();
  const must = !!onlyPass() && humanToMove();
  const drawn = !!view && !document.getElementById('board').hidden;
  const moves = withEverySwipe(view ? view.moves : state.legal.map((l) => ({ text: l.move, kind: 'move' })));
  for (const m of moves) {
    if (drawn && (m.to || m.kind === 'rotate')) continue;
    const b = document.createElement('button');
    if (m.illegal) {
      // A swipe that moves nothing here: shown, but never enabled (see updateControls).
      b.textContent = m.text;
      b.dataset.illegal = '1';
      b.disabled = true;
      b.title = `Nothing can move ${m.text} now`;
      el.moveButtons.append(b);
      continue;
    }
    b.textContent = m.kind === 'pass' ? 'Pass' : m.text;
    if (m.kind === 'pass' && m.text !== 'pass') b.title = `Pass (written ${m.text})`;
    b.dataset.move = m.text;
    b.dataset.kind = m.kind;
    b.disabled = !humanToMove() || !!thinking;
    // Passing is all the player can do: the button says so.
    if (must) {
      b.classList.add('must');
      b.title = 'You have no move: pass';
    }
    b.addEventListener('click', () => humanPlay(m.text));
    el.moveButtons.append(b);
  }
  renderTurnButtons(drawn ? rotationsOf(selected) : []);
}

/** The four swipe directions, in the order their buttons keep. */
const SWIPE_DIRECTIONS = ['up', 'down', 'left', 'right'];

/**
 * In a game whose moves are swipes, every direction gets its button in a fixed place, the ones
 * that move nothing marked `illegal`, so that the row does not shift as swipes come and go.
 * Other moves are returned as they are.
 */
function withEverySwipe(moves) {
  if (!moves.some((m) => m.kind === 'swipe')) return moves;
  const swipes = SWIPE_DIRECTIONS.map(
    (d) => moves.find((m) => m.kind === 'swipe' && m.direction === d) || { text: d, kind: 'swipe', direction: d, illegal: true },
  );
  return [...swipes, ...moves.filter((m) => m.kind !== 'swipe')];
}

/** Shows the turn buttons for `turns` (rotate moves of one piece), or hides them. */
function renderTurnButtons(turns) {
  const ccw = turns.find((m) => m.rotation < 0);
  const cw = turns.find((m) => m.rotation > 0);
  const enabled = humanToMove() && !thinking;
  el.rotate.hidden = !ccw && !cw;
  for (const [b, m] of [
    [el.rotateCcw, ccw],
    [el.rotateCw, cw],
  ]) {
    b.hidden = !m;
    b.dataset.move = m ? m.text : '';
    b.title = m ? `${m.text} (${Math.abs(m.rotation)}° ${m.rotation < 0 ? 'anticlockwise' : 'clockwise'})` : '';
    b.disabled = !m || !enabled;
  }
}

for (const b of [el.rotateCcw, el.rotateCw]) {
  b.addEventListener('click', () => {
    if (b.dataset.move) humanPlay(b.dataset.move);
  });
}

el.moveList.addEventListener('click', (ev) => {
  const b = ev.target instanceof Element ? ev.target.closest('button.ply') : null;
  if (!b) return;
  const n = Number(b.dataset.ply);
  // The position after the move, and the tree of the search that chose it (when an AI did).
  goToPly(n).then(() => showPlyTree(n));
});

el.setPosition.addEventListener('click', async () => {
  const ok = await setPosition(el.positionText.value.trim());
  // Refused: the game is unchanged, show its position again.
  if (!ok && state) el.positionText.value = state.position;
});

/** Replays a pasted game record from the start position (or the position last set). */
el.loadRecord.addEventListener('click', async () => {
  const text = el.recordText.value.trim();
  const moves = text ? (text.includes(',') ? text.split(',') : text.split(/\s+/)).map((m) => m.trim()).filter(Boolean) : [];
  const ok = await replayRecord(moves);
  if (!ok && state) el.recordText.value = state.history.join(' ');
});

el.playMove.addEventListener('click', () => {
  const text = el.moveInput.value.trim();
  if (text) humanPlay(text).then(() => {
    if (!sayingError()) el.moveInput.value = '';
  });
});
el.moveInput.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter') el.playMove.click();
});
