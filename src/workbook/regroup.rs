//! One-cell formulas that are one formula copied (the same in R1C1 terms:
//! equal once each is moved to A1) and fill a rectangle become one range
//! formula over it, as a shared formula group does. Excel stores a filled
//! range as shared formulas, but other writers (dataflow's own export,
//! rust_xlsxwriter, LibreOffice) write each cell's formula, and a shared
//! group whose cells do not fill its range arrives cell by cell: regrouped,
//! `import` writes the Ellis workbook's three range formulas, not 810
//! one-cell entries, and the binder shares one binding per range.
//!
//! Rectangles are grown greedily in row-major order: from the first
//! ungrouped cell, right while the formula repeats, then down while the
//! whole row of the rectangle does. Meaning is unchanged: a cell of a range
//! formula holds the top-left formula moved to it, which is its own.

use crate::address::{Area, CellAddr};
use crate::ast::ExprKind;
use crate::workbook::model::{CellEntry, Content, Workbook};
use crate::workbook::relative;
use std::collections::{BTreeMap, HashSet};

/// Regroups `wb`'s one-cell formulas; the number of entries merged away.
pub(crate) fn regroup(wb: &mut Workbook) -> usize {
    // Each candidate cell: its entry and its formula moved to A1, printed.
    let mut keys: BTreeMap<CellAddr, (usize, String)> = BTreeMap::new();
    for (i, e) in wb.cells.iter().enumerate() {
        let Content::Formula(f) = &e.content else { continue };
        // A formula that did not parse holds #NAME? and keeps its own text.
        if !e.area.is_cell() || e.anchor != e.area.top_left() || matches!(f.expr.kind, ExprKind::Error(_)) {
            continue;
        }
        let mut at_a1 = (*f.expr).clone();
        relative::to_a1(&mut at_a1, (e.anchor.row, e.anchor.col));
        keys.insert(e.anchor, (i, at_a1.to_string()));
    }
    let mut grouped: HashSet<CellAddr> = HashSet::new();
    let mut merged: Vec<(usize, Area, Vec<usize>)> = Vec::new();
    for (&start, (first, key)) in &keys {
        if grouped.contains(&start) {
            continue;
        }
        let free = |c: CellAddr| !grouped.contains(&c) && keys.get(&c).is_some_and(|(_, k)| k == key);
        let mut width = 1;
        while let Some(col) = start.col.checked_add(width)
            && free(CellAddr::new(start.sheet, start.row, col))
        {
            width += 1;
        }
        let mut height = 1;
        while let Some(row) = start.row.checked_add(height)
            && (0..width).all(|d| free(CellAddr::new(start.sheet, row, start.col + d)))
        {
            height += 1;
        }
        if width * height == 1 {
            continue;
        }
        let area = Area::new(start.sheet, start.row, start.col, start.row + height - 1, start.col + width - 1);
        let members: Vec<usize> = area.cells().map(|c| keys[&c].0).collect();
        grouped.extend(area.cells());
        merged.push((*first, area, members));
    }
    let mut gone: HashSet<usize> = HashSet::new();
    for (first, area, members) in &merged {
        wb.cells[*first].area = *area;
        gone.extend(members.iter().filter(|m| *m != first));
    }
    let mut i = 0;
    wb.cells.retain(|_: &CellEntry| {
        i += 1;
        !gone.contains(&(i - 1))
    });
    gone.len()
}

#[cfg(test)]
mod tests {
    use crate::workbook::Workbook;
    use crate::workbook::files::MemoryFiles;

    /// The entries a RON workbook's cells regroup into, as `area: formula`.
    fn regrouped(cells: &str) -> Vec<String> {
        let ron = format!(r#"(sheets: ["Main"], cells: {{ {cells} }})"#);
        let mut wb = Workbook::from_memory(&ron, &MemoryFiles::new(), &[]).unwrap_or_else(|e| panic!("{e}"));
        super::regroup(&mut wb);
        wb.cells
            .iter()
            .map(|e| format!("{}: {}", wb.sheets.area(e.area), e.content.formula().map_or("", |f| &f.text)))
            .collect()
    }

    #[test]
    fn copied_formulas_that_fill_a_rectangle_become_one() {
        let got = regrouped(r#""B1": "=A1*2", "C1": "=B1*2", "B2": "=A2*2", "C2": "=B2*2", "D1": "=C1*3""#);
        assert_eq!(got, ["Main!B1:C2: =A1*2", "Main!D1: =C1*3"]);
        // Absolute references must match as written; the ragged rest stays.
        let got = regrouped(r#""A1": "=$Z$1", "A2": "=$Z$1", "A3": "=$Z$2", "B1": "=$Z$1""#);
        assert_eq!(got, ["Main!A1:B1: =$Z$1", "Main!A2: =$Z$1", "Main!A3: =$Z$2"]);
    }
}
