//! Whole trees within a budget: what a capped tree keeps (every root move, the principal
//! variations, then whole levels), that its counts add up, the compact JSON (version 2) and its
//! round trips, and the size of a record.

use plyscope::core::Game;
use plyscope::games::ataxx::Ataxx;
use plyscope::games::reversi::Reversi;
use plyscope::games::threes::Threes;
use plyscope::games::tictactoe::TicTacToe;
use plyscope::games::Playable;
use plyscope::search::{search, Algorithm, Hooks, SearchConfig};
use plyscope::tree::{Arena, NodeKind, Tree, TreeDocument, NONE};

mod common;

/// The game page's default tree budget (www: the tree panel's setting).
const PAGE_BUDGET: usize = 250_000;

fn run<G: Playable>(
    pos: &G,
    eval: &str,
    cfg: SearchConfig,
) -> (plyscope::search::SearchResult<G::Move>, Tree) {
    let e = G::evaluator(eval).unwrap();
    let mut r = search(
        pos,
        &e,
        &SearchConfig {
            record_tree: true,
            seed: Some(3),
            ..cfg
        },
        Hooks::default(),
    )
    .unwrap();
    let t = r.tree.take().unwrap();
    (r, t)
}

fn children(t: &Tree, i: usize) -> Vec<usize> {
    let (first, next) = t.links();
    let mut out = Vec::new();
    let mut c = first[i];
    while c != NONE {
        out.push(c as usize);
        c = next[c as usize];
    }
    out
}

/// Follows, from node `i`, the child that gives each node its value (the likeliest outcome under
/// a chance node) and returns the node where the line ends.
fn value_line_end(t: &Tree, i: usize) -> usize {
    let (first, next) = t.links();
    let mut at = i;
    loop {
        let n = &t.nodes[at];
        let mut c = first[at];
        let mut pick = None;
        let mut likeliest = -1.0;
        while c != NONE {
            let x = &t.nodes[c as usize];
            if x.kind != NodeKind::Pruned && x.same_as.is_none() {
                match n.kind {
                    NodeKind::Chance => {
                        if x.prob.unwrap() > likeliest {
                            likeliest = x.prob.unwrap();
                            pick = Some(c as usize);
                        }
                    }
                    _ => {
                        if x.value == n.value && pick.is_none() {
                            pick = Some(c as usize);
                        }
                    }
                }
            }
            c = next[c as usize];
        }
        match pick {
            Some(p) => at = p,
            None => return at,
        }
    }
}

fn depth_of(t: &Tree) -> Vec<u32> {
    let mut d = vec![0u32; t.len()];
    for i in 1..t.len() {
        d[i] = d[t.nodes[i].parent as usize] + 1;
    }
    d
}

/// Every root move is in the tree with a value, and its principal variation reaches a leaf or a
/// finished game.
fn assert_root_moves_and_lines(t: &Tree, root_moves: usize) {
    let kids: Vec<usize> = children(t, 0)
        .into_iter()
        .filter(|&c| t.nodes[c].kind != NodeKind::Pruned)
        .collect();
    assert_eq!(kids.len(), root_moves, "every root move is kept");
    for &k in &kids {
        let n = &t.nodes[k];
        assert!(
            n.value.is_some(),
            "root move {} has a value",
            t.move_text(n.mv)
        );
        assert!(n.bound.is_some());
        let end = value_line_end(t, k);
        let e = &t.nodes[end];
        assert!(
            matches!(e.kind, NodeKind::Leaf | NodeKind::Terminal) || e.tt,
            "the line of {} ends at a {:?} node with {} unrecorded below",
            t.move_text(n.mv),
            e.kind,
            e.unrecorded
        );
    }
}

/// The counts of a capped tree add up, and no kept node lacks its parent.
fn assert_capped_invariants(t: &Tree, searched_nodes: u64) {
    assert_eq!(
        t.searched(),
        searched_nodes + 1,
        "kept nodes and unrecorded counts add up to the search's nodes (and the root)"
    );
    for (i, n) in t.nodes.iter().enumerate().skip(1) {
        assert!((n.parent as usize) < i, "node {i}'s parent comes before it");
        assert_ne!(t.nodes[n.parent as usize].kind, NodeKind::Pruned);
    }
    let full = t
        .head
        .stats
        .full_levels
        .expect("a capped tree says which levels are whole");
    assert!(full >= 1);
    let depth = depth_of(t);
    for (i, n) in t.nodes.iter().enumerate() {
        if depth[i] < full {
            assert_eq!(
                n.unrecorded, 0,
                "node {i} above the whole levels lost children"
            );
        }
    }
}

