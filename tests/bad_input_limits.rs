//! Bad input past the limits has a defined outcome, never a panic, a hang,
//! a stack overflow or an out-of-memory abort: formulas nested thousands
//! deep (in formula files and in a sheet), names that nest formulas too
//! deep, chains of names past the name depth, exponential name expansion,
//! areas and cells that would make the grid too big, huge ranges read as
//! arrays, and long dependency chains and cycles (run in the binary).
//! Fixtures live in `tests/data/bad/`; the helpers are in
//! `common/bad_input.rs`.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::bad_input::{cell, dataflow, err, load_errors, locations, messages, render_all, session, session_errors};
use dataflow::eval::MAX_ARRAY_CELLS;
use dataflow::eval::bind::{MAX_BOUND_DEPTH, MAX_BOUND_NODES, MAX_NAME_DEPTH};
use dataflow::grid::MAX_GRID_CELLS;
use dataflow::parse::{MAX_NESTING, parse_formula};
use dataflow::testing::Sheet;
use dataflow::value::{ErrorKind, Value};
use std::time::{Duration, Instant};

#[test]
fn formulas_nested_thousands_deep_in_a_formula_file() {
    let diags = load_errors("deep.ron");
    let want = format!("formula nested too deeply (more than {MAX_NESTING} levels)");
    assert_eq!(diags.len(), 3, "{}", render_all(&diags));
    assert!(diags.iter().all(|d| d.label == want), "{}", render_all(&diags));
    assert_eq!(
        locations(&diags),
        ["tests/data/bad/deep.dfl:5:61", "tests/data/bad/deep.dfl:109:61", "tests/data/bad/deep.dfl:151:32"]
    );
    insta::assert_snapshot!("deep_dfl", render_all(&diags));
}

