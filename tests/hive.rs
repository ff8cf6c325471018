//! Hive: perft tables for every game type, UHP notation, rule edge cases kept as GameStrings, and the
//! generic checks.

mod common;

use plyscope::core::{perft, Game, Outcome, PerftConvention, Turn};
use plyscope::games::hive::notation::parse_piece;
use plyscope::games::hive::{Expansions, Hive, HiveMove};
use plyscope::games::Playable;

/// Random unfinished positions of every game type (`count` a type, each after up to `max_plies`
/// random plies from the start, drawn from `seed`), each with its legal moves.
fn live_positions(count: usize, max_plies: usize, seed: u64) -> Vec<(Hive, Vec<HiveMove>)> {
    Expansions::ALL
        .into_iter()
        .flat_map(|exp| common::random_positions(&Hive::new(exp), count, max_plies, seed))
        .filter(|pos| pos.outcome().is_none())
        .map(|pos| {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            (pos, moves)
        })
        .collect()
}

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

/// Checks the neighbour counts `make` keeps against the board, on every cell.
fn assert_neighbour_counts(h: &Hive) {
    use plyscope::games::hive::{nb, side_of, CELLS, NONE};
    for cell in 0..CELLS as u16 {
        for s in 0..2u8 {
            let want = (0..6)
                .filter(|&d| {
                    let t = h.top(nb(cell, d));
                    t != NONE && side_of(t) == s
                })
                .count() as u32;
            assert_eq!(
                h.side_neighbours(cell, s),
                want,
                "cell {cell} side {s} in {h:?}"
            );
        }
    }
}

#[test]
fn neighbour_counts_follow_make_and_unmake() {
    for exp in Expansions::ALL {
        for pos in common::random_positions(&Hive::new(exp), 3, 80, 11) {
            assert_neighbour_counts(&pos);
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let mut h = pos.clone();
            for m in moves {
                let u = h.make(m);
                assert_neighbour_counts(&h);
                h.unmake(m, u);
            }
            assert_neighbour_counts(&h);
            assert_eq!(h, pos);
        }
    }
}

/// The evaluator's quick "can this piece move" (first destination found) agrees with the full
/// walk of its destinations, for every piece on top of its stack in random positions of every
/// game type (ants, spiders, ladybugs and mosquitoes on the ground and on top included).
#[test]
fn quick_mobility_agrees_with_the_full_walk() {
    use plyscope::games::hive::{IN_HAND, PIECES};
    let (mut moving, mut stuck) = (0, 0);
    for exp in Expansions::ALL {
        for pos in common::random_positions(&Hive::new(exp), 40, 90, 23) {
            for p in 0..PIECES as u8 {
                let c = pos.pos(p);
                if !pos.in_game(p) || c == IN_HAND || pos.top(c) != p {
                    continue;
                }
                let walk = pos.can_move_somewhere_by_walk(p);
                assert_eq!(
                    pos.can_move_somewhere(p),
                    walk,
                    "piece {p} in {}",
                    pos.position_text()
                );
                if walk {
                    moving += 1;
                } else {
                    stuck += 1;
                }
            }
        }
    }
    // Both answers occur, so the comparison checked something either way.
    assert!(moving > 100 && stuck > 20, "{moving} moving, {stuck} stuck");
}

/// The pre-score computed from the parent and the move (the search's way, without making the
/// child) is exactly the pre-score of the child, for every legal move of random positions of
/// every game type, from both sides.
#[test]
fn prescore_without_the_child_is_the_childs_prescore() {
    use plyscope::core::{Evaluator, NoTerms};
    use plyscope::games::hive::HiveEval;
    let mut n = 0;
    for (pos, moves) in live_positions(12, 90, 53) {
        for m in moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            for side in 0..2 {
                let made = HiveEval::Strong.prescore(&child, side, &mut NoTerms);
                let quick = HiveEval::Strong.prescore_move(&pos, m, side);
                assert_eq!(
                    quick.map(f64::to_bits),
                    Some(made.to_bits()),
                    "{} in {}",
                    pos.format_move(m),
                    pos.position_text()
                );
                n += 1;
            }
        }
    }
    assert!(n > 2000, "{n} moves");
}

