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
use plyscope::tree::{Arena, NodeKind, Note, Tree, TreeDocument, NONE};

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
            if x.kind != NodeKind::Pruned && x.same_as.is_none() && !x.note.has(Note::FAILED_HIGH) {
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
        // A search replaced by a re-search of the same move (principal variation search) is
        // not a root move of its own.
        .filter(|&c| t.nodes[c].kind != NodeKind::Pruned && !t.nodes[c].note.has(Note::FAILED_HIGH))
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
    // The textbook alpha-beta (each move searched once): the levels compare node for node.
    let pos = reversi_midgame();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let (full_r, full) = run(
        &pos,
        "",
        SearchConfig {
            depth: 6,
            ..SearchConfig::plain()
        },
    );
    assert!(!full.head.stats.truncated);
    let (r, t) = run(
        &pos,
        "",
        SearchConfig {
            depth: 6,
            node_cap: full.len() / 8,
            ..SearchConfig::plain()
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

/// Replays node `i`'s position from `root` by the move texts on its path (each matched against
/// the legal moves or chance outcomes of its parent's position).
fn position_of<G: Game>(t: &Tree, root: &G, i: usize) -> G {
    let mut path = Vec::new();
    let mut at = i;
    while at != 0 {
        path.push(at);
        at = t.nodes[at].parent as usize;
    }
    let mut pos = root.clone();
    for &j in path.iter().rev() {
        let text = t.move_text(t.nodes[j].mv);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut outcomes = Vec::new();
        pos.chance_outcomes(&mut outcomes);
        moves.extend(outcomes.iter().map(|o| o.0));
        let m = moves
            .into_iter()
            .find(|&m| pos.format_move(m) == text)
            .unwrap_or_else(|| panic!("node {j}'s move {text} is playable"));
        pos.play_unchecked(m);
    }
    pos
}

/// The breakdowns the recorder makes when the tree is built (not during the search) are those the
/// evaluator gives for each node's own position: the pre-score of every child of a player's node
/// and the evaluation of every leaf, term by term.
fn assert_breakdowns_match_the_evaluator<G: Playable>(pos: &G, eval: &str, cfg: SearchConfig) {
    use plyscope::core::{Breakdown, Evaluator, NoTerms, Turn};
    let (_, t) = run(pos, eval, cfg);
    let e = G::evaluator(eval).unwrap();
    let me = match pos.turn() {
        Turn::Player(p) => p,
        _ => unreachable!(),
    };
    let (mut leaves, mut prescores) = (0, 0);
    for (i, n) in t.nodes.iter().enumerate().skip(1) {
        if n.kind == NodeKind::Pruned || n.same_as.is_some() {
            continue;
        }
        let here = position_of(&t, pos, i);
        let terms = |b: &plyscope::tree::Bd| -> Vec<(String, f32, f64)> {
            let l = &t.layouts[b.layout as usize];
            l.names
                .iter()
                .zip(&l.weights)
                .zip(t.raws_of(b))
                .map(|((&nm, &w), &r)| (t.names[nm as usize].clone(), r, w))
                .collect()
        };
        let want = |bd: &Breakdown| -> Vec<(String, f32, f64)> {
            bd.terms
                .iter()
                .map(|x| (x.name.clone(), x.raw as f32, x.weight))
                .collect()
        };
        if n.prob.is_none() {
            let p = n
                .prescore
                .as_ref()
                .expect("a player's child has a pre-score");
            let mut bd = Breakdown::default();
            let v = e.prescore(&here, me, &mut bd);
            assert_eq!(p.total, v, "node {i}'s pre-score");
            assert_eq!(terms(p), want(&bd), "node {i}'s pre-score terms");
            prescores += 1;
        }
        if n.kind == NodeKind::Leaf {
            let b = n.eval.as_ref().expect("a leaf has its evaluation");
            let mut bd = Breakdown::default();
            let v = e.evaluate(&here, me, &mut bd);
            assert_eq!(v, e.evaluate(&here, me, &mut NoTerms));
            assert_eq!(b.total, v, "leaf {i}'s evaluation");
            assert_eq!(n.value, Some(v));
            assert_eq!(terms(b), want(&bd), "leaf {i}'s terms");
            leaves += 1;
        }
    }
    assert!(
        leaves > 10 && prescores > 10,
        "{leaves} leaves, {prescores} pre-scores"
    );
}

#[test]
fn breakdowns_made_after_the_search_are_the_evaluators() {
    assert_breakdowns_match_the_evaluator(
        &reversi_midgame(),
        "",
        SearchConfig {
            depth: 3,
            ..SearchConfig::default()
        },
    );
    assert_breakdowns_match_the_evaluator(
        &Ataxx::new_game("ataxx").unwrap(),
        "",
        SearchConfig {
            depth: 3,
            ..SearchConfig::default()
        },
    );
    let threes = Threes::from_position_text(
        "",
        "3 . 1 . / . 2 . 3 / 1 . 2 . / 3 . . 2 | deck 1 1 0 | next 1",
    )
    .unwrap();
    assert_breakdowns_match_the_evaluator(
        &threes,
        "",
        SearchConfig {
            depth: 2,
            algorithm: Algorithm::Expectimax,
            ..SearchConfig::default()
        },
    );
}

/// A recorder reuses the memory of the last one on its thread: a search recorded after others
/// (of the same game and of another) writes the same tree as the first.
#[test]
fn a_reused_arena_records_the_same_tree() {
    let cfg = SearchConfig {
        depth: 4,
        ..SearchConfig::default()
    };
    let (_, first) = run(&reversi_midgame(), "", cfg.clone());
    let _ = run(&TicTacToe::new_game("tictactoe").unwrap(), "", cfg.clone());
    let (_, again) = run(&reversi_midgame(), "", cfg.clone());
    let _ = run(
        &reversi_midgame(),
        "",
        SearchConfig {
            depth: 2,
            ..cfg.clone()
        },
    );
    let (_, third) = run(&reversi_midgame(), "", cfg);
    let strip = |t: &Tree| serde_json::to_string(&t.to_document().root).unwrap();
    assert_eq!(strip(&first), strip(&again));
    assert_eq!(strip(&first), strip(&third));
}

/// Checks that below every node of the last whole level, the capped tree `t` keeps a prefix of
/// its children in search order (as in the uncapped tree `full`) plus at most the child that
/// gives its value; returns how many children were kept beyond the principal variations.
fn partial_level_prefixes(t: &Tree, full: &Tree) -> usize {
    let level = t.head.stats.full_levels.unwrap();
    let dt = depth_of(t);
    // The path of move texts from the root identifies a node in both trees.
    let path = |tr: &Tree, mut i: usize| {
        let mut p = Vec::new();
        while i != 0 {
            p.push(tr.move_text(tr.nodes[i].mv).to_string());
            i = tr.nodes[i].parent as usize;
        }
        p.reverse();
        p
    };
    let find = |tr: &Tree, p: &[String]| {
        let mut at = 0;
        for m in p {
            at = children(tr, at)
                .into_iter()
                .find(|&c| {
                    tr.nodes[c].kind != NodeKind::Pruned && tr.move_text(tr.nodes[c].mv) == m
                })
                .unwrap_or_else(|| panic!("{p:?} is in the uncapped tree"));
        }
        at
    };
    let mut extra = 0;
    for i in 0..t.len() {
        if dt[i] != level || t.nodes[i].kind == NodeKind::Pruned {
            continue;
        }
        let f = find(full, &path(t, i));
        let all: Vec<String> = children(full, f)
            .into_iter()
            .filter(|&c| full.nodes[c].kind != NodeKind::Pruned)
            .map(|c| full.move_text(full.nodes[c].mv).to_string())
            .collect();
        let kept: Vec<usize> = children(t, i)
            .into_iter()
            .filter(|&c| t.nodes[c].kind != NodeKind::Pruned)
            .map(|c| {
                let m = t.move_text(t.nodes[c].mv);
                all.iter()
                    .position(|x| x == m)
                    .expect("a kept child is a searched one")
            })
            .collect();
        // The ranks kept: 0, 1, ..., m-1, and perhaps one more (the child giving the value).
        let mut prefix = 0;
        while kept.get(prefix) == Some(&prefix) {
            prefix += 1;
        }
        assert!(
            kept.len() <= prefix + 1,
            "node {i} keeps children {kept:?}: a prefix in search order and the best"
        );
        extra += kept.len().saturating_sub(1);
    }
    extra
}

/// When the next whole level does not fit, the cap keeps as much of it as fits: the first
/// children in search order of each node of the last whole level (with their principal
/// variations), in the recorder and when a finished tree is cut afterwards.
#[test]
fn a_capped_tree_fills_the_next_level_in_part() {
    // The textbook alpha-beta: each move searched once, so a path of moves names one node.
    let pos = reversi_midgame();
    let cfg = SearchConfig {
        depth: 6,
        ..SearchConfig::plain()
    };
    let (full_r, full) = run(&pos, "", cfg.clone());
    let mut partial_seen = 0;
    for div in [4, 8, 16] {
        let cap = full.len() / div;
        let (r, t) = run(
            &pos,
            "",
            SearchConfig {
                node_cap: cap,
                ..cfg.clone()
            },
        );
        assert!(
            t.len() <= cap + 64,
            "{} nodes under a cap of {cap}",
            t.len()
        );
        assert_capped_invariants(&t, r.stats.nodes);
        let level = t.head.stats.full_levels.unwrap();
        let (dt, df) = (depth_of(&t), depth_of(&full));
        let next_t = dt.iter().filter(|&&d| d == level + 1).count();
        let next_f = df.iter().filter(|&&d| d == level + 1).count();
        assert!(next_t < next_f, "level {} is not whole", level + 1);
        if partial_level_prefixes(&t, &full) > 0 {
            partial_seen += 1;
        }
        // Cut afterwards: the next level is filled while it fits.
        let cut = full.capped(cap);
        assert!(cut.len() <= cap);
        assert_capped_invariants(&cut, full_r.stats.nodes);
        assert!(
            partial_level_prefixes(&cut, &full) > 0,
            "cut to {cap}: part of level {} kept",
            cut.head.stats.full_levels.unwrap() + 1
        );
    }
    assert!(
        partial_seen >= 2,
        "the recorder kept part of the next level {partial_seen} times"
    );
}

/// Every recorded node knows its place in the search order: the root is 0, the order is a strict
/// pre-order (it grows along the document's pre-order, a node before its children, a subtree
/// before the siblings searched after it), a cut-off comes after the sibling whose value caused
/// it and its whole subtree, and with nothing dropped the order is the document's order itself.
fn assert_search_order(t: &Tree, whole: bool) {
    let order: Vec<u64> = t
        .nodes
        .iter()
        .map(|n| n.order.expect("every node has its place"))
        .collect();
    assert_eq!(order[0], 0);
    for j in 1..t.len() {
        assert!(
            order[j] > order[j - 1],
            "node {j} comes after node {}",
            j - 1
        );
        if whole {
            assert_eq!(order[j], j as u64, "nothing dropped: node {j} is step {j}");
        }
    }
    // The end of each subtree (in the document): the last node below it.
    let mut last = (0..t.len()).collect::<Vec<usize>>();
    for j in (1..t.len()).rev() {
        let p = t.nodes[j].parent as usize;
        last[p] = last[p].max(last[j]);
    }
    let mut cuts = 0;
    for i in 0..t.len() {
        let kids = children(t, i);
        for w in kids.windows(2) {
            let (a, b) = (w[0], w[1]);
            assert!(
                order[b] > order[last[a]],
                "node {b} is searched after the whole subtree of node {a}"
            );
        }
        for &c in &kids {
            let n = &t.nodes[c];
            if n.kind == NodeKind::Pruned
                && n.reason == Some(plyscope::tree::PruneReason::Alphabeta)
            {
                cuts += 1;
                assert!(n.by.is_some() || !whole, "the cause is recorded");
                if let Some(by) = n.by {
                    let by = by as usize;
                    assert_eq!(t.nodes[by].parent as usize, i, "the cause is a sibling");
                    assert!(
                        order[c] > order[last[by]],
                        "the cut comes after its cause's subtree"
                    );
                }
            }
        }
    }
    if whole && t.head.algorithm == "alphabeta" {
        assert!(cuts > 0, "an alpha-beta search of this size cuts");
    }
}

#[test]
fn every_node_knows_its_place_in_the_search_order() {
    for algorithm in [Algorithm::Alphabeta, Algorithm::Minimax] {
        let (_, t) = run(
            &reversi_midgame(),
            "",
            SearchConfig {
                depth: 4,
                algorithm,
                ..SearchConfig::default()
            },
        );
        assert!(!t.head.stats.truncated);
        assert_search_order(&t, true);
        // The compact document keeps it.
        let back = Tree::from_compact_json(&t.to_compact_json()).unwrap();
        let o: Vec<_> = back.nodes.iter().map(|n| n.order).collect();
        assert_eq!(o, t.nodes.iter().map(|n| n.order).collect::<Vec<_>>());
    }
    let threes = Threes::from_position_text(
        "",
        "3 . 1 . / . 2 . 3 / 1 . 2 . / 3 . . 2 | deck 1 1 0 | next 1",
    )
    .unwrap();
    let (_, t) = run(
        &threes,
        "",
        SearchConfig {
            depth: 2,
            algorithm: Algorithm::Expectimax,
            ..SearchConfig::default()
        },
    );
    assert_search_order(&t, true);
    // A capped tree keeps each kept node's place: still strictly increasing, with gaps.
    let (_, t) = run(
        &reversi_midgame(),
        "",
        SearchConfig {
            depth: 6,
            node_cap: 3000,
            ..SearchConfig::default()
        },
    );
    assert!(t.head.stats.truncated);
    assert_search_order(&t, false);
}
