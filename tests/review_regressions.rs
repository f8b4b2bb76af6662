//! Regressions found in review: dependencies of computed references,
//! folding under SUMPRODUCT, size caps, whole-column criteria, and
//! rebuilding after edits. Each case failed before its fix.

use dataflow::sheet::Sheet;
use dataflow::value::{ErrorKind, Value};

#[test]
fn sumif_sum_range_extends_and_is_a_dependency() {
    let mut s = Sheet::new();
    for r in 1..=3 {
        s.set(&format!("A{r}"), "1");
        s.set(&format!("B{r}"), &r.to_string());
    }
    s.set("C5", "=SUMIF(A1:A3,\">0\",B1)");
    s.recalc();
    assert_eq!(s.text("C5"), "6");
    s.set("B2", "10");
    s.recalc();
    assert_eq!(s.text("C5"), "14");
}

#[test]
fn range_operator_across_sheets_depends_on_the_whole_box() {
    let mut s = Sheet::with_sheets(&["S1", "S2"]);
    s.set("B1", "3");
    s.set("S2!B2", "1");
    s.set("A1", "=SUM(INDEX(S2!A1:A10,B1):S2!C1)");
    s.recalc();
    assert_eq!(s.text("A1"), "1");
    s.set("S2!B2", "5");
    s.recalc();
    assert_eq!(s.text("A1"), "5");
}

#[test]
fn let_variables_carry_their_dependencies() {
    // OFFSET with computed arguments depends on the whole of its sheet, so
    // it is placed on another sheet (on its own sheet it would read itself).
    let mut s = Sheet::with_sheets(&["Data", "Out"]);
    s.set("Data!A2", "5");
    s.set("Data!B1", "1");
    s.set("Out!C1", "=LET(r,Data!A1,OFFSET(r,1,0))");
    s.set("Out!D1", "=LET(a,Data!A1,SUM(a:Data!A3))");
    s.recalc();
    assert_eq!((s.text("Out!C1"), s.text("Out!D1")), ("5".into(), "5".into()));
    s.set("Data!A2", "7");
    s.recalc();
    assert_eq!((s.text("Out!C1"), s.text("Out!D1")), ("7".into(), "7".into()));
}

#[test]
fn sumproduct_folds_its_arguments_as_arrays() {
    let mut s = Sheet::new();
    s.set("B1", "=SUMPRODUCT(ROW(A1:A3))");
    s.set("B2", "=SUMPRODUCT((ROW(A1:A5)>2)*1)");
    s.set("B3", "=SUMPRODUCT((C1:C3>0)*1)");
    s.set("C2", "4");
    s.set("E9", "=SUMPRODUCT((C1:C3>0)*1)");
    s.recalc();
    assert_eq!([s.text("B1"), s.text("B2"), s.text("B3"), s.text("E9")], ["6", "3", "1", "1"]);
}

#[test]
fn broadcasting_past_the_array_limit_is_num_error() {
    let mut s = Sheet::new();
    s.name("big", "=ROW($A$1:$A$8192)*COLUMN($A$1:$ZZ$1)");
    s.name("huge", "=ROW($A:$A)*COLUMN($1:$1)");
    s.set("B1", "=SUM(big)");
    s.set("B2", "=SUM(huge)");
    s.recalc();
    assert_eq!(s.value("B1"), Value::Error(ErrorKind::Num));
    assert_eq!(s.value("B2"), Value::Error(ErrorKind::Num));
}

#[test]
fn concatenation_past_the_text_limit_is_value_error() {
    let mut s = Sheet::new();
    s.set("A1", "=LEN(REPT(\"a\",32767)&\"b\")");
    s.set("A2", "=LEN(REPT(\"a\",32766)&\"b\")");
    s.recalc();
    assert_eq!(s.value("A1"), Value::Error(ErrorKind::Value));
    assert_eq!(s.text("A2"), "32767");
}

#[test]
fn whole_column_criteria_count_the_empty_rest_at_once() {
    let mut s = Sheet::new();
    s.set("A1", "1");
    s.set("B1", "1");
    s.set("A2", "1");
    s.set("C1", "=COUNTIFS(A:A,1,B:B,1)");
    s.set("C2", "=COUNTIFS(A:A,\"\",B:B,\"\")");
    s.set("C3", "=SUMIF(A:A,1,B:B)");
    s.recalc();
    assert_eq!([s.text("C1"), s.text("C2"), s.text("C3")], ["1", "1048574", "1"]);
}

#[test]
fn an_array_with_an_empty_top_left_shows_zero() {
    let mut s = Sheet::new();
    s.name("n", "=IFERROR($A$1:$A$3,0)");
    s.set("A2", "5");
    s.set("C10", "=n");
    s.recalc();
    assert_eq!(s.value("C10"), Value::Number(0.0));
}

#[test]
fn a_constant_turned_formula_updates_its_readers() {
    let mut s = Sheet::new();
    s.set("A1", "5");
    s.set("B1", "=A1+1");
    s.recalc();
    assert_eq!(s.text("B1"), "6");
    // A1 becomes part of a cycle that is not calculated (iteration off).
    s.set("A1", "=C1");
    s.set("C1", "=A1");
    s.recalc();
    assert_eq!(s.text("B1"), "1", "A1 reads as empty now");
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
