//! The laser: a beam that leaves a Sphinx and is reflected, split, blocked or stopped by what it
//! meets. With Eyes of Horus on the board the beam is a directed graph, so the trace is a worklist
//! of beams, each starting at a square and heading one way; a beam is traced only the first time
//! that (square, direction) pair comes up, so the trace ends on every board, loops included (at
//! most 80 x 4 beams).
//!
//! The board does not change while the beam is traced: every piece hit on a face that does not
//! reflect is collected, and the caller removes them all afterwards. So a piece hit by several
//! beams dies once and blocks each of them, and a Pyramid that one beam kills still reflects a
//! beam that strikes its mirror.

use super::{next_square, piece_facing, piece_kind, Kind, CELLS};

/// How a beam's straight run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BeamEnd {
    /// It left the board after the `to` square.
    Edge,
    /// A Sphinx or an Anubis's front stopped it at `to`; nothing dies.
    Blocked,
    /// It hit the piece on `to` on a face that does not reflect: that piece is removed.
    Kill,
    /// A mirror on `to` turned it 90 degrees (the new beam is another segment).
    Reflect,
    /// An Eye of Horus on `to` split it: one part goes on straight, one turns 90 degrees.
    Split,
}

/// One straight run of the beam: from the square it starts on (the Sphinx, or the piece that
/// turned it) heading `dir` (0 north, 1 east, 2 south, 3 west), to the square where it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Segment {
    /// Square the run starts on.
    pub from: u8,
    /// Last square the run reaches.
    pub to: u8,
    /// Direction of travel: 0 north, 1 east, 2 south, 3 west.
    pub dir: u8,
    /// What happened at `to`.
    pub end: BeamEnd,
}

/// Receives the segments of a trace; the search's sink keeps nothing.
pub trait BeamSink {
    /// Whether segments are kept (when false, nothing is recorded and the call is free).
    const ACTIVE: bool;
    /// One straight run of the beam.
    fn segment(&mut self, seg: Segment);
}

/// A sink that keeps nothing: the fast path used by move making and search.
pub struct NoBeam;

impl BeamSink for NoBeam {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn segment(&mut self, _seg: Segment) {}
}

impl BeamSink for Vec<Segment> {
    const ACTIVE: bool = true;
    fn segment(&mut self, seg: Segment) {
        self.push(seg);
    }
}

/// What a beam does when it travels `dir` into a square holding `piece`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interaction {
    /// Stopped, nothing dies (Sphinx, Anubis front).
    Block,
    /// The piece dies and stops the beam.
    Kill,
    /// The beam leaves in this direction.
    Reflect(u8),
    /// The beam leaves both straight on and in this direction.
    Split(u8),
}

/// The direction a two-sided diagonal mirror sends a beam that strikes face `face` (the side of
/// the square it enters through: 0 north ... 3 west). `diag` 0 is the mirror running from the
/// south-east corner to the north-west one (its faces look north-east and south-west); `diag` 1
/// runs from south-west to north-east (faces look south-east and north-west).
#[inline(always)]
pub const fn mirror(diag: u8, face: u8) -> u8 {
    if diag & 1 == 0 {
        face ^ 1
    } else {
        3 - face
    }
}

/// How `piece` (a non-empty piece byte) treats a beam travelling `dir`.
#[inline(always)]
pub fn interact(piece: u8, dir: u8) -> Interaction {
    let face = (dir + 2) & 3;
    let o = piece_facing(piece);
    match piece_kind(piece) {
        Kind::Pyramid => {
            // The mirror looks towards `o` and `o + 1` (clockwise).
            if face == o || face == (o + 1) & 3 {
                Interaction::Reflect(mirror(o & 1, face))
            } else {
                Interaction::Kill
            }
        }
        Kind::Scarab => Interaction::Reflect(mirror(o & 1, face)),
        Kind::Eye => Interaction::Split(mirror(o & 1, face)),
        Kind::Anubis => {
            if face == o {
                Interaction::Block
            } else {
                Interaction::Kill
            }
        }
        Kind::Pharaoh => Interaction::Kill,
        Kind::Sphinx => Interaction::Block,
    }
}

/// Fires a beam from `start` heading `dir` over `board` and returns the squares of the pieces it
/// kills as a bit set (bit `sq`). Segments go to `sink`.
pub fn trace<S: BeamSink>(board: &[u8; CELLS], start: u8, dir: u8, sink: &mut S) -> u128 {
    // Bit (sq * 4 + dir): a beam leaving `sq` heading `dir` has been queued.
    let mut seen = [0u64; 5];
    let mut stack = [0u16; CELLS * 4];
    let mut top = 0usize;
    let mut kills = 0u128;
    #[inline(always)]
    fn queue(sq: u8, d: u8, seen: &mut [u64; 5], stack: &mut [u16; CELLS * 4], top: &mut usize) {
        let bit = sq as usize * 4 + d as usize;
        if seen[bit >> 6] >> (bit & 63) & 1 == 0 {
            seen[bit >> 6] |= 1 << (bit & 63);
            stack[*top] = bit as u16;
            *top += 1;
        }
    }
    queue(start, dir & 3, &mut seen, &mut stack, &mut top);
    while top > 0 {
        top -= 1;
        let bit = stack[top] as usize;
        let (from, d) = ((bit / 4) as u8, (bit % 4) as u8);
        let mut cur = from;
        loop {
            let next = next_square(cur, d);
            if next == u8::MAX {
                if S::ACTIVE {
                    sink.segment(Segment {
                        from,
                        to: cur,
                        dir: d,
                        end: BeamEnd::Edge,
                    });
                }
                break;
            }
            cur = next;
            let piece = board[cur as usize];
            if piece == 0 {
                continue;
            }
            let end = match interact(piece, d) {
                Interaction::Block => BeamEnd::Blocked,
                Interaction::Kill => {
                    kills |= 1u128 << cur;
                    BeamEnd::Kill
                }
                Interaction::Reflect(nd) => {
                    queue(cur, nd, &mut seen, &mut stack, &mut top);
                    BeamEnd::Reflect
                }
                Interaction::Split(nd) => {
                    queue(cur, d, &mut seen, &mut stack, &mut top);
                    queue(cur, nd, &mut seen, &mut stack, &mut top);
                    BeamEnd::Split
                }
            };
            if S::ACTIVE {
                sink.segment(Segment {
                    from,
                    to: cur,
                    dir: d,
                    end,
                });
            }
            break;
        }
    }
    kills
}
