//! The values of every cell, stored densely per sheet from A1 to the last
//! used row and column. Reads outside the stored part are empty. The stored
//! part of all sheets together is capped at [`MAX_GRID_CELLS`]. Each
//! column keeps a summary per block of rows ([`blocks`]), for the
//! aggregates over tall ranges: a sheet's summaries are made from its cells
//! when first read, then kept exact on every write, so a sheet no
//! aggregate reads in blocks (a grid of iterated numbers) pays nothing
//! per write. Beside the summaries, each sheet remembers a few folds over
//! growing ranges ([`folds`]), forgotten when a cell they read is written.

pub mod blocks;
pub mod folds;
pub mod spills;

use crate::address::{Area, CellAddr, SheetId};
use crate::value::Value;
use blocks::{BLOCK, Summary};
use folds::{Fold, Folded, Folds};
use spills::Spills;
use std::sync::{Arc, OnceLock};

/// Largest number of cells the grids of a workbook may store together
/// (16,777,216: for example 4,096 rows by 4,096 columns).
pub const MAX_GRID_CELLS: u64 = 1 << 24;

/// Largest number of formula cells a workbook may hold (4,194,304, a
/// quarter of the grid): each takes about 450 bytes of program and engine
/// (bound formula, dependencies, schedule, value), about 2 GB at the cap,
/// where the grid's cap in formulas would take 8 GB.
pub const MAX_FORMULA_CELLS: u64 = 1 << 22;

static EMPTY: Value = Value::Empty;

/// One sheet's values, row-major, `rows x cols` from A1, and, once read,
/// the summary of each block of each column, block-row-major, and the
/// folds remembered (only while the summaries are made).
#[derive(Debug)]
pub struct SheetGrid {
    rows: u32,
    cols: u32,
    data: Vec<Value>,
    blocks: OnceLock<Vec<Summary>>,
    folds: Folds,
    /// What the cells hold, told apart: this sheet's own id and how many
    /// stores it has taken (see [`SheetGrid::clone_from`]).
    id: u64,
    stores: u64,
    /// The content the cells were last copied from whole (its id and
    /// stores then), with the positions stored since, unless there were
    /// more than a [`JOURNAL`] part of the cells.
    origin: Option<(u64, u64)>,
    journal: Vec<u32>,
    overflow: bool,
}

/// A sheet restored from the content it was copied from copies back only
/// the cells stored since, while they are at most one in `JOURNAL` of them
/// (a Sudoku batch worker restores its loaded state for every puzzle: the
/// strategy boards' sheet holds 160,000 cells, a puzzle changes a few
/// thousand); past that, every cell.
const JOURNAL: usize = 8;

impl Default for SheetGrid {
    fn default() -> SheetGrid {
        SheetGrid::empty(0, 0)
    }
}

/// A new sheet's [`SheetGrid::id`].
fn next_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl SheetGrid {
    /// An empty sheet of `rows x cols`.
    fn empty(rows: u32, cols: u32) -> SheetGrid {
        let data = vec![Value::Empty; (rows * cols) as usize];
        SheetGrid::of(rows, cols, data, OnceLock::new(), Folds::default())
    }

    /// A sheet of these cells, summaries and folds, with an id of its own.
    fn of(rows: u32, cols: u32, data: Vec<Value>, blocks: OnceLock<Vec<Summary>>, folds: Folds) -> SheetGrid {
        let (id, stores, origin, journal, overflow) = (next_id(), 0, None, Vec::new(), false);
        SheetGrid { rows, cols, data, blocks, folds, id, stores, origin, journal, overflow }
    }

    /// Stores `v` at `at` (cell `c`), keeping the summaries (if made) exact
    /// and forgetting the folds that read the cell (there are none unless
    /// the summaries are made).
    #[inline(always)]
    fn store(&mut self, c: CellAddr, at: usize, v: Value) -> (Value, &Value) {
        self.stores += 1;
        if self.journal.len() < self.data.len() / JOURNAL {
            // Below 2^32: a sheet holds at most `MAX_GRID_CELLS`.
            self.journal.push(at as u32);
        } else {
            self.overflow = true;
        }
        let old = std::mem::replace(&mut self.data[at], v);
        let new = &self.data[at];
        if let Some(blocks) = self.blocks.get_mut() {
            blocks[((c.row / BLOCK) * self.cols + c.col) as usize].replace(&old, new);
            self.folds.wrote(c.row, c.col);
        }
        (old, new)
    }

    /// The block summaries, made from the cells on first use.
    fn summaries(&self) -> &[Summary] {
        self.blocks.get_or_init(|| {
            let mut blocks = vec![Summary::default(); (self.rows.div_ceil(BLOCK) * self.cols) as usize];
            for (i, v) in self.data.iter().enumerate() {
                let (row, col) = (i as u32 / self.cols, i as u32 % self.cols);
                blocks[((row / BLOCK) * self.cols + col) as usize].replace(&Value::Empty, v);
            }
            blocks
        })
    }
}

