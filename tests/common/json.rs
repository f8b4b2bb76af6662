//! Helpers for the tests of the binary's JSON output (`cli_run`,
//! `cli_batch`): stdout parsed as JSON, a range as a line of digits, and
//! solving the shipped Sudoku with `run --format json --show solution`.

use super::{Out, SUDOKU, expect_exit};
use serde_json::Value as Json;

pub fn json(out: &Out) -> Json {
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {out:?}"))
}

/// A JSON range (rows of values) as one line of digits, `.` for null or "".
pub fn grid_line(range: &Json) -> String {
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
pub fn solve_json(extra: &[&str]) -> Json {
    let mut args = vec!["run", SUDOKU, "--format", "json", "--show", "solution"];
    args.extend_from_slice(extra);
    json(&expect_exit(0, &args))
}
