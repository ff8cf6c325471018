//! The compact tree: what a recorded search becomes once its moves have text, and what the
//! compact JSON (version 2) and the binary form sent to the page are written from and read into.
//!
//! Nodes sit in one array in pre-order (a node's children follow it, in the order searched), each
//! with its parent's index. Move texts and term names are interned once; a breakdown is a layout
//! (term names with weights) and one `f32` raw measure per term in a shared pool.
//!
//! [`Tree::to_document`] and [`Tree::from_document`] convert to and from the nested version-1
//! document ([`TreeDocument`]), which is also the model the round-trip tests compare.

use super::document::{
    Bound, Chosen, Cutoff, Node, NodeKind, Stats, TreeDocument, FORMAT_NAME, FORMAT_VERSION,
};
use crate::core::{Breakdown, Term, ValueScale};
use std::collections::HashMap;

/// "None" for node and string indices.
pub const NONE: u32 = u32::MAX;

/// Everything a document says besides its nodes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Header {
    /// The game id.
    pub game: String,
    /// The root position in the game's own text.
    pub root_position: Option<String>,
    /// Who wrote the document.
    pub engine: String,
    /// `alphabeta`, `minimax`, `expectimax`...
    pub algorithm: String,
    /// The evaluator whose terms the breakdowns hold.
    pub evaluator: Option<String>,
    /// The player whose view every value takes.
    pub perspective: String,
    /// How the values read (unit, decided games), when the engine says.
    pub values: Option<ValueScale>,
    /// The search settings.
    pub settings: serde_json::Map<String, serde_json::Value>,
    /// Whole-run statistics.
    pub stats: Stats,
    /// The move chosen.
    pub chosen: Option<Chosen>,
}

/// Term names with their weights, shared by breakdowns.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeLayout {
    /// Indices into [`Tree::names`].
    pub names: Vec<u32>,
    /// One weight per term.
    pub weights: Vec<f64>,
}

/// A breakdown: its total, its layout and where its raw measures start in [`Tree::raws`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bd {
    /// The evaluation's result.
    pub total: f64,
    /// Index into [`Tree::layouts`].
    pub layout: u32,
    /// Offset of the first raw measure in [`Tree::raws`].
    pub at: u32,
}

/// Why a `pruned` node's moves were left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PruneReason {
    /// An alpha-beta cut-off.
    Alphabeta,
    /// The branching limit kept only the best moves by pre-score.
    BranchingLimit,
    /// Forward pruning: moves skipped near the horizon as unpromising (late-move pruning: late
    /// in the order and gaining nothing; futility pruning: quiet, with the static evaluation far
    /// below the window).
    Futility,
}

impl PruneReason {
    /// The text written in documents.
    pub fn id(self) -> &'static str {
        match self {
            PruneReason::Alphabeta => "alphabeta",
            PruneReason::BranchingLimit => "branching_limit",
            PruneReason::Futility => "futility",
        }
    }
}

/// How the search treated a node (principal variation search, late-move reductions, null-move
/// pruning, singular extensions): bit 0 null window, bit 1 failed high (searched again as the next
/// sibling), bit 2 a re-search, bit 3 cut by a null move, bits 4-7 the plies of a reduction (the
/// first byte, the binary form's `note`), bit 8 extended (singular), bit 9 shortened (a negative
/// extension), bit 10 cut by a multi-cut (the second byte, the binary form's `note2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Note(pub u16);

impl Note {
    /// Searched with a null window.
    pub const NULL_WINDOW: u16 = 1;
    /// Failed high: the same move was searched again (the next sibling).
    pub const FAILED_HIGH: u16 = 2;
    /// A re-search of the move the sibling before it searched.
    pub const RESEARCH: u16 = 4;
    /// Cut by a null move.
    pub const NULL_MOVE: u16 = 8;
    /// Where the reduction's plies start.
    pub const REDUCED_SHIFT: u16 = 4;
    /// Singular extensions: the table's move, searched a ply deeper than its siblings because
    /// none of them came near its value in a shallower search that left it out.
    pub const EXTENDED: u16 = 1 << 8;
    /// Singular extensions: the table's move, searched a ply shallower than its siblings (a
    /// negative extension) because its value from the table is already beyond the window and
    /// another move came near it too.
    pub const SHORTENED: u16 = 1 << 9;
    /// Singular extensions: the node was cut without searching its moves because the table's
    /// move and, in a shallower search without it, another move both scored beyond the window
    /// (a multi-cut).
    pub const MULTI_CUT: u16 = 1 << 10;
    /// The flags outside the first byte.
    pub const HIGH: u16 = Self::EXTENDED | Self::SHORTENED | Self::MULTI_CUT;

