//! FILTER and UNIQUE: the rows (columns) of an array that a condition
//! keeps, or that are distinct. Rows compare element by element as `=`
//! does (text case-insensitively, numbers to 15 significant digits), an
//! empty cell as 0, an error equal only to the same error.

use super::sort::{Key, keys_cmp, sort_keys};
use super::{array, build, done, element, fits, flag, lines_up, pick, sortable};
use crate::eval::{BExpr, Eval};
use crate::functions::args;
use crate::value::{ErrorKind, Value};
use std::cmp::Ordering;

/// FILTER(array, include, [if_empty]): the rows of `array` where
/// `include`, a column as tall as the array, is TRUE (nonzero), or its
/// columns where `include` is a row as wide. An include of another shape
/// is #VALUE!, as is text in it; an error in it is the result. Nothing
/// kept gives `if_empty` when given, else #CALC!.
pub fn filter(ev: &mut Eval, a: &[BExpr]) -> Value {
    match filter_of(ev, a) {
        Err(ErrorKind::Calc) if args::given(a, 2).is_some() => args::given(a, 2).map_or(Value::Empty, |e| {
            let v = ev.eval_array(e);
            ev.array_value(v)
        }),
        r => done(r),
    }
}

fn filter_of(ev: &mut Eval, a: &[BExpr]) -> Result<Value, ErrorKind> {
    let m = array(ev, &a[0])?;
    let inc = array(ev, &a[1])?;
    let by_rows = lines_up(&inc, &m)?;
    let mut kept = Vec::new();
    for i in 0..inc.len() {
        let yes = match inc.at(i) {
            Value::Text(_) => return Err(ErrorKind::Value),
            v => v.to_number()? != 0.0,
        };
        if yes {
            kept.push(i);
        }
    }
    let rows: Vec<usize> = (0..m.rows).collect();
    let cols: Vec<usize> = (0..m.cols).collect();
    if by_rows { pick(&m, &kept, &cols) } else { pick(&m, &rows, &kept) }
}

/// UNIQUE(array, [by_col], [exactly_once]): the distinct rows (columns,
/// with `by_col`) in the order they first appear, or with `exactly_once`
/// only those that appear once. None is #CALC!.
pub fn unique(ev: &mut Eval, a: &[BExpr]) -> Value {
    done(unique_of(ev, a))
}

fn unique_of(ev: &mut Eval, a: &[BExpr]) -> Result<Value, ErrorKind> {
    let m = array(ev, &a[0])?;
    let by_col = flag(ev, a, 1)?;
    let once = flag(ev, a, 2)?;
    let (n, width) = if by_col { (m.cols, m.rows) } else { (m.rows, m.cols) };
    fits(n, width)?;
    sortable(n, width)?;
    // Each line's keys (an empty cell read as 0), sorted stably so equal
    // lines stand together, the first of each group first.
    let key = |line: usize, j: usize| {
        let (r, c) = if by_col { (j, line) } else { (line, j) };
        Key::of(&element(m.at(r * m.cols + c)))
    };
    let keys: Vec<Vec<Key>> = (0..n).map(|line| (0..width).map(|j| key(line, j)).collect()).collect();
    let order = sort_keys(n, |x, y| keys_cmp(&keys[x], &keys[y], &[], true));
    let mut kept = Vec::new();
    let mut start = 0;
    while start < n {
        let mut end = start + 1;
        while end < n && keys_cmp(&keys[order[start]], &keys[order[end]], &[], true) == Ordering::Equal {
            end += 1;
        }
        if !once || end - start == 1 {
            kept.push(order[start]);
        }
        start = end;
    }
    kept.sort_unstable();
    let all: Vec<usize> = (0..width).collect();
    if kept.is_empty() {
        return build(0, 0, std::iter::empty());
    }
    if by_col { pick(&m, &all, &kept) } else { pick(&m, &kept, &all) }
}
