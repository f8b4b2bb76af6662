//! Bitwise functions of whole numbers from 0 to 2^48−1 (BITAND, BITOR,
//! BITXOR; BITLSHIFT and BITRSHIFT by at most 53 places, a negative shift
//! going the other way, a result past 2^48−1 #NUM!), and the comparisons
//! DELTA (1 when equal, else 0) and GESTEP (1 when at least the step).
//! A number below 0, above 2^48−1 or not whole is #NUM!; a shift is
//! truncated.

use crate::value::ErrorKind;

/// The largest number the bitwise functions take: 2^48−1.
const MAX: f64 = 281_474_976_710_655.0;

/// A whole number from 0 to 2^48−1, else #NUM!.
fn whole(x: f64) -> Result<u64, ErrorKind> {
    if (0.0..=MAX).contains(&x) && x.fract() == 0.0 { Ok(x as u64) } else { Err(ErrorKind::Num) }
}

/// Both arguments as whole numbers.
fn pair(v: &[f64]) -> Result<(u64, u64), ErrorKind> {
    match v {
        [a, b] => Ok((whole(*a)?, whole(*b)?)),
        _ => Err(ErrorKind::Value),
    }
}

/// BITAND(number1, number2).
pub fn bitand(v: &[f64]) -> Result<f64, ErrorKind> {
    pair(v).map(|(a, b)| (a & b) as f64)
}

/// BITOR(number1, number2).
pub fn bitor(v: &[f64]) -> Result<f64, ErrorKind> {
    pair(v).map(|(a, b)| (a | b) as f64)
}

/// BITXOR(number1, number2).
pub fn bitxor(v: &[f64]) -> Result<f64, ErrorKind> {
    pair(v).map(|(a, b)| (a ^ b) as f64)
}

/// BITLSHIFT(number, shift_amount).
pub fn bitlshift(v: &[f64]) -> Result<f64, ErrorKind> {
    match v {
        [n, s] => shift(*n, s.trunc()),
        _ => Err(ErrorKind::Value),
    }
}

/// BITRSHIFT(number, shift_amount): BITLSHIFT by −shift_amount.
pub fn bitrshift(v: &[f64]) -> Result<f64, ErrorKind> {
    match v {
        [n, s] => shift(*n, -s.trunc()),
        _ => Err(ErrorKind::Value),
    }
}

/// `n` shifted left by `by` places (right when negative), |by| ≤ 53.
fn shift(n: f64, by: f64) -> Result<f64, ErrorKind> {
    let n = whole(n)?;
    if by.abs() > 53.0 {
        return Err(ErrorKind::Num);
    }
    let by = by as i32;
    let r = if by >= 0 {
        // n < 2^48 and by ≤ 53: computed in 128 bits, it cannot overflow.
        (u128::from(n) << by) as f64
    } else {
        (n >> by.unsigned_abs()) as f64
    };
    if r > MAX { Err(ErrorKind::Num) } else { Ok(r) }
}

/// DELTA(number1, [number2]): 1 when they are equal, else 0.
pub fn delta(v: &[f64]) -> Result<f64, ErrorKind> {
    match v {
        [a, b] => Ok(if a == b { 1.0 } else { 0.0 }),
        _ => Err(ErrorKind::Value),
    }
}

/// GESTEP(number, [step]): 1 when number ≥ step, else 0.
pub fn gestep(v: &[f64]) -> Result<f64, ErrorKind> {
    match v {
        [a, b] => Ok(if a >= b { 1.0 } else { 0.0 }),
        _ => Err(ErrorKind::Value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_within_48_bits() {
        assert_eq!(bitlshift(&[4.0, 2.0]), Ok(16.0));
        assert_eq!(bitrshift(&[13.0, 2.0]), Ok(3.0));
        assert_eq!(bitlshift(&[13.0, -2.0]), Ok(3.0));
        assert_eq!(bitlshift(&[1.0, 48.0]), Err(ErrorKind::Num));
        assert_eq!(bitlshift(&[1.0, 47.0]), Ok(140_737_488_355_328.0));
        assert_eq!(bitlshift(&[0.0, 53.0]), Ok(0.0));
        assert_eq!(bitlshift(&[1.0, 54.0]), Err(ErrorKind::Num));
        assert_eq!(bitand(&[1.5, 1.0]), Err(ErrorKind::Num));
        assert_eq!(bitand(&[-1.0, 1.0]), Err(ErrorKind::Num));
    }
}
