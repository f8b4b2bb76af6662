//! Why a cell changed, step by step. [`explain`] runs a copy of an engine's
//! recalculation pass by pass (the engine's one loop, observed) and returns
//! one formula cell's [`History`]: every step (pass) in which its value
//! changed, from what to what, and the *causes* of each change: the
//! precedent cells (cells inside the areas its bound formula reads) whose
//! value changed between the cell's previous evaluation and the one that
//! changed it. In row-major order that is what was written after the cell
//! was last evaluated (in the previous pass, or earlier in this one) and
//! before this evaluation; in synchronous order, what the previous pass
//! wrote. Nothing is copied per pass: the observer keeps, between two
//! evaluations of the cell, the precedents written since the first (their
//! first old value, last new value and the step of their last change), so
//! the cost is that of the run plus one area test per write.
//!
//! A view may declare a reason area (`reasons:` in the workbook file): a
//! text per cell saying why the cell holds its value, written by the
//! workbook's own formulas (a strategy board's pattern, a single's unit).
//! A change, and each of its causes, carries the text of its reason cell
//! as it stood at the end of the pass the change was made in.
//!
//! A run starts from the engine's state (for a session: after the reset
//! protocol, "step 0"); cells set by hand since its last recalculation are
//! not seen by the loop, so the caller passes them as changes of step 0;
//! [`reset`] runs a session's reset protocol and returns those of its
//! `then` cells:
//!
//! ```
//! use dataflow::explain::{explain, reset};
//! use dataflow::session::Session;
//!
//! let mut s = Session::load("workbooks/sudoku.ron".as_ref()).expect("it loads");
//! let before = reset(&mut s).expect("a reset protocol"); // Main!D27: "reset" -> "solve"
//! let r4 = s.area("Main!R4").expect("a cell").top_left();
//! let history = explain(s.engine(), r4, &before, &s.workbook().views).expect("a formula cell");
//! // The 3 of the given 2 in D16 goes in step 1, when the state turned to "solve".
//! assert_eq!(history.steps[0].step, 1);
//! assert_eq!(history.steps[0].causes[0].cell, s.area("Main!D27").unwrap().top_left());
//! ```

use crate::address::{Area, CellAddr};
use crate::engine::{Change, Engine, Flow, Observer, PassInfo, Program, Report};
use crate::session::Session;
use crate::value::Value;
use crate::workbook::{CellEntry, Formula, ViewDef, Workbook};
use std::collections::HashMap;

/// How many causes a change lists (in calculation order); the rest are
/// counted in [`Step::more`].
pub const MAX_CAUSES: usize = 8;

/// A precedent's change that preceded (and so may have caused) a change
/// of the explained cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Cause {
    pub cell: CellAddr,
    /// Its value when the explained cell was evaluated before.
    pub old: Value,
    /// Its value when the explained cell was evaluated this time.
    pub new: Value,
    /// The step it (last) changed in; 0 for a cell set before the run.
    pub step: u32,
    /// Why it holds its new value: the text of its reason cell (a view's
    /// reason area) at the end of the step the explained cell changed in;
    /// `None` outside a view with reasons or when the text is blank.
    pub reason: Option<String>,
}

/// One change of the explained cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The pass of the run it changed in, from 1.
    pub step: u32,
    pub old: Value,
    pub new: Value,
    /// The precedents that changed since its previous evaluation, by the
    /// step they changed in, then in calculation order (sheet, row,
    /// column); at most [`MAX_CAUSES`].
    pub causes: Vec<Cause>,
    /// How many more precedents changed than are listed.
    pub more: usize,
    /// Why the explained cell holds its new value, when it is in a view
    /// with reasons (as [`Cause::reason`]).
    pub reason: Option<String>,
}

/// What one formula cell did over a recalculation.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    pub cell: CellAddr,
    /// Its value before the run (step 0).
    pub start: Value,
    /// Its changes, in order; empty when it never changed.
    pub steps: Vec<Step>,
    /// The recalculation's report (iterations, convergence, oscillation).
    pub report: Report,
}

impl History {
    /// Its value after the run.
    pub fn end(&self) -> &Value {
        self.steps.last().map_or(&self.start, |s| &s.new)
    }
}

/// The history of `cell` over a recalculation of a copy of `engine` (left
/// as it is), up to convergence, oscillation or the iteration cap.
/// `before` lists the cells set since the engine last recalculated (the
/// reset protocol's `then` cells, `--set` cells), counted as changed in
/// step 0. `views` are the workbook's views: the reason areas they declare
/// give each change and cause its [`Step::reason`] and [`Cause::reason`].
/// None when `cell` holds no formula.
pub fn explain(engine: &Engine, cell: CellAddr, before: &[Change], views: &[ViewDef]) -> Option<History> {
    let program = engine.program().clone();
    let f = program.formula_at(cell)?;
    let mut watcher = Watcher {
        cell,
        reads: program.graph().reads_of(f).chain(program.graph().reachable(f).iter().copied()).collect(),
        step: 1,
        pending: HashMap::new(),
        seen: Vec::new(),
        steps: Vec::new(),
        views: views.iter().filter(|v| v.reasons.is_some()).cloned().collect(),
        why: 0,
    };
    for b in before {
        watcher.record(b.cell, &b.old, &b.new, 0);
    }
    let start = engine.get(cell).clone();
    let mut copy = engine.clone();
    let report = copy.recalc_with(&mut watcher);
    watcher.give_reasons(&copy);
    Some(History { cell, start, steps: watcher.steps, report })
}

