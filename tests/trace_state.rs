//! `run --trace`, `--trace-cell`, `--trace-file` and `run --state FILE` end
//! to end on the shipped Sudoku workbook: tracing iterates exactly as a
//! plain run does and reports every iteration; repeated `--max-iter 1
//! --state F` runs reproduce the boards of successive `Session::step`s
//! until the puzzle is solved; corrupt and mismatched state files are
//! refused with exit 1 and a way out.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::session::Session;
use dataflow::state::State;
use std::path::{Path, PathBuf};

mod common;
use common::{GRID2_SOLVED, SUDOKU, expect_exit as dataflow};

/// The status line's timing replaced by `<ms>`.
fn redact_ms(text: &str) -> String {
    text.lines()
        .map(|l| match l.strip_suffix(" ms").and_then(|r| r.rsplit_once(' ')) {
            Some((head, n)) if n.parse::<f64>().is_ok() => format!("{head} <ms>"),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A fresh directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dataflow-trace-state-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

// ---------------------------------------------------------------- trace

#[test]
fn trace_reports_every_iteration_and_changes_nothing_else() {
    let plain = dataflow(0, &["run", SUDOKU]);
    let traced = dataflow(0, &["run", SUDOKU, "--trace"]);
    assert_eq!(redact_ms(&traced.stdout), redact_ms(&plain.stdout), "stdout is as without tracing");
    let status = plain.stdout.lines().last().unwrap();
    let n: u32 = status.strip_prefix("converged after ").unwrap().split(' ').next().unwrap().parse().unwrap();
    let summaries: Vec<&str> = traced.stderr.lines().filter(|l| l.starts_with("iteration ")).collect();
    assert_eq!(summaries.len(), n as usize, "{}", traced.stderr);
    for (i, line) in summaries.iter().enumerate() {
        assert!(line.starts_with(&format!("iteration {}: ", i + 1)), "{line}");
    }
    assert!(summaries[0].contains("solution: E16 ← 4"), "{}", summaries[0]);
    assert!(summaries[0].contains("candidates: ") && summaries[0].contains(" eliminated in "), "{}", summaries[0]);
    assert_eq!(*summaries.last().unwrap(), format!("iteration {n}: no changes"));
    assert!(traced.stderr.contains("\n  Main!E16: \"\" → 4\n"), "{}", traced.stderr);
    // Every change line is `  CELL: old → new` under an iteration.
    let changes = traced.stderr.lines().filter(|l| l.starts_with("  ")).count();
    assert!(traced.stderr.lines().filter(|l| l.starts_with("  ")).all(|l| l.contains(": ") && l.contains(" → ")));
    // The solution's 81 - 30 given cells each got a value once.
    let gained = traced.stderr.lines().filter(|l| l.starts_with("  Main!") && l.contains(": \"\" → ")).count();
    assert!(gained >= 51, "{gained} of {changes}");
    let summary_only: Vec<&str> = summaries.clone();
    insta::assert_snapshot!("trace_sudoku_summaries", summary_only.join("\n"));
}

#[test]
fn trace_cell_follows_cells_and_ranges() {
    let out = dataflow(0, &["run", SUDOKU, "--trace-cell", "Main!F18", "--trace-cell", "Main!D16:F18"]);
    let f18: Vec<&str> = out.stderr.lines().filter(|l| l.contains(": Main!F18 = ")).collect();
    assert_eq!(f18.len(), 9, "one line per iteration: {}", out.stderr);
    assert_eq!(f18[0], "iteration 1: Main!F18 = \"\" (unchanged)");
    assert_eq!(f18[3], "iteration 4: Main!F18 = 7 (was \"\")");
    assert_eq!(f18[4], "iteration 5: Main!F18 = 7 (unchanged)");
    assert!(out.stderr.contains("iteration 2: Main!D16:F18: no changes\n"), "{}", out.stderr);
    assert!(out.stderr.contains("iteration 4: Main!D16:F18: F17 ← 9, D18 ← 8, F18 ← 7\n"), "{}", out.stderr);
    assert!(out.stderr.contains("\n  Main!F18: \"\" → 7\n"), "{}", out.stderr);
    assert!(!out.stderr.contains("candidates"), "only the followed cells: {}", out.stderr);
}

#[test]
fn trace_file_takes_the_trace() {
    let dir = temp_dir("trace-file");
    let file = dir.join("trace.txt");
    let out = dataflow(0, &["run", SUDOKU, "--trace", "--trace-file", &s(&file)]);
    assert_eq!(out.stderr, "");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("iteration 1: solution: "), "{text}");
    let out = dataflow(2, &["run", SUDOKU, "--trace-cell", "Nope!A1"]);
    assert!(out.stderr.contains("--trace-cell `Nope!A1`: unknown sheet"), "{out:?}");
    dataflow(2, &["run", SUDOKU, "--trace-file", &s(&file)]);
}

// ---------------------------------------------------------------- state

/// The solution view, as a line of digits and dots, from a run's stdout.
fn solution_line(stdout: &str) -> String {
    let view = stdout.split("solution:\n").nth(1).expect("a solution view");
    view.split("\n\n").next().unwrap().chars().filter(|c| c.is_ascii_digit() || *c == '.').collect()
}

#[test]
fn repeated_state_runs_step_like_f9() {
    let dir = temp_dir("f9");
    let file = dir.join("sudoku.state.ron");
    let path = s(&file);
    let mut session = Session::load(Path::new(SUDOKU)).unwrap();
    session.settings_mut().max_iterations = 1;
    session.reset().unwrap();
    let mut solved_after = None;
    for k in 1..=12u64 {
        let out = dataflow(0, &["run", SUDOKU, "--max-iter", "1", "--state", &path, "--show", "solution"]);
        session.step();
        let saved = State::read(&file).unwrap().expect("the state was saved");
        let expected = State::capture(&session, SUDOKU, k);
        assert_eq!(saved, expected, "after run {k}");
        let want = session.read_line(&session.area("Main!D16:L24").unwrap(), "123456789");
        assert_eq!(solution_line(&out.stdout), want, "after run {k}");
        let note = if k == 1 { "did not exist: started afresh" } else { "continued from" };
        assert!(out.stderr.contains(note), "{out:?}");
        if want == GRID2_SOLVED && solved_after.is_none() {
            solved_after = Some(k);
        }
    }
    assert!(solved_after.is_some_and(|k| k > 3), "solved after {solved_after:?} runs");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("State(\n    version: 1,\n    workbook: \"workbooks/sudoku.ron\","), "{text}");
    assert!(text.contains("iterations_total: 12,") && text.contains("\"Main!D27\": \"solve\","), "{text}");
}

#[test]
fn set_applies_on_top_of_the_saved_state_and_inputs_are_ignored() {
    let dir = temp_dir("set");
    let path = s(&dir.join("state.ron"));
    dataflow(0, &["run", SUDOKU, "--max-iter", "1", "--state", &path]);
    let out = dataflow(0, &["run", SUDOKU, "--state", &path, "--input", "puzzle=.", "--set", "Main!D27=reset"]);
    assert!(out.stderr.contains("warning: --input and --no-reset are ignored"), "{out:?}");
    // In the reset state the solution shows only the givens.
    assert_eq!(solution_line(&out.stdout).chars().filter(|c| c.is_ascii_digit()).count(), 30, "{out:?}");
    let state = State::read(&dir.join("state.ron")).unwrap().unwrap();
    assert!(state.cells.0.iter().any(|(k, v)| k == "Main!D27" && v.to_string() == "reset"));
}

#[test]
fn values_of_every_kind_round_trip() {
    use dataflow::value::{ErrorKind, Value};
    let state = State {
        version: 1,
        workbook: "w.ron".into(),
        fingerprint: "0123456789abcdef".into(),
        iterations_total: 7,
        cells: dataflow::state::Cells(vec![
            ("Main!A1".into(), Value::Number(2.0)),
            ("Main!A2".into(), Value::Number(0.1 + 0.2)),
            ("Main!A3".into(), Value::Number(-0.0)),
            ("Main!A4".into(), Value::text("say \"hi\"\n")),
            ("Main!A5".into(), Value::text("")),
            ("Main!A6".into(), Value::Bool(true)),
            ("Main!A7".into(), Value::Error(ErrorKind::NA)),
            ("'My Sheet'!B2".into(), Value::Number(-1e300)),
        ]),
    };
    let text = state.to_ron().expect("a state serialises");
    assert!(text.contains("\"Main!A1\": 2,") && text.contains("\"Main!A7\": Error(\"#N/A\"),"), "{text}");
    let back = State::parse(&text).unwrap();
    assert_eq!(back, state);
    assert!(matches!(back.cells.0[2].1, Value::Number(z) if z == 0.0 && z.is_sign_negative()));
}

#[test]
fn corrupt_and_mismatched_state_files_are_refused() {
    let dir = temp_dir("refused");
    let file = dir.join("state.ron");
    let path = s(&file);
    let refused = |text: &str, why: &str| {
        std::fs::write(&file, text).unwrap();
        let out = dataflow(1, &["run", SUDOKU, "--state", &path]);
        assert!(out.stderr.contains(&format!("error: state file `{path}`: ")), "{out:?}");
        assert!(out.stderr.contains(why), "{why}: {out:?}");
        assert!(out.stderr.contains("delete the file to start over"), "{out:?}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "a refused file is left alone");
    };
    refused("State(version: 1, cells: {", "it is not a readable state file");
    refused("not ron at all", "it is not a readable state file");
    std::fs::remove_file(&file).unwrap();
    dataflow(0, &["run", SUDOKU, "--max-iter", "1", "--state", &path]);
    let good = std::fs::read_to_string(&file).unwrap();
    let fingerprint = good.lines().find(|l| l.contains("fingerprint")).unwrap().to_string();
    refused(&good.replace(&fingerprint, "    fingerprint: \"0000000000000000\","), "were edited since");
    refused(&good.replace("\"Main!D4\"", "\"Other!D4\""), "cell `Other!D4`: unknown sheet");
    refused(&good.replace("\"Main!D4\"", "\"Main!D4:E5\""), "`Main!D4:E5` is a range");
    refused(&good.replace("\"Main!D4\"", "\"Main!D16\""), "cell `Main!D16` is given twice");
    refused(&good.replace(": 2,", ": Erreur(\"#N/A\"),"), "is not a value");
    refused(&good.replace("version: 1", "version: 9"), "format version 9");
    // A state saved for a workbook whose formulas were then edited.
    let copy = dir.join("book");
    std::fs::create_dir_all(copy.join("workbooks")).unwrap();
    std::fs::create_dir_all(copy.join("formulas/ellis")).unwrap();
    std::fs::create_dir_all(copy.join("formulas/checks")).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join(SUDOKU), copy.join(SUDOKU)).unwrap();
    for f in ["ellis/layout.dfl", "ellis/candidates.dfl", "ellis/solution.dfl", "checks/sudoku.dfl"] {
        std::fs::copy(root.join("formulas").join(f), copy.join("formulas").join(f)).unwrap();
    }
    let book = s(&copy.join(SUDOKU));
    let fresh = dir.join("fresh.ron");
    dataflow(0, &["run", &book, "--max-iter", "1", "--state", &s(&fresh)]);
    dataflow(0, &["run", &book, "--max-iter", "1", "--state", &s(&fresh)]);
    let dfl = copy.join("formulas/ellis/solution.dfl");
    let text = std::fs::read_to_string(&dfl).unwrap();
    std::fs::write(&dfl, text.replace("single_sol_in_rcb)))", "\"\")))")).unwrap();
    let out = dataflow(1, &["run", &book, "--max-iter", "1", "--state", &s(&fresh)]);
    assert!(out.stderr.contains("were edited since; delete the file to start over"), "{out:?}");
}
