//! The `nnue` evaluator for Ataxx: a network over every 2x2 window of the board with its own
//! weights, trained on the engine's self-play games (docs/ataxx.md, "The `nnue` evaluator").
//!
//! **Inputs.** Each of the 36 overlapping 2x2 windows reads its four cells (the window's lower-left
//! cell, the one to its right, the one above, the one above-right) as a base-4 number: 0 empty, 1
//! a piece of the side to move, 2 one of the other side, 3 a wall. Window `w` in state `s` switches
//! on input row `w * 256 + s`: 9,216 rows, 36 of them on in every position. Unlike `net`, no two
//! windows share weights: the network can tell a corner from the centre by itself, and symmetric
//! images of the training positions teach it the board's symmetry.
//!
//! **Hidden layer.** The sum of the rows that are on and a bias, per hidden unit, clipped to
//! [0, 1] and squared (a squared clipped ReLU).
//!
//! **Output.** Per output bucket (the game phase, when the file has [`PHASE_BUCKETS`] of them), a
//! weighted sum of the hidden units, a bias and the material (the side to move's pieces less the
//! other side's) times a weight: a logit of the expected result, times [`NnueWeights::scale`] to
//! read in hundredths of a piece like every Ataxx evaluator. The explorer's breakdown lists
//! `material` and `network` (the rest); they add up to the value.
//!
//! Inference is in integers: the first layer in [`QA`]ths (`i16`, so a hidden unit's 1 is
//! [`QA`]), the output weights in [`QB`]ths, sums in `i32`; nothing is allocated. The accumulator
//! is made from the 36 rows, or, on x86-64 with AVX2, from the last position of the same side
//! to move that the thread summed, when few windows differ (`nnue_reuse`). The weights ship in
//! `nnue.bin` (made by `plyscope train-ataxx --model nnue` from `plyscope datagen-ataxx` data),
//! held in the binary by `include_bytes!` and read once, on first use.

use super::patterns::phase_of;
use std::fmt;
use std::sync::OnceLock;

/// Windows on the board (6 x 6).
pub const WINDOWS: usize = 36;
/// States of a window (4 cells of 4 states).
pub const STATES: usize = 256;
/// Input rows.
pub const INPUTS: usize = WINDOWS * STATES;
/// A hidden unit's 1 in the integer form (first-layer weights and biases are in these units).
pub const QA: i32 = 255;
/// The output weights' 1 in the integer form.
pub const QB: i32 = 64;
/// The most hidden units a weights file may have.
pub const MAX_HIDDEN: usize = 1024;
/// Output buckets when the output changes with the game phase (one per phase of 7 empty cells).
pub const PHASE_BUCKETS: usize = 7;
/// The weights file's first bytes.
pub const MAGIC: &[u8; 8] = b"PLYATXNU";
/// Bytes of a weights file's header: the magic and four `u32`s (hidden units, inputs, output
/// buckets, scale).
pub const HEADER: usize = 24;
/// The names of the explorer's terms.
pub const TERM_NAMES: [&str; 2] = ["material", "network"];

/// A network's weights in their integer form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NnueWeights {
    /// Hidden units (a multiple of 16, up to [`MAX_HIDDEN`]).
    pub hidden: usize,
    /// Output buckets: 1, or [`PHASE_BUCKETS`] (the output changes with the phase).
    pub buckets: usize,
    /// Hundredths of a piece per unit of the output's logit.
    pub scale: u32,
    /// First layer: [`INPUTS`] rows of `hidden` weights, in [`QA`]ths.
    pub w1: Vec<i16>,
    /// The hidden units' biases, in [`QA`]ths.
    pub b1: Vec<i16>,
    /// Output weights: `buckets` rows of `hidden`, in [`QB`]ths.
    pub w2: Vec<i16>,
    /// Output biases, one per bucket, in `QA * QB`ths of a logit.
    pub b2: Vec<i32>,
    /// The material's weight, one per bucket, in `QA * QB`ths of a logit per piece.
    pub wm: Vec<i32>,
}

/// Why a weights file does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NnueError {
    /// The file does not start with [`MAGIC`] and a header ([`HEADER`] bytes).
    NotNnue,
    /// The header's dimensions are not this evaluator's.
    Dimensions {
        /// Hidden units in the file.
        hidden: u32,
        /// Input rows in the file.
        inputs: u32,
        /// Output buckets in the file.
        buckets: u32,
        /// The scale in the file.
        scale: u32,
    },
    /// The file's length does not match its header.
    Length {
        /// The length the header implies.
        expected: usize,
        /// The file's length.
        found: usize,
    },
}

