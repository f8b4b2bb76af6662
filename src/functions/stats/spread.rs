//! Spread and shape: the variances and standard deviations of a sample
//! and of a population (VAR.S, VAR.P, STDEV.S, STDEV.P, their legacy
//! names and the *A forms that count text and booleans), AVEDEV, DEVSQ,
//! GEOMEAN, HARMEAN, TRIMMEAN, KURT, SKEW and SKEW.P. The data are
//! gathered as the aggregates gather theirs ([`sample`]); a sample with
//! too few numbers for its formula is #DIV/0! (the variances, KURT,
//! SKEW) or #NUM! (the means and deviations of nothing).

use super::sample::{Moments, numbers, numbers_by};
use crate::eval::{BExpr, Eval};
use crate::functions::args::{self, Rule, lift_values};
use crate::value::{ErrorKind, Value};

/// The numbers of the arguments, or the error that ends the function.
macro_rules! data {
    ($e:expr) => {
        match $e {
            Ok(d) => d,
            Err(e) => return Value::Error(e),
        }
    };
}

/// VAR.S (`ddof` 1) and VAR.P (`ddof` 0), and with `root` STDEV.S and
/// STDEV.P, of the numbers `rule` counts.
pub fn spread(ev: &mut Eval, a: &[BExpr], rule: Rule, ddof: u8, root: bool) -> Value {
    let data = data!(numbers_by(ev, a, rule));
    let v = Moments::of(&data).variance(ddof);
    args::num_result(if root { v.map(f64::sqrt) } else { v })
}

/// The numbers of the arguments, #NUM! when there are none.
fn some_numbers(ev: &mut Eval, a: &[BExpr]) -> Result<Vec<f64>, ErrorKind> {
    let data = numbers(ev, a)?;
    if data.is_empty() { Err(ErrorKind::Num) } else { Ok(data) }
}

/// `AVEDEV(x, ...)`: the mean absolute deviation from the mean.
pub fn avedev(ev: &mut Eval, a: &[BExpr]) -> Value {
    let data = data!(some_numbers(ev, a));
    let m = Moments::of(&data);
    Value::num(data.iter().map(|x| (x - m.mean).abs()).sum::<f64>() / m.n)
}

/// `DEVSQ(x, ...)`: the sum of squared deviations from the mean.
pub fn devsq(ev: &mut Eval, a: &[BExpr]) -> Value {
    Value::num(Moments::of(&data!(some_numbers(ev, a))).ss)
}

/// `GEOMEAN(x, ...)`: of positive numbers only (#NUM! otherwise), from
/// the mean of their logarithms, which cannot overflow.
pub fn geomean(ev: &mut Eval, a: &[BExpr]) -> Value {
    let data = data!(some_numbers(ev, a));
    if data.iter().any(|&x| x <= 0.0) {
        return Value::Error(ErrorKind::Num);
    }
    Value::num((data.iter().map(|x| x.ln()).sum::<f64>() / data.len() as f64).exp())
}

/// `HARMEAN(x, ...)`: of positive numbers only (#NUM! otherwise).
pub fn harmean(ev: &mut Eval, a: &[BExpr]) -> Value {
    let data = data!(some_numbers(ev, a));
    if data.iter().any(|&x| x <= 0.0) {
        return Value::Error(ErrorKind::Num);
    }
    Value::num(data.len() as f64 / data.iter().map(|x| 1.0 / x).sum::<f64>())
}

/// `TRIMMEAN(array, percent)`: the mean without `percent` of the
/// numbers, as many from each end, their count rounded down to an even
/// number; 0 ≤ percent < 1 (#NUM! otherwise).
pub fn trimmean(ev: &mut Eval, a: &[BExpr]) -> Value {
    let mut data = data!(some_numbers(ev, &a[..1]));
    data.sort_by(f64::total_cmp);
    let pct = ev.read(&a[1]);
    lift_values(&[pct], |p| match p[0].to_number() {
        Err(e) => Value::Error(e),
        Ok(p) if !(0.0..1.0).contains(&p) => Value::Error(ErrorKind::Num),
        Ok(p) => {
            // Each end loses floor(n·p/2), read to 12 digits so that
            // 20 × 0.1 / 2 is 1.
            let cut = (data.len() as f64 * p / 2.0 * (1.0 + 1e-12)).floor() as usize;
            let kept = &data[cut..data.len() - cut];
            Value::num(kept.iter().sum::<f64>() / kept.len() as f64)
        }
    })
}

/// The numbers of the arguments, their moments and standard deviation
/// (`ddof` 1 for a sample's, 0 for a population's), for the shape
/// statistics: fewer than `least` numbers, or no spread, is #DIV/0!; a
/// spread too wide for a double #NUM!.
fn standardized(ev: &mut Eval, a: &[BExpr], least: f64, ddof: u8) -> Result<(Vec<f64>, Moments, f64), ErrorKind> {
    let data = numbers(ev, a)?;
    let m = Moments::of(&data);
    if m.n < least || m.ss == 0.0 {
        return Err(ErrorKind::Div0);
    }
    let sd = m.variance(ddof)?.sqrt();
    if !sd.is_finite() {
        return Err(ErrorKind::Num);
    }
    Ok((data, m, sd))
}

/// `KURT(x, ...)`: the sample excess kurtosis; fewer than 4 numbers, or
/// no spread, is #DIV/0!.
pub fn kurt(ev: &mut Eval, a: &[BExpr]) -> Value {
    let (data, m, sd) = data!(standardized(ev, a, 4.0, 1));
    let n = m.n;
    let k = n * (n + 1.0) / ((n - 1.0) * (n - 2.0) * (n - 3.0)) * m.standardized_sum(&data, sd, 4);
    Value::num(k - 3.0 * (n - 1.0) * (n - 1.0) / ((n - 2.0) * (n - 3.0)))
}

/// `SKEW(x, ...)`: the sample skewness; fewer than 3 numbers, or no
/// spread, is #DIV/0!.
pub fn skew(ev: &mut Eval, a: &[BExpr]) -> Value {
    let (data, m, sd) = data!(standardized(ev, a, 3.0, 1));
    let n = m.n;
    Value::num(n / ((n - 1.0) * (n - 2.0)) * m.standardized_sum(&data, sd, 3))
}

/// `SKEW.P(x, ...)`: the population skewness; no spread is #DIV/0!.
pub fn skew_p(ev: &mut Eval, a: &[BExpr]) -> Value {
    let (data, m, sd) = data!(standardized(ev, a, 1.0, 0));
    Value::num(m.standardized_sum(&data, sd, 3) / m.n)
}