fn reversi_midgame() -> Reversi {
    let mut p = Reversi::new(8).unwrap();
    for m in "f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6 b4".split_whitespace() {
        let mv = p.parse_move(m).unwrap();
        p.play(mv).unwrap();
    }
    p
}

#[test]
fn reversi_depth_8_with_the_page_budget_keeps_every_root_move_and_the_chosen_line() {
    let pos = Reversi::new(8).unwrap();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    for cap in [PAGE_BUDGET, 4_000] {
        let (r, t) = run(
            &pos,
            "",
            SearchConfig {
                depth: 8,
                node_cap: cap,
                ..Default::default()
            },
        );
        assert!(
            t.len() <= cap + 200,
            "{} nodes kept under a cap of {cap}",
            t.len()
        );
        assert_root_moves_and_lines(&t, moves.len());
        // The chosen move is marked, and its marked line reaches a leaf.
        let chosen = r.best.map(|m| pos.format_move(m)).unwrap();
        let mut at = 0;
        let mut line = Vec::new();
        while let Some(&c) = children(&t, at).iter().find(|&&c| t.nodes[c].best) {
            line.push(t.move_text(t.nodes[c].mv).to_string());
            at = c;
        }
        assert_eq!(line.first(), Some(&chosen));
        assert!(
            matches!(t.nodes[at].kind, NodeKind::Leaf | NodeKind::Terminal),
            "the chosen line ends at a {:?} after {line:?}",
            t.nodes[at].kind
        );
        assert_eq!(
            line.len(),
            8,
            "the principal variation is 8 plies: {line:?}"
        );
        if t.head.stats.truncated {
            assert_capped_invariants(&t, r.stats.nodes);
        } else {
            assert_eq!(t.searched(), r.stats.nodes + 1);
        }
    }
}

#[test]
fn threes_depth_4_with_the_page_budget_keeps_every_root_move_and_its_line() {
    let pos = Threes::from_position_text(
        "",
        "3 . 1 . / . 2 . 3 / 1 . 2 . / 3 . . 2 | deck 1 1 0 | next 1",
    )
    .unwrap();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    for cap in [PAGE_BUDGET, 5_000] {
        let (r, t) = run(
            &pos,
            "",
            SearchConfig {
                algorithm: Algorithm::Expectimax,
                depth: 4,
                node_cap: cap,
                ..Default::default()
            },
        );
        assert_root_moves_and_lines(&t, moves.len());
        let chosen = children(&t, 0)
            .into_iter()
            .find(|&c| t.nodes[c].best)
            .expect("the chosen move is marked");
        assert_eq!(
            t.move_text(t.nodes[chosen].mv),
            pos.format_move(r.best.unwrap())
        );
        if t.head.stats.truncated {
            assert_capped_invariants(&t, r.stats.nodes);
        } else {
            assert_eq!(t.searched(), r.stats.nodes + 1);
        }
    }
}

#[test]
fn a_capped_tree_keeps_whole_levels_not_a_depth_first_prefix() {
    let pos = reversi_midgame();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let (full_r, full) = run(
        &pos,
        "",
        SearchConfig {
            depth: 6,
            ..Default::default()
        },
    );
    assert!(!full.head.stats.truncated);
    let (r, t) = run(
        &pos,
        "",
        SearchConfig {
            depth: 6,
            node_cap: full.len() / 8,
            ..Default::default()
        },
    );
    assert_eq!(
        r.stats.nodes, full_r.stats.nodes,
        "recording does not change the search"
    );
    assert!(t.head.stats.truncated);
    assert_capped_invariants(&t, r.stats.nodes);
    assert_root_moves_and_lines(&t, moves.len());
    // The whole levels are exactly the uncapped tree's first levels.
    let level = t.head.stats.full_levels.unwrap();
    let (dt, df) = (depth_of(&t), depth_of(&full));
    for l in 0..=level {
        let a = dt.iter().filter(|&&d| d == l).count();
        let b = df.iter().filter(|&&d| d == l).count();
        assert_eq!(a, b, "level {l} is whole");
    }
    // Cutting the uncapped tree afterwards keeps the same levels and adds up the same way.
    let cut = full.capped(full.len() / 8);
    assert_capped_invariants(&cut, full_r.stats.nodes);
    assert_root_moves_and_lines(&cut, moves.len());
}

fn schema_errors(text: &str) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    common::tree_schema()
        .iter_errors(&v)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

