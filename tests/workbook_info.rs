//! FORMULATEXT, ISFORMULA, SHEET, SHEETS, CELL and INFO where the formula
//! corpus (one sheet, one-cell formulas) cannot reach: several sheets, a
//! formula entered over a range, and live edits that change a formula but
//! not its value — FORMULATEXT follows the edit, and its undo.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::Workbook;
use dataflow::workbook::files::MemoryFiles;

fn book(cells: &str) -> Session {
    let ron = format!(r#"(sheets: ["Main", "Data Sheet", "Last"], cells: {{ {cells} }})"#);
    let mut s = Session::new(Workbook::from_memory(&ron, &MemoryFiles::new(), &[]).unwrap()).unwrap();
    s.recalc();
    s
}

fn get(s: &Session, a: &str) -> Value {
    s.engine().get(s.area(a).unwrap().top_left()).clone()
}

fn text(s: &str) -> Value {
    Value::text(s)
}

#[test]
fn sheets_are_numbered_and_named_across_the_workbook() {
    let s = book(
        r#""Main!A1": "=SHEET()", "Main!A2": "=SHEET('Data Sheet'!B2)", "Main!A3": "=SHEET(\"last\")",
           "Main!A4": "=SHEETS()", "Main!A5": "=INFO(\"numfile\")",
           "Main!A6": "=CELL(\"address\",'Data Sheet'!C3)", "Main!A7": "=CELL(\"address\",Main!C3)",
           "Last!A1": "=SHEET()", "Last!A2": "=CELL(\"contents\",'Data Sheet'!B2)", "'Data Sheet'!B2": 42"#,
    );
    let expect = [
        ("Main!A1", Value::Number(1.0)),
        ("Main!A2", Value::Number(2.0)),
        ("Main!A3", Value::Number(3.0)),
        ("Main!A4", Value::Number(3.0)),
        ("Main!A5", Value::Number(3.0)),
        ("Main!A6", text("'Data Sheet'!$C$3")),
        ("Main!A7", text("$C$3")),
        ("Last!A1", Value::Number(3.0)),
        ("Last!A2", Value::Number(42.0)),
    ];
    for (cell, want) in expect {
        assert_eq!(get(&s, cell), want, "{cell}");
    }
}

#[test]
fn a_range_formula_shows_each_cells_own_references() {
    let s = book(
        r#""Main!A1:A3": 5, "Main!B1:B3": "=A1*2+$A$1", "Main!C1": "=FORMULATEXT(B1)",
           "Main!C3": "=FORMULATEXT(B3)", "Main!D1": "=FORMULATEXT(Last!A1)", "Last!A1": "=SUM(Main!B1:B3)""#,
    );
    assert_eq!(get(&s, "Main!C1"), text("=A1*2+$A$1"));
    assert_eq!(get(&s, "Main!C3"), text("=A3*2+$A$1"));
    assert_eq!(get(&s, "Main!D1"), text("=SUM(Main!B1:B3)"));
}

#[test]
fn a_formula_reading_its_own_cell_is_no_cycle() {
    let s = book(r#""Main!A1": "=FORMULATEXT(A1)", "Main!A2": "=ISFORMULA(A2)""#);
    assert!(s.engine().program().cycles().next().is_none());
    assert_eq!(get(&s, "Main!A1"), text("=FORMULATEXT(A1)"));
    assert_eq!(get(&s, "Main!A2"), Value::Bool(true));
}

#[test]
fn formulatext_follows_an_edit_that_keeps_the_value_and_its_undo() {
    let mut s = book(r#""Main!A1": "=1+1", "Main!B1": "=FORMULATEXT(A1)", "Main!C1": "=ISFORMULA(A2)""#);
    assert_eq!(get(&s, "Main!B1"), text("=1+1"));
    let a1 = s.area("Main!A1").unwrap();
    let undo = s.set_formula(a1, "=2*1").unwrap();
    s.recalc();
    assert_eq!(get(&s, "Main!A1"), Value::Number(2.0));
    assert_eq!(get(&s, "Main!B1"), text("=2*1"), "the value is the same, the formula is not");
    let a2 = s.area("Main!A2").unwrap();
    let undo2 = s.set_formula(a2, "=A1").unwrap();
    s.recalc();
    assert_eq!(get(&s, "Main!C1"), Value::Bool(true), "a new formula cell");
    s.undo_edit(undo2);
    s.undo_edit(undo);
    s.recalc();
    assert_eq!(get(&s, "Main!B1"), text("=1+1"));
    assert_eq!(get(&s, "Main!C1"), Value::Bool(false));
}
