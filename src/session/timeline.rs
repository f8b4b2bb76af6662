//! A session's timeline: what a notebook, a web page or a stepper goes
//! forward and back through. Each entry is one thing the user did: an
//! iteration stepped or a recalculation (its [`Delta`]: the cells it
//! changed and the formulas waiting before and after), constants typed
//! (recorded like a step), or an edit of formulas or names (the session as
//! it was, [`Undo`]). [`Timeline::back`] undoes the last entry and
//! [`Timeline::forward`] replays it, so values, dirty flags and formulas
//! are exactly as they were each time; anything new done after going back
//! drops the entries ahead. The changed cells the entries hold are capped
//! ([`MAX_TIMELINE_CELLS`], the oldest entries dropped first), and so are
//! the edits kept ([`MAX_TIMELINE_EDITS`]: each holds a copy of the
//! engine's values).

use super::{Session, Undo};
use crate::address::CellAddr;
use crate::engine::{Change, Delta, Recorder, Report};
use crate::error::Error;
use crate::value::Value;
use std::collections::VecDeque;

/// Changed cells the timeline's steps hold at most (16 MiB of changes or so).
pub const MAX_TIMELINE_CELLS: usize = 1 << 20;
/// Edits the timeline holds at most.
pub const MAX_TIMELINE_EDITS: usize = 64;

enum Entry {
    Step(Delta),
    /// Boxed: an engine is far larger than a delta's vectors.
    Edit(Box<Undo>),
}

/// The timeline of one session (see the module's text).
#[derive(Default)]
pub struct Timeline {
    /// Done, oldest first; the last is undone by `back`.
    done: VecDeque<Entry>,
    /// Undone, the next to replay last.
    undone: Vec<Entry>,
    /// Changed cells held by the steps of `done`.
    cells: usize,
}

impl Timeline {
    pub fn new() -> Timeline {
        Timeline::default()
    }

    /// One iteration (a pass over the dirty cells), recorded; returns its
    /// report and every cell it changed, with the old and new values.
    pub fn step(&mut self, s: &mut Session) -> (Report, &[Change]) {
        self.run(s, true)
    }

    /// A recalculation to the end (convergence, the cap, an oscillation),
    /// recorded as one entry.
    pub fn recalc(&mut self, s: &mut Session) -> (Report, &[Change]) {
        self.run(s, false)
    }

    fn run(&mut self, s: &mut Session, one: bool) -> (Report, &[Change]) {
        let engine = s.engine_mut();
        let mut recorder = Recorder::start(engine);
        let report = match one {
            true => engine.step_with(&mut recorder),
            false => engine.recalc_with(&mut recorder),
        };
        let delta = recorder.finish(engine);
        self.push(Entry::Step(delta));
        (report, self.last_changes())
    }

    /// Sets cells that hold no formula to constants, recorded as one entry
    /// (a cell that refuses refuses them all: none is set).
    pub fn set(&mut self, s: &mut Session, cells: &[(CellAddr, Value)]) -> Result<&[Change], Error> {
        let engine = s.engine_mut();
        let mut recorder = Recorder::start(engine);
        if let Err(e) = cells.iter().try_for_each(|(c, v)| recorder.set(engine, *c, v.clone())) {
            engine.undo(&recorder.finish(engine));
            return Err(e);
        }
        let delta = recorder.finish(engine);
        self.push(Entry::Step(delta));
        Ok(self.last_changes())
    }

    /// Sets `cells` (an input's, see [`Session::input_cells`]) and runs the
    /// workbook's reset protocol as [`Session::reset`] does (its `set`
    /// cells, a recalculation, its `then` cells), recorded as one entry
    /// that `back` undoes at once. Returns the protocol's recalculation
    /// (None without a protocol: only the cells are set) and every cell it
    /// changed. A cell that refuses leaves everything as it was.
    pub fn reset(
        &mut self,
        s: &mut Session,
        cells: &[(CellAddr, Value)],
    ) -> Result<(Option<Report>, &[Change]), Error> {
        let protocol = s.workbook().reset.clone();
        let engine = s.engine_mut();
        let mut recorder = Recorder::start(engine);
        let run = (|| {
            cells.iter().try_for_each(|(c, v)| recorder.set(engine, *c, v.clone()))?;
            let Some(protocol) = &protocol else { return Ok(None) };
            protocol.set.iter().try_for_each(|(c, v)| recorder.set(engine, *c, v.clone()))?;
            let report = engine.recalc_with(&mut recorder);
            protocol.then.iter().try_for_each(|(c, v)| recorder.set(engine, *c, v.clone()))?;
            Ok(Some(report))
        })();
        match run {
            Ok(report) => {
                let delta = recorder.finish(engine);
                self.push(Entry::Step(delta));
                Ok((report, self.last_changes()))
            }
            Err(e) => {
                engine.undo(&recorder.finish(engine));
                Err(e)
            }
        }
    }

