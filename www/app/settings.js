// The player's settings: the game, each side's level and AI knobs, the pause and the AI's pace.
// They are saved in localStorage with the game's record; this module also turns a side's settings
// into the search options the engine is asked for. No DOM here.

import { treeNodeBudget } from './tree-store.js';

const STORE = 'plyscope.app.v1';

/** The levels a side can play at, weakest first (Page Up / Page Down walk this list). */
export const LEVELS = [
  { id: 'human', name: 'Human' },
  { id: 'random', name: 'Random' },
  { id: 'easy', name: 'Easy (greedy)' },
  { id: 'hard', name: 'Hard (minimax)' },
  { id: 'alphabeta', name: 'Alpha-beta' },
  { id: 'mcts', name: 'MCTS (Monte Carlo)' },
];

/** The AI's pace: the pause before an AI move (and before nature deals) in milliseconds. */
export const SPEEDS = [
  { id: 'slow', name: 'Slow', ms: 1000 },
  { id: 'normal', name: 'Normal', ms: 350 },
  { id: 'fast', name: 'Fast', ms: 0 },
];


/** The most search workers the page offers. */
export const MAX_WORKERS = 8;

/** The search workers a first visit uses: the cores the browser reports less one (the page's
 * own), from 1 to [`MAX_WORKERS`]. 1 is the single engine worker of every search. */
export function defaultWorkers() {
  const cores = typeof navigator !== 'undefined' && Number.isInteger(navigator.hardwareConcurrency) ? navigator.hardwareConcurrency : 2;
  return Math.min(MAX_WORKERS, Math.max(1, cores - 1));
}

/** The search settings a game starts with when the engine's catalogue gives none: deep, but
 * bounded by a few seconds a move. Each game's own come from the catalogue (`ai`). */
export const DEFAULT_DEPTH = 12;
/** The default time limit of an AI move, in milliseconds (0: none). */
export const DEFAULT_TIME_MS = 3000;
/** How many earlier games "new game" keeps, so that Undo can bring them back. */
const KEPT_GAMES = 5;

/**
 * The alpha-beta search's techniques, each with a switch in the players panel (on by default, the
 * strongest measured (docs/benchmarks.md), except those marked `off` and those a game's catalogue
 * entry turns off: `ai.techniques_off`, Reversi's killer moves; a game's `ai.techniques_on` turns
 * on some marked `off`: Ataxx's singular extensions and internal iterative reduction). `key` is
 * the search option the engine reads.
 */
export const TECHNIQUES = [
  { id: 'tt', key: 'transposition_table', name: 'Transposition table', title: 'Remember results by position; a node answered from it is tagged TT in the tree' },
  { id: 'pvs', key: 'pvs', name: 'Null windows (PVS)', title: 'Principal variation search: after the first move, ask only whether a move beats the best so far, and search again when it does' },
  { id: 'aspiration', key: 'aspiration', name: 'Aspiration windows', title: 'Search each depth in a window around the last depth’s value, widened when the value falls outside' },
  { id: 'killers', key: 'killers', name: 'Killer moves', title: 'Try first the moves that caused cut-offs at the same depth' },
  { id: 'history', key: 'history', name: 'History heuristic', title: 'Order moves by how often they caused cut-offs' },
  { id: 'lmr', key: 'lmr', name: 'Late-move reductions', title: 'Search moves late in the order shallower first (tagged R1, R2 in the tree)' },
  { id: 'null_move', key: 'null_move', name: 'Null-move pruning', title: 'Where the game allows passing as a test (never with forced passes): cut a node when even passing scores beyond the window (tagged NM)' },
  { id: 'lmp', key: 'late_move_pruning', name: 'Late-move pruning', title: 'Where the game says which moves gain nothing (Ataxx: jumps that capture nothing): skip them late in the order one or two plies above the horizon (tagged ✂ futile in the tree)' },
  { id: 'futility', key: 'futility', name: 'Futility pruning', title: 'Where the game says which moves are quiet (Ataxx): near the horizon, skip quiet moves, or a whole node, when the static evaluation is far from the window (tagged ✂ futile in the tree)' },
  { id: 'quiescence', key: 'quiescence', name: 'Quiescence', title: 'Look further at positions the game calls unsettled', value: (on) => (on ? 4 : 0) },
  { id: 'lmp_all', key: 'late_move_pruning_all_depths', name: 'Late-move pruning at every depth', off: true, title: 'Off by default (not measured stronger): Zataxx’s rule, where the game says which moves gain nothing (Ataxx): below the root, skip them once two moves have been searched, whatever the depth left (tagged ✂ futile in the tree)' },
  { id: 'singular', key: 'singular_extensions', name: 'Singular extensions', off: true, title: 'Off by default except in Ataxx (measured stronger there): with the transposition table, when a shallower search of the other moves finds none close to the table move’s value, search that move a ply deeper (tagged X+1); a ply shallower when others come close and its value already beats the window (X−1); cut the node when another move beats the window too (MC)' },
  { id: 'malus', key: 'history_malus', name: 'History malus', off: true, title: 'Off by default except in Ataxx: with the history heuristic, the moves searched before a cut-off lose as much score as the cutting move gains, and scores stay within a bound, so a move that stops cutting soon loses its place in the order' },
  { id: 'iir', key: 'internal_reduction', name: 'Internal iterative reduction', off: true, title: 'Off by default except in Ataxx (on there: it gained against a stronger engine and never measured weaker): a node with several plies left and no move from the transposition table is searched one ply shallower, to find a move to try first next time (tagged R1 on the node in the tree)' },
];

