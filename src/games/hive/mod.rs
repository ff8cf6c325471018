//! Hive, with the Mosquito, Ladybug and Pillbug expansions in any combination.
//!
//! The board is an unbounded hex grid. The state keeps it on a 32x32 torus of cells (index
//! `(r * 32 + q) mod 1024` for axial coordinates `q`, `r`): two distinct cells of the torus are at
//! least 32 steps apart, and every cell a move can involve lies within 30 steps of any other (a hive
//! of at most 28 pieces plus one ring around it), so the torus never confuses two cells that matter.
//!
//! Each side has up to 14 pieces, numbered by slot ([`SLOTS`]): white's are `0..14`, black's
//! `14..28`. A piece is in hand or on a cell at a level (0 on the ground); each cell keeps the piece
//! on top of its stack, and each piece the piece under it.
//!
//! Rules (UHP's, as Mzinga and nokamute play them):
//! - a piece is placed touching only its own colour (the first two placements excepted); the lowest
//!   numbered piece of a kind goes first (`wS1` before `wS2`);
//! - no queen on a player's first placement (the tournament opening); the queen must be placed by
//!   the player's fourth turn; no piece moves before its side's queen is placed;
//! - a move may not split the hive (one-hive rule, checked with the articulation points of the
//!   ground pieces, in linear time) and a sliding piece must keep touching the hive and can't pass
//!   a gate; climbing pieces can't pass between two stacks higher than both where they come from
//!   and where they go;
//! - the piece moved on the previous ply (by anyone) may not move or be moved, and a Pillbug or
//!   Mosquito that was moved there may not use the Pillbug's power;
//! - a player passes only without a legal move; the game ends when a queen is surrounded (both at
//!   once: a draw), or as a draw when a position repeats (see [`Hive::outcome`]).
//!
//! Text forms (UHP GameString and MoveString) live in [`notation`], move generation in
//! [`movegen`], the evaluator in [`eval`].

pub mod eval;
pub mod levels;
pub mod movegen;
pub mod notation;
pub mod opening;
mod view;

use super::{AiDefaults, GameInfo, Playable};
use crate::core::{
    split_variant, Error, Game, Outcome, ParseMoveError, ParsePositionError, PerftConvention,
    PerftLimit, PlayerId, Turn, Unbounded,
};
use std::sync::Arc;

pub use eval::HiveEval;

/// Number of cells of the torus the board lives on.
pub const CELLS: usize = 1024;
/// Cell-index mask.
pub const MASK: u16 = (CELLS - 1) as u16;
/// Where the first piece of a game is placed.
pub const CENTER: u16 = 16 * 32 + 16;
/// Pieces per side (with every expansion).
pub const PER_SIDE: usize = 14;
/// Piece slots on both sides.
pub const PIECES: usize = 2 * PER_SIDE;
/// A piece's position while it is in hand.
pub const IN_HAND: u16 = u16::MAX;
/// No piece.
pub const NONE: u8 = u8::MAX;

/// The steps to the six neighbours, in order around the cell: east, north-east, north-west, west,
/// south-west, south-east. Neighbours `d - 1` and `d + 1` (mod 6) are the two cells shared by a
/// cell and its neighbour `d`.
pub const DIRS: [u16; 6] = [1, 1024 - 31, 1024 - 32, 1024 - 1, 31, 32];

/// The neighbour of `cell` in direction `d` (0..6, see [`DIRS`]).
#[inline(always)]
pub fn nb(cell: u16, d: usize) -> u16 {
    cell.wrapping_add(DIRS[d]) & MASK
}

/// A kind of bug.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bug {
    /// Queen Bee: one step.
    Queen,
    /// Spider: exactly three steps.
    Spider,
    /// Beetle: one step, climbing.
    Beetle,
    /// Grasshopper: jumps in a line over pieces.
    Grasshopper,
    /// Soldier Ant: any number of steps.
    Ant,
    /// Mosquito: moves as any bug it touches.
    Mosquito,
    /// Ladybug: two steps on top, one down.
    Ladybug,
    /// Pillbug: one step, or moves a neighbour over itself.
    Pillbug,
}

