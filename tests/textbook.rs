//! Textbook trees: the classic examples give the books' values under minimax, alpha-beta and
//! expectimax; alpha-beta visits and prunes exactly the books' leaves, and its recorded tree says
//! so in search order; tree text reads back, and bad text gets an error saying where.

use plyscope::core::{Game, Turn};
use plyscope::games::textbook::{Textbook, TextbookEval};
use plyscope::games::Playable;
use plyscope::search::{search, Algorithm, Hooks, SearchConfig, SearchResult};
use plyscope::tree::{NodeKind, PruneReason, Tree};

fn run(pos: &Textbook, algorithm: Algorithm) -> (SearchResult<u8>, Tree) {
    let mut r = search(
        pos,
        &TextbookEval,
        &SearchConfig {
            algorithm,
            depth: 10,
            record_tree: true,
            random_ties: false,
            randomness_quotient: 0,
            seed: Some(1),
            ..SearchConfig::plain()
        },
        Hooks::default(),
    )
    .unwrap();
    let t = r.tree.take().unwrap();
    (r, t)
}

fn game(id: &str) -> Textbook {
    Textbook::new_game(id).unwrap()
}

/// The values of the finished games (leaves) the search reached, in search order.
fn leaves_in_order(t: &Tree) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..t.len())
        .filter(|&i| t.nodes[i].kind == NodeKind::Terminal)
        .collect();
    idx.sort_by_key(|&i| t.nodes[i].order.unwrap());
    idx.iter().map(|&i| t.nodes[i].value.unwrap()).collect()
}

/// Each pruned node: (the move text of its parent's move, the moves it cut, the value that cut).
fn cuts(t: &Tree) -> Vec<(String, Vec<String>, f64)> {
    t.nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Pruned && n.reason == Some(PruneReason::Alphabeta))
        .map(|n| {
            let parent = &t.nodes[n.parent as usize];
            let moves = t.cut[n.cut_at as usize..n.cut_at as usize + n.count as usize]
                .iter()
                .map(|&m| t.move_text(m).to_string())
                .collect();
            (t.move_text(parent.mv).to_string(), moves, n.value.unwrap())
        })
        .collect()
}

#[test]
fn the_two_ply_tree_is_worth_3_and_alpha_beta_prunes_4_and_6() {
    let pos = game("textbook");
    assert_eq!(pos.position_text(), "((3 12 8) (2 4 6) (14 5 2))");
    let (mm, mt) = run(&pos, Algorithm::Minimax);
    assert_eq!(mm.value, 3.0);
    assert_eq!(pos.format_move(mm.best.unwrap()), "a1");
    assert_eq!(
        leaves_in_order(&mt),
        vec![3., 12., 8., 2., 4., 6., 14., 5., 2.]
    );
    assert!(cuts(&mt).is_empty());
    let (ab, t) = run(&pos, Algorithm::Alphabeta);
    assert_eq!(ab.value, 3.0);
    assert_eq!(pos.format_move(ab.best.unwrap()), "a1");
    // The book's order of visits, and its one cut: after 2 in the second group, c2 and c3
    // (the leaves 4 and 6) are not searched.
    assert_eq!(leaves_in_order(&t), vec![3., 12., 8., 2., 14., 5., 2.]);
    assert_eq!(
        cuts(&t),
        vec![(
            "a2".to_string(),
            vec!["c2".to_string(), "c3".to_string()],
            2.0
        )]
    );
    // The window at each leaf, as a replay shows it: MIN node B narrows beta, then C and D search
    // with alpha = 3 from B's value.
    let windows: Vec<(Option<f64>, Option<f64>)> = {
        let mut idx: Vec<usize> = (0..t.len())
            .filter(|&i| t.nodes[i].kind == NodeKind::Terminal)
            .collect();
        idx.sort_by_key(|&i| t.nodes[i].order.unwrap());
        idx.iter()
            .map(|&i| (t.nodes[i].alpha, t.nodes[i].beta))
            .collect()
    };
    assert_eq!(
        windows,
        vec![
            (None, None),
            (None, Some(3.0)),
            (None, Some(3.0)),
            (Some(3.0), None),
            (Some(3.0), None),
            (Some(3.0), Some(14.0)),
            (Some(3.0), Some(5.0)),
        ]
    );
    let pruned = t.nodes.iter().find(|n| n.kind == NodeKind::Pruned).unwrap();
    assert_eq!(pruned.alpha, Some(3.0), "the cut: 2 <= alpha = 3");
}

