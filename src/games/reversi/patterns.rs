//! The `patterns` evaluator for 8x8 Reversi: trained tables of pattern values, in the manner of
//! Logistello and Edax.
//!
//! A pattern is a fixed list of cells (an edge with its two X-squares, a corner's 3x3 or 2x5
//! block, a diagonal, a line). Its *placements* are the distinct images of the list under the 8
//! symmetries of the board, 46 in all. Each placement reads its cells as a base-3 number (0 empty,
//! 1 a disc of the side to move, 2 a disc of the other side) and looks that number up in its
//! family's table; every placement of a family shares the table, and the training ties the
//! entries that symmetric images of one position read ([`Family::tie_groups`]), so the evaluation
//! of a position and of its 8 images are equal. Two scalar terms join them: the mobility
//! difference and a constant.
//!
//! There is one set of tables per game phase: [`PHASES`] phases of [`PHASE_WIDTH`] empty squares.
//! The values predict the final disc margin of the side to move, in hundredths of a disc
//! (search values of 100 per disc). The weights ship in `patterns.bin` (made by
//! `plyscope train-reversi`, see docs/reversi.md), held in the binary by `include_bytes!` and
//! expanded once, on first use, into one flat `i16` table.

use super::bitboard::moves8;
use crate::games::pattern_fit;
use std::sync::OnceLock;

/// Game phases: the weights change with the number of empty squares.
pub const PHASES: usize = 15;
/// Empty squares per phase: phase 0 holds 1-4 empties, phase 14 holds 57-60.
pub const PHASE_WIDTH: u32 = 4;
/// Search value per disc of predicted margin.
pub const PER_DISC: f64 = 100.0;

/// The phase of a position with `empties` empty squares.
#[inline(always)]
pub fn phase_of(empties: u32) -> usize {
    ((empties.max(1) - 1) / PHASE_WIDTH).min(PHASES as u32 - 1) as usize
}

/// A pattern family: a name for the explorer and the cells of its first placement.
#[derive(Debug, Clone, Copy)]
pub struct Family {
    /// The name shown in the term breakdown (`"edge+2X"`).
    pub name: &'static str,
    /// Cells as (row, column), a1 = (0, 0), h1 = (0, 7).
    pub cells: &'static [(u8, u8)],
}

/// The pattern families.
pub const FAMILIES: [Family; 11] = [
    Family {
        name: "edge+2X",
        cells: &[
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (0, 5),
            (0, 6),
            (0, 7),
            (1, 1),
            (1, 6),
        ],
    },
    Family {
        name: "corner 3x3",
        cells: &[
            (0, 0),
            (0, 1),
            (0, 2),
            (1, 0),
            (1, 1),
            (1, 2),
            (2, 0),
            (2, 1),
            (2, 2),
        ],
    },
    Family {
        name: "corner 2x5",
        cells: &[
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 0),
            (1, 1),
            (1, 2),
            (1, 3),
            (1, 4),
        ],
    },
    Family {
        name: "line 2",
        cells: &[
            (1, 0),
            (1, 1),
            (1, 2),
            (1, 3),
            (1, 4),
            (1, 5),
            (1, 6),
            (1, 7),
        ],
    },
    Family {
        name: "line 3",
        cells: &[
            (2, 0),
            (2, 1),
            (2, 2),
            (2, 3),
            (2, 4),
            (2, 5),
            (2, 6),
            (2, 7),
        ],
    },
    Family {
        name: "line 4",
        cells: &[
            (3, 0),
            (3, 1),
            (3, 2),
            (3, 3),
            (3, 4),
            (3, 5),
            (3, 6),
            (3, 7),
        ],
    },
    Family {
        name: "diagonal 8",
        cells: &[
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (7, 7),
        ],
    },
    Family {
        name: "diagonal 7",
        cells: &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)],
    },
    Family {
        name: "diagonal 6",
        cells: &[(0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)],
    },
    Family {
        name: "diagonal 5",
        cells: &[(0, 3), (1, 4), (2, 5), (3, 6), (4, 7)],
    },
    Family {
        name: "diagonal 4",
        cells: &[(0, 4), (1, 5), (2, 6), (3, 7)],
    },
];

