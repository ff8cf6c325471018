//! `plyscope train-ataxx`: runs the Ataxx `patterns` evaluator's training pipeline
//! (`plyscope::games::ataxx::train`) and writes a weights file.

use super::{Opts, Usage};
use plyscope::games::ataxx::train::{self, TrainConfig};
use plyscope::games::ataxx::{patterns, AtaxxEval};
use std::time::Instant;

/// Runs the command.
pub fn run(args: &[String]) -> Result<(), Usage> {
    let opts = Opts::parse(
        args,
        &[],
        &[
            "--out",
            "--games",
            "--seed",
            "--random-min",
            "--random-max",
            "--epsilon",
            "--depth",
            "--eval",
            "--final-share",
            "--epochs",
            "--shrink",
        ],
    )?;
    let out = opts
        .value("--out")
        .ok_or_else(|| Usage("train-ataxx needs --out FILE (where the weights go)".into()))?
        .to_string();
    let d = TrainConfig::default();
    let cfg = TrainConfig {
        seed: opts.number_or("--seed", "a whole number", d.seed)?,
        games: opts.number_or("--games", "a whole number", d.games)?,
        random_min: opts.number_or("--random-min", "a whole number", d.random_min)?,
        random_max: opts.number_or("--random-max", "a whole number", d.random_max)?,
        epsilon: opts.number_or("--epsilon", "a share from 0 to 1", d.epsilon)?,
        depth: opts.number_or("--depth", "a depth from 2 to 8", d.depth)?,
        evaluator: match opts.value("--eval") {
            Some(name) => AtaxxEval::by_name(name).map_err(|e| Usage(e.to_string()))?,
            None => d.evaluator,
        },
        final_share: opts.number_or("--final-share", "a share from 0 to 1", d.final_share)?,
        epochs: opts.number_or("--epochs", "a whole number", d.epochs)?,
        shrink: opts.number_or("--shrink", "a number of 0 or more", d.shrink)?,
    };
    if cfg.random_min > cfg.random_max {
        return Err(Usage("--random-min must not exceed --random-max".into()));
    }
    if !(0.0..=1.0).contains(&cfg.epsilon) || !(0.0..=1.0).contains(&cfg.final_share) {
        return Err(Usage(
            "--epsilon and --final-share must be from 0 to 1".into(),
        ));
    }
    if !(2..=8).contains(&cfg.depth) {
        return Err(Usage("--depth must be from 2 to 8".into()));
    }
    if cfg.shrink.is_nan() || cfg.shrink < 0.0 {
        return Err(Usage("--shrink must be 0 or more".into()));
    }
    eprintln!("{cfg:?}");
    let t = Instant::now();
    let samples = train::play_games(&cfg);
    eprintln!(
        "{} games, {} labelled positions in {:.1} s",
        cfg.games,
        samples.len(),
        t.elapsed().as_secs_f64()
    );
    let t2 = Instant::now();
    let (w, _) = train::train(&cfg, &samples, |line| eprintln!("{line}"));
    eprintln!("fitted in {:.1} s", t2.elapsed().as_secs_f64());
    let bytes = patterns::encode(&train::quantise(&w));
    std::fs::write(&out, &bytes).map_err(|e| Usage(format!("cannot write {out}: {e}")))?;
    eprintln!(
        "wrote {out} ({} bytes); total {:.1} s",
        bytes.len(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
