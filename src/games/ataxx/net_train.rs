//! The training of the Ataxx `net` evaluator (`plyscope train-ataxx --model net`,
//! docs/ataxx.md "Session 19: a network evaluation").
//!
//! The positions and labels are the `patterns` pipeline's ([`super::train::play_games`]: self-play,
//! each position labelled by the mean of the search's last two depths, or the final margin where
//! the search saw the end). The network ([`super::net`]) is fitted to them in floats by minibatch
//! Adam on the squared error in pieces, then rounded to its integer form. One position in ten is
//! held out and its error reported per phase.
//!
//! The inputs are tied by symmetry (each window state's row is shared by its 8 images), so a
//! position and its 8 images have the same inputs: augmenting the data with them would add copies,
//! not information, and is not done.
//!
//! Everything runs on one thread and is deterministic from [`NetTrainConfig::seed`].

use super::net::{active_rows, NetWeights, ACTIVE_ROWS, INPUTS, MAX_HIDDEN, NET_SCALARS, ONE};
use super::patterns::{self, NUM_FAMILIES, PHASES, TABLE};
use super::train::Sample;
use crate::games::pattern_fit::SplitMix;

/// The float network's output is this many pieces per unit: its output weights stay near 1.
pub const OUT_SCALE: f32 = 10.0;

/// The settings of a network fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NetTrainConfig {
    /// Hidden units (1 to [`MAX_HIDDEN`]).
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size at the start; it falls linearly to a tenth of it at the last epoch.
    pub lr: f32,
    /// The seed of the initial weights and of the order of the positions.
    pub seed: u64,
    /// 0: fit the labels in pieces (squared error). Above 0: fit them as expected results, the
    /// squared error between `1 / (1 + e^(-v / sigmoid))` of the output and of the label (a
    /// margin of `sigmoid` pieces is worth 73 %): large margins, near the end, weigh less.
    pub sigmoid: f32,
}

impl Default for NetTrainConfig {
    fn default() -> Self {
        NetTrainConfig {
            hidden: 32,
            epochs: 30,
            batch: 256,
            lr: 0.002,
            seed: 1,
            sigmoid: 0.0,
        }
    }
}

impl NetTrainConfig {
    /// The first setting out of range, as a sentence naming its command-line option, or `Ok`.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_HIDDEN).contains(&self.hidden) {
            return Err(format!("--hidden must be from 1 to {MAX_HIDDEN}"));
        }
        if self.batch == 0 {
            return Err("--batch must be 1 or more".into());
        }
        if !(self.lr > 0.0 && self.lr < 1.0) {
            return Err("--lr must be above 0 and below 1".into());
        }
        if !(self.sigmoid >= 0.0 && self.sigmoid <= 100.0) {
            return Err("--sigmoid must be from 0 (off) to 100 pieces".into());
        }
        Ok(())
    }
}

/// A network in floats: hidden activations from 0 to 1, output in units of [`OUT_SCALE`] pieces.
#[derive(Debug, Clone, PartialEq)]
pub struct NetF32 {
    /// Hidden units.
    pub hidden: usize,
    /// First layer: [`INPUTS`] rows of `hidden`.
    pub w1: Vec<f32>,
    /// Hidden biases.
    pub b1: Vec<f32>,
    /// Output weights: [`PHASES`] rows of `hidden`.
    pub w2: Vec<f32>,
    /// Output biases, one per phase.
    pub b2: Vec<f32>,
    /// The scalars' weights: [`PHASES`] rows of [`NET_SCALARS`].
    pub w3: Vec<f32>,
}

/// One training position: its input rows, its scalars and its label in pieces.
#[derive(Debug, Clone, Copy)]
pub struct NetRow {
    /// The rows that are on ([`active_rows`]); the last is the phase's.
    pub rows: [u16; ACTIVE_ROWS],
    /// The scalar terms the output reads ([`patterns::scalars`], the first [`NET_SCALARS`]).
    pub scalars: [f32; NET_SCALARS],
    /// The value to fit, in pieces for the side to move.
    pub label: f32,
}

impl NetRow {
    /// The row of a labelled position.
    pub fn of(s: &Sample) -> Self {
        let sc = patterns::scalars(s.me, s.them, s.walls);
        let mut scalars = [0f32; NET_SCALARS];
        scalars.copy_from_slice(&sc[..NET_SCALARS]);
        NetRow {
            rows: active_rows(s.me, s.them, s.walls),
            scalars,
            label: s.label,
        }
    }

    /// The position's phase.
    pub fn phase(&self) -> usize {
        self.rows[ACTIVE_ROWS - 1] as usize - NUM_FAMILIES * TABLE
    }
}

