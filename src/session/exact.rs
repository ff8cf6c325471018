//! The exact endgame: when the game has a solver for the position and what is left is small enough
//! (`SearchConfig::exact_endgame`), the move is solved instead of searched, within the search's
//! budget (stop flag, time, nodes). The report and the tree say that the solver decided: the
//! reason `solver`, the stat `solver_nodes`, and a tree of every root move with its exact value
//! (or the bound that proved it no better) and the best line to the end of the game.

use super::{RootMoveReport, SearchReport};
use crate::core::{now_ms, Evaluator, Turn};
use crate::games::{Playable, Solved};
use crate::search::{Algorithm, Hooks, Progress, SearchConfig};
use crate::tree::{Bound, Chosen, Node, NodeKind, Stats, Tree, TreeDocument};
use std::sync::atomic::Ordering;

/// Share of the time budget the solver may use before the search takes over.
pub const SOLVER_TIME_SHARE: f64 = 0.6;

/// What an attempt to solve left for the search: the time it used.
pub struct Attempt {
    /// Milliseconds the solver ran.
    pub ms: f64,
}

/// Whether `cfg` asks for the solver on `pos`.
pub fn wanted<G: Playable>(pos: &G, cfg: &SearchConfig) -> bool {
    matches!(cfg.algorithm, Algorithm::Alphabeta | Algorithm::Minimax)
        && cfg.randomness_quotient <= 1
        && cfg.exact_endgame > 0
        && matches!(pos.turn(), Turn::Player(_))
        && pos.exact_size().is_some_and(|n| n <= cfg.exact_endgame)
}

/// Solves `pos` within the budget of `cfg` and `hooks`: the report, or what the attempt cost
/// when the budget ran out first.
pub fn solve<G: Playable>(
    pos: &G,
    eval: &G::Eval,
    cfg: &SearchConfig,
    hooks: &mut Hooks<'_>,
) -> Result<SearchReport, Attempt> {
    let start = now_ms();
    let deadline = cfg
        .time_ms
        .map(|t| start + (t as f64 * SOLVER_TIME_SHARE).max(1.0));
    let max_nodes = cfg.node_budget.map(|n| (n / 2).max(1));
    let size = pos.exact_size().unwrap_or(0);
    let root_total = {
        let mut m = Vec::new();
        pos.legal_moves(&mut m);
        m.len()
    };
    let stop = hooks.stop;
    let progress = &mut hooks.progress;
    let every = if hooks.progress_every_ms > 0.0 {
        hooks.progress_every_ms
    } else {
        100.0
    };
    let mut last_report = start;
    let mut keep_going = |nodes: u64| {
        let now = now_ms();
        if let Some(p) = progress.as_mut() {
            if now - last_report >= every {
                last_report = now;
                let elapsed = now - start;
                p(&Progress {
                    nodes,
                    depth: size,
                    root_done: 0,
                    root_total,
                    fraction: cfg.time_ms.map_or(0.0, |t| (elapsed / t as f64).min(1.0)),
                    elapsed_ms: elapsed,
                    // What follows the solver (its report, or the heuristic search when it runs
                    // out of budget) makes no promise: a dead worker is noticed by its lock.
                    steady: false,
                });
            }
        }
        !(stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || deadline.is_some_and(|d| now >= d)
            || max_nodes.is_some_and(|m| nodes >= m))
    };
    let solved = pos.solve_exact(&mut keep_going);
    let ms = now_ms() - start;
    match solved {
        Some(s) if !s.moves.is_empty() => Ok(report(pos, eval, cfg, s, size, ms)),
        _ => Err(Attempt { ms }),
    }
}

