//! UAI, the Universal Ataxx Interface: UCI with "a" for "c".
//!
//! [`run`] reads commands line by line and answers on the output:
//!
//! - `uai` → `id name ...`, `id author ...`, the options, `uaiok`;
//! - `isready` → `readyok` (also while searching);
//! - `uainewgame` → back to the start position;
//! - `setoption name Evaluator value strong|material|mobility`;
//! - `position startpos|fen <fen> [moves <m1> <m2> ...]` (all or nothing: on an error the position
//!   stays as it was);
//! - `go [depth N] [movetime N] [nodes N] [wtime N] [btime N] [winc N] [binc N] [movestogo N]
//!   [infinite]` → `info depth .. score cp .. nodes .. time .. nps .. pv ..` after each completed
//!   depth, then `bestmove <move>`; `go perft N` prints the perft count instead. `btime`/`binc`
//!   are black's (`x`, first to move), `wtime`/`winc` white's. `go` without a limit searches until
//!   `stop`, as does `go infinite` (which also waits for `stop` before its `bestmove`);
//! - `stop` → ends the search, which prints its `bestmove`;
//! - `d` → the position as `info string fen ...`;
//! - `quit` (or the end of the input) → stops any search and returns.
//!
//! The search runs on its own thread with a stop flag, so `stop`, `isready` and `quit` are answered
//! while it thinks. `position`, `go`, `uainewgame` and `setoption` sent during a search with limits
//! wait for its `bestmove`; during a search without limits they are refused (send `stop` first).
//! A malformed command gets `info string error: ...` and is otherwise ignored.

use crate::core::{now_ms, Game, Turn, WIN_SCORE};
use crate::games::ataxx::{Ataxx, AtaxxEval, AtaxxMove};
use crate::search::{search, Hooks, SearchConfig};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread::{self, ScopedJoinHandle};

/// The engine's name as sent in `id name`.
pub const ENGINE_NAME: &str = concat!("Plyscope ", env!("CARGO_PKG_VERSION"));

/// The limits of one `go` command.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Time for this move in milliseconds.
    pub movetime: Option<u64>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Clocks and increments: black's (`btime`, `binc`) and white's (`wtime`, `winc`).
    pub btime: Option<u64>,
    /// White's remaining time in milliseconds.
    pub wtime: Option<u64>,
    /// Black's increment per move in milliseconds.
    pub binc: Option<u64>,
    /// White's increment per move in milliseconds.
    pub winc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u64>,
    /// Search until `stop`, and answer only then.
    pub infinite: bool,
    /// `go perft N`: count leaves instead of searching.
    pub perft: Option<u32>,
}

impl Limits {
    /// Reads the words after `go`.
    pub fn parse(words: &[&str]) -> Result<Limits, String> {
        let mut l = Limits::default();
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            if w == "infinite" {
                l.infinite = true;
                i += 1;
                continue;
            }
            let known = [
                "depth",
                "movetime",
                "nodes",
                "wtime",
                "btime",
                "winc",
                "binc",
                "movestogo",
                "perft",
            ];
            if !known.contains(&w) {
                return Err(format!(
                    "go: unknown word {w:?} (expected depth, movetime, nodes, wtime, btime, winc, binc, movestogo, infinite or perft)"
                ));
            }
            let v = words
                .get(i + 1)
                .ok_or_else(|| format!("go: {w} needs a number after it"))?;
            let n: u64 = v
                .parse()
                .map_err(|_| format!("go: {w} needs a whole number, not {v:?}"))?;
            match w {
                "depth" | "perft" => {
                    if !(1..=64).contains(&n) {
                        return Err(format!("go: {w} must be from 1 to 64, not {n}"));
                    }
                    if w == "depth" {
                        l.depth = Some(n as u32);
                    } else {
                        l.perft = Some(n as u32);
                    }
                }
                "movetime" => l.movetime = Some(n.max(1)),
                "nodes" => l.nodes = Some(n.max(1)),
                "wtime" => l.wtime = Some(n),
                "btime" => l.btime = Some(n),
                "winc" => l.winc = Some(n),
                "binc" => l.binc = Some(n),
                _ => l.movestogo = Some(n),
            }
            i += 2;
        }
        Ok(l)
    }

    /// The time to spend on this move for the player to move, in milliseconds, if any.
    pub fn time_for(&self, side: u8) -> Option<u64> {
        if let Some(t) = self.movetime {
            return Some(t);
        }
        let (left, inc) = if side == 0 {
            (self.btime, self.binc)
        } else {
            (self.wtime, self.winc)
        };
        let left = left?;
        let inc = inc.unwrap_or(0);
        let moves = self.movestogo.unwrap_or(30).clamp(1, 30);
        let budget = left / moves + inc * 3 / 4;
        Some(budget.min(left.saturating_sub(50)).max(1))
    }
}

