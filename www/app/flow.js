// The game flow: the engine's state of the game, whose turn it is, the AI's turns (searched in the
// engine's worker), nature's deals, the human's moves, undo and redo, pause and step, hints. No DOM
// here: the page's views listen to the events below and draw.
//
// Events (`on(name, fn)`):
//   applied(positionChanged)  a new state arrived (before it is drawn)
//   render(lastMove)          draw the state (lastMove: the move that led to it, to animate)
//   players()                 the side panels must be rebuilt (a new game, other players)
//   thinking()                a search started or stopped
//   progress(p | null)        a search's progress report (null: no search)
//   message(text, error)      a line for the player
//   passed(player)            the player to move had no move and passed
//   engine-error(text)        the engine crashed or could not start
//   tree(doc, live)           a search tree to show (live: an unfinished search's iteration)
//   ai-played(report)         the AI's search report, as its move is played
//   hint(report, options)     a hint's search report
//   new-game()                a game was opened
//   line-kept()               a new line replaced moves taken back; the old line can come back
import { EngineClient, Cancelled } from '../engine-client.js';
import { settings, aiPauseMs, saveSettings, searchOptions, useGameSettings, keepPrevious, aiDefaults } from './settings.js';

const listeners = new Map();

/** Listens to one of the flow's events. */
export function on(name, fn) {
  if (!listeners.has(name)) listeners.set(name, []);
  listeners.get(name).push(fn);
}

function emit(name, ...args) {
  for (const fn of listeners.get(name) || []) fn(...args);
}

/** The games the engine has (its catalogue), once loaded. */
export let catalogue = [];
/** The engine's state: {game, position, to_move, players, legal, history, redo, outcome}. */
export let state = null;
/** A token while a search (an AI move or a hint) runs, else null. */
export let thinking = null;
let generation = 0; // bumped by every change made by the user, so that stale AI answers are dropped
let animating = () => false;
let humanMoveHook = null;
let restartHook = null;

/** The engine, in its worker. */
export const client = new EngineClient({
  onCrash(message) {
    thinking = null;
    settings.paused = true;
    // A search the crash ended shows no progress any more.
    emit('progress', null);
    emit('thinking');
    emit('engine-error', `${message}. The engine was restarted and the game kept; the AI is paused.`);
    client.ready.then(refreshState).catch(() => {});
  },
});

/** Tells the flow whether the board is still animating (an AI move waits for it). */
export function setAnimating(fn) {
  animating = fn;
}

/** While set, `hook(result)` sees each human move first and returns true when it takes over. */
export function setHumanMoveHook(hook) {
  humanMoveHook = hook;
}

/** While set, `hook()` replaces what "new game" (the button, Enter) does. */
export function setRestartHook(hook) {
  restartHook = hook;
}

/** Marks a change made by the user: answers of searches started before it are dropped. */
export function bumpGeneration() {
  return ++generation;
}

/** The current generation (see `bumpGeneration`). */
export function currentGeneration() {
  return generation;
}

/** Saves the settings and the game. */
export function save() {
  saveSettings(client.record);
}

/** Loads the engine's catalogue. */
export async function loadCatalogue() {
  catalogue = await client.catalogue();
  return catalogue;
}

/** The catalogue entry of a game or variant id. */
export function gameEntry(id = settings.game) {
  const base = String(id);
  return (
    catalogue.find((g) => g.id === base || g.variants.some((v) => v.id === base)) ||
    catalogue.find((g) => base.startsWith(`${g.id}-`)) ||
    null
  );
}

/** The index of the side to move (0, 1), or -1 (nature, the game is over, no game). */
export function sideIndex() {
  if (!state) return -1;
  return state.players.indexOf(state.to_move);
}

/** Whether side `i` is played by an AI. */
export function isAi(i) {
  return i >= 0 && settings.sides[i] && settings.sides[i].level !== 'human';
}