fn report<G: Playable>(
    pos: &G,
    eval: &G::Eval,
    cfg: &SearchConfig,
    s: Solved<G::Move>,
    size: u32,
    ms: f64,
) -> SearchReport {
    let best = s.moves[0];
    let stats = Stats {
        nodes: s.nodes,
        time_ms: ms,
        depth_reached: size,
        solver_nodes: Some(s.nodes),
        ..Stats::default()
    };
    let mut pv = Vec::new();
    let mut p = pos.clone();
    for &m in &s.line {
        pv.push(p.format_move(m));
        if p.play(m).is_err() {
            break;
        }
    }
    let tree = cfg
        .record_tree
        .then(|| tree(pos, eval, cfg, &s, &stats, &pv));
    SearchReport {
        mv: pos.format_move(best.mv),
        value: best.value,
        value_text: eval.describe(best.value),
        viewer: match pos.turn() {
            Turn::Player(p) => pos.player_name(p).to_string(),
            _ => String::new(),
        },
        pv,
        rank: 1,
        reason: "solver".to_string(),
        root_moves: s
            .moves
            .iter()
            .map(|m| RootMoveReport {
                text: pos.format_move(m.mv),
                value: m.value,
                exact: m.exact,
                value_text: eval.describe(m.value),
            })
            .collect(),
        stats,
        tree,
    }
}

/// The tree of a solved position: the root, every move with its value, and under the best move
/// the best line to the end of the game.
fn tree<G: Playable>(
    pos: &G,
    eval: &G::Eval,
    cfg: &SearchConfig,
    s: &Solved<G::Move>,
    stats: &Stats,
    pv: &[String],
) -> Tree {
    let best = s.moves[0];
    let me = match pos.turn() {
        Turn::Player(p) => p,
        _ => 0,
    };
    let mut next_id = 0u64;
    let mut id = || {
        next_id += 1;
        next_id - 1
    };
    let mut root = Node::new(id(), NodeKind::Max);
    root.value = Some(best.value);
    root.bound = Some(Bound::Exact);
    root.best = true;
    for (i, m) in s.moves.iter().enumerate() {
        let mut after = pos.clone();
        after.play_unchecked(m.mv);
        let kind = |g: &G| match g.turn() {
            Turn::Terminal => NodeKind::Terminal,
            Turn::Player(p) if p == me => NodeKind::Max,
            _ => NodeKind::Min,
        };
        let mut child = Node::new(id(), if i == 0 { kind(&after) } else { NodeKind::Leaf });
        child.mv = Some(pos.format_move(m.mv));
        child.value = Some(m.value);
        child.bound = Some(if m.exact { Bound::Exact } else { Bound::Upper });
        if i == 0 {
            // The best line below the best move: every position on it has the same value.
            child.best = true;
            let mut chain: Vec<Node> = Vec::new();
            let mut g = after.clone();
            for text in pv.iter().skip(1) {
                let Ok(mv) = g.parse_move(text) else { break };
                if g.play(mv).is_err() {
                    break;
                }
                let mut n = Node::new(id(), kind(&g));
                n.mv = Some(text.clone());
                n.value = Some(best.value);
                n.bound = Some(Bound::Exact);
                n.best = true;
                chain.push(n);
            }
            // A line that stops short of the end (the table did not keep it) ends on a leaf.
            if let Some(last) = chain.last_mut() {
                if last.kind != NodeKind::Terminal {
                    last.kind = NodeKind::Leaf;
                }
            } else if child.kind != NodeKind::Terminal {
                child.kind = NodeKind::Leaf;
            }
            let mut tail: Option<Node> = None;
            for mut n in chain.into_iter().rev() {
                if let Some(t) = tail.take() {
                    n.children.push(t);
                }
                tail = Some(n);
            }
            child.children.extend(tail);
        }
        root.children.push(child);
    }
    let mut settings = match serde_json::to_value(cfg) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    settings.insert(
        "evaluator".into(),
        serde_json::Value::String(eval.name().to_string()),
    );
    settings.retain(|_, v| !v.is_null());
    let doc = TreeDocument {
        format: crate::tree::FORMAT_NAME.to_string(),
        version: crate::tree::FORMAT_VERSION,
        game: pos.game_id(),
        root_position: Some(pos.position_text()),
        engine: format!("plyscope {}", env!("CARGO_PKG_VERSION")),
        algorithm: cfg.algorithm.id().to_string(),
        evaluator: Some(eval.name().to_string()),
        perspective: pos.player_name(me).to_string(),
        values: Some(eval.scale()),
        settings,
        stats: stats.clone(),
        chosen: Some(Chosen {
            mv: pos.format_move(best.mv),
            rank: 1,
            reason: "solver".to_string(),
            value_text: Some(eval.describe(best.value).text),
        }),
        root,
    };
    Tree::from_document(&doc)
}
