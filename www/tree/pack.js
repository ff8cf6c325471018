// The packed layout of the binary tree form (layout version 2; docs/tree-format.md, "Packed
// layout"): the same sections as the plain layout (binary.js), each stored by whichever of a few
// codecs makes it smallest: as it is, one repeated value, LEB128 varints of the values or of their
// differences (zigzag-coded, with "none" as 0), 32-bit floats where that loses nothing, and a bitmap
// of the entries that are not "none" followed by those entries alone. The engine's worker packs
// each search tree before it sends it (www/worker.js), so what crosses to the page and what the
// page keeps per ply (in memory and in IndexedDB) is the packed form; the page unpacks it into the
// plain layout when it shows a tree. Buffers in the plain layout (stored before, or written by
// the engine directly) stay readable: the layout word says which.
//
// Nothing here knows what a section means: a section added to SECTIONS is packed by its type.
// Pure functions with no DOM: they run on the page, in workers and under node's test runner.

import { BINARY_MAGIC, SECTIONS, knownSectionCount, sections } from './binary.js';

/** The layout word of packed buffers. */
export const PACKED_LAYOUT = 2;

/** Codecs (the fourth word of a section's entry). */
export const CODEC = { raw: 0, fill: 1, varint: 2, delta: 3, f32: 4, sparse: 5, dict: 6 };

const INT_LIMIT = 2 ** 50;

/** The "none" of an element type: NaN for floats, 0xFFFFFFFF for u32, -1 for i32, 0 for u8. */
function noneOf(T) {
  if (T === Float64Array || T === Float32Array) return NaN;
  if (T === Uint32Array) return 0xffffffff;
  if (T === Int32Array) return -1;
  return 0;
}

const isNone = (v, none) => v === none || (none !== none && v !== v);

/** A value as a whole number >= 0 for varints: none is 0, v is zigzag(v) + 1. */
function code(v, none) {
  if (isNone(v, none)) return 0;
  return v >= 0 ? 2 * v + 1 : -2 * v;
}

function uncode(c, none) {
  if (c === 0) return none;
  return c % 2 === 1 ? (c - 1) / 2 : -c / 2;
}

/** Bytes of the LEB128 varint of whole number c >= 0 (below 2^53). */
function varintBytes(c) {
  if (c < 128) return 1;
  if (c < 16384) return 2;
  if (c < 2097152) return 3;
  let b = 4;
  c = Math.floor(c / 268435456);
  while (c > 0) {
    c = Math.floor(c / 128);
    b++;
  }
  return b;
}

/** Writes the varint of whole number c >= 0 into b at j; returns the next place. */
function putVarint(b, j, c) {
  if (c < 2147483648) {
    while (c >= 128) {
      b[j++] = (c & 127) | 128;
      c >>>= 7;
    }
    b[j++] = c;
    return j;
  }
  while (c >= 128) {
    b[j++] = (c % 128) | 128;
    c = Math.floor(c / 128);
  }
  b[j++] = c;
  return j;
}

/** A growable byte writer. */
class Out {
  constructor(cap = 1 << 16) {
    this.a = new Uint8Array(cap);
    this.n = 0;
  }

  room(k) {
    if (this.n + k <= this.a.length) return;
    let cap = this.a.length * 2;
    while (cap < this.n + k) cap *= 2;
    const b = new Uint8Array(cap);
    b.set(this.a.subarray(0, this.n));
    this.a = b;
  }

  /** Appends a varint; the caller has made room (8 bytes a varint at most). */
  varint(c) {
    if (c < 128) {
      this.a[this.n++] = c;
      return;
    }
    while (c >= 128) {
      this.a[this.n++] = (c % 128) | 128;
      c = Math.floor(c / 128);
    }
    this.a[this.n++] = c;
  }

  bytes(u8) {
    this.room(u8.length);
    this.a.set(u8, this.n);
    this.n += u8.length;
  }

  align(k = 8) {
    const pad = (k - (this.n % k)) % k;
    this.room(pad);
    for (let i = 0; i < pad; i++) this.a[this.n++] = 0;
  }
}

/**
 * The smallest encoding of `a` (a typed array of type T): `{codec, size, write(out)}`. `allowSparse`:
 * whether the bitmap codec may be tried (not inside itself).
 */
