//! TAKE, DROP, EXPAND, CHOOSEROWS, CHOOSECOLS, TOCOL, TOROW, WRAPROWS and
//! WRAPCOLS: results made of an array's elements, picked or rearranged.
//! Counts are truncated; a negative count of TAKE, DROP, CHOOSEROWS and
//! CHOOSECOLS counts from the end.

use super::{array, at, build, done, element, fits, flag, int, pad, pick};
use crate::eval::{BExpr, Eval};
use crate::value::{Array, ErrorKind, MAX_ARRAY_CELLS, Value};
use std::ops::Range;

/// TAKE(array, rows, [columns]) and DROP(array, rows, [columns]): the
/// first (last, when negative) rows and columns, or all but them. An
/// omitted count keeps every row (column); a result with none is #CALC!.
pub fn take_drop(ev: &mut Eval, a: &[BExpr], take: bool) -> Value {
    done(take_drop_of(ev, a, take))
}

fn take_drop_of(ev: &mut Eval, a: &[BExpr], take: bool) -> Result<Value, ErrorKind> {
    let m = array(ev, &a[0])?;
    let (r, c) = (int(ev, a, 1)?, int(ev, a, 2)?);
    let rows: Vec<usize> = span(m.rows, r, take).collect();
    let cols: Vec<usize> = span(m.cols, c, take).collect();
    pick(&m, &rows, &cols)
}

/// The indices TAKE (`take`) or DROP keeps of `n`, given the count `k`.
fn span(n: usize, k: Option<i64>, take: bool) -> Range<usize> {
    let Some(k) = k else { return 0..n };
    let m = usize::try_from(k.unsigned_abs()).unwrap_or(usize::MAX).min(n);
    match (take, k >= 0) {
        (true, true) => 0..m,
        (true, false) => n - m..n,
        (false, true) => m..n,
        (false, false) => 0..n - m,
    }
}

/// EXPAND(array, rows, [columns], [pad_with]): the array grown to `rows ×
/// columns` (an omitted count keeps the array's), new cells `pad_with`
/// (default #N/A). A count below the array's is #VALUE!.
pub fn expand(ev: &mut Eval, a: &[BExpr]) -> Value {
    done(expand_of(ev, a))
}

fn expand_of(ev: &mut Eval, a: &[BExpr]) -> Result<Value, ErrorKind> {
    let m = array(ev, &a[0])?;
    let (r, c) = (int(ev, a, 1)?, int(ev, a, 2)?);
    let pad = pad(ev, a, 3);
    let target = |k: Option<i64>, n: usize| match k {
        None => Ok(n),
        Some(k) if k < n as i64 => Err(ErrorKind::Value),
        Some(k) => Ok(usize::try_from(k).unwrap_or(usize::MAX).min(MAX_ARRAY_CELLS as usize + 1)),
    };
    let (rows, cols) = (target(r, m.rows)?, target(c, m.cols)?);
    let (m, pad) = (&m, &pad);
    build(
        rows,
        cols,
        (0..rows)
            .flat_map(|r| (0..cols).map(move |c| if r < m.rows && c < m.cols { at(m, r, c) } else { pad.clone() })),
    )
}

/// CHOOSEROWS(array, row_num1, ...) and CHOOSECOLS(array, col_num1, ...):
/// the rows (columns) numbered, in the order given; each number may be an
/// array of numbers, negative counting from the end. Zero or past the
/// array is #VALUE!.
pub fn choose(ev: &mut Eval, a: &[BExpr], by_rows: bool) -> Value {
    done(choose_of(ev, a, by_rows))
}

