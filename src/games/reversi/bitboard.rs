//! The 8x8 board on `u64` bitboards: bit `row * 8 + col`, a1 = bit 0, h1 = bit 7, a8 = bit 56.
//!
//! Move generation shifts the whole board at once in the four line directions, doubling the
//! reach at each step (Kogge-Stone style, as in Edax); flips look along eight precomputed rays and
//! find the first cell that is not an opponent disc with a single bit trick per ray.

use super::board::{Geometry, DIRS, FLIP_KEY_TABLE};
use crate::core::PerftLimit;

/// Every cell but the a and h columns.
pub(super) const INNER_COLS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The 8x8 geometry (zero-sized: everything is constant).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Geo8;

/// Bit index of a canonical cell index (`row * 16 + col`).
#[inline(always)]
pub(crate) const fn bit_index(sq: u8) -> u32 {
    ((sq >> 4) as u32) * 8 + (sq & 15) as u32
}

/// Canonical cell index (`row * 16 + col`) of a bit index.
#[inline(always)]
pub(crate) const fn canonical(bit: u32) -> u8 {
    (((bit >> 3) << 4) | (bit & 7)) as u8
}

/// The cells strictly beyond bit `sq` in direction `d` (an index into [`DIRS`]), up to the edge.
pub(super) const fn ray(d: usize, sq: usize) -> u64 {
    let (mut c, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut ray = 0u64;
    loop {
        c += DIRS[d].0;
        r += DIRS[d].1;
        if c < 0 || c >= 8 || r < 0 || r >= 8 {
            break;
        }
        ray |= 1u64 << (r * 8 + c);
    }
    ray
}

/// Cells strictly beyond each cell in each direction, up to the edge: `RAYS[dir][bit]`.
pub(super) static RAYS: [[u64; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            t[d][sq] = ray(d, sq);
            sq += 1;
        }
        d += 1;
    }
    t
};

/// The flip keys ([`FLIP_KEY_TABLE`]) by bit index rather than canonical index.
static FLIP_KEYS8: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut b = 0;
    while b < 64 {
        t[b] = FLIP_KEY_TABLE[canonical(b as u32) as usize];
        b += 1;
    }
    t
};

/// The 15 diagonals running from top-left to bottom-right (constant `col - row`).
static DIAGONALS: [u64; 15] = {
    let mut t = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        t[c + 7 - r] |= 1u64 << sq;
        sq += 1;
    }
    t
};

/// The 15 diagonals running from top-right to bottom-left (constant `col + row`).
static ANTI_DIAGONALS: [u64; 15] = {
    let mut t = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        t[c + r] |= 1u64 << sq;
        sq += 1;
    }
    t
};

/// The moves of one line direction (`dir` = 1, 7, 8 or 9, both ways) for discs `p`, through the
/// opponent discs `mask` that may be bracketed in that direction.
#[inline(always)]
pub(super) fn line_moves(p: u64, mask: u64, dir: u32) -> u64 {
    let mut fl = mask & (p << dir);
    let mut fr = mask & (p >> dir);
    fl |= mask & (fl << dir);
    fr |= mask & (fr >> dir);
    let ml = mask & (mask << dir);
    let mr = mask & (mask >> dir);
    let d2 = dir * 2;
    fl |= ml & (fl << d2);
    fr |= mr & (fr >> d2);
    fl |= ml & (fl << d2);
    fr |= mr & (fr >> d2);
    (fl << dir) | (fr >> dir)
}

// The SIMD build of the engine uses the vector versions of the two functions below.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) use super::simd::{flips8, moves8};

/// The cells where the owner of `p` may play against `o`.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
pub(crate) fn moves8(p: u64, o: u64) -> u64 {
    let inner = o & INNER_COLS;
    (line_moves(p, inner, 1)
        | line_moves(p, o, 8)
        | line_moves(p, inner, 7)
        | line_moves(p, inner, 9))
        & !(p | o)
}

/// The discs of `o` flipped when the owner of `p` plays on bit `x`.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
pub(crate) fn flips8(p: u64, o: u64, x: u32) -> u64 {
    let x = x as usize;
    let mut f = 0u64;
    // Directions towards higher bits: east, south, south-east, south-west.
    for d in [0usize, 2, 4, 6] {
        let ray = RAYS[d][x];
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        let line = first.wrapping_sub(1) & ray;
        f |= line & ((first & p != 0) as u64).wrapping_neg();
    }
    // Directions towards lower bits: west, north, north-west, north-east.
    for d in [1usize, 3, 5, 7] {
        let ray = RAYS[d][x];
        let stop = ray & !o;
        let first = (1u64 << 63).wrapping_shr(stop.leading_zeros());
        let line = ray & !(first << 1).wrapping_sub(1);
        f |= line & ((first & p & stop != 0) as u64).wrapping_neg();
    }
    f
}

