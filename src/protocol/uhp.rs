//! UHP, the Universal Hive Protocol: Plyscope as a Hive engine for UHP viewers and tournament tools.
//!
//! Commands (one a line; every answer ends with a line `ok`):
//!
//! - `info` → `id Plyscope ...` and the capabilities `Mosquito;Ladybug;Pillbug`;
//! - `newgame [GameType | GameString]` → the new game's GameString (`Base` when nothing follows);
//! - `play MoveString` and `pass` → the GameString after the move;
//! - `validmoves` → the legal moves, `;`-separated (`pass` when it is the only one);
//! - `bestmove time hh:mm:ss` or `bestmove depth N` → the move chosen (not played);
//! - `undo [N]` → takes back N moves (1 when left out) and prints the GameString;
//! - `options` → every option as `Name;Type;Value;Default;...`; `options get Name`;
//!   `options set Name Value` (`Threads` sets the threads of a parallel search, 1 by default);
//! - `perft N` (an extension, as nokamute has) → a line `depth count milliseconds` for each depth
//!   from 1 to N, counted from the current position; it runs in the background like `bestmove`, and
//!   any command (`stop` included) ends it with a line `perft stopped at depth D after T ms (L
//!   leaves counted)`.
//!
//! Bad input gets `err <message>`, an illegal move `invalidmove <message>`, and the game is left as
//! it was. [`Uhp`] holds the engine's state and answers one command at a time; [`run`] reads the
//! commands from an input and writes the answers.

use crate::core::{now_ms, Game, PerftBudget, Rng, Turn};
use crate::games::hive::notation::{game_string, parse_game_type};
use crate::games::hive::HiveMove;
use crate::games::hive::{levels, opening, Hive, HiveEval};
use crate::protocol::driver::{self, Disposition, InputError, Job, Output, Protocol, Task};
use crate::search::tt::Table;
use crate::search::{search, Hooks, SearchConfig};
use std::io::{Read, Write};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// The engine's name as `info` gives it.
pub const ENGINE_ID: &str = concat!("id Plyscope v", env!("CARGO_PKG_VERSION"));
/// The expansions the engine plays.
pub const CAPABILITIES: &str = "Mosquito;Ladybug;Pillbug";
/// The longest `bestmove time` accepted, in seconds (a day).
pub const MAX_SECONDS: u64 = 24 * 3600;
/// The deepest `bestmove depth` accepted.
pub const MAX_DEPTH: u32 = 64;

/// What a command asks of whoever runs the engine.
#[derive(Debug)]
pub enum Reply {
    /// Lines to print now (`ok` not included).
    Lines(Vec<String>),
    /// A search to run (in the background if the runner can), whose move is printed, then `ok`;
    /// with the game's transposition table, and whether to keep its entries (see [`KeptTable`]).
    Search(Box<Hive>, SearchConfig, KeptTable, bool),
    /// Perft from this position to this depth (in the background if the runner can), a line per
    /// depth, then `ok`.
    Perft(Box<Hive>, u32),
}

/// The engine's options, as `options` lists them.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// A difficulty level from [`levels::LEVELS`], which sets the branching limit and quotient.
    pub level: &'static str,
    /// The evaluator's name.
    pub evaluator: &'static str,
    /// Keep only this many best pre-scored moves at each node (0: all).
    pub branching_limit: usize,
    /// The randomness quotient (0: always the best move; see docs/engine-options.md).
    pub randomness_quotient: u32,
    /// Seed of the random choices (0: a fresh seed every search).
    pub seed: u64,
    /// Threads searching at once (1 to 64; above 1, Lazy SMP: docs/engine-options.md).
    pub threads: u32,
}

impl Default for Options {
    fn default() -> Self {
        let l = levels::by_name(levels::UHP_DEFAULT).expect("the default level exists");
        Options {
            level: l.name,
            evaluator: "strong",
            branching_limit: l.branching_limit,
            randomness_quotient: 0,
            seed: 0,
            threads: 1,
        }
    }
}

/// The transposition table the engine keeps between its searches (each `bestmove` runs on a
/// thread of its own): the moves of one game share it, so a search starts with what the searches
/// of the earlier moves found (their best moves order this one's, their values answer positions
/// seen again). `newgame` and a change of options start from an empty table.
#[derive(Clone, Default)]
pub struct KeptTable(Arc<Mutex<Option<Table<HiveMove>>>>);

