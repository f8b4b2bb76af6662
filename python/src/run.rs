//! A workbook's runs: recalculations and single iterations through its
//! timeline (each one entry, so `back` undoes it), the reset protocol with
//! the named inputs filled (one entry, through
//! [`Timeline::reset`](dataflow::session::Timeline::reset)), and the
//! status: the last run's report and, for a puzzle, its grid read now. The
//! engine runs with the interpreter's lock released, so other Python
//! threads go on meanwhile.
//!
//! `explain` is a run too, of a copy: why a formula cell changed, step by
//! step, as `dataflow explain` tells it ([`dataflow::explain`]). The copy is
//! prepared as the command line prepares it: when the workbook has a reset
//! protocol (and `reset` is true) the protocol runs first and its `then`
//! cells are the changes of step 0; then the copy recalculates pass by
//! pass. The workbook itself is left as it is. Each record is a dict:
//! `step`, `old`, `new`, `causes` (each a dict of `cell`, `old`, `new`,
//! `step`) and `more` (causes past the listed ones).
//!
//! A workbook is a puzzle when it has one input and a view named
//! `solution` (what `dataflow batch` reads back by default): the status
//! then reads that view through the input's alphabet, as a line, and says
//! whether it is full.

use crate::types::{self, Record, err, usage};
use crate::values::to_py;
use crate::workbook::Workbook;
use dataflow::address::{Area, CellAddr};
use dataflow::engine::Change;
use dataflow::explain::{Step, explain as history, reset as reset_protocol};
use dataflow::value::Value;
use dataflow::workbook::Content;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Recalculates to the end, recorded; returns the status.
pub fn recalc<'py>(py: Python<'py>, wb: &mut Workbook) -> PyResult<Bound<'py, PyAny>> {
    let (session, timeline) = (&mut wb.session, &mut wb.timeline);
    let (report, changed) = py.detach(|| {
        let (report, changes) = timeline.recalc(session);
        (report, changes.iter().map(|c| c.cell).collect())
    });
    wb.last = Some(report);
    wb.changed = changed;
    status(py, wb)
}

/// One iteration, recorded; returns every cell it changed.
pub fn step<'py>(py: Python<'py>, wb: &mut Workbook) -> PyResult<Bound<'py, PyList>> {
    let (session, timeline) = (&mut wb.session, &mut wb.timeline);
    let (report, changes) = py.detach(|| {
        let (report, changes) = timeline.step(session);
        (report, changes.to_vec())
    });
    wb.last = Some(report);
    wb.changed = changes.iter().map(|c| c.cell).collect();
    changes_to_py(py, wb, &changes)
}

/// Changes as a list of `dataflow.Change`.
pub fn changes_to_py<'py>(py: Python<'py>, wb: &Workbook, changes: &[Change]) -> PyResult<Bound<'py, PyList>> {
    let made = changes
        .iter()
        .map(|c| types::make(py, Record::Change, (wb.cell_name(c.cell), to_py(py, &c.old)?, to_py(py, &c.new)?)));
    PyList::new(py, made.collect::<PyResult<Vec<_>>>()?)
}

/// Fills the inputs given as `name=line` and runs the reset protocol, as
/// one entry; returns the status of its recalculation (None when the
/// workbook has no protocol: only the inputs are filled).
pub fn reset<'py>(
    py: Python<'py>,
    wb: &mut Workbook,
    inputs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut cells: Vec<(CellAddr, Value)> = Vec::new();
    for (name, line) in inputs.map(|d| d.iter().collect::<Vec<_>>()).unwrap_or_default() {
        let (name, line): (String, String) = (name.extract()?, line.extract()?);
        cells.extend(wb.session.input_cells(&name, &line).map_err(err)?);
    }
    let (session, timeline) = (&mut wb.session, &mut wb.timeline);
    let ran =
        py.detach(|| timeline.reset(session, &cells).map(|(r, changes)| (r, changes.iter().map(|c| c.cell).collect())));
    let (report, changed) = ran.map_err(err)?;
    wb.changed = changed;
    match report {
        Some(report) => {
            wb.last = Some(report);
            status(py, wb)
        }
        None => Ok(py.None().into_bound(py)),
    }
}

/// The status (see `dataflow.Status`), None before the first run.
pub fn status<'py>(py: Python<'py>, wb: &Workbook) -> PyResult<Bound<'py, PyAny>> {
    let Some(r) = &wb.last else { return Ok(py.None().into_bound(py)) };
    let grid = puzzle(wb).map(|(area, alphabet)| wb.session.read_line(&area, &alphabet));
    let full = grid.as_ref().map(|g| !g.contains(['.', '?']));
    types::make(py, Record::Status, (r.iterations, r.converged, r.period, r.max_change, r.evaluated, grid, full))
}

/// The solution view's area and the input's alphabet, when the workbook
/// is a puzzle (see the module's text).
pub fn puzzle(wb: &Workbook) -> Option<(Area, String)> {
    let book = wb.session.workbook();
    let [input] = book.inputs.as_slice() else { return None };
    Some((book.view("solution")?.area, input.alphabet.clone()))
}

/// The changes of `cell` over a recalculation of a copy (see the module's text).
pub fn explain<'py>(py: Python<'py>, wb: &Workbook, cell: &str, reset: bool) -> PyResult<Bound<'py, PyList>> {
    let at = wb.cell(cell, "explain")?;
    let mut copy = wb.session.clone();
    let before = if reset { reset_protocol(&mut copy).map_err(err)? } else { Vec::new() };
    let Some(h) = py.detach(|| history(copy.engine(), at, &before, &copy.workbook().views)) else {
        let name = wb.cell_name(at);
        let program = copy.engine().program();
        let held = dataflow::explain::entry(copy.workbook(), program, at).map(|e| &e.content);
        let input = copy.workbook().inputs.iter().find(|i| i.area.contains(at));
        let what = match (input, held) {
            (Some(i), _) => format!("is a cell of the input `{}`", i.name),
            (None, Some(Content::Constant(_))) => "holds a constant".to_string(),
            _ => "holds no formula".to_string(),
        };
        return Err(usage(py, format!("explain `{cell}`: {name} {what}; explain follows formula cells")));
    };
    let records = h.steps.iter().map(|s| record(py, wb, s)).collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, records)
}

/// One change as a dict.
fn record<'py>(py: Python<'py>, wb: &Workbook, step: &Step) -> PyResult<Bound<'py, PyDict>> {
    let causes = step
        .causes
        .iter()
        .map(|c| {
            let d = PyDict::new(py);
            d.set_item("cell", wb.cell_name(c.cell))?;
            d.set_item("old", to_py(py, &c.old)?)?;
            d.set_item("new", to_py(py, &c.new)?)?;
            d.set_item("step", c.step)?;
            d.set_item("reason", c.reason.as_deref())?;
            Ok(d)
        })
        .collect::<PyResult<Vec<_>>>()?;
    let d = PyDict::new(py);
    d.set_item("step", step.step)?;
    d.set_item("old", to_py(py, &step.old)?)?;
    d.set_item("new", to_py(py, &step.new)?)?;
    d.set_item("causes", PyList::new(py, causes)?)?;
    d.set_item("more", step.more)?;
    d.set_item("reason", step.reason.as_deref())?;
    Ok(d)
}
