//! Threes: the rules (merges, sliding, deck, bonus cards, spawn placement, scoring), seeded replay,
//! chance odds, text round trips and errors, and expectimax values checked by hand.

mod common;
/// The CLI's Threes benchmark (it lives with the CLI, not in the library).
#[path = "../src/bin/plyscope/threes_bench.rs"]
#[allow(dead_code)]
mod threes_bench;

use plyscope::core::{Breakdown, Evaluator, Game, NoTerms, Outcome, Turn};
use plyscope::games::threes::{
    board_score, legal_swipes, rank_score, rank_value, swipe, value_rank, Deck, Dir, Hint, Threes,
    ThreesEval, ThreesMove,
};
use plyscope::games::Playable;
use plyscope::search::{search, Algorithm, Hooks, SearchConfig};
use plyscope::session::new_session;
use threes_bench::deal_by_nature;

fn pos(text: &str) -> Threes {
    Threes::from_position_text("threes", text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The grid part of a position's text (before the first `|`).
fn grid(p: &Threes) -> String {
    p.position_text()
        .split('|')
        .next()
        .unwrap()
        .trim()
        .to_string()
}

fn swiped(text: &str, dir: &str) -> Threes {
    let mut p = pos(text);
    let m = p.parse_move(dir).unwrap();
    p.play(m).unwrap_or_else(|e| panic!("{dir} on {text}: {e}"));
    p
}

fn outcomes(p: &Threes) -> Vec<(ThreesMove, f64)> {
    let mut v = Vec::new();
    p.chance_outcomes(&mut v);
    v
}

#[test]
fn one_and_two_make_three_equal_threes_merge_ones_do_not() {
    let p = swiped(
        "1 2 . . / 3 3 . . / 1 1 . . / 6 6 12 . | deck 3 4 4 | next 1",
        "left",
    );
    assert_eq!(grid(&p), "3 . . . / 6 . . . / 1 1 . . / 12 12 . .");
    // 2 + 2 does not merge either, and a 3 does not merge with a 6.
    let mut p = pos("2 2 . . / 3 6 . . / . . . . / . . . . | deck 4 3 4 | next 2");
    let m = p.parse_move("l").unwrap();
    assert!(p.play(m).is_err(), "nothing can move left");
    assert_eq!(p.turn(), Turn::Player(0), "state unchanged on error");
    let r = swiped(
        "2 2 . . / 3 6 . . / . . . . / . . . . | deck 4 3 4 | next 2",
        "right",
    );
    assert_eq!(grid(&r), ". 2 2 . / . 3 6 . / . . . . / . . . .");
}

#[test]
fn cards_slide_one_cell_and_only_the_first_merge_happens() {
    // A lone card moves one cell, not to the wall.
    let p = swiped(
        ". . . 3 / . . . . / . . . . / . . . . | deck 3 4 4 | next 1",
        "left",
    );
    assert_eq!(grid(&p), ". . 3 . / . . . . / . . . . / . . . .");
    // 3 3 3 3 left: the first pair merges, the rest shift by one.
    let p = swiped(
        "3 3 3 3 / . . . . / . . . . / . . . . | deck 3 4 4 | next 1",
        "left",
    );
    assert_eq!(grid(&p), "6 3 3 . / . . . . / . . . . / . . . .");
    // Cards behind a gap follow the gap; cards in front of it stay.
    let p = swiped(
        "6 . 3 3 / . . . . / . . . . / . . . . | deck 3 4 4 | next 1",
        "left",
    );
    assert_eq!(grid(&p), "6 3 3 . / . . . . / . . . . / . . . .");
    // Up and down move columns.
    let p = swiped(
        ". . . . / 1 . . . / 2 . . . / 3 . . . | deck 3 4 4 | next 1",
        "up",
    );
    assert_eq!(grid(&p), "1 . . . / 2 . . . / 3 . . . / . . . .");
    let p = swiped(
        "1 . . . / 2 . . . / . . . . / 12 . . . | deck 3 4 4 | next 1",
        "down",
    );
    assert_eq!(grid(&p), ". . . . / 1 . . . / 2 . . . / 12 . . .");
    let p = swiped(
        "1 . . . / 2 . . . / 12 . . . / 24 . . . | deck 3 4 4 | next 1",
        "down",
    );
    assert_eq!(grid(&p), ". . . . / 3 . . . / 12 . . . / 24 . . .");
}

#[test]
fn a_swipe_that_moves_nothing_is_illegal_and_a_stuck_grid_ends_the_game() {
    let p = pos("1 3 1 3 / 3 1 3 1 / 1 3 1 3 / 3 1 3 1 | deck 4 3 4 | next 2");
    assert_eq!(p.turn(), Turn::Terminal);
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(p.outcome(), Some(Outcome::Score(8.0 * 3.0)));
    let p = pos("1 3 1 3 / 3 1 3 1 / 1 3 1 3 / 3 1 3 . | deck 4 3 4 | next 2");
    p.legal_moves(&mut moves);
    assert_eq!(
        moves,
        vec![ThreesMove::Swipe(Dir::Down), ThreesMove::Swipe(Dir::Right)]
    );
    assert_eq!(p.outcome(), None);
}

#[test]
fn the_legal_swipe_table_agrees_with_sliding_in_every_direction() {
    let mut rng = plyscope::core::Rng::seeded(77);
    let mut stuck = 0;
    for i in 0..200_000u32 {
        // Mostly crowded grids (where legality is in doubt), some with empty cells.
        let mut board = 0u64;
        for c in 0..16 {
            let r = if i % 4 == 0 {
                rng.below(16)
            } else {
                1 + rng.below(4 + (i % 3) as u64)
            };
            board |= r << (4 * c);
        }
        let mut want = 0u8;
        for d in Dir::ALL {
            if swipe(board, d).1 != 0 {
                want |= 1 << d as u8;
            }
        }
        assert_eq!(legal_swipes(board), want, "grid {board:016x}");
        stuck += (want == 0) as u32;
    }
    // The sample holds grids where nothing moves, and grids where only some swipes do.
    assert!(stuck > 100, "{stuck} stuck grids");
}

#[test]
fn position_keys_tell_positions_apart_and_agree_on_equal_ones() {
    use std::collections::HashMap;
    let mut seen: HashMap<u64, Threes> = HashMap::new();
    let mut outs = Vec::new();
    let mut moves = Vec::new();
    for g in 0..250u64 {
        let mut p = Threes::deal(g);
        let mut nature = plyscope::core::Rng::seeded(g + 1000);
        for _ in 0..300 {
            let key = p.zobrist();
            assert_eq!(key, p.zobrist_from_scratch());
            // Same key, same position; a re-read position has the same key.
            if let Some(q) = seen.insert(key, p.clone()) {
                assert_eq!(q, p, "two positions share the key {key:016x}");
            }
            let again = pos(&p.position_text());
            assert_eq!(again.zobrist(), key);
            match p.turn() {
                Turn::Terminal => break,
                Turn::Chance => deal_by_nature(&mut p, &mut nature, &mut outs),
                Turn::Player(_) => {
                    p.legal_moves(&mut moves);
                    let m = moves[nature.below(moves.len() as u64) as usize];
                    p.play_unchecked(m);
                }
            }
        }
    }
    assert!(seen.len() > 10_000, "{} positions", seen.len());
    // Each part of the state is in the key: the hint, the deck and the swipe waiting for its card.
    let a = pos("3 . 1 2 / . . . . / 12 6 . . / . . . 48 | deck 2 3 4 | next 2");
    let b = pos("3 . 1 2 / . . . . / 12 6 . . / . . . 48 | deck 2 3 4 | next 1");
    let c = pos("3 . 1 2 / . . . . / 12 6 . . / . . . 48 | deck 2 2 4 | next 2");
    let d = pos("3 . 1 . / . . . . / 12 6 . . / . . 48 . | deck 2 3 4 | next 2 | swiped left 1 4");
    let e = pos("3 . 1 . / . . . . / 12 6 . . / . . 48 . | deck 2 3 4 | next 2 | swiped left 1");
    let keys = [
        a.zobrist(),
        b.zobrist(),
        c.zobrist(),
        d.zobrist(),
        e.zobrist(),
    ];
    for i in 0..keys.len() {
        for j in 0..i {
            assert_ne!(keys[i], keys[j], "positions {j} and {i}");
        }
    }
}

#[test]
fn the_new_card_enters_the_opposite_edge_in_a_row_that_moved() {
    // Left: rows 1 and 3 move (row 2 is stuck, row 4 empty): the card enters column d of rows 1, 3.
    let p = swiped(
        ". 3 . . / 3 6 12 24 / 1 2 . . / . . . . | deck 2 3 4 | next 2",
        "left",
    );
    assert_eq!(p.turn(), Turn::Chance);
    assert_eq!(p.pending(), Some((Dir::Left, 0b0101)));
    let outs = outcomes(&p);
    let mut cells: Vec<u8> = outs
        .iter()
        .map(|(m, _)| match m {
            ThreesMove::Spawn { cell, .. } => *cell,
            _ => panic!("a swipe among chance outcomes"),
        })
        .collect();
    cells.dedup();
    assert_eq!(cells, vec![3, 11], "d1 and d3");
    for &c in &[3u8, 11] {
        let p_cell: f64 = outs
            .iter()
            .filter(|(m, _)| matches!(m, ThreesMove::Spawn { cell, .. } if *cell == c))
            .map(|o| o.1)
            .sum();
        assert!((p_cell - 0.5).abs() < 1e-12);
    }
    // Every outcome deals the hinted 2.
    assert!(outs
        .iter()
        .all(|(m, _)| matches!(m, ThreesMove::Spawn { rank: 2, .. })));
    // Up: the card enters row 4 of the columns that moved.
    let p = swiped(
        "3 . . . / 3 . . . / . . 1 . / . . . 2 | deck 2 3 4 | next 2",
        "up",
    );
    let mut cells: Vec<String> = outcomes(&p)
        .iter()
        .map(|(m, _)| p.format_move(*m))
        .map(|t| t.split(',').next().unwrap().to_string())
        .collect();
    cells.dedup();
    assert_eq!(cells, vec!["2 at a4", "2 at c4", "2 at d4"]);
    // Right: column a; down: row 1.
    let p = swiped(
        "1 . . . / . . . . / . . . . / . . . . | deck 2 4 3 | next 3",
        "right",
    );
    assert_eq!(p.format_move(outcomes(&p)[0].0), "3 at a1, next 1");
    let p = swiped(
        ". . . . / . . 6 . / . . . . / . . . . | deck 2 4 3 | next 3",
        "down",
    );
    assert_eq!(p.format_move(outcomes(&p)[0].0), "3 at c1, next 1");
}

#[test]
fn the_hint_follows_the_counted_deck_and_the_deck_is_reshuffled_when_empty() {
    // 1 one, 2 twos, 3 threes left: next hint odds 1/6, 2/6, 3/6 (no bonus below 48).
    let p = swiped(
        "3 . . . / . . . . / . . . . / . . . . | deck 1 2 3 | next 1",
        "right",
    );
    let outs = outcomes(&p);
    let odds: Vec<(String, f64)> = outs.iter().map(|(m, q)| (p.format_move(*m), *q)).collect();
    assert_eq!(odds.len(), 3);
    for (i, want) in [1.0 / 6.0, 2.0 / 6.0, 3.0 / 6.0].iter().enumerate() {
        assert!((odds[i].1 - want).abs() < 1e-12, "{odds:?}");
    }
    // Drawing a 3 takes it out of the deck.
    let mut q = p.clone();
    q.play(q.parse_move("1 at a1, next 3").unwrap()).unwrap();
    assert_eq!(q.deck(), Deck { counts: [1, 2, 2] });
    assert_eq!(q.hint(), Hint::Three);
    // A hint the deck cannot give is not a legal deal.
    let mut q = pos(". . . . / . . . . / . . . . / . . . 3 | deck 0 2 0 | next 1");
    q.play(q.parse_move("left").unwrap()).unwrap();
    assert!(q.play(q.parse_move("1 at d4, next 1").unwrap()).is_err());
    assert!(
        q.play(q.parse_move("2 at d4, next 2").unwrap()).is_err(),
        "the hint is 1"
    );
    q.play(q.parse_move("1 at d4, next 2").unwrap()).unwrap();
    assert_eq!(q.deck(), Deck { counts: [0, 1, 0] });

    // An empty deck is refilled with twelve: 4/12 each.
    let p = swiped(
        "3 . . . / . . . . / . . . . / . . . . | deck 0 0 0 | next 2",
        "right",
    );
    let outs = outcomes(&p);
    assert_eq!(outs.len(), 3);
    assert!(outs.iter().all(|o| (o.1 - 1.0 / 3.0).abs() < 1e-12));
    let mut q = p.clone();
    q.play(outs[0].0).unwrap();
    assert_eq!(q.deck(), Deck { counts: [3, 4, 4] });
}

/// Plays a seeded game with random swipes and checks the deck cycle: the first twelve cards (the
/// deal, the hint, the rest of the deck) are four of each, and after every twelve deck draws the
/// deck is empty again, each cycle dealing four of each.
#[test]
fn deck_cycles_of_twelve() {
    for seed in 0..20u64 {
        let mut s = new_session(&format!("threes-{seed}")).unwrap();
        s.seed(seed);
        let p = pos(&s.position_text());
        let mut counts = [0u32; 3];
        for c in 0..16 {
            let r = p.rank_at(c);
            if r > 0 {
                counts[r as usize - 1] += 1;
            }
        }
        assert_eq!(counts.iter().sum::<u32>(), 9, "nine cards dealt");
        counts[p.hint().deck_card().unwrap()] += 1;
        for (c, d) in counts.iter_mut().zip(p.deck().counts) {
            *c += d as u32;
        }
        assert_eq!(counts, [4, 4, 4], "seed {seed}: the first deck");
        // Follow the hints: each cycle of 12 deck cards has four of each. Ten cards of the first
        // deck are out already (the deal and the hint).
        let mut cycle = p.deck().counts.map(|d| 4 - d as u32);
        let mut drawn = 10;
        let mut rng = plyscope::core::Rng::seeded(seed);
        for _ in 0..300 {
            let p = pos(&s.position_text());
            match p.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let before = p.deck();
                    let mv = s.play_chance().unwrap();
                    let q = pos(&s.position_text());
                    if let Some(i) = q.hint().deck_card() {
                        assert!(mv.ends_with(q.hint().text()));
                        if before.is_empty() {
                            assert_eq!(drawn % 12, 0, "reshuffled only when empty");
                            assert_eq!(q.deck().len(), 11);
                        }
                        cycle[i] += 1;
                        drawn += 1;
                        if drawn % 12 == 0 {
                            assert_eq!(cycle, [4, 4, 4], "seed {seed}");
                            assert!(q.deck().is_empty());
                            cycle = [0; 3];
                        }
                    }
                }
                Turn::Player(_) => {
                    let moves = s.legal_moves();
                    let m = &moves[rng.below(moves.len() as u64) as usize].text;
                    s.play(m).unwrap();
                }
            }
        }
        assert!(drawn >= 24, "seed {seed}: only {drawn} draws");
    }
}