impl std::fmt::Debug for KeptTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeptTable")
    }
}

impl KeptTable {
    /// Whether a search has left its table here.
    pub fn is_filled(&self) -> bool {
        self.0.lock().map(|t| t.is_some()).unwrap_or(false)
    }
}

/// The UHP engine's state: the game (with its earlier positions for `undo`) and the options.
#[derive(Debug, Default)]
pub struct Uhp {
    game: Option<Hive>,
    past: Vec<Hive>,
    /// The table of this game's searches.
    table: KeptTable,
    /// Whether the next search keeps the table's entries (false after `newgame`).
    keep: bool,
    /// The options.
    pub options: Options,
}

fn err(msg: impl std::fmt::Display) -> Reply {
    Reply::Lines(vec![format!("err {msg}")])
}

fn lines(v: Vec<String>) -> Reply {
    Reply::Lines(v)
}

/// Reads `hh:mm:ss` into seconds.
pub fn parse_clock(text: &str) -> Option<u64> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != 3 {
        return None;
    }
    let mut secs = 0u64;
    for (i, p) in parts.iter().enumerate() {
        if p.is_empty() || p.len() > 2 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v: u64 = p.parse().ok()?;
        if i > 0 && v >= 60 {
            return None;
        }
        secs = secs * 60 + v;
    }
    Some(secs)
}

impl Uhp {
    /// A fresh engine with no game.
    pub fn new() -> Uhp {
        Uhp::default()
    }

    /// The game in progress.
    pub fn game(&self) -> Option<&Hive> {
        self.game.as_ref()
    }

    /// Answers the command `line` (without its end of line).
    pub fn handle(&mut self, line: &str) -> Reply {
        let line = line.trim();
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match cmd {
            "info" => lines(vec![ENGINE_ID.to_string(), CAPABILITIES.to_string()]),
            "newgame" => self.newgame(rest),
            "play" => self.play(rest),
            "pass" => {
                if !rest.is_empty() {
                    return err("pass takes nothing after it");
                }
                self.play("pass")
            }
            "validmoves" => self.validmoves(),
            "bestmove" => self.bestmove(rest),
            "undo" => self.undo(rest),
            "options" => self.options(rest),
            "perft" => self.perft(rest),
            "" => err("empty command: expected info, newgame, play, pass, validmoves, bestmove, undo, options or perft"),
            other => err(format!(
                "unknown command {}: expected info, newgame, play, pass, validmoves, bestmove, undo, options or perft",
                shown(other)
            )),
        }
    }

    fn newgame(&mut self, rest: &str) -> Reply {
        let text = if rest.is_empty() { "Base" } else { rest };
        if !text.contains(';') && parse_game_type(text).is_none() {
            return err(format!(
                "unknown game type {:?}: expected Base, or Base+ followed by M, L, P (Base+MLP)",
                shown(text)
            ));
        }
        match Hive::from_position_text("hive", text) {
            Ok(h) => {
                let s = game_string(&h);
                self.game = Some(h);
                self.past.clear();
                self.keep = false;
                lines(vec![s])
            }
            Err(e) => err(e),
        }
    }

    fn current(&self) -> Result<&Hive, Reply> {
        self.game
            .as_ref()
            .ok_or_else(|| err("no game in progress: send newgame first"))
    }

    fn play(&mut self, text: &str) -> Reply {
        let h = match self.current() {
            Ok(h) => h,
            Err(r) => return r,
        };
        if text.is_empty() {
            return err("play needs a move, e.g. play wS1 or play bG1 -wS1");
        }
        if h.turn() == Turn::Terminal {
            return Reply::Lines(vec![format!(
                "invalidmove the game is over ({})",
                opening_state(h)
            )]);
        }
        let m = match h.parse_move(text) {
            Ok(m) => m,
            Err(e) => return Reply::Lines(vec![format!("invalidmove {e}")]),
        };
        let mut next = h.clone();
        if let Err(e) = next.play(m) {
            return Reply::Lines(vec![format!("invalidmove {e}")]);
        }
        let s = game_string(&next);
        let prev = std::mem::replace(self.game.as_mut().expect("checked above"), next);
        self.past.push(prev);
        lines(vec![s])
    }