    /// A note with a reduction of `plies` (at most 15) and the given flags.
    pub fn new(flags: u16, plies: u32) -> Self {
        Note((flags & (15 | Self::HIGH)) | ((plies.min(15) as u16) << Self::REDUCED_SHIFT))
    }
    /// Whether nothing is noted.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Whether flag `f` is set.
    pub fn has(self, f: u16) -> bool {
        self.0 & f != 0
    }
    /// The plies of a reduction (0: none).
    pub fn reduced(self) -> u32 {
        ((self.0 >> Self::REDUCED_SHIFT) & 15) as u32
    }
    /// The first byte (flags of bits 0-3 and the reduction), as the binary form's `note`.
    pub fn low(self) -> u8 {
        self.0 as u8
    }
    /// The second byte (bit 0 extended, 1 shortened, 2 multi-cut), as the binary form's `note2`.
    pub fn high(self) -> u8 {
        (self.0 >> 8) as u8
    }
}

/// One node of a [`Tree`].
#[derive(Debug, Clone, PartialEq)]
pub struct TreeNode {
    /// The parent's index ([`NONE`] at the root).
    pub parent: u32,
    /// What the node stands for (never `Truncated`: see `unrecorded`).
    pub kind: NodeKind,
    /// What the value is known to be.
    pub bound: Option<Bound>,
    /// On the principal variation.
    pub best: bool,
    /// Answered from the transposition table.
    pub tt: bool,
    /// A parallel search's helper worker (1 and up) whose shared-table entry gave this node its
    /// value (with `tt`) or the move searched first; 0 when none did (the main thread's own work).
    pub tt_worker: u8,
    /// How the search treated it (null window, re-search, reduction, null-move cut).
    pub note: Note,
    /// The move leading here, as an index into [`Tree::moves`] ([`NONE`] at the root and for
    /// `pruned` nodes).
    pub mv: u32,
    /// The backed-up value (for a `pruned` node: the value of the sibling that caused the cut).
    pub value: Option<f64>,
    /// Alpha on entry (for a `pruned` node: when the cut happened); `None` is minus infinity.
    pub alpha: Option<f64>,
    /// Beta on entry (for a `pruned` node: when the cut happened); `None` is plus infinity.
    pub beta: Option<f64>,
    /// The probability of this outcome, under a chance node.
    pub prob: Option<f64>,
    /// The pre-score's breakdown.
    pub prescore: Option<Bd>,
    /// The static evaluation's breakdown, at a leaf.
    pub eval: Option<Bd>,
    /// Nodes searched below this one that are not in the tree (dropped by the cap).
    pub unrecorded: u64,
    /// The node's place in the search order (0 for the root), counting unrecorded nodes too.
    pub order: Option<u64>,
    /// For `pruned` nodes: how many moves were cut (`cut[cut_at..cut_at + count]`).
    pub count: u64,
    /// For `pruned` nodes: where the cut moves start in [`Tree::cut`].
    pub cut_at: u32,
    /// For `pruned` nodes cut by alpha-beta: the index of the sibling that caused the cut.
    pub by: Option<u32>,
    /// For `pruned` nodes: why.
    pub reason: Option<PruneReason>,
    /// A chance outcome whose search was shared with this earlier sibling (same value; its
    /// subtree is the sibling's): not searched itself.
    pub same_as: Option<u32>,
    /// MCTS: how many playouts went through this node (its `value` is then their mean score).
    pub visits: Option<u64>,
    /// MCTS: the node's prior probability among its siblings (from the pre-scores).
    pub prior: Option<f64>,
    /// MCTS: the selection score (UCT, or PUCT with priors) the parent gave this node when the
    /// search ended, from the view of the player who chooses at the parent.
    pub uct: Option<f64>,
    /// MCTS with the solver: the node's result is proven (its `value` is then the exact result,
    /// 0 a loss, 1/2 a draw, 1 a win for the perspective, not a mean of playouts).
    pub proven: bool,
}

