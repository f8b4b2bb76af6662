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

/// Excel 365's cell metadata marking dynamic arrays (`cm="1"`), as Excel
/// writes `xl/metadata.xml`.
const METADATA: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray"><metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes><futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>"#;

/// What Excel 365 writes for dynamic arrays: `@` as `_xlfn.SINGLE`, a
/// spilling formula as an array formula over its spill marked dynamic in
/// the cell metadata, a spill reference as `_xlfn.ANCHORARRAY`. The file
/// loads; `@` intersects, the marked formula spills (its other cells hold
/// no constants to block it), `C1#` reads the spill. An empty `<f ca="1"/>`
/// outside any array (a data table's cell) keeps its saved value, with
/// one warning.
#[test]
fn an_excel_365_file_with_dynamic_arrays_loads() {
    let cells = vec![
        xlsx::num("A1", 10.0),
        xlsx::num("A2", 20.0),
        xlsx::num("A3", 30.0),
        xlsx::formula("B2", "_xlfn.SINGLE(A1:A3)*2", Some(40.0)),
        r#"<c r="C1" cm="1"><f t="array" ref="C1:C3">_xlfn.SEQUENCE(A1/10+2)</f><v>1</v></c>"#.to_string(),
        r#"<c r="C2"><v>2</v></c>"#.to_string(),
        r#"<c r="C3"><v>3</v></c>"#.to_string(),
        xlsx::formula("D1", "SUM(_xlfn.ANCHORARRAY(C1))", Some(6.0)),
        r#"<c r="E1"><f ca="1"/><v>7</v></c>"#.to_string(),
    ];
    let mut parts = xlsx::Book::default().sheet("Main", cells).parts();
    parts.push(("xl/metadata.xml".into(), METADATA.into()));
    let path = xlsx::write_file("dynamic.xlsx", &xlsx::zip_parts(&parts));
    let mut s = Session::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let kinds: Vec<bool> =
        s.workbook().cells.iter().map(|e| matches!(e.content, dataflow::workbook::Content::Dynamic(_))).collect();
    assert_eq!(kinds.iter().filter(|&&d| d).count(), 1, "C1 alone is dynamic");
    s.recalc();
    assert_eq!(value(&s, "B2"), Value::Number(40.0), "@ by implicit intersection");
    let spilled: Vec<Value> = ["C1", "C2", "C3", "C4"].iter().map(|c| value(&s, c)).collect();
    assert_eq!(spilled, [1.0, 2.0, 3.0].map(Value::Number).into_iter().chain([Value::Empty]).collect::<Vec<_>>());
    assert_eq!(value(&s, "D1"), Value::Number(6.0));
    assert_eq!(value(&s, "E1"), Value::Number(7.0), "saved value kept");
    let messages: Vec<String> = s.warnings().iter().map(|d| d.message.clone()).collect();
    assert!(
        messages.iter().any(|m| m.contains("1 cell with an empty formula") && m.contains("Main!E1")),
        "{messages:?}"
    );
    assert_eq!(messages.len(), 1, "{messages:?}");
    // The spill follows its formula: A1 = 20 makes it four rows.
    let a1 = s.area("A1").unwrap().top_left();
    s.set(a1, Value::Number(20.0)).unwrap();
    s.recalc();
    assert_eq!((value(&s, "C4"), value(&s, "D1")), (Value::Number(4.0), Value::Number(10.0)));
}
