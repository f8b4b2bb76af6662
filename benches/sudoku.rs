//! Benchmarks of the Ellis workbook from a loaded state (parsing and
//! binding excluded): whole puzzles as a `batch` worker runs them (the saved
//! fresh state restored, input, reset protocol, iteration to the fixpoint),
//! and single iterations of the 27x27 valid-values board of
//! COUNTIF-over-names formulas in its cycle with the solution board.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{Criterion, criterion_group, criterion_main};
use dataflow::puzzle::Runner;
use dataflow::session::Session;
use std::hint::black_box;
use std::path::Path;

const GRID1: &str = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const GRID2: &str = "2...8.3...6..7..84.3.5..2.9...1.54.8.........4.27.6...3.1..7.4.72..4..6...4.1...3";

fn load() -> Session {
    Session::load(Path::new("workbooks/sudoku.ron")).expect("workbooks/sudoku.ron loads")
}

fn solve_puzzles(c: &mut Criterion) {
    let mut runner = Runner::new(&load(), "puzzle", true);
    for (name, puzzle) in [("pe96_grid1", GRID1), ("pe96_grid2", GRID2)] {
        c.bench_function(&format!("solve/{name}"), |b| b.iter(|| black_box(runner.start(puzzle).unwrap().recalc())));
    }
}

fn one_iteration(c: &mut Criterion) {
    let mut s = load();
    s.set_input("puzzle", GRID2).unwrap();
    s.reset().unwrap();
    // From the reset state every cell of the cycle is dirty: the first
    // iteration evaluates all 729 valid-values and 81 solution formulas.
    c.bench_function("iteration/first_full_pass_810_cells", |b| {
        b.iter_batched(|| s.clone(), |mut s| black_box(s.step()), criterion::BatchSize::SmallInput)
    });
    let mut full = s.clone();
    full.engine_mut().mark_all_dirty();
    full.step();
    full.engine_mut().mark_all_dirty();
    c.bench_function("iteration/full_pass_after_one_step", |b| {
        b.iter_batched(|| full.clone(), |mut s| black_box(s.step()), criterion::BatchSize::SmallInput)
    });
}

criterion_group!(benches, solve_puzzles, one_iteration);
criterion_main!(benches);
