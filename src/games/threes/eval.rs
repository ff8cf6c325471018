//! Board-quality evaluators for Threes.
//!
//! Both look at the eight lines of the grid (four rows, four columns) through tables indexed by a
//! line's 16 bits, built once, so an evaluation is a handful of lookups:
//!
//! - `threesus`, the seed bot's: +2 per empty cell, +2 per adjacent pair that would merge, +1 per
//!   card next to a card of double its value, -1 per card trapped (in a row or a column) between
//!   two higher cards or between a wall and a higher card.
//! - `strong` (the default), in the manner of the strong 2048 expectimax players, adapted to Threes:
//!   a constant for being alive, empty cells, merge pairs, a monotonicity penalty on card levels
//!   (each line should rise or fall steadily), a penalty on the sum of powered levels (fewer,
//!   bigger cards), a penalty for 1-1 and 2-2 neighbours (they never merge) and for trapped cards.
//!   Once a 6144 or higher is on the board it switches to its late-game parameters, where
//!   monotonicity grows with the cube of the card levels: a misplaced giant card costs far more.
//!
//! A lost game is worth [`LOST`] plus a little per ply survived: below any live board, whose value
//! is floored at [`FLOOR`].

use super::{mergeable, rank_value, transpose, Threes};
use crate::core::{
    describe_value, Evaluator, LostScale, Outcome, PlayerId, TermSink, ValueScale, ValueText,
    ValueUnit,
};
use std::sync::{Arc, OnceLock};

/// The evaluator names, the default first.
pub const NAMES: &[&str] = &["strong", "threesus"];

/// The value of a lost game (before the per-ply allowance), below every live evaluation.
pub const LOST: f64 = -400_000.0;

/// The lowest value a live board may have.
pub const FLOOR: f64 = -300_000.0;

/// The evaluators on offer.
#[derive(Debug, Clone, PartialEq)]
pub enum ThreesEval {
    /// The seed bot's board quality.
    Threesus,
    /// Ours: 2048-style line heuristics adapted to Threes (the default), with its parameters.
    Strong(Arc<StrongTable>),
}

/// The strong evaluator's parameters: a weight per term (in [`STRONG_NAMES`] order) and the
/// powers of the monotonicity and level-sum terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StrongParams {
    /// Weights, in [`STRONG_NAMES`] order.
    pub weights: [f64; 7],
    /// The power card levels are raised to in the monotonicity term.
    pub mono_power: f64,
    /// The power card levels are raised to in the level-sum term.
    pub sum_power: f64,
}

impl Default for StrongParams {
    fn default() -> Self {
        StrongParams {
            weights: [2_000.0, 40.0, 60.0, -25.0, 0.0, -20.0, -20.0],
            mono_power: 1.0,
            sum_power: 3.5,
        }
    }
}

impl StrongParams {
    /// The default late-game parameters, used once a card of [`LATE_RANK`] (6144) or higher is on
    /// the board: as the default, but monotonicity on the cubes of the card levels (weight -0.5:
    /// about -25 on plain levels for cards around 384, three times that for a 6144).
    pub fn late() -> Self {
        let mut p = StrongParams::default();
        p.weights[3] = -0.5;
        p.mono_power = 3.0;
        p
    }
}

/// The rank of the card from which the strong evaluator uses its late-game parameters: 6144.
pub const LATE_RANK: u8 = 14;

/// Whether the board holds a card of [`LATE_RANK`] or higher (ranks 14 and 15: bits 3, 2 and 1 of
/// a cell set).
#[inline]
fn has_late_card(board: u64) -> bool {
    const LOW: u64 = 0x1111_1111_1111_1111;
    board >> 3 & board >> 2 & board >> 1 & LOW != 0
}

