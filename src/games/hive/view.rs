//! Hive's board view: hexes in axial coordinates with no bounds, each occupied cell with its stack
//! (bottom first), each player's pieces in hand, and every move as a placement from hand or a
//! move from cell to cell (a Pillbug's throw names the Pillbug as its source).
//!
//! The state keeps the board on a torus; the view unrolls it: the occupied cell nearest the
//! torus's centre keeps its plain coordinates (relative to the centre, which is `(0, 0)`), and
//! every other cell of the hive and the ring around it gets its coordinates by walking from there,
//! so a hive that drifted across the torus's seam is still drawn in one piece.

use super::{
    bug_of, nb, side_of, Bug, Hive, HiveMove, CELLS, CENTER, IN_HAND, NONE, PIECES, PILLBUG,
    PER_SIDE, SLOTS,
};
use crate::core::{
    BoardView, Cell, Coord, Game, Geometry, HandPiece, HandSlot, MoveKind, MoveView, Piece,
    Viewable,
};

/// The axial step of each direction of [`super::DIRS`]: east, north-east, north-west, west,
/// south-west, south-east.
const STEPS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// The bugs in the order hands list them.
const HAND_ORDER: [Bug; 8] = [
    Bug::Queen,
    Bug::Spider,
    Bug::Beetle,
    Bug::Grasshopper,
    Bug::Ant,
    Bug::Mosquito,
    Bug::Ladybug,
    Bug::Pillbug,
];

/// A cell's plain coordinates relative to the centre (correct away from the torus's seam).
fn plain(cell: u16) -> Coord {
    let q = (cell % 32) as i32 - (CENTER % 32) as i32;
    let r = (cell / 32) as i32 - (CENTER / 32) as i32;
    Coord::new(q, r)
}

/// Coordinates for the cells of the hive and of the ring around it.
struct Unrolled {
    at: Vec<Option<Coord>>,
}

impl Unrolled {
    fn new(h: &Hive) -> Self {
        let mut at = vec![None; CELLS];
        let occupied: Vec<u16> = (0..PIECES as u8)
            .filter(|&p| h.pos(p) != IN_HAND && h.under_of_top(p))
            .map(|p| h.pos(p))
            .collect();
        let start = occupied.iter().copied().min_by_key(|&c| {
            let p = plain(c);
            p.x.abs() + p.y.abs() + (p.x + p.y).abs()
        });
        let Some(start) = start else {
            // An empty board: only the centre, where the first piece goes.
            at[CENTER as usize] = Some(Coord::new(0, 0));
            return Unrolled { at };
        };
        at[start as usize] = Some(plain(start));
        let mut queue = vec![start];
        while let Some(c) = queue.pop() {
            let here = at[c as usize].unwrap();
            for (d, &(dq, dr)) in STEPS.iter().enumerate() {
                let n = nb(c, d);
                if at[n as usize].is_none() {
                    at[n as usize] = Some(Coord::new(here.x + dq, here.y + dr));
                    // Walk on through occupied cells only; empty ones are the ring.
                    if h.height(n) > 0 {
                        queue.push(n);
                    }
                }
            }
        }
        Unrolled { at }
    }

    fn of(&self, cell: u16) -> Coord {
        self.at[cell as usize].unwrap_or_else(|| plain(cell))
    }
}

impl Hive {
    /// Whether piece `p` is on top of its stack (nothing stands on it).
    fn under_of_top(&self, p: u8) -> bool {
        self.top(self.pos(p)) == p
    }

    /// The hand list of side `s`: each bug still in hand, with how many.
    fn hand_of(&self, s: u8) -> Vec<(Bug, u32)> {
        HAND_ORDER
            .iter()
            .filter_map(|&bug| {
                let n = (0..PER_SIDE)
                    .filter(|&slot| SLOTS[slot].0 == bug)
                    .map(|slot| s * PER_SIDE as u8 + slot as u8)
                    .filter(|&p| self.in_game(p) && self.pos(p) == IN_HAND)
                    .count() as u32;
                (n > 0).then_some((bug, n))
            })
            .collect()
    }
}

/// A piece on the board, labelled with its UHP name without the colour (`S1`, `Q`), so that the
/// page can show which Spider it is and notation stays readable.
fn piece(p: u8) -> Piece {
    let bug = bug_of(p);
    let number = SLOTS[p as usize % PER_SIDE].1;
    let label = if number == 0 {
        bug.letter().to_string()
    } else {
        format!("{}{number}", bug.letter())
    };
    Piece::owned(side_of(p), bug.name()).with_label(label)
}

impl Viewable for Hive {
    fn board_view(&self) -> BoardView {
        let mut view = BoardView::new(Geometry::Hex { flat_top: false }, "hive");
        let cells = Unrolled::new(self);
        let mut tops: Vec<u8> = (0..PIECES as u8)
            .filter(|&p| self.pos(p) != IN_HAND && self.under_of_top(p))
            .collect();
        tops.sort_by_key(|&p| cells.of(self.pos(p)));
        for top in tops {
            let mut stack = Vec::new();
            let mut p = top;
            while p != NONE {
                stack.push(piece(p));
                p = self.under(p);
            }
            stack.reverse();
            view.cells.push(Cell::new(cells.of(self.pos(top)), stack));
        }
        view.hands = (0..2u8)
            .map(|s| {
                self.hand_of(s)
                    .into_iter()
                    .map(|(bug, count)| HandPiece {
                        piece: Piece::owned(s, bug.name()).with_label(bug.letter().to_string()),
                        count,
                    })
                    .collect()
            })
            .collect();
        view
    }

    fn move_view(&self, m: HiveMove) -> MoveView {
        let text = self.format_move(m);
        if m.is_pass() {
            return MoveView::new(text, MoveKind::Pass);
        }
        let cells = Unrolled::new(self);
        let to = cells.of(m.to);
        let from = self.pos(m.piece);
        if from == IN_HAND {
            let s = side_of(m.piece);
            let bug = bug_of(m.piece);
            let index = self
                .hand_of(s)
                .iter()
                .position(|&(b, _)| b == bug)
                .unwrap_or(0) as u32;
            return MoveView::new(text, MoveKind::Place)
                .to(to)
                .hand(HandSlot { player: s, index });
        }
        let mut mv = MoveView::new(text, MoveKind::Move)
            .from(cells.of(from))
            .to(to);
        // A throw: a piece of the mover's (or the opponent's) moved over an adjacent Pillbug (or a
        // Mosquito acting as one) to a cell next to it, which a one-step move could not do. Name
        // the pieces that can throw it, so that a person may pick the Pillbug first.
        let mover = self.side();
        let throwers: Vec<Coord> = (0..6)
            .map(|d| nb(from, d))
            .filter(|&c| {
                let t = self.top(c);
                t != NONE
                    && side_of(t) == mover
                    && (t as usize % PER_SIDE == PILLBUG || bug_of(t) == Bug::Mosquito)
                    && (0..6).any(|d| nb(c, d) == m.to)
            })
            .map(|c| cells.of(c))
            .collect();
        if side_of(m.piece) != mover || (!throwers.is_empty() && self.height(from) == 1) {
            mv = mv.sources(throwers);
        }
        mv
    }
}
