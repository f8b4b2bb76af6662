//! Evaluation of bound formulas. A formula is first *bound* to the cell that
//! uses it (`bind`): names are inlined, relative references resolved to
//! fixed areas, and every subtree that depends only on the cell's position
//! (ROW, COLUMN, INDEX with such arguments, `:`) is folded into a constant.
//! What is left is a small tree of [`BExpr`] that [`Eval`] walks against a
//! [`Grid`]. Excel errors travel as values; nothing here returns `Result`.

pub mod bind;
pub mod deps;
pub(crate) mod kernel;
mod ops;
pub mod random;
mod reading;
mod setup;
pub mod touches;

use crate::address::{Area, CellAddr};
use crate::ast::{BinaryOp, UnaryOp};
use crate::functions::FnSpec;
use crate::grid::Grid;
use crate::ids::{NameId, SharedId};
use crate::value::{ErrorKind, MAX_WORK, Value};
use bind::Scope;
use std::cell::Cell;
use std::sync::Arc;

/// The array-size cap, defined with the other value rules in `value`.
pub use crate::value::MAX_ARRAY_CELLS;
pub use ops::{binary, unary};
pub use random::Random;
pub use setup::SharedValues;
pub use touches::Touches;

/// What evaluation may ask of the program about its other formula cells.
pub trait Formulas {
    /// Whether the formula of `cell` calls SUBTOTAL or AGGREGATE: those two
    /// leave such cells out, so that subtotals are not counted twice.
    fn calls_subtotal(&self, cell: CellAddr) -> bool;
    /// The formula `cell` holds, as FORMULATEXT shows it (`=A1+1`,
    /// `{=...}` for an array formula); `None` for a cell without one.
    fn formula_text(&self, cell: CellAddr) -> Option<String>;
}

/// A formula bound to one cell: ready to evaluate.
#[derive(Clone, PartialEq)]
pub enum BExpr {
    /// A literal, a fixed reference (`Value::Ref`) or a folded subtree.
    Const(Value),
    Unary(UnaryOp, Box<BExpr>),
    /// An operator and its two operands, held in one allocation (a
    /// formula like `A1+1` in each of 100,000 cells costs one, not two).
    Binary(BinaryOp, Box<[BExpr; 2]>),
    Call(&'static FnSpec, Box<[BExpr]>),
    /// A LET variable, by slot.
    Local(usize),
    /// A name's formula: evaluated as an array formula (Excel's rule for names).
    ArrayMode(Box<BExpr>),
    /// A subformula several formulas share (see `engine::share`): evaluated
    /// once and reused until a cell it reads changes. It never depends on
    /// the calculating cell, and gives the same in array mode or not.
    Shared(SharedId),
    /// A part of a name's binding that the binder kept for several cells
    /// (`bind::Memo`), held by reference: it means exactly what the node
    /// it holds means. Only `Program::build` meets it; the sharing pass
    /// replaces it or copies it out, so no program holds one.
    Kept(Arc<BExpr>),
}

/// As derived, with an operator's operands shown as two fields
/// (`Binary(Add, l, r)`), as they were before they shared one allocation:
/// the pinned bindings (`tests/binding_sudoku.rs`) read the same.
impl std::fmt::Debug for BExpr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BExpr::Const(v) => f.debug_tuple("Const").field(v).finish(),
            BExpr::Unary(op, x) => f.debug_tuple("Unary").field(op).field(x).finish(),
            BExpr::Binary(op, lr) => f.debug_tuple("Binary").field(op).field(&lr[0]).field(&lr[1]).finish(),
            BExpr::Call(spec, args) => f.debug_tuple("Call").field(spec).field(args).finish(),
            BExpr::Local(slot) => f.debug_tuple("Local").field(slot).finish(),
            BExpr::ArrayMode(x) => f.debug_tuple("ArrayMode").field(x).finish(),
            BExpr::Shared(id) => f.debug_tuple("Shared").field(id).finish(),
            BExpr::Kept(x) => f.debug_tuple("Kept").field(x).finish(),
        }
    }
}

