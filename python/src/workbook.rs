//! `dataflow.Workbook`: a loaded workbook in process, a library
//! [`Session`] with its [`Timeline`]. Cells are read and typed by reference
//! (`wb["Main!D4"]`, `wb["Main!D4:L12"]`), formulas and names edited as in
//! Excel; every typed value, edit, step and recalculation is an entry of the
//! timeline, which `back` undoes and `forward` replays. This file holds the
//! class, its reads and its edits; the runs, the timeline and explanations
//! are `run.rs`'s, views `view.rs`'s.

use crate::run;
use crate::types::{self, Record};
use crate::types::{err, usage};
use crate::values::{from_py, rows_to_py, to_py};
use crate::view::View;
use dataflow::address::{Area, CellAddr};
use dataflow::engine::Report;
use dataflow::explain::{entry, written};
use dataflow::session::{Session, Timeline, Undo};
use dataflow::value::{MAX_ARRAY_CELLS, Value};
use dataflow::workbook::Content;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::collections::HashSet;

/// A loaded workbook: cells, formulas, names, views, and a timeline.
#[pyclass(module = "dataflow", name = "Workbook")]
pub struct Workbook {
    pub(crate) session: Session,
    pub(crate) timeline: Timeline,
    /// The report of the last recalculation, step, reset or solve.
    pub(crate) last: Option<Report>,
    /// The cells the last step, recalculation or typed value changed.
    pub(crate) changed: HashSet<CellAddr>,
    /// Where it was loaded from, for its repr.
    origin: String,
}

impl Workbook {
    /// A workbook over `session`, loaded with `parts` from `origin`; a part
    /// the workbook does not declare is a usage error, as on the command line.
    pub fn new(session: Session, parts: &[String], origin: String) -> PyResult<Workbook> {
        let wb = session.workbook();
        if let Some(first) = wb.unknown_parts(parts).first() {
            let known: Vec<&str> = wb.parts.iter().map(|p| p.name.as_str()).collect();
            let known = match known.is_empty() {
                true => "the workbook declares no parts".to_string(),
                false => format!("its parts: {}, or `all`", known.join(", ")),
            };
            return Err(Python::attach(|py| usage(py, format!("part `{first}`: no part of that name ({known})"))));
        }
        Ok(Workbook { session, timeline: Timeline::new(), last: None, changed: HashSet::new(), origin })
    }

    /// The area a reference names (`Main!D4`, `D4:L12` on the first sheet).
    pub(crate) fn area(&self, text: &str) -> PyResult<Area> {
        self.session.area(text).map_err(err)
    }

    /// The single cell a reference names; `what` says who asks.
    pub(crate) fn cell(&self, text: &str, what: &str) -> PyResult<CellAddr> {
        let area = self.area(text)?;
        match area.is_cell() {
            true => Ok(area.top_left()),
            false => Err(Python::attach(|py| usage(py, format!("{what} `{text}`: one cell, not a range")))),
        }
    }

    /// `Main!D4`.
    pub(crate) fn cell_name(&self, c: CellAddr) -> String {
        self.session.workbook().sheets.cell(c)
    }

    /// Types `cells` (in `area`): constants set through the timeline, or,
    /// when one of them holds a formula, an edit that replaces it.
    fn type_values(&mut self, area: Area, cells: Vec<(CellAddr, Value)>) -> PyResult<()> {
        let program = self.session.engine().program();
        if cells.iter().all(|(c, _)| program.formula_at(*c).is_none()) {
            let changes = self.timeline.set(&mut self.session, &cells).map_err(err)?;
            self.changed = changes.iter().map(|c| c.cell).collect();
            return Ok(());
        }
        self.timeline.edit(&mut self.session, |s| type_over(s, area, &cells)).map_err(err)?;
        self.changed = cells.iter().map(|(c, _)| *c).collect();
        Ok(())
    }

    /// An edit through the timeline; the changed cells are forgotten.
    fn edit(&mut self, f: impl FnOnce(&mut Session) -> Result<Undo, dataflow::Error>) -> PyResult<()> {
        self.timeline.edit(&mut self.session, f).map_err(err)?;
        self.changed.clear();
        Ok(())
    }
}

