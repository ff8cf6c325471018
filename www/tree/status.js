// The focused node in words: the breadcrumb above the view and the status line under it.
//
// Methods of the Explorer (explorer.js), which holds the state they share.

import { el } from './dom.js';
import { boundedValue, percent, KIND_NAMES, nodeName, plural } from './format.js';
import { pathFromRoot } from './walk.js';

/** Breadcrumb and status line. */
export const statusMethods = {
  updateFocusUi() {
    const f = this.focus;
    if (!f || !this.model) return;
    const node = f.more ? f.parentNode : f;
    const path = pathFromRoot(node);
    this.crumbs.replaceChildren();
    // Very deep paths: the first few steps, an ellipsis, the last forty.
    const cut = path.length > 50 ? [3, path.length - 40] : null;
    path.forEach((m, i) => {
      if (cut && i >= cut[0] && i < cut[1]) {
        if (i === cut[0]) this.crumbs.append(el('li', {}, el('span', { class: 'ps-crumb-gap', text: `… ${cut[1] - cut[0]} more …` })));
        return;
      }
      const b = el('button', { type: 'button', class: 'ps-crumb', text: nodeName(m) });
      if (i === path.length - 1 && !f.more) b.setAttribute('aria-current', 'location');
      b.addEventListener('click', () => {
        this.focus = m;
        if (m.children.length && !this.expanded.has(m)) this.expanded.add(m);
        this.relayout(true);
        this.centerOn(m, true);
        this.updateFocusUi();
        this.canvas.focus();
      });
      this.crumbs.append(el('li', {}, b));
    });
    if (f.more) this.crumbs.append(el('li', {}, el('span', { class: 'ps-crumb', text: `+${f.hidden} more` })));
    // The end of the path (the focus) is what matters: keep it in view.
    this.crumbNav.scrollLeft = this.crumbNav.scrollWidth;
    this.setStatus(this.describe(f));
    // An open details panel follows the focus.
    if (this.selected && !f.more && this.selected !== node) {
      this.selected = node;
      this.renderDetails();
    }
    if (this.options.onFocus) this.options.onFocus({ node, moves: path.slice(1).map((m) => m.label), id: node.id });
  },

  setStatus(text) {
    this.status.textContent = text;
  },

  describe(f) {
    if (f.more) return `+${f.hidden} more siblings under ${nodeName(f.parentNode)}. Press Enter to show them.`;
    const n = f;
    const parts = [];
    parts.push(n.parent ? (n.label !== null ? `Move ${n.label}` : nodeName(n)) : 'Root');
    parts.push(`${KIND_NAMES[n.kind] || n.kind}${n.inferred ? ' (by depth)' : ''}`);
    if (n.kind === 'pruned') {
      parts.push(`stands for ${n.count ?? n.moves?.length ?? '?'} cut siblings`);
    } else if (n.kind === 'truncated') {
      parts.push(`${n.count ?? '?'} nodes not recorded`);
    } else {
      parts.push(n.value === null ? 'no value' : `value ${boundedValue(n.value, n.bound)}${n.bound && n.bound !== 'exact' ? ` (${n.bound} bound)` : ''}`);
    }
    if (n.visits !== null) parts.push(`${n.visits} visits`);
    if (n.prob !== null && n.visits === null) parts.push(`probability ${percent(n.prob)}`);
    parts.push(`depth ${n.depth}`);
    if (n.children.length) parts.push(`${plural(n.children.length, 'child', 'children')}, ${this.expanded.has(n) ? 'expanded' : 'collapsed'}`);
    if (n.best && this.isPv(n)) parts.push('on the best line');
    return parts.join(', ') + '.';
  },
};
