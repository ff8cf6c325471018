//! Ataxx's board view: a 7x7 board of stones and walls, `a7` at the top-left, with each player's
//! stone count as the score. A clone names the player's stones it can grow from, so that a person
//! may pick one of them first.

use super::{Ataxx, AtaxxMove};
use crate::core::{
    BoardView, Cell, Coord, Game, Geometry, Labels, MoveKind, MoveView, Piece, PlayerId, Score,
    Turn, Viewable,
};

/// The cell index (0 = a1 .. 48 = g7) as drawn: column from the left, row from the top.
fn coord(sq: u8) -> Coord {
    Coord::new((sq % 7) as i32, 6 - (sq / 7) as i32)
}

/// The cells next to `sq` (diagonals included), as a bit set.
fn neighbours(sq: u8) -> u64 {
    let (x, y) = ((sq % 7) as i32, (sq / 7) as i32);
    let mut set = 0u64;
    for dy in -1..=1 {
        for dx in -1..=1 {
            let (nx, ny) = (x + dx, y + dy);
            if (dx, dy) != (0, 0) && (0..7).contains(&nx) && (0..7).contains(&ny) {
                set |= 1 << (ny * 7 + nx);
            }
        }
    }
    set
}

impl Viewable for Ataxx {
    fn board_view(&self) -> BoardView {
        let mut view = BoardView::new(
            Geometry::Square {
                width: 7,
                height: 7,
            },
            "discs",
        );
        view.labels = Some(Labels::letters_numbers(7, 7, true));
        for row in (0..7u8).rev() {
            for col in 0..7u8 {
                let sq = row * 7 + col;
                let at = coord(sq);
                let cell = if self.walls() >> sq & 1 == 1 {
                    Cell::wall(at)
                } else {
                    let owner = (0..2).find(|&p| self.pieces(p) >> sq & 1 == 1);
                    Cell::new(
                        at,
                        owner
                            .map(|p| vec![Piece::owned(p, "stone")])
                            .unwrap_or_default(),
                    )
                };
                view.cells.push(cell);
            }
        }
        view.hands = vec![Vec::new(), Vec::new()];
        view.scores = (0..2)
            .map(|p: PlayerId| {
                let n = self.pieces(p).count_ones();
                Score {
                    player: Some(p),
                    value: n as f64,
                    unit: "stones",
                    text: n.to_string(),
                }
            })
            .collect();
        view
    }

    fn move_view(&self, m: AtaxxMove) -> MoveView {
        let text = self.format_move(m);
        match (m.from(), m.to()) {
            (_, None) => MoveView::new(text, MoveKind::Pass),
            (Some(from), Some(to)) => MoveView::new(text, MoveKind::Jump)
                .from(coord(from))
                .to(coord(to)),
            (None, Some(to)) => {
                let mover = match self.turn() {
                    Turn::Player(p) => p,
                    _ => self.side_to_move(),
                };
                let own = self.pieces(mover) & neighbours(to);
                let sources = (0..49u8)
                    .filter(|&sq| own >> sq & 1 == 1)
                    .map(coord)
                    .collect();
                MoveView::new(text, MoveKind::Clone)
                    .to(coord(to))
                    .sources(sources)
            }
        }
    }
}
