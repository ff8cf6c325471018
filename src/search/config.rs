//! Search options and results.

use crate::core::Error;
use crate::tree::{Stats, Tree, DEFAULT_BYTE_CAP, DEFAULT_NODE_CAP};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The search algorithms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// A uniformly random legal move.
    Random,
    /// The best move after one ply by static evaluation (the seed's "Easy").
    Greedy,
    /// Plain minimax to the depth limit (the seed's "Hard"); chance turns take the expectation.
    Minimax,
    /// Minimax with alpha-beta pruning; chance turns take the expectation with a full window.
    #[default]
    Alphabeta,
    /// Expectimax: minimax over player turns and probability-weighted means over chance turns,
    /// with a cut-off on a line's cumulative probability.
    Expectimax,
    /// Monte Carlo tree search (UCT): playouts grow a tree towards the moves that score best;
    /// the most visited root move is played (see `src/search/mcts.rs`).
    Mcts,
}

impl Algorithm {
    /// Every algorithm, weakest first.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Random,
        Algorithm::Greedy,
        Algorithm::Minimax,
        Algorithm::Alphabeta,
        Algorithm::Expectimax,
        Algorithm::Mcts,
    ];

    /// The id used in options and tree documents.
    pub fn id(self) -> &'static str {
        match self {
            Algorithm::Random => "random",
            Algorithm::Greedy => "greedy",
            Algorithm::Minimax => "minimax",
            Algorithm::Alphabeta => "alphabeta",
            Algorithm::Expectimax => "expectimax",
            Algorithm::Mcts => "mcts",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Algorithm {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        let lower = s.to_ascii_lowercase();
        Algorithm::ALL
            .into_iter()
            .find(|a| a.id() == lower || (lower == "alpha-beta" && *a == Algorithm::Alphabeta))
            .ok_or_else(|| {
                Error::bad_option(
                    "algorithm",
                    s,
                    "random, greedy, minimax, alphabeta, expectimax or mcts",
                )
            })
    }
}

/// The default of [`SearchConfig::exact_endgame`]: 20 empty squares, which the Reversi solver
/// takes about 0.1 to 3 s to solve natively (FFO #40-#44: docs/reversi.md).
pub const DEFAULT_EXACT_ENDGAME: u32 = 20;

/// The JSON names of the boolean technique switches of alpha-beta ([`SearchConfig::switch_mut`]).
pub const SWITCHES: [&str; 12] = [
    "pvs",
    "aspiration",
    "killers",
    "history",
    "history_malus",
    "lmr",
    "null_move",
    "late_move_pruning",
    "late_move_pruning_all_depths",
    "futility",
    "internal_reduction",
    "singular_extensions",
];

