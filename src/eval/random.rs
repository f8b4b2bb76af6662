//! The random numbers RAND and RANDBETWEEN draw. An engine holds one
//! stream (SplitMix64 over a 64-bit state), started from the calculation
//! settings' seed ([`CalcSettings::seed`](crate::policy::CalcSettings)) when
//! there is one, so that the same workbook recalculated from the same
//! state draws the same numbers, run after run; without a seed, from a
//! seed of the process's own randomness (the standard library's hasher
//! keys). Evaluation outside an engine (`dataflow eval`, a test's formula)
//! draws from a fresh unseeded stream.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

/// A stream of numbers uniform in [0, 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Random {
    /// The seed it was started from, as the settings gave it.
    seed: Option<u64>,
    state: u64,
}

impl Random {
    /// A stream started from `seed`, or from a random seed.
    pub fn new(seed: Option<u64>) -> Random {
        Random { seed, state: seed.unwrap_or_else(|| RandomState::new().hash_one(0x5eed_u64)) }
    }

    /// Starts the stream again when the settings' seed is not the one it
    /// was started from (a setting changed since).
    pub fn follow(&mut self, seed: Option<u64>) {
        if self.seed != seed {
            *self = Random::new(seed);
        }
    }

    /// The next number, uniform in [0, 1), with 53 random bits.
    pub fn next_number(&mut self) -> f64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_repeats_its_numbers_and_none_does_not() {
        let (mut a, mut b) = (Random::new(Some(7)), Random::new(Some(7)));
        let xs: Vec<f64> = (0..100).map(|_| a.next_number()).collect();
        assert!(xs.iter().all(|&x| (0.0..1.0).contains(&x)));
        assert_eq!(xs, (0..100).map(|_| b.next_number()).collect::<Vec<_>>());
        assert_ne!(Random::new(None).next_number(), Random::new(None).next_number(), "two random seeds");
        let mut c = Random::new(Some(7));
        c.follow(Some(7));
        assert_eq!(c.next_number(), xs[0], "the same seed goes on");
        c.follow(Some(8));
        assert_ne!(c.next_number(), xs[1], "another seed starts again");
    }
}
