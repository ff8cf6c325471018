//! Tic-tac-toe: the teaching game, whose whole tree fits in the viewer.
//!
//! Cells are `a1`..`c3`: columns a–c left to right, rows 1–3 top to bottom. X moves first.
//! Position text: nine cells row by row from a1 (`X`, `O` or `-`), a space, then the side to move
//! (`X` or `O`), e.g. `X---O---- X`.

use super::{AiDefaults, GameInfo, Playable};
use crate::core::{
    Error, Evaluator, Game, IllegalMove, Outcome, ParseMoveError, ParsePositionError,
    PerftConvention, PlayerId, TermSink, Turn, ZobristTable,
};

/// A cell index 0..9 (a1 = 0, b1 = 1, ..., c3 = 8).
pub type Cell = u8;

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
const FULL: u16 = 0b111_111_111;

static KEYS: ZobristTable<19> = ZobristTable::new(0x7777);

/// A tic-tac-toe position: one 9-bit board per player.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    boards: [u16; 2],
    to_move: PlayerId,
    key: u64,
}

impl TicTacToe {
    /// The empty board, X to move.
    pub fn new() -> Self {
        Self::default()
    }

    fn winner(&self) -> Option<PlayerId> {
        (0..2)
            .find(|&p| LINES.iter().any(|&l| self.boards[p] & l == l))
            .map(|p| p as PlayerId)
    }

    /// What stands on a cell: `Some(0)` X, `Some(1)` O, `None` empty.
    pub fn cell(&self, c: Cell) -> Option<PlayerId> {
        (0..2)
            .find(|&p| self.boards[p] >> c & 1 == 1)
            .map(|p| p as PlayerId)
    }
}

fn cell_name(c: Cell) -> String {
    format!("{}{}", (b'a' + c % 3) as char, c / 3 + 1)
}

impl Game for TicTacToe {
    type Move = Cell;

    fn game_id(&self) -> String {
        "tictactoe".into()
    }

    fn player_name(&self, player: PlayerId) -> &'static str {
        if player == 0 {
            "x"
        } else {
            "o"
        }
    }

    fn turn(&self) -> Turn {
        if self.winner().is_some() || (self.boards[0] | self.boards[1]) == FULL {
            Turn::Terminal
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn legal_moves(&self, out: &mut Vec<Cell>) {
        out.clear();
        if self.turn() == Turn::Terminal {
            return;
        }
        let empty = !(self.boards[0] | self.boards[1]) & FULL;
        out.extend((0..9).filter(|&c| empty >> c & 1 == 1));
    }

    fn play_unchecked(&mut self, m: Cell) {
        let p = self.to_move as usize;
        self.boards[p] |= 1 << m;
        self.key ^= KEYS.key(p * 9 + m as usize) ^ KEYS.key(18);
        self.to_move ^= 1;
    }

    fn play(&mut self, m: Cell) -> Result<(), IllegalMove> {
        if self.turn() == Turn::Terminal {
            return Err(IllegalMove::new(cell_name(m), "the game is over"));
        }
        if m >= 9 {
            return Err(IllegalMove::new(
                format!("cell {m}"),
                "there are nine cells",
            ));
        }
        if (self.boards[0] | self.boards[1]) >> m & 1 == 1 {
            return Err(IllegalMove::new(cell_name(m), "the cell is taken"));
        }
        self.play_unchecked(m);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(p) => Some(Outcome::Win(p)),
            None if (self.boards[0] | self.boards[1]) == FULL => Some(Outcome::Draw),
            None => None,
        }
    }

    fn zobrist(&self) -> u64 {
        self.key
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let mut k = 0;
        for p in 0..2 {
            for c in 0..9 {
                if self.boards[p] >> c & 1 == 1 {
                    k ^= KEYS.key(p * 9 + c);
                }
            }
        }
        if self.to_move == 1 {
            k ^= KEYS.key(18);
        }
        k
    }

    fn parse_move(&self, text: &str) -> Result<Cell, ParseMoveError> {
        let b = text.trim().as_bytes();
        let expected = "a cell from a1 to c3 (column a-c, then row 1-3)";
        if b.len() != 2 {
            return Err(ParseMoveError::new(text, expected));
        }
        let col = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = b[1].wrapping_sub(b'1');
        if col > 2 || row > 2 {
            return Err(ParseMoveError::new(text, expected));
        }
        Ok(row * 3 + col)
    }

    fn format_move(&self, m: Cell) -> String {
        cell_name(m)
    }

    fn position_text(&self) -> String {
        let mut s: String = (0..9)
            .map(|c| match self.cell(c) {
                Some(0) => 'X',
                Some(_) => 'O',
                None => '-',
            })
            .collect();
        s.push(' ');
        s.push(if self.to_move == 0 { 'X' } else { 'O' });
        s
    }

    fn from_position_text(_variant: &str, text: &str) -> Result<Self, ParsePositionError> {
        let chars: Vec<char> = text.chars().collect();
        let mut pos = TicTacToe::new();
        for (i, &ch) in chars.iter().take(9).enumerate() {
            match ch.to_ascii_uppercase() {
                'X' => pos.boards[0] |= 1 << i,
                'O' => pos.boards[1] |= 1 << i,
                '-' | '.' => {}
                _ => return Err(ParsePositionError::at(text, i, "X, O or - for a cell")),
            }
        }
        if chars.len() < 9 {
            return Err(ParsePositionError::at(
                text,
                chars.len(),
                "nine cells (X, O or -)",
            ));
        }
        if chars.get(9) != Some(&' ') {
            return Err(ParsePositionError::at(
                text,
                9,
                "a space, then the side to move (X or O)",
            ));
        }
        pos.to_move = match chars.get(10).map(|c| c.to_ascii_uppercase()) {
            Some('X') => 0,
            Some('O') => 1,
            _ => return Err(ParsePositionError::at(text, 10, "the side to move: X or O")),
        };
        if chars.len() > 11 {
            return Err(ParsePositionError::at(
                text,
                11,
                "end of text after the side to move",
            ));
        }
        let (x, o) = (pos.boards[0].count_ones(), pos.boards[1].count_ones());
        let expected_mover = if x == o { 0 } else { 1 };
        if !(x == o || x == o + 1) || pos.to_move != expected_mover {
            return Err(ParsePositionError::whole(format!(
                "a reachable position: X moves first, so X has as many marks as O or one more, and it is X's turn \
                 exactly when the counts are equal (found {x} X, {o} O, {} to move)",
                if pos.to_move == 0 { "X" } else { "O" }
            )));
        }
        pos.key = pos.zobrist_from_scratch();
        Ok(pos)
    }
}

