//! Reversi's board view: a square board of discs, labelled `a1` at the top-left, with the disc
//! count of each player as the score.

use super::{Reversi, ReversiMove};
use crate::core::{
    BoardView, Cell, Coord, Game, Geometry, Labels, MoveKind, MoveView, Piece, Score, Viewable,
};

impl Viewable for Reversi {
    fn board_view(&self) -> BoardView {
        let n = self.size() as u32;
        let mut view = BoardView::new(
            Geometry::Square {
                width: n,
                height: n,
            },
            "discs",
        );
        view.labels = Some(Labels::letters_numbers(n, n, false));
        for row in 0..n as usize {
            for col in 0..n as usize {
                let pieces = self
                    .cell(row, col)
                    .map(|p| vec![Piece::owned(p, "disc")])
                    .unwrap_or_default();
                view.cells
                    .push(Cell::new(Coord::new(col as i32, row as i32), pieces));
            }
        }
        view.hands = vec![Vec::new(), Vec::new()];
        view.scores = (0..2)
            .map(|p| {
                let discs = self.discs(p);
                Score {
                    player: Some(p),
                    value: discs as f64,
                    unit: "discs",
                    text: discs.to_string(),
                }
            })
            .collect();
        view
    }

    fn move_view(&self, m: ReversiMove) -> MoveView {
        let text = self.format_move(m);
        match m {
            ReversiMove::Place(sq) => MoveView::new(text, MoveKind::Place)
                .to(Coord::new((sq % 16) as i32, (sq / 16) as i32)),
            ReversiMove::Pass => MoveView::new(text, MoveKind::Pass),
        }
    }
}
