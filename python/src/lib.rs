//! The Python package's extension module, `dataflow._dataflow`: the engine
//! in process, for a notebook or a script. [`load`] and [`loads`] read a
//! workbook into a [`Workbook`](workbook::Workbook) (a session of the
//! library with its timeline: cells read and typed, formulas and names
//! edited, steps taken and undone), whose views come back as
//! [`View`](view::View)s (rows, text, HTML); `batch` runs many puzzles on the
//! library's streaming pool with the interpreter's lock released. The pure
//! Python side (`python/dataflow/`) re-exports all this, adds the argument
//! handling of `batch`, the records and the exceptions (`_types.py`), and
//! the type stubs; `docs/python.md` is the user's guide.
//!
//! Every module maps one concern: `values.rs` cell values both ways,
//! `types.rs` the named tuples and exceptions of `_types.py` (the
//! library's errors among them), `workbook.rs` the class and its reads and
//! edits, `run.rs` its recalculations, timeline, status and explanations,
//! `view.rs` views, `html.rs` their HTML, `batch.rs` the pool.

mod batch;
mod html;
mod run;
mod types;
mod values;
mod view;
mod workbook;

use pyo3::prelude::*;
use std::collections::HashMap;

/// Loads the workbook at `path` (`.ron` with its formula files, or
/// `.xlsx`), with the optional `parts` turned on (`"all"`: every part).
#[pyfunction]
#[pyo3(signature = (path, parts = None))]
fn load(py: Python<'_>, path: std::path::PathBuf, parts: Option<Vec<String>>) -> PyResult<workbook::Workbook> {
    let parts = parts.unwrap_or_default();
    let session = py.detach(|| dataflow::session::Session::load_with(&path, &parts));
    let session = session.map_err(|e| types::load_error(py, &e))?;
    workbook::Workbook::new(session, &parts, path.display().to_string())
}

/// Loads a workbook from its RON text; `files` maps the paths its
/// `include` lists (or its parts') name to their texts. Nothing is read
/// from disk.
#[pyfunction]
#[pyo3(signature = (text, files = None, parts = None))]
fn loads(
    py: Python<'_>,
    text: &str,
    files: Option<HashMap<String, String>>,
    parts: Option<Vec<String>>,
) -> PyResult<workbook::Workbook> {
    let parts = parts.unwrap_or_default();
    let files: dataflow::workbook::files::MemoryFiles = files.unwrap_or_default().into_iter().collect();
    let loaded = py.detach(|| {
        let wb = dataflow::workbook::Workbook::from_memory(text, &files, &parts)?;
        dataflow::session::Session::new(wb)
    });
    let session = loaded.map_err(|e| types::load_error(py, &e))?;
    workbook::Workbook::new(session, &parts, "<text>".to_string())
}

#[pymodule]
fn _dataflow(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(loads, m)?)?;
    m.add_function(wrap_pyfunction!(batch::batch, m)?)?;
    m.add_function(wrap_pyfunction!(batch::_shutdown, m)?)?;
    m.add_class::<workbook::Workbook>()?;
    m.add_class::<view::View>()?;
    m.add_class::<values::ExcelError>()?;
    m.add_class::<batch::Batch>()?;
    m.add("MAX_JOBS", dataflow::batch::MAX_JOBS)?;
    Ok(())
}
