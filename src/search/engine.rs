//! The search itself: one recursive function for minimax, alpha-beta and expectimax, a root driver
//! with iterative deepening, budgets and the randomness quotient, and the document builder.

// The search passes windows, depths and handles explicitly and indexes children it reorders in
// place; these lints would push it towards shapes that cost speed or clarity here.
#![allow(
    clippy::type_complexity,
    clippy::too_many_arguments,
    clippy::needless_range_loop
)]

use super::config::{Algorithm, Progress, RootMove, SearchConfig, SearchResult};
use super::shared_tt::SharedTable;
use super::tt::{Table, Tt, NO_INDEX};
use crate::core::{
    now_ms, Error, Evaluator, Game, NoTerms, Outcome, PlayerId, Rng, Turn, WIN_SCORE,
};
use crate::tree::{
    Arena, Bound, Chosen, Header, NoRecorder, NodeKind, Note, PruneReason, Recorder, Stage, Stats,
    Tree, WorkerStats, LAZY, NO_STAGE,
};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};

mod smp;
mod split;

pub use split::{
    search_move, split_result, split_root_moves, MoveSearch, SplitJob, SplitOutcome, SplitPayload,
    SplitPlan, SplitRoot,
};

/// Late-move reductions: moves from this place in the order on (0 is the first) may be reduced.
const LMR_FIRST: usize = 3;
/// Late-move reductions: only at nodes with at least this much depth left.
const LMR_MIN_DEPTH: u32 = 3;
/// Log-formula reductions (games that give a [`Game::reduction_bias`]): the reduction of the
/// move at place `i` (0 is the first) at a node with `d` plies left is
/// `LOG_LMR_BASE + ln d * ln i / LOG_LMR_DIVISOR`, plus the move's bias, rounded down, between 0
/// and `d - 1` (a static evaluation). 1.0 and 0.8 since session 24 (0.75 and 1.5 before); with
/// the forward-pruning margins below, 57.8 % over 200 games at 30 ms a move against the old
/// constants (docs/ataxx.md, "Session 24").
const LOG_LMR_BASE: f64 = 1.0;
/// See [`LOG_LMR_BASE`].
const LOG_LMR_DIVISOR: f64 = 0.8;
/// Log-formula reductions: moves from this place in the order on may be reduced.
const LOG_LMR_FIRST: usize = 2;
/// Log-formula reductions: only at nodes with at least this much depth left.
const LOG_LMR_MIN_DEPTH: u32 = 2;
/// Log-formula reductions: plies fewer at a principal-variation node (one whose window is wider
/// than a null window), where a wrong guess costs most. Since session 25: 56.6 % over 400 games
/// at 30 ms a move against none; 2 scored 50.0 % over 100 (docs/ataxx.md, "Session 25").
const LOG_LMR_PV: i32 = 1;
/// Late-move pruning (games that give a [`Game::reduction_bias`]): at nodes with at most this
/// many plies left. Tuned by nodes to depth 9 and 30 ms matches (docs/benchmarks.md, "Ataxx:
/// forward pruning").
const LMP_MAX_DEPTH: u32 = 2;
/// The least depth left at which a parallel search defers a move another thread is searching
/// ([`Searcher::defer`]).
const DEFER_MIN_DEPTH: u32 = 3;
/// Futility pruning: a quiet move at a node with at most [`FUTILITY_MAX_DEPTH`] plies left is
/// skipped when the node's static evaluation plus this margin (evaluation units: hundredths of a
/// piece in Ataxx, the only game that prunes so; 150 until session 21, tuned with `net`; 100
/// with `nnue`, whose values are about two thirds of `net`'s; 60 since session 24), and
/// [`FUTILITY_PER_PLY`] for each ply left beyond the first, cannot reach the bound.
const FUTILITY_MARGIN: f64 = 60.0;
/// Futility pruning: at nodes with at most this many plies left (1 until session 15; Zataxx
/// uses 6). Tuned by 30 ms matches (docs/ataxx.md, "Why Zataxx searches twice as deep").
const FUTILITY_MAX_DEPTH: u32 = 4;
/// Futility pruning: the margin's growth for each ply left beyond the first (80 until session 21,
/// 50 until session 24).
const FUTILITY_PER_PLY: f64 = 30.0;
/// Reverse futility: at nodes with at most this many plies left (3 until session 15; Zataxx
/// uses 6). Tuned by 30 ms matches (docs/ataxx.md, "Why Zataxx searches twice as deep").
const RFP_MAX_DEPTH: u32 = 6;
/// Reverse futility: a node whose static evaluation is beyond the bound by this margin per ply
/// left (evaluation units; Ataxx: 1.2 until session 15, 0.8 until session 21, 0.5 with `nnue`
/// until session 24, 0.2 since) returns it without searching a move. The three margins at
/// 50/100/50 against 80/150/80, both with `nnue`: 58.5 % over 100 games at 30 ms (docs/ataxx.md,
/// "Session 21"); 20/60/30 with the reductions of [`LOG_LMR_BASE`]: "Session 24".
const RFP_MARGIN: f64 = 20.0;

/// Internal iterative reduction (off by default, on in Ataxx since session 29): nodes with at least
/// this many plies left and no move from the transposition table are searched one ply shallower.
/// Zataxx uses 3; in Ataxx 4 searched the fewest nodes to depth 10, and neither 3 nor 4 was shown
/// stronger at equal time (docs/ataxx.md, "Search levers (session 17)").
const IIR_MIN_DEPTH: u32 = 4;

/// Singular extensions ([`SearchConfig::singular_extensions`]): only at nodes with at least this
/// many plies left (Zataxx: 6).
const SE_MIN_DEPTH: u32 = 6;
/// Singular extensions: the table's entry may be this many plies shallower than the node.
const SE_DEPTH_MARGIN: u32 = 3;
/// Singular extensions: the other moves must stay this far short of the table's value, per ply
/// left (evaluation units: hundredths of a piece in Ataxx). Ataxx at 30 ms a move, 200 games
/// each against the search without them: 0.5 (Zataxx's margin in these units) 52.2 %, 2 57.0 %,
/// 4 55.5 % (docs/ataxx.md, "Session 26").
const SE_MARGIN: f64 = 2.0;

/// A null window at `x` for the side to move: whether its value reaches `x` (at least `x` for the
/// maximizing side, at most `x` for the other).
#[inline(always)]
fn null_window_at(maximizing: bool, x: f64) -> (f64, f64) {
    if maximizing {
        (x.next_down(), x)
    } else {
        (x, x.next_up())
    }
}

/// Whether the window (`alpha`, `beta`) is wider than a null window for the side to move: a
/// principal-variation node.
#[inline(always)]
fn pv_window(maximizing: bool, alpha: f64, beta: f64) -> bool {
    if maximizing {
        beta > alpha.next_up()
    } else {
        alpha < beta.next_down()
    }
}

/// Late-move pruning: moves from this place in the order on (0 is the first) may be skipped at a
/// node with `depth` plies left: 3 at one ply, 7 at two.
#[inline]
fn lmp_first(depth: u32) -> usize {
    3 + 4 * (depth as usize - 1)
}
/// Late-move pruning at every depth ([`SearchConfig::late_move_pruning_all_depths`]): moves from
/// this place in the order on (0 is the first) may be skipped, at any depth (Zataxx: 2).
const LMP_ALL_FIRST: usize = 2;
/// Null-move pruning: only at nodes with at least this much depth left.
const NULL_MIN_DEPTH: u32 = 3;
/// The history table's entries per side (a power of two; moves are hashed into it).
const HISTORY_SLOTS: usize = 4096;
/// The history heuristic brings this many moves to the front, best score first; the rest keep
/// the move generator's order. Instructions to depth 7 on three Ataxx positions (callgrind):
/// every move sorted 1,470 M, 1 pick 745 M, 2 picks 890 M, no history 637 M; Reversi at depth 9
/// (two positions): every move 127.9 M, 2 picks 123.5 M, 1 pick 125.6 M.
const HISTORY_PICKS: usize = 2;
/// History malus ([`SearchConfig::history_malus`]): a history score is kept as this plus a
/// signed value, so the unsigned order is the signed one.
const HISTORY_NEUTRAL: u32 = 1 << 31;
/// History malus: a cut-off adds this much per ply left to its move's score (at most
/// [`HISTORY_STEP_MAX`]) and takes as much from each move searched before it at that node.
/// Zataxx's values (read for facts).
const HISTORY_STEP_PER_PLY: i64 = 300;
/// History malus: the most one cut-off adds or takes.
const HISTORY_STEP_MAX: i64 = 1500;
/// History malus: the scale of the scores. Each step is scaled by the score's size against it
/// (see [`history_step`]): a positive score approaches it and stays below, a negative one sinks
/// faster the lower it is.
const HISTORY_LIMIT: i64 = 16384;
/// History malus: the lowest score (far below [`HISTORY_LIMIT`], within the kept range).
const HISTORY_FLOOR: i64 = -(1 << 30);

/// Adds `step` (signed) to a history score kept around [`HISTORY_NEUTRAL`]: the new value is
/// `v + s - |s| |v| / L`. A bonus shrinks as the score grows either way; a malus grows as the
/// score sinks, so a move that keeps failing soon ranks below every move that ever cut. Zataxx
/// and Stockfish scale by `v` itself, which bounds negative scores too: at 100,000 Zataxx nodes
/// against 170,000 of Plyscope's that scored 11.7 % over 300 games, this 18.8 %, none 15.2 %
/// (docs/ataxx.md, "Session 31").
#[inline]
fn history_step(h: &mut u32, step: i64) {
    let v = *h as i64 - HISTORY_NEUTRAL as i64;
    let v = v + step - step.abs() * v.abs() / HISTORY_LIMIT;
    *h = (v.clamp(HISTORY_FLOOR, HISTORY_LIMIT) + HISTORY_NEUTRAL as i64) as u32;
}

/// Places in the order the log-formula table covers (later moves reduce as the last).
const LMR_PLACES: usize = 64;
/// Depths the log-formula table covers (deeper nodes reduce as the last).
const LMR_DEPTHS: usize = 64;

/// The log-formula reductions by depth left and place (see [`LOG_LMR_BASE`]), before the bias.
fn log_lmr_table() -> Vec<[u8; LMR_PLACES]> {
    let (base, div) = (LOG_LMR_BASE, LOG_LMR_DIVISOR);
    (0..LMR_DEPTHS)
        .map(|d| {
            let mut row = [0u8; LMR_PLACES];
            for (i, r) in row.iter_mut().enumerate() {
                if d >= 1 && i >= 1 {
                    let v = base + (d as f64).ln() * (i as f64).ln() / div;
                    *r = v.clamp(0.0, 60.0) as u8;
                }
            }
            row
        })
        .collect()
}

/// Lazy move ordering (Ataxx): keys picked one at a time before the rest are sorted at once.
const LAZY_PICKS: usize = 3;

/// A move's sort key: its signed pre-score (lower first) in the high 64 bits, as an unsigned
/// number in the order of `f64::total_cmp`, and its slot (breaking ties) in the low 32. Keys
/// compare as plain integers, so sorting and picking need no float comparisons.
type OrderKey = u128;

/// The sort key of a signed pre-score and a slot.
#[inline(always)]
fn order_key(score: f64, slot: u32) -> OrderKey {
    let b = score.to_bits();
    let ordered = if b >> 63 == 1 { !b } else { b | 1 << 63 };
    ((ordered as u128) << 32) | slot as u128
}

/// The slot of a sort key.
#[inline(always)]
fn key_slot(k: OrderKey) -> u32 {
    k as u32
}

/// The signed pre-score of a sort key.
#[inline(always)]
fn key_score(k: OrderKey) -> f64 {
    let ordered = (k >> 32) as u64;
    f64::from_bits(if ordered >> 63 == 1 {
        ordered & !(1 << 63)
    } else {
        !ordered
    })
}

/// The sort key of a whole-number signed pre-score with a history score folded in (Ataxx): the
/// pre-score times 2^33 less the history score (below 2^32), so equal pre-scores go best
/// history first; then the slot. Made in integers, in the order the same sum would take as an
/// `f64` in [`order_key`] (pre-scores are clamped to 2^29, far beyond any evaluation).
#[inline(always)]
fn history_key(score: f64, history: u32, slot: u32) -> OrderKey {
    let whole = (score as i64).clamp(-(1 << 29), 1 << 29);
    let k = (whole << 33) - history as i64;
    ((((k as u64) ^ (1 << 63)) as u128) << 32) | slot as u128
}

/// Moves the least key of `keys[i..]` to place `i`.
#[inline]
fn pick_best(keys: &mut [OrderKey], i: usize) {
    let mut best = i;
    let mut low = keys[i];
    for (j, &k) in keys.iter().enumerate().skip(i + 1) {
        if k < low {
            low = k;
            best = j;
        }
    }
    keys.swap(i, best);
}

