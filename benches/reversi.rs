//! Reversi benchmark: prints figures (it asserts nothing about speed).
//!
//! - perft leaves per second from the 8x8 start at depths 8 to 10 (bitboard), and 12x12 at depth 6;
//! - alpha-beta on a midgame position with a one-second budget: nodes, nodes per second and the
//!   depth reached, with and without the tree recorder, with and without the transposition table.
//!
//! Run with `cargo bench --bench reversi`.

use plyscope::core::{Evaluator, Game, NoTerms, Rng};
use plyscope::games::reversi::{format_record, Reversi};
use plyscope::games::Playable;
use plyscope::search::{search, Hooks, SearchConfig};
use std::time::Instant;

fn perft_line(name: &str, pos: &Reversi, depth: u32) {
    let t = Instant::now();
    let n = pos.perft(depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "perft {name} depth {depth:2}: {n:>13} leaves in {:8.3} s = {:8.1} M leaves/s",
        s,
        n as f64 / s / 1e6
    );
}

/// A midgame position: the start, then 20 plies of seeded random play.
fn midgame(size: usize, plies: usize) -> Reversi {
    let mut rng = Rng::seeded(2024);
    let mut pos = Reversi::new(size).unwrap();
    let mut played = Vec::new();
    let mut ms = Vec::new();
    for _ in 0..plies {
        pos.legal_moves(&mut ms);
        let m = ms[rng.below(ms.len() as u64) as usize];
        played.push(m);
        pos.play_unchecked(m);
    }
    println!(
        "midgame {}: record {}",
        pos.game_id(),
        format_record(&played)
    );
    println!("  position {}", pos.position_text());
    pos
}

fn search_line(pos: &Reversi, label: &str, cfg: SearchConfig) {
    let eval = Reversi::evaluator(&cfg.evaluator).unwrap();
    let t = Instant::now();
    let r = search(pos, &eval, &cfg, Hooks::default()).unwrap();
    let s = t.elapsed().as_secs_f64();
    println!(
        "alphabeta {label:<28}: depth {:2} in {:6.3} s, {:>9} nodes, {:6.2} M nodes/s, best {}",
        r.stats.depth_reached,
        s,
        r.stats.nodes,
        r.stats.nodes as f64 / s / 1e6,
        pos.format_move(r.best.unwrap())
    );
}

/// Nanoseconds per static evaluation, per move generation and per copy-make, over positions of
/// seeded random games.
fn eval_lines(size: usize) {
    let mut rng = Rng::seeded(7);
    let mut positions = Vec::new();
    while positions.len() < 2000 {
        let mut pos = Reversi::new(size).unwrap();
        let plies = 10 + rng.below((size * size - 14) as u64);
        let mut ms = Vec::new();
        for _ in 0..plies {
            pos.legal_moves(&mut ms);
            if ms.is_empty() {
                break;
            }
            pos.play_unchecked(ms[rng.below(ms.len() as u64) as usize]);
        }
        positions.push(pos);
    }
    let rounds = if size == 8 { 500 } else { 50 };
    for name in ["strong", "discs"] {
        let eval = Reversi::evaluator(name).unwrap();
        let t = Instant::now();
        let mut sum = 0.0;
        for _ in 0..rounds {
            for p in &positions {
                sum += eval.evaluate(std::hint::black_box(p), 0, &mut NoTerms);
            }
        }
        let ns = t.elapsed().as_secs_f64() * 1e9 / (rounds * positions.len()) as f64;
        println!("evaluate {size}x{size} {name:<6}: {ns:7.1} ns per position (checksum {sum:.0})");
    }
    let t = Instant::now();
    let mut count = 0usize;
    let mut ms = Vec::new();
    for _ in 0..rounds {
        for p in &positions {
            std::hint::black_box(p).legal_moves(&mut ms);
            for &m in &ms {
                let mut c = p.clone();
                c.play_unchecked(m);
                count += std::hint::black_box(&c).zobrist() as usize & 1;
            }
        }
    }
    let ns = t.elapsed().as_secs_f64() * 1e9 / (rounds * positions.len()) as f64;
    println!(
        "legal_moves + copy-make of every move {size}x{size}: {ns:7.1} ns per position ({count})"
    );
}

fn main() {
    // `REVERSI_BENCH=search` runs only the 8x8 search without the recorder (handy under a profiler);
    // `REVERSI_BENCH=fixed` one 8x8 search to a fixed depth of 9 (a deterministic amount of work, to
    // compare instruction counts under `perf stat` on a busy machine).
    let only_search = std::env::var("REVERSI_BENCH").is_ok_and(|v| v == "search");
    if std::env::var("REVERSI_BENCH").is_ok_and(|v| v == "fixed") {
        let pos = midgame(8, 20);
        search_line(
            &pos,
            "depth 9, no budget",
            SearchConfig {
                depth: 9,
                seed: Some(1),
                ..Default::default()
            },
        );
        return;
    }
    if !only_search {
        eval_lines(8);
        eval_lines(12);
        let start = Reversi::new(8).unwrap();
        for d in 8..=10 {
            perft_line("8x8", &start, d);
        }
        perft_line(
            "8x8 general representation",
            &Reversi::general(8).unwrap(),
            8,
        );
        perft_line("12x12", &Reversi::new(12).unwrap(), 6);
    }

    let sizes: &[(usize, usize)] = if only_search {
        &[(8, 20)]
    } else {
        &[(8, 20), (12, 40)]
    };
    for &(size, plies) in sizes {
        let pos = midgame(size, plies);
        let base = SearchConfig {
            depth: 64,
            time_ms: Some(1000),
            seed: Some(1),
            ..Default::default()
        };
        search_line(&pos, "1 s", base.clone());
        search_line(
            &pos,
            "1 s, transposition table",
            SearchConfig {
                transposition_table: Some(true),
                ..base.clone()
            },
        );
        if only_search {
            continue;
        }
        search_line(
            &pos,
            "1 s, record_tree",
            SearchConfig {
                record_tree: true,
                ..base.clone()
            },
        );
        search_line(
            &pos,
            "1 s, evaluator discs",
            SearchConfig {
                evaluator: "discs".into(),
                ..base.clone()
            },
        );
    }
}
