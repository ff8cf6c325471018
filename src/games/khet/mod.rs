//! Khet 2.0, with the Eye of Horus expansion, on a 10x8 board held as 80 bytes (copy-make).
//!
//! Squares are numbered `rank * 10 + file` from `a1` = 0 to `j8` = 79; rank 8 is the top row as
//! shown, where Red sits; Silver (player 0) sits at the bottom and moves first. A piece is one
//! byte: `kind << 3 | owner << 2 | facing` (0 is an empty square). Facings count clockwise from
//! north: an Anubis or a Sphinx faces `n`, `e`, `s` or `w`; a Pyramid's mirror looks towards
//! facing `f` and `f + 1` (0 north-east, 1 south-east, 2 south-west, 3 north-west); a Scarab's or
//! an Eye's diagonal has two looks, so only facings 0 (north-east/south-west) and 1
//! (south-east/north-west) exist. The Pharaoh has no facing.
//!
//! A move steps a piece to one of its 8 neighbours (empty, and not reserved for the other
//! colour), swaps a Scarab or an Eye with a neighbouring Pyramid or Anubis of either colour, or
//! turns a piece a quarter turn either way (a Sphinx only between its two facings into the
//! board; a Pharaoh never, since that would be a pass). Then the mover's laser fires (see
//! [`laser`]). A Pharaoh hit loses the game for its owner; both hit in one shot is a draw.
//!
//! Draw rules so that every game ends: a position (pieces, facings, side to move) occurring for
//! the third time since the last capture, or [`DRAW_CLOCK`] plies without a capture.
//!
//! Text forms live in [`notation`], the setups in [`setups`], evaluators in [`eval`].

pub mod eval;
pub mod laser;
pub mod notation;
pub mod setups;
mod view;

use super::{AiDefaults, GameInfo, Playable};
use crate::core::{
    split_variant, Error, Game, IllegalMove, Outcome, ParseMoveError, ParsePositionError,
    PerftConvention, PerftLimit, PlayerId, Turn, Unbounded, ZobristTable,
};
pub use eval::KhetEval;
pub use laser::{BeamEnd, Segment};
pub use setups::Setup;

/// Columns of the board (files a to j).
pub const FILES: usize = 10;
/// Rows of the board (ranks 1 to 8).
pub const RANKS: usize = 8;
/// Squares on the board.
pub const CELLS: usize = FILES * RANKS;
/// Plies without a capture after which the game is drawn.
pub const DRAW_CLOCK: u8 = 100;

/// Silver, who moves first and sits at the bottom.
pub const SILVER: PlayerId = 0;
/// Red, who sits at the top.
pub const RED: PlayerId = 1;

/// The Sphinxes' squares: j1 for Silver, a8 for Red.
pub const SPHINX_SQUARE: [u8; 2] = [9, 70];
/// The two facings each Sphinx may have: Silver's north or west, Red's south or east.
pub const SPHINX_FACINGS: [[u8; 2]; 2] = [[0, 3], [2, 1]];

/// The kinds of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// One diagonal mirror; dies when hit on either of its two other faces.
    Pyramid = 1,
    /// A two-sided diagonal mirror; never dies; swaps with Pyramids and Anubis.
    Scarab = 2,
    /// Blocks a beam on its front; dies when hit on another face.
    Anubis = 3,
    /// Dies when hit at all, and its owner loses.
    Pharaoh = 4,
    /// Holds the laser; never moves, never dies, stops beams.
    Sphinx = 5,
    /// The Eye of Horus: a beam splitter; never dies; moves like a Scarab.
    Eye = 6,
}

impl Kind {
    /// The kind stored in bits 3..6 of a piece byte (which must not be empty).
    #[inline(always)]
    pub const fn from_bits(b: u8) -> Kind {
        match b {
            1 => Kind::Pyramid,
            2 => Kind::Scarab,
            3 => Kind::Anubis,
            4 => Kind::Pharaoh,
            5 => Kind::Sphinx,
            _ => Kind::Eye,
        }
    }

    /// Number of distinct facings: 4 for Pyramid, Anubis and Sphinx, 2 for Scarab and Eye, 1 for
    /// the Pharaoh.
    pub const fn facings(self) -> u8 {
        match self {
            Kind::Scarab | Kind::Eye => 2,
            Kind::Pharaoh => 1,
            _ => 4,
        }
    }

