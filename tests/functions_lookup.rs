//! Lookup and reference functions in small spreadsheets: INDEX (reference
//! and array forms, results used with `:`, SUM, ROWS, COUNTIF), MATCH,
//! ROW, COLUMN, ROWS, COLUMNS and OFFSET, with their errors and their
//! array behaviour inside names.

use dataflow::address::{Area, CellAddr};
use dataflow::eval::BExpr;
use dataflow::eval::bind::{Binder, Scope};
use dataflow::parse::parse_formula;
use dataflow::sheet::Sheet;
use dataflow::value::{ErrorKind, Value};

fn n(x: f64) -> Value {
    Value::Number(x)
}

fn err(e: ErrorKind) -> Value {
    Value::Error(e)
}

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
fn index_picks_cells() {
    let mut s = grid();
    s.set("A1", "=INDEX(B1:D3,2,3)");
    s.set("A2", "=INDEX(B1:D3,3,1)");
    s.recalc();
    assert_eq!(s.value("A1"), n(6.0));
    assert_eq!(s.value("A2"), n(7.0));
    assert_eq!(s.eval("=INDEX(B1:D3,2.9,1.2)"), n(4.0), "indexes are truncated");
    assert_eq!(s.eval("=INDEX(B1:D3,\"2\",\"2\")"), n(5.0));
    assert_eq!(s.eval("=INDEX(B1:B3,2)"), n(4.0), "a column takes one index");
    assert_eq!(s.eval("=INDEX(B2:D2,3)"), n(6.0), "a row takes one index along it");
    assert_eq!(s.eval("=INDEX(B2:D2,1,3)"), n(6.0));
    assert_eq!(s.eval("=INDEX(C2,1,1)"), n(5.0));
    assert_eq!(s.eval("=INDEX(F9:G9,1,1)"), n(0.0), "an empty cell shows 0");
}