fn choose_of(ev: &mut Eval, a: &[BExpr], by_rows: bool) -> Result<Value, ErrorKind> {
    let m = array(ev, &a[0])?;
    let (n, other) = if by_rows { (m.rows, m.cols) } else { (m.cols, m.rows) };
    let mut picked = Vec::new();
    for e in &a[1..] {
        let nums = array(ev, e)?;
        if (picked.len() + nums.len()) as u64 * other as u64 > MAX_ARRAY_CELLS {
            return Err(ErrorKind::Num);
        }
        for i in 0..nums.len() {
            let k = nums.at(i).to_number()?.trunc();
            let i = k.abs();
            if k == 0.0 || i > n as f64 {
                return Err(ErrorKind::Value);
            }
            picked.push(if k > 0.0 { i as usize - 1 } else { n - i as usize });
        }
    }
    let all: Vec<usize> = (0..other).collect();
    if by_rows { pick(&m, &picked, &all) } else { pick(&m, &all, &picked) }
}

/// TOCOL(array, [ignore], [scan_by_column]) and TOROW(...): the elements
/// in one column (row), read row by row or, with `scan_by_column`, column
/// by column; `ignore` 1 leaves out blanks, 2 errors, 3 both (0 or omitted
/// keeps all; anything else is #VALUE!).
pub fn to_line(ev: &mut Eval, a: &[BExpr], column: bool) -> Value {
    done(to_line_of(ev, a, column))
}

fn to_line_of(ev: &mut Eval, a: &[BExpr], column: bool) -> Result<Value, ErrorKind> {
    let m = array(ev, &a[0])?;
    let ignore = int(ev, a, 1)?.unwrap_or(0);
    let by_col = flag(ev, a, 2)?;
    if !(0..=3).contains(&ignore) {
        return Err(ErrorKind::Value);
    }
    let keep = |v: &Value| match v {
        Value::Empty => ignore & 1 == 0,
        Value::Error(_) => ignore & 2 == 0,
        _ => true,
    };
    let items: Vec<Value> = scan(&m, by_col).filter(keep).map(element).collect();
    let n = items.len();
    if column { build(n, 1, items.into_iter()) } else { build(1, n, items.into_iter()) }
}

/// The elements of `m` row by row, or column by column.
fn scan(m: &Array, by_col: bool) -> impl Iterator<Item = Value> + '_ {
    let (outer, inner) = if by_col { (m.cols, m.rows) } else { (m.rows, m.cols) };
    (0..outer)
        .flat_map(move |o| (0..inner).map(move |i| if by_col { m.at(i * m.cols + o) } else { m.at(o * m.cols + i) }))
}

/// WRAPROWS(vector, wrap_count, [pad_with]) and WRAPCOLS(...): a row or
/// column of values laid out in rows (columns) of `wrap_count`, the last
/// one padded with `pad_with` (default #N/A). A vector that is neither a
/// row nor a column is #VALUE!; a count below 1 is #NUM!.
pub fn wrap(ev: &mut Eval, a: &[BExpr], rows: bool) -> Value {
    done(wrap_of(ev, a, rows))
}

fn wrap_of(ev: &mut Eval, a: &[BExpr], by_rows: bool) -> Result<Value, ErrorKind> {
    let m = array(ev, &a[0])?;
    let count = int(ev, a, 1)?.unwrap_or(0);
    let pad = pad(ev, a, 2);
    if m.rows != 1 && m.cols != 1 {
        return Err(ErrorKind::Value);
    }
    if count < 1 {
        return Err(ErrorKind::Num);
    }
    let n = m.len();
    let width = usize::try_from(count).unwrap_or(usize::MAX).min(MAX_ARRAY_CELLS as usize + 1);
    let lines = n.div_ceil(width);
    let (rows, cols) = if by_rows { (lines, width) } else { (width, lines) };
    fits(rows, cols)?;
    let (m, pad) = (&m, &pad);
    let item = move |r: usize, c: usize| {
        let k = if by_rows { r * width + c } else { c * width + r };
        if k < n { element(m.at(k)) } else { pad.clone() }
    };
    build(rows, cols, (0..rows).flat_map(move |r| (0..cols).map(move |c| item(r, c))))
}
