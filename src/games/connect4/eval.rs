//! Connect Four's evaluator, with named terms: open lines of four (windows no opponent disc
//! blocks) counted by how many discs they already hold, and discs in the centre column.

use super::{Connect4, HEIGHT, STRIDE, WIDTH};
use crate::core::{Evaluator, PlayerId, TermSink};
use std::sync::OnceLock;

/// Connect Four evaluators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Connect4Eval {
    /// Open lines of four by their number of discs, and the centre column.
    Threats,
}

/// Every line of four cells on the board, as bit masks (69 of them).
fn windows() -> &'static [u64] {
    static W: OnceLock<Vec<u64>> = OnceLock::new();
    W.get_or_init(|| {
        let mut out = Vec::new();
        let cell = |c: i32, r: i32| 1u64 << (c as u32 * STRIDE + r as u32);
        for c in 0..WIDTH as i32 {
            for r in 0..HEIGHT as i32 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let (ec, er) = (c + 3 * dc, r + 3 * dr);
                    if (0..WIDTH as i32).contains(&ec) && (0..HEIGHT as i32).contains(&er) {
                        out.push((0..4).fold(0, |m, k| m | cell(c + k * dc, r + k * dr)));
                    }
                }
            }
        }
        out
    })
}

const CENTRE: u64 = ((1 << HEIGHT) - 1) << (3 * STRIDE);

impl Evaluator<Connect4> for Connect4Eval {
    fn name(&self) -> &'static str {
        "threats"
    }

    fn evaluate<S: TermSink>(&self, pos: &Connect4, perspective: PlayerId, sink: &mut S) -> f64 {
        let me = pos.discs(perspective);
        let them = pos.discs(1 - perspective);
        let mut counts = [0i32; 4]; // index: discs in an open line (1, 2, 3)
        for &w in windows() {
            let (m, t) = ((me & w).count_ones(), (them & w).count_ones());
            match (m, t) {
                (m, 0) if (1..4).contains(&m) => counts[m as usize] += 1,
                (0, t) if (1..4).contains(&t) => counts[t as usize] -= 1,
                _ => {}
            }
        }
        let centre = (me & CENTRE).count_ones() as i32 - (them & CENTRE).count_ones() as i32;
        sink.term("three_in_open_line", counts[3] as f64, 20.0);
        sink.term("two_in_open_line", counts[2] as f64, 4.0);
        sink.term("one_in_open_line", counts[1] as f64, 1.0);
        sink.term("centre_column", centre as f64, 3.0);
        counts[3] as f64 * 20.0 + counts[2] as f64 * 4.0 + counts[1] as f64 + centre as f64 * 3.0
    }
}
