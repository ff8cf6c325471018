//! Connect Four's own tests: perft from its data file, the rules at the edges (gravity, full
//! columns, wins in every direction, a full board), and position text errors. The generic suite
//! (tests/catalogue.rs) adds random playouts, search agreement and the board view.

use super::*;
use crate::core::{perft, view_of, Evaluator, MoveKind, Viewable};

fn pos(text: &str) -> Connect4 {
    Connect4::from_position_text("connect4", text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play_all(moves: &str) -> Connect4 {
    let mut p = Connect4::new();
    for c in moves.chars() {
        let m = p.parse_move(&c.to_string()).unwrap();
        p.play(m).unwrap();
    }
    p
}

#[test]
fn perft_matches_the_table() {
    for line in include_str!("connect4.perft").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (text, counts) = line.split_once(';').unwrap();
        let p = pos(text.trim());
        for (d, want) in counts.split_whitespace().enumerate() {
            let want: u64 = want.parse().unwrap();
            let depth = d as u32 + 1;
            assert_eq!(p.perft_fast(depth), want, "perft {depth} of {text}");
            if depth <= 6 {
                // The generic perft over the Game trait agrees.
                assert_eq!(perft(&p, depth, PerftConvention::FinishedCountsZero), want);
            }
        }
    }
}

#[test]
fn discs_fall_and_full_columns_are_refused() {
    let mut p = play_all("444444");
    assert_eq!(
        p.position_text(),
        "...o.../...x.../...o.../...x.../...o.../...x... x"
    );
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert_eq!(moves, vec![0, 1, 2, 4, 5, 6]);
    let e = p.play(3).unwrap_err();
    assert!(e.to_string().contains("full"), "{e}");
    assert_eq!(p.discs_played(), 6, "a refused move changes nothing");
}

#[test]
fn four_in_a_row_wins_in_every_direction() {
    // Across, up, and both diagonals; x moves first.
    for (moves, winner) in [
        ("1122334", 0),      // x across the bottom
        ("1212121", 0),      // x up column 1
        ("12233434474", 0),  // x on the rising diagonal from column 1
        ("53234632422", 0),  // x on a falling diagonal
        ("17261465", 1),     // o across
        ("22327242", 1),     // o up column 2
        ("3243445555", 1),   // o on a rising diagonal
        ("674675441455", 1), // o on a falling diagonal
    ] {
        let p = play_all(moves);
        assert_eq!(p.turn(), Turn::Terminal, "{moves}");
        assert_eq!(p.outcome(), Some(Outcome::Win(winner)), "{moves}");
        let mut ms = Vec::new();
        p.legal_moves(&mut ms);
        assert!(ms.is_empty());
    }
}

#[test]
fn a_full_board_without_four_is_a_draw() {
    // Columns filled in pairs so that no line of four forms.
    let p = play_all("121212343434565656777777212121434343656565");
    assert_eq!(p.discs_played(), 42);
    assert_eq!(p.outcome(), Some(Outcome::Draw));
}

#[test]
fn position_text_round_trips_and_bad_text_says_where() {
    let p = play_all("4453");
    let t = p.position_text();
    assert_eq!(pos(&t), p);
    assert_eq!(pos(&t).zobrist(), p.zobrist());
    for (bad, needle) in [
        ("......./......./......./......./......./...q... o", "x, o or ."),
        ("......./......./......./......./......./...x.. o", "row 6"),
        ("......./......./......./......./...x.../....... o", "rest on"),
        ("......./......./......./......./......./...x... x", "reachable"),
        ("......./......./......./......./......./...x... o extra", "end of text"),
    ] {
        let e = Connect4::from_position_text("connect4", bad).unwrap_err().to_string();
        assert!(e.contains(needle), "{bad}: {e}");
    }
    assert!(p.parse_move("8").is_err());
    assert!(p.parse_move("0").is_err());
    assert_eq!(p.parse_move(" 7 ").unwrap(), 6);
}

#[test]
fn a_move_lands_where_the_view_says() {
    let p = play_all("44");
    let v = view_of(&p, None);
    let m = v.find_move("4").unwrap();
    assert_eq!(m.kind, MoveKind::Place);
    assert_eq!(m.to, Some(crate::core::Coord::new(3, 3)), "third disc of column 4");
    assert_eq!(p.board_view().cells.len(), 42);
}

#[test]
fn the_evaluator_sees_an_open_three() {
    let eval = Connect4Eval::Threats;
    let p = play_all("1727"); // x on 1 and 2, o twice on 7
    let q = play_all("17273"); // x adds 3: three in an open line
    let mut none = crate::core::NoTerms;
    assert!(eval.evaluate(&q, 0, &mut none) > eval.evaluate(&p, 0, &mut none));
    let mut b = crate::core::Breakdown::default();
    let v = eval.evaluate(&q, 0, &mut b);
    let sum: f64 = b.terms.iter().map(|t| t.value).sum();
    assert!((v - sum).abs() < 1e-9, "the terms add up to the value");
}

/// `unstable` (the quiescence trigger) is a win in one for the side to move: across, up, with a
/// gap, on both diagonals; not the other side's threat, not a winning cell that floats above an
/// empty one, not a finished game, not the start.
#[test]
fn a_win_in_one_for_the_side_to_move_is_unstable() {
    for (moves, unstable) in [
        ("112233", true),      // x: three across the bottom, column 4 open
        ("121212", true),      // x: three up column 1
        ("1223343447", true),  // x: the rising diagonal, completed on 4
        ("5323463242", true),  // x: a falling diagonal, completed on 2
        ("11224473", false),   // x blocked; o's gap on the second row is x's to fill
        ("11223", false),      // x's three across is x's, and o is to move
        ("1122337", false),    // o's three on the second row: the cell on 4 floats
        ("1122334", false),    // the game is over
        ("", false),
    ] {
        let p = play_all(moves);
        assert_eq!(p.unstable(), unstable, "{moves}");
    }
}

/// `can_win_now` agrees with trying every move, on positions of random games.
#[test]
fn can_win_now_agrees_with_trying_every_move() {
    let mut rng = crate::core::Rng::seeded(21);
    let (mut checked, mut wins) = (0, 0);
    let mut moves = Vec::new();
    for _ in 0..400 {
        let mut p = Connect4::new();
        while !p.is_over() {
            p.legal_moves(&mut moves);
            let by_trying = moves.iter().any(|&m| {
                let mut c = p.clone();
                c.play_unchecked(m);
                c.outcome() == Some(Outcome::Win(p.to_move))
            });
            assert_eq!(p.can_win_now(), by_trying, "{}", p.position_text());
            checked += 1;
            wins += by_trying as u32;
            let m = moves[rng.below(moves.len() as u64) as usize];
            p.play_unchecked(m);
        }
    }
    assert!(checked > 5000 && wins > 300, "{checked} positions, {wins} with a win in one");
}
