//! Reversi (Othello) on any even board size from 6 to 16; 8x8 is the default.
//!
//! Cells are named like `d3`: columns `a`.. left to right, rows `1`.. top to bottom (`a1` is the
//! top-left corner; a 16x16 board runs to `p16`). The four start discs stand on the centre 2x2, White
//! on the top-left/bottom-right diagonal (d4 and e5 on 8x8), Black on the other (d5, e4). Black
//! (player 0) moves first. A move places a disc that brackets at least one line of opponent discs,
//! which turn over. A player with no such move has exactly one move, `pass`; when neither player
//! can move the game is over, and the player with more discs wins.
//!
//! The 8x8 board runs on `u64` bitboards with shift-based move generation; the other sizes use
//! 256-bit sets behind the same [`Reversi`] type. Game ids: `reversi` (8x8) and `reversi-N` for an even
//! `N` from 6 to 16 (`reversi-8` is `reversi`).

mod bitboard;
mod board;
pub mod endgame;
pub mod eval;
mod general;
mod notation;
pub mod patterns;
pub mod train;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd;
mod view;

pub use eval::ReversiEval;
pub use notation::{format_record, parse_record};

use super::{AiDefaults, GameInfo, Playable, Solved, SolvedMove};
use crate::core::{
    Error, Game, IllegalMove, Outcome, ParseMoveError, ParsePositionError, PerftConvention,
    PerftLimit, PlayerId, Turn,
};
use bitboard::Geo8;
use board::{Board, Geometry};
use general::GeoN;

/// A Reversi move: a disc on a cell, or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReversiMove {
    /// A disc on the cell with this canonical index, `row * 16 + col` (row 0 is the top row,
    /// column 0 the left column), whatever the board size.
    Place(u8),
    /// The only move of a player who cannot place a disc.
    Pass,
}

impl ReversiMove {
    /// The move placing a disc at (`row`, `col`), counted from 0 at the top-left corner.
    pub fn at(row: usize, col: usize) -> ReversiMove {
        ReversiMove::Place((row * 16 + col) as u8)
    }
}

/// The representation behind a [`Reversi`] position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Repr {
    /// 8x8 on `u64` bitboards.
    Eight(Board<Geo8>),
    /// Any even size 6..16 on 256-bit sets.
    Sized(Board<GeoN>),
}

/// Runs `$e` with `$b` bound to the board, whatever its representation.
macro_rules! with_board {
    ($self:expr, $b:ident => $e:expr) => {
        match &$self.repr {
            Repr::Eight($b) => $e,
            Repr::Sized($b) => $e,
        }
    };
}

/// Runs `$e` with `$b` bound mutably to the board, whatever its representation.
macro_rules! with_board_mut {
    ($self:expr, $b:ident => $e:expr) => {
        match &mut $self.repr {
            Repr::Eight($b) => $e,
            Repr::Sized($b) => $e,
        }
    };
}

/// A Reversi position: the discs, the side to move and the zobrist key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reversi {
    repr: Repr,
}

/// The board sizes on offer.
pub const SIZES: [usize; 6] = [6, 8, 10, 12, 14, 16];

impl Reversi {
    /// The start position on an `size` x `size` board (8x8 on bitboards). Errors when the size is
    /// not even or not from 6 to 16.
    pub fn new(size: usize) -> Result<Reversi, Error> {
        check_size(size)?;
        Ok(if size == 8 {
            Reversi {
                repr: Repr::Eight(Board::start(Geo8)),
            }
        } else {
            Reversi::general(size)?
        })
    }

    /// The start position on the general (256-bit) representation, even for 8x8: the reference the
    /// tests compare the bitboard against.
    pub fn general(size: usize) -> Result<Reversi, Error> {
        check_size(size)?;
        Ok(Reversi {
            repr: Repr::Sized(Board::start(GeoN::new(size))),
        })
    }

