//! Hive's difficulty levels, as the seed's engine made them: weaker levels search less deep, keep
//! fewer moves at each node (the branching limit on pre-scored moves) and choose with more
//! randomness (a lower randomness quotient). The seed's engine kept 30 moves at one of its levels and
//! used a quotient around 8 or 9 at its top levels.

use crate::search::{Algorithm, SearchConfig};

/// One difficulty level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// The level's name.
    pub name: &'static str,
    /// Search depth in plies (iterative deepening up to it).
    pub depth: u32,
    /// Moves kept at each node, best pre-scores first (0: all).
    pub branching_limit: usize,
    /// The randomness quotient: the best move is passed over once in `q` choices (0: never).
    pub quotient: u32,
}

/// The levels, weakest first.
pub const LEVELS: [Level; 5] = [
    Level {
        name: "beginner",
        depth: 1,
        branching_limit: 10,
        quotient: 3,
    },
    Level {
        name: "easy",
        depth: 2,
        branching_limit: 20,
        quotient: 5,
    },
    Level {
        name: "medium",
        depth: 3,
        branching_limit: 30,
        quotient: 7,
    },
    Level {
        name: "hard",
        depth: 4,
        branching_limit: 30,
        quotient: 9,
    },
    Level {
        name: "expert",
        depth: 6,
        branching_limit: 0,
        quotient: 0,
    },
];

/// The level the UHP engine starts with.
pub const UHP_DEFAULT: &str = "expert";

/// The level with this name.
pub fn by_name(name: &str) -> Option<Level> {
    LEVELS
        .iter()
        .copied()
        .find(|l| l.name.eq_ignore_ascii_case(name))
}

impl Level {
    /// The search configuration of the level: alpha-beta with move ordering, a transposition table
    /// and iterative deepening.
    pub fn config(&self) -> SearchConfig {
        SearchConfig {
            algorithm: Algorithm::Alphabeta,
            depth: self.depth,
            iterative_deepening: true,
            move_ordering: true,
            branching_limit: self.branching_limit,
            transposition_table: Some(true),
            randomness_quotient: self.quotient,
            random_ties: self.quotient > 1,
            ..crate::games::search_defaults(<super::Hive as crate::games::Playable>::INFO.id)
        }
    }
}