/// Everything a search can be asked to do. Every field has a default, so a JSON object with only
/// some fields (`{"depth": 4}`) is a valid configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchConfig {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The evaluator's name; empty for the game's default.
    pub evaluator: String,
    /// Maximum depth in plies (chance turns do not use depth). 1 to 64.
    pub depth: u32,
    /// Time budget in milliseconds; the search stops within a few milliseconds of it and plays the
    /// best move of the last completed iteration.
    pub time_ms: Option<u64>,
    /// Node budget; like the time budget.
    pub node_budget: Option<u64>,
    /// With a time budget: search until it runs out (as a protocol's fixed time a move asks,
    /// where time not used is lost), instead of stopping early when the next depth is predicted
    /// not to fit (the default, which answers sooner). The stopped depth's better moves are
    /// still played (alpha-beta).
    #[serde(skip_serializing_if = "is_false")]
    pub whole_budget: bool,
    /// Search depth 1, 2, ... up to `depth`, keeping the last completed result. Implied by a budget.
    pub iterative_deepening: bool,
    /// Order each node's moves by pre-score (best first for the side to move).
    pub move_ordering: bool,
    /// Keep only the best N moves of each node by pre-score (0: keep all).
    pub branching_limit: usize,
    /// Use a transposition table: `None` (the default) for alpha-beta and not for the other
    /// algorithms; `true` or `false` for every algorithm.
    pub transposition_table: Option<bool>,
    /// The table's size as a power of two entries (10 to 26).
    pub tt_bits: u32,
    /// The table is probed and written only at nodes with at least this many plies left (1 to
    /// 8; 1: every node above the horizon). Nodes just above the horizon are the most numerous
    /// and their entries the cheapest to redo, so skipping them saves the table's cache misses.
    pub tt_min_depth: u32,
    /// Alpha-beta: principal variation search. After a node's first move, each move is searched
    /// with a null window (does it beat the best so far?) and searched again with the full window
    /// only when it does.
    pub pvs: bool,
    /// Alpha-beta with iterative deepening: search each depth in a window around the last
    /// depth's value ([`SearchConfig::aspiration_window`] wide each side), widened when the value
    /// falls outside it.
    pub aspiration: bool,
    /// The aspiration window's half-width in evaluation units; 0 picks one from the evaluator's
    /// scale (a tenth of the last value's size, at least 1).
    pub aspiration_window: f64,
    /// Alpha-beta: try the two moves that last caused a cut-off at the same ply (killer moves)
    /// right after the transposition table's move.
    pub killers: bool,
    /// Alpha-beta: where moves are not ordered by pre-score (one ply above the horizon, or with
    /// `move_ordering` off), order them by how often they caused cut-offs (the history heuristic).
    pub history: bool,
    /// Alpha-beta, with `history`: the history malus. A cut-off adds to its move's history score
    /// (300 a ply left, at most 1,500) and takes as much from each move searched before it at
    /// that node. Each step is scaled by the score's size: a positive score approaches 16,384
    /// and stays below; a negative one sinks faster the lower it is, so a move that keeps
    /// failing ranks below every move that ever cut. Off: a cut-off adds the square of the plies
    /// left, and nothing is taken. On in Ataxx only (docs/ataxx.md, "Session 31").
    pub history_malus: bool,
    /// Alpha-beta: late-move reductions. Moves late in the order (after the table's move, the
    /// killers and the first few) are searched shallower with a null window, and at full depth
    /// when they turn out better than the best so far.
    pub lmr: bool,
    /// Alpha-beta: null-move pruning, in games that allow it (never in games with forced passes
    /// or chance turns). When passing the turn still scores beyond the window in a shallower
    /// search, the node is cut without searching its moves.
    pub null_move: bool,
    /// Alpha-beta: late-move pruning, in games that give a reduction bias
    /// ([`crate::core::Game::reduction_bias`]; Ataxx): one or two plies above the horizon, moves
    /// late in the order that gain nothing (Ataxx: jumps that capture nothing) are not searched.
    pub late_move_pruning: bool,
    /// Alpha-beta: late-move pruning at every depth (Zataxx's rule), in games that give a
    /// reduction bias: at every node but the root, moves that gain nothing (Ataxx: jumps that
    /// capture nothing) are not searched once two moves have been, unless the best so far is a
    /// lost game. Off by default (docs/ataxx.md, "Session 18").
    pub late_move_pruning_all_depths: bool,
    /// Alpha-beta: futility pruning, in games that give a reduction bias: up to four plies above
    /// the horizon, when the node's static evaluation is far below what the side to move must
    /// beat, moves that capture nothing are not searched; and reverse futility: up to six plies
    /// above it, a node whose static evaluation is far beyond the bound returns it unsearched.
    pub futility: bool,
    /// Alpha-beta with a transposition table: internal iterative reduction. A node with four
    /// plies or more left and no move from the table to search first is searched one ply
    /// shallower (its order is a guess; the shallower search stores a move for the next
    /// iteration). Off by default: in Ataxx it halves the nodes to depth 10 but did not play
    /// stronger at equal time (docs/ataxx.md).
    pub internal_reduction: bool,
    /// Alpha-beta with a transposition table: singular extensions. At a node off the principal
    /// variation with six plies or more left, whose table entry gives a move and a value that
    /// holds as a lower bound (for the side to move) from at most three plies shallower, the
    /// node's other moves are searched at half the depth with a null window just short of that
    /// value. When none reaches it, the table's move is singular and is searched a ply deeper;
    /// when they reach it and it is beyond the window too, the node is cut there (multi-cut);
    /// when the table's value alone is beyond the window, the move is searched a ply shallower.
    pub singular_extensions: bool,
    /// Alpha-beta: at the horizon, keep searching positions the game calls unstable (a
    /// quiescence extension), up to this many extra plies (0: off).
    pub quiescence: u32,
    /// The randomness quotient Q: the k-th best root move is chosen with probability (Q-1)/Q^k.
    /// 0 (or 1) means always the best.
    pub randomness_quotient: u32,
    /// Choose at random among root moves of equal best value (otherwise the first in move order).
    pub random_ties: bool,
    /// Seed for every random choice; `None` draws one from the system.
    pub seed: Option<u64>,
    /// Expectimax: a line whose probability falls below this is evaluated statically.
    pub chance_cutoff: f64,
    /// Expectimax under a budget (time or nodes): when the next full depth would not fit in what is
    /// left, search it in probability steps instead, with a chance cut-off of 0.01 that each step
    /// halves (down to `chance_cutoff`). A step's result replaces the last full depth's when it
    /// searched at least half as many nodes. Likely lines then get one more level of search.
    pub probability_steps: bool,
    /// Record the search tree.
    pub record_tree: bool,
    /// Cap on recorded nodes (see `crate::tree::Arena` for what a cap keeps).
    pub node_cap: usize,
    /// Cap on the recorder's memory in bytes (records, breakdowns and cut moves).
    pub tree_max_bytes: usize,
    /// Solve a position exactly, with the game's endgame solver (8x8 Reversi), when what is left
    /// to search is at most this (Reversi: empty squares); 0: never. The solver gets 60% of the
    /// time budget and half the node budget; when it does not finish, the search runs as usual.
    /// Used by `alphabeta` and `minimax` without randomness (a quotient of 0 or 1).
    pub exact_endgame: u32,
    /// MCTS: the exploration constant C of UCT (rewards are scores from 0 to 1).
    pub mcts_exploration: f64,
    /// MCTS: a budget of iterations (playouts). Without any budget MCTS runs
    /// [`MCTS_DEFAULT_ITERATIONS`].
    pub mcts_iterations: Option<u64>,
    /// MCTS: how a playout scores the position it starts from.
    pub mcts_playout: Playout,
    /// MCTS: plies of random moves a heuristic playout plays before the evaluator scores it.
    pub mcts_playout_plies: u32,
    /// MCTS: weigh each move by a prior made from its pre-score (PUCT) instead of trying every
    /// move once first (UCB1).
    pub mcts_priors: bool,
    /// Threads searching at once (1 to [`MAX_THREADS`]). Above 1, alpha-beta and minimax with a
    /// transposition table use Lazy SMP: helper threads search the same root with the same
    /// iterative deepening, sharing the table, and the main thread's result is the answer (see
    /// `src/search/engine/smp.rs`). Random, greedy, MCTS and searches without a table use one
    /// thread; expectimax refuses more than one, and so do the WebAssembly builds without shared
    /// memory (one thread per worker; the threads build runs its helpers in Web Workers).
    pub threads: u32,
    /// With `threads` above 1: a thread puts off a move (not a node's first, with at least 3
    /// plies left) that another thread is searching at that moment, and searches it after the
    /// node's other moves, when the shared table may hold its result (the deferral of ABDADA).
    /// The threads then split a node's moves instead of repeating each other's. The main thread
    /// does not put off moves when a tree is recorded (it marks its own for the helpers).
    pub defer_busy: bool,
    /// MCTS: prove wins and losses (MCTS-Solver): a finished game is a proven result, a player's
    /// node with a proven winning move is won, one whose moves all lose is lost (a draw when every
    /// move is proven and the best draws), a chance node is proven only when all its outcomes are
    /// proven the same. Proven values back up, proven-lost moves are no longer tried, the search
    /// ends once the root is proven and a proven win is played. Two-player games only.
    pub mcts_solver: bool,
    /// Tests only (0, the default: off). With `threads` above 1, the main thread starts its
    /// search only once every helper has completed an iteration of this depth (or stopped: every
    /// line ended), a handshake with no clock, so that a test sees the helpers' work however the
    /// threads are scheduled (and fails if they do none). A search pays nothing for it when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub hold_for_helpers: u32,
}

