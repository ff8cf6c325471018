//! The `patterns` evaluator for Ataxx: a trained linear evaluation over the 36 overlapping 2x2
//! windows of the 7x7 board, plus scalar terms.
//!
//! Each window reads its four cells (top-left, top-right, bottom-left, bottom-right) as a base-4
//! number (0 empty, 1 a piece of the side to move, 2 a piece of the other side, 3 a wall) and
//! looks it up in its family's table of 256 values. The families are the window places that the
//! 8 symmetries of the square board map onto each other (6 of them: the corner window, the two
//! edge windows, the two windows of the second ring and the four central ones); the training ties
//! the entries that symmetric images read ([`tie_groups`]), so a position and its 8 images have
//! one value. The scalar terms are the named terms of the `strong` evaluator seen from the side to
//! move (material, mobility, exposed pieces, holes, the best capture of each side), the parity of
//! the empty cells and a constant (the value of the move itself).
//!
//! There is one set of weights per game phase: [`PHASES`] phases of [`PHASE_WIDTH`] empty cells.
//! The values predict what a shallow search with the `strong` evaluation says of the position
//! (docs/ataxx.md, "The `patterns` evaluator"), in hundredths of a piece for the side to move.
//! The weights ship in `patterns.bin` (made by `plyscope train-ataxx`), held in the binary by
//! `include_bytes!` and expanded once, on first use. They were trained on the open board: wall
//! states keep a weight of zero.

use super::eval::{best_gain, shape_terms};
use crate::games::pattern_fit;
use std::sync::OnceLock;

/// Game phases: the weights change with the number of empty cells.
pub const PHASES: usize = 7;
/// Empty cells per phase: phase 0 holds 1-7 empties, phase 6 holds 43 and more.
pub const PHASE_WIDTH: u32 = 7;
/// Search value per piece of the prediction.
pub const PER_PIECE: f64 = 100.0;
/// States of a cell.
pub const BASE: usize = 4;
/// Entries of a family's table (`BASE^4`).
pub const TABLE: usize = 256;

/// The phase of a position with `empties` empty cells.
#[inline(always)]
pub fn phase_of(empties: u32) -> usize {
    ((empties.max(1) - 1) / PHASE_WIDTH).min(PHASES as u32 - 1) as usize
}

/// The window families: a name for the explorer and the (row, column) of a window's top-left
/// cell (row 0 is rank 1) in each.
pub const FAMILIES: [(&str, (u8, u8)); 6] = [
    ("corner 2x2", (0, 0)),
    ("edge 2x2", (0, 1)),
    ("mid-edge 2x2", (0, 2)),
    ("ring-2 corner 2x2", (1, 1)),
    ("ring-2 2x2", (1, 2)),
    ("centre 2x2", (2, 2)),
];
/// Families.
pub const NUM_FAMILIES: usize = FAMILIES.len();
/// Windows on the board.
pub const NUM_PLACEMENTS: usize = 36;
/// Scalar terms after the tables.
pub const NUM_SCALARS: usize = 8;
/// The scalar terms' names.
pub const SCALAR_NAMES: [&str; NUM_SCALARS] = [
    "material", "mobility", "exposed", "holes", "threat", "reply", "parity", "tempo",
];
/// Where the scalars' weights start within a phase.
pub const SCALARS_AT: usize = NUM_FAMILIES * TABLE;
/// Weights per phase.
pub const PHASE_SIZE: usize = SCALARS_AT + NUM_SCALARS;
/// Weights in all.
pub const TOTAL_WEIGHTS: usize = PHASE_SIZE * PHASES;

