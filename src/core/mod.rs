//! The vocabulary every game and every search shares: players, turns, outcomes, the [`Game`] trait,
//! the [`Evaluator`] trait with its named terms, the board view the page draws ([`BoardView`]), typed
//! errors, zobrist keys and a seedable RNG.
//!
//! Nothing here knows a particular game or a particular search algorithm.

mod error;
mod eval;
mod rng;
mod view;
mod zobrist;

pub use error::{shown, Error, IllegalMove, ParseMoveError, ParsePositionError, SHOWN_CHARS};
pub use eval::{
    describe_value, Breakdown, Evaluator, LostScale, MarginScale, NoTerms, Term, TermSink,
    ValueScale, ValueText, ValueUnit, WIN_SCORE,
};
pub use rng::Rng;
pub use view::{
    view_of, BoardView, Cell, Coord, Geometry, HandPiece, HandSlot, Highlight, Info, Labels,
    MoveKind, MoveView, Piece, Point, Score, Segment, Viewable,
};
pub use zobrist::ZobristTable;

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};

/// A player's index: 0 moves first, 1 second. Single-player games only use 0.
pub type PlayerId = u8;

/// Whose turn it is in a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Turn {
    /// The given player chooses a move from [`Game::legal_moves`].
    Player(PlayerId),
    /// Nature moves: the outcomes and their probabilities come from [`Game::chance_outcomes`].
    Chance,
    /// The game is over; [`Game::outcome`] tells the result.
    Terminal,
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome {
    /// The given player won.
    Win(PlayerId),
    /// Nobody won.
    Draw,
    /// The game ended with this score: a single player's (higher is better), or in a two-player
    /// game the first player's (the second player wants it low), as in a textbook tree.
    Score(f64),
}

