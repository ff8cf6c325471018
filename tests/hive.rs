//! Hive: perft tables for every game type, UHP notation, rule edge cases kept as GameStrings, and the
//! generic checks.

mod common;

use plyscope::core::{perft, Game, Outcome, PerftConvention, Turn};
use plyscope::games::hive::notation::parse_piece;
use plyscope::games::hive::{Expansions, Hive, HiveMove};
use plyscope::games::Playable;

fn game(text: &str) -> Hive {
    Hive::from_position_text("hive", text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The reference tables: (GameString, counts from depth 1).
fn perft_table() -> Vec<(String, Vec<u64>)> {
    include_str!("data/hive.perft")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (g, counts) = l.split_once(" ; ").expect("GameString ; counts");
            let counts = counts
                .split_whitespace()
                .map(|n| n.parse().unwrap())
                .collect();
            (g.trim().to_string(), counts)
        })
        .collect()
}

/// Counts above this are left to the hand-run `perft_tables_deep` (release build).
const QUICK_LIMIT: u64 = 3_000_000;

#[test]
fn perft_tables_match_to_depth_5_fast_and_generic() {
    let table = perft_table();
    assert_eq!(table.len(), 8, "one line per game type");
    for (g, counts) in &table {
        let pos = game(g);
        for (d, &want) in counts.iter().enumerate() {
            let depth = d as u32 + 1;
            if want > QUICK_LIMIT {
                continue;
            }
            assert_eq!(pos.perft(depth), want, "fast perft {depth} of {g}");
            if want < 200_000 {
                assert_eq!(
                    perft(&pos, depth, PerftConvention::FinishedCountsZero),
                    want,
                    "generic perft {depth} of {g}"
                );
            }
        }
        assert!(counts.len() >= 6, "{g}: table to depth 6 at least");
    }
}

/// Every figure of the tables, depth 6 and 7 included: `cargo test --release --test hive -- --ignored`.
#[test]
#[ignore]
fn perft_tables_deep() {
    for (g, counts) in perft_table() {
        let pos = game(&g);
        for (d, &want) in counts.iter().enumerate() {
            assert_eq!(pos.perft(d as u32 + 1), want, "perft {} of {g}", d + 1);
        }
    }
}

#[test]
fn fast_perft_agrees_with_generic_perft_on_random_positions() {
    for exp in Expansions::ALL {
        for pos in common::random_positions(&Hive::new(exp), 6, 60, 3) {
            for depth in 1..=2 {
                assert_eq!(
                    pos.perft(depth),
                    perft(&pos, depth, PerftConvention::FinishedCountsZero),
                    "depth {depth} at {}",
                    pos.position_text()
                );
            }
        }
    }
}

#[test]
fn random_playouts_every_game_type() {
    for (i, exp) in Expansions::ALL.iter().enumerate() {
        let n = common::random_playouts(&Hive::new(*exp), 3, 120, i as u64 + 1);
        assert!(n > 100, "{n} positions checked");
    }
}

#[test]
fn game_ids_and_types() {
    for exp in Expansions::ALL {
        let h = Hive::new_game(&exp.game_id()).unwrap();
        assert_eq!(h.expansions(), exp);
        assert_eq!(
            h.position_text(),
            format!("{};NotStarted;White[1]", exp.game_type())
        );
        assert_eq!(game(&exp.game_type()).expansions(), exp);
    }
    assert!(Hive::new_game("hive-X").is_err());
    assert!(Hive::new_game("hive-MM").is_err());
    assert_eq!(game("Base+PLM").expansions().game_type(), "Base+MLP");
}

