//! The `dataflow run` subcommand end to end, on the shipped Sudoku workbook
//! and on small fixtures in `tests/data/cli/`: its text output (snapshot
//! with the timing redacted) and JSON output (parsed with serde_json),
//! inputs inline and from file lines, `--max-iter`, `--order`, `--set`,
//! `--no-reset`, circular references, and the refusals of bad inputs,
//! options and workbooks with their exit codes (1 workbook errors, 2 usage).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value as Json;
use std::process::Command;

mod common;
use common::json::{grid_line, json, solve_json};
use common::*;

/// The status line's timing (`...; 6.985 ms`) replaced by `<ms>`.
fn redact_ms(text: &str) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(|line| match line.strip_suffix(" ms").and_then(|rest| rest.rsplit_once(' ')) {
            Some((head, n)) if n.parse::<f64>().is_ok() => format!("{head} <ms>"),
            _ => line.to_string(),
        })
        .collect();
    lines.join("\n")
}

// ---------------------------------------------------------------- run

#[test]
fn run_solves_the_shipped_puzzle() {
    let out = expect_exit(0, &["run", SUDOKU]);
    assert!(out.stdout.starts_with("reset: Main!D27 <- reset, calculated ("), "{out:?}");
    assert!(out.stdout.contains("then Main!D27 <- solve"), "{out:?}");
    let status = out.stdout.lines().last().expect("a status line");
    assert!(status.starts_with("converged after "), "{status}");
    assert!(status.ends_with(" ms"), "{status}");
    // The solution view holds PE96 grid 2's solution, rows ruled off in threes.
    let solution = out.stdout.split("solution:\n").nth(1).expect("a solution view");
    let digits: String = solution.split("\n\n").next().unwrap().chars().filter(char::is_ascii_digit).collect();
    assert_eq!(digits, GRID2_SOLVED);
    assert_eq!(out.stderr, "");
    insta::assert_snapshot!("run_sudoku_text", redact_ms(&out.stdout));
}

#[test]
fn run_json_has_the_summary_and_the_ranges() {
    let out = expect_exit(0, &["run", SUDOKU, "--format", "json", "--show", "solution", "--show", "Main!D4:E5"]);
    let v = json(&out);
    let obj = v.as_object().expect("an object");
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["converged", "elapsed_ms", "iterations", "max_change", "ranges"]);
    assert_eq!(v["converged"], Json::Bool(true));
    assert!(v["iterations"].as_u64().is_some_and(|n| (1..=100).contains(&n)), "{v}");
    assert_eq!(v["max_change"].as_f64(), Some(0.0));
    assert!(v["elapsed_ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{v}");
    let ranges = v["ranges"].as_object().expect("ranges is an object");
    assert_eq!(ranges.len(), 2, "only the ranges asked for: {v}");
    let solution = ranges["solution"].as_array().expect("rows");
    assert_eq!(solution.len(), 9);
    for row in solution {
        let row = row.as_array().expect("a row");
        assert_eq!(row.len(), 9);
        assert!(row.iter().all(Json::is_number), "{row:?}");
    }
    assert_eq!(grid_line(&ranges["solution"]), GRID2_SOLVED);
    // The input's corner: the givens 2 and 6, empty cells as null.
    assert_eq!(ranges["Main!D4:E5"], serde_json::json!([[2.0, null], [null, 6.0]]));
}

#[test]
fn run_json_without_show_gives_every_view() {
    let v = json(&expect_exit(0, &["run", SUDOKU, "--format", "json"]));
    let mut keys: Vec<&String> = v["ranges"].as_object().expect("ranges").keys().collect();
    keys.sort_unstable();
    assert_eq!(keys, ["candidates", "input", "solution"]);
    assert_eq!(v["ranges"]["candidates"].as_array().map(Vec::len), Some(27));
}

#[test]
fn run_takes_a_puzzle_inline() {
    let v = solve_json(&["--input", &format!("puzzle={GRID1}")]);
    assert_eq!(v["converged"], Json::Bool(true));
    assert_eq!(grid_line(&v["ranges"]["solution"]), GRID1_SOLVED);
}

