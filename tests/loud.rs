//! A strategy board left holding error values is loud. `tests/data/loud/`
//! has Ellis's solver with two parts: the shipped naked pairs (`pairs`),
//! and a copy broken on purpose (`broken`: MMULT of sizes that disagree),
//! whose 27×27 board fills with `#VALUE!` once the singles stall. The run
//! ends in Give UP either way it fails; `run`, `check --run`, `batch` (in
//! every format) and `watch` must say which view holds errors, how many,
//! and the first cell with its error. The puzzles where the singles stall
//! are known independently: the tiers file lists them as other than `S`.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
use common::watch::{run_number, with_watch};
use common::{PE96, expect_exit};
use serde_json::Value as Json;
use std::path::Path;
use std::time::Duration;

const BOOK: &str = "tests/data/loud/sudoku.ron";
const TIERS: &str = "workbooks/puzzles/9x9/project_euler_96.tiers.txt";
const WARNING: &str = "warning: view `broken` holds 729 error values; first Main!P34: #VALUE!";

/// The 1-based lines of PE96 the singles alone do not solve (tier not `S`).
fn stalled_lines() -> Vec<usize> {
    let tiers = std::fs::read_to_string(TIERS).unwrap();
    let lines: Vec<usize> = tiers.lines().enumerate().filter(|(_, t)| t.trim() != "S").map(|(i, _)| i + 1).collect();
    assert!(!lines.is_empty() && lines.len() < 50, "{lines:?}");
    lines
}

#[test]
fn run_warns_about_a_board_holding_errors() {
    let out = expect_exit(0, &["run", BOOK, "--with", "broken", "--show", "status"]);
    assert!(out.stdout.contains("status:\nGive UP\n"), "{out:?}");
    assert_eq!(out.stderr.lines().collect::<Vec<_>>(), [WARNING], "{out:?}");
    // The same warning whatever the output format, and the board holds it.
    let out = expect_exit(0, &["run", BOOK, "--with", "broken", "--show", "broken", "--format", "csv"]);
    assert_eq!(out.stdout.matches("#VALUE!").count(), 729, "{out:?}");
    assert!(out.stderr.contains(WARNING), "{out:?}");
    // The shipped strategy solves it and nothing is said.
    let out = expect_exit(0, &["run", BOOK, "--with", "pairs", "--show", "status"]);
    assert!(out.stdout.contains("status:\nsolved\n"), "{out:?}");
    assert!(!out.stderr.contains("warning"), "{out:?}");
}

#[test]
fn check_run_runs_once_and_warns() {
    let out = expect_exit(0, &["check", BOOK, "--with", "broken", "--run"]);
    assert!(out.stdout.contains("run with the workbook's inputs:\nreset: Main!D27 <- reset"), "{out:?}");
    assert!(out.stdout.contains("\n1 view holding error values (see the warnings)\n"), "{out:?}");
    assert!(out.stderr.contains(WARNING), "{out:?}");
    let out = expect_exit(0, &["check", BOOK, "--with", "pairs", "--run"]);
    assert!(out.stdout.contains("\nno view holds an error value\n"), "{out:?}");
    assert!(!out.stderr.contains("warning"), "{out:?}");
    // Without --run nothing runs.
    let out = expect_exit(0, &["check", BOOK, "--with", "broken"]);
    assert!(!out.stdout.contains("run with") && !out.stderr.contains("warning"), "{out:?}");
}

fn batch(part: &str, format: &str) -> common::Out {
    let input = format!("puzzle=@{PE96}");
    expect_exit(0, &["batch", BOOK, "--with", part, "--input", &input, "--format", format])
}

#[test]
fn batch_counts_the_puzzles_per_view_in_every_format() {
    let stalled = stalled_lines();
    let n = stalled.len();
    let first = stalled[0];

    let text = batch("broken", "text").stdout;
    let line = format!(
        "view `broken` held error values after {n} puzzles (first line {first}: 729 cells, first Main!P34: #VALUE!)\n"
    );
    assert!(text.contains(&line), "{text}");
    assert!(!batch("pairs", "text").stdout.contains("held error values"));

    let out = batch("broken", "jsonl");
    let lines: Vec<Json> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 50);
    let flagged: Vec<usize> =
        lines.iter().filter(|l| l.get("view_errors").is_some()).map(|l| l["line"].as_u64().unwrap() as usize).collect();
    assert_eq!(flagged, stalled);
    let expected = serde_json::json!([{"view": "broken", "count": 729, "first": "Main!P34", "error": "#VALUE!"}]);
    assert_eq!(lines[first - 1]["view_errors"], expected);
    assert_eq!(lines[first - 1]["status"], "unsolved", "a stalled puzzle is given up, not an error");
    let summary: Json = serde_json::from_str(out.stderr.lines().last().unwrap()).unwrap();
    assert_eq!(summary["summary"]["view_errors"], serde_json::json!({"broken": n}), "{}", out.stderr);
    let out = batch("pairs", "jsonl");
    assert!(!out.stdout.contains("view_errors"), "{}", out.stdout);
    let summary: Json = serde_json::from_str(out.stderr.lines().last().unwrap()).unwrap();
    assert_eq!(summary["summary"]["view_errors"], serde_json::json!({}));

    let out = batch("broken", "csv");
    let rows: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(rows[0], "file,line,status,iterations,period,ms,grid,message,view_errors");
    for row in &rows[1..] {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields.len(), 9, "{row}");
        let line: usize = fields[1].parse().unwrap();
        let errors = if stalled.contains(&line) { "broken: 729 at Main!P34 #VALUE!" } else { "" };
        assert_eq!(fields[8], errors, "{row}");
    }
    assert!(out.stderr.contains(&line), "{}", out.stderr);
}

