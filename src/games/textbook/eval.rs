//! The textbook trees' evaluator: a leaf is worth the value written on it. A search that stops
//! above the leaves (its depth runs out) reads an inner node as the mean of the leaves below it.
//! Pre-scores are all equal, so children are searched in the order written, as in the books.

use super::{Kind, Textbook};
use crate::core::{Evaluator, Outcome, PlayerId, TermSink};

/// The evaluator of textbook trees (values from MAX's view; MIN's view is the opposite).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TextbookEval;

fn sign(perspective: PlayerId) -> f64 {
    if perspective == 0 {
        1.0
    } else {
        -1.0
    }
}

impl Evaluator<Textbook> for TextbookEval {
    fn name(&self) -> &'static str {
        "leaves"
    }

    fn evaluate<S: TermSink>(&self, pos: &Textbook, perspective: PlayerId, sink: &mut S) -> f64 {
        let spec = pos.spec();
        let s = sign(perspective);
        if let Kind::Leaf(v) = spec.nodes[pos.node() as usize].kind {
            if S::ACTIVE {
                sink.term("leaf value", v, s);
            }
            return s * v;
        }
        let mut leaves = Vec::new();
        spec.leaves_below(pos.node(), &mut leaves);
        let sum: f64 = leaves
            .iter()
            .map(|&l| match spec.nodes[l as usize].kind {
                Kind::Leaf(v) => v,
                _ => 0.0,
            })
            .sum();
        let mean = sum / leaves.len().max(1) as f64;
        if S::ACTIVE {
            sink.term("mean of the leaves below", mean, s);
        }
        s * mean
    }

    /// Every child looks the same: the search keeps the order written.
    fn prescore<S: TermSink>(&self, _child: &Textbook, _perspective: PlayerId, _: &mut S) -> f64 {
        0.0
    }

    fn terminal(&self, pos: &Textbook, outcome: Outcome, perspective: PlayerId, _ply: u32) -> f64 {
        match outcome {
            Outcome::Score(v) => sign(perspective) * v,
            _ => self.evaluate(pos, perspective, &mut crate::core::NoTerms),
        }
    }

    fn describe(&self, value: f64) -> crate::core::ValueText {
        crate::core::describe_value(value, crate::core::ValueUnit::POINTS)
    }
}
