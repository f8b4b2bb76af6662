//! Limits at and just past their values (docs/limits.md): the grid cap,
//! the number of arguments, the cycles `check` lists, and tall sheets that
//! load in linear time. The other limits are tested beside the code they
//! bound (see the table in docs/limits.md).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::expect_exit;
use dataflow::address::Area;
use dataflow::functions::VARIADIC;
use dataflow::grid::{MAX_FORMULA_CELLS, MAX_GRID_CELLS};
use dataflow::session::Session;
use dataflow::testing::Sheet;
use dataflow::value::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// Writes `text` as `NAME.ron` in this test run's directory; its path.
fn workbook(name: &str, text: &str) -> String {
    common::temp_workbook("limits", name, text)
}

#[test]
fn the_grid_holds_exactly_max_grid_cells() {
    // Column P is the 16th: P1048576 makes a grid of 16 × 2^20 = 2^24 cells.
    const { assert!(16 * 1_048_576 == MAX_GRID_CELLS) };
    let at = workbook("grid-at", "Workbook(sheets: [\"Main\"], cells: { \"Main!P1048576\": 7 })");
    let out = expect_exit(0, &["run", &at, "--show", "Main!P1048576"]);
    assert!(out.stdout.contains('7'), "{out:?}");
    let past = workbook("grid-past", "Workbook(sheets: [\"Main\"], cells: { \"Main!Q1048576\": 7 })");
    let out = expect_exit(1, &["check", &past]);
    assert!(out.stderr.contains("would make the stored grid 17825792 cells"), "{out:?}");
    assert!(out.stderr.contains("grid-past.ron:1:"), "located: {out:?}");
}

/// Formula cells take far more memory than values (about 450 bytes each):
/// a workbook holds at most a quarter of the grid in formulas. The cap is
/// checked on the entries, before any cell is made: four columns of
/// formulas down the sheet are exactly the cap, one cell more is a located
/// error, and so is an edit that would pass it.
#[test]
fn a_workbook_holds_at_most_max_formula_cells() {
    const { assert!(4 * 1_048_576 == MAX_FORMULA_CELLS) };
    let past = workbook(
        "formulas-past",
        "Workbook(sheets: [\"Main\"],\n cells: { \"Main!A1:D1048576\": \"=1\", \"Main!F1\": 2, \"Main!E1\": \"=2\" })",
    );
    let out = expect_exit(1, &["check", &past]);
    assert!(
        out.stderr.contains("Main!E1 would make 4194305 formula cells; a workbook holds at most 4194304"),
        "{out:?}"
    );
    assert!(out.stderr.contains("formulas-past.ron:2:"), "located: {out:?}");
    assert!(out.stderr.contains("1 problem found"), "constants do not count: {out:?}");
    // The whole grid in one formula entry, as `{=1}` too.
    let block = workbook("formulas-block", "Workbook(sheets: [\"Main\"], cells: { \"Main!A1:P1048576\": \"{=1}\" })");
    let out = expect_exit(1, &["check", &block]);
    assert!(out.stderr.contains("would make 16777216 formula cells"), "{out:?}");
    // An edit that would pass the cap changes nothing.
    let small = workbook("formulas-edit", "Workbook(sheets: [\"Main\"], cells: { \"Main!A1\": \"=1\" })");
    let mut s = Session::load(Path::new(&small)).unwrap();
    let area = Area::new(0, 0, 0, 1_048_575, 4);
    let refused = s.set_formula(area, "=2").unwrap_err().to_string();
    assert!(refused.contains("would make 5242880 formula cells"), "{refused}");
    s.recalc();
    assert_eq!(s.engine().get(dataflow::address::CellAddr::new(0, 0, 0)), &Value::Number(1.0));
    // Replacing a formula area by another of the same size is no growth.
    let area = Area::new(0, 0, 0, 0, 0);
    s.set_formula(area, "=3").unwrap();
}

#[test]
fn a_function_takes_at_most_variadic_arguments() {
    let args = |n: usize| vec!["1"; n].join(",");
    let mut s = Sheet::new();
    s.set("A1", &format!("=SUM({})", args(VARIADIC)));
    s.recalc();
    assert!(s.issues().is_empty(), "{:?}", s.issues());
    assert_eq!(s.value("A1"), Value::Number(VARIADIC as f64));
    let mut s = Sheet::new();
    s.set("A1", &format!("=SUM({})", args(VARIADIC + 1)));
    assert_eq!(s.issues(), [format!("Sheet1!A1: SUM takes at most {VARIADIC} arguments, got {}", VARIADIC + 1)]);
}

