//! How an evaluation reads the grid: one cell, a sheet's extent, the cells
//! of an area (visited or made into an array, each element charged to the
//! work budget), and a value as an operand reads it: a reference by
//! implicit intersection, or whole in array mode; a spill range; one value
//! of several. While folding at bind time nothing is read: each read gives
//! the empty value and marks the evaluator as having touched the grid.

use super::{Eval, ops};
use crate::address::{Area, CellAddr};
use crate::grid::Grid;
use crate::value::{Array, ErrorKind, MAX_ARRAY_CELLS, Value};
use std::sync::Arc;

impl<'a> Eval<'a> {
    /// One cell's value.
    pub fn cell_value(&self, c: CellAddr) -> Value {
        if self.folding {
            self.touched.set(true);
            return Value::Empty;
        }
        self.grid.get(c).clone()
    }

    /// The stored size (rows, columns) of a sheet: every cell past it is empty.
    pub fn extent(&self, sheet: u16) -> (u32, u32) {
        if self.folding {
            self.touched.set(true);
        }
        self.grid.extent(sheet)
    }

    /// Visits the stored cells of `area` row by row; returns how many cells
    /// of the area were not visited because they are empty.
    pub fn visit(&self, area: &Area, mut f: impl FnMut(&Value)) -> u64 {
        if self.folding {
            self.touched.set(true);
            return area.size();
        }
        let (rows, outside) = self.grid.rows_of(area);
        for row in rows {
            row.iter().for_each(&mut f);
        }
        outside
    }

    /// The grid, for walks that read more than [`Eval::visit`] gives (the
    /// block summaries of `functions::reduce`); none while folding, where
    /// the read is noted as `visit` notes it.
    pub fn grid(&self) -> Option<&'a Grid> {
        if self.folding {
            self.touched.set(true);
            return None;
        }
        Some(self.grid)
    }

    /// The cells of `area` as an array (#NUM! past [`MAX_ARRAY_CELLS`], or
    /// once this evaluation has done more than [`MAX_WORK`](crate::value::MAX_WORK): counted).
    pub fn materialize(&self, area: &Area) -> Value {
        if area.size() > MAX_ARRAY_CELLS {
            return Value::Error(ErrorKind::Num);
        }
        if self.folding || area.is_cell() {
            return self.cell_value(area.top_left());
        }
        if !self.charge_elements(area.size()) {
            return Value::Error(ErrorKind::Num);
        }
        let mut data = Vec::with_capacity(area.size() as usize);
        for r in area.r0..=area.r1 {
            for c in area.c0..=area.c1 {
                data.push(self.grid.get(CellAddr::new(area.sheet, r, c)).clone());
            }
        }
        Value::Array(Arc::new(Array::new(area.rows() as usize, area.cols() as usize, data)))
    }

    /// Reads a reference for use as a value: one cell gives its value;
    /// several cells give an array inside names (array mode) and the implicit
    /// intersection with the calculating cell elsewhere. A reference array
    /// reads element by element (`Eval::ref_values`). Other values pass.
    #[inline]
    pub fn value(&self, v: Value) -> Value {
        // Numbers, text, booleans, errors and the empty value pass as they
        // are; only references and arrays (which may hold references) are
        // read, out of line.
        match v {
            Value::Ref(_) | Value::Array(_) => self.read_value(v),
            v => v,
        }
    }

    /// [`Eval::value`] of a reference or an array.
    fn read_value(&self, v: Value) -> Value {
        if self.folding && matches!(v, Value::Ref(_)) {
            // How a reference is read depends on the mode at run time.
            self.touched.set(true);
            return Value::Empty;
        }
        match v {
            Value::Ref(a) if a.is_cell() => self.cell_value(a.top_left()),
            Value::Ref(a) if self.array_mode => self.materialize(&a),
            Value::Ref(a) => self.intersect(&a),
            v if v.ref_array().is_some() => self.ref_values(&v),
            v => v,
        }
    }

    /// A reference array read as values, in its shape: each one-cell
    /// reference gives its cell's value (so `N(OFFSET(A1,{0,1},0))` reads
    /// A1 and A2, as in Excel), a larger one #VALUE!.
    fn ref_values(&self, v: &Value) -> Value {
        ops::map1(v, |r| match r {
            Value::Ref(a) if a.is_cell() => self.cell_value(a.top_left()),
            _ => Value::Error(ErrorKind::Value),
        })
    }

    /// Excel's implicit intersection of a multi-cell area with the
    /// calculating cell's row (for a column) or column (for a row).
    fn intersect(&self, a: &Area) -> Value {
        let c = self.cell;
        let hit = if a.sheet != c.sheet {
            None
        } else if a.c0 == a.c1 && (a.r0..=a.r1).contains(&c.row) {
            Some(CellAddr::new(a.sheet, c.row, a.c0))
        } else if a.r0 == a.r1 && (a.c0..=a.c1).contains(&c.col) {
            Some(CellAddr::new(a.sheet, a.r0, c.col))
        } else {
            None
        };
        hit.map_or(Value::Error(ErrorKind::Value), |h| self.cell_value(h))
    }

    /// The spill range of the dynamic-array formula at `anchor` (`A1#`):
    /// a reference, `#SPILL!` while an obstacle stops it, `#REF!` when
    /// `anchor` holds no such formula. Folding gives up on it (it reads
    /// the engine's state).
    pub fn spill_range(&self, anchor: CellAddr) -> Value {
        if self.folding {
            self.touched.set(true);
            return Value::Error(ErrorKind::Ref);
        }
        match self.grid.spills().get(anchor) {
            Some(s) => s.area.map_or(Value::Error(ErrorKind::Spill), Value::Ref),
            None => Value::Error(ErrorKind::Ref),
        }
    }

    /// Excel's `@` (stored `_xlfn.SINGLE`): one value, whatever the mode —
    /// a multi-cell reference by implicit intersection, an array its
    /// top-left element, anything else as [`Eval::value`] reads it.
    pub fn single(&self, v: Value) -> Value {
        match v {
            Value::Ref(a) if !a.is_cell() && !self.folding => self.intersect(&a),
            Value::Array(a) if !a.is_ref_array() => a.first().unwrap_or(Value::Error(ErrorKind::Value)),
            v => self.value(v),
        }
    }

    /// Like [`Eval::value`] but always turns a reference into its values
    /// (an array for several cells), whatever the mode: for arguments that
    /// take arrays, such as SUMPRODUCT's.
    pub fn array_value(&self, v: Value) -> Value {
        match v {
            Value::Ref(a) => self.materialize(&a),
            v if v.ref_array().is_some() => self.ref_values(&v),
            v => v,
        }
    }
}
