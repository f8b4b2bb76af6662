//! Explaining a cell: its changes step by step with the precedents that
//! changed since its previous evaluation (`dataflow::explain`), on small
//! sheets in both orders, and `dataflow explain` on the Sudoku workbook.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{SUDOKU, expect_exit};
use dataflow::engine::Change;
use dataflow::explain::{History, MAX_CAUSES, explain};
use dataflow::policy::Order;
use dataflow::testing::Sheet;
use dataflow::value::Value;
use std::path::PathBuf;

/// The history of `cell` from the sheet's present state, one line per
/// change: `step 2: 1 -> 2 because C1 1 -> 2 (step 1)`.
fn story(s: &mut Sheet, cell: &str, before: &[Change]) -> Vec<String> {
    lines(&history(s, cell, before).expect("a formula cell"))
}

fn history(s: &mut Sheet, cell: &str, before: &[Change]) -> Option<History> {
    let at = s.addr(cell);
    explain(s.engine_ref(), at, before, &[])
}

fn lines(h: &History) -> Vec<String> {
    let name = |c: dataflow::address::CellAddr| dataflow::address::a1(c.row, c.col);
    h.steps
        .iter()
        .map(|st| {
            let causes: Vec<String> = st
                .causes
                .iter()
                .map(|c| format!("{} {} -> {} (step {})", name(c.cell), c.old, c.new, c.step))
                .collect();
            let why = if causes.is_empty() { String::new() } else { format!(" because {}", causes.join(", ")) };
            format!("step {}: {} -> {}{why}", st.step, st.old, st.new)
        })
        .collect()
}

fn change(s: &Sheet, cell: &str, old: f64, new: f64) -> Change {
    Change { cell: s.addr(cell), old: Value::Number(old), new: Value::Number(new) }
}

/// A1 -> B1 -> C1 -> A1: a chain closed into a cycle, A1 capped at 3.
fn chain_cycle(order: Order) -> Sheet {
    let mut s = Sheet::new();
    s.iterate(100, 0.001);
    s.settings_mut().order = order;
    s.set("A1", "=MIN(C1+1, 3)");
    s.set("B1", "=A1");
    s.set("C1", "=B1");
    s
}

#[test]
fn a_chain_names_the_cell_before_it_and_a_cell_set_by_hand() {
    let mut s = Sheet::new();
    s.iterate(100, 0.001);
    s.set("A1", "1");
    s.set("B1", "=A1*2");
    s.set("C1", "=B1+1");
    s.set("D1", "=7");
    s.recalc();
    s.set("A1", "5");
    let before = [change(&s, "A1", 1.0, 5.0)];
    assert_eq!(story(&mut s, "B1", &before), ["step 1: 2 -> 10 because A1 1 -> 5 (step 0)"]);
    assert_eq!(story(&mut s, "C1", &before), ["step 1: 3 -> 11 because B1 2 -> 10 (step 1)"]);
    // A cell that reads none of it never changes; the engine is left as it was.
    assert!(story(&mut s, "D1", &before).is_empty());
    assert_eq!(s.text("C1"), "3");
}

#[test]
fn row_major_causes_were_written_since_the_previous_evaluation_in_this_pass_or_the_last() {
    let mut s = chain_cycle(Order::RowMajor);
    assert_eq!(
        story(&mut s, "A1", &[]),
        ["step 1:  -> 1", "step 2: 1 -> 2 because C1  -> 1 (step 1)", "step 3: 2 -> 3 because C1 1 -> 2 (step 2)",]
    );
    assert_eq!(
        story(&mut s, "C1", &[]),
        [
            "step 1:  -> 1 because B1  -> 1 (step 1)",
            "step 2: 1 -> 2 because B1 1 -> 2 (step 2)",
            "step 3: 2 -> 3 because B1 2 -> 3 (step 3)",
        ]
    );
}

#[test]
fn synchronous_causes_were_written_in_the_previous_pass() {
    let mut s = chain_cycle(Order::Synchronous);
    let a1 = story(&mut s, "A1", &[]);
    assert_eq!(
        a1,
        ["step 1:  -> 1", "step 4: 1 -> 2 because C1 0 -> 1 (step 3)", "step 7: 2 -> 3 because C1 1 -> 2 (step 6)",]
    );
    assert_eq!(
        story(&mut s, "B1", &[]),
        [
            "step 1:  -> 0",
            "step 2: 0 -> 1 because A1  -> 1 (step 1)",
            "step 5: 1 -> 2 because A1 1 -> 2 (step 4)",
            "step 8: 2 -> 3 because A1 2 -> 3 (step 7)"
        ]
    );
}

#[test]
fn a_cell_reading_itself_is_its_own_cause() {
    let mut s = Sheet::new();
    s.iterate(3, 0.001);
    s.set("A1", "=A1+1");
    assert_eq!(
        story(&mut s, "A1", &[]),
        ["step 1:  -> 1", "step 2: 1 -> 2 because A1  -> 1 (step 1)", "step 3: 2 -> 3 because A1 1 -> 2 (step 2)"]
    );
    let h = history(&mut s, "A1", &[]).unwrap();
    assert!(!h.report.converged);
    assert_eq!(h.end(), &Value::Number(3.0));
}

