//! Logical functions: IF, IFS, SWITCH, IFERROR, IFNA, AND, OR, XOR, NOT,
//! CHOOSE, LET, TRUE and FALSE. IF, IFS, SWITCH, IFERROR, IFNA and CHOOSE
//! evaluate only what they need and return the argument they pick unread,
//! so `SUM(IF(x, A1:A3, B1:B3))` and `SUM(CHOOSE(2, A1, B1:B9))` sum a
//! reference. With an array condition or index (inside names) they work
//! element by element instead, evaluating every branch. AND, OR and XOR
//! follow Excel's aggregate rules: inside references and arrays only numbers
//! and booleans count, text and empty cells are skipped, and when nothing
//! counts the result is #VALUE!.

use super::Excel::{V2013, V2019, V2021};
use super::args::{Operand, Source, for_each_dense, lift, lift_values};
use super::{Arg, FnSpec, Intrinsic, VARIADIC};
use crate::eval::{BExpr, Eval};
use crate::value::{ErrorKind, Value, compare};
use std::cmp::Ordering;

/// The logical category.
pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("IF", 2, 3, if_).returns_ref().intrinsic(Intrinsic::If),
    FnSpec::new("IFS", 2, PAIRS_MAX_ARGS, ifs).returns_ref().since(V2019).openformula("COM.MICROSOFT.IFS"),
    FnSpec::new("SWITCH", 3, PAIRS_MAX_ARGS, switch).returns_ref().since(V2019).openformula("COM.MICROSOFT.SWITCH"),
    FnSpec::new("IFERROR", 2, 2, iferror).returns_ref(),
    FnSpec::new("IFNA", 2, 2, ifna).returns_ref().since(V2013),
    FnSpec::new("AND", 1, VARIADIC, and).intrinsic(Intrinsic::And),
    FnSpec::new("OR", 1, VARIADIC, or).intrinsic(Intrinsic::Or),
    FnSpec::new("XOR", 1, VARIADIC, xor).since(V2013),
    FnSpec::new("NOT", 1, 1, not).intrinsic(Intrinsic::Not),
    FnSpec::new("CHOOSE", 2, VARIADIC, choose).returns_ref(),
    FnSpec::new("LET", 3, LET_MAX_ARGS, let_)
        .args(&[Arg::Scoped])
        .returns_ref()
        .since(V2021)
        .openformula("COM.MICROSOFT.LET")
        .not_in_libreoffice(),
    FnSpec::new("TRUE", 0, 0, true_),
    FnSpec::new("FALSE", 0, 0, false_),
];

/// Excel allows 126 name/value pairs plus the final calculation.
const LET_MAX_ARGS: usize = 253;

/// IFS takes up to 127 condition/value pairs; SWITCH its expression, up to
/// 126 value/result pairs and a default.
const PAIRS_MAX_ARGS: usize = 254;

fn if_(ev: &mut Eval, args: &[BExpr]) -> Value {
    let cond = ev.read(&args[0]);
    if let Value::Array(_) = cond {
        let then = ev.read(&args[1]);
        let other = args.get(2).map_or(Value::Bool(false), |a| ev.read(a));
        return lift_values(&[cond, then, other], |v| match v[0].to_bool() {
            Ok(true) => v[1].clone(),
            Ok(false) => v[2].clone(),
            Err(e) => Value::Error(e),
        });
    }
    match cond.to_bool() {
        Ok(true) => ev.eval(&args[1]),
        Ok(false) => args.get(2).map_or(Value::Bool(false), |a| ev.eval(a)),
        Err(e) => Value::Error(e),
    }
}

/// How IFS and SWITCH choose: given the argument count and a reader of
/// arguments by index (called only for those it needs, in order), the index
/// of the argument to return, or the error that is the result.
type Choice = fn(usize, &mut dyn FnMut(usize) -> Value) -> Result<usize, ErrorKind>;

/// Evaluates a choosing function lazily: only the arguments `choice` reads,
/// then the chosen one, unread. When one it reads is an array (inside
/// names), every argument is read and the choice is made element by element.
fn pick(ev: &mut Eval, args: &[BExpr], choice: Choice) -> Value {
    let mut array = false;
    let chosen = choice(args.len(), &mut |i| {
        let v = ev.read(&args[i]);
        array |= matches!(v, Value::Array(_));
        v
    });
    if array {
        let vals: Vec<Value> = args.iter().map(|a| ev.read(a)).collect();
        return lift_values(&vals, |v| match choice(v.len(), &mut |i| v[i].clone()) {
            Ok(i) => v[i].clone(),
            Err(e) => Value::Error(e),
        });
    }
    match chosen {
        Ok(i) => ev.eval(&args[i]),
        Err(e) => Value::Error(e),
    }
}

