//! Dynamic arrays spilling, as Excel 365: a formula whose value is an
//! array fills the cells to its right and below; `#SPILL!` when something
//! is in the way, recovering when it goes; `A1#` reads the current spill;
//! spilled cells are not editable; a spill that changes shape leaves
//! nothing behind, in a cycle too, in both sweep orders.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::policy::Order;
use dataflow::testing::Sheet;

fn dynamic() -> Sheet {
    Sheet::new().dynamic_arrays()
}

/// A session over the RON workbook `text`.
fn session(text: &str) -> dataflow::session::Session {
    let path = std::path::Path::new("s.ron");
    let wb = dataflow::workbook::Workbook::from_str(text, path, std::path::Path::new(".")).expect("loads");
    dataflow::session::Session::new(wb).expect("fits")
}

/// What a session's cells show, as text.
fn shown_in(s: &dataflow::session::Session, cells: &[&str]) -> Vec<String> {
    cells.iter().map(|c| s.engine().get(s.area(c).unwrap().top_left()).to_string()).collect()
}

/// The values of a column of cells, as text.
fn column(s: &Sheet, cells: &[&str]) -> Vec<String> {
    cells.iter().map(|c| s.text(c)).collect()
}

#[test]
fn an_array_spills_down_and_right() {
    let mut s = dynamic();
    s.set("A1", "=SEQUENCE(3, 2)");
    s.recalc();
    assert_eq!(column(&s, &["A1", "B1", "A2", "B2", "A3", "B3", "A4"]), ["1", "2", "3", "4", "5", "6", ""]);
}

#[test]
fn a_legacy_formula_shows_the_top_left_value_and_spills_nothing() {
    let mut s = Sheet::new();
    s.set("A1", "=SEQUENCE(3)");
    s.recalc();
    assert_eq!(column(&s, &["A1", "A2"]), ["1", ""]);
}

#[test]
fn a_reference_spills_its_values_with_blanks_as_zero() {
    let mut s = dynamic();
    s.set("A1", "x");
    s.set("A3", "3");
    s.set("C1", "=A1:A3");
    s.recalc();
    assert_eq!(column(&s, &["C1", "C2", "C3"]), ["x", "0", "3"]);
}

#[test]
fn a_spill_that_shrinks_clears_what_it_left() {
    let mut s = dynamic();
    s.set("B1", "4");
    s.set("A1", "=SEQUENCE(B1)");
    s.recalc();
    assert_eq!(column(&s, &["A1", "A4", "A5"]), ["1", "4", ""]);
    s.set("B1", "2");
    s.recalc();
    assert_eq!(column(&s, &["A1", "A2", "A3", "A4"]), ["1", "2", "", ""]);
}

#[test]
fn an_obstacle_gives_spill_and_the_anchor_recovers_when_it_goes() {
    let mut s = dynamic();
    s.set("A3", "in the way");
    s.set("A1", "=SEQUENCE(3)");
    s.recalc();
    assert_eq!(column(&s, &["A1", "A2", "A3"]), ["#SPILL!", "", "in the way"]);
    s.try_set("A3", "").expect("A3 is a constant");
    s.recalc();
    assert_eq!(column(&s, &["A1", "A2", "A3"]), ["1", "2", "3"]);
}

#[test]
fn another_formula_or_spill_is_an_obstacle() {
    let mut s = dynamic();
    s.set("A2", "=1+1");
    s.set("A1", "=SEQUENCE(3)");
    s.set("C1", "=SEQUENCE(1, 3)");
    s.set("B1", "=SEQUENCE(2)");
    s.recalc();
    assert_eq!(s.text("A1"), "#SPILL!", "A2 holds a formula");
    assert_eq!(column(&s, &["B1", "B2", "C1", "D1", "E1"]), ["1", "2", "1", "2", "3"]);
    // B4 spills down over B5 before A5 (row-major order) wants A5:C5.
    s.set("A5", "=SEQUENCE(1, 3)");
    s.set("B4", "=SEQUENCE(3)");
    s.recalc();
    assert_eq!(s.text("B4"), "1");
    assert_eq!(s.text("A5"), "#SPILL!", "B5 is B4's");
}

