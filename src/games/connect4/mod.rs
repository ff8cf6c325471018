//! Connect Four: seven columns of six, discs fall to the lowest empty cell of the column they are
//! dropped in; four in a row (across, up or diagonally) wins, a full board is a draw.
//!
//! Moves are column numbers `1` to `7`, left to right. Position text: the six rows from the top,
//! separated by `/`, each seven cells (`x` the first player, `o` the second, `.` empty), a space,
//! then the side to move (`x` or `o`), e.g. `......./......./......./......./......./...x... o`.
//!
//! Bitboards as in Pascal Pons's solver: bit `col * 7 + row` (row 0 at the bottom), with one
//! empty guard bit at the top of each column so that shifted lines never wrap into the next column.

mod eval;
mod notation;
#[cfg(test)]
mod tests;
mod view;

pub use eval::Connect4Eval;

use super::{AiDefaults, GameInfo, Playable};
use crate::core::{
    Error, Game, IllegalMove, Outcome, ParseMoveError, ParsePositionError, PerftConvention,
    PlayerId, Turn, ZobristTable,
};

/// Columns.
pub const WIDTH: u32 = 7;
/// Rows.
pub const HEIGHT: u32 = 6;
/// Bits per column: the rows and one guard bit.
const STRIDE: u32 = HEIGHT + 1;
/// The bottom cell of every column.
const BOTTOM: u64 = {
    let mut b = 0u64;
    let mut c = 0;
    while c < WIDTH {
        b |= 1 << (c * STRIDE);
        c += 1;
    }
    b
};
/// Every playable cell (guard bits excluded).
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

static KEYS: ZobristTable<{ 2 * 64 + 1 }> = ZobristTable::new(0xC4C4);

/// A move: the column (0..7, left to right) a disc is dropped in.
pub type Column = u8;

/// A Connect Four position: the discs of each player, the side to move and the zobrist key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Connect4 {
    discs: [u64; 2],
    to_move: PlayerId,
    /// Whether the player who moved last made four in a row.
    won: bool,
    key: u64,
}

impl Default for Connect4 {
    fn default() -> Self {
        Connect4::new()
    }
}

/// The empty cells (playable now or not) where a disc of the player owning `b` would make four in
/// a row, as in Pascal Pons's solver: for each direction, three discs in a row with the cell at
/// either end, or two and one with the gap between them.
#[inline]
fn winning_cells(b: u64, mask: u64) -> u64 {
    // Up: three discs below the cell.
    let mut r = (b << 1) & (b << 2) & (b << 3);
    // Across (STRIDE) and the two diagonals (STRIDE - 1, STRIDE + 1).
    for s in [STRIDE, STRIDE - 1, STRIDE + 1] {
        let two_before = (b << s) & (b << (2 * s));
        r |= two_before & (b << (3 * s));
        r |= two_before & (b >> s);
        let two_after = (b >> s) & (b >> (2 * s));
        r |= two_after & (b << s);
        r |= two_after & (b >> (3 * s));
    }
    r & BOARD & !mask
}

/// Whether `b` holds four in a row in any direction.
#[inline]
fn has_four(b: u64) -> bool {
    // Up (1), across (STRIDE), and the two diagonals (STRIDE - 1, STRIDE + 1).
    for shift in [1, STRIDE, STRIDE - 1, STRIDE + 1] {
        let pairs = b & (b >> shift);
        if pairs & (pairs >> (2 * shift)) != 0 {
            return true;
        }
    }
    false
}

impl Connect4 {
    /// The empty board, `x` to move.
    pub fn new() -> Self {
        Connect4 {
            discs: [0, 0],
            to_move: 0,
            won: false,
            key: 0,
        }
    }

    /// Every occupied cell.
    #[inline]
    fn mask(&self) -> u64 {
        self.discs[0] | self.discs[1]
    }

    /// The owner of the cell at `col` (0..7 from the left) and `row` (0..6 from the bottom).
    pub fn cell(&self, col: u32, row: u32) -> Option<PlayerId> {
        if col >= WIDTH || row >= HEIGHT {
            return None;
        }
        let bit = 1u64 << (col * STRIDE + row);
        (0..2).find(|&p| self.discs[p as usize] & bit != 0)
    }

    /// The number of discs played.
    pub fn discs_played(&self) -> u32 {
        self.mask().count_ones()
    }

    /// The columns that still take a disc, as a bit per column.
    #[inline]
    fn open_columns(&self) -> u8 {
        let top = BOTTOM << (HEIGHT - 1);
        let free = top & !self.mask();
        let mut cols = 0u8;
        for c in 0..WIDTH {
            if free >> (c * STRIDE + HEIGHT - 1) & 1 == 1 {
                cols |= 1 << c;
            }
        }
        cols
    }

    /// Whether the side to move can make four in a row with its next disc (some column's landing
    /// cell completes a line). Bit operations only.
    #[inline]
    pub fn can_win_now(&self) -> bool {
        let mask = self.mask();
        // The landing cell of every column that is not full (a full column's lands on its guard bit).
        let landing = mask.wrapping_add(BOTTOM) & BOARD;
        !self.is_over() && winning_cells(self.discs[self.to_move as usize], mask) & landing != 0
    }

