//! Reversi: perft against GAMES.md, the 8x8 bitboard against the general representation, 10x10 and
//! 12x12 against a naive move generator, notation, records, evaluators, errors and the generic checks.

mod common;

use plyscope::core::{
    perft, Breakdown, Evaluator, Game, Outcome, PerftConvention, PlayerId, Rng, Turn,
};
use plyscope::games::reversi::{format_record, parse_record, Reversi, ReversiEval, ReversiMove};
use plyscope::games::Playable;
use plyscope::session::new_session;

/// The perft table: (game id, depth, leaves). The file states its counting convention ("a pass
/// uses a ply; a finished game counts 1 at every deeper depth").
fn perft_table() -> Vec<(String, u32, u64)> {
    let text = include_str!("data/reversi.perft");
    assert!(
        text.contains("a finished game counts 1 at every deeper depth"),
        "the table names its convention"
    );
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn generic_perft_matches_the_table_to_depth_9() {
    let table = perft_table();
    assert!(table.iter().filter(|r| r.1 <= 9).count() >= 9);
    for (id, depth, want) in table.into_iter().filter(|r| r.1 <= 9) {
        let start = Reversi::new_game(&id).unwrap();
        assert_eq!(
            perft(&start, depth, PerftConvention::FinishedCountsOne),
            want,
            "generic perft, depth {depth}"
        );
    }
}

#[test]
fn fast_perft_matches_the_table_to_depth_10() {
    for (id, depth, want) in perft_table().into_iter().filter(|r| r.1 <= 10) {
        let start = Reversi::new_game(&id).unwrap();
        assert!(start.is_bitboard());
        assert_eq!(start.perft(depth), want, "bitboard perft, depth {depth}");
        if depth <= 8 {
            let general = Reversi::general(8).unwrap();
            assert_eq!(general.perft(depth), want, "general perft, depth {depth}");
        }
    }
}

/// Depths 11 and 12 (2.2 billion leaves): `cargo test --release --test reversi -- --ignored`.
#[test]
#[ignore]
fn fast_perft_matches_the_table_at_depths_11_and_12() {
    for (id, depth, want) in perft_table().into_iter().filter(|r| r.1 > 10) {
        let start = Reversi::new_game(&id).unwrap();
        assert_eq!(start.perft(depth), want, "bitboard perft, depth {depth}");
    }
}

#[test]
fn fast_perft_equals_generic_perft_on_other_sizes_and_positions() {
    for size in [6, 10, 12, 16] {
        let start = Reversi::new(size).unwrap();
        for d in 1..=5 {
            assert_eq!(
                start.perft(d),
                perft(&start, d, PerftConvention::FinishedCountsOne),
                "size {size} depth {d}"
            );
        }
    }
    // Positions late in random games, where passes and finished games occur.
    for pos in common::random_positions(&Reversi::new(8).unwrap(), 60, 60, 11) {
        for d in 1..=4 {
            assert_eq!(
                pos.perft(d),
                perft(&pos, d, PerftConvention::FinishedCountsOne),
                "{} depth {d}",
                pos.position_text()
            );
        }
    }
    // 6x6 perft at depth 5 by the session too.
    let s = new_session("reversi-6").unwrap();
    assert_eq!(
        s.perft(5),
        perft(
            &Reversi::new(6).unwrap(),
            5,
            PerftConvention::FinishedCountsOne
        )
    );
}

/// Plays random games on both representations of 8x8 side by side.
#[test]
fn bitboard_agrees_with_the_general_board() {
    let mut rng = Rng::seeded(5);
    let mut positions = 0;
    for _ in 0..400 {
        let mut fast = Reversi::new(8).unwrap();
        let mut slow = Reversi::general(8).unwrap();
        assert!(!slow.is_bitboard());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        loop {
            positions += 1;
            assert_eq!(fast.position_text(), slow.position_text());
            assert_eq!(fast.zobrist(), slow.zobrist());
            assert_eq!(fast.turn(), slow.turn());
            assert_eq!(fast.to_general(), slow);
            for eval in [ReversiEval::Strong, ReversiEval::Discs] {
                let (mut bf, mut bs) = (Breakdown::default(), Breakdown::default());
                let vf = eval.evaluate(&fast, 0, &mut bf);
                let vs = eval.evaluate(&slow, 0, &mut bs);
                assert_eq!(bf.terms, bs.terms, "terms at {}", fast.position_text());
                assert_eq!(vf, vs);
            }
            fast.legal_moves(&mut a);
            slow.legal_moves(&mut b);
            assert_eq!(a, b, "legal moves at {}", fast.position_text());
            if a.is_empty() {
                assert_eq!(fast.outcome(), slow.outcome());
                break;
            }
            let m = a[rng.below(a.len() as u64) as usize];
            fast.play_unchecked(m);
            slow.play_unchecked(m);
        }
    }
    assert!(positions > 20_000);
}

/// A deliberately naive Reversi board: a grid of cells, moves found by walking each line.
#[derive(Clone)]
struct Naive {
    n: usize,
    cells: Vec<Option<PlayerId>>,
    to_move: PlayerId,
}

impl Naive {
    fn from(pos: &Reversi) -> Naive {
        let n = pos.size();
        let mut cells = Vec::new();
        for r in 0..n {
            for c in 0..n {
                cells.push(pos.cell(r, c));
            }
        }
        Naive {
            n,
            cells,
            to_move: pos.side_to_move(),
        }
    }

    /// The discs flipped by `player` playing at (r, c).
    fn flips(&self, player: PlayerId, r: usize, c: usize) -> Vec<usize> {
        let n = self.n as i64;
        let mut out = Vec::new();
        if self.cells[r * self.n + c].is_some() {
            return out;
        }
        for dr in -1i64..=1 {
            for dc in -1i64..=1 {
                if dr == 0 && dc == 0 {
                    continue;
                }
                let mut line = Vec::new();
                let (mut rr, mut cc) = (r as i64 + dr, c as i64 + dc);
                while rr >= 0 && rr < n && cc >= 0 && cc < n {
                    let i = (rr * n + cc) as usize;
                    match self.cells[i] {
                        Some(p) if p != player => line.push(i),
                        Some(_) => {
                            out.append(&mut line);
                            break;
                        }
                        None => break,
                    }
                    rr += dr;
                    cc += dc;
                }
            }
        }
        out
    }

    fn placements(&self, player: PlayerId) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for r in 0..self.n {
            for c in 0..self.n {
                if !self.flips(player, r, c).is_empty() {
                    v.push((r, c));
                }
            }
        }
        v
    }

    fn play(&mut self, r: usize, c: usize) {
        let p = self.to_move;
        for i in self.flips(p, r, c) {
            self.cells[i] = Some(p);
        }
        self.cells[r * self.n + c] = Some(p);
        self.to_move ^= 1;
    }
}

