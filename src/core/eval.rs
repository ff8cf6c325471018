//! Static evaluation with named terms.
//!
//! An evaluator reports each of its terms to a [`TermSink`]. The search passes [`NoTerms`], whose
//! methods are empty and inlined away, so the plain path costs nothing; the tree recorder passes a
//! [`Breakdown`] that keeps every term for the tooltip.

use super::{Game, Outcome, PlayerId};
use serde::{Deserialize, Serialize};

/// The value of a won game. Search values of decided games are `±(WIN_SCORE - plies)` so that a
/// quicker win is preferred; evaluations must stay well inside `±WIN_SCORE / 2`.
pub const WIN_SCORE: f64 = 1_000_000.0;

/// The unit an evaluator's values read in, for people: Ataxx's evaluators count 100 per piece, so
/// their values read as pieces.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ValueUnit {
    /// Search values per unit (100 for Ataxx's centipieces).
    pub per_unit: f64,
    /// The unit's name, plural (`"pieces"`, `"discs"`, `"points"`).
    pub name: &'static str,
    /// The unit's name for exactly one (`"piece"`).
    pub one: &'static str,
    /// Decimals shown.
    pub decimals: u8,
}

impl ValueUnit {
    /// Evaluation points: the unit of evaluators whose values count nothing people know.
    pub const POINTS: ValueUnit = ValueUnit {
        per_unit: 1.0,
        name: "points",
        one: "point",
        decimals: 0,
    };
}

/// A search value in words, from the point of view of the player it was computed for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValueText {
    /// The value in words: `"+1.3 pieces"`, `"win in 5 plies"`, `"even"`.
    pub text: String,
    /// The value in the unit (pieces, discs...), when the game is not decided.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<f64>,
    /// For a decided game, the plies to its end: positive when the player wins, negative when it
    /// loses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided: Option<i64>,
    /// For a decided game whose value counts a final margin (Reversi's discs): that margin for
    /// the player, negative when it loses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<i64>,
}

/// How an evaluator's search values read, for a reader that knows no game: the unit of heuristic
/// values and how a decided game's value encodes its end. Written in tree documents (`values`,
/// docs/tree-format.md) so that the explorer prints values in units; [`Evaluator::describe`] reads
/// values with it too.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValueScale {
    /// The unit of heuristic values, plural (`"pieces"`, `"discs"`, `"points"`).
    pub unit: String,
    /// The unit's name for exactly one (`"piece"`).
    pub one: String,
    /// Search values per unit (100 for Ataxx's centipieces).
    pub per_unit: f64,
    /// Decimals shown.
    pub decimals: u8,
    /// Values whose magnitude is at least this are decided games: won when positive, lost when
    /// negative. `None`: no value means a decided game (unless [`ValueScale::lost`] says so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided: Option<f64>,
    /// Decided values count plies: `|value| = win - plies` (the default, with [`WIN_SCORE`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win: Option<f64>,
    /// Decided values count a final margin first: see [`MarginScale`] (instead of `win`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<MarginScale>,
    /// A single-player game's loss: see [`LostScale`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost: Option<LostScale>,
}

/// Decided values that encode the final margin: `|value| = decided + per * margin + (plies_from -
/// plies)`, so a larger margin always ranks first, then a quicker win (or a slower loss).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MarginScale {
    /// Value per unit of final margin (100 in Reversi).
    pub per: f64,
    /// The plies term's origin: `plies_from - plies` is what a value adds for the plies to the
    /// end (99 in Reversi); always below `per`.
    pub plies_from: f64,
    /// The margin's unit, plural (`"discs"`).
    pub unit: String,
    /// The margin's unit for exactly one (`"disc"`).
    pub one: String,
}

/// A single player's lost game: `value = at + per_ply * plies` for `plies` up to `max_plies`,
/// below every value of a game still alive (Threes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LostScale {
    /// The value of a game lost at once.
    pub at: f64,
    /// What each ply survived adds.
    pub per_ply: f64,
    /// The most plies counted.
    pub max_plies: u32,
}

impl ValueScale {
    /// The usual scale: heuristic values in `unit`, decided values `±(WIN_SCORE - plies)`.
    pub fn of(unit: ValueUnit) -> Self {
        ValueScale {
            unit: unit.name.to_string(),
            one: unit.one.to_string(),
            per_unit: unit.per_unit,
            decimals: unit.decimals,
            decided: Some(WIN_SCORE / 2.0),
            win: Some(WIN_SCORE),
            margin: None,
            lost: None,
        }
    }

