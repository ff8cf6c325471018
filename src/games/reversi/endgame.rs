//! An exact endgame solver for 8x8 Reversi, scored in discs.
//!
//! The value of a position is the final disc margin of the side to move under perfect play by
//! both sides, with the empty squares of a game that ends early given to the winner (the scoring
//! of the World Othello Federation, which the FFO endgame test suite uses).
//!
//! The solver is a negamax alpha-beta on bare bitboards (the side to move's discs, the other
//! side's), with:
//! - null-window searches of the moves after the first, re-searched when they fail high
//!   (principal variation search);
//! - a transposition table of exact bounds and best moves for positions with at least
//!   [`TT_MIN_EMPTIES`] empty squares;
//! - fastest-first move ordering (the reply with the fewest answers first, corners weighing
//!   double) down to [`SMALL`] empties, the hash move before all;
//! - below that, parity ordering (squares in regions with an odd number of empties first) with no
//!   move generation;
//! - the last empty square counted directly;
//! - a stability cut-off: the other side's stable discs ([`stable_discs`]) cap the margin, which
//!   ends a node whose cap is already at or below alpha.
//!
//! Everything is copy-make on two `u64`s; nothing is allocated while solving.

use super::bitboard::{flips8, moves8};

/// Empty squares at and below which the solver orders moves by parity alone.
pub const SMALL: u32 = 6;
/// Empty squares from which positions go in the transposition table.
pub const TT_MIN_EMPTIES: u32 = 9;
/// Empty squares from which a node first looks its children up in the table (enhanced
/// transposition cut-off).
pub const ETC_MIN_EMPTIES: u32 = 12;
/// log2 of the number of transposition table entries (24 bytes each: 12 MiB).
const TT_BITS: u32 = 19;

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The squares around each square (king steps, no wrap across the a and h columns): a move on `x`
/// can flip only when one of them holds an opposing disc, a test far cheaper than the flips.
const NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut x = 0;
    while x < 64 {
        let b = 1u64 << x;
        let h = ((b << 1) & 0xFEFE_FEFE_FEFE_FEFE) | ((b >> 1) & 0x7F7F_7F7F_7F7F_7F7F);
        let row = b | h;
        t[x] = h | (row << 8) | (row >> 8);
        x += 1;
    }
    t
};

/// [`play`] on `x` when a neighbour of `x` holds an opposing disc (else no flip is possible).
#[inline(always)]
fn play_near(p: u64, o: u64, x: u32) -> Option<(u64, u64)> {
    if NEIGHBOURS[x as usize] & o == 0 {
        None
    } else {
        play(p, o, x)
    }
}

/// The four 4x4 quadrants, for parity ordering.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

#[derive(Clone, Copy, Default)]
struct Entry {
    p: u64,
    o: u64,
    lower: i8,
    upper: i8,
    best: u8,
    used: bool,
}

/// The disc margin of a finished game for the owner of `p`, empties to the winner.
#[inline(always)]
pub fn final_margin(p: u64, o: u64) -> i32 {
    let (mp, mo) = (p.count_ones() as i32, o.count_ones() as i32);
    let empty = 64 - mp - mo;
    let d = mp - mo;
    match d.cmp(&0) {
        std::cmp::Ordering::Greater => d + empty,
        std::cmp::Ordering::Less => d - empty,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Plays bit `x` for the owner of `p`: the new (`p`, `o`) before the turn passes, or `None` when
/// the move flips nothing (illegal).
pub fn play_square(p: u64, o: u64, x: u32) -> Option<(u64, u64)> {
    play(p, o, x)
}

/// Whether the owner of `p` has a legal move against `o`.
pub fn has_move(p: u64, o: u64) -> bool {
    moves8(p, o) != 0
}

/// [`play_square`], inlined for the solver.
#[inline(always)]
fn play(p: u64, o: u64, x: u32) -> Option<(u64, u64)> {
    let f = flips8(p, o, x);
    if f == 0 {
        None
    } else {
        Some((p | f | (1u64 << x), o & !f))
    }
}

/// The solver's result for a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solution {
    /// The final disc margin of the side to move under perfect play.
    pub margin: i32,
    /// A best move (bit index, a1 = 0, h8 = 63), or `None` when the side to move must pass or
    /// the game is over.
    pub best: Option<u32>,
    /// Positions visited.
    pub nodes: u64,
}

/// Positions between two calls of a solver's budget check ([`Solver::with_check`]).
pub const CHECK_EVERY: u64 = 1 << 14;

/// One root move's exact result: its margin for the side to move, exact or an upper bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootResult {
    /// The move (bit index, a1 = 0).
    pub square: u32,
    /// The final margin for the side to move after this move, under perfect play; when `exact` is
    /// false, only an upper bound (the move was proved no better than the best).
    pub margin: i32,
    /// Whether `margin` is exact.
    pub exact: bool,
}

