//! The search-tree document: what the engine writes validates against the published JSON Schema,
//! reads back, and tells the truth about the search (pruned counts, PV, truncation, chance nodes);
//! documents that break the format are rejected. Also the search options that shape the tree:
//! randomness quotient, budgets, stop flag, branching limit.

#![allow(clippy::type_complexity, clippy::needless_range_loop)]

use plyscope::core::{
    Evaluator, Game, Outcome, ParseMoveError, ParsePositionError, PlayerId, TermSink, Turn,
};
use plyscope::games::tictactoe::{TicTacToe, TicTacToeEval};
use plyscope::search::{search, Algorithm, Hooks, SearchConfig};
use plyscope::tree::{Node, NodeKind, TreeDocument};
use serde_json::Value;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

mod common;

use common::tree_schema as schema;

fn assert_valid(doc: &TreeDocument) -> Value {
    let v: Value = serde_json::from_str(&doc.to_json()).unwrap();
    let validator = schema();
    let errors: Vec<String> = validator
        .iter_errors(&v)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "document breaks the schema: {errors:?}");
    let back: TreeDocument = serde_json::from_value(v.clone()).expect("the document reads back");
    assert_eq!(&back, doc, "document round-trip");
    v
}

fn walk<'a>(n: &'a Node, out: &mut Vec<&'a Node>) {
    out.push(n);
    for c in &n.children {
        walk(c, out);
    }
}

fn ttt(pos: &str) -> TicTacToe {
    TicTacToe::from_position_text("tictactoe", pos).unwrap()
}

fn recorded(
    pos: &TicTacToe,
    cfg: SearchConfig,
) -> (plyscope::search::SearchResult<u8>, TreeDocument) {
    let mut r = search(
        pos,
        &TicTacToeEval::Lines,
        &SearchConfig {
            record_tree: true,
            ..cfg
        },
        Hooks::default(),
    )
    .unwrap();
    let doc = r.tree.take().expect("a tree was asked for").to_document();
    (r, doc)
}

#[test]
fn alphabeta_tree_validates_and_accounts_for_every_node() {
    let pos = ttt("X---O---- X");
    let (r, doc) = recorded(
        &pos,
        SearchConfig {
            depth: 7,
            seed: Some(5),
            ..Default::default()
        },
    );
    assert_valid(&doc);
    let mut nodes = Vec::new();
    walk(&doc.root, &mut nodes);
    let ids: HashSet<u64> = nodes.iter().map(|n| n.id).collect();
    assert_eq!(ids.len(), nodes.len(), "ids are unique");

    let searched = nodes.iter().filter(|n| n.kind != NodeKind::Pruned).count() as u64;
    assert_eq!(
        searched,
        r.stats.nodes + 1,
        "one recorded node per visited node, plus the root"
    );
    let pruned: Vec<&&Node> = nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Pruned)
        .collect();
    assert_eq!(pruned.len() as u64, r.stats.prune_events);
    assert!(r.stats.prune_events > 0);
    assert_eq!(
        pruned.iter().map(|n| n.count.unwrap()).sum::<u64>(),
        r.stats.pruned_nodes
    );
    for p in &pruned {
        assert_eq!(p.moves.as_ref().unwrap().len() as u64, p.count.unwrap());
        let cut = p.cutoff.as_ref().expect("an alpha-beta cut says why");
        let by = cut.by.expect("the sibling that caused it is recorded");
        assert!(ids.contains(&by));
        // The cause is a sibling: find the parent holding both.
        let parent = nodes
            .iter()
            .find(|n| n.children.iter().any(|c| c.id == p.id))
            .unwrap();
        let cause = parent
            .children
            .iter()
            .find(|c| c.id == by)
            .expect("the cause is a sibling");
        assert_eq!(cause.value, cut.value);
        let (a, b) = (
            cut.alpha.unwrap_or(f64::NEG_INFINITY),
            cut.beta.unwrap_or(f64::INFINITY),
        );
        let v = cut.value.unwrap();
        match parent.kind {
            NodeKind::Max => assert!(
                v >= b,
                "a max node cuts when its value reaches beta: {v} vs {b}"
            ),
            NodeKind::Min => assert!(
                v <= a,
                "a min node cuts when its value falls to alpha: {v} vs {a}"
            ),
            k => panic!("a cut under a {k:?} node"),
        }
    }
    // Leaves carry their evaluation breakdown, whose terms add up; children carry pre-scores.
    for n in &nodes {
        if n.kind == NodeKind::Leaf {
            let e = n.eval.as_ref().expect("a leaf has its evaluation");
            let sum: f64 = e.terms.iter().map(|t| t.value).sum();
            assert!((sum - e.total).abs() < 1e-9);
            assert_eq!(Some(e.total), n.value);
        }
        if n.mv.is_some() && n.kind != NodeKind::Pruned {
            assert!(n.prescore.is_some(), "node {} has no pre-score", n.id);
        }
    }
    // The PV is marked from the root along the chosen line, and agrees with the result.
    let mut at = &doc.root;
    let mut line = Vec::new();
    while let Some(next) = at.children.iter().find(|c| c.best) {
        line.push(next.mv.clone().unwrap());
        at = next;
    }
    let pv: Vec<String> = {
        let mut p = pos.clone();
        r.pv.iter()
            .map(|&m| {
                let t = p.format_move(m);
                p.play_unchecked(m);
                t
            })
            .collect()
    };
    assert_eq!(line, pv);
    assert_eq!(doc.chosen.as_ref().unwrap().mv, pv[0]);
    assert_eq!(doc.perspective, "x");
    assert_eq!(doc.root_position.as_deref(), Some("X---O---- X"));
}