/** Whether a human is to move in a game not over. */
export function humanToMove() {
  const i = sideIndex();
  return i >= 0 && !isAi(i) && !state.outcome;
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

function failed(e, prefix = '', suffix = '') {
  if (!(e instanceof Cancelled)) emit('message', `${prefix}${e.message}${suffix}`, true);
}

/** Takes a new state from the engine and has it drawn and saved. */
export function applyState(s, lastMove) {
  // A pass: the new state's view says what the last move was.
  if (lastMove && s?.view?.last?.kind === 'pass' && state?.players.includes(state.to_move)) {
    emit('passed', state.to_move);
  }
  const changed = !s || !state || s.position !== state.position;
  state = s;
  emit('applied', changed);
  emit('render', lastMove);
  save();
}

/** Asks the views to draw the state again (settings changed). */
export function redraw() {
  if (state) emit('render');
}

async function refreshState() {
  try {
    applyState(await client.state());
    advance();
  } catch (e) {
    failed(e);
  }
}

/** Stops a running search (the worker is restarted with the game). */
export function stopThinking() {
  if (!thinking) return;
  thinking = null;
  client.cancel();
  emit('progress', null);
  emit('thinking');
}

/** Pauses the AIs and stops their search, if one runs; returns whether one was stopped. */
export function cancelSearch() {
  if (!thinking) return false;
  settings.paused = true;
  stopThinking();
  redraw();
  return true;
}

/** Takes the next automatic step: nature's move, or the AI's, if it is their turn. */
export async function advance() {
  if (!state || state.outcome || thinking) return emit('thinking');
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
      failed(e);
    }
    return;
  }
  const i = sideIndex();
  if (!isAi(i) || settings.paused) return emit('thinking');
  aiMove(i);
}

async function aiMove(i) {
  const gen = generation;
  const token = {};
  thinking = token;
  emit('thinking');
  const started = performance.now();
  const side = settings.sides[i];
  let report;
  try {
    const opts = searchOptions(side, gameEntry(state.game));
    const limit = { limit_ms: opts.time_ms || 0, algorithm: opts.algorithm };
    emit('progress', { fraction: 0, nodes: 0, root_done: 0, root_total: 0, depth: 0, elapsed_ms: 0, ...limit });
    const live = opts.time_ms || opts.iterative_deepening;
    report = await client.search(
      opts,
      (p) => {
        if (thinking === token) emit('progress', { ...p, ...limit });
      },
      live
        ? (doc) => {
            if (thinking === token) emit('tree', doc, true);
          }
        : undefined,
    );
  } catch (e) {
    if (thinking === token) {
      thinking = null;
      emit('progress', null);
      emit('thinking');
      failed(e, 'The AI could not move: ');
    }
    return;
  }
  // Let a quick answer's animation finish, so that AI vs AI can be followed.
  const wait = aiPauseMs() - (performance.now() - started);
  if (wait > 0) await sleep(wait);
  while (animating() && aiPauseMs() > 0) await sleep(50);
  if (thinking !== token || gen !== generation) return;
  try {
    const r = await client.play(report.move);
    if (thinking !== token) return;
    thinking = null;
    emit('progress', null);
    emit('ai-played', report);
    // The line under the board spoke of the move before (a pass): it is stale now.
    emit('message', '');
    applyState(r.state, r.played);
    if (report.tree) emit('tree', report.tree, false);
  } catch (e) {
    if (thinking === token) thinking = null;
    failed(e, 'The AI’s move was refused: ');
    emit('thinking');
    return;
  }
  if (settings.paused) {
    emit('thinking');
    return;
  }
  advance();
}

/** Plays a human's move (its text); refused while the AI is to move or thinks. */
export async function humanPlay(text) {
  if (!state || state.outcome) return;
  if (thinking || !humanToMove()) {
    emit('message', 'Wait: it is the AI’s turn.', true);
    return;
  }
  generation++;
  // Playing something else than the next move of a line taken back starts a new line: the old one
  // (with its later moves) is kept, and "Back to the old line" (or Undo at the start) restores it.
  const replaced = state.redo.length && state.redo[0] !== text ? recordWorthKeeping() : null;
  try {
    // The next move of a line taken back is played again with its line.
    const r = state.redo.length && state.redo[0] === text ? { played: text, state: await client.redo() } : await client.play(text);
    if (replaced) {
      keepPrevious(replaced);
      emit('message', `A new line from move ${r.state.history.length}: the old line (${replaced.redo.length} later move${replaced.redo.length === 1 ? '' : 's'}) is kept.`);
      emit('line-kept');
    } else emit('message', '');
    applyState(r.state, r.played);
    if (humanMoveHook && humanMoveHook(r)) return;
    advance();
  } catch (e) {
    failed(e);
  }
}

let keepable = true; // false while the game shown is not the player's (a tutorial position)

/** Marks the game shown as not worth keeping when a new game replaces it (a tutorial position). */
export function dontKeepCurrentGame() {
  keepable = false;
}

/** The record of the game in progress when a move was played in it (else null). */
function recordWorthKeeping() {
  if (!keepable || !state || !client.record || !(state.history.length || state.redo.length)) return null;
  return JSON.parse(JSON.stringify(client.record));
}

/** Keeps the game in progress (if any move was played) so that Undo can bring it back. */
export function keepCurrentGame() {
  const rec = recordWorthKeeping();
  if (rec) keepPrevious(rec);
  return !!rec;
}