function choose(a, T, allowSparse = true) {
  const none = noneOf(T);
  const n = a.length;
  const rawSize = a.byteLength;
  let best = { codec: CODEC.raw, size: rawSize, write: (o) => o.bytes(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)) };
  if (n === 0) return best;
  const isFloat = T === Float64Array || T === Float32Array;
  let equal = true;
  let whole = true; // every entry none or a whole number below INT_LIMIT
  let f32 = T === Float64Array; // every entry exact as a 32-bit float
  let nones = 0;
  let vSize = 0;
  let dSize = 0;
  let prev = 0;
  const first = a[0];
  if (!isFloat) {
    // Whole numbers by type: only the sizes to count.
    for (let i = 0; i < n; i++) {
      const v = a[i];
      if (v !== first) equal = false;
      const c = v === none ? 0 : v >= 0 ? 2 * v + 1 : -2 * v;
      if (c === 0) nones++;
      vSize += c < 128 ? 1 : varintBytes(c);
      const d = c - prev;
      const z = d >= 0 ? 2 * d : -2 * d - 1;
      dSize += z < 128 ? 1 : varintBytes(z);
      prev = c;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const v = a[i];
      if (equal && !(v === first || (v !== v && first !== first))) equal = false;
      if (v !== v) nones++;
      else if (whole && !(Number.isInteger(v) && Math.abs(v) < INT_LIMIT)) whole = false;
      if (f32 && v === v && Math.fround(v) !== v) f32 = false;
      if (whole) {
        const c = code(v, none);
        vSize += varintBytes(c);
        const d = c - prev;
        dSize += varintBytes(d >= 0 ? 2 * d : -2 * d - 1);
        prev = c;
      }
    }
  }
  const consider = (c) => {
    if (c.size < best.size) best = c;
  };
  if (equal) {
    consider({
      codec: CODEC.fill,
      size: 8,
      write: (o) => {
        const b = new Float64Array(1);
        b[0] = first;
        o.bytes(new Uint8Array(b.buffer));
      },
    });
    return best;
  }
  if (whole) {
    consider({
      codec: CODEC.varint,
      size: vSize,
      write: (o) => {
        o.room(vSize);
        const b = o.a;
        let j = o.n;
        for (let i = 0; i < n; i++) {
          const v = a[i];
          j = putVarint(b, j, isNone(v, none) ? 0 : v >= 0 ? 2 * v + 1 : -2 * v);
        }
        o.n = j;
      },
    });
    consider({
      codec: CODEC.delta,
      size: dSize,
      write: (o) => {
        o.room(dSize);
        const b = o.a;
        let j = o.n;
        let p = 0;
        for (let i = 0; i < n; i++) {
          const v = a[i];
          const c = isNone(v, none) ? 0 : v >= 0 ? 2 * v + 1 : -2 * v;
          const d = c - p;
          j = putVarint(b, j, d >= 0 ? 2 * d : -2 * d - 1);
          p = c;
        }
        o.n = j;
      },
    });
  }
  // Floats that are not whole numbers but repeat (a window is its ancestors' values, a leaf's
  // evaluation total its value): a table of the distinct values, most frequent first, and each
  // entry's place in it.
  if (isFloat && !whole) {
    const counts = new Map();
    for (let i = 0; i < n && counts.size * 2 <= n; i++) counts.set(a[i], (counts.get(a[i]) || 0) + 1);
    if (counts.size * 2 <= n) {
      const table = [...counts].sort((x, y) => y[1] - x[1]);
      const rank = new Map();
      let size = varintBytes(table.length) + 8 + 8 * table.length;
      table.forEach(([v, c], r) => {
        rank.set(v, r);
        size += c * varintBytes(r);
      });
      consider({
        codec: CODEC.dict,
        size,
        write: (o) => {
          o.room(16);
          o.varint(table.length);
          o.align(8);
          o.bytes(new Uint8Array(Float64Array.from(table, (e) => e[0]).buffer));
          o.room(size);
          const b = o.a;
          let j = o.n;
          for (let i = 0; i < n; i++) j = putVarint(b, j, rank.get(a[i]));
          o.n = j;
        },
      });
    }
  }
  if (f32) consider({ codec: CODEC.f32, size: 4 * n, write: (o) => o.bytes(new Uint8Array(Float32Array.from(a).buffer)) });
  // Mostly none: a bitmap, then the other entries by their own best codec.
  if (allowSparse && nones * 4 > n && (isFloat || T === Uint32Array || T === Int32Array)) {
    const kept = new T(n - nones);
    let k = 0;
    for (let i = 0; i < n; i++) if (!isNone(a[i], none)) kept[k++] = a[i];
    const inner = choose(kept, T, false);
    const bitmap = (n + 7) >> 3;
    consider({
      codec: CODEC.sparse,
      size: bitmap + 8 + inner.size,
      write: (o) => {
        const bits = new Uint8Array(bitmap);
        for (let i = 0; i < n; i++) if (!isNone(a[i], none)) bits[i >> 3] |= 1 << (i & 7);
        o.bytes(bits);
        o.room(16);
        o.varint(kept.length);
        o.varint(inner.codec);
        o.align(8);
        inner.write(o);
      },
    });
  }
  return best;
}

