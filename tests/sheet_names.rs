//! A sheet whose name needs quotes (`My Sheet`, in
//! `tests/data/cli/my_sheet.ron`) is spelled `'My Sheet'!A1` wherever the
//! binary prints an address: `check`'s cycle list, the circular-reference
//! warning, `run --trace`, the `--state` file and `graph`'s DOT and the reset line; and it is
//! found whatever its case wherever a user types it (`--set`, `--show`,
//! `eval --at`) or a state file names it, quoted or not.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

mod common;
use common::expect_exit;

const BOOK: &str = "tests/data/cli/my_sheet.ron";
const CYCLE: &str = "2 cells: 'My Sheet'!A1, 'My Sheet'!B1";

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dataflow-sheet-names-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[test]
fn check_and_the_warning_quote_the_cycle_cells() {
    let out = expect_exit(0, &["check", BOOK]);
    assert!(out.stdout.contains(&format!("cycle 1: {CYCLE}\n")), "{out:?}");
    let out = expect_exit(0, &["run", BOOK]);
    assert_eq!(
        out.stderr,
        format!("warning: circular reference ({CYCLE}); iteration is off, so these cells keep their last values\n")
    );
}

#[test]
fn the_reset_line_quotes_the_sheet() {
    let out = expect_exit(0, &["run", BOOK]);
    assert!(
        out.stdout.starts_with("reset: 'My Sheet'!C1 <- 4, calculated (0 iterations), then 'My Sheet'!C1 <- 5\n"),
        "{out:?}"
    );
}

#[test]
fn trace_lines_quote_the_sheet() {
    let out = expect_exit(0, &["run", BOOK, "--trace"]);
    assert!(out.stderr.contains("main: A1: 13 → 16; other: 'My Sheet'!D1: 12 → 15\n"), "{out:?}");
    assert!(out.stderr.contains("\n  'My Sheet'!D1: 12 → 15\n"), "{out:?}");
    let out = expect_exit(0, &["run", BOOK, "--trace-cell", "'MY SHEET'!D1"]);
    assert!(out.stderr.contains("calculation: 'My Sheet'!D1 = 15 (was 12)\n"), "{out:?}");
}

#[test]
fn graph_labels_quote_the_sheet() {
    let dot = expect_exit(0, &["graph", BOOK]).stdout;
    assert!(dot.contains("label=\"'My Sheet'!D1\\nmy_sheet.ron, 1 cell\""), "{dot}");
    assert!(dot.contains("label=\"'My Sheet'!C1 = 5\""), "{dot}");
    let dot = expect_exit(0, &["graph", BOOK, "--cell", "'my sheet'!d1"]).stdout;
    assert!(dot.contains("'My Sheet'!D1"), "{dot}");
}

#[test]
fn typed_sheet_names_ignore_case() {
    let out =
        expect_exit(0, &["run", BOOK, "--format", "json", "--set", "'my sheet'!C1=1", "--show", "'MY SHEET'!C1:D1"]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["ranges"]["'MY SHEET'!C1:D1"], serde_json::json!([[1.0, 3.0]]), "{out:?}");
    assert_eq!(expect_exit(0, &["eval", BOOK, "--at", "'my sheet'!A1", "C1+1"]).stdout, "6\n");
    assert_eq!(
        expect_exit(0, &["eval", BOOK, "--at", "'my sheet'!A1", "--refs", "C1:D1"]).stdout,
        "'My Sheet'!C1:D1\n"
    );
}

#[test]
fn state_files_quote_the_sheet_and_read_either_spelling() {
    let dir = temp_dir("state");
    let file = dir.join("state.ron");
    let path = file.display().to_string();
    expect_exit(0, &["run", BOOK, "--state", &path]);
    let text = std::fs::read_to_string(&file).unwrap();
    // RON escapes the quotes inside a string.
    assert!(text.contains(r#""\'My Sheet\'!D1": 15,"#), "{text}");
    // Keys typed by hand, unquoted and in another case, still restore.
    let edited = text.replace(r#""\'My Sheet\'!C1": 5,"#, r#""my sheet!C1": 2,"#);
    assert_ne!(edited, text);
    std::fs::write(&file, edited).unwrap();
    let out = expect_exit(0, &["run", BOOK, "--state", &path, "--format", "json", "--show", "main"]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["ranges"]["main"], serde_json::json!([[7.0, null]]), "{out:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