    fn validmoves(&self) -> Reply {
        let h = match self.current() {
            Ok(h) => h,
            Err(r) => return r,
        };
        let mut moves = Vec::new();
        h.legal_moves(&mut moves);
        let texts: Vec<String> = moves.iter().map(|&m| h.format_move(m)).collect();
        lines(vec![texts.join(";")])
    }

    /// The search configuration for the current options and a limit.
    pub fn config(&self, depth: Option<u32>, time_ms: Option<u64>) -> SearchConfig {
        let level = levels::by_name(self.options.level).expect("levels are checked when set");
        let mut cfg = level.config();
        cfg.evaluator = self.options.evaluator.to_string();
        cfg.branching_limit = self.options.branching_limit;
        cfg.randomness_quotient = self.options.randomness_quotient;
        cfg.random_ties = self.options.randomness_quotient > 1;
        cfg.seed = if self.options.seed == 0 {
            None
        } else {
            Some(self.options.seed)
        };
        cfg.iterative_deepening = true;
        cfg.threads = self.options.threads;
        match (depth, time_ms) {
            (Some(d), _) => {
                cfg.depth = d;
                cfg.time_ms = None;
            }
            (None, Some(t)) => {
                cfg.depth = MAX_DEPTH;
                cfg.time_ms = Some(t);
            }
            (None, None) => {}
        }
        cfg
    }

    fn bestmove(&mut self, rest: &str) -> Reply {
        let h = match self.current() {
            Ok(h) => h,
            Err(r) => return r,
        };
        if h.turn() == Turn::Terminal {
            return err("the game is over: no move to find");
        }
        let words: Vec<&str> = rest.split_whitespace().collect();
        let cfg = match words.as_slice() {
            ["time", t] => match parse_clock(t) {
                Some(s) if s > 0 && s <= MAX_SECONDS => {
                    // Keep a little of the time for answering.
                    let ms = (s * 1000).saturating_sub((s * 1000 / 20).min(200));
                    self.config(None, Some(ms))
                }
                _ => {
                    return err(format!(
                        "bad time {:?}: expected hh:mm:ss, more than zero, at most 24:00:00",
                        shown(t)
                    ))
                }
            },
            ["depth", d] => match d.parse::<u32>() {
                Ok(n) if (1..=MAX_DEPTH).contains(&n) => self.config(Some(n), None),
                _ => {
                    return err(format!(
                        "bad depth {:?}: expected a whole number from 1 to {MAX_DEPTH}",
                        shown(d)
                    ))
                }
            },
            _ => return err("bestmove needs a limit: bestmove time hh:mm:ss or bestmove depth N"),
        };
        let pos = Box::new(h.clone());
        let keep = std::mem::replace(&mut self.keep, true);
        Reply::Search(pos, cfg, self.table.clone(), keep)
    }

    fn perft(&self, rest: &str) -> Reply {
        let h = match self.current() {
            Ok(h) => h,
            Err(r) => return r,
        };
        match rest.parse::<u32>() {
            Ok(n) if (1..=MAX_DEPTH).contains(&n) => Reply::Perft(Box::new(h.clone()), n),
            _ => err(format!(
                "bad perft depth {:?}: expected a whole number from 1 to {MAX_DEPTH}",
                shown(rest)
            )),
        }
    }

    fn undo(&mut self, rest: &str) -> Reply {
        if let Err(r) = self.current() {
            return r;
        }
        let n = if rest.is_empty() {
            1
        } else {
            match rest.parse::<usize>() {
                Ok(n) if n >= 1 => n,
                _ => {
                    return err(format!(
                        "bad undo count {:?}: expected a whole number, at least 1",
                        shown(rest)
                    ))
                }
            }
        };
        if n > self.past.len() {
            return err(format!("cannot undo {n} moves: {} played", self.past.len()));
        }
        let keep = self.past.len() - n;
        let back = self.past[keep].clone();
        self.past.truncate(keep);
        let s = game_string(&back);
        self.game = Some(back);
        lines(vec![s])
    }

