//! Ataxx: perft tables, text and packed round-trips, walls, game ends, evaluators, the generic checks.

mod common;

use plyscope::core::{perft, Breakdown, Evaluator, Game, NoTerms, Outcome, PerftConvention, Turn};
use plyscope::games::ataxx::notation::{from_packed, to_packed};
use plyscope::games::ataxx::walls::{self, PRESETS};
use plyscope::games::ataxx::{Ataxx, AtaxxEval, AtaxxMove};
use plyscope::games::Playable;
use plyscope::session::new_session;

const START: &str = "x5o/7/7/7/7/7/o5x x 0 1";

fn fen(text: &str) -> Ataxx {
    Ataxx::from_position_text("ataxx", text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The reference tables: (FEN, counts from depth 1).
fn perft_table() -> Vec<(String, Vec<u64>)> {
    common::perft_lines(include_str!("data/ataxx.perft"))
}

#[test]
fn perft_tables_match_games_md_with_fast_and_generic_perft() {
    let table = perft_table();
    assert_eq!(table.len(), 3);
    for (f, counts) in &table {
        let pos = fen(f);
        for (d, &want) in counts.iter().enumerate() {
            let depth = d as u32 + 1;
            assert_eq!(pos.perft_fast(depth), want, "fast perft {depth} of {f}");
            assert_eq!(pos.perft(depth), want, "Playable::perft {depth} of {f}");
            assert_eq!(
                perft(&pos, depth, PerftConvention::FinishedCountsZero),
                want,
                "generic perft {depth} of {f}"
            );
        }
    }
}

#[test]
fn fast_perft_agrees_with_generic_perft_on_random_positions() {
    for pos in common::random_positions(&Ataxx::new(), 30, 60, 11) {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        assert_eq!(pos.count_moves(), moves.len() as u64);
        for depth in 1..=3 {
            assert_eq!(
                pos.perft_fast(depth),
                perft(&pos, depth, PerftConvention::FinishedCountsZero),
                "depth {depth} at {}",
                pos.position_text()
            );
        }
    }
}

#[test]
fn fen_round_trips() {
    for f in [
        START,
        "x5o/7/2-1-2/7/2-1-2/7/o5x o 3 17",
        "7/7/7/7/-------/-------/x5o x 0 1",
        "xxxxxxx/ooooooo/x-x-x-x/7/1o3x1/2-1-2/o5x o 99 250",
    ] {
        assert_eq!(fen(f).position_text(), f);
    }
    // Clocks may be left out; other letters for the colours are read too.
    assert_eq!(fen("x5o/7/7/7/7/7/o5x x").position_text(), START);
    assert_eq!(fen("b5w/7/7/7/7/7/w5b b 0 1").position_text(), START);
    assert_eq!(Ataxx::new().position_text(), START);
}

#[test]
fn packed_form_is_14_bytes_and_round_trips() {
    let start = to_packed(&Ataxx::new());
    assert_eq!(start.len(), 14);
    // Rank 7 first: x on a7 (1 in bits 0-1), o on g7 (2 in bits 12-13).
    assert_eq!(u16::from_le_bytes([start[0], start[1]]), 0x2001);
    assert_eq!(u16::from_le_bytes([start[12], start[13]]), 0x1002);
    let mut n = 0;
    for pos in common::random_positions(&Ataxx::with_wall_code(0x8124).unwrap(), 60, 80, 5) {
        let packed = to_packed(&pos);
        let back = from_packed(&packed).unwrap();
        assert_eq!(back.pieces(0), pos.pieces(0));
        assert_eq!(back.pieces(1), pos.pieces(1));
        assert_eq!(back.walls(), pos.walls());
        assert_eq!(back.side_to_move(), pos.side_to_move());
        assert_eq!(to_packed(&back), packed);
        n += pos.side_to_move() as usize;
    }
    assert!(n > 0, "some positions had white to move");
    let e = from_packed(&start[..13]).unwrap_err();
    assert!(e.to_string().contains("14 bytes"), "{e}");
    let mut bad = start;
    bad[5] |= 0x40;
    let e = from_packed(&bad).unwrap_err();
    assert_eq!(e.at, 5);
}

#[test]
fn wall_codes_mirror_and_read_back() {
    // GAMES.md's second perft position is the layout 0x0400.
    let four = fen("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1");
    assert_eq!(four.walls(), walls::mirror(0x0400));
    assert_eq!(four.wall_code(), Some(0x0400));
    assert_eq!(four.game_id(), "ataxx-0400");
    assert_eq!(
        Ataxx::new_game("ataxx-0400").unwrap().position_text(),
        "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"
    );
    for code in (0..=u16::MAX).step_by(2) {
        let w = walls::mirror(code);
        assert_eq!(walls::code_of(w), Some(code));
        // Symmetric under both reflections.
        for sq in 0..49u64 {
            let (r, f) = (sq / 7, sq % 7);
            let bit = w >> sq & 1;
            assert_eq!(bit, w >> (r * 7 + 6 - f) & 1);
            assert_eq!(bit, w >> ((6 - r) * 7 + f) & 1);
        }
    }
    // The seed's examples: 0x7888 has its walls on the middle row and column, centre free.
    assert_eq!(walls::mirror(0x7888).count_ones(), 12);
    assert_eq!(walls::mirror(0x7888) >> 24 & 1, 0);
    // An asymmetric layout has no code.
    assert_eq!(fen("7/7/7/7/-------/-------/x5o x 0 1").wall_code(), None);
}

#[test]
fn toggling_a_cell_toggles_its_mirrors() {
    for cell in 0..49u8 {
        let corner = matches!(cell, 0 | 6 | 42 | 48);
        match walls::toggle(0, cell) {
            Err(e) => {
                assert!(corner, "cell {cell}: {e}");
                assert!(e.to_string().contains("corner"), "{e}");
            }
            Ok(code) => {
                assert!(!corner);
                let w = walls::mirror(code);
                assert_eq!(w >> cell & 1, 1, "the clicked cell gets a wall");
                let (r, f) = (cell / 7, cell % 7);
                for m in [r * 7 + 6 - f, (6 - r) * 7 + f, (6 - r) * 7 + 6 - f] {
                    assert_eq!(w >> m & 1, 1, "mirror {m} of {cell}");
                }
                assert_eq!(walls::toggle(code, cell).unwrap(), 0, "toggling twice");
            }
        }
    }
    assert!(walls::toggle(0, 49).is_err());
}

#[test]
fn validation_accepts_the_seeds_9949_layouts_and_rejects_walled_in_starts() {
    let small: Vec<u16> = (0..=u16::MAX)
        .filter(|c| c & 1 == 0 && c.count_ones() <= 6)
        .collect();
    assert_eq!(small.len(), 9949);
    assert!(small.iter().all(|&c| walls::is_playable(c)));
    // Bits 1, 2, 4, 5, 6, 8, 9, 10 fill every cell within two of the corners.
    let e = walls::validate(0x0776).unwrap_err().to_string();
    assert!(e.contains("walls black in"), "{e}");
    assert!(Ataxx::new_game("ataxx-0776").is_err());
    let e = walls::validate(0x0001).unwrap_err().to_string();
    assert!(e.contains("corners"), "{e}");
    for (name, code) in PRESETS {
        assert!(walls::is_playable(*code), "preset {name}");
        let pos = Ataxx::with_wall_code(*code).unwrap();
        assert_eq!(Ataxx::new_game(&pos.game_id()).unwrap(), pos);
    }
}

#[test]
fn random_layouts_are_seeded_small_and_playable() {
    let mut seen = std::collections::HashSet::new();
    for seed in 0..200 {
        let code = walls::random_layout(seed);
        assert_eq!(code, walls::random_layout(seed), "same seed, same layout");
        assert!(code.count_ones() <= 6 && code & 1 == 0);
        assert!(walls::is_playable(code));
        seen.insert(code);
    }
    assert!(seen.len() > 150, "{} distinct layouts", seen.len());
}

#[test]
fn wall_codes_parse_in_hex() {
    assert_eq!(walls::parse_code("0x1234").unwrap(), 0x1234);
    assert_eq!(walls::parse_code("0X7888").unwrap(), 0x7888);
    assert_eq!(walls::parse_code("01a2").unwrap(), 0x01A2);
    assert_eq!(walls::parse_code("400").unwrap(), 0x0400);
    for bad in ["", "0x", "12345", "zz", "0x12g4", "-1"] {
        let e = walls::parse_code(bad).unwrap_err().to_string();
        assert!(e.contains("hex"), "{bad:?}: {e}");
    }
    assert!(Ataxx::new_game("ataxx-zz").is_err());
    assert!(Ataxx::new_game("reversi").is_err());
}

#[test]
fn moves_have_text_and_bad_text_is_refused() {
    let pos = Ataxx::new();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    assert_eq!(moves.len(), 16);
    for t in ["f2", "b6", "a7c5", "g1e3", "a7a5"] {
        assert!(texts.contains(&t.to_string()), "{t} in {texts:?}");
    }
    assert_eq!(pos.parse_move("0000").unwrap(), AtaxxMove::PASS);
    assert_eq!(pos.parse_move("g1f2").unwrap(), AtaxxMove::clone_to(12));
    for bad in ["", "h1", "a8", "a1a4", "a1a1", "a1b", "f2 ", "xx"] {
        let r = pos.parse_move(bad);
        if bad == "f2 " {
            assert!(r.is_ok());
            continue;
        }
        let e = r.unwrap_err().to_string();
        assert!(e.contains("expected"), "{bad:?}: {e}");
    }
}

#[test]
fn illegal_moves_say_why_and_change_nothing() {
    let pos = Ataxx::new();
    let cases = [
        ("d4", "clone from"),
        ("g7e5", "no black piece"),
        ("a7", "taken"),
        ("0000", "may pass only"),
    ];
    for (mv, why) in cases {
        let mut p = pos.clone();
        let m = p.parse_move(mv).unwrap();
        let e = p.play(m).unwrap_err().to_string();
        assert!(e.contains(why), "{mv}: {e}");
        assert_eq!(p, pos, "state unchanged after {mv}");
    }
    let mut walled = fen("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1");
    let e = walled
        .play(AtaxxMove::jump(42, 30))
        .unwrap_err()
        .to_string();
    assert!(e.contains("wall"), "{e}");
}

#[test]
fn clones_convert_neighbours_and_jumps_empty_the_origin() {
    let mut pos = fen("7/7/2o4/1o1o3/7/7/x5x x 0 1");
    // The jump a1-c3 empties a1 and turns b4 and d4 (next to c3) black.
    pos.play(pos.parse_move("a1c3").unwrap()).unwrap();
    assert_eq!(pos.pieces(0).count_ones(), 4);
    assert_eq!(pos.halfmove_clock(), 1);
    assert_eq!(pos.position_text(), "7/7/2o4/1x1x3/2x4/7/6x o 1 1");
    let mut pos = fen("7/7/2o4/1o1o3/7/7/x5x x 5 1");
    pos.play(pos.parse_move("a1b2").unwrap()).unwrap(); // a clone written as two cells
    assert_eq!(pos.halfmove_clock(), 0);
    // White clones to c4 and takes the last black piece, c3.
    let mut pos = fen("7/7/2o4/1o1o3/2x4/7/7 o 0 7");
    pos.play(pos.parse_move("c4").unwrap()).unwrap();
    assert_eq!(pos.position_text(), "7/7/2o4/1ooo3/2o4/7/7 x 0 8");
    assert_eq!(pos.turn(), Turn::Terminal, "black has no pieces left");
    assert_eq!(pos.outcome(), Some(Outcome::Win(1)));
}

#[test]
fn halfmove_clock_ends_the_game_at_100() {
    let mut pos = fen("xx4o/7/7/7/7/7/o5x x 99 60");
    let mut c = pos.clone();
    c.play(c.parse_move("b7b6").unwrap()).unwrap(); // a clone resets the clock
    assert_eq!(c.halfmove_clock(), 0);
    assert_eq!(c.turn(), Turn::Player(1));
    pos.play(pos.parse_move("b7d5").unwrap()).unwrap();
    assert_eq!(pos.halfmove_clock(), 100);
    assert_eq!(pos.turn(), Turn::Terminal);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Draw),
        "the clock draws, though black has three pieces to two"
    );
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(pos.perft_fast(2), 0);
    assert!(Ataxx::from_position_text("ataxx", "x5o/7/7/7/7/7/o5x x 101 1").is_err());
}

