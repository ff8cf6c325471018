//! Khet's board view: the 10x8 oriented grid with reserved squares tinted, every piece with its
//! facing, and the last shot's beam (segments in cell units) with the pieces it destroyed.

use super::laser::{BeamEnd, Segment as Beam};
use super::{
    piece_facing, piece_kind, piece_owner, Khet, KhetMove, Kind, MoveKind, FILES, RANKS,
    RED, RED_ONLY, SILVER, SILVER_ONLY,
};
use crate::core::{
    BoardView, Cell, Coord, Geometry, Highlight, Info, Labels, MoveKind as ViewKind, MoveView, Piece,
    Point, Segment, Viewable,
};

/// The view's coordinates of square `sq` (x from the left, y from the top: rank 8 is y 0).
pub fn coord(sq: u8) -> Coord {
    Coord::new((sq as usize % FILES) as i32, (RANKS - 1 - sq as usize / FILES) as i32)
}

fn centre(sq: u8) -> Point {
    let c = coord(sq);
    Point { x: c.x as f64, y: c.y as f64 }
}

/// A piece byte as the view's piece: kind name and facing in degrees clockwise from up (a
/// mirror's facing is the direction it looks: 45 for north-east).
pub fn view_piece(p: u8) -> Piece {
    let kind = piece_kind(p);
    let name = match kind {
        Kind::Pyramid => "pyramid",
        Kind::Scarab => "scarab",
        Kind::Anubis => "anubis",
        Kind::Pharaoh => "pharaoh",
        Kind::Sphinx => "sphinx",
        Kind::Eye => "eye",
    };
    let piece = Piece::owned(piece_owner(p), name);
    let f = piece_facing(p) as u16;
    match kind {
        Kind::Pharaoh => piece,
        Kind::Anubis | Kind::Sphinx => piece.facing(f * 90),
        _ => piece.facing(45 + f * 90),
    }
}

/// The beam's segments in cell units; a beam that leaves the board ends on the edge.
pub fn beam_segments(beams: &[Beam]) -> Vec<Segment> {
    beams
        .iter()
        .map(|b| {
            let from = centre(b.from);
            let mut to = centre(b.to);
            if b.end == BeamEnd::Edge {
                let (dx, dy) = [(0.0, -0.5), (0.5, 0.0), (0.0, 0.5), (-0.5, 0.0)][b.dir as usize & 3];
                to = Point { x: to.x + dx, y: to.y + dy };
            }
            Segment { from, to, kind: "beam" }
        })
        .collect()
}

impl Viewable for Khet {
    fn board_view(&self) -> BoardView {
        let mut v = BoardView::new(
            Geometry::OrientedSquare { width: FILES as u32, height: RANKS as u32 },
            "khet",
        );
        v.labels = Some(Labels::letters_numbers(FILES as u32, RANKS as u32, true));
        // No pieces in hand, but one (empty) hand per player, as the view promises.
        v.hands = vec![Vec::new(), Vec::new()];
        for y in 0..RANKS {
            for x in 0..FILES {
                let sq = ((RANKS - 1 - y) * FILES + x) as u8;
                let p = self.piece_at(sq);
                let pieces = if p == 0 { Vec::new() } else { vec![view_piece(p)] };
                let mut cell = Cell::new(Coord::new(x as i32, y as i32), pieces);
                if RED_ONLY >> sq & 1 == 1 {
                    cell.reserved = Some(RED);
                } else if SILVER_ONLY >> sq & 1 == 1 {
                    cell.reserved = Some(SILVER);
                }
                v.cells.push(cell);
            }
        }
        if let Some((beams, killed)) = self.last_shot() {
            v.paths = beam_segments(&beams);
            for (sq, p) in killed {
                v.highlights.push(Highlight { at: coord(sq), kind: "destroyed" });
                let mut piece = view_piece(p);
                piece.label = Some(super::square_name(sq));
                v.info.push(Info {
                    label: "destroyed".into(),
                    text: format!(
                        "{} {} on {}",
                        super::player_name(piece_owner(p)),
                        piece_kind(p).name(),
                        super::square_name(sq)
                    ),
                    piece: Some(piece),
                });
            }
        }
        v.info.push(Info {
            label: "no capture for".into(),
            text: format!("{} of {} plies", self.clock(), super::DRAW_CLOCK),
            piece: None,
        });
        v
    }

    fn move_view(&self, m: KhetMove) -> MoveView {
        let text = super::notation::format_move(m);
        let from = coord(m.from);
        match m.kind {
            MoveKind::Step => MoveView::new(text, ViewKind::Move).from(from).to(coord(m.to)),
            MoveKind::Swap => MoveView::new(text, ViewKind::Swap).from(from).to(coord(m.to)),
            MoveKind::Cw => MoveView::new(text, ViewKind::Rotate).from(from).rotation(90),
            MoveKind::Ccw => MoveView::new(text, ViewKind::Rotate).from(from).rotation(-90),
        }
    }
}
