// Canvas plumbing shared by the board renderers: a canvas kept sharp at any devicePixelRatio (its
// pixel size follows its CSS size), one drawing per animation frame, the decor (hints, cursor,
// selection) merged in, and conversions between client (CSS) and canvas pixels. A renderer extends
// CanvasBoard and supplies draw().

/** Whether the user asked for reduced motion. */
export function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}

/** 0..1 eased so that it slows down at the end. */
export function easeOut(k) {
  const t = Math.min(1, Math.max(0, k));
  return 1 - (1 - t) * (1 - t);
}

/** A rounded rectangle path. */
export function roundRect(ctx, x, y, w, h, r) {
  const rr = Math.max(0, Math.min(r, w / 2, h / 2));
  ctx.beginPath();
  ctx.moveTo(x + rr, y);
  ctx.arcTo(x + w, y, x + w, y + h, rr);
  ctx.arcTo(x + w, y + h, x, y + h, rr);
  ctx.arcTo(x, y + h, x, y, rr);
  ctx.arcTo(x, y, x + w, y, rr);
  ctx.closePath();
}

/** A search value shown at a move's cell: white text of `fs` pixels on a dark rounded badge, or
 * for the move played (`best`) dark text on a gold badge with a dark rim, which stands out on every
 * board colour (green Reversi, blue Connect Four, sand Khet, light Hive); centred on `cx`, its
 * bottom at `bottom`, at most `maxW` wide. */
export function valueBadge(ctx, text, cx, bottom, fs, maxW, best) {
  ctx.font = `700 ${fs}px system-ui, sans-serif`;
  const w = Math.min(maxW, ctx.measureText(text).width + fs * 0.6);
  const h = fs * 1.35;
  ctx.fillStyle = best ? '#ffd23f' : 'rgba(30, 30, 30, 0.78)';
  roundRect(ctx, cx - w / 2, bottom - h, w, h, fs * 0.3);
  ctx.fill();
  if (best) {
    ctx.lineWidth = Math.max(1.5, fs * 0.14);
    ctx.strokeStyle = '#1d1d1d';
    ctx.stroke();
  }
  ctx.fillStyle = best ? '#111' : '#fff';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, cx, bottom - h / 2, maxW - 2);
}

export class CanvasBoard {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    // What an earlier renderer said about its drawing (setData) is no longer true.
    for (const k of (canvas.dataset.drawnKeys || '').split(' ')) if (k) delete canvas.dataset[k];
    delete canvas.dataset.drawnKeys;
    this.view = null;
    this.decor = { hints: [], candidates: [], cursor: null, selected: null, showCursor: false };
    this.rainbow = false;
    this.frame = 0;
    this.dpr = window.devicePixelRatio || 1;
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(canvas);
    this.resize();
  }

  destroy() {
    this.resizeObserver.disconnect();
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.dead = true;
  }

  /** Follows the canvas's CSS size (in device pixels). */
  resize() {
    const r = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(r.width * dpr));
    const h = Math.max(1, Math.round(r.height * dpr));
    if (r.width > 0 && (this.canvas.width !== w || this.canvas.height !== h)) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    this.dpr = dpr;
    this.request();
  }

  /** Merges marks into the decor: {hints: [{x, y, kind, move}], candidates, cursor, selected,
   * selectedHand, showCursor}. */
  setDecor(decor) {
    this.decor = { ...this.decor, ...decor };
    this.request();
  }

  /** Asks for a drawing on the next animation frame. */
  request() {
    if (this.frame || this.dead) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Client (CSS) coordinates to canvas pixels. */
  toCanvas(clientX, clientY) {
    const r = this.canvas.getBoundingClientRect();
    return {
      px: ((clientX - r.left) * this.canvas.width) / (r.width || 1),
      py: ((clientY - r.top) * this.canvas.height) / (r.height || 1),
    };
  }

  /** Canvas pixels to client (CSS) coordinates. */
  toClient(px, py) {
    const r = this.canvas.getBoundingClientRect();
    return {
      x: r.left + (px * r.width) / (this.canvas.width || 1),
      y: r.top + (py * r.height) / (this.canvas.height || 1),
    };
  }

  /** Sets data attributes on the canvas saying what is drawn (for tests and tools); they stay
   * after destroy() (the picture does too) until another renderer takes the canvas. */
  setData(values) {
    const keys = new Set((this.canvas.dataset.drawnKeys || '').split(' ').filter(Boolean));
    for (const [k, v] of Object.entries(values)) {
      this.canvas.dataset[k] = String(v);
      keys.add(k);
    }
    this.canvas.dataset.drawnKeys = [...keys].join(' ');
  }

  /** The canvas's CSS size. */
  cssSize() {
    return { w: this.canvas.width / this.dpr, h: this.canvas.height / this.dpr };
  }

  /** The piece selected in a hand, {player, index}, whichever way the page passes it. */
  selectedHand() {
    const d = this.decor;
    return d.selectedHand || (d.selected && d.selected.hand) || null;
  }

  /** The selected cell {x, y}, or null (a selected hand piece is not a cell). */
  selectedCell() {
    const s = this.decor.selected;
    return s && typeof s.x === 'number' ? s : null;
  }
}
