//! The transposition table shared by the threads of a parallel (Lazy SMP) search, without locks.
//!
//! Each slot is three atomic words: the entry's value, its packed details (depth, generation,
//! bound, settled flag, best move and writing thread) and a check word, the position's key XOR
//! the other two. Threads read and write the words with relaxed atomics and no lock; a reader
//! that catches a slot half-written by another thread sees a check word that does not match the
//! key and treats the slot as empty (the "XOR trick" of Hyatt and Mann's lockless hashing).
//!
//! Slots come in pairs (buckets of two, at the key's slot rounded down to even): the first keeps
//! the deeper result (depth-preferred: it takes an entry at least as deep as the one it holds),
//! the second takes every other one (always-replace). With one slot per key, two threads writing
//! twice as many entries as one evicted each other's deep entries, and the main thread of a
//! parallel search searched more nodes: Reversi depth 13 from the bench's midgame, 2 threads, 1
//! thread's nodes over the main thread's were a median 1.37x with one slot and 1.83x with buckets
//! of two (5 runs each taken in turn, natively; docs/benchmarks.md, session 17).
//!
//! Moves are generic, so the table stores the best move as its index in the position's
//! [`Game::legal_moves`](crate::core::Game::legal_moves) list (generation order, which is
//! deterministic), and the searcher maps it back after generating the moves.

use super::tt::Entry;
use crate::tree::Bound;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One slot: the check word (key ^ value ^ meta), the value's bits and the packed details.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    value: AtomicU64,
    meta: AtomicU64,
}

/// Two slots, on one cache line of their own (64 bytes: 48 used), so that a probe reads one line
/// and threads writing neighbouring buckets do not share a line.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; 2]);

/// A table of `2^bits` slots (`2^(bits - 1)` buckets of two) shared by reference between threads.
pub(crate) struct SharedTable {
    buckets: Vec<Bucket>,
    mask: u64,
    generation: u8,
    /// The positions some thread is searching now (deep enough to defer), by key: a small
    /// always-replace table ([`SharedTable::enter`]).
    busy: Vec<AtomicU64>,
}

/// The busy table has `2^BUSY_BITS` words.
const BUSY_BITS: u32 = 14;

thread_local! {
    /// The table the last parallel search started on this thread used, kept for the next.
    static SPARE: RefCell<Option<SharedTable>> = const { RefCell::new(None) };
}

