//! The training of the Ataxx `nnue` evaluator (`plyscope train-ataxx --model nnue`, docs/ataxx.md
//! "The `nnue` evaluator").
//!
//! **Data.** Positions of self-play games (`plyscope datagen-ataxx`, [`super::datagen`]), each
//! with the value of the search that played it and the game's result.
//!
//! **Target.** An expected result for the side to move: [`NnueTrainConfig::wdl`] of the game's
//! result (1 won, 0.5 drawn, 0 lost) and the rest the search's value through the sigmoid
//! `1 / (1 + e^(-v / scale))` ([`NnueTrainConfig::scale`] hundredths of a piece a logit; a value
//! that says the game is won counts 1).
//!
//! **Fit.** The network ([`super::nnue`]) in floats: its output is a logit; the loss is the squared
//! error between its sigmoid and the target. Minibatch Adam, the step falling from
//! [`NnueTrainConfig::lr`] to a twentieth of it along a cosine over the epochs. Each position is
//! seen in one of the board's 8 symmetric images, drawn anew every epoch (the windows have their
//! own weights, so the images teach the symmetry). Weights are kept within the range the integer
//! form holds. A share of the positions ([`NnueTrainConfig::held_out`]) is held out and its loss
//! reported every epoch. The minibatch's gradient is computed by [`NnueTrainConfig::threads`]
//! threads, each on its part; the result depends on the thread count only through the order of
//! floating-point sums.

use super::datagen::{Position, DECIDED};
use super::nnue::{
    active_rows, NnueWeights, INPUTS, MAX_HIDDEN, PHASE_BUCKETS, QA, QB, WINDOWS,
};
use super::patterns::{phase_of, symmetry};
use crate::games::pattern_fit::SplitMix;

/// The largest first-layer weight or bias (in units of a hidden unit's 1), and the largest output
/// weight: the integer form holds them (`1.98 * QB` < 127, and 37 first-layer terms of
/// `1.98 * QA` stay within `i16`).
pub const CLIP: f32 = 1.98;

/// The settings of a fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NnueTrainConfig {
    /// Hidden units (a multiple of 16 up to [`MAX_HIDDEN`]).
    pub hidden: usize,
    /// Output buckets: 1, or [`PHASE_BUCKETS`] (one per phase of 7 empty cells).
    pub buckets: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size at the start.
    pub lr: f32,
    /// The share of the game's result in the target (the rest is the search's value).
    pub wdl: f32,
    /// Hundredths of a piece per unit of logit, for the search's values and the network's output.
    pub scale: f32,
    /// The share of positions held out.
    pub held_out: f32,
    /// The seed of the initial weights, the held-out draw, the order and the symmetries.
    pub seed: u64,
    /// Threads computing each minibatch's gradient.
    pub threads: usize,
}

impl Default for NnueTrainConfig {
    fn default() -> Self {
        NnueTrainConfig {
            hidden: 128,
            buckets: 1,
            epochs: 20,
            batch: 16384,
            lr: 0.001,
            wdl: 0.5,
            scale: 200.0,
            held_out: 0.02,
            seed: 1,
            threads: 2,
        }
    }
}

impl NnueTrainConfig {
    /// The first setting out of range, as a sentence naming its command-line option, or `Ok`.
    pub fn check(&self) -> Result<(), String> {
        if self.hidden == 0 || self.hidden % 16 != 0 || self.hidden > MAX_HIDDEN {
            return Err(format!("--hidden must be a multiple of 16 up to {MAX_HIDDEN}"));
        }
        if !(self.buckets == 1 || self.buckets == PHASE_BUCKETS) {
            return Err(format!("--buckets must be 1 or {PHASE_BUCKETS}"));
        }
        if self.batch == 0 || self.epochs == 0 {
            return Err("--batch and --epochs must be 1 or more".into());
        }
        if !(self.lr > 0.0 && self.lr < 1.0) {
            return Err("--lr must be above 0 and below 1".into());
        }
        if !(0.0..=1.0).contains(&self.wdl) {
            return Err("--wdl must be a share from 0 to 1".into());
        }
        if !(self.scale >= 1.0 && self.scale <= 10_000.0) {
            return Err("--scale must be from 1 to 10000 hundredths of a piece".into());
        }
        if !(0.0..0.5).contains(&self.held_out) {
            return Err("--held-out must be a share from 0 to 0.5".into());
        }
        if !(1..=64).contains(&self.threads) {
            return Err("--threads must be from 1 to 64".into());
        }
        Ok(())
    }

