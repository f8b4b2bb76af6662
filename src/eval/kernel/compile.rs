//! Turning a bound formula into a kernel's flat ops, or refusing to. Only
//! the scalar shapes are taken: constants, one-cell references, shared
//! subformulas, unary and binary arithmetic and comparisons, IF (its
//! branches behind jumps), AND/OR/NOT, INDEX of a shared array by a
//! constant position, and `ArrayMode` around them (which changes nothing
//! where no multi-cell reference is read). Anything else gives no kernel.

use super::scalar::{EMPTY_TEXT, Scalar, supported};
use super::{Op, STACK};
use crate::eval::BExpr;
use crate::value::Value;

/// The ops and constant texts of one formula, and how deep its stack gets.
pub(super) struct Compiler {
    pub ops: Vec<Op>,
    pub texts: Vec<Value>,
    depth: usize,
    pub max_depth: usize,
}

/// What a compiled subformula may give the tree walker besides a value:
/// whether it may be a reference (IF returns its branch unread), which
/// AND and OR read as a range, not as a value.
#[derive(Clone, Copy, PartialEq)]
enum Gives {
    Value,
    MaybeRef,
}

/// No kernel for this formula.
pub(super) struct Unsupported;

impl Compiler {
    /// A compiler whose text table starts with `empty`, the empty text.
    pub fn new(empty: &Value) -> Self {
        Compiler { ops: Vec::with_capacity(16), texts: vec![empty.clone()], depth: 0, max_depth: 0 }
    }

    /// Compiles a whole formula into `ops` and `texts` (what an earlier
    /// formula left there is cleared); its value is left on the stack.
    pub fn formula(&mut self, e: &BExpr) -> Result<(), Unsupported> {
        self.ops.clear();
        self.texts.truncate(1);
        (self.depth, self.max_depth) = (0, 0);
        self.expr(e).map(|_| ())
    }

    fn emit(&mut self, op: Op, pushes: usize, pops: usize) -> Result<usize, Unsupported> {
        self.depth = self.depth + pushes - pops;
        self.max_depth = self.max_depth.max(self.depth);
        if self.max_depth > STACK {
            return Err(Unsupported);
        }
        self.ops.push(op);
        Ok(self.ops.len() - 1)
    }

    fn constant(&mut self, v: &Value) -> Result<Gives, Unsupported> {
        let s = match v {
            Value::Number(n) => Scalar::Num(*n),
            Value::Bool(b) => Scalar::Bool(*b),
            Value::Empty => Scalar::Empty,
            Value::Error(e) => Scalar::Err(*e),
            Value::Text(t) if t.is_empty() => Scalar::Text(EMPTY_TEXT),
            Value::Text(_) => {
                self.texts.push(v.clone());
                Scalar::Text(self.texts.len() as u32 - 1)
            }
            Value::Ref(a) if a.is_cell() => {
                self.emit(Op::Cell(a.top_left()), 1, 0)?;
                return Ok(Gives::MaybeRef);
            }
            Value::Ref(_) | Value::Array(_) => return Err(Unsupported),
        };
        self.emit(Op::Push(s), 1, 0)?;
        Ok(Gives::Value)
    }

    fn expr(&mut self, e: &BExpr) -> Result<Gives, Unsupported> {
        match e {
            BExpr::Const(v) => self.constant(v),
            BExpr::Shared(id) => {
                self.emit(Op::Shared(*id), 1, 0)?;
                Ok(Gives::Value)
            }
            BExpr::ArrayMode(x) => self.expr(x),
            BExpr::Unary(op, x) => {
                self.expr(x)?;
                self.emit(Op::Unary(*op), 1, 1)?;
                Ok(Gives::Value)
            }
            BExpr::Binary(op, l, r) if supported(*op) => {
                self.expr(l)?;
                self.expr(r)?;
                self.emit(Op::Binary(*op), 1, 2)?;
                Ok(Gives::Value)
            }
            BExpr::Call(f, args) => match (f.name, &args[..]) {
                ("IF", [cond, then, rest @ ..]) if rest.len() <= 1 => self.if_(cond, then, rest.first()),
                ("AND" | "OR", args) if !args.is_empty() && args.len() <= 64 => self.logic(f.name == "OR", args),
                ("NOT", [x]) => {
                    self.expr(x)?;
                    self.emit(Op::Not, 1, 1)?;
                    Ok(Gives::Value)
                }
                ("INDEX", [BExpr::Shared(id), BExpr::Const(Value::Number(k))])
                    if *k >= 1.0 && k.fract() == 0.0 && *k <= u32::MAX as f64 =>
                {
                    self.emit(Op::Index(*id, *k as u32 - 1), 1, 0)?;
                    Ok(Gives::Value)
                }
                _ => Err(Unsupported),
            },
            _ => Err(Unsupported),
        }
    }

    /// IF: the condition, a branch on it, each branch (a missing one is
    /// FALSE) behind its jump.
    fn if_(&mut self, cond: &BExpr, then: &BExpr, otherwise: Option<&BExpr>) -> Result<Gives, Unsupported> {
        self.expr(cond)?;
        let branch = self.emit(Op::Branch { otherwise: 0, end: 0 }, 0, 1)?;
        let a = self.expr(then)?;
        let jump = self.emit(Op::Jump(0), 0, 0)?;
        self.depth -= 1;
        let start = self.ops.len() as u32;
        let b = match otherwise {
            Some(e) => self.expr(e)?,
            None => self.constant(&Value::Bool(false))?,
        };
        let end = self.ops.len() as u32;
        self.ops[branch] = Op::Branch { otherwise: start, end };
        self.ops[jump] = Op::Jump(end);
        Ok(if a == Gives::Value && b == Gives::Value { Gives::Value } else { Gives::MaybeRef })
    }

    /// AND / OR: each argument on the stack; a one-cell reference is read
    /// as a range (text and empty skipped), anything else as a value. An
    /// argument that may or may not be a reference takes no kernel.
    fn logic(&mut self, or: bool, args: &[BExpr]) -> Result<Gives, Unsupported> {
        let mut ranges = 0u64;
        for (i, a) in args.iter().enumerate() {
            let mut inner = a;
            while let BExpr::ArrayMode(x) = inner {
                inner = x;
            }
            let gives = self.expr(a)?;
            match inner {
                BExpr::Const(Value::Ref(_)) => ranges |= 1 << i,
                _ if gives == Gives::MaybeRef => return Err(Unsupported),
                _ => {}
            }
        }
        self.emit(Op::Logic { or, n: args.len() as u8, ranges }, 1, args.len())?;
        Ok(Gives::Value)
    }
}