    /// The kind's name for people.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Pyramid => "Pyramid",
            Kind::Scarab => "Scarab",
            Kind::Anubis => "Anubis",
            Kind::Pharaoh => "Pharaoh",
            Kind::Sphinx => "Sphinx",
            Kind::Eye => "Eye of Horus",
        }
    }
}

/// The piece byte for a piece of `kind` owned by `owner` with `facing` (normalised for the kind).
#[inline(always)]
pub const fn make_piece(kind: Kind, owner: PlayerId, facing: u8) -> u8 {
    let f = match kind {
        Kind::Scarab | Kind::Eye => facing & 1,
        Kind::Pharaoh => 0,
        _ => facing & 3,
    };
    (kind as u8) << 3 | (owner & 1) << 2 | f
}

/// The kind of a non-empty piece byte.
#[inline(always)]
pub const fn piece_kind(p: u8) -> Kind {
    Kind::from_bits(p >> 3)
}

/// The owner of a non-empty piece byte.
#[inline(always)]
pub const fn piece_owner(p: u8) -> PlayerId {
    (p >> 2) & 1
}

/// The facing of a piece byte (see the module documentation).
#[inline(always)]
pub const fn piece_facing(p: u8) -> u8 {
    p & 3
}

/// A square's name, `a1` to `j8`.
pub fn square_name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 10) as char, sq / 10 + 1)
}

/// The square a beam or a step reaches from `sq` going `dir` (0 north, 1 east, 2 south, 3
/// west), or `u8::MAX` off the board.
#[inline(always)]
pub fn next_square(sq: u8, dir: u8) -> u8 {
    NEXT[sq as usize][dir as usize & 3]
}

static NEXT: [[u8; 4]; CELLS] = {
    let mut t = [[u8::MAX; 4]; CELLS];
    let mut sq = 0;
    while sq < CELLS {
        let (f, r) = (sq % FILES, sq / FILES);
        if r + 1 < RANKS {
            t[sq][0] = (sq + FILES) as u8;
        }
        if f + 1 < FILES {
            t[sq][1] = (sq + 1) as u8;
        }
        if r > 0 {
            t[sq][2] = (sq - FILES) as u8;
        }
        if f > 0 {
            t[sq][3] = (sq - 1) as u8;
        }
        sq += 1;
    }
    t
};

/// The up to 8 neighbours of each square (king steps), `u8::MAX` where off the board.
static NEIGHBOURS: [[u8; 8]; CELLS] = {
    let mut t = [[u8::MAX; 8]; CELLS];
    let mut sq = 0;
    while sq < CELLS {
        let (f, r) = ((sq % FILES) as i32, (sq / FILES) as i32);
        let d: [(i32, i32); 8] = [
            (0, 1),
            (1, 1),
            (1, 0),
            (1, -1),
            (0, -1),
            (-1, -1),
            (-1, 0),
            (-1, 1),
        ];
        let mut i = 0;
        while i < 8 {
            let (nf, nr) = (f + d[i].0, r + d[i].1);
            if nf >= 0 && nf < FILES as i32 && nr >= 0 && nr < RANKS as i32 {
                t[sq][i] = (nr * FILES as i32 + nf) as u8;
            }
            i += 1;
        }
        sq += 1;
    }
    t
};

/// The 8 neighbours of `sq` (north first, then clockwise), `u8::MAX` where off the board.
#[inline(always)]
pub fn neighbours(sq: u8) -> &'static [u8; 8] {
    &NEIGHBOURS[sq as usize % CELLS]
}

/// Squares only Red may enter: the a file, i1 and i8 (bit `sq`).
pub const RED_ONLY: u128 = {
    let mut b = 0u128;
    let mut r = 0;
    while r < RANKS {
        b |= 1u128 << (r * FILES);
        r += 1;
    }
    b | 1u128 << 8 | 1u128 << 78
};
/// Squares only Silver may enter: the j file, b1 and b8 (bit `sq`).
pub const SILVER_ONLY: u128 = {
    let mut b = 0u128;
    let mut r = 0;
    while r < RANKS {
        b |= 1u128 << (r * FILES + 9);
        r += 1;
    }
    b | 1u128 << 1 | 1u128 << 71
};

