//! Excel 365's array-shaping functions, each returning an array: FILTER and
//! UNIQUE (`filter`), SORT and SORTBY (`sort`), VSTACK and HSTACK
//! (`stack`), TAKE, DROP, EXPAND, CHOOSEROWS, CHOOSECOLS, TOCOL, TOROW,
//! WRAPROWS and WRAPCOLS (`shape`), and RANDARRAY here. Their array
//! arguments are evaluated as array formulas in any cell (`Arg::Array`),
//! a reference giving its cells and a scalar being 1×1; an empty cell
//! copied into a result reads 0, as Excel shows it. A plain cell shows a
//! result's top-left element; INDEX, ROWS, SUM and names use all of it.
//! A result with no element is #CALC! (Excel's empty array); one past
//! [`MAX_ARRAY_CELLS`] elements is #NUM!, before it is built, and every
//! sort is bounded by [`MAX_WORK`] comparisons.

mod filter;
mod shape;
pub(crate) mod sort;
mod stack;

use super::Excel::{V2021, V2024};
use super::{Arg, FnSpec, VARIADIC, args};
use crate::eval::{BExpr, Eval};
use crate::value::{Array, ErrorKind, MAX_ARRAY_CELLS, MAX_WORK, Value, collect_array};
use std::sync::Arc;

/// An array, then arguments read as values.
const ARRAY_FIRST: &[Arg] = &[Arg::Array, Arg::Value];
/// Every argument an array.
const ARRAYS: &[Arg] = &[Arg::Array];

pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("FILTER", 2, 3, filter::filter)
        .args(&[Arg::Array, Arg::Array, Arg::Value])
        .since(V2021)
        .xlws()
        .openformula("COM.MICROSOFT.FILTER")
        .not_in_libreoffice(),
    FnSpec::new("UNIQUE", 1, 3, filter::unique)
        .args(ARRAY_FIRST)
        .since(V2021)
        .openformula("COM.MICROSOFT.UNIQUE")
        .not_in_libreoffice(),
    FnSpec::new("SORT", 1, 4, sort::sort)
        .args(ARRAYS)
        .since(V2021)
        .xlws()
        .openformula("COM.MICROSOFT.SORT")
        .not_in_libreoffice(),
    FnSpec::new("SORTBY", 2, VARIADIC, sort::sortby)
        .args(ARRAYS)
        .since(V2021)
        .openformula("COM.MICROSOFT.SORTBY")
        .not_in_libreoffice(),
    FnSpec::new("RANDARRAY", 0, 5, randarray)
        .volatile()
        .since(V2021)
        .openformula("COM.MICROSOFT.RANDARRAY")
        .not_in_libreoffice(),
    FnSpec::new("VSTACK", 1, VARIADIC, |ev, a| stack::stack(ev, a, true))
        .args(ARRAYS)
        .since(V2024)
        .openformula("COM.MICROSOFT.VSTACK")
        .not_in_libreoffice(),
    FnSpec::new("HSTACK", 1, VARIADIC, |ev, a| stack::stack(ev, a, false))
        .args(ARRAYS)
        .since(V2024)
        .openformula("COM.MICROSOFT.HSTACK")
        .not_in_libreoffice(),
    FnSpec::new("TAKE", 2, 3, |ev, a| shape::take_drop(ev, a, true))
        .args(ARRAY_FIRST)
        .since(V2024)
        .openformula("COM.MICROSOFT.TAKE")
        .not_in_libreoffice(),
    FnSpec::new("DROP", 2, 3, |ev, a| shape::take_drop(ev, a, false))
        .args(ARRAY_FIRST)
        .since(V2024)
        .openformula("COM.MICROSOFT.DROP")
        .not_in_libreoffice(),
    FnSpec::new("EXPAND", 2, 4, shape::expand)
        .args(ARRAY_FIRST)
        .since(V2024)
        .openformula("COM.MICROSOFT.EXPAND")
        .not_in_libreoffice(),
    FnSpec::new("CHOOSEROWS", 2, VARIADIC, |ev, a| shape::choose(ev, a, true))
        .args(ARRAYS)
        .since(V2024)
        .openformula("COM.MICROSOFT.CHOOSEROWS")
        .not_in_libreoffice(),
    FnSpec::new("CHOOSECOLS", 2, VARIADIC, |ev, a| shape::choose(ev, a, false))
        .args(ARRAYS)
        .since(V2024)
        .openformula("COM.MICROSOFT.CHOOSECOLS")
        .not_in_libreoffice(),
    FnSpec::new("TOCOL", 1, 3, |ev, a| shape::to_line(ev, a, true))
        .args(ARRAY_FIRST)
        .since(V2024)
        .openformula("COM.MICROSOFT.TOCOL")
        .not_in_libreoffice(),
    FnSpec::new("TOROW", 1, 3, |ev, a| shape::to_line(ev, a, false))
        .args(ARRAY_FIRST)
        .since(V2024)
        .openformula("COM.MICROSOFT.TOROW")
        .not_in_libreoffice(),
    FnSpec::new("WRAPROWS", 2, 3, |ev, a| shape::wrap(ev, a, true))
        .args(ARRAY_FIRST)
        .since(V2024)
        .openformula("COM.MICROSOFT.WRAPROWS")
        .not_in_libreoffice(),
    FnSpec::new("WRAPCOLS", 2, 3, |ev, a| shape::wrap(ev, a, false))
        .args(ARRAY_FIRST)
        .since(V2024)
        .openformula("COM.MICROSOFT.WRAPCOLS")
        .not_in_libreoffice(),
];

