//! The compact recorder: fixed-size node records in one arena, breakdowns in one pool.
//!
//! Each node is one [`Rec`] (64 bytes for every game so far: see `plyscope bench`): parent and
//! next-sibling indices (the first child, when there is one, is the next record), the move in the
//! game's own small form, value, window, pre-score total or probability, offsets of its breakdowns
//! in the pool, the count of unrecorded nodes below it, its place in the search order, and kind,
//! bound and flags in 16 bits. A breakdown in the pool is its layout id followed by one `f32` per
//! term. Nothing is formatted during the search: move text is made when a [`Tree`] is built.
//!
//! # What a budget keeps
//!
//! Records are appended in the order the search visits nodes, so a node's subtree is always the
//! run of records after it. The arena keeps everything until it reaches its budget (nodes or
//! bytes). It then chooses a level `L` (at least 1) and keeps only:
//! - every node at levels `0..=L` (the root is level 0, so every root move is always kept, with
//!   its value, bound and pre-score);
//! - below each node of level `L` or deeper, its principal variation: the child that gave its
//!   value (the first child whose value equals it; under a chance node the likeliest outcome), down
//!   to a leaf. So every root move keeps its principal variation;
//! - level `L + 1` in part: below each node of level `L`, its first `k` children in search order
//!   (the best by pre-score, when the search orders moves), each with its principal variation.
//!   `k` is as large as fits (0 when only the principal variations do), so the budget is filled
//!   instead of stopping at the last whole level;
//! - everything on the path the search is walking.
//!
//! From then on a node at level `L` or deeper drops its other children when it closes (only the
//! run of records after it changes, so this is a copy of the kept records). When the budget is
//! reached again, `(L, k)` goes down: `k` first, then `L`. A node that lost children counts, in
//! `unrecorded`, every searched node that is no longer below it.

use super::document::{Bound, NodeKind, Stats};
use super::model::{Bd, Header, Note, PruneReason, Tree, TreeNode, NONE};
use super::stage::{Stage, EVAL_IS_PRESCORE, LAZY, NO_STAGE};
use crate::core::{Evaluator, Game, PlayerId, TermSink};
use std::any::Any;
use std::cell::RefCell;

/// The default cap on recorded nodes.
pub const DEFAULT_NODE_CAP: usize = 200_000;
/// The default cap on the recorder's memory, in bytes.
pub const DEFAULT_BYTE_CAP: usize = 256 << 20;

/// Receives the search tree as the search walks it.
///
/// Calls nest like the search: `open` a child of the node opened last and not yet closed, then
/// `close` it. The search calls these only inside `if R::ACTIVE { ... }`.
pub trait Recorder<M: Copy> {
    /// Whether anything is recorded.
    const ACTIVE: bool;

    /// Opens a node below the current one and makes it current: the move that leads to it, its
    /// probability under a chance node, its pre-score (a staged breakdown, or [`NO_STAGE`]) and
    /// the window on entry (`alpha` and `beta` may be infinite).
    fn open(
        &mut self,
        mv: Option<M>,
        prob: Option<f64>,
        prescore: u32,
        stage: &Stage,
        alpha: f64,
        beta: f64,
    );

    /// The pre-score total of the current node, if it has one.
    fn current_prescore(&self) -> Option<f64>;

    /// Adds, under the current node, a closed child reached by `mv` with probability `prob` whose
    /// search was shared with the sibling searched last (it has that sibling's `value`).
    fn shared(&mut self, mv: M, prob: f64, value: f64, stage: &Stage);

    /// Closes the current node with its kind, value and bound, the evaluation breakdown at a leaf
    /// (a staged breakdown, [`EVAL_IS_PRESCORE`] or [`NO_STAGE`]), and whether the transposition
    /// table answered it.
    fn close(
        &mut self,
        kind: NodeKind,
        value: Option<f64>,
        bound: Bound,
        eval: u32,
        stage: &Stage,
        tt: bool,
    );

    /// Adds, under the current node, one `pruned` node standing for `moves`, cut because of the
    /// child closed last (value `value`) in the window `alpha..beta`.
    fn pruned<I: Iterator<Item = M>>(
        &mut self,
        moves: I,
        reason: PruneReason,
        value: f64,
        alpha: f64,
        beta: f64,
    );

    /// Notes how the search treats the current node (null window, re-search, reduction, null-move
    /// cut: see [`Note`]), adding to what was noted before. A re-search also marks the child
    /// closed last under the same parent (the search that failed high) as failed high.
    fn note(&mut self, note: Note);

    /// Adds `plies` to the current node's reduction (an internal iterative reduction: the node
    /// itself chose to search shallower), on top of any reduction its parent gave it.
    fn reduce(&mut self, plies: u32);

    /// Notes that the current node's value (when it is then closed as answered by the table) or
    /// the move it searches first came from an entry that helper worker `worker` (1 and up) of a
    /// parallel search stored in the shared transposition table.
    fn tt_worker(&mut self, worker: u8);

    /// Stops recording until [`Recorder::resume`]: what is opened meanwhile is counted as
    /// searched but not recorded (`unrecorded`) in the current node (a null-move search).
    fn pause(&mut self);

    /// Records again after [`Recorder::pause`].
    fn resume(&mut self);
}

/// Records nothing, at no cost.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoRecorder;

impl<M: Copy> Recorder<M> for NoRecorder {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn open(&mut self, _: Option<M>, _: Option<f64>, _: u32, _: &Stage, _: f64, _: f64) {}
    #[inline(always)]
    fn current_prescore(&self) -> Option<f64> {
        None
    }
    #[inline(always)]
    fn shared(&mut self, _: M, _: f64, _: f64, _: &Stage) {}
    #[inline(always)]
    fn close(&mut self, _: NodeKind, _: Option<f64>, _: Bound, _: u32, _: &Stage, _: bool) {}
    #[inline(always)]
    fn pruned<I: Iterator<Item = M>>(&mut self, _: I, _: PruneReason, _: f64, _: f64, _: f64) {}
    #[inline(always)]
    fn note(&mut self, _: Note) {}
    #[inline(always)]
    fn reduce(&mut self, _: u32) {}
    #[inline(always)]
    fn tt_worker(&mut self, _: u8) {}
    #[inline(always)]
    fn pause(&mut self) {}
    #[inline(always)]
    fn resume(&mut self) {}
}