#[test]
fn a_spilled_cell_is_not_editable() {
    let mut s = dynamic();
    s.set("A1", "=SEQUENCE(3)");
    s.recalc();
    let err = s.try_set("A2", "5").expect_err("A2 shows A1's spill");
    assert!(err.contains("A1") && err.contains("A1:A3"), "{err}");
    assert_eq!(s.text("A2"), "2");
}

#[test]
fn the_spill_operator_reads_the_current_spill() {
    let mut s = dynamic();
    s.set("B1", "3");
    s.set("A1", "=SEQUENCE(B1)");
    s.set("C1", "=SUM(A1#)");
    s.set("C2", "=ROWS(A1#)");
    s.set("C3", "=INDEX(A1#, 2)");
    s.set("C4", "=SUM(ANCHORARRAY(A1))");
    s.set("D1", "=A1#*10");
    s.set("E1", "=Sheet1!A1#");
    s.recalc();
    assert_eq!(column(&s, &["C1", "C2", "C3", "C4"]), ["6", "3", "2", "6"]);
    assert_eq!(column(&s, &["D1", "D2", "D3", "D4"]), ["10", "20", "30", ""]);
    assert_eq!(column(&s, &["E1", "E3"]), ["1", "3"]);
    s.set("B1", "5");
    s.recalc();
    assert_eq!(column(&s, &["C1", "C2", "D5", "E5"]), ["15", "5", "50", "5"]);
}

#[test]
fn the_spill_operator_on_a_cell_that_does_not_spill_is_ref() {
    let mut s = dynamic();
    s.set("A1", "7");
    s.set("B1", "=A1#");
    s.set("C1", "=5");
    s.set("D1", "=C1#+1");
    s.set("E3", "x");
    s.set("E1", "=SEQUENCE(3)");
    s.set("F1", "=ISERROR(E1#)");
    s.set("G1", "=ERROR.TYPE(E1#)");
    s.recalc();
    assert_eq!(s.text("B1"), "#REF!", "a constant spills nothing");
    assert_eq!(s.text("D1"), "6", "a dynamic formula of one value is its own spill");
    assert_eq!(column(&s, &["E1", "F1", "G1"]), ["#SPILL!", "TRUE", "9"]);
}

#[test]
fn the_implicit_intersection_operator_takes_one_value() {
    let mut s = dynamic();
    for (c, v) in [("A1", "1"), ("A2", "2"), ("A3", "3")] {
        s.set(c, v);
    }
    s.set("B2", "=@A1:A3");
    s.set("C1", "=@SEQUENCE(3)");
    s.set("D1", "=A1:A3*2");
    s.recalc();
    assert_eq!(column(&s, &["B2", "B3", "C1", "C2"]), ["2", "", "1", ""]);
    assert_eq!(column(&s, &["D1", "D2", "D3"]), ["2", "4", "6"]);
}

/// A reader of spilled cells that comes before the anchor in calculation
/// order (the graph does not know where the anchor will spill) is
/// calculated again in the same recalculation.
#[test]
fn a_reader_before_the_anchor_sees_the_spill() {
    let mut s = dynamic();
    s.set("A1", "=SUM(C2:C3)");
    s.set("B1", "3");
    s.set("C1", "=SEQUENCE(B1)");
    s.recalc();
    assert_eq!(s.text("A1"), "5");
    assert_eq!(s.evaluated(), ["A1", "C1", "A1"], "A1 again once the spill is written");
    s.set("B1", "1");
    s.recalc();
    assert_eq!(column(&s, &["A1", "C2"]), ["0", ""]);
}

/// A spill feeding its own formula through a cell it covers (directly, or
/// through another cell) is a circular reference the graph cannot see
/// before the spill is written: the recalculation reports the cells left
/// unsettled after the closing sweeps, and a settled reader is not one.
#[test]
fn a_spill_feeding_its_own_formula_is_reported_unsettled() {
    for (anchor, formula, other) in [("E1", "=SEQUENCE(2)+E2", None), ("E1", "=SEQUENCE(2)+G1", Some(("G1", "=E2*1")))]
    {
        let mut s = dynamic();
        s.set(anchor, formula);
        if let Some((cell, f)) = other {
            s.set(cell, f);
        }
        let r = s.recalc();
        assert!(!r.unsettled.is_empty(), "{formula}: {r:?}");
        assert!(r.unsettled.iter().any(|c| s.cell_text(*c) == anchor), "{formula}: {r:?}");
    }
    let mut s = dynamic();
    s.set("A1", "=SUM(C2:C3)");
    s.set("C1", "=SEQUENCE(3)");
    assert_eq!(s.recalc().unsettled, [], "a reader before the anchor settles");
}

