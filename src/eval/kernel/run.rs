//! Running a kernel: the `f64` form first when it has one, then the ops
//! over the accumulator and the stack. Stack indices are masked with
//! `STACK - 1` (a no-op: the compiler refuses a formula deeper than
//! [`STACK`]), so the loop has no bounds check on the stack and no panic
//! path; reading a leaf that is a number or a boolean, and branching on it,
//! take no detour through a general conversion. A kernel that is IF of a
//! leaf between two constants (the 25×25 valid-values cells,
//! `IF(INDEX(kept, k), k, "")`) is one step: read, choose.

use super::scalar::{self, Scalar, truth};
use super::{Bail, Kernel, Leaf, Op, Reads, STACK};
use crate::value::{ErrorKind, Kind, Value};

const MASK: usize = STACK - 1;

impl Kernel<'_> {
    /// The value the cell shows (as `Eval::eval_cell` gives it), or a bail-out.
    #[inline]
    pub(crate) fn run(&self, reads: &mut Reads) -> Result<Value, Bail> {
        if !self.numeric.is_empty()
            && let Some(n) = super::numeric::run(self.numeric, reads.grid, reads.cell)
        {
            // No branch: every cell it holds was read.
            if let Some(t) = &mut reads.touches {
                t.everything();
            }
            return Ok(Value::Number(n));
        }
        if let [cond, Op::Const(then), Op::Jump(_), Op::Const(otherwise)] = *self.ops {
            let t = match cond {
                Op::BranchIndex { id, k, .. } => element_truth(reads.shared(id), k as usize, self.texts)?,
                Op::BranchShared { id, .. } => value_truth(reads.shared(id), self.texts)?,
                Op::BranchLeaf { leaf, .. } => leaf_truth(leaf, reads, self.texts)?,
                _ => return self.run_ops(reads),
            };
            let v = match t {
                Ok(true) => then,
                Ok(false) => otherwise,
                Err(e) => Scalar::Err(e),
            };
            return Ok(result(v, self.texts));
        }
        self.run_ops(reads)
    }

    /// The value by the ops over scalars, or a bail-out.
    #[inline(never)]
    fn run_ops(&self, reads: &mut Reads) -> Result<Value, Bail> {
        let mut acc = Scalar::Empty;
        let mut fold = Fold::new(false);
        let mut stack = [Scalar::Empty; STACK];
        let mut sp = 0usize;
        let mut pc = 0usize;
        let texts = self.texts;
        while let Some(op) = self.ops.get(pc) {
            pc += 1;
            match *op {
                Op::Load(l) => acc = read(l, reads)?,
                Op::Push(l) => {
                    stack[sp & MASK] = acc;
                    sp += 1;
                    acc = read(l, reads)?;
                }
                Op::BinLeaf(op, l) => acc = scalar::binary(op, acc, read(l, reads)?, texts),
                Op::Bin(op) => {
                    sp -= 1;
                    acc = scalar::binary(op, stack[sp & MASK], acc, texts);
                }
                Op::Unary(op) => acc = scalar::unary(op, acc, texts),
                Op::Not => {
                    acc = match truth(acc, texts) {
                        Ok(b) => Scalar::Bool(!b),
                        Err(e) => Scalar::Err(e),
                    }
                }
                Op::Branch { otherwise, end } => branch(truth(acc, texts), &mut acc, &mut pc, otherwise, end),
                Op::BranchLeaf { leaf, otherwise, end } => {
                    branch(leaf_truth(leaf, reads, texts)?, &mut acc, &mut pc, otherwise, end)
                }
                Op::Const(s) => acc = s,
                Op::Shared(id) => acc = Scalar::read(reads.shared(id))?,
                Op::BranchShared { id, otherwise, end } => {
                    branch(value_truth(reads.shared(id), texts)?, &mut acc, &mut pc, otherwise, end)
                }
                Op::BranchIndex { id, k, otherwise, end } => {
                    branch(element_truth(reads.shared(id), k as usize, texts)?, &mut acc, &mut pc, otherwise, end)
                }
                Op::Jump(to) => pc = to as usize,
                Op::Logic { or, n, ranges } => {
                    let n = n as usize;
                    sp -= n - 1;
                    let args = (0..n - 1).map(|i| stack[(sp + i) & MASK]).chain([acc]);
                    acc = logic(or, args, ranges, texts);
                }
                Op::LogicStep { or, range, first, last } => {
                    let mut fold = if first {
                        Fold::new(or)
                    } else {
                        sp -= 1;
                        Fold::resume(or, stack[sp & MASK])
                    };
                    fold.add(arg(acc, range, texts));
                    if last {
                        acc = fold.result();
                    } else {
                        stack[sp & MASK] = fold.partial();
                        sp += 1;
                    }
                }
                Op::Test(test) => acc = Scalar::Bool(test.0(&acc.value(texts))),
                Op::LogicLeaf { or, range, first, last, leaf } => {
                    if first {
                        fold = Fold::new(or);
                    }
                    fold.add(logic_arg(leaf, range, reads, texts)?);
                    if last {
                        acc = fold.result();
                    }
                }
            }
        }
        Ok(result(acc, texts))
    }
}

