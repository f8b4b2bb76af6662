//! Dynamic reads (`Paths::reads`): for each formula, what its last
//! evaluation read, as the bits of `eval::touches`. A formula whose tree
//! reads only through its own references (`FormulaCell::narrow`) depends
//! on nothing else until it is evaluated again, so a change in an area it
//! did not read leaves it clean: the Ellis valid-values cell of a solved
//! Sudoku cell reads the state and that cell, not the row, column and box
//! counts behind its IF.
//!
//! A formula is taken to have read everything until it is first
//! evaluated, after its value was set from outside (`Engine::restore`),
//! after an edit (`Touched::forget`), and always when it is not narrow.
//! Dirty marking asks [`Touched::read`] for each reader of a changed
//! area; nothing else changes, so every path gives the same values with
//! it on or off (the property tests show it).

use crate::eval::Touches;
use crate::ids::FormulaId;

/// What each formula's last evaluation read.
#[derive(Clone, Debug)]
pub(super) struct Touched(Vec<Touches>);

impl Touched {
    /// `cells` formulas, each taken to read everything.
    pub(super) fn new(cells: usize) -> Touched {
        Touched(vec![Touches::ALL; cells])
    }

    /// Every formula taken to read everything again.
    pub(super) fn forget(&mut self) {
        self.0.iter_mut().for_each(|t| *t = Touches::ALL);
    }

    /// Formula `f` taken to read everything again.
    pub(super) fn forget_one(&mut self, f: FormulaId) {
        self.0[f.index()] = Touches::ALL;
    }

    /// Notes what the evaluation of `f` just made read.
    #[inline(always)]
    pub(super) fn note(&mut self, f: FormulaId, t: Touches) {
        self.0[f.index()] = t;
    }

    /// Whether `r`'s last evaluation may have read the area whose bit
    /// ([`touches::bit`](crate::eval::touches::bit)) is `bit`.
    #[inline(always)]
    pub(super) fn read(&self, r: FormulaId, bit: u64) -> bool {
        self.0[r.index()].0 & bit != 0
    }
}