impl TreeNode {
    /// A node of `kind` under `parent` with nothing else set.
    pub fn new(parent: u32, kind: NodeKind) -> Self {
        TreeNode {
            parent,
            kind,
            bound: None,
            best: false,
            tt: false,
            tt_worker: 0,
            note: Note(0),
            mv: NONE,
            value: None,
            alpha: None,
            beta: None,
            prob: None,
            prescore: None,
            eval: None,
            unrecorded: 0,
            order: None,
            count: 0,
            cut_at: 0,
            by: None,
            reason: None,
            same_as: None,
            visits: None,
            prior: None,
            uct: None,
            proven: false,
        }
    }
}

/// A search tree in compact form (see the module documentation).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tree {
    /// The document's header.
    pub head: Header,
    /// Distinct move texts.
    pub moves: Vec<String>,
    /// Distinct term names.
    pub names: Vec<String>,
    /// Distinct layouts.
    pub layouts: Vec<TreeLayout>,
    /// The nodes, in pre-order; the root first.
    pub nodes: Vec<TreeNode>,
    /// The raw measures of every breakdown.
    pub raws: Vec<f32>,
    /// The moves of `pruned` nodes, as indices into `moves`.
    pub cut: Vec<u32>,
}

/// Interns strings into a table.
#[derive(Default)]
pub(crate) struct Interner {
    map: HashMap<String, u32>,
}

impl Interner {
    pub(crate) fn id(&mut self, table: &mut Vec<String>, s: &str) -> u32 {
        if let Some(&i) = self.map.get(s) {
            return i;
        }
        let i = table.len() as u32;
        table.push(s.to_string());
        self.map.insert(s.to_string(), i);
        i
    }
}

impl Tree {
    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The raw measures of breakdown `b`.
    pub fn raws_of(&self, b: &Bd) -> &[f32] {
        let n = self.layouts[b.layout as usize].names.len();
        &self.raws[b.at as usize..b.at as usize + n]
    }

    /// The text of a move index (empty for [`NONE`]).
    pub fn move_text(&self, i: u32) -> &str {
        self.moves.get(i as usize).map_or("", |s| s.as_str())
    }

    /// The children of every node, as (first child, next sibling) arrays.
    pub fn links(&self) -> (Vec<u32>, Vec<u32>) {
        let n = self.nodes.len();
        let mut first = vec![NONE; n];
        let mut next = vec![NONE; n];
        let mut last = vec![NONE; n];
        for i in 1..n {
            let p = self.nodes[i].parent as usize;
            if last[p] == NONE {
                first[p] = i as u32;
            } else {
                next[last[p] as usize] = i as u32;
            }
            last[p] = i as u32;
        }
        (first, next)
    }

    /// Nodes that were searched and are in the tree plus those counted as unrecorded: the number
    /// of nodes the search visited, the root included, when the tree comes from one iteration.
    pub fn searched(&self) -> u64 {
        self.nodes
            .iter()
            .map(|n| {
                if n.kind == NodeKind::Pruned || n.same_as.is_some() {
                    0
                } else {
                    1 + n.unrecorded
                }
            })
            .sum()
    }

    fn breakdown(&self, b: &Bd) -> Breakdown {
        let l = &self.layouts[b.layout as usize];
        let raws = self.raws_of(b);
        Breakdown {
            total: b.total,
            terms: l
                .names
                .iter()
                .zip(&l.weights)
                .zip(raws)
                .map(|((&name, &weight), &raw)| Term {
                    name: self.names[name as usize].clone(),
                    raw: raw as f64,
                    weight,
                    value: raw as f64 * weight,
                })
                .collect(),
        }
    }

