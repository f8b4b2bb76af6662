//! The values of every cell, stored densely per sheet from A1 to the last
//! used row and column. Reads outside the stored part are empty. The stored
//! part of all sheets together is capped at [`MAX_GRID_CELLS`].

use crate::address::{Area, CellAddr, SheetId};
use crate::value::Value;

/// Largest number of cells the grids of a workbook may store together
/// (16,777,216: for example 4,096 rows by 4,096 columns).
pub const MAX_GRID_CELLS: u64 = 1 << 24;

static EMPTY: Value = Value::Empty;

/// One sheet's values, row-major, `rows x cols` from A1.
#[derive(Clone, Debug, Default)]
pub struct SheetGrid {
    rows: u32,
    cols: u32,
    data: Vec<Value>,
}

/// The values of all sheets.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    sheets: Vec<SheetGrid>,
}

impl Grid {
    /// A grid with `n` empty sheets.
    pub fn new(n: usize) -> Self {
        Grid { sheets: vec![SheetGrid::default(); n] }
    }

    /// A grid with `n` empty sheets, stored large enough for every cell of
    /// `cells` (allocated once). Fails with the first cell that would make
    /// the stored grids pass [`MAX_GRID_CELLS`].
    pub fn holding(n: usize, cells: impl Iterator<Item = CellAddr>) -> Result<Grid, CellAddr> {
        let mut extent = vec![(0u32, 0u32); n];
        let mut stored = 0u64;
        for c in cells {
            let Some(e) = extent.get_mut(c.sheet as usize) else { return Err(c) };
            let grown = (e.0.max(c.row + 1), e.1.max(c.col + 1));
            let before = e.0 as u64 * e.1 as u64;
            stored = stored - before + grown.0 as u64 * grown.1 as u64;
            if stored > MAX_GRID_CELLS {
                return Err(c);
            }
            *e = grown;
        }
        let sheets = extent
            .into_iter()
            .map(|(rows, cols)| SheetGrid { rows, cols, data: vec![Value::Empty; (rows * cols) as usize] })
            .collect();
        Ok(Grid { sheets })
    }

    /// A grid shaped like this one, every cell empty.
    pub fn blank_like(&self) -> Grid {
        let sheets = self
            .sheets
            .iter()
            .map(|s| SheetGrid { rows: s.rows, cols: s.cols, data: vec![Value::Empty; s.data.len()] })
            .collect();
        Grid { sheets }
    }

    pub fn get(&self, c: CellAddr) -> &Value {
        match self.sheets.get(c.sheet as usize) {
            Some(s) if c.row < s.rows && c.col < s.cols => &s.data[(c.row * s.cols + c.col) as usize],
            _ => &EMPTY,
        }
    }

    /// Total cells stored.
    pub fn stored(&self) -> u64 {
        self.sheets.iter().map(|s| s.data.len() as u64).sum()
    }

    /// Makes room for `c`; false when that would pass [`MAX_GRID_CELLS`].
    pub fn reserve(&mut self, c: CellAddr) -> bool {
        let Some(s) = self.sheets.get(c.sheet as usize) else { return false };
        if c.row < s.rows && c.col < s.cols {
            return true;
        }
        let (rows, cols) = (s.rows.max(c.row + 1), s.cols.max(c.col + 1));
        let grown = rows as u64 * cols as u64 - s.data.len() as u64;
        if self.stored() + grown > MAX_GRID_CELLS {
            return false;
        }
        let s = &mut self.sheets[c.sheet as usize];
        if cols == s.cols {
            // New rows only: appended (amortised by the vector's growth).
            s.data.resize((rows * cols) as usize, Value::Empty);
            s.rows = rows;
            return true;
        }
        let mut data = vec![Value::Empty; (rows * cols) as usize];
        for r in 0..s.rows {
            for col in 0..s.cols {
                data[(r * cols + col) as usize] = std::mem::take(&mut s.data[(r * s.cols + col) as usize]);
            }
        }
        *s = SheetGrid { rows, cols, data };
        true
    }

    /// Stores a value; the cell must have been reserved.
    pub fn set(&mut self, c: CellAddr, v: Value) {
        let s = &mut self.sheets[c.sheet as usize];
        assert!(c.row < s.rows && c.col < s.cols, "cell {c:?} outside the reserved grid");
        s.data[(c.row * s.cols + c.col) as usize] = v;
    }

    /// The stored part of `area`, as row slices; also returns how many cells
    /// of the area lie outside the stored part (they are empty).
    pub fn rows_of<'g>(&'g self, area: &Area) -> (impl Iterator<Item = &'g [Value]> + 'g, u64) {
        let s = self.sheets.get(area.sheet as usize);
        let (rows, cols) = s.map_or((0, 0), |s| (s.rows, s.cols));
        let (r1, c1) = (area.r1.min(rows.wrapping_sub(1)), area.c1.min(cols.wrapping_sub(1)));
        let clipped = rows > 0 && cols > 0 && area.r0 <= r1 && area.c0 <= c1;
        let inside = if clipped { (r1 - area.r0 + 1) as u64 * (c1 - area.c0 + 1) as u64 } else { 0 };
        let (c0, a_r0) = (area.c0, area.r0);
        let iter = s.filter(|_| clipped).into_iter().flat_map(move |s| {
            (a_r0..=r1).map(move |r| {
                let start = (r * s.cols) as usize;
                &s.data[start + c0 as usize..=start + c1 as usize]
            })
        });
        (iter, area.size() - inside)
    }

    pub fn sheet_count(&self) -> usize {
        self.sheets.len()
    }

    /// The used size (rows, cols) of a sheet.
    pub fn extent(&self, sheet: SheetId) -> (u32, u32) {
        self.sheets.get(sheet as usize).map_or((0, 0), |s| (s.rows, s.cols))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_clips_and_counts_outside() {
        let mut g = Grid::new(1);
        let c = CellAddr::new(0, 1, 1);
        assert!(g.reserve(c));
        g.set(c, Value::Number(5.0));
        let (rows, outside) = g.rows_of(&Area::new(0, 0, 0, 3, 3));
        let rows: Vec<_> = rows.collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1], &[Value::Empty, Value::Number(5.0)]);
        assert_eq!(outside, 16 - 4);
        let (rows, outside) = g.rows_of(&Area::new(0, 5, 5, 6, 6));
        assert_eq!(rows.count(), 0);
        assert_eq!(outside, 4);
    }

    #[test]
    fn refuses_huge_grids() {
        let mut g = Grid::new(1);
        assert!(!g.reserve(CellAddr::new(0, 1_000_000, 16_000)));
    }
}
