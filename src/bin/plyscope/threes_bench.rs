//! The Threes benchmark: plays seeded games with expectimax and prints the seed bot's table (low,
//! median and high score, share of games reaching 384 ... 6144) and the mean time per move.

use plyscope::core::{now_ms, Game, Rng, Turn};
use plyscope::games::threes::{rank_value, Threes, ThreesEval, ThreesMove};
use plyscope::search::{search, Algorithm, Hooks, SearchConfig};
use std::io::Write;

/// The cards whose share of games reaching them the table reports.
pub const MILESTONES: [u32; 5] = [384, 768, 1536, 3072, 6144];

/// What a benchmark run measured.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchSummary {
    /// Final score of each game, in game order.
    pub scores: Vec<u64>,
    /// Highest card of each game.
    pub highest: Vec<u32>,
    /// Swipes played in each game.
    pub moves: Vec<u64>,
    /// Lowest score.
    pub low: u64,
    /// Median score (the mean of the two middle ones for an even count).
    pub median: f64,
    /// Highest score.
    pub high: u64,
    /// Share (0 to 1) of games whose highest card reached each of [`MILESTONES`].
    pub reached: [f64; 5],
    /// Mean search time per swipe in milliseconds.
    pub mean_ms_per_move: f64,
}

/// The search configuration the benchmark (and the CLI) plays with: expectimax with the default
/// evaluator, a transposition table, a chance cut-off, no move ordering (expectimax does not prune).
pub fn bench_config(time_ms: Option<u64>, depth: u32, seed: u64) -> SearchConfig {
    SearchConfig {
        algorithm: Algorithm::Expectimax,
        evaluator: String::new(),
        depth,
        time_ms,
        iterative_deepening: time_ms.is_some(),
        move_ordering: false,
        transposition_table: Some(true),
        tt_bits: 16,
        chance_cutoff: 0.0001,
        random_ties: false,
        seed: Some(seed),
        ..SearchConfig::default()
    }
}

/// Plays nature's turn at a chance position: one outcome drawn from `nature` with its probability
/// (as the session's `play_chance` does).
pub fn deal_by_nature(pos: &mut Threes, nature: &mut Rng, outs: &mut Vec<(ThreesMove, f64)>) {
    pos.chance_outcomes(outs);
    pos.play_unchecked(nature.pick_weighted(outs));
}

/// Plays one seeded game to its end: the deal comes from `seed` (as game id `threes-<seed>`) and
/// nature's RNG is seeded with `seed` too (as `AnySession::seed` does), so without a time budget
/// the game replays exactly. Returns (final position, swipes, total search time in ms).
pub fn play_game(seed: u64, cfg: &SearchConfig, eval: &ThreesEval) -> (Threes, u64, f64) {
    let mut pos = Threes::deal(seed);
    let mut nature = Rng::seeded(seed);
    let mut outs = Vec::new();
    let (mut moves, mut ms) = (0u64, 0.0);
    loop {
        match pos.turn() {
            Turn::Terminal => break,
            Turn::Chance => deal_by_nature(&mut pos, &mut nature, &mut outs),
            Turn::Player(_) => {
                let t0 = now_ms();
                let r = search(&pos, eval, cfg, Hooks::default()).expect("a player turn searches");
                ms += now_ms() - t0;
                moves += 1;
                pos.play_unchecked(r.best.expect("a move at a player turn"));
            }
        }
    }
    (pos, moves, ms)
}

/// One finished game: (index, score, highest card, swipes, search time in ms).
type GameResult = (usize, u64, u32, u64, f64);

