// Included by tests/wasm.rs (in the page) and tests/wasm_worker.rs (in a dedicated worker): the
// engine's browser API driven from WebAssembly, as the page's worker drives it.

use plyscope::tree::TreeDocument;
use plyscope::wasm::Engine;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

fn strings(v: JsValue) -> Vec<String> {
    serde_wasm_bindgen::from_value(v).expect("an array of strings")
}

fn error_text(e: wasm_bindgen::JsError) -> String {
    let v: JsValue = e.into();
    js_sys::Reflect::get(&v, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
fn plays_moves_and_reports_the_position() {
    let mut e = Engine::new("tictactoe").unwrap();
    assert_eq!(e.game_id(), "tictactoe");
    assert_eq!(e.to_move(), "x");
    assert_eq!(e.play(" b2 ").unwrap(), "b2");
    assert_eq!(e.play("a1").unwrap(), "a1");
    assert_eq!(e.position(), "O---X---- X");
    assert_eq!(strings(e.history().unwrap()), vec!["b2", "a1"]);
    let legal: Vec<serde_json::Value> =
        serde_wasm_bindgen::from_value(e.legal_moves().unwrap()).unwrap();
    assert_eq!(legal.len(), 7);
    assert!(e.outcome().is_none());
}

#[wasm_bindgen_test]
fn a_bad_move_is_refused_with_a_message_and_nothing_changes() {
    let mut e = Engine::new("tictactoe").unwrap();
    e.play("b2").unwrap();
    let before = e.position();
    let msg = error_text(e.play("b2").unwrap_err());
    assert!(
        msg.contains("b2") && msg.contains("taken"),
        "message: {msg}"
    );
    let msg = error_text(e.play("z9").unwrap_err());
    assert!(msg.contains("z9"), "message: {msg}");
    assert_eq!(e.position(), before);
    assert_eq!(strings(e.history().unwrap()), vec!["b2"]);
}

#[wasm_bindgen_test]
fn bad_positions_bad_games_and_bad_options_are_refused() {
    assert!(error_text(Engine::new("chess").err().unwrap()).contains("tictactoe"));
    let mut e = Engine::new("tictactoe").unwrap();
    e.play("a1").unwrap();
    let msg = error_text(e.set_position("XXQ------ O").unwrap_err());
    assert!(msg.contains("character 3"), "message: {msg}");
    assert_eq!(strings(e.history().unwrap()), vec!["a1"]);
    let msg = error_text(e.search("{\"depth\": 0}", None, None, None).unwrap_err());
    assert!(msg.contains("depth"), "message: {msg}");
    let msg = error_text(e.search("{\"dpth\": 3}", None, None, None).unwrap_err());
    assert!(msg.contains("dpth"), "message: {msg}");
    // The WebAssembly build has one thread per worker: more is refused, not a crash.
    let msg = error_text(e.search("{\"threads\": 2}", None, None, None).unwrap_err());
    assert!(msg.contains("threads"), "message: {msg}");
    e.set_position("XX-OO---- X").unwrap();
    assert_eq!(e.to_move(), "x");
    assert!(strings(e.history().unwrap()).is_empty());
}

#[wasm_bindgen_test]
fn undo_and_redo_walk_the_history() {
    let mut e = Engine::new("tictactoe").unwrap();
    for m in ["a1", "b1", "c1"] {
        e.play(m).unwrap();
    }
    e.undo().unwrap();
    e.undo().unwrap();
    assert_eq!(strings(e.history().unwrap()), vec!["a1"]);
    assert_eq!(strings(e.redo_moves().unwrap()), vec!["b1", "c1"]);
    e.redo().unwrap();
    assert_eq!(strings(e.history().unwrap()), vec!["a1", "b1"]);
    assert_eq!(strings(e.redo_moves().unwrap()), vec!["c1"]);
    // A new move forgets what could have been played again.
    e.play("c3").unwrap();
    assert!(e.redo().is_err());
    assert!(strings(e.redo_moves().unwrap()).is_empty());
    e.undo().unwrap();
    e.undo().unwrap();
    e.undo().unwrap();
    assert!(error_text(e.undo().unwrap_err()).contains("no move"));
}

#[wasm_bindgen_test]
fn search_returns_a_report_with_a_tree_document_that_parses() {
    let mut e = Engine::new("tictactoe").unwrap();
    for m in ["a1", "b2", "c3"] {
        e.play(m).unwrap();
    }
    let calls = std::rc::Rc::new(std::cell::Cell::new(0u32));
    let seen = calls.clone();
    let cb = wasm_bindgen::closure::Closure::<dyn FnMut(JsValue)>::new(move |p: JsValue| {
        let f = js_sys::Reflect::get(&p, &JsValue::from_str("fraction")).unwrap();
        assert!(f.as_f64().is_some());
        seen.set(seen.get() + 1);
    });
    let func: js_sys::Function = cb.as_ref().clone().into();
    let json = e
        .search(
            r#"{"algorithm":"minimax","depth":6,"record_tree":true,"node_cap":5000}"#,
            Some(func),
            Some(0.001),
            None,
        )
        .unwrap();
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mv = report["move"].as_str().unwrap();
    assert!(["a2", "b1", "b3", "c2"].contains(&mv), "move {mv}");
    let doc: TreeDocument = serde_json::from_value(report["tree"].clone()).unwrap();
    assert_eq!(doc.format, "plyscope-tree");
    assert_eq!(doc.game, "tictactoe");
    assert_eq!(doc.perspective, "o");
    assert_eq!(doc.root.children.len(), 6);
    assert!(doc.root.size() > 100);
    assert!(calls.get() > 0, "the progress callback was never called");
    // The search does not change the game.
    assert_eq!(strings(e.history().unwrap()), vec!["a1", "b2", "c3"]);
}

#[wasm_bindgen_test]
fn the_catalogue_lists_games_with_players_and_evaluators() {
    let cat: Vec<serde_json::Value> =
        serde_wasm_bindgen::from_value(Engine::catalogue().unwrap()).unwrap();
    let ttt = cat
        .iter()
        .find(|g| g["id"] == "tictactoe")
        .expect("tic-tac-toe is listed");
    assert_eq!(ttt["players"], serde_json::json!(["x", "o"]));
    assert_eq!(ttt["evaluators"][0], "lines");
    for g in &cat {
        assert!(Engine::new(g["id"].as_str().unwrap()).is_ok());
        for v in g["variants"].as_array().unwrap() {
            assert!(Engine::new(v["id"].as_str().unwrap()).is_ok());
        }
    }
}

#[wasm_bindgen_test]
fn a_whole_game_ends_with_an_outcome() {
    let mut e = Engine::new("tictactoe").unwrap();
    for m in ["a1", "a2", "b1", "b2", "c1"] {
        e.play(m).unwrap();
    }
    assert_eq!(e.to_move(), "over");
    assert_eq!(e.outcome().as_deref(), Some("x wins"));
    assert!(error_text(e.search("{}", None, None, None).unwrap_err()).contains("over"));
    let msg = error_text(e.play("c3").unwrap_err());
    assert!(msg.contains("over"), "message: {msg}");
}

#[wasm_bindgen_test]
fn iterative_deepening_reports_each_iteration_tree() {
    let mut e = Engine::new("tictactoe").unwrap();
    e.play("b2").unwrap();
    let depths = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let seen = depths.clone();
    let cb = wasm_bindgen::closure::Closure::<dyn FnMut(JsValue)>::new(move |doc: JsValue| {
        let doc: TreeDocument = serde_wasm_bindgen::from_value(doc).expect("a tree document");
        seen.borrow_mut().push(doc.stats.depth_reached);
    });
    let func: js_sys::Function = cb.as_ref().clone().into();
    e.search(
        r#"{"algorithm":"alphabeta","depth":4,"iterative_deepening":true,"record_tree":true}"#,
        None,
        None,
        Some(func),
    )
    .unwrap();
    assert_eq!(*depths.borrow(), vec![1, 2, 3, 4]);
}

#[wasm_bindgen_test]
fn every_catalogued_game_plays_through_the_browser_api_and_undoes_back() {
    let cat: Vec<serde_json::Value> =
        serde_wasm_bindgen::from_value(Engine::catalogue().unwrap()).unwrap();
    for g in &cat {
        let id = g["id"].as_str().unwrap();
        let mut e = Engine::new(id).unwrap();
        e.seed(7);
        let start = e.position();
        let mut plies = 0;
        while e.outcome().is_none() && plies < 120 {
            if e.to_move() == "chance" {
                e.play_chance().unwrap();
            } else {
                let legal: Vec<serde_json::Value> =
                    serde_wasm_bindgen::from_value(e.legal_moves().unwrap()).unwrap();
                assert!(!legal.is_empty(), "{id}: no legal move and no outcome");
                let pick = legal[plies % legal.len()]["move"]
                    .as_str()
                    .unwrap()
                    .to_string();
                let played = e.play(&pick).unwrap();
                assert_eq!(played, pick, "{id}: the canonical text is the listed one");
            }
            plies += 1;
        }
        assert_eq!(strings(e.history().unwrap()).len(), plies);
        // The state object agrees with the single getters.
        let state: serde_json::Value = serde_wasm_bindgen::from_value(e.state().unwrap()).unwrap();
        assert_eq!(state["position"], e.position());
        assert_eq!(state["to_move"], e.to_move());
        // The board view travels with the state: its moves are the legal moves, in order.
        let view = &state["view"];
        assert!(view["geometry"]["kind"].is_string(), "{id}: a geometry");
        let view_moves: Vec<&str> = view["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap())
            .collect();
        let legal: Vec<&str> = state["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap())
            .collect();
        assert_eq!(view_moves, legal, "{id}: the view's moves");
        if plies > 0 {
            let last = state["history"].as_array().unwrap().last().unwrap().clone();
            assert_eq!(view["last"]["text"], last, "{id}: the view's last move");
        }
        for _ in 0..plies {
            e.undo().unwrap();
        }
        assert_eq!(e.position(), start, "{id}: undo returns to the start");
        assert_eq!(strings(e.redo_moves().unwrap()).len(), plies);
    }
}

#[wasm_bindgen_test]
fn variants_are_edited_checked_and_drawn_through_one_generic_interface() {
    use plyscope::wasm::{random_variant_of, variant_check, variant_edit};
    // Ataxx's editor: a click on b6 (x 1, y 1 from the top-left) toggles b6, f6, b2 and f2.
    let id = variant_edit("ataxx", 1, 1).unwrap();
    assert_eq!(id, "ataxx-0020");
    let e = Engine::new(&id).unwrap();
    let view: serde_json::Value = serde_wasm_bindgen::from_value(e.view().unwrap()).unwrap();
    let walls: Vec<(i64, i64)> = view["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["blocked"] == true)
        .map(|c| (c["at"]["x"].as_i64().unwrap(), c["at"]["y"].as_i64().unwrap()))
        .collect();
    assert_eq!(walls, vec![(1, 1), (5, 1), (1, 5), (5, 5)]);
    assert_eq!(variant_edit(&id, 1, 1).unwrap(), "ataxx");
    let corner = error_text(variant_edit("ataxx", 6, 0).unwrap_err());
    assert!(corner.contains("corner"), "{corner}");
    let off = error_text(variant_edit("ataxx", 7, 0).unwrap_err());
    assert!(off.contains("7x7"), "{off}");
    let no = error_text(variant_edit("reversi", 0, 0).unwrap_err());
    assert!(no.contains("cell by cell"), "{no}");
    // Checking a typed variant gives its canonical id or the engine's reason.
    assert_eq!(variant_check("ataxx-0x400").unwrap(), "ataxx-0400");
    let walled = error_text(variant_check("ataxx-0776").unwrap_err());
    assert!(walled.contains("move at the start"), "{walled}");
    let bad = error_text(variant_check("ataxx-zz").unwrap_err());
    assert!(bad.contains("hex digits"), "{bad}");
    // Random variants are playable and fixed by their seed; a game without them says so.
    for seed in 0..10 {
        let r = random_variant_of("ataxx", seed).unwrap();
        assert_eq!(r, random_variant_of("ataxx", seed).unwrap());
        assert_eq!(variant_check(&r).unwrap(), r);
    }
    assert!(random_variant_of("tictactoe", 1).is_err());
}
