//! GROUPBY, PIVOTBY and PERCENTOF (Excel 365): a
//! summary of rows grouped by their key columns (`group/layout.rs`), each
//! group's values aggregated by a function or a vector of functions
//! (`group/measure.rs`: a LAMBDA or a function's name; one that takes no
//! single argument, as PERCENTOF, gets the group's values and the
//! whole's), with grand totals and subtotals, sorted, filtered, with or
//! without field headers (read, shown or generated), laid out by
//! `group/table.rs`.
//! PIVOTBY groups by column fields across the top as well.
//! <https://support.microsoft.com/en-us/Excel/functions/groupby-function>
//! <https://support.microsoft.com/en-us/Excel/functions/pivotby-function>

mod layout;
mod measure;
mod table;

use crate::eval::{BExpr, Eval};
use crate::functions::args::{array, given, number};
use crate::value::{Array, ErrorKind, Value};
use layout::{Axis, sort_order};
use measure::Measures;
use table::{Names, Summary};

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

/// `field_headers`: whether the data has a header row, and whether field
/// names are shown and generated.
#[derive(Clone, Copy)]
struct Headers {
    has: bool,
    show: bool,
    generate: bool,
}

/// Reads `field_headers`: 0 no, 1 yes (hidden), 2 no but generated, 3
/// yes and shown; automatic when the first value is text and the second
/// a number, shown with several key levels (`levels`).
fn headers(ev: &mut Eval, args: &[BExpr], i: usize, values: &Array, levels: usize) -> Res<Headers> {
    let (has, show) = match option(ev, args, i)? {
        None => {
            let has = values.rows > 1
                && matches!(values.get(0, 0), Value::Text(_))
                && matches!(values.get(1, 0), Value::Number(_));
            (has, has && levels > 1)
        }
        Some(0) => (false, false),
        Some(1) => (true, false),
        Some(2) => (false, true),
        Some(3) => (true, true),
        Some(_) => return Err(ErrorKind::Value),
    };
    Ok(Headers { has, show, generate: show && !has })
}

impl Headers {
    /// The names of `fields`' columns when shown: their first row's, or
    /// generated (`prefix 1`, `prefix 2`, ...).
    fn names(&self, fields: &Array, prefix: &str) -> Vec<Value> {
        (0..fields.cols)
            .map(|c| if self.generate { Value::text(&format!("{prefix} {}", c + 1)) } else { fields.get(0, c).clone() })
            .collect()
    }
}

/// The totals' depth: automatic is every level; a table relationship
/// (`table`) has no subtotals.
fn depth(ev: &mut Eval, args: &[BExpr], i: usize, levels: usize, table: bool) -> Res<i64> {
    let d = option(ev, args, i)?.unwrap_or(levels as i64);
    Ok(if table { d.clamp(-1, 1) } else { d })
}

/// A sort order argument `i` over `columns` key and measure columns
/// (ascending by the first key by default).
fn sorting(ev: &mut Eval, args: &[BExpr], i: usize, columns: usize) -> Res<Vec<i64>> {
    match given(args, i) {
        Some(a) => sort_order(&*array(ev, a)?, columns),
        None => Ok(vec![1]),
    }
}

fn group(ev: &mut Eval, args: &[BExpr]) -> Res<Value> {
    let keys = array(ev, &args[0])?;
    let values = array(ev, &args[1])?;
    if keys.rows != values.rows {
        return Err(ErrorKind::Value);
    }
    let heads = headers(ev, args, 3, &values, keys.cols)?;
    let table = match option(ev, args, 7)? {
        None | Some(0) => false,
        Some(1) => true,
        Some(_) => return Err(ErrorKind::Value),
    };
    let depth = depth(ev, args, 4, keys.cols, table)?;
    let names = heads.show.then(|| Names {
        rows: heads.names(&keys, "Row Field"),
        cols: Vec::new(),
        values: heads.names(&values, "Value"),
    });
    let measures = Measures::new(ev, values, &args[2], usize::from(heads.has), given(args, 6))?;
    let sort = sorting(ev, args, 5, keys.cols + measures.count())?;
    let rows = Axis { keys: &keys, depth, sort: &sort };
    Summary { rows, cols: None, measures: &measures, names, relative: 0 }.build(ev)
}

/// `PIVOTBY(row_fields, col_fields, values, function, [field_headers],
/// [row_total_depth], [row_sort_order], [col_total_depth],
/// [col_sort_order], [filter_array], [relative_to])`: `relative_to`
/// (the whole a function of two arguments, as PERCENTOF, compares with)
/// is 0 the column's total, 1 the row's, 2 the grand total, 3 the parent
/// column's total in the same row, 4 the parent row's total in the same
/// column (as a PivotTable's "% of Parent Column/Row Total").
pub(super) fn pivotby(ev: &mut Eval, args: &[BExpr]) -> Value {
    match pivot(ev, args) {
        Ok(v) => v,
        Err(e) => Value::Error(e),
    }
}

fn pivot(ev: &mut Eval, args: &[BExpr]) -> Res<Value> {
    let row_keys = array(ev, &args[0])?;
    let col_keys = array(ev, &args[1])?;
    let values = array(ev, &args[2])?;
    if row_keys.rows != values.rows || col_keys.rows != values.rows {
        return Err(ErrorKind::Value);
    }
    let heads = headers(ev, args, 4, &values, row_keys.cols.max(col_keys.cols))?;
    let row_depth = depth(ev, args, 5, row_keys.cols, false)?;
    let col_depth = depth(ev, args, 7, col_keys.cols, false)?;
    let relative = option(ev, args, 10)?.unwrap_or(0);
    if !(0..=4).contains(&relative) {
        return Err(ErrorKind::Value);
    }
    let names = heads.show.then(|| Names {
        rows: heads.names(&row_keys, "Row Field"),
        cols: heads.names(&col_keys, "Col Field"),
        values: heads.names(&values, "Value"),
    });
    let measures = Measures::new(ev, values, &args[3], usize::from(heads.has), given(args, 9))?;
    let row_sort = sorting(ev, args, 6, row_keys.cols + measures.count())?;
    let col_sort = sorting(ev, args, 8, col_keys.cols + measures.count())?;
    let rows = Axis { keys: &row_keys, depth: row_depth, sort: &row_sort };
    let cols = Some(Axis { keys: &col_keys, depth: col_depth, sort: &col_sort });
    Summary { rows, cols, measures: &measures, names, relative }.build(ev)
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