/// Tic-tac-toe evaluators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TicTacToeEval {
    /// Open lines: lines still winnable weighted by how many marks they hold, plus the centre.
    Lines,
}

impl Evaluator<TicTacToe> for TicTacToeEval {
    fn prescore_is_evaluation(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "lines"
    }

    fn evaluate<S: TermSink>(&self, pos: &TicTacToe, perspective: PlayerId, sink: &mut S) -> f64 {
        let me = pos.boards[perspective as usize];
        let them = pos.boards[1 - perspective as usize];
        if let Some(w) = pos.winner() {
            let v = if w == perspective { 100.0 } else { -100.0 };
            sink.term("won", v / 100.0, 100.0);
            return v;
        }
        let (mut two, mut one) = (0i32, 0i32);
        for &l in &LINES {
            let (m, t) = ((me & l).count_ones() as i32, (them & l).count_ones() as i32);
            match (m, t) {
                (2, 0) => two += 1,
                (1, 0) => one += 1,
                (0, 2) => two -= 1,
                (0, 1) => one -= 1,
                _ => {}
            }
        }
        let centre = ((me >> 4) & 1) as i32 - ((them >> 4) & 1) as i32;
        sink.term("two_in_line", two as f64, 10.0);
        sink.term("one_in_line", one as f64, 1.0);
        sink.term("centre", centre as f64, 2.0);
        two as f64 * 10.0 + one as f64 + centre as f64 * 2.0
    }
}

impl Playable for TicTacToe {
    type Eval = TicTacToeEval;

    const INFO: GameInfo = GameInfo {
        id: "tictactoe",
        name: "Tic-tac-toe",
        variants: &[],
        chance: false,
        players: 2,
        ai: AiDefaults::new(9, 1000),
    };

    fn new_game(id: &str) -> Result<Self, Error> {
        if id != "tictactoe" {
            return Err(Error::bad_option(
                "game",
                id,
                "tictactoe (it has no variants)",
            ));
        }
        Ok(TicTacToe::new())
    }

    fn evaluator_names() -> &'static [&'static str] {
        &["lines"]
    }

    fn evaluator(name: &str) -> Result<TicTacToeEval, Error> {
        match name {
            "" | "lines" => Ok(TicTacToeEval::Lines),
            _ => Err(Error::bad_option("evaluator", name, "lines")),
        }
    }

    fn perft_convention() -> PerftConvention {
        PerftConvention::FinishedCountsZero
    }
}

impl crate::core::Viewable for TicTacToe {
    fn board_view(&self) -> crate::core::BoardView {
        use crate::core::{BoardView, Cell as ViewCell, Coord, Geometry, Labels, Piece};
        let mut view = BoardView::new(
            Geometry::Square {
                width: 3,
                height: 3,
            },
            "marks",
        );
        view.labels = Some(Labels::letters_numbers(3, 3, false));
        for c in 0..9u8 {
            let pieces = self
                .cell(c)
                .map(|p| vec![Piece::owned(p, if p == 0 { "x" } else { "o" })])
                .unwrap_or_default();
            view.cells.push(ViewCell::new(
                Coord::new((c % 3) as i32, (c / 3) as i32),
                pieces,
            ));
        }
        view.hands = vec![Vec::new(), Vec::new()];
        view
    }

    fn move_view(&self, m: Cell) -> crate::core::MoveView {
        use crate::core::{Coord, MoveKind, MoveView};
        MoveView::new(cell_name(m), MoveKind::Place).to(Coord::new((m % 3) as i32, (m / 3) as i32))
    }
}
