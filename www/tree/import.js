// Reads search-tree documents into one internal model, whatever engine wrote them.
//
// Pure functions with no DOM: they run on the page, in the parse worker and under node's test runner.
// Formats: the native `plyscope-tree`, JavaScript InfoVis Toolkit (JIT) tree JSON and its graph form,
// d3 hierarchy ("flare"), react-d3-tree (`attributes`) and MCTS dumps (N/Q/P or visits/value/prior).
//
// Every walk is iterative (walk.js), so a very deep chain cannot overflow the call stack.
//
// Hostile documents are refused with a located error, or read into a safe model: fields the
// explorer only shows as text (extra data, settings, stats, cut-offs) are turned into short texts
// however deep or long the value (so nothing deep reaches the wire form or a structured clone);
// term values must be finite; lists are bounded; keys such as `__proto__` are kept as plain data.
// A document larger than the caller's budget (`maxChars`, `maxNodes`) is refused with its size and
// the budget.

import { eachBefore, eachAfter, find } from './walk.js';
import { compactToBinary, isCompactDocument } from './compact.js';
import { binaryModel } from './binary.js';
import { noteOfDoc, noteToDoc } from './note.js';

/** Node kinds of the model; `node` is a foreign node whose role is unknown. */
export const KINDS = ['max', 'min', 'chance', 'leaf', 'terminal', 'pruned', 'truncated', 'node'];
const NATIVE_KINDS = new Set(['max', 'min', 'chance', 'leaf', 'terminal', 'pruned', 'truncated']);
const BOUNDS = new Set(['exact', 'lower', 'upper']);

/** The value of a won game in plyscope documents; values within half of it are heuristic. */
export const WIN_SCORE = 1_000_000;

/** Format ids and the words shown after "Detected:". */
export const FORMAT_NAMES = {
  'plyscope-tree': 'plyscope tree',
  'jit-tree': 'JIT tree',
  'jit-graph': 'JIT graph',
  'd3-flare': 'd3 hierarchy (flare)',
  'react-d3-tree': 'react-d3-tree',
  mcts: 'MCTS dump',
};

/** A structural problem in a parsed document, located by its JSON path. */
export class TreeFormatError extends Error {
  constructor(path, expected, found) {
    super(`${path}: expected ${expected}${found === undefined ? '' : `, found ${found}`}`);
    this.name = 'TreeFormatError';
    this.path = String(path);
    this.expected = expected;
  }
}

/** A document over the page's budget: `what` (characters, nodes), its size and the budget. */
export class BudgetError extends Error {
  constructor(what, size, budget) {
    super(
      what === 'nodes'
        ? `the tree has at least ${formatCount(size)} nodes, more than the page's budget of ${formatCount(budget)} nodes`
        : `the document is ${megabytes(size)} (${formatCount(size)} characters), more than the page's budget of ${megabytes(budget)}`,
    );
    this.name = 'BudgetError';
    this.what = what;
    this.size = size;
    this.budget = budget;
  }
}

/** A size in characters as "12.3 MB" or "4.5 kB" (a character of JSON is about a byte). */
export function megabytes(chars) {
  if (chars < 1e6) return `${(chars / 1e3).toFixed(1)} kB`;
  return `${(chars / 1e6).toFixed(chars < 1e7 ? 1 : 0)} MB`;
}

/** 1234567 as "1,234,567". */
function formatCount(n) {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Bounds on what one node may carry (longer lists are refused with their path). */
export const MAX_TERMS = 1000;
export const MAX_MOVES = 10000;
/** Extra fields kept per node (and settings or stats entries per document); the rest are counted. */
export const MAX_EXTRA = 200;
/** The longest text a structured foreign value is shown as, and how deep it is looked into. */
const SHOW_MAX = 200;
const SHOW_DEPTH = 6;

/** A JSON syntax error, located by line and column (both from 1). */
export class JsonSyntaxError extends Error {
  constructor(line, column, offset, expected, found) {
    super(`line ${line}, column ${column}: expected ${expected}, found ${found}`);
    this.name = 'JsonSyntaxError';
    this.line = line;
    this.column = column;
    this.offset = offset;
    this.expected = expected;
  }
}

/** One node of the model. `children` hold model nodes; `extra` holds foreign fields as [key, text]. */
export function makeNode(id, kind) {
  return {
    id,
    label: null, // the move leading here (null at the root)
    kind,
    inferred: false, // kind guessed from depth (foreign formats)
    value: null,
    bound: null,
    alpha: null,
    beta: null,
    prescore: null, // { total, terms: [{name, raw, weight, value}] }
    eval: null,
    prob: null,
    best: false,
    tt: false,
    tt_worker: null, // a parallel search's helper worker whose table entry gave the value or first move
    proven: false, // MCTS with the solver: the value is a proven result
    note: 0, // how the search treated it (null window, re-search, reduction, null move: note.js)
    count: null,
    order: null, // the place in the search order, when the document gives it
    moves: null,
    cutoff: null,
    reason: null,
    visits: null, // MCTS: playouts through the node (its value is then their mean score)
    prior: null, // MCTS: the prior among its siblings
    uct: null, // MCTS: the selection score its parent gave it when the search ended
    extra: null,
    children: [],
    parent: null,
    depth: 0,
    size: 1,
  };
}

// ---------------------------------------------------------------------------------------------
// JSON text

/** Line and column (from 1) of `offset` in `text`. */
export function lineColumn(text, offset) {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: offset - last };
}

function describeAt(text, i) {
  if (i >= text.length) return 'the end of the text';
  const c = text[i];
  if (c === '\n') return 'a line break';
  if (c === ' ' || c === '\t' || c === '\r') return 'a space';
  const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i, i + 20));
  if (word) return `'${word[0]}'`;
  return `'${c}'`;
}

/**
 * Finds the first syntax error of a JSON text: its offset and what was expected there; null if the
 * text is valid JSON. A state machine with an explicit stack (no recursion).
 */
