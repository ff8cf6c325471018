//! What the trained pattern evaluators of several games share (Reversi's and Ataxx's `patterns`):
//! a seeded generator, the symmetry ties of a pattern's table, the least-squares fit of one game
//! phase's weights, their quantisation and the weights file.
//!
//! A pattern evaluation is linear: per game phase, a table for each pattern family (indexed by the
//! cells' states read as the digits of a number, the first cell most significant) summed over the
//! family's placements, then scalar terms times their weights. Nothing here knows a board.

/// A small deterministic generator (splitmix64).
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next() >> 32) * n) >> 32
    }
    /// A number in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The settings every pattern trainer shares: how its self-play games vary and how its phases are
/// fitted. Each game's training settings hold one, with that game's defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelfPlay {
    /// The seed of every random choice.
    pub seed: u64,
    /// Self-play games.
    pub games: usize,
    /// Fewest random plies at the start of a game.
    pub random_min: u32,
    /// Most random plies at the start of a game.
    pub random_max: u32,
    /// The share of later moves played at random.
    pub epsilon: f64,
    /// Gradient epochs per phase.
    pub epochs: usize,
    /// Regularisation: each weight's step divides its residual sum by (uses + this).
    pub shrink: f32,
}

impl SelfPlay {
    /// The first setting out of range, as a sentence naming its command-line option, or `Ok`.
    pub fn check(&self) -> Result<(), String> {
        if self.random_min > self.random_max {
            return Err("--random-min must not exceed --random-max".into());
        }
        if !(0.0..=1.0).contains(&self.epsilon) {
            return Err("--epsilon must be from 0 to 1".into());
        }
        if self.shrink.is_nan() || self.shrink < 0.0 {
            return Err("--shrink must be 0 or more".into());
        }
        Ok(())
    }

    /// How many random plies open the next game: from `random_min` to `random_max`, drawn from
    /// `rng`.
    pub fn random_plies(&self, rng: &mut SplitMix) -> u32 {
        let span = self.random_max.saturating_sub(self.random_min) as u64 + 1;
        self.random_min + rng.below(span) as u32
    }
}

/// Groups of table indices of one pattern family that must hold one value for the evaluation to
/// be symmetric: for each index, a representative (the smallest index of its group).
///
/// `places` are the family's placements (their cells, in digit order), `symmetries` how many
/// symmetries the board has, `image(s, cell)` where symmetry `s` sends a cell, and `base` the
/// states a cell has. A symmetry that maps one placement onto another may read the cells in another
/// order; the indices that differ only by such a reordering are tied.
pub fn tie_groups(
    places: &[&[u8]],
    symmetries: usize,
    image: impl Fn(usize, u8) -> u8,
    base: usize,
) -> Vec<u32> {
    let n = places.first().map_or(0, |p| p.len());
    let size = base.pow(n as u32);
    let set_of = |cells: &[u8]| cells.iter().fold(0u64, |a, &x| a | 1u64 << x);
    // Permutations of the digits: for every placement and every symmetry, where each cell of the
    // placement lands in the placement with the same cells.
    let mut perms: Vec<Vec<usize>> = Vec::new();
    for pl in places {
        for s in 0..symmetries {
            let img: Vec<u8> = pl.iter().map(|&x| image(s, x)).collect();
            let set = set_of(&img);
            let target = places
                .iter()
                .find(|q| set_of(q) == set)
                .expect("a symmetry maps a placement onto a placement");
            let perm: Vec<usize> = img
                .iter()
                .map(|x| target.iter().position(|y| y == x).unwrap())
                .collect();
            if !perms.contains(&perm) {
                perms.push(perm);
            }
        }
    }
    // Union-find over the indices.
    let mut parent: Vec<u32> = (0..size as u32).collect();
    fn root(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            parent[x as usize] = parent[parent[x as usize] as usize];
            x = parent[x as usize];
        }
        x
    }
    let mut digits = vec![0usize; n];
    let mut moved = vec![0usize; n];
    for t in 0..size {
        let mut v = t;
        for i in (0..n).rev() {
            digits[i] = v % base;
            v /= base;
        }
        for perm in &perms {
            for i in 0..n {
                moved[perm[i]] = digits[i];
            }
            let u = moved.iter().fold(0usize, |a, d| a * base + d);
            let (a, b) = (root(&mut parent, t as u32), root(&mut parent, u as u32));
            if a != b {
                let (lo, hi) = (a.min(b), a.max(b));
                parent[hi as usize] = lo;
            }
        }
    }
    (0..size as u32).map(|t| root(&mut parent, t)).collect()
}

/// Whether `set` (a placement's cells as a bit set) is among the first `n` of `sets`: the
/// compile-time pattern tables keep one placement per set of cells among a pattern's symmetric
/// images.
pub const fn seen_before(sets: &[u64], n: usize, set: u64) -> bool {
    let mut k = 0;
    while k < n {
        if sets[k] == set {
            return true;
        }
        k += 1;
    }
    false
}