/** Makes the settings those of game `id`'s catalogue entry (variants share their game's). */
function useSettingsOf(id) {
  useGameSettings(gameEntry(id)?.id ?? String(id), gameEntry(id));
}

/**
 * Opens a new game of `id` (a game or variant id). The game it replaces is kept: Undo brings it
 * back. A new game starts with the AIs running.
 */
export async function newGame(id) {
  stopThinking();
  generation++;
  try {
    const replaced = recordWorthKeeping();
    const s = await client.open(id);
    if (replaced) keepPrevious(replaced);
    const kept = !!replaced;
    keepable = true;
    // A random deal cannot be dealt again from its id: the record starts from the position.
    if (gameEntry(id)?.chance && client.record) client.record.start = s.position;
    settings.game = id;
    settings.paused = false;
    useSettingsOf(id);
    emit('new-game');
    emit('message', kept ? 'New game. Undo brings the previous game back.' : '');
    applyState(s);
    emit('players');
    advance();
  } catch (e) {
    failed(e);
  }
}

/** Brings back the game the last new game replaced; resolves to whether there was one. */
export async function restorePrevious() {
  const rec = settings.previous[settings.previous.length - 1];
  if (!rec) return false;
  stopThinking();
  generation++;
  try {
    const s = await client.restore(rec.game, rec.start, rec.moves, rec.redo);
    settings.previous.pop();
    keepable = true;
    settings.game = rec.game;
    useSettingsOf(rec.game);
    // It comes back as it was left, with any AI to move paused until Resume or Step.
    if (isAiToMove(s)) settings.paused = true;
    emit('new-game');
    emit('message', `The previous game is back (${rec.moves.length} move${rec.moves.length === 1 ? '' : 's'}).`);
    applyState(s);
    emit('players');
    advance();
    return true;
  } catch (e) {
    // It no longer replays (an engine of another version): drop it.
    settings.previous.pop();
    failed(e, 'The previous game could not be brought back: ');
    return false;
  }
}

function isAiToMove(s) {
  return !s.outcome && isAi(s.players.indexOf(s.to_move));
}

/**
 * "Analyse from here" in the tree explorer: the board goes to the position a node stands for
 * (`detail`: {game, rootPosition, moves}), as a variation: the game in progress is kept, and "Back
 * to the game" (or Undo at the start) brings it back. The AIs pause there.
 */
export async function analyse(detail) {
  if (!detail || typeof detail.game !== 'string' || !gameEntry(detail.game)) {
    emit('message', 'This tree is of a game the page cannot play.', true);
    return false;
  }
  stopThinking();
  generation++;
  const replaced = recordWorthKeeping();
  const tail = (detail.moves || []).map(String);
  try {
    // When the tree's root is a position of this game's line (it usually is: the AI searched
    // there), the variation branches off the game at that ply; otherwise it starts at the root.
    let start = detail.rootPosition || null;
    let moves = tail;
    let from = null;
    if (state && detail.game === state.game && detail.rootPosition) {
      const line = [...state.history, ...state.redo];
      const recStart = client.record?.start ?? null;
      for (let k = line.length; k >= 0; k--) {
        if ((await client.preview(state.game, recStart, line.slice(0, k))).position === detail.rootPosition) {
          start = recStart;
          moves = [...line.slice(0, k), ...tail];
          from = k;
          break;
        }
      }
    }
    const s = await client.restore(detail.game, start, moves, []);
    if (replaced) keepPrevious(replaced);
    keepable = true;
    settings.game = s.game;
    useSettingsOf(s.game);
    settings.paused = true;
    emit('new-game');
    const n = `${tail.length} move${tail.length === 1 ? '' : 's'}`;
    emit('message', `${from == null ? `A line from the tree (${n} from its root)` : `A variation from move ${from} (${n} of the tree)`}; the AIs are paused.`);
    applyState(s);
    emit('players');
    if (replaced) emit('line-kept');
    return true;
  } catch (e) {
    failed(e, 'Cannot analyse that line: ', ' (the game is unchanged)');
    return false;
  }
}

/** Whether Undo can do something: take back a move, or bring back a replaced game. */
export function canUndo() {
  return !!state && (state.history.length > 0 || settings.previous.length > 0);
}

/** "New game" as the button and Enter mean it (a running mode such as a tutorial may take it). */
export function restart(id = settings.game) {
  if (restartHook) return restartHook();
  return newGame(id);
}

/**
 * Takes back a move (against an AI, back to the human's last turn). At the start of a game, brings
 * back the game it replaced. When an AI is then to move, the AIs pause (Resume or Step go on), so
 * that AI against AI does not play the move again at once.
 */