/// The strong evaluator's parameters with their line tables (the weighted sum of one line's
/// terms): one set for the game until a 6144 appears, one after.
#[derive(Debug, Clone, PartialEq)]
pub struct StrongTable {
    /// The parameters until a card of [`LATE_RANK`] is on the board.
    pub params: StrongParams,
    /// The parameters once one is.
    pub late_params: StrongParams,
    table: Vec<f64>,
    /// The late line table, when the late parameters differ.
    late_table: Option<Vec<f64>>,
    /// Card levels raised to each set's powers, for breakdowns (no `powf` per line).
    powers: Powers,
    late_powers: Powers,
}

/// Card levels raised to a parameter set's two powers, by rank.
#[derive(Debug, Clone, PartialEq)]
struct Powers {
    sum: [f64; 16],
    mono: [f64; 16],
}

impl Powers {
    fn of(params: &StrongParams) -> Self {
        let mut p = Powers {
            sum: [0.0; 16],
            mono: [0.0; 16],
        };
        for r in 0..16u8 {
            p.sum[r as usize] = level(r).powf(params.sum_power);
            p.mono[r as usize] = level(r).powf(params.mono_power);
        }
        p
    }
}

fn line_table(params: &StrongParams) -> Vec<f64> {
    let pw = Powers::of(params);
    (0..=u16::MAX)
        .map(|line| {
            strong_raw(line, &pw)
                .iter()
                .zip(params.weights.iter())
                .map(|(r, w)| r * w)
                .sum()
        })
        .collect()
}

impl StrongTable {
    /// Builds the table for these parameters (65,536 lines), used for the whole game.
    pub fn new(params: StrongParams) -> Self {
        Self::phased(params, params)
    }

    /// Builds the tables for `params` until a 6144 is on the board and `late_params` after.
    pub fn phased(params: StrongParams, late_params: StrongParams) -> Self {
        let table = line_table(&params);
        let late_table = (late_params != params).then(|| line_table(&late_params));
        StrongTable {
            params,
            late_params,
            table,
            late_table,
            powers: Powers::of(&params),
            late_powers: Powers::of(&late_params),
        }
    }
}

impl ThreesEval {
    /// The evaluator with this name (`""` for the default).
    pub fn by_name(name: &str) -> Result<Self, crate::core::Error> {
        match name {
            "" | "strong" => Ok(ThreesEval::strong()),
            "threesus" => Ok(ThreesEval::Threesus),
            _ => Err(crate::core::Error::bad_option(
                "evaluator",
                name,
                "strong or threesus",
            )),
        }
    }

    /// The strong evaluator with its default parameters, early and late (its tables are built
    /// once and shared).
    pub fn strong() -> Self {
        static DEFAULT: OnceLock<Arc<StrongTable>> = OnceLock::new();
        ThreesEval::Strong(
            DEFAULT
                .get_or_init(|| {
                    Arc::new(StrongTable::phased(
                        StrongParams::default(),
                        StrongParams::late(),
                    ))
                })
                .clone(),
        )
    }

    /// The strong evaluator with other parameters for the whole game (for tuning).
    pub fn strong_with(params: StrongParams) -> Self {
        ThreesEval::Strong(Arc::new(StrongTable::new(params)))
    }
}

fn line_ranks(line: u16) -> [u8; 4] {
    [
        (line & 15) as u8,
        (line >> 4 & 15) as u8,
        (line >> 8 & 15) as u8,
        (line >> 12 & 15) as u8,
    ]
}

/// Whether the card at `i` is trapped: each side is a wall or a higher card, not both walls.
fn trapped(a: &[u8; 4], i: usize) -> bool {
    if a[i] == 0 {
        return false;
    }
    let v = rank_value(a[i]);
    let higher = |j: usize| a[j] != 0 && rank_value(a[j]) > v;
    let left = i == 0 || higher(i - 1);
    let right = i == 3 || higher(i + 1);
    left && right
}

