//! The `net` evaluator for Ataxx: a small trained network over the 36 overlapping 2x2 windows of
//! the 7x7 board (docs/ataxx.md, "Session 19: a network evaluation").
//!
//! **Inputs.** Each window reads its four cells as the `patterns` evaluator does (a base-4 number:
//! empty, a piece of the side to move, one of the other side, a wall; [`patterns::window_indices`])
//! and switches on one input row: its family's row for that state, where the states that the
//! board's 8 symmetries map onto each other share one row ([`patterns::tie_groups`]), so a
//! position and its 8 images have one value. One more row says the game phase (the phase of
//! [`patterns::phase_of`]). So 37 rows are on, out of [`INPUTS`].
//!
//! **Hidden layer.** The sum of the rows that are on and a bias, per hidden unit, clipped to
//! [0, 1] (a clipped ReLU; [`ONE`] is 1 in the integer form).
//!
//! **Output.** Per phase, a weighted sum of the hidden units, a bias, and the first
//! [`NET_SCALARS`] scalar terms of `patterns` times their weights (material, mobility, exposed
//! pieces, holes, the best capture of each side and the parity: [`patterns::scalars`]; a linear
//! skip that the windows alone learn slowly), in hundredths of a piece for the side to move: the
//! unit of `patterns`, so the search's margins keep their meaning.
//!
//! Inference is in integers (weights `i16`, sums `i32`) and allocates nothing; the accumulator is
//! recomputed from the 37 rows at each call. The weights ship in `net.bin` (made by `plyscope
//! train-ataxx --model net`), held in the binary by `include_bytes!` and read once, on first use.

use super::patterns::{
    self, phase_of, NUM_FAMILIES, NUM_PLACEMENTS, PHASES, PLACEMENTS, SCALAR_NAMES, TABLE,
};
use std::fmt;
use std::sync::OnceLock;

/// Input rows: a table of [`TABLE`] rows per window family, then one row per phase.
pub const INPUTS: usize = NUM_FAMILIES * TABLE + PHASES;
/// Rows on in every position: one per window and the phase's.
pub const ACTIVE_ROWS: usize = NUM_PLACEMENTS + 1;
/// The value 1 of a hidden unit (its clip) in the integer form; first-layer weights are in
/// these units.
pub const ONE: i32 = 512;
/// The scalars' weights are in this many parts of a hundredth of a piece (a scalar such as the
/// material reaches 49: whole hundredths would round its weight too coarsely).
pub const SCALAR_ONE: i32 = 16;
/// The most hidden units a weights file may have.
pub const MAX_HIDDEN: usize = 128;
/// The weights file's first bytes.
pub const MAGIC: &[u8; 8] = b"PLYATXN1";
/// The names of the explorer's terms besides the scalars: the hidden units' weighted sum and the
/// phase's bias.
pub const TERM_NAMES: [&str; 2] = ["network", "network bias"];
/// The scalar terms of `patterns` the output reads directly: all but its constant (`tempo`, which
/// the phase's bias is).
pub const NET_SCALARS: usize = 7;

/// A network's weights in their integer form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetWeights {
    /// Hidden units (1 to [`MAX_HIDDEN`]).
    pub hidden: usize,
    /// First layer: [`INPUTS`] rows of `hidden` weights, in units of [`ONE`].
    pub w1: Vec<i16>,
    /// The hidden units' biases, in units of [`ONE`].
    pub b1: Vec<i16>,
    /// Output weights: [`PHASES`] rows of `hidden`, hundredths of a piece per unit activation.
    pub w2: Vec<i16>,
    /// Output biases, one per phase, in hundredths of a piece.
    pub b2: Vec<i16>,
    /// The scalars' weights: [`PHASES`] rows of [`NET_SCALARS`], in [`SCALAR_ONE`]ths of a
    /// hundredth of a piece per unit.
    pub w3: Vec<i16>,
}

