//! `dataflow.View`: one of the workbook's views with its values taken when
//! it was made. It is a list of rows of the view's cells (`len`, indexing,
//! iteration; a compact view's rows are its cells too, not the groups it
//! shows), a NumPy array on demand (NumPy is imported then, and only
//! then), its text as `dataflow run` prints it ([`render_view`]), and, in
//! Jupyter, an HTML table (`html.rs`) with the cells the workbook's last
//! step changed highlighted.

use crate::html;
use crate::values::{rows_to_py, to_py};
use crate::workbook::Workbook;
use dataflow::address::{Area, CellAddr};
use dataflow::render::{Display, Layout, render_view};
use dataflow::value::Value;
use dataflow::workbook::ViewDef;
use pyo3::exceptions::{PyImportError, PyIndexError};
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyList};

/// A view's cells as they were when it was made.
#[pyclass(module = "dataflow", name = "View", frozen)]
pub struct View {
    pub(crate) name: String,
    pub(crate) area: Area,
    /// `Main!P4:AP30`.
    pub(crate) area_text: String,
    pub(crate) layout: Layout,
    pub(crate) display: Display,
    /// The cells' values, row by row.
    pub(crate) values: Vec<Vec<Value>>,
    /// Which cells the workbook's last step (or recalculation, or typed
    /// value) changed, in the same shape.
    pub(crate) changed: Vec<Vec<bool>>,
    /// Per shown position, whether the view's region map marks it.
    pub(crate) regions: Option<Vec<Vec<bool>>>,
    /// The changed cells' names.
    changed_names: Vec<String>,
    text: String,
}

impl View {
    /// `def` of `wb`, read now.
    pub fn new(wb: &Workbook, def: &ViewDef) -> PyResult<View> {
        let (area, engine) = (def.area, wb.session.engine());
        let layout = Layout { group: def.group, blank: def.blank.clone() };
        let cell = |r: u32, c: u32| CellAddr::new(area.sheet, area.r0 + r, area.c0 + c);
        let changed: Vec<Vec<bool>> =
            (0..area.rows()).map(|r| (0..area.cols()).map(|c| wb.changed.contains(&cell(r, c))).collect()).collect();
        let changed_names = area.cells().filter(|c| wb.changed.contains(c)).map(|c| wb.cell_name(c)).collect();
        let (rows, cols) = def.display.shape(&area);
        let regions = def.display.regions.map(|_| {
            (0..rows).map(|i| (0..cols).map(|j| def.display.in_region(engine.grid(), i, j)).collect()).collect()
        });
        Ok(View {
            name: def.name.clone(),
            area,
            area_text: wb.session.workbook().sheets.area(area),
            text: render_view(engine.grid(), &area, &layout, &def.display),
            layout,
            display: def.display.clone(),
            values: wb.session.read(&area),
            changed,
            regions,
            changed_names,
        })
    }

    /// Row `i` as a list.
    fn row<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyList>> {
        let row = self.values[i].iter().map(|v| to_py(py, v)).collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, row)
    }
}

#[pymethods]
impl View {
    /// The view's name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The range it shows: `Main!P4:AP30`.
    #[getter]
    fn area(&self) -> &str {
        &self.area_text
    }

    /// (rows, columns) of its cells.
    #[getter]
    fn shape(&self) -> (u32, u32) {
        (self.area.rows(), self.area.cols())
    }

    /// The group of cells shown as one (rows, columns) for a compact view.
    #[getter]
    fn compact(&self) -> Option<(u32, u32)> {
        self.display.compact
    }

    /// The cells of the view the workbook's last step changed.
    #[getter]
    fn changed(&self) -> Vec<String> {
        self.changed_names.clone()
    }

    /// Its rows as a list of lists.
    #[getter]
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        rows_to_py(py, &self.values)
    }

    /// The view as `dataflow run` prints it.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    fn __len__(&self) -> usize {
        self.values.len()
    }

    /// A row (negative indexes count from the end), or a slice of rows.
    fn __getitem__<'py>(&self, py: Python<'py>, index: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(i) = index.extract::<isize>() {
            let n = self.values.len() as isize;
            let at = if i < 0 { i + n } else { i };
            if !(0..n).contains(&at) {
                return Err(PyIndexError::new_err(format!("row {i} of a view of {n} rows")));
            }
            return Ok(self.row(py, at as usize)?.into_any());
        }
        rows_to_py(py, &self.values)?.as_any().get_item(index)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(rows_to_py(py, &self.values)?.as_any().try_iter()?.into_any())
    }

    /// The values as a NumPy array: floats (blank cells NaN) when every
    /// cell is a number or blank, else objects; or of `dtype`.
    #[pyo3(signature = (dtype = None))]
    fn to_numpy<'py>(&self, py: Python<'py>, dtype: Option<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
        let np = py.import("numpy").map_err(|e| {
            PyImportError::new_err(format!(
                "View.to_numpy needs NumPy, which is not installed (pip install numpy): {e}"
            ))
        })?;
        let numeric = self.values.iter().flatten().all(|v| matches!(v, Value::Number(_)) || v.is_blank());
        let rows = match numeric && dtype.is_none() {
            true => {
                let number = |v: &Value| if let Value::Number(x) = v { *x } else { f64::NAN };
                let rows = self.values.iter().map(|r| PyList::new(py, r.iter().map(number)));
                PyList::new(py, rows.collect::<PyResult<Vec<_>>>()?)?
            }
            false => rows_to_py(py, &self.values)?,
        };
        let dtype = match (dtype, numeric) {
            (Some(d), _) => d,
            (None, true) => np.getattr("float64")?,
            (None, false) => py.import("builtins")?.getattr("object")?,
        };
        let kwargs = [("dtype", dtype)].into_py_dict(py)?;
        np.getattr("array")?.call((rows,), Some(&kwargs))
    }

    /// NumPy's array protocol: `numpy.asarray(view)`.
    #[pyo3(signature = (dtype = None, copy = None))]
    fn __array__<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = copy; // a new array every time: copying is all it can do
        self.to_numpy(py, dtype)
    }

    /// An HTML table (Jupyter shows it): see `html.rs`.
    fn _repr_html_(&self) -> String {
        html::view(self)
    }

    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!(
            "<dataflow.View {:?} {}: {} rows of {} cells>",
            self.name,
            self.area_text,
            self.area.rows(),
            self.area.cols()
        )
    }
}
