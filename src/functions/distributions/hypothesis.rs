//! The tests: T.TEST, F.TEST, Z.TEST and CHISQ.TEST (and their legacy
//! names). The data are read as the statistics read theirs
//! ([`sample`](crate::functions::stats::sample): numbers only from
//! arrays and references, the first error the result); the statistic's
//! distribution comes from [`continuous`] and [`special`].

use super::continuous::{chisq_upper, f_upper, t_tails};
use super::special::{self, Budget};
use crate::eval::{BExpr, Eval};
use crate::functions::args::{self, lift_values};
use crate::functions::stats::sample::{Moments, array_numbers, numbers, pairs};
use crate::functions::stats::{array_arg, elems};
use crate::value::{ErrorKind, Value};

/// A whole number among `allowed` (truncated), else #NUM!.
fn choice(ev: &mut Eval, e: &BExpr, allowed: &[f64]) -> Result<f64, ErrorKind> {
    let x = args::number(ev, e)?.trunc();
    if allowed.contains(&x) { Ok(x) } else { Err(ErrorKind::Num) }
}

/// `T.TEST(array1, array2, tails, type)`: Student's t test, paired (type
/// 1; the arrays of one size, pairs of numbers only), of two samples of
/// equal variance (2) or of unequal variance (3, Welch's, with its
/// fractional degrees of freedom).
pub fn t_test(ev: &mut Eval, a: &[BExpr]) -> Value {
    args::num_result(t_statistic(ev, a))
}

fn t_statistic(ev: &mut Eval, a: &[BExpr]) -> Result<f64, ErrorKind> {
    let tails = choice(ev, &a[2], &[1.0, 2.0])?;
    let kind = choice(ev, &a[3], &[1.0, 2.0, 3.0])?;
    let _budget = Budget::start();
    if kind == 1.0 {
        let diffs: Vec<f64> = pairs(ev, &a[0], &a[1])?.into_iter().map(|(x, y)| x - y).collect();
        let d = Moments::of(&diffs);
        let se = (d.variance(1)? / d.n).sqrt();
        return Ok(t_tails(nonzero(se).map(|se| d.mean / se)?, d.n - 1.0, tails));
    }
    let (x, y) = (Moments::of(&array_numbers(ev, &a[0])?), Moments::of(&array_numbers(ev, &a[1])?));
    let (vx, vy) = (x.variance(1)?, y.variance(1)?);
    let (t, df) = if kind == 2.0 {
        let df = x.n + y.n - 2.0;
        let pooled = (x.ss + y.ss) / df;
        ((x.mean - y.mean) / nonzero((pooled * (1.0 / x.n + 1.0 / y.n)).sqrt())?, df)
    } else {
        let (u, v) = (vx / x.n, vy / y.n);
        let df = (u + v).powi(2) / (u * u / (x.n - 1.0) + v * v / (y.n - 1.0));
        ((x.mean - y.mean) / nonzero((u + v).sqrt())?, df)
    };
    Ok(t_tails(t, df, tails))
}

/// #DIV/0! for a zero divisor.
fn nonzero(x: f64) -> Result<f64, ErrorKind> {
    if x == 0.0 { Err(ErrorKind::Div0) } else { Ok(x) }
}

/// `F.TEST(array1, array2)`: the two-tailed probability that the
/// variances do not differ.
pub fn f_test(ev: &mut Eval, a: &[BExpr]) -> Value {
    args::num_result(f_statistic(ev, a))
}

fn f_statistic(ev: &mut Eval, a: &[BExpr]) -> Result<f64, ErrorKind> {
    let (x, y) = (Moments::of(&array_numbers(ev, &a[0])?), Moments::of(&array_numbers(ev, &a[1])?));
    let ratio = nonzero(x.variance(1)?)? / nonzero(y.variance(1)?)?;
    let _budget = Budget::start();
    let upper = f_upper(ratio, x.n - 1.0, y.n - 1.0);
    Ok(2.0 * upper.min(1.0 - upper))
}

/// `Z.TEST(array, x, [sigma])`: the one-tailed probability of a mean at
/// least as large, with the sample's standard deviation unless `sigma`
/// is given; no numbers is #N/A.
pub fn z_test(ev: &mut Eval, a: &[BExpr]) -> Value {
    let data = match numbers(ev, &a[..1]) {
        Ok(d) if d.is_empty() => return Value::Error(ErrorKind::NA),
        Ok(d) => Moments::of(&d),
        Err(e) => return Value::Error(e),
    };
    let x = ev.read(&a[1]);
    let sigma = args::given(a, 2).map(|s| ev.read(s));
    let sd = match sigma {
        None => data.variance(1).map(f64::sqrt),
        Some(Value::Array(_)) => Err(ErrorKind::Value),
        Some(s) => s.to_number().and_then(|s| if s > 0.0 { Ok(s) } else { Err(ErrorKind::Num) }),
    };
    lift_values(&[x], |x| {
        let z = || -> Result<f64, ErrorKind> {
            let se = nonzero(sd?)? / data.n.sqrt();
            Ok(special::norm_cdf(-(data.mean - x[0].to_number()?) / se))
        };
        args::num_result(z())
    })
}

/// `CHISQ.TEST(actual, expected)`: the probability of a χ² statistic as
/// large, with (rows − 1)(columns − 1) degrees of freedom (one less than
/// the count for a single row or column). Arrays of different shapes and
/// a single cell are #N/A; an expected 0 is #DIV/0!, a negative value
/// #NUM!.
pub fn chisq_test(ev: &mut Eval, a: &[BExpr]) -> Value {
    args::num_result(chisq_statistic(ev, a))
}

fn chisq_statistic(ev: &mut Eval, a: &[BExpr]) -> Result<f64, ErrorKind> {
    let (actual, expected) = (array_arg(ev, &a[0]), array_arg(ev, &a[1]));
    let ((rows, cols, observed), (r, c, wanted)) = (elems(&actual), elems(&expected));
    if let Some(Value::Error(e)) = [&actual, &expected].into_iter().find(|v| v.is_error()) {
        return Err(*e);
    }
    if (rows, cols) != (r, c) || rows * cols < 2 {
        return Err(ErrorKind::NA);
    }
    let mut chi = 0.0;
    for (o, e) in observed.iter().zip(wanted) {
        match (o, e) {
            (Value::Error(err), _) | (_, Value::Error(err)) => return Err(*err),
            (Value::Number(o), Value::Number(e)) if *o < 0.0 || *e < 0.0 => return Err(ErrorKind::Num),
            (Value::Number(_), Value::Number(e)) if *e == 0.0 => return Err(ErrorKind::Div0),
            (Value::Number(o), Value::Number(e)) => chi += (o - e) * (o - e) / e,
            _ => {}
        }
    }
    let df = if rows > 1 && cols > 1 { (rows - 1) * (cols - 1) } else { rows * cols - 1 };
    let _budget = Budget::start();
    Ok(chisq_upper(chi, df as f64))
}