#[test]
fn a_side_wiped_out_as_the_clock_runs_out_has_lost() {
    // White's only piece, on c5, turns black when black's jump a7-b5 lands next to it.
    let mut pos = fen("x6/7/2o4/7/7/7/7 x 99 60");
    let m = pos.parse_move("a7b5").unwrap();
    pos.play(m).unwrap();
    assert_eq!(pos.halfmove_clock(), 100);
    assert_eq!(pos.turn(), Turn::Terminal);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win(0)),
        "white has no pieces left"
    );
}

#[test]
fn game_ends_when_no_empty_cell_is_reachable() {
    let pos = fen("7/7/7/-------/-------/xxxxxxx/oooooox x 0 1");
    assert!(pos.empty() != 0, "there are empty cells, but out of reach");
    assert_eq!(pos.turn(), Turn::Terminal);
    assert_eq!(pos.outcome(), Some(Outcome::Win(0)), "eight pieces to six");
    assert_eq!(pos.count_moves(), 0);
    let full = fen("xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/ooooooo/ooooooo o 0 1");
    assert_eq!(full.outcome(), Some(Outcome::Win(1)));
    let draw = fen("7/7/7/-------/-------/xxxxxxx/ooooooo o 0 1");
    assert_eq!(draw.outcome(), Some(Outcome::Draw));
}

