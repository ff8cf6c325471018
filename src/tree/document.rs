//! The tree document: serde types for the `plyscope-tree` JSON format, version 1.

use crate::core::{Breakdown, ValueScale};
use serde::{Deserialize, Serialize};

/// The value of the document's `format` field.
pub const FORMAT_NAME: &str = "plyscope-tree";
/// The format version this engine writes.
pub const FORMAT_VERSION: u32 = 1;

/// One search, as written after an AI turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TreeDocument {
    /// Always [`FORMAT_NAME`].
    pub format: String,
    /// Always [`FORMAT_VERSION`] for documents this engine writes.
    pub version: u32,
    /// The game id (`"reversi"`, `"reversi-12"`, `"tictactoe"`...).
    pub game: String,
    /// The root position in the game's own position text, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_position: Option<String>,
    /// Who wrote the document (`"plyscope 0.1.0"`).
    pub engine: String,
    /// `random`, `greedy`, `minimax`, `alphabeta`, `expectimax`, `mcts` or `other`.
    pub algorithm: String,
    /// The name of the evaluator whose terms appear in the breakdowns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evaluator: Option<String>,
    /// The player whose view every value takes (the maximising player).
    pub perspective: String,
    /// How the values read: their unit and how a decided game's value encodes its end. Absent in
    /// documents from other engines (and older ones): values are then plain numbers, and
    /// `±(1000000 - plies)` a decided game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<ValueScale>,
    /// The search settings, as given.
    #[serde(default)]
    pub settings: serde_json::Map<String, serde_json::Value>,
    /// Whole-run statistics.
    pub stats: Stats,
    /// The move the engine chose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<Chosen>,
    /// The root node.
    pub root: Node,
}

/// Whole-run statistics of a search.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Nodes visited (interior nodes and leaves).
    pub nodes: u64,
    /// Leaves evaluated (static evaluations and finished games).
    pub leaves: u64,
    /// Wall time of the search in milliseconds.
    pub time_ms: f64,
    /// Alpha-beta cut-offs.
    pub prune_events: u64,
    /// Sibling moves skipped by those cut-offs.
    pub pruned_nodes: u64,
    /// Transposition-table hits that answered a node without searching it.
    pub tt_hits: u64,
    /// Searches made again with a wider window or full depth after a null-window or reduced
    /// search failed high (principal variation search, late-move reductions).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub researches: u64,
    /// Moves searched shallower by late-move reductions.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reductions: u64,
    /// Nodes cut by a null move.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub null_cuts: u64,
    /// Singular searches: nodes whose table move was tested by searching the other moves
    /// shallower without it (singular extensions).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub singular_searches: u64,
    /// Table moves those searches extended a ply (none of the others came near).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extended: u64,
    /// Table moves those searches shortened a ply (negative extensions).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shortened: u64,
    /// Nodes those searches cut (multi-cuts).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub multi_cuts: u64,
    /// Moves skipped by late-move and futility pruning (never searched; recorded as `pruned`
    /// nodes with the reason `futility`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub forward_pruned: u64,
    /// Root searches repeated because the aspiration window failed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub aspiration_fails: u64,
    /// The depth of the last completed iteration.
    pub depth_reached: u32,
    /// Whether the recorded tree hit its node cap.
    pub truncated: bool,
    /// When truncated: the deepest level (the root is level 0) whose nodes were all kept; below
    /// it, each kept node keeps only its principal variation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_levels: Option<u32>,
    /// The recorder's memory at the end of the search, in bytes (records, breakdowns, cut moves).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree_bytes: Option<u64>,
    /// When the game's exact endgame solver decided the move: the positions it visited. Every
    /// value is then a finished game's (exact, or an upper bound), not an evaluation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver_nodes: Option<u64>,
    /// A parallel (Lazy SMP) search: one entry per thread, the main thread first. The main
    /// thread's search is the one recorded and the one every other field counts; the helper
    /// threads searched the same root, sharing the transposition table, and are not recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub workers: Vec<WorkerStats>,
}

