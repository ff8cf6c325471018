// The search-tree explorer: a SpaceTree-style view of one search drawn on a canvas, with tooltips,
// keyboard navigation, a breadcrumb, search by move, and a document panel (paste, open, drop, download).
//
//   import { mountExplorer } from './tree/explorer.js';
//   const explorer = mountExplorer(element, options);
//   explorer.showDocument(doc);          // a parsed tree document (after every AI turn), or its JSON text
//   explorer.showDocument(doc, { keepView: true });  // a live view: keep what is open, focus, camera
//   await explorer.loadText(text);       // any supported format, as text (large texts parse in a worker)
//   explorer.current();                  // the shown tree as a plyscope-tree document
//   await explorer.whenLaidOut();        // layouts of more than 2,000 shown nodes come from a worker
//
// Options (all optional):
//   example: URL of a document to open first        siblings: children shown before "+K more" (12)
//   order: 'value' (best first) | 'search'           initialDepth: levels of the best line opened (2)
//   editorOpen: false to fold the JSON panel         onLoad(model): after a document is shown
//   onFocus({ node, moves, id }): the focused node and the moves from the root to it
//   decorateTooltip(element, { node, moves, model }): append more to a node's tooltip (board preview)
//
// Everything taken from a document is drawn with fillText or set with textContent: never as HTML.

import { importText, importValue, toDocument, fromWireInSlices, BudgetError } from './import.js';
import { scoreText, boundedScore, windowText, plainNumber, percent, percentShort, compactNumber, isMate, KIND_NAMES } from './format.js';
import { movePath, whyCompare, matcher, findAll, diffTrees, subtreeDocument, staticScore } from './analysis.js';
import { tidyLayout } from './layout.js';

const NODE_W = 124;
const NODE_H = 38;
const ROW_H = 46; // siblings, centre to centre
const COUSIN_GAP = 58; // nodes of different parents in one column
const LEVEL_GAP = 176;
const ANIM_MS = 260;
const WORKER_THRESHOLD = 1 << 20; // parse texts above 1 MB in the worker
// Shown sets up to this size are laid out on the page, at once: the layout takes under 0.5 ms there
// (2,000 items), less than a worker's round trip (a message each way, 1–5 ms), and a click then
// opens its node in the same frame. Larger sets go to the layout worker (layout-worker.js).
const SYNC_LAYOUT_MAX = 2000;
const POST_PART = 1 << 23; // characters per message when a long text is sent to the parse worker
// The page's budget: larger documents are refused with their size (the tree on screen stays). A
// million nodes are known to open (tests/e2e/tree-scale.test.mjs); twice that is allowed.
export const DOCUMENT_BUDGET_CHARS = 400e6;
export const TREE_BUDGET_NODES = 2_000_000;
const MIN_K = 0.03;
const MAX_K = 4;

/** The folder of the bundled example documents (www/examples/), wherever the page is. */
export const EXAMPLES_URL = new URL('../examples/', import.meta.url).href;

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
const PV_COLOR = '#e89b00';
// Zoomed far out, boxes of one column closer than this on screen merge into bands (drawCoarse).
const BAND_GAP_PX = 2;
const BAND_FILL = '#d9dee5';
const BAND_STROKE = '#6f7b88';
const BAND_TEXT = '#1d2733';
const BAND_FONT = '600 11px system-ui, sans-serif';
// Chance outcomes' probabilities on their edges, from this zoom up (smaller would not be legible).
const EDGE_LABEL_MIN_K = 0.6;
const EDGE_LABEL_FONT = '600 10px system-ui, sans-serif';
const EDGE_LABEL_BG = 'rgba(248, 250, 252, 0.92)';
const CHANGED_COLOR = '#c2185b'; // compare: the value changed (badge) or the best move changed (outline)
const PICK_COLOR = '#0b7a75'; // "why A and not B": the two picked nodes
const MATCH_COLOR = '#1565c0'; // find: every match in view
const FOCUS_COLOR = '#111111';
const CUT_COLOR = '#d0021b';
const LEGEND_ORDER = ['max', 'min', 'chance', 'leaf', 'terminal', 'pruned', 'truncated', 'node'];
const LEGEND_NAMES = { max: 'max', min: 'min', chance: 'chance', leaf: 'leaf', terminal: 'game over', pruned: 'pruned', truncated: 'not recorded', node: 'node' };

let cssAdded = false;
function addCss() {
  if (cssAdded || typeof document === 'undefined') return;
  cssAdded = true;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('./explorer.css', import.meta.url).href;
  document.head.appendChild(link);
}

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

/**
 * Lets the page draw a frame and answer input, then resolves. (A message-channel or scheduler.yield
 * turn is not enough: Chromium runs those before drawing, and drew only every ~120 ms that way.)
 * Pages in the background get no frames: there a timer resolves it.
 */
function yieldToFrame() {
  return new Promise((resolve) => {
    let done = false;
    const go = () => {
      if (done) return;
      done = true;
      resolve();
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(go, 0));
    setTimeout(go, 100);
  });
}

/** Builds the explorer inside `container` and returns its API. */
export function mountExplorer(container, options = {}) {
  const x = new Explorer(container, options);
  return {
    showDocument: (doc, opts) => x.showDocument(doc, opts),
    loadText: (text, name, opts) => x.loadText(text, name, opts),
    loadUrl: (url) => x.loadUrl(url),
    /** Sets the largest document (characters) and tree (nodes) accepted; returns the budget. */
    setBudget: (budget) => Object.assign(x.budget, budget),
    current: () => x.currentDocument(),
    model: () => x.model,
    focus: (id) => x.focusById(id),
    expandAll: (maxNodes) => x.expandAll(maxNodes),
    collapseAll: () => x.collapseAll(),
    showBestLine: () => x.resetExpansion(true),
    fit: () => x.fit(true),
    find: (query, dir = 1) => x.findNext(query, dir),
    /** "Why A and not B": compares two nodes (by id) in the panel; returns the comparison or null. */
    why: (idA, idB) => x.whyByIds(idA, idB),
    /** Loads a second search (text or document) to compare the shown one with; resolves to the summary. */
    compareWith: (textOrDoc, name) => x.compareWith(textOrDoc, name),
    clearCompare: () => x.clearCompare(),
    comparison: () => x.comparisonSummary(),
    /** The focused subtree (or the node with this id) as a plyscope-tree document. */
    subtree: (id) => x.subtreeDoc(id),
    /** Parse, layout and drawing times of the last load and frames, in ms (for the bench). */
    timings: () => ({ ...x.timings }),
    /** Starts (true) or stops (false) recording each frame's drawing time; returns the list (ms). */
    recordFrames: (on) => {
      if (on) x.frameLog = [];
      const log = x.frameLog || [];
      if (!on) x.frameLog = null;
      return log;
    },
    stats: () => x.viewStats(),
    /** Resolves once the last requested layout is in place (large ones are computed in a worker). */
    whenLaidOut: () => x.whenLaidOut(),
    /** Where a shown node is on the page (CSS pixels, its centre), or null: for tests and tours. */
    nodeBox: (id) => x.nodeBox(id),
    destroy: () => x.destroy(),
    element: x.root,
  };
}

class Explorer {
  constructor(container, options) {
    addCss();
    this.options = options;
    this.siblings = options.siblings ?? 12;
    this.order = options.order ?? 'value';
    this.initialDepth = options.initialDepth ?? 2;
    // The largest document and tree accepted (see DOCUMENT_BUDGET_CHARS); setBudget changes it.
    this.budget = { maxChars: options.maxChars ?? DOCUMENT_BUDGET_CHARS, maxNodes: options.maxNodes ?? TREE_BUDGET_NODES };
    this.model = null;
    this.expanded = new Set();
    this.limits = new Map();
    this.ordered = new WeakMap();
    this.items = [];
    this.itemOf = new Map();
    this.columns = [];
    this.leaving = [];
    this.layoutSeq = 0;
    this.pendingLayout = null; // a layout asked of the worker: { seq, items, itemOf, animate, after }
    this.layoutWaiters = [];
    this.itemsModel = null; // the model the shown items belong to
    this.cam = { x: 0, y: 0, k: 1 };
    this.camFrom = null;
    this.camTo = null;
    this.anim = null;
    this.focus = null;
    this.hover = null;
    this.labelCache = new Map();
    this.frame = 0;
    this.loadSeq = 0;
    this.picks = []; // "why A and not B": up to two nodes
    this.other = null; // the search compared with: { model, name }
    this.diff = null; // diffTrees(shown root, other root)
    this.findState = null; // { key, hits, index: Map(node -> position), at }
    this.timings = { parseMs: null, layoutMs: null, drawMs: null, loadMs: null };
    this.build(container);
    if (options.example) this.loadUrl(options.example);
  }

  // -------------------------------------------------------------------------------------------
  // DOM