/// Whether a number is 0 (a setting left out of the tree document's header when off).
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Whether a switch is off (a setting left out of the tree document's header when off).
fn is_false(b: &bool) -> bool {
    !*b
}

/// The most threads a search may use.
pub const MAX_THREADS: u32 = 64;

/// The iterations MCTS runs when it is given no budget (no time, nodes or iterations).
pub const MCTS_DEFAULT_ITERATIONS: u64 = 10_000;

/// How an MCTS playout scores a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Playout {
    /// Uniformly random moves to the end of the game (the evaluator scores the position if the
    /// game is still going after 512 plies).
    Random,
    /// `mcts_playout_plies` random moves, then the evaluator's value mapped to a win probability.
    #[default]
    Heuristic,
}

impl Playout {
    /// The id used in options and tree documents.
    pub fn id(self) -> &'static str {
        match self {
            Playout::Random => "random",
            Playout::Heuristic => "heuristic",
        }
    }
}

impl FromStr for Playout {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s.to_ascii_lowercase().as_str() {
            "random" => Ok(Playout::Random),
            "heuristic" => Ok(Playout::Heuristic),
            _ => Err(Error::bad_option("playout", s, "random or heuristic")),
        }
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            algorithm: Algorithm::Alphabeta,
            evaluator: String::new(),
            depth: 4,
            time_ms: None,
            node_budget: None,
            whole_budget: false,
            iterative_deepening: false,
            move_ordering: true,
            branching_limit: 0,
            transposition_table: None,
            tt_bits: 18,
            tt_min_depth: 1,
            pvs: true,
            aspiration: true,
            aspiration_window: 0.0,
            killers: true,
            history: true,
            history_malus: false,
            lmr: true,
            null_move: true,
            late_move_pruning: true,
            late_move_pruning_all_depths: false,
            futility: true,
            internal_reduction: false,
            singular_extensions: false,
            quiescence: 4,
            randomness_quotient: 0,
            random_ties: true,
            seed: None,
            chance_cutoff: 0.0,
            probability_steps: true,
            record_tree: false,
            node_cap: DEFAULT_NODE_CAP,
            tree_max_bytes: DEFAULT_BYTE_CAP,
            exact_endgame: DEFAULT_EXACT_ENDGAME,
            mcts_exploration: 1.4,
            mcts_iterations: None,
            mcts_playout: Playout::Heuristic,
            mcts_playout_plies: 6,
            mcts_priors: true,
            threads: 1,
            defer_busy: true,
            mcts_solver: true,
            hold_for_helpers: 0,
        }
    }
}