/// Values typed over cells some of which hold formulas, as one edit: one
/// value over the whole area replaces the area's content with that
/// constant (the workbook holds it, as Excel does); different values clear
/// the area's content and type each value.
fn type_over(s: &mut Session, area: Area, cells: &[(CellAddr, Value)]) -> Result<Undo, dataflow::Error> {
    let first = cells.first().map(|(_, v)| v.clone()).unwrap_or_default();
    if cells.iter().all(|(_, v)| *v == first) {
        let content = (!first.is_empty()).then_some(Content::Constant(first));
        return s.put(area, content);
    }
    let undo = s.clear(area)?;
    for (c, v) in cells {
        if let Err(e) = s.set(*c, v.clone()) {
            s.undo_edit(undo);
            return Err(e);
        }
    }
    Ok(undo)
}

/// The values typed into `area`: one value for every cell, or, over a
/// range, rows of values of the range's shape.
fn typed_cells(area: Area, value: &Bound<'_, PyAny>) -> PyResult<Vec<(CellAddr, Value)>> {
    let rows = !area.is_cell() && !value.is_instance_of::<PyString>() && value.try_iter().is_ok();
    if !rows {
        let v = from_py(value)?;
        return Ok(area.cells().map(|c| (c, v.clone())).collect());
    }
    let shape_error = || {
        pyo3::exceptions::PyValueError::new_err(format!(
            "the range has {} rows of {} cells: give one value, or rows of that shape",
            area.rows(),
            area.cols()
        ))
    };
    let mut cells = Vec::with_capacity(area.size() as usize);
    let mut rows = 0;
    for (row, r) in value.try_iter()?.enumerate() {
        let (r, mut cols) = (r?, 0);
        if r.is_instance_of::<PyString>() {
            return Err(shape_error());
        }
        for (col, v) in r.try_iter().map_err(|_| shape_error())?.enumerate() {
            let (row, col) = (u32::try_from(row).unwrap_or(u32::MAX), u32::try_from(col).unwrap_or(u32::MAX));
            if row >= area.rows() || col >= area.cols() {
                return Err(shape_error());
            }
            cells.push((CellAddr::new(area.sheet, area.r0 + row, area.c0 + col), from_py(&v?)?));
            cols += 1;
        }
        if cols != area.cols() {
            return Err(shape_error());
        }
        rows += 1;
    }
    if rows != area.rows() {
        return Err(shape_error());
    }
    Ok(cells)
}

