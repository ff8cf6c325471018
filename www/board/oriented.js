// Oriented-square renderer (geometry `oriented_square`: pieces that face a way, and a laser):
// draws the engine's board view on a canvas. Squares reserved to a player are tinted in that
// player's colour; each piece is drawn by kind with its facing (view orientation, degrees clockwise
// from up; a mirror's orientation is the way the mirror looks): a pyramid's mirror diagonal, a
// scarab's two-faced mirror, an anubis' shield front, a pharaoh's crown, a sphinx's lens, the eye
// of Horus' half mirror. The last shot's beam (view.paths, in cell units) is drawn as a bright line
// over the board, travelling out from the sphinx after a move (at once with reduced motion), and
// the pieces it destroyed (view.highlights and view.info) are shown being removed, then stay marked
// until the next move. Labels a..j and 1..8 come from view.labels. It reads the view alone and
// knows no rules.
//
//   new OrientedBoard(canvas); b.setView(view, animate); b.setDecor({hints, cursor, selected, showCursor})
//   b.hitTest(clientX, clientY) -> {x, y} | null;  b.cellCenter(x, y) -> client {x, y}
//   b.step(coord, key) -> coord | null (arrow keys, inside the board)
//
// For tests, the canvas's data attributes say what was drawn: data-pieces, data-beam (segments of
// the beam drawn in full), data-beam-total (segments in the view), data-destroyed (the squares
// marked destroyed, e.g. "e4 c3") and data-hints.
import { CanvasBoard, easeOut, reducedMotion, roundRect, valueBadge } from './canvas.js';

/** How fast the beam travels, in cells per millisecond (a whole board's shot takes ~0.5 s). */
const BEAM_SPEED = 0.06;
const REMOVE_MS = 420;
const MOVE_MS = 200;

const THEME = {
  frame: '#23262b',
  board: '#3a3f47',
  boardAlt: '#363b42',
  line: '#2a2e34',
  label: '#cfd6df',
  reserved: ['rgba(205, 215, 228, 0.34)', 'rgba(214, 64, 52, 0.40)'],
  reservedMark: ['rgba(235, 240, 248, 0.55)', 'rgba(255, 120, 105, 0.6)'],
  sides: [
    { body: '#d7dce3', light: '#f4f6f9', edge: '#59616c', ink: '#2f353d' },
    { body: '#c0392b', light: '#e1655a', edge: '#5a140e', ink: '#fff1ee' },
  ],
  mirror: '#e8fbff',
  mirrorEdge: '#3d8fb0',
  gold: '#e3b21c',
  beam: '#39ff6a',
  beamCore: '#f4fff6',
  hint: 'rgba(255, 255, 255, 0.55)',
  swap: '#c77dff',
  last: '#ffc62e',
  selected: '#ff8a1f',
  cursor: '#6fb4ff',
  destroyed: '#ff3b30',
};

