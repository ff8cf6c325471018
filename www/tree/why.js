// The "why A and not B" panel: two picked nodes, their lines, and their breakdowns term by term.
//
// Methods of the Explorer (explorer.js), which holds the state they share.

import { el } from './dom.js';
import { scoreText, differenceText, isMate, KIND_NAMES, nodeName, termText, termHeading } from './format.js';
import { whyCompare } from './analysis.js';

/** The "why A and not B" panel. */
export const whyMethods = {
  /** Builds the (hidden) "why A and not B" panel. */
  buildWhyPanel() {
    // "Why A and not B": two picked nodes side by side.
    this.whyBody = el('div', { class: 'ps-why-body', 'data-testid': 'why-body' });
    this.whyPanel = el(
      'section',
      { class: 'ps-why', 'data-testid': 'why-panel', 'aria-label': 'Why one node and not another', hidden: '' },
      el('div', { class: 'ps-panel-bar' }, el('strong', { class: 'ps-panel-title', text: 'Why A and not B' }), el('span', { class: 'ps-hint', text: 'Pick A, then B: shift-click, W, or select a node and “Pick as A…”.' }), el('span', { class: 'ps-spacer' }), el('button', { type: 'button', text: 'Swap', 'data-testid': 'why-swap', onclick: () => this.swapPicks() }), el('button', { type: 'button', text: 'Close', 'data-testid': 'why-close', onclick: () => this.clearPicks() })),
      this.whyBody,
    );
  },

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
    if (this.selected) this.renderDetails();
    this.invalidate();
  },

  whyByIds(idA, idB) {
    if (!this.model) return null;
    const a = this.nodeById(idA);
    const b = this.nodeById(idB);
    if (!a || !b) return null;
    this.picks = [a, b];
    this.renderWhy();
    if (this.selected) this.renderDetails();
    this.invalidate();
    return whyCompare(a, b);
  },

  swapPicks() {
    this.picks.reverse();
    this.renderWhy();
    if (this.selected) this.renderDetails();
    this.invalidate();
  },

  clearPicks() {
    this.picks = [];
    this.renderWhy();
    if (this.selected) this.renderDetails();
    this.invalidate();
  },

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
      verdict = `The ${p.kind} player at ${nodeName(p)} prefers ${win}: ${scoreText(aBetter ? a.value : b.value)} against ${scoreText(aBetter ? b.value : a.value)}, ${isMate(a.value) || isMate(b.value) ? '' : `${differenceText(Math.abs(w.valueDiff))} `}${p.kind === 'max' ? 'higher' : 'lower'} than ${lose}.`;
    } else verdict = `${na} is worth ${scoreText(a.value)}, ${nb} ${scoreText(b.value)}: A − B = ${isMate(a.value) || isMate(b.value) ? 'not a number of units (a decided game)' : `${w.valueDiff > 0 ? '+' : ''}${differenceText(w.valueDiff)}`}.`;
    // MCTS plays the most visited move, which is not always the one with the best mean.
    if (a.visits !== null && a.visits !== undefined && b.visits !== null && b.visits !== undefined) {
      verdict += ` By visits, which MCTS plays by: ${na} ${a.visits.toLocaleString('en')}, ${nb} ${b.visits.toLocaleString('en')}.`;
    }
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
      t.append(el('thead', {}, el('tr', {}, el('th', { text: 'term' }), el('th', { text: `A ${na}` }), el('th', { text: `B ${nb}` }), el('th', { text: termHeading('A − B') }))));
      const tb = el('tbody');
      const rows = [...cmp.rows].sort((x, y) => Math.abs(y.diff) - Math.abs(x.diff));
      for (const r of rows.slice(0, 60)) {
        const tr = el('tr', {}, el('td', { text: r.name }), el('td', { text: termText(r.a) }), el('td', { text: termText(r.b) }), el('td', { text: termText(r.diff) }));
        if (r.diff < 0) tr.className = 'ps-neg';
        else if (r.diff > 0) tr.className = 'ps-pos';
        tb.append(tr);
      }
      t.append(tb);
      t.append(el('tfoot', {}, el('tr', {}, el('td', { text: 'total' }), el('td', { text: termText(cmp.totalA) }), el('td', { text: termText(cmp.totalB) }), el('td', { text: termText(cmp.diff) }))));
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
  },
};
