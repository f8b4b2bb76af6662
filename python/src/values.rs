//! Cell values between the engine and Python. A cell reads as `None`
//! (empty), a `float`, a `str`, a `bool`, or an [`ExcelError`] (Excel's
//! `#DIV/0!`, `#N/A`, ... are values in cells, not exceptions). A value
//! typed into a cell comes the other way: `None` empties it, an `int` or a
//! `float` is a number (finite only), a `str` is text as it is (never read
//! as a number or a formula), a `bool` a boolean, an `ExcelError` that error.

use dataflow::value::{ErrorKind, Value};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyList, PyString, PyTuple};

/// An Excel error value, such as `#DIV/0!`: equal by its code.
#[pyclass(module = "dataflow", name = "ExcelError", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ExcelError {
    kind: ErrorKind,
}

#[pymethods]
impl ExcelError {
    /// The error of that code (`"#N/A"`, `"#div/0!"`: any case).
    #[new]
    fn new(code: &str) -> PyResult<ExcelError> {
        let known = || ErrorKind::ALL.iter().map(|e| e.text()).collect::<Vec<_>>().join(", ");
        ErrorKind::parse(code)
            .map(|kind| ExcelError { kind })
            .ok_or_else(|| PyValueError::new_err(format!("`{code}` is not an Excel error ({})", known())))
    }

    /// The error as Excel shows it: `#DIV/0!`.
    #[getter]
    fn code(&self) -> &'static str {
        self.kind.text()
    }

    fn __repr__(&self) -> String {
        format!("ExcelError('{}')", self.kind.text())
    }

    fn __str__(&self) -> &'static str {
        self.kind.text()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let code = slf.get().kind.text();
        PyTuple::new(slf.py(), [slf.get_type().into_any(), PyTuple::new(slf.py(), [code])?.into_any()])
    }
}

/// A cell's value as Python sees it.
pub fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Empty => py.None().into_bound(py),
        Value::Number(n) => PyFloat::new(py, *n).into_any(),
        Value::Text(t) => PyString::new(py, t).into_any(),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Error(kind) => Bound::new(py, ExcelError { kind: *kind })?.into_any(),
        // Cells hold scalars; an array or a reference never reaches one.
        other => PyString::new(py, &other.to_string()).into_any(),
    })
}

/// Rows of values as a list of lists.
pub fn rows_to_py<'py>(py: Python<'py>, rows: &[Vec<Value>]) -> PyResult<Bound<'py, PyList>> {
    let rows = rows
        .iter()
        .map(|row| PyList::new(py, row.iter().map(|v| to_py(py, v)).collect::<PyResult<Vec<_>>>()?))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, rows)
}

/// A Python value typed into a cell (see the module's text).
pub fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Empty);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(e) = obj.cast::<ExcelError>() {
        return Ok(Value::Error(e.get().kind));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::text(&s.to_cow()?));
    }
    match obj.extract::<f64>() {
        Ok(x) if x.is_finite() => Ok(Value::Number(x)),
        Ok(x) => Err(PyValueError::new_err(format!("a cell holds finite numbers, not {x}"))),
        Err(_) => Err(PyTypeError::new_err(format!(
            "a cell takes None, a number, a str, a bool or an ExcelError, not {}",
            obj.get_type().name()?
        ))),
    }
}