/// Families.
pub const NUM_FAMILIES: usize = FAMILIES.len();
/// The most cells in a pattern.
const MAX_CELLS: usize = 10;
/// Placements of all the families.
pub const NUM_PLACEMENTS: usize = 46;
/// Scalar terms after the tables: the mobility difference and a constant.
pub const NUM_SCALARS: usize = 2;
/// The scalar terms' names.
pub const SCALAR_NAMES: [&str; NUM_SCALARS] = ["mobility", "phase constant"];

/// `3^n`.
const fn pow3(n: usize) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < n {
        r *= 3;
        i += 1;
    }
    r
}

/// Where each family's table starts within a phase, and (last) the scalars.
pub const OFFSETS: [usize; NUM_FAMILIES + 1] = {
    let mut t = [0; NUM_FAMILIES + 1];
    let mut f = 0;
    while f < NUM_FAMILIES {
        t[f + 1] = t[f] + pow3(FAMILIES[f].cells.len());
        f += 1;
    }
    t
};
/// Weights per phase: every table, then the scalars.
pub const PHASE_SIZE: usize = OFFSETS[NUM_FAMILIES] + NUM_SCALARS;
/// Weights in all.
pub const TOTAL_WEIGHTS: usize = PHASE_SIZE * PHASES;

/// The cell (row, column) that symmetry `s` (0..8) sends (`r`, `c`) to; 0 is the identity.
pub const fn symmetry(s: usize, r: u8, c: u8) -> (u8, u8) {
    let (r, c) = if s & 4 != 0 { (c, r) } else { (r, c) };
    let r = if s & 2 != 0 { 7 - r } else { r };
    let c = if s & 1 != 0 { 7 - c } else { c };
    (r, c)
}

/// The image of both bitboards under symmetry `s`.
pub fn transform(s: usize, b: u64) -> u64 {
    let mut out = 0u64;
    let mut rest = b;
    while rest != 0 {
        let x = rest.trailing_zeros();
        rest &= rest - 1;
        let (r, c) = symmetry(s, (x / 8) as u8, (x % 8) as u8);
        out |= 1u64 << (r as u32 * 8 + c as u32);
    }
    out
}

/// One placement: its family, its cells (bit indices, in the order of the base-3 digits, most
/// significant first) and how many there are.
#[derive(Debug, Clone, Copy)]
pub struct Placement {
    /// Index into [`FAMILIES`].
    pub family: u8,
    /// Cells.
    pub len: u8,
    /// Bit indices (a1 = 0), `len` of them.
    pub cells: [u8; MAX_CELLS],
    /// The symmetry that made this placement from the family's cells.
    pub symmetry: u8,
}

