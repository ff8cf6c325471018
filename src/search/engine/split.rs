//! Parallel search without shared memory: root splitting over workers that each own their engine
//! and transposition table (the browser's Web Workers, which cannot share wasm memory here).
//!
//! Each iteration of iterative deepening is cut into jobs, one root move each. A [`SplitPlan`]
//! (held by a coordinator that never searches) hands out jobs and takes their results; a worker
//! runs a job with [`search_move`], which searches that root move's subtree exactly as the
//! single-threaded root loop would (same depth, same window, same ply, same root player).
//!
//! The plan keeps, per root move of the current depth, what is known of its value: an interval
//! `lower..=upper` narrowed by each job's result (a null-window job that fails low gives an upper
//! bound, one that fails high a lower bound, a job whose result falls inside its window the exact
//! value). With `alpha` the best exact value so far, a move is settled when its value is exact
//! or its upper bound is at most `alpha` (less a hair when equal moves must come back exact, as
//! the single-threaded search does with random ties). Jobs, best first:
//! - the first move in the order (the last depth's best) with a full window, while no exact value
//!   is known;
//! - then, for each unsettled move: a full-window search above `alpha` when it is known to beat
//!   it, else a null-window search at `alpha` (principal variation search at the root);
//! - while the first move's value is not known yet, idle workers search the other moves against
//!   a guess: whatever the true `alpha` turns out to be, a bound stays a bound, and a move the
//!   guess did not settle gets another job. With 3 or more workers the guess is the last depth's
//!   best value and the search a null window at it (cheap tests, many at once). With 2 workers
//!   (one spare worker, which has time for only a few moves while the first is searched) each
//!   such job returns the move's exact value when it is above the lower of the last two depths'
//!   best values, and an upper bound below it otherwise: in Ataxx the best value swings between
//!   odd and even depths (72 at depth 7, 64 at depth 8 from the start), so a null window at the
//!   last depth's value failed low at exactly the guess and settled nothing, and the spare
//!   worker's time was lost. Measured in node time (tests/parallel_split.rs,
//!   `predicted_speedup`): Ataxx depth 8 from the start 1.17x -> 1.73x at 2 workers; with 4
//!   workers null windows stay better (2.07x against 1.61x), hence the choice by worker count.
//!
//! So the root value of each depth is the one the single-threaded alpha-beta search finds (up to
//! what the transposition table, reductions and null moves make of a search's history, as in any
//! alpha-beta search with them), whichever worker searched what and in whatever order results
//! come back.

use super::*;
use crate::tree::WorkerStats;

/// A hair below the best value: where null windows sit when moves equal to the best must come
/// back exact (random ties), as in the single-threaded root loop.
const TIE_EPS: f64 = 1e-6;

/// One job: search root move `index` (of the plan's order) to `depth` in the window `lo..hi`.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitJob {
    /// The job's number (results name it).
    pub id: u64,
    /// The root move's index in the list the plan was made with.
    pub index: usize,
    /// The iteration's depth (the root move is searched to `depth - 1` below it).
    pub depth: u32,
    /// The window's lower end (minus infinity for none).
    pub lo: f64,
    /// The window's upper end (plus infinity for none).
    pub hi: f64,
    /// Whether it is a null-window search (principal variation search's test).
    pub null_window: bool,
    /// Milliseconds left of the search's time budget, if it has one.
    pub time_ms: Option<u64>,
    /// Nodes left of the search's node budget, if it has one.
    pub node_budget: Option<u64>,
    /// The search's number (a worker keeps its table between jobs of the same search only).
    pub search: u64,
}

/// What a job found.
#[derive(Debug, Clone)]
pub struct SplitOutcome<T> {
    /// The job's number.
    pub id: u64,
    /// The worker that ran it.
    pub worker: u32,
    /// The root move's value from the root player's view (a bound when outside the window).
    pub value: f64,
    /// False when the budget ran out before the job finished (its value means nothing).
    pub complete: bool,
    /// Every line ended in a finished game (a deeper search would find the same).
    pub settled: bool,
    /// Nodes the job searched.
    pub nodes: u64,
    /// Leaves the job evaluated.
    pub leaves: u64,
    /// Transposition-table hits in the job.
    pub tt_hits: u64,
    /// The rest: the principal variation and the recorded subtree, in the caller's form.
    pub payload: T,
}