/// Threesus counts for one line: (empty cells, merge pairs, double neighbours, trapped cards).
fn threesus_counts(line: u16) -> [u32; 4] {
    let a = line_ranks(line);
    let mut c = [0u32; 4];
    for i in 0..4 {
        if a[i] == 0 {
            c[0] += 1;
        }
        if i < 3 && a[i] != 0 && a[i + 1] != 0 {
            if mergeable(a[i], a[i + 1]) {
                c[1] += 1;
            } else if a[i] >= 3 && a[i + 1] >= 3 && a[i].abs_diff(a[i + 1]) == 1 {
                c[2] += 1;
            }
        }
        if trapped(&a, i) {
            c[3] += 1;
        }
    }
    c
}

const THREESUS_NAMES: [&str; 4] = ["empty", "merge_pairs", "double_neighbours", "trapped"];
const THREESUS_WEIGHTS: [f64; 4] = [2.0, 2.0, 1.0, -1.0];

/// The strong evaluator's terms.
pub const STRONG_NAMES: [&str; 7] = [
    "alive",
    "empty",
    "merge_pairs",
    "monotonicity",
    "level_sum",
    "small_pairs",
    "trapped",
];

/// A card's level for monotonicity: 0 empty, 1 for the small cards 1 and 2, then 2 for 3, 3 for 6...
fn level(rank: u8) -> f64 {
    match rank {
        0 => 0.0,
        1 | 2 => 1.0,
        r => (r - 1) as f64,
    }
}

/// The strong evaluator's raw measures for one line, in [`STRONG_NAMES`] order.
fn strong_raw(line: u16, pw: &Powers) -> [f64; 7] {
    let a = line_ranks(line);
    let mut raw = [0.0; 7];
    raw[0] = 1.0;
    let (mut inc, mut dec) = (0.0, 0.0);
    for i in 0..4 {
        if a[i] == 0 {
            raw[1] += 1.0;
        }
        raw[4] += pw.sum[a[i] as usize & 15];
        if trapped(&a, i) {
            raw[6] += 1.0;
        }
        if i < 3 {
            let (x, y) = (a[i], a[i + 1]);
            if x != 0 && y != 0 {
                if mergeable(x, y) {
                    raw[2] += 1.0;
                } else if x == y && x < 3 {
                    raw[5] += 1.0;
                }
            }
            let (lx, ly) = (pw.mono[x as usize & 15], pw.mono[y as usize & 15]);
            if lx > ly {
                dec += lx - ly;
            } else {
                inc += ly - lx;
            }
        }
    }
    raw[3] = f64::min(inc, dec);
    raw
}

struct EvalTables {
    /// Threesus counts packed one per byte: empty, merge pairs, doubles, trapped.
    threesus: Vec<u32>,
}

fn eval_tables() -> &'static EvalTables {
    static T: OnceLock<EvalTables> = OnceLock::new();
    T.get_or_init(|| {
        let mut threesus = vec![0u32; 1 << 16];
        for line in 0..=u16::MAX {
            let c = threesus_counts(line);
            threesus[line as usize] = c[0] | c[1] << 8 | c[2] << 16 | c[3] << 24;
        }
        EvalTables { threesus }
    })
}

#[inline]
fn lines(board: u64) -> [u16; 8] {
    let t = transpose(board);
    [
        board as u16,
        (board >> 16) as u16,
        (board >> 32) as u16,
        (board >> 48) as u16,
        t as u16,
        (t >> 16) as u16,
        (t >> 32) as u16,
        (t >> 48) as u16,
    ]
}

impl ThreesEval {
    fn threesus<S: TermSink>(board: u64, sink: &mut S) -> f64 {
        let t = &eval_tables().threesus;
        let ls = lines(board);
        let rows: u32 = ls[..4].iter().map(|&l| t[l as usize]).sum();
        let cols: u32 = ls[4..].iter().map(|&l| t[l as usize]).sum();
        let all = rows + cols;
        // Empty cells are counted once (from the rows); the rest in rows and columns.
        let raw = [
            (rows & 255) as f64,
            (all >> 8 & 255) as f64,
            (all >> 16 & 255) as f64,
            (all >> 24 & 255) as f64,
        ];
        let mut total = 0.0;
        for i in 0..4 {
            if S::ACTIVE {
                sink.term(THREESUS_NAMES[i], raw[i], THREESUS_WEIGHTS[i]);
            }
            total += raw[i] * THREESUS_WEIGHTS[i];
        }
        total
    }