    /// The cell a disc dropped in `col` lands on, as a bit.
    #[inline]
    fn landing(&self, col: Column) -> u64 {
        let column = ((1u64 << HEIGHT) - 1) << (col as u32 * STRIDE);
        // The lowest empty cell of the column: the column's occupied cells plus its bottom bit.
        (self.mask() & column).wrapping_add(1 << (col as u32 * STRIDE)) & column
    }

    /// Perft with the game's convention (a finished game counts nothing deeper), on bitboards and
    /// without move lists.
    pub fn perft_fast(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.is_over() {
            return 0;
        }
        let cols = self.open_columns();
        if depth == 1 {
            return cols.count_ones() as u64;
        }
        let mut n = 0;
        for c in 0..WIDTH as u8 {
            if cols >> c & 1 == 1 {
                let mut child = self.clone();
                child.play_unchecked(c);
                n += child.perft_fast(depth - 1);
            }
        }
        n
    }

    /// Whether the game is over (four in a row, or a full board).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.won || self.mask() == BOARD
    }

    /// The discs of `player` as a bitboard (bit `col * 7 + row`, row 0 at the bottom).
    pub fn discs(&self, player: PlayerId) -> u64 {
        self.discs[player as usize & 1]
    }

    fn from_discs(discs: [u64; 2], to_move: PlayerId) -> Self {
        let mut p = Connect4 {
            discs,
            to_move,
            won: false,
            key: 0,
        };
        p.won = has_four(discs[1 - to_move as usize]);
        p.key = p.zobrist_from_scratch();
        p
    }
}

impl Game for Connect4 {
    type Move = Column;

    fn game_id(&self) -> String {
        "connect4".into()
    }

    fn player_name(&self, player: PlayerId) -> &'static str {
        if player == 0 {
            "red"
        } else {
            "yellow"
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

    fn legal_moves(&self, out: &mut Vec<Column>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let cols = self.open_columns();
        out.extend((0..WIDTH as u8).filter(|&c| cols >> c & 1 == 1));
    }

    #[inline]
    fn play_unchecked(&mut self, m: Column) {
        let bit = self.landing(m);
        let p = self.to_move as usize;
        self.discs[p] |= bit;
        self.key ^= KEYS.key(p * 64 + bit.trailing_zeros() as usize) ^ KEYS.key(128);
        self.won = has_four(self.discs[p]);
        self.to_move ^= 1;
    }

    fn play(&mut self, m: Column) -> Result<(), IllegalMove> {
        let text = self.format_move(m);
        if self.is_over() {
            return Err(IllegalMove::new(text, "the game is over"));
        }
        if m as u32 >= WIDTH {
            return Err(IllegalMove::new(text, "there are seven columns, 1 to 7"));
        }
        if self.open_columns() >> m & 1 == 0 {
            return Err(IllegalMove::new(text, "the column is full"));
        }
        self.play_unchecked(m);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.won {
            Some(Outcome::Win(1 - self.to_move))
        } else if self.mask() == BOARD {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// The side to move has a win in one (see [`Connect4::can_win_now`]): a search reaching its
    /// horizon here looks one ply further (the quiescence extension) instead of trusting the
    /// static evaluation, which does not see whose turn it is.
    fn unstable(&self) -> bool {
        self.can_win_now()
    }

    fn zobrist(&self) -> u64 {
        self.key
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let mut k = 0;
        for p in 0..2 {
            let mut b = self.discs[p];
            while b != 0 {
                k ^= KEYS.key(p * 64 + b.trailing_zeros() as usize);
                b &= b - 1;
            }
        }
        if self.to_move == 1 {
            k ^= KEYS.key(128);
        }
        k
    }

    fn parse_move(&self, text: &str) -> Result<Column, ParseMoveError> {
        notation::parse_move(text)
    }

    fn format_move(&self, m: Column) -> String {
        notation::format_move(m)
    }

    fn position_text(&self) -> String {
        notation::position_text(self)
    }

    fn from_position_text(_variant: &str, text: &str) -> Result<Self, ParsePositionError> {
        notation::read_position(text)
    }
}

impl Playable for Connect4 {
    type Eval = Connect4Eval;

    const INFO: GameInfo = GameInfo {
        id: "connect4",
        name: "Connect Four",
        variants: &[],
        chance: false,
        players: 2,
        ai: AiDefaults::new(42, 2000),
    };

    fn new_game(id: &str) -> Result<Self, Error> {
        if id != "connect4" {
            return Err(Error::bad_option(
                "game",
                id,
                "connect4 (it has no variants)",
            ));
        }
        Ok(Connect4::new())
    }

    fn evaluator_names() -> &'static [&'static str] {
        &["threats"]
    }

    fn evaluator(name: &str) -> Result<Connect4Eval, Error> {
        match name {
            "" | "threats" => Ok(Connect4Eval::Threats),
            _ => Err(Error::bad_option("evaluator", name, "threats")),
        }
    }

    fn perft_convention() -> PerftConvention {
        PerftConvention::FinishedCountsZero
    }

    fn perft(&self, depth: u32) -> u64 {
        self.perft_fast(depth)
    }
}