    /// Whether `start` can begin this fit (`--init`): as many hidden units or fewer (the fit then
    /// widens it, [`NnueF32::widened`]), the same output buckets and scale; or a sentence naming
    /// the option that differs.
    pub fn check_start(&self, start: &NnueF32) -> Result<(), String> {
        if start.hidden > self.hidden {
            return Err(format!(
                "--hidden {}: the --init network has {} (a fit can widen a network, not narrow it)",
                self.hidden, start.hidden
            ));
        }
        if start.buckets != self.buckets {
            return Err(format!("--buckets {}: the --init network has {}", self.buckets, start.buckets));
        }
        if start.scale != self.scale {
            return Err(format!("--scale {}: the --init network has {}", self.scale, start.scale));
        }
        Ok(())
    }
}

/// A network in floats: the first layer in units of a hidden unit's 1, the output a logit.
#[derive(Debug, Clone, PartialEq)]
pub struct NnueF32 {
    /// Hidden units.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// Hundredths of a piece per unit of logit.
    pub scale: f32,
    /// First layer: [`INPUTS`] rows of `hidden`.
    pub w1: Vec<f32>,
    /// Hidden biases.
    pub b1: Vec<f32>,
    /// Output weights: `buckets` rows of `hidden`.
    pub w2: Vec<f32>,
    /// Output biases.
    pub b2: Vec<f32>,
    /// The material's weights (logit per piece).
    pub wm: Vec<f32>,
}

/// One position's inputs: the rows that are on, the material and the output bucket.
#[derive(Debug, Clone, Copy)]
struct Inputs {
    rows: [u16; WINDOWS],
    material: f32,
    bucket: usize,
}

/// The image of bitboard `b` under symmetry `s` (0 the identity).
fn image(s: usize, b: u64) -> u64 {
    if s == 0 {
        return b;
    }
    let mut out = 0u64;
    let mut rest = b;
    while rest != 0 {
        let x = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        out |= 1u64 << symmetry(s, x);
    }
    out
}

fn inputs(p: &Position, sym: usize, buckets: usize) -> Inputs {
    let (me, them, walls) = (image(sym, p.me), image(sym, p.them), image(sym, p.walls));
    let empties = 49 - (me | them | walls).count_ones();
    Inputs {
        rows: active_rows(me, them, walls),
        material: me.count_ones() as f32 - them.count_ones() as f32,
        bucket: if buckets == 1 { 0 } else { phase_of(empties) },
    }
}

#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The target of a position (an expected result for the side to move).
pub fn target(p: &Position, wdl: f32, scale: f32) -> f32 {
    let result = p.result as f32 / 2.0;
    let search = if p.score >= DECIDED {
        1.0
    } else if p.score <= -DECIDED {
        0.0
    } else {
        sigmoid(p.score as f32 / scale)
    };
    wdl * result + (1.0 - wdl) * search
}

impl NnueF32 {
    /// Random initial weights.
    pub fn random(hidden: usize, buckets: usize, scale: f32, seed: u64) -> Self {
        let mut rng = SplitMix::new(seed);
        let mut uniform = |a: f32| (rng.unit() as f32 * 2.0 - 1.0) * a;
        let w1 = (0..INPUTS * hidden).map(|_| uniform(0.1)).collect();
        let b1 = (0..hidden).map(|_| uniform(0.1)).collect();
        let a2 = 1.0 / (hidden as f32).sqrt();
        let w2 = (0..buckets * hidden).map(|_| uniform(a2)).collect();
        NnueF32 {
            hidden,
            buckets,
            scale,
            w1,
            b1,
            w2,
            b2: vec![0.0; buckets],
            wm: vec![100.0 / scale; buckets],
        }
    }

