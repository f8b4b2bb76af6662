//! The special functions the distributions are built on: the gamma
//! function and its logarithm, the error functions, the regularized
//! incomplete gamma and beta functions, and a root finder for the
//! inverses. The gamma function and erfc⁻¹ come from `statrs` (Lanczos'
//! approximation after Pugh 2004; Boost's rational approximation of
//! erfc⁻¹); erf and erfc are W. J. Cody's rational approximations, written
//! here (about an ulp); the incomplete gamma function is `statrs`' too
//! (Cephes' series and continued fraction). The regularized incomplete beta function is
//! written here: `statrs` stops its continued fraction after 140 terms,
//! which is too few once a parameter passes a few thousand (a t
//! distribution with 10⁶ degrees of freedom); this one is the same
//! continued fraction (Numerical Recipes, 3rd ed., §6.4, evaluated by
//! Lentz's method) run to convergence, taking `1 - x` from its caller so
//! that no digits are lost forming it.
//!
//! Every loop is bounded twice: by its own count of terms, and by a work
//! budget per function call ([`Budget`]), so an array of a million
//! arguments with huge parameters is #NUM! after [`MAX_WORK`] terms
//! rather than hours of work. A result that cannot be had is NaN, which
//! the caller turns into #NUM!.

use crate::value::MAX_WORK;
use statrs::function::{erf, gamma};
use std::cell::Cell;

thread_local! {
    /// Terms summed by the loops below on this thread, ever.
    static WORK: Cell<u64> = const { Cell::new(0) };
    /// The count [`WORK`] may reach in the current call ([`Budget`]).
    static LIMIT: Cell<u64> = const { Cell::new(u64::MAX) };
}

/// The work budget of one function call: while it lives, the loops of
/// this module may sum [`MAX_WORK`] terms in all, then give NaN. Calls
/// nest (the previous limit comes back when it is dropped).
pub struct Budget {
    saved: u64,
}

impl Budget {
    pub fn start() -> Budget {
        Budget::of(MAX_WORK)
    }

    /// A budget of `terms` terms.
    fn of(terms: u64) -> Budget {
        let limit = WORK.get().saturating_add(terms);
        Budget { saved: LIMIT.replace(limit) }
    }
}

impl Drop for Budget {
    fn drop(&mut self) {
        LIMIT.set(self.saved);
    }
}

/// Charges `terms` to the current call; false once its budget is spent.
pub fn spend(terms: u64) -> bool {
    let w = WORK.get().saturating_add(terms);
    WORK.set(w);
    w <= LIMIT.get()
}

/// The largest shape parameter the incomplete gamma function takes: past
/// it Cephes' series would add 1 to a number that no longer changes.
const MAX_SHAPE: f64 = 1e10;

/// ln Γ(x) for x > 0 (NaN otherwise); exact at 1 and 2.
pub fn ln_gamma(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x.is_infinite() {
        return f64::NAN;
    }
    if x == 1.0 || x == 2.0 {
        return 0.0;
    }
    gamma::ln_gamma(x)
}

/// Γ(x): exact factorials at the integers 1 to 171; NaN at 0 and the
/// negative integers, where it has poles.
pub fn gamma(x: f64) -> f64 {
    if !x.is_finite() || (x <= 0.0 && x == x.floor()) {
        return f64::NAN;
    }
    if x == x.floor() && x <= 171.0 {
        return (2..x as u32).fold(1.0, |p, k| p * f64::from(k));
    }
    if x > 171.0 {
        // Up to 171.62 Γ is still a double: e^(ln Γ / 2), squared.
        let half = (ln_gamma(x) / 2.0).exp();
        return half * half;
    }
    gamma::gamma(x)
}

/// erf(x), from W. J. Cody's rational approximations (ACM TOMS Algorithm
/// 715, `CALERF`), to about an ulp.
pub fn erf(x: f64) -> f64 {
    let y = x.abs();
    if y <= THRESH {
        return small_erf(x);
    }
    let r = (0.5 - scaled_erfc(y)) + 0.5;
    if x < 0.0 { -r } else { r }
}

