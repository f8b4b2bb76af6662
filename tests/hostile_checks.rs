//! Workbook checks and size caps under hostile input (issue 13 items 6, 7,
//! 14, 15): views and `batch --show` are capped like `run --show`; a
//! `--set` over more cells than the grid holds is refused before its first
//! cell; inputs and the reset protocol may not set formula cells nor pass
//! the grid cap, which `check` reports at their place; an input's alphabet
//! and blanks may not hold whitespace.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{SUDOKU, expect_exit};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Writes `text` as a workbook `NAME.ron` in a fresh temporary directory;
/// its path.
fn workbook(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("dataflow-hostile-checks-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(format!("{name}.ron"));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// `check PATH` fails with exit 1; its stderr, which must place the problem
/// at `line:col` of the file and mention `words`.
fn refused_at(path: &str, line_col: &str, words: &str) -> String {
    let out = expect_exit(1, &["check", path]);
    assert!(out.stderr.contains(&format!("{path}:{line_col}")), "placed at {line_col}: {out:?}");
    assert!(out.stderr.contains(words), "says {words:?}: {out:?}");
    out.stderr
}

#[test]
fn a_view_larger_than_can_be_shown_is_a_located_load_error() {
    let path = workbook(
        "big_view",
        r#"Workbook(sheets: ["Main"], cells: { "A1": 1 },
  views: { "all": (range: "Main!A1:XFD1048576"), "ok": (range: "A1:IV256") })"#,
    );
    let start = Instant::now();
    refused_at(&path, "2:28", "the view `all` has 17179869184 cells; at most 65536 can be shown");
    expect_exit(1, &["run", &path]);
    expect_exit(1, &["step", "--plain", &path]);
    assert!(start.elapsed() < Duration::from_secs(10));
    // At the cap: 256 x 256 loads.
    let path = workbook("view_at_cap", r#"Workbook(sheets: ["Main"], views: { "ok": (range: "A1:IV256") })"#);
    expect_exit(0, &["check", &path]);
}

#[test]
fn batch_show_is_capped_like_run_show() {
    let out = expect_exit(
        2,
        &["batch", SUDOKU, "--input", "puzzle=@tests/data/cli/puzzles.txt", "--show", "Main!A1:XFD1048576"],
    );
    assert!(out.stderr.contains("--show `Main!A1:XFD1048576`: the area has 17179869184 cells"), "{out:?}");
    let out = expect_exit(2, &["run", SUDOKU, "--show", "Main!A1:IV257"]);
    assert!(out.stderr.contains("65792 cells; at most 65536 can be shown"), "{out:?}");
}

#[test]
fn a_set_over_more_cells_than_the_grid_holds_is_refused_at_once() {
    let start = Instant::now();
    let out = expect_exit(2, &["run", "tests/data/cli/far_view.ron", "--set", "Main!A1:XFD1048576=1"]);
    assert!(out.stderr.contains("17179869184 cells; a workbook stores at most 16777216"), "{out:?}");
    // Fewer cells than the cap, but a far corner the grid cannot hold.
    let out =
        expect_exit(2, &["run", "tests/data/cli/far_view.ron", "--set", "Main!A1:B1048576=1", "--set", "Main!XFD1=1"]);
    assert!(out.stderr.contains("--set `Main!XFD1=1`: cell Main!XFD1 would make the stored grid larger"), "{out:?}");
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
}

#[test]
fn a_reset_that_sets_a_formula_cell_is_a_workbook_problem() {
    let path = workbook(
        "reset_formula",
        r#"Workbook(sheets: ["Main"], cells: { "A1": "=B1+1", "B1": 1 },
  reset: (set: { "B1": 2 }, then: { "Main!A1": 0 }))"#,
    );
    refused_at(&path, "2:38", "the reset protocol sets Main!A1, which holds a formula");
    expect_exit(1, &["run", &path]);
}

#[test]
fn an_input_over_a_formula_cell_is_a_workbook_problem() {
    let path = workbook(
        "input_formula",
        r#"Workbook(sheets: ["Main"], cells: { "A1:C1": 1, "B2:C3": "=A1" },
  inputs: { "puzzle": (range: "A2:B2") })"#,
    );
    refused_at(&path, "2:32", "the input `puzzle` sets Main!B2, which holds a formula");
    // Array formulas too.
    let path = workbook(
        "input_array",
        r#"Workbook(sheets: ["Main"], cells: { "C1:C3": "{=ROW(C1:C3)}" },
  inputs: { "puzzle": (range: "A3:C3", alphabet: "123") })"#,
    );
    refused_at(&path, "2:32", "the input `puzzle` sets Main!C3, which holds a formula");
}

#[test]
fn inputs_and_reset_cells_past_the_grid_cap_are_workbook_problems() {
    let path = workbook(
        "far_reset",
        r#"Workbook(sheets: ["Main"], cells: { "A1": 1 },
  reset: (set: { "Main!XFD1048576": 0 }))"#,
    );
    refused_at(
        &path,
        "2:19",
        "the reset protocol sets Main!XFD1048576, which would make the stored grid 17179869184 cells",
    );
    // Each fits alone; together they pass the cap (4096 columns x 4097 rows).
    let path = workbook(
        "far_input",
        r#"Workbook(sheets: ["Main"], cells: { "FAN1": 1 },
  inputs: { "column": (range: "A1:A4097") })"#,
    );
    refused_at(&path, "2:32", "the input `column` sets Main!A1:A4097, which would make the stored grid 16781312 cells");
    // At the cap: 4096 x 4096 loads.
    let path = workbook(
        "input_at_cap",
        r#"Workbook(sheets: ["Main"], cells: { "FAN1": 1 }, inputs: { "column": (range: "A1:A4096") })"#,
    );
    expect_exit(0, &["check", &path]);
}

#[test]
fn whitespace_in_an_input_alphabet_or_blanks_is_a_located_load_error() {
    let path = workbook(
        "space_alphabet",
        r#"Workbook(sheets: ["Main"],
  inputs: { "a": (range: "A1:C1", alphabet: "1 2"), "b": (range: "A2:C2", blanks: ".\t") })"#,
    );
    let err = refused_at(&path, "2:46", "an alphabet cannot hold whitespace (' ')");
    assert!(err.contains(&format!("{path}:2:84")), "{err}");
    assert!(err.contains(r"an input's blanks cannot hold whitespace ('\t')"), "{err}");
}
