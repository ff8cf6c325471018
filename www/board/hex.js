// Hex-board renderer (geometry `hex`: stacks and pieces in hand): draws the engine's board view on a canvas. Hexes in
// axial coordinates with no bounds (pointy or flat as view.geometry.flat_top says); each cell holds
// a stack, bottom first, drawn as its top piece with the pieces under it peeking out and a height
// badge (hover or press a piece for its name, a stack for the whole stack); each player's pieces in hand in a strip
// beside the board, with their counts, which clicks pick. The board fits the canvas and recentres
// as the group of pieces grows; the mouse wheel or a two-finger pinch zooms, and a mouse drag or the
// pinch's two fingers pan (all reset when the board changes; one finger still scrolls the page). It reads the view alone and knows no rules.
//
//   new HexBoard(canvas); b.setView(view, animate); b.setDecor({hints, cursor, selected, showCursor})
//   b.hitTest(clientX, clientY) -> {x, y} | {hand: {player, index}} | null
//   b.cellCenter(x, y) -> client {x, y};  b.handCenter(player, index) -> client {x, y} | null
//   b.step(coord, key) -> coord | null (arrow keys walk the hexes)
//
// For tests, the canvas's data attributes say what was drawn: data-pieces (pieces on the board),
// data-stacks ("q,r:height" of every stack of two or more), data-hands ("Q1 S2 ...|..." per player)
// data-labels ("wQ bS1 ..." every piece on the board, by its UHP name) and data-hints (targets
// outlined). Each bug is drawn as an icon (BUG_ICONS) with its name (`S1`) under it.
import { CanvasBoard, easeOut, reducedMotion, roundRect, valueBadge } from './canvas.js';

const SQRT3 = Math.sqrt(3);
const MOVE_MS = 240;
const PLACE_MS = 200;
const CAMERA_MS = 260;
/** The largest hex, as a share of the board area's smaller side (a few pieces are not drawn huge). */
const MAX_HEX = 1 / 7.5;

const THEME = {
  background: '#e9dfc7',
  grid: 'rgba(110, 90, 55, 0.22)',
  sides: [
    { tile: '#f8f4e8', edge: '#8f8571', under: '#d9d2bf', ink: '#2b2724' },
    { tile: '#2c2825', edge: '#0d0c0b', under: '#55504b', ink: '#f8f4e8' },
  ],
  hint: '#1d7fd6',
  last: '#f0a400',
  selected: '#e8590c',
  cursor: '#1d4fd6',
  band: 'rgba(255, 255, 255, 0.42)',
  bandToMove: 'rgba(255, 214, 102, 0.38)',
  label: '#5b4e36',
};

/** Each bug's colour and letter (the letter is the view's label when it gives one). */
const BUGS = {
  queen: { colour: '#e0a100', letter: 'Q' },
  beetle: { colour: '#8450b0', letter: 'B' },
  grasshopper: { colour: '#3a9a34', letter: 'G' },
  spider: { colour: '#8a5526', letter: 'S' },
  ant: { colour: '#2a6cc4', letter: 'A' },
  mosquito: { colour: '#7d8590', letter: 'M' },
  ladybug: { colour: '#d1342a', letter: 'L' },
  pillbug: { colour: '#158f88', letter: 'P' },
};

// ---- bug icons -------------------------------------------------------------------------------
// Each icon is drawn in a unit box (about -1..1, head up) by a function (ctx, colour, ink): the
// body in the bug's colour with a dark outline, legs and feelers in `ink` (the tile's contrast
// colour), so that it reads on a white and on a black tile, down to the explorer's small previews.

const OUTLINE = 'rgba(20, 16, 12, 0.85)';

function ellipse(ctx, x, y, rx, ry, rot = 0) {
  ctx.beginPath();
  ctx.ellipse(x, y, rx, ry, rot, 0, Math.PI * 2);
}

function body(ctx, colour, x, y, rx, ry, rot = 0) {
  ellipse(ctx, x, y, rx, ry, rot);
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.lineWidth = 0.07;
  ctx.strokeStyle = OUTLINE;
  ctx.stroke();
}

/** Strokes a list of polylines ([[x, y], ...]) in `ink`. */
function lines(ctx, ink, width, paths) {
  ctx.beginPath();
  for (const path of paths) {
    path.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
  }
  ctx.lineWidth = width;
  ctx.strokeStyle = ink;
  ctx.stroke();
}

/** Mirror pairs: each leg path given for the right side, plus its mirror image. */
const both = (paths) => paths.flatMap((p) => [p, p.map(([x, y]) => [-x, y])]);

