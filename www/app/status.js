// What the page tells the player: whose turn it is, the score, the game-over banner, the AI's
// progress while it thinks, the last AI move's summary, messages, toasts and engine errors, and
// which buttons can be used now. Every text goes through textContent.
import { outcomeBanner } from '../games.js';
import { settings } from './settings.js';
import { state, thinking, sideIndex, isAi, humanToMove } from './flow.js';
import { adapter, view, boardCanvas, swipeGame } from './board.js';
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

/** A search value with at most two decimals. */
export function formatValue(v) {
  return Number.isFinite(v) ? String(Math.round(v * 100) / 100) : String(v);
}

/** The status line, the score and the banner for the state. */
export function renderStatus(entry) {
  const i = sideIndex();
  describeBoard(entry);
  if (state.outcome) el.turn.textContent = 'Game over';
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
            ? 'Your move: swipe, or use the arrow keys'
            : 'Your move'
        : `${who} to move — ${what}${paused}`;
  }
  el.score.replaceChildren();
  if (adapter?.style === 'tiles' && view) {
    // Threes: the score and the next card, drawn as a small card in its colour.
    const sc = document.createElement('span');
    sc.className = 'score-side';
    sc.dataset.testid = 'score-0';
    sc.textContent = `Score ${view.points.toLocaleString('en')}`;
    el.score.append(sc);
    if (view.next) {
      const nx = document.createElement('span');
      nx.className = 'next-hint';
      nx.dataset.testid = 'next-card';
      const card = document.createElement('span');
      card.className = `next-card ${view.next === '1' ? 'one' : view.next === '2' ? 'two' : 'high'}`;
      card.textContent = view.next === 'bonus' ? '+' : view.next;
      card.title = view.next === 'bonus' ? 'A bonus card (6 or more)' : `The next card is a ${view.next}`;
      nx.append(document.createTextNode('Next'), card);
      el.score.append(nx);
    }
  } else state.players.forEach((name, p) => {
    const s = document.createElement('span');
    s.className = 'score-side';
    s.dataset.testid = `score-${p}`;
    if (p === i && !state.outcome) s.classList.add('to-move');
    if (adapter?.style !== 'tiles') {
      const chip = document.createElement('span');
      chip.className = 'chip';
      chip.style.background = pieceColour(p);
      s.append(chip);
    }
    let text = playerName(name);
    if (adapter?.score && view) text += ` ${view.cells.filter((c) => c === p).length}`;
    s.append(document.createTextNode(text));
    el.score.append(s);
  });

  // Banner.
  if (state.outcome) {
    el.banner.hidden = false;
    el.bannerText.textContent = outcomeBanner(state.outcome);
    fitBanner();
  } else el.banner.hidden = true;
}

/** The board's text alternative: the game, who is to move, the score, the last move. */
function describeBoard(entry) {
  const parts = [entry ? entry.name : state.game];
  if (state.outcome) parts.push(outcomeBanner(state.outcome));
  else if (state.players.includes(state.to_move)) parts.push(`${playerName(state.to_move)} to move`);
  if (adapter?.score && view) {
    parts.push(state.players.map((n, p) => `${playerName(n)} ${view.cells.filter((c) => c === p).length}`).join(', '));
  }
  const last = state.history[state.history.length - 1];
  if (last) parts.push(`last move ${last}`);
  boardCanvas.setAttribute('aria-label', `${parts.join('; ')}. Click a cell or use the arrow keys and Space.`);
}

/** Enables the buttons that can be used now. */
export function updateControls() {
  const busy = !!thinking;
  el.undo.disabled = !state || state.history.length === 0;
  el.redo.disabled = !state || state.redo.length === 0;
  el.cancel.disabled = !busy;
  el.thinking.classList.toggle('idle', !busy);
  boardCanvas.classList.toggle('busy', busy);
  const anyAi = settings.sides.slice(0, state ? state.players.length : 2).some((s) => s.level !== 'human');
  el.pause.textContent = settings.paused ? 'Resume AI' : 'Pause AI';
  el.pause.disabled = !anyAi;
  el.step.disabled = !(settings.paused && isAi(sideIndex()) && !state?.outcome && !busy);
  for (const b of el.moveButtons.querySelectorAll('button')) b.disabled = !humanToMove() || busy;
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

function fitBanner() {
  // Largest font size at which the text fits the banner's box.
  const box = el.banner;
  const span = el.bannerText;
  if (box.hidden) return;
  const w = box.clientWidth * 0.9;
  const h = box.clientHeight * 0.7;
  let lo = 6;
  let hi = 200;
  while (hi - lo > 0.5) {
    const mid = (lo + hi) / 2;
    span.style.fontSize = `${mid}px`;
    if (span.scrollWidth <= w && span.offsetHeight <= h) lo = mid;
    else hi = mid;
  }
  span.style.fontSize = `${lo}px`;
}
new ResizeObserver(fitBanner).observe(el.banner);

/** The progress bar and its text while the AI thinks (null: idle). */
export function setProgress(p) {
  const f = Math.max(0, Math.min(1, p ? p.fraction : 0));
  el.barFill.style.width = `${(f * 100).toFixed(1)}%`;
  el.bar.setAttribute('aria-valuenow', String(Math.round(f * 100)));
  if (!p) el.progressText.textContent = '';
  else {
    const parts = [];
    if (p.root_total) parts.push(`${p.root_done}/${p.root_total} moves`);
    if (p.depth) parts.push(`depth ${p.depth}`);
    parts.push(`${formatCount(p.nodes)} nodes`);
    el.progressText.textContent = `Thinking: ${parts.join(' · ')}`;
  }
}

/** What the AI just played: its move, value, nodes and time (empty report: cleared). */
export function showSummary(r) {
  if (!r) {
    el.aiSummary.textContent = '';
    return;
  }
  const st = r.stats || {};
  const value = Number.isFinite(r.value) && r.reason !== 'random' ? ` value ${Math.round(r.value * 100) / 100},` : '';
  el.aiSummary.textContent = `AI played ${r.move}:${value} ${formatCount(st.nodes || 0)} nodes, ${Math.round(st.time_ms || 0)} ms`;
}
