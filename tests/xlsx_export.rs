//! `dataflow export`: every workbook of `workbooks/` and generated
//! workbooks with relative names at every sheet edge, exported as xlsx and
//! read back, give the same formulas (printed, cell by cell), the same
//! names (as Excel stores them) and the same values, before and after a
//! recalculation; what a file cannot say is refused or listed.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod export;

use common::expect_exit;
use dataflow::address::{MAX_COLS, MAX_ROWS, a1};
use dataflow::export::Format;
use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::Workbook;
use export::{calculated, formulas, names, round_trip, temp, values};
use std::collections::BTreeMap;
use std::path::Path;

/// Checks one workbook's round trip; returns the export's warnings.
fn same_after_round_trip(s: &Session) -> Vec<String> {
    let (mut back, warnings) = round_trip(s);
    let (wb, wb2) = (s.workbook(), back.workbook());
    assert_eq!(formulas(wb2), formulas(wb), "formulas");
    assert_eq!(names(wb2), names(wb), "names");
    assert_eq!(
        (wb2.calc.iterate, wb2.calc.max_iterations, wb2.calc.max_change),
        (wb.calc.iterate, wb.calc.max_iterations, wb.calc.max_change)
    );
    for (c, a, b) in values(s, &back) {
        // A spilled cell holds no formula: its cached value is not a
        // starting value (the first recalculation spills it again).
        if s.engine().grid().spills().owner(c).is_some() {
            assert_eq!(b, Value::Empty, "{} before the first recalculation", wb.sheets.cell(c));
            continue;
        }
        assert_eq!(a, b, "the cached value of {}", wb.sheets.cell(c));
    }
    // Recalculated from the cached values (F9), a converged workbook stays put.
    let tolerance = s.workbook().calc.max_change;
    back.recalc();
    for (c, a, b) in values(s, &back) {
        match (&a, &b) {
            (Value::Number(x), Value::Number(y)) => {
                assert!((x - y).abs() <= tolerance, "{} recalculated: {x} vs {y}", wb.sheets.cell(c))
            }
            _ => assert_eq!(a, b, "{} recalculated", wb.sheets.cell(c)),
        }
    }
    warnings
}

#[test]
fn every_workbook_round_trips_through_xlsx() {
    let mut seen = 0;
    for entry in std::fs::read_dir("workbooks").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") {
            let s = calculated(&path);
            same_after_round_trip(&s);
            seen += 1;
        }
    }
    assert!(seen >= 7, "{seen} workbooks");
}

#[test]
fn the_ellis_names_are_stored_wrapped_from_a1() {
    let s = calculated(Path::new("workbooks/sudoku.ron"));
    let (back, _) = round_trip(&s);
    let n = names(back.workbook());
    assert_eq!(n["in_cell_from_sol"], "Main!A1048565");
    assert!(n["val_bigcell_from_sol"].contains("ROW(Main!XFB1048562)"), "{}", n["val_bigcell_from_sol"]);
}

/// A workbook of names anchored at every edge and corner of the sheet,
/// each reaching one cell in each direction (across the edge: wrapping),
/// used from cells of a small block.
fn edges() -> Workbook {
    let rows = [0, 1, MAX_ROWS - 1];
    let cols = [0, 1, MAX_COLS - 1];
    let mut names = String::new();
    let mut cells = String::new();
    for r in 0..8 {
        for c in 0..8 {
            cells += &format!("\"Main!{}\": \"{}\",\n", a1(r, c), r * 10 + c);
        }
    }
    let mut k = 0;
    for &ar in &rows {
        for &ac in &cols {
            for dr in [-1i64, 0, 1] {
                for dc in [-1i64, 0, 1] {
                    let wrap = |i: u32, d: i64, n: u32| (i64::from(i) + d).rem_euclid(i64::from(n)) as u32;
                    let target = a1(wrap(ar, dr, MAX_ROWS), wrap(ac, dc, MAX_COLS));
                    let target = if k % 3 == 1 { format!("SUM(Main!{target}:$B$2)") } else { format!("Main!{target}") };
                    names += &format!("\"nm_{k}\": (formula: \"={target}\", anchor: \"Main!{}\"),\n", a1(ar, ac));
                    let at = a1(10 + k / 9, k % 9);
                    cells += &format!("\"Main!{at}\": \"=nm_{k}\",\n");
                    k += 1;
                }
            }
        }
    }
    // A range entry is written cell by cell, each moved to its cell.
    cells += "\"Main!J1:J3\": \"=A1*2\",\n";
    let text = format!("Workbook(sheets: [\"Main\"], cells: {{ {cells} }}, names: {{ {names} }})");
    Workbook::from_str(&text, Path::new("edges.ron"), Path::new("."))
        .unwrap_or_else(|d| panic!("{}", export::render(&d)))
}