#[test]
fn other_sizes_agree_with_a_naive_generator() {
    let mut rng = Rng::seeded(9);
    for (size, games) in [(6usize, 60), (10, 30), (12, 30), (14, 8), (16, 8)] {
        let mut checked = 0;
        for _ in 0..games {
            let mut pos = Reversi::new(size).unwrap();
            let mut naive = Naive::from(&pos);
            let mut moves = Vec::new();
            loop {
                checked += 1;
                let mine = naive.placements(naive.to_move);
                let theirs = naive.placements(naive.to_move ^ 1);
                pos.legal_moves(&mut moves);
                let want: Vec<ReversiMove> = if !mine.is_empty() {
                    mine.iter().map(|&(r, c)| ReversiMove::at(r, c)).collect()
                } else if !theirs.is_empty() {
                    vec![ReversiMove::Pass]
                } else {
                    vec![]
                };
                assert_eq!(moves, want, "size {size} at {}", pos.position_text());
                if moves.is_empty() {
                    assert_eq!(pos.turn(), Turn::Terminal);
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                pos.play_unchecked(m);
                match m {
                    ReversiMove::Place(sq) => naive.play((sq >> 4) as usize, (sq & 15) as usize),
                    ReversiMove::Pass => naive.to_move ^= 1,
                }
                let now = Naive::from(&pos);
                assert_eq!(now.cells, naive.cells, "discs after {m:?}");
                assert_eq!(now.to_move, naive.to_move);
            }
        }
        assert!(checked > games * (size * size - 8), "whole games played");
    }
}

#[test]
fn generic_checks_on_every_size() {
    for size in [6, 8, 10, 12, 16] {
        let start = Reversi::new(size).unwrap();
        let games = if size <= 8 { 60 } else { 8 };
        let n = common::random_playouts(&start, games, 300, size as u64);
        assert!(n > games * 20, "size {size}: {n} positions");
    }
    let n = common::random_playouts(&Reversi::general(8).unwrap(), 20, 100, 3);
    assert!(n > 400);
}

#[test]
fn minimax_and_alphabeta_agree() {
    let positions = common::random_positions(&Reversi::new(8).unwrap(), 8, 40, 21);
    common::search_agreement(&positions, 3, "strong");
    common::search_agreement(&positions, 3, "discs");
    let positions = common::random_positions(&Reversi::new(12).unwrap(), 4, 60, 22);
    common::search_agreement(&positions, 3, "strong");
}

#[test]
fn evaluator_terms_sum_to_the_total_and_are_symmetric() {
    for size in [8, 12] {
        for pos in common::random_positions(&Reversi::new(size).unwrap(), 200, 120, 31) {
            for eval in [ReversiEval::Strong, ReversiEval::Discs] {
                for p in 0..2u8 {
                    let mut b = Breakdown::default();
                    let v = eval.evaluate(&pos, p, &mut b);
                    let sum: f64 = b.terms.iter().map(|t| t.value).sum();
                    assert!((v - sum).abs() < 1e-9, "{v} vs sum {sum}");
                    for t in &b.terms {
                        assert!((t.raw * t.weight - t.value).abs() < 1e-12);
                    }
                    let plain = eval.evaluate(&pos, p, &mut plyscope::core::NoTerms);
                    assert_eq!(plain, v, "the plain path gives the same value");
                    assert!(v.abs() < 100_000.0, "{v} stays far inside WIN_SCORE/2");
                }
                let a = eval.evaluate(&pos, 0, &mut plyscope::core::NoTerms);
                let b = eval.evaluate(&pos, 1, &mut plyscope::core::NoTerms);
                assert!((a + b).abs() < 1e-9, "zero-sum: {a} and {b}");
            }
        }
    }
    let mut b = Breakdown::default();
    ReversiEval::Strong.evaluate(&Reversi::new(8).unwrap(), 0, &mut b);
    let names: Vec<&str> = b.terms.iter().map(|t| t.name.as_str()).collect();
    for want in [
        "mobility",
        "potential_mobility",
        "frontier",
        "corners",
        "x_squares",
        "c_squares",
        "stable",
        "parity",
        "discs",
    ] {
        assert!(names.contains(&want), "term {want} in {names:?}");
    }
}

#[test]
fn strong_terms_see_corners_x_squares_and_stability() {
    // Black holds a1, b1, a2 (a stable corner block); White sits on g7, the X-square of empty h8.
    let mut cells = vec!['-'; 64];
    for i in [0, 1, 8] {
        cells[i] = 'X';
    }
    cells[6 * 8 + 6] = 'O';
    cells[27] = 'O';
    cells[28] = 'X';
    let text: String = cells.iter().collect::<String>() + " X";
    let pos = Reversi::from_position_text("reversi", &text).unwrap();
    let mut b = Breakdown::default();
    ReversiEval::Strong.evaluate(&pos, 0, &mut b);
    let raw = |n: &str| b.terms.iter().find(|t| t.name == n).unwrap().raw;
    assert_eq!(raw("corners"), 1.0);
    assert_eq!(raw("x_squares"), -1.0, "White's g7 next to the empty h8");
    assert_eq!(raw("stable"), 3.0, "a1, b1 and a2 can never turn over");
}

#[test]
fn notation_and_position_text() {
    let start = Reversi::new(8).unwrap();
    assert_eq!(
        start.position_text(),
        "---------------------------OX------XO--------------------------- X"
    );
    assert_eq!(start.cell(3, 3), Some(1), "d4 white");
    assert_eq!(start.cell(4, 4), Some(1), "e5 white");
    assert_eq!(start.cell(4, 3), Some(0), "d5 black");
    assert_eq!(start.cell(3, 4), Some(0), "e4 black");
    let mut moves = Vec::new();
    start.legal_moves(&mut moves);
    let names: Vec<String> = moves.iter().map(|&m| start.format_move(m)).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    assert_eq!(
        start.parse_move("D3").unwrap(),
        start.parse_move("d3").unwrap()
    );
    assert_eq!(start.parse_move("PASS").unwrap(), ReversiMove::Pass);
    // OBF form without the space, lower case, and a final semicolon.
    let obf = "---------------------------ox------xo---------------------------o;";
    let p = Reversi::from_position_text("reversi", obf).unwrap();
    assert_eq!(p.side_to_move(), 1);
    assert_eq!(p.cell(3, 3), Some(1));
    // Size 16: columns a..p, rows 1..16.
    let big = Reversi::new(16).unwrap();
    assert_eq!(big.game_id(), "reversi-16");
    let m = big.parse_move("p16").unwrap();
    assert_eq!(big.format_move(m), "p16");
    assert_eq!(m, ReversiMove::at(15, 15));
    assert!(big.parse_move("q1").is_err());
    assert!(big.parse_move("a17").is_err());
    assert_eq!(big.position_text().len(), 256 + 2);
    let back = Reversi::from_position_text("reversi-16", &big.position_text()).unwrap();
    assert_eq!(back, big);
    // Ids.
    assert_eq!(Reversi::new_game("reversi-8").unwrap(), start);
    assert_eq!(Reversi::new_game("reversi-12").unwrap().size(), 12);
    for bad in [
        "reversi-7",
        "reversi-18",
        "reversi-4",
        "reversi-x",
        "othello",
    ] {
        assert!(Reversi::new_game(bad).is_err(), "{bad}");
    }
    // The session speaks it too.
    let mut s = new_session("reversi-12").unwrap();
    assert_eq!(s.to_move(), "black");
    let first = s.legal_moves()[0].text.clone();
    assert_eq!(s.play(&first.to_uppercase()).unwrap(), first);
    assert_eq!(s.to_move(), "white");
}

#[test]
fn bad_position_text_and_moves_say_where_and_what() {
    let good = Reversi::new(8).unwrap().position_text();
    // A bad cell character.
    let mut bad = good.clone();
    bad.replace_range(10..11, "Z");
    let e = Reversi::from_position_text("reversi", &bad).unwrap_err();
    assert_eq!(e.at, 10);
    assert!(e.to_string().contains("'Z'"), "{e}");
    assert!(e.expected.contains("c2"), "names the cell: {e}");
    // Too short.
    let e = Reversi::from_position_text("reversi", &good[..40]).unwrap_err();
    assert_eq!(e.at, 40);
    assert!(e.to_string().contains("64 cells"), "{e}");
    // A bad side to move.
    let e = Reversi::from_position_text("reversi", &(good[..64].to_string() + " Z")).unwrap_err();
    assert_eq!(e.at, 65);
    assert!(e.expected.contains("side to move"), "{e}");
    // Trailing text.
    let e = Reversi::from_position_text("reversi", &(good.clone() + " extra")).unwrap_err();
    assert_eq!(e.at, 66);
    // An 8x8 text given to a 12x12 game.
    let e = Reversi::from_position_text("reversi-12", &good).unwrap_err();
    assert_eq!(e.at, 64);
    assert!(e.to_string().contains("144"), "{e}");
    assert!(Reversi::from_position_text("reversi-9", &good).is_err());

    // Moves: syntax errors say what a move looks like; illegal moves say why; nothing changes.
    let start = Reversi::new(8).unwrap();
    let e = start.parse_move("i9").unwrap_err();
    assert!(e.expected.contains("a1 to h8"), "{e}");
    assert!(start.parse_move("d").is_err());
    assert!(start.parse_move("d0").is_err());
    assert!(start.parse_move("").is_err());
    let mut pos = start.clone();
    let e = pos.play(ReversiMove::at(3, 3)).unwrap_err();
    assert!(e.reason.contains("taken"), "{e}");
    let e = pos.play(ReversiMove::at(0, 0)).unwrap_err();
    assert!(e.reason.contains("bracket"), "{e}");
    let e = pos.play(ReversiMove::Pass).unwrap_err();
    assert!(e.reason.contains("pass only"), "{e}");
    assert_eq!(pos, start, "state unchanged on error");
    let mut s = new_session("reversi").unwrap();
    assert!(s.play("a1").is_err());
    assert!(s.play("zz").is_err());
    assert_eq!(s.history().len(), 0);
}

#[test]
fn records_round_trip_with_passes_left_out() {
    let start = Reversi::new(8).unwrap();
    let (moves, end) = parse_record(&start, "f5d6c3d3c4").unwrap();
    assert_eq!(moves.len(), 5);
    assert_eq!(format_record(&moves), "f5d6c3d3c4");
    assert_eq!(end.side_to_move(), 1);
    // Spaces, upper case and explicit passes are accepted.
    let (again, _) = parse_record(&start, "F5 d6, C3 d3 c4").unwrap();
    assert_eq!(again, moves);

    let mut rng = Rng::seeded(77);
    let mut with_pass = 0;
    for size in [6, 8, 10] {
        let start = Reversi::new(size).unwrap();
        for _ in 0..40 {
            let mut pos = start.clone();
            let mut played = Vec::new();
            let mut ms = Vec::new();
            loop {
                pos.legal_moves(&mut ms);
                if ms.is_empty() {
                    break;
                }
                let m = ms[rng.below(ms.len() as u64) as usize];
                played.push(m);
                pos.play_unchecked(m);
            }
            // A trailing pass cannot be inferred from a record that stops there.
            while played.last() == Some(&ReversiMove::Pass) {
                played.pop();
            }
            if played.contains(&ReversiMove::Pass) {
                with_pass += 1;
            }
            let text = format_record(&played);
            assert!(!text.contains("pass"));
            let (read, end) = parse_record(&start, &text).unwrap();
            assert_eq!(read, played, "record {text}");
            assert_eq!(end.turn(), Turn::Terminal);
            assert_eq!(end.position_text(), pos.position_text());
        }
    }
    assert!(with_pass > 0, "some random games had a pass");

    // Errors name the offset and what was expected.
    let e = parse_record(&start, "f5d6x3").unwrap_err();
    assert_eq!(e.at, 4);
    assert!(e.expected.contains("a cell"), "{e}");
    let e = parse_record(&start, "f5d6a1").unwrap_err();
    assert_eq!(e.at, 4);
    assert!(e.expected.contains("legal move for black"), "{e}");
    assert!(e.expected.contains("c3"), "lists the legal moves: {e}");
}

#[test]
fn passes_and_the_end_of_the_game() {
    // White (to move) has no move; Black has c1: White's only move is pass.
    let mut cells = vec!['-'; 64];
    cells[0] = 'X';
    cells[1] = 'O';
    let text: String = cells.iter().collect::<String>() + " O";
    let mut pos = Reversi::from_position_text("reversi", &text).unwrap();
    assert_eq!(pos.turn(), Turn::Player(1));
    let mut ms = Vec::new();
    pos.legal_moves(&mut ms);
    assert_eq!(ms, [ReversiMove::Pass]);
    pos.play(ReversiMove::Pass).unwrap();
    assert_eq!(pos.turn(), Turn::Player(0));
    pos.play(pos.parse_move("c1").unwrap()).unwrap();
    // Now only black discs: neither side can move, so no second pass is offered: the game is over.
    assert_eq!(pos.turn(), Turn::Terminal);
    pos.legal_moves(&mut ms);
    assert!(ms.is_empty());
    assert_eq!(pos.outcome(), Some(Outcome::Win(0)));
    assert!(pos.play(ReversiMove::Pass).is_err());
    // A blocked board with equal discs is a draw.
    let mut cells = vec!['-'; 64];
    cells[0] = 'X';
    cells[63] = 'O';
    let text: String = cells.iter().collect::<String>() + " X";
    let pos = Reversi::from_position_text("reversi", &text).unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    // A full board from a random game ends the game and the perft counts it once per depth.
    assert_eq!(pos.perft(3), 1);
}

fn walk<'a>(n: &'a plyscope::tree::Node, out: &mut Vec<&'a plyscope::tree::Node>) {
    out.push(n);
    for c in &n.children {
        walk(c, out);
    }
}

