//! Evaluators: `discs` (the disc difference, the seed's "Easy" view) and `strong` (the default), a
//! sum of named terms whose weights move with the game phase.
//!
//! `strong`'s terms, each "mine minus theirs" from the evaluating player's view unless said:
//! - `mobility`: legal placements;
//! - `potential_mobility`: empty cells next to the other side's discs (where moves may come later);
//! - `frontier`: discs next to an empty cell, theirs minus mine (such discs give the other side moves);
//! - `corners`: corner discs;
//! - `x_squares`, `c_squares`: discs on the cell diagonally next to an empty corner, and on the two
//!   edge cells next to an empty corner (they tend to give the corner away; the weights are negative);
//! - `stable`: discs that can never turn over, grown from the corners: a disc is stable when, on
//!   each of its four lines, the line is full or one neighbour is the edge or a stable disc of its
//!   colour (counted only once a corner is taken);
//! - `parity`: +1 when the evaluating player should get the last move of the game by the parity of
//!   the empty cells, -1 otherwise;
//! - `discs`: the disc difference, whose weight only grows late in the game.
//!
//! The weights are interpolated between an opening, a midgame and an endgame set by the share of the
//! board already filled. Values stay within a few thousand, far inside `WIN_SCORE / 2`.

use super::bitboard::Geo8;
use super::board::{Bits, Board, Geometry};
use super::patterns;
use super::{Repr, Reversi};
use crate::core::{
    Evaluator, MarginScale, Outcome, PlayerId, TermSink, ValueScale, ValueUnit, WIN_SCORE,
};

/// Where the search values of finished games start: above every heuristic value (a few thousand
/// at most), so that a win is worth more than any unfinished position.
pub const DECIDED_BASE: f64 = WIN_SCORE / 2.0 + 1000.0;
/// Value per disc of final margin in a finished game's search value.
pub const PER_DISC: f64 = 100.0;

/// The final disc margin of a finished game for `player`, the empty cells going to the winner
/// (the World Othello Federation's rule, which the FFO endgame suite uses).
pub fn final_margin(pos: &Reversi, player: PlayerId) -> i32 {
    let d = pos.discs(player) as i32 - pos.discs(1 - player) as i32;
    let e = pos.empties() as i32;
    d.signum() * (d.abs() + if d != 0 { e } else { 0 })
}

/// The search value of a finished game with final `margin` for the searching player, ended `ply`
/// plies below the root: `±(DECIDED_BASE + PER_DISC * |margin| + 99 - ply)`, so that a larger
/// margin always wins, then a quicker win (or a slower loss); a draw is 0.
pub fn decided_value(margin: i32, ply: u32) -> f64 {
    if margin == 0 {
        return 0.0;
    }
    let v = DECIDED_BASE + PER_DISC * margin.unsigned_abs() as f64 + (99 - ply.min(99)) as f64;
    v * margin.signum() as f64
}

/// Reads a value made by [`decided_value`] back: the margin and the plies to the end (`None` for
/// a value of an unfinished game).
pub fn decided_margin(value: f64) -> Option<(i32, u32)> {
    let r = value.abs() - DECIDED_BASE;
    if !(0.0..=PER_DISC * 65.0).contains(&r) {
        return None;
    }
    let margin = (r / PER_DISC).floor();
    let plies = 99 - (r - margin * PER_DISC).round() as u32;
    Some(((margin as i32) * value.signum() as i32, plies))
}

/// Reversi evaluators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReversiEval {
    /// Disc difference only.
    Discs,
    /// Mobility, frontier, corners, X- and C-squares, stable discs, parity and, late, discs.
    Strong,
    /// Trained pattern tables on 8x8 (see [`super::patterns`]); other sizes use `Strong`'s terms.
    Patterns,
}

/// One term's weights at the opening, the midgame and the end.
struct Weights {
    name: &'static str,
    at: [f64; 3],
}

const MOBILITY: Weights = Weights {
    name: "mobility",
    at: [8.0, 6.0, 2.0],
};
const POTENTIAL: Weights = Weights {
    name: "potential_mobility",
    at: [4.0, 3.0, 0.5],
};
const FRONTIER: Weights = Weights {
    name: "frontier",
    at: [3.0, 2.0, 0.5],
};
const CORNERS: Weights = Weights {
    name: "corners",
    at: [60.0, 50.0, 25.0],
};
const X_SQUARES: Weights = Weights {
    name: "x_squares",
    at: [-30.0, -25.0, -5.0],
};
const C_SQUARES: Weights = Weights {
    name: "c_squares",
    at: [-10.0, -8.0, -2.0],
};
const STABLE: Weights = Weights {
    name: "stable",
    at: [8.0, 12.0, 10.0],
};
const PARITY: Weights = Weights {
    name: "parity",
    at: [0.0, 2.0, 10.0],
};
const DISCS: Weights = Weights {
    name: "discs",
    at: [0.0, 0.5, 10.0],
};

