// Compare with another search of the same position: nodes matched by their moves from the root,
// changed values and best moves marked in the view, a summary in the panel.
//
// Methods of the Explorer (explorer.js), which holds the state they share.

import { WORKER_THRESHOLD } from './constants.js';
import { el, yieldToFrame } from './dom.js';
import { diffTrees } from './analysis.js';
import { importText, importValue, fromWireInSlices } from './import.js';

/** The compare panel. */
export const compareMethods = {
  /** Builds the (hidden) panel that loads a second search to compare with. */
  buildComparePanel() {
    // The second search to compare with.
    this.compareText = el('textarea', { class: 'ps-json ps-compare-json', 'data-testid': 'compare-json', spellcheck: 'false', 'aria-label': 'Second search to compare with (JSON)', placeholder: 'Paste a second search of the same position (another depth, other weights…)' });
    // Not in the page: clicking it still opens the file chooser, and the page keeps one file input.
    this.compareFile = el('input', { type: 'file', accept: '.json,application/json,text/plain' });
    this.compareFile.addEventListener('change', () => {
      const f = this.compareFile.files && this.compareFile.files[0];
      if (f) f.text().then((text) => this.compareWith(text, f.name));
      this.compareFile.value = '';
    });
    // The comparisons that make sense, offered from what this explorer has shown: the previous
    // iteration of a live search, and earlier searches of the same position.
    this.compareChoices = el('div', { class: 'ps-compare-choices', 'data-testid': 'compare-choices' });
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
      this.compareError,
      this.compareChoices,
      this.compareSummary,
    );
  },

  openCompare() {
    this.renderCompareChoices();
    this.comparePanel.hidden = false;
    this.compareText.focus();
    if (this.comparePanel.scrollIntoView) this.comparePanel.scrollIntoView({ block: 'nearest' });
  },

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
    const differs = this.model ? positionsDiffer(this.model, result.model) : null;
    if (differs) {
      const message = `Cannot compare: ${differs}. Nodes are matched by their moves from the root, so both searches must start from the same position. Compare with an earlier search of this position or the previous iteration instead`;
      this.comparePanel.hidden = false;
      this.compareError.textContent = `${message}. The comparison is unchanged.`;
      this.compareError.hidden = false;
      this.renderCompareChoices();
      this.setStatus(`${message}.`);
      return { ok: false, error: { kind: 'position', message } };
    }
    this.compareError.textContent = '';
    this.comparePanel.hidden = false;
    this.other = { model: result.model, name };
    this.recomputeDiff();
    return { ok: true, ...this.comparisonSummary() };
  },

  clearCompare() {
    this.other = null;
    this.diff = null;
    this.compareSummary.textContent = '';
    this.compareError.textContent = '';
    this.buildLegend();
    this.invalidate();
  },

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
  },

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
  },

  /**
   * Remembers a shown document for later comparisons: `live` marks an update of a search still
   * running (its previous state is the previous iteration). Large trees are not kept.
   */
  rememberShown(model, live) {
    // Only what can be offered later: trees that say their position, and not too large to keep.
    if (!model || model.count > KEEP_MAX_NODES || positionKey(model) === null) return;
    const entry = { model, name: searchName(model), live, key: positionKey(model), depth: depthOf(model) };
    const top = this.shownHistory[0];
    // A live update of the same search goes deeper than the one before (a new search starts again
    // from depth 1): the one before is its previous iteration.
    if (live && top && top.live && top.key === entry.key && entry.depth !== null && top.depth !== null && entry.depth > top.depth) {
      this.previousIteration = top;
      this.shownHistory[0] = entry;
    } else if (live && top && top.live && top.key === entry.key && entry.depth === top.depth) {
      this.shownHistory[0] = entry; // the same iteration, finished
    } else {
      if (!live) this.previousIteration = null;
      this.shownHistory.unshift(entry);
      this.shownHistory.length = Math.min(this.shownHistory.length, KEEP_SEARCHES);
    }
  },

  /** The comparisons that make sense for the shown tree: [{ label, model, name }]. */
  comparisonChoices() {
    if (!this.model) return [];
    const key = positionKey(this.model);
    const out = [];
    if (this.previousIteration && this.previousIteration.key === key && this.previousIteration.model !== this.model) {
      out.push({ label: `Previous iteration (${this.previousIteration.name})`, model: this.previousIteration.model, name: `the previous iteration (${this.previousIteration.name})` });
    }
    if (key !== null) {
      for (const e of this.shownHistory) {
        if (e.model === this.model || e.key !== key || (this.previousIteration && e.model === this.previousIteration.model)) continue;
        // The same document shown again (reloaded) is no comparison.
        if (e.name === searchName(this.model) && e.model.count === this.model.count && e.model.root.value === this.model.root.value) continue;
        out.push({ label: `Earlier search of this position (${e.name})`, model: e.model, name: `an earlier search of this position (${e.name})` });
      }
    }
    return out;
  },

  renderCompareChoices() {
    const choices = this.comparisonChoices();
    this.compareChoices.replaceChildren();
    if (!choices.length) return;
    this.compareChoices.append(el('span', { class: 'ps-hint', text: 'Compare with: ' }));
    for (const c of choices) {
      this.compareChoices.append(
        el('button', {
          type: 'button',
          text: c.label,
          'data-testid': 'compare-choice',
          onclick: () => {
            this.compareError.textContent = '';
            this.other = { model: c.model, name: c.name };
            this.recomputeDiff();
          },
        }),
      );
    }
  },
};

// Searches kept for "compare with an earlier search" (their trees stay in memory), and the largest.
const KEEP_SEARCHES = 3;
const KEEP_MAX_NODES = 100000;

/** The position a document searched, as a key ("game|root position"), or null when it does not say. */
function positionKey(model) {
  const m = model.meta || {};
  if (m.root_position === undefined || m.root_position === null) return null;
  return `${m.game ?? ''}|${m.root_position}`;
}

/** Why two documents cannot be compared (different games or root positions), or null. */
export function positionsDiffer(a, b) {
  const ma = a.meta || {};
  const mb = b.meta || {};
  if (ma.game && mb.game && ma.game !== mb.game) return `this search is of ${ma.game}, the other of ${mb.game}`;
  if (ma.root_position && mb.root_position && ma.root_position !== mb.root_position) return `they start from different positions (this one “${ma.root_position}”, the other “${mb.root_position}”)`;
  return null;
}

/** The depth a search reached, as its document says, or null. */
function depthOf(model) {
  const settings = Object.fromEntries(model.settings || []);
  const d = model.stats && model.stats.depth_reached !== undefined ? model.stats.depth_reached : settings.depth;
  return Number.isFinite(Number(d)) ? Number(d) : null;
}

/** A short name for a search: its algorithm and depth, as its document says. */
function searchName(model) {
  const m = model.meta || {};
  const settings = Object.fromEntries(model.settings || []);
  const depth = model.stats && model.stats.depth_reached !== undefined ? model.stats.depth_reached : settings.depth;
  const parts = [m.algorithm || model.formatName || 'search'];
  if (depth !== undefined && depth !== null) parts.push(`depth ${depth}`);
  if (model.stats && Number.isFinite(Number(model.stats.nodes))) parts.push(`${Number(model.stats.nodes).toLocaleString('en')} nodes`);
  return parts.join(', ');
}