#[pymethods]
impl Workbook {
    /// A cell's value, or a range's values as a list of rows.
    fn __getitem__<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        let area = self.area(key)?;
        if area.is_cell() {
            return to_py(py, self.session.engine().get(area.top_left()));
        }
        if area.size() > MAX_ARRAY_CELLS {
            return Err(usage(
                py,
                format!("`{key}` has {} cells; a read takes at most {MAX_ARRAY_CELLS}", area.size()),
            ));
        }
        Ok(rows_to_py(py, &self.session.read(&area))?.into_any())
    }

    /// Types a constant into a cell (or every cell of a range, or rows of
    /// values over it); a cell holding a formula loses it, as in Excel.
    fn __setitem__(&mut self, key: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let area = self.area(key)?;
        let cells = typed_cells(area, value)?;
        self.type_values(area, cells)
    }

    /// Enters `formula` (`=` optional; `{=...}`: one array formula over
    /// the range) into a cell or every cell of a range (Ctrl+Enter).
    fn set_formula(&mut self, cell: &str, formula: &str) -> PyResult<()> {
        let area = self.area(cell)?;
        self.edit(|s| s.set_formula(area, formula))
    }

    /// Empties a cell or a range, formulas included.
    fn clear(&mut self, cell: &str) -> PyResult<()> {
        let area = self.area(cell)?;
        self.edit(|s| s.clear(area))
    }

    /// Defines a workbook name, or changes one, relative to `anchor`.
    #[pyo3(signature = (name, formula, anchor = None))]
    fn define_name(&mut self, name: &str, formula: &str, anchor: Option<&str>) -> PyResult<()> {
        let anchor = anchor.map(|a| self.cell(a, "anchor")).transpose()?;
        self.edit(|s| s.define_name(name, formula, anchor))
    }

    /// The formula of a cell as written (`{=...}` for an array formula),
    /// or None when it holds none.
    fn formula(&self, cell: &str) -> PyResult<Option<String>> {
        let at = self.cell(cell, "formula")?;
        let found = entry(self.session.workbook(), self.session.engine().program(), at);
        Ok(found.and_then(|e| match &e.content {
            Content::Formula(f) | Content::Dynamic(f) => Some(written(f)),
            Content::Array(f) => Some(format!("{{{}}}", written(f))),
            Content::Constant(_) => None,
        }))
    }

    /// The workbook's names: name, anchor and formula as written.
    #[getter]
    fn names<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let wb = self.session.workbook();
        let names = wb
            .names
            .iter()
            .map(|n| types::make(py, Record::Name, (n.name.clone(), wb.sheets.cell(n.anchor), written(&n.formula))));
        PyList::new(py, names.collect::<PyResult<Vec<_>>>()?)
    }

    /// The named inputs: name, range, alphabet and blank characters.
    #[getter]
    fn inputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let wb = self.session.workbook();
        let inputs = wb.inputs.iter().map(|i| {
            types::make(
                py,
                Record::Input,
                (i.name.clone(), wb.sheets.area(i.area), i.alphabet.clone(), i.blanks.clone()),
            )
        });
        PyList::new(py, inputs.collect::<PyResult<Vec<_>>>()?)
    }

    /// The names of the views, in the workbook's order.
    #[getter]
    fn views(&self) -> Vec<String> {
        self.session.workbook().views.iter().map(|v| v.name.clone()).collect()
    }

    /// The view named `name`, with its values now.
    fn view(&self, py: Python<'_>, name: &str) -> PyResult<View> {
        match self.session.workbook().view(name) {
            Some(def) => View::new(self, def),
            None => Err(usage(py, format!("no view named `{name}` (views: {})", self.views().join(", ")))),
        }
    }

    /// Recalculates until the cycles converge, oscillate or reach the cap.
    fn recalc<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        run::recalc(py, self)
    }

    /// One iteration; returns the cells it changed.
    fn step<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        run::step(py, self)
    }

    /// Undoes the last step, recalculation, typed value or edit.
    fn back(&mut self) -> bool {
        self.changed.clear();
        self.timeline.back(&mut self.session)
    }

    /// Replays the last entry undone.
    fn forward(&mut self) -> bool {
        self.changed.clear();
        self.timeline.forward(&mut self.session)
    }

    /// Fills the named inputs and runs the reset protocol.
    #[pyo3(signature = (**inputs))]
    fn reset<'py>(&mut self, py: Python<'py>, inputs: Option<&Bound<'py, PyDict>>) -> PyResult<Bound<'py, PyAny>> {
        run::reset(py, self, inputs)
    }

    /// Fills the named inputs, runs the reset protocol and recalculates.
    #[pyo3(signature = (**inputs))]
    fn solve<'py>(&mut self, py: Python<'py>, inputs: Option<&Bound<'py, PyDict>>) -> PyResult<Bound<'py, PyAny>> {
        run::reset(py, self, inputs)?;
        run::recalc(py, self)
    }

    /// The last run's report, with the puzzle's grid read now.
    #[getter]
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        run::status(py, self)
    }

    /// Each change of a formula cell over a recalculation, with its causes.
    #[pyo3(signature = (cell, reset = true))]
    fn explain<'py>(&self, py: Python<'py>, cell: &str, reset: bool) -> PyResult<Bound<'py, PyList>> {
        run::explain(py, self, cell, reset)
    }

    fn __repr__(&self) -> String {
        let wb = self.session.workbook();
        let formulas = self.session.engine().program().cells().len();
        let (done, undone) = self.timeline.len();
        let sheets = match wb.sheets.len() {
            1 => "1 sheet".to_string(),
            n => format!("{n} sheets"),
        };
        format!(
            "<dataflow.Workbook {:?}: {sheets}, {formulas} formula cells, views {:?}, timeline {done} back, {undone} forward>",
            self.origin,
            self.views()
        )
    }
}
