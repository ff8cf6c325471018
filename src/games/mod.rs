//! The games, and the registry: one list from which the catalogue, the session layer and the
//! generic tests find every game.
//!
//! Each game lives in its own module and implements [`Game`](crate::core::Game),
//! [`Viewable`] (its board view) and [`Playable`] (its catalogue entry, variants and evaluators).
//! To add a game: write its module and add one line to the `registry!` call below (see
//! docs/adding-a-game.md).

use crate::core::{
    perft_within, split_variant, Coord, Error, Evaluator, PerftConvention, PerftLimit, Unbounded,
    ValueText, Viewable,
};

/// What the registry needs beyond [`Game`](crate::core::Game) and its view: the game's catalogue
/// entry, how to make a game from its id (variants included), and its evaluators.
pub trait Playable: Viewable + Sized {
    /// The game's evaluator (usually an enum over the evaluators it offers).
    type Eval: Evaluator<Self> + Send;

    /// The game's entry in the catalogue: its id, name, named variants, players.
    const INFO: GameInfo;

    /// The start position of the game with this id (`"reversi-12"`: the variant comes from the id).
    /// An id this game does not accept gets an error saying what it accepts.
    fn new_game(id: &str) -> Result<Self, Error>;

    /// The names of the evaluators on offer, the default first.
    fn evaluator_names() -> &'static [&'static str];

    /// The evaluator with this name; an empty name means the default.
    fn evaluator(name: &str) -> Result<Self::Eval, Error>;

    /// The evaluator named `name` for this position's game, the game's default for it when the
    /// name is empty: [`Playable::evaluator`] unless the default depends on the variant
    /// (Reversi: `patterns` on 8x8, `strong` on the other sizes).
    fn evaluator_for(&self, name: &str) -> Result<Self::Eval, Error> {
        Self::evaluator(name)
    }

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

    /// The variant editor's click: the id of the variant `id` changed at cell `at` of its start
    /// position's board view (Ataxx toggles a wall and its mirror images). The new id is not
    /// checked as playable; [`Playable::new_game`] does that. Games whose variants are not edited
    /// cell by cell say so.
    fn edit_variant(id: &str, at: Coord) -> Result<String, Error> {
        let _ = at;
        Err(Error::bad_option(
            "variant",
            id,
            "a game whose variants are edited cell by cell",
        ))
    }

    /// A random playable variant fixed by `seed`, for games that can make one (Ataxx: a random
    /// wall layout).
    fn random_variant(seed: u64) -> Option<String> {
        let _ = seed;
        None
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

    /// A searched move's value as a player reads it, when the game has better words for it than
    /// its evaluator's (`searched`): Threes says the expected score a few swipes ahead. `None`
    /// (the default): the evaluator's words stand.
    fn outlook(&self, _m: Self::Move, _searched: &ValueText) -> Option<ValueText> {
        None
    }

    /// How much of the game an exact solver would have to search from here (Reversi: the empty
    /// squares), when the game has one for this position. `None` (the default): no solver.
    fn exact_size(&self) -> Option<u32> {
        None
    }

    /// Solves the position to the end: every root move with its exact value (or an upper bound,
    /// for moves proved no better than the best), in the search values of the game's evaluators,
    /// from the player to move. `keep_going(positions)` is asked every few thousand positions;
    /// when it answers `false` the solve stops and returns `None`. Asked only when
    /// [`Playable::exact_size`] is `Some`.
    fn solve_exact(&self, _keep_going: &mut dyn FnMut(u64) -> bool) -> Option<Solved<Self::Move>> {
        None
    }
}

/// An exact solver's answer ([`Playable::solve_exact`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Solved<M> {
    /// Every legal move, best first.
    pub moves: Vec<SolvedMove<M>>,
    /// A best line from the position, as far as the solver knows it (the first move is the best).
    pub line: Vec<M>,
    /// Positions the solver visited.
    pub nodes: u64,
}

/// One root move of a [`Solved`] position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolvedMove<M> {
    /// The move.
    pub mv: M,
    /// Its value for the player to move (a search value of the game's evaluators).
    pub value: f64,
    /// Whether the value is exact (else an upper bound).
    pub exact: bool,
}

/// A game's entry in the catalogue shown to people.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct GameInfo {
    /// The id of the default variant, also the base of every variant id (`reversi` for
    /// `reversi-12`).
    pub id: &'static str,
    /// The name shown to people.
    pub name: &'static str,
    /// Named variants: other ids that select one (`reversi-12`), with their names.
    pub variants: &'static [(&'static str, &'static str)],
    /// Whether the game has chance turns.
    pub chance: bool,
    /// Number of players choosing moves.
    pub players: usize,
    /// The AI's settings a first game of this kind starts with (docs/engine-options.md: a move
    /// takes at most about 1-3 s).
    pub ai: AiDefaults,
}