#[test]
fn bonus_cards_from_48_with_odds_one_in_21_and_values_6_to_an_eighth() {
    // Highest 24: no bonus.
    let p = swiped(
        "24 . . . / . . . . / . . . . / . . . . | deck 2 2 2 | next 1",
        "right",
    );
    assert!(outcomes(&p).iter().all(|(m, _)| !matches!(
        m,
        ThreesMove::Spawn {
            next: Hint::Bonus,
            ..
        }
    )));
    // Highest 48: the next hint is a bonus with probability 1/21.
    let p = swiped(
        "48 . . . / . . . . / . . . . / . . . . | deck 2 2 2 | next 1",
        "right",
    );
    let outs = outcomes(&p);
    let bonus: f64 = outs
        .iter()
        .filter(|(m, _)| {
            matches!(
                m,
                ThreesMove::Spawn {
                    next: Hint::Bonus,
                    ..
                }
            )
        })
        .map(|o| o.1)
        .sum();
    assert!((bonus - 1.0 / 21.0).abs() < 1e-12);
    let one: f64 = outs
        .iter()
        .filter(|(m, _)| {
            matches!(
                m,
                ThreesMove::Spawn {
                    next: Hint::One,
                    ..
                }
            )
        })
        .map(|o| o.1)
        .sum();
    assert!((one - 20.0 / 21.0 / 3.0).abs() < 1e-12);
    // A bonus card with highest 48 is a 6.
    let p = swiped(
        "48 . . . / . . . . / . . . . / . . . . | deck 2 2 2 | next bonus",
        "right",
    );
    let values: Vec<u32> = outcomes(&p)
        .iter()
        .map(|(m, _)| match m {
            ThreesMove::Spawn { rank, .. } => rank_value(*rank),
            _ => 0,
        })
        .collect();
    assert!(values.iter().all(|&v| v == 6), "{values:?}");
    // With highest 384: 6, 12, 24 or 48, each a quarter.
    let p = swiped(
        "384 . . . / . . . . / . . . . / . . . . | deck 2 2 2 | next bonus",
        "right",
    );
    let outs = outcomes(&p);
    for v in [6u32, 12, 24, 48] {
        let pv: f64 = outs
            .iter()
            .filter(|(m, _)| matches!(m, ThreesMove::Spawn { rank, .. } if rank_value(*rank) == v))
            .map(|o| o.1)
            .sum();
        assert!((pv - 0.25).abs() < 1e-12, "{v}: {pv}");
    }
    assert!(outs.iter().all(|(m, _)| matches!(
        m,
        ThreesMove::Spawn { rank, .. } if (4..=7).contains(rank)
    )));
    // A bonus draw leaves the deck alone.
    let mut q = p.clone();
    q.play(q.parse_move("12 at a1, next bonus").unwrap())
        .unwrap();
    assert_eq!(q.deck(), Deck { counts: [2, 2, 2] });
    // A bonus hint needs a 48 on the board.
    assert!(Threes::from_position_text(
        "threes",
        "24 . . . / . . . . / . . . . / . . . . | deck 2 2 2 | next bonus"
    )
    .is_err());
}

