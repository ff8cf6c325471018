// The tooltip of a node: its value, window, place among its siblings, data, term breakdowns, and
// whatever the page adds (a board preview, through options.decorateTooltip).
//
// Methods of the Explorer (explorer.js), which holds the state they share.

import { NODE_W } from './constants.js';
import { el } from './dom.js';
import { provenText, scoreText, boundedScore, boundedValue, windowText, plainNumber, percent, isMate, differenceText, scaleInUse, KIND_NAMES, nodeName, signed, ordinal, plural, sameBreakdown, termText, termHeading } from './format.js';
import { descendants } from './walk.js';
import { movePath } from './analysis.js';
import { noteRows } from './note.js';

/** What a `pruned` node's reason means, in words (the engine's reasons: docs/tree-format.md). */
const PRUNE_REASONS = {
  alphabeta: 'alpha-beta cut-off',
  branching_limit: 'branching limit',
  futility: 'forward pruning: late-move pruning (moves late in the order that gain nothing: near the horizon, or anywhere below the root with late_move_pruning_all_depths on) or futility pruning (near the horizon: quiet moves, or all moves, when the static evaluation is far from the window); not searched at all',
};

/** The node tooltip. */
export const tooltipMethods = {
  hideTooltip() {
    this.tooltip.hidden = true;
  },

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
  },

  /** For a root child of a parallel search, which worker decided it ("worker 2 of 3"), from the
   * run's statistics (each worker lists its root moves); null otherwise. */
  rootMoveWorker(n) {
    const workers = this.model?.workers;
    if (!n.parent || n.parent.parent || !Array.isArray(workers) || n.label === null) return null;
    const w = workers.find((x) => x.moves.includes(n.label));
    return w && w.worker !== null ? `worker ${w.worker + 1} of ${workers.length} (parallel search)` : null;
  },

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
  },

  /**
   * Writes what is known of a shown item into `t` (the tooltip, or the details panel with
   * `inPanel`, where the hint about keys is left out: the panel has buttons for it).
   */
  fillTooltip(it, t = this.tooltip, inPanel = false) {
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
      if (n.kind !== 'pruned') row('value', boundedValue(n.value, n.bound));
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
        add('nodes', 'nodes searched', (v) => `${Number(v).toLocaleString('en')} (every iteration, the root not counted)`);
        add('leaves', 'leaves');
        add('time_ms', 'time', (v) => `${plainNumber(Number(v))} ms`);
        add('prune_events', 'prune events');
        add('pruned_nodes', 'pruned nodes');
        add('tt_hits', 'TT hits');
        add('depth_reached', 'depth reached');
        add('truncated', 'truncated', (v) => (v ? 'yes (node cap)' : 'no'));
        add('solver_nodes', 'exact solver', (v) => `${Number(v).toLocaleString('en')} positions: solved to the end of the game, every value a final result`);
        // A parallel search: one row per worker (threads natively; search workers in the page,
        // with the root moves each decided).
        for (const w of model.workers ?? []) {
          const moves = w.moves.length ? `; root moves ${w.moves.slice(0, 20).join(' ')}${w.moves.length > 20 ? ' …' : ''}` : '';
          const put = w.deferred ? `, ${w.deferred.toLocaleString('en')} moves put off (another worker was on them)` : '';
          statRows.push([`worker ${w.worker === null ? '?' : w.worker + 1}`, `${(w.nodes ?? 0).toLocaleString('en')} nodes, depth ${w.depth ?? '?'}${put}${moves}`]);
        }
        for (const [k, v] of Object.entries(s)) {
          if (!['nodes', 'leaves', 'time_ms', 'prune_events', 'pruned_nodes', 'tt_hits', 'depth_reached', 'truncated', 'solver_nodes', 'workers'].includes(k)) statRows.push([k, typeof v === 'object' ? JSON.stringify(v) : String(v)]);
        }
        t.append(el('div', { class: 'ps-tt-sub', text: 'Run statistics' }));
        this.appendRows(t, statRows, true);
      } else {
        t.append(el('div', { class: 'ps-tt-sub', text: 'Tree' }));
        this.appendRows(t, [['nodes', model.count.toLocaleString('en')], ['depth', String(model.maxDepth ?? descendants(model.root).reduce((d, m) => Math.max(d, m.depth), 0))]]);
      }
      if (model.settings && model.settings.length) {
        t.append(el('div', { class: 'ps-tt-sub', text: 'Settings' }));
        this.appendRows(t, model.settings.map(([k, v]) => [k.replace(/_/g, ' '), typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)]), true);
      }
    } else if (n.kind === 'pruned') {
      const count = n.count ?? n.moves?.length ?? 0;
      row('stands for', `${count} sibling${count === 1 ? '' : 's'} cut at once`);
      if (n.moves && n.moves.length) row('moves', n.moves.slice(0, 40).join(' ') + (n.moves.length > 40 ? ` … (${n.moves.length})` : ''));
      if (n.reason) row('reason', PRUNE_REASONS[n.reason] ?? n.reason);
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
      // A result the MCTS solver proved reads as one ("proven win (1)"), not as a mean.
      if (n.proven) row('value', `${provenText(n.value)}${this.model?.meta?.perspective ? ` for ${this.model.meta.perspective}` : ''} (${boundedValue(n.value, n.bound)}, by the MCTS solver)`);
      else row('value', `${boundedValue(n.value, n.bound)}${n.bound && n.bound !== 'exact' ? ` (${n.bound} bound: ${n.bound === 'lower' ? 'fail-high' : 'fail-low'})` : ''}`);
      // A foreign document's large numbers may mean something the explorer cannot read.
      if (n.value !== null && Math.abs(n.value) >= 1e4 && scaleInUse().unit === null) row('raw value', plainNumber(n.value));
      if (n.alpha !== null || n.beta !== null) row('window (α, β)', windowText(n.alpha, n.beta));
      // MCTS dumps give their priors as `prob`; native trees have `prior` and keep `prob` for
      // chance outcomes.
      const dumpPrior = n.visits !== null && n.prior === null && n.parent?.kind !== 'chance';
      if (n.prob !== null) row(dumpPrior ? 'prior' : 'probability', dumpPrior ? plainNumber(n.prob) : percent(n.prob));
      if (n.visits !== null) {
        const p = n.parent;
        row('visits', `${n.visits.toLocaleString('en')}${p && p.visits > 0 ? ` (${percent(n.visits / p.visits)} of its parent's)` : ''}`);
      }
      if (n.prior !== null) row('prior', percent(n.prior));
      if (n.uct !== null) row(n.prior !== null ? 'PUCT score' : 'UCT score', plainNumber(n.uct));
      if (n.tt) row('TT', 'answered from the transposition table (cut by the hash table)');
      // Workers are numbered from 1 here, as in the root's list (the main thread is worker 1).
      if (n.tt_worker) row('from worker', `${n.tt ? 'value' : 'first move'} from worker ${n.tt_worker + 1}'s table entry (parallel search: that helper thread stored it in the shared table)`);
      const by = this.rootMoveWorker(n);
      if (by) row('searched by', by);
      const iir = this.model?.settings?.some(([k, v]) => k === 'internal_reduction' && v === true) ?? false;
      for (const [label, text] of noteRows(n.note, { iir })) row(label, text);
      this.compareRows(n, row);
      if (n.best) row('best line', this.isPv(n) ? 'yes' : 'best among its siblings');
      const sib = siblingFacts(n);
      if (sib) {
        if (sib.valueRank) row('among siblings', `${ordinal(sib.valueRank)} of ${sib.count} by value for ${n.parent.kind === 'max' ? 'max' : 'min'}${sib.gap ? `, ${sib.gap} behind the best` : ''}`);
        row('searched', `${ordinal(sib.searched)} of ${sib.total}${sib.preRank ? `; ${ordinal(sib.preRank)} by pre-score` : ''}`);
      }
      if (n.children.length) row('children', `${n.children.length} (subtree ${plural(n.size, 'node')})`);
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
    // A leaf's pre-score is often its evaluation: one table then, saying it is both.
    if (n.prescore && n.eval && sameBreakdown(n.prescore, n.eval)) this.appendBreakdown(t, n.eval, 'Evaluation breakdown (also its pre-score, for ordering)');
    else {
      if (n.prescore) this.appendBreakdown(t, n.prescore, n.kind === 'leaf' || n.kind === 'terminal' ? 'Pre-score (ordering)' : 'Pre-score breakdown (ordering)');
      if (n.eval) this.appendBreakdown(t, n.eval, 'Evaluation breakdown');
    }
    if (!inPanel && n.kind !== 'pruned' && n.kind !== 'truncated') t.append(el('div', { class: 'ps-tt-hint', text: this.picks.length === 1 && this.picks[0] !== n ? `Shift-click or W: compare with ${nodeName(this.picks[0])} (why A and not B)` : 'Shift-click or W: pick for “why A and not B”' }));
    // The page may add to the tooltip (a board preview of the node's position, say).
    // Only for a node that stands for one position: a pruned or unrecorded stand-in has no move.
    const moves = movePath(n);
    if (this.options.decorateTooltip && moves.every((m) => m !== null && m !== undefined)) {
      this.options.decorateTooltip(t, { node: n, moves, model: this.model });
    }
  },

  /** Tooltip rows about the compared search: its value here and its best move. */
  compareRows(n, row) {
    if (!this.diff) return;
    const d = this.diff.diff.get(n);
    if (!d) {
      row('other search', 'no node with these moves');
      return;
    }
    const o = d.other;
    const change = d.valueChanged && n.value !== null && o.value !== null ? `, changed by ${termText(n.value - o.value)}` : d.valueChanged ? ', changed' : ', unchanged';
    row('other search', `${boundedScore(o.value, o.bound)}${change}`);
    if (d.bestChanged) row('best move', `${d.bestThere} there → ${d.bestHere} here`);
  },

  appendRows(t, rows, wide = false) {
    if (!rows.length) return;
    const dl = el('dl', { class: wide && rows.length > 4 ? 'ps-tt-rows ps-wide' : 'ps-tt-rows' });
    for (const [k, v] of rows) dl.append(el('dt', { text: k }), el('dd', { text: v }));
    t.append(dl);
  },

  appendBreakdown(t, b, title) {
    t.append(el('div', { class: 'ps-tt-sub', text: title }));
    const table = el('table', { class: 'ps-terms' });
    table.append(el('thead', {}, el('tr', {}, el('th', { text: 'term' }), el('th', { text: 'raw' }), el('th', { text: 'weight' }), el('th', { text: termHeading('contribution') }))));
    const body = el('tbody');
    for (const term of b.terms.slice(0, 60)) {
      const tr = el('tr', {}, el('td', { text: term.name }), el('td', { text: plainNumber(term.raw) }), el('td', { text: plainNumber(term.weight) }), el('td', { text: termText(term.value) }));
      if (term.value !== null && term.value < 0) tr.className = 'ps-neg';
      body.append(tr);
    }
    table.append(body);
    table.append(el('tfoot', {}, el('tr', {}, el('td', { text: 'total' }), el('td'), el('td'), el('td', { text: b.total === null ? '–' : termText(b.total) }))));
    t.append(table);
  },
};

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
    if (best !== n.value && !isMate(best) && !isMate(n.value)) out.gap = differenceText(Math.abs(best - n.value));
  }
  if (better && n.prescore && n.prescore.total !== null) {
    const pres = sibs.filter((s) => s.prescore && s.prescore.total !== null).map((s) => s.prescore.total);
    out.preRank = 1 + pres.filter((v) => better(v, n.prescore.total)).length;
  }
  return out;
}