#[test]
fn minimax_and_greedy_and_random_trees_validate() {
    let pos = ttt("X---O---- X");
    for algorithm in [Algorithm::Minimax, Algorithm::Greedy, Algorithm::Random] {
        let (r, doc) = recorded(
            &pos,
            SearchConfig {
                algorithm,
                depth: 3,
                seed: Some(2),
                ..Default::default()
            },
        );
        assert_valid(&doc);
        assert_eq!(doc.algorithm, algorithm.id());
        let mut nodes = Vec::new();
        walk(&doc.root, &mut nodes);
        assert!(
            nodes.iter().all(|n| n.kind != NodeKind::Pruned),
            "{algorithm}: nothing is pruned"
        );
        assert_eq!(doc.root.children.len(), 7);
        if algorithm == Algorithm::Random {
            assert_eq!(doc.chosen.as_ref().unwrap().reason, "random");
        } else {
            assert_eq!(nodes.len() as u64, r.stats.nodes + 1);
        }
    }
}

#[test]
fn node_cap_truncates_and_counts_what_it_left_out() {
    let pos = TicTacToe::new();
    let (r, doc) = recorded(
        &pos,
        SearchConfig {
            depth: 9,
            algorithm: Algorithm::Minimax,
            node_cap: 500,
            ..Default::default()
        },
    );
    assert_valid(&doc);
    assert!(doc.stats.truncated && r.stats.truncated);
    let mut nodes = Vec::new();
    walk(&doc.root, &mut nodes);
    let real = nodes
        .iter()
        .filter(|n| !matches!(n.kind, NodeKind::Truncated | NodeKind::Pruned))
        .count();
    assert!(real <= 500, "{real} nodes under a cap of 500");
    // Levels 0 and 1 are whole (the root and its 9 moves; level 2 with the lines below it would
    // not fit), each root move keeps the line that gives its value, down to the finished game,
    // and level 2 is kept in part: each root move keeps more children than that line's first.
    assert_eq!(doc.stats.full_levels, Some(1));
    assert_eq!(
        doc.root
            .children
            .iter()
            .filter(|c| c.kind == NodeKind::Min)
            .count(),
        9
    );
    assert!(
        real > 1 + 9 + 9 * 8,
        "{real}: more than the root, its moves, and a line of 8 under each"
    );
    for c in &doc.root.children {
        let kept = c
            .children
            .iter()
            .filter(|g| g.kind != NodeKind::Truncated)
            .count();
        assert!(kept >= 2, "root move {:?} keeps {kept} children", c.mv);
    }
    let left_out: u64 = nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Truncated)
        .map(|n| n.count.unwrap())
        .sum();
    assert_eq!(
        real as u64 + left_out,
        r.stats.nodes + 1,
        "recorded plus left out is everything visited"
    );
}

