//! How a view's [`Display`] prints values, beyond the blank glyph: a
//! number through the alphabet (symbol k for the number k) or else the
//! number format, blanks as the view's glyph, the compact form's groups as
//! the non-blank symbols of their cells in reading order, and the region
//! map's marks. The display itself (what it holds, which cells a shown
//! position covers) is the workbook model's (`workbook/view.rs`).

use crate::address::{Area, CellAddr};
use crate::functions::text::render;
use crate::grid::Grid;
use crate::value::Value;
use crate::workbook::symbol_of;

pub use crate::workbook::{Display, NumberFormat};

impl NumberFormat {
    /// `x` through the format (which holds no date codes: it cannot fail).
    pub fn number(&self, x: f64) -> String {
        render::number(self.sections(), x).unwrap_or_else(|_| "#####".into())
    }
}

impl Display {
    /// What a value shows, or `None` when it is blank (empty or "").
    pub fn symbol(&self, v: &Value) -> Option<String> {
        match v {
            Value::Empty => None,
            Value::Text(s) if s.is_empty() => None,
            Value::Number(x) => Some(self.number(*x)),
            v => Some(v.to_string()),
        }
    }

    fn number(&self, x: f64) -> String {
        if let Some(c) = self.alphabet.as_deref().and_then(|a| symbol_of(a, x)) {
            return c.to_string();
        }
        match &self.format {
            Some(f) => f.number(x),
            None => Value::Number(x).to_string(),
        }
    }

    /// What a value shows, a blank as `blank`.
    pub fn text(&self, v: &Value, blank: &str) -> String {
        self.symbol(v).unwrap_or_else(|| blank.to_string())
    }

    /// Whether a value shown is drawn left-aligned (text, booleans,
    /// errors); numbers, symbols and blanks are right-aligned.
    pub fn left_aligned(&self, v: &Value) -> bool {
        self.compact.is_none() && !matches!(v, Value::Number(_) | Value::Empty) && !v.is_blank()
    }

    /// What the cells at (`row`, `col`) show: the value, or compact, the
    /// non-blank symbols of the group in reading order (`blank` when none).
    pub fn shown(&self, grid: &Grid, area: &Area, row: u32, col: u32, blank: &str) -> String {
        let cells = self.cells(area, row, col);
        if self.compact.is_none() {
            return self.text(grid.get(cells.top_left()), blank);
        }
        let s: String = cells.cells().filter_map(|c| self.symbol(grid.get(c))).collect();
        if s.is_empty() { blank.to_string() } else { s }
    }

    /// Whether the cell shown at (`row`, `col`) is in a region: its region
    /// map cell holds something other than blank or 0.
    pub fn in_region(&self, grid: &Grid, row: u32, col: u32) -> bool {
        let Some(map) = &self.regions else { return false };
        if row >= map.rows() || col >= map.cols() {
            return false;
        }
        match grid.get(CellAddr::new(map.sheet, map.r0 + row, map.c0 + col)) {
            Value::Number(x) => *x != 0.0,
            v => !v.is_blank(),
        }
    }
}