    /// The nested version-1 document of this tree. Unrecorded nodes become one `truncated` child
    /// (with `count`) after a node's other children; those children's ids follow the nodes'.
    pub fn to_document(&self) -> TreeDocument {
        let h = &self.head;
        let root = if self.nodes.is_empty() {
            Node::new(0, NodeKind::Max)
        } else {
            let (first, next) = self.links();
            let mut next_id = self.nodes.len() as u64;
            self.nested(0, &first, &next, &mut next_id)
        };
        TreeDocument {
            format: FORMAT_NAME.to_string(),
            version: FORMAT_VERSION,
            game: h.game.clone(),
            root_position: h.root_position.clone(),
            engine: h.engine.clone(),
            algorithm: h.algorithm.clone(),
            evaluator: h.evaluator.clone(),
            perspective: h.perspective.clone(),
            values: h.values.clone(),
            settings: h.settings.clone(),
            stats: h.stats.clone(),
            chosen: h.chosen.clone(),
            root,
        }
    }

    fn nested(&self, i: usize, first: &[u32], next: &[u32], next_id: &mut u64) -> Node {
        let t = &self.nodes[i];
        let mut node = Node::new(i as u64, t.kind);
        node.mv = (t.mv != NONE).then(|| self.moves[t.mv as usize].clone());
        node.bound = t.bound;
        node.best = t.best;
        node.tt = t.tt;
        node.tt_worker = (t.tt_worker != 0).then_some(t.tt_worker as u32);
        node.null_window = t.note.has(Note::NULL_WINDOW);
        node.failed_high = t.note.has(Note::FAILED_HIGH);
        node.research = t.note.has(Note::RESEARCH);
        node.null_move = t.note.has(Note::NULL_MOVE);
        node.reduced = (t.note.reduced() > 0).then(|| t.note.reduced());
        node.extended = t.note.has(Note::EXTENDED);
        node.shortened = t.note.has(Note::SHORTENED);
        node.multi_cut = t.note.has(Note::MULTI_CUT);
        node.prob = t.prob;
        node.order = t.order;
        node.same_as = t.same_as.map(|s| s as u64);
        node.visits = t.visits;
        node.prior = t.prior;
        node.uct = t.uct;
        node.proven = t.proven;
        node.prescore = t.prescore.as_ref().map(|b| self.breakdown(b));
        node.eval = t.eval.as_ref().map(|b| self.breakdown(b));
        if t.kind == NodeKind::Pruned {
            node.count = Some(t.count);
            node.moves = Some(
                self.cut[t.cut_at as usize..(t.cut_at as u64 + t.count) as usize]
                    .iter()
                    .map(|&m| self.moves[m as usize].clone())
                    .collect(),
            );
            node.reason = t.reason.map(|r| r.id().to_string());
            if t.reason == Some(PruneReason::Alphabeta) {
                node.cutoff = Some(Cutoff {
                    by: t.by.map(|b| b as u64),
                    value: t.value,
                    alpha: t.alpha,
                    beta: t.beta,
                });
            }
        } else {
            node.value = t.value;
            node.alpha = t.alpha;
            node.beta = t.beta;
        }
        let mut c = first[i];
        while c != NONE {
            node.children
                .push(self.nested(c as usize, first, next, next_id));
            c = next[c as usize];
        }
        if t.unrecorded > 0 {
            let mut u = Node::new(*next_id, NodeKind::Truncated);
            *next_id += 1;
            u.count = Some(t.unrecorded);
            node.children.push(u);
        }
        node
    }