/// Packs an entry's details into one word: depth (bits 0-7), generation (8-15), bound (16-17),
/// settled (18), best-move index (32-47, [`NO_INDEX`] for none) and writing thread (48-55).
#[inline]
fn pack(depth: u8, generation: u8, bound: Bound, settled: bool, index: u16, writer: u8) -> u64 {
    let b = match bound {
        Bound::Exact => 0u64,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    depth as u64
        | (generation as u64) << 8
        | b << 16
        | (settled as u64) << 18
        | (index as u64) << 32
        | (writer as u64) << 48
}

impl SharedTable {
    /// A table of `2^bits` slots with no valid entry: the spare one of this thread when it has
    /// that size (made stale by a new generation), else a new one.
    pub fn take(bits: u32) -> Self {
        let size = 1usize << bits;
        if let Some(mut t) = SPARE.with(|s| s.borrow_mut().take()) {
            if t.buckets.len() * 2 == size {
                t.generation = t.generation.wrapping_add(1);
                if t.generation == 0 {
                    // A wrapped generation could make old entries look current: clear them.
                    for s in t.buckets.iter().flat_map(|b| &b.0) {
                        s.check.store(0, Relaxed);
                        s.value.store(0, Relaxed);
                        s.meta.store(0, Relaxed);
                    }
                    t.generation = 1;
                }
                for b in &t.busy {
                    b.store(0, Relaxed);
                }
                return t;
            }
        }
        let mut buckets = Vec::with_capacity(size / 2);
        buckets.resize_with(size / 2, Bucket::default);
        // Generation 1: an all-zero slot (key 0, generation 0) never matches.
        SharedTable {
            buckets,
            mask: (size - 1) as u64,
            generation: 1,
            busy: (0..1usize << BUSY_BITS)
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }

    /// Keeps this table for the next parallel search started on this thread.
    pub fn give_back(self) {
        SPARE.with(|s| *s.borrow_mut() = Some(self));
    }

    /// This thread starts searching the position of `key` (with [`SharedTable::leave`] after).
    #[inline]
    pub fn enter(&self, key: u64) {
        self.busy_word(key).store(key, Relaxed);
    }

    /// This thread is done with the position of `key`.
    #[inline]
    pub fn leave(&self, key: u64) {
        let w = self.busy_word(key);
        // Another thread may have entered a position of the same word since: leave it marked.
        let _ = w.compare_exchange(key, 0, Relaxed, Relaxed);
    }

    /// Whether some thread is searching the position of `key` now (as far as the table knows:
    /// two positions sharing a word hide each other, which only changes the order of a search).
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.busy_word(key).load(Relaxed) == key
    }

    #[inline]
    fn busy_word(&self, key: u64) -> &AtomicU64 {
        &self.busy[(key >> (64 - BUSY_BITS)) as usize]
    }

    /// The entry stored for `key` in this search, if any (`mv` is always `None`; the move is in
    /// `index`).
    #[inline]
    pub fn probe<M: Copy>(&self, key: u64) -> Option<Entry<M>> {
        let (first, second) = self.bucket(key);
        self.read(first, key).or_else(|| self.read(second, key))
    }

    /// The two slots of `key`'s bucket: the depth-preferred one and the always-replace one.
    #[inline]
    fn bucket(&self, key: u64) -> (&Slot, &Slot) {
        let i = (key & self.mask & !1) as usize;
        let b = &self.buckets[i / 2];
        (&b.0[0], &b.0[1])
    }

    /// The slot's words: the key they check against and the details (0 for a slot of another
    /// search or half-written: its generation or key does not match).
    #[inline]
    fn words(slot: &Slot) -> (u64, u64, u64) {
        let meta = slot.meta.load(Relaxed);
        let value = slot.value.load(Relaxed);
        let check = slot.check.load(Relaxed);
        (check ^ value ^ meta, value, meta)
    }

    /// Whether details `meta` are of this search.
    #[inline]
    fn current(&self, meta: u64) -> bool {
        (meta >> 8) as u8 == self.generation
    }

    /// The entry in `slot` if it is `key`'s, of this search and whole.
    #[inline]
    fn read<M: Copy>(&self, slot: &Slot, key: u64) -> Option<Entry<M>> {
        let (k, value, meta) = Self::words(slot);
        if k != key || !self.current(meta) {
            return None;
        }
        Some(Entry {
            key,
            value: f64::from_bits(value),
            depth: meta as u8,
            generation: self.generation,
            bound: match (meta >> 16) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            settled: (meta >> 18) & 1 == 1,
            mv: None,
            index: (meta >> 32) as u16,
            writer: (meta >> 48) as u8,
        })
    }

    /// Stores a result, keeping a deeper one of the same position from this search: in the slot
    /// that holds this position already, else in the depth-preferred slot when the result is at
    /// least as deep as what that holds (or it holds nothing of this search), else in the
    /// always-replace slot.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        depth: u32,
        value: f64,
        bound: Bound,
        settled: bool,
        index: u16,
        writer: u8,
    ) {
        let (first, second) = self.bucket(key);
        let (k1, _, m1) = Self::words(first);
        let (k2, _, m2) = Self::words(second);
        let deeper = |meta: u64| (meta as u8) as u32 > depth;
        let slot = if k1 == key && self.current(m1) {
            if deeper(m1) {
                return;
            }
            first
        } else if k2 == key && self.current(m2) {
            if deeper(m2) {
                return;
            }
            second
        } else if !self.current(m1) || !deeper(m1) {
            first
        } else {
            second
        };
        let meta = pack(
            depth.min(255) as u8,
            self.generation,
            bound,
            settled,
            index,
            writer,
        );
        let bits = value.to_bits();
        slot.value.store(bits, Relaxed);
        slot.meta.store(meta, Relaxed);
        slot.check.store(key ^ bits ^ meta, Relaxed);
    }
}

