//! `plyscope datagen-ataxx`: self-play games at a node budget a move, every position written with
//! the search's value and the game's result (`plyscope::games::ataxx::datagen`), the data the
//! `nnue` evaluator is trained on.

use super::{Opts, Usage};
use plyscope::games::ataxx::datagen::{self, DatagenConfig, DatagenReport};
use plyscope::games::ataxx::AtaxxEval;
use std::io::{BufWriter, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Runs the command.
pub fn run(args: &[String]) -> Result<(), Usage> {
    let opts = Opts::parse(
        args,
        &["--append"],
        &[
            "--out",
            "--games",
            "--nodes",
            "--seed",
            "--random-min",
            "--random-max",
            "--max-opening",
            "--walls",
            "--eval",
            "--threads",
        ],
    )?;
    let out = opts
        .value("--out")
        .ok_or_else(|| Usage("datagen-ataxx needs --out FILE (where the positions go)".into()))?
        .to_string();
    let d = DatagenConfig::default();
    let cfg = DatagenConfig {
        games: opts.number_or("--games", "a whole number", d.games)?,
        nodes: opts.number_or("--nodes", "a whole number", d.nodes)?,
        seed: opts.number_or("--seed", "a whole number", d.seed)?,
        random_min: opts.number_or("--random-min", "a whole number", d.random_min)?,
        random_max: opts.number_or("--random-max", "a whole number", d.random_max)?,
        max_opening: opts.number_or("--max-opening", "hundredths of a piece", d.max_opening)?,
        walls_share: opts.number_or("--walls", "a share from 0 to 1", d.walls_share)?,
        evaluator: match opts.value("--eval") {
            Some(name) => AtaxxEval::by_name(name).map_err(|e| Usage(e.to_string()))?,
            None => d.evaluator,
        },
        threads: opts.number_or("--threads", "a whole number", d.threads)?,
    };
    cfg.check().map_err(Usage)?;
    eprintln!("{cfg:?}");
    // --append adds to an existing file (its magic checked), else the file is made anew.
    let append = opts.flag("--append") && std::path::Path::new(&out).exists();
    let file = if append {
        let mut head = [0u8; 8];
        let mut f =
            std::fs::File::open(&out).map_err(|e| Usage(format!("cannot read {out}: {e}")))?;
        std::io::Read::read_exact(&mut f, &mut head)
            .map_err(|e| Usage(format!("cannot read {out}: {e}")))?;
        if &head != datagen::MAGIC {
            return Err(Usage(format!("{out}: {}", datagen::DataError::NotData)));
        }
        std::fs::OpenOptions::new().append(true).open(&out)
    } else {
        std::fs::File::create(&out)
    }
    .map_err(|e| Usage(format!("cannot write {out}: {e}")))?;
    let mut w = BufWriter::new(file);
    if !append {
        w.write_all(datagen::MAGIC)
            .map_err(|e| Usage(format!("cannot write {out}: {e}")))?;
    }
    let t = Instant::now();
    let stop = AtomicBool::new(false);
    let log = |r: &DatagenReport| {
        let s = t.elapsed().as_secs_f64();
        eprintln!(
            "{} games, {} positions ({:.0} a second), {:.1} s; first/draw/second {:?}; {} clock draws and {} uneven openings dropped",
            r.games,
            r.positions,
            r.positions as f64 / s.max(1e-9),
            s,
            r.first_second,
            r.clock_draws,
            r.uneven_openings
        );
    };
    let every = (cfg.games / 20).clamp(1, 500);
    let report = datagen::run(&cfg, w, &stop, every, &log)
        .map_err(|e| Usage(format!("cannot write {out}: {e}")))?;
    log(&report);
    eprintln!("wrote {} positions to {out}", report.positions);
    Ok(())
}