impl fmt::Display for NnueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NnueError::NotNnue => write!(
                f,
                "not an Ataxx nnue file (expected it to start with {} and a {}-byte header)",
                String::from_utf8_lossy(MAGIC),
                HEADER - MAGIC.len()
            ),
            NnueError::Dimensions {
                hidden,
                inputs,
                buckets,
                scale,
            } => write!(
                f,
                "nnue file has {hidden} hidden units, {inputs} inputs, {buckets} output buckets \
                 and scale {scale}; expected a multiple of 16 up to {MAX_HIDDEN} hidden units, \
                 {INPUTS} inputs, 1 or {PHASE_BUCKETS} buckets and a scale from 1 to 10000"
            ),
            NnueError::Length { expected, found } => {
                write!(f, "nnue file is {found} bytes; its header says {expected}")
            }
        }
    }
}

impl std::error::Error for NnueError {}

/// Bytes of a weights file with `hidden` units and `buckets` output buckets.
pub fn file_len(hidden: usize, buckets: usize) -> usize {
    HEADER + 2 * (INPUTS * hidden + hidden + buckets * hidden) + 4 * (2 * buckets)
}

impl NnueWeights {
    /// All-zero weights (a network that says 0 everywhere).
    pub fn zeros(hidden: usize, buckets: usize, scale: u32) -> Self {
        NnueWeights {
            hidden,
            buckets,
            scale,
            w1: vec![0; INPUTS * hidden],
            b1: vec![0; hidden],
            w2: vec![0; buckets * hidden],
            b2: vec![0; buckets],
            wm: vec![0; buckets],
        }
    }

    /// The weights file: [`MAGIC`], the hidden units, inputs, buckets and scale (`u32` each),
    /// then `w1`, `b1`, `w2` as `i16` and `b2`, `wm` as `i32`, all little-endian.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len(self.hidden, self.buckets));
        out.extend_from_slice(MAGIC);
        for n in [self.hidden as u32, INPUTS as u32, self.buckets as u32, self.scale] {
            out.extend(n.to_le_bytes());
        }
        for v in [&self.w1, &self.b1, &self.w2] {
            for x in v.iter() {
                out.extend(x.to_le_bytes());
            }
        }
        for v in [&self.b2, &self.wm] {
            for x in v.iter() {
                out.extend(x.to_le_bytes());
            }
        }
        out
    }

    /// Reads a weights file written by [`NnueWeights::encode`].
    pub fn decode(bytes: &[u8]) -> Result<Self, NnueError> {
        if bytes.len() < HEADER || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NnueError::NotNnue);
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let (hidden, inputs, buckets, scale) = (u32_at(8), u32_at(12), u32_at(16), u32_at(20));
        if hidden == 0
            || hidden % 16 != 0
            || hidden as usize > MAX_HIDDEN
            || inputs as usize != INPUTS
            || !(buckets == 1 || buckets as usize == PHASE_BUCKETS)
            || !(1..=10_000).contains(&scale)
        {
            return Err(NnueError::Dimensions {
                hidden,
                inputs,
                buckets,
                scale,
            });
        }
        let (h, b) = (hidden as usize, buckets as usize);
        let expected = file_len(h, b);
        if bytes.len() != expected {
            return Err(NnueError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let mut at = HEADER;
        let mut take16 = |n: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let w1 = take16(INPUTS * h);
        let b1 = take16(h);
        let w2 = take16(b * h);
        let mut at = HEADER + 2 * (INPUTS * h + h + b * h);
        let mut take32 = |n: usize| -> Vec<i32> {
            let v = bytes[at..at + 4 * n]
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            at += 4 * n;
            v
        };
        let b2 = take32(b);
        let wm = take32(b);
        Ok(NnueWeights {
            hidden: h,
            buckets: b,
            scale,
            w1,
            b1,
            w2,
            b2,
            wm,
        })
    }

    /// The output bucket of a position with `empties` empty cells.
    #[inline(always)]
    pub fn bucket(&self, empties: u32) -> usize {
        if self.buckets == 1 {
            0
        } else {
            phase_of(empties)
        }
    }
}

