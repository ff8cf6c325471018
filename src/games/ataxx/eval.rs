//! Ataxx evaluators with named terms, all from bitboard popcounts.
//!
//! One piece is worth 100, so values read as centipieces. Every term is a difference between the
//! perspective player and the opponent (or a bonus with the side to move's sign), so
//! `evaluate(pos, 0) == -evaluate(pos, 1)`.

use super::{dilate, net, nnue, patterns, Ataxx, FILE_A, FILE_G, FULL};
use super::AtaxxMove;
use crate::core::{Error, Evaluator, PlayerId, TermSink, ValueUnit};

/// The evaluator names, the default first.
pub const NAMES: &[&str] = &["nnue", "net", "patterns", "strong", "material", "mobility"];

/// Weight of a piece.
pub const W_MATERIAL: f64 = 100.0;
/// Weight of an empty cell one can clone to, beyond the opponent's count.
pub const W_MOBILITY: f64 = 4.0;
/// Weight of a piece next to an empty cell the opponent can reach (it can be taken).
pub const W_EXPOSED: f64 = 6.0;
/// Weight of a hole: an empty cell the opponent can reach that touches three or more of one's pieces.
pub const W_HOLES: f64 = 12.0;
/// Weight of the best capture the side to move has now (it moves before the other side can answer).
pub const W_THREAT: f64 = 70.0;
/// Pre-score (move ordering) bonus of a clone over a jump: above one piece, so that a clone that
/// captures nothing comes before a jump that captures one.
pub const W_CLONE_ORDER: f64 = 125.0;
/// Weight of the endgame parity (who fills the last cells), applied when few empty cells remain.
pub const W_PARITY: f64 = 25.0;
/// Empty-cell count from which parity starts to count.
pub const PARITY_EMPTIES: u32 = 12;

/// The Ataxx evaluators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AtaxxEval {
    /// Material, mobility, exposed pieces, holes, the side to move's best capture and endgame
    /// parity.
    Strong,
    /// Piece count difference alone.
    Material,
    /// Material and clone mobility only.
    Mobility,
    /// Trained 2x2 window tables and scalar terms per game phase (see [`super::patterns`]).
    Patterns,
    /// A trained network over the 2x2 windows and the scalar terms of `patterns` (see
    /// [`super::net`]; the default in sessions 19-20).
    Net,
    /// A network over every 2x2 window with its own weights, trained on self-play games' results
    /// (see [`super::nnue`]): the default.
    #[default]
    Nnue,
}

impl AtaxxEval {
    /// The evaluator with this name; an empty name gives the default.
    pub fn by_name(name: &str) -> Result<Self, Error> {
        match name {
            "strong" => Ok(AtaxxEval::Strong),
            "material" => Ok(AtaxxEval::Material),
            "mobility" => Ok(AtaxxEval::Mobility),
            "patterns" => Ok(AtaxxEval::Patterns),
            "net" => match net::weights() {
                Ok(_) => Ok(AtaxxEval::Net),
                Err(why) => Err(Error::bad_option(
                    "evaluator",
                    "net",
                    format!("a network file that reads ({why})"),
                )),
            },
            "" | "nnue" => match nnue::weights() {
                Ok(_) => Ok(AtaxxEval::Nnue),
                Err(why) => Err(Error::bad_option(
                    "evaluator",
                    "nnue",
                    format!("a network file that reads ({why})"),
                )),
            },
            _ => Err(Error::bad_option(
                "evaluator",
                name,
                "net, nnue, patterns, strong, material or mobility",
            )),
        }
    }
}

/// For every cell, how many of its neighbours are in `b`, as four bit planes (1, 2, 4, 8).
#[inline(always)]
fn neighbour_counts(b: u64) -> [u64; 4] {
    let e = (b << 1) & !FILE_A & FULL;
    let w = (b >> 1) & !FILE_G;
    let mut planes = [0u64; 4];
    for x in [
        e,
        w,
        (b << 7) & FULL,
        b >> 7,
        (e << 7) & FULL,
        e >> 7,
        (w << 7) & FULL,
        w >> 7,
    ] {
        // Add one bit per cell to the counters.
        let c0 = planes[0] & x;
        planes[0] ^= x;
        let c1 = planes[1] & c0;
        planes[1] ^= c0;
        let c2 = planes[2] & c1;
        planes[2] ^= c1;
        planes[3] |= c2;
    }
    planes
}

