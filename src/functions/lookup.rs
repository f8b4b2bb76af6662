//! Lookup and reference functions: INDEX, MATCH, ROW, COLUMN, ROWS, COLUMNS
//! and OFFSET here, INDEX in `index`; VLOOKUP, HLOOKUP and LOOKUP (`tables`), XLOOKUP and
//! XMATCH (`xlookup`) and ADDRESS (`address`) in submodules, the lookups
//! sharing MATCH's search (`search`). INDEX, OFFSET, ROW, COLUMN, ROWS and COLUMNS work on the
//! rectangle of a reference and never read its cells, so that the binder
//! can fold them when their other arguments are constants; INDEX and
//! OFFSET return a reference (`Value::Ref`), which `:`, SUM, COUNTIF or ROW
//! can use as such. The lookups read their ranges' stored part only.
//! INDIRECT (`indirect`) reads a reference from text when it runs;
//! SINGLE (Excel's `@`) reads one cell of a range by implicit intersection.
//! TRIMRANGE (`trimrange`) cuts a reference or an array down to its
//! non-blank part; the trim references (`A1:.E10`) are bound as calls of it.
//! Several references travel as a reference array (see `crate::value`):
//! INDEX's area argument picks one, AREAS counts them, ROWS and COLUMNS
//! refuse them (#REF!), and OFFSET with array arguments returns one per
//! element.

mod address;
mod index;
mod indirect;
mod search;
mod tables;
mod trimrange;
mod xlookup;

use super::Excel::{V365, V2021};
use super::args::{given, lift_values, number};
use super::{Arg, FnSpec, Intrinsic};
use crate::address::{Area, MAX_COLS, MAX_ROWS};
use crate::eval::{BExpr, Eval};
use crate::value::{self, ErrorKind, Value};
use search::{Match, Search, Table, find};
use std::cmp::Ordering;

/// The lookup category.
pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("INDEX", 2, 4, index::index)
        .args(&[Arg::Position, Arg::Value])
        .returns_ref()
        .intrinsic(Intrinsic::Index),
    FnSpec::new("MATCH", 2, 3, match_),
    FnSpec::new("ROW", 0, 1, row).args(&[Arg::Position]).intrinsic(Intrinsic::Row),
    FnSpec::new("COLUMN", 0, 1, column).args(&[Arg::Position]).intrinsic(Intrinsic::Column),
    FnSpec::new("ROWS", 1, 1, rows).args(&[Arg::Position]),
    FnSpec::new("COLUMNS", 1, 1, columns).args(&[Arg::Position]),
    FnSpec::new("OFFSET", 3, 5, offset).args(&[Arg::Reachable, Arg::Value]).returns_ref(),
    FnSpec::new("INDIRECT", 1, 2, indirect::indirect).args(&[Arg::Address, Arg::Value]).returns_ref().volatile(),
    FnSpec::new("VLOOKUP", 3, 4, tables::vlookup),
    FnSpec::new("HLOOKUP", 3, 4, tables::hlookup),
    FnSpec::new("LOOKUP", 2, 3, tables::lookup).args(&[Arg::Value, Arg::Value, Arg::SizedLike(1)]),
    FnSpec::new("XLOOKUP", 3, 6, xlookup::xlookup)
        .args(&[Arg::Array, Arg::Value])
        .returns_ref()
        .since(V2021)
        .openformula("COM.MICROSOFT.XLOOKUP")
        .not_in_libreoffice(),
    FnSpec::new("XMATCH", 2, 4, xlookup::xmatch)
        .args(&[Arg::Array, Arg::Value])
        .since(V2021)
        .openformula("COM.MICROSOFT.XMATCH")
        .not_in_libreoffice(),
    FnSpec::new("ADDRESS", 2, 5, address::address),
    FnSpec::new("AREAS", 1, 1, areas).args(&[Arg::Position]),
    // Excel 365's `@`, as files store it: the binder binds `@x` as this.
    FnSpec::new("SINGLE", 1, 1, at_single)
        .since(V2021)
        .openformula("COM.MICROSOFT.SINGLE")
        .not_in_libreoffice()
        .intrinsic(Intrinsic::Single),
    // `A1#`: the spill range of the dynamic-array formula in A1.
    FnSpec::new("ANCHORARRAY", 1, 1, anchor_array)
        .returns_ref()
        .since(V2021)
        .openformula("COM.MICROSOFT.ANCHORARRAY")
        .not_in_libreoffice()
        .intrinsic(Intrinsic::AnchorArray),
    // Last (see `TRIMRANGE` below): what a trim reference (`A1:.E10`) is bound as.
    FnSpec::new("TRIMRANGE", 1, 3, trimrange::trimrange)
        .args(&[Arg::Array, Arg::Value])
        .returns_ref()
        .since(V365)
        .openformula("COM.MICROSOFT.TRIMRANGE")
        .not_in_libreoffice(),
];