#[test]
fn scores() {
    assert_eq!(rank_score(value_rank(6144).unwrap()), 531_441);
    assert_eq!(rank_score(value_rank(3).unwrap()), 3);
    assert_eq!(rank_score(value_rank(6).unwrap()), 9);
    assert_eq!(rank_score(value_rank(1).unwrap()), 0);
    assert_eq!(rank_score(value_rank(2).unwrap()), 0);
    let p = pos("6144 3 6 1 / 2 . . . / . . . . / . . . . | deck 2 2 2 | next 1");
    assert_eq!(board_score(p.board()), 531_441 + 3 + 9);
    assert_eq!(p.score(), 531_453);
    assert_eq!(value_rank(5), None);
    assert_eq!(value_rank(24_576), None);
}

#[test]
fn a_game_replays_from_its_seed() {
    let play = |seed: u64| {
        let mut s = new_session(&format!("threes-{seed}")).unwrap();
        s.seed(seed);
        let start = s.position_text();
        let mut n = 0;
        while s.outcome().is_none() && n < 400 {
            if s.to_move() == "chance" {
                s.play_chance().unwrap();
            } else {
                // A fixed policy: the first legal swipe in up, down, left, right order.
                let m = s.legal_moves()[0].text.clone();
                s.play(&m).unwrap();
            }
            n += 1;
        }
        (start, s.history(), s.position_text())
    };
    let a = play(11);
    let b = play(11);
    assert_eq!(a, b);
    assert!(a.1.len() > 20);
    let c = play(12);
    assert_ne!(a.0, c.0, "another seed deals another game");
    // The same history replays in a session set to the same start.
    let mut s = new_session("threes").unwrap();
    s.set_position(&a.0).unwrap();
    for m in &a.1 {
        s.play(m).unwrap();
    }
    assert_eq!(s.position_text(), a.2);
    assert!(new_session("threes-x").is_err());
    assert!(new_session("threes").is_ok());
}

#[test]
fn chance_probabilities_sum_to_one_and_text_round_trips_in_random_games() {
    for seed in 0..4 {
        let start = Threes::deal(seed);
        let n = common::random_playouts(&start, 10, 600, seed + 100);
        assert!(n > 500, "{n}");
    }
    // A position with bonus cards in play.
    let start = pos("96 48 . 3 / . 1 . . / . . 2 . / . . . 6 | deck 1 2 1 | next bonus");
    common::random_playouts(&start, 20, 200, 5);
}

#[test]
fn move_and_position_text() {
    let p = Threes::deal(3);
    for (t, d) in [
        ("up", Dir::Up),
        ("U", Dir::Up),
        ("d", Dir::Down),
        ("left", Dir::Left),
        ("r", Dir::Right),
    ] {
        assert_eq!(p.parse_move(t).unwrap(), ThreesMove::Swipe(d));
    }
    let m = p.parse_move("12 at b3, next bonus").unwrap();
    assert_eq!(
        m,
        ThreesMove::Spawn {
            cell: 9,
            rank: 5,
            next: Hint::Bonus
        }
    );
    assert_eq!(p.format_move(m), "12 at b3, next bonus");
    for bad in [
        "",
        "north",
        "5 at a1, next 1",
        "3 at e1, next 1",
        "3 at a1",
        "3 a1 next 1",
    ] {
        let e = p.parse_move(bad).unwrap_err();
        assert!(e.to_string().contains("swipe"), "{e}");
    }
    let text = "3 . 1 2 / . . . . / 12 6 . . / . . . 48 | deck 2 3 4 | next 2";
    assert_eq!(pos(text).position_text(), text);
    let chance = "3 . 1 . / . . . . / 12 6 . . / . . 48 . | deck 2 3 4 | next 2 | swiped left 1 4";
    let c = pos(chance);
    assert_eq!(c.position_text(), chance);
    assert_eq!(c.turn(), Turn::Chance);
    let up = pos("3 . 1 . / . . . . / 12 6 . . / . . . . | deck 2 3 4 | next 2 | swiped up a b");
    assert_eq!(up.pending(), Some((Dir::Up, 0b11)));
}

