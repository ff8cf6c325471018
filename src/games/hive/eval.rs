//! Hive's evaluator, with named terms so the explorer can say why a move was chosen.
//!
//! Every term is the perspective side's measure minus the opponent's, so
//! `evaluate(pos, 0) == -evaluate(pos, 1)`. The pre-score that orders and limits moves uses a
//! cheaper set of terms of its own (no move generation).

use super::{bug_of, nb, side_of, Bug, Hive, HiveMove, IN_HAND, NONE, PER_SIDE, QUEEN};
use crate::core::{Error, Evaluator, NoTerms, PlayerId, TermSink};

/// The evaluator names, the default first.
pub const NAMES: &[&str] = &["strong", "queens"];

/// Weight of an empty cell around one's own queen (the opponent's count is subtracted).
pub const W_LIBERTY: f64 = 60.0;
/// Weight of an enemy piece touching one's queen... counted against: each enemy piece on the
/// opponent's queen is worth this.
pub const W_TOUCH: f64 = 25.0;
/// Weight of a piece pinned by the one-hive rule (it can't move).
pub const W_PINNED: f64 = 12.0;
/// Weight of a piece that can move, by bug.
pub const W_MOBILE: [(Bug, f64); 8] = [
    (Bug::Queen, 40.0),
    (Bug::Spider, 8.0),
    (Bug::Beetle, 14.0),
    (Bug::Grasshopper, 10.0),
    (Bug::Ant, 22.0),
    (Bug::Mosquito, 18.0),
    (Bug::Ladybug, 14.0),
    (Bug::Pillbug, 10.0),
];
/// Weight of a piece still in hand (placing later keeps options open).
pub const W_HAND: f64 = 4.0;
/// Weight of a beetle (or mosquito) on top of the enemy queen.
pub const W_BEETLE_ON_QUEEN: f64 = 90.0;
/// Weight of a pillbug or mosquito-with-pillbug next to one's own queen that can pull a piece
/// away from it (a defence), counted against the opponent's.
pub const W_THREAT: f64 = 20.0;

/// Weight of a pillbug (or a mosquito next to one) beside its own uncovered queen that could lift
/// the queen onto an empty cell next to it where the queen would have more than two free cells (an
/// escape). Nokamute values such a defence at four of its queen-cell units; this is four liberties.
pub const W_PILLBUG_ESCAPE: f64 = 240.0;
/// Weight of a pillbug still in hand with an empty cell next to its own uncovered queen that
/// touches no enemy piece (it can be placed there as a guard): half the escape's weight.
pub const W_PILLBUG_PLACEABLE: f64 = 120.0;

/// Weight of one's own piece next to one's own queen that is free to leave (not pinned, with
/// somewhere to go): such a blocker costs a liberty now but not for good, so it gives back part of
/// the liberty's weight.
pub const W_ESCORT: f64 = 30.0;
/// Weight of the queen's danger, counted against: with `n` of the six cells around a queen taken,
/// the danger is `(n - 3)^2` from four taken cells up (1, 4, 9), on top of the liberties' linear
/// weight, because the last cells are the ones that lose the game.
pub const W_DANGER: f64 = 45.0;
/// Weight of a piece of one's own on top of the hive (a beetle or mosquito climbed on another
/// piece): it moves freely, pins what it covers and can drop next to the enemy queen.
pub const W_ON_TOP: f64 = 15.0;

/// The Hive evaluators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HiveEval {
    /// Every term: queen liberties and touching pieces, pinned pieces, mobility per bug, pieces
    /// in hand, beetles on queens, pillbug and mosquito threats, pillbug escapes and placeable
    /// pillbugs. The default.
    #[default]
    Strong,
    /// Queen liberties and touching pieces only.
    Queens,
}

impl HiveEval {
    /// The evaluator with this name; an empty name gives the default.
    pub fn by_name(name: &str) -> Result<Self, Error> {
        match name {
            "" | "strong" => Ok(HiveEval::Strong),
            "queens" => Ok(HiveEval::Queens),
            _ => Err(Error::bad_option("evaluator", name, "strong or queens")),
        }
    }
}

/// Per-side measures of a position, index 0 white, 1 black.
#[derive(Debug, Default, Clone, Copy)]
struct Measures {
    liberties: [f64; 2],
    touching: [f64; 2],
    pinned: [f64; 2],
    mobile: [[f64; 8]; 2],
    hand: [f64; 2],
    on_queen: [f64; 2],
    threat: [f64; 2],
    escort: [f64; 2],
    danger: [f64; 2],
    on_top: [f64; 2],
    /// A pillbug escape for one's queen (0 or 1; see [`W_PILLBUG_ESCAPE`]).
    defence: [f64; 2],
    /// A pillbug in hand placeable next to one's queen (0 or 1; see [`W_PILLBUG_PLACEABLE`]).
    placeable: [f64; 2],
}

fn queen_terms(h: &Hive, m: &mut Measures) {
    let queens = [h.pos(QUEEN as u8), h.pos(PER_SIDE as u8 + QUEEN as u8)];
    queen_terms_by(|c| h.top(c), queens, m);
}