const BUG_ICONS = {
  // A bee: striped body, two wings, feelers.
  queen(ctx, colour, ink) {
    lines(ctx, ink, 0.09, both([[[0.12, -0.62], [0.3, -0.9]]]));
    ctx.globalAlpha *= 0.85;
    ellipse(ctx, 0.42, -0.2, 0.36, 0.2, -0.5);
    ctx.fillStyle = '#dff1ff';
    ctx.fill();
    ctx.lineWidth = 0.06;
    ctx.strokeStyle = OUTLINE;
    ctx.stroke();
    ellipse(ctx, -0.42, -0.2, 0.36, 0.2, 0.5);
    ctx.fill();
    ctx.stroke();
    ctx.globalAlpha /= 0.85;
    body(ctx, colour, 0, 0.12, 0.34, 0.62);
    ctx.save();
    ellipse(ctx, 0, 0.12, 0.34, 0.62);
    ctx.clip();
    ctx.fillStyle = OUTLINE;
    for (const y of [-0.12, 0.14, 0.4]) ctx.fillRect(-0.4, y, 0.8, 0.11);
    ctx.restore();
    body(ctx, OUTLINE, 0, -0.52, 0.17, 0.14);
  },
  // A beetle: a round shell split down the middle, a small head, six legs and two feelers.
  beetle(ctx, colour, ink) {
    lines(ctx, ink, 0.08, both([
      [[0.3, -0.25], [0.62, -0.45]],
      [[0.36, 0.1], [0.72, 0.12]],
      [[0.3, 0.42], [0.6, 0.7]],
      [[0.07, -0.62], [0.22, -0.86], [0.32, -0.82]],
    ]));
    body(ctx, OUTLINE, 0, -0.5, 0.2, 0.15);
    body(ctx, colour, 0, 0.1, 0.44, 0.56);
    lines(ctx, OUTLINE, 0.06, [[[0, -0.38], [0, 0.66]]]);
    lines(ctx, 'rgba(255, 255, 255, 0.45)', 0.06, [[[-0.24, -0.16], [-0.28, 0.14]]]);
  },
  // A grasshopper: a long body, long bent jumping legs, long feelers.
  grasshopper(ctx, colour, ink) {
    lines(ctx, ink, 0.07, both([[[0.08, -0.62], [0.3, -0.95]]]));
    lines(ctx, ink, 0.07, both([[[0.12, -0.2], [0.36, -0.3], [0.44, -0.12]], [[0.12, 0.0], [0.4, 0.06]]]));
    // The big hind legs: thigh up along the body, shin down.
    ctx.lineWidth = 0.16;
    ctx.strokeStyle = colour;
    lines(ctx, ink, 0.18, both([[[0.12, 0.3], [0.42, -0.05], [0.5, 0.85]]]));
    lines(ctx, colour, 0.09, both([[[0.12, 0.3], [0.42, -0.05], [0.5, 0.85]]]));
    body(ctx, colour, 0, 0.18, 0.17, 0.68);
    body(ctx, colour, 0, -0.5, 0.16, 0.17);
    lines(ctx, OUTLINE, 0.05, [[[-0.1, -0.28], [0.1, -0.28]]]);
  },
  // A spider: a round abdomen, a smaller head, eight bent legs.
  spider(ctx, colour, ink) {
    lines(ctx, ink, 0.08, both([
      [[0.1, -0.3], [0.45, -0.7], [0.62, -0.55]],
      [[0.14, -0.22], [0.6, -0.34], [0.8, -0.12]],
      [[0.14, -0.12], [0.6, 0.1], [0.76, 0.36]],
      [[0.1, -0.05], [0.44, 0.42], [0.52, 0.72]],
    ]));
    body(ctx, colour, 0, -0.2, 0.2, 0.18);
    body(ctx, colour, 0, 0.3, 0.33, 0.38);
    lines(ctx, OUTLINE, 0.06, [[[-0.1, 0.18], [0, 0.3], [0.1, 0.18]], [[-0.1, 0.34], [0, 0.46], [0.1, 0.34]]]);
  },
  // An ant: head, thorax and abdomen in a row, six legs, elbowed feelers.
  ant(ctx, colour, ink) {
    lines(ctx, ink, 0.07, both([
      [[0.06, -0.6], [0.25, -0.8], [0.38, -0.72]],
      [[0.08, -0.18], [0.45, -0.42], [0.62, -0.36]],
      [[0.1, -0.08], [0.55, -0.02], [0.72, 0.12]],
      [[0.08, 0.02], [0.4, 0.36], [0.5, 0.62]],
    ]));
    body(ctx, colour, 0, -0.47, 0.17, 0.15);
    body(ctx, colour, 0, -0.1, 0.12, 0.2);
    body(ctx, colour, 0, 0.42, 0.25, 0.34);
  },
  // A mosquito: a slim body, two long wings, a long proboscis, long thin legs.
  mosquito(ctx, colour, ink) {
    lines(ctx, ink, 0.05, both([
      [[0.08, -0.2], [0.5, -0.55], [0.6, -0.85]],
      [[0.1, -0.1], [0.6, 0.0], [0.85, 0.2]],
      [[0.08, 0.0], [0.45, 0.45], [0.55, 0.85]],
    ]));
    lines(ctx, ink, 0.06, [[[0, -0.5], [0, -0.95]]]);
    ctx.globalAlpha *= 0.8;
    ellipse(ctx, 0.3, 0.15, 0.16, 0.46, -0.35);
    ctx.fillStyle = '#e6eef5';
    ctx.fill();
    ctx.lineWidth = 0.05;
    ctx.strokeStyle = OUTLINE;
    ctx.stroke();
    ellipse(ctx, -0.3, 0.15, 0.16, 0.46, 0.35);
    ctx.fill();
    ctx.stroke();
    ctx.globalAlpha /= 0.8;
    body(ctx, colour, 0, -0.38, 0.13, 0.13);
    body(ctx, colour, 0, -0.08, 0.12, 0.18);
    body(ctx, colour, 0, 0.42, 0.1, 0.4);
  },
  // A ladybug: a red dome with black spots and a black head.
  ladybug(ctx, colour, ink) {
    lines(ctx, ink, 0.07, both([
      [[0.3, -0.25], [0.6, -0.4]],
      [[0.4, 0.1], [0.7, 0.14]],
      [[0.32, 0.42], [0.58, 0.66]],
      [[0.08, -0.6], [0.2, -0.82]],
    ]));
    body(ctx, OUTLINE, 0, -0.46, 0.26, 0.2);
    body(ctx, colour, 0, 0.1, 0.5, 0.54);
    lines(ctx, OUTLINE, 0.06, [[[0, -0.42], [0, 0.64]]]);
    ctx.fillStyle = OUTLINE;
    for (const [x, y, r] of [[0.22, -0.12, 0.1], [0.28, 0.26, 0.11], [0.14, 0.46, 0.08]]) {
      for (const sx of [x, -x]) {
        ctx.beginPath();
        ctx.arc(sx, y, r, 0, Math.PI * 2);
        ctx.fill();
      }
    }
    ellipse(ctx, 0.1, -0.5, 0.06, 0.05);
    ctx.fillStyle = '#fff';
    ctx.fill();
    ellipse(ctx, -0.1, -0.5, 0.06, 0.05);
    ctx.fill();
  },
  // A pillbug: an oval of overlapping plates, short legs and feelers.
  pillbug(ctx, colour, ink) {
    lines(ctx, ink, 0.07, both([
      [[0.36, -0.3], [0.58, -0.36]],
      [[0.42, -0.05], [0.66, -0.06]],
      [[0.42, 0.2], [0.64, 0.26]],
      [[0.34, 0.44], [0.54, 0.56]],
      [[0.1, -0.62], [0.28, -0.86]],
    ]));
    body(ctx, colour, 0, 0.04, 0.44, 0.68);
    ctx.save();
    ellipse(ctx, 0, 0.04, 0.44, 0.68);
    ctx.clip();
    ctx.beginPath();
    for (const y of [-0.38, -0.16, 0.06, 0.28, 0.5]) {
      ctx.moveTo(-0.5, y + 0.08);
      ctx.quadraticCurveTo(0, y - 0.1, 0.5, y + 0.08);
    }
    ctx.lineWidth = 0.06;
    ctx.strokeStyle = OUTLINE;
    ctx.stroke();
    ctx.restore();
  },
};