impl Geometry for Geo8 {
    type B = u64;

    #[inline(always)]
    fn size(self) -> usize {
        8
    }

    #[inline(always)]
    fn valid(self) -> u64 {
        u64::MAX
    }

    #[inline(always)]
    fn shift(self, b: u64, dir: usize) -> u64 {
        const A_COL: u64 = 0x0101_0101_0101_0101;
        const H_COL: u64 = 0x8080_8080_8080_8080;
        match dir {
            0 => (b << 1) & !A_COL,
            1 => (b >> 1) & !H_COL,
            2 => b << 8,
            3 => b >> 8,
            4 => (b << 9) & !A_COL,
            5 => (b >> 9) & !H_COL,
            6 => (b << 7) & !H_COL,
            _ => (b >> 7) & !A_COL,
        }
    }

    #[inline(always)]
    fn bit(self, sq: u8) -> u64 {
        1u64 << bit_index(sq)
    }

    #[inline(always)]
    fn pop(self, b: &mut u64) -> u8 {
        let t = b.trailing_zeros();
        *b &= b.wrapping_sub(1);
        canonical(t)
    }

    #[inline(always)]
    fn moves(self, p: u64, o: u64) -> u64 {
        moves8(p, o)
    }

    #[inline(always)]
    fn flip_key(self, mut f: u64) -> u64 {
        let mut k = 0;
        while f != 0 {
            k ^= FLIP_KEYS8[f.trailing_zeros() as usize];
            f &= f - 1;
        }
        k
    }

    /// Rows and columns by folding; diagonals by comparing each one's mask.
    #[inline]
    fn full_lines(self, filled: u64) -> [u64; 4] {
        const A_COL: u64 = 0x0101_0101_0101_0101;
        let mut h = filled & (filled >> 1);
        h &= h >> 2;
        h &= h >> 4;
        let rows = (h & A_COL) * 0xFF;
        let mut v = filled & (filled >> 8);
        v &= v >> 16;
        v &= v >> 32;
        let cols = (v & 0xFF) * A_COL;
        let (mut diag, mut anti) = (0u64, 0u64);
        for i in 0..15 {
            let (d, a) = (DIAGONALS[i], ANTI_DIAGONALS[i]);
            diag |= d & ((filled & d == d) as u64).wrapping_neg();
            anti |= a & ((filled & a == a) as u64).wrapping_neg();
        }
        // Line order of DIRS: east-west, south-north, south-east/north-west, south-west/north-east.
        [rows, cols, diag, anti]
    }

    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u8) -> u64 {
        flips8(p, o, bit_index(sq))
    }
}

/// Perft on the 8x8 bitboard, convention "a pass uses a ply; a finished game counts 1 at every
/// deeper depth": bulk counts the last ply with a popcount, and the ply before from the children's
/// move sets. Nodes two plies above the leaves report to `budget`; once it says stop, the count
/// is partial.
pub(crate) fn perft8<L: PerftLimit>(p: u64, o: u64, depth: u32, budget: &mut L) -> u64 {
    if depth == 0 {
        return 1;
    }
    let m = moves8(p, o);
    if m == 0 {
        if depth == 1 || moves8(o, p) == 0 {
            return 1;
        }
        return perft8(o, p, depth - 1, budget);
    }
    if depth == 1 {
        return m.count_ones() as u64;
    }
    let mut n = 0u64;
    let mut rest = m;
    if depth == 2 {
        while rest != 0 {
            let x = rest.trailing_zeros();
            rest &= rest - 1;
            let f = flips8(p, o, x);
            let c = moves8(o ^ f, p | f | (1u64 << x)).count_ones();
            n += c.max(1) as u64;
        }
        budget.count(n);
    } else {
        while rest != 0 {
            let x = rest.trailing_zeros();
            rest &= rest - 1;
            let f = flips8(p, o, x);
            n += perft8(o ^ f, p | f | (1u64 << x), depth - 1, budget);
            if budget.stopped() {
                break;
            }
        }
    }
    n
}
