//! `plyscope train-ataxx`: runs the training pipeline of the Ataxx `patterns` evaluator
//! (`plyscope::games::ataxx::train`) or, with `--model net`, of the `net` evaluator
//! (`plyscope::games::ataxx::net_train`), and writes a weights file.

use super::train_options;
use super::Usage;
use plyscope::games::ataxx::datagen;
use plyscope::games::ataxx::net_train::{self, NetTrainConfig};
use plyscope::games::ataxx::nnue_train::{self, NnueTrainConfig};
use plyscope::games::ataxx::train::{self, TrainConfig};
use plyscope::games::ataxx::{nnue, patterns, samples, AtaxxEval};
use std::time::Instant;

/// Runs the command.
pub fn run(args: &[String]) -> Result<(), Usage> {
    if args.iter().any(|a| a == "--report") {
        return report_nnue(args);
    }
    let (opts, out) = train_options::parse(
        args,
        &[
            "--depth",
            "--eval",
            "--final-share",
            "--samples",
            "--save-samples",
            "--model",
            "--hidden",
            "--batch",
            "--lr",
            "--sigmoid",
            "--data",
            "--buckets",
            "--wdl",
            "--scale",
            "--held-out",
            "--threads",
            "--init",
            "--teacher",
        ],
        "train-ataxx",
    )?;
    if opts.value("--model") == Some("nnue") {
        return train_nnue(&opts, &out);
    }
    if opts.value("--teacher").is_some() {
        return Err(Usage("--teacher needs --model nnue".into()));
    }
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
    let net = match opts.value("--model") {
        None | Some("patterns") => None,
        Some("net") => {
            let n = NetTrainConfig::default();
            let c = NetTrainConfig {
                hidden: opts.number_or("--hidden", "a whole number", n.hidden)?,
                epochs: opts.number_or("--epochs", "a whole number", n.epochs)?,
                batch: opts.number_or("--batch", "a whole number", n.batch)?,
                lr: opts.number_or("--lr", "a step size", n.lr)?,
                seed: cfg.self_play.seed,
                sigmoid: opts.number_or("--sigmoid", "pieces (0: off)", n.sigmoid)?,
            };
            c.check().map_err(Usage)?;
            Some(c)
        }
        Some(other) => {
            return Err(Usage(format!(
                "bad value {other:?} for --model: expected patterns, net or nnue"
            )))
        }
    };
    eprintln!("{cfg:?}");
    if let Some(n) = &net {
        eprintln!("{n:?}");
    }
    let t = Instant::now();
    let samples = match opts.value("--samples") {
        Some(paths) => {
            let mut all = Vec::new();
            for path in paths.split(',') {
                let bytes =
                    std::fs::read(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))?;
                let s = samples::decode(&bytes).map_err(|e| Usage(format!("{path}: {e}")))?;
                eprintln!("{} labelled positions read from {path}", s.len());
                all.extend(s);
            }
            train::relabel(&mut all, cfg.final_share);
            all
        }
        None => {
            let s = train::play_games(&cfg);
            eprintln!(
                "{} games, {} labelled positions in {:.1} s",
                cfg.self_play.games,
                s.len(),
                t.elapsed().as_secs_f64()
            );
            s
        }
    };
    if let Some(path) = opts.value("--save-samples") {
        std::fs::write(path, samples::encode(&samples))
            .map_err(|e| Usage(format!("cannot write {path}: {e}")))?;
        eprintln!("wrote {} positions to {path}", samples.len());
    }
    let t2 = Instant::now();
    if let Some(n) = net {
        let (w, rep) = net_train::train(&n, &samples, |line| eprintln!("{line}"));
        eprintln!(
            "{} positions fitted, {} held out; mse {:.2} -> {:.2} pieces^2, held out {:.2} -> {:.2}",
            rep.rows, rep.held_out, rep.train.0, rep.train.1, rep.held.0, rep.held.1
        );
        for p in 0..patterns::PHASES {
            let lo = p as u32 * patterns::PHASE_WIDTH + 1;
            eprintln!(
                "phase {p} (empties {lo}-{}): {} held out; labels' spread {:.2}, held out {:.2} pieces^2",
                if p + 1 == patterns::PHASES { 49 } else { lo + patterns::PHASE_WIDTH - 1 },
                rep.held_count[p],
                rep.held_zero_by_phase[p],
                rep.held_by_phase[p]
            );
        }
        eprintln!("fitted in {:.1} s", t2.elapsed().as_secs_f64());
        return train_options::write_weights(&out, &w.quantise().encode(), t);
    }
    let (w, _) = train::train(&cfg, &samples, |line| eprintln!("{line}"));
    eprintln!("fitted in {:.1} s", t2.elapsed().as_secs_f64());
    let bytes = patterns::encode(&train::quantise(&w));
    train_options::write_weights(&out, &bytes, t)
}