/// Whether a piece of `owner` may stand on `sq` (it is not reserved for the other colour).
#[inline(always)]
pub const fn may_enter(owner: PlayerId, sq: u8) -> bool {
    let forbidden = if owner == SILVER {
        RED_ONLY
    } else {
        SILVER_ONLY
    };
    forbidden >> sq & 1 == 0
}

/// Zobrist keys: one per (square, piece byte) and one for Red to move.
static KEYS: ZobristTable<{ CELLS * 64 + 1 }> = ZobristTable::new(0x4B4E_5421);
const SIDE_KEY: usize = CELLS * 64;

#[inline(always)]
fn piece_key(sq: usize, p: u8) -> u64 {
    KEYS.key(sq * 64 + (p as usize & 63))
}

/// What a move does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A step to an empty neighbouring square.
    Step,
    /// A Scarab or Eye trading places with a neighbouring Pyramid or Anubis.
    Swap,
    /// A quarter turn clockwise.
    Cw,
    /// A quarter turn anticlockwise.
    Ccw,
}

/// A Khet move: a step, a swap or a rotation of the piece on `from`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KhetMove {
    /// The square of the piece that moves or turns.
    pub from: u8,
    /// The target square (equal to `from` for a rotation).
    pub to: u8,
    /// What the move does.
    pub kind: MoveKind,
}

impl KhetMove {
    /// A step from `from` to `to`.
    pub const fn step(from: u8, to: u8) -> Self {
        KhetMove {
            from,
            to,
            kind: MoveKind::Step,
        }
    }
    /// A swap of the Scarab or Eye on `from` with the piece on `to`.
    pub const fn swap(from: u8, to: u8) -> Self {
        KhetMove {
            from,
            to,
            kind: MoveKind::Swap,
        }
    }
    /// A rotation of the piece on `sq`, clockwise when `cw`.
    pub const fn rotate(sq: u8, cw: bool) -> Self {
        KhetMove {
            from: sq,
            to: sq,
            kind: if cw { MoveKind::Cw } else { MoveKind::Ccw },
        }
    }
}

/// The result codes kept in the state.
const ONGOING: u8 = 0;
const SILVER_WINS: u8 = 1;
const RED_WINS: u8 = 2;
const DRAWN: u8 = 3;

/// A Khet position: the board, the side to move, the no-capture clock with the keys of the
/// positions since the last capture (for threefold repetition), and the setup it came from.
#[derive(Clone, PartialEq, Eq)]
pub struct Khet {
    board: [u8; CELLS],
    to_move: PlayerId,
    clock: u8,
    result: u8,
    setup: Setup,
    fullmove: u16,
    key: u64,
    /// Keys of the positions since the last capture, oldest first; `history[..clock]` is valid.
    history: [u64; DRAW_CLOCK as usize],
    /// The squares the last move's shot cleared (bit `sq`), and the pieces that stood there in
    /// square order, so that the shot can be traced again for the board view.
    last_kills: u128,
    last_killed: [u8; MAX_KILLS_KEPT],
    /// Whether the position was reached by a move (and so has a last shot).
    has_last: bool,
}

/// How many of one shot's destroyed pieces a position keeps for its board view (a shot with more
/// would need more than seven beams ending on pieces; the view then misses the rest).
pub const MAX_KILLS_KEPT: usize = 12;

impl std::fmt::Debug for Khet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Khet({})", notation::to_text(self))
    }
}

impl std::hash::Hash for Khet {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

impl Default for Khet {
    fn default() -> Self {
        Khet::new(Setup::default())
    }
}

impl Khet {
    /// The start position of a setup, Silver to move.
    pub fn new(setup: Setup) -> Self {
        notation::from_text(setup.start_text()).expect("the built-in setups are valid")
    }

