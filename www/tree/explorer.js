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
//   onAnalyse({ game, rootPosition, moves, nodeId }): "Analyse from here" on a node (also a
//     `ps-analyse` event on the explorer's element); without it the button is not shown
//
// Everything taken from a document is drawn with fillText or set with textContent: never as HTML.
//
// The explorer is split by job; each module adds the methods of one job to the Explorer below, which
// holds the state they share (the model, what is expanded, the shown items, the camera, the focus):
//   view.js (expansion, order, layout)  camera.js  renderer.js  input.js  tooltip.js  status.js
//   find.js  why.js  compare.js  details.js (the selected node: touch's way in)  replay.js
// and the shared tree walk in walk.js.

import { SYNC_LAYOUT_MAX, WORKER_THRESHOLD, POST_PART, COLORS, FIT_MIN_K } from './constants.js';
import { el, addCss, yieldToFrame, saveBlob } from './dom.js';
import { nodeName, useScale } from './format.js';
import { findById } from './walk.js';
import { movePath, subtreeDocument } from './analysis.js';
import { importText, importValue, toDocument, fromWireInSlices, BudgetError } from './import.js';
import { binaryModel } from './binary.js';
import { binaryToCompactParts, modelToCompactParts } from './compact-write.js';
import { viewMethods } from './view.js';
import { cameraMethods } from './camera.js';
import { rendererMethods } from './renderer.js';
import { inputMethods } from './input.js';
import { tooltipMethods } from './tooltip.js';
import { statusMethods } from './status.js';
import { findMethods } from './find.js';
import { whyMethods } from './why.js';
import { compareMethods, positionsDiffer } from './compare.js';
import { detailsMethods } from './details.js';
import { replayMethods } from './replay.js';

// The page's budget: larger documents are refused with their size (the tree on screen stays). A
// million nodes are known to open (tests/e2e/tree-scale.test.mjs); twice that is allowed.
export const DOCUMENT_BUDGET_CHARS = 400e6;
export const TREE_BUDGET_NODES = 2_000_000;

/** The folder of the bundled example documents (www/examples/), wherever the page is. */
export const EXAMPLES_URL = new URL('../examples/', import.meta.url).href;

export { COLORS };

