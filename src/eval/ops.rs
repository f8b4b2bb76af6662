//! Excel's operators on values: arithmetic, `&`, comparisons, with errors
//! propagating and arrays combined element-wise under Excel's broadcasting
//! (a single row or column stretches; outside a smaller array, #N/A).
//! Operands arrive already read (no references), except for the reference
//! operators, intersection and union ([`intersect`], [`union`]), which work on
//! references only.

use crate::address::Area;
use crate::ast::{BinaryOp, UnaryOp};
use crate::value::{Array, ErrorKind, MAX_ARRAY_CELLS, Value, collect_array, compare, too_long};
use std::sync::Arc;

mod dense;
pub mod rules;

use rules::{arith, decoded, holds, num_holds};

/// Applies `f` element by element when either operand is an array.
pub fn broadcast2(l: &Value, r: &Value, f: impl Fn(&Value, &Value) -> Value) -> Value {
    let shape = |v: &Value| match v {
        Value::Array(a) => (a.rows, a.cols),
        _ => (1, 1),
    };
    match (l, r) {
        (Value::Array(a), Value::Array(b)) if a.rows == b.rows && a.cols == b.cols => {
            collect_array(a.rows, a.cols, a.values().iter().zip(b.values()).map(|(x, y)| f(x, y)))
        }
        (Value::Array(a), s) if !matches!(s, Value::Array(_)) => {
            collect_array(a.rows, a.cols, a.values().iter().map(|x| f(x, s)))
        }
        (s, Value::Array(b)) if !matches!(s, Value::Array(_)) => {
            collect_array(b.rows, b.cols, b.values().iter().map(|y| f(s, y)))
        }
        (Value::Array(_), Value::Array(_)) => {
            let ((lr, lc), (rr, rc)) = (shape(l), shape(r));
            let (rows, cols) = (lr.max(rr), lc.max(rc));
            if rows as u64 * cols as u64 > MAX_ARRAY_CELLS {
                return Value::Error(ErrorKind::Num);
            }
            let cells = (0..rows).flat_map(|i| (0..cols).map(move |j| (i, j)));
            collect_array(rows, cols, cells.map(|(i, j)| f(l.broadcast(i, j), r.broadcast(i, j))))
        }
        _ => f(l, r),
    }
}

/// Applies `f` to every element of an array, or to a scalar.
pub fn map1(v: &Value, f: impl Fn(&Value) -> Value) -> Value {
    match v {
        Value::Array(a) => collect_array(a.rows, a.cols, (0..a.len()).map(|i| f(&a.at(i)))),
        v => f(v),
    }
}

pub fn unary(op: UnaryOp, v: Value) -> Value {
    let v = match dense::unary(op, v) {
        Ok(v) => return v,
        Err(v) => v,
    };
    map1(&v, |x| match (op, x.to_number()) {
        // Excel ignores a leading `+`: text stays text (`=+"abc"` is `abc`).
        (UnaryOp::Plus, _) if x.is_empty() => Value::Number(0.0),
        // A trim reference is bound as a TRIMRANGE call, never as an operator.
        (UnaryOp::Plus | UnaryOp::Trim(_), _) => x.clone(),
        (_, Err(e)) => Value::Error(e),
        (UnaryOp::Neg, Ok(n)) => Value::num(-n),
        (UnaryOp::Percent, Ok(n)) => Value::num(n / 100.0),
        // Bound as calls (ANCHORARRAY, SINGLE): never evaluated here.
        (UnaryOp::Spill | UnaryOp::At, Ok(_)) => x.clone(),
    })
}