/// A board game as the search sees it.
///
/// States are small and cloned freely: the search uses copy-make (`let mut c = pos.clone();
/// c.play_unchecked(m)`), so a game keeps its state in fixed-size arrays or bitboards where it can.
/// A state's zobrist key is maintained incrementally and must equal [`Game::zobrist_from_scratch`].
///
/// Moves are small `Copy` values; their text form is given in the context of the position they are
/// played from (Hive's notation names neighbouring pieces, so formatting needs the position).
pub trait Game: Clone + Debug + Send + 'static {
    /// One move (or one chance outcome at a [`Turn::Chance`] node).
    type Move: Copy + Eq + Hash + Debug + Send + 'static;

    /// The game id with its variant, as accepted by the registry (`"reversi"`, `"reversi-12"`, ...).
    fn game_id(&self) -> String;

    /// Number of players choosing moves (1 or 2).
    fn num_players(&self) -> usize {
        2
    }

    /// A player's name as shown to people and written in tree documents (`"black"`, `"x"`, ...).
    fn player_name(&self, player: PlayerId) -> &'static str;

    /// Whose turn it is.
    fn turn(&self) -> Turn;

    /// Clears `out` and fills it with the legal moves of the player to move.
    ///
    /// A player who must pass gets a single pass move; a terminal or chance position yields none.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Clears `out` and fills it with the outcomes of a chance turn and their probabilities,
    /// which sum to 1. Empty when the turn is not [`Turn::Chance`].
    fn chance_outcomes(&self, out: &mut Vec<(Self::Move, f64)>) {
        out.clear();
    }

    /// Plays `m`, which must be legal (a legal move or a chance outcome of this position).
    /// Behaviour on an illegal move is unspecified but memory-safe; use [`Game::play`] for input
    /// that is not trusted.
    fn play_unchecked(&mut self, m: Self::Move);

    /// Plays `m` after checking that it is legal; the state is left unchanged on error.
    fn play(&mut self, m: Self::Move) -> Result<(), IllegalMove> {
        let legal = match self.turn() {
            Turn::Player(_) => {
                let mut moves = Vec::new();
                self.legal_moves(&mut moves);
                moves.contains(&m)
            }
            Turn::Chance => {
                let mut outcomes = Vec::new();
                self.chance_outcomes(&mut outcomes);
                outcomes.iter().any(|&(o, p)| o == m && p > 0.0)
            }
            Turn::Terminal => {
                return Err(IllegalMove::new(self.format_move(m), "the game is over"));
            }
        };
        if !legal {
            return Err(IllegalMove::new(
                self.format_move(m),
                "not a legal move in this position",
            ));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// The result, once the turn is [`Turn::Terminal`]; `None` before.
    fn outcome(&self) -> Option<Outcome>;

    /// Whether finished games end with an [`Outcome::Score`] (a number: Threes's points, a
    /// textbook tree's leaf values) rather than a win, a loss or a draw. Searches that reason in
    /// wins and losses (the MCTS solver, MCTS's 0-to-1 scores) use it to read scores as scores.
    fn outcome_is_score(&self) -> bool {
        false
    }

    /// For null-move pruning: this position with the turn passed to the opponent and nothing
    /// else changed (its zobrist key updated), or `None` where the game does not allow it as a
    /// search heuristic. The default is `None`. A game opts in only when passing is never forced
    /// and zugzwang is rare: never in games with forced passes (Reversi, Ataxx) or chance turns.
    fn null_move(&self) -> Option<Self> {
        None
    }

    /// For late-move reductions: how many plies more (positive) or fewer (negative) than the
    /// search's schedule the move `m` from this position may be reduced, or `None` (the default)
    /// where the game keeps the fixed schedule (one ply, two for very late moves at depth 6 or
    /// more). A game that answers gets reductions that grow with the depth left and the move's
    /// place in the order (`ln depth * ln place`), plus this bias, down to a static evaluation
    /// for the latest moves (docs/engine-options.md). Ataxx: a jump that captures nothing +1,
    /// a clone that captures nothing 0, a move that captures -1.
    fn reduction_bias(&self, _m: Self::Move) -> Option<i32> {
        None
    }

    /// For the quiescence extension: whether this position is too unsettled for a static
    /// evaluation (the player to move has a win or a capture pending), so that a search reaching
    /// its horizon here looks one ply further. The default is `false` (every position stable).
    fn unstable(&self) -> bool {
        false
    }

    /// For staged move generation: `true` only when `m` is certainly a legal move here, answered
    /// without generating the whole move list (the search then tries the table's move and the
    /// killers before generating the others, and a cut by one of them saves the rest). `false`
    /// means "not legal, or not known cheaply"; the default, `false` for every move, turns the
    /// stage off. The position is not finished when the search asks.
    fn surely_legal(&self, _m: Self::Move) -> bool {
        false
    }

    /// The position's hash key for the transposition table: a zobrist key maintained
    /// incrementally, or computed on demand where the whole state packs into a few words (Threes).
    fn zobrist(&self) -> u64;

    /// The zobrist key computed from the whole state; tests check it equals [`Game::zobrist`].
    fn zobrist_from_scratch(&self) -> u64;

    /// Parses a move written in this game's notation, in the context of this position.
    /// Syntax only is checked here; legality is [`Game::play`]'s business.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseMoveError>;

    /// Writes a move in this game's notation, in the context of this position.
    fn format_move(&self, m: Self::Move) -> String;

    /// The position as text (the game's FEN-like form), which [`Game::from_position_text`] reads back.
    fn position_text(&self) -> String;

    /// Reads a position written by [`Game::position_text`]. `variant` is the game id with its variant
    /// options (for Reversi the size comes from the id, `reversi-12`).
    fn from_position_text(variant: &str, text: &str) -> Result<Self, ParsePositionError>;
}

/// What a finished game counts for in [`perft`] when the requested depth goes past it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PerftConvention {
    /// A finished game counts as one leaf at every deeper depth (GAMES.md's Reversi table).
    FinishedCountsOne,
    /// A finished game counts nothing at deeper depths (Edax's, tic-tac-toe's and Ataxx's tables).
    FinishedCountsZero,
}

/// Limits on a perft run: a stop flag raised from elsewhere, a deadline and a budget of leaves.
///
/// Perft functions report the leaves of every node two plies above the leaves
/// ([`PerftBudget::count`]) and give up as soon as the budget says so; the count they return is
/// then partial, which [`PerftBudget::stopped`] tells. `PerftBudget::default()` never stops.
#[derive(Debug, Default)]
pub struct PerftBudget<'a> {
    stop: Option<&'a AtomicBool>,
    deadline_ms: Option<f64>,
    max_leaves: Option<u64>,
    leaves: u64,
    calls: u32,
    stopped: bool,
}