impl Weights {
    /// The weight at phase `t` (0 at the start, 1 with the board full).
    #[inline(always)]
    fn at(&self, t: f64) -> f64 {
        if t < 0.5 {
            self.at[0] + (self.at[1] - self.at[0]) * (t * 2.0)
        } else {
            self.at[1] + (self.at[2] - self.at[1]) * ((t - 0.5) * 2.0)
        }
    }
}

/// Adds one term to the running total and reports it.
#[inline(always)]
fn add<S: TermSink>(sink: &mut S, total: &mut f64, w: &Weights, t: f64, raw: f64) {
    let weight = w.at(t);
    *total += raw * weight;
    if S::ACTIVE {
        sink.term(w.name, raw, weight);
    }
}

/// Cells next to at least one cell of `b`.
#[inline(always)]
fn neighbours<G: Geometry>(geo: G, b: G::B) -> G::B {
    let mut n = G::B::ZERO;
    for d in 0..8 {
        n |= geo.shift(b, d);
    }
    n
}

/// Cells whose neighbour in direction `d` is off the board.
#[inline(always)]
fn edge<G: Geometry>(geo: G, d: usize) -> G::B {
    geo.valid() & !geo.shift(geo.valid(), d ^ 1)
}

/// The stable discs of `p`, given the full lines.
#[inline]
fn stable<G: Geometry>(geo: G, p: G::B, full: &[G::B; 4], edges: &[G::B; 4]) -> G::B {
    let mut s = G::B::ZERO;
    loop {
        let mut ok = p;
        for k in 0..4 {
            ok = ok & (full[k] | edges[k] | geo.shift(s, 2 * k) | geo.shift(s, 2 * k + 1));
        }
        if ok == s {
            return s;
        }
        s = ok;
    }
}

/// The `strong` evaluation of a board from `perspective`'s view.
#[inline]
fn strong<G: Geometry, S: TermSink>(b: &Board<G>, perspective: PlayerId, sink: &mut S) -> f64 {
    let geo = b.geo;
    let n = geo.size();
    let me = b.discs[perspective as usize & 1];
    let opp = b.discs[(perspective as usize & 1) ^ 1];
    let filled = me | opp;
    let empty = geo.valid() & !filled;
    let empties = empty.count();
    let t = 1.0 - empties as f64 / (n * n - 4) as f64;
    let mut total = 0.0;

    let mobility = geo.moves(me, opp).count() as f64 - geo.moves(opp, me).count() as f64;
    add(sink, &mut total, &MOBILITY, t, mobility);

    let near_empty = neighbours(geo, empty);
    let potential = (neighbours(geo, opp) & empty).count() as f64
        - (neighbours(geo, me) & empty).count() as f64;
    add(sink, &mut total, &POTENTIAL, t, potential);
    let frontier = (opp & near_empty).count() as f64 - (me & near_empty).count() as f64;
    add(sink, &mut total, &FRONTIER, t, frontier);

    // The corners; a step from an empty corner lands on its C-squares (along the edges) and its
    // X-square (diagonally): the other steps leave the board.
    let m = (n - 1) as u8;
    let corner_set = geo.bit(0) | geo.bit(m) | geo.bit(m * 16) | geo.bit(m * 17);
    let empty_corners = corner_set & empty;
    let x_set = geo.shift(empty_corners, 4)
        | geo.shift(empty_corners, 5)
        | geo.shift(empty_corners, 6)
        | geo.shift(empty_corners, 7);
    let c_set = geo.shift(empty_corners, 0)
        | geo.shift(empty_corners, 1)
        | geo.shift(empty_corners, 2)
        | geo.shift(empty_corners, 3);
    let diff = |set: G::B| (me & set).count() as f64 - (opp & set).count() as f64;
    let corners = diff(corner_set);
    let xs = diff(x_set);
    let cs = diff(c_set);
    let any_corner = (filled & corner_set) != G::B::ZERO;
    add(sink, &mut total, &CORNERS, t, corners);
    add(sink, &mut total, &X_SQUARES, t, xs);
    add(sink, &mut total, &C_SQUARES, t, cs);

    let stable_diff = if any_corner {
        let full = geo.full_lines(filled);
        let mut edges = [G::B::ZERO; 4];
        for (k, e) in edges.iter_mut().enumerate() {
            *e = edge(geo, 2 * k) | edge(geo, 2 * k + 1);
        }
        stable(geo, me, &full, &edges).count() as f64
            - stable(geo, opp, &full, &edges).count() as f64
    } else {
        0.0
    };
    add(sink, &mut total, &STABLE, t, stable_diff);

    let my_turn = b.to_move == perspective;
    let parity = if (empties % 2 == 1) == my_turn {
        1.0
    } else {
        -1.0
    };
    add(sink, &mut total, &PARITY, t, parity);

    let discs = me.count() as f64 - opp.count() as f64;
    add(sink, &mut total, &DISCS, t, discs);
    total
}