pub fn binary(op: BinaryOp, l: Value, r: Value) -> Value {
    use BinaryOp::*;
    // Two numbers: what every path below gives them, without the array checks.
    if let (Value::Number(_), Value::Number(_)) = (&l, &r) {
        return scalar_binary(op, &l, &r);
    }
    // Dense arrays (numbers, booleans) and scalars: one loop over numbers.
    let (l, r) = match dense::binary(op, l, r) {
        Ok(v) => return v,
        Err(operands) => operands,
    };
    // One loop per operator, with its rule on two numbers inlined: the
    // element-wise operators on numeric arrays cost no dispatch per element.
    match op {
        Add => arithmetic(op, l, r, |x, y| decoded(arith(Add, x, y))),
        Sub => arithmetic(op, l, r, |x, y| decoded(arith(Sub, x, y))),
        Mul => arithmetic(op, l, r, |x, y| decoded(arith(Mul, x, y))),
        Eq => numeric(op, l, r, |x, y| Value::Bool(num_holds(Eq, x, y))),
        Ne => numeric(op, l, r, |x, y| Value::Bool(num_holds(Ne, x, y))),
        Lt => numeric(op, l, r, |x, y| Value::Bool(num_holds(Lt, x, y))),
        Gt => numeric(op, l, r, |x, y| Value::Bool(num_holds(Gt, x, y))),
        Le => numeric(op, l, r, |x, y| Value::Bool(num_holds(Le, x, y))),
        Ge => numeric(op, l, r, |x, y| Value::Bool(num_holds(Ge, x, y))),
        _ => elementwise(l, r, |a, b| scalar_binary(op, a, b)),
    }
}

/// [`elementwise`] with `f` on two numbers and [`scalar_binary`] otherwise.
#[inline(always)]
fn numeric(op: BinaryOp, l: Value, r: Value, f: impl Fn(f64, f64) -> Value) -> Value {
    textless(l, r, |a, b| match (a, b) {
        (Value::Number(x), Value::Number(y)) => f(*x, *y),
        _ => scalar_binary(op, a, b),
    })
}

/// [`elementwise`] with `f` on two numbers or booleans (TRUE is 1, as
/// arithmetic reads it) and [`scalar_binary`] otherwise.
#[inline(always)]
fn arithmetic(op: BinaryOp, l: Value, r: Value, f: impl Fn(f64, f64) -> Value) -> Value {
    let n = |v: &Value| match v {
        Value::Number(x) => Some(*x),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    };
    textless(l, r, |a, b| match (n(a), n(b)) {
        (Some(x), Some(y)) => f(x, y),
        _ => scalar_binary(op, a, b),
    })
}

/// [`elementwise`] for an operator whose results are never text (numbers,
/// booleans, errors), so the cap on an array's texts cannot apply: an array
/// held elsewhere (a constant, a shared value) with a scalar or an array of
/// its shape is mapped straight into a new array of the exact size.
#[inline(always)]
fn textless(l: Value, r: Value, f: impl Fn(&Value, &Value) -> Value) -> Value {
    let fresh = |a: &Array, data: Vec<Value>| Value::Array(Arc::new(Array::new(a.rows, a.cols, data)));
    match (&l, &r) {
        (Value::Array(a), Value::Array(b)) if a.rows == b.rows && a.cols == b.cols && !unique(a) && !unique(b) => {
            fresh(a, a.values().iter().zip(b.values()).map(|(x, y)| f(x, y)).collect())
        }
        (Value::Array(a), s) if !matches!(s, Value::Array(_)) && !unique(a) => {
            fresh(a, a.values().iter().map(|x| f(x, s)).collect())
        }
        (s, Value::Array(b)) if !matches!(s, Value::Array(_)) && !unique(b) => {
            fresh(b, b.values().iter().map(|y| f(s, y)).collect())
        }
        _ => elementwise(l, r, f),
    }
}

/// `f` on two scalars, or element by element. An array nobody else holds
/// (a function's fresh result) is updated in place when the other side is
/// a scalar, an array of its shape, or a row or column that stretches over
/// it.
#[inline(always)]
fn elementwise(l: Value, r: Value, f: impl Fn(&Value, &Value) -> Value) -> Value {
    match (l, r) {
        (Value::Array(mut a), r) if fits(&a, &r) && unique(&a) => {
            let arr = Arc::make_mut(&mut a); // unique: no copy
            let cols = arr.cols;
            match &r {
                Value::Array(b) if b.rows == arr.rows && b.cols == cols => {
                    arr.values_mut().iter_mut().zip(b.values()).for_each(|(x, y)| *x = f(x, y))
                }
                Value::Array(b) => arr
                    .values_mut()
                    .iter_mut()
                    .enumerate()
                    .for_each(|(k, x)| *x = f(x, b.broadcast(k / cols, k % cols))),
                s => arr.values_mut().iter_mut().for_each(|x| *x = f(x, s)),
            }
            Value::Array(a)
        }
        (l, Value::Array(mut b)) if fits(&b, &l) && unique(&b) => {
            let arr = Arc::make_mut(&mut b); // unique: no copy
            let cols = arr.cols;
            match &l {
                Value::Array(a) if a.rows == arr.rows && a.cols == cols => {
                    arr.values_mut().iter_mut().zip(a.values()).for_each(|(y, x)| *y = f(x, y))
                }
                Value::Array(a) => arr
                    .values_mut()
                    .iter_mut()
                    .enumerate()
                    .for_each(|(k, y)| *y = f(a.broadcast(k / cols, k % cols), y)),
                s => arr.values_mut().iter_mut().for_each(|y| *y = f(s, y)),
            }
            Value::Array(b)
        }
        (l, r) => broadcast2(&l, &r, f),
    }
}