    /// The same position on the general (256-bit) representation.
    pub fn to_general(&self) -> Reversi {
        match &self.repr {
            Repr::Sized(_) => self.clone(),
            Repr::Eight(b) => {
                let geo = GeoN::new(8);
                let mut g = Board::empty(geo);
                for colour in 0..2 {
                    for c in b.geo.cells(b.discs[colour]) {
                        g.discs[colour] |= geo.bit(c);
                    }
                }
                g.to_move = b.to_move;
                g.key = g.key_from_scratch();
                Reversi {
                    repr: Repr::Sized(g),
                }
            }
        }
    }

    /// Whether this position runs on the 8x8 bitboard.
    pub fn is_bitboard(&self) -> bool {
        matches!(self.repr, Repr::Eight(_))
    }

    /// The discs of the side to move and of the other side as 8x8 bitboards (bit `row * 8 + col`,
    /// a1 = bit 0), for the endgame solver; `None` on other sizes.
    pub fn bitboards(&self) -> Option<(u64, u64)> {
        match &self.repr {
            Repr::Eight(b) => Some(b.me_opp()),
            Repr::Sized(_) => None,
        }
    }

    /// Cells on a side.
    pub fn size(&self) -> usize {
        with_board!(self, b => b.geo.size())
    }

    /// The player whose turn it is to move (or would be: at the end, the side that would move next).
    pub fn side_to_move(&self) -> PlayerId {
        with_board!(self, b => b.to_move)
    }

    /// What stands on the cell at (`row`, `col`): `Some(0)` black, `Some(1)` white, `None` empty.
    pub fn cell(&self, row: usize, col: usize) -> Option<PlayerId> {
        let n = self.size();
        if row >= n || col >= n {
            return None;
        }
        with_board!(self, b => b.cell((row * 16 + col) as u8))
    }

    /// The number of discs of a player.
    pub fn discs(&self, player: PlayerId) -> u32 {
        use board::Bits;
        with_board!(self, b => b.discs[player as usize & 1].count())
    }

    /// The number of empty cells.
    pub fn empties(&self) -> u32 {
        (self.size() * self.size()) as u32 - self.discs(0) - self.discs(1)
    }

    /// The legal placements of the side to move, as canonical indices in increasing order (empty
    /// when it must pass or the game is over).
    pub fn placements(&self) -> Vec<u8> {
        with_board!(self, b => b.geo.cells(b.moves()).collect())
    }

    /// The game id for a board size.
    fn id_for(size: usize) -> String {
        if size == 8 {
            "reversi".to_string()
        } else {
            format!("reversi-{size}")
        }
    }

    /// An empty board of the id's size with Black to move (the position reader fills it).
    fn empty_for(size: usize) -> Reversi {
        if size == 8 {
            Reversi {
                repr: Repr::Eight(Board::empty(Geo8)),
            }
        } else {
            Reversi {
                repr: Repr::Sized(Board::empty(GeoN::new(size))),
            }
        }
    }

    /// Puts a disc of `colour` on the cell with canonical index `sq` (used by the position reader;
    /// the key is recomputed afterwards).
    fn put(&mut self, sq: u8, colour: PlayerId) {
        with_board_mut!(self, b => {
            let bit = b.geo.bit(sq);
            b.discs[colour as usize] |= bit;
        })
    }

    fn set_side(&mut self, side: PlayerId) {
        with_board_mut!(self, b => {
            b.to_move = side;
            b.key = b.key_from_scratch();
        })
    }
}

/// Checks a board size: even, 6 to 16.
fn check_size(size: usize) -> Result<(), Error> {
    if (6..=16).contains(&size) && size % 2 == 0 {
        Ok(())
    } else {
        Err(Error::bad_option(
            "board size",
            size,
            "an even number from 6 to 16",
        ))
    }
}

/// The board size named by a game id: `reversi` is 8, `reversi-N` is N.
pub fn size_from_id(id: &str) -> Result<usize, Error> {
    let expected = "reversi, or reversi-N for an even N from 6 to 16 (reversi-12)";
    match id.split_once('-') {
        None if id == "reversi" => Ok(8),
        Some(("reversi", n)) => {
            let size: usize = n
                .parse()
                .map_err(|_| Error::bad_option("game", id, expected))?;
            check_size(size).map_err(|_| Error::bad_option("game", id, expected))?;
            Ok(size)
        }
        _ => Err(Error::bad_option("game", id, expected)),
    }
}