/// `IFS(cond1, value1, ...)`: the value after the first true condition; none
/// is #N/A, a condition that is not a boolean #VALUE! (or its error). Excel
/// refuses an odd argument count when the formula is typed; here it is
/// #VALUE!.
fn ifs_choice(n: usize, arg: &mut dyn FnMut(usize) -> Value) -> Result<usize, ErrorKind> {
    if !n.is_multiple_of(2) {
        return Err(ErrorKind::Value);
    }
    for i in (0..n).step_by(2) {
        if arg(i).to_bool()? {
            return Ok(i + 1);
        }
    }
    Err(ErrorKind::NA)
}

fn ifs(ev: &mut Eval, args: &[BExpr]) -> Value {
    pick(ev, args, ifs_choice)
}

/// `SWITCH(x, value1, result1, ..., [default])`: the result after the first
/// value equal to `x` (as `=` compares: text ignores case, empty equals 0
/// and ""), else the default, else #N/A. An error in `x` or in a value
/// compared is the result.
fn switch_choice(n: usize, arg: &mut dyn FnMut(usize) -> Value) -> Result<usize, ErrorKind> {
    let x = arg(0);
    if let Value::Error(e) = x {
        return Err(e);
    }
    for i in (1..n - 1).step_by(2) {
        match arg(i) {
            Value::Error(e) => return Err(e),
            v if compare(&x, &v) == Ordering::Equal => return Ok(i + 1),
            _ => {}
        }
    }
    if n.is_multiple_of(2) { Ok(n - 1) } else { Err(ErrorKind::NA) }
}

fn switch(ev: &mut Eval, args: &[BExpr]) -> Value {
    pick(ev, args, switch_choice)
}

/// IFERROR and IFNA: the first argument, read, unless it is an error that
/// `catch` accepts, then the second (unread). On arrays, element by element.
fn if_error_like(ev: &mut Eval, args: &[BExpr], catch: fn(ErrorKind) -> bool) -> Value {
    let caught = |v: &Value| matches!(v, Value::Error(e) if catch(*e));
    match ev.read(&args[0]) {
        v if caught(&v) => ev.eval(&args[1]),
        Value::Array(a) if a.values().iter().any(caught) => {
            let fallback = ev.read(&args[1]);
            lift_values(&[Value::Array(a), fallback], |v| if caught(&v[0]) { v[1].clone() } else { v[0].clone() })
        }
        v => v,
    }
}

fn iferror(ev: &mut Eval, args: &[BExpr]) -> Value {
    if_error_like(ev, args, |_| true)
}

fn ifna(ev: &mut Eval, args: &[BExpr]) -> Value {
    if_error_like(ev, args, |e| e == ErrorKind::NA)
}

/// Folds AND, OR or XOR (`op`, starting from `init`) over every argument
/// with Excel's rules.
fn fold_logical(ev: &mut Eval, args: &[BExpr], init: bool, op: fn(bool, bool) -> bool) -> Value {
    let mut state = Logical { op, acc: init, seen: false, error: None };
    for_each_dense(ev, args, |o| match o {
        Operand::Scalar(v, Source::Range) => state.aggregate(v),
        Operand::Scalar(v, Source::Direct) => match v.to_bool() {
            Ok(b) => state.push(b),
            Err(e) => _ = state.error.get_or_insert(e),
        },
        // Numbers and booleans all count, as `aggregate` counts them.
        Operand::Dense(nums, _) if state.error.is_none() => nums.iter().for_each(|&x| state.push(x != 0.0)),
        Operand::Dense(..) => {}
    });
    match state.error {
        Some(e) => Value::Error(e),
        None if state.seen => Value::Bool(state.acc),
        None => Value::Error(ErrorKind::Value),
    }
}

/// Running state of AND / OR / XOR.
struct Logical {
    op: fn(bool, bool) -> bool,
    acc: bool,
    seen: bool,
    error: Option<ErrorKind>,
}

impl Logical {
    fn push(&mut self, b: bool) {
        self.seen = true;
        self.acc = (self.op)(self.acc, b);
    }

    /// One value inside a reference or an array: numbers and booleans
    /// count, text and empty cells are skipped, the first error sticks.
    fn aggregate(&mut self, v: &Value) {
        if self.error.is_some() {
            return;
        }
        match v {
            Value::Number(n) => self.push(*n != 0.0),
            Value::Bool(b) => self.push(*b),
            Value::Error(e) => self.error = Some(*e),
            _ => {}
        }
    }
}

fn and(ev: &mut Eval, args: &[BExpr]) -> Value {
    fold_logical(ev, args, true, |a, b| a && b)
}

fn or(ev: &mut Eval, args: &[BExpr]) -> Value {
    fold_logical(ev, args, false, |a, b| a || b)
}

/// TRUE when an odd number of the values counted are true.
fn xor(ev: &mut Eval, args: &[BExpr]) -> Value {
    fold_logical(ev, args, false, |a, b| a != b)
}

