//! Where evaluation breakdowns wait while the search decides whether to record them.
//!
//! The search scores every child of a node before it opens any of them (to order them), and opens
//! only those it does not prune. So each breakdown is first written here, on a stack that follows
//! the search's plies ([`Stage::mark`] / [`Stage::release`]), and the recorder copies the ones it
//! keeps into its own pool when the child is opened.
//!
//! Term names are interned once per evaluator, and so are *layouts*: the sequence of term names
//! with their weights. A breakdown is then a layout id and one `f32` per term (its raw measure).

use crate::core::TermSink;
use std::collections::HashMap;

/// "No breakdown": the staged index of a child whose pre-score was not staged.
pub const NO_STAGE: u32 = u32::MAX;
/// For [`crate::tree::Recorder::close`]: the leaf's evaluation is its pre-score's breakdown.
pub const EVAL_IS_PRESCORE: u32 = u32::MAX - 1;
/// For [`crate::tree::Recorder::open`] and [`crate::tree::Recorder::close`]: the breakdown (the
/// pre-score, or the leaf's evaluation) is not computed during the search but when the tree is
/// built, from the node's position (see [`crate::tree::Arena::build_with`]). The search then pays
/// nothing for breakdowns, and only the nodes a budget keeps get them.
pub const LAZY: u32 = u32::MAX - 2;

/// A sequence of terms with their weights, shared by every breakdown that has them.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Indices into the stage's name table, in the order the evaluator reported them.
    pub names: Vec<u16>,
    /// The weight of each term.
    pub weights: Vec<f64>,
}

/// One staged breakdown.
#[derive(Debug, Clone, Copy)]
struct Entry {
    layout: u32,
    at: u32,
    total: f64,
}

/// The breakdown stack and the intern tables (see the module documentation).
#[derive(Debug, Default)]
pub struct Stage {
    names: Vec<&'static str>,
    name_guess: usize,
    layouts: Vec<Layout>,
    by_hash: HashMap<u64, u32>,
    last_layout: u32,
    // The breakdown being written.
    cur_names: Vec<u16>,
    cur_weights: Vec<f64>,
    cur_start: u32,
    // Staged breakdowns.
    raws: Vec<f32>,
    entries: Vec<Entry>,
}

fn layout_hash(names: &[u16], weights: &[f64]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (&n, &w) in names.iter().zip(weights) {
        h = (h ^ n as u64).wrapping_mul(0x1000_0000_01b3);
        h = (h ^ w.to_bits()).wrapping_mul(0x1000_0000_01b3);
    }
    h
}

impl Stage {
    /// An empty stage.
    pub fn new() -> Self {
        Stage::default()
    }

    /// The interned term names, by index.
    pub fn names(&self) -> &[&'static str] {
        &self.names
    }

    /// The interned layouts, by id.
    pub fn layouts(&self) -> &[Layout] {
        &self.layouts
    }

    /// The number of terms in layout `id`.
    #[inline]
    pub fn layout_len(&self, id: u32) -> usize {
        self.layouts[id as usize].names.len()
    }

    /// Bytes held by the intern tables and the stack (for the recorder's byte budget).
    pub fn bytes(&self) -> usize {
        self.raws.capacity() * 4
            + self.entries.capacity() * std::mem::size_of::<Entry>()
            + self
                .layouts
                .iter()
                .map(|l| 64 + l.names.len() * 10)
                .sum::<usize>()
    }

    /// Starts a breakdown: the evaluator's terms follow through [`TermSink::term`].
    #[inline]
    pub fn begin(&mut self) {
        self.cur_names.clear();
        self.cur_weights.clear();
        self.cur_start = self.raws.len() as u32;
    }

    /// Ends the breakdown begun last, whose result is `total`; returns its staged index.
    pub fn finish(&mut self, total: f64) -> u32 {
        let layout = self.intern_layout();
        let i = self.entries.len() as u32;
        self.entries.push(Entry {
            layout,
            at: self.cur_start,
            total,
        });
        i
    }

