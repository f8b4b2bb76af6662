//! Rounding on Excel's terms: ROUND, ROUNDUP, ROUNDDOWN and TRUNC decide on
//! the number's 15 significant decimal digits ([`round_to`]), so that
//! ROUND(2.675, 2) is 2.68 although the double is slightly below 2.675; and
//! CEILING, FLOOR, EVEN and ODD go to a multiple of a step with the quotient
//! and the result read to 15 digits ([`to_multiple`]), so that
//! CEILING(1.1, 0.1) is 1.1, not 1.2. MROUND rounds to the nearest
//! multiple, half away from zero; CEILING.MATH, CEILING.PRECISE,
//! ISO.CEILING, FLOOR.MATH and FLOOR.PRECISE ignore the step's sign (a
//! zero step gives 0) and, for negative numbers, go toward or away from
//! zero as their `mode` or their name says ([`precise`]).

use crate::value::{ErrorKind, Value};

/// Which way [`round_to`] goes with the dropped digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Half away from zero (ROUND).
    HalfUp,
    /// Away from zero when any dropped digit is not 0 (ROUNDUP).
    Up,
    /// Toward zero (ROUNDDOWN, TRUNC).
    Down,
}

/// `x` at `digits` decimals (truncated to an integer; negative rounds left
/// of the point), the dropped digits handled by `mode`, decided on the
/// number's 15 significant decimal digits as Excel does.
pub fn round_to(x: f64, digits: f64, mode: Mode) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let digits = digits.trunc().clamp(-400.0, 400.0) as i32;
    if let Some(r) = round_small(x, digits, mode) {
        return r;
    }
    round_digits(x, digits, mode)
}

/// [`round_to`] without text where the answer is plain: an integer below
/// 10^15 kept at 0 or more decimals is itself, and a number below 10^5 at
/// 0 decimals whose fraction is not within 10^-9 of 0, 1 (or ½ for
/// `HalfUp`) rounds as its 15 digits do (they differ from it by less than
/// 10^-10). `round_digits` gives the same, bit for bit (tested).
fn round_small(x: f64, digits: i32, mode: Mode) -> Option<f64> {
    let a = x.abs();
    if digits >= 0 && a < 1e15 && a.fract() == 0.0 {
        return Some(x);
    }
    const NEAR: f64 = 1e-9;
    let frac = a.fract();
    if digits != 0 || a >= 1e5 || !(NEAR..=1.0 - NEAR).contains(&frac) {
        return None;
    }
    let r = match mode {
        Mode::Up => a.floor() + 1.0,
        Mode::Down => a.floor(),
        Mode::HalfUp if (frac - 0.5).abs() > NEAR => a.round(),
        Mode::HalfUp => return None,
    };
    Some(if r == 0.0 { 0.0 } else { r.copysign(x) })
}

/// [`round_to`] through the number's 15 significant decimal digits.
fn round_digits(x: f64, digits: i32, mode: Mode) -> f64 {
    let s = format!("{:.14e}", x.abs());
    let Some((mantissa, exp)) = s.split_once('e') else { return x };
    let Ok(exp) = exp.parse::<i32>() else { return x };
    let sig: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    // The number is 0.d1d2...d15 x 10^(exp+1); keep `keep` digits (when
    // `keep` < 0, the number is below the rounding unit 10^-digits).
    let keep = exp + 1 + digits;
    if keep >= sig.len() as i32 {
        return x;
    }
    let kept = keep.max(0) as usize;
    let dropped = &sig[kept..];
    let up = match mode {
        Mode::HalfUp => keep >= 0 && dropped[0] >= b'5',
        Mode::Up => dropped.iter().any(|&d| d != b'0'),
        Mode::Down => false,
    };
    let n = sig[..kept].iter().fold(0u64, |n, d| n * 10 + (d - b'0') as u64) + up as u64;
    if n == 0 {
        return 0.0;
    }
    let r: f64 = format!("{n}e{}", -digits).parse().unwrap_or(f64::INFINITY);
    r.copysign(x)
}

/// `x` read to 15 significant digits, as Excel shows it.
pub(crate) fn snap(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    format!("{x:.14e}").parse().unwrap_or(x)
}