    /// This network with `like`'s shape: its own units first, then `like`'s units beyond them
    /// with their output weights at 0, so that the widened network computes the same values.
    /// A fit moves the new units' output weights first, then their first layer. `like` must have
    /// as many units or more, and the same buckets.
    pub fn widened(&self, like: &NnueF32) -> NnueF32 {
        let (h, w) = (self.hidden, like.hidden);
        assert!(w >= h && like.buckets == self.buckets, "widen {h} units to {w}");
        let mut out = like.clone();
        out.scale = self.scale;
        for r in 0..INPUTS {
            out.w1[r * w..r * w + h].copy_from_slice(&self.w1[r * h..(r + 1) * h]);
        }
        out.b1[..h].copy_from_slice(&self.b1);
        for b in 0..self.buckets {
            out.w2[b * w..(b + 1) * w].fill(0.0);
            out.w2[b * w..b * w + h].copy_from_slice(&self.w2[b * h..(b + 1) * h]);
        }
        out.b2.copy_from_slice(&self.b2);
        out.wm.copy_from_slice(&self.wm);
        out
    }

    /// The hidden accumulators of `x` into `acc`; returns the output logit.
    fn forward(&self, x: &Inputs, acc: &mut [f32]) -> f32 {
        let h = self.hidden;
        acc.copy_from_slice(&self.b1);
        for &r in &x.rows {
            let row = &self.w1[r as usize * h..(r as usize + 1) * h];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        let w2 = &self.w2[x.bucket * h..(x.bucket + 1) * h];
        let mut out = self.b2[x.bucket] + self.wm[x.bucket] * x.material;
        for (&a, &w) in acc.iter().zip(w2) {
            let c = a.clamp(0.0, 1.0);
            out += c * c * w;
        }
        out
    }

    /// The value of a position in hundredths of a piece for the side to move (floats).
    pub fn eval_cp(&self, p: &Position) -> f32 {
        let mut acc = vec![0.0; self.hidden];
        self.forward(&inputs(p, 0, self.buckets), &mut acc) * self.scale
    }

    /// The float form of integer weights (to fit further from them, or to check the integer
    /// arithmetic).
    pub fn from_weights(w: &NnueWeights) -> Self {
        let f = |x: i64, s: i32| x as f32 / s as f32;
        NnueF32 {
            hidden: w.hidden,
            buckets: w.buckets,
            scale: w.scale as f32,
            w1: w.w1.iter().map(|&x| f(x as i64, QA)).collect(),
            b1: w.b1.iter().map(|&x| f(x as i64, QA)).collect(),
            w2: w.w2.iter().map(|&x| f(x as i64, QB)).collect(),
            b2: w.b2.iter().map(|&x| f(x as i64, QA * QB)).collect(),
            wm: w.wm.iter().map(|&x| f(x as i64, QA * QB)).collect(),
        }
    }

    /// The integer form.
    pub fn quantise(&self) -> NnueWeights {
        let q = |x: f32, s: i32| (x * s as f32).round() as i64;
        let q16 = |x: f32, s: i32| q(x, s).clamp(i16::MIN as i64, i16::MAX as i64) as i16;
        let q32 = |x: f32, s: i32| q(x, s).clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        NnueWeights {
            hidden: self.hidden,
            buckets: self.buckets,
            scale: self.scale.round() as u32,
            w1: self.w1.iter().map(|&x| q16(x, QA)).collect(),
            b1: self.b1.iter().map(|&x| q16(x, QA)).collect(),
            w2: self.w2.iter().map(|&x| q16(x, QB)).collect(),
            b2: self.b2.iter().map(|&x| q32(x, QA * QB)).collect(),
            wm: self.wm.iter().map(|&x| q32(x, QA * QB)).collect(),
        }
    }
}

/// One thread's gradient buffers.
struct Grads {
    w1: Vec<f32>,
    /// Rows of `w1` with a gradient (each once), and a flag per row.
    touched: Vec<u32>,
    seen: Vec<bool>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    wm: Vec<f32>,
    loss: f64,
    acc: Vec<f32>,
    dacc: Vec<f32>,
}

impl Grads {
    fn new(h: usize, b: usize) -> Self {
        Grads {
            w1: vec![0.0; INPUTS * h],
            touched: Vec::new(),
            seen: vec![false; INPUTS],
            b1: vec![0.0; h],
            w2: vec![0.0; b * h],
            b2: vec![0.0; b],
            wm: vec![0.0; b],
            loss: 0.0,
            acc: vec![0.0; h],
            dacc: vec![0.0; h],
        }
    }

