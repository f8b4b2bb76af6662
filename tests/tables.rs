//! Excel tables and structured references: declared in a RON workbook or
//! read from an xlsx's table parts, and every form of reference evaluated
//! as Excel does (`Sales[Qty]`, `Sales[[#This Row],[Qty]]`, `[@Qty]` inside
//! the table, `#All`, `#Headers`, `#Data`, `#Totals`, column ranges, the
//! table's name alone, escaped column names). A missing table or column
//! is a located error in RON (a warning and `#REF!` in an Excel file).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod export;
mod xlsx;

use dataflow::session::Session;
use dataflow::value::{ErrorKind, Value};
use dataflow::workbook::Workbook;
use dataflow::workbook::files::MemoryFiles;

fn book(extra: &str) -> String {
    format!(
        r#"(sheets: ["Main"], tables: {{ "Sales": (range: "Main!B2:D6", totals: true) }}, cells: {{
        "Main!B2": "Item", "Main!C2": "Qty", "Main!D2": "Unit price",
        "Main!B3": "bolts", "Main!C3": 12, "Main!D3": 0.25,
        "Main!B4": "nuts", "Main!C4": 8, "Main!D4": 0.5,
        "Main!B5": "hinges", "Main!C5": 2, "Main!D5": 3.5,
        "Main!C6": "=SUM([Qty])",
        "Main!E3:E5": "=Sales[[#This Row],[Qty]]*Sales[[#This Row],[Unit price]]",
        {extra} }})"#
    )
}

fn session(ron: &str) -> Session {
    let mut s = Session::new(Workbook::from_memory(ron, &MemoryFiles::new(), &[]).unwrap()).unwrap();
    s.recalc();
    s
}

fn at(s: &Session, a1: &str) -> Value {
    s.engine().get(s.area(a1).unwrap().top_left()).clone()
}

fn n(x: f64) -> Value {
    Value::Number(x)
}

