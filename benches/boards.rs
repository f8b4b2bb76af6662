//! Benchmarks of the boards on the shared formula files (formulas/boards/):
//! loading each workbook (reading, parsing, binding every formula with its
//! names expanded, the graph and the shared subformulas), and solving each
//! workbook's own singles puzzle (its input's `value:`) from a loaded
//! workbook: input, reset protocol, iteration to the fixpoint; and the same
//! with the `locked` part on, for hyper's puzzle 13 (tier S+LC: the board
//! fires) and the 25×25 singles puzzle (the board stays idle); live edits
//! of the 25×25 workbook against its load.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{Criterion, criterion_group, criterion_main};
use dataflow::session::Session;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

const WORKBOOKS: [&str; 4] = ["sudoku9", "hyper", "sudoku16", "sudoku25"];

fn load(name: &str) -> Session {
    load_with(name, &[])
}

fn load_with(name: &str, with: &[String]) -> Session {
    let path = format!("workbooks/{name}.ron");
    Session::load_with(Path::new(&path), with).unwrap_or_else(|_| panic!("{path} loads"))
}

/// Input, reset protocol, iteration to the fixpoint, from a loaded workbook.
fn solve(base: &Session, puzzle: &str) -> dataflow::engine::Report {
    let mut s = base.fresh();
    s.set_input("puzzle", puzzle).unwrap();
    s.reset().unwrap();
    let report = s.recalc();
    assert!(report.converged);
    report
}

fn loading(c: &mut Criterion) {
    let mut g = c.benchmark_group("load");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for name in WORKBOOKS {
        g.bench_function(name, |b| b.iter(|| black_box(load(name))));
    }
    g.finish();
}

fn solving(c: &mut Criterion) {
    let mut g = c.benchmark_group("fixpoint");
    g.sample_size(10);
    for name in WORKBOOKS {
        let base = load(name);
        let puzzle = base.workbook().input("puzzle").and_then(|i| i.value.clone()).expect("a puzzle value");
        g.bench_function(name, |b| b.iter(|| black_box(solve(&base, &puzzle))));
    }
    g.finish();
}

fn solving_locked(c: &mut Criterion) {
    let mut g = c.benchmark_group("fixpoint-locked");
    g.sample_size(10);
    let hyper13 = "...9.13...........49.2.....9.8.6.7........8.1.........7..8.26..265.1......159....";
    for (name, puzzle) in [("hyper", Some(hyper13)), ("sudoku25", None)] {
        let base = load_with(name, &["locked".to_string()]);
        let own = base.workbook().input("puzzle").and_then(|i| i.value.clone()).expect("a puzzle value");
        let puzzle = puzzle.map_or(own, str::to_string);
        g.bench_function(name, |b| b.iter(|| black_box(solve(&base, &puzzle))));
    }
    g.finish();
}

/// Live edits of the 25×25 workbook, against its load in the same group:
/// one cell of its largest range formula entered again (that cell alone is
/// bound again), and a name its valid-values cells use changed (those
/// cells are bound again); each edit is undone between runs.
fn editing(c: &mut Criterion) {
    let mut g = c.benchmark_group("edit");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.bench_function("sudoku25_load", |b| b.iter(|| black_box(load("sudoku25"))));
    let mut s = load("sudoku25");
    let (cell, text) = {
        let wb = s.workbook();
        let e = wb.cells.iter().filter(|e| e.content.formula().is_some()).max_by_key(|e| e.area.size()).unwrap();
        (dataflow::address::Area::cell(e.area.top_left()), format!("={}", e.content.formula().unwrap().expr))
    };
    g.bench_function("sudoku25_one_cell", |b| {
        b.iter(|| {
            let undo = s.set_formula(cell, &text).unwrap();
            assert_eq!(undo.rebound(), 1);
            s.undo_edit(undo)
        })
    });
    let name = s.workbook().names.iter().max_by_key(|n| n.formula.text.len()).unwrap().clone();
    g.bench_function("sudoku25_name", |b| {
        b.iter(|| {
            let undo = s.define_name(&name.name, &name.formula.text, None).unwrap();
            s.undo_edit(undo)
        })
    });
    g.finish();
}

criterion_group!(benches, loading, solving, solving_locked, editing);
criterion_main!(benches);
