//! A flat fast path for whole formula cells of the hot scalar shapes. At
//! program build each formula cell whose bound tree uses only what
//! `compile` takes gets a [`Kernel`]: a list of ops over a small stack of
//! unboxed scalars ([`scalar::Scalar`]), IF's branches behind jumps, no
//! recursion and no allocation. Run for the cell, it gives the value the
//! tree walker's `Eval::eval_cell` would, or bails out ([`Bail`]) where it
//! would have to compute something it does not hold exactly (a text other
//! than its constants, an array, a reference); the engine then evaluates
//! the cell with the tree walker from scratch. Evaluation is pure (reading
//! a shared subformula fills its value, once), so a bail-out is always safe.

mod compile;
mod scalar;

use super::bind::Scope;
use super::{BExpr, Eval, SharedValues};
use crate::address::CellAddr;
use crate::ast::{BinaryOp, UnaryOp};
use crate::grid::Grid;
use crate::ids::SharedId;
use crate::value::{ErrorKind, Value};
use compile::Compiler;
pub(crate) use scalar::Bail;
use scalar::{Scalar, truth};
use std::sync::Arc;

/// The deepest stack a kernel may use.
const STACK: usize = 8;

/// One step of a kernel.
#[derive(Clone, Copy, Debug)]
enum Op {
    Push(Scalar),
    /// A one-cell reference, read.
    Cell(CellAddr),
    /// A shared subformula's value (evaluated and held if it is not yet).
    Shared(SharedId),
    /// Element `k` (from 0) of a shared array that is one row or column.
    Index(SharedId, u32),
    Unary(UnaryOp),
    Binary(BinaryOp),
    /// IF: pops the condition; TRUE goes on, FALSE jumps to `otherwise`,
    /// an error is the IF's value (jumping to `end`).
    Branch {
        otherwise: u32,
        end: u32,
    },
    Jump(u32),
    /// AND (or OR) of the top `n` values; bit i of `ranges` says argument
    /// i is a reference, read as a range (text and empty skipped).
    Logic {
        or: bool,
        n: u8,
        ranges: u64,
    },
    Not,
}

/// Where one formula cell's compiled form sits in [`Kernels`]' buffers.
#[derive(Clone, Copy, Debug)]
struct Span {
    ops: u32,
    len: u32,
    /// The first of its constant texts ([`scalar::EMPTY_TEXT`] first).
    texts: u32,
    /// Whether the ops are only numbers, cell reads and arithmetic, which
    /// [`Kernel::run_numeric`] computes on plain `f64`s.
    numeric: bool,
}

/// One formula cell's compiled form: its ops and constant texts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kernel<'k> {
    ops: &'k [Op],
    texts: &'k [Value],
    numeric: bool,
}

/// The kernels of a program's formula cells, by `FormulaId`: the ops and
/// texts of all of them in two buffers (no allocation per cell), shared by
/// the program's clones (a detached program copies them).
#[derive(Clone, Debug, Default)]
pub struct Kernels {
    all: Arc<Buffers>,
}

#[derive(Debug, Default)]
struct Buffers {
    cells: Vec<Option<Span>>,
    ops: Vec<Op>,
    texts: Vec<Value>,
}