/// The values of all sheets. `clone_from` reuses the stored vectors (an
/// engine restored to a saved state for every puzzle allocates nothing).
#[derive(Debug, Default)]
pub struct Grid {
    sheets: Vec<SheetGrid>,
    /// What the dynamic-array formulas spill (see [`spills`]), shared
    /// with the undo history until it changes.
    spills: Arc<Spills>,
    /// Whether aggregates may remember folds here (`Paths::folds`).
    folds_on: bool,
}

impl Clone for SheetGrid {
    fn clone(&self) -> Self {
        let (data, blocks, folds) = (self.data.clone(), self.blocks.clone(), self.folds.clone());
        let copy = SheetGrid::of(self.rows, self.cols, data, blocks, folds);
        SheetGrid { origin: Some((self.id, self.stores)), ..copy }
    }

    /// Copies `source`'s cells: only those stored since this sheet was
    /// last copied from `source` whole, when `source` is as it was then.
    fn clone_from(&mut self, source: &Self) {
        let same = (self.rows, self.cols) == (source.rows, source.cols);
        if same && !self.overflow && self.origin == Some((source.id, source.stores)) {
            for &at in &self.journal {
                self.data[at as usize].clone_from(&source.data[at as usize]);
            }
        } else {
            (self.rows, self.cols) = (source.rows, source.cols);
            self.data.clone_from(&source.data);
            self.origin = Some((source.id, source.stores));
        }
        self.journal.clear();
        self.overflow = false;
        // Its cells changed: a copy made from it before is out of date.
        self.stores += 1;
        self.folds.clone_from(&source.folds);
        match (self.blocks.get_mut(), source.blocks.get()) {
            (Some(mine), Some(theirs)) => mine.clone_from(theirs),
            (_, theirs) => self.blocks = theirs.cloned().map_or_else(OnceLock::new, OnceLock::from),
        }
    }
}

impl Clone for Grid {
    fn clone(&self) -> Self {
        Grid { sheets: self.sheets.clone(), spills: self.spills.clone(), folds_on: self.folds_on }
    }

    fn clone_from(&mut self, source: &Self) {
        self.sheets.clone_from(&source.sheets);
        self.spills.clone_from(&source.spills);
        self.folds_on = source.folds_on;
    }
}

impl Grid {
    /// A grid with `n` empty sheets.
    pub fn new(n: usize) -> Self {
        Grid { sheets: vec![SheetGrid::default(); n], spills: Arc::default(), folds_on: true }
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
        let sheets = extent.into_iter().map(|(rows, cols)| SheetGrid::empty(rows, cols)).collect();
        Ok(Grid { sheets, spills: Arc::default(), folds_on: true })
    }

    /// A grid shaped like this one, every cell empty.
    pub fn blank_like(&self) -> Grid {
        let sheets = self.sheets.iter().map(|s| SheetGrid::empty(s.rows, s.cols)).collect();
        Grid { sheets, spills: Arc::default(), folds_on: self.folds_on }
    }

    #[inline]
    pub fn get(&self, c: CellAddr) -> &Value {
        match self.sheets.get(c.sheet as usize) {
            Some(s) if c.row < s.rows && c.col < s.cols => &s.data[(c.row * s.cols + c.col) as usize],
            _ => &EMPTY,
        }
    }

    /// What the dynamic-array formulas spill.
    pub fn spills(&self) -> &Spills {
        &self.spills
    }

    pub(crate) fn spills_mut(&mut self) -> &mut Spills {
        Arc::make_mut(&mut self.spills)
    }

    /// The spills as they are now, shared (a snapshot for undo).
    pub(crate) fn spills_shared(&self) -> Arc<Spills> {
        self.spills.clone()
    }