/// An anchor in a cycle spills each iteration; the shape grows with the
/// count of what it spilled until it settles. Both sweep orders.
#[test]
fn a_spill_in_a_cycle_grows_to_its_fixed_point_in_both_orders() {
    for order in [Order::RowMajor, Order::Synchronous] {
        let mut s = dynamic();
        s.iterate(100, 0.001);
        s.settings_mut().order = order;
        s.set("A1", "=SEQUENCE(MIN(C1+1, 4))");
        s.set("C1", "=COUNT(A1:A10)");
        let r = s.recalc();
        assert!(r.converged, "{order:?}: {r:?}");
        assert_eq!(column(&s, &["A1", "A4", "A5", "C1"]), ["1", "4", "", "4"], "{order:?}");
    }
}

/// A spill whose shape cycles 1, 2, 3 rows: the cells of a longer spill
/// are cleared when a shorter one is written, and the oscillation
/// detector sees the shapes repeat (the anchor's value is its whole array).
#[test]
fn a_spill_whose_shape_oscillates_is_reported_in_both_orders() {
    for order in [Order::RowMajor, Order::Synchronous] {
        let mut s = dynamic();
        s.iterate(100, 0.001);
        s.settings_mut().order = order;
        s.set("A1", "=SEQUENCE(IF(C1>=3, 1, C1+1))");
        s.set("C1", "=COUNT(A1:A10)");
        let r = s.recalc();
        assert!(!r.converged, "{order:?}");
        assert!(r.period.is_some(), "{order:?}: {r:?}");
        let rows = s.text("C1").parse::<usize>().expect("a count");
        let shown = column(&s, &["A1", "A2", "A3", "A4"]);
        let spilled = shown.iter().filter(|v| !v.is_empty()).count();
        assert!(spilled <= 3 && shown[3].is_empty(), "{order:?}: {shown:?} after C1 = {rows}");
    }
}

#[test]
fn an_array_past_the_sheet_edge_is_spill() {
    for (cell, formula) in [("XFD1", "=SEQUENCE(1, 2)"), ("A1048576", "=SEQUENCE(2)"), ("XFC1", "=SEQUENCE(1, 2)")] {
        let mut s = dynamic();
        s.set(cell, formula);
        s.recalc();
        let expected = if cell == "XFC1" { "1" } else { "#SPILL!" };
        assert_eq!(s.text(cell), expected, "{cell}");
    }
}

/// An array past `MAX_ARRAY_CELLS` is `#NUM!` before it can spill; one
/// whose spill would make the grid store more than `MAX_GRID_CELLS` is
/// `#SPILL!`: neither aborts.
#[test]
fn a_spill_past_what_the_grid_stores_is_spill() {
    let mut s = dynamic();
    s.set("B1", "=SEQUENCE(1000000, 20)");
    s.set("KKK1", "=SEQUENCE(2000, 2000)");
    s.recalc();
    assert_eq!(column(&s, &["B1", "B2", "KKK1", "KKK2"]), ["#NUM!", "", "#SPILL!", ""]);
}

/// A state file keeps formula values, not spilled cells: restored, the
/// spilling formula spills again instead of finding its old values in
/// the way.
#[test]
fn a_saved_state_spills_again() {
    use dataflow::state::State;
    let text = r#"Workbook(sheets: ["Main"], dynamic_arrays: true,
        cells: { "Main!B1": 3, "Main!A1": "=SEQUENCE(B1)", "Main!C1": "=SUM(A1#)" })"#;
    let load = || {
        let mut s = session(text);
        s.recalc();
        s
    };
    let saved = State::capture(&load(), "s.ron", 0);
    assert!(saved.cells.0.iter().all(|(c, _)| c != "Main!A2" && c != "Main!A3"), "{:?}", saved.cells);
    let mut again = load();
    saved.apply(&mut again).expect("applies");
    again.recalc();
    assert_eq!(shown_in(&again, &["A1", "A2", "A3", "C1"]), ["1", "2", "3", "6"]);
}

