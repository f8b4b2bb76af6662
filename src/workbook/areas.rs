//! Areas named by workbook names. Once every file's names are read, a place
//! that takes an area (a `cells` key, an input's or a view's range, a reset
//! key, a formula file's `cells` target) may name one instead: a workbook
//! name whose formula is a constant reference (`sol_board` for
//! `name sol_board @ Main!A1 = Main!$D$16:$L$24`), so a board's size is
//! written once. A literal range in those places is checked against the
//! same names: one spanning several rows and columns that starts where such
//! a name's area starts, but is none of the areas named there, is reported
//! (`Main!W4:CH66` written where `val_board` is `Main!$W$4:$CH$67`).

use super::model::Name;
use super::refs::constant_area;
use crate::address::{Area, CellAddr};
use crate::sheets::Sheets;
use std::collections::HashMap;

/// The workbook's names, by lower-cased name, with the area each stands for
/// (or why it stands for none), and the names holding an area of several
/// rows and columns, by the area's top-left cell.
pub(crate) struct NamedAreas {
    by_name: HashMap<String, (usize, Result<Area, String>)>,
    by_corner: HashMap<CellAddr, Vec<(usize, Area)>>,
}

impl NamedAreas {
    pub fn new(names: &[Name], sheets: &Sheets) -> NamedAreas {
        let mut by_name = HashMap::with_capacity(names.len());
        let mut by_corner: HashMap<CellAddr, Vec<(usize, Area)>> = HashMap::new();
        for (i, n) in names.iter().enumerate() {
            let area = constant_area(&n.formula.expr, n.anchor.sheet, sheets);
            if let Ok(a) = area
                && a.rows() > 1
                && a.cols() > 1
            {
                by_corner.entry(a.top_left()).or_default().push((i, a));
            }
            by_name.insert(n.name.to_lowercase(), (i, area));
        }
        NamedAreas { by_name, by_corner }
    }

    /// The name `text` (its index in the names) and the area it stands for,
    /// or why it stands for none; None when the workbook has no such name.
    pub(crate) fn lookup(&self, text: &str) -> Option<(usize, &Result<Area, String>)> {
        self.by_name.get(&text.to_lowercase()).map(|(i, a)| (*i, a))
    }

    /// A name whose area starts where `area` does and differs from it, when
    /// `area` spans several rows and columns and no name there has exactly
    /// it.
    pub fn disagreeing(&self, area: Area) -> Option<(usize, Area)> {
        if area.rows() < 2 || area.cols() < 2 {
            return None;
        }
        let named = self.by_corner.get(&area.top_left())?;
        if named.iter().any(|(_, a)| *a == area) {
            return None;
        }
        named.first().copied()
    }
}