#[test]
fn bad_position_text_says_where_and_what() {
    let cases: &[(&str, usize, &str)] = &[
        (
            "3 . 5 2 / . . . . / . . . . / . . . . | deck 2 3 4 | next 2",
            4,
            "a card",
        ),
        (
            "3 . 1 / . . . . / . . . . / . . . . | deck 2 3 4 | next 2",
            6,
            "four cells",
        ),
        (
            "3 . 1 2 / . . . . / . . . . | deck 2 3 4 | next 2",
            28,
            "/ between rows",
        ),
        (
            "3 . 1 2 / . . . . / . . . . / . . . . | deck 2 5 3 | next 2",
            47,
            "twos",
        ),
        (
            "3 . 1 2 / . . . . / . . . . / . . . . | deck 2 4 3 | next 7",
            58,
            "1, 2, 3 or bonus",
        ),
        (
            "3 . 1 2 / . . . . / . . . . / . . . . | deck 2 4 3",
            50,
            "| after the deck",
        ),
        (
            "3 . 1 2 / . . . . / . . . . / . . . . | deck 2 3 4 | next 2 | swiped left e",
            74,
            "a row that moved",
        ),
        (
            "3 . 1 2 / . . . . / . . . . / . . . . | deck 2 3 4 | next 2 | swiped sideways",
            69,
            "a direction",
        ),
    ];
    for &(text, at, what) in cases {
        let e = Threes::from_position_text("threes", text).unwrap_err();
        assert_eq!(e.at, at, "{text}: {e}");
        assert!(e.to_string().contains(what), "{text}: {e}");
    }
    // Whole-position rules.
    for (text, what) in [
        (
            "3 . 1 2 / . . . . / . . . . / . . . . | deck 2 3 4 | next 2 | swiped left 1",
            "entry cell",
        ),
        (
            ". . . . / . . . . / . . . . / . . . . | deck 2 3 4 | next 2",
            "at least one card",
        ),
        (
            "3 . 1 2 / . . . . / . . . . / . . . . | deck 2 4 4 | next 3",
            "at most 3",
        ),
    ] {
        let e = Threes::from_position_text("threes", text).unwrap_err();
        assert!(e.to_string().contains(what), "{text}: {e}");
    }
    // A session refuses bad text and keeps its position.
    let mut s = new_session("threes-5").unwrap();
    let before = s.position_text();
    assert!(s.set_position("nonsense").is_err());
    assert!(s.play("sideways").is_err());
    assert_eq!(s.position_text(), before);
}

/// The threesus evaluation of a small board, counted by hand.
#[test]
fn threesus_terms_by_hand() {
    // Row 1: 3 3 6 .   Row 2: . . . .  Row 3: 1 . . .  Row 4: 2 . . .
    let p = pos("3 3 6 . / . . . . / 1 . . . / 2 . . . | deck 2 2 2 | next 1");
    let mut b = Breakdown::default();
    let v = ThreesEval::Threesus.evaluate(&p, 0, &mut b);
    let term = |n: &str| b.terms.iter().find(|t| t.name == n).unwrap().raw;
    assert_eq!(term("empty"), 11.0);
    // Pairs: 3-3 in row 1; 1 over 2 in column a.
    assert_eq!(term("merge_pairs"), 2.0);
    // The second 3 is next to the 6.
    assert_eq!(term("double_neighbours"), 1.0);
    // Trapped: the first 3 between the wall and... its right is a 3 (not higher): no. The second 3
    // sits between a 3 and a 6: no. In column a, the 1 lies between an empty cell and the 2: no;
    // the 2 lies between the 1 (lower) and the wall: no. The 3 of a1 in its column: wall above,
    // empty below: no. Nothing trapped.
    assert_eq!(term("trapped"), 0.0);
    assert_eq!(v, 2.0 * 11.0 + 2.0 * 2.0 + 1.0);
    assert_eq!(v, ThreesEval::Threesus.evaluate(&p, 0, &mut NoTerms));
    // A 1 between a wall and a 3 in its row, and under a 12 with the wall below: trapped twice.
    let p = pos(". . . . / . . . . / 12 . . . / 1 3 . . | deck 2 2 2 | next 1");
    let mut b = Breakdown::default();
    ThreesEval::Threesus.evaluate(&p, 0, &mut b);
    assert_eq!(
        b.terms.iter().find(|t| t.name == "trapped").unwrap().raw,
        2.0
    );
}

/// `ThreesEval` without its horizon key: the engine shares nothing between chance outcomes.
struct Unshared(ThreesEval);

impl Evaluator<Threes> for Unshared {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn evaluate<S: plyscope::core::TermSink>(&self, pos: &Threes, p: u8, sink: &mut S) -> f64 {
        self.0.evaluate(pos, p, sink)
    }
    fn terminal(&self, pos: &Threes, o: Outcome, p: u8, ply: u32) -> f64 {
        self.0.terminal(pos, o, p, ply)
    }
}

#[test]
fn outcomes_that_differ_only_in_the_hint_share_one_search_above_the_horizon() {
    let positions = [
        "3 . 1 . / . 2 . 3 / 1 . 2 . / 3 . . 2 | deck 2 2 1 | next 1",
        "2 . 12 12 / . 1 3 24 / . 3 6 1536 / . . . 1 | deck 0 1 0 | next 1",
        "3 3 . . / 48 12 3 . / 1 6 24 6 / 6144 384 48 . | deck 3 4 2 | next 3",
    ];
    for text in positions {
        let p = pos(text);
        for (depth, cutoff) in [(2, 0.0), (3, 0.0), (4, 0.002)] {
            let cfg = SearchConfig {
                chance_cutoff: cutoff,
                ..expectimax_cfg(depth, "strong")
            };
            let shared = search(&p, &ThreesEval::strong(), &cfg, Hooks::default()).unwrap();
            let alone =
                search(&p, &Unshared(ThreesEval::strong()), &cfg, Hooks::default()).unwrap();
            // The same value for every swipe, bit for bit, from fewer nodes.
            let values = |r: &plyscope::search::SearchResult<ThreesMove>| {
                let mut v: Vec<(ThreesMove, f64)> =
                    r.root_moves.iter().map(|m| (m.mv, m.value)).collect();
                v.sort_by_key(|m| format!("{:?}", m.0));
                v
            };
            assert_eq!(values(&shared), values(&alone), "{text} at depth {depth}");
            assert!(
                shared.stats.nodes * 3 < alone.stats.nodes * 2,
                "{text} at depth {depth}: {} against {} nodes",
                shared.stats.nodes,
                alone.stats.nodes
            );
            // A recorded search is the same search: it shows every outcome, a shared one as a
            // node naming the sibling whose search (and value) it shares.
            let mut traced = search(
                &p,
                &ThreesEval::strong(),
                &SearchConfig {
                    record_tree: true,
                    ..cfg.clone()
                },
                Hooks::default(),
            )
            .unwrap();
            assert_eq!(values(&traced), values(&alone));
            assert_eq!(traced.stats.nodes, shared.stats.nodes);
            let tree = traced.tree.take().unwrap();
            let mut shares = 0;
            for n in &tree.nodes {
                if let Some(s) = n.same_as {
                    let sib = &tree.nodes[s as usize];
                    assert_eq!(sib.parent, n.parent, "shared with a sibling");
                    assert_eq!(sib.value, n.value, "with the sibling's value");
                    assert_ne!(sib.mv, n.mv, "another outcome");
                    shares += 1;
                }
            }
            assert!(
                shares > 0,
                "{text} at depth {depth}: no shared outcome recorded"
            );
            assert_eq!(tree.searched(), traced.stats.nodes + 1);
        }
    }
}

