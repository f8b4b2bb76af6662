//! The arithmetic and comparison operators on dense arrays (all numbers or
//! all booleans, see `value::Kind`) and scalar numbers and booleans: one
//! loop over `f64` buffers, no `Value` per element, the buffer of an
//! operand nobody else holds reused for the result. Broadcasting is
//! Excel's (a single row or column stretches); an operand that would give
//! #N/A elements (a smaller array) or anything not dense takes the general
//! path in `ops`, which gives the same values element by element.

use super::rules::{arith, decoded, holds, num_holds};
use crate::ast::{BinaryOp, UnaryOp};
use crate::value::{Array, Kind, MAX_ARRAY_CELLS, Value, booleans};
use std::cmp::Ordering;
use std::sync::Arc;

/// `l op r` when both are dense or scalar numbers or booleans, at least
/// one an array, and the operator is arithmetic or a comparison; else the
/// operands back, untouched.
pub(super) fn binary(op: BinaryOp, l: Value, r: Value) -> Result<Value, (Value, Value)> {
    use BinaryOp::*;
    let (Some((lk, lr, lc)), Some((rk, rr, rc))) = (operand(&l), operand(&r)) else { return Err((l, r)) };
    let (rows, cols) = (lr.max(rr), lc.max(rc));
    let stretches = |n: usize, of: usize| n == of || n == 1;
    let arrays = matches!(l, Value::Array(_)) || matches!(r, Value::Array(_));
    let fits = stretches(lr, rows) && stretches(lc, cols) && stretches(rr, rows) && stretches(rc, cols);
    if !(arrays && fits) || rows as u64 * cols as u64 > MAX_ARRAY_CELLS {
        return Err((l, r));
    }
    let shape = (rows, cols);
    Ok(match op {
        Add => arithmetic(shape, l, r, |x, y| arith(Add, x, y)),
        Sub => arithmetic(shape, l, r, |x, y| arith(Sub, x, y)),
        Mul => arithmetic(shape, l, r, |x, y| arith(Mul, x, y)),
        Div => arithmetic(shape, l, r, |x, y| arith(Div, x, y)),
        Pow => arithmetic(shape, l, r, |x, y| arith(Pow, x, y)),
        Eq | Ne | Lt | Gt | Le | Ge if lk != rk => {
            // Numbers sort before booleans: one answer for every element.
            let bit =
                f64::from(u8::from(holds(op, if lk == Kind::Number { Ordering::Less } else { Ordering::Greater })));
            booleans(rows, cols, fill(shape, l, r, |_, _| bit))
        }
        // Whole numbers below 10^14 are equal to 15 digits only when equal:
        // the plain comparisons, with no rounding to look at.
        Eq | Ne | Lt | Gt | Le | Ge if small_whole(&l) && small_whole(&r) => {
            booleans(rows, cols, plain(op, shape, l, r))
        }
        Eq => booleans(rows, cols, fill(shape, l, r, |x, y| bit(num_holds(Eq, x, y)))),
        Ne => booleans(rows, cols, fill(shape, l, r, |x, y| bit(num_holds(Ne, x, y)))),
        Lt => booleans(rows, cols, fill(shape, l, r, |x, y| bit(num_holds(Lt, x, y)))),
        Gt => booleans(rows, cols, fill(shape, l, r, |x, y| bit(num_holds(Gt, x, y)))),
        Le => booleans(rows, cols, fill(shape, l, r, |x, y| bit(num_holds(Le, x, y)))),
        Ge => booleans(rows, cols, fill(shape, l, r, |x, y| bit(num_holds(Ge, x, y)))),
        _ => return Err((l, r)),
    })
}

/// `-a`, `a%` (and `+a`, which keeps it) on a dense array; else the operand
/// back.
pub(super) fn unary(op: UnaryOp, v: Value) -> Result<Value, Value> {
    let Value::Array(a) = &v else { return Err(v) };
    if a.as_dense().is_none() {
        return Err(v);
    }
    let (rows, cols) = (a.rows, a.cols);
    let f = match op {
        UnaryOp::Plus | UnaryOp::Spill | UnaryOp::At | UnaryOp::Trim(_) => return Ok(v),
        UnaryOp::Neg => |x: f64| -x,
        UnaryOp::Percent => |x: f64| x / 100.0,
    };
    let mut nums = buffer(v, rows * cols).unwrap_or_else(|held| held);
    nums.iter_mut().for_each(|x| *x = f(*x));
    Ok(Value::Array(Arc::new(Array::dense(rows, cols, nums, Kind::Number))))
}

