//! XLOOKUP and XMATCH: exact match by default, with a match mode (0 exact,
//! -1 or next smaller, 1 or next larger, 2 wildcards, 3 a regular
//! expression, which a binary search refuses with #VALUE!) and a search mode (1
//! first to last, -1 last to first, 2 and -2 binary search in ascending and
//! descending data). The lookup array is one row or column (else #VALUE!).
//! XLOOKUP returns the matching row (or column) of its return array: a
//! reference when that is one cell of a reference, otherwise its values.
//! The lookup value is read as an array (a range gives all its values):
//! several lookup values give an array of results, one per value.

use super::search::{Match, Search, Table, find};
use crate::address::Area;
use crate::eval::{BExpr, Eval};
use crate::functions::args::{lift_values, number};
use crate::value::{Array, ErrorKind, MAX_WORK, Value};
use std::sync::Arc;

/// An optional integer argument (missing or empty: `default`), truncated.
fn mode_number(ev: &mut Eval, a: Option<&BExpr>, default: f64) -> Result<f64, ErrorKind> {
    match a {
        None | Some(BExpr::Const(Value::Empty)) => Ok(default),
        Some(a) => Ok(number(ev, a)?.trunc()),
    }
}

/// The match and search modes of arguments `m` and `s`; others are #VALUE!.
fn modes(ev: &mut Eval, args: &[BExpr], m: usize, s: usize) -> Result<(Match, Search), ErrorKind> {
    let how = match mode_number(ev, args.get(m), 0.0)? {
        0.0 => Match::Exact,
        -1.0 => Match::Smaller,
        1.0 => Match::Larger,
        2.0 => Match::Wildcard,
        3.0 => Match::Regex,
        _ => return Err(ErrorKind::Value),
    };
    let order = match mode_number(ev, args.get(s), 1.0)? {
        1.0 => Search::First,
        -1.0 => Search::Last,
        2.0 => Search::Ascending,
        -2.0 => Search::Descending,
        _ => return Err(ErrorKind::Value),
    };
    Ok((how, order))
}

/// The lookup array of argument `i`: a single row or column, else #VALUE!.
fn lookup_array(ev: &mut Eval, a: &BExpr) -> Result<Table, ErrorKind> {
    let v = ev.eval(a);
    Table::new(ev, v).and_then(|t| if t.is_vector() { Ok(t) } else { Err(ErrorKind::Value) })
}

/// The lookup value: evaluated as an array formula, a range giving all its
/// values (as every Excel that has these functions evaluates it), so that
/// several lookup values give one result each.
fn lookup_value(ev: &mut Eval, a: &BExpr) -> Value {
    let v = ev.eval_array(a);
    ev.array_value(v)
}

/// XMATCH(lookup, lookup_array, [match_mode], [search_mode]): the 1-based
/// position found.
pub fn xmatch(ev: &mut Eval, args: &[BExpr]) -> Value {
    let lookup = lookup_value(ev, &args[0]);
    let found = lookup_array(ev, &args[1]).and_then(|t| Ok((t, modes(ev, args, 2, 3)?)));
    let (table, (how, order)) = match found {
        Ok(f) => f,
        Err(e) => return Value::Error(e),
    };
    let keys = table.vector(ev);
    let len = table.rows.max(table.cols);
    if too_much(&lookup, keys.len(), order) {
        return Value::Error(ErrorKind::Num);
    }
    lift_values(&[lookup], |v| match position(&v[0], &keys, len, how, order) {
        Ok(i) => Value::Number((i + 1) as f64),
        Err(e) => Value::Error(e),
    })
}

