//! Newton's method as RATE, IRR and XIRR use it: from a guess, each step
//! moves the estimate by −f/f′; the answer is the estimate after the first
//! step smaller than the tolerance. Microsoft documents the limits: RATE 20
//! steps to within 1e-7, IRR 20 to within 0.00001 percent (1e-7), XIRR 100
//! to within 0.000001 percent (1e-8). No other guess is tried: a method
//! that does not settle, or leaves the numbers (a zero slope, an overflow,
//! a rate at which the function is not defined), is #NUM!; so is a root at
//! or below −1, which is no rate (RATE(12,2800,-10000) has one at −1.84).

use crate::value::ErrorKind;

/// The rate above −1 where `f` is 0, from `guess`: `f` gives the value
/// and the slope at a rate; at most `limit` steps, done when a step is
/// below `tolerance`.
pub fn newton(guess: f64, limit: u32, tolerance: f64, f: impl Fn(f64) -> (f64, f64)) -> Result<f64, ErrorKind> {
    let mut x = guess;
    for _ in 0..limit {
        let (y, slope) = f(x);
        if y == 0.0 {
            return rate(x);
        }
        let next = x - y / slope;
        if !next.is_finite() {
            return Err(ErrorKind::Num);
        }
        if (next - x).abs() < tolerance {
            return rate(next);
        }
        x = next;
    }
    Err(ErrorKind::Num)
}

/// [`newton`] on a function whose slope is not at hand: the slope is
/// the central difference over a step of 1e-6. YIELD and ODDFYIELD solve
/// their price formulas this way.
pub fn newton_by_difference(guess: f64, limit: u32, tolerance: f64, f: impl Fn(f64) -> f64) -> Result<f64, ErrorKind> {
    const H: f64 = 1e-6;
    newton(guess, limit, tolerance, |x| (f(x), (f(x + H) - f(x - H)) / (2.0 * H)))
}

/// A root that is a rate: above −1.
fn rate(x: f64) -> Result<f64, ErrorKind> {
    if x > -1.0 { Ok(x) } else { Err(ErrorKind::Num) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converges_or_gives_num() {
        let root = newton(1.0, 20, 1e-12, |x| (x * x - 2.0, 2.0 * x));
        assert_eq!(newton(-1.0, 20, 1e-12, |x| (x * x - 2.0, 2.0 * x)), Err(ErrorKind::Num), "-1.41 is no rate");
        assert!(root.is_ok_and(|r| (r - std::f64::consts::SQRT_2).abs() < 1e-15), "{root:?}");
        assert_eq!(newton(1.0, 20, 1e-7, |x| (x * x + 1.0, 2.0 * x)), Err(ErrorKind::Num), "no real root");
        assert_eq!(newton(0.0, 20, 1e-7, |x| (x * x - 1.0, 2.0 * x)), Err(ErrorKind::Num), "zero slope");
        assert_eq!(newton(3.0, 2, 1e-12, |x| (x * x - 2.0, 2.0 * x)), Err(ErrorKind::Num), "too few steps");
    }
}
