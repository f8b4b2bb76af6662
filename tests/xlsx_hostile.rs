//! Excel files that try to break the reader: a package with no sheet, a
//! FIFO named `.xlsx`, array blocks that together cover more cells than a
//! grid holds, and a defined name whose text cannot be read (what a
//! deleted range leaves behind), and `<calcPr>` settings out of
//! `policy`'s bounds (an `INF` delta), sheets named alike but for case.
//! Each is a clear error or, for the name, a `#REF!` where it is used;
//! none panics, hangs or fills memory.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod xlsx;

use common::expect_exit;
use dataflow::session::Session;
use dataflow::value::{ErrorKind, Value};

#[test]
fn a_package_without_sheets_is_refused() {
    let book = xlsx::Book::default().name("x", "1", "").write("no_sheets.xlsx");
    let out = expect_exit(1, &["check", book.to_str().expect("a path")]);
    assert!(out.stderr.contains("`xl/workbook.xml` lists no sheet"), "{out:?}");
}

#[cfg(unix)]
#[test]
fn a_fifo_named_xlsx_is_refused_without_reading() {
    let path = xlsx::temp_dir("fifo").join("pipe.xlsx");
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo (coreutils) makes the pipe");
    let out = expect_exit(1, &["check", path.to_str().expect("a path")]);
    assert!(out.stderr.contains("it is a FIFO (named pipe)"), "{out:?}");
}

