//! SUM, COUNT, COUNTA, COUNTBLANK, MAX, MIN, SUMPRODUCT, COUNTIF, COUNTIFS
//! and SUMIF on small sheets: Excel's rule for what counts (from ranges
//! only numbers, typed directly also booleans and numeric text), error
//! propagation, every criterion form, and array criteria inside names (the
//! Sudoku solver's `COUNTIF(range, array1to9)`).

use dataflow::sheet::Sheet;
use dataflow::value::{ErrorKind, Value};

fn n(x: f64) -> Value {
    Value::Number(x)
}

fn err(e: ErrorKind) -> Value {
    Value::Error(e)
}

/// A sheet with the given cells, recalculated.
fn sheet(cells: &[(&str, &str)]) -> Sheet {
    let mut s = Sheet::new();
    for (a, v) in cells {
        s.set(a, v);
    }
    s.recalc();
    s
}

/// B1:B6 = 1, "3" (text from a formula), TRUE, empty, -2.5, "" (formula).
fn mixed() -> Sheet {
    sheet(&[("B1", "1"), ("B2", "=\"3\""), ("B3", "TRUE"), ("B5", "-2.5"), ("B6", "=\"\"")])
}

#[test]
fn sum_counts_only_numbers_in_ranges() {
    let mut s = mixed();
    assert_eq!(s.eval("=SUM(B1:B6)"), n(-1.5));
    assert_eq!(s.eval("=SUM(B1:B6,10)"), n(8.5));
    assert_eq!(s.eval("=SUM(B2)"), n(0.0), "numeric text in a cell is ignored");
    assert_eq!(s.eval("=SUM(B:B)"), n(-1.5), "whole columns");
    assert_eq!(s.eval("=SUM({1,\"2\",TRUE})"), n(1.0), "arrays are like ranges");
    assert_eq!(s.eval("=SUM(C1:C9)"), n(0.0));
}

#[test]
fn sum_coerces_direct_arguments() {
    let mut s = mixed();
    assert_eq!(s.eval("=SUM(\"3\",TRUE)"), n(4.0));
    assert_eq!(s.eval("=SUM(\"abc\")"), err(ErrorKind::Value));
    assert_eq!(s.eval("=SUM(B1:B6,\"x\")"), err(ErrorKind::Value));
    assert_eq!(s.eval("=SUM(1,FALSE,\"50%\")"), n(1.5));
}

#[test]
fn count_counta_countblank() {
    let mut s = mixed();
    assert_eq!(s.eval("=COUNT(B1:B6)"), n(2.0));
    assert_eq!(s.eval("=COUNT(\"3\",TRUE,\"abc\",B1)"), n(3.0));
    assert_eq!(s.eval("=COUNT(1/0,#N/A)"), n(0.0), "COUNT skips errors");
    assert_eq!(s.eval("=COUNTA(B1:B6)"), n(5.0), "empty text counts");
    assert_eq!(s.eval("=COUNTA(B1:B10,\"\",1/0)"), n(7.0));
    assert_eq!(s.eval("=COUNTBLANK(B1:B6)"), n(2.0), "an empty cell and a \"\" result");
    assert_eq!(s.eval("=COUNTBLANK(B1:C100)"), n(196.0), "cells outside the stored grid are blank");
    assert_eq!(s.eval("=COUNTBLANK(B1)"), n(0.0));
}

#[test]
fn max_and_min() {
    let mut s = mixed();
    assert_eq!(s.eval("=MAX(B1:B6)"), n(1.0));
    assert_eq!(s.eval("=MIN(B1:B6)"), n(-2.5));
    assert_eq!(s.eval("=MAX(B1:B6,\"7\")"), n(7.0));
    assert_eq!(s.eval("=MIN(B1:B6,TRUE,-3)"), n(-3.0));
    assert_eq!(s.eval("=MAX(B2:B4)"), n(0.0), "nothing numeric gives 0");
    assert_eq!(s.eval("=MIN(C1:C5)"), n(0.0));
    assert_eq!(s.eval("=MAX(-5,-7)"), n(-5.0));
    assert_eq!(s.eval("=MIN(\"x\",1)"), err(ErrorKind::Value));
}

#[test]
fn errors_propagate_through_aggregates() {
    let mut s = sheet(&[("B1", "1"), ("B2", "=1/0"), ("B3", "#N/A")]);
    for f in ["SUM", "MAX", "MIN"] {
        assert_eq!(s.eval(&format!("={f}(B1:B3)")), err(ErrorKind::Div0), "{f}");
        assert_eq!(s.eval(&format!("={f}(B3,B1:B2)")), err(ErrorKind::NA), "{f}");
    }
    assert_eq!(s.eval("=COUNT(B1:B3)"), n(1.0));
    assert_eq!(s.eval("=COUNTA(B1:B3)"), n(3.0));
    assert_eq!(s.eval("=SUMPRODUCT(B1:B3)"), err(ErrorKind::Div0));
}

