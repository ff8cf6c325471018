//! Zobrist keys: fixed pseudo-random 64-bit numbers, one per (feature, value) of a position, whose
//! XOR identifies the position. Keys are made at compile time from SplitMix64, so every build and
//! every platform (native and wasm) agrees on them.

/// The SplitMix64 mixing function: a bijection on `u64` with good avalanche.
pub const fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// `N` zobrist keys for one game, distinct per `salt`; usable in a `const` or `static`.
///
/// ```
/// use plyscope::core::ZobristTable;
/// static KEYS: ZobristTable<4> = ZobristTable::new(7);
/// assert_ne!(KEYS.key(0), KEYS.key(1));
/// ```
#[derive(Debug, Clone)]
pub struct ZobristTable<const N: usize> {
    keys: [u64; N],
}

impl<const N: usize> ZobristTable<N> {
    /// Makes the table; `salt` separates the tables of different games or features.
    pub const fn new(salt: u64) -> Self {
        let mut keys = [0u64; N];
        let mut i = 0;
        while i < N {
            keys[i] = splitmix64(splitmix64(salt.wrapping_mul(0x1000_0000_01B3)) ^ (i as u64));
            i += 1;
        }
        ZobristTable { keys }
    }

    /// The `i`-th key.
    #[inline(always)]
    pub const fn key(&self, i: usize) -> u64 {
        self.keys[i]
    }
}