    /// Puts back spills shared from a snapshot.
    pub(crate) fn set_spills(&mut self, spills: Arc<Spills>) {
        self.spills = spills;
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
            (s.origin, s.stores) = (None, s.stores + 1);
            if let Some(blocks) = s.blocks.get_mut() {
                blocks.resize((rows.div_ceil(BLOCK) * cols) as usize, Summary::default());
            }
            s.rows = rows;
            return true;
        }
        // New columns: the cells laid out again, the summaries made again when read.
        let mut grown = SheetGrid::empty(rows, cols);
        for r in 0..s.rows {
            for col in 0..s.cols {
                grown.data[(r * cols + col) as usize] = std::mem::take(&mut s.data[(r * s.cols + col) as usize]);
            }
        }
        *s = grown;
        true
    }

    /// Stores a value; the cell must have been reserved.
    pub fn set(&mut self, c: CellAddr, v: Value) {
        let (s, at) = self.reserved(c);
        s.store(c, at, v);
    }

    /// Stores a value in a reserved cell unless it equals (`==`) the value
    /// there, which is then kept and `v` given back; otherwise returns the
    /// value replaced and the one now stored. One look-up for both.
    #[inline(always)]
    pub fn update(&mut self, c: CellAddr, v: Value) -> Result<(Value, &Value), Value> {
        let (s, at) = self.reserved(c);
        if s.data[at] == v {
            return Err(v);
        }
        Ok(s.store(c, at, v))
    }

    /// The sheet of a reserved cell and where the cell sits in it.
    #[inline(always)]
    fn reserved(&mut self, c: CellAddr) -> (&mut SheetGrid, usize) {
        let s = &mut self.sheets[c.sheet as usize];
        assert!(c.row < s.rows && c.col < s.cols, "cell {c:?} outside the reserved grid");
        let at = (c.row * s.cols + c.col) as usize;
        (s, at)
    }

    /// The summary of block `band` (rows `band * BLOCK ..`) of a column;
    /// empty outside the stored part.
    pub fn block(&self, sheet: SheetId, band: u32, col: u32) -> Summary {
        match self.sheets.get(sheet as usize) {
            Some(s) if col < s.cols && band < s.rows.div_ceil(BLOCK) => s.summaries()[(band * s.cols + col) as usize],
            _ => Summary::default(),
        }
    }

    /// Lets aggregates remember folds over growing ranges (the default) or
    /// not: every fold is then read whole (`Paths::folds`, for the tests
    /// comparing the paths).
    pub fn remember_folds(&mut self, on: bool) {
        self.folds_on = on;
    }

    /// Whether aggregates remember folds ([`Grid::remember_folds`]).
    pub fn remembers_folds(&self) -> bool {
        self.folds_on
    }

    /// The fold of sheet `sheet` remembered for `f`, if any ([`folds`]).
    pub fn folded(&self, sheet: SheetId, f: &Fold) -> Option<Folded> {
        let sheet = self.sheets.get(sheet as usize).filter(|_| self.folds_on)?;
        sheet.folds.get(f)
    }

    /// Remembers that folding `f` down to row `d.r1` of sheet `sheet`
    /// gives `d.value`; the caller read every cell of it from this grid as
    /// it is now, and `d.r1` is a stored row.
    pub fn remember(&self, sheet: SheetId, f: Fold, d: Folded) {
        if let Some(s) = self.sheets.get(sheet as usize).filter(|_| self.folds_on) {
            // Writes forget folds only while the summaries are kept.
            s.summaries();
            s.folds.put(f, d);
        }
    }

    /// The stored part of `area`, as row slices; also returns how many cells
    /// of the area lie outside the stored part (they are empty).
    pub fn rows_of<'g>(&'g self, area: &Area) -> (Rows<'g>, u64) {
        let s = self.sheets.get(area.sheet as usize);
        let (rows, cols) = s.map_or((0, 0), |s| (s.rows, s.cols));
        let (r1, c1) = (area.r1.min(rows.wrapping_sub(1)), area.c1.min(cols.wrapping_sub(1)));
        let clipped = rows > 0 && cols > 0 && area.r0 <= r1 && area.c0 <= c1;
        let inside = if clipped { (r1 - area.r0 + 1) as u64 * (c1 - area.c0 + 1) as u64 } else { 0 };
        let iter = match s.filter(|_| clipped) {
            Some(s) => Rows {
                data: &s.data,
                stride: s.cols as usize,
                start: (area.r0 * s.cols + area.c0) as usize,
                width: (c1 - area.c0 + 1) as usize,
                left: (r1 - area.r0 + 1) as usize,
            },
            None => Rows { data: &[], stride: 0, start: 0, width: 0, left: 0 },
        };
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

/// The row slices of a stored rectangle, top to bottom ([`Grid::rows_of`]).
pub struct Rows<'g> {
    data: &'g [Value],
    /// Cells from one row's start to the next's.
    stride: usize,
    /// Where the next row's slice starts.
    start: usize,
    width: usize,
    /// Rows not yet given.
    left: usize,
}

