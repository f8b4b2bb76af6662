//! The normal family: NORM.DIST, NORM.INV, NORM.S.DIST, NORM.S.INV, the
//! lognormal LOGNORM.DIST and LOGNORM.INV, PHI, GAUSS, STANDARDIZE, the
//! confidence intervals CONFIDENCE.NORM and CONFIDENCE.T, and Fisher's
//! transformation. Φ is `erfc` scaled, Φ⁻¹ `erfc⁻¹` scaled
//! ([`special`]), both to about an ulp.

use super::continuous::t_two_tailed;
use super::special::{self, norm_cdf, norm_pdf};
use super::{R, check, flag};
use crate::value::ErrorKind;

/// `NORM.DIST(x, mean, standard_dev, cumulative)` and NORMDIST.
pub fn norm_dist(a: &[f64]) -> R {
    let (x, mean, sd) = (a[0], a[1], a[2]);
    check(sd > 0.0)?;
    let z = (x - mean) / sd;
    Ok(if flag(a[3]) { norm_cdf(z) } else { norm_pdf(z) / sd })
}

/// `NORM.INV(p, mean, standard_dev)` and NORMINV: 0 < p < 1.
pub fn norm_inv(a: &[f64]) -> R {
    let (p, mean, sd) = (a[0], a[1], a[2]);
    check(p > 0.0 && p < 1.0 && sd > 0.0)?;
    Ok(mean + sd * special::norm_inv(p))
}

/// `NORM.S.DIST(z, cumulative)`.
pub fn norm_s_dist(a: &[f64]) -> R {
    Ok(if flag(a[1]) { norm_cdf(a[0]) } else { norm_pdf(a[0]) })
}

/// `NORMSDIST(z)`: Φ(z).
pub fn normsdist(a: &[f64]) -> R {
    Ok(norm_cdf(a[0]))
}

/// `NORM.S.INV(p)` and NORMSINV: Φ⁻¹(p), 0 < p < 1.
pub fn norm_s_inv(a: &[f64]) -> R {
    check(a[0] > 0.0 && a[0] < 1.0)?;
    Ok(special::norm_inv(a[0]))
}

/// `LOGNORM.DIST(x, mean, standard_dev, cumulative)`: x > 0.
pub fn lognorm_dist(a: &[f64]) -> R {
    lognormal(a, flag(a[3]))
}

/// `LOGNORMDIST(x, mean, standard_dev)`: the distribution function.
pub fn lognormdist(a: &[f64]) -> R {
    lognormal(a, true)
}

fn lognormal(a: &[f64], cumulative: bool) -> R {
    let (x, mean, sd) = (a[0], a[1], a[2]);
    check(x > 0.0 && sd > 0.0)?;
    let z = (x.ln() - mean) / sd;
    Ok(if cumulative { norm_cdf(z) } else { norm_pdf(z) / (x * sd) })
}

/// `LOGNORM.INV(p, mean, standard_dev)` and LOGINV.
pub fn lognorm_inv(a: &[f64]) -> R {
    norm_inv(a).map(f64::exp)
}

/// `PHI(x)`: the standard normal density.
pub fn phi(a: &[f64]) -> R {
    Ok(norm_pdf(a[0]))
}

/// `GAUSS(z)`: Φ(z) − 1/2, from erf so that small z keep their digits.
pub fn gauss(a: &[f64]) -> R {
    Ok(0.5 * special::erf(a[0] / std::f64::consts::SQRT_2))
}

/// `STANDARDIZE(x, mean, standard_dev)`.
pub fn standardize(a: &[f64]) -> R {
    check(a[2] > 0.0)?;
    Ok((a[0] - a[1]) / a[2])
}

/// `FISHER(x)`: atanh x, −1 < x < 1.
pub fn fisher(a: &[f64]) -> R {
    check(a[0] > -1.0 && a[0] < 1.0)?;
    Ok(a[0].atanh())
}

/// `FISHERINV(y)`: tanh y.
pub fn fisherinv(a: &[f64]) -> R {
    Ok(a[0].tanh())
}

/// The arguments of the CONFIDENCE functions: alpha in (0, 1), a positive
/// standard deviation and a size (truncated) of at least 1.
fn confidence_args(a: &[f64]) -> Result<(f64, f64, f64), ErrorKind> {
    let (alpha, sd, n) = (a[0], a[1], a[2].trunc());
    check(alpha > 0.0 && alpha < 1.0 && sd > 0.0 && n >= 1.0)?;
    Ok((alpha, sd, n))
}

/// `CONFIDENCE.NORM(alpha, standard_dev, size)` and CONFIDENCE: half the
/// width of the normal confidence interval for a mean.
pub fn confidence_norm(a: &[f64]) -> R {
    let (alpha, sd, n) = confidence_args(a)?;
    Ok(-special::norm_inv(alpha / 2.0) * sd / n.sqrt())
}

/// `CONFIDENCE.T(alpha, standard_dev, size)`: the same with Student's t;
/// a size of 1 is #DIV/0!.
pub fn confidence_t(a: &[f64]) -> R {
    let (alpha, sd, n) = confidence_args(a)?;
    if n == 1.0 {
        return Err(ErrorKind::Div0);
    }
    Ok(t_two_tailed(alpha, n - 1.0) * sd / n.sqrt())
}
