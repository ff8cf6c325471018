//! The transposition table: a fixed-size, always-replace hash table keyed by zobrist keys.
//!
//! Making and zeroing a large table costs more than a short search (Threes' 100 ms moves), so the
//! table a search used is kept for the next search on the same thread: a new generation number
//! makes its old entries stale at no cost. The last [`SPARES`] tables are kept, so that two
//! players of different table sizes on one thread (a match) do not remake theirs every move.

use super::shared_tt::SharedTable;
use crate::core::PlayerId;
use crate::tree::Bound;
use std::any::Any;
use std::cell::RefCell;

/// One stored result.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry<M: Copy> {
    pub key: u64,
    pub value: f64,
    pub depth: u8,
    pub generation: u8,
    pub bound: Bound,
    /// Every line below ended in a finished game (no static evaluation, no null-move cut), so
    /// no deeper search can change the value.
    pub settled: bool,
    pub mv: Option<M>,
    /// The best move's index in the position's legal-move list ([`NO_INDEX`]: none or not
    /// known). The shared table stores moves this way.
    pub index: u16,
    /// The thread that stored the entry (0 in a single-threaded search).
    pub writer: u8,
}

/// No move index in an [`Entry`].
pub(crate) const NO_INDEX: u16 = u16::MAX;

/// The table a searcher uses: its own, or the one a parallel search's threads share.
pub(crate) enum Tt<'s, M: Copy> {
    /// A single-threaded search's table.
    Local(Table<M>),
    /// The shared table of a parallel search, and this thread's number.
    Shared(&'s SharedTable, u8),
}

impl<M: Copy + 'static> Tt<'_, M> {
    /// The entry for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        match self {
            Tt::Local(t) => t.probe(key).copied(),
            Tt::Shared(t, _) => t.probe(key),
        }
    }

    /// Stores a result; `index` is `mv`'s index in the position's legal-move list
    /// ([`NO_INDEX`] when unknown).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        depth: u32,
        value: f64,
        bound: Bound,
        settled: bool,
        mv: Option<M>,
        index: u16,
    ) {
        match self {
            Tt::Local(t) => t.store(key, depth, value, bound, settled, mv),
            Tt::Shared(t, id) => t.store(key, depth, value, bound, settled, index, *id),
        }
    }

    /// Makes every entry stale (the shared table's generation is fixed for its search).
    pub fn next_generation(&mut self) {
        if let Tt::Local(t) = self {
            t.next_generation();
        }
    }

    /// This thread's number (0 for the main thread and a single-threaded search).
    #[inline]
    pub fn thread(&self) -> u8 {
        match self {
            Tt::Local(_) => 0,
            Tt::Shared(_, id) => *id,
        }
    }

    /// Done with: a local table is kept for the next search on this thread.
    pub fn give_back(self) {
        if let Tt::Local(t) = self {
            t.give_back();
        }
    }
}

/// A table of `2^bits` entries.
pub(crate) struct Table<M: Copy> {
    entries: Vec<Option<Entry<M>>>,
    mask: u64,
    generation: u8,
    /// The root player of the search that last used the table (values are from its view).
    owner: Option<PlayerId>,
}

/// How many used tables a thread keeps for later searches.
pub(crate) const SPARES: usize = 2;

thread_local! {
    /// The tables the last searches on this thread used (the latest last), kept for the next.
    static SPARE: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

impl<M: Copy + 'static> Table<M> {
    /// A table of `2^bits` entries for a search whose root player is `owner`: the spare one when
    /// it fits, else a new one. Its entries are all stale, unless `keep` asks to keep those of the
    /// last search, which are kept when that search had the same root player.
    pub fn take(bits: u32, keep: bool, owner: PlayerId) -> Self {
        if let Some(mut t) = Self::take_spare(bits) {
            if !(keep && t.owner == Some(owner)) {
                // When generations wrap, old entries could look current again: cleared then.
                t.next_generation();
            }
            t.owner = Some(owner);
            return t;
        }
        let size = 1usize << bits;
        Table {
            entries: vec![None; size],
            mask: (size - 1) as u64,
            generation: 0,
            owner: Some(owner),
        }
    }

    /// Makes every entry stale (as a new search does), at no cost but a full clear when the
    /// generation number wraps.
    pub fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.entries.iter_mut().for_each(|e| *e = None);
        }
    }

    /// Takes this thread's most recent spare table of `2^bits` entries, if any, entries and all
    /// (to carry it to another thread: [`Table::give_back`] there).
    pub fn take_spare(bits: u32) -> Option<Self> {
        let size = 1usize << bits;
        SPARE.with(|s| {
            let mut s = s.borrow_mut();
            let at = s.iter().rposition(|b| {
                b.downcast_ref::<Table<M>>()
                    .is_some_and(|t| t.entries.len() == size)
            })?;
            s.remove(at).downcast::<Table<M>>().ok().map(|t| *t)
        })
    }

    /// Keeps this table for the next search on this thread.
    pub fn give_back(self) {
        SPARE.with(|s| {
            let mut s = s.borrow_mut();
            if s.len() >= SPARES {
                s.remove(0);
            }
            s.push(Box::new(self));
        });
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        match &self.entries[(key & self.mask) as usize] {
            Some(e) if e.key == key && e.generation == self.generation => Some(e),
            _ => None,
        }
    }

    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        depth: u32,
        value: f64,
        bound: Bound,
        settled: bool,
        mv: Option<M>,
    ) {
        let generation = self.generation;
        let slot = &mut self.entries[(key & self.mask) as usize];
        // Keep a deeper result for the same position; otherwise always replace.
        if let Some(e) = slot {
            if e.key == key && e.generation == generation && e.depth as u32 > depth {
                return;
            }
        }
        *slot = Some(Entry {
            key,
            value,
            depth: depth.min(255) as u8,
            generation,
            bound,
            settled,
            mv,
            index: NO_INDEX,
            writer: 0,
        });
    }
}
