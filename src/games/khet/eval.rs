//! Khet evaluators with named terms.
//!
//! A Pyramid is worth 100, so values read as centi-Pyramids. Every term is the perspective
//! player's measure minus the opponent's (or a bonus with the side to move's sign), so
//! `evaluate(pos, 0) == -evaluate(pos, 1)`.
//!
//! The one-move terms (exposure, attacks, to-move threat) try only the moves that can change a
//! laser's path: a move whose squares are off the beam's current path leaves that beam as it is,
//! so only moves from or to a square of the path, Sphinx turns included, are fired.

use super::laser::{self, BeamSink, Segment};
use super::{
    next_square, piece_facing, piece_kind, piece_owner, Khet, KhetMove, Kind, MoveKind, CELLS,
    SPHINX_SQUARE,
};
use crate::core::{Error, Evaluator, PlayerId, TermSink, ValueUnit};

/// The evaluator names, the default first.
pub const NAMES: &[&str] = &["strong", "material"];

/// Weight of a Pyramid.
pub const W_PYRAMID: f64 = 100.0;
/// Weight of an Anubis.
pub const W_ANUBIS: f64 = 140.0;
/// Weight of one opponent reply that would hit one's Pharaoh (counted the other way too).
pub const W_EXPOSURE: f64 = 45.0;
/// Weight of the side to move having a move that hits the other Pharaoh (it wins next ply).
pub const W_TO_MOVE_THREAT: f64 = 3000.0;
/// Weight of one move that would kill an opponent piece other than the Pharaoh.
pub const W_ATTACKS: f64 = 6.0;
/// Weight of a square one's beam crosses.
pub const W_LASER: f64 = 2.0;
/// Weight of a legal move.
pub const W_MOBILITY: f64 = 1.0;
/// Weight of an Anubis or Scarab (or Eye) next to its own Pharaoh.
pub const W_GUARDS: f64 = 18.0;

/// The Khet evaluators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KhetEval {
    /// Material, Pharaoh exposure, the side to move's winning threat, attacks, laser path,
    /// mobility and guards: the default.
    #[default]
    Strong,
    /// Pyramids and Anubis alone.
    Material,
}

impl KhetEval {
    /// The evaluator with this name; an empty name gives the default.
    pub fn by_name(name: &str) -> Result<Self, Error> {
        match name {
            "" | "strong" => Ok(KhetEval::Strong),
            "material" => Ok(KhetEval::Material),
            _ => Err(Error::bad_option("evaluator", name, "strong or material")),
        }
    }
}

/// A sink that keeps the squares a beam crosses (bit `sq`), start squares included.
#[derive(Default)]
pub struct PathSquares(pub u128);

impl BeamSink for PathSquares {
    const ACTIVE: bool = true;
    #[inline]
    fn segment(&mut self, s: Segment) {
        let mut sq = s.from;
        self.0 |= 1u128 << sq;
        while sq != s.to {
            sq = next_square(sq, s.dir);
            if sq == u8::MAX {
                break;
            }
            self.0 |= 1u128 << sq;
        }
    }
}

/// What one side's one-move replies would do.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Threats {
    /// Moves whose shot hits the other side's Pharaoh.
    pub pharaoh_hits: u32,
    /// Moves whose shot kills another piece of the other side.
    pub piece_kills: u32,
    /// Squares the side's beam crosses now.
    pub path_len: u32,
    /// The side's moves (what mobility counts).
    pub moves: u32,
}

/// The board after `m` is moved (no shot).
#[inline(always)]
fn board_after(board: &[u8; CELLS], m: KhetMove) -> [u8; CELLS] {
    let mut b = *board;
    let (from, to) = (m.from as usize, m.to as usize);
    match m.kind {
        MoveKind::Step | MoveKind::Swap => b.swap(from, to),
        MoveKind::Cw => b[from] = turn(b[from], 1),
        MoveKind::Ccw => b[from] = turn(b[from], 3),
    }
    b
}

#[inline(always)]
fn turn(p: u8, by: u8) -> u8 {
    super::make_piece(piece_kind(p), piece_owner(p), (piece_facing(p) + by) & 3)
}

/// What `attacker`'s one-move replies would do in `pos` (whoever is to move), trying only the
/// moves that touch the attacker's current beam.
pub fn threats(pos: &Khet, attacker: PlayerId, moves: &mut Vec<KhetMove>) -> Threats {
    let board = pos.board();
    let sphinx = SPHINX_SQUARE[attacker as usize];
    let mut path = PathSquares::default();
    laser::trace(
        board,
        sphinx,
        piece_facing(board[sphinx as usize]),
        &mut path,
    );
    let mut t = Threats {
        path_len: path.0.count_ones(),
        ..Threats::default()
    };
    pos.moves_of(attacker, moves);
    t.moves = moves.len() as u32;
    for &m in moves.iter() {
        if (path.0 >> m.from | path.0 >> m.to) & 1 == 0 {
            continue;
        }
        let b = board_after(board, m);
        let kills = laser::trace(
            &b,
            sphinx,
            piece_facing(b[sphinx as usize]),
            &mut laser::NoBeam,
        );
        let mut hit_pharaoh = false;
        let mut hit_piece = false;
        let mut k = kills;
        while k != 0 {
            let sq = k.trailing_zeros() as usize;
            k &= k - 1;
            let p = b[sq];
            if piece_owner(p) != attacker {
                if piece_kind(p) == Kind::Pharaoh {
                    hit_pharaoh = true;
                } else {
                    hit_piece = true;
                }
            } else if piece_kind(p) == Kind::Pharaoh {
                // A shot that also kills one's own Pharaoh is no threat.
                hit_pharaoh = false;
                hit_piece = false;
                break;
            }
        }
        t.pharaoh_hits += hit_pharaoh as u32;
        t.piece_kills += hit_piece as u32;
    }
    t
}