/// For a 4-bit mask of a window's cells (bit 0 the lower-left cell, 1 the one to its right, 2 the
/// one above, 3 above-right), the base-4 number with a 1 in each set cell's digit.
pub(super) const SPREAD: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut m = 0;
    while m < 16 {
        let mut v = 0u16;
        let mut k = 0;
        while k < 4 {
            if m & (1 << k) != 0 {
                v += 1 << (2 * k);
            }
            k += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

/// The 4-bit mask of the cells of `b` in the window whose lower-left cell is `c`.
#[inline(always)]
pub(super) fn nibble(b: u64, c: u32) -> usize {
    let x = b >> c;
    ((x & 3) | ((x >> 5) & 12)) as usize
}

/// For the 4-bit masks of the side to move's cells (low nibble) and the other side's (high nibble)
/// in a window, the window's state without walls: [`SPREAD`] of the first plus twice that of the
/// second.
pub(super) const PAIR: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = SPREAD[i & 15] + 2 * SPREAD[i >> 4];
        i += 1;
    }
    t
};

/// Each window's lower-left cell (`rank * 7 + file`), window `w` at rank `w / 6`, file `w % 6`.
const CORNERS: [u8; WINDOWS] = {
    let mut t = [0u8; WINDOWS];
    let mut w = 0;
    while w < WINDOWS {
        t[w] = (w / 6 * 7 + w % 6) as u8;
        w += 1;
    }
    t
};

/// The input row that is on for each window, `me` to move against `them`: window `w` (lower-left
/// cell at rank `w / 6`, file `w % 6`) in its state.
#[inline(always)]
pub fn active_rows(me: u64, them: u64, walls: u64) -> [u16; WINDOWS] {
    // A cell holds one thing (a valid position's do already): every state is then below
    // `STATES`, and every row below `INPUTS`, which the AVX2 sum relies on.
    let them = them & !me;
    let walls = walls & !(me | them);
    let mut out = [0u16; WINDOWS];
    for (w, o) in out.iter_mut().enumerate() {
        let c = CORNERS[w] as u32;
        *o = (w * STATES) as u16 + PAIR[nibble(me, c) | nibble(them, c) << 4];
    }
    if walls != 0 {
        for (w, o) in out.iter_mut().enumerate() {
            *o += 3 * SPREAD[nibble(walls, CORNERS[w] as u32)];
        }
    }
    out
}

/// The hidden layer's output sum (before the division by [`QA`]) for `H` hidden units and bucket
/// `bucket`: each unit's accumulator (bias and rows), clipped to [0, QA] and squared, times its
/// output weight.
#[inline(always)]
fn output_sum<const H: usize>(net: &NnueWeights, rows: &[u16; WINDOWS], bucket: usize) -> i64 {
    let mut acc: [i16; H] = net.b1[..H].try_into().expect("H biases");
    for &r in rows {
        let w: &[i16; H] = net.w1[r as usize * H..(r as usize + 1) * H]
            .try_into()
            .expect("a row of H weights");
        for j in 0..H {
            acc[j] = acc[j].wrapping_add(w[j]);
        }
    }
    let w2: &[i16; H] = net.w2[bucket * H..(bucket + 1) * H]
        .try_into()
        .expect("H output weights");
    // (clip * w2) fits an i16 (|w2| <= 127 by the trainer's clipping; larger weights wrap, never
    // panic) and times clip an i32; each of 16 lanes sums H / 16 of them.
    let mut lanes = [0i32; 16];
    for k in 0..H / 16 {
        for l in 0..16 {
            let j = k * 16 + l;
            let c = acc[j].clamp(0, QA as i16);
            lanes[l] += c as i32 * c.wrapping_mul(w2[j]) as i32;
        }
    }
    lanes.iter().map(|&x| x as i64).sum()
}

/// [`output_sum`] for any number of hidden units.
pub(super) fn output_sum_any(net: &NnueWeights, rows: &[u16; WINDOWS], bucket: usize) -> i64 {
    let h = net.hidden;
    let mut acc = [0i16; MAX_HIDDEN];
    let acc = &mut acc[..h];
    acc.copy_from_slice(&net.b1);
    for &r in rows {
        let w = &net.w1[r as usize * h..(r as usize + 1) * h];
        for (a, &x) in acc.iter_mut().zip(w) {
            *a = a.wrapping_add(x);
        }
    }
    let w2 = &net.w2[bucket * h..(bucket + 1) * h];
    let mut sum = 0i64;
    for (a, &v) in acc.iter().zip(w2) {
        let c = (*a).clamp(0, QA as i16) as i32;
        sum += (c * ((c * v as i32) as i16 as i32)) as i64;
    }
    sum
}

