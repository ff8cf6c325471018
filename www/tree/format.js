// Compact texts for numbers and nodes (pure; shared by the view and the tests).

import { WIN_SCORE } from './import.js';

/** A number in at most about five characters: 3.5, -0.125, 1234, 12.3k, 4.6M. */
export function compactNumber(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  const sign = v < 0 ? '-' : '';
  if (a >= 1e9) return `${sign}${trim((a / 1e9).toPrecision(3))}G`;
  if (a >= 1e6) return `${sign}${trim((a / 1e6).toPrecision(3))}M`;
  if (a >= 1e4) return `${sign}${trim((a / 1e3).toPrecision(3))}k`;
  if (Number.isInteger(v)) return String(v);
  if (a >= 100) return String(Math.round(v));
  if (a < 0.001) return v === 0 ? '0' : `${sign}${a.toExponential(1)}`;
  return String(Number(v.toPrecision(3)));
}

function trim(s) {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** Whether a value means a decided game (a win or loss some plies away). */
export function isMate(v) {
  return Number.isFinite(v) && Math.abs(v) >= WIN_SCORE / 2 && Math.abs(v) <= WIN_SCORE;
}

/** A backed-up score: "+3.5", "-12", "0", "win in 3", "loss in 4". */
export function scoreText(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '?';
  if (isMate(v)) {
    const plies = Math.round(WIN_SCORE - Math.abs(v));
    return `${v > 0 ? 'win' : 'loss'} in ${plies}`;
  }
  const s = compactNumber(v);
  return v > 0 ? `+${s}` : s;
}

/** A score with its bound: "≥ +4", "≤ -1". */
export function boundedScore(v, bound) {
  const s = scoreText(v);
  if (bound === 'lower') return `≥ ${s}`;
  if (bound === 'upper') return `≤ ${s}`;
  return s;
}

/** A window edge: absent alpha is -∞, absent beta +∞. */
export function windowText(alpha, beta) {
  const a = alpha === null || alpha === undefined ? '-∞' : scoreText(alpha);
  const b = beta === null || beta === undefined ? '+∞' : scoreText(beta);
  return `(${a}, ${b})`;
}

/** A number for a table cell: full precision up to 4 decimals. */
export function plainNumber(v) {
  if (v === null || v === undefined) return '–';
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toFixed(4)));
}

/** A probability as a percentage: "25%", "2.78%". */
export function percent(p) {
  if (p === null || p === undefined || !Number.isFinite(p)) return '–';
  return `${Number((p * 100).toPrecision(3))}%`;
}

/** A probability short enough for a node's box: two significant digits ("17%", "1.2%", "<0.1%"). */
export function percentShort(p) {
  if (p === null || p === undefined || !Number.isFinite(p)) return '–';
  if (p > 0 && p < 0.001) return '<0.1%';
  return `${Number((p * 100).toPrecision(2))}%`;
}

/** Human names of node kinds. */
export const KIND_NAMES = {
  max: 'max node',
  min: 'min node',
  chance: 'chance node',
  leaf: 'leaf',
  terminal: 'game over',
  pruned: 'pruned',
  truncated: 'not recorded',
  node: 'node',
  more: 'more siblings',
};

/** A node's name in the breadcrumb, the tooltip title and the status line. */
export function nodeName(n) {
  if (!n.parent) return n.label ?? 'root';
  if (n.label !== null && n.label !== '') return n.label;
  if (n.kind === 'pruned') return `${n.count ?? n.moves?.length ?? '?'} pruned`;
  if (n.kind === 'truncated') return `${n.count ?? '?'} unrecorded`;
  return n.id !== null ? `#${n.id}` : '?';
}

/** A number with its sign: "+1.5", "-2", "0"; "–" for none. */
export function signed(v) {
  if (v === null || v === undefined) return '–';
  const s = plainNumber(v);
  return v > 0 ? `+${s}` : s;
}

/** 1st, 2nd, 3rd, 4th, 11th, 21st… */
export function ordinal(k) {
  const s = k % 100 >= 11 && k % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][k % 10] || 'th';
  return `${k}${s}`;
}

/** A count with its noun in the right number: "1 child", "3 children", "1 node", "2 nodes". */
export function plural(k, one, many = `${one}s`) {
  return `${typeof k === 'number' ? k.toLocaleString('en') : k} ${k === 1 ? one : many}`;
}

/** Whether two term breakdowns ({total, terms}) say the same thing (same total, same terms). */
export function sameBreakdown(a, b) {
  if (!a || !b || a.total !== b.total || a.terms.length !== b.terms.length) return false;
  return a.terms.every((t, i) => {
    const u = b.terms[i];
    return t.name === u.name && t.raw === u.raw && t.weight === u.weight && t.value === u.value;
  });
}