/// Runs `session`'s reset protocol (see [`Session::reset`]) and returns
/// the changes its `then` cells made after the recalculation, the changes
/// of step 0 for [`explain`]; none without a protocol.
pub fn reset(session: &mut Session) -> Result<Vec<Change>, crate::Error> {
    let Some(protocol) = session.workbook().reset.clone() else { return Ok(Vec::new()) };
    // A `then` cell held its `set` value (or what it held before) when the reset recalculated.
    let held: Vec<(CellAddr, Value)> = protocol
        .then
        .iter()
        .map(|(c, _)| match protocol.set.iter().rev().find(|(s, _)| s == c) {
            Some((_, v)) => (*c, v.clone()),
            None => (*c, session.engine().get(*c).clone()),
        })
        .collect();
    session.reset()?;
    Ok(changed(session.engine(), held))
}

/// The cells of `held` whose value in `engine` differs from the one held,
/// as changes (a cell listed twice keeps its first value).
pub fn changed(engine: &Engine, held: Vec<(CellAddr, Value)>) -> Vec<Change> {
    let mut seen = std::collections::HashSet::new();
    held.into_iter()
        .filter(|(c, _)| seen.insert(*c))
        .map(|(cell, old)| Change { cell, old, new: engine.get(cell).clone() })
        .filter(|c| c.old != c.new)
        .collect()
}

/// The workbook entry that defines `cell`: for a formula cell the entry its
/// formula came from (a range formula's whole range), otherwise the last
/// entry covering it (later entries win); None for a cell no entry covers.
pub fn entry<'w>(workbook: &'w Workbook, program: &Program, cell: CellAddr) -> Option<&'w CellEntry> {
    match program.formula_at(cell) {
        Some(f) => workbook.cells.get(program.cell(f).origin.index()),
        None => workbook.cells.iter().rev().find(|e| e.area.contains(cell)),
    }
}

/// A formula as written, on one line: `=` and the text, each line of a
/// formula file's text trimmed and joined with a space.
pub fn written(formula: &Formula) -> String {
    let text = formula.text.trim().strip_prefix('=').unwrap_or(formula.text.trim());
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    format!("={}", lines.join(" "))
}

/// The observer behind [`explain`].
struct Watcher {
    cell: CellAddr,
    /// The areas the cell's formula reads (its block's, for a block cell).
    reads: Vec<Area>,
    /// The pass under way, from 1.
    step: u32,
    /// Precedents changed since the cell's last evaluation.
    pending: HashMap<CellAddr, Cause>,
    /// Those the cell's last evaluation saw (kept until it is written).
    seen: Vec<Cause>,
    steps: Vec<Step>,
    /// The views with reason areas.
    views: Vec<ViewDef>,
    /// The steps before this one have their reasons.
    why: usize,
}

impl Watcher {
    /// The reason text of `cell` in `engine`: its reason cell's text.
    fn reason(&self, engine: &Engine, cell: CellAddr) -> Option<String> {
        let at = self.views.iter().find_map(|v| v.reason_cell(cell))?;
        match engine.get(at) {
            Value::Text(t) if !t.trim().is_empty() => Some(t.to_string()),
            _ => None,
        }
    }

    /// Gives the changes recorded since the last call, and their causes,
    /// their reasons as `engine` holds them now (at the end of a pass).
    fn give_reasons(&mut self, engine: &Engine) {
        if self.views.is_empty() {
            return;
        }
        for i in self.why..self.steps.len() {
            let reason = self.reason(engine, self.cell);
            let causes: Vec<Option<String>> =
                self.steps[i].causes.iter().map(|c| self.reason(engine, c.cell)).collect();
            let step = &mut self.steps[i];
            step.reason = reason;
            step.causes.iter_mut().zip(causes).for_each(|(c, r)| c.reason = r);
        }
        self.why = self.steps.len();
    }

    fn record(&mut self, cell: CellAddr, old: &Value, new: &Value, step: u32) {
        if !self.reads.iter().any(|a| a.contains(cell)) {
            return;
        }
        self.pending
            .entry(cell)
            .and_modify(|c| {
                c.new = new.clone();
                c.step = step;
            })
            .or_insert_with(|| Cause { cell, old: old.clone(), new: new.clone(), step, reason: None });
    }
}

impl Observer for Watcher {
    fn evaluate(&mut self, cell: CellAddr) {
        if cell == self.cell {
            self.seen = self.pending.drain().map(|(_, c)| c).filter(|c| c.old != c.new).collect();
        }
    }

    fn write(&mut self, cell: CellAddr, old: &Value, new: &Value) {
        if cell == self.cell {
            let mut causes = std::mem::take(&mut self.seen);
            causes.sort_by_key(|c| (c.step, c.cell));
            let more = causes.len().saturating_sub(MAX_CAUSES);
            causes.truncate(MAX_CAUSES);
            self.steps.push(Step { step: self.step, old: old.clone(), new: new.clone(), causes, more, reason: None });
        }
        self.record(cell, old, new, self.step);
    }

    fn pass(&mut self, engine: &Engine, _pass: &PassInfo) -> Flow {
        self.give_reasons(engine);
        self.step += 1;
        Flow::Continue
    }
}
