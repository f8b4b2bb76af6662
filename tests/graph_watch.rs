//! `dataflow graph` and `dataflow watch` end to end. The graphs must be
//! valid DOT (checked by shape here, and by Graphviz's `dot` when it is
//! installed) with the expected nodes; the collapsed graphs of a small
//! workbook and of the Sudoku are snapshots. `watch` runs in a temporary
//! copy of a workbook while a formula file is edited: the output follows,
//! a parse error shows its diagnostic above the last good result, a fix
//! brings a new result.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::SUDOKU;
use common::watch::{run_number, with_watch};

fn dataflow(code: i32, args: &[&str]) -> (String, String) {
    let out = common::expect_exit(code, args);
    (out.stdout, out.stderr)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dataflow-graph-watch-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// DOT's shape: `digraph NAME {`, braces balanced outside quoted strings,
/// strings closed, every edge between declared nodes; and `dot` accepts
/// it when Graphviz is installed.
fn assert_valid_dot(dot: &str) {
    assert!(dot.starts_with("digraph dataflow {\n") && dot.ends_with("}\n"), "{dot}");
    let (mut depth, mut in_str, mut escaped) = (0i32, false, false);
    for ch in dot.chars() {
        match (in_str, escaped, ch) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (true, false, '"') => in_str = false,
            (false, _, '"') => in_str = true,
            (false, _, '{') => depth += 1,
            (false, _, '}') => depth -= 1,
            _ => {}
        }
        assert!(depth >= 0, "unbalanced: {dot}");
        assert!(!(in_str && ch == '\n'), "a string runs over a line: {dot}");
    }
    assert!(depth == 0 && !in_str, "{dot}");
    let declared: Vec<&str> = dot.lines().filter_map(|l| l.trim().split_once(" [label=")).map(|(n, _)| n).collect();
    for l in dot.lines().filter(|l| l.contains(" -> ")) {
        let (a, rest) = l.trim().split_once(" -> ").unwrap();
        let b = rest.split([' ', ';']).next().unwrap();
        assert!(declared.contains(&a) && declared.contains(&b), "edge to an undeclared node: {l}");
    }
    if let Ok(mut child) =
        Command::new("dot").arg("-Tsvg").stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::piped()).spawn()
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(dot.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "dot refused it: {}", String::from_utf8_lossy(&out.stderr));
    }
}

const SMALL: &str = r##"(
    sheets: ["Main", "Other Sheet"],
    calc: (iterate: true),
    cells: {
        "Main!A1": 5,
        "Main!B1:B3": "=$A$1*2+$C$1",
        "Main!C1": "=SUM(B1:B3)/10",
        "Main!D1": r#"=IF(A1>1,"say ""big""",'Other Sheet'!A1)"#,
        "'Other Sheet'!A1": "=SUM(Main!B1:B3)",
    },
    names: { "twice": (formula: "=Main!$A$1*2") },
    inputs: { "seed": (range: "Main!A1", alphabet: "123456789") },
)"##;

fn small_workbook(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    let book = dir.join("small.ron");
    std::fs::write(&book, SMALL).unwrap();
    book
}

#[test]
fn graph_of_a_small_workbook() {
    let book = small_workbook("small");
    let (dot, _) = dataflow(0, &["graph", &book.display().to_string()]);
    assert_valid_dot(&dot);
    assert!(dot.contains("label=\"Main!B1:B3\\nsmall.ron, 3 cells\", shape=box, color=red"), "{dot}");
    assert!(dot.contains("label=\"cycle 1: 4 cells\""), "{dot}");
    assert!(dot.contains("label=\"Main!A1\\ninput seed\", shape=note"), "{dot}");
    insta::assert_snapshot!("graph_small", dot);
    let (names, _) = dataflow(0, &["graph", &book.display().to_string(), "--names"]);
    assert_valid_dot(&names);
    assert!(names.contains("label=\"twice\", shape=ellipse"), "{names}");
    assert!(names.contains("label=\"Main!$A$1\", shape=note"), "{names}");
    assert!(names.contains("label=\"'Other Sheet'!A1\\nfrom Main!D1\""), "{names}");
}

#[test]
fn graph_of_the_sudoku() {
    let (dot, _) = dataflow(0, &["graph", SUDOKU]);
    assert_valid_dot(&dot);
    assert!(dot.lines().count() < 40, "collapsed: {dot}");
    insta::assert_snapshot!("graph_sudoku", dot);
}

