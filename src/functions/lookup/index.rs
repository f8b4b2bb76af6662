//! INDEX(reference or array, row, [column], [area]): on a reference the
//! selected sub-reference, unread (so `:`, SUM or ROW can use it as
//! such); on an array the selected values; with array indexes (inside
//! names) an array of single values, one per index. Its helpers pick the
//! area of a reference array, check the indexes and select the block.

use crate::address::{Area, CellAddr};
use crate::eval::{BExpr, Eval};
use crate::functions::args::{given, lift_values, number};
use crate::value::{self, ErrorKind, MAX_ARRAY_CELLS, Value};
use std::borrow::Cow;
use std::sync::Arc;

/// An index argument: truncated; negative is #VALUE!.
fn index_number(v: &Value) -> Result<u32, ErrorKind> {
    // The cast truncates (and saturates), so -1 < n < 0 is 0, as its
    // truncation -0 would be; no call to `trunc` on this hot path.
    let n = v.to_number()?;
    if n <= -1.0 { Err(ErrorKind::Value) } else { Ok(n.min(u32::MAX as f64) as u32) }
}

/// INDEX's selection in a `rows x cols` block: 0-based inclusive
/// `(r0, c0, r1, c1)`. With only a row index, a single row is indexed
/// along its columns; otherwise the row index picks a row (all columns).
/// Index 0 takes the whole row or column; past the edge is #REF!.
fn select(rows: u32, cols: u32, row: u32, col: Option<u32>) -> Result<(u32, u32, u32, u32), ErrorKind> {
    let (row, col) = match col {
        None if rows == 1 => (0, row),
        None => (row, 0),
        Some(c) => (row, c),
    };
    let span = |i: u32, n: u32| match i {
        0 => Ok((0, n - 1)),
        i if i <= n => Ok((i - 1, i - 1)),
        _ => Err(ErrorKind::Ref),
    };
    let ((r0, r1), (c0, c1)) = (span(row, rows)?, span(col, cols)?);
    Ok((r0, c0, r1, c1))
}

/// INDEX(reference or array, row, [column], [area]). On a reference the
/// result is the selected sub-reference, unread; `area` picks one of
/// several references (1 by default). With array indexes (inside names),
/// an array of the selected single values.
pub(super) fn index(ev: &mut Eval, args: &[BExpr]) -> Value {
    // Its first argument takes an array, as SUMPRODUCT's do: a computed one
    // is evaluated whole (`INDEX(ROW(A1:A3),2)` is 2); a reference stays one.
    let src = ev.eval_array(&args[0]);
    let src = match pick_area(ev, src, given(args, 3)) {
        Ok(src) => src,
        Err(e) => return Value::Error(e),
    };
    let row = ev.read(&args[1]);
    if args.len() == 2
        && let Some(v) = index_vector(&src, &row)
    {
        return v;
    }
    let col = args.get(2).map(|a| ev.read(a));
    let arrays = matches!(row, Value::Array(_)) || matches!(col, Some(Value::Array(_)));
    if arrays {
        // A reference's cells are read where the indexes pick them, not
        // copied whole (one pick per shelf of boards, not the shelf).
        if let (Value::Ref(a), Some(col)) = (&src, &col)
            && let Some(picked) = index_each(Source::Cells(ev, a), &row, col)
        {
            return picked;
        }
        let src = ev.array_value(src);
        if let (Value::Array(arr), Some(col)) = (&src, &col)
            && let Some(picked) = index_each(Source::Array(arr), &row, col)
        {
            return picked;
        }
        let vals = [row, col.unwrap_or(Value::Empty)];
        let one_index = args.len() == 2;
        return lift_values(&vals, |v| {
            let col = (!one_index).then_some(&v[1]);
            index_element(&src, &v[0], col).unwrap_or_else(Value::Error)
        });
    }
    index_one(&src, &row, col.as_ref()).unwrap_or_else(Value::Error)
}

/// INDEX of a dense row or column by one number (`INDEX(kept_digits, k)`,
/// every candidate cell of the Sudoku boards): the element, when the
/// index is inside; None for anything else, which takes the general path
/// (to the same element, or to its error or sub-array).
fn index_vector(src: &Value, row: &Value) -> Option<Value> {
    let (Value::Array(arr), Value::Number(n)) = (src, row) else { return None };
    let (nums, kind) = arr.as_dense()?;
    // `index_number`'s truncation: the cast saturates, so -1 < n < 1 is 0.
    let k = if *n > -1.0 { *n as usize } else { 0 };
    (arr.rows == 1 || arr.cols == 1).then_some(())?;
    (k >= 1).then(|| nums.get(k - 1).map(|&x| kind.value(x)))?
}

