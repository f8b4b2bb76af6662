//! The classes of `dataflow/_types.py`, built from Rust: the named tuples
//! the extension returns (`Diagnostic`, `Change`, `Name`, `Input`,
//! `Status`), defined in Python so they pickle, print and compare as
//! Python's own (each class imported once, then called with its fields),
//! and the exceptions it raises. A [`LoadError`](dataflow::LoadError) (a
//! workbook or an edit with located problems) becomes `dataflow.LoadError`,
//! whose `diagnostics` hold each problem's file, line, column, message,
//! label, note and cell, and whose text is the report the command line
//! prints; every other kind of [`dataflow::Error`] (a bad reference, a
//! formula cell set by hand, an unknown input, a line of the wrong length)
//! becomes `dataflow.UsageError` with the command line's message. [`err`]
//! is the `map_err` of every fallible call.

use dataflow::diagnostic::Diagnostic;
use pyo3::call::PyCallArgs;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyType};

/// One of the named tuples of `dataflow._types`.
#[derive(Clone, Copy)]
pub enum Record {
    Diagnostic,
    Change,
    Name,
    Input,
    Status,
}

impl Record {
    fn class_name(self) -> &'static str {
        match self {
            Record::Diagnostic => "Diagnostic",
            Record::Change => "Change",
            Record::Name => "Name",
            Record::Input => "Input",
            Record::Status => "Status",
        }
    }
}

static CLASSES: [PyOnceLock<Py<PyType>>; 5] = [const { PyOnceLock::new() }; 5];

/// The record `r` made of `fields` (a tuple in the class's field order).
pub fn make<'py>(py: Python<'py>, r: Record, fields: impl PyCallArgs<'py>) -> PyResult<Bound<'py, PyAny>> {
    CLASSES[r as usize].import(py, "dataflow._types", r.class_name())?.call1(fields)
}

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
    make(py, Record::Diagnostic, (file, line, column, d.message.clone(), d.label.clone(), note, cell))
}
