//! Workbook names: any formula, relative references anchored at a cell,
//! evaluated as array formulas, loops reported, never a hang.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::testing::Sheet;
use dataflow::value::Value;

#[test]
fn relative_name_moves_with_the_calling_cell() {
    let mut s = Sheet::with_sheets(&["Main"]);
    s.name_at("in_cell_from_sol", "Main!D16", "=Main!D4");
    s.set("E5", "7");
    s.set("E17", "=in_cell_from_sol");
    s.set("D16", "=in_cell_from_sol");
    s.set("D4", "3");
    s.recalc();
    assert_eq!(s.text("E17"), "7");
    assert_eq!(s.text("D16"), "3");
}

#[test]
fn row_of_a_relative_name_counts_from_its_anchor() {
    let mut s = Sheet::with_sheets(&["Main"]);
    s.name_at("r", "Main!P4", "=ROW(Main!A1)");
    s.name_at("c", "Main!P4", "=COLUMN(Main!A1)");
    s.set("P4", "=r");
    s.set("R7", "=r*100+c");
    s.recalc();
    assert_eq!(s.text("P4"), "1");
    assert_eq!(s.text("R7"), "403");
}

#[test]
fn relative_references_wrap_around_the_sheet_edge() {
    let mut s = Sheet::new();
    s.name_at("up", "A2", "=A1");
    s.set("A1", "=ROW(up)");
    s.set("A2", "=COLUMN(left)");
    s.name_at("left", "B1", "=A1");
    s.recalc();
    assert_eq!(s.text("A1"), "1048576");
    assert_eq!(s.text("A2"), "16384");
}

#[test]
fn names_are_evaluated_as_array_formulas() {
    let mut s = Sheet::new();
    s.set("B1", "1");
    s.set("B2", "2");
    s.set("B3", "2");
    s.name("arr", "=ROW($A$1:$A$3)");
    s.name("single", "=MAX((COUNTIF($B$1:$B$3,arr)=1)*arr)");
    s.set("D1", "=single");
    s.recalc();
    assert_eq!(s.text("D1"), "1");
}

#[test]
fn names_may_use_names_defined_later() {
    let mut s = Sheet::new();
    s.name("a", "=b*2");
    s.name("b", "=21");
    s.set("A1", "=a");
    s.recalc();
    assert_eq!(s.text("A1"), "42");
}

#[test]
fn a_name_loop_is_reported_with_its_chain() {
    let mut s = Sheet::new();
    s.name("a", "=b+1");
    s.name("b", "=c+1");
    s.name("c", "=a+1");
    s.set("A1", "=a");
    s.recalc();
    let issues = s.issues();
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert!(issues[0].contains("a -> b -> c -> a"), "{issues:?}");
    assert_eq!(s.value("A1"), Value::Error(dataflow::value::ErrorKind::Name));
}

#[test]
fn unknown_names_and_functions_are_reported_and_evaluate_to_name_error() {
    let mut s = Sheet::new();
    s.set("A1", "=nosuch+1");
    s.set("A2", "=NOSUCHFN(1)");
    s.set("A3", "=IFERROR(nosuch,5)");
    s.recalc();
    assert_eq!(s.text("A1"), "#NAME?");
    assert_eq!(s.text("A2"), "#NAME?");
    assert_eq!(s.text("A3"), "5");
    let issues = s.issues();
    assert!(issues.iter().any(|i| i.contains("unknown name `nosuch`")), "{issues:?}");
    assert!(issues.iter().any(|i| i.contains("unknown function `NOSUCHFN`")), "{issues:?}");
}

#[test]
fn exponential_name_expansion_is_refused() {
    let mut s = Sheet::new();
    s.name("x_0", "=A2");
    for i in 1..40 {
        s.name(&format!("x_{i}"), &format!("=x_{0}+x_{0}", i - 1));
    }
    s.set("A1", "=x_39");
    s.recalc();
    assert!(s.issues().iter().any(|i| i.contains("larger than")), "{:?}", s.issues());
    assert!(s.value("A1").is_error());
}

#[test]
fn index_with_position_arguments_is_resolved_once_per_cell() {
    let mut s = Sheet::with_sheets(&["Main"]);
    s.name("board", "=Main!$B$2:$D$4");
    s.name_at("diag", "Main!F2", "=INDEX(board, ROW(Main!A1), ROW(Main!A1))");
    for (c, v) in [("B2", "1"), ("C3", "2"), ("D4", "3"), ("C2", "9")] {
        s.set(c, v);
    }
    s.set("F2", "=diag");
    s.set("F3", "=diag");
    s.set("F4", "=diag");
    s.recalc();
    assert_eq!([s.text("F2"), s.text("F3"), s.text("F4")], ["1", "2", "3"]);
    // F3 reads C3 only: changing C2 evaluates nothing.
    s.set("C2", "8");
    s.recalc();
    assert!(s.evaluated().is_empty(), "{:?}", s.evaluated());
    s.set("C3", "5");
    s.recalc();
    assert_eq!(s.evaluated(), ["F3"]);
}
