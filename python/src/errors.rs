//! The library's errors as Python exceptions, the classes of
//! `dataflow/_types.py`: a [`LoadError`](dataflow::LoadError) (a workbook or
//! an edit with located problems) becomes `dataflow.LoadError`, whose
//! `diagnostics` hold each problem's file, line, column, message, label,
//! note and cell, and whose text is the report the command line prints;
//! every other kind of [`dataflow::Error`] (a bad reference, a formula cell
//! set by hand, an unknown input, a line of the wrong length) becomes
//! `dataflow.UsageError` with the command line's message. [`err`] is the
//! `map_err` of every fallible call.

use crate::records;
use dataflow::diagnostic::Diagnostic;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyType};

static LOAD_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static USAGE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// A library error as the Python exception it raises.
pub fn err(e: impl Into<dataflow::Error>) -> PyErr {
    Python::attach(|py| match e.into() {
        dataflow::Error::Load(load) => load_error(py, &load),
        other => usage(py, other.message()),
    })
}

/// `dataflow.UsageError(message)`.
pub fn usage(py: Python<'_>, message: String) -> PyErr {
    match USAGE_ERROR.import(py, "dataflow._types", "UsageError") {
        Ok(class) => PyErr::from_type(class.clone(), message),
        Err(e) => e,
    }
}

/// `dataflow.LoadError(report, diagnostics)`.
pub fn load_error(py: Python<'_>, e: &dataflow::LoadError) -> PyErr {
    let made = || -> PyResult<PyErr> {
        let diagnostics = e.diagnostics.iter().map(|d| diagnostic(py, d)).collect::<PyResult<Vec<_>>>()?;
        let class = LOAD_ERROR.import(py, "dataflow._types", "LoadError")?;
        let value = class.call1((e.to_string(), PyList::new(py, diagnostics)?))?;
        Ok(PyErr::from_value(value))
    };
    made().unwrap_or_else(|failed| failed)
}

/// One problem as a `dataflow.Diagnostic`.
fn diagnostic<'py>(py: Python<'py>, d: &Diagnostic) -> PyResult<Bound<'py, PyAny>> {
    let file = d.file.as_ref().map(|f| f.path.display().to_string());
    let (line, column) = d.line_col().unzip();
    let note = d.note.clone();
    let cell = d.cell.as_deref().map(str::to_string);
    records::make(py, records::Record::Diagnostic, (file, line, column, d.message.clone(), d.label.clone(), note, cell))
}