fn round_trips(t: &Tree) {
    let v2 = t.to_compact_json();
    assert!(schema_errors(&v2).is_empty(), "{:?}", schema_errors(&v2));
    let back = Tree::from_json(&v2).unwrap();
    assert_eq!(
        back.to_compact_json(),
        v2,
        "compact JSON -> model -> compact JSON"
    );
    let doc = t.to_document();
    let v1 = doc.to_json();
    assert!(schema_errors(&v1).is_empty(), "{:?}", schema_errors(&v1));
    let from_v1 = Tree::from_json(&v1).unwrap();
    assert_eq!(from_v1.to_document(), doc, "version 1 gives the same model");
    assert_eq!(back.to_document(), doc, "version 2 gives the same model");
    let reread: TreeDocument = serde_json::from_str(&v1).unwrap();
    assert_eq!(reread, doc);
}

#[test]
fn compact_json_round_trips_and_validates() {
    let (_, t) = run(
        &reversi_midgame(),
        "",
        SearchConfig {
            depth: 4,
            ..Default::default()
        },
    );
    assert!(t
        .nodes
        .iter()
        .any(|n| n.eval.is_some() && n.prescore.is_some()));
    assert!(t.nodes.iter().any(|n| n.kind == NodeKind::Pruned));
    round_trips(&t);
    let (_, capped) = run(
        &reversi_midgame(),
        "",
        SearchConfig {
            depth: 6,
            node_cap: 2_000,
            ..Default::default()
        },
    );
    assert!(capped.head.stats.truncated);
    round_trips(&capped);
    let threes = Threes::from_position_text(
        "",
        "3 . 1 . / . 2 . 3 / 1 . 2 . / 3 . . 2 | deck 1 1 0 | next 1",
    )
    .unwrap();
    let (_, t) = run(
        &threes,
        "",
        SearchConfig {
            algorithm: Algorithm::Expectimax,
            depth: 2,
            ..Default::default()
        },
    );
    assert!(t.nodes.iter().any(|n| n.prob.is_some()));
    round_trips(&t);
    let (_, t) = run(
        &Ataxx::new(),
        "",
        SearchConfig {
            depth: 3,
            branching_limit: 5,
            ..Default::default()
        },
    );
    round_trips(&t);
}

#[test]
fn compact_json_stays_small() {
    // Deterministic sizes (fixed searches), not timings.
    let (_, t) = run(
        &reversi_midgame(),
        "",
        SearchConfig {
            depth: 8,
            ..Default::default()
        },
    );
    let per_node = t.to_compact_json().len() as f64 / t.len() as f64;
    assert!(
        per_node <= 150.0,
        "Reversi depth 8: {per_node:.1} bytes a node"
    );
    let (_, t) = run(
        &TicTacToe::new(),
        "",
        SearchConfig {
            algorithm: Algorithm::Minimax,
            depth: 9,
            node_cap: 1_000_000,
            ..Default::default()
        },
    );
    assert_eq!(t.len(), 549_946, "the whole tic-tac-toe minimax tree");
    let per_node = t.to_compact_json().len() as f64 / t.len() as f64;
    assert!(per_node <= 150.0, "tic-tac-toe: {per_node:.1} bytes a node");
}

#[test]
fn a_record_is_at_most_64_bytes_for_every_game() {
    assert!(Arena::<<TicTacToe as Game>::Move>::RECORD_BYTES <= 64);
    assert!(Arena::<<Reversi as Game>::Move>::RECORD_BYTES <= 64);
    assert!(Arena::<<Ataxx as Game>::Move>::RECORD_BYTES <= 64);
    assert!(Arena::<<Threes as Game>::Move>::RECORD_BYTES <= 64);
}

#[test]
fn bad_compact_documents_get_a_located_error() {
    let (_, t) = run(
        &reversi_midgame(),
        "",
        SearchConfig {
            depth: 2,
            ..Default::default()
        },
    );
    let good = t.to_compact_json();
    let mut v: serde_json::Value = serde_json::from_str(&good).unwrap();
    v["nodes"][0]["c"] = serde_json::json!(1000);
    let e = Tree::from_json(&v.to_string()).unwrap_err();
    assert_eq!(e.path, "nodes[0].c", "{e}");
    let mut v: serde_json::Value = serde_json::from_str(&good).unwrap();
    v["nodes"][1]["p"] = serde_json::json!([1.0, 99, 1]);
    let e = Tree::from_json(&v.to_string()).unwrap_err();
    assert_eq!(e.path, "nodes[1].p", "{e}");
    let mut v: serde_json::Value = serde_json::from_str(&good).unwrap();
    v["nodes"][1]["k"] = serde_json::json!("q");
    let e = Tree::from_json(&v.to_string()).unwrap_err();
    assert_eq!(e.path, "nodes[1].k", "{e}");
    let e = Tree::from_json("{\"format\":\"plyscope-tree\",\"version\":7}").unwrap_err();
    assert_eq!(e.path, "version");
    assert!(Tree::from_json("[1, 2").is_err());
}
