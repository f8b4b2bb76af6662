//! The Bessel functions of integer order: BESSELJ (Jₙ), BESSELY (Yₙ),
//! BESSELI (Iₙ) and BESSELK (Kₙ), computed as Excel computes them, which
//! is not to full precision: Excel follows the routines of Numerical
//! Recipes (Press et al., 2nd ed., §6.5–6.6), built on the rational and
//! polynomial approximations of Hart's *Computer Approximations* and
//! Abramowitz & Stegun 9.4 and 9.8 (about 1e-8). That is what reproduces
//! Microsoft's documented results, which differ from the exact values
//! in the eighth digit (`BESSELJ(1.9,2)` is 0.329925829, exactly
//! 0.3299257277; `BESSELK(1.5,1)` 0.277387804, exactly 0.2773878005),
//! and a published table of Excel's J₀ to J₅ near 8 to fourteen digits,
//! including a slip in Excel's J₁ for |x| ≥ 8 (see
//! docs/compatibility.md).
//!
//! J₀, J₁, Y₀, Y₁ are the rational approximations below 8 and the
//! asymptotic forms from 8 on; I₀, I₁, K₀, K₁ the polynomials. Higher
//! orders: Jₙ by upward recurrence when |x| > n, else Miller's downward
//! recurrence normalized by J₀ + 2ΣJ₂ₖ = 1; Iₙ by Miller's recurrence
//! scaled to I₀; Yₙ and Kₙ by upward recurrence. A recurrence charges
//! its steps to the call's work budget ([`spend`]); past it, or when a
//! result overflows, the result is NaN (#NUM!).

use super::super::distributions::special::{ln_gamma, spend};
use crate::value::ErrorKind;

/// 2/π as Numerical Recipes writes it (to nine digits: Excel's results
/// follow from these digits).
#[allow(clippy::approx_constant)]
const TWO_PI: f64 = 0.636619772;
/// Miller's recurrences rescale by this once a value passes its inverse.
const BIG: f64 = 1.0e10;

/// Evaluates the polynomial with coefficients `c` (constant first) at `y`.
fn poly(c: &[f64], y: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &k| acc * y + k)
}

/// The order argument: truncated, negative #NUM!.
fn order(n: f64) -> Result<u64, ErrorKind> {
    let n = n.trunc();
    if n.is_nan() || n < 0.0 { Err(ErrorKind::Num) } else { Ok(n.min(u64::MAX as f64) as u64) }
}

/// Reads `[x, n]`, checks x with `x_ok`, applies `f`.
fn apply(v: &[f64], x_ok: fn(f64) -> bool, f: fn(f64, u64) -> f64) -> Result<f64, ErrorKind> {
    match v {
        [x, n] if x.is_finite() && x_ok(*x) => Ok(f(*x, order(*n)?)),
        [_, n] => order(*n).and(Err(ErrorKind::Num)),
        _ => Err(ErrorKind::Value),
    }
}

/// BESSELJ(x, n).
pub fn besselj(v: &[f64]) -> Result<f64, ErrorKind> {
    apply(v, |_| true, jn)
}

/// BESSELY(x, n): x ≤ 0 is #NUM!.
pub fn bessely(v: &[f64]) -> Result<f64, ErrorKind> {
    apply(v, |x| x > 0.0, yn)
}

/// BESSELI(x, n).
pub fn besseli(v: &[f64]) -> Result<f64, ErrorKind> {
    apply(v, |_| true, in_)
}

/// BESSELK(x, n): x ≤ 0 is #NUM!.
pub fn besselk(v: &[f64]) -> Result<f64, ErrorKind> {
    apply(v, |x| x > 0.0, kn)
}

/// The asymptotic form of J₀/Y₀ (`ph` −π/4) and J₁/Y₁ (−3π/4) for |x| ≥ 8:
/// (P cos − z Q sin, P sin + z Q cos) · √(2/(πx)), z = 8/x.
fn asymptotic(ax: f64, phase: f64, p: &[f64], q: &[f64]) -> (f64, f64) {
    let z = 8.0 / ax;
    let y = z * z;
    let (s, c) = (ax - phase).sin_cos();
    let (p, q) = (poly(p, y), poly(q, y));
    let r = (TWO_PI / ax).sqrt();
    (r * (c * p - z * s * q), r * (s * p + z * c * q))
}

const P0: [f64; 5] = [1.0, -0.1098628627e-2, 0.2734510407e-4, -0.2073370639e-5, 0.2093887211e-6];
const Q0: [f64; 5] = [-0.1562499995e-1, 0.1430488765e-3, -0.6911147651e-5, 0.7621095161e-6, -0.934935152e-7];
const P1: [f64; 5] = [1.0, 0.183105e-2, -0.3516396496e-4, 0.2457520174e-5, -0.240337019e-6];
/// P1 as Excel's J₁ evaluates it: its y³ term carries the y² coefficient
/// once more (found from Excel's values at 8, matched to 1e-15).
const P1_EXCEL_J: [f64; 5] = [1.0, 0.183105e-2, -0.3516396496e-4, 0.2457520174e-5 - 0.3516396496e-4, -0.240337019e-6];
const Q1: [f64; 5] = [0.04687499995, -0.2002690873e-3, 0.8449199096e-5, -0.88228987e-6, 0.105787412e-6];
/// π/4 and 3π/4 as the book writes them.
#[allow(clippy::approx_constant)]
const PH0: f64 = 0.785398164;
#[allow(clippy::approx_constant)]
const PH1: f64 = 2.356194491;

