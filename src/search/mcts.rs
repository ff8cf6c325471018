//! Monte Carlo tree search (UCT), generic over every [`Game`] and [`Evaluator`].
//!
//! Each iteration walks down the tree from the root, choosing at each player's node the child with
//! the best selection score (UCB1: mean score plus `C * sqrt(ln N / n)`, or with priors PUCT:
//! mean score plus `C * P * sqrt(N) / (1 + n)`) and at each chance node an outcome drawn with its
//! probability; it expands the first node it reaches that was visited before, plays a playout from
//! the node it stops at, and adds the playout's score to every node on the way.
//!
//! Scores are from the root player's view. In two-player games they are win probabilities: 1 for a
//! win, 0 for a loss, 1/2 for a draw, and an evaluation `v` (after a heuristic playout's random
//! plies) counts `1 / (1 + e^(-v/s))`, where `s` is the mean absolute evaluation seen so far in
//! this search (so that the mapping suits every evaluator's units). A single-player game (Threes)
//! scores in its own units, normalised for selection by the least and greatest scores seen.
//!
//! The tree is one arena: a node's children sit next to each other, made all at once when it is
//! expanded. Positions are not stored: each iteration replays the moves from a copy of the root
//! (copy-make), and the playout reuses the search's move buffers, so nothing is allocated per
//! iteration besides the arena's own growth.

use super::config::{
    Playout, Progress, RootMove, SearchConfig, SearchResult, MCTS_DEFAULT_ITERATIONS,
};
use super::engine::Hooks;
use crate::core::{now_ms, Error, Evaluator, Game, NoTerms, Outcome, PlayerId, Rng, Turn};
use crate::tree::{Bound, Chosen, Header, NodeKind, Stats, Tree, TreeNode, NONE};
use std::collections::HashMap;
use std::sync::atomic::Ordering;

/// Plies after which a random playout stops and the evaluator scores the position.
const RANDOM_PLAYOUT_CAP: u32 = 512;
/// The most nodes the tree may grow to (about 40 bytes each); the search stops there.
const ARENA_CAP: usize = 4_000_000;
/// Iterations between looks at the clock, the stop flag and the progress callback.
const CHECK_EVERY: u64 = 16;

/// A node's kind before it was first reached (its position not yet seen).
const UNSEEN: u8 = 0;
const MAX: u8 = 1;
const MIN: u8 = 2;
const CHANCE: u8 = 3;
const TERMINAL: u8 = 4;

/// A node's proven result (MCTS-Solver; see [`SearchConfig::mcts_solver`]), for the root player.
const UNPROVEN: u8 = 0;
const PROVEN_LOSS: u8 = 1;
const PROVEN_DRAW: u8 = 2;
const PROVEN_WIN: u8 = 3;

/// The score of a proven result, for the root player: 0, 1/2 or 1.
#[inline]
fn proven_score(p: u8) -> f64 {
    match p {
        PROVEN_LOSS => 0.0,
        PROVEN_DRAW => 0.5,
        _ => 1.0,
    }
}

/// One node of the search tree.
#[derive(Clone, Copy)]
struct MNode<M> {
    /// The move (or chance outcome) leading here; `None` at the root.
    mv: Option<M>,
    /// First child's index, [`NONE`] until expanded.
    first: u32,
    /// Number of children once expanded.
    count: u32,
    /// Playouts through this node.
    visits: u32,
    /// Sum of their scores (root player's view).
    total: f64,
    /// Prior among its siblings (priors on), or 0.
    prior: f32,
    /// Probability of this outcome, under a chance node.
    prob: f32,
    /// [`UNSEEN`], [`MAX`], [`MIN`], [`CHANCE`] or [`TERMINAL`].
    kind: u8,
    /// [`UNPROVEN`], or the result the solver proved ([`PROVEN_LOSS`], [`PROVEN_DRAW`],
    /// [`PROVEN_WIN`], for the root player).
    proven: u8,
}

impl<M> MNode<M> {
    fn mean(&self) -> f64 {
        self.total / self.visits.max(1) as f64
    }
}