/// The queen terms of a board given by the piece on top of each cell (`top`, [`NONE`] for an
/// empty cell) and the two queens' cells.
#[inline(always)]
fn queen_terms_by(top: impl Fn(u16) -> u8, queens: [u16; 2], m: &mut Measures) {
    for s in 0..2u8 {
        let q = queens[s as usize];
        if q == IN_HAND {
            // An unplaced queen can't be surrounded: count it as fully free.
            m.liberties[s as usize] = 6.0;
            continue;
        }
        for d in 0..6 {
            let t = top(nb(q, d));
            if t == NONE {
                m.liberties[s as usize] += 1.0;
            } else if side_of(t) != s {
                // An enemy piece next to s's queen counts for the enemy.
                m.touching[1 - s as usize] += 1.0;
            }
        }
        let t = top(q);
        if t != NONE && side_of(t) != s {
            m.on_queen[1 - s as usize] += 1.0;
        }
        let taken = 6.0 - m.liberties[s as usize];
        if taken > 3.0 {
            m.danger[s as usize] = (taken - 3.0) * (taken - 3.0);
        }
    }
}

/// Whether cell `c` is next to cell `q`.
#[inline(always)]
fn touches(c: u16, q: u16) -> bool {
    q != IN_HAND && (0..6).any(|d| nb(c, d) == q)
}

fn full_terms(h: &Hive, m: &mut Measures) {
    let pinned = h.pinned();
    let queens = [h.pos(QUEEN as u8), h.pos(PER_SIDE as u8 + QUEEN as u8)];
    for p in 0..super::PIECES as u8 {
        let s = side_of(p) as usize;
        if !h.in_game(p) {
            continue;
        }
        let c = h.pos(p);
        if c == IN_HAND {
            m.hand[s] += 1.0;
            continue;
        }
        if h.top(c) != p {
            continue;
        }
        // A pillbug escape for the queen: the pillbug's power works even when it is pinned.
        if h.level(p) == 0
            && m.defence[s] == 0.0
            && bug_of(p) != Bug::Queen
            && touches(c, queens[s])
            && h.height(queens[s]) == 1
            && powered(h, c, bug_of(p))
            && escape(h, c, queens[s])
        {
            m.defence[s] = 1.0;
        }
        if h.level(p) == 0 && pinned & (1 << p) != 0 {
            m.pinned[s] += 1.0;
            continue;
        }
        let b = bug_of(p);
        let at_own_queen = b != Bug::Queen && touches(c, queens[s]);
        // A piece touching the enemy queen is committed there: it earns the touching term, not
        // mobility (moving it away would free the queen).
        let at_enemy_queen = touches(c, queens[1 - s]);
        if h.queen_placed(s as u8)
            && (at_own_queen || !at_enemy_queen)
            && h.can_move_somewhere(p)
        {
            if !at_enemy_queen {
                m.mobile[s][b as usize] += 1.0;
            }
            if at_own_queen && h.level(p) == 0 {
                m.escort[s] += 1.0;
            }
        }
        if h.level(p) > 0 {
            m.on_top[s] += 1.0;
        }
        // A pillbug (or a mosquito touching one) next to its own queen can lift attackers off.
        if h.level(p) == 0 && at_own_queen && powered(h, c, b) {
            m.threat[s] += 1.0;
        }
    }
    for s in 0..2u8 {
        let q = queens[s as usize];
        let pb = s as usize * PER_SIDE + super::PILLBUG;
        if q != IN_HAND
            && h.in_game(pb as u8)
            && h.pos(pb as u8) == IN_HAND
            && h.height(q) == 1
            && (0..6).any(|d| {
                let e = nb(q, d);
                h.top(e) == NONE && h.side_neighbours(e, 1 - s) == 0
            })
        {
            m.placeable[s as usize] = 1.0;
        }
    }
}

/// Whether a ground piece of bug `b` at `c` has the pillbug's power: a pillbug, or a mosquito
/// touching one.
fn powered(h: &Hive, c: u16, b: Bug) -> bool {
    b == Bug::Pillbug
        || (b == Bug::Mosquito
            && (0..6).any(|d| {
                let t = h.top(nb(c, d));
                t != NONE && bug_of(t) == Bug::Pillbug
            }))
}

/// Whether a pillbug (or powered mosquito) at `c` next to its queen at `q` could lift the queen
/// to an empty cell next to it where the queen would have more than two free cells.
fn escape(h: &Hive, c: u16, q: u16) -> bool {
    (0..6).any(|d| {
        let e = nb(c, d);
        e != q
            && h.top(e) == NONE
            && (0..6)
                .filter(|&k| {
                    let x = nb(e, k);
                    x == q || h.top(x) == NONE
                })
                .count()
                > 2
    })
}