#[test]
fn run_takes_a_puzzle_from_a_file_line() {
    let v = solve_json(&["--input", "puzzle=@tests/data/cli/puzzles.txt:2"]);
    assert_eq!(grid_line(&v["ranges"]["solution"]), GRID2_SOLVED);
    // Without a line number: line 1.
    let v = solve_json(&["--input", "puzzle=@tests/data/cli/puzzles.txt"]);
    assert_eq!(grid_line(&v["ranges"]["solution"]), GRID1_SOLVED);
}

#[test]
fn run_refuses_an_input_of_the_wrong_length() {
    let out = expect_exit(2, &["run", SUDOKU, "--input", "puzzle=..3.2"]);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("input `puzzle` needs 81 symbols"), "{out:?}");
    assert!(out.stderr.contains("got 5"), "{out:?}");
    // Line 3 of the fixture is 79 symbols long.
    let out = expect_exit(2, &["run", SUDOKU, "--input", "puzzle=@tests/data/cli/puzzles.txt:3"]);
    assert!(out.stderr.contains("needs 81 symbols") && out.stderr.contains("got 79"), "{out:?}");
}

#[test]
fn run_refuses_a_symbol_outside_the_alphabet() {
    let out = expect_exit(2, &["run", SUDOKU, "--input", "puzzle=@tests/data/cli/puzzles.txt:4"]);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "error: input `puzzle`: symbol `x` at position 80 is not in the alphabet `123456789` nor a blank (`.0`)\n"
    );
}

#[test]
fn run_refuses_input_files_and_lines_that_do_not_exist() {
    let out = expect_exit(2, &["run", SUDOKU, "--input", "puzzle=@missing.txt"]);
    assert!(out.stderr.starts_with("error: cannot read `missing.txt`"), "{out:?}");
    let out = expect_exit(2, &["run", SUDOKU, "--input", "puzzle=@tests/data/cli/puzzles.txt:9"]);
    assert!(out.stderr.contains("has 4 lines; line 9 asked for"), "{out:?}");
    let out = expect_exit(2, &["run", SUDOKU, "--input", "puzzle=@tests/data/cli/puzzles.txt:0"]);
    assert!(out.stderr.contains("line numbers start at 1"), "{out:?}");
    let out = expect_exit(2, &["run", SUDOKU, "--input", "nope=123"]);
    assert!(out.stderr.contains("no input named `nope` (inputs: puzzle)"), "{out:?}");
}

#[test]
fn run_stops_at_max_iter() {
    let out = expect_exit(0, &["run", SUDOKU, "--max-iter", "1", "--show", "solution"]);
    let status = out.stdout.lines().last().expect("a status line");
    assert!(status.starts_with("not converged after 1 iteration;"), "{status}");
    let v = solve_json(&["--max-iter", "1"]);
    assert_eq!(v["converged"], Json::Bool(false));
    assert_eq!(v["iterations"], 1);
    // The first change of a never-calculated cell is infinite: shown as null.
    assert_eq!(v["max_change"], Json::Null);
}

#[test]
fn run_synchronous_order_reaches_the_same_solution() {
    let row_major = solve_json(&[]);
    let sync = solve_json(&["--order", "synchronous"]);
    assert_eq!(sync["converged"], Json::Bool(true));
    assert_eq!(sync["ranges"], row_major["ranges"]);
    // Jacobi needs at least as many sweeps as Gauss-Seidel here.
    assert!(sync["iterations"].as_u64() >= row_major["iterations"].as_u64(), "{sync} vs {row_major}");
    let out = expect_exit(0, &["run", SUDOKU, "--order", "row-major", "--show", "solution"]);
    assert!(out.stdout.contains("converged after"), "{out:?}");
}

#[test]
fn run_set_overrides_a_cell_after_the_reset() {
    // Back in the "reset" state the solution board shows the givens only.
    let v = solve_json(&["--set", "Main!D27=reset"]);
    assert_eq!(v["converged"], Json::Bool(true));
    assert_eq!(grid_line(&v["ranges"]["solution"]), GRID2);
    let v = json(&expect_exit(0, &["run", SUDOKU, "--format", "json", "--set", "D27=reset", "--show", "Main!D27"]));
    assert_eq!(v["ranges"]["Main!D27"], serde_json::json!([["reset"]]));
}