#[test]
fn branching_limit_keeps_the_best_by_prescore_and_says_so() {
    let pos = TicTacToe::new();
    let (r, doc) = recorded(
        &pos,
        SearchConfig {
            depth: 3,
            branching_limit: 3,
            algorithm: Algorithm::Minimax,
            ..Default::default()
        },
    );
    assert_valid(&doc);
    assert_eq!(r.root_moves.len(), 3, "only three root moves are searched");
    let limited: Vec<&Node> = doc
        .root
        .children
        .iter()
        .filter(|c| c.kind == NodeKind::Pruned)
        .collect();
    assert_eq!(limited.len(), 1);
    assert_eq!(limited[0].reason.as_deref(), Some("branching_limit"));
    // Below the root, each node has 3 searched children and one marker for the rest.
    let child = doc
        .root
        .children
        .iter()
        .find(|c| c.kind == NodeKind::Min)
        .unwrap();
    assert_eq!(
        child
            .children
            .iter()
            .filter(|c| c.kind != NodeKind::Pruned)
            .count(),
        3
    );
    assert_eq!(
        child
            .children
            .iter()
            .find(|c| c.kind == NodeKind::Pruned)
            .unwrap()
            .count,
        Some(5)
    );
    // The kept root moves are the best by pre-score: the centre first.
    assert_eq!(doc.root.children[0].mv.as_deref(), Some("b2"));
}

#[test]
fn broken_documents_are_rejected_by_the_schema() {
    let pos = ttt("X---O---- X");
    let (_, doc) = recorded(
        &pos,
        SearchConfig {
            depth: 2,
            ..Default::default()
        },
    );
    let good = assert_valid(&doc);
    let validator = schema();
    let breakages: Vec<(&str, Box<dyn Fn(&mut Value)>)> = vec![
        ("wrong format", Box::new(|v| v["format"] = "other".into())),
        (
            "no root",
            Box::new(|v| drop(v.as_object_mut().unwrap().remove("root"))),
        ),
        (
            "unknown kind",
            Box::new(|v| v["root"]["children"][0]["kind"] = "banana".into()),
        ),
        (
            "string value",
            Box::new(|v| v["root"]["value"] = "3".into()),
        ),
        (
            "probability above 1",
            Box::new(|v| v["root"]["children"][0]["prob"] = 1.5.into()),
        ),
        (
            "pruned node without count",
            Box::new(|v| v["root"]["children"][0]["kind"] = "pruned".into()),
        ),
        (
            "negative stats",
            Box::new(|v| v["stats"]["nodes"] = (-1).into()),
        ),
        (
            "term without weight",
            Box::new(|v| {
                drop(
                    v["root"]["children"][0]["prescore"]["terms"][0]
                        .as_object_mut()
                        .unwrap()
                        .remove("weight"),
                )
            }),
        ),
        (
            "unknown node field",
            Box::new(|v| v["root"]["colour"] = "red".into()),
        ),
    ];
    for (what, f) in breakages {
        let mut bad = good.clone();
        f(&mut bad);
        assert!(
            !validator.is_valid(&bad),
            "the schema accepts a document with {what}"
        );
    }
}

/// A small game with dice, to check expectimax by hand: the player picks `safe` (+2, game over),
/// `risky` (a coin: +6 or -1, mean 2.5) or `gamble` (+9 one time in three, else -3, mean 1); after
/// the throw the player must `stop`, which ends the game.
#[derive(Debug, Clone, PartialEq)]
struct Dice {
    stage: u8,
    pick: u8,
    total: f64,
}