/// `x` taken to a multiple of `step` by `dir` (`f64::ceil` or `f64::floor`)
/// applied to the quotient: CEILING and FLOOR. A positive number with a
/// negative step is #NUM!; a zero step gives 0 for 0 and `by_zero` otherwise.
pub fn to_multiple(x: f64, step: f64, dir: fn(f64) -> f64, by_zero: Value) -> Value {
    if x > 0.0 && step < 0.0 {
        return Value::Error(ErrorKind::Num);
    }
    if step == 0.0 {
        return if x == 0.0 { Value::Number(0.0) } else { by_zero };
    }
    Value::num(snap(dir(snap(x / step)) * step))
}

/// MROUND(x, multiple): the nearest multiple, halves away from zero; a
/// number and a multiple of opposite signs are #NUM!, a zero multiple 0.
pub fn mround(x: f64, m: f64) -> Value {
    if (x > 0.0 && m < 0.0) || (x < 0.0 && m > 0.0) {
        return Value::Error(ErrorKind::Num);
    }
    if m == 0.0 {
        return Value::Number(0.0);
    }
    Value::num(snap(round_to(snap(x / m), 0.0, Mode::HalfUp) * m))
}

/// Which way a number goes to a multiple of the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// Toward +∞ (CEILING.PRECISE, ISO.CEILING; CEILING.MATH's mode 0).
    Up,
    /// Toward −∞ (FLOOR.PRECISE; FLOOR.MATH's mode 0).
    Down,
}

/// `x` to a multiple of |`step`| in `way`; a negative `x` goes the other
/// way when `flip` (CEILING.MATH's and FLOOR.MATH's nonzero mode: away
/// from zero, toward zero). A zero step gives 0.
pub fn precise(x: f64, step: f64, way: Way, flip: bool) -> Value {
    let up = (way == Way::Up) != (flip && x < 0.0);
    to_multiple(x, step.abs(), if up { f64::ceil } else { f64::floor }, Value::Number(0.0))
}

/// EVEN: away from zero to an even integer.
pub fn even(x: f64) -> Value {
    away_from_zero(x, 0.0)
}

/// ODD: away from zero to an odd integer; ODD(0) is 1.
pub fn odd(x: f64) -> Value {
    away_from_zero(x, 1.0)
}

