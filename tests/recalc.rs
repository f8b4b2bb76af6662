//! Recalculation: dependency order, incremental evaluation, the
//! dependencies of computed references (SUMIF's sum range, `:` with a
//! computed side, LET variables), and Excel's iterative calculation of
//! circular references, as small spreadsheets.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::policy::Order;
use dataflow::testing::Sheet;
use dataflow::value::Value;

#[test]
fn acyclic_cells_are_calculated_once_in_dependency_order() {
    let mut s = Sheet::new();
    s.set("A1", "=B1+C1");
    s.set("B1", "=C1*2");
    s.set("C1", "3");
    let r = s.recalc();
    assert_eq!(s.text("A1"), "9");
    assert_eq!(s.evaluated(), ["B1", "A1"]);
    assert_eq!(r.iterations, 0);
    assert!(r.converged);
}

#[test]
fn setting_a_cell_recalculates_only_its_dependents() {
    let mut s = Sheet::new();
    s.set("A1", "=B1+1");
    s.set("A2", "=C1+1");
    s.set("A3", "=A1*10");
    s.set("B1", "1");
    s.set("C1", "1");
    s.recalc();
    assert_eq!(s.evaluated().len(), 3);
    s.set("B1", "5");
    s.recalc();
    assert_eq!(s.evaluated(), ["A1", "A3"]);
    assert_eq!(s.text("A3"), "60");
    // Same value again: nothing to do.
    s.set("B1", "5");
    s.recalc();
    assert!(s.evaluated().is_empty());
}

#[test]
fn range_dependencies_cover_every_cell_of_the_range() {
    let mut s = Sheet::new();
    s.set("A1", "=SUM(B1:B100)");
    s.set("C1", "=A1");
    s.recalc();
    s.set("B57", "4");
    s.recalc();
    assert_eq!(s.evaluated(), ["A1", "C1"]);
    assert_eq!(s.text("C1"), "4");
}

#[test]
fn a_value_that_does_not_change_stops_propagation() {
    let mut s = Sheet::new();
    s.set("A1", "=IF(B1>0,1,0)");
    s.set("A2", "=A1*2");
    s.set("B1", "1");
    s.recalc();
    s.set("B1", "2");
    s.recalc();
    assert_eq!(s.evaluated(), ["A1"]);
}

#[test]
fn self_reference_counts_to_the_iteration_cap() {
    let mut s = Sheet::new();
    s.iterate(100, 0.001);
    s.set("A1", "=A1+1");
    let r = s.recalc();
    assert_eq!(s.value("A1"), Value::Number(100.0));
    assert_eq!(r.iterations, 100);
    assert!(!r.converged);
    assert_eq!(r.max_change, 1.0);
}

#[test]
fn two_cell_cycle_row_major_sees_updated_values() {
    let mut s = Sheet::new();
    s.iterate(10, 0.001);
    s.set("A1", "=1+A2");
    s.set("A2", "=1+A1");
    let r = s.recalc();
    assert_eq!((s.text("A1"), s.text("A2")), ("19".into(), "20".into()));
    assert_eq!(r.iterations, 10);
    // Each iteration evaluates A1 then A2.
    assert_eq!(&s.evaluated()[..4], ["A1", "A2", "A1", "A2"]);
}

#[test]
fn two_cell_cycle_synchronous_uses_previous_values() {
    let mut s = Sheet::new();
    s.iterate(10, 0.001);
    s.settings_mut().order = Order::Synchronous;
    s.set("A1", "=1+A2");
    s.set("A2", "=1+A1");
    s.recalc();
    assert_eq!((s.text("A1"), s.text("A2")), ("10".into(), "10".into()));
}

#[test]
fn cosine_fixed_point_converges_within_max_change() {
    let mut s = Sheet::new();
    s.iterate(100, 0.001);
    s.set("A1", "=COS(A1)");
    let r = s.recalc();
    assert!(r.converged);
    assert!(r.max_change < 0.001);
    let Value::Number(x) = s.value("A1") else { panic!("not a number") };
    assert!((x - 0.739_085).abs() < 0.002, "{x}");
    assert!(r.iterations > 5 && r.iterations < 100, "{}", r.iterations);
}

#[test]
fn iteration_off_leaves_cycles_alone_and_reports_them() {
    let mut s = Sheet::new();
    s.set("A1", "=A2+1");
    s.set("A2", "=A1+1");
    s.set("B1", "=A1&\"!\"");
    s.set("C1", "=5");
    let r = s.recalc();
    assert_eq!(r.circular.len(), 1);
    assert_eq!(r.circular[0].len(), 2);
    assert_eq!(s.value("A1"), Value::Empty);
    assert_eq!(s.text("B1"), "!");
    assert_eq!(s.text("C1"), "5");
    assert!(!s.value("B1").is_error());
}

