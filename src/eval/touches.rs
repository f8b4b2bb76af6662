//! What one evaluation of a formula read: the references of its tree it
//! evaluated and the shared subformulas it used. A formula that reads
//! only through those (see [`crate::eval::deps::Reads::narrow`]) depends,
//! until it is evaluated again, on nothing else: IF's branch not taken, or
//! a CHOOSE's other choices, were not read, and a change there cannot
//! change its value. The engine keeps this per formula (`engine::touched`)
//! and marks a formula dirty only for a change in what it read
//! (`Paths::reads`).
//!
//! The record is one word: each area read sets the bit [`bit`] gives it
//! (a hash of the area), a shared subformula the bits of every area it
//! reads. Two areas may share a bit: a formula is then taken to have read
//! an area it did not, and is calculated again for nothing, never the
//! reverse. A formula that reads what its bits cannot tell (a constant
//! list of areas) or a kernel's plain `f64` form, which reads every cell
//! it holds, sets every bit (`Touches::everything`).

use crate::address::Area;

/// The areas one evaluation read, as a set of [`bit`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Touches(pub u64);

impl Touches {
    /// Every area read.
    pub const ALL: Touches = Touches(u64::MAX);

    /// Notes a reference read.
    #[inline(always)]
    pub(crate) fn area(&mut self, a: &Area) {
        self.0 |= bit(a);
    }

    /// Notes the areas of `bits` read (a shared subformula's).
    #[inline(always)]
    pub(crate) fn bits(&mut self, bits: u64) {
        self.0 |= bits;
    }

    /// Notes that everything may have been read.
    #[inline(always)]
    pub(crate) fn everything(&mut self) {
        *self = Touches::ALL;
    }
}

/// The bit standing for area `a`: one of 64, from a fixed hash of its
/// sheet and corners (the same in every run).
#[inline(always)]
pub fn bit(a: &Area) -> u64 {
    let corners = u64::from(a.r0) ^ u64::from(a.c0).rotate_left(20) ^ u64::from(a.r1).rotate_left(36);
    let h = (corners ^ u64::from(a.c1).rotate_left(50) ^ u64::from(a.sheet).rotate_left(14))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    1 << (h >> 58)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The areas of one row of the Ellis board and of its columns spread
    /// over the bits: no bit takes more than a few of 81 areas.
    #[test]
    fn nearby_areas_spread_over_the_bits() {
        let mut counts = [0u32; 64];
        for r in 0..9 {
            for c in 0..9 {
                counts[bit(&Area::new(0, 15 + r, 3 + c, 15 + r, 3 + c)).trailing_zeros() as usize] += 1;
            }
        }
        assert!(counts.iter().all(|&n| n <= 5), "{counts:?}");
        assert!(counts.iter().filter(|&&n| n > 0).count() >= 40, "{counts:?}");
    }
}
