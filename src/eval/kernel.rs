//! A flat fast path for whole formula cells of the hot scalar shapes. At
//! program build each formula cell whose bound tree uses only what
//! `compile` takes gets a [`Kernel`]: a list of ops over an accumulator and
//! a small stack of unboxed scalars ([`scalar::Scalar`]), the operands
//! that are leaves (a constant, a cell, a shared value, an element of a
//! shared column) folded into the op that uses them, IF's branches behind
//! jumps, no recursion and no allocation. Run for the cell (`run`), it
//! gives the value the tree walker's `Eval::eval_cell` would, or bails out
//! ([`Bail`]) where it would have to compute something it does not hold
//! exactly (a text other than its constants, an array, a reference); the
//! engine then evaluates the cell with the tree walker from scratch.
//! Evaluation is pure (reading a shared subformula fills its value, once),
//! so a bail-out is always safe. A kernel of numbers, cell reads and
//! arithmetic also has a plain `f64` form (`numeric`) tried first.
//!
//! A kernel reads cells where they lie from the calculating cell
//! ([`Away`]), so the cells of one shape (a column of `=A1+1` filled down,
//! a heat grid) compile to the same ops, and a formula whose ops and texts
//! are those of one of the kernels compiled just before it shares that
//! kernel: 100,000 cells of one range formula hold one list of ops.

mod compile;
mod numeric;
mod run;
mod scalar;
#[cfg(test)]
mod tests;

use super::bind::Scope;
use super::{Eval, SharedValues};
use crate::address::{CellAddr, SheetId};
use crate::ast::{BinaryOp, UnaryOp};
use crate::eval::BExpr;
use crate::grid::Grid;
use crate::ids::SharedId;
use crate::value::Value;
use compile::Compiler;
use numeric::NumOp;
pub(crate) use scalar::Bail;
use scalar::Scalar;
use std::sync::Arc;

/// The most values a kernel keeps on its stack besides the accumulator (a
/// power of two: the run loop masks its stack indices with `STACK - 1`,
/// which the compiler's depth check makes a no-op).
const STACK: usize = 8;

/// A cell a kernel reads, as it lies from the calculating cell: its
/// sheet, and its row and column as offsets from the calculating cell's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Away {
    sheet: SheetId,
    rows: i32,
    cols: i32,
}

impl Away {
    /// Where `to` lies from `from`.
    fn between(from: CellAddr, to: CellAddr) -> Away {
        // Rows and columns are below 2^31: the differences fit.
        let rows = (i64::from(to.row) - i64::from(from.row)) as i32;
        let cols = (i64::from(to.col) - i64::from(from.col)) as i32;
        Away { sheet: to.sheet, rows, cols }
    }

    /// The cell this lies at from `cell` (the one it was measured from,
    /// or one of the same shape's: the sum is a cell of the grid again).
    #[inline(always)]
    fn from(self, cell: CellAddr) -> CellAddr {
        let row = cell.row.wrapping_add_signed(self.rows);
        CellAddr { sheet: self.sheet, row, col: cell.col.wrapping_add_signed(self.cols) }
    }
}

/// A test of one value (a function's `test`, as ISNUMBER's), compared by
/// address when kernels are matched (two names for one function's code
/// compute the same).
#[derive(Clone, Copy, Debug)]
struct Check(fn(&Value) -> bool);

impl PartialEq for Check {
    fn eq(&self, other: &Check) -> bool {
        std::ptr::fn_addr_eq(self.0, other.0)
    }
}

/// An operand an op reads itself.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Leaf {
    Const(Scalar),
    /// A one-cell reference, read.
    Cell(Away),
    /// A shared subformula's value (evaluated and held if it is not yet).
    Shared(SharedId),
    /// Element `k` (from 0) of a shared array that is one row or column.
    Index(SharedId, u32),
}

