//! UAI, the Universal Ataxx Interface: UCI with "a" for "c", on the shared [`driver`].
//!
//! [`run`] reads commands line by line and answers on the output:
//!
//! - `uai` → `id name ...`, `id author ...`, the options, `uaiok`;
//! - `isready` → `readyok`, at once, also while a search or perft runs;
//! - `uainewgame` → back to the start position;
//! - `setoption name Evaluator value nnue|net|patterns|strong|material|mobility` (nnue the default); `setoption name Hash value <MB>`
//!   (the transposition table's size, 1 to 2048 MB, rounded down to a power of two entries);
//!   `setoption name Threads value <1-64>` (a parallel Lazy SMP search; 1 by default);
//!   `setoption name PVS|Aspiration|Killers|History|HistoryMalus|LMR|LMPAll|IIR|Singular|Futility value true|false`
//!   (the search techniques, each defaulting to the game's default: LMPAll, late-move pruning at
//!   every depth, and IIR, internal iterative reduction, are off; Singular, singular extensions,
//!   is on; Futility is forward pruning near the horizon: docs/engine-options.md);
//! - `position startpos|fen <fen> [moves <m1> <m2> ...]` (all or nothing: on an error the position
//!   stays as it was, and the error names the move that failed by its number);
//! - `go [depth N] [movetime N] [nodes N] [wtime N] [btime N] [winc N] [binc N] [movestogo N]
//!   [infinite]` → `info depth .. score cp .. nodes .. time .. nps .. pv ..` after each completed
//!   depth, then `bestmove <move>`; `go perft N` prints the perft count instead (or that it was
//!   stopped). `btime`/`binc` are black's (`x`, first to move), `wtime`/`winc` white's. `go`
//!   without a limit searches until `stop` or depth 64, and `go infinite` also waits for `stop`
//!   before its `bestmove`;
//! - `stop` → ends the search, which prints its `bestmove` (or the perft, which says it stopped);
//! - `d` → the position as `info string fen ...`;
//! - `quit` (or the end of the input) → stops any search (it still prints its `bestmove`) and
//!   returns.
//!
//! As in Stockfish, the input is read while the engine thinks: `isready`, `uai` and `d` are answered
//! at once; `stop`, `quit`, the end of the input, and any command that changes the position or
//! starts a search (`position`, `go`, `uainewgame`, `setoption`) first stop the running search,
//! which prints its `bestmove`. A malformed command gets `info string error: ...` and is otherwise
//! ignored; words after a command that takes none get `info string warning: ignored ...`; an
//! unknown command is named in the error cut to a few dozen characters.

use crate::core::PerftBudget;
use crate::core::{now_ms, Game, Turn, WIN_SCORE};
use crate::games::ataxx::{eval, Ataxx, AtaxxEval, AtaxxMove};
use crate::protocol::driver::{self, extra_words, shown, Disposition, Job, Output, Protocol, Task};
use crate::search::tt::Table;
use crate::search::{search, Completed, Hooks, SearchConfig};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;

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
                    "go: unknown word {} (expected depth, movetime, nodes, wtime, btime, winc, binc, movestogo, infinite or perft)",
                    shown(w)
                ));
            }
            let v = words
                .get(i + 1)
                .ok_or_else(|| format!("go: {w} needs a number after it"))?;
            let n: u64 = v
                .parse()
                .map_err(|_| format!("go: {w} needs a whole number, not {}", shown(v)))?;
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
    ///
    /// With a clock: the clock shared over the moves to the time control (30 at most) plus three
    /// quarters of the increment, but never more than half the clock (the whole clock less
    /// [`CLOCK_MARGIN_MS`] on the last move before the time control), whatever the increment says.
    /// The arithmetic cannot overflow.
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
        let share = left / moves;
        let from_inc = (u128::from(inc) * 3 / 4).min(u128::from(u64::MAX)) as u64;
        let budget = share.saturating_add(from_inc);
        let cap = if moves == 1 {
            left
        } else {
            (left / 2).max(share)
        };
        Some(
            budget
                .min(cap)
                .min(left.saturating_sub(CLOCK_MARGIN_MS))
                .max(1),
        )
    }
}

/// Milliseconds of the clock never used, for the time it takes to send the move.
pub const CLOCK_MARGIN_MS: u64 = 50;

