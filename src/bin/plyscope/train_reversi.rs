//! `plyscope train-reversi`: runs the `patterns` evaluator's training pipeline
//! (`plyscope::games::reversi::train`) and writes a weights file.

use super::train_options;
use super::Usage;
use plyscope::games::reversi::patterns;
use plyscope::games::reversi::train::{self, TrainConfig};
use std::time::Instant;

/// Runs the command.
pub fn run(args: &[String]) -> Result<(), Usage> {
    let (opts, out) = train_options::parse(
        args,
        &["--play-depth", "--exact", "--label-depth"],
        "train-reversi",
    )?;
    let d = TrainConfig::default();
    let cfg = TrainConfig {
        self_play: train_options::self_play(&opts, d.self_play)?,
        play_depth: opts.number_or("--play-depth", "a depth of 1 or more", d.play_depth)?,
        exact_empties: opts.number_or(
            "--exact",
            "a number of empties up to 24",
            d.exact_empties,
        )?,
        label_depth: opts.number_or("--label-depth", "a depth from 1 to 8", d.label_depth)?,
    };
    if cfg.play_depth == 0 || !(1..=8).contains(&cfg.label_depth) {
        return Err(Usage(
            "--play-depth must be 1 or more and --label-depth from 1 to 8".into(),
        ));
    }
    if cfg.exact_empties > 24 {
        return Err(Usage("--exact must be at most 24 empties".into()));
    }
    eprintln!("{cfg:?}");
    let t = Instant::now();
    let mut samples = train::play_games(&cfg);
    eprintln!(
        "{} games, {} positions in {:.1} s",
        cfg.self_play.games,
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
    train_options::write_weights(&out, &bytes, t)
}