/** `pendingDoc` when the document to show in the textarea is the model's own (a binary tree). */
const FROM_MODEL = Symbol('from the model');

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
    /** Visits mode (trees with visits): { offered, on, order }. */
    visits: () => ({ offered: !x.visitsField.hidden, on: x.visitsMode, order: x.order }),
    focus: (id) => x.focusById(id),
    /** Selects a node (by id) and shows its details panel, as a tap does; false when there is none. */
    select: (id) => {
      const n = x.nodeById(id);
      if (n) {
        x.revealPath(n);
        x.relayout(false);
        x.select(n);
      }
      return !!n;
    },
    /** The replay: open() (stopped at step 0; returns the number of steps), goTo(step), step(±1), cut(±1), play(), pause(), state(), close(). */
    replay: {
      open: () => x.openReplay(),
      goTo: (s) => (x.replayGoTo(s), x.replayState()),
      step: (d = 1) => (x.replayStep(d), x.replayState()),
      cut: (dir = 1) => (x.replayCut(dir), x.replayState()),
      play: () => x.replayPlay(),
      pause: () => x.replayPause(),
      state: () => x.replayState(),
      close: () => x.closeReplay(),
    },
    /** "Analyse from here" on a node (by id): what it hands to options.onAnalyse, or null. */
    analyse: (id) => {
      const n = x.nodeById(id);
      return n ? x.analyseFrom(n) : null;
    },
    expandAll: (maxNodes) => x.expandAll(maxNodes),
    collapseAll: () => x.collapseAll(),
    showBestLine: () => x.resetExpansion(true),
    fit: () => x.fit(true, FIT_MIN_K),
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
    /** The texts of the shown boxes, [move, value, tag] each, in layout order (for tests). */
    boxTexts: () => x.items.map((it) => x.nodeLines(it)),
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
    this.shownHistory = []; // documents shown before, for "compare with an earlier search" (compare.js)
    this.previousIteration = null;
    this.diff = null; // diffTrees(shown root, other root)
    this.findState = null; // { key, hits, index: Map(node -> position), at }
    this.timings = { parseMs: null, layoutMs: null, drawMs: null, loadMs: null };
    this.build(container);
    if (options.example) this.loadUrl(options.example);
  }

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
    this.orderSelect = el('select', { class: 'ps-select', 'aria-label': 'Order of siblings' }, el('option', { value: 'value', text: 'best first' }), el('option', { value: 'prescore', text: 'by pre-score' }), el('option', { value: 'search', text: 'search order' }), el('option', { value: 'visits', text: 'by visits' }));
    this.orderSelect.value = this.order;
    this.orderSelect.addEventListener('change', () => {
      this.order = this.orderSelect.value;
      this.ordered = new WeakMap();
      this.relayout(true);
    });
    // Visits mode (trees with visit counts, e.g. MCTS): siblings by visits, each box and edge
    // weighted by its share of its parent's visits. On by default for such trees.
    this.visitsMode = false;
    this.visitsWanted = true;
    this.visitsInput = el('input', { type: 'checkbox', 'data-testid': 'visits-mode', 'aria-label': 'Visits mode: order and weigh nodes by visits' });
    this.visitsInput.addEventListener('change', () => {
      this.visitsWanted = this.visitsInput.checked;
      this.setVisitsMode(this.visitsInput.checked);
    });
    this.visitsField = el('label', { class: 'ps-field', title: 'Order siblings by visits and weigh boxes and edges by their share of the visits', hidden: true }, this.visitsInput, ' Visits');
    const findBar = this.buildFindBar();
    this.buildWhyPanel();
    this.buildComparePanel();
    this.buildDetailsPanel();
    this.buildReplayPanel();
    const toolbar = el(
      'div',
      { class: 'ps-toolbar', role: 'toolbar', 'aria-label': 'Tree view controls' },
      this.detected,
      el('button', { type: 'button', text: 'Fit', title: 'Fit the shown nodes in the view (F)', onclick: () => this.fit(true, FIT_MIN_K) }),
      el('button', { type: 'button', text: 'Best line', title: 'Show the principal variation (P)', onclick: () => this.resetExpansion(true) }),
      el('button', { type: 'button', text: 'Collapse', title: 'Collapse everything below the root (C)', onclick: () => this.collapseAll() }),
      el('button', { type: 'button', text: 'Replay', title: 'Replay the search step by step (R)', 'data-testid': 'replay-open', onclick: () => this.openReplay() }),
      el('button', { type: 'button', text: 'Expand all', title: 'Open every node, breadth first, up to 3,000 shown (E)', onclick: () => this.expandAll(3000) }),
      el('label', { class: 'ps-field' }, 'Siblings ', this.siblingsInput),
      el('label', { class: 'ps-field' }, 'Order ', this.orderSelect),
      this.visitsField,
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
    this.info = el('div', { class: 'ps-info', 'data-testid': 'tree-info' });
    this.stage = el('div', { class: 'ps-stage', 'data-testid': 'tree-view' }, this.canvas, this.tooltip, this.empty);
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
    this.root = el('div', { class: 'ps-explorer' }, toolbar, findBar, el('div', { class: 'ps-pathbar' }, crumbNav, this.info), this.stage, this.legend, this.replayPanel, this.detailsPanel, this.whyPanel, this.status, this.comparePanel, this.editor);
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
      if (result.ok && result.packed && seq === this.loadSeq) {
        try {
          result = { ok: true, model: binaryModel(result.packed) };
        } catch (e) {
          result = { ok: false, error: { kind: 'structure', message: `Not a valid tree: ${e.message}` } };
        }
      }
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

  /**
   * Shows a parsed document (an object, as the engine's worker returns it), a JSON text, or a tree
   * in binary form (`{...header, packed: ArrayBuffer}`, as the worker sends search trees; the
   * result is then a promise: its nodes are built in slices).
   */
  showDocument(doc, opts = {}) {
    if (typeof doc === 'string') return this.loadText(doc, 'engine', opts);
    if (doc && doc.packed instanceof ArrayBuffer) return this.loadBinary(doc, opts);
    this.loadSeq++;
    const result = importValue(doc, this.budget);
    if (!result.ok) {
      this.showError(result.error.message);
      return { ok: false, error: result.error };
    }
    this.setModel(result.model, null, doc, opts);
    return { ok: true, format: result.model.format, nodes: result.model.count };
  }

  /** Shows a tree in binary form (see showDocument); resolves like loadText. */
  async loadBinary(doc, opts = {}) {
    const seq = ++this.loadSeq;
    const t0 = performance.now();
    const size = doc.packed.byteLength >= 16 ? new Uint32Array(doc.packed, 8, 1)[0] : 0;
    if (size > this.budget.maxNodes) {
      const e = new BudgetError('nodes', size, this.budget.maxNodes);
      this.showError(`Too large: ${e.message}`);
      return { ok: false, error: { kind: 'budget', message: e.message } };
    }
    let model;
    try {
      model = binaryModel(doc.packed);
    } catch (e) {
      if (seq === this.loadSeq) this.showError(`Could not read the engine's tree: ${e.message}`);
      return { ok: false, error: { kind: 'structure', message: String(e.message) } };
    }
    if (!model || seq !== this.loadSeq) return { ok: false, superseded: true };
    this.timings.parseMs = performance.now() - t0;
    this.paintFrom = t0;
    this.setModel(model, null, null, opts);
    this.packedDoc = doc;
    this.lastLoadMs = performance.now() - t0;
    this.timings.loadMs = this.lastLoadMs;
    return { ok: true, format: model.format, nodes: model.count, ms: this.lastLoadMs };
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

  /** Offers visits mode for a tree whose root has visits (and turns it on unless unticked). */
  modelVisits(model) {
    const has = model.root.visits !== null && model.root.visits !== undefined;
    this.visitsField.hidden = !has;
    this.setVisitsMode(has && this.visitsWanted, false);
  }

  /** Visits mode on or off: siblings by visits and weighted boxes, or back to best first. */
  setVisitsMode(on, relayout = true) {
    this.visitsMode = on;
    this.visitsInput.checked = on;
    if (on) this.order = 'visits';
    else if (this.order === 'visits') this.order = 'value';
    this.orderSelect.value = this.order;
    this.ordered = new WeakMap();
    if (relayout) this.relayout(true);
  }

  setModel(model, text, doc, opts = {}) {
    // keepView (a live view updated every iteration): keep what is open, the focus and the camera,
    // matched by moves from the root.
    const keep = opts.keepView && this.model ? { open: [...this.expanded].map((n) => movePath(n)), limits: [...this.limits].map(([n, v]) => [movePath(n), v]), focus: this.focus && !this.focus.more ? movePath(this.focus) : [], cam: { ...this.cam }, moved: this.userMoved, fitMinK: this.fitMinK } : null;
    this.model = model;
    useScale(model.values);
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
    this.modelVisits(model);
    // The previous tree's items stay drawn (inert: see itemAt) until the new layout is in place.
    this.leaving = [];
    this.hover = null;
    this.hideTooltip();
    this.sourceDoc = doc ?? null;
    this.packedDoc = null;
    // The textarea shows the document, unless it is too large to edit comfortably.
    this.pendingText = text ?? null;
    this.pendingDoc = text ? null : doc ?? null;
    // A tree in binary form is written out (as version 1) from its model when asked for.
    if (!text && !doc && model.binaryBytes) this.pendingDoc = FROM_MODEL;
    // A large document given as an object is written out only when someone goes to the textarea:
    // stringifying it after every AI turn would cost more than drawing it.
    if (!text && model.count > 3000) {
      this.textarea.value = '';
      this.textarea.placeholder = `The shown tree (${model.count.toLocaleString('en')} nodes) is written here when you click in this box; Download JSON saves it. Or paste a document to replace it.`;
    } else if (this.editor.open || (text && text.length < 200000)) this.fillTextarea();
    this.findState = null;
    this.findCount.textContent = '';
    // Picks survive a live update when their moves still lead somewhere; a new document drops them.
    const pickPaths = keep ? this.picks.map((n) => movePath(n)) : [];
    const selectedPath = keep && this.selected ? movePath(this.selected) : null;
    this.selected = null;
    this.picks = [];
    this.diff = null;
    this.rememberShown(model, !!opts.keepView);
    if (this.replay) this.closeReplay(false);
    // A comparison carries over to a new search of the same position only.
    if (this.other && positionsDiffer(model, this.other.model)) {
      this.clearCompare();
      this.compareError.textContent = 'The comparison was cleared: the new search starts from another position.';
      this.compareError.hidden = false;
    }
    if (this.other) this.recomputeDiff();
    if (!this.comparePanel.hidden) this.renderCompareChoices();
    this.buildLegend();
    this.resetExpansion(false);
    this.focus = model.root;
    for (const p of pickPaths) {
      const n = this.follow(p);
      if (n && movePath(n).length === p.length) this.picks.push(n);
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
        if (movePath(n).length === p.length) this.limits.set(n, v);
      }
      this.focus = this.follow(keep.focus);
      this.fitMinK = keep.fitMinK;
      if (selectedPath) {
        const n = this.follow(selectedPath);
        if (movePath(n).length === selectedPath.length) this.selected = n;
      }
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
    this.renderDetails();
    this.updateFocusUi();
    if (this.options.onLoad) this.options.onLoad(model);
  }

  fillTextarea() {
    let text = this.pendingText;
    if (text === null && this.pendingDoc) {
      try {
        text = JSON.stringify(this.pendingDoc === FROM_MODEL ? toDocument(this.model) : this.pendingDoc, null, 2);
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

  /**
   * Saves the whole tree as a compact (version 2) document, written in parts straight into a Blob
   * (a tree from the engine's worker from its binary arrays): tic-tac-toe's whole tree is about 40
   * MB this way, 698 MB as version 1. A foreign tree whose nodes carry data version 2 has no field
   * for (`extra`) is saved as version 1 (as is one given as a native object, which is saved as given).
   */
  download() {
    if (!this.model) return;
    const game = this.model.meta && this.model.meta.game && this.model.meta.game !== 'unknown' ? this.model.meta.game : 'tree';
    let parts = null;
    try {
      if (this.model.buffer instanceof ArrayBuffer) parts = binaryToCompactParts(this.model.buffer);
      else if (!(this.sourceDoc && this.model.format === 'plyscope-tree')) parts = modelToCompactParts(this.model);
    } catch (e) {
      this.setStatus(`Cannot write this tree: ${e.message}.`);
      return;
    }
    if (parts) {
      saveBlob(new Blob(parts, { type: 'application/json' }), `${game}-tree.json`);
      return;
    }
    const doc = this.currentDocument();
    let text;
    try {
      text = JSON.stringify(doc, null, 1);
    } catch (e) {
      this.setStatus(`Cannot write this tree as JSON: ${e.message}.`);
      return;
    }
    saveBlob(new Blob([text], { type: 'application/json' }), `${doc.game && doc.game !== 'unknown' ? doc.game : 'tree'}-tree.json`);
  }

  /** Saves what the view shows as a PNG (at the screen's pixel density). */
  saveImage() {
    if (!this.model) return;
    this.draw();
    this.canvas.toBlob((blob) => {
      if (blob) saveBlob(blob, 'tree-view.png');
    }, 'image/png');
  }

  subtreeDoc(id) {
    if (!this.model) return null;
    let node;
    if (id !== undefined && id !== null) node = this.nodeById(id);
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
    saveBlob(new Blob([text], { type: 'application/json' }), `${doc.game && doc.game !== 'unknown' ? doc.game : 'tree'}-subtree${path ? `-${path.slice(0, 60)}` : ''}.json`);
    this.setStatus(`Saved the subtree under ${nodeName(this.subtreeRoot())} (${(doc.stats.nodes + 1).toLocaleString('en')} nodes).`);
  }

  subtreeRoot() {
    return this.focus && this.focus.more ? this.focus.parentNode : this.focus;
  }

  /** The node with this id, or null (a tree in binary form finds it without walking the tree). */
  nodeById(id) {
    if (!this.model) return null;
    return this.model.byId ? this.model.byId(id) : findById(this.model.root, id);
  }

  viewStats() {
    return { shown: this.items.length, drawn: this.lastDrawn, zoom: this.cam.k, nodes: this.model ? this.model.count : 0, lastLoadMs: this.lastLoadMs, layoutPending: !!this.pendingLayout, draw: this.drawStats ?? null };
  }
}

Object.assign(Explorer.prototype, viewMethods, cameraMethods, rendererMethods, inputMethods, tooltipMethods, statusMethods, findMethods, whyMethods, compareMethods, detailsMethods, replayMethods);