/// erfc(x) = 1 − erf(x), without the cancellation (Cody, as [`erf`]).
pub fn erfc(x: f64) -> f64 {
    let y = x.abs();
    if y <= THRESH {
        return 1.0 - small_erf(x);
    }
    let r = scaled_erfc(y);
    if x < 0.0 { 2.0 - r } else { r }
}

/// Where Cody's first approximation ends.
const THRESH: f64 = 0.46875;

/// erf(x) for |x| ≤ 0.46875.
// Cody's coefficients as published, digits past a double's included.
#[allow(clippy::excessive_precision)]
fn small_erf(x: f64) -> f64 {
    const A: [f64; 5] = [
        3.16112374387056560e00,
        1.13864154151050156e02,
        3.77485237685302021e02,
        3.20937758913846947e03,
        1.85777706184603153e-1,
    ];
    const B: [f64; 4] =
        [2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03, 2.84423683343917062e03];
    let ysq = if x.abs() > 1.11e-16 { x * x } else { 0.0 };
    let (mut num, mut den) = (A[4] * ysq, ysq);
    for i in 0..3 {
        num = (num + A[i]) * ysq;
        den = (den + B[i]) * ysq;
    }
    x * (num + A[3]) / (den + B[3])
}

/// erfc(y) for y > 0.46875.
#[allow(clippy::excessive_precision)]
fn scaled_erfc(y: f64) -> f64 {
    const C: [f64; 9] = [
        5.64188496988670089e-1,
        8.88314979438837594e00,
        6.61191906371416295e01,
        2.98635138197400131e02,
        8.81952221241769090e02,
        1.71204761263407058e03,
        2.05107837782607147e03,
        1.23033935479799725e03,
        2.15311535474403846e-8,
    ];
    const D: [f64; 8] = [
        1.57449261107098347e01,
        1.17693950891312499e02,
        5.37181101862009858e02,
        1.62138957456669019e03,
        3.29079923573345963e03,
        4.36261909014324716e03,
        3.43936767414372164e03,
        1.23033935480374942e03,
    ];
    const P: [f64; 6] = [
        3.05326634961232344e-1,
        3.60344899949804439e-1,
        1.25781726111229246e-1,
        1.60837851487422766e-2,
        6.58749161529837803e-4,
        1.63153871373020978e-2,
    ];
    const Q: [f64; 5] = [
        2.56852019228982242e00,
        1.87295284992346725e00,
        5.27905102951428412e-1,
        6.05183413124413191e-2,
        2.33520497626869185e-3,
    ];
    const FRAC_1_SQRT_PI: f64 = 5.6418958354775628695e-1;
    let r = if y <= 4.0 {
        let (mut num, mut den) = (C[8] * y, y);
        for i in 0..7 {
            num = (num + C[i]) * y;
            den = (den + D[i]) * y;
        }
        (num + C[7]) / (den + D[7])
    } else if y >= 26.6 {
        return 0.0;
    } else {
        let ysq = 1.0 / (y * y);
        let (mut num, mut den) = (P[5] * ysq, ysq);
        for i in 0..4 {
            num = (num + P[i]) * ysq;
            den = (den + Q[i]) * ysq;
        }
        (FRAC_1_SQRT_PI - ysq * (num + P[4]) / (den + Q[4])) / y
    };
    // e^(−y²) in two factors, so that no digits of y² are lost.
    let ysq = (y * 16.0).trunc() / 16.0;
    let del = (y - ysq) * (y + ysq);
    (-ysq * ysq).exp() * (-del).exp() * r
}