/// One step of a kernel. The accumulator holds the value computed last;
/// the stack holds the left operands and arguments waiting for it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    /// The accumulator becomes the leaf's value.
    Load(Leaf),
    /// The accumulator goes onto the stack and becomes the leaf's value.
    Push(Leaf),
    /// accumulator = accumulator op leaf.
    BinLeaf(BinaryOp, Leaf),
    /// accumulator = popped op accumulator.
    Bin(BinaryOp),
    Unary(UnaryOp),
    Not,
    /// IF on the accumulator: TRUE goes on, FALSE jumps to `otherwise`, an
    /// error stays as the IF's value (jumping to `end`).
    Branch {
        otherwise: u32,
        end: u32,
    },
    /// IF on a leaf (the accumulator holding nothing to keep): as
    /// `Branch`, the condition read from the leaf.
    BranchLeaf {
        leaf: Leaf,
        otherwise: u32,
        end: u32,
    },
    // The hot leaves' ops each as one op, so that running one takes one
    // dispatch (`compile::specialise` makes them).
    /// `Load(Leaf::Const)`.
    Const(Scalar),
    /// `Load(Leaf::Shared)`.
    Shared(SharedId),
    /// `BranchLeaf` on `Leaf::Shared`.
    BranchShared {
        id: SharedId,
        otherwise: u32,
        end: u32,
    },
    /// `BranchLeaf` on `Leaf::Index`.
    BranchIndex {
        id: SharedId,
        k: u32,
        otherwise: u32,
        end: u32,
    },
    Jump(u32),
    /// AND (or OR) of the top `n - 1` stack values and the accumulator;
    /// bit i of `ranges` says argument i is a reference, read as a range
    /// (text and empty skipped).
    Logic {
        or: bool,
        n: u8,
        ranges: u64,
    },
    /// One argument of an AND (or OR) of many arguments, in the
    /// accumulator, folded into the fold so far (on the stack unless
    /// `first`); `last` leaves the result in the accumulator, any other
    /// puts the fold back on the stack (`range` as in `Logic`).
    LogicStep {
        or: bool,
        range: bool,
        first: bool,
        last: bool,
    },
    /// A test of one value (ISNUMBER, ISERROR: the function's `test`) on
    /// the accumulator.
    Test(Check),
    /// One argument of an AND (or OR) whose arguments are all leaves,
    /// folded as it is read (`range` as in `Logic`): the `first` starts
    /// the fold, the `last` puts its result in the accumulator (which
    /// holds nothing to keep).
    LogicLeaf {
        or: bool,
        range: bool,
        first: bool,
        last: bool,
        leaf: Leaf,
    },
}

/// Where one compiled form sits in [`Kernels`]' buffers.
#[derive(Clone, Copy, Debug)]
struct Span {
    ops: u32,
    len: u32,
    /// The first of its constant texts ([`scalar::EMPTY_TEXT`] first).
    texts: u32,
    /// Its `f64` form in the numeric buffer (`nums` of them; 0 for none).
    num: u32,
    nums: u32,
}

/// One formula cell's compiled form: its ops, constant texts and, for
/// arithmetic over cells, its `f64` form (empty when it has none).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kernel<'k> {
    ops: &'k [Op],
    texts: &'k [Value],
    numeric: &'k [NumOp],
}

/// The kernels of a program's formula cells, by `FormulaId`: the ops,
/// `f64` forms and texts of all of them in buffers (no allocation per
/// cell), shared by the program's clones (a detached program copies them).
#[derive(Clone, Debug, Default)]
pub struct Kernels {
    all: Arc<Buffers>,
}

/// A formula with no kernel, in [`Buffers::cells`].
const NONE: u32 = u32::MAX;

/// How many kernels compiled last a new one is matched against: the
/// cells of a range formula come one after another (row by row, so a
/// block of several columns of different shapes interleaves them).
const RECENT: usize = 8;

#[derive(Clone, Debug, Default)]
struct Buffers {
    /// Each formula's kernel, an index into `kernels` ([`NONE`]: none).
    cells: Vec<u32>,
    kernels: Vec<Span>,
    ops: Vec<Op>,
    nums: Vec<NumOp>,
    texts: Vec<Value>,
    /// The kernels compiled last, the newest at the end.
    recent: Vec<u32>,
}

impl Buffers {
    /// Compiles `e`, the formula of cell `at`, with `c`: the index of its
    /// kernel (one compiled just before with the same ops and texts, or a
    /// new one at the end of the buffers), when the kernel takes its shape.
    fn compile(&mut self, c: &mut Compiler, e: &BExpr, at: CellAddr) -> Option<u32> {
        c.formula(e, at).ok()?;
        if let Some(k) = self.recent.iter().rev().copied().find(|&k| self.same(self.kernels[k as usize], c)) {
            return Some(k);
        }
        let texts = if c.texts.len() == 1 { 0 } else { self.texts.len() as u32 };
        let (num, before) = (self.nums.len() as u32, self.nums.len());
        if !numeric::compile(&c.ops, &mut self.nums) {
            self.nums.truncate(before);
        }
        let nums = (self.nums.len() - before) as u32;
        let span = Span { ops: self.ops.len() as u32, len: c.ops.len() as u32, texts, num, nums };
        self.ops.extend(c.ops.iter().map(|&op| compile::specialise(op)));
        if texts != 0 {
            self.texts.extend(c.texts.iter().cloned());
        }
        let k = self.kernels.len() as u32;
        self.kernels.push(span);
        if self.recent.len() == RECENT {
            self.recent.remove(0);
        }
        self.recent.push(k);
        Some(k)
    }

    /// Whether the kernel at `s` is what `c` compiled: the same ops and
    /// the same texts where they index (its `f64` form follows from its
    /// ops; the ops index only texts below `c.texts.len()`).
    fn same(&self, s: Span, c: &Compiler) -> bool {
        let ops = &self.ops[s.ops as usize..(s.ops + s.len) as usize];
        ops.len() == c.ops.len()
            && ops.iter().zip(&c.ops).all(|(&a, &b)| a == compile::specialise(b))
            && self.texts.get(s.texts as usize..s.texts as usize + c.texts.len()) == Some(&c.texts[..])
    }
}

