//! What the search writes into while it runs.

use super::document::{Bound, Cutoff, Node, NodeKind};
use crate::core::Breakdown;

/// The default cap on recorded nodes.
pub const DEFAULT_NODE_CAP: usize = 200_000;

/// The handle of a node that was searched but not recorded (past the node cap).
pub const GHOST: u32 = u32::MAX;

/// Receives the search tree as the search walks it.
///
/// Calls nest like the search: `open` a child of the node opened last and not yet closed, then
/// `close` it. The search calls these only inside `if R::ACTIVE { ... }`.
pub trait Recorder {
    /// Whether anything is recorded.
    const ACTIVE: bool;

    /// Opens a node below the current one and makes it current; returns its handle ([`GHOST`] when
    /// the node cap is reached). `alpha` and `beta` may be infinite (written as absent).
    fn open(
        &mut self,
        mv: Option<String>,
        prob: Option<f64>,
        prescore: Option<Breakdown>,
        alpha: f64,
        beta: f64,
    ) -> u32;

    /// Closes the current node with its kind, value and bound, and the evaluation breakdown at a leaf.
    fn close(
        &mut self,
        handle: u32,
        kind: NodeKind,
        value: Option<f64>,
        bound: Bound,
        eval: Option<Breakdown>,
        tt: bool,
    );

    /// Adds, under the current node, one `pruned` node standing for `moves`, cut because of the child
    /// `by` (value `value`) in the window `alpha..beta`; `reason` is `alphabeta`, `branching_limit` or `futility`.
    fn pruned(
        &mut self,
        moves: Vec<String>,
        reason: &'static str,
        by: u32,
        value: f64,
        alpha: f64,
        beta: f64,
    );
}

/// Records nothing, at no cost.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoRecorder;

impl Recorder for NoRecorder {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn open(
        &mut self,
        _: Option<String>,
        _: Option<f64>,
        _: Option<Breakdown>,
        _: f64,
        _: f64,
    ) -> u32 {
        GHOST
    }
    #[inline(always)]
    fn close(
        &mut self,
        _: u32,
        _: NodeKind,
        _: Option<f64>,
        _: Bound,
        _: Option<Breakdown>,
        _: bool,
    ) {
    }
    #[inline(always)]
    fn pruned(&mut self, _: Vec<String>, _: &'static str, _: u32, _: f64, _: f64, _: f64) {}
}

/// A flat record of one node; children follow their parent (pre-order).
#[derive(Debug, Clone)]
struct Flat {
    parent: u32,
    node: Node,
    /// Nodes below this one that were searched but not recorded.
    unrecorded: u64,
}

/// Records the tree into memory, up to a node cap.
#[derive(Debug, Clone)]
pub struct TreeRecorder {
    nodes: Vec<Flat>,
    /// Open nodes, innermost last; `GHOST` for nodes past the cap.
    stack: Vec<u32>,
    cap: usize,
    truncated: bool,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

impl TreeRecorder {
    /// A recorder that keeps at most `cap` nodes (the rest are counted in `truncated` nodes).
    pub fn new(cap: usize) -> Self {
        TreeRecorder {
            nodes: Vec::new(),
            stack: Vec::new(),
            cap: cap.max(1),
            truncated: false,
        }
    }

    /// Forgets everything recorded (used between iterations of iterative deepening).
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.stack.clear();
        self.truncated = false;
    }

    /// The node cap.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Whether the cap was hit.
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// Number of nodes recorded so far.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    fn innermost_recorded(&self) -> Option<u32> {
        self.stack.iter().rev().copied().find(|&h| h != GHOST)
    }