impl Game for Dice {
    type Move = u8;
    fn game_id(&self) -> String {
        "dice".into()
    }
    fn num_players(&self) -> usize {
        1
    }
    fn player_name(&self, _: PlayerId) -> &'static str {
        "player"
    }
    fn turn(&self) -> Turn {
        match self.stage {
            0 | 2 => Turn::Player(0),
            1 => Turn::Chance,
            _ => Turn::Terminal,
        }
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        match self.stage {
            0 => out.extend([0, 1, 2]),
            2 => out.push(30),
            _ => {}
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
        if self.stage == 1 {
            match self.pick {
                1 => out.extend([(10, 0.5), (11, 0.5)]),
                _ => out.extend([(20, 1.0 / 3.0), (21, 2.0 / 3.0)]),
            }
        }
    }
    fn play_unchecked(&mut self, m: u8) {
        match m {
            0 => {
                self.total += 2.0;
                self.stage = 3;
            }
            30 => self.stage = 3,
            1 | 2 => {
                self.pick = m;
                self.stage = 1;
            }
            10 => self.total += 6.0,
            11 => self.total -= 1.0,
            20 => self.total += 9.0,
            _ => self.total -= 3.0,
        }
        if (10..30).contains(&m) {
            self.stage = 2;
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.stage == 3).then_some(Outcome::Score(self.total))
    }
    fn zobrist(&self) -> u64 {
        self.zobrist_from_scratch()
    }
    fn zobrist_from_scratch(&self) -> u64 {
        (self.stage as u64) << 32 | (self.pick as u64) << 16 | (self.total + 100.0) as u64
    }
    fn parse_move(&self, text: &str) -> Result<u8, ParseMoveError> {
        ["safe", "risky", "gamble"]
            .iter()
            .position(|&m| m == text)
            .map(|i| i as u8)
            .ok_or(ParseMoveError::new(text, "safe, risky or gamble"))
    }
    fn format_move(&self, m: u8) -> String {
        match m {
            0 => "safe",
            1 => "risky",
            2 => "gamble",
            10 => "heads",
            11 => "tails",
            20 => "six",
            30 => "stop",
            _ => "other",
        }
        .into()
    }
    fn position_text(&self) -> String {
        format!("{} {} {}", self.stage, self.pick, self.total)
    }
    fn from_position_text(_: &str, _: &str) -> Result<Self, ParsePositionError> {
        Err(ParsePositionError::whole("not needed"))
    }
}

struct Total;
impl Evaluator<Dice> for Total {
    fn name(&self) -> &'static str {
        "total"
    }
    /// The total, overrated by 100 after a throw, so that a test can see where it stood in.
    fn evaluate<S: TermSink>(&self, pos: &Dice, _: PlayerId, sink: &mut S) -> f64 {
        let bias = if pos.stage == 2 { 100.0 } else { 0.0 };
        sink.term("total", pos.total, 1.0);
        sink.term("bias", bias, 1.0);
        pos.total + bias
    }
}