/// The kind and shape of a dense operand (a scalar is 1 x 1).
fn operand(v: &Value) -> Option<(Kind, usize, usize)> {
    match v {
        Value::Number(_) => Some((Kind::Number, 1, 1)),
        Value::Bool(_) => Some((Kind::Bool, 1, 1)),
        Value::Array(a) => a.as_dense().map(|(_, k)| (k, a.rows, a.cols)),
        _ => None,
    }
}

/// A comparison of whole numbers below 10^14 ([`small_whole`]): equal to
/// 15 digits only when equal, so the plain operators give Excel's answer.
fn plain(op: BinaryOp, shape: (usize, usize), l: Value, r: Value) -> Vec<f64> {
    match op {
        BinaryOp::Eq => fill(shape, l, r, |x, y| bit(x == y)),
        BinaryOp::Ne => fill(shape, l, r, |x, y| bit(x != y)),
        BinaryOp::Lt => fill(shape, l, r, |x, y| bit(x < y)),
        BinaryOp::Gt => fill(shape, l, r, |x, y| bit(x > y)),
        BinaryOp::Le => fill(shape, l, r, |x, y| bit(x <= y)),
        _ => fill(shape, l, r, |x, y| bit(x >= y)),
    }
}

/// Whether every number of a dense operand is whole and below 10^14 in
/// magnitude (booleans are 0 and 1): two such numbers `num_eq` only when
/// they are equal, since they differ by 1 or more, past 10^-14 of either.
/// Adding and taking away 1.5 x 2^52 rounds a number below 2^51 in
/// magnitude to a whole one; one loop with no branch and no call.
fn small_whole(v: &Value) -> bool {
    const ROUND: f64 = 6_755_399_441_055_744.0;
    let whole = |x: f64| (x.abs() < 1e14) & ((x + ROUND) - ROUND == x);
    match v {
        Value::Number(x) => whole(*x),
        Value::Array(a) => a
            .as_dense()
            .is_some_and(|(nums, kind)| kind == Kind::Bool || nums.iter().fold(true, |all, &x| all & whole(x))),
        _ => true,
    }
}

#[inline(always)]
fn bit(b: bool) -> f64 {
    f64::from(u8::from(b))
}

/// An arithmetic operator's results: dense when all are finite; else
/// the elements' errors as `rules::decode` reads them.
fn arithmetic(shape: (usize, usize), l: Value, r: Value, f: impl Fn(f64, f64) -> f64) -> Value {
    let nums = fill(shape, l, r, f);
    if nums.iter().all(|x| x.is_finite()) {
        return Value::Array(Arc::new(Array::dense(shape.0, shape.1, nums, Kind::Number)));
    }
    Value::Array(Arc::new(Array::new(shape.0, shape.1, nums.into_iter().map(decoded).collect())))
}

/// A dense operand read under broadcasting: element (i, j) is
/// `data[i * rs + j * cs]`.
struct View<'a> {
    data: &'a [f64],
    rs: usize,
    cs: usize,
}

impl<'a> View<'a> {
    fn new(v: &'a Value, scalar: &'a f64, cols: usize) -> View<'a> {
        match v {
            Value::Array(a) => {
                let data = a.as_dense().map_or(&[][..], |(d, _)| d);
                let cs = usize::from(a.cols != 1 || cols == 1);
                View { data, rs: if a.rows == 1 { 0 } else { a.cols }, cs }
            }
            _ => View { data: std::slice::from_ref(scalar), rs: 0, cs: 0 },
        }
    }
    /// Element k of the result, when the view is whole or one value.
    fn linear(&self, cols: usize) -> bool {
        self.rs == cols * self.cs
    }
    /// `Some(Some(elements))` for an array of the result's shape,
    /// `Some(None)` for one value, None when a row or column stretches.
    fn whole(&self, cols: usize) -> Option<Option<&'a [f64]>> {
        match (self.linear(cols), self.cs) {
            (true, 0) => Some(None),
            (true, _) => Some(Some(self.data)),
            (false, _) => None,
        }
    }
}

/// A scalar operand's number (a boolean as 0 or 1).
fn scalar(v: &Value) -> f64 {
    match v {
        Value::Number(x) => *x,
        Value::Bool(b) => bit(*b),
        _ => 0.0,
    }
}

/// The dense buffer of an array of `n` elements nobody else holds, taken
/// to write the result into; else a copy of it (`Err`) or nothing.
fn buffer(v: Value, n: usize) -> Result<Vec<f64>, Vec<f64>> {
    match v {
        Value::Array(a) if a.len() == n => match Arc::try_unwrap(a) {
            Ok(a) => a.take_dense().ok_or_else(Vec::new),
            Err(a) => Err(a.as_dense().map_or_else(Vec::new, |(d, _)| d.to_vec())),
        },
        _ => Err(Vec::new()),
    }
}

