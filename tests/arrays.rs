//! Array formulas entered over a block (Excel's Ctrl+Shift+Enter, written
//! `{=...}`): what each cell of the block shows is in the formula corpus
//! (`tests/formulas/arrays.txt`); here, how a block recalculates (once for
//! the whole block, also inside a cycle), that it is edited as a whole, and
//! the block in `run`, `eval`, `step` and state files.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
use common::sheet::{n, sheet};
use common::*;
use dataflow::testing::Sheet;

const COUNTERS: &str = "tests/data/arrays/counters.ron";

#[test]
fn a_block_recalculates_when_what_it_reads_changes() {
    let mut s = sheet(&[("A1", "1"), ("A2", "2"), ("B1:B2", "{=A1:A2*10}"), ("C1", "=B2+1")]);
    assert_eq!((s.value("B1"), s.value("C1")), (n(10.0), n(21.0)));
    s.set("A2", "5");
    s.recalc();
    assert_eq!(s.evaluated(), ["B1", "B2", "C1"], "the whole block, then its reader");
    assert_eq!((s.value("B2"), s.value("C1")), (n(50.0), n(51.0)));
}

#[test]
fn a_block_in_a_cycle_is_calculated_once_per_iteration() {
    // Each cell adds 1 to the block's first cell. Calculated once for the
    // block (as Excel does), both cells see A1's old value; calculated
    // cell by cell, A2 would see the A1 just written.
    let mut s = Sheet::new();
    s.iterate(1, 0.001);
    s.set("A1:A2", "{=A1:A2*0+A1+1}");
    s.recalc();
    assert_eq!((s.text("A1"), s.text("A2")), ("1".to_string(), "1".to_string()));
    s.recalc();
    assert_eq!((s.text("A1"), s.text("A2")), ("2".to_string(), "2".to_string()));
}

#[test]
fn every_cell_of_a_block_shows_the_same_calculation() {
    // B1 takes C1 first and is calculated first (it reads itself, so it is
    // a cycle of its own); the block's other cells took their elements from
    // the same calculation, made while B1 was still empty. The next
    // iteration calculates the block again and every cell shows it, though
    // only B1 was marked by what changed.
    let mut s = Sheet::new();
    s.set("C1", "=7");
    s.set("A1:B4", "{=B1:C1}");
    s.iterate(100, 0.0);
    s.step();
    assert_eq!((s.text("A1"), s.text("B1"), s.text("A4")), ("0".into(), "7".into(), "0".into()));
    s.step();
    assert_eq!(s.evaluated(), ["B1", "A1", "A2", "B2", "A3", "B3", "A4", "B4"]);
    assert_eq!((s.text("A1"), s.text("B1"), s.text("A4")), ("7".into(), "7".into(), "7".into()));
}

#[test]
fn a_cell_of_a_block_reading_an_earlier_cell_converges_to_it() {
    // E3 compares A1 with D3, the block's first element: D3 is written
    // before E3 takes its element from the same calculation, so E3 must be
    // calculated again once the block is (it reads D3 through `last`).
    let mut s = Sheet::new();
    s.set("A1", "=MIN(A1+1, 5)");
    s.set("D3:E3", "{=LET(last, $D$3:$E$3, IF({TRUE, FALSE}, A1, A1=INDEX(last, 1, 1)))}");
    s.iterate(20, 0.001);
    let report = s.recalc();
    assert!(report.converged, "{report:?}");
    assert_eq!((s.text("A1"), s.text("D3"), s.text("E3")), ("5".into(), "5".into(), "TRUE".into()));
}

#[test]
fn a_block_reading_its_own_cells_iterates_to_its_caps() {
    let out = expect_exit(0, &["run", COUNTERS]);
    assert!(out.stdout.contains("counters:\n2\n4\n6\n"), "{out:?}");
}

#[test]
fn a_cell_of_a_block_cannot_be_set_alone() {
    let out = expect_exit(2, &["run", COUNTERS, "--set", "Main!A2=7"]);
    assert!(
        out.stderr.contains("Main!A2 is part of the array formula over Main!A1:A3, which is edited as a whole"),
        "{out:?}"
    );
}

#[test]
fn eval_prints_an_array_formula_whole() {
    let out = expect_exit(0, &["eval", "workbooks/arrays.ron", "{=B3:B4*C3:C4}"]);
    assert_eq!(out.stdout, "  3\n0.8\n");
    let out = expect_exit(0, &["eval", "workbooks/arrays.ron", "{=COLUMN()}", "--at", "Main!C1:E1"]);
    assert_eq!(out.stdout, "3 4 5\n");
    let out = expect_exit(0, &["eval", "workbooks/arrays.ron", "{=SUM(B3:B7*C3:C7)}"]);
    assert_eq!(out.stdout, "13.3\n");
}

#[test]
fn state_files_step_a_block_like_repeated_f9() {
    let dir = std::env::temp_dir().join(format!("dataflow-arrays-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("counters.state.ron").to_string_lossy().to_string();
    let _ = std::fs::remove_file(&state);
    let mut stepped = expect_exit(0, &["run", COUNTERS, "--max-iter", "1", "--state", &state]);
    for _ in 0..2 {
        stepped = expect_exit(0, &["run", COUNTERS, "--max-iter", "1", "--state", &state]);
    }
    let direct = expect_exit(0, &["run", COUNTERS, "--max-iter", "3"]);
    let view = |s: &str| s.split("counters:\n").nth(1).unwrap().split("\n\n").next().unwrap().to_string();
    assert_eq!(view(&direct.stdout), "2\n3\n3");
    assert_eq!(view(&stepped.stdout), view(&direct.stdout));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn step_shows_a_block_one_iteration_at_a_time() {
    let out = expect_exit(0, &["step", COUNTERS, "--plain", "--max-iter", "3"]);
    let step =
        |k: usize| out.stdout.split("== step ").nth(k + 1).unwrap().split_once("non-blank").unwrap().1.to_string();
    assert!(step(1).contains("filled\n+1\n+1\n+1\n\n"), "{out:?}");
    assert!(step(3).contains("other\n 2\n*3\n*3\n\n"), "{out:?}");
}

#[test]
fn a_block_formula_that_does_not_parse_is_located() {
    let dir = std::env::temp_dir().join(format!("dataflow-arrays-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.ron");
    std::fs::write(&path, "Workbook(sheets: [\"Main\"], cells: {\"A1:A2\": \"{=ROW(}\", \"B1:B2\": \"{=ROW()\"})")
        .unwrap();
    let out = expect_exit(1, &["check", &path.to_string_lossy()]);
    assert!(out.stderr.contains("bad.ron:1:51"), "the `(` left open: {out:?}");
    assert!(out.stderr.contains("has no closing `}`"), "{out:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