/// J₀(x).
fn j0(x: f64) -> f64 {
    let ax = x.abs();
    if ax < 8.0 {
        let y = x * x;
        poly(&[57568490574.0, -13362590354.0, 651619640.7, -11214424.18, 77392.33017, -184.9052456], y)
            / poly(&[57568490411.0, 1029532985.0, 9494680.718, 59272.64853, 267.8532712, 1.0], y)
    } else {
        asymptotic(ax, PH0, &P0, &Q0).0
    }
}

/// J₁(x).
fn j1(x: f64) -> f64 {
    let ax = x.abs();
    if ax < 8.0 {
        let y = x * x;
        x * poly(&[72362614232.0, -7895059235.0, 242396853.1, -2972611.439, 15704.48260, -30.16036606], y)
            / poly(&[144725228442.0, 2300535178.0, 18583304.74, 99447.43394, 376.9991397, 1.0], y)
    } else {
        let r = asymptotic(ax, PH1, &P1_EXCEL_J, &Q1).0;
        if x < 0.0 { -r } else { r }
    }
}

/// Y₀(x), x > 0.
fn y0(x: f64) -> f64 {
    if x < 8.0 {
        let y = x * x;
        poly(&[-2957821389.0, 7062834065.0, -512359803.6, 10879881.29, -86327.92757, 228.4622733], y)
            / poly(&[40076544269.0, 745249964.8, 7189466.438, 47447.26470, 226.1030244, 1.0], y)
            + TWO_PI * j0(x) * x.ln()
    } else {
        asymptotic(x, PH0, &P0, &[Q0[0], Q0[1], Q0[2], Q0[3], -0.934945152e-7]).1
    }
}

/// Y₁(x), x > 0.
fn y1(x: f64) -> f64 {
    if x < 8.0 {
        let y = x * x;
        let num =
            [-0.4900604943e13, 0.1275274390e13, -0.5153438139e11, 0.7349264551e9, -0.4237922726e7, 0.8511937935e4];
        let den =
            [0.2499580570e14, 0.4244419664e12, 0.3733650367e10, 0.2245904002e8, 0.1020426050e6, 0.3549632885e3, 1.0];
        x * poly(&num, y) / poly(&den, y) + TWO_PI * (j1(x) * x.ln() - 1.0 / x)
    } else {
        asymptotic(x, PH1, &P1, &Q1).1
    }
}

/// The large-argument polynomial of I₀ and I₁ (A&S 9.8.2, 9.8.4) in 3.75/|x|.
fn i_large(ax: f64, c: &[f64]) -> f64 {
    (ax.exp() / ax.sqrt()) * poly(c, 3.75 / ax)
}

/// I₀(x) (A&S 9.8.1–9.8.2).
fn i0(x: f64) -> f64 {
    let ax = x.abs();
    if ax < 3.75 {
        poly(&[1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2], (x / 3.75).powi(2))
    } else {
        let c = [
            0.39894228,
            0.1328592e-1,
            0.225319e-2,
            -0.157565e-2,
            0.916281e-2,
            -0.2057706e-1,
            0.2635537e-1,
            -0.1647633e-1,
            0.392377e-2,
        ];
        i_large(ax, &c)
    }
}

/// I₁(x) (A&S 9.8.3–9.8.4).
fn i1(x: f64) -> f64 {
    let ax = x.abs();
    let r = if ax < 3.75 {
        ax * poly(&[0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3], (x / 3.75).powi(2))
    } else {
        let c = [
            0.39894228,
            -0.3988024e-1,
            -0.362018e-2,
            0.163801e-2,
            -0.1031555e-1,
            0.2282967e-1,
            -0.2895312e-1,
            0.1787654e-1,
            -0.420059e-2,
        ];
        i_large(ax, &c)
    };
    if x < 0.0 { -r } else { r }
}

/// K₀(x), x > 0 (A&S 9.8.5–9.8.6).
fn k0(x: f64) -> f64 {
    if x <= 2.0 {
        let c = [-0.57721566, 0.42278420, 0.23069756, 0.3488590e-1, 0.262698e-2, 0.10750e-3, 0.74e-5];
        -(x / 2.0).ln() * i0(x) + poly(&c, x * x / 4.0)
    } else {
        let c = [1.25331414, -0.7832358e-1, 0.2189568e-1, -0.1062446e-1, 0.587872e-2, -0.251540e-2, 0.53208e-3];
        (-x).exp() / x.sqrt() * poly(&c, 2.0 / x)
    }
}