/// The one-hive pins (articulation points) agree with a flood fill of the ground pieces without
/// each piece in turn, on random positions of every game type.
#[test]
fn pinned_pieces_agree_with_a_flood_fill() {
    use plyscope::games::hive::{nb, IN_HAND, PIECES};
    let mut pins = 0;
    for exp in Expansions::ALL {
        for pos in common::random_positions(&Hive::new(exp), 25, 90, 41) {
            let ground: Vec<u8> = (0..PIECES as u8)
                .filter(|&p| pos.pos(p) != IN_HAND && pos.level(p) == 0)
                .collect();
            let mut expected = 0u32;
            for &gone in &ground {
                let cells: Vec<u16> = ground
                    .iter()
                    .filter(|&&p| p != gone)
                    .map(|&p| pos.pos(p))
                    .collect();
                if cells.is_empty() {
                    continue;
                }
                let mut seen = vec![cells[0]];
                let mut i = 0;
                while i < seen.len() {
                    let c = seen[i];
                    i += 1;
                    for d in 0..6 {
                        let e = nb(c, d);
                        if cells.contains(&e) && !seen.contains(&e) {
                            seen.push(e);
                        }
                    }
                }
                if seen.len() < cells.len() {
                    expected |= 1 << gone;
                }
            }
            assert_eq!(pos.pinned(), expected, "{}", pos.position_text());
            pins += expected.count_ones();
        }
    }
    assert!(pins > 50, "{pins} pins");
}