/// Writes one line (output errors are ignored: the other side has gone).
fn say(out: &Output, line: &str) {
    out.line(line);
}

fn error(out: &Output, msg: &str) {
    say(out, &format!("info string error: {msg}"));
}

fn warn(out: &Output, msg: &str) {
    say(out, &format!("info string warning: {msg}"));
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

/// `text` cut to [`driver::MAX_ECHO_CHARS`] characters, unquoted.
fn cut(text: &str) -> &str {
    match text.char_indices().nth(driver::MAX_ECHO_CHARS) {
        Some((i, _)) => &text[..i],
        None => text,
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
                "position: unexpected {} after startpos (expected moves)",
                shown(setup[1])
            ))
        }
        Some(&"fen") if setup.len() > 1 => {
            let text = setup[1..].join(" ");
            Ataxx::from_position_text("ataxx", &text).map_err(|e| format!("position fen: {e}"))?
        }
        Some(&"fen") => return Err("position fen: the FEN is missing".into()),
        Some(w) => {
            return Err(format!(
                "position: expected startpos or fen, found {}",
                shown(w)
            ))
        }
        None => return Err("position: expected startpos or fen".into()),
    };
    for (i, text) in moves.iter().enumerate() {
        let m = pos
            .parse_move(text)
            .map_err(|e| format!("position: move {} ({}): {e}", i + 1, cut(text)))?;
        pos.play(m)
            .map_err(|e| format!("position: move {} ({}): {e}", i + 1, cut(text)))?;
    }
    Ok(pos)
}

/// The transposition table a UAI engine keeps between its searches (each `go` runs on a thread
/// of its own): the moves of one game share it, `uainewgame` empties it.
#[derive(Clone, Default)]
pub struct KeptTable(Arc<Mutex<Option<Table<AtaxxMove>>>>);

impl std::fmt::Debug for KeptTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeptTable")
    }
}

/// Searches `pos` within `limits`, printing an `info` line per completed depth and then
/// `bestmove`. Stops when `stop` is set. The search is the one the CLI and the page run
/// (iterative deepening with aspiration windows, the table kept across depths); with `keep`,
/// the table's entries from `table`'s last search are kept too (the earlier moves of the game).
#[allow(clippy::too_many_arguments)]
pub fn think(
    pos: &Ataxx,
    eval: AtaxxEval,
    base: &SearchConfig,
    limits: &Limits,
    table: &KeptTable,
    keep: bool,
    stop: &AtomicBool,
    out: &Output,
) {
    if let Some(depth) = limits.perft {
        let t = now_ms();
        let mut budget = PerftBudget::default().with_stop(stop);
        let n = pos.perft_fast_within(depth, &mut budget);
        let ms = now_ms() - t;
        match n {
            Some(n) => say(
                out,
                &format!(
                    "info string perft {depth} {n} time {} nps {}",
                    ms.round() as u64,
                    (n as f64 * 1000.0 / ms.max(0.001)) as u64
                ),
            ),
            None => say(
                out,
                &format!(
                    "info string perft {depth} stopped after {} ms ({} leaves counted)",
                    ms.round() as u64,
                    budget.leaves()
                ),
            ),
        }
        return;
    }
    let best = if pos.turn() == Turn::Terminal {
        error(out, "the game is over: there is no move to search");
        None
    } else {
        // This thread's searches use the game's table; it goes back when the search ends.
        let kept = table.0.lock().ok().and_then(|mut t| t.take());
        if let Some(t) = kept {
            t.give_back();
        }
        let best = iterate(pos, eval, base, limits, keep, stop, out);
        if let Ok(mut t) = table.0.lock() {
            *t = Table::take_spare(base.tt_bits);
        }
        best
    };
    if limits.infinite {
        while !stop.load(Ordering::Relaxed) {
            thread::sleep(std::time::Duration::from_millis(2));
        }
    }
    let text = best.map_or_else(|| "0000".to_string(), |m| pos.format_move(m));
    say(out, &format!("bestmove {text}"));
}

