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

    /// One item drawn with its weight (weights need not sum to 1; the last item takes any rounding
    /// left over). Draws exactly one [`Rng::unit`]. Panics on an empty slice.
    pub fn pick_weighted<T: Copy>(&mut self, items: &[(T, f64)]) -> T {
        let total: f64 = items.iter().map(|o| o.1).sum();
        let mut r = self.unit() * total;
        for &(item, w) in items {
            if r < w {
                return item;
            }
            r -= w;
        }
        items[items.len() - 1].0
    }

    /// 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn pick_weighted_draws_each_item_in_proportion_to_its_weight() {
        let mut rng = Rng::seeded(11);
        let items = [('a', 0.5), ('b', 1.0), ('c', 3.5)];
        let mut counts = [0u32; 3];
        let n = 50_000;
        for _ in 0..n {
            match rng.pick_weighted(&items) {
                'a' => counts[0] += 1,
                'b' => counts[1] += 1,
                _ => counts[2] += 1,
            }
        }
        for (c, want) in counts.iter().zip([0.1, 0.2, 0.7]) {
            let share = *c as f64 / n as f64;
            assert!((share - want).abs() < 0.01, "{counts:?}");
        }
        // A zero weight is never drawn, a single item always.
        assert!((0..1000).all(|_| rng.pick_weighted(&[('x', 0.0), ('y', 1.0)]) == 'y'));
        assert_eq!(rng.pick_weighted(&[('z', 0.3)]), 'z');
    }
}