#[test]
fn alpha_beta_cuts_in_the_second_and_third_groups() {
    let pos = game("textbook-cuts");
    let (mm, _) = run(&pos, Algorithm::Minimax);
    let (ab, t) = run(&pos, Algorithm::Alphabeta);
    assert_eq!(mm.value, 5.0);
    assert_eq!(ab.value, 5.0);
    assert_eq!(leaves_in_order(&t), vec![5., 6., 7., 4., 3.]);
    assert_eq!(
        cuts(&t),
        vec![
            (
                "a2".to_string(),
                vec!["c2".to_string(), "c3".to_string()],
                4.0
            ),
            (
                "a3".to_string(),
                vec!["d2".to_string(), "d3".to_string()],
                3.0
            ),
        ]
    );
}

#[test]
fn three_plies_prune_a_leaf_and_a_whole_subtree() {
    let pos = game("textbook-deep");
    let (mm, _) = run(&pos, Algorithm::Minimax);
    let (ab, t) = run(&pos, Algorithm::Alphabeta);
    assert_eq!(mm.value, 5.0);
    assert_eq!(ab.value, 5.0);
    assert_eq!(leaves_in_order(&t), vec![3., 5., 6., 1., 2.]);
    assert_eq!(
        cuts(&t),
        vec![
            ("b2".to_string(), vec!["e2".to_string()], 6.0),
            ("a2".to_string(), vec!["c2".to_string()], 2.0),
        ]
    );
}

#[test]
fn expectimax_weighs_the_chance_nodes() {
    let pos = game("textbook-chance");
    assert_eq!(pos.position_text(), "(<0.9:2, 0.1:3> <0.9:1, 0.1:4>)");
    let (r, t) = run(&pos, Algorithm::Expectimax);
    assert!((r.value - 2.1).abs() < 1e-12, "{}", r.value);
    assert_eq!(pos.format_move(r.best.unwrap()), "a1");
    let chance: Vec<f64> = t
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Chance)
        .map(|n| n.value.unwrap())
        .collect();
    assert_eq!(chance.len(), 2);
    assert!((chance[0] - 2.1).abs() < 1e-12 && (chance[1] - 1.3).abs() < 1e-12);
    // Minimax over the same tree takes the chance nodes' expectations too.
    let (m, _) = run(&pos, Algorithm::Minimax);
    assert!((m.value - 2.1).abs() < 1e-12);
}

#[test]
fn a_search_from_min_s_node_takes_min_s_view() {
    let mut pos = game("textbook");
    pos.play(pos.parse_move("a2").unwrap()).unwrap();
    assert_eq!(pos.turn(), Turn::Player(1));
    assert_eq!(pos.position_text(), "((3 12 8) (2 4 6) (14 5 2)) @ 2");
    let (r, _) = run(&pos, Algorithm::Alphabeta);
    // MIN picks 2, worth -2 from MIN's view.
    assert_eq!(r.value, -2.0);
    assert_eq!(pos.format_move(r.best.unwrap()), "c1");
}

#[test]
fn tree_text_reads_back_in_every_form() {
    for (text, back) in [
        ("3 12 8 | 2 4 6 | 14 5 2", "((3 12 8) (2 4 6) (14 5 2))"),
        ("((3,12,8),(2,4,6),(14,5,2))", "((3 12 8) (2 4 6) (14 5 2))"),
        ("(3 12 8) (2 4 6)", "((3 12 8) (2 4 6))"),
        ("3 -1.5 0.25", "(3 -1.5 0.25)"),
        ("(<0.5:1,0.5:(2 3)>)", "(<0.5:1, 0.5:(2 3)>)"),
        (
            "((3 5) (6 9)) ((1 2) (0 -1)) @ 2.1",
            "(((3 5) (6 9)) ((1 2) (0 -1))) @ 2.1",
        ),
    ] {
        let p = Textbook::from_position_text("textbook", text).unwrap();
        assert_eq!(p.position_text(), back, "{text}");
        let again = Textbook::from_position_text("textbook", back).unwrap();
        assert_eq!(again.position_text(), back);
        assert_eq!(again.zobrist(), p.zobrist());
    }
    // MAX and MIN alternate by level; chance nodes do not count as a level of players.
    let p = Textbook::from_position_text("textbook", "<0.5:(1 2), 0.5:(3 4)> (5 6)").unwrap();
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert_eq!(moves.len(), 2);
    let mut c = p.clone();
    c.play(0).unwrap();
    assert_eq!(c.turn(), Turn::Chance, "node B is a chance node");
    c.play(1).unwrap();
    assert_eq!(
        c.turn(),
        Turn::Player(1),
        "below MAX's chance node, MIN chooses"
    );
    let mut d = p.clone();
    d.play(1).unwrap();
    assert_eq!(d.turn(), Turn::Player(1), "node C is MIN's");
    d.play(0).unwrap();
    assert_eq!(d.turn(), Turn::Terminal);
}

