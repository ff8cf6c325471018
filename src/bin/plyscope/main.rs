//! `plyscope`: the engine on the command line (perft, search with tree output, benchmarks, protocols).
//!
//! Run `plyscope help` for the commands. Bad arguments print a message and exit with status 2.

mod datagen_ataxx;
mod threes_bench;
mod train_ataxx;
mod train_options;
mod train_reversi;

use plyscope::core::Error;
use plyscope::core::{now_ms, shown, PerftBudget};
use plyscope::games::CATALOGUE;
use plyscope::search::{Algorithm, Hooks, SearchConfig};
use plyscope::session::{new_session, AnySession};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// Standard output for the CLI's results. When the reader has gone (`plyscope perft ... | head -1`)
/// the process ends quietly with status 0, as Unix tools do, instead of panicking; another write
/// error ends it with a message and status 1.
struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match std::io::stdout().write(buf) {
            Ok(n) => Ok(n),
            Err(e) => quit_on(e),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match std::io::stdout().flush() {
            Ok(()) => Ok(()),
            Err(e) => quit_on(e),
        }
    }
}

/// Ends the process after a failed write to standard output.
fn quit_on(e: std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("plyscope: cannot write the output: {e}");
    std::process::exit(1);
}

/// `println!` to [`Stdout`]: a closed pipe ends the process quietly.
macro_rules! outln {
    ($($arg:tt)*) => {{
        let mut o = Stdout;
        if let Err(e) = writeln!(o, $($arg)*) {
            quit_on(e);
        }
    }};
}

/// `print!` to [`Stdout`].
macro_rules! out {
    ($($arg:tt)*) => {{
        let mut o = Stdout;
        if let Err(e) = write!(o, $($arg)*).and_then(|_| o.flush()) {
            quit_on(e);
        }
    }};
}

const USAGE: &str = "\
plyscope: board-game engines with explainable search

