//! SORT and SORTBY, and the ordering they and UNIQUE share: stable, by
//! type first (numbers < text < logicals < errors, as Excel's sort), then
//! by value (numbers to 15 significant digits, text case-insensitively,
//! FALSE < TRUE); a descending key reverses that, and blank cells go last
//! either way.

use super::{array, done, fits, flag, int, lines_up, pick, sortable};
use crate::eval::{BExpr, Eval};
use crate::functions::args;
use crate::value::{ErrorKind, Value};
use std::cmp::Ordering;

/// One element as a sort key.
pub enum Key {
    Num(f64),
    Text(Box<str>),
    Bool(bool),
    Err(ErrorKind),
    Blank,
}

impl Key {
    pub fn of(v: &Value) -> Key {
        match v {
            // Rounded to 15 digits, -0 made 0: one total order, as `=` sees numbers.
            Value::Number(x) => Key::Num(format!("{x:.14e}").parse::<f64>().unwrap_or(*x) + 0.0),
            Value::Text(t) => Key::Text(t.to_lowercase().into()),
            Value::Bool(b) => Key::Bool(*b),
            Value::Error(e) => Key::Err(*e),
            _ => Key::Blank,
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Key::Num(_) => 0,
            Key::Text(_) => 1,
            Key::Bool(_) => 2,
            Key::Err(_) => 3,
            Key::Blank => 4,
        }
    }

    /// Ascending order of two keys; errors of different kinds are equal
    /// unless `kinds` (UNIQUE tells them apart, a sort keeps their order).
    fn cmp(&self, o: &Key, kinds: bool) -> Ordering {
        match (self, o) {
            (Key::Num(x), Key::Num(y)) => x.total_cmp(y),
            (Key::Text(x), Key::Text(y)) => x.cmp(y),
            (Key::Bool(x), Key::Bool(y)) => x.cmp(y),
            (Key::Err(x), Key::Err(y)) if kinds => x.cmp(y),
            _ => self.rank().cmp(&o.rank()),
        }
    }
}

/// Compares two lines of keys, key by key: `desc[i]` reverses key `i`
/// (blanks stay last); errors by kind when `kinds`.
pub fn keys_cmp(a: &[Key], b: &[Key], desc: &[bool], kinds: bool) -> Ordering {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let o = match (x, y) {
            (Key::Blank, Key::Blank) => Ordering::Equal,
            (Key::Blank, _) => Ordering::Greater,
            (_, Key::Blank) => Ordering::Less,
            _ if desc.get(i) == Some(&true) => x.cmp(y, kinds).reverse(),
            _ => x.cmp(y, kinds),
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

/// The indices `0..n` stably sorted by `cmp`.
pub fn sort_keys(n: usize, cmp: impl Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| cmp(x, y));
    order
}

/// A sort order argument: 1 ascending (`false`), -1 descending; anything
/// else is #VALUE!.
fn descending(x: f64) -> Result<bool, ErrorKind> {
    match x {
        1.0 => Ok(false),
        -1.0 => Ok(true),
        _ => Err(ErrorKind::Value),
    }
}

/// SORT(array, [sort_index], [sort_order], [by_col]): the rows (columns,
/// with `by_col`) sorted on the column (row) `sort_index` (default 1),
/// ascending (1, default) or descending (-1). `sort_index` may be an array
/// of indices, each with its order from an array of orders as long (or
/// one order for all). An index outside the array or another order is
/// #VALUE!.
pub fn sort(ev: &mut Eval, a: &[BExpr]) -> Value {
    done(sort_of(ev, a))
}

fn sort_of(ev: &mut Eval, a: &[BExpr]) -> Result<Value, ErrorKind> {
    let m = array(ev, &a[0])?;
    let by_col = flag(ev, a, 3)?;
    let (n, width) = if by_col { (m.cols, m.rows) } else { (m.rows, m.cols) };
    let index: Vec<usize> = match args::given(a, 1) {
        None => vec![0],
        Some(e) => {
            let nums = array(ev, e)?;
            (0..nums.len())
                .map(|i| {
                    let k = nums.at(i).to_number()?.trunc();
                    if k < 1.0 || k > width as f64 { Err(ErrorKind::Value) } else { Ok(k as usize - 1) }
                })
                .collect::<Result<_, _>>()?
        }
    };
    let desc: Vec<bool> = match args::given(a, 2) {
        None => vec![false; index.len()],
        Some(e) => {
            let orders = array(ev, e)?;
            let d = (0..orders.len()).map(|i| descending(orders.at(i).to_number()?)).collect::<Result<Vec<_>, _>>()?;
            match d.len() {
                1 => vec![d[0]; index.len()],
                l if l == index.len() => d,
                _ => return Err(ErrorKind::Value),
            }
        }
    };
    fits(n, width)?;
    sortable(n, index.len())?;
    let key = |line: usize, j: usize| {
        let (r, c) = if by_col { (j, line) } else { (line, j) };
        Key::of(&m.at(r * m.cols + c))
    };
    let keys: Vec<Vec<Key>> = (0..n).map(|line| index.iter().map(|&j| key(line, j)).collect()).collect();
    let order = sort_keys(n, |x, y| keys_cmp(&keys[x], &keys[y], &desc, false));
    let all: Vec<usize> = (0..width).collect();
    if by_col { pick(&m, &all, &order) } else { pick(&m, &order, &all) }
}

/// SORTBY(array, by_array1, [sort_order1], [by_array2, sort_order2], ...):
/// the rows of `array` sorted on the columns `by_array1`, ... (each as tall
/// as the array), or its columns on rows as wide; each `sort_order` 1
/// (default) or -1. A by-array of another shape, or rows and columns
/// mixed, is #VALUE!.
pub fn sortby(ev: &mut Eval, a: &[BExpr]) -> Value {
    done(sortby_of(ev, a))
}

fn sortby_of(ev: &mut Eval, a: &[BExpr]) -> Result<Value, ErrorKind> {
    let m = array(ev, &a[0])?;
    let (mut bys, mut desc, mut by_rows) = (Vec::new(), Vec::new(), None);
    for pair in a[1..].chunks(2) {
        let by = array(ev, &pair[0])?;
        let rows = lines_up(&by, &m)?;
        if *by_rows.get_or_insert(rows) != rows {
            return Err(ErrorKind::Value);
        }
        let order = match pair.get(1) {
            Some(_) => int(ev, pair, 1)?.map_or(Ok(false), |k| descending(k as f64))?,
            None => false,
        };
        bys.push(by);
        desc.push(order);
    }
    let by_rows = by_rows.unwrap_or(true);
    let (n, width) = if by_rows { (m.rows, m.cols) } else { (m.cols, m.rows) };
    fits(n, width)?;
    sortable(n, bys.len())?;
    let keys: Vec<Vec<Key>> = (0..n).map(|line| bys.iter().map(|b| Key::of(&b.at(line))).collect()).collect();
    let order = sort_keys(n, |x, y| keys_cmp(&keys[x], &keys[y], &desc, false));
    let all: Vec<usize> = (0..width).collect();
    if by_rows { pick(&m, &order, &all) } else { pick(&m, &all, &order) }
}
