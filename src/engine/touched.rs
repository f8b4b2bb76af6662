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
    /// subformulas'), as it was then and is now; none when `before` is a
    /// record of another program (another length).
    pub(super) fn changes(&self, before: &Touched) -> Option<Vec<(u32, Touches, Touches)>> {
        if before.len() != self.len() {
            return None;
        }
        let (now, then) = (self.cells.iter().chain(&self.shared), before.cells.iter().chain(&before.shared));
        let changed = now.zip(then).enumerate().filter(|(_, (now, then))| now != then);
        Some(changed.map(|(i, (now, then))| (i as u32, *then, *now)).collect())
    }

    /// How many entries the record holds (formulas and shared subformulas).
    pub(super) fn len(&self) -> usize {
        self.cells.len() + self.shared.len()
    }

    /// Puts back the entries of `changes`, taken from a record of `len`
    /// entries, as they were before them (`after` false) or after them.
    /// From a record of another program (another length) nothing is put
    /// back: everything is taken to read everything. A `len` of 0 is no
    /// record at all: nothing changes.
    pub(super) fn put_back(&mut self, changes: &[(u32, Touches, Touches)], len: usize, after: bool) {
        if len == 0 {
            return;
        }
        if len != self.len() {
            return self.forget();
        }
        let cells = self.cells.len();
        for &(i, then, now) in changes {
            let i = i as usize;
            let entry = if i < cells { self.cells.get_mut(i) } else { self.shared.get_mut(i - cells) };
            if let Some(entry) = entry {
                *entry = if after { now } else { then };
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A step's changes put the record back as it was before the step and
    /// as it was after; a record of another program forgets everything,
    /// and no record changes nothing.
    #[test]
    fn changes_put_back_before_and_after() {
        let mut t = Touched::new(2, 1);
        let before = t.clone();
        t.note(FormulaId::at(1), Touches(4));
        t.shared[0] = Touches(8);
        let changes = t.changes(&before).expect("the same program");
        assert_eq!(changes.len(), 2);
        let mut u = t.clone();
        u.put_back(&changes, t.len(), false);
        assert_eq!((&u.cells, &u.shared), (&before.cells, &before.shared));
        u.put_back(&changes, t.len(), true);
        assert_eq!((&u.cells, &u.shared), (&t.cells, &t.shared));
        u.put_back(&[], 0, false);
        assert_eq!((&u.cells, &u.shared), (&t.cells, &t.shared));
        let mut other = Touched::new(3, 1);
        other.note(FormulaId::at(0), Touches(2));
        other.put_back(&changes, t.len(), false);
        assert!(other.cells.iter().chain(&other.shared).all(|x| *x == Touches::ALL));
        assert!(Touched::new(3, 1).changes(&before).is_none());
    }
}
