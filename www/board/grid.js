// Square-grid board renderer (square boards and sliding tiles): draws the engine's board view on a
// canvas, sharp at any devicePixelRatio, animates placed, flipped, jumping and sliding pieces, and
// turns clicks into cells. It reads the view alone: cells and their pieces, walls, labels, the look
// asked for (view.style), the players' colours, and the last move.
//
// setView(view, animate)   view: the engine's BoardView (geometry square or tiles)
// setDecor({hints: [{x, y, kind}], cursor: {x,y}|null, selected: {x,y}|null, showCursor: bool})

import { CanvasBoard, easeOut, reducedMotion, roundRect, valueBadge } from './canvas.js';

const PLACE_MS = 180;
const FLIP_MS = 360;
const SLIDE_MS = 130;
const JUMP_MS = 260;
const POP_MS = 140;

const THEMES = {
  discs: {
    board: '#2e7d4f',
    boardAlt: '#2a744a',
    line: '#174a2c',
    frame: '#123b23',
    label: '#d9efe1',
    hint: 'rgba(255, 255, 255, 0.28)',
    last: '#ffcc33',
    cursor: '#ffffff',
    wall: '#6b5a45',
    clone: 'rgba(255, 230, 120, 0.9)',
    cloneCell: 'rgba(255, 230, 120, 0.16)',
    jump: 'rgba(170, 225, 255, 0.95)',
    players: ['#161616', '#f4f4f0'],
    rims: ['#000000', '#b9b9b2'],
  },
  tiles: {
    board: '#cfe3e0',
    boardAlt: '#cfe3e0',
    line: '#cfe3e0',
    frame: '#b7d1cd',
    label: '#55706c',
    hint: 'rgba(0,0,0,0)',
    last: '#e0a000',
    cursor: '#1e64c8',
    wall: '#888',
    players: ['#161616', '#f4f4f0'],
    rims: ['#000000', '#b9b9b2'],
  },
  // A frame of holes that discs drop into (Connect Four).
  slots: {
    board: '#1f5fb8',
    boardAlt: '#1f5fb8',
    line: '#1f5fb8',
    frame: '#174b94',
    label: '#dce8fb',
    hole: '#e8eef7',
    holeRim: '#16468a',
    hint: 'rgba(31, 95, 184, 0.35)',
    last: '#ffffff',
    cursor: '#ffd84a',
    wall: '#888',
    players: ['#d8342c', '#f4c21b'],
    rims: ['#8e1c16', '#a8800a'],
    drop: true,
  },
  marks: {
    board: '#fbf7ee',
    boardAlt: '#fbf7ee',
    line: '#5a5247',
    frame: '#e9e2d2',
    label: '#6d655a',
    hint: 'rgba(30, 100, 200, 0.16)',
    last: '#e0a000',
    cursor: '#1e64c8',
    wall: '#888',
    players: ['#c0392b', '#1f5fa8'],
    rims: ['#c0392b', '#1f5fa8'],
  },
};

/**
 * The grid a board view describes: {w, h, cells, kinds, walls}. `cells[i]` is what the animations
 * compare: the owner of the top piece (0, 1, ...), or a card's value on sliding tiles; `kinds[i]`
 * the top piece's kind.
 */
export function gridOf(view) {
  const g = view.geometry || {};
  const w = g.width || 0;
  const h = g.height || 0;
  const cells = new Array(w * h).fill(null);
  const kinds = new Array(w * h).fill(null);
  const walls = new Set();
  for (const c of view.cells || []) {
    if (c.at.x < 0 || c.at.y < 0 || c.at.x >= w || c.at.y >= h) continue;
    const i = c.at.y * w + c.at.x;
    if (c.blocked) walls.add(i);
    const top = c.pieces[c.pieces.length - 1];
    if (!top) continue;
    kinds[i] = top.kind;
    cells[i] = g.kind === 'tiles' ? Number(top.label) : (top.owner ?? null);
  }
  return { w, h, cells, kinds, walls };
}

