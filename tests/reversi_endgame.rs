//! The Reversi endgame solver: exact margins on the FFO test positions #40-#44, and agreement with
//! a plain minimax written against the public game interface on random late positions.

use plyscope::core::{Game, Rng, Turn};
use plyscope::games::reversi::endgame::{estimate, square_name, stable_discs, Solver};
use plyscope::games::reversi::Reversi;

mod common;

/// The FFO endgame test positions #40-#44 (public, from the FFO test suite by Gunnar Andersson):
/// the board from a1 row by row, the side to move, the exact margin and the best moves.
const FFO: [(&str, &str, i32, &[&str]); 5] = [
    (
        "#40",
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
        38,
        &["a2"],
    ),
    (
        "#41",
        "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
        0,
        &["h4"],
    ),
    (
        "#42",
        "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X",
        6,
        &["g2"],
    ),
    (
        "#43",
        "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O",
        -12,
        &["c7", "g3"],
    ),
    (
        "#44",
        "--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O",
        -14,
        &["d2", "b8"],
    ),
];

fn ffo(i: usize) {
    let (name, text, margin, best) = FFO[i];
    let pos = Reversi::from_position_text("reversi", text).unwrap();
    let (p, o) = pos.bitboards().unwrap();
    let s = Solver::new().solve(p, o).unwrap();
    assert_eq!(s.margin, margin, "FFO {name}");
    let m = square_name(s.best.expect("a move"));
    assert!(
        best.contains(&m.as_str()),
        "FFO {name}: {m} is not one of {best:?}"
    );
    // The move is legal and reaches the value.
    let mut after = pos.clone();
    after.play(after.parse_move(&m).unwrap()).unwrap();
}

#[test]
fn ffo_40() {
    ffo(0);
}
#[test]
fn ffo_41() {
    ffo(1);
}
#[test]
fn ffo_42() {
    ffo(2);
}
#[test]
fn ffo_43() {
    ffo(3);
}
#[test]
fn ffo_44() {
    ffo(4);
}

/// The final margin for the side to move, by plain minimax over the game's own moves and rules
/// (empties to the winner).
fn minimax(pos: &Reversi) -> i32 {
    match pos.turn() {
        Turn::Player(me) => {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            moves
                .iter()
                .map(|&m| {
                    let mut next = pos.clone();
                    next.play_unchecked(m);
                    match next.turn() {
                        Turn::Player(p) if p == me => minimax(&next),
                        _ => -minimax(&next),
                    }
                })
                .max()
                .unwrap()
        }
        _ => {
            // Finished: from the view of the player who would move.
            let me = pos.side_to_move();
            let d = pos.discs(me) as i32 - pos.discs(1 - me) as i32;
            let e = pos.empties() as i32;
            d.signum() * (d.abs() + if d != 0 { e } else { 0 })
        }
    }
}

