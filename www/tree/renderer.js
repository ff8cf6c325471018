// Draws the shown items on the canvas: edges, nodes with their labels, marks (find, picks, compare),
// chance probabilities on edges, the far-out banded view, and the legend under the view.
//
// Methods of the Explorer (explorer.js), which holds the state they share.

import { NODE_W, NODE_H, LEVEL_GAP, COLORS, PV_COLOR, BAND_GAP_PX, BAND_FILL, BAND_STROKE, BAND_TEXT, BAND_FONT, EDGE_LABEL_MIN_K, EDGE_LABEL_FONT, EDGE_LABEL_BG, CHANGED_COLOR, PICK_COLOR, MATCH_COLOR, FOCUS_COLOR, CUT_COLOR, LEGEND_ORDER, LEGEND_NAMES } from './constants.js';
import { el, roundRect } from './dom.js';
import { scoreText, boundedScore, percentShort, compactNumber, nodeName, plural, provenTag } from './format.js';
import { eachBefore } from './walk.js';
import { noteTag, NOTE_LEGEND, NULL_WINDOW, FAILED_HIGH, RESEARCH, NULL_MOVE, EXTENDED, SHORTENED, MULTI_CUT } from './note.js';

// The replay: how faint a node not reached yet is; the current node; a parent whose value changed.
const REPLAY_UNVISITED_ALPHA = 0.16;
const REPLAY_CURRENT_COLOR = '#e65100';
const REPLAY_CHANGED_COLOR = '#2e7d32';
/** Visits mode: the bar that shows a node's share of its parent's visits. */
const VISITS_COLOR = '#6a4fb3';

/** A node's visits as a share of its parent's (0 to 1); the root's is 1; null without visits. */
export function visitShare(n) {
  if (n.visits === null || n.visits === undefined) return null;
  const p = n.parent;
  if (!p) return 1;
  if (!(p.visits > 0)) return null;
  return Math.max(0, Math.min(1, n.visits / p.visits));
}

// Node labels: the largest font in which the text fits, before cutting it with an ellipsis.
const LINE1_FONTS = ['600 12.5px system-ui, sans-serif', '600 11px system-ui, sans-serif', '600 10px system-ui, sans-serif'];
const LINE2_FONTS = ['12px ui-monospace, SFMono-Regular, Menlo, monospace', '11px ui-monospace, SFMono-Regular, Menlo, monospace', '10px ui-monospace, SFMono-Regular, Menlo, monospace'];

