//! Threes: a single-player sliding-card game with chance, played by expectimax.
//!
//! The 4x4 grid is a `u64` of sixteen 4-bit ranks, row by row from the top left (row `r`, column `c`
//! at bits `16r + 4c`). Rank 0 is an empty cell, ranks 1 and 2 the cards 1 and 2, rank `r >= 3`
//! the card `3 * 2^(r-3)` (3, 6, 12, ..., 6144 at rank 14, 12288 at rank 15). Cells are named
//! `a1`..`d4`: columns a–d left to right, rows 1–4 top to bottom.
//!
//! A turn is a swipe by the player, then a chance turn: the hinted card enters on the edge opposite
//! the swipe, in one of the rows (or columns) that moved, and the next hint is drawn. The deck and
//! hint are part of the position, so the chance odds the engine sees are the counted odds.
//! See `docs/threes.md` for the notation.

pub mod deck;
pub mod eval;
mod notation;
pub mod outlook;
mod view;

pub use deck::{Deck, Hint};
pub use eval::ThreesEval;

use super::{AiDefaults, GameInfo, Playable};
use crate::core::{
    split_variant, Error, Game, Outcome, ParseMoveError, ParsePositionError, PlayerId, Rng, Turn,
    ValueText,
};
use std::sync::OnceLock;

/// A swipe direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Towards row 1.
    Up,
    /// Towards row 4.
    Down,
    /// Towards column a.
    Left,
    /// Towards column d.
    Right,
}

impl Dir {
    /// The four directions in move-list order.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The direction's name: `up`, `down`, `left`, `right`.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }

    /// The cell where a new card enters line `line` after this swipe (the opposite edge): a row
    /// for left and right, a column for up and down.
    pub fn entry_cell(self, line: u8) -> u8 {
        match self {
            Dir::Left => line * 4 + 3,
            Dir::Right => line * 4,
            Dir::Up => 12 + line,
            Dir::Down => line,
        }
    }
}

/// A player's swipe or a chance outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThreesMove {
    /// The player swipes.
    Swipe(Dir),
    /// Nature deals: a card of rank `rank` enters at `cell`, and `next` is the new hint.
    Spawn {
        /// The cell (0..16, row by row) where the card enters.
        cell: u8,
        /// The card's rank (1, 2, 3 for 1, 2, 3; 4 and up for 6, 12, ...).
        rank: u8,
        /// The next card shown to the player.
        next: Hint,
    },
}

/// The card value of a rank (0 for an empty cell).
pub fn rank_value(rank: u8) -> u32 {
    match rank {
        0..=2 => rank as u32,
        r => 3u32 << (r - 3),
    }
}

/// The rank of a card value, if it is one (1, 2, or 3 times a power of two up to 12288).
pub fn value_rank(value: u32) -> Option<u8> {
    match value {
        1 | 2 => Some(value as u8),
        v if v >= 3 && v % 3 == 0 && (v / 3).is_power_of_two() => {
            let r = (v / 3).trailing_zeros() as u8 + 3;
            (r <= 15).then_some(r)
        }
        _ => None,
    }
}

/// The points a card of this rank is worth at the end: `3^(log2(v/3)+1)` for `v >= 3`, else 0.
pub fn rank_score(rank: u8) -> u64 {
    if rank >= 3 {
        3u64.pow(rank as u32 - 2)
    } else {
        0
    }
}

/// Whether two adjacent ranks merge when the second slides onto the first.
#[inline]
pub fn mergeable(a: u8, b: u8) -> bool {
    (a == 1 && b == 2) || (a == 2 && b == 1) || (a >= 3 && a == b && a < 15)
}

/// Slides a row (4 nibbles, cell 0 first) one step towards cell 0.
fn slide_row_left(row: u16) -> u16 {
    let mut c = [0u8; 4];
    for (i, x) in c.iter_mut().enumerate() {
        *x = (row >> (4 * i) & 15) as u8;
    }
    for i in 1..4 {
        let (a, b) = (c[i - 1], c[i]);
        if b == 0 {
            continue;
        }
        let to = if a == 0 {
            b
        } else if mergeable(a, b) {
            if a < 3 {
                3
            } else {
                a + 1
            }
        } else {
            continue;
        };
        c[i - 1] = to;
        for j in i..3 {
            c[j] = c[j + 1];
        }
        c[3] = 0;
        break;
    }
    c.iter()
        .enumerate()
        .fold(0u16, |acc, (i, &x)| acc | (x as u16) << (4 * i))
}

fn reverse_row(row: u16) -> u16 {
    (row >> 12) | (row >> 4 & 0x00F0) | (row << 4 & 0x0F00) | (row << 12)
}

