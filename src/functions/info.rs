//! Information functions: the IS* tests (ISNUMBER, ISTEXT, ISNONTEXT,
//! ISLOGICAL, ISBLANK, ISERROR, ISERR, ISNA, ISEVEN, ISODD, ISREF), the
//! type codes (TYPE, ERROR.TYPE), the conversions N and T, and NA(). A test
//! looks at one value, errors included, and never fails (ISEVEN and ISODD
//! need a number); on arrays (inside names) the tests, ERROR.TYPE, N and T
//! work element by element. ISREF sees its argument unread. What a
//! formula asks about the workbook (FORMULATEXT, ISFORMULA, SHEET, SHEETS,
//! CELL, INFO) is in `workbook`.

mod workbook;

use super::Excel::V2013;
use super::args::{lift, num_result};
use super::{Arg, FnSpec};
use crate::eval::{BExpr, Eval};
use crate::value::{ErrorKind, Value, booleans};

/// The information category.
pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("ISNUMBER", 1, 1, isnumber).test(is_number),
    FnSpec::new("ISTEXT", 1, 1, istext).test(is_text),
    FnSpec::new("ISNONTEXT", 1, 1, isnontext).test(is_nontext),
    FnSpec::new("ISLOGICAL", 1, 1, islogical).test(is_logical),
    FnSpec::new("ISBLANK", 1, 1, isblank).test(Value::is_empty),
    FnSpec::new("ISERROR", 1, 1, iserror).test(Value::is_error),
    FnSpec::new("ISERR", 1, 1, iserr).test(is_err),
    FnSpec::new("ISNA", 1, 1, isna).test(is_na),
    FnSpec::new("ISEVEN", 1, 1, iseven),
    FnSpec::new("ISODD", 1, 1, isodd),
    FnSpec::new("ISREF", 1, 1, isref).args(&[Arg::Position]),
    FnSpec::new("ERROR.TYPE", 1, 1, error_type),
    FnSpec::new("TYPE", 1, 1, type_),
    FnSpec::new("N", 1, 1, n),
    FnSpec::new("T", 1, 1, t),
    FnSpec::new("NA", 0, 0, na),
    FnSpec::new("FORMULATEXT", 1, 1, workbook::formulatext).args(&[Arg::Position]).volatile().since(V2013),
    FnSpec::new("ISFORMULA", 1, 1, workbook::isformula).args(&[Arg::Position]).volatile().since(V2013),
    FnSpec::new("SHEET", 0, 1, workbook::sheet).args(&[Arg::Position]).since(V2013),
    FnSpec::new("SHEETS", 0, 1, workbook::sheets).args(&[Arg::Position]).since(V2013),
    FnSpec::new("CELL", 1, 2, workbook::cell).volatile(),
    FnSpec::new("INFO", 1, 1, workbook::info).volatile(),
];

/// Lifts a test on one value (errors included) into a boolean function:
/// over an array, a dense array of booleans. The tests look only at the
/// kind of a number or a boolean, so a dense array takes one test.
fn is(ev: &mut Eval, args: &[BExpr], test: fn(&Value) -> bool) -> Value {
    let bit = |v: &Value| f64::from(u8::from(test(v)));
    match ev.read(&args[0]) {
        Value::Array(a) => {
            let bits = match a.as_dense() {
                Some((nums, kind)) => vec![nums.first().map_or(0.0, |&x| bit(&kind.value(x))); nums.len()],
                None => a.values().iter().map(bit).collect(),
            };
            booleans(a.rows, a.cols, bits)
        }
        v => Value::Bool(test(&v)),
    }
}

// The tests' rules (the table gives each to its function as its `test`,
// for the compiled forms), and the functions applying them.

fn is_number(v: &Value) -> bool {
    matches!(v, Value::Number(_))
}

fn is_text(v: &Value) -> bool {
    matches!(v, Value::Text(_))
}

fn is_nontext(v: &Value) -> bool {
    !is_text(v)
}