/// A small, fast hasher for moves (the history table's index).
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u8(&mut self, b: u8) {
        self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u16(&mut self, x: u16) {
        self.0 = (self.0.rotate_left(5) ^ x as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, x: u32) {
        self.0 = (self.0.rotate_left(5) ^ x as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64)
    }
}

/// The history table's slot of `m` for the maximising side (`side` 0) or the other (1).
#[inline]
fn history_slot<M: Hash>(m: &M, side: usize) -> usize {
    let mut h = MoveHasher(0);
    m.hash(&mut h);
    side * HISTORY_SLOTS + (h.0 >> 40) as usize % HISTORY_SLOTS
}

/// How often (in nodes) the search looks at the clock, the stop flag and the node budget.
const CHECK_EVERY: u64 = 1024;

/// Probability steps (see [`SearchConfig::probability_steps`]): the first step's chance cut-off.
const PROB_STEP_START: f64 = 0.01;
/// Probability steps: each step divides the cut-off by this (two to four times the nodes), until
/// the last step, which is sized to the budget left (see `next_step_cutoff`).
const PROB_STEP_FACTOR: f64 = 2.0;
/// Probability steps: when two more halvings no longer fit the budget, a last step at the finest
/// cut-off predicted to fit is searched, aiming at this share of what is left...
const PROB_STEP_FILL: f64 = 0.7;
/// ...provided its cut-off is at least this many times finer than the last step's.
const PROB_STEP_MIN_RATIO: f64 = 1.25;
/// Probability steps: how a step's cost grows with a finer cut-off (cost ~ cut-off^-alpha) until
/// two steps have been measured.
const PROB_STEP_ALPHA: f64 = 1.0;

/// Things the caller can attach to a running search.
#[derive(Default)]
pub struct Hooks<'a> {
    /// Set to `true` from elsewhere to stop the search; it stops within 1,024 nodes.
    pub stop: Option<&'a AtomicBool>,
    /// Called with the search's progress, at most every `progress_every_ms` milliseconds, and
    /// once after each completed iteration.
    pub progress: Option<&'a mut dyn FnMut(&Progress)>,
    /// Interval between progress calls; 100 ms when zero.
    pub progress_every_ms: f64,
    /// When the tree is recorded: called with the tree of each completed iteration of iterative
    /// deepening, as it completes (for a live view).
    pub iteration: Option<&'a mut dyn FnMut(&Tree)>,
    /// Called after each completed iteration of iterative deepening with its depth, best value
    /// and principal variation (an engine protocol's `info` line).
    pub completed: Option<&'a mut dyn FnMut(&Completed)>,
    /// Keep the transposition table's entries from the last search on this thread (the earlier
    /// moves of the same game), when that search was for the same root player; otherwise the
    /// table starts empty. Values in the table are from the root player's view, hence the
    /// condition. The UAI engine sets it between `uainewgame`s.
    pub keep_table: bool,
}

/// One completed iteration of iterative deepening, as [`Hooks::completed`] hears of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Completed {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The best root move's value, from the root player's view.
    pub value: f64,
    /// Nodes searched so far by the whole search.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub elapsed_ms: f64,
    /// The principal variation, as move texts (the game's notation), from the root.
    pub pv: Vec<String>,
}

/// A child of a node, made once and kept while the node is searched (copy-make).
#[derive(Clone)]
struct Child<G: Game> {
    mv: G::Move,
    state: G,
    prescore: f64,
    order: u32,
}

struct Searcher<'a, 'h, G: Game, E: Evaluator<G>, R: Recorder<G::Move>> {
    eval: &'a E,
    cfg: &'a SearchConfig,
    root_player: PlayerId,
    single_player: bool,
    prune: bool,
    nodes: u64,
    leaves: u64,
    prune_events: u64,
    pruned_nodes: u64,
    tt_hits: u64,
    /// Of those, hits on entries another thread stored (parallel search).
    tt_hits_other: u64,
    /// Static evaluations made because the depth ran out (not at finished games).
    horizon_leaves: u64,
    /// Of those, the ones made because the line's probability fell below `cutoff`.
    prob_cuts: u64,
    /// Chance nodes expanded.
    chance_nodes: u64,
    /// The chance cut-off of the current iteration (the configured one, or a coarser one in a
    /// probability step).
    cutoff: f64,
    start: f64,
    deadline: Option<f64>,
    next_check: u64,
    last_progress: f64,
    aborted: bool,
    hooks: Hooks<'h>,
    /// A parallel search's flag that a helper completed the depth first: it stops this search.
    answered: Option<&'a AtomicBool>,
    depth: u32,
    root_done: usize,
    root_total: usize,
    /// Per-ply buffers, reused so that the hot loop does not allocate once warm.
    kids: Vec<Vec<Child<G>>>,
    /// Per-ply sort keys ([`OrderKey`]: the signed pre-score, then the index into `kids` or
    /// `moves`).
    keys: Vec<Vec<OrderKey>>,
    moves: Vec<Vec<G::Move>>,
    /// Per-ply copies of the legal moves in generation order, kept with the shared table where
    /// the moves are reordered in place: the table stores the best move as its place in that order.
    listed: Vec<Vec<G::Move>>,
    /// Per-ply buffers of the places of the moves put off because another thread was searching
    /// them ([`Searcher::defer`]).
    deferred: Vec<Vec<u32>>,
    /// A parallel search's deferral ([`SearchConfig::defer_busy`]): at nodes with at least
    /// [`DEFER_MIN_DEPTH`] plies left, each move is marked in the shared table's busy words while
    /// this thread searches it, and (when no tree is recorded) a move other than the node's first
    /// that another thread is searching is put off until the node's other moves are searched,
    /// when the table may hold its result (the deferral of ABDADA, Weill 1996).
    defer: bool,
    /// Moves put off so.
    deferrals: u64,
    outcomes: Vec<Vec<(G::Move, f64)>>,
    pv: Vec<Vec<G::Move>>,
    tt: Option<Tt<'a, G::Move>>,
    /// The modern alpha-beta techniques in use (their switches, and alpha-beta).
    pvs: bool,
    lmr: bool,
    killers_on: bool,
    history_on: bool,
    /// History malus (with the history heuristic): moves searched before a cut-off lose score.
    malus_on: bool,
    /// History malus: per ply, the moves searched so far at that ply's node.
    searched: Vec<Vec<G::Move>>,
    /// Internal iterative reduction (alpha-beta, with a table).
    iir_on: bool,
    /// Singular extensions (alpha-beta, with a table).
    se_on: bool,
    /// Per ply, the move a singular search leaves out (its node's table move), while it runs.
    excluded: Vec<Option<G::Move>>,
    /// Singular searches, the table moves they extended and shortened, and the nodes they cut.
    singular_searches: u64,
    singular_extended: u64,
    singular_shortened: u64,
    multi_cuts: u64,
    null_on: bool,
    lmp_on: bool,
    /// Late-move pruning at every depth.
    lmp_all_on: bool,
    futility_on: bool,
    /// Moves skipped by late-move and futility pruning.
    forward_pruned: u64,
    /// Per-ply buffers of the moves forward pruning skipped (only when a tree is recorded).
    skipped: Vec<Vec<G::Move>>,
    /// Two killer moves per ply.
    killers: Vec<[Option<G::Move>; 2]>,
    /// Log-formula reductions by (depth left, place in the order), before the move's bias.
    lmr_table: Vec<[u8; LMR_PLACES]>,
    /// Cut-off counts by (side, hashed move), weighted by depth squared.
    history: Vec<u32>,
    /// Scratch: the history scores of one node's moves.
    scores: Vec<u32>,
    /// The least depth left at which moves are ordered by pre-score: 1 where the evaluator asks
    /// for it ([`Evaluator::order_near_leaves`]) and gives pre-scores from the parent without
    /// making children ([`Evaluator::prescore_move`]), else 2. At 1, equal pre-scores are also
    /// ordered by the history heuristic.
    order_min_depth: u32,
    /// The ply reached by a null move (no second null move right after it).
    null_ply: usize,
    researches: u64,
    reductions: u64,
    null_cuts: u64,
    aspiration_fails: u64,
    /// Lines that did not end in a finished game: static evaluations at the horizon, null-move
    /// cuts, and table answers that were not settled. While it does not grow, the iteration has
    /// seen the end of every line.
    unsettled: u64,
    rec: R,
    /// Breakdowns waiting to be recorded (empty when nothing is recorded).
    stage: Stage,
}

/// Searches `root` and returns the move to play, with statistics and (when the configuration asks)
/// the recorded tree. Values are from the point of view of the player to move at the root.
///
/// Errors: an invalid configuration, or a root where no player is to move (a finished game or a
/// chance turn).
pub fn search<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    cfg: &SearchConfig,
    hooks: Hooks<'_>,
) -> Result<SearchResult<G::Move>, Error> {
    cfg.validate()?;
    let root_player = match root.turn() {
        Turn::Player(p) => p,
        Turn::Chance => {
            return Err(Error::NotNow(
                "it is nature's turn (a chance move), not a player's".into(),
            ))
        }
        Turn::Terminal => {
            return Err(Error::NotNow(
                "the game is over: there is no move to search".into(),
            ))
        }
    };
    if cfg.algorithm == Algorithm::Mcts {
        return super::mcts::search(root, eval, cfg, hooks, root_player);
    }
    if smp::parallel(cfg) {
        return if cfg.record_tree {
            let rec = Arena::take(cfg.node_cap, cfg.tree_max_bytes);
            smp::run_parallel(root, eval, cfg, hooks, root_player, rec)
        } else {
            smp::run_parallel(root, eval, cfg, hooks, root_player, NoRecorder)
        };
    }
    if cfg.record_tree {
        run(
            root,
            eval,
            cfg,
            hooks,
            root_player,
            Arena::take(cfg.node_cap, cfg.tree_max_bytes),
            None,
            Vec::new,
        )
    } else {
        run(
            root,
            eval,
            cfg,
            hooks,
            root_player,
            NoRecorder,
            None,
            Vec::new,
        )
    }
}

/// Recorders the root driver can restart between iterations.
trait Restart<G: Game>: Recorder<G::Move> + Sized {
    fn fresh(&self) -> Self;
    /// An empty recorder that holds no memory (to take the place of one given back).
    fn empty(&self) -> Self;
    /// Done with: keeps its memory for the next search on this thread.
    fn recycle(self) {}
    /// The recorded tree (nodes only; the caller fills the header), `best` along `pv`, with the
    /// breakdowns left for later made by `eval` from `player`'s view.
    fn snapshot<E: Evaluator<G>>(
        &self,
        root: &G,
        stage: &Stage,
        pv: &[G::Move],
        eval: &E,
        player: PlayerId,
    ) -> Option<Tree>;
}

impl<G: Game> Restart<G> for NoRecorder {
    fn fresh(&self) -> Self {
        NoRecorder
    }
    fn empty(&self) -> Self {
        NoRecorder
    }
    fn snapshot<E: Evaluator<G>>(
        &self,
        _: &G,
        _: &Stage,
        _: &[G::Move],
        _: &E,
        _: PlayerId,
    ) -> Option<Tree> {
        None
    }
}

impl<G: Game> Restart<G> for Arena<G::Move> {
    fn fresh(&self) -> Self {
        Arena::take(self.node_cap(), self.byte_cap())
    }
    fn empty(&self) -> Self {
        Arena::fresh(self)
    }
    fn recycle(self) {
        self.give_back()
    }
    fn snapshot<E: Evaluator<G>>(
        &self,
        root: &G,
        stage: &Stage,
        pv: &[G::Move],
        eval: &E,
        player: PlayerId,
    ) -> Option<Tree> {
        (!self.is_empty()).then(|| self.build_with(root, stage, pv, eval, player))
    }
}