fn expectimax_cfg(depth: u32, evaluator: &str) -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Expectimax,
        evaluator: evaluator.into(),
        depth,
        move_ordering: false,
        random_ties: false,
        seed: Some(1),
        ..Default::default()
    }
}

/// Expectimax computed here, independently of the engine's search: the max over swipes, the
/// probability-weighted mean over deals; leaves are evaluated after a swipe (before the deal).
fn by_hand(p: &Threes, swipes_left: u32, eval: &ThreesEval, ply: u32) -> f64 {
    match p.turn() {
        Turn::Terminal => eval.terminal(p, p.outcome().unwrap(), 0, ply),
        _ if swipes_left == 0 => eval.evaluate(p, 0, &mut NoTerms),
        Turn::Chance => {
            let mut outs = Vec::new();
            p.chance_outcomes(&mut outs);
            outs.iter()
                .map(|&(m, q)| {
                    let mut c = p.clone();
                    c.play_unchecked(m);
                    q * by_hand(&c, swipes_left, eval, ply + 1)
                })
                .sum()
        }
        Turn::Player(_) => {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            moves
                .iter()
                .map(|&m| {
                    let mut c = p.clone();
                    c.play_unchecked(m);
                    by_hand(&c, swipes_left - 1, eval, ply + 1)
                })
                .fold(f64::NEG_INFINITY, f64::max)
        }
    }
}

#[test]
fn expectimax_value_of_a_tiny_position_by_hand() {
    // 3 . . . / . . . . / . . . . / . . . 3, next card 1, deck 1 1 1.
    let p = pos("3 . . . / . . . . / . . . . / . . . 3 | deck 1 1 1 | next 1");
    let eval = ThreesEval::Threesus;
    // Depth 1: each swipe moves only the 3 that has room; the board after it has 14 empty cells,
    // no pairs, no doubles and no trapped card: 28 whatever the swipe.
    let r = search(&p, &eval, &expectimax_cfg(1, "threesus"), Hooks::default()).unwrap();
    assert_eq!(r.value, 28.0);
    // Depth 2, by the formula: after "left", the 3 of d4 goes to c4 and the 1 enters d4 (one row
    // moved), next hint 1, 2 or 3 at 1/3 each; then the best second swipe.
    let r = search(&p, &eval, &expectimax_cfg(2, "threesus"), Hooks::default()).unwrap();
    let want = by_hand(&p, 2, &eval, 0);
    assert!((r.value - want).abs() < 1e-9, "{} vs {want}", r.value);
    // The by-hand recursion itself, written out for "left" then each second swipe: after left the
    // grid is 3 . . . / . . . . / . . . . / . . 3 1 whatever the next hint (all three chance
    // outcomes lead to the same grid), so the left branch is worth the best second swipe.
    let mut after_left = p.clone();
    after_left.play(ThreesMove::Swipe(Dir::Left)).unwrap();
    let outs = outcomes(&after_left);
    assert_eq!(outs.len(), 3);
    let mut next = after_left.clone();
    next.play_unchecked(outs[0].0);
    assert_eq!(grid(&next), "3 . . . / . . . . / . . . . / . . 3 1");
    // From there, "left" again: 3 . . . / . . . . / . . . . / . 3 1 . then empty 13 + 0 pairs.
    // "down" moves the 3 of a1 to a2: 3 and 1 in row 4 still no pair: 13 empty -> 26.
    // "up" moves 3 and 1 of row 4 up one row each: . . 3 1 / ...: 26 too. Any second swipe of this
    // board gives 13 empty cells and no pair, except a move that puts the 3s side by side: none
    // does in one swipe. So left is worth 26; by symmetry every first swipe is worth 26 too.
    assert_eq!(want, 26.0);
}

#[test]
fn expectimax_search_sees_deaths_and_evaluators_report_terms() {
    // Full board with one way out: the engine's expectimax agrees with the hand recursion at
    // depth 3 with both evaluators, and the tree's terms add up.
    let p = pos("1 3 1 3 / 3 1 3 1 / 1 3 1 3 / 3 1 . . | deck 4 3 4 | next 2");
    for name in ["strong", "threesus"] {
        let eval = ThreesEval::by_name(name).unwrap();
        for depth in 1..=3 {
            let r = search(&p, &eval, &expectimax_cfg(depth, name), Hooks::default()).unwrap();
            let want = by_hand(&p, depth, &eval, 0);
            assert!(
                (r.value - want).abs() < 1e-6 * want.abs().max(1.0),
                "{name} depth {depth}: {} vs {want}",
                r.value
            );
        }
        let mut b = Breakdown::default();
        let v = eval.evaluate(&p, 0, &mut b);
        let sum: f64 = b.terms.iter().map(|t| t.value).sum();
        assert!((v - sum).abs() < 1e-9);
        assert!((v - eval.evaluate(&p, 0, &mut NoTerms)).abs() < 1e-6);
    }
    // Dying is worse than any live board.
    let dead = pos("1 3 1 3 / 3 1 3 1 / 1 3 1 3 / 3 1 3 1 | deck 4 3 4 | next 2");
    let eval = ThreesEval::strong();
    let d = eval.terminal(&dead, dead.outcome().unwrap(), 0, 10);
    for q in common::random_positions(&Threes::deal(1), 50, 300, 3) {
        assert!(eval.evaluate(&q, 0, &mut NoTerms) > d);
        assert!(ThreesEval::Threesus.evaluate(&q, 0, &mut NoTerms) > d);
    }
}

/// The strong evaluator switches to its late-game parameters (monotonicity on cubed levels) once
/// a 6144 or higher is on the board, and only then; the tooltip's terms follow the switch.
#[test]
fn strong_evaluator_switches_to_late_parameters_at_6144() {
    use plyscope::games::threes::eval::StrongParams;
    let early = ThreesEval::strong_with(StrongParams::default());
    let late = ThreesEval::strong_with(StrongParams::late());
    let phased = ThreesEval::strong();
    assert_ne!(StrongParams::late(), StrongParams::default());
    let value = |e: &ThreesEval, p: &Threes| e.evaluate(p, 0, &mut NoTerms);
    // A giant card out of line: the two parameter sets disagree on it.
    for (text, is_late) in [
        (
            "3 6144 12 . / 6 24 . . / 1 . . . / . . . 2 | deck 4 3 4 | next 2",
            true,
        ),
        (
            "3 12288 12 . / 6 24 . . / 1 . . . / . . . 2 | deck 4 3 4 | next 2",
            true,
        ),
        (
            "3 3072 12 . / 6 24 . . / 1 . . . / . . . 2 | deck 4 3 4 | next 2",
            false,
        ),
        (
            "3 1536 12 . / 6 3072 . . / 1 . . . / . . . 2 | deck 4 3 4 | next 2",
            false,
        ),
    ] {
        let p = pos(text);
        let (e, l, v) = (value(&early, &p), value(&late, &p), value(&phased, &p));
        assert!((e - l).abs() > 1.0, "{text}: {e} vs {l}");
        assert_eq!(v, if is_late { l } else { e }, "{text}");
        let mut b = Breakdown::default();
        phased.evaluate(&p, 0, &mut b);
        let mono = b.terms.iter().find(|t| t.name == "monotonicity").unwrap();
        let want = if is_late {
            StrongParams::late()
        } else {
            StrongParams::default()
        };
        assert_eq!(mono.weight, want.weights[3], "{text}");
        let sum: f64 = b.terms.iter().map(|t| t.value).sum();
        assert!((sum - v).abs() < 1e-6, "{text}: terms {sum} vs {v}");
    }
}

