// Game-tree renderer (geometry `tree`): draws a game tree the engine lays out level by level
// (the small abstract trees of the books), as the books draw them. Nodes are the view's cells (x across, y the level);
// the view's paths are the edges (kind "edge", or "path" from the root to the node reached). A
// MAX node (player 0's piece) is a triangle pointing up, a MIN node (player 1's) one pointing down,
// a chance node a circle, a leaf a box with its value; each carries its label. The node reached
// wears a ring (the "marker" piece), and the children the player may move to are ringed (hints).
// It knows no game: shapes come from owners and piece kinds, text from labels.
//
// setView(view, animate)   view: the engine's BoardView with geometry {kind: 'tree', width, height}
// setDecor({hints, candidates, cursor, selected, showCursor})

import { CanvasBoard, roundRect, valueBadge } from './canvas.js';

const COLOURS = {
  paper: '#fbf8f1',
  band: '#f1ece0',
  label: '#6d655a',
  edge: '#9d958a',
  path: '#e0a000',
  max: '#22313f',
  maxInk: '#ffffff',
  min: '#ffffff',
  minInk: '#22313f',
  rim: '#22313f',
  chance: '#d8e6f3',
  leaf: '#ffffff',
  leafInk: '#22313f',
  hint: '#1e64c8',
  cursor: '#1e64c8',
  marker: '#e0a000',
};

/** The node at (x, y) of a view: `{x, y, pieces}` by "x,y". */
function nodesOf(view) {
  const out = new Map();
  for (const c of view.cells || []) out.set(`${c.at.x},${c.at.y}`, { x: c.at.x, y: c.at.y, pieces: c.pieces || [] });
  return out;
}

