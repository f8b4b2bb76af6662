//! Loading hostile files (issue 13): many problems in one file are capped
//! per file and rendered in time linear in the file; a long run of
//! unreadable characters lexes in linear time; an included FIFO is refused,
//! not waited on; megabyte keys, sheet names and lines give small reports;
//! a budget problem is reported once per formula; lines end at `\r` (and
//! ariadne's other line breaks) for the header and the note alike.
//! The big inputs are generated here, in a temporary directory per test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::expect_exit;
use dataflow::diagnostic::{Diagnostic, MAX_PER_FILE, Source};
use std::path::{Path, PathBuf};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dataflow-hostile-load-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `files` (name, text) into a fresh directory; the path of the first.
fn write(name: &str, files: &[(&str, &str)]) -> String {
    let dir = temp_dir(name);
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir.join(files[0].0).display().to_string()
}

fn check(path: &str) -> String {
    expect_exit(1, &["check", path]).stderr
}

#[test]
fn problems_are_capped_per_file() {
    let dfl: String = (1..=2000).map(|i| format!("cells Main!A{i} = 1+\n")).collect();
    let book =
        write("cap", &[("book.ron", r#"Workbook(sheets: ["Main"], include: ["many.dfl"])"#), ("many.dfl", &dfl)]);
    let err = check(&book);
    assert_eq!(err.matches("error: cannot parse").count(), MAX_PER_FILE, "{}", &err[err.len() - 500..]);
    assert!(err.contains("many.dfl:100:20"), "the 100th is shown");
    assert!(!err.contains("many.dfl:101:"), "the 101st is not");
    assert!(err.contains("error: and 1900 more problems in `"), "{}", &err[err.len() - 300..]);
    assert!(err.len() < 40_000, "{} bytes", err.len());
    assert!(err.ends_with("2000 problems found\n"), "the count is of every problem: {}", &err[err.len() - 100..]);
}

#[test]
fn binding_problems_are_capped_per_file_too() {
    let dfl: String = (1..=300).map(|i| format!("cells Main!A{i} = nosuch{i}\n")).collect();
    let book =
        write("bindcap", &[("book.ron", r#"Workbook(sheets: ["Main"], include: ["names.dfl"])"#), ("names.dfl", &dfl)]);
    let err = check(&book);
    assert_eq!(err.matches("error: unknown name").count(), MAX_PER_FILE, "{}", &err[err.len() - 500..]);
    assert!(err.contains("error: and 200 more problems in `"), "{}", &err[err.len() - 300..]);
    assert!(err.ends_with("300 problems found\n"), "{}", &err[err.len() - 100..]);
}

#[test]
fn a_long_run_of_unreadable_characters_is_one_short_problem() {
    let dfl = format!("cells Main!B1 = {}\n", "~".repeat(200_000));
    let book = write("at", &[("book.ron", r#"Workbook(sheets: ["Main"], include: ["at.dfl"])"#), ("at.dfl", &dfl)]);
    let err = check(&book);
    assert_eq!(err.matches("error:").count(), 1, "{err}");
    assert!(err.contains("unexpected `~~~~~~~~~~~~~~~~~~~~~~~…`"), "{err}");
    assert!(err.len() < 2_000, "{} bytes", err.len());
}

#[cfg(unix)]
#[test]
fn an_included_fifo_is_refused_at_its_include() {
    let book = write("fifo", &[("book.ron", "Workbook(sheets: [\"Main\"],\n  include: [\"pipe.dfl\", \"dir\"])")]);
    let dir = Path::new(&book).parent().unwrap();
    let made = std::process::Command::new("mkfifo").arg(dir.join("pipe.dfl")).status().unwrap();
    assert!(made.success());
    std::fs::create_dir(dir.join("dir")).unwrap();
    // Were the FIFO opened, `check` would wait for a writer forever.
    let err = check(&book);
    assert!(err.contains("pipe.dfl`: it is a FIFO (named pipe)"), "{err}");
    assert!(err.contains("book.ron:2:14"), "{err}");
    assert!(err.contains("dir`: it is a directory"), "{err}");
    assert!(err.contains("2 problems found"), "{err}");
    // So is a workbook file that is a FIFO.
    let made = std::process::Command::new("mkfifo").arg(dir.join("pipe.ron")).status().unwrap();
    assert!(made.success());
    let err = check(&dir.join("pipe.ron").display().to_string());
    assert!(err.contains("pipe.ron`: it is a FIFO"), "{err}");
}

#[test]
fn megabyte_keys_names_and_lines_give_small_reports() {
    let big = "A".repeat(2_000_000);
    let key = format!(r#"Workbook(sheets: ["Main"], cells: {{ "{big}": 1 }})"#);
    let sheet = format!(r#"Workbook(sheets: ["{big}"], cells: {{ "A1": 1 }})"#);
    let line = format!(r#"Workbook(sheets: ["Main"], cells: {{ "A1": "=1+{} +)" }})"#, "x".repeat(2_000_000));
    let name = format!("name {big} = 1\ncells Main!A1 = {big}+\n");
    let chains: Vec<String> = (0..255).map(|_| vec!["1"; 250].join("+")).collect();
    let sum = format!(r#"Workbook(sheets: ["Main"], cells: {{ "A1": "=SUM({})" }})"#, chains.join(","));
    let dir = temp_dir("big");
    for (file, text) in [("key.ron", key), ("sheet.ron", sheet), ("line.ron", line), ("sum.ron", sum)] {
        std::fs::write(dir.join(file), text).unwrap();
    }
    std::fs::write(dir.join("name.dfl"), name).unwrap();
    std::fs::write(dir.join("name.ron"), r#"Workbook(sheets: ["Main"], include: ["name.dfl"])"#).unwrap();
    for file in ["key.ron", "sheet.ron", "line.ron", "sum.ron", "name.ron"] {
        let err = check(&dir.join(file).display().to_string());
        assert!(err.len() < 20_000, "{file}: {} bytes:\n{}", err.len(), &err[..2_000.min(err.len())]);
        assert!(err.lines().all(|l| l.chars().count() < 600), "{file}: a long line:\n{}", &err[..2_000.min(err.len())]);
    }
    // The caret still points at the right character of a clipped line.
    let err = check(&dir.join("line.ron").display().to_string());
    assert!(err.contains("line.ron:1:2000049 ]"), "{err}");
    let caret_line = err.lines().find(|l| l.contains('┬')).unwrap();
    let source_line = err.lines().find(|l| l.contains(" +)")).unwrap();
    assert_eq!(caret_line.chars().position(|c| c == '┬'), source_line.chars().position(|c| c == ')'), "{err}");
    // A budget problem once per formula, not once per argument.
    let err = check(&dir.join("sum.ron").display().to_string());
    assert_eq!(err.matches("is larger than").count(), 1, "{err}");
}

#[test]
fn lines_end_where_the_renderer_ends_them() {
    for brk in ["\r", "\x0B", "\x0C", "\u{85}", "\u{2028}", "\u{2029}", "\r\n"] {
        let text = format!("Workbook(sheets: [\"Main\"],{brk} cells: {{ \"A1\": 1,{brk} \"A1\": 2 }})");
        let book = write("breaks", &[("book.ron", &text)]);
        let err = check(&book);
        // The header and the note count lines alike.
        assert!(err.contains("book.ron:3:3 ]"), "{brk:?}: {err}");
        assert!(err.contains("Main!A1 is set at ") && err.contains("book.ron:2:12"), "{brk:?}: {err}");
        assert!(err.contains(" 3 │  \"A1\": 2 })"), "{brk:?}: {err}");
    }
}

/// A formula file with old-Mac line ends (a bare `\r`) is read line by
/// line, as with `\n` and `\r\n`: a comment ends at its line, every entry
/// loads, and an error names the line the renderer counts.
#[test]
fn a_formula_file_with_bare_carriage_returns_reads_line_by_line() {
    for brk in ["\r", "\n", "\r\n"] {
        let dfl =
            ["# a comment", "cells Main!A1 = 1", "cells Main!A2 =", "    A1+", "cells Main!A3 = 1+"].join(brk) + brk;
        let book = write("bare-cr", &[("book.ron", "(sheets: [\"Main\"], include: [\"f.dfl\"])"), ("f.dfl", &dfl)]);
        let err = check(&book);
        assert!(err.contains("f.dfl:5:18 ]"), "{brk:?}: {err}");
        assert_eq!(err.matches("expected an expression").count(), 2, "{brk:?}: A2 and A3: {err}");
    }
}

#[test]
fn reports_far_down_a_file_number_their_lines() {
    let text = format!("{}x = 1 +;\n", "\n".repeat(1233));
    let src = Source::new("f.txt", text);
    let d = Diagnostic::at(&src, 1241..1242, "unexpected `;`", "here");
    let out = d.render(false);
    assert!(out.contains("f.txt:1234:9 ]"), "{out}");
    assert!(out.contains(" 1234 │ x = 1 +;"), "{out}");
    assert!(out.contains("─────╯"), "{out}");
    let colored = d.render(true);
    assert!(colored.contains("1234 │"), "{colored}");
    assert!(!colored.contains("1 │"), "{colored}");
}