#[cfg(test)]
impl SharedTable {
    /// Every whole entry of this search: (depth, bound, best-move index).
    pub fn entries(&self) -> Vec<(u8, Bound, u16)> {
        self.buckets
            .iter()
            .flat_map(|b| &b.0)
            .filter_map(|slot| {
                let (key, _, _) = Self::words(slot);
                self.read::<u8>(slot, key)
                    .map(|e| (e.depth, e.bound, e.index))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tt::NO_INDEX;
    use super::*;

    #[test]
    fn stores_and_finds_entries_and_keeps_the_deeper() {
        let t = SharedTable::take(10);
        assert!(t.probe::<u8>(12345).is_none());
        t.store(12345, 3, -2.5, Bound::Lower, true, 7, 2);
        let e = t.probe::<u8>(12345).expect("stored");
        assert_eq!(
            (e.value, e.depth, e.bound, e.settled),
            (-2.5, 3, Bound::Lower, true)
        );
        assert_eq!((e.index, e.writer), (7, 2));
        // A shallower result of the same position does not replace it; a deeper one does.
        t.store(12345, 2, 1.0, Bound::Exact, false, 1, 1);
        assert_eq!(t.probe::<u8>(12345).map(|e| e.value), Some(-2.5));
        t.store(12345, 4, 1.0, Bound::Exact, false, NO_INDEX, 1);
        let e = t.probe::<u8>(12345).expect("stored");
        assert_eq!((e.value, e.depth, e.index), (1.0, 4, NO_INDEX));
        // Another key in the same slot is not mistaken for it.
        assert!(t.probe::<u8>(12345 + (1 << 10)).is_none());
    }

    #[test]
    fn a_bucket_keeps_the_deeper_entry_and_the_latest_other_one() {
        let t = SharedTable::take(10);
        // Four keys of one bucket (slots 40 and 41).
        let [a, b, c, d] = [40u64, 41 + (1 << 10), 40 + (2 << 10), 41 + (3 << 10)];
        t.store(a, 6, 1.0, Bound::Exact, false, 0, 0);
        t.store(b, 2, 2.0, Bound::Exact, false, 0, 1);
        // The shallower entry went to the always-replace slot: both are there.
        assert_eq!(t.probe::<u8>(a).map(|e| e.value), Some(1.0));
        assert_eq!(t.probe::<u8>(b).map(|e| e.value), Some(2.0));
        // Another shallow one replaces it, not the deep one.
        t.store(c, 3, 3.0, Bound::Lower, false, 0, 1);
        assert!(t.probe::<u8>(b).is_none());
        assert_eq!(t.probe::<u8>(a).map(|e| e.value), Some(1.0));
        assert_eq!(t.probe::<u8>(c).map(|e| e.value), Some(3.0));
        // A result at least as deep takes the depth-preferred slot.
        t.store(d, 6, 4.0, Bound::Upper, false, 0, 1);
        assert!(t.probe::<u8>(a).is_none());
        assert_eq!(t.probe::<u8>(d).map(|e| e.value), Some(4.0));
        assert_eq!(t.probe::<u8>(c).map(|e| e.value), Some(3.0));
        // A position already in the always-replace slot is updated there (no copy in both).
        t.store(c, 4, 5.0, Bound::Exact, false, 0, 1);
        assert_eq!(t.probe::<u8>(c).map(|e| (e.value, e.depth)), Some((5.0, 4)));
        assert_eq!(t.probe::<u8>(d).map(|e| e.value), Some(4.0));
    }

    #[test]
    fn a_torn_slot_reads_as_empty_and_a_new_generation_hides_old_entries() {
        let t = SharedTable::take(10);
        t.store(99, 5, 3.0, Bound::Exact, false, 0, 0);
        // Half a write by another thread: the value changed, the check word did not.
        // Key 99's bucket is slots 98 and 99; the empty bucket's first slot took it.
        let slot = &t.buckets[49].0[0];
        slot.value.store(7.0f64.to_bits(), Relaxed);
        assert!(t.probe::<u8>(99).is_none());
        t.store(99, 5, 3.0, Bound::Exact, false, 0, 0);
        assert!(t.probe::<u8>(99).is_some());
        t.give_back();
        let t = SharedTable::take(10);
        assert!(
            t.probe::<u8>(99).is_none(),
            "a new search sees no old entry"
        );
    }
}