#[test]
fn a_block_cell_reads_what_its_block_reads() {
    let mut s = Sheet::new();
    s.set("A1", "1");
    s.set("A2", "2");
    s.set("C1:C2", "{=A1:A2*10}");
    s.recalc();
    s.set("A2", "3");
    let before = [change(&s, "A2", 2.0, 3.0)];
    assert_eq!(story(&mut s, "C2", &before), ["step 1: 20 -> 30 because A2 2 -> 3 (step 0)"]);
}

#[test]
fn causes_are_capped_and_counted() {
    let mut s = Sheet::new();
    for r in 1..=20 {
        s.set(&format!("A{r}"), "1");
    }
    s.set("B1", "=SUM(A1:A20)");
    s.recalc();
    let mut before = Vec::new();
    for r in 1..=20 {
        s.set(&format!("A{r}"), "2");
        before.push(change(&s, &format!("A{r}"), 1.0, 2.0));
    }
    let h = history(&mut s, "B1", &before).unwrap();
    let step = &h.steps[0];
    assert_eq!((step.old.to_string(), step.new.to_string()), ("20".into(), "40".into()));
    assert_eq!(step.causes.len(), MAX_CAUSES);
    assert_eq!(step.more, 20 - MAX_CAUSES);
    assert_eq!(s.addr("A1"), step.causes[0].cell);
    // A cell the formula does not read is no cause; a constant cell has no history.
    assert!(history(&mut s, "A1", &before).is_none());
}

// ---------------------------------------------------------------- the command

fn explain_cli(args: &[&str]) -> String {
    let mut all = vec!["explain", SUDOKU];
    all.extend_from_slice(args);
    expect_exit(0, &all).stdout
}

#[test]
fn sudoku_candidate_removed_by_placed_digits() {
    insta::assert_snapshot!("explain_candidate_placed", explain_cli(&["Main!AA5"]));
}

/// The first 17-clue puzzle of tier S+LC+P: the singles stall after step 2,
/// so the locked board searches in step 3 (on PE96 grid 2, the default
/// puzzle, the singles never stall and the board never searches).
const STALLS: &str = "puzzle=.......21..5.8....6...........67.3..12....5..4...........2.1.4...3.......8.......";

#[test]
fn sudoku_candidate_removed_by_the_locked_board() {
    let out = explain_cli(&["--with", "locked", "--input", STALLS, "Main!V6"]);
    assert!(out.contains("step 4: 7 -> \"\" (blank)  because Main!V36 \"\" -> 7 (step 3)"), "{out}");
    insta::assert_snapshot!("explain_candidate_locked", out);
}

#[test]
fn sudoku_solution_cell() {
    insta::assert_snapshot!("explain_solution_cell", explain_cli(&["Main!G16"]));
}

#[test]
fn sudoku_cells_that_never_change_or_change_on_the_reset_state() {
    let given = explain_cli(&["Main!Q4"]);
    assert!(given.ends_with("; Main!Q4 never changed\n"), "{given}");
    let reset = explain_cli(&["Main!R4"]);
    assert!(reset.contains("step 1: 3 -> \"\" (blank)  because Main!D27 \"reset\" -> \"solve\" (step 0)"), "{reset}");
    // --set cells are changes of step 0 too.
    let set = explain_cli(&["--set", "Main!D27=reset", "Main!R4"]);
    assert!(set.ends_with("Main!R4 never changed\n"), "{set}");
}

#[test]
fn explain_in_both_orders_on_a_workbook_file() {
    let dir = std::env::temp_dir().join(format!("dataflow-explain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join("chain.ron");
    std::fs::write(
        &file,
        r#"Workbook(
    sheets: ["Main"],
    calc: (iterate: true, max_iterations: 100, max_change: 0.001),
    cells: { "Main!A1": "=MIN(C1+1, 3)", "Main!B1": "=A1", "Main!C1": "=B1", "Main!D1": 1 },
)"#,
    )
    .unwrap();
    let path = file.display().to_string();
    let row = expect_exit(0, &["explain", &path, "Main!B1"]).stdout;
    assert!(row.contains("step 2: 1 -> 2  because Main!A1 1 -> 2 (step 2)\n"), "{row}");
    assert!(row.ends_with("converged after 4 iterations; Main!B1 changed 3 times\n"), "{row}");
    let sync = expect_exit(0, &["explain", &path, "Main!B1", "--order", "synchronous"]).stdout;
    assert!(sync.contains("step 5: 1 -> 2  because Main!A1 1 -> 2 (step 4)\n"), "{sync}");
    assert!(sync.contains("step 1: empty -> 0  (its first calculation)\n"), "{sync}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cells_without_formula_are_usage_errors() {
    let cases = [
        ("Main!D27", "Main!D27 holds a constant, \"solve\"; explain follows formula cells"),
        ("Main!D4", "Main!D4 is a cell of the input `puzzle`, now 2"),
        ("Main!Z99", "Main!Z99 is empty: it holds no formula"),
        ("Main!A1:B2", "explain follows one cell, not a range"),
        ("Nope!A1", "unknown sheet `Nope`"),
    ];
    for (cell, message) in cases {
        let out = expect_exit(2, &["explain", SUDOKU, cell]);
        assert!(out.stderr.contains(&format!("error: explain `{cell}`: ")), "{out:?}");
        assert!(out.stderr.contains(message), "{out:?}");
    }
    let help = expect_exit(0, &["--help"]).stdout;
    assert!(help.contains("explain  Explain a formula cell"), "{help}");
}