    /// The compact form of a version-1 document. `truncated` children are folded into their
    /// parent's unrecorded count; `data` (foreign facts) is not kept; cut-off `by` ids are mapped
    /// to node indices (dropped when they name no sibling).
    pub fn from_document(doc: &TreeDocument) -> Tree {
        let mut t = Tree {
            head: Header {
                game: doc.game.clone(),
                root_position: doc.root_position.clone(),
                engine: doc.engine.clone(),
                algorithm: doc.algorithm.clone(),
                evaluator: doc.evaluator.clone(),
                perspective: doc.perspective.clone(),
                values: doc.values.clone(),
                settings: doc.settings.clone(),
                stats: doc.stats.clone(),
                chosen: doc.chosen.clone(),
            },
            ..Tree::default()
        };
        let mut b = Builder::default();
        let mut ids: HashMap<u64, u32> = HashMap::new();
        let mut pending: Vec<(u32, u64)> = Vec::new();
        let mut shares: Vec<(u32, u64)> = Vec::new();
        // Explicit stack: (node, parent index).
        let mut stack: Vec<(&Node, u32)> = vec![(&doc.root, NONE)];
        while let Some((n, parent)) = stack.pop() {
            if n.kind == NodeKind::Truncated {
                if parent != NONE {
                    let p = &mut t.nodes[parent as usize];
                    p.unrecorded = p.unrecorded.saturating_add(n.count.unwrap_or(0));
                }
                continue;
            }
            let i = t.nodes.len() as u32;
            ids.insert(n.id, i);
            let mut x = TreeNode::new(parent, n.kind);
            x.bound = n.bound;
            x.best = n.best;
            x.tt = n.tt;
            x.tt_worker = n.tt_worker.map_or(0, |w| w.min(255) as u8);
            x.note = Note::new(
                (n.null_window as u16) * Note::NULL_WINDOW
                    | (n.failed_high as u16) * Note::FAILED_HIGH
                    | (n.research as u16) * Note::RESEARCH
                    | (n.null_move as u16) * Note::NULL_MOVE
                    | (n.extended as u16) * Note::EXTENDED
                    | (n.shortened as u16) * Note::SHORTENED
                    | (n.multi_cut as u16) * Note::MULTI_CUT,
                n.reduced.unwrap_or(0),
            );
            x.prob = n.prob;
            x.order = n.order;
            x.visits = n.visits;
            x.prior = n.prior;
            x.uct = n.uct;
            x.proven = n.proven;
            if let Some(s) = n.same_as {
                shares.push((i, s));
            }
            x.mv = match &n.mv {
                Some(m) => b.moves.id(&mut t.moves, m),
                None => NONE,
            };
            x.prescore = n.prescore.as_ref().map(|bd| b.breakdown(&mut t, bd));
            x.eval = n.eval.as_ref().map(|bd| b.breakdown(&mut t, bd));
            if n.kind == NodeKind::Pruned {
                let moves = n.moves.as_deref().unwrap_or(&[]);
                x.cut_at = t.cut.len() as u32;
                for m in moves {
                    let id = b.moves.id(&mut t.moves, m);
                    t.cut.push(id);
                }
                x.count = moves.len() as u64;
                x.reason = match n.reason.as_deref() {
                    Some("branching_limit") => Some(PruneReason::BranchingLimit),
                    Some("alphabeta") => Some(PruneReason::Alphabeta),
                    Some("futility") => Some(PruneReason::Futility),
                    _ => None,
                };
                if let Some(c) = &n.cutoff {
                    x.value = c.value;
                    x.alpha = c.alpha;
                    x.beta = c.beta;
                    if let Some(by) = c.by {
                        pending.push((i, by));
                    }
                }
            } else {
                x.value = n.value;
                x.alpha = n.alpha;
                x.beta = n.beta;
            }
            t.nodes.push(x);
            for c in n.children.iter().rev() {
                stack.push((c, i));
            }
        }
        for (i, s) in shares {
            if let Some(&j) = ids.get(&s) {
                if t.nodes[j as usize].parent == t.nodes[i as usize].parent {
                    t.nodes[i as usize].same_as = Some(j);
                }
            }
        }
        for (i, by) in pending {
            let p = t.nodes[i as usize].parent;
            if let Some(&j) = ids.get(&by) {
                if t.nodes[j as usize].parent == p {
                    t.nodes[i as usize].by = Some(j);
                }
            }
        }
        t
    }
}

