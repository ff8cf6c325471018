// The explorer's camera: pan and zoom (world to screen), fitting the tree, centring on a node.
//
// Methods of the Explorer (explorer.js), which holds the state they share.

import { NODE_W, NODE_H, ANIM_MS, MIN_K, MAX_K, READABLE_K } from './constants.js';
import { prefersReducedMotion } from './dom.js';

/** Pan, zoom, fit and centring. */
export const cameraMethods = {
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
  },

  /**
   * Fits the shown nodes in the view, but never below `minK` (labels stop being drawn at 0.54; at
   * READABLE_K they read at about 11 px): a tree larger than that is shown from its left edge,
   * centred on the root, to be panned. The least zoom asked for is kept for later fits (a resize,
   * a live update) until another is asked for. The explorer's own fits stop at READABLE_K; the
   * Fit command asks for FIT_MIN_K.
   */
  fit(animate, minK = this.fitMinK ?? READABLE_K) {
    this.fitMinK = minK;
    if (this.afterLayout(() => this.fit(animate, minK))) return;
    if (!this.model || !this.bounds) return;
    const b = this.bounds;
    const pad = 24;
    const padBottom = 44; // the legend
    const bw = b.x1 - b.x0;
    const bh = b.y1 - b.y0;
    const avail = this.h - pad - padBottom;
    let k = Math.min(1.1, (this.w - 2 * pad) / bw, avail / bh);
    k = Math.max(k, minK); // below this labels are too small: centre on the root instead
    if (!Number.isFinite(k) || k <= 0) k = 1;
    const fitsV = bh * k <= avail;
    const x = b.x0 - pad / k;
    // When the tree is taller than the view, centre it vertically on the shown best line.
    const cy = fitsV ? (b.y0 + b.y1) / 2 : this.bestLineMidY();
    const y = cy - (pad + avail / 2) / k;
    this.setCamera(x, y, k, animate);
  },

  /** The middle, in world units, of the shown best line's boxes: the root's, then each shown best child's. */
  bestLineMidY() {
    let n = this.model.root;
    let it = this.itemOf.get(n);
    let lo = it.y;
    let hi = it.y;
    for (;;) {
      n = n.children.find((c) => c.best);
      it = n && this.itemOf.get(n);
      if (!it) break;
      lo = Math.min(lo, it.y);
      hi = Math.max(hi, it.y);
    }
    return (lo + hi) / 2;
  },

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
  },

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
  },

  zoomBy(f) {
    const k1 = Math.max(MIN_K, Math.min(MAX_K, this.cam.k * f));
    const cx = this.cam.x + this.w / 2 / this.cam.k;
    const cy = this.cam.y + this.h / 2 / this.cam.k;
    this.setCamera(cx - this.w / 2 / k1, cy - this.h / 2 / k1, k1, true);
  },

  nodeBox(id) {
    const it = this.items.find((i) => !i.more && String(i.node.id) === String(id)) || (id === 'more' ? this.items.find((i) => i.more) : null);
    if (!it) return null;
    const r = this.canvas.getBoundingClientRect();
    const k = this.cam.k;
    return { x: r.left + (it.x - this.cam.x) * k, y: r.top + (it.y - this.cam.y) * k, width: NODE_W * k, height: NODE_H * k };
  },
};
