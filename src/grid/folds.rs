//! Folds the aggregates remember over growing ranges, so that cumulative
//! sums (`SUM($A$1:A1)` filled down) cost rows, not rows². A row-major
//! left fold over an area that grows by whole rows at the bottom is the
//! fold of the smaller area continued over the new rows: the same bits,
//! the same first error. Each sheet remembers, for a few areas (top row,
//! columns and how they are folded, [`Fold`]), the result down to a row
//! ([`Folded`]), and a later fold of the same area to that row or lower
//! starts from it (`functions::stats::reduce`). COUNTIF's count of the
//! cells meeting one criterion is such a fold too, remembered per
//! criterion ([`How::CountIf`]).
//!
//! A remembered fold is always the fold of the cells as they are now:
//! every write to a cell it covers forgets it ([`Folds::wrote`], from the
//! grid's one store), whether the write comes from a recalculation, an
//! edit, an undo or an iteration. Writes below its last row leave it (the
//! next fold reads them as new rows). Folds are remembered only beside
//! the block summaries, so a sheet no aggregate reads in blocks pays
//! nothing per write; one that does pays a check of an empty list.

use crate::value::{ErrorKind, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// How many folds a sheet remembers (each write into the sheet checks
/// them all). When full, a new fold takes the place of the oldest of its
/// own kind (a count per criterion or a sum or count), or of the oldest
/// if there is none: a running COUNTIF asked with a new criterion each
/// row does not push out the cumulative sums beside it.
pub const KEPT: usize = 16;

/// A fold's value: a sum and a count, or the first error met.
pub type Reduced = Result<(f64, u64), ErrorKind>;

/// What is folded: columns `c0..=c1` from row `r0` down, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    pub r0: u32,
    pub c0: u32,
    pub c1: u32,
    pub how: How,
}

/// How the cells are folded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum How {
    /// SUM's left fold of the numbers, started from a sum (its bits) and
    /// a count of numbers; the first error ends it.
    Sum { from: u64, numbers: u64 },
    /// COUNT's count of the numbers (the sum is 0).
    Count,
    /// COUNTIF's count of the cells meeting the criterion (the sum is 0).
    CountIf(Wanted),
}

/// A criterion's value, as the key of COUNTIF's fold (and of what a
/// grouped COUNTIFS remembers a criterion met): numbers by their bits (two
/// values give the same count when they are the same value).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wanted {
    Empty,
    Number(u64),
    Text(Arc<str>),
    Bool(bool),
    Error(ErrorKind),
}

impl Wanted {
    /// The key of a criterion value; none for arrays and references.
    pub fn of(v: &Value) -> Option<Wanted> {
        Some(match v {
            Value::Empty => Wanted::Empty,
            Value::Number(n) => Wanted::Number(n.to_bits()),
            Value::Text(s) => Wanted::Text(s.clone()),
            Value::Bool(b) => Wanted::Bool(*b),
            Value::Error(e) => Wanted::Error(*e),
            Value::Array(_) | Value::Ref(_) => return None,
        })
    }
}

impl How {
    fn counts_if(&self) -> bool {
        matches!(self, How::CountIf(_))
    }
}

/// A fold's value down to row `r1` (the last stored row it read).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Folded {
    pub r1: u32,
    pub value: Reduced,
}

/// The folds one sheet remembers, oldest first. Written while the grid is
/// only read (a formula being evaluated), hence the lock; the grid's
/// writes reach them without locking, and while none is remembered
/// (`any` false) look at one flag.
#[derive(Debug, Default)]
pub struct Folds {
    list: Mutex<Vec<(Fold, Folded)>>,
    any: AtomicBool,
}

impl Folds {
    fn lock(&self) -> MutexGuard<'_, Vec<(Fold, Folded)>> {
        // A panic cannot leave the list half-changed: it is never left
        // inconsistent between two statements.
        self.list.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn list(&mut self) -> &mut Vec<(Fold, Folded)> {
        self.list.get_mut().unwrap_or_else(PoisonError::into_inner)
    }

    /// The fold remembered for `f`, if any.
    pub fn get(&self, f: &Fold) -> Option<Folded> {
        self.lock().iter().find(|(k, _)| k == f).map(|(_, d)| *d)
    }