impl BExpr {
    /// `l op r`.
    pub fn binary(op: BinaryOp, l: BExpr, r: BExpr) -> BExpr {
        BExpr::Binary(op, Box::new([l, r]))
    }

    /// A deep copy with fresh text and array allocations.
    pub fn detached(&self) -> BExpr {
        match self {
            BExpr::Const(v) => BExpr::Const(v.detached()),
            BExpr::Unary(op, x) => BExpr::Unary(*op, Box::new(x.detached())),
            BExpr::Binary(op, lr) => BExpr::binary(*op, lr[0].detached(), lr[1].detached()),
            BExpr::Call(f, args) => BExpr::Call(f, args.iter().map(BExpr::detached).collect()),
            BExpr::Local(s) => BExpr::Local(*s),
            BExpr::ArrayMode(x) => BExpr::ArrayMode(Box::new(x.detached())),
            BExpr::Shared(id) => BExpr::Shared(*id),
            BExpr::Kept(x) => x.detached(),
        }
    }
}

/// Walks bound formulas for one cell against the grid.
pub struct Eval<'a> {
    grid: &'a Grid,
    /// The cell being calculated (for ROW(), implicit intersection); for
    /// a block array formula, the block's top-left cell.
    pub cell: CellAddr,
    /// The block a block array formula is entered over (for ROW(), COLUMN()).
    block: Option<Area>,
    /// The sheets and names, for references computed from text (INDIRECT).
    scope: Option<&'a Scope>,
    array_mode: bool,
    locals: Vec<Value>,
    /// Set when evaluation read a cell; used to decide what may be folded.
    touched: Cell<bool>,
    /// When folding, cell reads return empty and only mark `touched`.
    folding: bool,
    /// The shared subformulas and this engine's values of them.
    shared: Option<SharedValues<'a>>,
    /// The program's formula cells, when evaluating for an engine.
    formulas: Option<&'a dyn Formulas>,
    /// The engine's random stream (RAND), when evaluating for one.
    random: Option<&'a mut Random>,
    /// LAMBDA calls under way, and made so far (see `functions::lambda`).
    calls: Calls,
    /// Where to record what this evaluation reads, when the engine asks.
    touches: Option<Touches>,
}

/// The LAMBDA calls of one evaluation: how deep they nest now, how many
/// were made, its array work, and the named lambdas called by name from
/// inside themselves, bound once per evaluation (see [`Eval::named_lambda`]).
#[derive(Default)]
struct Calls {
    depth: usize,
    made: u64,
    /// Array elements worked on: by the operators (`+`, `=`, `-x`, ...),
    /// made by functions (their array results) and read from references
    /// into arrays ([`Eval::materialize`]). Counted through `&self`, as
    /// references are read.
    work: std::cell::Cell<u64>,
    named: Vec<(NameId, Arc<BExpr>)>,
}

impl<'a> Eval<'a> {
    /// Evaluates a cell's formula to the value the cell shows: references
    /// are read (implicit intersection for several cells), an array shows
    /// its top-left value, and an empty result reads as 0, as in Excel.
    pub fn eval_cell(&mut self, e: &BExpr) -> Value {
        let v = self.eval(e);
        let v = match self.value(v) {
            Value::Array(a) => a.first().unwrap_or(Value::Error(ErrorKind::Value)),
            v => v,
        };
        if v.is_empty() { Value::Number(0.0) } else { v }
    }

    /// Evaluates a block array formula (see [`Eval::in_block`]) once, to
    /// the value its cells take their elements from: an array, or a
    /// single value every cell shows. References are read in full.
    pub fn eval_block(&mut self, e: &BExpr) -> Value {
        let v = self.eval(e);
        self.array_value(v)
    }

