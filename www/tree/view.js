// Which nodes the explorer shows and where: the SpaceTree-style expansion (best line, focus path,
// "+K more" folds), the order of siblings, and the layout of the shown items (on the page for small
// sets, in layout-worker.js for large ones) with the animation from the old places to the new.
//
// Methods of the Explorer (explorer.js), which holds the state they share.

import { NODE_W, NODE_H, ROW_H, COUSIN_GAP, LEVEL_GAP, ANIM_MS, READABLE_K, SYNC_LAYOUT_MAX } from './constants.js';
import { prefersReducedMotion } from './dom.js';
import { plural } from './format.js';
import { treeCounts } from './analysis.js';
import { searchOrder } from './replay-model.js';
import { tidyLayout } from './layout.js';

/** Expansion, sibling order and layout. */
export const viewMethods = {
  /**
   * What the tree holds, saying what each number counts: "258 positions · 86 cut-offs" (a cut-off
   * box stands for the siblings pruned at once), or "344 nodes" for a tree without stand-ins. The
   * search's own "nodes searched" (in its statistics) counts differently: every iteration of
   * iterative deepening, and not the root; the tooltip says so.
   */
  countsText() {
    const m = this.model;
    if (!this.counts || this.counts.model !== m) this.counts = { model: m, ...(m.treeCounts ?? treeCounts(m.root)) };
    const c = this.counts;
    this.info.title = 'Positions: the nodes of this tree that stand for one position, the root included. A cut-off box stands for the siblings pruned at once; an unrecorded box for nodes past the node cap. The search’s “nodes searched” counts every iteration and not the root, so it can differ.';
    if (!c.cutoffs && !c.unrecorded) return plural(m.count, 'node');
    const parts = [plural(c.positions, 'position')];
    if (c.cutoffs) parts.push(plural(c.cutoffs, 'cut-off'));
    if (c.unrecorded) parts.push(`${plural(c.unrecorded, 'unrecorded box', 'unrecorded boxes')}`);
    return parts.join(' · ');
  },

  isPv(n) {
    for (let m = n; m; m = m.parent) if (!m.best) return false;
    return true;
  },

  resetExpansion(animate) {
    if (!this.model) return;
    this.fitMinK = READABLE_K;
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
  },

  collapseAll() {
    if (!this.model) return;
    this.fitMinK = READABLE_K;
    this.expanded.clear();
    this.expanded.add(this.model.root);
    this.limits.clear();
    this.focus = this.model.root;
    this.relayout(true);
    this.centerOn(this.model.root, true);
    this.updateFocusUi();
  },

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
    // At a zoom where labels can be read; what does not fit is reached by panning.
    this.fit(true, READABLE_K);
    this.updateFocusUi();
    this.setStatus(`Expanded: ${plural(shown, 'node')} shown. Drag (or use the arrow keys) to move around, wheel or pinch to zoom, F to fit everything.`);
    return shown;
  },

  orderedChildren(n) {
    let list = this.ordered.get(n);
    if (list) return list;
    list = n.children;
    if (this.order === 'search') list = searchOrder(n);
    else if (this.order === 'prescore' && list.length > 1 && (n.kind === 'max' || n.kind === 'min')) {
      // Best pre-score first for the player to move: how the search would have ordered them.
      const sign = n.kind === 'max' ? -1 : 1;
      const has = (c) => c.prescore && c.prescore.total !== null;
      list = list
        .map((c, i) => ({ c, i, r: has(c) ? 0 : 1, k: has(c) ? sign * c.prescore.total : 0 }))
        .sort((a, b) => a.r - b.r || a.k - b.k || a.i - b.i)
        .map((e) => e.c);
    } else if (this.order === 'visits' && list.length > 1 && list.some((c) => c.visits !== null)) {
      // Most visited first (MCTS); nodes without visits keep their order after them.
      list = list
        .map((c, i) => ({ c, i, r: c.visits === null ? 1 : 0, k: -(c.visits ?? 0) }))
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
  },

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
  },

  onFocusPath(n) {
    const f = this.focus && this.focus.more ? this.focus.parentNode : this.focus;
    if (!f || f.depth < n.depth) return false;
    let m = f;
    while (m && m.depth > n.depth) m = m.parent;
    return m === n;
  },

  isAncestorOrSelf(a, n) {
    for (let m = n; m; m = m.parent) if (m === a) return true;
    return false;
  },

  /** Opens the path to `node` and, as a click does, closes the branches off it (except the best line). */
  revealPath(node) {
    this.userMoved = true;
    for (const e of [...this.expanded]) if (!this.isAncestorOrSelf(e, node) && !this.isPv(e)) this.expanded.delete(e);
    for (let m = node.parent; m; m = m.parent) this.expanded.add(m);
  },

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
    this.info.textContent = `${this.countsText()} · laying out ${items.length.toLocaleString('en')}…`;
    worker.postMessage({ seq, parent, rowGap: ROW_H, cousinGap: COUSIN_GAP }, [parent.buffer]);
  },

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
  },

  /** Lays out a pending request on the page (the worker failed). */
  layoutHere(job) {
    const parent = Int32Array.from(job.items, (it) => (it.parent ? it.parent.index : -1));
    this.applyLayout(job, tidyLayout(parent, ROW_H, COUSIN_GAP));
  },

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
    this.info.textContent = `${this.countsText()} · ${items.length.toLocaleString('en')} shown`;
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
  },

  /** Runs `fn` once the pending layout is in place; false (and nothing queued) when none is pending. */
  afterLayout(fn) {
    if (!this.pendingLayout) return false;
    this.pendingLayout.after.push(fn);
    return true;
  },

  /** Resolves once no layout is pending (at once when none is). */
  whenLaidOut() {
    if (!this.pendingLayout) return Promise.resolve();
    return new Promise((resolve) => this.layoutWaiters.push(resolve));
  },

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
  },
};

/** The key of the "+K more" item under `n` (stable across layouts, unlike the item). */
function moreKey(n) {
  return `more:${n.id}:${n.depth}:${n.label}`;
}
