//! The formula corpus: every `tests/formulas/*.txt` file, one case per line,
//! checked by one test that reports every failing line at once. Adding a
//! case is adding a line; adding a file is dropping it in the directory.
//!
//! A file is one or more small sheets. Each sheet is a block of inputs, then
//! its cases; a line `---` starts a fresh sheet. Blank lines and lines
//! starting with `#` are ignored.
//!
//! ```text
//! B1 = 5                       a number, TRUE/FALSE or an error literal, as typed
//! B2 = "Hello"                 text, in double quotes ("" for a quote)
//! B3 = =B1*2                   a formula
//! C1:C3 = {=ROW()}             an array formula over a block (Ctrl+Shift+Enter)
//! name sq = B1:B3*B1:B3        a name anchored at A1 (no leading `=` needed)
//! name up @ B5 = B1            a name whose relative references count from B5
//!
//! =SUM(B1:B3)  ->  20          a case, evaluated in A1's context
//! @D2 =B1:B3*2  ->  10         a case evaluated in D2's context
//! =NORM.S.DIST(1,TRUE)  ~>  0.841344746068543
//!                              a number within a relative 1e-9 (as the
//!                              shared Excel-files comparison allows): for
//!                              values given to fewer digits than a double
//! ```
//!
//! Each case is evaluated on its own in the context of its cell, without
//! being stored (`Sheet::eval_at`), after the sheet's inputs were
//! recalculated; it shows what that cell would show. The expected value is
//! written as that cell shows it: a number (compared exactly, as Rust reads
//! it), `TRUE`/`FALSE`, an error literal such as `#DIV/0!`, or `"text"` in
//! quotes so that text is told from numbers. A line that does not read as
//! one of these fails the test with its file and line.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use common::corpus::{Block, Line, case, corpus_files, parse_corpus, show};
use dataflow::testing::Sheet;
use dataflow::value::Value;
use std::panic::{AssertUnwindSafe, catch_unwind};

mod common;

const DIR: &str = common::corpus::DIR;

/// Builds the block's sheet and evaluates its cases; one line per failure.
fn run(file: &str, block: &Block) -> Vec<String> {
    let mut s = Sheet::new();
    for Line { item: (cell, input), .. } in &block.cells {
        s.set(cell, input);
    }
    for Line { item: n, .. } in &block.names {
        s.name_at(&n.name, &n.anchor, &n.formula);
    }
    s.recalc();
    let mut failures: Vec<String> =
        s.issues().iter().map(|issue| format!("{file}:{}: the sheet has a problem: {issue}", block.line)).collect();
    for Line { line, item: case } in &block.cases {
        let got = catch_unwind(AssertUnwindSafe(|| s.eval_at(&case.at, &case.formula)));
        let at = if case.at == "A1" { String::new() } else { format!("@{} ", case.at) };
        match got {
            Ok(v) if case.matches(&v) => {}
            Ok(v) => failures.push(format!(
                "{file}:{line}: {at}{}\n    expected {}\n    got      {}",
                case.formula,
                show(&case.expected),
                show(&v)
            )),
            Err(_) => failures.push(format!("{file}:{line}: {at}{} panicked", case.formula)),
        }
    }
    failures
}

#[test]
fn corpus() {
    let files = corpus_files();
    assert!(!files.is_empty(), "no corpus files in {DIR}");
    let (mut failures, mut cases) = (Vec::new(), 0);
    for path in &files {
        let file = format!("{DIR}/{}", path.file_name().expect("a file name").to_string_lossy());
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{file}: {e}"));
        match parse_corpus(&text) {
            Err(problems) => failures.extend(problems.iter().map(|(line, m)| format!("{file}:{line}: {m}"))),
            Ok(blocks) => {
                let count: usize = blocks.iter().map(|b| b.cases.len()).sum();
                if count == 0 {
                    failures.push(format!("{file}: no cases"));
                }
                cases += count;
                for block in &blocks {
                    failures.extend(run(&file, block));
                }
            }
        }
    }
    println!("{cases} cases in {} files", files.len());
    assert!(failures.is_empty(), "{} corpus lines failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn malformed_lines_are_reported_with_their_line_numbers() {
    let text = [
        "B1 = 1",
        "B2 = abc",
        "B3 = \"12\"",
        "name two words = 1",
        "=SUM(  ->  1",
        "@ZZZ9999999 =1  ->  1",
        "=1  ->  one",
        "=2",
        "=\"a\"  ~>  \"a\"",
        "=1+1  ->  2",
        "B4 = 4",
    ]
    .join("\n");
    let problems = parse_corpus(&text).err().expect("malformed lines are refused");
    let lines: Vec<usize> = problems.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, [2, 3, 4, 5, 6, 7, 8, 9, 11], "{problems:?}");
}

#[test]
fn every_failing_case_is_reported() {
    let blocks = parse_corpus("B1 = \"a->b\"\n=B1  ->  \"a->b\"\n=1/0  ->  1\n\n=B1&\"\"\"\"  ->  \"a->b\"").unwrap();
    let failures = run("f.txt", &blocks[0]);
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert_eq!(failures[0], "f.txt:3: =1/0\n    expected 1\n    got      #DIV/0!");
    assert!(failures[1].starts_with("f.txt:5: =B1&\"\"\"\"\n"), "{failures:?}");
    assert!(failures[1].ends_with("got      \"a->b\"\"\""), "{failures:?}");
}

#[test]
fn close_cases_allow_a_relative_billionth_and_no_more() {
    let case = |src: &str| case(src).expect("a case");
    let third = case("=1/3  ~>  0.333333333333");
    assert!(third.matches(&Value::Number(1.0 / 3.0)));
    assert!(!third.matches(&Value::Number(0.3333333)), "a relative 1e-7 off");
    assert!(!third.matches(&Value::text("0.333333333333")));
    let exact = case("=1/3  ->  0.333333333333");
    assert!(!exact.matches(&Value::Number(1.0 / 3.0)), "`->` is exact");
}
