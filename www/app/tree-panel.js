// The "Why this move?" panel: the tree explorer (www/tree/explorer.js, when present) showing the
// search tree of the last AI move or hint, live while a search deepens, with a caption.
import { boardPreview } from '../preview.js';
import { playerName } from './players.js';
import { formatCount } from './status.js';
import { state, client, analyse, gameEntry, on as onFlow } from './flow.js';
import { findSearch, treeNodeBudget, setTreeNodeBudget, treeMemoryText, TREE_NODE_CHOICES, TREE_NODES_MAX } from './tree-store.js';

const root = document.getElementById('tree-root');
const caption = document.getElementById('tree-caption');
const missing = document.getElementById('tree-missing');

// The panel's tools, under the caption: the node budget of each AI move's tree (with the memory it
// implies) and, in tic-tac-toe, "Whole tree".
const tools = document.createElement('div');
tools.className = 'tree-tools';
tools.dataset.testid = 'tree-tools';
const budgetLabel = document.createElement('label');
budgetLabel.textContent = 'Tree budget ';
budgetLabel.title = 'How many nodes of each AI move’s search tree are kept: every root move and its principal variation first, then whole levels from the top';
const budgetSelect = document.createElement('select');
budgetSelect.dataset.testid = 'tree-budget';
budgetLabel.append(budgetSelect);
const wholeButton = document.createElement('button');
wholeButton.type = 'button';
wholeButton.dataset.testid = 'whole-tree';
wholeButton.textContent = 'Whole tree';
wholeButton.title = 'Record the complete minimax tree from this position (549,946 nodes from the start) and open it below';
wholeButton.hidden = true;
tools.append(budgetLabel, wholeButton);
caption.after(tools);

function fillBudget() {
  const now = treeNodeBudget();
  const choices = TREE_NODE_CHOICES.includes(now) ? TREE_NODE_CHOICES : [...TREE_NODE_CHOICES, now].sort((a, b) => a - b);
  budgetSelect.replaceChildren(
    ...choices.map((n) => {
      const o = document.createElement('option');
      o.value = String(n);
      o.textContent = `${n.toLocaleString('en')} nodes (up to ${treeMemoryText(n)})`;
      o.selected = n === now;
      return o;
    }),
  );
}
fillBudget();
budgetSelect.addEventListener('change', () => {
  setTreeNodeBudget(Number(budgetSelect.value));
  fillBudget();
});

/** Whether the game is one whose whole tree the page offers (the engine's catalogue says so:
 * tic-tac-toe). */
const wholeTreeGame = (game) => typeof game === 'string' && !!gameEntry(game)?.whole_tree;

function updateWholeButton() {
  wholeButton.hidden = !wholeTreeGame(state?.game);
  wholeButton.disabled = !state || !!state.outcome || recordingWhole;
}
let recordingWhole = false;
onFlow('applied', updateWholeButton);
onFlow('new-game', updateWholeButton);

/**
 * "Whole tree": records the complete minimax tree from the current position (no pruning, every
 * line to the end of the game) and shows it. Tic-tac-toe's whole tree is at most 549,946 nodes,
 * within the budget setting's largest value, which it is recorded with. Resolves to the number
 * of nodes, or null.
 */
export async function recordWholeTree() {
  if (!state || !wholeTreeGame(state.game) || state.outcome) return null;
  recordingWhole = true;
  updateWholeButton();
  caption.textContent = 'Recording the whole game tree from this position…';
  try {
    const report = await client.search({ algorithm: 'minimax', depth: 9, record_tree: true, node_cap: TREE_NODES_MAX, random_ties: false });
    if (!report.tree) return null;
    const nodes = report.tree.nodes ?? null;
    showTree(report.tree);
    caption.textContent = `The whole game tree from this position: ${(nodes ?? 0).toLocaleString('en')} nodes, every line played to the end (minimax, no pruning). Best for ${playerName(report.viewer || report.tree.perspective)}: ${report.move} (${report.value_text?.text ?? report.value}).`;
    return nodes;
  } catch (e) {
    caption.textContent = `The whole tree could not be recorded: ${e.message}`;
    return null;
  } finally {
    recordingWhole = false;
    updateWholeButton();
  }
}
wholeButton.addEventListener('click', () => recordWholeTree());

