//! The LAMBDA helpers: MAP, REDUCE, SCAN, BYROW, BYCOL and MAKEARRAY. Each
//! takes its function as its last argument (a LAMBDA, or a function's
//! name) and calls it per element, row, column or position; a function
//! that does not take the arguments given is #VALUE!. Where the result is
//! an array, each call must give one value: an array or a reference of
//! several cells there is #CALC!, as Excel's nested arrays are.

use super::{Callable, callable, invoke, takes};
use crate::eval::{BExpr, Eval};
use crate::functions::args::{array, number};
use crate::value::{Array, ErrorKind, MAX_ARRAY_CELLS, Value};
use std::sync::Arc;

/// The function argument, or the error the call gives: #VALUE! for
/// anything but a function taking `args` arguments.
fn function<'e>(f: &'e BExpr, args: usize) -> Result<Callable<'e>, ErrorKind> {
    callable(f).filter(|c| takes(c, args)).ok_or(ErrorKind::Value)
}

/// One call's result where one value is wanted: a one-cell reference
/// read, a 1×1 array its element; a larger one #CALC!.
pub(super) fn one(ev: &Eval, v: Value) -> Value {
    match ev.array_value(v) {
        Value::Array(a) if a.len() == 1 => a.first().unwrap_or(Value::Error(ErrorKind::Calc)),
        Value::Array(_) => Value::Error(ErrorKind::Calc),
        v => v,
    }
}

fn result(rows: usize, cols: usize, data: Vec<Value>) -> Value {
    Value::Array(Arc::new(Array::new(rows, cols, data)))
}

/// `MAP(array1, [array2, ...], lambda)`: the function of each element (of
/// each array's element at the same place); a single value or a single
/// row or column stretches, and places past a smaller array are #N/A.
pub(super) fn map(ev: &mut Eval, args: &[BExpr]) -> Value {
    let Some((f, arrays)) = args.split_last() else { return Value::Error(ErrorKind::Value) };
    let f = match function(f, arrays.len()) {
        Ok(f) => f,
        Err(e) => return Value::Error(e),
    };
    let mut inputs = Vec::with_capacity(arrays.len());
    for a in arrays {
        match array(ev, a) {
            Ok(a) => inputs.push(a),
            Err(e) => return Value::Error(e),
        }
    }
    let rows = inputs.iter().map(|a| a.rows).max().unwrap_or(1);
    let cols = inputs.iter().map(|a| a.cols).max().unwrap_or(1);
    let mut data = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let values = inputs.iter().map(|a| element(a, r, c)).collect();
            let v = invoke(ev, &f, values);
            data.push(one(ev, v));
        }
    }
    result(rows, cols, data)
}

/// Element (`r`, `c`) of `a` broadcast: a single row or column stretches,
/// past the end is #N/A.
fn element(a: &Array, r: usize, c: usize) -> Value {
    let r = if a.rows == 1 { 0 } else { r };
    let c = if a.cols == 1 { 0 } else { c };
    if r < a.rows && c < a.cols { a.get(r, c).clone() } else { Value::Error(ErrorKind::NA) }
}

/// REDUCE and SCAN: the accumulator through every element, row by row;
/// SCAN keeps each step. The initial value omitted is an empty value.
fn accumulate(ev: &mut Eval, args: &[BExpr], keep: bool) -> Value {
    let f = match function(&args[2], 2) {
        Ok(f) => f,
        Err(e) => return Value::Error(e),
    };
    let mut acc = ev.eval_array(&args[0]);
    acc = ev.array_value(acc);
    let values = match array(ev, &args[1]) {
        Ok(a) => a,
        Err(e) => return Value::Error(e),
    };
    let mut steps = Vec::with_capacity(if keep { values.len() } else { 0 });
    for v in values.values() {
        let next = invoke(ev, &f, vec![acc, v.clone()]);
        acc = ev.array_value(next);
        if keep {
            steps.push(one(ev, acc.clone()));
        }
    }
    if keep { result(values.rows, values.cols, steps) } else { acc }
}

/// `REDUCE([initial_value], array, lambda(accumulator, value))`.
pub(super) fn reduce(ev: &mut Eval, args: &[BExpr]) -> Value {
    accumulate(ev, args, false)
}

/// `SCAN([initial_value], array, lambda(accumulator, value))`: each
/// step's accumulator, in the array's shape.
pub(super) fn scan(ev: &mut Eval, args: &[BExpr]) -> Value {
    accumulate(ev, args, true)
}

/// BYROW and BYCOL: the function of each row (a 1×n array) or column (an
/// n×1 array), as a column or a row.
fn by_line(ev: &mut Eval, args: &[BExpr], rows: bool) -> Value {
    let f = match function(&args[1], 1) {
        Ok(f) => f,
        Err(e) => return Value::Error(e),
    };
    let a = match array(ev, &args[0]) {
        Ok(a) => a,
        Err(e) => return Value::Error(e),
    };
    let (lines, width) = if rows { (a.rows, a.cols) } else { (a.cols, a.rows) };
    let mut out = Vec::with_capacity(lines);
    for i in 0..lines {
        let line: Vec<Value> = (0..width).map(|j| if rows { a.get(i, j) } else { a.get(j, i) }.clone()).collect();
        let line = if rows { result(1, width, line) } else { result(width, 1, line) };
        let v = invoke(ev, &f, vec![line]);
        out.push(one(ev, v));
    }
    if rows { result(lines, 1, out) } else { result(1, lines, out) }
}

/// `BYROW(array, lambda(row))`.
pub(super) fn byrow(ev: &mut Eval, args: &[BExpr]) -> Value {
    by_line(ev, args, true)
}

/// `BYCOL(array, lambda(column))`.
pub(super) fn bycol(ev: &mut Eval, args: &[BExpr]) -> Value {
    by_line(ev, args, false)
}

/// `MAKEARRAY(rows, cols, lambda(row, col))`: the function of each
/// 1-based position. Sizes are truncated; below 1 is #VALUE!, an array
/// past [`MAX_ARRAY_CELLS`] #NUM!.
pub(super) fn makearray(ev: &mut Eval, args: &[BExpr]) -> Value {
    let size = |ev: &mut Eval, e: &BExpr| -> Result<f64, ErrorKind> {
        let n = number(ev, e)?.trunc();
        if n < 1.0 { Err(ErrorKind::Value) } else { Ok(n) }
    };
    let (rows, cols) = match (size(ev, &args[0]), size(ev, &args[1])) {
        (Ok(r), Ok(c)) => (r, c),
        (Err(e), _) | (_, Err(e)) => return Value::Error(e),
    };
    if rows * cols > MAX_ARRAY_CELLS as f64 {
        return Value::Error(ErrorKind::Num);
    }
    let f = match function(&args[2], 2) {
        Ok(f) => f,
        Err(e) => return Value::Error(e),
    };
    let (rows, cols) = (rows as usize, cols as usize);
    let mut data = Vec::with_capacity(rows * cols);
    for r in 1..=rows {
        for c in 1..=cols {
            let v = invoke(ev, &f, vec![Value::Number(r as f64), Value::Number(c as f64)]);
            data.push(one(ev, v));
        }
    }
    result(rows, cols, data)
}
