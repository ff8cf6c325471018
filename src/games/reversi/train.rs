//! The training pipeline of the `patterns` evaluator (`plyscope train-reversi`, docs/reversi.md).
//!
//! 1. **Games.** Self-play from the start position: the first plies are random (a number drawn
//!    between [`SelfPlay::random_min`] and [`SelfPlay::random_max`]), then each side plays
//!    the best move of a shallow alpha-beta search on a small hand-set evaluation (mobility,
//!    corners, X-squares), or a random move with probability [`SelfPlay::epsilon`]. Every
//!    position where the side to move has a move is kept.
//! 2. **Exact labels.** Positions with at most [`TrainConfig::exact_empties`] empty squares are
//!    solved by the endgame solver: their label is the exact final disc margin of the side to move.
//! 3. **Phases, last first.** Phase 0 (the last empties) is fitted first. The positions of a later
//!    phase without an exact label are labelled by an alpha-beta search of
//!    [`TrainConfig::label_depth`] plies whose leaves are evaluated with the phases already fitted
//!    (Buro's bootstrapping), then the phase is fitted.
//! 4. **The fit.** Least squares by gradient steps in which each weight moves by the mean residual
//!    of the positions that use it ([`pattern_fit::fit`]); weights that symmetry ties share one value. One
//!    position in ten is held out and its error reported.
//!
//! Everything runs on one thread and is deterministic from [`SelfPlay::seed`].

use super::bitboard::moves8;
use crate::games::pattern_fit::{self, Row, Shape};
pub use crate::games::pattern_fit::{FitReport, SelfPlay, SplitMix};
use super::endgame::{self, Solver};
use super::patterns::{
    self, Family, FAMILIES, NUM_FAMILIES, NUM_PLACEMENTS, NUM_SCALARS, OFFSETS, PHASES,
    PHASE_SIZE, PHASE_WIDTH, TOTAL_WEIGHTS,
};

/// The settings of a training run.
#[derive(Debug, Clone)]
pub struct TrainConfig {
    /// The settings every pattern trainer shares (seed, games, openings, fitting).
    pub self_play: SelfPlay,
    /// The depth of the self-play search.
    pub play_depth: u32,
    /// Positions with at most this many empties get the solver's exact label.
    pub exact_empties: u32,
    /// The depth of the search that labels the other positions.
    pub label_depth: u32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            self_play: SelfPlay {
                seed: 1,
                games: 2000,
                random_min: 2,
                random_max: 24,
                epsilon: 0.1,
                epochs: 40,
                shrink: 4.0,
            },
            play_depth: 2,
            exact_empties: 14,
            label_depth: 4,
        }
    }
}

/// A training position: `p` to move against `o`, its label (final margin for `p`, in discs) and
/// whether the label is exact.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// The side to move's discs.
    pub p: u64,
    /// The other side's discs.
    pub o: u64,
    /// The label, in discs for the side to move (NaN until labelled).
    pub label: f32,
    /// Whether the solver gave the label.
    pub exact: bool,
}

impl Sample {
    /// Empty squares.
    pub fn empties(&self) -> u32 {
        64 - (self.p | self.o).count_ones()
    }
}

/// The `k`-th set bit of `m`.
fn nth_bit(mut m: u64, k: u64) -> u32 {
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros()
}

/// The self-play evaluation: mobility, corners and X-squares next to empty corners, for `p`.
fn play_eval(p: u64, o: u64) -> i32 {
    const CORNERS: u64 = 0x8100_0000_0000_0081;
    const X: [(u64, u64); 4] = [(1, 1 << 9), (1 << 7, 1 << 14), (1 << 56, 1 << 49), (1 << 63, 1 << 54)];
    let mob = moves8(p, o).count_ones() as i32 - moves8(o, p).count_ones() as i32;
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    let mut xs = 0;
    for (c, x) in X {
        if (p | o) & c == 0 {
            xs += (p & x != 0) as i32 - (o & x != 0) as i32;
        }
    }
    10 * mob + 60 * corners - 25 * xs
}

/// Plays the self-play games and returns their positions (exact labels not yet set).
pub fn play_games(cfg: &TrainConfig) -> Vec<Sample> {
    let mut rng = SplitMix::new(cfg.self_play.seed);
    let mut out = Vec::new();
    for _ in 0..cfg.self_play.games {
        let random_plies = cfg.self_play.random_plies(&mut rng);
        let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let mut ply = 0;
        loop {
            let moves = moves8(p, o);
            if moves == 0 {
                if moves8(o, p) == 0 {
                    break;
                }
                (p, o) = (o, p);
                continue;
            }
            out.push(Sample {
                p,
                o,
                label: f32::NAN,
                exact: false,
            });
            let n = moves.count_ones() as u64;
            let x = if ply < random_plies || rng.unit() < cfg.self_play.epsilon {
                nth_bit(moves, rng.below(n))
            } else {
                // The best move by the shallow search; ties broken at random.
                let mut best = f32::NEG_INFINITY;
                let mut choice = moves.trailing_zeros();
                let mut ties = 0;
                let mut m = moves;
                while m != 0 {
                    let x = m.trailing_zeros();
                    m &= m - 1;
                    let (np, no) = endgame::play_square(p, o, x).expect("a legal move");
                    let leaf = |a: u64, b: u64| play_eval(a, b) as f32;
                    let v = -endgame::negamax(
                        no,
                        np,
                        cfg.play_depth.saturating_sub(1),
                        f32::NEG_INFINITY,
                        -best + 1.0,
                        &leaf,
                        1000.0,
                    );
                    if v > best {
                        best = v;
                        choice = x;
                        ties = 1;
                    } else if v == best {
                        ties += 1;
                        if rng.below(ties) == 0 {
                            choice = x;
                        }
                    }
                }
                choice
            };
            let (np, no) = endgame::play_square(p, o, x).expect("a legal move");
            (p, o) = (no, np);
            ply += 1;
        }
    }
    out
}