#[test]
fn relative_names_at_every_sheet_edge_round_trip() {
    let mut s = Session::new(edges()).unwrap();
    s.recalc();
    same_after_round_trip(&s);
    let (back, _) = round_trip(&s);
    assert_eq!(formulas(back.workbook())["Main!J3"], "=A3*2");
    // Checked by hand: n0 is "one up-left" of A1, wrapped; n4 is A1 itself.
    let (back, _) = round_trip(&s);
    assert_eq!(names(back.workbook())["nm_0"], "Main!XFD1048576");
    assert_eq!(names(back.workbook())["nm_4"], "SUM(Main!A1:$B$2)");
    // "One up" of A1048576 (nm_66), used at D18, reads D17 = the formula =nm_57.
    let n57 = back.engine().get(back.area("Main!D17").unwrap().top_left()).clone();
    assert_eq!(back.engine().get(back.area("Main!D18").unwrap().top_left()), &n57);
}

#[test]
fn calc_pr_is_written_with_every_iteration_setting() {
    let s = calculated(Path::new("workbooks/circular.ron"));
    let out = dataflow::export::export(&s, Format::Xlsx).unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(out.bytes)).unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("xl/workbook.xml").unwrap(), &mut text).unwrap();
    assert!(text.contains(r#"<calcPr iterate="1" iterateCount="100" iterateDelta="0.001""#), "{text}");
}

#[test]
fn synchronous_order_is_refused_and_left_out_parts_are_listed() {
    let out = temp("sync.xlsx");
    let o = expect_exit(
        2,
        &["export", "workbooks/circular.ron", "--order", "synchronous", "-o", out.to_str().unwrap(), "--force"],
    );
    assert!(o.stderr.contains("synchronous order"), "{o:?}");
    assert!(!out.exists());
    // Without --force the file is claimed first and given back on failure.
    let o =
        expect_exit(2, &["export", "workbooks/circular.ron", "--order", "synchronous", "-o", out.to_str().unwrap()]);
    assert!(o.stderr.contains("synchronous order"), "{o:?}");
    assert!(!out.exists(), "a failed export leaves no file");
    let out = temp("sudoku.xlsx");
    let o = expect_exit(0, &["export", "workbooks/sudoku.ron", "-o", out.to_str().unwrap(), "--force"]);
    // The parts that are off travel as their sources: nothing to warn about.
    assert!(!o.stderr.contains("not exported"), "{o:?}");
    assert!(o.stdout.starts_with("wrote "), "{o:?}");
    let before = std::fs::read(&out).unwrap();
    let o = expect_exit(2, &["export", "workbooks/sudoku.ron", "-o", out.to_str().unwrap()]);
    assert!(o.stderr.contains("exists; --force overwrites it"), "{o:?}");
    assert_eq!(std::fs::read(&out).unwrap(), before, "the refused export left the file as it was");
    let o = expect_exit(2, &["export", "workbooks/sudoku.ron", "-o", "book.csv"]);
    assert!(o.stderr.contains("export writes Excel (.xlsx) or OpenDocument (.ods) files"), "{o:?}");
}

#[test]
fn the_exported_file_runs_to_the_solution() {
    let out = temp("grid2.xlsx");
    let grid = common::GRID2;
    expect_exit(
        0,
        &[
            "export",
            "workbooks/sudoku.ron",
            "--input",
            &format!("puzzle={grid}"),
            "-o",
            out.to_str().unwrap(),
            "--force",
        ],
    );
    let mut s = Session::load(&out).unwrap();
    s.recalc();
    let area = s.area("Main!D16:L24").unwrap();
    assert_eq!(s.read_line(&area, "123456789"), common::GRID2_SOLVED);
}

#[test]
fn ods_is_a_zip_with_mimetype_first_and_names_with_base_cells() {
    let s = calculated(Path::new("workbooks/sudoku.ron"));
    let out = dataflow::export::export(&s, Format::Ods).unwrap();
    assert_eq!(&out.bytes[30..38], b"mimetype");
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(out.bytes)).unwrap();
    assert_eq!(zip.by_index(0).unwrap().compression(), zip::CompressionMethod::Stored);
    let mut text = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("content.xml").unwrap(), &mut text).unwrap();
    assert!(text.contains(r#"<table:named-expression table:name="in_cell_from_sol" table:base-cell-address="$Main.$D$16" table:expression="of:=[$Main.D4]"/>"#), "{text}");
    assert!(
        text.contains(r#"<table:iteration table:status="enable" table:steps="100" table:maximum-difference="0.001"/>"#)
    );
    assert!(
        text.contains(r#"table:formula="of:=IF(state=&quot;reset&quot;"#) || text.contains("table:formula=\"of:="),
        "{}",
        &text[..2000]
    );
}

#[test]
fn an_exported_range_formula_reads_back_as_one_range_formula() {
    // Export writes each cell's formula; the reader groups them again.
    let s = calculated(Path::new("workbooks/sudoku.ron"));
    let (back, _) = round_trip(&s);
    let ranges = |wb: &Workbook| {
        let mut out: Vec<String> = wb
            .cells
            .iter()
            .filter(|e| e.content.formula().is_some() && !e.area.is_cell())
            .map(|e| wb.sheets.area(e.area))
            .collect();
        out.sort();
        out
    };
    let (before, after) = (ranges(s.workbook()), ranges(back.workbook()));
    assert!(before.contains(&"Main!P4:AP30".to_string()), "{before:?}");
    assert_eq!(after, before, "the same range formulas");
    let one_cell = back.workbook().cells.iter().filter(|e| e.content.formula().is_some() && e.area.is_cell()).count();
    let one_cell_before =
        s.workbook().cells.iter().filter(|e| e.content.formula().is_some() && e.area.is_cell()).count();
    assert_eq!(one_cell, one_cell_before);
}

/// The dynamic array functions keep their `_xlfn.` and `_xlfn._xlws.`
/// prefixes through a round trip; a `#CALC!` result, which calamine cannot
/// read as a cached value, is written without one and calculated again.
#[test]
fn dynamic_array_functions_round_trip() {
    let text = r#"Workbook(sheets: ["Main"], cells: {
        "Main!A1": "3", "Main!A2": "1", "Main!A3": "2",
        "Main!B1": "=INDEX(SORT(FILTER(A1:A3,A1:A3>1)),1)",
        "Main!B2": "=SUM(SORTBY(A1:A3,A1:A3),UNIQUE(A1:A3),TAKE(A1:A3,2))",
        "Main!B3": "=TAKE(A1:A3,0)",
    })"#;
    let wb = Workbook::from_str(text, Path::new("da.ron"), Path::new("."))
        .unwrap_or_else(|d| panic!("{}", export::render(&d)));
    let mut s = Session::new(wb).unwrap();
    s.recalc();
    let (mut back, _) = round_trip(&s);
    // rust_xlsxwriter stores a formula calling a dynamic array function as
    // an array formula, marked dynamic (as Excel 365 does) for some: it
    // reads back as a one-cell array or dynamic-array formula; these give
    // one value either way.
    let plain = |f: BTreeMap<String, String>| -> Vec<String> {
        f.into_values()
            .map(|t| t.trim_start_matches("spill ").trim_start_matches('{').trim_end_matches('}').to_string())
            .collect()
    };
    assert_eq!(plain(formulas(back.workbook())), plain(formulas(s.workbook())), "formulas");
    back.recalc();
    for (c, a, b) in values(&s, &back) {
        assert_eq!(a, b, "{} recalculated", s.workbook().sheets.cell(c));
    }
    let b3 = values(&s, &back).into_iter().map(|(_, a, _)| a).find(|v| matches!(v, Value::Error(_)));
    assert_eq!(b3, Some(Value::Error(dataflow::value::ErrorKind::Calc)));
}