/// The value of a result, or its error.
fn done(r: Result<Value, ErrorKind>) -> Value {
    r.unwrap_or_else(Value::Error)
}

/// An element copied into a result: an empty cell reads 0.
fn element(v: Value) -> Value {
    match v {
        Value::Empty => Value::Number(0.0),
        v => v,
    }
}

/// Element (`r`, `c`) of `m`, as copied into a result.
fn at(m: &Array, r: usize, c: usize) -> Value {
    element(m.at(r * m.cols + c))
}

/// Whether a `rows × cols` result fits: #CALC! when empty, #NUM! past
/// [`MAX_ARRAY_CELLS`].
fn fits(rows: usize, cols: usize) -> Result<(), ErrorKind> {
    if rows == 0 || cols == 0 {
        Err(ErrorKind::Calc)
    } else if rows as u64 * cols as u64 > MAX_ARRAY_CELLS {
        Err(ErrorKind::Num)
    } else {
        Ok(())
    }
}

/// A `rows × cols` result from its elements, row by row ([`fits`] first).
fn build(rows: usize, cols: usize, items: impl Iterator<Item = Value>) -> Result<Value, ErrorKind> {
    fits(rows, cols)?;
    Ok(collect_array(rows, cols, items))
}

/// The rows `rows` and columns `cols` of `m`, in those orders.
fn pick(m: &Array, rows: &[usize], cols: &[usize]) -> Result<Value, ErrorKind> {
    build(rows.len(), cols.len(), rows.iter().flat_map(|&r| cols.iter().map(move |&c| at(m, r, c))))
}

/// How a condition (FILTER's include, SORTBY's by-array) lines up with
/// `m`: a column as tall picks rows (`true`), a row as wide columns; any
/// other shape is #VALUE!.
fn lines_up(by: &Array, m: &Array) -> Result<bool, ErrorKind> {
    if by.cols == 1 && by.rows == m.rows {
        Ok(true)
    } else if by.rows == 1 && by.cols == m.cols {
        Ok(false)
    } else {
        Err(ErrorKind::Value)
    }
}

/// Optional argument `i` as a whole number (truncated, saturating), `None`
/// when absent or omitted.
fn int(ev: &mut Eval, a: &[BExpr], i: usize) -> Result<Option<i64>, ErrorKind> {
    match args::given(a, i) {
        None => Ok(None),
        Some(e) => args::number(ev, e).map(|x| Some(x.trunc() as i64)),
    }
}

/// Optional argument `i` as a flag (nonzero is TRUE), FALSE when omitted.
fn flag(ev: &mut Eval, a: &[BExpr], i: usize) -> Result<bool, ErrorKind> {
    Ok(int_or_number(ev, a, i)?.is_some_and(|x| x != 0.0))
}

fn int_or_number(ev: &mut Eval, a: &[BExpr], i: usize) -> Result<Option<f64>, ErrorKind> {
    args::given(a, i).map(|e| args::number(ev, e)).transpose()
}

/// Optional argument `i` as the value padding a result, #N/A when omitted.
fn pad(ev: &mut Eval, a: &[BExpr], i: usize) -> Value {
    match args::given(a, i) {
        Some(e) => element(args::scalar(ev, e)),
        None => Value::Error(ErrorKind::NA),
    }
}

/// Whether sorting `n` items on `width` keys stays within [`MAX_WORK`]
/// comparisons (n log n of them, each reading up to `width` keys).
fn sortable(n: usize, width: usize) -> Result<(), ErrorKind> {
    let log = u64::from(usize::BITS - n.leading_zeros()) + 1;
    if (n as u64).saturating_mul(log).saturating_mul(width.max(1) as u64) > MAX_WORK {
        Err(ErrorKind::Num)
    } else {
        Ok(())
    }
}

/// RANDARRAY([rows], [columns], [min], [max], [integer]): `rows × columns`
/// numbers drawn from the engine's stream, as RAND draws, between `min`
/// (default 0) and `max` (default 1); with `integer`, whole numbers from
/// `min` to `max` inclusive. Counts below 1 and `min` above `max` are
/// #VALUE!, as are non-whole bounds with `integer`.
fn randarray(ev: &mut Eval, a: &[BExpr]) -> Value {
    done(randarray_of(ev, a))
}

fn randarray_of(ev: &mut Eval, a: &[BExpr]) -> Result<Value, ErrorKind> {
    let rows = int(ev, a, 0)?.unwrap_or(1);
    let cols = int(ev, a, 1)?.unwrap_or(1);
    let min = int_or_number(ev, a, 2)?.unwrap_or(0.0);
    let max = int_or_number(ev, a, 3)?.unwrap_or(1.0);
    let whole = flag(ev, a, 4)?;
    if rows < 1 || cols < 1 || min > max || (whole && (min.fract() != 0.0 || max.fract() != 0.0)) {
        return Err(ErrorKind::Value);
    }
    let (rows, cols) = (usize::try_from(rows).unwrap_or(usize::MAX), usize::try_from(cols).unwrap_or(usize::MAX));
    fits(rows, cols)?;
    let span = if whole { max - min + 1.0 } else { max - min };
    let nums = (0..rows * cols)
        .map(|_| {
            let x = min + ev.random() * span;
            if whole { x.floor().min(max) } else { x }
        })
        .collect();
    Ok(crate::value::numbers(rows, cols, nums))
}

/// The array argument `e` ([`args::array`]).
fn array(ev: &mut Eval, e: &BExpr) -> Result<Arc<Array>, ErrorKind> {
    args::array(ev, e)
}