/// Interning state while a [`Tree`] is built.
#[derive(Default)]
pub(crate) struct Builder {
    pub(crate) moves: Interner,
    names: Interner,
    layouts: HashMap<(Vec<u32>, Vec<u64>), u32>,
}

impl Builder {
    /// Interns a layout given by names and weights.
    pub(crate) fn layout(&mut self, t: &mut Tree, names: &[&str], weights: &[f64]) -> u32 {
        let ids: Vec<u32> = names
            .iter()
            .map(|n| self.names.id(&mut t.names, n))
            .collect();
        let key = (ids, weights.iter().map(|w| w.to_bits()).collect::<Vec<_>>());
        if let Some(&l) = self.layouts.get(&key) {
            return l;
        }
        let l = t.layouts.len() as u32;
        t.layouts.push(TreeLayout {
            names: key.0.clone(),
            weights: weights.to_vec(),
        });
        self.layouts.insert(key, l);
        l
    }

    fn breakdown(&mut self, t: &mut Tree, bd: &Breakdown) -> Bd {
        let names: Vec<&str> = bd.terms.iter().map(|x| x.name.as_str()).collect();
        let weights: Vec<f64> = bd.terms.iter().map(|x| x.weight).collect();
        let layout = self.layout(t, &names, &weights);
        let at = t.raws.len() as u32;
        t.raws.extend(bd.terms.iter().map(|x| x.raw as f32));
        Bd {
            total: bd.total,
            layout,
            at,
        }
    }
}

/// A tree serialises as its nested version-1 document (the search report's `tree` field).
impl serde::Serialize for Tree {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_document().serialize(s)
    }
}

impl Tree {
    /// The child of `i` that gives its value: the first child whose value equals it (max and min
    /// nodes), the likeliest outcome (chance nodes), otherwise the first child; never `pruned`.
    fn value_child(&self, i: usize, first: &[u32], next: &[u32]) -> u32 {
        let n = &self.nodes[i];
        let mut c = first[i];
        let mut any = NONE;
        let mut likeliest = (NONE, f64::NEG_INFINITY);
        while c != NONE {
            let x = &self.nodes[c as usize];
            if x.kind != NodeKind::Pruned && x.same_as.is_none() {
                if any == NONE {
                    any = c;
                }
                match n.kind {
                    NodeKind::Max | NodeKind::Min if x.value.is_some() && x.value == n.value => {
                        return c
                    }
                    NodeKind::Chance if x.prob.unwrap_or(0.0) > likeliest.1 => {
                        likeliest = (c, x.prob.unwrap_or(0.0))
                    }
                    _ => {}
                }
            }
            c = next[c as usize];
        }
        if likeliest.0 != NONE {
            likeliest.0
        } else {
            any
        }
    }

