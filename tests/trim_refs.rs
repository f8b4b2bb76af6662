//! Trim references (`A1:.E10`, `A1.:E10`, `A1.:.E10`, `A:.A`) outside the
//! corpus: how they read and print back, that a cell reading one is
//! calculated again when a cell inside the full range changes, that a
//! whole column is trimmed without a million-row scan, and how the files
//! store them (xlsx `_xlfn._TRO_TRAILING(A1:E10)`, as Excel 365 does; ods
//! the TRIMRANGE call, with a warning).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod export;

use dataflow::address::CellAddr;
use dataflow::export::{Format, export as export_to};
use dataflow::parse::parse_formula;
use dataflow::session::Session;
use dataflow::testing::Sheet;
use dataflow::value::Value;
use export::{formulas, names, part, render, round_trip, temp};

fn printed(f: &str) -> String {
    parse_formula(f).unwrap_or_else(|e| panic!("{f}: {e:?}")).to_string()
}

#[test]
fn trim_references_read_and_print_back_as_written() {
    for f in [
        "A1:.E10",
        "A1.:E10",
        "A1.:.E10",
        "$A$1.:.$E$10",
        "A:.A",
        "A.:C",
        "$A.:.$C",
        "1:.10",
        "1.:10",
        "$5.:.$20",
        "Main!A1:.B2",
        "'My Sheet'!A1.:.B2",
        "SUM(A:.A)+1",
        "-A1:.B2",
        "A1:.B2 B1:C3",
        "TRIMRANGE(A1:E10,2,0)",
        // The stored form around what is not a range stays a call.
        "_TRO_ALL(A1)",
        "_TRO_TRAILING(INDEX(A:A,1):B5)",
    ] {
        assert_eq!(printed(f), f, "{f}");
    }
    // Excel's stored form reads as the operator.
    assert_eq!(printed("_TRO_TRAILING(A1:E10)"), "A1:.E10");
    assert_eq!(printed("_TRO_LEADING(Main!$A:$A)"), "Main!$A.:$A");
    assert_eq!(printed("_TRO_ALL(3:4)"), "3.:.4");
    // A name ending in a dot keeps it when it is no reference.
    assert_eq!(printed("name.:A1"), "name.:A1");
}

#[test]
fn a_filled_cell_inside_the_range_recalculates_the_reader() {
    let mut s = Sheet::new();
    s.set("A1", "1");
    s.set("A2", "2");
    s.set("C1", "=ROWS(A:.A)");
    s.set("C2", "=SUM(A1:.A100)");
    s.set("C3", "=ROWS(TRIMRANGE(A1:A50))");
    s.recalc();
    assert_eq!(["C1", "C2", "C3"].map(|c| s.text(c)), ["2", "3", "2"]);
    s.set("A40", "10");
    s.recalc();
    assert_eq!(["C1", "C2", "C3"].map(|c| s.text(c)), ["40", "13", "40"]);
}

#[test]
fn whole_columns_scan_the_stored_rows_only() {
    let mut s = Sheet::with_sheets(&["Main", "Other"]);
    s.set("A3", "1");
    s.set("C2", "1");
    // Thousands of whole-column and whole-row trims: each would be a
    // million rows, or sixteen thousand columns.
    for r in 1..=3000 {
        s.set(&format!("Other!B{r}"), "=ROWS(Main!A.:.A)+ROWS(Main!1:.1048576)+COLUMNS(Main!1:.3)");
    }
    let start = std::time::Instant::now();
    s.recalc();
    assert_eq!(s.text("Other!B3000"), "7");
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}

const RON: &str = r#"Workbook(
    sheets: ["Main"],
    cells: {
        "A1": 1,
        "A2": 2,
        "B1": "=SUM(A:.A)",
        "B2": "=ROWS(A1.:.A9)",
        "B3": "=ROWS(TRIMRANGE(A1:A9,2,2))",
        "B4": "=SUM(data)",
    },
    names: {
        "data": (formula: "=$A$1.:.$A$9"),
    },
)"#;

fn load() -> Session {
    let path = temp("trim_refs.ron");
    std::fs::write(&path, RON).unwrap();
    let mut s = Session::load(&path).unwrap_or_else(|d| panic!("{}", render(&d)));
    s.recalc();
    s
}

#[test]
fn xlsx_stores_trims_as_excel_does_and_reads_them_back() {
    let s = load();
    let out = export_to(&s, Format::Xlsx).unwrap_or_else(|p| panic!("{p:?}"));
    let sheet = part(&out.bytes, "xl/worksheets/sheet1.xml");
    assert!(sheet.contains("<f>SUM(_xlfn._TRO_TRAILING(A:A))</f>"), "{sheet}");
    assert!(sheet.contains("<f>ROWS(_xlfn._TRO_ALL(A1:A9))</f>"), "{sheet}");
    assert!(sheet.contains("<f>ROWS(_xlfn.TRIMRANGE(A1:A9,2,2))</f>"), "{sheet}");
    // A name's trim holds its sheet inside, as Excel stores it.
    let book = part(&out.bytes, "xl/workbook.xml");
    assert!(book.contains("_xlfn._TRO_ALL(Main!$A$1:$A$9)"), "{book}");
    let (mut back, _) = round_trip(&s);
    assert_eq!(formulas(back.workbook()), formulas(s.workbook()));
    back.recalc();
    assert_eq!(formulas(back.workbook())["Main!B1"], "=SUM(A:.A)");
    assert_eq!(names(back.workbook())["data"], names(s.workbook())["data"]);
    assert_eq!(back.engine().grid().get(CellAddr::new(0, 3, 1)), &Value::Number(3.0), "B4 = SUM(data)");
}

#[test]
fn ods_writes_the_trimrange_call_and_warns() {
    let s = load();
    let out = export_to(&s, Format::Ods).unwrap_or_else(|p| panic!("{p:?}"));
    let content = part(&out.bytes, "content.xml");
    assert!(content.contains("of:=SUM(COM.MICROSOFT.TRIMRANGE([.A$1:.A$1048576];2;2))"), "{content}");
    let warned = out.warnings.iter().filter(|w| w.contains("TRIMRANGE, which LibreOffice")).count();
    assert_eq!(warned, 4, "{:?}", out.warnings);
}