/// TRIMRANGE's entry, which trim references are bound as.
pub const TRIMRANGE: &FnSpec = &FUNCTIONS[FUNCTIONS.len() - 1];

/// `ANCHORARRAY(A1)`, Excel's `A1#`: the range the formula in A1 spills
/// over now; `#REF!` when A1 holds no dynamic-array formula (or more than
/// one cell is given), `#SPILL!` while its spill is stopped.
fn anchor_array(ev: &mut Eval, args: &[BExpr]) -> Value {
    match ev.eval(&args[0]) {
        Value::Ref(a) if a.is_cell() => ev.spill_range(a.top_left()),
        Value::Error(e) => Value::Error(e),
        _ => Value::Error(ErrorKind::Ref),
    }
}

/// `_xlfn.SINGLE(x)`, Excel's `@x`: one value by implicit intersection.
fn at_single(ev: &mut Eval, args: &[BExpr]) -> Value {
    let v = ev.eval(&args[0]);
    ev.single(v)
}

/// MATCH(lookup, row or column, [type]): 1 (default) is the last value <=
/// lookup in ascending data, -1 the last value >= lookup in descending
/// data (both by binary search among values of the lookup's type), 0 the
/// first equal value, with wildcards for text; text is case-insensitive.
fn match_(ev: &mut Eval, args: &[BExpr]) -> Value {
    let lookup = ev.read(&args[0]);
    let kind = match args.get(2).map(|a| number(ev, a)) {
        None => Ordering::Less,
        Some(Ok(n)) if n >= 1.0 => Ordering::Less,
        Some(Ok(n)) if n <= -1.0 => Ordering::Greater,
        Some(Ok(_)) => Ordering::Equal,
        Some(Err(e)) => return Value::Error(e),
    };
    let v = ev.eval(&args[1]);
    let list = match Table::new(ev, v) {
        Ok(t) if t.is_vector() => t.vector(ev),
        Ok(_) => return Value::Error(ErrorKind::NA),
        Err(e) => return Value::Error(e),
    };
    lift_values(&[lookup], |v| match position(&v[0], &list, kind) {
        Ok(i) => Value::Number((i + 1) as f64),
        Err(e) => Value::Error(e),
    })
}

/// MATCH's search: `kind` Less for type 1, Greater for -1, Equal for 0.
fn position(lookup: &Value, list: &[Value], kind: Ordering) -> Result<usize, ErrorKind> {
    let (how, order) = match kind {
        Ordering::Less => (Match::Smaller, Search::Ascending),
        Ordering::Greater => (Match::Larger, Search::Descending),
        Ordering::Equal => (Match::Wildcard, Search::First),
    };
    find(lookup, list, how, order)
}

fn row(ev: &mut Eval, args: &[BExpr]) -> Value {
    position_of(ev, args, true)
}

fn column(ev: &mut Eval, args: &[BExpr]) -> Value {
    position_of(ev, args, false)
}

/// ROW and COLUMN: 1-based, of the calculating cell without argument (of
/// the block, for a block array formula). A reference of several rows
/// (columns) gives a vertical (horizontal) array of numbers inside names
/// and array formulas, its first row (column) elsewhere.
fn position_of(ev: &mut Eval, args: &[BExpr], is_row: bool) -> Value {
    let area = match args.first().map(|a| ev.eval(a)) {
        None => ev.caller(),
        Some(Value::Ref(area)) => area,
        Some(Value::Error(e)) => return Value::Error(e),
        Some(_) => return Value::Error(ErrorKind::Value),
    };
    let (lo, hi) = if is_row { (area.r0, area.r1) } else { (area.c0, area.c1) };
    if !ev.array_mode() || lo == hi {
        return Value::Number(f64::from(lo) + 1.0);
    }
    let data: Vec<f64> = (lo..=hi).map(|i| f64::from(i) + 1.0).collect();
    let n = data.len();
    let (r, c) = if is_row { (n, 1) } else { (1, n) };
    value::numbers(r, c, data)
}

fn rows(ev: &mut Eval, args: &[BExpr]) -> Value {
    size_of(ev, args, true)
}

fn columns(ev: &mut Eval, args: &[BExpr]) -> Value {
    size_of(ev, args, false)
}

/// ROWS and COLUMNS of a reference or an array; a single value is 1 x 1;
/// several references are #REF!.
fn size_of(ev: &mut Eval, args: &[BExpr], is_rows: bool) -> Value {
    let n = match ev.eval(&args[0]) {
        v if v.ref_array().is_some() => return Value::Error(ErrorKind::Ref),
        Value::Ref(a) => {
            if is_rows {
                a.rows() as usize
            } else {
                a.cols() as usize
            }
        }
        Value::Array(a) => {
            if is_rows {
                a.rows
            } else {
                a.cols
            }
        }
        Value::Error(e) => return Value::Error(e),
        _ => 1,
    };
    Value::Number(n as f64)
}