#[test]
fn recorded_trees_validate_and_carry_the_terms() {
    let validator = common::tree_schema();
    for size in [8, 12] {
        let pos = common::random_positions(&Reversi::new(size).unwrap(), 1, 30, 5)
            .pop()
            .unwrap();
        let cfg = plyscope::search::SearchConfig {
            depth: 3,
            seed: Some(2),
            record_tree: true,
            ..Default::default()
        };
        let eval = Reversi::evaluator("strong").unwrap();
        let r = plyscope::search::search(&pos, &eval, &cfg, Default::default()).unwrap();
        let doc = r.tree.expect("a tree").to_document();
        assert_eq!(doc.game, pos.game_id());
        assert_eq!(doc.evaluator.as_deref(), Some("strong"));
        let root_text = doc.root_position.clone().unwrap();
        assert_eq!(
            Reversi::from_position_text(&doc.game, &root_text).unwrap(),
            pos
        );
        let json: serde_json::Value = serde_json::from_str(&doc.to_json()).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        let mut nodes = Vec::new();
        walk(&doc.root, &mut nodes);
        let leaves: Vec<_> = nodes.iter().filter_map(|n| n.eval.as_ref()).collect();
        assert!(!leaves.is_empty());
        for b in leaves {
            let sum: f64 = b.terms.iter().map(|t| t.value).sum();
            assert!((sum - b.total).abs() < 1e-9);
            assert!(b.terms.iter().any(|t| t.name == "stable"));
        }
    }
}
