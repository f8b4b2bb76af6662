//! Excel's way with problems (`Workbook::excel_errors`): an Excel file
//! always loads as Excel loads it, a formula dataflow cannot read showing
//! `#NAME?` and listed once as a warning with its cell; a RON workbook
//! refuses its own typos unless it asks for Excel's way with
//! `excel_errors: true`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::session::Session;
use dataflow::value::{ErrorKind, Value};
use dataflow::workbook::Workbook;
use dataflow::workbook::files::MemoryFiles;

fn ron(excel_errors: bool) -> String {
    format!(
        r#"(sheets: ["Main"], excel_errors: {excel_errors}, include: ["f.dfl"], cells: {{ "Main!A1": 2, "Main!A3": "=SUMM(A1)" }})"#
    )
}

const DFL: &str = "cells Main!B1:B3 = A1*rate\ncells Main!C1 = A1+*\nname twice = 1\nname TWICE = 2\n";

fn value(s: &Session, a1: &str) -> Value {
    s.engine().get(s.area(a1).unwrap().top_left()).clone()
}

#[test]
fn a_ron_workbook_refuses_its_typos_unless_it_asks_for_excels_way() {
    let files = MemoryFiles::new().with("f.dfl", DFL);
    let refused = Workbook::from_memory(&ron(false), &files, &[]).unwrap_err();
    assert!(refused.iter().any(|d| d.message.contains("cannot parse the formula")), "{refused}");
    assert!(refused.iter().any(|d| d.message.contains("defined twice")), "{refused}");
    let wb = Workbook::from_memory(&ron(true), &files, &[]).unwrap();
    let mut s = Session::new(wb).unwrap();
    s.recalc();
    let name = Value::Error(ErrorKind::Name);
    assert_eq!(value(&s, "C1"), name, "a formula that does not parse shows #NAME?");
    assert_eq!(value(&s, "A3"), name, "an unknown function");
    assert_eq!((value(&s, "B1"), value(&s, "B3")), (name.clone(), name), "an unknown name");
    let messages: Vec<&str> = s.warnings().iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages.iter().filter(|m| m.contains("unknown name `rate`")).count(), 1, "once: {messages:?}");
    assert!(messages.iter().any(|m| m.contains("unknown function `SUMM`")), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("defined twice")), "{messages:?}");
    let rate = s.warnings().iter().find(|d| d.message.contains("rate")).unwrap();
    assert_eq!(rate.cell.as_deref(), Some("Main!B1"), "the first cell that uses it");
    assert_eq!(rate.location().as_deref(), Some("f.dfl:1:23"));
    assert!(rate.render_warning(false).starts_with("warning: unknown name `rate`"));
    // The first of the two names is kept.
    assert_eq!(s.workbook().name("twice").unwrap().formula.text.trim(), "1");
}

#[test]
fn an_imported_excel_file_with_problems_loads_again_from_its_ron() {
    let wb = Workbook::from_memory(&ron(true), &MemoryFiles::new().with("f.dfl", DFL), &[]).unwrap();
    let written = dataflow::workbook::write_ron::write(&wb, "f2.dfl", "a test");
    assert!(written.ron.contains("excel_errors: true"), "{}", written.ron);
    let again = Workbook::from_memory(&written.ron, &MemoryFiles::new().with("f2.dfl", written.dfl), &[]);
    assert!(again.is_ok(), "{:?}", again.err());
}

mod xlsx;

/// What Excel 365 writes for dynamic arrays: `@` as `_xlfn.SINGLE`, a spill
/// reference as `_xlfn.ANCHORARRAY`, and an empty `<f ca="1"/>` on a cell a
/// spill covers. The file loads; `@` intersects, a spill reference is a
/// located #NAME? until spills are computed, the empty formula keeps its
/// saved value, each with one warning.
#[test]
fn an_excel_365_file_with_dynamic_arrays_loads() {
    let cells = vec![
        xlsx::num("A1", 10.0),
        xlsx::num("A2", 20.0),
        xlsx::num("A3", 30.0),
        xlsx::formula("B2", "_xlfn.SINGLE(A1:A3)*2", Some(40.0)),
        xlsx::formula("C1", "_xlfn.SEQUENCE(3)", Some(1.0)),
        r#"<c r="C2"><f ca="1"/><v>2</v></c>"#.to_string(),
        r#"<c r="C3"><f ca="1"/><v>3</v></c>"#.to_string(),
        xlsx::formula("D1", "SUM(_xlfn.ANCHORARRAY(C1))", Some(6.0)),
    ];
    let path = xlsx::Book::default().sheet("Main", cells).write("dynamic.xlsx");
    let mut s = Session::load(&path).unwrap_or_else(|e| panic!("{e}"));
    s.recalc();
    assert_eq!(value(&s, "B2"), Value::Number(40.0), "@ by implicit intersection");
    assert_eq!((value(&s, "C2"), value(&s, "C3")), (Value::Number(2.0), Value::Number(3.0)), "saved values kept");
    assert_eq!(value(&s, "D1"), Value::Error(ErrorKind::Name));
    let messages: Vec<String> = s.warnings().iter().map(|d| d.message.clone()).collect();
    assert!(
        messages.iter().any(|m| m.contains("2 cells with an empty formula") && m.contains("first Main!C2")),
        "{messages:?}"
    );
    let anchor =
        s.warnings().iter().find(|d| d.message.contains("ANCHORARRAY")).expect("a warning for the spill reference");
    assert_eq!(anchor.cell.as_deref(), Some("Main!D1"));
}
