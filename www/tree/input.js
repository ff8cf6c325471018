// The explorer's input: pointer (click, drag to pan, wheel and pinch to zoom, hover), keyboard, and
// files dropped on it. Hit-testing maps a screen point to a shown item.
//
// Methods of the Explorer (explorer.js), which holds the state they share.

import { NODE_W, NODE_H, LEVEL_GAP, MIN_K, MAX_K, FIT_MIN_K } from './constants.js';

/** Pointer, keyboard and drop. */
export const inputMethods = {
  itemAt(sx, sy) {
    // The previous document's items, still drawn while the new one is laid out, are not clickable.
    if (!this.model || this.itemsModel !== this.model) return null;
    const wx = this.cam.x + sx / this.cam.k;
    const wy = this.cam.y + sy / this.cam.k;
    const d = Math.round(wx / LEVEL_GAP);
    const col = this.columns[d];
    if (!col || Math.abs(wx - d * LEVEL_GAP) > NODE_W / 2 + 7) return null;
    // Binary search on y (columns are sorted by target y; hit-test the targets).
    let lo = 0;
    let hi = col.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const it = col[mid];
      if (wy < it.y - NODE_H / 2) hi = mid - 1;
      else if (wy > it.y + NODE_H / 2) lo = mid + 1;
      else return it;
    }
    return null;
  },

  bindPointer() {
    const c = this.canvas;
    let drag = null;
    // Touch: two pointers pinch-zoom about their midpoint.
    const touches = new Map();
    let pinch = null;
    const pos = (e) => {
      const r = c.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    };
    c.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      const [sx, sy] = pos(e);
      touches.set(e.pointerId, [sx, sy]);
      if (touches.size === 2) {
        const [[x0, y0], [x1, y1]] = [...touches.values()];
        const mx = (x0 + x1) / 2;
        const my = (y0 + y1) / 2;
        pinch = { d: Math.hypot(x1 - x0, y1 - y0) || 1, k: this.cam.k, wx: this.cam.x + mx / this.cam.k, wy: this.cam.y + my / this.cam.k };
        drag = null;
        this.hideTooltip();
        for (const id of touches.keys()) capture(id);
        return;
      }
      drag = { sx, sy, cx: this.cam.x, cy: this.cam.y, moved: false, id: e.pointerId };
    });
    const capture = (id) => {
      try {
        c.setPointerCapture(id);
      } catch {
        // Not an active pointer (synthetic events): dragging still works inside the canvas.
      }
    };
    const lift = (e) => {
      touches.delete(e.pointerId);
      if (touches.size < 2) pinch = null;
    };
    c.addEventListener('pointerup', lift);
    c.addEventListener('pointercancel', lift);
    c.addEventListener('pointermove', (e) => {
      const [sx, sy] = pos(e);
      if (touches.has(e.pointerId)) touches.set(e.pointerId, [sx, sy]);
      if (pinch && touches.size === 2) {
        const [[x0, y0], [x1, y1]] = [...touches.values()];
        const k = Math.max(MIN_K, Math.min(MAX_K, (pinch.k * Math.hypot(x1 - x0, y1 - y0)) / pinch.d));
        const mx = (x0 + x1) / 2;
        const my = (y0 + y1) / 2;
        this.camTo = null;
        this.userMoved = true;
        this.cam = { x: pinch.wx - mx / k, y: pinch.wy - my / k, k };
        this.invalidate();
        return;
      }
      if (drag) {
        const dx = sx - drag.sx;
        const dy = sy - drag.sy;
        if (!drag.moved && Math.hypot(dx, dy) > 4) {
          drag.moved = true;
          capture(drag.id);
          c.classList.add('ps-dragging');
          this.hideTooltip();
        }
        if (drag.moved) {
          this.camTo = null;
          this.userMoved = true;
          this.cam.x = drag.cx - dx / this.cam.k;
          this.cam.y = drag.cy - dy / this.cam.k;
          this.invalidate();
          return;
        }
      }
      this.setHover(this.itemAt(sx, sy), sx, sy);
    });
    const end = (e) => {
      if (!drag) return;
      const d = drag;
      drag = null;
      c.classList.remove('ps-dragging');
      if (d.moved) return;
      if (e.type !== 'pointerup') return;
      const [sx, sy] = pos(e);
      const it = this.itemAt(sx, sy);
      if (it && e.shiftKey && !it.more) {
        this.focus = it.node;
        this.updateFocusUi();
        this.pick(it.node);
      } else if (it && e.pointerType === 'touch' && !it.more && !this.onHandle(it, sx)) {
        // Touch has no hover and no shift: a tap selects the node and shows its details (the
        // breakdown, and buttons for "why A and not B", compare, analyse); the ± handle toggles.
        this.select(it.node);
      } else if (it) this.activate(it, true);
    };
    c.addEventListener('pointerup', end);
    c.addEventListener('pointercancel', end);
    c.addEventListener('pointerleave', () => {
      if (!drag) this.setHover(null);
    });
    c.addEventListener('dblclick', (e) => {
      const [sx, sy] = pos(e);
      if (!this.itemAt(sx, sy)) this.fit(true, FIT_MIN_K);
    });
    c.addEventListener(
      'wheel',
      (e) => {
        if (!this.model) return;
        e.preventDefault();
        const [sx, sy] = pos(e);
        const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
        const factor = Math.exp(-delta * 0.0015);
        const k0 = this.cam.k;
        const k1 = Math.max(MIN_K, Math.min(MAX_K, k0 * factor));
        const wx = this.cam.x + sx / k0;
        const wy = this.cam.y + sy / k0;
        this.camTo = null;
        this.userMoved = true;
        this.cam = { x: wx - sx / k1, y: wy - sy / k1, k: k1 };
        this.hideTooltip();
        this.invalidate();
      },
      { passive: false },
    );
  },

  /** Whether screen x `sx` is on the item's expand handle (its right end, generously for fingers). */
  onHandle(it, sx) {
    if (!it.hasKids) return false;
    const wx = this.cam.x + sx / this.cam.k;
    return wx >= it.x + NODE_W / 2 - Math.max(22, 14 / this.cam.k);
  },

  setHover(it, sx, sy) {
    const prev = this.hover;
    this.hover = it;
    if (!it) {
      this.hideTooltip();
      this.canvas.style.cursor = '';
    } else {
      this.canvas.style.cursor = 'pointer';
      if (it !== prev) this.fillTooltip(it);
      this.placeTooltip(sx, sy);
    }
    if (prev !== it) this.invalidate();
  },

  /** A click or Enter: focus the node, toggle it, and re-centre on it. */
  activate(it, fromPointer) {
    this.userMoved = true;
    // The layout changes under the pointer: the tooltip comes back on the next move.
    this.hover = null;
    this.hideTooltip();
    if (it.more) {
      const n = it.parentNode;
      const cur = this.limits.get(n) ?? this.siblings;
      const step = it.hidden <= 200 ? it.hidden : 100;
      this.limits.set(n, cur + step);
      const firstNew = this.orderedChildren(n)[cur];
      this.focus = firstNew || n;
      this.relayout(true);
      this.centerOn(this.focus, true);
      this.updateFocusUi();
      return;
    }
    const n = it.node;
    this.focus = n;
    if (n.children.length) {
      if (this.expanded.has(n)) {
        this.expanded.delete(n);
      } else {
        this.expanded.add(n);
        // SpaceTree: close branches off the path to this node, except the best line.
        for (const e of [...this.expanded]) {
          if (!this.isAncestorOrSelf(e, n) && !this.isPv(e)) this.expanded.delete(e);
        }
      }
    }
    this.relayout(true);
    this.centerOn(n, true);
    this.updateFocusUi();
  },

  bindKeys() {
    this.canvas.addEventListener('keydown', (e) => {
      if (!this.model) return;
      // While the replay is open, ← → step it and Space plays or pauses.
      if (this.replay && this.replayKey(e)) {
        e.preventDefault();
        return;
      }
      const it = this.focusItem();
      let handled = true;
      switch (e.key) {
        case 'ArrowLeft':
          if (it && it.parent) this.moveFocus(it.parent);
          break;
        case 'ArrowRight':
          if (it && !it.more && it.node.children.length) {
            if (!this.expanded.has(it.node)) this.activate(it, false);
            const kids = this.itemOf.get(it.node);
            const first = this.items.find((x) => x.parent === kids);
            if (first) this.moveFocus(first);
          }
          break;
        case 'ArrowUp':
        case 'ArrowDown': {
          if (!it) break;
          const col = this.columns[it.depth];
          const i = col.indexOf(it);
          const j = e.key === 'ArrowUp' ? i - 1 : i + 1;
          if (j >= 0 && j < col.length) this.moveFocus(col[j]);
          break;
        }
        case 'Enter':
        case ' ':
          if (it) {
            this.activate(it, false);
            this.tooltipForFocus();
          }
          break;
        case 'Escape':
          this.hideTooltip();
          break;
        case 'Home':
          this.moveFocus(this.itemOf.get(this.model.root));
          break;
        case 'f':
        case 'F':
          this.fit(true, FIT_MIN_K);
          break;
        case 'p':
        case 'P':
          this.resetExpansion(true);
          break;
        case 'c':
        case 'C':
          this.collapseAll();
          break;
        case 'e':
        case 'E':
          this.expandAll(3000);
          break;
        case '+':
        case '=':
          this.zoomBy(1.25);
          break;
        case 'w':
        case 'W':
          if (it && !it.more) this.pick(it.node);
          break;
        case 'r':
        case 'R':
          this.openReplay();
          break;
        case 'd':
        case 'D':
          if (it && !it.more) this.select(it.node);
          break;
        case 'n':
          this.findStep(1);
          break;
        case 'N':
          this.findStep(-1);
          break;
        case '/':
          this.findInput.focus();
          this.findInput.select();
          break;
        case 's':
        case 'S':
          this.downloadSubtree();
          break;
        case '-':
          this.zoomBy(0.8);
          break;
        default:
          handled = false;
      }
      if (handled) e.preventDefault();
    });
    this.canvas.addEventListener('focus', () => this.invalidate());
    this.canvas.addEventListener('blur', () => {
      if (!this.hover) this.hideTooltip();
    });
  },

  focusItem() {
    if (!this.focus) return null;
    if (this.focus.more) return this.itemOf.get(this.focus.key) || null;
    return this.itemOf.get(this.focus) || null;
  },

  moveFocus(it) {
    if (!it) return;
    this.userMoved = true;
    this.focus = it.more ? it : it.node;
    this.ensureVisible(it);
    this.updateFocusUi();
    this.tooltipForFocus();
    this.invalidate();
  },

  focusById(id, node = null) {
    if (node) {
      this.revealPath(node);
      this.focus = node;
      this.relayout(true);
      this.centerOn(node, true);
      this.updateFocusUi();
      return true;
    }
    if (!this.model) return false;
    const n = this.nodeById(id);
    if (!n) return false;
    this.revealPath(n);
    this.focus = n;
    this.relayout(true);
    this.centerOn(n, true);
    this.updateFocusUi();
    return true;
  },

  bindDrop() {
    const r = this.root;
    r.addEventListener('dragover', (e) => {
      if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) {
        e.preventDefault();
        r.classList.add('ps-dropping');
      }
    });
    r.addEventListener('dragleave', (e) => {
      if (e.target === r || !r.contains(e.relatedTarget)) r.classList.remove('ps-dropping');
    });
    r.addEventListener('drop', (e) => {
      r.classList.remove('ps-dropping');
      const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
      if (f) {
        e.preventDefault();
        this.loadFile(f);
      }
    });
  },
};
