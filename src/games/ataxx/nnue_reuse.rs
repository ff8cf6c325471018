//! The `nnue` evaluator's first-layer sums reused from one evaluation to the next.
//!
//! A search evaluates siblings one after another, and two positions a move or two apart differ
//! in the few 2x2 windows those moves touch: a move changes its target cell, the pieces it
//! captures and, for a jump, its source, so about 4 to 16 of the 36 windows. Each thread keeps
//! the first layer's sums (the accumulators) of one position per side to move; the side
//! alternates between a node's own evaluation and its children's. A position of that side whose
//! windows differ from the kept one's in at most [`MAX_CHANGES`] starts from the kept sums: each
//! window that differs has its old row taken away and its new row added, instead of all 36 rows
//! being added. A position that differs more is summed in full and kept instead.
//!
//! The sums are the same integers as a sum in full: the first layer adds in `i16` with
//! wrap-around, so the order of the additions does not matter, and every search is the same. Only
//! weights that live as long as the program (`&'static`: the shipped or loaded ones) are kept,
//! known by their address, which no other weights can take while they live.
//!
//! On x86-64 processors with AVX2 only; other processors and the browser sum in full. On 8.7 M
//! nodes of Ataxx search it saves about 5 % of the time with 128 hidden units and 8 % with 256
//! (docs/benchmarks.md, "Ataxx: first-layer sums reused"). The row loads, not the additions,
//! bound both paths, and the reused path loads two rows a changed window.

use super::nnue::{nibble, NnueWeights, MAX_HIDDEN, PAIR, SPREAD, STATES, WINDOWS};
use std::cell::RefCell;

/// The most windows in which a position may differ from the kept one to start from it (each
/// costs two rows, against 36 for a sum in full); 12 and 20 measured slower.
pub const MAX_CHANGES: u32 = 16;

/// The cells that are a window's lower-left cell (rank and file below 6), as a bitboard.
const CORNER_CELLS: u64 = {
    let mut m = 0u64;
    let mut w = 0;
    while w < WINDOWS {
        m |= 1u64 << (w / 6 * 7 + w % 6);
        w += 1;
    }
    m
};

/// For each cell that is a window's lower-left cell, its window (else 0).
const WINDOW_AT: [u8; 49] = {
    let mut t = [0u8; 49];
    let mut w = 0;
    while w < WINDOWS {
        t[w / 6 * 7 + w % 6] = w as u8;
        w += 1;
    }
    t
};

/// A position as the rows read it: the side to move's pieces, the other side's (not on the
/// first's cells) and walls (on neither), as [`super::nnue::active_rows`] reads them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Cells {
    me: u64,
    them: u64,
    walls: u64,
}

impl Cells {
    /// The cells of `me` to move against `them`, walls `walls`.
    #[inline(always)]
    pub(super) fn new(me: u64, them: u64, walls: u64) -> Self {
        let them = them & !me;
        Cells {
            me,
            them,
            walls: walls & !(me | them),
        }
    }

    /// The windows (a bit at each window's lower-left cell) that read a cell where `self` and
    /// `other` differ.
    #[inline(always)]
    fn changed(&self, other: &Cells) -> u64 {
        let c = (self.me ^ other.me) | (self.them ^ other.them) | (self.walls ^ other.walls);
        (c | c >> 1 | c >> 7 | c >> 8) & CORNER_CELLS
    }

    /// The row that is on for the window whose lower-left cell is `c` (below [`INPUTS`]: a
    /// window's base plus a state of four 2-bit digits).
    ///
    /// [`INPUTS`]: super::nnue::INPUTS
    #[inline(always)]
    fn row(&self, c: u32) -> usize {
        WINDOW_AT[c as usize] as usize * STATES
            + PAIR[nibble(self.me, c) | nibble(self.them, c) << 4] as usize
            + 3 * SPREAD[nibble(self.walls, c)] as usize
    }
}

/// A thread's kept sums for one side to move.
struct Kept {
    /// The address of the weights they were made with (0: none yet).
    net: usize,
    /// The position they were made for.
    cells: Cells,
    /// The first layer's sums (bias and rows), one per hidden unit.
    acc: [i16; MAX_HIDDEN],
}

/// What a thread keeps: the sums for each side to move, and its counts.
struct ThreadKept {
    sides: [Kept; 2],
    counts: ReuseCounts,
}

thread_local! {
    /// This thread's kept sums.
    static KEPT: RefCell<ThreadKept> = const {
        RefCell::new(ThreadKept {
            sides: [Kept::EMPTY, Kept::EMPTY],
            counts: ReuseCounts { full: 0, reused: 0, changes: 0 },
        })
    };
}