#[test]
fn a_player_without_a_move_passes() {
    let mut pos = fen("x--4/---4/---4/7/7/7/6o x 0 1");
    assert_eq!(pos.turn(), Turn::Player(0));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves, vec![AtaxxMove::PASS]);
    assert_eq!(pos.count_moves(), 1);
    pos.play(pos.parse_move("0000").unwrap()).unwrap();
    assert_eq!(pos.position_text(), "x--4/---4/---4/7/7/7/6o o 1 1");
    assert_eq!(pos.zobrist(), pos.zobrist_from_scratch());
    // White may not pass: it has moves.
    assert!(pos.clone().play(AtaxxMove::PASS).is_err());
}

#[test]
fn bad_fen_says_where_and_what() {
    let cases: [(&str, usize, &str); 9] = [
        ("x5o/7/7/7/7/7/o5y x 0 1", 16, "a cell"),
        ("x7o/7/7/7/7/7/o5x x 0 1", 1, "a run of at most 6"),
        ("x5o/6/7/7/7/7/o5x x 0 1", 5, "1 more cells"),
        ("x5o/7/7/7/7/7 x 0 1", 13, "seven ranks"),
        ("x5o/7/7/7/7/7/o5x", 17, "seven ranks of seven cells"),
        ("x5o/7/7/7/7/7/o5x z 0 1", 18, "side to move"),
        ("x5o/7/7/7/7/7/o5x x 101 1", 20, "halfmove"),
        ("x5o/7/7/7/7/7/o5x x 0 0", 22, "fullmove"),
        ("x5o/7/7/7/7/7/o5x x 0 1 junk", 24, "end of text"),
    ];
    for (text, at, what) in cases {
        let e = Ataxx::from_position_text("ataxx", text).unwrap_err();
        assert_eq!(e.at, at, "{text}: {e}");
        assert!(e.to_string().contains(what), "{text}: {e}");
    }
    assert!(Ataxx::from_position_text("reversi", START).is_err());
}