/// The value a cell shows for a kernel's result: empty shows as 0.
#[inline(always)]
fn result(acc: Scalar, texts: &[Value]) -> Value {
    match acc {
        Scalar::Empty => Value::Number(0.0),
        s => s.value(texts),
    }
}

/// A leaf's value as a scalar, or a bail-out.
#[inline(always)]
fn read(l: Leaf, reads: &mut Reads) -> Result<Scalar, Bail> {
    match l {
        Leaf::Const(s) => Ok(s),
        Leaf::Cell(c) => Scalar::read(reads.read_cell(c)),
        Leaf::Shared(id) => Scalar::read(reads.shared(id)),
        Leaf::Index(id, k) => element(reads.shared(id), k as usize),
    }
}

/// IF's jump on its condition `t`: on TRUE to the next op, on FALSE to
/// `otherwise`, on an error to `end` with the error as the IF's value.
#[inline(always)]
fn branch(t: Result<bool, ErrorKind>, acc: &mut Scalar, pc: &mut usize, otherwise: u32, end: u32) {
    match t {
        Ok(true) => {}
        Ok(false) => *pc = otherwise as usize,
        Err(e) => {
            *acc = Scalar::Err(e);
            *pc = end as usize;
        }
    }
}

/// A leaf's value as a condition (`Value::to_bool`), or a bail-out.
#[inline(always)]
fn leaf_truth(l: Leaf, reads: &mut Reads, texts: &[Value]) -> Result<Result<bool, ErrorKind>, Bail> {
    match l {
        Leaf::Cell(c) => value_truth(reads.read_cell(c), texts),
        Leaf::Shared(id) => value_truth(reads.shared(id), texts),
        l => Ok(truth(read(l, reads)?, texts)),
    }
}

/// A value as a condition, or a bail-out: a boolean or a number read
/// straight from the value.
#[inline(always)]
fn value_truth(v: &Value, texts: &[Value]) -> Result<Result<bool, ErrorKind>, Bail> {
    Ok(match v {
        Value::Bool(b) => Ok(*b),
        Value::Number(n) => Ok(*n != 0.0),
        v => truth(Scalar::read(v)?, texts),
    })
}

/// INDEX(array, k + 1) of a shared value: an element of a one-column or
/// one-row array; anything else bails.
#[inline(always)]
fn element(v: &Value, k: usize) -> Result<Scalar, Bail> {
    let Value::Array(a) = v else { return Err(Bail) };
    if (a.cols != 1 && a.rows != 1) || k >= a.len() {
        return Err(Bail);
    }
    match a.as_dense() {
        Some((nums, kind)) => match (nums.get(k), kind) {
            (Some(&x), Kind::Number) => Ok(Scalar::Num(x)),
            (Some(&x), Kind::Bool) => Ok(Scalar::Bool(x != 0.0)),
            (None, _) => Err(Bail),
        },
        // A reference array's elements are references: they bail here.
        None => a.values().get(k).map_or(Err(Bail), Scalar::read),
    }
}

