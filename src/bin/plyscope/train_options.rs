//! The command-line options every `train-*` command shares: one parser for
//! [`SelfPlay`], the self-play and fitting settings of the pattern trainers.

use super::{Opts, Usage};
use plyscope::games::pattern_fit::SelfPlay;
use std::time::Instant;

/// The shared options, each followed by a value.
pub const SHARED: [&str; 7] = [
    "--seed",
    "--games",
    "--random-min",
    "--random-max",
    "--epsilon",
    "--epochs",
    "--shrink",
];

/// Parses a `train-*` command's `args`: its own options that take a value (`own`), the shared
/// ones and `--out FILE`, which it needs. Returns the options and the output path.
pub fn parse(args: &[String], own: &[&str], command: &str) -> Result<(Opts, String), Usage> {
    let valued: Vec<&str> = own.iter().copied().chain(SHARED).chain(["--out"]).collect();
    let opts = Opts::parse(args, &[], &valued)?;
    let out = opts
        .value("--out")
        .ok_or_else(|| Usage(format!("{command} needs --out FILE (where the weights go)")))?
        .to_string();
    Ok((opts, out))
}

/// The shared settings from `opts`, each defaulting to `d`'s, checked ([`SelfPlay::check`]).
pub fn self_play(opts: &Opts, d: SelfPlay) -> Result<SelfPlay, Usage> {
    let s = SelfPlay {
        seed: opts.number_or("--seed", "a whole number", d.seed)?,
        games: opts.number_or("--games", "a whole number", d.games)?,
        random_min: opts.number_or("--random-min", "a whole number", d.random_min)?,
        random_max: opts.number_or("--random-max", "a whole number", d.random_max)?,
        epsilon: opts.number_or("--epsilon", "a share from 0 to 1", d.epsilon)?,
        epochs: opts.number_or("--epochs", "a whole number", d.epochs)?,
        shrink: opts.number_or("--shrink", "a number of 0 or more", d.shrink)?,
    };
    s.check().map_err(Usage)?;
    Ok(s)
}

/// Writes a trained weights file's `bytes` to `out` and reports its size and the command's total
/// time since `started`.
pub fn write_weights(out: &str, bytes: &[u8], started: Instant) -> Result<(), Usage> {
    std::fs::write(out, bytes).map_err(|e| Usage(format!("cannot write {out}: {e}")))?;
    eprintln!(
        "wrote {out} ({} bytes); total {:.1} s",
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
