//! Puzzles given as lines of symbols (a Sudoku's 81 digits and dots): one
//! line solved through a session, as `dataflow batch` does for every line
//! of a file, and the answer graded against an expected line. Nothing here
//! knows the puzzle: the workbook's named input and alphabet say how a line
//! fills cells, and a view says where the answer is read. Other areas can
//! be collected as they are (a status cell, a history) beside the answer.

use crate::address::Area;
use crate::engine::Report;
use crate::session::{AreaErrors, Session};
use crate::value::Value;

/// How one puzzle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The shown view equals the expected line or, with nothing expected,
    /// the input's check says so.
    Solved,
    /// Converged, no wrong symbol, some cells still blank.
    Unsolved,
    /// A symbol differs from the expected line.
    Wrong,
    /// The iteration cap was reached first.
    NotConverged,
    /// The iterations came back to earlier values (see [`Report::period`]).
    Oscillating,
    /// The puzzle could not be loaded, the view holds something outside the
    /// alphabet, or the input's check gave an error.
    Error,
    /// Every cell of the view is filled, but nothing says it is right: no
    /// expected line and no check declared by the input.
    Filled,
}

impl Status {
    /// Every status, in declaration order (`status as usize` indexes it).
    pub const ALL: [Status; 7] = [
        Status::Solved,
        Status::Unsolved,
        Status::Wrong,
        Status::NotConverged,
        Status::Oscillating,
        Status::Error,
        Status::Filled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolved => "unsolved",
            Status::Wrong => "wrong",
            Status::NotConverged => "not_converged",
            Status::Oscillating => "oscillating",
            Status::Error => "error",
            Status::Filled => "filled",
        }
    }
}

/// Classifies a result line against the expected one or, with none, by the
/// input's check (what it gave after the run; None when it declares none).
/// A full line counts as solved only when one of them says so: a full line
/// the check refuses is wrong, one nothing checks is only filled. An
/// expected line of another length than the result cannot be compared: an
/// error (see [`mismatch`]).
pub fn classify(grid: &str, expected: Option<&str>, converged: bool, check: Option<&Value>) -> Status {
    if grid.contains('?') || expected.is_some_and(|exp| mismatch(grid, exp).is_some()) {
        return Status::Error;
    }
    if let Some(exp) = expected
        && grid.chars().zip(exp.chars()).any(|(g, e)| g != '.' && g != e)
    {
        return Status::Wrong;
    }
    if !converged {
        return Status::NotConverged;
    }
    let full = !grid.contains('.');
    match (expected, check) {
        (Some(_), _) if full => Status::Solved,
        (Some(_), _) => Status::Unsolved,
        (None, Some(Value::Bool(true))) => Status::Solved,
        (None, Some(Value::Bool(false))) if full => Status::Wrong,
        (None, Some(Value::Bool(false))) => Status::Unsolved,
        (None, Some(_)) => Status::Error,
        (None, None) if full => Status::Filled,
        (None, None) => Status::Unsolved,
    }
}

/// Why an expected line cannot be compared with the result `grid`: they
/// hold different numbers of symbols (`puzzle,123`, or `--show` naming
/// another area than the expected lines describe).
pub fn mismatch(grid: &str, expected: &str) -> Option<String> {
    let (g, e) = (grid.chars().count(), expected.chars().count());
    (g != e).then(|| format!("the expected answer has {e} symbols and the shown area {g}: they cannot be compared"))
}

/// One puzzle run: the recalculation's report, the answer read back, and
/// the collected areas.
#[derive(Clone, Debug)]
pub struct Solved {
    pub report: Report,
    /// The shown area read back through the alphabet (see [`Session::read_line`]).
    pub grid: String,
    /// One per collected area, in the order asked.
    pub collected: Vec<Collected>,
    /// The checked areas holding error values, each with its index among
    /// those checked (see [`Runner::errors_in`]; none unless asked).
    pub errors: Vec<(usize, AreaErrors)>,
    /// What the input's check gave after the run (None: it declares none).
    pub check: Option<Value>,
}

/// What a collected area held after the run.
#[derive(Clone, Debug, PartialEq)]
pub enum Collected {
    /// A single cell: its value.
    Cell(Value),
    /// Several cells: read as a line through the alphabet, like the answer.
    Line(String),
}

impl Solved {
    /// The puzzle's grade (see [`classify`]); oscillating rather than not
    /// converged when the iterations came back to earlier values.
    pub fn status(&self, expected: Option<&str>) -> Status {
        match classify(&self.grid, expected, self.report.converged, self.check.as_ref()) {
            Status::NotConverged if self.report.period.is_some() => Status::Oscillating,
            s => s,
        }
    }
}

/// Runs one puzzle on a fresh engine made from `base`: the input `input`
/// filled from `line`, the reset protocol (when `reset`), recalculation;
/// returns the report, `show` read back through `alphabet` (see
/// [`Session::read_line`]), the `collect` areas and the input's check.
pub fn solve(
    base: &Session,
    input: &str,
    line: &str,
    show: &Area,
    alphabet: &str,
    reset: bool,
    collect: &[Area],
) -> Result<Solved, crate::Error> {
    Runner::new(base, input, reset).solve(line, show, alphabet, collect)
}

