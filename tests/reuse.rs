//! `reset: (..., reuse: true)`: `batch` starts each puzzle from the reset
//! state it calculated once, not from a fresh engine (`puzzle::Runner`).
//! For every shipped workbook that declares it, the state after the reset
//! protocol, and the run after it, are the same as from a fresh engine:
//! the same values and dirty flags (`Engine::same_state`) right after the
//! reset, the same report (iterations, evaluations, convergence) and the
//! same values after the solve, in both orders, with and without parts.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use dataflow::address::CellAddr;
use dataflow::policy::Order;
use dataflow::puzzle::Runner;
use dataflow::session::Session;
use std::path::Path;

/// Lines `lines` (from 1, comment lines not counted) of a puzzle file.
fn lines(file: &str, lines: std::ops::RangeInclusive<usize>) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let all: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    lines.map(|i| all[i - 1].to_string()).collect()
}

/// Runs `puzzles` through a runner of `workbook` (which must declare
/// `reuse`) and through a fresh engine each, comparing the two.
fn same_as_fresh(workbook: &str, with: &[&str], order: Order, puzzles: &[String]) {
    let with: Vec<String> = with.iter().map(|s| s.to_string()).collect();
    let mut base = Session::load_with(Path::new(workbook), &with).unwrap();
    assert!(base.workbook().reset.as_ref().unwrap().reuse, "{workbook} declares reuse");
    base.settings_mut().order = order;
    let mut runner = Runner::new(&base, "puzzle", true);
    for line in puzzles {
        let mut fresh = base.fresh();
        fresh.set_input("puzzle", line).unwrap();
        fresh.reset().unwrap();
        let reused = runner.start(line).unwrap();
        let at = format!("{workbook} {with:?} {order:?} {line}");
        assert!(reused.engine().same_state(fresh.engine()), "after the reset: {at}");
        let (a, b) = (reused.recalc(), fresh.recalc());
        assert_eq!(a, b, "the run's report: {at}");
        assert!(a.iterations > 0, "it iterated: {at}");
        assert!(reused.engine().same_state(fresh.engine()), "after the run: {at}");
    }
}

#[test]
fn ellis_workbook_with_and_without_strategies() {
    let pe96 = lines("workbooks/puzzles/9x9/project_euler_96.txt", 1..=6);
    let hard = lines("tests/data/reasons/puzzles.txt", 1..=8);
    for order in [Order::RowMajor, Order::Synchronous] {
        same_as_fresh("workbooks/sudoku.ron", &[], order, &pe96);
        same_as_fresh("workbooks/sudoku.ron", &["all"], order, &hard);
    }
}

#[test]
fn board_workbooks() {
    let nine = lines("workbooks/puzzles/9x9/project_euler_96.txt", 1..=3);
    let hyper = lines("workbooks/puzzles/hyper/sudoku_space_hyper_192.txt", 1..=3);
    for order in [Order::RowMajor, Order::Synchronous] {
        same_as_fresh("workbooks/sudoku9.ron", &["all"], order, &nine);
        same_as_fresh("workbooks/hyper.ron", &["all"], order, &hyper);
    }
    let sixteen = lines("workbooks/puzzles/16x16/hexadoku_4.txt", 1..=2);
    same_as_fresh("workbooks/sudoku16.ron", &["locked"], Order::RowMajor, &sixteen);
    let x = lines("workbooks/puzzles/x/dataflow_x_15.txt", 7..=8);
    same_as_fresh("workbooks/sudokux.ron", &["all"], Order::RowMajor, &x);
    let jigsaw = lines("workbooks/puzzles/jigsaw/janko_jigsaw_5.txt", 1..=2);
    same_as_fresh("workbooks/jigsaw.ron", &["all"], Order::RowMajor, &jigsaw);
}

#[test]
fn the_alphadoku_workbook() {
    let puzzles = lines("workbooks/puzzles/25x25/alphadoku_7.txt", 1..=1);
    same_as_fresh("workbooks/sudoku25.ron", &["locked"], Order::RowMajor, &puzzles);
}

/// What the declaration promises matters: a cycle counting its passes
/// whatever the state cell says (and reading the input) ends the reset at
/// another count from the reset state of the puzzle before than from a
/// fresh engine, so a runner trusting `reuse` would start it elsewhere.
#[test]
fn a_reset_that_counts_passes_is_not_a_function_of_the_inputs() {
    let path = common::temp_workbook(
        "reuse",
        "counter",
        r#"Workbook(
    sheets: ["Main"],
    calc: (iterate: true, max_iterations: 10, max_change: 0.001),
    cells: { "Main!B1": "=B1+A1*0+1", "Main!C1": "solve" },
    inputs: { "puzzle": (range: "Main!A1", alphabet: "123456789", blanks: ".0") },
    reset: (set: { "Main!C1": "reset" }, then: { "Main!C1": "solve" }, reuse: true),
)"#,
    );
    let base = Session::load(Path::new(&path)).unwrap();
    let mut runner = Runner::new(&base, "puzzle", true);
    let mut fresh = base.fresh();
    fresh.set_input("puzzle", "1").unwrap();
    fresh.reset().unwrap();
    let reused = runner.start("1").unwrap();
    let b1 = CellAddr::new(0, 0, 1);
    assert_eq!(fresh.engine().get(b1).to_string(), "10");
    assert_eq!(reused.engine().get(b1).to_string(), "20", "ten passes from the saved reset, ten more for the input");
}
