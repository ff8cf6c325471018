//! The textbook trees' board view: the tree itself ([`Geometry::Tree`]), one level per row (the root
//! on top), the leaves across in the order written and each inner node above the middle of its
//! leaves, an edge from each node to each of its children. MAX nodes are player 0's pieces, MIN
//! nodes player 1's, chance nodes and leaves neutral, each labelled (A, B, ... or the leaf's
//! value). A marker stands on the node reached and the edges from the root to it are marked; a
//! move moves the marker to a child.

use super::{Child, Kind, Spec, Textbook};
use crate::core::{
    BoardView, Cell, Coord, Game, Geometry, Highlight, Info, Labels, MoveKind, MoveView, Piece,
    Point, Segment, Viewable,
};

/// Each node's cell: its level down, and across the middle of its leaves' columns counted in half
/// columns (a node over leaves 0 and 1 is at 1, the leaves at 0 and 2). Returns the cells and the
/// number of leaves.
fn layout(spec: &Spec) -> (Vec<Coord>, u32) {
    let n = spec.nodes.len();
    let mut span = vec![(0u32, 0u32); n];
    let mut next = 0u32;
    // Post-order: leaves take the next column; an inner node spans its children.
    fn walk(spec: &Spec, i: u32, next: &mut u32, span: &mut [(u32, u32)]) {
        let node = &spec.nodes[i as usize];
        if node.children.is_empty() {
            span[i as usize] = (*next, *next);
            *next += 1;
            return;
        }
        for &c in &node.children {
            walk(spec, c, next, span);
        }
        let first = span[node.children[0] as usize].0;
        let last = span[*node.children.last().unwrap_or(&i) as usize].1;
        span[i as usize] = (first, last);
    }
    walk(spec, spec.root, &mut next, &mut span);
    let cells = (0..n)
        .map(|i| {
            let (a, b) = span[i];
            Coord::new((a + b) as i32, spec.depth[i] as i32)
        })
        .collect();
    (cells, next.max(1))
}

fn piece(spec: &Spec, i: u32) -> Piece {
    let label = spec.label(i);
    match spec.nodes[i as usize].kind {
        Kind::Max => Piece::owned(0, "max").with_label(label),
        Kind::Min => Piece::owned(1, "min").with_label(label),
        Kind::Chance => Piece::neutral("chance", label),
        Kind::Leaf(_) => Piece::neutral("leaf", label),
    }
}

/// The marker on the node reached.
fn marker() -> Piece {
    Piece {
        owner: None,
        kind: "marker".to_string(),
        orientation: None,
        label: None,
    }
}

impl Viewable for Textbook {
    fn board_view(&self) -> BoardView {
        let spec = self.spec();
        let (at, width) = layout(spec);
        let height = spec.depth.iter().copied().max().unwrap_or(0) + 1;
        let mut view = BoardView::new(
            Geometry::Tree {
                width: 2 * width - 1,
                height,
            },
            "discs",
        );
        let rows = (0..height)
            .map(|d| {
                let kinds: Vec<&str> = spec
                    .nodes
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| spec.depth[i] == d)
                    .map(|(_, n)| match n.kind {
                        Kind::Max => "MAX",
                        Kind::Min => "MIN",
                        Kind::Chance => "chance",
                        Kind::Leaf(_) => "leaves",
                    })
                    .collect();
                if kinds.windows(2).all(|w| w[0] == w[1]) && !kinds.is_empty() {
                    kinds[0].to_string()
                } else {
                    format!("level {d}")
                }
            })
            .collect();
        view.labels = Some(Labels {
            columns: Vec::new(),
            rows,
        });
        // The nodes, in the order written (pre-order), the marker on the node reached.
        for i in 0..spec.nodes.len() {
            let mut pieces = vec![piece(spec, i as u32)];
            if i as u32 == self.node() {
                pieces.push(marker());
            }
            view.cells.push(Cell::new(at[i], pieces));
        }
        // The path from the root to the node reached: its nodes, and its edges marked apart.
        let mut on_path = vec![false; spec.nodes.len()];
        let mut i = self.node();
        loop {
            on_path[i as usize] = true;
            view.highlights.push(Highlight {
                at: at[i as usize],
                kind: "path",
            });
            if i == spec.root {
                break;
            }
            i = spec.parent[i as usize];
        }
        let point = |c: Coord| Point {
            x: c.x as f64,
            y: c.y as f64,
        };
        for (p, node) in spec.nodes.iter().enumerate() {
            for &c in &node.children {
                view.paths.push(Segment {
                    from: point(at[p]),
                    to: point(at[c as usize]),
                    kind: if on_path[p] && on_path[c as usize] {
                        "path"
                    } else {
                        "edge"
                    },
                });
            }
        }
        view.hands = vec![Vec::new(), Vec::new()];
        let n = &spec.nodes[self.node() as usize];
        let what = match n.kind {
            Kind::Max => format!("node {} (MAX to choose)", spec.label(self.node())),
            Kind::Min => format!("node {} (MIN to choose)", spec.label(self.node())),
            Kind::Chance => format!("node {} (chance)", spec.label(self.node())),
            Kind::Leaf(v) => format!("a leaf worth {}", super::notation::number(v)),
        };
        view.info.push(Info {
            label: "at".to_string(),
            text: what,
            piece: None,
        });
        view
    }

    fn move_view(&self, m: Child) -> MoveView {
        let spec = self.spec();
        let (at, _) = layout(spec);
        let here = &spec.nodes[self.node() as usize];
        let to = here.children.get(m as usize).map(|&c| at[c as usize]);
        let kind = if here.kind == Kind::Chance {
            MoveKind::Chance
        } else {
            MoveKind::Move
        };
        let mut v = MoveView::new(self.format_move(m), kind).from(at[self.node() as usize]);
        if let Some(to) = to {
            v = v.to(to);
        }
        if kind == MoveKind::Chance {
            v.prob = here.probs.get(m as usize).copied();
        }
        v
    }
}