impl Kept {
    const EMPTY: Kept = Kept {
        net: 0,
        cells: Cells {
            me: 0,
            them: 0,
            walls: 0,
        },
        acc: [0; MAX_HIDDEN],
    };
}

/// How often each path was taken on this thread.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReuseCounts {
    /// Sums made in full (36 rows).
    pub full: u64,
    /// Sums started from kept ones.
    pub reused: u64,
    /// Windows changed, over the reused sums.
    pub changes: u64,
}

/// This thread's counts so far.
pub fn counts() -> ReuseCounts {
    KEPT.with(|k| k.borrow().counts)
}

/// The hidden layer's output sum (as [`super::nnue`]'s sums, before the division by `QA`) of
/// `cells` by `net` in output bucket `bucket`, side to move `side` (0 or 1), started from this
/// thread's kept sums for that side when few windows differ; `None` where the processor has no
/// AVX2 or the weights do not have the shape the vector code reads.
#[inline]
pub(super) fn output_sum(
    net: &'static NnueWeights,
    side: usize,
    cells: Cells,
    bucket: usize,
) -> Option<i64> {
    if super::nnue::has_avx2() && super::nnue::shaped(net, bucket) {
        let key = net as *const NnueWeights as usize;
        return Some(KEPT.with(|t| {
            let t = &mut *t.borrow_mut();
            let kept = &mut t.sides[side & 1];
            if kept.net == key {
                let changed = kept.cells.changed(&cells);
                let n = changed.count_ones();
                if n <= MAX_CHANGES {
                    t.counts.reused += 1;
                    t.counts.changes += n as u64;
                    // SAFETY: AVX2 and the weights' shape are checked above; `acc` holds
                    // `MAX_HIDDEN` units, at least `net.hidden`; `Cells::row` is below `INPUTS`.
                    return unsafe { avx2::delta(net, &kept.acc, &kept.cells, &cells, changed, bucket) };
                }
            }
            t.counts.full += 1;
            kept.net = key;
            kept.cells = cells;
            // SAFETY: as above; the rows are `active_rows_avx2`'s (each below `INPUTS`).
            unsafe {
                let rows = super::nnue::active_rows_avx2(cells.me, cells.them, cells.walls);
                super::nnue::rows_sum_avx2(net, &rows, bucket, kept.acc.as_mut_ptr())
            }
        }));
    }
    None
}

/// The sums in AVX2: the accumulators of up to 128 hidden units at a time in 8 registers.
mod avx2 {
    use super::super::nnue::{lanes_avx2, output_block_avx2};
    use super::{Cells, NnueWeights};
    use std::arch::x86_64::*;