#[derive(Clone)]
struct MoveState<T> {
    lower: f64,
    upper: f64,
    exact: bool,
    running: bool,
    /// The result that last narrowed the interval (its value, window and payload).
    last: Option<(f64, bool, u32, T)>,
    settled: bool,
}

impl<T> MoveState<T> {
    fn new() -> Self {
        MoveState {
            lower: f64::NEG_INFINITY,
            upper: f64::INFINITY,
            exact: false,
            running: false,
            last: None,
            settled: true,
        }
    }
}

/// One root move's result in a completed (or the last partial) depth.
#[derive(Debug, Clone)]
pub struct SplitRoot<T> {
    /// The root move's index in the plan's list.
    pub index: usize,
    /// Its value (an upper bound when not exact).
    pub value: f64,
    /// Whether the value is exact.
    pub exact: bool,
    /// Whether the result came from a null-window search.
    pub null_window: bool,
    /// The worker that searched it.
    pub worker: u32,
    /// The job's payload (principal variation, subtree).
    pub payload: T,
}

/// The coordinator's side of a split search (see the module documentation). It knows no game:
/// moves are indices into the list it was made with, values are numbers.
pub struct SplitPlan<T> {
    order: Vec<usize>,
    max_depth: u32,
    depth: u32,
    full_window: bool,
    eps: f64,
    guess: Option<f64>,
    /// The best value of the depth before the last one.
    guess_before: Option<f64>,
    /// Whether the moves searched while the first move's value is unknown get a window open
    /// above the guess (their exact values) rather than a null window at it (see the module
    /// documentation); chosen for 2 workers.
    spec_exact: bool,
    alpha: Option<f64>,
    moves: Vec<MoveState<T>>,
    /// Jobs running: (id, move index, lo, hi, null window, depth).
    jobs: Vec<(u64, usize, f64, f64, bool, u32)>,
    next_id: u64,
    done: Option<(u32, Vec<SplitRoot<T>>)>,
    finished: bool,
    start: f64,
    deadline: Option<f64>,
    node_budget: Option<u64>,
    nodes: u64,
    leaves: u64,
    tt_hits: u64,
    workers: Vec<WorkerStats>,
    search: u64,
    /// When the last two depths completed (milliseconds since the start).
    completed_at: (f64, f64),
}

impl<T: Clone> SplitPlan<T> {
    /// A plan for `n` root moves (in search order: best first by pre-score), searched by
    /// iterative deepening to `cfg.depth` within `cfg`'s budgets, by `workers` workers.
    pub fn new(n: usize, cfg: &SearchConfig, workers: u32) -> Self {
        let start = now_ms();
        let prune = cfg.algorithm == Algorithm::Alphabeta;
        let full_window = !prune || cfg.randomness_quotient > 1;
        SplitPlan {
            order: (0..n).collect(),
            max_depth: if cfg.algorithm == Algorithm::Greedy {
                1
            } else {
                cfg.depth
            },
            depth: 1,
            full_window,
            eps: if cfg.random_ties && !full_window {
                TIE_EPS
            } else {
                0.0
            },
            guess: None,
            guess_before: None,
            spec_exact: workers == 2,
            alpha: None,
            moves: (0..n).map(|_| MoveState::new()).collect(),
            jobs: Vec::new(),
            next_id: 1,
            done: None,
            finished: n == 0,
            start,
            deadline: cfg.time_ms.map(|t| start + t as f64),
            node_budget: cfg.node_budget,
            nodes: 0,
            leaves: 0,
            tt_hits: 0,
            workers: (0..workers)
                .map(|w| WorkerStats {
                    worker: w,
                    ..WorkerStats::default()
                })
                .collect(),
            search: Rng::entropy_seed() >> 12,
            completed_at: (0.0, 0.0),
        }
    }

    /// The depth being searched.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Nodes searched so far by every finished job.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Root moves settled in the current depth, and how many there are.
    pub fn root_done(&self) -> (usize, usize) {
        let done = (0..self.moves.len())
            .filter(|&i| self.is_settled(i))
            .count();
        (done, self.moves.len())
    }

    /// Milliseconds since the plan was made.
    pub fn elapsed_ms(&self) -> f64 {
        now_ms() - self.start
    }