USAGE:
  plyscope games
      List the game ids.
  plyscope perft <game> <depth> [--position TEXT] [--time-ms T] [--nodes N] [--json]
      Count the move tree's leaves at every depth up to <depth>, with time and leaves per second.
      --time-ms T and --nodes N bound the whole run (milliseconds, leaves counted); a depth the
      budget cuts short says so instead of giving a count.
      --json prints one object per line: {\"game\",\"depth\",\"nodes\",\"ms\"} (or
      {\"game\",\"depth\",\"stopped\",\"ms\",\"leaves_counted\"} for a depth cut short).
  plyscope search <game> [options]
      Search a position and print the best move, value, principal variation and statistics.
        --position TEXT     start from this position text (default: the start position)
        --moves \"M M ...\"   then play these moves
        --algo A            random | greedy | minimax | alphabeta | expectimax | mcts (default alphabeta)
        --depth N           depth limit in plies (default 4)
        --time-ms T         time budget, at least 1 (iterative deepening; the depth stays a cap)
        --nodes N           node budget (at least 1)
        --eval NAME         evaluator (default: the game's own default)
        --quotient Q        randomness quotient (0: always the best move)
        --branching N       keep only the best N moves of each node by pre-score
        --tt, --no-tt       use the transposition table, or not (default: on for alpha-beta)
        --tt-bits B         the table holds 2^B entries (10 to 26, default 18)
        --tt-min-depth D    use the table only at nodes with D plies or more left (1 to 8,
                            default 1)
        --threads N         search with N threads (1 to 64, default 1): Lazy SMP, helper threads
                            sharing the table (alpha-beta and minimax; docs/engine-options.md)
        --no-defer          with --threads: a thread does not put off the moves another thread
                            is searching (ABDADA's deferral, on by default)
        --plain             the textbook alpha-beta: every technique below off, and no table
        --no-pvs, --no-aspiration, --no-killers, --no-history, --no-lmr, --no-null-move,
        --no-lmp, --no-futility
                            turn one technique off (--pvs ... turn it on after --plain); see
                            docs/engine-options.md
        --aspiration-window W  the aspiration window's half-width (0: automatic)
        --quiescence N      plies of quiescence extension at unstable positions (default 4)
        --iir               internal iterative reduction (off by default; docs/engine-options.md)
        --history-malus, --no-history-malus
                            moves searched before a cut-off lose history score (on in Ataxx,
                            off elsewhere; docs/engine-options.md)
        --lmp-all           late-move pruning at every depth (off by default; docs/engine-options.md)
        --singular, --no-singular
                            singular extensions (on in Ataxx, off elsewhere; docs/engine-options.md)
        --no-ordering       do not order moves by pre-score
        --no-steps          expectimax under a budget: no probability steps (docs/engine-options.md)
        --seed S            seed for random choices
        --iterations N      mcts: iteration (playout) budget (default 10000 when no other budget)
        --exploration C     mcts: the UCT exploration constant (default 1.4)
        --playout P         mcts: random (to the end) or heuristic (default: random plies, then
                            the evaluator)
        --playout-plies N   mcts: random plies of a heuristic playout (default 6)
        --no-priors         mcts: plain UCB1 instead of priors from the pre-scores (PUCT)
        --no-solver         mcts: no proofs (the solver proves wins and losses and plays a proven win)
        --tree FILE         write the search tree document (JSON) to FILE (- for standard output);
                            FILE is opened before the search, so a bad path fails at once
        --tree-format F     v2 (compact, the default) or v1 (nested; docs/tree-format.md)
        --tree-max-mb N     budget for the tree in MB, in memory and written (default 256)
        --node-cap N        cap on recorded tree nodes (default 200000); a capped tree keeps every
                            root move, the principal variations, then whole levels from the top
        --exact N           solve exactly (8x8 Reversi's endgame solver) from N empty squares
                            (default 20; 0: never); the value is then the final disc margin
        --json              print the result as JSON
  plyscope state <game> [--position TEXT] [--moves \"M M ...\"] [--json]
      Play the moves (each checked; an illegal one fails with its number and the reason) and print
      the position text, the side to move, the result once the game is over, the legal moves and
      the moves played as the engine writes them. Match scripts use it as the arbiter.
  plyscope match <game> [--a JSON] [--b JSON] [--games N] [--random-plies K] [--seed S]
                 [--max-plies M]
      Play N games (default 20) between two search settings (JSON objects of search options, as
      the page sends; default {}: the defaults), colours alternated, each pair of games from the
      same opening of K random moves (default 4, seeded by S). Prints each game and A's score,
      with nodes and milliseconds a move for each side and the load average.
  plyscope bench [--quick] [--parallel] [--threads N] [--runs R]
      Fixed benchmarks: perft speed, search speed with and without tree recording, MCTS
      iterations a second in every game, and the parallel search's time to a fixed depth in
      Reversi and Ataxx with 1, 2 and N threads (default: the cores seen, at least 4), best of R
      interleaved runs (default 3). --parallel runs only that last part.
  plyscope threes-bench [--games N] [--seed S] [--time-ms T] [--depth D] [--jobs J] [--no-steps]
      Play N seeded Threes games (seeds S, S+1, ...) with expectimax at T ms a move (or to depth D,
      default 4) and print low, median and high score, the share reaching 384 ... 6144, time a move.
      --jobs J plays J games at once, one thread each (keep J at most the number of cores).
      --no-steps turns probability steps off (plain iterative deepening under the budget).
  plyscope mcts-match <game> [--games N] [--time-ms T] [--seed S] [--opening K] [--max-plies P]
      MCTS against alpha-beta (expectimax in games with chance) at T ms a move (default 100),
      in pairs of games that open with the same K random plies (default 2), colours swapped; a
      game still going after P plies (default 400) counts as a draw. In a single-player game (Threes) both play the same
      deals and their scores are compared. Prints each game, the tally and the load average.
  plyscope solve --position TEXT [--each] [--nodes N] [--window LO,HI] [--guess G] [--json] [--no-stability] [--no-aspiration]
      Solve an 8x8 Reversi position exactly (the endgame solver, docs/reversi.md): the final disc
      margin of the side to move under perfect play (empties to the winner) and a best move.
      --each gives every legal move's exact margin; --nodes N stops after N positions; --window
      LO,HI solves within that window of margins (a bound when the value lies outside); --guess G
      starts the aspiration window at margin G instead of the solver's own estimate.
  plyscope train-reversi --out FILE [--games N] [--seed S] [--random-min K] [--random-max K]
                         [--epsilon X] [--play-depth D] [--exact E] [--label-depth D]
                         [--epochs N] [--shrink X]
      Train the 8x8 `patterns` evaluator (docs/reversi.md): N self-play games from K random
      plies, exact labels at E empties or fewer, search labels above, a least-squares fit per
      phase, last phase first. Deterministic from S. Writes the weights file FILE.
  plyscope train-ataxx --out FILE [--games N] [--seed S] [--random-min K] [--random-max K]
                       [--epsilon X] [--depth D] [--eval NAME] [--final-share X] [--epochs N]
                       [--shrink X] [--samples F1,F2..] [--save-samples F]
                       [--model patterns|net] [--hidden H] [--batch B] [--lr X] [--sigmoid K]
      Train the Ataxx `patterns` evaluator (docs/ataxx.md): N self-play games on the open board
      from K random plies, each position labelled by the mean of a depth D-1 and D search with
      `strong` or NAME (blended with the final margin by X), a least-squares fit per phase.
      --save-samples writes the labelled positions to F; --samples reads them from files instead
      of playing. --model net fits the `net` evaluator instead (H hidden units, default 32; N
      epochs of Adam, default 30, minibatches of B, step X; --sigmoid K fits the labels as
      expected results, a margin of K pieces being 73 %, instead of in pieces). Deterministic
      from S. Writes the weights file FILE.
  plyscope train-ataxx --model nnue --data F1,F2.. --out FILE [--hidden H] [--buckets 1|7]
                       [--epochs N] [--batch B] [--lr X] [--wdl X] [--scale S]
                       [--held-out X] [--seed S] [--threads T] [--init FILE]
                       [--teacher FILE]
      Fit the `nnue` evaluator to `datagen-ataxx` files: H hidden units (a multiple of 16,
      default 128), 1 output or 7 (one per phase), N epochs of Adam (20) over minibatches of B
      (16384) with a cosine step from X (0.001); the target is the game's result times the
      share X (0.5) and the search's value through a sigmoid of S hundredths of a piece a logit
      (200) for the rest; a share X (0.02) held out; T threads (2). --init FILE starts from
      that weights file (its shape and scale) instead of random weights; with --hidden above
      its units it is widened first (new units that weigh nothing in the output yet).
      --teacher FILE puts that network's values in place of the search's (proved results
      kept), so the fit learns them. Writes
      the weights FILE, read by a native build from PLYSCOPE_ATAXX_NNUE=FILE (docs/ataxx.md,
      The pipeline).
  plyscope train-ataxx --model nnue --data F1,F2.. --report N1,N2.. [--wdl X] [--scale S]
                       [--open-board]
      No fit: prints each `nnue` weights file's loss on the data (the target as above), over
      all positions and by phase of 7 empty cells; --open-board leaves out positions with walls.
  plyscope datagen-ataxx --out FILE [--games N] [--nodes N] [--seed S] [--threads T]
                         [--random-min K] [--random-max K] [--max-opening V] [--walls X]
                         [--eval NAME] [--append]
      Self-play data for the Ataxx `nnue` evaluator (docs/ataxx.md): N games (default 1000) of
      the engine against itself at N nodes a move (default 5000), from K random plies (6 to 14)
      kept when a search values them within V hundredths of a piece (300), a share X of them
      (0.2) on random wall layouts; every position searched is written with the search's value
      and the game's result. T threads (default 1) play their own games. --append adds to FILE.
  plyscope uai
      Play Ataxx over the UAI protocol on standard input and output (for match runners and GUIs).
  plyscope uhp
      Play Hive over the Universal Hive Protocol on standard input and output (UHP viewers such as
      MzingaViewer, tournament tools; see docs/hive.md).
  plyscope help
      This text.

Game ids: tictactoe, reversi (8x8), reversi-N (even N from 6 to 16), and every game in `plyscope games`.
";

/// A command-line error: printed with the usage hint, exit status 2.
struct Usage(String);

impl From<Error> for Usage {
    fn from(e: Error) -> Self {
        Usage(e.to_string())
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Usage(msg)) => {
            eprintln!("plyscope: {msg}");
            eprintln!("(run `plyscope help` for the commands and options)");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), Usage> {
    let Some(cmd) = args.first() else {
        out!("{USAGE}");
        return Ok(());
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "help" | "--help" | "-h" => {
            out!("{USAGE}");
            Ok(())
        }
        "games" => {
            for g in CATALOGUE {
                outln!("{:<12} {}", g.id, g.name);
                for (id, name) in g.variants {
                    outln!("{:<12} {}", id, name);
                }
            }
            Ok(())
        }
        "perft" => perft(rest),
        "search" => search(rest),
        "state" => state(rest),
        "bench" => bench(rest),
        "threes-bench" => threes_bench(rest),
        "mcts-match" => mcts_match(rest),
        "solve" => solve(rest),
        "match" => play_match(rest),
        "train-reversi" => train_reversi::run(rest),
        "train-ataxx" => train_ataxx::run(rest),
        "datagen-ataxx" => datagen_ataxx::run(rest),
        "uai" => {
            plyscope::protocol::uai::run(std::io::stdin(), std::io::stdout());
            Ok(())
        }
        "uhp" => {
            plyscope::protocol::uhp::run(std::io::stdin(), std::io::stdout());
            Ok(())
        }
        other => Err(Usage(format!(
            "unknown command {}: expected games, perft, search, state, solve, match, bench, threes-bench, mcts-match, train-reversi, train-ataxx, datagen-ataxx, uai, uhp or help",
            shown(other)
        ))),
    }
}

/// Options after the positional arguments: `--name value` pairs and `--flag`s.
struct Opts {
    pairs: Vec<(String, Option<String>)>,
}

impl Opts {
    fn parse(args: &[String], flags: &[&str], valued: &[&str]) -> Result<Opts, Usage> {
        let mut pairs = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            if flags.contains(&a.as_str()) {
                pairs.push((a.clone(), None));
                i += 1;
            } else if valued.contains(&a.as_str()) {
                let v = args
                    .get(i + 1)
                    .ok_or_else(|| Usage(format!("{a} needs a value")))?;
                pairs.push((a.clone(), Some(v.clone())));
                i += 2;
            } else {
                let mut known: Vec<&str> = flags.iter().chain(valued).copied().collect();
                known.sort();
                return Err(Usage(format!(
                    "unexpected argument {}: expected one of {}",
                    shown(a),
                    known.join(", ")
                )));
            }
        }
        Ok(Opts { pairs })
    }

    fn flag(&self, name: &str) -> bool {
        self.pairs.iter().any(|(n, _)| n == name)
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    fn number<T: std::str::FromStr>(&self, name: &str, what: &str) -> Result<Option<T>, Usage> {
        match self.value(name) {
            None => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| {
                Usage(format!(
                    "bad value {} for {name}: expected {what}",
                    shown(v)
                ))
            }),
        }
    }

    /// `number`, with `default` when the option is absent.
    fn number_or<T: std::str::FromStr>(
        &self,
        name: &str,
        what: &str,
        default: T,
    ) -> Result<T, Usage> {
        Ok(self.number(name, what)?.unwrap_or(default))
    }
}

/// Plays the moves of `--moves` (space-separated, may be absent) in `s`; an error names the move
/// by its number and says why it failed (the game already over, or the move's own error).
fn play_moves(s: &mut dyn AnySession, moves: Option<&str>) -> Result<(), Usage> {
    let list: Vec<&str> = moves.unwrap_or("").split_whitespace().collect();
    for (i, m) in list.iter().enumerate() {
        let at = format!("--moves: move {} of {} ({})", i + 1, list.len(), shown(m));
        if let Some(o) = s.outcome() {
            return Err(Usage(format!("{at}: the game is over ({o})")));
        }
        s.play(m).map_err(|e| Usage(format!("{at}: {e}")))?;
    }
    Ok(())
}

fn session_at(game: &str, position: Option<&str>) -> Result<Box<dyn AnySession>, Usage> {
    let mut s = new_session(game)?;
    if let Some(p) = position {
        s.set_position(p)?;
    }
    Ok(s)
}

/// `plyscope state`: the position after `--moves`, its result and its legal moves (the arbiter of
/// the hand-run match scripts).
fn state(args: &[String]) -> Result<(), Usage> {
    let game = game_arg(args, "state needs a game id")?;
    let opts = Opts::parse(&args[1..], &["--json"], &["--position", "--moves"])?;
    let mut s = session_at(game, opts.value("--position"))?;
    play_moves(s.as_mut(), opts.value("--moves"))?;
    let legal: Vec<String> = s.legal_moves().into_iter().map(|m| m.text).collect();
    let outcome = s.outcome();
    if opts.flag("--json") {
        outln!(
            "{}",
            serde_json::json!({
                "game": s.game_id(),
                "position": s.position_text(),
                "to_move": s.to_move(),
                "outcome": outcome,
                "legal": legal,
                "moves": s.history(),
            })
        );
    } else {
        outln!("position    {}", s.position_text());
        outln!("to move     {}", s.to_move());
        outln!(
            "outcome     {}",
            outcome.as_deref().unwrap_or("(game in progress)")
        );
        outln!("legal       {} {}", legal.len(), legal.join(" "));
        outln!("moves       {}", s.history().join(" "));
    }
    Ok(())
}

/// `plyscope solve`: the Reversi endgame solver on one position.
fn solve(args: &[String]) -> Result<(), Usage> {
    use plyscope::games::reversi::endgame::{square_name, Solver};
    use plyscope::games::reversi::Reversi;
    let opts = Opts::parse(
        args,
        &["--each", "--json", "--no-stability", "--no-aspiration"],
        &["--position", "--nodes", "--window", "--guess"],
    )?;
    let text = opts
        .value("--position")
        .ok_or_else(|| Usage("solve needs --position TEXT (an 8x8 Reversi position)".into()))?;
    let pos: Reversi = plyscope::core::Game::from_position_text("reversi", text)
        .map_err(|e| Usage(format!("bad position: {e}")))?;
    let (p, o) = pos
        .bitboards()
        .ok_or_else(|| Usage("the solver reads 8x8 positions only".into()))?;
    let nodes: Option<u64> = opts.number("--nodes", "a whole number of positions")?;
    if nodes == Some(0) {
        return Err(Usage("--nodes must be at least 1".into()));
    }
    let mut solver = Solver::new()
        .with_node_limit(nodes.unwrap_or(u64::MAX))
        .with_stability(!opts.flag("--no-stability"))
        .with_aspiration(!opts.flag("--no-aspiration"));
    let t = Instant::now();
    let json = opts.flag("--json");
    if opts.flag("--each") {
        let Some(each) = solver.solve_each(p, o) else {
            return Err(Usage(format!("stopped after {} positions", solver.nodes())));
        };
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        if json {
            let moves: Vec<serde_json::Value> = each
                .iter()
                .map(|&(x, v)| serde_json::json!({"move": square_name(x), "margin": v}))
                .collect();
            outln!(
                "{}",
                serde_json::json!({"moves": moves, "nodes": solver.nodes(), "ms": ms})
            );
        } else {
            for (x, v) in &each {
                outln!("{} {:+}", square_name(*x), v);
            }
            outln!("{} positions in {:.0} ms", solver.nodes(), ms);
        }
        return Ok(());
    }
    let window = match opts.value("--window") {
        None => None,
        Some(w) => Some(
            w.split_once(',')
                .and_then(|(a, b)| {
                    Some((a.trim().parse::<i32>().ok()?, b.trim().parse::<i32>().ok()?))
                })
                .filter(|&(a, b)| -65 <= a && a < b && b <= 65)
                .ok_or_else(|| {
                    Usage(format!(
                        "--window {w}: expected LO,HI with -65 <= LO < HI <= 65 (disc margins)"
                    ))
                })?,
        ),
    };
    let solved = match window {
        None => match opts.number::<i32>("--guess", "a disc margin from -64 to 64")? {
            Some(g) if (-64..=64).contains(&g) => solver.solve_around(p, o, g),
            Some(g) => {
                return Err(Usage(format!(
                    "--guess {g}: expected a disc margin from -64 to 64"
                )))
            }
            None => solver.solve(p, o),
        },
        Some((lo, hi)) => solver.solve_window(p, o, lo, hi),
    };
    let Some(s) = solved else {
        return Err(Usage(format!("stopped after {} positions", solver.nodes())));
    };
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    let best = s.best.map(square_name).unwrap_or_else(|| "pass".into());
    if json {
        outln!(
            "{}",
            serde_json::json!({"move": best, "margin": s.margin, "nodes": s.nodes, "ms": ms})
        );
    } else {
        outln!(
            "{best} {:+} ({} positions in {:.0} ms, {:.1} M/s)",
            s.margin,
            s.nodes,
            ms,
            s.nodes as f64 / ms.max(0.001) / 1000.0
        );
    }
    Ok(())
}

fn perft(args: &[String]) -> Result<(), Usage> {
    let (game, depth) = match args {
        [g, d, ..] if !g.starts_with("--") && !d.starts_with("--") => (g, d),
        _ => {
            return Err(Usage(
                "perft needs a game and a depth: plyscope perft <game> <depth>".into(),
            ))
        }
    };
    let depth: u32 = depth
        .parse()
        .ok()
        .filter(|d| (1..=20).contains(d))
        .ok_or_else(|| {
            Usage(format!(
                "bad depth {}: expected a whole number from 1 to 20",
                shown(depth)
            ))
        })?;
    let opts = Opts::parse(
        &args[2..],
        &["--json"],
        &["--position", "--time-ms", "--nodes"],
    )?;
    let time_ms: Option<u64> = opts.number("--time-ms", "milliseconds")?;
    let leaves: Option<u64> = opts.number("--nodes", "a whole number of leaves")?;
    for (name, v) in [("--time-ms", time_ms), ("--nodes", leaves)] {
        if v == Some(0) {
            return Err(Usage(format!("{name} must be at least 1")));
        }
    }
    let s = session_at(game, opts.value("--position"))?;
    let json = opts.flag("--json");
    if !json {
        outln!(
            "{:>5} {:>16} {:>10} {:>14}",
            "depth",
            "nodes",
            "ms",
            "leaves/s"
        );
    }
    // One budget for the whole command: every depth counts against it.
    let start = now_ms();
    let mut budget = PerftBudget::default();
    if let Some(t) = time_ms {
        budget = budget.with_deadline_ms(start + t as f64);
    }
    if let Some(n) = leaves {
        budget = budget.with_max_leaves(n);
    }
    let bounded = time_ms.is_some() || leaves.is_some();
    for d in 1..=depth {
        let t = Instant::now();
        let n = if bounded {
            s.perft_within(d, &mut budget)
        } else {
            Some(s.perft(d))
        };
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        let Some(n) = n else {
            let why = match (time_ms, leaves) {
                (Some(t), _) if now_ms() - start >= t as f64 => format!("--time-ms {t}"),
                (_, Some(l)) => format!("--nodes {l}"),
                _ => "the budget".to_string(),
            };
            if json {
                outln!(
                    "{}",
                    serde_json::json!({"game": s.game_id(), "depth": d, "stopped": why,
                        "ms": (ms * 1000.0).round() / 1000.0, "leaves_counted": budget.leaves()})
                );
            } else {
                outln!(
                    "{:>5} stopped by {why} after {ms:.1} ms at this depth ({} leaves counted in all)",
                    d,
                    budget.leaves()
                );
            }
            break;
        };
        if json {
            outln!(
                "{}",
                serde_json::json!({"game": s.game_id(), "depth": d, "nodes": n, "ms": (ms * 1000.0).round() / 1000.0})
            );
        } else {
            outln!(
                "{:>5} {:>16} {:>10.1} {:>14.0}",
                d,
                n,
                ms,
                n as f64 / (ms / 1000.0).max(1e-9)
            );
        }
    }
    Ok(())
}

/// Per-side totals of a match.
#[derive(Default)]
struct Side {
    moves: u64,
    nodes: u64,
    ms: f64,
    /// The sum of the depths of the last completed iterations (0 for a move played from an
    /// unfinished first iteration or by another algorithm).
    depth: u64,
    /// The most time one move took.
    max_ms: f64,
}

/// A command's first argument, the game id (not an option), or the usage error `usage`.
fn game_arg<'a>(args: &'a [String], usage: &str) -> Result<&'a String, Usage> {
    match args.first() {
        Some(g) if !g.starts_with("--") => Ok(g),
        _ => Err(Usage(usage.into())),
    }
}

fn play_match(args: &[String]) -> Result<(), Usage> {
    let game = game_arg(args, "match needs a game: plyscope match <game> [options]")?;
    let opts = Opts::parse(
        &args[1..],
        &[],
        &[
            "--a",
            "--b",
            "--games",
            "--random-plies",
            "--seed",
            "--max-plies",
        ],
    )?;
    let cfg_a = plyscope::games::search_config(game, opts.value("--a").unwrap_or("{}"))?;
    let cfg_b = plyscope::games::search_config(game, opts.value("--b").unwrap_or("{}"))?;
    let games: usize = opts.number_or("--games", "a whole number", 20)?;
    let plies: usize = opts.number_or("--random-plies", "a whole number", 4)?;
    let seed: u64 = opts.number_or("--seed", "a whole number", 1)?;
    let max_plies: usize = opts.number_or("--max-plies", "a whole number", 400)?;
    let mut rng = plyscope::core::Rng::seeded(seed);
    let (mut win, mut draw, mut loss) = (0u32, 0u32, 0u32);
    let mut sides = [Side::default(), Side::default()];
    let mut opening: Vec<String> = Vec::new();
    let start = now_ms();
    for g in 0..games {
        let mut s = new_session(game)?;
        if g % 2 == 0 {
            // A new opening for each pair of games.
            opening.clear();
            for _ in 0..plies {
                if s.outcome().is_some() {
                    break;
                }
                let ms = s.legal_moves();
                if ms.is_empty() {
                    s.play_chance()?;
                    continue;
                }
                let m = ms[rng.below(ms.len() as u64) as usize].text.clone();
                s.play(&m)?;
                opening.push(m);
            }
        } else {
            for m in &opening {
                s.play(m)?;
            }
        }
        let players = s.players();
        // A plays the first player in even games, the second in odd ones.
        let a_name = players[g % 2].clone();
        let mut n = 0;
        while s.outcome().is_none() && n < max_plies {
            if s.legal_moves().is_empty() {
                s.play_chance()?;
                continue;
            }
            let a_moves = s.to_move() == a_name;
            let mut cfg = if a_moves {
                cfg_a.clone()
            } else {
                cfg_b.clone()
            };
            cfg.seed = Some(seed.wrapping_mul(1000).wrapping_add((g * 1000 + n) as u64));
            let r = s.search(&cfg, Hooks::default())?;
            let side = &mut sides[if a_moves { 0 } else { 1 }];
            side.moves += 1;
            side.nodes += r.stats.nodes;
            side.ms += r.stats.time_ms;
            side.max_ms = side.max_ms.max(r.stats.time_ms);
            side.depth += r.stats.depth_reached as u64;
            s.play(&r.mv)?;
            n += 1;
        }
        let outcome = s.outcome().unwrap_or_else(|| "unfinished (draw)".into());
        let result = if outcome == format!("{a_name} wins") {
            win += 1;
            "A wins"
        } else if outcome.ends_with(" wins") {
            loss += 1;
            "B wins"
        } else {
            draw += 1;
            "draw"
        };
        outln!(
            "game {:>3}: A plays {:<6} opening {:<24} {:<8} ({outcome}, {} plies)",
            g + 1,
            a_name,
            opening.join(" "),
            result,
            s.history().len()
        );
    }
    let total = (win + draw + loss).max(1) as f64;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    outln!(
        "A: {win} wins, {draw} draws, {loss} losses: {:.1} % ({} games, {:.0} s)",
        100.0 * (win as f64 + 0.5 * draw as f64) / total,
        games,
        (now_ms() - start) / 1000.0
    );
    for (name, side) in ["A", "B"].iter().zip(&sides) {
        let m = side.moves.max(1) as f64;
        outln!(
            "{name}: {:.0} nodes a move, {:.1} ms a move (at most {:.1}), depth {:.2} a move ({} moves)",
            side.nodes as f64 / m,
            side.ms / m,
            side.max_ms,
            side.depth as f64 / m,
            side.moves
        );
    }
    outln!(
        "load average: {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    Ok(())
}

fn search(args: &[String]) -> Result<(), Usage> {
    let game = game_arg(
        args,
        "search needs a game: plyscope search <game> [options]",
    )?;
    let opts = Opts::parse(
        &args[1..],
        &[
            "--json",
            "--tt",
            "--no-tt",
            "--no-ordering",
            "--no-steps",
            "--no-priors",
            "--no-solver",
            "--plain",
            "--pvs",
            "--no-pvs",
            "--aspiration",
            "--no-aspiration",
            "--killers",
            "--no-killers",
            "--history",
            "--no-history",
            "--history-malus",
            "--no-history-malus",
            "--lmr",
            "--no-lmr",
            "--null-move",
            "--no-null-move",
            "--lmp",
            "--no-lmp",
            "--futility",
            "--no-futility",
            "--iir",
            "--no-iir",
            "--lmp-all",
            "--no-lmp-all",
            "--singular",
            "--no-singular",
            "--no-defer",
        ],
        &[
            "--position",
            "--moves",
            "--algo",
            "--iterations",
            "--exploration",
            "--playout",
            "--playout-plies",
            "--depth",
            "--time-ms",
            "--nodes",
            "--eval",
            "--quotient",
            "--branching",
            "--seed",
            "--tree",
            "--tree-format",
            "--tree-max-mb",
            "--node-cap",
            "--quiescence",
            "--tt-bits",
            "--tt-min-depth",
            "--aspiration-window",
            "--exact",
            "--threads",
        ],
    )?;
    let mut s = session_at(game, opts.value("--position"))?;
    play_moves(s.as_mut(), opts.value("--moves"))?;
    let mut cfg = plyscope::games::search_defaults(game);
    if let Some(a) = opts.value("--algo") {
        cfg.algorithm = a.parse::<Algorithm>()?;
    }
    if let Some(d) = opts.number("--depth", "a whole number from 1 to 64")? {
        cfg.depth = d;
    }
    cfg.time_ms = opts.number("--time-ms", "milliseconds")?;
    cfg.node_budget = opts.number("--nodes", "a whole number")?;
    if let Some(e) = opts.value("--eval") {
        cfg.evaluator = e.to_string();
    }
    if let Some(q) = opts.number("--quotient", "a whole number (0: always the best)")? {
        cfg.randomness_quotient = q;
    }
    if let Some(b) = opts.number("--branching", "a whole number (0: no limit)")? {
        cfg.branching_limit = b;
    }
    // --plain first: the flags after it turn single techniques back on.
    if opts.flag("--plain") {
        cfg = SearchConfig {
            transposition_table: Some(false),
            ..cfg.without_techniques()
        };
    }
    if opts.flag("--tt") {
        cfg.transposition_table = Some(true);
    }
    if opts.flag("--no-tt") {
        cfg.transposition_table = Some(false);
    }
    for (flag, on) in [
        ("pvs", &mut cfg.pvs),
        ("aspiration", &mut cfg.aspiration),
        ("killers", &mut cfg.killers),
        ("history", &mut cfg.history),
        ("history-malus", &mut cfg.history_malus),
        ("lmr", &mut cfg.lmr),
        ("null-move", &mut cfg.null_move),
        ("lmp", &mut cfg.late_move_pruning),
        ("lmp-all", &mut cfg.late_move_pruning_all_depths),
        ("futility", &mut cfg.futility),
        ("iir", &mut cfg.internal_reduction),
        ("singular", &mut cfg.singular_extensions),
    ] {
        if opts.flag(&format!("--no-{flag}")) {
            *on = false;
        }
        if opts.flag(&format!("--{flag}")) {
            *on = true;
        }
    }
    if let Some(t) = opts.number("--threads", "a whole number of threads from 1 to 64")? {
        cfg.threads = t;
    }
    cfg.defer_busy = !opts.flag("--no-defer");
    if let Some(q) = opts.number("--quiescence", "a whole number of plies from 0 to 16")? {
        cfg.quiescence = q;
    }
    if let Some(b) = opts.number("--tt-bits", "a whole number from 10 to 26")? {
        cfg.tt_bits = b;
    }
    if let Some(d) = opts.number("--tt-min-depth", "a whole number of plies from 1 to 8")? {
        cfg.tt_min_depth = d;
    }
    if let Some(w) = opts.number::<f64>("--aspiration-window", "evaluation units (0: automatic)")? {
        cfg.aspiration_window = w;
    }
    cfg.move_ordering = !opts.flag("--no-ordering");
    cfg.probability_steps = !opts.flag("--no-steps");
    cfg.seed = opts.number("--seed", "a whole number")?;
    cfg.mcts_iterations = opts.number("--iterations", "a whole number of iterations")?;
    if let Some(c) = opts.number("--exploration", "a number from 0 to 100")? {
        cfg.mcts_exploration = c;
    }
    if let Some(p) = opts.value("--playout") {
        cfg.mcts_playout = p.parse()?;
    }
    if let Some(n) = opts.number("--playout-plies", "a whole number from 0 to 1000")? {
        cfg.mcts_playout_plies = n;
    }
    cfg.mcts_priors = !opts.flag("--no-priors");
    cfg.mcts_solver = !opts.flag("--no-solver");
    if let Some(c) = opts.number("--node-cap", "a whole number")? {
        cfg.node_cap = c;
    }
    if let Some(e) = opts.number("--exact", "a whole number of empty squares (0: never)")? {
        cfg.exact_endgame = e;
    }
    let tree_file = opts.value("--tree");
    let v1 = match opts.value("--tree-format") {
        None | Some("v2") | Some("2") => false,
        Some("v1") | Some("1") => true,
        Some(other) => {
            return Err(Usage(format!(
                "bad value {other:?} for --tree-format: expected v1 or v2"
            )))
        }
    };
    let max_mb: u64 = opts.number_or("--tree-max-mb", "a whole number of megabytes", 256)?;
    if max_mb == 0 {
        return Err(Usage("--tree-max-mb must be at least 1".into()));
    }
    let max_bytes = (max_mb as usize).saturating_mul(1 << 20);
    cfg.record_tree = tree_file.is_some();
    cfg.tree_max_bytes = max_bytes;
    cfg.validate()?;
    // Open the file first: an unwritable path must not cost a whole search.
    let mut out_file = match tree_file {
        Some(f) if f != "-" => Some(
            std::fs::File::create(f)
                .map_err(|e| Usage(format!("cannot write the tree to {f}: {e}")))?,
        ),
        _ => None,
    };
    let mut report = s.search(&cfg, Hooks::default())?;
    let tree = report.tree.take();
    let mut written: Option<TreeWritten> = None;
    if let (Some(file), Some(tree)) = (tree_file, tree) {
        let w = write_tree(tree, v1, max_bytes);
        match out_file.as_mut() {
            Some(f) => f
                .write_all(w.text.as_bytes())
                .and_then(|_| f.write_all(b"\n"))
                .map_err(|e| Usage(format!("cannot write the tree to {file}: {e}")))?,
            // Standard output: a closed pipe ends quietly, as everywhere in the CLI.
            None => outln!("{}", w.text),
        }
        written = Some(w);
    }
    if opts.flag("--json") {
        outln!(
            "{}",
            serde_json::to_string(&report).expect("reports serialise")
        );
    } else if tree_file != Some("-") {
        let st = &report.stats;
        outln!(
            "best move   {} (rank {}, {})",
            report.mv,
            report.rank,
            report.reason
        );
        outln!(
            "value       {} for {} (search value {})",
            report.value_text.text,
            report.viewer,
            report.value
        );
        outln!("pv          {}", report.pv.join(" "));
        if let Some(solved) = st.solver_nodes {
            outln!(
                "stats       solved exactly to the end: {} positions, {:.1} ms, {} empty squares",
                solved,
                st.time_ms,
                st.depth_reached
            );
        } else {
            outln!(
                "stats       {} nodes, {} leaves, {:.1} ms, depth {}, {} prune events cutting {} moves, {} TT hits",
                st.nodes, st.leaves, st.time_ms, st.depth_reached, st.prune_events, st.pruned_nodes, st.tt_hits
            );
        }
        if let (Some(file), Some(w)) = (tree_file, &written) {
            outln!(
                "tree        {} nodes, {:.1} MB ({}) written to {file} in {:.1} ms (apart from the search)",
                w.nodes,
                w.text.len() as f64 / 1048576.0,
                if v1 { "v1" } else { "v2" },
                w.ms
            );
            if w.unrecorded > 0 {
                outln!(
                    "            budget: node cap {}, {} MB; kept levels 0..={} whole, below them only the principal variations; {} searched nodes not recorded (each node says how many below it)",
                    cfg.node_cap,
                    max_mb,
                    w.full_levels.map_or("?".to_string(), |l| l.to_string()),
                    w.unrecorded
                );
            }
        }
    }
    Ok(())
}

/// A tree document made for the CLI.
struct TreeWritten {
    text: String,
    nodes: usize,
    unrecorded: u64,
    full_levels: Option<u32>,
    ms: f64,
}

/// Writes `tree` as JSON (v1 pretty, or v2 compact) within `max_bytes`: when the text is larger,
/// the tree is cut (keeping root moves, principal variations, then whole levels) and written again.
fn write_tree(mut tree: plyscope::tree::Tree, v1: bool, max_bytes: usize) -> TreeWritten {
    let t = Instant::now();
    let write = |t: &plyscope::tree::Tree| {
        if v1 {
            t.to_document().to_json_pretty()
        } else {
            t.to_compact_json()
        }
    };
    let mut text = write(&tree);
    for _ in 0..8 {
        if text.len() <= max_bytes || tree.len() <= 1 {
            break;
        }
        let per_node = text.len() as f64 / tree.len() as f64;
        let fit = ((max_bytes as f64 / per_node) * 0.9) as usize;
        tree = tree.capped(fit.max(1).min(tree.len() - 1));
        text = write(&tree);
    }
    let unrecorded = tree.nodes.iter().map(|n| n.unrecorded).sum();
    TreeWritten {
        nodes: tree.len(),
        unrecorded,
        full_levels: tree.head.stats.full_levels,
        ms: t.elapsed().as_secs_f64() * 1000.0,
        text,
    }
}

/// One benchmark position: a game, moves from its start, and a search depth.
struct SearchBench {
    game: &'static str,
    moves: &'static str,
    depth: u32,
    algo: Algorithm,
}

/// `plyscope threes-bench --games N --seed S [--time-ms T] [--depth D] [--jobs J] [--no-steps]`:
/// seeded Threes games with expectimax, and the seed bot's table.
fn threes_bench(args: &[String]) -> Result<(), Usage> {
    let opts = Opts::parse(
        args,
        &["--no-steps"],
        &["--games", "--seed", "--time-ms", "--depth", "--jobs"],
    )?;
    let games: usize = opts.number_or("--games", "a whole number of games", 10)?;
    let seed: u64 = opts.number_or("--seed", "a whole number", 1)?;
    let time_ms: Option<u64> = opts.number("--time-ms", "milliseconds a move")?;
    if time_ms == Some(0) {
        return Err(Usage("--time-ms must be at least 1".into()));
    }
    let depth: u32 = opts.number_or(
        "--depth",
        "a depth from 1 to 64",
        if time_ms.is_some() { 12 } else { 4 },
    )?;
    if !(1..=64).contains(&depth) {
        return Err(Usage(format!(
            "bad value {depth} for --depth: expected 1 to 64"
        )));
    }
    let jobs: usize = opts.number_or("--jobs", "a whole number of games at once", 1)?;
    if jobs == 0 {
        return Err(Usage("--jobs must be at least 1".into()));
    }
    let mut cfg = threes_bench::bench_config(time_ms, depth, seed);
    cfg.probability_steps = !opts.flag("--no-steps");
    threes_bench::threes_bench_jobs(
        games,
        seed,
        &cfg,
        &plyscope::games::threes::ThreesEval::strong(),
        jobs,
        &mut Stdout,
    );
    Ok(())
}

fn bench(args: &[String]) -> Result<(), Usage> {
    let opts = Opts::parse(args, &["--quick", "--parallel"], &["--threads", "--runs"])?;
    let quick = opts.flag("--quick");
    let known: Vec<&str> = CATALOGUE.iter().map(|g| g.id).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let most: u32 = opts.number_or(
        "--threads",
        "a whole number of threads from 2 to 64",
        cores.max(4),
    )?;
    if !(2..=64).contains(&most) {
        return Err(Usage("--threads must be from 2 to 64".into()));
    }
    let runs: usize = opts.number_or(
        "--runs",
        "a whole number of runs",
        if quick { 1 } else { 3 },
    )?;
    if opts.flag("--parallel") {
        return parallel_bench(quick, &known, most, runs.max(1));
    }
    outln!(
        "plyscope {} bench{}",
        env!("CARGO_PKG_VERSION"),
        if quick { " (quick)" } else { "" }
    );
    outln!();
    outln!("perft (bulk-counted last ply)");
    outln!(
        "{:<14} {:>5} {:>14} {:>10} {:>14}",
        "game",
        "depth",
        "leaves",
        "ms",
        "leaves/s"
    );
    let perfts: &[(&str, u32, u32)] = &[("tictactoe", 9, 9), ("reversi", 8, 10), ("ataxx", 4, 6)];
    for &(game, quick_depth, depth) in perfts {
        if !known.contains(&game) {
            continue;
        }
        let s = new_session(game)?;
        let d = if quick { quick_depth } else { depth };
        let t = Instant::now();
        let n = s.perft(d);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        outln!(
            "{:<14} {:>5} {:>14} {:>10.1} {:>14.0}",
            game,
            d,
            n,
            ms,
            n as f64 / (ms / 1000.0).max(1e-9)
        );
    }
    outln!();
    outln!(
        "search without and with tree recording (node cap 1000000; best of 3 runs each). ms on:"
    );
    outln!(
        "the search recording into the arena; build: the tree with move texts, made afterwards;"
    );
    outln!("B/node: the recorder's memory, and the compact JSON (v2), per recorded node");
    outln!(
        "{:<14} {:>5} {:>10} {:>8} {:>8} {:>6} {:>8} {:>9} {:>7} {:>7}",
        "game",
        "depth",
        "nodes",
        "ms off",
        "ms on",
        "ratio",
        "build ms",
        "recorded",
        "B/node",
        "JSON"
    );
    let searches = [
        SearchBench {
            game: "tictactoe",
            moves: "",
            depth: 9,
            algo: Algorithm::Alphabeta,
        },
        SearchBench {
            game: "tictactoe",
            moves: "",
            depth: 9,
            algo: Algorithm::Minimax,
        },
        SearchBench {
            game: "reversi",
            moves: "f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6 b4",
            depth: 8,
            algo: Algorithm::Alphabeta,
        },
        SearchBench {
            game: "reversi-12",
            moves: "",
            depth: 7,
            algo: Algorithm::Alphabeta,
        },
        SearchBench {
            game: "ataxx",
            moves: "",
            depth: 5,
            algo: Algorithm::Alphabeta,
        },
        SearchBench {
            game: "threes",
            moves: "",
            depth: 4,
            algo: Algorithm::Expectimax,
        },
    ];
    for b in &searches {
        if !known.contains(&plyscope::core::split_variant(b.game).0) {
            continue;
        }
        let mut s = new_session(b.game)?;
        if b.game == "threes" {
            s.set_position("3 . 1 . / . 2 . 3 / 1 . 2 . / 3 . . 2 | deck 1 1 0 | next 1")?;
        }
        for m in b.moves.split_whitespace() {
            s.play(m)?;
        }
        let depth = if quick {
            b.depth.saturating_sub(2).max(1)
        } else {
            b.depth
        };
        let cfg = SearchConfig {
            depth,
            algorithm: b.algo,
            seed: Some(1),
            random_ties: false,
            node_cap: 1_000_000,
            ..SearchConfig::default()
        };
        let traced_cfg = SearchConfig {
            record_tree: true,
            ..cfg.clone()
        };
        let (mut off, mut on, mut build) = (f64::MAX, f64::MAX, f64::MAX);
        let mut plain = None;
        let mut traced = None;
        for _ in 0..3 {
            let p = s.search(&cfg, Hooks::default())?;
            off = off.min(p.stats.time_ms);
            plain = Some(p);
            let t = Instant::now();
            let r = s.search(&traced_cfg, Hooks::default())?;
            let wall = t.elapsed().as_secs_f64() * 1000.0;
            on = on.min(r.stats.time_ms);
            build = build.min(wall - r.stats.time_ms);
            traced = Some(r);
        }
        let (plain, mut traced) = (plain.expect("ran"), traced.expect("ran"));
        let tree = traced.tree.take();
        let recorded = tree.as_ref().map_or(0, |t| t.len());
        let mem = traced.stats.tree_bytes.unwrap_or(0) as f64 / recorded.max(1) as f64;
        let json =
            tree.as_ref().map_or(0, |t| t.to_compact_json().len()) as f64 / recorded.max(1) as f64;
        let label = if b.algo == Algorithm::Minimax {
            format!("{} (mm)", b.game)
        } else {
            b.game.to_string()
        };
        outln!(
            "{:<14} {:>5} {:>10} {:>8.1} {:>8.1} {:>6.2} {:>8.1} {:>9} {:>7.1} {:>7.1}",
            label,
            depth,
            plain.stats.nodes,
            off,
            on,
            on / off.max(1e-3),
            build,
            recorded,
            mem,
            json
        );
    }
    if known.contains(&"threes") {
        threes_search_bench(quick)?;
    }
    mcts_bench(quick, &known)?;
    parallel_bench(quick, &known, most, runs.max(1))?;
    outln!();
    outln!(
        "stopping: a search on the largest game told to stop after 100 ms (the stop flag), and one"
    );
    outln!("with a 100 ms time budget; how long each took to come back");
    let game = if known.contains(&"reversi") {
        "reversi-16"
    } else {
        "tictactoe"
    };
    let s = new_session(game)?;
    let cfg = SearchConfig {
        depth: 64,
        iterative_deepening: true,
        seed: Some(1),
        ..SearchConfig::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let t = Instant::now();
    let (r, ms) = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let r = s.search(
            &cfg,
            Hooks {
                stop: Some(&stop),
                ..Hooks::default()
            },
        );
        (r, t.elapsed().as_secs_f64() * 1000.0)
    });
    let r = r?;
    outln!(
        "{:<14} stop flag at 100 ms: returned after {:.1} ms ({} nodes, depth {})",
        game,
        ms,
        r.stats.nodes,
        r.stats.depth_reached
    );
    let t = Instant::now();
    let r = s.search(
        &SearchConfig {
            time_ms: Some(100),
            ..cfg
        },
        Hooks::default(),
    )?;
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    outln!(
        "{:<14} 100 ms budget:       returned after {:.1} ms ({} nodes, depth {})",
        game,
        ms,
        r.stats.nodes,
        r.stats.depth_reached
    );
    Ok(())
}

/// The MCTS part of `plyscope bench`: iterations a second in every game, from its start (Threes
/// from a fixed deal), with the default options, a fixed seed and an iteration budget; best of 3.
/// Time to a fixed depth with 1, 2 and `most` threads (Lazy SMP), best of `runs` runs taken in
/// turn (1, 2, N, 1, 2, N, ...) so that a change in the machine's load hits every count alike.
fn parallel_bench(quick: bool, known: &[&str], most: u32, runs: usize) -> Result<(), Usage> {
    let cases: [(&str, &str, u32, u32); 2] = [
        ("reversi", "f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6 b4", 8, 13),
        ("ataxx", "", 5, 8),
    ];
    let mut counts = vec![1u32, 2];
    if most > 2 {
        counts.push(most);
    }
    outln!();
    outln!(
        "parallel search (Lazy SMP): wall time to a fixed depth, best of {runs} interleaved runs; \
         {} cores seen",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    outln!(
        "speed-up: 1 thread's time over N's; main: the main thread's nodes, and 1 thread's nodes over"
    );
    outln!("them (the time it saves when every thread runs at full speed, i.e. on N free cores)");
    outln!(
        "{:<10} {:>5} {:>7} {:>10} {:>12} {:>8} {:>11} {:>6}",
        "game",
        "depth",
        "threads",
        "ms",
        "nodes (all)",
        "speed-up",
        "main nodes",
        "ratio"
    );
    for (game, moves, quick_depth, depth) in cases {
        if !known.contains(&game) {
            continue;
        }
        let mut s = new_session(game)?;
        for m in moves.split_whitespace() {
            s.play(m)?;
        }
        let depth = if quick { quick_depth } else { depth };
        let mut best = vec![(f64::MAX, 0u64, 0u64); counts.len()];
        for _ in 0..runs {
            for (i, &threads) in counts.iter().enumerate() {
                let cfg = SearchConfig {
                    depth,
                    iterative_deepening: true,
                    seed: Some(1),
                    random_ties: false,
                    exact_endgame: 0,
                    threads,
                    ..SearchConfig::default()
                };
                let t = Instant::now();
                let r = s.search(&cfg, Hooks::default())?;
                let ms = t.elapsed().as_secs_f64() * 1000.0;
                let nodes = if r.stats.workers.is_empty() {
                    r.stats.nodes
                } else {
                    r.stats.workers.iter().map(|w| w.nodes).sum()
                };
                if ms < best[i].0 {
                    best[i] = (ms, nodes, r.stats.nodes);
                }
            }
        }
        for (i, &threads) in counts.iter().enumerate() {
            outln!(
                "{:<10} {:>5} {:>7} {:>10.1} {:>12} {:>7.2}x {:>11} {:>5.2}x",
                game,
                depth,
                threads,
                best[i].0,
                best[i].1,
                best[0].0 / best[i].0.max(1e-9),
                best[i].2,
                best[0].2 as f64 / best[i].2.max(1) as f64
            );
        }
    }
    Ok(())
}

fn mcts_bench(quick: bool, known: &[&str]) -> Result<(), Usage> {
    let iterations: u64 = if quick { 2_000 } else { 20_000 };
    outln!();
    outln!(
        "mcts (UCT with priors, heuristic playouts of 6 plies; {iterations} iterations, best of 3)"
    );
    outln!(
        "{:<14} {:>10} {:>10} {:>12} {:>10}",
        "game",
        "iterations",
        "ms",
        "iter/s",
        "tree nodes"
    );
    for &game in known {
        if game == "textbook" {
            continue;
        }
        let mut s = new_session(game)?;
        if game == "threes" {
            s.set_position("3 . 1 . / . 2 . 3 / 1 . 2 . / 3 . . 2 | deck 1 1 0 | next 1")?;
        }
        let cfg = SearchConfig {
            algorithm: Algorithm::Mcts,
            mcts_iterations: Some(iterations),
            seed: Some(1),
            ..SearchConfig::default()
        };
        let mut best: Option<(f64, u64, u64)> = None;
        for _ in 0..3 {
            let r = s.search(&cfg, Hooks::default())?;
            if best.map_or(true, |b| r.stats.time_ms < b.0) {
                best = Some((r.stats.time_ms, r.stats.nodes, r.stats.leaves));
            }
        }
        let (ms, nodes, done) = best.unwrap_or((0.0, 0, 0));
        outln!(
            "{:<14} {:>10} {:>10.1} {:>12.0} {:>10}",
            game,
            done,
            ms,
            done as f64 / (ms / 1000.0).max(1e-9),
            nodes
        );
    }
    Ok(())
}

/// `plyscope mcts-match <game>`: MCTS against alpha-beta (expectimax in games with chance) at equal
/// time a move, colours alternating; in a single-player game each plays the same deals and the
/// scores are compared.
fn mcts_match(args: &[String]) -> Result<(), Usage> {
    let game = game_arg(
        args,
        "mcts-match needs a game: plyscope mcts-match <game> [--games N] [--time-ms T] [--seed S]",
    )?
    .clone();
    let opts = Opts::parse(
        &args[1..],
        &[],
        &["--games", "--time-ms", "--seed", "--max-plies", "--opening"],
    )?;
    let games: u64 = opts.number_or("--games", "a whole number of games", 10)?;
    let time_ms: u64 = opts.number_or("--time-ms", "milliseconds a move", 100)?;
    let seed: u64 = opts.number_or("--seed", "a whole number", 1)?;
    let max_plies: Option<usize> = opts.number("--max-plies", "a whole number of plies")?;
    let opening: usize = opts.number_or("--opening", "a whole number of random plies", 2)?;
    if games == 0 || time_ms == 0 {
        return Err(Usage("--games and --time-ms must be at least 1".into()));
    }
    let probe = new_session(&game)?;
    let chance = probe.info().chance;
    let single = probe.players().len() == 1;
    let max_plies = max_plies.unwrap_or(if single { usize::MAX } else { 400 });
    let other = if chance {
        Algorithm::Expectimax
    } else {
        Algorithm::Alphabeta
    };
    let config = |algo: Algorithm, g: u64| SearchConfig {
        algorithm: algo,
        depth: 64,
        iterative_deepening: true,
        time_ms: Some(time_ms),
        seed: Some(seed.wrapping_mul(1000).wrapping_add(g)),
        ..SearchConfig::default()
    };
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    outln!(
        "mcts-match {game}: mcts against {} at {time_ms} ms a move, {games} games, seed {seed}; load average before: {}",
        other.id(),
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
    // (mcts wins, draws, losses) or, single-player, the scores of each.
    let mut tally = [0u64; 3];
    let mut scores: (Vec<f64>, Vec<f64>) = (Vec::new(), Vec::new());
    let mut time = [(0.0f64, 0u64); 2];
    for g in 0..games {
        // Games go in pairs with the same opening, colours swapped.
        let mut rng = plyscope::core::Rng::seeded(seed.wrapping_mul(7919).wrapping_add(g / 2));
        let sides: Vec<Algorithm> = if single {
            vec![Algorithm::Mcts, other]
        } else if g % 2 == 0 {
            vec![Algorithm::Mcts, other]
        } else {
            vec![other, Algorithm::Mcts]
        };
        let runs = if single { 2 } else { 1 };
        for run in 0..runs {
            let mut s = new_session(&game)?;
            s.seed(seed.wrapping_add(g));
            let mut plies = 0;
            let players = s.players();
            while s.outcome().is_none() && plies < max_plies {
                let to_move = s.to_move();
                if to_move == "chance" {
                    s.play_chance()?;
                    continue;
                }
                if plies < opening && !single {
                    let moves = s.legal_moves();
                    let pick = rng.below(moves.len() as u64) as usize;
                    s.play(&moves[pick].text)?;
                    plies += 1;
                    continue;
                }
                let side = if single {
                    run
                } else {
                    players.iter().position(|p| *p == to_move).unwrap_or(0)
                };
                let algo = sides[side];
                let r = s.search(&config(algo, g), Hooks::default())?;
                let k = usize::from(algo != Algorithm::Mcts);
                time[k].0 += r.stats.time_ms;
                time[k].1 += 1;
                s.play(&r.mv)?;
                plies += 1;
            }
            let result = s.outcome().unwrap_or_else(|| "unfinished (draw)".into());
            if single {
                let score = s
                    .outcome()
                    .and_then(|o| o.strip_prefix("score ").and_then(|x| x.parse().ok()))
                    .unwrap_or(0.0);
                if run == 0 {
                    scores.0.push(score);
                } else {
                    scores.1.push(score);
                }
                outln!(
                    "game {:>3} {:<10} {result} in {plies} moves",
                    g + 1,
                    if run == 0 { "mcts" } else { other.id() }
                );
            } else {
                let mcts_player = &players[sides
                    .iter()
                    .position(|a| *a == Algorithm::Mcts)
                    .unwrap_or(0)];
                let k = if result == format!("{mcts_player} wins") {
                    0
                } else if result.ends_with(" wins") {
                    2
                } else {
                    1
                };
                tally[k] += 1;
                outln!(
                    "game {:>3} mcts plays {:<6} {result} in {plies} plies",
                    g + 1,
                    mcts_player
                );
            }
        }
    }
    let mean_ms = |t: (f64, u64)| t.0 / t.1.max(1) as f64;
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    if single {
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        outln!(
            "mean score: mcts {:.0}, {} {:.0} (same deals); ms a move: mcts {:.1}, {} {:.1}; load average after: {}",
            mean(&scores.0),
            other.id(),
            mean(&scores.1),
            mean_ms(time[0]),
            other.id(),
            mean_ms(time[1]),
            load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
        );
    } else {
        outln!(
            "mcts: {} wins, {} draws, {} losses against {}; ms a move: mcts {:.1}, {} {:.1}; load average after: {}",
            tally[0],
            tally[1],
            tally[2],
            other.id(),
            mean_ms(time[0]),
            other.id(),
            mean_ms(time[1]),
            load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
        );
    }
    Ok(())
}

/// The Threes part of `plyscope bench`: the benchmark's expectimax search (`threes-bench`'s
/// configuration) at a fixed depth from three positions, best of three runs each, so that the
/// figures measure the engine's speed rather than the machine's noise.
fn threes_search_bench(quick: bool) -> Result<(), Usage> {
    use plyscope::core::Game;
    use plyscope::games::threes::{Threes, ThreesEval};
    let positions = [
        (
            "start",
            "3 . 1 . / . 2 . 3 / 1 . 2 . / 3 . . 2 | deck 1 1 0 | next 1",
        ),
        (
            "a 1536",
            "2 . 12 12 / . 1 3 24 / . 3 6 1536 / . . . 1 | deck 0 1 0 | next 1",
        ),
        (
            "a 6144",
            "3 3 . . / 48 12 3 . / 1 6 24 6 / 6144 384 48 . | deck 3 4 2 | next 3",
        ),
    ];
    let depth = if quick { 3 } else { 5 };
    outln!();
    outln!("expectimax (Threes, threes-bench's search at a fixed depth, best of 3 runs)");
    outln!(
        "{:<14} {:>5} {:>12} {:>10} {:>12}",
        "position",
        "depth",
        "nodes",
        "ms",
        "nodes/s"
    );
    let eval = ThreesEval::strong();
    let cfg = threes_bench::bench_config(None, depth, 1);
    for (label, text) in positions {
        let pos = Threes::from_position_text("", text)
            .map_err(|e| Usage(format!("bench position {label}: {e}")))?;
        let mut best: Option<(u64, f64)> = None;
        for _ in 0..3 {
            let t = Instant::now();
            let r = plyscope::search::search(&pos, &eval, &cfg, Hooks::default())
                .map_err(|e| Usage(e.to_string()))?;
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            if best.map_or(true, |(_, b)| ms < b) {
                best = Some((r.stats.nodes, ms));
            }
        }
        let (n, ms) = best.unwrap_or((0, 0.0));
        outln!(
            "{:<14} {:>5} {:>12} {:>10.1} {:>12.0}",
            label,
            depth,
            n,
            ms,
            n as f64 / (ms / 1000.0).max(1e-9)
        );
    }
    Ok(())
}
