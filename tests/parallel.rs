//! Parallel search (Lazy SMP): with 2 and 4 threads a search plays a legal move, gives the exact
//! minimax value where the search is exact (every line reaches the end of the game: tic-tac-toe
//! and Connect Four endgames), stops all its threads on the stop flag, reports each thread's
//! work in the statistics, and refuses more than one thread for expectimax with a typed error.
//!
//! Why the exact value is provable: with late-move reductions and null moves off, an alpha-beta
//! search deep enough to reach every game end returns the game's value, and every entry a helper
//! thread stores in the shared table is a true bound of its position's value (its search also
//! reached every end below the entry's depth), so the main thread's answer cannot change.

mod common;

use plyscope::core::{Error, Game, Rng, Turn};
use plyscope::games::ataxx::Ataxx;
use plyscope::games::connect4::Connect4;
use plyscope::games::reversi::Reversi;
use plyscope::games::threes::Threes;
use plyscope::games::tictactoe::TicTacToe;
use plyscope::games::Playable;
use plyscope::search::{search, Algorithm, Hooks, SearchConfig, SearchResult};
use std::sync::atomic::{AtomicBool, Ordering};

fn run<G: Playable>(pos: &G, cfg: &SearchConfig) -> SearchResult<G::Move> {
    let eval = G::evaluator("").unwrap();
    search(pos, &eval, cfg, Hooks::default()).unwrap()
}

fn is_legal<G: Game>(pos: &G, m: G::Move) -> bool {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.contains(&m)
}

/// An exact configuration: reductions and null moves off (they may miss a better move), the
/// table, PVS, aspiration, killers and history on; no random tie-breaks.
fn exact(depth: u32, threads: u32) -> SearchConfig {
    SearchConfig {
        depth,
        iterative_deepening: true,
        lmr: false,
        null_move: false,
        late_move_pruning: false,
        futility: false,
        random_ties: false,
        exact_endgame: 0,
        seed: Some(3),
        threads,
        ..SearchConfig::default()
    }
}

/// The minimax value by plain minimax (no pruning, no table).
fn minimax_value<G: Playable>(pos: &G, depth: u32) -> f64 {
    let cfg = SearchConfig {
        algorithm: Algorithm::Minimax,
        depth,
        transposition_table: Some(false),
        random_ties: false,
        exact_endgame: 0,
        ..SearchConfig::plain()
    };
    run(pos, &cfg).value
}

