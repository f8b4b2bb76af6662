//! Positions in a sorted sample: PERCENTILE and QUARTILE, inclusive
//! (.INC and the legacy names: rank k·(n − 1) from 0) and exclusive (.EXC:
//! rank k·(n + 1) from 1), interpolating between neighbours; PERCENTRANK
//! (.INC, .EXC), its inverse, cut down (not rounded) to `significance`
//! digits; RANK.AVG; and MODE.MULT. The data are gathered under SUM's
//! rules ([`numbers`]) and sorted once; a position argument that is an
//! array gives an array of results.

use super::order::counted;
use super::sample::numbers;
use crate::eval::{BExpr, Eval};
use crate::functions::args::lift_values;
use crate::value::{Array, ErrorKind, Value};
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// Which convention a percentile follows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Range {
    Inclusive,
    Exclusive,
}

/// The sorted numbers of argument 0, #NUM! when there are none; then `f`
/// lifted over argument 1 read as a number.
fn over_sorted(ev: &mut Eval, a: &[BExpr], f: impl Fn(&[f64], f64) -> Result<f64, ErrorKind>) -> Value {
    let mut data = match numbers(ev, &a[..1]) {
        Ok(d) if d.is_empty() => return Value::Error(ErrorKind::Num),
        Ok(d) => d,
        Err(e) => return Value::Error(e),
    };
    data.sort_by(f64::total_cmp);
    let k = ev.read(&a[1]);
    lift_values(&[k], |k| match k[0].to_number().and_then(|k| f(&data, k)) {
        Ok(x) => Value::num(x),
        Err(e) => Value::Error(e),
    })
}

/// `PERCENTILE.INC(array, k)`, `.EXC` and PERCENTILE.
pub fn percentile(ev: &mut Eval, a: &[BExpr], range: Range) -> Value {
    over_sorted(ev, a, |d, k| at_fraction(d, k, range))
}

/// `QUARTILE.INC(array, quart)`, `.EXC` and QUARTILE: `quart` truncated,
/// 0 to 4 (1 to 3 exclusive).
pub fn quartile(ev: &mut Eval, a: &[BExpr], range: Range) -> Value {
    over_sorted(ev, a, |d, q| at_fraction(d, q.trunc() / 4.0, range))
}

/// The value at fraction `k` of sorted `d`.
fn at_fraction(d: &[f64], k: f64, range: Range) -> Result<f64, ErrorKind> {
    let n = d.len() as f64;
    let rank = match range {
        Range::Inclusive if (0.0..=1.0).contains(&k) => k * (n - 1.0),
        Range::Exclusive if k > 0.0 && k < 1.0 && k * (n + 1.0) >= 1.0 && k * (n + 1.0) <= n => k * (n + 1.0) - 1.0,
        _ => return Err(ErrorKind::Num),
    };
    let (i, frac) = (rank.floor() as usize, rank - rank.floor());
    Ok(match d.get(i + 1) {
        Some(next) if frac > 0.0 => d[i] + frac * (next - d[i]),
        _ => d[i],
    })
}

/// `PERCENTRANK.INC(array, x, [significance])`, `.EXC` and PERCENTRANK:
/// where `x` falls in the data, interpolated between neighbours; outside
/// the data #N/A; `significance` (3 by default, truncated) below 1 #NUM!.
pub fn percentrank(ev: &mut Eval, a: &[BExpr], range: Range) -> Value {
    let digits = match a.get(2).map(|s| ev.read(s).to_number()) {
        None => 3.0,
        Some(Ok(s)) if s.trunc() >= 1.0 => s.trunc().min(15.0),
        Some(Ok(_)) => return Value::Error(ErrorKind::Num),
        Some(Err(e)) => return Value::Error(e),
    };
    over_sorted(ev, &a[..2], |d, x| {
        let n = d.len() as f64;
        if x < d[0] || x > d[d.len() - 1] {
            return Err(ErrorKind::NA);
        }
        let below = d.partition_point(|&y| y < x);
        // Where x sits: below + a fraction of the way to the next value.
        let position = if d[below] == x {
            below as f64
        } else {
            below as f64 - 1.0 + (x - d[below - 1]) / (d[below] - d[below - 1])
        };
        let rank = match range {
            Range::Inclusive if d.len() == 1 => 1.0,
            Range::Inclusive => position / (n - 1.0),
            Range::Exclusive => (position + 1.0) / (n + 1.0),
        };
        Ok(cut_to(rank, digits))
    })
}

/// `x` cut down to `digits` decimals; a product within 1e-9 of a whole
/// number counts as it (0.7 × 1000 is 700).
fn cut_to(x: f64, digits: f64) -> f64 {
    let scale = 10f64.powf(digits);
    let y = x * scale;
    let near = y.round();
    (if (y - near).abs() < 1e-9 { near } else { y.floor() }) / scale
}

/// `RANK.AVG(number, ref, [order])`: as RANK, ties sharing the mean of
/// their positions.
pub fn rank_avg(ev: &mut Eval, a: &[BExpr]) -> Value {
    let mut data = match numbers(ev, &a[1..2]) {
        Ok(d) => d,
        Err(e) => return Value::Error(e),
    };
    data.sort_by(f64::total_cmp);
    let x = ev.read(&a[0]);
    let order = a.get(2).map_or(Value::Number(0.0), |o| ev.read(o));
    lift_values(&[x, order], |v| match (v[0].to_number(), v[1].to_number()) {
        (Err(e), _) | (_, Err(e)) => Value::Error(e),
        (Ok(x), Ok(order)) => {
            let (lt, le) = (data.partition_point(|&y| y < x), data.partition_point(|&y| y <= x));
            if lt == le {
                return Value::Error(ErrorKind::NA);
            }
            let ahead = if order == 0.0 { data.len() - le } else { lt };
            Value::Number(ahead as f64 + (le - lt + 1) as f64 / 2.0)
        }
    })
}

/// `MODE.MULT(x, ...)`: a column of every most frequent number (each
/// occurring at least twice), in the order they first appear; #N/A when
/// none repeats.
pub fn mode_mult(ev: &mut Eval, a: &[BExpr]) -> Value {
    let counted = match counted(ev, a) {
        Ok(c) => c,
        Err(e) => return Value::Error(e),
    };
    let best = counted.iter().map(|c| c.1).max().unwrap_or(0);
    if best < 2 {
        return Value::Error(ErrorKind::NA);
    }
    // Each mode once, where it first appears (-0 is 0).
    let mut seen = FxHashSet::default();
    let modes: Vec<f64> =
        counted.into_iter().filter(|&(x, n)| n == best && seen.insert((x + 0.0).to_bits())).map(|c| c.0).collect();
    let column = modes.iter().map(|&x| Value::Number(x)).collect();
    Value::Array(Arc::new(Array::new(modes.len(), 1, column)))
}
