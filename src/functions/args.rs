//! Shared argument helpers, so function bodies stay short: read one argument
//! as a scalar, a number, a text or a boolean with Excel's coercions, and
//! lift a scalar function element-wise over array arguments.

use crate::eval::{BExpr, Eval};
use crate::value::{Array, ErrorKind, Kind, MAX_ARRAY_CELLS, Value, collect_array};
use std::sync::Arc;

/// Evaluates an argument to one value: a reference is read (intersection
/// outside names, see [`Eval::value`]); an array gives its top-left value.
pub fn scalar(ev: &mut Eval, e: &BExpr) -> Value {
    let v = ev.eval(e);
    match ev.value(v) {
        Value::Array(a) => a.first().unwrap_or(Value::Error(ErrorKind::Value)),
        v => v,
    }
}

/// An argument read as an array formula (MMULT's, XNPV's values): its
/// rows, columns and elements, a reference giving its cells and a scalar
/// being 1×1; an error value instead of an array is the error. An array
/// is shared, not copied: constant arguments (folded names) cost nothing
/// to read.
pub fn array(ev: &mut Eval, e: &BExpr) -> Result<Arc<Array>, ErrorKind> {
    let v = ev.eval_array(e);
    match ev.array_value(v) {
        Value::Array(a) => Ok(a),
        Value::Error(e) => Err(e),
        v => Ok(Arc::new(Array::new(1, 1, vec![v]))),
    }
}

/// Argument `i` unless it is absent or omitted (`OFFSET(A1,1,1,,)`): for
/// arguments whose default is not what an omitted argument reads as (an
/// omitted argument binds to an empty value, which reads as 0, "" or FALSE).
pub fn given(args: &[BExpr], i: usize) -> Option<&BExpr> {
    args.get(i).filter(|a| !matches!(a, BExpr::Const(Value::Empty)))
}

/// An argument as a number (`"3"` is 3, TRUE is 1, `"abc"` is #VALUE!).
pub fn number(ev: &mut Eval, e: &BExpr) -> Result<f64, ErrorKind> {
    scalar(ev, e).to_number()
}

/// Evaluates every argument to values and calls `f` on scalars; when any
/// argument is an array, `f` runs element by element over the broadcast
/// shape (a single row or column stretches, cells outside a smaller array
/// are #N/A), giving an array. This is how ABS, MOD, LEN, ISNUMBER, ... work
/// on arrays inside names. One or two arguments are read onto the stack:
/// a call on scalars allocates nothing.
pub fn lift(ev: &mut Eval, args: &[BExpr], f: impl Fn(&[Value]) -> Value) -> Value {
    match args {
        [a] => lift_values(&[ev.read(a)], f),
        [a, b] => {
            let a = ev.read(a);
            lift_values(&[a, ev.read(b)], f)
        }
        args => lift_values(&args.iter().map(|a| ev.read(a)).collect::<Vec<_>>(), f),
    }
}

/// [`lift`] of a fallible scalar function: an `Err` is its error value.
pub fn lift_res(ev: &mut Eval, args: &[BExpr], f: impl Fn(&[Value]) -> Result<Value, ErrorKind>) -> Value {
    lift(ev, args, |v| f(v).unwrap_or_else(Value::Error))
}

/// The arguments read as values for [`lift_values`], an optional one that
/// is absent or omitted (`PV(r,n,p,,1)`) taking its default:
/// `defaults[i]` is argument `i`'s, `None` for one without (an omitted
/// argument then reads as empty). An empty cell given as the argument
/// reads as empty, as Excel reads it.
pub fn read_or_default(ev: &mut Eval, args: &[BExpr], defaults: &[Option<f64>]) -> Vec<Value> {
    let n = args.len().max(defaults.len());
    (0..n)
        .map(|i| match (given(args, i), defaults.get(i).copied().flatten()) {
            (Some(e), _) => ev.read(e),
            (None, Some(d)) => Value::Number(d),
            (None, None) => Value::Empty,
        })
        .collect()
}

/// A function of at most [`MAX_NUMBERS`] numbers, lifted over arrays: the
/// arguments read with their defaults ([`read_or_default`]), each coerced
/// to a number (the first error among them is the result), then `f`.
pub fn lift_numbers(ev: &mut Eval, args: &[BExpr], defaults: &[Option<f64>], f: impl Fn(&[f64]) -> Value) -> Value {
    let vals = read_or_default(ev, args, defaults);
    lift_values(&vals, |v| {
        let mut nums = [0.0; MAX_NUMBERS];
        for (slot, x) in nums.iter_mut().zip(v) {
            match x.to_number() {
                Ok(n) => *slot = n,
                Err(e) => return Value::Error(e),
            }
        }
        f(&nums[..v.len().min(MAX_NUMBERS)])
    })
}

/// The most arguments [`lift_numbers`] passes on (ODDFPRICE's nine).
pub const MAX_NUMBERS: usize = 9;

