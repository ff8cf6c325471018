//! The quiescence extension where a game defines `Game::unstable` (Connect Four: a win in one for
//! the side to move; Khet: a shot pending as the beams stand): a search reaching its horizon at an
//! unstable position looks one ply further, the recorded tree holds those plies as ordinary nodes
//! below the horizon (as Hive's), and `"quiescence": 0` turns it off.

mod common;

use plyscope::core::Game;
use plyscope::games::connect4::Connect4;
use plyscope::games::khet::Khet;
use plyscope::games::Playable;
use plyscope::search::{search, Hooks, SearchConfig};
use plyscope::tree::{Node, NodeKind};

fn connect4(moves: &str) -> Connect4 {
    let mut p = Connect4::new();
    for c in moves.chars() {
        let m = p.parse_move(&c.to_string()).unwrap();
        p.play(m).unwrap();
    }
    p
}

/// The root of a recorded depth-1 textbook search of `pos` (with this much quiescence), checked
/// against the tree schema.
fn depth_one_tree<G: Playable>(pos: &G, quiescence: u32) -> Node {
    let eval = G::evaluator("").unwrap();
    let cfg = SearchConfig {
        depth: 1,
        quiescence,
        record_tree: true,
        seed: Some(3),
        // Every root move with the full window, so that each child's subtree is whole.
        randomness_quotient: 2,
        ..SearchConfig::plain()
    };
    let r = search(pos, &eval, &cfg, Hooks::default()).unwrap();
    let doc = r.tree.expect("a recorded tree").to_document();
    let v: serde_json::Value = serde_json::from_str(&doc.to_json()).unwrap();
    let errors: Vec<String> = common::tree_schema()
        .iter_errors(&v)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    doc.root
}

fn child<'a>(root: &'a Node, mv: &str) -> &'a Node {
    root.children
        .iter()
        .find(|c| c.mv.as_deref() == Some(mv))
        .unwrap_or_else(|| panic!("no child {mv}"))
}

/// x threatens to complete the bottom row on column 4, and o is to move. At depth 1 every o move
/// but the block leaves x a win in one: with the extension those children are searched one ply
/// further (x's winning reply is a terminal node below the horizon) and o blocks; without it
/// they are leaves, valued by the evaluator alone.
#[test]
fn connect4_extends_a_win_in_one_at_the_horizon() {
    let pos = connect4("11223");
    let root = depth_one_tree(&pos, 4);
    let block = child(&root, "4");
    assert!(
        block.children.is_empty(),
        "after the block x has no win in one"
    );
    for mv in ["1", "2", "3", "5", "6", "7"] {
        let c = child(&root, mv);
        assert!(!c.children.is_empty(), "{mv}: extended one ply");
        assert!(
            c.children.iter().any(|g| g.kind == NodeKind::Terminal),
            "{mv}: x's win is found below the horizon"
        );
    }
    for c in &root.children {
        let mut next = pos.clone();
        next.play(pos.parse_move(c.mv.as_deref().unwrap()).unwrap())
            .unwrap();
        assert_eq!(!c.children.is_empty(), next.unstable(), "{:?}", c.mv);
    }
    let value = |mv: &str| child(&root, mv).value.unwrap();
    for mv in ["1", "2", "3", "5", "6", "7"] {
        assert!(value(mv) < -900_000.0, "{mv}: a loss for o, {}", value(mv));
    }
    assert!(value("4") > -1000.0, "the block holds: {}", value("4"));

    let root = depth_one_tree(&pos, 0);
    assert!(
        root.children.iter().all(|c| c.children.is_empty()),
        "quiescence 0: the horizon is a leaf everywhere"
    );
}

/// Khet: Silver's beam, turned up the f file by its Pyramid on f1, stands on Red's Pyramid on
/// f6. At depth 1 from Red to move, exactly the children where that shot is still pending for
/// Silver (Red's moves that leave the f6 Pyramid in the beam) are searched one ply further; with
/// `quiescence` 0 none is.
#[test]
fn khet_extends_a_pending_shot_at_the_horizon() {
    let pos =
        Khet::from_position_text("khet", "xs3k5/10/5pne4/10/10/10/4K5/5Pne3Xw r 0 1 khet").unwrap();
    let root = depth_one_tree(&pos, 4);
    let mut extended = 0;
    for c in &root.children {
        let mut next = pos.clone();
        next.play(pos.parse_move(c.mv.as_deref().unwrap()).unwrap())
            .unwrap();
        assert_eq!(!c.children.is_empty(), next.unstable(), "{:?}", c.mv);
        extended += next.unstable() as usize;
    }
    assert!(
        extended > 0 && extended < root.children.len(),
        "{extended} of {} extended",
        root.children.len()
    );
    let root = depth_one_tree(&pos, 0);
    assert!(root.children.iter().all(|c| c.children.is_empty()));
}
