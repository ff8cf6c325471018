//! Threes' board view: a 4x4 grid of sliding cards (kind `one`, `two` or `card` for 3 and up,
//! labelled with their value), the score in points, and the next card as information.

use super::{rank_value, Dir, Hint, Threes, ThreesMove};
use crate::core::{
    BoardView, Cell, Coord, Game, Geometry, Info, Labels, MoveKind, MoveView, Piece, Score,
    Viewable,
};

/// The cell index (0..16, row by row from the top-left) as drawn.
fn coord(cell: u8) -> Coord {
    Coord::new((cell % 4) as i32, (cell / 4) as i32)
}

/// A card of this rank as a piece.
fn card(rank: u8) -> Piece {
    let kind = match rank {
        1 => "one",
        2 => "two",
        _ => "card",
    };
    Piece::neutral(kind, rank_value(rank).to_string())
}

/// Thousands separated by commas (`774,996`), as people read a score.
pub(super) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl Viewable for Threes {
    fn board_view(&self) -> BoardView {
        let mut view = BoardView::new(
            Geometry::Tiles {
                width: 4,
                height: 4,
            },
            "tiles",
        );
        view.labels = Some(Labels::letters_numbers(4, 4, false));
        for cell in 0..16u8 {
            let rank = self.rank_at(cell);
            let pieces = if rank == 0 {
                Vec::new()
            } else {
                vec![card(rank)]
            };
            view.cells.push(Cell::new(coord(cell), pieces));
        }
        view.hands = vec![Vec::new()];
        let score = self.score();
        view.scores = vec![Score {
            player: Some(0),
            value: score as f64,
            unit: "points",
            text: grouped(score),
        }];
        let hint = self.hint();
        let (kind, label) = match hint {
            Hint::One => ("one", "1"),
            Hint::Two => ("two", "2"),
            Hint::Three => ("card", "3"),
            Hint::Bonus => ("card", "+"),
        };
        view.info = vec![Info {
            label: "next".into(),
            text: match hint {
                Hint::Bonus => "a bonus card (6 or more)".into(),
                h => format!("a {}", h.text()),
            },
            piece: Some(Piece::neutral(kind, label)),
        }];
        view
    }

    fn move_view(&self, m: ThreesMove) -> MoveView {
        let text = self.format_move(m);
        match m {
            ThreesMove::Swipe(d) => MoveView::new(text, MoveKind::Swipe).direction(match d {
                Dir::Up => "up",
                Dir::Down => "down",
                Dir::Left => "left",
                Dir::Right => "right",
            }),
            ThreesMove::Spawn { cell, .. } => MoveView::new(text, MoveKind::Chance).to(coord(cell)),
        }
    }
}
