// The "Why this move?" panel: the tree explorer (www/tree/explorer.js, when present) showing the
// search tree of the last AI move or hint, live while a search deepens, with a caption.
import { boardPreview } from '../preview.js';
import { playerName } from './players.js';
import { formatCount } from './status.js';
import { state, client, analyse } from './flow.js';
import { findSearch } from './tree-store.js';

const root = document.getElementById('tree-root');
const caption = document.getElementById('tree-caption');
const missing = document.getElementById('tree-missing');

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
  caption.textContent = `${what} for ${who}: ${doc.algorithm}${depth}, ${formatCount(st.nodes || 0)} nodes searched${trunc}.`;
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
