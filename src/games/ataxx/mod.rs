//! Ataxx (the seed's "Pookie Pookie") on a 7x7 board held in `u64` bitboards.
//!
//! Cells are numbered `rank * 7 + file` from `a1` = 0 to `g7` = 48; rank 7 is the top row as shown.
//! Black (`x`, player 0) moves first; white (`o`) second. A move clones a piece to an empty cell at
//! king distance 1 (the origin stays) or jumps to an empty cell at distance 2 (the origin empties);
//! then every enemy piece next to the target turns to the mover's colour. A player with no move
//! passes (`0000`). The game ends when a side has no pieces, when no empty cell is within reach of
//! either side, or when the halfmove clock reaches 100. A side without pieces has lost; the clock
//! draws; otherwise most pieces wins, equal counts draw.
//!
//! The halfmove clock counts plies since the last clone: a clone resets it to 0, a jump or a pass
//! adds one. The fullmove number starts at 1 and grows after each move of white.
//!
//! Walls (blockers) sit on cells permanently. Ids: `ataxx` (no walls) and `ataxx-XXXX`, where
//! `XXXX` is the seed's 16-bit wall code in hex (see [`walls`]). Text forms live in [`notation`],
//! evaluators in [`eval`].

pub mod datagen;
pub mod eval;
pub mod net;
pub mod net_train;
pub mod nnue;
#[cfg(target_arch = "x86_64")]
pub mod nnue_reuse;
pub mod nnue_train;
pub mod notation;
pub mod patterns;
pub mod samples;
pub mod train;
pub mod walls;
mod view;

use super::{AiDefaults, GameInfo, Playable};
use crate::core::{
    split_variant, Coord, Error, Game, IllegalMove, Outcome, ParseMoveError, ParsePositionError,
    PerftConvention, PerftLimit, PlayerId, Turn, Unbounded, ZobristTable,
};
pub use eval::AtaxxEval;

/// Number of cells on the board.
pub const CELLS: usize = 49;
/// Every cell of the board.
pub const FULL: u64 = (1u64 << CELLS) - 1;
/// The halfmove clock value at which the game ends.
pub const HALFMOVE_LIMIT: u16 = 100;

const FILE_A: u64 = {
    let mut b = 0u64;
    let mut r = 0;
    while r < 7 {
        b |= 1u64 << (r * 7);
        r += 1;
    }
    b
};
const FILE_G: u64 = FILE_A << 6;

/// The cells next to the cells of `b` (king distance at most 1), `b` included.
#[inline(always)]
pub const fn dilate(b: u64) -> u64 {
    let h = (b | ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_G)) & FULL;
    (h | (h << 7) | (h >> 7)) & FULL
}

/// The cells at king distance exactly 1 from each cell.
pub static SINGLES: [u64; CELLS] = {
    let mut t = [0u64; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = dilate(1u64 << i) & !(1u64 << i);
        i += 1;
    }
    t
};

/// The cells at king distance exactly 2 from each cell.
pub static DOUBLES: [u64; CELLS] = {
    let mut t = [0u64; CELLS];
    let mut i = 0;
    while i < CELLS {
        let one = dilate(1u64 << i);
        t[i] = dilate(one) & !one;
        i += 1;
    }
    t
};

/// Zobrist keys: 49 per colour, one for white to move, 49 for walls.
static KEYS: ZobristTable<{ 2 * CELLS + 1 + CELLS }> = ZobristTable::new(0xA7A8);
const SIDE_KEY: usize = 2 * CELLS;
const WALL_KEYS: usize = 2 * CELLS + 1;

/// `KEYS(0, sq) ^ KEYS(1, sq)`: the key change of a piece changing colour.
static FLIP_KEYS: [u64; CELLS] = {
    let mut t = [0u64; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = KEYS.key(i) ^ KEYS.key(CELLS + i);
        i += 1;
    }
    t
};

#[inline(always)]
fn piece_key(player: usize, sq: usize) -> u64 {
    KEYS.key(player * CELLS + sq)
}

/// A cell's name, `a1` to `g7`.
pub fn cell_name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 7) as char, sq / 7 + 1)
}