#[test]
fn evaluators_are_antisymmetric_and_sum_their_terms() {
    for pos in common::random_positions(&Ataxx::with_wall_code(0x0400).unwrap(), 80, 70, 3) {
        for name in Ataxx::evaluator_names() {
            let e = Ataxx::evaluator(name).unwrap();
            let a = e.evaluate(&pos, 0, &mut NoTerms);
            let b = e.evaluate(&pos, 1, &mut NoTerms);
            assert!((a + b).abs() < 1e-9, "{name}: {a} vs {b}");
            let mut bd = Breakdown::default();
            let c = e.evaluate(&pos, 0, &mut bd);
            let sum: f64 = bd.terms.iter().map(|t| t.value).sum();
            assert!((sum - c).abs() < 1e-9 && (c - a).abs() < 1e-9);
        }
        let diff = pos.pieces(0).count_ones() as f64 - pos.pieces(1).count_ones() as f64;
        assert_eq!(
            AtaxxEval::Material.evaluate(&pos, 0, &mut NoTerms),
            100.0 * diff
        );
    }
    let mut bd = Breakdown::default();
    AtaxxEval::Strong.evaluate(&Ataxx::new(), 0, &mut bd);
    let names: Vec<&str> = bd.terms.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        ["material", "mobility", "exposed", "holes", "threat", "parity"]
    );
    assert!(Ataxx::evaluator("nonsense").is_err());
    assert_eq!(Ataxx::evaluator("").unwrap(), AtaxxEval::Nnue);
}