impl Bug {
    /// The bug's letter in UHP notation.
    pub fn letter(self) -> char {
        match self {
            Bug::Queen => 'Q',
            Bug::Spider => 'S',
            Bug::Beetle => 'B',
            Bug::Grasshopper => 'G',
            Bug::Ant => 'A',
            Bug::Mosquito => 'M',
            Bug::Ladybug => 'L',
            Bug::Pillbug => 'P',
        }
    }

    /// The bug with this UHP letter.
    pub fn from_letter(c: char) -> Option<Bug> {
        Some(match c {
            'Q' => Bug::Queen,
            'S' => Bug::Spider,
            'B' => Bug::Beetle,
            'G' => Bug::Grasshopper,
            'A' => Bug::Ant,
            'M' => Bug::Mosquito,
            'L' => Bug::Ladybug,
            'P' => Bug::Pillbug,
            _ => return None,
        })
    }

    /// The English name.
    pub fn name(self) -> &'static str {
        match self {
            Bug::Queen => "queen",
            Bug::Spider => "spider",
            Bug::Beetle => "beetle",
            Bug::Grasshopper => "grasshopper",
            Bug::Ant => "ant",
            Bug::Mosquito => "mosquito",
            Bug::Ladybug => "ladybug",
            Bug::Pillbug => "pillbug",
        }
    }
}

/// Each side's piece slots: the bug and its number in UHP names (0 for the unnumbered ones).
pub const SLOTS: [(Bug, u8); PER_SIDE] = [
    (Bug::Queen, 0),
    (Bug::Spider, 1),
    (Bug::Spider, 2),
    (Bug::Beetle, 1),
    (Bug::Beetle, 2),
    (Bug::Grasshopper, 1),
    (Bug::Grasshopper, 2),
    (Bug::Grasshopper, 3),
    (Bug::Ant, 1),
    (Bug::Ant, 2),
    (Bug::Ant, 3),
    (Bug::Mosquito, 0),
    (Bug::Ladybug, 0),
    (Bug::Pillbug, 0),
];

/// The slot of the queen.
pub const QUEEN: usize = 0;
/// The slot of the mosquito.
pub const MOSQUITO: usize = 11;
/// The slot of the ladybug.
pub const LADYBUG: usize = 12;
/// The slot of the pillbug.
pub const PILLBUG: usize = 13;

/// The bug of piece `p` (0..28).
#[inline(always)]
pub fn bug_of(p: u8) -> Bug {
    SLOTS[p as usize % PER_SIDE].0
}

/// The side (0 white, 1 black) of piece `p`.
#[inline(always)]
pub fn side_of(p: u8) -> u8 {
    (p as usize / PER_SIDE) as u8
}

/// A piece's UHP name: `wQ`, `bS2`, `wM`...
pub fn piece_name(p: u8) -> String {
    let (bug, n) = SLOTS[p as usize % PER_SIDE];
    let colour = if side_of(p) == 0 { 'w' } else { 'b' };
    if n == 0 {
        format!("{colour}{}", bug.letter())
    } else {
        format!("{colour}{}{n}", bug.letter())
    }
}

/// Which expansions a game uses (a UHP game type).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Expansions {
    /// With the Mosquito.
    pub mosquito: bool,
    /// With the Ladybug.
    pub ladybug: bool,
    /// With the Pillbug.
    pub pillbug: bool,
}

impl Expansions {
    /// Every game type, base first, in UHP's order.
    pub const ALL: [Expansions; 8] = {
        let mut all = [Expansions {
            mosquito: false,
            ladybug: false,
            pillbug: false,
        }; 8];
        // Base, M, L, P, ML, MP, LP, MLP.
        let codes = [0u8, 1, 2, 4, 3, 5, 6, 7];
        let mut i = 0;
        while i < 8 {
            all[i] = Expansions {
                mosquito: codes[i] & 1 != 0,
                ladybug: codes[i] & 2 != 0,
                pillbug: codes[i] & 4 != 0,
            };
            i += 1;
        }
        all
    };

    /// The letters, `""`, `"M"`, `"MLP"`...
    pub fn letters(self) -> String {
        let mut s = String::new();
        if self.mosquito {
            s.push('M');
        }
        if self.ladybug {
            s.push('L');
        }
        if self.pillbug {
            s.push('P');
        }
        s
    }

