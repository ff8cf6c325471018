// What the page tells the player: whose turn it is, the score, the game-over banner, the AI's
// progress while it thinks, the last AI move's summary, messages, toasts and engine errors, and
// which buttons can be used now. Every text goes through textContent.
import { outcomeBanner } from '../games.js';
import { settings } from './settings.js';
import { state, thinking, sideIndex, isAi, humanToMove, canUndo } from './flow.js';
import { view, boardCanvas, swipeGame } from './board.js';
import { playerName, levelName, pieceColour } from './players.js';

const $ = (id) => document.getElementById(id);
const el = {
  turn: $('turn'),
  score: $('score'),
  banner: $('banner'),
  bannerText: $('banner-text'),
  thinking: $('thinking'),
  barFill: $('bar-fill'),
  bar: document.querySelector('[data-testid="progress"]'),
  progressText: $('progress-text'),
  progressLine: $('progress-line'),
  progressBest: $('progress-best'),
  cancel: $('cancel'),
  moveButtons: $('move-buttons'),
  undo: $('undo'),
  redo: $('redo'),
  pause: $('pause'),
  step: $('step'),
  suggest: $('suggest'),
  aiPlays: $('ai-plays'),
  message: $('message'),
  engineError: $('engine-error'),
  aiSummary: $('ai-summary'),
  toast: $('toast'),
};

let toastTimer = 0;

/** A short note that goes away by itself. */
export function toast(text) {
  el.toast.textContent = text;
  el.toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.toast.hidden = true), 2500);
}

/** The message line under the board (an error in red). */
export function say(text, error = false) {
  el.message.textContent = text;
  el.message.classList.toggle('error', error);
}

/** Whether the message line shows an error. */
export function sayingError() {
  return el.message.classList.contains('error');
}

/** The engine's error above the board (empty: hidden). */
export function showEngineError(text) {
  $('engine-error-text').textContent = text;
  el.engineError.hidden = !text;
}
$('engine-error-close').addEventListener('click', () => showEngineError(''));

/** A count in few digits: 950, 12k, 3.4M. */
export function formatCount(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  return String(n);
}

/** An engine's value text (`{text}`, in units) and whose view it takes: "+2 discs for White". */
export function valueFor(valueText, viewer) {
  const text = valueText?.text ?? 'no value';
  return viewer ? `${text} for ${playerName(viewer)}` : text;
}

/** Phone-sized screens (the layout's one-column width): no room, and mostly no keys, for long hints. */
const narrowScreen = matchMedia('(max-width: 860px)');

/** The status line, the score and the banner for the state. */
export function renderStatus(entry) {
  const i = sideIndex();
  describeBoard(entry);
  if (state.outcome) el.turn.textContent = `Game over: ${resultText()}`;
  else if (onlyPass() && humanToMove()) el.turn.textContent = `${playerName(state.to_move)} has no move and must pass`;
  else if (state.to_move === 'chance') el.turn.textContent = 'Dealing…';
  else {
    const who = playerName(state.to_move);
    const level = settings.sides[i]?.level;
    const what = level && level !== 'human' ? `${levelName(level)} AI` : 'human';
    const paused = isAi(i) && settings.paused ? ' (AI paused)' : '';
    el.turn.textContent =
      state.players.length === 1
        ? isAi(i)
          ? `The ${levelName(settings.sides[i].level)} AI plays${paused}`
          : swipeGame()
            ? narrowScreen.matches
              ? 'Your move: swipe'
              : 'Your move: swipe, or use the arrow keys'
            : 'Your move'
        : `${who} to move — ${what}${paused}`;
  }
  el.turn.title = el.turn.textContent; // the whole text where a narrow screen cuts it short
  el.score.replaceChildren();
  const scores = view ? view.scores : [];
  const next = view ? view.info.find((x) => x.label === 'next') : null;
  if (state.players.length === 1) {
    // One player: the score in its unit, and what comes next drawn as a small card in its colour.
    const sc = document.createElement('span');
    sc.className = 'score-side';
    sc.dataset.testid = 'score-0';
    sc.textContent = scores.length ? `Score ${scores[0].text}` : playerName(state.players[0]);
    el.score.append(sc);
    if (next) {
      const nx = document.createElement('span');
      nx.className = 'next-hint';
      nx.dataset.testid = 'next-card';
      const card = document.createElement('span');
      const kind = next.piece ? next.piece.kind : '';
      card.className = `next-card ${kind === 'one' ? 'one' : kind === 'two' ? 'two' : 'high'}`;
      card.textContent = next.piece?.label ?? next.text;
      card.title = `The next card: ${next.text}`;
      nx.append(document.createTextNode('Next'), card);
      el.score.append(nx);
    }
  } else state.players.forEach((name, p) => {
    const s = document.createElement('span');
    s.className = 'score-side';
    s.dataset.testid = `score-${p}`;
    if (p === i && !state.outcome) s.classList.add('to-move');
    const chip = document.createElement('span');
    chip.className = 'chip';
    chip.style.background = pieceColour(p);
    s.append(chip);
    let text = playerName(name);
    const score = scores.find((x) => x.player === p);
    if (score) text += ` ${score.text}`;
    s.append(document.createTextNode(text));
    el.score.append(s);
  });

  // The result above the board, with the score, until dismissed.
  if (state.outcome) {
    el.banner.hidden = bannerDismissedAt === state.position;
    el.bannerText.textContent = resultText();
  } else {
    el.banner.hidden = true;
    bannerDismissedAt = null;
  }
}