impl Game for Reversi {
    type Move = ReversiMove;

    fn game_id(&self) -> String {
        Reversi::id_for(self.size())
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
        with_board!(self, b => {
            if b.is_over() {
                Turn::Terminal
            } else {
                Turn::Player(b.to_move)
            }
        })
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<ReversiMove>) {
        use board::Bits;
        out.clear();
        with_board!(self, b => {
            let m = b.moves();
            if m.is_zero() {
                let (p, o) = b.me_opp();
                if !b.geo.moves(o, p).is_zero() {
                    out.push(ReversiMove::Pass);
                }
            } else {
                out.extend(b.geo.cells(m).map(ReversiMove::Place));
            }
        })
    }

    #[inline]
    fn play_unchecked(&mut self, m: ReversiMove) {
        with_board_mut!(self, b => match m {
            ReversiMove::Place(sq) => b.play_cell(sq),
            ReversiMove::Pass => b.pass(),
        })
    }

    fn play(&mut self, m: ReversiMove) -> Result<(), IllegalMove> {
        use board::Bits;
        let text = self.format_move(m);
        let n = self.size();
        let verdict = with_board!(self, b => {
            let moves = b.moves();
            if b.is_over() {
                Err("the game is over")
            } else {
                match m {
                    ReversiMove::Pass if moves.is_zero() => Ok(()),
                    ReversiMove::Pass => Err("a player may pass only when no disc can be placed"),
                    ReversiMove::Place(sq) => {
                        if (sq & 15) as usize >= n || (sq >> 4) as usize >= n {
                            Err("the cell is off the board")
                        } else if b.cell(sq).is_some() {
                            Err("the cell is taken")
                        } else if moves.is_zero() {
                            Err("no disc can be placed: the only move is pass")
                        } else if (moves & b.geo.bit(sq)).is_zero() {
                            Err("the disc would not bracket any opponent disc")
                        } else {
                            Ok(())
                        }
                    }
                }
            }
        });
        match verdict {
            Ok(()) => {
                self.play_unchecked(m);
                Ok(())
            }
            Err(reason) => Err(IllegalMove::new(text, reason)),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.turn() != Turn::Terminal {
            return None;
        }
        let (b, w) = (self.discs(0), self.discs(1));
        Some(if b > w {
            Outcome::Win(0)
        } else if w > b {
            Outcome::Win(1)
        } else {
            Outcome::Draw
        })
    }

    #[inline]
    fn zobrist(&self) -> u64 {
        with_board!(self, b => b.key)
    }

    fn zobrist_from_scratch(&self) -> u64 {
        with_board!(self, b => b.key_from_scratch())
    }

    fn parse_move(&self, text: &str) -> Result<ReversiMove, ParseMoveError> {
        notation::parse_move(self.size(), text)
    }

    fn format_move(&self, m: ReversiMove) -> String {
        notation::format_move(m)
    }

    fn position_text(&self) -> String {
        notation::position_text(self)
    }

    fn from_position_text(variant: &str, text: &str) -> Result<Self, ParsePositionError> {
        let size = size_from_id(variant).map_err(|e| ParsePositionError::whole(e.to_string()))?;
        notation::read_position(size, text)
    }
}

impl Playable for Reversi {
    type Eval = ReversiEval;

    const INFO: GameInfo = GameInfo {
        id: "reversi",
        name: "Reversi",
        variants: &[
            ("reversi-6", "Reversi 6x6"),
            ("reversi-10", "Reversi 10x10"),
            ("reversi-12", "Reversi 12x12"),
            ("reversi-14", "Reversi 14x14"),
            ("reversi-16", "Reversi 16x16"),
        ],
        chance: false,
        players: 2,
        ai: AiDefaults {
            depth: 20,
            time_ms: 2000,
            // Killer moves off: the defaults without them beat the defaults with them, 53.4 %
            // over 1,000 games at 30 ms a move (docs/benchmarks.md, "Per-switch matches
            // (session 18)").
            techniques_off: &["killers"],
            techniques_on: &[],
        },
    };

