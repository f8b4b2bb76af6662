//! How a view turns values into what it shows, beyond the blank glyph: an
//! alphabet (the number k shows as the alphabet's k-th symbol, so a 16x16
//! board reads `A`..`G` past 9; other numbers show as numbers), a number
//! format for the other numbers (TEXT's formats, e.g. `0.00`), the compact
//! form (each group of cells shown as one cell holding the non-blank
//! symbols of the group, a valid-values board's candidate string such as
//! `137`) and a region map (an area of the shape shown whose cells hold a
//! region number; a cell facing a number other than 0 is marked).

use crate::address::{Area, CellAddr};
use crate::functions::text::{format, render};
use crate::grid::Grid;
use crate::value::Value;
use crate::workbook::symbol_of;

/// A number format as TEXT reads it, parsed once.
#[derive(Clone, Debug, PartialEq)]
pub struct NumberFormat {
    text: String,
    sections: Vec<format::Section>,
}

impl NumberFormat {
    /// Parses `text`; an error says the format is not one TEXT accepts.
    pub fn parse(text: &str) -> Result<NumberFormat, String> {
        let sections = format::parse(text).map_err(|_| {
            format!("`{text}` is not a number format TEXT accepts (digits, `.`, `,`, `%`, `E+`, literal text)")
        })?;
        Ok(NumberFormat { text: text.to_string(), sections })
    }

    /// The format as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// `x` through the format.
    pub fn number(&self, x: f64) -> String {
        render::number(&self.sections, x)
    }
}

/// A view's symbols, compact form and region marks; the default shows
/// values as they are, one cell each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Display {
    /// Symbol k (1-based) stands for the number k.
    pub alphabet: Option<Vec<char>>,
    /// The format of the numbers the alphabet does not cover.
    pub format: Option<NumberFormat>,
    /// Shown compact: each block of (rows, columns) cells as one cell.
    pub compact: Option<(u32, u32)>,
    /// The region map, as many rows and columns as are shown.
    pub regions: Option<Area>,
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

    /// The (rows, columns) shown for `area`: a cell per group of cells
    /// when compact (a last, partial group counts as one).
    pub fn shape(&self, area: &Area) -> (u32, u32) {
        match self.compact {
            Some((gr, gc)) => (area.rows().div_ceil(gr), area.cols().div_ceil(gc)),
            None => (area.rows(), area.cols()),
        }
    }

    /// The cells of `area` shown at (`row`, `col`): one cell, or a group.
    pub fn cells(&self, area: &Area, row: u32, col: u32) -> Area {
        let (gr, gc) = self.compact.unwrap_or((1, 1));
        let (r, c) = (area.r0 + row * gr, area.c0 + col * gc);
        Area::new(area.sheet, r, c, r.saturating_add(gr - 1).min(area.r1), c.saturating_add(gc - 1).min(area.c1))
    }

    /// Where `cell` of `area` is shown: (row, column), `None` outside.
    pub fn position(&self, area: &Area, cell: CellAddr) -> Option<(u32, u32)> {
        if !area.contains(cell) {
            return None;
        }
        let (gr, gc) = self.compact.unwrap_or((1, 1));
        Some(((cell.row - area.r0) / gr, (cell.col - area.c0) / gc))
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