impl Evaluator<Hive> for HiveEval {
    fn name(&self) -> &'static str {
        match self {
            HiveEval::Strong => "strong",
            HiveEval::Queens => "queens",
        }
    }

    fn evaluate<S: TermSink>(&self, pos: &Hive, perspective: PlayerId, sink: &mut S) -> f64 {
        let mut m = Measures::default();
        queen_terms(pos, &mut m);
        if *self == HiveEval::Strong {
            full_terms(pos, &mut m);
        }
        let mut t = Terms::new(perspective, sink);
        t.diff("queen liberties", m.liberties, W_LIBERTY);
        t.diff("pieces touching enemy queen", m.touching, W_TOUCH);
        if *self == HiveEval::Strong {
            t.diff("queen in danger", m.danger, -W_DANGER);
            t.diff("beetle on enemy queen", m.on_queen, W_BEETLE_ON_QUEEN);
            t.diff("pinned pieces", m.pinned, -W_PINNED);
            for &(bug, w) in &W_MOBILE {
                let i = bug as usize;
                let pair = [m.mobile[0][i], m.mobile[1][i]];
                if pair[t.a] != pair[1 - t.a] || S::ACTIVE {
                    t.diff(mobile_name(bug), pair, w);
                }
            }
            t.diff("pieces in hand", m.hand, W_HAND);
            t.diff("pillbug guards at queen", m.threat, W_THREAT);
            t.diff("pillbug escape for queen", m.defence, W_PILLBUG_ESCAPE);
            t.diff("pillbug placeable at queen", m.placeable, W_PILLBUG_PLACEABLE);
            t.diff("free pieces at own queen", m.escort, W_ESCORT);
            t.diff("pieces on top of the hive", m.on_top, W_ON_TOP);
        }
        t.total
    }

    /// Cheap terms for ordering and limiting moves: queen liberties, pieces touching the queens,
    /// beetles on queens and pieces in hand; no move generation.
    fn prescore<S: TermSink>(&self, child: &Hive, perspective: PlayerId, sink: &mut S) -> f64 {
        let mut m = Measures::default();
        queen_terms(child, &mut m);
        for p in 0..super::PIECES as u8 {
            if child.in_game(p) && child.pos(p) == IN_HAND {
                m.hand[side_of(p) as usize] += 1.0;
            }
        }
        prescore_terms(&m, perspective, sink)
    }

    /// The pre-score of the child without making it: the board after the move is read through
    /// the parent (the moved piece on its new cell, the piece under it back on top of its old
    /// one), with the same terms in the same order, so the value is exactly `prescore`'s.
    fn prescore_move(&self, parent: &Hive, mv: HiveMove, perspective: PlayerId) -> Option<f64> {
        let mut m = Measures::default();
        let mut queens = [parent.pos(QUEEN as u8), parent.pos(PER_SIDE as u8 + QUEEN as u8)];
        if mv.is_pass() {
            queen_terms(parent, &mut m);
        } else {
            let p = mv.piece;
            let from = parent.pos(p);
            let left = parent.under(p);
            if p as usize % PER_SIDE == QUEEN {
                queens[side_of(p) as usize] = mv.to;
            }
            let top = |c: u16| {
                if c == mv.to {
                    p
                } else if c == from {
                    left
                } else {
                    parent.top(c)
                }
            };
            queen_terms_by(top, queens, &mut m);
        }
        for p in 0..super::PIECES as u8 {
            if parent.in_game(p) && parent.pos(p) == IN_HAND && p != mv.piece {
                m.hand[side_of(p) as usize] += 1.0;
            }
        }
        Some(prescore_terms(&m, perspective, &mut NoTerms))
    }
}

/// The pre-score's terms from the measures of the child.
#[inline(always)]
fn prescore_terms<S: TermSink>(m: &Measures, perspective: PlayerId, sink: &mut S) -> f64 {
    let mut t = Terms::new(perspective, sink);
    t.diff("pre: queen liberties", m.liberties, W_LIBERTY);
    t.diff("pre: touching enemy queen", m.touching, W_TOUCH);
    t.diff("pre: beetle on enemy queen", m.on_queen, W_BEETLE_ON_QUEEN);
    t.diff("pre: pieces in hand", m.hand, -W_HAND);
    t.total
}

/// The running sum of an evaluation's terms, each "the perspective's measure minus the
/// opponent's" times its weight, told to the sink as it goes.
struct Terms<'s, S: TermSink> {
    a: usize,
    total: f64,
    sink: &'s mut S,
}

impl<'s, S: TermSink> Terms<'s, S> {
    fn new(perspective: PlayerId, sink: &'s mut S) -> Self {
        Terms {
            a: perspective as usize,
            total: 0.0,
            sink,
        }
    }

    /// Adds the term `name`: `pair[mine] - pair[theirs]` at weight `w`.
    #[inline(always)]
    fn diff(&mut self, name: &'static str, pair: [f64; 2], w: f64) {
        let raw = pair[self.a] - pair[1 - self.a];
        self.total += raw * w;
        self.sink.term(name, raw, w);
    }
}

fn mobile_name(b: Bug) -> &'static str {
    match b {
        Bug::Queen => "mobile queen",
        Bug::Spider => "mobile spiders",
        Bug::Beetle => "mobile beetles",
        Bug::Grasshopper => "mobile grasshoppers",
        Bug::Ant => "mobile ants",
        Bug::Mosquito => "mobile mosquito",
        Bug::Ladybug => "mobile ladybug",
        Bug::Pillbug => "mobile pillbug",
    }
}
