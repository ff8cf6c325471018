// The Ataxx tutorial: small positions, each asking for the move that shows one rule. Both sides are
// human while it runs; a wrong move is taken back with a word on why.
import { Cancelled } from '../../engine-client.js';
import { settings, setSaveFilter, useGameSettings } from '../../app/settings.js';
import {
  client,
  state,
  gameEntry,
  keepCurrentGame,
  dontKeepCurrentGame,
  applyState,
  stopThinking,
  bumpGeneration,
  currentGeneration,
  newGame,
  save,
  setHumanMoveHook,
  setRestartHook,
} from '../../app/flow.js';
import { board } from '../../app/board.js';
import { renderPlayers } from '../../app/players.js';
import { say, toast } from '../../app/status.js';
import { clearWallError } from './walls.js';

// A side's stones, as the engine's board view counts them.
const count = (v, p) => v.scores.find((s) => s.player === p)?.value ?? 0;
const TUTORIAL = [
  {
    title: 'Clone',
    fen: '7/7/7/3x3/7/7/6o x 0 1',
    text: 'You play black. A move goes to an empty cell. Click your piece on d4, then one of the cells right next to it (diagonals count): that is a clone, and the piece you started from stays.',
    goal: (played, s, v) => v.last?.kind === 'clone',
    wrong: 'That was not a step to a neighbouring cell. Pick a filled dot, right next to d4.',
    well: 'Well done: a clone adds a piece, so you now have two.',
  },
  {
    title: 'Jump',
    fen: '7/7/7/3x3/7/7/6o x 0 1',
    text: 'A move can also go two cells away: a jump. The piece leaves its cell, so you do not gain one, but you reach further. Select d4 and pick a dashed ring.',
    goal: (played, s, v) => v.last?.kind === 'jump',
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
    goal: (played, s, v) => v.last?.kind === 'pass',
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

const $ = (id) => document.getElementById(id);
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

let tutorial = null; // {step, done, sides, game} while the tutorial runs

/** Whether the tutorial runs. */
export function tutorialRunning() {
  return !!tutorial;
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

async function startTutorial() {
  clearWallError();
  if (!tutorial) {
    // The game in progress can be brought back with Undo once the tutorial is over.
    keepCurrentGame();
    tutorial = { step: 0, done: false, game: settings.game };
    // Both sides are human while it runs (the game's own settings are left as they are).
    settings.sides = settings.sides.map((x) => ({ ...x, level: 'human' }));
    // While it runs, the game saved is the one from before it.
    const t = tutorial;
    setSaveFilter((s) => ({ settings: { ...s, game: t.game }, record: null }));
    setHumanMoveHook((r) => {
      if (!tutorial || tutorial.done) return false;
      tutorialCheck(r);
      return true;
    });
    setRestartHook(loadTutorialStep);
  }
  tutorial.step = 0;
  await loadTutorialStep();
  tutEl.box.scrollIntoView({ block: 'start' });
}

async function loadTutorialStep() {
  const step = TUTORIAL[tutorial.step];
  stopThinking();
  bumpGeneration();
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
    dontKeepCurrentGame();
    say('');
    applyState(s);
    renderPlayers();
  } catch (e) {
    if (!(e instanceof Cancelled)) say(e.message, true);
  }
}

async function tutorialCheck(r) {
  const step = TUTORIAL[tutorial.step];
  const v = r.state.view || null;
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
  const gen = bumpGeneration();
  await sleep(700);
  while (board?.animating) await sleep(50);
  if (gen !== currentGeneration() || !tutorial) return;
  try {
    applyState(await client.undo());
  } catch (e) {
    if (!(e instanceof Cancelled)) say(e.message, true);
  }
}

/** Ends the tutorial: the sides' levels come back, and (with `restart`) the game from before. */
export function endTutorial(restart = true) {
  if (!tutorial) return;
  const t = tutorial;
  tutorial = null;
  setSaveFilter(null);
  setHumanMoveHook(null);
  setRestartHook(null);
  tutEl.box.hidden = true;
  settings.game = t.game;
  useGameSettings(gameEntry(t.game)?.id ?? t.game);
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
