//! Tic-tac-toe: perft, complete game counts, the minimax value, and the generic checks.

mod common;

use plyscope::core::{perft, Game, Outcome, PerftConvention, Turn};
use plyscope::games::tictactoe::TicTacToe;
use plyscope::search::{search, Algorithm, Hooks, SearchConfig};
use std::collections::HashSet;

/// Perft that stops at a win (a finished game counts nothing at deeper depths), depths 1..9.
const PERFT: [u64; 9] = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];

#[test]
fn perft_table_matches_games_md() {
    let start = TicTacToe::new();
    for (d, &want) in PERFT.iter().enumerate() {
        assert_eq!(
            perft(&start, d as u32 + 1, PerftConvention::FinishedCountsZero),
            want,
            "depth {}",
            d + 1
        );
    }
}

fn walk(
    pos: &TicTacToe,
    seen: &mut HashSet<String>,
    games: &mut [u64; 3],
    terminal: &mut HashSet<String>,
) {
    seen.insert(pos.position_text());
    if pos.turn() == Turn::Terminal {
        terminal.insert(pos.position_text());
        match pos.outcome() {
            Some(Outcome::Win(p)) => games[p as usize] += 1,
            _ => games[2] += 1,
        }
        return;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    for m in moves {
        let mut c = pos.clone();
        c.play_unchecked(m);
        walk(&c, seen, games, terminal);
    }
}

#[test]
fn complete_games_and_positions() {
    let mut seen = HashSet::new();
    let mut terminal = HashSet::new();
    let mut games = [0u64; 3];
    walk(&TicTacToe::new(), &mut seen, &mut games, &mut terminal);
    assert_eq!(games.iter().sum::<u64>(), 255_168);
    assert_eq!(games, [131_184, 77_904, 46_080], "X wins, O wins, draws");
    assert_eq!(seen.len(), 5_478, "reachable positions");
    assert_eq!(terminal.len(), 958, "terminal positions");
}

#[test]
fn minimax_value_is_a_draw_and_alphabeta_agrees_with_fewer_nodes() {
    let start = TicTacToe::new();
    let eval = plyscope::games::tictactoe::TicTacToeEval::Lines;
    let cfg = SearchConfig {
        depth: 9,
        algorithm: Algorithm::Minimax,
        move_ordering: false,
        seed: Some(3),
        ..Default::default()
    };
    let mm = search(&start, &eval, &cfg, Hooks::default()).unwrap();
    assert_eq!(mm.value, 0.0);
    assert_eq!(
        mm.stats.nodes + 1,
        549_946,
        "minimax visits the whole game tree (549,946 nodes with the root)"
    );
    let ab = search(
        &start,
        &eval,
        &SearchConfig {
            algorithm: Algorithm::Alphabeta,
            ..cfg
        },
        Hooks::default(),
    )
    .unwrap();
    assert_eq!(ab.value, 0.0);
    assert!(
        ab.stats.nodes * 10 < mm.stats.nodes,
        "alpha-beta: {} nodes",
        ab.stats.nodes
    );
}

#[test]
fn search_finds_the_winning_move_and_blocks() {
    let eval = plyscope::games::tictactoe::TicTacToeEval::Lines;
    let cfg = SearchConfig {
        depth: 9,
        seed: Some(1),
        ..Default::default()
    };
    // X to move with two in a row on the top line: a1 b1, O on a2 b2: X wins at c1.
    let pos = TicTacToe::from_position_text("tictactoe", "XX-OO---- X").unwrap();
    let r = search(&pos, &eval, &cfg, Hooks::default()).unwrap();
    assert_eq!(pos.format_move(r.best.unwrap()), "c1");
    // O to move must block X's a1 b1.
    let pos = TicTacToe::from_position_text("tictactoe", "XX--O---- O").unwrap();
    let r = search(&pos, &eval, &cfg, Hooks::default()).unwrap();
    assert_eq!(pos.format_move(r.best.unwrap()), "c1");
}

#[test]
fn bad_position_text_says_where_and_what() {
    let e = TicTacToe::from_position_text("tictactoe", "XXZ------ O").unwrap_err();
    assert_eq!(e.at, 2);
    assert!(e.to_string().contains("'Z'"), "{e}");
    let e = TicTacToe::from_position_text("tictactoe", "XXX------ X").unwrap_err();
    assert!(e.to_string().contains("reachable"), "{e}");
    assert!(TicTacToe::from_position_text("tictactoe", "XO-------").is_err());
    assert!(TicTacToe::new().parse_move("d1").is_err());
}

#[test]
fn generic_checks() {
    let n = common::random_playouts(&TicTacToe::new(), 300, 12, 42);
    assert!(n > 1000);
    let positions = common::random_positions(&TicTacToe::new(), 20, 4, 7);
    common::search_agreement(&positions, 5, "");
}
