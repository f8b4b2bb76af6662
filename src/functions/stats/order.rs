//! Order statistics: SMALL, LARGE, MEDIAN, MODE, RANK, FREQUENCY. Each
//! gathers the numbers of its data arguments under SUM's rules ([`numbers`]:
//! from references and arrays only numbers, typed directly also booleans
//! and numeric text; the first error is the result), then sorts or counts
//! them. A position argument (SMALL's `k`, RANK's `number`) may be an array,
//! giving an array of results.

use crate::eval::{BExpr, Eval};
use crate::functions::args::{lift_values, numbers};
use crate::value::{Array, ErrorKind, Value};
use std::sync::Arc;

/// [`numbers`], sorted ascending.
fn sorted(ev: &mut Eval, a: &[BExpr]) -> Result<Vec<f64>, ErrorKind> {
    let mut data = numbers(ev, a)?;
    data.sort_by(f64::total_cmp);
    Ok(data)
}

/// `SMALL(array, k)`: the k-th smallest number.
pub fn small(ev: &mut Eval, a: &[BExpr]) -> Value {
    kth(ev, a, false)
}

/// `LARGE(array, k)`: the k-th largest number.
pub fn large(ev: &mut Eval, a: &[BExpr]) -> Value {
    kth(ev, a, true)
}

/// SMALL and LARGE: `k` is truncated; #NUM! unless 1 ≤ k ≤ the count.
fn kth(ev: &mut Eval, a: &[BExpr], largest: bool) -> Value {
    let data = match sorted(ev, &a[..1]) {
        Ok(d) => d,
        Err(e) => return Value::Error(e),
    };
    let k = ev.read(&a[1]);
    lift_values(&[k], |k| match k[0].to_number().map(f64::trunc) {
        Err(e) => Value::Error(e),
        Ok(k) if k < 1.0 || k > data.len() as f64 => Value::Error(ErrorKind::Num),
        Ok(k) => Value::Number(if largest { data[data.len() - k as usize] } else { data[k as usize - 1] }),
    })
}

/// `MEDIAN(x, ...)`: the middle number, or the mean of the two middle
/// ones; #NUM! without numbers.
pub fn median(ev: &mut Eval, a: &[BExpr]) -> Value {
    match sorted(ev, a) {
        Err(e) => Value::Error(e),
        Ok(d) if d.is_empty() => Value::Error(ErrorKind::Num),
        Ok(d) if d.len() % 2 == 1 => Value::Number(d[d.len() / 2]),
        Ok(d) => Value::num((d[d.len() / 2 - 1] + d[d.len() / 2]) / 2.0),
    }
}

/// `MODE(x, ...)`: the most frequent number, the first met among equally
/// frequent ones; #N/A when no number occurs twice.
pub fn mode(ev: &mut Eval, a: &[BExpr]) -> Value {
    let counted = match counted(ev, a) {
        Ok(c) => c,
        Err(e) => return Value::Error(e),
    };
    let best = counted.into_iter().fold((f64::NAN, 1), |b, c| if c.1 > b.1 { c } else { b });
    if best.1 < 2 { Value::Error(ErrorKind::NA) } else { Value::Number(best.0) }
}

/// The numbers of aggregate arguments in order, each with how often it
/// occurs among them (MODE's and MODE.MULT's tally).
pub(super) fn counted(ev: &mut Eval, a: &[BExpr]) -> Result<Vec<(f64, usize)>, ErrorKind> {
    let data = numbers(ev, a)?;
    let mut sorted = data.clone();
    sorted.sort_by(f64::total_cmp);
    let count = |x: f64| sorted.partition_point(|&y| y <= x) - sorted.partition_point(|&y| y < x);
    Ok(data.iter().map(|&x| (x, count(x))).collect())
}

/// `RANK(number, ref, [order])`: 1 plus how many numbers of `ref` are
/// larger (order 0, the default) or smaller (any other order); #N/A when
/// `number` is not among them.
pub fn rank(ev: &mut Eval, a: &[BExpr]) -> Value {
    let data = match numbers(ev, &a[1..2]) {
        Ok(d) => d,
        Err(e) => return Value::Error(e),
    };
    let x = ev.read(&a[0]);
    let order = a.get(2).map_or(Value::Number(0.0), |o| ev.read(o));
    lift_values(&[x, order], |v| match (v[0].to_number(), v[1].to_number()) {
        (Err(e), _) | (_, Err(e)) => Value::Error(e),
        (Ok(x), _) if !data.contains(&x) => Value::Error(ErrorKind::NA),
        (Ok(x), Ok(order)) => {
            let ahead = data.iter().filter(|&&d| if order == 0.0 { d > x } else { d < x }).count();
            Value::Number((ahead + 1) as f64)
        }
    })
}

/// `FREQUENCY(data, bins)`: a column with, for each bin in its order, how
/// many numbers are above the next smaller bin and at most this one, and
/// last how many are above every bin. A repeated bin counts nothing the
/// first one counted.
pub fn frequency(ev: &mut Eval, a: &[BExpr]) -> Value {
    let (data, bins) = match (numbers(ev, &a[..1]), numbers(ev, &a[1..])) {
        (Err(e), _) | (_, Err(e)) => return Value::Error(e),
        (Ok(d), Ok(b)) => (d, b),
    };
    let mut order: Vec<usize> = (0..bins.len()).collect();
    order.sort_by(|&i, &j| bins[i].total_cmp(&bins[j]));
    let mut counts = vec![0u64; bins.len() + 1];
    for x in data {
        let p = order.partition_point(|&i| bins[i] < x);
        counts[order.get(p).copied().unwrap_or(bins.len())] += 1;
    }
    let column = counts.into_iter().map(|n| Value::Number(n as f64)).collect();
    Value::Array(Arc::new(Array::new(bins.len() + 1, 1, column)))
}
