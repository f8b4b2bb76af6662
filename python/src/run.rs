//! A workbook's runs: recalculations and single iterations through its
//! timeline (each one entry, so `back` undoes it), the reset protocol with
//! the named inputs filled (one entry, through
//! [`Timeline::reset`](dataflow::session::Timeline::reset)), and the
//! status: the last run's report and, for a puzzle, its grid read now. The
//! engine runs with the interpreter's lock released, so other Python
//! threads go on meanwhile.
//!
//! A workbook is a puzzle when it has one input and a view named
//! `solution` (what `dataflow batch` reads back by default): the status
//! then reads that view through the input's alphabet, as a line, and says
//! whether it is full.

use crate::errors::err;
use crate::records::{self, Record};
use crate::values::to_py;
use crate::workbook::Workbook;
use dataflow::address::{Area, CellAddr};
use dataflow::engine::Change;
use dataflow::value::Value;
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
        .map(|c| records::make(py, Record::Change, (wb.cell_name(c.cell), to_py(py, &c.old)?, to_py(py, &c.new)?)));
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
    records::make(py, Record::Status, (r.iterations, r.converged, r.period, r.max_change, r.evaluated, grid, full))
}

/// The solution view's area and the input's alphabet, when the workbook
/// is a puzzle (see the module's text).
pub fn puzzle(wb: &Workbook) -> Option<(Area, String)> {
    let book = wb.session.workbook();
    let [input] = book.inputs.as_slice() else { return None };
    Some((book.view("solution")?.area, input.alphabet.clone()))
}