#[test]
fn expectimax_takes_the_probability_weighted_mean_and_records_chance_nodes() {
    let start = Dice {
        stage: 0,
        pick: 0,
        total: 0.0,
    };
    let cfg = SearchConfig {
        algorithm: Algorithm::Expectimax,
        depth: 3,
        record_tree: true,
        ..Default::default()
    };
    let r = search(&start, &Total, &cfg, Hooks::default()).unwrap();
    assert_eq!(start.format_move(r.best.unwrap()), "risky");
    assert!((r.value - 2.5).abs() < 1e-12);
    let values: Vec<f64> = r.root_moves.iter().map(|m| m.value).collect();
    assert!(
        (values[0] - 2.5).abs() < 1e-12
            && (values[1] - 2.0).abs() < 1e-12
            && (values[2] - 1.0).abs() < 1e-12
    );
    let doc = r.tree.unwrap().to_document();
    assert_valid(&doc);
    let gamble = doc
        .root
        .children
        .iter()
        .find(|c| c.mv.as_deref() == Some("gamble"))
        .unwrap();
    assert_eq!(gamble.kind, NodeKind::Chance);
    let probs: Vec<f64> = gamble.children.iter().map(|c| c.prob.unwrap()).collect();
    assert!((probs.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert_eq!(gamble.children[0].kind, NodeKind::Max);
    assert_eq!(gamble.children[0].children[0].kind, NodeKind::Terminal);
    // A line less likely than the cut-off is evaluated where it stands.
    let cut = SearchConfig {
        chance_cutoff: 0.4,
        record_tree: false,
        ..cfg
    };
    let r = search(&start, &Total, &cut, Hooks::default()).unwrap();
    let gamble_value = r.root_moves.iter().find(|m| m.mv == 2).unwrap().value;
    let expected = (9.0 + 100.0) / 3.0 + 2.0 / 3.0 * -3.0;
    assert!(
        (gamble_value - expected).abs() < 1e-9,
        "the 1/3 branch is evaluated statically: {gamble_value}"
    );
    let risky_value = r.root_moves.iter().find(|m| m.mv == 1).unwrap().value;
    assert!(
        (risky_value - 2.5).abs() < 1e-9,
        "lines of probability 1/2 are searched: {risky_value}"
    );
}

#[test]
fn randomness_quotient_picks_rank_k_with_probability_q_minus_1_over_q_to_the_k() {
    // Greedy over the nine opening moves; 4000 seeded runs per Q. Each rank's frequency must be
    // within 0.03 (about four standard deviations at n = 4000) of (Q-1)/Q^k; the last rank takes the rest.
    let pos = TicTacToe::new();
    for q in [2u32, 4] {
        let mut counts = [0usize; 10];
        let runs = 4000;
        for seed in 0..runs {
            let cfg = SearchConfig {
                algorithm: Algorithm::Greedy,
                randomness_quotient: q,
                seed: Some(seed),
                ..Default::default()
            };
            let r = search(&pos, &TicTacToeEval::Lines, &cfg, Hooks::default()).unwrap();
            counts[r.rank] += 1;
            if r.rank > 1 {
                assert_eq!(r.reason, "randomness");
            }
        }
        let qf = q as f64;
        for k in 1..=4 {
            let expected = (qf - 1.0) / qf.powi(k as i32);
            let got = counts[k] as f64 / runs as f64;
            assert!(
                (got - expected).abs() < 0.03,
                "Q={q} rank {k}: {got} vs {expected}"
            );
        }
    }
    // Q = 0 never leaves the best move.
    for seed in 0..50 {
        let cfg = SearchConfig {
            algorithm: Algorithm::Greedy,
            seed: Some(seed),
            ..Default::default()
        };
        assert_eq!(
            search(&pos, &TicTacToeEval::Lines, &cfg, Hooks::default())
                .unwrap()
                .rank,
            1
        );
    }
}

#[test]
fn random_ties_vary_among_equal_best_moves_only() {
    // After X takes the centre, the four corners are equally good answers for O (and better than edges).
    let pos = ttt("----X---- O");
    let mut seen = HashSet::new();
    for seed in 0..60 {
        let cfg = SearchConfig {
            algorithm: Algorithm::Greedy,
            seed: Some(seed),
            ..Default::default()
        };
        let r = search(&pos, &TicTacToeEval::Lines, &cfg, Hooks::default()).unwrap();
        seen.insert(pos.format_move(r.best.unwrap()));
    }
    let corners: HashSet<String> = ["a1", "c1", "a3", "c3"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        seen, corners,
        "O answers the centre in one of the four equal corners, each seen"
    );
}

#[test]
fn budgets_and_stop_flag_end_the_search_with_a_legal_move() {
    let pos = TicTacToe::new();
    let eval = TicTacToeEval::Lines;
    let cfg = SearchConfig {
        algorithm: Algorithm::Minimax,
        depth: 9,
        node_budget: Some(5000),
        ..Default::default()
    };
    let r = search(&pos, &eval, &cfg, Hooks::default()).unwrap();
    assert!(r.stats.nodes <= 5000 + 1, "node budget: {}", r.stats.nodes);
    assert!(r.best.is_some());
    assert!(r.stats.depth_reached < 9);

    let stop = AtomicBool::new(true);
    let cfg = SearchConfig {
        algorithm: Algorithm::Minimax,
        depth: 9,
        ..Default::default()
    };
    let r = search(
        &pos,
        &eval,
        &cfg,
        Hooks {
            stop: Some(&stop),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        r.stats.nodes <= 1024 + 1,
        "a raised stop flag is seen at the first check"
    );
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    assert!(legal.contains(&r.best.unwrap()));

    // Progress is reported while the search runs.
    let stop = AtomicBool::new(false);
    let mut reports = 0;
    let mut last_fraction = 0.0;
    let mut cb = |p: &plyscope::search::Progress| {
        reports += 1;
        last_fraction = p.fraction;
        if reports > 3 {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let cfg = SearchConfig {
        algorithm: Algorithm::Minimax,
        depth: 9,
        ..Default::default()
    };
    let hooks = Hooks {
        stop: Some(&stop),
        progress: Some(&mut cb),
        progress_every_ms: 0.001,
        ..Default::default()
    };
    let r = search(&pos, &eval, &cfg, hooks).unwrap();
    assert!(reports >= 4 && (0.0..=1.0).contains(&last_fraction));
    assert!(
        r.stats.nodes < 549_945,
        "the callback's stop ended the search early"
    );
}

#[test]
fn bad_options_are_refused_with_the_field_named() {
    let e = SearchConfig::from_json(r#"{"depth": 0}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("depth") && e.contains("1 to 64"), "{e}");
    let e = SearchConfig::from_json(r#"{"deepth": 3}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("deepth"), "{e}");
    let e = SearchConfig::from_json(r#"{"algorithm": "magic"}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("magic"), "{e}");
    let ok = SearchConfig::from_json(r#"{"depth": 3, "algorithm": "minimax"}"#).unwrap();
    assert_eq!((ok.depth, ok.algorithm), (3, Algorithm::Minimax));
    let e = search(
        &ttt("XXX-OO--- O"),
        &TicTacToeEval::Lines,
        &SearchConfig::default(),
        Hooks::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("game is over"), "{e}");
}

#[test]
fn iterative_deepening_reports_each_completed_iteration_tree() {
    let pos = ttt("X---O---- X");
    let mut seen = Vec::new();
    let mut cb = |tree: &plyscope::tree::Tree| {
        let doc = tree.to_document();
        seen.push((
            doc.stats.depth_reached,
            doc.root.size(),
            doc.chosen.clone().unwrap().mv,
        ))
    };
    let cfg = SearchConfig {
        depth: 5,
        iterative_deepening: true,
        record_tree: true,
        seed: Some(1),
        ..Default::default()
    };
    let r = search(
        &pos,
        &TicTacToeEval::Lines,
        &cfg,
        Hooks {
            iteration: Some(&mut cb),
            ..Default::default()
        },
    )
    .unwrap();
    let depths: Vec<u32> = seen.iter().map(|s| s.0).collect();
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert!(
        seen.windows(2).all(|w| w[0].1 < w[1].1),
        "deeper iterations record bigger trees: {seen:?}"
    );
    let last = r.tree.unwrap().to_document();
    assert_eq!(
        seen[4].1,
        last.root.size(),
        "the final document is the last iteration's tree"
    );
    assert_eq!(last.stats.depth_reached, 5);
}

#[test]
fn deepening_stops_once_every_line_ends_in_a_finished_game() {
    // From the empty board, depth 9 reaches the end of every game: deeper iterations are pointless.
    let cfg = SearchConfig {
        depth: 64,
        time_ms: Some(60_000),
        seed: Some(1),
        ..SearchConfig::plain()
    };
    let r = search(
        &TicTacToe::new(),
        &TicTacToeEval::Lines,
        &cfg,
        Hooks::default(),
    )
    .unwrap();
    assert_eq!(r.stats.depth_reached, 9);
    assert_eq!(r.value, 0.0);
    // With late-move reductions a reduced line stops short of the end, so deepening goes on until
    // every line, reduced ones too, reaches a finished game; the table's settled entries carry
    // that across transpositions. It still stops long before the depth cap.
    let r = search(
        &TicTacToe::new(),
        &TicTacToeEval::Lines,
        &SearchConfig {
            depth: 64,
            time_ms: Some(60_000),
            seed: Some(1),
            ..SearchConfig::default()
        },
        Hooks::default(),
    )
    .unwrap();
    assert!(
        (9..=16).contains(&r.stats.depth_reached),
        "stopped at depth {}",
        r.stats.depth_reached
    );
    assert_eq!(r.value, 0.0);
}

#[test]
fn a_kept_transposition_table_never_answers_from_an_earlier_search() {
    // Searches reuse the last table on the thread; its old entries must be stale. Searching the
    // same position twice (another search between) must visit exactly the same nodes.
    let cfg = SearchConfig {
        depth: 8,
        transposition_table: Some(true),
        tt_bits: 12,
        seed: Some(1),
        ..Default::default()
    };
    let eval = TicTacToeEval::Lines;
    let a = ttt("X-------- O");
    let first = search(&a, &eval, &cfg, Hooks::default()).unwrap();
    assert!(first.stats.tt_hits > 0, "the table is used within a search");
    search(&ttt("----X---- O"), &eval, &cfg, Hooks::default()).unwrap();
    let again = search(&a, &eval, &cfg, Hooks::default()).unwrap();
    assert_eq!(
        (again.stats.nodes, again.stats.tt_hits),
        (first.stats.nodes, first.stats.tt_hits)
    );
    assert_eq!(again.value, first.value);
}

/// Progress reports say when silence may follow (`steady`): a running search's reports are steady;
/// the report of a completed iteration is not when a tree is recorded (the tree is built next,
/// silently), and the report of a stopped search is not. The page's worker bridge calls silence
/// after a steady report a dead worker, so a wrong promise would restart a healthy engine.
#[test]
fn progress_reports_promise_another_only_when_one_follows() {
    let pos = ttt("--------- X");
    let eval = TicTacToeEval::Lines;
    for record_tree in [false, true] {
        let mut reports: Vec<(bool, usize, usize)> = Vec::new();
        let mut cb =
            |p: &plyscope::search::Progress| reports.push((p.steady, p.root_done, p.root_total));
        let cfg = SearchConfig {
            algorithm: Algorithm::Minimax,
            depth: 9,
            iterative_deepening: true,
            record_tree,
            node_cap: 2_000_000,
            ..Default::default()
        };
        let hooks = Hooks {
            progress: Some(&mut cb),
            progress_every_ms: 0.001,
            ..Default::default()
        };
        search(&pos, &eval, &cfg, hooks).unwrap();
        // Reports during an iteration (not all root moves done) are steady.
        let during: Vec<_> = reports.iter().filter(|r| r.1 < r.2).collect();
        assert!(
            during.len() > 10,
            "{} reports during iterations",
            during.len()
        );
        assert!(
            during.iter().all(|r| r.0),
            "a running search's reports are steady"
        );
        // Each completed iteration is reported: steady only when no tree is built after it.
        let done: Vec<_> = reports.iter().filter(|r| r.1 == r.2 && r.2 > 0).collect();
        assert!(done.len() >= 9, "{} iteration reports", done.len());
        assert!(
            done.iter().all(|r| r.0 == !record_tree),
            "record_tree {record_tree}: {done:?}"
        );
        // With a tree, the last report before the search returns promises nothing.
        if record_tree {
            assert!(!reports.last().unwrap().0);
        }
    }
    // A search stopped by its node budget says so in a report that is not steady, and it is the last
    // (without a tree, the completed iterations' reports before it are steady).
    let mut reports: Vec<bool> = Vec::new();
    let mut cb = |p: &plyscope::search::Progress| reports.push(p.steady);
    let cfg = SearchConfig {
        algorithm: Algorithm::Minimax,
        depth: 9,
        node_budget: Some(20_000),
        ..Default::default()
    };
    let hooks = Hooks {
        progress: Some(&mut cb),
        progress_every_ms: 1e9,
        ..Default::default()
    };
    let r = search(&pos, &eval, &cfg, hooks).unwrap();
    assert!(r.stats.nodes < 549_945, "stopped by the budget");
    assert_eq!(reports.last(), Some(&false), "{reports:?}");
}

/// The silent stretch after a search that records its tree (building it) pulses: a hook installed
/// with `tree::pulse::with_hook` hears at least the stretch's start, after the last progress report
/// (the page's worker sends these pulses as steady reports, so that a worker killed while it builds
/// a tree is noticed by the silence that follows). A search that records nothing never pulses.
#[test]
fn building_a_recorded_tree_pulses_after_the_last_report() {
    use std::cell::RefCell;
    use std::rc::Rc;
    let pos = ttt("--------- X");
    let eval = TicTacToeEval::Lines;
    for record_tree in [false, true] {
        // Events in order: 'r' a progress report, 'p' a pulse.
        let events = Rc::new(RefCell::new(String::new()));
        let e = events.clone();
        let mut cb = |_: &plyscope::search::Progress| events.borrow_mut().push('r');
        let cfg = SearchConfig {
            algorithm: Algorithm::Minimax,
            depth: 9,
            iterative_deepening: false,
            record_tree,
            node_cap: 2_000_000,
            ..Default::default()
        };
        let hooks = Hooks {
            progress: Some(&mut cb),
            progress_every_ms: 1e9,
            ..Default::default()
        };
        let r = plyscope::tree::pulse::with_hook(
            move || e.borrow_mut().push('p'),
            || search(&pos, &eval, &cfg, hooks).unwrap(),
        );
        let events = events.borrow();
        if record_tree {
            assert!(r.tree.is_some());
            let after = events.rsplit('r').next().unwrap_or("");
            assert!(
                after.starts_with('p'),
                "a pulse follows the last report: {events}"
            );
        } else {
            assert!(!events.contains('p'), "no tree, no pulse: {events}");
        }
    }
}
