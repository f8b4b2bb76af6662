//! GROUPBY, PIVOTBY (`group/pivot.rs`) and PERCENTOF (Excel 365): a
//! summary of rows grouped by their key columns (`group/layout.rs`), each
//! group's values aggregated by a function (a LAMBDA or a function's name;
//! one that takes no single argument, as PERCENTOF, gets the group's
//! values and all values), with grand totals and subtotals, sorted,
//! filtered, with or without field headers.
//! <https://support.microsoft.com/en-us/Excel/functions/groupby-function>

mod layout;
mod pivot;

use super::helpers::one;
use super::{Callable, callable, invoke, takes};
use crate::eval::{BExpr, Eval};
use crate::functions::args::{array, given, number};
use crate::value::{Array, ErrorKind, MAX_ARRAY_CELLS, Value};
use layout::{Axis, sort_order};
use std::sync::Arc;

pub(super) use pivot::pivotby;

type Res<T> = Result<T, ErrorKind>;

/// `GROUPBY(row_fields, values, function, [field_headers], [total_depth],
/// [sort_order], [filter_array], [field_relationship])`.
pub(super) fn groupby(ev: &mut Eval, args: &[BExpr]) -> Value {
    match group(ev, args) {
        Ok(v) => v,
        Err(e) => Value::Error(e),
    }
}

/// An optional whole-number argument.
fn option(ev: &mut Eval, args: &[BExpr], i: usize) -> Res<Option<i64>> {
    match given(args, i) {
        Some(a) => Ok(Some(number(ev, a)?.trunc() as i64)),
        None => Ok(None),
    }
}

/// What is aggregated: the values, the function, and the rows kept.
struct Data<'f> {
    values: Arc<Array>,
    f: Callable<'f>,
    /// Whether the function takes the group's values and all values (PERCENTOF).
    with_all: bool,
    /// The data rows kept (headers and filtered rows left out).
    rows: Vec<usize>,
}

impl<'f> Data<'f> {
    /// The values, the function and the rows of `keys` kept: past the
    /// header row, where `filter` (as tall as the keys) holds.
    fn new(ev: &mut Eval, values: Arc<Array>, f: &'f BExpr, start: usize, filter: Option<&BExpr>) -> Res<Self> {
        let f = callable(f).ok_or(ErrorKind::Value)?;
        let with_all = !takes(&f, 1);
        if with_all && !takes(&f, 2) {
            return Err(ErrorKind::Value);
        }
        let mut rows: Vec<usize> = (start..values.rows).collect();
        if let Some(a) = filter {
            let filter = array(ev, a)?;
            if filter.len() != values.rows {
                return Err(ErrorKind::Value);
            }
            let mut kept = Vec::with_capacity(rows.len());
            for r in rows {
                if filter.values()[r].to_bool()? {
                    kept.push(r);
                }
            }
            rows = kept;
        }
        if rows.is_empty() {
            return Err(ErrorKind::Calc);
        }
        Ok(Data { values, f, with_all, rows })
    }

    /// The function of value column `c` over `rows` (with `all` for a
    /// function taking two arguments).
    fn aggregate(&self, ev: &mut Eval, rows: &[usize], all: &[usize], c: usize) -> Value {
        let mut args = vec![column(&self.values, rows, c)];
        if self.with_all {
            args.push(column(&self.values, all, c));
        }
        let v = invoke(ev, &self.f, args);
        one(ev, v)
    }
}

/// Whether the data has a header row, and whether headers are shown:
/// `field_headers` 0 no, 1 yes (hidden), 3 yes (shown); automatic when
/// the first value is text and the second a number, shown with several
/// key columns. 2 (generated headers) is #VALUE! here.
fn headers(ev: &mut Eval, args: &[BExpr], i: usize, values: &Array, levels: usize) -> Res<(bool, bool)> {
    Ok(match option(ev, args, i)? {
        None => {
            let has = values.rows > 1
                && matches!(values.get(0, 0), Value::Text(_))
                && matches!(values.get(1, 0), Value::Number(_));
            (has, has && levels > 1)
        }
        Some(0) => (false, false),
        Some(1) => (true, false),
        Some(3) => (true, true),
        Some(_) => return Err(ErrorKind::Value),
    })
}

/// The totals' depth: automatic is every level; a table relationship
/// (`table`) has no subtotals.
fn depth(ev: &mut Eval, args: &[BExpr], i: usize, levels: usize, table: bool) -> Res<i64> {
    let d = option(ev, args, i)?.unwrap_or(levels as i64);
    Ok(if table { d.clamp(-1, 1) } else { d })
}

fn group(ev: &mut Eval, args: &[BExpr]) -> Res<Value> {
    let keys = array(ev, &args[0])?;
    let values = array(ev, &args[1])?;
    if keys.rows != values.rows {
        return Err(ErrorKind::Value);
    }
    let (has, show) = headers(ev, args, 3, &values, keys.cols)?;
    let table = match option(ev, args, 7)? {
        None | Some(0) => false,
        Some(1) => true,
        Some(_) => return Err(ErrorKind::Value),
    };
    let depth = depth(ev, args, 4, keys.cols, table)?;
    let sort = match given(args, 5) {
        Some(a) => sort_order(&*array(ev, a)?, keys.cols + values.cols)?,
        None => vec![1],
    };
    let data = Data::new(ev, values, &args[2], usize::from(has), given(args, 6))?;
    let axis = Axis { keys: &keys, depth, sort: &sort };
    let all = data.rows.clone();
    let lines = axis.lines(ev, &data.rows, &mut |ev, rows, c| data.aggregate(ev, rows, &all, c));
    let width = keys.cols + data.values.cols;
    if (lines.len() + 1) as u64 * width as u64 > MAX_ARRAY_CELLS {
        return Err(ErrorKind::Num);
    }
    let mut out = Vec::with_capacity((lines.len() + 1) * width);
    if show {
        out.extend((0..keys.cols).map(|c| keys.get(0, c).clone()));
        out.extend((0..data.values.cols).map(|c| data.values.get(0, c).clone()));
    }
    for line in lines {
        out.extend(line.labels);
        for c in 0..data.values.cols {
            out.push(data.aggregate(ev, &line.rows, &all, c));
        }
    }
    let rows = out.len() / width;
    Ok(Value::Array(Arc::new(Array::new(rows, width, out))))
}

/// Column `c` of `a` at `rows`, as a one-column array.
fn column(a: &Array, rows: &[usize], c: usize) -> Value {
    let data = rows.iter().map(|&r| a.get(r, c).clone()).collect();
    Value::Array(Arc::new(Array::new(rows.len(), 1, data)))
}

/// `PERCENTOF(data_subset, data_all)`: the subset's sum over the whole's
/// (as SUM adds each); a zero whole is #DIV/0!.
/// <https://support.microsoft.com/en-us/Excel/percentof-function>
pub(super) fn percentof(ev: &mut Eval, args: &[BExpr]) -> Value {
    let Some(sum) = crate::functions::lookup("SUM") else { return Value::Error(ErrorKind::Value) };
    let part = (sum.eval)(ev, &args[..1]);
    let all = (sum.eval)(ev, &args[1..2]);
    match (part.to_number(), all.to_number()) {
        (Err(e), _) | (_, Err(e)) => Value::Error(e),
        (Ok(_), Ok(0.0)) => Value::Error(ErrorKind::Div0),
        (Ok(p), Ok(a)) => Value::num(p / a),
    }
}