/// Row lookup tables, built once.
struct Tables {
    left: Vec<u16>,
    right: Vec<u16>,
    /// Per row: bit 0 when a left swipe moves it, bit 1 when a right swipe does.
    mobile: Vec<u8>,
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let mut left = vec![0u16; 1 << 16];
        let mut right = vec![0u16; 1 << 16];
        let mut mobile = vec![0u8; 1 << 16];
        for row in 0..=u16::MAX {
            let (l, r) = (
                slide_row_left(row),
                reverse_row(slide_row_left(reverse_row(row))),
            );
            left[row as usize] = l;
            right[row as usize] = r;
            mobile[row as usize] = (l != row) as u8 | ((r != row) as u8) << 1;
        }
        Tables {
            left,
            right,
            mobile,
        }
    })
}

/// Transposes the 4x4 grid (rows become columns).
#[inline]
pub fn transpose(x: u64) -> u64 {
    let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
    let a2 = x & 0x0000_F0F0_0000_F0F0;
    let a3 = x & 0x0F0F_0000_0F0F_0000;
    let a = a1 | (a2 << 12) | (a3 >> 12);
    let b1 = a & 0xFF00_FF00_00FF_00FF;
    let b2 = a & 0x00FF_00FF_0000_0000;
    let b3 = a & 0x0000_0000_FF00_FF00;
    b1 | (b2 >> 24) | (b3 << 24)
}

/// The grid after a swipe, and a mask of the lines (rows for left/right, columns for up/down)
/// that moved. A swipe is legal when the mask is not zero.
#[inline]
pub fn swipe(board: u64, dir: Dir) -> (u64, u8) {
    let t = tables();
    let (src, table) = match dir {
        Dir::Left => (board, &t.left),
        Dir::Right => (board, &t.right),
        Dir::Up => (transpose(board), &t.left),
        Dir::Down => (transpose(board), &t.right),
    };
    let mut out = 0u64;
    let mut moved = 0u8;
    for l in 0..4 {
        let row = (src >> (16 * l)) as u16;
        let r = table[row as usize];
        if r != row {
            moved |= 1 << l;
        }
        out |= (r as u64) << (16 * l);
    }
    let out = match dir {
        Dir::Up | Dir::Down => transpose(out),
        _ => out,
    };
    (out, moved)
}

/// The swipes that move something on a grid, as bits `1 << d as u8`: one table lookup per row
/// and per column (a line moves when its slide changes it), the same as asking [`swipe`] in each
/// direction without sliding anything.
#[inline]
pub fn legal_swipes(board: u64) -> u8 {
    let t = tables();
    let cols = transpose(board);
    let (mut rows_lr, mut cols_lr) = (0u8, 0u8);
    for l in 0..4 {
        rows_lr |= t.mobile[(board >> (16 * l)) as u16 as usize];
        cols_lr |= t.mobile[(cols >> (16 * l)) as u16 as usize];
    }
    let bit = |d: Dir, on: bool| (on as u8) << d as u8;
    bit(Dir::Left, rows_lr & 1 != 0)
        | bit(Dir::Right, rows_lr & 2 != 0)
        | bit(Dir::Up, cols_lr & 1 != 0)
        | bit(Dir::Down, cols_lr & 2 != 0)
}

/// The rank at `cell` of a grid.
#[inline]
pub fn cell_rank(board: u64, cell: u8) -> u8 {
    (board >> (4 * cell as u32) & 15) as u8
}

/// The highest rank on a grid.
pub fn highest_rank(board: u64) -> u8 {
    (0..16).map(|c| cell_rank(board, c)).max().unwrap_or(0)
}

/// The score of a grid: the sum of [`rank_score`] over its cards.
pub fn board_score(board: u64) -> u64 {
    (0..16).map(|c| rank_score(cell_rank(board, c))).sum()
}

/// The splitmix64 finaliser: a bijection of u64 that spreads every input bit over the output.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The position's key, computed from its packed state: the grid's 64 bits, and 20 bits for the
/// deck counts, the hint and the swipe waiting for its card. For a given deck, hint and swipe it
/// is a bijection of the grid (no two grids share a key). Cheaper than keeping a zobrist key up to
/// date: a swipe changes up to 16 cells, each an xor of two table entries, on every node.
#[inline]
fn state_key(board: u64, deck: &Deck, hint: Hint, pending: Option<(Dir, u8)>) -> u64 {
    let pending = match pending {
        Some((d, m)) => 1 | (d as u64) << 1 | (m as u64) << 3,
        None => 0,
    };
    let rest = deck.counts[0] as u64
        | (deck.counts[1] as u64) << 4
        | (deck.counts[2] as u64) << 8
        | (hint.index() as u64) << 12
        | pending << 16;
    mix(board ^ mix(rest ^ 0x0333_37E5_0000_0000))
}

