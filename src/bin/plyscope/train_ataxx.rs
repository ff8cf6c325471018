//! `plyscope train-ataxx`: runs the Ataxx `patterns` evaluator's training pipeline
//! (`plyscope::games::ataxx::train`) and writes a weights file.

use super::train_options;
use super::Usage;
use plyscope::games::ataxx::train::{self, TrainConfig};
use plyscope::games::ataxx::{patterns, AtaxxEval};
use std::time::Instant;

/// Runs the command.
pub fn run(args: &[String]) -> Result<(), Usage> {
    let (opts, out) =
        train_options::parse(args, &["--depth", "--eval", "--final-share"], "train-ataxx")?;
    let d = TrainConfig::default();
    let cfg = TrainConfig {
        self_play: train_options::self_play(&opts, d.self_play)?,
        depth: opts.number_or("--depth", "a depth from 2 to 8", d.depth)?,
        evaluator: match opts.value("--eval") {
            Some(name) => AtaxxEval::by_name(name).map_err(|e| Usage(e.to_string()))?,
            None => d.evaluator,
        },
        final_share: opts.number_or("--final-share", "a share from 0 to 1", d.final_share)?,
    };
    if !(0.0..=1.0).contains(&cfg.final_share) {
        return Err(Usage("--final-share must be from 0 to 1".into()));
    }
    if !(2..=8).contains(&cfg.depth) {
        return Err(Usage("--depth must be from 2 to 8".into()));
    }
    eprintln!("{cfg:?}");
    let t = Instant::now();
    let samples = train::play_games(&cfg);
    eprintln!(
        "{} games, {} labelled positions in {:.1} s",
        cfg.self_play.games,
        samples.len(),
        t.elapsed().as_secs_f64()
    );
    let t2 = Instant::now();
    let (w, _) = train::train(&cfg, &samples, |line| eprintln!("{line}"));
    eprintln!("fitted in {:.1} s", t2.elapsed().as_secs_f64());
    let bytes = patterns::encode(&train::quantise(&w));
    train_options::write_weights(&out, &bytes, t)
}