    /// Builds a position from its parts, checking what the rules need: one Sphinx per side on
    /// its square facing into the board, no piece on a square reserved for the other colour, at
    /// most the pieces of one set per side (7 Pyramids, 2 Scarabs, 2 Anubis, 1 Pharaoh, 1 Eye),
    /// and a clock from 0 to [`DRAW_CLOCK`]. A missing Pharaoh means its owner has lost.
    pub fn from_parts(
        board: [u8; CELLS],
        to_move: PlayerId,
        clock: u8,
        fullmove: u16,
        setup: Setup,
    ) -> Result<Self, ParsePositionError> {
        let mut counts = [[0u8; 7]; 2];
        for (sq, &p) in board.iter().enumerate() {
            if p == 0 {
                continue;
            }
            if p >> 3 == 0 || p >> 3 > 6 {
                return Err(ParsePositionError::whole(format!(
                    "a piece code on {} (found byte {p})",
                    square_name(sq as u8)
                )));
            }
            let (k, o) = (piece_kind(p), piece_owner(p));
            if make_piece(k, o, piece_facing(p)) != p {
                return Err(ParsePositionError::whole(format!(
                    "a facing the {} on {} can have",
                    k.name(),
                    square_name(sq as u8)
                )));
            }
            counts[o as usize][k as usize] += 1;
            if !may_enter(o, sq as u8) {
                return Err(ParsePositionError::whole(format!(
                    "no {} piece on {}, a square reserved for {}",
                    player_name(o),
                    square_name(sq as u8),
                    player_name(o ^ 1)
                )));
            }
            if k == Kind::Sphinx && sq as u8 != SPHINX_SQUARE[o as usize] {
                return Err(ParsePositionError::whole(format!(
                    "the {} Sphinx on {}, not {}",
                    player_name(o),
                    square_name(SPHINX_SQUARE[o as usize]),
                    square_name(sq as u8)
                )));
            }
        }
        for o in 0..2u8 {
            let s = board[SPHINX_SQUARE[o as usize] as usize];
            if s == 0 || piece_kind(s) != Kind::Sphinx || piece_owner(s) != o {
                return Err(ParsePositionError::whole(format!(
                    "a {} Sphinx on {}",
                    player_name(o),
                    square_name(SPHINX_SQUARE[o as usize])
                )));
            }
            if !SPHINX_FACINGS[o as usize].contains(&piece_facing(s)) {
                return Err(ParsePositionError::whole(format!(
                    "the {} Sphinx facing into the board ({})",
                    player_name(o),
                    if o == SILVER { "n or w" } else { "s or e" }
                )));
            }
            for (k, max) in [
                (Kind::Pyramid, 7),
                (Kind::Scarab, 2),
                (Kind::Anubis, 2),
                (Kind::Pharaoh, 1),
                (Kind::Eye, 1),
            ] {
                if counts[o as usize][k as usize] > max {
                    return Err(ParsePositionError::whole(format!(
                        "at most {max} {} for {}",
                        k.name(),
                        player_name(o)
                    )));
                }
            }
        }
        if to_move > 1 {
            return Err(ParsePositionError::whole("side to move s or r"));
        }
        if clock > DRAW_CLOCK {
            return Err(ParsePositionError::whole(format!(
                "a no-capture clock from 0 to {DRAW_CLOCK}"
            )));
        }
        if fullmove == 0 {
            return Err(ParsePositionError::whole("a fullmove number of at least 1"));
        }
        let mut pos = Khet {
            board,
            to_move,
            clock,
            result: ONGOING,
            setup,
            fullmove,
            key: 0,
            history: [0; DRAW_CLOCK as usize],
            last_kills: 0,
            last_killed: [0; MAX_KILLS_KEPT],
            has_last: false,
        };
        let pharaohs = [
            counts[0][Kind::Pharaoh as usize],
            counts[1][Kind::Pharaoh as usize],
        ];
        pos.result = match pharaohs {
            [0, 0] => DRAWN,
            [0, _] => RED_WINS,
            [_, 0] => SILVER_WINS,
            _ if clock >= DRAW_CLOCK => DRAWN,
            _ => ONGOING,
        };
        pos.key = pos.zobrist_from_scratch();
        Ok(pos)
    }

    /// The piece byte on `sq` (0 when empty).
    #[inline(always)]
    pub fn piece_at(&self, sq: u8) -> u8 {
        self.board[sq as usize % CELLS]
    }

    /// The whole board, square `rank * 10 + file`.
    pub fn board(&self) -> &[u8; CELLS] {
        &self.board
    }

    /// The player to move (also after the game is over).
    #[inline(always)]
    pub fn side_to_move(&self) -> PlayerId {
        self.to_move
    }

    /// Plies since the last capture.
    pub fn clock(&self) -> u8 {
        self.clock
    }

    /// The fullmove number, from 1, growing after each move of Red.
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The setup this game started from.
    pub fn setup(&self) -> Setup {
        self.setup
    }

    /// Whether the game is over.
    #[inline(always)]
    pub fn is_over(&self) -> bool {
        self.result != ONGOING
    }

