//! The Ataxx `patterns` evaluator: window indices, symmetry, the shipped weights, the term
//! breakdown and a training smoke test.

mod common;

use plyscope::core::{Evaluator, NoTerms};
use plyscope::games::ataxx::patterns::{
    self, decode, encode, evaluate_with, tie_groups, transform, window_indices, FAMILIES,
    NUM_FAMILIES, PHASES, PHASE_SIZE, PLACEMENTS, SCALAR_NAMES, TOTAL_WEIGHTS,
};
use plyscope::games::ataxx::train::{self, TrainConfig};
use plyscope::games::ataxx::{Ataxx, AtaxxEval};
use plyscope::games::pattern_fit::{SelfPlay, SplitMix};
use plyscope::games::Playable;

/// A tiny, fast training configuration.
fn tiny(seed: u64, games: usize) -> TrainConfig {
    let d = TrainConfig::default();
    TrainConfig {
        self_play: SelfPlay {
            seed,
            games,
            epochs: 8,
            ..d.self_play
        },
        depth: 2,
        ..d
    }
}

use common::{ataxx_positions as positions, ataxx_with_walls as with_walls};

#[test]
fn windows_cover_the_board_in_six_symmetric_families() {
    assert_eq!(PLACEMENTS.len(), 36);
    let per_family: Vec<usize> = (0..NUM_FAMILIES)
        .map(|f| PLACEMENTS.iter().filter(|p| p.0 as usize == f).count())
        .collect();
    // 4 corners, 8 next to them on the edges, 8 at mid-edge, 4 + 8 on the second ring, 4 central.
    assert_eq!(per_family, vec![4, 8, 8, 4, 8, 4]);
    assert_eq!(per_family.iter().sum::<usize>(), 36);
    // a1 (cell 0) is the first window's most significant digit; b2 (cell 8) its least.
    assert_eq!(PLACEMENTS[0].1, [0, 1, 7, 8]);
    assert_eq!(window_indices(1, 0, 0)[0], 1 << 6);
    assert_eq!(window_indices(0, 1 << 8, 0)[0], 2);
    assert_eq!(window_indices(0, 0, 1 << 7)[0], 3 << 2);
}

#[test]
fn symmetry_ties_only_what_symmetry_requires() {
    let groups = |f: usize| {
        tie_groups(f)
            .iter()
            .enumerate()
            .filter(|(i, r)| *i as u32 == **r)
            .count()
    };
    // The corner window is symmetric about the board's diagonal: two cells fixed, one pair.
    assert_eq!(groups(0), (256 + 64) / 2);
    // An edge window next to a corner has 8 images, one per symmetry: nothing tied.
    assert_eq!(groups(1), 256);
    // Nor a mid-edge window (its mirror image is the next window).
    assert_eq!(groups(2), 256);
    // The central windows are symmetric about a diagonal, as the corner is.
    assert_eq!(groups(3), (256 + 64) / 2);
    assert_eq!(groups(5), (256 + 64) / 2);
    assert_eq!(groups(4), 256);
}

/// Random weights with the training's ties.
fn tied_random_weights(seed: u64) -> Vec<i16> {
    let tie = train::tie_map();
    let mut rng = SplitMix::new(seed);
    let mut w = vec![0i16; TOTAL_WEIGHTS];
    for ph in 0..PHASES {
        let block = &mut w[ph * PHASE_SIZE..(ph + 1) * PHASE_SIZE];
        for x in block.iter_mut() {
            *x = (rng.below(2001) as i16) - 1000;
        }
        for j in 0..PHASE_SIZE {
            block[j] = block[tie[j] as usize];
        }
    }
    w
}

/// Each term's value and the total for a position.
fn term_values(w: &[i16], (me, them, walls): (u64, u64, u64)) -> (Vec<f64>, i32) {
    let mut sums = Vec::new();
    let v = evaluate_with(w, me, them, walls, true, |_, raw, weight| {
        sums.push(raw * weight)
    });
    (sums, v)
}

/// The image of a position under symmetry `s`.
fn image(s: usize, (me, them, walls): (u64, u64, u64)) -> (u64, u64, u64) {
    (transform(s, me), transform(s, them), transform(s, walls))
}

