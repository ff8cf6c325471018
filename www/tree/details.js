// The details panel of the selected node, under the view: everything its tooltip says (values,
// window, place among siblings, term breakdowns, the page's board preview) plus buttons for what a
// keyboard or a mouse reaches with keys: open or close it, "why A and not B", compare with another
// search, and "Analyse from here" (when the page handles it). It is how touch screens get in: a tap
// selects a node (input.js); D does the same from the keyboard.
//
// "Analyse from here" knows no game: it hands the page the document's game and root position and
// the moves from the root to the node, through options.onAnalyse and a `ps-analyse` DOM event.
//
// Methods of the Explorer (explorer.js), which holds the state they share.

import { el } from './dom.js';
import { boundedScore, nodeName, ordinal, plural, termText } from './format.js';
import { movePath, principalChild } from './analysis.js';
import { searchOrder } from './replay-model.js';

/** The details panel. */
export const detailsMethods = {
  /** Builds the (hidden) details panel. */
  buildDetailsPanel() {
    this.detailsTitle = el('strong', { class: 'ps-panel-title', 'data-testid': 'details-title' });
    this.detailsActions = el('div', { class: 'ps-details-actions' });
    this.detailsBody = el('div', { class: 'ps-details-body', 'data-testid': 'details-body' });
    this.detailsPanel = el(
      'section',
      { class: 'ps-details', 'data-testid': 'details-panel', 'aria-label': 'Selected node', hidden: '' },
      el('div', { class: 'ps-panel-bar' }, this.detailsTitle, el('span', { class: 'ps-spacer' }), el('button', { type: 'button', text: 'Close', 'data-testid': 'details-close', onclick: () => this.closeDetails() })),
      this.detailsActions,
      this.detailsBody,
    );
    return this.detailsPanel;
  },

  /** Focuses `node` and shows its details. */
  select(node) {
    if (!node) return;
    this.focus = node;
    this.selected = node;
    this.updateFocusUi();
    this.renderDetails();
    const it = this.itemOf.get(node);
    if (it && !this.sheetMode()) this.ensureVisible(it);
    this.invalidate();
  },

  closeDetails() {
    this.selected = null;
    this.detailsPanel.hidden = true;
    this.root.style.marginBottom = '';
    this.invalidate();
  },

  /** Fills the panel for the selected node (or hides it when none). */
  renderDetails() {
    const n = this.selected;
    if (!n || !this.model) {
      this.detailsPanel.hidden = true;
      return;
    }
    this.detailsPanel.hidden = false;
    this.detailsTitle.textContent = n.parent ? `Move ${nodeName(n)}` : 'Root';
    const acts = [];
    const stand = n.kind === 'pruned' || n.kind === 'truncated';
    if (n.children.length) {
      const open = this.expanded.has(n);
      acts.push(el('button', { type: 'button', text: open ? 'Collapse' : `Expand (${plural(n.children.length, 'child', 'children')})`, title: open ? 'Hide its children' : 'Show its children', 'data-testid': 'details-toggle', onclick: () => this.toggleSelected() }));
    }
    if (!stand) {
      const a = this.picks.length === 1 && this.picks[0] !== n ? this.picks[0] : null;
      if (a) acts.push(el('button', { type: 'button', class: 'ps-primary', text: `Why ${nodeName(a)} and not ${nodeName(n)}?`, 'data-testid': 'details-why', onclick: () => this.whyFromDetails(n) }));
      else if (!this.picks.includes(n)) acts.push(el('button', { type: 'button', text: 'Pick as A…', title: 'Why A and not B: pick this node as A, then select another node to compare the two term by term', 'data-testid': 'details-pick', onclick: () => this.pickFromDetails(n) }));
      acts.push(el('button', { type: 'button', text: 'Other search…', title: 'Compare with another search of the same position', 'data-testid': 'details-compare', onclick: () => this.openCompare() }));
      if (this.options.onAnalyse && movePath(n).every((m) => m !== null && m !== undefined)) {
        acts.push(el('button', { type: 'button', class: 'ps-primary', text: 'Analyse from here', title: 'Set the board to this position, as a variation', 'data-testid': 'details-analyse', onclick: () => this.analyseFrom(n) }));
      }
    }
    this.detailsActions.replaceChildren(...acts);
    const it = this.itemOf.get(n) || { node: n, more: false };
    this.fillTooltip(it, this.detailsBody, true);
    if (n.children.length > 1 && !stand) this.detailsBody.append(...this.searchOrderTable(n));
    if (this.picks.length === 1 && this.picks[0] === n) this.detailsBody.prepend(el('p', { class: 'ps-hint', text: 'Picked as A: now select another node to compare with it.' }));
    this.keepSelectedAboveSheet();
  },

  /** Whether the panel is a sheet fixed at the bottom of the screen (narrow screens). */
  sheetMode() {
    return !this.detailsPanel.hidden && typeof getComputedStyle === 'function' && getComputedStyle(this.detailsPanel).position === 'fixed';
  },

  /**
   * On a phone the panel is a sheet over the bottom of the screen: the page gets room below the
   * explorer to scroll into, the view is scrolled up to the sheet's edge when too little of it shows,
   * and the camera brings the selected node into the part of the view left visible.
   */
  keepSelectedAboveSheet() {
    const sheet = this.sheetMode();
    const sheetH = sheet ? this.detailsPanel.offsetHeight : 0;
    this.root.style.marginBottom = sheet ? `${Math.ceil(sheetH)}px` : '';
    if (!sheet || !this.selected) return;
    const free = window.innerHeight - sheetH;
    const it = this.itemOf.get(this.selected);
    if (!it || this.pendingLayout) return;
    const margin = 48;
    // First scroll the page (the view stays as the user left it) to bring the node to the middle of
    // the part above the sheet; if the view cannot go that far, move the camera instead.
    let box = this.nodeBox(this.selected.id);
    if (box.y < margin || box.y > free - margin) {
      window.scrollBy({ top: box.y - free / 2, behavior: 'instant' });
      box = this.nodeBox(this.selected.id);
    }
    const r = this.canvas.getBoundingClientRect();
    const top = Math.max(r.top, 0);
    const bottom = Math.min(r.bottom, free);
    const inX = box.x - box.width / 2 > r.left && box.x + box.width / 2 < r.right;
    if (box.y > top + margin && box.y < bottom - margin && inX) return;
    this.userMoved = true;
    const k = this.cam.k;
    const tx = inX ? box.x - r.left : this.w * 0.35;
    this.setCamera(it.x - tx / k, it.y - ((top + bottom) / 2 - r.top) / k, k, true);
  },

  toggleSelected() {
    const n = this.selected;
    if (!n) return;
    const it = this.itemOf.get(n);
    if (it) this.activate(it, false);
    this.selected = n;
    this.renderDetails();
  },

  /** Completes "why A and not B" with `n` as B; on a phone the sheet gives way to the answer. */
  whyFromDetails(n) {
    this.pick(n);
    if (this.sheetMode()) {
      this.closeDetails();
      if (this.whyPanel.scrollIntoView) this.whyPanel.scrollIntoView({ block: 'start' });
    }
  },

  pickFromDetails(n) {
    this.picks = [n];
    this.renderWhy();
    this.renderDetails();
    this.setStatus(`Picked ${nodeName(n)} as A: select another node, then “Why A and not B”.`);
    this.invalidate();
  },

  /**
   * "Analyse from here": tells the page which position the node stands for, as the document's game,
   * its root position and the moves from the root. Returns what was sent.
   */
  analyseFrom(n) {
    const detail = { game: this.model.meta.game ?? null, rootPosition: this.model.meta.root_position ?? null, moves: movePath(n).map(String), nodeId: n.id };
    if (this.options.onAnalyse) this.options.onAnalyse(detail);
    this.root.dispatchEvent(new CustomEvent('ps-analyse', { detail, bubbles: true }));
    this.setStatus(`Analyse from here: ${detail.moves.length ? detail.moves.join(' ') : 'the root position'}.`);
    return detail;
  },

  /**
   * Move ordering: the children in the order they were searched, with their pre-scores and values,
   * the child that caused a cut-off marked and the pruned siblings after it. Good ordering searches
   * the best child first and cuts early. Returns the elements to append.
   */
  searchOrderTable(n) {
    const kids = searchOrder(n);
    const cutters = new Map();
    for (const c of kids) if (c.kind === 'pruned' && c.cutoff && c.cutoff.by !== null && c.cutoff.by !== undefined) cutters.set(String(c.cutoff.by), c);
    const best = principalChild(n);
    const table = el('table', { class: 'ps-terms ps-order-table', 'data-testid': 'search-order' });
    table.append(el('thead', {}, el('tr', {}, el('th', { text: '#' }), el('th', { text: 'move' }), el('th', { text: 'pre-score' }), el('th', { text: 'value' }), el('th', { text: '' }))));
    const body = el('tbody');
    let k = 0;
    for (const c of kids) {
      if (c.kind === 'pruned' || c.kind === 'truncated') {
        const count = c.count ?? (c.moves ? c.moves.length : 0);
        const what = c.kind === 'pruned' ? `✂ ${plural(count, 'sibling')} not searched${c.moves && c.moves.length ? `: ${c.moves.slice(0, 8).join(' ')}${c.moves.length > 8 ? ' …' : ''}` : ''}` : `${c.count ?? '?'} not recorded`;
        body.append(el('tr', { class: 'ps-order-cut' }, el('td', { text: '' }), el('td', { text: what, colspan: '4' })));
        continue;
      }
      k++;
      const notes = [];
      if (c === best) notes.push('best');
      if (cutters.has(String(c.id))) notes.push('caused the cut-off');
      const tr = el('tr', {}, el('td', { text: String(k) }), el('td', { text: nodeName(c) }), el('td', { text: c.prescore && c.prescore.total !== null ? termText(c.prescore.total) : '–' }), el('td', { text: boundedScore(c.value, c.bound) }), el('td', { text: notes.join(', ') }));
      if (notes.length) tr.className = 'ps-order-mark';
      body.append(tr);
    }
    table.append(body);
    const bestAt = best ? kids.filter((c) => c.kind !== 'pruned' && c.kind !== 'truncated').indexOf(best) + 1 : 0;
    const cutsHere = [...cutters.values()].length;
    const words = [];
    if (bestAt) words.push(`The best child was searched ${ordinal(bestAt)}${bestAt === 1 ? ': the ordering found it first' : ''}.`);
    if (cutsHere) words.push(`${plural(cutsHere, 'cut-off')} here saved ${plural(kids.filter((c) => c.kind === 'pruned').reduce((s, c) => s + (c.count ?? (c.moves ? c.moves.length : 0)), 0), 'sibling')}.`);
    return [el('div', { class: 'ps-tt-sub', text: 'Children in the order searched (move ordering)' }), table, el('p', { class: 'ps-hint', 'data-testid': 'search-order-note', text: words.join(' ') })];
  },
};