/// Why a weights file does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// The file does not start with [`MAGIC`] and a header (20 bytes).
    NotNet,
    /// The header's dimensions are not this evaluator's: what it says and what was expected.
    Dimensions {
        /// Hidden units in the file.
        hidden: u32,
        /// Input rows in the file.
        inputs: u32,
        /// Phases in the file.
        phases: u32,
        /// Scalar terms in the file.
        scalars: u32,
    },
    /// The file's length does not match its header.
    Length {
        /// The length the header implies.
        expected: usize,
        /// The file's length.
        found: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::NotNet => write!(
                f,
                "not an Ataxx network file (expected it to start with {} and a 16-byte header)",
                String::from_utf8_lossy(MAGIC)
            ),
            NetError::Dimensions {
                hidden,
                inputs,
                phases,
                scalars,
            } => write!(
                f,
                "network file has {hidden} hidden units, {inputs} inputs, {phases} phases and \
                 {scalars} scalars; expected 1 to {MAX_HIDDEN} hidden units, {INPUTS} inputs, \
                 {PHASES} phases and {NET_SCALARS} scalars"
            ),
            NetError::Length { expected, found } => write!(
                f,
                "network file is {found} bytes; its header says {expected}"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// Bytes of a weights file's header: the magic and four `u32`s.
pub const HEADER: usize = 24;

/// Bytes of a weights file with `hidden` units.
pub fn file_len(hidden: usize) -> usize {
    HEADER + 2 * (INPUTS * hidden + hidden + PHASES * hidden + PHASES + PHASES * NET_SCALARS)
}

impl NetWeights {
    /// All-zero weights with `hidden` units (a network that says 0 everywhere).
    pub fn zeros(hidden: usize) -> Self {
        NetWeights {
            hidden,
            w1: vec![0; INPUTS * hidden],
            b1: vec![0; hidden],
            w2: vec![0; PHASES * hidden],
            b2: vec![0; PHASES],
            w3: vec![0; PHASES * NET_SCALARS],
        }
    }

    /// The weights file: [`MAGIC`], the hidden units, inputs, phases and scalars (`u32` each),
    /// then `w1`, `b1`, `w2`, `b2` and `w3` as `i16`, all little-endian.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len(self.hidden));
        out.extend_from_slice(MAGIC);
        for n in [self.hidden, INPUTS, PHASES, NET_SCALARS] {
            out.extend((n as u32).to_le_bytes());
        }
        for v in [&self.w1, &self.b1, &self.w2, &self.b2, &self.w3] {
            for x in v.iter() {
                out.extend(x.to_le_bytes());
            }
        }
        out
    }

    /// Reads a weights file written by [`NetWeights::encode`].
    pub fn decode(bytes: &[u8]) -> Result<Self, NetError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(NetError::NotNet);
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let (hidden, inputs, phases, scalars) = (u32_at(8), u32_at(12), u32_at(16), u32_at(20));
        if hidden == 0
            || hidden as usize > MAX_HIDDEN
            || inputs as usize != INPUTS
            || phases as usize != PHASES
            || scalars as usize != NET_SCALARS
        {
            return Err(NetError::Dimensions {
                hidden,
                inputs,
                phases,
                scalars,
            });
        }
        let h = hidden as usize;
        let expected = file_len(h);
        if bytes.len() != expected {
            return Err(NetError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let mut at = HEADER;
        let mut take = |n: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        Ok(NetWeights {
            hidden: h,
            w1: take(INPUTS * h),
            b1: take(h),
            w2: take(PHASES * h),
            b2: take(PHASES),
            w3: take(PHASES * NET_SCALARS),
        })
    }
}

/// For each family and window state, the input row of its symmetry group.
fn rows_table() -> &'static [[u16; TABLE]; NUM_FAMILIES] {
    static T: OnceLock<[[u16; TABLE]; NUM_FAMILIES]> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = [[0u16; TABLE]; NUM_FAMILIES];
        for (f, row) in t.iter_mut().enumerate() {
            for (i, rep) in patterns::tie_groups(f).into_iter().enumerate() {
                row[i] = (f * TABLE) as u16 + rep as u16;
            }
        }
        t
    })
}

/// The input rows that are on for `me` to move against `them` (walls `walls`): one per window,
/// then the phase's row.
#[inline(always)]
pub fn active_rows(me: u64, them: u64, walls: u64) -> [u16; ACTIVE_ROWS] {
    let table = rows_table();
    let idx = patterns::window_indices(me, them, walls);
    let mut out = [0u16; ACTIVE_ROWS];
    for k in 0..NUM_PLACEMENTS {
        out[k] = table[PLACEMENTS[k].0 as usize][idx[k] as usize];
    }
    let phase = phase_of(patterns::empties(me, them, walls));
    out[NUM_PLACEMENTS] = (NUM_FAMILIES * TABLE + phase) as u16;
    out
}

/// The hidden units' weighted sum for the phase `phase`, in hundredths of a piece times [`ONE`],
/// with `H` hidden units. The hidden sums are `i16`, added with saturation (a weights file whose
/// rows add beyond the `i16` range gives a clipped value, not an error).
#[inline(always)]
fn hidden_sum<const H: usize>(net: &NetWeights, rows: &[u16; ACTIVE_ROWS], phase: usize) -> i32 {
    let mut acc: [i16; H] = net.b1[..H].try_into().expect("H biases");
    for &r in rows {
        let w: &[i16; H] = net.w1[r as usize * H..(r as usize + 1) * H]
            .try_into()
            .expect("a row of H weights");
        for j in 0..H {
            acc[j] = acc[j].saturating_add(w[j]);
        }
    }
    let w2: &[i16; H] = net.w2[phase * H..(phase + 1) * H]
        .try_into()
        .expect("H output weights");
    let mut sum = 0i32;
    for j in 0..H {
        sum += acc[j].clamp(0, ONE as i16) as i32 * w2[j] as i32;
    }
    sum
}