/// AREAS(reference): how many areas a reference has (a union's parts).
fn areas(ev: &mut Eval, args: &[BExpr]) -> Value {
    match ev.eval(&args[0]) {
        Value::Error(e) => Value::Error(e),
        v => v.area_list().map_or(Value::Error(ErrorKind::Value), |l| Value::Number(l.len() as f64)),
    }
}

/// OFFSET(reference, rows, cols, [height], [width]): the reference moved
/// and resized (height and width default to the reference's, also when
/// omitted as in `OFFSET(A1,1,1,,)`; negative ones extend up or left from
/// the moved corner, 0 is #REF!). Off the sheet is #REF!. With arrays of
/// offsets or sizes, one reference per element, as a reference array in
/// the broadcast shape (an error in any element is the result).
fn offset(ev: &mut Eval, args: &[BExpr]) -> Value {
    let base = match ev.eval(&args[0]) {
        Value::Ref(a) => a,
        Value::Error(e) => return Value::Error(e),
        _ => return Value::Error(ErrorKind::Value),
    };
    let defaults = [0, 0, base.rows(), base.cols()];
    let omitted: [bool; 4] = std::array::from_fn(|i| given(args, i + 1).is_none());
    let vals: Vec<Value> = (1..5).map(|i| given(args, i).map_or(Value::Empty, |a| ev.read(a))).collect();
    let one = |v: &[Value]| {
        let int = |i: usize| match omitted[i] {
            true => Ok(i64::from(defaults[i])),
            false => Ok(v[i].to_number()?.trunc().clamp(-1e12, 1e12) as i64),
        };
        offset_area(base, [int(0), int(1), int(2), int(3)]).map_or_else(Value::Error, Value::Ref)
    };
    if !vals.iter().any(|v| matches!(v, Value::Array(_))) {
        return one(&vals);
    }
    let refs = lift_values(&vals, one);
    match refs.ref_array().map(|a| a.values().iter().find(|v| v.is_error())) {
        Some(Some(e)) => e.clone(),
        _ => refs,
    }
}

/// The area `[rows, cols, height, width]` away from `base`.
fn offset_area(base: Area, [dr, dc, h, w]: [Result<i64, ErrorKind>; 4]) -> Result<Area, ErrorKind> {
    let (dr, dc, h, w) = (dr?, dc?, h?, w?);
    let span = |start: i64, len: i64, max: u32| -> Result<(u32, u32), ErrorKind> {
        let (a, b) = match len {
            0 => return Err(ErrorKind::Ref),
            l if l > 0 => (start, start + l - 1),
            l => (start + l + 1, start),
        };
        if a < 0 || b >= i64::from(max) { Err(ErrorKind::Ref) } else { Ok((a as u32, b as u32)) }
    };
    let (r0, r1) = span(i64::from(base.r0) + dr, h, MAX_ROWS)?;
    let (c0, c1) = span(i64::from(base.c0) + dc, w, MAX_COLS)?;
    Ok(Area::new(base.sheet, r0, c0, r1, c1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_kinds() {
        let list: Vec<Value> = [1.0, 3.0, 5.0, 5.0, 7.0].map(Value::Number).to_vec();
        let n = Value::Number;
        assert_eq!(position(&n(5.0), &list, Ordering::Less), Ok(3));
        assert_eq!(position(&n(4.0), &list, Ordering::Less), Ok(1));
        assert_eq!(position(&n(0.0), &list, Ordering::Less), Err(ErrorKind::NA));
        assert_eq!(position(&n(9.0), &list, Ordering::Less), Ok(4));
        assert_eq!(position(&n(5.0), &list, Ordering::Equal), Ok(2));
        let desc: Vec<Value> = [7.0, 5.0, 3.0, 1.0].map(Value::Number).to_vec();
        assert_eq!(position(&n(4.0), &desc, Ordering::Greater), Ok(1));
        assert_eq!(position(&n(8.0), &desc, Ordering::Greater), Err(ErrorKind::NA));
        let text = vec![Value::text("Apple"), Value::Number(1.0), Value::text("banana")];
        assert_eq!(position(&Value::text("B*"), &text, Ordering::Equal), Ok(2));
        assert_eq!(position(&Value::text("APPLE"), &text, Ordering::Equal), Ok(0));
        assert_eq!(position(&Value::text("1"), &text, Ordering::Equal), Err(ErrorKind::NA));
        assert_eq!(position(&Value::text("c"), &text, Ordering::Less), Ok(2));
    }
}
