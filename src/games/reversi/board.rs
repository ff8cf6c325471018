//! What every board size shares: the bit-set and geometry traits, the position on top of them, and
//! a perft written once for every geometry.
//!
//! Cells are named by a *canonical index* `row * 16 + col` (row 0 is the top row, column 0 the left
//! column) whatever the board size, so that a move means the same cell in every representation.

use crate::core::{PerftLimit, PlayerId, ZobristTable};
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitOr, BitOrAssign, BitXor, Not};

/// A set of cells, as wide as the board needs.
pub(crate) trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// Number of cells in the set.
    fn count(self) -> u32;
    /// Whether the set is empty.
    fn is_zero(self) -> bool;
}

impl Bits for u64 {
    const ZERO: Self = 0;
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == 0
    }
}

/// The eight directions as (column step, row step); pairs `2k, 2k+1` are opposite.
pub(crate) const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (-1, 1),
    (1, -1),
];

/// How a board size lays its cells out in a bit set, and its move generator.
pub(crate) trait Geometry: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// The bit set type.
    type B: Bits;
    /// Cells on a side.
    fn size(self) -> usize;
    /// Every cell of the board.
    fn valid(self) -> Self::B;
    /// Every cell moved one step in direction `dir` (an index into [`DIRS`]); cells leaving the
    /// board are dropped.
    fn shift(self, b: Self::B, dir: usize) -> Self::B;
    /// The set holding the cell with canonical index `sq`.
    fn bit(self, sq: u8) -> Self::B;
    /// Removes the lowest cell of a non-empty set and returns its canonical index.
    fn pop(self, b: &mut Self::B) -> u8;

    /// The cells where the player owning `p` may play against `o`.
    #[inline]
    fn moves(self, p: Self::B, o: Self::B) -> Self::B {
        let empty = self.valid() & !(p | o);
        let steps = self.size() - 3;
        let mut m = Self::B::ZERO;
        for d in 0..8 {
            let mut t = self.shift(p, d) & o;
            for _ in 0..steps {
                t |= self.shift(t, d) & o;
            }
            m |= self.shift(t, d) & empty;
        }
        m
    }

    /// The discs of `o` flipped when the owner of `p` plays on cell `sq`.
    #[inline]
    fn flips(self, p: Self::B, o: Self::B, sq: u8) -> Self::B {
        let x = self.bit(sq);
        let mut f = Self::B::ZERO;
        for d in 0..8 {
            let mut acc = Self::B::ZERO;
            let mut t = self.shift(x, d);
            while !(t & o).is_zero() {
                acc |= t;
                t = self.shift(t, d);
            }
            if !(t & p).is_zero() {
                f |= acc;
            }
        }
        f
    }

    /// For each of the four lines (directions `2k`, `2k+1` of [`DIRS`]), the cells of `filled`
    /// whose whole line in that direction is filled.
    #[inline]
    fn full_lines(self, filled: Self::B) -> [Self::B; 4] {
        let mut full = [Self::B::ZERO; 4];
        for (k, f) in full.iter_mut().enumerate() {
            let mut both = filled;
            for d in [2 * k, 2 * k + 1] {
                // Cells from which every cell up to the edge in direction d is filled: shrinks from
                // `filled` to its fixed point (fewer steps while the filled runs are short).
                let edge = self.valid() & !self.shift(self.valid(), d ^ 1);
                let mut r = filled;
                loop {
                    let next = filled & (self.shift(r, d ^ 1) | edge);
                    if next == r {
                        break;
                    }
                    r = next;
                }
                both = both & r;
            }
            *f = both;
        }
        full
    }

    /// The zobrist change when the discs of `f` turn over.
    #[inline]
    fn flip_key(self, f: Self::B) -> u64 {
        let mut k = 0;
        for c in self.cells(f) {
            k ^= FLIP_KEYS[c as usize];
        }
        k
    }

    /// Every cell of the set, as canonical indices, lowest first.
    fn cells(self, b: Self::B) -> CellIter<Self> {
        CellIter { geo: self, rest: b }
    }
}

/// Iterator over the canonical indices of a set's cells.
pub(crate) struct CellIter<G: Geometry> {
    geo: G,
    rest: G::B,
}

impl<G: Geometry> Iterator for CellIter<G> {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.rest.is_zero() {
            None
        } else {
            Some(self.geo.pop(&mut self.rest))
        }
    }
}

/// Zobrist keys: `colour * 256 + cell`, then the side-to-move key at 512 (as a constant, so that
/// other tables can be built from it at compile time).
const KEY_TABLE: ZobristTable<513> = ZobristTable::new(0x5EE5_0E77);
/// Zobrist keys: `colour * 256 + cell`, then the side-to-move key at 512.
pub(crate) static KEYS: ZobristTable<513> = KEY_TABLE;
/// The key change when the disc on a cell turns over: both colours' keys of that cell.
pub(crate) const FLIP_KEY_TABLE: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = KEY_TABLE.key(i) ^ KEY_TABLE.key(256 + i);
        i += 1;
    }
    t
};
/// [`FLIP_KEY_TABLE`] as a static, for run-time lookups.
pub(crate) static FLIP_KEYS: [u64; 256] = FLIP_KEY_TABLE;
/// The side-to-move key, present when White is to move.
pub(crate) const SIDE_KEY: usize = 512;