/// A Threes position: the grid, the deck, the hint, and (at a chance turn) the swipe just made.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Threes {
    board: u64,
    deck: Deck,
    hint: Hint,
    /// The swipe waiting for its new card, with the mask of lines that moved.
    pending: Option<(Dir, u8)>,
    /// Legal swipes at a player turn (bit `d as u8`); 0 at a chance turn or at the end.
    legal: u8,
}

impl Threes {
    /// A position from its parts. `pending` is the swipe waiting for its card (a chance turn).
    /// The caller checks consistency (see the position-text reader).
    pub fn from_parts(board: u64, deck: Deck, hint: Hint, pending: Option<(Dir, u8)>) -> Self {
        let mut p = Threes {
            board,
            deck,
            hint,
            pending,
            legal: 0,
        };
        p.refresh_legal();
        p
    }

    /// The start of a game dealt from `seed`: a shuffled deck of twelve, nine cards on random
    /// cells, the tenth shown as the hint.
    pub fn deal(seed: u64) -> Self {
        let mut rng = Rng::seeded(seed);
        let mut cards: Vec<u8> = (0..12).map(|i| i / 4 + 1).collect();
        for i in (1..cards.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            cards.swap(i, j);
        }
        let mut cells: Vec<u8> = (0..16).collect();
        for i in (1..cells.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            cells.swap(i, j);
        }
        let mut board = 0u64;
        for k in 0..9 {
            board |= (cards[k] as u64) << (4 * cells[k] as u32);
        }
        let hint = Hint::from_deck_card(cards[9] as usize - 1);
        let mut deck = Deck { counts: [0; 3] };
        for &c in &cards[10..] {
            deck.counts[c as usize - 1] += 1;
        }
        Threes::from_parts(board, deck, hint, None)
    }

    /// The grid (see the module documentation for its layout).
    pub fn board(&self) -> u64 {
        self.board
    }

    /// The rank at `cell` (0..16, row by row).
    pub fn rank_at(&self, cell: u8) -> u8 {
        cell_rank(self.board, cell)
    }

    /// The deck (the hint card excluded).
    pub fn deck(&self) -> Deck {
        self.deck
    }

    /// The next card shown to the player.
    pub fn hint(&self) -> Hint {
        self.hint
    }

    /// The swipe waiting for its new card (at a chance turn), with the mask of lines that moved.
    pub fn pending(&self) -> Option<(Dir, u8)> {
        self.pending
    }

    /// The score of the grid as it stands.
    pub fn score(&self) -> u64 {
        board_score(self.board)
    }

    /// The highest rank on the grid.
    pub fn highest_rank(&self) -> u8 {
        highest_rank(self.board)
    }

    fn refresh_legal(&mut self) {
        self.legal = if self.pending.is_none() {
            legal_swipes(self.board)
        } else {
            0
        };
    }

    /// Whether `m` is a chance outcome of this position with non-zero probability.
    fn is_outcome(&self, m: ThreesMove) -> bool {
        let mut outs = Vec::new();
        self.chance_outcomes(&mut outs);
        outs.iter().any(|&(o, p)| o == m && p > 0.0)
    }
}

impl Game for Threes {
    type Move = ThreesMove;

    fn game_id(&self) -> String {
        "threes".into()
    }

    fn num_players(&self) -> usize {
        1
    }