/// Every window: its family and its four cells (`rank * 7 + file`) in digit order, most
/// significant first. A family's windows are the distinct images of its first window under the 8
/// symmetries, each reading its cells in the order the symmetry carries them (so that one table
/// serves the whole family): the first window of a family reads top-left, top-right,
/// bottom-left, bottom-right.
pub static PLACEMENTS: [(u8, [u8; 4]); NUM_PLACEMENTS] = {
    let mut t = [(0u8, [0u8; 4]); NUM_PLACEMENTS];
    let mut sets = [0u64; NUM_PLACEMENTS];
    let mut n = 0;
    let mut f = 0;
    while f < NUM_FAMILIES {
        let (r, c) = FAMILIES[f].1;
        let x = r * 7 + c;
        let cells = [x, x + 1, x + 7, x + 8];
        let mut s = 0;
        while s < 8 {
            let mut img = [0u8; 4];
            let mut set = 0u64;
            let mut i = 0;
            while i < 4 {
                img[i] = symmetry(s, cells[i]);
                set |= 1u64 << img[i];
                i += 1;
            }
            if !pattern_fit::seen_before(&sets, n, set) {
                t[n] = (f as u8, img);
                sets[n] = set;
                n += 1;
            }
            s += 1;
        }
        f += 1;
    }
    assert!(n == NUM_PLACEMENTS);
    t
};

/// The cell (`rank * 7 + file`) that symmetry `s` (0..8) sends cell `x` to; 0 is the identity.
pub const fn symmetry(s: usize, x: u8) -> u8 {
    let (r, c) = (x / 7, x % 7);
    let (r, c) = if s & 4 != 0 { (c, r) } else { (r, c) };
    let r = if s & 2 != 0 { 6 - r } else { r };
    let c = if s & 1 != 0 { 6 - c } else { c };
    r * 7 + c
}

/// The image of a bitboard under symmetry `s`.
pub fn transform(s: usize, b: u64) -> u64 {
    let mut out = 0u64;
    let mut rest = b;
    while rest != 0 {
        let x = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        out |= 1u64 << symmetry(s, x);
    }
    out
}

/// For each entry of family `family`'s table, the entry that holds its value (the smallest of its
/// symmetry group).
pub fn tie_groups(family: usize) -> Vec<u32> {
    let places: Vec<&[u8]> = PLACEMENTS
        .iter()
        .filter(|p| p.0 as usize == family)
        .map(|p| &p.1[..])
        .collect();
    pattern_fit::tie_groups(&places, 8, symmetry, BASE)
}

/// The cells' states: bit planes `lo` (own pieces and walls) and `hi` (the other side's and walls).
#[inline(always)]
fn digit(lo: u64, hi: u64, x: u8) -> usize {
    (((lo >> x) & 1) | (((hi >> x) & 1) << 1)) as usize
}

/// The table index (within its family's table) of every window, for `me` to move against `them`.
#[inline(always)]
pub fn window_indices(me: u64, them: u64, walls: u64) -> [u16; NUM_PLACEMENTS] {
    let (lo, hi) = (me | walls, them | walls);
    let mut out = [0u16; NUM_PLACEMENTS];
    for (k, (_, c)) in PLACEMENTS.iter().enumerate() {
        out[k] = ((digit(lo, hi, c[0]) << 6)
            | (digit(lo, hi, c[1]) << 4)
            | (digit(lo, hi, c[2]) << 2)
            | digit(lo, hi, c[3])) as u16;
    }
    out
}

/// The scalar terms' raw values for `me` to move against `them` (see [`SCALAR_NAMES`]).
#[inline(always)]
pub fn scalars(me: u64, them: u64, walls: u64) -> [f32; NUM_SCALARS] {
    let empty = super::FULL & !(me | them | walls);
    let material = me.count_ones() as f32 - them.count_ones() as f32;
    let (mobility, exposed, holes) = shape_terms(me, them, empty);
    let threat = best_gain(me, them, empty) as f32;
    let reply = best_gain(them, me, empty) as f32;
    let parity = if empty.count_ones() % 2 == 1 { 1.0 } else { -1.0 };
    [
        material,
        mobility as f32,
        exposed as f32,
        holes as f32,
        threat,
        reply,
        parity,
        1.0,
    ]
}