#[test]
fn registry_entry() {
    assert!(Threes::evaluator_names().contains(&"threesus"));
    assert_eq!(Threes::evaluator_names()[0], "strong");
    let s = new_session("threes-9").unwrap();
    assert_eq!(s.players(), vec!["player".to_string()]);
    assert_eq!(s.to_move(), "player");
    assert!(plyscope::games::CATALOGUE
        .iter()
        .any(|g| g.id == "threes" && g.chance));
}

/// The benchmark, run by hand: `THREES_GAMES=5 THREES_TIME_MS=20 cargo test --release --test threes
/// -- --ignored bench --nocapture` (THREES_SEED, THREES_DEPTH, THREES_JOBS and the tuning variables
/// listed in docs/threes.md also read).
#[test]
#[ignore]
fn bench() {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let games = env("THREES_GAMES").unwrap_or(3) as usize;
    let seed = env("THREES_SEED").unwrap_or(1);
    let time = env("THREES_TIME_MS");
    let depth = env("THREES_DEPTH").unwrap_or(if time.is_some() { 12 } else { 2 }) as u32;
    let mut cfg = threes_bench::bench_config(time, depth, seed);
    cfg.evaluator = std::env::var("THREES_EVAL").unwrap_or_default();
    if let Some(c) = std::env::var("THREES_CUTOFF")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
    {
        cfg.chance_cutoff = c;
    }
    match env("THREES_TT") {
        Some(0) => cfg.transposition_table = Some(false),
        Some(bits) => cfg.tt_bits = bits as u32,
        None => {}
    }
    if env("THREES_STEPS") == Some(0) {
        cfg.probability_steps = false;
    }
    if env("THREES_ID") == Some(1) {
        cfg.iterative_deepening = true;
    }
    let eval = eval_from_env(&cfg.evaluator);
    let jobs = env("THREES_JOBS").unwrap_or(1) as usize;
    let s = threes_bench::threes_bench_jobs(games, seed, &cfg, &eval, jobs, &mut std::io::stdout());
    assert_eq!(s.scores.len(), games);
}

/// Under a node budget the next full depth would overrun, expectimax searches that depth in
/// probability steps: cut-off 0.01, halved while two more halvings look affordable, then one last
/// step at the finest cut-off predicted to fit 70 % of what is left (a step's cost taken to grow
/// like cut-off^-alpha, alpha from the last two steps' node counts, 1 before that). The move and
/// values played are exactly those of that last step searched on its own (here finer than the
/// third halving, the last that plain halvings would finish); without steps the last full depth
/// stands.
#[test]
fn probability_steps_search_one_level_deeper_within_a_node_budget() {
    let p = Threes::deal(4);
    // Node counts without shared outcomes, which make depths cost unevenly (this position was
    // chosen for its growth from depth to depth).
    let eval = Unshared(ThreesEval::strong());
    let cfg = |depth: u32, cutoff: f64| SearchConfig {
        chance_cutoff: cutoff,
        ..expectimax_cfg(depth, "")
    };
    let fixed =
        |depth: u32, cutoff: f64| search(&p, &eval, &cfg(depth, cutoff), Hooks::default()).unwrap();
    let c0 = 1e-4;
    let full: Vec<u64> = (1..=5).map(|d| fixed(d, c0).stats.nodes).collect();
    let through4: u64 = full[..4].iter().sum();
    let cutoffs = [0.01, 0.01 / 2.0, 0.01 / 2.0 / 2.0, 0.01 / 2.0 / 2.0 / 2.0];
    let steps: Vec<u64> = cutoffs.iter().map(|&c| fixed(5, c).stats.nodes).collect();
    // A budget that lets three halvings finish and stops the fourth near its end.
    let budget = through4 + steps[..3].iter().sum::<u64>() + steps[3] * 9 / 10;
    // The preconditions of this position: the steps grow, the third searched at least half the
    // nodes of the full depth 4 (else it would not be played), and the full depth 5 (guessed from
    // the growth of the last two) does not fit.
    assert!(steps.windows(2).all(|w| w[0] < w[1]), "{steps:?}");
    assert!(2 * steps[2] >= full[3], "{steps:?} against {full:?}");
    assert!(steps[3] < full[4], "{steps:?} against {full:?}");
    let guess = full[3] as f64 * (full[3] as f64 / full[2] as f64).clamp(1.5, 32.0);
    assert!(
        through4 as f64 + guess > budget as f64,
        "{full:?}, budget {budget}"
    );

    // The schedule the rule above gives for this budget, step by step.
    let mut used = through4;
    let mut done: Vec<(f64, u64)> = Vec::new();
    let mut c = cutoffs[0];
    loop {
        let n = fixed(5, c).stats.nodes;
        if used + n > budget {
            break;
        }
        used += n;
        done.push((c, n));
        let (c_last, n_last) = done[done.len() - 1];
        let alpha = match done.len() {
            1 => 1.0,
            k => {
                let (c_before, n_before) = done[k - 2];
                ((n_last as f64 / n_before as f64).ln() / (c_before / c_last).ln()).clamp(0.5, 4.0)
            }
        };
        let share = 0.7 * (budget - used) as f64 / n_last as f64;
        let g = 2f64.powf(alpha);
        let fit = c_last * share.powf(-1.0 / alpha);
        if share >= g * (1.0 + g) {
            c = c_last / 2.0;
        } else if fit * 1.25 <= c_last {
            c = fit;
        } else {
            break;
        }
    }
    let played = done.last().unwrap().0;
    assert!(played < cutoffs[2], "{done:?}");
    assert!(2 * done.last().unwrap().1 >= full[3], "{done:?}");

    let budgeted = |stepping: bool| SearchConfig {
        node_budget: Some(budget),
        probability_steps: stepping,
        ..cfg(12, c0)
    };
    let stepped = search(&p, &eval, &budgeted(true), Hooks::default()).unwrap();
    let want = fixed(5, played);
    assert_eq!(stepped.stats.depth_reached, 5);
    assert!(stepped.stats.nodes <= budget);
    assert_eq!(stepped.best, want.best);
    assert!((stepped.value - want.value).abs() <= 1e-9 * want.value.abs());
    for m in &want.root_moves {
        let got = stepped.root_moves.iter().find(|r| r.mv == m.mv).unwrap();
        assert!(
            (got.value - m.value).abs() <= 1e-9 * m.value.abs(),
            "{:?}",
            m.mv
        );
    }

    let plain = search(&p, &eval, &budgeted(false), Hooks::default()).unwrap();
    let want = fixed(4, c0);
    assert_eq!(plain.stats.depth_reached, 4);
    assert_eq!(plain.best, want.best);
    assert!((plain.value - want.value).abs() <= 1e-9 * want.value.abs());
}

