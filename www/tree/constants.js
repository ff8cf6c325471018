// Sizes, colours and thresholds of the explorer's view (world units are CSS pixels at zoom 1).

export const NODE_W = 124;
export const NODE_H = 38;
export const ROW_H = 46; // siblings, centre to centre
export const COUSIN_GAP = 58; // nodes of different parents in one column
export const LEVEL_GAP = 176;
export const ANIM_MS = 260;
export const WORKER_THRESHOLD = 1 << 20; // parse texts above 1 MB in the worker
// Shown sets up to this size are laid out on the page, at once: the layout takes under 0.5 ms there
// (2,000 items), less than a worker's round trip (a message each way, 1–5 ms), and a click then
// opens its node in the same frame. Larger sets go to the layout worker (layout-worker.js).
export const SYNC_LAYOUT_MAX = 2000;
export const POST_PART = 1 << 23; // characters per message when a long text is sent to the parse worker
export const MIN_K = 0.03;
export const MAX_K = 4;
// The least zoom the Fit command (button, F, a double click) goes to: labels are drawn from 0.54
// up, but at 0.6 they read at 6-7 px.
export const FIT_MIN_K = 0.6;
// The least zoom at which node labels read comfortably (12.5 px text at about 11 px): the least
// of the fits the explorer makes by itself (a new tree, Best line, Collapse, a resize).
export const READABLE_K = 0.88;

/** Fill, stroke and text colours by node kind. */
export const COLORS = {
  max: { fill: '#d6e4ff', stroke: '#2f5fb3', text: '#10213f' },
  min: { fill: '#ffdccf', stroke: '#c0502a', text: '#3f170a' },
  chance: { fill: '#e9dcff', stroke: '#7443c9', text: '#24124a' },
  leaf: { fill: '#dcf0d8', stroke: '#3c8636', text: '#132d10' },
  terminal: { fill: '#fff0b8', stroke: '#a77f00', text: '#382a00' },
  pruned: { fill: '#ececec', stroke: '#8a8a8a', text: '#333333' },
  truncated: { fill: '#f6e3e3', stroke: '#a24d4d', text: '#3d1515' },
  node: { fill: '#d5f1ef', stroke: '#2b8a83', text: '#0d2e2b' },
  more: { fill: '#ffffff', stroke: '#9aa3ad', text: '#3a4450' },
};
export const PV_COLOR = '#e89b00';
// Zoomed far out, boxes of one column closer than this on screen merge into bands (drawCoarse).
export const BAND_GAP_PX = 2;
export const BAND_FILL = '#d9dee5';
export const BAND_STROKE = '#6f7b88';
export const BAND_TEXT = '#1d2733';
export const BAND_FONT = '600 11px system-ui, sans-serif';
// Chance outcomes' probabilities on their edges, from this zoom up (smaller would not be legible).
export const EDGE_LABEL_MIN_K = 0.6;
export const EDGE_LABEL_FONT = '600 10px system-ui, sans-serif';
export const EDGE_LABEL_BG = 'rgba(248, 250, 252, 0.92)';
export const CHANGED_COLOR = '#c2185b'; // compare: the value changed (badge) or the best move changed (outline)
export const PICK_COLOR = '#0b7a75'; // "why A and not B": the two picked nodes
export const MATCH_COLOR = '#1565c0'; // find: every match in view
export const FOCUS_COLOR = '#111111';
export const CUT_COLOR = '#d0021b';
export const LEGEND_ORDER = ['max', 'min', 'chance', 'leaf', 'terminal', 'pruned', 'truncated', 'node'];
export const LEGEND_NAMES = { max: 'max', min: 'min', chance: 'chance', leaf: 'leaf', terminal: 'game over', pruned: 'pruned', truncated: 'not recorded', node: 'node' };