    /// An edit of formulas, names or cells holding formulas (one of
    /// [`Session`]'s edits, given as `edit`), recorded; an edit that fails
    /// records nothing.
    pub fn edit(
        &mut self,
        s: &mut Session,
        edit: impl FnOnce(&mut Session) -> Result<Undo, Error>,
    ) -> Result<(), Error> {
        let undo = edit(s)?;
        self.push(Entry::Edit(Box::new(undo)));
        Ok(())
    }

    /// Undoes the last entry; false when there is none.
    pub fn back(&mut self, s: &mut Session) -> bool {
        let Some(entry) = self.done.pop_back() else { return false };
        let entry = match entry {
            Entry::Step(delta) => {
                self.cells -= delta.len();
                s.engine_mut().undo(&delta);
                Entry::Step(delta)
            }
            Entry::Edit(undo) => Entry::Edit(Box::new(s.undo_edit(*undo))),
        };
        self.undone.push(entry);
        true
    }

    /// Replays the last entry undone; false when there is none.
    pub fn forward(&mut self, s: &mut Session) -> bool {
        let Some(entry) = self.undone.pop() else { return false };
        let entry = match entry {
            Entry::Step(delta) => {
                s.engine_mut().redo(&delta);
                Entry::Step(delta)
            }
            Entry::Edit(redo) => Entry::Edit(Box::new(s.undo_edit(*redo))),
        };
        self.keep(entry);
        true
    }

    /// How many entries `back` can undo, and `forward` replay.
    pub fn len(&self) -> (usize, usize) {
        (self.done.len(), self.undone.len())
    }

    pub fn is_empty(&self) -> bool {
        self.done.is_empty() && self.undone.is_empty()
    }

    /// A new entry: what was undone is dropped.
    fn push(&mut self, entry: Entry) {
        self.undone.clear();
        self.keep(entry);
    }

    /// Keeps `entry` last, dropping the oldest entries past the caps.
    fn keep(&mut self, entry: Entry) {
        if let Entry::Step(d) = &entry {
            self.cells += d.len();
        }
        self.done.push_back(entry);
        let edits = |d: &VecDeque<Entry>| d.iter().filter(|e| matches!(e, Entry::Edit(_))).count();
        while self.done.len() > 1 && (self.cells > MAX_TIMELINE_CELLS || edits(&self.done) > MAX_TIMELINE_EDITS) {
            if let Some(Entry::Step(d)) = self.done.pop_front() {
                self.cells -= d.len();
            }
        }
    }

    fn last_changes(&self) -> &[Change] {
        match self.done.back() {
            Some(Entry::Step(d)) => &d.changes,
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reset_is_one_entry_that_goes_back_and_forth_exactly() {
        let mut s = Session::load("workbooks/sudoku.ron".as_ref()).expect("it loads");
        let puzzle = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let before = s.clone();
        let mut expected = s.clone();
        expected.set_input("puzzle", puzzle).expect("81 symbols");
        let run = expected.reset().expect("a protocol").expect("it runs");
        let mut t = Timeline::new();
        let cells = s.input_cells("puzzle", puzzle).expect("81 symbols");
        let (report, changes) = t.reset(&mut s, &cells).expect("it resets");
        assert_eq!(report, Some(run.report));
        assert!(!changes.is_empty());
        assert!(s.engine().same_state(expected.engine()), "as Session::reset leaves it");
        assert!(t.back(&mut s));
        assert!(s.engine().same_state(before.engine()), "back to before the reset in one step");
        assert!(t.forward(&mut s));
        assert!(s.engine().same_state(expected.engine()));
        // A cell that refuses (a formula cell) sets nothing and records nothing.
        let f18 = s.area("Main!F18").expect("a cell").top_left();
        let after = s.clone();
        assert!(t.reset(&mut s, &[(cells[0].0, Value::Number(1.0)), (f18, Value::Number(1.0))]).is_err());
        assert!(s.engine().same_state(after.engine()));
        assert_eq!(t.len(), (1, 0));
    }
}