#[test]
fn every_symmetric_image_has_the_same_value() {
    let w = tied_random_weights(11);
    let mut rng = SplitMix::new(3);
    let mut images_differ = 0;
    for pos in positions(5, 2) {
        for pos in [pos, with_walls(&mut rng, pos)] {
            let base = term_values(&w, pos);
            for s in 1..8 {
                images_differ += (image(s, pos) != pos) as u32;
                assert_eq!(term_values(&w, image(s, pos)), base, "symmetry {s}");
            }
        }
    }
    assert!(images_differ > 100);
    // Untied weights do break the symmetry: the check can fail.
    let mut rng = SplitMix::new(12);
    let untied: Vec<i16> = (0..TOTAL_WEIGHTS)
        .map(|_| rng.below(2001) as i16 - 1000)
        .collect();
    let broken = positions(5, 1).into_iter().any(|pos| {
        (1..8).any(|s| term_values(&untied, pos) != term_values(&untied, image(s, pos)))
    });
    assert!(broken);
}

#[test]
fn the_shipped_weights_load_and_are_symmetric() {
    let w = patterns::shipped();
    assert_eq!(w.len(), TOTAL_WEIGHTS);
    for ph in 0..PHASES {
        let block = &w[ph * PHASE_SIZE..(ph + 1) * PHASE_SIZE];
        let nonzero = block.iter().filter(|&&x| x != 0).count();
        assert!(nonzero > 200, "phase {ph}: only {nonzero} trained weights");
    }
    for pos in positions(7, 2) {
        let v = term_values(&w, pos).1;
        for s in 1..8 {
            assert_eq!(term_values(&w, image(s, pos)).1, v);
        }
    }
    // The file round-trips, and broken files are refused with a reason.
    common::weights_file_round_trips(&w, encode, decode, b"PLYATX00........", "PLYATX01");
}

#[test]
fn the_breakdown_names_the_patterns_and_sums_to_the_evaluation() {
    let eval = Ataxx::evaluator("patterns").unwrap();
    assert_eq!(eval, AtaxxEval::Patterns);
    assert_eq!(eval.name(), "patterns");
    assert!(Ataxx::evaluator_names().contains(&"patterns"));
    for (k, pos) in common::ataxx_sample_positions(9).into_iter().enumerate() {
        for perspective in 0..2 {
            let (v, bd) = common::evaluate_with_terms(&eval, &pos, perspective);
            let sum: f64 = bd.terms.iter().map(|t| t.value).sum();
            assert!((sum - v).abs() < 1e-6, "position {k}: terms {sum} != {v}");
            let names: Vec<&str> = bd.terms.iter().map(|t| t.name.as_str()).collect();
            for (name, _) in FAMILIES.iter() {
                assert!(names.contains(name), "{name} missing");
            }
            for name in SCALAR_NAMES {
                assert!(names.contains(&name), "{name} missing");
            }
        }
        let families: Vec<&str> = FAMILIES.iter().map(|f| f.0).collect();
        common::pattern_terms_flip_with_the_side(&eval, &pos, &families);
        let a = eval.evaluate(&pos, 0, &mut NoTerms);
        assert_eq!(a, -eval.evaluate(&pos, 1, &mut NoTerms));
    }
}

#[test]
fn training_on_a_tiny_set_is_deterministic_and_reduces_the_error() {
    let cfg = tiny(42, 6);
    let samples = train::play_games(&cfg);
    assert!(samples.len() > 6 * 20, "{} positions", samples.len());
    let again = train::play_games(&cfg);
    assert_eq!(samples.len(), again.len());
    assert!(samples
        .iter()
        .zip(&again)
        .all(|(a, b)| a.me == b.me && a.them == b.them && a.label == b.label));
    assert!(samples
        .iter()
        .all(|s| s.label.is_finite() && s.label.abs() <= 49.0));
    let other = train::play_games(&tiny(43, 6));
    assert!(other.iter().zip(&samples).any(|(a, b)| a.me != b.me));
    let (w, reports) = train::train(&cfg, &samples, |l| eprintln!("{l}"));
    assert_eq!(reports.len(), PHASES);
    assert_eq!(train::train(&cfg, &samples, |_| ()).0, w);
    let fitted_phases = reports.iter().filter(|r| r.rows > 0 && r.before > 1.0);
    assert!(fitted_phases.clone().count() >= 4);
    for r in fitted_phases {
        assert!(r.after < r.before * 0.5, "{} -> {}", r.before, r.after);
    }
    // The fitted weights evaluate the positions closer to their labels than zero does.
    let err = |f: &dyn Fn(&train::Sample) -> f32| -> f32 {
        samples.iter().map(|s| (s.label - f(s)).powi(2)).sum()
    };
    let fitted = err(&|s| train::eval_f32(&w, s.me, s.them, s.walls));
    let zero = err(&|_| 0.0);
    assert!(fitted < zero * 0.5, "{fitted} vs {zero}");
}