/// `f` on every pair of elements under broadcasting, into the buffer of an
/// operand of the result's shape that nobody else holds, or a new one.
fn fill(shape: (usize, usize), l: Value, r: Value, f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    let (rows, cols) = shape;
    let n = rows * cols;
    let unique = |v: &Value| matches!(v, Value::Array(a) if a.len() == n && Arc::strong_count(a) == 1 && Arc::weak_count(a) == 0);
    if unique(&l) {
        let rx = scalar(&r);
        let rv = View::new(&r, &rx, cols);
        let mut out = buffer(l, n).unwrap_or_default();
        each(rows, cols, &rv, |k, y| out[k] = f(out[k], y));
        return out;
    }
    if unique(&r) {
        let lx = scalar(&l);
        let lv = View::new(&l, &lx, cols);
        let mut out = buffer(r, n).unwrap_or_default();
        each(rows, cols, &lv, |k, x| out[k] = f(x, out[k]));
        return out;
    }
    let (lx, rx) = (scalar(&l), scalar(&r));
    let (lv, rv) = (View::new(&l, &lx, cols), View::new(&r, &rx, cols));
    let mut out = Vec::with_capacity(n);
    match (lv.whole(cols), rv.whole(cols)) {
        (Some(Some(x)), Some(Some(y))) => out.extend(x.iter().zip(y).map(|(&x, &y)| f(x, y))),
        (Some(Some(x)), Some(None)) => out.extend(x.iter().map(|&x| f(x, rv.data[0]))),
        (Some(None), Some(Some(y))) => out.extend(y.iter().map(|&y| f(lv.data[0], y))),
        _ => {
            for i in 0..rows {
                out.extend((0..cols).map(|j| f(lv.data[i * lv.rs + j * lv.cs], rv.data[i * rv.rs + j * rv.cs])));
            }
        }
    }
    out
}