/// [`output_sum`] at the sizes with fixed-size code, else [`output_sum_any`].
#[inline(always)]
fn output_sum_sized(net: &NnueWeights, rows: &[u16; WINDOWS], bucket: usize) -> i64 {
    match net.hidden {
        64 => output_sum::<64>(net, rows, bucket),
        128 => output_sum::<128>(net, rows, bucket),
        256 => output_sum::<256>(net, rows, bucket),
        _ => output_sum_any(net, rows, bucket),
    }
}

/// The 64 cells of `b` as bytes (cell `i` in byte `i`): `digit` where the cell is set, else 0.
///
/// # Safety
///
/// The processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn cell_bytes_avx2(b: u64, digit: i8) -> [std::arch::x86_64::__m256i; 2] {
    use std::arch::x86_64::*;
    // Byte j of each half takes the half's byte j / 8, then keeps bit j % 8.
    let spread = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, //
        2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
    );
    let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
    let d = _mm256_set1_epi8(digit);
    let half = |x: u32| {
        let v = _mm256_shuffle_epi8(_mm256_set1_epi32(x as i32), spread);
        _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit), d)
    };
    [half(b as u32), half((b >> 32) as u32)]
}

/// [`active_rows`] in AVX2: every cell's digit as a byte, then each cell's window state (its
/// digit, the next cell's times 4, the cells above times 16 and 64) in one pass of 64 bytes,
/// instead of two 4-bit masks a window (about 650 instructions a call, against 120 here).
///
/// # Safety
///
/// The processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn active_rows_avx2(me: u64, them: u64, walls: u64) -> [u16; WINDOWS] {
    use std::arch::x86_64::*;
    let them = them & !me;
    let walls = walls & !(me | them);
    let (m, t, w) = (
        cell_bytes_avx2(me, 1),
        cell_bytes_avx2(them, 2),
        cell_bytes_avx2(walls, 3),
    );
    // Digits of cells 0..63, then zeros (cells past the board's last are empty here).
    let mut digits = [0u8; 96];
    for k in 0..2 {
        let d = _mm256_or_si256(_mm256_or_si256(m[k], t[k]), w[k]);
        _mm256_storeu_si256(digits.as_mut_ptr().add(32 * k) as *mut __m256i, d);
    }
    let mut states = [0u8; 64];
    for k in 0..2 {
        let at = |o: usize| _mm256_loadu_si256(digits.as_ptr().add(32 * k + o) as *const __m256i);
        // Digits are at most 3 and each shift at most 6: no bit crosses into the next byte.
        let s = _mm256_or_si256(
            _mm256_or_si256(at(0), _mm256_slli_epi16(at(1), 2)),
            _mm256_or_si256(_mm256_slli_epi16(at(7), 4), _mm256_slli_epi16(at(8), 6)),
        );
        _mm256_storeu_si256(states.as_mut_ptr().add(32 * k) as *mut __m256i, s);
    }
    let mut out = [0u16; WINDOWS];
    for (w, o) in out.iter_mut().enumerate() {
        *o = (w * STATES) as u16 + states[CORNERS[w] as usize] as u16;
    }
    out
}

/// `N` registers of 16 hidden units from unit `base` on, in AVX2: their accumulators stay in
/// registers while the 36 rows are added (and are stored to `store` from unit `base` on, unless
/// it is null), then go through [`output_block_avx2`].
///
/// # Safety
///
/// The processor has AVX2; `base + 16 * N <= net.hidden`; every row is below [`INPUTS`] and
/// `bucket` below `net.buckets` (the weights' lengths are checked by [`NnueWeights::decode`] and
/// [`NnueWeights::zeros`]); `store` is null or holds `net.hidden` units.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn hidden_block_avx2<const N: usize>(
    net: &NnueWeights,
    rows: &[u16; WINDOWS],
    bucket: usize,
    base: usize,
    store: *mut i16,
    total: &mut std::arch::x86_64::__m256i,
) {
    use std::arch::x86_64::*;
    let h = net.hidden;
    let mut acc = [_mm256_setzero_si256(); N];
    for (k, a) in acc.iter_mut().enumerate() {
        *a = _mm256_loadu_si256(net.b1.as_ptr().add(base + 16 * k) as *const __m256i);
    }
    for &r in rows {
        let row = net.w1.as_ptr().add(r as usize * h + base);
        for (k, a) in acc.iter_mut().enumerate() {
            *a = _mm256_add_epi16(*a, _mm256_loadu_si256(row.add(16 * k) as *const __m256i));
        }
    }
    if !store.is_null() {
        for (k, a) in acc.iter().enumerate() {
            _mm256_storeu_si256(store.add(base + 16 * k) as *mut __m256i, *a);
        }
    }
    output_block_avx2(net, &acc, bucket, base, total);
}

