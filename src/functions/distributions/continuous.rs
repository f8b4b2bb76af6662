//! The continuous distributions but the normal ones: exponential, gamma,
//! beta, Weibull, chi-squared, Student's t and F, each as Excel's
//! functions take it (density or distribution by the `cumulative` flag,
//! right tails, two tails, inverses). Every function takes its arguments
//! as numbers, already read ([`super::numeric`]), and checks Excel's
//! domains (#NUM! outside); degrees of freedom are truncated. The inverses
//! solve the distribution function to full precision
//! ([`special::solve`]); upper-tail inverses solve the upper tail itself,
//! so no digits are lost to `1 - p`.

use super::special::{self, beta_reg, gamma_p, gamma_q, ln_beta, ln_gamma, solve};
use super::{R, check, flag, opt};
use crate::value::ErrorKind;

/// The most degrees of freedom CHISQ and F take (Excel's bound).
const MAX_DF: f64 = 1e10;

/// `EXPON.DIST(x, lambda, cumulative)`.
pub fn expon_dist(a: &[f64]) -> R {
    let (x, lambda) = (a[0], a[1]);
    check(x >= 0.0 && lambda > 0.0)?;
    Ok(if flag(a[2]) { -(-lambda * x).exp_m1() } else { lambda * (-lambda * x).exp() })
}

/// `GAMMA.DIST(x, alpha, beta, cumulative)`.
pub fn gamma_dist(a: &[f64]) -> R {
    let (x, alpha, beta) = (a[0], a[1], a[2]);
    check(x >= 0.0 && alpha > 0.0 && beta > 0.0)?;
    Ok(if flag(a[3]) { gamma_p(alpha, x / beta) } else { gamma_density(x / beta, alpha) / beta })
}

/// The density of the standard gamma distribution of shape `alpha` at `x`.
fn gamma_density(x: f64, alpha: f64) -> f64 {
    if x == 0.0 {
        return if alpha < 1.0 {
            f64::INFINITY
        } else if alpha == 1.0 {
            1.0
        } else {
            0.0
        };
    }
    ((alpha - 1.0) * x.ln() - x - ln_gamma(alpha)).exp()
}

/// `GAMMA.INV(p, alpha, beta)`: 0 at p = 0; p = 1 is #NUM!.
pub fn gamma_inv(a: &[f64]) -> R {
    let (p, alpha, beta) = (a[0], a[1], a[2]);
    check((0.0..1.0).contains(&p) && alpha > 0.0 && beta > 0.0)?;
    if p == 0.0 {
        return Ok(0.0);
    }
    Ok(beta * solve(|x| gamma_p(alpha, x), p, 0.0, f64::INFINITY))
}

/// The bounds of BETA.DIST and BETA.INV: `A` and `B` (0 and 1 when
/// absent), #NUM! unless A < B.
fn bounds(a: &[f64], i: usize) -> Result<(f64, f64), ErrorKind> {
    let (lo, hi) = (opt(a, i, 0.0), opt(a, i + 1, 1.0));
    check(lo < hi)?;
    Ok((lo, hi))
}

/// `BETA.DIST(x, alpha, beta, cumulative, [A], [B])`.
pub fn beta_dist(a: &[f64]) -> R {
    let (lo, hi) = bounds(a, 4)?;
    beta_at(a[0], a[1], a[2], flag(a[3]), lo, hi)
}

/// `BETADIST(x, alpha, beta, [A], [B])`: the distribution function.
pub fn betadist(a: &[f64]) -> R {
    let (lo, hi) = bounds(a, 3)?;
    beta_at(a[0], a[1], a[2], true, lo, hi)
}

fn beta_at(x: f64, alpha: f64, beta: f64, cumulative: bool, lo: f64, hi: f64) -> R {
    check(alpha > 0.0 && beta > 0.0 && (lo..=hi).contains(&x))?;
    let width = hi - lo;
    let (t, u) = ((x - lo) / width, (hi - x) / width);
    if cumulative {
        return Ok(beta_reg(alpha, beta, t, u));
    }
    let density = if t > 0.0 && u > 0.0 {
        ((alpha - 1.0) * t.ln() + (beta - 1.0) * u.ln() - ln_beta(alpha, beta)).exp()
    } else {
        t.powf(alpha - 1.0) * u.powf(beta - 1.0) * (-ln_beta(alpha, beta)).exp()
    };
    Ok(density / width)
}

/// `BETA.INV(p, alpha, beta, [A], [B])`: p ≤ 0 or above 1 is #NUM!.
pub fn beta_inv(a: &[f64]) -> R {
    let (p, alpha, beta) = (a[0], a[1], a[2]);
    let (lo, hi) = bounds(a, 3)?;
    check(p > 0.0 && p <= 1.0 && alpha > 0.0 && beta > 0.0)?;
    let t = if p == 1.0 { 1.0 } else { solve(|t| beta_reg(alpha, beta, t, 1.0 - t), p, 0.0, 1.0) };
    Ok(lo + (hi - lo) * t)
}