// `Rec::bits`: kind in bits 0..3, bound in 3..5 (0 none, 1 exact, 2 lower, 3 upper), then flags.
const KIND_MASK: u16 = 0b111;
const BOUND_SHIFT: u16 = 3;
const HAS_PRE: u16 = 1 << 5;
const HAS_PROB: u16 = 1 << 6;
const HAS_EVAL: u16 = 1 << 7;
const EVAL_IS_PRE: u16 = 1 << 8;
const TT: u16 = 1 << 9;
const BRANCHING: u16 = 1 << 10;
/// A chance outcome whose search was shared with a sibling (`eval` holds the sibling's index).
const SHARED: u16 = 1 << 11;
/// The pre-score's breakdown is made when the tree is built ([`LAZY`]).
const LAZY_PRE: u16 = 1 << 12;
/// The leaf's evaluation breakdown is made when the tree is built ([`LAZY`]).
const LAZY_EVAL: u16 = 1 << 13;
/// A `pruned` record of moves skipped by forward pruning ([`PruneReason::Futility`]).
const FUTILITY: u16 = 1 << 14;
/// The notes of singular extensions ([`Note::HIGH`]), kept in bits a searched node does not use
/// otherwise (those of [`BRANCHING`] and [`FUTILITY`] are only read on `pruned` records), so a
/// record stays 64 bytes: [`Note::EXTENDED`], [`Note::SHORTENED`], [`Note::MULTI_CUT`].
const EXTENDED: u16 = 1 << 15;
const SHORTENED: u16 = BRANCHING;
const MULTI_CUT: u16 = FUTILITY;

/// The arena bits of the high flags of `note`.
fn high_bits(note: Note) -> u16 {
    let mut b = 0;
    if note.has(Note::EXTENDED) {
        b |= EXTENDED;
    }
    if note.has(Note::SHORTENED) {
        b |= SHORTENED;
    }
    if note.has(Note::MULTI_CUT) {
        b |= MULTI_CUT;
    }
    b
}

/// The note of a searched record: its note byte and its high flags from `bits`.
fn note_of(note: u8, bits: u16) -> Note {
    let mut n = note as u16;
    if bits & EXTENDED != 0 {
        n |= Note::EXTENDED;
    }
    if bits & SHORTENED != 0 {
        n |= Note::SHORTENED;
    }
    if bits & MULTI_CUT != 0 {
        n |= Note::MULTI_CUT;
    }
    Note(n)
}

const KINDS: [NodeKind; 7] = [
    NodeKind::Max,
    NodeKind::Min,
    NodeKind::Chance,
    NodeKind::Leaf,
    NodeKind::Terminal,
    NodeKind::Pruned,
    NodeKind::Truncated,
];

fn kind_bits(k: NodeKind) -> u16 {
    KINDS.iter().position(|&x| x == k).unwrap_or(3) as u16
}

fn bound_bits(b: Bound) -> u16 {
    (match b {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    }) << BOUND_SHIFT
}

/// One node. Fields whose meaning depends on the kind are said so.
#[derive(Debug, Clone, Copy)]
pub struct Rec<M> {
    parent: u32,
    next: u32,
    /// The value (NaN: none). `pruned`: the value that caused the cut.
    value: f64,
    alpha: f64,
    beta: f64,
    /// The pre-score total (`HAS_PRE`) or the probability (`HAS_PROB`).
    aux: f64,
    /// Pool offset of the pre-score breakdown. `pruned`: offset of its moves in the move pool.
    pre: u32,
    /// Pool offset of the evaluation breakdown. `pruned`: the index of the sibling that caused
    /// the cut ([`NONE`] if none). Shared outcomes: the sibling whose search they share.
    eval: u32,
    /// Searched nodes below that are not kept (saturating). `pruned`: how many moves were cut.
    count: u32,
    /// The node's place in the search order.
    order: u32,
    bits: u16,
    /// How the search treated the node ([`Note`]).
    note: u8,
    /// The helper worker whose shared-table entry gave the value or first move (0: none).
    worker: u8,
    mv: Option<M>,
}