    /// Whether no job will be handed out any more (the search is over once none is running).
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Whether the search is over: finished and no job running whose result could still count
    /// (a job of a depth already completed cannot).
    pub fn over(&self) -> bool {
        self.finished && self.jobs.iter().all(|j| self.stale(j.5))
    }

    /// Whether a job of `depth` can no longer change anything.
    fn stale(&self, depth: u32) -> bool {
        self.done.as_ref().is_some_and(|d| depth <= d.0)
    }

    /// Jobs handed out and not answered yet.
    pub fn running(&self) -> usize {
        self.jobs.len()
    }

    fn threshold(&self, a: f64) -> f64 {
        a - self.eps
    }

    fn is_settled(&self, i: usize) -> bool {
        let m = &self.moves[i];
        m.exact || self.alpha.is_some_and(|a| m.upper <= self.threshold(a))
    }

    fn out_of_budget(&self) -> bool {
        self.deadline.is_some_and(|d| now_ms() >= d)
            || self.node_budget.is_some_and(|b| self.nodes >= b)
    }

    /// The next job for an idle worker, or `None` when there is nothing to do now (wait for a
    /// result) or any more ([`SplitPlan::finished`]).
    pub fn next_job(&mut self) -> Option<SplitJob> {
        if self.finished {
            return None;
        }
        if self.out_of_budget() {
            self.finished = true;
            return None;
        }
        let (inf, ninf) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut pick = None;
        for (rank, &i) in self.order.iter().enumerate() {
            let m = &self.moves[i];
            if m.running || self.is_settled(i) {
                continue;
            }
            if self.full_window {
                pick = Some((i, ninf, inf, false));
                break;
            }
            match self.alpha {
                Some(a) => {
                    let t = self.threshold(a);
                    pick = Some(if m.lower > t {
                        (i, t, inf, false)
                    } else {
                        (i, t, t.next_up(), true)
                    });
                    break;
                }
                None if rank == 0 => {
                    pick = Some((i, ninf, inf, false));
                    break;
                }
                None => {
                    // The first move is being searched: test the others against a guess.
                    let Some(g) = self.guess else { continue };
                    if !self.spec_exact {
                        let t = self.threshold(g);
                        if m.upper <= t || m.lower > t {
                            continue;
                        }
                        pick = Some((i, t, t.next_up(), true));
                        break;
                    }
                    // One spare worker: exact values above the lower of the last two depths'
                    // best values (values swing between odd and even depths).
                    let t = self.threshold(self.guess_before.map_or(g, |b| g.min(b)));
                    if m.upper <= t {
                        continue;
                    }
                    pick = Some((i, t, inf, false));
                    break;
                }
            }
        }
        let (index, lo, hi, null_window) = pick?;
        let id = self.next_id;
        self.next_id += 1;
        self.moves[index].running = true;
        self.jobs.push((id, index, lo, hi, null_window, self.depth));
        let now = now_ms();
        Some(SplitJob {
            id,
            index,
            depth: self.depth,
            lo,
            hi,
            null_window,
            time_ms: self.deadline.map(|d| (d - now).max(1.0).ceil() as u64),
            node_budget: self
                .node_budget
                .map(|b| b.saturating_sub(self.nodes).max(1)),
            search: self.search,
        })
    }

    /// Takes a job's result. Results of unknown jobs are refused.
    pub fn done(&mut self, r: SplitOutcome<T>) -> Result<(), Error> {
        let at =
            self.jobs.iter().position(|j| j.0 == r.id).ok_or_else(|| {
                Error::bad_option("job", r.id, "the number of a job still running")
            })?;
        let (_, index, lo, hi, null_window, depth) = self.jobs.swap_remove(at);
        self.nodes += r.nodes;
        self.leaves += r.leaves;
        self.tt_hits += r.tt_hits;
        if let Some(w) = self.workers.get_mut(r.worker as usize) {
            w.nodes += r.nodes;
            w.tt_hits += r.tt_hits;
        }
        if self.stale(depth) {
            // Its depth completed without it (the move was settled while it ran).
            return Ok(());
        }
        let m = &mut self.moves[index];
        m.running = false;
        if !r.complete || r.value.is_nan() {
            // The budget ran out: this depth cannot complete.
            self.finished = true;
            return Ok(());
        }
        let v = r.value;
        m.settled &= r.settled;
        if v <= lo && lo.is_finite() {
            m.upper = m.upper.min(v);
        } else if v >= hi && hi.is_finite() {
            m.lower = m.lower.max(v);
        } else {
            m.lower = v;
            m.upper = v;
            m.exact = true;
        }
        m.last = Some((v, null_window, r.worker, r.payload));
        if m.exact && self.alpha.map_or(true, |a| v > a) {
            self.alpha = Some(v);
        }
        if self.full_window || self.alpha.is_some() {
            let all = (0..self.moves.len()).all(|i| self.is_settled(i));
            if all {
                self.complete_depth();
            }
        }
        if self.out_of_budget() {
            self.finished = true;
        }
        Ok(())
    }

