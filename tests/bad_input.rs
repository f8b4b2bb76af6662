//! Every bad input has a defined, tested outcome: a clear message located in
//! its file (snapshots of `Diagnostic::render(false)` in `tests/snapshots/`),
//! or an Excel error value; never a panic, a hang, a stack overflow or an
//! out-of-memory abort. Fixtures live in `tests/data/bad/`; paths are given
//! relative to the crate so that messages are stable. Inputs that could
//! abort the process run in the `dataflow` binary rather than in this one.
//! Tests that show a known bug are `#[ignore = "bug: ..."]`.
//!
//! This file covers bad workbook files (malformed, empty, unreadable,
//! missing or corrupt formula files, parse errors) and binding errors
//! (unknown names and functions, argument counts, name loops). Limits of
//! nesting and size are in `bad_input_limits.rs`; references outside the
//! sheet, numbers and input lines in `bad_input_values.rs`. The helpers
//! are in `common/bad_input.rs`.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::bad_input::{err, load_errors, loads, locations, messages, render_all, session_errors};
use dataflow::testing::Sheet;
use dataflow::value::{ErrorKind, Value};

// ------------------------------------------------------------ workbook files

#[test]
fn malformed_ron_is_located() {
    // An unclosed string swallows a line break; ron notices on the next line.
    let diags = load_errors("malformed.ron");
    assert_eq!(diags.len(), 1);
    insta::assert_snapshot!("malformed_ron", render_all(&diags));
}

#[test]
fn malformed_ron_unclosed_string_points_at_the_string() {
    let diags = load_errors("malformed.ron");
    let d = &diags[0];
    let at = d.location().unwrap_or_default();
    let mentions_string = d.message.contains("string") || d.note.as_deref().is_some_and(|n| n.contains("string"));
    assert!(at.starts_with("tests/data/bad/malformed.ron:3:") || mentions_string, "{}", render_all(&diags));
}

#[test]
fn empty_and_unreadable_workbook_files() {
    let diags = load_errors("empty.ron");
    assert_eq!(locations(&diags), ["tests/data/bad/empty.ron:1:1"]);
    assert!(diags[0].message.starts_with("malformed workbook file"), "{}", diags[0].message);

    let diags = load_errors("not_utf8.ron");
    assert_eq!(messages(&diags), ["cannot read the workbook file `tests/data/bad/not_utf8.ron`: not UTF-8 text"]);
    let diags = load_errors("no_such_workbook.ron");
    assert_eq!(
        messages(&diags),
        ["cannot read the workbook file `tests/data/bad/no_such_workbook.ron`: file not found"]
    );
    // A directory is not a workbook either.
    let diags = load_errors("");
    assert!(diags[0].message.starts_with("cannot read the workbook file"), "{}", diags[0].message);
}

#[test]
fn missing_formula_file_is_reported_at_its_include() {
    let diags = load_errors("missing_include.ron");
    assert_eq!(diags.len(), 1, "the file that exists loads: {}", render_all(&diags));
    assert_eq!(locations(&diags), ["tests/data/bad/missing_include.ron:3:31"]);
    insta::assert_snapshot!("missing_include", render_all(&diags));
}

#[test]
fn corrupt_formula_file_is_a_diagnostic() {
    let diags = load_errors("corrupt.ron");
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].label, "not UTF-8 text");
    insta::assert_snapshot!("corrupt_dfl", render_all(&diags));
    // Control characters in valid UTF-8: a parse error at the first NUL.
    let diags = load_errors("control_chars.ron");
    assert_eq!(locations(&diags), ["tests/data/bad/control_chars.dfl:1:11"]);
    assert!(diags[0].label.starts_with("unexpected"), "{}", diags[0].label);
}

#[test]
fn every_parse_error_is_reported_at_once() {
    let diags = load_errors("parse_errors.ron");
    let at = locations(&diags);
    // Every broken cell and name of the workbook file...
    for line in [7, 8, 9, 10, 13] {
        let want = format!("tests/data/bad/parse_errors.ron:{line}:");
        assert!(at.iter().any(|l| l.starts_with(&want)), "{want} in {at:?}");
    }
    // ...and of the formula file, in file order.
    for line in [2, 6, 8, 11] {
        let want = format!("tests/data/bad/parse_errors.dfl:{line}:");
        assert!(at.iter().any(|l| l.starts_with(&want)), "{want} in {at:?}");
    }
    let first_dfl = at.iter().position(|l| l.contains(".dfl")).unwrap();
    assert!(at[..first_dfl].iter().all(|l| l.contains(".ron")) && at[first_dfl..].iter().all(|l| l.contains(".dfl")));
    insta::assert_snapshot!("parse_errors", render_all(&diags));
}

