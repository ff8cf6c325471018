// Plyscope's game page: wires the modules in www/app/ (settings, the game flow, the board, status,
// players, moves, input, hints, the tree panel) and the per-game panels in www/games/, and starts.
// Every text that comes from the engine or the user goes through textContent, never innerHTML.
import { settings, SPEEDS, MAX_WORKERS, loadSettings, firstVisit } from './app/settings.js';
import * as flow from './app/flow.js';
import { state, client, gameEntry } from './app/flow.js';
import { board, view, renderBoard, resetBoard, clearSelection, updateBoardDecor, cellCenterOf, setCandidates, candidateMarks, restoreCandidates, showMarks } from './app/board.js';
import { renderStatus, updateControls, setProgress, showSummary, say, showEngineError, noteBestSoFar } from './app/status.js';
import { renderPlayers, playerName, toggleAiPlays } from './app/players.js';
import { renderMoves } from './app/moves.js';
import { showHint, hideHint, revealHint } from './app/hints.js';
import { explorer, lastTree, mountTree, showTree, forgetTree } from './app/tree-panel.js';
import './app/input.js';
import { keepSearch, searchesAlong } from './app/tree-store.js';
import { setGraph } from './app/graph.js';
import { renderPanels, variantLabel, newGamePanels, endPanelModes } from './games/panels.js';

const $ = (id) => document.getElementById(id);
const el = {
  game: $('game'),
  newGame: $('new-game'),
  helpToggle: $('help-toggle'),
  help: $('help'),
  pause: $('pause'),
  undo: $('undo'),
  redo: $('redo'),
  step: $('step'),
  suggest: $('suggest'),
  aiPlays: $('ai-plays'),
  speed: $('ai-speed'),
  cancel: $('cancel'),
};

/** Keeps the game picker on the game played (adding a variant it does not list). */
function syncPicker(entry) {
  if (el.game.value === state.game) return;
  // A variant the picker does not list (one a game's panel made): add it to the game's group.
  if (![...el.game.options].some((o) => o.value === state.game) && entry) {
    const group = [...el.game.querySelectorAll('optgroup')].find((g) => [...g.children].some((o) => o.value === entry.id));
    const o = new Option(variantLabel(state.game, entry) || state.game, state.game);
    o.dataset.custom = '1';
    (group || el.game).append(o);
  }
  el.game.value = state.game;
}

/** Draws the whole state. */
function render(lastMove) {
  const entry = gameEntry(state.game);
  document.title = `Plyscope: ${entry ? entry.name : state.game}`;
  syncPicker(entry);
  renderBoard(lastMove);
  renderPanels();
  renderStatus(entry);
  renderMoves();
  updateControls();
  refreshGraph();
}

flow.setAnimating(() => !!board?.animating);
let afterAiMove = null; // the AI's candidate marks, made before its move, shown after it
flow.on('applied', (changed) => {
  if (changed) {
    hideHint();
    if (afterAiMove) restoreCandidates(afterAiMove.marks, afterAiMove.note);
  }
  afterAiMove = null;
  clearSelection();
});
flow.on('render', render);
flow.on('players', renderPlayers);
flow.on('thinking', () => {
  updateControls();
  updateBoardDecor();
});
flow.on('progress', setProgress);
flow.on('message', say);
flow.on('passed', (player) => say(`${playerName(player)} has no move and passes.`));
flow.on('engine-error', showEngineError);
flow.on('tree', (doc, live) => {
  if (live) {
    noteBestSoFar(doc);
    // While the AI thinks, its best move so far is marked on the board.
    if (doc.chosen?.move) setCandidates([{ move: doc.chosen.move, text: doc.chosen.value_text || 'best', best: true }], `Marked: the best move so far for ${playerName(doc.perspective)}, value for ${playerName(doc.perspective)}.`);
  }
  showTree(doc, live);
});
flow.on('ai-played', (report) => {
  showSummary(report);
  // The AI's three best moves stay marked on the board after its move (the played one in gold),
  // with their values for the AI's side; the cells come from the view it searched.
  if (report.reason !== 'random' && report.root_moves?.length) {
    const who = playerName(report.viewer);
    const top = [...report.root_moves].sort((a, b) => b.value - a.value).slice(0, 3);
    if (!top.some((m) => m.move === report.move)) top[top.length - 1] = report.root_moves.find((m) => m.move === report.move) || top[top.length - 1];
    setCandidates(top.map((m) => ({ ...m, best: m.move === report.move })), `Marked: ${who}'s AI's best moves with their values for ${who} (gold: played).`);
    afterAiMove = { marks: candidateMarks(), note: document.getElementById('marks-note')?.textContent || '' };
  } else setCandidates([]);
  // Kept per ply (and across reloads): the move list and the graph find it again.
  keepSearch(flow.state.game, client.record?.start ?? null, flow.state.history, report).then(refreshGraph);
});

