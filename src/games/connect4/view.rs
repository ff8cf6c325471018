//! Connect Four's board view: a 7x6 frame of holes (the `slots` look) drawn with the top row first, columns labelled
//! 1 to 7. A move places a disc on the cell it falls to.

use super::{Column, Connect4, HEIGHT, WIDTH};
use crate::core::{
    BoardView, Cell, Coord, Game, Geometry, Labels, MoveKind, MoveView, Piece, Viewable,
};

impl Viewable for Connect4 {
    fn board_view(&self) -> BoardView {
        let mut view = BoardView::new(
            Geometry::Square {
                width: WIDTH,
                height: HEIGHT,
            },
            "slots",
        );
        view.labels = Some(Labels {
            columns: (1..=WIDTH).map(|c| c.to_string()).collect(),
            rows: (1..=HEIGHT).rev().map(|r| r.to_string()).collect(),
        });
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                let pieces = self
                    .cell(x, HEIGHT - 1 - y)
                    .map(|p| vec![Piece::owned(p, "disc")])
                    .unwrap_or_default();
                view.cells
                    .push(Cell::new(Coord::new(x as i32, y as i32), pieces));
            }
        }
        view.hands = vec![Vec::new(), Vec::new()];
        view.colours = vec!["#d8342c", "#f4c21b"];
        view
    }

    fn move_view(&self, m: Column) -> MoveView {
        let landing = self.landing(m);
        let row = landing.trailing_zeros() % (HEIGHT + 1);
        MoveView::new(self.format_move(m), MoveKind::Place)
            .to(Coord::new(m as i32, (HEIGHT - 1 - row) as i32))
    }
}
