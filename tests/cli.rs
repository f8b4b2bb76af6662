//! The `dataflow` binary end to end: `run`, `check`, `eval` and `batch` on
//! the shipped Sudoku workbook and on small fixtures in `tests/data/cli/`,
//! their output (text snapshots with the timing redacted, JSON parsed with
//! serde_json) and their exit codes: 0 success, 1 workbook errors, 2 usage.
//! Tests that show a known bug are `#[ignore = "bug: ..."]`.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value as Json;
use std::path::Path;
use std::process::Command;

mod common;
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

/// Trailing blanks removed from every line (ariadne pads some).
fn trim_lines(text: &str) -> String {
    text.lines().map(str::trim_end).collect::<Vec<_>>().join("\n")
}

fn json(out: &Out) -> Json {
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {out:?}"))
}

/// A JSON range (rows of values) as one line of digits, `.` for null or "".
fn grid_line(range: &Json) -> String {
    let rows = range.as_array().expect("a range is an array of rows");
    rows.iter()
        .flat_map(|r| r.as_array().expect("a row is an array").iter())
        .map(|v| match v {
            Json::Null => '.',
            Json::String(s) if s.is_empty() => '.',
            Json::Number(n) => {
                let n = n.as_f64().expect("a number");
                assert!(n.fract() == 0.0 && (1.0..=9.0).contains(&n), "not a digit: {n}");
                char::from_digit(n as u32, 10).expect("a digit")
            }
            other => panic!("unexpected value in a grid: {other}"),
        })
        .collect()
}

/// The solution view of `run --format json --show solution` with extra arguments.
fn solve_json(extra: &[&str]) -> Json {
    let mut args = vec!["run", SUDOKU, "--format", "json", "--show", "solution"];
    args.extend_from_slice(extra);
    json(&expect_exit(0, &args))
}

