//! Database functions: DSUM, DCOUNT, DCOUNTA, DAVERAGE, DGET, DMAX, DMIN,
//! DPRODUCT, DSTDEV, DSTDEVP, DVAR and DVARP, each
//! `DFUNC(database, field, criteria)`. The database is a range whose first
//! row labels its columns and whose other rows are records; `select`
//! finds the records the criteria range selects and the value of each in
//! the field's column. The aggregates then read those values as SUM,
//! COUNT, COUNTA, AVERAGE, MAX, MIN, PRODUCT, STDEV, STDEVP, VAR and VARP
//! read a range ([`args::number_operand`]: numbers count, text, booleans
//! and empty cells do not, an error is the result), the spreads through
//! the statistics' `Moments`. DGET returns the field of the one record
//! selected: #VALUE! when none is, #NUM! when several are. DCOUNT and
//! DCOUNTA may leave the field out (`DCOUNT(A1:E9,,G1:H2)`): they then
//! count the records selected.

mod select;

use super::FnSpec;
use super::args::{self, Source};
use super::stats::sample::Moments;
use crate::eval::{BExpr, Eval};
use crate::value::{ErrorKind, Value};
use select::{Selection, select};

/// The database category.
pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("DSUM", 3, 3, dsum),
    FnSpec::new("DCOUNT", 3, 3, dcount),
    FnSpec::new("DCOUNTA", 3, 3, dcounta),
    FnSpec::new("DAVERAGE", 3, 3, daverage),
    FnSpec::new("DGET", 3, 3, dget),
    FnSpec::new("DMAX", 3, 3, dmax),
    FnSpec::new("DMIN", 3, 3, dmin),
    FnSpec::new("DPRODUCT", 3, 3, dproduct),
    FnSpec::new("DSTDEV", 3, 3, |ev, a| spread(ev, a, 1, true)),
    FnSpec::new("DSTDEVP", 3, 3, |ev, a| spread(ev, a, 0, true)),
    FnSpec::new("DVAR", 3, 3, |ev, a| spread(ev, a, 1, false)),
    FnSpec::new("DVARP", 3, 3, |ev, a| spread(ev, a, 0, false)),
];

/// The numbers among the selected values, in order; the first error
/// among them instead.
fn numbers(ev: &mut Eval, args: &[BExpr]) -> Result<Vec<f64>, ErrorKind> {
    let sel = select(ev, args, false)?;
    let mut out = Vec::new();
    for v in &sel.values {
        match args::number_operand(v, Source::Range) {
            Some(Ok(n)) => out.push(n),
            Some(Err(e)) => return Err(e),
            None => {}
        }
    }
    Ok(out)
}

/// The result of a function of the selected numbers.
fn of_numbers(ev: &mut Eval, args: &[BExpr], f: impl FnOnce(&[f64]) -> Result<f64, ErrorKind>) -> Value {
    args::num_result(numbers(ev, args).and_then(|n| f(&n)))
}

/// `DSUM(database, field, criteria)`: the sum of the selected numbers.
fn dsum(ev: &mut Eval, args: &[BExpr]) -> Value {
    of_numbers(ev, args, |n| Ok(n.iter().sum()))
}

/// `DAVERAGE(database, field, criteria)`: #DIV/0! without numbers.
fn daverage(ev: &mut Eval, args: &[BExpr]) -> Value {
    of_numbers(ev, args, |n| match n.len() {
        0 => Err(ErrorKind::Div0),
        k => Ok(n.iter().sum::<f64>() / k as f64),
    })
}

/// `DMAX(database, field, criteria)`: 0 without numbers, as MAX.
fn dmax(ev: &mut Eval, args: &[BExpr]) -> Value {
    of_numbers(ev, args, |n| Ok(n.iter().copied().reduce(f64::max).unwrap_or(0.0)))
}

/// `DMIN(database, field, criteria)`: 0 without numbers, as MIN.
fn dmin(ev: &mut Eval, args: &[BExpr]) -> Value {
    of_numbers(ev, args, |n| Ok(n.iter().copied().reduce(f64::min).unwrap_or(0.0)))
}

/// `DPRODUCT(database, field, criteria)`: 0 without numbers, as PRODUCT.
fn dproduct(ev: &mut Eval, args: &[BExpr]) -> Value {
    of_numbers(ev, args, |n| Ok(if n.is_empty() { 0.0 } else { n.iter().product() }))
}

/// DVAR (`ddof` 1), DVARP (0) and, with `root`, DSTDEV and DSTDEVP: as
/// VAR.S, VAR.P, STDEV.S and STDEV.P, #DIV/0! with too few numbers.
fn spread(ev: &mut Eval, args: &[BExpr], ddof: u8, root: bool) -> Value {
    of_numbers(ev, args, |n| {
        let v = Moments::of(n).variance(ddof)?;
        Ok(if root { v.sqrt() } else { v })
    })
}

/// The selection, or the error that is the function's result.
fn selection(ev: &mut Eval, args: &[BExpr], optional_field: bool) -> Result<Selection, Value> {
    select(ev, args, optional_field).map_err(Value::Error)
}

/// `DCOUNT(database, [field], criteria)`: the selected numbers (errors are
/// not counted), or without a field the records selected.
fn dcount(ev: &mut Eval, args: &[BExpr]) -> Value {
    let field = args::given(args, 1).is_some();
    match selection(ev, args, true) {
        Ok(sel) if !field => Value::Number(sel.records() as f64),
        Ok(sel) => Value::Number(sel.values.iter().filter(|v| matches!(v, Value::Number(_))).count() as f64),
        Err(e) => e,
    }
}

/// `DCOUNTA(database, [field], criteria)`: the selected values that are
/// not empty (empty text counts, as in COUNTA), or without a field the
/// records selected.
fn dcounta(ev: &mut Eval, args: &[BExpr]) -> Value {
    let field = args::given(args, 1).is_some();
    match selection(ev, args, true) {
        Ok(sel) if !field => Value::Number(sel.records() as f64),
        Ok(sel) => Value::Number(sel.values.iter().filter(|v| !v.is_empty()).count() as f64),
        Err(e) => e,
    }
}

/// `DGET(database, field, criteria)`: the field of the one record
/// selected (an empty cell reads as 0); #VALUE! when none is, #NUM! when
/// several are.
fn dget(ev: &mut Eval, args: &[BExpr]) -> Value {
    match selection(ev, args, false) {
        Ok(sel) => match (sel.records(), sel.values.into_iter().next()) {
            (1, Some(Value::Empty) | None) => Value::Number(0.0),
            (1, Some(v)) => v,
            (0, _) => Value::Error(ErrorKind::Value),
            _ => Value::Error(ErrorKind::Num),
        },
        Err(e) => e,
    }
}