/// `N` registers of accumulators (hidden units `base` on) clipped, squared and weighted as in
/// [`output_sum`], the products added, in pairs, to the 8 `i32` lanes of `total`.
///
/// # Safety
///
/// The processor has AVX2; `base + 16 * N <= net.hidden`; `bucket` below `net.buckets`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn output_block_avx2<const N: usize>(
    net: &NnueWeights,
    acc: &[std::arch::x86_64::__m256i; N],
    bucket: usize,
    base: usize,
    total: &mut std::arch::x86_64::__m256i,
) {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let w2 = net.w2.as_ptr().add(bucket * net.hidden + base);
    for (k, a) in acc.iter().enumerate() {
        let c = _mm256_min_epi16(_mm256_max_epi16(*a, zero), qa);
        let t = _mm256_mullo_epi16(c, _mm256_loadu_si256(w2.add(16 * k) as *const __m256i));
        *total = _mm256_add_epi32(*total, _mm256_madd_epi16(c, t));
    }
}

/// [`output_sum_sized`] in AVX2 intrinsics, the same integers: 128 hidden units at a time (8
/// registers), then 16 at a time. (The compiler kept the generic code's accumulators in memory,
/// reloading them for every row: 1,374 instructions a call at 128 units, against 567 here.)
///
/// # Safety
///
/// The processor has AVX2, and the rows are [`active_rows`]' (each below [`INPUTS`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn output_sum_avx2(net: &NnueWeights, me: u64, them: u64, walls: u64, bucket: usize) -> i64 {
    let rows = &active_rows_avx2(me, them, walls);
    debug_assert_eq!(*rows, active_rows(me, them, walls));
    debug_assert!(rows.iter().all(|&r| (r as usize) < INPUTS));
    debug_assert!(net.w1.len() == INPUTS * net.hidden && bucket < net.buckets);
    rows_sum_avx2(net, rows, bucket, std::ptr::null_mut())
}

/// The output sum of `rows` in AVX2: 128 hidden units at a time (8 registers), then 16 at a time,
/// the accumulators stored to `store` unless it is null.
///
/// # Safety
///
/// As [`hidden_block_avx2`] for every block: AVX2, `shaped` weights, rows below [`INPUTS`],
/// `store` null or holding `net.hidden` units.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn rows_sum_avx2(
    net: &NnueWeights,
    rows: &[u16; WINDOWS],
    bucket: usize,
    store: *mut i16,
) -> i64 {
    use std::arch::x86_64::*;
    let mut total = _mm256_setzero_si256();
    let mut base = 0;
    while base + 128 <= net.hidden {
        hidden_block_avx2::<8>(net, rows, bucket, base, store, &mut total);
        base += 128;
    }
    while base + 16 <= net.hidden {
        hidden_block_avx2::<1>(net, rows, bucket, base, store, &mut total);
        base += 16;
    }
    lanes_avx2(total)
}

/// The 8 `i32` lanes of `total`, added.
///
/// # Safety
///
/// The processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn lanes_avx2(total: std::arch::x86_64::__m256i) -> i64 {
    let mut lanes = [0i32; 8];
    std::arch::x86_64::_mm256_storeu_si256(lanes.as_mut_ptr() as *mut _, total);
    lanes.iter().map(|&x| x as i64).sum()
}