// ------------------------------------------------------------ binding

#[test]
fn unknown_names_functions_and_argument_counts_are_located() {
    // They parse: `load` accepts the files, binding finds the problems.
    loads("binding.ron");
    let diags = session_errors("binding.ron");
    assert_eq!(
        messages(&diags),
        [
            "unknown name `nobody`",
            "unknown function `NOSUCHFN`",
            "IF takes 2 to 3 arguments, got 1",
            "MOD takes 2 arguments, got 3",
            "IF takes 2 to 3 arguments, got 1",
            "MOD takes 2 arguments, got 3",
        ]
    );
    assert_eq!(
        locations(&diags),
        [
            "tests/data/bad/binding.ron:7:22",
            "tests/data/bad/binding.ron:8:22",
            "tests/data/bad/binding.ron:9:22",
            "tests/data/bad/binding.ron:10:22",
            "tests/data/bad/binding.dfl:3:5",
            "tests/data/bad/binding.dfl:6:5",
        ]
    );
    insta::assert_snapshot!("binding", render_all(&diags));
}

#[test]
fn wrong_argument_counts_in_a_sheet_are_errors_not_panics() {
    let mut s = Sheet::new();
    s.set("A1", "=IF(1)");
    s.set("A2", "=MOD(1,2,3)");
    s.set("A3", "=NOSUCHFN(1)");
    s.set("A4", "=nobody");
    s.set("A5", "=SUM()");
    s.recalc();
    assert_eq!(s.value("A1"), err(ErrorKind::Value));
    assert_eq!(s.value("A2"), err(ErrorKind::Value));
    assert_eq!(s.value("A3"), err(ErrorKind::Name));
    assert_eq!(s.value("A4"), err(ErrorKind::Name));
    assert_eq!(s.value("A5"), err(ErrorKind::Value));
    let mut issues = s.issues();
    issues.sort();
    assert_eq!(
        issues,
        [
            "Sheet1!A1: IF takes 2 to 3 arguments, got 1",
            "Sheet1!A2: MOD takes 2 arguments, got 3",
            "Sheet1!A3: unknown function `NOSUCHFN`",
            "Sheet1!A4: unknown name `nobody`",
            "Sheet1!A5: SUM takes at least 1 argument, got 0",
        ]
    );
}

#[test]
fn name_loops_name_the_loop() {
    let diags = session_errors("name_loops.ron");
    assert_eq!(
        messages(&diags),
        ["name `me` refers to itself: me -> me", "name `alpha` refers to itself: alpha -> beta -> gamma -> alpha"]
    );
    assert_eq!(locations(&diags), ["tests/data/bad/name_loops.dfl:2:11", "tests/data/bad/name_loops.dfl:7:23"]);
    insta::assert_snapshot!("name_loops", render_all(&diags));
}

#[test]
fn name_loops_in_a_sheet_give_name_errors() {
    let mut s = Sheet::new();
    s.name("me", "=me+1");
    s.name("alpha", "=beta");
    s.name("beta", "=alpha");
    s.set("A1", "=me");
    s.set("A2", "=alpha");
    s.set("A3", "=IFERROR(beta, 7)");
    s.recalc();
    assert_eq!(s.value("A1"), err(ErrorKind::Name));
    assert_eq!(s.value("A2"), err(ErrorKind::Name));
    assert_eq!(s.value("A3"), Value::Number(7.0));
    let issues = s.issues();
    assert!(issues.contains(&"Sheet1!A1: name `me` refers to itself: me -> me".to_string()), "{issues:?}");
    assert!(
        issues.contains(&"Sheet1!A2: name `alpha` refers to itself: alpha -> beta -> alpha".to_string()),
        "{issues:?}"
    );
    // The loop is reported once, from its first name (issue 13 item 20).
    assert_eq!(issues.len(), 2, "{issues:?}");
}