/// Gives every position with at most `exact_empties` empties its exact label.
pub fn label_exact(samples: &mut [Sample], exact_empties: u32) {
    let mut solver = Solver::new();
    for s in samples.iter_mut() {
        if s.empties() <= exact_empties {
            let sol = solver.solve(s.p, s.o).expect("no node limit");
            s.label = sol.margin as f32;
            s.exact = true;
        }
    }
}

/// The evaluation with float weights, in discs for `p`.
pub fn eval_f32(w: &[f32], p: u64, o: u64) -> f32 {
    let base = patterns::phase_of(64 - (p | o).count_ones()) * PHASE_SIZE;
    let (idx, sc) = patterns::features(p, o);
    let mut v = 0.0;
    for i in idx {
        v += w[base + i as usize];
    }
    for k in 0..NUM_SCALARS {
        v += sc[k] * w[base + OFFSETS[NUM_FAMILIES] + k];
    }
    v
}

/// For each weight of a phase, the weight that holds its value (symmetry ties; itself when untied).
pub fn tie_map() -> Vec<u32> {
    let mut map: Vec<u32> = (0..PHASE_SIZE as u32).collect();
    for f in 0..NUM_FAMILIES {
        for (local, rep) in Family::tie_groups(f).into_iter().enumerate() {
            map[OFFSETS[f] + local] = (OFFSETS[f] as u32) + rep;
        }
    }
    map
}

/// One position's inputs to the fit: the tied weights it uses (within a phase) and the scalars.
fn row(s: &Sample, tie: &[u32]) -> Row {
    let (idx, scalars) = patterns::features(s.p, s.o);
    Row {
        idx: idx.iter().map(|&i| tie[i as usize]).collect(),
        scalars: scalars.to_vec(),
        label: s.label,
    }
}

/// One phase's weights: the tables, then the scalars.
const SHAPE: Shape = Shape {
    phase_size: PHASE_SIZE,
    scalars_at: OFFSETS[NUM_FAMILIES],
};

/// Trains every phase, last first; `log` hears one line per phase. Returns the weights (float,
/// every tied entry filled in) and the reports.
pub fn train(
    cfg: &TrainConfig,
    samples: &mut [Sample],
    mut log: impl FnMut(&str),
) -> (Vec<f32>, Vec<FitReport>) {
    let tie = tie_map();
    let mut w = vec![0f32; TOTAL_WEIGHTS];
    let mut reports = Vec::new();
    for phase in 0..PHASES {
        let lo = phase as u32 * PHASE_WIDTH + 1;
        let hi = lo + PHASE_WIDTH - 1;
        // Label this phase's positions by a search into the phases already fitted.
        let mut searched = 0;
        for s in samples.iter_mut() {
            let e = s.empties();
            if (lo..=hi).contains(&e) && !s.exact {
                let leaf = |a: u64, b: u64| eval_f32(&w, a, b);
                s.label = endgame::negamax(
                    s.p,
                    s.o,
                    cfg.label_depth,
                    f32::NEG_INFINITY,
                    f32::INFINITY,
                    &leaf,
                    1.0,
                );
                searched += 1;
            }
        }
        // Fit on this phase and the two empties below it (smoother phase boundaries).
        let rows = samples
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                let e = s.empties();
                e + 2 >= lo && e <= hi && e >= 1 && s.label.is_finite()
            })
            .map(|(k, s)| (k, row(s, &tie)));
        let block = &mut w[phase * PHASE_SIZE..(phase + 1) * PHASE_SIZE];
        let rep = pattern_fit::fit_phase(
            SHAPE,
            block,
            &tie,
            rows,
            &cfg.self_play,
            NUM_PLACEMENTS + NUM_SCALARS,
        );
        log(&format!(
            "phase {phase:2} (empties {lo:2}-{hi:2}): {} rows ({} searched labels), {} held out; mse {:.1} -> {:.1} discs^2, held out {:.1} -> {:.1}",
            rep.rows, searched, rep.held_out, rep.before, rep.after, rep.held_before, rep.held_after
        ));
        reports.push(rep);
    }
    (w, reports)
}

/// Float weights (discs) to the shipped form (hundredths of a disc).
pub fn quantise(w: &[f32]) -> Vec<i16> {
    pattern_fit::quantise(w, patterns::PER_DISC)
}

/// The family names, for logs.
pub fn family_names() -> Vec<&'static str> {
    FAMILIES.iter().map(|f| f.name).collect()
}