impl Kernels {
    /// A kernel for each formula given whose shape the kernel takes.
    pub(crate) fn new<'e>(formulas: impl Iterator<Item = Option<&'e BExpr>>) -> Kernels {
        // One empty text for all the kernels, one compiler reused.
        let empty = Value::text("");
        let mut c = Compiler::new(&empty);
        // The texts start with the empty text, which a kernel with no
        // other text takes as its table.
        let mut b = Buffers { texts: vec![empty.clone()], ..Buffers::default() };
        for e in formulas {
            let span = e.and_then(|e| {
                c.formula(e).ok()?;
                let texts = if c.texts.len() == 1 { 0 } else { b.texts.len() as u32 };
                let span = Span { ops: b.ops.len() as u32, len: c.ops.len() as u32, texts, numeric: numeric(&c.ops) };
                b.ops.extend_from_slice(&c.ops);
                if texts != 0 {
                    b.texts.extend(c.texts.iter().cloned());
                }
                Some(span)
            });
            b.cells.push(span);
        }
        b.ops.shrink_to_fit();
        Kernels { all: Arc::new(b) }
    }

    /// A copy sharing no reference-counted value with these (see
    /// `Program::detached`).
    pub(crate) fn detached(&self) -> Kernels {
        let empty = Value::text("");
        let texts = self.all.texts.iter().map(|t| match t {
            Value::Text(s) if s.is_empty() => empty.clone(),
            t => t.detached(),
        });
        Kernels {
            all: Arc::new(Buffers { cells: self.all.cells.clone(), ops: self.all.ops.clone(), texts: texts.collect() }),
        }
    }

    /// Formula `f`'s kernel, if it has one.
    #[inline]
    pub(crate) fn get(&self, f: usize) -> Option<Kernel<'_>> {
        let s = self.all.cells.get(f).copied().flatten()?;
        let ops = &self.all.ops[s.ops as usize..(s.ops + s.len) as usize];
        Some(Kernel { ops, texts: &self.all.texts[s.texts as usize..], numeric: s.numeric })
    }

    /// How many formula cells have a kernel.
    pub fn count(&self) -> usize {
        self.all.cells.iter().filter(|k| k.is_some()).count()
    }
}

/// Whether `ops` are only numbers, cell reads and arithmetic.
fn numeric(ops: &[Op]) -> bool {
    ops.iter().all(|op| match op {
        Op::Push(Scalar::Num(_)) | Op::Cell(_) => true,
        Op::Binary(op) => matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div),
        Op::Unary(op) => matches!(op, UnaryOp::Neg | UnaryOp::Percent),
        _ => false,
    })
}

/// What a kernel reads: the grid, the calculating cell, and the shared
/// subformulas with this engine's values of them.
pub(crate) struct Reads<'a> {
    pub grid: &'a Grid,
    pub cell: CellAddr,
    pub scope: &'a Scope,
    pub shared: SharedValues<'a>,
}

impl Reads<'_> {
    /// A shared subformula's value: held, or evaluated by the tree walker
    /// and held, exactly as `Eval::eval_shared` does when it meets it.
    fn shared(&mut self, id: SharedId) -> &Value {
        let i = id.index();
        if self.shared.values[i].is_none() {
            let values = SharedValues { exprs: self.shared.exprs, values: &mut *self.shared.values };
            Eval::new(self.grid, self.cell).with_scope(self.scope).with_shared(values).eval_shared(id);
        }
        self.shared.values[i].as_ref().unwrap_or(&Value::Empty)
    }
}

