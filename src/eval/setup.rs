//! How an evaluation is set up: the shared subformulas' values an engine
//! lends it ([`SharedValues`]), and the builder of [`Eval`], which starts
//! bare (a grid and the calculating cell) and is given, as the caller
//! has them, the engine's shared values, the program's formula cells,
//! the random stream, the workbook's sheets and names, a block to
//! calculate over and a record of what it reads. Folding at bind time
//! uses an evaluator that reads no cells.

use super::{BExpr, Calls, Eval, Formulas, Random, Touches};
use crate::address::{Area, CellAddr};
use crate::eval::bind::Scope;
use crate::grid::Grid;
use crate::value::Value;
use std::cell::Cell;

/// The shared subformulas of a program (by [`SharedId`](crate::ids::SharedId)) and the values
/// an engine holds for them: `None` until evaluated, and again once a cell
/// one of them reads has changed.
pub struct SharedValues<'a> {
    pub exprs: &'a [BExpr],
    pub values: &'a mut [Option<Value>],
    /// The [`touches::bit`](super::touches::bit)s of the areas each may read.
    pub bits: &'a [u64],
    /// Whether each reads only through its own references (as
    /// `deps::Reads::narrow`): what an evaluation of it read is then all
    /// its value depends on.
    pub narrow: &'a [bool],
    /// For each count kept across the writes that leave it as it is
    /// (`engine::share::counted`), the bit an evaluation using it records
    /// in place of what it read (it is marked dirty when the count is
    /// forgotten); 0 for the others, and empty when none is kept.
    pub counted: &'a [u64],
    /// What each held value's evaluation read, when the engine follows
    /// dynamic reads (`engine::touched`): filled as each is evaluated.
    pub touched: Option<&'a mut [Touches]>,
}

impl SharedValues<'_> {
    /// What an evaluation using shared subformula `i` reads through it:
    /// what `i` read when its held value was evaluated, or all it may
    /// read; for a kept count, its own bit.
    #[inline(always)]
    pub(super) fn read_by(&self, i: usize) -> u64 {
        if let Some(&b) = self.counted.get(i)
            && b != 0
        {
            return b;
        }
        match &self.touched {
            Some(t) => t[i].0,
            None => self.bits.get(i).copied().unwrap_or(u64::MAX),
        }
    }

    /// The same values, borrowed again (for an evaluator of their own).
    pub fn reborrow(&mut self) -> SharedValues<'_> {
        SharedValues {
            exprs: self.exprs,
            values: &mut *self.values,
            bits: self.bits,
            narrow: self.narrow,
            counted: self.counted,
            touched: self.touched.as_deref_mut(),
        }
    }
}

impl<'a> Eval<'a> {
    pub fn new(grid: &'a Grid, cell: CellAddr) -> Self {
        Eval {
            grid,
            cell,
            block: None,
            scope: None,
            array_mode: false,
            locals: Vec::new(),
            touched: Cell::new(false),
            folding: false,
            shared: None,
            formulas: None,
            random: None,
            calls: Calls::default(),
            touches: None,
        }
    }

    /// The same evaluator reading and filling an engine's values of the
    /// program's shared subformulas.
    pub fn with_shared(self, shared: SharedValues<'a>) -> Self {
        Eval { shared: Some(shared), ..self }
    }

    /// The same evaluator knowing the program's formula cells (which call
    /// SUBTOTAL or AGGREGATE).
    pub fn with_formulas(self, formulas: &'a dyn Formulas) -> Self {
        Eval { formulas: Some(formulas), ..self }
    }

    /// The same evaluator recording what it reads (see [`Eval::touches`]).
    pub fn recording(self) -> Self {
        Eval { touches: Some(Touches::default()), ..self }
    }

    /// What it read so far, when recording.
    pub fn touches(&self) -> Option<Touches> {
        self.touches
    }

    /// The same evaluator drawing random numbers from `random`.
    pub fn with_random(self, random: &'a mut Random) -> Self {
        Eval { random: Some(random), ..self }
    }

    /// Whether the formula of `cell` calls SUBTOTAL or AGGREGATE (never,
    /// when the program's formulas are not known).
    pub fn calls_subtotal(&self, cell: CellAddr) -> bool {
        self.formulas.is_some_and(|f| f.calls_subtotal(cell))
    }

    /// The formula `cell` holds (see [`Formulas::formula_text`]); `None`
    /// without one, or when the program's formulas are not known. Reading
    /// a formula is reading the cell: folding gives up on it.
    pub fn formula_text(&self, cell: CellAddr) -> Option<String> {
        self.touched.set(true);
        self.formulas.and_then(|f| f.formula_text(cell))
    }

    /// A number uniform in [0, 1) from the engine's stream, or from a fresh
    /// unseeded one outside an engine.
    pub fn random(&mut self) -> f64 {
        match &mut self.random {
            Some(r) => r.next_number(),
            None => Random::new(None).next_number(),
        }
    }

    /// The same evaluator calculating the array formula entered over
    /// `block` (when given): array mode, ROW() and COLUMN() of the block.
    pub fn in_block(self, block: Option<Area>) -> Self {
        match block {
            Some(b) => Eval { cell: b.top_left(), block, array_mode: true, ..self },
            None => self,
        }
    }

    /// The same evaluator knowing the workbook's sheets and names, so that
    /// references written as text (INDIRECT) can be read.
    pub fn with_scope(self, scope: &'a Scope) -> Self {
        Eval { scope: Some(scope), ..self }
    }

    /// The sheets and names, when known (see [`Eval::with_scope`]); never
    /// when folding, which gives up on what asks for them.
    pub fn scope(&self) -> Option<&'a Scope> {
        if self.folding {
            self.touched.set(true);
        }
        self.scope
    }

    /// What the formula is entered in: the calculating cell, or the block
    /// of a block array formula.
    pub fn caller(&self) -> Area {
        self.block.unwrap_or(Area::cell(self.cell))
    }

    /// An evaluator that reads no cells, for folding at bind time.
    pub(crate) fn folding(grid: &'a Grid, cell: CellAddr, array_mode: bool) -> Self {
        Eval { folding: true, array_mode, ..Eval::new(grid, cell) }
    }

    pub(crate) fn touched(&self) -> bool {
        self.touched.get()
    }

    /// True inside a name's formula (array evaluation).
    pub fn array_mode(&self) -> bool {
        self.array_mode
    }
}
