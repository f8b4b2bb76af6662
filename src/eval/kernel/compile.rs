//! Turning a bound formula into a kernel's flat ops, or refusing to. Only
//! the scalar shapes are taken: constants, one-cell references, shared
//! subformulas, unary and binary arithmetic and comparisons, IF (its
//! branches behind jumps), AND/OR/NOT, INDEX of a shared array by a
//! constant position, and `ArrayMode` around them (which changes nothing
//! where no multi-cell reference is read). Anything else gives no kernel.
//!
//! Values flow through an accumulator: a leaf (constant, cell, shared
//! value, INDEX element) is loaded into it, or pushed over what it holds
//! when that is still needed (the left operand of a binary operator whose
//! right one is not a leaf, an earlier AND/OR argument); a binary
//! operator whose right operand is a leaf reads it itself, and IF of a
//! leaf branches on it directly.

use super::scalar::{EMPTY_TEXT, Scalar, supported};
use super::{Away, Check, Leaf, Op, STACK};
use crate::address::CellAddr;
use crate::eval::BExpr;
use crate::functions::Intrinsic;
use crate::value::Value;

/// The ops and constant texts of one formula, and how deep its stack gets.
pub(super) struct Compiler {
    pub ops: Vec<Op>,
    pub texts: Vec<Value>,
    /// Values on the stack at this point of the ops.
    depth: usize,
    /// Whether the accumulator holds a value still needed here.
    live: bool,
    /// The cell whose formula this is: cells are read as they lie from it.
    at: CellAddr,
}

/// What a compiled subformula may give the tree walker besides a value:
/// whether it may be a reference (IF returns its branch unread), which
/// AND and OR read as a range, not as a value.
#[derive(Clone, Copy, PartialEq)]
enum Gives {
    Value,
    MaybeRef,
}

/// The most AND / OR arguments computed onto the stack before one
/// `Logic` op; more are folded one by one (`LogicStep`).
const LOGIC_ON_STACK: usize = 4;

/// No kernel for this formula.
pub(super) struct Unsupported;

impl Compiler {
    /// A compiler whose text table starts with `empty`, the empty text.
    pub fn new(empty: &Value) -> Self {
        let at = CellAddr { sheet: 0, row: 0, col: 0 };
        Compiler { ops: Vec::with_capacity(16), texts: vec![empty.clone()], depth: 0, live: false, at }
    }

    /// Compiles the whole formula of cell `at` into `ops` and `texts`
    /// (what an earlier formula left there is cleared); its value is left
    /// in the accumulator.
    pub fn formula(&mut self, e: &BExpr, at: CellAddr) -> Result<(), Unsupported> {
        self.ops.clear();
        self.texts.truncate(1);
        (self.depth, self.live, self.at) = (0, false, at);
        self.expr(e)?;
        thread_jumps(&mut self.ops);
        Ok(())
    }

    fn emit(&mut self, op: Op) -> usize {
        self.ops.push(op);
        self.ops.len() - 1
    }

