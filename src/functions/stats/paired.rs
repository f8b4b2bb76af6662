//! Two samples side by side: CORREL and PEARSON, COVAR and
//! COVARIANCE.P, COVARIANCE.S, and the least-squares line of y on x:
//! SLOPE, INTERCEPT, RSQ, STEYX, FORECAST (and FORECAST.LINEAR); and PROB.
//! The arguments are evaluated as arrays and read in pairs
//! ([`pairs`]: positions where both hold numbers; arrays of different
//! sizes #N/A). Sums of products are taken about the means, in two passes.

use super::sample::pairs;
use crate::eval::{BExpr, Eval};
use crate::functions::args::{self, lift_values};
use crate::value::{ErrorKind, Value};

/// The sums of a paired sample: count, means, and the sums of squared and
/// crossed deviations from the means.
struct Sums {
    n: f64,
    mx: f64,
    my: f64,
    sxx: f64,
    syy: f64,
    sxy: f64,
}

impl Sums {
    fn of(p: &[(f64, f64)]) -> Sums {
        let n = p.len() as f64;
        let (mx, my) = (p.iter().map(|q| q.0).sum::<f64>() / n, p.iter().map(|q| q.1).sum::<f64>() / n);
        let (mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0);
        for &(x, y) in p {
            let (dx, dy) = (x - mx, y - my);
            (sxx, syy, sxy) = (sxx + dx * dx, syy + dy * dy, sxy + dx * dy);
        }
        Sums { n, mx, my, sxx, syy, sxy }
    }

    /// The correlation; #DIV/0! when either sample has no spread.
    fn correl(&self) -> Result<f64, ErrorKind> {
        nonzero(self.sxx * self.syy).map(|d| self.sxy / d.sqrt())
    }

    /// The slope of y on x; #DIV/0! when x has no spread.
    fn slope(&self) -> Result<f64, ErrorKind> {
        nonzero(self.sxx).map(|d| self.sxy / d)
    }
}

fn nonzero(x: f64) -> Result<f64, ErrorKind> {
    if x == 0.0 || x.is_nan() { Err(ErrorKind::Div0) } else { Ok(x) }
}

/// `f` of the paired sums of arguments 0 and 1 (y and x for the line).
fn with_sums(ev: &mut Eval, a: &[BExpr], f: impl Fn(&Sums) -> Result<f64, ErrorKind>) -> Value {
    args::num_result(pairs(ev, &a[1], &a[0]).and_then(|p| f(&Sums::of(&p))))
}

/// `CORREL(array1, array2)` and PEARSON.
pub fn correl(ev: &mut Eval, a: &[BExpr]) -> Value {
    with_sums(ev, a, Sums::correl)
}

/// `RSQ(known_y, known_x)`: the correlation squared.
pub fn rsq(ev: &mut Eval, a: &[BExpr]) -> Value {
    with_sums(ev, a, |s| s.correl().map(|r| r * r))
}

/// `COVARIANCE.P(array1, array2)` and COVAR (`ddof` 0), COVARIANCE.S (1).
pub fn covariance(ev: &mut Eval, a: &[BExpr], ddof: f64) -> Value {
    with_sums(ev, a, |s| if s.n - ddof <= 0.0 { Err(ErrorKind::Div0) } else { Ok(s.sxy / (s.n - ddof)) })
}

/// `SLOPE(known_y, known_x)`.
pub fn slope(ev: &mut Eval, a: &[BExpr]) -> Value {
    with_sums(ev, a, Sums::slope)
}

/// `INTERCEPT(known_y, known_x)`.
pub fn intercept(ev: &mut Eval, a: &[BExpr]) -> Value {
    with_sums(ev, a, |s| s.slope().map(|b| s.my - b * s.mx))
}

/// `STEYX(known_y, known_x)`: the standard error of the predicted y;
/// fewer than 3 pairs is #DIV/0!.
pub fn steyx(ev: &mut Eval, a: &[BExpr]) -> Value {
    with_sums(ev, a, |s| {
        if s.n < 3.0 {
            return Err(ErrorKind::Div0);
        }
        let b = s.slope()?;
        Ok(((s.syy - b * s.sxy).max(0.0) / (s.n - 2.0)).sqrt())
    })
}

/// `FORECAST(x, known_y, known_x)` and FORECAST.LINEAR: the line at `x`
/// (element by element for an array).
pub fn forecast(ev: &mut Eval, a: &[BExpr]) -> Value {
    let x = ev.read(&a[0]);
    let line = pairs(ev, &a[2], &a[1]).map(|p| Sums::of(&p)).and_then(|s| {
        let b = s.slope()?;
        Ok((s.my - b * s.mx, b))
    });
    lift_values(&[x], |x| args::num_result(x[0].to_number().and_then(|x| line.map(|(a, b)| a + b * x))))
}

/// `PROB(x_range, prob_range, lower, [upper])`: the total probability of
/// the x between `lower` and `upper` (equal to `lower` without it). Each
/// probability must be in (0, 1] and they must add up to 1 (#NUM!
/// otherwise).
pub fn prob(ev: &mut Eval, a: &[BExpr]) -> Value {
    let table = pairs(ev, &a[0], &a[1]).and_then(|p| {
        let total: f64 = p.iter().map(|q| q.1).sum();
        if p.iter().any(|q| q.1 <= 0.0 || q.1 > 1.0) || (total - 1.0).abs() > 1e-7 {
            return Err(ErrorKind::Num);
        }
        Ok(p)
    });
    let lower = ev.read(&a[2]);
    let upper = args::given(a, 3).map_or(lower.clone(), |u| ev.read(u));
    lift_values(&[lower, upper], |v| {
        let total = || -> Result<f64, ErrorKind> {
            let (lo, hi, p) = (v[0].to_number()?, v[1].to_number()?, table.as_ref().map_err(|e| *e)?);
            Ok(p.iter().filter(|q| q.0 >= lo && q.0 <= hi).map(|q| q.1).sum())
        };
        args::num_result(total())
    })
}