/** Whether `buffer` is a binary tree in the packed layout. */
export function isPacked(buffer) {
  return buffer instanceof ArrayBuffer && buffer.byteLength >= 16 && new Uint32Array(buffer, 0, 1)[0] === BINARY_MAGIC && new Uint32Array(buffer, 4, 1)[0] === PACKED_LAYOUT;
}

/**
 * Packs a binary tree in the plain layout (an ArrayBuffer as src/tree/binary.rs writes it) into
 * the packed layout. A buffer already packed is returned as it is. Throws on a buffer that is not a
 * plain binary tree (binary.js's checks). `onSection` is called after each section is packed (the
 * engine's worker uses it to say it is alive while a large tree is packed).
 */
export function packTree(buffer, onSection = () => {}) {
  if (isPacked(buffer)) return buffer;
  const { n, s } = sections(buffer);
  const head = 16 + 16 * SECTIONS.length;
  const out = new Out(Math.max(1 << 16, buffer.byteLength >> 2));
  out.room(head);
  out.n = head;
  const table = [];
  SECTIONS.forEach(([name, T], k) => {
    // A section the plain buffer lacks (written before it was added) is packed as all "none".
    const a = s[name] ?? new T(n).fill(noneOf(T));
    // The header (section 0) stays as it is, where the plain layout has it: words 4 and 5 give its
    // offset and length in both layouts.
    const c = k === 0 ? { codec: CODEC.raw, size: a.byteLength, write: (o) => o.bytes(a) } : choose(a, T);
    out.align(8);
    const at = out.n;
    c.write(out);
    table.push([at, out.n - at, a.length, c.codec]);
    onSection();
  });
  out.align(8);
  const result = out.a.slice(0, out.n).buffer;
  const words = new Uint32Array(result, 0, head / 4);
  words[0] = BINARY_MAGIC;
  words[1] = PACKED_LAYOUT;
  words[2] = n;
  words[3] = SECTIONS.length;
  table.forEach((e, k) => words.set(e, 4 + 4 * k));
  return result;
}

function fail(what) {
  throw new Error(`packed binary tree: expected ${what}`);
}

/** Reads varints from bytes. */
class In {
  constructor(bytes) {
    this.b = bytes;
    this.i = 0;
  }

  varint() {
    let c = 0;
    let mul = 1;
    for (;;) {
      if (this.i >= this.b.length) fail('a varint inside its section');
      const x = this.b[this.i++];
      c += (x & 127) * mul;
      if (x < 128) return c;
      mul *= 128;
      if (mul > 2 ** 56) fail('a varint of at most 8 bytes');
    }
  }
}

/**
 * Decodes `count` varints from `b` into `out` (a Float64Array of whole numbers): the hot loop of
 * unpacking, with one-byte varints taken at once.
 */
function varints(b, count, out, name) {
  const len = b.length;
  let i = 0;
  for (let k = 0; k < count; k++) {
    if (i >= len) fail(`${count} varints in section ${name}`);
    let x = b[i++];
    if (x < 128) {
      out[k] = x;
      continue;
    }
    let c = x & 127;
    let mul = 128;
    do {
      if (i >= len || mul > 2 ** 49) fail(`a whole varint in section ${name}`);
      x = b[i++];
      c += (x & 127) * mul;
      mul *= 128;
    } while (x >= 128);
    out[k] = c;
  }
  return i;
}