    /// Reads expansion letters (`"MLP"`, in any order, each at most once).
    pub fn from_letters(s: &str) -> Option<Expansions> {
        let mut e = Expansions::default();
        for c in s.chars() {
            let flag = match c {
                'M' => &mut e.mosquito,
                'L' => &mut e.ladybug,
                'P' => &mut e.pillbug,
                _ => return None,
            };
            if *flag {
                return None;
            }
            *flag = true;
        }
        Some(e)
    }

    /// The UHP GameTypeString: `Base`, `Base+MLP`...
    pub fn game_type(self) -> String {
        let l = self.letters();
        if l.is_empty() {
            "Base".to_string()
        } else {
            format!("Base+{l}")
        }
    }

    /// The game id: `hive`, `hive-MLP`...
    pub fn game_id(self) -> String {
        let l = self.letters();
        if l.is_empty() {
            "hive".to_string()
        } else {
            format!("hive-{l}")
        }
    }

    /// Whether slot `s` (0..14) is in the game.
    #[inline(always)]
    pub fn has_slot(self, s: usize) -> bool {
        match s {
            MOSQUITO => self.mosquito,
            LADYBUG => self.ladybug,
            PILLBUG => self.pillbug,
            _ => true,
        }
    }
}

/// A Hive move: a piece (0..28) goes to a cell (a placement when it is in hand), or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HiveMove {
    /// The piece, or [`NONE`] for a pass.
    pub piece: u8,
    /// The destination cell.
    pub to: u16,
}

impl HiveMove {
    /// The pass, legal only for a player without another move.
    pub const PASS: HiveMove = HiveMove { piece: NONE, to: 0 };

    /// Whether this is the pass.
    pub fn is_pass(self) -> bool {
        self.piece == NONE
    }
}

/// How many earlier positions the repetition rule looks at (every fourth ply back).
pub const REPEAT_WINDOW: usize = 8;
/// How many earlier occurrences among them draw the game.
pub const REPEAT_DRAWS: usize = 2;
const RING: usize = 4 * REPEAT_WINDOW;

/// Moves played since the last shared snapshot of the history, kept inline so that playing a move
/// allocates nothing (see [`Hive::moves`]).
const TAIL: usize = 24;

/// A Hive position with its move history.
#[derive(Clone)]
pub struct Hive {
    exp: Expansions,
    /// The piece on top of each cell, plus one (0: empty).
    top: [u8; CELLS],
    /// For each cell, how many of its six neighbours have a white piece on top (low nibble) and
    /// a black one (high nibble); kept up to date with `top` (see [`Hive::set_top`]).
    adj: [u8; CELLS],
    /// Each piece's cell, or [`IN_HAND`].
    pos: [u16; PIECES],
    /// Each piece's level (0 on the ground).
    lvl: [u8; PIECES],
    /// The piece under each piece, or [`NONE`].
    under: [u8; PIECES],
    /// Plies played (passes included).
    plies: u16,
    /// The piece moved on the previous ply, or [`NONE`].
    last: u8,
    /// Cell the last piece came from (or [`IN_HAND`]), for the page's last-move mark.
    last_from: u16,
    result: Option<Outcome>,
    key: u64,
    /// Keys of the last positions, `ring[plies % RING]` being the current one.
    ring: [u64; RING],
    /// The history before `tail`, shared between clones.
    base: Option<Arc<Vec<HiveMove>>>,
    tail: [HiveMove; TAIL],
    tail_len: u8,
}

impl std::fmt::Debug for Hive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Hive({})", self.position_text())
    }
}

impl PartialEq for Hive {
    fn eq(&self, o: &Self) -> bool {
        self.exp == o.exp
            && self.top == o.top
            && self.pos == o.pos
            && self.lvl == o.lvl
            && self.under == o.under
            && self.plies == o.plies
            && self.last == o.last
            && self.result == o.result
    }
}

/// SplitMix64's mixing function, for the piece keys.
#[inline(always)]
const fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const SIDE_KEY: u64 = 0x7F4A_7C15_9E37_79B9;

/// The key of piece `p` on `cell` at level `lvl`.
#[inline(always)]
fn piece_key(p: u8, cell: u16, lvl: u8) -> u64 {
    splitmix64(((p as u64) << 20) ^ ((lvl as u64) << 12) ^ cell as u64 ^ 0x4849_5645_0000_0000)
}