fn iterate(
    pos: &Ataxx,
    eval: AtaxxEval,
    base: &SearchConfig,
    limits: &Limits,
    keep: bool,
    stop: &AtomicBool,
    out: &Output,
) -> Option<AtaxxMove> {
    let cfg = SearchConfig {
        depth: limits.depth.unwrap_or(64),
        time_ms: limits.time_for(pos.side_to_move()),
        node_budget: limits.nodes,
        // A fixed time a move is used to its end (time saved is not kept); with a clock the
        // search stops once the next depth is predicted not to fit, saving the clock.
        whole_budget: limits.movetime.is_some(),
        iterative_deepening: true,
        move_ordering: true,
        random_ties: false,
        seed: Some(1),
        ..base.clone()
    };
    let mut info = |c: &Completed| {
        let ms = c.elapsed_ms.max(0.0);
        say(
            out,
            &format!(
                "info depth {} score {} nodes {} time {} nps {} pv {}",
                c.depth,
                score_text(c.value),
                c.nodes,
                ms.round() as u64,
                (c.nodes as f64 * 1000.0 / ms.max(0.001)) as u64,
                c.pv.join(" ")
            ),
        );
    };
    let hooks = Hooks {
        stop: Some(stop),
        completed: Some(&mut info),
        keep_table: keep,
        ..Default::default()
    };
    match search(pos, &eval, &cfg, hooks) {
        Ok(r) => r.best,
        Err(e) => {
            error(out, &e.to_string());
            None
        }
    }
}

/// The UAI engine's state between commands: the position and the evaluator.
#[derive(Debug, Clone)]
pub struct Uai {
    pos: Ataxx,
    eval: AtaxxEval,
    /// The search switches and table size set by `setoption`.
    base: SearchConfig,
    /// The transposition table, kept from one `go` to the next.
    table: KeptTable,
    /// Whether the next search keeps the table's entries (false after `uainewgame`).
    keep: bool,
}

/// The `setoption` switches: the option's name and the search setting it turns on or off.
const SWITCHES: [(&str, fn(&mut SearchConfig) -> &mut bool); 10] = [
    ("PVS", |c| &mut c.pvs),
    ("Aspiration", |c| &mut c.aspiration),
    ("Killers", |c| &mut c.killers),
    ("History", |c| &mut c.history),
    ("HistoryMalus", |c| &mut c.history_malus),
    ("LMR", |c| &mut c.lmr),
    ("LMPAll", |c| &mut c.late_move_pruning_all_depths),
    ("IIR", |c| &mut c.internal_reduction),
    ("Singular", |c| &mut c.singular_extensions),
    ("Futility", |c| &mut c.futility),
];

/// Bytes of one transposition-table entry, to turn `Hash` megabytes into a table size.
const TT_ENTRY_BYTES: u64 = 32;

/// The table size (log2 of its entries) that fits in `mb` megabytes, within 10 to 26.
fn tt_bits_for(mb: u64) -> u32 {
    let entries = (mb.max(1) << 20) / TT_ENTRY_BYTES;
    (63 - entries.leading_zeros()).clamp(10, 26)
}

impl Default for Uai {
    fn default() -> Self {
        Uai {
            pos: Ataxx::new(),
            eval: AtaxxEval::default(),
            base: SearchConfig {
                tt_bits: tt_bits_for(16),
                ..crate::games::search_defaults(<Ataxx as crate::games::Playable>::INFO.id)
            },
            table: KeptTable::default(),
            keep: false,
        }
    }
}

impl Uai {
    /// The current position.
    pub fn position(&self) -> &Ataxx {
        &self.pos
    }

    fn no_more(out: &Output, cmd: &str, args: &[&str]) {
        if let Some(w) = extra_words(cmd, args) {
            warn(out, &w);
        }
    }
}

impl Protocol for Uai {
    fn disposition(&self, cmd: &str) -> Disposition {
        match cmd {
            "quit" => Disposition::Quit,
            "stop" | "position" | "go" | "uainewgame" | "setoption" => Disposition::StopFirst,
            // uai, isready, d and unknown words leave a search running.
            _ => Disposition::Now,
        }
    }

