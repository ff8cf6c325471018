// Plyscope's game flow: the game picker, players (human or an AI level), the board, the AI's turns in
// the worker, undo/redo, the keyboard, saving to localStorage, and the tree explorer after AI turns.
// Every text that comes from the engine or the user goes through textContent, never innerHTML.
import { EngineClient, Cancelled } from './engine-client.js';
import { GridBoard } from './board/grid.js';
import { adapterFor, titleCase, outcomeBanner } from './games.js';
import { boardPreview } from './preview.js';

const STORE = 'plyscope.app.v1';
const LEVELS = [
  { id: 'human', name: 'Human' },
  { id: 'random', name: 'Random' },
  { id: 'easy', name: 'Easy (greedy)' },
  { id: 'hard', name: 'Hard (minimax)' },
  { id: 'alphabeta', name: 'Alpha-beta' },
];
const TREE_NODE_CAP = 4000;
const SWIPES = ['up', 'down', 'left', 'right'];
/** The AI's pace: the pause before an AI move (and before nature deals) in milliseconds. */
const SPEEDS = [
  { id: 'slow', name: 'Slow', ms: 1000 },
  { id: 'normal', name: 'Normal', ms: 350 },
  { id: 'fast', name: 'Fast', ms: 0 },
];

const $ = (id) => document.getElementById(id);
const el = {
  game: $('game'),
  newGame: $('new-game'),
  helpToggle: $('help-toggle'),
  help: $('help'),
  turn: $('turn'),
  score: $('score'),
  canvas: $('board'),
  textBoard: $('text-board'),
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
  speed: $('ai-speed'),
  hintPanel: $('hint-panel'),
  hintWhy: $('hint-why'),
  hintMoves: $('hint-moves'),
  message: $('message'),
  engineError: $('engine-error'),
  players: $('players'),
  moveList: $('move-list'),
  aiSummary: $('ai-summary'),
  positionText: $('position-text'),
  recordText: $('record-text'),
  loadRecord: $('load-record'),
  setPosition: $('set-position'),
  moveInput: $('move-input'),
  playMove: $('play-move'),
  treeRoot: $('tree-root'),
  treeMissing: $('tree-missing'),
  toast: $('toast'),
};

// ---------------------------------------------------------------------------------------------
// Settings (saved) and the live state

function defaultSide(level) {
  return { level, depth: 4, time: 0, q: 0 };
}
const settings = {
  game: 'tictactoe',
  sides: [defaultSide('human'), defaultSide('random')],
  paused: false,
  speed: 'normal',
};
/** The pause before each AI move, so that AI vs AI (or the AI playing Threes) can be followed. */
function aiPauseMs() {
  return (SPEEDS.find((x) => x.id === settings.speed) || SPEEDS[1]).ms;
}
let catalogue = [];
let state = null; // the engine's state: {game, position, to_move, players, legal, history, redo, outcome}
let view = null; // the adapter's reading of the position
let adapter = null;
let board = null;
let thinking = null; // {token} while a search runs
let generation = 0; // bumped by every change made by the user, so that stale AI answers are dropped
let cursor = null;
let selected = null; // a chosen source cell, for games whose moves go from a cell to a cell
let lastTree = null;
let explorer = null;
let liveShown = false; // the explorer shows an unfinished search's tree
let tutorial = null; // {step, done, sides, game} while the Ataxx tutorial runs

const client = new EngineClient({
  onCrash(message) {
    thinking = null;
    settings.paused = true;
    showEngineError(`${message}. The engine was restarted and the game kept; the AI is paused.`);
    client.ready.then(refreshState).catch(() => {});
  },
});

function save() {
  try {
    const kept = tutorial ? { ...settings, sides: tutorial.sides, game: tutorial.game } : settings;
    localStorage.setItem(STORE, JSON.stringify({ settings: kept, record: tutorial ? null : client.record }));
  } catch {
    // Storage full or disabled: the game still plays.
  }
}

let hadSaved = false; // whether this browser had saved settings (not a first visit)

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (!saved || typeof saved !== 'object') return null;
    hadSaved = true;
    if (saved.settings) {
      if (typeof saved.settings.game === 'string') settings.game = saved.settings.game;
      if (Array.isArray(saved.settings.sides)) {
        saved.settings.sides.slice(0, 2).forEach((s, i) => {
          const side = settings.sides[i];
          if (LEVELS.some((l) => l.id === s.level)) side.level = s.level;
          for (const k of ['depth', 'time', 'q']) if (Number.isFinite(s[k])) side[k] = s[k];
        });
      }
      settings.paused = !!saved.settings.paused;
      if (SPEEDS.some((x) => x.id === saved.settings.speed)) settings.speed = saved.settings.speed;
    }
    return saved.record || null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Messages

let toastTimer = 0;
function toast(text) {
  el.toast.textContent = text;
  el.toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.toast.hidden = true), 2500);
}

function say(text, error = false) {
  el.message.textContent = text;
  el.message.classList.toggle('error', error);
}

function showEngineError(text) {
  $('engine-error-text').textContent = text;
  el.engineError.hidden = !text;
}
$('engine-error-close').addEventListener('click', () => showEngineError(''));

// ---------------------------------------------------------------------------------------------
// Players

function playerName(name) {
  return name && name.length <= 2 ? name.toUpperCase() : titleCase(name);
}

function sideIndex() {
  if (!state) return -1;
  return state.players.indexOf(state.to_move);
}

function isAi(i) {
  return i >= 0 && settings.sides[i] && settings.sides[i].level !== 'human';
}