    /// Builds the nested tree, marking as `best` the path that follows `pv` (move texts) from the root.
    /// Returns `None` when nothing was recorded.
    pub fn build(&self, pv: &[String]) -> Option<Node> {
        if self.nodes.is_empty() {
            return None;
        }
        let n = self.nodes.len();
        // Children lists by parent, in recording order.
        let mut first_child = vec![u32::MAX; n];
        let mut next_sibling = vec![u32::MAX; n];
        let mut last_child = vec![u32::MAX; n];
        for i in 1..n {
            let p = self.nodes[i].parent as usize;
            if first_child[p] == u32::MAX {
                first_child[p] = i as u32;
            } else {
                next_sibling[last_child[p] as usize] = i as u32;
            }
            last_child[p] = i as u32;
        }
        let mut next_id = n as u64;
        // Recursion depth is the search depth, which is small.
        fn build_rec(
            r: &TreeRecorder,
            i: usize,
            first_child: &[u32],
            next_sibling: &[u32],
            next_id: &mut u64,
        ) -> Node {
            let flat = &r.nodes[i];
            let mut node = flat.node.clone();
            let mut c = first_child[i];
            while c != u32::MAX {
                node.children
                    .push(build_rec(r, c as usize, first_child, next_sibling, next_id));
                c = next_sibling[c as usize];
            }
            if flat.unrecorded > 0 {
                let mut t = Node::new(*next_id, NodeKind::Truncated);
                *next_id += 1;
                t.count = Some(flat.unrecorded);
                node.children.push(t);
            }
            node
        }
        let mut root = build_rec(self, 0, &first_child, &next_sibling, &mut next_id);
        root.best = true;
        let mut at = &mut root;
        for mv in pv {
            match at
                .children
                .iter()
                .position(|c| c.mv.as_deref() == Some(mv.as_str()) && c.kind != NodeKind::Pruned)
            {
                Some(k) => {
                    at = &mut at.children[k];
                    at.best = true;
                }
                None => break,
            }
        }
        Some(root)
    }
}

impl Recorder for TreeRecorder {
    const ACTIVE: bool = true;

    fn open(
        &mut self,
        mv: Option<String>,
        prob: Option<f64>,
        prescore: Option<Breakdown>,
        alpha: f64,
        beta: f64,
    ) -> u32 {
        let parent_is_ghost = matches!(self.stack.last(), Some(&GHOST));
        if parent_is_ghost || self.nodes.len() >= self.cap {
            self.truncated = true;
            if let Some(h) = self.innermost_recorded() {
                self.nodes[h as usize].unrecorded += 1;
            }
            self.stack.push(GHOST);
            return GHOST;
        }
        let id = self.nodes.len() as u32;
        let parent = self.stack.last().copied().unwrap_or(0);
        let mut node = Node::new(id as u64, NodeKind::Leaf);
        node.mv = mv;
        node.prob = prob;
        node.prescore = prescore;
        node.alpha = finite(alpha);
        node.beta = finite(beta);
        self.nodes.push(Flat {
            parent,
            node,
            unrecorded: 0,
        });
        self.stack.push(id);
        id
    }

    fn close(
        &mut self,
        handle: u32,
        kind: NodeKind,
        value: Option<f64>,
        bound: Bound,
        eval: Option<Breakdown>,
        tt: bool,
    ) {
        let top = self.stack.pop();
        debug_assert_eq!(top, Some(handle), "recorder calls must nest");
        if handle == GHOST {
            return;
        }
        let node = &mut self.nodes[handle as usize].node;
        node.kind = kind;
        node.value = value.and_then(finite);
        node.bound = Some(bound);
        node.eval = eval;
        node.tt = tt;
    }

    fn pruned(
        &mut self,
        moves: Vec<String>,
        reason: &'static str,
        by: u32,
        value: f64,
        alpha: f64,
        beta: f64,
    ) {
        let count = moves.len() as u64;
        if count == 0 {
            return;
        }
        // Past the cap the marker is dropped: the siblings it stands for were never searched, so
        // there is nothing to count in a `truncated` node either.
        if matches!(self.stack.last(), Some(&GHOST)) || self.nodes.len() >= self.cap {
            self.truncated = true;
            return;
        }
        let h = self.open(None, None, None, f64::NEG_INFINITY, f64::INFINITY);
        let node = &mut self.nodes[h as usize].node;
        node.kind = NodeKind::Pruned;
        node.count = Some(count);
        node.moves = Some(moves);
        node.reason = Some(reason.to_string());
        if reason == "alphabeta" {
            node.cutoff = Some(Cutoff {
                by: (by != GHOST).then_some(by as u64),
                value: finite(value),
                alpha: finite(alpha),
                beta: finite(beta),
            });
        }
        self.stack.pop();
    }
}