/// An Ataxx move: a clone (`from == to`), a jump (`from != to`) or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AtaxxMove {
    from: u8,
    to: u8,
}

impl AtaxxMove {
    /// The pass, written `0000`; legal only for a player without another move.
    pub const PASS: AtaxxMove = AtaxxMove { from: 255, to: 255 };

    /// A clone to cell `to` (0..49).
    pub const fn clone_to(to: u8) -> Self {
        AtaxxMove { from: to, to }
    }

    /// A jump from cell `from` to cell `to`.
    pub const fn jump(from: u8, to: u8) -> Self {
        AtaxxMove { from, to }
    }

    /// Whether this is the pass.
    pub const fn is_pass(self) -> bool {
        self.to == 255
    }

    /// Whether this is a clone.
    pub const fn is_clone(self) -> bool {
        self.from == self.to && self.to != 255
    }

    /// The origin of a jump (`None` for a clone or the pass).
    pub const fn from(self) -> Option<u8> {
        if self.from != self.to {
            Some(self.from)
        } else {
            None
        }
    }

    /// The target cell (`None` for the pass).
    pub const fn to(self) -> Option<u8> {
        if self.to == 255 {
            None
        } else {
            Some(self.to)
        }
    }
}

/// An Ataxx position: two piece bitboards, the walls, the side to move and the clocks.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ataxx {
    pieces: [u64; 2],
    walls: u64,
    to_move: PlayerId,
    halfmove: u16,
    fullmove: u32,
    key: u64,
}

impl Default for Ataxx {
    fn default() -> Self {
        Ataxx::new()
    }
}

impl Ataxx {
    /// The start position without walls: black on a7 and g1, white on g7 and a1, black to move.
    pub fn new() -> Self {
        Ataxx::with_walls(0)
    }

    /// The start position with the given wall bitboard (walls on the corners are removed).
    pub fn with_walls(walls: u64) -> Self {
        let a1 = 1u64;
        let g1 = 1u64 << 6;
        let a7 = 1u64 << 42;
        let g7 = 1u64 << 48;
        let corners = a1 | g1 | a7 | g7;
        let mut pos = Ataxx {
            pieces: [a7 | g1, g7 | a1],
            walls: walls & FULL & !corners,
            to_move: 0,
            halfmove: 0,
            fullmove: 1,
            key: 0,
        };
        pos.key = pos.zobrist_from_scratch();
        pos
    }

    /// The start position of the seed's wall code (see [`walls::mirror`]); the code must be valid.
    pub fn with_wall_code(code: u16) -> Result<Self, Error> {
        walls::validate(code)?;
        Ok(Ataxx::with_walls(walls::mirror(code)))
    }

    /// Builds a position from its parts; fails when pieces and walls overlap or the clocks are out
    /// of range.
    pub fn from_parts(
        black: u64,
        white: u64,
        walls: u64,
        to_move: PlayerId,
        halfmove: u16,
        fullmove: u32,
    ) -> Result<Self, ParsePositionError> {
        if (black | white | walls) & !FULL != 0 {
            return Err(ParsePositionError::whole("cells inside the 7x7 board only"));
        }
        if black & white != 0 || (black | white) & walls != 0 {
            return Err(ParsePositionError::whole(
                "at most one piece or wall on each cell",
            ));
        }
        if to_move > 1 {
            return Err(ParsePositionError::whole("side to move x or o"));
        }
        if halfmove > HALFMOVE_LIMIT {
            return Err(ParsePositionError::whole(format!(
                "a halfmove clock from 0 to {HALFMOVE_LIMIT}"
            )));
        }
        if fullmove == 0 {
            return Err(ParsePositionError::whole("a fullmove number of at least 1"));
        }
        let mut pos = Ataxx {
            pieces: [black, white],
            walls,
            to_move,
            halfmove,
            fullmove,
            key: 0,
        };
        pos.key = pos.zobrist_from_scratch();
        Ok(pos)
    }

    /// The pieces of a player as a bitboard.
    #[inline(always)]
    pub fn pieces(&self, player: PlayerId) -> u64 {
        self.pieces[player as usize & 1]
    }