function gameEntry(id = settings.game) {
  const base = String(id);
  return (
    catalogue.find((g) => g.id === base || g.variants.some((v) => v.id === base)) ||
    catalogue.find((g) => base.startsWith(`${g.id}-`)) ||
    null
  );
}

function renderPlayers() {
  el.players.replaceChildren();
  const names = state ? state.players : ['one', 'two'];
  names.forEach((name, i) => {
    const side = settings.sides[i];
    const fs = document.createElement('fieldset');
    fs.className = 'player';
    fs.dataset.testid = `player-${i}`;
    const lg = document.createElement('legend');
    const chip = document.createElement('span');
    chip.className = 'chip';
    chip.style.background = pieceColour(i);
    lg.append(chip, document.createTextNode(`${playerName(name)} (player ${i === 0 ? 'one' : 'two'})`));
    fs.append(lg);

    const levelLabel = document.createElement('label');
    levelLabel.textContent = 'Plays as';
    const sel = document.createElement('select');
    sel.dataset.testid = `side-${i}-level`;
    sel.id = `side-${i}-level`;
    levelLabel.htmlFor = sel.id;
    for (const l of LEVELS) sel.append(new Option(levelName(l.id), l.id, false, l.id === side.level));
    sel.addEventListener('change', () => {
      setLevel(i, sel.value);
    });
    fs.append(levelLabel, sel);

    const knobs = document.createElement('div');
    knobs.className = 'knobs';
    knobs.hidden = !['hard', 'alphabeta'].includes(side.level) && side.level !== 'easy';
    const knob = (key, label, min, max, title, enabled) => {
      const lab = document.createElement('label');
      lab.title = title;
      const span = document.createElement('span');
      span.textContent = label;
      const inp = document.createElement('input');
      inp.type = 'number';
      inp.min = String(min);
      inp.max = String(max);
      inp.value = String(side[key]);
      inp.disabled = !enabled;
      inp.dataset.testid = `side-${i}-${key}`;
      inp.addEventListener('change', () => {
        const v = Math.round(Number(inp.value));
        side[key] = Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : side[key];
        inp.value = String(side[key]);
        save();
      });
      lab.append(span, inp);
      knobs.append(lab);
    };
    const deep = side.level === 'hard' || side.level === 'alphabeta';
    knob('depth', 'Depth', 1, 64, 'How many plies ahead the AI looks (with a time limit, at most that deep)', deep);
    knob('time', 'Time (ms)', 0, 60000, 'Time budget per move for alpha-beta (0: no limit, depth only)', side.level === 'alphabeta');
    knob('q', 'Randomness Q', 0, 99, 'The k-th best move is chosen with probability (Q-1)/Q^k; 0 means always the best', true);
    fs.append(knobs);
    el.players.append(fs);
  });
}

/** A level's name; in games with chance the strongest level runs expectimax. */
function levelName(id) {
  if (id === 'alphabeta' && gameEntry(state?.game ?? settings.game)?.chance) return 'Expectimax';
  return LEVELS.find((l) => l.id === id).name;
}

function setLevel(i, level) {
  settings.sides[i].level = level;
  renderPlayers();
  save();
  if (thinking && !isAi(sideIndex())) stopThinking();
  if (state) render();
  say(`${playerName(state?.players[i] ?? `player ${i + 1}`)} is now ${levelName(level)}.`);
  advance();
}

function pieceColour(i) {
  const style = adapter?.style;
  if (style === 'marks') return i === 0 ? '#c0392b' : '#1f5fa8';
  return i === 0 ? '#161616' : '#f4f4f0';
}

