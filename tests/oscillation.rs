//! Oscillation detection (issue 10): cycles whose values come back to an
//! earlier iteration's stop there with "oscillates with period p after
//! iteration k" instead of running to the cap, in the library's report,
//! stepping one iteration at a time, `run` (text and JSON), `step --plain`
//! and `batch` (status, summary, JSON), on small cycles and on a
//! deliberately broken Sudoku formula file. And `batch --collect`: views and
//! cells read per puzzle, into the JSON lines and the summary.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{SUDOKU, expect_exit};
use dataflow::engine::Report;
use dataflow::policy::Order;
use dataflow::session::Session;
use dataflow::testing::Sheet;
use dataflow::value::Value;
use serde_json::Value as Json;
use std::path::Path;

const FLIPFLOP: &str = "tests/data/oscillation/flipflop.ron";
const SWAPPED: &str = "tests/data/oscillation/flipflop_swapped.ron";
const PERIOD3: &str = "tests/data/oscillation/period3.ron";
const CONVERGES: &str = "tests/data/oscillation/converges.ron";
const MODES: &str = "tests/data/oscillation/modes.ron";
const MODES_INPUT: &str = "mode=@tests/data/oscillation/modes.txt";

fn load(path: &str) -> Session {
    Session::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap_or_else(|d| panic!("{path}: {d:?}"))
}

fn recalc(path: &str, order: Order) -> Report {
    let mut s = load(path);
    s.settings_mut().order = order;
    s.recalc()
}

/// (period, iterations, converged) of a report.
fn outcome(r: &Report) -> (Option<u32>, u32, bool) {
    (r.period, r.iterations, r.converged)
}