/// Edits through a session (the model edited, the engine rebuilt): a
/// spilling formula changed or cleared leaves nothing behind, a cell it
/// spills over refuses an edit, and clearing an obstacle lets it spill.
#[test]
fn session_edits_respill() {
    use dataflow::session::Session;
    let text = r#"Workbook(sheets: ["Main"], dynamic_arrays: true,
        cells: { "Main!A1": "=SEQUENCE(3)", "Main!C1": "=SUM(A1#)", "Main!D1": "=A3" })"#;
    let mut s = session(text);
    let shown = |s: &Session| shown_in(s, &["A1", "A2", "A3", "C1", "D1"]);
    s.recalc();
    assert_eq!(shown(&s), ["1", "2", "3", "6", "3"]);
    s.set_formula(s.area("A1").unwrap(), "=SEQUENCE(2)").expect("the anchor is editable");
    s.recalc();
    assert_eq!(shown(&s), ["1", "2", "", "3", "0"]);
    let refused = s.enter(s.area("A2").unwrap(), "5").expect_err("A2 shows A1's spill");
    assert!(refused.to_string().contains("Main!A1"), "{refused}");
    s.enter(s.area("A2:A2").unwrap(), "").expect_err("clearing it too");
    s.clear(s.area("A1").unwrap()).expect("clears");
    s.recalc();
    assert_eq!(shown(&s)[..3], ["", "", ""]);
    s.enter(s.area("A3").unwrap(), "=1+1").expect("A3 is free");
    s.set_formula(s.area("A1").unwrap(), "=SEQUENCE(3)").expect("enters");
    s.recalc();
    assert_eq!(shown(&s)[..3], ["#SPILL!", "", "2"]);
    s.clear(s.area("A3").unwrap()).expect("clears the obstacle");
    s.recalc();
    assert_eq!(shown(&s), ["1", "2", "3", "6", "3"]);
}

/// A formula edited in a sheet rebuilds the engine: readers of cells the
/// old spill covered and the new one does not are recalculated.
#[test]
fn a_rebuilt_engine_marks_the_readers_of_released_cells() {
    let mut s = dynamic();
    s.set("B1", "3");
    s.set("A1", "=SEQUENCE(B1)");
    s.set("C1", "=A3");
    s.recalc();
    assert_eq!(s.text("C1"), "3");
    s.set("A1", "=SEQUENCE(2)");
    s.recalc();
    assert_eq!(column(&s, &["A1", "A2", "A3", "C1"]), ["1", "2", "", "0"]);
}

/// Stepping back and forth restores what was spilled with the values: a
/// spill that grew step by step in a cycle shrinks back on `back` (the
/// cells it gave back cleared, `A1#` its old size) and grows again on
/// `forward`, as calculating again would.
#[test]
fn stepping_back_and_forth_restores_the_spills() {
    use dataflow::session::{Session, Timeline};
    let text = r#"Workbook(sheets: ["Main"], dynamic_arrays: true,
        calc: (iterate: true, max_iterations: 100, max_change: 0.001),
        cells: { "Main!A1": "=SEQUENCE(MIN(C1+1, 4))", "Main!C1": "=COUNT(A1:A10)", "Main!D1": "=ROWS(A1#)" })"#;
    let mut s = session(text);
    let shown = |s: &Session| shown_in(s, &["A1", "A2", "A3", "C1"]);
    let mut t = Timeline::new();
    t.step(&mut s);
    t.step(&mut s);
    let two = shown(&s);
    assert_eq!(two, ["1", "2", "", "2"]);
    t.step(&mut s);
    assert_eq!(shown(&s), ["1", "2", "3", "3"]);
    assert!(t.back(&mut s));
    assert_eq!(shown(&s), two);
    assert_eq!(s.engine().grid().spills().covered_in(s.area("A3").unwrap()), None, "A3 is no longer spilled");
    assert!(t.forward(&mut s));
    assert_eq!(shown(&s), ["1", "2", "3", "3"]);
    t.step(&mut s);
    assert_eq!(shown(&s), ["1", "2", "3", "4"]);
}