/// The search on this thread. `par`: the table of a parallel search, whose helper threads
/// `finish` stops and reports on once this search is done (before the tree document is built),
/// and the answer a helper leaves when it completes the depth first (the result then).
fn run<G: Game, E: Evaluator<G>, R: Restart<G>>(
    root: &G,
    eval: &E,
    cfg: &SearchConfig,
    hooks: Hooks<'_>,
    root_player: PlayerId,
    rec: R,
    par: Option<smp::Parallel<'_, G::Move>>,
    finish: impl FnOnce() -> Vec<WorkerStats>,
) -> Result<SearchResult<G::Move>, Error> {
    let start = now_ms();
    let mut rng = Rng::seeded(cfg.seed.unwrap_or_else(Rng::entropy_seed));
    let keep_table = hooks.keep_table;
    let shared = par.map(|p| p.table);
    let answer = par.and_then(|p| p.answer);
    let tt = match shared {
        Some(t) => Some(Tt::Shared(t, 0)),
        None => cfg
            .uses_tt()
            .then(|| Tt::Local(Table::take(cfg.tt_bits, keep_table, root_player))),
    };
    let mut s = Searcher::new(root, eval, cfg, hooks, root_player, rec, tt, start);
    s.answered = answer.map(smp::Answer::ready);
    s.defer = shared.is_some() && cfg.defer_busy;

    let mut root_moves_buf = Vec::new();
    root.legal_moves(&mut root_moves_buf);
    if root_moves_buf.is_empty() {
        return Err(Error::NotNow("the player to move has no legal move".into()));
    }

    if cfg.algorithm == Algorithm::Random {
        return Ok(random_move(root, cfg, &mut s, &mut rng, &root_moves_buf));
    }

    let max_depth = if cfg.algorithm == Algorithm::Greedy {
        1
    } else {
        cfg.depth
    };
    let deepening = cfg.iterative_deepening || cfg.time_ms.is_some() || cfg.node_budget.is_some();
    let first_depth = if deepening { 1 } else { max_depth };

    // Root children, made once. Their order carries over between iterations (best first).
    let (mut root_kids, searched) = s.root_children(root, &root_moves_buf, max_depth);

    let mut done: Option<(Vec<RootMove<G::Move>>, Vec<Vec<G::Move>>, u32, R)> = None;
    let mut partial: Option<(Vec<RootMove<G::Move>>, Vec<Vec<G::Move>>, R)> = None;
    // Durations of the last two full iterations, to guess what the next one costs, and of the
    // last two probability steps.
    let mut durations = (0.0f64, 0.0f64);
    let mut step_durations = (0.0f64, 0.0f64);
    // The same for their node counts (for a node budget).
    let mut counts = (0u64, 0u64);
    let mut step_counts = (0u64, 0u64);
    // And the chance cut-offs of the last two probability steps.
    let mut step_cutoffs = (0.0f64, 0.0f64);
    let stepping = cfg.algorithm == Algorithm::Expectimax
        && cfg.probability_steps
        && (s.deadline.is_some() || cfg.node_budget.is_some());
    // Nodes of the last full iteration: a probability step replaces its result only when it
    // searched at least half as many (at equal cost a step's tree plays better than a full depth's,
    // a much smaller one does not).
    let mut full_nodes = 0u64;
    let mut depth = first_depth;
    loop {
        s.depth = depth;
        let iteration_cutoff = s.cutoff;
        let step = iteration_cutoff > cfg.chance_cutoff;
        if step {
            // Entries of a coarser step at the same depth must not answer a finer one.
            if let Some(tt) = &mut s.tt {
                tt.next_generation();
            }
        }
        let began = now_ms();
        let (nodes_before, cuts_before, chance_before) = (s.nodes, s.prob_cuts, s.chance_nodes);
        let unsettled_before = s.unsettled;
        // Aspiration: a window around the last depth's value, opened on the side it fails.
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        if cfg.aspiration && s.prune && cfg.randomness_quotient <= 1 && !step {
            let last = done
                .as_ref()
                .and_then(|d| d.0.iter().map(|r| r.value).max_by(f64::total_cmp));
            if let Some(v) = last.filter(|v| v.is_finite()) {
                let delta = if cfg.aspiration_window > 0.0 {
                    cfg.aspiration_window
                } else {
                    (v.abs() * 0.1).max(1.0)
                };
                (lo, hi) = (v - delta, v + delta);
            }
        }
        let mut widen = 0;
        let (values, pvs, complete) = loop {
            let (values, pvs, complete) =
                s.root_iteration(root, &mut root_kids, searched, depth, lo, hi);
            if !complete || values.is_empty() {
                break (values, pvs, complete);
            }
            let best = values
                .iter()
                .map(|v| v.1)
                .max_by(f64::total_cmp)
                .unwrap_or(f64::NEG_INFINITY);
            // Widen the side that failed four times as far, then open it.
            if best <= lo {
                lo = if widen < 2 {
                    best - 4.0 * (hi - lo)
                } else {
                    f64::NEG_INFINITY
                };
            } else if best >= hi {
                hi = if widen < 2 {
                    best + 4.0 * (hi - lo)
                } else {
                    f64::INFINITY
                };
            } else {
                break (values, pvs, complete);
            }
            widen += 1;
            // The window failed: search this depth again with that side open.
            s.aspiration_fails += 1;
            let fresh = s.rec.fresh();
            std::mem::replace(&mut s.rec, fresh).recycle();
        };
        let took = now_ms() - began;
        let iteration_nodes = s.nodes - nodes_before;
        if step {
            step_durations = (step_durations.1, took);
            step_counts = (step_counts.1, iteration_nodes);
            step_cutoffs = (step_cutoffs.1, iteration_cutoff);
        } else {
            durations = (durations.1, took);
            counts = (counts.1, iteration_nodes);
        }
        // Every completed iteration is reported, whatever the clock's resolution, so a caller
        // hears of each depth reached even when the search is too quick for a timed report.
        if complete && !s.aborted {
            let now = now_ms();
            s.last_progress = now;
            // Not steady when a tree is recorded: the iteration's tree is built next, silently.
            s.report(now, !R::ACTIVE);
        }
        let rec = {
            let fresh = s.rec.fresh();
            std::mem::replace(&mut s.rec, fresh)
        };
        // A step that cut no line by probability searched the full depth.
        let was_full = !step || s.prob_cuts == cuts_before;
        if complete {
            if was_full || 2 * iteration_nodes >= full_nodes {
                // Next iteration: best first, the rest by this iteration's values.
                let mut ranked: Vec<(usize, f64)> = values.iter().map(|v| (v.0, v.1)).collect();
                ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
                let order: Vec<usize> = ranked.iter().map(|r| r.0).collect();
                let roots = root_moves_of(&values, &root_kids);
                let reordered: Vec<Child<G>> =
                    order.iter().map(|&i| root_kids[i].clone()).collect();
                root_kids[..searched].clone_from_slice(&reordered);
                if let Some(cb) = s.hooks.completed.as_mut() {
                    // The first of equal best values, as the final ranking (a stable sort)
                    // plays: a later move can equal it with a bound and no line of its own.
                    let best = values
                        .iter()
                        .enumerate()
                        .reduce(|a, b| if b.1 .1 > a.1 .1 { b } else { a })
                        .map(|(i, v)| (i, v.1));
                    if let Some((i, value)) = best {
                        cb(&Completed {
                            depth,
                            value,
                            nodes: s.nodes,
                            elapsed_ms: now_ms() - s.start,
                            pv: pv_texts(root, &pvs[i]),
                        });
                    }
                }
                if let Some(old) = done.replace((roots, pvs, depth, rec)) {
                    old.3.recycle();
                }
                if R::ACTIVE && s.hooks.iteration.is_some() {
                    if let Some((roots, pvs, depth, rec)) = &done {
                        s.report_iteration(root, roots, pvs, *depth, rec);
                    }
                }
            } else {
                rec.recycle();
            }
            if was_full {
                full_nodes = iteration_nodes;
                if step {
                    durations = (durations.1, took);
                    counts = (counts.1, iteration_nodes);
                }
                s.cutoff = cfg.chance_cutoff;
            }
            // Every line of this iteration ended in a finished game: deeper ones would repeat it.
            let solved = s.unsettled == unsettled_before;
            if s.aborted || solved || (was_full && depth >= max_depth) {
                break;
            }
            if was_full {
                // The next depth in full when it looks affordable; otherwise (expectimax under a
                // budget, with chance turns in sight) in probability steps: the next depth with
                // a coarse cut-off, then finer ones, each a few times the cost of the last.
                let chance_seen = s.chance_nodes > chance_before;
                if stepping && chance_seen && s.out_of_budget_for_next(durations, counts, true) {
                    s.cutoff = PROB_STEP_START.max(cfg.chance_cutoff);
                    step_durations = (0.0, 0.0);
                    step_counts = (0, 0);
                    step_cutoffs = (0.0, 0.0);
                } else if !cfg.whole_budget && s.out_of_budget_for_next(durations, counts, false) {
                    break;
                }
                depth += 1;
            } else {
                match s.next_step_cutoff(step_durations, step_counts, step_cutoffs) {
                    Some(next) => s.cutoff = next,
                    None => break,
                }
                if s.cutoff <= cfg.chance_cutoff * PROB_STEP_FACTOR.sqrt() {
                    s.cutoff = cfg.chance_cutoff;
                }
            }
        } else {
            if done.is_none() && !values.is_empty() {
                let roots = root_moves_of(&values, &root_kids);
                partial = Some((roots, pvs, rec));
            } else {
                // Alpha-beta only: an expectimax iteration may be a probability step (a coarser
                // cut-off, not a deeper search), and Threes keeps its measured behaviour.
                if !R::ACTIVE && s.prune && !step {
                    if let Some(d) = done.as_mut() {
                        promote_deeper(&mut d.0, &mut d.1, &values, &pvs, &root_kids, lo);
                    }
                }
                rec.recycle();
            }
            break;
        }
    }

    // A helper that completed the depth first answers (its depth is the deepest asked).
    let own_depth = done.as_ref().map_or(0, |d| d.2);
    if let Some(a) = answer.and_then(smp::Answer::take) {
        if a.depth > own_depth {
            if let Some(old) = done.replace((a.roots, a.pvs, a.depth, s.rec.fresh())) {
                old.3.recycle();
            }
        }
    }
    let (roots, pvs, depth_reached, rec) = match (done, partial) {
        (Some(d), _) => d,
        (None, Some((r, p, rec))) => (r, p, 0, rec),
        (None, None) => {
            // Stopped before a single root move was searched: play the first by pre-score.
            let kid = &root_kids[0];
            (
                vec![RootMove {
                    mv: kid.mv,
                    value: kid.prescore,
                    exact: false,
                }],
                vec![vec![kid.mv]],
                0,
                s.rec.fresh(),
            )
        }
    };

    // Rank root moves, shuffle equal best ones, then apply the randomness quotient.
    let mut ranked: Vec<(RootMove<G::Move>, Vec<G::Move>)> = roots.into_iter().zip(pvs).collect();
    ranked.sort_by(|a, b| b.0.value.total_cmp(&a.0.value));
    let best_value = ranked[0].0.value;
    let (k, reason) = pick_played(&mut ranked, |r| (r.0.value, r.0.exact), cfg, &mut rng);
    let chosen = ranked[k].0.clone();
    let pv = ranked[k].1.clone();
    let root_moves: Vec<RootMove<G::Move>> = ranked.into_iter().map(|r| r.0).collect();

    let mut stats = s.stats(depth_reached);
    if shared.is_some() {
        stats.workers = smp::workers(&s, own_depth, finish());
    }
    if let Some(tt) = s.tt.take() {
        tt.give_back();
    }
    let mut result = SearchResult {
        best: Some(chosen.mv),
        value: best_value,
        pv,
        rank: k + 1,
        reason,
        root_moves,
        stats,
        tree: None,
    };
    if let Some(tree) = rec.snapshot(root, &s.stage, &result.pv, eval, root_player) {
        result.stats.truncated = tree.head.stats.truncated;
        result.stats.full_levels = tree.head.stats.full_levels;
        result.stats.tree_bytes = tree.head.stats.tree_bytes;
        result.tree = Some(document(root, eval, cfg, &result, tree, root_player));
    }
    if R::ACTIVE {
        rec.recycle();
        let unused = s.rec.empty();
        std::mem::replace(&mut s.rec, unused).recycle();
    }
    Ok(result)
}

/// An iteration stopped by the budget still says something when a root move searched in it beat
/// the first one (the last iteration's best, searched first) at the deeper depth: the first
/// move's deeper value is below that move's, so the last completed iteration's choice is refuted.
/// Then that move (the best such) is played: it takes its deeper value and line in `roots` and
/// `pvs` (the last completed iteration's), and every other move is valued below it (and marked
/// inexact where that lowered it). `values` are the stopped iteration's (child index, value,
/// exact), in search order, `lo` its window's lower end. Without such a move nothing changes.
///
/// Only when no tree is recorded: a recorded search shows the last completed iteration's tree,
/// and its choice stays the one that tree explains.
fn promote_deeper<G: Game>(
    roots: &mut [RootMove<G::Move>],
    pvs: &mut [Vec<G::Move>],
    values: &[(usize, f64, bool)],
    partial_pvs: &[Vec<G::Move>],
    kids: &[Child<G>],
    lo: f64,
) {
    let Some(&(first, first_value, _)) = values.first() else {
        return;
    };
    // A later move counts only with a value above the window's lower end (a fail-low is a bound
    // from above, not a value) and above the first move's.
    let Some((k, &(i, v, exact))) = values
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, e)| e.0 != first && e.1 > first_value && e.1 > lo)
        .max_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
    else {
        return;
    };
    let mv = kids[i].mv;
    let Some(at) = roots.iter().position(|r| r.mv == mv) else {
        return;
    };
    for (j, r) in roots.iter_mut().enumerate() {
        if j == at {
            r.value = v;
            r.exact = exact;
        } else if r.value >= v {
            r.value = v.next_down();
            r.exact = false;
        }
    }
    pvs[at] = partial_pvs[k].clone();
}