/// What one thread of a parallel search did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkerStats {
    /// The thread's number: 0 is the main thread (the recorded search), 1 and up the helpers.
    pub worker: u32,
    /// Nodes the thread visited.
    pub nodes: u64,
    /// The deepest iteration the thread completed (helpers start at depth 1 or 2 and deepen
    /// until the main thread finishes).
    pub depth_reached: u32,
    /// Transposition-table hits that answered a node in this thread's search.
    pub tt_hits: u64,
    /// Of those, hits on entries another thread had stored.
    pub tt_hits_other: u64,
    /// Moves this thread put off because another thread was searching them at that moment, and
    /// searched after the node's other moves ([`crate::search::SearchConfig::defer_busy`]).
    #[serde(default)]
    pub deferred: u64,
    /// A split search (the page's parallel search over workers): the root moves this worker's
    /// search decided (their values in the tree come from its jobs), as move texts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub root_moves: Vec<String>,
}

/// The move chosen at the root.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chosen {
    /// The move's text.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its rank among the root moves by value, 1 for the best.
    pub rank: usize,
    /// `best`, `tie` (random among equal best), `randomness` (the randomness quotient picked a lower
    /// rank) or `random` (the random player); MCTS says it in words (`"most visits: 812 of 2000"`).
    pub reason: String,
    /// The chosen move's value in words, from the perspective (`"+1.3 pieces"`, `"win in 5
    /// plies"`), when the engine knows the unit of its values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_text: Option<String>,
}

/// What a node stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// The maximising player (the perspective) moves here.
    Max,
    /// The minimising player moves here.
    Min,
    /// Nature moves here; the value is the probability-weighted mean of the children.
    Chance,
    /// A static evaluation at the depth limit.
    Leaf,
    /// A finished game.
    Terminal,
    /// The siblings cut at once by one alpha-beta cut-off, or left out by the branching limit.
    Pruned,
    /// Nodes that were searched but not recorded because the tree hit its node cap.
    Truncated,
}

/// What a value is known to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least this (a fail-high).
    Lower,
    /// The true value is at most this (a fail-low).
    Upper,
}

/// Why a `pruned` node's siblings were cut.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cutoff {
    /// The id of the sibling whose value caused the cut (absent when it was not recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<u64>,
    /// That sibling's value.
    #[serde(default)]
    pub value: Option<f64>,
    /// The window when the cut happened.
    #[serde(default)]
    pub alpha: Option<f64>,
    /// The window when the cut happened.
    #[serde(default)]
    pub beta: Option<f64>,
}

