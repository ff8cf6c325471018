//! Search algorithms generic over a [`Game`](crate::core::Game) and an
//! [`Evaluator`](crate::core::Evaluator): random, greedy, minimax, alpha-beta, expectimax and
//! Monte Carlo tree search (UCT), with
//! depth, time and node budgets, iterative deepening, move ordering by pre-score, a branching limit,
//! a transposition table, random tie-breaking and the randomness quotient.
//!
//! Values are always from the point of view of the player to move at the root (the maximising
//! player); chance turns take the probability-weighted mean of their outcomes.

mod config;
mod engine;
mod mcts;
mod shared_tt;
pub(crate) mod tt;
#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
pub(crate) mod wasm_threads;

pub use config::{
    Algorithm, Playout, Progress, RootMove, SearchConfig, SearchResult, DEFAULT_EXACT_ENDGAME,
    MAX_THREADS, MCTS_DEFAULT_ITERATIONS, SWITCHES,
};
pub use engine::{
    search, search_move, split_result, split_root_moves, Completed, Hooks, MoveSearch, SplitJob,
    SplitOutcome, SplitPayload, SplitPlan, SplitRoot,
};
pub use mcts::{expected_score_text, mcts_value_text};
