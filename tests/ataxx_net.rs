//! The Ataxx `net` evaluator: symmetry, the weights file and its errors, the term breakdown, the
//! integer form against the float one, and the trainer on a small synthetic set.

mod common;

use plyscope::core::{Breakdown, Evaluator, NoTerms};
use plyscope::games::ataxx::net::{
    self, evaluate_with, file_len, NetError, NetWeights, INPUTS, MAGIC, NET_SCALARS, TERM_NAMES,
};
use plyscope::games::ataxx::net_train::{self, NetRow, NetTrainConfig};
use plyscope::games::ataxx::patterns::{transform, PHASES, SCALAR_NAMES};
use plyscope::games::ataxx::train::Sample;
use plyscope::games::ataxx::{samples, Ataxx, AtaxxEval};
use plyscope::games::pattern_fit::SplitMix;
use plyscope::games::Playable;

use common::{ataxx_positions as positions, ataxx_with_walls as with_walls};

/// A network with random weights of every kind, from `seed`.
fn random_net(hidden: usize, seed: u64) -> NetWeights {
    let mut rng = SplitMix::new(seed);
    let mut r = |n: usize, span: u64| -> Vec<i16> {
        (0..n)
            .map(|_| rng.below(2 * span + 1) as i16 - span as i16)
            .collect()
    };
    NetWeights {
        hidden,
        w1: r(INPUTS * hidden, 60),
        b1: r(hidden, 128),
        w2: r(PHASES * hidden, 300),
        b2: r(PHASES, 100),
        w3: r(PHASES * NET_SCALARS, 100),
    }
}

fn value(net: &NetWeights, (me, them, walls): (u64, u64, u64)) -> i64 {
    (evaluate_with(net, me, them, walls, false, |_, _, _| ()) * 1024.0) as i64
}

fn image(s: usize, (me, them, walls): (u64, u64, u64)) -> (u64, u64, u64) {
    (transform(s, me), transform(s, them), transform(s, walls))
}

#[test]
fn a_position_and_its_eight_images_evaluate_equally() {
    let net = random_net(16, 5);
    let mut rng = SplitMix::new(9);
    let (mut images_differ, mut values) = (0, std::collections::BTreeSet::new());
    for pos in positions(3, 2) {
        for pos in [pos, with_walls(&mut rng, pos)] {
            let v = value(&net, pos);
            values.insert(v);
            for s in 1..8 {
                images_differ += (image(s, pos) != pos) as u32;
                assert_eq!(value(&net, image(s, pos)), v, "symmetry {s}");
            }
        }
    }
    assert!(images_differ > 100, "{images_differ}");
    // The network is not a constant: the check above could fail.
    assert!(values.len() > 50, "{} distinct values", values.len());
}

#[test]
fn the_weights_file_round_trips_and_bad_files_are_typed_errors() {
    let net = random_net(8, 1);
    let bytes = net.encode();
    assert_eq!(bytes.len(), file_len(8));
    assert_eq!(NetWeights::decode(&bytes).unwrap(), net);
    assert_eq!(NetWeights::decode(b"PLYATXN0"), Err(NetError::NotNet));
    assert_eq!(NetWeights::decode(&[]), Err(NetError::NotNet));
    let mut other = bytes.clone();
    other[..8].copy_from_slice(b"PLYATX01");
    assert_eq!(NetWeights::decode(&other), Err(NetError::NotNet));
    assert_eq!(
        NetWeights::decode(&bytes[..bytes.len() - 1]),
        Err(NetError::Length {
            expected: bytes.len(),
            found: bytes.len() - 1
        })
    );
    let mut wide = bytes.clone();
    wide[8..12].copy_from_slice(&1000u32.to_le_bytes());
    let err = NetWeights::decode(&wide).unwrap_err();
    assert!(matches!(err, NetError::Dimensions { hidden: 1000, .. }));
    assert!(
        err.to_string().contains("expected 1 to 128 hidden units"),
        "{err}"
    );
    let mut zero = bytes.clone();
    zero[8..12].copy_from_slice(&0u32.to_le_bytes());
    assert!(matches!(
        NetWeights::decode(&zero),
        Err(NetError::Dimensions { hidden: 0, .. })
    ));
    let mut inputs = bytes.clone();
    inputs[12] ^= 1;
    assert!(matches!(
        NetWeights::decode(&inputs),
        Err(NetError::Dimensions { .. })
    ));
    // Every cut of the header and random bytes after the magic: an error, never a panic.
    for n in 0..bytes.len().min(64) {
        assert!(NetWeights::decode(&bytes[..n]).is_err(), "cut at {n}");
    }
    let mut rng = SplitMix::new(4);
    for _ in 0..200 {
        let mut junk = MAGIC.to_vec();
        junk.extend((0..rng.below(64)).map(|_| rng.next() as u8));
        assert!(NetWeights::decode(&junk).is_err());
    }
    assert!(NetError::NotNet.to_string().contains("PLYATXN1"));
}