/// The AI's default settings for a game: a depth cap, a time limit per move and the search
/// techniques the game's defaults turn off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct AiDefaults {
    /// Depth limit in plies (iterative deepening stops earlier when the time runs out).
    pub depth: u32,
    /// Time limit per move in milliseconds.
    pub time_ms: u32,
    /// The alpha-beta techniques (their search-option names, [`crate::search::SWITCHES`]) that
    /// this game plays without unless told otherwise, because equal-time matches measured it
    /// stronger without them (docs/engine-options.md, "The defaults in each game"). Empty for
    /// most games: every technique's default holds.
    pub techniques_off: &'static [&'static str],
    /// The alpha-beta techniques, off by default, that this game plays with unless told
    /// otherwise, because equal-time matches measured it stronger with them (Ataxx: singular
    /// extensions). Empty for most games.
    pub techniques_on: &'static [&'static str],
}

impl AiDefaults {
    /// A game's AI defaults with every technique at its default.
    pub const fn new(depth: u32, time_ms: u32) -> Self {
        AiDefaults {
            depth,
            time_ms,
            techniques_off: &[],
            techniques_on: &[],
        }
    }
}

/// The catalogue entry of the game that `id` (a game or variant id) names, if any.
pub fn game_info(id: &str) -> Option<&'static GameInfo> {
    let (base, _) = split_variant(id);
    CATALOGUE.iter().find(|g| g.id == base)
}

/// The search options game `id` starts from when nothing is set: [`crate::search::SearchConfig::default`] with
/// the techniques the game turns off ([`AiDefaults::techniques_off`]) and on
/// ([`AiDefaults::techniques_on`]). An unknown id gets the plain defaults.
pub fn search_defaults(id: &str) -> crate::search::SearchConfig {
    let mut config = crate::search::SearchConfig::default();
    if let Some(g) = game_info(id) {
        // The catalogue's names are checked by a test (tests/game_defaults.rs).
        for key in g.ai.techniques_off {
            let _ = config.turn_off(key);
        }
        for key in g.ai.techniques_on {
            let _ = config.turn_on(key);
        }
    }
    config
}

/// Reads search options from JSON for game `id` ([`crate::search::SearchConfig::from_json`]),
/// the game's own defaults applying to every option the text leaves out ([`search_defaults`]).
pub fn search_config(id: &str, json: &str) -> Result<crate::search::SearchConfig, Error> {
    let (off, on) = game_info(id).map_or((&[][..], &[][..]), |g| {
        (g.ai.techniques_off, g.ai.techniques_on)
    });
    crate::search::SearchConfig::from_json_with_defaults(json, off, on)
}

/// Something to do with a game type picked at run time: the registry calls
/// [`GameVisitor::visit`] with the type whose catalogue entry accepts the id.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Does the work for game type `G`, asked for with `id`.
    fn visit<G: Playable>(self, id: &str) -> Self::Output;
}

/// Declares the game modules and the registry from one list of `module::Type` lines.
macro_rules! registry {
    ($($module:ident :: $game:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Every game's catalogue entry, in the order people see them.
        pub const CATALOGUE: &[GameInfo] = &[$(<$module::$game as Playable>::INFO),*];

        /// Calls `visitor` with the game type whose id is the base of `id` (`reversi` for
        /// `reversi-12`); an unknown game is an error listing the known ids.
        pub fn with_game<V: GameVisitor>(id: &str, visitor: V) -> Result<V::Output, Error> {
            let (base, _) = split_variant(id);
            $(
                if base == <$module::$game as Playable>::INFO.id {
                    return Ok(visitor.visit::<$module::$game>(id));
                }
            )*
            Err(Error::UnknownGame {
                id: id.to_string(),
                known: known_ids(),
            })
        }
    };
}

pub mod pattern_fit;

registry! {
    tictactoe::TicTacToe,
    reversi::Reversi,
    ataxx::Ataxx,
    hive::Hive,
    khet::Khet,
    threes::Threes,
    connect4::Connect4,
    textbook::Textbook,
}

/// The game a person's first visit to the page opens (the seed's game); the page reads it from
/// the catalogue (`featured`) rather than naming a game itself.
pub const FEATURED: &str = "reversi";

/// The games whose whole game tree (every line to the end, unpruned) fits the page's largest
/// tree budget, so that the page offers to record it: tic-tac-toe's has at most 549,946 nodes.
pub const WHOLE_TREE: &[&str] = &["tictactoe"];

/// Every id the registry offers by name (default and named variants), for error messages.
pub fn known_ids() -> Vec<String> {
    let mut ids = Vec::new();
    for g in CATALOGUE {
        ids.push(g.id.to_string());
        ids.extend(g.variants.iter().map(|v| v.0.to_string()));
    }
    ids
}
