//! The Ataxx `nnue` evaluator and its pipeline: the shipped weights, the term breakdown, the move
//! pre-scores from the parent, the self-play data file and the trainer.

mod common;

use plyscope::core::{Evaluator, Game, NoTerms};
use plyscope::games::ataxx::datagen::{self, DatagenConfig, Position, DECIDED, MAGIC, RECORD};
use plyscope::games::ataxx::nnue::{self, NnueWeights, TERM_NAMES};
use plyscope::games::ataxx::nnue_train::{self, NnueTrainConfig};
use plyscope::games::ataxx::{Ataxx, AtaxxEval, AtaxxMove};
use plyscope::games::Playable;
use std::sync::atomic::AtomicBool;

#[test]
fn the_shipped_weights_load_and_are_trained() {
    let w = nnue::shipped();
    assert!(w.hidden >= 16 && w.hidden % 16 == 0);
    assert!(w.w1.iter().filter(|&&x| x != 0).count() > 100_000);
    assert!(w.w2.iter().filter(|&&x| x != 0).count() > w.hidden / 2);
    // The output weights fit the integer form's product (clip * weight in an i16).
    assert!(w.w2.iter().all(|&x| x.unsigned_abs() <= 127));
    assert_eq!(nnue::weights().unwrap(), w);
    // Trained: more pieces for the side to move is better, on an otherwise quiet board.
    let eval = Ataxx::evaluator("nnue").unwrap();
    let ahead = Ataxx::from_position_text("ataxx", "xxx3o/7/7/7/7/7/o5x x 0 1").unwrap();
    let behind = Ataxx::from_position_text("ataxx", "x5o/7/7/7/7/7/ooo3x x 0 1").unwrap();
    assert!(eval.evaluate(&ahead, 0, &mut NoTerms) > eval.evaluate(&behind, 0, &mut NoTerms));
}

#[test]
fn the_breakdown_sums_to_the_evaluation_and_flips_with_the_side() {
    let eval = Ataxx::evaluator("nnue").unwrap();
    assert_eq!(eval, AtaxxEval::Nnue);
    assert_eq!(eval.name(), "nnue");
    assert!(Ataxx::evaluator_names().contains(&"nnue"));
    for pos in common::ataxx_sample_positions(11) {
        for perspective in 0..2 {
            let (v, bd) = common::evaluate_with_terms(&eval, &pos, perspective);
            let sum: f64 = bd.terms.iter().map(|t| t.value).sum();
            assert!((sum - v).abs() < 1e-9, "terms {sum} against {v}");
            let names: Vec<&str> = bd.terms.iter().map(|t| t.name.as_str()).collect();
            assert_eq!(names, TERM_NAMES.to_vec());
        }
        let a = eval.evaluate(&pos, 0, &mut NoTerms);
        assert_eq!(a, -eval.evaluate(&pos, 1, &mut NoTerms));
        common::pattern_terms_flip_with_the_side(&eval, &pos, &["network"]);
    }
}

#[test]
fn move_prescores_from_the_parent_equal_the_childs() {
    // Every evaluator's pre-score of each child, from the parent and the move, is exactly the one
    // made on the child (the search relies on it to order without making children), walls,
    // passes and clones included.
    let mut rng = plyscope::games::pattern_fit::SplitMix::new(5);
    let mut positions = common::ataxx_sample_positions(3);
    for (me, them, walls) in common::ataxx_positions(8, 1).into_iter().step_by(7) {
        let (me, them, walls) = common::ataxx_with_walls(&mut rng, (me, them, walls));
        positions.push(Ataxx::from_parts(me, them, walls, 0, 0, 1).unwrap());
    }
    // A position where the side to move must pass.
    positions
        .push(Ataxx::from_position_text("ataxx", "xxxxxxx/ooooooo/ooooooo/7/7/7/7 x 0 1").unwrap());
    let (mut checked, mut clones, mut passes) = (0, 0, 0);
    let mut moves: Vec<AtaxxMove> = Vec::new();
    for pos in &positions {
        if pos.is_over() {
            continue;
        }
        pos.legal_moves(&mut moves);
        for &m in &moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            for name in ["net", "nnue", "strong", "material"] {
                let eval = Ataxx::evaluator(name).unwrap();
                for perspective in 0..2 {
                    assert_eq!(
                        eval.prescore_move(pos, m, perspective),
                        Some(eval.prescore(&child, perspective, &mut NoTerms)),
                        "{name} {} from {}",
                        pos.format_move(m),
                        pos.position_text()
                    );
                }
            }
            checked += 1;
            clones += m.is_clone() as u32;
            passes += m.is_pass() as u32;
        }
    }
    assert!(
        checked > 500 && clones > 50 && passes >= 1,
        "{checked} {clones} {passes}"
    );
}

