//! `Workbook.explain(cell)`: why a formula cell changed, step by step, as
//! `dataflow explain` tells it ([`dataflow::explain`]). A copy of the
//! session is prepared as the command line prepares it: when the workbook
//! has a reset protocol (and `reset` is true) the protocol runs first and
//! its `then` cells are the changes of step 0; then the copy recalculates
//! pass by pass. The workbook itself is left as it is. Each record is a
//! dict: `step`, `old`, `new`, `causes` (each a dict of `cell`, `old`,
//! `new`, `step`) and `more` (causes past the listed ones).

use crate::errors::{err, usage};
use crate::values::to_py;
use crate::workbook::Workbook;
use dataflow::explain::{Step, explain as history, reset as reset_protocol};
use dataflow::workbook::Content;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The changes of `cell` over a recalculation (see the module's text).
pub fn explain<'py>(py: Python<'py>, wb: &Workbook, cell: &str, reset: bool) -> PyResult<Bound<'py, PyList>> {
    let at = wb.cell(cell, "explain")?;
    let mut copy = wb.session.clone();
    let before = if reset { reset_protocol(&mut copy).map_err(err)? } else { Vec::new() };
    let Some(h) = py.detach(|| history(copy.engine(), at, &before)) else {
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
            Ok(d)
        })
        .collect::<PyResult<Vec<_>>>()?;
    let d = PyDict::new(py);
    d.set_item("step", step.step)?;
    d.set_item("old", to_py(py, &step.old)?)?;
    d.set_item("new", to_py(py, &step.new)?)?;
    d.set_item("causes", PyList::new(py, causes)?)?;
    d.set_item("more", step.more)?;
    Ok(d)
}