/// `WEIBULL.DIST(x, alpha, beta, cumulative)`.
pub fn weibull_dist(a: &[f64]) -> R {
    let (x, alpha, beta) = (a[0], a[1], a[2]);
    check(x >= 0.0 && alpha > 0.0 && beta > 0.0)?;
    let u = (x / beta).powf(alpha);
    Ok(if flag(a[3]) { -(-u).exp_m1() } else { alpha / beta * (x / beta).powf(alpha - 1.0) * (-u).exp() })
}

/// Degrees of freedom: truncated, at least 1 and at most `max`.
fn df(x: f64, max: f64) -> R {
    let n = x.trunc();
    check((1.0..=max).contains(&n))?;
    Ok(n)
}

/// `CHISQ.DIST(x, df, cumulative)`.
pub fn chisq_dist(a: &[f64]) -> R {
    let (x, n) = (a[0], df(a[1], MAX_DF)?);
    check(x >= 0.0)?;
    Ok(if flag(a[2]) { gamma_p(n / 2.0, x / 2.0) } else { gamma_density(x / 2.0, n / 2.0) / 2.0 })
}

/// `CHISQ.DIST.RT(x, df)` and CHIDIST: the upper tail.
pub fn chisq_dist_rt(a: &[f64]) -> R {
    let (x, n) = (a[0], df(a[1], MAX_DF)?);
    check(x >= 0.0)?;
    Ok(gamma_q(n / 2.0, x / 2.0))
}

/// `CHISQ.INV(p, df)`: 0 at p = 0; p = 1 is #NUM!.
pub fn chisq_inv(a: &[f64]) -> R {
    let (p, n) = (a[0], df(a[1], MAX_DF)?);
    check((0.0..1.0).contains(&p))?;
    if p == 0.0 {
        return Ok(0.0);
    }
    Ok(2.0 * solve(|x| gamma_p(n / 2.0, x), p, 0.0, f64::INFINITY))
}

/// `CHISQ.INV.RT(p, df)` and CHIINV: 0 at p = 1; p = 0 is #NUM!.
pub fn chisq_inv_rt(a: &[f64]) -> R {
    let (p, n) = (a[0], df(a[1], MAX_DF)?);
    check(p > 0.0 && p <= 1.0)?;
    if p == 1.0 {
        return Ok(0.0);
    }
    Ok(2.0 * solve(|x| gamma_q(n / 2.0, x), p, 0.0, f64::INFINITY))
}

/// P(T > |t|) for Student's t with `n` degrees of freedom (any n > 0).
pub fn t_tail(t: f64, n: f64) -> f64 {
    let t2 = t * t;
    0.5 * beta_reg(n / 2.0, 0.5, n / (n + t2), t2 / (n + t2))
}

/// P(T ≤ t).
fn t_cdf(t: f64, n: f64) -> f64 {
    if t > 0.0 { 1.0 - t_tail(t, n) } else { t_tail(t, n) }
}

/// `T.DIST(x, df, cumulative)`.
pub fn t_dist(a: &[f64]) -> R {
    let (t, n) = (a[0], df(a[1], f64::MAX)?);
    if flag(a[2]) {
        return Ok(t_cdf(t, n));
    }
    let ln = ln_gamma((n + 1.0) / 2.0) - ln_gamma(n / 2.0) - 0.5 * (n * std::f64::consts::PI).ln();
    Ok((ln - (n + 1.0) / 2.0 * (t * t / n).ln_1p()).exp())
}

/// `T.DIST.RT(x, df)`: P(T > x).
pub fn t_dist_rt(a: &[f64]) -> R {
    let (t, n) = (a[0], df(a[1], f64::MAX)?);
    Ok(if t > 0.0 { t_tail(t, n) } else { 1.0 - t_tail(t, n) })
}

/// `T.DIST.2T(x, df)`: P(|T| > x), x ≥ 0.
pub fn t_dist_2t(a: &[f64]) -> R {
    let (t, n) = (a[0], df(a[1], f64::MAX)?);
    check(t >= 0.0)?;
    Ok(2.0 * t_tail(t, n))
}

/// `TDIST(x, df, tails)`: one or two tails of x ≥ 0 (tails truncated).
pub fn tdist(a: &[f64]) -> R {
    let (t, n, tails) = (a[0], df(a[1], f64::MAX)?, a[2].trunc());
    check(t >= 0.0 && (tails == 1.0 || tails == 2.0))?;
    Ok(tails * t_tail(t, n))
}

