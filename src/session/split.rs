//! The session's side of a split search (the page's parallel search over workers that share no
//! memory; see `src/search/engine/split.rs`): a coordinator ([`SplitRun`]) that hands out jobs
//! and joins their results, and the job a worker runs ([`AnySession::search_move`]), both in text
//! form so that the page's JavaScript only moves texts, numbers and tree documents around.

use super::{exact, report_of, SearchReport};
use crate::core::{Error, Turn};
use crate::games::Playable;
use crate::search::{
    search_move, split_result, split_root_moves, Algorithm, Progress, SearchConfig, SplitOutcome,
    SplitPayload, SplitPlan,
};
use crate::tree::Tree;
use serde::{Deserialize, Serialize};

/// A job for a worker, in text form: search root move `move` to `depth` in `lo..hi`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobSpec {
    /// The job's number (its report names it).
    pub id: u64,
    /// The root move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The iteration's depth (the move is searched to `depth - 1` below it).
    pub depth: u32,
    /// The window's lower end; `None` for minus infinity.
    pub lo: Option<f64>,
    /// The window's upper end; `None` for plus infinity.
    pub hi: Option<f64>,
    /// Whether it is principal variation search's null-window test.
    pub null_window: bool,
    /// Milliseconds left of the search's time budget.
    pub time_ms: Option<u64>,
    /// Nodes left of the search's node budget.
    pub node_budget: Option<u64>,
    /// The search's number: a worker keeps its transposition table between jobs of the same
    /// search, and starts a new search's first job with an empty one.
    #[serde(default)]
    pub search: u64,
}

/// What a worker found for a [`JobSpec`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct JobReport {
    /// The job's number.
    pub id: u64,
    /// The move's value from the root player's view (a bound outside the window); `None` when
    /// the job did not finish.
    pub value: Option<f64>,
    /// Whether the job finished within its budget.
    pub complete: bool,
    /// Whether every line ended in a finished game.
    pub settled: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Leaves evaluated.
    pub leaves: u64,
    /// Transposition-table hits.
    pub tt_hits: u64,
    /// The principal variation, the root move first, in the game's notation.
    pub pv: Vec<String>,
    /// The recorded tree (a root with the one searched child) as a compact (v2) document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<String>,
}

/// A split search in progress, held by the coordinator (the page's engine worker).
pub trait SplitRun {
    /// The next job for an idle worker; `None`: nothing to hand out now (or any more).
    fn next_job(&mut self) -> Option<JobSpec>;
    /// Takes the report of a job that `worker` ran. A report of an unknown job, or one whose
    /// moves do not read, is refused (the plan is unchanged).
    fn done(&mut self, worker: u32, report: JobReport) -> Result<(), Error>;
    /// Whether the search is over (no job will be handed out and none still counts).
    fn over(&self) -> bool;
    /// How far the search has got.
    fn progress(&self) -> Progress;
    /// The search's report, with one tree joining every root move's subtree when recorded.
    fn finish(&self) -> Result<SearchReport, Error>;
}

/// Whether a split search applies to `cfg` at `pos`: alpha-beta or minimax at a player's turn,
/// no opening book move and no exact endgame solve (those run as one search).
pub(super) fn applies<G: Playable>(pos: &G, cfg: &SearchConfig) -> bool {
    matches!(cfg.algorithm, Algorithm::Alphabeta | Algorithm::Minimax)
        && matches!(pos.turn(), Turn::Player(_))
        && cfg.randomness_quotient <= 1
        && pos.num_players() == 2
        && !exact::wanted(pos, cfg)
}

struct Split<G: Playable> {
    pos: G,
    eval: G::Eval,
    cfg: SearchConfig,
    moves: Vec<G::Move>,
    plan: SplitPlan<SplitPayload<G::Move>>,
    viewer: String,
}

/// Starts a split search of `pos` for `workers` workers.
pub(super) fn start<G: Playable + 'static>(
    pos: &G,
    cfg: &SearchConfig,
    workers: u32,
    viewer: String,
) -> Result<Box<dyn SplitRun>, Error> {
    let cfg = SearchConfig {
        threads: 1,
        iterative_deepening: true,
        ..cfg.clone()
    };
    cfg.validate()?;
    let eval = pos.evaluator_for(&cfg.evaluator)?;
    let moves = split_root_moves(pos, &eval, &cfg)?;
    let plan = SplitPlan::new(moves.len(), &cfg, workers.max(1));
    Ok(Box::new(Split {
        pos: pos.clone(),
        eval,
        cfg,
        moves,
        plan,
        viewer,
    }))
}

