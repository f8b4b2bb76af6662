//! The one search behind MATCH, XMATCH, VLOOKUP, HLOOKUP, LOOKUP and
//! XLOOKUP, and the [`Table`] they search: a reference read only in its
//! stored part (so `A:A` never turns into a million cells) or an array.
//!
//! A search compares values of the lookup value's own type only (numbers,
//! text or booleans; text case-insensitively, numbers to 15 digits). A
//! linear search takes the first (or last) equal value, then the closest
//! one on the wanted side; a binary search assumes sorted data and gives
//! Excel's answer on unsorted data too (the last value not past the lookup
//! among the values of its type). XLOOKUP's regular-expression mode
//! ([`Match::Regex`]) reads the lookup as a pattern (REGEXTEST's, case-
//! sensitive) that any part of a text key may match; keys of other types
//! never match.

use crate::address::{Area, CellAddr};
use crate::eval::Eval;
use crate::functions::text::regex::compile;
use crate::value::{Array, ErrorKind, Value, Wildcard, compare};
use std::cmp::Ordering;
use std::sync::Arc;

/// What counts as found: XLOOKUP's match modes 0, 2, -1 and 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Match {
    Exact,
    /// Exact, with `*`, `?` and `~` patterns for text.
    Wildcard,
    /// Exact, else the next smaller value.
    Smaller,
    /// Exact, else the next larger value.
    Larger,
    /// The lookup is a regular expression a text key matches anywhere.
    Regex,
}

/// How the list is walked: XLOOKUP's search modes 1, -1, 2 and -2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    First,
    Last,
    /// Binary search in ascending data.
    Ascending,
    /// Binary search in descending data.
    Descending,
}

/// Type class for matching: numbers, text, booleans (nothing else matches).
fn class(v: &Value) -> Option<u8> {
    match v {
        Value::Number(_) => Some(0),
        Value::Text(_) => Some(1),
        Value::Bool(_) => Some(2),
        _ => None,
    }
}

/// The 0-based position of `lookup` in `list`; #N/A when not found, the
/// lookup's own error when it is one.
pub fn find(lookup: &Value, list: &[Value], how: Match, order: Search) -> Result<usize, ErrorKind> {
    if let Value::Error(e) = lookup {
        return Err(*e);
    }
    let Some(cls) = class(lookup) else { return Err(ErrorKind::NA) };
    if how == Match::Regex {
        return regex_find(lookup, list, order);
    }
    let hit = match order {
        Search::First | Search::Last => linear(lookup, cls, list, how, order == Search::Last),
        Search::Ascending | Search::Descending => binary(lookup, cls, list, how, order == Search::Ascending),
    };
    hit.ok_or(ErrorKind::NA)
}

/// The first (or last) text of `list` the pattern `lookup` matches; a
/// binary search or an invalid pattern is #VALUE!.
fn regex_find(lookup: &Value, list: &[Value], order: Search) -> Result<usize, ErrorKind> {
    let re = compile(&lookup.to_text()?, false)?;
    let hit = |i: &usize| matches!(&list[*i], Value::Text(t) if re.is_match(t));
    let found = match order {
        Search::First => (0..list.len()).find(hit),
        Search::Last => (0..list.len()).rev().find(hit),
        Search::Ascending | Search::Descending => return Err(ErrorKind::Value),
    };
    found.ok_or(ErrorKind::NA)
}