export class GridBoard extends CanvasBoard {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    super(canvas);
    this.style = 'discs';
    this.colours = null; // the players' colours when the view gives them
    this.boardView = null; // the engine's view last shown
    this.view = null; // its grid (gridOf)
    this.decor = { ...this.decor, last: null };
    this.anims = new Map(); // cell index -> {kind, from, to, start, delay}
  }

  /** Shows the engine's board view; when `animate` (a move was played), pieces that appeared or
   * changed owner since the last view are animated (a jump travels, a swipe slides the cards). */
  setView(boardView, animate = true) {
    const view = gridOf(boardView);
    const prev = this.view;
    const now = performance.now();
    this.boardView = boardView;
    this.style = THEMES[boardView.style] ? boardView.style : 'discs';
    this.colours = Array.isArray(boardView.colours) && boardView.colours.length ? boardView.colours : null;
    const lastMove = boardView.last || null;
    const last = lastMove?.to || null;
    const from = lastMove && lastMove.kind === 'jump' ? lastMove.from : null;
    const swipe = lastMove && lastMove.kind === 'swipe' ? lastMove.direction : null;
    const labels = boardView.labels ? { col: (x) => boardView.labels.columns[x] ?? '', row: (y) => boardView.labels.rows[y] ?? '' } : null;
    const same = animate && prev && prev.w === view.w && prev.h === view.h && !reducedMotion();
    if (same && this.style === 'tiles' && swipe) {
      this.slide(prev, view, swipe, now);
    } else if (same) {
      const origin = last;
      for (let i = 0; i < view.cells.length; i++) {
        const a = prev.cells[i];
        const b = view.cells[i];
        if (a === b) continue;
        const x = i % view.w;
        const y = Math.floor(i / view.w);
        const dist = origin ? Math.max(Math.abs(x - origin.x), Math.abs(y - origin.y)) : 0;
        if (b != null && a == null && from && origin && origin.x === x && origin.y === y) {
          // A jump (Ataxx): the piece travels from its origin, rising a little on the way.
          this.anims.set(i, { kind: 'jump', to: b, start: now, delay: 0, ox: from.x - x, oy: from.y - y });
        } else if (b != null && (a == null || this.style === 'tiles')) this.anims.set(i, { kind: 'place', to: b, start: now, delay: 0 });
        else if (a != null && b != null && this.style !== 'tiles') {
          this.anims.set(i, { kind: 'flip', from: a, to: b, start: now, delay: PLACE_MS * 0.5 + dist * 45 });
        }
      }
    } else {
      this.anims.clear();
    }
    this.view = view;
    this.decor = { ...this.decor, last, from: lastMove?.from || null, labels };
    this.request();
  }

  /**
   * Cards that a swipe moved (the 'tiles' style): in each line, from the first cell (counted from
   * the wall the cards move to) that differs between the two views, every card came one cell from
   * behind; a card that was already in that first cell was merged into.
   */
  slide(prev, view, dir, now) {
    const step = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] }[dir];
    if (!step) return;
    const horizontal = step[1] === 0;
    const lines = horizontal ? view.h : view.w;
    const len = horizontal ? view.w : view.h;
    for (let l = 0; l < lines; l++) {
      const at = (i) => {
        const j = step[0] + step[1] > 0 ? len - 1 - i : i; // i counts from the wall
        return horizontal ? l * view.w + j : j * view.w + l;
      };
      let k = -1;
      for (let i = 0; i < len; i++) {
        if (prev.cells[at(i)] !== view.cells[at(i)]) {
          k = i;
          break;
        }
      }
      if (k < 0) continue;
      for (let i = k; i < len; i++) {
        const idx = at(i);
        if (view.cells[idx] == null) continue;
        const from = i + 1 < len ? prev.cells[at(i + 1)] : null;
        this.anims.set(idx, {
          kind: 'slide',
          start: now,
          delay: 0,
          ox: -step[0],
          oy: -step[1],
          value: from ?? view.cells[idx],
          under: i === k ? prev.cells[idx] : null,
          merge: i === k && prev.cells[idx] != null,
        });
      }
    }
  }

  /** Whether an animation is still running. */
  get animating() {
    return this.anims.size > 0;
  }

  /** The board's square in canvas pixels: {x0, y0, cell, margin}. */
  geometry() {
    const { width, height } = this.canvas;
    const v = this.view || { w: 8, h: 8 };
    const margin = Math.round(Math.min(width, height) * (v.w <= 3 ? 0.07 : 0.055));
    const cell = Math.floor(Math.min((width - 2 * margin) / v.w, (height - 2 * margin) / v.h));
    const x0 = Math.round((width - cell * v.w) / 2);
    const y0 = Math.round((height - cell * v.h) / 2);
    return { x0, y0, cell, margin };
  }

  /** The cell under a point given in client (CSS) coordinates, or null (this renderer draws no
   * pieces in hand, so it never answers `{hand}`). */
  hitTest(clientX, clientY) {
    if (!this.view) return null;
    const { px, py } = this.toCanvas(clientX, clientY);
    const { x0, y0, cell } = this.geometry();
    const x = Math.floor((px - x0) / cell);
    const y = Math.floor((py - y0) / cell);
    if (x < 0 || y < 0 || x >= this.view.w || y >= this.view.h) return null;
    return { x, y };
  }

  /** The cell an arrow key (`ArrowUp`, `ArrowDown`, `ArrowLeft`, `ArrowRight`) leads to from
   * `coord` for the keyboard cursor, or null at the board's edge (or for another key). */
  step(coord, key) {
    if (!this.view) return null;
    const d = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[key];
    if (!d) return null;
    const c = coord || { x: 0, y: 0 };
    const x = c.x + d[0];
    const y = c.y + d[1];
    if (x < 0 || y < 0 || x >= this.view.w || y >= this.view.h) return null;
    return { x, y };
  }

  /** The centre of a cell in client (CSS) coordinates, for tests and tooltips. */
  cellCenter(x, y) {
    const { x0, y0, cell } = this.geometry();
    return this.toClient(x0 + (x + 0.5) * cell, y0 + (y + 0.5) * cell);
  }

  playerColour(p, t) {
    if (this.rainbow) return `hsl(${(p * 180 + t / 12) % 360}, 80%, ${p ? 70 : 40}%)`;
    if (this.colours && this.colours[p]) return this.colours[p];
    const players = THEMES[this.style].players;
    return players[p] ?? `hsl(${(p * 97) % 360}, 60%, 50%)`;
  }

  rimColour(th, p) {
    if (this.colours) return 'rgba(0, 0, 0, 0.45)';
    return th.rims[p] ?? 'rgba(0, 0, 0, 0.45)';
  }

  draw() {
    const ctx = this.ctx;
    const th = THEMES[this.style] || THEMES.discs;
    const { width, height } = this.canvas;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    if (!this.view) return;
    const v = this.view;
    const { x0, y0, cell, margin } = this.geometry();
    const now = performance.now();
    const bw = cell * v.w;
    const bh = cell * v.h;

    // Frame and labels.
    ctx.fillStyle = th.frame;
    const pad = Math.max(margin - 2, 4);
    roundRect(ctx, x0 - pad, y0 - pad, bw + 2 * pad, bh + 2 * pad, pad * 0.6);
    ctx.fill();
    const labels = this.decor.labels;
    if (labels && margin >= 10) {
      ctx.fillStyle = th.label;
      ctx.font = `${Math.round(Math.min(margin * 0.62, cell * 0.4))}px system-ui, sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (let x = 0; x < v.w; x++) ctx.fillText(labels.col(x), x0 + (x + 0.5) * cell, y0 - pad / 2 - 1);
      for (let y = 0; y < v.h; y++) ctx.fillText(labels.row(y), x0 - pad / 2 - 1, y0 + (y + 0.5) * cell);
    }

    // Cells.
    for (let y = 0; y < v.h; y++) {
      for (let x = 0; x < v.w; x++) {
        const i = y * v.w + x;
        ctx.fillStyle = (x + y) % 2 ? th.boardAlt : th.board;
        ctx.fillRect(x0 + x * cell, y0 + y * cell, cell, cell);
        if (th.hole) {
          ctx.beginPath();
          ctx.arc(x0 + (x + 0.5) * cell, y0 + (y + 0.5) * cell, cell * 0.42, 0, Math.PI * 2);
          ctx.fillStyle = th.hole;
          ctx.fill();
          ctx.lineWidth = Math.max(1, cell * 0.03);
          ctx.strokeStyle = th.holeRim;
          ctx.stroke();
        }
        if (v.walls.has(i)) {
          ctx.fillStyle = th.wall;
          const g = cell * 0.06;
          roundRect(ctx, x0 + x * cell + g, y0 + y * cell + g, cell - 2 * g, cell - 2 * g, cell * 0.1);
          ctx.fill();
        }
      }
    }
    // Grid lines.
    ctx.strokeStyle = th.line;
    ctx.lineWidth = Math.max(1, Math.round(cell * (this.style === 'marks' ? 0.035 : 0.025)));
    ctx.beginPath();
    const inner = this.style === 'marks';
    for (let x = inner ? 1 : 0; x <= v.w - (inner ? 1 : 0); x++) {
      ctx.moveTo(x0 + x * cell, y0);
      ctx.lineTo(x0 + x * cell, y0 + bh);
    }
    for (let y = inner ? 1 : 0; y <= v.h - (inner ? 1 : 0); y++) {
      ctx.moveTo(x0, y0 + y * cell);
      ctx.lineTo(x0 + bw, y0 + y * cell);
    }
    ctx.stroke();

    // Hints (valid moves of a human player).
    // With a piece selected (Ataxx), clone targets (kind 'clone', distance 1: the piece stays) are
    // filled dots on a lit cell, jump targets (kind 'jump', distance 2: the piece leaves) rings.
    for (const h of this.decor.hints || []) {
      const cx = x0 + (h.x + 0.5) * cell;
      const cy = y0 + (h.y + 0.5) * cell;
      ctx.beginPath();
      if (h.kind === 'jump') {
        ctx.strokeStyle = th.jump || th.hint;
        ctx.lineWidth = Math.max(2, cell * 0.07);
        ctx.setLineDash([Math.max(3, cell * 0.09), Math.max(2, cell * 0.06)]);
        ctx.arc(cx, cy, cell * 0.24, 0, Math.PI * 2);
        ctx.stroke();
        ctx.setLineDash([]);
      } else if (h.kind === 'clone') {
        ctx.fillStyle = th.cloneCell || th.hint;
        ctx.fillRect(x0 + h.x * cell + 1, y0 + h.y * cell + 1, cell - 2, cell - 2);
        ctx.beginPath();
        ctx.fillStyle = th.clone || th.hint;
        ctx.arc(cx, cy, cell * 0.17, 0, Math.PI * 2);
        ctx.fill();
      } else {
        ctx.fillStyle = th.hint;
        ctx.arc(cx, cy, cell * (this.style === 'marks' ? 0.08 : 0.13), 0, Math.PI * 2);
        ctx.fill();
      }
    }

    // The last move, under the piece, on boards whose pieces are marks (a dot would cross them).
    if (this.decor.last && this.style !== 'discs' && this.style !== 'slots') {
      const c = this.decor.last;
      ctx.fillStyle = 'rgba(255, 196, 0, 0.22)';
      ctx.fillRect(x0 + c.x * cell, y0 + c.y * cell, cell, cell);
    }

    // Pieces, with their animations.
    for (let i = 0; i < v.cells.length; i++) {
      const x = i % v.w;
      const y = Math.floor(i / v.w);
      const a = this.anims.get(i);
      let owner = v.cells[i];
      let sx = 1;
      let sy = 1;
      const cx = x0 + (x + 0.5) * cell;
      let cy = y0 + (y + 0.5) * cell;
      if (a && a.kind === 'slide') {
        // A card sliding in from the cell behind, then (when it merged) a short pop.
        const t = now - a.start;
        if (t >= SLIDE_MS + (a.merge ? POP_MS : 0)) this.anims.delete(i);
        else if (t < SLIDE_MS) {
          const k = 1 - easeOut(Math.max(0, t / SLIDE_MS));
          if (a.under != null) this.drawPiece(ctx, th, a.under, cx, cy, cell, 1, 1, now);
          this.drawPiece(ctx, th, a.value, cx + a.ox * cell * k, cy + a.oy * cell * k, cell, 1, 1, now);
          continue;
        } else {
          const pop = 1 + 0.14 * Math.sin((Math.PI * (t - SLIDE_MS)) / POP_MS);
          this.drawPiece(ctx, th, owner, cx, cy, cell, pop, pop, now);
          continue;
        }
      } else if (a && a.kind === 'jump') {
        const t = now - a.start;
        if (t >= JUMP_MS) this.anims.delete(i);
        else {
          const k = easeOut(Math.max(0, t / JUMP_MS));
          const lift = 1 + 0.25 * Math.sin(Math.PI * k);
          this.drawPiece(ctx, th, owner, cx + a.ox * cell * (1 - k), cy + a.oy * cell * (1 - k), cell, lift, lift, now);
          continue;
        }
      } else if (a) {
        const t = now - a.start - a.delay;
        const dur = a.kind === 'flip' ? FLIP_MS : PLACE_MS;
        if (t >= dur) this.anims.delete(i);
        else if (a.kind === 'place' && th.drop) {
          // A disc falls from above the board to its cell, faster as it goes.
          const k = Math.max(0, t / dur);
          cy -= (y + 1) * cell * (1 - k * k);
        } else if (a.kind === 'place') {
          const k = Math.max(0, t / dur);
          sx = sy = easeOut(k);
        } else {
          const k = Math.max(0, t / dur);
          if (k < 0.5) {
            owner = a.from;
            sx = Math.cos(k * Math.PI);
          } else sx = -Math.cos(k * Math.PI);
        }
      }
      if (owner == null || (sx <= 0.001 && sy <= 0.001)) continue;
      this.drawPiece(ctx, th, owner, cx, cy, cell, sx, sy, now, v.kinds[i]);
    }

    // Last move, selection, cursor.
    const mark = (c, colour, width, inset) => {
      if (!c) return;
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      const g = inset;
      ctx.strokeRect(x0 + c.x * cell + g, y0 + c.y * cell + g, cell - 2 * g, cell - 2 * g);
    };
    const lw = Math.max(2, cell * 0.06);
    if (this.decor.last && (this.style === 'discs' || this.style === 'slots')) {
      const c = this.decor.last;
      ctx.fillStyle = th.last;
      ctx.beginPath();
      ctx.arc(x0 + (c.x + 0.5) * cell, y0 + (c.y + 0.5) * cell, Math.max(3, cell * 0.08), 0, Math.PI * 2);
      ctx.fill();
      ctx.lineWidth = Math.max(1, cell * 0.02);
      ctx.strokeStyle = th.line;
      ctx.stroke();
    }
    // The cell a jump left (Ataxx): a dashed outline, so the move reads from where to where.
    const from = this.decor.from;
    if (from && v.cells[from.y * v.w + from.x] == null && !this.anims.size) {
      ctx.strokeStyle = th.last;
      ctx.lineWidth = lw;
      ctx.setLineDash([Math.max(3, cell * 0.1), Math.max(2, cell * 0.07)]);
      ctx.strokeRect(x0 + from.x * cell + lw, y0 + from.y * cell + lw, cell - 2 * lw, cell - 2 * lw);
      ctx.setLineDash([]);
    }
    // Candidate moves of the last search or hint: a small label with the value.
    for (const c of this.decor.candidates || []) {
      valueBadge(ctx, c.text, x0 + (c.x + 0.5) * cell, y0 + (c.y + 1) * cell - 2, Math.max(9, Math.round(cell * 0.2)), cell - 4, c.best);
    }
    mark(this.decor.selected, th.last, lw, lw / 2);
    if (this.decor.showCursor) mark(this.decor.cursor, th.cursor, lw, lw / 2 + 1);

    if (this.anims.size > 0 || this.rainbow) this.request();
  }

  drawPiece(ctx, th, p, cx, cy, cell, sx, sy, now, kind = null) {
    const r = cell * 0.4;
    ctx.save();
    ctx.translate(cx, cy);
    ctx.scale(Math.max(sx, 0.001), Math.max(sy, 0.001));
    if (this.style === 'tiles') {
      // A card: 1 blue, 2 red, 3 and up white with dark figures.
      const v = p;
      const face = v === 1 ? '#66b3ff' : v === 2 ? '#ff6680' : '#ffffff';
      const ink = v <= 2 ? '#ffffff' : v >= 96 ? '#c0392b' : '#1f2420';
      const s = cell * 0.84;
      ctx.fillStyle = 'rgba(0,0,0,0.18)';
      roundRect(ctx, -s / 2, -s / 2 + cell * 0.04, s, s, cell * 0.1);
      ctx.fill();
      ctx.fillStyle = face;
      roundRect(ctx, -s / 2, -s / 2, s, s, cell * 0.1);
      ctx.fill();
      const text = String(v);
      ctx.fillStyle = ink;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      const size = cell * (text.length <= 2 ? 0.38 : text.length === 3 ? 0.3 : 0.24);
      ctx.font = `700 ${Math.round(size)}px system-ui, sans-serif`;
      ctx.fillText(text, 0, cell * 0.02);
    } else if (this.style === 'marks') {
      ctx.strokeStyle = this.playerColour(p, now);
      ctx.lineWidth = cell * 0.11;
      ctx.lineCap = 'round';
      ctx.beginPath();
      if (kind ? kind === 'x' : p === 0) {
        const d = r * 0.72;
        ctx.moveTo(-d, -d);
        ctx.lineTo(d, d);
        ctx.moveTo(d, -d);
        ctx.lineTo(-d, d);
      } else ctx.arc(0, 0, r * 0.75, 0, Math.PI * 2);
      ctx.stroke();
    } else {
      ctx.beginPath();
      ctx.arc(0, cell * 0.03, r, 0, Math.PI * 2);
      ctx.fillStyle = 'rgba(0,0,0,0.35)';
      ctx.fill();
      ctx.beginPath();
      ctx.arc(0, 0, r, 0, Math.PI * 2);
      ctx.fillStyle = this.playerColour(p, now);
      ctx.fill();
      ctx.lineWidth = Math.max(1, cell * 0.025);
      ctx.strokeStyle = this.rimColour(th, p);
      ctx.stroke();
      // A soft highlight so that discs read as discs.
      const g = ctx.createRadialGradient(-r * 0.35, -r * 0.4, r * 0.05, 0, 0, r);
      g.addColorStop(0, this.colours ? 'rgba(255,255,255,0.35)' : p === 0 ? 'rgba(255,255,255,0.22)' : 'rgba(255,255,255,0.6)');
      g.addColorStop(1, 'rgba(255,255,255,0)');
      ctx.fillStyle = g;
      ctx.fill();
    }
    ctx.restore();
  }
}