#[test]
fn every_form_of_structured_reference_names_its_cells() {
    let cases = [
        ("=SUM(Sales[Qty])", n(22.0)),
        ("=ROWS(Sales[#All])", n(5.0)),
        ("=ROWS(Sales[])", n(3.0)),
        ("=Sales[[#Headers],[Unit price]]", Value::text("Unit price")),
        ("=SUM(Sales)", n(26.25)),
        ("=COUNTA(Sales[[#Headers],[#Data],[Item]])", n(4.0)),
        ("=Sales[[#Totals],[Qty]]", n(22.0)),
        ("=SUM(Sales[[Qty]:[Unit price]])", n(26.25)),
        ("=COLUMNS(sales[[unit price]:[item]])", n(3.0)),
        ("=SUM(Sales[[#Data],[#Totals],[Qty]])", n(44.0)),
        ("=Sales[[#This Row],[Qty]]", Value::Error(ErrorKind::Value)),
    ];
    let extra: Vec<String> =
        cases.iter().enumerate().map(|(i, (f, _))| format!(r#""Main!H{}": "{f}""#, i + 1)).collect();
    let s = session(&book(&extra.join(", ")));
    for (i, (f, want)) in cases.iter().enumerate() {
        assert_eq!(&at(&s, &format!("H{}", i + 1)), want, "{f}");
    }
    // This row, from inside the table and beside it.
    assert_eq!((at(&s, "E3"), at(&s, "E5")), (n(3.0), n(7.0)));
    assert_eq!(at(&s, "C6"), n(22.0), "the totals row's unqualified reference is its own table's");
}

#[test]
fn inside_the_table_the_table_may_be_left_out() {
    let ron = book("").replace(r#"range: "Main!B2:D6""#, r#"range: "Main!B2:E6""#).replace(
        r#""Main!E3:E5": "=Sales[[#This Row],[Qty]]*Sales[[#This Row],[Unit price]]","#,
        r#""Main!E2": "Total", "Main!E3:E5": "=[@Qty]*[@[Unit price]]", "Main!E6": "=SUM([Total])","#,
    );
    let s = session(&ron);
    assert_eq!(s.workbook().tables[0].columns, ["Item", "Qty", "Unit price", "Total"], "named by the header row");
    assert_eq!((at(&s, "E4"), at(&s, "E6")), (n(4.0), n(14.0)));
}

#[test]
fn a_missing_table_or_column_is_a_located_error_or_excels_ref() {
    let ron = book(r#""Main!H1": "=SUM(Sale[Qty])", "Main!H2": "=SUM(Sales[Qtty])""#);
    let e = Workbook::from_memory(&ron, &MemoryFiles::new(), &[]).map(Session::new).unwrap().err().unwrap();
    let messages: Vec<&str> = e.iter().map(|d| d.message.as_str()).collect();
    assert!(messages.contains(&"unknown table `Sale`"), "{messages:?}");
    assert!(messages.contains(&"table `Sales` has no column `Qtty`"), "{messages:?}");
    assert_eq!(e[0].cell.as_deref(), Some("Main!H1"));
    let lenient = ron.replacen("(sheets:", "(excel_errors: true, sheets:", 1);
    let s = session(&lenient);
    assert_eq!((at(&s, "H1"), at(&s, "H2")), (Value::Error(ErrorKind::Ref), Value::Error(ErrorKind::Ref)));
    assert_eq!(s.warnings().len(), 2);
}

#[test]
fn badly_declared_tables_are_located_errors() {
    let cases = [
        (r#"(sheets: ["Main"], tables: { "T": (range: "Main!A1:B1") })"#, "has no data row"),
        (
            r#"(sheets: ["Main"], tables: { "T": (range: "Main!A1:B3", columns: ["a"]) })"#,
            "2 columns but 1 column names",
        ),
        (r#"(sheets: ["Main"], tables: { "T": (range: "A1:B3"), "t": (range: "D1:E3") })"#, "defined twice"),
        (r#"(sheets: ["Main"], tables: { "T": (range: "A1:B3"), "U": (range: "B2:E3") })"#, "overlaps the table `T`"),
        (r#"(sheets: ["Main"], tables: { "A1": (range: "C1:D3") })"#, "the table name `A1`"),
    ];
    for (ron, message) in cases {
        let e = Workbook::from_memory(ron, &MemoryFiles::new(), &[]).unwrap_err();
        assert!(e[0].message.contains(message), "{ron}: {e}");
        assert!(e[0].location().is_some(), "{ron}: located");
    }
}

#[test]
fn an_excel_files_tables_are_read_from_its_table_parts() {
    let cells = vec![
        xlsx::text("A1", "Item"),
        xlsx::text("B1", "Qty"),
        xlsx::text("A2", "bolts"),
        xlsx::num("B2", 12.0),
        xlsx::text("A3", "nuts"),
        xlsx::num("B3", 8.0),
        xlsx::formula("D1", "SUM(Stock[Qty])", Some(20.0)),
        xlsx::formula("D2", "Stock[[#This Row],[Qty]]*2", Some(24.0)),
        xlsx::formula("D3", "SUM(Stock[[#Headers],[#Data],[Qty Left'#]])", Some(0.0)),
    ];
    let mut parts = xlsx::Book::default().sheet("Main", cells).parts();
    parts.push((
        "xl/worksheets/_rels/sheet1.xml.rels".into(),
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/table" Target="../tables/table1.xml"/></Relationships>"#
            .into(),
    ));
    parts.push((
        "xl/tables/table1.xml".into(),
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<table xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" id="1" name="Table1" displayName="Stock" ref="A1:C3"><tableColumns count="3"><tableColumn id="1" name="Item"/><tableColumn id="2" name="Qty"/><tableColumn id="3" name="Qty Left#"/></tableColumns></table>"#
            .into(),
    ));
    let path = xlsx::write_file("table.xlsx", &xlsx::zip_parts(&parts));
    let mut s = Session::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.workbook().tables.len(), 1);
    assert_eq!(s.workbook().tables[0].name, "Stock");
    s.recalc();
    assert_eq!((at(&s, "D1"), at(&s, "D2"), at(&s, "D3")), (n(20.0), n(24.0), n(0.0)));
    assert!(s.warnings().is_empty(), "{:?}", s.warnings());
    // `import` keeps the table, with Excel's column names.
    let written = dataflow::workbook::write_ron::write(s.workbook(), "table.dfl", "table.xlsx");
    assert!(
        written.ron.contains(
            r#""Stock": (range: "Main!A1:C3", header: true, totals: false, columns: ["Item", "Qty", "Qty Left#"])"#
        ),
        "{}",
        written.ron
    );
    let files = MemoryFiles::new().with("table.dfl", written.dfl);
    let mut again = Session::new(Workbook::from_memory(&written.ron, &files, &[]).unwrap()).unwrap();
    again.recalc();
    assert_eq!((at(&again, "D1"), at(&again, "D2"), at(&again, "D3")), (n(20.0), n(24.0), n(0.0)));
}

#[test]
fn an_export_writes_structured_references_as_the_references_they_name() {
    let ron = book(r#""Main!H1": "=SUM(Sales)", "Main!H2": "=SUM(Sales[[#Headers],[#Data],[Qty]])""#);
    let s = session(&ron);
    let (mut back, warnings) = export::round_trip(&s);
    assert!(warnings.iter().any(|w| w.contains("tables `Sales` are written as plain references")), "{warnings:?}");
    let formulas = export::formulas(back.workbook());
    assert_eq!(formulas["Main!E4"], "=Main!$C$4*Main!$D$4");
    assert_eq!(formulas["Main!C6"], "=SUM(Main!$C$3:$C$5)");
    assert_eq!(formulas["Main!H1"], "=SUM(Main!$B$3:$D$5)");
    back.recalc();
    for (c, a, b) in export::values(&s, &back) {
        assert_eq!(a, b, "{}", s.workbook().sheets.cell(c));
    }
    let ods = dataflow::export::export(&s, dataflow::export::Format::Ods).unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(ods.bytes)).unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("content.xml").unwrap(), &mut text).unwrap();
    assert!(text.contains(r#"table:formula="of:=SUM([$Main.$C$3:.$C$5])""#), "{text}");
    assert!(!text.contains("Sales["), "no structured reference reaches the ods");
}
