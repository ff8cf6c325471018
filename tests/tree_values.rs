//! How values read, carried in the tree document's header (`values`): every form the engine writes
//! (version 1, version 2, the binary form's header) says it, it validates against the schema, and
//! it reads values the way the evaluator describes them; documents without it still read.

use plyscope::core::{Evaluator, Game, ValueScale, WIN_SCORE};
use plyscope::games::ataxx::{Ataxx, AtaxxEval};
use plyscope::games::reversi::eval::decided_value;
use plyscope::games::reversi::{Reversi, ReversiEval};
use plyscope::games::Playable;
use plyscope::search::{search, Hooks, SearchConfig};
use plyscope::tree::{Tree, TreeDocument};
use serde_json::Value;

mod common;

fn recorded<G: Game, E: Evaluator<G>>(pos: &G, eval: &E, depth: u32) -> Tree {
    let cfg = SearchConfig {
        depth,
        record_tree: true,
        ..Default::default()
    };
    search(pos, eval, &cfg, Hooks::default())
        .unwrap()
        .tree
        .expect("a tree")
}

fn valid(v: &Value) {
    let validator = common::tree_schema();
    let errors: Vec<String> = validator
        .iter_errors(v)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "document breaks the schema: {errors:?}");
}

/// The header JSON the binary form carries (section 0).
fn binary_meta(bytes: &[u8]) -> Value {
    let word = |k: usize| u32::from_le_bytes(bytes[4 * k..4 * k + 4].try_into().unwrap()) as usize;
    assert_eq!(word(0), 0x4254_5350, "magic");
    let (at, len) = (word(4), word(5));
    serde_json::from_slice(&bytes[at..at + len]).expect("the meta section is JSON")
}

/// A Reversi endgame: FFO #40 after five moves of its best line (15 empties; a7 wins by 38).
const LATE: &str = "OOXXXXXXXOXXXXXXOOXOXOOXOOXXOOXXOOXOOOXX-O-OOOOX--O-O--X-------- X";

#[test]
fn reversi_documents_say_that_decided_values_count_discs_in_every_form() {
    let pos = Reversi::from_position_text("reversi", LATE).unwrap();
    let tree = recorded(&pos, &ReversiEval::Strong, 2);
    let scale = tree
        .head
        .values
        .clone()
        .expect("the engine says how its values read");
    assert_eq!(scale, ReversiEval::Strong.scale());
    let m = scale.margin.as_ref().expect("a margin scale");
    assert_eq!((m.unit.as_str(), m.per), ("discs", 100.0));
    // Version 1: validates, reads back with the same scale.
    let doc = tree.to_document();
    let v1: Value = serde_json::from_str(&doc.to_json()).unwrap();
    valid(&v1);
    assert_eq!(v1["values"]["margin"]["per"], 100.0);
    let back: TreeDocument = serde_json::from_value(v1).unwrap();
    assert_eq!(back.values.as_ref(), Some(&scale));
    // Version 2: validates, reads back.
    let v2 = tree.to_compact_json();
    let v2v: Value = serde_json::from_str(&v2).unwrap();
    valid(&v2v);
    assert_eq!(
        Tree::from_compact_json(&v2).unwrap().head.values.as_ref(),
        Some(&scale)
    );
    // The binary form's header.
    let meta = binary_meta(&tree.to_binary());
    let read: ValueScale = serde_json::from_value(meta["values"].clone()).unwrap();
    assert_eq!(read, scale);
    // The scale reads a finished game's value as its margin, as the evaluator describes it.
    let won = decided_value(38, 7);
    assert_eq!(scale.describe(won).text, "win by 38 discs");
    assert_eq!(scale.describe(-decided_value(2, 9)).text, "loss by 2 discs");
    assert_eq!(ReversiEval::Strong.describe(won).text, "win by 38 discs");
}

#[test]
fn ataxx_documents_read_in_pieces_and_plies() {
    let pos = Ataxx::new_game("ataxx").unwrap();
    let tree = recorded(&pos, &AtaxxEval::Strong, 1);
    let scale = tree.head.values.clone().unwrap();
    assert_eq!((scale.unit.as_str(), scale.per_unit), ("pieces", 100.0));
    assert_eq!(scale.win, Some(WIN_SCORE));
    assert!(scale.margin.is_none());
    assert_eq!(scale.describe(130.0).text, "+1.3 pieces");
    assert_eq!(scale.describe(WIN_SCORE - 3.0).text, "win in 3 plies");
}

#[test]
fn documents_without_values_still_read() {
    let pos = Reversi::from_position_text("reversi", LATE).unwrap();
    let mut doc = recorded(&pos, &ReversiEval::Strong, 1).to_document();
    let mut v: Value = serde_json::from_str(&doc.to_json()).unwrap();
    v.as_object_mut().unwrap().remove("values");
    valid(&v);
    let back: TreeDocument = serde_json::from_value(v).unwrap();
    assert!(back.values.is_none());
    doc.values = None;
    assert_eq!(back, doc);
    let compact = Tree::from_document(&back).to_compact_json();
    assert!(!compact.contains("\"values\""));
    assert!(Tree::from_compact_json(&compact)
        .unwrap()
        .head
        .values
        .is_none());
}

#[test]
fn the_schema_refuses_a_malformed_scale() {
    let pos = Reversi::from_position_text("reversi", LATE).unwrap();
    let doc = recorded(&pos, &ReversiEval::Strong, 1).to_document();
    let good: Value = serde_json::from_str(&doc.to_json()).unwrap();
    let validator = common::tree_schema();
    for (what, path, bad) in [
        ("a unit that is not text", "unit", Value::from(3)),
        ("a zero per_unit", "per_unit", Value::from(0)),
        (
            "a margin without its step",
            "margin",
            serde_json::json!({"plies_from": 99, "unit": "discs", "one": "disc"}),
        ),
    ] {
        let mut v = good.clone();
        v["values"][path] = bad;
        assert!(!validator.is_valid(&v), "the schema accepts {what}");
    }
}