/// Whether `v` combined with `a` gives an array of `a`'s shape: a scalar,
/// an array of that shape, or a row or column of its width or height.
fn fits(a: &Array, v: &Value) -> bool {
    match v {
        Value::Array(b) => (b.rows == a.rows || b.rows == 1) && (b.cols == a.cols || b.cols == 1),
        _ => true,
    }
}

fn scalar_binary(op: BinaryOp, a: &Value, b: &Value) -> Value {
    use BinaryOp::*;
    if let (Value::Number(x), Value::Number(y)) = (a, b) {
        let (x, y) = (*x, *y);
        if rules::is_arithmetic(op) {
            return decoded(arith(op, x, y));
        }
        if rules::is_comparison(op) {
            return Value::Bool(num_holds(op, x, y));
        }
    }
    if let Value::Error(e) = a {
        return Value::Error(*e);
    }
    if let Value::Error(e) = b {
        return Value::Error(*e);
    }
    match op {
        Concat => match (a.to_text(), b.to_text()) {
            (Ok(x), Ok(y)) => {
                let s = [&*x, &*y].concat();
                if too_long(&s) { Value::Error(ErrorKind::Value) } else { Value::Text(s.into()) }
            }
            (Err(e), _) | (_, Err(e)) => Value::Error(e),
        },
        Eq | Ne | Lt | Gt | Le | Ge => Value::Bool(holds(op, compare(a, b))),
        _ => {
            let (x, y) = match (a.to_number(), b.to_number()) {
                (Ok(x), Ok(y)) => (x, y),
                (Err(e), _) | (_, Err(e)) => return Value::Error(e),
            };
            if rules::is_arithmetic(op) { decoded(arith(op, x, y)) } else { Value::Error(ErrorKind::Value) }
        }
    }
}

fn unique(a: &Arc<Array>) -> bool {
    Arc::strong_count(a) == 1 && Arc::weak_count(a) == 0
}

/// The areas of a reference operand, or the error it gives: an error
/// passes, anything that is not a reference is #VALUE!.
fn operand_areas(v: &Value) -> Result<Vec<Area>, ErrorKind> {
    match v {
        Value::Error(e) => Err(*e),
        v => v.area_list().ok_or(ErrorKind::Value),
    }
}

/// One area as a reference, several as a reference array.
fn areas_value(mut areas: Vec<Area>) -> Value {
    if areas.len() == 1 { Value::Ref(areas.remove(0)) } else { Value::areas(areas) }
}

/// The space operator: the cells both references share (every pair of
/// their areas); #NULL! when they share none, as across sheets; #NUM! past
/// `MAX_ARRAY_CELLS` pairs.
pub fn intersect(l: &Value, r: &Value) -> Value {
    let (l, r) = match (operand_areas(l), operand_areas(r)) {
        (Ok(l), Ok(r)) => (l, r),
        (Err(e), _) | (_, Err(e)) => return Value::Error(e),
    };
    if (l.len() as u64).saturating_mul(r.len() as u64) > MAX_ARRAY_CELLS {
        return Value::Error(ErrorKind::Num);
    }
    let common: Vec<Area> = l.iter().flat_map(|a| r.iter().filter_map(move |b| a.intersect(b))).collect();
    if common.is_empty() { Value::Error(ErrorKind::Null) } else { areas_value(common) }
}