    /// The square of `player`'s Pharaoh, if it is on the board.
    pub fn pharaoh_square(&self, player: PlayerId) -> Option<u8> {
        let want = make_piece(Kind::Pharaoh, player, 0);
        self.board.iter().position(|&p| p == want).map(|s| s as u8)
    }

    /// The pieces `player`'s laser would kill if it fired now (bit `sq`).
    #[inline]
    pub fn laser_kills(&self, player: PlayerId) -> u128 {
        let s = SPHINX_SQUARE[player as usize & 1];
        laser::trace(
            &self.board,
            s,
            piece_facing(self.board[s as usize]),
            &mut laser::NoBeam,
        )
    }

    /// `player`'s laser as it would fire now: its segments and the squares it kills.
    pub fn laser_path(&self, player: PlayerId) -> (Vec<Segment>, u128) {
        let s = SPHINX_SQUARE[player as usize & 1];
        let mut segs = Vec::new();
        let kills = laser::trace(
            &self.board,
            s,
            piece_facing(self.board[s as usize]),
            &mut segs,
        );
        (segs, kills)
    }

    /// The shot `m` (legal here) ends with: the mover's beam over the board after the move and
    /// before any piece is removed, and the squares it kills.
    pub fn shot_of(&self, m: KhetMove) -> (Vec<Segment>, u128) {
        let mut c = self.clone();
        c.apply_move(m);
        c.laser_path(self.to_move)
    }

    /// The last move's shot, if the position was reached by a move: its segments over the board
    /// as it stood when the laser fired (the destroyed pieces put back), and the squares it
    /// cleared with the pieces that stood there.
    pub fn last_shot(&self) -> Option<(Vec<Segment>, Vec<(u8, u8)>)> {
        if !self.has_last {
            return None;
        }
        let mut board = self.board;
        let mut killed = Vec::new();
        let mut k = self.last_kills;
        let mut i = 0;
        while k != 0 {
            let sq = k.trailing_zeros() as u8;
            k &= k - 1;
            if i < MAX_KILLS_KEPT {
                board[sq as usize] = self.last_killed[i];
                killed.push((sq, self.last_killed[i]));
                i += 1;
            }
        }
        let shooter = self.to_move ^ 1;
        let s = SPHINX_SQUARE[shooter as usize];
        let mut segs = Vec::new();
        laser::trace(&board, s, piece_facing(board[s as usize]), &mut segs);
        Some((segs, killed))
    }

    /// Whether a shot is pending for the side to move (the quiescence trigger,
    /// [`Game::unstable`]): its beam as it stands would destroy a piece, so that almost any move
    /// (one off the beam's path) captures, or its Pharaoh stands in the enemy's beam as it
    /// stands. Two traces, no allocation. Shots that need a move to turn the beam (a mirror
    /// stepped or turned into it) are not counted: searching them too costs 7 to 50 times the
    /// nodes to a fixed depth and lost at equal time (docs/benchmarks.md).
    pub fn shot_pending(&self) -> bool {
        if self.is_over() {
            return false;
        }
        let me = self.to_move;
        if self.laser_kills(me) != 0 {
            return true;
        }
        let theirs = self.laser_kills(me ^ 1);
        let pharaoh = make_piece(Kind::Pharaoh, me, 0);
        theirs != 0 && (0..CELLS).any(|sq| theirs >> sq & 1 == 1 && self.board[sq] == pharaoh)
    }

    /// Moves the pieces for `m` without firing; keeps the key up to date.
    #[inline(always)]
    fn apply_move(&mut self, m: KhetMove) {
        let (from, to) = (m.from as usize % CELLS, m.to as usize % CELLS);
        let p = self.board[from];
        match m.kind {
            MoveKind::Step | MoveKind::Swap => {
                let q = self.board[to];
                self.key ^= piece_key(from, p) ^ piece_key(to, p);
                if q != 0 {
                    self.key ^= piece_key(to, q) ^ piece_key(from, q);
                }
                self.board[to] = p;
                self.board[from] = q;
            }
            MoveKind::Cw | MoveKind::Ccw => {
                let turn = if m.kind == MoveKind::Cw { 1 } else { 3 };
                let np = make_piece(piece_kind(p), piece_owner(p), (piece_facing(p) + turn) & 3);
                self.key ^= piece_key(from, p) ^ piece_key(from, np);
                self.board[from] = np;
            }
        }
    }