/// A line of moves from `root` as texts, up to the first that does not play.
fn pv_texts<G: Game>(root: &G, line: &[G::Move]) -> Vec<String> {
    let mut p = root.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        out.push(p.format_move(m));
        if p.play(m).is_err() {
            break;
        }
    }
    out
}

impl<'a, 'h, G: Game, E: Evaluator<G>, R: Recorder<G::Move>> Searcher<'a, 'h, G, E, R> {
    /// A searcher for `root` with nothing searched yet, using `tt` as its table.
    fn new(
        root: &G,
        eval: &'a E,
        cfg: &'a SearchConfig,
        hooks: Hooks<'h>,
        root_player: PlayerId,
        rec: R,
        tt: Option<Tt<'a, G::Move>>,
        start: f64,
    ) -> Self {
        Searcher {
            eval,
            cfg,
            root_player,
            single_player: root.num_players() == 1,
            prune: cfg.algorithm == Algorithm::Alphabeta,
            nodes: 0,
            leaves: 0,
            prune_events: 0,
            pruned_nodes: 0,
            tt_hits: 0,
            tt_hits_other: 0,
            horizon_leaves: 0,
            prob_cuts: 0,
            chance_nodes: 0,
            cutoff: cfg.chance_cutoff,
            start,
            deadline: cfg.time_ms.map(|t| start + t as f64),
            next_check: CHECK_EVERY.min(cfg.node_budget.unwrap_or(u64::MAX)),
            last_progress: start,
            aborted: false,
            hooks,
            answered: None,
            depth: 0,
            root_done: 0,
            root_total: 0,
            kids: Vec::new(),
            keys: Vec::new(),
            moves: Vec::new(),
            listed: Vec::new(),
            deferred: Vec::new(),
            defer: false,
            deferrals: 0,
            scores: Vec::new(),
            order_min_depth: {
                let mut first = Vec::new();
                root.legal_moves(&mut first);
                match first.first() {
                    Some(&m)
                        if eval.order_near_leaves()
                            && eval.prescore_move(root, m, root_player).is_some() =>
                    {
                        1
                    }
                    _ => 2,
                }
            },
            outcomes: Vec::new(),
            pv: Vec::new(),
            tt,
            pvs: cfg.pvs && cfg.algorithm == Algorithm::Alphabeta,
            lmr: cfg.lmr && cfg.algorithm == Algorithm::Alphabeta,
            killers_on: cfg.killers && cfg.algorithm == Algorithm::Alphabeta,
            history_on: cfg.history && cfg.algorithm == Algorithm::Alphabeta,
            malus_on: cfg.history && cfg.history_malus && cfg.algorithm == Algorithm::Alphabeta,
            searched: Vec::new(),
            iir_on: cfg.internal_reduction && cfg.algorithm == Algorithm::Alphabeta,
            se_on: cfg.singular_extensions && cfg.algorithm == Algorithm::Alphabeta,
            excluded: Vec::new(),
            singular_searches: 0,
            singular_extended: 0,
            singular_shortened: 0,
            multi_cuts: 0,
            null_on: cfg.null_move && cfg.algorithm == Algorithm::Alphabeta,
            lmp_on: cfg.late_move_pruning && cfg.algorithm == Algorithm::Alphabeta,
            lmp_all_on: cfg.late_move_pruning_all_depths && cfg.algorithm == Algorithm::Alphabeta,
            futility_on: cfg.futility && cfg.algorithm == Algorithm::Alphabeta,
            forward_pruned: 0,
            skipped: Vec::new(),
            killers: Vec::new(),
            lmr_table: log_lmr_table(),
            history: if cfg.history && cfg.algorithm == Algorithm::Alphabeta {
                // With the malus, scores are kept around a neutral value (see `history_step`).
                let neutral = if cfg.history_malus {
                    HISTORY_NEUTRAL
                } else {
                    0
                };
                vec![neutral; 2 * HISTORY_SLOTS]
            } else {
                Vec::new()
            },
            null_ply: usize::MAX,
            researches: 0,
            reductions: 0,
            null_cuts: 0,
            aspiration_fails: 0,
            unsettled: 0,
            rec,
            stage: Stage::new(),
        }
    }
}

/// Which of the ranked root moves (best first; `value` gives a move's value and whether it is
/// exact) is played, and why: with random ties, one of the exact equal best moves is swapped to
/// the front ("tie"); then the randomness quotient `q` steps down the ranking with chance 1/q at
/// each step ("randomness"); otherwise the first ("best"). Returns its index and the reason.
pub(super) fn pick_played<T>(
    ranked: &mut [T],
    value: impl Fn(&T) -> (f64, bool),
    cfg: &SearchConfig,
    rng: &mut Rng,
) -> (usize, &'static str) {
    let best_value = value(&ranked[0]).0;
    let ties = ranked
        .iter()
        .map(&value)
        .take_while(|&(v, exact)| exact && (v - best_value).abs() < 1e-9)
        .count();
    let mut reason = "best";
    if cfg.random_ties && ties > 1 {
        let pick = rng.below(ties as u64) as usize;
        ranked.swap(0, pick);
        reason = "tie";
    }
    let mut k = 0;
    if cfg.randomness_quotient > 1 {
        while k + 1 < ranked.len() && rng.below(cfg.randomness_quotient as u64) == 0 {
            k += 1;
        }
        if k > 0 {
            reason = "randomness";
        }
    }
    (k, reason)
}

/// The root moves of an iteration's (child index, value, exact) triples.
fn root_moves_of<G: Game>(
    values: &[(usize, f64, bool)],
    kids: &[Child<G>],
) -> Vec<RootMove<G::Move>> {
    values
        .iter()
        .map(|&(i, value, exact)| RootMove {
            mv: kids[i].mv,
            value,
            exact,
        })
        .collect()
}

fn random_move<G: Game, E: Evaluator<G>, R: Restart<G>>(
    root: &G,
    cfg: &SearchConfig,
    s: &mut Searcher<'_, '_, G, E, R>,
    rng: &mut Rng,
    moves: &[G::Move],
) -> SearchResult<G::Move> {
    let pick = rng.below(moves.len() as u64) as usize;
    let mv = moves[pick];
    s.nodes = 1 + moves.len() as u64;
    let stats = Stats {
        nodes: s.nodes,
        time_ms: ((now_ms() - s.start) * 1000.0).round() / 1000.0,
        ..Stats::default()
    };
    let mut result = SearchResult {
        best: Some(mv),
        value: 0.0,
        pv: vec![mv],
        rank: 1,
        reason: "random",
        root_moves: moves
            .iter()
            .map(|&m| RootMove {
                mv: m,
                value: 0.0,
                exact: false,
            })
            .collect(),
        stats,
        tree: None,
    };
    if cfg.record_tree {
        let mut rec = Arena::new(cfg.node_cap, cfg.tree_max_bytes);
        let stage = Stage::new();
        let inf = f64::INFINITY;
        rec.open(None, None, NO_STAGE, &stage, -inf, inf);
        for &m in moves {
            rec.open(Some(m), None, NO_STAGE, &stage, -inf, inf);
            rec.close(NodeKind::Leaf, None, Bound::Exact, NO_STAGE, &stage, false);
        }
        rec.close(NodeKind::Max, None, Bound::Exact, NO_STAGE, &stage, false);
        let tree = rec.build(root, &stage, &[mv]);
        let player = match root.turn() {
            Turn::Player(p) => p,
            _ => 0,
        };
        result.tree = Some(document(root, s.eval, cfg, &result, tree, player));
    }
    result
}

fn document<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    cfg: &SearchConfig,
    result: &SearchResult<G::Move>,
    mut tree: Tree,
    root_player: PlayerId,
) -> Tree {
    let settings = match serde_json::to_value(cfg) {
        Ok(serde_json::Value::Object(mut m)) => {
            m.insert(
                "evaluator".into(),
                serde_json::Value::String(eval.name().to_string()),
            );
            m.retain(|_, v| !v.is_null());
            m
        }
        _ => serde_json::Map::new(),
    };
    tree.head = Header {
        game: root.game_id(),
        root_position: Some(root.position_text()),
        engine: format!("plyscope {}", env!("CARGO_PKG_VERSION")),
        algorithm: cfg.algorithm.id().to_string(),
        evaluator: Some(eval.name().to_string()),
        perspective: root.player_name(root_player).to_string(),
        values: Some(eval.scale()),
        settings,
        stats: result.stats.clone(),
        chosen: result.best.map(|m| Chosen {
            mv: root.format_move(m),
            rank: result.rank,
            reason: result.reason.to_string(),
            value_text: (result.reason != "random").then(|| eval.describe(result.value).text),
        }),
    };
    tree
}

impl<G: Game, E: Evaluator<G>, R: Restart<G>> Searcher<'_, '_, G, E, R> {
    /// Sends the tree of a completed iteration to the `iteration` hook.
    fn report_iteration(
        &mut self,
        root: &G,
        roots: &[RootMove<G::Move>],
        pvs: &[Vec<G::Move>],
        depth: u32,
        rec: &R,
    ) {
        let Some(best) =
            (0..roots.len()).max_by(|&a, &b| roots[a].value.total_cmp(&roots[b].value))
        else {
            return;
        };
        let Some(tree) = rec.snapshot(root, &self.stage, &pvs[best], self.eval, self.root_player)
        else {
            return;
        };
        let mut stats = self.stats(depth);
        stats.truncated = tree.head.stats.truncated;
        stats.full_levels = tree.head.stats.full_levels;
        stats.tree_bytes = tree.head.stats.tree_bytes;
        let interim = SearchResult {
            best: Some(roots[best].mv),
            value: roots[best].value,
            pv: pvs[best].clone(),
            rank: 1,
            reason: "best",
            root_moves: Vec::new(),
            stats,
            tree: None,
        };
        let doc = document(root, self.eval, self.cfg, &interim, tree, self.root_player);
        if let Some(cb) = self.hooks.iteration.as_mut() {
            cb(&doc);
        }
    }
}

impl<'a, 'h, G: Game, E: Evaluator<G>, R: Recorder<G::Move>> Searcher<'a, 'h, G, E, R> {
    fn stats(&self, depth_reached: u32) -> Stats {
        Stats {
            nodes: self.nodes,
            leaves: self.leaves,
            time_ms: ((now_ms() - self.start) * 1000.0).round() / 1000.0,
            prune_events: self.prune_events,
            pruned_nodes: self.pruned_nodes,
            tt_hits: self.tt_hits,
            researches: self.researches,
            reductions: self.reductions,
            null_cuts: self.null_cuts,
            singular_searches: self.singular_searches,
            extended: self.singular_extended,
            shortened: self.singular_shortened,
            multi_cuts: self.multi_cuts,
            forward_pruned: self.forward_pruned,
            aspiration_fails: self.aspiration_fails,
            depth_reached,
            truncated: false,
            full_levels: None,
            tree_bytes: None,
            ..Stats::default()
        }
    }

    /// Counts a table move searched a ply deeper or shallower by the singular test, where it is
    /// searched (the node can still be cut before its moves, by reverse futility), so the
    /// statistics and the recorded tree's notes agree.
    fn count_singular(&mut self, note: Note) {
        if note.has(Note::EXTENDED) {
            self.singular_extended += 1;
        } else if note.has(Note::SHORTENED) {
            self.singular_shortened += 1;
        }
    }

    fn ensure_ply(&mut self, ply: usize) {
        while self.kids.len() <= ply + 1 {
            self.killers.push([None, None]);
            self.excluded.push(None);
            self.kids.push(Vec::new());
            self.keys.push(Vec::new());
            self.moves.push(Vec::new());
            self.listed.push(Vec::new());
            self.deferred.push(Vec::new());
            self.outcomes.push(Vec::new());
            self.pv.push(Vec::new());
            self.skipped.push(Vec::new());
            self.searched.push(Vec::new());
        }
    }