fn linear(lookup: &Value, cls: u8, list: &[Value], how: Match, last: bool) -> Option<usize> {
    let n = list.len();
    let order = move || (0..n).map(move |k| if last { n - 1 - k } else { k });
    let same = |v: &Value| class(v) == Some(cls);
    let pattern = match lookup {
        Value::Text(t) if how == Match::Wildcard && Wildcard::has_wildcards(t) => Some(Wildcard::new(t)),
        _ => None,
    };
    let equal = |v: &Value| match (&pattern, v) {
        (Some(p), Value::Text(s)) => p.matches(s),
        (Some(_), _) => false,
        (None, v) => same(v) && compare(v, lookup) == Ordering::Equal,
    };
    if let Some(i) = order().find(|&i| equal(&list[i])) {
        return Some(i);
    }
    let side = match how {
        Match::Smaller => Ordering::Less,
        Match::Larger => Ordering::Greater,
        Match::Exact | Match::Wildcard | Match::Regex => return None,
    };
    // The closest value on the wanted side; the first met among equals.
    let mut best: Option<usize> = None;
    for i in order().filter(|&i| same(&list[i]) && compare(&list[i], lookup) == side) {
        if best.is_none_or(|b| compare(&list[i], &list[b]) == side.reverse()) {
            best = Some(i);
        }
    }
    best
}

/// Binary search among the values of the lookup's type: `p` is the last one
/// not past the lookup in the data's order (MATCH types 1 and -1); the other
/// side's answer is the one after it.
fn binary(lookup: &Value, cls: u8, list: &[Value], how: Match, ascending: bool) -> Option<usize> {
    let before = if ascending { Ordering::Less } else { Ordering::Greater };
    let same: Vec<usize> = (0..list.len()).filter(|&i| class(&list[i]) == Some(cls)).collect();
    let (mut lo, mut hi) = (0, same.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        let o = compare(&list[same[mid]], lookup);
        if o == before || o == Ordering::Equal { lo = mid + 1 } else { hi = mid }
    }
    let p = lo.checked_sub(1);
    let equal = p.filter(|&k| compare(&list[same[k]], lookup) == Ordering::Equal);
    let k = match how {
        Match::Exact | Match::Wildcard | Match::Regex => equal,
        Match::Smaller if ascending => p,
        Match::Larger if !ascending => p,
        Match::Smaller | Match::Larger => equal.or((lo < same.len()).then_some(lo)),
    };
    k.map(|k| same[k])
}

/// A range to search: a reference, of which only the stored part is read
/// (cells past it are empty), or an array; a single value is a 1 x 1 array.
pub struct Table {
    /// The reference's stored part (None when nothing of it is stored), or the array.
    src: Src,
    /// The whole reference, when the table is one.
    pub area: Option<Area>,
    pub rows: usize,
    pub cols: usize,
}

enum Src {
    Cells(Option<Area>),
    Values(Arc<Array>),
}

impl Table {
    /// The table a lookup argument evaluates to; an error value is returned as such.
    pub fn new(ev: &Eval, v: Value) -> Result<Table, ErrorKind> {
        match v {
            Value::Ref(a) => {
                let (rows, cols) = ev.extent(a.sheet);
                let stored = (rows > a.r0 && cols > a.c0)
                    .then(|| Area::new(a.sheet, a.r0, a.c0, a.r1.min(rows - 1), a.c1.min(cols - 1)));
                let (rows, cols) = (a.rows() as usize, a.cols() as usize);
                Ok(Table { src: Src::Cells(stored), area: Some(a), rows, cols })
            }
            Value::Array(arr) => Ok(Table { rows: arr.rows, cols: arr.cols, src: Src::Values(arr), area: None }),
            Value::Error(e) => Err(e),
            v => Ok(Table { src: Src::Values(Arc::new(Array::new(1, 1, vec![v]))), area: None, rows: 1, cols: 1 }),
        }
    }

    /// Whether it is a single row or column.
    pub fn is_vector(&self) -> bool {
        self.rows == 1 || self.cols == 1
    }

    /// The value at row `r`, column `c` (0-based, inside the table).
    pub fn get(&self, ev: &Eval, r: usize, c: usize) -> Value {
        match &self.src {
            Src::Cells(Some(s)) if r < s.rows() as usize && c < s.cols() as usize => {
                ev.cell_value(CellAddr::new(s.sheet, s.r0 + r as u32, s.c0 + c as u32))
            }
            Src::Cells(_) => Value::Empty,
            Src::Values(arr) => arr.get(r, c).clone(),
        }
    }