/// Plays `games` games with seeds `seed`, `seed + 1`, ... under `base` (each game's search seed is
/// its game seed), printing one line per game and then the summary table to `out`; `jobs` games
/// are played at once, each on its own thread (one search
/// thread per game, so each search still has one core when `jobs` is at most the core count).
/// Games are printed as they finish; the summary is over all games in seed order, the same as with
/// one job. `jobs` of 0 or 1 plays the games one after another on the calling thread.
pub fn threes_bench_jobs(
    games: usize,
    seed: u64,
    base: &SearchConfig,
    eval: &ThreesEval,
    jobs: usize,
    out: &mut impl Write,
) -> BenchSummary {
    let (time_ms, depth) = (base.time_ms, base.depth);
    let start = now_ms();
    let jobs = jobs.clamp(1, games.max(1));
    let _ = writeln!(
        out,
        "threes bench: {games} games from seed {seed}, {}, depth cap {depth}, chance cut-off {}, evaluator {}, {jobs} at a time",
        match (time_ms, base.probability_steps) {
            (Some(t), true) => format!("{t} ms a move (probability steps)"),
            (Some(t), false) => format!("{t} ms a move (no probability steps)"),
            (None, _) => "no time budget".to_string(),
        },
        base.chance_cutoff,
        plyscope::core::Evaluator::<Threes>::name(eval)
    );
    let play = |g: usize| -> GameResult {
        let s = seed.wrapping_add(g as u64);
        let cfg = SearchConfig {
            seed: Some(s),
            ..base.clone()
        };
        let (end, n, ms) = play_game(s, &cfg, eval);
        (g, end.score(), rank_value(end.highest_rank()), n, ms)
    };
    let mut results: Vec<Option<GameResult>> = vec![None; games];
    let mut report = |r: GameResult, out: &mut dyn Write| {
        let (g, score, high, n, ms) = r;
        let _ = writeln!(
            out,
            "game {:>3} seed {}: score {:>8}  highest {:>5}  moves {:>5}  {:.1} ms/move",
            g + 1,
            seed.wrapping_add(g as u64),
            score,
            high,
            n,
            if n > 0 { ms / n as f64 } else { 0.0 }
        );
        let _ = out.flush();
        results[g] = Some(r);
    };
    if jobs == 1 {
        for g in 0..games {
            report(play(g), out);
        }
    } else {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        let (tx, rx) = std::sync::mpsc::channel::<GameResult>();
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                let tx = tx.clone();
                let (next, play) = (&next, &play);
                scope.spawn(move || loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games || tx.send(play(g)).is_err() {
                        break;
                    }
                });
            }
            drop(tx);
            for r in rx {
                report(r, out);
            }
        });
    }
    let mut scores = Vec::with_capacity(games);
    let mut highest = Vec::with_capacity(games);
    let mut moves = Vec::with_capacity(games);
    let mut total_ms = 0.0;
    for (_, score, high, n, ms) in results.into_iter().flatten() {
        scores.push(score);
        highest.push(high);
        moves.push(n);
        total_ms += ms;
    }
    let summary = summarize(scores, highest, moves, total_ms);
    let _ = writeln!(
        out,
        "{} games completed in {:.1} s",
        games,
        (now_ms() - start) / 1000.0
    );
    let _ = writeln!(out, "Low score:    {}", summary.low);
    let _ = writeln!(out, "Median score: {}", summary.median);
    let _ = writeln!(out, "High score:   {}", summary.high);
    for (m, share) in MILESTONES.iter().zip(summary.reached) {
        let _ = writeln!(out, "% of games with at least a {m}: {:.0}%", share * 100.0);
    }
    let _ = writeln!(
        out,
        "Mean time per move: {:.2} ms",
        summary.mean_ms_per_move
    );
    let _ = out.flush();
    summary
}

fn summarize(scores: Vec<u64>, highest: Vec<u32>, moves: Vec<u64>, total_ms: f64) -> BenchSummary {
    let mut sorted = scores.clone();
    sorted.sort_unstable();
    let n = sorted.len();
    let median = match n {
        0 => 0.0,
        _ if n % 2 == 1 => sorted[n / 2] as f64,
        _ => (sorted[n / 2 - 1] + sorted[n / 2]) as f64 / 2.0,
    };
    let mut reached = [0.0; 5];
    for (i, &m) in MILESTONES.iter().enumerate() {
        if n > 0 {
            reached[i] = highest.iter().filter(|&&h| h >= m).count() as f64 / n as f64;
        }
    }
    let total_moves: u64 = moves.iter().sum();
    BenchSummary {
        low: sorted.first().copied().unwrap_or(0),
        high: sorted.last().copied().unwrap_or(0),
        median,
        reached,
        mean_ms_per_move: if total_moves > 0 {
            total_ms / total_moves as f64
        } else {
            0.0
        },
        scores,
        highest,
        moves,
    }
}