impl<G: Playable> SplitRun for Split<G> {
    fn next_job(&mut self) -> Option<JobSpec> {
        let j = self.plan.next_job()?;
        Some(JobSpec {
            id: j.id,
            mv: self.pos.format_move(self.moves[j.index]),
            depth: j.depth,
            lo: j.lo.is_finite().then_some(j.lo),
            hi: j.hi.is_finite().then_some(j.hi),
            null_window: j.null_window,
            time_ms: j.time_ms,
            node_budget: j.node_budget,
            search: j.search,
        })
    }

    fn done(&mut self, worker: u32, r: JobReport) -> Result<(), Error> {
        let mut pv = Vec::with_capacity(r.pv.len());
        let mut p = self.pos.clone();
        for text in &r.pv {
            let m = p.parse_move(text)?;
            p.play(m).map_err(|_| {
                Error::bad_option("principal variation", text, "a legal move in the line")
            })?;
            pv.push(m);
        }
        let tree = match &r.tree {
            Some(text) => Some(Tree::from_compact_json(text).map_err(|e| {
                Error::bad_option("job tree", "(document)", format!("a compact tree ({e})"))
            })?),
            None => None,
        };
        self.plan.done(SplitOutcome {
            id: r.id,
            worker,
            value: r.value.unwrap_or(f64::NAN),
            complete: r.complete && r.value.is_some(),
            settled: r.settled,
            nodes: r.nodes,
            leaves: r.leaves,
            tt_hits: r.tt_hits,
            payload: SplitPayload { pv, tree },
        })
    }

    fn over(&self) -> bool {
        self.plan.over()
    }

    fn progress(&self) -> Progress {
        let (done, total) = self.plan.root_done();
        let elapsed = self.plan.elapsed_ms();
        let max = self.cfg.depth.max(1) as f64;
        let fraction = match self.cfg.time_ms {
            Some(t) => (elapsed / t as f64).clamp(0.0, 1.0),
            None => ((self.plan.depth() as f64 - 1.0 + done as f64 / total.max(1) as f64) / max)
                .clamp(0.0, 1.0),
        };
        Progress {
            nodes: self.plan.nodes(),
            depth: self.plan.depth(),
            root_done: done,
            root_total: total,
            fraction,
            elapsed_ms: elapsed,
            steady: !self.plan.over(),
        }
    }

    fn finish(&self) -> Result<SearchReport, Error> {
        let r = split_result(&self.pos, &self.eval, &self.cfg, &self.moves, &self.plan)?;
        report_of(&self.pos, &self.eval, &self.cfg, r, self.viewer.clone())
    }
}

thread_local! {
    /// The search of the last job this thread ran (see [`JobSpec::search`]).
    static LAST_SEARCH: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
}

/// Runs a job at `pos` (a worker's side of a split search).
pub(super) fn run_job<G: Playable>(
    pos: &G,
    cfg: &SearchConfig,
    job: &JobSpec,
) -> Result<JobReport, Error> {
    let eval = pos.evaluator_for(&cfg.evaluator)?;
    let mv = pos.parse_move(&job.mv)?;
    let cfg = SearchConfig {
        time_ms: job.time_ms,
        node_budget: job.node_budget,
        ..cfg.clone()
    };
    let lo = job.lo.unwrap_or(f64::NEG_INFINITY);
    let hi = job.hi.unwrap_or(f64::INFINITY);
    let keep = LAST_SEARCH.with(|last| last.replace(job.search) == job.search);
    let r = search_move(
        pos,
        &eval,
        &cfg,
        mv,
        job.depth,
        lo,
        hi,
        job.null_window,
        keep,
    )?;
    let mut pv = Vec::with_capacity(r.pv.len());
    let mut p = pos.clone();
    for &m in &r.pv {
        pv.push(p.format_move(m));
        if p.play(m).is_err() {
            break;
        }
    }
    Ok(JobReport {
        id: job.id,
        value: r.complete.then_some(r.value),
        complete: r.complete,
        settled: r.settled,
        nodes: r.nodes,
        leaves: r.leaves,
        tt_hits: r.tt_hits,
        pv,
        tree: r.tree.map(|t| t.to_compact_json()),
    })
}