/// One argument of AND / OR as `functions::logical` reads it: a range
/// skips text and empty (`None`), a value is a condition.
#[inline(always)]
fn arg(a: Scalar, range: bool, texts: &[Value]) -> Option<Result<bool, ErrorKind>> {
    if !range {
        return Some(truth(a, texts));
    }
    match a {
        Scalar::Num(n) => Some(Ok(n != 0.0)),
        Scalar::Bool(b) => Some(Ok(b)),
        Scalar::Err(e) => Some(Err(e)),
        _ => None,
    }
}

/// [`arg`] of a leaf, or a bail-out: a boolean or a number read straight
/// from the value, a text read as a range skipped.
#[inline(always)]
fn logic_arg(
    l: Leaf,
    range: bool,
    reads: &mut Reads,
    texts: &[Value],
) -> Result<Option<Result<bool, ErrorKind>>, Bail> {
    let v = match l {
        Leaf::Cell(c) => reads.read_cell(c),
        Leaf::Shared(id) => reads.shared(id),
        l => return Ok(arg(read(l, reads)?, range, texts)),
    };
    Ok(match v {
        Value::Bool(b) => Some(Ok(*b)),
        Value::Number(n) => Some(Ok(*n != 0.0)),
        // A range skips any text, not only the kernel's.
        Value::Text(_) if range => None,
        v => arg(Scalar::read(v)?, range, texts),
    })
}

/// AND (or OR) folded over its arguments as `functions::logical` folds
/// them: the first error is the result, and nothing counted is #VALUE!.
#[derive(Clone, Copy)]
struct Fold {
    or: bool,
    acc: bool,
    seen: bool,
    error: Option<ErrorKind>,
}

impl Fold {
    fn new(or: bool) -> Fold {
        Fold { or, acc: !or, seen: false, error: None }
    }

    #[inline(always)]
    fn add(&mut self, arg: Option<Result<bool, ErrorKind>>) {
        match arg {
            Some(Ok(b)) => {
                self.seen = true;
                self.acc = if self.or { self.acc || b } else { self.acc && b };
            }
            Some(Err(e)) => _ = self.error.get_or_insert(e),
            None => {}
        }
    }

    /// The fold so far as one scalar, to wait on the stack: its first
    /// error (the result whatever follows), else what it counted (a
    /// boolean), else empty.
    fn partial(self) -> Scalar {
        match self.error {
            Some(e) => Scalar::Err(e),
            None if self.seen => Scalar::Bool(self.acc),
            None => Scalar::Empty,
        }
    }

    /// The fold a [`Fold::partial`] stands for.
    fn resume(or: bool, partial: Scalar) -> Fold {
        match partial {
            Scalar::Err(e) => Fold { or, acc: !or, seen: false, error: Some(e) },
            Scalar::Bool(b) => Fold { or, acc: b, seen: true, error: None },
            _ => Fold::new(or),
        }
    }

    fn result(self) -> Scalar {
        match self.error {
            Some(e) => Scalar::Err(e),
            None if self.seen => Scalar::Bool(self.acc),
            None => Scalar::Err(ErrorKind::Value),
        }
    }
}

/// [`element`] as a condition, or a bail-out: an element of a dense
/// array (numbers, or booleans stored as 0 and 1) is TRUE when it is not 0.
#[inline(always)]
fn element_truth(v: &Value, k: usize, texts: &[Value]) -> Result<Result<bool, ErrorKind>, Bail> {
    if let Value::Array(a) = v
        && (a.cols == 1 || a.rows == 1)
        && k < a.len()
        && let Some((nums, _)) = a.as_dense()
        && let Some(&x) = nums.get(k)
    {
        return Ok(Ok(x != 0.0));
    }
    Ok(truth(element(v, k)?, texts))
}

/// AND (or OR) over its arguments (bit i of `ranges`: argument i is a range).
fn logic(or: bool, args: impl Iterator<Item = Scalar>, ranges: u64, texts: &[Value]) -> Scalar {
    let mut fold = Fold::new(or);
    for (i, a) in args.enumerate() {
        fold.add(arg(a, ranges & (1 << i) != 0, texts));
    }
    fold.result()
}
