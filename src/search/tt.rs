//! The transposition table: a fixed-size, always-replace hash table keyed by zobrist keys.

use crate::tree::Bound;

/// One stored result.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry<M: Copy> {
    pub key: u64,
    pub value: f64,
    pub depth: u8,
    pub bound: Bound,
    pub mv: Option<M>,
}

/// A table of `2^bits` entries, allocated once per search.
pub(crate) struct Table<M: Copy> {
    entries: Vec<Option<Entry<M>>>,
    mask: u64,
}

impl<M: Copy> Table<M> {
    pub fn new(bits: u32) -> Self {
        let size = 1usize << bits;
        Table {
            entries: vec![None; size],
            mask: (size - 1) as u64,
        }
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        match &self.entries[(key & self.mask) as usize] {
            Some(e) if e.key == key => Some(e),
            _ => None,
        }
    }

    #[inline]
    pub fn store(&mut self, key: u64, depth: u32, value: f64, bound: Bound, mv: Option<M>) {
        let slot = &mut self.entries[(key & self.mask) as usize];
        // Keep a deeper result for the same position; otherwise always replace.
        if let Some(e) = slot {
            if e.key == key && e.depth as u32 > depth {
                return;
            }
        }
        *slot = Some(Entry {
            key,
            value,
            depth: depth.min(255) as u8,
            bound,
            mv,
        });
    }
}