impl NetF32 {
    /// Small random weights from `seed`, every hidden unit starting inside its clip.
    pub fn random(hidden: usize, seed: u64) -> Self {
        let mut rng = SplitMix::new(seed);
        let mut uniform = |r: f32| (rng.unit() as f32 * 2.0 - 1.0) * r;
        let r1 = 0.5 / (ACTIVE_ROWS as f32).sqrt();
        let w1 = (0..INPUTS * hidden).map(|_| uniform(r1)).collect();
        let r2 = 1.0 / (hidden as f32).sqrt();
        let w2 = (0..PHASES * hidden).map(|_| uniform(r2)).collect();
        NetF32 {
            hidden,
            w1,
            b1: vec![0.5; hidden],
            w2,
            b2: vec![0.0; PHASES],
            w3: vec![0.0; PHASES * NET_SCALARS],
        }
    }

    /// The hidden units' sums before the clip, into `acc` (length `hidden`).
    #[inline]
    fn hidden_sums(&self, rows: &[u16; ACTIVE_ROWS], acc: &mut [f32]) {
        let h = self.hidden;
        acc.copy_from_slice(&self.b1);
        for &r in rows {
            let w = &self.w1[r as usize * h..(r as usize + 1) * h];
            for (a, &x) in acc.iter_mut().zip(w) {
                *a += x;
            }
        }
    }

    /// The value of a position, in pieces for the side to move.
    pub fn eval(&self, row: &NetRow) -> f32 {
        let mut acc = [0f32; MAX_HIDDEN];
        let acc = &mut acc[..self.hidden];
        self.hidden_sums(&row.rows, acc);
        let p = row.phase();
        let w2 = &self.w2[p * self.hidden..(p + 1) * self.hidden];
        let s: f32 = acc.iter().zip(w2).map(|(a, w)| a.clamp(0.0, 1.0) * w).sum();
        (s + self.b2[p] + self.linear(row, p)) * OUT_SCALE
    }

    /// The scalars' part of the output (before [`OUT_SCALE`]).
    #[inline]
    fn linear(&self, row: &NetRow, phase: usize) -> f32 {
        let w3 = &self.w3[phase * NET_SCALARS..(phase + 1) * NET_SCALARS];
        row.scalars.iter().zip(w3).map(|(x, w)| x * w).sum()
    }

    /// The integer form the evaluator uses (each weight rounded, kept within `i16`).
    pub fn quantise(&self) -> NetWeights {
        let q = |v: &[f32], scale: f32| -> Vec<i16> {
            v.iter()
                .map(|&x| (x * scale).round().clamp(-32767.0, 32767.0) as i16)
                .collect()
        };
        let out = OUT_SCALE * super::patterns::PER_PIECE as f32;
        NetWeights {
            hidden: self.hidden,
            w1: q(&self.w1, ONE as f32),
            b1: q(&self.b1, ONE as f32),
            w2: q(&self.w2, out),
            b2: q(&self.b2, out),
            w3: q(&self.w3, out * super::net::SCALAR_ONE as f32),
        }
    }
}

/// The mean squared error (pieces²) of `net` on `rows`, over all and per phase.
pub fn errors(net: &NetF32, rows: &[NetRow]) -> (f64, [f64; PHASES]) {
    let (mut sum, mut per, mut n) = (0f64, [0f64; PHASES], [0usize; PHASES]);
    for r in rows {
        let e = ((r.label - net.eval(r)) as f64).powi(2);
        sum += e;
        per[r.phase()] += e;
        n[r.phase()] += 1;
    }
    for p in 0..PHASES {
        per[p] /= n[p].max(1) as f64;
    }
    (sum / rows.len().max(1) as f64, per)
}

/// What a fit did: errors (pieces²) before (every weight as initialised) and after, per phase on
/// the held-out positions.
#[derive(Debug, Clone, Default)]
pub struct NetReport {
    /// Positions fitted.
    pub rows: usize,
    /// Positions held out.
    pub held_out: usize,
    /// Error on the fitted positions before and after.
    pub train: (f64, f64),
    /// Error on the held-out positions before and after.
    pub held: (f64, f64),
    /// Held-out error per phase after the fit.
    pub held_by_phase: [f64; PHASES],
    /// Held-out error per phase of a network that says 0 everywhere (the labels' spread).
    pub held_zero_by_phase: [f64; PHASES],
    /// Held-out positions per phase.
    pub held_count: [usize; PHASES],
}

/// Adam's moments for one block of weights.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Self {
        Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One Adam step of `w` along the gradient `g` (which it clears), with bias corrections `c1`,
    /// `c2` and step size `lr`.
    fn step(&mut self, w: &mut [f32], g: &mut [f32], lr: f32, c1: f32, c2: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        for i in 0..w.len() {
            let gi = g[i];
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * gi;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * gi * gi;
            w[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
            g[i] = 0.0;
        }
    }
}

/// Fits a network to `samples` (labels that are not finite are left out); `log` hears a line per
/// epoch. One position in ten (index 9, 19, ...) is held out.
pub fn train(
    cfg: &NetTrainConfig,
    samples: &[Sample],
    mut log: impl FnMut(&str),
) -> (NetF32, NetReport) {
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    for (k, s) in samples.iter().enumerate() {
        if !s.label.is_finite() {
            continue;
        }
        if k % 10 == 9 {
            held.push(NetRow::of(s));
        } else {
            fit.push(NetRow::of(s));
        }
    }
    fit_rows(cfg, &mut fit, &held, &mut log)
}

