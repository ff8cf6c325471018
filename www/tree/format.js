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

// How values read. A document may say (its header's `values`: docs/tree-format.md): the unit of
// heuristic values, and how a decided game's value encodes its end (plies to it, or a final margin
// first). Without it values are plain numbers and ±(1000000 − plies) a decided game. The explorer
// shows one document at a time and sets its scale when it loads one (useScale); the functions
// below read values with it unless given another.

const LEGACY = { unit: null, one: null, perUnit: 1, decimals: null, decided: WIN_SCORE / 2, win: WIN_SCORE, top: WIN_SCORE, margin: null, lost: null };
let current = LEGACY;

const finite = (x) => typeof x === 'number' && Number.isFinite(x);
const word = (x) => (typeof x === 'string' && x.length > 0 ? x.slice(0, 24) : null);

/**
 * A document's `values` checked and normalised, or the legacy reading (plain numbers) when it is
 * absent or malformed: `{unit, one, perUnit, decimals, decided, win, top, margin, lost}`.
 */
export function valueScale(values) {
  if (!values || typeof values !== 'object' || Array.isArray(values)) return LEGACY;
  const unit = word(values.unit);
  const perUnit = finite(values.per_unit) && values.per_unit > 0 ? values.per_unit : null;
  if (!unit || !perUnit) return LEGACY;
  const decimals = Number.isInteger(values.decimals) && values.decimals >= 0 && values.decimals <= 6 ? values.decimals : 0;
  const decided = finite(values.decided) && values.decided > 0 ? values.decided : null;
  const m = values.margin;
  const margin = m && typeof m === 'object' && finite(m.per) && m.per > 0 && finite(m.plies_from) && m.plies_from >= 0 ? { per: m.per, pliesFrom: m.plies_from, unit: word(m.unit) ?? unit, one: word(m.one) ?? word(m.unit) ?? unit } : null;
  const l = values.lost;
  const lost = l && typeof l === 'object' && finite(l.at) && finite(l.per_ply) && l.per_ply > 0 && Number.isInteger(l.max_plies) && l.max_plies >= 0 ? { at: l.at, perPly: l.per_ply, top: l.at + l.per_ply * l.max_plies } : null;
  const win = finite(values.win) && values.win > 0 ? values.win : decided !== null && !margin ? WIN_SCORE : null;
  return { unit, one: word(values.one) ?? unit, perUnit, decimals, decided, win, top: Infinity, margin, lost };
}

/** Makes `values` (a document header's) the scale values are read with from now on. */
export function useScale(values) {
  current = valueScale(values);
  return current;
}

/** The scale in use. */
export function scaleInUse() {
  return current;
}

/**
 * A decided game's value read: `{win, plies, margin}` (margin null when the value does not count
 * one; `lost` for a single player's loss), or null for a value of a game still open.
 */
export function decidedOf(v, scale = current) {
  if (!finite(v)) return null;
  if (scale.lost && v <= scale.lost.top && v >= scale.lost.at) {
    return { win: false, lost: true, plies: Math.max(0, Math.round((v - scale.lost.at) / scale.lost.perPly)), margin: null };
  }
  const a = Math.abs(v);
  if (scale.decided === null || a < scale.decided || a > scale.top) return null;
  if (scale.margin) {
    const r = a - scale.decided;
    const margin = Math.max(0, Math.floor(r / scale.margin.per));
    return { win: v > 0, lost: false, plies: Math.max(0, Math.round(scale.margin.pliesFrom - (r - margin * scale.margin.per))), margin };
  }
  return { win: v > 0, lost: false, plies: Math.max(0, Math.round(scale.win - a)), margin: null };
}

/** Whether a value means a decided game (a win or loss some plies away). */
export function isMate(v, scale = current) {
  return decidedOf(v, scale) !== null;
}

/** A value in the scale's unit, rounded as the scale says (or compact when it says nothing). */
function amount(v, scale) {
  if (scale.unit === null) return compactNumber(v);
  const a = v / scale.perUnit;
  const k = 10 ** scale.decimals;
  const r = Math.round(a * k) / k;
  return compactNumber(r === 0 ? 0 : r);
}