#[test]
fn the_shipped_weights_load_and_are_trained() {
    let w = net::shipped();
    assert!(w.hidden >= 1);
    assert!(w.w1.iter().filter(|&&x| x != 0).count() > 1000);
    assert!(w.w2.iter().any(|&x| x != 0));
    assert_eq!(net::weights().unwrap(), w);
}

#[test]
fn the_breakdown_sums_to_the_evaluation_and_flips_with_the_side() {
    let eval = Ataxx::evaluator("net").unwrap();
    assert_eq!(eval, AtaxxEval::Net);
    assert_eq!(eval.name(), "net");
    assert!(Ataxx::evaluator_names().contains(&"net"));
    let err = Ataxx::evaluator("nett").unwrap_err().to_string();
    assert!(err.contains("net"), "{err}");
    for pos in common::ataxx_sample_positions(7) {
        for perspective in 0..2 {
            let (v, bd) = common::evaluate_with_terms(&eval, &pos, perspective);
            let sum: f64 = bd.terms.iter().map(|t| t.value).sum();
            assert_eq!(sum, v, "terms");
            let names: Vec<&str> = bd.terms.iter().map(|t| t.name.as_str()).collect();
            let mut expected: Vec<&str> = TERM_NAMES.to_vec();
            expected.extend(&SCALAR_NAMES[..NET_SCALARS]);
            assert_eq!(names, expected);
        }
        let a = eval.evaluate(&pos, 0, &mut NoTerms);
        assert_eq!(a, -eval.evaluate(&pos, 1, &mut NoTerms));
        let (mut x, mut y) = (Breakdown::default(), Breakdown::default());
        eval.evaluate(&pos, 0, &mut x);
        eval.evaluate(&pos, 1, &mut y);
        for (s, t) in x.terms.iter().zip(&y.terms) {
            assert_eq!((s.weight, s.raw), (t.weight, -t.raw), "{}", s.name);
        }
    }
}

/// Samples of real positions whose label is a made-up function of the board, nonlinear in the
/// windows: the material, plus 3 pieces for each corner the side to move holds while the other
/// side holds a cell next to it.
fn synthetic(seed: u64, games: usize) -> Vec<Sample> {
    positions(seed, games)
        .into_iter()
        .map(|(me, them, walls)| {
            let material = me.count_ones() as f32 - them.count_ones() as f32;
            let mut corners = 0.0;
            for (c, near) in [
                (0, [1, 7, 8]),
                (6, [5, 13, 12]),
                (42, [43, 35, 36]),
                (48, [47, 41, 40]),
            ] {
                if me >> c & 1 == 1 && near.iter().any(|&n| them >> n & 1 == 1) {
                    corners += 3.0;
                }
            }
            let label = material + corners;
            Sample {
                me,
                them,
                walls,
                search: label,
                final_margin: 0.0,
                label,
            }
        })
        .collect()
}

