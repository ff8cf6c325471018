//! The games, and a registry that picks one by id at run time.
//!
//! Each game lives in its own module and implements [`Game`](crate::core::Game) and [`Playable`].
//! To add a game: write its module, add it to [`CATALOGUE`] and to the `match` in [`new_session`].

pub mod ataxx;
pub mod hive;
pub mod khet;
pub mod reversi;
mod session;
pub mod threes;
pub mod tictactoe;

pub use session::{AnySession, Match, MoveInfo, RootMoveReport, SearchReport};

use crate::core::{
    perft_within, split_variant, Error, Evaluator, Game, PerftConvention, PerftLimit, Unbounded,
};

/// What the registry needs beyond [`Game`]: how to make a game from its id, and its evaluators.
pub trait Playable: Game + Sized {
    /// The game's evaluator (usually an enum over the evaluators it offers).
    type Eval: Evaluator<Self> + Send;

    /// The start position of the game with this id (`"reversi-12"`: the variant comes from the id).
    fn new_game(id: &str) -> Result<Self, Error>;

    /// The names of the evaluators on offer, the default first.
    fn evaluator_names() -> &'static [&'static str];

    /// The evaluator with this name; an empty name means the default.
    fn evaluator(name: &str) -> Result<Self::Eval, Error>;

    /// The perft convention of the game's published tables.
    fn perft_convention() -> PerftConvention {
        PerftConvention::FinishedCountsOne
    }

    /// Perft from this position with the game's convention.
    fn perft(&self, depth: u32) -> u64 {
        self.perft_within(depth, &mut Unbounded).unwrap_or_default()
    }

    /// Perft within a budget (a stop flag, a deadline, a number of leaves): `None` when the budget
    /// ran out first. Games with a faster perft override it.
    fn perft_within<L: PerftLimit>(&self, depth: u32, budget: &mut L) -> Option<u64> {
        perft_within(self, depth, Self::perft_convention(), budget)
    }

    /// A move the AI plays from the game's own opening tables instead of searching, drawn with
    /// `rng` (Hive's weighted random openings). Asked only when randomness is on (a randomness
    /// quotient above 1). `None` (the default): search.
    fn book_move(&self, _rng: &mut crate::core::Rng) -> Option<Self::Move> {
        None
    }

    /// The randomness quotient to search this position with, given the player's (Hive's third
    /// move is searched with 2). The default keeps the player's.
    fn randomness_quotient(&self, configured: u32) -> u32 {
        configured
    }
}

/// One entry of the game catalogue shown to people.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GameEntry {
    /// The id to pass to [`new_session`] (the default variant).
    pub id: &'static str,
    /// The name shown to people.
    pub name: &'static str,
    /// Other ids that select a variant (`reversi-12`), with their names.
    pub variants: &'static [(&'static str, &'static str)],
    /// Whether the game has chance turns.
    pub chance: bool,
    /// Number of players (1 or 2).
    pub players: usize,
}

/// Every game the registry can build.
pub const CATALOGUE: &[GameEntry] = &[
    GameEntry {
        id: "tictactoe",
        name: "Tic-tac-toe",
        variants: &[],
        chance: false,
        players: 2,
    },
    GameEntry {
        id: "reversi",
        name: "Reversi",
        variants: &[
            ("reversi-6", "Reversi 6x6"),
            ("reversi-10", "Reversi 10x10"),
            ("reversi-12", "Reversi 12x12"),
            ("reversi-14", "Reversi 14x14"),
            ("reversi-16", "Reversi 16x16"),
        ],
        chance: false,
        players: 2,
    },
    GameEntry {
        id: "ataxx",
        name: "Ataxx",
        variants: &[
            ("ataxx-0400", "Ataxx, four pillars"),
            ("ataxx-8000", "Ataxx, centre stone"),
            ("ataxx-7888", "Ataxx, cross"),
            ("ataxx-8124", "Ataxx, diamond"),
            ("ataxx-01A2", "Ataxx, gates"),
            ("ataxx-0220", "Ataxx, corridors"),
        ],
        chance: false,
        players: 2,
    },
    GameEntry {
        id: "hive",
        name: "Hive",
        variants: &[
            ("hive-M", "Hive with the Mosquito"),
            ("hive-L", "Hive with the Ladybug"),
            ("hive-P", "Hive with the Pillbug"),
            ("hive-ML", "Hive with the Mosquito and Ladybug"),
            ("hive-MP", "Hive with the Mosquito and Pillbug"),
            ("hive-LP", "Hive with the Ladybug and Pillbug"),
            ("hive-MLP", "Hive with the Mosquito, Ladybug and Pillbug"),
        ],
        chance: false,
        players: 2,
    },
    GameEntry {
        id: "khet",
        name: "Khet 2.0",
        variants: &[
            ("khet-imhotep", "Khet 2.0, Imhotep"),
            ("khet-dynasty", "Khet 2.0, Dynasty"),
            (
                "khet-classic-horus",
                "Khet 2.0, Classic with the Eye of Horus",
            ),
            (
                "khet-imhotep-horus",
                "Khet 2.0, Imhotep with the Eye of Horus",
            ),
            (
                "khet-dynasty-horus",
                "Khet 2.0, Dynasty with the Eye of Horus",
            ),
        ],
        chance: false,
        players: 2,
    },
    GameEntry {
        id: "threes",
        name: "Threes",
        variants: &[("threes-1", "Threes, the deal from seed 1 (any threes-S)")],
        chance: true,
        players: 1,
    },
];

/// The ids [`new_session`] accepts, for error messages.
pub fn known_ids() -> Vec<String> {
    let mut ids = Vec::new();
    for g in CATALOGUE {
        ids.push(g.id.to_string());
        ids.extend(g.variants.iter().map(|v| v.0.to_string()));
    }
    ids
}

/// A new game session for a game id, at the game's start position.
pub fn new_session(id: &str) -> Result<Box<dyn AnySession>, Error> {
    let (base, _) = split_variant(id);
    match base {
        "tictactoe" => Ok(Box::new(Match::<tictactoe::TicTacToe>::new(id)?)),
        "reversi" => Ok(Box::new(Match::<reversi::Reversi>::new(id)?)),
        "threes" => Ok(Box::new(Match::<threes::Threes>::new(id)?)),
        "ataxx" => Ok(Box::new(Match::<ataxx::Ataxx>::new(id)?)),
        "khet" => Ok(Box::new(Match::<khet::Khet>::new(id)?)),
        "hive" => Ok(Box::new(Match::<hive::Hive>::new(id)?)),
        _ => Err(Error::UnknownGame {
            id: id.to_string(),
            known: known_ids(),
        }),
    }
}