/// The keys of "piece `p` moved last" (it may not move now), by piece plus one (0: none).
const LAST_KEYS: [u64; PIECES + 1] = {
    let mut t = [0u64; PIECES + 1];
    let mut p = 0;
    while p < PIECES {
        t[p + 1] = splitmix64(0x4C41_5354_0000_0000 ^ p as u64);
        p += 1;
    }
    t
};

/// The key of "piece `p` moved last" (it may not move now).
#[inline(always)]
fn last_key(p: u8) -> u64 {
    LAST_KEYS[p.wrapping_add(1) as usize]
}

/// The keys of the first eight plies, where the queen rules depend on the ply count.
const PLY_KEYS: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut i = 0;
    while i < 8 {
        t[i] = splitmix64(0x504C_5900_0000_0000 ^ i as u64);
        i += 1;
    }
    t
};

/// The key of the early turns, where the queen rules depend on the ply count.
#[inline(always)]
fn ply_key(plies: u16) -> u64 {
    if plies < 8 {
        PLY_KEYS[plies as usize]
    } else {
        0
    }
}

/// What [`Hive::make`] returns for [`Hive::unmake`].
#[derive(Debug, Clone, Copy)]
pub struct Undo {
    from: u16,
    lvl: u8,
    under: u8,
    last: u8,
    last_from: u16,
    result: Option<Outcome>,
    key: u64,
}

impl Hive {
    /// A new game with these expansions.
    pub fn new(exp: Expansions) -> Hive {
        let mut h = Hive {
            exp,
            top: [0; CELLS],
            adj: [0; CELLS],
            pos: [IN_HAND; PIECES],
            lvl: [0; PIECES],
            under: [NONE; PIECES],
            plies: 0,
            last: NONE,
            last_from: IN_HAND,
            result: None,
            key: 0,
            ring: [0; RING],
            base: None,
            tail: [HiveMove::PASS; TAIL],
            tail_len: 0,
        };
        h.key = h.zobrist_from_scratch();
        h.ring[0] = h.key;
        h
    }

    /// The base game.
    pub fn base() -> Hive {
        Hive::new(Expansions::default())
    }

    /// The expansions in play.
    pub fn expansions(&self) -> Expansions {
        self.exp
    }

    /// Plies played so far, passes included.
    pub fn plies(&self) -> u16 {
        self.plies
    }

    /// The side to move (0 white, 1 black), also once the game is over.
    #[inline(always)]
    pub fn side(&self) -> u8 {
        (self.plies & 1) as u8
    }

    /// The UHP turn number of the side to move (1 on each side's first turn).
    pub fn turn_number(&self) -> u16 {
        self.plies / 2 + 1
    }

    /// Piece `p`'s cell, or [`IN_HAND`].
    #[inline(always)]
    pub fn pos(&self, p: u8) -> u16 {
        self.pos[p as usize]
    }

    /// Piece `p`'s level (0 on the ground).
    #[inline(always)]
    pub fn level(&self, p: u8) -> u8 {
        self.lvl[p as usize]
    }

    /// The piece under piece `p`, or [`NONE`].
    #[inline(always)]
    pub fn under(&self, p: u8) -> u8 {
        self.under[p as usize]
    }

    /// The piece on top of `cell`, or [`NONE`].
    #[inline(always)]
    pub fn top(&self, cell: u16) -> u8 {
        self.top[cell as usize].wrapping_sub(1)
    }

    /// How many pieces are stacked on `cell`.
    #[inline(always)]
    pub fn height(&self, cell: u16) -> u8 {
        let t = self.top[cell as usize];
        if t == 0 {
            0
        } else {
            self.lvl[t as usize - 1] + 1
        }
    }

    /// The piece moved on the previous ply, or [`NONE`].
    pub fn last_moved(&self) -> u8 {
        self.last
    }

    /// Where the piece moved last came from ([`IN_HAND`] for a placement), with where it went; `None`
    /// before the first move or after a pass.
    pub fn last_move_cells(&self) -> Option<(u16, u16)> {
        if self.last == NONE {
            None
        } else {
            Some((self.last_from, self.pos[self.last as usize]))
        }
    }