export class TreeBoard extends CanvasBoard {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    super(canvas);
    this.nodes = new Map();
    this.edges = [];
    this.w = 1;
    this.h = 1;
  }

  /** Shows the engine's board view (nothing is animated: the marker just moves). */
  setView(view) {
    this.view = view;
    const g = view.geometry || {};
    this.w = Math.max(1, g.width || 1);
    this.h = Math.max(1, g.height || 1);
    this.nodes = nodesOf(view);
    this.edges = (view.paths || []).filter((p) => p.from && p.to);
    this.rows = view.labels && Array.isArray(view.labels.rows) ? view.labels.rows : [];
    this.last = view.last && view.last.to ? view.last.to : null;
    this.setData({ nodes: this.nodes.size, edges: this.edges.length });
    this.request();
  }

  get animating() {
    return false;
  }

  /**
   * Where things go, in canvas pixels: `{ox, oy, sx, sy, r, left}`: node (x, y) is drawn at
   * (ox + x * sx, oy + y * sy) with size r; `left` is the width kept for the level labels.
   */
  layout() {
    const { width, height } = this.canvas;
    const dpr = this.dpr || 1;
    const pad = 14 * dpr;
    const labelFont = Math.round(13 * dpr);
    this.ctx.font = `600 ${labelFont}px system-ui, sans-serif`;
    const left = Math.max(0, ...this.rows.map((t) => this.ctx.measureText(t).width)) + 12 * dpr;
    const innerW = Math.max(1, width - left - 2 * pad);
    const innerH = Math.max(1, height - 2 * pad);
    // Half a column each side of the outermost nodes, half a level above and below.
    const sx = innerW / this.w;
    const sy = innerH / this.h;
    // A node is at most about two fifths of the room it has across (two half-columns) and down.
    const r = Math.max(5 * dpr, Math.min(sx * 0.95, sy * 0.3, 34 * dpr));
    return { ox: left + pad + sx / 2, oy: pad + sy / 2, sx, sy, r, left, labelFont, pad };
  }

  /** The centre of node (x, y) in canvas pixels. */
  at(x, y, L = this.layout()) {
    return { px: L.ox + x * L.sx, py: L.oy + y * L.sy };
  }

  /** The node under a point in client (CSS) coordinates (within a little more than its size), or null. */
  hitTest(clientX, clientY) {
    if (!this.view) return null;
    const { px, py } = this.toCanvas(clientX, clientY);
    const L = this.layout();
    let best = null;
    let bestD = Infinity;
    for (const n of this.nodes.values()) {
      const c = this.at(n.x, n.y, L);
      const d = Math.hypot(c.px - px, c.py - py);
      if (d < bestD) {
        bestD = d;
        best = n;
      }
    }
    return best && bestD <= L.r * 1.4 ? { x: best.x, y: best.y } : null;
  }

  /** The centre of node (x, y) in client (CSS) coordinates. */
  cellCenter(x, y) {
    const c = this.at(x, y);
    return this.toClient(c.px, c.py);
  }

  /**
   * The node an arrow key leads to from `coord`: Left / Right the nearest node on the same level
   * that way, Up the parent, Down the first child; null where there is none.
   */
  step(coord, key) {
    if (!this.view) return null;
    const c = coord && this.nodes.has(`${coord.x},${coord.y}`) ? coord : this.rootCell();
    if (!c) return null;
    if (key === 'ArrowUp' || key === 'ArrowDown') {
      const down = key === 'ArrowDown';
      const links = this.edges.filter((e) => (down ? e.from.x === c.x && e.from.y === c.y : e.to.x === c.x && e.to.y === c.y));
      if (!links.length) return null;
      const e = down ? links.reduce((a, b) => (b.to.x < a.to.x ? b : a)) : links[0];
      const t = down ? e.to : e.from;
      return { x: t.x, y: t.y };
    }
    const dir = key === 'ArrowLeft' ? -1 : key === 'ArrowRight' ? 1 : 0;
    if (!dir) return null;
    let best = null;
    for (const n of this.nodes.values()) {
      if (n.y !== c.y || (n.x - c.x) * dir <= 0) continue;
      if (!best || Math.abs(n.x - c.x) < Math.abs(best.x - c.x)) best = n;
    }
    return best ? { x: best.x, y: best.y } : null;
  }

  rootCell() {
    for (const n of this.nodes.values()) if (n.y === 0) return { x: n.x, y: n.y };
    return null;
  }

  draw() {
    const ctx = this.ctx;
    const { width, height } = this.canvas;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    if (!this.view) return;
    const L = this.layout();
    const dpr = this.dpr || 1;
    ctx.fillStyle = COLOURS.paper;
    roundRect(ctx, 0, 0, width, height, 10 * dpr);
    ctx.fill();
    // A band per level, with the level's name on the left.
    for (let y = 0; y < this.h; y++) {
      const cy = L.oy + y * L.sy;
      if (y % 2 === 1) {
        ctx.fillStyle = COLOURS.band;
        const top = Math.max(0, cy - L.sy / 2);
        ctx.fillRect(0, top, width, Math.min(height - 10 * dpr, cy + L.sy / 2) - top);
      }
      const label = this.rows[y];
      if (label) {
        ctx.fillStyle = COLOURS.label;
        ctx.font = `600 ${L.labelFont}px system-ui, sans-serif`;
        ctx.textAlign = 'left';
        ctx.textBaseline = 'middle';
        ctx.fillText(label, L.pad * 0.6, cy);
      }
    }
    // Edges: the plain ones first, the path to the node reached over them.
    for (const pass of ['edge', 'path']) {
      ctx.strokeStyle = pass === 'path' ? COLOURS.path : COLOURS.edge;
      ctx.lineWidth = (pass === 'path' ? 4 : 1.6) * dpr;
      ctx.lineCap = 'round';
      ctx.beginPath();
      for (const e of this.edges) {
        if ((e.kind === 'path') !== (pass === 'path')) continue;
        const a = this.at(e.from.x, e.from.y, L);
        const b = this.at(e.to.x, e.to.y, L);
        ctx.moveTo(a.px, a.py);
        ctx.lineTo(b.px, b.py);
      }
      ctx.stroke();
    }
    const hints = this.decor.hints || [];
    // The children the player may move to: a dashed ring, under the node.
    for (const h of hints) {
      const c = this.at(h.x, h.y, L);
      ctx.strokeStyle = COLOURS.hint;
      ctx.lineWidth = 2.5 * dpr;
      ctx.setLineDash([5 * dpr, 4 * dpr]);
      ctx.beginPath();
      // Inside the room the node has across, so that neighbouring leaves' rings do not cross.
      ctx.arc(c.px, c.py, Math.min(L.r * 1.32, L.sx * 0.96), 0, Math.PI * 2);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    // Nodes.
    const path = new Set((this.view.highlights || []).filter((h) => h.kind === 'path').map((h) => `${h.at.x},${h.at.y}`));
    for (const n of this.nodes.values()) {
      const c = this.at(n.x, n.y, L);
      const node = n.pieces.find((p) => p.kind !== 'marker') || null;
      const marked = n.pieces.some((p) => p.kind === 'marker');
      if (node) this.drawNode(ctx, node, c.px, c.py, L.r, path.has(`${n.x},${n.y}`));
      if (marked) {
        ctx.strokeStyle = COLOURS.marker;
        ctx.lineWidth = 4 * dpr;
        ctx.beginPath();
        ctx.arc(c.px, c.py, L.r * 1.22, 0, Math.PI * 2);
        ctx.stroke();
      }
    }
    // A search's candidate moves: the value under the child.
    for (const cand of this.decor.candidates || []) {
      const c = this.at(cand.x, cand.y, L);
      const fs = Math.max(10 * dpr, Math.round(L.r * 0.45));
      valueBadge(ctx, cand.text, c.px, c.py + L.r * 1.35 + fs * 1.35, fs, Math.max(L.sx * 1.9, fs * 4), cand.best);
    }
    const ring = (cell, colour) => {
      if (!cell) return;
      const c = this.at(cell.x, cell.y, L);
      ctx.strokeStyle = colour;
      ctx.lineWidth = 3 * dpr;
      ctx.strokeRect(c.px - L.r * 1.3, c.py - L.r * 1.3, L.r * 2.6, L.r * 2.6);
    };
    ring(this.selectedCell(), COLOURS.marker);
    if (this.decor.showCursor) ring(this.decor.cursor, COLOURS.cursor);
    this.setData({ hints: hints.length });
  }

  /** One node: its shape by owner and kind, its label inside. */
  drawNode(ctx, p, cx, cy, r, onPath) {
    const dpr = this.dpr || 1;
    ctx.lineWidth = (onPath ? 3 : 2) * dpr;
    ctx.strokeStyle = onPath ? COLOURS.path : COLOURS.rim;
    let ink = COLOURS.leafInk;
    let textY = cy;
    ctx.beginPath();
    if (p.owner === 0) {
      // MAX: a triangle pointing up.
      ctx.moveTo(cx, cy - r);
      ctx.lineTo(cx + r * 0.98, cy + r * 0.72);
      ctx.lineTo(cx - r * 0.98, cy + r * 0.72);
      ctx.closePath();
      ctx.fillStyle = COLOURS.max;
      ink = COLOURS.maxInk;
      textY = cy + r * 0.22;
    } else if (p.owner === 1) {
      // MIN: a triangle pointing down.
      ctx.moveTo(cx, cy + r);
      ctx.lineTo(cx + r * 0.98, cy - r * 0.72);
      ctx.lineTo(cx - r * 0.98, cy - r * 0.72);
      ctx.closePath();
      ctx.fillStyle = COLOURS.min;
      ink = COLOURS.minInk;
      textY = cy - r * 0.22;
    } else if (p.kind === 'chance') {
      ctx.arc(cx, cy, r * 0.85, 0, Math.PI * 2);
      ctx.fillStyle = COLOURS.chance;
    } else {
      // A leaf (or any other neutral piece): a box with its value.
      roundRect(ctx, cx - r * 0.95, cy - r * 0.7, r * 1.9, r * 1.4, r * 0.2);
      ctx.fillStyle = COLOURS.leaf;
    }
    ctx.fill();
    ctx.stroke();
    const text = p.label == null ? '' : String(p.label);
    if (!text) return;
    ctx.fillStyle = ink;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const fs = Math.max(9 * dpr, Math.round(r * (text.length <= 2 ? 0.62 : text.length <= 4 ? 0.5 : 0.38)));
    ctx.font = `700 ${fs}px system-ui, sans-serif`;
    ctx.fillText(text, cx, textY, r * 1.8);
  }
}