    fn option_lines(&self) -> Vec<String> {
        let o = &self.options;
        let d = Options::default();
        let level_names: Vec<&str> = levels::LEVELS.iter().map(|l| l.name).collect();
        vec![
            format!(
                "Level;enum;{};{};{}",
                o.level,
                d.level,
                level_names.join(";")
            ),
            format!(
                "Evaluator;enum;{};{};{}",
                o.evaluator,
                d.evaluator,
                crate::games::hive::eval::NAMES.join(";")
            ),
            format!(
                "BranchingLimit;int;{};{};0;500",
                o.branching_limit, d.branching_limit
            ),
            format!(
                "RandomnessQuotient;int;{};{};0;1000",
                o.randomness_quotient, d.randomness_quotient
            ),
            format!("Seed;int;{};{};0;2147483647", o.seed, d.seed),
            format!("Threads;int;{};{};1;64", o.threads, d.threads),
        ]
    }

    fn options(&mut self, rest: &str) -> Reply {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let all = self.option_lines();
        match words.as_slice() {
            [] => lines(all),
            ["get", name] => match all.iter().find(|l| l.split(';').next() == Some(name)) {
                Some(l) => lines(vec![l.clone()]),
                None => err(format!("unknown option {:?}: expected Level, Evaluator, BranchingLimit, RandomnessQuotient, Seed or Threads", shown(name))),
            },
            ["set", name, value] => {
                // Other settings value positions otherwise: the next search starts afresh.
                self.keep = false;
                let bad = |expected: &str| {
                    err(format!(
                        "bad value {:?} for {name}: expected {expected}",
                        shown(value)
                    ))
                };
                match *name {
                    "Level" => match levels::by_name(value) {
                        Some(l) => {
                            self.options.level = l.name;
                            self.options.branching_limit = l.branching_limit;
                        }
                        None => return bad("a level name"),
                    },
                    "Evaluator" => match HiveEval::by_name(value) {
                        Ok(_) => {
                            self.options.evaluator = crate::games::hive::eval::NAMES
                                .iter()
                                .find(|n| **n == *value)
                                .copied()
                                .unwrap_or("strong");
                        }
                        Err(_) => return bad("strong or queens"),
                    },
                    "BranchingLimit" => match value.parse::<usize>() {
                        Ok(v) if v <= 500 => self.options.branching_limit = v,
                        _ => return bad("a whole number from 0 to 500"),
                    },
                    "RandomnessQuotient" => match value.parse::<u32>() {
                        Ok(v) if v <= 1000 => self.options.randomness_quotient = v,
                        _ => return bad("a whole number from 0 to 1000"),
                    },
                    "Seed" => match value.parse::<u64>() {
                        Ok(v) if v <= i32::MAX as u64 => self.options.seed = v,
                        _ => return bad("a whole number from 0 to 2147483647"),
                    },
                    "Threads" => match value.parse::<u32>() {
                        Ok(v) if (1..=64).contains(&v) => self.options.threads = v,
                        _ => return bad("a whole number of threads from 1 to 64"),
                    },
                    _ => return err(format!("unknown option {:?}", shown(name))),
                }
                let l = self.option_lines();
                lines(l.into_iter().filter(|l| l.split(';').next() == Some(*name)).collect())
            }
            _ => err("expected options, options get Name or options set Name Value"),
        }
    }
}

fn opening_state(h: &Hive) -> &'static str {
    crate::games::hive::notation::game_state(h)
}