    fn clear(&mut self, h: usize) {
        for &r in &self.touched {
            self.w1[r as usize * h..(r as usize + 1) * h].fill(0.0);
            self.seen[r as usize] = false;
        }
        self.touched.clear();
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2.fill(0.0);
        self.wm.fill(0.0);
        self.loss = 0.0;
    }

    /// Adds the gradient of one position's loss, times `k`.
    fn add(&mut self, net: &NnueF32, x: &Inputs, t: f32, k: f32) {
        let h = net.hidden;
        let mut acc = std::mem::take(&mut self.acc);
        let z = net.forward(x, &mut acc);
        let p = sigmoid(z);
        let e = p - t;
        self.loss += (e * e) as f64;
        let g = 2.0 * e * p * (1.0 - p) * k;
        let b = x.bucket;
        self.b2[b] += g;
        self.wm[b] += g * x.material;
        let w2 = &net.w2[b * h..(b + 1) * h];
        let gw2 = &mut self.w2[b * h..(b + 1) * h];
        for j in 0..h {
            let a = acc[j];
            let c = a.clamp(0.0, 1.0);
            gw2[j] += g * c * c;
            self.dacc[j] = if a > 0.0 && a < 1.0 {
                g * w2[j] * 2.0 * a
            } else {
                0.0
            };
        }
        for (gb, &d) in self.b1.iter_mut().zip(&self.dacc) {
            *gb += d;
        }
        for &r in &x.rows {
            let r = r as usize;
            if !self.seen[r] {
                self.seen[r] = true;
                self.touched.push(r as u32);
            }
            for (gw, &d) in self.w1[r * h..(r + 1) * h].iter_mut().zip(&self.dacc) {
                *gw += d;
            }
        }
        self.acc = acc;
    }
}

/// Replaces each position's search value by `teacher`'s evaluation of it (`train-ataxx --teacher`),
/// so that the search part of the target becomes the teacher's: a fast network fitted to a wider,
/// slower one's values, or a measure of how much of another network a fit can learn. Values the
/// search proved (a won or lost game, [`DECIDED`] and beyond) are kept; the teacher's are rounded
/// and kept within them. Uses `threads` threads.
pub fn relabel_by(teacher: &NnueWeights, data: &mut [Position], threads: usize) {
    let per = data.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        for part in data.chunks_mut(per) {
            s.spawn(move || {
                for p in part {
                    // Compared, not `abs()`: any `i16` read from a file is safe here.
                    if p.score >= DECIDED || p.score <= -DECIDED {
                        continue;
                    }
                    let v = super::nnue::evaluate_with(teacher, p.me, p.them, p.walls, false, |_, _, _| {});
                    let limit = (DECIDED - 1) as f64;
                    p.score = v.round().clamp(-limit, limit) as i16;
                }
            });
        }
    });
}

/// Adam's moments for one block of weights.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Self {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One step on `w` with gradient `g`; `c1`, `c2` are the bias corrections; weights are kept
    /// within `clip`.
    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32, c1: f32, c2: f32, clip: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        for i in 0..w.len() {
            let gi = g[i];
            let m = B1 * self.m[i] + (1.0 - B1) * gi;
            let v = B2 * self.v[i] + (1.0 - B2) * gi * gi;
            self.m[i] = m;
            self.v[i] = v;
            w[i] = (w[i] - lr * (m / c1) / ((v / c2).sqrt() + 1e-8)).clamp(-clip, clip);
        }
    }
}

/// What a fit reports each epoch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: usize,
    /// The mean loss over the training positions in this epoch.
    pub train: f64,
    /// The mean loss over the held-out positions after it.
    pub held: f64,
    /// Seconds since the fit started.
    pub seconds: f64,
}

