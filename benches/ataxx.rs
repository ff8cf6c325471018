//! Ataxx speed figures: fast perft leaves per second and alpha-beta nodes per second.
//! Run with `cargo bench --bench ataxx`; the figures (best of three runs) are printed, nothing is
//! asserted.

use plyscope::core::{now_ms, perft, Evaluator, Game, NoTerms, PerftConvention};
use plyscope::games::ataxx::{Ataxx, AtaxxEval};
use plyscope::search::{search, Hooks, SearchConfig};
use std::hint::black_box;

/// Runs `f` three times and returns its result with the shortest time in milliseconds (the machine
/// may be shared; the best run is the least disturbed one).
fn best_of_3<T>(mut f: impl FnMut() -> T) -> (T, f64) {
    let mut best = None;
    let mut best_ms = f64::INFINITY;
    for _ in 0..3 {
        let t = now_ms();
        let r = f();
        let ms = now_ms() - t;
        if ms < best_ms {
            best_ms = ms;
            best = Some(r);
        }
    }
    (best.unwrap(), best_ms)
}

fn rate(n: u64, ms: f64) -> String {
    format!("{:.1} M/s", n as f64 / ms.max(0.001) / 1000.0)
}

fn main() {
    let positions = [
        ("start", "x5o/7/7/7/7/7/o5x x 0 1", 6),
        ("four pillars", "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", 6),
        (
            "midgame",
            "x1oo1o1/1xxoo2/2xo3/1xxxo2/2o1xo1/ooxx3/o2x2x x 4 14",
            4,
        ),
    ];
    println!("fast perft (bulk counting of the last ply)");
    for (name, fen, depth) in positions {
        let pos = Ataxx::from_position_text("ataxx", fen).unwrap();
        let (n, ms) = best_of_3(|| black_box(&pos).perft_fast(depth));
        println!(
            "  {name:<13} depth {depth}: {n:>12} leaves in {ms:>8.1} ms = {}",
            rate(n, ms)
        );
    }
    let start = Ataxx::new();
    let (n, ms) = best_of_3(|| perft(black_box(&start), 5, PerftConvention::FinishedCountsZero));
    println!(
        "generic perft (clones, move lists)\n  start         depth 5: {n:>12} leaves in {ms:>8.1} ms = {}",
        rate(n, ms)
    );

    println!("static evaluation of the midgame position's children");
    let mid = Ataxx::from_position_text(
        "ataxx",
        "x1oo1o1/1xxoo2/2xo3/1xxxo2/2o1xo1/ooxx3/o2x2x x 4 14",
    )
    .unwrap();
    let mut moves = Vec::new();
    mid.legal_moves(&mut moves);
    let kids: Vec<Ataxx> = moves
        .iter()
        .map(|&m| {
            let mut c = mid.clone();
            c.play_unchecked(m);
            c
        })
        .collect();
    for eval in [AtaxxEval::Strong, AtaxxEval::Material] {
        let rounds = 20_000u64;
        let (sum, ms) = best_of_3(|| {
            let mut sum = 0.0;
            for _ in 0..rounds {
                for k in black_box(&kids) {
                    sum += eval.evaluate(k, 0, &mut NoTerms);
                }
            }
            sum
        });
        black_box(sum);
        let n = rounds * kids.len() as u64;
        println!(
            "  {:<9} {n:>10} evaluations in {ms:>8.1} ms = {}",
            format!("{eval:?}"),
            rate(n, ms)
        );
    }

    println!("alpha-beta (move ordering by pre-score)");
    for (name, fen, depth) in [
        ("start", "x5o/7/7/7/7/7/o5x x 0 1", 5),
        (
            "midgame",
            "x1oo1o1/1xxoo2/2xo3/1xxxo2/2o1xo1/ooxx3/o2x2x x 4 14",
            4,
        ),
    ] {
        let pos = Ataxx::from_position_text("ataxx", fen).unwrap();
        for eval in [AtaxxEval::Strong, AtaxxEval::Material] {
            let cfg = SearchConfig {
                depth,
                seed: Some(1),
                ..Default::default()
            };
            let (r, ms) = best_of_3(|| search(&pos, &eval, &cfg, Hooks::default()).unwrap());
            println!(
                "  {name:<8} {:<9} depth {depth}: {:>10} nodes in {ms:>8.1} ms = {}  best {}",
                format!("{eval:?}"),
                r.stats.nodes,
                rate(r.stats.nodes, ms),
                pos.format_move(r.best.unwrap())
            );
        }
    }
}