impl SearchConfig {
    /// The textbook alpha-beta: every modern technique off (no transposition table, no principal
    /// variation search, aspiration, killers, history, reductions, null moves or quiescence).
    /// Teaching examples and visit-order tests use it: its cut-offs are exactly the textbook's.
    pub fn plain() -> Self {
        SearchConfig {
            transposition_table: Some(false),
            ..SearchConfig::default().without_techniques()
        }
    }

    /// This configuration with the modern alpha-beta techniques off (the transposition table
    /// setting is kept).
    pub fn without_techniques(self) -> Self {
        SearchConfig {
            pvs: false,
            aspiration: false,
            killers: false,
            history: false,
            history_malus: false,
            lmr: false,
            null_move: false,
            late_move_pruning: false,
            late_move_pruning_all_depths: false,
            futility: false,
            internal_reduction: false,
            singular_extensions: false,
            quiescence: 0,
            ..self
        }
    }

    /// Whether the transposition table is used.
    pub fn uses_tt(&self) -> bool {
        self.algorithm != Algorithm::Random
            && self
                .transposition_table
                .unwrap_or(self.algorithm == Algorithm::Alphabeta)
    }

    /// Checks the ranges of the numeric options.
    pub fn validate(&self) -> Result<(), Error> {
        if !(1..=64).contains(&self.depth) {
            return Err(Error::bad_option(
                "depth",
                self.depth,
                "a whole number from 1 to 64",
            ));
        }
        if !(10..=26).contains(&self.tt_bits) {
            return Err(Error::bad_option(
                "tt_bits",
                self.tt_bits,
                "a whole number from 10 to 26",
            ));
        }
        if !(1..=8).contains(&self.tt_min_depth) {
            return Err(Error::bad_option(
                "tt_min_depth",
                self.tt_min_depth,
                "a whole number of plies from 1 to 8",
            ));
        }
        if !(0.0..1.0).contains(&self.chance_cutoff) {
            return Err(Error::bad_option(
                "chance_cutoff",
                self.chance_cutoff,
                "a probability from 0 up to (not including) 1",
            ));
        }
        if !(self.aspiration_window >= 0.0 && self.aspiration_window.is_finite()) {
            return Err(Error::bad_option(
                "aspiration_window",
                self.aspiration_window,
                "a finite number of evaluation units, 0 or more (0: automatic)",
            ));
        }
        if self.quiescence > 16 {
            return Err(Error::bad_option(
                "quiescence",
                self.quiescence,
                "a whole number of plies from 0 to 16",
            ));
        }
        if self.node_cap == 0 {
            return Err(Error::bad_option("node_cap", 0, "at least 1"));
        }
        if self.exact_endgame > 64 {
            return Err(Error::bad_option(
                "exact_endgame",
                self.exact_endgame,
                "a whole number from 0 (never) to 64",
            ));
        }
        if self.tree_max_bytes == 0 {
            return Err(Error::bad_option("tree_max_bytes", 0, "at least 1"));
        }
        if self.node_budget == Some(0) {
            return Err(Error::bad_option(
                "node_budget",
                0,
                "at least 1 node, or no node budget",
            ));
        }
        if !(self.mcts_exploration.is_finite() && (0.0..=100.0).contains(&self.mcts_exploration)) {
            return Err(Error::bad_option(
                "mcts_exploration",
                self.mcts_exploration,
                "a number from 0 to 100",
            ));
        }
        if self.mcts_iterations == Some(0) {
            return Err(Error::bad_option(
                "mcts_iterations",
                0,
                "at least 1 iteration, or no iteration budget",
            ));
        }
        if self.mcts_playout_plies > 1000 {
            return Err(Error::bad_option(
                "mcts_playout_plies",
                self.mcts_playout_plies,
                "a whole number from 0 to 1000",
            ));
        }
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(Error::bad_option(
                "threads",
                self.threads,
                format!("a whole number from 1 to {MAX_THREADS}"),
            ));
        }
        if cfg!(all(target_arch = "wasm32", not(target_feature = "atomics"))) && self.threads > 1 {
            return Err(Error::bad_option(
                "threads",
                self.threads,
                "1 in this WebAssembly build, which runs one thread per worker (the threads \
                 build, with shared memory, searches with several)",
            ));
        }
        if self.threads > 1 && self.algorithm == Algorithm::Expectimax {
            return Err(Error::bad_option(
                "threads",
                self.threads,
                "1 for expectimax (its probability steps change the chance cut-off between \
                 iterations, which a table shared between threads cannot follow); use alphabeta \
                 for a parallel search",
            ));
        }
        if self.time_ms == Some(0) {
            return Err(Error::bad_option(
                "time_ms",
                0,
                "at least 1 millisecond, or no time budget",
            ));
        }
        Ok(())
    }

    /// Turns off the technique named `key` (its JSON name: a boolean switch such as `killers`,
    /// or `transposition_table`, or `quiescence`). An unknown name is an error naming the
    /// switches there are. A game's own defaults use it ([`crate::games::AiDefaults`]).
    pub fn turn_off(&mut self, key: &str) -> Result<(), Error> {
        match key {
            "transposition_table" => self.transposition_table = Some(false),
            "quiescence" => self.quiescence = 0,
            _ => match self.switch_mut(key) {
                Some(on) => *on = false,
                None => {
                    return Err(Error::bad_option(
                        "technique",
                        key,
                        format!(
                            "one of {}, transposition_table, quiescence",
                            SWITCHES.join(", ")
                        ),
                    ))
                }
            },
        }
        Ok(())
    }

    /// The boolean technique switch with JSON name `key` (one of [`SWITCHES`]), if there is one.
    pub fn switch_mut(&mut self, key: &str) -> Option<&mut bool> {
        Some(match key {
            "pvs" => &mut self.pvs,
            "aspiration" => &mut self.aspiration,
            "killers" => &mut self.killers,
            "history" => &mut self.history,
            "history_malus" => &mut self.history_malus,
            "lmr" => &mut self.lmr,
            "null_move" => &mut self.null_move,
            "late_move_pruning" => &mut self.late_move_pruning,
            "late_move_pruning_all_depths" => &mut self.late_move_pruning_all_depths,
            "futility" => &mut self.futility,
            "internal_reduction" => &mut self.internal_reduction,
            "singular_extensions" => &mut self.singular_extensions,
            _ => return None,
        })
    }

    /// Reads a configuration from JSON as [`SearchConfig::from_json`] does, with the techniques
    /// named in `off` turned off where the text does not set them: a game's own defaults
    /// ([`crate::games::search_config`]). `{"killers": true}` keeps the killers on whatever
    /// `off` says.
    pub fn from_json_with_off(text: &str, off: &[&str]) -> Result<Self, Error> {
        Self::from_json_with_defaults(text, off, &[])
    }

    /// [`SearchConfig::from_json_with_off`], also with the techniques named in `on` (switches,
    /// [`SWITCHES`]) turned on where the text does not set them.
    pub fn from_json_with_defaults(text: &str, off: &[&str], on: &[&str]) -> Result<Self, Error> {
        let mut config = Self::from_json(text)?;
        if off.is_empty() && on.is_empty() {
            return Ok(config);
        }
        // from_json accepted the text, so it is a JSON object.
        let given: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(text).unwrap_or_default();
        for key in off {
            if !given.contains_key(*key) {
                config.turn_off(key)?;
            }
        }
        for key in on {
            if !given.contains_key(*key) {
                config.turn_on(key)?;
            }
        }
        Ok(config)
    }

    /// Turns on the switch `key` (one of [`SWITCHES`]); another name is an error.
    pub fn turn_on(&mut self, key: &str) -> Result<(), Error> {
        match self.switch_mut(key) {
            Some(on) => {
                *on = true;
                Ok(())
            }
            None => Err(Error::bad_option(
                "technique",
                key,
                format!("one of {}", SWITCHES.join(", ")),
            )),
        }
    }

    /// Reads a configuration from JSON, with a message naming the bad field.
    pub fn from_json(text: &str) -> Result<Self, Error> {
        let config: SearchConfig = serde_json::from_str(text).map_err(|e| {
            Error::bad_option(
                "search options",
                text,
                format!("a JSON object of search options ({e})"),
            )
        })?;
        config.validate()?;
        Ok(config)
    }
}

