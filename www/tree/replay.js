// The replay: a timeline under the view that steps through the search as it happened (the steps come
// from replay-model.js). At each step the tree is drawn as it stood: nodes not yet visited faint, the
// path from the root to the current node highlighted, each node on it with its window (α, β) and the
// value it holds so far, a value going up marked on the parent, and a cut-off explained in words and
// in the classic notation. The page's board preview follows the current node.
//
// Controls: a slider, step back and forward, play and pause with a speed, next and previous
// cut-off. Keys while it is open: ← and → step, Space plays or pauses, Escape closes. It opens
// stopped, at step 0 (the root entered).
//
// Methods of the Explorer (explorer.js), which holds the state they share.

import { el } from './dom.js';
import { buildReplay, stateAt, nextCut, doneAt, visitedAt, holdsAt } from './replay-model.js';
import { scoreText, plural, nodeName } from './format.js';
import { movePath } from './analysis.js';

/** Steps a second at each speed. */
const SPEEDS = [
  ['0.5', 'slow (1 step / 2 s)'],
  ['1', '1 step / s'],
  ['2', '2 steps / s'],
  ['5', '5 steps / s'],
  ['20', '20 steps / s'],
];

/** The replay. */
export const replayMethods = {
  /** Builds the (hidden) timeline. */
  buildReplayPanel() {
    const btn = (text, label, testid, onclick, extra = {}) => el('button', { type: 'button', text, title: label, 'aria-label': label, 'data-testid': testid, onclick, ...extra });
    this.replaySlider = el('input', { type: 'range', min: '0', max: '0', value: '0', step: '1', class: 'ps-replay-slider', 'aria-label': 'Step of the search', 'data-testid': 'replay-slider' });
    this.replaySlider.addEventListener('input', () => this.replayGoTo(Number(this.replaySlider.value)));
    this.replayPlayBtn = btn('▶ Play', 'Play (Space)', 'replay-play', () => this.replayToggle());
    this.replaySpeed = el('select', { class: 'ps-replay-speed', 'aria-label': 'Replay speed', 'data-testid': 'replay-speed' }, ...SPEEDS.map(([v, t]) => el('option', { value: v, text: t })));
    this.replaySpeed.value = '2';
    this.replaySpeed.addEventListener('change', () => {
      if (this.replay && this.replay.timer) this.replayPlay();
    });
    this.replayCount = el('span', { class: 'ps-replay-count', 'data-testid': 'replay-count' });
    this.replayText = el('p', { class: 'ps-replay-text', 'data-testid': 'replay-text', 'aria-live': 'polite' });
    this.replayPath = el('div', { class: 'ps-replay-path', 'data-testid': 'replay-path' });
    this.replayNote = el('p', { class: 'ps-hint', 'data-testid': 'replay-note' });
    this.replayPreview = el('div', { class: 'ps-replay-preview', 'data-testid': 'replay-preview' });
    this.replayPanel = el(
      'section',
      { class: 'ps-replay', 'data-testid': 'replay-panel', 'aria-label': 'Replay of the search', hidden: '' },
      el(
        'div',
        { class: 'ps-replay-bar' },
        el('strong', { class: 'ps-panel-title', text: 'Replay' }),
        btn('|◀', 'Back to the start', 'replay-start', () => this.replayGoTo(0)),
        btn('◀', 'Step back (←)', 'replay-back', () => this.replayStep(-1)),
        this.replayPlayBtn,
        btn('▶|', 'Step forward (→)', 'replay-forward', () => this.replayStep(1)),
        btn('✂◀', 'Previous cut-off', 'replay-prev-cut', () => this.replayCut(-1)),
        btn('✂ Next cut-off', 'Next cut-off', 'replay-next-cut', () => this.replayCut(1)),
        el('label', { class: 'ps-field' }, 'Speed ', this.replaySpeed),
        this.replayCount,
        el('span', { class: 'ps-spacer' }),
        btn('Close', 'Close the replay (Escape)', 'replay-close', () => this.closeReplay()),
      ),
      this.replaySlider,
      el('div', { class: 'ps-replay-main' }, el('div', { class: 'ps-replay-words' }, this.replayText, this.replayPath, this.replayNote), this.replayPreview),
    );
    this.replayPanel.addEventListener('keydown', (e) => {
      if (e.target === this.replaySpeed) return;
      if (this.replayKey(e)) e.preventDefault();
    });
    return this.replayPanel;
  },

  /** Opens the replay of the shown tree, stopped at step 0; returns the number of steps. */
  openReplay() {
    if (!this.model) return 0;
    this.closeReplay(false);
    const r = buildReplay(this.model);
    this.replay = { r, step: 0, timer: null, model: this.model, order: this.order };
    // The tree in the order it was searched, opened as far as can be shown.
    if (this.order !== 'search') {
      this.order = 'search';
      this.orderSelect.value = 'search';
      this.ordered = new WeakMap();
    }
    this.expandAll(3000);
    this.replaySlider.max = String(r.steps.length - 1);
    this.replayNote.textContent = r.ordered ? '' : 'This document does not give each node’s place in the search order: its own order is used (a depth-first search visits nodes in that order).';
    this.replayPanel.hidden = false;
    this.replayGoTo(0);
    if (this.replayPanel.scrollIntoView) requestAnimationFrame(() => this.replayPanel.scrollIntoView({ block: 'nearest' }));
    return r.steps.length;
  },

  /** Closes the replay (and puts the sibling order back as it was). */
  closeReplay(redraw = true) {
    const rp = this.replay;
    if (!rp) return;
    if (rp.timer) clearInterval(rp.timer);
    clearTimeout(rp.boardTimer);
    this.replay = null;
    this.replayPanel.hidden = true;
    if (redraw && rp.order !== this.order && rp.model === this.model) {
      this.order = rp.order;
      this.orderSelect.value = rp.order;
      this.ordered = new WeakMap();
      this.relayout(true);
    }
    this.invalidate();
  },

  /** Shows step `s` (clamped); returns its state. */
  replayGoTo(s) {
    const rp = this.replay;
    if (!rp) return null;
    const max = rp.r.steps.length - 1;
    s = Math.max(0, Math.min(max, Math.round(Number(s) || 0)));
    rp.step = s;
    const st = stateAt(rp.r, s);
    rp.state = st;
    if (s >= max && rp.timer) this.replayPause();
    this.replaySlider.value = String(s);
    this.replayCount.textContent = `Step ${(s + 1).toLocaleString('en')} of ${(max + 1).toLocaleString('en')}`;
    this.replayText.textContent = st.text;
    this.replayText.className = `ps-replay-text${st.step.type === 'cut' ? ' ps-replay-cut' : ''}`;
    this.renderReplayPath(st);
    // The current node is the focus: the path to it is drawn dark, the camera follows it.
    const n = st.node;
    if (!this.itemOf.has(n)) {
      this.revealPath(n);
      this.relayout(false);
    }
    this.focus = n;
    const it = this.itemOf.get(n);
    if (it) this.ensureVisible(it);
    this.updateFocusUi();
    // The board follows; while playing, only once the steps pause for a moment.
    clearTimeout(rp.boardTimer);
    if (rp.timer) rp.boardTimer = setTimeout(() => this.replay === rp && this.replayBoard(n), 400);
    else this.replayBoard(n);
    this.invalidate();
    return st;
  },

  replayStep(d) {
    if (!this.replay) return;
    this.replayPause();
    this.replayGoTo(this.replay.step + d);
  },

  /** Goes to the next (1) or previous (-1) cut-off; returns its step or -1. */
  replayCut(dir = 1) {
    if (!this.replay) return -1;
    this.replayPause();
    const s = nextCut(this.replay.r, this.replay.step, dir);
    if (s >= 0) this.replayGoTo(s);
    else this.setStatus(dir > 0 ? 'No cut-off after this step.' : 'No cut-off before this step.');
    return s;
  },

  replayToggle() {
    if (!this.replay) return;
    if (this.replay.timer) this.replayPause();
    else this.replayPlay();
  },

  replayPlay() {
    const rp = this.replay;
    if (!rp) return;
    if (rp.timer) clearInterval(rp.timer);
    if (rp.step >= rp.r.steps.length - 1) this.replayGoTo(0);
    const perSecond = Number(this.replaySpeed.value) || 2;
    rp.timer = setInterval(() => this.replayGoTo(rp.step + 1), 1000 / perSecond);
    this.replayPlayBtn.textContent = '⏸ Pause';
    this.replayPlayBtn.title = 'Pause (Space)';
  },

  replayPause() {
    const rp = this.replay;
    if (!rp || !rp.timer) return;
    clearInterval(rp.timer);
    rp.timer = null;
    this.replayPlayBtn.textContent = '▶ Play';
    this.replayPlayBtn.title = 'Play (Space)';
  },

  /** Keys of the replay (on the view or the timeline); true when handled. */
  replayKey(e) {
    if (!this.replay || e.altKey || e.ctrlKey || e.metaKey) return false;
    if (e.key === 'ArrowLeft') this.replayStep(-1);
    else if (e.key === 'ArrowRight') this.replayStep(1);
    else if (e.key === ' ' && e.target.tagName !== 'BUTTON') this.replayToggle();
    else if (e.key === 'Escape') this.closeReplay();
    else return false;
    return true;
  },

  /** The path from the root to the current node, each with its window and the value so far. */
  renderReplayPath(st) {
    const rows = st.path.map((p) => {
      const v = p.value === null ? '…' : `${p.final ? '' : p.node.kind === 'max' ? '≥ ' : p.node.kind === 'min' ? '≤ ' : ''}${scoreText(p.value)}`;
      const win = this.replay.r.windows && (p.node.kind === 'max' || p.node.kind === 'min') ? ` α = ${p.alpha === null ? '−∞' : scoreText(p.alpha)}, β = ${p.beta === null ? '+∞' : scoreText(p.beta)}` : '';
      const name = p.node.parent ? nodeName(p.node) : 'root';
      if (p.node.kind === 'pruned' || p.node.kind === 'truncated') return el('li', {}, el('span', { class: 'ps-replay-node', text: name }));
      return el('li', {}, el('span', { class: 'ps-replay-node', text: `${name} (${p.node.kind})` }), el('span', { text: ` value ${v}${p.final ? '' : ' so far'};${win}` }));
    });
    this.replayPath.replaceChildren(el('ol', { class: 'ps-replay-steps', 'aria-label': 'The path to the current node' }, ...rows));
  },

  /** The page's board preview of the current node's position, when it gives one. */
  replayBoard(n) {
    if (!this.options.decorateTooltip) return;
    const moves = movePath(n);
    this.replayPreview.replaceChildren();
    if (moves.some((m) => m === null || m === undefined)) return;
    this.options.decorateTooltip(this.replayPreview, { node: n, moves, model: this.model });
  },

  /**
   * How the renderer draws `n` during the replay: null when no replay is shown, else
   * { visited, path, current, changed, line2, tag }.
   */
  replayLook(n) {
    const rp = this.replay;
    if (!rp || rp.model !== this.model || !rp.state) return null;
    const { r, step, state } = rp;
    if (!visitedAt(r, n, step)) return { visited: false };
    const current = n === state.node;
    const onPath = state.path.some((p) => p.node === n);
    const changed = !!(state.backedUp && state.backedUp.changed && state.backedUp.node === n);
    let line2 = null;
    let tag = null;
    if (!doneAt(r, n, step) && n.kind !== 'pruned') {
      const h = holdsAt(r, n, step);
      line2 = h.value === null ? '…' : `${n.kind === 'max' ? '≥ ' : n.kind === 'min' ? '≤ ' : ''}${scoreText(h.value)}`;
      if (r.windows && (n.kind === 'max' || n.kind === 'min')) tag = `α${h.alpha === null ? '−∞' : scoreText(h.alpha)} β${h.beta === null ? '+∞' : scoreText(h.beta)}`;
    }
    if (changed && state.backedUp.from !== null) line2 = `${line2 ?? scoreText(state.backedUp.to)} ← ${scoreText(state.backedUp.from)}`;
    // At a cut-off, the sibling whose value caused it is outlined in red (as on hovering the cut).
    const cf = state.step.type === 'cut' ? state.node.cutoff : null;
    const cutBy = !!(cf && cf.by !== null && cf.by !== undefined && n.parent === state.node.parent && String(n.id) === String(cf.by));
    return { visited: true, current, path: onPath, changed, line2, tag, cutBy };
  },

  /** The replay's state now (for tests and hosts): the step, its kind, the node, the path and the words. */
  replayState() {
    const rp = this.replay;
    if (!rp || !rp.state) return null;
    const st = rp.state;
    return {
      step: st.index,
      steps: rp.r.steps.length,
      type: st.step.type,
      id: st.node.id,
      playing: !!rp.timer,
      path: st.path.map((p) => ({ id: p.node.id, value: p.value, alpha: p.alpha, beta: p.beta, final: p.final })),
      text: st.text,
      ordered: rp.r.ordered,
      cuts: rp.r.cuts.length,
      summary: plural(rp.r.cuts.length, 'cut-off'),
    };
  },
};
