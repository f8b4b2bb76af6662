//! Input lines (issue 11, item 4): whitespace-separated numbers (`12 10 8
//! 0 …`, `0`/`.` blank), symbols in either case where the alphabet is
//! unambiguous, `--alphabet` overriding the workbook's alphabet for one run
//! of `run`, `step` and `batch` (whose `--expect` lines are read through the
//! same alphabet), and errors naming the position and the symbol.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::json::{grid_line, json};
use common::{GRID1, GRID1_SOLVED, GRID2, GRID2_SOLVED, SUDOKU, expect_exit};
use serde_json::json as j;

const HEX: &str = "tests/data/bad/hex.ron";

/// `run HEX --input puzzle=LINE --show Main!R1:R3` as JSON: the sum, count
/// and largest value of the board.
fn hex_totals(line: &str, extra: &[&str]) -> serde_json::Value {
    let input = format!("puzzle={line}");
    let mut args = vec!["run", HEX, "--input", &input, "--format", "json", "--show", "Main!R1:R3"];
    args.extend(extra);
    json(&expect_exit(0, &args))["ranges"]["Main!R1:R3"].clone()
}

/// A 16x16 line of numbers: 16 first, then 255 blanks written as `0` or `.`.
fn numbers_line() -> String {
    let mut tokens = vec!["16", "12", "10"];
    tokens.extend(std::iter::repeat_n("0", 120));
    tokens.extend(std::iter::repeat_n(".", 133));
    tokens.join(" ")
}

#[test]
fn a_line_of_numbers() {
    assert_eq!(hex_totals(&numbers_line(), &[]), j!([[38.0], [3.0], [16.0]]));
    // The same board as symbols.
    let symbols = format!("GCA{}", ".".repeat(253));
    assert_eq!(hex_totals(&symbols, &[]), j!([[38.0], [3.0], [16.0]]));
}

#[test]
fn numbers_out_of_range_name_their_position() {
    let line = numbers_line().replacen("10", "17", 1);
    let out = expect_exit(2, &["run", HEX, "--input", &format!("puzzle={line}")]);
    assert_eq!(
        out.stderr,
        "error: input `puzzle`: `17` at position 3 is not a number from 1 to 16 nor a blank (`0`, `.`): the line is \
         read as numbers separated by spaces\n"
    );
    let short = numbers_line().replacen(" 0", "", 1);
    let out = expect_exit(2, &["run", HEX, "--input", &format!("puzzle={short}")]);
    assert_eq!(out.stderr, "error: input `puzzle` needs 256 numbers for A1:P16, got 255\n");
}

#[test]
fn symbols_in_either_case() {
    let lower = format!("gca{}", ".".repeat(253));
    assert_eq!(hex_totals(&lower, &[]), j!([[38.0], [3.0], [16.0]]));
}

#[test]
fn an_alphabet_for_one_run() {
    // 0-F: `0` is the number 1 and no longer a blank; `f` is 16.
    let line = format!("f0b{}", ".".repeat(253));
    assert_eq!(hex_totals(&line, &["--alphabet", "0123456789ABCDEF"]), j!([[29.0], [3.0], [16.0]]));
    // Without it, `0` is neither a symbol nor a blank of hex.ron.
    let out = expect_exit(2, &["run", HEX, "--input", &format!("puzzle={line}")]);
    assert_eq!(
        out.stderr,
        "error: input `puzzle`: symbol `0` at position 2 is not in the alphabet `123456789ABCDEFG` nor a blank (`.`)\n"
    );
    let out = expect_exit(2, &["run", HEX, "--alphabet", "ABCA"]);
    assert_eq!(out.stderr, "error: --alphabet `ABCA`: `A` appears twice in the alphabet\n");
    // Another count of symbols would put numbers past the board's into it.
    let out = expect_exit(2, &["run", HEX, "--alphabet", "123456789"]);
    assert!(out.stderr.contains("9 symbols, but the input `puzzle` has 16"), "{}", out.stderr);
}

/// GRID as letters: 1 is `a`, 9 is `i`.
fn letters(grid: &str) -> String {
    grid.chars().map(|c| c.to_digit(10).map_or(c, |d| (b'a' + d as u8 - 1) as char)).collect()
}

#[test]
fn run_and_step_read_through_the_alphabet() {
    let args = ["--alphabet", "ABCDEFGHI", "--input", &format!("puzzle={}", letters(GRID1))];
    let mut run = vec!["run", SUDOKU, "--format", "json", "--show", "solution"];
    run.extend(args);
    assert_eq!(grid_line(&json(&expect_exit(0, &run))["ranges"]["solution"]), GRID1_SOLVED);
    let mut step = vec!["step", SUDOKU, "--plain"];
    step.extend(args);
    let out = expect_exit(0, &step);
    assert!(out.stdout.contains("converged"), "{}", out.stdout);
}

#[test]
fn batch_expects_through_the_alphabet() {
    let dir = std::env::temp_dir().join(format!("dataflow-inputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (puzzles, solutions) = (dir.join("puzzles.txt"), dir.join("solutions.txt"));
    std::fs::write(&puzzles, format!("{}\n{}\n", letters(GRID1), letters(GRID2).to_uppercase())).unwrap();
    // Expected lines in lower case, and the second one as numbers, one per
    // cell (`4 1 7 …`: the numbers, not the symbols 4, 1, 7 of the alphabet).
    let numbers: Vec<String> = GRID2_SOLVED.chars().map(String::from).collect();
    std::fs::write(&solutions, format!("{}\n{}\n", letters(GRID1_SOLVED), numbers.join(" "))).unwrap();
    let input = format!("puzzle=@{}", puzzles.display());
    let expect = solutions.display().to_string();
    let args =
        ["batch", SUDOKU, "--alphabet", "ABCDEFGHI", "--input", &input, "--expect", &expect, "--format", "jsonl"];
    let out = expect_exit(0, &args);
    let lines: Vec<serde_json::Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["status"], "solved", "{}", out.stdout);
    assert_eq!(lines[0]["grid"], letters(GRID1_SOLVED).to_uppercase());
    assert_eq!(lines[1]["status"], "solved", "{}", out.stdout);
    // One cell off, as numbers: wrong.
    let wrong: Vec<String> = GRID2_SOLVED.replacen('2', "3", 1).chars().map(String::from).collect();
    std::fs::write(&solutions, format!("{}\n{}\n", letters(GRID1_SOLVED), wrong.join(" "))).unwrap();
    let out = expect_exit(0, &args);
    let second: serde_json::Value = serde_json::from_str(out.stdout.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["status"], "wrong", "{}", out.stdout);
    // An expected line outside the alphabet names its line and symbol.
    std::fs::write(&solutions, format!("{}\n{}x\n", letters(GRID1_SOLVED), &letters(GRID2_SOLVED)[1..])).unwrap();
    let out = expect_exit(2, &args);
    assert!(
        out.stderr
            .contains("--expect line 2: input `puzzle`: symbol `x` at position 81 is not in the alphabet `ABCDEFGHI`"),
        "{out:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
