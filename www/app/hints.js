// Hints: what the AI would play for the human to move, and why: every root move with its backed-up
// value, the chosen one first; the board's cursor goes to the suggested move.
import { titleCase } from '../games.js';
import { state } from './flow.js';
import { targetOf, setCursor, isSwipe, setCandidates } from './board.js';
import { playerName } from './players.js';
import { say, formatCount, valueFor } from './status.js';

const panel = document.getElementById('hint-panel');
const why = document.getElementById('hint-why');
const list = document.getElementById('hint-moves');

/** Shows a hint's search report `r` (searched with `opts`). */
export function showHint(r, opts) {
  const t = targetOf(r.move);
  if (t) setCursor(t);
  say(`Hint: ${r.move} (${valueFor(r.value_text, r.viewer || state.to_move)}). ${isSwipe(r.move) ? 'The arrow keys play it.' : 'Space plays it.'}`);
  panel.hidden = false;
  const algo = opts.algorithm === 'expectimax' ? 'Expectimax (average over the deals)' : titleCase(opts.algorithm);
  const depth = r.stats?.depth_reached || opts.depth;
  why.textContent = `${algo}, ${depth} ${depth === 1 ? 'ply' : 'plies'} deep, ${formatCount(r.stats?.nodes || 0)} nodes: ${r.move} has the best value. The moves at the root, best first (values for ${playerName(state.to_move)}; the tree below shows why):`;
  list.replaceChildren();
  const moves = [...(r.root_moves || [])].sort((a, b) => b.value - a.value);
  // The three best moves are marked on the board with their values.
  const who = playerName(r.viewer || state.to_move);
  setCandidates(moves.slice(0, 3).map((m) => ({ ...m, best: m.move === r.move })), `Marked: the hint's best moves for ${who}, values for ${who}.`);
  for (const m of moves) {
    const li = document.createElement('li');
    if (m.move === r.move) li.className = 'best';
    li.dataset.move = m.move;
    const v = document.createElement('span');
    v.className = 'val';
    // Alpha-beta proves only that a worse move is at most this good.
    v.textContent = `${m.exact === false ? 'at most ' : ''}${m.value_text?.text ?? ''}`;
    li.append(document.createTextNode(m.move), v);
    list.append(li);
  }
}

/** Scrolls the hint panel into view. */
export function revealHint() {
  panel.scrollIntoView({ block: 'nearest' });
}

/** Hides the hint (the position changed). */
export function hideHint() {
  panel.hidden = true;
  setCandidates([]);
}