#[test]
fn sumproduct() {
    let mut s = sheet(&[
        ("B1", "1"),
        ("B2", "2"),
        ("B3", "x"),
        ("C1", "4"),
        ("C2", "5"),
        ("C3", "6"),
        ("D1", "TRUE"),
        ("D2", "=\"7\""),
    ]);
    assert_eq!(s.eval("=SUMPRODUCT(B1:B3,C1:C3)"), n(14.0), "text is 0");
    assert_eq!(s.eval("=SUMPRODUCT(C1:C3)"), n(15.0));
    assert_eq!(s.eval("=SUMPRODUCT(D1:D2,C1:C2)"), n(0.0), "booleans and numeric text in arrays are 0");
    assert_eq!(s.eval("=SUMPRODUCT(--(D1:D2<>\"\"),C1:C2)"), n(9.0));
    assert_eq!(s.eval("=SUMPRODUCT((C1:C3>4)*C1:C3)"), n(11.0), "arguments are array formulas");
    assert_eq!(s.eval("=SUMPRODUCT(B1:B3,C1:C2)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=SUMPRODUCT(B1:B3,{1,2,3})"), err(ErrorKind::Value), "a row is not a column");
    assert_eq!(s.eval("=SUMPRODUCT({1,2;3,4},{1,1;1,1})"), n(10.0));
    assert_eq!(s.eval("=SUMPRODUCT(3,4)"), n(12.0));
}

/// B1:B14 = 1, "2", 2, apple, Apple pie, empty, "", TRUE, #N/A, a*b, a?,
/// 10, empty, ab.
fn criteria_sheet() -> Sheet {
    sheet(&[
        ("B1", "1"),
        ("B2", "=\"2\""),
        ("B3", "2"),
        ("B4", "apple"),
        ("B5", "Apple pie"),
        ("B7", "=\"\""),
        ("B8", "TRUE"),
        ("B9", "#N/A"),
        ("B10", "a*b"),
        ("B11", "a?"),
        ("B12", "10"),
        ("B14", "ab"),
        ("D1", "0"),
        ("E1", "apple"),
    ])
}

#[test]
fn countif_criteria_forms() {
    let mut s = criteria_sheet();
    let cases: &[(&str, f64)] = &[
        ("2", 2.0),
        ("\"2\"", 2.0),
        ("\"=2\"", 2.0),
        ("\">=2\"", 2.0),
        ("\"<=2\"", 2.0),
        ("\"<2\"", 1.0),
        ("\">5\"", 1.0),
        ("\"<>2\"", 12.0),
        ("1", 1.0),
        ("\"apple\"", 1.0),
        ("\"APPLE\"", 1.0),
        ("\"=Apple\"", 1.0),
        ("\"<>apple\"", 13.0),
        ("\">apple\"", 1.0),
        ("\">=apple\"", 2.0),
        ("\"\"", 3.0),
        ("\"=\"", 2.0),
        ("\"<>\"", 12.0),
        ("TRUE", 1.0),
        ("\"true\"", 1.0),
        ("FALSE", 0.0),
        ("#N/A", 1.0),
        ("\"#N/A\"", 1.0),
        ("\"<>#N/A\"", 13.0),
        ("B9", 1.0),
        ("E1", 1.0),
    ];
    for (crit, want) in cases {
        assert_eq!(s.eval(&format!("=COUNTIF(B1:B14,{crit})")), n(*want), "criterion {crit}");
    }
}

#[test]
fn countif_wildcards() {
    let mut s = criteria_sheet();
    let cases: &[(&str, f64)] = &[
        ("apple*", 2.0),
        ("A*", 5.0),
        ("*", 7.0),
        ("?pple", 1.0),
        ("*pie", 1.0),
        ("a?", 2.0),
        ("a~?", 1.0),
        ("a~*b", 1.0),
        ("a*b", 2.0),
        ("*~**", 1.0),
        ("1*", 0.0),
        ("<>a*", 9.0),
        ("~~", 0.0),
    ];
    for (crit, want) in cases {
        assert_eq!(s.eval(&format!("=COUNTIF(B1:B14,\"{crit}\")")), n(*want), "criterion {crit}");
    }
    let mut t = sheet(&[("B1", "~"), ("B2", "x~y")]);
    assert_eq!(t.eval("=COUNTIF(B1:B2,\"~~\")"), n(1.0));
    assert_eq!(t.eval("=COUNTIF(B1:B2,\"x~y\")"), n(1.0), "a lone ~ is literal");
}

#[test]
fn countif_empty_criterion_is_zero() {
    let mut s = criteria_sheet();
    assert_eq!(s.eval("=COUNTIF(D1:D3,C20)"), n(1.0));
    assert_eq!(s.eval("=COUNTIF(B1:B14,C20)"), n(0.0));
}