    /// Remembers `d` for `f`, in place of what was remembered for it.
    pub fn put(&self, f: Fold, d: Folded) {
        let mut list = self.lock();
        match list.iter_mut().find(|(k, _)| *k == f) {
            Some(entry) => entry.1 = d,
            None => {
                if list.len() == KEPT {
                    let kind = f.how.counts_if();
                    let oldest = list.iter().position(|(k, _)| k.how.counts_if() == kind).unwrap_or(0);
                    list.remove(oldest);
                }
                list.push((f, d));
            }
        }
        // Set while the lock is held: a writer (with `&mut self`) sees it.
        self.any.store(true, Ordering::Relaxed);
    }

    /// The cell at `row`, `col` changed: forgets every fold reading it.
    #[inline(always)]
    pub fn wrote(&mut self, row: u32, col: u32) {
        if *self.any.get_mut() {
            let list = self.list();
            forget(list, row, col);
            *self.any.get_mut() = !self.list().is_empty();
        }
    }

    /// How many folds are remembered.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cold]
#[inline(never)]
fn forget(list: &mut Vec<(Fold, Folded)>, row: u32, col: u32) {
    list.retain(|(f, d)| !(f.c0 <= col && col <= f.c1 && f.r0 <= row && row <= d.r1));
}

impl Clone for Folds {
    fn clone(&self) -> Self {
        let list = self.lock().clone();
        Folds { any: AtomicBool::new(!list.is_empty()), list: Mutex::new(list) }
    }

    fn clone_from(&mut self, source: &Self) {
        let theirs = source.lock();
        self.list().clone_from(&theirs);
        *self.any.get_mut() = !theirs.is_empty();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum(r0: u32, c0: u32, c1: u32) -> Fold {
        Fold { r0, c0, c1, how: How::Sum { from: 0, numbers: 0 } }
    }

    #[test]
    fn writes_inside_forget_and_writes_outside_keep() {
        let mut folds = Folds::default();
        folds.put(sum(0, 0, 1), Folded { r1: 99, value: Ok((5.0, 3)) });
        folds.put(Fold { how: How::Count, ..sum(0, 0, 1) }, Folded { r1: 99, value: Ok((0.0, 3)) });
        folds.put(sum(10, 3, 3), Folded { r1: 200, value: Err(ErrorKind::NA) });
        for (row, col) in [(100, 0), (100, 1), (5, 2), (9, 3), (201, 3), (0, 4)] {
            folds.wrote(row, col);
        }
        assert_eq!(folds.len(), 3, "no write was inside");
        assert_eq!(folds.get(&sum(10, 3, 3)).map(|d| d.value), Some(Err(ErrorKind::NA)));
        folds.wrote(200, 3);
        assert_eq!(folds.get(&sum(10, 3, 3)), None, "the last row is inside");
        folds.wrote(0, 1);
        assert!(folds.is_empty(), "the top row is inside both the sum and the count");
    }

    #[test]
    fn a_fold_is_replaced_and_the_oldest_forgotten() {
        let folds = Folds::default();
        folds.put(sum(0, 0, 0), Folded { r1: 70, value: Ok((1.0, 1)) });
        folds.put(sum(0, 0, 0), Folded { r1: 80, value: Ok((2.0, 2)) });
        assert_eq!((folds.len(), folds.get(&sum(0, 0, 0)).map(|d| d.r1)), (1, Some(80)));
        for c in 1..=KEPT as u32 {
            folds.put(sum(0, c, c), Folded { r1: 70, value: Ok((0.0, 0)) });
        }
        assert_eq!(folds.len(), KEPT);
        assert_eq!(folds.get(&sum(0, 0, 0)), None, "the oldest went first");
        let mut copy = Folds::default();
        copy.clone_from(&folds);
        assert_eq!(copy.get(&sum(0, 5, 5)), folds.get(&sum(0, 5, 5)));
    }

    #[test]
    fn counts_per_criterion_push_out_their_own_kind() {
        let folds = Folds::default();
        let count_if = |c: u32, n: f64| Fold { how: How::CountIf(Wanted::Number(n.to_bits())), ..sum(0, c, c) };
        folds.put(sum(0, 0, 0), Folded { r1: 70, value: Ok((1.0, 1)) });
        for k in 0..KEPT * 2 {
            folds.put(count_if(1, k as f64), Folded { r1: 70, value: Ok((0.0, 1)) });
        }
        assert_eq!(folds.len(), KEPT);
        assert!(folds.get(&sum(0, 0, 0)).is_some(), "the sum stays while counts come and go");
        assert!(folds.get(&count_if(1, (KEPT * 2 - 1) as f64)).is_some());
        assert_eq!(folds.get(&count_if(1, 0.0)), None, "the oldest count went first");
        assert_eq!(folds.get(&count_if(2, 0.0)), None, "another column is another fold");
    }
}
