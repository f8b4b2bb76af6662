//! Moving a formula's relative references, with the binder's wrap-around
//! at the sheet edges; shared by the Excel reader and the exporters.
//!
//! Excel stores a name's relative references relative to A1, wrapping
//! around the sheet's edges: "the cell 12 rows up", defined at D16, is
//! stored `Main!A1048565`; "the cell to the left" is `Main!XFD1`.
//! [`rebase`] (reading) takes every relative row and column as a signed
//! offset from A1 in `[-size/2, size/2)` and returns the anchor nearest A1
//! from which every one of them lands on the sheet without wrapping;
//! [`to_a1`] (writing) is its converse: the text a name anchored elsewhere
//! has when re-expressed from A1. [`shift`] moves a formula entered over a
//! range to one of its cells, as the binder does when it binds that cell.

use crate::address::{CellAddr, MAX_COLS, MAX_ROWS};
use crate::ast::{Axis, Expr, ExprKind, RefKind};

/// Re-expresses the A1-relative references of a name's formula from the
/// anchor it returns, (row, column), 0-based.
pub fn rebase(expr: &mut Expr) -> (u32, u32) {
    let (mut up, mut left) = (0i64, 0i64);
    axes(expr, &mut |axis, row| {
        let d = signed(axis.index, if row { MAX_ROWS } else { MAX_COLS });
        if row {
            up = up.max(-d);
        } else {
            left = left.max(-d);
        }
    });
    axes(expr, &mut |axis, row| {
        let (size, base) = if row { (MAX_ROWS, up) } else { (MAX_COLS, left) };
        axis.index = (base + signed(axis.index, size)) as u32;
    });
    (up as u32, left as u32)
}

/// Moves every relative reference by `rows` and `cols`, wrapping around
/// the sheet's edges (as the binder resolves them).
pub fn shift(expr: &mut Expr, rows: i64, cols: i64) {
    axes(expr, &mut |axis, row| {
        let (size, by) = if row { (MAX_ROWS, rows) } else { (MAX_COLS, cols) };
        axis.index = (i64::from(axis.index) + by).rem_euclid(i64::from(size)) as u32;
    });
}

/// The formula of a range entry whose top-left cell is `origin`, as cell
/// `cell` of the range holds it (Ctrl+Enter: moved by `cell - origin`).
pub fn moved_to(expr: &Expr, origin: CellAddr, cell: CellAddr) -> Expr {
    let mut e = expr.clone();
    shift(&mut e, i64::from(cell.row) - i64::from(origin.row), i64::from(cell.col) - i64::from(origin.col));
    e
}

/// A name's formula, written from its anchor (row, column), re-expressed
/// relative to A1 with wrap-around, as Excel stores it: [`rebase`] reads
/// it back to the same meaning.
pub fn to_a1(expr: &mut Expr, (row, col): (u32, u32)) {
    shift(expr, -i64::from(row), -i64::from(col));
}

/// Gives every reference written without a sheet the sheet `sheet`.
pub fn qualify(expr: &mut Expr, sheet: &str) {
    match &mut expr.kind {
        ExprKind::Ref(r) if r.sheet.is_none() => r.sheet = Some(sheet.to_string()),
        ExprKind::Call { args, .. } => args.iter_mut().for_each(|a| qualify(a, sheet)),
        ExprKind::Unary { expr, .. } => qualify(expr, sheet),
        ExprKind::Binary { lhs, rhs, .. } => {
            qualify(lhs, sheet);
            qualify(rhs, sheet);
        }
        _ => {}
    }
}

/// A relative coordinate stored from A1 with wrap-around, as an offset in
/// `[-size/2, size/2)`.
fn signed(index: u32, size: u32) -> i64 {
    let i = i64::from(index);
    if i >= i64::from(size / 2) { i - i64::from(size) } else { i }
}

/// Calls `f` on every relative axis of every reference (true for a row).
fn axes(expr: &mut Expr, f: &mut impl FnMut(&mut Axis, bool)) {
    let mut visit = |a: &mut Axis, row: bool| {
        if !a.abs {
            f(a, row);
        }
    };
    match &mut expr.kind {
        ExprKind::Ref(r) => match &mut r.kind {
            RefKind::Cell { row, col } => {
                visit(row, true);
                visit(col, false);
            }
            RefKind::Area { r0, c0, r1, c1 } => {
                visit(r0, true);
                visit(c0, false);
                visit(r1, true);
                visit(c1, false);
            }
            RefKind::Cols { c0, c1 } => {
                visit(c0, false);
                visit(c1, false);
            }
            RefKind::Rows { r0, r1 } => {
                visit(r0, true);
                visit(r1, true);
            }
        },
        ExprKind::Call { args, .. } => args.iter_mut().for_each(|a| axes(a, f)),
        ExprKind::Unary { expr, .. } => axes(expr, f),
        ExprKind::Binary { lhs, rhs, .. } => {
            axes(lhs, f);
            axes(rhs, f);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_formula;

    fn moved(text: &str, f: impl Fn(&mut Expr)) -> String {
        let mut e = parse_formula(text).unwrap();
        f(&mut e);
        e.to_string()
    }

    #[test]
    fn a_name_written_from_a1_wraps_and_reads_back_to_its_meaning() {
        // `Main!D4` at D16 is "12 rows up": A1048565 from A1.
        assert_eq!(moved("Main!D4", |e| to_a1(e, (15, 3))), "Main!A1048565");
        assert_eq!(moved("ROW(Main!A1)", |e| to_a1(e, (15, 3))), "ROW(Main!XFB1048562)");
        assert_eq!(moved("Main!$D$4+Main!C$5", |e| to_a1(e, (15, 3))), "Main!$D$4+Main!XFD$5");
        let mut e = parse_formula("Main!A1048565").unwrap();
        assert_eq!(rebase(&mut e), (12, 0));
    }

    #[test]
    fn shift_moves_relative_references_with_wrap_around() {
        assert_eq!(moved("A1+$B$2+C$3:$D4", |e| shift(e, 2, 1)), "B3+$B$2+D$3:$D6");
        assert_eq!(moved("A1", |e| shift(e, -1, -1)), "XFD1048576");
        assert_eq!(moved("SUM(A:B,3:4)", |e| shift(e, 1, 1)), "SUM(B:C,4:5)");
        assert_eq!(moved("A1+Other!B2", |e| qualify(e, "Main")), "Main!A1+Other!B2");
    }
}