export function findJsonError(text) {
  let i = 0;
  const n = text.length;
  const stack = []; // '{' or '['
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const fail = (expected) => ({ offset: i, expected, found: describeAt(text, i) });
  // Parses a scalar or opens a container at i; returns an error or null.
  const value = () => {
    ws();
    if (i >= n) return fail('a value');
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      return null;
    }
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const lit of ['true', 'false', 'null']) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return null;
      }
    }
    return fail('a value (object, array, string, number, true, false or null)');
  };
  const string = () => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return null;
      }
      if (c < 32) return fail('a closing \'"\' (control characters must be escaped)');
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i += 2;
            return fail('four hex digits after \\u');
          }
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
        } else {
          i++;
          return fail('an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)');
        }
      } else i++;
    }
    return fail('a closing \'"\'');
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '-' || m[0] === '') return fail('a number');
    i += m[0].length;
    const c = text[i];
    if (c === '.' || c === 'e' || c === 'E') return fail('digits in the number');
    return null;
  };

  // States: 'value' (expect a value), 'after' (a value ended), 'key' (expect a key or '}' in an
  // object just opened), 'key!' (expect a key after a comma).
  let state = 'value';
  for (;;) {
    if (state === 'value') {
      const depth = stack.length;
      const err = value();
      if (err) return err;
      if (stack.length > depth) {
        ws();
        const open = stack[stack.length - 1];
        if (open === '[') {
          if (text[i] === ']') {
            stack.pop();
            i++;
            state = 'after';
          } else state = 'value';
        } else state = 'key';
      } else state = 'after';
    } else if (state === 'key' || state === 'key!') {
      ws();
      if (state === 'key' && text[i] === '}') {
        stack.pop();
        i++;
        state = 'after';
        continue;
      }
      if (text[i] !== '"') return fail(state === 'key' ? "a property name in double quotes or '}'" : 'a property name in double quotes');
      const err = string();
      if (err) return err;
      ws();
      if (text[i] !== ':') return fail("':' after the property name");
      i++;
      state = 'value';
    } else {
      ws();
      if (stack.length === 0) {
        if (i < n) return fail('the end of the text (one JSON value only)');
        return null;
      }
      const open = stack[stack.length - 1];
      const c = text[i];
      if (c === ',') {
        i++;
        state = open === '{' ? 'key!' : 'value';
      } else if ((open === '{' && c === '}') || (open === '[' && c === ']')) {
        stack.pop();
        i++;
      } else {
        return fail(open === '{' ? "',' or '}' after a property value" : "',' or ']' after an array element");
      }
    }
  }
}

/** The offset JSON.parse's message reports, or null. */
function messageOffset(message) {
  const m = /at position (\d+)/.exec(message);
  return m ? Number(m[1]) : null;
}