/// The numbers of aggregate arguments, in order, under SUM's rules
/// ([`number_operand`]); the first error met instead.
pub fn numbers(ev: &mut Eval, args: &[BExpr]) -> Result<Vec<f64>, ErrorKind> {
    let (mut out, mut err) = (Vec::new(), None);
    for_each_operand(ev, args, |v, src| match number_operand(v, src) {
        Some(Ok(n)) if err.is_none() => out.push(n),
        Some(Err(e)) => _ = err.get_or_insert(e),
        _ => {}
    });
    err.map_or(Ok(out), Err)
}

/// Turns a numeric result into a value (NaN and infinities become #NUM!).
pub fn num_result(r: Result<f64, ErrorKind>) -> Value {
    match r {
        Ok(n) => Value::num(n),
        Err(e) => Value::Error(e),
    }
}

/// Like [`lift`] but over values already read (no references): calls `f`
/// once on scalars, or element by element over the broadcast shape when any
/// value is an array (cells outside a smaller array are #N/A). IF, CHOOSE,
/// IFERROR and MATCH use it after evaluating only what they need.
pub fn lift_values(vals: &[Value], f: impl Fn(&[Value]) -> Value) -> Value {
    let Some((rows, cols)) = lifted_dims(vals) else {
        return f(vals);
    };
    if rows as u64 * cols as u64 > MAX_ARRAY_CELLS {
        return Value::Error(ErrorKind::Num);
    }
    if let [Value::Array(a)] = vals {
        // One array (ISNUMBER(range), ...): its elements as they are.
        return collect_array(rows, cols, (0..a.len()).map(|i| f(&[a.at(i)])));
    }
    let mut row = vec![Value::Empty; vals.len()];
    let cells = (0..rows).flat_map(|i| (0..cols).map(move |j| (i, j)));
    collect_array(
        rows,
        cols,
        cells.map(|(i, j)| {
            row.iter_mut().zip(vals).for_each(|(slot, v)| *slot = v.broadcast(i, j).clone());
            f(&row)
        }),
    )
}

/// The broadcast shape [`lift_values`] lifts `vals` to: the most rows and
/// columns of their arrays, or `None` when none is an array.
pub fn lifted_dims<'v>(vals: impl IntoIterator<Item = &'v Value>) -> Option<(usize, usize)> {
    let (mut dims, mut any) = ((1, 1), false);
    for v in vals {
        if let Value::Array(a) = v {
            dims = (dims.0.max(a.rows), dims.1.max(a.cols));
            any = true;
        }
    }
    any.then_some(dims)
}

/// Where an aggregate function's operand comes from, which decides its
/// coercions: values typed directly as arguments coerce (`SUM("3",TRUE)` is
/// 4), values read from references and arrays count only as numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Direct,
    Range,
}

