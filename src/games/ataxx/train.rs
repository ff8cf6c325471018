//! The training pipeline of the Ataxx `patterns` evaluator (`plyscope train-ataxx`,
//! docs/ataxx.md).
//!
//! 1. **Games.** Self-play on the open board: the first plies are random (a number drawn between
//!    [`SelfPlay::random_min`] and [`SelfPlay::random_max`]), then each side plays the best
//!    move of the engine's search to [`TrainConfig::depth`] plies with the `strong` evaluation
//!    (or [`TrainConfig::evaluator`]: a later generation searches with the last one's weights), or
//!    a random move with probability [`SelfPlay::epsilon`]. Every position before the end is
//!    kept.
//! 2. **Labels.** The search of each position (made for the move anyway) gives a value at every
//!    depth of its iterative deepening; the label is the mean of the last two (depths `depth - 1`
//!    and `depth`), which cancels most of the swing between odd and even depths, blended with the
//!    game's final piece margin by [`TrainConfig::final_share`]. Labels are in pieces for the side
//!    to move; where the search saw the game's end, the game's final margin.
//! 3. **The fit.** Per phase, least squares ([`pattern_fit::fit`]) on the phase's positions and
//!    those within 2 empty cells of it; weights that symmetry ties share one value. One position
//!    in ten is held out and its error reported.
//!
//! Everything runs on one thread and is deterministic from [`SelfPlay::seed`].

use super::eval::AtaxxEval;
use super::patterns::{
    self, phase_of, NUM_FAMILIES, NUM_PLACEMENTS, NUM_SCALARS, PHASES, PHASE_SIZE, PHASE_WIDTH,
    SCALARS_AT, TABLE, TOTAL_WEIGHTS,
};
use super::{Ataxx, AtaxxMove};
use crate::core::{Game, PlayerId};
use crate::games::pattern_fit::{self, FitReport, Row, SelfPlay, Shape, SplitMix};
use crate::search::{search, Completed, Hooks, SearchConfig};

/// Search values are kept within this many pieces (a won or lost game's is far beyond); a label
/// at the cap is replaced by the game's final margin.
pub const LABEL_CAP: f32 = 49.0;

/// The settings of a training run.
#[derive(Debug, Clone)]
pub struct TrainConfig {
    /// The settings every pattern trainer shares (seed, games, openings, fitting).
    pub self_play: SelfPlay,
    /// The depth of the search that plays and labels (2 or more).
    pub depth: u32,
    /// The evaluation of that search (`strong`; `patterns` for a further generation, with the
    /// weights [`patterns::weights`] gives).
    pub evaluator: AtaxxEval,
    /// The share of the game's final margin in a label (the rest is the search's value).
    pub final_share: f32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            self_play: SelfPlay {
                seed: 1,
                games: 2000,
                random_min: 2,
                random_max: 10,
                epsilon: 0.05,
                epochs: 150,
                shrink: 4.0,
            },
            depth: 4,
            evaluator: AtaxxEval::Strong,
            final_share: 0.0,
        }
    }
}

/// A training position: `me` to move against `them`, its search value and final margin (pieces,
/// for the side to move) and its label.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// The side to move's pieces.
    pub me: u64,
    /// The other side's pieces.
    pub them: u64,
    /// Walls.
    pub walls: u64,
    /// The mean of the search's values at its last two depths, in pieces.
    pub search: f32,
    /// The game's final margin for the side to move, in pieces.
    pub final_margin: f32,
    /// The label the fit uses.
    pub label: f32,
}

impl Sample {
    /// Empty cells.
    pub fn empties(&self) -> u32 {
        patterns::empties(self.me, self.them, self.walls)
    }
}

/// The search that plays and labels: fixed depth, one thread, deterministic from `seed`.
fn label_config(depth: u32, seed: u64) -> SearchConfig {
    SearchConfig {
        depth,
        iterative_deepening: true,
        threads: 1,
        tt_bits: 16,
        random_ties: true,
        seed: Some(seed),
        ..SearchConfig::default()
    }
}