/// The largest count among the cells of `cells` (0 when empty).
#[inline(always)]
fn max_count(planes: &[u64; 4], cells: u64) -> u32 {
    let mut c = cells;
    let mut m = 0;
    for bit in (0..4).rev() {
        if c & planes[bit] != 0 {
            c &= planes[bit];
            m |= 1 << bit;
        }
    }
    m
}

/// Holes of `own` that `reach` (the opponent's reachable empty cells) can get at: empty cells next
/// to at least three of `own`'s pieces.
#[inline(always)]
fn holes(own: u64, reach: u64) -> u32 {
    let [p0, p1, p2, p3] = neighbour_counts(own);
    ((p3 | p2 | (p1 & p0)) & reach).count_ones()
}

/// The most pieces the mover can gain with one move: captures, plus one for a clone.
#[inline(always)]
pub(super) fn best_gain(mover: u64, other: u64, empty: u64) -> u32 {
    let clone = dilate(mover) & empty;
    let jump_only = dilate(dilate(mover)) & empty & !clone;
    let planes = neighbour_counts(other);
    let by_clone = if clone != 0 {
        max_count(&planes, clone) + 1
    } else {
        0
    };
    by_clone.max(max_count(&planes, jump_only))
}

/// `me`'s clone targets, pieces exposed and holes, each less `them`'s: the `mobility`, `exposed`
/// and `holes` terms of `strong`.
#[inline(always)]
pub(super) fn shape_terms(me: u64, them: u64, empty: u64) -> (i32, i32, i32) {
    let mobility =
        (dilate(me) & empty).count_ones() as i32 - (dilate(them) & empty).count_ones() as i32;
    let my_reach = dilate(dilate(me)) & empty;
    let their_reach = dilate(dilate(them)) & empty;
    let exposed = (them & dilate(my_reach)).count_ones() as i32
        - (me & dilate(their_reach)).count_ones() as i32;
    let holes = holes(them, my_reach) as i32 - holes(me, their_reach) as i32;
    (mobility, exposed, holes)
}

/// The loop versions of [`holes`] and [`best_gain`], kept to test the bit-parallel ones.
#[cfg(test)]
mod reference {
    use super::super::{dilate, SINGLES};

    pub fn holes(own: u64, empty: u64, reach: u64) -> u32 {
        let mut cand = dilate(own) & empty & reach;
        let mut n = 0;
        while cand != 0 {
            let sq = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            if (SINGLES[sq] & own).count_ones() >= 3 {
                n += 1;
            }
        }
        n
    }