    /// Evaluates an expression; the result may be a reference or an array.
    pub fn eval(&mut self, e: &BExpr) -> Value {
        match e {
            BExpr::Const(v) => {
                if let Some(t) = &mut self.touches {
                    match v {
                        Value::Ref(a) => t.area(a),
                        v if v.ref_array().is_some() => t.everything(),
                        _ => {}
                    }
                }
                v.clone()
            }
            BExpr::Unary(op, x) => {
                if self.over_budget() {
                    return Value::Error(ErrorKind::Num);
                }
                let v = self.operand(x);
                self.charge(&[&v]);
                unary(*op, v)
            }
            BExpr::Binary(BinaryOp::Range, lr) => {
                let (l, r) = (self.eval(&lr[0]), self.eval(&lr[1]));
                match (l, r) {
                    (Value::Ref(a), Value::Ref(b)) => a.union(&b).map_or(Value::Error(ErrorKind::Value), Value::Ref),
                    (Value::Error(e), _) | (_, Value::Error(e)) => Value::Error(e),
                    _ => Value::Error(ErrorKind::Value),
                }
            }
            BExpr::Binary(op @ (BinaryOp::Intersect | BinaryOp::Union), lr) => {
                let (l, r) = (self.eval(&lr[0]), self.eval(&lr[1]));
                if *op == BinaryOp::Intersect { ops::intersect(&l, &r) } else { ops::union(&l, &r) }
            }
            BExpr::Binary(op, lr) => {
                if self.over_budget() {
                    return Value::Error(ErrorKind::Num);
                }
                let l = self.operand(&lr[0]);
                let r = self.operand(&lr[1]);
                if !self.charge(&[&l, &r]) {
                    return Value::Error(ErrorKind::Num);
                }
                binary(*op, l, r)
            }
            BExpr::Call(f, args) => {
                if self.over_budget() {
                    return Value::Error(ErrorKind::Num);
                }
                let v = (f.eval)(self, args);
                match self.charge(&[&v]) {
                    true => v,
                    false => Value::Error(ErrorKind::Num),
                }
            }
            BExpr::Local(slot) => self.locals.get(*slot).cloned().unwrap_or(Value::Error(ErrorKind::Name)),
            BExpr::ArrayMode(x) => self.eval_array(x),
            BExpr::Shared(id) => self.eval_shared(*id),
            BExpr::Kept(x) => self.eval(x),
        }
    }

    /// A shared subformula's value: the one held, or evaluated and held
    /// (in array mode: what is shared gives the same in either mode).
    fn eval_shared(&mut self, id: SharedId) -> Value {
        // Only an engine evaluates a program's formulas, and it always gives
        // its values; formulas bound elsewhere (`eval`, INDIRECT) hold no
        // shared node.
        let Some(shared) = &self.shared else { return Value::Error(ErrorKind::Value) };
        let i = id.index();
        if let Some(v) = &shared.values[i] {
            let v = v.clone();
            if let Some(t) = &mut self.touches {
                t.bits(shared.read_by(i));
            }
            return v;
        }
        // Evaluated with a record of its own when the engine follows what
        // each evaluation read; the caller then read what it read.
        let exprs = shared.exprs;
        let outer = std::mem::replace(&mut self.touches, shared.touched.as_ref().map(|_| Touches::default()));
        let v = self.eval_array(&exprs[i]);
        let own = std::mem::replace(&mut self.touches, outer);
        if let Some(shared) = &mut self.shared {
            shared.values[i] = Some(v.clone());
            if let (Some(t), Some(own)) = (shared.touched.as_deref_mut(), own) {
                t[i] = if shared.narrow[i] { own } else { Touches(shared.bits[i]) };
            }
            if let Some(t) = &mut self.touches {
                t.bits(shared.read_by(i));
            }
        }
        v
    }

    /// An operator's operand: evaluated and read as a value. A constant
    /// and a one-cell reference (the most common operands) are read
    /// directly.
    fn operand(&mut self, e: &BExpr) -> Value {
        match e {
            BExpr::Const(Value::Ref(a)) if a.is_cell() && !self.folding => {
                if let Some(t) = &mut self.touches {
                    t.area(a);
                }
                self.grid.get(a.top_left()).clone()
            }
            BExpr::Const(v) if !matches!(v, Value::Ref(_)) && v.ref_array().is_none() => v.clone(),
            e => {
                let v = self.eval(e);
                self.value(v)
            }
        }
    }