/// The mean loss of `net` over `data` (identity images).
pub fn loss(net: &NnueF32, data: &[&Position], wdl: f32, scale: f32) -> f64 {
    let mut acc = vec![0.0; net.hidden];
    let mut sum = 0.0;
    for p in data {
        let z = net.forward(&inputs(p, 0, net.buckets), &mut acc);
        let e = sigmoid(z) - target(p, wdl, scale);
        sum += (e * e) as f64;
    }
    sum / data.len().max(1) as f64
}

/// The mean loss of `net` over `data` (identity images, target as in [`loss`]) in each game
/// phase ([`phase_of`] the empty cells: phase 0 the fewest), with the number of positions in
/// each; a phase without positions reads 0.
pub fn loss_by_phase(
    net: &NnueF32,
    data: &[&Position],
    wdl: f32,
    scale: f32,
) -> [(f64, usize); PHASE_BUCKETS] {
    let mut acc = vec![0.0; net.hidden];
    let mut out = [(0.0, 0usize); PHASE_BUCKETS];
    for p in data {
        let x = inputs(p, 0, net.buckets);
        let z = net.forward(&x, &mut acc);
        let e = sigmoid(z) - target(p, wdl, scale);
        let phase = phase_of(49 - (p.me | p.them | p.walls).count_ones());
        out[phase].0 += (e * e) as f64;
        out[phase].1 += 1;
    }
    for o in out.iter_mut() {
        o.0 /= o.1.max(1) as f64;
    }
    out
}