/** A backed-up score in a few characters: "+3.5", "-12", "0", "win in 3", "loss in 4", "win +38", "lost in 5". */
export function scoreText(v, scale = current) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '?';
  const d = decidedOf(v, scale);
  if (d) {
    if (d.lost) return `lost in ${d.plies}`;
    if (d.margin !== null) return `${d.win ? 'win +' : 'loss −'}${d.margin}`;
    return `${d.win ? 'win' : 'loss'} in ${d.plies}`;
  }
  const s = amount(v, scale);
  return s === '0' ? '0' : v > 0 ? `+${s}` : s;
}

/** A value in words with its unit: "+1.3 pieces", "win by 38 discs", "win in 3 plies", "lost within 4 plies". */
export function valueText(v, scale = current) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '?';
  const d = decidedOf(v, scale);
  const pl = (n) => `${n} ${n === 1 ? 'ply' : 'plies'}`;
  if (d) {
    if (d.lost) return `lost within ${pl(d.plies)}`;
    if (d.margin !== null) return `${d.win ? 'win' : 'loss'} by ${d.margin} ${d.margin === 1 ? scale.margin.one : scale.margin.unit}`;
    return `${d.win ? 'win' : 'loss'} in ${pl(d.plies)}`;
  }
  const s = scoreText(v, scale);
  if (scale.unit === null) return s;
  if (s === '0') return 'even';
  return `${s} ${s === '+1' || s === '-1' ? scale.one : scale.unit}`;
}

/** A difference between two values in the scale's unit: "1.3 pieces", "12". */
export function differenceText(d, scale = current) {
  if (!Number.isFinite(d)) return '?';
  const s = amount(d, scale);
  if (scale.unit === null) return s;
  return `${s} ${s === '1' || s === '-1' ? scale.one : scale.unit}`;
}

/** A score with its bound: "≥ +4", "≤ -1". */
export function boundedScore(v, bound) {
  const s = scoreText(v);
  if (bound === 'lower') return `≥ ${s}`;
  if (bound === 'upper') return `≤ ${s}`;
  return s;
}

/** A value in words with its bound: "≥ win by 12 discs", "≤ +1.3 pieces". */
export function boundedValue(v, bound) {
  const s = valueText(v);
  if (bound === 'lower') return `≥ ${s}`;
  if (bound === 'upper') return `≤ ${s}`;
  return s;
}

/** A window edge: absent alpha is -∞, absent beta +∞. */
export function windowText(alpha, beta) {
  const a = alpha === null || alpha === undefined ? '-∞' : scoreText(alpha);
  const b = beta === null || beta === undefined ? '+∞' : scoreText(beta);
  // A null window's bounds differ by less than the values show: say what it is rather than
  // "(+3, +3)".
  if (a === b && alpha < beta) return `(${a}, ${b} + ε): a null window`;
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

/**
 * A term's contribution, a breakdown's total or a difference of two, in the values' unit when the
 * document states one (the engine's pre-scores and evaluations count in the same units as its
 * values: Reversi's `patterns` 100 a disc, so a contribution of -16 reads "-0.16"), with one decimal
 * more than the values so that small terms still show; as the plain signed number otherwise.
 */
export function termText(v, scale = current) {
  if (v === null || v === undefined) return '–';
  if (scale.unit === null || !Number.isFinite(v)) return signed(v);
  const k = 10 ** ((scale.decimals ?? 0) + 1);
  const r = Math.round((v / scale.perUnit) * k) / k;
  const s = plainNumber(r === 0 ? 0 : r);
  return r > 0 ? `+${s}` : s;
}

/** The heading of a breakdown's value column: "contribution (discs)", or "contribution" without a unit. */
export function termHeading(word, scale = current) {
  return scale.unit === null ? word : `${word} (${scale.unit})`;
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

/**
 * A result the MCTS solver proved, in words, from its value (the perspective's score: 1 a win, 0
 * a loss, 1/2 a draw): `"proven win"`, `"proven loss"` or `"proven draw"`.
 */
export function provenText(value) {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'proven';
  return value >= 0.75 ? 'proven win' : value <= 0.25 ? 'proven loss' : 'proven draw';
}

/** The tag drawn on a proven node: `WIN`, `LOSS` or `DRAW` (for the perspective). */
export function provenTag(value) {
  return provenText(value).replace('proven', '').trim().toUpperCase() || 'PROVEN';
}
