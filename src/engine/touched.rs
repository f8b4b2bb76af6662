//! Dynamic reads (`Paths::reads`): for each formula, what its last
//! evaluation read, as the bits of `eval::touches`, and likewise for each
//! shared subformula's held value, which a change it did not read keeps. A formula whose tree
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
use crate::ids::{FormulaId, SharedId};

/// What each formula's last evaluation read, and what each shared
/// subformula's held value read (filled by the evaluator as it evaluates
/// one: `eval::SharedValues::touched`).
#[derive(Clone, Debug)]
pub(super) struct Touched {
    cells: Vec<Touches>,
    pub(super) shared: Vec<Touches>,
}

impl Touched {
    /// `cells` formulas and `shared` shared subformulas, each taken to
    /// read everything.
    pub(super) fn new(cells: usize, shared: usize) -> Touched {
        Touched { cells: vec![Touches::ALL; cells], shared: vec![Touches::ALL; shared] }
    }

    /// Everything taken to read everything again.
    pub(super) fn forget(&mut self) {
        self.cells.iter_mut().chain(&mut self.shared).for_each(|t| *t = Touches::ALL);
    }

    /// What changed since `before` (this record's, earlier): each entry
    /// that changed, by position (the formulas', then the shared
    /// subformulas'), as it was then and is now.
    pub(super) fn changes(&self, before: &Touched) -> Vec<(u32, Touches, Touches)> {
        let (now, then) = (self.cells.iter().chain(&self.shared), before.cells.iter().chain(&before.shared));
        (now.zip(then).enumerate())
            .filter(|(_, (now, then))| now != then)
            .map(|(i, (now, then))| (i as u32, *then, *now))
            .collect()
    }

    /// Puts back the entries of `changes` as they were before them
    /// (`after` false) or after them.
    pub(super) fn put_back(&mut self, changes: &[(u32, Touches, Touches)], after: bool) {
        let cells = self.cells.len();
        for &(i, then, now) in changes {
            let i = i as usize;
            let entry = if i < cells { &mut self.cells[i] } else { &mut self.shared[i - cells] };
            *entry = if after { now } else { then };
        }
    }

    /// Formula `f` taken to read everything again.
    pub(super) fn forget_one(&mut self, f: FormulaId) {
        self.cells[f.index()] = Touches::ALL;
    }

    /// Notes what the evaluation of `f` just made read.
    #[inline(always)]
    pub(super) fn note(&mut self, f: FormulaId, t: Touches) {
        self.cells[f.index()] = t;
    }

    /// Whether `r`'s last evaluation may have read the area whose bit
    /// ([`touches::bit`](crate::eval::touches::bit)) is `bit`.
    #[inline(always)]
    pub(super) fn read(&self, r: FormulaId, bit: u64) -> bool {
        self.cells[r.index()].0 & bit != 0
    }

    /// Whether the held value of shared subformula `s` may have read the
    /// area whose bit is `bit`.
    #[inline(always)]
    pub(super) fn shared_read(&self, s: SharedId, bit: u64) -> bool {
        self.shared[s.index()].0 & bit != 0
    }
}