/// Calls `g(k, element)` for every element `k` of the result, reading `v`
/// under broadcasting.
#[inline(always)]
fn each(rows: usize, cols: usize, v: &View, mut g: impl FnMut(usize, f64)) {
    if let Some(w) = v.whole(cols) {
        match w {
            Some(data) => data.iter().enumerate().for_each(|(k, &x)| g(k, x)),
            None => (0..rows * cols).for_each(|k| g(k, v.data[0])),
        }
    } else {
        for i in 0..rows {
            (0..cols).for_each(|j| g(i * cols + j, v.data[i * v.rs + j * v.cs]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{binary, scalar_binary};
    use super::*;
    use crate::value::ErrorKind;
    use Value::{Bool as B, Number as N};

    /// The same elements stored densely and as values.
    fn pair(rows: usize, cols: usize, data: &[Value]) -> (Value, Value) {
        let values = Value::Array(Arc::new(Array::new(rows, cols, data.to_vec())));
        let dense = crate::value::collect_array(rows, cols, data.iter().cloned());
        assert!(matches!(&dense, Value::Array(a) if a.as_dense().is_some()), "{data:?}");
        (dense, values)
    }

    /// What the operator gives element by element under broadcasting.
    fn each_pair(op: BinaryOp, l: &Value, r: &Value) -> Value {
        super::super::broadcast2(l, r, |a, b| scalar_binary(op, a, b))
    }

    #[test]
    fn dense_operators_give_what_each_pair_gives() {
        use BinaryOp::*;
        let nums = [N(2.0), N(-0.0), N(1e308), N(0.1), N(-3.0), N(0.0)];
        let bools = [B(true), B(false), B(true), B(false), B(false), B(true)];
        let shapes = [(2, 3), (1, 3), (2, 1), (1, 1), (3, 2)];
        let operands = |data: &[Value]| -> Vec<(Value, Value)> {
            let mut out: Vec<(Value, Value)> = shapes.iter().map(|&(r, c)| pair(r, c, &data[..r * c])).collect();
            out.push((data[0].clone(), data[0].clone()));
            out.push((data[2].clone(), data[2].clone()));
            out
        };
        let all: Vec<(Value, Value)> = operands(&nums).into_iter().chain(operands(&bools)).collect();
        for op in [Add, Sub, Mul, Div, Pow, Eq, Ne, Lt, Gt, Le, Ge] {
            for (ld, lv) in &all {
                for (rd, rv) in &all {
                    let expected = each_pair(op, lv, rv);
                    let got = binary(op, ld.clone(), rd.clone());
                    assert_eq!(format!("{got:?}"), format!("{expected:?}"), "{op:?} {lv:?} {rv:?}");
                    assert_eq!(got, expected);
                }
            }
        }
    }

    #[test]
    fn whole_numbers_compare_plainly_and_others_to_15_digits() {
        use BinaryOp::*;
        // Whole numbers past 10^14 and fractions may be equal to 15 digits
        // without being equal; below it whole numbers may not.
        let edge = [1e14 - 1.0, 1e14 - 2.0, 1e15, 1e15 + 1.0, 3.0, 3.000000000000001, -0.0, 0.0, 2.5, 99999999999999.5];
        for x in edge {
            for y in edge {
                let (col, colv) = pair(2, 1, &[N(y), N(x)]);
                for op in [Eq, Ne, Lt, Gt, Le, Ge] {
                    for (l, lv, r, rv) in
                        [(N(x), N(x), col.clone(), colv.clone()), (col.clone(), colv.clone(), N(y), N(y))]
                    {
                        let expected = each_pair(op, &lv, &rv);
                        assert_eq!(binary(op, l.clone(), r.clone()), expected, "{op:?} {lv:?} {rv:?}");
                    }
                }
            }
        }
        assert_eq!(binary(Eq, N(1e15), N(1e15 + 1.0)), B(true));
        let (big, _) = pair(1, 2, &[N(1e15 + 1.0), N(3.000000000000001)]);
        assert_eq!(binary(Eq, big, pair(1, 2, &[N(1e15), N(3.0)]).0), pair(1, 2, &[B(true), B(true)]).1);
        let (small, _) = pair(1, 2, &[N(1e14 - 1.0), N(3.0)]);
        assert_eq!(binary(Eq, small, pair(1, 2, &[N(1e14 - 2.0), N(3.0)]).0), pair(1, 2, &[B(false), B(true)]).1);
    }

    #[test]
    fn overflow_division_by_zero_and_powers_are_errors() {
        let (big, _) = pair(1, 3, &[N(1e308), N(4.0), N(0.0)]);
        let e = |k| Value::Error(k);
        let values = |v: &[Value]| Value::Array(Arc::new(Array::new(1, 3, v.to_vec())));
        assert_eq!(binary(BinaryOp::Mul, big.clone(), N(10.0)), values(&[e(ErrorKind::Num), N(40.0), N(0.0)]));
        assert_eq!(binary(BinaryOp::Div, N(1.0), big.clone()), values(&[N(1e-308), N(0.25), e(ErrorKind::Div0)]));
        assert_eq!(binary(BinaryOp::Pow, big.clone(), N(0.0)), values(&[N(1.0), N(1.0), e(ErrorKind::Num)]));
        assert_eq!(binary(BinaryOp::Pow, big, N(-1.0)), values(&[N(1e-308), N(0.25), e(ErrorKind::Div0)]));
        // A number never equals a boolean; TRUE*1 is 1.
        let (ones, _) = pair(1, 2, &[N(1.0), N(0.0)]);
        let unequal = Value::Array(Arc::new(Array::new(1, 2, vec![B(false), B(false)])));
        assert_eq!(binary(BinaryOp::Eq, ones.clone(), B(true)), unequal);
        let (truth, _) = pair(1, 2, &[B(true), B(false)]);
        assert_eq!(binary(BinaryOp::Mul, truth, N(1.0)), ones);
    }

    #[test]
    fn unary_and_in_place_reuse() {
        let (d, v) = pair(2, 1, &[N(3.0), N(0.0)]);
        let expected = super::super::map1(&v, |x| Value::num(-x.to_number().unwrap()));
        assert_eq!(format!("{:?}", super::super::unary(UnaryOp::Neg, d.clone())), format!("{expected:?}"));
        let (t, _) = pair(1, 2, &[B(true), B(false)]);
        assert_eq!(super::super::unary(UnaryOp::Percent, t.clone()), pair(1, 2, &[N(0.01), N(0.0)]).0);
        assert_eq!(super::super::unary(UnaryOp::Plus, t.clone()), t, "+ keeps booleans");
        // A fresh operand's buffer takes the result.
        let fresh = pair(2, 1, &[N(1.0), N(2.0)]).0;
        let Value::Array(a) = &fresh else { unreachable!() };
        let before = a.as_dense().map(|(d, _)| d.as_ptr());
        let sum = binary(BinaryOp::Add, fresh, d);
        let Value::Array(s) = &sum else { panic!("{sum:?}") };
        assert_eq!(s.as_dense().map(|(d, _)| d.as_ptr()), before);
        assert_eq!(sum, pair(2, 1, &[N(4.0), N(2.0)]).1);
    }
}