const key = (q, r) => `${q},${r}`;

/** The six axial neighbour steps. */
const STEPS = [
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, 0],
  [-1, 1],
  [0, 1],
];

export class HexBoard extends CanvasBoard {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    super(canvas);
    this.flat = false;
    this.cells = new Map(); // "q,r" -> {q, r, pieces}
    this.camera = null; // {s, ox, oy}: canvas pixel = (ox, oy) + s * unit(q, r)
    this.cameraAnim = null; // {from, start}
    this.user = { zoom: 1, dx: 0, dy: 0 }; // the wheel's zoom and the drag's pan
    this.anims = []; // [{kind: 'move'|'place', q, r, fq, fr, start}]
    this.hover = null; // the cell of the piece or stack under the pointer {q, r}
    this.quiet = null; // the cell pressed last with the mouse: no hover label there until the pointer leaves it
    this.layoutCache = null;
    this.drag = null;
    this.touches = new Map(); // touch pointers down: pointerId -> client {x, y}
    this.pinch = null; // two fingers down: {dist, zoom, ux, uy} when the pinch began
    this.onPointerDown = (ev) => this.pointerDown(ev);
    this.onPointerMove = (ev) => this.pointerMove(ev);
    this.onPointerUp = (ev) => this.pointerUp(ev);
    this.touchAction = canvas.style.touchAction;
    // One finger scrolls the page as on any canvas; two fingers are the board's (pinch and pan).
    canvas.style.touchAction = 'pan-x pan-y';
    this.onLeave = () => this.setHover(null);
    this.onWheel = (ev) => this.wheel(ev);
    this.onClickCapture = (ev) => {
      // The click that ends a pan is not a click on a cell.
      if (this.panned) {
        this.panned = false;
        ev.stopImmediatePropagation();
        ev.preventDefault();
      }
    };
    canvas.addEventListener('pointerdown', this.onPointerDown);
    canvas.addEventListener('pointermove', this.onPointerMove);
    canvas.addEventListener('pointerup', this.onPointerUp);
    canvas.addEventListener('pointercancel', this.onPointerUp);
    canvas.addEventListener('pointerleave', this.onLeave);
    canvas.addEventListener('wheel', this.onWheel, { passive: false });
    canvas.addEventListener('click', this.onClickCapture, { capture: true });
  }

  destroy() {
    super.destroy();
    const c = this.canvas;
    c.removeEventListener('pointerdown', this.onPointerDown);
    c.removeEventListener('pointermove', this.onPointerMove);
    c.removeEventListener('pointerup', this.onPointerUp);
    c.removeEventListener('pointercancel', this.onPointerUp);
    c.removeEventListener('pointerleave', this.onLeave);
    c.style.touchAction = this.touchAction;
    c.removeEventListener('wheel', this.onWheel);
    c.removeEventListener('click', this.onClickCapture, { capture: true });
  }

  /** Shows the engine's board view; when `animate` (a move was played) the moved piece travels,
   * a placed one grows, and the board glides to its new fit. */
  setView(view, animate = true) {
    const prev = this.view;
    this.view = view;
    this.flat = !!(view.geometry && view.geometry.flat_top);
    const cells = new Map();
    for (const c of view.cells || []) {
      if (c.pieces && c.pieces.length) cells.set(key(c.at.x, c.at.y), { q: c.at.x, r: c.at.y, pieces: c.pieces });
    }
    const changed = !prev || !sameCells(this.cells, cells);
    this.cells = cells;
    const now = performance.now();
    const motion = animate && prev && !reducedMotion();
    this.anims = [];
    const last = view.last;
    if (motion && last && last.to && changed) {
      if (last.kind === 'move' && last.from) {
        this.anims.push({ kind: 'move', q: last.to.x, r: last.to.y, fq: last.from.x, fr: last.from.y, start: now });
      } else if (last.kind === 'place') {
        this.anims.push({ kind: 'place', q: last.to.x, r: last.to.y, start: now });
      }
    }
    if (changed) this.user = { zoom: 1, dx: 0, dy: 0 };
    // The camera glides from where it was to the new fit.
    this.cameraAnim = motion && this.camera ? { from: { ...this.camera }, start: now } : null;
    this.layoutCache = null;
    if (this.hover && !this.cells.has(key(this.hover.q, this.hover.r))) this.hover = null;
    if (changed) this.quiet = null;
    this.publish();
    this.request();
  }

  resize() {
    this.layoutCache = null;
    super.resize();
  }

  /** Whether an animation is still running. */
  get animating() {
    return this.anims.length > 0 || this.cameraAnim != null;
  }

  // ---- layout -------------------------------------------------------------------------------

  /** The unit-size pixel offset of a hex centre. */
  unit(q, r) {
    return this.flat ? { x: 1.5 * q, y: SQRT3 * (r + q / 2) } : { x: SQRT3 * (q + r / 2), y: 1.5 * r };
  }

  /** The fractional axial coordinates of a unit-size pixel offset, rounded to a hex. */
  unitToHex(x, y) {
    const q = this.flat ? (2 / 3) * x : (SQRT3 / 3) * x - y / 3;
    const r = this.flat ? -x / 3 + (SQRT3 / 3) * y : (2 / 3) * y;
    return cubeRound(q, r);
  }

  /** Whether the hands are drawn (not on small previews). */
  showHands() {
    const { w, h } = this.cssSize();
    const hands = (this.view && this.view.hands) || [];
    return Math.min(w, h) >= 200 && hands.length > 0;
  }

  /** The board area, the hand strips and the fitted camera, in canvas pixels. */
  layout() {
    if (this.layoutCache) return this.layoutCache;
    const W = this.canvas.width;
    const H = this.canvas.height;
    const pad = Math.round(Math.min(W, H) * 0.02);
    const hands = [];
    let area = { x: pad, y: pad, w: W - 2 * pad, h: H - 2 * pad };
    const players = (this.view && this.view.hands) || [];
    if (this.showHands()) {
      const slotsMax = Math.max(5, ...players.map((l) => l.length));
      if (W > H * 1.3) {
        // Wide: a column each side (first player left).
        const t = Math.round(Math.min(W * 0.14, (H - 2 * pad) / slotsMax) + pad);
        players.forEach((_, p) => {
          const x = p === 0 ? pad : W - pad - t;
          hands.push({ player: p, x, y: pad, w: t, h: H - 2 * pad, vertical: true });
        });
        area = { x: pad + t + pad, y: pad, w: W - 2 * (t + 2 * pad), h: H - 2 * pad };
      } else {
        // Square or tall: a row above (second player) and below (first player).
        const t = Math.round(Math.min(H * 0.13, (W - 2 * pad) / slotsMax));
        players.forEach((_, p) => {
          const y = p === 0 ? H - pad - t : pad;
          hands.push({ player: p, x: pad, y, w: W - 2 * pad, h: t, vertical: false });
        });
        area = { x: pad, y: pad + t + pad, w: W - 2 * pad, h: H - 2 * (t + 2 * pad) };
      }
    }
    // Every hand slot's token.
    for (const z of hands) {
      const list = players[z.player] || [];
      const n = Math.max(list.length, 1);
      const len = z.vertical ? z.h : z.w;
      const thick = z.vertical ? z.w : z.h;
      const slot = Math.min(len / Math.max(n, 5), thick * 1.25);
      const start = (len - slot * n) / 2;
      const radius = Math.min(thick * 0.36, slot * 0.38);
      z.slots = list.map((hp, i) => {
        const along = start + slot * (i + 0.5);
        return {
          index: i,
          piece: hp.piece,
          count: hp.count,
          x: z.vertical ? z.x + z.w / 2 : z.x + along,
          y: z.vertical ? z.y + along : z.y + z.h / 2,
          radius,
        };
      });
    }
    // The cells to keep in sight: every piece with the ring of empty hexes drawn around the
    // pieces (so that the hand strips never clip it), every target, and the last move's cells.
    const pts = [];
    for (const c of this.cells.values()) {
      pts.push([c.q, c.r]);
      for (const [dq, dr] of STEPS) pts.push([c.q + dq, c.r + dr]);
    }
    for (const m of (this.view && this.view.moves) || []) if (m.to) pts.push([m.to.x, m.to.y]);
    const last = this.view && this.view.last;
    if (last && last.from) pts.push([last.from.x, last.from.y]);
    if (last && last.to) pts.push([last.to.x, last.to.y]);
    if (!pts.length) pts.push([0, 0]);
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    const hw = this.flat ? 1 : SQRT3 / 2; // half a hex's width and height at unit size
    const hh = this.flat ? SQRT3 / 2 : 1;
    for (const [q, r] of pts) {
      const u = this.unit(q, r);
      minX = Math.min(minX, u.x - hw);
      maxX = Math.max(maxX, u.x + hw);
      minY = Math.min(minY, u.y - hh);
      maxY = Math.max(maxY, u.y + hh);
    }
    // Half a hex of room around it.
    minX -= hw * 0.5;
    maxX += hw * 0.5;
    minY -= hh * 0.5;
    maxY += hh * 0.5;
    const s = Math.max(2, Math.min(area.w / (maxX - minX), area.h / (maxY - minY), Math.min(area.w, area.h) * MAX_HEX));
    const fit = {
      s,
      ox: area.x + area.w / 2 - (s * (minX + maxX)) / 2,
      oy: area.y + area.h / 2 - (s * (minY + maxY)) / 2,
    };
    this.layoutCache = { area, hands, fit, bounds: { minX, maxX, minY, maxY } };
    return this.layoutCache;
  }

  /** The camera to draw with now: the fit, with the user's zoom and pan, eased in after a move. */
  currentCamera(now = performance.now()) {
    const { area, fit } = this.layout();
    const z = this.user.zoom;
    const cx = area.x + area.w / 2;
    const cy = area.y + area.h / 2;
    let cam = { s: fit.s * z, ox: cx + (fit.ox - cx) * z + this.user.dx, oy: cy + (fit.oy - cy) * z + this.user.dy };
    if (this.cameraAnim) {
      const k = (now - this.cameraAnim.start) / CAMERA_MS;
      if (k >= 1) this.cameraAnim = null;
      else {
        const e = easeOut(k);
        const f = this.cameraAnim.from;
        cam = { s: f.s + (cam.s - f.s) * e, ox: f.ox + (cam.ox - f.ox) * e, oy: f.oy + (cam.oy - f.oy) * e };
      }
    }
    this.camera = cam;
    return cam;
  }

  /** A hex centre in canvas pixels. */
  centre(q, r, cam = this.layoutCamera()) {
    const u = this.unit(q, r);
    return { x: cam.ox + cam.s * u.x, y: cam.oy + cam.s * u.y };
  }

  // ---- input --------------------------------------------------------------------------------

  /** The cell or hand piece under a point in client (CSS) coordinates, or null. */
  hitTest(clientX, clientY) {
    if (!this.view) return null;
    const { px, py } = this.toCanvas(clientX, clientY);
    const { area, hands } = this.layout();
    for (const z of hands) {
      for (const t of z.slots) {
        if (Math.hypot(px - t.x, py - t.y) <= t.radius * 1.15) return { hand: { player: z.player, index: t.index } };
      }
      if (px >= z.x && px <= z.x + z.w && py >= z.y && py <= z.y + z.h) return null;
    }
    if (px < area.x || py < area.y || px > area.x + area.w || py > area.y + area.h) return null;
    const cam = this.layoutCamera();
    const h = this.unitToHex((px - cam.ox) / cam.s, (py - cam.oy) / cam.s);
    return { x: h.q, y: h.r };
  }

  /** The centre of a cell in client (CSS) coordinates. */
  cellCenter(x, y) {
    // Where it is drawn once the board has glided to its fit (as hitTest reads it), so that a
    // point asked for during the glide is still on the cell when it is clicked.
    const c = this.centre(x, y, this.layoutCamera());
    return this.toClient(c.x, c.y);
  }

  /** The centre of a hand piece in client (CSS) coordinates, or null when it is not drawn. */
  handCenter(player, index) {
    const z = this.layout().hands.find((h) => h.player === player);
    const t = z && z.slots[index];
    return t ? this.toClient(t.x, t.y) : null;
  }

  /** The camera once the glide is over (where a click will land). */
  layoutCamera() {
    const { area, fit } = this.layout();
    const z = this.user.zoom;
    const cx = area.x + area.w / 2;
    const cy = area.y + area.h / 2;
    return { s: fit.s * z, ox: cx + (fit.ox - cx) * z + this.user.dx, oy: cy + (fit.oy - cy) * z + this.user.dy };
  }

  /**
   * The keyboard cursor's next hex from `coord` for an arrow key: left and right along the row,
   * up and down to the row above or below, zigzagging so that the cursor stays in its column.
   * Null when the key is not an arrow or the hex would leave the drawn board.
   */
  step(coord, keyName) {
    const c = coord || { x: 0, y: 0 };
    let d = null;
    const odd = (n) => ((n % 2) + 2) % 2 === 1;
    if (this.flat) {
      // Flat tops: columns are straight; left and right zigzag.
      if (keyName === 'ArrowUp') d = [0, -1];
      else if (keyName === 'ArrowDown') d = [0, 1];
      else if (keyName === 'ArrowLeft') d = odd(c.x) ? [-1, 1] : [-1, 0];
      else if (keyName === 'ArrowRight') d = odd(c.x) ? [1, 0] : [1, -1];
    } else {
      if (keyName === 'ArrowLeft') d = [-1, 0];
      else if (keyName === 'ArrowRight') d = [1, 0];
      else if (keyName === 'ArrowUp') d = odd(c.y) ? [1, -1] : [0, -1];
      else if (keyName === 'ArrowDown') d = odd(c.y) ? [0, 1] : [-1, 1];
    }
    if (!d) return null;
    const next = { x: c.x + d[0], y: c.y + d[1] };
    const b = this.layout().bounds;
    const u = this.unit(next.x, next.y);
    if (u.x < b.minX - 1 || u.x > b.maxX + 1 || u.y < b.minY - 1 || u.y > b.maxY + 1) return null;
    return next;
  }

  setHover(cell) {
    const same = (a, b) => (!a && !b) || (a && b && a.q === b.q && a.r === b.r);
    if (same(cell, this.hover)) return;
    this.hover = cell;
    this.request();
  }

  /** The stack (two pieces or more) under a client point, or null. */
  stackAt(clientX, clientY) {
    const hit = this.hitTest(clientX, clientY);
    if (!hit || hit.hand) return null;
    const c = this.cells.get(key(hit.x, hit.y));
    return c && c.pieces.length > 0 ? { q: c.q, r: c.r } : null;
  }

  /** Whether a client point is on the board area but on no piece. */
  emptyAt(clientX, clientY) {
    const hit = this.hitTest(clientX, clientY);
    return !!hit && !hit.hand && !this.cells.has(key(hit.x, hit.y));
  }

  pointerDown(ev) {
    this.panned = false;
    if (ev.pointerType === 'touch') {
      this.touches.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (this.touches.size === 2) this.startPinch();
    }
    // A mouse drag from an empty place pans (a drag from a piece is the page's: a move).
    if (ev.pointerType === 'mouse' && ev.button === 0 && this.emptyAt(ev.clientX, ev.clientY)) {
      this.drag = { x: ev.clientX, y: ev.clientY, dx: this.user.dx, dy: this.user.dy, moved: false };
    }
    // A press on a stack shows what is under it (touch has no hover). A mouse press (a piece
    // picked) hides the hover label, which would cover the targets next to it, until the pointer
    // leaves that cell.
    if (ev.pointerType !== 'mouse') this.setHover(this.stackAt(ev.clientX, ev.clientY));
    else {
      this.quiet = this.stackAt(ev.clientX, ev.clientY);
      this.setHover(null);
    }
  }

  pointerMove(ev) {
    if (ev.pointerType === 'touch' && this.touches.has(ev.pointerId)) {
      this.touches.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      if (this.pinch) {
        this.movePinch();
        return;
      }
    }
    if (this.drag && ev.buttons & 1) {
      const dx = ev.clientX - this.drag.x;
      const dy = ev.clientY - this.drag.y;
      if (!this.drag.moved && Math.hypot(dx, dy) < 6) return;
      this.drag.moved = true;
      this.user.dx = this.drag.dx + dx * this.dpr;
      this.user.dy = this.drag.dy + dy * this.dpr;
      this.cameraAnim = null;
      this.canvas.style.cursor = 'grabbing';
      this.request();
      return;
    }
    if (ev.pointerType === 'mouse') {
      const at = this.stackAt(ev.clientX, ev.clientY);
      const stay = at && this.quiet && at.q === this.quiet.q && at.r === this.quiet.r;
      if (!stay) this.quiet = null;
      this.setHover(stay ? null : at);
    }
  }

  pointerUp(ev) {
    if (ev && ev.pointerType === 'touch') {
      this.touches.delete(ev.pointerId);
      if (this.touches.size < 2) this.pinch = null;
    }
    if (this.drag && this.drag.moved) this.panned = true;
    this.drag = null;
    this.canvas.style.cursor = '';
  }

  wheel(ev) {
    if (!this.view) return;
    ev.preventDefault();
    const { px, py } = this.toCanvas(ev.clientX, ev.clientY);
    const old = this.layoutCamera();
    // Keep the point under the pointer where it is.
    this.zoomTo(Math.min(4, Math.max(0.5, this.user.zoom * Math.exp(-ev.deltaY * 0.0015))), (px - old.ox) / old.s, (py - old.oy) / old.s, px, py);
  }

  /** Sets the user's zoom so that the board point (ux, uy) (in hex units) is drawn at canvas
   * pixel (px, py). */
  zoomTo(zoom, ux, uy, px, py) {
    const { area, fit } = this.layout();
    const cx = area.x + area.w / 2;
    const cy = area.y + area.h / 2;
    const s = fit.s * zoom;
    this.user.zoom = zoom;
    this.user.dx = px - ux * s - (cx + (fit.ox - cx) * zoom);
    this.user.dy = py - uy * s - (cy + (fit.oy - cy) * zoom);
    this.cameraAnim = null;
    this.request();
  }

  /** The two fingers down: their midpoint in canvas pixels and their distance in client pixels. */
  fingers() {
    const [a, b] = [...this.touches.values()];
    const mid = this.toCanvas((a.x + b.x) / 2, (a.y + b.y) / 2);
    return { px: mid.px, py: mid.py, dist: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)) };
  }

  /** Two fingers came down: the board point between them is the one the pinch holds. */
  startPinch() {
    if (!this.view) return;
    const f = this.fingers();
    const cam = this.layoutCamera();
    this.pinch = { dist: f.dist, zoom: this.user.zoom, ux: (f.px - cam.ox) / cam.s, uy: (f.py - cam.oy) / cam.s };
    this.drag = null;
    this.setHover(null);
  }

  /** The fingers moved: zoom by how far apart they are now, the held point under their midpoint. */
  movePinch() {
    const f = this.fingers();
    const p = this.pinch;
    this.zoomTo(Math.min(4, Math.max(0.5, (p.zoom * f.dist) / p.dist)), p.ux, p.uy, f.px, f.py);
    this.panned = true; // the fingers' lift is not a tap on a cell
  }

  // ---- drawing ------------------------------------------------------------------------------

  /** Says in data attributes what the board shows (for tests and tools). */
  publish() {
    let pieces = 0;
    const stacks = [];
    const names = [];
    for (const c of this.cells.values()) {
      pieces += c.pieces.length;
      for (const p of c.pieces) names.push(`${p.owner === 1 ? 'b' : 'w'}${p.label || letterOf(p)}`);
      if (c.pieces.length > 1) stacks.push(`${c.q},${c.r}:${c.pieces.length}`);
    }
    const hands = ((this.view && this.view.hands) || []).map((l) => l.map((hp) => `${hp.piece.label || letterOf(hp.piece)}${hp.count}`).join(' '));
    this.setData({ pieces, stacks: stacks.join(' '), hands: hands.join('|'), labels: names.join(' ') });
  }

  draw() {
    const ctx = this.ctx;
    const W = this.canvas.width;
    const H = this.canvas.height;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, W, H);
    if (!this.view) return;
    const now = performance.now();
    const { area, hands } = this.layout();
    const cam = this.currentCamera(now);
    const s = cam.s;

    ctx.fillStyle = THEME.background;
    roundRect(ctx, 0, 0, W, H, Math.min(W, H) * 0.02);
    ctx.fill();

    // The board, clipped to its area so that a zoomed board does not cover the hands.
    ctx.save();
    ctx.beginPath();
    ctx.rect(area.x, area.y, area.w, area.h);
    ctx.clip();

    // A faint ring of empty hexes around the pieces, so that places read as places.
    ctx.strokeStyle = THEME.grid;
    ctx.lineWidth = Math.max(1, s * 0.03);
    const ring = new Set();
    for (const c of this.cells.values()) {
      for (const [dq, dr] of STEPS) {
        const k = key(c.q + dq, c.r + dr);
        if (!this.cells.has(k) && !ring.has(k)) {
          ring.add(k);
          const p = this.centre(c.q + dq, c.r + dr, cam);
          this.hexPath(p.x, p.y, s * 0.96);
          ctx.stroke();
        }
      }
    }
    if (!this.cells.size) {
      const p = this.centre(0, 0, cam);
      this.hexPath(p.x, p.y, s * 0.96);
      ctx.stroke();
    }

    // The cell the last move left: a dashed outline.
    const last = this.view.last;
    if (last && last.from) {
      const p = this.centre(last.from.x, last.from.y, cam);
      ctx.setLineDash([s * 0.16, s * 0.1]);
      ctx.strokeStyle = THEME.last;
      ctx.lineWidth = Math.max(2, s * 0.08);
      this.hexPath(p.x, p.y, s * 0.86);
      ctx.stroke();
      ctx.setLineDash([]);
    }

    // Pieces, in reading order so that lower rows overlap upper ones' shadows.
    const order = [...this.cells.values()].sort((a, b) => this.unit(a.q, a.r).y - this.unit(b.q, b.r).y || a.q - b.q);
    const anims = new Map(this.anims.map((a) => [key(a.q, a.r), a]));
    for (const c of order) {
      let p = this.centre(c.q, c.r, cam);
      let scale = 1;
      const a = anims.get(key(c.q, c.r));
      if (a) {
        const t = now - a.start;
        const dur = a.kind === 'move' ? MOVE_MS : PLACE_MS;
        if (t >= dur) this.anims = this.anims.filter((x) => x !== a);
        else if (a.kind === 'move') {
          // The moved piece travels from where it was; what it leaves on stays drawn.
          const from = this.centre(a.fq, a.fr, cam);
          const k = easeOut(t / dur);
          this.drawStack(ctx, c.pieces.slice(0, -1), p.x, p.y, s, 1);
          const lift = 1 + 0.12 * Math.sin(Math.PI * k);
          this.drawStack(ctx, c.pieces.slice(-1), from.x + (p.x - from.x) * k, from.y + (p.y - from.y) * k, s, lift);
          continue;
        } else scale = easeOut(t / dur);
      }
      this.drawStack(ctx, c.pieces, p.x, p.y, s, scale);
    }
    // Stack heights, over every piece.
    for (const c of order) {
      if (c.pieces.length < 2) continue;
      const p = this.centre(c.q, c.r, cam);
      this.drawBadge(ctx, c.pieces, p.x, p.y, s);
    }

    // The last move's target.
    if (last && last.to) {
      const p = this.centre(last.to.x, last.to.y, cam);
      ctx.strokeStyle = THEME.last;
      ctx.lineWidth = Math.max(2, s * 0.09);
      this.hexPath(p.x, p.y, s * 0.9);
      ctx.stroke();
    }

    // Legal targets: hex outlines, bold once a piece (on the board or in hand) is picked, faint
    // and dashed while they are every move's targets.
    const hints = this.decor.hints || [];
    const picked = !!(this.selectedCell() || this.selectedHand());
    ctx.strokeStyle = THEME.hint;
    ctx.save();
    if (!picked) {
      ctx.globalAlpha = 0.55;
      ctx.setLineDash([s * 0.14, s * 0.1]);
    }
    for (const h of hints) {
      const p = this.centre(h.x, h.y, cam);
      const onPiece = this.cells.has(key(h.x, h.y));
      ctx.lineWidth = Math.max(picked ? 2 : 1.5, s * (picked ? (onPiece ? 0.1 : 0.07) : 0.04));
      this.hexPath(p.x, p.y, s * (onPiece ? 0.8 : 0.78));
      if (!onPiece && picked) {
        ctx.fillStyle = 'rgba(29, 127, 214, 0.12)';
        ctx.fill();
      }
      ctx.stroke();
    }
    ctx.restore();
    this.setData({ hints: hints.length });

    // Values of the last search or hint at their cells.
    for (const c of this.decor.candidates || []) {
      const p = this.centre(c.x, c.y, cam);
      const fs = Math.max(9 * this.dpr, Math.round(s * 0.34));
      valueBadge(ctx, c.text, p.x, p.y + s * 0.25 + fs * 1.35, fs, s * 1.7, c.best);
    }

    const sel = this.selectedCell();
    if (sel) {
      const p = this.centre(sel.x, sel.y, cam);
      ctx.strokeStyle = THEME.selected;
      ctx.lineWidth = Math.max(3, s * 0.12);
      this.hexPath(p.x, p.y, s * 0.9);
      ctx.stroke();
    }
    if (this.decor.showCursor && this.decor.cursor) {
      const c = this.decor.cursor;
      const p = this.centre(c.x, c.y, cam);
      ctx.strokeStyle = THEME.cursor;
      ctx.lineWidth = Math.max(2, s * 0.07);
      ctx.setLineDash([s * 0.2, s * 0.08]);
      this.hexPath(p.x, p.y, s * 0.7);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.restore();

    this.drawHands(ctx, hands);
    if (this.hover) this.drawStackTip(ctx, this.hover, cam);

    if (this.animating || this.rainbow) this.request();
  }

  /** A hex path around (cx, cy) with corner radius `r`. */
  hexPath(cx, cy, r) {
    const ctx = this.ctx;
    ctx.beginPath();
    for (let i = 0; i < 6; i++) {
      const a = ((this.flat ? 0 : 30) + 60 * i) * (Math.PI / 180);
      const x = cx + r * Math.cos(a);
      const y = cy + r * Math.sin(a);
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.closePath();
  }

  /** A stack at (cx, cy): the pieces under the top peek out below it, and a badge gives the
   * height. */
  drawStack(ctx, pieces, cx, cy, s, scale) {
    if (!pieces.length) return;
    const h = pieces.length;
    const step = s * 0.1;
    for (let i = 0; i < h - 1; i++) {
      const k = h - 1 - i; // how far below the top
      this.drawPiece(ctx, pieces[i], cx + k * step * 0.35, cy + k * step, s * scale, { under: true });
    }
    this.drawPiece(ctx, pieces[h - 1], cx, cy, s * scale, {});
  }

  /** A stack's height badge at its top right, ringed in the colour of the piece under the top. */
  drawBadge(ctx, pieces, cx, cy, s) {
    const h = pieces.length;
    const bx = cx + s * 0.55;
    const by = cy - s * 0.58;
    const br = Math.max(7 * this.dpr, s * 0.24);
    const side = THEME.sides[pieces[h - 2].owner ?? 0] || THEME.sides[0];
    ctx.beginPath();
    ctx.arc(bx, by, br, 0, Math.PI * 2);
    ctx.fillStyle = '#c62828';
    ctx.fill();
    ctx.lineWidth = Math.max(1.5, br * 0.22);
    ctx.strokeStyle = side.tile;
    ctx.stroke();
    ctx.fillStyle = '#fff';
    ctx.font = `700 ${Math.round(br * 1.25)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(String(h), bx, by + br * 0.06);
  }

  /** One piece: a tile in its owner's colour with the bug's coloured disc and letter. */
  drawPiece(ctx, piece, cx, cy, s, { under = false, alpha = 1 } = {}) {
    const side = THEME.sides[piece.owner ?? 0] || THEME.sides[0];
    const bug = BUGS[piece.kind] || { colour: '#888', letter: (piece.kind || '?')[0].toUpperCase() };
    ctx.save();
    ctx.globalAlpha = alpha;
    // Shadow.
    this.hexPath(cx + s * 0.03, cy + s * 0.06, s * 0.92);
    ctx.fillStyle = 'rgba(0, 0, 0, 0.25)';
    ctx.fill();
    this.hexPath(cx, cy, s * 0.92);
    ctx.fillStyle = under ? side.under : side.tile;
    ctx.fill();
    ctx.lineWidth = Math.max(1, s * 0.05);
    ctx.strokeStyle = side.edge;
    ctx.stroke();
    if (!under) {
      // A bevel so that tiles read as tiles.
      this.hexPath(cx, cy, s * 0.8);
      ctx.lineWidth = Math.max(1, s * 0.03);
      ctx.strokeStyle = piece.owner === 1 ? 'rgba(255, 255, 255, 0.12)' : 'rgba(0, 0, 0, 0.1)';
      ctx.stroke();
      this.drawBug(ctx, piece, bug, cx, cy, s, side);
    }
    ctx.restore();
  }

  /** The bug's mark: its icon in the bug's colour (BUG_ICONS), and under it the piece's name
   * (`S1`, `Q`: the view's label) in small type when the tile is big enough to read it. */
  drawBug(ctx, piece, bug, cx, cy, s, side) {
    const colour = this.rainbow ? `hsl(${(performance.now() / 8 + cx) % 360}, 80%, 50%)` : bug.colour;
    const name = piece.label || bug.letter;
    const labelled = s * 0.27 >= 7.5 * this.dpr;
    const icon = BUG_ICONS[piece.kind];
    ctx.save();
    // The icon sits a little higher when the name goes under it.
    ctx.translate(cx, cy - (labelled ? s * 0.12 : 0));
    const k = s * (labelled ? 0.56 : 0.66);
    ctx.scale(k, k);
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    if (icon) {
      icon(ctx, colour, side.ink === '#f8f4e8' ? '#f8f4e8' : '#2b2724');
    } else {
      ctx.beginPath();
      ctx.arc(0, 0, 0.8, 0, Math.PI * 2);
      ctx.fillStyle = colour;
      ctx.fill();
    }
    ctx.restore();
    if (labelled || !icon) {
      ctx.fillStyle = side.ink;
      ctx.font = `700 ${Math.round(s * (icon ? 0.27 : 0.5))}px system-ui, sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(name, cx, icon ? cy + s * 0.6 : cy);
    }
  }

  /** The hands: a strip per player, each piece kind with its count; the side to move's strip is
   * lit, a selected piece outlined. */
  drawHands(ctx, hands) {
    const sel = this.selectedHand();
    const toMove = this.view.to_move;
    for (const z of hands) {
      ctx.fillStyle = z.player === toMove ? THEME.bandToMove : THEME.band;
      roundRect(ctx, z.x, z.y, z.w, z.h, Math.min(z.w, z.h) * 0.18);
      ctx.fill();
      if (!z.slots.length) {
        ctx.fillStyle = THEME.label;
        ctx.font = `${Math.round(Math.min(z.w, z.h) * 0.22)}px system-ui, sans-serif`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText('no pieces in hand', z.x + z.w / 2, z.y + z.h / 2);
      }
      for (const t of z.slots) {
        const dim = toMove != null && z.player !== toMove;
        if (sel && sel.player === z.player && sel.index === t.index) {
          ctx.strokeStyle = THEME.selected;
          ctx.lineWidth = Math.max(3, t.radius * 0.14);
          this.hexPath(t.x, t.y, t.radius * 1.12);
          ctx.stroke();
        }
        this.drawPiece(ctx, t.piece, t.x, t.y, t.radius, { alpha: dim ? 0.7 : 1 });
        // The count.
        const br = Math.max(7 * this.dpr, t.radius * 0.42);
        const bx = t.x + t.radius * 0.8;
        const by = t.y + t.radius * 0.72;
        ctx.beginPath();
        ctx.arc(bx, by, br, 0, Math.PI * 2);
        ctx.fillStyle = '#39332a';
        ctx.fill();
        ctx.lineWidth = Math.max(1, br * 0.15);
        ctx.strokeStyle = '#fff';
        ctx.stroke();
        ctx.fillStyle = '#fff';
        ctx.font = `700 ${Math.round(br * 1.2)}px system-ui, sans-serif`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(String(t.count), bx, by + br * 0.05);
      }
    }
  }

  /** What a stack holds, bottom first, in a box beside it, with the pieces' names (for a single
   * piece: its name). */
  drawStackTip(ctx, at, cam) {
    const c = this.cells.get(key(at.q, at.r));
    if (!c || !c.pieces.length) return;
    const p = this.centre(c.q, c.r, cam);
    const t = Math.max(12 * this.dpr, Math.min(cam.s * 0.55, 22 * this.dpr));
    const n = c.pieces.length;
    const gap = t * 0.5;
    const fs = Math.round(t * 0.7);
    ctx.font = `${fs}px system-ui, sans-serif`;
    // The pieces' names (wS1, bB2), which the tiles show only when they are big enough.
    const names = c.pieces.map((p) => `${p.owner === 1 ? 'b' : 'w'}${p.label || letterOf(p)}`);
    const caption = n > 1 ? `stack of ${n}, bottom first: ${names.join(' ')}` : `${c.pieces[0].owner === 1 ? 'Black' : 'White'} ${c.pieces[0].kind} ${names[0]}`;
    const w = Math.max(n * 2 * t + (n - 1) * gap, ctx.measureText(caption).width) + 2 * gap;
    const h = 2 * t + fs * 1.6 + gap;
    const W = this.canvas.width;
    let x = Math.min(Math.max(4, p.x - w / 2), W - w - 4);
    let y = p.y - cam.s - h - 6;
    if (y < 4) y = p.y + cam.s + 6;
    ctx.fillStyle = 'rgba(255, 255, 255, 0.95)';
    ctx.strokeStyle = 'rgba(0, 0, 0, 0.35)';
    ctx.lineWidth = Math.max(1, this.dpr);
    roundRect(ctx, x, y, w, h, t * 0.3);
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = '#333';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillText(caption, x + gap, y + gap * 0.6);
    c.pieces.forEach((piece, i) => {
      this.drawPiece(ctx, piece, x + gap + t + i * (2 * t + gap), y + fs * 1.6 + t, t);
    });
  }
}

function letterOf(piece) {
  return (BUGS[piece.kind] && BUGS[piece.kind].letter) || '?';
}

function sameCells(a, b) {
  if (a.size !== b.size) return false;
  for (const [k, c] of b) {
    const o = a.get(k);
    if (!o || o.pieces.length !== c.pieces.length) return false;
    for (let i = 0; i < c.pieces.length; i++) {
      if (o.pieces[i].kind !== c.pieces[i].kind || o.pieces[i].owner !== c.pieces[i].owner) return false;
    }
  }
  return true;
}

/** Rounds fractional axial coordinates to the nearest hex. */
function cubeRound(q, r) {
  const s = -q - r;
  let rq = Math.round(q);
  let rr = Math.round(r);
  const rs = Math.round(s);
  const dq = Math.abs(rq - q);
  const dr = Math.abs(rr - r);
  const ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return { q: rq + 0, r: rr + 0 };
}