/// Fits a network to `fit` (shuffled in place) and reports its error on `held` as well.
pub fn fit_rows(
    cfg: &NetTrainConfig,
    fit: &mut [NetRow],
    held: &[NetRow],
    log: &mut impl FnMut(&str),
) -> (NetF32, NetReport) {
    let h = cfg.hidden;
    let mut net = NetF32::random(h, cfg.seed);
    let mut rng = SplitMix::new(cfg.seed ^ 0x005e_ed0f_0de4);
    let zero = NetF32 {
        w2: vec![0.0; PHASES * h],
        w3: vec![0.0; PHASES * NET_SCALARS],
        ..net.clone()
    };
    let mut rep = NetReport {
        rows: fit.len(),
        held_out: held.len(),
        train: (errors(&net, fit).0, 0.0),
        held: (errors(&net, held).0, 0.0),
        held_zero_by_phase: errors(&zero, held).1,
        ..NetReport::default()
    };
    for r in held {
        rep.held_count[r.phase()] += 1;
    }
    let (mut g1, mut gb1, mut g2, mut gb2, mut g3) = (
        vec![0f32; INPUTS * h],
        vec![0f32; h],
        vec![0f32; PHASES * h],
        vec![0f32; PHASES],
        vec![0f32; PHASES * NET_SCALARS],
    );
    let (mut m1, mut mb1, mut m2, mut mb2, mut m3) = (
        Moments::new(INPUTS * h),
        Moments::new(h),
        Moments::new(PHASES * h),
        Moments::new(PHASES),
        Moments::new(PHASES * NET_SCALARS),
    );
    let mut acc = vec![0f32; h];
    let mut da = vec![0f32; h];
    let mut t = 0i32;
    for epoch in 0..cfg.epochs {
        // Fisher-Yates from the seed.
        for i in (1..fit.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            fit.swap(i, j);
        }
        let frac = epoch as f32 / cfg.epochs.max(1) as f32;
        let lr = cfg.lr * (1.0 - 0.9 * frac);
        let mut loss = 0f64;
        for batch in fit.chunks(cfg.batch) {
            let scale = 2.0 / batch.len() as f32;
            for r in batch {
                net.hidden_sums(&r.rows, &mut acc);
                let p = r.phase();
                let w2 = &net.w2[p * h..(p + 1) * h];
                let mut s = net.b2[p] + net.linear(r, p);
                for (a, w) in acc.iter().zip(w2) {
                    s += a.clamp(0.0, 1.0) * w;
                }
                let out = s * OUT_SCALE;
                // d(err²)/ds, in units of the float output.
                let d = if cfg.sigmoid > 0.0 {
                    let k = cfg.sigmoid;
                    let p = 1.0 / (1.0 + (-out / k).exp());
                    let q = 1.0 / (1.0 + (-r.label / k).exp());
                    loss += ((p - q) as f64).powi(2);
                    scale * (p - q) * p * (1.0 - p) * OUT_SCALE / k
                } else {
                    let err = out - r.label;
                    loss += (err as f64).powi(2);
                    scale * err * OUT_SCALE
                };
                gb2[p] += d;
                for (k, x) in r.scalars.iter().enumerate() {
                    g3[p * NET_SCALARS + k] += d * x;
                }
                for j in 0..h {
                    let a = acc[j];
                    g2[p * h + j] += d * a.clamp(0.0, 1.0);
                    da[j] = if a > 0.0 && a < 1.0 { d * w2[j] } else { 0.0 };
                    gb1[j] += da[j];
                }
                for &row in &r.rows {
                    let g = &mut g1[row as usize * h..(row as usize + 1) * h];
                    for (gj, dj) in g.iter_mut().zip(&da) {
                        *gj += dj;
                    }
                }
            }
            t += 1;
            let c1 = 1.0 - 0.9f32.powi(t);
            let c2 = 1.0 - 0.999f32.powi(t);
            m1.step(&mut net.w1, &mut g1, lr, c1, c2);
            mb1.step(&mut net.b1, &mut gb1, lr, c1, c2);
            m2.step(&mut net.w2, &mut g2, lr, c1, c2);
            mb2.step(&mut net.b2, &mut gb2, lr, c1, c2);
            m3.step(&mut net.w3, &mut g3, lr, c1, c2);
        }
        let what = if cfg.sigmoid > 0.0 {
            "train loss (expected results)"
        } else {
            "train mse"
        };
        log(&format!(
            "epoch {}: {what} {:.4}, held out {:.3} pieces^2",
            epoch + 1,
            loss / fit.len().max(1) as f64,
            errors(&net, held).0
        ));
    }
    rep.train.1 = errors(&net, fit).0;
    let (after, by_phase) = errors(&net, held);
    rep.held.1 = after;
    rep.held_by_phase = by_phase;
    (net, rep)
}