/// The single-move legality check used by the search's staged generation agrees with the move
/// list: on random positions of every game type, each generated move is legal, and every other
/// pair of a piece and a cell next to the hive (placements, movements, throws of either colour)
/// is not.
#[test]
fn single_move_legality_agrees_with_the_move_list() {
    use plyscope::games::hive::{nb, PIECES};
    let (mut legal, mut illegal) = (0, 0);
    for (pos, moves) in live_positions(12, 90, 31) {
        let mut cells: Vec<u16> = Vec::new();
        for p in 0..PIECES as u8 {
            let c = pos.pos(p);
            if pos.in_game(p) && c != plyscope::games::hive::IN_HAND {
                cells.push(c);
                cells.extend((0..6).map(|d| nb(c, d)));
            }
        }
        cells.push(plyscope::games::hive::CENTER);
        cells.sort_unstable();
        cells.dedup();
        for p in 0..PIECES as u8 {
            for &to in &cells {
                let m = HiveMove { piece: p, to };
                let expected = moves.contains(&m);
                assert_eq!(
                    pos.surely_legal(m),
                    expected,
                    "{} in {}",
                    pos.format_move(m),
                    pos.position_text()
                );
                if expected {
                    legal += 1;
                } else {
                    illegal += 1;
                }
            }
        }
        assert!(!pos.surely_legal(HiveMove::PASS));
    }
    assert!(
        legal > 1000 && illegal > 1000,
        "{legal} legal, {illegal} illegal"
    );
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
    assert!(all.len() >= 17, "{} cases", all.len());
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
                "count" => {
                    let (piece, n) = arg.split_once(' ').expect("count PIECE N");
                    let p = parse_piece(piece).expect("a piece name");
                    let got = moves.iter().filter(|m| m.piece == p).count();
                    assert_eq!(
                        got,
                        n.parse::<usize>().unwrap(),
                        "{name}: moves of {piece} in {texts:?}"
                    );
                }
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

// ---- the hand-run finder of the edge-case positions above ----

/// Moves of piece `p` among `moves`.
fn moves_of(moves: &[HiveMove], p: u8) -> Vec<HiveMove> {
    moves.iter().copied().filter(|m| m.piece == p).collect()
}

/// Searches random (partly greedy) games for positions showing each rule edge case and prints them
/// in the format of `tests/data/hive-cases.txt` (checks computed by this engine; compare them with
/// another engine's `validmoves` before keeping them):
/// `cargo test --release --test hive find_edge_cases -- --ignored --nocapture`.
#[test]
#[ignore]
fn find_edge_cases() {
    use plyscope::core::Rng;
    use plyscope::games::hive::{bug_of, nb, Bug, NONE};
    let mut found: std::collections::BTreeMap<&str, String> = Default::default();
    let mut rng = Rng::seeded(7);
    let games: usize = std::env::var("HIVE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    for g in 0..games {
        let exp = Expansions::ALL[g % 8];
        let mut h = Hive::new(exp);
        let style = g % 3; // 0 random, 1 surround the queens, 2 starve the opponent
        for _ply in 0..160 {
            if h.turn() == Turn::Terminal {
                if h.outcome() == Some(Outcome::Draw)
                    && h.queen_neighbours(0) == 6
                    && h.queen_neighbours(1) == 6
                {
                    found
                        .entry("both queens surrounded")
                        .or_insert(format!("{} ; over draw", h.position_text()));
                }
                break;
            }
            let mut moves = Vec::new();
            h.legal_moves(&mut moves);
            let s = h.side();
            let text = h.position_text();
            let name = |p: u8| plyscope::games::hive::piece_name(p);
            if moves == vec![HiveMove::PASS] {
                found.entry("passing").or_insert(format!("{text} ; pass"));
            }
            let pinned = h.pinned();
            for slot in 0..14u8 {
                let p = s * 14 + slot;
                let c = h.pos(p);
                if c == plyscope::games::hive::IN_HAND || h.top(c) != p || !h.queen_placed(s) {
                    continue;
                }
                let own = moves_of(&moves, p);
                let free = h.level(p) == 0 && pinned & (1 << p) == 0 && h.last_moved() != p;
                let bug = bug_of(p);
                // Gates and contact on the ground.
                if free && bug == Bug::Queen {
                    for d in 0..6 {
                        let b = nb(c, d);
                        if h.height(b) != 0 {
                            continue;
                        }
                        let o1 = h.height(nb(c, (d + 5) % 6)) != 0;
                        let o2 = h.height(nb(c, (d + 1) % 6)) != 0;
                        let m = HiveMove { piece: p, to: b };
                        let mt = h.format_move(m);
                        if o1 && o2 && !mt.ends_with('?') {
                            found
                                .entry("gate: no slide between two pieces")
                                .or_insert(format!("{text} ; lacks {mt}"));
                        }
                        let touches = (0..6).any(|k| {
                            let n = nb(b, k);
                            n != c && h.height(n) != 0
                        });
                        if !o1 && !o2 && touches && !mt.ends_with('?') {
                            found
                                .entry("one hive in transit: no step that loses touch")
                                .or_insert(format!("{text} ; lacks {mt}"));
                        }
                    }
                }
                if bug == Bug::Beetle && h.level(p) > 0 {
                    for d in 0..6 {
                        let b = nb(c, d);
                        let hf = h.height(c) - 1;
                        let ht = h.height(b);
                        let h1 = h.height(nb(c, (d + 5) % 6));
                        let h2 = h.height(nb(c, (d + 1) % 6));
                        let m = HiveMove { piece: p, to: b };
                        if h1.min(h2) > hf.max(ht) {
                            found
                                .entry("gate: no climb between two higher stacks")
                                .or_insert(format!("{text} ; lacks {}", h.format_move(m)));
                        } else if hf.max(ht) >= 1
                            && h1.min(h2) >= 1
                            && h1.max(h2) >= 2
                            && own.contains(&m)
                        {
                            found
                                .entry("gate: a beetle on top passes lower stacks")
                                .or_insert(format!("{text} ; has {}", h.format_move(m)));
                        }
                    }
                }
                if bug == Bug::Mosquito
                    && h.level(p) > 0
                    && free == false
                    && h.last_moved() != p
                    && !own.is_empty()
                {
                    found
                        .entry("mosquito on top moves as a beetle")
                        .or_insert(format!(
                            "{text} ; count {} {} & has {}",
                            name(p),
                            own.len(),
                            h.format_move(own[0])
                        ));
                }
                if bug == Bug::Mosquito && h.level(p) == 0 && free {
                    let ns: Vec<u8> = (0..6)
                        .map(|d| h.top(nb(c, d)))
                        .filter(|&t| t != NONE)
                        .collect();
                    if !ns.is_empty() && ns.iter().all(|&t| bug_of(t) == Bug::Mosquito) {
                        found
                            .entry("mosquito next to a mosquito only")
                            .or_insert(format!("{text} ; count {} 0", name(p)));
                    }
                }
                if bug == Bug::Ladybug && free && own.len() >= 3 {
                    found.entry("ladybug paths").or_insert(format!(
                        "{text} ; count {} {} & has {}",
                        name(p),
                        own.len(),
                        h.format_move(own[own.len() / 2])
                    ));
                }
                if bug == Bug::Pillbug && h.level(p) == 0 && h.last_moved() != p {
                    for d in 0..6 {
                        let x = nb(c, d);
                        let t = h.top(x);
                        if t == NONE {
                            continue;
                        }
                        let empty = (0..6).map(|e| nb(c, e)).find(|&y| h.height(y) == 0);
                        let Some(y) = empty else { continue };
                        let m = HiveMove { piece: t, to: y };
                        let mt = h.format_move(m);
                        if mt.ends_with('?') {
                            continue;
                        }
                        if t == h.last_moved() && side_of_piece(t) != s {
                            found
                                .entry("pillbug: not the piece just moved")
                                .or_insert(format!("{text} ; lacks {mt}"));
                        } else if h.level(t) > 0 {
                            found
                                .entry("pillbug: not a piece in a stack")
                                .or_insert(format!("{text} ; lacks {mt}"));
                        } else if side_of_piece(t) != s && moves.contains(&m) {
                            found
                                .entry("pillbug throws an enemy piece")
                                .or_insert(format!("{text} ; has {mt}"));
                        }
                    }
                }
            }
            // A piece the opponent's pillbug just threw can't move now.
            let lm = h.last_moved();
            if lm != NONE
                && side_of_piece(lm) == s
                && h.top(h.pos(lm)) == lm
                && h.can_move_somewhere(lm)
                && h.queen_placed(s)
            {
                found
                    .entry("a thrown piece rests a turn")
                    .or_insert(format!("{text} ; count {} 0", name(lm)));
            }
            // Choose a move.
            let pick = match style {
                1 if rng.below(4) != 0 => {
                    let score = |m: HiveMove| {
                        let mut c = h.clone();
                        c.play_unchecked(m);
                        c.queen_neighbours(0).min(c.queen_neighbours(1)) * 10
                            + c.queen_neighbours(0)
                            + c.queen_neighbours(1)
                    };
                    let best = moves.iter().map(|&m| score(m)).max().unwrap();
                    let top: Vec<HiveMove> = moves
                        .iter()
                        .copied()
                        .filter(|&m| score(m) == best)
                        .collect();
                    top[rng.below(top.len() as u64) as usize]
                }
                2 if rng.below(3) != 0 => {
                    let score = |m: HiveMove| {
                        let mut c = h.clone();
                        c.play_unchecked(m);
                        let mut v = Vec::new();
                        c.legal_moves(&mut v);
                        v.len()
                    };
                    let best = moves.iter().map(|&m| score(m)).min().unwrap();
                    let top: Vec<HiveMove> = moves
                        .iter()
                        .copied()
                        .filter(|&m| score(m) == best)
                        .collect();
                    top[rng.below(top.len() as u64) as usize]
                }
                _ => moves[rng.below(moves.len() as u64) as usize],
            };
            h.play_unchecked(pick);
        }
    }
    for (k, v) in &found {
        println!("CASE {k} ; {v}");
    }
}

fn side_of_piece(p: u8) -> u8 {
    p / 14
}

#[test]
fn weighted_random_openings_frequencies() {
    use plyscope::core::Rng;
    use plyscope::games::hive::opening::{book_move, is_x, quotient, shape, Shape, FIRST, SECOND};
    use plyscope::games::hive::{bug_of, Bug};
    let mut rng = Rng::seeded(2024);
    let n = 3000;
    let mut first: std::collections::HashMap<Bug, usize> = Default::default();
    let mut shapes: std::collections::HashMap<Shape, usize> = Default::default();
    let (mut queens_second, mut x) = (0, 0);
    for _ in 0..n {
        let mut h = Hive::base();
        for _ in 0..4 {
            let m = book_move(&h, &mut rng).expect("a book move in the first two turns");
            h.play(m).unwrap();
        }
        assert_eq!(book_move(&h, &mut rng), None, "the third turn is searched");
        let moves = h.moves();
        *first.entry(bug_of(moves[0].piece)).or_default() += 1;
        *first.entry(bug_of(moves[1].piece)).or_default() += 1;
        queens_second += (bug_of(moves[2].piece) == Bug::Queen) as usize;
        queens_second += (bug_of(moves[3].piece) == Bug::Queen) as usize;
        x += is_x(&h, 0) as usize + is_x(&h, 1) as usize;
        *shapes
            .entry(shape(&h).expect("four placements"))
            .or_default() += 1;
    }
    // First placements: the table's weights over the base game's bugs.
    let base = |b: Bug| !matches!(b, Bug::Mosquito | Bug::Ladybug | Bug::Pillbug);
    let total: f64 = FIRST.iter().filter(|e| base(e.0)).map(|e| e.1).sum();
    for (bug, w) in FIRST.iter().filter(|e| base(e.0)) {
        let got = first.get(bug).copied().unwrap_or(0) as f64 / (2 * n) as f64;
        assert!(
            (got - w / total).abs() < 0.03,
            "{bug:?}: {got} against {}",
            w / total
        );
    }
    let q_total: f64 = SECOND.iter().filter(|e| base(e.0)).map(|e| e.1).sum();
    let q_share = queens_second as f64 / (2 * n) as f64;
    assert!(
        (q_share - SECOND[0].1 / q_total).abs() < 0.02,
        "queen second {q_share}"
    );
    // X openings (no queen by the second placement) are rare but happen.
    assert_eq!(x, 2 * n - queens_second);
    assert!(x > 0 && (x as f64) < 0.1 * (2 * n) as f64, "{x} X openings");
    // Every shape occurs, at about its share of the three cells each second piece may take.
    for (s, want) in [
        (Shape::I, 1.0 / 9.0),
        (Shape::L, 4.0 / 9.0),
        (Shape::C, 2.0 / 9.0),
        (Shape::Z, 2.0 / 9.0),
    ] {
        let got = shapes.get(&s).copied().unwrap_or(0) as f64 / n as f64;
        assert!((got - want).abs() < 0.04, "{s:?}: {got} against {want}");
    }
    // The third move is searched with a randomness quotient of 2, later ones with the player's.
    let mut h = Hive::base();
    for _ in 0..4 {
        let m = book_move(&h, &mut rng).unwrap();
        h.play(m).unwrap();
    }
    assert_eq!(quotient(&h, 8), 2);
    assert_eq!(quotient(&h, 0), 0, "no randomness stays none");
    let mut moves = Vec::new();
    h.legal_moves(&mut moves);
    h.play(moves[0]).unwrap();
    h.legal_moves(&mut moves);
    h.play(moves[0]).unwrap();
    assert_eq!(quotient(&h, 8), 8);
}

#[test]
fn search_plays_book_moves_then_searches() {
    use plyscope::search::{Hooks, SearchConfig};
    use plyscope::session::new_session;
    let mut s = new_session("hive-MLP").unwrap();
    let cfg = SearchConfig {
        depth: 2,
        randomness_quotient: 8,
        seed: Some(5),
        branching_limit: 30,
        ..Default::default()
    };
    for _ in 0..4 {
        let r = s.search(&cfg, Hooks::default()).unwrap();
        assert_eq!(r.reason, "opening");
        s.play(&r.mv).unwrap();
    }
    let r = s.search(&cfg, Hooks::default()).unwrap();
    assert_ne!(r.reason, "opening");
    assert!(r.stats.nodes > 0);
    // Without randomness, even the first move is searched.
    let s = new_session("hive").unwrap();
    let r = s
        .search(
            &SearchConfig {
                depth: 2,
                ..Default::default()
            },
            Hooks::default(),
        )
        .unwrap();
    assert_ne!(r.reason, "opening");
}

#[test]
fn minimax_and_alphabeta_agree() {
    for exp in [Expansions::default(), Expansions::ALL[7]] {
        let positions = common::random_positions(&Hive::new(exp), 3, 40, 9);
        common::search_agreement(&positions, 2, "");
        common::search_agreement(&positions, 2, "queens");
    }
}

#[test]
fn evaluation_is_symmetric_and_terms_add_up() {
    use plyscope::core::{Breakdown, Evaluator, NoTerms};
    use plyscope::games::hive::HiveEval;
    for exp in Expansions::ALL {
        for pos in common::random_positions(&Hive::new(exp), 4, 80, 21) {
            let e = HiveEval::Strong;
            let a = e.evaluate(&pos, 0, &mut NoTerms);
            let b = e.evaluate(&pos, 1, &mut NoTerms);
            assert!((a + b).abs() < 1e-9, "{a} {b}");
            let mut br = Breakdown::default();
            let t = e.evaluate(&pos, 0, &mut br);
            let sum: f64 = br.terms.iter().map(|t| t.value).sum();
            assert!((t - sum).abs() < 1e-9 && (t - a).abs() < 1e-9);
            assert!(br.terms.iter().any(|t| t.name == "queen liberties"));
        }
    }
}

/// The fast perft stops when its budget says so, so that a protocol's `stop` ends it at once: a
/// stop flag already raised ends a depth-9 count (days of work) after a few dozen nodes two plies
/// above the leaves, a budget of leaves ends it once they are counted, and neither changes the
/// position. An unlimited budget gives the table's counts.
#[test]
fn fast_perft_is_stoppable_by_flag_and_by_leaves() {
    use plyscope::core::PerftBudget;
    use std::sync::atomic::AtomicBool;
    let start = Hive::new_game("hive").unwrap();
    let text = start.position_text();
    let stop = AtomicBool::new(true);
    let mut budget = PerftBudget::default().with_stop(&stop);
    assert_eq!(start.perft_within(9, &mut budget), None);
    assert!(budget.stopped());
    assert!(
        budget.leaves() < 64 * 2_000,
        "stopped late: {} leaves",
        budget.leaves()
    );
    let mut budget = PerftBudget::default().with_max_leaves(10_000);
    assert_eq!(start.perft_within(9, &mut budget), None);
    assert!(
        (10_000..15_000).contains(&budget.leaves()),
        "{}",
        budget.leaves()
    );
    assert_eq!(
        start.position_text(),
        text,
        "a stopped perft leaves the position as it was"
    );
    let mut budget = PerftBudget::default();
    assert_eq!(start.perft_within(4, &mut budget), Some(21_600));
    assert_eq!(budget.leaves(), 21_600, "every leaf counted once");
}

/// The board view names each piece on the board as UHP does, without the colour (`S1`, `Q`), so
/// that the page can show which Spider is which; pieces in hand keep the bug's letter.
#[test]
fn board_view_labels_pieces_with_their_numbers() {
    use plyscope::core::Viewable;
    let g = game("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bB1 bS1-");
    let v = g.board_view();
    let mut labels: Vec<String> = v
        .cells
        .iter()
        .flat_map(|c| c.pieces.iter())
        .map(|p| {
            format!(
                "{}{}",
                p.owner.unwrap_or(9),
                p.label.clone().unwrap_or_default()
            )
        })
        .collect();
    labels.sort();
    assert_eq!(labels, ["0Q", "0S1", "1B1", "1S1"]);
    let hand: Vec<String> = v.hands[0]
        .iter()
        .map(|h| h.piece.label.clone().unwrap_or_default())
        .collect();
    assert!(
        hand.contains(&"S".to_string()) && hand.contains(&"A".to_string()),
        "{hand:?}"
    );
}

/// The strong evaluator's breakdown of `pos` from `side`'s view: (term name, raw measure).
fn hive_terms(pos: &Hive, side: u8) -> Vec<(String, f64)> {
    use plyscope::core::{Breakdown, Evaluator};
    use plyscope::games::hive::HiveEval;
    let mut br = Breakdown::default();
    HiveEval::Strong.evaluate(pos, side as _, &mut br);
    br.terms.into_iter().map(|t| (t.name, t.raw)).collect()
}

fn raw_term(pos: &Hive, side: u8, name: &str) -> f64 {
    hive_terms(pos, side)
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no term {name:?}"))
        .1
}

/// White's queen with four of its six cells taken (its grasshopper east, two ants north-east and
/// south-east, a black ant west); black's queen with one (its own pinned grasshopper).
const FOUR_AROUND_WHITE_QUEEN: &str = "Base;InProgress;White[5];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;\
    wA1 wQ/;bA1 bQ-;wA2 wQ\\;bA1 -wQ";

/// The queen-in-danger term: four taken cells around white's queen give white a danger of 1,
/// black's queen (one taken) none, so the term is -1 for white and +1 for black (weight negative:
/// it costs white). With three taken (before the black ant arrives) it is zero for both.
#[test]
fn eval_queen_in_danger_counts_the_last_cells() {
    let pos = game(FOUR_AROUND_WHITE_QUEEN);
    assert_eq!(pos.queen_neighbours(0), 4);
    assert_eq!(raw_term(&pos, 0, "queen in danger"), 1.0);
    assert_eq!(raw_term(&pos, 1, "queen in danger"), -1.0);
    let three =
        game("Base;InProgress;Black[4];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wA1 wQ/;bA1 bQ-;wA2 wQ\\");
    assert_eq!(three.queen_neighbours(0), 3);
    assert_eq!(raw_term(&three, 0, "queen in danger"), 0.0);
}

/// Free pieces at one's own queen: white's two ants next to its queen can leave (counted), its
/// grasshopper there is pinned by the one-hive rule (not counted), and black's only piece next to
/// its queen is pinned: +2 for white.
#[test]
fn eval_free_pieces_at_own_queen_skip_pinned_ones() {
    let pos = game(FOUR_AROUND_WHITE_QUEEN);
    assert_eq!(raw_term(&pos, 0, "free pieces at own queen"), 2.0);
    assert_eq!(raw_term(&pos, 1, "free pieces at own queen"), -2.0);
    // Before any ant: only the pinned grasshopper touches white's queen.
    let early = game("Base;InProgress;White[3];wG1;bG1 wG1-;wQ -wG1;bQ bG1-");
    assert_eq!(raw_term(&early, 0, "free pieces at own queen"), 0.0);
}

/// A piece touching the enemy queen earns no mobility: black's ant west of white's queen is not a
/// mobile ant, white's two free ants are, so white leads by 2 (it would be 1 if the committed ant
/// counted); it still counts as touching white's queen.
#[test]
fn eval_pieces_at_the_enemy_queen_earn_no_mobility() {
    let pos = game(FOUR_AROUND_WHITE_QUEEN);
    assert_eq!(raw_term(&pos, 0, "mobile ants"), 2.0);
    assert_eq!(raw_term(&pos, 0, "pieces touching enemy queen"), -1.0);
    // Before the ant reaches the queen it is mobile: 2 against 1.
    let before =
        game("Base;InProgress;Black[4];wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wA1 wQ/;bA1 bQ-;wA2 wQ\\");
    assert_eq!(raw_term(&before, 0, "mobile ants"), 1.0);
}

/// Pieces on top of the hive: white's beetle climbed on its own queen counts +1 for white, and
/// nothing is on top before it climbs.
#[test]
fn eval_pieces_on_top_of_the_hive() {
    let moves = "wB1;bB1 wB1-;wQ -wB1;bQ bB1-;wB2 \\wQ;bA1 bQ-";
    let before = game(&format!("Base;InProgress;White[4];{moves}"));
    assert_eq!(raw_term(&before, 0, "pieces on top of the hive"), 0.0);
    let after = game(&format!("Base;InProgress;Black[4];{moves};wB2 wQ"));
    assert_eq!(raw_term(&after, 0, "pieces on top of the hive"), 1.0);
    assert_eq!(raw_term(&after, 1, "pieces on top of the hive"), -1.0);
}

/// The quiescence extension's trigger: with five of white's queen's six cells taken, black to
/// move may win at once (unstable), white to move may not (stable: the extension must not chain),
/// four taken cells are stable, and so is the start.
#[test]
fn a_win_in_one_for_the_side_to_move_is_unstable() {
    let moves = "wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wA1 wQ/;bA1 bQ-;wA2 wQ\\;bA1 -wQ;\
         wS1 wA2\\;bA2 bQ-;wS2 wS1\\;bA2 \\wQ";
    let white_to_move = game(&format!("Base;InProgress;White[7];{moves}"));
    assert_eq!(white_to_move.queen_neighbours(0), 5);
    assert!(!white_to_move.unstable());
    let black_to_move = game(&format!("Base;InProgress;Black[7];{moves};wB1 wS2\\"));
    assert_eq!(black_to_move.queen_neighbours(0), 5);
    assert!(black_to_move.unstable());
    let four = game(FOUR_AROUND_WHITE_QUEEN);
    assert!(!four.unstable());
    assert!(!Hive::new_game("hive").unwrap().unstable());
}

/// The pillbug terms (as nokamute values them): black's pillbug next to its uncovered queen, with
/// an empty cell beside it where the queen would have more than two free cells, is an escape
/// (+1 for black); white's pillbug is still in hand with an empty cell next to white's queen that
/// touches no black piece, so white could place it there (+1 for white). In Base (no pillbug)
/// both are zero.
#[test]
fn eval_pillbug_escape_and_placeable_pillbug() {
    let moves = "wG1;bG1 wG1-;wQ -wG1;bQ bG1-;wA1 \\wQ;bP bQ-";
    let pos = game(&format!("Base+MLP;InProgress;White[4];{moves}"));
    assert_eq!(raw_term(&pos, 0, "pillbug escape for queen"), -1.0);
    assert_eq!(raw_term(&pos, 1, "pillbug escape for queen"), 1.0);
    assert_eq!(raw_term(&pos, 0, "pillbug placeable at queen"), 1.0);
    // Without the pillbug in the game (Base), neither term can hold.
    let base = game("Base;InProgress;White[3];wG1;bG1 wG1-;wQ -wG1;bQ bG1-");
    assert_eq!(raw_term(&base, 0, "pillbug placeable at queen"), 0.0);
    assert_eq!(raw_term(&base, 0, "pillbug escape for queen"), 0.0);
    // Pillbugs placed before either queen: no queen to escape with or to guard (and no panic
    // looking at the cell of a queen still in hand).
    let early = game("Base+MLP;InProgress;White[2];wP;bP wP-");
    assert_eq!(raw_term(&early, 0, "pillbug escape for queen"), 0.0);
    assert_eq!(raw_term(&early, 0, "pillbug placeable at queen"), 0.0);
}