let bannerDismissedAt = null; // the final position whose banner was dismissed
$('banner-close').addEventListener('click', () => {
  bannerDismissedAt = state?.position ?? null;
  el.banner.hidden = true;
});

/** The players' scores as the engine gives them ("58–6"), or '' for games without one each. */
function scoreLine() {
  if (!view || state.players.length < 2) return '';
  const scores = state.players.map((_, p) => view.scores.find((s) => s.player === p));
  return scores.every(Boolean) ? scores.map((s) => s.text).join('–') : '';
}

/** The result in words with the score: "White wins 58–6", "Draw 32–32", "Score 1,234". */
function resultText() {
  const o = state.outcome;
  const score = scoreLine();
  if (o === 'draw') return score ? `Draw ${score}` : 'Draw';
  const win = /^(.+) wins$/.exec(o);
  if (win) return `${playerName(win[1])} wins${score ? ` ${score}` : ''}`;
  const pts = /^score (-?\d+)$/.exec(o);
  if (pts) return `Game over: score ${Number(pts[1]).toLocaleString('en')}`;
  return outcomeBanner(o);
}

/** The move that passes, when passing is all the player to move can do (else null). */
export function onlyPass() {
  if (!state || state.outcome || !view || view.moves.length !== 1) return null;
  return view.moves[0].kind === 'pass' ? view.moves[0].text : null;
}

/** The board's text alternative: the game, who is to move, the score, the last move. */
function describeBoard(entry) {
  const parts = [entry ? entry.name : state.game];
  if (state.outcome) parts.push(outcomeBanner(state.outcome));
  else if (state.players.includes(state.to_move)) parts.push(`${playerName(state.to_move)} to move`);
  if (view && view.scores.length) {
    parts.push(view.scores.map((s) => (s.player != null && state.players[s.player] ? `${playerName(state.players[s.player])} ${s.text} ${s.unit}` : `${s.text} ${s.unit}`)).join(', '));
  }
  const last = state.history[state.history.length - 1];
  if (last) parts.push(`last move ${last}`);
  boardCanvas.setAttribute('aria-label', `${parts.join('; ')}. Click a cell or use the arrow keys and Space.`);
}