impl Kernels {
    /// A kernel for each formula given (with its cell) whose shape the
    /// kernel takes.
    pub(crate) fn new<'e>(formulas: impl Iterator<Item = Option<(&'e BExpr, CellAddr)>>) -> Kernels {
        // One empty text for all the kernels, one compiler reused.
        let empty = Value::text("");
        let mut c = Compiler::new(&empty);
        // The texts start with the empty text, which a kernel with no
        // other text takes as its table.
        let mut b = Buffers { texts: vec![empty.clone()], ..Buffers::default() };
        b.cells.reserve_exact(formulas.size_hint().0);
        for f in formulas {
            let k = f.and_then(|(e, at)| b.compile(&mut c, e, at));
            b.cells.push(k.unwrap_or(NONE));
        }
        b.kernels.shrink_to_fit();
        b.ops.shrink_to_fit();
        b.nums.shrink_to_fit();
        Kernels { all: Arc::new(b) }
    }

    /// Formula `f`, of cell `at`, now has the formula `e` (None: no
    /// kernel): its kernel is one compiled just before or a new one at the
    /// end of the buffers (what the old one held stays, unused, until the
    /// program is built again).
    pub(crate) fn update(&mut self, f: usize, e: Option<&BExpr>, at: CellAddr) {
        let b = Arc::make_mut(&mut self.all);
        let empty = b.texts[0].clone();
        let mut c = Compiler::new(&empty);
        let k = e.and_then(|e| b.compile(&mut c, e, at));
        if let Some(slot) = b.cells.get_mut(f) {
            *slot = k.unwrap_or(NONE);
        }
    }

    /// A copy sharing no reference-counted value with these (see
    /// `Program::detached`).
    pub(crate) fn detached(&self) -> Kernels {
        let empty = Value::text("");
        let texts = self.all.texts.iter().map(|t| match t {
            Value::Text(s) if s.is_empty() => empty.clone(),
            t => t.detached(),
        });
        let all = &self.all;
        Kernels { all: Arc::new(Buffers { texts: texts.collect(), ..Buffers::clone(all) }) }
    }

    /// Formula `f`'s kernel, if it has one.
    #[inline]
    pub(crate) fn get(&self, f: usize) -> Option<Kernel<'_>> {
        let k = *self.all.cells.get(f)?;
        let s = *self.all.kernels.get(k as usize)?;
        let ops = &self.all.ops[s.ops as usize..(s.ops + s.len) as usize];
        let numeric = &self.all.nums[s.num as usize..(s.num + s.nums) as usize];
        Some(Kernel { ops, texts: &self.all.texts[s.texts as usize..], numeric })
    }

    /// How many formula cells have a kernel.
    pub fn count(&self) -> usize {
        self.all.cells.iter().filter(|&&k| k != NONE).count()
    }

    /// How many distinct kernels the formula cells share.
    pub fn distinct(&self) -> usize {
        self.all.kernels.len()
    }
}

/// What a kernel reads: the grid, the calculating cell, and the shared
/// subformulas with this engine's values of them.
pub(crate) struct Reads<'a> {
    pub grid: &'a Grid,
    pub cell: CellAddr,
    pub scope: &'a Scope,
    pub shared: SharedValues<'a>,
    /// The program's formula cells, for a shared SUBTOTAL or AGGREGATE.
    pub program: &'a dyn super::Formulas,
    /// Where to record what the run reads, when the engine asks.
    pub touches: Option<super::Touches>,
}

impl<'a> Reads<'a> {
    /// A shared subformula's value: held, or evaluated by the tree walker
    /// and held, exactly as `Eval::eval_shared` does when it meets it.
    #[inline(always)]
    fn shared(&mut self, id: SharedId) -> &Value {
        let i = id.index();
        if self.shared.values[i].is_none() {
            self.fill(id);
        }
        if let Some(t) = &mut self.touches {
            t.bits(self.shared.read_by(i));
        }
        self.shared.values[i].as_ref().unwrap_or(&Value::Empty)
    }

    /// The value of the cell at `c` from the calculating cell.
    #[inline(always)]
    fn read_cell(&mut self, c: Away) -> &'a Value {
        let at = c.from(self.cell);
        if let Some(t) = &mut self.touches {
            t.area(&crate::address::Area::cell(at));
        }
        self.grid.get(at)
    }

    /// Evaluates shared subformula `id` and holds its value.
    #[cold]
    #[inline(never)]
    fn fill(&mut self, id: SharedId) {
        let values = self.shared.reborrow();
        let ev = Eval::new(self.grid, self.cell).with_scope(self.scope).with_shared(values);
        ev.with_formulas(self.program).eval_shared(id);
    }
}
