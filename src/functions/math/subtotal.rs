//! SUBTOTAL and AGGREGATE: one of a list of aggregates, by number, over
//! the cells of references, leaving out the cells whose own formula calls
//! SUBTOTAL or AGGREGATE (so a grand total over subtotals does not count
//! them twice; the engine knows which cells those are, see
//! [`Eval::calls_subtotal`]) and, for AGGREGATE as its option says, error
//! values. dataflow has no hidden rows and no filters: SUBTOTAL's 101–111
//! are its 1–11, and AGGREGATE's options that ignore hidden rows are those
//! that do not.
//!
//! The values kept are handed as one column to the registry's own
//! function (AVERAGE, COUNT, COUNTA, MAX, MIN, PRODUCT, SUM, MEDIAN, MODE,
//! LARGE, SMALL), which reads them as it reads a reference. The variances,
//! standard deviations, percentiles and quartiles are computed here
//! ([`spread`], [`percentile`]).

use crate::address::{Area, CellAddr};
use crate::eval::{BExpr, Eval};
use crate::functions::{FnSpec, args, lookup};
use crate::value::{Array, ErrorKind, MAX_ARRAY_CELLS, Value};
use std::sync::{Arc, OnceLock};

/// What an aggregate's number stands for.
#[derive(Clone, Copy)]
enum Stat {
    /// The registry's function of that name.
    Registry(&'static str),
    /// A variance (sample when `true`), its square root when `root`.
    Spread { sample: bool, root: bool },
    /// A percentile: inclusive or exclusive, of a fraction or a quartile.
    Percentile { exclusive: bool, quartile: bool },
}

/// Function numbers 1 to 19 (SUBTOTAL has the first 11).
const STATS: [Stat; 19] = [
    Stat::Registry("AVERAGE"),
    Stat::Registry("COUNT"),
    Stat::Registry("COUNTA"),
    Stat::Registry("MAX"),
    Stat::Registry("MIN"),
    Stat::Registry("PRODUCT"),
    Stat::Spread { sample: true, root: true },
    Stat::Spread { sample: false, root: true },
    Stat::Registry("SUM"),
    Stat::Spread { sample: true, root: false },
    Stat::Spread { sample: false, root: false },
    Stat::Registry("MEDIAN"),
    Stat::Registry("MODE"),
    Stat::Registry("LARGE"),
    Stat::Registry("SMALL"),
    Stat::Percentile { exclusive: false, quartile: false },
    Stat::Percentile { exclusive: false, quartile: true },
    Stat::Percentile { exclusive: true, quartile: false },
    Stat::Percentile { exclusive: true, quartile: true },
];

/// What a walk over the cells leaves out.
#[derive(Clone, Copy)]
struct Skip {
    nested: bool,
    errors: bool,
}

/// SUBTOTAL(function_num, ref1, ...): 1–11 or 101–111; the arguments must
/// be references.
pub fn subtotal(ev: &mut Eval, a: &[BExpr]) -> Value {
    let which = match args::number(ev, &a[0]).map(f64::trunc) {
        Ok(n @ 1.0..=11.0) => n,
        Ok(n @ 101.0..=111.0) => n - 100.0,
        Ok(_) => return Value::Error(ErrorKind::Value),
        Err(e) => return Value::Error(e),
    };
    match referenced(ev, &a[1..], Skip { nested: true, errors: false }) {
        Ok(values) => apply(ev, STATS[which as usize - 1], values, None),
        Err(e) => Value::Error(e),
    }
}

/// AGGREGATE(function_num, [options], ref1, ...) for 1–13, or
/// AGGREGATE(function_num, [options], array, k) for 14–19. Options 0–7
/// (0 when omitted): 0–3 leave out nested SUBTOTAL and AGGREGATE cells, 2,
/// 3, 6 and 7 error values.
pub fn aggregate(ev: &mut Eval, a: &[BExpr]) -> Value {
    let which = match args::number(ev, &a[0]).map(f64::trunc) {
        Ok(n @ 1.0..=19.0) => n as usize,
        Ok(_) => return Value::Error(ErrorKind::Value),
        Err(e) => return Value::Error(e),
    };
    let option = match args::given(a, 1).map_or(Ok(0.0), |e| args::number(ev, e)).map(f64::trunc) {
        Ok(o @ 0.0..=7.0) => o as u8,
        Ok(_) => return Value::Error(ErrorKind::Value),
        Err(e) => return Value::Error(e),
    };
    let skip = Skip { nested: option <= 3, errors: matches!(option, 2 | 3 | 6 | 7) };
    if which <= 13 {
        return match referenced(ev, &a[2..], skip) {
            Ok(values) => apply(ev, STATS[which - 1], values, None),
            Err(e) => Value::Error(e),
        };
    }
    // The array form: one array (any array, evaluated as an array formula)
    // and k.
    let [array, k] = &a[2..] else { return Value::Error(ErrorKind::Value) };
    let values = match ev.eval_array(array) {
        Value::Ref(area) => area_values(ev, &area, skip, Vec::new()),
        v if v.ref_array().is_some() => referenced_value(ev, v, skip, Vec::new()),
        v => match ev.array_value(v) {
            Value::Array(arr) => Ok(kept(arr.values().iter().cloned(), skip)),
            v => Ok(kept(std::iter::once(v), skip)),
        },
    };
    let k = ev.read(k);
    match values {
        Ok(values) => apply(ev, STATS[which - 1], values, Some(k)),
        Err(e) => Value::Error(e),
    }
}

/// The values kept of the cells of reference arguments, in order; an
/// argument that is not a reference is #VALUE!.
fn referenced(ev: &mut Eval, refs: &[BExpr], skip: Skip) -> Result<Vec<Value>, ErrorKind> {
    let mut out = Vec::new();
    for r in refs {
        let v = ev.eval(r);
        out = referenced_value(ev, v, skip, out)?;
    }
    Ok(out)
}

/// [`referenced`] of one argument evaluated: a reference, or several.
fn referenced_value(ev: &Eval, v: Value, skip: Skip, mut out: Vec<Value>) -> Result<Vec<Value>, ErrorKind> {
    match v {
        Value::Ref(area) => area_values(ev, &area, skip, out),
        Value::Error(e) => Err(e),
        v => {
            let areas = v.area_list().ok_or(ErrorKind::Value)?;
            for area in &areas {
                out = area_values(ev, area, skip, out)?;
            }
            Ok(out)
        }
    }
}

/// The non-empty values of `area`'s stored cells, row by row, less what
/// `skip` leaves out, added to `out` (#NUM! past [`MAX_ARRAY_CELLS`]).
fn area_values(ev: &Eval, area: &Area, skip: Skip, mut out: Vec<Value>) -> Result<Vec<Value>, ErrorKind> {
    let (rows, cols) = ev.extent(area.sheet);
    for row in area.r0..rows.min(area.r1.saturating_add(1)) {
        for col in area.c0..cols.min(area.c1.saturating_add(1)) {
            let cell = CellAddr::new(area.sheet, row, col);
            if skip.nested && ev.calls_subtotal(cell) {
                continue;
            }
            out.extend(kept(std::iter::once(ev.cell_value(cell)), skip));
        }
        if out.len() as u64 > MAX_ARRAY_CELLS {
            return Err(ErrorKind::Num);
        }
    }
    Ok(out)
}

/// The values that count: not empty, and not errors when those are skipped.
fn kept(values: impl Iterator<Item = Value>, skip: Skip) -> Vec<Value> {
    values.filter(|v| !(v.is_empty() || (skip.errors && v.is_error()))).collect()
}

/// The statistic of the values kept (a column; a lone empty value when
/// none is), with `k` for the array form.
fn apply(ev: &mut Eval, stat: Stat, mut values: Vec<Value>, k: Option<Value>) -> Value {
    if values.is_empty() {
        values.push(Value::Empty);
    }
    let column = Value::Array(Arc::new(Array::new(values.len(), 1, values)));
    match stat {
        Stat::Registry(name) => match registry(name) {
            Some(f) => {
                let mut call = vec![BExpr::Const(column)];
                call.extend(k.map(BExpr::Const));
                (f.eval)(ev, &call)
            }
            None => Value::Error(ErrorKind::Value),
        },
        Stat::Spread { sample, root } => match numbers(&column) {
            Ok(x) => args::num_result(spread(&x, sample).map(|v| if root { v.sqrt() } else { v })),
            Err(e) => Value::Error(e),
        },
        Stat::Percentile { exclusive, quartile } => match numbers(&column) {
            Ok(mut x) => {
                x.sort_by(f64::total_cmp);
                let k = k.unwrap_or(Value::Empty);
                args::lift_values(&[k], |k| match k[0].to_number() {
                    Ok(k) => args::num_result(percentile(&x, k, exclusive, quartile)),
                    Err(e) => Value::Error(e),
                })
            }
            Err(e) => Value::Error(e),
        },
    }
}

/// The registry's function `name`, looked up once.
fn registry(name: &'static str) -> Option<&'static FnSpec> {
    static FOUND: OnceLock<Vec<(&'static str, Option<&'static FnSpec>)>> = OnceLock::new();
    let found = FOUND.get_or_init(|| {
        STATS.iter().filter_map(|s| if let Stat::Registry(n) = s { Some((*n, lookup(n))) } else { None }).collect()
    });
    found.iter().find(|(n, _)| *n == name).and_then(|(_, f)| *f)
}

/// The numbers of a column of values (others skipped; an error is the result).
fn numbers(column: &Value) -> Result<Vec<f64>, ErrorKind> {
    let Value::Array(a) = column else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for v in a.values() {
        match v {
            Value::Number(n) => out.push(*n),
            Value::Error(e) => return Err(*e),
            _ => {}
        }
    }
    Ok(out)
}

/// The variance of `x` about its mean, divided by n − 1 (`sample`) or n;
/// #DIV/0! with too few numbers.
fn spread(x: &[f64], sample: bool) -> Result<f64, ErrorKind> {
    let n = x.len() as f64;
    let divisor = if sample { n - 1.0 } else { n };
    if divisor <= 0.0 {
        return Err(ErrorKind::Div0);
    }
    let mean = x.iter().sum::<f64>() / n;
    Ok(x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / divisor)
}

/// The `k`-th percentile of the sorted `x` (for a quartile, `k` is the
/// quartile, truncated: 0–4 inclusive, 1–3 exclusive), interpolated
/// between neighbours: at rank k·(n−1) from the first (inclusive, k from 0
/// to 1) or k·(n+1) from 1 (exclusive, a rank within 1 to n); otherwise,
/// or without numbers, #NUM!.
fn percentile(x: &[f64], k: f64, exclusive: bool, quartile: bool) -> Result<f64, ErrorKind> {
    let k = if quartile { k.trunc() / 4.0 } else { k };
    let n = x.len() as f64;
    let rank = if exclusive { k * (n + 1.0) - 1.0 } else { k * (n - 1.0) };
    let valid = !x.is_empty() && (0.0..=1.0).contains(&k) && rank >= 0.0 && rank <= n - 1.0;
    if !valid || (exclusive && (k == 0.0 || k == 1.0)) {
        return Err(ErrorKind::Num);
    }
    let low = rank.floor();
    let (a, b) = (x[low as usize], x[(low as usize + 1).min(x.len() - 1)]);
    Ok(a + (rank - low) * (b - a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_and_spreads() {
        let x = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(percentile(&x, 0.3, false, false), Ok(1.9));
        assert_eq!(percentile(&x, 1.0, false, true), Ok(1.75));
        assert_eq!(percentile(&x, 0.25, true, false), Ok(1.25));
        assert_eq!(percentile(&x, 0.1, true, false), Err(ErrorKind::Num));
        assert_eq!(percentile(&x, 4.0, true, true), Err(ErrorKind::Num));
        assert_eq!(percentile(&[], 0.5, false, false), Err(ErrorKind::Num));
        assert_eq!(spread(&x, false), Ok(1.25));
        assert_eq!(spread(&[1.0], true), Err(ErrorKind::Div0));
    }
}