/// [`hidden_sum`] for any number of hidden units.
fn hidden_sum_any(net: &NetWeights, rows: &[u16; ACTIVE_ROWS], phase: usize) -> i32 {
    let h = net.hidden;
    let mut acc = [0i16; MAX_HIDDEN];
    let acc = &mut acc[..h];
    acc.copy_from_slice(&net.b1);
    for &r in rows {
        let w = &net.w1[r as usize * h..(r as usize + 1) * h];
        for (a, &x) in acc.iter_mut().zip(w) {
            *a = a.saturating_add(x);
        }
    }
    let w2 = &net.w2[phase * h..(phase + 1) * h];
    let mut sum = 0i32;
    for (a, &v) in acc.iter().zip(w2) {
        sum += (*a).clamp(0, ONE as i16) as i32 * v as i32;
    }
    sum
}

/// The evaluation of `me` to move against `them` by `net`, in hundredths of a piece for the side
/// to move (a multiple of 1/[`ONE`], exact in `f64`). When `terms` is set (a constant at every call, so the plain path does no work for
/// them), `term` hears the hidden units' weighted sum ("network") and the phase's bias ("network
/// bias"), each with weight 1, and each scalar term with its weight: they add up to the value.
#[inline(always)]
pub fn evaluate_with(
    net: &NetWeights,
    me: u64,
    them: u64,
    walls: u64,
    terms: bool,
    mut term: impl FnMut(&'static str, f64, f64),
) -> f64 {
    let rows = active_rows(me, them, walls);
    let phase = (rows[NUM_PLACEMENTS] as usize) - NUM_FAMILIES * TABLE;
    // Fixed sizes let the compiler unroll and vectorise the sums; any other size takes the
    // general path, with the same arithmetic.
    let sum = match net.hidden {
        16 => hidden_sum::<16>(net, &rows, phase),
        32 => hidden_sum::<32>(net, &rows, phase),
        64 => hidden_sum::<64>(net, &rows, phase),
        _ => hidden_sum_any(net, &rows, phase),
    };
    let hidden = sum as f64 / ONE as f64;
    let bias = net.b2[phase] as f64;
    if terms {
        term(TERM_NAMES[0], hidden, 1.0);
        term(TERM_NAMES[1], bias, 1.0);
    }
    let sc = patterns::scalars(me, them, walls);
    let w3 = &net.w3[phase * NET_SCALARS..(phase + 1) * NET_SCALARS];
    let mut linear = 0i32;
    for k in 0..NET_SCALARS {
        linear += sc[k] as i32 * w3[k] as i32;
        if terms {
            term(SCALAR_NAMES[k], sc[k] as f64, w3[k] as f64 / SCALAR_ONE as f64);
        }
    }
    hidden + bias + linear as f64 / SCALAR_ONE as f64
}

/// The shipped weights, as written by the trainer.
static SHIPPED: &[u8] = include_bytes!("net.bin");

/// The weights shipped in the binary.
pub fn shipped() -> &'static NetWeights {
    static W: OnceLock<NetWeights> = OnceLock::new();
    W.get_or_init(|| NetWeights::decode(SHIPPED).expect("the shipped ataxx net.bin is well formed"))
}

/// The weights `net` evaluates with, read on first use: the shipped ones or, natively, the file
/// the environment variable `PLYSCOPE_ATAXX_NET` names (for trying a training run without
/// rebuilding). A file that does not read is an error saying which file and why; choosing the
/// evaluator by name ([`super::AtaxxEval::by_name`]) reports it.
pub fn weights() -> Result<&'static NetWeights, String> {
    static W: OnceLock<Result<NetWeights, String>> = OnceLock::new();
    let loaded = W.get_or_init(|| {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(path) = std::env::var_os("PLYSCOPE_ATAXX_NET") {
            let bytes = std::fs::read(&path)
                .map_err(|e| format!("PLYSCOPE_ATAXX_NET={}: {e}", path.to_string_lossy()))?;
            return NetWeights::decode(&bytes)
                .map_err(|e| format!("PLYSCOPE_ATAXX_NET={}: {e}", path.to_string_lossy()));
        }
        Ok(shipped().clone())
    });
    loaded.as_ref().map_err(Clone::clone)
}