/// `--model nnue`: fits the `nnue` evaluator to self-play data files (`--data F1,F2,...`, written
/// by `plyscope datagen-ataxx`).
fn train_nnue(opts: &super::Opts, out: &str) -> Result<(), Usage> {
    let mut d = NnueTrainConfig::default();
    // `--init FILE`: fit further from a weights file, whose shape and scale the fit then takes;
    // `--hidden` above its units widens it (the new units start with no weight in the output).
    let start = match opts.value("--init") {
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))?;
            let w = nnue::NnueWeights::decode(&bytes).map_err(|e| Usage(format!("{path}: {e}")))?;
            let n = nnue_train::NnueF32::from_weights(&w);
            (d.hidden, d.buckets, d.scale) = (n.hidden, n.buckets, n.scale);
            Some(n)
        }
        None => None,
    };
    let cfg = NnueTrainConfig {
        hidden: opts.number_or("--hidden", "a multiple of 16", d.hidden)?,
        buckets: opts.number_or("--buckets", "1 or 7", d.buckets)?,
        epochs: opts.number_or("--epochs", "a whole number", d.epochs)?,
        batch: opts.number_or("--batch", "a whole number", d.batch)?,
        lr: opts.number_or("--lr", "a step size", d.lr)?,
        wdl: opts.number_or("--wdl", "a share from 0 to 1", d.wdl)?,
        scale: opts.number_or("--scale", "hundredths of a piece", d.scale)?,
        held_out: opts.number_or("--held-out", "a share from 0 to 0.5", d.held_out)?,
        seed: opts.number_or("--seed", "a whole number", d.seed)?,
        threads: opts.number_or("--threads", "a whole number", d.threads)?,
    };
    cfg.check().map_err(Usage)?;
    if let Some(n) = &start {
        cfg.check_start(n).map_err(Usage)?;
    }
    let paths = opts
        .value("--data")
        .ok_or_else(|| Usage("--model nnue needs --data F1,F2,... (datagen-ataxx files)".into()))?;
    eprintln!("{cfg:?}");
    let t = Instant::now();
    let mut all = read_data(paths)?;
    // `--teacher FILE`: the search values become that network's (kept where the search proved a
    // result), so the fit learns its values.
    if let Some(path) = opts.value("--teacher") {
        let bytes = std::fs::read(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))?;
        let w = nnue::NnueWeights::decode(&bytes).map_err(|e| Usage(format!("{path}: {e}")))?;
        let t = Instant::now();
        nnue_train::relabel_by(&w, &mut all, cfg.threads);
        eprintln!("values from {path} in {:.1} s", t.elapsed().as_secs_f64());
    }
    let (net, constant) = nnue_train::train(&cfg, &all, start, |r| {
        eprintln!(
            "epoch {}: loss {:.5}, held out {:.5}; {:.1} s",
            r.epoch, r.train, r.held, r.seconds
        )
    });
    eprintln!("held out, a constant guess: {constant:.5}");
    train_options::write_weights(out, &net.quantise().encode(), t)
}

/// The positions of the `datagen-ataxx` files `paths` (comma-separated); an error when a file
/// does not read or none holds a position.
fn read_data(paths: &str) -> Result<Vec<datagen::Position>, Usage> {
    let t = Instant::now();
    let mut all = Vec::new();
    for path in paths.split(',').filter(|p| !p.is_empty()) {
        let bytes = std::fs::read(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))?;
        let data = datagen::decode(&bytes).map_err(|e| Usage(format!("{path}: {e}")))?;
        all.extend(data);
    }
    eprintln!(
        "{} positions read in {:.1} s",
        all.len(),
        t.elapsed().as_secs_f64()
    );
    if all.is_empty() {
        return Err(Usage("--data holds no positions".into()));
    }
    Ok(all)
}

/// `--model nnue --report N1,N2,...`: no fit; each `nnue` weights file's loss on the data
/// (`--data`, the target as in a fit: `--wdl`, `--scale`), over all positions and by game phase,
/// printed on standard output. `--open-board` keeps the positions without walls only (for a
/// network that knows none). docs/ataxx.md, "Session 28", uses it on the games of matches.
fn report_nnue(args: &[String]) -> Result<(), Usage> {
    let opts = super::Opts::parse(
        args,
        &["--open-board"],
        &["--model", "--data", "--report", "--wdl", "--scale"],
    )?;
    if opts.value("--model") != Some("nnue") {
        return Err(Usage("--report needs --model nnue".into()));
    }
    let d = NnueTrainConfig::default();
    let wdl: f32 = opts.number_or("--wdl", "a share from 0 to 1", d.wdl)?;
    let scale: f32 = opts.number_or("--scale", "hundredths of a piece", d.scale)?;
    if !(0.0..=1.0).contains(&wdl) {
        return Err(Usage("--wdl must be a share from 0 to 1".into()));
    }
    if !(scale > 0.0 && scale.is_finite()) {
        return Err(Usage("--scale must be a positive number".into()));
    }
    let paths = opts
        .value("--data")
        .ok_or_else(|| Usage("--report needs --data F1,F2,... (datagen-ataxx files)".into()))?;
    let all = read_data(paths)?;
    let open = opts.flag("--open-board");
    let data: Vec<&datagen::Position> = all.iter().filter(|p| !open || p.walls == 0).collect();
    if data.is_empty() {
        return Err(Usage(
            "--open-board: the data holds no position without walls".into(),
        ));
    }
    let mut nets = Vec::new();
    for path in opts
        .value("--report")
        .unwrap_or("")
        .split(',')
        .filter(|p| !p.is_empty())
    {
        let bytes = std::fs::read(path).map_err(|e| Usage(format!("cannot read {path}: {e}")))?;
        let w = nnue::NnueWeights::decode(&bytes).map_err(|e| Usage(format!("{path}: {e}")))?;
        nets.push((path, nnue_train::NnueF32::from_weights(&w)));
    }
    if nets.is_empty() {
        return Err(Usage(
            "--report needs N1,N2,... (nnue weights files)".into(),
        ));
    }
    println!(
        "{} positions; loss (squared error of the expected result, result share {wdl}) by phase \
         (empty cells 1-7, 8-14, ..., 43-49)",
        data.len()
    );
    for (path, net) in &nets {
        let by = nnue_train::loss_by_phase(net, &data, wdl, scale);
        let whole = by.iter().map(|(l, n)| l * *n as f64).sum::<f64>() / data.len() as f64;
        let phases: Vec<String> = by.iter().map(|(l, n)| format!("{l:.4} ({n})")).collect();
        println!("{path}: {whole:.5}; {}", phases.join(", "));
    }
    Ok(())
}