/// XLOOKUP(lookup, lookup_array, return_array, [if_not_found],
/// [match_mode], [search_mode]). The return array has as many rows as a
/// lookup column (as many columns as a lookup row), else #VALUE!. When
/// nothing is found, `if_not_found` (evaluated only then) or #N/A.
pub fn xlookup(ev: &mut Eval, args: &[BExpr]) -> Value {
    let lookup = lookup_value(ev, &args[0]);
    let tables = lookup_array(ev, &args[1]).and_then(|keys| {
        let v = ev.eval(&args[2]);
        Ok((keys, Table::new(ev, v)?, modes(ev, args, 4, 5)?))
    });
    let (keys, ret, (how, order)) = match tables {
        Ok(t) => t,
        Err(e) => return Value::Error(e),
    };
    // A lookup row answers with columns, a lookup column with rows.
    let across = keys.rows == 1 && keys.cols > 1;
    let fits = if across { ret.cols == keys.cols } else { ret.rows == keys.rows };
    if !fits {
        return Value::Error(ErrorKind::Value);
    }
    let list = keys.vector(ev);
    let len = keys.rows.max(keys.cols);
    let fallback = args.get(3).filter(|a| **a != BExpr::Const(Value::Empty));
    if !matches!(lookup, Value::Array(_)) {
        return match (position(&lookup, &list, len, how, order), fallback) {
            (Ok(i), _) => slice(ev, &ret, i, across),
            (Err(ErrorKind::NA), Some(a)) => ev.eval(a),
            (Err(e), _) => Value::Error(e),
        };
    }
    // An array of lookups gives an array of single values: of a row (or
    // column) of several values, the first, as Excel keeps the top-left
    // of each of an array's nested arrays.
    let fallback = fallback.map(|a| ev.read(a));
    if too_much(&lookup, list.len(), order) {
        return Value::Error(ErrorKind::Num);
    }
    let ev = &*ev;
    lift_values(&[lookup], |v| match (position(&v[0], &list, len, how, order), &fallback) {
        (Ok(i), _) if across => ret.get(ev, 0, i),
        (Ok(i), _) => ret.get(ev, i, 0),
        (Err(ErrorKind::NA), Some(f)) => f.clone(),
        (Err(e), _) => Value::Error(e),
    })
}

/// Whether linear searches of `keys` stored keys for every element of an
/// array of lookup values would pass [`MAX_WORK`] comparisons (#NUM!).
fn too_much(lookup: &Value, keys: usize, order: Search) -> bool {
    let Value::Array(a) = lookup else { return false };
    matches!(order, Search::First | Search::Last) && (a.len() as u64).saturating_mul(keys as u64) > MAX_WORK
}

/// [`find`], but a blank lookup value finds the first (last) blank key of
/// the `len` keys (`keys` holds their stored part), as Excel's XLOOKUP and
/// XMATCH do in an exact or wildcard linear search; MATCH and VLOOKUP do
/// not.
fn position(lookup: &Value, keys: &[Value], len: usize, how: Match, order: Search) -> Result<usize, ErrorKind> {
    let linear = matches!(order, Search::First | Search::Last);
    if !lookup.is_empty() || !linear || !matches!(how, Match::Exact | Match::Wildcard) {
        return find(lookup, keys, how, order);
    }
    let blank = |i: &usize| keys.get(*i).is_none_or(Value::is_empty);
    let found = if order == Search::Last { (0..len).rev().find(blank) } else { (0..len).find(blank) };
    found.ok_or(ErrorKind::NA)
}

/// Row `i` (column, when `across`) of the return array: a reference into a
/// reference when it is one cell, else the values.
fn slice(ev: &Eval, ret: &Table, i: usize, across: bool) -> Value {
    if let Some(a) = ret.area {
        let i = i as u32;
        let part = match across {
            true => Area::new(a.sheet, a.r0, a.c0 + i, a.r1, a.c0 + i),
            false => Area::new(a.sheet, a.r0 + i, a.c0, a.r0 + i, a.c1),
        };
        return if part.is_cell() { Value::Ref(part) } else { ev.materialize(&part) };
    }
    let (rows, cols) = if across { (ret.rows, 1) } else { (1, ret.cols) };
    let at = |k: usize| if across { ret.get(ev, k, i) } else { ret.get(ev, i, k) };
    match rows * cols {
        1 => at(0),
        n => Value::Array(Arc::new(Array::new(rows, cols, (0..n).map(at).collect()))),
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::Sheet;

    /// A one-cell result is a reference into the return array, which its
    /// readers follow when it changes.
    #[test]
    fn a_reference_result_follows_its_cell() {
        let mut s = Sheet::new();
        for (r, k, v) in [(1, "1", "10"), (2, "2", "20"), (3, "3", "30")] {
            s.set(&format!("A{r}"), k);
            s.set(&format!("B{r}"), v);
        }
        s.set("D1", "=SUM(XLOOKUP(2,A1:A3,B1:B3):B3)");
        s.set("D2", "=XLOOKUP(9,A1:A3,B1:B3,B1)");
        s.recalc();
        assert_eq!((s.text("D1"), s.text("D2")), ("50".into(), "10".into()));
        s.set("B3", "5");
        s.set("B1", "7");
        s.recalc();
        assert_eq!((s.text("D1"), s.text("D2")), ("25".into(), "7".into()));
    }
}
