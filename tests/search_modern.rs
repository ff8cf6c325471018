//! The modern alpha-beta: principal variation search, aspiration windows, the transposition
//! table, killers and history, late-move reductions, null moves and the quiescence hook. Each
//! technique is seen in the recorded tree (null windows, re-searches, reductions, null-move cuts),
//! the techniques that must not change a value do not, every search plays a legal move, and
//! tic-tac-toe stays perfect with everything on.

mod common;

use plyscope::core::{Game, Turn};
use plyscope::games::ataxx::Ataxx;
use plyscope::games::khet::Khet;
use plyscope::games::reversi::Reversi;
use plyscope::games::tictactoe::TicTacToe;
use plyscope::games::Playable;
use plyscope::search::{search, Hooks, SearchConfig};
use plyscope::tree::{NodeKind, Note, Tree, TreeDocument};

fn recorded<G: Playable>(
    pos: &G,
    cfg: SearchConfig,
) -> (plyscope::search::SearchResult<G::Move>, Tree) {
    let eval = G::evaluator(&cfg.evaluator).unwrap();
    let mut r = search(
        pos,
        &eval,
        &SearchConfig {
            record_tree: true,
            seed: Some(7),
            ..cfg
        },
        Hooks::default(),
    )
    .unwrap();
    let t = r.tree.take().expect("a recorded tree");
    (r, t)
}

fn reversi_midgame() -> Reversi {
    let mut pos = Reversi::new_game("reversi").unwrap();
    for m in "f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6 b4".split_whitespace() {
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv).unwrap();
    }
    pos
}

/// Checks that node `i` is the first move its parent searched (a table move its node extended or
/// shortened is searched first).
fn first_searched(t: &Tree, i: usize) {
    let p = t.nodes[i].parent;
    let first = (0..t.len())
        .find(|&k| t.nodes[k].parent == p && t.nodes[k].kind != NodeKind::Pruned)
        .unwrap();
    assert_eq!(first, i, "node {i} is its parent's first move");
}

/// Node `i` was cut before any of its moves was searched (a null-move or multi-cut node): a
/// player's node with no child, whose own test search counts as unrecorded below it.
fn cut_unsearched(t: &Tree, i: usize) {
    let n = &t.nodes[i];
    assert!(matches!(n.kind, NodeKind::Max | NodeKind::Min), "node {i}");
    assert!(
        n.unrecorded > 0,
        "node {i}: the test search counts as unrecorded below it"
    );
    assert!(
        t.nodes.iter().all(|c| c.parent != i as u32),
        "node {i}: no move of a cut node was searched"
    );
}

/// Every node with `note` set, as (index, note).
fn noted(t: &Tree, flag: u16) -> Vec<usize> {
    (0..t.len())
        .filter(|&i| t.nodes[i].note.has(flag))
        .collect()
}