#[test]
fn formulas_nested_thousands_deep_are_parse_errors() {
    for src in [
        "(".repeat(100_000) + "1" + &")".repeat(100_000),
        "-".repeat(100_000) + "1",
        "SUM(".repeat(20_000) + "1" + &")".repeat(20_000),
        "1".to_string() + &"^1".repeat(50_000),
        "{".repeat(10_000) + "1",
        "(".repeat(100_000),
        "1".to_string() + &"%".repeat(100_000),
    ] {
        let t = Instant::now();
        let errors = parse_formula(&src).expect_err("too deep");
        assert!(errors.iter().any(|e| e.message.contains("nested too deeply")), "{:?}", &errors[..1]);
        assert!(t.elapsed() < Duration::from_secs(5), "slow: {:?}", t.elapsed());
    }
    // At the limit itself the formula parses and evaluates.
    let mut s = Sheet::new();
    s.set("A1", &format!("={}1{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING)));
    s.set("A2", &format!("={}1{}", "ABS(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING)));
    s.set("A3", &format!("={}1{}", "-(".repeat(MAX_NESTING / 2), ")".repeat(MAX_NESTING / 2)));
    s.recalc();
    assert_eq!(s.value("A1"), Value::Number(1.0));
    assert_eq!(s.value("A2"), Value::Number(1.0));
    assert_eq!(s.value("A3"), Value::Number(1.0));
}

#[test]
#[should_panic(expected = "nested too deeply")]
fn sheet_set_of_a_formula_nested_thousands_deep_panics_with_the_parse_error() {
    // Sheet's documented contract for malformed formulas: a panic with the message.
    Sheet::new().set("A1", &format!("={}1{}", "(".repeat(5000), ")".repeat(5000)));
}

#[test]
fn names_that_nest_formulas_too_deep_are_refused_when_bound() {
    // Each formula is within MAX_NESTING, together past MAX_BOUND_DEPTH.
    let n = MAX_NESTING - 6;
    let mut s = Sheet::new();
    s.set("B1", "-3");
    s.name("deep_name", &format!("={}$B$1{}", "ABS(".repeat(n), ")".repeat(n)));
    s.set("A1", &format!("={}deep_name{}", "ABS(".repeat(n), ")".repeat(n)));
    // Together within the limit: evaluated, no stack overflow.
    let m = MAX_BOUND_DEPTH - n - 10;
    s.set("A2", &format!("={}deep_name{}", "ABS(".repeat(m), ")".repeat(m)));
    s.recalc();
    assert_eq!(s.value("A1"), err(ErrorKind::Num));
    assert_eq!(s.value("A2"), Value::Number(3.0));
    let want = format!("Sheet1!A1: formula with its names expanded is nested deeper than {MAX_BOUND_DEPTH}");
    assert_eq!(s.issues(), [want]);
}

#[test]
fn a_chain_of_100_names_is_refused_past_the_name_depth() {
    let diags = session_errors("name_chain.ron");
    // From A1 the chain is 101 names deep; from A2 (nm_50) it is 51: fine.
    assert_eq!(messages(&diags), [format!("names nested more than {MAX_NAME_DEPTH} deep")]);
    assert_eq!(diags[0].note.as_deref(), Some("in name `nm_63`, evaluated at Main!A1"));
    insta::assert_snapshot!("name_chain", render_all(&diags));

    let mut s = Sheet::new();
    for i in 0..100 {
        s.name(&format!("nm_{i}"), &format!("=nm_{}+1", i + 1));
    }
    s.name("nm_100", "=1");
    s.set("A1", "=nm_0");
    s.set("A2", "=nm_50");
    s.recalc();
    assert_eq!(s.value("A1"), err(ErrorKind::Name));
    assert_eq!(s.value("A2"), Value::Number(51.0));
}

#[test]
fn exponential_name_expansion_is_refused_quickly() {
    let t = Instant::now();
    let diags = session_errors("expansion.ron");
    assert!(t.elapsed() < Duration::from_secs(10), "slow: {:?}", t.elapsed());
    let want = format!("formula with its names expanded is larger than {MAX_BOUND_NODES}");
    assert!(diags.iter().all(|d| d.message == want), "{}", render_all(&diags));
    // A1 (ex_0, 2^40 copies) is refused; A2 (ex_30, 2^10 copies) is not.
    for d in &diags {
        let note = d.note.as_deref().unwrap_or("");
        assert!(note.starts_with("in name `ex_") && note.ends_with("evaluated at Main!A1"), "{note}");
    }
    insta::assert_snapshot!("expansion_first", render_all(&diags[..1]));

    let mut s = Sheet::new();
    for i in 0..40 {
        s.name(&format!("ex_{i}"), &format!("=ex_{0}+ex_{0}", i + 1));
    }
    s.name("ex_40", "=$B$1");
    s.set("B1", "1");
    s.set("A1", "=ex_0");
    s.set("A2", "=ex_30");
    let t = Instant::now();
    s.recalc();
    assert!(t.elapsed() < Duration::from_secs(10), "slow: {:?}", t.elapsed());
    assert_eq!(s.value("A1"), err(ErrorKind::Num));
    assert_eq!(s.value("A2"), Value::Number(1024.0));
}

#[test]
fn a_formula_over_the_whole_sheet_is_refused() {
    // It parses; the loader refuses it, without allocating the grid.
    let diags = load_errors("huge_area.ron");
    assert_eq!(
        messages(&diags),
        [format!(
            "Main!A1:XFD1048576 would make the stored grid 17179869184 cells; a workbook stores at most {MAX_GRID_CELLS}"
        )]
    );
    insta::assert_snapshot!("huge_area", render_all(&diags));
    // One cell far from A1 makes the dense grid as big: refused too.
    let diags = load_errors("far_cell.ron");
    assert_eq!(
        messages(&diags),
        [format!(
            "Main!XFD1048576 would make the stored grid 17179869184 cells; a workbook stores at most {MAX_GRID_CELLS}"
        )]
    );
}

#[test]
fn grid_size_refusals_are_located() {
    let diags = session_errors("huge_area.ron");
    assert_eq!(diags[0].location().as_deref(), Some("tests/data/bad/huge_area.dfl:2:7"));
    assert!(diags[0].message.contains("Main!A1:XFD1048576"), "the sheet is named: {}", diags[0].message);
    let diags = session_errors("far_cell.ron");
    assert!(diags[0].location().is_some_and(|l| l.starts_with("tests/data/bad/far_cell.ron:2:")), "{diags:?}");
}

#[test]
fn huge_ranges_read_as_arrays_give_num_not_oom() {
    let mut s = session("huge_array.ron");
    s.recalc();
    assert_eq!(cell(&s, "Out!A1"), err(ErrorKind::Num), "SUM over a name of five whole columns");
    assert_eq!(cell(&s, "Out!A2"), err(ErrorKind::Num), "SUMPRODUCT(Data!A:Z)");
    assert_eq!(cell(&s, "Out!A3"), Value::Number(6.0), "four whole columns: exactly {MAX_ARRAY_CELLS} cells");
    // Functions that read a reference without an array: fine at any size.
    assert_eq!(cell(&s, "Out!A4"), Value::Number(3.0));
    assert_eq!(cell(&s, "Out!A5"), Value::Number(1.0));
    assert_eq!(cell(&s, "Out!A6"), Value::Number(1_048_576.0));
    assert_eq!(cell(&s, "Out!A7"), Value::Number(2.0));

    let mut s = Sheet::with_sheets(&["Data", "Out"]);
    s.set("Data!A1", "1");
    s.name("cols", "=Data!A:D*2");
    s.name("more_cols", "=Data!A:E*2");
    s.set("Out!A1", "=SUM(more_cols)");
    s.set("Out!A2", "=SUMPRODUCT(Data!A:Z)");
    s.set("Out!A3", "=SUMPRODUCT(Data!A:XFD, Data!A:XFD)");
    s.set("Out!A4", "=SUM(cols)");
    s.recalc();
    assert_eq!(s.value("Out!A1"), err(ErrorKind::Num));
    assert_eq!(s.value("Out!A2"), err(ErrorKind::Num));
    assert_eq!(s.value("Out!A3"), err(ErrorKind::Num));
    assert_eq!(s.value("Out!A4"), Value::Number(2.0));
}

#[test]
fn a_dependency_chain_of_2000_cells_calculates() {
    let (code, stdout, stderr) = dataflow(&["run", "tests/data/bad/chain_2k.ron"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("end:\n2000\n"), "{stdout}");
}

#[test]

fn a_dependency_chain_of_50000_cells_calculates() {
    let (code, stdout, stderr) = dataflow(&["run", "tests/data/bad/long_chain.ron"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("end:\n50000\n"), "{stdout}");
    let (code, _, stderr) = dataflow(&["check", "tests/data/bad/long_chain.ron"]);
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]

fn a_cycle_of_50000_cells_iterates() {
    let (code, stdout, stderr) = dataflow(&["run", "tests/data/bad/long_cycle.ron"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("not converged after 3 iterations"), "{stdout}");
}