/// K₁(x), x > 0 (A&S 9.8.7–9.8.8).
fn k1(x: f64) -> f64 {
    if x <= 2.0 {
        let c = [1.0, 0.15443144, -0.67278579, -0.18156897, -0.1919402e-1, -0.110404e-2, -0.4686e-4];
        (x / 2.0).ln() * i1(x) + poly(&c, x * x / 4.0) / x
    } else {
        let c = [1.25331414, 0.23498619, -0.3655620e-1, 0.1504268e-1, -0.780353e-2, 0.325614e-2, -0.68245e-3];
        (-x).exp() / x.sqrt() * poly(&c, 2.0 / x)
    }
}

/// True when Jₙ(x) and Iₙ(x) are below the smallest double: their series'
/// first term (|x|/2)ⁿ/n! under e^−750 (the later terms are smaller once
/// n > x²/4, which holds there).
fn negligible(ax: f64, n: u64) -> bool {
    let n = n as f64;
    n > ax * ax / 4.0 + 1.0 && n * (ax / 2.0).ln() - ln_gamma(n + 1.0) < -750.0
}

/// n + ⌊√(acc·n)⌋, where Miller's downward recurrences start (Numerical
/// Recipes' `ACC` is 40 for Jₙ, 200 for Iₙ).
fn miller_start(n: u64, acc: f64) -> u64 {
    n.saturating_add((acc * n as f64).sqrt() as u64)
}

/// Jₙ(x).
fn jn(x: f64, n: u64) -> f64 {
    match n {
        0 => return j0(x),
        1 => return j1(x),
        _ => {}
    }
    let ax = x.abs();
    if ax == 0.0 || negligible(ax, n) {
        return 0.0;
    }
    let tox = 2.0 / ax;
    let r = if ax > n as f64 {
        if !spend(n) {
            return f64::NAN;
        }
        let (mut prev, mut cur) = (j0(ax), j1(ax));
        for j in 1..n {
            (prev, cur) = (cur, j as f64 * tox * cur - prev);
        }
        cur
    } else {
        let m = miller_start(n, 40.0) / 2 * 2;
        if !spend(m) {
            return f64::NAN;
        }
        let (mut next, mut cur, mut ans, mut sum) = (0.0, 1.0, 0.0, 0.0);
        for j in (1..=m).rev() {
            (next, cur) = (cur, j as f64 * tox * cur - next);
            if cur.abs() > BIG {
                (cur, next, ans, sum) = (cur / BIG, next / BIG, ans / BIG, sum / BIG);
            }
            if (m - j) % 2 == 1 {
                sum += cur;
            }
            if j == n {
                ans = next;
            }
        }
        ans / (2.0 * sum - cur)
    };
    if x < 0.0 && n % 2 == 1 { -r } else { r }
}

/// Iₙ(x).
fn in_(x: f64, n: u64) -> f64 {
    match n {
        0 => return i0(x),
        1 => return i1(x),
        _ => {}
    }
    let ax = x.abs();
    if ax == 0.0 || negligible(ax, n) {
        return 0.0;
    }
    let tox = 2.0 / ax;
    let m = miller_start(n, 200.0).saturating_mul(2);
    if !spend(m) {
        return f64::NAN;
    }
    let (mut next, mut cur, mut ans) = (0.0, 1.0, 0.0);
    for j in (1..=m).rev() {
        (next, cur) = (cur, next + j as f64 * tox * cur);
        if cur.abs() > BIG {
            (cur, next, ans) = (cur / BIG, next / BIG, ans / BIG);
        }
        if j == n {
            ans = next;
        }
    }
    let r = ans * (i0(x) / cur);
    if x < 0.0 && n % 2 == 1 { -r } else { r }
}

/// Upward recurrence from orders 0 and 1 to n: c₍ⱼ₊₁₎ = (2j/x)·cⱼ − c₍ⱼ₋₁₎
/// for Y (`minus`), (2j/x)·cⱼ + c₍ⱼ₋₁₎ for K.
fn upward(x: f64, n: u64, c0: f64, c1: f64, minus: bool) -> f64 {
    let tox = 2.0 / x;
    let (mut prev, mut cur) = (c0, c1);
    for j in 1..n {
        if !spend(1) || !cur.is_finite() {
            return f64::NAN;
        }
        let step = j as f64 * tox * cur;
        (prev, cur) = (cur, if minus { step - prev } else { step + prev });
    }
    cur
}

/// Yₙ(x), x > 0.
fn yn(x: f64, n: u64) -> f64 {
    match n {
        0 => y0(x),
        _ => upward(x, n, y0(x), y1(x), true),
    }
}

/// Kₙ(x), x > 0.
fn kn(x: f64, n: u64) -> f64 {
    match n {
        0 => k0(x),
        _ => upward(x, n, k0(x), k1(x), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Microsoft's documented results, to their nine digits.
    #[test]
    fn documented_examples() {
        let nine = |v: f64| (v * 1e9).round() / 1e9;
        assert_eq!(nine(jn(1.9, 2)), 0.329925829);
        assert_eq!(nine(yn(2.5, 1)), 0.145918138);
        assert_eq!(nine(in_(1.5, 1)), 0.981666428);
        assert_eq!(nine(kn(1.5, 1)), 0.277387804);
    }
}