#[test]
fn index_whole_rows_and_columns() {
    let mut s = grid();
    s.recalc();
    assert_eq!(s.eval("=SUM(INDEX(B1:D3,2,0))"), n(15.0));
    assert_eq!(s.eval("=ROWS(INDEX(B1:D3,2,0))"), n(1.0));
    assert_eq!(s.eval("=COLUMNS(INDEX(B1:D3,2,0))"), n(3.0));
    assert_eq!(s.eval("=SUM(INDEX(B1:D3,0,2))"), n(15.0));
    assert_eq!(s.eval("=ROWS(INDEX(B1:D3,0,2))"), n(3.0));
    assert_eq!(s.eval("=COLUMNS(INDEX(B1:D3,0,2))"), n(1.0));
    assert_eq!(s.eval("=SUM(INDEX(B1:D3,0,0))"), n(45.0));
    assert_eq!(s.eval("=SUM(INDEX(B1:D3,3))"), n(24.0), "one index on a block is a row");
    assert_eq!(s.eval("=ROW(INDEX(B1:C3,2,0))"), n(2.0));
    assert_eq!(s.eval("=COLUMN(INDEX(B1:D3,0,3))"), n(4.0));
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
    assert_eq!(s.eval("=COUNTIF(INDEX(B1:D3,0,1),1)"), n(1.0));
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

#[test]
fn index_errors() {
    let mut s = grid();
    s.recalc();
    assert_eq!(s.eval("=INDEX(B1:D3,4,1)"), err(ErrorKind::Ref));
    assert_eq!(s.eval("=INDEX(B1:D3,1,4)"), err(ErrorKind::Ref));
    assert_eq!(s.eval("=INDEX(B1:D3,-1,1)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=INDEX(B1:D3,\"x\",1)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=INDEX(B1:D3,1/0,1)"), err(ErrorKind::Div0));
    assert_eq!(s.eval("=INDEX(B1:D3,1,1,2)"), err(ErrorKind::Ref));
    assert_eq!(s.eval("=INDEX(B1:D3,1,1,1)"), n(1.0));
    assert_eq!(s.eval("=INDEX(#N/A,1,1)"), err(ErrorKind::NA));
}

#[test]
fn index_array_form() {
    let mut s = grid();
    s.name("sq", "=B1:D3*B1:D3");
    s.name("picks", "=INDEX(B1:D3,{1,3},2)");
    s.recalc();
    assert_eq!(s.eval("=INDEX({1,2;3,4},2,1)"), n(3.0));
    assert_eq!(s.eval("=INDEX({1,2,3},2)"), n(2.0));
    assert_eq!(s.eval("=INDEX({1;2;3},3)"), n(3.0));
    assert_eq!(s.eval("=SUM(INDEX({1,2;3,4},0,2))"), n(6.0));
    assert_eq!(s.eval("=SUM(INDEX({1,2;3,4},2,0))"), n(7.0));
    assert_eq!(s.eval("=INDEX({1,2;3,4},3,1)"), err(ErrorKind::Ref));
    assert_eq!(s.eval("=INDEX(7,1,1)"), n(7.0));
    assert_eq!(s.eval("=INDEX(sq,3,3)"), n(81.0));
    assert_eq!(s.eval("=SUM(INDEX(sq,2,0))"), n(16.0 + 25.0 + 36.0));
    assert_eq!(s.eval("=SUM(picks)"), n(10.0), "array indexes pick several values");
}

#[test]
fn match_exact() {
    let mut s = Sheet::new();
    for (cell, v) in [("B1", "apple"), ("B2", "Banana"), ("B3", "3"), ("B4", "TRUE"), ("B5", "cherry")] {
        s.set(cell, v);
    }
    s.recalc();
    assert_eq!(s.eval("=MATCH(\"banana\",B1:B5,0)"), n(2.0));
    assert_eq!(s.eval("=MATCH(3,B1:B5,0)"), n(3.0));
    assert_eq!(s.eval("=MATCH(\"3\",B1:B5,0)"), err(ErrorKind::NA), "text never equals a number");
    assert_eq!(s.eval("=MATCH(TRUE,B1:B5,0)"), n(4.0));
    assert_eq!(s.eval("=MATCH(\"ch*\",B1:B5,0)"), n(5.0));
    assert_eq!(s.eval("=MATCH(\"?anana\",B1:B5,0)"), n(2.0));
    assert_eq!(s.eval("=MATCH(\"grape\",B1:B5,0)"), err(ErrorKind::NA));
    assert_eq!(s.eval("=MATCH(\"cherry\",B:B,0)"), n(5.0));
    assert_eq!(s.eval("=MATCH(\"b\",{\"a\",\"b\",\"c\"},0)"), n(2.0));
    assert_eq!(s.eval("=MATCH(F1,B1:B5,0)"), err(ErrorKind::NA), "an empty lookup value");
    assert_eq!(s.eval("=MATCH(1/0,B1:B5,0)"), err(ErrorKind::Div0));
}

#[test]
fn match_approximate() {
    let mut s = Sheet::new();
    for (cell, v) in [("B1", "10"), ("B2", "20"), ("B3", "30"), ("B4", "40"), ("C1", "40"), ("C2", "30"), ("C3", "20")]
    {
        s.set(cell, v);
    }
    s.recalc();
    assert_eq!(s.eval("=MATCH(25,B1:B4)"), n(2.0));
    assert_eq!(s.eval("=MATCH(25,B1:B4,1)"), n(2.0));
    assert_eq!(s.eval("=MATCH(30,B1:B4,1)"), n(3.0));
    assert_eq!(s.eval("=MATCH(99,B1:B4,1)"), n(4.0));
    assert_eq!(s.eval("=MATCH(5,B1:B4,1)"), err(ErrorKind::NA));
    assert_eq!(s.eval("=MATCH(25,B:B)"), n(2.0), "trailing empty cells are skipped");
    assert_eq!(s.eval("=MATCH(25,C1:C3,-1)"), n(2.0));
    assert_eq!(s.eval("=MATCH(40,C1:C3,-1)"), n(1.0));
    assert_eq!(s.eval("=MATCH(50,C1:C3,-1)"), err(ErrorKind::NA));
    assert_eq!(s.eval("=MATCH(2,{1,2,2,3})"), n(3.0), "last of equal values");
    assert_eq!(s.eval("=MATCH(\"c\",{\"a\",\"b\",\"d\"})"), n(2.0));
    assert_eq!(s.eval("=MATCH(25,B1:C4,0)"), err(ErrorKind::NA), "two-dimensional");
}

#[test]
fn match_inside_names_is_element_wise() {
    let mut s = grid();
    s.name("pos", "=MATCH({4,7,99},B1:B3,0)");
    s.recalc();
    assert_eq!(s.eval("=INDEX(pos,1,2)"), n(3.0));
    assert_eq!(s.eval("=INDEX(pos,1,3)"), err(ErrorKind::NA));
    assert_eq!(s.eval("=INDEX(B1:D3,MATCH(7,B1:B3,0),MATCH(8,B3:D3,0))"), n(8.0));
}

#[test]
fn row_and_column() {
    let mut s = Sheet::new();
    s.set("C5", "=ROW()");
    s.set("D5", "=COLUMN()");
    s.set("E7", "=ROW(B2:B9)");
    s.set("E8", "=COLUMN(C1:F1)");
    s.name("rownums", "=ROW($A$1:$A$9)");
    s.name("colnums", "=COLUMN($B$1:$E$3)");
    s.name("here", "=ROW()");
    s.recalc();
    assert_eq!(s.value("C5"), n(5.0));
    assert_eq!(s.value("D5"), n(4.0));
    assert_eq!(s.value("E7"), n(2.0), "the first row outside names");
    assert_eq!(s.value("E8"), n(3.0));
    assert_eq!(s.eval("=SUM(rownums)"), n(45.0));
    assert_eq!(s.eval("=ROWS(rownums)*10+COLUMNS(rownums)"), n(91.0));
    assert_eq!(s.eval("=INDEX(rownums,9)"), n(9.0));
    assert_eq!(s.eval("=SUM(colnums)"), n(2.0 + 3.0 + 4.0 + 5.0));
    assert_eq!(s.eval("=ROWS(colnums)*10+COLUMNS(colnums)"), n(14.0));
    assert_eq!(s.eval_at("B7", "=here"), n(7.0));
    assert_eq!(s.eval("=ROW(XFD1048576)"), n(1_048_576.0));
    assert_eq!(s.eval("=COLUMN(XFD1)"), n(16_384.0));
    assert_eq!(s.eval("=ROW(\"A1\")"), err(ErrorKind::Value));
    assert_eq!(s.eval("=ROW(#REF!)"), err(ErrorKind::Ref));
}

#[test]
fn row_of_whole_column_in_a_name() {
    let mut s = Sheet::new();
    s.name("all", "=ROW($A:$A)");
    s.recalc();
    assert_eq!(s.eval("=ROWS(all)"), n(1_048_576.0));
    assert_eq!(s.eval("=INDEX(all,1048576)"), n(1_048_576.0));
}

#[test]
fn rows_and_columns() {
    let mut s = grid();
    s.recalc();
    assert_eq!(s.eval("=ROWS(B1:D3)"), n(3.0));
    assert_eq!(s.eval("=COLUMNS(B1:D3)"), n(3.0));
    assert_eq!(s.eval("=ROWS(A:A)"), n(1_048_576.0));
    assert_eq!(s.eval("=COLUMNS(1:1)"), n(16_384.0));
    assert_eq!(s.eval("=ROWS({1,2;3,4;5,6})"), n(3.0));
    assert_eq!(s.eval("=COLUMNS({1,2;3,4;5,6})"), n(2.0));
    assert_eq!(s.eval("=ROWS(5)"), n(1.0));
    assert_eq!(s.eval("=ROWS(1/0)"), err(ErrorKind::Div0));
}

#[test]
fn offset_moves_and_resizes() {
    let mut s = grid();
    s.set("A1", "=OFFSET(B1,1,1)");
    s.set("A2", "=SUM(OFFSET(B1,0,0,3,3))");
    s.recalc();
    assert_eq!(s.value("A1"), n(5.0));
    assert_eq!(s.value("A2"), n(45.0));
    assert_eq!(s.eval("=SUM(OFFSET(B1:C2,1,1))"), n(5.0 + 6.0 + 8.0 + 9.0));
    assert_eq!(s.eval("=ROWS(OFFSET(B1,0,0,3,2))"), n(3.0));
    assert_eq!(s.eval("=COLUMNS(OFFSET(B1,0,0,3,2))"), n(2.0));
    assert_eq!(s.eval("=SUM(OFFSET(D3,0,0,-2,-2))"), n(5.0 + 6.0 + 8.0 + 9.0));
    assert_eq!(s.eval("=OFFSET(D3,-2.7,-1)"), n(2.0), "offsets are truncated");
    assert_eq!(s.eval("=SUM(OFFSET(B1,1,0,1,3):D3)"), n(39.0));
    assert_eq!(s.eval("=OFFSET(B1,-1,0)"), err(ErrorKind::Ref));
    assert_eq!(s.eval("=OFFSET(B1,0,-2)"), err(ErrorKind::Ref));
    assert_eq!(s.eval("=OFFSET(A1048576,1,0)"), err(ErrorKind::Ref));
    assert_eq!(s.eval("=OFFSET(B1,0,0,0,1)"), err(ErrorKind::Ref));
    assert_eq!(s.eval("=OFFSET(5,0,0)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=OFFSET(B1,\"x\",0)"), err(ErrorKind::Value));
    // The moved range follows its cells.
    s.set("C2", "50");
    s.recalc();
    assert_eq!(s.value("A1"), n(50.0));
    assert_eq!(s.value("A2"), n(90.0));
}

#[test]
fn offset_inside_names() {
    let mut s = grid();
    s.name("win", "=OFFSET($B$1,1,0,2,3)");
    s.name_at("above", "B5", "=OFFSET(B5,-4,0,3,1)");
    s.recalc();
    assert_eq!(s.eval("=SUM(win)"), n(39.0));
    assert_eq!(s.eval("=ROWS(win)*10+COLUMNS(win)"), n(23.0));
    assert_eq!(s.eval_at("C5", "=SUM(above)"), n(15.0));
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
fn relative_index_in_names() {
    let mut s = grid();
    // A name anchored at B5 whose reference is four rows up (B1), relative.
    s.name_at("up", "B5", "=INDEX(B1:B3,1)");
    s.set("C5", "=up");
    s.set("B5", "=up");
    s.recalc();
    assert_eq!(s.value("B5"), n(1.0));
    assert_eq!(s.value("C5"), n(2.0));
}