    /// Whether piece `p` is in this game (its expansion is on).
    #[inline(always)]
    pub fn in_game(&self, p: u8) -> bool {
        self.exp.has_slot(p as usize % PER_SIDE)
    }

    /// Whether side `s`'s queen is on the board.
    #[inline(always)]
    pub fn queen_placed(&self, s: u8) -> bool {
        self.pos[s as usize * PER_SIDE] != IN_HAND
    }

    /// How many of the six cells around side `s`'s queen are occupied (0 while it is in hand).
    #[inline]
    pub fn queen_neighbours(&self, s: u8) -> u32 {
        let q = self.pos[s as usize * PER_SIDE];
        if q == IN_HAND {
            return 0;
        }
        self.occupied_neighbours(q)
    }

    /// How many of the six neighbours of `cell` are occupied.
    #[inline(always)]
    pub fn occupied_neighbours(&self, cell: u16) -> u32 {
        let a = self.adj[cell as usize];
        ((a & 15) + (a >> 4)) as u32
    }

    /// How many of the six neighbours of `cell` have a piece of side `s` on top.
    #[inline(always)]
    pub fn side_neighbours(&self, cell: u16, s: u8) -> u32 {
        ((self.adj[cell as usize] >> (4 * s)) & 15) as u32
    }

    /// Puts `t` (a piece plus one, 0 for none) on top of `cell`, keeping the neighbour counts.
    #[inline(always)]
    fn set_top(&mut self, cell: u16, t: u8) {
        // A white top counts 1 in its neighbours' low nibbles, a black one 16 (the high nibble);
        // the difference is added with wrapping arithmetic, which subtracts when it is negative.
        #[inline(always)]
        fn weight(t: u8) -> u8 {
            if t == 0 {
                0
            } else if t as usize <= PER_SIDE {
                1
            } else {
                16
            }
        }
        let delta = weight(t).wrapping_sub(weight(self.top[cell as usize]));
        self.top[cell as usize] = t;
        if delta != 0 {
            for d in 0..6 {
                let e = nb(cell, d) as usize;
                self.adj[e] = self.adj[e].wrapping_add(delta);
            }
        }
    }

    /// The moves played from the start, in order.
    pub fn moves(&self) -> Vec<HiveMove> {
        let mut v = self.base.as_deref().cloned().unwrap_or_default();
        v.extend_from_slice(&self.tail[..self.tail_len as usize]);
        v
    }

    fn record(&mut self, m: HiveMove) {
        if self.tail_len as usize == TAIL {
            let mut v = self.base.as_deref().cloned().unwrap_or_default();
            v.extend_from_slice(&self.tail);
            self.base = Some(Arc::new(v));
            self.tail_len = 0;
        }
        self.tail[self.tail_len as usize] = m;
        self.tail_len += 1;
    }

    /// Plays `m` without recording it in the history; returns what [`Hive::unmake`] needs. The
    /// repetition ring is not kept either, so this is for perft and other fixed-depth walks.
    #[inline]
    pub fn make(&mut self, m: HiveMove) -> Undo {
        let u = Undo {
            from: if m.is_pass() {
                0
            } else {
                self.pos[m.piece as usize]
            },
            lvl: if m.is_pass() {
                0
            } else {
                self.lvl[m.piece as usize]
            },
            under: if m.is_pass() {
                NONE
            } else {
                self.under[m.piece as usize]
            },
            last: self.last,
            last_from: self.last_from,
            result: self.result,
            key: self.key,
        };
        self.apply(m);
        u
    }

    /// Takes back `m`, played by [`Hive::make`] which returned `u`.
    #[inline]
    pub fn unmake(&mut self, m: HiveMove, u: Undo) {
        self.plies -= 1;
        self.last = u.last;
        self.last_from = u.last_from;
        self.result = u.result;
        self.key = u.key;
        if m.is_pass() {
            return;
        }
        let p = m.piece as usize;
        // Lift the piece off `m.to`.
        self.set_top(m.to, self.under[p].wrapping_add(1));
        self.pos[p] = u.from;
        self.lvl[p] = u.lvl;
        self.under[p] = u.under;
        if u.from != IN_HAND {
            self.set_top(u.from, m.piece + 1);
        }
    }