/// Writes one line and flushes; output errors are ignored (the other side has gone).
fn say<W: Write>(out: &Mutex<W>, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

fn error<W: Write>(out: &Mutex<W>, msg: &str) {
    say(out, &format!("info string error: {msg}"));
}

/// A search value as UAI's `score cp N` or `score mate N`.
pub fn score_text(value: f64) -> String {
    if value.abs() > WIN_SCORE / 2.0 {
        let plies = (WIN_SCORE - value.abs()).round() as i64;
        let moves = (plies + 1) / 2;
        format!("mate {}", if value > 0.0 { moves } else { -moves })
    } else {
        format!("cp {}", value.round() as i64)
    }
}

/// Reads a `position` command's words (after `position`) into a new position.
pub fn parse_position(words: &[&str]) -> Result<Ataxx, String> {
    let moves_at = words.iter().position(|&w| w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let mut pos = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => Ataxx::new(),
        Some(&"startpos") => {
            return Err(format!(
                "position: unexpected {:?} after startpos (expected moves)",
                setup[1]
            ))
        }
        Some(&"fen") if setup.len() > 1 => {
            let text = setup[1..].join(" ");
            Ataxx::from_position_text("ataxx", &text).map_err(|e| format!("position fen: {e}"))?
        }
        Some(&"fen") => return Err("position fen: the FEN is missing".into()),
        Some(w) => return Err(format!("position: expected startpos or fen, found {w:?}")),
        None => return Err("position: expected startpos or fen".into()),
    };
    for (i, text) in moves.iter().enumerate() {
        let m = pos
            .parse_move(text)
            .map_err(|e| format!("position: move {} ({text}): {e}", i + 1))?;
        pos.play(m)
            .map_err(|e| format!("position: move {} ({text}): {e}", i + 1))?;
    }
    Ok(pos)
}

/// Searches `pos` within `limits`, printing an `info` line per completed depth and then
/// `bestmove`. Stops when `stop` is set.
pub fn think<W: Write>(
    pos: &Ataxx,
    eval: AtaxxEval,
    limits: &Limits,
    stop: &AtomicBool,
    out: &Mutex<W>,
) {
    if let Some(depth) = limits.perft {
        let t = now_ms();
        let n = pos.perft_fast(depth);
        let ms = now_ms() - t;
        say(
            out,
            &format!(
                "info string perft {depth} {n} time {} nps {}",
                ms.round() as u64,
                (n as f64 * 1000.0 / ms.max(0.001)) as u64
            ),
        );
        return;
    }
    let best = if pos.turn() == Turn::Terminal {
        error(out, "the game is over: there is no move to search");
        None
    } else {
        iterate(pos, eval, limits, stop, out)
    };
    if limits.infinite {
        while !stop.load(Ordering::Relaxed) {
            thread::sleep(std::time::Duration::from_millis(2));
        }
    }
    let text = best.map_or_else(|| "0000".to_string(), |m| pos.format_move(m));
    say(out, &format!("bestmove {text}"));
}

fn iterate<W: Write>(
    pos: &Ataxx,
    eval: AtaxxEval,
    limits: &Limits,
    stop: &AtomicBool,
    out: &Mutex<W>,
) -> Option<AtaxxMove> {
    let start = now_ms();
    let budget = limits.time_for(pos.side_to_move());
    let deadline = budget.map(|t| start + t as f64);
    let max_depth = limits.depth.unwrap_or(64);
    let mut best: Option<AtaxxMove> = None;
    let mut nodes = 0u64;
    for depth in 1..=max_depth {
        if stop.load(Ordering::Relaxed) && best.is_some() {
            break;
        }
        let time_ms = match deadline {
            Some(d) => {
                let left = d - now_ms();
                if left < 1.0 && best.is_some() {
                    break;
                }
                Some(left.max(1.0) as u64)
            }
            None => None,
        };
        let node_budget = match limits.nodes {
            Some(n) if nodes >= n && best.is_some() => break,
            Some(n) => Some(n.saturating_sub(nodes).max(1)),
            None => None,
        };
        let cfg = SearchConfig {
            depth,
            time_ms,
            node_budget,
            iterative_deepening: false,
            move_ordering: true,
            random_ties: false,
            seed: Some(1),
            ..Default::default()
        };
        let r = match search(
            pos,
            &eval,
            &cfg,
            Hooks {
                stop: Some(stop),
                ..Default::default()
            },
        ) {
            Ok(r) => r,
            Err(e) => {
                error(out, &e.to_string());
                break;
            }
        };
        nodes += r.stats.nodes;
        let complete = r.stats.depth_reached == depth;
        if complete || best.is_none() {
            best = r.best;
        }
        if !complete {
            break;
        }
        let ms = (now_ms() - start).max(0.0);
        let mut line = format!(
            "info depth {depth} score {} nodes {nodes} time {} nps {} pv",
            score_text(r.value),
            ms.round() as u64,
            (nodes as f64 * 1000.0 / ms.max(0.001)) as u64
        );
        let mut p = pos.clone();
        for &m in &r.pv {
            line.push(' ');
            line.push_str(&p.format_move(m));
            p.play_unchecked(m);
        }
        say(out, &line);
        // A decided game whose end lies within the searched depth will not change deeper.
        if r.value.abs() > WIN_SCORE / 2.0 && WIN_SCORE - r.value.abs() <= depth as f64 {
            break;
        }
    }
    best
}

/// Runs a UAI session: reads commands from `input` until `quit` or its end, and answers on `output`.
pub fn run<R: BufRead, W: Write + Send>(input: R, output: W) {
    let out = Mutex::new(output);
    let stop = AtomicBool::new(false);
    let mut pos = Ataxx::new();
    let mut eval = AtaxxEval::Strong;
    thread::scope(|scope| {
        let mut thinking: Option<ScopedJoinHandle<'_, ()>> = None;
        // Whether the running search has no limit of its own (it runs until `stop`).
        let mut unlimited = false;
        let mut quit = false;
        let finish = |thinking: &mut Option<ScopedJoinHandle<'_, ()>>| {
            if let Some(h) = thinking.take() {
                stop.store(true, Ordering::Relaxed);
                let _ = h.join();
            }
        };
        for line in input.lines() {
            let line = match line {
                Ok(line) => line,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    error(&out, "the line is not UTF-8 text");
                    continue;
                }
                Err(_) => break,
            };
            if thinking.as_ref().is_some_and(|h| h.is_finished()) {
                let _ = thinking.take().map(|h| h.join());
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some((&cmd, args)) = words.split_first() else {
                continue;
            };
            // A command that changes the position or starts a search waits for a search with
            // limits to end (so that piped scripts work); one without limits must be stopped.
            if matches!(cmd, "uainewgame" | "position" | "go" | "setoption") && !unlimited {
                if let Some(h) = thinking.take() {
                    let _ = h.join();
                }
            }
            let busy = thinking.is_some();
            match cmd {
                "uai" => {
                    say(&out, &format!("id name {ENGINE_NAME}"));
                    say(&out, "id author the Plyscope authors");
                    say(
                        &out,
                        "option name Evaluator type combo default strong var strong var material var mobility",
                    );
                    say(&out, "uaiok");
                }
                "isready" => say(&out, "readyok"),
                "quit" => {
                    quit = true;
                    break;
                }
                "stop" => finish(&mut thinking),
                _ if busy && matches!(cmd, "uainewgame" | "position" | "go" | "setoption") => {
                    error(
                        &out,
                        &format!("{cmd} while searching without a limit: send stop first"),
                    );
                }
                "uainewgame" => pos = Ataxx::new(),
                "position" => match parse_position(args) {
                    Ok(p) => pos = p,
                    Err(e) => error(&out, &e),
                },
                "setoption" => match args {
                    ["name", name, "value", value] if name.eq_ignore_ascii_case("evaluator") => {
                        match AtaxxEval::by_name(value) {
                            Ok(e) => eval = e,
                            Err(e) => error(&out, &e.to_string()),
                        }
                    }
                    _ => error(
                        &out,
                        &format!(
                            "setoption: expected \"setoption name Evaluator value <name>\", found {:?}",
                            args.join(" ")
                        ),
                    ),
                },
                "go" => match Limits::parse(args) {
                    Ok(limits) => {
                        stop.store(false, Ordering::Relaxed);
                        unlimited = limits.infinite
                            || (limits.perft.is_none()
                                && limits.depth.is_none()
                                && limits.nodes.is_none()
                                && limits.time_for(pos.side_to_move()).is_none());
                        let p = pos.clone();
                        let (out, stop) = (&out, &stop);
                        thinking = Some(scope.spawn(move || think(&p, eval, &limits, stop, out)));
                    }
                    Err(e) => error(&out, &e),
                },
                "d" => say(&out, &format!("info string fen {}", pos.position_text())),
                _ => error(
                    &out,
                    &format!(
                        "unknown command {cmd:?} (expected uai, isready, uainewgame, setoption, position, go, stop, d or quit)"
                    ),
                ),
            }
        }
        // `quit` stops the search; at the end of the input a search with limits finishes on its
        // own (so that a piped script gets its answer) and one without is stopped.
        if let Some(h) = thinking.take() {
            if quit || unlimited {
                stop.store(true, Ordering::Relaxed);
            }
            let _ = h.join();
        }
    });
}