/// Puzzles run one after another through one engine (what a `batch`
/// worker holds): the state of a fresh engine is saved once and restored
/// with `clone_from` into the same buffers for every puzzle, which then
/// runs exactly as on a fresh engine (same reports, same values after
/// every iteration). The reset protocol's `set` cells are part of the
/// saved state when they lie outside the input: setting them before or
/// after the input's cells leaves the same values and dirty flags.
///
/// What one puzzle fills: its line, into the runner's input, and a line
/// for each other input named (`batch`'s companion files: a jigsaw's region
/// map beside its givens), filled after it.
#[derive(Clone, Debug, Default)]
pub struct Fill {
    pub line: String,
    pub with: Vec<(std::sync::Arc<str>, String)>,
}

impl From<String> for Fill {
    fn from(line: String) -> Fill {
        Fill { line, with: Vec::new() }
    }
}

/// When the workbook declares that its reset leaves every cell a function
/// of the inputs (`reset: (..., reuse: true)`), the saved state is also
/// recalculated: each puzzle's reset then calculates only what its input
/// changes, not every formula of a never-calculated engine, and ends in
/// the same values (the reset's own report counts fewer evaluations).
pub struct Runner {
    saved: Session,
    session: Session,
    input: String,
    reset: bool,
    /// Whether `saved` holds the reset protocol's `set` cells already (and,
    /// for a reset declared `reuse`, their recalculation).
    primed: bool,
    /// Cells set after the reset protocol, each puzzle (`--set`).
    sets: Vec<(Area, Value)>,
    /// The input's check, bound once for every puzzle.
    check: Option<crate::session::BoundCheck>,
}

impl Runner {
    /// A runner over a fresh engine of `base`'s program, filling the input
    /// named `input` and running the reset protocol when `reset`.
    pub fn new(base: &Session, input: &str, reset: bool) -> Runner {
        let fresh = base.fresh();
        let outside = |wb: &crate::workbook::Workbook| match (wb.input(input), &wb.reset) {
            (Some(i), Some(r)) => r.set.iter().all(|(c, _)| !i.area.contains(*c)),
            _ => false,
        };
        let mut primed = fresh.clone();
        let mut primed = (reset && outside(fresh.workbook()) && primed.reset_set().is_ok()).then_some(primed);
        if let Some(p) = primed.as_mut()
            && p.workbook().reset.as_ref().is_some_and(|r| r.reuse)
        {
            p.recalc();
        }
        let saved = primed.as_ref().map_or(fresh, Session::clone);
        let primed = primed.is_some();
        let check = saved.bound_check(input);
        Runner { session: saved.clone(), saved, input: input.to_string(), reset, primed, sets: Vec::new(), check }
    }

    /// The runner, setting these cells after the reset protocol of every
    /// puzzle (as `--set` does after a run's).
    pub fn with_sets(self, sets: Vec<(Area, Value)>) -> Runner {
        Runner { sets, ..self }
    }

    /// The engine restored, `line` filled into the input and the reset
    /// protocol run (when asked): ready to recalculate.
    pub fn start(&mut self, line: &str) -> Result<&mut Session, crate::Error> {
        self.start_with(&Fill::from(line.to_string()))
    }

    /// [`Runner::start`] with the other inputs `fill` gives lines for,
    /// filled after the runner's own.
    pub fn start_with(&mut self, fill: &Fill) -> Result<&mut Session, crate::Error> {
        self.session.clone_from(&self.saved);
        self.session.set_input(&self.input, &fill.line)?;
        for (input, line) in &fill.with {
            self.session.set_input(input, line)?;
        }
        if self.reset {
            match self.primed {
                true => self.session.reset_finish().map(|_| ())?,
                false => self.session.reset().map(|_| ())?,
            }
        }
        for (area, v) in &self.sets {
            area.cells().try_for_each(|c| self.session.set(c, v.clone()))?;
        }
        Ok(&mut self.session)
    }

    /// One puzzle: [`Runner::start`], recalculation, `show` read back
    /// through `alphabet` and the `collect` areas read.
    pub fn solve(&mut self, line: &str, show: &Area, alphabet: &str, collect: &[Area]) -> Result<Solved, crate::Error> {
        self.solve_with(&Fill::from(line.to_string()), show, alphabet, collect)
    }

    /// [`Runner::solve`] with the other inputs `fill` gives lines for.
    pub fn solve_with(
        &mut self,
        fill: &Fill,
        show: &Area,
        alphabet: &str,
        collect: &[Area],
    ) -> Result<Solved, crate::Error> {
        let s = self.start_with(fill)?;
        let report = s.recalc();
        let collected = collect
            .iter()
            .map(|a| match a.is_cell() {
                true => Collected::Cell(s.engine().get(a.top_left()).clone()),
                false => Collected::Line(s.read_line(a, alphabet)),
            })
            .collect();
        let grid = s.read_line(show, alphabet);
        let check = self.check.as_ref().map(|c| self.session.run_check(c));
        Ok(Solved { report, grid, collected, errors: Vec::new(), check })
    }

    /// Which of `areas` hold error values after the last puzzle, each with
    /// its index in `areas` (see [`Session::errors_in`]).
    pub fn errors_in(&self, areas: &[Area]) -> Vec<(usize, AreaErrors)> {
        areas.iter().enumerate().filter_map(|(i, a)| Some((i, self.session.errors_in(a)?))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::Status;

    #[test]
    fn all_is_indexed_by_the_status() {
        for (i, s) in Status::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i, "{}", s.as_str());
        }
    }
}