    /// The board change of a move, with its key, the ply count and the end of the game.
    #[inline]
    fn apply(&mut self, m: HiveMove) {
        let mut key = self.key ^ SIDE_KEY ^ last_key(self.last) ^ ply_key(self.plies);
        if m.is_pass() {
            self.last = NONE;
            self.last_from = IN_HAND;
        } else {
            let p = m.piece as usize;
            let from = self.pos[p];
            if from != IN_HAND {
                key ^= piece_key(m.piece, from, self.lvl[p]);
                self.set_top(from, self.under[p].wrapping_add(1));
            }
            let below = self.top[m.to as usize];
            let lvl = if below == 0 {
                0
            } else {
                self.lvl[below as usize - 1] + 1
            };
            self.under[p] = below.wrapping_sub(1);
            self.lvl[p] = lvl;
            self.pos[p] = m.to;
            self.set_top(m.to, m.piece + 1);
            key ^= piece_key(m.piece, m.to, lvl);
            self.last = m.piece;
            self.last_from = from;
        }
        self.plies += 1;
        key ^= last_key(self.last) ^ ply_key(self.plies);
        self.key = key;
        if !m.is_pass() {
            let w = self.queen_neighbours(0) == 6;
            let b = self.queen_neighbours(1) == 6;
            self.result = match (w, b) {
                (true, true) => Some(Outcome::Draw),
                (true, false) => Some(Outcome::Win(1)),
                (false, true) => Some(Outcome::Win(0)),
                (false, false) => None,
            };
        }
    }

    /// Whether the current position repeats (see [`Hive::outcome`]).
    fn repeated(&self) -> bool {
        let now = self.ring[self.plies as usize % RING];
        let mut seen = 0;
        let mut back = 4usize;
        while back <= 4 * REPEAT_WINDOW && back <= self.plies as usize {
            if self.ring[(self.plies as usize + RING - back) % RING] == now {
                seen += 1;
            }
            back += 4;
        }
        seen >= REPEAT_DRAWS
    }

    /// The perft count with [`Hive::make`] and [`Hive::unmake`], counting the last ply from the
    /// move list's length (same convention as [`Playable::perft`]: a finished game has no moves).
    pub fn perft_fast(&mut self, depth: u32) -> u64 {
        self.perft_fast_within(depth, &mut Unbounded)
            .unwrap_or_default()
    }

    /// [`Hive::perft_fast`] within a budget (a stop flag, a deadline, a number of leaves): `None`
    /// when the budget ran out first. The budget is told the leaves of every node two plies above
    /// the leaves, so a raised stop flag is seen within microseconds; with [`Unbounded`] the checks
    /// compile away. The position is left as it was, stopped or not.
    pub fn perft_fast_within<L: PerftLimit>(&mut self, depth: u32, budget: &mut L) -> Option<u64> {
        let mut bufs: Vec<Vec<HiveMove>> = (0..=depth).map(|_| Vec::with_capacity(256)).collect();
        let n = self.perft_go(depth, &mut bufs, budget);
        (!budget.stopped()).then_some(n)
    }

    fn perft_go<L: PerftLimit>(
        &mut self,
        depth: u32,
        bufs: &mut [Vec<HiveMove>],
        budget: &mut L,
    ) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.result.is_some() {
            return 0;
        }
        if depth == 1 {
            return self.count_moves();
        }
        let (buf, rest) = bufs.split_first_mut().expect("a buffer per depth");
        self.gen_moves(buf);
        let mut n = 0;
        for &m in buf.iter() {
            let u = self.make(m);
            n += self.perft_go(depth - 1, rest, budget);
            self.unmake(m, u);
            if budget.stopped() {
                break;
            }
        }
        if depth == 2 {
            budget.count(n);
        }
        n
    }
}

impl Game for Hive {
    type Move = HiveMove;

    fn game_id(&self) -> String {
        self.exp.game_id()
    }