    /// The walls as a bitboard.
    #[inline(always)]
    pub fn walls(&self) -> u64 {
        self.walls
    }

    /// The empty cells as a bitboard.
    #[inline(always)]
    pub fn empty(&self) -> u64 {
        FULL & !(self.pieces[0] | self.pieces[1] | self.walls)
    }

    /// The player to move (also after the game is over).
    #[inline(always)]
    pub fn side_to_move(&self) -> PlayerId {
        self.to_move
    }

    /// Plies since the last clone.
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The fullmove number, from 1.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The seed's wall code of this position's walls, when they are a mirrored layout without
    /// walls on the corners.
    pub fn wall_code(&self) -> Option<u16> {
        walls::code_of(self.walls)
    }

    /// Whether the game is over (no pieces for a side, no reachable empty cell, or the clock at 100).
    #[inline(always)]
    pub fn is_over(&self) -> bool {
        let [b, w] = self.pieces;
        if b == 0 || w == 0 || self.halfmove >= HALFMOVE_LIMIT {
            return true;
        }
        dilate(dilate(b | w)) & self.empty() == 0
    }

    /// Empty cells the player to move can clone to.
    #[inline(always)]
    fn clone_targets(&self, player: usize) -> u64 {
        dilate(self.pieces[player]) & self.empty()
    }

    /// Whether `player` has a move other than the pass.
    pub fn can_move(&self, player: PlayerId) -> bool {
        dilate(dilate(self.pieces[player as usize & 1])) & self.empty() != 0
    }

    /// Number of legal moves of the player to move, the pass counted as one; 0 when the game is over.
    #[inline(always)]
    pub fn count_moves(&self) -> u64 {
        if self.is_over() {
            return 0;
        }
        self.count_moves_unchecked()
    }

    #[inline(always)]
    fn count_moves_unchecked(&self) -> u64 {
        let us = self.pieces[self.to_move as usize];
        let empty = self.empty();
        let n = (dilate(us) & empty).count_ones() as u64 + count_jumps(us, empty);
        n.max(1)
    }

    /// Perft with bulk counting of the last ply: no move list, no allocation, no zobrist upkeep.
    /// A finished game counts 0 at any depth from 1 (GAMES.md's convention for Ataxx).
    pub fn perft_fast(&self, depth: u32) -> u64 {
        self.perft_fast_within(depth, &mut Unbounded)
            .unwrap_or_default()
    }

    /// [`Ataxx::perft_fast`] within a budget: `None` when the budget ran out first.
    pub fn perft_fast_within<L: PerftLimit>(&self, depth: u32, budget: &mut L) -> Option<u64> {
        if depth == 0 {
            return Some(1);
        }
        let us = self.to_move as usize;
        let n = perft_raw(
            self.pieces[us],
            self.pieces[us ^ 1],
            FULL & !self.walls,
            self.halfmove,
            depth,
            budget,
        );
        (!budget.stopped()).then_some(n)
    }

    /// Why `m` may not be played here, or `None` when it is legal.
    pub fn illegal_reason(&self, m: AtaxxMove) -> Option<String> {
        if self.is_over() {
            return Some("the game is over".into());
        }
        let us = self.to_move as usize;
        let name = self.player_name(self.to_move);
        if m.is_pass() {
            if self.can_move(self.to_move) {
                return Some(format!("{name} has a move, and may pass only without one"));
            }
            return None;
        }
        if m.to >= CELLS as u8 || (m.from != m.to && m.from >= CELLS as u8) {
            return Some("the cell is not on the 7x7 board".into());
        }
        let to_bb = 1u64 << m.to;
        if self.walls & to_bb != 0 {
            return Some(format!("{} is a wall", cell_name(m.to)));
        }
        if (self.pieces[0] | self.pieces[1]) & to_bb != 0 {
            return Some(format!("{} is taken", cell_name(m.to)));
        }
        if m.is_clone() {
            if SINGLES[m.to as usize] & self.pieces[us] == 0 {
                return Some(format!(
                    "no {name} piece next to {} to clone from",
                    cell_name(m.to)
                ));
            }
        } else {
            if self.pieces[us] >> m.from & 1 == 0 {
                return Some(format!("no {name} piece on {}", cell_name(m.from)));
            }
            if DOUBLES[m.from as usize] & to_bb == 0 {
                return Some(format!(
                    "{} is not two cells from {} (a jump goes exactly two cells; a clone is written with the target alone)",
                    cell_name(m.to),
                    cell_name(m.from)
                ));
            }
        }
        None
    }
}