  build(container) {
    const id = `ps-tree-${Math.random().toString(36).slice(2, 8)}`;
    this.detected = el('span', { class: 'ps-detected', 'data-testid': 'tree-format', text: 'No tree loaded' });
    this.fileInput = el('input', { type: 'file', accept: '.json,application/json,text/plain', class: 'ps-hidden', 'aria-hidden': 'true', tabindex: '-1' });
    this.fileInput.addEventListener('change', () => {
      const f = this.fileInput.files && this.fileInput.files[0];
      if (f) this.loadFile(f);
      this.fileInput.value = '';
    });
    this.siblingsInput = el('input', { type: 'number', min: '1', max: '1000', value: String(this.siblings), class: 'ps-num', 'aria-label': 'Siblings shown before “more”' });
    this.siblingsInput.addEventListener('change', () => {
      const v = Math.max(1, Math.min(1000, Number(this.siblingsInput.value) || 12));
      this.siblings = v;
      this.limits.clear();
      this.relayout(true);
    });
    this.orderSelect = el('select', { class: 'ps-select', 'aria-label': 'Order of siblings' }, el('option', { value: 'value', text: 'best first' }), el('option', { value: 'prescore', text: 'by pre-score' }), el('option', { value: 'search', text: 'search order' }));
    this.orderSelect.value = this.order;
    this.orderSelect.addEventListener('change', () => {
      this.order = this.orderSelect.value;
      this.ordered = new WeakMap();
      this.relayout(true);
    });
    this.findInput = el('input', { type: 'search', class: 'ps-find', placeholder: 'move or #id', 'aria-label': 'Find a node by its move or #id (Enter: next match, Shift+Enter: previous)', 'data-testid': 'tree-find' });
    this.findDepth = el('input', { type: 'number', min: '0', class: 'ps-num', placeholder: 'any', 'aria-label': 'Find: depth', 'data-testid': 'tree-find-depth' });
    this.findMin = el('input', { type: 'number', step: 'any', class: 'ps-num', placeholder: 'min', 'aria-label': 'Find: lowest value', 'data-testid': 'tree-find-min' });
    this.findMax = el('input', { type: 'number', step: 'any', class: 'ps-num', placeholder: 'max', 'aria-label': 'Find: highest value', 'data-testid': 'tree-find-max' });
    this.findSign = el('input', { type: 'checkbox', 'data-testid': 'tree-find-sign' });
    this.findCount = el('span', { class: 'ps-find-count', 'data-testid': 'tree-find-count', 'aria-live': 'polite' });
    for (const f of [this.findInput, this.findDepth, this.findMin, this.findMax, this.findSign]) {
      f.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          this.findStep(e.shiftKey ? -1 : 1);
        }
      });
    }
    this.findSign.addEventListener('change', () => this.findStep(1));
    const findBar = el(
      'div',
      { class: 'ps-findbar', role: 'search', 'aria-label': 'Find nodes' },
      el('label', { class: 'ps-field' }, 'Find ', this.findInput),
      el('label', { class: 'ps-field' }, 'depth ', this.findDepth),
      el('label', { class: 'ps-field' }, 'value ', this.findMin, '..', this.findMax),
      el('label', { class: 'ps-field', title: 'A leaf’s evaluation or a node’s pre-score whose sign differs from its backed-up value' }, this.findSign, 'static score’s sign ≠ value’s'),
      el('button', { type: 'button', text: '◀', title: 'Previous match (Shift+Enter, Shift+N)', 'aria-label': 'Previous match', 'data-testid': 'tree-find-prev', onclick: () => this.findStep(-1) }),
      el('button', { type: 'button', text: '▶', title: 'Next match (Enter, N)', 'aria-label': 'Next match', 'data-testid': 'tree-find-next', onclick: () => this.findStep(1) }),
      this.findCount,
    );
    const toolbar = el(
      'div',
      { class: 'ps-toolbar', role: 'toolbar', 'aria-label': 'Tree view controls' },
      this.detected,
      el('button', { type: 'button', text: 'Fit', title: 'Fit the shown nodes in the view (F)', onclick: () => this.fit(true) }),
      el('button', { type: 'button', text: 'Best line', title: 'Show the principal variation (P)', onclick: () => this.resetExpansion(true) }),
      el('button', { type: 'button', text: 'Collapse', title: 'Collapse everything below the root (C)', onclick: () => this.collapseAll() }),
      el('button', { type: 'button', text: 'Expand all', title: 'Open every node, breadth first, up to 3,000 shown (E)', onclick: () => this.expandAll(3000) }),
      el('label', { class: 'ps-field' }, 'Siblings ', this.siblingsInput),
      el('label', { class: 'ps-field' }, 'Order ', this.orderSelect),
      el('span', { class: 'ps-spacer' }),
      el('button', { type: 'button', text: 'Open file…', 'data-testid': 'open-tree', onclick: () => this.fileInput.click() }),
      el('button', { type: 'button', text: 'Compare…', title: 'Load a second search of the same position and highlight what changed', 'data-testid': 'compare-open', onclick: () => this.openCompare() }),
      el('span', { class: 'ps-field' }, 'Save'),
      el('button', { type: 'button', text: 'JSON', title: 'Save the whole tree as a plyscope-tree document', 'aria-label': 'Save the tree as JSON', 'data-testid': 'download-tree', onclick: () => this.download() }),
      el('button', { type: 'button', text: 'subtree', title: 'Save the focused node’s subtree as a plyscope-tree document (S)', 'aria-label': 'Save the focused subtree as JSON', 'data-testid': 'download-subtree', onclick: () => this.downloadSubtree() }),
      el('button', { type: 'button', text: 'PNG', title: 'Save the view as a PNG image', 'aria-label': 'Save the view as a PNG image', onclick: () => this.saveImage() }),
      this.fileInput,
    );
    this.crumbs = el('ol', { class: 'ps-crumbs' });
    const crumbNav = (this.crumbNav = el('nav', { class: 'ps-crumbnav', 'aria-label': 'Path to the focused node' }, this.crumbs));
    this.canvas = el('canvas', {
      class: 'ps-canvas',
      tabindex: '0',
      role: 'application',
      'aria-roledescription': 'search tree',
      'aria-label': 'Search tree. Arrow keys move the focus, Enter expands or collapses, Home goes to the root, F fits the view, P shows the best line, C collapses, E expands all, plus and minus zoom, Escape hides the tooltip.',
      'aria-describedby': `${id}-status`,
    });
    this.tooltip = el('div', { class: 'ps-tooltip', role: 'tooltip', 'data-testid': 'tree-tooltip', hidden: '' });
    this.legend = el('div', { class: 'ps-legend', 'aria-label': 'Legend' });
    this.empty = el('div', { class: 'ps-empty', text: 'Paste a tree below, open a file or drop one here.' });
    this.info = el('div', { class: 'ps-info', 'data-testid': 'tree-info', 'aria-hidden': 'true' });
    this.stage = el('div', { class: 'ps-stage', 'data-testid': 'tree-view' }, this.canvas, this.legend, this.info, this.tooltip, this.empty);
    this.status = el('div', { class: 'ps-status', id: `${id}-status`, 'aria-live': 'polite', 'data-testid': 'tree-status' });
    this.textarea = el('textarea', { class: 'ps-json', 'data-testid': 'tree-json', spellcheck: 'false', 'aria-label': 'Tree document (JSON)', placeholder: 'Paste a plyscope-tree, JIT, d3, react-d3-tree or MCTS JSON document here' });
    this.error = el('div', { class: 'ps-error', 'data-testid': 'tree-error', role: 'alert' });
    const loadBtn = el('button', { type: 'button', class: 'ps-primary', 'data-testid': 'load-tree', text: 'Load tree', onclick: () => this.loadText(this.textarea.value, 'pasted text') });
    this.editor = el(
      'details',
      { class: 'ps-editor' },
      el('summary', { text: 'Tree JSON' }),
      this.textarea,
      el('div', { class: 'ps-editor-bar' }, loadBtn, el('span', { class: 'ps-hint', text: 'Formats: plyscope-tree, JIT tree or graph, d3 hierarchy, react-d3-tree, MCTS (N/Q/P).' })),
      this.error,
    );
    if (this.options.editorOpen !== false) this.editor.open = true;
    this.textarea.addEventListener('focus', () => {
      if (this.pendingText !== null || this.pendingDoc) this.fillTextarea();
    });
    this.editor.addEventListener('toggle', () => {
      if (this.editor.open && (this.pendingText !== null || this.pendingDoc)) this.fillTextarea();
    });
    // "Why A and not B": two picked nodes side by side.
    this.whyBody = el('div', { class: 'ps-why-body', 'data-testid': 'why-body' });
    this.whyPanel = el(
      'section',
      { class: 'ps-why', 'data-testid': 'why-panel', 'aria-label': 'Why one node and not another', hidden: '' },
      el('div', { class: 'ps-panel-bar' }, el('strong', { class: 'ps-panel-title', text: 'Why A and not B' }), el('span', { class: 'ps-hint', text: 'Shift-click a node or press W on it to pick A, then B.' }), el('span', { class: 'ps-spacer' }), el('button', { type: 'button', text: 'Swap', 'data-testid': 'why-swap', onclick: () => this.swapPicks() }), el('button', { type: 'button', text: 'Close', 'data-testid': 'why-close', onclick: () => this.clearPicks() })),
      this.whyBody,
    );
    // The second search to compare with.
    this.compareText = el('textarea', { class: 'ps-json ps-compare-json', 'data-testid': 'compare-json', spellcheck: 'false', 'aria-label': 'Second search to compare with (JSON)', placeholder: 'Paste a second search of the same position (another depth, other weights…)' });
    // Not in the page: clicking it still opens the file chooser, and the page keeps one file input.
    this.compareFile = el('input', { type: 'file', accept: '.json,application/json,text/plain' });
    this.compareFile.addEventListener('change', () => {
      const f = this.compareFile.files && this.compareFile.files[0];
      if (f) f.text().then((text) => this.compareWith(text, f.name));
      this.compareFile.value = '';
    });
    this.compareSummary = el('div', { class: 'ps-compare-summary', 'data-testid': 'compare-summary', 'aria-live': 'polite' });
    this.compareError = el('div', { class: 'ps-error', 'data-testid': 'compare-error', role: 'alert' });
    this.comparePanel = el(
      'section',
      { class: 'ps-compare', 'data-testid': 'compare-panel', 'aria-label': 'Compare with another search', hidden: '' },
      el('div', { class: 'ps-panel-bar' }, el('strong', { class: 'ps-panel-title', text: 'Compare with another search' }), el('span', { class: 'ps-spacer' }), el('button', { type: 'button', text: 'Close', 'data-testid': 'compare-close', onclick: () => (this.comparePanel.hidden = true) })),
      this.compareText,
      el(
        'div',
        { class: 'ps-editor-bar' },
        el('button', { type: 'button', class: 'ps-primary', 'data-testid': 'compare-load', text: 'Compare', onclick: () => this.compareWith(this.compareText.value, 'pasted text') }),
        el('button', { type: 'button', text: 'Open file…', 'data-testid': 'compare-file', onclick: () => this.compareFile.click() }),
        el('button', { type: 'button', text: 'Clear', 'data-testid': 'compare-clear', onclick: () => this.clearCompare() }),
        el('span', { class: 'ps-hint', text: 'Nodes are matched by their moves from the root.' }),
      ),
      this.compareSummary,
      this.compareError,
    );
    this.root = el('div', { class: 'ps-explorer' }, toolbar, findBar, crumbNav, this.stage, this.whyPanel, this.status, this.comparePanel, this.editor);
    container.append(this.root);
    this.ctx = this.canvas.getContext('2d');
    this.pendingText = null;

    this.resizeObs = new ResizeObserver(() => this.resize());
    this.resizeObs.observe(this.stage);
    this.resize();
    this.bindPointer();
    this.bindKeys();
    this.bindDrop();
  }

  destroy() {
    this.resizeObs.disconnect();
    if (this.worker) this.worker.terminate();
    if (this.layoutWorkerObj) this.layoutWorkerObj.terminate();
    this.pendingLayout = null;
    this.root.remove();
  }

  resize() {
    const r = this.stage.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.w = Math.max(1, r.width);
    this.h = Math.max(1, r.height);
    this.dpr = dpr;
    this.canvas.width = Math.round(this.w * dpr);
    this.canvas.height = Math.round(this.h * dpr);
    this.canvas.style.width = `${this.w}px`;
    this.canvas.style.height = `${this.h}px`;
    // Until the user pans or zooms, keep the tree fitted as the view changes size.
    if (this.model && !this.userMoved) this.fit(false);
    this.invalidate();
  }

  // -------------------------------------------------------------------------------------------
  // Documents

  async loadUrl(url) {
    try {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const text = await res.text();
      return this.loadText(text, url.split('/').pop());
    } catch (e) {
      this.showError(`Could not load ${url}: ${e.message}`);
      return { ok: false };
    }
  }

  loadFile(file) {
    // A file over the budget is refused before it is read.
    if (file.size > this.budget.maxChars) {
      const e = new BudgetError('characters', file.size, this.budget.maxChars);
      this.showError(`Too large: ${e.message}`);
      return Promise.resolve({ ok: false, error: { kind: 'budget', message: e.message } });
    }
    return file.text().then((text) => {
      this.lastFileName = file.name;
      return this.loadText(text, file.name);
    });
  }

  /** Parses `text` (in the worker when large); keeps the current tree on error. */
  async loadText(text, source = 'text', opts = {}) {
    const seq = ++this.loadSeq;
    const t0 = performance.now();
    let result;
    if (text.length > this.budget.maxChars) {
      // Refused at once, before any parsing.
      result = importText(text, this.budget);
    } else if (text.length > WORKER_THRESHOLD && typeof Worker !== 'undefined') {
      this.setStatus(`Reading ${(text.length / 1e6).toFixed(1)} MB…`);
      // Without a worker (one that cannot start, say), parse here.
      result = await Promise.resolve()
        .then(() => this.parseInWorker(text))
        .catch(() => importText(text, this.budget));
      // The model's nodes are built in slices between which the page goes on drawing and
      // answering: the tree on screen stays usable until the new one is complete.
      if (result.ok && result.wire && seq === this.loadSeq) {
        const model = await fromWireInSlices(result.wire, { yieldNow: yieldToFrame, cancelled: () => seq !== this.loadSeq });
        result = model ? { ok: true, model } : result;
      }
    } else {
      result = importText(text, this.budget);
    }
    if (seq !== this.loadSeq) return { ok: false, superseded: true };
    if (!result.ok) {
      this.showError(result.error.message, result.error, text);
      return { ok: false, error: result.error };
    }
    this.timings.parseMs = performance.now() - t0;
    this.paintFrom = t0;
    this.setModel(result.model, text, undefined, opts);
    this.lastLoadMs = performance.now() - t0;
    this.timings.loadMs = this.lastLoadMs;
    return { ok: true, format: result.model.format, nodes: result.model.count, ms: this.lastLoadMs };
  }

  parseInWorker(text) {
    if (!this.worker) {
      this.worker = new Worker(new URL('./parse-worker.js', import.meta.url), { type: 'module' });
      this.workerJobs = new Map();
      this.workerSeq = 0;
      this.worker.onmessage = (e) => {
        const job = this.workerJobs.get(e.data.id);
        if (job) {
          this.workerJobs.delete(e.data.id);
          job.resolve(e.data.result);
        }
      };
      this.worker.onerror = (e) => {
        for (const job of this.workerJobs.values()) job.reject(e);
        this.workerJobs.clear();
        this.worker = null;
      };
    }
    const id = ++this.workerSeq;
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      this.workerJobs.set(id, { resolve, reject });
      // A long text goes to the worker in parts, a frame apart: copying 300 MB in one message
      // holds the page for a third of a second.
      (async () => {
        let at = 0;
        while (text.length - at > POST_PART) {
          worker.postMessage({ id, part: text.slice(at, at + POST_PART) });
          at += POST_PART;
          await yieldToFrame();
        }
        worker.postMessage({ id, text: at ? text.slice(at) : text, budget: this.budget });
      })();
    });
  }

  /** Shows a parsed document (an object, as the engine's worker returns it) or a JSON text. */
  showDocument(doc, opts = {}) {
    if (typeof doc === 'string') return this.loadText(doc, 'engine', opts);
    this.loadSeq++;
    const result = importValue(doc, this.budget);
    if (!result.ok) {
      this.showError(result.error.message);
      return { ok: false, error: result.error };
    }
    this.setModel(result.model, null, doc, opts);
    return { ok: true, format: result.model.format, nodes: result.model.count };
  }

  /** Shows an error; for a syntax error in text, quotes the line with a caret under the column. */
  showError(message, error, text) {
    this.error.replaceChildren(el('div', { text: `${message}. The previous tree is kept.` }));
    if (error && error.line && typeof text === 'string') {
      const lines = [];
      let start = error.offset - (error.column - 1);
      const lineEnd = text.indexOf('\n', error.offset);
      const line = text.slice(start, lineEnd < 0 ? text.length : lineEnd);
      // Long lines (minified JSON) are cut around the column.
      const from = Math.max(0, error.column - 1 - 60);
      const shown = line.slice(from, from + 120);
      lines.push(`${String(error.line).padStart(5)} | ${from > 0 ? '…' : ''}${shown}`);
      lines.push(`${' '.repeat(5)} | ${from > 0 ? ' ' : ''}${' '.repeat(error.column - 1 - from)}^`);
      this.error.append(el('pre', { class: 'ps-error-context', text: lines.join('\n') }));
      // Put the caret there in the textarea when the text came from it.
      if (text === this.textarea.value && error.offset !== undefined) {
        this.textarea.focus({ preventScroll: true });
        this.textarea.setSelectionRange(error.offset, Math.min(text.length, error.offset + 1));
        const lineHeight = parseFloat(getComputedStyle(this.textarea).lineHeight) || 16;
        this.textarea.scrollTop = Math.max(0, (error.line - 3) * lineHeight);
      }
    }
    this.error.hidden = false;
    if (this.error.scrollIntoView) this.error.scrollIntoView({ block: 'nearest' });
    this.setStatus(`Error: ${message}. The previous tree is kept.`);
  }

  pathOfIn(n) {
    return movePath(n);
  }

  /** The moves from the root to `n`. */
  pathOf(n) {
    const p = [];
    for (let m = n; m && m.parent; m = m.parent) p.push(m.label);
    p.reverse();
    return p;
  }

  /** The node reached by following `moves` from the root, or the deepest one found. */
  follow(moves) {
    let n = this.model.root;
    for (const mv of moves) {
      const c = n.children.find((x) => x.label === mv);
      if (!c) break;
      n = c;
    }
    return n;
  }

  setModel(model, text, doc, opts = {}) {
    // keepView (a live view updated every iteration): keep what is open, the focus and the camera,
    // matched by moves from the root.
    const keep = opts.keepView && this.model ? { open: [...this.expanded].map((n) => this.pathOf(n)), limits: [...this.limits].map(([n, v]) => [this.pathOf(n), v]), focus: this.focus && !this.focus.more ? this.pathOf(this.focus) : [], cam: { ...this.cam }, moved: this.userMoved } : null;
    this.model = model;
    // A tree that may need the layout worker starts it now, so that the first large layout does
    // not wait for the worker's script to load.
    if (model.count > SYNC_LAYOUT_MAX) this.layoutWorker();
    this.error.textContent = '';
    this.error.hidden = true;
    this.empty.hidden = true;
    this.detected.textContent = `Detected: ${model.formatName}`;
    this.detected.title = `${model.count.toLocaleString('en')} nodes`;
    this.ordered = new WeakMap();
    this.limits.clear();
    this.labelCache.clear();
    // The previous tree's items stay drawn (inert: see itemAt) until the new layout is in place.
    this.leaving = [];
    this.hover = null;
    this.hideTooltip();
    this.sourceDoc = doc ?? null;
    // The textarea shows the document, unless it is too large to edit comfortably.
    this.pendingText = text ?? null;
    this.pendingDoc = text ? null : doc ?? null;
    // A large document given as an object is written out only when someone goes to the textarea:
    // stringifying it after every AI turn would cost more than drawing it.
    if (!text && model.count > 3000) {
      this.textarea.value = '';
      this.textarea.placeholder = `The shown tree (${model.count.toLocaleString('en')} nodes) is written here when you click in this box; Download JSON saves it. Or paste a document to replace it.`;
    } else if (this.editor.open || (text && text.length < 200000)) this.fillTextarea();
    this.findState = null;
    this.findCount.textContent = '';
    // Picks survive a live update when their moves still lead somewhere; a new document drops them.
    const pickPaths = keep ? this.picks.map((n) => this.pathOfIn(n)) : [];
    this.picks = [];
    this.diff = null;
    if (this.other) this.recomputeDiff();
    this.buildLegend();
    this.resetExpansion(false);
    this.focus = model.root;
    for (const p of pickPaths) {
      const n = this.follow(p);
      if (n && this.pathOf(n).length === p.length) this.picks.push(n);
    }
    this.renderWhy();
    if (keep) {
      for (const p of keep.open) {
        const n = this.follow(p);
        if (n.children.length) this.expanded.add(n);
      }
      // And as many siblings as were shown past "+K more".
      for (const [p, v] of keep.limits) {
        const n = this.follow(p);
        if (this.pathOf(n).length === p.length) this.limits.set(n, v);
      }
      this.focus = this.follow(keep.focus);
      this.relayout(false);
      this.userMoved = keep.moved;
      this.camTo = null;
      this.cam = keep.cam;
      if (!keep.moved) this.fit(false);
    } else {
      this.relayout(false);
      this.userMoved = false;
      this.fit(false);
    }
    this.updateFocusUi();
    if (this.options.onLoad) this.options.onLoad(model);
  }

  fillTextarea() {
    let text = this.pendingText;
    if (text === null && this.pendingDoc) {
      try {
        text = JSON.stringify(this.pendingDoc, null, 2);
      } catch (e) {
        // A tree thousands of levels deep is beyond JSON.stringify's recursion.
        this.pendingDoc = null;
        this.textarea.value = '';
        this.textarea.placeholder = `The current document cannot be shown as text here (${e.message}). Paste a document to replace it.`;
        return;
      }
    }
    this.pendingText = null;
    this.pendingDoc = null;
    if (text === null) return;
    if (text.length > 3_000_000) {
      this.textarea.value = '';
      this.textarea.placeholder = `The current document (${(text.length / 1e6).toFixed(1)} MB) is too large to show here: use Download JSON. Paste a document to replace it.`;
    } else {
      this.textarea.value = text;
    }
  }

  currentDocument() {
    if (!this.model) return null;
    if (this.sourceDoc && this.model.format === 'plyscope-tree') return this.sourceDoc;
    return toDocument(this.model);
  }

  download() {
    const doc = this.currentDocument();
    if (!doc) return;
    let text;
    try {
      text = JSON.stringify(doc, null, 1);
    } catch (e) {
      this.setStatus(`Cannot write this tree as JSON: ${e.message}.`);
      return;
    }
    const blob = new Blob([text], { type: 'application/json' });
    const a = el('a', { href: URL.createObjectURL(blob), download: `${doc.game && doc.game !== 'unknown' ? doc.game : 'tree'}-tree.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  /** Saves what the view shows as a PNG (at the screen's pixel density). */
  saveImage() {
    if (!this.model) return;
    this.draw();
    this.canvas.toBlob((blob) => {
      if (!blob) return;
      const a = el('a', { href: URL.createObjectURL(blob), download: 'tree-view.png' });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    }, 'image/png');
  }

  buildLegend() {
    if (!this.model) return;
    if ((!this.legendKinds || this.legendKinds.model !== this.model) && this.model.kindsPresent) {
      // Read from the wire form as the nodes were built: no walk over a million nodes here.
      this.legendKinds = { model: this.model, present: new Set(this.model.kindsPresent), pv: this.model.hasBestLine };
    }
    if (!this.legendKinds || this.legendKinds.model !== this.model) {
      const present = new Set();
      let pv = false;
      const stack = [this.model.root];
      while (stack.length) {
        const n = stack.pop();
        present.add(n.kind);
        if (n.best) pv = true;
        for (const c of n.children) stack.push(c);
      }
      this.legendKinds = { model: this.model, present, pv };
    }
    const { present, pv } = this.legendKinds;
    this.legend.replaceChildren();
    for (const k of LEGEND_ORDER) {
      if (!present.has(k)) continue;
      const c = COLORS[k];
      const sw = el('span', { class: `ps-swatch ps-k-${k}` });
      sw.style.background = c.fill;
      sw.style.borderColor = c.stroke;
      this.legend.append(el('span', { class: 'ps-legend-item' }, sw, LEGEND_NAMES[k]));
    }
    if (pv) {
      const sw = el('span', { class: 'ps-swatch ps-pv' });
      sw.style.borderColor = PV_COLOR;
      this.legend.append(el('span', { class: 'ps-legend-item' }, sw, 'best line'));
    }
    if (this.findState && this.findState.hits.length) {
      const sw = el('span', { class: 'ps-swatch ps-match' });
      sw.style.borderColor = MATCH_COLOR;
      this.legend.append(el('span', { class: 'ps-legend-item' }, sw, 'find match'));
    }
    if (this.diff) {
      const d = el('span', { class: 'ps-badge', text: 'Δ' });
      d.style.background = CHANGED_COLOR;
      this.legend.append(el('span', { class: 'ps-legend-item' }, d, 'value changed'));
      const sw = el('span', { class: 'ps-swatch ps-changed' });
      sw.style.borderColor = CHANGED_COLOR;
      this.legend.append(el('span', { class: 'ps-legend-item' }, sw, 'best move changed'));
    }
  }

  // -------------------------------------------------------------------------------------------
  // Expansion and layout

  isPv(n) {
    for (let m = n; m; m = m.parent) if (!m.best) return false;
    return true;
  }

  resetExpansion(animate) {
    if (!this.model) return;
    this.expanded.clear();
    let n = this.model.root;
    for (let d = 0; n && d < this.initialDepth; d++) {
      if (!n.children.length) break;
      this.expanded.add(n);
      n = n.children.find((c) => c.best) || null;
    }
    if (!this.expanded.size && this.model.root.children.length) this.expanded.add(this.model.root);
    if (animate) {
      this.focus = this.model.root;
      this.relayout(true);
      this.fit(true);
      this.updateFocusUi();
    }
  }

  collapseAll() {
    if (!this.model) return;
    this.expanded.clear();
    this.expanded.add(this.model.root);
    this.limits.clear();
    this.focus = this.model.root;
    this.relayout(true);
    this.centerOn(this.model.root, true);
    this.updateFocusUi();
  }

  /** Expands every node breadth first, with all its siblings, until about maxNodes are shown. */
  expandAll(maxNodes = 5000) {
    if (!this.model) return 0;
    let shown = 1;
    const queue = [this.model.root];
    for (let q = 0; q < queue.length && shown < maxNodes; q++) {
      const n = queue[q];
      if (!n.children.length) continue;
      this.expanded.add(n);
      if (n.children.length > this.siblings) this.limits.set(n, Math.max(this.siblings, Math.min(n.children.length, maxNodes - shown)));
      const { list } = this.shownChildren(n);
      shown += list.length;
      for (const c of list) queue.push(c);
    }
    this.relayout(true);
    this.fit(true);
    this.updateFocusUi();
    return shown;
  }

  orderedChildren(n) {
    let list = this.ordered.get(n);
    if (list) return list;
    list = n.children;
    if (this.order === 'prescore' && list.length > 1 && (n.kind === 'max' || n.kind === 'min')) {
      // Best pre-score first for the player to move: how the search would have ordered them.
      const sign = n.kind === 'max' ? -1 : 1;
      const has = (c) => c.prescore && c.prescore.total !== null;
      list = list
        .map((c, i) => ({ c, i, r: has(c) ? 0 : 1, k: has(c) ? sign * c.prescore.total : 0 }))
        .sort((a, b) => a.r - b.r || a.k - b.k || a.i - b.i)
        .map((e) => e.c);
    } else if (this.order === 'value' && list.length > 1) {
      const rank = (c) => (c.kind === 'pruned' || c.kind === 'truncated' ? 2 : c.value === null && c.visits === null && c.prob === null ? 1 : 0);
      let key = null;
      if (n.kind === 'max') key = (c) => -(c.value ?? 0);
      else if (n.kind === 'min') key = (c) => c.value ?? 0;
      else if (n.kind === 'chance') key = (c) => -(c.prob ?? 0);
      else if (list.some((c) => c.visits !== null)) key = (c) => -(c.visits ?? 0);
      if (key) {
        list = list
          .map((c, i) => ({ c, i, r: rank(c), k: key(c) }))
          .sort((a, b) => a.r - b.r || (a.r === 0 ? a.k - b.k : 0) || a.i - b.i)
          .map((e) => e.c);
      }
    }
    this.ordered.set(n, list);
    return list;
  }

  /** The children shown under `n` and how many are folded into a "+K more" node. */
  shownChildren(n) {
    const all = this.orderedChildren(n);
    const lim = this.limits.get(n) ?? this.siblings;
    if (all.length <= lim + 1) return { list: all, hidden: 0 };
    const list = all.slice(0, lim);
    // Keep the best line and the path to the focus visible even when they rank low.
    for (let k = lim; k < all.length; k++) {
      const c = all[k];
      if (c.best || this.onFocusPath(c)) list.push(c);
    }
    return { list, hidden: all.length - list.length };
  }

  onFocusPath(n) {
    const f = this.focus && this.focus.more ? this.focus.parentNode : this.focus;
    if (!f || f.depth < n.depth) return false;
    let m = f;
    while (m && m.depth > n.depth) m = m.parent;
    return m === n;
  }

  /**
   * Lays out the shown nodes: gathers them here (cheap, in pre-order), computes their positions with
   * layout.js (in the layout worker when there are more than SYNC_LAYOUT_MAX), and applies them when
   * they arrive. Until then the previous layout stays drawn and usable; an answer for an older
   * request is dropped. Camera moves asked for meanwhile (fit, centre on a node) wait for it.
   */
  relayout(animate) {
    if (!this.model) return;
    const t0 = performance.now();
    if (prefersReducedMotion()) animate = false;
    const seq = ++this.layoutSeq;
    const items = [];
    const itemOf = new Map();
    const parents = [];
    const mkItem = (n, parentItem, depth) => {
      const it = { node: n, more: false, parent: parentItem, x: depth * LEVEL_GAP, y: 0, depth, hasKids: n.children.length > 0, open: false, sx: 0, sy: 0, kids: null, index: 0 };
      itemOf.set(n, it);
      return it;
    };
    // The shown items in pre-order (a parent before its subtree; "+K more" after its siblings).
    const stack = [mkItem(this.model.root, null, 0)];
    while (stack.length) {
      const item = stack.pop();
      item.index = items.length;
      items.push(item);
      parents.push(item.parent ? item.parent.index : -1);
      if (item.more) continue;
      const n = item.node;
      if (!(n.children.length && this.expanded.has(n))) continue;
      item.open = true;
      const { list, hidden } = this.shownChildren(n);
      const kids = list.map((c) => mkItem(c, item, item.depth + 1));
      if (hidden > 0) {
        const more = { node: null, more: true, parentNode: n, hidden, parent: item, x: (item.depth + 1) * LEVEL_GAP, y: 0, depth: item.depth + 1, hasKids: false, open: false, sx: 0, sy: 0, kids: null, index: 0 };
        more.key = moreKey(n);
        itemOf.set(more.key, more);
        kids.push(more);
      }
      item.kids = kids;
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
    }
    const parent = Int32Array.from(parents);
    // Camera moves waiting for an older request now wait for this one.
    const job = { seq, items, itemOf, animate, t0, after: this.pendingLayout ? this.pendingLayout.after : [], gatherMs: 0, workerMs: null };
    job.gatherMs = performance.now() - t0;
    this.pendingLayout = job;
    const worker = items.length > SYNC_LAYOUT_MAX ? this.layoutWorker() : null;
    if (!worker) {
      this.applyLayout(job, tidyLayout(parent, ROW_H, COUSIN_GAP));
      return;
    }
    this.info.textContent = `${this.model.count.toLocaleString('en')} nodes · laying out ${items.length.toLocaleString('en')}…`;
    worker.postMessage({ seq, parent, rowGap: ROW_H, cousinGap: COUSIN_GAP }, [parent.buffer]);
  }

  /** The layout worker, started on first use; null where workers cannot run (then layouts run here). */
  layoutWorker() {
    if (this.layoutWorkerFailed || typeof Worker === 'undefined') return null;
    if (this.layoutWorkerObj) return this.layoutWorkerObj;
    try {
      const w = new Worker(new URL('./layout-worker.js', import.meta.url), { type: 'module' });
      w.onmessage = (e) => {
        const job = this.pendingLayout;
        if (!job || e.data.seq !== job.seq) return; // a newer layout was asked for
        if (e.data.error) {
          this.layoutHere(job);
          return;
        }
        job.workerMs = e.data.ms;
        this.applyLayout(job, e.data.y);
      };
      w.onerror = (e) => {
        if (e && e.preventDefault) e.preventDefault();
        this.layoutWorkerFailed = true;
        this.layoutWorkerObj = null;
        w.terminate();
        if (this.pendingLayout) this.layoutHere(this.pendingLayout);
      };
      this.layoutWorkerObj = w;
      return w;
    } catch {
      this.layoutWorkerFailed = true;
      return null;
    }
  }

  /** Lays out a pending request on the page (the worker failed). */
  layoutHere(job) {
    const parent = Int32Array.from(job.items, (it) => (it.parent ? it.parent.index : -1));
    this.applyLayout(job, tidyLayout(parent, ROW_H, COUSIN_GAP));
  }

  /** Installs a computed layout: positions, animation from where things are drawn now, bounds. */
  applyLayout(job, ys) {
    const tApply = performance.now();
    let animate = job.animate;
    const { items, itemOf } = job;
    for (let i = 0; i < items.length; i++) items[i].y = ys[i];
    // Where everything is drawn right now, to start the animation from.
    if (animate && this.anim) this.stepAnimation(tApply, true);
    const old = this.itemOf;
    // Starting points: where each node was, or where its parent was when it appears.
    const leaving = [];
    for (const it of items) {
      const key = it.more ? it.key : it.node;
      const prev = old.get(key);
      if (animate && prev) {
        it.sx = prev.cx ?? prev.x;
        it.sy = prev.cy ?? prev.y;
        it.fade = 1;
      } else if (animate && it.parent) {
        const pp = old.get(it.parent.node);
        it.sx = pp ? pp.cx ?? pp.x : it.x;
        it.sy = pp ? pp.cy ?? pp.y : it.y;
        it.fade = 0;
      } else {
        it.sx = it.x;
        it.sy = it.y;
        it.fade = 1;
      }
    }
    if (animate) {
      for (const [key, prev] of old) {
        if (itemOf.has(key)) continue;
        // Goes back into its nearest ancestor that stays.
        let a = prev.parent;
        while (a && !itemOf.has(a.more ? a.key : a.node)) a = a.parent;
        const target = a ? itemOf.get(a.more ? a.key : a.node) : null;
        if (!target) continue;
        leaving.push({ ...prev, sx: prev.cx ?? prev.x, sy: prev.cy ?? prev.y, tx: target.x, ty: target.y, target, leaving: true });
        if (leaving.length > 3000) break;
      }
    }
    this.items = items;
    this.itemOf = itemOf;
    this.itemsModel = this.model;
    this.leaving = leaving.length > 3000 ? [] : leaving;
    const byDepth = [];
    for (const it of items) (byDepth[it.depth] ||= []).push(it);
    // Rows grow with the walk, so each column is already sorted by y.
    this.columns = byDepth;
    let y0 = Infinity;
    let y1 = -Infinity;
    for (const col of byDepth) {
      y0 = Math.min(y0, col[0].y);
      y1 = Math.max(y1, col[col.length - 1].y);
    }
    this.bounds = { x0: -NODE_W / 2, x1: (byDepth.length - 1) * LEVEL_GAP + NODE_W / 2, y0: y0 - NODE_H / 2, y1: y1 + NODE_H / 2 };
    this.info.textContent = `${this.model.count.toLocaleString('en')} nodes · ${items.length.toLocaleString('en')} shown`;
    if (animate && items.length < 20000) {
      this.anim = { start: tApply, dur: ANIM_MS };
    } else {
      this.anim = null;
      this.leaving = [];
      for (const it of items) {
        it.cx = it.x;
        it.cy = it.y;
        it.fade = 1;
      }
    }
    const tEnd = performance.now();
    // layoutMs: from the request to the positions in place (the worker's round trip included);
    // layoutMainMs: what the page itself spent (gathering and applying).
    this.timings.layoutMs = tEnd - job.t0;
    this.timings.layoutMainMs = job.gatherMs + (tEnd - tApply);
    this.timings.layoutWorkerMs = job.workerMs;
    this.timings.layoutShown = items.length;
    this.pendingLayout = null;
    for (const fn of job.after) fn();
    if (!this.pendingLayout && this.layoutWaiters.length) {
      const waiters = this.layoutWaiters;
      this.layoutWaiters = [];
      for (const r of waiters) r();
    }
    this.invalidate();
  }

  /** Runs `fn` once the pending layout is in place; false (and nothing queued) when none is pending. */
  afterLayout(fn) {
    if (!this.pendingLayout) return false;
    this.pendingLayout.after.push(fn);
    return true;
  }

  /** Resolves once no layout is pending (at once when none is). */
  whenLaidOut() {
    if (!this.pendingLayout) return Promise.resolve();
    return new Promise((resolve) => this.layoutWaiters.push(resolve));
  }

  stepAnimation(now, settle = false) {
    const a = this.anim;
    let t = a ? Math.min(1, (now - a.start) / a.dur) : 1;
    if (settle) t = Math.min(t, 1);
    const e = t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2;
    for (const it of this.items) {
      it.cx = it.sx + (it.x - it.sx) * e;
      it.cy = it.sy + (it.y - it.sy) * e;
      it.alpha = it.fade === 0 ? e : 1;
    }
    for (const it of this.leaving) {
      it.cx = it.sx + (it.tx - it.sx) * e;
      it.cy = it.sy + (it.ty - it.sy) * e;
      it.alpha = 1 - e;
    }
    if (this.camTo) {
      const c0 = this.camFrom;
      const c1 = this.camTo;
      const ct = Math.min(1, (now - c1.start) / ANIM_MS);
      const ce = ct < 0.5 ? 2 * ct * ct : 1 - Math.pow(-2 * ct + 2, 2) / 2;
      this.cam.k = c0.k * Math.pow(c1.k / c0.k, ce);
      // Interpolate the world point at the centre of the screen.
      const mx0 = c0.x + this.w / 2 / c0.k;
      const my0 = c0.y + this.h / 2 / c0.k;
      const mx1 = c1.x + this.w / 2 / c1.k;
      const my1 = c1.y + this.h / 2 / c1.k;
      this.cam.x = mx0 + (mx1 - mx0) * ce - this.w / 2 / this.cam.k;
      this.cam.y = my0 + (my1 - my0) * ce - this.h / 2 / this.cam.k;
      if (ct >= 1) this.camTo = null;
    }
    if (t >= 1) {
      this.anim = null;
      this.leaving = [];
    }
  }

  // -------------------------------------------------------------------------------------------
  // Camera

  setCamera(x, y, k, animate) {
    k = Math.max(MIN_K, Math.min(MAX_K, k));
    if (animate && !prefersReducedMotion()) {
      this.camFrom = { ...this.cam };
      this.camTo = { x, y, k, start: performance.now() };
      if (!this.anim) this.anim = { start: performance.now() - ANIM_MS, dur: ANIM_MS };
    } else {
      this.camTo = null;
      this.cam = { x, y, k };
    }
    this.invalidate();
  }

  fit(animate) {
    if (this.afterLayout(() => this.fit(animate))) return;
    if (!this.model || !this.bounds) return;
    const b = this.bounds;
    const pad = 24;
    const padBottom = 44; // the legend
    const bw = b.x1 - b.x0;
    const bh = b.y1 - b.y0;
    const avail = this.h - pad - padBottom;
    let k = Math.min(1.1, (this.w - 2 * pad) / bw, avail / bh);
    k = Math.max(k, 0.6); // below this labels are not drawn: centre on the root instead
    if (!Number.isFinite(k) || k <= 0) k = 1;
    const fitsV = bh * k <= avail;
    const x = b.x0 - pad / k;
    // When the tree is taller than the view, centre it vertically on the root.
    const cy = fitsV ? (b.y0 + b.y1) / 2 : this.itemOf.get(this.model.root).y;
    const y = cy - (pad + avail / 2) / k;
    this.setCamera(x, y, k, animate);
  }

  /** Moves the camera so that the node is at the left third, vertically centred. */
  centerOn(nodeOrItem, animate) {
    const isItem = nodeOrItem && nodeOrItem.more !== undefined && nodeOrItem.x !== undefined;
    if (this.pendingLayout) {
      const key = isItem ? (nodeOrItem.more ? nodeOrItem.key : nodeOrItem.node) : nodeOrItem;
      this.afterLayout(() => this.centerOn(key, animate));
      return;
    }
    const it = isItem ? nodeOrItem : this.itemOf.get(nodeOrItem);
    if (!it) return;
    const k = this.cam.k;
    const x = it.x - (this.w * 0.35) / k;
    const y = it.y - this.h / 2 / k;
    this.setCamera(x, y, k, animate);
  }

  ensureVisible(it) {
    if (this.pendingLayout) {
      const key = it.more ? it.key : it.node;
      this.afterLayout(() => {
        const now = this.itemOf.get(key);
        if (now) this.ensureVisible(now);
      });
      return;
    }
    const k = this.cam.k;
    const sx = (it.x - this.cam.x) * k;
    const sy = (it.y - this.cam.y) * k;
    const mx = (NODE_W / 2) * k + 16;
    const my = (NODE_H / 2) * k + 16;
    if (sx < mx || sx > this.w - mx || sy < my || sy > this.h - my) this.centerOn(it, true);
  }

  // -------------------------------------------------------------------------------------------
  // Drawing

  invalidate() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  draw() {
    const now = performance.now();
    this.drawInner(now);
    const t1 = performance.now();
    this.timings.drawMs = t1 - now;
    if (this.frameLog) this.frameLog.push(t1 - now);
    if (this.paintFrom !== null && this.paintFrom !== undefined && this.model) {
      this.timings.firstPaintMs = t1 - this.paintFrom;
      this.paintFrom = null;
    }
  }

  drawInner(now) {
    if (this.anim || this.camTo) this.stepAnimation(now);
    const ctx = this.ctx;
    const { dpr, cam } = this;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.w, this.h);
    if (!this.model) return;
    const k = cam.k;
    ctx.setTransform(dpr * k, 0, 0, dpr * k, -cam.x * k * dpr, -cam.y * k * dpr);
    const vx0 = cam.x - NODE_W;
    const vx1 = cam.x + this.w / k + NODE_W;
    const vy0 = cam.y - NODE_H;
    const vy1 = cam.y + this.h / k + NODE_H;
    const inView = (it) => it.cx >= vx0 && it.cx <= vx1 && it.cy >= vy0 && it.cy <= vy1;
    let drawn = 0;

    // Edges, column by column; an edge is drawn when its span meets the view.
    const pvEdges = [];
    ctx.lineWidth = 1.2 / Math.max(k, 0.5);
    ctx.strokeStyle = '#a9b1bb';
    ctx.beginPath();
    const edgeTo = (it, p) => {
      const x0 = p.cx + NODE_W / 2;
      const y0 = p.cy;
      const x1 = it.cx - NODE_W / 2;
      const y1 = it.cy;
      if (Math.max(x0, x1) < vx0 || Math.min(x0, x1) > vx1 || Math.max(y0, y1) < vy0 || Math.min(y0, y1) > vy1) return;
      const mx = (x0 + x1) / 2;
      ctx.moveTo(x0, y0);
      ctx.bezierCurveTo(mx, y0, mx, y1, x1, y1);
    };
    // The path from the root to the focus is drawn darker.
    const focusIt = this.focusItem();
    const onPath = new Set();
    for (let a = focusIt; a; a = a.parent) onPath.add(a);
    const pathEdges = [];
    for (const it of this.items) {
      if (!it.parent) continue;
      if (!it.more && it.node.best && this.isPv(it.node)) pvEdges.push(it);
      else if (onPath.has(it)) pathEdges.push(it);
      else edgeTo(it, it.parent);
    }
    ctx.stroke();
    if (pathEdges.length) {
      ctx.strokeStyle = '#4d5967';
      ctx.lineWidth = 2.2 / Math.max(k, 0.5);
      ctx.beginPath();
      for (const it of pathEdges) edgeTo(it, it.parent);
      ctx.stroke();
    }
    if (pvEdges.length) {
      ctx.strokeStyle = PV_COLOR;
      ctx.lineWidth = 3 / Math.max(k, 0.5);
      ctx.beginPath();
      for (const it of pvEdges) edgeTo(it, it.parent);
      ctx.stroke();
    }

    // Nodes. Far out, boxes are plain rectangles batched by kind (labels would not be legible anyway).
    const labels = k * 12 >= 6.5;
    if (k < 0.3 && !this.leaving.length) {
      drawn = this.drawCoarse(inView);
      this.lastDrawn = drawn;
      if (this.anim || this.camTo) this.invalidate();
      return;
    }
    const cutBy = this.hover && !this.hover.more && this.hover.node.cutoff ? this.hover.node.cutoff.by : undefined;
    for (const it of this.leaving) {
      if (!inView(it)) continue;
      ctx.globalAlpha = Math.max(0, it.alpha);
      this.drawNode(it, labels, false);
    }
    ctx.globalAlpha = 1;
    for (const it of this.items) {
      if (!inView(it)) continue;
      drawn++;
      if (it.alpha !== undefined && it.alpha < 1) ctx.globalAlpha = it.alpha;
      const cut = cutBy !== undefined && cutBy !== null && !it.more && String(it.node.id) === String(cutBy) && it.node.parent === this.hover.node.parent;
      this.drawNode(it, labels, cut);
      ctx.globalAlpha = 1;
    }
    // Chance outcomes: the probability on the edge, just before the child's box.
    const edgeLabels = labels && k >= EDGE_LABEL_MIN_K ? this.drawEdgeProbabilities(inView) : [];
    this.lastDrawn = drawn;
    this.drawStats = { mode: labels ? 'labels' : 'boxes', boxes: drawn, bands: 0, banded: 0, labelled: 0, bandRects: [], edgeLabels };
    if (this.anim || this.camTo) this.invalidate();
  }

  /**
   * Writes each shown chance outcome's probability above the end of its edge (right-aligned against
   * the child's box). Returns where they went: [{ id, text, x, y }] in CSS pixels, for tests.
   */
  drawEdgeProbabilities(inView) {
    const ctx = this.ctx;
    const { cam } = this;
    const out = [];
    ctx.font = EDGE_LABEL_FONT;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'alphabetic';
    for (const it of this.items) {
      const p = it.parent;
      if (it.more || !p || p.more || p.node.kind !== 'chance' || it.node.prob === null || it.node.prob === undefined || !inView(it)) continue;
      const text = percentShort(it.node.prob);
      const x = it.cx - NODE_W / 2 - 5;
      const y = it.cy - 4;
      const w = ctx.measureText(text).width;
      ctx.fillStyle = EDGE_LABEL_BG;
      ctx.fillRect(x - w - 2, y - 10, w + 4, 13);
      ctx.fillStyle = COLORS.chance.stroke;
      ctx.fillText(text, x, y);
      out.push({ id: it.node.id, text, x: (x - w / 2 - cam.x) * cam.k, y: (y - 4 - cam.y) * cam.k });
    }
    return out;
  }

  drawNode(it, labels, cut) {
    const ctx = this.ctx;
    const k = this.cam.k;
    const n = it.node;
    const kind = it.more ? 'more' : n.kind;
    const c = COLORS[kind] || COLORS.node;
    const x = it.cx - NODE_W / 2;
    const y = it.cy - NODE_H / 2;
    const pv = !it.more && n.best && this.isPv(n);
    const dashed = kind === 'pruned' || kind === 'truncated' || kind === 'more';
    ctx.fillStyle = c.fill;
    ctx.beginPath();
    roundRect(ctx, x, y, NODE_W, NODE_H, 7);
    ctx.fill();
    if (dashed) ctx.setLineDash([5, 3]);
    ctx.lineWidth = pv ? 2.6 : 1.3;
    ctx.strokeStyle = pv ? PV_COLOR : c.stroke;
    ctx.stroke();
    if (dashed) ctx.setLineDash([]);
    // A coloured bar on the left says the kind even when labels are too small to read.
    ctx.fillStyle = c.stroke;
    ctx.fillRect(x + 1, y + 5, 4, NODE_H - 10);
    if (cut) {
      ctx.lineWidth = 3;
      ctx.strokeStyle = CUT_COLOR;
      ctx.beginPath();
      roundRect(ctx, x - 4, y - 4, NODE_W + 8, NODE_H + 8, 9);
      ctx.stroke();
    }
    if (this.hover && (this.hover === it || (!it.more && !this.hover.more && this.hover.node === n))) {
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = c.stroke;
      ctx.beginPath();
      roundRect(ctx, x - 2, y - 2, NODE_W + 4, NODE_H + 4, 8);
      ctx.stroke();
    }
    const focused = this.focus === (it.more ? this.focus && this.focus.more && this.focus.key === it.key ? this.focus : null : n);
    if (focused) {
      ctx.lineWidth = 2;
      ctx.strokeStyle = FOCUS_COLOR;
      ctx.setLineDash([3, 2]);
      ctx.beginPath();
      roundRect(ctx, x - 3.5, y - 3.5, NODE_W + 7, NODE_H + 7, 9);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (!it.more) this.drawMarks(it, x, y);
    // The expand handle on the right edge.
    if (it.hasKids) {
      ctx.beginPath();
      ctx.arc(x + NODE_W, it.cy, 6.5, 0, Math.PI * 2);
      ctx.fillStyle = it.open ? c.stroke : '#ffffff';
      ctx.fill();
      ctx.lineWidth = 1.3;
      ctx.strokeStyle = c.stroke;
      ctx.stroke();
      if (k * 9 >= 5) {
        ctx.fillStyle = it.open ? '#ffffff' : c.stroke;
        ctx.font = 'bold 10px system-ui, sans-serif';
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(it.open ? '−' : '+', x + NODE_W, it.cy + 0.5);
      }
    }
    if (!labels) return;
    const [line1, line2, tag] = this.nodeLines(it);
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    ctx.fillStyle = c.text;
    ctx.font = '600 12.5px system-ui, sans-serif';
    ctx.fillText(this.fitText(line1, NODE_W - 22 - (tag ? ctx.measureText(tag).width + 4 : 0), ctx.font), x + 10, y + 16);
    if (tag) {
      ctx.font = '10px system-ui, sans-serif';
      ctx.textAlign = 'right';
      ctx.fillStyle = c.stroke;
      ctx.fillText(tag, x + NODE_W - 10, y + 15);
      ctx.textAlign = 'left';
      ctx.fillStyle = c.text;
    }
    ctx.font = '12px ui-monospace, SFMono-Regular, Menlo, monospace';
    ctx.fillText(this.fitText(line2, NODE_W - 20, ctx.font), x + 10, y + 31);
  }

  /**
   * The far-out view. Boxes are plain rectangles, one fill and one outline pass per kind. Where the
   * boxes of a column would be less than BAND_GAP_PX apart on screen, each run of them is merged into
   * one band (drawn as a block, with its count when there is room to read it). The best line, the
   * focus, find matches, picks and changes are still drawn on top, node by node.
   */
  drawCoarse(inView) {
    const ctx = this.ctx;
    const k = this.cam.k;
    const gap = BAND_GAP_PX / k; // in world units
    const byKind = new Map();
    const shownItems = [];
    const bands = [];
    let boxes = 0;
    let banded = 0;
    const single = (it) => {
      boxes++;
      const kind = it.more ? 'more' : it.node.kind;
      let list = byKind.get(kind);
      if (!list) byKind.set(kind, (list = []));
      list.push(it);
    };
    const flush = (run) => {
      if (!run) return;
      if (run.items.length === 1) single(run.items[0]);
      else {
        bands.push(run);
        banded += run.items.length;
      }
    };
    // Columns are sorted by y: runs are found in one pass per column. A run is counted whole, also
    // where it goes on beyond the view, and drawn when it reaches into the view.
    const vy0 = this.cam.y - NODE_H;
    const vy1 = this.cam.y + this.h / k + NODE_H;
    const flushRun = (run) => {
      if (!run) return;
      if (run.y1 < vy0 || run.y0 > vy1 || !run.seen) return;
      flush(run);
    };
    for (const col of this.columns) {
      if (!col || !col.length) continue;
      let run = null;
      for (const it of col) {
        const seen = inView(it);
        if (seen) shownItems.push(it);
        const top = it.cy - NODE_H / 2;
        if (run && top - run.y1 < gap && Math.abs(it.cx - run.x) < 1) {
          run.y1 = Math.max(run.y1, it.cy + NODE_H / 2);
          run.items.push(it);
          run.seen ||= seen;
        } else {
          flushRun(run);
          run = { x: it.cx, y0: top, y1: it.cy + NODE_H / 2, items: [it], seen };
        }
      }
      flushRun(run);
    }
    ctx.lineWidth = 1.3 / k;
    for (const [kind, list] of byKind) {
      const c = COLORS[kind] || COLORS.node;
      ctx.fillStyle = c.fill;
      for (const it of list) ctx.fillRect(it.cx - NODE_W / 2, it.cy - NODE_H / 2, NODE_W, NODE_H);
      ctx.strokeStyle = c.stroke;
      ctx.beginPath();
      for (const it of list) ctx.rect(it.cx - NODE_W / 2, it.cy - NODE_H / 2, NODE_W, NODE_H);
      ctx.stroke();
    }
    const bandInfo = [];
    if (bands.length) {
      ctx.fillStyle = BAND_FILL;
      for (const b of bands) ctx.fillRect(b.x - NODE_W / 2, b.y0, NODE_W, b.y1 - b.y0);
      ctx.strokeStyle = BAND_STROKE;
      ctx.beginPath();
      for (const b of bands) ctx.rect(b.x - NODE_W / 2, b.y0, NODE_W, b.y1 - b.y0);
      ctx.stroke();
      // A bar on the left in the colour of the band's most common kind.
      for (const b of bands) {
        const count = new Map();
        let top = null;
        for (const it of b.items) {
          const kind = it.more ? 'more' : it.node.kind;
          const v = (count.get(kind) || 0) + 1;
          count.set(kind, v);
          if (top === null || v > count.get(top)) top = kind;
        }
        b.kind = top;
        b.nodes = b.items.reduce((s, it) => s + (it.more ? 0 : 1), 0);
        ctx.fillStyle = (COLORS[top] || COLORS.node).stroke;
        ctx.fillRect(b.x - NODE_W / 2, b.y0, Math.min(NODE_W / 3, 3 / k), b.y1 - b.y0);
      }
      // Counts, in screen pixels, where they fit (across the band, or along it when it is narrow).
      const { dpr } = this;
      ctx.save();
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.font = BAND_FONT;
      ctx.textBaseline = 'middle';
      ctx.textAlign = 'center';
      ctx.fillStyle = BAND_TEXT;
      for (const b of bands) {
        const sx0 = (b.x - NODE_W / 2 - this.cam.x) * k;
        const w = NODE_W * k;
        // The part of the band on screen: its count goes in the middle of what can be seen.
        const sy0 = Math.max(0, (b.y0 - this.cam.y) * k);
        const sy1 = Math.min(this.h, (b.y1 - this.cam.y) * k);
        const h = sy1 - sy0;
        const text = `${b.nodes.toLocaleString('en')} nodes`;
        const tw = ctx.measureText(text).width;
        let label = null;
        if (w >= tw + 8 && h >= 15) {
          ctx.fillText(text, sx0 + w / 2, (sy0 + sy1) / 2);
          label = 'across';
        } else if (LEVEL_GAP * k >= 14 && h >= tw + 10) {
          // Along the band, on a white outline so that it reads where it is wider than the band
          // (columns are at least 14 px apart here, so neighbouring counts do not touch).
          ctx.save();
          ctx.translate(sx0 + w / 2 + 1, (sy0 + sy1) / 2);
          ctx.rotate(-Math.PI / 2);
          ctx.lineWidth = 3;
          ctx.lineJoin = 'round';
          ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
          ctx.strokeText(text, 0, 0);
          ctx.fillText(text, 0, 0);
          ctx.restore();
          label = 'along';
        }
        if (bandInfo.length < 200) bandInfo.push({ x: sx0, y: (b.y0 - this.cam.y) * k, width: w, height: (b.y1 - b.y0) * k, nodes: b.nodes, kind: b.kind, label });
      }
      ctx.restore();
    }
    ctx.strokeStyle = PV_COLOR;
    ctx.lineWidth = 3 / k;
    ctx.beginPath();
    for (const it of shownItems) if (!it.more && it.node.best && this.isPv(it.node)) ctx.rect(it.cx - NODE_W / 2, it.cy - NODE_H / 2, NODE_W, NODE_H);
    ctx.stroke();
    if (this.findState || this.diff || this.picks.length) {
      for (const it of shownItems) if (!it.more) this.drawMarks(it, it.cx - NODE_W / 2, it.cy - NODE_H / 2);
    }
    const f = this.focusItem();
    if (f && inView(f)) {
      ctx.strokeStyle = FOCUS_COLOR;
      ctx.lineWidth = 3 / k;
      ctx.strokeRect(f.cx - NODE_W / 2 - 6, f.cy - NODE_H / 2 - 6, NODE_W + 12, NODE_H + 12);
    }
    this.drawStats = { mode: 'far', boxes, bands: bands.length, banded, labelled: bandInfo.filter((b) => b.label).length, bandRects: bandInfo };
    return shownItems.length;
  }

  /** Find matches, picks ("why A and not B") and what changed since the compared search. */
  drawMarks(it, x, y) {
    const ctx = this.ctx;
    const n = it.node;
    if (this.findState && this.findState.set.has(n)) {
      ctx.fillStyle = MATCH_COLOR;
      ctx.fillRect(x + 8, y + NODE_H - 4, NODE_W - 16, 3);
    }
    const d = this.diff ? this.diff.diff.get(n) : null;
    if (d && d.bestChanged) {
      ctx.lineWidth = 2.5;
      ctx.strokeStyle = CHANGED_COLOR;
      ctx.setLineDash([6, 3]);
      ctx.beginPath();
      roundRect(ctx, x - 5.5, y - 5.5, NODE_W + 11, NODE_H + 11, 10);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (d && d.valueChanged) this.badge(x + NODE_W - 14, y, 'Δ', CHANGED_COLOR);
    const pi = this.picks.indexOf(n);
    if (pi >= 0) {
      ctx.lineWidth = 3;
      ctx.strokeStyle = PICK_COLOR;
      ctx.beginPath();
      roundRect(ctx, x - 3, y - 3, NODE_W + 6, NODE_H + 6, 9);
      ctx.stroke();
      this.badge(x + 2, y, pi === 0 ? 'A' : 'B', PICK_COLOR);
    }
  }

  badge(cx, cy, text, color) {
    const ctx = this.ctx;
    ctx.beginPath();
    ctx.arc(cx, cy, 8, 0, Math.PI * 2);
    ctx.fillStyle = color;
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = '#ffffff';
    ctx.stroke();
    if (this.cam.k * 11 >= 5) {
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 11px system-ui, sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(text, cx, cy + 0.5);
    }
  }

  nodeLines(it) {
    if (it.more) return [`+${it.hidden.toLocaleString('en')} more`, 'click to show', ''];
    const n = it.node;
    if (n.kind === 'pruned') {
      const count = n.count ?? (n.moves ? n.moves.length : 0);
      return [`✂ ${count} pruned`, n.moves && n.moves.length ? n.moves.slice(0, 4).join(' ') + (n.moves.length > 4 ? ' …' : '') : n.reason ?? '', ''];
    }
    if (n.kind === 'truncated') return [`${n.count ?? '?'} unrecorded`, 'node cap', ''];
    const label = nodeName(n);
    let line2 = n.value !== null ? boundedScore(n.value, n.bound) : n.kind === 'node' ? `${n.children.length} children` : 'no value';
    const d = this.diff ? this.diff.diff.get(n) : null;
    if (d && d.valueChanged) line2 = `${line2} was ${d.other.value === null ? '?' : scoreText(d.other.value)}`;
    if (n.visits !== null) line2 = `${n.value === null ? '' : `Q ${compactNumber(n.value)} `}N ${compactNumber(n.visits)}`;
    let tag = '';
    if (n.tt) tag = 'TT';
    else if (n.kind === 'terminal') tag = 'end';
    else if (n.kind === 'chance') tag = 'chance';
    return [label, line2, tag];
  }

  fitText(text, width, font) {
    const key = `${font}|${width}|${text}`;
    let s = this.labelCache.get(key);
    if (s !== undefined) return s;
    const ctx = this.ctx;
    s = text;
    if (ctx.measureText(s).width > width) {
      let lo = 0;
      let hi = s.length;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (ctx.measureText(s.slice(0, mid) + '…').width <= width) lo = mid;
        else hi = mid - 1;
      }
      s = s.slice(0, lo) + '…';
    }
    if (this.labelCache.size > 20000) this.labelCache.clear();
    this.labelCache.set(key, s);
    return s;
  }

  // -------------------------------------------------------------------------------------------
  // Hit-testing and pointer

  itemAt(sx, sy) {
    // The previous document's items, still drawn while the new one is laid out, are not clickable.
    if (!this.model || this.itemsModel !== this.model) return null;
    const wx = this.cam.x + sx / this.cam.k;
    const wy = this.cam.y + sy / this.cam.k;
    const d = Math.round(wx / LEVEL_GAP);
    const col = this.columns[d];
    if (!col || Math.abs(wx - d * LEVEL_GAP) > NODE_W / 2 + 7) return null;
    // Binary search on y (columns are sorted by target y; hit-test the targets).
    let lo = 0;
    let hi = col.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const it = col[mid];
      if (wy < it.y - NODE_H / 2) hi = mid - 1;
      else if (wy > it.y + NODE_H / 2) lo = mid + 1;
      else return it;
    }
    return null;
  }

  bindPointer() {
    const c = this.canvas;
    let drag = null;
    // Touch: two pointers pinch-zoom about their midpoint.
    const touches = new Map();
    let pinch = null;
    const pos = (e) => {
      const r = c.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    };
    c.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      const [sx, sy] = pos(e);
      touches.set(e.pointerId, [sx, sy]);
      if (touches.size === 2) {
        const [[x0, y0], [x1, y1]] = [...touches.values()];
        const mx = (x0 + x1) / 2;
        const my = (y0 + y1) / 2;
        pinch = { d: Math.hypot(x1 - x0, y1 - y0) || 1, k: this.cam.k, wx: this.cam.x + mx / this.cam.k, wy: this.cam.y + my / this.cam.k };
        drag = null;
        this.hideTooltip();
        for (const id of touches.keys()) capture(id);
        return;
      }
      drag = { sx, sy, cx: this.cam.x, cy: this.cam.y, moved: false, id: e.pointerId };
    });
    const capture = (id) => {
      try {
        c.setPointerCapture(id);
      } catch {
        // Not an active pointer (synthetic events): dragging still works inside the canvas.
      }
    };
    const lift = (e) => {
      touches.delete(e.pointerId);
      if (touches.size < 2) pinch = null;
    };
    c.addEventListener('pointerup', lift);
    c.addEventListener('pointercancel', lift);
    c.addEventListener('pointermove', (e) => {
      const [sx, sy] = pos(e);
      if (touches.has(e.pointerId)) touches.set(e.pointerId, [sx, sy]);
      if (pinch && touches.size === 2) {
        const [[x0, y0], [x1, y1]] = [...touches.values()];
        const k = Math.max(MIN_K, Math.min(MAX_K, (pinch.k * Math.hypot(x1 - x0, y1 - y0)) / pinch.d));
        const mx = (x0 + x1) / 2;
        const my = (y0 + y1) / 2;
        this.camTo = null;
        this.userMoved = true;
        this.cam = { x: pinch.wx - mx / k, y: pinch.wy - my / k, k };
        this.invalidate();
        return;
      }
      if (drag) {
        const dx = sx - drag.sx;
        const dy = sy - drag.sy;
        if (!drag.moved && Math.hypot(dx, dy) > 4) {
          drag.moved = true;
          capture(drag.id);
          c.classList.add('ps-dragging');
          this.hideTooltip();
        }
        if (drag.moved) {
          this.camTo = null;
          this.userMoved = true;
          this.cam.x = drag.cx - dx / this.cam.k;
          this.cam.y = drag.cy - dy / this.cam.k;
          this.invalidate();
          return;
        }
      }
      this.setHover(this.itemAt(sx, sy), sx, sy);
    });
    const end = (e) => {
      if (!drag) return;
      const d = drag;
      drag = null;
      c.classList.remove('ps-dragging');
      if (d.moved) return;
      if (e.type !== 'pointerup') return;
      const [sx, sy] = pos(e);
      const it = this.itemAt(sx, sy);
      if (it && e.shiftKey && !it.more) {
        this.focus = it.node;
        this.updateFocusUi();
        this.pick(it.node);
      } else if (it) this.activate(it, true);
    };
    c.addEventListener('pointerup', end);
    c.addEventListener('pointercancel', end);
    c.addEventListener('pointerleave', () => {
      if (!drag) this.setHover(null);
    });
    c.addEventListener('dblclick', (e) => {
      const [sx, sy] = pos(e);
      if (!this.itemAt(sx, sy)) this.fit(true);
    });
    c.addEventListener(
      'wheel',
      (e) => {
        if (!this.model) return;
        e.preventDefault();
        const [sx, sy] = pos(e);
        const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
        const factor = Math.exp(-delta * 0.0015);
        const k0 = this.cam.k;
        const k1 = Math.max(MIN_K, Math.min(MAX_K, k0 * factor));
        const wx = this.cam.x + sx / k0;
        const wy = this.cam.y + sy / k0;
        this.camTo = null;
        this.userMoved = true;
        this.cam = { x: wx - sx / k1, y: wy - sy / k1, k: k1 };
        this.hideTooltip();
        this.invalidate();
      },
      { passive: false },
    );
  }

  setHover(it, sx, sy) {
    const prev = this.hover;
    this.hover = it;
    if (!it) {
      this.hideTooltip();
      this.canvas.style.cursor = '';
    } else {
      this.canvas.style.cursor = 'pointer';
      if (it !== prev) this.fillTooltip(it);
      this.placeTooltip(sx, sy);
    }
    if (prev !== it) this.invalidate();
  }

  /** A click or Enter: focus the node, toggle it, and re-centre on it. */
  activate(it, fromPointer) {
    this.userMoved = true;
    // The layout changes under the pointer: the tooltip comes back on the next move.
    this.hover = null;
    this.hideTooltip();
    if (it.more) {
      const n = it.parentNode;
      const cur = this.limits.get(n) ?? this.siblings;
      const step = it.hidden <= 200 ? it.hidden : 100;
      this.limits.set(n, cur + step);
      const firstNew = this.orderedChildren(n)[cur];
      this.focus = firstNew || n;
      this.relayout(true);
      this.centerOn(this.focus, true);
      this.updateFocusUi();
      return;
    }
    const n = it.node;
    this.focus = n;
    if (n.children.length) {
      if (this.expanded.has(n)) {
        this.expanded.delete(n);
      } else {
        this.expanded.add(n);
        // SpaceTree: close branches off the path to this node, except the best line.
        for (const e of [...this.expanded]) {
          if (!this.isAncestorOrSelf(e, n) && !this.isPv(e)) this.expanded.delete(e);
        }
      }
    }
    this.relayout(true);
    this.centerOn(n, true);
    this.updateFocusUi();
  }

  isAncestorOrSelf(a, n) {
    for (let m = n; m; m = m.parent) if (m === a) return true;
    return false;
  }

  // -------------------------------------------------------------------------------------------
  // Keyboard

  bindKeys() {
    this.canvas.addEventListener('keydown', (e) => {
      if (!this.model) return;
      const it = this.focusItem();
      let handled = true;
      switch (e.key) {
        case 'ArrowLeft':
          if (it && it.parent) this.moveFocus(it.parent);
          break;
        case 'ArrowRight':
          if (it && !it.more && it.node.children.length) {
            if (!this.expanded.has(it.node)) this.activate(it, false);
            const kids = this.itemOf.get(it.node);
            const first = this.items.find((x) => x.parent === kids);
            if (first) this.moveFocus(first);
          }
          break;
        case 'ArrowUp':
        case 'ArrowDown': {
          if (!it) break;
          const col = this.columns[it.depth];
          const i = col.indexOf(it);
          const j = e.key === 'ArrowUp' ? i - 1 : i + 1;
          if (j >= 0 && j < col.length) this.moveFocus(col[j]);
          break;
        }
        case 'Enter':
        case ' ':
          if (it) {
            this.activate(it, false);
            this.tooltipForFocus();
          }
          break;
        case 'Escape':
          this.hideTooltip();
          break;
        case 'Home':
          this.moveFocus(this.itemOf.get(this.model.root));
          break;
        case 'f':
        case 'F':
          this.fit(true);
          break;
        case 'p':
        case 'P':
          this.resetExpansion(true);
          break;
        case 'c':
        case 'C':
          this.collapseAll();
          break;
        case 'e':
        case 'E':
          this.expandAll(3000);
          break;
        case '+':
        case '=':
          this.zoomBy(1.25);
          break;
        case 'w':
        case 'W':
          if (it && !it.more) this.pick(it.node);
          break;
        case 'n':
          this.findStep(1);
          break;
        case 'N':
          this.findStep(-1);
          break;
        case '/':
          this.findInput.focus();
          this.findInput.select();
          break;
        case 's':
        case 'S':
          this.downloadSubtree();
          break;
        case '-':
          this.zoomBy(0.8);
          break;
        default:
          handled = false;
      }
      if (handled) e.preventDefault();
    });
    this.canvas.addEventListener('focus', () => this.invalidate());
    this.canvas.addEventListener('blur', () => {
      if (!this.hover) this.hideTooltip();
    });
  }

  zoomBy(f) {
    const k1 = Math.max(MIN_K, Math.min(MAX_K, this.cam.k * f));
    const cx = this.cam.x + this.w / 2 / this.cam.k;
    const cy = this.cam.y + this.h / 2 / this.cam.k;
    this.setCamera(cx - this.w / 2 / k1, cy - this.h / 2 / k1, k1, true);
  }

  focusItem() {
    if (!this.focus) return null;
    if (this.focus.more) return this.itemOf.get(this.focus.key) || null;
    return this.itemOf.get(this.focus) || null;
  }

  moveFocus(it) {
    if (!it) return;
    this.userMoved = true;
    this.focus = it.more ? it : it.node;
    this.ensureVisible(it);
    this.updateFocusUi();
    this.tooltipForFocus();
    this.invalidate();
  }

  /** Keyboard users get the tooltip of the focused node, beside it. */
  tooltipForFocus() {
    const it = this.focusItem();
    if (!it) return;
    const cam = this.camTo || this.cam;
    const sx = (it.x + NODE_W / 2 - cam.x) * cam.k;
    const sy = (it.y - cam.y) * cam.k;
    this.fillTooltip(it);
    this.placeTooltip(sx, sy - 10);
    this.hover = null;
  }

  /** Focuses the next node (in depth-first order after the focus) whose move contains `query`, or `#id`. */
  findNext(query, dir = 1) {
    if (!this.model) return null;
    const q = query.trim().toLowerCase();
    if (!q) return null;
    const all = [];
    const stack = [this.model.root];
    while (stack.length) {
      const n = stack.pop();
      all.push(n);
      for (let k = n.children.length - 1; k >= 0; k--) stack.push(n.children[k]);
    }
    const match = q.startsWith('#')
      ? (n) => String(n.id) === q.slice(1)
      : (n) => n.label !== null && String(n.label).toLowerCase().includes(q);
    const hits = all.filter(match);
    if (!hits.length) {
      this.setStatus(`No node matches “${query.trim()}”.`);
      return null;
    }
    const cur = this.focus && !this.focus.more ? all.indexOf(this.focus) : -1;
    let pick;
    if (dir > 0) pick = hits.find((n) => all.indexOf(n) > cur) || hits[0];
    else pick = [...hits].reverse().find((n) => all.indexOf(n) < cur) || hits[hits.length - 1];
    this.focusById(pick.id, pick);
    this.setStatus(`Match ${hits.indexOf(pick) + 1} of ${hits.length}: ${this.describe(pick)}`);
    return pick;
  }

  /** Opens the path to `node` and, as a click does, closes the branches off it (except the best line). */
  revealPath(node) {
    this.userMoved = true;
    for (const e of [...this.expanded]) if (!this.isAncestorOrSelf(e, node) && !this.isPv(e)) this.expanded.delete(e);
    for (let m = node.parent; m; m = m.parent) this.expanded.add(m);
  }

  focusById(id, node = null) {
    if (node) {
      this.revealPath(node);
      this.focus = node;
      this.relayout(true);
      this.centerOn(node, true);
      this.updateFocusUi();
      return true;
    }
    if (!this.model) return false;
    const stack = [this.model.root];
    while (stack.length) {
      const n = stack.pop();
      if (String(n.id) === String(id)) {
        this.revealPath(n);
        this.focus = n;
        this.relayout(true);
        this.centerOn(n, true);
        this.updateFocusUi();
        return true;
      }
      for (const c of n.children) stack.push(c);
    }
    return false;
  }

  // -------------------------------------------------------------------------------------------
  // Focus description, breadcrumb

  updateFocusUi() {
    const f = this.focus;
    if (!f || !this.model) return;
    const node = f.more ? f.parentNode : f;
    const path = [];
    for (let m = node; m; m = m.parent) path.push(m);
    path.reverse();
    this.crumbs.replaceChildren();
    // Very deep paths: the first few steps, an ellipsis, the last forty.
    const cut = path.length > 50 ? [3, path.length - 40] : null;
    path.forEach((m, i) => {
      if (cut && i >= cut[0] && i < cut[1]) {
        if (i === cut[0]) this.crumbs.append(el('li', {}, el('span', { class: 'ps-crumb-gap', text: `… ${cut[1] - cut[0]} more …` })));
        return;
      }
      const b = el('button', { type: 'button', class: 'ps-crumb', text: nodeName(m) });
      if (i === path.length - 1 && !f.more) b.setAttribute('aria-current', 'location');
      b.addEventListener('click', () => {
        this.focus = m;
        if (m.children.length && !this.expanded.has(m)) this.expanded.add(m);
        this.relayout(true);
        this.centerOn(m, true);
        this.updateFocusUi();
        this.canvas.focus();
      });
      this.crumbs.append(el('li', {}, b));
    });
    if (f.more) this.crumbs.append(el('li', {}, el('span', { class: 'ps-crumb', text: `+${f.hidden} more` })));
    // The end of the path (the focus) is what matters: keep it in view.
    this.crumbNav.scrollLeft = this.crumbNav.scrollWidth;
    this.setStatus(this.describe(f));
    if (this.options.onFocus) this.options.onFocus({ node, moves: path.slice(1).map((m) => m.label), id: node.id });
  }

  setStatus(text) {
    this.status.textContent = text;
  }

  describe(f) {
    if (f.more) return `+${f.hidden} more siblings under ${nodeName(f.parentNode)}. Press Enter to show them.`;
    const n = f;
    const parts = [];
    parts.push(n.parent ? (n.label !== null ? `Move ${n.label}` : nodeName(n)) : 'Root');
    parts.push(`${KIND_NAMES[n.kind] || n.kind}${n.inferred ? ' (by depth)' : ''}`);
    if (n.kind === 'pruned') {
      parts.push(`stands for ${n.count ?? n.moves?.length ?? '?'} cut siblings`);
    } else if (n.kind === 'truncated') {
      parts.push(`${n.count ?? '?'} nodes not recorded`);
    } else {
      parts.push(n.value === null ? 'no value' : `value ${boundedScore(n.value, n.bound)}${n.bound && n.bound !== 'exact' ? ` (${n.bound} bound)` : ''}`);
    }
    if (n.visits !== null) parts.push(`${n.visits} visits`);
    if (n.prob !== null && n.visits === null) parts.push(`probability ${percent(n.prob)}`);
    parts.push(`depth ${n.depth}`);
    if (n.children.length) parts.push(`${n.children.length} children, ${this.expanded.has(n) ? 'expanded' : 'collapsed'}`);
    if (n.best && this.isPv(n)) parts.push('on the best line');
    return parts.join(', ') + '.';
  }

  // -------------------------------------------------------------------------------------------
  // Tooltip

  hideTooltip() {
    this.tooltip.hidden = true;
  }

  placeTooltip(sx, sy) {
    // Fixed to the window, so that a tall tooltip is not clipped by the view.
    const t = this.tooltip;
    t.hidden = false;
    const r = this.canvas.getBoundingClientRect();
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const tw = t.offsetWidth;
    const th = t.offsetHeight;
    const px = r.left + sx;
    const py = r.top + sy;
    let x = px + 16;
    let y = py + 16;
    if (x + tw > vw - 4) x = Math.max(4, px - tw - 16);
    if (y + th > vh - 4) y = Math.max(4, vh - th - 4);
    t.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  }

  fillTooltip(it) {
    const t = this.tooltip;
    t.replaceChildren();
    if (it.more) {
      t.append(el('div', { class: 'ps-tt-title', text: `+${it.hidden.toLocaleString('en')} more siblings` }));
      const orderName = { value: 'best first', prescore: 'by pre-score', search: 'in search order' }[this.order];
      t.append(el('div', { text: `Folded because only the first ${this.limits.get(it.parentNode) ?? this.siblings} (${orderName}) are shown. Click to show them.` }));
      return;
    }
    const n = it.node;
    const model = this.model;
    const title = n.parent ? nodeName(n) : 'Root';
    t.append(el('div', { class: 'ps-tt-title' }, el('span', { text: title }), el('span', { class: `ps-tt-kind ps-k-${n.kind}`, text: `${KIND_NAMES[n.kind] || n.kind}${n.inferred ? ' (by depth)' : ''}` })));
    const rows = [];
    const row = (k, v) => rows.push([k, v]);
    if (!n.parent) {
      const m = model.meta;
      if (model.chosen) {
        const ch = model.chosen;
        row('chosen move', `${ch.move ?? '?'}${ch.rank !== null ? ` (rank ${ch.rank})` : ''}${ch.reason ? `, ${ch.reason}` : ''}`);
      }
      if (n.kind !== 'pruned') row('value', boundedScore(n.value, n.bound));
      this.compareRows(n, row);
      for (const [k, label] of [['game', 'game'], ['algorithm', 'algorithm'], ['evaluator', 'evaluator'], ['perspective', 'perspective (max)'], ['engine', 'engine'], ['root_position', 'position'], ['note', 'note'], ['best_line', 'best line']]) {
        if (m[k] !== undefined) row(label, m[k]);
      }
      row('format', model.formatName);
      this.appendRows(t, rows);
      rows.length = 0;
      if (model.stats) {
        const s = model.stats;
        const statRows = [];
        const add = (k, label, f = (v) => Number(v).toLocaleString('en')) => {
          if (s[k] !== undefined && s[k] !== null) statRows.push([label, f(s[k])]);
        };
        add('nodes', 'nodes');
        add('leaves', 'leaves');
        add('time_ms', 'time', (v) => `${plainNumber(Number(v))} ms`);
        add('prune_events', 'prune events');
        add('pruned_nodes', 'pruned nodes');
        add('tt_hits', 'TT hits');
        add('depth_reached', 'depth reached');
        add('truncated', 'truncated', (v) => (v ? 'yes (node cap)' : 'no'));
        for (const [k, v] of Object.entries(s)) {
          if (!['nodes', 'leaves', 'time_ms', 'prune_events', 'pruned_nodes', 'tt_hits', 'depth_reached', 'truncated'].includes(k)) statRows.push([k, typeof v === 'object' ? JSON.stringify(v) : String(v)]);
        }
        t.append(el('div', { class: 'ps-tt-sub', text: 'Run statistics' }));
        this.appendRows(t, statRows, true);
      } else {
        t.append(el('div', { class: 'ps-tt-sub', text: 'Tree' }));
        this.appendRows(t, [['nodes', model.count.toLocaleString('en')], ['depth', String(maxDepth(model.root))]]);
      }
      if (model.settings && model.settings.length) {
        t.append(el('div', { class: 'ps-tt-sub', text: 'Settings' }));
        this.appendRows(t, model.settings.map(([k, v]) => [k.replace(/_/g, ' '), typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)]), true);
      }
    } else if (n.kind === 'pruned') {
      const count = n.count ?? n.moves?.length ?? 0;
      row('stands for', `${count} sibling${count === 1 ? '' : 's'} cut at once`);
      if (n.moves && n.moves.length) row('moves', n.moves.slice(0, 40).join(' ') + (n.moves.length > 40 ? ` … (${n.moves.length})` : ''));
      if (n.reason) row('reason', n.reason === 'branching_limit' ? 'branching limit' : n.reason === 'alphabeta' ? 'alpha-beta cut-off' : n.reason);
      if (n.cutoff) {
        const cf = n.cutoff;
        const by = cf.by !== null && n.parent ? n.parent.children.find((s) => String(s.id) === String(cf.by)) : null;
        if (cf.by !== null) row('cut by', by ? `${nodeName(by)} (id ${cf.by}, outlined in red)` : `node ${cf.by}`);
        if (cf.value !== null) row('its value', scoreText(cf.value));
        row('window', windowText(cf.alpha, cf.beta));
        if (cf.value !== null) {
          const p = n.parent;
          if (p && p.kind === 'max' && cf.beta !== null) row('why', `${scoreText(cf.value)} ≥ β ${scoreText(cf.beta)}: the min player above avoids this line`);
          else if (p && p.kind === 'min' && cf.alpha !== null) row('why', `${scoreText(cf.value)} ≤ α ${scoreText(cf.alpha)}: the max player above avoids this line`);
        }
      }
      this.appendRows(t, rows);
    } else if (n.kind === 'truncated') {
      row('stands for', `${n.count ?? '?'} nodes searched but not recorded (the node cap was reached)`);
      this.appendRows(t, rows);
    } else {
      row('value', `${boundedScore(n.value, n.bound)}${n.bound && n.bound !== 'exact' ? ` (${n.bound} bound: ${n.bound === 'lower' ? 'fail-high' : 'fail-low'})` : ''}`);
      if (n.value !== null && Math.abs(n.value) >= 1e4) row('raw value', plainNumber(n.value));
      if (n.alpha !== null || n.beta !== null) row('window (α, β)', windowText(n.alpha, n.beta));
      if (n.prob !== null) row(n.visits !== null ? 'prior' : 'probability', n.visits !== null ? plainNumber(n.prob) : percent(n.prob));
      if (n.tt) row('TT', 'answered from the transposition table');
      this.compareRows(n, row);
      if (n.best) row('best line', this.isPv(n) ? 'yes' : 'best among its siblings');
      const sib = siblingFacts(n);
      if (sib) {
        if (sib.valueRank) row('among siblings', `${ordinal(sib.valueRank)} of ${sib.count} by value for ${n.parent.kind === 'max' ? 'max' : 'min'}${sib.gap ? `, ${sib.gap} behind the best` : ''}`);
        row('searched', `${ordinal(sib.searched)} of ${sib.total}${sib.preRank ? `; ${ordinal(sib.preRank)} by pre-score` : ''}`);
      }
      if (n.children.length) row('children', `${n.children.length} (subtree ${n.size.toLocaleString('en')} nodes)`);
      if (n.kind === 'chance' && n.children.length) {
        const outs = n.children.filter((c) => c.prob !== null);
        const sum = outs.reduce((a, c) => a + c.prob, 0);
        const ev = outs.every((c) => c.value !== null) ? outs.reduce((a, c) => a + c.prob * c.value, 0) : null;
        row('outcomes', `${outs.length}, probabilities summing to ${percent(sum)}${ev !== null ? `; Σ p·value = ${scoreText(ev)}` : ''}`);
      }
      const path = [];
      for (let m = n; m && m.parent; m = m.parent) {
        if (path.length === 30) {
          path.push('…');
          break;
        }
        path.push(nodeName(m));
      }
      path.reverse();
      row('line', path.join(' '));
      this.appendRows(t, rows);
    }
    if (n.extra && n.extra.length) {
      t.append(el('div', { class: 'ps-tt-sub', text: 'Data' }));
      this.appendRows(t, n.extra.slice(0, 40));
    }
    if (n.prescore) this.appendBreakdown(t, n.prescore, n.kind === 'leaf' || n.kind === 'terminal' ? 'Pre-score (ordering)' : 'Pre-score breakdown (ordering)');
    if (n.eval) this.appendBreakdown(t, n.eval, 'Evaluation breakdown');
    if (n.kind !== 'pruned' && n.kind !== 'truncated') t.append(el('div', { class: 'ps-tt-hint', text: this.picks.length === 1 && this.picks[0] !== n ? `Shift-click or W: compare with ${nodeName(this.picks[0])} (why A and not B)` : 'Shift-click or W: pick for “why A and not B”' }));
    // The page may add to the tooltip (a board preview of the node's position, say).
    if (this.options.decorateTooltip) {
      const moves = [];
      for (let m = n; m && m.parent; m = m.parent) moves.push(m.label);
      moves.reverse();
      this.options.decorateTooltip(t, { node: n, moves, model: this.model });
    }
  }

  /** Tooltip rows about the compared search: its value here and its best move. */
  compareRows(n, row) {
    if (!this.diff) return;
    const d = this.diff.diff.get(n);
    if (!d) {
      row('other search', 'no node with these moves');
      return;
    }
    const o = d.other;
    const change = d.valueChanged && n.value !== null && o.value !== null ? `, changed by ${signed(n.value - o.value)}` : d.valueChanged ? ', changed' : ', unchanged';
    row('other search', `${boundedScore(o.value, o.bound)}${change}`);
    if (d.bestChanged) row('best move', `${d.bestThere} there → ${d.bestHere} here`);
  }

  appendRows(t, rows, wide = false) {
    if (!rows.length) return;
    const dl = el('dl', { class: wide && rows.length > 4 ? 'ps-tt-rows ps-wide' : 'ps-tt-rows' });
    for (const [k, v] of rows) dl.append(el('dt', { text: k }), el('dd', { text: v }));
    t.append(dl);
  }

  appendBreakdown(t, b, title) {
    t.append(el('div', { class: 'ps-tt-sub', text: title }));
    const table = el('table', { class: 'ps-terms' });
    table.append(el('thead', {}, el('tr', {}, el('th', { text: 'term' }), el('th', { text: 'raw' }), el('th', { text: 'weight' }), el('th', { text: 'contribution' }))));
    const body = el('tbody');
    for (const term of b.terms.slice(0, 60)) {
      const tr = el('tr', {}, el('td', { text: term.name }), el('td', { text: plainNumber(term.raw) }), el('td', { text: plainNumber(term.weight) }), el('td', { text: signed(term.value) }));
      if (term.value !== null && term.value < 0) tr.className = 'ps-neg';
      body.append(tr);
    }
    table.append(body);
    table.append(el('tfoot', {}, el('tr', {}, el('td', { text: 'total' }), el('td'), el('td'), el('td', { text: b.total === null ? '–' : signed(b.total) }))));
    t.append(table);
  }

  nodeBox(id) {
    const it = this.items.find((i) => !i.more && String(i.node.id) === String(id)) || (id === 'more' ? this.items.find((i) => i.more) : null);
    if (!it) return null;
    const r = this.canvas.getBoundingClientRect();
    const k = this.cam.k;
    return { x: r.left + (it.x - this.cam.x) * k, y: r.top + (it.y - this.cam.y) * k, width: NODE_W * k, height: NODE_H * k };
  }

  viewStats() {
    return { shown: this.items.length, drawn: this.lastDrawn, zoom: this.cam.k, nodes: this.model ? this.model.count : 0, lastLoadMs: this.lastLoadMs, layoutPending: !!this.pendingLayout, draw: this.drawStats ?? null };
  }

  // -------------------------------------------------------------------------------------------
  // "Why A and not B"

  /** Picks (or unpicks) a node for the comparison; a third pick replaces the older one. */
  pick(node) {
    if (!node || node.more) return;
    const i = this.picks.indexOf(node);
    if (i >= 0) this.picks.splice(i, 1);
    else {
      this.picks.push(node);
      if (this.picks.length > 2) this.picks.shift();
    }
    this.renderWhy();
    this.invalidate();
  }

  whyByIds(idA, idB) {
    if (!this.model) return null;
    const a = findAll(this.model.root, (n) => String(n.id) === String(idA))[0];
    const b = findAll(this.model.root, (n) => String(n.id) === String(idB))[0];
    if (!a || !b) return null;
    this.picks = [a, b];
    this.renderWhy();
    this.invalidate();
    return whyCompare(a, b);
  }

  swapPicks() {
    this.picks.reverse();
    this.renderWhy();
    this.invalidate();
  }

  clearPicks() {
    this.picks = [];
    this.renderWhy();
    this.invalidate();
  }

  renderWhy() {
    const body = this.whyBody;
    body.replaceChildren();
    if (!this.picks.length) {
      this.whyPanel.hidden = true;
      return;
    }
    this.whyPanel.hidden = false;
    const [a, b] = this.picks;
    if (!b) {
      body.append(el('p', { text: `A = ${nodeName(a)} (${scoreText(a.value)}). Now pick B: shift-click another node, or focus it and press W.` }));
      this.setStatus(`Picked ${nodeName(a)} as A; pick B to compare.`);
      return;
    }
    const w = whyCompare(a, b);
    const na = nodeName(a);
    const nb = nodeName(b);
    body.append(el('p', { class: 'ps-why-title', text: `Why ${na} and not ${nb}?` }));
    // Who prefers what: siblings under a max or min node are judged by that player.
    let verdict;
    const p = a.parent && a.parent === b.parent ? a.parent : null;
    if (w.valueDiff === null) verdict = 'One of them has no value.';
    else if (w.valueDiff === 0) verdict = `Both are worth ${scoreText(a.value)}: a tie${a.best ? `; ${na} is the one on the best line` : b.best ? `; ${nb} is the one on the best line` : ''}.`;
    else if (p && (p.kind === 'max' || p.kind === 'min')) {
      const aBetter = p.kind === 'max' ? w.valueDiff > 0 : w.valueDiff < 0;
      const [win, lose] = aBetter ? [na, nb] : [nb, na];
      verdict = `The ${p.kind} player at ${nodeName(p)} prefers ${win}: ${scoreText(aBetter ? a.value : b.value)} against ${scoreText(aBetter ? b.value : a.value)}, ${compactNumber(Math.abs(w.valueDiff))} ${p.kind === 'max' ? 'higher' : 'lower'} than ${lose}.`;
    } else verdict = `${na} is worth ${scoreText(a.value)}, ${nb} ${scoreText(b.value)}: A − B = ${signed(w.valueDiff)}.`;
    body.append(el('p', { class: 'ps-why-verdict', 'data-testid': 'why-verdict', text: verdict }));
    const lineText = (side) => {
      const moves = side.line.map((m) => nodeName(m));
      const end = side.end;
      const tail = side.line.length ? ` → ${KIND_NAMES[end.kind] || end.kind} ${scoreText(end.value)}` : ' (no continuation recorded)';
      return `${side.path.length ? side.path.join(' ') : 'root'}${moves.length ? ` | ${moves.join(' ')}` : ''}${tail}`;
    };
    const dl = el('dl', { class: 'ps-tt-rows ps-why-lines' });
    dl.append(el('dt', { text: 'A line' }), el('dd', { 'data-testid': 'why-line-a', text: lineText(w.a) }));
    dl.append(el('dt', { text: 'B line' }), el('dd', { 'data-testid': 'why-line-b', text: lineText(w.b) }));
    body.append(dl);
    const tables = el('div', { class: 'ps-why-tables' });
    const table = (cmp, title, testid) => {
      const box = el('div', { class: 'ps-why-table' }, el('div', { class: 'ps-tt-sub', text: title }));
      const t = el('table', { class: 'ps-terms', 'data-testid': testid });
      t.append(el('thead', {}, el('tr', {}, el('th', { text: 'term' }), el('th', { text: `A ${na}` }), el('th', { text: `B ${nb}` }), el('th', { text: 'A − B' }))));
      const tb = el('tbody');
      const rows = [...cmp.rows].sort((x, y) => Math.abs(y.diff) - Math.abs(x.diff));
      for (const r of rows.slice(0, 60)) {
        const tr = el('tr', {}, el('td', { text: r.name }), el('td', { text: signed(r.a) }), el('td', { text: signed(r.b) }), el('td', { text: signed(r.diff) }));
        if (r.diff < 0) tr.className = 'ps-neg';
        else if (r.diff > 0) tr.className = 'ps-pos';
        tb.append(tr);
      }
      t.append(tb);
      t.append(el('tfoot', {}, el('tr', {}, el('td', { text: 'total' }), el('td', { text: signed(cmp.totalA) }), el('td', { text: signed(cmp.totalB) }), el('td', { text: signed(cmp.diff) }))));
      box.append(t);
      tables.append(box);
    };
    if (w.eval) table(w.eval, `Evaluation at the end of each line (${nodeName(w.a.end)} vs ${nodeName(w.b.end)})`, 'why-eval');
    if (w.prescore) table(w.prescore, 'Pre-score of A and B (move ordering)', 'why-prescore');
    if (!w.eval && !w.prescore) body.append(el('p', { class: 'ps-hint', text: 'Neither node nor its line has a term breakdown in this document.' }));
    body.append(tables);
    this.setStatus(`${verdict} Terms compared below the view.`);
    // Bring the panel's top into sight without moving the view away (after the layout settles).
    requestAnimationFrame(() => {
      const r = this.whyPanel.getBoundingClientRect();
      if (r.top > window.innerHeight - 80 && this.whyPanel.scrollIntoView) this.whyPanel.scrollIntoView({ block: 'nearest' });
    });
  }

  // -------------------------------------------------------------------------------------------
  // Find

  findQuery() {
    return { text: this.findInput.value, depth: this.findDepth.value, min: this.findMin.value, max: this.findMax.value, signDiffers: this.findSign.checked };
  }

  /** Steps to the next (dir 1) or previous (-1) node matching the find bar's criteria. */
  findStep(dir = 1) {
    if (!this.model) return null;
    const q = this.findQuery();
    const key = JSON.stringify(q);
    if (!this.findState || this.findState.key !== key || this.findState.model !== this.model) {
      const pred = matcher(q);
      if (!pred) {
        this.findState = null;
        this.findCount.textContent = '';
        this.setStatus('Type a move or #id, or give a depth, a value range or tick the sign test.');
        this.invalidate();
        return null;
      }
      const hits = findAll(this.model.root, pred);
      this.findState = { key, model: this.model, hits, set: new Set(hits), at: -1 };
      this.buildLegend();
    }
    const st = this.findState;
    const what = q.text.trim() || 'the criteria';
    if (!st.hits.length) {
      this.findCount.textContent = '0 of 0';
      this.setStatus(`No node matches “${what}”.`);
      this.invalidate();
      return null;
    }
    if (st.at < 0) {
      // First step: the first match after (or before) the focus in depth-first order.
      st.at = this.firstHitFrom(st.hits, dir);
    } else st.at = (st.at + dir + st.hits.length) % st.hits.length;
    const pick = st.hits[st.at];
    this.focusById(pick.id, pick);
    this.findCount.textContent = `${st.at + 1} of ${st.hits.length}`;
    const why = q.signDiffers && staticScore(pick) !== null ? ` Its ${pick.eval ? 'evaluation' : 'pre-score'} is ${scoreText(staticScore(pick))}, its backed-up value ${scoreText(pick.value)}.` : '';
    this.setStatus(`Match ${st.at + 1} of ${st.hits.length}: ${this.describe(pick)}${why}`);
    return pick;
  }

  /** The index of the first hit after the focus (dir 1) or before it (dir -1), in pre-order. */
  firstHitFrom(hits, dir) {
    const f = this.focus && !this.focus.more ? this.focus : null;
    if (!f) return dir > 0 ? 0 : hits.length - 1;
    // Pre-order positions of the focus and hits: compare the paths from the root.
    const pos = new Map();
    let i = 0;
    const stack = [this.model.root];
    const want = new Set(hits);
    want.add(f);
    while (stack.length && pos.size < want.size) {
      const n = stack.pop();
      if (want.has(n)) pos.set(n, i);
      i++;
      for (let k = n.children.length - 1; k >= 0; k--) stack.push(n.children[k]);
    }
    const at = pos.get(f) ?? -1;
    if (dir > 0) {
      const j = hits.findIndex((h) => pos.get(h) > at);
      return j < 0 ? 0 : j;
    }
    for (let j = hits.length - 1; j >= 0; j--) if (pos.get(hits[j]) < at) return j;
    return hits.length - 1;
  }

  /** Finds by move text or #id (the find box), keeping the other criteria; dir 1 next, -1 previous. */
  findNext(query, dir = 1) {
    if (typeof query === 'string' && query !== this.findInput.value) this.findInput.value = query;
    else if (query && typeof query === 'object') {
      this.findInput.value = query.text ?? '';
      this.findDepth.value = query.depth ?? '';
      this.findMin.value = query.min ?? '';
      this.findMax.value = query.max ?? '';
      this.findSign.checked = !!query.signDiffers;
    }
    return this.findStep(dir);
  }

  // -------------------------------------------------------------------------------------------
  // Compare two searches

  openCompare() {
    this.comparePanel.hidden = false;
    this.compareText.focus();
    if (this.comparePanel.scrollIntoView) this.comparePanel.scrollIntoView({ block: 'nearest' });
  }

  /** Loads the other search (text or parsed document) and compares; resolves to the summary. */
  async compareWith(src, name = 'the other search') {
    let result;
    if (typeof src === 'string') {
      if (src.length > WORKER_THRESHOLD && typeof Worker !== 'undefined') {
        result = await Promise.resolve()
          .then(() => this.parseInWorker(src))
          .catch(() => importText(src));
        if (result.ok && result.wire) result = { ok: true, model: await fromWireInSlices(result.wire, { yieldNow: yieldToFrame }) };
      } else result = importText(src);
    } else result = importValue(src);
    if (!result.ok) {
      this.compareError.textContent = `${result.error.message}. The comparison is unchanged.`;
      this.compareError.hidden = false;
      this.setStatus(`Compare: ${result.error.message}.`);
      return { ok: false, error: result.error };
    }
    this.compareError.textContent = '';
    this.comparePanel.hidden = false;
    this.other = { model: result.model, name };
    this.recomputeDiff();
    return { ok: true, ...this.comparisonSummary() };
  }

  clearCompare() {
    this.other = null;
    this.diff = null;
    this.compareSummary.textContent = '';
    this.compareError.textContent = '';
    this.buildLegend();
    this.invalidate();
  }

  recomputeDiff() {
    if (!this.other || !this.model) {
      this.diff = null;
      return;
    }
    const t0 = performance.now();
    this.diff = diffTrees(this.model.root, this.other.model.root);
    this.diff.ms = performance.now() - t0;
    this.compareSummary.textContent = this.comparisonSummary().text;
    this.buildLegend();
    this.invalidate();
  }

  comparisonSummary() {
    const d = this.diff;
    if (!d) return null;
    const rb = d.rootBest;
    const best = rb.here === rb.there ? `best move ${rb.here ?? '?'} in both` : `best move ${rb.there ?? '?'} → ${rb.here ?? '?'}`;
    const parts = [best, `${d.valueChanged.toLocaleString('en')} node${d.valueChanged === 1 ? '' : 's'} changed value`, `best move changed at ${d.bestChanged.toLocaleString('en')} node${d.bestChanged === 1 ? '' : 's'}`, `${d.matched.toLocaleString('en')} matched`];
    if (d.onlyHere) parts.push(`${d.onlyHere.toLocaleString('en')} only in this search`);
    if (d.onlyThere) parts.push(`${d.onlyThere.toLocaleString('en')} only in the other`);
    const text = `From ${this.other.name} to this search: ${parts.join('; ')}.`;
    return { text, bestThere: rb.there, bestHere: rb.here, valueChanged: d.valueChanged, bestChanged: d.bestChanged, matched: d.matched, onlyHere: d.onlyHere, onlyThere: d.onlyThere };
  }

  // -------------------------------------------------------------------------------------------
  // Subtree export

  subtreeDoc(id) {
    if (!this.model) return null;
    let node;
    if (id !== undefined && id !== null) node = findAll(this.model.root, (n) => String(n.id) === String(id))[0];
    else node = this.focus && this.focus.more ? this.focus.parentNode : this.focus;
    if (!node) return null;
    return subtreeDocument(this.model, node);
  }

  downloadSubtree() {
    const doc = this.subtreeDoc();
    if (!doc) return;
    let text;
    try {
      text = JSON.stringify(doc, null, 1);
    } catch (e) {
      this.setStatus(`Cannot write this subtree as JSON: ${e.message}.`);
      return;
    }
    const path = doc.subtree.path.map((m) => String(m).replace(/[^\w-]+/g, '')).filter(Boolean).join('-');
    const blob = new Blob([text], { type: 'application/json' });
    const a = el('a', { href: URL.createObjectURL(blob), download: `${doc.game && doc.game !== 'unknown' ? doc.game : 'tree'}-subtree${path ? `-${path.slice(0, 60)}` : ''}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    this.setStatus(`Saved the subtree under ${nodeName(this.subtreeRoot())} (${(doc.stats.nodes + 1).toLocaleString('en')} nodes).`);
  }

  subtreeRoot() {
    return this.focus && this.focus.more ? this.focus.parentNode : this.focus;
  }

  // -------------------------------------------------------------------------------------------
  // Drag and drop of files

  bindDrop() {
    const r = this.root;
    r.addEventListener('dragover', (e) => {
      if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) {
        e.preventDefault();
        r.classList.add('ps-dropping');
      }
    });
    r.addEventListener('dragleave', (e) => {
      if (e.target === r || !r.contains(e.relatedTarget)) r.classList.remove('ps-dropping');
    });
    r.addEventListener('drop', (e) => {
      r.classList.remove('ps-dropping');
      const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
      if (f) {
        e.preventDefault();
        this.loadFile(f);
      }
    });
  }
}

function ordinal(k) {
  const s = k % 100 >= 11 && k % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][k % 10] || 'th';
  return `${k}${s}`;
}

/**
 * Where a node stands among its siblings: its rank by value for the parent's player and the gap to
 * the best, its place in the search order, its rank by pre-score. Null at the root.
 */
function siblingFacts(n) {
  const p = n.parent;
  if (!p) return null;
  const sibs = p.children;
  const out = { total: sibs.length, searched: sibs.indexOf(n) + 1, count: 0, valueRank: 0, gap: '', preRank: 0 };
  const better = p.kind === 'max' ? (a, b) => a > b : p.kind === 'min' ? (a, b) => a < b : null;
  if (better && n.value !== null) {
    const vals = sibs.filter((s) => s.value !== null && s.kind !== 'pruned' && s.kind !== 'truncated').map((s) => s.value);
    out.count = vals.length;
    out.valueRank = 1 + vals.filter((v) => better(v, n.value)).length;
    const best = vals.reduce((b, v) => (better(v, b) ? v : b), vals[0]);
    if (best !== n.value && !isMate(best) && !isMate(n.value)) out.gap = compactNumber(Math.abs(best - n.value));
  }
  if (better && n.prescore && n.prescore.total !== null) {
    const pres = sibs.filter((s) => s.prescore && s.prescore.total !== null).map((s) => s.prescore.total);
    out.preRank = 1 + pres.filter((v) => better(v, n.prescore.total)).length;
  }
  return out;
}

/** A node's name in the breadcrumb, the tooltip title and the status line. */
function nodeName(n) {
  if (!n.parent) return n.label ?? 'root';
  if (n.label !== null && n.label !== '') return n.label;
  if (n.kind === 'pruned') return `${n.count ?? n.moves?.length ?? '?'} pruned`;
  if (n.kind === 'truncated') return `${n.count ?? '?'} unrecorded`;
  return n.id !== null ? `#${n.id}` : '?';
}

function moreKey(n) {
  return `more:${n.id}:${n.depth}:${n.label}`;
}

function signed(v) {
  if (v === null || v === undefined) return '–';
  const s = plainNumber(v);
  return v > 0 ? `+${s}` : s;
}

function maxDepth(root) {
  let d = 0;
  const stack = [root];
  while (stack.length) {
    const n = stack.pop();
    if (n.depth > d) d = n.depth;
    for (const c of n.children) stack.push(c);
  }
  return d;
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

function prefersReducedMotion() {
  return typeof matchMedia !== 'undefined' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}