export class OrientedBoard extends CanvasBoard {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    super(canvas);
    this.w = 10;
    this.h = 8;
    this.grid = []; // [y][x] -> {piece, reserved}
    this.beam = []; // [{from, to, d0, d1}] with distances along the beam from the sphinx
    this.beamStart = 0; // when the beam started travelling (0: drawn in full)
    this.lost = []; // [{x, y, piece, name, at}] with `at` the beam's distance to it
    this.moveAnim = null; // {x, y, fx, fy, start}
  }

  /** Shows the engine's board view; when `animate` (a move was played), the moved piece slides,
   * then the beam travels and the pieces it hits are removed. */
  setView(view, animate = true) {
    const prev = this.view;
    this.view = view;
    const g = view.geometry || {};
    this.w = g.width || 10;
    this.h = g.height || 8;
    this.grid = Array.from({ length: this.h }, () => Array.from({ length: this.w }, () => ({ piece: null, reserved: null })));
    for (const c of view.cells || []) {
      if (c.at.x < 0 || c.at.y < 0 || c.at.x >= this.w || c.at.y >= this.h) continue;
      const cell = this.grid[c.at.y][c.at.x];
      cell.piece = c.pieces && c.pieces.length ? c.pieces[c.pieces.length - 1] : null;
      cell.reserved = c.reserved ?? null;
    }
    // The beam, with each segment's distance from the start of its beam (splitter branches start
    // where their parent passed).
    const ends = new Map();
    this.beam = [];
    let total = 0;
    for (const s of view.paths || []) {
      const len = Math.hypot(s.to.x - s.from.x, s.to.y - s.from.y);
      const d0 = ends.get(`${s.from.x},${s.from.y}`) ?? 0;
      const d1 = d0 + len;
      if (!ends.has(`${s.to.x},${s.to.y}`)) ends.set(`${s.to.x},${s.to.y}`, d1);
      this.beam.push({ from: s.from, to: s.to, kind: s.kind, d0, d1 });
      total = Math.max(total, d1);
    }
    // The destroyed pieces: each highlight, with the piece the view's info names on that square.
    const lost = (view.info || []).filter((i) => i.label === 'destroyed' && i.piece);
    this.lost = (view.highlights || [])
      .filter((h) => h.kind === 'destroyed')
      .map((h) => {
        const name = this.cellName(h.at.x, h.at.y);
        const info = lost.find((i) => i.piece.label === name);
        return { x: h.at.x, y: h.at.y, name, piece: info ? info.piece : null, at: ends.get(`${h.at.x},${h.at.y}`) ?? total };
      });
    const now = performance.now();
    const motion = animate && !!prev && !reducedMotion();
    const last = view.last;
    this.moveAnim = motion && last && last.kind === 'move' && last.from && last.to ? { x: last.to.x, y: last.to.y, fx: last.from.x, fy: last.from.y, start: now } : null;
    const delay = this.moveAnim ? MOVE_MS : 0;
    this.beamStart = motion && this.beam.length ? now + delay : 0;
    this.beamTotal = total;
    this.publish(false);
    this.request();
  }

  /** Whether an animation is still running. */
  get animating() {
    return this.beamStart !== 0 || this.moveAnim != null;
  }

  /** The name of a square from the view's labels (`e4`). */
  cellName(x, y) {
    const l = this.view && this.view.labels;
    return l ? `${l.columns[x] ?? x}${l.rows[y] ?? y}` : `${x},${y}`;
  }

  // ---- layout and input ---------------------------------------------------------------------

  /** The board in canvas pixels: {x0, y0, cell, lab, infoY}. */
  geometry() {
    const W = this.canvas.width;
    const H = this.canvas.height;
    const small = Math.min(W, H) / this.dpr < 200;
    const pad = Math.round(Math.min(W, H) * (small ? 0.02 : 0.025));
    const labK = small ? 0 : 0.5; // room for labels, in cells
    const infoK = small ? 0 : 0.7; // room for the caption under the board, in cells
    const cell = Math.max(2, Math.floor(Math.min((W - 2 * pad) / (this.w + labK), (H - 2 * pad) / (this.h + labK + infoK))));
    const lab = Math.round(cell * labK);
    const bw = cell * this.w;
    const bh = cell * this.h;
    const x0 = Math.round((W - bw - lab) / 2 + lab);
    const y0 = Math.round((H - bh - lab - cell * infoK) / 2);
    return { x0, y0, cell, lab, small, infoY: y0 + bh + lab };
  }

  /** The cell under a point given in client (CSS) coordinates, or null. */
  hitTest(clientX, clientY) {
    if (!this.view) return null;
    const { px, py } = this.toCanvas(clientX, clientY);
    const { x0, y0, cell } = this.geometry();
    const x = Math.floor((px - x0) / cell);
    const y = Math.floor((py - y0) / cell);
    if (x < 0 || y < 0 || x >= this.w || y >= this.h) return null;
    return { x, y };
  }

  /** The centre of a cell in client (CSS) coordinates. */
  cellCenter(x, y) {
    const { x0, y0, cell } = this.geometry();
    return this.toClient(x0 + (x + 0.5) * cell, y0 + (y + 0.5) * cell);
  }

  /** The keyboard cursor's next square for an arrow key, or null at the edge. */
  step(coord, key) {
    const c = coord || { x: 0, y: 0 };
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
    if (!d) return null;
    const x = c.x + d[0];
    const y = c.y + d[1];
    return x < 0 || y < 0 || x >= this.w || y >= this.h ? null : { x, y };
  }

  /** Says in data attributes what the board shows (for tests and tools). */
  publish(beamDone) {
    let pieces = 0;
    for (const row of this.grid) for (const c of row) if (c.piece) pieces++;
    this.setData({
      pieces,
      beamTotal: this.beam.length,
      beam: beamDone || !this.beamStart ? this.beam.length : 0,
      destroyed: this.lost.map((d) => d.name).join(' '),
    });
  }

  // ---- drawing ------------------------------------------------------------------------------

  draw() {
    const ctx = this.ctx;
    const W = this.canvas.width;
    const H = this.canvas.height;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, W, H);
    if (!this.view) return;
    const now = performance.now();
    const { x0, y0, cell, lab, small, infoY } = this.geometry();
    const bw = cell * this.w;
    const bh = cell * this.h;

    // Frame, squares, reserved tints, labels.
    ctx.fillStyle = THEME.frame;
    const fp = Math.max(3, Math.round(cell * 0.08));
    roundRect(ctx, x0 - fp - lab, y0 - fp, bw + 2 * fp + lab, bh + 2 * fp + lab, fp * 1.5);
    ctx.fill();
    for (let y = 0; y < this.h; y++) {
      for (let x = 0; x < this.w; x++) {
        const px = x0 + x * cell;
        const py = y0 + y * cell;
        ctx.fillStyle = (x + y) % 2 ? THEME.boardAlt : THEME.board;
        ctx.fillRect(px, py, cell, cell);
        const r = this.grid[y][x].reserved;
        if (r != null) {
          ctx.fillStyle = THEME.reserved[r] || 'rgba(255,255,255,0.2)';
          ctx.fillRect(px, py, cell, cell);
          // A small ankh-like mark in the corner, so the tint reads without colour too.
          ctx.strokeStyle = THEME.reservedMark[r] || THEME.hint;
          ctx.lineWidth = Math.max(1, cell * 0.035);
          ctx.beginPath();
          ctx.arc(px + cell * 0.16, py + cell * 0.14, cell * 0.05, 0, Math.PI * 2);
          ctx.moveTo(px + cell * 0.16, py + cell * 0.19);
          ctx.lineTo(px + cell * 0.16, py + cell * 0.32);
          ctx.moveTo(px + cell * 0.09, py + cell * 0.24);
          ctx.lineTo(px + cell * 0.23, py + cell * 0.24);
          ctx.stroke();
        }
      }
    }
    ctx.strokeStyle = THEME.line;
    ctx.lineWidth = Math.max(1, Math.round(cell * 0.02));
    ctx.beginPath();
    for (let x = 0; x <= this.w; x++) {
      ctx.moveTo(x0 + x * cell, y0);
      ctx.lineTo(x0 + x * cell, y0 + bh);
    }
    for (let y = 0; y <= this.h; y++) {
      ctx.moveTo(x0, y0 + y * cell);
      ctx.lineTo(x0 + bw, y0 + y * cell);
    }
    ctx.stroke();
    const labels = this.view.labels;
    if (labels && lab >= 8) {
      ctx.fillStyle = THEME.label;
      ctx.font = `${Math.round(Math.min(lab * 0.62, cell * 0.32))}px system-ui, sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      for (let x = 0; x < this.w; x++) ctx.fillText(labels.columns[x] ?? '', x0 + (x + 0.5) * cell, y0 + bh + lab / 2);
      for (let y = 0; y < this.h; y++) ctx.fillText(labels.rows[y] ?? '', x0 - lab / 2 - fp / 2, y0 + (y + 0.5) * cell);
    }

    // The last move: where it came from (dashed) and where it went.
    const last = this.view.last;
    const lw = Math.max(2, cell * 0.055);
    if (last && last.from && last.kind !== 'rotate') {
      ctx.strokeStyle = THEME.last;
      ctx.lineWidth = lw;
      ctx.setLineDash([cell * 0.1, cell * 0.07]);
      ctx.strokeRect(x0 + last.from.x * cell + lw, y0 + last.from.y * cell + lw, cell - 2 * lw, cell - 2 * lw);
      ctx.setLineDash([]);
    }

    // Pieces (the moved one slides in).
    let mv = this.moveAnim;
    if (mv && now - mv.start >= MOVE_MS) mv = this.moveAnim = null;
    for (let y = 0; y < this.h; y++) {
      for (let x = 0; x < this.w; x++) {
        const p = this.grid[y][x].piece;
        if (!p) continue;
        let cx = x0 + (x + 0.5) * cell;
        let cy = y0 + (y + 0.5) * cell;
        if (mv && mv.x === x && mv.y === y) {
          const k = easeOut((now - mv.start) / MOVE_MS);
          cx += (mv.fx - x) * cell * (1 - k);
          cy += (mv.fy - y) * cell * (1 - k);
        }
        this.drawPiece(ctx, p, cx, cy, cell, 1);
      }
    }

    // The beam travels out; the pieces it destroys flash and fade to a marked ghost.
    const travelled = this.beamStart ? Math.max(0, (now - this.beamStart) * BEAM_SPEED) : Infinity;
    for (const d of this.lost) {
      const cx = x0 + (d.x + 0.5) * cell;
      const cy = y0 + (d.y + 0.5) * cell;
      const hitAt = this.beamStart ? this.beamStart + d.at / BEAM_SPEED : -Infinity;
      const t = now - hitAt;
      if (t < 0) {
        // Not reached yet: the piece still stands.
        if (d.piece) this.drawPiece(ctx, d.piece, cx, cy, cell, 1);
        continue;
      }
      const k = Math.min(1, t / REMOVE_MS);
      if (d.piece) {
        ctx.save();
        ctx.globalAlpha = 1 - 0.6 * easeOut(k);
        this.drawPiece(ctx, d.piece, cx, cy, cell * (1 + 0.25 * Math.sin(Math.PI * k)), 1);
        ctx.restore();
      }
      if (k < 1) {
        ctx.beginPath();
        ctx.arc(cx, cy, cell * (0.2 + 0.45 * k), 0, Math.PI * 2);
        ctx.strokeStyle = `rgba(255, 220, 120, ${1 - k})`;
        ctx.lineWidth = cell * 0.08 * (1 - k) + 1;
        ctx.stroke();
      }
      this.drawDestroyedMark(ctx, x0 + d.x * cell, y0 + d.y * cell, cell, easeOut(k));
    }

    this.drawBeam(ctx, x0, y0, cell, travelled);
    if (this.beamStart && travelled >= this.beamTotal && now - (this.beamStart + this.beamTotal / BEAM_SPEED) > REMOVE_MS) {
      this.beamStart = 0;
      this.publish(true);
    }

    if (last && last.to && last.kind !== 'rotate') {
      ctx.strokeStyle = THEME.last;
      ctx.lineWidth = lw;
      ctx.strokeRect(x0 + last.to.x * cell + lw / 2, y0 + last.to.y * cell + lw / 2, cell - lw, cell - lw);
    }
    if (last && last.kind === 'rotate' && last.from) this.drawTurnMark(ctx, x0, y0, cell, last.from, last.rotation || 90);

    // Targets of the human's moves: a dot for a step, a two-way ring for a swap.
    const kinds = new Map((this.view.moves || []).map((m) => [m.text, m.kind]));
    const hints = this.decor.hints || [];
    for (const h of hints) {
      const cx = x0 + (h.x + 0.5) * cell;
      const cy = y0 + (h.y + 0.5) * cell;
      const kind = h.kind === 'swap' || kinds.get(h.move) === 'swap' ? 'swap' : 'move';
      if (kind === 'swap') {
        ctx.strokeStyle = THEME.swap;
        ctx.lineWidth = Math.max(2, cell * 0.07);
        ctx.beginPath();
        ctx.arc(cx, cy, cell * 0.36, -Math.PI * 0.9, -Math.PI * 0.1);
        ctx.stroke();
        ctx.beginPath();
        ctx.arc(cx, cy, cell * 0.36, Math.PI * 0.1, Math.PI * 0.9);
        ctx.stroke();
        arrowHead(ctx, cx + cell * 0.36 * Math.cos(-Math.PI * 0.1), cy + cell * 0.36 * Math.sin(-Math.PI * 0.1), Math.PI * 0.4, cell * 0.12, THEME.swap);
        arrowHead(ctx, cx + cell * 0.36 * Math.cos(Math.PI * 0.9), cy + cell * 0.36 * Math.sin(Math.PI * 0.9), -Math.PI * 0.6, cell * 0.12, THEME.swap);
      } else {
        ctx.beginPath();
        ctx.fillStyle = THEME.hint;
        ctx.arc(cx, cy, cell * 0.13, 0, Math.PI * 2);
        ctx.fill();
      }
    }
    this.setData({ hints: hints.length });

    // Values of the last search or hint.
    for (const c of this.decor.candidates || []) {
      valueBadge(ctx, c.text, x0 + (c.x + 0.5) * cell, y0 + (c.y + 1) * cell - 2, Math.max(9, Math.round(cell * 0.2)), cell - 4, c.best);
    }

    const sel = this.selectedCell();
    if (sel) {
      ctx.strokeStyle = THEME.selected;
      ctx.lineWidth = lw * 1.3;
      ctx.strokeRect(x0 + sel.x * cell + lw, y0 + sel.y * cell + lw, cell - 2 * lw, cell - 2 * lw);
    }
    if (this.decor.showCursor && this.decor.cursor) {
      const c = this.decor.cursor;
      ctx.strokeStyle = THEME.cursor;
      ctx.lineWidth = lw;
      ctx.setLineDash([cell * 0.14, cell * 0.06]);
      ctx.strokeRect(x0 + c.x * cell + lw * 1.5, y0 + c.y * cell + lw * 1.5, cell - 3 * lw, cell - 3 * lw);
      ctx.setLineDash([]);
    }

    // A caption under the board: what the last shot destroyed.
    if (!small) {
      const lost = (this.view.info || []).filter((i) => i.label === 'destroyed').map((i) => i.text);
      const text = lost.length ? `Laser destroyed: ${lost.join(', ')}` : this.beam.length ? 'The laser hit nothing.' : '';
      if (text) {
        ctx.fillStyle = lost.length ? '#b3261e' : '#5b5f66';
        ctx.font = `${lost.length ? 600 : 400} ${Math.round(cell * 0.3)}px system-ui, sans-serif`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(text, x0 - lab + (bw + lab) / 2, infoY + cell * 0.38, bw + lab);
      }
    }

    if (this.animating || this.rainbow) this.request();
  }

  /** The beam up to `travelled` cells from the sphinx: a glow and a bright core. */
  drawBeam(ctx, x0, y0, cell, travelled) {
    if (!this.beam.length) return;
    const pt = (p) => ({ x: x0 + (p.x + 0.5) * cell, y: y0 + (p.y + 0.5) * cell });
    const path = () => {
      ctx.beginPath();
      for (const s of this.beam) {
        if (travelled <= s.d0) continue;
        const a = pt(s.from);
        const b = pt(s.to);
        const k = Math.min(1, (travelled - s.d0) / Math.max(1e-9, s.d1 - s.d0));
        ctx.moveTo(a.x, a.y);
        ctx.lineTo(a.x + (b.x - a.x) * k, a.y + (b.y - a.y) * k);
      }
    };
    ctx.save();
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    path();
    ctx.strokeStyle = 'rgba(57, 255, 106, 0.28)';
    ctx.lineWidth = Math.max(4, cell * 0.22);
    ctx.stroke();
    path();
    ctx.strokeStyle = THEME.beam;
    ctx.lineWidth = Math.max(2, cell * 0.085);
    ctx.stroke();
    path();
    ctx.strokeStyle = THEME.beamCore;
    ctx.lineWidth = Math.max(1, cell * 0.03);
    ctx.stroke();
    ctx.restore();
  }

  /** A destroyed square's mark: a red cross, growing in with `k`. */
  drawDestroyedMark(ctx, px, py, cell, k) {
    const g = cell * 0.2;
    ctx.save();
    ctx.strokeStyle = THEME.destroyed;
    ctx.lineWidth = Math.max(2, cell * 0.08);
    ctx.lineCap = 'round';
    ctx.globalAlpha = Math.max(0.15, k);
    ctx.beginPath();
    ctx.moveTo(px + g, py + g);
    ctx.lineTo(px + cell - g, py + cell - g);
    ctx.moveTo(px + cell - g, py + g);
    ctx.lineTo(px + g, py + cell - g);
    ctx.stroke();
    ctx.lineWidth = Math.max(1.5, cell * 0.045);
    ctx.strokeRect(px + cell * 0.06, py + cell * 0.06, cell * 0.88, cell * 0.88);
    ctx.restore();
  }

  /** The last move was a turn: a curved arrow round the piece in the turn's direction. */
  drawTurnMark(ctx, x0, y0, cell, at, rotation) {
    const cx = x0 + (at.x + 0.5) * cell;
    const cy = y0 + (at.y + 0.5) * cell;
    const r = cell * 0.44;
    const cw = rotation > 0;
    const a0 = -Math.PI * 0.75;
    const a1 = -Math.PI * 0.25;
    ctx.strokeStyle = THEME.last;
    ctx.lineWidth = Math.max(2, cell * 0.06);
    ctx.beginPath();
    ctx.arc(cx, cy, r, a0, a1);
    ctx.stroke();
    const end = cw ? a1 : a0;
    const dir = end + (cw ? Math.PI / 2 : -Math.PI / 2);
    arrowHead(ctx, cx + r * Math.cos(end), cy + r * Math.sin(end), dir, cell * 0.14, THEME.last);
  }

  /** One piece centred on (cx, cy) in a cell of `cell` pixels. */
  drawPiece(ctx, piece, cx, cy, cell, alpha) {
    const side = THEME.sides[piece.owner ?? 0] || THEME.sides[0];
    const deg = piece.orientation ?? 0;
    const h = cell * 0.4;
    ctx.save();
    ctx.globalAlpha *= alpha;
    ctx.translate(cx, cy);
    const body = (path) => {
      ctx.save();
      ctx.translate(cell * 0.02, cell * 0.04);
      path();
      ctx.fillStyle = 'rgba(0, 0, 0, 0.35)';
      ctx.fill();
      ctx.restore();
      path();
      const g = ctx.createLinearGradient(-h, -h, h, h);
      g.addColorStop(0, side.light);
      g.addColorStop(1, side.body);
      ctx.fillStyle = this.rainbow ? `hsl(${(performance.now() / 8) % 360}, 70%, 60%)` : g;
      ctx.fill();
      ctx.lineWidth = Math.max(1, cell * 0.03);
      ctx.strokeStyle = side.edge;
      ctx.stroke();
    };
    const mirror = (x1, y1, x2, y2, width) => {
      ctx.lineCap = 'round';
      ctx.strokeStyle = THEME.mirrorEdge;
      ctx.lineWidth = width + Math.max(2, cell * 0.03);
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x2, y2);
      ctx.stroke();
      ctx.strokeStyle = THEME.mirror;
      ctx.lineWidth = width;
      ctx.stroke();
    };
    switch (piece.kind) {
      case 'pyramid': {
        // The body fills the half behind the mirror; the mirror is the diagonal facing `deg`.
        ctx.rotate(((deg - 45) * Math.PI) / 180);
        body(() => {
          ctx.beginPath();
          ctx.moveTo(-h, -h);
          ctx.lineTo(h, h);
          ctx.lineTo(-h, h);
          ctx.closePath();
        });
        mirror(-h * 0.92, -h * 0.92, h * 0.92, h * 0.92, Math.max(2, cell * 0.075));
        // The owner's dot in the corner behind the mirror.
        ctx.beginPath();
        ctx.arc(-h * 0.5, h * 0.5, cell * 0.07, 0, Math.PI * 2);
        ctx.fillStyle = side.ink;
        ctx.fill();
        break;
      }
      case 'scarab': {
        // A two-faced mirror across the piece.
        ctx.rotate(((deg - 45) * Math.PI) / 180);
        body(() => {
          ctx.beginPath();
          ctx.ellipse(0, 0, h * 0.95, h * 0.72, Math.PI / 4, 0, Math.PI * 2);
        });
        mirror(-h * 0.95, -h * 0.95, h * 0.95, h * 0.95, Math.max(3, cell * 0.12));
        break;
      }
      case 'eye': {
        // The eye of Horus: a half mirror (dashed: the beam also passes) and an eye.
        ctx.rotate(((deg - 45) * Math.PI) / 180);
        body(() => {
          ctx.beginPath();
          ctx.arc(0, 0, h * 0.88, 0, Math.PI * 2);
        });
        ctx.setLineDash([cell * 0.09, cell * 0.06]);
        mirror(-h * 0.95, -h * 0.95, h * 0.95, h * 0.95, Math.max(2, cell * 0.07));
        ctx.setLineDash([]);
        ctx.rotate((-(deg - 45) * Math.PI) / 180);
        ctx.beginPath();
        ctx.moveTo(-h * 0.55, 0);
        ctx.quadraticCurveTo(0, -h * 0.5, h * 0.55, 0);
        ctx.quadraticCurveTo(0, h * 0.5, -h * 0.55, 0);
        ctx.fillStyle = '#fffbe8';
        ctx.fill();
        ctx.lineWidth = Math.max(1, cell * 0.03);
        ctx.strokeStyle = side.edge;
        ctx.stroke();
        ctx.beginPath();
        ctx.arc(0, 0, h * 0.16, 0, Math.PI * 2);
        ctx.fillStyle = '#1c2530';
        ctx.fill();
        break;
      }
      case 'anubis': {
        // A body with a gold shield on its front (the side facing `deg`) and a jackal's ears.
        ctx.rotate((deg * Math.PI) / 180);
        body(() => roundRect(ctx, -h * 0.85, -h * 0.6, h * 1.7, h * 1.5, h * 0.25));
        ctx.fillStyle = THEME.gold;
        roundRect(ctx, -h * 0.95, -h * 0.95, h * 1.9, h * 0.34, h * 0.12);
        ctx.fill();
        ctx.lineWidth = Math.max(1, cell * 0.025);
        ctx.strokeStyle = '#6b4d00';
        ctx.stroke();
        ctx.fillStyle = side.ink;
        for (const sgn of [-1, 1]) {
          ctx.beginPath();
          ctx.moveTo(sgn * h * 0.45, -h * 0.1);
          ctx.lineTo(sgn * h * 0.22, -h * 0.5);
          ctx.lineTo(sgn * h * 0.08, -h * 0.1);
          ctx.closePath();
          ctx.fill();
        }
        break;
      }
      case 'sphinx': {
        // The laser: a body pointed the way it shoots, with its lens at the point.
        ctx.rotate((deg * Math.PI) / 180);
        body(() => {
          ctx.beginPath();
          ctx.moveTo(-h * 0.85, h * 0.9);
          ctx.lineTo(h * 0.85, h * 0.9);
          ctx.lineTo(h * 0.85, -h * 0.15);
          ctx.lineTo(0, -h * 1.0);
          ctx.lineTo(-h * 0.85, -h * 0.15);
          ctx.closePath();
        });
        ctx.fillStyle = side.edge;
        roundRect(ctx, -h * 0.55, h * 0.3, h * 1.1, h * 0.22, h * 0.08);
        ctx.fill();
        ctx.beginPath();
        ctx.arc(0, -h * 0.4, h * 0.27, 0, Math.PI * 2);
        ctx.fillStyle = '#ff3b3b';
        ctx.fill();
        ctx.lineWidth = Math.max(1, cell * 0.03);
        ctx.strokeStyle = '#fff';
        ctx.stroke();
        break;
      }
      case 'pharaoh': {
        // The piece to protect: a crown.
        body(() => roundRect(ctx, -h * 0.9, -h * 0.9, h * 1.8, h * 1.8, h * 0.3));
        ctx.beginPath();
        ctx.moveTo(-h * 0.6, h * 0.4);
        ctx.lineTo(-h * 0.6, -h * 0.35);
        ctx.lineTo(-h * 0.3, h * 0.02);
        ctx.lineTo(0, -h * 0.55);
        ctx.lineTo(h * 0.3, h * 0.02);
        ctx.lineTo(h * 0.6, -h * 0.35);
        ctx.lineTo(h * 0.6, h * 0.4);
        ctx.closePath();
        ctx.fillStyle = THEME.gold;
        ctx.fill();
        ctx.lineWidth = Math.max(1, cell * 0.03);
        ctx.strokeStyle = '#6b4d00';
        ctx.stroke();
        break;
      }
      default: {
        body(() => {
          ctx.beginPath();
          ctx.arc(0, 0, h * 0.8, 0, Math.PI * 2);
        });
        ctx.fillStyle = side.ink;
        ctx.font = `700 ${Math.round(cell * 0.35)}px system-ui, sans-serif`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText((piece.label || piece.kind || '?').slice(0, 2), 0, 0);
      }
    }
    ctx.restore();
  }
}

/** A filled arrow head at (x, y) pointing along angle `dir`. */
function arrowHead(ctx, x, y, dir, size, colour) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(dir);
  ctx.beginPath();
  ctx.moveTo(size * 0.6, 0);
  ctx.lineTo(-size * 0.5, -size * 0.55);
  ctx.lineTo(-size * 0.5, size * 0.55);
  ctx.closePath();
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.restore();
}
