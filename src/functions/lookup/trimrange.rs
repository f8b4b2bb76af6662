//! TRIMRANGE(range, [trim_rows], [trim_cols]) and the trim references
//! (`A1:.E10`, `A1.:E10`, `A1.:.E10`), which the binder turns into calls of
//! it. A reference stays a reference, cut down to the box of its non-blank
//! cells on the edges asked for (1 leading, 2 trailing, 3 both, 0 none);
//! an array is cut the same way. Only empty cells are blank: a formula
//! showing "" is not. The scan reads the grid's stored part only, so a
//! whole column (`A:.A`) costs the sheet's used rows, not a million. With
//! no non-blank cell at all, or with several areas, the result is #REF!
//! and #VALUE!; with nothing to trim (0, 0), the range as it is.

use crate::address::Area;
use crate::eval::{BExpr, Eval};
use crate::functions::args::{given, number};
use crate::value::{Array, ErrorKind, Value};
use std::sync::Arc;

/// The box of the non-blank elements found: first and last row and column,
/// counted from the range's top-left corner.
#[derive(Clone, Copy)]
struct Found {
    r0: u32,
    c0: u32,
    r1: u32,
    c1: u32,
}

impl Found {
    fn add(found: &mut Option<Found>, r: u32, c: u32) {
        *found = Some(match *found {
            None => Found { r0: r, c0: c, r1: r, c1: c },
            Some(f) => Found { r0: f.r0.min(r), c0: f.c0.min(c), r1: f.r1.max(r), c1: f.c1.max(c) },
        });
    }
}

/// The kept part `(first, last)` of `n` rows or columns whose non-blank
/// ones run from `lo` to `hi`, trimmed by `mode`.
fn keep(mode: u8, n: u32, lo: u32, hi: u32) -> (u32, u32) {
    let first = if mode & 1 != 0 { lo } else { 0 };
    let last = if mode & 2 != 0 { hi } else { n - 1 };
    (first, last)
}

/// `trim_rows` or `trim_cols`: 0 to 3 (truncated), 3 when omitted.
fn mode(ev: &mut Eval, args: &[BExpr], i: usize) -> Result<u8, ErrorKind> {
    let Some(e) = given(args, i) else { return Ok(3) };
    let n = number(ev, e)?.trunc();
    if (0.0..=3.0).contains(&n) { Ok(n as u8) } else { Err(ErrorKind::Value) }
}

pub(super) fn trimrange(ev: &mut Eval, args: &[BExpr]) -> Value {
    let src = ev.eval_array(&args[0]);
    let modes = mode(ev, args, 1).and_then(|r| Ok((r, mode(ev, args, 2)?)));
    let (rows, cols) = match modes {
        Ok(m) => m,
        Err(e) => return Value::Error(e),
    };
    match src {
        Value::Ref(a) => trim_area(ev, a, rows, cols),
        Value::Array(a) if a.is_ref_array() => Value::Error(ErrorKind::Value),
        Value::Array(a) => trim_array(a, rows, cols),
        Value::Empty => Value::Error(ErrorKind::Ref),
        v => v,
    }
}

/// A reference trimmed: the box of its non-blank stored cells.
fn trim_area(ev: &Eval, a: Area, rows: u8, cols: u8) -> Value {
    let Some(grid) = ev.grid() else { return Value::Error(ErrorKind::Ref) };
    if (rows, cols) == (0, 0) {
        return Value::Ref(a);
    }
    let mut found = None;
    let (stored, _) = grid.rows_of(&a);
    for (r, row) in stored.enumerate() {
        let first = row.iter().position(|v| !v.is_empty());
        if let Some(first) = first {
            let last = row.iter().rposition(|v| !v.is_empty()).unwrap_or(first);
            Found::add(&mut found, r as u32, first as u32);
            Found::add(&mut found, r as u32, last as u32);
        }
    }
    let Some(f) = found else { return Value::Error(ErrorKind::Ref) };
    let (r0, r1) = keep(rows, a.rows(), f.r0, f.r1);
    let (c0, c1) = keep(cols, a.cols(), f.c0, f.c1);
    Value::Ref(Area::new(a.sheet, a.r0 + r0, a.c0 + c0, a.r0 + r1, a.c0 + c1))
}

/// An array trimmed of its blank (empty) edge rows and columns.
fn trim_array(a: Arc<Array>, rows: u8, cols: u8) -> Value {
    if a.as_dense().is_some() || (rows, cols) == (0, 0) {
        return Value::Array(a);
    }
    let mut found = None;
    for r in 0..a.rows {
        for c in 0..a.cols {
            if !a.at(r * a.cols + c).is_empty() {
                Found::add(&mut found, r as u32, c as u32);
            }
        }
    }
    let Some(f) = found else { return Value::Error(ErrorKind::Ref) };
    let (r0, r1) = keep(rows, a.rows as u32, f.r0, f.r1);
    let (c0, c1) = keep(cols, a.cols as u32, f.c0, f.c1);
    if (r0, c0, r1, c1) == (0, 0, a.rows as u32 - 1, a.cols as u32 - 1) {
        return Value::Array(a);
    }
    let data = (r0..=r1).flat_map(|r| (c0..=c1).map(move |c| (r as usize, c as usize)));
    let data = data.map(|(r, c)| a.at(r * a.cols + c)).collect();
    Value::Array(Arc::new(Array::new((r1 - r0 + 1) as usize, (c1 - c0 + 1) as usize, data)))
}