impl<'a> PerftBudget<'a> {
    /// Stops once `stop` is raised.
    pub fn with_stop(mut self, stop: &'a AtomicBool) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Stops once [`now_ms`] passes `deadline_ms`.
    pub fn with_deadline_ms(mut self, deadline_ms: f64) -> Self {
        self.deadline_ms = Some(deadline_ms);
        self
    }

    /// Stops once at least `leaves` leaves have been counted (in all runs with this budget).
    pub fn with_max_leaves(mut self, leaves: u64) -> Self {
        self.max_leaves = Some(leaves);
        self
    }

    /// Adds `n` counted leaves; returns whether to stop. Looks at the clock and the stop flag every
    /// 64 calls (a call covers a node two plies above the leaves: microseconds of work).
    #[inline]
    pub fn count(&mut self, n: u64) -> bool {
        self.leaves = self.leaves.saturating_add(n);
        if self.max_leaves.is_some_and(|m| self.leaves >= m) {
            self.stopped = true;
        }
        self.calls = self.calls.wrapping_add(1);
        if self.calls % 64 == 0 {
            self.look();
        }
        self.stopped
    }

    /// Looks at the stop flag and the clock now.
    #[cold]
    fn look(&mut self) {
        if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            self.stopped = true;
        }
        if self.deadline_ms.is_some_and(|d| now_ms() >= d) {
            self.stopped = true;
        }
    }

    /// Whether the run was stopped (its count is then partial).
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Leaves counted so far, at the granularity of [`PerftBudget::count`]'s calls.
    pub fn leaves(&self) -> u64 {
        self.leaves
    }
}

/// What a perft function asks of its limits: [`PerftBudget`] for real limits, [`Unbounded`] for
/// none at zero cost (the calls vanish when compiled).
pub trait PerftLimit {
    /// Adds the leaves of a node two plies above the leaves; returns whether to stop.
    fn count(&mut self, leaves: u64) -> bool;
    /// Whether to stop (the count is then partial).
    fn stopped(&self) -> bool;
}

/// No limit: perft runs to the end.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unbounded;

impl PerftLimit for Unbounded {
    #[inline(always)]
    fn count(&mut self, _: u64) -> bool {
        false
    }
    #[inline(always)]
    fn stopped(&self) -> bool {
        false
    }
}

impl PerftLimit for PerftBudget<'_> {
    #[inline]
    fn count(&mut self, leaves: u64) -> bool {
        PerftBudget::count(self, leaves)
    }
    #[inline]
    fn stopped(&self) -> bool {
        PerftBudget::stopped(self)
    }
}

/// Counts the leaf nodes of the move tree to `depth` plies (the perft of chess programmers).
///
/// Every move, passes included, uses a ply; chance outcomes count as plies too. What a finished game
/// counts for at deeper depths is `convention`. The last ply is counted in bulk from the move list's
/// length. This generic version clones states; games with bitboards may offer a faster one.
pub fn perft<G: Game>(pos: &G, depth: u32, convention: PerftConvention) -> u64 {
    perft_within(pos, depth, convention, &mut Unbounded).unwrap_or_default()
}

/// [`perft`] within a budget: `None` when the budget stopped it before the end.
pub fn perft_within<G: Game, L: PerftLimit>(
    pos: &G,
    depth: u32,
    convention: PerftConvention,
    budget: &mut L,
) -> Option<u64> {
    fn go<G: Game, L: PerftLimit>(
        pos: &G,
        depth: u32,
        c: PerftConvention,
        buffers: &mut Vec<Vec<G::Move>>,
        budget: &mut L,
    ) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = buffers.pop().unwrap_or_default();
        match pos.turn() {
            Turn::Terminal => {
                buffers.push(moves);
                return match c {
                    PerftConvention::FinishedCountsOne => 1,
                    PerftConvention::FinishedCountsZero => 0,
                };
            }
            Turn::Chance => {
                let mut outcomes = Vec::new();
                pos.chance_outcomes(&mut outcomes);
                moves.clear();
                moves.extend(outcomes.iter().map(|&(m, _)| m));
            }
            Turn::Player(_) => pos.legal_moves(&mut moves),
        }
        let total = if depth == 1 {
            moves.len() as u64
        } else {
            let mut n = 0;
            for &m in &moves {
                let mut child = pos.clone();
                child.play_unchecked(m);
                n += go(&child, depth - 1, c, buffers, budget);
                if budget.stopped() {
                    break;
                }
            }
            if depth == 2 {
                budget.count(n);
            }
            n
        };
        buffers.push(moves);
        total
    }
    let n = go(pos, depth, convention, &mut Vec::new(), budget);
    (!budget.stopped()).then_some(n)
}

/// Splits a game id such as `"reversi-12"` into its base (`"reversi"`) and numeric variant (`Some(12)`).
pub fn split_variant(id: &str) -> (&str, Option<&str>) {
    match id.split_once('-') {
        Some((base, rest)) => (base, Some(rest)),
        None => (id, None),
    }
}

/// Milliseconds from an arbitrary origin, for time budgets; works natively and in wasm.
pub fn now_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::sync::OnceLock;
        use std::time::Instant;
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
    }
}