    /// Evaluates an expression and reads it as a value ([`Eval::value`]).
    pub fn read(&mut self, e: &BExpr) -> Value {
        let v = self.eval(e);
        self.value(v)
    }

    /// Evaluates an expression as an array formula, whatever the mode (for
    /// arguments Excel always evaluates as arrays, such as SUMPRODUCT's).
    pub fn eval_array(&mut self, e: &BExpr) -> Value {
        let outer = std::mem::replace(&mut self.array_mode, true);
        let v = self.eval(e);
        self.array_mode = outer;
        v
    }

    /// Starts a LAMBDA call: false (and nothing started) when `depth`
    /// calls are under way already or `budget` calls were made.
    pub fn enter_call(&mut self, depth: usize, budget: u64) -> bool {
        if self.calls.depth >= depth || self.calls.made >= budget {
            return false;
        }
        self.calls.depth += 1;
        self.calls.made += 1;
        true
    }

    /// Counts an operator's work on its operands (or a function's on its
    /// result): the elements of the largest array among them. False once
    /// this evaluation has done more than [`MAX_WORK`] (the operator or
    /// function, and every one after it, gives #NUM! without evaluating
    /// its operands).
    fn charge(&self, operands: &[&Value]) -> bool {
        let n = operands.iter().map(|v| if let Value::Array(a) = v { a.len() as u64 } else { 0 }).max().unwrap_or(0);
        self.charge_elements(n)
    }

    /// Counts `n` elements of work; false once past [`MAX_WORK`].
    pub(crate) fn charge_elements(&self, n: u64) -> bool {
        let work = self.calls.work.get().saturating_add(n);
        self.calls.work.set(work);
        work <= MAX_WORK
    }

    /// Whether this evaluation has done more than [`MAX_WORK`].
    pub(crate) fn over_budget(&self) -> bool {
        self.calls.work.get() > MAX_WORK
    }

    /// Ends a call started by [`Eval::enter_call`].
    pub fn leave_call(&mut self) {
        self.calls.depth = self.calls.depth.saturating_sub(1);
    }

    /// The LAMBDA a workbook name holds, bound for the calculating cell
    /// (once per evaluation): how a named lambda calls itself, or a name
    /// that calls it (recursion is a call at run time, not an endless
    /// inlining). `None` without the workbook's names, or while folding.
    pub fn named_lambda(&mut self, id: NameId) -> Option<Arc<BExpr>> {
        if let Some((_, e)) = self.calls.named.iter().find(|(i, _)| *i == id) {
            return Some(e.clone());
        }
        let scope = self.scope()?;
        if self.folding || id.index() >= scope.names.len() {
            return None;
        }
        let e = Arc::new(bind::Binder::new(scope, self.cell).bind_name(id));
        self.calls.named.push((id, e.clone()));
        Some(e)
    }

    /// The LET and LAMBDA variables in `slots`, taken out (empty where never set).
    pub fn take_locals(&mut self, slots: std::ops::Range<usize>) -> Vec<Value> {
        if self.locals.len() < slots.end {
            self.locals.resize(slots.end, Value::Empty);
        }
        self.locals[slots].iter_mut().map(std::mem::take).collect()
    }

    /// Puts back variables taken by [`Eval::take_locals`] from slot `start` on.
    pub fn put_locals(&mut self, start: usize, saved: Vec<Value>) {
        for (i, v) in saved.into_iter().enumerate() {
            self.set_local(start + i, v);
        }
    }

    /// Sets a LET variable.
    pub fn set_local(&mut self, slot: usize, v: Value) {
        if self.locals.len() <= slot {
            self.locals.resize(slot + 1, Value::Empty);
        }
        self.locals[slot] = v;
    }
}