#[test]
fn run_set_refuses_bad_cells() {
    let out = expect_exit(2, &["run", SUDOKU, "--set", "Main!D27"]);
    assert!(out.stderr.contains("--set `Main!D27`: expected CELL=VALUE"), "{out:?}");
    let out = expect_exit(2, &["run", SUDOKU, "--set", "Main!P4=1"]);
    assert!(out.stderr.contains("Main!P4 holds a formula"), "{out:?}");
    let out = expect_exit(2, &["run", SUDOKU, "--set", "Nope!A1=1"]);
    assert!(out.stderr.contains("unknown sheet `Nope`"), "{out:?}");
    let out = expect_exit(2, &["run", SUDOKU, "--set", "Main!XFD1048576=1"]);
    assert!(out.stderr.contains("would make the stored grid larger than"), "{out:?}");
}

#[test]
fn run_no_reset_skips_the_protocol() {
    let out = expect_exit(0, &["run", SUDOKU, "--no-reset", "--show", "solution"]);
    assert!(!out.stdout.contains("reset:"), "{out:?}");
}

#[test]
fn run_on_a_missing_workbook_is_a_workbook_error() {
    let out = expect_exit(1, &["run", "tests/data/cli/no_such_workbook.ron"]);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("cannot read the workbook file `tests/data/cli/no_such_workbook.ron`"), "{out:?}");
    assert!(out.stderr.ends_with("1 problem found\n"), "{out:?}");
}

#[test]
fn run_on_a_broken_workbook_prints_nothing_on_stdout() {
    let out = expect_exit(1, &["run", "tests/data/cli/broken.ron", "--format", "json"]);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("tests/data/cli/broken.ron:6:"), "{out:?}");
}

#[test]
fn circular_reference_with_iteration_off_warns() {
    let out = expect_exit(0, &["run", "tests/data/cli/circular.ron"]);
    assert_eq!(
        out.stderr,
        "warning: circular reference (2 cells: Main!A1, Main!B1); iteration is off, so these cells keep their last values\n"
    );
    assert!(!out.stdout.contains('#'), "no error values: {out:?}");
    let v = json(&expect_exit(0, &["run", "tests/data/cli/circular.ron", "--format", "json"]));
    // The cycle keeps its (empty) values; the rest is calculated.
    assert_eq!(v["ranges"]["row"], serde_json::json!([[null, null, 5.0, 10.0, 10.0]]));
    let out = expect_exit(0, &["check", "tests/data/cli/circular.ron"]);
    assert!(out.stdout.contains("cycle 1: 2 cells: Main!A1, Main!B1"), "{out:?}");
    assert!(out.stdout.contains("iteration is off"), "{out:?}");
}

#[test]

fn circular_reference_status_line_does_not_deny_the_cycle() {
    let out = expect_exit(0, &["run", "tests/data/cli/circular.ron"]);
    let status = out.stdout.lines().last().expect("a status line");
    assert!(!status.starts_with("no circular references"), "{status}");
}

#[test]

fn run_refuses_to_show_a_huge_area() {
    // Under a 2 GB address-space cap so that the bug aborts instead of
    // swapping the machine.
    let exe = env!("CARGO_BIN_EXE_dataflow");
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 2000000; exec '{exe}' run tests/data/cli/far_view.ron --format json --show Main!A1:XFD1048576"
        ))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("Main!A1:XFD1048576"), "{stderr}");
}

#[test]

fn run_refuses_max_iter_out_of_range() {
    let out = expect_exit(2, &["run", SUDOKU, "--max-iter", "0"]);
    assert!(out.stderr.contains("--max-iter"), "{out:?}");
    expect_exit(2, &["run", SUDOKU, "--max-iter", "100000"]);
}

#[test]
fn run_refuses_a_bad_max_change() {
    let out = expect_exit(2, &["run", SUDOKU, "--max-change", "NaN"]);
    assert!(out.stderr.contains("--max-change must be a number >= 0, got NaN"), "{out:?}");
    expect_exit(2, &["run", SUDOKU, "--max-change", "inf"]);
    expect_exit(2, &["run", SUDOKU, "--max-change=-1"]);
}