/// How far a search has got, reported to a progress callback.
#[derive(Debug, Clone, Serialize)]
pub struct Progress {
    /// Nodes visited so far.
    pub nodes: u64,
    /// The iteration's depth.
    pub depth: u32,
    /// Root moves finished in this iteration.
    pub root_done: usize,
    /// Root moves in this iteration.
    pub root_total: usize,
    /// Fraction of the whole search done, 0 to 1 (an estimate under a time budget).
    pub fraction: f64,
    /// Milliseconds since the search started.
    pub elapsed_ms: f64,
    /// A promise that another report follows within about the progress interval (the search is
    /// running and nothing silent comes first). False on the last report before work that reports
    /// nothing (a recorded tree built at the end of an iteration or of the search) and on the
    /// report of a stopped search. The page's worker bridge treats silence after a steady report
    /// as a dead worker (`www/engine-client.js`).
    pub steady: bool,
}

/// One root move with the value the search gave it.
#[derive(Debug, Clone, PartialEq)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// Its value from the root player's view (an upper bound when `exact` is false).
    pub value: f64,
    /// Whether the value is exact (alpha-beta gives bounds for moves worse than the best).
    pub exact: bool,
}

/// What a search returns.
#[derive(Debug, Clone)]
pub struct SearchResult<M> {
    /// The move to play (`None` at a finished game).
    pub best: Option<M>,
    /// The value of the best move from the root player's view.
    pub value: f64,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
    /// Rank (1 = best) of the chosen move among the root moves.
    pub rank: usize,
    /// Why it was chosen: `best`, `tie`, `randomness` or `random` (MCTS: `visits`, or `proven`
    /// when the solver proved the move's result).
    pub reason: &'static str,
    /// Root moves, best first.
    pub root_moves: Vec<RootMove<M>>,
    /// Whole-run statistics.
    pub stats: Stats,
    /// The recorded tree, when asked for.
    pub tree: Option<Tree>,
}
