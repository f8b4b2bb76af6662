//! MAX and MIN of a product of arrays, folded element by element without
//! the product being built: `MAX(own*row, own*col)` (the Sudoku boards'
//! hidden singles, two factors) and
//! `MAX((COUNTIF(row,d)=1)*(COUNTIF(cell,d)=1)*d)` (Ellis's, three).
//! The factors are read in the walker's order, the inner `*` of three
//! checks and charges the work budget as the walker's does, and the fold
//! takes the factors' elements only when every factor is a dense array of
//! one shape and every product is finite: then each element is the product
//! `*` would give (`rules::arith` of numbers is the plain product, a
//! boolean 0 or 1). Anything else is multiplied out by `*` itself
//! ([`binary`]), so the values are the walker's in every case.

use crate::ast::BinaryOp;
use crate::eval::{BExpr, Eval, binary};
use crate::value::{ErrorKind, Value};

/// `f` folded over the elements of the product `l * r` (a function's
/// argument, evaluated as the walker evaluates `*`), from `init`, when its
/// factors allow (see the module); else the product's value for the
/// function to fold as any operand.
pub(super) fn fold<T>(ev: &mut Eval, l: &BExpr, r: &BExpr, init: T, f: impl Fn(T, f64) -> T) -> Result<T, Value> {
    if ev.over_budget() {
        return Err(Value::Error(ErrorKind::Num));
    }
    // `a * b * c` is `(a * b) * c`: the inner product read as the walker
    // reads an operator (its budget checked just above), its factors kept
    // apart.
    let (x, y) = match l {
        BExpr::Binary(BinaryOp::Mul, ab) => {
            let (x, y) = (ev.read(&ab[0]), ev.read(&ab[1]));
            if !ev.charge_elements(elements(&x).max(elements(&y))) {
                let z = ev.read(r);
                return Err(times(ev, Value::Error(ErrorKind::Num), z));
            }
            (x, Some(y))
        }
        l => (ev.read(l), None),
    };
    let z = ev.read(r);
    let folded = match (&y, dense(&x), dense(&z)) {
        (None, Some(p), Some(q)) if same(&x, &z) => fold_finite(init, f, p.iter().zip(q).map(|(a, b)| a * b)),
        (Some(y), Some(p), Some(s)) if same(&x, y) && same(&x, &z) => {
            dense(y).and_then(|q| fold_finite(init, f, p.iter().zip(q).zip(s).map(|((a, b), c)| a * b * c)))
        }
        _ => None,
    };
    if let Some(t) = folded {
        // The outer `*`'s charge, as the walker's: every factor has `z`'s
        // elements.
        return if ev.charge_elements(elements(&z)) { Ok(t) } else { Err(Value::Error(ErrorKind::Num)) };
    }
    let left = match y {
        Some(y) => binary(BinaryOp::Mul, x, y),
        None => x,
    };
    Err(times(ev, left, z))
}

/// The outer `*`, charged as the walker charges it.
fn times(ev: &mut Eval, left: Value, right: Value) -> Value {
    if !ev.charge_elements(elements(&left).max(elements(&right))) {
        return Value::Error(ErrorKind::Num);
    }
    binary(BinaryOp::Mul, left, right)
}

/// `f` folded over `products` when every one is finite (a product past
/// the finite numbers is an error element of `*`'s array); else None.
fn fold_finite<T>(init: T, f: impl Fn(T, f64) -> T, products: impl Iterator<Item = f64> + Clone) -> Option<T> {
    if products.clone().any(|p| !p.is_finite()) {
        return None;
    }
    Some(products.fold(init, f))
}

/// The elements `*` charges for an operand: an array's, 0 for a scalar.
fn elements(v: &Value) -> u64 {
    if let Value::Array(a) = v { a.len() as u64 } else { 0 }
}

/// A dense array's numbers (a boolean 0 or 1).
fn dense(v: &Value) -> Option<&[f64]> {
    match v {
        Value::Array(a) => a.as_dense().map(|(nums, _)| nums),
        _ => None,
    }
}

/// Whether two arrays have one shape.
fn same(x: &Value, y: &Value) -> bool {
    match (x, y) {
        (Value::Array(a), Value::Array(b)) => (a.rows, a.cols) == (b.rows, b.cols),
        _ => false,
    }
}