/// The standard normal distribution function Φ(z).
pub fn norm_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// The standard normal density φ(z).
pub fn norm_pdf(z: f64) -> f64 {
    (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// Φ⁻¹(p) for 0 < p < 1 (infinite at 0 and 1).
pub fn norm_inv(p: f64) -> f64 {
    -std::f64::consts::SQRT_2 * erf::erfc_inv(2.0 * p)
}

/// The regularized lower incomplete gamma function P(a, x), a > 0, x ≥ 0.
pub fn gamma_p(a: f64, x: f64) -> f64 {
    incomplete_gamma(a, x, false)
}

/// Its complement Q(a, x) = 1 − P(a, x), without the cancellation.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    incomplete_gamma(a, x, true)
}

fn incomplete_gamma(a: f64, x: f64, upper: bool) -> f64 {
    if a.is_nan() || a <= 0.0 || a > MAX_SHAPE || x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    let (lower, complement) = if x == 0.0 {
        (0.0, 1.0)
    } else if x.is_infinite() {
        (1.0, 0.0)
    } else {
        // Both of Cephes' loops take on the order of √a terms at worst.
        if !spend(16 + 8 * a.sqrt() as u64) {
            return f64::NAN;
        }
        let r = if upper { gamma::checked_gamma_ur(a, x) } else { gamma::checked_gamma_lr(a, x) };
        let r = r.unwrap_or(f64::NAN);
        if upper { (1.0 - r, r) } else { (r, 1.0 - r) }
    };
    if upper { complement } else { lower }
}

/// The most terms of the beta continued fraction: it needs on the order
/// of √max(a, b) of them.
const MAX_TERMS: u32 = 1_000_000;

/// The regularized incomplete beta function I_x(a, b), given `y` = 1 − x
/// as the caller knows it exactly; a, b > 0 and 0 ≤ x ≤ 1.
pub fn beta_reg(a: f64, b: f64, x: f64, y: f64) -> f64 {
    let positive = |v: f64| v > 0.0 && v.is_finite();
    if !positive(a) || !positive(b) || !(0.0..=1.0).contains(&x) {
        return f64::NAN;
    }
    if x == 0.0 {
        return 0.0;
    }
    if y == 0.0 {
        return 1.0;
    }
    // The fraction converges fast below the mean; above it, I_x(a, b) is
    // 1 − I_y(b, a).
    if x > (a + 1.0) / (a + b + 2.0) {
        return 1.0 - beta_fraction(b, a, y, x);
    }
    beta_fraction(a, b, x, y)
}

/// I_x(a, b) from its continued fraction, for x below the mean.
fn beta_fraction(a: f64, b: f64, x: f64, y: f64) -> f64 {
    let ln_front = a * x.ln() + b * y.ln() - ln_beta(a, b);
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    d = 1.0 / if d.abs() < TINY { TINY } else { d };
    let mut h = d;
    let step = |aa: f64, c: &mut f64, d: &mut f64| {
        *d = 1.0 + aa * *d;
        *d = 1.0 / if d.abs() < TINY { TINY } else { *d };
        *c = 1.0 + aa / *c;
        if c.abs() < TINY {
            *c = TINY;
        }
        *d * *c
    };
    for n in 1..=MAX_TERMS {
        let m = f64::from(n);
        let m2 = 2.0 * m;
        h *= step(m * (b - m) * x / ((qam + m2) * (a + m2)), &mut c, &mut d);
        let del = step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), &mut c, &mut d);
        h *= del;
        if (del - 1.0).abs() <= 1e-16 {
            return if spend(u64::from(n % 4096)) { (ln_front.exp() * h / a).clamp(0.0, 1.0) } else { f64::NAN };
        }
        if n % 4096 == 0 && !spend(4096) {
            return f64::NAN;
        }
    }
    f64::NAN
}

/// ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b).
pub fn ln_beta(a: f64, b: f64) -> f64 {
    ln_gamma(a) + ln_gamma(b) - ln_gamma(a + b)
}

/// The x in [lo, hi] where the monotone `f` equals `target`, by Brent's
/// method (Brent 1973, "Algorithms for Minimization without Derivatives",
/// ch. 4) to full precision. When `hi` is infinite the bracket is found by
/// doubling from `lo.max(1)`. NaN when `f` does not cross `target`.
pub fn solve(f: impl Fn(f64) -> f64, target: f64, lo: f64, hi: f64) -> f64 {
    let g = |x: f64| f(x) - target;
    let (mut a, mut b) = (lo, hi);
    if hi.is_infinite() {
        let (fa, mut step) = (g(lo), lo.abs().max(1.0));
        b = lo + step;
        let mut tries = 0;
        while g(b).signum() == fa.signum() && fa != 0.0 {
            (a, step) = (b, step * 2.0);
            b = lo + step;
            tries += 1;
            if tries > 1100 || b.is_infinite() {
                return f64::NAN;
            }
        }
    }
    brent(g, a, b)
}