#[test]
fn chance_cutoff_prunes_improbable_lines_and_the_table_changes_no_value() {
    let p = Threes::deal(4);
    let eval = ThreesEval::strong();
    let full = search(&p, &eval, &expectimax_cfg(3, ""), Hooks::default()).unwrap();
    assert!((full.value - by_hand(&p, 3, &eval, 0)).abs() < 1e-6 * full.value.abs());
    let cut = search(
        &p,
        &eval,
        &SearchConfig {
            chance_cutoff: 0.05,
            ..expectimax_cfg(3, "")
        },
        Hooks::default(),
    )
    .unwrap();
    assert!(
        cut.stats.nodes * 2 < full.stats.nodes,
        "{} nodes with the cut-off, {} without",
        cut.stats.nodes,
        full.stats.nodes
    );
    let tt = search(
        &p,
        &eval,
        &SearchConfig {
            transposition_table: Some(true),
            tt_bits: 16,
            ..expectimax_cfg(3, "")
        },
        Hooks::default(),
    )
    .unwrap();
    assert!((tt.value - full.value).abs() < 1e-6 * full.value.abs());
}

#[test]
fn parallel_bench_plays_the_same_games_as_one_job() {
    use crate::threes_bench::{bench_config, threes_bench_jobs};
    // Fixed depth: no time budget, so every game replays exactly from its seed whatever thread
    // plays it, and the summary must not depend on the order the games finish in.
    let cfg = bench_config(None, 1, 40);
    let eval = ThreesEval::strong();
    let mut one = Vec::new();
    let a = threes_bench_jobs(5, 40, &cfg, &eval, 1, &mut one);
    let mut two = Vec::new();
    let b = threes_bench_jobs(5, 40, &cfg, &eval, 2, &mut two);
    assert_eq!(a.scores.len(), 5);
    assert_eq!(a.scores, b.scores);
    assert_eq!(a.highest, b.highest);
    assert_eq!(a.moves, b.moves);
    assert_eq!((a.low, a.median, a.high), (b.low, b.median, b.high));
    let text = String::from_utf8(two).unwrap();
    assert!(text.contains("2 at a time"), "{text}");
    for g in 1..=5 {
        assert!(
            text.contains(&format!("game {g:>3} seed {}", 39 + g)),
            "game {g} missing from:\n{text}"
        );
    }
}

/// Diagnostic, run by hand: how much a 100 ms search (probability steps on and off) loses against
/// a deep reference search (depth 6, cut-off 0.0001), in the reference's own values, over positions
/// taken every 25 swipes from a depth-3 game: `P_SEED=7 P_MS=100 cargo test --release --test threes
/// -- --ignored probe_steps --nocapture`.
#[test]
#[ignore]
fn probe_steps_against_reference() {
    let seed = env_or("P_SEED", 7);
    let ms = env_or("P_MS", 100);
    let eval = ThreesEval::strong();
    let play = threes_bench::bench_config(None, 3, seed);
    let reference = SearchConfig {
        depth: 6,
        ..play.clone()
    };
    let timed = |steps: bool| SearchConfig {
        probability_steps: steps,
        ..threes_bench::bench_config(Some(ms), 12, seed)
    };
    let mut pos = Threes::deal(seed);
    let mut nature = plyscope::core::Rng::seeded(seed);
    let mut outs = Vec::new();
    let (mut n, mut swipes) = (0, 0);
    let mut loss = [0.0f64; 2];
    let mut agree = [0u32; 2];
    let mut depth = [0u32; 2];
    let mut time = [0.0f64; 2];
    loop {
        match pos.turn() {
            Turn::Terminal => break,
            Turn::Chance => deal_by_nature(&mut pos, &mut nature, &mut outs),
            Turn::Player(_) => {
                swipes += 1;
                if swipes % 25 == 0 {
                    let r = search(&pos, &eval, &reference, Hooks::default()).unwrap();
                    n += 1;
                    for (i, steps) in [true, false].into_iter().enumerate() {
                        let t = search(&pos, &eval, &timed(steps), Hooks::default()).unwrap();
                        let v = r
                            .root_moves
                            .iter()
                            .find(|m| Some(m.mv) == t.best)
                            .unwrap()
                            .value;
                        loss[i] += r.value - v;
                        agree[i] += (t.best == r.best) as u32;
                        depth[i] += t.stats.depth_reached;
                        time[i] += t.stats.time_ms;
                    }
                }
                let r = search(&pos, &eval, &play, Hooks::default()).unwrap();
                pos.play_unchecked(r.best.unwrap());
            }
        }
    }
    for (i, name) in ["steps", "no steps"].iter().enumerate() {
        println!(
            "{name}: {n} positions, mean loss {:.1}, same move as the reference {:.0} %, depth {:.2}, {:.1} ms",
            loss[i] / n as f64,
            100.0 * agree[i] as f64 / n as f64,
            depth[i] as f64 / n as f64,
            time[i] / n as f64
        );
    }
}