impl<M> Rec<M> {
    #[inline]
    fn kind(&self) -> NodeKind {
        KINDS[(self.bits & KIND_MASK) as usize]
    }
    #[inline]
    fn is_pruned(&self) -> bool {
        self.bits & KIND_MASK == 5
    }
    #[inline]
    fn is_shared(&self) -> bool {
        self.bits & SHARED != 0
    }
    /// Searched nodes this record stands for (itself and its unrecorded ones).
    #[inline]
    fn weight(&self) -> u64 {
        if self.is_pruned() || self.is_shared() {
            0
        } else {
            1 + self.count as u64
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Open {
    idx: u32,
    last: u32,
    /// The child closed last (not a shared or pruned one).
    searched: u32,
    /// Pool and move-pool lengths once the node was opened: what follows belongs to its subtree.
    raws: u32,
    moves: u32,
}

thread_local! {
    /// Arenas given back on this thread (see [`Arena::take`]), boxed because their move types
    /// differ by game.
    static SPARE: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// How many arenas a thread keeps for reuse (iterative deepening holds two at once).
const SPARES: usize = 2;
/// Arenas holding more memory than this are not kept for reuse.
const SPARE_MAX_BYTES: usize = 128 << 20;

/// Records the tree into an arena within a budget (see the module documentation).
#[derive(Debug, Clone)]
pub struct Arena<M> {
    recs: Vec<Rec<M>>,
    raws: Vec<f32>,
    moves: Vec<M>,
    stack: Vec<Open>,
    opened: u64,
    limit: u32,
    /// How many children (the first searched) a node of level `limit` keeps besides its best
    /// child: level `limit + 1` is kept in part ([`u32::MAX`] before any reduction).
    keep_k: u32,
    node_cap: usize,
    byte_cap: usize,
    soft_nodes: usize,
    soft_bytes: usize,
    reductions: u32,
    /// Recording is paused ([`Recorder::pause`]); `ghosts` nodes are open meanwhile.
    paused: bool,
    ghosts: u32,
    scratch_raws: Vec<f32>,
    scratch_moves: Vec<M>,
    scratch_map: Vec<u32>,
}

#[inline]
fn same_raws(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

impl<M: Copy + Eq + 'static> Arena<M> {
    /// A recorder like [`Arena::new`], reusing the memory of an arena given back on this thread
    /// ([`Arena::give_back`]) when there is one. A recorded search writes tens of megabytes;
    /// memory fresh from the system costs a page fault every 4 KB the first time it is written,
    /// which for a search that records every node costs as much as the search itself.
    pub fn take(node_cap: usize, byte_cap: usize) -> Self {
        let spare = SPARE.with(|s| {
            let mut v = s.borrow_mut();
            let i = v.iter().position(|b| b.is::<Arena<M>>())?;
            Some(v.swap_remove(i))
        });
        match spare.and_then(|b| b.downcast::<Arena<M>>().ok()) {
            Some(mut a) => {
                let fresh = Arena::new(node_cap, byte_cap);
                a.recs.clear();
                a.raws.clear();
                a.moves.clear();
                a.stack.clear();
                a.scratch_raws.clear();
                a.scratch_moves.clear();
                Arena {
                    recs: std::mem::take(&mut a.recs),
                    raws: std::mem::take(&mut a.raws),
                    moves: std::mem::take(&mut a.moves),
                    stack: std::mem::take(&mut a.stack),
                    scratch_raws: std::mem::take(&mut a.scratch_raws),
                    scratch_moves: std::mem::take(&mut a.scratch_moves),
                    ..fresh
                }
            }
            None => Arena::new(node_cap, byte_cap),
        }
    }

    /// Keeps this arena's memory for the next [`Arena::take`] on this thread (at most two arenas,
    /// each of at most 128 MB; an arena that never recorded is not kept).
    pub fn give_back(self) {
        let held = self.recs.capacity() * std::mem::size_of::<Rec<M>>()
            + self.raws.capacity() * 4
            + self.moves.capacity() * std::mem::size_of::<M>();
        if self.recs.capacity() == 0 || held > SPARE_MAX_BYTES {
            return;
        }
        SPARE.with(|s| {
            let mut v = s.borrow_mut();
            if v.len() >= SPARES {
                v.remove(0);
            }
            v.push(Box::new(self));
        });
    }
}

impl<M: Copy + Eq> Arena<M> {
    /// A recorder that keeps at most about `node_cap` nodes and `byte_cap` bytes.
    pub fn new(node_cap: usize, byte_cap: usize) -> Self {
        let node_cap = node_cap.max(1);
        let byte_cap = byte_cap.max(1);
        Arena {
            recs: Vec::new(),
            raws: Vec::new(),
            moves: Vec::new(),
            stack: Vec::new(),
            opened: 0,
            limit: u32::MAX,
            keep_k: u32::MAX,
            node_cap,
            byte_cap,
            soft_nodes: node_cap,
            soft_bytes: byte_cap,
            reductions: 0,
            paused: false,
            ghosts: 0,
            scratch_raws: Vec::new(),
            scratch_moves: Vec::new(),
            scratch_map: Vec::new(),
        }
    }

    /// A fresh recorder with the same budget.
    pub fn fresh(&self) -> Self {
        Arena::new(self.node_cap, self.byte_cap)
    }

    /// The node cap.
    pub fn node_cap(&self) -> usize {
        self.node_cap
    }

    /// The byte cap.
    pub fn byte_cap(&self) -> usize {
        self.byte_cap
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.recs.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }

    /// Whether the budget made the arena drop nodes.
    pub fn truncated(&self) -> bool {
        self.reductions > 0
    }

    /// The deepest level kept in full, once the budget was reached.
    pub fn full_levels(&self) -> Option<u32> {
        self.truncated().then_some(self.limit)
    }

    /// Bytes in use: records, breakdown pool and move pool.
    pub fn bytes(&self) -> usize {
        self.recs.len() * std::mem::size_of::<Rec<M>>()
            + self.raws.len() * 4
            + self.moves.len() * std::mem::size_of::<M>()
    }

    /// The size of one record.
    pub const RECORD_BYTES: usize = std::mem::size_of::<Rec<M>>();

    /// Number of `f32` values in the breakdown pool (layout ids included).
    pub fn pool_len(&self) -> usize {
        self.raws.len()
    }

    fn first_child(&self, i: usize) -> u32 {
        match self.recs.get(i + 1) {
            Some(r) if r.parent == i as u32 => (i + 1) as u32,
            _ => NONE,
        }
    }

    /// Length in the pool of the breakdown starting at `at`.
    #[inline]
    fn bd_len(&self, stage: &Stage, at: u32) -> usize {
        1 + stage.layout_len(self.raws[at as usize].to_bits())
    }

    #[cold]
    fn push_staged(&mut self, stage: &Stage, staged: u32) -> (u32, f64) {
        let (layout, raws, total) = stage.get(staged);
        let at = self.raws.len() as u32;
        self.raws.push(f32::from_bits(layout));
        self.raws.extend_from_slice(raws);
        (at, total)
    }

    /// Gives node `i` the evaluation breakdown `eval` (staged, or [`EVAL_IS_PRESCORE`]).
    #[cold]
    fn close_staged(&mut self, i: usize, eval: u32, stage: &Stage) {
        if eval == EVAL_IS_PRESCORE {
            let r = &mut self.recs[i];
            if r.bits & HAS_PRE != 0 {
                r.bits |= HAS_EVAL | EVAL_IS_PRE;
                r.eval = r.pre;
            }
        } else if eval != NO_STAGE {
            let (layout, raws, _) = stage.get(eval);
            let r = self.recs[i];
            let same = r.bits & HAS_PRE != 0
                && self.raws[r.pre as usize].to_bits() == layout
                && same_raws(
                    &self.raws[r.pre as usize + 1..r.pre as usize + 1 + raws.len()],
                    raws,
                );
            if same {
                let r = &mut self.recs[i];
                r.bits |= HAS_EVAL | EVAL_IS_PRE;
                r.eval = r.pre;
            } else {
                let (at, _) = self.push_staged(stage, eval);
                let r = &mut self.recs[i];
                r.bits |= HAS_EVAL;
                r.eval = at;
            }
        }
    }

    /// The child of `i` that gives its value: for max and min nodes the first child whose value
    /// equals it, under a chance node the likeliest outcome; otherwise the first child.
    fn best_child(&self, i: usize) -> u32 {
        let r = &self.recs[i];
        let kind = r.kind();
        let mut c = self.first_child(i);
        let mut first = NONE;
        let mut likeliest = (NONE, f64::NEG_INFINITY);
        while c != NONE {
            let x = &self.recs[c as usize];
            if !x.is_pruned() && !x.is_shared() && x.note as u16 & Note::FAILED_HIGH == 0 {
                if first == NONE {
                    first = c;
                }
                match kind {
                    NodeKind::Max | NodeKind::Min if x.value == r.value => return c,
                    NodeKind::Chance if x.bits & HAS_PROB != 0 && x.aux > likeliest.1 => {
                        likeliest = (c, x.aux)
                    }
                    _ => {}
                }
            }
            c = x.next;
        }
        if likeliest.0 != NONE {
            likeliest.0
        } else {
            first
        }
    }

    /// Keeps, below `o` (just closed, its kind and value set, at level `depth`), only the subtrees
    /// of its best child and, at level `limit`, of its first `keep_k` children in search order.
    #[inline(never)]
    fn compact_tail(&mut self, o: Open, depth: u32, stage: &Stage) {
        let i = o.idx as usize;
        let end = self.recs.len();
        let best = self.best_child(i);
        let k = if depth == self.limit { self.keep_k } else { 0 };
        // The kept children's runs of records, in order.
        let mut runs: Vec<(usize, usize)> = Vec::new();
        let mut lost = 0u64;
        let mut c = self.first_child(i);
        let mut rank = 0u32;
        while c != NONE {
            let nx = self.recs[c as usize].next;
            let e = if nx == NONE { end } else { nx as usize };
            if c == best || rank < k {
                runs.push((c as usize, e));
            } else {
                for j in c as usize..e {
                    lost += self.recs[j].weight();
                }
            }
            rank += 1;
            c = nx;
        }
        if lost == 0 && runs.iter().map(|r| r.1 - r.0).sum::<usize>() == end - i - 1 {
            return;
        }
        let r = &mut self.recs[i];
        r.count = (r.count as u64).saturating_add(lost).min(u32::MAX as u64) as u32;
        // New index of each record after `i` (NONE: dropped).
        let mut map = std::mem::take(&mut self.scratch_map);
        map.clear();
        map.resize(end - i - 1, NONE);
        let mut to = (i + 1) as u32;
        for &(a, e) in &runs {
            for j in a..e {
                map[j - i - 1] = to;
                to += 1;
            }
        }
        let remap = |x: u32, map: &[u32]| -> u32 {
            if x == NONE || (x as usize) <= i {
                x
            } else {
                map[x as usize - i - 1]
            }
        };
        // Gather the kept records' breakdowns and moves, then move the records down.
        self.scratch_raws.clear();
        self.scratch_moves.clear();
        let raws_base = o.raws;
        let moves_base = o.moves;
        for (n, &(a, e)) in runs.iter().enumerate() {
            let next_run = runs.get(n + 1).map_or(NONE, |r| map[r.0 - i - 1]);
            for j in a..e {
                let mut r = self.recs[j];
                if r.is_shared() {
                    r.eval = remap(r.eval, &map);
                } else if r.is_pruned() {
                    let at = r.pre as usize;
                    let cnt = r.count as usize;
                    r.pre = moves_base + self.scratch_moves.len() as u32;
                    self.scratch_moves
                        .extend_from_slice(&self.moves[at..at + cnt]);
                    r.eval = remap(r.eval, &map);
                } else {
                    if r.bits & HAS_PRE != 0 {
                        let at = r.pre as usize;
                        let len = self.bd_len(stage, r.pre);
                        r.pre = raws_base + self.scratch_raws.len() as u32;
                        self.scratch_raws
                            .extend_from_slice(&self.raws[at..at + len]);
                    }
                    if r.bits & HAS_EVAL != 0 {
                        if r.bits & EVAL_IS_PRE != 0 {
                            r.eval = r.pre;
                        } else {
                            let at = r.eval as usize;
                            let len = self.bd_len(stage, r.eval);
                            r.eval = raws_base + self.scratch_raws.len() as u32;
                            self.scratch_raws
                                .extend_from_slice(&self.raws[at..at + len]);
                        }
                    }
                }
                r.parent = remap(r.parent, &map);
                r.next = if j == a {
                    next_run
                } else {
                    remap(r.next, &map)
                };
                let at = map[j - i - 1] as usize;
                self.recs[at] = r;
            }
        }
        self.recs.truncate(to as usize);
        self.raws.truncate(raws_base as usize);
        self.raws.extend_from_slice(&self.scratch_raws);
        self.moves.truncate(moves_base as usize);
        self.moves.extend_from_slice(&self.scratch_moves);
        self.scratch_map = map;
    }

    /// The budget was reached: lower the level kept in full and drop what the new level does not
    /// keep (see the module documentation).
    #[cold]
    #[inline(never)]
    fn reduce(&mut self, stage: &Stage) {
        let n = self.recs.len();
        let mut depth = vec![0u32; n];
        for j in 1..n {
            depth[j] = depth[self.recs[j].parent as usize] + 1;
        }
        let maxd = depth.iter().copied().max().unwrap_or(0) as usize;
        let mut cnt = vec![0usize; maxd + 1];
        for &d in &depth {
            cnt[d as usize] += 1;
        }
        let per_node = (self.bytes() / n.max(1)).max(1);
        let target = self.node_cap.min(self.byte_cap / per_node) / 2;
        let mut sums = vec![0usize; maxd + 1];
        let mut upto = 0usize;
        for d in 0..=maxd {
            upto += cnt[d];
            sums[d] = upto;
        }
        // Each node's rank among its siblings (in search order), and by level the number of nodes
        // of each rank: `ranks[d][r]` nodes of level `d` are the `r`-th child of their parent.
        let mut rank = vec![0u32; n];
        let mut kids = vec![0u32; n];
        let mut ranks: Vec<Vec<usize>> = vec![Vec::new(); maxd + 1];
        for j in 1..n {
            let p = self.recs[j].parent as usize;
            rank[j] = kids[p];
            kids[p] += 1;
            let row = &mut ranks[depth[j] as usize];
            if row.len() <= rank[j] as usize {
                row.resize(rank[j] as usize + 1, 0);
            }
            row[rank[j] as usize] += 1;
        }
        // Keeping levels 0..=l whole and, below each node of level l, its first k children (and
        // its best child) with their principal variations costs about
        // sums[l] + (children kept at level l + 1) * (maxd - l) nodes. Choose the largest (l, k)
        // that fits, below the current one.
        let cost = |l: usize, k: usize| -> usize {
            let below = if l < maxd {
                let row = &ranks[l + 1];
                let firsts = row.first().copied().unwrap_or(0);
                let extra: usize = row.iter().take(k.max(1)).sum();
                extra.max(firsts)
            } else {
                0
            };
            sums[l] + below * (maxd - l)
        };
        let top = (self.limit.min(maxd.saturating_sub(1) as u32)).max(1) as usize;
        let (mut limit, mut keep_k) = (1usize, 0usize);
        'levels: for l in (1..=top).rev() {
            let widest = ranks.get(l + 1).map_or(0, |r| r.len());
            // k children besides the best one; k = widest keeps level l + 1 whole.
            let mut most = widest.saturating_sub(1);
            if l as u32 == self.limit {
                if self.keep_k == 0 {
                    continue;
                }
                most = most.min(self.keep_k as usize - 1);
            }
            for k in (0..=most).rev() {
                if cost(l, k) <= target {
                    limit = l;
                    keep_k = k;
                    break 'levels;
                }
            }
        }
        self.limit = limit as u32;
        self.keep_k = keep_k as u32;
        let limit = limit as u32;
        self.reductions += 1;

        let mut open = vec![false; n];
        for o in &self.stack {
            open[o.idx as usize] = true;
        }
        // keep[j]: kept; best[j]: the best child of a closed node at or below the limit.
        let mut keep = vec![false; n];
        let mut best = vec![NONE; n];
        let mut anchor = vec![0u32; n];
        keep[0] = true;
        for j in 0..n {
            if j > 0 {
                let p = self.recs[j].parent as usize;
                keep[j] = keep[p]
                    && (depth[p] < limit
                        || open[p]
                        || best[p] == j as u32
                        || (depth[p] == limit && rank[j] < keep_k as u32));
                anchor[j] = if keep[p] { p as u32 } else { anchor[p] };
                if !keep[j] {
                    let w = self.recs[j].weight();
                    let a = &mut self.recs[anchor[j] as usize];
                    a.count = (a.count as u64).saturating_add(w).min(u32::MAX as u64) as u32;
                }
            }
            if keep[j] && !open[j] && depth[j] >= limit {
                best[j] = self.best_child(j);
            }
        }
        // Rebuild the arrays with the kept records, in the same order.
        let mut new_idx = vec![NONE; n];
        let mut recs = Vec::with_capacity(n / 2);
        let mut raws = Vec::with_capacity(self.raws.len() / 2);
        let mut moves = Vec::with_capacity(self.moves.len() / 2);
        let mut last = vec![NONE; n];
        let mut marks: Vec<(u32, u32)> = vec![(0, 0); n];
        for j in 0..n {
            if !keep[j] {
                continue;
            }
            let mut r = self.recs[j];
            let ni = recs.len() as u32;
            new_idx[j] = ni;
            r.next = NONE;
            if j > 0 {
                let p = new_idx[r.parent as usize];
                r.parent = p;
                if last[p as usize] != NONE {
                    let l = last[p as usize] as usize;
                    let rl: &mut Rec<M> = &mut recs[l];
                    rl.next = ni;
                }
                last[p as usize] = ni;
            }
            if r.is_shared() {
                if r.eval != NONE {
                    r.eval = new_idx[r.eval as usize];
                }
            } else if r.is_pruned() {
                let at = r.pre as usize;
                r.pre = moves.len() as u32;
                moves.extend_from_slice(&self.moves[at..at + r.count as usize]);
                // `by` is the sibling closed just before: kept unless it was dropped.
                if r.eval != NONE {
                    r.eval = new_idx[r.eval as usize];
                }
            } else {
                if r.bits & HAS_PRE != 0 {
                    let at = r.pre as usize;
                    let len = self.bd_len(stage, r.pre);
                    r.pre = raws.len() as u32;
                    raws.extend_from_slice(&self.raws[at..at + len]);
                }
                if r.bits & HAS_EVAL != 0 {
                    if r.bits & EVAL_IS_PRE != 0 {
                        r.eval = r.pre;
                    } else {
                        let at = r.eval as usize;
                        let len = self.bd_len(stage, r.eval);
                        r.eval = raws.len() as u32;
                        raws.extend_from_slice(&self.raws[at..at + len]);
                    }
                }
            }
            if open[j] {
                marks[j] = (raws.len() as u32, moves.len() as u32);
            }
            recs.push(r);
        }
        for o in self.stack.iter_mut() {
            let j = o.idx as usize;
            o.idx = new_idx[j];
            o.last = if o.last == NONE {
                NONE
            } else {
                new_idx[o.last as usize]
            };
            o.searched = if o.searched == NONE {
                NONE
            } else {
                new_idx[o.searched as usize]
            };
            o.raws = marks[j].0;
            o.moves = marks[j].1;
        }
        self.recs = recs;
        self.raws = raws;
        self.moves = moves;
        // Do not come back at once if even the lowest level does not fit.
        self.soft_nodes = self.node_cap.max(self.recs.len() * 2);
        self.soft_bytes = self.byte_cap.max(self.bytes() * 2);
    }

    /// Builds the [`Tree`]: move texts from the positions (replayed from `root`), `best` along
    /// `pv` from the root, breakdowns with the stage's names and layouts. The header's fields are
    /// left for the caller, except `stats.truncated` and `stats.full_levels`.
    ///
    /// Breakdowns left for later ([`LAZY`]) are not made: use [`Arena::build_with`] for them.
    pub fn build<G: Game<Move = M>>(&self, root: &G, stage: &Stage, pv: &[M]) -> Tree {
        self.build_impl::<G, NoEval>(root, stage, pv, None)
    }

    /// Builds the [`Tree`] as [`Arena::build`] does, and makes the breakdowns the search left for
    /// later ([`LAZY`]) with `eval` from `perspective`: the pre-score of each such node and the
    /// evaluation of each such leaf, from the node's position (replayed from `root`). Only the
    /// nodes kept get them. When the evaluator's pre-score is its evaluation, a leaf's evaluation
    /// shares its pre-score's breakdown.
    pub fn build_with<G: Game<Move = M>, E: Evaluator<G>>(
        &self,
        root: &G,
        stage: &Stage,
        pv: &[M],
        eval: &E,
        perspective: PlayerId,
    ) -> Tree {
        self.build_impl(root, stage, pv, Some((eval, perspective)))
    }

    fn build_impl<G: Game<Move = M>, E: Evaluator<G>>(
        &self,
        root: &G,
        stage: &Stage,
        pv: &[M],
        lazy: Option<(&E, PlayerId)>,
    ) -> Tree {
        // Building a large tree takes a while and reports nothing: say it has begun.
        super::pulse::begin();
        let mut t = Tree {
            head: Header {
                stats: Stats {
                    truncated: self.truncated(),
                    full_levels: self.full_levels(),
                    tree_bytes: Some(self.bytes() as u64),
                    ..Stats::default()
                },
                ..Header::default()
            },
            ..Tree::default()
        };
        let mut b = super::model::Builder::default();
        let layouts: Vec<u32> = stage
            .layouts()
            .iter()
            .map(|l| {
                let names: Vec<&str> = l.names.iter().map(|&i| stage.names()[i as usize]).collect();
                b.layout(&mut t, &names, &l.weights)
            })
            .collect();
        let n = self.recs.len();
        t.nodes.reserve(n);
        // Lazy breakdowns: made on a stage of their own, whose layouts map to the tree's.
        let mut ls = Stage::new();
        let mut lmap: Vec<u32> = Vec::new();
        let eval_is_pre = lazy.is_some_and(|(e, _)| e.prescore_is_evaluation());
        // States along the current path, by depth; depth of each node.
        let mut states: Vec<G> = Vec::with_capacity(64);
        let mut depth = vec![0u32; n];
        let mut on_pv = vec![false; n];
        let mut pv_taken = vec![false; pv.len()];
        let text = |t: &mut Tree, b: &mut super::model::Builder, pos: &G, m: M| {
            let s = pos.format_move(m);
            b.moves.id(&mut t.moves, &s)
        };
        let pool_bd = |t: &mut Tree, at: u32, total: f64| -> Bd {
            let layout = self.raws[at as usize].to_bits();
            let len = stage.layout_len(layout);
            let start = t.raws.len() as u32;
            t.raws
                .extend_from_slice(&self.raws[at as usize + 1..at as usize + 1 + len]);
            Bd {
                total,
                layout: layouts[layout as usize],
                at: start,
            }
        };
        for j in 0..n {
            super::pulse::tick();
            let r = &self.recs[j];
            let kind = r.kind();
            let mut x = TreeNode::new(if j == 0 { NONE } else { r.parent }, kind);
            let d = if j == 0 {
                0
            } else {
                depth[r.parent as usize] + 1
            };
            depth[j] = d;
            x.order = Some(r.order as u64);
            if j == 0 {
                states.clear();
                states.push(root.clone());
                on_pv[0] = true;
            } else {
                states.truncate(d as usize);
            }
            if r.is_pruned() {
                let parent_pos = &states[d as usize - 1];
                x.reason = Some(if r.bits & BRANCHING != 0 {
                    PruneReason::BranchingLimit
                } else if r.bits & FUTILITY != 0 {
                    PruneReason::Futility
                } else {
                    PruneReason::Alphabeta
                });
                x.count = r.count as u64;
                x.cut_at = t.cut.len() as u32;
                for k in 0..r.count as usize {
                    let m = self.moves[r.pre as usize + k];
                    let id = text(&mut t, &mut b, parent_pos, m);
                    t.cut.push(id);
                }
                if x.reason == Some(PruneReason::Alphabeta) {
                    x.by = (r.eval != NONE).then_some(r.eval);
                    x.value = (!r.value.is_nan()).then_some(r.value);
                    x.alpha = r.alpha.is_finite().then_some(r.alpha);
                    x.beta = r.beta.is_finite().then_some(r.beta);
                }
                t.nodes.push(x);
                // Keeps `states` aligned: a pruned node has no children.
                continue;
            }
            if j > 0 {
                let parent_pos = &states[d as usize - 1];
                let mut pos = parent_pos.clone();
                if let Some(m) = r.mv {
                    x.mv = text(&mut t, &mut b, parent_pos, m);
                    pos.play_unchecked(m);
                    let p = r.parent as usize;
                    let dd = d as usize;
                    // Only the first child playing the PV's move.
                    // A search that failed high was searched again: the PV follows the re-search.
                    if on_pv[p]
                        && dd <= pv.len()
                        && pv[dd - 1] == m
                        && !pv_taken[dd - 1]
                        && r.note as u16 & Note::FAILED_HIGH == 0
                    {
                        on_pv[j] = true;
                        pv_taken[dd - 1] = true;
                    }
                }
                states.push(pos);
            }
            x.best = on_pv[j];
            x.value = (!r.value.is_nan()).then_some(r.value);
            x.alpha = r.alpha.is_finite().then_some(r.alpha);
            x.beta = r.beta.is_finite().then_some(r.beta);
            x.bound = match (r.bits >> BOUND_SHIFT) & 3 {
                1 => Some(Bound::Exact),
                2 => Some(Bound::Lower),
                3 => Some(Bound::Upper),
                _ => None,
            };
            x.tt = r.bits & TT != 0;
            x.tt_worker = r.worker;
            x.note = if r.is_pruned() {
                Note(r.note as u16)
            } else {
                note_of(r.note, r.bits)
            };
            if r.is_shared() {
                x.same_as = (r.eval != NONE).then_some(r.eval);
            } else {
                x.unrecorded = r.count as u64;
            }
            if r.bits & HAS_PROB != 0 {
                x.prob = Some(r.aux);
            }
            if r.bits & HAS_PRE != 0 {
                x.prescore = Some(pool_bd(&mut t, r.pre, r.aux));
            } else if r.bits & LAZY_PRE != 0 {
                if let Some((e, who)) = lazy {
                    let pos = &states[d as usize];
                    x.prescore = Some(lazy_bd(&mut t, &mut b, &mut ls, &mut lmap, |s| {
                        e.prescore(pos, who, s)
                    }));
                }
            }
            if r.bits & LAZY_EVAL != 0 && !r.is_shared() {
                if let Some((e, who)) = lazy {
                    x.eval = Some(match x.prescore {
                        Some(p) if eval_is_pre => Bd {
                            total: x.value.unwrap_or(p.total),
                            ..p
                        },
                        _ => {
                            let pos = &states[d as usize];
                            let mut bd = lazy_bd(&mut t, &mut b, &mut ls, &mut lmap, |s| {
                                e.evaluate(pos, who, s)
                            });
                            if let Some(v) = x.value {
                                bd.total = v;
                            }
                            bd
                        }
                    });
                }
            } else if r.bits & HAS_EVAL != 0 && !r.is_shared() {
                let total = r.value;
                x.eval = Some(if r.bits & EVAL_IS_PRE != 0 {
                    let p = x.prescore.expect("the pre-score it equals");
                    Bd { total, ..p }
                } else {
                    pool_bd(&mut t, r.eval, total)
                });
            }
            t.nodes.push(x);
        }
        // The breakdowns made now count as if the arena had held them (4 bytes a term).
        if let Some(b) = t.head.stats.tree_bytes.as_mut() {
            *b += 4 * (t.raws.len() as u64).saturating_sub(self.raws.len() as u64);
        }
        t
    }
}

/// Makes one breakdown with `f` on the stage `ls` and copies it into the tree: its layout mapped
/// (through `lmap`, the stage's layout ids to the tree's) and its raw measures appended.
fn lazy_bd(
    t: &mut Tree,
    b: &mut super::model::Builder,
    ls: &mut Stage,
    lmap: &mut Vec<u32>,
    f: impl FnOnce(&mut Stage) -> f64,
) -> Bd {
    let mark = ls.mark();
    ls.begin();
    let total = f(ls);
    let id = ls.finish(total);
    let (layout, raws, total) = ls.get(id);
    while lmap.len() <= layout as usize {
        let l = &ls.layouts()[lmap.len()];
        let names: Vec<&str> = l.names.iter().map(|&i| ls.names()[i as usize]).collect();
        let tl = b.layout(t, &names, &l.weights);
        lmap.push(tl);
    }
    let at = t.raws.len() as u32;
    t.raws.extend_from_slice(raws);
    ls.release(mark);
    Bd {
        total,
        layout: lmap[layout as usize],
        at,
    }
}

/// The evaluator [`Arena::build`] passes where it has none (never called).
struct NoEval;

impl<G: Game> Evaluator<G> for NoEval {
    fn name(&self) -> &'static str {
        ""
    }
    fn evaluate<S: TermSink>(&self, _: &G, _: PlayerId, _: &mut S) -> f64 {
        0.0
    }
}

impl<M: Copy + Eq> Recorder<M> for Arena<M> {
    const ACTIVE: bool = true;

    #[inline]
    fn open(
        &mut self,
        mv: Option<M>,
        prob: Option<f64>,
        prescore: u32,
        stage: &Stage,
        alpha: f64,
        beta: f64,
    ) {
        if self.paused {
            self.ghost();
            return;
        }
        if self.recs.len() >= self.soft_nodes || self.bytes() >= self.soft_bytes {
            self.reduce(stage);
        }
        let idx = self.recs.len() as u32;
        let parent = match self.stack.last_mut() {
            Some(top) => {
                if top.last != NONE {
                    self.recs[top.last as usize].next = idx;
                }
                top.last = idx;
                top.idx
            }
            None => NONE,
        };
        let mut bits = kind_bits(NodeKind::Leaf);
        let mut aux = 0.0;
        let mut pre = NONE;
        if let Some(p) = prob {
            bits |= HAS_PROB;
            aux = p;
        } else if prescore == LAZY {
            bits |= LAZY_PRE;
        } else if prescore != NO_STAGE {
            let (at, total) = self.push_staged(stage, prescore);
            bits |= HAS_PRE;
            aux = total;
            pre = at;
        }
        self.recs.push(Rec {
            parent,
            next: NONE,
            value: f64::NAN,
            alpha,
            beta,
            aux,
            pre,
            eval: NONE,
            count: 0,
            order: self.opened.min(u32::MAX as u64) as u32,
            bits,
            note: 0,
            worker: 0,
            mv,
        });
        self.opened += 1;
        self.stack.push(Open {
            idx,
            last: NONE,
            searched: NONE,
            raws: self.raws.len() as u32,
            moves: self.moves.len() as u32,
        });
    }

    #[inline]
    fn close(
        &mut self,
        kind: NodeKind,
        value: Option<f64>,
        bound: Bound,
        eval: u32,
        stage: &Stage,
        tt: bool,
    ) {
        if self.ghosts > 0 {
            self.ghosts -= 1;
            return;
        }
        let Some(o) = self.stack.pop() else {
            debug_assert!(false, "close without open");
            return;
        };
        let i = o.idx as usize;
        {
            let r = &mut self.recs[i];
            r.bits =
                (r.bits & !(KIND_MASK | (3 << BOUND_SHIFT))) | kind_bits(kind) | bound_bits(bound);
            if tt {
                r.bits |= TT;
            }
            r.value = value.unwrap_or(f64::NAN);
        }
        let depth = self.stack.len() as u32;
        if depth >= self.limit && self.first_child(i) != NONE {
            self.compact_tail(o, depth, stage);
        }
        if let Some(top) = self.stack.last_mut() {
            top.searched = o.idx;
        }
        if eval == LAZY {
            self.recs[i].bits |= LAZY_EVAL;
        } else if eval != NO_STAGE {
            self.close_staged(i, eval, stage);
        }
    }

    fn current_prescore(&self) -> Option<f64> {
        let r = &self.recs[self.stack.last()?.idx as usize];
        (r.bits & HAS_PRE != 0).then_some(r.aux)
    }

    fn shared(&mut self, mv: M, prob: f64, value: f64, stage: &Stage) {
        if self.paused {
            return;
        }
        if self.stack.is_empty() {
            return;
        }
        self.open(
            Some(mv),
            Some(prob),
            NO_STAGE,
            stage,
            f64::NEG_INFINITY,
            f64::INFINITY,
        );
        let o = self.stack.pop().expect("just opened");
        // Read after `open`, which may have moved records to keep within the budget.
        let sibling = self.stack.last().map_or(NONE, |t| t.searched);
        let kind = if sibling == NONE {
            kind_bits(NodeKind::Leaf)
        } else {
            self.recs[sibling as usize].bits & KIND_MASK
        };
        let r = &mut self.recs[o.idx as usize];
        r.bits = (r.bits & !KIND_MASK) | kind | bound_bits(Bound::Exact) | SHARED;
        r.value = value;
        r.eval = sibling;
    }

    fn pruned<I: Iterator<Item = M>>(
        &mut self,
        moves: I,
        reason: PruneReason,
        value: f64,
        alpha: f64,
        beta: f64,
    ) {
        if self.paused {
            return;
        }
        let Some(top) = self.stack.last_mut() else {
            return;
        };
        let at = self.moves.len();
        self.moves.extend(moves);
        let count = self.moves.len() - at;
        if count == 0 {
            return;
        }
        let idx = self.recs.len() as u32;
        let by = top.last;
        if top.last != NONE {
            self.recs[top.last as usize].next = idx;
        }
        top.last = idx;
        let parent = top.idx;
        let mut bits = kind_bits(NodeKind::Pruned);
        match reason {
            PruneReason::BranchingLimit => bits |= BRANCHING,
            PruneReason::Futility => bits |= FUTILITY,
            PruneReason::Alphabeta => {}
        }
        self.recs.push(Rec {
            parent,
            next: NONE,
            value,
            alpha,
            beta,
            aux: 0.0,
            pre: at as u32,
            eval: if reason == PruneReason::Alphabeta {
                by
            } else {
                NONE
            },
            count: count as u32,
            order: self.opened.min(u32::MAX as u64) as u32,
            bits,
            note: 0,
            worker: 0,
            mv: None,
        });
        // The cut-off is a step of the search too: after the sibling that caused it.
        self.opened += 1;
    }

    fn note(&mut self, note: Note) {
        if self.paused {
            return;
        }
        let Some(o) = self.stack.last() else {
            return;
        };
        let i = o.idx as usize;
        self.recs[i].note |= note.low();
        self.recs[i].bits |= high_bits(note);
        if note.has(Note::RESEARCH) {
            let before = self
                .stack
                .len()
                .checked_sub(2)
                .map(|p| self.stack[p].searched);
            if let Some(b) = before.filter(|&b| b != NONE && (b as usize) < i) {
                self.recs[b as usize].note |= Note::FAILED_HIGH as u8;
            }
        }
    }

    fn reduce(&mut self, plies: u32) {
        if self.paused {
            return;
        }
        if let Some(o) = self.stack.last() {
            let n = Note(self.recs[o.idx as usize].note as u16);
            self.recs[o.idx as usize].note = Note::new(n.0, n.reduced() + plies).low();
        }
    }

    fn tt_worker(&mut self, worker: u8) {
        if self.paused {
            return;
        }
        if let Some(o) = self.stack.last() {
            self.recs[o.idx as usize].worker = worker;
        }
    }

    fn pause(&mut self) {
        self.paused = true;
    }

    fn resume(&mut self) {
        self.paused = false;
        self.ghosts = 0;
    }
}

impl<M: Copy + Eq> Arena<M> {
    /// Counts a node opened while recording is paused as unrecorded in the current node.
    #[cold]
    fn ghost(&mut self) {
        self.ghosts += 1;
        self.opened += 1;
        if let Some(top) = self.stack.last() {
            let r = &mut self.recs[top.idx as usize];
            r.count = r.count.saturating_add(1);
        }
    }
}