    /// Appends the moves of the piece on `sq` (owned by `me`) to `out`.
    #[inline]
    fn piece_moves(&self, me: PlayerId, sq: u8, out: &mut Vec<KhetMove>) {
        let p = self.board[sq as usize];
        let kind = piece_kind(p);
        if kind == Kind::Sphinx {
            let f = piece_facing(p);
            // The other facing into the board is a quarter turn away, one way or the other.
            let [a, b] = SPHINX_FACINGS[me as usize];
            let other = if f == a { b } else { a };
            out.push(KhetMove::rotate(sq, other == (f + 1) & 3));
            return;
        }
        let swapper = matches!(kind, Kind::Scarab | Kind::Eye);
        for &t in &NEIGHBOURS[sq as usize] {
            if t == u8::MAX || !may_enter(me, t) {
                continue;
            }
            let q = self.board[t as usize];
            if q == 0 {
                out.push(KhetMove::step(sq, t));
            } else if swapper
                && matches!(piece_kind(q), Kind::Pyramid | Kind::Anubis)
                && may_enter(piece_owner(q), sq)
            {
                out.push(KhetMove::swap(sq, t));
            }
        }
        match kind {
            Kind::Pharaoh => {}
            Kind::Scarab | Kind::Eye => out.push(KhetMove::rotate(sq, true)),
            _ => {
                out.push(KhetMove::rotate(sq, true));
                out.push(KhetMove::rotate(sq, false));
            }
        }
    }

    /// Clears `out` and fills it with the moves `player` would have here if it were to move
    /// (whoever is to move, and even when the game is over): what the evaluator's one-move terms use.
    pub fn moves_of(&self, player: PlayerId, out: &mut Vec<KhetMove>) {
        out.clear();
        for sq in 0..CELLS as u8 {
            let p = self.board[sq as usize];
            if p != 0 && piece_owner(p) == player {
                self.piece_moves(player, sq, out);
            }
        }
    }

    /// Number of legal moves, without building the list; 0 when the game is over.
    pub fn count_moves(&self) -> u64 {
        if self.is_over() {
            return 0;
        }
        let me = self.to_move;
        let mut n = 0u64;
        for sq in 0..CELLS as u8 {
            let p = self.board[sq as usize];
            if p == 0 || piece_owner(p) != me {
                continue;
            }
            let kind = piece_kind(p);
            if kind == Kind::Sphinx {
                n += 1;
                continue;
            }
            let swapper = matches!(kind, Kind::Scarab | Kind::Eye);
            for &t in &NEIGHBOURS[sq as usize] {
                if t == u8::MAX || !may_enter(me, t) {
                    continue;
                }
                let q = self.board[t as usize];
                if q == 0
                    || (swapper
                        && matches!(piece_kind(q), Kind::Pyramid | Kind::Anubis)
                        && may_enter(piece_owner(q), sq))
                {
                    n += 1;
                }
            }
            n += match kind {
                Kind::Pharaoh => 0,
                Kind::Scarab | Kind::Eye => 1,
                _ => 2,
            };
        }
        n
    }

    /// Perft without move lists at the last ply (each node's count comes from [`Khet::count_moves`]).
    /// A finished game counts 0 at any depth from 1.
    pub fn perft_fast(&self, depth: u32) -> u64 {
        self.perft_fast_within(depth, &mut Unbounded)
            .unwrap_or_default()
    }

    /// [`Khet::perft_fast`] within a budget (a stop flag, a deadline, a number of leaves): `None`
    /// when the budget ran out first. The budget is told the leaves of every node two plies above
    /// the leaves; with [`Unbounded`] the checks compile away.
    pub fn perft_fast_within<L: PerftLimit>(&self, depth: u32, budget: &mut L) -> Option<u64> {
        let n = self.perft_go(depth, budget);
        (!budget.stopped()).then_some(n)
    }

    fn perft_go<L: PerftLimit>(&self, depth: u32, budget: &mut L) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.is_over() {
            return 0;
        }
        if depth == 1 {
            return self.count_moves();
        }
        let mut moves = Vec::with_capacity(128);
        self.legal_moves(&mut moves);
        let mut n = 0;
        for &m in &moves {
            let mut c = self.clone();
            c.play_unchecked(m);
            n += c.perft_go(depth - 1, budget);
            if budget.stopped() {
                break;
            }
        }
        if depth == 2 {
            budget.count(n);
        }
        n
    }