/** Enables the buttons that can be used now. */
export function updateControls() {
  const busy = !!thinking;
  el.undo.disabled = !canUndo();
  el.undo.title = state && state.history.length === 0 && !el.undo.disabled ? 'Bring back the previous game (Ctrl+Z)' : 'Take back (Ctrl+Z)';
  el.redo.disabled = !state || state.redo.length === 0;
  el.cancel.disabled = !busy;
  el.thinking.classList.toggle('idle', !busy);
  boardCanvas.classList.toggle('busy', busy);
  const anyAi = settings.sides.slice(0, state ? state.players.length : 2).some((s) => s.level !== 'human');
  el.pause.textContent = settings.paused ? 'Resume AI' : 'Pause AI';
  el.pause.disabled = !anyAi;
  el.step.disabled = !(settings.paused && isAi(sideIndex()) && !state?.outcome && !busy);
  for (const b of el.moveButtons.querySelectorAll('button')) b.disabled = !humanToMove() || busy || b.dataset.illegal === '1';
  el.suggest.disabled = !state || !humanToMove() || busy;
  const solo = !!state && state.players.length === 1;
  el.aiPlays.hidden = !solo;
  if (solo) {
    const on = isAi(0);
    el.aiPlays.textContent = on ? 'Stop AI' : 'AI plays';
    el.aiPlays.setAttribute('aria-pressed', String(on));
    el.aiPlays.disabled = !!state.outcome;
  }
}


let bestSoFar = null; // {move, text} from the last finished depth of the running search
let progressIdle = true; // no search is reporting progress
let lastSummary = ''; // what the AI last played, in words

/** The best move of the running search's last finished depth (from its live tree). */
export function noteBestSoFar(doc) {
  const m = doc?.chosen?.move;
  bestSoFar = m ? { move: m, text: doc.chosen.value_text ? `${doc.chosen.value_text} for ${playerName(doc.perspective)}` : '' } : null;
}

/** Milliseconds as seconds people read: "0.4 s", "12 s". */
export function seconds(ms) {
  return ms < 10000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/**
 * The progress bar and its text while the AI thinks (null: idle): elapsed time (against the time
 * limit), the depth being searched, nodes per second and the best move of the last finished depth.
 */
export function setProgress(p) {
  const f = Math.max(0, Math.min(1, p ? p.fraction : 0));
  el.barFill.style.width = `${(f * 100).toFixed(1)}%`;
  el.bar.setAttribute('aria-valuenow', String(Math.round(f * 100)));
  progressIdle = !p;
  if (!p) {
    // Idle: the first line tells what the AI last played (the Moves panel says it too, far
    // below the board on a phone).
    el.progressLine.textContent = el.progressLine.title = lastSummary;
    el.progressBest.textContent = el.progressBest.title = '';
    bestSoFar = null;
    return;
  }
  const ms = p.elapsed_ms || 0;
  const parts = [p.limit_ms ? `${seconds(ms)} of ${seconds(p.limit_ms)}` : seconds(ms)];
  if (p.depth) parts.push(`depth ${p.depth}`);
  parts.push(ms > 0 ? `${formatCount(Math.round((p.nodes * 1000) / ms))} nodes/s` : `${formatCount(p.nodes)} nodes`);
  if (p.stage === 'tree') parts.push('building the tree');
  // Two lines, each always in its place: the work so far, then the best move so far.
  el.progressLine.textContent = `Thinking: ${parts.join(' · ')}`;
  el.progressLine.title = `${formatCount(p.nodes)} nodes searched${p.root_total ? `; ${p.root_done} of ${p.root_total} moves done at this depth` : ''}`;
  el.progressBest.textContent = bestSoFar ? `Best so far ${bestSoFar.move}${bestSoFar.text ? ` (${bestSoFar.text})` : ''}` : '';
  el.progressBest.title = el.progressBest.textContent;
}

/** What the AI just played: its move, value, nodes and time (empty report: cleared). */
export function showSummary(r) {
  if (!r) {
    el.aiSummary.textContent = lastSummary = '';
    if (progressIdle) el.progressLine.textContent = el.progressLine.title = '';
    return;
  }
  const st = r.stats || {};
  const value = r.reason !== 'random' && r.value_text ? ` ${valueFor(r.value_text, r.viewer)},` : '';
  const work = st.solver_nodes != null ? `solved exactly (${formatCount(st.solver_nodes)} positions)` : `${formatCount(st.nodes || 0)} nodes`;
  el.aiSummary.textContent = lastSummary = `AI played ${r.move}:${value} ${work}, ${seconds(st.time_ms || 0)}`;
  if (progressIdle) el.progressLine.textContent = el.progressLine.title = lastSummary;
}