/// Finds the move for a `bestmove` (a book move in the first two turns when randomness is on,
/// else a search, stopped early when `stop` is raised) and writes it. The search uses `table`'s
/// transposition table (and leaves it there), with the entries of the last search when `keep`.
pub fn best_move(
    pos: &Hive,
    cfg: &SearchConfig,
    stop: Option<&AtomicBool>,
    table: &KeptTable,
    keep: bool,
) -> Result<String, String> {
    let mut rng = cfg.seed.map(Rng::seeded).unwrap_or_else(Rng::from_entropy);
    if cfg.randomness_quotient > 1 {
        if let Some(m) = opening::book_move(pos, &mut rng) {
            return Ok(pos.format_move(m));
        }
    }
    let mut cfg = cfg.clone();
    cfg.randomness_quotient = opening::quotient(pos, cfg.randomness_quotient);
    let eval = HiveEval::by_name(&cfg.evaluator).map_err(|e| e.to_string())?;
    let hooks = Hooks {
        stop,
        keep_table: keep,
        ..Hooks::default()
    };
    // This thread's search takes the game's table (a thread's spare table is what the search
    // uses); it goes back when the search ends.
    if let Some(t) = table.0.lock().ok().and_then(|mut t| t.take()) {
        t.give_back();
    }
    let r = search(pos, &eval, &cfg, hooks);
    if let Ok(mut t) = table.0.lock() {
        *t = Table::take_spare(cfg.tt_bits);
    }
    let r = r.map_err(|e| e.to_string())?;
    match r.best {
        Some(m) => Ok(pos.format_move(m)),
        None => Err("no move to play".to_string()),
    }
}

/// The answer to `perft depth`: a line `d count ms` for each depth from 1, or, once `stop` is
/// raised, a line saying where it stopped (the fast perft looks at the flag every few thousand
/// leaves, so the answer comes within milliseconds).
pub fn perft_lines(pos: &Hive, depth: u32, stop: Option<&AtomicBool>) -> Vec<String> {
    let mut budget = PerftBudget::default();
    if let Some(s) = stop {
        budget = budget.with_stop(s);
    }
    let start = now_ms();
    let mut out = Vec::new();
    for d in 1..=depth {
        let t = now_ms();
        match pos.clone().perft_fast_within(d, &mut budget) {
            Some(n) => out.push(format!("{d} {n} {}", (now_ms() - t).round() as u64)),
            None => {
                out.push(format!(
                    "perft stopped at depth {d} after {} ms ({} leaves counted)",
                    (now_ms() - start).round() as u64,
                    budget.leaves()
                ));
                break;
            }
        }
    }
    out
}

impl Protocol for Uhp {
    fn greet(&mut self, out: &Output) {
        out.line(ENGINE_ID);
        out.line(CAPABILITIES);
        out.line("ok");
    }

    fn disposition(&self, cmd: &str) -> Disposition {
        match cmd {
            "exit" | "quit" => Disposition::Quit,
            // `info` is answered while a search runs; any other command stops it first (the
            // stopped search still prints its move and `ok`), `stop` included.
            "info" => Disposition::Now,
            _ => Disposition::StopFirst,
        }
    }

    fn handle(&mut self, words: &[&str], out: &Output) -> Option<Task> {
        if matches!(words.first(), Some(&"exit" | &"quit")) {
            return None;
        }
        if words == ["stop"] {
            // Nothing to answer: a running search has just ended and answered.
            return None;
        }
        match Uhp::handle(self, &words.join(" ")) {
            Reply::Lines(ls) => {
                for l in ls {
                    out.line(&l);
                }
                out.line("ok");
                None
            }
            Reply::Search(pos, cfg, table, keep) => Some(Box::new(move |job: &Job| {
                match best_move(&pos, &cfg, Some(&job.stop), &table, keep) {
                    Ok(m) => job.out.line(&m),
                    Err(e) => job.out.line(&format!("err {e}")),
                }
                job.out.line("ok");
            })),
            Reply::Perft(pos, depth) => Some(Box::new(move |job: &Job| {
                for line in perft_lines(&pos, depth, Some(&job.stop)) {
                    job.out.line(&line);
                }
                job.out.line("ok");
            })),
        }
    }

    fn input_error(&mut self, error: &InputError, out: &Output) {
        out.line(&format!("err {error}"));
        out.line("ok");
    }
}

/// Runs the engine on the shared [`driver`]: reads commands from `input` until
/// `exit` or its end, answers on `output`. A `bestmove` search runs while the input is read: `info`
/// is answered at once, and any other command (`stop` included), `exit` and the end of the input
/// stop the search first (it still answers with its move and `ok`).
pub fn run<R: Read + Send + 'static, W: Write + Send + 'static>(input: R, output: W) {
    driver::run(Uhp::new(), input, output);
}

/// At most the first 60 characters of `text`, so that a huge input is never echoed whole.
fn shown(text: &str) -> String {
    text.chars().take(60).collect()
}