let graphRun = 0;
/** Redraws the evaluation graph from the searches kept along the game's line. */
async function refreshGraph() {
  if (!flow.state) return;
  const run = ++graphRun;
  const line = [...flow.state.history, ...flow.state.redo];
  const found = await searchesAlong(flow.state.game, client.record?.start ?? null, line);
  if (run === graphRun) setGraph(found, line.length);
}
flow.on('hint', (r, opts) => {
  showHint(r, opts);
  if (r.tree) showTree(r.tree);
  revealHint();
});
const backLine = $('back-line');
flow.on('line-kept', () => (backLine.hidden = false));
backLine.addEventListener('click', () => flow.restorePrevious());
flow.on('new-game', () => {
  backLine.hidden = true;
  newGamePanels();
  setCandidates([]);
  resetBoard();
  forgetTree();
  showSummary(null);
});

el.newGame.addEventListener('click', () => flow.restart(el.game.value));
el.game.addEventListener('change', () => {
  endPanelModes();
  flow.newGame(el.game.value);
});
el.undo.addEventListener('click', flow.undo);
el.redo.addEventListener('click', flow.redo);
el.pause.addEventListener('click', flow.togglePause);
el.step.addEventListener('click', flow.step);
el.suggest.addEventListener('click', flow.suggest);
el.aiPlays.addEventListener('click', toggleAiPlays);
for (const sp of SPEEDS) el.speed.append(new Option(`${sp.name}`, sp.id));
el.speed.addEventListener('change', () => {
  settings.speed = el.speed.value;
  flow.save();
});
const threadsSelect = $('ai-threads');
for (let n = 1; n <= MAX_WORKERS; n++) threadsSelect.append(new Option(String(n), String(n)));
threadsSelect.addEventListener('change', () => {
  settings.threads = Number(threadsSelect.value);
  flow.save();
});
const marksToggle = $('show-marks');
marksToggle.addEventListener('change', () => {
  settings.marks = marksToggle.checked;
  showMarks(settings.marks);
  flow.save();
});
el.cancel.addEventListener('click', () => {
  if (flow.cancelSearch()) say('Search cancelled; the AI is paused (Resume or Step to go on).');
});
el.helpToggle.addEventListener('click', () => {
  el.help.hidden = !el.help.hidden;
  el.helpToggle.setAttribute('aria-expanded', String(!el.help.hidden));
});

function fillGamePicker() {
  el.game.replaceChildren();
  for (const g of flow.catalogue) {
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
  const record = loadSettings();
  el.speed.value = settings.speed;
  threadsSelect.value = String(settings.threads);
  marksToggle.checked = settings.marks;
  showMarks(settings.marks);
  renderPlayers();
  mountTree();
  try {
    await flow.loadCatalogue();
  } catch (e) {
    showEngineError(`The engine could not start: ${e.message}`);
    return;
  }
  fillGamePicker();
  client.build().then(
    (b) =>
      (document.getElementById('engine-build').textContent = {
        threads: 'Engine: WebAssembly with SIMD and shared-memory threads (parallel search: Lazy SMP over the Workers).',
        simd: 'Engine: WebAssembly with SIMD (128-bit vectors).',
      }[b] ?? 'Engine: WebAssembly (this browser runs the build without SIMD).'),
    () => {},
  );
  // A first visit opens the game the engine features (the seed's game); a saved game the engine no
  // longer has opens the catalogue's first.
  if (!record && firstVisit()) settings.game = (flow.catalogue.find((g) => g.featured) || flow.catalogue[0])?.id;
  if (!gameEntry(settings.game)) settings.game = flow.catalogue[0]?.id;
  await flow.start(record);
}

// Hooks for tests and the curious.
window.plyscope = {
  client,
  settings,
  get state() {
    return flow.state;
  },
  get board() {
    return board;
  },
  get view() {
    return view;
  },
  get thinking() {
    return !!flow.thinking;
  },
  get explorer() {
    return explorer;
  },
  /** The last search tree document shown (an AI move's or a hint's). */
  get tree() {
    return lastTree;
  },
  /** The client (CSS pixel) centre of the cell a move text points at, or null. */
  cellCenterOf,
};

start();

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('./sw.js').catch((e) => console.warn('no offline support:', e));
}