    fn strong_value<S: TermSink>(t: &StrongTable, board: u64, sink: &mut S) -> f64 {
        let ls = lines(board);
        let late = has_late_card(board);
        let total = if S::ACTIVE {
            let (params, pw) = if late {
                (&t.late_params, &t.late_powers)
            } else {
                (&t.params, &t.powers)
            };
            let mut raw = [0.0; 7];
            for &l in &ls {
                for (acc, r) in raw.iter_mut().zip(strong_raw(l, pw)) {
                    *acc += r;
                }
            }
            let mut total = 0.0;
            for i in 0..7 {
                sink.term(STRONG_NAMES[i], raw[i], params.weights[i]);
                total += raw[i] * params.weights[i];
            }
            total
        } else {
            let table = match &t.late_table {
                Some(late_table) if late => late_table,
                _ => &t.table,
            };
            ls.iter().map(|&l| table[l as usize]).sum()
        };
        if total < FLOOR {
            if S::ACTIVE {
                sink.term("floor", FLOOR - total, 1.0);
            }
            FLOOR
        } else {
            total
        }
    }
}

impl Evaluator<Threes> for ThreesEval {
    fn prescore_is_evaluation(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        match self {
            ThreesEval::Threesus => "threesus",
            ThreesEval::Strong(_) => "strong",
        }
    }

    fn evaluate<S: TermSink>(&self, pos: &Threes, _perspective: PlayerId, sink: &mut S) -> f64 {
        match self {
            ThreesEval::Threesus => Self::threesus(pos.board(), sink),
            ThreesEval::Strong(t) => Self::strong_value(t, pos.board(), sink),
        }
    }

    /// A lost game is worth [`LOST`] plus 1,000 per ply survived below the root (at most 64,000):
    /// always below the lowest live board ([`FLOOR`]), and a later loss is better than an earlier.
    fn terminal(&self, _pos: &Threes, _outcome: Outcome, _perspective: PlayerId, ply: u32) -> f64 {
        LOST + 1_000.0 * ply.min(64) as f64
    }

    /// The grid: a position's legal swipes, its end, the grids the swipes make, and both
    /// evaluators' values depend on the grid alone (not on the deck or the hint).
    fn horizon_key(&self, pos: &Threes) -> Option<u64> {
        Some(pos.board())
    }

    /// Lost games count the plies survived ([`LOST`] + 1,000 a ply); live values are evaluation
    /// points.
    fn scale(&self) -> ValueScale {
        ValueScale {
            decided: None,
            margin: None,
            win: None,
            lost: Some(LostScale {
                at: LOST,
                per_ply: 1_000.0,
                max_plies: 64,
            }),
            ..ValueScale::of(ValueUnit::POINTS)
        }
    }

    /// Live boards read as board quality in thousands of evaluation points (higher is better); a
    /// certain loss as the plies (swipes and deals) to it; values between mix lines that lose.
    fn describe(&self, value: f64) -> ValueText {
        if !value.is_finite() {
            return describe_value(value, ValueUnit::POINTS);
        }
        if value >= FLOOR {
            let k = value / 1000.0;
            return ValueText {
                text: format!("board quality {k:.1}k"),
                amount: Some(k),
                decided: None,
                margin: None,
            };
        }
        if value <= LOST + 64_000.0 {
            let plies = ((value - LOST) / 1000.0).round().max(0.0) as i64;
            return ValueText {
                text: format!(
                    "lost within {plies} {}",
                    if plies == 1 { "ply" } else { "plies" }
                ),
                amount: None,
                decided: Some(-plies),
                margin: None,
            };
        }
        ValueText {
            text: "some lines lose".to_string(),
            amount: Some(FLOOR / 1000.0),
            decided: None,
            margin: None,
        }
    }
}