fn corpora_present() -> bool {
    let present = Path::new(env!("CARGO_MANIFEST_DIR")).join(PE96).exists();
    if !present {
        println!("skipping: {PE96} is absent (the shared puzzle corpora sit beside the project)");
    }
    present
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

// ---------------------------------------------------------------- check

#[test]
fn check_lists_the_cycle() {
    let out = expect_exit(0, &["check", SUDOKU]);
    assert!(out.stdout.contains("cycle 1: 810 cells"), "{out:?}");
    assert_eq!(out.stderr, "");
    insta::assert_snapshot!("check_sudoku", out.stdout);
}

#[test]
fn check_reports_every_problem_located() {
    let out = expect_exit(1, &["check", "tests/data/cli/broken.ron"]);
    assert_eq!(out.stdout, "");
    for at in ["tests/data/cli/broken.ron:6:", "tests/data/cli/broken.ron:7:", "tests/data/cli/broken.dfl:6:"] {
        assert!(out.stderr.contains(at), "{at}: {out:?}");
    }
    assert!(out.stderr.contains('┬'), "a caret under the place: {out:?}");
    assert!(out.stderr.contains("problems found"), "{out:?}");
    insta::assert_snapshot!("check_broken", trim_lines(&out.stderr));
}

#[test]

fn check_reports_problems_in_unused_names() {
    let out = expect_exit(1, &["check", "tests/data/cli/unused_names.ron"]);
    for what in ["unknown function `NOPE`", "IF takes 2 to 3 arguments", "refers to itself"] {
        assert!(out.stderr.contains(what), "{what}: {out:?}");
    }
}

// ---------------------------------------------------------------- eval

#[test]
fn eval_prints_the_value() {
    let out = expect_exit(0, &["eval", SUDOKU, "=COUNT(sol_board)"]);
    assert_eq!(out.stdout, "81\n");
    assert_eq!(out.stderr, "");
    let out = expect_exit(0, &["eval", SUDOKU, "=SUM(Main!D16:L24)"]);
    assert_eq!(out.stdout, "405\n");
    // A name without `=`, in a cell's context: the given digit under E16 is blank (""),
    // under D16 it is 2.
    let out = expect_exit(0, &["eval", SUDOKU, "in_cell_from_sol", "--at", "Main!D16"]);
    assert_eq!(out.stdout, "2\n");
    let out = expect_exit(0, &["eval", SUDOKU, r#"=IF(state="solve","on","off")"#]);
    assert_eq!(out.stdout, "on\n");
}

#[test]
fn eval_refs_prints_the_cells_referred_to() {
    let out = expect_exit(0, &["eval", SUDOKU, "in_cell_from_sol", "--at", "Main!E17", "--refs"]);
    assert_eq!(out.stdout, "Main!E5\n");
    let out = expect_exit(0, &["eval", SUDOKU, "val_bigcell_from_sol", "--at", "Main!E17", "--refs"]);
    assert_eq!(out.stdout, "Main!S7:U9\n");
    let out = expect_exit(2, &["eval", SUDOKU, "=1+1", "--refs"]);
    assert!(out.stderr.contains("the formula gives the value 2, not a reference"), "{out:?}");
}

#[test]
fn eval_refuses_a_formula_that_does_not_parse() {
    let out = expect_exit(2, &["eval", SUDOKU, "=SUM(("]);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.starts_with("error: the formula does not parse: column "), "{out:?}");
    let out = expect_exit(2, &["eval", SUDOKU, "=1", "--at", "Main!ZZZZ1"]);
    assert!(out.stderr.contains("--at `Main!ZZZZ1`"), "{out:?}");
}

#[test]
fn eval_warns_about_unknown_names() {
    let out = expect_exit(0, &["eval", SUDOKU, "=nosuch+1"]);
    assert_eq!(out.stdout, "#NAME?\n");
    assert_eq!(out.stderr, "warning: unknown name `nosuch`\n");
}

#[test]

fn eval_sumproduct_reads_its_arguments_as_arrays_from_any_cell() {
    // Four givens in column D. From A5 (inside rows 4-12) this is right already.
    let out = expect_exit(0, &["eval", SUDOKU, "=SUMPRODUCT((Main!D4:D12>0)*1)", "--at", "Main!A5"]);
    assert_eq!(out.stdout, "4\n");
    let out = expect_exit(0, &["eval", SUDOKU, "=SUMPRODUCT((Main!D4:D12>0)*1)", "--at", "Main!A1"]);
    assert_eq!(out.stdout, "4\n");
}

// ---------------------------------------------------------------- batch

fn batch(format: &str) -> Out {
    expect_exit(
        0,
        &["batch", SUDOKU, "--input", &format!("puzzle=@{PE96}"), "--expect", PE96_SOLUTIONS, "--format", format],
    )
}

#[test]
fn batch_summarises_pe96() {
    if !corpora_present() {
        return;
    }
    let out = batch("text");
    for line in ["puzzles: 50", "solved: 40", "unsolved: 10", "wrong: 0", "not converged: 0", "errors: 0"] {
        assert!(out.stdout.lines().any(|l| l == line), "{line}: {out:?}");
    }
}

#[test]
fn batch_jsonl_has_one_object_per_puzzle() {
    if !corpora_present() {
        return;
    }
    let out = batch("jsonl");
    let lines: Vec<Json> =
        out.stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect();
    assert_eq!(lines.len(), 50);
    for (i, o) in lines.iter().enumerate() {
        assert_eq!(o["line"], i + 1, "{o}");
        assert!(["solved", "unsolved"].contains(&o["status"].as_str().unwrap_or("")), "{o}");
        assert!(o["iterations"].as_u64().is_some_and(|n| n >= 1), "{o}");
        assert!(o["ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{o}");
        assert_eq!(o["grid"].as_str().map(str::len), Some(81), "{o}");
    }
    assert_eq!(lines[0]["grid"], GRID1_SOLVED);
    assert_eq!(lines[1]["grid"], GRID2_SOLVED);
    assert_eq!(lines.iter().filter(|o| o["status"] == "solved").count(), 40);
}

#[test]
fn batch_reports_bad_lines_as_errors() {
    // Lines 3 and 4 of the fixture are a short line and a bad symbol.
    let out = expect_exit(0, &["batch", SUDOKU, "--input", "puzzle=@tests/data/cli/puzzles.txt", "--format", "jsonl"]);
    let lines: Vec<Json> = out.stdout.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let status: Vec<&str> = lines.iter().map(|o| o["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["solved", "solved", "error", "error"]);
    assert!(lines[2]["message"].as_str().unwrap().contains("needs 81 symbols"), "{}", lines[2]);
    assert!(lines[3]["message"].as_str().unwrap().contains("symbol `x`"), "{}", lines[3]);
    let out = expect_exit(0, &["batch", SUDOKU, "--input", "puzzle=@tests/data/cli/puzzles.txt"]);
    assert!(out.stdout.contains("errors: 2"), "{out:?}");
    assert!(out.stdout.contains("line 3: input `puzzle` needs 81 symbols"), "{out:?}");
}

#[test]
fn batch_usage_errors() {
    let out = expect_exit(2, &["batch", SUDOKU]);
    assert!(out.stderr.contains("batch takes exactly one --input NAME=@FILE"), "{out:?}");
    let out = expect_exit(2, &["batch", SUDOKU, "--input", &format!("puzzle={GRID1}")]);
    assert!(out.stderr.contains("batch reads a file"), "{out:?}");
    let out = expect_exit(2, &["batch", SUDOKU, "--input", "puzzle=@missing.txt"]);
    assert!(out.stderr.contains("cannot read `missing.txt`"), "{out:?}");
    let out = expect_exit(2, &["batch", SUDOKU, "--input", "puzzle=@tests/data/cli/puzzles.txt", "--show", "nope"]);
    assert!(out.stderr.contains("--show `nope`"), "{out:?}");
    let out = expect_exit(
        2,
        &["batch", SUDOKU, "--input", "puzzle=@tests/data/cli/puzzles.txt", "--expect", "tests/data/cli/far_view.ron"],
    );
    assert!(out.stderr.contains("--expect has"), "{out:?}");
}

#[test]

fn batch_line_numbers_are_the_file_lines() {
    let dir = std::env::temp_dir().join(format!("dataflow-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("gap.txt");
    std::fs::write(&file, format!("{GRID1}\n\n{GRID2}\n")).unwrap();
    let out =
        expect_exit(0, &["batch", SUDOKU, "--input", &format!("puzzle=@{}", file.display()), "--format", "jsonl"]);
    let last: Json = serde_json::from_str(out.stdout.lines().last().unwrap()).unwrap();
    // `run --input puzzle=@gap.txt:3` is GRID2; batch should call it line 3 too.
    let run = solve_json(&["--input", &format!("puzzle=@{}:3", file.display())]);
    assert_eq!(grid_line(&run["ranges"]["solution"]), GRID2_SOLVED);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(last["grid"], GRID2_SOLVED);
    assert_eq!(last["line"], 3, "{last}");
}

// ---------------------------------------------------------------- usage

#[test]
fn usage_errors_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["frobnicate", SUDOKU], "unrecognized subcommand 'frobnicate'"),
        (&[], "Usage:"),
        (&["run"], "required arguments were not provided"),
        (
            &["run", SUDOKU, "--show", "nope"],
            "--show `nope` is neither a view (input, solution, candidates) nor a range",
        ),
        (&["run", SUDOKU, "--input", "puzzle"], "--input `puzzle`: expected NAME=VALUE"),
        (&["run", SUDOKU, "--order", "sideways"], "invalid value 'sideways' for '--order <ORDER>'"),
        (&["run", SUDOKU, "--format", "xml"], "invalid value 'xml' for '--format <FORMAT>'"),
        (&["run", SUDOKU, "--max-iter", "many"], "invalid value 'many' for '--max-iter <N>'"),
        (&["run", SUDOKU, "--frob"], "unexpected argument '--frob'"),
        (&["eval", SUDOKU], "required arguments were not provided"),
        (&["batch", SUDOKU, "--format", "json"], "invalid value 'json'"),
    ];
    for (args, message) in cases {
        let out = expect_exit(2, args);
        assert_eq!(out.stdout, "", "{args:?}");
        assert!(out.stderr.contains(message), "{args:?}: expected `{message}` in {out:?}");
    }
}

#[test]
fn help_and_version_exit_0() {
    let out = expect_exit(0, &["--help"]);
    for command in ["run", "check", "eval", "batch"] {
        assert!(out.stdout.contains(command), "{out:?}");
    }
    let out = expect_exit(0, &["--version"]);
    assert!(out.stdout.starts_with("dataflow "), "{out:?}");
}