    fn roots(&self) -> Vec<SplitRoot<T>> {
        self.order
            .iter()
            .filter_map(|&i| {
                let m = &self.moves[i];
                let (value, null_window, worker, payload) = m.last.clone()?;
                Some(SplitRoot {
                    index: i,
                    value: if m.exact { m.lower } else { value.min(m.upper) },
                    exact: m.exact,
                    null_window,
                    worker,
                    payload,
                })
            })
            .collect()
    }

    fn complete_depth(&mut self) {
        let roots = self.roots();
        let settled = self.moves.iter().all(|m| m.settled);
        let best = roots
            .iter()
            .filter(|r| r.exact)
            .map(|r| r.value)
            .max_by(f64::total_cmp);
        for w in &mut self.workers {
            if roots.iter().any(|r| r.worker == w.worker) {
                w.depth_reached = self.depth;
            }
        }
        // Next depth: best first, the rest by this depth's values (ties keep their order).
        let mut ranked: Vec<(usize, f64)> = roots.iter().map(|r| (r.index, r.value)).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        self.order = ranked.iter().map(|r| r.0).collect();
        self.done = Some((self.depth, roots));
        self.guess_before = self.guess;
        self.guess = best;
        self.alpha = None;
        let now = now_ms() - self.start;
        let took = (
            now - self.completed_at.1,
            self.completed_at.1 - self.completed_at.0,
        );
        self.completed_at = (self.completed_at.1, now);
        if settled || self.depth >= self.max_depth || self.next_depth_too_long(now, took) {
            self.finished = true;
            return;
        }
        self.depth += 1;
        for m in &mut self.moves {
            *m = MoveState::new();
        }
    }

    /// Under a time budget, past its first half: whether the next depth would not finish in what
    /// is left, guessing its cost from the last two depths' (their ratio kept between 1.5 and 32),
    /// as the single-threaded search does. `took`: the last depth's duration and the one before.
    fn next_depth_too_long(&self, now: f64, took: (f64, f64)) -> bool {
        let Some(deadline) = self.deadline else {
            return false;
        };
        let budget = deadline - self.start;
        if now < budget / 2.0 {
            return false;
        }
        let ratio = if took.1 > 0.0 {
            (took.0 / took.1).clamp(1.5, 32.0)
        } else {
            4.0
        };
        now + took.0 * ratio > budget
    }

    /// The last completed depth and its root moves (in that depth's order, best first), or, when
    /// none completed, depth 0 and what the first one found.
    pub fn result(&self) -> (u32, Vec<SplitRoot<T>>) {
        match &self.done {
            Some((d, roots)) => {
                let mut roots = roots.clone();
                roots.sort_by(|a, b| b.value.total_cmp(&a.value));
                (*d, roots)
            }
            None => {
                let mut roots: Vec<_> = self.roots().into_iter().filter(|r| r.exact).collect();
                roots.sort_by(|a, b| b.value.total_cmp(&a.value));
                (0, roots)
            }
        }
    }

    /// The whole run's statistics so far (nodes, leaves and table hits summed over every job;
    /// one entry per worker).
    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            leaves: self.leaves,
            tt_hits: self.tt_hits,
            time_ms: ((now_ms() - self.start) * 1000.0).round() / 1000.0,
            depth_reached: self.done.as_ref().map_or(0, |d| d.0),
            workers: self.workers.clone(),
            ..Stats::default()
        }
    }
}