    /// Why `m` may not be played here, or `None` when it is legal.
    pub fn illegal_reason(&self, m: KhetMove) -> Option<String> {
        if self.is_over() {
            return Some("the game is over".into());
        }
        if m.from as usize >= CELLS || m.to as usize >= CELLS {
            return Some("the square is not on the 10x8 board".into());
        }
        let me = self.to_move;
        let p = self.board[m.from as usize];
        let from = square_name(m.from);
        if p == 0 {
            return Some(format!("{from} is empty"));
        }
        if piece_owner(p) != me {
            return Some(format!(
                "the piece on {from} is {}'s, and {} is to move",
                player_name(me ^ 1),
                player_name(me)
            ));
        }
        let mut moves = Vec::new();
        self.piece_moves(me, m.from, &mut moves);
        if moves.contains(&m) {
            return None;
        }
        let kind = piece_kind(p);
        let to = square_name(m.to);
        Some(match m.kind {
            MoveKind::Cw | MoveKind::Ccw => match kind {
                Kind::Pharaoh => "a Pharaoh does not turn (it would change nothing)".into(),
                Kind::Sphinx => "a Sphinx turns only between its two facings into the board".into(),
                _ => "that rotation is not available".into(),
            },
            _ if kind == Kind::Sphinx => "a Sphinx never moves; it can only turn".into(),
            _ if !NEIGHBOURS[m.from as usize].contains(&m.to) => {
                format!("{to} is not next to {from}")
            }
            _ if !may_enter(me, m.to) => {
                format!("{to} is reserved for {}", player_name(me ^ 1))
            }
            MoveKind::Step => format!(
                "{to} is taken{}",
                if matches!(kind, Kind::Scarab | Kind::Eye) {
                    format!(" (a swap is written {from}={to})")
                } else {
                    String::new()
                }
            ),
            _ => {
                let q = self.board[m.to as usize];
                if !matches!(kind, Kind::Scarab | Kind::Eye) {
                    format!(
                        "only a Scarab or an Eye of Horus swaps, not a {}",
                        kind.name()
                    )
                } else if q == 0 {
                    format!("{to} is empty (a step is written {from}-{to})")
                } else if !matches!(piece_kind(q), Kind::Pyramid | Kind::Anubis) {
                    format!("a {} swaps only with a Pyramid or an Anubis", kind.name())
                } else {
                    format!(
                        "the {} piece would land on {from}, reserved for {}",
                        player_name(piece_owner(q)),
                        player_name(piece_owner(q) ^ 1)
                    )
                }
            }
        })
    }
}

/// The name of a player: `silver` or `red`.
pub const fn player_name(p: PlayerId) -> &'static str {
    if p == SILVER {
        "silver"
    } else {
        "red"
    }
}

impl Game for Khet {
    type Move = KhetMove;

    fn game_id(&self) -> String {
        self.setup.id().to_string()
    }

