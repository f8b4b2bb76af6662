//! LAMBDA and the functions that call one: MAP, REDUCE, SCAN, BYROW,
//! BYCOL, MAKEARRAY and ISOMITTED (`lambda/helpers.rs`); GROUPBY, PIVOTBY
//! and PERCENTOF (`lambda/group.rs`).
//!
//! The binder (`eval::bind::lambda`) turns `LAMBDA(x, y, body)` into a
//! bound function value: a call node holding the slots its parameters
//! and variables use, the count of required parameters, one
//! `BExpr::Local` per parameter and the bound body. Calling it (a call
//! suffix `LAMBDA(x, x+1)(5)`, a LET variable `f(3)`, a workbook name
//! `MyFn(3)`, or MAP and the others) sets the parameters' slots, evaluates
//! the body as an array formula and puts the slots back, so recursion
//! sees its own values. A named lambda calling itself is bound once per
//! evaluation and called by its name's id at run time ([`NAMED`]), never
//! inlined without end. A function's bare name where a function is
//! expected (`BYROW(A1:C3, SUM)`, [`Arg::Function`]) is the function
//! itself ([`ETA`]). Calls nest at most [`MAX_LAMBDA_DEPTH`] deep and one
//! evaluation makes at most [`MAX_LAMBDA_CALLS`]; past either a call is
//! #NUM!.

mod group;
mod helpers;

use super::Excel::{V365, V2024};
use super::{Arg, FnSpec, Intrinsic, VARIADIC};
use crate::eval::{BExpr, Eval};
use crate::ids::NameId;
use crate::value::{ErrorKind, Value};

/// The lambda category.
pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("LAMBDA", 1, LAMBDA_MAX_ARGS, lambda)
        .intrinsic(Intrinsic::Lambda)
        .since(V2024)
        .openformula("COM.MICROSOFT.LAMBDA")
        .not_in_libreoffice(),
    FnSpec::new("ISOMITTED", 1, 1, isomitted).since(V2024).openformula("COM.MICROSOFT.ISOMITTED").not_in_libreoffice(),
    FnSpec::new("MAP", 2, VARIADIC, helpers::map)
        .args(&[Arg::Function])
        .since(V2024)
        .openformula("COM.MICROSOFT.MAP")
        .not_in_libreoffice(),
    FnSpec::new("REDUCE", 3, 3, helpers::reduce)
        .args(&[Arg::Value, Arg::Value, Arg::Function])
        .since(V2024)
        .openformula("COM.MICROSOFT.REDUCE")
        .not_in_libreoffice(),
    FnSpec::new("SCAN", 3, 3, helpers::scan)
        .args(&[Arg::Value, Arg::Value, Arg::Function])
        .since(V2024)
        .openformula("COM.MICROSOFT.SCAN")
        .not_in_libreoffice(),
    FnSpec::new("BYROW", 2, 2, helpers::byrow)
        .args(&[Arg::Value, Arg::Function])
        .since(V2024)
        .openformula("COM.MICROSOFT.BYROW")
        .not_in_libreoffice(),
    FnSpec::new("BYCOL", 2, 2, helpers::bycol)
        .args(&[Arg::Value, Arg::Function])
        .since(V2024)
        .openformula("COM.MICROSOFT.BYCOL")
        .not_in_libreoffice(),
    FnSpec::new("MAKEARRAY", 3, 3, helpers::makearray)
        .args(&[Arg::Value, Arg::Value, Arg::Function])
        .since(V2024)
        .openformula("COM.MICROSOFT.MAKEARRAY")
        .not_in_libreoffice(),
    FnSpec::new("GROUPBY", 3, 8, group::groupby)
        .args(&[Arg::Value, Arg::Value, Arg::Function, Arg::Value])
        .since(V365)
        .openformula("COM.MICROSOFT.GROUPBY")
        .not_in_libreoffice(),
    FnSpec::new("PIVOTBY", 4, 11, group::pivotby)
        .args(&[Arg::Value, Arg::Value, Arg::Value, Arg::Function, Arg::Value])
        .since(V365)
        .openformula("COM.MICROSOFT.PIVOTBY")
        .not_in_libreoffice(),
    FnSpec::new("PERCENTOF", 2, 2, group::percentof)
        .since(V365)
        .openformula("COM.MICROSOFT.PERCENTOF")
        .not_in_libreoffice(),
];

/// Excel allows 253 parameters plus the calculation.
const LAMBDA_MAX_ARGS: usize = 254;

/// LAMBDA calls nest at most this deep (a recursive named lambda's
/// depth); the next call is #NUM!. Excel's own limit depends on the
/// formula (its calculation stack); 1,024 levels is what simple recursive
/// lambdas reach there. Deep calls grow the stack as they go
/// (`STACK_RED_ZONE`), so the limit holds on any thread.
pub const MAX_LAMBDA_DEPTH: usize = 1024;

/// One evaluation makes at most this many LAMBDA calls (a MAKEARRAY as
/// large as an array may be, four calls per element): past it every call
/// is #NUM!, so an exponential recursion ends rather than hangs.
pub const MAX_LAMBDA_CALLS: u64 = 4 * crate::value::MAX_ARRAY_CELLS;

/// A call starts on a fresh stack segment of [`STACK_SEGMENT`] bytes when
/// less than this is left.
const STACK_RED_ZONE: usize = 256 * 1024;
const STACK_SEGMENT: usize = 4 * 1024 * 1024;

/// A call of a value: `callee(args...)` (the call suffix, a LET variable
/// holding a LAMBDA, a workbook name holding one).
pub static APPLY: FnSpec = FnSpec::new("(CALL)", 1, VARIADIC, apply);

