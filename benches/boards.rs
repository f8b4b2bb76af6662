//! Benchmarks of the boards on the shared formula files (formulas/boards/):
//! loading each workbook (reading, parsing, binding every formula with its
//! names expanded, the graph and the shared subformulas), and solving each
//! workbook's own singles puzzle (its input's `value:`) from a loaded
//! workbook: input, reset protocol, iteration to the fixpoint.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{Criterion, criterion_group, criterion_main};
use dataflow::session::Session;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

const WORKBOOKS: [&str; 4] = ["sudoku9", "hyper", "sudoku16", "sudoku25"];

fn load(name: &str) -> Session {
    let path = format!("workbooks/{name}.ron");
    Session::load(Path::new(&path)).unwrap_or_else(|_| panic!("{path} loads"))
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
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut s = base.fresh();
                s.set_input("puzzle", &puzzle).unwrap();
                s.reset().unwrap();
                let report = s.recalc();
                assert!(report.converged);
                black_box(report)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, loading, solving);
criterion_main!(benches);