#[test]
fn the_solver_agrees_with_minimax_on_random_endgames() {
    let mut rng = Rng::seeded(11);
    let mut solver = Solver::new();
    let mut checked = 0;
    while checked < 40 {
        let mut pos = Reversi::new(8).unwrap();
        let empties = 6 + rng.below(5) as u32; // 6..10 empty squares
        let mut moves = Vec::new();
        while pos.empties() > empties && pos.turn() != Turn::Terminal {
            pos.legal_moves(&mut moves);
            let m = moves[rng.below(moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
        if pos.turn() == Turn::Terminal {
            continue;
        }
        let (p, o) = pos.bitboards().unwrap();
        let s = solver.solve(p, o).unwrap();
        let want = minimax(&pos);
        assert_eq!(s.margin, want, "{}", pos.position_text());
        if let Some(x) = s.best {
            // The best move reaches the value.
            let mut next = pos.clone();
            next.play(next.parse_move(&square_name(x)).unwrap())
                .unwrap();
            let v = match next.turn() {
                Turn::Player(p) if p == pos.side_to_move() => minimax(&next),
                _ => -minimax(&next),
            };
            assert_eq!(
                v,
                want,
                "best move {} at {}",
                square_name(x),
                pos.position_text()
            );
        }
        // Aspiration from any guess, near or far, ends at the exact value.
        for g in [-64, -20, 0, want, want + 2, want - 10, 64] {
            let a = solver.solve_around(p, o, g).unwrap();
            assert_eq!(a.margin, want, "guess {g} at {}", pos.position_text());
        }
        let e = estimate(p, o);
        assert!(e % 2 == 0 && (-64..=64).contains(&e), "estimate {e}");
        // A narrow window gives a bound on the right side.
        let w = solver.solve_window(p, o, want - 1, want + 1).unwrap();
        assert_eq!(w.margin, want);
        let hi = solver.solve_window(p, o, want + 2, want + 4).unwrap();
        assert!(hi.margin <= want + 2, "fail low gives an upper bound");
        checked += 1;
    }
}

/// The discs `stable_discs` counts for either side keep their colour on every random line of play
/// to the end of the game, and midgame positions do have some (so the check is not empty).
#[test]
fn stable_discs_are_never_flipped() {
    let mut rng = Rng::seeded(5);
    let mut moves = Vec::new();
    let mut counted = 0;
    for _ in 0..300 {
        let mut pos = Reversi::new(8).unwrap();
        let stop_at = 10 + rng.below(40) as u32; // 10..49 empty squares
        while pos.empties() > stop_at && pos.turn() != Turn::Terminal {
            pos.legal_moves(&mut moves);
            pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
        }
        if pos.turn() == Turn::Terminal {
            continue;
        }
        let (p, o) = pos.bitboards().unwrap();
        let (sp, so) = (stable_discs(p, o), stable_discs(o, p));
        assert_eq!(sp & !p, 0, "only the side's own discs");
        assert_eq!(so & !o, 0, "only the side's own discs");
        counted += (sp | so).count_ones();
        let me = pos.side_to_move();
        for _ in 0..4 {
            let mut line = pos.clone();
            while line.turn() != Turn::Terminal {
                line.legal_moves(&mut moves);
                line.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
                let (a, b) = line.bitboards().unwrap();
                let (mine, theirs) = if line.side_to_move() == me {
                    (a, b)
                } else {
                    (b, a)
                };
                assert_eq!(
                    sp & !mine,
                    0,
                    "a stable disc of the side to move turned at {}",
                    pos.position_text()
                );
                assert_eq!(
                    so & !theirs,
                    0,
                    "a stable disc of the other side turned at {}",
                    pos.position_text()
                );
            }
        }
    }
    assert!(
        counted > 300,
        "random midgames have stable discs ({counted} counted)"
    );
}

#[test]
fn stable_discs_on_full_lines_and_corners() {
    // A full board: every disc is stable.
    let p = 0x0F0F_0F0F_0F0F_0F0Fu64;
    assert_eq!(stable_discs(p, !p), p);
    assert_eq!(stable_discs(!p, p), !p);
    // A lone corner disc is stable, a lone centre disc is not.
    assert_eq!(stable_discs(1, 1 << 9), 1);
    assert_eq!(stable_discs(1 << 27, 1 << 28), 0);
    // A run along the first row from the a1 corner is stable up to its first gap.
    assert_eq!(stable_discs(0b0000_0111 | 0b0001_0000, 1 << 9), 0b0000_0111);
}

#[test]
fn a_node_limit_stops_the_solver() {
    let pos = Reversi::from_position_text("reversi", FFO[0].1).unwrap();
    let (p, o) = pos.bitboards().unwrap();
    let mut s = Solver::new().with_node_limit(1000);
    assert!(s.solve(p, o).is_none());
    assert!(s.nodes() >= 1000);
}

/// The AI's own search, run to the end of the game, values a finished game by its disc margin:
/// it finds the solver's margin and a move that reaches it (not merely a quicker win).
#[test]
fn the_search_values_finished_games_by_their_margin() {
    use plyscope::core::Evaluator;
    use plyscope::games::reversi::eval::decided_margin;
    use plyscope::games::reversi::ReversiEval;
    use plyscope::search::{search, Hooks, SearchConfig};
    let mut rng = Rng::seeded(29);
    let mut solver = Solver::new();
    let mut checked = 0;
    while checked < 25 {
        let mut pos = Reversi::new(8).unwrap();
        let empties = 5 + rng.below(4) as u32; // 5..8
        let mut moves = Vec::new();
        while pos.empties() > empties && pos.turn() != Turn::Terminal {
            pos.legal_moves(&mut moves);
            let m = moves[rng.below(moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
        if pos.turn() == Turn::Terminal {
            continue;
        }
        let (p, o) = pos.bitboards().unwrap();
        let exact = solver.solve(p, o).unwrap().margin;
        let cfg = SearchConfig {
            depth: 2 * empties + 2,
            ..Default::default()
        };
        let r = search(&pos, &ReversiEval::Strong, &cfg, Hooks::default()).unwrap();
        let got = decided_margin(r.value).map(|d| d.0).unwrap_or(0);
        assert_eq!(got, exact, "{}: value {}", pos.position_text(), r.value);
        let text = ReversiEval::Strong.describe(r.value).text;
        match exact.signum() {
            1 => assert_eq!(
                text,
                format!("win by {exact} disc{}", if exact == 1 { "" } else { "s" })
            ),
            -1 => assert!(text.starts_with("loss by "), "{text}"),
            _ => assert!(!text.contains("win") && !text.contains("loss"), "{text}"),
        }
        // The chosen move reaches the exact margin.
        let mut next = pos.clone();
        next.play(r.best.unwrap()).unwrap();
        let after = match next.bitboards() {
            Some((np, no)) if next.turn() != Turn::Terminal => {
                let v = solver.solve(np, no).unwrap().margin;
                if next.side_to_move() == pos.side_to_move() {
                    v
                } else {
                    -v
                }
            }
            _ => {
                let me = pos.side_to_move();
                plyscope::games::reversi::eval::final_margin(&next, me)
            }
        };
        assert_eq!(after, exact, "{}", pos.position_text());
        checked += 1;
    }
}

/// FFO #40 after five moves of its best line: 15 empty squares, black to move; a7 is the only
/// move that keeps the win by 38 discs (the next best, d8, wins by 32).
const LATE15: &str = "OOXXXXXXXOXXXXXXOOXOXOOXOOXXOOXXOOXOOOXX-O-OOOOX--O-O--X-------- X";

fn session_at(text: &str) -> Box<dyn plyscope::session::AnySession> {
    let mut s = plyscope::session::new_session("reversi").unwrap();
    s.set_position(text).unwrap();
    s
}

/// The AI switches to the exact solver near the end: it plays the move with the best final margin,
/// reports that margin in discs, and its tree says the solver decided (reason, stat, values).
#[test]
fn the_ai_solves_small_endgames_and_plays_the_best_margin() {
    use plyscope::search::{Hooks, SearchConfig};
    let s = session_at(LATE15);
    let cfg = SearchConfig {
        depth: 4,
        record_tree: true,
        ..Default::default()
    };
    assert!(cfg.exact_endgame >= 15, "the default solves 15 empties");
    let r = s.search(&cfg, Hooks::default()).unwrap();
    assert_eq!(r.mv, "a7");
    assert_eq!(r.reason, "solver");
    assert_eq!(r.value_text.text, "win by 38 discs");
    assert_eq!(r.viewer, "black");
    assert!(r.stats.solver_nodes.is_some_and(|n| n > 0));
    // Every root move: exact margins where said exact, upper bounds otherwise, against the solver
    // asked move by move.
    let pos = Reversi::from_position_text("reversi", LATE15).unwrap();
    let (p, o) = pos.bitboards().unwrap();
    let each = Solver::new().solve_each(p, o).unwrap();
    assert_eq!(r.root_moves.len(), each.len());
    for rm in &r.root_moves {
        let exact = each
            .iter()
            .find(|(x, _)| square_name(*x) == rm.text)
            .expect("a legal move")
            .1;
        let got = plyscope::games::reversi::eval::decided_margin(rm.value).map_or(0, |d| d.0);
        if rm.exact {
            assert_eq!(got, exact, "{}", rm.text);
        } else {
            assert!(
                got >= exact,
                "{}: bound {got} below the exact {exact}",
                rm.text
            );
        }
    }
    // The best line plays to the end of the game and keeps the margin.
    let mut end = pos.clone();
    for m in &r.pv {
        end.play(end.parse_move(m).unwrap()).unwrap();
    }
    assert_eq!(end.turn(), Turn::Terminal, "pv {:?}", r.pv);
    assert_eq!(
        plyscope::games::reversi::eval::final_margin(&end, 0),
        38,
        "pv {:?}",
        r.pv
    );
    // The tree says the solver decided, validates, and reads in discs.
    let doc = r.tree.expect("a tree").to_document();
    assert_eq!(doc.chosen.as_ref().unwrap().reason, "solver");
    assert_eq!(
        doc.chosen.as_ref().unwrap().value_text.as_deref(),
        Some("win by 38 discs")
    );
    assert!(doc.stats.solver_nodes.is_some());
    assert_eq!(doc.root.children.len(), each.len());
    let best = &doc.root.children[0];
    assert!(best.best && best.mv.as_deref() == Some("a7"));
    let mut n = best;
    let mut depth = 1;
    while let Some(c) = n.children.first() {
        n = c;
        depth += 1;
    }
    assert_eq!(depth, r.pv.len(), "the best line is in the tree");
    assert_eq!(n.kind, plyscope::tree::NodeKind::Terminal);
    let v: serde_json::Value = serde_json::from_str(&doc.to_json()).unwrap();
    let errors: Vec<String> = common::tree_schema()
        .iter_errors(&v)
        .take(3)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert!(doc.values.unwrap().margin.is_some());
}

/// The solver honours the search's budget: a stop flag, a node budget it cannot finish within,
/// or `exact_endgame: 0` leave the move to the usual search, which still plays a legal move.
#[test]
fn the_solver_gives_way_to_the_search_when_its_budget_runs_out() {
    use plyscope::search::{Hooks, SearchConfig};
    use std::sync::atomic::AtomicBool;
    // FFO #40 itself: 20 empties, far more than 20,000 positions to solve.
    let s = session_at(FFO[0].1);
    let legal: Vec<String> = s.legal_moves().into_iter().map(|m| m.text).collect();
    let cases: Vec<(&str, SearchConfig, bool)> = vec![
        (
            "a node budget",
            SearchConfig {
                depth: 3,
                node_budget: Some(40_000),
                ..Default::default()
            },
            false,
        ),
        (
            "never",
            SearchConfig {
                depth: 3,
                exact_endgame: 0,
                ..Default::default()
            },
            false,
        ),
        (
            "a stop flag",
            SearchConfig {
                depth: 3,
                ..Default::default()
            },
            true,
        ),
    ];
    for (what, cfg, stopped) in cases {
        let flag = AtomicBool::new(stopped);
        let hooks = Hooks {
            stop: Some(&flag),
            ..Default::default()
        };
        let r = s.search(&cfg, hooks).unwrap();
        assert_ne!(r.reason, "solver", "{what}");
        assert!(r.stats.solver_nodes.is_none(), "{what}");
        assert!(legal.contains(&r.mv), "{what}: {}", r.mv);
    }
}