    /// `e` as a leaf, if it is one (a text constant enters the table).
    fn leaf(&mut self, e: &BExpr) -> Option<(Leaf, Gives)> {
        let s = match e {
            BExpr::ArrayMode(x) => return self.leaf(x),
            BExpr::Shared(id) => return Some((Leaf::Shared(*id), Gives::Value)),
            BExpr::Call(f, args) => match (f.intrinsic, &args[..]) {
                (Some(Intrinsic::Index), [BExpr::Shared(id), BExpr::Const(Value::Number(k))])
                    if *k >= 1.0 && k.fract() == 0.0 && *k <= u32::MAX as f64 =>
                {
                    return Some((Leaf::Index(*id, *k as u32 - 1), Gives::Value));
                }
                _ => return None,
            },
            BExpr::Const(v) => match v {
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
                    return Some((Leaf::Cell(Away::between(self.at, a.top_left())), Gives::MaybeRef));
                }
                Value::Ref(_) | Value::Array(_) => return None,
            },
            _ => return None,
        };
        Some((Leaf::Const(s), Gives::Value))
    }

    /// Loads a leaf into the accumulator, pushing what it holds if needed.
    fn load(&mut self, l: Leaf) -> Result<(), Unsupported> {
        if self.live {
            self.depth += 1;
            if self.depth > STACK {
                return Err(Unsupported);
            }
            self.emit(Op::Push(l));
        } else {
            self.emit(Op::Load(l));
        }
        self.live = true;
        Ok(())
    }

    fn expr(&mut self, e: &BExpr) -> Result<Gives, Unsupported> {
        if let Some((l, gives)) = self.leaf(e) {
            self.load(l)?;
            return Ok(gives);
        }
        match e {
            BExpr::ArrayMode(x) => self.expr(x),
            BExpr::Unary(op, x) => {
                self.expr(x)?;
                self.emit(Op::Unary(*op));
                Ok(Gives::Value)
            }
            BExpr::Binary(op, lr) if supported(*op) => {
                let [l, r] = &**lr;
                self.expr(l)?;
                match self.leaf(r) {
                    Some((leaf, _)) => {
                        self.emit(Op::BinLeaf(*op, leaf));
                    }
                    None => {
                        self.expr(r)?;
                        self.emit(Op::Bin(*op));
                        self.depth -= 1;
                    }
                }
                Ok(Gives::Value)
            }
            BExpr::Call(f, args) => match (f.intrinsic, &args[..]) {
                (Some(Intrinsic::If), [cond, then, rest @ ..]) if rest.len() <= 1 => self.if_(cond, then, rest.first()),
                (Some(k @ (Intrinsic::And | Intrinsic::Or)), args) if !args.is_empty() && args.len() <= 64 => {
                    self.logic(k == Intrinsic::Or, args)
                }
                (Some(Intrinsic::Not), [x]) => {
                    self.expr(x)?;
                    self.emit(Op::Not);
                    Ok(Gives::Value)
                }
                (None, [x]) if let Some(test) = f.test => {
                    self.expr(x)?;
                    self.emit(Op::Test(Check(test)));
                    Ok(Gives::Value)
                }
                _ => Err(Unsupported),
            },
            _ => Err(Unsupported),
        }
    }

    /// IF: the condition, a branch on it (on the leaf itself when the
    /// accumulator holds nothing to keep), each branch (a missing one is
    /// FALSE) behind its jump.
    fn if_(&mut self, cond: &BExpr, then: &BExpr, otherwise: Option<&BExpr>) -> Result<Gives, Unsupported> {
        let branch = match (self.live, self.leaf(cond)) {
            (false, Some((leaf, _))) => self.emit(Op::BranchLeaf { leaf, otherwise: 0, end: 0 }),
            (_, leaf) => {
                match leaf {
                    Some((l, _)) => self.load(l)?,
                    None => _ = self.expr(cond)?,
                }
                self.emit(Op::Branch { otherwise: 0, end: 0 })
            }
        };
        self.live = false;
        let a = self.expr(then)?;
        let jump = self.emit(Op::Jump(0));
        self.live = false;
        let start = self.ops.len() as u32;
        let b = match otherwise {
            Some(e) => self.expr(e)?,
            None => self.expr(&BExpr::Const(Value::Bool(false)))?,
        };
        let end = self.ops.len() as u32;
        self.ops[branch] = match self.ops[branch] {
            Op::BranchLeaf { leaf, .. } => Op::BranchLeaf { leaf, otherwise: start, end },
            _ => Op::Branch { otherwise: start, end },
        };
        self.ops[jump] = Op::Jump(end);
        Ok(if a == Gives::Value && b == Gives::Value { Gives::Value } else { Gives::MaybeRef })
    }

    /// AND / OR: each argument in turn into the accumulator, the earlier
    /// ones pushed; a one-cell reference is read as a range (text and
    /// empty skipped), anything else as a value. An argument that may or
    /// may not be a reference takes no kernel.
    fn logic(&mut self, or: bool, args: &[BExpr]) -> Result<Gives, Unsupported> {
        if !self.live && self.logic_of_leaves(or, args) {
            return Ok(Gives::Value);
        }
        if args.len() > LOGIC_ON_STACK {
            return self.logic_steps(or, args);
        }
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
        self.emit(Op::Logic { or, n: args.len() as u8, ranges });
        self.depth -= args.len() - 1;
        Ok(Gives::Value)
    }

    /// AND / OR of many arguments, folded one by one (`LogicStep`): the
    /// fold so far waits on the stack while the next argument is computed.
    fn logic_steps(&mut self, or: bool, args: &[BExpr]) -> Result<Gives, Unsupported> {
        for (i, a) in args.iter().enumerate() {
            let mut inner = a;
            while let BExpr::ArrayMode(x) = inner {
                inner = x;
            }
            let gives = self.expr(a)?;
            let range = matches!(inner, BExpr::Const(Value::Ref(_)));
            if gives == Gives::MaybeRef && !range {
                return Err(Unsupported);
            }
            let (first, last) = (i == 0, i + 1 == args.len());
            self.emit(Op::LogicStep { or, range, first, last });
            if !first {
                self.depth -= 1;
            }
            if !last {
                self.depth += 1;
                if self.depth > STACK {
                    return Err(Unsupported);
                }
            }
            self.live = last;
        }
        Ok(Gives::Value)
    }

    /// AND / OR of leaves only, one `LogicLeaf` for each; false (nothing
    /// emitted) when an argument is not a leaf.
    fn logic_of_leaves(&mut self, or: bool, args: &[BExpr]) -> bool {
        let (texts, ops) = (self.texts.len(), self.ops.len());
        for (i, a) in args.iter().enumerate() {
            let Some((leaf, _)) = self.leaf(a) else {
                self.texts.truncate(texts);
                self.ops.truncate(ops);
                return false;
            };
            let range = matches!(leaf, Leaf::Cell(_));
            self.emit(Op::LogicLeaf { or, range, first: i == 0, last: i + 1 == args.len(), leaf });
        }
        self.live = true;
        true
    }
}

/// Points every jump at where its chain of jumps ends (IF's branches end
/// by jumping to the end of the IF, often a jump to the end of an outer
/// one). Jumps go forward only, so each chain ends.
fn thread_jumps(ops: &mut [Op]) {
    for i in 0..ops.len() {
        if let Op::Jump(mut to) = ops[i] {
            while let Some(&Op::Jump(next)) = ops.get(to as usize) {
                to = next;
            }
            ops[i] = Op::Jump(to);
        }
    }
}

/// `op` as one of the ops of a single dispatch for its leaf, if it has one.
pub(super) fn specialise(op: Op) -> Op {
    match op {
        Op::Load(Leaf::Const(s)) => Op::Const(s),
        Op::Load(Leaf::Shared(id)) => Op::Shared(id),
        Op::BranchLeaf { leaf: Leaf::Shared(id), otherwise, end } => Op::BranchShared { id, otherwise, end },
        Op::BranchLeaf { leaf: Leaf::Index(id, k), otherwise, end } => Op::BranchIndex { id, k, otherwise, end },
        op => op,
    }
}