#[test]
fn graph_of_one_cell_and_of_names() {
    let (dot, _) = dataflow(0, &["graph", SUDOKU, "--cell", "Main!E17"]);
    assert_valid_dot(&dot);
    for label in [
        "\"Main!E17\", shape=box, style=\"filled,bold\"",
        "\"Main!S7:U9\", shape=ellipse",
        "\"Main!S7\", shape=box, color=red",
        "\"Main!E5\\ninput puzzle\", shape=note",
        "\"Main!D27 = \\\"solve\\\"\", shape=note",
        "\"81 cells of Main!P4:AP30\\nin Main!P7:AP9\", shape=box3d",
        "\"Main!D17:L17\", shape=ellipse",
    ] {
        assert!(dot.contains(&format!("[label={label}")), "{label}: {dot}");
    }
    let (names, _) = dataflow(0, &["graph", SUDOKU, "--names"]);
    assert_valid_dot(&names);
    for label in ["\"sol_board\"", "\"Main!$D$16:$L$24\"", "\"Main!D4\\nfrom Main!D16\"", "\"single_sol_in_box\""] {
        assert!(names.contains(&format!("[label={label}")), "{label}: {names}");
    }
    assert!(!names.contains("Main!A1"), "position-only references are left out: {names}");
    let (_, err) = dataflow(2, &["graph", SUDOKU, "--cell", "Main!E17:E18"]);
    assert!(err.contains("is a range"), "{err}");
    dataflow(2, &["graph", SUDOKU, "--cell", "Main!E17", "--names"]);
}

// ---------------------------------------------------------------- watch

#[test]
fn watch_follows_edits_of_a_formula_file() {
    let dir = temp_dir("watch");
    let book = dir.join("book.ron");
    let dfl = dir.join("f.dfl");
    let ron = r#"(sheets: ["Main"], include: ["f.dfl"], views: { "v": (range: "Main!A1:A2") })"#;
    std::fs::write(&book, ron).unwrap();
    std::fs::write(&dfl, "cells Main!A1:A2 = ROW()*2\n").unwrap();
    let (plain, _) = dataflow(0, &["run", &book.display().to_string()]);
    let edit = |path: &Path, text: &str| {
        std::thread::sleep(Duration::from_millis(300)); // let the watcher settle
        std::fs::write(path, text).unwrap();
    };
    with_watch(&book, &[], |out| {
        let first = run_number(out, 1)?;
        let body = first.split("\nwatching 2 files").next().unwrap();
        let status = |t: &str| t.lines().map(|l| l.split("; ").next().unwrap().to_string()).collect::<Vec<_>>();
        if status(body) != status(plain.trim_end()) {
            return Err(format!("the first run is `run`'s output:\n{first}\n---\n{plain}"));
        }
        edit(&dfl, "cells Main!A1:A2 = ROW()*3\n");
        let second = run_number(out, 2)?;
        if !second.starts_with("v:\n3\n6\n") {
            return Err(format!("after the edit: {second}"));
        }
        edit(&dfl, "cells Main!A1:A2 = ROW()*+\n");
        let third = run_number(out, 3)?;
        let expected =
            ["error: cannot parse", "f.dfl:1:", "The last good result, until the problem is fixed:\n\nv:\n3\n6\n"];
        if let Some(missing) = expected.iter().find(|e| !third.contains(**e)) {
            return Err(format!("after the error, missing `{missing}`: {third}"));
        }
        edit(&dfl, "cells Main!A1:A2 = ROW()*5\n");
        let fourth = run_number(out, 4)?;
        if !fourth.starts_with("v:\n 5\n10\n") || fourth.contains("error") {
            return Err(format!("after the fix: {fourth}"));
        }
        Ok(())
    });
}

/// A folder of included files deleted and made again is watched again:
/// the run after it is back shows the new formulas (before, the watch
/// was lost with the folder and nothing ran again).
#[test]
fn watch_follows_a_folder_deleted_and_made_again() {
    let dir = temp_dir("watch_folder");
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let book = dir.join("book.ron");
    let ron = r#"(sheets: ["Main"], include: ["sub/f.dfl"], views: { "v": (range: "Main!A1:A2") })"#;
    std::fs::write(&book, ron).unwrap();
    std::fs::write(sub.join("f.dfl"), "cells Main!A1:A2 = ROW()*2\n").unwrap();
    with_watch(&book, &[], |out| {
        let first = run_number(out, 1)?;
        if !first.starts_with("v:\n2\n4\n") {
            return Err(format!("the first run: {first}"));
        }
        std::thread::sleep(Duration::from_millis(300));
        std::fs::remove_dir_all(&sub).unwrap();
        let gone = run_number(out, 2)?;
        if !gone.contains("The last good result") {
            return Err(format!("after the folder went: {gone}"));
        }
        std::thread::sleep(Duration::from_millis(300));
        std::fs::create_dir_all(&sub).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        std::fs::write(sub.join("f.dfl"), "cells Main!A1:A2 = ROW()*7\n").unwrap();
        let start = Instant::now();
        loop {
            let text = out.lock().unwrap().clone();
            let last = text.rsplit("Ctrl-C quits\n").nth(1).unwrap_or("").to_string();
            if last.contains("v:\n 7\n14\n") && !last.contains("error") {
                return Ok(());
            }
            if start.elapsed() > Duration::from_secs(20) {
                return Err(format!("no run with the new formulas after 20 s: {text}"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    });
}