#[test]
fn move_strings_read_and_write() {
    let h = game("Base;InProgress;Black[1];wS1");
    let m = h.parse_move("bG1 wS1-").unwrap();
    assert_eq!(h.format_move(m), "bG1 wS1-");
    for text in ["bG1 wS1/", "bG1 wS1\\", "bG1 -wS1", "bG1 /wS1", "bG1 \\wS1"] {
        let m = h.parse_move(text).unwrap();
        assert_eq!(h.format_move(m), text);
    }
    assert_eq!(h.parse_move("pass").unwrap(), HiveMove::PASS);
    assert_eq!(h.format_move(HiveMove::PASS), "pass");
    // Syntax errors say what was expected.
    for bad in [
        "",
        "xQ",
        "wS3",
        "bG1 wS1-/",
        "bG1 -wS1-",
        "bG1 wQ-",
        "bG1 wS1- x",
        "bM wS1-",
        "bG1",
    ] {
        let e = h.parse_move(bad).unwrap_err();
        assert!(!e.expected.is_empty(), "{bad:?}");
    }
    assert_eq!(parse_piece("bS2"), Some(14 + 2));
    assert_eq!(parse_piece("wS0"), None);
}

#[test]
fn bad_game_strings_are_typed_errors() {
    for (text, at) in [
        ("Chess;InProgress;White[1]", 0),
        ("Base;InProgress;White[2];wS1", 16),
        ("Base;NotStarted;Black[1];wS1", 5),
        ("Base;InProgress;Black[1];wQ", 25),
        ("Base;InProgress;White[2];wS1;bS1 wS1-;wG1 bS1-", 38),
        ("Base;InProgress", 15),
    ] {
        let e = Hive::from_position_text("hive", text).unwrap_err();
        assert_eq!(e.at, at, "{text}: {e}");
    }
}

// ---- rule edge cases, kept as data positions ----

/// The edge-case positions: `name ; GameString ; check`, where a check is `moves N`, `has MOVE`,
/// `lacks MOVE`, `pass`, `over RESULT` (one or more, separated by ` & `).
fn cases() -> Vec<(String, String, String)> {
    include_str!("data/hive-cases.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(" ; ").collect();
            assert_eq!(f.len(), 3, "name ; GameString ; checks: {l}");
            (f[0].to_string(), f[1].to_string(), f[2].to_string())
        })
        .collect()
}

#[test]
fn rule_edge_cases_from_data() {
    let all = cases();
    assert!(all.len() >= 4, "{} cases", all.len());
    for (name, text, checks) in all {
        let h = game(&text);
        let mut moves = Vec::new();
        h.legal_moves(&mut moves);
        let texts: Vec<String> = moves.iter().map(|&m| h.format_move(m)).collect();
        for check in checks.split(" & ") {
            let (what, arg) = check.split_once(' ').unwrap_or((check, ""));
            match what {
                "moves" => assert_eq!(
                    moves.len(),
                    arg.parse::<usize>().unwrap(),
                    "{name}: {texts:?}"
                ),
                "has" | "lacks" => {
                    let m = h
                        .parse_move(arg)
                        .unwrap_or_else(|e| panic!("{name}: {arg}: {e}"));
                    assert_eq!(
                        moves.contains(&m),
                        what == "has",
                        "{name}: {arg} in {texts:?}"
                    );
                }
                "pass" => assert_eq!(moves, vec![HiveMove::PASS], "{name}"),
                "over" => {
                    let want = match arg {
                        "white" => Outcome::Win(0),
                        "black" => Outcome::Win(1),
                        _ => Outcome::Draw,
                    };
                    assert_eq!(h.turn(), Turn::Terminal, "{name}");
                    assert_eq!(h.outcome(), Some(want), "{name}");
                }
                "state" => assert!(text.contains(arg), "{name}"),
                other => panic!("{name}: unknown check {other}"),
            }
        }
    }
}

/// Prints random positions of every game type as GameStrings, one a line, for the hand-run
/// comparison with another engine (`scripts/hive-perft-compare.sh`):
/// `cargo test --release --test hive dump_random_positions -- --ignored --nocapture`.
#[test]
#[ignore]
fn dump_random_positions() {
    let count: usize = std::env::var("HIVE_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    for (i, exp) in Expansions::ALL.iter().enumerate() {
        for pos in common::random_positions(&Hive::new(*exp), count, 90, 100 + i as u64) {
            println!("POSITION {}", pos.position_text());
        }
    }
}