/// An exact solver with its transposition table (reused across solves of one game).
pub struct Solver<'a> {
    tt: Vec<Entry>,
    nodes: u64,
    max_nodes: u64,
    next_check: u64,
    /// The smaller of `max_nodes` and `next_check`: one comparison per position.
    limit: u64,
    check: Option<&'a mut dyn FnMut(u64) -> bool>,
    aborted: bool,
    stability: bool,
    aspiration: bool,
}

impl Default for Solver<'_> {
    fn default() -> Self {
        Solver::new()
    }
}

thread_local! {
    /// The table of the last solver dropped on this thread, kept for the next one: making a
    /// 12 MiB table (and the page faults of its first writes) cost a few milliseconds a move.
    static SPARE: std::cell::RefCell<Option<Vec<Entry>>> = const { std::cell::RefCell::new(None) };
}

impl Drop for Solver<'_> {
    fn drop(&mut self) {
        let tt = std::mem::take(&mut self.tt);
        if tt.len() == 1 << TT_BITS {
            SPARE.with(|s| *s.borrow_mut() = Some(tt));
        }
    }
}

impl<'a> Solver<'a> {
    /// A solver with an empty table and no node limit.
    pub fn new() -> Self {
        let mut s = Solver::reusing();
        s.tt.fill(Entry::default());
        s
    }

    /// A solver with no node limit whose table keeps what earlier solvers on this thread
    /// learned. Every entry bounds a position's exact value (a stopped solve stores nothing), so
    /// entries stay true from one position of a game to the next, and the table needs no
    /// clearing: the AI's solver starts each move warm, at no cost.
    pub fn reusing() -> Self {
        let tt = SPARE
            .with(|s| s.borrow_mut().take())
            .unwrap_or_else(|| vec![Entry::default(); 1 << TT_BITS]);
        Solver {
            tt,
            nodes: 0,
            max_nodes: u64::MAX,
            next_check: u64::MAX,
            limit: u64::MAX,
            check: None,
            aborted: false,
            stability: true,
            aspiration: true,
        }
    }

    /// Stops a solve after `max` positions (it then returns `None`).
    pub fn with_node_limit(mut self, max: u64) -> Self {
        self.max_nodes = max;
        self.limit = self.max_nodes.min(self.next_check);
        self
    }

    /// Turns the stability cut-off on or off (on by default; off is for measuring what it saves).
    pub fn with_stability(mut self, on: bool) -> Self {
        self.stability = on;
        self
    }

    /// Turns the aspiration window of [`Solver::solve`] on or off (on by default: the solve starts
    /// around the `patterns` evaluation's estimate; off solves from the full window).
    pub fn with_aspiration(mut self, on: bool) -> Self {
        self.aspiration = on;
        self
    }

    /// Calls `check` with the positions visited so far every [`CHECK_EVERY`] positions; the solve
    /// stops (and returns `None`) when it answers `false`: a stop flag, a deadline, progress.
    pub fn with_check(mut self, check: &'a mut dyn FnMut(u64) -> bool) -> Self {
        self.check = Some(check);
        self.next_check = CHECK_EVERY;
        self.limit = self.max_nodes.min(self.next_check);
        self
    }