/** Whether technique `t` is on by default in a game whose catalogue AI settings are `ai`. */
export function techDefault(t, ai) {
  if (t.off) return Array.isArray(ai?.techniques_on) && ai.techniques_on.includes(t.key);
  return !(Array.isArray(ai?.techniques_off) && ai.techniques_off.includes(t.key));
}

/**
 * Whether technique `t` is on in a side's switches `tech` (`{id: boolean}`, only the switches the
 * player touched) in a game whose catalogue AI settings are `ai`: a switch never touched has the
 * game's default.
 */
export function techOn(tech, t, ai) {
  return typeof tech?.[t.id] === 'boolean' ? tech[t.id] : techDefault(t, ai);
}

// No switch touched: every technique at its game's default.
function defaultTech() {
  return {};
}

/** A side at `level` with the game's AI defaults (`ai`: the catalogue's {depth, time_ms}). */
function defaultSide(level, ai) {
  const depth = Number.isInteger(ai?.depth) && ai.depth > 0 ? ai.depth : DEFAULT_DEPTH;
  const time = Number.isInteger(ai?.time_ms) && ai.time_ms >= 0 ? ai.time_ms : DEFAULT_TIME_MS;
  return { level, depth, time, q: 0, tech: defaultTech() };
}

/** A game's sides as a first visit has them: a human against alpha-beta with the game's defaults. */
function defaultSides(ai) {
  return [defaultSide('human', ai), defaultSide('alphabeta', ai)];
}

/** The AI settings a side of a game (its catalogue entry, or null) starts with. */
export function aiDefaults(entry) {
  return defaultSide('alphabeta', entry?.ai);
}

/**
 * The live settings (one object, changed in place by the page). `sides` are the sides of the game
 * played: each game (by its catalogue id, variants share) keeps its own in `perGame`.
 * `previous` holds the records of games a new game replaced, latest last.
 */
export const settings = {
  game: '', // the catalogue's first game until one is chosen
  sides: defaultSides(),
  perGame: {},
  paused: false,
  speed: 'normal',
  previous: [],
  // Whether the AI's candidate moves are marked on the board (after an AI move, a hint, and
  // while it thinks).
  marks: true,
  // How many Web Workers an alpha-beta or minimax search uses (1: the engine's worker alone;
  // more: a parallel search that splits each depth's root moves between them).
  threads: defaultWorkers(),
};

/**
 * Makes `settings.sides` the sides of game `base` (a catalogue id), with the game's defaults
 * (`entry.ai`, from the engine's catalogue) on first use.
 */
export function useGameSettings(base, entry = null) {
  if (!settings.perGame[base]) settings.perGame[base] = { sides: defaultSides(entry?.ai) };
  settings.sides = settings.perGame[base].sides;
}

/** Keeps a replaced game's record (`{game, start, moves, redo}`) so that Undo can bring it back. */
export function keepPrevious(record) {
  settings.previous.push(JSON.parse(JSON.stringify(record)));
  if (settings.previous.length > KEPT_GAMES) settings.previous.shift();
}

/** The pause before each AI move, so that AI vs AI (or the AI playing Threes) can be followed. */
export function aiPauseMs() {
  return (SPEEDS.find((x) => x.id === settings.speed) || SPEEDS[1]).ms;
}

let hadSaved = false; // whether this browser had saved settings (not a first visit)
let saveFilter = null;

/** Whether this is the first visit (nothing was saved before). */
export function firstVisit() {
  return !hadSaved;
}

/**
 * While a mode borrows the settings (the Ataxx tutorial makes both sides human), `filter(settings,
 * record)` returns the `{settings, record}` to save instead; `null` ends it.
 */