    fn player_name(&self, _player: PlayerId) -> &'static str {
        "player"
    }

    #[inline]
    fn turn(&self) -> Turn {
        if self.pending.is_some() {
            Turn::Chance
        } else if self.legal == 0 {
            Turn::Terminal
        } else {
            Turn::Player(0)
        }
    }

    fn legal_moves(&self, out: &mut Vec<ThreesMove>) {
        out.clear();
        for d in Dir::ALL {
            if self.legal >> d as u8 & 1 == 1 {
                out.push(ThreesMove::Swipe(d));
            }
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(ThreesMove, f64)>) {
        out.clear();
        let Some((dir, mask)) = self.pending else {
            return;
        };
        let lines = mask.count_ones();
        if lines == 0 {
            return;
        }
        let high = highest_rank(self.board);
        let p_line = 1.0 / lines as f64;
        let ranks = match self.hint.deck_card() {
            Some(i) => (i as u8 + 1)..=(i as u8 + 1),
            None => deck::bonus_ranks(high),
        };
        let n_ranks = ranks.clone().count();
        if n_ranks == 0 {
            return;
        }
        let p_rank = 1.0 / n_ranks as f64;
        for line in 0..4u8 {
            if mask >> line & 1 == 0 {
                continue;
            }
            let cell = dir.entry_cell(line);
            for rank in ranks.clone() {
                // A bonus card never exceeds an eighth of the highest, so the highest stays.
                self.deck.next_odds(high, |next, p| {
                    out.push((ThreesMove::Spawn { cell, rank, next }, p_line * p_rank * p));
                });
            }
        }
    }

    fn play_unchecked(&mut self, m: ThreesMove) {
        match m {
            ThreesMove::Swipe(dir) => {
                let (nb, moved) = swipe(self.board, dir);
                self.board = nb;
                self.pending = Some((dir, moved));
                self.legal = 0;
            }
            ThreesMove::Spawn { cell, rank, next } => {
                let cell = cell & 15;
                self.board = (self.board & !(15u64 << (4 * cell as u32)))
                    | ((rank as u64 & 15) << (4 * cell as u32));
                self.deck = self.deck.after_draw(next);
                self.hint = next;
                self.pending = None;
                self.refresh_legal();
            }
        }
    }

    fn play(&mut self, m: ThreesMove) -> Result<(), crate::core::IllegalMove> {
        use crate::core::IllegalMove;
        let legal = match (self.turn(), m) {
            (Turn::Terminal, _) => {
                return Err(IllegalMove::new(
                    self.format_move(m),
                    "the game is over: no swipe moves any card",
                ))
            }
            (Turn::Player(_), ThreesMove::Swipe(d)) => {
                if self.legal >> d as u8 & 1 == 0 {
                    return Err(IllegalMove::new(
                        self.format_move(m),
                        "this swipe moves no card",
                    ));
                }
                true
            }
            (Turn::Player(_), ThreesMove::Spawn { .. }) => {
                return Err(IllegalMove::new(
                    self.format_move(m),
                    "it is the player's turn to swipe, not a card's to be dealt",
                ))
            }
            (Turn::Chance, ThreesMove::Swipe(_)) => {
                return Err(IllegalMove::new(
                    self.format_move(m),
                    "a new card must be dealt first (a chance turn)",
                ))
            }
            (Turn::Chance, ThreesMove::Spawn { .. }) => self.is_outcome(m),
        };
        if !legal {
            return Err(IllegalMove::new(
                self.format_move(m),
                "not a possible deal here: the card must be the hinted one (or a bonus value from 6 \
                 to an eighth of the highest card), on the entry edge of a line that moved, and the \
                 next hint must be one the deck can give",
            ));
        }
        self.play_unchecked(m);
        Ok(())
    }

    fn outcome_is_score(&self) -> bool {
        true
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.turn() == Turn::Terminal).then(|| Outcome::Score(self.score() as f64))
    }

    /// Computed on demand (see `state_key`): the whole state packs into 84 bits.
    fn zobrist(&self) -> u64 {
        state_key(self.board, &self.deck, self.hint, self.pending)
    }

    /// The same as [`Game::zobrist`]: nothing is maintained incrementally.
    fn zobrist_from_scratch(&self) -> u64 {
        self.zobrist()
    }

    fn parse_move(&self, text: &str) -> Result<ThreesMove, ParseMoveError> {
        notation::parse_move(text)
    }

    fn format_move(&self, m: ThreesMove) -> String {
        notation::format_move(m)
    }

    fn position_text(&self) -> String {
        notation::position_text(self)
    }

    fn from_position_text(_variant: &str, text: &str) -> Result<Self, ParsePositionError> {
        notation::read_position(text)
    }
}

impl Playable for Threes {
    type Eval = ThreesEval;

    const INFO: GameInfo = GameInfo {
        id: "threes",
        name: "Threes",
        variants: &[("threes-1", "Threes, the deal from seed 1 (any threes-S)")],
        chance: true,
        players: 1,
        ai: AiDefaults::new(8, 1000),
    };

    fn new_game(id: &str) -> Result<Self, Error> {
        let expected =
            "threes (a random deal) or threes-S with S a whole number (the deal from seed S)";
        match split_variant(id) {
            ("threes", None) => Ok(Threes::deal(Rng::entropy_seed())),
            ("threes", Some(s)) => s
                .parse::<u64>()
                .map(Threes::deal)
                .map_err(|_| Error::bad_option("game", id, expected)),
            _ => Err(Error::bad_option("game", id, expected)),
        }
    }

    fn evaluator_names() -> &'static [&'static str] {
        eval::NAMES
    }

    fn outlook(&self, m: ThreesMove, searched: &ValueText) -> Option<ValueText> {
        outlook::describe(self, m, searched)
    }

    fn evaluator(name: &str) -> Result<ThreesEval, Error> {
        ThreesEval::by_name(name)
    }
}
