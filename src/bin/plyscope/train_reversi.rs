//! `plyscope train-reversi`: runs the `patterns` evaluator's training pipeline
//! (`plyscope::games::reversi::train`) and writes a weights file.

use super::{Opts, Usage};
use plyscope::games::reversi::patterns;
use plyscope::games::reversi::train::{self, TrainConfig};
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
            "--play-depth",
            "--exact",
            "--label-depth",
            "--epochs",
            "--shrink",
        ],
    )?;
    let out = opts
        .value("--out")
        .ok_or_else(|| Usage("train-reversi needs --out FILE (where the weights go)".into()))?
        .to_string();
    let d = TrainConfig::default();
    let cfg = TrainConfig {
        seed: opts.number_or("--seed", "a whole number", d.seed)?,
        games: opts.number_or("--games", "a whole number", d.games)?,
        random_min: opts.number_or("--random-min", "a whole number", d.random_min)?,
        random_max: opts.number_or("--random-max", "a whole number", d.random_max)?,
        epsilon: opts.number_or("--epsilon", "a share from 0 to 1", d.epsilon)?,
        play_depth: opts.number_or("--play-depth", "a depth of 1 or more", d.play_depth)?,
        exact_empties: opts.number_or(
            "--exact",
            "a number of empties up to 24",
            d.exact_empties,
        )?,
        label_depth: opts.number_or("--label-depth", "a depth from 1 to 8", d.label_depth)?,
        epochs: opts.number_or("--epochs", "a whole number", d.epochs)?,
        shrink: opts.number_or("--shrink", "a number of 0 or more", d.shrink)?,
    };
    if cfg.random_min > cfg.random_max {
        return Err(Usage("--random-min must not exceed --random-max".into()));
    }
    if !(0.0..=1.0).contains(&cfg.epsilon) {
        return Err(Usage("--epsilon must be from 0 to 1".into()));
    }
    if cfg.play_depth == 0 || !(1..=8).contains(&cfg.label_depth) {
        return Err(Usage(
            "--play-depth must be 1 or more and --label-depth from 1 to 8".into(),
        ));
    }
    if cfg.exact_empties > 24 {
        return Err(Usage("--exact must be at most 24 empties".into()));
    }
    if !(cfg.shrink >= 0.0) {
        return Err(Usage("--shrink must be 0 or more".into()));
    }
    eprintln!("{cfg:?}");
    let t = Instant::now();
    let mut samples = train::play_games(&cfg);
    eprintln!(
        "{} games, {} positions in {:.1} s",
        cfg.games,
        samples.len(),
        t.elapsed().as_secs_f64()
    );
    let t1 = Instant::now();
    train::label_exact(&mut samples, cfg.exact_empties);
    eprintln!(
        "{} exact labels (<= {} empties) in {:.1} s",
        samples.iter().filter(|s| s.exact).count(),
        cfg.exact_empties,
        t1.elapsed().as_secs_f64()
    );
    let t2 = Instant::now();
    let (w, _) = train::train(&cfg, &mut samples, |line| eprintln!("{line}"));
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