    /// Describes `value` (from some player's view) in words for that player: `"+1.3 pieces"`,
    /// `"win in 5 plies"`, `"win by 38 discs"`, `"lost within 4 plies"`.
    ///
    /// ```
    /// use plyscope::core::{MarginScale, ValueScale, ValueUnit};
    /// let mut s = ValueScale::of(ValueUnit { per_unit: 1.0, name: "discs", one: "disc", decimals: 0 });
    /// s.decided = Some(501_000.0);
    /// s.win = None;
    /// s.margin = Some(MarginScale { per: 100.0, plies_from: 99.0, unit: "discs".into(), one: "disc".into() });
    /// let v = 501_000.0 + 100.0 * 38.0 + (99.0 - 7.0);
    /// assert_eq!(s.describe(v).text, "win by 38 discs");
    /// assert_eq!(s.describe(v).decided, Some(7));
    /// assert_eq!(s.describe(-v).text, "loss by 38 discs");
    /// assert_eq!(s.describe(12.0).text, "+12 discs");
    /// ```
    pub fn describe(&self, value: f64) -> ValueText {
        if !value.is_finite() {
            return ValueText {
                text: "unknown".into(),
                amount: None,
                decided: None,
                margin: None,
            };
        }
        if let Some(l) = &self.lost {
            let top = l.at + l.per_ply * l.max_plies as f64;
            if value <= top {
                let plies = ((value - l.at) / l.per_ply).round().max(0.0) as i64;
                return ValueText {
                    text: format!("lost within {plies} {}", plural(plies, "ply", "plies")),
                    amount: None,
                    decided: Some(-plies),
                    margin: None,
                };
            }
        }
        match self.decided {
            Some(d) if value.abs() >= d => {
                let win = value > 0.0;
                let word = if win { "win" } else { "loss" };
                if let Some(m) = &self.margin {
                    let r = value.abs() - d;
                    let margin = (r / m.per).floor().max(0.0);
                    let plies = (m.plies_from - (r - margin * m.per)).round().max(0.0) as i64;
                    let n = margin as i64;
                    return ValueText {
                        text: format!("{word} by {n} {}", plural(n, &m.one, &m.unit)),
                        amount: None,
                        decided: Some(if win { plies } else { -plies }),
                        margin: Some(if win { n } else { -n }),
                    };
                }
                let plies = (self.win.unwrap_or(WIN_SCORE) - value.abs())
                    .round()
                    .max(0.0) as i64;
                let text = match (win, plies) {
                    (true, 0) => "won".to_string(),
                    (false, 0) => "lost".to_string(),
                    (_, n) => format!("{word} in {n} {}", plural(n, "ply", "plies")),
                };
                return ValueText {
                    text,
                    amount: None,
                    decided: Some(if win { plies } else { -plies }),
                    margin: None,
                };
            }
            _ => {}
        }
        let amount = value / self.per_unit;
        let scale = 10f64.powi(self.decimals as i32);
        let shown = (amount * scale).round() / scale;
        let text = if shown == 0.0 {
            "even".to_string()
        } else {
            let digits = format!("{:.*}", self.decimals as usize, shown.abs());
            let digits = if digits.contains('.') {
                digits
                    .trim_end_matches('0')
                    .trim_end_matches('.')
                    .to_string()
            } else {
                digits
            };
            let name = if shown.abs() == 1.0 {
                &self.one
            } else {
                &self.unit
            };
            format!(
                "{}{digits} {name}",
                if shown > 0.0 { "+" } else { "\u{2212}" }
            )
        };
        ValueText {
            text,
            amount: Some(amount),
            decided: None,
            margin: None,
        }
    }
}

fn plural<'a>(n: i64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// Describes `value` in `unit`: `"+1.3 pieces"`, or `"win in 5 plies"` / `"loss in 4 plies"` for
/// values of decided games (`±(WIN_SCORE - plies)`).
///
/// ```
/// use plyscope::core::{describe_value, ValueUnit, WIN_SCORE};
/// let pieces = ValueUnit { per_unit: 100.0, name: "pieces", one: "piece", decimals: 1 };
/// assert_eq!(describe_value(130.0, pieces).text, "+1.3 pieces");
/// assert_eq!(describe_value(-100.0, pieces).text, "\u{2212}1 piece");
/// assert_eq!(describe_value(WIN_SCORE - 5.0, pieces).text, "win in 5 plies");
/// assert_eq!(describe_value(-(WIN_SCORE - 1.0), pieces).decided, Some(-1));
/// ```
pub fn describe_value(value: f64, unit: ValueUnit) -> ValueText {
    ValueScale::of(unit).describe(value)
}

/// Receives the named terms of an evaluation.
pub trait TermSink {
    /// Whether terms are kept. When `false`, evaluators may skip work done only for the breakdown.
    const ACTIVE: bool;
    /// Records one term: its raw measure, its weight, and so its contribution `raw * weight`.
    fn term(&mut self, name: &'static str, raw: f64, weight: f64);
}

/// A sink that keeps nothing: the search's fast path.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTerms;

impl TermSink for NoTerms {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn term(&mut self, _name: &'static str, _raw: f64, _weight: f64) {}
}

/// One named term of an evaluation, as written in the tree document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Term {
    /// The term's name (`"mobility"`, `"corners"`...).
    pub name: String,
    /// The raw measure (a count, a difference...).
    pub raw: f64,
    /// The weight it is multiplied by (it may depend on the game phase).
    pub weight: f64,
    /// The contribution to the total: `raw * weight`.
    pub value: f64,
}

/// An evaluation broken down term by term.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Breakdown {
    /// The evaluation's result.
    pub total: f64,
    /// The terms, in the order the evaluator reported them.
    pub terms: Vec<Term>,
}

