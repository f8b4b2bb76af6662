//! Lookup and reference functions where binding and recalculation matter:
//! INDEX, ROW, OFFSET and friends fold to fixed references when they only
//! look at positions, and ranges built from INDEX or OFFSET follow their
//! cells. The plain value checks are in `tests/formulas/lookup.txt`.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::sheet::n;
use dataflow::address::{Area, CellAddr};
use dataflow::eval::BExpr;
use dataflow::eval::bind::{Binder, Scope};
use dataflow::parse::parse_formula;
use dataflow::testing::Sheet;
use dataflow::value::Value;

/// B1:D3 holds 1..9 row by row.
fn grid() -> Sheet {
    let mut s = Sheet::new();
    for (i, cell) in ["B1", "C1", "D1", "B2", "C2", "D2", "B3", "C3", "D3"].iter().enumerate() {
        s.set(cell, &(i + 1).to_string());
    }
    s
}

/// A formula bound at `cell` of a one-sheet workbook without names.
fn bound(formula: &str, cell: CellAddr) -> BExpr {
    let scope = Scope::new(vec!["Sheet1".into()], Vec::new());
    let expr = parse_formula(formula).expect("formula parses");
    Binder::new(&scope, cell).bind_formula(&expr, cell)
}

#[test]
fn reference_functions_fold_without_reading_cells() {
    let a1 = CellAddr::new(0, 0, 0);
    let area = |r0, c0, r1, c1| BExpr::Const(Value::Ref(Area::new(0, r0, c0, r1, c1)));
    assert_eq!(bound("=INDEX(B1:D3,2,0)", a1), area(1, 1, 1, 3));
    assert_eq!(bound("=INDEX(B1:D3,1,1):INDEX(B1:D3,2,2)", a1), area(0, 1, 1, 2));
    assert_eq!(bound("=INDEX(B1:B3,ROW())", CellAddr::new(0, 2, 0)), area(2, 1, 2, 1));
    assert_eq!(bound("=OFFSET(B1,1,2,2,1)", a1), area(1, 3, 2, 3));
    assert_eq!(bound("=ROWS(B1:D3)+COLUMN(C9)", a1), BExpr::Const(Value::Number(6.0)));
    assert_eq!(bound("=ROW(B2:B9)", a1), BExpr::Const(Value::Number(2.0)));
    // MATCH reads its range, so it stays a call.
    assert!(matches!(bound("=MATCH(1,B1:B3,0)", a1), BExpr::Call(..)));
}

#[test]
fn index_results_are_references() {
    let mut s = grid();
    s.set("A1", "=SUM(INDEX(B1:D3,1,1):INDEX(B1:D3,2,2))");
    s.set("A2", "=COUNTIF(INDEX(B1:D3,1,1):INDEX(B1:D3,3,1),\">3\")");
    s.set("A3", "=SUM(B1:INDEX(B1:D3,2,3))");
    s.recalc();
    assert_eq!(s.value("A1"), n(12.0));
    assert_eq!(s.value("A2"), n(2.0));
    assert_eq!(s.value("A3"), n(21.0));
    // The ranges built from INDEX follow their cells.
    s.set("C2", "50");
    s.recalc();
    assert_eq!(s.value("A1"), n(57.0));
    assert_eq!(s.value("A3"), n(66.0));
}

#[test]
fn index_with_cell_indexes_recalculates() {
    let mut s = grid();
    s.set("F1", "2");
    s.set("A1", "=INDEX(B1:D3,F1,F1)");
    s.recalc();
    assert_eq!(s.value("A1"), n(5.0));
    s.set("F1", "3");
    s.recalc();
    assert_eq!(s.value("A1"), n(9.0));
}

/// Index arguments are truncated toward zero: a fraction above -1 is 0
/// (the whole row or column), -1 and below are #VALUE!, past the edge
/// #REF!; on arrays and on references alike.
#[test]
fn index_arguments_are_truncated() {
    let mut s = grid();
    s.set("F1", "-0.5");
    s.set("A1", "=INDEX({10,20,30},2.9)");
    s.set("A2", "=SUM(INDEX({10,20,30},1,F1))");
    s.set("A3", "=INDEX({10,20,30},-1)");
    s.set("A4", "=SUM(INDEX(B1:D3,F1,1))");
    s.set("A5", "=INDEX(B1:D3,-1.5,1)");
    s.set("A6", "=INDEX({10,20,30},3.99)");
    s.set("A7", "=INDEX({10,20,30},4)");
    s.recalc();
    let shown = ["A1", "A2", "A3", "A4", "A5", "A6", "A7"].map(|c| s.text(c));
    assert_eq!(shown, ["20", "60", "#VALUE!", "12", "#VALUE!", "30", "#REF!"]);
}

#[test]
fn offset_results_follow_their_cells() {
    let mut s = grid();
    s.set("A1", "=OFFSET(B1,1,1)");
    s.set("A2", "=SUM(OFFSET(B1,0,0,3,3))");
    s.recalc();
    assert_eq!(s.value("A1"), n(5.0));
    assert_eq!(s.value("A2"), n(45.0));
    // The moved range follows its cells.
    s.set("C2", "50");
    s.recalc();
    assert_eq!(s.value("A1"), n(50.0));
    assert_eq!(s.value("A2"), n(90.0));
}

#[test]
fn offset_with_cell_arguments() {
    // The formula sits on another sheet than everything OFFSET may reach.
    let mut s = Sheet::with_sheets(&["Sheet1", "Sheet2"]);
    for (i, cell) in ["B1", "C1", "D1", "B2", "C2", "D2", "B3", "C3", "D3"].iter().enumerate() {
        s.set(cell, &(i + 1).to_string());
    }
    s.set("F1", "2");
    s.set("Sheet2!A1", "=OFFSET(Sheet1!B1,Sheet1!F1,Sheet1!F1)");
    s.recalc();
    assert_eq!(s.value("Sheet2!A1"), n(9.0));
    s.set("F1", "1");
    s.recalc();
    assert_eq!(s.value("Sheet2!A1"), n(5.0));
}

#[test]
fn offset_with_cell_arguments_on_the_same_sheet() {
    let mut s = grid();
    s.set("F1", "2");
    s.set("A1", "=OFFSET(B1,F1,F1)");
    s.recalc();
    assert_eq!(s.value("A1"), n(9.0));
    s.set("F1", "1");
    s.recalc();
    assert_eq!(s.value("A1"), n(5.0));
}

#[test]
fn offset_with_computed_arguments_is_no_cycle_on_its_own_sheet() {
    let mut s = Sheet::new();
    s.set("C1", "3");
    s.set("B1", "=C1*2");
    s.set("D1", "1");
    s.set("A1", "=OFFSET(A1,0,D1)"); // reads B1, a formula: calculated after it
    s.set("E1", "=A1+1"); // reads the OFFSET cell
    let r = s.recalc();
    assert!(r.circular.is_empty(), "{:?}", r.circular);
    assert_eq!((s.text("A1"), s.text("E1")), ("6".into(), "7".into()));
    s.set("C1", "4");
    s.recalc();
    assert_eq!((s.text("A1"), s.text("E1")), ("8".into(), "9".into()));
    s.set("D1", "2");
    s.recalc();
    assert_eq!((s.text("A1"), s.text("E1")), ("4".into(), "5".into()));
}