/// The union operator `(A1,B2:C3)`: one reference of every area of both,
/// in order (a reference array); #NUM! past `MAX_ARRAY_CELLS` areas.
pub fn union(l: &Value, r: &Value) -> Value {
    match (operand_areas(l), operand_areas(r)) {
        (Ok(l), Ok(r)) if (l.len() + r.len()) as u64 > MAX_ARRAY_CELLS => Value::Error(ErrorKind::Num),
        (Ok(mut l), Ok(r)) => {
            l.extend(r);
            Value::areas(l)
        }
        (Err(e), _) | (_, Err(e)) => Value::Error(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::Number as N;

    fn array(data: &[Value]) -> Value {
        Value::Array(Arc::new(Array::new(1, data.len(), data.to_vec())))
    }

    #[test]
    fn fresh_right_operand_is_updated_in_place_in_order() {
        let left = array(&[N(10.0), N(5.0), Value::text("a")]);
        let held = left.clone(); // shared: cannot be reused
        let right = array(&[N(1.0), N(5.0), N(1.0)]);
        let Value::Array(r) = &right else { unreachable!() };
        let before = Arc::as_ptr(r);
        let diff = binary(BinaryOp::Sub, left, right);
        let Value::Array(d) = &diff else { panic!("{diff:?}") };
        assert_eq!(Arc::as_ptr(d), before, "the right operand's array is reused");
        assert_eq!(d.values(), [N(9.0), N(0.0), Value::Error(ErrorKind::Value)]);
        let gt = binary(BinaryOp::Gt, held, array(&[N(1.0), N(5.0), N(1.0)]));
        assert_eq!(gt, array(&[Value::Bool(true), Value::Bool(false), Value::Bool(true)]));
    }

    #[test]
    fn booleans_count_as_numbers_and_a_column_stretches_in_place() {
        let column = Value::Array(Arc::new(Array::new(2, 1, vec![Value::Bool(true), N(2.0)])));
        let fresh =
            Value::Array(Arc::new(Array::new(2, 2, vec![Value::Bool(true), Value::Bool(false), N(3.0), N(4.0)])));
        let product = binary(BinaryOp::Mul, fresh, column.clone());
        assert_eq!(product, Value::Array(Arc::new(Array::new(2, 2, vec![N(1.0), N(0.0), N(6.0), N(8.0)]))));
        let fresh = Value::Array(Arc::new(Array::new(2, 2, vec![N(1.0), N(1.0), N(1.0), N(1.0)])));
        let diff = binary(BinaryOp::Sub, column, fresh);
        assert_eq!(diff, Value::Array(Arc::new(Array::new(2, 2, vec![N(0.0), N(0.0), N(1.0), N(1.0)]))));
        assert_eq!(binary(BinaryOp::Add, Value::Bool(true), Value::Empty), N(1.0));
    }

    #[test]
    fn held_arrays_give_what_each_pair_gives() {
        // Arrays held elsewhere (constants, shared values) take the
        // straight path; every element is what the operator gives the pair.
        let mixed = [N(2.0), Value::Bool(true), Value::text("3"), Value::Empty, Value::Error(ErrorKind::Div0), N(0.5)];
        let other = [N(2.0), N(4.0), Value::Bool(false), Value::text("x"), N(1.0), Value::Empty];
        let (l, r) = (array(&mixed), array(&other));
        let _held = (l.clone(), r.clone());
        for op in [BinaryOp::Add, BinaryOp::Mul, BinaryOp::Eq, BinaryOp::Lt, BinaryOp::Ge] {
            let each: Vec<Value> = mixed.iter().zip(&other).map(|(x, y)| scalar_binary(op, x, y)).collect();
            assert_eq!(binary(op, l.clone(), r.clone()), array(&each), "{op:?}");
            let by_one: Vec<Value> = mixed.iter().map(|x| scalar_binary(op, x, &N(1.0))).collect();
            assert_eq!(binary(op, l.clone(), N(1.0)), array(&by_one), "{op:?} with a scalar");
            let one_by: Vec<Value> = other.iter().map(|y| scalar_binary(op, &Value::Bool(true), y)).collect();
            assert_eq!(binary(op, Value::Bool(true), r.clone()), array(&one_by), "{op:?} from a scalar");
        }
    }
}