#[test]
fn bad_tree_text_says_where_and_what_was_expected() {
    for (text, at, expected) in [
        ("((3 12 8) (2 4 6)", 17, "')' to close the '(' at offset 0"),
        ("3 12 x8", 5, "a number, '(' or '<'"),
        ("(<0.5:1, 0.4:2>)", 1, "add up to 1"),
        ("3 | | 4", 4, "a group of nodes after '|'"),
        ("()", 0, "at least one child"),
        ("7", 0, "a leaf alone is not a game"),
        ("3 4 @ 3", 6, "a child of node A (it has 2)"),
        ("3 12 8 )", 7, "closes nothing"),
        ("(<0.5 1, 0.5:2>)", 6, "':' between"),
        ("(1 2e)", 3, "a number"),
        ("", 0, "a tree"),
        ("<0.5:1, 0.5:2>", 0, "not a chance node"),
        ("(1 2) x", 6, "a number, '(' or '<'"),
    ] {
        let e = Textbook::from_position_text("textbook", text).unwrap_err();
        assert_eq!(e.at, at, "{text:?}: {e}");
        assert!(e.expected.contains(expected), "{text:?}: {e}");
    }
    let deep = format!("{}1{}", "(".repeat(40), ")".repeat(40));
    let e = Textbook::from_position_text("textbook", &deep).unwrap_err();
    assert!(e.expected.contains("levels deep"), "{e}");
    let wide = format!("({})", vec!["1"; 70].join(" "));
    let e = Textbook::from_position_text("textbook", &wide).unwrap_err();
    assert!(e.expected.contains("children"), "{e}");
    // Moves: a1..a3 or 1..3 at the root; anything else says what a move is here.
    let p = game("textbook");
    assert_eq!(p.parse_move("a2").unwrap(), 1);
    assert_eq!(p.parse_move("3").unwrap(), 2);
    let e = p.parse_move("b1").unwrap_err();
    assert!(e.expected.contains("a1 to a3"), "{e}");
    assert!(p.clone().play(5).is_err(), "no fourth child");
}

/// The board view is the tree itself: one cell per node inside the geometry's bounds, one edge per
/// parent and child, each inner node across the middle of its leaves, and the edges from the root
/// to the node reached marked as the path.
#[test]
fn the_board_view_draws_the_tree_with_its_edges() {
    use plyscope::core::{Coord, Geometry, Viewable};
    let mut pos = game("textbook");
    let v = pos.board_view();
    let Geometry::Tree { width, height } = v.geometry else {
        panic!("a tree geometry, got {:?}", v.geometry)
    };
    // 3 + 9 leaves... the two-ply tree: a root, 3 MIN nodes, 9 leaves; leaves at 0, 2, ..., 16.
    assert_eq!((width, height), (17, 3));
    assert_eq!(v.cells.len(), 13);
    assert_eq!(v.paths.len(), 12, "an edge to every node but the root");
    let at = |x: i32, y: i32| v.cells.iter().find(|c| c.at == Coord::new(x, y));
    // The root above the middle leaf, each MIN node above its middle leaf.
    assert_eq!(at(8, 0).unwrap().pieces[0].owner, Some(0));
    for x in [2, 8, 14] {
        assert_eq!(
            at(x, 1).unwrap().pieces[0].owner,
            Some(1),
            "a MIN node at {x}"
        );
    }
    let leaves: Vec<String> = (0..9)
        .map(|k| at(2 * k, 2).unwrap().pieces[0].label.clone().unwrap())
        .collect();
    assert_eq!(leaves, ["3", "12", "8", "2", "4", "6", "14", "5", "2"]);
    // At the root: the marker on it, no edge on the path yet.
    assert!(at(8, 0).unwrap().pieces.iter().any(|p| p.kind == "marker"));
    assert_eq!(v.paths.iter().filter(|s| s.kind == "path").count(), 0);
    // After b (the second MIN node) and its first leaf: two path edges, root -> C -> leaf 2.
    let b = pos.parse_move("a2").unwrap();
    pos.play_unchecked(b);
    let c1 = pos.parse_move("c1").unwrap();
    pos.play_unchecked(c1);
    let v = pos.board_view();
    let path: Vec<(f64, f64, f64, f64)> = v
        .paths
        .iter()
        .filter(|s| s.kind == "path")
        .map(|s| (s.from.x, s.from.y, s.to.x, s.to.y))
        .collect();
    assert_eq!(path, [(8.0, 0.0, 8.0, 1.0), (8.0, 1.0, 6.0, 2.0)]);
    let here = v.cells.iter().find(|c| c.at == Coord::new(6, 2)).unwrap();
    assert!(here.pieces.iter().any(|p| p.kind == "marker"));
    assert_eq!(here.pieces[0].label.as_deref(), Some("2"));
}
