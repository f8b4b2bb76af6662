//! Block summaries of a sheet's columns, so SUM, COUNT and AVERAGE over a
//! tall range add whole blocks instead of reading every cell
//! (`functions::reduce`). Each column is cut into blocks of [`BLOCK`] rows;
//! a block's [`Summary`] says how many numbers it holds, how many of them
//! are not safe integers, how many errors, and the exact sum and sum of
//! magnitudes of its safe integers. Summaries are kept exact on every
//! write ([`Summary::replace`]: integers subtract exactly), never computed
//! lazily, so a read needs nothing mutable.

use crate::value::Value;

/// Rows per block.
pub const BLOCK: u32 = 64;

/// Largest magnitude up to which every integer is an `f64`: sums of
/// integers whose partial sums stay within it are exact in any order.
pub const SAFE: u64 = 1 << 53;

/// What one block of one column holds, for the aggregates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Numbers in the block.
    pub numbers: u8,
    /// Numbers that are not safe integers (a fraction, or past [`SAFE`]).
    pub inexact: u8,
    /// Error values.
    pub errors: u8,
    /// The sum of the safe integers (at most 64 × 2^53 in magnitude).
    pub sum: i64,
    /// The sum of their magnitudes.
    pub magnitude: u64,
}

/// `n` as an integer when it is a safe integer (`-0.0` is 0).
pub fn safe_integer(n: f64) -> Option<i64> {
    // `as` truncates; a whole number comes back unchanged (no call to `trunc`).
    let i = n as i64;
    (n.abs() <= SAFE as f64 && i as f64 == n).then_some(i)
}

impl Summary {
    /// Accounts for a cell changing from `old` to `new`.
    pub fn replace(&mut self, old: &Value, new: &Value) {
        // A number replacing a number (the common write of an iteration)
        // leaves the counts as they were unless it crosses between safe
        // integers and the others.
        if let (Value::Number(a), Value::Number(b)) = (old, new) {
            match (safe_integer(*a), safe_integer(*b)) {
                (None, None) => return,
                (Some(i), Some(j)) => {
                    (self.sum, self.magnitude) = (self.sum - i, self.magnitude - i.unsigned_abs());
                    (self.sum, self.magnitude) = (self.sum + j, self.magnitude + j.unsigned_abs());
                    return;
                }
                _ => {}
            }
        }
        self.apply(old, false);
        self.apply(new, true);
    }

    fn apply(&mut self, v: &Value, add: bool) {
        let step = |count: &mut u8| *count = if add { *count + 1 } else { *count - 1 };
        match v {
            Value::Number(n) => {
                step(&mut self.numbers);
                match safe_integer(*n) {
                    Some(i) if add => (self.sum, self.magnitude) = (self.sum + i, self.magnitude + i.unsigned_abs()),
                    Some(i) => (self.sum, self.magnitude) = (self.sum - i, self.magnitude - i.unsigned_abs()),
                    None => step(&mut self.inexact),
                }
            }
            Value::Error(_) => step(&mut self.errors),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::ErrorKind;

    #[test]
    fn replacing_keeps_the_summary_exact() {
        let values = [Value::Number(3.0), Value::Number(-2.0), Value::Number(0.5), Value::text("7")];
        let mut s = Summary::default();
        values.iter().for_each(|v| s.replace(&Value::Empty, v));
        assert_eq!((s.numbers, s.inexact, s.errors, s.sum, s.magnitude), (3, 1, 0, 1, 5));
        s.replace(&Value::Number(0.5), &Value::Error(ErrorKind::NA));
        s.replace(&Value::Number(-2.0), &Value::Number(2f64.powi(53)));
        assert_eq!((s.numbers, s.inexact, s.errors, s.sum, s.magnitude), (2, 0, 1, 3 + (1 << 53), 3 + (1 << 53)));
        s.replace(&Value::Number(3.0), &Value::Number(2f64.powi(53) + 2.0));
        assert_eq!((s.numbers, s.inexact, s.sum), (2, 1, 1 << 53));
        assert_eq!(safe_integer(-0.0), Some(0));
        assert_eq!((safe_integer(f64::INFINITY), safe_integer(f64::NAN), safe_integer(1e300)), (None, None, None));
    }

    /// A number replacing a number (the shortcut) leaves the summary as
    /// taking the old one out and putting the new one in does.
    #[test]
    fn numbers_replacing_numbers_match_out_then_in() {
        let big = 2f64.powi(53);
        let numbers = [0.0, -0.0, 3.0, -2.0, 0.5, 1e300, big, -big, big + 2.0, -7.25];
        for a in numbers {
            for b in numbers {
                let mut s = Summary::default();
                numbers.iter().for_each(|n| s.replace(&Value::Empty, &Value::Number(*n)));
                let mut slow = s;
                slow.apply(&Value::Number(a), false);
                slow.apply(&Value::Number(b), true);
                s.replace(&Value::Number(a), &Value::Number(b));
                assert_eq!(s, slow, "{a} -> {b}");
            }
        }
    }
}