    /// Looks at the stop flag, the budgets and the progress callback.
    #[cold]
    fn check(&mut self) {
        self.next_check = (self.nodes + CHECK_EVERY).min(self.cfg.node_budget.unwrap_or(u64::MAX));
        if let Some(limit) = self.cfg.node_budget {
            if self.nodes >= limit {
                self.aborted = true;
            }
        }
        for stop in [self.hooks.stop, self.answered].into_iter().flatten() {
            if stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        let now = now_ms();
        if let Some(deadline) = self.deadline {
            if now >= deadline {
                self.aborted = true;
            }
        }
        let every = if self.hooks.progress_every_ms > 0.0 {
            self.hooks.progress_every_ms
        } else {
            100.0
        };
        // A search that has just been stopped says so at once (not steady: what follows, the
        // tree being built, reports nothing).
        if self.aborted || now - self.last_progress >= every {
            self.last_progress = now;
            self.report(now, !self.aborted);
        }
    }

    fn report(&mut self, now: f64, steady: bool) {
        if self.hooks.progress.is_none() {
            return;
        }
        let depth_frac = if self.root_total > 0 {
            self.root_done as f64 / self.root_total as f64
        } else {
            0.0
        };
        let max_depth = if self.cfg.algorithm == Algorithm::Greedy {
            1
        } else {
            self.cfg.depth
        };
        let fraction = match self.deadline {
            Some(d) => ((now - self.start) / (d - self.start)).clamp(0.0, 1.0),
            None if self.cfg.iterative_deepening => {
                // Each iteration costs several times the one before: weight the last one most.
                ((self.depth as f64 - 1.0 + depth_frac) / max_depth as f64).clamp(0.0, 1.0)
            }
            None => depth_frac,
        };
        let p = Progress {
            nodes: self.nodes,
            depth: self.depth,
            root_done: self.root_done,
            root_total: self.root_total,
            fraction,
            elapsed_ms: now - self.start,
            steady,
        };
        if let Some(cb) = self.hooks.progress.as_mut() {
            cb(&p);
        }
    }

    /// Whether to stop deepening: when the next iteration cannot finish in the time left, guessing
    /// its cost from the last two iterations' durations (their ratio is the effective branching
    /// factor, kept between 1.5 and 32; expectimax iterations grow fast). Unless `strict`, never in
    /// the first half of the budget (the guess is noisy, and an iteration that does not finish costs
    /// only the time it was given), and never for a node budget (it stops the search itself).
    /// `strict` asks whether the next full depth fits (in time, or in nodes the same way from the
    /// last two node counts), to choose probability steps instead.
    fn out_of_budget_for_next(
        &self,
        (before_last, last): (f64, f64),
        (nodes_before_last, nodes_last): (u64, u64),
        strict: bool,
    ) -> bool {
        let growth = |before: f64, last: f64| {
            if before > 0.05 {
                (last / before).clamp(1.5, 32.0)
            } else {
                4.0
            }
        };
        let time = match self.deadline {
            Some(d) => {
                let now = now_ms();
                if !strict && now - self.start < (d - self.start) / 2.0 {
                    false
                } else {
                    now + last * growth(before_last, last) > d
                }
            }
            None => false,
        };
        let nodes = match self.cfg.node_budget {
            Some(limit) if strict => {
                let (b, l) = (nodes_before_last as f64, nodes_last as f64);
                self.nodes as f64 + l * growth(b, l) > limit as f64
            }
            _ => false,
        };
        time || nodes
    }

    /// Probability steps: the next step's chance cut-off, or `None` to stop. Half the last step's
    /// while two more halvings are predicted to fit [`PROB_STEP_FILL`] of what is left of the
    /// budget (time or nodes, whichever is tighter). Otherwise one last step, at the finest
    /// cut-off predicted to fit that share, if it is at least [`PROB_STEP_MIN_RATIO`] times finer
    /// than the last: the budget is used to its end instead of stopping early or starting a step
    /// that is bound to be cut off. The prediction takes a step's cost to grow like
    /// cut-off^-alpha, alpha measured on the last two steps ([`PROB_STEP_ALPHA`] before that).
    fn next_step_cutoff(
        &self,
        (t_before, t_last): (f64, f64),
        (n_before, n_last): (u64, u64),
        (c_before, c_last): (f64, f64),
    ) -> Option<f64> {
        let halved = c_last / PROB_STEP_FACTOR;
        let alpha = |before: f64, last: f64| {
            if before > 0.0 && last > before && c_before > c_last {
                ((last / before).ln() / (c_before / c_last).ln()).clamp(0.5, 4.0)
            } else {
                PROB_STEP_ALPHA
            }
        };
        // How many times the last step's cost the budget has left, and the cost exponent.
        let mut room: Option<(f64, f64)> = None;
        if let Some(d) = self.deadline {
            if t_last > 0.05 {
                room = Some(((d - now_ms()) / t_last, alpha(t_before, t_last)));
            }
        }
        if let Some(limit) = self.cfg.node_budget {
            if n_last > 0 {
                let r = limit.saturating_sub(self.nodes) as f64 / n_last as f64;
                if room.map_or(true, |(t, _)| r < t) {
                    room = Some((r, alpha(n_before as f64, n_last as f64)));
                }
            }
        }
        let Some((room, alpha)) = room else {
            return Some(halved);
        };
        let share = (PROB_STEP_FILL * room).max(1e-9);
        // The cost of a halving, in units of the last step's.
        let g = PROB_STEP_FACTOR.powf(alpha);
        let fit = c_last * share.powf(-1.0 / alpha);
        if share >= g * (1.0 + g) {
            Some(halved)
        } else if fit * PROB_STEP_MIN_RATIO <= c_last {
            Some(fit)
        } else {
            None
        }
    }

    /// Whether a node with `depth` left is worth ordering: only alpha-beta gains from the order,
    /// and only where the children have children, or also one ply above the horizon where the
    /// pre-scores come without making children ([`Searcher::order_min_depth`]).
    fn orders(&self, depth: u32) -> bool {
        self.cfg.move_ordering && self.prune && depth >= self.order_min_depth
    }

    /// Computes the pre-scores of `kids` if ordering or the branching limit needs them (a
    /// recorded child's breakdown is made when it is opened).
    fn score_kids(&mut self, kids: &mut [Child<G>], _maximizing: bool, depth: u32) {
        let need = self.cfg.branching_limit > 0 || self.orders(depth);
        if !need {
            return;
        }
        for k in kids.iter_mut() {
            k.prescore = self.eval.prescore(&k.state, self.root_player, &mut NoTerms);
        }
    }

    /// The root's children, ordered by pre-score when the configuration orders moves, and how
    /// many of them are searched (the branching limit).
    fn root_children(
        &mut self,
        root: &G,
        moves: &[G::Move],
        max_depth: u32,
    ) -> (Vec<Child<G>>, usize) {
        let mut root_kids: Vec<Child<G>> = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let mut state = root.clone();
                state.play_unchecked(mv);
                Child {
                    mv,
                    state,
                    prescore: 0.0,
                    order: i as u32,
                }
            })
            .collect();
        self.score_kids(&mut root_kids, true, max_depth.max(2));
        if self.cfg.move_ordering || self.cfg.branching_limit > 0 {
            root_kids.sort_by(|a, b| {
                b.prescore
                    .total_cmp(&a.prescore)
                    .then(a.order.cmp(&b.order))
            });
        }
        let mut searched = root_kids.len();
        if self.cfg.branching_limit > 0 {
            searched = searched.min(self.cfg.branching_limit);
        }
        (root_kids, searched)
    }

    /// One iteration at the root, in the window `win_lo..win_hi` (infinite without aspiration).
    /// Returns each searched root child's (index, value, exact), the principal variations, and
    /// whether the iteration completed. A move scoring `win_hi` or more ends the iteration (the
    /// aspiration window failed high).
    #[allow(clippy::type_complexity)]
    fn root_iteration(
        &mut self,
        root: &G,
        all_kids: &mut [Child<G>],
        searched: usize,
        depth: u32,
        win_lo: f64,
        win_hi: f64,
    ) -> (Vec<(usize, f64, bool)>, Vec<Vec<G::Move>>, bool) {
        let (kids, left_out) = all_kids.split_at_mut(searched);
        self.ensure_ply(1);
        self.root_done = 0;
        self.root_total = kids.len();
        let full_window = !self.prune || self.cfg.randomness_quotient > 1;
        // The root's children keep their order between iterations. Their pre-scores' breakdowns,
        // like every recorded node's, are made when the tree is built ([`LAZY`]).
        let mark = self.stage.mark();
        if R::ACTIVE {
            self.rec.open(
                None,
                None,
                NO_STAGE,
                &self.stage,
                if full_window {
                    f64::NEG_INFINITY
                } else {
                    win_lo
                },
                if full_window { f64::INFINITY } else { win_hi },
            );
        }
        let hi = if full_window { f64::INFINITY } else { win_hi };
        let mut alpha = if full_window {
            f64::NEG_INFINITY
        } else {
            win_lo
        };
        let mut best = f64::NEG_INFINITY;
        let mut values = Vec::with_capacity(kids.len());
        let mut pvs = Vec::with_capacity(kids.len());
        // Deferral (`defer`), as at the other nodes: the root's moves are marked for the other
        // threads, and a helper puts off one another thread is on.
        let shared = match (&self.tt, self.defer && depth >= DEFER_MIN_DEPTH) {
            (Some(Tt::Shared(t, _)), true) => Some(*t),
            _ => None,
        };
        let may_defer = shared.is_some() && !R::ACTIVE;
        let mut put_off = Vec::new();
        let mut step = 0usize;
        loop {
            let (i, later) = if step < kids.len() {
                (step, false)
            } else if let Some(&d) = put_off.get(step - kids.len()) {
                (d, true)
            } else {
                break;
            };
            step += 1;
            let kid = &kids[i];
            let busy = shared.map(|t| (t, kid.state.zobrist()));
            if let Some((t, k)) = busy {
                if may_defer && i > 0 && !later && t.is_busy(k) {
                    put_off.push(i);
                    self.deferrals += 1;
                    continue;
                }
                t.enter(k);
            }
            let lo = if full_window {
                f64::NEG_INFINITY
            } else if self.cfg.random_ties && alpha.is_finite() {
                // A window just below the best so far: moves that tie come back exact.
                alpha - 1e-6
            } else {
                alpha
            };
            // Root reductions (games with a [`Game::reduction_bias`]): a late root move is
            // first searched shallower with a null window, by the interior nodes' log formula
            // but always at least one ply above a static evaluation; only when that says it
            // beats the best so far is it searched at full depth.
            let mut reduced_low = None;
            let mut again = 0u16;
            if i >= LOG_LMR_FIRST && self.pvs && self.lmr && lo.is_finite() && depth >= 3 {
                if let Some(bias) = root.reduction_bias(kid.mv) {
                    let row = &self.lmr_table[(depth as usize).min(LMR_DEPTHS - 1)];
                    let r = (row[i.min(LMR_PLACES - 1)] as i32 + bias).clamp(0, depth as i32 - 2);
                    if r > 0 {
                        let r = r as u32;
                        self.reductions += 1;
                        let note = Note::new(Note::NULL_WINDOW, r);
                        let (a, b, d) = (lo, lo.next_up(), depth - 1 - r);
                        let v = self.search_child(&kid.state, kid.mv, d, 0, a, b, 1.0, note);
                        if self.aborted || v <= lo {
                            reduced_low = Some(v);
                        } else {
                            self.researches += 1;
                            again = Note::RESEARCH;
                        }
                    }
                }
            }
            let v = if let Some(v) = reduced_low {
                v
            } else if i > 0 && self.pvs && lo.is_finite() {
                // Principal variation search: does this move beat the best so far?
                let null = Note::new(Note::NULL_WINDOW | again, 0);
                let v = self.search_child(
                    &kid.state,
                    kid.mv,
                    depth - 1,
                    0,
                    lo,
                    lo.next_up(),
                    1.0,
                    null,
                );
                if !self.aborted && v > lo && v < hi {
                    self.researches += 1;
                    let again = Note::new(Note::RESEARCH, 0);
                    self.search_child(&kid.state, kid.mv, depth - 1, 0, lo, hi, 1.0, again)
                } else {
                    v
                }
            } else {
                self.search_child(&kid.state, kid.mv, depth - 1, 0, lo, hi, 1.0, Note(0))
            };
            if let Some((t, k)) = busy {
                t.leave(k);
            }
            if self.aborted {
                break;
            }
            let exact = v > lo && v < hi;
            values.push((i, v, exact));
            let mut line = Vec::with_capacity(depth as usize);
            line.push(kid.mv);
            line.extend_from_slice(&self.pv[1]);
            pvs.push(line);
            if v > best {
                best = v;
            }
            if self.prune && v > alpha {
                alpha = v;
            }
            self.root_done += 1;
            if v >= hi {
                // The aspiration window failed high: the caller searches again.
                break;
            }
        }
        let complete = !self.aborted;
        if R::ACTIVE {
            if !left_out.is_empty() {
                self.rec.pruned(
                    left_out.iter().map(|k| k.mv),
                    PruneReason::BranchingLimit,
                    best,
                    f64::NEG_INFINITY,
                    f64::INFINITY,
                );
            }
            let kind = NodeKind::Max;
            let value = (!values.is_empty()).then_some(best);
            self.rec
                .close(kind, value, Bound::Exact, NO_STAGE, &self.stage, false);
        }
        self.stage.release(mark);
        let _ = root;
        (values, pvs, complete)
    }

    /// Opens a child reached by `mv` from the node at `ply` in the recorder (with the window and
    /// the note), searches it, and returns its value.
    #[inline]
    fn search_child(
        &mut self,
        child: &G,
        mv: G::Move,
        depth: u32,
        ply: usize,
        alpha: f64,
        beta: f64,
        prob: f64,
        note: Note,
    ) -> f64 {
        if R::ACTIVE {
            // The pre-score's breakdown is made from the position when the tree is built.
            self.rec
                .open(Some(mv), None, LAZY, &self.stage, alpha, beta);
            if !note.is_empty() {
                self.rec.note(note);
            }
        }
        self.node(child, depth, ply + 1, alpha, beta, prob)
    }

    /// Searches one node, opened last in the recorder, closes it, and returns its value.
    fn node(&mut self, pos: &G, depth: u32, ply: usize, alpha: f64, beta: f64, prob: f64) -> f64 {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check();
        }
        self.ensure_ply(ply);
        self.pv[ply].clear();
        if self.aborted {
            if R::ACTIVE {
                self.rec.close(
                    NodeKind::Leaf,
                    None,
                    Bound::Exact,
                    NO_STAGE,
                    &self.stage,
                    false,
                );
            }
            return 0.0;
        }
        match pos.turn() {
            Turn::Terminal => {
                self.leaves += 1;
                let outcome = pos.outcome().unwrap_or(Outcome::Draw);
                let v = self
                    .eval
                    .terminal(pos, outcome, self.root_player, ply as u32);
                if R::ACTIVE {
                    self.rec.close(
                        NodeKind::Terminal,
                        Some(v),
                        Bound::Exact,
                        NO_STAGE,
                        &self.stage,
                        false,
                    );
                }
                v
            }
            Turn::Player(p)
                if depth == 0
                    && self.prune
                    && self.cfg.quiescence > 0
                    && ply < self.depth as usize + self.cfg.quiescence as usize
                    && pos.unstable() =>
            {
                // Quiescence: the game calls this position unsettled; look one ply further (never
                // with `quiescence` 0, also where a reduction brought the depth to 0 early).
                self.player(pos, p, 1, ply, alpha, beta, prob)
            }
            _ if depth == 0 || (prob < self.cutoff) => {
                self.horizon_leaves += 1;
                self.unsettled += 1;
                if depth != 0 {
                    self.prob_cuts += 1;
                }
                self.leaf(pos)
            }
            Turn::Chance => self.chance(pos, depth, ply, prob),
            Turn::Player(p) => self.player(pos, p, depth, ply, alpha, beta, prob),
        }
    }

    fn leaf(&mut self, pos: &G) -> f64 {
        self.leaves += 1;
        let v = self.eval.evaluate(pos, self.root_player, &mut NoTerms);
        if R::ACTIVE {
            // The breakdown is made from the position when the tree is built.
            self.rec.close(
                NodeKind::Leaf,
                Some(v),
                Bound::Exact,
                LAZY,
                &self.stage,
                false,
            );
        }
        v
    }

    fn chance(&mut self, pos: &G, depth: u32, ply: usize, prob: f64) -> f64 {
        self.chance_nodes += 1;
        let mut outcomes = std::mem::take(&mut self.outcomes[ply]);
        pos.chance_outcomes(&mut outcomes);
        let mut sum = 0.0;
        let mut total = 0.0;
        // One move above the horizon, consecutive outcomes whose children the search below cannot
        // tell apart share one search (see `Evaluator::horizon_key`): the key, whether the child
        // is cut by probability, and its value. The tree records a shared outcome as a node
        // with its probability and value that names the sibling it shares with.
        let share = depth == 1;
        let mut last: Option<(u64, bool, f64)> = None;
        for &(m, p) in outcomes.iter() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let key = if share {
                self.eval.horizon_key(&child)
            } else {
                None
            };
            let cut = prob * p < self.cutoff;
            if let (Some(k), Some((lk, lc, lv))) = (key, last) {
                if k == lk && cut == lc {
                    if R::ACTIVE {
                        self.rec.shared(m, p, lv, &self.stage);
                    }
                    sum += p * lv;
                    total += p;
                    continue;
                }
            }
            if R::ACTIVE {
                self.rec.open(
                    Some(m),
                    Some(p),
                    NO_STAGE,
                    &self.stage,
                    f64::NEG_INFINITY,
                    f64::INFINITY,
                );
            }
            let v = self.node(
                &child,
                depth,
                ply + 1,
                f64::NEG_INFINITY,
                f64::INFINITY,
                prob * p,
            );
            if self.aborted {
                break;
            }
            if let Some(k) = key {
                last = Some((k, cut, v));
            }
            sum += p * v;
            total += p;
        }
        self.outcomes[ply] = outcomes;
        self.pv[ply].clear();
        let value = if total > 0.0 {
            sum / total
        } else {
            self.eval.evaluate(pos, self.root_player, &mut NoTerms)
        };
        if R::ACTIVE {
            let v = (!self.aborted).then_some(value);
            self.rec.close(
                NodeKind::Chance,
                v,
                Bound::Exact,
                NO_STAGE,
                &self.stage,
                false,
            );
        }
        value
    }

    #[allow(clippy::too_many_arguments)]
    fn player(
        &mut self,
        pos: &G,
        player: PlayerId,
        mut depth: u32,
        ply: usize,
        mut alpha: f64,
        mut beta: f64,
        prob: f64,
    ) -> f64 {
        let maximizing = self.single_player || player == self.root_player;
        let kind = if maximizing {
            NodeKind::Max
        } else {
            NodeKind::Min
        };
        let (alpha0, beta0) = (alpha, beta);
        let unsettled0 = self.unsettled;

        // Transposition table (not in a singular search, which leaves out the table's move).
        let excluded = self.excluded[ply];
        let key = pos.zobrist();
        let mut tt_move = None;
        let use_tt = depth >= self.cfg.tt_min_depth && excluded.is_none();
        let mut tt_index = NO_INDEX;
        let mut tt_entry: Option<(f64, u32, Bound)> = None;
        if let Some(tt) = self.tt.as_ref().filter(|_| use_tt) {
            if let Some(e) = tt.probe(key) {
                tt_move = e.mv;
                tt_index = e.index;
                tt_entry = Some((e.value, e.depth as u32, e.bound));
                // A recorded node says which helper's entry gave it its first move (here) or
                // its value (below).
                let other = e.writer != tt.thread();
                if R::ACTIVE && other && (e.mv.is_some() || e.index != NO_INDEX) {
                    self.rec.tt_worker(e.writer);
                }
                if e.depth as u32 >= depth {
                    let hit = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.value >= beta,
                        Bound::Upper => e.value <= alpha,
                    };
                    if hit {
                        self.tt_hits += 1;
                        if other {
                            self.tt_hits_other += 1;
                        }
                        if !e.settled {
                            self.unsettled += 1;
                        }
                        if R::ACTIVE {
                            if other {
                                self.rec.tt_worker(e.writer);
                            }
                            self.rec.close(
                                kind,
                                Some(e.value),
                                e.bound,
                                NO_STAGE,
                                &self.stage,
                                true,
                            );
                        }
                        return e.value;
                    }
                }
            }
        }

        // Internal iterative reduction: without a move from the table the node's order is a
        // guess, so it is searched a ply shallower (noted as a reduction of the node itself);
        // its table entry then gives the next iteration a move to search first. Only with a
        // table (without one, no node would ever have a move).
        if self.iir_on
            && depth >= IIR_MIN_DEPTH
            && use_tt
            && self.tt.is_some()
            && tt_move.is_none()
            && tt_index == NO_INDEX
        {
            depth -= 1;
            self.reductions += 1;
            if R::ACTIVE {
                self.rec.reduce(1);
            }
        }

        // Null move: when even passing the turn scores beyond the window (in a shallower search),
        // the node is cut without searching its moves.
        if self.null_on && depth >= NULL_MIN_DEPTH && ply != self.null_ply && excluded.is_none() {
            if let Some(v) = self.null_move_cut(pos, maximizing, depth, ply, alpha, beta, prob) {
                self.null_cuts += 1;
                self.unsettled += 1;
                let bound = if maximizing {
                    Bound::Lower
                } else {
                    Bound::Upper
                };
                if let Some(tt) = self.tt.as_mut().filter(|_| use_tt) {
                    tt.store(key, depth, v, bound, false, tt_move, tt_index);
                }
                if R::ACTIVE {
                    self.rec.note(Note::new(Note::NULL_MOVE, 0));
                    self.rec
                        .close(kind, Some(v), bound, NO_STAGE, &self.stage, false);
                }
                return v;
            }
            if self.aborted {
                if R::ACTIVE {
                    self.rec
                        .close(kind, None, Bound::Exact, NO_STAGE, &self.stage, false);
                }
                return 0.0;
            }
        }

        // Singular extensions: at a node off the principal variation with depth left, whose table
        // entry gives a move and a value that holds as a bound for the side to move, the other
        // moves are searched at half the depth, without the table's move, with a null window
        // a margin short of the table's value. None reaching it: the table's move is singular
        // and searched a ply deeper. One reaching it beyond the window: the node is cut there
        // (multi-cut). Otherwise, when the table's value is beyond the window, the table's move
        // is searched a ply shallower (a negative extension). (Zataxx does the same, read for
        // facts; docs/engine-options.md.)
        let mut ext_move = None;
        let mut ext = 0i32;
        if self.se_on && excluded.is_none() && depth >= SE_MIN_DEPTH {
            if tt_move.is_none() && tt_index != NO_INDEX && tt_entry.is_some() {
                // The shared table of a parallel search keeps the move as its place in the list
                // of legal moves: the list is made here for it (this ply's buffer is free until
                // the moves are generated below, in the same order).
                let buf = &mut self.moves[ply];
                buf.clear();
                pos.legal_moves(buf);
                tt_move = buf.get(tt_index as usize).copied();
            }
            if let (Some(m), Some((tv, td, tb))) = (tt_move, tt_entry) {
                let pv = pv_window(maximizing, alpha, beta);
                let holds = match tb {
                    Bound::Exact => true,
                    Bound::Lower => maximizing,
                    Bound::Upper => !maximizing,
                };
                if !pv && holds && td + SE_DEPTH_MARGIN >= depth && tv.abs() < WIN_SCORE / 2.0 {
                    let margin = SE_MARGIN * depth as f64;
                    let sb = if maximizing { tv - margin } else { tv + margin };
                    let (a, b) = null_window_at(maximizing, sb);
                    // The search without the table's move is not recorded: its nodes count as
                    // unrecorded below this node, as a null move's do.
                    self.open_unrecorded(a, b);
                    self.excluded[ply] = Some(m);
                    self.singular_searches += 1;
                    let v = self.player(pos, player, (depth - 1) / 2, ply, a, b, prob);
                    self.excluded[ply] = None;
                    self.pv[ply].clear();
                    if R::ACTIVE {
                        self.rec.resume();
                    }
                    if self.aborted {
                        if R::ACTIVE {
                            self.rec
                                .close(kind, None, Bound::Exact, NO_STAGE, &self.stage, false);
                        }
                        return 0.0;
                    }
                    let short = if maximizing { v < sb } else { v > sb };
                    if short {
                        ext = 1;
                    } else if (maximizing && sb >= beta) || (!maximizing && sb <= alpha) {
                        // Multi-cut: the table's move and another move both beat the window.
                        self.multi_cuts += 1;
                        self.unsettled += 1;
                        if R::ACTIVE {
                            let bound = if maximizing {
                                Bound::Lower
                            } else {
                                Bound::Upper
                            };
                            self.rec.note(Note::new(Note::MULTI_CUT, 0));
                            self.rec
                                .close(kind, Some(sb), bound, NO_STAGE, &self.stage, false);
                        }
                        return sb;
                    } else if (maximizing && tv >= beta) || (!maximizing && tv <= alpha) {
                        ext = -1;
                    }
                    ext_move = Some(m);
                }
            }
        }
        // The depth and note of the first move searched (the table's move, when extended).
        let first_child = |mv: G::Move| {
            if ext != 0 && Some(mv) == ext_move {
                let flag = if ext > 0 {
                    Note::EXTENDED
                } else {
                    Note::SHORTENED
                };
                ((depth as i32 - 1 + ext) as u32, Note::new(flag, 0))
            } else {
                (depth - 1, Note(0))
            }
        };

        let eager = self.cfg.branching_limit > 0 || self.orders(depth);
        let side = if maximizing { 0 } else { 1 };
        let killers = if self.killers_on {
            self.killers[ply]
        } else {
            [None, None]
        };
        let mut best = if maximizing {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut best_mv = None;
        let mut best_index = NO_INDEX;
        // Whether `listed[ply]` holds this node's moves in generation order.
        let mut listed = false;
        let mut cut_at = None;
        // Moves searched, and skipped by forward pruning, before a cut.
        let (mut visited, mut forward_skipped) = (0usize, 0usize);
        // Forward pruning (games that give a reduction bias): the static evaluation of this
        // node, made once when futility first needs it, and the moves skipped (recorded).
        let mut stand: Option<f64> = None;
        let mut skipped = if R::ACTIVE {
            std::mem::take(&mut self.skipped[ply])
        } else {
            Vec::new()
        };
        skipped.clear();

        // Staged generation: where the game can tell that a move is legal without generating
        // them all (`Game::surely_legal`), the table's move (and, at a node whose children are
        // made one at a time, the killers) are searched first, and the other moves are generated
        // only when none of them cuts. Not while a tree is recorded (its pruned lists name every
        // move), with the branching limit (it ranks every move) or the shared table (it keeps
        // moves by their place in the list).
        let mut tried: [Option<G::Move>; 3] = [None; 3];
        if self.malus_on {
            self.searched[ply].clear();
        }
        let mut ntried = 0usize;
        let mut stage_cut = false;
        if !R::ACTIVE
            && self.prune
            && self.cfg.branching_limit == 0
            && !matches!(self.tt, Some(Tt::Shared(..)))
        {
            let (k0, k1) = if eager {
                (None, None)
            } else {
                (killers[0], killers[1])
            };
            for mv in [tt_move, k0, k1].into_iter().flatten() {
                if tried[..ntried].contains(&Some(mv))
                    || Some(mv) == excluded
                    || !pos.surely_legal(mv)
                {
                    continue;
                }
                let i = ntried;
                tried[i] = Some(mv);
                ntried += 1;
                let mut child = pos.clone();
                child.play_unchecked(mv);
                let v = if i == 0 || !(self.pvs || self.lmr) {
                    let (d, note) = first_child(mv);
                    self.count_singular(note);
                    self.search_child(&child, mv, d, ply, alpha, beta, prob, note)
                } else {
                    self.later_child(
                        pos, &child, mv, maximizing, depth, ply, i, ntried, alpha, beta, prob,
                    )
                };
                if self.malus_on {
                    self.searched[ply].push(mv);
                }
                if self.aborted {
                    break;
                }
                if self.take_value(v, mv, ply, maximizing, &mut best, &mut alpha, &mut beta) {
                    best_mv = Some(mv);
                }
                if alpha >= beta {
                    self.on_cut(mv, tt_move, ply, side, depth);
                    self.prune_events += 1;
                    stage_cut = true;
                    break;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut kids = std::mem::take(&mut self.kids[ply]);
        let mut keys = std::mem::take(&mut self.keys[ply]);
        moves.clear();
        kids.clear();
        keys.clear();
        let mut limit = 0;
        let mut count = 0;
        // Lazy ordering (below): the keys before this place are in their final order.
        let mut sorted_to = usize::MAX;
        // Whether `keys` index `moves` (pre-scores without children) rather than `kids`.
        let mut keyed = false;
        if !stage_cut && !self.aborted {
            pos.legal_moves(&mut moves);
            if moves.is_empty() && ntried == 0 {
                self.moves[ply] = moves;
                self.kids[ply] = kids;
                self.keys[ply] = keys;
                if R::ACTIVE {
                    self.skipped[ply] = skipped;
                }
                return self.leaf(pos);
            }
            // Reverse futility: a node near the horizon whose static evaluation is beyond the
            // bound by a margin per ply left is cut without searching its moves.
            if ntried == 0
                && self.futility_on
                && excluded.is_none()
                && depth <= RFP_MAX_DEPTH
                && pos.reduction_bias(moves[0]).is_some()
            {
                let bound = if maximizing { beta } else { alpha };
                if bound.is_finite() {
                    let s = self.eval.evaluate(pos, self.root_player, &mut NoTerms);
                    let m = RFP_MARGIN * depth as f64;
                    let cut = if maximizing {
                        s - m >= beta
                    } else {
                        s + m <= alpha
                    };
                    if cut {
                        self.forward_pruned += moves.len() as u64;
                        self.unsettled += 1;
                        let bound = if maximizing {
                            Bound::Lower
                        } else {
                            Bound::Upper
                        };
                        if R::ACTIVE {
                            self.rec.pruned(
                                moves.iter().copied(),
                                PruneReason::Futility,
                                s,
                                alpha0,
                                beta0,
                            );
                            self.rec
                                .close(kind, Some(s), bound, NO_STAGE, &self.stage, false);
                            self.skipped[ply] = skipped;
                        }
                        self.moves[ply] = moves;
                        self.kids[ply] = kids;
                        self.keys[ply] = keys;
                        return s;
                    }
                }
            }
            if tt_index != NO_INDEX && tt_move.is_none() {
                // The shared table keeps the move as its place in the list of legal moves (read
                // before any move is taken out of the list below).
                tt_move = moves.get(tt_index as usize).copied();
            }
            if ntried > 0 || excluded.is_some() {
                moves.retain(|m| !tried[..ntried].contains(&Some(*m)) && Some(*m) != excluded);
            }
            // Pre-scores are needed to order (only worth it with depth left) or to limit.
            // Without them, each child is made only when its turn comes, so a cut-off saves
            // making the rest; with them, every child is made once (copy-make) into this ply's
            // buffer and searched in the order of a sorted key list. A recorded child gets its
            // pre-score's breakdown when it is opened (so pruned children cost nothing, and a
            // leaf reuses it as its evaluation).
            // Moves placed first: the table's move, then the killers (after the staged ones).
            let mut front = 0usize;
            if eager {
                let sign = if maximizing { -1.0 } else { 1.0 };
                // Pre-scores from the parent and the move where the evaluator can (then a child
                // is made only when it is searched), else from every child made here.
                // Ataxx (order_min_depth 1): equal pre-scores go by the history heuristic (best
                // first), folded into the key by [`history_key`].
                let fold = self.history_on && self.order_min_depth == 1;
                if !R::ACTIVE {
                    let root = self.root_player;
                    if let Some(first) = moves
                        .first()
                        .and_then(|&m| self.eval.prescore_move(pos, m, root))
                    {
                        keyed = true;
                        if fold {
                            let h = &self.history;
                            for (i, &m) in moves.iter().enumerate() {
                                let v = if i == 0 {
                                    first
                                } else {
                                    self.eval.prescore_move(pos, m, root).unwrap_or(0.0)
                                };
                                let hist = h[history_slot(&m, side)];
                                keys.push(history_key(sign * v, hist, i as u32));
                            }
                        } else {
                            keys.push(order_key(sign * first, 0));
                            for (i, &m) in moves.iter().enumerate().skip(1) {
                                let v = self.eval.prescore_move(pos, m, root).unwrap_or(0.0);
                                keys.push(order_key(sign * v, i as u32));
                            }
                        }
                    }
                }
                if !keyed {
                    for (i, &mv) in moves.iter().enumerate() {
                        let mut state = pos.clone();
                        state.play_unchecked(mv);
                        kids.push(Child {
                            mv,
                            state,
                            prescore: 0.0,
                            order: i as u32,
                        });
                    }
                    self.score_kids(&mut kids, maximizing, depth);
                    keys.extend(
                        kids.iter()
                            .enumerate()
                            .map(|(i, k)| order_key(sign * k.prescore, i as u32)),
                    );
                }
                let mv_at = |k: u32| {
                    if keyed {
                        moves[k as usize]
                    } else {
                        kids[k as usize].mv
                    }
                };
                // Ataxx (order_min_depth 1): equal pre-scores go by the history heuristic,
                // folded into the key ([`history_key`]; above, where the pre-scores come from the
                // parent). The keys are then picked one at a time as the node goes on (a
                // selection sort, [`LAZY_PICKS`] picks, then the rest sorted at once): most of
                // these nodes cut after a move or two, where sorting every move took a quarter of
                // the search's instructions. The order is the full
                // sort's (the keys are a total order, the slot breaking ties), so is the tree.
                let lazy = self.order_min_depth == 1 && self.cfg.branching_limit == 0;
                if fold && !keyed {
                    for k in keys.iter_mut() {
                        let slot = key_slot(*k);
                        let h = self.history[history_slot(&mv_at(slot), side)];
                        *k = history_key(key_score(*k), h, slot);
                    }
                }
                if !lazy && (self.cfg.move_ordering || self.cfg.branching_limit > 0) {
                    keys.sort_unstable();
                }
                if let Some(m) = tt_move {
                    if let Some(i) = keys.iter().position(|&k| mv_at(key_slot(k)) == m) {
                        keys[..=i].rotate_right(1);
                        front = 1;
                    }
                }
                // Killers go after the table's move, or after the best move by pre-score when
                // there is none: the evaluation's first choice is usually better than a killer
                // (Reversi: 20 % fewer nodes to depth 8 than killers first; Khet and Ataxx gain
                // as much). A staged table's move counts as that first move.
                if ntried == 0 {
                    if lazy && front == 0 && !keys.is_empty() {
                        pick_best(&mut keys, 0);
                    }
                    front = front.max(1);
                }
                front = front.min(keys.len());
                for m in [killers[0], killers[1]].into_iter().flatten() {
                    if let Some(i) = keys[front..].iter().position(|&k| mv_at(key_slot(k)) == m) {
                        keys[front..=front + i].rotate_right(1);
                        front += 1;
                    }
                }
            } else {
                if use_tt && matches!(self.tt, Some(Tt::Shared(..))) {
                    // Without this copy the shared table would get no move from these nodes,
                    // and the main thread of a parallel search would search 10 % more nodes
                    // (Reversi depth 13).
                    self.listed[ply].clear();
                    self.listed[ply].extend_from_slice(&moves);
                    listed = true;
                }
                if self.history_on && moves.len() > 1 {
                    // The moves with the best history scores come first, picked one at a time
                    // (a selection sort stopped after HISTORY_PICKS moves): most of these nodes
                    // are one ply above the horizon and cut after a move or two, where sorting
                    // every move (Ataxx: a hundred) cost more than the rest of the node. The rest
                    // keep their order. Each score is looked up once.
                    let h = &self.history;
                    let mut scores = std::mem::take(&mut self.scores);
                    scores.clear();
                    scores.extend(moves.iter().map(|m| h[history_slot(m, side)]));
                    let picks = HISTORY_PICKS.min(moves.len() - 1);
                    // No move has a score above neutral: none has earned its place.
                    let floor = if self.malus_on { HISTORY_NEUTRAL } else { 0 };
                    for j in 0..picks {
                        let mut top = j;
                        for k in j + 1..scores.len() {
                            if scores[k] > scores[top] {
                                top = k;
                            }
                        }
                        if scores[top] <= floor {
                            break;
                        }
                        scores.swap(j, top);
                        moves.swap(j, top);
                    }
                    self.scores = scores;
                }
                for m in [tt_move, killers[0], killers[1]].into_iter().flatten() {
                    if let Some(i) = moves[front..].iter().position(|&x| x == m) {
                        moves[front..=front + i].rotate_right(1);
                        front += 1;
                    }
                }
            }
            count = moves.len();
            limit = if self.cfg.branching_limit > 0 {
                self.cfg.branching_limit.min(count)
            } else {
                count
            };

            let mut scratch: Option<G> = None;
            // Mark the moves searched here for the other threads, and put off theirs (not when a
            // tree is recorded: it keeps the search's own order).
            let mark = self.defer && depth >= DEFER_MIN_DEPTH;
            let may_defer = mark && !R::ACTIVE;
            let mut deferred = std::mem::take(&mut self.deferred[ply]);
            deferred.clear();
            // The moves in order, then the deferred ones.
            let lazy = eager && self.order_min_depth == 1 && self.cfg.branching_limit == 0;
            if lazy {
                sorted_to = front;
            }
            let mut step = 0usize;
            loop {
                let (i, later) = if step < limit {
                    (step, false)
                } else if let Some(&d) = deferred.get(step - limit) {
                    (d as usize, true)
                } else {
                    break;
                };
                step += 1;
                if lazy && i >= sorted_to {
                    if i < front + LAZY_PICKS {
                        pick_best(&mut keys, i);
                        sorted_to = i + 1;
                    } else {
                        keys[i..].sort_unstable();
                        sorted_to = keys.len();
                    }
                }
                // The place among the moves searched here, the staged ones first.
                let at = ntried + i;
                let mv = if eager && !keyed {
                    kids[key_slot(keys[i]) as usize].mv
                } else if keyed {
                    moves[key_slot(keys[i]) as usize]
                } else {
                    moves[i]
                };
                if at > 0
                    && ((depth <= LMP_MAX_DEPTH.max(FUTILITY_MAX_DEPTH)
                        && (self.lmp_on || self.futility_on))
                        || (self.lmp_all_on && at >= LMP_ALL_FIRST))
                {
                    if let Some(bias) = pos.reduction_bias(mv) {
                        if self.forward_prunes(
                            pos, &mut stand, maximizing, depth, at, bias, alpha, beta, best,
                        ) {
                            self.forward_pruned += 1;
                            forward_skipped += 1;
                            if R::ACTIVE {
                                skipped.push(mv);
                            }
                            continue;
                        }
                    }
                }
                if !(eager && !keyed) {
                    let mut c = pos.clone();
                    c.play_unchecked(mv);
                    scratch = Some(c);
                }
                let child = if eager && !keyed {
                    &kids[key_slot(keys[i]) as usize].state
                } else {
                    scratch.as_ref().expect("made above")
                };
                let busy = match (&self.tt, mark) {
                    (Some(Tt::Shared(t, _)), true) => Some((*t, child.zobrist())),
                    _ => None,
                };
                if let Some((t, k)) = busy {
                    if may_defer && at > 0 && !later && t.is_busy(k) {
                        deferred.push(i as u32);
                        self.deferrals += 1;
                        continue;
                    }
                    t.enter(k);
                }
                let v = if at == 0 || !(self.pvs || self.lmr) || !self.prune {
                    let (d, note) = first_child(mv);
                    self.count_singular(note);
                    self.search_child(child, mv, d, ply, alpha, beta, prob, note)
                } else {
                    self.later_child(
                        pos,
                        child,
                        mv,
                        maximizing,
                        depth,
                        ply,
                        at,
                        ntried + front,
                        alpha,
                        beta,
                        prob,
                    )
                };
                if let Some((t, k)) = busy {
                    t.leave(k);
                }
                if self.malus_on {
                    self.searched[ply].push(mv);
                }
                visited += 1;
                if self.aborted {
                    break;
                }
                if self.take_value(v, mv, ply, maximizing, &mut best, &mut alpha, &mut beta) {
                    best_mv = Some(mv);
                    if eager && ntried == 0 {
                        // `kids` are in the order of the legal-move list.
                        best_index = u16::try_from(key_slot(keys[i])).unwrap_or(NO_INDEX);
                    } else if listed {
                        best_index = self.listed[ply]
                            .iter()
                            .position(|&m| m == mv)
                            .and_then(|i| u16::try_from(i).ok())
                            .unwrap_or(NO_INDEX);
                    } else {
                        best_index = NO_INDEX;
                    }
                }
                if self.prune && alpha >= beta {
                    cut_at = Some(i);
                    self.on_cut(mv, tt_move, ply, side, depth);
                    break;
                }
            }
            self.deferred[ply] = deferred;
        }

        if !self.aborted {
            if let Some(i) = cut_at {
                // The moves neither searched nor skipped by forward pruning. (Without deferred
                // moves, the ones after the `i`-th; a recorded search defers none.)
                let cut = limit - visited - forward_skipped;
                debug_assert!(visited + forward_skipped <= limit && i < limit);
                if cut > 0 {
                    self.prune_events += 1;
                    self.pruned_nodes += cut as u64;
                    if R::ACTIVE {
                        let reason = PruneReason::Alphabeta;
                        if sorted_to < limit {
                            keys[sorted_to..limit].sort_unstable();
                        }
                        if eager {
                            let cut = keys[i + 1..limit]
                                .iter()
                                .map(|&k| kids[key_slot(k) as usize].mv);
                            self.rec.pruned(cut, reason, best, alpha0, beta0);
                        } else {
                            let cut = moves[i + 1..limit].iter().copied();
                            self.rec.pruned(cut, reason, best, alpha0, beta0);
                        }
                    }
                }
            }
            if R::ACTIVE && !skipped.is_empty() {
                self.rec.pruned(
                    skipped.iter().copied(),
                    PruneReason::Futility,
                    best,
                    alpha0,
                    beta0,
                );
            }
            if R::ACTIVE && limit < count {
                self.rec.pruned(
                    keys[limit..].iter().map(|&k| kids[key_slot(k) as usize].mv),
                    PruneReason::BranchingLimit,
                    best,
                    alpha0,
                    beta0,
                );
            }
        }
        self.moves[ply] = moves;
        self.kids[ply] = kids;
        self.keys[ply] = keys;
        if R::ACTIVE {
            self.skipped[ply] = skipped;
        }
        if self.aborted {
            if R::ACTIVE {
                self.rec
                    .close(kind, None, Bound::Exact, NO_STAGE, &self.stage, false);
            }
            return 0.0;
        }

        let bound = if !self.prune {
            Bound::Exact
        } else if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if let Some(tt) = self.tt.as_mut().filter(|_| use_tt) {
            tt.store(
                key,
                depth,
                best,
                bound,
                self.unsettled == unsettled0,
                best_mv,
                best_index,
            );
        }
        if R::ACTIVE {
            self.rec
                .close(kind, Some(best), bound, NO_STAGE, &self.stage, false);
        }
        best
    }

    /// Forward pruning, in games that give a reduction bias (a move's bias > 0: it captures
    /// nothing and gains nothing; 0: a quiet move that gains something; < 0: a capture):
    /// whether the `i`-th move (never the first) of a node with `depth` plies left is skipped.
    /// Late-move pruning skips moves of bias > 0 from place [`lmp_first`] on, at nodes with at
    /// most [`LMP_MAX_DEPTH`] plies left. Futility pruning skips moves of bias 0 or more at
    /// nodes with at most [`FUTILITY_MAX_DEPTH`] plies left when the node's static evaluation
    /// (`stand`, made here once) is more than [`FUTILITY_MARGIN`] evaluation units, and
    /// [`FUTILITY_PER_PLY`] a ply left beyond the first, short of the bound the side to move
    /// must beat.
    /// With late-move pruning at every depth, moves of bias > 0 are skipped from place
    /// [`LMP_ALL_FIRST`] on at any depth, unless `best`, the node's best value so far, is a lost
    /// game for the side to move (then a quiet move may still save it).
    /// (Reverse futility, which cuts a whole node, is in [`Searcher::player`].)
    #[inline]
    fn forward_prunes(
        &mut self,
        pos: &G,
        stand: &mut Option<f64>,
        maximizing: bool,
        depth: u32,
        i: usize,
        bias: i32,
        alpha: f64,
        beta: f64,
        best: f64,
    ) -> bool {
        if self.lmp_all_on && bias > 0 && i >= LMP_ALL_FIRST {
            let lost = if maximizing {
                best <= -WIN_SCORE / 2.0
            } else {
                best >= WIN_SCORE / 2.0
            };
            if !lost {
                return true;
            }
        }
        if self.lmp_on && bias > 0 && depth <= LMP_MAX_DEPTH && i >= lmp_first(depth) {
            return true;
        }
        if self.futility_on && bias >= 0 && depth <= FUTILITY_MAX_DEPTH {
            let s = *stand
                .get_or_insert_with(|| self.eval.evaluate(pos, self.root_player, &mut NoTerms));
            let margin = FUTILITY_MARGIN + FUTILITY_PER_PLY * (depth - 1) as f64;
            return if maximizing {
                s + margin <= alpha
            } else {
                s - margin >= beta
            };
        }
        false
    }

    /// Takes a child's value `v` (of move `mv`) into its node's running best, principal variation
    /// and window; returns whether it is a new best.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn take_value(
        &mut self,
        v: f64,
        mv: G::Move,
        ply: usize,
        maximizing: bool,
        best: &mut f64,
        alpha: &mut f64,
        beta: &mut f64,
    ) -> bool {
        let better = if maximizing { v > *best } else { v < *best };
        if better {
            *best = v;
            let (head, tail) = self.pv.split_at_mut(ply + 1);
            head[ply].clear();
            head[ply].push(mv);
            head[ply].extend_from_slice(&tail[0]);
        }
        if self.prune {
            if maximizing {
                *alpha = alpha.max(v);
            } else {
                *beta = beta.min(v);
            }
        }
        better
    }

    /// Remembers move `mv`, which cut at `ply` with `depth` left, as a killer (unless it was the
    /// table's move) and in the history; with the history malus, the moves searched before it at
    /// this node ([`Searcher::searched`]) lose what it gains ([`history_step`]).
    #[inline(always)]
    fn on_cut(
        &mut self,
        mv: G::Move,
        tt_move: Option<G::Move>,
        ply: usize,
        side: usize,
        depth: u32,
    ) {
        if self.killers_on && Some(mv) != tt_move {
            let k = &mut self.killers[ply];
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        if self.malus_on {
            let step = (depth as i64 * HISTORY_STEP_PER_PLY).min(HISTORY_STEP_MAX);
            history_step(&mut self.history[history_slot(&mv, side)], step);
            for &m in &self.searched[ply] {
                if m != mv {
                    history_step(&mut self.history[history_slot(&m, side)], -step);
                }
            }
        } else if self.history_on {
            let h = &mut self.history[history_slot(&mv, side)];
            *h = h.saturating_add(depth * depth);
        }
    }

    /// Searches a child after the first (the `i`-th in order; `front` moves came from the table
    /// and the killers) with principal variation search and late-move reductions: a reduced
    /// search for a late move, a null-window search, and the full window only when those say the
    /// move beats the best so far. Every search is its own node in the tree, noted as such.
    #[inline]
    fn later_child(
        &mut self,
        parent: &G,
        child: &G,
        mv: G::Move,
        maximizing: bool,
        depth: u32,
        ply: usize,
        i: usize,
        front: usize,
        alpha: f64,
        beta: f64,
        prob: f64,
    ) -> f64 {
        // The null window at the bound the side to move must beat.
        let (sa, sb) = if !self.pvs {
            (alpha, beta)
        } else if maximizing {
            (alpha, alpha.next_up())
        } else {
            (beta.next_down(), beta)
        };
        let scout_flag = if self.pvs { Note::NULL_WINDOW } else { 0 };
        // Whether a result beats the best so far (and is inside the window).
        let beats = |v: f64| if maximizing { v > alpha } else { v < beta };
        let inside = |v: f64| v > alpha && v < beta;
        let mut again = 0u16;
        let r = if !self.lmr || i < front {
            0
        } else if let Some(bias) = parent.reduction_bias(mv) {
            // The log formula: deeper nodes and later moves are reduced more, down to a static
            // evaluation (the child searched at depth 0); principal-variation nodes less.
            if depth >= LOG_LMR_MIN_DEPTH && i >= LOG_LMR_FIRST {
                let row = &self.lmr_table[(depth as usize).min(LMR_DEPTHS - 1)];
                let pv = pv_window(maximizing, alpha, beta);
                let r = row[i.min(LMR_PLACES - 1)] as i32 + bias - if pv { LOG_LMR_PV } else { 0 };
                r.clamp(0, depth as i32 - 1) as u32
            } else {
                0
            }
        } else if depth >= LMR_MIN_DEPTH && i >= LMR_FIRST {
            let r = if depth >= 6 && i >= 3 * LMR_FIRST {
                2
            } else {
                1
            };
            r.min(depth - 2)
        } else {
            0
        };
        if r > 0 {
            self.reductions += 1;
            let note = Note::new(scout_flag, r);
            let v = self.search_child(child, mv, depth - 1 - r, ply, sa, sb, prob, note);
            if self.aborted || !beats(v) {
                return v;
            }
            self.researches += 1;
            again = Note::RESEARCH;
        }
        if self.pvs {
            let note = Note::new(Note::NULL_WINDOW | again, 0);
            let v = self.search_child(child, mv, depth - 1, ply, sa, sb, prob, note);
            if self.aborted || !(beats(v) && inside(v)) {
                return v;
            }
            self.researches += 1;
            again = Note::RESEARCH;
        } else if again == 0 {
            return self.search_child(child, mv, depth - 1, ply, alpha, beta, prob, Note(0));
        }
        let note = Note::new(again, 0);
        self.search_child(child, mv, depth - 1, ply, alpha, beta, prob, note)
    }

    /// Opens, in the recorder, a search whose nodes are not recorded (they count as unrecorded
    /// below the current node): a null move's or a singular search's, with window (`a`, `b`).
    /// The caller resumes the recorder when it ends.
    #[inline(always)]
    fn open_unrecorded(&mut self, a: f64, b: f64) {
        if R::ACTIVE {
            self.rec.pause();
            self.rec.open(None, None, NO_STAGE, &self.stage, a, b);
        }
    }

    /// Null-move pruning: when the game allows passing here and the static evaluation is already
    /// beyond the window, searches the position with the turn passed, `R` plies shallower, with a
    /// null window at the bound; returns its value when it is beyond the bound too. The search
    /// is not recorded (its nodes count as unrecorded below this node).
    #[inline(never)]
    fn null_move_cut(
        &mut self,
        pos: &G,
        maximizing: bool,
        depth: u32,
        ply: usize,
        alpha: f64,
        beta: f64,
        prob: f64,
    ) -> Option<f64> {
        let bound = if maximizing { beta } else { alpha };
        if !bound.is_finite() {
            return None;
        }
        let passed = pos.null_move()?;
        let stand = self.eval.evaluate(pos, self.root_player, &mut NoTerms);
        if (maximizing && stand < beta) || (!maximizing && stand > alpha) {
            return None;
        }
        let r = if depth >= 7 { 3 } else { 2 };
        let d = depth - 1 - r.min(depth - 1);
        let (a, b) = null_window_at(maximizing, bound);
        self.open_unrecorded(a, b);
        let saved = self.null_ply;
        self.null_ply = ply + 1;
        let v = self.node(&passed, d, ply + 1, a, b, prob);
        self.null_ply = saved;
        if R::ACTIVE {
            self.rec.resume();
        }
        if self.aborted {
            return None;
        }
        let cut = if maximizing { v >= beta } else { v <= alpha };
        cut.then_some(v)
    }
}