impl Kernel<'_> {
    /// The value of an arithmetic kernel over numbers and empty cells, on
    /// plain `f64`s; `None` where that is not exactly the value (any other
    /// cell value, a division by zero, a result that is not finite): the
    /// general [`Kernel::run`] computes it then.
    #[inline]
    fn run_numeric(&self, grid: &Grid) -> Option<f64> {
        let mut stack = [0.0f64; STACK];
        let mut sp = 0usize;
        for op in self.ops {
            let x = match *op {
                Op::Push(Scalar::Num(n)) => n,
                Op::Cell(c) => match grid.get(c) {
                    Value::Number(n) => *n,
                    Value::Empty => 0.0,
                    _ => return None,
                },
                Op::Unary(op) => {
                    sp -= 1;
                    if op == UnaryOp::Neg { -stack[sp] } else { stack[sp] / 100.0 }
                }
                Op::Binary(op) => {
                    sp -= 2;
                    let (x, y) = (stack[sp], stack[sp + 1]);
                    match op {
                        BinaryOp::Add => x + y,
                        BinaryOp::Sub => x - y,
                        BinaryOp::Mul => x * y,
                        _ if y == 0.0 => return None,
                        _ => x / y,
                    }
                }
                _ => return None,
            };
            if !x.is_finite() {
                return None;
            }
            stack[sp] = x;
            sp += 1;
        }
        Some(stack[0])
    }

    /// The value the cell shows (as `Eval::eval_cell` gives it), or a bail-out.
    pub(crate) fn run(&self, reads: &mut Reads) -> Result<Value, Bail> {
        if self.numeric
            && let Some(n) = self.run_numeric(reads.grid)
        {
            return Ok(Value::Number(n));
        }
        let mut stack = [Scalar::Empty; STACK];
        let mut sp = 0usize;
        let mut pc = 0usize;
        let texts = self.texts;
        while let Some(op) = self.ops.get(pc) {
            pc += 1;
            match *op {
                Op::Push(s) => {
                    stack[sp] = s;
                    sp += 1;
                }
                Op::Cell(c) => {
                    stack[sp] = Scalar::read(reads.grid.get(c))?;
                    sp += 1;
                }
                Op::Shared(id) => {
                    stack[sp] = Scalar::read(reads.shared(id))?;
                    sp += 1;
                }
                Op::Index(id, k) => {
                    stack[sp] = element(reads.shared(id), k as usize)?;
                    sp += 1;
                }
                Op::Unary(op) => stack[sp - 1] = scalar::unary(op, stack[sp - 1], texts),
                Op::Binary(op) => {
                    sp -= 1;
                    stack[sp - 1] = scalar::binary(op, stack[sp - 1], stack[sp], texts);
                }
                Op::Branch { otherwise, end } => {
                    sp -= 1;
                    match truth(stack[sp], texts) {
                        Ok(true) => {}
                        Ok(false) => pc = otherwise as usize,
                        Err(e) => {
                            stack[sp] = Scalar::Err(e);
                            sp += 1;
                            pc = end as usize;
                        }
                    }
                }
                Op::Jump(to) => pc = to as usize,
                Op::Logic { or, n, ranges } => {
                    sp -= n as usize;
                    stack[sp] = logic(or, &stack[sp..sp + n as usize], ranges, texts);
                    sp += 1;
                }
                Op::Not => {
                    stack[sp - 1] = match truth(stack[sp - 1], texts) {
                        Ok(b) => Scalar::Bool(!b),
                        Err(e) => Scalar::Err(e),
                    }
                }
            }
        }
        Ok(match stack[0] {
            Scalar::Empty => Value::Number(0.0),
            s => s.value(texts),
        })
    }
}

/// INDEX(array, k + 1) of a shared value: an element of a one-column or
/// one-row array; anything else bails.
fn element(v: &Value, k: usize) -> Result<Scalar, Bail> {
    let Value::Array(a) = v else { return Err(Bail) };
    if (a.cols != 1 && a.rows != 1) || k >= a.len() || a.is_ref_array() {
        return Err(Bail);
    }
    match a.as_dense() {
        Some((nums, kind)) => Ok(match kind {
            crate::value::Kind::Number => Scalar::Num(nums[k]),
            crate::value::Kind::Bool => Scalar::Bool(nums[k] != 0.0),
        }),
        None => Scalar::read(&a.values()[k]),
    }
}

/// AND (or OR) over its arguments as `functions::logical` folds them: a
/// range skips text and empty, a value is a condition; the first error is
/// the result, and nothing counted is #VALUE!.
fn logic(or: bool, args: &[Scalar], ranges: u64, texts: &[Value]) -> Scalar {
    let (mut acc, mut seen, mut error) = (!or, false, None);
    for (i, &a) in args.iter().enumerate() {
        let b = if ranges & (1 << i) != 0 {
            match a {
                Scalar::Num(n) => n != 0.0,
                Scalar::Bool(b) => b,
                Scalar::Err(e) => {
                    error.get_or_insert(e);
                    continue;
                }
                _ => continue,
            }
        } else {
            match truth(a, texts) {
                Ok(b) => b,
                Err(e) => {
                    error.get_or_insert(e);
                    continue;
                }
            }
        };
        seen = true;
        acc = if or { acc || b } else { acc && b };
    }
    match error {
        Some(e) => Scalar::Err(e),
        None if seen => Scalar::Bool(acc),
        None => Scalar::Err(ErrorKind::Value),
    }
}