/// One node of the tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Unique within the document.
    pub id: u64,
    /// The move that leads here (absent at the root).
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    /// What the node stands for.
    pub kind: NodeKind,
    /// The backed-up value from the perspective; `None` if never resolved.
    #[serde(default)]
    pub value: Option<f64>,
    /// What the value is known to be.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<Bound>,
    /// Alpha on entry (alpha-beta only; absent means minus infinity).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha: Option<f64>,
    /// Beta on entry (alpha-beta only; absent means plus infinity).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beta: Option<f64>,
    /// The pre-score that ordered this node among its siblings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prescore: Option<Breakdown>,
    /// The static evaluation, at a leaf.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<Breakdown>,
    /// The probability of this outcome, on children of a chance node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prob: Option<f64>,
    /// On the principal variation.
    #[serde(default, skip_serializing_if = "is_false")]
    pub best: bool,
    /// Answered from the transposition table without searching below.
    #[serde(default, skip_serializing_if = "is_false")]
    pub tt: bool,
    /// In a parallel search: the helper worker (1 and up) whose entry in the shared table gave
    /// this node its value (with `tt`) or the move it searched first; absent for the main
    /// thread's own work (worker 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tt_worker: Option<u32>,
    /// Searched with a null window (a zero-width window around alpha or beta: it only asks
    /// whether the move beats the best so far).
    #[serde(default, skip_serializing_if = "is_false")]
    pub null_window: bool,
    /// Its search's result was not enough (a null-window or reduced search failed high): the same
    /// move was searched again, as the next sibling.
    #[serde(default, skip_serializing_if = "is_false")]
    pub failed_high: bool,
    /// A second search of the same move (the sibling before it failed high).
    #[serde(default, skip_serializing_if = "is_false")]
    pub research: bool,
    /// Searched this many plies shallower than its siblings (a late-move reduction).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduced: Option<u32>,
    /// Cut by a null move: with the turn passed, a shallower search already scored beyond the
    /// window, so none of its moves was searched.
    #[serde(default, skip_serializing_if = "is_false")]
    pub null_move: bool,
    /// Singular extensions: the table's move, searched a ply deeper than its siblings because no
    /// other move came near its value in a shallower search that left it out.
    #[serde(default, skip_serializing_if = "is_false")]
    pub extended: bool,
    /// Singular extensions: the table's move, searched a ply shallower than its siblings (a
    /// negative extension): its value from the table is already beyond the window, and another
    /// move came near it too.
    #[serde(default, skip_serializing_if = "is_false")]
    pub shortened: bool,
    /// Cut by a multi-cut (singular extensions): the table's move scored beyond the window, and
    /// so did another move in a shallower search without it, so none of its moves was searched.
    #[serde(default, skip_serializing_if = "is_false")]
    pub multi_cut: bool,
    /// For `pruned` and `truncated` nodes: how many nodes this one stands for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// For `pruned` nodes: the moves cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<String>>,
    /// For `pruned` nodes cut by alpha-beta: what caused the cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cutoff: Option<Cutoff>,
    /// For `pruned` nodes: `alphabeta`, `branching_limit` or `futility` (forward pruning).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A chance outcome whose search was shared with the sibling of this id (same value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_as: Option<u64>,
    /// The node's place in the search order (0 for the root), unrecorded nodes counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<u64>,
    /// MCTS: the iterations that went through this node (its `value` is their mean score).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visits: Option<u64>,
    /// MCTS: the move's prior probability among its siblings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior: Option<f64>,
    /// MCTS: the selection score the parent gave this move when the search ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uct: Option<f64>,
    /// MCTS with the solver: the result is proven (the value is exact: 0 a loss, 1/2 a draw, 1 a
    /// win for the perspective).
    #[serde(default, skip_serializing_if = "is_false")]
    pub proven: bool,
    /// Free-form facts about the node (kept from foreign formats), shown in the tooltip.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Map<String, serde_json::Value>>,
    /// The children, in the order searched.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Node>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Node {
    /// A node with the given id and kind and nothing else.
    pub fn new(id: u64, kind: NodeKind) -> Self {
        Node {
            id,
            mv: None,
            kind,
            value: None,
            bound: None,
            alpha: None,
            beta: None,
            prescore: None,
            eval: None,
            prob: None,
            best: false,
            tt: false,
            tt_worker: None,
            null_window: false,
            failed_high: false,
            research: false,
            reduced: None,
            null_move: false,
            extended: false,
            shortened: false,
            multi_cut: false,
            count: None,
            moves: None,
            cutoff: None,
            reason: None,
            order: None,
            same_as: None,
            visits: None,
            prior: None,
            uct: None,
            proven: false,
            data: None,
            children: Vec::new(),
        }
    }

    /// The number of nodes in this subtree, this one included.
    pub fn size(&self) -> usize {
        1 + self.children.iter().map(Node::size).sum::<usize>()
    }
}

impl TreeDocument {
    /// The document as pretty JSON (two-space indents).
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self)
            .expect("tree documents hold only finite numbers and strings")
    }

    /// The document as compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("tree documents hold only finite numbers and strings")
    }
}