#[test]
fn stepping_runs_one_iteration_at_a_time() {
    let mut s = Sheet::new();
    s.iterate(100, 0.001);
    s.set("A1", "=MIN(A1+1,3)");
    s.set("B1", "=A1*10");
    for expected in ["10", "20", "30", "30"] {
        let r = s.step();
        assert_eq!(r.iterations, 1);
        assert_eq!(s.text("B1"), expected, "downstream cell follows each iteration");
    }
    assert!(s.step().converged);
}

#[test]
fn a_never_calculated_cell_reads_as_empty() {
    let mut s = Sheet::new();
    s.iterate(1, 0.001);
    s.set("A1", "=IF(A2=\"\",\"empty\",\"set\")");
    s.set("A2", "=A1");
    s.step();
    assert_eq!(s.text("A1"), "empty");
}

#[test]
fn a_formula_referring_to_an_empty_cell_shows_zero() {
    let mut s = Sheet::new();
    s.set("A1", "=B1");
    s.recalc();
    assert_eq!(s.value("A1"), Value::Number(0.0));
}

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
    // The formulas reach Data!A2 only through their LET variables: OFFSET
    // from `r`, and the range from `a` to Data!A3.
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
fn indirect_is_volatile_and_reads_what_its_text_names_now() {
    let mut s = Sheet::new();
    s.set("A1", "2");
    s.set("B1", "10");
    s.set("B2", "=C9*2");
    s.set("C9", "5");
    s.set("D1", "=INDIRECT(\"B\"&A1)+1");
    s.set("E1", "=D1*100");
    s.set("F1", "=C9");
    s.recalc();
    assert_eq!(s.text("D1"), "11", "B2 is calculated before the INDIRECT that reads it");
    // Nothing changed: the volatile cell is calculated again, its reader is not.
    s.recalc();
    assert_eq!(s.evaluated(), ["D1"]);
    // A cell no formula names: only INDIRECT reads it.
    s.set("C9", "7");
    s.recalc();
    assert_eq!((s.text("D1"), s.text("E1")), ("15".to_string(), "1500".to_string()));
    let mut evaluated = s.evaluated();
    evaluated.sort();
    assert_eq!(evaluated, ["B2", "D1", "E1", "F1"]);
    // The text points elsewhere.
    s.set("A1", "1");
    s.recalc();
    assert_eq!(s.text("D1"), "11");
}

#[test]
fn run_time_references_on_one_sheet_are_not_circular() {
    // Each may read anywhere on the sheet, the other included: they are
    // ordered, not a circular reference (Excel follows what they return).
    let mut s = Sheet::new();
    for (cell, input) in [("C1", "5"), ("C2", "6"), ("B1", "0"), ("B2", "1")] {
        s.set(cell, input);
    }
    s.set("A1", "=OFFSET(C1,B1,0)");
    s.set("A2", "=OFFSET(C1,B2,0)");
    s.set("D1", "=INDIRECT(\"A\"&(B2+1))*10");
    s.set("D2", "=INDIRECT(\"C1\")");
    let r = s.recalc();
    assert!(r.circular.is_empty(), "{:?}", r.circular);
    let shown: Vec<String> = ["A1", "A2", "D1", "D2"].iter().map(|c| s.text(c)).collect();
    assert_eq!(shown, ["5", "6", "60", "5"]);
}

#[test]
fn a_column_of_indirect_cells_with_readers_is_not_circular() {
    let mut s = Sheet::new();
    for r in 1..=50 {
        s.set(&format!("B{r}"), &r.to_string());
        s.set(&format!("A{r}"), "=INDIRECT(\"B\"&ROW())");
        s.set(&format!("C{r}"), &format!("=A{r}*2"));
    }
    s.set("D1", "=SUM(C1:C50)");
    let r = s.recalc();
    assert!(r.circular.is_empty(), "{} cycles", r.circular.len());
    assert_eq!(s.text("D1"), "2550");
}

#[test]
fn a_run_time_reader_is_calculated_after_the_formulas_it_can_reach() {
    let mut s = Sheet::new();
    s.set("C1", "5");
    s.set("A1", "=INDIRECT(\"C1\")");
    s.set("B1", "=A1*10");
    s.set("A2", "=INDIRECT(\"B1\")");
    s.recalc();
    assert_eq!(s.text("A2"), "50");
    s.set("C1", "6");
    s.recalc();
    assert_eq!(s.text("A2"), "60");
}