    fn new_game(id: &str) -> Result<Self, Error> {
        Reversi::new(size_from_id(id)?)
    }

    fn evaluator_names() -> &'static [&'static str] {
        &["strong", "patterns", "discs"]
    }

    fn evaluator(name: &str) -> Result<ReversiEval, Error> {
        match name {
            "" | "strong" => Ok(ReversiEval::Strong),
            "discs" => Ok(ReversiEval::Discs),
            "patterns" => Ok(ReversiEval::Patterns),
            _ => Err(Error::bad_option(
                "evaluator",
                name,
                "strong, patterns or discs",
            )),
        }
    }

    /// The default is `patterns` on 8x8 (measured stronger than `strong`: docs/benchmarks.md) and
    /// `strong` on the other sizes, which have no trained tables.
    fn evaluator_for(&self, name: &str) -> Result<ReversiEval, Error> {
        match name {
            "" if self.is_bitboard() => Ok(ReversiEval::Patterns),
            _ => Reversi::evaluator(name),
        }
    }

    fn perft_convention() -> PerftConvention {
        PerftConvention::FinishedCountsOne
    }

    /// 8x8 boards have an exact solver: its size is the empty squares.
    fn exact_size(&self) -> Option<u32> {
        self.bitboards().map(|_| self.empties())
    }

    /// The endgame solver ([`endgame::Solver`]), its margins as search values
    /// ([`eval::decided_value`], counting the empty squares as the plies to the end).
    fn solve_exact(
        &self,
        keep_going: &mut dyn FnMut(u64) -> bool,
    ) -> Option<Solved<ReversiMove>> {
        let (p, o) = self.bitboards()?;
        let mut solver = endgame::Solver::reusing().with_check(keep_going);
        let root = solver.solve_root(p, o)?;
        let plies = self.empties();
        let to_move = |sq: u32| ReversiMove::at((sq / 8) as usize, (sq % 8) as usize);
        let moves = root
            .iter()
            .map(|r| SolvedMove {
                mv: to_move(r.square),
                value: eval::decided_value(r.margin, plies),
                exact: r.exact,
            })
            .collect::<Vec<_>>();
        let mut nodes = solver.nodes();
        let mut line = Vec::new();
        if let Some(best) = root.first() {
            // The best line: the solver's table knows its start; the last few empties (which it
            // does not keep) are solved again one move at a time, which costs little.
            let (np, no) = endgame::play_square(p, o, best.square)?;
            let mut squares = vec![best.square];
            squares.extend(solver.best_line(no, np, 64));
            let (mut a, mut b) = (p, o);
            for &x in &squares {
                (a, b) = if x == 64 {
                    (b, a)
                } else {
                    let (na, nb) = endgame::play_square(a, b, x)?;
                    (nb, na)
                };
            }
            while squares.len() < 64 {
                let Some(s) = solver.solve(a, b) else { break };
                nodes += s.nodes;
                match s.best {
                    Some(x) => {
                        let (na, nb) = endgame::play_square(a, b, x)?;
                        (a, b) = (nb, na);
                        squares.push(x);
                    }
                    None if endgame::has_move(b, a) => {
                        (a, b) = (b, a);
                        squares.push(64);
                    }
                    None => break,
                }
            }
            line = squares
                .into_iter()
                .map(|x| if x == 64 { ReversiMove::Pass } else { to_move(x) })
                .collect();
        }
        Some(Solved { moves, line, nodes })
    }

    /// Perft on the bit sets, convention "a pass uses a ply; a finished game counts 1 at every
    /// deeper depth"; the 8x8 board has its own tuned version.
    fn perft_within<L: PerftLimit>(&self, depth: u32, budget: &mut L) -> Option<u64> {
        let n = match &self.repr {
            Repr::Eight(b) => {
                let (p, o) = b.me_opp();
                bitboard::perft8(p, o, depth, budget)
            }
            Repr::Sized(b) => {
                let (p, o) = b.me_opp();
                board::perft(b.geo, p, o, depth, budget)
            }
        };
        (!budget.stopped()).then_some(n)
    }
}