fn is_logical(v: &Value) -> bool {
    matches!(v, Value::Bool(_))
}

fn is_err(v: &Value) -> bool {
    matches!(v, Value::Error(e) if *e != ErrorKind::NA)
}

fn is_na(v: &Value) -> bool {
    matches!(v, Value::Error(ErrorKind::NA))
}

fn isnumber(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, is_number)
}

fn istext(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, is_text)
}

fn isnontext(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, is_nontext)
}

fn islogical(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, is_logical)
}

/// True only for a truly empty cell; a formula's "" is text.
fn isblank(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, Value::is_empty)
}

fn iserror(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, Value::is_error)
}

fn iserr(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, is_err)
}

fn isna(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, is_na)
}

/// ISEVEN and ISODD: the number truncated, then tested for parity. Text
/// reading as a number counts; a boolean is #VALUE!, as in Excel.
fn parity(ev: &mut Eval, args: &[BExpr], odd: bool) -> Value {
    lift(ev, args, |v| match &v[0] {
        Value::Bool(_) => Value::Error(ErrorKind::Value),
        v => match v.to_number() {
            Ok(n) => Value::Bool((n.trunc() % 2.0 != 0.0) == odd),
            Err(e) => Value::Error(e),
        },
    })
}

fn iseven(ev: &mut Eval, args: &[BExpr]) -> Value {
    parity(ev, args, false)
}

fn isodd(ev: &mut Eval, args: &[BExpr]) -> Value {
    parity(ev, args, true)
}

/// TRUE when the argument, evaluated but not read, is a reference: `A1`,
/// `A1:B2`, a name for a range, INDEX or OFFSET; FALSE for any value.
fn isref(ev: &mut Eval, args: &[BExpr]) -> Value {
    Value::Bool(ev.eval(&args[0]).area_list().is_some())
}

/// `#NULL!` 1, `#DIV/0!` 2, `#VALUE!` 3, `#REF!` 4, `#NAME?` 5, `#NUM!` 6,
/// `#N/A` 7; anything but an error is #N/A.
fn error_type(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift(ev, args, |v| match v[0] {
        Value::Error(e) => Value::Number(error_code(e)),
        _ => Value::Error(ErrorKind::NA),
    })
}

fn error_code(e: ErrorKind) -> f64 {
    match e {
        ErrorKind::Null => 1.0,
        ErrorKind::Div0 => 2.0,
        ErrorKind::Value => 3.0,
        ErrorKind::Ref => 4.0,
        ErrorKind::Name => 5.0,
        ErrorKind::Num => 6.0,
        ErrorKind::NA => 7.0,
        ErrorKind::Spill => 9.0,
        ErrorKind::Calc => 14.0,
    }
}

/// The type of the whole argument, read: number (and empty) 1, text 2,
/// boolean 4, error 16, array 64. Not element-wise.
fn type_(ev: &mut Eval, args: &[BExpr]) -> Value {
    let code = match ev.read(&args[0]) {
        Value::Empty | Value::Number(_) => 1.0,
        Value::Text(_) => 2.0,
        Value::Bool(_) => 4.0,
        Value::Error(_) => 16.0,
        Value::Array(_) | Value::Ref(_) => 64.0,
    };
    Value::Number(code)
}

/// A number as itself, TRUE 1, an error as itself, anything else (text,
/// even `"7"`, FALSE, empty) 0.
fn n(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift(ev, args, |v| match &v[0] {
        Value::Text(_) | Value::Empty => Value::Number(0.0),
        v => num_result(v.to_number()),
    })
}

/// Text as itself, an error as itself, anything else the empty text.
fn t(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift(ev, args, |v| match &v[0] {
        v @ (Value::Text(_) | Value::Error(_)) => v.clone(),
        _ => Value::text(""),
    })
}

fn na(_: &mut Eval, _: &[BExpr]) -> Value {
    Value::Error(ErrorKind::NA)
}