#[test]
fn the_trainer_reduces_the_error_and_is_deterministic() {
    let data = synthetic(21, 12);
    assert!(data.len() > 400, "{}", data.len());
    let cfg = NetTrainConfig {
        hidden: 8,
        epochs: 15,
        batch: 32,
        lr: 0.01,
        seed: 3,
        sigmoid: 0.0,
    };
    let (net, rep) = net_train::train(&cfg, &data, |_| ());
    assert!(rep.held_out * 8 > rep.rows / 2 && rep.held_out * 12 < rep.rows * 2);
    assert!(
        rep.held.1 < rep.held.0 * 0.2,
        "held out {} -> {}",
        rep.held.0,
        rep.held.1
    );
    assert!(rep.train.1 < rep.train.0 * 0.2);
    // Deterministic from its seed; another seed gives other weights.
    assert_eq!(net_train::train(&cfg, &data, |_| ()).0, net);
    let other = NetTrainConfig { seed: 4, ..cfg };
    assert_ne!(net_train::train(&other, &data, |_| ()).0, net);
    // The integer form evaluates as the float one does, within a few hundredths of a piece.
    let q = net.quantise();
    let mut worst = 0f32;
    for s in data.iter() {
        let f = net.eval(&NetRow::of(s)) * 100.0;
        let i = evaluate_with(&q, s.me, s.them, s.walls, false, |_, _, _| ()) as f32;
        worst = worst.max((f - i).abs());
    }
    eprintln!("worst difference {worst}");
    assert!(worst < 5.0, "float and integer differ by {worst}");
    // A fit of zero epochs leaves the error where it was.
    let none = NetTrainConfig { epochs: 0, ..cfg };
    let (_, r0) = net_train::train(&none, &data, |_| ());
    assert_eq!(r0.held.0, r0.held.1);
    // Fitted as expected results (`--sigmoid`), the labels are still learnt in pieces: the
    // held-out error in pieces falls (less than with the squared error in pieces, which is what
    // that error measures), and the weights are not the plain fit's.
    let sig = NetTrainConfig {
        sigmoid: 3.0,
        epochs: 30,
        ..cfg
    };
    let (snet, srep) = net_train::train(&sig, &data, |_| ());
    assert!(
        srep.held.1 < srep.held.0 * 0.5,
        "held out {} -> {}",
        srep.held.0,
        srep.held.1
    );
    assert_ne!(snet, net);
    assert_eq!(net_train::train(&sig, &data, |_| ()).0, snet);
}

#[test]
fn settings_out_of_range_name_their_option() {
    let ok = NetTrainConfig::default();
    assert_eq!(ok.check(), Ok(()));
    let h = NetTrainConfig { hidden: 0, ..ok };
    assert!(h.check().unwrap_err().contains("--hidden"));
    let h = NetTrainConfig { hidden: 129, ..ok };
    assert!(h.check().unwrap_err().contains("--hidden"));
    for sigmoid in [-1.0, f32::NAN, 101.0] {
        assert!(NetTrainConfig { sigmoid, ..ok }
            .check()
            .unwrap_err()
            .contains("--sigmoid"));
    }
    assert!(NetTrainConfig { batch: 0, ..ok }
        .check()
        .unwrap_err()
        .contains("--batch"));
    for lr in [0.0, -1.0, f32::NAN, 2.0] {
        assert!(NetTrainConfig { lr, ..ok }
            .check()
            .unwrap_err()
            .contains("--lr"));
    }
}

#[test]
fn the_samples_file_round_trips_and_refuses_bad_files() {
    let data = synthetic(5, 1);
    let bytes = samples::encode(&data);
    let back = samples::decode(&bytes).unwrap();
    assert_eq!(back.len(), data.len());
    assert!(back
        .iter()
        .zip(&data)
        .all(|(a, b)| (a.me, a.them, a.walls, a.label) == (b.me, b.them, b.walls, b.label)));
    assert_eq!(
        samples::decode(b"nope").unwrap_err(),
        samples::SamplesError::NotSamples
    );
    assert!(matches!(
        samples::decode(&bytes[..bytes.len() - 3]),
        Err(samples::SamplesError::Length { .. })
    ));
    let mut bad = bytes.clone();
    // The first position's other side's pieces take the side to move's.
    let me = data[0].me.to_le_bytes();
    bad[24..32].copy_from_slice(&me);
    assert_eq!(
        samples::decode(&bad).unwrap_err(),
        samples::SamplesError::BadPosition { index: 0 }
    );
}