fn json_lines(stdout: &str) -> Vec<Json> {
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

// ---------------------------------------------------------------- engine

#[test]
fn a_flip_flop_oscillates_in_both_orders_and_both_cell_orders() {
    // Row-major: 1,1 then 0,0 then 1,1 again: iteration 3 repeats iteration 1.
    assert_eq!(outcome(&recalc(FLIPFLOP, Order::RowMajor)), (Some(2), 3, false));
    assert_eq!(outcome(&recalc(SWAPPED, Order::RowMajor)), (Some(2), 3, false));
    // Synchronous: 1,0 -> 1,1 -> 0,1 -> 0,0 -> 1,0.
    assert_eq!(outcome(&recalc(FLIPFLOP, Order::Synchronous)), (Some(4), 5, false));
    assert_eq!(outcome(&recalc(SWAPPED, Order::Synchronous)), (Some(4), 5, false));
}

#[test]
fn a_counter_modulo_3_has_period_3() {
    let mut s = load(PERIOD3);
    assert_eq!(outcome(&s.recalc()), (Some(3), 4, false));
    // It stopped at iteration 4, which shows what iteration 1 showed.
    assert_eq!(s.read(&s.area("Main!A1").unwrap()), [[Value::Number(1.0)]]);
}

#[test]
fn cycles_that_converge_or_climb_do_not_oscillate() {
    for order in [Order::RowMajor, Order::Synchronous] {
        let r = recalc(CONVERGES, order);
        assert_eq!(r.period, None, "{order}");
        assert!(r.converged, "{order}: {r:?}");
    }
    // Capped before the repeat: not converged, no period.
    let mut s = load(FLIPFLOP);
    s.settings_mut().max_iterations = 2;
    assert_eq!(outcome(&s.recalc()), (None, 2, false));
    // A workbook without cycles has nothing to iterate.
    let mut s = load(SUDOKU);
    s.settings_mut().iterate = false;
    assert_eq!(s.recalc().period, None);
}

#[test]
fn stepping_one_iteration_at_a_time_sees_the_repeat() {
    let mut s = load(FLIPFLOP);
    let periods: Vec<Option<u32>> = (0..5).map(|_| s.step().period).collect();
    assert_eq!(periods, [None, None, Some(2), Some(2), Some(2)]);
}

#[test]
fn setting_a_cell_starts_the_history_again() {
    let mut s = Sheet::new();
    s.iterate(100, 0.001);
    s.set("C1", "1");
    s.set("A1", "=IF(C1=1, 1-B1, 1)");
    s.set("B1", "=A1");
    assert_eq!(s.step().period, None); // 1, 1
    assert_eq!(s.step().period, None); // 0, 0
    // 1, 1 again, as at iteration 1; but C1 changed in between, so that is
    // no repeat: the cells now settle at 1, 1.
    s.set("C1", "2");
    assert_eq!(outcome(&s.step()), (None, 1, false));
    assert_eq!(outcome(&s.step()), (None, 1, true));
}

// ---------------------------------------------------------------- binary

#[test]
fn run_reports_the_oscillation() {
    let out = expect_exit(0, &["run", FLIPFLOP]);
    let status = out.stdout.lines().last().unwrap();
    assert!(status.starts_with("oscillates with period 2 after iteration 3; last max change 1;"), "{out:?}");
    let out = expect_exit(0, &["run", FLIPFLOP, "--order", "synchronous", "--format", "json"]);
    let v: Json = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!((&v["period"], &v["iterations"], &v["converged"]), (&Json::from(4), &Json::from(5), &Json::Bool(false)));
    // No `period` key when nothing oscillates.
    let v: Json = serde_json::from_str(&expect_exit(0, &["run", CONVERGES, "--format", "json"]).stdout).unwrap();
    assert_eq!(v.get("period"), None, "{v}");
    assert!(expect_exit(0, &["run", CONVERGES]).stdout.contains("\nconverged after 18 iterations;"));
}

#[test]
fn a_broken_candidates_file_oscillates_instead_of_running_to_the_cap() {
    // Ellis's solver whose valid-values board lets a placed digit remove
    // itself (tests/data/oscillation/broken_candidates.dfl).
    let broken = "tests/data/oscillation/broken_sudoku.ron";
    let out = expect_exit(0, &["run", broken, "--format", "json"]);
    let v: Json = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!((&v["period"], &v["iterations"]), (&Json::from(2), &Json::from(3)), "{v}");
    let out = expect_exit(0, &["run", broken, "--order", "synchronous"]);
    assert!(out.stdout.lines().last().unwrap().starts_with("oscillates with period 4 after iteration 5;"), "{out:?}");
}

#[test]
fn step_plain_ends_with_the_oscillation() {
    let out = expect_exit(0, &["step", PERIOD3, "--plain"]);
    assert!(out.stdout.contains("== step 3: not converged; max change 2;"), "{out:?}");
    assert!(out.stdout.contains("== step 4: oscillates with period 3; max change 1;"), "{out:?}");
    assert!(out.stdout.ends_with("== oscillates with period 3 after iteration 4\n"), "{out:?}");
}

#[test]
fn batch_counts_oscillating_puzzles() {
    let args = ["batch", MODES, "--input", MODES_INPUT, "--show", "pair"];
    let out = expect_exit(0, &args);
    for line in ["puzzles: 3", "solved: 1", "not converged: 0", "oscillating: 2", "errors: 0"] {
        assert!(out.stdout.lines().any(|l| l == line), "{line}: {out:?}");
    }
    let out = expect_exit(0, &[&args[..], &["--format", "jsonl"]].concat());
    let lines = json_lines(&out.stdout);
    let status: Vec<&str> = lines.iter().map(|o| o["status"].as_str().unwrap()).collect();
    assert_eq!(status, ["oscillating", "solved", "oscillating"]);
    assert_eq!(lines[0]["period"], 2);
    assert_eq!(lines[0]["iterations"], 3);
    assert_eq!(lines[1].get("period"), None, "{}", lines[1]);
}

// ---------------------------------------------------------------- --collect

#[test]
fn batch_collect_adds_values_to_the_json_lines() {
    let args = ["batch", MODES, "--input", MODES_INPUT, "--show", "pair", "--format", "jsonl"];
    let collect = ["--collect", "status", "--collect", "pair", "--collect", "Main!A1"];
    let lines = json_lines(&expect_exit(0, &[&args[..], &collect].concat()).stdout);
    let collected: Vec<&Json> = lines.iter().map(|o| &o["collected"]).collect();
    assert_eq!(collected[0], &serde_json::json!({"status": "flip", "pair": "22", "Main!A1": 2.0}));
    assert_eq!(collected[1]["status"], "steady");
    // Without --collect the lines are as before.
    assert_eq!(json_lines(&expect_exit(0, &args).stdout)[0].get("collected"), None);
}

#[test]
fn batch_collect_counts_single_cells_in_the_summary() {
    let args = ["batch", MODES, "--input", MODES_INPUT, "--show", "pair"];
    let out =
        expect_exit(0, &[&args[..], &["--collect", "status", "--collect", "pair", "--collect", "Main!B1"]].concat());
    assert!(out.stdout.lines().any(|l| l == "status: flip 2, steady 1"), "{out:?}");
    assert!(out.stdout.lines().any(|l| l == "Main!B1: 2 3"), "{out:?}");
    // A view of several cells is in the JSON only.
    assert!(!out.stdout.lines().any(|l| l.starts_with("pair:")), "{out:?}");
}

#[test]
fn batch_collect_reads_text_the_alphabet_cannot() {
    // `--show` reads through the input's alphabet, so a text cell is `?`
    // and the puzzle an error; `--collect` reads the cell as it is.
    let puzzles = "puzzle=@tests/data/cli/puzzles.txt";
    let args = ["batch", SUDOKU, "--input", puzzles, "--format", "jsonl"];
    // Records with errors make the exit code 1 (after every record).
    let shown = json_lines(&expect_exit(1, &[&args[..], &["--show", "Main!D27"]].concat()).stdout);
    assert_eq!((shown[0]["status"].as_str(), shown[0]["grid"].as_str()), (Some("error"), Some("?")));
    let collected = json_lines(&expect_exit(1, &[&args[..], &["--collect", "Main!D27"]].concat()).stdout);
    assert_eq!(collected[0]["status"], "solved");
    assert_eq!(collected[0]["collected"]["Main!D27"], "solve");
    // A puzzle that failed to load has nothing collected.
    assert_eq!(collected[2]["status"], "error");
    assert_eq!(collected[2].get("collected"), None);
}

#[test]
fn batch_collect_usage_errors_name_the_key() {
    let args = ["batch", SUDOKU, "--input", "puzzle=@tests/data/cli/puzzles.txt"];
    let out = expect_exit(2, &[&args[..], &["--collect", "nope"]].concat());
    assert!(
        out.stderr.contains("--collect `nope` is neither a view (input, solution, candidates) nor a range"),
        "{out:?}"
    );
    assert_eq!(out.stdout, "");
    let out = expect_exit(2, &[&args[..], &["--collect", "solution", "--collect", "Main!A1:Z10000"]].concat());
    assert!(out.stderr.contains("--collect `Main!A1:Z10000`: the area has 260000 cells; at most 65536"), "{out:?}");
}
