//! Tall areas in the dependency graph. A cell points to each area that
//! contains it, which for areas that overlap row after row — the growing
//! ranges of cumulative sums, `SUM($A$1:A1)` filled down 100,000 rows —
//! is a number of edges that grows with the square of the rows (5·10⁹
//! there: the graph could not be allocated). An area taller than
//! [`TALL_ROWS`] is therefore linked through segments: each column is
//! split into aligned runs of 2^k rows (a segment tree), an area points
//! from the O(log rows) segments that tile it column by column, and a
//! formula cell points to the segments (at most one per level) that hold
//! it. A path cell → segment → area exists exactly when the cell lies in
//! the area, so the schedule and the cycles are those of the direct edges;
//! the edges grow as rows · log rows. Shorter areas (every Sudoku board's)
//! keep their direct edges.

use crate::address::{Area, SheetId};
use crate::ids::{AreaId, FormulaId};
use rustc_hash::FxHashMap;

/// Areas with more rows than this are linked through segments.
pub const TALL_ROWS: u32 = 64;

/// One aligned run of rows of one column: rows `index·2^level` to
/// `(index+1)·2^level − 1` (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    pub sheet: SheetId,
    pub col: u32,
    pub level: u8,
    pub index: u32,
}

impl Segment {
    /// The cells the segment covers, as an area.
    pub fn area(&self) -> Area {
        let r0 = self.index << self.level;
        let r1 = r0 + ((1u32 << self.level) - 1);
        Area { sheet: self.sheet, r0, c0: self.col, r1, c1: self.col }
    }
}

/// Whether `a` is linked through segments.
pub fn is_tall(a: &Area) -> bool {
    a.r1 - a.r0 + 1 > TALL_ROWS
}

/// The aligned segments tiling `a`, column by column, fewest first: at
/// most two per level of each column.
pub fn tiling(a: &Area) -> Vec<Segment> {
    let mut out = Vec::new();
    for col in a.c0..=a.c1 {
        let (mut lo, hi) = (u64::from(a.r0), u64::from(a.r1) + 1);
        while lo < hi {
            let fits = 63 - (hi - lo).leading_zeros();
            let level = lo.trailing_zeros().min(fits);
            out.push(Segment { sheet: a.sheet, col, level: level as u8, index: (lo >> level) as u32 });
            lo += 1 << level;
        }
    }
    out
}

/// The segments made so far, what points to them and where they point.
#[derive(Clone, Debug, Default)]
pub struct Segments {
    ids: FxHashMap<Segment, usize>,
    pub(crate) list: Vec<Segment>,
    /// For each segment, the tall areas it helps tile.
    pub(crate) areas: Vec<Vec<AreaId>>,
    /// For each formula cell, the segments that hold it; empty until the
    /// first segment is made (most workbooks have no tall area: a list
    /// per formula, each empty, was 2.4 MB at 100,000 cells).
    pub(crate) holding: Vec<Vec<usize>>,
    /// How many formula cells there are.
    cells: usize,
}

impl Segments {
    pub fn new(cells: usize) -> Segments {
        Segments { cells, ..Segments::default() }
    }

    /// Notes that segment `s` holds formula cell `f`.
    pub fn hold(&mut self, f: FormulaId, s: usize) {
        if self.holding.is_empty() {
            self.holding = vec![Vec::new(); self.cells];
        }
        self.holding[f.index()].push(s);
    }

    /// The segments holding formula cell `f`.
    pub fn holding(&self, f: FormulaId) -> &[usize] {
        self.holding.get(f.index()).map_or(&[], Vec::as_slice)
    }

    /// The segment's number, and whether it is new (the caller then links
    /// the formula cells inside it).
    pub fn id(&mut self, s: Segment) -> (usize, bool) {
        match self.ids.get(&s) {
            Some(&i) => (i, false),
            None => {
                let i = self.list.len();
                self.ids.insert(s, i);
                self.list.push(s);
                self.areas.push(Vec::new());
                (i, true)
            }
        }
    }

    /// The tall areas holding formula cell `f`, through its segments.
    pub fn areas_holding(&self, f: FormulaId) -> impl Iterator<Item = AreaId> + '_ {
        self.holding(f).iter().flat_map(|&s| self.areas[s].iter().copied())
    }
}

/// What one engine knows of the readers of each segment's tall areas, so
/// that a write into a segment whose areas' readers are all dirty already
/// marks nothing (without it, each write of a cumulative column marked the
/// reader of every area below it: rows² in a full recalculation). A
/// segment was marked at tick `marked` and one of its readers cleaned at
/// tick `cleaned`: all are dirty while the mark is the later. Only
/// segments whose areas feed no shared subformula are skipped (marking
/// also forgets those values).
#[derive(Clone, Debug, Default)]
pub struct Marks {
    tick: u64,
    marked: Vec<u64>,
    cleaned: Vec<u64>,
}

impl Marks {
    pub fn new(segments: usize) -> Marks {
        Marks { tick: 0, marked: vec![0; segments], cleaned: vec![0; segments] }
    }

    /// Nothing known: every formula's dirty flag was set some other way.
    pub fn forget(&mut self) {
        self.marked.iter_mut().for_each(|m| *m = 0);
    }

    /// A formula reading the tall areas of segments `segments` was cleaned.
    #[inline]
    pub fn cleaned(&mut self, segments: &[u32]) {
        if segments.is_empty() {
            return;
        }
        self.tick += 1;
        segments.iter().for_each(|&s| self.cleaned[s as usize] = self.tick);
    }

    /// Whether every reader of segment `s`'s areas is dirty already.
    #[inline]
    pub fn all_dirty(&self, s: usize) -> bool {
        self.marked[s] > self.cleaned[s]
    }

    /// Every reader of segment `s`'s areas was just marked dirty.
    #[inline]
    pub fn marked(&mut self, s: usize) {
        self.tick += 1;
        self.marked[s] = self.tick;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row of the area is in exactly one tile, and no tile leaves it.
    #[test]
    fn tilings_cover_exactly() {
        let sheet: SheetId = 0;
        for (r0, r1) in [(0, 0), (0, 99_999), (3, 70), (1, 1_048_575), (65_535, 65_536), (12, 13)] {
            let a = Area { sheet, r0, c0: 2, r1, c1: 3 };
            let tiles = tiling(&a);
            for col in 2..=3 {
                let mut rows: Vec<(u32, u32)> =
                    tiles.iter().filter(|t| t.col == col).map(|t| (t.area().r0, t.area().r1)).collect();
                rows.sort_unstable();
                assert_eq!(rows.first().map(|r| r.0), Some(r0));
                assert_eq!(rows.last().map(|r| r.1), Some(r1));
                assert!(rows.windows(2).all(|w| w[0].1 + 1 == w[1].0), "{rows:?}");
                assert!(rows.len() <= 2 * 21, "{} tiles", rows.len());
            }
        }
    }
}