/** The explorer, once mounted. */
export let explorer = null;
/** The last search tree document shown (an AI move's or a hint's). */
export let lastTree = null;
let liveShown = false; // the explorer shows an unfinished search's tree

/** The element the explorer lives in (its keys are its own). */
export const treeRoot = root;

/** Loads the explorer into the panel. */
export async function mountTree() {
  try {
    const mod = await import('../tree/explorer.js');
    // Board previews follow the shown document: a tree pasted here previews its own positions.
    explorer = mod.mountExplorer(root, {
      editorOpen: false,
      // The engine's cap is a target its recorder may pass by a little (and `truncated` children
      // count as nodes here): room for the largest budget.
      maxNodes: 2 * TREE_NODES_MAX,
      decorateTooltip: boardPreview({ onError: (m) => console.warn('board preview:', m) }),
      // "Analyse from here": the board goes to the node's position, as a variation.
      onAnalyse: async (detail) => {
        if (await analyse(detail)) document.getElementById('board-wrap').scrollIntoView({ block: 'nearest' });
      },
    });
    if (lastTree) explorer.showDocument(lastTree);
  } catch (e) {
    console.warn('tree explorer not available:', e);
    missing.hidden = false;
  }
}

/** Forgets the last tree (a new game). */
export function forgetTree() {
  lastTree = null;
}

/** Shows a search tree document (live: an iteration of a search still running). */
export function showTree(doc, live = false) {
  lastTree = doc;
  const st = doc.stats || {};
  const who = doc.perspective ? playerName(doc.perspective) : 'the AI';
  const value = doc.chosen?.value_text ? ` (${doc.chosen.value_text})` : '';
  const what = doc.chosen?.move ? `${live ? 'Best so far' : 'Chose'} ${doc.chosen.move}${value}` : 'Searching';
  const depth = st.depth_reached ? `, depth ${st.depth_reached}` : '';
  const trunc = st.truncated ? ' (tree cut at its node cap)' : '';
  // A reason in words (MCTS: "most visits: 812 of 2000") is worth a line of its own.
  const why = doc.chosen?.reason && doc.chosen.reason.includes(' ') ? ` Chosen for ${doc.chosen.reason}.` : '';
  const searched = doc.algorithm === 'mcts' ? `${formatCount(st.leaves || 0)} playouts, ${formatCount(st.nodes || 0)} tree nodes` : `${formatCount(st.nodes || 0)} nodes searched`;
  // The engine's exact solver decided: every value is a final result, not an evaluation.
  if (st.solver_nodes != null) caption.textContent = `${what} for ${who}: solved exactly to the end of the game by the engine's solver (${formatCount(st.solver_nodes)} positions).`;
  else caption.textContent = `${what} for ${who}: ${doc.algorithm}${depth}, ${searched}${trunc}.${why}`;
  if (explorer) {
    try {
      explorer.showDocument(doc, { keepView: live || liveShown });
      liveShown = live;
    } catch (e) {
      console.error('the tree explorer failed', e);
    }
  }
}

/**
 * Shows the tree of the search that chose move `n` (1-based) of the game's line, when it was kept;
 * resolves to whether it was.
 */
export async function showPlyTree(n) {
  if (!state || n < 1) return false;
  const line = [...state.history, ...state.redo];
  const found = await findSearch(state.game, client.record?.start ?? null, line.slice(0, n - 1));
  if (!found?.doc) return false;
  showTree(found.doc);
  caption.textContent = `Move ${n}, ${caption.textContent}`;
  return true;
}