struct Mcts<'a, G: Game, E: Evaluator<G>> {
    eval: &'a E,
    cfg: &'a SearchConfig,
    root_player: PlayerId,
    single: bool,
    /// Finished games end with a score (`Game::outcome_is_score`: Threes, a textbook tree):
    /// means are in the game's own units, read through the least and greatest scores seen.
    scored: bool,
    /// The solver is on (and the game has two players and ends in wins, losses and draws).
    solver: bool,
    nodes: Vec<MNode<G::Move>>,
    rng: Rng,
    /// Reused buffers (no allocation per iteration once warm).
    moves: Vec<G::Move>,
    outcomes: Vec<(G::Move, f64)>,
    path: Vec<u32>,
    scores: Vec<f64>,
    /// Sum and count of absolute evaluations, for the evaluation-to-probability scale.
    abs_sum: f64,
    abs_n: f64,
    /// Least and greatest scores seen (the normalisation of scored games).
    lo: f64,
    hi: f64,
    iterations: u64,
    playout_plies: u64,
    max_depth: u32,
}

/// Searches `root` with MCTS under `cfg` (see the module documentation). Called by
/// [`search`](super::search) when `cfg.algorithm` is `mcts`.
pub(super) fn search<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    cfg: &SearchConfig,
    mut hooks: Hooks<'_>,
    root_player: PlayerId,
) -> Result<SearchResult<G::Move>, Error> {
    let start = now_ms();
    let seed = cfg.seed.unwrap_or_else(Rng::entropy_seed);
    let mut m = Mcts {
        eval,
        cfg,
        root_player,
        single: root.num_players() == 1,
        scored: root.num_players() == 1 || root.outcome_is_score(),
        solver: cfg.mcts_solver && root.num_players() == 2 && !root.outcome_is_score(),
        nodes: Vec::with_capacity(1024),
        rng: Rng::seeded(seed),
        moves: Vec::new(),
        outcomes: Vec::new(),
        path: Vec::new(),
        scores: Vec::new(),
        abs_sum: 0.0,
        abs_n: 0.0,
        lo: f64::INFINITY,
        hi: f64::NEG_INFINITY,
        iterations: 0,
        playout_plies: 0,
        max_depth: 0,
    };
    m.nodes.push(MNode {
        mv: None,
        first: NONE,
        count: 0,
        visits: 0,
        total: 0.0,
        prior: 1.0,
        prob: 1.0,
        kind: m.kind_of(root),
        proven: UNPROVEN,
    });
    m.expand(0, root);
    if m.nodes[0].count == 0 {
        return Err(Error::NotNow("the player to move has no legal move".into()));
    }
    // A finished game among the root's moves may prove the root at once.
    if m.solver {
        m.path.clear();
        m.path.push(0);
        m.prove_path();
    }
    let no_budget =
        cfg.time_ms.is_none() && cfg.node_budget.is_none() && cfg.mcts_iterations.is_none();
    let max_iterations = if no_budget {
        Some(MCTS_DEFAULT_ITERATIONS)
    } else {
        cfg.mcts_iterations
    };
    let deadline = cfg.time_ms.map(|t| start + t as f64);
    let node_cap = cfg
        .node_budget
        .map_or(ARENA_CAP, |n| n.min(ARENA_CAP as u64) as usize);
    let every = if hooks.progress_every_ms > 0.0 {
        hooks.progress_every_ms
    } else {
        100.0
    };
    let mut last_progress = start;
    loop {
        if max_iterations.is_some_and(|n| m.iterations >= n)
            || m.nodes.len() >= node_cap
            || m.nodes[0].proven != UNPROVEN
        {
            // (A proven root: every further iteration would stop at it.)
            break;
        }
        m.iterate(root, node_cap);
        if m.iterations % CHECK_EVERY == 0 {
            if hooks.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                break;
            }
            let now = now_ms();
            if deadline.is_some_and(|d| now >= d) {
                break;
            }
            if now - last_progress >= every {
                last_progress = now;
                if let Some(cb) = hooks.progress.as_mut() {
                    let fraction = match (deadline, max_iterations) {
                        (Some(d), _) => ((now - start) / (d - start).max(1e-9)).min(1.0),
                        (None, Some(n)) => m.iterations as f64 / n.max(1) as f64,
                        (None, None) => m.nodes.len() as f64 / node_cap.max(1) as f64,
                    };
                    cb(&Progress {
                        nodes: m.nodes.len() as u64,
                        depth: m.max_depth,
                        root_done: m.iterations.min(usize::MAX as u64) as usize,
                        root_total: max_iterations.unwrap_or(0) as usize,
                        fraction,
                        elapsed_ms: now - start,
                        // No promise: the loop may end at its next check and build the tree
                        // silently (the page then relies on the worker's lock to see a death).
                        steady: false,
                    });
                }
            }
        }
    }

    // Root moves by visits (then mean score for the mover), ties shuffled, then the quotient.
    // With the solver, proven wins come first and proven losses last.
    let root_node = m.nodes[0];
    let kids = root_node.first as usize..(root_node.first + root_node.count) as usize;
    let mut ranked: Vec<usize> = kids.clone().collect();
    let class = |n: &MNode<G::Move>| match n.proven {
        PROVEN_WIN => 0,
        PROVEN_LOSS => 2,
        _ => 1,
    };
    ranked.sort_by(|&a, &b| {
        let (x, y) = (&m.nodes[a], &m.nodes[b]);
        class(x).cmp(&class(y)).then(y.visits.cmp(&x.visits)).then(
            m.mover_view(y.mean(), MAX)
                .total_cmp(&m.mover_view(x.mean(), MAX)),
        )
    });
    let mut reason = "visits";
    let top = m.nodes[ranked[0]];
    let ties = ranked
        .iter()
        .take_while(|&&i| {
            let n = &m.nodes[i];
            class(n) == class(&top) && n.visits == top.visits && n.total == top.total
        })
        .count();
    if cfg.random_ties && ties > 1 {
        let pick = m.rng.below(ties as u64) as usize;
        ranked.swap(0, pick);
        reason = "tie";
    }
    let mut k = 0;
    if cfg.randomness_quotient > 1 {
        while k + 1 < ranked.len() && m.rng.below(cfg.randomness_quotient as u64) == 0 {
            k += 1;
        }
        if k > 0 {
            reason = "randomness";
        }
    }
    let chosen = ranked[k];
    let mut pv = vec![m.nodes[chosen].mv.expect("a root child has a move")];
    let mut at = chosen;
    while let Some(next) = m.most_visited(at) {
        pv.push(m.nodes[next].mv.expect("a child has a move"));
        at = next;
    }
    let root_moves: Vec<RootMove<G::Move>> = ranked
        .iter()
        .map(|&i| RootMove {
            mv: m.nodes[i].mv.expect("a root child has a move"),
            value: m.value_of(i),
            exact: m.nodes[i].proven != UNPROVEN,
        })
        .collect();
    let stats = Stats {
        nodes: m.nodes.len() as u64,
        leaves: m.iterations,
        time_ms: ((now_ms() - start) * 1000.0).round() / 1000.0,
        depth_reached: m.max_depth,
        ..Stats::default()
    };
    let chosen_node = m.nodes[chosen];
    // A proven result says so first: "proven win: 37 of 412".
    let proof = match chosen_node.proven {
        PROVEN_WIN => "proven win: ",
        PROVEN_DRAW => "proven draw: ",
        PROVEN_LOSS => "proven loss: ",
        _ => "",
    };
    let why = match reason {
        "randomness" => format!(
            "randomness: rank {} by visits ({} of {})",
            k + 1,
            chosen_node.visits,
            m.iterations
        ),
        _ if !proof.is_empty() => format!("{proof}{} of {}", chosen_node.visits, m.iterations),
        "tie" => format!(
            "most visits, tied: {} of {}",
            chosen_node.visits, m.iterations
        ),
        _ => format!("most visits: {} of {}", chosen_node.visits, m.iterations),
    };
    if !proof.is_empty() && reason != "randomness" {
        reason = "proven";
    }
    let mut result = SearchResult {
        best: chosen_node.mv,
        value: m.value_of(chosen),
        pv,
        rank: k + 1,
        reason,
        root_moves,
        stats,
        tree: None,
    };
    if cfg.record_tree {
        let cap = cfg.node_cap.min(cfg.tree_max_bytes / 96).max(1);
        let mut tree = m.tree(root, cap, chosen);
        result.stats.truncated = tree.head.stats.truncated;
        result.stats.full_levels = tree.head.stats.full_levels;
        tree.head = m.header(root, &result, why, seed);
        result.tree = Some(tree);
    }
    Ok(result)
}