/// Brent's root finder on a bracket [a, b] where `g` changes sign.
fn brent(g: impl Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
    let (mut fa, mut fb) = (g(a), g(b));
    if fa == 0.0 {
        return a;
    }
    if fb == 0.0 {
        return b;
    }
    if fa.is_nan() || fb.is_nan() || fa.signum() == fb.signum() {
        return f64::NAN;
    }
    let (mut c, mut fc) = (a, fa);
    let (mut d, mut e) = (b - a, b - a);
    for _ in 0..300 {
        if fb.signum() == fc.signum() {
            (c, fc) = (a, fa);
            (d, e) = (b - a, b - a);
        }
        if fc.abs() < fb.abs() {
            (a, fa, b, fb, c, fc) = (b, fb, c, fc, b, fb);
        }
        let tol = 2.0 * f64::EPSILON * b.abs() + f64::MIN_POSITIVE;
        let m = 0.5 * (c - b);
        if m.abs() <= tol || fb == 0.0 {
            return b;
        }
        if e.abs() >= tol && fa.abs() > fb.abs() {
            let s = fb / fa;
            let (mut p, mut q) = if a == c {
                (2.0 * m * s, 1.0 - s)
            } else {
                let (q, r) = (fa / fc, fb / fc);
                (s * (2.0 * m * q * (q - r) - (b - a) * (r - 1.0)), (q - 1.0) * (r - 1.0) * (s - 1.0))
            };
            if p > 0.0 {
                q = -q;
            }
            p = p.abs();
            if 2.0 * p < (3.0 * m * q - (tol * q).abs()).min((e * q).abs()) {
                (e, d) = (d, p / q);
            } else {
                (d, e) = (m, m);
            }
        } else {
            (d, e) = (m, m);
        }
        (a, fa) = (b, fb);
        b += if d.abs() > tol { d } else { tol.copysign(m) };
        fb = g(b);
        if fb.is_nan() {
            return f64::NAN;
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs().max(f64::MIN_POSITIVE)
    }

    #[test]
    #[allow(clippy::excessive_precision)]
    fn against_reference_values() {
        // Reference values from mpmath at 30 digits.
        assert_eq!(gamma(5.0), 24.0);
        assert!(close(gamma(2.5), 1.32934038817913702047, 1e-14));
        assert!(close(ln_gamma(4.5), 2.45373657084244222050, 1e-14));
        assert!(close(gamma_p(4.5, 2.0), 0.0885874731683208286, 1e-13));
        assert!(close(gamma_q(3.0, 10.0), 0.00276939571551157594, 1e-13));
        assert!(close(beta_reg(2.0, 3.0, 0.4, 0.6), 0.5248, 1e-14));
        // A t distribution with a million degrees of freedom: I_x(5e5, 0.5).
        let x = 1e6 / (1e6 + 4.0);
        assert!(close(beta_reg(5e5, 0.5, x, 4.0 / (1e6 + 4.0)), 0.0455005338513192084, 1e-9));
        assert!(close(norm_inv(0.908789), 1.33333467304410750, 1e-14));
        assert!(close(norm_cdf(1.0), 0.841344746068542948585, 1e-14));
    }

    #[test]
    fn solves_monotone_equations() {
        let x = solve(|x| x * x, 2.0, 0.0, f64::INFINITY);
        assert!(close(x, std::f64::consts::SQRT_2, 1e-15));
        assert!(solve(|x| x, 5.0, 0.0, 1.0).is_nan());
    }

    #[test]
    fn the_budget_stops_long_work() {
        let budget = Budget::of(100_000);
        assert!(!beta_reg(1e8, 1e8, 0.5, 0.5).is_nan());
        let mut last = 0.0;
        for _ in 0..100 {
            last = beta_reg(1e8, 1e8, 0.5, 0.5);
        }
        assert!(last.is_nan(), "the budget ran out");
        drop(budget);
        assert!(!gamma_p(2.0, 1.0).is_nan(), "a new call has its own budget");
    }
}