/// |x| up to the next number `offset` above a multiple of 2, with x's sign
/// (positive for 0).
fn away_from_zero(x: f64, offset: f64) -> Value {
    let r = snap((snap((x.abs() + offset) / 2.0)).ceil() * 2.0) - offset;
    Value::num(if x < 0.0 { -r } else { r })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_half_up() {
        let round = |x, d| round_to(x, d, Mode::HalfUp);
        assert_eq!(round(2.5, 0.0), 3.0);
        assert_eq!(round(-2.5, 0.0), -3.0);
        assert_eq!(round(2.675, 2.0), 2.68);
        assert_eq!(round(1.005, 2.0), 1.01);
        assert_eq!(round(1234.5678, -2.0), 1200.0);
        assert_eq!(round(5.0, -1.0), 10.0);
        assert_eq!(round(4.9, -1.0), 0.0);
        assert_eq!(round(0.4, -3.0), 0.0);
        assert_eq!(round(1.23449, 3.9), 1.234);
        assert_eq!(round(0.000123456, 5.0), 0.00012);
        assert_eq!(round(1e300, -299.0), 1e300);
        assert_eq!(round(123.0, 400.0), 123.0);
        assert_eq!(round(-0.05, 1.0), -0.1);
        assert_eq!(round(999.5, 0.0), 1000.0);
    }

    #[test]
    fn rounding_up_and_down() {
        assert_eq!(round_to(3.2, 0.0, Mode::Up), 4.0);
        assert_eq!(round_to(-3.12, 1.0, Mode::Up), -3.2);
        assert_eq!(round_to(31415.92654, -2.0, Mode::Up), 31500.0);
        assert_eq!(round_to(0.4, -3.0, Mode::Up), 1000.0);
        assert_eq!(round_to(1e-20, 0.0, Mode::Up), 1.0);
        assert_eq!(round_to(3.7, 0.0, Mode::Down), 3.0);
        assert_eq!(round_to(-3.7, 0.0, Mode::Down), -3.0);
        assert_eq!(round_to(0.4, -3.0, Mode::Down), 0.0);
        // 0.1+0.2 is 0.30000000000000004: its 15 digits are 0.3
        assert_eq!(round_to(0.1 + 0.2, 1.0, Mode::Up), 0.3);
        // 0.3-0.1 is 0.19999999999999998: its 15 digits are 0.2
        assert_eq!(round_to(0.3 - 0.1, 1.0, Mode::Down), 0.2);
        assert_eq!(round_to(2.0, -400.0, Mode::Up), f64::INFINITY);
    }

    #[test]
    fn the_quick_rounding_is_the_rounding_by_digits() {
        let mut xs = vec![1e-20, 0.3 - 0.1, 0.1 + 0.2, 2.675, 99_999.5, 1e15 - 1.0, 3.0000000000000004, 0.5];
        for n in 1..=400 {
            for d in [1.0, 3.0, 5.0, 7.0, 9.0, 16.0, 25.0, 0.1, 1e-9] {
                xs.push(f64::from(n) / d);
                xs.push(f64::from(n) * d);
            }
        }
        xs.extend([2.0f64.sqrt() * 1e4, 1.0 - 1e-10, 7.0 + 1e-9, 4.5 + 2e-9]);
        for x in xs.iter().flat_map(|&x| [x, -x]) {
            for mode in [Mode::HalfUp, Mode::Up, Mode::Down] {
                for digits in [0, 1, 2, -1] {
                    if let Some(r) = round_small(x, digits, mode) {
                        let slow = round_digits(x, digits, mode);
                        assert_eq!(r.to_bits(), slow.to_bits(), "{x} {digits} {mode:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn nearest_and_precise_multiples() {
        assert_eq!(mround(10.0, 3.0), Value::Number(9.0));
        assert_eq!(mround(-10.0, -3.0), Value::Number(-9.0));
        assert_eq!(mround(1.3, 0.2), Value::Number(1.4));
        assert_eq!(mround(5.0, -2.0), Value::Error(ErrorKind::Num));
        assert_eq!(precise(-4.3, -2.0, Way::Up, false), Value::Number(-4.0));
        assert_eq!(precise(-5.5, 2.0, Way::Up, true), Value::Number(-6.0));
        assert_eq!(precise(-5.5, 2.0, Way::Down, true), Value::Number(-4.0));
        assert_eq!(precise(-3.2, -1.0, Way::Down, false), Value::Number(-4.0));
        assert_eq!(precise(3.2, 0.0, Way::Down, false), Value::Number(0.0));
    }

    #[test]
    fn multiples() {
        let ceiling = |x, s| to_multiple(x, s, f64::ceil, Value::Number(0.0));
        let floor = |x, s| to_multiple(x, s, f64::floor, Value::Error(ErrorKind::Div0));
        assert_eq!(ceiling(2.5, 1.0), Value::Number(3.0));
        assert_eq!(ceiling(-2.5, 2.0), Value::Number(-2.0));
        assert_eq!(ceiling(-2.5, -2.0), Value::Number(-4.0));
        assert_eq!(ceiling(2.5, -2.0), Value::Error(ErrorKind::Num));
        assert_eq!(ceiling(1.1, 0.1), Value::Number(1.1));
        assert_eq!(ceiling(5.0, 0.0), Value::Number(0.0));
        assert_eq!(floor(-2.5, 2.0), Value::Number(-4.0));
        assert_eq!(floor(-2.5, -2.0), Value::Number(-2.0));
        assert_eq!(floor(0.3, 0.1), Value::Number(0.3));
        assert_eq!(floor(5.0, 0.0), Value::Error(ErrorKind::Div0));
        assert_eq!(floor(0.0, 0.0), Value::Number(0.0));
        assert_eq!(even(1.5), Value::Number(2.0));
        assert_eq!(even(-1.0), Value::Number(-2.0));
        assert_eq!(even(0.0), Value::Number(0.0));
        assert_eq!(odd(0.0), Value::Number(1.0));
        assert_eq!(odd(2.0), Value::Number(3.0));
        assert_eq!(odd(-1.5), Value::Number(-3.0));
    }
}