#[test]
fn array_blocks_larger_than_a_grid_are_refused() {
    // Each block is 16 x 1,048,576 = 2^24 cells, a whole grid; two are too many.
    let block = |r: &str, area: &str| format!(r#"<c r="{r}"><f t="array" ref="{area}">1</f><v>1</v></c>"#);
    let book = xlsx::Book::default()
        .sheet("Main", vec![block("A1", "A1:P1048576"), block("Q1", "Q1:AF1048576")])
        .write("huge_blocks.xlsx");
    let out = expect_exit(1, &["check", book.to_str().expect("a path")]);
    assert!(out.stderr.contains("the array formulas reach 33554432 cells at Q1"), "{out:?}");
}

#[test]
fn a_name_excel_left_broken_is_ref_where_it_is_used() {
    let book = xlsx::Book::default()
        .sheet(
            "Main",
            vec![xlsx::num("A1", 1.0), xlsx::formula("B1", "gone+1", None), xlsx::formula("C1", "A1*2", None)],
        )
        .name("gone", "Main!#REF!", "")
        .write("broken_name.xlsx");
    let mut s = Session::load(&book).unwrap_or_else(|d| panic!("{}", d[0].render(false)));
    s.recalc();
    let at = |c: &str| s.engine().get(s.area(c).expect("a cell").top_left()).clone();
    assert_eq!(at("B1"), Value::Error(ErrorKind::Ref));
    assert_eq!(at("C1"), Value::Number(2.0));
    let name = s.workbook().name("gone").expect("the name is imported");
    let comment = name.comment.clone().unwrap_or_default();
    assert!(comment.contains("`Main!#REF!` cannot be read"), "{comment}");
}

#[test]
fn calc_settings_out_of_policys_bounds_are_located_warnings_and_excels_defaults() {
    // An infinite delta (`INF`, or `1e400`, which reads as infinity) would
    // make any change converge; NaN none. Counts past Excel's 32767 likewise.
    // The workbook loads as Excel loads what it can (see
    // `Workbook::excel_errors`): Excel's defaults (100, 0.001), a warning.
    let cases = [
        ("inf", r#"iterateDelta="INF""#, r#"iterateDelta="INF" must be a number >= 0"#),
        ("huge", r#"iterateDelta="1e400""#, r#"iterateDelta="1e400" must be a number >= 0"#),
        ("nan", r#"iterateDelta="NaN""#, r#"iterateDelta="NaN" must be a number >= 0"#),
        ("negative", r#"iterateDelta="-0.5""#, r#"iterateDelta="-0.5" must be a number >= 0"#),
        ("zero", r#"iterateCount="0""#, r#"iterateCount="0" must be between 1 and 32767"#),
        ("past", r#"iterateCount="32768""#, r#"iterateCount="32768" must be between 1 and 32767"#),
        ("word", r#"iterateCount="many""#, r#"iterateCount="many" must be between 1 and 32767"#),
    ];
    for (file, attr, message) in cases {
        let book = xlsx::Book::default()
            .sheet("Main", vec![xlsx::num("A1", 1.0)])
            .calc(&format!(r#"<calcPr iterate="1" {attr}/>"#))
            .write(&format!("calc_{file}.xlsx"));
        let s = Session::load(&book).unwrap_or_else(|d| panic!("{attr}: {}", d[0].render(false)));
        let text: String = s.warnings().iter().map(|d| d.render_warning(false)).collect();
        assert!(text.contains(message) && text.contains(&format!("calc_{file}.xlsx")), "{attr}: {text}");
        assert!(text.starts_with("warning: "), "{text}");
        let calc = s.workbook().calc;
        assert_eq!((calc.max_iterations, calc.max_change), (100, 0.001), "{attr}");
    }
    let at_limit = xlsx::Book::default()
        .sheet("Main", vec![xlsx::num("A1", 1.0)])
        .calc(r#"<calcPr iterate="1" iterateCount="32767" iterateDelta="0"/>"#)
        .write("calc_at_limit.xlsx");
    let s = Session::load(&at_limit).unwrap_or_else(|d| panic!("{}", d[0].render(false)));
    assert_eq!((s.workbook().calc.max_iterations, s.workbook().calc.max_change), (32767, 0.0));
}

/// Sheets whose names differ only in case cannot both be reached (Excel
/// refuses them too): the file is refused with both names.
#[test]
fn sheets_named_alike_but_for_case_are_refused() {
    let book = xlsx::Book::default()
        .sheet("Main", vec![xlsx::num("A1", 1.0)])
        .sheet("MAIN", vec![xlsx::num("A1", 2.0)])
        .write("main-and-MAIN.xlsx");
    let out = expect_exit(1, &["check", book.to_str().expect("a path")]);
    assert!(out.stderr.contains("`Main`") && out.stderr.contains("`MAIN`"), "{out:?}");
}

/// Excel 365 caches `#SPILL!` and `#CALC!` (and writes `#GETTING_DATA`)
/// as error values: the file loads, those cells start from the error, and
/// the rest of the sheet is read.
#[test]
fn newer_cached_errors_do_not_stop_a_sheet() {
    let cells = vec![
        xlsx::num("A1", 1.0),
        r#"<c r="B1" t="e"><f>SEQUENCE(2)+A1:A3</f><v>#SPILL!</v></c>"#.to_string(),
        r#"<c r="B2" t="e"><f>FILTER(A1:A3,A1:A3&gt;5)</f><v>#CALC!</v></c>"#.to_string(),
        r#"<c r="B3" t="e"><v>#CALC!</v></c>"#.to_string(),
        xlsx::formula("C1", "A1*2", Some(2.0)),
    ];
    let book = xlsx::Book::default().sheet("Main", cells).write("newer-errors.xlsx");
    let mut s = Session::load(&book).expect("loads");
    s.recalc();
    let at = |c: &str| s.engine().get(s.area(c).unwrap().top_left()).clone();
    assert_eq!(at("Main!C1"), Value::Number(2.0));
    assert_eq!(at("Main!B2"), Value::Error(ErrorKind::Calc), "FILTER of nothing");
    assert_eq!(at("Main!B3"), Value::Error(ErrorKind::Calc), "the constant as cached");
    // Before calculating, the cells start from what Excel cached.
    let s = Session::load(&book).expect("loads");
    let start = &s.workbook().start;
    let cached = |c: &str| start.iter().find(|(a, _)| *a == s.area(c).unwrap().top_left()).map(|(_, v)| v.clone());
    assert_eq!(cached("Main!B1"), Some(Value::Error(ErrorKind::Spill)));
    assert_eq!(cached("Main!B2"), Some(Value::Error(ErrorKind::Calc)));
}

/// A package whose part is `repeat` `unit` times in a row (streamed: the
/// test never holds it), beside a valid one-sheet workbook.
fn bomb(name: &str, part: &str, unit: &[u8], repeat: usize) -> std::path::PathBuf {
    use std::io::Write;
    let parts = xlsx::Book::default().sheet("Main", vec![xlsx::num("A1", 1.0)]).parts();
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated).large_file(true);
    for (path, text) in parts.iter().filter(|(p, _)| p != part) {
        z.start_file(path.as_str(), options).unwrap();
        z.write_all(text.as_bytes()).unwrap();
    }
    z.start_file(part, options).unwrap();
    let chunk = unit.repeat(1 << 16);
    for _ in 0..repeat >> 16 {
        z.write_all(&chunk).unwrap();
    }
    xlsx::write_file(name, &z.finish().unwrap().into_inner())
}

/// Shared strings that inflate past `MAX_PART_BYTES` from a file of a
/// few hundred kilobytes, and styles listing more formats than a
/// workbook has cells: refused by part name before calamine reads them
/// whole (it would abort the process).
#[test]
fn parts_that_inflate_past_the_caps_are_refused_before_reading() {
    let strings = bomb("strings_bomb.xlsx", "xl/sharedStrings.xml", b" ", 257 << 20);
    assert!(std::fs::metadata(&strings).unwrap().len() < 2 << 20, "a small file");
    let out = expect_exit(1, &["check", strings.to_str().unwrap()]);
    assert!(out.stderr.contains("`xl/sharedStrings.xml` unpacks to"), "{out:?}");
    let styles = bomb("styles_bomb.xlsx", "xl/styles.xml", b"<xf/>", 17 << 20);
    let out = expect_exit(1, &["check", styles.to_str().unwrap()]);
    assert!(out.stderr.contains("`xl/styles.xml` lists more than 16777216 entries"), "{out:?}");
}