    fn player_name(&self, player: PlayerId) -> &'static str {
        if player == 0 {
            "white"
        } else {
            "black"
        }
    }

    fn turn(&self) -> Turn {
        if self.outcome().is_some() {
            Turn::Terminal
        } else {
            Turn::Player(self.side())
        }
    }

    fn legal_moves(&self, out: &mut Vec<HiveMove>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        self.gen_moves(out);
    }

    fn play_unchecked(&mut self, m: HiveMove) {
        self.apply(m);
        self.ring[self.plies as usize % RING] = self.key;
        self.record(m);
    }

    /// A queen surrounded ends the game (both at once: a draw). A position (the same pieces where
    /// they were, the same side to move) that occurred twice before among the positions 4, 8, ...,
    /// 32 plies earlier is a draw by repetition, as nokamute rules.
    fn outcome(&self) -> Option<Outcome> {
        if self.result.is_some() {
            return self.result;
        }
        if self.plies >= 8 && self.repeated() {
            return Some(Outcome::Draw);
        }
        None
    }

    /// The side to move may win at once: the enemy queen has five of its six cells taken. A
    /// search reaching its horizon here looks one ply further (the quiescence extension) instead
    /// of trusting the static evaluation. Only the enemy queen counts: the extended ply's children
    /// have the other side to move, so the extension does not chain while a queen stays at five.
    fn unstable(&self) -> bool {
        self.queen_neighbours(1 - self.side()) == 5
    }

    /// Exact for every move but the pass (see [`Hive::is_legal_move`]).
    fn surely_legal(&self, m: HiveMove) -> bool {
        self.outcome().is_none() && self.is_legal_move(m)
    }

    fn zobrist(&self) -> u64 {
        self.key
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let mut k = ply_key(self.plies) ^ last_key(self.last);
        if self.plies & 1 == 1 {
            k ^= SIDE_KEY;
        }
        for p in 0..PIECES as u8 {
            let c = self.pos[p as usize];
            if c != IN_HAND {
                k ^= piece_key(p, c, self.lvl[p as usize]);
            }
        }
        k
    }

    fn parse_move(&self, text: &str) -> Result<HiveMove, ParseMoveError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, m: HiveMove) -> String {
        notation::format_move(self, m)
    }

    fn position_text(&self) -> String {
        notation::game_string(self)
    }

    fn from_position_text(variant: &str, text: &str) -> Result<Self, ParsePositionError> {
        let _ = variant;
        notation::from_game_string(text)
    }
}

impl Playable for Hive {
    type Eval = HiveEval;

    const INFO: GameInfo = GameInfo {
        id: "hive",
        name: "Hive",
        variants: &[
            ("hive-M", "Hive with the Mosquito"),
            ("hive-L", "Hive with the Ladybug"),
            ("hive-P", "Hive with the Pillbug"),
            ("hive-ML", "Hive with the Mosquito and Ladybug"),
            ("hive-MP", "Hive with the Mosquito and Pillbug"),
            ("hive-LP", "Hive with the Ladybug and Pillbug"),
            ("hive-MLP", "Hive with the Mosquito, Ladybug and Pillbug"),
        ],
        chance: false,
        players: 2,
        ai: AiDefaults::new(8, 3000),
    };

    fn new_game(id: &str) -> Result<Self, Error> {
        match split_variant(id) {
            ("hive", None) => Ok(Hive::base()),
            ("hive", Some(l)) => match Expansions::from_letters(l) {
                Some(e) => Ok(Hive::new(e)),
                None => Err(Error::bad_option(
                    "game",
                    id,
                    "hive, or hive-X with X the expansions M, L, P in any combination (hive-MLP)",
                )),
            },
            _ => Err(Error::bad_option("game", id, "hive or hive-MLP")),
        }
    }

    fn evaluator_names() -> &'static [&'static str] {
        eval::NAMES
    }

    fn evaluator(name: &str) -> Result<HiveEval, Error> {
        HiveEval::by_name(name)
    }

    fn perft_convention() -> PerftConvention {
        PerftConvention::FinishedCountsZero
    }

    fn perft(&self, depth: u32) -> u64 {
        self.clone().perft_fast(depth)
    }

    fn perft_within<L: PerftLimit>(&self, depth: u32, budget: &mut L) -> Option<u64> {
        self.clone().perft_fast_within(depth, budget)
    }

    fn book_move(&self, rng: &mut crate::core::Rng) -> Option<HiveMove> {
        opening::book_move(self, rng)
    }

    fn randomness_quotient(&self, configured: u32) -> u32 {
        opening::quotient(self, configured)
    }
}
