//! The named tuples the extension returns (`Diagnostic`, `Change`, `Name`,
//! `Input`, `Status`), defined in Python (`dataflow/_types.py`) so they
//! pickle, print and compare as Python's own, and built here: each class is
//! imported once, then called with its fields.

use pyo3::call::PyCallArgs;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

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