/// The features of a position (`me` to move against `them`): the index of every window within
/// its phase's weights, and the scalars.
pub fn features(me: u64, them: u64, walls: u64) -> ([u32; NUM_PLACEMENTS], [f32; NUM_SCALARS]) {
    let w = window_indices(me, them, walls);
    let mut idx = [0u32; NUM_PLACEMENTS];
    for k in 0..NUM_PLACEMENTS {
        idx[k] = (PLACEMENTS[k].0 as usize * TABLE + w[k] as usize) as u32;
    }
    (idx, scalars(me, them, walls))
}

/// The empty cells of a position.
pub fn empties(me: u64, them: u64, walls: u64) -> u32 {
    (super::FULL & !(me | them | walls)).count_ones()
}

/// The evaluation of `me` to move against `them` with weights `w`, in hundredths of a piece for
/// the side to move; each family's sum and each scalar term go to `term` when `terms` is set (a
/// constant at every call, so the plain path does no work for them).
#[inline(always)]
pub fn evaluate_with(
    w: &[i16],
    me: u64,
    them: u64,
    walls: u64,
    terms: bool,
    mut term: impl FnMut(&'static str, f64, f64),
) -> i32 {
    let base = phase_of(empties(me, them, walls)) * PHASE_SIZE;
    let w = &w[base..base + PHASE_SIZE];
    let idx = window_indices(me, them, walls);
    let mut total = 0i32;
    let mut family_sum = [0i32; NUM_FAMILIES];
    for (k, &i) in idx.iter().enumerate() {
        let f = PLACEMENTS[k].0 as usize;
        let v = w[f * TABLE + i as usize] as i32;
        total += v;
        if terms {
            family_sum[f] += v;
        }
    }
    if terms {
        for (f, s) in family_sum.iter().enumerate() {
            term(FAMILIES[f].0, *s as f64, 1.0);
        }
    }
    let sc = scalars(me, them, walls);
    for k in 0..NUM_SCALARS {
        let wk = w[SCALARS_AT + k] as i32;
        total += sc[k] as i32 * wk;
        if terms {
            term(SCALAR_NAMES[k], sc[k] as f64, wk as f64);
        }
    }
    total
}

/// The shipped weights, as written by the trainer.
static SHIPPED: &[u8] = include_bytes!("patterns.bin");
/// The weights file's first bytes.
const MAGIC: &[u8; 8] = b"PLYATX01";

/// A weights file ([`pattern_fit::encode`] with this evaluator's magic and dimensions).
pub fn encode(w: &[i16]) -> Vec<u8> {
    pattern_fit::encode(MAGIC, PHASES, PHASE_SIZE, w)
}

/// Reads a weights file written by [`encode`]; an error says what is wrong.
pub fn decode(bytes: &[u8]) -> Result<Vec<i16>, String> {
    pattern_fit::decode(MAGIC, PHASES, PHASE_SIZE, bytes)
}

/// The weights shipped in the binary.
pub fn shipped() -> Vec<i16> {
    decode(SHIPPED).expect("the shipped ataxx patterns.bin is well formed")
}

/// The shipped weights, expanded on first use. Natively, the environment variable
/// `PLYSCOPE_ATAXX_PATTERNS` may name another weights file (for trying a training run without
/// rebuilding); a file that does not read stops the program with the reason.
pub fn weights() -> &'static [i16] {
    static W: OnceLock<Vec<i16>> = OnceLock::new();
    W.get_or_init(|| {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(path) = std::env::var_os("PLYSCOPE_ATAXX_PATTERNS") {
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("PLYSCOPE_ATAXX_PATTERNS={path:?}: {e}"));
            return decode(&bytes)
                .unwrap_or_else(|e| panic!("PLYSCOPE_ATAXX_PATTERNS={path:?}: {e}"));
        }
        shipped()
    })
}