#[test]
fn countif_range_errors_and_arrays() {
    let mut s = criteria_sheet();
    assert_eq!(s.eval("=COUNTIF(B:B,\"a*\")"), n(5.0));
    assert_eq!(s.eval("=COUNTIF(B:B,\"\")"), n(1_048_576.0 - 11.0));
    assert_eq!(s.eval("=COUNTIF({1,2,2,\"x\"},2)"), n(2.0));
    assert_eq!(s.eval("=SUM(COUNTIF(B1:B14,{1,2,\"a*\"}))"), n(1.0 + 2.0 + 5.0));
    assert_eq!(s.eval("=COUNTIF(B1:B14,{1;2;3})"), n(1.0), "a cell shows the first count");
    assert_eq!(s.eval_at("C2", "=COUNTIF(B1:B14,B1:B3)"), n(2.0), "plain cells intersect the criterion");
}

#[test]
fn countif_array_criterion_inside_names() {
    let mut s = sheet(&[
        ("B1", "5"),
        ("B2", "3"),
        ("B3", "5"),
        ("B4", "9"),
        ("B5", "1"),
        ("B6", "3"),
        ("B7", "=\"7\""),
        ("B9", "x"),
    ]);
    s.name("array1to9", "=ROW($A$1:$A$9)");
    s.name("counts", "=COUNTIF($B$1:$B$9,array1to9)");
    s.name("single", "=MAX((COUNTIF($B$1:$B$9,array1to9)=1)*array1to9)");
    s.name("missing", "=SUM((counts=0)*array1to9)");
    s.name("crit_cells", "=SUM(COUNTIF($B$1:$B$9,$B$1:$B$3))");
    s.set("D1", "=single");
    s.set("D2", "=missing");
    s.set("D3", "=SUM(counts)");
    s.set("D4", "=crit_cells");
    s.set("D5", "=INDEX(counts,5)");
    s.recalc();
    assert_eq!(s.text("D1"), "9", "1, 7 (text) and 9 occur once");
    assert_eq!(s.text("D2"), (2 + 4 + 6 + 8).to_string());
    assert_eq!(s.text("D3"), "7");
    assert_eq!(s.text("D4"), "6", "criteria 5, 3, 5 from cells in array mode");
    assert_eq!(s.text("D5"), "2");
}

#[test]
fn countifs_pairs() {
    let mut s = sheet(&[
        ("B1", "a"),
        ("B2", "b"),
        ("B3", "a"),
        ("B4", "A"),
        ("C1", "1"),
        ("C2", "2"),
        ("C3", "3"),
        ("C4", "4"),
    ]);
    assert_eq!(s.eval("=COUNTIFS(B1:B4,\"a\",C1:C4,\">1\")"), n(2.0));
    assert_eq!(s.eval("=COUNTIFS(B1:B4,\"a\")"), n(3.0));
    assert_eq!(s.eval("=COUNTIFS(B1:B4,\"<>a\",C1:C4,\"<>\")"), n(1.0));
    assert_eq!(s.eval("=COUNTIFS(B1:B4,\"a\",C1:C3,\">1\")"), err(ErrorKind::Value));
    assert_eq!(s.eval("=COUNTIFS(B1:B4,\"a\",C1:C4,\">1\",B1:B4,\"A\")"), n(2.0));
    assert_eq!(s.eval("=SUM(COUNTIFS(B1:B4,{\"a\",\"b\"},C1:C4,\"<4\"))"), n(3.0));
    s.name("per_letter", "=COUNTIFS($B$1:$B$4,{\"a\";\"b\"},$C$1:$C$4,{\">2\",\">0\"})");
    s.set("E1", "=SUM(per_letter)");
    s.set("E2", "=INDEX(per_letter,2,2)");
    s.recalc();
    assert_eq!(s.text("E1"), "6", "a: 2 and 3, b: 0 and 1");
    assert_eq!(s.text("E2"), "1");
}

#[test]
fn sumif_with_and_without_sum_range() {
    let mut s = sheet(&[
        ("B1", "a"),
        ("B2", "b"),
        ("B3", "a"),
        ("B4", "c"),
        ("C1", "10"),
        ("C2", "20"),
        ("C3", "30"),
        ("C4", "=1/0"),
        ("D1", "5"),
        ("D2", "x"),
        ("D3", "7"),
    ]);
    assert_eq!(s.eval("=SUMIF(B1:B4,\"a\",C1:C4)"), n(40.0));
    assert_eq!(s.eval("=SUMIF(B1:B4,\"A\",C1)"), n(40.0), "the sum range takes the range's size");
    assert_eq!(s.eval("=SUMIF(B1:B4,\"<>b\",C1:C4)"), err(ErrorKind::Div0));
    assert_eq!(s.eval("=SUMIF(B1:B4,\"b\",C1:C4)"), n(20.0), "errors elsewhere do not matter");
    assert_eq!(s.eval("=SUMIF(D1:D3,\">1\")"), n(12.0));
    assert_eq!(s.eval("=SUMIF(D1:D3,\"*\")"), n(0.0), "text is not summed");
    assert_eq!(s.eval("=SUMIF(C1:C3,\">=20\")"), n(50.0));
    assert_eq!(s.eval("=SUM(SUMIF(B1:B3,{\"a\",\"b\"},C1:C3))"), n(60.0));
}