    fn player_name(&self, player: PlayerId) -> &'static str {
        player_name(player)
    }

    #[inline]
    fn turn(&self) -> Turn {
        if self.result != ONGOING {
            Turn::Terminal
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn legal_moves(&self, out: &mut Vec<KhetMove>) {
        out.clear();
        if self.is_over() {
            return;
        }
        self.moves_of(self.to_move, out);
    }

    fn play_unchecked(&mut self, m: KhetMove) {
        let me = self.to_move;
        let before = self.key;
        self.apply_move(m);
        let kills = self.laser_kills(me);
        let mut pharaohs = [false; 2];
        let mut k = kills;
        let mut kept = 0;
        self.has_last = true;
        self.last_kills = kills;
        while k != 0 {
            let sq = k.trailing_zeros() as usize;
            k &= k - 1;
            let p = self.board[sq];
            if kept < MAX_KILLS_KEPT {
                self.last_killed[kept] = p;
                kept += 1;
            }
            if piece_kind(p) == Kind::Pharaoh {
                pharaohs[piece_owner(p) as usize] = true;
            }
            self.key ^= piece_key(sq, p);
            self.board[sq] = 0;
        }
        self.to_move ^= 1;
        self.key ^= KEYS.key(SIDE_KEY);
        if me == RED {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.result = match pharaohs {
            [true, true] => DRAWN,
            [true, false] => RED_WINS,
            [false, true] => SILVER_WINS,
            _ => ONGOING,
        };
        if kills != 0 {
            self.clock = 0;
            return;
        }
        let c = self.clock as usize;
        if c < self.history.len() {
            self.history[c] = before;
        }
        self.clock = self.clock.saturating_add(1);
        if self.clock >= DRAW_CLOCK {
            self.result = DRAWN;
            return;
        }
        // The same side is to move two, four... plies back; the key holds the side to move.
        let seen = self.history[..self.clock as usize]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&k| k == self.key)
            .count();
        if seen >= 2 {
            self.result = DRAWN;
        }
    }

    fn play(&mut self, m: KhetMove) -> Result<(), IllegalMove> {
        if let Some(reason) = self.illegal_reason(m) {
            return Err(IllegalMove::new(self.format_move(m), reason));
        }
        self.play_unchecked(m);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.result {
            SILVER_WINS => Some(Outcome::Win(SILVER)),
            RED_WINS => Some(Outcome::Win(RED)),
            DRAWN => Some(Outcome::Draw),
            _ => None,
        }
    }

    /// Khet allows null-move pruning: a player always has a move (a rotation at least), and
    /// being forced to move is rarely a disadvantage. The passed position fires no laser and
    /// leaves the draw clock alone.
    fn null_move(&self) -> Option<Self> {
        if self.result != ONGOING {
            return None;
        }
        let mut c = self.clone();
        c.to_move ^= 1;
        c.key ^= KEYS.key(SIDE_KEY);
        c.has_last = false;
        c.last_kills = 0;
        Some(c)
    }

    /// A shot is pending for the side to move ([`Khet::shot_pending`]): a search reaching its
    /// horizon here looks one ply further (the quiescence extension) instead of trusting the
    /// static evaluation.
    fn unstable(&self) -> bool {
        self.shot_pending()
    }

    fn zobrist(&self) -> u64 {
        self.key
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let mut k = 0;
        for (sq, &p) in self.board.iter().enumerate() {
            if p != 0 {
                k ^= piece_key(sq, p);
            }
        }
        if self.to_move == RED {
            k ^= KEYS.key(SIDE_KEY);
        }
        k
    }

    fn parse_move(&self, text: &str) -> Result<KhetMove, ParseMoveError> {
        notation::parse_move(self, text)
    }

    fn format_move(&self, m: KhetMove) -> String {
        notation::format_move(m)
    }

    fn position_text(&self) -> String {
        notation::to_text(self)
    }

    fn from_position_text(variant: &str, text: &str) -> Result<Self, ParsePositionError> {
        if split_variant(variant).0 != "khet" {
            return Err(ParsePositionError::whole(format!(
                "a Khet game id (khet, khet-imhotep, khet-dynasty-horus...), not {variant:?}"
            )));
        }
        notation::from_text(text)
    }
}

impl Playable for Khet {
    type Eval = KhetEval;

    const INFO: GameInfo = GameInfo {
        id: "khet",
        name: "Khet 2.0",
        variants: &[
            ("khet-imhotep", "Khet 2.0, Imhotep"),
            ("khet-dynasty", "Khet 2.0, Dynasty"),
            ("khet-classic-horus", "Khet 2.0, Classic with the Eye of Horus"),
            ("khet-imhotep-horus", "Khet 2.0, Imhotep with the Eye of Horus"),
            ("khet-dynasty-horus", "Khet 2.0, Dynasty with the Eye of Horus"),
        ],
        chance: false,
        players: 2,
        ai: AiDefaults::new(8, 3000),
    };

    fn new_game(id: &str) -> Result<Self, Error> {
        Ok(Khet::new(Setup::from_id(id)?))
    }

    fn evaluator_names() -> &'static [&'static str] {
        eval::NAMES
    }

    fn evaluator(name: &str) -> Result<KhetEval, Error> {
        KhetEval::by_name(name)
    }

    fn perft_convention() -> PerftConvention {
        PerftConvention::FinishedCountsZero
    }

    fn perft(&self, depth: u32) -> u64 {
        self.perft_fast(depth)
    }

    fn perft_within<L: PerftLimit>(&self, depth: u32, budget: &mut L) -> Option<u64> {
        self.perft_fast_within(depth, budget)
    }
}