export async function undo() {
  if (state && state.history.length === 0) {
    await restorePrevious();
    return;
  }
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
    const pause = isAiToMove(s) && !settings.paused;
    if (pause) settings.paused = true;
    emit('message', pause ? 'Taken back; the AIs are paused (Resume or Step to go on).' : '');
    applyState(s);
    advance();
  } catch (e) {
    failed(e);
  }
}

/**
 * Shows the position after the first `ply` moves of the game (its moves and the moves taken
 * back form one line): moves are taken back or played again, nothing is lost. When an AI is then
 * to move, the AIs pause (Resume or Step go on).
 */
export async function goToPly(ply) {
  if (!state) return;
  const total = state.history.length + state.redo.length;
  const target = Math.max(0, Math.min(total, ply));
  if (target === state.history.length) return;
  stopThinking();
  generation++;
  try {
    let s = state;
    while (s.history.length > target) s = await client.undo();
    while (s.history.length < target) s = await client.redo();
    const pause = isAiToMove(s) && !settings.paused;
    if (pause) settings.paused = true;
    emit('message', pause ? `Move ${target}; the AIs are paused (Resume or Step to go on).` : '');
    applyState(s);
    advance();
  } catch (e) {
    failed(e);
  }
}

/** Plays a taken-back move again (against an AI, its recorded answer too). */
export async function redo() {
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
    failed(e);
  }
}

/** Sets the position from its text; resolves to whether the engine took it. */
export async function setPosition(text) {
  stopThinking();
  generation++;
  try {
    const s = await client.setPosition(text);
    emit('message', 'Position set.');
    applyState(s);
    advance();
    return true;
  } catch (e) {
    failed(e);
    return false;
  }
}

/** Replays `moves` from the start position (or the position last set); resolves to success. */
export async function replayRecord(moves) {
  stopThinking();
  generation++;
  try {
    const r = client.record;
    const s = await client.restore(state.game, r ? r.start : null, moves, []);
    emit('message', `Replayed ${moves.length} move${moves.length === 1 ? '' : 's'}.`);
    applyState(s);
    advance();
    return true;
  } catch (e) {
    failed(e, '', ' (the game is unchanged)');
    return false;
  }
}

/** Pauses or resumes the AI players. */
export function togglePause() {
  settings.paused = !settings.paused;
  save();
  if (settings.paused) stopThinking();
  redraw();
  advance();
}

/** While paused, lets the AI to move play one move. */
export function step() {
  if (!settings.paused || thinking || !state || state.outcome) return;
  const i = sideIndex();
  if (isAi(i)) aiMove(i);
}

/** A hint for the human to move: alpha-beta (the strongest level's settings) without playing. */
export async function suggest() {
  if (!state || state.outcome || thinking || !humanToMove()) return;
  const gen = generation;
  const token = {};
  thinking = token;
  emit('thinking');
  // Without an alpha-beta side in the game, the hint searches as the default level would; games
  // with chance search far more nodes a ply: their hint looks two moves ahead by default.
  const entry = gameEntry(state.game);
  const sides = settings.sides.slice(0, state.players.length);
  const strongest = sides.find((x) => x.level === 'alphabeta') || { ...aiDefaults(entry), ...(entry?.chance ? { depth: 2 } : {}) };
  const opts = { ...searchOptions({ ...strongest, level: 'alphabeta', q: 0 }, entry) };
  try {
    const limit = { limit_ms: opts.time_ms || 0, algorithm: opts.algorithm };
    emit('progress', { fraction: 0, nodes: 0, root_done: 0, root_total: 0, depth: 0, elapsed_ms: 0, ...limit });
    const r = await client.search(opts, (p) => {
      if (thinking === token) emit('progress', { ...p, ...limit });
    });
    if (thinking !== token || gen !== generation) return;
    thinking = null;
    emit('progress', null);
    emit('hint', r, opts);
  } catch (e) {
    if (thinking === token) thinking = null;
    emit('progress', null);
    failed(e);
  }
  emit('thinking');
}

/** Starts the game: the saved one (`record`) when it replays, else a new game of the settings'. */
export async function start(record) {
  let s = null;
  if (record && typeof record.game === 'string' && gameEntry(record.game)) {
    try {
      s = await client.restore(record.game, record.start || null, record.moves || [], record.redo || []);
      settings.game = record.game;
    } catch (e) {
      emit('message', `The saved game could not be restored (${e.message}); a new game starts.`, true);
    }
  }
  if (!s) s = await client.open(settings.game);
  useSettingsOf(settings.game);
  applyState(s);
  emit('players');
  advance();
}