#[test]
fn the_search_takes_the_big_capture() {
    use plyscope::search::{search, Hooks, SearchConfig};
    // White to move: the jump b2-d4 takes the eight black pieces around d4.
    let pos = fen("7/7/2xxx2/2x1x2/2xxx2/1o5/6o o 0 1");
    let r = search(
        &pos,
        &AtaxxEval::Strong,
        &SearchConfig {
            depth: 1,
            seed: Some(1),
            ..Default::default()
        },
        Hooks::default(),
    )
    .unwrap();
    let m = pos.format_move(r.best.unwrap());
    assert!(m.ends_with("d4"), "{m}");
}

#[test]
fn sessions_play_by_id() {
    let mut s = new_session("ataxx-0400").unwrap();
    assert_eq!(s.game_id(), "ataxx-0400");
    assert_eq!(s.players(), ["black", "white"]);
    assert_eq!(s.play("f2").unwrap(), "f2");
    assert!(s.play("f2").is_err());
    assert_eq!(s.to_move(), "white");
    assert_eq!(
        s.perft(2),
        perft(
            &fen(&s.position_text()),
            2,
            PerftConvention::FinishedCountsZero
        )
    );
    assert!(new_session("ataxx-0001").is_err());
    let entry = plyscope::games::CATALOGUE
        .iter()
        .find(|g| g.id == "ataxx")
        .unwrap();
    for (id, name) in entry.variants {
        assert_eq!(new_session(id).unwrap().game_id(), *id, "{name}");
        let preset = name.trim_start_matches("Ataxx, ");
        let code = walls::preset(preset).unwrap_or_else(|| panic!("{preset} is a preset"));
        assert_eq!(*id, format!("ataxx-{code:04X}"));
    }
    assert_eq!(walls::preset("Four Pillars"), Some(0x0400));
    assert_eq!(walls::preset("nowhere"), None);
}

#[test]
fn generic_checks() {
    for code in [0x0000, 0x0400, 0x7888, 0x8124] {
        let start = Ataxx::with_wall_code(code).unwrap();
        let n = common::random_playouts(&start, 12, 400, code as u64 + 1);
        assert!(n > 500, "{n} positions");
    }
    // Games played to their end (small board regions end quickly): the pass and the end conditions.
    let n = common::random_playouts(&fen("7/7/7/7/-------/-------/x5o x 0 1"), 50, 200, 9);
    assert!(n > 100);
    let positions = common::random_positions(&Ataxx::new(), 8, 30, 7);
    common::search_agreement(&positions, 3, "");
    common::search_agreement(&positions, 3, "material");
}