/// One position's inputs to the fit: the (tied) table entries it uses within its phase, its scalar
/// terms (their weights follow the tables, from [`Shape::scalars_at`]) and its label.
#[derive(Debug, Clone)]
pub struct Row {
    /// Table entries, one per placement.
    pub idx: Vec<u32>,
    /// Scalar inputs.
    pub scalars: Vec<f32>,
    /// The value to fit.
    pub label: f32,
}

/// The layout of one phase's weights: the tables, then the scalars.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// Weights in a phase.
    pub phase_size: usize,
    /// Where the scalars' weights start.
    pub scalars_at: usize,
}

impl Shape {
    /// The value of a row under one phase's weights `w`.
    #[inline]
    fn value(&self, w: &[f32], r: &Row) -> f32 {
        let mut v = 0.0f32;
        for &i in &r.idx {
            v += w[i as usize];
        }
        for (k, x) in r.scalars.iter().enumerate() {
            v += x * w[self.scalars_at + k];
        }
        v
    }
}

/// The mean squared error of one phase's weights `w` on `rows`.
pub fn mse(shape: Shape, w: &[f32], rows: &[Row]) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    let mut e = 0.0f64;
    for r in rows {
        e += ((r.label - shape.value(w, r)) as f64).powi(2);
    }
    e / rows.len() as f64
}

/// What a fit did: mean squared errors (in the label's unit, squared) before and after on the
/// fitted and held-out rows.
#[derive(Debug, Clone, Copy, Default)]
pub struct FitReport {
    /// Rows fitted.
    pub rows: usize,
    /// Rows held out.
    pub held_out: usize,
    /// Error on the fitted rows before the fit.
    pub before: f64,
    /// Error on the fitted rows after.
    pub after: f64,
    /// Error on the held-out rows before.
    pub held_before: f64,
    /// Error on the held-out rows after.
    pub held_after: f64,
}

/// Fits one phase's weights `w` (length `shape.phase_size`, tied entries read through their
/// representative) to `train` by `epochs` steps: each weight moves by the sum of the residuals of
/// the rows that use it (times the input, for scalars) over (its uses + `shrink`), times a step
/// that halves whenever the error grows. `inputs` is how many weights a row moves at once (its
/// placements and scalars); the first step is 2 / `inputs`.
pub fn fit(
    shape: Shape,
    w: &mut [f32],
    train: &[Row],
    held: &[Row],
    epochs: usize,
    shrink: f32,
    inputs: usize,
) -> FitReport {
    let mut rep = FitReport {
        rows: train.len(),
        held_out: held.len(),
        before: mse(shape, w, train),
        held_before: mse(shape, w, held),
        ..FitReport::default()
    };
    let mut grad = vec![0f32; shape.phase_size];
    let mut count = vec![0f32; shape.phase_size];
    // Every row moves `inputs` weights at once: a step of about their inverse keeps the joint
    // update from overshooting.
    let mut step = 2.0 / inputs as f32;
    let mut last = rep.before;
    for _ in 0..epochs {
        grad.fill(0.0);
        count.fill(0.0);
        for r in train {
            let res = r.label - shape.value(w, r);
            for &i in &r.idx {
                grad[i as usize] += res;
                count[i as usize] += 1.0;
            }
            for (k, x) in r.scalars.iter().enumerate() {
                grad[shape.scalars_at + k] += res * x;
                count[shape.scalars_at + k] += x * x;
            }
        }
        let old: Vec<f32> = w.to_vec();
        for j in 0..shape.phase_size {
            if count[j] > 0.0 {
                w[j] += step * grad[j] / (count[j] + shrink);
            }
        }
        let now = mse(shape, w, train);
        if now > last {
            w.copy_from_slice(&old);
            step *= 0.5;
        } else {
            last = now;
        }
    }
    rep.after = mse(shape, w, train);
    rep.held_after = mse(shape, w, held);
    rep
}

/// Fits one phase's weights `block` to the rows `rows` yields, each with its sample's index: one
/// in ten (index 9, 19, ...) is held out, to report the error on positions the fit did not see;
/// the others are fitted ([`fit`], with `settings`' epochs and shrink). Tied entries then take
/// their representative's weight (`tie[j]`, from [`tie_groups`]).
pub fn fit_phase(
    shape: Shape,
    block: &mut [f32],
    tie: &[u32],
    rows: impl Iterator<Item = (usize, Row)>,
    settings: &SelfPlay,
    inputs: usize,
) -> FitReport {
    let (mut fit_rows, mut held_rows) = (Vec::new(), Vec::new());
    for (k, r) in rows {
        if k % 10 == 9 {
            held_rows.push(r);
        } else {
            fit_rows.push(r);
        }
    }
    let rep = fit(
        shape,
        block,
        &fit_rows,
        &held_rows,
        settings.epochs,
        settings.shrink,
        inputs,
    );
    for j in 0..block.len() {
        block[j] = block[tie[j] as usize];
    }
    rep
}