/// A position on a board of geometry `G`: one disc set per colour (0 black, 1 white), the side to
/// move and the incremental zobrist key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Board<G: Geometry> {
    pub geo: G,
    pub discs: [G::B; 2],
    pub to_move: PlayerId,
    pub key: u64,
}

impl<G: Geometry> Board<G> {
    /// The start position: the centre 2x2 with White on the top-left/bottom-right diagonal.
    pub fn start(geo: G) -> Self {
        let n = geo.size();
        let (a, b) = ((n / 2 - 1) as u8, (n / 2) as u8);
        let sq = |r: u8, c: u8| r * 16 + c;
        let white = geo.bit(sq(a, a)) | geo.bit(sq(b, b));
        let black = geo.bit(sq(a, b)) | geo.bit(sq(b, a));
        let mut board = Board {
            geo,
            discs: [black, white],
            to_move: 0,
            key: 0,
        };
        board.key = board.key_from_scratch();
        board
    }

    /// An empty board, Black to move (for position readers).
    pub fn empty(geo: G) -> Self {
        Board {
            geo,
            discs: [G::B::ZERO; 2],
            to_move: 0,
            key: 0,
        }
    }

    /// The discs of the side to move and of its opponent.
    #[inline(always)]
    pub fn me_opp(&self) -> (G::B, G::B) {
        let me = self.to_move as usize;
        (self.discs[me], self.discs[me ^ 1])
    }

    /// Legal cells of the side to move.
    #[inline(always)]
    pub fn moves(&self) -> G::B {
        let (p, o) = self.me_opp();
        self.geo.moves(p, o)
    }

    /// Whether the side to move has no move and neither has its opponent.
    #[inline]
    pub fn is_over(&self) -> bool {
        let (p, o) = self.me_opp();
        self.geo.moves(p, o).is_zero() && self.geo.moves(o, p).is_zero()
    }

    /// The owner of a cell, by canonical index.
    pub fn cell(&self, sq: u8) -> Option<PlayerId> {
        let b = self.geo.bit(sq);
        if !(self.discs[0] & b).is_zero() {
            Some(0)
        } else if !(self.discs[1] & b).is_zero() {
            Some(1)
        } else {
            None
        }
    }

    /// Plays on cell `sq` (assumed legal), flipping the discs it brackets.
    #[inline]
    pub fn play_cell(&mut self, sq: u8) {
        let me = self.to_move as usize;
        let (p, o) = (self.discs[me], self.discs[me ^ 1]);
        let f = self.geo.flips(p, o, sq);
        self.discs[me] = p | f | self.geo.bit(sq);
        self.discs[me ^ 1] = o ^ f;
        self.key ^= KEYS.key(me * 256 + sq as usize) ^ KEYS.key(SIDE_KEY) ^ self.geo.flip_key(f);
        self.to_move ^= 1;
    }

    /// Passes: only the side to move changes.
    #[inline]
    pub fn pass(&mut self) {
        self.to_move ^= 1;
        self.key ^= KEYS.key(SIDE_KEY);
    }

    /// The zobrist key computed from the discs and the side to move.
    pub fn key_from_scratch(&self) -> u64 {
        let mut k = 0;
        for colour in 0..2 {
            for c in self.geo.cells(self.discs[colour]) {
                k ^= KEYS.key(colour * 256 + c as usize);
            }
        }
        if self.to_move == 1 {
            k ^= KEYS.key(SIDE_KEY);
        }
        k
    }
}

/// Perft on bit sets, convention "a pass uses a ply; a finished game counts 1 at every deeper
/// depth". The last ply is counted from the move set's size, and the one before from the children's
/// move sets (a child without a move, passing or finished, counts 1). Nodes two plies above the
/// leaves report to `budget`; once it says stop, the count is partial.
pub(crate) fn perft<G: Geometry, L: PerftLimit>(
    geo: G,
    p: G::B,
    o: G::B,
    depth: u32,
    budget: &mut L,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let m = geo.moves(p, o);
    if m.is_zero() {
        if depth == 1 || geo.moves(o, p).is_zero() {
            return 1;
        }
        return perft(geo, o, p, depth - 1, budget);
    }
    if depth == 1 {
        return m.count() as u64;
    }
    let mut n = 0;
    for sq in geo.cells(m) {
        let f = geo.flips(p, o, sq);
        let np = p | f | geo.bit(sq);
        let no = o ^ f;
        if depth == 2 {
            n += geo.moves(no, np).count().max(1) as u64;
        } else {
            n += perft(geo, no, np, depth - 1, budget);
            if budget.stopped() {
                return n;
            }
        }
    }
    if depth == 2 {
        budget.count(n);
    }
    n
}