/** Decodes `count` entries of type T stored by `codec` from `bytes`. */
function decode(bytes, codec, count, T, name) {
  const none = noneOf(T);
  const a = new T(count);
  const r = new In(bytes);
  switch (codec) {
    case CODEC.raw: {
      if (bytes.length !== count * T.BYTES_PER_ELEMENT) fail(`${count} entries in section ${name}`);
      new Uint8Array(a.buffer).set(bytes);
      return a;
    }
    case CODEC.fill: {
      if (bytes.length !== 8) fail(`one 8-byte value in section ${name}`);
      a.fill(new Float64Array(bytes.slice().buffer)[0]);
      return a;
    }
    case CODEC.varint: {
      const c = new Float64Array(count);
      varints(bytes, count, c, name);
      // Converted in a Float64Array (one element type: the loop stays fast whatever T is), then
      // copied into T by the engine's native set().
      // (Halves and floors, not %: the remainder of a double is slow.)
      for (let i = 0; i < count; i++) {
        const h = c[i] * 0.5;
        const f = Math.floor(h);
        c[i] = h === 0 ? none : h !== f ? f : -h;
      }
      a.set(c);
      return a;
    }
    case CODEC.delta: {
      const c = new Float64Array(count);
      varints(bytes, count, c, name);
      let p = 0;
      for (let i = 0; i < count; i++) {
        const hz = c[i] * 0.5;
        const fz = Math.floor(hz);
        p += hz === fz ? hz : -fz - 1;
        if (p < 0) fail(`a valid difference in section ${name}`);
        const h = p * 0.5;
        const f = Math.floor(h);
        c[i] = h === 0 ? none : h !== f ? f : -h;
      }
      a.set(c);
      return a;
    }
    case CODEC.f32: {
      if (bytes.length !== count * 4) fail(`${count} 32-bit floats in section ${name}`);
      a.set(new Float32Array(bytes.slice().buffer));
      return a;
    }
    case CODEC.dict: {
      const d = r.varint();
      const start = Math.ceil(r.i / 8) * 8;
      if (d > count || start + 8 * d > bytes.length) fail(`a table of values inside section ${name}`);
      const table = new Float64Array(bytes.slice(start, start + 8 * d).buffer);
      const c = new Float64Array(count);
      varints(bytes.subarray(start + 8 * d), count, c, name);
      for (let i = 0; i < count; i++) {
        const k = c[i];
        if (k >= d) fail(`places inside the table of values in section ${name}`);
        c[i] = table[k];
      }
      a.set(c);
      return a;
    }
    case CODEC.sparse: {
      const bitmap = (count + 7) >> 3;
      if (bytes.length < bitmap) fail(`a bitmap in section ${name}`);
      r.i = bitmap;
      const kept = r.varint();
      const inner = r.varint();
      if (inner === CODEC.sparse) fail(`no bitmap inside a bitmap in section ${name}`);
      const start = Math.ceil(r.i / 8) * 8;
      if (kept > count || start > bytes.length) fail(`a valid bitmap section ${name}`);
      const values = decode(bytes.subarray(start), inner, kept, T, name);
      let k = 0;
      for (let i = 0; i < count; i++) {
        if (bytes[i >> 3] & (1 << (i & 7))) {
          if (k >= kept) fail(`as many bits as entries in section ${name}`);
          a[i] = values[k++];
        } else a[i] = none;
      }
      if (k !== kept) fail(`as many bits as entries in section ${name}`);
      return a;
    }
    default:
      fail(`a known codec in section ${name} (found ${codec})`);
  }
  return a;
}

/** The sections a tree needs to be shown at once (binary.js's links, depths and node objects);
 * the others are decoded when first read (the window, breakdowns, cut moves...). */
const EAGER = new Set(['meta', 'parent', 'move', 'kind', 'flags', 'value', 'moveOffsets', 'moveBytes', 'nameOffsets', 'nameBytes']);

/**
 * The sections of a packed buffer: `{ n, s: {name: typed array}, counts: {name: entries} }` like
 * binary.js's sections() for the plain layout. The table is checked at once (every section inside
 * the buffer, a known codec, a sane length) and the sections a tree needs to be shown are decoded
 * at once (throwing, with what was expected, on a damaged one); the rest are decoded when first
 * read, and one that turns out damaged then reads as "none" throughout (with a warning) rather
 * than throwing in the middle of a tooltip.
 */
export function unpackSections(buffer) {
  if (!isPacked(buffer)) fail('the packed layout');
  const head = new Uint32Array(buffer, 0, 4);
  const n = head[2];
  const sectionCount = head[3];
  // Buffers packed before the last sections were added lack them: read as null.
  if (!knownSectionCount(sectionCount)) fail(`${SECTIONS.length} sections, found ${sectionCount}`);
  if (buffer.byteLength < 16 + 16 * sectionCount) fail('a complete section table');
  const table = new Uint32Array(buffer, 16, 4 * sectionCount);
  const s = {};
  const counts = {};
  SECTIONS.forEach(([name, T], k) => {
    if (k >= sectionCount) {
      s[name] = null;
      return;
    }
    const [off, len, count, codec] = table.subarray(4 * k, 4 * k + 4);
    if (off + len > buffer.byteLength) fail(`section ${name} inside the buffer`);
    if (count > 1 << 28) fail(`a reasonable length of section ${name}`);
    if (!Object.values(CODEC).includes(codec)) fail(`a known codec in section ${name} (found ${codec})`);
    counts[name] = count;
    const bytes = new Uint8Array(buffer, off, len);
    if (k === 0) s[name] = bytes;
    else if (EAGER.has(name)) s[name] = decode(bytes, codec, count, T, name);
    else {
      Object.defineProperty(s, name, {
        configurable: true,
        enumerable: true,
        get() {
          let a;
          try {
            a = decode(bytes, codec, count, T, name);
          } catch (e) {
            console.warn(`${e.message}: read as none`);
            a = new T(count).fill(noneOf(T));
          }
          Object.defineProperty(s, name, { value: a, enumerable: true });
          return a;
        },
      });
    }
  });
  return { n, s, counts };
}