/// [`output_sum_sized`] in WebAssembly SIMD (the browser's SIMD builds), the same integers: 64
/// hidden units at a time in 8 registers of 8 lanes while the 36 rows are added (the generic
/// code reloaded its accumulators for every row), then clipped, squared and weighted.
///
/// # Safety
///
/// The weights have their shape (`h % 16 == 0`, `b1` of `h`, `w1` of [`INPUTS`] times `h`, `w2`
/// of at least `(bucket + 1) * h`) and every row is below [`INPUTS`].
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
unsafe fn output_sum_simd128(net: &NnueWeights, rows: &[u16; WINDOWS], bucket: usize) -> i64 {
    use std::arch::wasm32::*;
    /// One block of `N` registers (8 units each) from unit `base` on, added into `total`.
    #[inline(always)]
    unsafe fn block<const N: usize>(
        net: &NnueWeights,
        rows: &[u16; WINDOWS],
        bucket: usize,
        base: usize,
        total: &mut v128,
    ) {
        let h = net.hidden;
        let mut acc = [i16x8_splat(0); N];
        for (k, a) in acc.iter_mut().enumerate() {
            *a = v128_load(net.b1.as_ptr().add(base + 8 * k) as *const v128);
        }
        for &r in rows {
            let row = net.w1.as_ptr().add(r as usize * h + base);
            for (k, a) in acc.iter_mut().enumerate() {
                *a = i16x8_add(*a, v128_load(row.add(8 * k) as *const v128));
            }
        }
        let qa = i16x8_splat(QA as i16);
        let w2 = net.w2.as_ptr().add(bucket * h + base);
        for (k, a) in acc.iter().enumerate() {
            let c = i16x8_min(i16x8_max(*a, i16x8_splat(0)), qa);
            let t = i16x8_mul(c, v128_load(w2.add(8 * k) as *const v128));
            *total = i32x4_add(*total, i32x4_dot_i16x8(c, t));
        }
    }
    let mut total = i32x4_splat(0);
    let mut base = 0;
    while base + 64 <= net.hidden {
        block::<8>(net, rows, bucket, base, &mut total);
        base += 64;
    }
    while base + 16 <= net.hidden {
        block::<2>(net, rows, bucket, base, &mut total);
        base += 16;
    }
    i32x4_extract_lane::<0>(total) as i64
        + i32x4_extract_lane::<1>(total) as i64
        + i32x4_extract_lane::<2>(total) as i64
        + i32x4_extract_lane::<3>(total) as i64
}

/// Whether the weights have the shape the vector sums read without bounds checks: whole blocks of
/// 16 hidden units, and every table as long as `hidden` and `bucket` need. The fields are public,
/// so this is checked (four comparisons a call) rather than trusted.
#[cfg(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
pub(super) fn shaped(net: &NnueWeights, bucket: usize) -> bool {
    let h = net.hidden;
    h % 16 == 0 && net.b1.len() == h && net.w1.len() == INPUTS * h && net.w2.len() >= (bucket + 1) * h
}

/// Whether the processor has AVX2 (checked once).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn has_avx2() -> bool {
    static AVX2: OnceLock<bool> = OnceLock::new();
    *AVX2.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
}

/// The hidden layer's output sum for `me` to move against `them` (walls `walls`), with AVX2 where
/// the processor has it (checked once).
#[inline(always)]
fn output_sum_dispatch(net: &NnueWeights, me: u64, them: u64, walls: u64, bucket: usize) -> i64 {
    #[cfg(target_arch = "x86_64")]
    {
        if shaped(net, bucket) && has_avx2() {
            // SAFETY: the processor has AVX2 (checked above), the weights have the shape the
            // function reads (checked above), and its rows are each below `INPUTS` (a window's
            // base, `w * STATES`, plus a state made of four 2-bit digits).
            return unsafe { output_sum_avx2(net, me, them, walls, bucket) };
        }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        if shaped(net, bucket) {
            // SAFETY: the weights have the shape the function reads (checked above), and
            // `active_rows`' rows are each below `INPUTS`.
            return unsafe { output_sum_simd128(net, &active_rows(me, them, walls), bucket) };
        }
    }
    output_sum_sized(net, &active_rows(me, them, walls), bucket)
}

