// How the search treated a node, beyond its window and bound: principal variation search's null
// windows and re-searches, late-move reductions, null-move cuts and singular extensions. The engine
// packs them in two bytes per node (docs/tree-format.md, "note" and "note2"): bit 0 null window,
// bit 1 failed high (searched again as the next sibling), bit 2 a re-search, bit 3 cut by a null
// move, bits 4-7 the plies of a reduction; bit 8 extended (singular), bit 9 shortened (a negative
// extension), bit 10 cut by a multi-cut. Knows no game.

export const NULL_WINDOW = 1;
export const FAILED_HIGH = 2;
export const RESEARCH = 4;
export const NULL_MOVE = 8;
const REDUCED_SHIFT = 4;
export const EXTENDED = 256;
export const SHORTENED = 512;
export const MULTI_CUT = 1024;

/** The plies a node was reduced by (0: not reduced). */
export const reducedBy = (note) => (note >> REDUCED_SHIFT) & 15;

/** The note of a version-1 node object (`null_window`, `failed_high`, `research`, `null_move`, `reduced`, `extended`, `shortened`, `multi_cut`). */
export function noteOfDoc(o) {
  let f = 0;
  if (o.null_window === true) f |= NULL_WINDOW;
  if (o.failed_high === true) f |= FAILED_HIGH;
  if (o.research === true) f |= RESEARCH;
  if (o.null_move === true) f |= NULL_MOVE;
  if (o.extended === true) f |= EXTENDED;
  if (o.shortened === true) f |= SHORTENED;
  if (o.multi_cut === true) f |= MULTI_CUT;
  const r = Number.isInteger(o.reduced) && o.reduced > 0 ? Math.min(o.reduced, 15) : 0;
  return f | (r << REDUCED_SHIFT);
}

/** The note of a compact (v2) node object (`nw`, `fh`, `rs`, `nm`, `rd`, `ex`, `sh`, `mc`). */
export function noteOfCompact(o) {
  let f = 0;
  if (o.nw) f |= NULL_WINDOW;
  if (o.fh) f |= FAILED_HIGH;
  if (o.rs) f |= RESEARCH;
  if (o.nm) f |= NULL_MOVE;
  if (o.ex) f |= EXTENDED;
  if (o.sh) f |= SHORTENED;
  if (o.mc) f |= MULTI_CUT;
  const r = Number.isInteger(o.rd) && o.rd > 0 ? Math.min(o.rd, 15) : 0;
  return f | (r << REDUCED_SHIFT);
}

/** The compact (v2) keys of `note`, as JSON text to append to a node object (`,"nw":1,"rd":2`). */
export function noteToCompact(note) {
  if (!note) return '';
  let t = '';
  if (note & NULL_WINDOW) t += ',"nw":1';
  if (note & FAILED_HIGH) t += ',"fh":1';
  if (note & RESEARCH) t += ',"rs":1';
  if (note & NULL_MOVE) t += ',"nm":1';
  if (note & EXTENDED) t += ',"ex":1';
  if (note & SHORTENED) t += ',"sh":1';
  if (note & MULTI_CUT) t += ',"mc":1';
  if (reducedBy(note) > 0) t += `,"rd":${reducedBy(note)}`;
  return t;
}

/** Writes `note` into a version-1 node object `o`. */
export function noteToDoc(note, o) {
  if (note & NULL_WINDOW) o.null_window = true;
  if (note & FAILED_HIGH) o.failed_high = true;
  if (note & RESEARCH) o.research = true;
  if (note & NULL_MOVE) o.null_move = true;
  if (note & EXTENDED) o.extended = true;
  if (note & SHORTENED) o.shortened = true;
  if (note & MULTI_CUT) o.multi_cut = true;
  if (reducedBy(note) > 0) o.reduced = reducedBy(note);
}

const plies = (k) => `${k} ${k === 1 ? 'ply' : 'plies'}`;

/**
 * What the note says, as rows `[label, sentence]` for the tooltip, strongest reason first. Each
 * answers "why was this searched this way?". `iir`: the run had internal iterative reduction on
 * (its settings' `internal_reduction`), so a reduction may also be a ply the node took off itself.
 */
export function noteRows(note, { iir = false } = {}) {
  if (!note) return [];
  const rows = [];
  const r = reducedBy(note);
  const lmr = 'late-move reduction (a move late in the order is checked with a shallower search first)';
  if (r > 0) {
    rows.push(['Reduced', iir
      ? `searched ${plies(r)} shallower: a ${lmr}, or one ply the node took off itself (internal iterative reduction, on in this run: the transposition table had no move for it), or both`
      : `searched ${plies(r)} shallower: ${lmr}`]);
  }
  if (note & NULL_WINDOW) rows.push(['Null window', 'searched with a null window: it only asked whether this move beats the best so far (principal variation search)']);
  if (note & FAILED_HIGH) rows.push(['Failed high', 'it beat the best so far, so the same move was searched again (the next sibling)']);
  if (note & RESEARCH) rows.push(['Re-search', 'searched again, deeper or with the full window, because the search before it (the previous sibling) failed high']);
  if (note & NULL_MOVE) rows.push(['Null move', 'pruned by a null move: even passing the turn scored beyond the window in a shallower search, so none of its moves was searched']);
  if (note & EXTENDED) rows.push(['Extended', 'searched one ply deeper than its siblings: the transposition table\'s move here, and singular — a shallower search of the other moves without it found none close to its value (singular extension)']);
  if (note & SHORTENED) rows.push(['Shortened', 'searched one ply shallower than its siblings: the transposition table\'s move here, whose value from the table already beats the window, while another move came close to it in a shallower search (negative extension)']);
  if (note & MULTI_CUT) rows.push(['Multi-cut', 'pruned by a multi-cut: the transposition table\'s move scored beyond the window, and another move did too in a shallower search without it, so none of its moves was searched (singular extensions)']);
  return rows;
}

/** A short tag for the node's marker, or null: `R2` reduced, `RS` re-search, `NW` null window, `NM` null-move cut, `MC` multi-cut, `X+1` extended, `X−1` shortened. */
export function noteTag(note) {
  if (!note) return null;
  if (note & NULL_MOVE) return 'NM';
  if (note & MULTI_CUT) return 'MC';
  if (note & EXTENDED) return 'X+1';
  if (note & SHORTENED) return 'X−1';
  if (reducedBy(note) > 0) return `R${reducedBy(note)}`;
  if (note & RESEARCH) return 'RS';
  if (note & NULL_WINDOW) return 'NW';
  return null;
}

/** The legend's entries, `[tag, meaning]`. */
export const NOTE_LEGEND = [
  ['Rn', 'searched n plies shallower: late-move reduction'],
  ['NW', 'null window (principal variation search); dashed when it failed high'],
  ['RS', 're-search after a null-window or reduced search failed high'],
  ['NM', 'pruned by a null move'],
  ['X+1', 'searched a ply deeper: singular extension'],
  ['X−1', 'searched a ply shallower: negative extension'],
  ['MC', 'pruned by a multi-cut (singular extensions)'],
];
