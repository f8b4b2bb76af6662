//! The `f64` form of a kernel that is only numbers, cell reads and
//! arithmetic (a heat-grid cell `(A2+C2+B1+B3)/4` is five ops: load a
//! cell, add a cell three times, divide by a constant). It computes on
//! plain floats, an empty cell read as 0, and gives up (`None`) on
//! anything that is not exactly the value the scalar ops would give: a
//! cell holding anything but a number or nothing, a zero or non-finite
//! divisor, a result that is not finite. Each step is Excel's rule
//! (`ops::rules::arith`, errors coded as NaN and infinities, which the
//! result's check turns into giving up). The kernel's general ops then
//! compute the cell. Finiteness is checked on divisors and on the result
//! only: a step that is not finite makes every later one not finite
//! (sums, products, negations and quotients of infinities and NaN stay
//! infinite or NaN) except as a divisor, so a finite result read through
//! finite divisors had every step finite, as the scalar ops require.

use super::scalar::Scalar;
use super::{Away, Leaf, Op, STACK};
use crate::address::CellAddr;
use crate::ast::BinaryOp::{Add, Div, Mul, Sub};
use crate::ast::{BinaryOp, UnaryOp};
use crate::eval::ops::rules::arith;
use crate::grid::Grid;
use crate::value::Value;

const MASK: usize = STACK - 1;

/// One step of the `f64` form: on the accumulator, a cell, a constant or
/// the value below it on the stack. A `DivConst` divisor is never 0.
#[derive(Clone, Copy, Debug)]
pub(super) enum NumOp {
    Cell(Away),
    Const(f64),
    PushCell(Away),
    PushConst(f64),
    AddCell(Away),
    SubCell(Away),
    MulCell(Away),
    DivCell(Away),
    AddConst(f64),
    SubConst(f64),
    MulConst(f64),
    DivConst(f64),
    Add,
    Sub,
    Mul,
    Div,
    Neg,
    Percent,
}

/// Appends the `f64` form of `ops` to `out`; false (part of it appended)
/// when they have none.
pub(super) fn compile(ops: &[Op], out: &mut Vec<NumOp>) -> bool {
    use BinaryOp::*;
    for op in ops {
        let n = match *op {
            Op::Load(Leaf::Cell(c)) => NumOp::Cell(c),
            Op::Load(Leaf::Const(Scalar::Num(x))) => NumOp::Const(x),
            Op::Push(Leaf::Cell(c)) => NumOp::PushCell(c),
            Op::Push(Leaf::Const(Scalar::Num(x))) => NumOp::PushConst(x),
            Op::BinLeaf(op, Leaf::Cell(c)) => match op {
                Add => NumOp::AddCell(c),
                Sub => NumOp::SubCell(c),
                Mul => NumOp::MulCell(c),
                Div => NumOp::DivCell(c),
                _ => return false,
            },
            Op::BinLeaf(op, Leaf::Const(Scalar::Num(x))) => match op {
                Add => NumOp::AddConst(x),
                Sub => NumOp::SubConst(x),
                Mul => NumOp::MulConst(x),
                Div if x != 0.0 => NumOp::DivConst(x),
                _ => return false,
            },
            Op::Bin(op) => match op {
                Add => NumOp::Add,
                Sub => NumOp::Sub,
                Mul => NumOp::Mul,
                Div => NumOp::Div,
                _ => return false,
            },
            Op::Unary(UnaryOp::Neg) => NumOp::Neg,
            Op::Unary(UnaryOp::Percent) => NumOp::Percent,
            _ => return false,
        };
        if let NumOp::Const(x)
        | NumOp::PushConst(x)
        | NumOp::AddConst(x)
        | NumOp::SubConst(x)
        | NumOp::MulConst(x)
        | NumOp::DivConst(x) = n
            && !x.is_finite()
        {
            return false;
        }
        out.push(n);
    }
    true
}

/// The value of the cell `c` away from `at` as a number: a number, or 0
/// for an empty cell.
#[inline(always)]
fn cell(grid: &Grid, at: CellAddr, c: Away) -> Option<f64> {
    match grid.get(c.from(at)) {
        Value::Number(n) => Some(*n),
        Value::Empty => Some(0.0),
        _ => None,
    }
}

/// The value of the `f64` form `ops` of cell `at` over `grid`, or `None`
/// where that is not exactly the cell's value.
#[inline]
pub(super) fn run(ops: &[NumOp], grid: &Grid, at: CellAddr) -> Option<f64> {
    let mut acc = 0.0f64;
    let mut stack = [0.0f64; STACK];
    let mut sp = 0usize;
    for op in ops {
        acc = match *op {
            NumOp::Cell(c) => cell(grid, at, c)?,
            NumOp::Const(x) => x,
            NumOp::PushCell(c) => {
                stack[sp & MASK] = acc;
                sp += 1;
                cell(grid, at, c)?
            }
            NumOp::PushConst(x) => {
                stack[sp & MASK] = acc;
                sp += 1;
                x
            }
            NumOp::AddCell(c) => arith(Add, acc, cell(grid, at, c)?),
            NumOp::SubCell(c) => arith(Sub, acc, cell(grid, at, c)?),
            NumOp::MulCell(c) => arith(Mul, acc, cell(grid, at, c)?),
            // A divisor that is not finite would hide an earlier step's
            // overflow (x/inf is 0): given up on.
            NumOp::DivCell(c) => match cell(grid, at, c)? {
                y if !y.is_finite() => return None,
                y => arith(Div, acc, y),
            },
            NumOp::AddConst(x) => arith(Add, acc, x),
            NumOp::SubConst(x) => arith(Sub, acc, x),
            NumOp::MulConst(x) => arith(Mul, acc, x),
            NumOp::DivConst(x) => arith(Div, acc, x),
            NumOp::Neg => -acc,
            NumOp::Percent => arith(Div, acc, 100.0),
            NumOp::Add | NumOp::Sub | NumOp::Mul | NumOp::Div => {
                sp -= 1;
                let x = stack[sp & MASK];
                match *op {
                    NumOp::Add => arith(Add, x, acc),
                    NumOp::Sub => arith(Sub, x, acc),
                    NumOp::Mul => arith(Mul, x, acc),
                    _ if !acc.is_finite() => return None,
                    _ => arith(Div, x, acc),
                }
            }
        };
    }
    acc.is_finite().then_some(acc)
}