/// A setting of the hand-run harnesses: the environment variable `key` read as a `T`, else `default`.
fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The evaluator the hand-run harnesses use: the strong one with the weights of `THREES_W` (seven
/// weights, then the monotonicity and sum powers, comma separated) when set, else `name`.
fn eval_from_env(name: &str) -> ThreesEval {
    match std::env::var("THREES_W") {
        Ok(w) => {
            let v: Vec<f64> = w.split(',').map(|x| x.trim().parse().unwrap()).collect();
            let mut p = plyscope::games::threes::eval::StrongParams::default();
            p.weights.copy_from_slice(&v[..7]);
            p.mono_power = v.get(7).copied().unwrap_or(p.mono_power);
            p.sum_power = v.get(8).copied().unwrap_or(p.sum_power);
            ThreesEval::strong_with(p)
        }
        Err(_) => ThreesEval::by_name(name).unwrap(),
    }
}

/// Tuning aid for the late game, run by hand. With `LATE_DUMP=FILE`, plays `THREES_GAMES` games
/// from `THREES_SEED` (depth `THREES_DEPTH`, cut-off `THREES_CUTOFF`) and writes the position where
/// each first holds a `LATE_AT` card (default 1536); with `LATE_FROM=FILE` as well, it plays on
/// from FILE's positions instead of fresh deals. With `LATE_FROM=FILE` alone, plays every position of
/// FILE to the end (nature seeded with `THREES_SEED` + line), with the evaluator of `THREES_W`, and
/// prints the geometric mean score and the share reaching 3072 and 6144.
#[test]
#[ignore]
fn late() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let seed = env_or("THREES_SEED", 1u64);
    // THREES_TIME (ms a move) searches as the benchmark does, with a time budget (0: fixed depth).
    let time_ms = Some(env_or("THREES_TIME", 0u64)).filter(|&t| t > 0);
    let mut cfg = threes_bench::bench_config(time_ms, env_or("THREES_DEPTH", 4u32), seed);
    cfg.chance_cutoff = env_or("THREES_CUTOFF", 0.0001);
    let eval = eval_from_env("");
    let play_until = |mut pos: Threes, nature_seed: u64, stop_rank: u8| -> Threes {
        let mut nature = plyscope::core::Rng::seeded(nature_seed);
        let mut outs = Vec::new();
        let c = SearchConfig {
            seed: Some(nature_seed),
            ..cfg.clone()
        };
        loop {
            if pos.highest_rank() >= stop_rank {
                return pos;
            }
            match pos.turn() {
                Turn::Terminal => return pos,
                Turn::Chance => deal_by_nature(&mut pos, &mut nature, &mut outs),
                Turn::Player(_) => {
                    let r = search(&pos, &eval, &c, Hooks::default()).unwrap();
                    pos.play_unchecked(r.best.unwrap());
                }
            }
        }
    };
    let dump = std::env::var("LATE_DUMP").ok();
    let at = value_rank(env_or("LATE_AT", 1536u32)).unwrap();
    // Saved positions (LATE_FROM), or fresh deals when only dumping.
    let work: Vec<Threes> = match std::env::var("LATE_FROM") {
        Ok(file) => {
            let text = std::fs::read_to_string(file).unwrap();
            text.lines().map(pos).collect()
        }
        Err(_) => (0..env_or("THREES_GAMES", 10u64))
            .map(|g| Threes::deal(seed + g))
            .collect(),
    };
    let next = AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![None; work.len()]);
    std::thread::scope(|sc| {
        for _ in 0..2 {
            sc.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= work.len() {
                    break;
                }
                let end = if dump.is_some() {
                    play_until(work[i].clone(), seed + i as u64, at)
                } else {
                    play_until(work[i].clone(), seed + i as u64, u8::MAX)
                };
                results.lock().unwrap()[i] = Some(end);
            });
        }
    });
    let ends: Vec<Threes> = results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|e| e.unwrap())
        .collect();
    if let Some(file) = dump {
        let lines: Vec<String> = ends
            .iter()
            .filter(|p| p.highest_rank() >= at && p.turn() != Turn::Terminal)
            .map(|p| p.position_text())
            .collect();
        std::fs::write(&file, lines.join("\n") + "\n").unwrap();
        println!(
            "{} positions with a {} written to {file}",
            lines.len(),
            rank_value(at)
        );
    } else {
        let n = ends.len() as f64;
        let geo = (ends.iter().map(|p| (p.score() as f64).ln()).sum::<f64>() / n).exp();
        let share = |v: u32| {
            100.0
                * ends
                    .iter()
                    .filter(|p| rank_value(p.highest_rank()) >= v)
                    .count() as f64
                / n
        };
        for (i, p) in ends.iter().enumerate() {
            println!(
                "late {i}: score {} highest {} end {}",
                p.score(),
                rank_value(p.highest_rank()),
                p.position_text()
            );
        }
        // LATE_BEAT: the share of games ending above this score (the seed bot's high by default).
        let beat = env_or("LATE_BEAT", 774_996u64);
        let above = ends.iter().filter(|p| p.score() > beat).count();
        println!(
            "late summary: {n} games, geometric mean {geo:.0}, 3072 {:.1} %, 6144 {:.1} %, \
             above {beat} {:.1} %",
            share(3072),
            share(6144),
            100.0 * above as f64 / n
        );
    }
}

/// Cells outside a1-d4 are refused before any arithmetic on them (these overflowed in builds with
/// overflow checks: the cell number was computed before its range was checked).
#[test]
fn deal_cells_out_of_range_are_refused_without_overflow() {
    let p = Threes::new_game("threes-1").unwrap();
    for text in [
        "2 at a0, next 1",
        "1 at aw next 3",
        "2 at c| next 3",
        "2 at \u{7f}1, next 1",
        "2 at e1, next 1",
        "2 at a5, next 1",
        "3 at ~~, next 2",
    ] {
        let e = p.parse_move(text).unwrap_err();
        assert!(e.to_string().contains("cell a1-d4"), "{text}: {e}");
    }
    assert!(p.parse_move("2 at d4, next 1").is_ok());
}

#[test]
fn threes_values_read_as_board_quality_or_a_loss_never_as_raw_numbers() {
    use plyscope::games::threes::eval::{FLOOR, LOST};
    let eval = <plyscope::games::threes::Threes as Playable>::evaluator("").unwrap();
    let t = eval.describe(16_739.0);
    assert_eq!(t.text, "board quality 16.7k");
    let t = eval.describe(LOST + 3_000.0);
    assert_eq!(
        (t.text.as_str(), t.decided),
        ("lost within 3 plies", Some(-3))
    );
    let t = eval.describe(FLOOR - 10_000.0);
    assert_eq!(t.text, "some lines lose");
    assert!(!t.text.chars().any(|c| c.is_ascii_digit()));
}

#[test]
fn the_outlook_is_the_expected_score_a_few_swipes_ahead() {
    use plyscope::games::threes::outlook::expected_score;
    // 3 + 3 merge into a 6 (worth 9) only by a swipe left; the new card, a 1, scores nothing.
    let p = pos("3 3 . . / . . . . / . . . . / . . . . | deck 3 4 4 | next 1");
    let mv = |t: &str| p.parse_move(t).unwrap();
    assert_eq!(board_score(p.board()), 6);
    assert_eq!(expected_score(&p, mv("left"), 1), Some(9.0));
    assert_eq!(expected_score(&p, mv("right"), 1), Some(6.0));
    assert_eq!(expected_score(&p, mv("down"), 1), Some(6.0));
    assert_eq!(
        expected_score(&p, mv("up"), 1),
        None,
        "up moves nothing: not legal"
    );
    // The score never falls, so looking further never expects less.
    let q = pos("3 . 1 2 / . . . . / 12 6 . . / . . . 48 | deck 2 3 4 | next 2");
    for m in ["left", "right", "up", "down"] {
        let m = q.parse_move(m).unwrap();
        let (a, b) = (expected_score(&q, m, 1), expected_score(&q, m, 3));
        if let (Some(a), Some(b)) = (a, b) {
            assert!(
                b >= a - 1e-9 && a >= board_score(q.board()) as f64 - 1e-9,
                "{a} then {b}"
            );
        }
    }
}

#[test]
fn a_threes_search_reports_expected_scores_not_board_quality_alone() {
    use plyscope::games::threes::outlook::{expected_score, OUTLOOK_SWIPES};
    let text = "3 . 1 2 / . . . . / 12 6 . . / . . . 48 | deck 2 3 4 | next 2";
    let p = pos(text);
    let mut s = new_session("threes").unwrap();
    s.set_position(text).unwrap();
    let cfg = SearchConfig {
        algorithm: Algorithm::Expectimax,
        depth: 3,
        record_tree: true,
        ..SearchConfig::default()
    };
    let r = s.search(&cfg, Hooks::default()).unwrap();
    let want = expected_score(&p, p.parse_move(&r.mv).unwrap(), OUTLOOK_SWIPES).unwrap();
    assert_eq!(r.value_text.amount, Some((want * 10.0).round() / 10.0));
    assert!(
        r.value_text.text.starts_with("expected score ")
            && r.value_text.text.contains(&format!(
                "in {OUTLOOK_SWIPES} swipes, {} now;",
                board_score(p.board())
            ))
            && r.value_text.text.contains("board quality"),
        "{}",
        r.value_text.text
    );
    for rm in &r.root_moves {
        assert!(
            rm.value_text.text.starts_with("expected score "),
            "{}",
            rm.value_text.text
        );
    }
    let tree = r.tree.expect("a tree was asked for");
    assert_eq!(
        tree.head.chosen.unwrap().value_text,
        Some(r.value_text.text)
    );
}