/// Where [`index_each`] picks its elements: an array, or the cells of a
/// reference, read one by one.
enum Source<'s, 'a> {
    Array(&'s value::Array),
    Cells(&'s Eval<'a>, &'s Area),
}

impl Source<'_, '_> {
    fn size(&self) -> (usize, usize) {
        match self {
            Source::Array(arr) => (arr.rows, arr.cols),
            Source::Cells(_, a) => (a.rows() as usize, a.cols() as usize),
        }
    }

    /// The element at row `r`, column `c` (from 0), inside the source.
    fn at(&self, r: usize, c: usize) -> Value {
        match self {
            Source::Array(arr) => arr.at(r * arr.cols + c),
            Source::Cells(ev, a) => ev.cell_value(CellAddr::new(a.sheet, a.r0 + r as u32, a.c0 + c as u32)),
        }
    }

    /// The source as INDEX's general path sees it, for a pair outside it
    /// (its error depends only on the source's size).
    fn value(&self) -> Value {
        match self {
            Source::Array(arr) => Value::Array(Arc::new((*arr).clone())),
            Source::Cells(_, a) => Value::Ref(**a),
        }
    }
}

/// INDEX of an array or a reference with row and column indexes that are
/// numbers or dense arrays of numbers stretching to one shape: each pair
/// picks one element directly (a pair outside the source takes the general
/// path, to its error). None for any other arguments.
fn index_each(src: Source, row: &Value, col: &Value) -> Option<Value> {
    let (rows, cols) = src.size();
    let (r, c) = (Indexes::new(row)?, Indexes::new(col)?);
    let (h, w) = (r.rows.max(c.rows), r.cols.max(c.cols));
    if !(r.fits(h, w) && c.fits(h, w)) || h as u64 * w as u64 > MAX_ARRAY_CELLS {
        return None;
    }
    // The element a pair picks, when inside the source.
    let slot = |i: usize, j: usize| {
        let (rt, ct) = (r.at(i, j).trunc(), c.at(i, j).trunc());
        (rt >= 1.0 && rt <= rows as f64 && ct >= 1.0 && ct <= cols as f64).then(|| (rt as usize - 1, ct as usize - 1))
    };
    let cells = || (0..h).flat_map(|i| (0..w).map(move |j| (i, j)));
    if let Source::Array(arr) = src
        && let Some((nums, kind)) = arr.as_dense()
        && let Some(picked) =
            cells().map(|(i, j)| slot(i, j).map(|(y, x)| nums[y * cols + x])).collect::<Option<Vec<f64>>>()
    {
        return Some(Value::Array(Arc::new(value::Array::dense(h, w, picked, kind))));
    }
    let pick = |(i, j): (usize, usize)| match slot(i, j) {
        Some((y, x)) => src.at(y, x),
        None => {
            let (x, y) = (Value::Number(r.at(i, j)), Value::Number(c.at(i, j)));
            index_element(&src.value(), &x, Some(&y)).unwrap_or_else(Value::Error)
        }
    };
    Some(value::collect_array(h, w, cells().map(pick)))
}

/// An index argument of [`index_each`]: a number or an array of numbers,
/// dense or not (the two must pick alike: whether the reference's cells
/// are read decides what a fold at binding keeps, and so the cycles).
struct Indexes<'a> {
    data: Cow<'a, [f64]>,
    rows: usize,
    cols: usize,
}

impl<'a> Indexes<'a> {
    fn new(v: &'a Value) -> Option<Indexes<'a>> {
        let (data, rows, cols) = match v {
            Value::Number(x) => (Cow::Borrowed(std::slice::from_ref(x)), 1, 1),
            Value::Array(a) => match a.as_dense() {
                Some((data, value::Kind::Number)) => (Cow::Borrowed(data), a.rows, a.cols),
                Some(_) => return None,
                None => {
                    let number = |v: &Value| if let Value::Number(x) = v { Some(*x) } else { None };
                    (Cow::Owned(a.values().iter().map(number).collect::<Option<_>>()?), a.rows, a.cols)
                }
            },
            _ => return None,
        };
        Some(Indexes { data, rows, cols })
    }
    /// Whether it stretches to `h` x `w` without #N/A elements.
    fn fits(&self, h: usize, w: usize) -> bool {
        (self.rows == h || self.rows == 1) && (self.cols == w || self.cols == 1)
    }
    fn at(&self, i: usize, j: usize) -> f64 {
        let (i, j) = (if self.rows == 1 { 0 } else { i }, if self.cols == 1 { 0 } else { j });
        self.data[i * self.cols + j]
    }
}

/// INDEX's source: the `area`-th (1-based) reference of a reference array;
/// any other source has one area. Past the last is #REF!.
fn pick_area(ev: &mut Eval, src: Value, area: Option<&BExpr>) -> Result<Value, ErrorKind> {
    if let Value::Error(e) = src {
        return Err(e);
    }
    let n = match area {
        None => 1.0,
        Some(a) => number(ev, a)?.trunc(),
    };
    match src.ref_array() {
        Some(list) if n >= 1.0 => list.values().get(n as usize - 1).cloned().ok_or(ErrorKind::Ref),
        None if n == 1.0 => Ok(src),
        _ => Err(ErrorKind::Ref),
    }
}

/// One INDEX selection with scalar indexes: a sub-reference of a reference,
/// else an element or sub-array of the (array or scalar) source.
fn index_one(src: &Value, row: &Value, col: Option<&Value>) -> Result<Value, ErrorKind> {
    let (row, col) = (index_number(row)?, col.map(index_number).transpose()?);
    match src {
        Value::Ref(a) => {
            let (r0, c0, r1, c1) = select(a.rows(), a.cols(), row, col)?;
            Ok(Value::Ref(Area::new(a.sheet, a.r0 + r0, a.c0 + c0, a.r0 + r1, a.c0 + c1)))
        }
        Value::Array(arr) => {
            let (r0, c0, r1, c1) = select(arr.rows as u32, arr.cols as u32, row, col)?;
            let (r0, c0, r1, c1) = (r0 as usize, c0 as usize, r1 as usize, c1 as usize);
            let at = |r: usize, c: usize| arr.at(r * arr.cols + c);
            if r0 == r1 && c0 == c1 {
                return Ok(at(r0, c0));
            }
            let data = (r0..=r1).flat_map(|r| (c0..=c1).map(move |c| at(r, c)));
            Ok(value::collect_array(r1 - r0 + 1, c1 - c0 + 1, data))
        }
        v => {
            select(1, 1, row, col)?;
            Ok(v.clone())
        }
    }
}

/// One element of an INDEX array result: the single value `row` and `col`
/// select, #VALUE! when they select a row, a column or the whole source
/// (found from the selection's bounds, without copying it: an array of
/// whole-row picks over a large source costs one test each).
fn index_element(src: &Value, row: &Value, col: Option<&Value>) -> Result<Value, ErrorKind> {
    let (r, c) = (index_number(row)?, col.map(index_number).transpose()?);
    let (rows, cols) = match src {
        Value::Array(arr) => (arr.rows as u32, arr.cols as u32),
        Value::Ref(a) => (a.rows(), a.cols()),
        _ => (1, 1),
    };
    let (r0, c0, r1, c1) = select(rows, cols, r, c)?;
    if (r0, c0) != (r1, c1) {
        return Err(ErrorKind::Value);
    }
    index_one(src, row, col).and_then(single)
}

/// An element of an INDEX array result must be one value.
fn single(v: Value) -> Result<Value, ErrorKind> {
    match v {
        Value::Array(_) | Value::Ref(_) => Err(ErrorKind::Value),
        v => Ok(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_rows_columns_and_edges() {
        assert_eq!(select(3, 3, 2, Some(0)), Ok((1, 0, 1, 2)));
        assert_eq!(select(3, 3, 0, Some(2)), Ok((0, 1, 2, 1)));
        assert_eq!(select(3, 3, 2, None), Ok((1, 0, 1, 2)));
        assert_eq!(select(1, 5, 3, None), Ok((0, 2, 0, 2)));
        assert_eq!(select(5, 1, 3, None), Ok((2, 0, 2, 0)));
        assert_eq!(select(3, 3, 4, Some(1)), Err(ErrorKind::Ref));
        assert_eq!(select(1, 1, 1, None), Ok((0, 0, 0, 0)));
    }
}