/// Plays one game from an opening of four random plies: `black` and `white` search at `depth`.
fn duel(black: AtaxxEval, white: AtaxxEval, seed: u64, depth: u32) -> Option<Outcome> {
    use plyscope::core::Rng;
    use plyscope::search::{search, Hooks, SearchConfig};
    let mut pos = Ataxx::new();
    let mut rng = Rng::seeded(seed);
    let mut moves = Vec::new();
    for _ in 0..4 {
        pos.legal_moves(&mut moves);
        pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
    }
    let cfg = SearchConfig {
        depth,
        seed: Some(seed),
        random_ties: false,
        ..Default::default()
    };
    for _ in 0..500 {
        let eval = match pos.turn() {
            Turn::Terminal => break,
            Turn::Player(0) => black,
            _ => white,
        };
        let r = search(&pos, &eval, &cfg, Hooks::default()).unwrap();
        pos.play_unchecked(r.best.unwrap());
    }
    pos.outcome()
}

#[test]
fn the_strong_evaluator_beats_material_alone() {
    let mut strong_wins = 0;
    for seed in 0..12 {
        if duel(AtaxxEval::Strong, AtaxxEval::Material, seed, 2) == Some(Outcome::Win(0)) {
            strong_wins += 1;
        }
        if duel(AtaxxEval::Material, AtaxxEval::Strong, seed, 2) == Some(Outcome::Win(1)) {
            strong_wins += 1;
        }
    }
    assert!(strong_wins >= 16, "strong won {strong_wins} of 24 games");
}

#[test]
fn a_recorded_tree_validates_and_names_the_terms() {
    use plyscope::search::{search, Hooks, SearchConfig};
    use plyscope::tree::Node;
    let validator = common::tree_schema();
    let pos = fen("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1");
    let r = search(
        &pos,
        &AtaxxEval::Strong,
        &SearchConfig {
            depth: 2,
            record_tree: true,
            seed: Some(2),
            ..Default::default()
        },
        Hooks::default(),
    )
    .unwrap();
    let doc = r.tree.expect("a tree").to_document();
    assert_eq!(doc.game, "ataxx-0400");
    let v: serde_json::Value = serde_json::from_str(&doc.to_json()).unwrap();
    let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    fn walk<'a>(n: &'a Node, out: &mut Vec<&'a Node>) {
        out.push(n);
        n.children.iter().for_each(|c| walk(c, out));
    }
    let mut nodes = Vec::new();
    walk(&doc.root, &mut nodes);
    // A root move searched again (principal variation search) appears twice, the first search
    // marked as failed high.
    assert_eq!(
        doc.root.children.iter().filter(|c| !c.failed_high).count(),
        14,
        "fourteen root moves"
    );
    let leaf = nodes
        .iter()
        .find_map(|n| n.eval.as_ref())
        .expect("evaluated leaves");
    let names: Vec<&str> = leaf.terms.iter().map(|t| t.name.as_str()).collect();
    assert!(
        names.contains(&"material") && names.contains(&"threat"),
        "{names:?}"
    );
    let sum: f64 = leaf.terms.iter().map(|t| t.value).sum();
    assert!((sum - leaf.total).abs() < 1e-9);
}

#[test]
fn mangled_text_and_bytes_never_panic() {
    use plyscope::core::Rng;
    let mut rng = Rng::seeded(99);
    let alphabet: Vec<char> = "xXoObw-/ 0123456789abcdefgh#é\t".chars().collect();
    let seeds = [
        START,
        "x5o/7/2-1-2/7/2-1-2/7/o5x o 3 17",
        "7/7/7/7/-------/-------/x5o x 0 1",
    ];
    let mut ok = 0;
    for i in 0..20_000 {
        let mut chars: Vec<char> = seeds[i % seeds.len()].chars().collect();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(chars.len() as u64 + 1) as usize;
            let c = alphabet[rng.below(alphabet.len() as u64) as usize];
            match rng.below(3) {
                0 if at < chars.len() => chars[at] = c,
                1 if at < chars.len() => {
                    chars.remove(at);
                }
                _ => chars.insert(at, c),
            }
        }
        let text: String = chars.iter().collect();
        match Ataxx::from_position_text("ataxx", &text) {
            Ok(pos) => {
                ok += 1;
                let back = fen(&pos.position_text());
                assert_eq!(back, pos, "{text}");
            }
            Err(e) => assert!(e.at <= chars.len(), "{text}: {e}"),
        }
        let mv: String = chars.iter().take(rng.below(6) as usize).collect();
        let _ = Ataxx::new().parse_move(&mv);
    }
    assert!(ok > 100, "some mangled texts are still positions ({ok})");
    let mut read = 0;
    for _ in 0..20_000 {
        let mut bytes = [0u8; 14];
        for b in bytes.iter_mut() {
            *b = rng.below(256) as u8;
        }
        for k in (1..14).step_by(2) {
            if rng.below(2) == 0 {
                bytes[k] &= 0x3F;
            }
        }
        if let Ok(pos) = from_packed(&bytes) {
            read += 1;
            assert_eq!(to_packed(&pos), bytes);
        }
    }
    assert!(read > 0);
}

