// The find bar: nodes by move or #id, depth, value range, and a static score whose sign differs
// from the backed-up value; Enter and Shift+Enter (or N and Shift+N) step through the matches.
//
// Methods of the Explorer (explorer.js), which holds the state they share.

import { el } from './dom.js';
import { scoreText } from './format.js';
import { eachBefore } from './walk.js';
import { matcher, findAll, staticScore } from './analysis.js';

/** The find bar. */
export const findMethods = {
  /** Builds the find bar (its fields are kept on the explorer); returns its element. */
  buildFindBar() {
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
    return el(
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
  },

  findQuery() {
    return { text: this.findInput.value, depth: this.findDepth.value, min: this.findMin.value, max: this.findMax.value, signDiffers: this.findSign.checked };
  },

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
  },

  /** The index of the first hit after the focus (dir 1) or before it (dir -1), in pre-order. */
  firstHitFrom(hits, dir) {
    const f = this.focus && !this.focus.more ? this.focus : null;
    if (!f) return dir > 0 ? 0 : hits.length - 1;
    // Pre-order positions of the focus and hits: compare the paths from the root.
    const pos = new Map();
    const want = new Set(hits);
    want.add(f);
    eachBefore(this.model.root, (n, i) => {
      if (want.has(n)) pos.set(n, i);
      return pos.size < want.size;
    });
    const at = pos.get(f) ?? -1;
    if (dir > 0) {
      const j = hits.findIndex((h) => pos.get(h) > at);
      return j < 0 ? 0 : j;
    }
    for (let j = hits.length - 1; j >= 0; j--) if (pos.get(hits[j]) < at) return j;
    return hits.length - 1;
  },

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
  },
};