    /// The stored values of row `k` (`across`) or of column `k`: a prefix
    /// of the line, whose missing tail is empty.
    pub fn line(&self, ev: &Eval, across: bool, k: usize) -> Vec<Value> {
        let (rows, cols) = match &self.src {
            Src::Cells(Some(s)) => (s.rows() as usize, s.cols() as usize),
            Src::Cells(None) => (0, 0),
            Src::Values(arr) => (arr.rows, arr.cols),
        };
        match across {
            true if k < rows => (0..cols).map(|c| self.get(ev, k, c)).collect(),
            false if k < cols => (0..rows).map(|r| self.get(ev, r, k)).collect(),
            _ => Vec::new(),
        }
    }

    /// The values of a single row or column, in order (its stored part).
    pub fn vector(&self, ev: &Eval) -> Vec<Value> {
        self.line(ev, self.rows == 1, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nums(xs: &[f64]) -> Vec<Value> {
        xs.iter().map(|&x| Value::Number(x)).collect()
    }

    #[test]
    fn linear_modes() {
        let list = nums(&[5.0, 1.0, 7.0, 3.0, 7.0]);
        let n = Value::Number;
        let f = |x, how, order| find(&n(x), &list, how, order);
        assert_eq!(f(7.0, Match::Exact, Search::First), Ok(2));
        assert_eq!(f(7.0, Match::Exact, Search::Last), Ok(4));
        assert_eq!(f(4.0, Match::Exact, Search::First), Err(ErrorKind::NA));
        assert_eq!(f(4.0, Match::Smaller, Search::First), Ok(3));
        assert_eq!(f(4.0, Match::Larger, Search::First), Ok(0));
        assert_eq!(f(6.0, Match::Larger, Search::Last), Ok(4), "the last of equal candidates");
        assert_eq!(f(0.0, Match::Smaller, Search::First), Err(ErrorKind::NA));
        assert_eq!(f(9.0, Match::Larger, Search::First), Err(ErrorKind::NA));
    }

    #[test]
    fn binary_modes() {
        let up = nums(&[1.0, 3.0, 5.0, 7.0]);
        let down = nums(&[7.0, 5.0, 3.0, 1.0]);
        let n = Value::Number;
        assert_eq!(find(&n(4.0), &up, Match::Smaller, Search::Ascending), Ok(1));
        assert_eq!(find(&n(4.0), &up, Match::Larger, Search::Ascending), Ok(2));
        assert_eq!(find(&n(5.0), &up, Match::Larger, Search::Ascending), Ok(2));
        assert_eq!(find(&n(4.0), &up, Match::Exact, Search::Ascending), Err(ErrorKind::NA));
        assert_eq!(find(&n(8.0), &up, Match::Larger, Search::Ascending), Err(ErrorKind::NA));
        assert_eq!(find(&n(4.0), &down, Match::Larger, Search::Descending), Ok(1));
        assert_eq!(find(&n(4.0), &down, Match::Smaller, Search::Descending), Ok(2));
        assert_eq!(find(&n(3.0), &down, Match::Exact, Search::Descending), Ok(2));
    }

    #[test]
    fn wildcards_only_when_asked() {
        let list = vec![Value::text("a*c"), Value::text("abc")];
        assert_eq!(find(&Value::text("a*"), &list, Match::Wildcard, Search::Last), Ok(1));
        assert_eq!(find(&Value::text("a*c"), &list, Match::Exact, Search::Last), Ok(0));
        assert_eq!(find(&Value::text("a~*c"), &list, Match::Wildcard, Search::First), Ok(0));
        assert_eq!(find(&Value::Empty, &list, Match::Exact, Search::First), Err(ErrorKind::NA));
        assert_eq!(find(&Value::Error(ErrorKind::Div0), &list, Match::Exact, Search::First), Err(ErrorKind::Div0));
    }
}