#[test]
fn check_lists_a_hundred_cycles_and_counts_the_rest() {
    let book = workbook(
        "cycles",
        "Workbook(sheets: [\"Main\"], calc: (iterate: false), cells: { \"Main!A1:A32768\": \"=A1+1\" })",
    );
    let out = expect_exit(0, &["check", &book]);
    assert!(out.stdout.contains("cycle 100: 1 cells: Main!A100\n"), "{out:?}");
    assert!(!out.stdout.contains("cycle 101:"), "{out:?}");
    assert!(out.stdout.contains("... and 32668 more\n"), "{out:?}");
    let out = expect_exit(0, &["run", &book, "--show", "Main!A1"]);
    assert_eq!(out.stderr.lines().filter(|l| l.starts_with("warning: circular reference")).count(), 100);
    assert!(out.stderr.contains("warning: ... and 32668 more circular references"), "{out:?}");
}

#[test]
fn tall_sheets_load_in_linear_time() {
    // Growing the grid row by row copied the whole sheet each time: a
    // 100,000-row chain took 16 s to load, 32,768 one-cell cycles 12 s.
    let book =
        workbook("chain", "Workbook(sheets: [\"Main\"], cells: { \"Main!A1\": 1, \"Main!A2:A100000\": \"=A1+1\" })");
    let start = Instant::now();
    let out = expect_exit(0, &["run", &book, "--show", "Main!A100000"]);
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
    assert!(out.stdout.contains("100000"), "{out:?}");
}

/// The operators of one evaluation work on at most MAX_WORK array elements
/// (2^27, 128 whole columns of 1,048,576): each whole column read as an
/// array counts its cells, each addition its elements, so k terms of
/// `A:A+…` cost 2k-1 columns and SUMPRODUCT of three such sums 3(2k-1):
/// 22 terms (129 columns) pass it, and the formula is #NUM! instead of
/// what Excel gives (the same shape with 476 additions took 10 s). Under
/// it, 21 terms (123 columns) give the value: each argument is k times
/// column A (A1 = 1), so SUMPRODUCT is 21³.
#[test]
fn operators_on_arrays_are_bounded_by_the_work_budget() {
    let column = |k: usize| vec!["A:A"; k].join("+");
    let product = |k: usize| format!("=SUMPRODUCT({0},{0},{0})", column(k));
    let path = workbook(
        "work",
        &format!(
            r#"Workbook(sheets: ["S"], cells: {{ "S!A1": "1", "S!B1": "{}", "S!C1": "{}" }})"#,
            product(22),
            product(21)
        ),
    );
    let out = expect_exit(0, &["run", &path, "--show", "S!B1:C1"]).stdout;
    let shown: Vec<&str> = out.lines().nth(1).unwrap_or("").split_whitespace().collect();
    assert_eq!(shown, ["#NUM!", "9261"], "{out}");
}

/// Functions count against the same budget: the arrays they make (each
/// SEQUENCE(4000000) is 4,000,000 elements: 33 of them stay under 2^27, 34
/// pass it) and the references they read whole as arrays (SUMPRODUCT of
/// two whole columns reads 2,097,152 cells: 64 calls stay under it, 65
/// pass it). Under the budget the value is Excel's.
#[test]
fn functions_arrays_and_whole_references_are_bounded_by_the_work_budget() {
    let count = |k: usize| format!("=COUNT({})", vec!["SEQUENCE(4000000)"; k].join(","));
    let products = |k: usize| format!("={}", vec!["SUMPRODUCT(A:A,A:A)"; k].join("+"));
    let path = workbook(
        "function-work",
        &format!(
            r#"Workbook(sheets: ["S"], cells: {{ "S!A1": 1, "S!B1": "{}", "S!C1": "{}", "S!D1": "{}", "S!E1": "{}" }})"#,
            count(33),
            count(34),
            products(64),
            products(65),
        ),
    );
    let out = expect_exit(0, &["run", &path, "--show", "S!B1:E1"]).stdout;
    let shown: Vec<&str> = out.lines().nth(1).unwrap_or("").split_whitespace().collect();
    assert_eq!(shown, ["132000000", "#NUM!", "64", "#NUM!"], "{out}");
}

/// An Excel data sheet of millions of constants loads in proportion to
/// them: a cell entry holds a constant in place and a formula boxed (168
/// bytes an entry before; 8,388,608 constants took 2.9 GB and 17.5 s to
/// check, now 1.6 GB and 15 s: docs/limits.md).
#[test]
fn a_constant_cell_entry_is_small() {
    assert!(
        std::mem::size_of::<dataflow::workbook::CellEntry>() <= 64,
        "{}",
        std::mem::size_of::<dataflow::workbook::CellEntry>()
    );
}