    /// The current height of the stack, to give back to [`Stage::release`].
    #[inline]
    pub fn mark(&self) -> u32 {
        self.entries.len() as u32
    }

    /// Drops every breakdown staged since `mark` was taken.
    #[inline]
    pub fn release(&mut self, mark: u32) {
        if let Some(e) = self.entries.get(mark as usize) {
            self.raws.truncate(e.at as usize);
            self.entries.truncate(mark as usize);
        }
    }

    /// The staged breakdown `i`: its layout, raw values and total.
    #[inline]
    pub fn get(&self, i: u32) -> (u32, &[f32], f64) {
        let e = self.entries[i as usize];
        let n = self.layouts[e.layout as usize].names.len();
        (
            e.layout,
            &self.raws[e.at as usize..e.at as usize + n],
            e.total,
        )
    }

    fn name_id(&mut self, name: &'static str) -> u16 {
        if let Some(&n) = self.names.get(self.name_guess) {
            if std::ptr::eq(n, name) {
                self.name_guess += 1;
                return (self.name_guess - 1) as u16;
            }
        }
        let i = match self
            .names
            .iter()
            .position(|&n| std::ptr::eq(n, name) || n == name)
        {
            Some(i) => i,
            None => {
                self.names.push(name);
                self.names.len() - 1
            }
        };
        self.name_guess = i + 1;
        i as u16
    }

    fn intern_layout(&mut self) -> u32 {
        self.name_guess = 0;
        if let Some(l) = self.layouts.get(self.last_layout as usize) {
            if l.names == self.cur_names && weights_equal(&l.weights, &self.cur_weights) {
                return self.last_layout;
            }
        }
        let h = layout_hash(&self.cur_names, &self.cur_weights);
        let found = match self.by_hash.get(&h) {
            Some(&id) => {
                let l = &self.layouts[id as usize];
                if l.names == self.cur_names && weights_equal(&l.weights, &self.cur_weights) {
                    Some(id)
                } else {
                    // A hash collision: look through them all (rare).
                    self.layouts
                        .iter()
                        .position(|l| {
                            l.names == self.cur_names
                                && weights_equal(&l.weights, &self.cur_weights)
                        })
                        .map(|i| i as u32)
                }
            }
            None => None,
        };
        let id = match found {
            Some(id) => id,
            None => {
                let id = self.layouts.len() as u32;
                self.layouts.push(Layout {
                    names: self.cur_names.clone(),
                    weights: self.cur_weights.clone(),
                });
                self.by_hash.entry(h).or_insert(id);
                id
            }
        };
        self.last_layout = id;
        id
    }
}

fn weights_equal(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

impl TermSink for Stage {
    const ACTIVE: bool = true;
    #[inline]
    fn term(&mut self, name: &'static str, raw: f64, weight: f64) {
        let id = self.name_id(name);
        self.cur_names.push(id);
        self.cur_weights.push(weight);
        self.raws.push(raw as f32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_are_shared_and_the_stack_releases() {
        let mut s = Stage::new();
        let m = s.mark();
        s.begin();
        s.term("a", 1.0, 2.0);
        s.term("b", 3.0, 0.5);
        let x = s.finish(3.5);
        s.begin();
        s.term("a", 4.0, 2.0);
        s.term("b", -1.0, 0.5);
        let y = s.finish(7.5);
        s.begin();
        s.term("a", 4.0, 3.0);
        let z = s.finish(12.0);
        assert_eq!(s.get(x).0, s.get(y).0, "same names and weights: one layout");
        assert_ne!(s.get(x).0, s.get(z).0);
        assert_eq!(s.get(y).1, &[4.0, -1.0]);
        assert_eq!(s.get(z).2, 12.0);
        assert_eq!(s.names(), &["a", "b"]);
        s.release(m);
        assert_eq!(s.mark(), 0);
        assert_eq!(s.layouts().len(), 2, "layouts outlive the stack");
    }
}