/// What [`search_move`] returns.
pub struct MoveSearch<M> {
    /// The move's value from the root player's view (a bound outside the window).
    pub value: f64,
    /// Whether the search finished within its budget.
    pub complete: bool,
    /// Whether every line ended in a finished game.
    pub settled: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Leaves evaluated.
    pub leaves: u64,
    /// Transposition-table hits.
    pub tt_hits: u64,
    /// The principal variation, the move first.
    pub pv: Vec<M>,
    /// The recorded tree (a root with this one child), when `cfg.record_tree`.
    pub tree: Option<Tree>,
}

/// Searches root move `mv` of `root` as the root loop of an iteration to `depth` would, in the
/// window `lo..hi` (a null-window job is marked as such in the tree). The transposition table
/// is this thread's own: with `keep`, the entries of its last job stay (a job of the same search:
/// values are from `root`'s player's view, the same for every job of a search), otherwise it
/// starts empty, as a single-threaded search's does. Budgets are `cfg`'s.
///
/// Errors: an invalid configuration, a root where no player is to move, an illegal move.
pub fn search_move<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    cfg: &SearchConfig,
    mv: G::Move,
    depth: u32,
    lo: f64,
    hi: f64,
    null_window: bool,
    keep: bool,
) -> Result<MoveSearch<G::Move>, Error> {
    let cfg = &SearchConfig {
        threads: 1,
        ..cfg.clone()
    };
    cfg.validate()?;
    if !(1..=64).contains(&depth) || lo.is_nan() || hi.is_nan() || lo >= hi {
        return Err(Error::bad_option(
            "job",
            format!("depth {depth}, window {lo}..{hi}"),
            "a depth from 1 to 64 and a window whose lower end is below its upper end",
        ));
    }
    let Turn::Player(root_player) = root.turn() else {
        return Err(Error::NotNow("no player is to move at the root".into()));
    };
    let mut child = root.clone();
    child
        .play(mv)
        .map_err(|_| Error::bad_option("move", root.format_move(mv), "a legal move at the root"))?;
    if cfg.record_tree {
        let rec = Arena::take(cfg.node_cap, cfg.tree_max_bytes);
        let job = (mv, depth, lo, hi, null_window, keep);
        move_job(root, &child, eval, cfg, job, root_player, rec)
    } else {
        let job = (mv, depth, lo, hi, null_window, keep);
        move_job(root, &child, eval, cfg, job, root_player, NoRecorder)
    }
}

fn move_job<G: Game, E: Evaluator<G>, R: Restart<G>>(
    root: &G,
    child: &G,
    eval: &E,
    cfg: &SearchConfig,
    (mv, depth, lo, hi, null_window, keep): (G::Move, u32, f64, f64, bool, bool),
    root_player: PlayerId,
    rec: R,
) -> Result<MoveSearch<G::Move>, Error> {
    let tt = cfg
        .uses_tt()
        .then(|| Tt::Local(Table::take(cfg.tt_bits, keep, root_player)));
    let hooks = Hooks::default();
    let mut s = Searcher::new(root, eval, cfg, hooks, root_player, rec, tt, now_ms());
    s.depth = depth;
    s.ensure_ply(1);
    s.root_total = 1;
    if R::ACTIVE {
        s.rec.open(None, None, NO_STAGE, &s.stage, lo, hi);
    }
    let note = if null_window {
        Note::new(Note::NULL_WINDOW, 0)
    } else {
        Note(0)
    };
    let v = s.search_child(child, mv, depth - 1, 0, lo, hi, 1.0, note);
    let mut pv = vec![mv];
    pv.extend_from_slice(&s.pv[1]);
    if R::ACTIVE {
        let bound = if v <= lo {
            Bound::Upper
        } else if v >= hi {
            Bound::Lower
        } else {
            Bound::Exact
        };
        s.rec
            .close(NodeKind::Max, Some(v), bound, NO_STAGE, &s.stage, false);
    }
    let tree = if s.aborted {
        None
    } else {
        s.rec.snapshot(root, &s.stage, &pv, eval, root_player)
    };
    if let Some(tt) = s.tt.take() {
        tt.give_back();
    }
    let out = MoveSearch {
        value: v,
        complete: !s.aborted,
        settled: s.unsettled == 0,
        nodes: s.nodes,
        leaves: s.leaves,
        tt_hits: s.tt_hits,
        pv,
        tree,
    };
    if R::ACTIVE {
        let unused = s.rec.empty();
        std::mem::replace(&mut s.rec, unused).recycle();
    }
    Ok(out)
}