    /// `N` registers from unit `base` on: the kept sums with the changed windows' rows.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn delta_block<const N: usize>(
        net: &NnueWeights,
        kept: *const i16,
        from: &Cells,
        to: &Cells,
        changed: u64,
        bucket: usize,
        base: usize,
        total: &mut __m256i,
    ) {
        let h = net.hidden;
        let mut acc = [_mm256_setzero_si256(); N];
        for (k, a) in acc.iter_mut().enumerate() {
            *a = _mm256_loadu_si256(kept.add(base + 16 * k) as *const __m256i);
        }
        let mut m = changed;
        while m != 0 {
            let c = m.trailing_zeros();
            m &= m - 1;
            let ro = net.w1.as_ptr().add(from.row(c) * h + base);
            let rn = net.w1.as_ptr().add(to.row(c) * h + base);
            for (k, a) in acc.iter_mut().enumerate() {
                let d = _mm256_sub_epi16(
                    _mm256_loadu_si256(rn.add(16 * k) as *const __m256i),
                    _mm256_loadu_si256(ro.add(16 * k) as *const __m256i),
                );
                *a = _mm256_add_epi16(*a, d);
            }
        }
        output_block_avx2(net, &acc, bucket, base, total);
    }

    /// The output sum from the kept accumulators `acc` of `from`, the windows of `changed` (a
    /// bit at each one's lower-left cell) changed to their rows in `to`.
    ///
    /// # Safety
    ///
    /// The processor has AVX2; the weights are `shaped` for `bucket`; `acc` holds at least
    /// `net.hidden` units (the rows, `Cells::row`'s, are each below `INPUTS`).
    #[target_feature(enable = "avx2")]
    pub unsafe fn delta(
        net: &NnueWeights,
        acc: &[i16],
        from: &Cells,
        to: &Cells,
        changed: u64,
        bucket: usize,
    ) -> i64 {
        debug_assert!(acc.len() >= net.hidden);
        let kept = acc.as_ptr();
        let mut total = _mm256_setzero_si256();
        let mut base = 0;
        while base + 128 <= net.hidden {
            delta_block::<8>(net, kept, from, to, changed, bucket, base, &mut total);
            base += 128;
        }
        while base + 16 <= net.hidden {
            delta_block::<1>(net, kept, from, to, changed, bucket, base, &mut total);
            base += 16;
        }
        lanes_avx2(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, Turn};
    use crate::games::ataxx::{walls, Ataxx};
    use rand::{rngs::SmallRng, Rng, SeedableRng};

    /// Random weights of `hidden` units that live as long as the test program.
    fn leaked(hidden: usize, seed: u64) -> &'static NnueWeights {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut n = NnueWeights::zeros(hidden, 7, 400);
        // Over the whole range, so that sums wrap and clip.
        n.b1.iter_mut().for_each(|x| *x = rng.gen_range(-700..=700));
        n.w1.iter_mut().for_each(|x| *x = rng.gen_range(-700..=700));
        n.w2.iter_mut().for_each(|x| *x = rng.gen_range(-127..=127));
        Box::leak(Box::new(n))
    }

    /// The sum in full by the portable code, for comparison.
    fn portable(net: &NnueWeights, pos: &Ataxx, bucket: usize) -> i64 {
        let side = pos.side_to_move();
        let rows = super::super::nnue::active_rows(
            pos.pieces(side),
            pos.pieces(side ^ 1),
            pos.walls(),
        );
        super::super::nnue::output_sum_any(net, &rows, bucket)
    }

    #[test]
    fn reused_sums_are_the_sums_in_full() {
        if !super::super::nnue::has_avx2() {
            return; // the reusing path is not taken: nothing to compare
        }
        let before = counts();
        let mut rng = SmallRng::seed_from_u64(11);
        for (i, &hidden) in [128usize, 256, 48].iter().enumerate() {
            let net = leaked(hidden, i as u64);
            for game in 0..12 {
                // Open boards and wall layouts; the walk visits siblings (a move tried and taken
                // back) and plays on, as a search does.
                let code: u16 = rng.gen();
                let mut pos = if game % 3 == 0 || !walls::is_playable(code) {
                    Ataxx::new()
                } else {
                    Ataxx::with_walls(walls::mirror(code))
                };
                let mut moves = Vec::new();
                for _ in 0..120 {
                    if !matches!(pos.turn(), Turn::Player(_)) {
                        break;
                    }
                    moves.clear();
                    pos.legal_moves(&mut moves);
                    for _ in 0..4 {
                        let mut child = pos.clone();
                        child.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                        let side = child.side_to_move();
                        let bucket = rng.gen_range(0..7);
                        let cells = Cells::new(
                            child.pieces(side),
                            child.pieces(side ^ 1),
                            child.walls(),
                        );
                        let got = output_sum(net, side as usize, cells, bucket);
                        assert_eq!(got, Some(portable(net, &child, bucket)));
                    }
                    pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
        let after = counts();
        // Both paths were taken, most sums from kept ones, with fewer changed windows than 36.
        let (full, reused) = (after.full - before.full, after.reused - before.reused);
        assert!(full > 0 && reused > 2 * full, "{full} full, {reused} reused");
        assert!((after.changes - before.changes) < reused * MAX_CHANGES as u64);
    }

    #[test]
    fn the_changed_windows_are_those_reading_a_changed_cell() {
        let a = Cells::new(0, 0, 0);
        // a1 (cell 0) is read by window 0 only; d4 (cell 24) by the windows at c3, d3, c4, d4;
        // g7 (cell 48) by window 35 only (lower-left cell f6, 40).
        assert_eq!(Cells::new(1, 0, 0).changed(&a), 1);
        let d4 = Cells::new(0, 1 << 24, 0).changed(&a);
        assert_eq!(d4, 1 << 16 | 1 << 17 | 1 << 23 | 1 << 24);
        assert_eq!(Cells::new(0, 0, 1 << 48).changed(&a), 1 << 40);
        // A row read through a window's cell is the row `active_rows` gives.
        let c = Cells::new(1 << 24 | 1 << 10, 1 << 17, 1 << 31);
        let rows = super::super::nnue::active_rows(c.me, c.them, c.walls);
        for w in 0..WINDOWS {
            assert_eq!(c.row((w / 6 * 7 + w % 6) as u32), rows[w] as usize);
        }
    }
}