export function setSaveFilter(filter) {
  saveFilter = filter;
}

/** Saves the settings and the game's record (`{game, start, moves, redo}` or null). */
export function saveSettings(record) {
  try {
    const out = saveFilter ? saveFilter(settings, record) : { settings, record };
    out.settings = { ...out.settings, sides: undefined, techVersion: TECH_VERSION };
    localStorage.setItem(STORE, JSON.stringify(out));
  } catch {
    // Storage full or disabled: the game still plays.
  }
}

// Saved settings before this version kept every switch, touched or not; this one keeps only the
// switches a player touched, so that a game's own defaults (Reversi's killers) reach untouched ones.
const TECH_VERSION = 2;

function readSide(s, side, legacy) {
  if (!s || typeof s !== 'object') return;
  if (LEVELS.some((l) => l.id === s.level)) side.level = s.level;
  for (const k of ['depth', 'time', 'q']) if (Number.isFinite(s[k])) side[k] = s[k];
  if (s.tech && typeof s.tech === 'object') {
    for (const t of TECHNIQUES) {
      if (typeof s.tech[t.id] !== 'boolean') continue;
      // An older save's switch at the default of its day was not touched.
      if (legacy && s.tech[t.id] === !t.off) continue;
      side.tech[t.id] = s.tech[t.id];
    }
  }
  if (typeof s.solver === 'boolean') side.solver = s.solver;
}

function readRecord(r) {
  if (!r || typeof r !== 'object' || typeof r.game !== 'string') return null;
  const list = (x) => (Array.isArray(x) ? x.filter((m) => typeof m === 'string') : []);
  return { game: r.game, start: typeof r.start === 'string' ? r.start : null, moves: list(r.moves), redo: list(r.redo) };
}

/** Reads the saved settings into `settings`; returns the saved game record, or null. */
export function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (!saved || typeof saved !== 'object') return null;
    hadSaved = true;
    const st = saved.settings;
    if (st && typeof st === 'object') {
      if (typeof st.game === 'string') settings.game = st.game;
      if (st.perGame && typeof st.perGame === 'object') {
        for (const [base, g] of Object.entries(st.perGame)) {
          if (!g || !Array.isArray(g.sides)) continue;
          const sides = defaultSides();
          g.sides.slice(0, 2).forEach((s, i) => readSide(s, sides[i], st.techVersion !== TECH_VERSION));
          settings.perGame[base] = { sides };
        }
      }
      if (Array.isArray(st.previous)) settings.previous = st.previous.map(readRecord).filter(Boolean).slice(-KEPT_GAMES);
      settings.paused = !!st.paused;
      if (SPEEDS.some((x) => x.id === st.speed)) settings.speed = st.speed;
      if (typeof st.marks === 'boolean') settings.marks = st.marks;
      if (Number.isInteger(st.threads) && st.threads >= 1 && st.threads <= MAX_WORKERS) settings.threads = st.threads;
    }
    return saved.record || null;
  } catch {
    return null;
  }
}

/** The search options for a side's settings in a game (its catalogue entry, or null). */
export function searchOptions(side, entry) {
  const evaluators = entry?.evaluators || [];
  const o = { record_tree: true, node_cap: treeNodeBudget(), randomness_quotient: side.q | 0 };
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
    case 'hard': {
      const h = { ...o, algorithm: 'minimax', depth: side.depth, iterative_deepening: true };
      if (settings.threads > 1) h.threads = settings.threads;
      if (side.time > 0) h.time_ms = side.time;
      return h;
    }
    case 'mcts': {
      // Monte Carlo tree search: playouts for the time limit (10,000 of them with no limit).
      const m = { ...o, algorithm: 'mcts', mcts_solver: side.solver !== false };
      if (side.time > 0) m.time_ms = side.time;
      return m;
    }
    default: {
      // Alpha-beta does not apply across chance turns: games with chance use expectimax there.
      const algorithm = entry?.chance ? 'expectimax' : 'alphabeta';
      // Depth by depth: the explorer shows each finished depth live, and a stopped search has one.
      const a = { ...o, algorithm, depth: side.depth, iterative_deepening: true };
      if (side.time > 0) a.time_ms = side.time;
      if (algorithm === 'alphabeta') {
        if (settings.threads > 1) a.threads = settings.threads;
        const tech = side.tech || defaultTech();
        for (const t of TECHNIQUES) {
          const on = techOn(tech, t, entry?.ai);
          a[t.key] = t.value ? t.value(on) : on;
        }
      }
      return a;
    }
  }
}