/// The evaluation of `me` to move against `them` (walls `walls`) by `net`, in hundredths of a
/// piece for the side to move. When `terms` is set (a constant at every call, so the plain path
/// does no work for them), `term` hears the material (the piece difference with its weight) and
/// the network's part (the rest, weight 1): they add up to the value.
#[inline(always)]
pub fn evaluate_with(
    net: &NnueWeights,
    me: u64,
    them: u64,
    walls: u64,
    terms: bool,
    term: impl FnMut(&'static str, f64, f64),
) -> f64 {
    let sum = |bucket| output_sum_dispatch(net, me, them, walls, bucket);
    evaluate_summed(net, me, them, walls, sum, terms, term)
}

/// [`evaluate_with`] for weights that live as long as the program, side to move `side` (0 or
/// 1): the same value, its sum started from this thread's last one for that side when few
/// windows differ ([`super::nnue_reuse`]).
#[inline(always)]
pub fn evaluate_reusing(
    net: &'static NnueWeights,
    side: usize,
    me: u64,
    them: u64,
    walls: u64,
    terms: bool,
    term: impl FnMut(&'static str, f64, f64),
) -> f64 {
    let sum = |bucket| {
        #[cfg(target_arch = "x86_64")]
        if let Some(s) = super::nnue_reuse::output_sum(
            net,
            side,
            super::nnue_reuse::Cells::new(me, them, walls),
            bucket,
        ) {
            return s;
        }
        let _ = side;
        output_sum_dispatch(net, me, them, walls, bucket)
    };
    evaluate_summed(net, me, them, walls, sum, terms, term)
}

/// The evaluation with the hidden layer's output sum from `sum` (given the output bucket).
#[inline(always)]
fn evaluate_summed(
    net: &NnueWeights,
    me: u64,
    them: u64,
    walls: u64,
    sum: impl FnOnce(usize) -> i64,
    terms: bool,
    term: impl FnMut(&'static str, f64, f64),
) -> f64 {
    let bucket = net.bucket(49 - (me | them | walls).count_ones());
    value_of(net, me, them, bucket, sum(bucket), terms, term)
}

/// The value from the hidden layer's output sum `sum` (bucket `bucket`): the output bias and the
/// material added, times the scale; `term` hears the terms when `terms` is set.
#[inline(always)]
fn value_of(
    net: &NnueWeights,
    me: u64,
    them: u64,
    bucket: usize,
    sum: i64,
    terms: bool,
    mut term: impl FnMut(&'static str, f64, f64),
) -> f64 {
    let material = me.count_ones() as i64 - them.count_ones() as i64;
    let q = (QA * QB) as i64;
    let logit_q = sum / QA as i64 + net.b2[bucket] as i64 + material * net.wm[bucket] as i64;
    let scale = net.scale as f64 / q as f64;
    let value = logit_q as f64 * scale;
    if terms {
        let per_piece = net.wm[bucket] as f64 * scale;
        term(TERM_NAMES[0], material as f64, per_piece);
        term(TERM_NAMES[1], value - material as f64 * per_piece, 1.0);
    }
    value
}

/// The shipped weights, as written by the trainer.
static SHIPPED: &[u8] = include_bytes!("nnue.bin");

/// The weights shipped in the binary.
pub fn shipped() -> &'static NnueWeights {
    static W: OnceLock<NnueWeights> = OnceLock::new();
    W.get_or_init(|| {
        NnueWeights::decode(SHIPPED).expect("the shipped ataxx nnue.bin is well formed")
    })
}

/// The weights `nnue` evaluates with, read on first use: the shipped ones or, natively, the file
/// the environment variable `PLYSCOPE_ATAXX_NNUE` names (for trying a training run without
/// rebuilding). A file that does not read is an error saying which file and why; choosing the
/// evaluator by name ([`super::AtaxxEval::by_name`]) reports it.
pub fn weights() -> Result<&'static NnueWeights, String> {
    static W: OnceLock<Result<NnueWeights, String>> = OnceLock::new();
    let loaded = W.get_or_init(|| {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(path) = std::env::var_os("PLYSCOPE_ATAXX_NNUE") {
            let bytes = std::fs::read(&path)
                .map_err(|e| format!("PLYSCOPE_ATAXX_NNUE={}: {e}", path.to_string_lossy()))?;
            return NnueWeights::decode(&bytes)
                .map_err(|e| format!("PLYSCOPE_ATAXX_NNUE={}: {e}", path.to_string_lossy()));
        }
        Ok(shipped().clone())
    });
    loaded.as_ref().map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vector_sum_is_the_portable_sum() {
        // Random weights over the whole i16 range (so that accumulators wrap and clip), sizes
        // with and without a 128-unit block, random boards with walls, every bucket.
        use rand::{rngs::SmallRng, Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(7);
        for &(hidden, buckets) in &[(16, 1), (64, 7), (128, 7), (144, 1), (256, 7)] {
            let mut n = NnueWeights::zeros(hidden, buckets, 400);
            let big = |rng: &mut SmallRng| rng.gen_range(-700i16..=700);
            n.b1.iter_mut().for_each(|x| *x = big(&mut rng));
            n.w1.iter_mut().for_each(|x| *x = big(&mut rng));
            n.w2.iter_mut().for_each(|x| *x = rng.gen_range(-127i16..=127));
            for _ in 0..200 {
                let cells: u64 = rng.gen::<u64>() & ((1u64 << 49) - 1);
                let me = cells & rng.gen::<u64>();
                let them = cells & !me & rng.gen::<u64>();
                let walls = if rng.gen_bool(0.3) { cells & !me & !them } else { 0 };
                let rows = active_rows(me, them, walls);
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: the processor has AVX2.
                    assert_eq!(unsafe { active_rows_avx2(me, them, walls) }, rows);
                }
                for bucket in 0..buckets {
                    let portable = output_sum_any(&n, &rows, bucket);
                    assert_eq!(output_sum_dispatch(&n, me, them, walls, bucket), portable);
                    assert_eq!(output_sum_sized(&n, &rows, bucket), portable);
                }
            }
        }
    }

    #[test]
    fn cells_holding_two_things_still_give_rows_inside_the_network() {
        // Not a valid position, but the rows (which the vector sum reads unchecked) stay in range.
        let all = (1u64 << 49) - 1;
        let rows = active_rows(all, all, all);
        assert!(rows.iter().all(|&r| (r as usize) < INPUTS));
        assert_eq!(rows, active_rows(all, 0, 0));
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2.
            let fast = unsafe { active_rows_avx2(all, all, all) };
            assert_eq!(fast, rows);
        }
    }

    #[test]
    fn each_window_reads_its_four_cells_in_digit_order() {
        // Window 0 is a1, b1, a2, b2; a piece of the side to move on b1 is digit 1 (value 4), one
        // of the other side on a2 digit 2 (value 2 * 16), a wall on b2 digit 3 (value 3 * 64).
        let (me, them, walls) = (1u64 << 1, 1u64 << 7, 1u64 << 8);
        let rows = active_rows(me, them, walls);
        assert_eq!(rows[0], 4 + 32 + 192);
        // Window 35 is f6, g6, f7, g7 (cells 40, 41, 47, 48).
        let rows = active_rows(1 << 48, 1 << 40, 0);
        assert_eq!(rows[35] as usize, 35 * STATES + 64 + 2);
        // Every window of the empty board is in state 0.
        for (w, r) in active_rows(0, 0, 0).iter().enumerate() {
            assert_eq!(*r as usize, w * STATES);
        }
    }

    #[test]
    fn files_read_back_and_bad_ones_are_refused() {
        let mut n = NnueWeights::zeros(16, PHASE_BUCKETS, 400);
        n.w1[5] = -7;
        n.b2[3] = 123_456;
        n.wm[6] = -9;
        let bytes = n.encode();
        assert_eq!(bytes.len(), file_len(16, PHASE_BUCKETS));
        assert_eq!(NnueWeights::decode(&bytes), Ok(n));
        assert_eq!(
            NnueWeights::decode(&bytes[..bytes.len() - 1]),
            Err(NnueError::Length {
                expected: bytes.len(),
                found: bytes.len() - 1
            })
        );
        let mut odd = bytes.clone();
        odd[8] = 17; // 17 hidden units: not a multiple of 16
        assert!(matches!(
            NnueWeights::decode(&odd),
            Err(NnueError::Dimensions { hidden: 17, .. })
        ));
        assert_eq!(NnueWeights::decode(b"PLYATXN1"), Err(NnueError::NotNnue));
    }

    #[test]
    fn the_value_is_the_integer_network_and_its_terms_add_up() {
        // One hidden unit on: bias 100/255, the empty a1-b2 window adds 50/255, output weight 2.
        let mut n = NnueWeights::zeros(16, 1, 400);
        n.b1[0] = 100;
        n.w1[0] = 50; // row 0 (window 0, all empty), unit 0
        n.w2[0] = 2 * QB as i16;
        n.wm[0] = QA * QB / 4; // a quarter of a logit a piece
        // me 3 pieces far from a1-b2, them 1: material +2.
        let (me, them) = (1u64 << 48 | 1 << 47 | 1 << 46, 1u64 << 30);
        let mut terms = Vec::new();
        let v = evaluate_with(&n, me, them, 0, true, |name, raw, w| {
            terms.push((name, raw, w))
        });
        // Unit 0: (150/255)^2 * 2 logits; material: 2 * 0.25 logits; times the scale 400.
        let c = 150i64;
        let unit = c * c * 2 * QB as i64 / QA as i64; // in QA * QB ths
        let expected = (unit + 2 * (QA * QB / 4) as i64) as f64 * 400.0 / (QA * QB) as f64;
        assert!((v - expected).abs() < 1e-9, "{v} vs {expected}");
        assert!((v - (2.0 * 0.25 + 2.0 * (150.0f64 / 255.0).powi(2)) * 400.0).abs() < 1.0);
        let sum: f64 = terms.iter().map(|(_, raw, w)| raw * w).sum();
        assert!((sum - v).abs() < 1e-9);
        assert_eq!(terms[0], ("material", 2.0, 100.0));
    }
}