/// The `patterns` evaluation of an 8x8 board from `perspective`'s view: the tables give the side
/// to move's value, negated for the other side. Each term's raw input is negated with it, so its
/// weight stays the trained weight (a family's sum has weight 1) and the breakdown reads from
/// `perspective`'s view.
#[inline]
fn pattern_eval<S: TermSink>(b: &Board<Geo8>, perspective: PlayerId, sink: &mut S) -> f64 {
    let (p, o) = b.me_opp();
    let sign = if b.to_move == perspective { 1.0 } else { -1.0 };
    let v = patterns::evaluate_with(patterns::weights(), p, o, S::ACTIVE, |name, raw, w| {
        sink.term(name, raw * sign, w)
    });
    v as f64 * sign
}

/// The disc difference from `perspective`'s view.
#[inline]
fn discs<G: Geometry, S: TermSink>(b: &Board<G>, perspective: PlayerId, sink: &mut S) -> f64 {
    let me = b.discs[perspective as usize & 1].count() as f64;
    let opp = b.discs[(perspective as usize & 1) ^ 1].count() as f64;
    sink.term("discs", me - opp, 1.0);
    me - opp
}

impl Evaluator<Reversi> for ReversiEval {
    fn prescore_is_evaluation(&self) -> bool {
        true
    }

    /// A finished game is worth its final disc margin (see [`decided_value`]), not only a win or
    /// a loss: the search picks the move with the best margin.
    fn terminal(&self, pos: &Reversi, _outcome: Outcome, perspective: PlayerId, ply: u32) -> f64 {
        decided_value(final_margin(pos, perspective), ply)
    }

    /// Finished games read as `"win by 38 discs"` / `"loss by 12 discs"` (see [`decided_value`]);
    /// others in the unit.
    fn scale(&self) -> ValueScale {
        ValueScale {
            decided: Some(DECIDED_BASE),
            win: None,
            margin: Some(MarginScale {
                per: PER_DISC,
                plies_from: 99.0,
                unit: "discs".into(),
                one: "disc".into(),
            }),
            ..ValueScale::of(self.unit())
        }
    }

    /// `discs` counts discs; `strong` counts evaluation points (a corner is worth 25 to 60).
    fn unit(&self) -> ValueUnit {
        match self {
            ReversiEval::Discs => ValueUnit {
                per_unit: 1.0,
                name: "discs",
                one: "disc",
                decimals: 0,
            },
            ReversiEval::Strong => ValueUnit::POINTS,
            ReversiEval::Patterns => ValueUnit {
                per_unit: patterns::PER_DISC,
                name: "discs",
                one: "disc",
                decimals: 1,
            },
        }
    }

    fn name(&self) -> &'static str {
        match self {
            ReversiEval::Discs => "discs",
            ReversiEval::Strong => "strong",
            ReversiEval::Patterns => "patterns",
        }
    }

    #[inline]
    fn evaluate<S: TermSink>(&self, pos: &Reversi, perspective: PlayerId, sink: &mut S) -> f64 {
        match (self, &pos.repr) {
            (ReversiEval::Discs, Repr::Eight(b)) => discs(b, perspective, sink),
            (ReversiEval::Discs, Repr::Sized(b)) => discs(b, perspective, sink),
            (ReversiEval::Strong, Repr::Eight(b)) => strong(b, perspective, sink),
            (ReversiEval::Strong, Repr::Sized(b)) => strong(b, perspective, sink),
            (ReversiEval::Patterns, Repr::Eight(b)) => pattern_eval(b, perspective, sink),
            (ReversiEval::Patterns, Repr::Sized(b)) => strong(b, perspective, sink),
        }
    }
}