/// `watch` over a workbook whose strategy file is edited as a user would:
/// shipped, then broken (the warning follows the run), then fixed.
#[test]
fn watch_warns_after_each_run_while_the_board_holds_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("dataflow-loud-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let formula = |f: &str| root.join("formulas").join(f).display().to_string();
    let include = [formula("ellis/layout.dfl"), formula("strategies/candidates.dfl"), formula("ellis/solution.dfl")];
    let status = formula("strategies/status.dfl");
    // PE96 grid 10, as in the workbook of tests/data/loud: the singles stall, naked pairs solve it.
    let puzzle = std::fs::read_to_string(root.join(PE96)).unwrap().lines().nth(9).unwrap().to_string();
    let book = dir.join("book.ron");
    std::fs::write(
        &book,
        format!(
            r#"(sheets: ["Main"], include: ["{}", "{}", "{}", "{status}", "pairs.dfl"],
                cells: {{ "Main!D27": "solve" }},
                calc: (iterate: true, max_iterations: 100, max_change: 0.001, order: "row-major"),
                inputs: {{ "puzzle": (range: "Main!D4:L12", alphabet: "123456789", blanks: ".0", value: "{puzzle}") }},
                views: {{ "status": (range: "Main!D29"), "pairs": (range: "naked_pairs_board") }},
                reset: (set: {{ "Main!D27": "reset" }}, then: {{ "Main!D27": "solve" }}))"#,
            include[0], include[1], include[2]
        ),
    )
    .unwrap();
    let shipped = std::fs::read_to_string(root.join("formulas/strategies/naked-pairs.dfl")).unwrap();
    let broken = std::fs::read_to_string(root.join("tests/data/loud/naked-pairs.dfl")).unwrap();
    let dfl = dir.join("pairs.dfl");
    std::fs::write(&dfl, &shipped).unwrap();
    let edit = |text: &str| {
        std::thread::sleep(Duration::from_millis(300)); // let the watcher settle
        std::fs::write(&dfl, text).unwrap();
    };
    let warning = "warning: view `pairs` holds 729 error values; first Main!P34: #VALUE!\n";
    with_watch(&book, &["--show", "status"], |out| {
        let first = run_number(out, 1)?;
        if !first.starts_with("reset:") || !first.contains("status:\nsolved\n") || first.contains("warning") {
            return Err(format!("the shipped strategy: {first}"));
        }
        edit(&broken);
        let second = run_number(out, 2)?;
        if !second.contains("status:\nGive UP\n") || !second.contains(warning) {
            return Err(format!("the broken strategy: {second}"));
        }
        edit(&shipped);
        let third = run_number(out, 3)?;
        if !third.contains("status:\nsolved\n") || third.contains("warning") {
            return Err(format!("fixed again: {third}"));
        }
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the warnings count: every cell of the area holding an error, the
/// first in row-major order (B1 before A2), none in an area without one.
#[test]
fn errors_in_counts_them_and_finds_the_first_by_rows() {
    let text = r#"(sheets: ["Main"], cells: { "Main!A1": 1, "Main!B1": "=1/0", "Main!A2": "=NA()", "Main!B2": "=A1&\"\"+\"x\"" })"#;
    let wb = dataflow::workbook::Workbook::from_str(text, Path::new("e.ron"), Path::new(".")).unwrap();
    let mut s = dataflow::session::Session::new(wb).unwrap();
    s.recalc();
    let e = s.errors_in(&s.area("Main!A1:B2").unwrap()).unwrap();
    assert_eq!((e.count, s.engine().program().cell_name(e.first)), (3, "Main!B1".to_string()));
    assert_eq!(e.error, dataflow::value::ErrorKind::Div0);
    let e = s.errors_in(&s.area("Main!A2:B2").unwrap()).unwrap();
    assert_eq!((e.count, e.error), (2, dataflow::value::ErrorKind::NA));
    assert_eq!(s.errors_in(&s.area("Main!A1").unwrap()), None);
}

/// `watch --corpus` counts the puzzles after which each view held errors,
/// as `batch` does.
#[test]
fn watch_corpus_counts_the_puzzles_per_view() {
    let (n, at) = (stalled_lines().len(), stalled_lines()[0]);
    let line = format!(
        "\nview `broken` held error values after {n} puzzles (first line {at}: 729 cells, first Main!P34: #VALUE!)\n"
    );
    with_watch(Path::new(BOOK), &["--with", "broken", "--corpus", PE96], |out| {
        let first = run_number(out, 1)?;
        if first.contains(&line) { Ok(()) } else { Err(format!("missing `{line}`: {first}")) }
    });
}