/// Pyramids and Anubis of each side.
#[inline]
fn material(pos: &Khet) -> [[u32; 2]; 2] {
    let mut m = [[0u32; 2]; 2];
    for &p in pos.board() {
        if p == 0 {
            continue;
        }
        match piece_kind(p) {
            Kind::Pyramid => m[piece_owner(p) as usize][0] += 1,
            Kind::Anubis => m[piece_owner(p) as usize][1] += 1,
            _ => {}
        }
    }
    m
}

/// Anubis, Scarabs and Eyes next to `player`'s Pharaoh.
fn guards(pos: &Khet, player: PlayerId) -> u32 {
    let Some(ph) = pos.pharaoh_square(player) else {
        return 0;
    };
    let mut n = 0;
    for &sq in super::neighbours(ph) {
        if sq == u8::MAX {
            continue;
        }
        let p = pos.piece_at(sq);
        if p != 0
            && piece_owner(p) == player
            && matches!(piece_kind(p), Kind::Anubis | Kind::Scarab | Kind::Eye)
        {
            n += 1;
        }
    }
    n
}

fn material_terms<S: TermSink>(pos: &Khet, me: PlayerId, sink: &mut S) -> f64 {
    let m = material(pos);
    let (a, b) = (me as usize, me as usize ^ 1);
    let pyr = m[a][0] as f64 - m[b][0] as f64;
    let anu = m[a][1] as f64 - m[b][1] as f64;
    sink.term("pyramids", pyr, W_PYRAMID);
    sink.term("anubis", anu, W_ANUBIS);
    pyr * W_PYRAMID + anu * W_ANUBIS
}

impl Evaluator<Khet> for KhetEval {
    fn name(&self) -> &'static str {
        match self {
            KhetEval::Strong => "strong",
            KhetEval::Material => "material",
        }
    }

    fn unit(&self) -> ValueUnit {
        ValueUnit {
            per_unit: W_PYRAMID,
            name: "pyramids",
            one: "pyramid",
            decimals: 1,
        }
    }

    fn evaluate<S: TermSink>(&self, pos: &Khet, perspective: PlayerId, sink: &mut S) -> f64 {
        let me = perspective & 1;
        let mut v = material_terms(pos, me, sink);
        if *self == KhetEval::Material {
            return v;
        }
        let mut moves = Vec::with_capacity(128);
        let mine = threats(pos, me, &mut moves);
        let theirs = threats(pos, me ^ 1, &mut moves);
        let exposure = mine.pharaoh_hits as f64 - theirs.pharaoh_hits as f64;
        sink.term("pharaoh exposure", exposure, W_EXPOSURE);
        v += exposure * W_EXPOSURE;
        let mover = pos.side_to_move();
        let sign = if mover == me { 1.0 } else { -1.0 };
        let mover_hits = if mover == me {
            mine.pharaoh_hits
        } else {
            theirs.pharaoh_hits
        };
        let threat = sign * (mover_hits > 0) as u32 as f64;
        sink.term("to-move threat", threat, W_TO_MOVE_THREAT);
        v += threat * W_TO_MOVE_THREAT;
        let attacks = mine.piece_kills as f64 - theirs.piece_kills as f64;
        sink.term("attacks", attacks, W_ATTACKS);
        v += attacks * W_ATTACKS;
        let laser = mine.path_len as f64 - theirs.path_len as f64;
        sink.term("laser path", laser, W_LASER);
        v += laser * W_LASER;
        let mobility = mine.moves as f64 - theirs.moves as f64;
        sink.term("mobility", mobility, W_MOBILITY);
        v += mobility * W_MOBILITY;
        let g = guards(pos, me) as f64 - guards(pos, me ^ 1) as f64;
        sink.term("guards", g, W_GUARDS);
        v += g * W_GUARDS;
        v
    }

    fn prescore<S: TermSink>(&self, child: &Khet, perspective: PlayerId, sink: &mut S) -> f64 {
        // Cheap ordering: material (the shot's kills show here), then guards.
        let me = perspective & 1;
        let mut v = material_terms(child, me, sink);
        if *self == KhetEval::Strong {
            let g = guards(child, me) as f64 - guards(child, me ^ 1) as f64;
            sink.term("guards", g, W_GUARDS);
            v += g * W_GUARDS;
        }
        v
    }
}