/// The number of jumps from `from` to `empty`: a loop over the pieces when they are few, else
/// sixteen shifted copies of the pieces (one per distance-2 offset) counted at once.
#[inline(always)]
fn count_jumps(from: u64, empty: u64) -> u64 {
    if from.count_ones() <= 4 {
        let mut n = 0;
        let mut f = from;
        while f != 0 {
            let sq = f.trailing_zeros() as usize;
            f &= f - 1;
            n += (DOUBLES[sq] & empty).count_ones() as u64;
        }
        return n;
    }
    const FILE_B: u64 = FILE_A << 1;
    const FILE_F: u64 = FILE_A << 5;
    // Horizontal shifts first (east is towards file g), then vertical ones.
    let e2 = (from << 2) & !(FILE_A | FILE_B) & FULL;
    let e1 = (from << 1) & !FILE_A & FULL;
    let w1 = (from >> 1) & !FILE_G;
    let w2 = (from >> 2) & !(FILE_F | FILE_G);
    let up = |b: u64, k: u32| (b << (7 * k)) & empty;
    let down = |b: u64, k: u32| (b >> (7 * k)) & empty;
    let mut n = 0;
    for b in [e2, w2] {
        n += (b & empty).count_ones()
            + up(b, 1).count_ones()
            + up(b, 2).count_ones()
            + down(b, 1).count_ones()
            + down(b, 2).count_ones();
    }
    for b in [e1, from, w1] {
        n += up(b, 2).count_ones() + down(b, 2).count_ones();
    }
    n as u64
}

/// Perft on bare bitboards: `us` to move, `them`, the cells that are not walls, the halfmove
/// clock. `depth` is at least 1. Nodes two plies above the leaves report to `budget`; once it says
/// stop, the count returned is partial.
fn perft_raw<L: PerftLimit>(
    us: u64,
    them: u64,
    open: u64,
    halfmove: u16,
    depth: u32,
    budget: &mut L,
) -> u64 {
    let empty = open & !(us | them);
    if us == 0 || them == 0 || halfmove >= HALFMOVE_LIMIT || dilate(dilate(us | them)) & empty == 0
    {
        return 0;
    }
    let clones = dilate(us) & empty;
    // Only pieces with an empty cell at distance 2 can jump.
    let jumpers = us & dilate(dilate(empty));
    if depth == 1 {
        return (clones.count_ones() as u64 + count_jumps(jumpers, empty)).max(1);
    }
    let mut total = 0;
    let mut any = clones != 0;
    let mut c = clones;
    while c != 0 {
        let to = c.trailing_zeros() as usize;
        c &= c - 1;
        let caps = SINGLES[to] & them;
        total += perft_raw(
            them ^ caps,
            us | caps | (1u64 << to),
            open,
            0,
            depth - 1,
            budget,
        );
        if budget.stopped() {
            return total;
        }
    }
    let mut from = jumpers;
    while from != 0 {
        let f = from.trailing_zeros() as usize;
        from &= from - 1;
        let mut targets = DOUBLES[f] & empty;
        any |= targets != 0;
        let base = us ^ (1u64 << f);
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let caps = SINGLES[to] & them;
            total += perft_raw(
                them ^ caps,
                base | caps | (1u64 << to),
                open,
                halfmove + 1,
                depth - 1,
                budget,
            );
        }
        if budget.stopped() {
            return total;
        }
    }
    if !any {
        total += perft_raw(them, us, open, halfmove + 1, depth - 1, budget);
    }
    if depth == 2 {
        budget.count(total);
    }
    total
}

impl Game for Ataxx {
    type Move = AtaxxMove;

    fn game_id(&self) -> String {
        walls::variant_id(self.wall_code().unwrap_or(0))
    }