    pub fn best_gain(mover: u64, other: u64, empty: u64) -> u32 {
        let clone = dilate(mover) & empty;
        let reach = dilate(dilate(mover)) & empty;
        let mut cand = reach & dilate(other);
        let mut best = if clone != 0 { 1 } else { 0 };
        while cand != 0 {
            let sq = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            let g = (SINGLES[sq] & other).count_ones() + ((clone >> sq) & 1) as u32;
            best = best.max(g);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rng;

    #[test]
    fn bit_parallel_terms_equal_the_loops() {
        let mut rng = Rng::seeded(17);
        for _ in 0..20_000 {
            let a = rng.next_u64() & rng.next_u64() & FULL;
            let b = rng.next_u64() & !a & FULL;
            let walls = rng.next_u64() & rng.next_u64() & rng.next_u64() & !(a | b) & FULL;
            let empty = FULL & !(a | b | walls);
            let reach = dilate(dilate(b)) & empty;
            assert_eq!(holes(a, reach), reference::holes(a, empty, reach));
            assert_eq!(best_gain(a, b, empty), reference::best_gain(a, b, empty));
            assert_eq!(best_gain(b, a, empty), reference::best_gain(b, a, empty));
        }
    }
}

/// The `patterns` evaluation from `perspective`'s view: the tables give the side to move's value,
/// negated for the other side. Each term's raw input is negated with it, so its weight stays the
/// trained weight (a family's sum has weight 1) and the breakdown reads from `perspective`'s view.
#[inline]
fn pattern_eval<S: TermSink>(pos: &Ataxx, perspective: PlayerId, sink: &mut S) -> f64 {
    let mover = pos.side_to_move();
    let sign = if mover == perspective { 1.0 } else { -1.0 };
    let v = patterns::evaluate_with(
        patterns::weights(),
        pos.pieces(mover),
        pos.pieces(mover ^ 1),
        pos.walls(),
        S::ACTIVE,
        |name, raw, w| sink.term(name, raw * sign, w),
    );
    v as f64 * sign
}

/// The `net` evaluation from `perspective`'s view: the network gives the side to move's value,
/// negated for the other side with its terms. Weights that do not read (a bad
/// `PLYSCOPE_ATAXX_NET`, refused by [`AtaxxEval::by_name`]) fall back to the shipped ones.
#[inline]
fn net_eval<S: TermSink>(pos: &Ataxx, perspective: PlayerId, sink: &mut S) -> f64 {
    let mover = pos.side_to_move();
    let sign = if mover == perspective { 1.0 } else { -1.0 };
    let weights = net::weights().unwrap_or_else(|_| net::shipped());
    let v = net::evaluate_with(
        weights,
        pos.pieces(mover),
        pos.pieces(mover ^ 1),
        pos.walls(),
        S::ACTIVE,
        |name, raw, w| sink.term(name, raw * sign, w),
    );
    v * sign
}

/// The `nnue` evaluation from `perspective`'s view: the network gives the side to move's value,
/// negated for the other side with its terms. Weights that do not read (a bad
/// `PLYSCOPE_ATAXX_NNUE`, refused by [`AtaxxEval::by_name`]) fall back to the shipped ones.
#[inline]
fn nnue_eval<S: TermSink>(pos: &Ataxx, perspective: PlayerId, sink: &mut S) -> f64 {
    let mover = pos.side_to_move();
    let sign = if mover == perspective { 1.0 } else { -1.0 };
    let weights = nnue::weights().unwrap_or_else(|_| nnue::shipped());
    let v = nnue::evaluate_reusing(
        weights,
        mover as usize,
        pos.pieces(mover),
        pos.pieces(mover ^ 1),
        pos.walls(),
        S::ACTIVE,
        |name, raw, w| sink.term(name, raw * sign, w),
    );
    v * sign
}

impl Evaluator<Ataxx> for AtaxxEval {
    /// Every Ataxx evaluator counts 100 per piece: its values read as pieces.
    fn unit(&self) -> ValueUnit {
        ValueUnit {
            per_unit: W_MATERIAL,
            name: "pieces",
            one: "piece",
            decimals: 1,
        }
    }

    fn name(&self) -> &'static str {
        match self {
            AtaxxEval::Strong => "strong",
            AtaxxEval::Material => "material",
            AtaxxEval::Mobility => "mobility",
            AtaxxEval::Patterns => "patterns",
            AtaxxEval::Net => "net",
            AtaxxEval::Nnue => "nnue",
        }
    }

    fn evaluate<S: TermSink>(&self, pos: &Ataxx, perspective: PlayerId, sink: &mut S) -> f64 {
        if *self == AtaxxEval::Patterns {
            return pattern_eval(pos, perspective, sink);
        }
        if *self == AtaxxEval::Net {
            return net_eval(pos, perspective, sink);
        }
        if *self == AtaxxEval::Nnue {
            return nnue_eval(pos, perspective, sink);
        }
        let me = pos.pieces(perspective);
        let them = pos.pieces(perspective ^ 1);
        let material = me.count_ones() as f64 - them.count_ones() as f64;
        sink.term("material", material, W_MATERIAL);
        let mut v = material * W_MATERIAL;
        if *self == AtaxxEval::Material {
            return v;
        }
        let empty = pos.empty();
        let (mobility, exposed, hole_diff) = shape_terms(me, them, empty);
        let mobility = mobility as f64;
        sink.term("mobility", mobility, W_MOBILITY);
        v += mobility * W_MOBILITY;
        if *self == AtaxxEval::Mobility {
            return v;
        }
        let exposed = exposed as f64;
        sink.term("exposed", exposed, W_EXPOSED);
        v += exposed * W_EXPOSED;
        let hole_diff = hole_diff as f64;
        sink.term("holes", hole_diff, W_HOLES);
        v += hole_diff * W_HOLES;
        let mover = pos.side_to_move();
        let sign = if mover == perspective { 1.0 } else { -1.0 };
        let threat = sign * best_gain(pos.pieces(mover), pos.pieces(mover ^ 1), empty) as f64;
        sink.term("threat", threat, W_THREAT);
        v += threat * W_THREAT;
        let empties = empty.count_ones();
        let parity_weight = if empties <= PARITY_EMPTIES && empties > 0 {
            W_PARITY * (PARITY_EMPTIES + 1 - empties) as f64 / PARITY_EMPTIES as f64
        } else {
            0.0
        };
        // With an odd number of empty cells, the side to move fills the last one if both keep moving.
        let parity = if empties % 2 == 1 { sign } else { -sign };
        sink.term("parity", parity, parity_weight);
        v += parity * parity_weight;
        v
    }

    fn prescore<S: TermSink>(&self, child: &Ataxx, perspective: PlayerId, sink: &mut S) -> f64 {
        // Cheap ordering: material, and a bonus for a clone (it leaves no hole behind), so that
        // clones come first among moves that capture as much, and a clone that captures nothing
        // before a jump that captures one piece. A child made by a clone is the one whose
        // halfmove clock is 0.
        let me = child.pieces(perspective);
        let them = child.pieces(perspective ^ 1);
        let material = me.count_ones() as f64 - them.count_ones() as f64;
        sink.term("material", material, W_MATERIAL);
        if *self == AtaxxEval::Material {
            return material * W_MATERIAL;
        }
        let mover = child.side_to_move() ^ 1;
        let sign = if mover == perspective { 1.0 } else { -1.0 };
        let clone = if child.halfmove_clock() == 0 { sign } else { 0.0 };
        sink.term("clone", clone, W_CLONE_ORDER);
        material * W_MATERIAL + clone * W_CLONE_ORDER
    }

    /// Nodes one ply above the horizon are ordered too: from the parent a pre-score costs a
    /// popcount, and a capture or clone first makes most of those nodes cut at once.
    fn order_near_leaves(&self) -> bool {
        true
    }

    /// The pre-score of the child from the parent and the move: the material changes by the
    /// captures (twice: one piece less for them, one more for the mover) and one for a clone.
    fn prescore_move(&self, parent: &Ataxx, m: AtaxxMove, perspective: PlayerId) -> Option<f64> {
        let mover = parent.side_to_move();
        let mut own = parent.pieces(mover).count_ones() as f64;
        let mut other = parent.pieces(mover ^ 1).count_ones() as f64;
        let mut clone = 0.0;
        if !m.is_pass() && (m.to as usize) < super::CELLS {
            let captured = (super::SINGLES[m.to as usize] & parent.pieces(mover ^ 1)).count_ones();
            own += captured as f64;
            other -= captured as f64;
            if m.is_clone() {
                own += 1.0;
                clone = 1.0;
            }
        }
        let sign = if mover == perspective { 1.0 } else { -1.0 };
        let material = sign * (own - other);
        if *self == AtaxxEval::Material {
            return Some(material * W_MATERIAL);
        }
        Some(material * W_MATERIAL + sign * clone * W_CLONE_ORDER)
    }
}