/// Float weights to the shipped form: `per_unit` hundredths (or whatever the evaluator's unit is)
/// per unit of the label, rounded, kept within `i16`.
pub fn quantise(w: &[f32], per_unit: f64) -> Vec<i16> {
    w.iter()
        .map(|&x| (x * per_unit as f32).round().clamp(-32767.0, 32767.0) as i16)
        .collect()
}

/// In a weights file, a run of zeros: this value, then the run's length as a `u16`.
const ZERO_RUN: i16 = i16::MIN;

/// A weights file: the 8-byte `magic`, `phases` and the weights per phase as `u32`s
/// (little-endian), then the weights as `i16`, runs of zeros written as a marker and a length.
pub fn encode(magic: &[u8; 8], phases: usize, phase_size: usize, w: &[i16]) -> Vec<u8> {
    let mut out = magic.to_vec();
    out.extend((phases as u32).to_le_bytes());
    out.extend((phase_size as u32).to_le_bytes());
    let mut i = 0;
    while i < w.len() {
        if w[i] == 0 {
            let mut n = 0;
            while i < w.len() && w[i] == 0 && n < u16::MAX as usize {
                n += 1;
                i += 1;
            }
            out.extend(ZERO_RUN.to_le_bytes());
            out.extend((n as u16).to_le_bytes());
        } else {
            out.extend(w[i].max(ZERO_RUN + 1).to_le_bytes());
            i += 1;
        }
    }
    out
}

/// Reads a weights file written by [`encode`] with the same `magic` and dimensions; an error says
/// what is wrong.
pub fn decode(
    magic: &[u8; 8],
    phases: usize,
    phase_size: usize,
    bytes: &[u8],
) -> Result<Vec<i16>, String> {
    if bytes.len() < 16 || &bytes[..8] != magic {
        return Err(format!(
            "not a plyscope patterns file ({})",
            String::from_utf8_lossy(magic)
        ));
    }
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap()) as usize;
    let (got_phases, size) = (u32_at(8), u32_at(12));
    if got_phases != phases || size != phase_size {
        return Err(format!(
            "patterns file has {got_phases} phases of {size} weights; expected {phases} of {phase_size}"
        ));
    }
    let total = phases * phase_size;
    let mut w = Vec::with_capacity(total);
    let mut i = 16;
    while i + 2 <= bytes.len() {
        let v = i16::from_le_bytes([bytes[i], bytes[i + 1]]);
        i += 2;
        if v == ZERO_RUN {
            if i + 2 > bytes.len() {
                return Err(format!("zero run cut short at byte {i}"));
            }
            let n = u16::from_le_bytes([bytes[i], bytes[i + 1]]) as usize;
            i += 2;
            w.resize(w.len() + n, 0);
        } else {
            w.push(v);
        }
        if w.len() > total {
            return Err(format!("more than {total} weights"));
        }
    }
    if i != bytes.len() || w.len() != total {
        return Err(format!(
            "patterns file holds {} weights; expected {total}",
            w.len()
        ));
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> SelfPlay {
        SelfPlay {
            seed: 3,
            games: 10,
            random_min: 2,
            random_max: 6,
            epsilon: 0.1,
            epochs: 5,
            shrink: 4.0,
        }
    }

    #[test]
    fn check_names_the_option_out_of_range() {
        assert_eq!(settings().check(), Ok(()));
        let bad = |f: fn(&mut SelfPlay)| {
            let mut s = settings();
            f(&mut s);
            s.check().unwrap_err()
        };
        assert!(bad(|s| s.random_min = 7).contains("--random-min"));
        assert!(bad(|s| s.epsilon = 1.5).contains("--epsilon"));
        assert!(bad(|s| s.epsilon = f64::NAN).contains("--epsilon"));
        assert!(bad(|s| s.shrink = -0.5).contains("--shrink"));
        assert!(bad(|s| s.shrink = f32::NAN).contains("--shrink"));
    }

    #[test]
    fn random_plies_cover_the_range_and_no_more() {
        let s = settings();
        let mut rng = SplitMix::new(s.seed);
        let mut seen = [0u32; 10];
        for _ in 0..500 {
            seen[s.random_plies(&mut rng) as usize] += 1;
        }
        assert_eq!(&seen[..2], &[0, 0]);
        assert!(seen[2..=6].iter().all(|&n| n > 50), "{seen:?}");
        assert_eq!(&seen[7..], &[0, 0, 0]);
        let fixed = SelfPlay {
            random_min: 4,
            random_max: 4,
            ..s
        };
        assert_eq!(fixed.random_plies(&mut rng), 4);
    }
}