    /// This tree within `max_nodes` nodes, cut by the recorder's policy: every node of levels
    /// `0..=L` (L at least 1, as large as fits), and below each node of level `L` the line that
    /// gives its value, down to a leaf; then, while they fit, more of level `L + 1`: the first
    /// child (in search order) of every node of level `L`, then the second, and so on, each with
    /// the line that gives its value. Dropped nodes are counted in their nearest kept
    /// ancestor's `unrecorded`; `stats.truncated` and `stats.full_levels` say what happened.
    /// Returns a copy when the tree already fits.
    pub fn capped(&self, max_nodes: usize) -> Tree {
        let n = self.nodes.len();
        if n <= max_nodes {
            return self.clone();
        }
        let (first, next) = self.links();
        let mut depth = vec![0u32; n];
        for j in 1..n {
            depth[j] = depth[self.nodes[j].parent as usize] + 1;
        }
        // The chain below each node, to count what each level costs.
        let mut chain = vec![0usize; n];
        let mut best = vec![NONE; n];
        for j in (0..n).rev() {
            let b = self.value_child(j, &first, &next);
            best[j] = b;
            chain[j] = if b == NONE { 0 } else { 1 + chain[b as usize] };
        }
        let maxd = depth.iter().copied().max().unwrap_or(0) as usize;
        let mut cost = vec![0usize; maxd + 1];
        for j in 0..n {
            let d = depth[j] as usize;
            for (l, c) in cost.iter_mut().enumerate() {
                if d <= l {
                    *c += 1;
                    if d == l {
                        *c += chain[j];
                    }
                }
            }
        }
        let mut limit = 1usize;
        for l in (1..=maxd).rev() {
            if cost[l] <= max_nodes {
                limit = l;
                break;
            }
        }
        // What is left of the budget goes to level limit + 1, in part: the first child of each
        // node of level `limit`, then the second of each, and so on (search order), each with
        // its principal variation, while they fit.
        let mut extra = vec![false; n];
        let mut used = cost[limit];
        let mut rank = vec![0u32; n];
        let mut candidates: Vec<(u32, u32)> = Vec::new();
        for j in 0..n {
            let mut c = first[j];
            let mut r = 0;
            while c != NONE {
                rank[c as usize] = r;
                r += 1;
                if depth[j] as usize == limit && best[j] != c {
                    candidates.push((rank[c as usize], c));
                }
                c = next[c as usize];
            }
        }
        candidates.sort_unstable();
        for &(_, c) in &candidates {
            let more = 1 + chain[c as usize];
            if used + more > max_nodes {
                break;
            }
            used += more;
            extra[c as usize] = true;
        }
        let mut keep = vec![false; n];
        keep[0] = true;
        for j in 1..n {
            let p = self.nodes[j].parent as usize;
            keep[j] = keep[p] && ((depth[p] as usize) < limit || best[p] == j as u32 || extra[j]);
        }
        let mut out = Tree {
            head: self.head.clone(),
            moves: self.moves.clone(),
            names: self.names.clone(),
            layouts: self.layouts.clone(),
            ..Tree::default()
        };
        out.head.stats.truncated = true;
        out.head.stats.full_levels = Some(
            self.head
                .stats
                .full_levels
                .map_or(limit as u32, |f| f.min(limit as u32)),
        );
        let mut new_idx = vec![NONE; n];
        let mut anchor = vec![0u32; n];
        let mut lost = vec![0u64; n];
        for j in 0..n {
            if j > 0 {
                let p = self.nodes[j].parent as usize;
                anchor[j] = if keep[p] { p as u32 } else { anchor[p] };
            }
            if !keep[j] {
                let x = &self.nodes[j];
                if x.kind != NodeKind::Pruned && x.same_as.is_none() {
                    lost[anchor[j] as usize] += 1 + x.unrecorded;
                }
            }
        }
        let bd = |out: &mut Tree, b: &Bd| -> Bd {
            let at = out.raws.len() as u32;
            out.raws.extend_from_slice(self.raws_of(b));
            Bd { at, ..*b }
        };
        for j in 0..n {
            if !keep[j] {
                continue;
            }
            let mut x = self.nodes[j].clone();
            new_idx[j] = out.nodes.len() as u32;
            if j > 0 {
                x.parent = new_idx[x.parent as usize];
            }
            x.unrecorded += lost[j];
            let shared = matches!((&x.prescore, &x.eval), (Some(p), Some(e)) if p.at == e.at);
            x.prescore = x.prescore.map(|b| bd(&mut out, &b));
            x.eval = match (x.eval, shared) {
                (Some(e), true) => Some(Bd {
                    at: x.prescore.map_or(e.at, |p| p.at),
                    ..e
                }),
                (Some(e), false) => Some(bd(&mut out, &e)),
                (None, _) => None,
            };
            if x.kind == NodeKind::Pruned {
                let at = x.cut_at as usize;
                x.cut_at = out.cut.len() as u32;
                out.cut
                    .extend_from_slice(&self.cut[at..at + x.count as usize]);
                x.by = x.by.and_then(|b| {
                    let nb = new_idx[b as usize];
                    (nb != NONE).then_some(nb)
                });
            }
            x.same_as = x.same_as.and_then(|b| {
                let nb = new_idx[b as usize];
                (nb != NONE).then_some(nb)
            });
            out.nodes.push(x);
        }
        out
    }
}