fn not(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift(ev, args, |v| match v[0].to_bool() {
        Ok(b) => Value::Bool(!b),
        Err(e) => Value::Error(e),
    })
}

/// CHOOSE's index: truncated, 1 ..= `n`, else #VALUE!.
fn choice(index: &Value, n: usize) -> Result<usize, ErrorKind> {
    let i = index.to_number()?.trunc();
    if i < 1.0 || i > n as f64 { Err(ErrorKind::Value) } else { Ok(i as usize) }
}

fn choose(ev: &mut Eval, args: &[BExpr]) -> Value {
    let n = args.len() - 1;
    let index = ev.read(&args[0]);
    if let Value::Array(_) = index {
        let mut vals = Vec::with_capacity(args.len());
        vals.push(index);
        vals.extend(args[1..].iter().map(|a| ev.read(a)));
        return lift_values(&vals, |v| match choice(&v[0], n) {
            Ok(i) => v[i].clone(),
            Err(e) => Value::Error(e),
        });
    }
    match choice(&index, n) {
        Ok(i) => ev.eval(&args[i]),
        Err(e) => Value::Error(e),
    }
}

/// `LET(name1, value1, [name2, value2, ...], calculation)`: the binder has
/// turned every name into `BExpr::Local(slot)`. Values are kept unread, so
/// a variable may hold a reference.
fn let_(ev: &mut Eval, args: &[BExpr]) -> Value {
    if args.len().is_multiple_of(2) {
        return Value::Error(ErrorKind::Value);
    }
    let Some((calculation, pairs)) = args.split_last() else {
        return Value::Error(ErrorKind::Value);
    };
    for pair in pairs.chunks(2) {
        let BExpr::Local(slot) = pair[0] else {
            return Value::Error(ErrorKind::Name);
        };
        let v = ev.eval(&pair[1]);
        ev.set_local(slot, v);
    }
    ev.eval(calculation)
}

fn true_(_: &mut Eval, _: &[BExpr]) -> Value {
    Value::Bool(true)
}

fn false_(_: &mut Eval, _: &[BExpr]) -> Value {
    Value::Bool(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choice_truncates_and_bounds() {
        assert_eq!(choice(&Value::Number(2.9), 3), Ok(2));
        assert_eq!(choice(&Value::text("3"), 3), Ok(3));
        assert_eq!(choice(&Value::Number(0.5), 3), Err(ErrorKind::Value));
        assert_eq!(choice(&Value::Number(4.0), 3), Err(ErrorKind::Value));
        assert_eq!(choice(&Value::Error(ErrorKind::NA), 3), Err(ErrorKind::NA));
    }

    #[test]
    fn logical_state_skips_text_and_keeps_first_error() {
        let mut s = Logical { op: |a, b| a && b, acc: true, seen: false, error: None };
        s.aggregate(&Value::text("abc"));
        s.aggregate(&Value::Empty);
        assert!(!s.seen);
        s.aggregate(&Value::Number(2.0));
        s.aggregate(&Value::Error(ErrorKind::Div0));
        s.aggregate(&Value::Error(ErrorKind::NA));
        assert!(s.seen && s.acc);
        assert_eq!(s.error, Some(ErrorKind::Div0));
    }

    /// The indexes a choice reads, and what it picks.
    fn reads(choice: Choice, vals: &[Value]) -> (Vec<usize>, Result<usize, ErrorKind>) {
        let mut read = Vec::new();
        let r = choice(vals.len(), &mut |i| {
            read.push(i);
            vals[i].clone()
        });
        (read, r)
    }

    #[test]
    fn choices_read_only_what_they_need() {
        let (n, t) = (Value::Number, Value::text);
        let sw = [t("b"), n(1.0), t("one"), t("B"), t("bee"), Value::Error(ErrorKind::Div0), t("x")];
        assert_eq!(reads(switch_choice, &sw), (vec![0, 1, 3], Ok(4)));
        let sw = [n(2.0), n(1.0), t("one"), t("two"), t("x"), t("default")];
        assert_eq!(reads(switch_choice, &sw), (vec![0, 1, 3], Ok(5)));
        assert_eq!(reads(switch_choice, &sw[..5]), (vec![0, 1, 3], Err(ErrorKind::NA)));
        let sw = [n(2.0), Value::Error(ErrorKind::Div0), t("a"), n(2.0), t("b")];
        assert_eq!(reads(switch_choice, &sw), (vec![0, 1], Err(ErrorKind::Div0)));
        let ifs = [Value::Bool(false), t("a"), n(3.0), t("b"), Value::Error(ErrorKind::Ref), t("c")];
        assert_eq!(reads(ifs_choice, &ifs), (vec![0, 2], Ok(3)));
        assert_eq!(reads(ifs_choice, &ifs[..3]), (vec![], Err(ErrorKind::Value)));
    }
}