/** JSON.parse with an error that names line, column and what was expected. */
export function parseJson(text) {
  if (typeof text !== 'string') throw new TypeError('expected text');
  try {
    return JSON.parse(text);
  } catch (e) {
    if (text.trim() === '') throw new JsonSyntaxError(1, 1, 0, 'a JSON document', 'an empty text');
    const found = findJsonError(text);
    let offset = messageOffset(e.message);
    let expected = 'valid JSON';
    let what = offset === null ? null : describeAt(text, offset);
    if (found) {
      // The scanner agrees with JSON.parse (or JSON.parse gave no position): use its expectation.
      if (offset === null || offset === found.offset) {
        offset = found.offset;
        expected = found.expected;
        what = found.found;
      }
    }
    if (offset === null) offset = text.length;
    const { line, column } = lineColumn(text, offset);
    throw new JsonSyntaxError(line, column, offset, expected, what ?? describeAt(text, offset));
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
const typeName = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v === 'string' ? `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}` : `${typeof v} ${String(v)}`);
const keyPath = (base, key) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`);

/** A number from a value that may be a numeric string; null otherwise. */
function num(v) {
  if (isNum(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/**
 * Short text for a foreign value shown in the tooltip: strings as they are, structured values as
 * JSON cut to SHOW_MAX characters, looked into at most SHOW_DEPTH levels deep (so a value nested
 * 10^5 deep costs a few steps and cannot overflow the stack).
 */
export function show(v) {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
  const parts = [];
  let len = 0;
  const put = (t) => {
    parts.push(t);
    len += t.length;
  };
  const walk = (x, depth) => {
    if (len > SHOW_MAX) return;
    if (x === null || typeof x !== 'object') {
      if (typeof x === 'string') put(JSON.stringify(x.length > SHOW_MAX ? x.slice(0, SHOW_MAX) : x));
      else put(x === undefined ? 'null' : String(x));
      return;
    }
    if (depth >= SHOW_DEPTH) {
      put(Array.isArray(x) ? '[…]' : '{…}');
      return;
    }
    if (Array.isArray(x)) {
      put('[');
      for (let i = 0; i < x.length && len <= SHOW_MAX; i++) {
        if (i) put(',');
        walk(x[i], depth + 1);
      }
      put(']');
      return;
    }
    put('{');
    let first = true;
    for (const k of Object.keys(x)) {
      if (len > SHOW_MAX) break;
      if (!first) put(',');
      first = false;
      put(`${JSON.stringify(k.length > 40 ? k.slice(0, 40) : k)}:`);
      walk(x[k], depth + 1);
    }
    put('}');
  };
  walk(v, 0);
  const s = parts.join('');
  return s.length > SHOW_MAX ? s.slice(0, SHOW_MAX) + '…' : s;
}

/** A scalar kept as it is (finite numbers, strings, booleans, null); anything else as short text. */
function scalar(v) {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || isNum(v)) return v;
  return show(v);
}

/** `[key, scalar]` entries of an object, at most MAX_EXTRA (then one entry counting the rest). */
function entriesOf(o) {
  const keys = Object.keys(o);
  const out = [];
  for (let i = 0; i < keys.length && i < MAX_EXTRA; i++) out.push([keys[i], scalar(o[keys[i]])]);
  if (keys.length > MAX_EXTRA) out.push(['…', `${keys.length - MAX_EXTRA} more fields not shown`]);
  return out;
}

function readBreakdown(v, base, key) {
  // Paths are built only when there is an error: this runs for every node of large trees.
  if (v === undefined || v === null) return null;
  const path = () => `${base}.${key}`;
  if (!isObj(v)) throw new TreeFormatError(path(), 'an object {total, terms}', typeName(v));
  let total = null;
  if (v.total !== undefined && v.total !== null) {
    total = num(v.total);
    if (total === null) throw new TreeFormatError(`${path()}.total`, 'a number', typeName(v.total));
  }
  const terms = [];
  const list = v.terms;
  if (list !== undefined) {
    if (!Array.isArray(list)) throw new TreeFormatError(`${path()}.terms`, 'an array of terms', typeName(list));
    if (list.length > MAX_TERMS) throw new TreeFormatError(`${path()}.terms`, `at most ${MAX_TERMS} terms`, `${list.length}`);
    let sum = 0;
    for (let k = 0; k < list.length; k++) {
      const t = list[k];
      if (!isObj(t)) throw new TreeFormatError(`${path()}.terms[${k}]`, 'an object {name, raw, weight, value}', typeName(t));
      if (typeof t.name !== 'string') throw new TreeFormatError(`${path()}.terms[${k}].name`, 'a string', typeName(t.name));
      // A copy of the four fields only: other fields (of any depth) are left behind.
      const term = isNum(t.raw) && isNum(t.weight) && isNum(t.value)
        ? { name: t.name, raw: t.raw, weight: t.weight, value: t.value }
        : { name: t.name, raw: num(t.raw), weight: num(t.weight), value: num(t.value) };
      if (term.value === null && term.raw !== null && term.weight !== null) {
        term.value = term.raw * term.weight;
        if (!Number.isFinite(term.value)) throw new TreeFormatError(`${path()}.terms[${k}]`, 'a finite value (raw × weight is too large)', `${term.raw} × ${term.weight}`);
      }
      if (term.value !== null) {
        sum += term.value;
        if (!Number.isFinite(sum)) throw new TreeFormatError(`${path()}.terms[${k}].value`, 'values whose sum is finite', String(term.value));
      }
      terms.push(term);
    }
  }
  return { total, terms };
}

// ---------------------------------------------------------------------------------------------
// Native plyscope-tree

function optNum(o, key, path) {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (!isNum(v)) throw new TreeFormatError(keyPath(path, key), 'a finite number or null', typeName(v));
  return v;
}

function nativeNode(o, path) {
  if (!isObj(o)) throw new TreeFormatError(path, 'a node object', typeName(o));
  const kind = o.kind;
  if (typeof kind !== 'string' || !NATIVE_KINDS.has(kind)) {
    throw new TreeFormatError(`${path}.kind`, `one of ${[...NATIVE_KINDS].join(', ')}`, kind === undefined ? 'nothing' : typeName(kind));
  }
  const id = o.id === undefined ? null : o.id;
  if (id !== null && !isNum(id) && typeof id !== 'string') throw new TreeFormatError(`${path}.id`, 'a number', typeName(id));
  const n = makeNode(id, kind);
  if (o.move !== undefined && o.move !== null) {
    if (typeof o.move !== 'string') throw new TreeFormatError(`${path}.move`, 'a string', typeName(o.move));
    n.label = o.move;
  }
  n.value = optNum(o, 'value', path);
  if (o.bound !== undefined && o.bound !== null) {
    if (!BOUNDS.has(o.bound)) throw new TreeFormatError(`${path}.bound`, 'exact, lower or upper', typeName(o.bound));
    n.bound = o.bound;
  }
  n.alpha = optNum(o, 'alpha', path);
  n.beta = optNum(o, 'beta', path);
  n.prob = optNum(o, 'prob', path);
  n.count = optNum(o, 'count', path);
  n.order = optNum(o, 'order', path);
  n.visits = optNum(o, 'visits', path);
  n.prior = optNum(o, 'prior', path);
  n.uct = optNum(o, 'uct', path);
  n.prescore = readBreakdown(o.prescore, path, 'prescore');
  n.eval = readBreakdown(o.eval, path, 'eval');
  n.best = o.best === true;
  n.tt = o.tt === true;
  n.tt_worker = optNum(o, 'tt_worker', path);
  if (n.tt_worker !== null && !(Number.isInteger(n.tt_worker) && n.tt_worker >= 1 && n.tt_worker <= 255)) throw new TreeFormatError(keyPath(path, 'tt_worker'), 'a worker number from 1 to 255', String(n.tt_worker));
  n.proven = o.proven === true;
  n.note = noteOfDoc(o);
  if (o.moves !== undefined && o.moves !== null) {
    if (!Array.isArray(o.moves)) throw new TreeFormatError(`${path}.moves`, 'an array of move texts', typeName(o.moves));
    if (o.moves.length > MAX_MOVES) throw new TreeFormatError(`${path}.moves`, `at most ${MAX_MOVES} moves`, `${o.moves.length}`);
    n.moves = o.moves.map((m) => (typeof m === 'string' ? m : show(m)));
  }
  if (o.cutoff !== undefined && o.cutoff !== null) {
    if (!isObj(o.cutoff)) throw new TreeFormatError(`${path}.cutoff`, 'an object {by, value, alpha, beta}', typeName(o.cutoff));
    const cp = `${path}.cutoff`;
    const by = o.cutoff.by === undefined ? null : scalar(o.cutoff.by);
    n.cutoff = { by, value: optNum(o.cutoff, 'value', cp), alpha: optNum(o.cutoff, 'alpha', cp), beta: optNum(o.cutoff, 'beta', cp) };
  }
  if (typeof o.reason === 'string') n.reason = o.reason;
  // `data`: free-form facts from other engines (and from converted foreign trees), shown in the tooltip.
  if (o.data !== undefined && o.data !== null) {
    if (!isObj(o.data)) throw new TreeFormatError(`${path}.data`, 'an object of facts', typeName(o.data));
    const extra = entriesOf(o.data).map(([k, v]) => [k, show(v)]);
    if (extra.length) n.extra = extra;
  }
  if (o.children !== undefined && o.children !== null && !Array.isArray(o.children)) {
    throw new TreeFormatError(`${path}.children`, 'an array of nodes', typeName(o.children));
  }
  return n;
}

/**
 * A child's JSON path, written out only when an error message needs it (as `${path}`): building a
 * string for each of a million nodes costs seconds and memory.
 */
class ChildPath {
  constructor(parent, k) {
    this.parent = parent;
    this.k = k;
  }

  toString() {
    return `${this.parent}.children[${this.k}]`;
  }
}

/**
 * Walks a foreign or native tree iteratively: `make(obj, path, depth)` builds a model node,
 * `kids(obj)` lists raw children. More than `budget.maxNodes` nodes throw a BudgetError.
 */
function buildTree(rootObj, rootPath, make, kids, budget = {}) {
  const maxNodes = budget.maxNodes ?? Infinity;
  const root = make(rootObj, rootPath, 0);
  const stack = [[rootObj, root, rootPath]];
  let count = 1;
  while (stack.length) {
    const [obj, node, path] = stack.pop();
    const list = kids(obj, path);
    if (!list) continue;
    if (count + list.length > maxNodes) throw new BudgetError('nodes', count + list.length, maxNodes);
    for (let k = 0; k < list.length; k++) {
      const cp = new ChildPath(path, k);
      const child = make(list[k], cp, node.depth + 1);
      child.parent = node;
      child.depth = node.depth + 1;
      node.children.push(child);
      count++;
      stack.push([list[k], child, cp]);
    }
  }
  return { root, count };
}

function checkIds(root) {
  const seen = new Map();
  // The path of a node, found through its parents only when there is a duplicate.
  const pathOf = (n) => {
    const steps = [];
    for (let m = n; m.parent; m = m.parent) steps.push(`.children[${m.parent.children.indexOf(m)}]`);
    return `$.root${steps.reverse().join('')}`;
  };
  eachBefore(root, (n) => {
    if (n.id === null) return;
    const key = String(n.id);
    const other = seen.get(key);
    if (other !== undefined) throw new TreeFormatError(`${pathOf(n)}.id`, `a unique id (${key} is also used at ${pathOf(other)})`);
    seen.set(key, n);
  });
}

/** The known fields of a header's `values`, numbers and short strings only (nested one level). */
function plainValues(v) {
  const out = {};
  for (const [k, x] of Object.entries(v).slice(0, 16)) {
    if (typeof x === 'number' || (typeof x === 'string' && x.length <= 40)) out[k] = x;
    else if (isObj(x)) out[k] = Object.fromEntries(Object.entries(x).slice(0, 8).filter(([, y]) => typeof y === 'number' || (typeof y === 'string' && y.length <= 40)));
  }
  return out;
}

function convertNative(doc, budget) {
  if (doc.version !== undefined && doc.version !== 1) {
    throw new TreeFormatError('$.version', 'version 1 or 2', typeName(doc.version));
  }
  if (!isObj(doc.root)) throw new TreeFormatError('$.root', 'the root node object', doc.root === undefined ? 'nothing' : typeName(doc.root));
  const { root, count } = buildTree(doc.root, '$.root', (o, p) => nativeNode(o, p), (o) => o.children || null, budget);
  checkIds(root);
  return { ...nativeHeader(doc), root, count };
}

/**
 * A parallel search's workers, from `stats.workers`: `[{worker, nodes, depth, deferred, moves}]`
 * (numbers or null; `deferred` the moves the worker put off because another was on them; `moves`
 * the root moves the worker decided, as safe texts), or null when there are none.
 */
function workersOf(stats) {
  if (!isObj(stats) || !Array.isArray(stats.workers)) return null;
  const out = [];
  for (const w of stats.workers.slice(0, 64)) {
    if (!isObj(w)) continue;
    const moves = Array.isArray(w.root_moves) ? w.root_moves.slice(0, 4096).filter((m) => typeof m === 'string').map(show) : [];
    out.push({ worker: num(w.worker), nodes: num(w.nodes), depth: num(w.depth_reached), deferred: num(w.deferred), moves });
  }
  return out;
}

/**
 * The header of a plyscope-tree document (any version, or the binary form's): `{ format, meta,
 * settings, stats, chosen }`, every foreign value made safe to show. Throws TreeFormatError.
 */
export function nativeHeader(doc) {
  const meta = {};
  for (const key of ['game', 'root_position', 'engine', 'algorithm', 'evaluator', 'perspective']) {
    if (doc[key] !== undefined && doc[key] !== null) meta[key] = show(doc[key]);
  }
  if (doc.settings !== undefined && !isObj(doc.settings)) throw new TreeFormatError('$.settings', 'an object', typeName(doc.settings));
  if (doc.stats !== undefined && !isObj(doc.stats)) throw new TreeFormatError('$.stats', 'an object', typeName(doc.stats));
  if (doc.chosen !== undefined && doc.chosen !== null && !isObj(doc.chosen)) throw new TreeFormatError('$.chosen', 'an object {move, rank, reason}', typeName(doc.chosen));
  return {
    format: 'plyscope-tree',
    meta,
    settings: doc.settings ? entriesOf(doc.settings) : [],
    // How the values read (checked when used: format.js valueScale); absent in foreign documents.
    values: isObj(doc.values) ? plainValues(doc.values) : null,
    stats: doc.stats ? Object.fromEntries(entriesOf(doc.stats)) : null,
    workers: workersOf(doc.stats),
    chosen: doc.chosen ? { move: doc.chosen.move == null ? null : show(doc.chosen.move), rank: num(doc.chosen.rank), reason: doc.chosen.reason == null ? null : show(doc.chosen.reason) } : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Foreign formats

const JIT_KIND_KEYS = ['kind', 'type', 'nodeType', 'node_type', 'minmax', 'step'];

function kindFromWord(v) {
  if (typeof v !== 'string') return null;
  const w = v.toLowerCase();
  if (w.startsWith('max')) return 'max';
  if (w.startsWith('min')) return 'min';
  if (w.startsWith('chance') || w === 'expect' || w === 'random') return 'chance';
  if (w === 'leaf') return 'leaf';
  if (w === 'terminal' || w === 'end') return 'terminal';
  if (w.startsWith('prune')) return 'pruned';
  return null;
}

/** Gives foreign nodes with unknown kinds a kind: leaf without children, else max/min by depth. */
function inferKinds(root, alternate) {
  eachBefore(root, (n) => {
    if (n.kind !== null) return;
    if (n.children.length === 0) n.kind = 'leaf';
    else if (alternate) {
      n.kind = n.depth % 2 === 0 ? 'max' : 'min';
      n.inferred = true;
    } else n.kind = 'node';
  });
}

function jitNode(o, path) {
  if (!isObj(o)) throw new TreeFormatError(path, 'a JIT node object {id, name, data, children}', typeName(o));
  const data = o.data === undefined || o.data === null ? {} : o.data;
  if (!isObj(data)) throw new TreeFormatError(`${path}.data`, 'an object', typeName(data));
  const n = makeNode(o.id === undefined ? null : show(o.id), null);
  n.label = o.name === undefined || o.name === null ? null : show(o.name);
  const extra = [];
  let move = null;
  for (const [key, v] of Object.entries(data)) {
    if (key.startsWith('$')) continue; // JIT styling keys
    const lk = key.toLowerCase();
    if ((lk === 'score' || lk === 'value') && n.value === null && num(v) !== null) n.value = num(v);
    else if ((lk === 'ply' || lk === 'move') && move === null) move = show(v);
    else if (JIT_KIND_KEYS.includes(key) && kindFromWord(v)) n.kind = kindFromWord(v);
    else if (lk === 'best' || lk === 'pv') n.best = v === true || v === 'true';
    else if ((lk === 'prob' || lk === 'probability') && num(v) !== null) n.prob = num(v);
    else if ((lk === 'alpha' || lk === 'beta') && num(v) !== null) n[lk] = num(v);
    else extra.push([key, show(v)]);
  }
  if (move !== null) {
    if (n.label === null || n.label === '') n.label = move;
    else if (n.label !== move) extra.unshift(['ply', move]);
  }
  if (o.children !== undefined && o.children !== null && !Array.isArray(o.children)) {
    throw new TreeFormatError(`${path}.children`, 'an array of nodes', typeName(o.children));
  }
  n.extra = extra.length ? extra : null;
  return n;
}

function convertJitTree(doc, budget) {
  const { root, count } = buildTree(doc, '$', jitNode, (o) => o.children || null, budget);
  inferKinds(root, true);
  return { format: 'jit-tree', meta: {}, settings: [], stats: null, chosen: null, root, count };
}

function convertJitGraph(arr, budget = {}) {
  if (arr.length > (budget.maxNodes ?? Infinity)) throw new BudgetError('nodes', arr.length, budget.maxNodes);
  const byId = new Map();
  arr.forEach((o, k) => {
    if (!isObj(o)) throw new TreeFormatError(`$[${k}]`, 'a JIT graph node {id, name, data, adjacencies}', typeName(o));
    if (o.id === undefined || o.id === null) throw new TreeFormatError(`$[${k}].id`, 'an id', 'nothing');
    const key = show(o.id);
    if (byId.has(key)) throw new TreeFormatError(`$[${k}].id`, `a unique id (${key} is also used at $[${byId.get(key)}])`);
    byId.set(key, k);
  });
  // Undirected adjacency lists; JIT lists each edge on one or both ends.
  const adj = arr.map(() => []);
  const pointedTo = new Uint8Array(arr.length);
  arr.forEach((o, k) => {
    if (o.adjacencies === undefined || o.adjacencies === null) return;
    if (!Array.isArray(o.adjacencies)) throw new TreeFormatError(`$[${k}].adjacencies`, 'an array', typeName(o.adjacencies));
    o.adjacencies.forEach((a, j) => {
      const to = isObj(a) ? a.nodeTo : a;
      if (to === undefined || to === null) throw new TreeFormatError(`$[${k}].adjacencies[${j}]`, 'a node id or {nodeTo}', typeName(a));
      const t = byId.get(show(to));
      if (t === undefined) throw new TreeFormatError(`$[${k}].adjacencies[${j}].nodeTo`, 'the id of a node in the array', typeName(to));
      adj[k].push(t);
      adj[t].push(k);
      if (t !== k) pointedTo[t] = 1;
    });
  });
  const made = arr.map((o, k) => {
    const n = jitNode(o, `$[${k}]`);
    n.children = [];
    return n;
  });
  // The root is the first connected node no other node points to (the first node when every edge
  // is listed both ways).
  let rootIndex = 0;
  for (let k = 0; k < arr.length; k++) {
    if (!pointedTo[k] && adj[k].length > 0) {
      rootIndex = k;
      break;
    }
  }
  const seen = new Uint8Array(arr.length);
  seen[rootIndex] = 1;
  const queue = [rootIndex];
  let count = 1;
  for (let q = 0; q < queue.length; q++) {
    const k = queue[q];
    for (const t of adj[k]) {
      if (seen[t]) continue;
      seen[t] = 1;
      made[t].parent = made[k];
      made[t].depth = made[k].depth + 1;
      made[k].children.push(made[t]);
      queue.push(t);
      count++;
    }
  }
  const root = made[rootIndex];
  inferKinds(root, true);
  const unreachable = arr.length - count;
  return { format: 'jit-graph', meta: unreachable ? { note: `${unreachable} node(s) not connected to the root were left out` } : {}, settings: [], stats: null, chosen: null, root, count };
}

function flareNode(o, path, attributesKey) {
  if (!isObj(o)) throw new TreeFormatError(path, 'a node object {name, children}', typeName(o));
  const n = makeNode(null, null);
  n.label = o.name === undefined || o.name === null ? null : show(o.name);
  const extra = [];
  if (o.value !== undefined) {
    if (num(o.value) !== null) n.value = num(o.value);
    else extra.push(['value', show(o.value)]);
  }
  const attrs = o[attributesKey];
  if (attrs !== undefined && attrs !== null) {
    if (!isObj(attrs)) throw new TreeFormatError(`${path}.${attributesKey}`, 'an object', typeName(attrs));
    for (const [key, v] of Object.entries(attrs)) {
      const lk = key.toLowerCase();
      if ((lk === 'score' || lk === 'value') && n.value === null && num(v) !== null) n.value = num(v);
      else if (JIT_KIND_KEYS.includes(key) && kindFromWord(v)) n.kind = kindFromWord(v);
      else extra.push([key, show(v)]);
    }
  }
  for (const [key, v] of Object.entries(o)) {
    if (key === 'name' || key === 'value' || key === 'children' || key === attributesKey || key === '_children' || key.startsWith('$')) continue;
    extra.push([key, show(v)]);
  }
  if (o.children !== undefined && o.children !== null && !Array.isArray(o.children)) {
    throw new TreeFormatError(`${path}.children`, 'an array of nodes', typeName(o.children));
  }
  n.extra = extra.length ? extra : null;
  return n;
}

function convertFlare(doc, format, budget) {
  const key = format === 'react-d3-tree' ? 'attributes' : 'data';
  const { root, count } = buildTree(doc, '$', (o, p) => flareNode(o, p, key), (o) => o.children || null, budget);
  inferKinds(root, false);
  return { format, meta: {}, settings: [], stats: null, chosen: null, root, count };
}

const pick = (o, keys) => {
  for (const k of keys) if (o[k] !== undefined) return [k, o[k]];
  return [null, undefined];
};

function mctsNode(o, path) {
  if (!isObj(o)) throw new TreeFormatError(path, 'an MCTS node object', typeName(o));
  const n = makeNode(o.id === undefined ? null : show(o.id), null);
  const [, mv] = pick(o, ['move', 'action', 'name', 'label']);
  n.label = mv === undefined || mv === null ? null : show(mv);
  const used = new Set(['move', 'action', 'name', 'label', 'children', 'id']);
  const [vk, visits] = pick(o, ['N', 'visits', 'n', 'visit_count']);
  if (vk) {
    used.add(vk);
    if (num(visits) === null) throw new TreeFormatError(keyPath(path, vk), 'a number of visits', typeName(visits));
    n.visits = num(visits);
  }
  const [qk, q] = pick(o, ['Q', 'value', 'q', 'mean_value']);
  if (qk) {
    used.add(qk);
    if (q !== null && num(q) === null) throw new TreeFormatError(keyPath(path, qk), 'a number', typeName(q));
    n.value = num(q);
  } else {
    const [wk, w] = pick(o, ['W', 'total_value', 'wins']);
    if (wk && num(w) !== null && n.visits) {
      used.add(wk);
      n.value = num(w) / n.visits;
      if (!Number.isFinite(n.value)) throw new TreeFormatError(keyPath(path, wk), `a total whose mean over ${n.visits} visits is finite`, typeName(w));
    }
  }
  const [pk, p] = pick(o, ['P', 'prior', 'p', 'policy']);
  if (pk) {
    used.add(pk);
    if (p !== null && num(p) === null) throw new TreeFormatError(keyPath(path, pk), 'a number', typeName(p));
    n.prob = num(p);
  }
  if (o.best === true) n.best = true;
  used.add('best');
  const extra = [];
  if (n.visits !== null) extra.push(['visits', String(n.visits)]);
  if (n.prob !== null) extra.push(['prior', String(n.prob)]);
  for (const [key, v] of Object.entries(o)) if (!used.has(key) && !key.startsWith('$')) extra.push([key, show(v)]);
  if (o.children !== undefined && o.children !== null && !Array.isArray(o.children)) {
    throw new TreeFormatError(`${path}.children`, 'an array of nodes', typeName(o.children));
  }
  n.extra = extra;
  return n;
}

function convertMcts(doc, budget) {
  const { root, count } = buildTree(doc, '$', mctsNode, (o) => o.children || null, budget);
  inferKinds(root, false);
  // The principal line of MCTS: the most visited child, from the root down (unless marked).
  const hasBest = find(root, (n) => n.best && n !== root) !== null;
  if (!hasBest) {
    let n = root;
    n.best = true;
    while (n.children.length) {
      let top = null;
      for (const c of n.children) if (c.visits !== null && (top === null || c.visits > top.visits)) top = c;
      if (!top) break;
      top.best = true;
      n = top;
    }
  } else root.best = true;
  return { format: 'mcts', meta: {}, settings: [], stats: null, chosen: null, root, count };
}

/** Which format a parsed JSON value is in, or null. */
export function detectFormat(doc) {
  if (Array.isArray(doc)) {
    if (doc.length > 0 && isObj(doc[0]) && doc.some((o) => isObj(o) && ('adjacencies' in o || ('id' in o && 'name' in o)))) return 'jit-graph';
    return null;
  }
  if (!isObj(doc)) return null;
  if (doc.format === 'plyscope-tree') return 'plyscope-tree';
  if (isObj(doc.root) && ('kind' in doc.root || 'children' in doc.root) && ('stats' in doc || 'algorithm' in doc || 'version' in doc)) return 'plyscope-tree';
  const mctsKeys = ['N', 'visits', 'visit_count'];
  const firstChild = Array.isArray(doc.children) ? doc.children.find(isObj) : undefined;
  if (mctsKeys.some((k) => k in doc) || (firstChild && mctsKeys.some((k) => k in firstChild))) return 'mcts';
  if ('attributes' in doc || (firstChild && 'attributes' in firstChild)) return 'react-d3-tree';
  if ('id' in doc && ('data' in doc || 'name' in doc) && !('value' in doc)) return 'jit-tree';
  if ('name' in doc && ('children' in doc || 'value' in doc)) return 'd3-flare';
  if ('data' in doc && 'children' in doc) return 'jit-tree';
  return null;
}

/**
 * For foreign minimax trees without a marked best line: follows, from the root, the child whose value
 * is its max/min parent's value. Returns whether a line was marked.
 */
function inferBestLine(root) {
  if (find(root, (n) => n.best)) return false;
  let n = root;
  if (n.value === null || (n.kind !== 'max' && n.kind !== 'min')) return false;
  n.best = true;
  for (;;) {
    if (n.kind !== 'max' && n.kind !== 'min') break;
    const next = n.children.find((c) => c.value !== null && c.value === n.value);
    if (!next) break;
    next.best = true;
    n = next;
  }
  return true;
}

/** Computes subtree sizes, bottom-up, iteratively. */
function computeSizes(root) {
  eachAfter(root, (n) => {
    let s = 1;
    for (const c of n.children) s += c.size;
    n.size = s;
  });
}

/**
 * Converts a parsed JSON value into the model: `{ format, meta, settings, stats, chosen, root, count }`.
 * Throws TreeFormatError naming the JSON path of a structural problem, BudgetError for a tree of
 * more than `budget.maxNodes` nodes.
 */
export function convert(doc, budget = {}) {
  const format = detectFormat(doc);
  let model;
  switch (format) {
    case 'plyscope-tree':
      model = convertNative(doc, budget);
      break;
    case 'jit-tree':
      model = convertJitTree(doc, budget);
      break;
    case 'jit-graph':
      model = convertJitGraph(doc, budget);
      break;
    case 'd3-flare':
    case 'react-d3-tree':
      model = convertFlare(doc, format, budget);
      break;
    case 'mcts':
      model = convertMcts(doc, budget);
      break;
    default:
      throw new TreeFormatError(
        '$',
        'a search tree: a plyscope-tree document, JIT tree JSON {id, name, data, children}, a JIT graph [{id, name, adjacencies}], d3 {name, children}, react-d3-tree {name, attributes, children} or an MCTS dump {N, Q, P, children}',
        typeName(doc),
      );
  }
  if (['jit-tree', 'jit-graph', 'react-d3-tree', 'd3-flare'].includes(model.format) && inferBestLine(model.root)) {
    model.meta.best_line = 'inferred: the child whose value is its parent’s, from the root';
  }
  computeSizes(model.root);
  model.formatName = FORMAT_NAMES[model.format];
  return model;
}

/**
 * Parses and converts a document text. Returns `{ ok: true, model }` or
 * `{ ok: false, error: { kind, message, line?, column?, path?, size?, budget? } }`; never throws on
 * bad input. `budget`: `{ maxChars, maxNodes }`, the largest document (in characters) and tree (in
 * nodes) accepted; a larger one gets an error of kind `budget` giving its size and the budget.
 */
export function importText(text, budget = {}, opts = {}) {
  if (typeof text === 'string' && text.length > (budget.maxChars ?? Infinity)) return budgetError(new BudgetError('characters', text.length, budget.maxChars));
  let doc;
  try {
    doc = parseJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      return { ok: false, error: { kind: 'syntax', message: `JSON syntax error at line ${e.line}, column ${e.column}: expected ${e.expected}, found ${describeFound(e)}`, line: e.line, column: e.column, offset: e.offset } };
    }
    return { ok: false, error: { kind: 'syntax', message: String(e.message || e) } };
  }
  return importValue(doc, budget, opts);
}

function budgetError(e) {
  const message = `Too large: ${e.message}`;
  return { ok: false, error: { kind: 'budget', message, what: e.what, size: e.size, budget: e.budget } };
}

function describeFound(e) {
  const m = / found (.*)$/.exec(e.message);
  return m ? m[1] : 'something else';
}

/**
 * Converts an already parsed document; same result shape as importText. A compact (version 2)
 * document is read into the binary form (compact.js): with `opts.packed` the answer is then
 * `{ ok: true, packed }` (an ArrayBuffer for binary.js, as the parse worker hands it over).
 */
export function importValue(doc, budget = {}, opts = {}) {
  try {
    if (isCompactDocument(doc)) {
      const packed = compactToBinary(doc, budget);
      return opts.packed ? { ok: true, packed } : { ok: true, model: binaryModel(packed) };
    }
    return { ok: true, model: convert(doc, budget) };
  } catch (e) {
    if (e instanceof BudgetError) return budgetError(e);
    if (e instanceof TreeFormatError) {
      return { ok: false, error: { kind: 'structure', message: `Not a valid tree at ${e.message}`, path: e.path } };
    }
    if (e instanceof RangeError) return { ok: false, error: { kind: 'structure', message: `The document is too large or too deep: ${e.message}` } };
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Back to a plyscope-tree document (the download)

/** Writes the model as a plyscope-tree document (foreign trees become native ones). */
export function toDocument(model) {
  const out = (n) => {
    const o = { id: n.id };
    if (n.label !== null) o.move = n.label;
    o.kind = n.kind === 'node' ? (n.children.length ? 'max' : 'leaf') : n.kind;
    o.value = n.value;
    for (const k of ['bound', 'alpha', 'beta', 'prescore', 'eval', 'prob', 'count', 'order', 'moves', 'cutoff', 'reason', 'visits', 'prior', 'uct', 'tt_worker']) if (n[k] !== null && n[k] !== undefined) o[k] = n[k];
    if (n.best) o.best = true;
    if (n.tt) o.tt = true;
    if (n.proven) o.proven = true;
    if (n.note) noteToDoc(n.note, o);
    if (n.extra) o.data = Object.fromEntries(n.extra);
    return o;
  };
  // Foreign ids may be strings or missing: number the nodes afresh, depth first (pre-order).
  const renumber = model.format !== 'plyscope-tree';
  let nextId = 0;
  const outs = [];
  eachBefore(model.root, (n, i, p) => {
    const o = out(n);
    if (renumber || typeof o.id !== 'number') o.id = nextId++;
    outs.push(o);
    if (p >= 0) (outs[p].children ||= []).push(o);
  });
  const rootOut = outs[0];
  const doc = {
    format: 'plyscope-tree',
    version: 1,
    game: model.meta.game ?? 'unknown',
    ...(model.meta.root_position ? { root_position: model.meta.root_position } : {}),
    engine: model.meta.engine ?? `imported from ${model.formatName}`,
    algorithm: model.meta.algorithm ?? (model.format === 'mcts' ? 'mcts' : 'other'),
    ...(model.meta.evaluator ? { evaluator: model.meta.evaluator } : {}),
    perspective: model.meta.perspective ?? 'unknown',
    ...(model.values ? { values: model.values } : {}),
    settings: Object.fromEntries(model.settings),
    stats: model.stats ?? { nodes: model.count, leaves: 0, time_ms: 0, prune_events: 0, pruned_nodes: 0, tt_hits: 0, depth_reached: 0, truncated: false },
    ...(model.chosen ? { chosen: model.chosen } : {}),
    root: rootOut,
  };
  return doc;
}

// ---------------------------------------------------------------------------------------------
// Wire form: how the parse worker hands a model to the page. Structured clone of one object per
// node costs the page about as much as parsing, and so does an array of a million small strings:
// numbers travel in typed arrays (moved, not copied), and the strings (moves, ids that are not
// numbers, the per-node breakdowns as small JSON texts) are packed into a few long strings with
// their places in an Int32Array. The page slices a move out when it builds the node, and decodes
// a breakdown only when something (the tooltip, find, a comparison) first asks for it.

const HEAVY = ['prescore', 'eval', 'moves', 'cutoff', 'reason', 'extra'];
const BOUND_CODES = [null, 'exact', 'lower', 'upper'];
const NUMS = ['value', 'alpha', 'beta', 'prob', 'count', 'visits', 'size', 'prior', 'uct', 'tt_worker'];
const PACK_CHUNK = 1 << 24; // characters per packed string

/** Packs strings (or null) into long strings: { chunks, refs } with refs = [chunk, start, length] per entry. */
class StringPacker {
  constructor(count) {
    this.chunks = [];
    this.parts = [];
    this.len = 0;
    this.refs = new Int32Array(count * 3);
  }

  set(i, s) {
    const r = i * 3;
    if (s === null || s === undefined) {
      this.refs[r + 2] = -1;
      return;
    }
    if (this.len > 0 && this.len + s.length > PACK_CHUNK) this.flush();
    this.refs[r] = this.chunks.length;
    this.refs[r + 1] = this.len;
    this.refs[r + 2] = s.length;
    this.parts.push(s);
    this.len += s.length;
  }

  flush() {
    this.chunks.push(this.parts.join(''));
    this.parts = [];
    this.len = 0;
  }

  done() {
    if (this.len > 0 || this.chunks.length === 0) this.flush();
    return { chunks: this.chunks, refs: this.refs };
  }
}

/**
 * Like StringPacker, but the long strings are UTF-8 bytes (Uint8Arrays, moved with the message, not
 * copied: at a million nodes the breakdowns are a quarter of a gigabyte); refs count bytes.
 */
class BytePacker extends StringPacker {
  constructor(count) {
    super(count);
    this.encoder = new TextEncoder();
  }

  set(i, s) {
    const r = i * 3;
    if (s === null || s === undefined) {
      this.refs[r + 2] = -1;
      return;
    }
    // eslint-disable-next-line no-control-regex
    const bytes = /^[\x00-\x7f]*$/.test(s) ? s.length : this.encoder.encode(s).length;
    if (this.len > 0 && this.len + bytes > PACK_CHUNK) this.flush();
    this.refs[r] = this.chunks.length;
    this.refs[r + 1] = this.len;
    this.refs[r + 2] = bytes;
    this.parts.push(s);
    this.len += bytes;
  }

  flush() {
    this.chunks.push(this.encoder.encode(this.parts.join('')));
    this.parts = [];
    this.len = 0;
  }
}

let utf8 = null;

/** Entry `i` of a packed list (strings or UTF-8 bytes), or null. */
function unpack(pack, i) {
  const r = i * 3;
  const len = pack.refs[r + 2];
  if (len < 0) return null;
  const start = pack.refs[r + 1];
  const chunk = pack.chunks[pack.refs[r]];
  if (typeof chunk === 'string') return chunk.slice(start, start + len);
  return (utf8 ||= new TextDecoder()).decode(chunk.subarray(start, start + len));
}

/** Leaves share one empty list (frozen: nothing may add to it); a parent gets its own. */
const NO_CHILDREN = Object.freeze([]);

/**
 * A model node whose heavy fields are decoded on first use. Fields that are usually empty (bound,
 * alpha, beta, prob, count, visits, the flags) are own properties only where set, and otherwise read
 * from the prototype: at a million nodes, smaller objects mean less for the garbage collector.
 */
class WireNode {
  constructor(id, kind, label, value, size, parent, depth) {
    this.id = id;
    this.label = label;
    this.kind = kind;
    this.value = value;
    this.children = NO_CHILDREN;
    this.parent = parent;
    this.depth = depth;
    this.size = size;
    this._at = -1; // this node's place in the packed breakdowns (-1: none)
  }

  _get(key) {
    if (this._decoded === null) {
      const text = this._pack === null ? null : unpack(this._pack, this._at);
      this._decoded = text === null ? false : JSON.parse(text);
    }
    return this._decoded === false ? null : this._decoded[key] ?? null;
  }

  get prescore() { return this._get('prescore'); }
  get eval() { return this._get('eval'); }
  get moves() { return this._get('moves'); }
  get cutoff() { return this._get('cutoff'); }
  get reason() { return this._get('reason'); }
  get extra() { return this._get('extra'); }
}
Object.assign(WireNode.prototype, { order: null, inferred: false, bound: null, alpha: null, beta: null, prob: null, best: false, tt: false, proven: false, note: 0, count: null, visits: null, prior: null, uct: null, tt_worker: null, _pack: null, _decoded: null });

const nn = (v) => (v === null || v === undefined ? NaN : v);

/** The model as transferable arrays: `{ wire, transfer }` for postMessage. */
export function toWire(model) {
  // Pre-order, with each node's parent's position (no map from nodes to positions: at a million
  // nodes it costs seconds).
  const order = [];
  const parents = [];
  eachBefore(model.root, (n, i, p) => {
    order.push(n);
    parents.push(p);
  });
  const count = order.length;
  const parent = Int32Array.from(parents);
  const kind = new Uint8Array(count);
  const flags = new Uint8Array(count);
  const notes = new Uint16Array(count);
  const W = NUMS.length;
  const nums = new Float64Array(count * W);
  const idNums = new Float64Array(count); // NaN: the id is a string (in idTexts) or missing
  const idTexts = new StringPacker(count);
  const labels = new StringPacker(count);
  const heavy = new BytePacker(count);
  const kindIndex = new Map(KINDS.map((k, i) => [k, i]));
  for (let i = 0; i < count; i++) {
    const n = order[i];
    kind[i] = kindIndex.get(n.kind);
    flags[i] = (n.best ? 1 : 0) | (n.tt ? 2 : 0) | (n.inferred ? 4 : 0) | (n.bound === 'exact' ? 1 << 3 : n.bound === 'lower' ? 2 << 3 : n.bound === 'upper' ? 3 << 3 : 0) | (n.proven ? 128 : 0);
    notes[i] = n.note || 0;
    const b = i * W;
    nums[b] = nn(n.value);
    nums[b + 1] = nn(n.alpha);
    nums[b + 2] = nn(n.beta);
    nums[b + 3] = nn(n.prob);
    nums[b + 4] = nn(n.count);
    nums[b + 5] = nn(n.visits);
    nums[b + 6] = n.size;
    nums[b + 7] = nn(n.prior);
    nums[b + 8] = nn(n.uct);
    nums[b + 9] = nn(n.tt_worker);
    if (typeof n.id === 'number') {
      idNums[i] = n.id;
      idTexts.set(i, null);
    } else {
      idNums[i] = NaN;
      idTexts.set(i, n.id === null || n.id === undefined ? null : String(n.id));
    }
    labels.set(i, n.label);
    let h = null;
    if (n.prescore !== null && n.prescore !== undefined) (h ||= {}).prescore = n.prescore;
    if (n.eval !== null && n.eval !== undefined) (h ||= {}).eval = n.eval;
    if (n.moves !== null && n.moves !== undefined) (h ||= {}).moves = n.moves;
    if (n.cutoff !== null && n.cutoff !== undefined) (h ||= {}).cutoff = n.cutoff;
    if (n.reason !== null && n.reason !== undefined) (h ||= {}).reason = n.reason;
    if (n.extra !== null && n.extra !== undefined) (h ||= {}).extra = n.extra;
    heavy.set(i, h === null ? null : JSON.stringify(h));
  }
  const { root, ...rest } = model;
  const packs = { idTexts: idTexts.done(), labels: labels.done(), heavy: heavy.done() };
  const wire = { ...rest, parent, kind, flags, notes, nums, idNums, ...packs };
  const transfer = [parent.buffer, kind.buffer, flags.buffer, notes.buffer, nums.buffer, idNums.buffer, packs.idTexts.refs.buffer, packs.labels.refs.buffer, packs.heavy.refs.buffer, ...packs.heavy.chunks.map((c) => c.buffer)];
  return { wire, transfer };
}

/** Reads `wire` into model nodes from position `from` up to `to` (parents come before children). */
function buildWireNodes(wire, nodes, from, to, seen) {
  const { parent, kind, flags, notes, nums, idNums, idTexts, labels, heavy } = wire;
  const W = NUMS.length;
  for (let i = from; i < to; i++) {
    const idn = idNums[i];
    const k = kind[i];
    const b = i * W;
    const p = parent[i];
    const pn = p >= 0 ? nodes[p] : null;
    const v = nums[b];
    const n = new WireNode(Number.isNaN(idn) ? unpack(idTexts, i) : idn, KINDS[k], unpack(labels, i), Number.isNaN(v) ? null : v, nums[b + 6], pn, pn ? pn.depth + 1 : 0);
    const f = flags[i];
    if (f !== 0) {
      if (f & 1) n.best = true;
      if (f & 2) n.tt = true;
      if (f & 4) n.inferred = true;
      if (f & 128) n.proven = seen.proven = true;
      if (f >> 3) n.bound = BOUND_CODES[(f >> 3) & 3];
    }
    if (notes && notes[i]) {
      n.note = notes[i];
      seen.notes |= notes[i];
    }
    seen.kinds |= 1 << k;
    if (f & 1) seen.best = true;
    if (!Number.isNaN(nums[b + 1])) n.alpha = nums[b + 1];
    if (!Number.isNaN(nums[b + 2])) n.beta = nums[b + 2];
    if (!Number.isNaN(nums[b + 3])) n.prob = nums[b + 3];
    if (!Number.isNaN(nums[b + 4])) n.count = nums[b + 4];
    if (!Number.isNaN(nums[b + 5])) n.visits = nums[b + 5];
    if (!Number.isNaN(nums[b + 7])) n.prior = nums[b + 7];
    if (!Number.isNaN(nums[b + 8])) n.uct = nums[b + 8];
    if (!Number.isNaN(nums[b + 9])) n.tt_worker = seen.ttWorker = nums[b + 9];
    if (heavy.refs[i * 3 + 2] >= 0) {
      n._pack = heavy;
      n._at = i;
    }
    if (pn) {
      if (pn.children === NO_CHILDREN) pn.children = [n];
      else pn.children.push(n);
    }
    nodes[i] = n;
  }
}

function wireModel(wire, nodes, seen) {
  const { parent, kind, flags, notes, nums, idNums, idTexts, labels, heavy, ...rest } = wire;
  // The kinds present and whether there is a best line, for the legend (no second walk needed).
  const kinds = KINDS.filter((k, i) => seen.kinds & (1 << i));
  return { ...rest, root: nodes[0], count: parent.length, kindsPresent: kinds, hasBestLine: seen.best, notesPresent: seen.notes, provenPresent: seen.proven, ttWorkerPresent: seen.ttWorker !== false };
}

/** Builds the model back from its wire form, in one go. */
export function fromWire(wire) {
  const count = wire.parent.length;
  const nodes = new Array(count);
  const seen = { kinds: 0, best: false, notes: 0, proven: false, ttWorker: false };
  buildWireNodes(wire, nodes, 0, count, seen);
  return wireModel(wire, nodes, seen);
}

/**
 * Builds the model back from its wire form in slices of about `sliceMs`, giving the event loop a turn
 * between slices (`yieldNow()`, a promise), so that a million nodes do not block the page. Resolves
 * to the model, or to null when `cancelled()` turns true between slices.
 */
export async function fromWireInSlices(wire, { sliceMs = 10, yieldNow, cancelled = () => false } = {}) {
  const count = wire.parent.length;
  const nodes = new Array(count);
  const seen = { kinds: 0, best: false, notes: 0, proven: false, ttWorker: false };
  // Blocks of 256 nodes until the slice has taken sliceMs (a clock read per block, not per node).
  let at = 0;
  while (at < count) {
    const t0 = performance.now();
    do {
      const to = Math.min(count, at + 256);
      buildWireNodes(wire, nodes, at, to, seen);
      at = to;
    } while (at < count && performance.now() - t0 < sliceMs);
    if (at < count) {
      await yieldNow();
      if (cancelled()) return null;
    }
  }
  return wireModel(wire, nodes, seen);
}