    fn handle(&mut self, words: &[&str], out: &Output) -> Option<Task> {
        let (&cmd, args) = words.split_first()?;
        match cmd {
            "uai" => {
                Self::no_more(out, cmd, args);
                say(out, &format!("id name {ENGINE_NAME}"));
                say(out, "id author the Plyscope authors");
                let vars: Vec<String> = eval::NAMES.iter().map(|n| format!(" var {n}")).collect();
                say(
                    out,
                    &format!(
                        "option name Evaluator type combo default {}{}",
                        eval::NAMES[0],
                        vars.concat()
                    ),
                );
                say(out, "option name Hash type spin default 16 min 1 max 2048");
                say(out, "option name Threads type spin default 1 min 1 max 64");
                let mut defaults = crate::games::search_defaults(<Ataxx as crate::games::Playable>::INFO.id);
                for (name, field) in SWITCHES {
                    let on = *field(&mut defaults);
                    say(out, &format!("option name {name} type check default {on}"));
                }
                say(out, "uaiok");
            }
            "isready" => {
                Self::no_more(out, cmd, args);
                say(out, "readyok");
            }
            "quit" | "stop" => Self::no_more(out, cmd, args),
            "uainewgame" => {
                Self::no_more(out, cmd, args);
                self.pos = Ataxx::new();
                self.keep = false;
            }
            "position" => match parse_position(args) {
                Ok(p) => self.pos = p,
                Err(e) => error(out, &e),
            },
            "setoption" => match args {
                ["name", name, "value", value] if name.eq_ignore_ascii_case("evaluator") => {
                    match AtaxxEval::by_name(value) {
                        Ok(e) => self.eval = e,
                        Err(e) => error(out, &e.to_string()),
                    }
                }
                ["name", name, "value", value] if name.eq_ignore_ascii_case("hash") => {
                    match value.parse::<u64>() {
                        Ok(mb) if (1..=2048).contains(&mb) => self.base.tt_bits = tt_bits_for(mb),
                        _ => error(
                            out,
                            &format!(
                                "setoption Hash: expected megabytes from 1 to 2048, found {}",
                                shown(value)
                            ),
                        ),
                    }
                }
                ["name", name, "value", value] if name.eq_ignore_ascii_case("threads") => {
                    match value.parse::<u32>() {
                        Ok(n) if (1..=64).contains(&n) => self.base.threads = n,
                        _ => error(
                            out,
                            &format!(
                                "setoption Threads: expected a whole number from 1 to 64, found {}",
                                shown(value)
                            ),
                        ),
                    }
                }
                ["name", name, "value", value]
                    if SWITCHES.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) =>
                {
                    let (n, field) = SWITCHES
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case(name))
                        .expect("matched above");
                    match value.to_ascii_lowercase().as_str() {
                        "true" => *field(&mut self.base) = true,
                        "false" => *field(&mut self.base) = false,
                        _ => error(
                            out,
                            &format!(
                                "setoption {n}: expected true or false, found {}",
                                shown(value)
                            ),
                        ),
                    }
                }
                _ => error(
                    out,
                    &format!(
                        "setoption: expected \"setoption name <Evaluator|Hash|Threads|PVS|Aspiration|Killers|History|HistoryMalus|LMR|LMPAll|IIR|Singular|Futility> value <value>\", found {}",
                        shown(&args.join(" "))
                    ),
                ),
            },
            "go" => match Limits::parse(args) {
                Ok(limits) => {
                    let (pos, eval, base) = (self.pos.clone(), self.eval, self.base.clone());
                    let (table, keep) = (self.table.clone(), self.keep);
                    self.keep = true;
                    return Some(Box::new(move |job: &Job| {
                        think(&pos, eval, &base, &limits, &table, keep, &job.stop, &job.out)
                    }));
                }
                Err(e) => error(out, &e),
            },
            "d" => {
                Self::no_more(out, cmd, args);
                say(out, &format!("info string fen {}", self.pos.position_text()));
            }
            _ => error(
                out,
                &format!(
                    "unknown command {} (expected uai, isready, uainewgame, setoption, position, go, stop, d or quit)",
                    shown(cmd)
                ),
            ),
        }
        None
    }
}

/// Runs a UAI session: reads commands from `input` until `quit` or its end, and answers on
/// `output` (see the module's documentation). Returns once any search has stopped.
pub fn run<R: Read + Send + 'static, W: Write + Send + 'static>(input: R, output: W) {
    driver::run(Uai::default(), input, output);
}
