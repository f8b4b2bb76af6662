//! Watching a recalculation. [`Engine::recalc_with`](super::Engine::recalc_with)
//! is the one loop that makes passes; an [`Observer`] is told of every value
//! a formula cell takes that differs from the one it had (cell, old, new), as
//! it is written, and of every finished pass, and may stop the run after any
//! pass. `recalc`, single steps, tracing, the stepping views and batch runs
//! are all observers of that loop; none of them counts iterations itself.
//!
//! [`ChangeLog`] keeps, per cell, the value before the run and the value
//! after it, in calculation order; [`EachPass`] hands a function what each
//! pass changed, as a [`Delta`] that can also undo it.

use super::Engine;
use super::undo::{Delta, Recorder};
use crate::address::CellAddr;
use crate::value::Value;
use std::collections::HashMap;

/// What one finished pass did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassInfo {
    /// Passes made in this run, this one included (from 1).
    pub pass: u32,
    /// The iteration this pass was, counting from 1 in this run; 0 when the
    /// workbook has no cycle to iterate (a single pass calculates it).
    pub iteration: u32,
    /// The largest change of a cycle cell in this pass (0 without cycles).
    pub max_change: f64,
    /// Whether every cycle cell changed by less than `max_change`.
    pub converged: bool,
    /// `Some(p)` when this pass left the values of the iteration p ≥ 2
    /// before it: the cycles oscillate and the run stops here.
    pub period: Option<u32>,
    /// Formula evaluations made in this pass.
    pub evaluated: u64,
}

/// Whether the run goes on after a pass. The engine stops by itself when
/// the cycles converged or oscillate or `max_iterations` passes were made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// Told of what a recalculation does, as it does it.
pub trait Observer {
    /// A formula cell is about to be evaluated.
    fn evaluate(&mut self, _cell: CellAddr) {}

    /// A formula cell's value changed from `old` to `new` (called as the new
    /// value is stored; never called when the value stays the same).
    fn write(&mut self, _cell: CellAddr, _old: &Value, _new: &Value) {}

    /// A pass finished; `engine` shows its result. Returning [`Flow::Stop`]
    /// ends the run after it.
    fn pass(&mut self, _engine: &Engine, _pass: &PassInfo) -> Flow {
        Flow::Continue
    }
}

/// Observes nothing: a plain recalculation.
impl Observer for () {}

/// Lists the cells evaluated, in evaluation order.
impl Observer for Vec<CellAddr> {
    fn evaluate(&mut self, cell: CellAddr) {
        self.push(cell);
    }
}

/// Stops after the first pass: one iteration, as Excel's F9 with maximum
/// iterations 1. Passes every event on to the wrapped observer.
pub struct OnePass<'o, O: Observer>(pub &'o mut O);

impl<O: Observer> Observer for OnePass<'_, O> {
    fn evaluate(&mut self, cell: CellAddr) {
        self.0.evaluate(cell);
    }

    fn write(&mut self, cell: CellAddr, old: &Value, new: &Value) {
        self.0.write(cell, old, new);
    }

    fn pass(&mut self, engine: &Engine, pass: &PassInfo) -> Flow {
        self.0.pass(engine, pass);
        Flow::Stop
    }
}

/// One cell's change over a run: its value before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub cell: CellAddr,
    pub old: Value,
    pub new: Value,
}

impl Change {
    /// True when the cell went from showing something to blank.
    pub fn blanked(&self) -> bool {
        !self.old.is_blank() && self.new.is_blank()
    }

    /// True when the cell went from blank to showing something.
    pub fn filled(&self) -> bool {
        self.old.is_blank() && !self.new.is_blank()
    }
}

/// Collects the changes of a run (or of several), one per cell: the first
/// old value and the last new one; a cell that came back to where it
/// started is dropped. [`ChangeLog::take`] gives them in calculation order.
#[derive(Debug, Default)]
pub struct ChangeLog {
    changes: Vec<Change>,
    index: HashMap<CellAddr, usize>,
}

impl ChangeLog {
    /// Records a change made outside a recalculation (a cell set by hand).
    pub fn record(&mut self, cell: CellAddr, old: &Value, new: &Value) {
        match self.index.get(&cell) {
            Some(&i) => self.changes[i].new = new.clone(),
            None => {
                self.index.insert(cell, self.changes.len());
                self.changes.push(Change { cell, old: old.clone(), new: new.clone() });
            }
        }
    }

    /// The changes so far, in calculation order (sheet, row, column), and
    /// an empty log.
    pub fn take(&mut self) -> Vec<Change> {
        self.index.clear();
        let mut changes = std::mem::take(&mut self.changes);
        changes.retain(|c| c.old != c.new);
        changes.sort_by_key(|c| c.cell);
        changes
    }
}

impl Observer for ChangeLog {
    fn write(&mut self, cell: CellAddr, old: &Value, new: &Value) {
        self.record(cell, old, new);
    }
}

/// Calls `f(engine, pass, delta)` after every pass, with what that pass
/// changed; `f` decides whether the run goes on.
pub struct EachPass<F> {
    recorder: Recorder,
    f: F,
}

impl<F: FnMut(&Engine, &PassInfo, Delta) -> Flow> EachPass<F> {
    /// Starts observing from `engine`'s present state.
    pub fn new(engine: &Engine, f: F) -> EachPass<F> {
        EachPass { recorder: Recorder::start(engine), f }
    }
}

impl<F: FnMut(&Engine, &PassInfo, Delta) -> Flow> Observer for EachPass<F> {
    fn write(&mut self, cell: CellAddr, old: &Value, new: &Value) {
        self.recorder.write(cell, old, new);
    }

    fn pass(&mut self, engine: &Engine, pass: &PassInfo) -> Flow {
        let delta = self.recorder.cut(engine);
        (self.f)(engine, pass, delta)
    }
}
