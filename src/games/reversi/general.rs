//! Boards of any even size from 6 to 16 on 256-bit sets laid out with a row stride of 16: the bit
//! of cell (row, col) is `row * 16 + col`, which is also the cell's canonical index.

use super::board::{Bits, Geometry, DIRS};
use std::ops::{BitAnd, BitOr, BitOrAssign, BitXor, Not};

/// A 256-bit set (four words, the lowest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct B256(pub [u64; 4]);

impl BitAnd for B256 {
    type Output = B256;
    #[inline(always)]
    fn bitand(self, o: B256) -> B256 {
        B256([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }
}

impl BitOr for B256 {
    type Output = B256;
    #[inline(always)]
    fn bitor(self, o: B256) -> B256 {
        B256([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }
}

impl BitOrAssign for B256 {
    #[inline(always)]
    fn bitor_assign(&mut self, o: B256) {
        *self = *self | o;
    }
}

impl BitXor for B256 {
    type Output = B256;
    #[inline(always)]
    fn bitxor(self, o: B256) -> B256 {
        B256([
            self.0[0] ^ o.0[0],
            self.0[1] ^ o.0[1],
            self.0[2] ^ o.0[2],
            self.0[3] ^ o.0[3],
        ])
    }
}

impl Not for B256 {
    type Output = B256;
    #[inline(always)]
    fn not(self) -> B256 {
        B256([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl Bits for B256 {
    const ZERO: Self = B256([0; 4]);
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
}

impl B256 {
    /// Shifted towards higher bits by `k` (1..64).
    #[inline(always)]
    const fn shl(self, k: u32) -> B256 {
        let a = self.0;
        B256([
            a[0] << k,
            (a[1] << k) | (a[0] >> (64 - k)),
            (a[2] << k) | (a[1] >> (64 - k)),
            (a[3] << k) | (a[2] >> (64 - k)),
        ])
    }

    /// Shifted towards lower bits by `k` (1..64).
    #[inline(always)]
    const fn shr(self, k: u32) -> B256 {
        let a = self.0;
        B256([
            (a[0] >> k) | (a[1] << (64 - k)),
            (a[1] >> k) | (a[2] << (64 - k)),
            (a[2] >> k) | (a[3] << (64 - k)),
            a[3] >> k,
        ])
    }

    /// Shifted by `k` cells towards higher bits (`k` > 0) or lower bits (`k` < 0), any amount.
    #[inline(always)]
    const fn shift_by(self, k: i32) -> B256 {
        let a = self.0;
        let mut out = [0u64; 4];
        let amount = if k >= 0 { k } else { -k } as usize;
        let (q, r) = (amount / 64, (amount % 64) as u32);
        let mut i = 0;
        while i < 4 {
            if k >= 0 && i >= q {
                let src = i - q;
                out[i] = a[src] << r;
                if r > 0 && src > 0 {
                    out[i] |= a[src - 1] >> (64 - r);
                }
            } else if k < 0 && i + q < 4 {
                let src = i + q;
                out[i] = a[src] >> r;
                if r > 0 && src + 1 < 4 {
                    out[i] |= a[src + 1] << (64 - r);
                }
            }
            i += 1;
        }
        B256(out)
    }

    const fn with(mut self, i: usize) -> B256 {
        self.0[i >> 6] |= 1u64 << (i & 63);
        self
    }
}

/// The bit offset of one step in each direction of [`DIRS`], with the row stride of 16.
const STEP: [i32; 8] = {
    let mut t = [0i32; 8];
    let mut d = 0;
    while d < 8 {
        t[d] = DIRS[d].0 + 16 * DIRS[d].1;
        d += 1;
    }
    t
};

/// Masks of one board size: its cells, and for each direction the cells a step may land on.
#[derive(Debug)]
struct Masks {
    valid: B256,
    landing: [B256; 8],
    /// For each line (directions `2k`, `2k+1`), the cells with a neighbour on both sides.
    interior: [B256; 4],
}

const fn masks(n: usize) -> Masks {
    let mut valid = B256([0; 4]);
    let mut landing = [B256([0; 4]); 8];
    let mut r = 0;
    while r < n {
        let mut c = 0;
        while c < n {
            let i = r * 16 + c;
            valid = valid.with(i);
            let mut d = 0;
            while d < 8 {
                // A step with a column change may not land on a column it cannot come from.
                let from_c = c as i32 - DIRS[d].0;
                let from_r = r as i32 - DIRS[d].1;
                if from_c >= 0 && from_c < n as i32 && from_r >= 0 && from_r < n as i32 {
                    landing[d] = landing[d].with(i);
                }
                d += 1;
            }
            c += 1;
        }
        r += 1;
    }
    let mut interior = [B256([0; 4]); 4];
    let mut k = 0;
    while k < 4 {
        let (a, b) = (landing[2 * k].0, landing[2 * k + 1].0);
        interior[k] = B256([a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]]);
        k += 1;
    }
    Masks {
        valid,
        landing,
        interior,
    }
}

/// The placements one direction (of step `S` bits) gives the owner of `p`: runs of the opponent
/// discs `mask` (those with a neighbour on both sides along the line) that start next to a disc of
/// `p`, grown by doubling, then the cell beyond them if it is empty.
#[inline(always)]
fn direction_moves<const S: i32>(p: B256, mask: B256, empty: B256, longest: usize) -> B256 {
    let mut t = mask & p.shift_by(S);
    t |= mask & t.shift_by(S);
    let m2 = mask & mask.shift_by(S);
    t |= m2 & t.shift_by(2 * S);
    let m4 = m2 & m2.shift_by(2 * S);
    let mut reach = 4;
    while reach < longest {
        t |= m4 & t.shift_by(4 * S);
        reach += 4;
    }
    t.shift_by(S) & empty
}

/// Masks for sizes 0..=16 (only the even sizes 6..16 are used).
static MASKS: [Masks; 9] = [
    masks(0),
    masks(0),
    masks(0),
    masks(6),
    masks(8),
    masks(10),
    masks(12),
    masks(14),
    masks(16),
];

/// A square board of an even size from 6 to 16 on 256-bit sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct GeoN {
    size: u8,
}

impl GeoN {
    /// The geometry of an `n` x `n` board; `n` must be even, 6 to 16.
    pub fn new(n: usize) -> GeoN {
        assert!((6..=16).contains(&n) && n % 2 == 0, "board size {n}");
        GeoN { size: n as u8 }
    }

    #[inline(always)]
    fn masks(self) -> &'static Masks {
        &MASKS[self.size as usize / 2]
    }
}

impl Geometry for GeoN {
    type B = B256;

    #[inline(always)]
    fn size(self) -> usize {
        self.size as usize
    }

    #[inline(always)]
    fn valid(self) -> B256 {
        self.masks().valid
    }

    #[inline(always)]
    fn shift(self, b: B256, dir: usize) -> B256 {
        let moved = match dir {
            0 => b.shl(STEP[0] as u32),
            1 => b.shr(-STEP[1] as u32),
            2 => b.shl(STEP[2] as u32),
            3 => b.shr(-STEP[3] as u32),
            4 => b.shl(STEP[4] as u32),
            5 => b.shr(-STEP[5] as u32),
            6 => b.shl(STEP[6] as u32),
            _ => b.shr(-STEP[7] as u32),
        };
        moved & self.masks().landing[dir & 7]
    }

    /// Kogge-Stone style: each direction's runs of opponent discs grow by doubling.
    #[inline]
    fn moves(self, p: B256, o: B256) -> B256 {
        let m = self.masks();
        let empty = m.valid & !(p | o);
        let longest = self.size as usize - 2;
        let (h, v, d, a) = (
            o & m.interior[0],
            o & m.interior[1],
            o & m.interior[2],
            o & m.interior[3],
        );
        direction_moves::<1>(p, h, empty, longest)
            | direction_moves::<-1>(p, h, empty, longest)
            | direction_moves::<16>(p, v, empty, longest)
            | direction_moves::<-16>(p, v, empty, longest)
            | direction_moves::<17>(p, d, empty, longest)
            | direction_moves::<-17>(p, d, empty, longest)
            | direction_moves::<15>(p, a, empty, longest)
            | direction_moves::<-15>(p, a, empty, longest)
    }

    /// Walks each line from the cell, one cell at a time.
    #[inline]
    fn flips(self, p: B256, o: B256, sq: u8) -> B256 {
        let n = self.size as i32;
        let has = |b: &B256, i: i32| b.0[(i >> 6) as usize] >> (i & 63) & 1 == 1;
        let (r0, c0) = ((sq >> 4) as i32, (sq & 15) as i32);
        let mut f = B256::ZERO;
        for (dc, dr) in DIRS {
            let (mut r, mut c) = (r0 + dr, c0 + dc);
            let mut line = B256::ZERO;
            while r >= 0 && r < n && c >= 0 && c < n && has(&o, r * 16 + c) {
                line = line.with((r * 16 + c) as usize);
                r += dr;
                c += dc;
            }
            if r >= 0 && r < n && c >= 0 && c < n && has(&p, r * 16 + c) {
                f |= line;
            }
        }
        f
    }

    #[inline(always)]
    fn bit(self, sq: u8) -> B256 {
        B256([0; 4]).with(sq as usize)
    }

    #[inline(always)]
    fn pop(self, b: &mut B256) -> u8 {
        for i in 0..4 {
            let w = b.0[i];
            if w != 0 {
                b.0[i] = w & (w - 1);
                return (i as u32 * 64 + w.trailing_zeros()) as u8;
            }
        }
        0
    }
}
