//! Information functions: the IS* tests (ISNUMBER, ISTEXT, ISNONTEXT,
//! ISLOGICAL, ISBLANK, ISERROR, ISERR, ISNA) and NA(). A test looks at one
//! value, errors included, and never fails; on arrays (inside names) it
//! works element by element.

use super::FnSpec;
use super::args::lift;
use crate::eval::{BExpr, Eval};
use crate::value::{ErrorKind, Value};

/// The information category.
pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("ISNUMBER", 1, 1, isnumber),
    FnSpec::new("ISTEXT", 1, 1, istext),
    FnSpec::new("ISNONTEXT", 1, 1, isnontext),
    FnSpec::new("ISLOGICAL", 1, 1, islogical),
    FnSpec::new("ISBLANK", 1, 1, isblank),
    FnSpec::new("ISERROR", 1, 1, iserror),
    FnSpec::new("ISERR", 1, 1, iserr),
    FnSpec::new("ISNA", 1, 1, isna),
    FnSpec::new("NA", 0, 0, na),
];

/// Lifts a test on one value (errors included) into a boolean function.
fn is(ev: &mut Eval, args: &[BExpr], test: fn(&Value) -> bool) -> Value {
    lift(ev, args, |v| Value::Bool(test(&v[0])))
}

fn isnumber(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, |v| matches!(v, Value::Number(_)))
}

fn istext(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, |v| matches!(v, Value::Text(_)))
}

fn isnontext(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, |v| !matches!(v, Value::Text(_)))
}

fn islogical(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, |v| matches!(v, Value::Bool(_)))
}

/// True only for a truly empty cell; a formula's "" is text.
fn isblank(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, Value::is_empty)
}

fn iserror(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, Value::is_error)
}

fn iserr(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, |v| matches!(v, Value::Error(e) if *e != ErrorKind::NA))
}

fn isna(ev: &mut Eval, args: &[BExpr]) -> Value {
    is(ev, args, |v| matches!(v, Value::Error(ErrorKind::NA)))
}

fn na(_: &mut Eval, _: &[BExpr]) -> Value {
    Value::Error(ErrorKind::NA)
}