impl<G: Game, E: Evaluator<G>> Mcts<'_, G, E> {
    /// Node `i`'s value for the root player: its proven result's score, or its mean.
    fn value_of(&self, i: usize) -> f64 {
        let n = &self.nodes[i];
        if n.proven != UNPROVEN {
            proven_score(n.proven)
        } else {
            n.mean()
        }
    }

    /// The proven result of a finished game (two players), for the root player.
    fn terminal_proof(&self, pos: &G) -> u8 {
        match pos.outcome() {
            Some(Outcome::Win(p)) if p == self.root_player => PROVEN_WIN,
            Some(Outcome::Win(_)) => PROVEN_LOSS,
            _ => PROVEN_DRAW,
        }
    }

    /// Notes what is now known of node `c` just reached at `pos`: its kind and, with the solver,
    /// a finished game's proven result.
    #[inline]
    fn reach(&mut self, c: usize, pos: &G) {
        let kind = self.kind_of(pos);
        self.nodes[c].kind = kind;
        if kind == TERMINAL && self.solver {
            self.nodes[c].proven = self.terminal_proof(pos);
        }
    }

    /// Proves what can be proven along the current path, from its end up (MCTS-Solver): a
    /// player's node is won for its mover when one child is, lost when every child is lost for
    /// it, and otherwise, once every child is proven, worth its best child; a chance node is
    /// proven when all its outcomes are proven the same. Stops at the first node that stays
    /// unproven (its ancestors cannot change).
    fn prove_path(&mut self) {
        for k in (0..self.path.len()).rev() {
            let i = self.path[k] as usize;
            if self.nodes[i].proven != UNPROVEN {
                continue;
            }
            let p = self.proof_of(i);
            if p == UNPROVEN {
                return;
            }
            self.nodes[i].proven = p;
        }
    }

    /// What node `i`'s children prove of it ([`UNPROVEN`] when nothing).
    fn proof_of(&self, i: usize) -> u8 {
        let n = &self.nodes[i];
        if n.first == NONE || n.count == 0 {
            return UNPROVEN;
        }
        let kids = n.first as usize..(n.first + n.count) as usize;
        match n.kind {
            MAX | MIN => {
                // The mover's best result, and whether every child is proven.
                let (good, bad) = if n.kind == MAX {
                    (PROVEN_WIN, PROVEN_LOSS)
                } else {
                    (PROVEN_LOSS, PROVEN_WIN)
                };
                let mut all = true;
                let mut best = bad;
                for c in kids {
                    let p = self.nodes[c].proven;
                    if p == good {
                        return good;
                    }
                    if p == UNPROVEN {
                        all = false;
                    } else if p == PROVEN_DRAW {
                        best = PROVEN_DRAW;
                    }
                }
                if all {
                    best
                } else {
                    UNPROVEN
                }
            }
            CHANCE => {
                let first = self.nodes[n.first as usize].proven;
                if first != UNPROVEN && kids.into_iter().all(|c| self.nodes[c].proven == first) {
                    first
                } else {
                    UNPROVEN
                }
            }
            _ => UNPROVEN,
        }
    }

    fn kind_of(&self, pos: &G) -> u8 {
        match pos.turn() {
            Turn::Terminal => TERMINAL,
            Turn::Chance => CHANCE,
            Turn::Player(p) if p == self.root_player || self.single => MAX,
            Turn::Player(_) => MIN,
        }
    }

    /// A mean score as the player choosing at a node of `kind` sees it, from 0 to 1.
    #[inline]
    fn mover_view(&self, mean: f64, kind: u8) -> f64 {
        if self.scored {
            // The root player's share of the spread seen; the other player's is the rest.
            let share = if self.hi > self.lo {
                (mean - self.lo) / (self.hi - self.lo)
            } else {
                0.5
            };
            if kind == MIN && !self.single {
                1.0 - share
            } else {
                share
            }
        } else if kind == MIN {
            1.0 - mean
        } else {
            mean
        }
    }

    /// Makes the children of `i` (at position `pos`): its legal moves, or its chance outcomes with
    /// their probabilities. With priors, each move's prior is a softmax of its pre-score.
    fn expand(&mut self, i: usize, pos: &G) {
        let kind = self.nodes[i].kind;
        if kind == TERMINAL || self.nodes[i].first != NONE {
            return;
        }
        let first = self.nodes.len() as u32;
        if kind == CHANCE {
            pos.chance_outcomes(&mut self.outcomes);
            for &(mv, p) in &self.outcomes {
                if p > 0.0 {
                    self.nodes.push(MNode {
                        mv: Some(mv),
                        first: NONE,
                        count: 0,
                        visits: 0,
                        total: 0.0,
                        prior: 0.0,
                        prob: p as f32,
                        kind: UNSEEN,
                        proven: UNPROVEN,
                    });
                }
            }
        } else {
            pos.legal_moves(&mut self.moves);
            let mover = match pos.turn() {
                Turn::Player(p) => p,
                _ => self.root_player,
            };
            self.scores.clear();
            for k in 0..self.moves.len() {
                let mv = self.moves[k];
                if self.cfg.mcts_priors {
                    let mut c = pos.clone();
                    c.play_unchecked(mv);
                    let s = match c.outcome() {
                        // A finished game: a win 4 scales above an even position, a loss 4
                        // below (a scored game: its score, for the mover).
                        Some(o) if self.scored => self.eval.terminal(&c, o, mover, 0),
                        Some(o) => (self.outcome_score(o, mover) * 2.0 - 1.0) * 4.0 * self.scale(),
                        None => {
                            let v = self.eval.prescore(&c, mover, &mut NoTerms);
                            self.note(v);
                            v
                        }
                    };
                    self.scores.push(s);
                }
                self.nodes.push(MNode {
                    mv: Some(mv),
                    first: NONE,
                    count: 0,
                    visits: 0,
                    total: 0.0,
                    prior: 0.0,
                    prob: 1.0,
                    kind: UNSEEN,
                    proven: UNPROVEN,
                });
                if self.solver {
                    // The solver sees a finished game among the moves at once (a win in one
                    // proves this node before any playout).
                    let mut c = pos.clone();
                    c.play_unchecked(mv);
                    let at = self.nodes.len() - 1;
                    self.reach(at, &c);
                }
            }
            if self.cfg.mcts_priors && !self.scores.is_empty() {
                // Softmax of the pre-scores, in units of the evaluations' scale.
                let t = self.prior_scale();
                let best = self
                    .scores
                    .iter()
                    .copied()
                    .fold(f64::NEG_INFINITY, f64::max);
                let sum: f64 = self.scores.iter().map(|s| ((s - best) / t).exp()).sum();
                for (k, s) in self.scores.iter().enumerate() {
                    self.nodes[first as usize + k].prior = (((s - best) / t).exp() / sum) as f32;
                }
            }
        }
        let count = self.nodes.len() as u32 - first;
        self.nodes[i].first = if count > 0 { first } else { NONE };
        self.nodes[i].count = count;
    }

    /// Notes an evaluation (not a decided value) for [`Mcts::scale`].
    #[inline]
    fn note(&mut self, v: f64) {
        if v.abs() < crate::core::WIN_SCORE / 2.0 {
            self.abs_sum += v.abs();
            self.abs_n += 1.0;
        }
    }

    /// The temperature of the priors' softmax: the evaluations' scale in two-player games; in a
    /// single-player game the spread of the scores seen (its evaluations are large positive
    /// numbers whose differences matter).
    fn prior_scale(&self) -> f64 {
        if self.scored && self.hi > self.lo {
            self.hi - self.lo
        } else {
            self.scale()
        }
    }

    /// The scale of evaluations: the mean absolute evaluation seen so far (1 before any).
    #[inline]
    fn scale(&self) -> f64 {
        if self.abs_n > 0.0 && self.abs_sum > 0.0 {
            self.abs_sum / self.abs_n
        } else {
            1.0
        }
    }

    /// A finished game's score from `player`'s view: 1, 0 or 1/2 (two players); a single player's
    /// score in its own units.
    fn outcome_score(&self, o: Outcome, player: PlayerId) -> f64 {
        match o {
            Outcome::Win(p) if p == player => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
            Outcome::Score(s) => s,
        }
    }

    /// The score of a finished game for the root player.
    fn terminal_score(&self, pos: &G) -> f64 {
        match pos.outcome() {
            Some(o) if self.scored => self.eval.terminal(pos, o, self.root_player, 0),
            Some(o) => self.outcome_score(o, self.root_player),
            None => 0.5,
        }
    }

    /// The evaluator's view of a position still in play, as a score for the root player.
    fn evaluated_score(&mut self, pos: &G) -> f64 {
        let v = self.eval.evaluate(pos, self.root_player, &mut NoTerms);
        self.note(v);
        if self.scored {
            return v;
        }
        if v.abs() >= crate::core::WIN_SCORE / 2.0 {
            return if v > 0.0 { 1.0 } else { 0.0 };
        }
        1.0 / (1.0 + (-v / self.scale()).exp())
    }

    /// One iteration: selection, expansion, playout, backup.
    fn iterate(&mut self, root: &G, node_cap: usize) {
        let mut state = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut i = 0usize;
        let mut depth = 0u32;
        let score = loop {
            let kind = self.nodes[i].kind;
            if self.nodes[i].proven != UNPROVEN {
                // A proven node (a finished game among them) scores its result.
                break proven_score(self.nodes[i].proven);
            }
            if kind == TERMINAL {
                break self.terminal_score(&state);
            }
            if self.nodes[i].first == NONE {
                if i != 0 && self.nodes[i].visits == 0 || self.nodes.len() >= node_cap {
                    break self.playout(&mut state);
                }
                self.expand(i, &state);
                if self.nodes[i].first == NONE {
                    break self.playout(&mut state);
                }
            }
            let c = if kind == CHANCE {
                self.sample_outcome(i)
            } else {
                self.select(i)
            };
            let mv = self.nodes[c].mv.expect("a child has a move");
            state.play_unchecked(mv);
            if self.nodes[c].kind == UNSEEN {
                self.reach(c, &state);
            }
            i = c;
            depth += 1;
            self.path.push(c as u32);
        };
        self.max_depth = self.max_depth.max(depth);
        if self.scored {
            self.lo = self.lo.min(score);
            self.hi = self.hi.max(score);
        }
        for &p in &self.path {
            let n = &mut self.nodes[p as usize];
            n.visits += 1;
            n.total += score;
        }
        if self.solver {
            self.prove_path();
        }
        self.iterations += 1;
    }

    /// An outcome of chance node `i`, drawn with its probability.
    fn sample_outcome(&mut self, i: usize) -> usize {
        let n = self.nodes[i];
        let total: f64 = (0..n.count)
            .map(|k| self.nodes[(n.first + k) as usize].prob as f64)
            .sum();
        let mut r = self.rng.unit() * total;
        for k in 0..n.count {
            let c = (n.first + k) as usize;
            let p = self.nodes[c].prob as f64;
            if r < p {
                return c;
            }
            r -= p;
        }
        (n.first + n.count - 1) as usize
    }

    /// The selection score of child `c` of player node `i` (`None`: unvisited without priors,
    /// which goes first).
    #[inline]
    fn child_score(&self, i: usize, c: usize) -> Option<f64> {
        let n = &self.nodes[i];
        let x = &self.nodes[c];
        let cst = self.cfg.mcts_exploration;
        if self.cfg.mcts_priors {
            let q = if x.visits == 0 {
                self.mover_view(n.mean(), n.kind)
            } else {
                self.mover_view(x.mean(), n.kind)
            };
            Some(q + cst * x.prior as f64 * (n.visits as f64).sqrt() / (1.0 + x.visits as f64))
        } else if x.visits == 0 {
            None
        } else {
            let q = self.mover_view(x.mean(), n.kind);
            Some(q + cst * ((n.visits.max(1) as f64).ln() / x.visits as f64).sqrt())
        }
    }

    /// The child of player node `i` with the best selection score (the first unvisited one
    /// without priors).
    fn select(&self, i: usize) -> usize {
        let n = &self.nodes[i];
        let mut best = n.first as usize;
        let mut best_score = f64::NEG_INFINITY;
        // The solver's proven-lost moves (for the mover here) are not tried again; an unproven
        // node has at least one move that is not lost.
        let lost = match n.kind {
            MAX => PROVEN_LOSS,
            MIN => PROVEN_WIN,
            _ => UNPROVEN,
        };
        for k in 0..n.count {
            let c = (n.first + k) as usize;
            if lost != UNPROVEN && self.nodes[c].proven == lost {
                continue;
            }
            match self.child_score(i, c) {
                None => return c,
                Some(s) if s > best_score => {
                    best_score = s;
                    best = c;
                }
                _ => {}
            }
        }
        best
    }

    /// Plays a playout from `state` and returns its score for the root player.
    fn playout(&mut self, state: &mut G) -> f64 {
        let limit = match self.cfg.mcts_playout {
            Playout::Random => RANDOM_PLAYOUT_CAP,
            Playout::Heuristic => self.cfg.mcts_playout_plies,
        };
        let mut plies = 0;
        loop {
            match state.turn() {
                Turn::Terminal => return self.terminal_score(state),
                _ if plies >= limit => return self.evaluated_score(state),
                Turn::Chance => {
                    state.chance_outcomes(&mut self.outcomes);
                    if self.outcomes.is_empty() {
                        return self.evaluated_score(state);
                    }
                    let o = self.rng.pick_weighted(&self.outcomes);
                    state.play_unchecked(o);
                }
                Turn::Player(_) => {
                    state.legal_moves(&mut self.moves);
                    if self.moves.is_empty() {
                        return self.evaluated_score(state);
                    }
                    let k = self.rng.below(self.moves.len() as u64) as usize;
                    state.play_unchecked(self.moves[k]);
                }
            }
            plies += 1;
            self.playout_plies += 1;
        }
    }

    /// The most visited child of `i` (none when unexpanded or never visited below).
    fn most_visited(&self, i: usize) -> Option<usize> {
        let n = &self.nodes[i];
        if n.first == NONE {
            return None;
        }
        let mut best: Option<usize> = None;
        for k in 0..n.count {
            let c = (n.first + k) as usize;
            if self.nodes[c].visits > 0
                && best.map_or(true, |b| self.nodes[c].visits > self.nodes[b].visits)
            {
                best = Some(c);
            }
        }
        best
    }

    /// The tree for the explorer, at most `cap` nodes: the most visited nodes (a node's visits
    /// are at least any child's, so they form a tree); what is left out is counted in the
    /// nearest kept ancestor's `unrecorded`.
    fn tree(&self, root: &G, cap: usize, chosen: usize) -> Tree {
        let n = self.nodes.len();
        let mut parent = vec![NONE; n];
        let mut depth = vec![0u32; n];
        for i in 0..n {
            let x = &self.nodes[i];
            if x.first != NONE {
                for k in 0..x.count {
                    let c = (x.first + k) as usize;
                    parent[c] = i as u32;
                    depth[c] = depth[i] + 1;
                }
            }
        }
        let mut keep = vec![true; n];
        let truncated = n > cap;
        if truncated {
            let mut order: Vec<u32> = (0..n as u32).collect();
            order.sort_by(|&a, &b| {
                let (x, y) = (&self.nodes[a as usize], &self.nodes[b as usize]);
                y.visits
                    .cmp(&x.visits)
                    .then(depth[a as usize].cmp(&depth[b as usize]))
                    .then(a.cmp(&b))
            });
            keep = vec![false; n];
            for &i in order.iter().take(cap) {
                keep[i as usize] = true;
            }
            // Keep the tree closed under ancestry (equal visits may break it).
            for &i in order.iter().take(cap) {
                let mut p = parent[i as usize];
                while p != NONE && !keep[p as usize] {
                    keep[p as usize] = true;
                    p = parent[p as usize];
                }
            }
        }
        // The principal line: the chosen move, then the most visited child at every level.
        let mut best = vec![false; n];
        best[0] = true;
        let mut at = chosen;
        best[at] = true;
        while let Some(c) = self.most_visited(at) {
            best[c] = true;
            at = c;
        }
        let mut t = Tree::default();
        let mut texts: HashMap<String, u32> = HashMap::new();
        // Pre-order walk with positions (to write the moves' texts): (node, parent in the
        // output, position at the node, its move's text index).
        let mut stack: Vec<(usize, u32, G, u32)> = vec![(0, NONE, root.clone(), NONE)];
        while let Some((i, out_parent, pos, mv_id)) = stack.pop() {
            let x = &self.nodes[i];
            let idx = t.nodes.len() as u32;
            let kind = match x.kind {
                _ if x.kind == TERMINAL => NodeKind::Terminal,
                _ if x.first == NONE => NodeKind::Leaf,
                MAX => NodeKind::Max,
                MIN => NodeKind::Min,
                CHANCE => NodeKind::Chance,
                _ => NodeKind::Leaf,
            };
            let mut node = TreeNode::new(out_parent, kind);
            node.mv = mv_id;
            node.best = best[i];
            node.visits = Some(x.visits as u64);
            if x.proven != UNPROVEN {
                // The solver's result, exact (a finished game or a proof from its children).
                node.value = Some(proven_score(x.proven));
                node.bound = Some(Bound::Exact);
                node.proven = true;
            } else if x.visits > 0 {
                node.value = Some(round6(x.mean()));
                node.bound = Some(Bound::Exact);
            }
            if i != 0 {
                let p = parent[i] as usize;
                if self.nodes[p].kind == CHANCE {
                    node.prob = Some(x.prob as f64);
                } else {
                    if self.cfg.mcts_priors {
                        node.prior = Some(round6(x.prior as f64));
                    }
                    node.uct = self.child_score(p, i).map(round6);
                }
            }
            t.nodes.push(node);
            if x.first == NONE {
                continue;
            }
            for k in (0..x.count).rev() {
                let c = (x.first + k) as usize;
                if !keep[c] {
                    // Left out: it and its subtree are counted in this node's `unrecorded`.
                    let lost = self.subtree_size(c);
                    t.nodes[idx as usize].unrecorded += lost;
                    continue;
                }
                let mv = self.nodes[c].mv.expect("a child has a move");
                let text = pos.format_move(mv);
                let id = match texts.get(&text) {
                    Some(&id) => id,
                    None => {
                        let id = t.moves.len() as u32;
                        t.moves.push(text.clone());
                        texts.insert(text, id);
                        id
                    }
                };
                let mut cpos = pos.clone();
                cpos.play_unchecked(mv);
                stack.push((c, idx, cpos, id));
            }
        }
        t.head.stats.truncated = truncated;
        if truncated {
            t.head.stats.full_levels = Some(self.full_levels(&keep, &depth));
        }
        t
    }

    /// Nodes in the subtree of `i`, itself included.
    fn subtree_size(&self, i: usize) -> u64 {
        let mut count = 0u64;
        let mut stack = vec![i];
        while let Some(j) = stack.pop() {
            count += 1;
            let x = &self.nodes[j];
            if x.first != NONE {
                stack.extend((x.first..x.first + x.count).map(|c| c as usize));
            }
        }
        count
    }

    /// The deepest level whose nodes were all kept.
    fn full_levels(&self, keep: &[bool], depth: &[u32]) -> u32 {
        let mut first_missing = u32::MAX;
        for (i, &k) in keep.iter().enumerate() {
            if !k {
                first_missing = first_missing.min(depth[i]);
            }
        }
        first_missing.saturating_sub(1)
    }

    fn header(&self, root: &G, r: &SearchResult<G::Move>, why: String, seed: u64) -> Header {
        let mut settings = match serde_json::to_value(self.cfg) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => serde_json::Map::new(),
        };
        settings.retain(|k, v| {
            !v.is_null() && (k.starts_with("mcts_") || !MINIMAX_ONLY.contains(&k.as_str()))
        });
        settings.insert(
            "evaluator".into(),
            serde_json::Value::String(self.eval.name().to_string()),
        );
        settings.insert("seed".into(), serde_json::Value::from(seed));
        let proven = r
            .root_moves
            .get(r.rank.saturating_sub(1))
            .is_some_and(|m| m.exact);
        let value_text = r.best.map(|_| {
            if self.scored {
                self.eval.describe(r.value).text
            } else {
                mcts_value_text(r.value, proven)
            }
        });
        Header {
            game: root.game_id(),
            root_position: Some(root.position_text()),
            engine: format!("plyscope {}", env!("CARGO_PKG_VERSION")),
            algorithm: "mcts".into(),
            evaluator: Some(self.eval.name().to_string()),
            perspective: root.player_name(self.root_player).to_string(),
            // Means of playout scores, not the evaluator's values: no scale to read them with.
            values: None,
            settings,
            stats: r.stats.clone(),
            chosen: r.best.map(|m| Chosen {
                mv: root.format_move(m),
                rank: r.rank,
                reason: why,
                value_text,
            }),
        }
    }
}

/// Settings that mean nothing to MCTS, left out of its tree's header.
const MINIMAX_ONLY: &[&str] = &[
    "depth",
    "iterative_deepening",
    "move_ordering",
    "branching_limit",
    "transposition_table",
    "tt_bits",
    "chance_cutoff",
    "probability_steps",
];

fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// The text of a two-player MCTS value (a mean score from 0 to 1): `"62% expected score"`.
pub fn expected_score_text(value: f64) -> String {
    format!("{}% expected score", round1(value * 100.0))
}

/// The text of a two-player MCTS value, `exact` when the solver proved it: `"proven win"`,
/// `"proven draw"` or `"proven loss"` (1, 1/2 or 0); otherwise [`expected_score_text`].
pub fn mcts_value_text(value: f64, exact: bool) -> String {
    if !exact {
        expected_score_text(value)
    } else if value >= 0.75 {
        "proven win".into()
    } else if value <= 0.25 {
        "proven loss".into()
    } else {
        "proven draw".into()
    }
}