/// Fits a network to `data`; `log` hears each epoch. The fit starts from `start` when given (to
/// fit further on new data), else from random weights. Returns the network and the held-out loss
/// of a constant prediction of the targets' mean (for scale).
///
/// # Panics
///
/// When `start` fails [`NnueTrainConfig::check_start`] (callers check first, as the CLI does).
pub fn train(
    cfg: &NnueTrainConfig,
    data: &[Position],
    start: Option<NnueF32>,
    mut log: impl FnMut(&EpochReport),
) -> (NnueF32, f64) {
    let started = std::time::Instant::now();
    let mut rng = SplitMix::new(cfg.seed);
    let (mut fit, mut held): (Vec<&Position>, Vec<&Position>) = (Vec::new(), Vec::new());
    for p in data {
        if (rng.unit() as f32) < cfg.held_out {
            held.push(p);
        } else {
            fit.push(p);
        }
    }
    let mean_target = fit
        .iter()
        .map(|p| target(p, cfg.wdl, cfg.scale) as f64)
        .sum::<f64>()
        / fit.len().max(1) as f64;
    let constant = held
        .iter()
        .map(|p| (target(p, cfg.wdl, cfg.scale) as f64 - mean_target).powi(2))
        .sum::<f64>()
        / held.len().max(1) as f64;
    let (h, b) = (cfg.hidden, cfg.buckets);
    let random = NnueF32::random(h, b, cfg.scale, rng.next());
    let mut net = match start {
        Some(n) => {
            if let Err(e) = cfg.check_start(&n) {
                panic!("{e}");
            }
            n.widened(&random)
        }
        None => random,
    };
    let mut grads: Vec<Grads> = (0..cfg.threads).map(|_| Grads::new(h, b)).collect();
    let (mut a1, mut ab1, mut a2, mut ab2, mut am) = (
        Adam::new(INPUTS * h),
        Adam::new(h),
        Adam::new(b * h),
        Adam::new(b),
        Adam::new(b),
    );
    let mut order: Vec<u32> = (0..fit.len() as u32).collect();
    let mut step = 0i32;
    let steps_per_epoch = fit.len().div_ceil(cfg.batch).max(1);
    let total_steps = (steps_per_epoch * cfg.epochs) as f32;
    for epoch in 1..=cfg.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let sym_seed = rng.next();
        let mut train_loss = 0.0;
        for chunk in order.chunks(cfg.batch) {
            let k = 1.0 / chunk.len() as f32;
            let per = chunk.len().div_ceil(cfg.threads);
            let net_ref = &net;
            let fit_ref = &fit;
            std::thread::scope(|s| {
                for (part, g) in chunk.chunks(per).zip(grads.iter_mut()) {
                    s.spawn(move || {
                        for &i in part {
                            let p = fit_ref[i as usize];
                            // The image: a hash of the position's index and the epoch's seed.
                            let mut z = SplitMix::new(sym_seed ^ (i as u64).wrapping_mul(0x9E37));
                            let sym = (z.next() & 7) as usize;
                            let x = inputs(p, sym, net_ref.buckets);
                            g.add(net_ref, &x, target(p, cfg.wdl, cfg.scale), k);
                        }
                    });
                }
            });
            // Sum the threads' gradients into the first.
            let (first, rest) = grads.split_at_mut(1);
            let g0 = &mut first[0];
            for g in rest.iter() {
                for &r in &g.touched {
                    let r = r as usize;
                    if !g0.seen[r] {
                        g0.seen[r] = true;
                        g0.touched.push(r as u32);
                    }
                    for (x, &y) in g0.w1[r * h..(r + 1) * h]
                        .iter_mut()
                        .zip(&g.w1[r * h..(r + 1) * h])
                    {
                        *x += y;
                    }
                }
                for (x, &y) in g0.b1.iter_mut().zip(&g.b1) {
                    *x += y;
                }
                for (x, &y) in g0.w2.iter_mut().zip(&g.w2) {
                    *x += y;
                }
                for (x, &y) in g0.b2.iter_mut().zip(&g.b2) {
                    *x += y;
                }
                for (x, &y) in g0.wm.iter_mut().zip(&g.wm) {
                    *x += y;
                }
                g0.loss += g.loss;
            }
            train_loss += g0.loss;
            step += 1;
            let progress = step as f32 / total_steps;
            let lr = cfg.lr * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            let (c1, c2) = (1.0 - 0.9f32.powi(step), 1.0 - 0.999f32.powi(step));
            a1.step(&mut net.w1, &g0.w1, lr, c1, c2, CLIP);
            ab1.step(&mut net.b1, &g0.b1, lr, c1, c2, CLIP);
            a2.step(&mut net.w2, &g0.w2, lr, c1, c2, CLIP);
            ab2.step(&mut net.b2, &g0.b2, lr, c1, c2, f32::MAX);
            am.step(&mut net.wm, &g0.wm, lr, c1, c2, f32::MAX);
            for g in grads.iter_mut() {
                g.clear(h);
            }
        }
        log(&EpochReport {
            epoch,
            train: train_loss / fit.len().max(1) as f64,
            held: loss(&net, &held, cfg.wdl, cfg.scale),
            seconds: started.elapsed().as_secs_f64(),
        });
    }
    (net, constant)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ataxx::nnue::evaluate_with;

    fn position(me: u64, them: u64, score: i16, result: u8) -> Position {
        Position {
            me,
            them,
            walls: 0,
            score,
            result,
            ply: 10,
        }
    }

    #[test]
    fn targets_blend_the_result_and_the_search() {
        let p = position(1, 2, 400, 2);
        assert!((target(&p, 1.0, 400.0) - 1.0).abs() < 1e-6);
        assert!((target(&p, 0.0, 400.0) - sigmoid(1.0)).abs() < 1e-6);
        assert!((target(&p, 0.5, 400.0) - (0.5 + 0.5 * sigmoid(1.0))).abs() < 1e-6);
        assert_eq!(target(&position(1, 2, DECIDED, 2), 0.0, 400.0), 1.0);
        assert_eq!(target(&position(1, 2, -DECIDED, 0), 0.0, 400.0), 0.0);
    }

    #[test]
    fn the_loss_by_phase_splits_the_loss_by_empty_cells() {
        // Positions with 43, 20, 3 and 3 empty cells fall in phases 6, 2, 0 and 0; each
        // phase's mean weighted by its count is the whole loss; an empty phase reads (0, 0).
        let net = NnueF32::random(16, PHASE_BUCKETS, 200.0, 5);
        let cells = |n: u32| (1u64 << n) - 1;
        let data = [
            position(cells(2), cells(4) << 2, 100, 2),
            position(cells(14), cells(15) << 14, -50, 0),
            position(cells(30), cells(16) << 30, 0, 1),
            position(cells(20), cells(26) << 20, 300, 2),
        ];
        let refs: Vec<&Position> = data.iter().collect();
        let by = loss_by_phase(&net, &refs, 0.5, 200.0);
        let counts: Vec<usize> = by.iter().map(|b| b.1).collect();
        assert_eq!(counts, vec![2, 0, 1, 0, 0, 0, 1]);
        assert_eq!(by[1], (0.0, 0));
        let whole: f64 = by.iter().map(|(l, n)| l * *n as f64).sum::<f64>() / 4.0;
        assert!((whole - loss(&net, &refs, 0.5, 200.0)).abs() < 1e-9);
        let alone = loss(&net, &refs[1..2], 0.5, 200.0);
        assert!((by[2].0 - alone).abs() < 1e-9 && alone > 0.0);
    }

    #[test]
    fn the_integer_network_agrees_with_the_float_one() {
        // The integer arithmetic against floats on the same (quantised) weights: they differ only
        // by the integer division of the hidden sum, under a hundredth of a piece. The rounding
        // of the weights themselves moves the value by a few hundredths at most.
        let net = NnueF32::random(32, PHASE_BUCKETS, 400.0, 9);
        let q = net.quantise();
        let back = NnueF32::from_weights(&q);
        assert_eq!(back.quantise(), q);
        let mut rng = SplitMix::new(3);
        for _ in 0..50 {
            let me = rng.next() & rng.next() & ((1 << 49) - 1);
            let them = rng.next() & rng.next() & !me & ((1 << 49) - 1);
            let p = position(me, them, 0, 1);
            let i = evaluate_with(&q, me, them, 0, false, |_, _, _| {});
            let exact = back.eval_cp(&p) as f64;
            assert!((exact - i).abs() < 0.1 + exact.abs() * 1e-5, "float {exact} integer {i}");
            let unrounded = net.eval_cp(&p) as f64;
            assert!((unrounded - i).abs() < 30.0, "float {unrounded} integer {i}");
        }
    }

    /// A position won by the side to move when `d` > 0, lost when `d` < 0, drawn at 0, with a
    /// search value of `per` hundredths of a piece for each unit of `d`.
    fn decided_by(me: u64, them: u64, d: i32, per: i32) -> Position {
        let result = if d > 0 { 2 } else if d < 0 { 0 } else { 1 };
        position(me, them, (d * per) as i16, result)
    }

    /// A small, quick fit for the tests.
    fn small_fit() -> NnueTrainConfig {
        NnueTrainConfig {
            hidden: 16,
            epochs: 8,
            batch: 256,
            lr: 0.01,
            held_out: 0.1,
            threads: 2,
            ..NnueTrainConfig::default()
        }
    }

    #[test]
    fn a_fit_learns_that_more_pieces_win() {
        // Positions where the side to move has more pieces won, fewer lost: the fit must rank
        // a position with more pieces above one with fewer, and lower the held-out loss below a
        // constant guess.
        let mut rng = SplitMix::new(7);
        let mut data = Vec::new();
        for _ in 0..4000 {
            let me = rng.next() & rng.next() & ((1 << 49) - 1);
            let them = rng.next() & rng.next() & !me & ((1 << 49) - 1);
            let d = me.count_ones() as i32 - them.count_ones() as i32;
            data.push(decided_by(me, them, d, 30));
        }
        let cfg = small_fit();
        let mut last = None;
        let (net, constant) = train(&cfg, &data, None, |r| last = Some(*r));
        let last = last.unwrap();
        assert!(last.held < constant * 0.5, "held out {} vs constant {constant}", last.held);
        let more = position(0b1111, 0b1_0000, 0, 1);
        let fewer = position(0b1, 0b1_1110, 0, 1);
        assert!(net.eval_cp(&more) > net.eval_cp(&fewer) + 50.0);
    }

    #[test]
    fn a_teacher_relabels_the_search_values_but_not_the_decided_ones() {
        let teacher = {
            let mut rng = SplitMix::new(9);
            NnueF32::random(16, PHASE_BUCKETS, 200.0, rng.next()).quantise()
        };
        let mut data = vec![
            position(0b111, 0b1 << 40, 17, 2),
            position(0b1 << 20, 0b11 << 30, -5, 0),
            position(0b1, 0b0, DECIDED + 3, 2),
            position(0b0, 0b1, -DECIDED, 0),
            position(0b0, 0b1, i16::MIN, 0),
        ];
        let before = data.clone();
        relabel_by(&teacher, &mut data, 3);
        for (a, b) in data.iter().zip(&before) {
            assert_eq!((a.me, a.them, a.walls, a.result, a.ply), (b.me, b.them, b.walls, b.result, b.ply));
            if b.score >= DECIDED || b.score <= -DECIDED {
                assert_eq!(a.score, b.score, "a proved value is kept");
            } else {
                let v = super::super::nnue::evaluate_with(&teacher, b.me, b.them, b.walls, false, |_, _, _| {});
                assert_eq!(a.score, v.round() as i16);
            }
        }
        // The teacher's values are not the search's: the first position's changed.
        assert_ne!(data[0].score, 17);
    }

    #[test]
    fn a_fit_can_start_from_a_network() {
        // One epoch at a tiny step barely moves the weights: started from a fitted network the
        // held-out loss stays near that network's, started from random weights it stays near a
        // constant guess. The result here is who holds more corners, which random weights (and
        // the piece count) know nothing of.
        let mut rng = SplitMix::new(11);
        let mut data = Vec::new();
        for _ in 0..3000 {
            let mut me = rng.next() & rng.next() & ((1 << 49) - 1);
            let mut them = rng.next() & rng.next() & !me & ((1 << 49) - 1);
            for c in [0, 6, 42, 48] {
                let bit = 1u64 << c;
                match rng.below(3) {
                    0 => (me, them) = (me | bit, them & !bit),
                    1 => (me, them) = (me & !bit, them | bit),
                    _ => (me, them) = (me & !bit, them & !bit),
                }
            }
            let corners = |b: u64| (b & 0x1_0400_0000_0041).count_ones() as i32;
            let d = corners(me) - corners(them);
            data.push(decided_by(me, them, d, 100));
        }
        let cfg = small_fit();
        let (fitted, constant) = train(&cfg, &data, None, |_| {});
        // Only a network of the fit's buckets and scale, and as many units or fewer, can start it.
        assert_eq!(cfg.check_start(&fitted), Ok(()));
        let wider = NnueTrainConfig { hidden: 32, ..cfg };
        assert_eq!(wider.check_start(&fitted), Ok(()));
        let wide = fitted.widened(&NnueF32::random(32, cfg.buckets, cfg.scale, 5));
        assert!(cfg.check_start(&wide).is_err(), "a fit does not narrow a network");
        assert!(NnueTrainConfig { buckets: PHASE_BUCKETS, ..cfg }.check_start(&fitted).is_err());
        assert!(NnueTrainConfig { scale: 400.0, ..cfg }.check_start(&fitted).is_err());
        let tiny = NnueTrainConfig { epochs: 1, lr: 1e-7, ..cfg };
        let mut from_fitted = None;
        train(&tiny, &data, Some(fitted.clone()), |r| from_fitted = Some(r.held));
        let mut from_random = None;
        train(&tiny, &data, None, |r| from_random = Some(r.held));
        let (a, b) = (from_fitted.unwrap(), from_random.unwrap());
        assert!(a < constant * 0.5, "from the fitted network {a}, constant {constant}");
        assert!(b > constant * 0.8, "from random weights {b}, constant {constant}");
        // Widened, the network says the same (its new units weigh nothing yet), and a fit
        // started from it at twice the units keeps its loss.
        assert_eq!(wide.hidden, 32);
        for p in data.iter().take(200) {
            let (x, y) = (fitted.eval_cp(p), wide.eval_cp(p));
            assert!((x - y).abs() < 1e-3 * (1.0 + x.abs()), "{x} widened to {y}");
        }
        assert!(wide.w1.iter().skip(16).take(16).any(|&w| w != 0.0), "new units start random");
        let mut from_widened = None;
        train(&NnueTrainConfig { hidden: 32, ..tiny }, &data, Some(fitted), |r| {
            from_widened = Some(r.held)
        });
        let c = from_widened.unwrap();
        assert!((c - a).abs() < 0.1 * a, "widened {c}, the fitted network {a}");
    }
}