/// Plays the self-play games and returns their labelled positions.
pub fn play_games(cfg: &TrainConfig) -> Vec<Sample> {
    let mut rng = SplitMix::new(cfg.self_play.seed);
    let mut out = Vec::new();
    let mut moves: Vec<AtaxxMove> = Vec::new();
    let depth = cfg.depth.max(2);
    for _ in 0..cfg.self_play.games {
        let random_plies = cfg.self_play.random_plies(&mut rng);
        let mut pos = Ataxx::new();
        let first = out.len();
        let mut movers: Vec<PlayerId> = Vec::new();
        let mut ply = 0;
        while !pos.is_over() {
            pos.legal_moves(&mut moves);
            let mover = pos.side_to_move();
            let mv = if ply < random_plies {
                moves[rng.below(moves.len() as u64) as usize]
            } else {
                let mut values: Vec<(u32, f64)> = Vec::new();
                let mut heard = |c: &Completed| values.push((c.depth, c.value));
                let hooks = Hooks {
                    completed: Some(&mut heard),
                    ..Default::default()
                };
                let r = search(&pos, &cfg.evaluator, &label_config(depth, rng.next()), hooks)
                    .expect("a position with a move searches");
                let tail: Vec<f64> = values.iter().rev().take(2).map(|v| v.1).collect();
                let mean = tail.iter().sum::<f64>() / tail.len().max(1) as f64;
                let pieces = (mean / patterns::PER_PIECE) as f32;
                out.push(Sample {
                    me: pos.pieces(mover),
                    them: pos.pieces(mover ^ 1),
                    walls: pos.walls(),
                    search: pieces.clamp(-LABEL_CAP, LABEL_CAP),
                    final_margin: 0.0,
                    label: f32::NAN,
                });
                movers.push(mover);
                if rng.unit() < cfg.self_play.epsilon {
                    moves[rng.below(moves.len() as u64) as usize]
                } else {
                    r.best.expect("a move")
                }
            };
            pos.play_unchecked(mv);
            ply += 1;
        }
        let margin = |p: PlayerId| {
            pos.pieces(p).count_ones() as f32 - pos.pieces(p ^ 1).count_ones() as f32
        };
        for (s, &p) in out[first..].iter_mut().zip(&movers) {
            s.final_margin = margin(p);
        }
        relabel(&mut out[first..], cfg.final_share);
    }
    out
}

/// Sets every sample's label from its search value and final margin: their blend with
/// `final_share` of the margin, or the margin alone where the search saw the game's end (a value
/// beyond any margin says who wins, not by how much).
pub fn relabel(samples: &mut [Sample], final_share: f32) {
    for s in samples {
        s.label = if s.search.abs() >= LABEL_CAP {
            s.final_margin
        } else {
            (1.0 - final_share) * s.search + final_share * s.final_margin
        };
    }
}

/// The evaluation with float weights, in pieces for the side to move.
pub fn eval_f32(w: &[f32], me: u64, them: u64, walls: u64) -> f32 {
    let base = phase_of(patterns::empties(me, them, walls)) * PHASE_SIZE;
    let (idx, sc) = patterns::features(me, them, walls);
    let mut v = 0.0;
    for i in idx {
        v += w[base + i as usize];
    }
    for k in 0..NUM_SCALARS {
        v += sc[k] * w[base + SCALARS_AT + k];
    }
    v
}

/// For each weight of a phase, the weight that holds its value (symmetry ties; itself when untied).
pub fn tie_map() -> Vec<u32> {
    let mut map: Vec<u32> = (0..PHASE_SIZE as u32).collect();
    for f in 0..NUM_FAMILIES {
        for (local, rep) in patterns::tie_groups(f).into_iter().enumerate() {
            map[f * TABLE + local] = (f * TABLE) as u32 + rep;
        }
    }
    map
}

/// One phase's weights: the tables, then the scalars.
const SHAPE: Shape = Shape {
    phase_size: PHASE_SIZE,
    scalars_at: SCALARS_AT,
};

/// One position's inputs to the fit.
fn row(s: &Sample, tie: &[u32]) -> Row {
    let (idx, scalars) = patterns::features(s.me, s.them, s.walls);
    Row {
        idx: idx.iter().map(|&i| tie[i as usize]).collect(),
        scalars: scalars.to_vec(),
        label: s.label,
    }
}

/// Fits every phase; `log` hears one line per phase. Returns the weights (float, every tied entry
/// filled in) and the reports.
pub fn train(
    cfg: &TrainConfig,
    samples: &[Sample],
    mut log: impl FnMut(&str),
) -> (Vec<f32>, Vec<FitReport>) {
    let tie = tie_map();
    let mut w = vec![0f32; TOTAL_WEIGHTS];
    let mut reports = Vec::new();
    for phase in 0..PHASES {
        let lo = phase as u32 * PHASE_WIDTH + 1;
        let hi = if phase + 1 == PHASES {
            u32::MAX - 2
        } else {
            lo + PHASE_WIDTH - 1
        };
        let rows = samples
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                let e = s.empties();
                e + 2 >= lo && e <= hi + 2 && s.label.is_finite()
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
            "phase {phase} (empties {lo}-{}): {} rows, {} held out; mse {:.2} -> {:.2} pieces^2, held out {:.2} -> {:.2}",
            hi.min(49),
            rep.rows,
            rep.held_out,
            rep.before,
            rep.after,
            rep.held_before,
            rep.held_after
        ));
        reports.push(rep);
    }
    (w, reports)
}

/// Float weights (pieces) to the shipped form (hundredths of a piece).
pub fn quantise(w: &[f32]) -> Vec<i16> {
    pattern_fit::quantise(w, patterns::PER_PIECE)
}
