// The player's settings: the game, each side's level and AI knobs, the pause and the AI's pace.
// They are saved in localStorage with the game's record; this module also turns a side's settings
// into the search options the engine is asked for. No DOM here.

const STORE = 'plyscope.app.v1';

/** The levels a side can play at, weakest first (Page Up / Page Down walk this list). */
export const LEVELS = [
  { id: 'human', name: 'Human' },
  { id: 'random', name: 'Random' },
  { id: 'easy', name: 'Easy (greedy)' },
  { id: 'hard', name: 'Hard (minimax)' },
  { id: 'alphabeta', name: 'Alpha-beta' },
];

/** The AI's pace: the pause before an AI move (and before nature deals) in milliseconds. */
export const SPEEDS = [
  { id: 'slow', name: 'Slow', ms: 1000 },
  { id: 'normal', name: 'Normal', ms: 350 },
  { id: 'fast', name: 'Fast', ms: 0 },
];

/** The most nodes of a search tree the page asks the engine to record. */
export const TREE_NODE_CAP = 4000;

function defaultSide(level) {
  return { level, depth: 4, time: 0, q: 0 };
}

/** The live settings (one object, changed in place by the page). */
export const settings = {
  game: 'tictactoe',
  sides: [defaultSide('human'), defaultSide('random')],
  paused: false,
  speed: 'normal',
};

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
    localStorage.setItem(STORE, JSON.stringify(out));
  } catch {
    // Storage full or disabled: the game still plays.
  }
}

/** Reads the saved settings into `settings`; returns the saved game record, or null. */
export function loadSettings() {
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

/** The search options for a side's settings in a game (its catalogue entry, or null). */
export function searchOptions(side, entry) {
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