/// One operand of an aggregate: a scalar, or the whole buffer of a dense
/// array (every element read as [`Source::Range`], a number or a boolean
/// as [`Kind`] says), for loops that need no `Value` per element.
pub enum Operand<'a> {
    Scalar(&'a Value, Source),
    Dense(&'a [f64], Kind),
}

/// Calls `f` on every scalar of aggregate arguments (SUM, COUNT, COUNTA...),
/// in order: a reference's stored cells row by row (every area of a
/// reference array) and an array's elements as [`Source::Range`], any other
/// value once as [`Source::Direct`].
/// Returns how many cells of the references were skipped as empty because
/// they lie outside the stored grid.
pub fn for_each_operand(ev: &mut Eval, args: &[BExpr], mut f: impl FnMut(&Value, Source)) -> u64 {
    for_each_dense(ev, args, |o| match o {
        Operand::Scalar(v, src) => f(v, src),
        Operand::Dense(nums, kind) => nums.iter().for_each(|&x| f(&kind.value(x), Source::Range)),
    })
}

/// [`for_each_operand`], with a dense array given whole
/// ([`Operand::Dense`]) rather than element by element.
pub fn for_each_dense(ev: &mut Eval, args: &[BExpr], mut f: impl FnMut(Operand)) -> u64 {
    args.iter()
        .map(|a| {
            let v = ev.eval(a);
            each_dense(ev, v, &mut f)
        })
        .sum()
}

/// [`for_each_dense`] of one argument already evaluated.
pub fn each_dense(ev: &Eval, v: Value, mut f: impl FnMut(Operand)) -> u64 {
    let mut outside = 0;
    match v {
        Value::Ref(area) => outside += ev.visit(&area, |v| f(Operand::Scalar(v, Source::Range))),
        Value::Array(arr) => match arr.as_dense() {
            Some((nums, kind)) => f(Operand::Dense(nums, kind)),
            None => arr.each(|v| match v {
                Value::Ref(area) => outside += ev.visit(area, |v| f(Operand::Scalar(v, Source::Range))),
                v => f(Operand::Scalar(v, Source::Range)),
            }),
        },
        v => f(Operand::Scalar(&v, Source::Direct)),
    }
    outside
}

/// What an aggregate makes of one operand under SUM's rules: `None` when it
/// is ignored (text, booleans and empties read from ranges), a number, or an
/// error (errors anywhere; direct text that is not a number is #VALUE!).
pub fn number_operand(v: &Value, src: Source) -> Option<Result<f64, ErrorKind>> {
    match (v, src) {
        (Value::Number(n), _) => Some(Ok(*n)),
        (Value::Error(e), _) => Some(Err(*e)),
        (_, Source::Range) => None,
        (v, Source::Direct) => Some(v.to_number()),
    }
}

/// The rule of functions that take numbers only (GCD, LCM, MULTINOMIAL,
/// FVSCHEDULE's rates): numbers count and errors propagate as under
/// [`number_operand`], empty cells are skipped, values typed directly
/// coerce, and any other value from a reference or an array (text, a
/// boolean) is #VALUE!.
pub fn strict_number_operand(v: &Value, src: Source) -> Option<Result<f64, ErrorKind>> {
    match (v, src) {
        (Value::Empty, _) => None,
        (Value::Text(_) | Value::Bool(_), Source::Range) => Some(Err(ErrorKind::Value)),
        (v, src) => number_operand(v, src),
    }
}

/// Folds the numbers of aggregate arguments (SUM, MIN, MAX) under
/// [`number_operand`]'s rules, starting from `init`; the first error met
/// in argument order is the result instead.
pub fn fold_numbers<T: Copy>(
    ev: &mut Eval,
    args: &[BExpr],
    init: T,
    f: impl FnMut(T, f64) -> T,
) -> Result<T, ErrorKind> {
    fold_operands(ev, args, number_operand, init, f)
}

/// What an aggregate makes of one operand: ignored, a number or an error
/// ([`number_operand`] is SUM's rule; MAXA's counts text and booleans).
pub type Rule = fn(&Value, Source) -> Option<Result<f64, ErrorKind>>;

/// [`fold_numbers`] under another [`Rule`]. A dense array is folded
/// straight from its buffer: every rule counts a number from an array as
/// itself, and a boolean the same way wherever it stands, so the rule is
/// asked once per boolean value, not once per element.
pub fn fold_operands<T: Copy>(
    ev: &mut Eval,
    args: &[BExpr],
    rule: Rule,
    init: T,
    mut f: impl FnMut(T, f64) -> T,
) -> Result<T, ErrorKind> {
    // Every argument is evaluated, even past an error, as before.
    let mut acc = Ok(init);
    for a in args {
        let v = ev.eval(a);
        acc = fold_value(ev, v, rule, acc, &mut f);
    }
    acc
}

/// [`fold_operands`] of one argument already evaluated, from `acc`.
pub fn fold_value<T: Copy>(
    ev: &Eval,
    v: Value,
    rule: Rule,
    mut acc: Result<T, ErrorKind>,
    mut f: impl FnMut(T, f64) -> T,
) -> Result<T, ErrorKind> {
    each_dense(ev, v, |o| {
        let Ok(a) = acc else { return };
        acc = match o {
            Operand::Scalar(v, src) => match rule(v, src) {
                Some(r) => r.map(|n| f(a, n)),
                None => Ok(a),
            },
            Operand::Dense(nums, Kind::Number) => {
                debug_assert!(nums.iter().all(|&x| rule(&Value::Number(x), Source::Range) == Some(Ok(x))));
                Ok(nums.iter().fold(a, |a, &x| f(a, x)))
            }
            Operand::Dense(bits, Kind::Bool) => {
                let [no, yes] = [false, true].map(|b| rule(&Value::Bool(b), Source::Range));
                let mut a = Ok(a);
                for &x in bits {
                    let r = if x != 0.0 { yes } else { no };
                    if let (Ok(t), Some(r)) = (a, r) {
                        a = r.map(|n| f(t, n));
                    }
                }
                a
            }
        };
    });
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Array;
    use std::sync::Arc;

    #[test]
    fn lifts_over_one_array_or_several_broadcast() {
        let column = Value::Array(Arc::new(Array::new(2, 1, vec![Value::Number(1.0), Value::Bool(true)])));
        let kinds = lift_values(std::slice::from_ref(&column), |v| Value::Bool(matches!(v[0], Value::Number(_))));
        assert_eq!(kinds, Value::Array(Arc::new(Array::new(2, 1, vec![Value::Bool(true), Value::Bool(false)]))));
        let row = Value::Array(Arc::new(Array::new(1, 2, vec![Value::Number(10.0), Value::Number(20.0)])));
        let pairs = lift_values(&[column, row], |v| Value::text(&format!("{:?}{:?}", v[0], v[1])));
        let Value::Array(p) = pairs else { panic!("{pairs:?}") };
        assert_eq!((p.rows, p.cols), (2, 2));
        assert_eq!(p.values()[3], Value::text("Bool(true)Number(20.0)"));
    }
}
