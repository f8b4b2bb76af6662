//! Going back and forth between recorded states without keeping copies of
//! the engine: a [`Delta`] is what one step (an iteration, an edit) changed,
//! the cells' old and new values plus the formulas that were waiting to be
//! recalculated before and after it. [`Engine::undo`] puts the values and
//! dirty flags back as they were before the step, [`Engine::redo`] as they
//! were after it, and what the formulas evaluated in it had read (dynamic
//! reads), so a later step from either state evaluates exactly what it
//! would have. Its size is proportional to what the step changed.

use super::Engine;
use super::observe::{Change, ChangeLog, Observer};
use super::touched::Touched;
use crate::eval::Touches;
use crate::grid::spills::Spills;
use crate::ids::FormulaId;
use crate::value::Value;
use std::sync::Arc;

/// One recorded step of an engine.
#[derive(Clone, Debug, Default)]
pub struct Delta {
    /// Every cell whose value changed, formulas and constants, in
    /// calculation order.
    pub changes: Vec<Change>,
    dirty_before: Vec<FormulaId>,
    dirty_after: Vec<FormulaId>,
    /// What the dynamic-array formulas spilled before and after it (empty
    /// in a workbook without them).
    spills_before: Arc<Spills>,
    spills_after: Arc<Spills>,
    /// What the formulas and shared subformulas evaluated in it had read
    /// (dynamic reads) before it and after: a formula skipped by a later
    /// step must be skipped for what it read in the state put back.
    touched: Vec<(u32, Touches, Touches)>,
    /// The length of the record they were taken from (`usize::MAX`: the
    /// program changed during the step; 0, the default delta: none).
    touched_len: usize,
}

/// Records a step: the cells set by hand ([`Recorder::set`]) and what the
/// recalculations observed through it changed.
pub struct Recorder {
    log: ChangeLog,
    dirty_before: Vec<FormulaId>,
    spills_before: Arc<Spills>,
    touched_before: Touched,
}

impl Recorder {
    /// Starts recording from the engine's present state.
    pub fn start(engine: &Engine) -> Recorder {
        Recorder {
            log: ChangeLog::default(),
            dirty_before: engine.dirty_list(),
            spills_before: engine.grid.spills_shared(),
            touched_before: engine.touched.clone(),
        }
    }

    /// Sets a cell through the engine, recording the change.
    pub fn set(&mut self, engine: &mut Engine, cell: crate::address::CellAddr, v: Value) -> Result<(), crate::Error> {
        let old = engine.get(cell).clone();
        engine.set(cell, v.clone())?;
        self.log.record(cell, &old, &v);
        Ok(())
    }

    /// The step recorded, ending with the engine's present state.
    pub fn finish(mut self, engine: &Engine) -> Delta {
        self.cut(engine)
    }

    /// The step recorded so far, ending with the engine's present state;
    /// recording goes on from there.
    pub fn cut(&mut self, engine: &Engine) -> Delta {
        let after = engine.dirty_list();
        let before = std::mem::replace(&mut self.dirty_before, after.clone());
        let spills_after = engine.grid.spills_shared();
        let spills_before = std::mem::replace(&mut self.spills_before, spills_after.clone());
        // A step over a change of program puts back nothing of what was read.
        let (touched, touched_len) = match engine.touched.changes(&self.touched_before) {
            Some(changes) => (changes, engine.touched.len()),
            None => (Vec::new(), usize::MAX),
        };
        self.touched_before.clone_from(&engine.touched);
        let changes = self.log.take();
        Delta { changes, dirty_before: before, dirty_after: after, spills_before, spills_after, touched, touched_len }
    }
}

impl Observer for Recorder {
    fn write(&mut self, cell: crate::address::CellAddr, old: &Value, new: &Value) {
        self.log.record(cell, old, new);
    }
}

impl Delta {
    /// How many cells the step changed.
    pub fn len(&self) -> usize {
        self.changes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

impl Engine {
    /// Puts the engine back in the state before `delta` (which must be the
    /// last step recorded on this engine, or one undone in order).
    pub fn undo(&mut self, delta: &Delta) {
        self.put_back(delta.changes.iter().map(|c| (c.cell, &c.old)), &delta.dirty_before);
        self.grid.set_spills(delta.spills_before.clone());
        self.touched.put_back(&delta.touched, delta.touched_len, false);
    }

    /// Replays `delta` on the state before it.
    pub fn redo(&mut self, delta: &Delta) {
        self.put_back(delta.changes.iter().map(|c| (c.cell, &c.new)), &delta.dirty_after);
        self.grid.set_spills(delta.spills_after.clone());
        self.touched.put_back(&delta.touched, delta.touched_len, true);
    }

    fn put_back<'v>(
        &mut self,
        values: impl Iterator<Item = (crate::address::CellAddr, &'v Value)>,
        dirty: &[FormulaId],
    ) {
        for (cell, v) in values {
            self.grid.set(cell, v.clone());
        }
        self.watch.clear();
        // Cells were written without marking: no shared value is kept.
        self.shared.iter_mut().for_each(|v| *v = None);
        self.dirty.iter_mut().for_each(|d| *d = false);
        self.forget_readers();
        for &f in dirty {
            self.dirty[f.index()] = true;
        }
    }

    /// The formulas waiting to be recalculated.
    pub(super) fn dirty_list(&self) -> Vec<FormulaId> {
        (0..self.dirty.len()).filter(|&f| self.dirty[f]).map(FormulaId::at).collect()
    }
}
