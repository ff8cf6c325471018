//! The `patterns` evaluator: pattern indices, symmetry, the shipped weights, the term breakdown
//! and a training smoke test.

mod common;

use plyscope::core::{Breakdown, Evaluator, Game, NoTerms};
use plyscope::games::reversi::patterns::{
    self, decode, encode, evaluate_with, index, transform, Family, FAMILIES, NUM_FAMILIES, OFFSETS,
    PHASES, PHASE_SIZE, PLACEMENTS, TOTAL_WEIGHTS,
};
use plyscope::games::reversi::train::{self, SelfPlay, SplitMix, TrainConfig};
use plyscope::games::reversi::{Reversi, ReversiEval};
use plyscope::games::Playable;

/// Positions from random games (the side to move's discs first), some from every phase.
fn random_positions(seed: u64, games: usize) -> Vec<(u64, u64)> {
    let d = TrainConfig::default();
    let cfg = TrainConfig {
        self_play: SelfPlay {
            seed,
            games,
            random_min: 60,
            random_max: 60,
            ..d.self_play
        },
        ..d
    };
    train::play_games(&cfg)
        .into_iter()
        .map(|s| (s.p, s.o))
        .collect()
}

/// The position as a Reversi game, `p` being Black to move.
fn reversi(p: u64, o: u64) -> Reversi {
    let cells: String = (0..64)
        .map(|x| {
            if p >> x & 1 == 1 {
                'X'
            } else if o >> x & 1 == 1 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    Reversi::from_position_text("reversi", &format!("{cells} X")).expect("a valid position")
}

#[test]
fn placements_cover_the_symmetric_images() {
    assert_eq!(PLACEMENTS.len(), 46);
    let per_family: Vec<usize> = (0..NUM_FAMILIES)
        .map(|f| PLACEMENTS.iter().filter(|p| p.family as usize == f).count())
        .collect();
    // edge+2X, 3x3, 2x5, lines 2-4, diagonals 8..4.
    assert_eq!(per_family, vec![4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4]);
    for pl in PLACEMENTS.iter() {
        let cells = &pl.cells[..pl.len as usize];
        let set = cells.iter().fold(0u64, |a, &x| a | 1u64 << x);
        assert_eq!(set.count_ones() as usize, cells.len(), "distinct cells");
    }
}

#[test]
fn index_reads_cells_in_base_three() {
    // The first edge placement is a1..h1, b2, g2: a1 is the most significant digit.
    let edge = &PLACEMENTS[0];
    assert_eq!(&edge.cells[..10], &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14]);
    assert_eq!(index(edge, 0, 0), 0);
    assert_eq!(index(edge, 1, 0), 3usize.pow(9));
    assert_eq!(index(edge, 0, 1), 2 * 3usize.pow(9));
    assert_eq!(index(edge, 1 << 14, 1 << 9), 1 + 2 * 3);
    // Every placement's index is below its table's size.
    for (p, o) in random_positions(3, 4) {
        for pl in PLACEMENTS.iter() {
            let f = pl.family as usize;
            assert!(index(pl, p, o) < OFFSETS[f + 1] - OFFSETS[f]);
        }
    }
}

#[test]
fn symmetry_ties_only_what_symmetry_requires() {
    let groups = |f: usize| {
        let t = Family::tie_groups(f);
        t.iter()
            .enumerate()
            .filter(|(i, r)| *i as u32 == **r)
            .count()
    };
    // The 2x5 corner has 8 placements, one per symmetry: nothing is tied.
    assert_eq!(groups(2), 3usize.pow(10));
    // The edge reads the same mirrored: pairs of indices, the palindromes alone.
    assert_eq!(groups(0), (3usize.pow(10) + 3usize.pow(5)) / 2);
    // The 3x3 corner is symmetric about its diagonal (3 cells fixed, 3 pairs).
    assert_eq!(groups(1), (3usize.pow(9) + 3usize.pow(6)) / 2);
    // A diagonal of 8 reads the same reversed.
    assert_eq!(groups(6), (3usize.pow(8) + 3usize.pow(4)) / 2);
}

/// Random weights with the training's ties.
fn tied_random_weights(seed: u64) -> Vec<i16> {
    let tie = train::tie_map();
    let mut rng = SplitMix::new(seed);
    let mut w = vec![0i16; TOTAL_WEIGHTS];
    for ph in 0..PHASES {
        let block = &mut w[ph * PHASE_SIZE..(ph + 1) * PHASE_SIZE];
        for j in 0..PHASE_SIZE {
            block[j] = (rng.below(2001) as i16) - 1000;
        }
        for j in 0..PHASE_SIZE {
            block[j] = block[tie[j] as usize];
        }
    }
    w
}

/// Each family's sum and the total for a position.
fn family_sums(w: &[i16], p: u64, o: u64) -> (Vec<f64>, i32) {
    let mut sums = Vec::new();
    let v = evaluate_with(w, p, o, true, |_, raw, weight| sums.push(raw * weight));
    (sums, v)
}

#[test]
fn every_symmetric_image_has_the_same_pattern_values() {
    let w = tied_random_weights(11);
    let mut images_differ = 0;
    for (p, o) in random_positions(5, 6) {
        let base = family_sums(&w, p, o);
        for s in 1..8 {
            let (tp, to) = (transform(s, p), transform(s, o));
            images_differ += (tp != p) as u32;
            assert_eq!(family_sums(&w, tp, to), base, "symmetry {s} of {p:x}/{o:x}");
        }
    }
    assert!(images_differ > 100);
    // Untied weights do break the symmetry: the check can fail.
    let mut rng = SplitMix::new(12);
    let untied: Vec<i16> = (0..TOTAL_WEIGHTS)
        .map(|_| rng.below(2001) as i16 - 1000)
        .collect();
    let broken = random_positions(5, 2).into_iter().any(|(p, o)| {
        (1..8).any(|s| {
            family_sums(&untied, p, o) != family_sums(&untied, transform(s, p), transform(s, o))
        })
    });
    assert!(broken);
}

#[test]
fn the_shipped_weights_load_with_the_expected_shape_and_are_symmetric() {
    let w = patterns::shipped();
    assert_eq!(w.len(), TOTAL_WEIGHTS);
    assert_eq!(TOTAL_WEIGHTS, PHASES * PHASE_SIZE);
    let nonzero = w.iter().filter(|&&x| x != 0).count();
    assert!(nonzero > 10_000, "only {nonzero} trained weights");
    for ph in 0..PHASES {
        let block = &w[ph * PHASE_SIZE..(ph + 1) * PHASE_SIZE];
        assert!(block.iter().any(|&x| x != 0), "phase {ph} is empty");
    }
    for (p, o) in random_positions(7, 4) {
        let v = family_sums(&w, p, o).1;
        for s in 1..8 {
            assert_eq!(family_sums(&w, transform(s, p), transform(s, o)).1, v);
        }
    }
    // The file round-trips, and broken files are refused with a reason.
    common::weights_file_round_trips(&w, encode, decode, b"PLYPAT00........", "PLYPAT01");
}

#[test]
fn the_breakdown_names_the_patterns_and_sums_to_the_evaluation() {
    let eval = Reversi::evaluator("patterns").unwrap();
    assert_eq!(eval, ReversiEval::Patterns);
    assert_eq!(eval.name(), "patterns");
    for (k, (p, o)) in random_positions(9, 3).into_iter().enumerate() {
        let pos = reversi(p, o);
        for perspective in 0..2 {
            let mut bd = Breakdown::default();
            let v = eval.evaluate(&pos, perspective, &mut bd);
            assert_eq!(v, eval.evaluate(&pos, perspective, &mut NoTerms));
            let sum: f64 = bd.terms.iter().map(|t| t.value).sum();
            assert!((sum - v).abs() < 1e-6, "position {k}: terms {sum} != {v}");
            let names: Vec<&str> = bd.terms.iter().map(|t| t.name.as_str()).collect();
            for f in FAMILIES.iter() {
                assert!(names.contains(&f.name), "{} missing", f.name);
            }
            assert!(names.contains(&"mobility"));
        }
        let families: Vec<&str> = FAMILIES.iter().map(|f| f.name).collect();
        common::pattern_terms_flip_with_the_side(&eval, &pos, &families);
        let a = eval.evaluate(&pos, 0, &mut NoTerms);
        assert_eq!(a, -eval.evaluate(&pos, 1, &mut NoTerms));
    }
}

#[test]
fn training_on_a_tiny_set_reduces_the_error() {
    let d = TrainConfig::default();
    let cfg = TrainConfig {
        self_play: SelfPlay {
            seed: 42,
            games: 8,
            epochs: 6,
            ..d.self_play
        },
        exact_empties: 10,
        label_depth: 2,
        ..d
    };
    let mut samples = train::play_games(&cfg);
    assert!(samples.len() > 8 * 40);
    // Deterministic from the seed.
    let again = train::play_games(&cfg);
    assert!(samples
        .iter()
        .zip(&again)
        .all(|(a, b)| a.p == b.p && a.o == b.o));
    train::label_exact(&mut samples, cfg.exact_empties);
    for s in samples.iter().filter(|s| s.exact) {
        assert!(s.label.abs() <= 64.0 && s.label.fract() == 0.0);
    }
    let (w, reports) = train::train(&cfg, &mut samples, |l| eprintln!("{l}"));
    assert_eq!(reports.len(), PHASES);
    for (ph, r) in reports.iter().enumerate() {
        if r.rows > 0 && r.before > 1.0 {
            assert!(
                r.after < r.before * 0.5,
                "phase {ph}: {} -> {}",
                r.before,
                r.after
            );
        }
    }
    assert!(
        reports
            .iter()
            .filter(|r| r.rows > 0 && r.before > 1.0)
            .count()
            >= 3
    );
    // Fitted weights evaluate the exact positions closer to their labels than zero does.
    let err = |f: &dyn Fn(&train::Sample) -> f32| -> f32 {
        samples
            .iter()
            .filter(|s| s.exact)
            .map(|s| (s.label - f(s)).powi(2))
            .sum()
    };
    let fitted = err(&|s| train::eval_f32(&w, s.p, s.o));
    let zero = err(&|_| 0.0);
    assert!(fitted < zero * 0.5, "{fitted} vs {zero}");
}

#[test]
fn patterns_is_the_default_on_8x8_only() {
    let eight = Reversi::new(8).unwrap();
    let ten = Reversi::new(10).unwrap();
    assert_eq!(eight.evaluator_for("").unwrap(), ReversiEval::Patterns);
    assert_eq!(ten.evaluator_for("").unwrap(), ReversiEval::Strong);
    assert_eq!(eight.evaluator_for("strong").unwrap(), ReversiEval::Strong);
    assert_eq!(
        ten.evaluator_for("patterns").unwrap(),
        ReversiEval::Patterns
    );
    assert!(eight.evaluator_for("pattern").is_err());
    // On other sizes `patterns` evaluates with `strong`'s terms.
    let mut bd = Breakdown::default();
    ReversiEval::Patterns.evaluate(&ten, 0, &mut bd);
    assert!(bd.terms.iter().any(|t| t.name == "mobility"));
    assert!(!bd.terms.iter().any(|t| t.name == "edge+2X"));
}