#[test]
fn search_reports_read_in_pieces_for_the_player_who_searched() {
    let s = new_session("ataxx").unwrap();
    let cfg = plyscope::search::SearchConfig {
        depth: 2,
        ..Default::default()
    };
    let r = s.search(&cfg, Default::default()).unwrap();
    assert_eq!(r.viewer, "black");
    let t = &r.value_text.text;
    assert!(
        t.ends_with("pieces") || t.ends_with("piece") || t == "even",
        "{t}"
    );
    assert!(r.value_text.amount.is_some() && r.value_text.decided.is_none());
    for m in &r.root_moves {
        let a = m.value_text.amount.unwrap();
        assert!(
            (a * 100.0 - m.value).abs() < 1e-9,
            "{a} pieces for value {}",
            m.value
        );
    }
    let doc = r.tree.map(|d| d.head.chosen.unwrap().value_text);
    assert!(doc.is_none() || doc.unwrap().is_some());
}

#[test]
fn a_won_ataxx_line_reads_as_a_win_in_plies() {
    let eval = AtaxxEval::Strong;
    let t = eval.describe(plyscope::core::WIN_SCORE - 3.0);
    assert_eq!(
        (t.text.as_str(), t.decided, t.amount),
        ("win in 3 plies", Some(3), None)
    );
    let t = eval.describe(-(plyscope::core::WIN_SCORE - 1.0));
    assert_eq!((t.text.as_str(), t.decided), ("loss in 1 ply", Some(-1)));
    assert_eq!(eval.describe(-250.0).text, "\u{2212}2.5 pieces");
    assert_eq!(eval.describe(0.4).text, "even");
}

#[test]
fn recording_the_tree_does_not_change_the_nnue_search() {
    // The unrecorded search orders moves from keys made from the parent with the history score
    // folded in as they are made; the recorded one makes every child and folds the history in
    // afterwards. Both must order alike, so they choose the same move with the same value.
    use plyscope::search::{search, Hooks, SearchConfig};
    let mut pos = Ataxx::new();
    for m in "b6 b2 c5 b3 c4 b2b4 b5 c3 d4 b3d3 b5b3 d3b5 a7c6 d4b2".split(' ') {
        let mv = pos.parse_move(m).unwrap();
        pos.play_unchecked(mv);
    }
    let run = |record_tree: bool| {
        search(
            &pos,
            &AtaxxEval::Nnue,
            &SearchConfig {
                depth: 6,
                record_tree,
                seed: Some(1),
                ..Default::default()
            },
            Hooks::default(),
        )
        .unwrap()
    };
    let (plain, recorded) = (run(false), run(true));
    assert_eq!(plain.best, recorded.best);
    assert_eq!(plain.value, recorded.value);
    let values = |r: &plyscope::search::SearchResult<AtaxxMove>| {
        r.root_moves
            .iter()
            .map(|m| (m.mv, m.value))
            .collect::<Vec<_>>()
    };
    assert_eq!(values(&plain), values(&recorded));
    assert!(plain.stats.nodes > 1000, "{} nodes", plain.stats.nodes);
}