/// A named lambda called from inside itself (or from a name it calls):
/// the name's id, then the arguments (see [`Eval::named_lambda`]).
pub static NAMED: FnSpec = FnSpec::new("(NAMED CALL)", 1, VARIADIC, named);

/// A built-in function given by its bare name: its one argument is a
/// call of it without arguments, never evaluated.
pub static ETA: FnSpec = FnSpec::new("(FUNCTION)", 1, 1, uncalled);

/// An uncalled LAMBDA (or function name) as a cell's value: #CALC!.
fn uncalled(_: &mut Eval, _: &[BExpr]) -> Value {
    Value::Error(ErrorKind::Calc)
}

fn lambda(ev: &mut Eval, args: &[BExpr]) -> Value {
    uncalled(ev, args)
}

/// `ISOMITTED(x)`: whether parameter `x` was left out of the call (an
/// omitted argument, `f(1,)`, or an optional parameter not given).
fn isomitted(ev: &mut Eval, args: &[BExpr]) -> Value {
    Value::Bool(matches!(ev.eval(&args[0]), Value::Empty))
}

fn apply(ev: &mut Eval, args: &[BExpr]) -> Value {
    let Some((callee, rest)) = args.split_first() else { return Value::Error(ErrorKind::Value) };
    let values = rest.iter().map(|a| ev.eval(a)).collect();
    call(ev, callee, values)
}

fn named(ev: &mut Eval, args: &[BExpr]) -> Value {
    let Some((BExpr::Const(Value::Number(id)), rest)) = args.split_first() else {
        return Value::Error(ErrorKind::Value);
    };
    let values = rest.iter().map(|a| ev.eval(a)).collect();
    match ev.named_lambda(NameId::at(*id as usize)) {
        Some(f) => call(ev, &f, values),
        None => Value::Error(ErrorKind::Name),
    }
}

/// What a bound expression calls, when it is a function value.
pub(crate) enum Callable<'e> {
    /// A LAMBDA's bound call node's arguments (see the module doc).
    Lambda(&'e [BExpr]),
    /// A built-in function named bare.
    Builtin(&'static FnSpec),
}

/// The function `e` is, when it is one written out (a LAMBDA, a name
/// holding one, a function's name): LET variables holding one were
/// replaced by it at binding.
pub(crate) fn callable(e: &BExpr) -> Option<Callable<'_>> {
    match e {
        BExpr::ArrayMode(x) => callable(x),
        BExpr::Kept(x) => callable(x),
        BExpr::Call(f, items) if f.intrinsic == Some(Intrinsic::Lambda) => Some(Callable::Lambda(items)),
        BExpr::Call(f, items) if std::ptr::eq(*f, &ETA) => match items.first() {
            Some(BExpr::Call(spec, _)) => Some(Callable::Builtin(spec)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `spec` stacks function values into a vector of functions
/// (HSTACK, VSTACK), as GROUPBY and PIVOTBY take one: the binder reads a
/// bare function name among its arguments as the function, and the
/// vector is recognised where it is written (never a run-time value).
pub fn stacks_functions(spec: &FnSpec) -> bool {
    matches!(spec.name, "HSTACK" | "VSTACK")
}

/// Whether `f` takes `n` arguments, for the helpers' checks.
pub(crate) fn takes(f: &Callable, n: usize) -> bool {
    match f {
        Callable::Lambda([_, BExpr::Const(Value::Number(required)), rest @ .., _]) => {
            (*required as usize..=rest.len()).contains(&n)
        }
        Callable::Lambda(_) => false,
        Callable::Builtin(spec) => spec.arity_error(n).is_none(),
    }
}

/// Calls the function value `f` on `args` (each as evaluated: a
/// reference stays one); #VALUE! when `f` is not a function or the
/// argument count does not fit.
pub fn call(ev: &mut Eval, f: &BExpr, args: Vec<Value>) -> Value {
    match callable(f) {
        Some(f) => invoke(ev, &f, args),
        None => Value::Error(ErrorKind::Value),
    }
}

/// [`call`] of a function known to be one.
pub(crate) fn invoke(ev: &mut Eval, f: &Callable, args: Vec<Value>) -> Value {
    match f {
        Callable::Lambda(items) => call_lambda(ev, items, args),
        Callable::Builtin(spec) => {
            if spec.arity_error(args.len()).is_some() {
                return Value::Error(ErrorKind::Value);
            }
            let bound: Vec<BExpr> = args.into_iter().map(BExpr::Const).collect();
            (spec.eval)(ev, &bound)
        }
    }
}

/// A LAMBDA's call: `items` are the slots' end, the required count, the
/// parameters' slots and the body.
fn call_lambda(ev: &mut Eval, items: &[BExpr], args: Vec<Value>) -> Value {
    let [BExpr::Const(Value::Number(end)), BExpr::Const(Value::Number(required)), rest @ .., body] = items else {
        return Value::Error(ErrorKind::Value);
    };
    let (end, required) = (*end as usize, *required as usize);
    if args.len() > rest.len() || args.len() < required {
        return Value::Error(ErrorKind::Value);
    }
    let first = match rest.first() {
        Some(BExpr::Local(s)) => *s,
        _ => end,
    };
    if !ev.enter_call(MAX_LAMBDA_DEPTH, MAX_LAMBDA_CALLS) {
        return Value::Error(ErrorKind::Num);
    }
    let saved = ev.take_locals(first..end.max(first));
    for (p, v) in rest.iter().zip(args) {
        if let BExpr::Local(s) = p {
            ev.set_local(*s, v);
        }
    }
    let v = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || ev.eval_array(body));
    ev.put_locals(first, saved);
    ev.leave_call();
    v
}
