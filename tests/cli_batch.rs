//! The `dataflow batch` subcommand end to end: the summary and the JSON
//! lines of the Project Euler 96 corpus checked against its solutions
//! (skipped when the shared corpora are absent), bad puzzle lines reported
//! as errors, line numbers that are the file's, and its usage errors.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value as Json;

mod common;
use common::json::{grid_line, solve_json};
use common::*;

// ---------------------------------------------------------------- batch

fn batch(format: &str) -> Out {
    expect_exit(
        0,
        &["batch", SUDOKU, "--input", &format!("puzzle=@{PE96}"), "--expect", PE96_SOLUTIONS, "--format", format],
    )
}

#[test]
fn batch_summarises_pe96() {
    let out = batch("text");
    for line in ["puzzles: 50", "solved: 40", "unsolved: 10", "wrong: 0", "not converged: 0", "errors: 0"] {
        assert!(out.stdout.lines().any(|l| l == line), "{line}: {out:?}");
    }
}

#[test]
fn batch_jsonl_has_one_object_per_puzzle() {
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

/// `--format csv`: a header row, one row per puzzle in input order, the
/// collected values as their cells show them, messages quoted (they hold
/// commas); the summary goes to stderr.
#[test]
fn batch_csv_has_a_header_and_one_row_per_puzzle() {
    let args = ["batch", SUDOKU, "--input", "puzzle=@tests/data/cli/puzzles.txt", "--collect", "Main!D27"];
    let out = expect_exit(1, &[&args[..], &["--format", "csv"]].concat());
    let rows: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(rows[0], "file,line,status,iterations,period,ms,grid,Main!D27,message,view_errors");
    assert_eq!(rows.len(), 5, "{out:?}");
    let first: Vec<&str> = rows[1].split(',').collect();
    assert_eq!((first[0], first[1], first[2], first[6], first[7]), ("", "1", "solved", GRID1_SOLVED, "solve"));
    assert!(rows[3].starts_with(",3,error,"), "{}", rows[3]);
    // Every row has the header's columns (the message quoted, no comma in the others).
    assert!(rows[1..].iter().all(|r| r.split(',').count() >= 10), "{rows:?}");
    assert!(rows[3].contains(",,\"input `puzzle` needs 81 symbols"), "{}", rows[3]);
    // The last column, the views holding error values, is empty: no view held one.
    let row = rows[3].strip_suffix(',').unwrap_or_else(|| panic!("an empty last field: {}", rows[3]));
    let message = row.split_once(",\"").map(|(_, m)| m).unwrap_or(row);
    assert!(message.ends_with('"') && message.contains("needs 81 symbols"), "{}", rows[3]);
    assert!(out.stderr.contains("puzzles: 4") && out.stderr.contains("errors: 2"), "{out:?}");
}

#[test]
fn batch_reports_bad_lines_as_errors() {
    // Lines 3 and 4 of the fixture are a short line and a bad symbol: every
    // record is written, then the exit code is 1 (Spark's `checkCode`).
    let out = expect_exit(1, &["batch", SUDOKU, "--input", "puzzle=@tests/data/cli/puzzles.txt", "--format", "jsonl"]);
    assert!(out.stderr.ends_with("error: 2 puzzles could not be run (status error)\n"), "{out:?}");
    let lines: Vec<Json> = out.stdout.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let status: Vec<&str> = lines.iter().map(|o| o["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["solved", "solved", "error", "error"]);
    assert!(lines[2]["message"].as_str().unwrap().contains("needs 81 symbols"), "{}", lines[2]);
    assert!(lines[3]["message"].as_str().unwrap().contains("symbol `x`"), "{}", lines[3]);
    let out = expect_exit(1, &["batch", SUDOKU, "--input", "puzzle=@tests/data/cli/puzzles.txt"]);
    assert!(out.stdout.contains("errors: 2"), "{out:?}");
    assert!(out.stdout.contains("line 3: input `puzzle` needs 81 symbols"), "{out:?}");
}

/// A line may carry its expected answer after a comma (`puzzle,solution`),
/// graded as `--expect` grades; without errors the exit code is 0.
#[test]
fn batch_lines_may_carry_their_answers() {
    let mut wrong = GRID1_SOLVED.to_string();
    wrong.replace_range(0..1, if wrong.starts_with('1') { "2" } else { "1" });
    let input = format!("{GRID1},{GRID1_SOLVED}\n{GRID1}, {wrong}\n{GRID1}\n");
    let out = dataflow_stdin(&["batch", SUDOKU, "--input", "puzzle=@-", "--format", "jsonl"], &input);
    assert_eq!(out.code, 0, "{out:?}");
    let status: Vec<String> =
        out.stdout.lines().map(|l| serde_json::from_str::<Json>(l).unwrap()["status"].to_string()).collect();
    assert_eq!(status, ["\"solved\"", "\"wrong\"", "\"solved\""]);
    let out = dataflow_stdin(&["batch", SUDOKU, "--input", "puzzle=@-"], &format!("{GRID1},12x\n"));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("line 1: the answer after the comma"), "{out:?}");
    // An answer of another length cannot be compared: an error record
    // saying why (it was graded wrong), and exit 1.
    let out =
        dataflow_stdin(&["batch", SUDOKU, "--input", "puzzle=@-", "--format", "jsonl"], &format!("{GRID1},123\n"));
    assert_eq!(out.code, 1, "{out:?}");
    let record: Json = serde_json::from_str(out.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(record["status"], "error", "{out:?}");
    let why = "the expected answer has 3 symbols and the shown area 81: they cannot be compared";
    assert_eq!(record["message"], why, "{out:?}");
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

/// `--set` cells are set after every puzzle's reset protocol, as `run`
/// sets them after its own (it was ignored by `batch`): the strategies
/// together (D32) give the X-Wing puzzle another history than in turn.
#[test]
fn set_applies_to_every_puzzle() {
    let x = "1.....569492.561.8.561.924...964.8.1.64.1....218.356.4.4.5...169.5.614.2621.....5\n";
    let history = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["batch", SUDOKU, "--with", "all", "--input", "puzzle=@-", "--collect", "Main!D30"];
        args.extend(["--format", "jsonl"]);
        args.extend_from_slice(extra);
        let out = dataflow_stdin(&args, &format!("{x}{x}"));
        assert_eq!(out.code, 0, "{out:?}");
        out.stdout
            .lines()
            .map(|l| serde_json::from_str::<Json>(l).unwrap()["collected"]["Main!D30"].to_string())
            .collect()
    };
    assert_eq!(history(&[]), ["\"i!*!Xiiiiii\"", "\"i!*!Xiiiiii\""]);
    assert_eq!(history(&["--set", "Main!D32=together"]), ["\"i!*tqXsKZWCiiiiii\"", "\"i!*tqXsKZWCiiiiii\""]);
    let out = dataflow_stdin(&["batch", SUDOKU, "--with", "all", "--input", "puzzle=@-", "--set", "Main!D30=1"], x);
    assert_eq!(out.code, 2, "a cell the workbook refuses is a usage error: {out:?}");
}

// ------------------------------------------------- companion input files

const JIGSAW: &str = "workbooks/jigsaw.ron";
const JIGSAW_PUZZLES: &str = "workbooks/puzzles/jigsaw/janko_jigsaw_5.txt";
const JIGSAW_REGIONS: &str = "workbooks/puzzles/jigsaw/janko_jigsaw_5.regions.txt";
const JIGSAW_SOLUTIONS: &str = "workbooks/puzzles/jigsaw/janko_jigsaw_5.solutions.txt";

/// Writes `text` as a file of this test run; its path.
fn companion_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("dataflow-companion-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.txt"));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// The statuses of a jigsaw batch (`--with all`, graded by the solutions
/// file) with `more` arguments.
fn jigsaw_statuses(more: &[&str]) -> Vec<String> {
    let puzzles = format!("puzzle=@{JIGSAW_PUZZLES}");
    let args =
        ["batch", JIGSAW, "--with", "all", "--input", &puzzles, "--expect", JIGSAW_SOLUTIONS, "--format", "jsonl"];
    let out = dataflow(&[&args[..], more].concat());
    out.stdout
        .lines()
        .map(|l| serde_json::from_str::<Json>(l).unwrap_or_else(|e| panic!("{e}: {out:?}"))["status"].to_string())
        .collect()
}

/// A second `--input` naming another input is a companion file: line k
/// fills it for puzzle k. Each jigsaw puzzle has its own region map: with
/// the maps every one is solved; without them (the workbook's map, the
/// first puzzle's, for all) only the first; with the maps in another
/// order, not the puzzles whose maps moved.
#[test]
fn a_companion_file_fills_another_input_line_by_line() {
    let regions = format!("regions=@{JIGSAW_REGIONS}");
    assert_eq!(jigsaw_statuses(&["--input", &regions]), vec!["\"solved\""; 5]);
    let alone = jigsaw_statuses(&[]);
    assert_eq!(alone.len(), 5);
    assert_eq!(alone.iter().filter(|s| *s == "\"solved\"").count(), 1, "{alone:?}");
    let maps = std::fs::read_to_string(JIGSAW_REGIONS).unwrap();
    let mut lines: Vec<&str> = maps.lines().collect();
    lines.swap(1, 2);
    let swapped = companion_file("swapped", &(lines.join("\n") + "\n"));
    let statuses = jigsaw_statuses(&["--input", &format!("regions=@{swapped}")]);
    let solved: Vec<bool> = statuses.iter().map(|s| s == "\"solved\"").collect();
    assert_eq!(solved, [true, false, false, true, true], "{statuses:?}");
}

/// A companion shorter than the puzzles ends the batch at the first puzzle
/// it has no line for (after the records before it), naming file and line;
/// a companion must be one file of an input the workbook has.
#[test]
fn a_companion_file_is_checked() {
    let maps = std::fs::read_to_string(JIGSAW_REGIONS).unwrap();
    let short = companion_file("two", &maps.lines().take(2).collect::<Vec<_>>().join("\n"));
    let puzzles = format!("puzzle=@{JIGSAW_PUZZLES}");
    let run =
        |companion: &str| dataflow(&["batch", JIGSAW, "--input", &puzzles, "--input", companion, "--format", "jsonl"]);
    let out = run(&format!("regions=@{short}"));
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.stdout.lines().count(), 2, "the records before it: {out:?}");
    assert!(out.stderr.contains("(input `regions`) has no line for the puzzle on line 3"), "{out:?}");
    let out = run(&format!("nope=@{JIGSAW_REGIONS}"));
    assert_eq!((out.code, out.stderr.trim()), (2, "error: no input named `nope`"), "{out:?}");
    let out = run("regions=@-");
    assert!(out.code == 2 && out.stderr.contains("is a companion: it reads one file"), "{out:?}");
    let out = run("regions=@workbooks/puzzles/jigsaw");
    assert!(out.code == 2 && out.stderr.contains("is a companion: it reads one file"), "{out:?}");
}