#[test]
fn captures_and_clones_come_first_in_the_prescores() {
    // x on a1 and o on c2: the clones b2 and b1 capture c2, a2 captures nothing; the jumps c1,
    // c3 and b3 capture it, a3 captures nothing.
    let pos = Ataxx::from_position_text("ataxx", "o6/7/7/7/7/2o4/x6 x 0 1").unwrap();
    let eval = AtaxxEval::Strong;
    let pre = |text: &str| {
        let m = pos.parse_move(text).unwrap();
        eval.prescore_move(&pos, m, 0).unwrap()
    };
    assert!(
        pre("b2") > pre("a1c1"),
        "a capturing clone before a capturing jump"
    );
    assert_eq!(pre("b2"), pre("b1"));
    assert!(
        pre("a1c1") > pre("a1a3"),
        "a capturing jump before a quiet jump"
    );
    assert!(
        pre("a2") > pre("a1c1"),
        "a quiet clone before a jump taking one piece"
    );
    assert!(pre("a2") > pre("a1a3"), "a quiet clone before a quiet jump");
}

/// A few self-play games' data, written and read back through the file format.
fn small_data(seed: u64) -> Vec<Position> {
    let cfg = DatagenConfig {
        games: 4,
        nodes: 400,
        seed,
        evaluator: AtaxxEval::Strong,
        walls_share: 0.5,
        ..DatagenConfig::default()
    };
    let mut bytes = MAGIC.to_vec();
    let report = datagen::run(&cfg, &mut bytes, &AtomicBool::new(false), 0, &|_| {}).unwrap();
    assert_eq!(
        bytes.len(),
        MAGIC.len() + RECORD * report.positions as usize
    );
    datagen::decode(&bytes).unwrap()
}

#[test]
fn self_play_data_is_reproducible_and_well_formed() {
    let a = small_data(17);
    assert_eq!(a, small_data(17));
    assert_ne!(a, small_data(18));
    assert!(a.len() > 40);
    for p in &a {
        assert!(
            p.score.abs() < DECIDED,
            "decided positions end the game: {p:?}"
        );
        assert_eq!(p.me & p.them, 0);
        // The side to move has a move other than the pass, or the search would not have run;
        // every stored position is a real game position with both sides on the board.
        assert!(p.me != 0 && p.them != 0);
    }
    // Some games were on walls (half of them in expectation; 4 games, so at least one either way
    // is likely but not certain: only check that the walls read back as the layout's cells).
    for p in a.iter().filter(|p| p.walls != 0) {
        assert_eq!(p.walls & (p.me | p.them), 0);
    }
}

#[test]
fn the_trainer_fits_self_play_data_and_is_deterministic_on_one_thread() {
    let mut data = small_data(23);
    data.extend(small_data(24));
    let cfg = NnueTrainConfig {
        hidden: 16,
        epochs: 6,
        batch: 64,
        lr: 0.005,
        held_out: 0.1,
        threads: 1,
        seed: 9,
        ..NnueTrainConfig::default()
    };
    let mut reports = Vec::new();
    let (net, _) = nnue_train::train(&cfg, &data, None, |r| reports.push(*r));
    assert_eq!(reports.len(), 6);
    assert!(
        reports[5].train < reports[0].train,
        "the training loss falls: {reports:?}"
    );
    let (again, _) = nnue_train::train(&cfg, &data, None, |_| ());
    assert_eq!(net.quantise(), again.quantise());
    // The written file reads back, and evaluates as the float network does.
    let q = NnueWeights::decode(&net.quantise().encode()).unwrap();
    for p in data.iter().step_by(9) {
        let i = nnue::evaluate_with(&q, p.me, p.them, p.walls, false, |_, _, _| {});
        let f = net.eval_cp(p) as f64;
        assert!((i - f).abs() < 30.0, "integer {i} float {f}");
    }
}