impl TermSink for Breakdown {
    const ACTIVE: bool = true;
    fn term(&mut self, name: &'static str, raw: f64, weight: f64) {
        self.terms.push(Term {
            name: name.to_string(),
            raw,
            weight,
            value: raw * weight,
        });
    }
}

/// A heuristic evaluation of positions of game `G`.
///
/// Values are from `perspective`'s point of view: larger is better for that player. For two-player
/// zero-sum games `evaluate(pos, 0) == -evaluate(pos, 1)` is expected.
pub trait Evaluator<G: Game>: Sync {
    /// A short name for the evaluator, written in tree documents (`"discs"`, `"strong"`).
    fn name(&self) -> &'static str;

    /// Evaluates a non-terminal position, reporting each term to `sink`. The returned value must
    /// equal the sum of the reported contributions when the sink is active.
    fn evaluate<S: TermSink>(&self, pos: &G, perspective: PlayerId, sink: &mut S) -> f64;

    /// The pre-score used to order and limit the moves of a node: how good `child` (reached by a
    /// move from the parent) looks from `perspective`. Defaults to the static evaluation of the
    /// child; evaluators may use something cheaper.
    fn prescore<S: TermSink>(&self, child: &G, perspective: PlayerId, sink: &mut S) -> f64 {
        self.evaluate(child, perspective, sink)
    }

    /// [`Evaluator::prescore`] of the child that move `m` makes from `parent`, computed without
    /// making the child, for evaluators that can (`None`, the default: the search makes every
    /// child to pre-score it). When it answers, it must be exactly what `prescore` gives on the
    /// child; the search then makes a child only when it searches it. Not used while a tree is
    /// recorded (the recorded pre-scores come with their breakdown).
    fn prescore_move(&self, _parent: &G, _m: G::Move, _perspective: PlayerId) -> Option<f64> {
        None
    }

    /// Whether the search also orders the moves of nodes one ply above the horizon (whose
    /// children are leaves) by pre-score, from [`Evaluator::prescore_move`], and breaks ties
    /// between equal pre-scores with the history heuristic. Worth it only where pre-scores are
    /// cheap next to a leaf's evaluation and coarse (many ties), and the order decides how soon
    /// a node cuts (Ataxx: captures and clones first, each by the pieces it gains). `false` by
    /// default: nodes one ply above the horizon take the table's move, the killers and the
    /// history's picks, then the generator's order, and equal pre-scores keep the generator's.
    fn order_near_leaves(&self) -> bool {
        false
    }

    /// Whether [`Evaluator::prescore`] is exactly [`Evaluator::evaluate`] (as by default). When
    /// it is, a recorded leaf takes its evaluation from its pre-score instead of evaluating the
    /// position again. `false` unless an evaluator says so; one that overrides `prescore` with
    /// something else must leave it `false`.
    fn prescore_is_evaluation(&self) -> bool {
        false
    }

    /// The value of a finished game from `perspective`, `ply` plies below the search root.
    /// Wins are worth `WIN_SCORE - ply`, losses the opposite, a single-player score itself.
    fn terminal(&self, _pos: &G, outcome: Outcome, perspective: PlayerId, ply: u32) -> f64 {
        match outcome {
            Outcome::Win(p) if p == perspective => WIN_SCORE - ply as f64,
            Outcome::Win(_) => -(WIN_SCORE - ply as f64),
            Outcome::Draw => 0.0,
            Outcome::Score(s) => s,
        }
    }

    /// A key for what a search one move deep from `pos` reads: two positions with equal keys
    /// (both reached by a chance outcome) must have the same legal moves and outcome, and every
    /// move must lead to positions this evaluator scores alike (in [`Evaluator::evaluate`] and
    /// [`Evaluator::terminal`]). Expectimax then searches only the first of consecutive outcomes
    /// of a chance node, one move above the horizon, whose keys agree and uses its value for the
    /// rest (Threes: the outcomes that differ only in the next hint share their grid, and the
    /// search below them never reaches the next deal). `None` (the default): nothing is shared.
    fn horizon_key(&self, _pos: &G) -> Option<u64> {
        None
    }

    /// The unit this evaluator's values read in (evaluation points unless it says otherwise).
    fn unit(&self) -> ValueUnit {
        ValueUnit::POINTS
    }

    /// How this evaluator's search values read: its unit, and how a decided game's value
    /// encodes its end (by default `±(WIN_SCORE - plies)`). Evaluators whose
    /// [`Evaluator::terminal`] values differ say so here; tree documents carry it (`values`).
    fn scale(&self) -> ValueScale {
        ValueScale::of(self.unit())
    }

    /// A search value (from some player's view) in words for that player, read with
    /// [`Evaluator::scale`]: in [`Evaluator::unit`], or as a win or a loss.
    fn describe(&self, value: f64) -> ValueText {
        self.scale().describe(value)
    }
}