/// Positions reached by `plies` seeded random moves that are still going.
fn random_positions<G: Playable>(variant: &str, plies: usize, count: usize, seed: u64) -> Vec<G> {
    let mut rng = Rng::seeded(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut pos = G::new_game(variant).unwrap();
        let mut ok = true;
        for _ in 0..plies {
            if !matches!(pos.turn(), Turn::Player(_)) {
                ok = false;
                break;
            }
            pos.legal_moves(&mut moves);
            let m = moves[rng.below(moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
        if ok && matches!(pos.turn(), Turn::Player(_)) {
            out.push(pos);
        }
    }
    out
}

#[test]
fn tictactoe_with_2_and_4_threads_gives_the_minimax_value() {
    let mut positions = vec![TicTacToe::new_game("tictactoe").unwrap()];
    positions.extend(random_positions::<TicTacToe>("tictactoe", 2, 6, 11));
    positions.extend(random_positions::<TicTacToe>("tictactoe", 4, 6, 12));
    for pos in &positions {
        let truth = minimax_value(pos, 9);
        let single = run(pos, &exact(9, 1));
        assert_eq!(single.value, truth, "one thread, {pos:?}");
        for threads in [2, 4] {
            let r = run(pos, &exact(9, threads));
            assert_eq!(r.value, truth, "{threads} threads, {pos:?}");
            assert!(is_legal(pos, r.best.unwrap()));
            assert_eq!(r.stats.workers.len(), threads as usize);
        }
    }
}

#[test]
fn connect4_endgames_with_2_and_4_threads_give_the_minimax_value() {
    // 32 discs played: 10 empty cells, so depth 10 reaches the end of every line.
    for pos in random_positions::<Connect4>("connect4", 32, 5, 21) {
        let truth = minimax_value(&pos, 10);
        for threads in [1, 2, 4] {
            let r = run(&pos, &exact(10, threads));
            assert_eq!(r.value, truth, "{threads} threads, {pos:?}");
            assert!(is_legal(&pos, r.best.unwrap()));
        }
    }
}

#[test]
fn reversi_and_ataxx_with_2_and_4_threads_play_legal_moves_and_report_each_thread() {
    let reversi = random_positions::<Reversi>("reversi", 12, 2, 31);
    let ataxx = random_positions::<Ataxx>("ataxx", 8, 2, 32);
    for threads in [2u32, 4] {
        let cfg = SearchConfig {
            depth: 5,
            iterative_deepening: true,
            seed: Some(1),
            threads,
            ..SearchConfig::default()
        };
        for pos in &reversi {
            let r = run(pos, &cfg);
            assert!(is_legal(pos, r.best.unwrap()));
            assert!(r.value.is_finite());
            check_workers(&r.stats, threads, 5);
        }
        for pos in &ataxx {
            let r = run(pos, &cfg);
            assert!(is_legal(pos, r.best.unwrap()));
            check_workers(&r.stats, threads, 5);
        }
    }
}

/// One entry per thread, the main thread first with the run's own nodes and depth. The run
/// reached `depth`: the main thread did, or a helper completed it first and answered.
fn check_workers(stats: &plyscope::tree::Stats, threads: u32, depth: u32) {
    let w = &stats.workers;
    assert_eq!(w.len(), threads as usize, "{w:?}");
    for (i, t) in w.iter().enumerate() {
        assert_eq!(t.worker, i as u32);
        assert!(t.tt_hits_other <= t.tt_hits);
    }
    assert_eq!(w[0].nodes, stats.nodes);
    assert_eq!(stats.depth_reached, depth);
    assert!(w[0].depth_reached <= depth, "{w:?}");
    assert!(
        w[0].depth_reached == depth || w[1..].iter().any(|h| h.depth_reached == depth),
        "{w:?}"
    );
}

#[test]
fn one_thread_reports_no_workers_and_a_single_legal_move_is_played() {
    let pos = TicTacToe::new_game("tictactoe").unwrap();
    let r = run(&pos, &exact(4, 1));
    assert!(
        r.stats.workers.is_empty(),
        "a single thread lists no workers"
    );
    // X O X / X O O / O X . : one empty cell, no line yet.
    let mut pos = TicTacToe::new_game("tictactoe").unwrap();
    for m in ["a1", "b1", "c1", "b2", "a2", "c2", "b3", "a3"] {
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv).unwrap();
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len(), 1, "{pos:?}");
    for threads in [2, 4] {
        let r = run(&pos, &exact(9, threads));
        assert_eq!(r.best, Some(moves[0]));
        assert_eq!(r.stats.workers.len(), threads as usize);
    }
}

#[test]
fn the_stop_flag_stops_every_thread() {
    // Depth 64 on 12x12 Reversi does not end by itself: only the stop flag ends it, and the
    // search returns only once every helper thread has stopped (they are scoped threads).
    let pos = Reversi::new_game("reversi-12").unwrap();
    let eval = Reversi::evaluator("").unwrap();
    let stop = AtomicBool::new(false);
    let cfg = SearchConfig {
        depth: 64,
        iterative_deepening: true,
        threads: 4,
        ..SearchConfig::default()
    };
    let r = std::thread::scope(|scope| {
        let h = scope.spawn(|| {
            let mut progress = |p: &plyscope::search::Progress| {
                // Stop once the search has done some work (depth 2 reached).
                if p.depth >= 3 {
                    stop.store(true, Ordering::Relaxed);
                }
            };
            search(
                &pos,
                &eval,
                &cfg,
                Hooks {
                    stop: Some(&stop),
                    progress: Some(&mut progress),
                    progress_every_ms: 1.0,
                    ..Hooks::default()
                },
            )
        });
        h.join().unwrap()
    })
    .unwrap();
    assert!(stop.load(Ordering::Relaxed));
    assert!(is_legal(&pos, r.best.unwrap()));
    assert_eq!(r.stats.workers.len(), 4);
    assert!(r.stats.depth_reached < 64);
}

#[test]
fn a_recorded_parallel_search_records_the_main_threads_tree_and_each_threads_work() {
    let pos = random_positions::<Reversi>("reversi", 10, 1, 41).remove(0);
    let cfg = SearchConfig {
        depth: 4,
        iterative_deepening: true,
        record_tree: true,
        threads: 2,
        seed: Some(1),
        ..SearchConfig::default()
    };
    let r = run(&pos, &cfg);
    let tree = r.tree.expect("a recorded tree");
    check_workers(&tree.head.stats, 2, 4);
    let json = tree.to_document().to_json();
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let schema = common::tree_schema();
    let errors: Vec<String> = schema.iter_errors(&value).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    // A thread count in the wrong shape is refused by the schema.
    let mut bad = value.clone();
    bad["stats"]["workers"][0]["nodes"] = serde_json::json!("many");
    assert!(!schema.is_valid(&bad));
    // Nodes that used a helper's table entry name it (worker 1, the only helper); the main
    // thread is never named (src/search/engine/smp.rs checks that such nodes are recorded).
    fn workers(n: &serde_json::Value, out: &mut Vec<serde_json::Value>) {
        if let Some(w) = n.get("tt_worker") {
            out.push(w.clone());
        }
        for c in n["children"].as_array().into_iter().flatten() {
            workers(c, out);
        }
    }
    let mut named = Vec::new();
    workers(&value["root"], &mut named);
    assert!(
        named.iter().all(|w| w == &serde_json::json!(1)),
        "{named:?}"
    );
    let mut bad = value.clone();
    bad["root"]["tt_worker"] = serde_json::json!(0);
    assert!(!schema.is_valid(&bad), "worker 0 is never named");
    assert!(
        json.contains("\"workers\""),
        "the document lists the threads"
    );
    assert!(json.contains("\"tt_hits_other\""));
    assert!(
        json.contains("\"threads\":2"),
        "the settings say how many threads"
    );
}

#[test]
fn threads_are_checked_and_expectimax_refuses_more_than_one() {
    for bad in [r#"{"threads": 0}"#, r#"{"threads": 65}"#] {
        let e = SearchConfig::from_json(bad).unwrap_err();
        assert!(
            matches!(&e, Error::BadOption { name, .. } if name == "threads"),
            "{e}"
        );
    }
    let c = SearchConfig::from_json(r#"{"threads": 3}"#).unwrap();
    assert_eq!(c.threads, 3);
    assert_eq!(SearchConfig::default().threads, 1);

    // Threes: expectimax refuses two threads with an error naming the option...
    let pos = Threes::new_game("threes").unwrap();
    let mut pos = pos;
    while pos.turn() == Turn::Chance {
        let mut outcomes = Vec::new();
        pos.chance_outcomes(&mut outcomes);
        pos.play_unchecked(outcomes[0].0);
    }
    let eval = Threes::evaluator("").unwrap();
    let cfg = SearchConfig {
        algorithm: Algorithm::Expectimax,
        depth: 2,
        threads: 2,
        ..SearchConfig::default()
    };
    let e = search(&pos, &eval, &cfg, Hooks::default()).unwrap_err();
    assert!(
        matches!(&e, Error::BadOption { name, .. } if name == "threads"),
        "{e}"
    );
    assert!(e.to_string().contains("expectimax"), "{e}");
    // ...while alpha-beta searches its chance nodes with two threads and plays a legal move.
    let cfg = SearchConfig {
        algorithm: Algorithm::Alphabeta,
        ..cfg
    };
    let r = search(&pos, &eval, &cfg, Hooks::default()).unwrap();
    assert!(is_legal(&pos, r.best.unwrap()));
    assert_eq!(r.stats.workers.len(), 2);
}

#[test]
fn the_protocols_set_threads_and_refuse_bad_counts() {
    use plyscope::protocol::uhp::{Reply, Uhp};
    let mut uhp = Uhp::default();
    let lines = |r: Reply| match r {
        Reply::Lines(l) => l,
        other => panic!("expected lines, got {other:?}"),
    };
    assert_eq!(
        lines(uhp.handle("options set Threads 3")),
        vec!["Threads;int;3;1;1;64".to_string()]
    );
    assert_eq!(uhp.options.threads, 3);
    assert_eq!(uhp.config(Some(2), None).threads, 3);
    for bad in ["0", "65", "many"] {
        let l = lines(uhp.handle(&format!("options set Threads {bad}")));
        assert!(
            l[0].starts_with("err ") && l[0].contains("Threads"),
            "{l:?}"
        );
    }
    assert_eq!(uhp.options.threads, 3, "a refused value changes nothing");

    use plyscope::protocol::driver::SharedBuffer;
    let out = SharedBuffer::default();
    let script =
        "uai\nsetoption name Threads value 2\nsetoption name Threads value 0\nisready\nquit\n";
    plyscope::protocol::uai::run(
        std::io::Cursor::new(script.as_bytes().to_vec()),
        out.clone(),
    );
    let text = out.text();
    assert!(
        text.contains("option name Threads type spin default 1 min 1 max 64"),
        "{text}"
    );
    let errors: Vec<&str> = text.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "only the 0 is refused: {text}");
    assert!(errors[0].contains("Threads"), "{text}");
    assert!(text.contains("readyok"));
}

#[test]
fn the_cli_searches_with_threads_and_refuses_a_bad_count() {
    use std::process::Command;
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_plyscope"))
            .args(args)
            .output()
            .expect("the binary runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, out, err) = run(&[
        "search",
        "reversi",
        "--depth",
        "4",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"workers\""), "{out}");
    let (code, _, err) = run(&["search", "reversi", "--threads", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("threads"), "{err}");
}

/// The test-only hold (`hold_for_helpers`): the main thread starts its search only once every
/// helper has completed an iteration of the hold's depth (a handshake, no clock), so each helper
/// searched at least that deep and the main thread's search used their entries, however the
/// threads were scheduled.
#[test]
fn the_hold_makes_the_main_thread_wait_for_the_helpers_depth() {
    let pos = random_positions::<Reversi>("reversi", 12, 1, 31).remove(0);
    for threads in [2u32, 3] {
        let cfg = SearchConfig {
            depth: 6,
            iterative_deepening: true,
            seed: Some(1),
            threads,
            hold_for_helpers: 6,
            ..SearchConfig::default()
        };
        let r = run(&pos, &cfg);
        assert!(is_legal(&pos, r.best.unwrap()));
        check_workers(&r.stats, threads, 6);
        let w = &r.stats.workers;
        assert!(w[1..].iter().all(|h| h.depth_reached >= 6), "{w:?}");
        assert!(w[0].tt_hits_other > 0, "{w:?}");
    }
    // A helper whose lines all end before the hold's depth counts itself in when it stops.
    let pos = TicTacToe::new_game("tictactoe").unwrap();
    let cfg = SearchConfig {
        hold_for_helpers: 40,
        ..exact(9, 2)
    };
    assert_eq!(run(&pos, &cfg).value, minimax_value(&pos, 9));
}
