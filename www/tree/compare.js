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
  },

  openCompare() {
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
};