function searchOptions(side) {
  const entry = gameEntry(state.game);
  const evaluators = entry?.evaluators || [];
  const o = { record_tree: true, node_cap: TREE_NODE_CAP, randomness_quotient: side.q | 0 };
  switch (side.level) {
    case 'random':
      return { ...o, algorithm: 'random' };
    case 'easy':
      // The seed's Easy: the best score after one ply, with the simplest evaluator (disc count).
      return {
        ...o,
        algorithm: 'greedy',
        evaluator: evaluators.includes('discs') ? 'discs' : evaluators[evaluators.length - 1] || '',
      };
    case 'hard':
      return { ...o, algorithm: 'minimax', depth: side.depth };
    default: {
      // Alpha-beta does not apply across chance turns: games with chance use expectimax there.
      const algorithm = entry?.chance ? 'expectimax' : 'alphabeta';
      // Depth by depth: the explorer shows each finished depth live, and a stopped search has one.
      const a = { ...o, algorithm, depth: side.depth, iterative_deepening: true };
      if (side.time > 0) a.time_ms = side.time;
      return a;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Drawing the state

function moveCells() {
  // Legal moves that point at a cell: [{move, x, y, from}]
  if (!adapter || !view || !state) return [];
  const out = [];
  for (const m of state.legal) {
    const t = adapter.target(m.move, view);
    if (t) out.push({ move: m.move, x: t.x, y: t.y, from: adapter.source(m.move, view) });
  }
  out.sort((a, b) => a.y - b.y || a.x - b.x);
  return out;
}

function humanToMove() {
  const i = sideIndex();
  return i >= 0 && !isAi(i) && !state.outcome;
}

function startsFrom(m, sel) {
  if (adapter?.startsFrom) return adapter.startsFrom(m, sel);
  return !!m.from && m.from.x === sel.x && m.from.y === sel.y;
}

function updateBoardDecor() {
  if (!board || !view) return;
  const human = humanToMove() && !thinking;
  const cells = human ? moveCells() : [];
  // With a source selected, each target says whether it is reached by a clone (distance 1) or a
  // jump (distance 2), for boards that draw the two differently.
  const dist = (c) => Math.max(Math.abs(c.x - selected.x), Math.abs(c.y - selected.y));
  board.setDecor({
    hints: selected
      ? cells.filter((c) => startsFrom(c, selected)).map((c) => ({ ...c, kind: dist(c) === 1 ? 'clone' : 'jump' }))
      : cells,
    cursor,
    showCursor: human && cursor != null && cells.length > 0,
    selected,
  });
}

function render(lastMove) {
  const entry = gameEntry(state.game);
  adapter = adapterFor(state.game);
  document.title = `Plyscope: ${entry ? entry.name : state.game}`;
  if (el.game.value !== state.game) {
    // A variant the picker does not list (an Ataxx layout from the editor): add it to the game's group.
    if (![...el.game.options].some((o) => o.value === state.game) && entry) {
      const group = [...el.game.querySelectorAll('optgroup')].find((g) => [...g.children].some((o) => o.value === entry.id));
      const code = wallCodeOf(state.game);
      const o = new Option(code ? `${entry.name}, walls ${code}` : state.game, state.game);
      o.dataset.custom = '1';
      (group || el.game).append(o);
    }
    el.game.value = state.game;
  }

  // Board.
  if (adapter) {
    const prevW = view?.w;
    view = adapter.parse(state.position, state.game);
    el.canvas.hidden = false;
    el.textBoard.hidden = true;
    if (!board) board = new GridBoard(el.canvas, adapter.style);
    board.setStyle(adapter.style);
    if (prevW !== view.w) cursor = null;
    const lastText = lastMove ?? state.history[state.history.length - 1];
    const last = lastText ? adapter.target(lastText, view) : null;
    // Only a move animates: a position set, a new game or a take-back is shown at once.
    const swipe = SWIPES.includes(lastText) && lastMove != null ? lastText : null;
    const from = lastText ? adapter.source(lastText, view) : null;
    board.setView(view, { last, from, swipe, labels: { col: adapter.colLabel, row: adapter.rowLabel } }, lastMove != null);
    // Swipe games take pointer drags on the board; the page must not scroll under the finger.
    el.canvas.style.touchAction = adapter.style === 'tiles' ? 'none' : '';
  } else {
    view = null;
    el.canvas.hidden = true;
    el.textBoard.hidden = false;
    el.textBoard.textContent = state.position;
  }
  // As in the seed: each turn starts with the cursor on the first valid move (unless it is on one).
  if (adapter) {
    const cells = moveCells();
    const onMove = cursor && cells.some((c) => c.x === cursor.x && c.y === cursor.y);
    if (!onMove && cells.length) cursor = { x: cells[0].x, y: cells[0].y };
    if (!cursor) cursor = { x: 0, y: 0 };
  }
  updateBoardDecor();

  renderWallsPanel();

  // Status and score.
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

  // Moves that have no cell (pass, swipes, games without a board adapter).
  // At a chance turn the buttons stay (disabled by updateControls), so that the controls do not
  // jump between a swipe and its deal.
  const cellMoves = new Set(moveCells().map((c) => c.move));
  if (state.to_move !== 'chance') {
    el.moveButtons.replaceChildren();
    for (const m of state.legal) {
      if (cellMoves.has(m.move)) continue;
      const b = document.createElement('button');
      b.textContent = m.move === 'pass' ? 'Pass' : m.move === '0000' ? 'Pass (0000)' : m.move;
      b.dataset.move = m.move;
      b.disabled = !humanToMove() || !!thinking;
      b.addEventListener('click', () => humanPlay(m.move));
      el.moveButtons.append(b);
    }
  }

  // Move list.
  el.moveList.replaceChildren();
  const addMove = (text, n, cls) => {
    const li = document.createElement('li');
    const num = document.createElement('span');
    num.className = 'n';
    num.textContent = `${n}.`;
    li.append(num, document.createTextNode(text));
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
  updateControls();
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
  el.canvas.setAttribute('aria-label', `${parts.join('; ')}. Click a cell or use the arrow keys and Space.`);
}

function updateControls() {
  const busy = !!thinking;
  el.undo.disabled = !state || state.history.length === 0;
  el.redo.disabled = !state || state.redo.length === 0;
  el.cancel.disabled = !busy;
  el.thinking.classList.toggle('idle', !busy);
  el.canvas.classList.toggle('busy', busy);
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

function setProgress(p) {
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

function formatCount(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  return String(n);
}

// ---------------------------------------------------------------------------------------------
// Game flow

function applyState(s, lastMove) {
  if ((lastMove === 'pass' || lastMove === '0000') && state?.players.includes(state.to_move)) {
    say(`${playerName(state.to_move)} has no move and passes.`);
  }
  if (!s || !state || s.position !== state.position) hideHint();
  state = s;
  selected = null;
  render(lastMove);
  save();
}

async function refreshState() {
  try {
    applyState(await client.state());
    advance();
  } catch (e) {
    if (!(e instanceof Cancelled)) say(e.message, true);
  }
}

function stopThinking() {
  if (!thinking) return;
  thinking = null;
  client.cancel();
  setProgress(null);
  updateControls();
  updateBoardDecor();
}

/** Takes the next automatic step: nature's move, or the AI's, if it is their turn. */
async function advance() {
  if (!state || state.outcome || thinking) return updateControls();
  if (state.to_move === 'chance') {
    const gen = generation;
    await sleep(Math.min(200, aiPauseMs()));
    if (gen !== generation || state.to_move !== 'chance') return;
    try {
      const r = await client.playChance();
      if (gen !== generation) return;
      applyState(r.state, r.played);
      advance();
    } catch (e) {
      if (!(e instanceof Cancelled)) say(e.message, true);
    }
    return;
  }
  const i = sideIndex();
  if (!isAi(i) || settings.paused) return updateControls();
  aiMove(i);
}

async function aiMove(i) {
  const gen = generation;
  const token = {};
  thinking = token;
  updateControls();
  updateBoardDecor();
  setProgress({ fraction: 0, nodes: 0, root_done: 0, root_total: 0, depth: 0 });
  const started = performance.now();
  const side = settings.sides[i];
  let report;
  try {
    const opts = searchOptions(side);
    const live = opts.time_ms || opts.iterative_deepening;
    report = await client.search(
      opts,
      (p) => {
        if (thinking === token) setProgress(p);
      },
      live
        ? (doc) => {
            if (thinking === token) showTree(doc, true);
          }
        : undefined,
    );
  } catch (e) {
    if (thinking === token) {
      thinking = null;
      setProgress(null);
      updateControls();
      if (!(e instanceof Cancelled)) say(`The AI could not move: ${e.message}`, true);
    }
    return;
  }
  // Let a quick answer's animation finish, so that AI vs AI can be followed.
  const wait = aiPauseMs() - (performance.now() - started);
  if (wait > 0) await sleep(wait);
  while (board?.animating && aiPauseMs() > 0) await sleep(50);
  if (thinking !== token || gen !== generation) return;
  try {
    const r = await client.play(report.move);
    if (thinking !== token) return;
    thinking = null;
    setProgress(null);
    showSummary(report);
    applyState(r.state, r.played);
    if (report.tree) showTree(report.tree);
  } catch (e) {
    if (thinking === token) thinking = null;
    if (!(e instanceof Cancelled)) say(`The AI's move was refused: ${e.message}`, true);
    updateControls();
    return;
  }
  if (settings.paused) {
    updateControls();
    return;
  }
  advance();
}

function formatValue(v) {
  return Number.isFinite(v) ? String(Math.round(v * 100) / 100) : String(v);
}

/** What the AI would do and why: every root move with its backed-up value, the chosen one first. */
function showHint(r, opts) {
  el.hintPanel.hidden = false;
  const algo = opts.algorithm === 'expectimax' ? 'Expectimax (average over the deals)' : titleCase(opts.algorithm);
  const depth = r.stats?.depth_reached || opts.depth;
  el.hintWhy.textContent = `${algo}, ${depth} ${depth === 1 ? 'ply' : 'plies'} deep, ${formatCount(r.stats?.nodes || 0)} nodes: ${r.move} has the best value. The moves at the root, best first (values for ${playerName(state.to_move)}; the tree below shows why):`;
  el.hintMoves.replaceChildren();
  const moves = [...(r.root_moves || [])].sort((a, b) => b.value - a.value);
  for (const m of moves) {
    const li = document.createElement('li');
    if (m.move === r.move) li.className = 'best';
    li.dataset.move = m.move;
    const v = document.createElement('span');
    v.className = 'val';
    v.textContent = `${m.exact === false ? '≤ ' : ''}${formatValue(m.value)}`;
    li.append(document.createTextNode(m.move), v);
    el.hintMoves.append(li);
  }
}

function hideHint() {
  el.hintPanel.hidden = true;
}

function showSummary(r) {
  const st = r.stats || {};
  const value = Number.isFinite(r.value) && r.reason !== 'random' ? ` value ${Math.round(r.value * 100) / 100},` : '';
  el.aiSummary.textContent = `AI played ${r.move}:${value} ${formatCount(st.nodes || 0)} nodes, ${Math.round(st.time_ms || 0)} ms`;
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

async function humanPlay(text) {
  if (!state || state.outcome) return;
  if (thinking || !humanToMove()) {
    say('Wait: it is the AI’s turn.', true);
    return;
  }
  generation++;
  try {
    const r = await client.play(text);
    say('');
    applyState(r.state, r.played);
    if (tutorial && !tutorial.done) return tutorialCheck(r);
    advance();
  } catch (e) {
    if (!(e instanceof Cancelled)) say(e.message, true);
  }
}

async function newGame(id = el.game.value || settings.game) {
  stopThinking();
  generation++;
  try {
    const s = await client.open(id);
    // A random deal cannot be dealt again from its id: the record starts from the position.
    if (gameEntry(id)?.chance && client.record) client.record.start = s.position;
    settings.game = id;
    cursor = null;
    view = null;
    lastTree = null;
    el.aiSummary.textContent = '';
    say('');
    applyState(s);
    renderPlayers();
    advance();
  } catch (e) {
    if (!(e instanceof Cancelled)) say(e.message, true);
  }
}

async function undo() {
  stopThinking();
  generation++;
  try {
    let s = await client.undo();
    // Against an AI, take back to the human's last turn; a deal goes back with the swipe before it.
    while (
      s.history.length > 0 &&
      (s.to_move === 'chance' || (isAi(s.players.indexOf(s.to_move)) && settings.sides.some((x) => x.level === 'human')))
    ) {
      s = await client.undo();
    }
    say('');
    applyState(s);
    if (!settings.paused || !isAi(sideIndex())) advance();
  } catch (e) {
    if (!(e instanceof Cancelled)) say(e.message, true);
  }
}

async function redo() {
  stopThinking();
  generation++;
  try {
    let s = await client.redo();
    // Against an AI, play its recorded answer again too, back to the human's turn.
    while (s.redo.length > 0 && !s.outcome && isAi(s.players.indexOf(s.to_move)) && settings.sides.some((x) => x.level === 'human')) {
      s = await client.redo();
    }
    applyState(s);
    advance();
  } catch (e) {
    if (!(e instanceof Cancelled)) say(e.message, true);
  }
}

async function setPositionFromText() {
  const text = el.positionText.value.trim();
  stopThinking();
  generation++;
  try {
    const s = await client.setPosition(text);
    say('Position set.');
    applyState(s);
    advance();
  } catch (e) {
    if (!(e instanceof Cancelled)) say(e.message, true);
    // The game is unchanged: show its position again.
    if (state) el.positionText.value = state.position;
  }
}

/** Replays a pasted game record from the start position (or the position last set). */
async function replayRecord() {
  const text = el.recordText.value.trim();
  const moves = text ? (text.includes(',') ? text.split(',') : text.split(/\s+/)).map((m) => m.trim()).filter(Boolean) : [];
  stopThinking();
  generation++;
  try {
    const r = client.record;
    const s = await client.restore(state.game, r ? r.start : null, moves, []);
    say(`Replayed ${moves.length} move${moves.length === 1 ? '' : 's'}.`);
    applyState(s);
    advance();
  } catch (e) {
    if (!(e instanceof Cancelled)) say(`${e.message} (the game is unchanged)`, true);
    if (state) el.recordText.value = state.history.join(' ');
  }
}

function togglePause() {
  settings.paused = !settings.paused;
  save();
  if (settings.paused) stopThinking();
  render();
  advance();
}

function step() {
  if (!settings.paused || thinking || !state || state.outcome) return;
  const i = sideIndex();
  if (isAi(i)) aiMove(i);
}

/** A hint for the human to move: alpha-beta (the strongest level's settings) without playing. */
async function suggest() {
  if (!state || state.outcome || thinking || !humanToMove()) return;
  const gen = generation;
  const token = {};
  thinking = token;
  updateControls();
  updateBoardDecor();
  // Games with chance search far more nodes a ply: their hint looks two swipes ahead by default.
  const chance = !!gameEntry(state.game)?.chance;
  const strongest = settings.sides.find((x) => x.level === 'alphabeta') || { level: 'alphabeta', depth: chance ? 2 : 4, time: 0, q: 0 };
  const opts = { ...searchOptions({ ...strongest, level: 'alphabeta', q: 0 }) };
  try {
    const r = await client.search(opts, (p) => {
      if (thinking === token) setProgress(p);
    });
    if (thinking !== token || gen !== generation) return;
    thinking = null;
    setProgress(null);
    const t = adapter && view ? adapter.target(r.move, view) : null;
    if (t) cursor = { x: t.x, y: t.y };
    const swipe = SWIPES.includes(r.move);
    say(`Hint: ${r.move} (value ${formatValue(r.value)} for ${playerName(state.to_move)}). ${swipe ? 'The arrow keys play it.' : 'Space plays it.'}`);
    showHint(r, opts);
    if (r.tree) showTree(r.tree);
    el.hintPanel.scrollIntoView({ block: 'nearest' });
  } catch (e) {
    if (thinking === token) thinking = null;
    setProgress(null);
    if (!(e instanceof Cancelled)) say(e.message, true);
  }
  updateControls();
  updateBoardDecor();
}

// ---------------------------------------------------------------------------------------------
// Ataxx wall layouts: presets, a random playable layout, a typed code and the editor. Every check
// is the engine's (walls::validate, toggle, random_layout); the page only shows its answers.

const wallEl = {
  panel: $('walls-panel'),
  current: $('wall-current'),
  preset: $('wall-preset'),
  random: $('wall-random'),
  code: $('wall-code'),
  play: $('wall-play'),
  editor: $('wall-editor'),
  error: $('wall-error'),
};
let wallCode = '0000'; // the layout in the editor (hex)
let wallShownFor = null; // the game id whose layout the panel last took over
let wallPresetsLoaded = false;

function wallCodeOf(id) {
  const m = /^ataxx-([0-9A-Fa-f]{4})$/.exec(id);
  return m ? m[1].toUpperCase() : id === 'ataxx' ? '0000' : null;
}

function renderWallsPanel() {
  const isAtaxx = !!state && /^ataxx(-|$)/.test(state.game);
  wallEl.panel.hidden = !isAtaxx;
  if (!isAtaxx) return;
  if (!wallPresetsLoaded) loadWallPresets();
  const code = wallCodeOf(state.game);
  wallEl.current.textContent = tutorial ? 'tutorial position' : code ? `playing ${code}` : 'walls from a position';
  if (state.game !== wallShownFor) {
    wallShownFor = state.game;
    if (code) setWallCode(code, false);
  }
}

async function loadWallPresets() {
  wallPresetsLoaded = true;
  try {
    const presets = await client.walls('wallPresets');
    wallEl.preset.replaceChildren(new Option('Choose a preset…', ''));
    for (const p of presets) wallEl.preset.append(new Option(`${titleCase(p.name)} (${p.code})`, p.code));
  } catch (e) {
    wallPresetsLoaded = false;
    wallEl.error.textContent = e.message;
  }
}

/** Shows `code` in the input and the editor (cells from the engine's mirror of the code). */
async function setWallCode(code, clearError = true) {
  wallCode = code;
  wallEl.code.value = code;
  wallEl.preset.value = [...wallEl.preset.options].some((o) => o.value === code) ? code : '';
  if (clearError) wallEl.error.textContent = '';
  let cells = [];
  try {
    cells = await client.walls('wallCells', code);
  } catch (e) {
    wallEl.error.textContent = e.message;
  }
  if (wallCode !== code) return;
  const walls = new Set(cells);
  wallEl.editor.replaceChildren();
  for (let y = 0; y < 7; y++) {
    for (let x = 0; x < 7; x++) {
      const cell = (6 - y) * 7 + x; // a1 = 0 .. g7 = 48
      const b = document.createElement('button');
      const name = `${'abcdefg'[x]}${7 - y}`;
      const corner = (x === 0 || x === 6) && (y === 0 || y === 6);
      b.type = 'button';
      b.dataset.cell = String(cell);
      b.dataset.name = name;
      b.className = walls.has(cell) ? 'wall' : corner ? 'corner' : '';
      b.textContent = corner ? '●' : '';
      b.setAttribute('aria-label', `${name}: ${walls.has(cell) ? 'wall' : corner ? 'starting corner' : 'free'}`);
      b.title = corner ? `${name}: a starting corner (no wall)` : `${name}: toggle the wall here and on its mirror images`;
      b.addEventListener('click', () => toggleWall(cell));
      wallEl.editor.append(b);
    }
  }
}

async function toggleWall(cell) {
  try {
    const next = await client.walls('wallToggle', wallCode, cell);
    await setWallCode(next);
    const focus = wallEl.editor.querySelector(`[data-cell="${cell}"]`);
    if (focus) focus.focus();
  } catch (e) {
    wallEl.error.textContent = e.message;
  }
}

/** Starts a game on the layout typed or edited, if the engine finds it playable. */
async function playWallCode(text) {
  try {
    const code = await client.walls('wallCheck', text);
    wallEl.error.textContent = '';
    if (tutorial) endTutorial(false);
    wallShownFor = null;
    await newGame(code === '0000' ? 'ataxx' : `ataxx-${code}`);
    say(`Wall layout ${code}.`);
  } catch (e) {
    if (!(e instanceof Cancelled)) wallEl.error.textContent = e.message;
  }
}

wallEl.preset.addEventListener('change', () => {
  if (wallEl.preset.value) playWallCode(wallEl.preset.value);
});
wallEl.random.addEventListener('click', async () => {
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  try {
    const code = await client.walls('wallRandom', seed);
    await setWallCode(code);
    await playWallCode(code);
  } catch (e) {
    wallEl.error.textContent = e.message;
  }
});
wallEl.play.addEventListener('click', () => playWallCode(wallEl.code.value));
wallEl.code.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter') playWallCode(wallEl.code.value);
});
wallEl.code.addEventListener('change', async () => {
  // Show a typed code in the editor when the engine can read it; playing it checks it fully.
  try {
    await client.walls('wallCells', wallEl.code.value);
    const t = wallEl.code.value.trim().replace(/^0x/i, '').toUpperCase().padStart(4, '0');
    await setWallCode(t);
  } catch (e) {
    wallEl.error.textContent = e.message;
  }
});

// ---------------------------------------------------------------------------------------------
// Ataxx tutorial: small positions, each asking for the move that shows one rule. Both sides are
// human while it runs; a wrong move is taken back with a word on why.

const count = (v, p) => v.cells.filter((c) => c === p).length;
const TUTORIAL = [
  {
    title: 'Clone',
    fen: '7/7/7/3x3/7/7/6o x 0 1',
    text: 'You play black. A move goes to an empty cell. Click your piece on d4, then one of the cells right next to it (diagonals count): that is a clone, and the piece you started from stays.',
    goal: (played) => played.length === 2,
    wrong: 'That was not a step to a neighbouring cell. Pick a filled dot, right next to d4.',
    well: 'Well done: a clone adds a piece, so you now have two.',
  },
  {
    title: 'Jump',
    fen: '7/7/7/3x3/7/7/6o x 0 1',
    text: 'A move can also go two cells away: a jump. The piece leaves its cell, so you do not gain one, but you reach further. Select d4 and pick a dashed ring.',
    goal: (played) => played.length === 4 && played !== '0000',
    wrong: 'That was a clone (one step). Jump: pick a cell two steps away from d4.',
    well: 'Well done: the piece jumped, and d4 is empty again.',
  },
  {
    title: 'Conversion',
    fen: '6o/7/7/7/2o4/2o4/x6 x 0 1',
    text: 'After any move, every enemy piece touching the cell you moved to turns to your colour. Take both white pieces on c2 and c3 with one move.',
    goal: (played, s, v) => count(v, 1) === 1,
    wrong: 'That cell does not touch both c2 and c3. Find a cell next to both of them.',
    well: 'Well done: both white pieces next to your new piece became black.',
  },
  {
    title: 'Pass',
    fen: '7/7/7/7/ooo4/ooo4/xoo4 x 0 1',
    text: 'Your piece on a1 is boxed in: no empty cell within two steps. A player without a move must pass. Press the Pass button under the board.',
    goal: (played) => played === '0000',
    wrong: 'Passing is the only move here.',
    well: 'Well done: you passed, and white plays on. The game goes on as long as someone can move.',
  },
  {
    title: 'End of the game',
    fen: '7/7/7/7/2o4/2o4/x6 x 0 1',
    text: 'The game ends when a side has no pieces left, or when no empty cell can be reached; then the side with more pieces wins. White has only two pieces: take both and win.',
    goal: (played, s, v) => !!s.outcome && count(v, 1) === 0,
    wrong: 'White still has a piece. One move can take both: find a cell touching c2 and c3.',
    well: 'Well done: white has no pieces left, and the game is over. You know the rules!',
  },
];

const tutEl = {
  box: $('tutorial'),
  title: $('tutorial-title'),
  count: $('tutorial-count'),
  text: $('tutorial-text'),
  result: $('tutorial-result'),
  retry: $('tutorial-retry'),
  next: $('tutorial-next'),
  exit: $('tutorial-exit'),
};

async function startTutorial() {
  if (!tutorial) {
    tutorial = { step: 0, done: false, sides: settings.sides.map((x) => ({ ...x })), game: settings.game };
    settings.sides.forEach((x) => (x.level = 'human'));
  }
  tutorial.step = 0;
  await loadTutorialStep();
  tutEl.box.scrollIntoView({ block: 'start' });
}

async function loadTutorialStep() {
  const step = TUTORIAL[tutorial.step];
  stopThinking();
  generation++;
  tutorial.done = false;
  tutEl.box.hidden = false;
  tutEl.title.textContent = `Tutorial: ${step.title}`;
  tutEl.count.textContent = `step ${tutorial.step + 1} of ${TUTORIAL.length}`;
  tutEl.text.textContent = step.text;
  tutEl.result.textContent = '';
  tutEl.result.className = 'tutorial-result';
  tutEl.next.disabled = true;
  tutEl.next.textContent = tutorial.step + 1 < TUTORIAL.length ? 'Next step' : 'Finish';
  try {
    if (!state || state.game !== 'ataxx') await client.open('ataxx');
    settings.game = 'ataxx';
    const s = await client.setPosition(step.fen);
    say('');
    applyState(s);
    renderPlayers();
  } catch (e) {
    if (!(e instanceof Cancelled)) say(e.message, true);
  }
}

async function tutorialCheck(r) {
  const step = TUTORIAL[tutorial.step];
  const v = adapter ? adapter.parse(r.state.position, r.state.game) : null;
  if (v && step.goal(r.played, r.state, v)) {
    tutorial.done = true;
    tutEl.result.textContent = step.well;
    tutEl.result.className = 'tutorial-result ok';
    tutEl.next.disabled = false;
    tutEl.next.focus();
    return;
  }
  tutEl.result.textContent = `Not quite: ${step.wrong}`;
  tutEl.result.className = 'tutorial-result bad';
  const gen = ++generation;
  await sleep(700);
  while (board?.animating) await sleep(50);
  if (gen !== generation || !tutorial) return;
  try {
    applyState(await client.undo());
  } catch (e) {
    if (!(e instanceof Cancelled)) say(e.message, true);
  }
}

function endTutorial(restart = true) {
  if (!tutorial) return;
  const t = tutorial;
  tutorial = null;
  tutEl.box.hidden = true;
  t.sides.forEach((x, i) => Object.assign(settings.sides[i], x));
  renderPlayers();
  save();
  if (restart) newGame(t.game);
}

$('tutorial-start').addEventListener('click', startTutorial);
tutEl.retry.addEventListener('click', () => tutorial && loadTutorialStep());
tutEl.exit.addEventListener('click', () => endTutorial(true));
tutEl.next.addEventListener('click', () => {
  if (!tutorial || !tutorial.done) return;
  if (tutorial.step + 1 < TUTORIAL.length) {
    tutorial.step++;
    loadTutorialStep();
  } else {
    endTutorial(true);
    toast('Tutorial complete: enjoy a game!');
  }
});

// ---------------------------------------------------------------------------------------------
// Board input

function cellClicked(c) {
  if (!c || !state || state.outcome) return;
  if (thinking || !humanToMove()) {
    say('Wait: it is the AI’s turn.', true);
    return;
  }
  cursor = { x: c.x, y: c.y };
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
    selected = selected && selected.x === c.x && selected.y === c.y ? null : { x: c.x, y: c.y };
    if (selected && adapter?.startsFrom) say('Filled dots: clone (the piece stays); dashed rings: jump (the piece leaves its cell).');
    updateBoardDecor();
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
function swipeGame() {
  return !!state && adapter?.style === 'tiles' && state.legal.some((m) => SWIPES.includes(m.move));
}
el.canvas.addEventListener('pointerdown', (ev) => {
  dragged = false;
  if (adapter?.style !== 'tiles') return;
  drag = { x: ev.clientX, y: ev.clientY, id: ev.pointerId };
  el.canvas.setPointerCapture?.(ev.pointerId);
});
el.canvas.addEventListener('pointerup', (ev) => {
  const d = drag;
  drag = null;
  if (!d || d.id !== ev.pointerId) return;
  const dx = ev.clientX - d.x;
  const dy = ev.clientY - d.y;
  const r = el.canvas.getBoundingClientRect();
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
el.canvas.addEventListener('pointercancel', () => (drag = null));
el.canvas.addEventListener('click', (ev) => {
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
  cursor = { x: next.x, y: next.y };
  say(`Highlighted ${next.move}.`);
  updateBoardDecor();
}

function moveCursor(dx, dy) {
  if (!view) return;
  const c = cursor || { x: 0, y: 0 };
  cursor = { x: Math.min(view.w - 1, Math.max(0, c.x + dx)), y: Math.min(view.h - 1, Math.max(0, c.y + dy)) };
  updateBoardDecor();
}

function changeLevel(i, delta) {
  const at = LEVELS.findIndex((l) => l.id === settings.sides[i].level);
  const next = Math.min(LEVELS.length - 1, Math.max(0, at + delta));
  if (next !== at) setLevel(i, LEVELS[next].id);
}

document.addEventListener('keydown', (ev) => {
  const t = ev.target;
  const typing = t instanceof HTMLElement && (t.matches('input, textarea, select, [contenteditable]') || t.isContentEditable);
  // The tree explorer has keys of its own (arrows, Enter, Space) while it has the focus.
  if (typing || (t instanceof Node && el.treeRoot.contains(t))) return;
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
      if (cursor) cellClicked(cursor);
      break;
    case 'Enter':
      if (onControl) return;
      ev.preventDefault();
      if (tutorial) loadTutorialStep();
      else newGame(settings.game);
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
      if (thinking) {
        settings.paused = true;
        stopThinking();
        render();
      }
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

// ---------------------------------------------------------------------------------------------
// Tree explorer (provided by www/tree/explorer.js when present)

async function mountTree() {
  try {
    const mod = await import('./tree/explorer.js');
    // Board previews follow the shown document: a tree pasted here previews its own positions.
    explorer = mod.mountExplorer(el.treeRoot, { editorOpen: false, decorateTooltip: boardPreview({ onError: (m) => console.warn('board preview:', m) }) });
    if (lastTree) explorer.showDocument(lastTree);
  } catch (e) {
    console.warn('tree explorer not available:', e);
    el.treeMissing.hidden = false;
  }
}

function showTree(doc, live = false) {
  lastTree = doc;
  const st = doc.stats || {};
  const who = doc.perspective ? playerName(doc.perspective) : 'the AI';
  const what = doc.chosen?.move ? `${live ? 'Best so far' : 'Chose'} ${doc.chosen.move}` : 'Searching';
  const depth = st.depth_reached ? `, depth ${st.depth_reached}` : '';
  const trunc = st.truncated ? ' (tree cut at its node cap)' : '';
  $('tree-caption').textContent = `${what} for ${who}: ${doc.algorithm}${depth}, ${formatCount(st.nodes || 0)} nodes searched${trunc}.`;
  if (explorer) {
    try {
      explorer.showDocument(doc, { keepView: live || liveShown });
      liveShown = live;
    } catch (e) {
      console.error('the tree explorer failed', e);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Wiring and start-up

el.newGame.addEventListener('click', () => (tutorial ? loadTutorialStep() : newGame(el.game.value)));
el.game.addEventListener('change', () => {
  if (tutorial) endTutorial(false);
  newGame(el.game.value);
});
el.undo.addEventListener('click', undo);
el.redo.addEventListener('click', redo);
el.pause.addEventListener('click', togglePause);
el.step.addEventListener('click', step);
el.suggest.addEventListener('click', suggest);
el.aiPlays.addEventListener('click', toggleAiPlays);
for (const sp of SPEEDS) el.speed.append(new Option(`${sp.name}`, sp.id));
el.speed.addEventListener('change', () => {
  settings.speed = el.speed.value;
  save();
});

/** One-player games: the AI (the strongest level) takes over, or hands back to the human. */
function toggleAiPlays() {
  if (!state || state.players.length !== 1) return;
  const side = settings.sides[0];
  if (side.level === 'human') {
    side.level = 'alphabeta';
    settings.paused = false;
  } else side.level = 'human';
  setLevel(0, side.level);
}
el.cancel.addEventListener('click', () => {
  if (!thinking) return;
  settings.paused = true;
  stopThinking();
  say('Search cancelled; the AI is paused (Resume or Step to go on).');
  render();
});
el.setPosition.addEventListener('click', setPositionFromText);
el.loadRecord.addEventListener('click', replayRecord);
el.playMove.addEventListener('click', () => {
  const text = el.moveInput.value.trim();
  if (text) humanPlay(text).then(() => {
    if (!el.message.classList.contains('error')) el.moveInput.value = '';
  });
});
el.moveInput.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter') el.playMove.click();
});
el.helpToggle.addEventListener('click', () => {
  el.help.hidden = !el.help.hidden;
  el.helpToggle.setAttribute('aria-expanded', String(!el.help.hidden));
});

function fillGamePicker() {
  el.game.replaceChildren();
  for (const g of catalogue) {
    if (!g.variants.length) {
      el.game.append(new Option(g.name, g.id));
      continue;
    }
    // A game with variants: a group with the default first.
    const group = document.createElement('optgroup');
    group.label = g.name;
    group.append(new Option(g.name, g.id));
    for (const v of g.variants) group.append(new Option(v.name, v.id));
    el.game.append(group);
  }
}

async function start() {
  const record = load();
  el.speed.value = settings.speed;
  renderPlayers();
  mountTree();
  try {
    catalogue = await client.catalogue();
  } catch (e) {
    showEngineError(`The engine could not start: ${e.message}`);
    return;
  }
  fillGamePicker();
  // A first visit opens Reversi (the seed's game) when the engine has it.
  if (!record && !hadSaved && gameEntry('reversi')) settings.game = 'reversi';
  if (!gameEntry(settings.game)) settings.game = catalogue[0]?.id || 'tictactoe';
  let s = null;
  if (record && typeof record.game === 'string' && gameEntry(record.game)) {
    try {
      s = await client.restore(record.game, record.start || null, record.moves || [], record.redo || []);
      settings.game = record.game;
    } catch (e) {
      say(`The saved game could not be restored (${e.message}); a new game starts.`, true);
    }
  }
  if (!s) s = await client.open(settings.game);
  applyState(s);
  renderPlayers();
  advance();
}

// Hooks for tests and the curious.
window.plyscope = {
  client,
  settings,
  get state() {
    return state;
  },
  get board() {
    return board;
  },
  get view() {
    return view;
  },
  get thinking() {
    return !!thinking;
  },
  get explorer() {
    return explorer;
  },
  /** The last search tree document shown (an AI move's or a hint's). */
  get tree() {
    return lastTree;
  },
  /** The client (CSS pixel) centre of the cell a move text points at, or null. */
  cellCenterOf(move) {
    const t = adapter && view ? adapter.target(move, view) : null;
    return t && board ? board.cellCenter(t.x, t.y) : null;
  },
};

start();

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('./sw.js').catch((e) => console.warn('no offline support:', e));
}