/** Drawing. */
export const rendererMethods = {
  invalidate() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  },

  draw() {
    const now = performance.now();
    this.drawInner(now);
    const t1 = performance.now();
    this.timings.drawMs = t1 - now;
    if (this.frameLog) this.frameLog.push(t1 - now);
    if (this.paintFrom !== null && this.paintFrom !== undefined && this.model) {
      this.timings.firstPaintMs = t1 - this.paintFrom;
      this.paintFrom = null;
    }
  },

  drawInner(now) {
    if (this.anim || this.camTo) this.stepAnimation(now);
    const ctx = this.ctx;
    const { dpr, cam } = this;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.w, this.h);
    if (!this.model) return;
    const k = cam.k;
    ctx.setTransform(dpr * k, 0, 0, dpr * k, -cam.x * k * dpr, -cam.y * k * dpr);
    const vx0 = cam.x - NODE_W;
    const vx1 = cam.x + this.w / k + NODE_W;
    const vy0 = cam.y - NODE_H;
    const vy1 = cam.y + this.h / k + NODE_H;
    const inView = (it) => it.cx >= vx0 && it.cx <= vx1 && it.cy >= vy0 && it.cy <= vy1;
    let drawn = 0;

    // Edges, column by column; an edge is drawn when its span meets the view.
    const pvEdges = [];
    ctx.lineWidth = 1.2 / Math.max(k, 0.5);
    ctx.strokeStyle = '#a9b1bb';
    ctx.beginPath();
    const edgeTo = (it, p) => {
      const x0 = p.cx + NODE_W / 2;
      const y0 = p.cy;
      const x1 = it.cx - NODE_W / 2;
      const y1 = it.cy;
      if (Math.max(x0, x1) < vx0 || Math.min(x0, x1) > vx1 || Math.max(y0, y1) < vy0 || Math.min(y0, y1) > vy1) return;
      const mx = (x0 + x1) / 2;
      ctx.moveTo(x0, y0);
      ctx.bezierCurveTo(mx, y0, mx, y1, x1, y1);
    };
    // The path from the root to the focus is drawn darker.
    const focusIt = this.focusItem();
    const onPath = new Set();
    for (let a = focusIt; a; a = a.parent) onPath.add(a);
    const pathEdges = [];
    // Visits mode: an edge's width says its child's share of the parent's visits.
    const weighted = [];
    for (const it of this.items) {
      if (!it.parent) continue;
      if (!it.more && it.node.best && this.isPv(it.node)) pvEdges.push(it);
      else if (onPath.has(it)) pathEdges.push(it);
      else if (this.visitsMode && !it.more && visitShare(it.node) !== null) weighted.push(it);
      else edgeTo(it, it.parent);
    }
    ctx.stroke();
    for (const it of weighted) {
      ctx.lineWidth = (1 + 7 * Math.sqrt(visitShare(it.node))) / Math.max(k, 0.5);
      ctx.beginPath();
      edgeTo(it, it.parent);
      ctx.stroke();
    }
    if (pathEdges.length) {
      ctx.strokeStyle = '#4d5967';
      ctx.lineWidth = 2.2 / Math.max(k, 0.5);
      ctx.beginPath();
      for (const it of pathEdges) edgeTo(it, it.parent);
      ctx.stroke();
    }
    if (pvEdges.length) {
      ctx.strokeStyle = PV_COLOR;
      ctx.lineWidth = 3 / Math.max(k, 0.5);
      ctx.beginPath();
      for (const it of pvEdges) edgeTo(it, it.parent);
      ctx.stroke();
    }

    // Nodes. Far out, boxes are plain rectangles batched by kind (labels would not be legible anyway).
    const labels = k * 12 >= 6.5;
    if (k < 0.3 && !this.leaving.length) {
      drawn = this.drawCoarse(inView);
      this.lastDrawn = drawn;
      if (this.anim || this.camTo) this.invalidate();
      return;
    }
    const cutBy = this.hover && !this.hover.more && this.hover.node.cutoff ? this.hover.node.cutoff.by : undefined;
    for (const it of this.leaving) {
      if (!inView(it)) continue;
      ctx.globalAlpha = Math.max(0, it.alpha);
      this.drawNode(it, labels, false);
    }
    ctx.globalAlpha = 1;
    for (const it of this.items) {
      if (!inView(it)) continue;
      drawn++;
      if (it.alpha !== undefined && it.alpha < 1) ctx.globalAlpha = it.alpha;
      const cut = cutBy !== undefined && cutBy !== null && !it.more && String(it.node.id) === String(cutBy) && it.node.parent === this.hover.node.parent;
      // The replay: nodes the search has not reached yet are faint and unlabelled.
      const look = this.replay && !it.more ? this.replayLook(it.node) : null;
      if (look && !look.visited) ctx.globalAlpha *= REPLAY_UNVISITED_ALPHA;
      this.drawNode(it, labels && !(look && !look.visited), cut || !!(look && look.cutBy), look);
      ctx.globalAlpha = 1;
    }
    // Chance outcomes: the probability on the edge, just before the child's box.
    const edgeLabels = labels && k >= EDGE_LABEL_MIN_K ? this.drawEdgeProbabilities(inView) : [];
    this.lastDrawn = drawn;
    this.drawStats = { mode: labels ? 'labels' : 'boxes', boxes: drawn, bands: 0, banded: 0, labelled: 0, bandRects: [], edgeLabels };
    if (this.anim || this.camTo) this.invalidate();
  },

  /**
   * Writes each shown chance outcome's probability above the end of its edge (right-aligned against
   * the child's box). Returns where they went: [{ id, text, x, y }] in CSS pixels, for tests.
   */
  drawEdgeProbabilities(inView) {
    const ctx = this.ctx;
    const { cam } = this;
    const out = [];
    ctx.font = EDGE_LABEL_FONT;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'alphabetic';
    for (const it of this.items) {
      const p = it.parent;
      if (it.more || !p || p.more || p.node.kind !== 'chance' || it.node.prob === null || it.node.prob === undefined || !inView(it)) continue;
      const text = percentShort(it.node.prob);
      const x = it.cx - NODE_W / 2 - 5;
      const y = it.cy - 4;
      const w = ctx.measureText(text).width;
      ctx.fillStyle = EDGE_LABEL_BG;
      ctx.fillRect(x - w - 2, y - 10, w + 4, 13);
      ctx.fillStyle = COLORS.chance.stroke;
      ctx.fillText(text, x, y);
      out.push({ id: it.node.id, text, x: (x - w / 2 - cam.x) * cam.k, y: (y - 4 - cam.y) * cam.k });
    }
    return out;
  },

  drawNode(it, labels, cut, look = null) {
    const ctx = this.ctx;
    const k = this.cam.k;
    const n = it.node;
    const kind = it.more ? 'more' : n.kind;
    const c = COLORS[kind] || COLORS.node;
    const x = it.cx - NODE_W / 2;
    const y = it.cy - NODE_H / 2;
    const pv = !it.more && n.best && this.isPv(n);
    // A search whose result was replaced by a re-search (it failed high) is drawn dashed too.
    const dashed = kind === 'pruned' || kind === 'truncated' || kind === 'more' || (!it.more && (n.note & FAILED_HIGH) !== 0);
    ctx.fillStyle = c.fill;
    ctx.beginPath();
    roundRect(ctx, x, y, NODE_W, NODE_H, 7);
    ctx.fill();
    if (dashed) ctx.setLineDash([5, 3]);
    ctx.lineWidth = pv ? 2.6 : 1.3;
    ctx.strokeStyle = pv ? PV_COLOR : c.stroke;
    ctx.stroke();
    if (dashed) ctx.setLineDash([]);
    // A coloured bar on the left says the kind even when labels are too small to read.
    ctx.fillStyle = c.stroke;
    ctx.fillRect(x + 1, y + 5, 4, NODE_H - 10);
    if (cut) {
      ctx.lineWidth = 3;
      ctx.strokeStyle = CUT_COLOR;
      ctx.beginPath();
      roundRect(ctx, x - 4, y - 4, NODE_W + 8, NODE_H + 8, 9);
      ctx.stroke();
    }
    if (this.hover && (this.hover === it || (!it.more && !this.hover.more && this.hover.node === n))) {
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = c.stroke;
      ctx.beginPath();
      roundRect(ctx, x - 2, y - 2, NODE_W + 4, NODE_H + 4, 8);
      ctx.stroke();
    }
    const focused = this.focus === (it.more ? this.focus && this.focus.more && this.focus.key === it.key ? this.focus : null : n);
    if (focused) {
      ctx.lineWidth = 2;
      ctx.strokeStyle = FOCUS_COLOR;
      ctx.setLineDash([3, 2]);
      ctx.beginPath();
      roundRect(ctx, x - 3.5, y - 3.5, NODE_W + 7, NODE_H + 7, 9);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (this.visitsMode && !it.more) {
      // Visits mode: a bar along the bottom, as long as the node's share of its parent's visits.
      const share = visitShare(n);
      if (share !== null) {
        ctx.fillStyle = VISITS_COLOR;
        ctx.fillRect(x + 7, y + NODE_H - 4, (NODE_W - 14) * share, 2.5);
      }
    }
    if (!it.more) this.drawMarks(it, x, y);
    if (look && look.visited && (look.current || look.changed)) {
      // The replay's current node, and the parent whose value just changed.
      ctx.lineWidth = look.current ? 3.5 : 3;
      ctx.strokeStyle = look.current ? REPLAY_CURRENT_COLOR : REPLAY_CHANGED_COLOR;
      ctx.beginPath();
      roundRect(ctx, x - 5, y - 5, NODE_W + 10, NODE_H + 10, 10);
      ctx.stroke();
      if (look.changed) this.badge(x + NODE_W - 2, y + NODE_H, '↑', REPLAY_CHANGED_COLOR);
    }
    // The expand handle on the right edge.
    if (it.hasKids) {
      ctx.beginPath();
      ctx.arc(x + NODE_W, it.cy, 6.5, 0, Math.PI * 2);
      ctx.fillStyle = it.open ? c.stroke : '#ffffff';
      ctx.fill();
      ctx.lineWidth = 1.3;
      ctx.strokeStyle = c.stroke;
      ctx.stroke();
      if (k * 9 >= 5) {
        ctx.fillStyle = it.open ? '#ffffff' : c.stroke;
        ctx.font = 'bold 10px system-ui, sans-serif';
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(it.open ? '−' : '+', x + NODE_W, it.cy + 0.5);
      }
    }
    if (!labels) return;
    let [line1, line2, tag] = this.nodeLines(it);
    if (look && look.visited) {
      if (look.line2 !== null && look.line2 !== undefined) line2 = look.line2;
      if (look.tag) tag = look.tag;
    }
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    ctx.fillStyle = c.text;
    ctx.font = '10px system-ui, sans-serif';
    const tagW = tag ? ctx.measureText(tag).width + 4 : 0;
    const l1 = this.fitLabel(line1, NODE_W - 22 - tagW, LINE1_FONTS);
    ctx.font = l1.font;
    ctx.fillText(l1.text, x + 10, y + 16);
    if (tag) {
      ctx.font = '10px system-ui, sans-serif';
      ctx.textAlign = 'right';
      ctx.fillStyle = c.stroke;
      ctx.fillText(tag, x + NODE_W - 10, y + 15);
      ctx.textAlign = 'left';
      ctx.fillStyle = c.text;
    }
    const l2 = this.fitLabel(line2, NODE_W - 20, LINE2_FONTS);
    ctx.font = l2.font;
    ctx.fillText(l2.text, x + 10, y + 31);
  },

  /**
   * The far-out view. Boxes are plain rectangles, one fill and one outline pass per kind. Where the
   * boxes of a column would be less than BAND_GAP_PX apart on screen, each run of them is merged into
   * one band (drawn as a block, with its count when there is room to read it). The best line, the
   * focus, find matches, picks and changes are still drawn on top, node by node.
   */
  drawCoarse(inView) {
    const ctx = this.ctx;
    const k = this.cam.k;
    const gap = BAND_GAP_PX / k; // in world units
    const byKind = new Map();
    const shownItems = [];
    const bands = [];
    let boxes = 0;
    let banded = 0;
    const single = (it) => {
      boxes++;
      const kind = it.more ? 'more' : it.node.kind;
      let list = byKind.get(kind);
      if (!list) byKind.set(kind, (list = []));
      list.push(it);
    };
    const flush = (run) => {
      if (!run) return;
      if (run.items.length === 1) single(run.items[0]);
      else {
        bands.push(run);
        banded += run.items.length;
      }
    };
    // Columns are sorted by y: runs are found in one pass per column. A run is counted whole, also
    // where it goes on beyond the view, and drawn when it reaches into the view.
    const vy0 = this.cam.y - NODE_H;
    const vy1 = this.cam.y + this.h / k + NODE_H;
    const flushRun = (run) => {
      if (!run) return;
      if (run.y1 < vy0 || run.y0 > vy1 || !run.seen) return;
      flush(run);
    };
    for (const col of this.columns) {
      if (!col || !col.length) continue;
      let run = null;
      for (const it of col) {
        const seen = inView(it);
        if (seen) shownItems.push(it);
        const top = it.cy - NODE_H / 2;
        if (run && top - run.y1 < gap && Math.abs(it.cx - run.x) < 1) {
          run.y1 = Math.max(run.y1, it.cy + NODE_H / 2);
          run.items.push(it);
          run.seen ||= seen;
        } else {
          flushRun(run);
          run = { x: it.cx, y0: top, y1: it.cy + NODE_H / 2, items: [it], seen };
        }
      }
      flushRun(run);
    }
    ctx.lineWidth = 1.3 / k;
    for (const [kind, list] of byKind) {
      const c = COLORS[kind] || COLORS.node;
      ctx.fillStyle = c.fill;
      for (const it of list) ctx.fillRect(it.cx - NODE_W / 2, it.cy - NODE_H / 2, NODE_W, NODE_H);
      ctx.strokeStyle = c.stroke;
      ctx.beginPath();
      for (const it of list) ctx.rect(it.cx - NODE_W / 2, it.cy - NODE_H / 2, NODE_W, NODE_H);
      ctx.stroke();
    }
    const bandInfo = [];
    if (bands.length) {
      ctx.fillStyle = BAND_FILL;
      for (const b of bands) ctx.fillRect(b.x - NODE_W / 2, b.y0, NODE_W, b.y1 - b.y0);
      ctx.strokeStyle = BAND_STROKE;
      ctx.beginPath();
      for (const b of bands) ctx.rect(b.x - NODE_W / 2, b.y0, NODE_W, b.y1 - b.y0);
      ctx.stroke();
      // A bar on the left in the colour of the band's most common kind.
      for (const b of bands) {
        const count = new Map();
        let top = null;
        for (const it of b.items) {
          const kind = it.more ? 'more' : it.node.kind;
          const v = (count.get(kind) || 0) + 1;
          count.set(kind, v);
          if (top === null || v > count.get(top)) top = kind;
        }
        b.kind = top;
        b.nodes = b.items.reduce((s, it) => s + (it.more ? 0 : 1), 0);
        ctx.fillStyle = (COLORS[top] || COLORS.node).stroke;
        ctx.fillRect(b.x - NODE_W / 2, b.y0, Math.min(NODE_W / 3, 3 / k), b.y1 - b.y0);
      }
      // Counts, in screen pixels, where they fit (across the band, or along it when it is narrow).
      const { dpr } = this;
      ctx.save();
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.font = BAND_FONT;
      ctx.textBaseline = 'middle';
      ctx.textAlign = 'center';
      ctx.fillStyle = BAND_TEXT;
      for (const b of bands) {
        const sx0 = (b.x - NODE_W / 2 - this.cam.x) * k;
        const w = NODE_W * k;
        // The part of the band on screen: its count goes in the middle of what can be seen.
        const sy0 = Math.max(0, (b.y0 - this.cam.y) * k);
        const sy1 = Math.min(this.h, (b.y1 - this.cam.y) * k);
        const h = sy1 - sy0;
        const text = `${b.nodes.toLocaleString('en')} nodes`;
        const tw = ctx.measureText(text).width;
        let label = null;
        if (w >= tw + 8 && h >= 15) {
          ctx.fillText(text, sx0 + w / 2, (sy0 + sy1) / 2);
          label = 'across';
        } else if (LEVEL_GAP * k >= 14 && h >= tw + 10) {
          // Along the band, on a white outline so that it reads where it is wider than the band
          // (columns are at least 14 px apart here, so neighbouring counts do not touch).
          ctx.save();
          ctx.translate(sx0 + w / 2 + 1, (sy0 + sy1) / 2);
          ctx.rotate(-Math.PI / 2);
          ctx.lineWidth = 3;
          ctx.lineJoin = 'round';
          ctx.strokeStyle = 'rgba(255, 255, 255, 0.9)';
          ctx.strokeText(text, 0, 0);
          ctx.fillText(text, 0, 0);
          ctx.restore();
          label = 'along';
        }
        if (bandInfo.length < 200) bandInfo.push({ x: sx0, y: (b.y0 - this.cam.y) * k, width: w, height: (b.y1 - b.y0) * k, nodes: b.nodes, kind: b.kind, label });
      }
      ctx.restore();
    }
    ctx.strokeStyle = PV_COLOR;
    ctx.lineWidth = 3 / k;
    ctx.beginPath();
    for (const it of shownItems) if (!it.more && it.node.best && this.isPv(it.node)) ctx.rect(it.cx - NODE_W / 2, it.cy - NODE_H / 2, NODE_W, NODE_H);
    ctx.stroke();
    if (this.findState || this.diff || this.picks.length) {
      for (const it of shownItems) if (!it.more) this.drawMarks(it, it.cx - NODE_W / 2, it.cy - NODE_H / 2);
    }
    const f = this.focusItem();
    if (f && inView(f)) {
      ctx.strokeStyle = FOCUS_COLOR;
      ctx.lineWidth = 3 / k;
      ctx.strokeRect(f.cx - NODE_W / 2 - 6, f.cy - NODE_H / 2 - 6, NODE_W + 12, NODE_H + 12);
    }
    this.drawStats = { mode: 'far', boxes, bands: bands.length, banded, labelled: bandInfo.filter((b) => b.label).length, bandRects: bandInfo };
    return shownItems.length;
  },

  /** Find matches, picks ("why A and not B") and what changed since the compared search. */
  drawMarks(it, x, y) {
    const ctx = this.ctx;
    const n = it.node;
    if (this.findState && this.findState.set.has(n)) {
      ctx.fillStyle = MATCH_COLOR;
      ctx.fillRect(x + 8, y + NODE_H - 4, NODE_W - 16, 3);
    }
    const d = this.diff ? this.diff.diff.get(n) : null;
    if (d && d.bestChanged) {
      ctx.lineWidth = 2.5;
      ctx.strokeStyle = CHANGED_COLOR;
      ctx.setLineDash([6, 3]);
      ctx.beginPath();
      roundRect(ctx, x - 5.5, y - 5.5, NODE_W + 11, NODE_H + 11, 10);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (d && d.valueChanged) this.badge(x + NODE_W - 14, y, 'Δ', CHANGED_COLOR);
    const pi = this.picks.indexOf(n);
    if (pi >= 0) {
      ctx.lineWidth = 3;
      ctx.strokeStyle = PICK_COLOR;
      ctx.beginPath();
      roundRect(ctx, x - 3, y - 3, NODE_W + 6, NODE_H + 6, 9);
      ctx.stroke();
      this.badge(x + 2, y, pi === 0 ? 'A' : 'B', PICK_COLOR);
    }
  },

  badge(cx, cy, text, color) {
    const ctx = this.ctx;
    ctx.beginPath();
    ctx.arc(cx, cy, 8, 0, Math.PI * 2);
    ctx.fillStyle = color;
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = '#ffffff';
    ctx.stroke();
    if (this.cam.k * 11 >= 5) {
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 11px system-ui, sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(text, cx, cy + 0.5);
    }
  },

  nodeLines(it) {
    if (it.more) return [`+${it.hidden.toLocaleString('en')} more`, 'click to show', ''];
    const n = it.node;
    if (n.kind === 'pruned') {
      const count = n.count ?? (n.moves ? n.moves.length : 0);
      return [`✂ ${count} ${n.reason === 'futility' ? 'futile' : 'pruned'}`, n.moves && n.moves.length ? n.moves.slice(0, 4).join(' ') + (n.moves.length > 4 ? ' …' : '') : n.reason ?? '', ''];
    }
    if (n.kind === 'truncated') return [`${n.count ?? '?'} unrecorded`, 'node cap', ''];
    const label = nodeName(n);
    let line2 = n.value !== null ? boundedScore(n.value, n.bound) : n.kind === 'node' ? plural(n.children.length, 'child', 'children') : 'no value';
    if (n.visits !== null) {
      const share = visitShare(n);
      if (this.visitsMode && share !== null && n.parent) {
        // Visits first (what MCTS plays by), their share, then the mean in two decimals.
        const q = n.value === null ? '' : ` Q ${Math.abs(n.value) < 10 ? n.value.toFixed(2) : compactNumber(n.value)}`;
        line2 = `N ${compactNumber(n.visits)} ${percentShort(share)}${q}`;
      } else line2 = `${n.value === null ? '' : `Q ${compactNumber(n.value)} `}N ${compactNumber(n.visits)}`;
    }
    let tag = '';
    // The compared search's value goes top right, so that neither value is cut.
    const d = this.diff ? this.diff.diff.get(n) : null;
    if (d && d.valueChanged) tag = `was ${d.other.value === null ? '?' : scoreText(d.other.value)}`;
    else if (n.proven) tag = provenTag(n.value);
    else if (n.tt) tag = n.tt_worker ? `TT·W${n.tt_worker + 1}` : 'TT';
    else if (noteTag(n.note)) tag = noteTag(n.note);
    else if (n.tt_worker) tag = `W${n.tt_worker + 1}`;
    else if (n.kind === 'terminal') tag = 'end';
    else if (n.kind === 'chance') tag = 'chance';
    return [label, line2, tag];
  },

  /**
   * The first of `fonts` (largest first) in which `text` fits `width`; when none does, the text cut
   * with an ellipsis in the smallest. Returns { text, font }.
   */
  fitLabel(text, width, fonts) {
    const ctx = this.ctx;
    for (let i = 0; i < fonts.length - 1; i++) {
      const key = `fits|${fonts[i]}|${width}|${text}`;
      let fits = this.labelCache.get(key);
      if (fits === undefined) {
        ctx.font = fonts[i];
        fits = ctx.measureText(text).width <= width;
        this.labelCache.set(key, fits);
      }
      if (fits) return { text, font: fonts[i] };
    }
    const font = fonts[fonts.length - 1];
    ctx.font = font;
    return { text: this.fitText(text, width, font), font };
  },

  fitText(text, width, font) {
    const key = `${font}|${width}|${text}`;
    let s = this.labelCache.get(key);
    if (s !== undefined) return s;
    const ctx = this.ctx;
    s = text;
    if (ctx.measureText(s).width > width) {
      let lo = 0;
      let hi = s.length;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (ctx.measureText(s.slice(0, mid) + '…').width <= width) lo = mid;
        else hi = mid - 1;
      }
      s = s.slice(0, lo) + '…';
    }
    if (this.labelCache.size > 20000) this.labelCache.clear();
    this.labelCache.set(key, s);
    return s;
  },

  buildLegend() {
    if (!this.model) return;
    if ((!this.legendKinds || this.legendKinds.model !== this.model) && this.model.kindsPresent) {
      // Read from the wire form as the nodes were built: no walk over a million nodes here.
      this.legendKinds = { model: this.model, present: new Set(this.model.kindsPresent), pv: this.model.hasBestLine, notes: this.model.notesPresent || 0, proven: this.model.provenPresent === true, ttWorker: this.model.ttWorkerPresent === true };
    }
    if (!this.legendKinds || this.legendKinds.model !== this.model) {
      const present = new Set();
      let pv = false;
      let notes = 0;
      let proven = false;
      let ttWorker = false;
      eachBefore(this.model.root, (n) => {
        present.add(n.kind);
        if (n.best) pv = true;
        if (n.note) notes |= n.note;
        if (n.proven) proven = true;
        if (n.tt_worker) ttWorker = true;
      });
      this.legendKinds = { model: this.model, present, pv, notes, proven, ttWorker };
    }
    const { present, pv, notes, proven, ttWorker } = this.legendKinds;
    this.legend.replaceChildren();
    for (const k of LEGEND_ORDER) {
      if (!present.has(k)) continue;
      const c = COLORS[k];
      const sw = el('span', { class: `ps-swatch ps-k-${k}` });
      sw.style.background = c.fill;
      sw.style.borderColor = c.stroke;
      this.legend.append(el('span', { class: 'ps-legend-item' }, sw, LEGEND_NAMES[k]));
    }
    if (pv) {
      const sw = el('span', { class: 'ps-swatch ps-pv' });
      sw.style.borderColor = PV_COLOR;
      this.legend.append(el('span', { class: 'ps-legend-item' }, sw, 'best line'));
    }
    // How the search treated nodes (principal variation search, reductions, null moves): the tag
    // drawn at a node's top right, and what it means.
    const noteShown = [notes & 0xf0, notes & NULL_WINDOW, notes & RESEARCH, notes & NULL_MOVE, notes & EXTENDED, notes & SHORTENED, notes & MULTI_CUT];
    NOTE_LEGEND.forEach(([tag, meaning], k) => {
      if (!noteShown[k]) return;
      this.legend.append(el('span', { class: 'ps-legend-item', 'data-testid': 'legend-note' }, el('span', { class: 'ps-badge ps-note-badge', text: tag }), meaning));
    });
    // The MCTS solver's proofs: the tag drawn instead of a node's other tags.
    if (proven) {
      const who = this.model.meta?.perspective ? ` for ${this.model.meta.perspective}` : '';
      this.legend.append(el('span', { class: 'ps-legend-item', 'data-testid': 'legend-proven' }, el('span', { class: 'ps-badge ps-note-badge', text: 'WIN, LOSS, DRAW' }), `proven win, loss or draw${who} (MCTS solver)`));
    }
    // A parallel search: nodes whose value or first move came from a helper worker's entry in the
    // shared transposition table (workers numbered from 1, the main thread being worker 1).
    if (ttWorker) {
      this.legend.append(el('span', { class: 'ps-legend-item', 'data-testid': 'legend-tt-worker' }, el('span', { class: 'ps-badge ps-note-badge', text: 'Wn, TT·Wn' }), "first move (Wn) or value (TT·Wn) from worker n's table entry (parallel search)"));
    }
    if (this.findState && this.findState.hits.length) {
      const sw = el('span', { class: 'ps-swatch ps-match' });
      sw.style.borderColor = MATCH_COLOR;
      this.legend.append(el('span', { class: 'ps-legend-item' }, sw, 'find match'));
    }
    if (this.diff) {
      const d = el('span', { class: 'ps-badge', text: 'Δ' });
      d.style.background = CHANGED_COLOR;
      this.legend.append(el('span', { class: 'ps-legend-item' }, d, 'value changed'));
      const sw = el('span', { class: 'ps-swatch ps-changed' });
      sw.style.borderColor = CHANGED_COLOR;
      this.legend.append(el('span', { class: 'ps-legend-item' }, sw, 'best move changed'));
    }
  },
};
