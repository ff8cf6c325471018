//! Weighted random openings, as the seed's Hive AI played them.
//!
//! A player's first and second placements are not searched: the bug is drawn from a weighted table
//! and the cell at random among the legal ones. The second placement is usually the Queen, but not
//! always (an "X" opening: no Queen by the second placement). Drawing the second cell at random
//! makes every opening shape possible (see [`Shape`]). A player's third move is searched with a
//! randomness quotient of 2 ([`THIRD_MOVE_QUOTIENT`]); later moves with the player's own.

use super::{bug_of, nb, Bug, Hive, HiveMove, CENTER, PER_SIDE};
use crate::core::{Game, Rng};

/// Weights of the bug of a player's first placement (bugs not in the game type are left out).
pub const FIRST: [(Bug, f64); 7] = [
    (Bug::Spider, 30.0),
    (Bug::Grasshopper, 25.0),
    (Bug::Beetle, 12.0),
    (Bug::Ant, 8.0),
    (Bug::Pillbug, 15.0),
    (Bug::Ladybug, 6.0),
    (Bug::Mosquito, 4.0),
];

/// Weights of the bug of a player's second placement.
pub const SECOND: [(Bug, f64); 8] = [
    (Bug::Queen, 94.0),
    (Bug::Spider, 2.0),
    (Bug::Grasshopper, 2.0),
    (Bug::Beetle, 1.0),
    (Bug::Ant, 1.0),
    (Bug::Pillbug, 0.5),
    (Bug::Ladybug, 0.3),
    (Bug::Mosquito, 0.2),
];

/// The randomness quotient of a player's third move (half the time not the best move).
pub const THIRD_MOVE_QUOTIENT: u32 = 2;

/// A book move for the side to move: on its first and second turns, a weighted random placement;
/// `None` from the third turn on (or if nothing in the tables can be placed).
pub fn book_move(h: &Hive, rng: &mut Rng) -> Option<HiveMove> {
    if h.outcome().is_some() || h.turn_number() > 2 {
        return None;
    }
    let table: &[(Bug, f64)] = if h.turn_number() == 1 {
        &FIRST
    } else {
        &SECOND
    };
    let mut moves = Vec::new();
    h.legal_moves(&mut moves);
    let choices: Vec<(Bug, f64)> = table
        .iter()
        .copied()
        .filter(|&(b, _)| moves.iter().any(|m| !m.is_pass() && bug_of(m.piece) == b))
        .collect();
    if choices.is_empty() {
        return None;
    }
    let bug = rng.pick_weighted(&choices);
    let of_bug: Vec<HiveMove> = moves
        .into_iter()
        .filter(|m| !m.is_pass() && bug_of(m.piece) == bug)
        .collect();
    Some(of_bug[rng.below(of_bug.len() as u64) as usize])
}

/// The randomness quotient for the side to move: [`THIRD_MOVE_QUOTIENT`] on its third turn when
/// randomness is on (`configured > 0`), else `configured`.
pub fn quotient(h: &Hive, configured: u32) -> u32 {
    if configured > 0 && h.turn_number() == 3 {
        THIRD_MOVE_QUOTIENT
    } else {
        configured
    }
}

/// The shape of the first four placements (two a side), named after the letters they draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Both second pieces continue the line of the first two: four in a row.
    I,
    /// One second piece continues the line, the other turns.
    L,
    /// Both turn to the same side of the line.
    C,
    /// They turn to opposite sides.
    Z,
}

/// The shape of the opening after four placements (`None` earlier, or if the first four moves
/// were not four placements).
pub fn shape(h: &Hive) -> Option<Shape> {
    let moves = h.moves();
    if moves.len() < 4 || moves[..4].iter().any(|m| m.is_pass()) {
        return None;
    }
    let cells: Vec<u16> = moves[..4].iter().map(|m| m.to).collect();
    if cells[0] != CENTER {
        return None;
    }
    let dir = |a: u16, b: u16| (0..6).find(|&d| nb(a, d) == b);
    let d = dir(cells[0], cells[1])?; // white's first to black's first
    let w = dir(cells[0], cells[2])?; // white's second, from white's first
    let b = dir(cells[1], cells[3])?; // black's second, from black's first
                                      // Turn of each arm relative to the line: 0 straight on, +1 / -1 to either side.
    let turn = |from_dir: usize, line: usize| -> i32 {
        match (from_dir + 6 - line) % 6 {
            0 => 0,
            1 => 1,
            5 => -1,
            _ => 9,
        }
    };
    let tw = -turn(w, (d + 3) % 6); // white's arm points away from black's first piece
    let tb = turn(b, d);
    Some(match (tw, tb) {
        (0, 0) => Shape::I,
        (0, _) | (_, 0) => Shape::L,
        // Equal signs: both arms on the same side of the line (directions d + 2 and d + 1 both
        // lie left of direction d).
        (x, y) if x == y => Shape::C,
        _ => Shape::Z,
    })
}

/// Whether side `s` placed something other than its Queen on each of its first two turns (an X
/// opening).
pub fn is_x(h: &Hive, s: u8) -> bool {
    let moves = h.moves();
    let q = s * PER_SIDE as u8;
    let own: Vec<&HiveMove> = moves.iter().skip(s as usize).step_by(2).take(2).collect();
    own.len() == 2 && own.iter().all(|m| m.piece != q)
}