impl<'g> Iterator for Rows<'g> {
    type Item = &'g [Value];

    fn next(&mut self) -> Option<&'g [Value]> {
        if self.left == 0 {
            return None;
        }
        let row = &self.data[self.start..self.start + self.width];
        self.left -= 1;
        self.start += self.stride;
        Some(row)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
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

    /// Every block summary equals the one made afresh from the cells.
    fn assert_blocks_exact(g: &Grid) {
        for (i, s) in g.sheets.iter().enumerate() {
            for band in 0..s.rows.div_ceil(BLOCK) {
                for col in 0..s.cols {
                    let mut fresh = Summary::default();
                    for r in band * BLOCK..((band + 1) * BLOCK).min(s.rows) {
                        fresh.replace(&Value::Empty, &s.data[(r * s.cols + col) as usize]);
                    }
                    assert_eq!(g.block(i as SheetId, band, col), fresh, "sheet {i} block {band} column {col}");
                }
            }
        }
    }

    #[test]
    fn block_summaries_follow_writes_and_growth() {
        let mut g = Grid::new(2);
        for (r, c, v) in [(0, 0, 1.0), (70, 0, 2.5), (130, 1, -4.0), (63, 0, 9.0), (64, 0, 7.0)] {
            let at = CellAddr::new(1, r, c);
            assert!(g.reserve(at));
            g.set(at, Value::Number(v));
            assert_blocks_exact(&g);
        }
        assert_eq!(g.block(1, 0, 0).sum, 10);
        assert_eq!((g.block(1, 1, 0).numbers, g.block(1, 1, 0).inexact, g.block(1, 1, 0).sum), (2, 1, 7));
        assert!(g.reserve(CellAddr::new(1, 200, 3)), "new columns lay the sheet out again");
        g.set(CellAddr::new(1, 70, 0), Value::text("x"));
        g.set(CellAddr::new(1, 200, 3), Value::Error(crate::value::ErrorKind::NA));
        assert_blocks_exact(&g);
        assert_eq!(g.block(1, 2, 1).sum, -4);
        assert_eq!(g.block(1, 3, 3).errors, 1);
        assert_eq!(g.block(1, 9, 0), Summary::default(), "past the stored rows");
        assert_eq!(g.blank_like().block(1, 0, 0), Summary::default());
    }

    /// A remembered fold goes when a cell it read is written (not one
    /// below it), with new columns, and comes along with a copy.
    #[test]
    fn folds_follow_writes_columns_and_copies() {
        use folds::How;
        let mut g = Grid::new(1);
        for r in 0..100 {
            let at = CellAddr::new(0, r, 1);
            assert!(g.reserve(at));
            g.set(at, Value::Number(r as f64));
        }
        let key = Fold { r0: 0, c0: 0, c1: 1, how: How::Count };
        let remember = |g: &Grid, r1, n| g.remember(0, key.clone(), Folded { r1, value: Ok((0.0, n)) });
        remember(&g, 80, 81);
        g.set(CellAddr::new(0, 81, 1), Value::Number(-1.0));
        assert_eq!(g.folded(0, &key).map(|d| d.r1), Some(80), "a write below the fold keeps it");
        let saved = g.clone();
        g.set(CellAddr::new(0, 80, 1), Value::Empty);
        assert_eq!(g.folded(0, &key), None, "a write on its last row forgets it");
        remember(&g, 99, 99);
        g.clone_from(&saved);
        assert_eq!(g.folded(0, &key), saved.folded(0, &key), "a copy remembers what its source did");
        assert!(g.reserve(CellAddr::new(0, 0, 5)));
        assert_eq!(g.folded(0, &key), None, "new columns lay the sheet out again");
    }

    #[test]
    fn refuses_huge_grids() {
        let mut g = Grid::new(1);
        assert!(!g.reserve(CellAddr::new(0, 1_000_000, 16_000)));
    }
}