/// The root's children in the order a split search starts with (best first by pre-score when
/// the configuration orders moves), after the branching limit.
pub fn split_root_moves<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    cfg: &SearchConfig,
) -> Result<Vec<G::Move>, Error> {
    let Turn::Player(root_player) = root.turn() else {
        return Err(Error::NotNow("no player is to move at the root".into()));
    };
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    if moves.is_empty() {
        return Err(Error::NotNow("the player to move has no legal move".into()));
    }
    let mut s = Searcher::new(
        root,
        eval,
        cfg,
        Hooks::default(),
        root_player,
        NoRecorder,
        None,
        now_ms(),
    );
    let (kids, searched) = s.root_children(root, &moves, cfg.depth);
    Ok(kids[..searched].iter().map(|k| k.mv).collect())
}

/// What a split search's job carries back for [`split_result`]: its principal variation and its
/// recorded tree (a root with the one searched child).
#[derive(Clone)]
pub struct SplitPayload<M> {
    /// The principal variation, the root move first.
    pub pv: Vec<M>,
    /// The recorded tree.
    pub tree: Option<Tree>,
}

/// The search result of a finished split search of `root` over `moves` (the list its plan was
/// made with): the best move (random ties and the randomness quotient as in
/// [`search`](super::search)), root moves, statistics, and, when recorded, one tree joining every
/// root move's subtree, each root child saying which worker searched it.
pub fn split_result<G: Game, E: Evaluator<G>>(
    root: &G,
    eval: &E,
    cfg: &SearchConfig,
    moves: &[G::Move],
    plan: &SplitPlan<SplitPayload<G::Move>>,
) -> Result<SearchResult<G::Move>, Error> {
    let Turn::Player(root_player) = root.turn() else {
        return Err(Error::NotNow("no player is to move at the root".into()));
    };
    let (depth_reached, mut roots) = plan.result();
    if roots.is_empty() {
        // Stopped before a single move was searched: the first in the order.
        let mv = *moves
            .first()
            .ok_or_else(|| Error::NotNow("the player to move has no legal move".into()))?;
        roots.push(SplitRoot {
            index: 0,
            value: eval.prescore(
                &{
                    let mut c = root.clone();
                    c.play_unchecked(mv);
                    c
                },
                root_player,
                &mut NoTerms,
            ),
            exact: false,
            null_window: false,
            worker: 0,
            payload: SplitPayload {
                pv: vec![mv],
                tree: None,
            },
        });
    }
    let mut rng = Rng::seeded(cfg.seed.unwrap_or_else(Rng::entropy_seed));
    let best_value = roots[0].value;
    let (k, reason) = pick_played(&mut roots, |r| (r.value, r.exact), cfg, &mut rng);
    let chosen = &roots[k];
    let mut stats = plan.stats();
    stats.depth_reached = depth_reached;
    for w in &mut stats.workers {
        w.root_moves = roots
            .iter()
            .filter(|r| r.worker == w.worker)
            .map(|r| root.format_move(moves[r.index]))
            .collect();
    }
    let mut result = SearchResult {
        best: Some(moves[chosen.index]),
        value: best_value,
        pv: chosen.payload.pv.clone(),
        rank: k + 1,
        reason,
        root_moves: roots
            .iter()
            .map(|r| RootMove {
                mv: moves[r.index],
                value: r.value,
                exact: r.exact,
            })
            .collect(),
        stats,
        tree: None,
    };
    if cfg.record_tree {
        let parts: Vec<(&Tree, bool)> = roots
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.payload.tree.as_ref().map(|t| (t, i == k)))
            .collect();
        let joined = crate::tree::graft(&parts, best_value);
        let capped = joined.capped(cfg.node_cap);
        result.stats.truncated = capped.head.stats.truncated;
        result.stats.full_levels = capped.head.stats.full_levels;
        result.tree = Some(document(root, eval, cfg, &result, capped, root_player));
    }
    Ok(result)
}
