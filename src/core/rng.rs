//! A seedable random number generator, the same natively and in wasm, so that a seeded search or a
//! seeded Threes game replays exactly.

use rand::rngs::SmallRng;
use rand::{Rng as _, RngCore, SeedableRng};

/// A small fast seedable RNG (xoshiro256++ via `rand`'s `SmallRng`).
#[derive(Debug, Clone)]
pub struct Rng(SmallRng);

impl Rng {
    /// A generator whose whole sequence is fixed by `seed`.
    pub fn seeded(seed: u64) -> Self {
        Rng(SmallRng::seed_from_u64(seed))
    }

    /// A generator seeded from the operating system (or `crypto.getRandomValues` in the browser).
    pub fn from_entropy() -> Self {
        Rng::seeded(Self::entropy_seed())
    }

    /// A fresh random seed from the operating system (or the browser's crypto API).
    pub fn entropy_seed() -> u64 {
        let mut bytes = [0u8; 8];
        if getrandom::getrandom(&mut bytes).is_err() {
            // No entropy source: fall back on the clock rather than failing a game.
            return super::now_ms().to_bits() ^ 0x5DEE_CE66_D1CE_4E5B;
        }
        u64::from_le_bytes(bytes)
    }

    /// A uniform integer in `0..n`; `n` must be at least 1.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        self.0.gen_range(0..n.max(1))
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        self.0.gen::<f64>()
    }

    /// 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}