    fn player_name(&self, player: PlayerId) -> &'static str {
        if player == 0 {
            "black"
        } else {
            "white"
        }
    }

    #[inline]
    fn turn(&self) -> Turn {
        if self.is_over() {
            Turn::Terminal
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn legal_moves(&self, out: &mut Vec<AtaxxMove>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let us = self.to_move as usize;
        let empty = self.empty();
        let mut clones = self.clone_targets(us);
        while clones != 0 {
            let to = clones.trailing_zeros() as u8;
            clones &= clones - 1;
            out.push(AtaxxMove::clone_to(to));
        }
        let mut from = self.pieces[us] & dilate(dilate(empty));
        while from != 0 {
            let f = from.trailing_zeros() as u8;
            from &= from - 1;
            let mut targets = DOUBLES[f as usize] & empty;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                out.push(AtaxxMove::jump(f, to));
            }
        }
        if out.is_empty() {
            out.push(AtaxxMove::PASS);
        }
    }

    #[inline]
    fn play_unchecked(&mut self, m: AtaxxMove) {
        let us = self.to_move as usize;
        let them = us ^ 1;
        if self.to_move == 1 {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.to_move ^= 1;
        self.key ^= KEYS.key(SIDE_KEY);
        if m.is_pass() {
            self.halfmove = self.halfmove.saturating_add(1);
            return;
        }
        let to = m.to as usize & 63;
        if to >= CELLS {
            return;
        }
        if m.from != m.to {
            let from = m.from as usize % CELLS;
            self.pieces[us] &= !(1u64 << from);
            self.key ^= piece_key(us, from);
            self.halfmove = self.halfmove.saturating_add(1);
        } else {
            self.halfmove = 0;
        }
        self.pieces[us] |= 1u64 << to;
        self.key ^= piece_key(us, to);
        let mut captured = SINGLES[to] & self.pieces[them];
        self.pieces[them] ^= captured;
        self.pieces[us] |= captured;
        while captured != 0 {
            let sq = captured.trailing_zeros() as usize;
            captured &= captured - 1;
            self.key ^= FLIP_KEYS[sq];
        }
    }

    /// Moves that capture are reduced a ply less than the schedule, jumps that capture nothing
    /// (they leave a hole and gain nothing) a ply more.
    #[inline]
    fn reduction_bias(&self, m: AtaxxMove) -> Option<i32> {
        let to = m.to as usize;
        if m.is_pass() || to >= CELLS {
            return Some(0);
        }
        let them = self.pieces[self.to_move as usize ^ 1];
        Some(if SINGLES[to] & them != 0 {
            -1
        } else if m.is_clone() {
            0
        } else {
            1
        })
    }

    fn play(&mut self, m: AtaxxMove) -> Result<(), IllegalMove> {
        if let Some(reason) = self.illegal_reason(m) {
            return Err(IllegalMove::new(self.format_move(m), reason));
        }
        self.play_unchecked(m);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let (b, w) = (self.pieces[0].count_ones(), self.pieces[1].count_ones());
        // The clock draws a game both sides are still in (as libataxx and the UAI engines score
        // it); a side wiped out by the last jump has lost.
        if self.halfmove >= HALFMOVE_LIMIT && b > 0 && w > 0 {
            return Some(Outcome::Draw);
        }
        Some(match b.cmp(&w) {
            std::cmp::Ordering::Greater => Outcome::Win(0),
            std::cmp::Ordering::Less => Outcome::Win(1),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn zobrist(&self) -> u64 {
        self.key
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let mut k = 0;
        for sq in 0..CELLS {
            for p in 0..2 {
                if self.pieces[p] >> sq & 1 == 1 {
                    k ^= piece_key(p, sq);
                }
            }
            if self.walls >> sq & 1 == 1 {
                k ^= KEYS.key(WALL_KEYS + sq);
            }
        }
        if self.to_move == 1 {
            k ^= KEYS.key(SIDE_KEY);
        }
        k
    }

    fn parse_move(&self, text: &str) -> Result<AtaxxMove, ParseMoveError> {
        notation::parse_move(text)
    }

    fn format_move(&self, m: AtaxxMove) -> String {
        notation::format_move(m)
    }

    fn position_text(&self) -> String {
        notation::to_fen(self)
    }

    fn from_position_text(variant: &str, text: &str) -> Result<Self, ParsePositionError> {
        if split_variant(variant).0 != "ataxx" {
            return Err(ParsePositionError::whole(format!(
                "an Ataxx game id (ataxx or ataxx-XXXX), not {variant:?}"
            )));
        }
        notation::from_fen(text)
    }
}

impl Playable for Ataxx {
    type Eval = AtaxxEval;

    const INFO: GameInfo = GameInfo {
        id: "ataxx",
        name: "Ataxx",
        variants: &[
            ("ataxx-0400", "Ataxx, four pillars"),
            ("ataxx-8000", "Ataxx, centre stone"),
            ("ataxx-7888", "Ataxx, cross"),
            ("ataxx-8124", "Ataxx, diamond"),
            ("ataxx-01A2", "Ataxx, gates"),
            ("ataxx-0220", "Ataxx, corridors"),
        ],
        chance: false,
        players: 2,
        ai: AiDefaults {
            depth: 12,
            time_ms: 2000,
            techniques_off: &[],
            // Singular extensions on: 57.0 % over 200 games at 30 ms a move against the same
            // search without them (docs/ataxx.md, "Session 26"). Internal iterative reduction
            // on: against Zataxx at 100 ms a move, 42.2 % against 30.5 % over 300 games with
            // Zataxx's evaluation, 14.7 % against 12.7 % with generation 6 (docs/ataxx.md,
            // "Sessions 28-29").
            techniques_on: &["singular_extensions", "internal_reduction", "history_malus"],
        },
    };

    /// Toggles the wall on the cell at `at` (as drawn: column from the left, row from the top)
    /// and its mirror images; the new layout's id is `ataxx-XXXX` (`ataxx` when no wall is left).
    fn edit_variant(id: &str, at: Coord) -> Result<String, Error> {
        let code = match split_variant(id) {
            ("ataxx", None) => 0,
            ("ataxx", Some(code)) => walls::parse_code(code)?,
            _ => return Err(Error::bad_option("game", id, "ataxx or ataxx-XXXX")),
        };
        if !(0..7).contains(&at.x) || !(0..7).contains(&at.y) {
            return Err(Error::bad_option(
                "cell",
                format!("({}, {})", at.x, at.y),
                "a cell of the 7x7 board (x and y from 0 to 6)",
            ));
        }
        let cell = ((6 - at.y) * 7 + at.x) as u8;
        Ok(walls::variant_id(walls::toggle(code, cell)?))
    }

    /// A random playable layout with at most six bits set.
    fn random_variant(seed: u64) -> Option<String> {
        Some(walls::variant_id(walls::random_layout(seed)))
    }

    fn new_game(id: &str) -> Result<Self, Error> {
        match split_variant(id) {
            ("ataxx", None) => Ok(Ataxx::new()),
            ("ataxx", Some(code)) => Ataxx::with_wall_code(walls::parse_code(code)?),
            _ => Err(Error::bad_option(
                "game",
                id,
                "ataxx, or ataxx-XXXX with XXXX a wall code in hex (e.g. ataxx-0400)",
            )),
        }
    }

    fn evaluator_names() -> &'static [&'static str] {
        eval::NAMES
    }

    fn evaluator(name: &str) -> Result<AtaxxEval, Error> {
        AtaxxEval::by_name(name)
    }

    fn perft_convention() -> PerftConvention {
        PerftConvention::FinishedCountsZero
    }

    fn perft_within<L: PerftLimit>(&self, depth: u32, budget: &mut L) -> Option<u64> {
        self.perft_fast_within(depth, budget)
    }
}

impl Ataxx {
    /// The seed's 14-byte packed form (see [`notation::to_packed`]).
    pub fn to_packed(&self) -> [u8; notation::PACKED_BYTES] {
        notation::to_packed(self)
    }

    /// Reads the packed form (see [`notation::from_packed`]).
    pub fn from_packed(bytes: &[u8]) -> Result<Ataxx, ParsePositionError> {
        notation::from_packed(bytes)
    }
}