    /// Resets the counters for a new solve.
    fn start(&mut self) {
        self.nodes = 0;
        self.aborted = false;
        self.next_check = if self.check.is_some() {
            CHECK_EVERY
        } else {
            u64::MAX
        };
        self.limit = self.max_nodes.min(self.next_check);
    }

    #[cold]
    fn poll(&mut self) {
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            if let Some(c) = self.check.as_mut() {
                if !c(self.nodes) {
                    self.aborted = true;
                }
            }
        }
        self.limit = self.max_nodes.min(self.next_check);
    }

    /// Every legal move of `p` (to move against `o`) with its margin, best first: the best move
    /// exact, the others exact or an upper bound (each searched with a null window first, as
    /// principal variation search does, and again with a full one only when it could be best).
    /// Empty when `p` has no move; `None` when the budget stopped the solve.
    pub fn solve_root(&mut self, p: u64, o: u64) -> Option<Vec<RootResult>> {
        self.start();
        // Order the moves by a shallow look: the table's best move first, then fastest first.
        let mut list: Vec<(i32, u32, u64, u64)> = Vec::new();
        let e = self.tt[Self::slot(p, o)];
        let hash_move = if e.used && e.p == p && e.o == o { e.best } else { 64 };
        let mut moves = moves8(p, o);
        while moves != 0 {
            let x = moves.trailing_zeros();
            moves &= moves - 1;
            let (np, no) = play(p, o, x).expect("a legal move flips");
            let replies = moves8(no, np);
            let key = if x as u8 == hash_move {
                -1000
            } else {
                (replies.count_ones() + (replies & CORNERS).count_ones()) as i32
            };
            list.push((key, x, np, no));
        }
        list.sort_by_key(|e| (e.0, e.1));
        let mut out = Vec::with_capacity(list.len());
        let mut alpha = -65;
        for (i, &(_, x, np, no)) in list.iter().enumerate() {
            let (v, exact) = if i == 0 {
                (-self.search(no, np, -64, 64), true)
            } else {
                let v = -self.search(no, np, -alpha - 1, -alpha);
                if v > alpha {
                    (-self.search(no, np, -64, -alpha), true)
                } else {
                    (v, false)
                }
            };
            if self.aborted {
                return None;
            }
            alpha = alpha.max(v);
            out.push(RootResult {
                square: x,
                margin: v,
                exact,
            });
        }
        out.sort_by(|a, b| b.margin.cmp(&a.margin).then(b.exact.cmp(&a.exact)));
        Some(out)
    }

    /// The best line from `p` to move against `o`, read from the table after a solve: bit indices,
    /// 64 for a pass; it stops where the table does not know the position.
    pub fn best_line(&self, mut p: u64, mut o: u64, max: usize) -> Vec<u32> {
        let mut line = Vec::new();
        while line.len() < max {
            if moves8(p, o) == 0 {
                if moves8(o, p) == 0 {
                    break;
                }
                line.push(64);
                std::mem::swap(&mut p, &mut o);
                continue;
            }
            let e = self.tt[Self::slot(p, o)];
            if !(e.used && e.p == p && e.o == o && e.best < 64) {
                break;
            }
            let Some((np, no)) = play(p, o, e.best as u32) else {
                break;
            };
            line.push(e.best as u32);
            (p, o) = (no, np);
        }
        line
    }

    /// Positions visited by the last solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact value of the position (`p` to move against `o`) and a best move; `None` when
    /// the node limit stopped the solve first.
    pub fn solve(&mut self, p: u64, o: u64) -> Option<Solution> {
        if !self.aspiration {
            return self.solve_window(p, o, -64, 64);
        }
        let guess = estimate(p, o);
        self.solve_around(p, o, guess)
    }

    /// The exact value, searched first within a narrow window around `guess` (a margin), widened
    /// on the side it fails (aspiration): a window that holds the answer costs a fraction of the
    /// full window, and a search that fails on one side is cheap when it fails below.
    pub fn solve_around(&mut self, p: u64, o: u64, guess: i32) -> Option<Solution> {
        let g = guess.clamp(-64, 64);
        let (mut lo, mut hi) = ((g - 3).max(-65), (g + 3).min(65));
        let mut nodes = 0;
        let mut step = 8;
        loop {
            let s = self.solve_window(p, o, lo, hi)?;
            nodes += s.nodes;
            if s.margin <= lo && lo > -65 {
                hi = s.margin + 1;
                lo = (s.margin - step - 1).max(-65);
            } else if s.margin >= hi && hi < 65 {
                lo = s.margin - 1;
                hi = (s.margin + step + 1).min(65);
            } else {
                return Some(Solution { nodes, ..s });
            }
            step *= 2;
        }
    }

    /// Like [`Solver::solve`] within the window (`alpha`, `beta`): an exact margin when it lies
    /// inside, else a bound on the side it fell (fail-soft).
    pub fn solve_window(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> Option<Solution> {
        self.start();
        let (margin, best) = self.root(p, o, alpha, beta);
        if self.aborted {
            None
        } else {
            Some(Solution {
                margin,
                best,
                nodes: self.nodes,
            })
        }
    }

    /// The exact margin after each legal move of `p` (bit index, margin for `p`), best first.
    pub fn solve_each(&mut self, p: u64, o: u64) -> Option<Vec<(u32, i32)>> {
        self.start();
        let mut out = Vec::new();
        let mut moves = moves8(p, o);
        while moves != 0 {
            let x = moves.trailing_zeros();
            moves &= moves - 1;
            let (np, no) = play(p, o, x).expect("a legal move flips");
            let v = -self.search(no, np, -64, 64);
            if self.aborted {
                return None;
            }
            out.push((x, v));
        }
        out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        Some(out)
    }

    fn root(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, Option<u32>) {
        let moves = moves8(p, o);
        if moves == 0 {
            let v = if moves8(o, p) == 0 {
                final_margin(p, o)
            } else {
                -self.search(o, p, -beta, -alpha)
            };
            return (v, None);
        }
        let v = self.search(p, o, alpha, beta);
        let e = self.tt[Self::slot(p, o)];
        let best = if e.used && e.p == p && e.o == o && e.best < 64 && moves >> e.best & 1 == 1 {
            Some(e.best as u32)
        } else {
            // Few empties (no table): find a move that reaches the value.
            let mut found = None;
            let mut m = moves;
            while m != 0 {
                let x = m.trailing_zeros();
                m &= m - 1;
                let (np, no) = play(p, o, x).unwrap();
                if -self.search(no, np, -64, 64) == v {
                    found = Some(x);
                    break;
                }
            }
            found
        };
        (v, best)
    }

    #[inline(always)]
    fn slot(p: u64, o: u64) -> usize {
        let h = p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        ((h ^ (h >> 31)) >> (64 - TT_BITS)) as usize
    }

    /// Negamax value of `p` to move, fail-soft within (`alpha`, `beta`).
    fn search(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.limit {
            self.poll();
        }
        if self.aborted {
            return 0;
        }
        let empties = !(p | o);
        let n = empties.count_ones();
        if n <= SMALL {
            return self.small(p, o, alpha, beta, empties, n);
        }
        // Stability cut-off: the other side keeps its stable discs, so the margin is at most
        // 64 - 2 * stable; the disc count alone says when that cannot reach down to alpha.
        if self.stability && 64 - 2 * o.count_ones() as i32 <= alpha {
            let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        let moves = moves8(p, o);
        if moves == 0 {
            if moves8(o, p) == 0 {
                return final_margin(p, o);
            }
            return -self.search(o, p, -beta, -alpha);
        }
        let use_tt = n >= TT_MIN_EMPTIES;
        let slot = Self::slot(p, o);
        let mut hash_move = 64u8;
        if use_tt {
            let e = self.tt[slot];
            if e.used && e.p == p && e.o == o {
                let (lo, hi) = (e.lower as i32, e.upper as i32);
                if lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                if lo == hi {
                    return lo;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
                hash_move = e.best;
            }
        }
        // Fastest first: each move with the number of answers it leaves (corners count twice).
        let mut list = [(0i32, 0u32, 0u64, 0u64); 32];
        let mut len = 0;
        let mut m = moves;
        while m != 0 {
            let x = m.trailing_zeros();
            m &= m - 1;
            let (np, no) = play(p, o, x).expect("a legal move flips");
            let replies = moves8(no, np);
            let key = if x as u8 == hash_move {
                -1000
            } else {
                // The answers left (corners twice), then the other side's potential mobility
                // (empty squares next to our discs, where its moves may come from).
                let pot = (around(np) & !(np | no)).count_ones();
                (replies.count_ones() + (replies & CORNERS).count_ones()) as i32 * 16
                    + pot as i32 * 4
                    - ((1u64 << x) & CORNERS != 0) as i32 * 8
            };
            // Enhanced transposition cut-off: a child the table already bounds well enough.
            if n >= ETC_MIN_EMPTIES {
                let e = self.tt[Self::slot(no, np)];
                if e.used && e.p == no && e.o == np && -(e.upper as i32) >= beta {
                    return -(e.upper as i32);
                }
            }
            list[len] = (key, x, np, no);
            len += 1;
        }
        let list = &mut list[..len];
        list.sort_unstable_by_key(|e| e.0);
        let a0 = alpha;
        let mut best = -65;
        let mut best_move = 64u8;
        for (i, &(_, x, np, no)) in list.iter().enumerate() {
            let v = if i == 0 {
                -self.search(no, np, -beta, -alpha)
            } else {
                let v = -self.search(no, np, -alpha - 1, -alpha);
                if v > alpha && v < beta {
                    -self.search(no, np, -beta, -v)
                } else {
                    v
                }
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = x as u8;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if use_tt {
            let e = &mut self.tt[slot];
            let (mut lower, mut upper) = (-64i32, 64i32);
            if e.used && e.p == p && e.o == o {
                lower = e.lower as i32;
                upper = e.upper as i32;
            }
            if best >= beta {
                lower = lower.max(best);
            } else if best <= a0 {
                upper = upper.min(best);
            } else {
                lower = best;
                upper = best;
            }
            *e = Entry {
                p,
                o,
                lower: lower as i8,
                upper: upper as i8,
                best: best_move,
                used: true,
            };
        }
        best
    }

    /// Two empty squares, `x` below `y` (the order [`Solver::small`] would try them in): each
    /// move answered by [`last_square`], then the pass, without the general loop.
    #[inline(always)]
    fn two(&mut self, p: u64, o: u64, alpha: i32, beta: i32, x: u32, y: u32) -> i32 {
        let mut best = -65;
        if let Some((np, no)) = play_near(p, o, x) {
            self.nodes += 1;
            best = -last_square(no, np, y);
            if best >= beta {
                return best;
            }
        }
        if let Some((np, no)) = play_near(p, o, y) {
            self.nodes += 1;
            best = best.max(-last_square(no, np, x));
        }
        if best > -65 {
            return best;
        }
        // No move: the opponent plays if it can (a pass), else the game is over.
        let mut worst = 65;
        if let Some((no, np)) = play_near(o, p, x) {
            self.nodes += 1;
            worst = last_square(np, no, y);
            if worst <= alpha {
                return worst;
            }
        }
        if let Some((no, np)) = play_near(o, p, y) {
            self.nodes += 1;
            worst = worst.min(last_square(np, no, x));
        }
        if worst < 65 {
            return worst;
        }
        final_margin(p, o)
    }

    /// The last few empties: parity order, no move generation, the last square counted directly.
    fn small(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, empties: u64, n: u32) -> i32 {
        if n == 0 {
            return final_margin(p, o);
        }
        if n == 1 {
            return last_square(p, o, empties.trailing_zeros());
        }
        if n == 2 {
            let x = empties.trailing_zeros();
            return self.two(p, o, alpha, beta, x, (empties & (empties - 1)).trailing_zeros());
        }
        if self.stability && n >= 4 && 64 - 2 * o.count_ones() as i32 <= alpha {
            let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        // Squares of odd regions first.
        let mut odd = 0u64;
        for q in QUADRANTS {
            if (empties & q).count_ones() & 1 == 1 {
                odd |= empties & q;
            }
        }
        let mut best = -65;
        for set in [odd, empties & !odd] {
            let mut m = set;
            while m != 0 {
                let x = m.trailing_zeros();
                m &= m - 1;
                let Some((np, no)) = play_near(p, o, x) else {
                    continue;
                };
                self.nodes += 1;
                let v = -self.small(no, np, -beta, -alpha, empties & !(1u64 << x), n - 1);
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        if best > -65 {
            return best;
        }
        // No move: pass if the opponent has one, else the game is over.
        let mut m = empties;
        while m != 0 {
            let x = m.trailing_zeros();
            m &= m - 1;
            if flips8(o, p, x) != 0 {
                return -self.small(o, p, -beta, -alpha, empties, n);
            }
        }
        final_margin(p, o)
    }
}

/// A plain negamax alpha-beta to `depth` for `p` to move against `o`, with `leaf` at the leaves
/// and a finished game worth its disc margin times `end_scale`. A pass costs a ply. The shallow
/// searches that steer the solver (`estimate`) and label the training positions share it.
pub(crate) fn negamax(
    p: u64,
    o: u64,
    depth: u32,
    mut alpha: f32,
    beta: f32,
    leaf: &impl Fn(u64, u64) -> f32,
    end_scale: f32,
) -> f32 {
    let mut moves = moves8(p, o);
    if moves == 0 {
        if moves8(o, p) == 0 {
            return final_margin(p, o) as f32 * end_scale;
        }
        if depth == 0 {
            return leaf(p, o);
        }
        return -negamax(o, p, depth - 1, -beta, -alpha, leaf, end_scale);
    }
    if depth == 0 {
        return leaf(p, o);
    }
    let mut best = f32::NEG_INFINITY;
    while moves != 0 {
        let x = moves.trailing_zeros();
        moves &= moves - 1;
        let (np, no) = play(p, o, x).expect("a legal move flips");
        let v = -negamax(no, np, depth - 1, -beta, -alpha, leaf, end_scale);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// A guess at the margin of `p` to move against `o`: a 4-ply alpha-beta search (`negamax`) with
/// the trained `patterns` evaluation (hundredths of a disc), rounded to an even margin (a finished
/// 8x8 game's margin is always even). A few thousand evaluations: nothing next to the solve it
/// steers.
pub fn estimate(p: u64, o: u64) -> i32 {
    let leaf = |p: u64, o: u64| {
        super::patterns::evaluate_with(super::patterns::weights(), p, o, false, |_, _, _| {}) as f32
    };
    let v = negamax(p, o, 4, -100_000.0, 100_000.0, &leaf, 100.0);
    let discs = (v as f64 / 100.0 / 2.0).round() as i32 * 2;
    discs.clamp(-64, 64)
}

/// The squares next to any square of `b` (king steps, no wrap across the a and h columns).
#[inline(always)]
fn around(b: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// Discs of `me` (against `them`) that can never be flipped again, whoever moves (a subset of
/// the truly stable ones): a disc is counted when, along each of its four lines, the line is full or one of its two
/// neighbours on that line is the board's edge or a counted disc of the same colour. Grown from
/// the edges until nothing is added.
#[inline]
pub fn stable_discs(me: u64, them: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const EDGE_H: u64 = 0x8181_8181_8181_8181;
    const EDGE_V: u64 = 0xFF00_0000_0000_00FF;
    const BORDER: u64 = EDGE_H | EDGE_V;
    let filled = me | them;
    // Squares whose row (column, diagonal) is full.
    let full_h = {
        let mut f = filled;
        f &= f >> 4 | 0xF0F0_F0F0_F0F0_F0F0;
        f &= f >> 2 | 0xFCFC_FCFC_FCFC_FCFC;
        f &= f >> 1 | 0xFEFE_FEFE_FEFE_FEFE;
        let row = f & 0x0101_0101_0101_0101;
        row * 0xFF
    };
    let full_v = {
        let mut f = filled;
        f &= f >> 32 | 0xFFFF_FFFF_0000_0000;
        f &= f >> 16 | 0xFFFF_0000_0000_0000;
        f &= f >> 8 | 0xFF00_0000_0000_0000;
        let col = f & 0xFF;
        col * 0x0101_0101_0101_0101
    };
    let full_d9 = full_diagonal(filled, 9, NOT_A, NOT_H);
    let full_d7 = full_diagonal(filled, 7, NOT_H, NOT_A);
    let mut stable = 0u64;
    loop {
        let h = ((stable << 1) & NOT_A) | ((stable >> 1) & NOT_H) | EDGE_H | full_h;
        let v = (stable << 8) | (stable >> 8) | EDGE_V | full_v;
        let d9 = ((stable << 9) & NOT_A) | ((stable >> 9) & NOT_H) | BORDER | full_d9;
        let d7 = ((stable << 7) & NOT_H) | ((stable >> 7) & NOT_A) | BORDER | full_d7;
        let next = me & h & v & d9 & d7;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// Squares whose diagonal in direction `step` (9: a1-h8, 7: h1-a8) is full: the empty squares are
/// spread along the diagonal both ways (`up` masks a shift by `+step`, `down` by `-step`, so that
/// nothing wraps across the a and h columns) and what they never reach is full.
#[inline(always)]
fn full_diagonal(filled: u64, step: u32, up: u64, down: u64) -> u64 {
    let mut e = !filled;
    for _ in 0..3 {
        e |= ((e << step) & up) | ((e >> step) & down);
        e |= ((e << (2 * step)) & up & (up << step)) | ((e >> (2 * step)) & down & (down >> step));
    }
    !e
}

/// The name of bit `x` (`a1` for bit 0, `h8` for bit 63).
pub fn square_name(x: u32) -> String {
    format!("{}{}", (b'a' + (x % 8) as u8) as char, x / 8 + 1)
}

/// The value for `p` to move with one empty square, `x`, left.
#[inline(always)]
fn last_square(p: u64, o: u64, x: u32) -> i32 {
    let near = NEIGHBOURS[x as usize];
    let f = if near & o != 0 { flips8(p, o, x) } else { 0 };
    if f != 0 {
        // The board is then full: margin = 2 * mine - 64.
        return 2 * (p | f).count_ones() as i32 + 2 - 64;
    }
    let f = if near & p != 0 { flips8(o, p, x) } else { 0 };
    if f != 0 {
        return 64 - 2 * ((o | f).count_ones() as i32 + 1);
    }
    final_margin(p, o)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain negamax to the end, for checking the solver.
    fn minimax(p: u64, o: u64) -> i32 {
        let moves = moves8(p, o);
        if moves == 0 {
            if moves8(o, p) == 0 {
                return final_margin(p, o);
            }
            return -minimax(o, p);
        }
        let mut best = -65;
        let mut m = moves;
        while m != 0 {
            let x = m.trailing_zeros();
            m &= m - 1;
            let (np, no) = play(p, o, x).unwrap();
            best = best.max(-minimax(no, np));
        }
        best
    }

    #[test]
    fn last_square_matches_minimax() {
        // A full board but h8, in a few colourings.
        let mut rng = crate::core::Rng::seeded(3);
        for _ in 0..2000 {
            let full = !(1u64 << 63);
            let p = rng.next_u64() & full;
            let o = full & !p;
            assert_eq!(last_square(p, o, 63), minimax(p, o), "{p:#x} {o:#x}");
        }
    }
}