/// The t > 0 whose tail P(T > t) is `q` (0 < q ≤ 1/2); NaN past 1e154,
/// where t² overflows and [`t_tail`] no longer tells the tails apart.
fn t_upper(q: f64, n: f64) -> f64 {
    let t = solve(|t| t_tail(t, n), q, 0.0, f64::INFINITY);
    if (t * t).is_finite() { t } else { f64::NAN }
}

/// `T.INV(p, df)`: 0 < p < 1.
pub fn t_inv(a: &[f64]) -> R {
    let (p, n) = (a[0], df(a[1], f64::MAX)?);
    check(p > 0.0 && p < 1.0)?;
    Ok(if p == 0.5 {
        0.0
    } else if p < 0.5 {
        -t_upper(p, n)
    } else {
        t_upper(1.0 - p, n)
    })
}

/// `T.INV.2T(p, df)` and TINV: the t > 0 with P(|T| > t) = p, 0 < p ≤ 1.
pub fn t_inv_2t(a: &[f64]) -> R {
    let (p, n) = (a[0], df(a[1], f64::MAX)?);
    check(p > 0.0 && p <= 1.0)?;
    Ok(if p == 1.0 { 0.0 } else { t_upper(p / 2.0, n) })
}

/// P(F ≤ x) and P(F > x) for F with `m` and `n` degrees of freedom.
fn f_cdf(x: f64, m: f64, n: f64, upper: bool) -> f64 {
    let (mx, d) = (m * x, m * x + n);
    if upper { beta_reg(n / 2.0, m / 2.0, n / d, mx / d) } else { beta_reg(m / 2.0, n / 2.0, mx / d, n / d) }
}

/// The degrees of freedom of the F functions, arguments 1 and 2.
fn f_df(a: &[f64]) -> Result<(f64, f64), ErrorKind> {
    Ok((df(a[1], MAX_DF)?, df(a[2], MAX_DF)?))
}

/// `F.DIST(x, df1, df2, cumulative)`.
pub fn f_dist(a: &[f64]) -> R {
    let (x, (m, n)) = (a[0], f_df(a)?);
    check(x >= 0.0)?;
    if flag(a[3]) {
        return Ok(f_cdf(x, m, n, false));
    }
    if x == 0.0 {
        return Ok(if m < 2.0 {
            f64::INFINITY
        } else if m == 2.0 {
            1.0
        } else {
            0.0
        });
    }
    let ln = m / 2.0 * (m / n).ln() + (m / 2.0 - 1.0) * x.ln() - (m + n) / 2.0 * (m * x / n).ln_1p();
    Ok((ln - ln_beta(m / 2.0, n / 2.0)).exp())
}

/// `F.DIST.RT(x, df1, df2)` and FDIST: the upper tail.
pub fn f_dist_rt(a: &[f64]) -> R {
    let (x, (m, n)) = (a[0], f_df(a)?);
    check(x >= 0.0)?;
    Ok(f_cdf(x, m, n, true))
}

/// `F.INV(p, df1, df2)`: 0 at p = 0; p = 1 is #NUM!.
pub fn f_inv(a: &[f64]) -> R {
    let (p, (m, n)) = (a[0], f_df(a)?);
    check((0.0..1.0).contains(&p))?;
    if p == 0.0 {
        return Ok(0.0);
    }
    Ok(solve(|x| f_cdf(x, m, n, false), p, 0.0, f64::INFINITY))
}

/// `F.INV.RT(p, df1, df2)` and FINV: 0 at p = 1; p = 0 is #NUM!.
pub fn f_inv_rt(a: &[f64]) -> R {
    let (p, (m, n)) = (a[0], f_df(a)?);
    check(p > 0.0 && p <= 1.0)?;
    if p == 1.0 {
        return Ok(0.0);
    }
    Ok(solve(|x| f_cdf(x, m, n, true), p, 0.0, f64::INFINITY))
}

/// P(T > |t|) for the tests, where the degrees of freedom need not be
/// whole (Welch's test).
pub fn t_tails(t: f64, n: f64, tails: f64) -> f64 {
    tails * t_tail(t.abs(), n)
}

/// P(F > x), for F.TEST.
pub fn f_upper(x: f64, m: f64, n: f64) -> f64 {
    f_cdf(x, m, n, true)
}

/// P(χ² > x), for CHISQ.TEST.
pub fn chisq_upper(x: f64, n: f64) -> f64 {
    special::gamma_q(n / 2.0, x / 2.0)
}

/// The t > 0 with P(|T| > t) = p, for CONFIDENCE.T.
pub fn t_two_tailed(p: f64, n: f64) -> f64 {
    t_upper(p / 2.0, n)
}