#[test]
fn the_defaults_use_every_technique_and_the_plain_mode_none() {
    let d = SearchConfig::default();
    assert!(d.pvs && d.aspiration && d.killers && d.history && d.lmr && d.null_move);
    assert!(d.uses_tt(), "the table is on for alpha-beta by default");
    let p = SearchConfig::plain();
    assert!(!(p.pvs || p.aspiration || p.killers || p.history || p.lmr || p.null_move));
    assert_eq!(p.quiescence, 0);
    assert!(!p.uses_tt());
    // JSON: every switch by name; bad values are refused with the field's name.
    let c = SearchConfig::from_json(
        r#"{"pvs": false, "lmr": false, "transposition_table": false, "tt_bits": 12}"#,
    )
    .unwrap();
    assert!(!c.pvs && !c.lmr && !c.uses_tt() && c.aspiration);
    let e = SearchConfig::from_json(r#"{"quiescence": 99}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("quiescence"), "{e}");
    let e = SearchConfig::from_json(r#"{"aspiration_window": -1}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("aspiration_window"), "{e}");
}

#[test]
fn pvs_and_aspiration_give_plain_alpha_betas_value_in_reversi_and_ataxx() {
    let r = common::random_positions(&Reversi::new_game("reversi").unwrap(), 12, 40, 11);
    common::search_agreement(&r, 4, "");
    let a = common::random_positions(&Ataxx::new_game("ataxx").unwrap(), 8, 30, 12);
    common::search_agreement(&a, 3, "");
}

#[test]
fn a_pvs_search_records_null_windows_and_the_research_after_a_fail_high() {
    let pos = reversi_midgame();
    // One depth (no iterative deepening), so that the statistics are the tree's.
    let cfg = SearchConfig {
        depth: 5,
        lmr: false,
        ..SearchConfig::default()
    };
    let (r, t) = recorded(&pos, cfg);
    let scouts = noted(&t, Note::NULL_WINDOW);
    let failed = noted(&t, Note::FAILED_HIGH);
    let again = noted(&t, Note::RESEARCH);
    assert!(
        scouts.len() > 10,
        "null-window searches recorded: {}",
        scouts.len()
    );
    assert!(
        !failed.is_empty(),
        "a null-window search failed high somewhere ({} re-searches, {} in the tree, {} nodes)",
        r.stats.researches,
        again.len(),
        t.len()
    );
    assert_eq!(
        r.stats.researches as usize,
        again.len(),
        "every re-search is in the tree"
    );
    // A failed search is followed by the re-search of the same move, under the same parent.
    let (first, next) = t.links();
    let _ = first;
    for &i in &failed {
        let j = next[i];
        assert_ne!(j, u32::MAX, "node {i} failed high but has no next sibling");
        let (a, b) = (&t.nodes[i], &t.nodes[j as usize]);
        assert_eq!(a.mv, b.mv, "the re-search plays the same move");
        assert!(
            b.note.has(Note::RESEARCH),
            "the next sibling of {i} is a re-search"
        );
        assert!(
            a.note.has(Note::NULL_WINDOW),
            "only null-window searches fail high without LMR"
        );
        // The null window: zero width at the parent's bound.
        let (lo, hi) = (a.alpha.unwrap(), a.beta.unwrap());
        assert_eq!(lo.next_up(), hi, "a null window is zero-width: {lo} {hi}");
    }
    // The principal variation follows re-searches, never the searches they replaced.
    for (i, n) in t.nodes.iter().enumerate() {
        if n.best {
            assert!(
                !n.note.has(Note::FAILED_HIGH),
                "node {i} on the PV failed high"
            );
        }
    }
    // The flags survive every serialization: v1 (checked against the schema), v2, binary.
    let doc = t.to_document();
    let json: serde_json::Value = serde_json::from_str(&doc.to_json()).unwrap();
    let schema = common::tree_schema();
    assert!(
        schema.is_valid(&json),
        "the v1 document validates against the schema"
    );
    let text = doc.to_json();
    assert!(text.contains("\"null_window\":true") && text.contains("\"research\":true"));
    assert!(text.contains("\"failed_high\":true"));
    let back = Tree::from_document(&serde_json::from_str::<TreeDocument>(&text).unwrap());
    assert_eq!(
        back.nodes.iter().map(|n| n.note).collect::<Vec<_>>(),
        t.nodes.iter().map(|n| n.note).collect::<Vec<_>>()
    );
    let compact = t.to_compact_json();
    let v2: serde_json::Value = serde_json::from_str(&compact).unwrap();
    assert!(
        schema.is_valid(&v2),
        "the v2 document validates against the schema"
    );
    let back = Tree::from_compact_json(&compact).unwrap();
    assert_eq!(
        back.nodes.iter().map(|n| n.note).collect::<Vec<_>>(),
        t.nodes.iter().map(|n| n.note).collect::<Vec<_>>()
    );
    let bin = t.to_binary();
    // Section 27 holds the notes (docs/tree-format.md, "Binary form").
    let note_section = 27;
    let word = |k: usize| u32::from_le_bytes(bin[k * 4..k * 4 + 4].try_into().unwrap()) as usize;
    let (off, len) = (word(4 + 2 * note_section), word(5 + 2 * note_section));
    assert_eq!(
        len,
        t.len() + t.nodes.iter().filter(|n| n.unrecorded > 0).count()
    );
    for (i, n) in t.nodes.iter().enumerate() {
        assert_eq!(bin[off + i], n.note.low(), "binary note of node {i}");
    }
}

/// A recorded depth-6 search of `pos` with the default techniques, and the nodes it reduced.
fn reduced_at_depth_6<G: Playable>(
    pos: &G,
) -> (plyscope::search::SearchResult<G::Move>, Tree, Vec<usize>) {
    let (r, t) = recorded(
        pos,
        SearchConfig {
            depth: 6,
            // Late-move reductions alone (an internal iterative reduction notes the node
            // itself: the test below).
            internal_reduction: false,
            ..SearchConfig::default()
        },
    );
    let reduced = (0..t.len())
        .filter(|&i| t.nodes[i].note.reduced() > 0)
        .collect();
    (r, t, reduced)
}

#[test]
fn late_move_reductions_are_recorded_with_their_plies_and_researched_when_they_fail_high() {
    let (r, t, reduced) = reduced_at_depth_6(&reversi_midgame());
    assert!(!reduced.is_empty(), "some move was reduced");
    assert!(r.stats.reductions >= reduced.len() as u64);
    let (_, next) = t.links();
    let mut researched = 0;
    for &i in &reduced {
        let n = &t.nodes[i];
        assert!(
            (1..=2).contains(&n.note.reduced()),
            "reduced by 1 or 2 plies"
        );
        if n.note.has(Note::FAILED_HIGH) {
            researched += 1;
            let b = &t.nodes[next[i] as usize];
            assert!(b.note.has(Note::RESEARCH) && b.note.reduced() == 0 && b.mv == n.mv);
        }
    }
    let doc = t.to_document().to_json();
    assert!(
        doc.contains("\"reduced\":"),
        "the v1 document names the reduction"
    );
    let _ = researched;
    let v: serde_json::Value = serde_json::from_str(&doc).unwrap();
    assert!(common::tree_schema().is_valid(&v));
}

/// Ataxx after 14 plies (the midgame of docs/benchmarks.md's fixed positions).
fn ataxx_midgame() -> Ataxx {
    let mut pos = Ataxx::new_game("ataxx").unwrap();
    for m in "b6 b2 c5 b3 c4 b2b4 b5 c3 d4 b3d3 b5b3 d3b5 a7c6 d4b2".split_whitespace() {
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv).unwrap();
    }
    pos
}

#[test]
fn ataxx_reduces_by_the_log_formula_down_to_a_static_evaluation() {
    // Reversi keeps the fixed schedule (the test above); Ataxx gives a reduction bias, so its late
    // moves are reduced more than two plies at deep nodes, and the latest ones to a leaf.
    let pos = ataxx_midgame();
    let (r, t, reduced) = reduced_at_depth_6(&pos);
    assert!(r.stats.reductions >= reduced.len() as u64);
    assert!(
        reduced.iter().any(|&i| t.nodes[i].note.reduced() > 2),
        "some late move was reduced more than two plies"
    );
    assert!(
        reduced
            .iter()
            .any(|&i| t.nodes[i].kind == NodeKind::Leaf && t.nodes[i].note.reduced() >= 1),
        "some late move was reduced to a static evaluation"
    );
    // A reduced child is never searched deeper than its parent allows: no reduction reaches the
    // root's depth.
    assert!(reduced.iter().all(|&i| t.nodes[i].note.reduced() < 6));
    let doc = t.to_document().to_json();
    let v: serde_json::Value = serde_json::from_str(&doc).unwrap();
    assert!(common::tree_schema().is_valid(&v));
    // With reductions off the same search reduces nothing.
    let (r, _) = recorded(
        &pos,
        SearchConfig {
            depth: 6,
            lmr: false,
            ..SearchConfig::default()
        },
    );
    assert_eq!(r.stats.reductions, 0);
}

#[test]
fn ataxx_reduction_bias_favours_captures_and_clones_over_quiet_jumps() {
    let pos = ataxx_midgame();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let (mut caps, mut clones, mut jumps) = (0, 0, 0);
    for m in moves {
        let mut child = pos.clone();
        let before = child.pieces(1 - child.side_to_move()).count_ones();
        child.play_unchecked(m);
        let captured = before > child.pieces(child.side_to_move()).count_ones();
        let bias = pos.reduction_bias(m).expect("Ataxx gives a bias");
        if captured {
            caps += 1;
            assert_eq!(bias, -1, "{}", pos.format_move(m));
        } else if m.is_clone() {
            clones += 1;
            assert_eq!(bias, 0, "{}", pos.format_move(m));
        } else {
            jumps += 1;
            assert_eq!(bias, 1, "{}", pos.format_move(m));
        }
    }
    assert!(
        caps > 0 && clones > 0 && jumps > 0,
        "{caps} {clones} {jumps}"
    );
    assert!(reversi_midgame()
        .reduction_bias(plyscope::games::reversi::ReversiMove::Pass)
        .is_none());
}

#[test]
fn ataxx_forward_pruning_is_recorded_as_futile_moves_and_only_where_a_game_gives_a_bias() {
    // Late-move and futility pruning skip moves near the horizon in games that give a reduction
    // bias (Ataxx); the skipped moves are `pruned` nodes with the reason `futility`, which every
    // form of the document keeps.
    let pos = ataxx_midgame();
    let (r, t) = recorded(
        &pos,
        SearchConfig {
            depth: 5,
            ..SearchConfig::default()
        },
    );
    assert!(r.stats.forward_pruned > 0, "some move was skipped");
    let futile: Vec<usize> = (0..t.len())
        .filter(|&i| t.nodes[i].reason == Some(plyscope::tree::PruneReason::Futility))
        .collect();
    assert!(!futile.is_empty(), "the skipped moves are in the tree");
    let skipped: u64 = futile.iter().map(|&i| t.nodes[i].count).sum();
    assert!(skipped <= r.stats.forward_pruned);
    for &i in &futile {
        let n = &t.nodes[i];
        assert_eq!(n.kind, NodeKind::Pruned);
        assert!(n.count > 0);
        let parent = &t.nodes[n.parent as usize];
        assert!(matches!(parent.kind, NodeKind::Max | NodeKind::Min));
    }
    let doc = t.to_document().to_json();
    assert!(doc.contains("\"reason\":\"futility\""));
    let v: serde_json::Value = serde_json::from_str(&doc).unwrap();
    assert!(common::tree_schema().is_valid(&v));
    let compact = t.to_compact_json();
    assert!(compact.contains("\"r\":\"f\""));
    let back = Tree::from_compact_json(&compact).unwrap();
    assert_eq!(
        back.nodes
            .iter()
            .filter(|n| n.reason == Some(plyscope::tree::PruneReason::Futility))
            .count(),
        futile.len()
    );
    // Both switches off: nothing is skipped.
    let (r, _) = recorded(
        &pos,
        SearchConfig {
            depth: 5,
            late_move_pruning: false,
            futility: false,
            ..SearchConfig::default()
        },
    );
    assert_eq!(r.stats.forward_pruned, 0);
    // Reversi gives no reduction bias: its search skips nothing.
    let (r, _) = recorded(
        &reversi_midgame(),
        SearchConfig {
            depth: 5,
            ..SearchConfig::default()
        },
    );
    assert_eq!(r.stats.forward_pruned, 0);
}

#[test]
fn ataxx_futility_prunes_up_to_four_plies_and_reverse_futility_up_to_six_above_the_horizon() {
    // Reverse futility returns a node's static evaluation without searching any of its moves
    // when it is far beyond the bound; in Ataxx it applies up to 6 plies above the horizon
    // (3 until session 15). Such a node's every move is in one `futility` pruned node.
    // Futility pruning skips a node's quiet moves after the first up to 4 plies above it (1
    // until session 15; late-move pruning, the other reason for a `futility` node beside
    // searched moves, stops at 2). Each node's plies left are its parent's less one and less
    // its reduction (the note).
    // The `net` evaluator: its values spread wider than the default `nnue`'s, so that nodes far
    // enough beyond the window to be cut several plies above the horizon occur in a small tree.
    let depth = 10;
    let (_, t) = recorded(
        &ataxx_midgame(),
        SearchConfig {
            depth,
            evaluator: "net".into(),
            ..SearchConfig::default()
        },
    );
    let (left, searched, futile) = plies_left_and_moves(&t, depth);
    let cut: Vec<i64> = (0..t.len())
        .filter(|&i| futile[i] && !searched[i] && t.nodes[i].kind != NodeKind::Pruned)
        .map(|i| left[i])
        .collect();
    assert!(!cut.is_empty(), "some node was cut by reverse futility");
    assert!(
        cut.iter().all(|&d| d <= 6),
        "never more than 6 plies above: {cut:?}"
    );
    let mut cut_by_left = std::collections::BTreeMap::new();
    for &d in &cut {
        *cut_by_left.entry(d).or_insert(0) += 1;
    }
    assert!(
        cut.iter().any(|&d| d >= 4),
        "some cut 4 or more plies above the horizon (nodes by plies left: {cut_by_left:?})"
    );
    let skipped: Vec<i64> = (0..t.len())
        .filter(|&i| futile[i] && searched[i])
        .map(|i| left[i])
        .collect();
    assert!(skipped.iter().all(|&d| d <= 4), "{skipped:?}");
    let mut by_left = std::collections::BTreeMap::new();
    for &d in &skipped {
        *by_left.entry(d).or_insert(0) += 1;
    }
    assert!(
        skipped.iter().any(|&d| d >= 3),
        "some quiet move skipped 3 or more plies above the horizon (nodes by plies left: {by_left:?})"
    );
}

/// For each node of a tree searched to `depth`: its plies left (its parent's less one and less
/// its reduction, the note), whether one of its moves was searched, and whether one was skipped
/// by forward pruning (a `futility` pruned node).
fn plies_left_and_moves(t: &Tree, depth: u32) -> (Vec<i64>, Vec<bool>, Vec<bool>) {
    let mut left = vec![0i64; t.len()];
    let mut searched = vec![false; t.len()];
    let mut futile = vec![false; t.len()];
    for i in 0..t.len() {
        let n = &t.nodes[i];
        if i == 0 {
            left[i] = depth as i64;
            continue;
        }
        let p = n.parent as usize;
        assert!(p < i, "parents come first");
        left[i] = left[p] - 1 - n.note.reduced() as i64;
        if n.kind == NodeKind::Pruned {
            if n.reason == Some(plyscope::tree::PruneReason::Futility) {
                futile[p] = true;
            }
        } else {
            searched[p] = true;
        }
    }
    (left, searched, futile)
}

#[test]
fn ataxx_late_move_pruning_at_every_depth_skips_quiet_jumps_deep_in_the_tree_and_never_at_the_root()
{
    // With `late_move_pruning_all_depths` (off by default), a node at any depth but the root
    // skips the jumps that capture nothing once two moves have been searched; without it no
    // move is skipped more than 6 plies above the horizon (reverse futility's limit; futility
    // and late-move pruning stop at 4 and 2). Each node's plies left are its parent's less one
    // and less its reduction (the note).
    let depth = 8;
    let pos = ataxx_midgame();
    let shape = |t: &Tree| plies_left_and_moves(t, depth);
    let cfg = |all: bool| SearchConfig {
        depth,
        late_move_pruning_all_depths: all,
        ..SearchConfig::default()
    };
    let (_, t) = recorded(&pos, cfg(false));
    let (left, _, futile) = shape(&t);
    assert!((0..t.len()).all(|i| !futile[i] || left[i] <= 6));
    let (_, t) = recorded(&pos, cfg(true));
    let (left, searched, futile) = shape(&t);
    assert!(!futile[0], "the root skips nothing");
    let deep: Vec<usize> = (1..t.len())
        .filter(|&i| futile[i] && searched[i] && left[i] > 6)
        .collect();
    assert!(
        !deep.is_empty(),
        "quiet jumps skipped more than 6 plies above the horizon"
    );
    // Every move skipped there is a jump that captures nothing in that node's position, and
    // at least two of its moves were searched.
    for &i in &deep {
        let mut path = vec![];
        let mut j = i;
        while j != 0 {
            path.push(t.nodes[j].mv);
            j = t.nodes[j].parent as usize;
        }
        let mut at = pos.clone();
        for &m in path.iter().rev() {
            let mv = at.parse_move(t.move_text(m)).unwrap();
            at.play(mv).unwrap();
        }
        let kids: Vec<usize> = (i + 1..t.len())
            .filter(|&k| t.nodes[k].parent as usize == i)
            .collect();
        let tried = kids
            .iter()
            .filter(|&&k| t.nodes[k].kind != NodeKind::Pruned)
            .count();
        assert!(tried >= 2, "node {i}: {tried} moves searched");
        for &k in &kids {
            let n = &t.nodes[k];
            if n.reason != Some(plyscope::tree::PruneReason::Futility) {
                continue;
            }
            let cut = &t.cut[n.cut_at as usize..(n.cut_at + n.count as u32) as usize];
            for &m in cut {
                let text = t.move_text(m);
                let mv = at.parse_move(text).unwrap();
                assert_eq!(at.reduction_bias(mv), Some(1), "{text} is a quiet jump");
            }
        }
    }
    // Off by default and in the textbook mode; the JSON option turns it on.
    assert!(!SearchConfig::default().late_move_pruning_all_depths);
    assert!(!SearchConfig::plain().late_move_pruning_all_depths);
    let c = SearchConfig::from_json(r#"{"late_move_pruning_all_depths": true}"#).unwrap();
    assert!(c.late_move_pruning_all_depths);
}

#[test]
fn a_null_move_cut_is_recorded_in_khet_and_never_in_reversi_or_ataxx() {
    let pos = Khet::new_game("khet").unwrap();
    let (r, t) = recorded(
        &pos,
        SearchConfig {
            depth: 4,
            ..SearchConfig::default()
        },
    );
    let cuts = noted(&t, Note::NULL_MOVE);
    assert!(
        r.stats.null_cuts > 0,
        "Khet allows null moves and some node was cut"
    );
    assert!(!cuts.is_empty(), "the cut is in the tree");
    for &i in &cuts {
        cut_unsearched(&t, i);
    }
    let doc = t.to_document().to_json();
    assert!(doc.contains("\"null_move\":true"));
    // Reversi and Ataxx have forced passes: the null move is never tried there.
    for pos in [reversi_midgame()] {
        let (r, _) = recorded(
            &pos,
            SearchConfig {
                depth: 5,
                ..SearchConfig::default()
            },
        );
        assert_eq!(r.stats.null_cuts, 0);
    }
    let (r, _) = recorded(
        &Ataxx::new_game("ataxx").unwrap(),
        SearchConfig {
            depth: 4,
            ..SearchConfig::default()
        },
    );
    assert_eq!(r.stats.null_cuts, 0);
    assert!(Reversi::new_game("reversi").unwrap().null_move().is_none());
    assert!(Ataxx::new_game("ataxx").unwrap().null_move().is_none());
}

#[test]
fn with_every_technique_on_each_search_plays_a_legal_move() {
    fn check<G: Playable>(start: &G, n: usize, plies: usize, depth: u32, seed: u64) {
        let eval = G::evaluator("").unwrap();
        for pos in common::random_positions(start, n, plies, seed) {
            let r = search(
                &pos,
                &eval,
                &SearchConfig {
                    depth,
                    iterative_deepening: true,
                    seed: Some(seed),
                    ..SearchConfig::default()
                },
                Hooks::default(),
            )
            .unwrap();
            let mv = r.best.expect("a move");
            let mut ms = Vec::new();
            pos.legal_moves(&mut ms);
            assert!(
                ms.contains(&mv),
                "{mv:?} is legal at {}",
                pos.position_text()
            );
            assert!(r.value.is_finite());
            for w in r.pv.windows(1) {
                let _ = w;
            }
            // The principal variation plays legally from the root.
            let mut p = pos.clone();
            for &m in &r.pv {
                if !matches!(p.turn(), Turn::Player(_)) {
                    break;
                }
                p.play(m)
                    .unwrap_or_else(|e| panic!("PV move {m:?} illegal: {e}"));
            }
        }
    }
    check(&Reversi::new_game("reversi").unwrap(), 10, 50, 5, 1);
    check(&Ataxx::new_game("ataxx").unwrap(), 6, 40, 4, 2);
    check(&Khet::new_game("khet").unwrap(), 4, 30, 4, 3);
    check(&TicTacToe::new_game("tictactoe").unwrap(), 10, 6, 9, 4);
}

#[test]
fn tic_tac_toe_stays_perfect_with_every_technique() {
    // From the start the game is a draw; from every position after one or two moves the search's
    // value is the plain search's (a solved game: every line reaches its end).
    let start = TicTacToe::new_game("tictactoe").unwrap();
    let eval = TicTacToe::evaluator("").unwrap();
    let modern = SearchConfig {
        depth: 9,
        iterative_deepening: true,
        seed: Some(3),
        random_ties: false,
        ..SearchConfig::default()
    };
    let plain = SearchConfig {
        depth: 9,
        seed: Some(3),
        random_ties: false,
        ..SearchConfig::plain()
    };
    let r = search(&start, &eval, &modern, Hooks::default()).unwrap();
    assert_eq!(r.value, 0.0, "tic-tac-toe is a draw");
    let mut ms = Vec::new();
    start.legal_moves(&mut ms);
    for &a in &ms {
        let mut p = start.clone();
        p.play(a).unwrap();
        let mut ms2 = Vec::new();
        p.legal_moves(&mut ms2);
        for &b in &ms2 {
            let mut q = p.clone();
            q.play(b).unwrap();
            let x = search(&q, &eval, &modern, Hooks::default()).unwrap();
            let y = search(&q, &eval, &plain, Hooks::default()).unwrap();
            assert_eq!(x.value, y.value, "{}", q.position_text());
        }
    }
}

/// `tt_min_depth` keeps the table away from shallow nodes: above the search's depth the table is
/// never used, so the search is exactly the one without a table (same nodes, value and move);
/// at 2 it answers fewer nodes than at 1. Out of range, the option is refused by name.
#[test]
fn the_table_is_used_only_from_its_minimum_depth() {
    let pos = reversi_midgame();
    let eval = Reversi::evaluator("").unwrap();
    let run = |cfg: SearchConfig| {
        search(
            &pos,
            &eval,
            &SearchConfig {
                depth: 5,
                seed: Some(3),
                ..cfg
            },
            Hooks::default(),
        )
        .unwrap()
    };
    let none = run(SearchConfig {
        transposition_table: Some(false),
        ..SearchConfig::default()
    });
    let above = run(SearchConfig {
        tt_min_depth: 6,
        ..SearchConfig::default()
    });
    assert_eq!(above.stats.tt_hits, 0);
    assert_eq!(
        (above.stats.nodes, above.value, above.best),
        (none.stats.nodes, none.value, none.best)
    );
    let every = run(SearchConfig::default());
    let from2 = run(SearchConfig {
        tt_min_depth: 2,
        ..SearchConfig::default()
    });
    assert!(
        from2.stats.tt_hits < every.stats.tt_hits,
        "{} {}",
        from2.stats.tt_hits,
        every.stats.tt_hits
    );
    for bad in [0, 9] {
        let err = SearchConfig {
            tt_min_depth: bad,
            ..SearchConfig::default()
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(err.contains("tt_min_depth"), "{err}");
    }
}

/// A textbook tree (root moves a1 = b, a2 = a, a3 = c) where the depth-2 iteration prefers b (10 against a's -15) but the exact
/// depth-3 values prefer a (30 against b's 10), and a third move c, searched last at depth 3, has
/// a big subtree: 20 nodes of 20 leaves each, all -20.
fn deeper_refutes_tree() -> plyscope::games::textbook::Textbook {
    let group = format!("({})", vec!["-20"; 20].join(" "));
    let c = format!("({})", vec![group.as_str(); 20].join(" "));
    let text = format!("((10 10) (10 10)) ((30 30) (30 -60)) {c}");
    plyscope::games::textbook::Textbook::from_position_text("textbook", &text).unwrap()
}

/// When the budget stops an iteration after a root move has beaten the last iteration's best at
/// the deeper depth, that move is played (before, the stopped iteration was thrown away and the
/// shallower choice played). Node budgets make the stop deterministic.
#[test]
fn a_move_that_beats_the_last_best_in_a_stopped_iteration_is_played() {
    use plyscope::games::textbook::TextbookEval;
    let pos = deeper_refutes_tree();
    let cfg = SearchConfig {
        depth: 10,
        iterative_deepening: true,
        random_ties: false,
        seed: Some(1),
        ..SearchConfig::default()
    };
    let text = |r: &plyscope::search::SearchResult<u8>| pos.format_move(r.best.unwrap());
    let two = search(
        &pos,
        &TextbookEval,
        &SearchConfig {
            depth: 2,
            ..cfg.clone()
        },
        Hooks::default(),
    )
    .unwrap();
    assert_eq!(
        text(&two),
        "a1",
        "depth 2 prefers b (the first root move, a1)"
    );
    let full = search(&pos, &TextbookEval, &cfg, Hooks::default()).unwrap();
    assert_eq!(full.stats.depth_reached, 3);
    assert_eq!(text(&full), "a2", "the exact values prefer a (a2)");
    // Budgets that stop the third iteration in c's subtree, after a and b were searched.
    let mut stopped = 0;
    for budget in full.stats.nodes.saturating_sub(15)..full.stats.nodes {
        let cfg = SearchConfig {
            node_budget: Some(budget),
            ..cfg.clone()
        };
        let r = search(&pos, &TextbookEval, &cfg, Hooks::default()).unwrap();
        if r.stats.depth_reached == 2 {
            stopped += 1;
            assert_eq!(
                text(&r),
                "a2",
                "budget {budget}: the deeper refutation is used"
            );
            assert_eq!(r.value, 30.0, "budget {budget}: with a's deeper value");
            assert_eq!(r.pv.len(), 3, "budget {budget}: and a's deeper line");
        }
    }
    assert!(
        stopped >= 10,
        "only {stopped} budgets stopped in the third iteration"
    );
}

#[test]
fn internal_iterative_reduction_searches_nodes_without_a_table_move_a_ply_shallower() {
    // Internal iterative reduction (off by default): a node with 4 plies or more left and no
    // move from the table is searched one ply shallower. On the Ataxx midgame at depth 8
    // (iterative deepening) with `patterns` it searches fewer nodes than with the switch off
    // (session 17: 108,553 against 117,740). With `net`, the default since session 19, it does
    // not here (142,462 against 142,047), so the count is taken with `patterns`.
    let pos = ataxx_midgame();
    let nodes = |iir: bool| {
        let eval = Ataxx::evaluator("patterns").unwrap();
        let cfg = SearchConfig {
            depth: 8,
            iterative_deepening: true,
            internal_reduction: iir,
            seed: Some(1),
            ..SearchConfig::default()
        };
        search(&pos, &eval, &cfg, Hooks::default())
            .unwrap()
            .stats
            .nodes
    };
    let (on, off) = (nodes(true), nodes(false));
    assert!(on < off, "with the reduction {on} nodes, without {off}");
    // In the tree it is a reduction noted on the node itself: with late-move reductions off,
    // only it reduces anything.
    let reduced = |iir: bool| {
        let (_, t) = recorded(
            &pos,
            SearchConfig {
                depth: 6,
                iterative_deepening: true,
                lmr: false,
                internal_reduction: iir,
                ..SearchConfig::default()
            },
        );
        (0..t.len())
            .filter(|&i| t.nodes[i].note.reduced() == 1 && t.nodes[i].kind != NodeKind::Leaf)
            .count()
    };
    assert!(reduced(true) > 0);
    assert_eq!(reduced(false), 0);
    // The run's `reductions` count them too (late-move reductions off: nothing else reduces).
    let counted = |iir: bool| {
        let cfg = SearchConfig {
            depth: 6,
            iterative_deepening: true,
            lmr: false,
            internal_reduction: iir,
            ..SearchConfig::default()
        };
        let eval = Ataxx::evaluator("").unwrap();
        search(&pos, &eval, &cfg, Hooks::default())
            .unwrap()
            .stats
            .reductions
    };
    assert!(counted(true) > 0);
    assert_eq!(counted(false), 0);
    // Without a table no node would ever have a move: the switch then does nothing.
    let without_table = |iir: bool| {
        recorded(
            &reversi_midgame(),
            SearchConfig {
                depth: 5,
                iterative_deepening: true,
                transposition_table: Some(false),
                internal_reduction: iir,
                ..SearchConfig::default()
            },
        )
        .0
        .stats
        .nodes
    };
    assert_eq!(without_table(true), without_table(false));
    // Off by default and in the textbook mode; the JSON option turns it on.
    assert!(!SearchConfig::default().internal_reduction);
    assert!(!SearchConfig::plain().internal_reduction);
    let c = SearchConfig::from_json(r#"{"internal_reduction": true}"#).unwrap();
    assert!(c.internal_reduction);
}

#[test]
fn singular_extensions_run_in_a_parallel_search_from_the_shared_tables_move_index() {
    // The shared table of a parallel search keeps a move as its place in the list of legal
    // moves; the singular test makes the list to read it. The main thread's tree has the notes
    // its statistics count, and an extended or shortened move is its node's first move (the
    // move at the table's index). Threads make the run vary, so only what always holds is
    // checked; with one thread the next test checks the counts exactly.
    let pos = ataxx_midgame();
    let cfg = SearchConfig {
        depth: 11,
        evaluator: "patterns".into(),
        singular_extensions: true,
        threads: 2,
        ..SearchConfig::default()
    };
    let (r, t) = recorded(&pos, cfg);
    let s = &r.stats;
    assert_eq!(s.workers.len(), 2);
    assert!(s.singular_searches > 0, "{s:?}");
    assert!(s.extended + s.shortened + s.multi_cuts > 0, "{s:?}");
    if !s.truncated {
        assert_eq!(noted(&t, Note::EXTENDED).len() as u64, s.extended);
        assert_eq!(noted(&t, Note::SHORTENED).len() as u64, s.shortened);
        assert_eq!(noted(&t, Note::MULTI_CUT).len() as u64, s.multi_cuts);
    }
    for i in noted(&t, Note::EXTENDED)
        .into_iter()
        .chain(noted(&t, Note::SHORTENED))
    {
        first_searched(&t, i);
    }
    for i in noted(&t, Note::MULTI_CUT) {
        cut_unsearched(&t, i);
    }
}

#[test]
fn singular_extensions_are_recorded_as_extended_shortened_and_multi_cut_nodes() {
    // The `patterns` evaluator (fixed weights, unlike `nnue`'s generations): at depth 10 this
    // search extends 9 table moves, shortens 1 and cuts 5 nodes.
    let pos = ataxx_midgame();
    let cfg = SearchConfig {
        depth: 10,
        evaluator: "patterns".into(),
        singular_extensions: true,
        ..SearchConfig::default()
    };
    let (r, t) = recorded(&pos, cfg.clone());
    assert!(!r.stats.truncated, "the whole tree is kept");
    let s = &r.stats;
    assert!(s.singular_searches > 0, "{s:?}");
    assert!(
        s.extended > 0 && s.shortened > 0 && s.multi_cuts > 0,
        "{s:?}"
    );
    let extended = noted(&t, Note::EXTENDED);
    let shortened = noted(&t, Note::SHORTENED);
    let cut = noted(&t, Note::MULTI_CUT);
    // Every one is in the tree, as many as the statistics count (the tree is whole).
    assert_eq!(extended.len() as u64, s.extended);
    assert_eq!(shortened.len() as u64, s.shortened);
    assert_eq!(cut.len() as u64, s.multi_cuts);
    for &i in extended.iter().chain(&shortened) {
        let n = &t.nodes[i];
        assert!(!n.note.has(Note::EXTENDED) || !n.note.has(Note::SHORTENED));
        // The table's move is the first move its node searched.
        first_searched(&t, i);
        assert_eq!(n.note.reduced(), 0, "an extended move is never reduced too");
    }
    for &i in &cut {
        cut_unsearched(&t, i);
        let n = &t.nodes[i];
        let want = if n.kind == NodeKind::Max {
            plyscope::tree::Bound::Lower
        } else {
            plyscope::tree::Bound::Upper
        };
        assert_eq!(n.bound, Some(want));
    }
    // The document names them and validates; it reads back with the same notes.
    let doc = t.to_document();
    let json = doc.to_json();
    assert!(json.contains("\"extended\":true") && json.contains("\"multi_cut\":true"));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let validator = common::tree_schema();
    let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let back = Tree::from_document(&serde_json::from_str::<TreeDocument>(&json).unwrap());
    let notes = |t: &Tree| t.nodes.iter().map(|n| n.note).collect::<Vec<_>>();
    assert_eq!(notes(&back), notes(&t));
    // Recording does not change the search.
    let plain = search(
        &pos,
        &<Ataxx as Playable>::evaluator("patterns").unwrap(),
        &SearchConfig {
            seed: Some(7),
            ..cfg.clone()
        },
        Hooks::default(),
    )
    .unwrap();
    assert_eq!(plain.best, r.best);
    assert_eq!(plain.value, r.value);
    assert_eq!(plain.stats.nodes, r.stats.nodes);
    assert_eq!(plain.stats.extended, s.extended);
    // Off: none of them.
    let (r, t) = recorded(
        &pos,
        SearchConfig {
            singular_extensions: false,
            ..cfg
        },
    );
    assert_eq!(r.stats.singular_searches, 0);
    assert!(t.nodes.iter().all(|n| !n.note.has(Note::HIGH)));
    // Off by default and in the textbook mode; on in Ataxx's own defaults.
    assert!(!SearchConfig::default().singular_extensions);
    assert!(!SearchConfig::plain().singular_extensions);
    assert!(plyscope::games::search_defaults("ataxx").singular_extensions);
    assert!(!plyscope::games::search_defaults("reversi").singular_extensions);
}

#[test]
fn the_history_malus_changes_the_order_moves_are_searched_in_and_not_the_value() {
    // With everything that can change a value off (reductions, pruning, extensions, the table),
    // the malus only reorders moves (Ataxx folds history into the order of equal pre-scores):
    // the root value is the same with it and without, and on some positions the node count is
    // not, so the switch reaches the search.
    let positions = common::random_positions(&Ataxx::new_game("ataxx").unwrap(), 10, 30, 31);
    let eval = Ataxx::evaluator("patterns").unwrap();
    let mut differ = 0;
    for pos in &positions {
        let run = |malus: bool| {
            let cfg = SearchConfig {
                depth: 5,
                evaluator: "patterns".into(),
                lmr: false,
                null_move: false,
                late_move_pruning: false,
                futility: false,
                transposition_table: Some(false),
                quiescence: 0,
                history_malus: malus,
                seed: Some(1),
                random_ties: false,
                ..SearchConfig::default()
            };
            search(pos, &eval, &cfg, Hooks::default()).unwrap()
        };
        let (on, off) = (run(true), run(false));
        assert!(
            (on.value - off.value).abs() < 1e-6,
            "malus {} against {} at {}",
            on.value,
            off.value,
            pos.position_text()
        );
        if on.stats.nodes != off.stats.nodes {
            differ += 1;
        }
    }
    assert!(differ > 0, "the malus changed no search's node count");
    // Off by default and in the textbook mode; Ataxx's own defaults turn it on.
    assert!(!SearchConfig::default().history_malus);
    assert!(!SearchConfig::plain().history_malus);
    assert!(plyscope::games::search_defaults("ataxx").history_malus);
}
