//! Excel's operators on values: arithmetic, `&`, comparisons, with errors
//! propagating and arrays combined element-wise under Excel's broadcasting
//! (a single row or column stretches; outside a smaller array, #N/A).
//! Operands arrive already read (no references).

use crate::ast::{BinaryOp, UnaryOp};
use crate::value::{compare, Array, ErrorKind, Value};
use std::cmp::Ordering;
use std::sync::Arc;

/// Applies `f` element by element when either operand is an array.
pub fn broadcast2(l: &Value, r: &Value, f: impl Fn(&Value, &Value) -> Value) -> Value {
    match (l, r) {
        (Value::Array(_), _) | (_, Value::Array(_)) => {
            let dims = |v: &Value| match v {
                Value::Array(a) => (a.rows, a.cols),
                _ => (1, 1),
            };
            let ((lr, lc), (rr, rc)) = (dims(l), dims(r));
            let (rows, cols) = (lr.max(rr), lc.max(rc));
            let at = |v: &Value, i, j| match v {
                Value::Array(a) => a.broadcast(i, j),
                v => v.clone(),
            };
            let mut data = Vec::with_capacity(rows * cols);
            for i in 0..rows {
                for j in 0..cols {
                    data.push(f(&at(l, i, j), &at(r, i, j)));
                }
            }
            Value::Array(Arc::new(Array::new(rows, cols, data)))
        }
        _ => f(l, r),
    }
}

/// Applies `f` to every element of an array, or to a scalar.
pub fn map1(v: &Value, f: impl Fn(&Value) -> Value) -> Value {
    match v {
        Value::Array(a) => Value::Array(Arc::new(Array::new(a.rows, a.cols, a.data.iter().map(f).collect()))),
        v => f(v),
    }
}

pub fn unary(op: UnaryOp, v: Value) -> Value {
    map1(&v, |x| match x.to_number() {
        Err(e) => Value::Error(e),
        Ok(n) => match op {
            UnaryOp::Neg => Value::num(-n),
            UnaryOp::Plus => match x {
                Value::Empty => Value::Number(0.0),
                x => x.clone(),
            },
            UnaryOp::Percent => Value::num(n / 100.0),
        },
    })
}

pub fn binary(op: BinaryOp, l: Value, r: Value) -> Value {
    broadcast2(&l, &r, |a, b| scalar_binary(op, a, b))
}

fn scalar_binary(op: BinaryOp, a: &Value, b: &Value) -> Value {
    use BinaryOp::*;
    if let Value::Error(e) = a {
        return Value::Error(*e);
    }
    if let Value::Error(e) = b {
        return Value::Error(*e);
    }
    match op {
        Concat => match (a.to_text(), b.to_text()) {
            (Ok(x), Ok(y)) => Value::text(&format!("{x}{y}")),
            (Err(e), _) | (_, Err(e)) => Value::Error(e),
        },
        Eq | Ne | Lt | Gt | Le | Ge => {
            let o = compare(a, b);
            Value::Bool(match op {
                Eq => o == Ordering::Equal,
                Ne => o != Ordering::Equal,
                Lt => o == Ordering::Less,
                Gt => o == Ordering::Greater,
                Le => o != Ordering::Greater,
                _ => o != Ordering::Less,
            })
        }
        _ => {
            let (x, y) = match (a.to_number(), b.to_number()) {
                (Ok(x), Ok(y)) => (x, y),
                (Err(e), _) | (_, Err(e)) => return Value::Error(e),
            };
            match op {
                Add => Value::num(x + y),
                Sub => Value::num(x - y),
                Mul => Value::num(x * y),
                Div if y == 0.0 => Value::Error(ErrorKind::Div0),
                Div => Value::num(x / y),
                Pow => power(x, y),
                _ => Value::Error(ErrorKind::Value),
            }
        }
    }
}

/// `x^y` as Excel: 0^0 and 0^negative are #NUM! / #DIV/0!, a negative base
/// with a fractional exponent is #NUM!.
pub fn power(x: f64, y: f64) -> Value {
    if x == 0.0 && y == 0.0 {
        return Value::Error(ErrorKind::Num);
    }
    if x == 0.0 && y < 0.0 {
        return Value::Error(ErrorKind::Div0);
    }
    if x < 0.0 && y.fract() != 0.0 {
        return Value::Error(ErrorKind::Num);
    }
    Value::num(x.powf(y))
}