/// Every placement: for each family, the distinct cell sets among its 8 images, in symmetry order.
pub static PLACEMENTS: [Placement; NUM_PLACEMENTS] = {
    let empty = Placement {
        family: 0,
        len: 0,
        cells: [0; MAX_CELLS],
        symmetry: 0,
    };
    let mut t = [empty; NUM_PLACEMENTS];
    let mut sets = [0u64; NUM_PLACEMENTS];
    let mut n = 0;
    let mut f = 0;
    while f < NUM_FAMILIES {
        let cells = FAMILIES[f].cells;
        let mut s = 0;
        while s < 8 {
            let mut p = Placement {
                family: f as u8,
                len: cells.len() as u8,
                cells: [0; MAX_CELLS],
                symmetry: s as u8,
            };
            let mut set = 0u64;
            let mut i = 0;
            while i < cells.len() {
                let (r, c) = symmetry(s, cells[i].0, cells[i].1);
                p.cells[i] = r * 8 + c;
                set |= 1u64 << (r * 8 + c);
                i += 1;
            }
            if !pattern_fit::seen_before(&sets, n, set) {
                t[n] = p;
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

/// The base-3 index of a placement: 1 for a disc of `p`, 2 for a disc of `o`, most significant
/// digit first.
#[inline(always)]
pub fn index(pl: &Placement, p: u64, o: u64) -> usize {
    let mut idx = 0usize;
    let mut i = 0;
    while i < pl.len as usize {
        let x = pl.cells[i];
        idx = idx * 3 + ((p >> x) & 1) as usize + 2 * ((o >> x) & 1) as usize;
        i += 1;
    }
    idx
}

/// The features of a position (`p` to move against `o`): the table index (within a phase) of
/// every placement, and the scalar terms' raw values.
#[inline]
pub fn features(p: u64, o: u64) -> ([u32; NUM_PLACEMENTS], [f32; NUM_SCALARS]) {
    let mut idx = [0u32; NUM_PLACEMENTS];
    for (k, pl) in PLACEMENTS.iter().enumerate() {
        idx[k] = (OFFSETS[pl.family as usize] + index(pl, p, o)) as u32;
    }
    let mobility = moves8(p, o).count_ones() as f32 - moves8(o, p).count_ones() as f32;
    (idx, [mobility, 1.0])
}

impl Family {
    /// Groups of table indices that must hold one value for the evaluation to be symmetric: for
    /// each index, a representative (the smallest index of its group). A symmetry that maps one
    /// placement of the family onto another may read the cells in another order; the indices
    /// that differ only by such a reordering are tied.
    pub fn tie_groups(family: usize) -> Vec<u32> {
        let places: Vec<&[u8]> = PLACEMENTS
            .iter()
            .filter(|p| p.family as usize == family)
            .map(|p| &p.cells[..p.len as usize])
            .collect();
        let image = |s: usize, x: u8| {
            let (r, c) = symmetry(s, x / 8, x % 8);
            r * 8 + c
        };
        pattern_fit::tie_groups(&places, 8, image, 3)
    }
}

/// The shipped weights, as written by the trainer (see [`encode`]).
static SHIPPED: &[u8] = include_bytes!("patterns.bin");

/// The shipped weights, expanded on first use. Natively, the environment variable
/// `PLYSCOPE_PATTERNS` may name another weights file (for trying a training run without
/// rebuilding); a file that does not read stops the program with the reason.
pub fn weights() -> &'static [i16] {
    static W: OnceLock<Vec<i16>> = OnceLock::new();
    W.get_or_init(|| {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(path) = std::env::var_os("PLYSCOPE_PATTERNS") {
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("PLYSCOPE_PATTERNS={path:?}: {e}"));
            return decode(&bytes).unwrap_or_else(|e| panic!("PLYSCOPE_PATTERNS={path:?}: {e}"));
        }
        shipped()
    })
}

/// The weights shipped in the binary.
pub fn shipped() -> Vec<i16> {
    decode(SHIPPED).expect("the shipped patterns.bin is well formed")
}

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"PLYPAT01";

/// A weights file ([`pattern_fit::encode`] with this evaluator's magic and dimensions).
pub fn encode(w: &[i16]) -> Vec<u8> {
    pattern_fit::encode(MAGIC, PHASES, PHASE_SIZE, w)
}

/// Reads a weights file written by [`encode`]; an error says what is wrong.
pub fn decode(bytes: &[u8]) -> Result<Vec<i16>, String> {
    pattern_fit::decode(MAGIC, PHASES, PHASE_SIZE, bytes)
}

/// The evaluation of `p` to move against `o` with weights `w`, in hundredths of a disc for the
/// side to move; each family's sum and each scalar term go to `term` when `terms` is set (a
/// constant at every call, so the plain path does no work for them).
#[inline(always)]
pub fn evaluate_with(
    w: &[i16],
    p: u64,
    o: u64,
    terms: bool,
    mut term: impl FnMut(&'static str, f64, f64),
) -> i32 {
    let empties = 64 - (p | o).count_ones();
    let base = phase_of(empties) * PHASE_SIZE;
    let w = &w[base..base + PHASE_SIZE];
    let mut total = 0i32;
    let mut family_sum = [0i32; NUM_FAMILIES];
    for pl in PLACEMENTS.iter() {
        let f = pl.family as usize;
        let v = w[OFFSETS[f] + index(pl, p, o)] as i32;
        total += v;
        if terms {
            family_sum[f] += v;
        }
    }
    if terms {
        for (f, s) in family_sum.iter().enumerate() {
            term(FAMILIES[f].name, *s as f64, 1.0);
        }
    }
    let mobility = moves8(p, o).count_ones() as i32 - moves8(o, p).count_ones() as i32;
    let scalars = &w[OFFSETS[NUM_FAMILIES]..];
    total += mobility * scalars[0] as i32 + scalars[1] as i32;
    if terms {
        term(SCALAR_NAMES[0], mobility as f64, scalars[0] as f64);
        term(SCALAR_NAMES[1], 1.0, scalars[1] as f64);
    }
    total
}
