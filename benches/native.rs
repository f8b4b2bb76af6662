//! dataflow against native code doing the same deductions (issue 31): in
//! one criterion group, per board, the native singles solver
//! (`benches/native/singles.rs`) and the workbook's `puzzle::Runner` (what
//! a `dataflow batch` worker does per puzzle: the loaded state restored,
//! the input filled, the reset protocol, iteration to the fixpoint) on the
//! same puzzles: the first 40 tier-S puzzles of the 2,000 17-clue sample
//! (9x9) and of the hyper file, the tier-S puzzles of the 16x16 and 25x25
//! files. Each benchmark solves its whole set; the throughput is puzzles.
//!
//! Two modes outside criterion, for callgrind (see docs/performance.md):
//! `--once BOARD N` solves the first N puzzles of BOARD's set natively
//! once and exits; `--sets DIR` writes each board's set to DIR/BOARD.txt
//! (and an empty DIR/empty.txt) for `dataflow batch`.

// Benchmarks fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "native/singles.rs"]
mod singles;

use criterion::{Criterion, Throughput};
use dataflow::puzzle::Runner;
use dataflow::session::Session;
use singles::{Geometry, Solver};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

/// A board measured: its name, geometry, workbook and corpus file stem.
struct Board {
    name: &'static str,
    geo: Geometry,
    workbook: &'static str,
    stem: &'static str,
}

fn boards() -> Vec<Board> {
    let board = |name, geo, workbook, stem| Board { name, geo, workbook, stem };
    vec![
        board("9x9", Geometry::sudoku(3), "workbooks/sudoku.ron", "9x9/royle_17clue_2000"),
        board("16x16", Geometry::sudoku(4), "workbooks/sudoku16.ron", "16x16/hexadoku_4"),
        board("25x25", Geometry::sudoku(5), "workbooks/sudoku25.ron", "25x25/alphadoku_7"),
        board("hyper", Geometry::hyper(), "workbooks/hyper.ron", "hyper/sudoku_space_hyper_192"),
    ]
}

/// The first 40 puzzles of the board's corpus tiered `S` (singles solve them).
fn set(board: &Board) -> Vec<String> {
    let read = |suffix: &str| {
        let path = format!("workbooks/puzzles/{}{suffix}", board.stem);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let (puzzles, tiers) = (read(".txt"), read(".tiers.txt"));
    puzzles.lines().zip(tiers.lines()).filter(|(_, t)| *t == "S").map(|(p, _)| p.to_string()).take(40).collect()
}

fn against_native(c: &mut Criterion) {
    let mut group = c.benchmark_group("native_vs_dataflow");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    for board in boards() {
        let puzzles = set(&board);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        let mut solver = Solver::new(&board.geo);
        group.bench_function(format!("{}/native", board.name), |b| {
            b.iter(|| puzzles.iter().map(|p| solver.solve(black_box(p))).sum::<usize>())
        });
        let base = Session::load(Path::new(board.workbook)).unwrap();
        let mut runner = Runner::new(&base, "puzzle", true);
        group.bench_function(format!("{}/dataflow", board.name), |b| {
            b.iter(|| puzzles.iter().map(|p| runner.start(black_box(p)).unwrap().recalc().iterations).sum::<u32>())
        });
    }
    group.finish();
}

/// `--once BOARD N`: the first N puzzles of BOARD's set, solved natively
/// once; prints how many cells were left empty (0 for tier S).
fn once(name: &str, n: usize) {
    let board = boards().into_iter().find(|b| b.name == name).unwrap_or_else(|| panic!("no board {name}"));
    let puzzles = set(&board);
    let mut solver = Solver::new(&board.geo);
    let left: usize = puzzles.iter().take(n).map(|p| solver.solve(black_box(p))).sum();
    println!("{name}: {} puzzles, {left} cells left", n.min(puzzles.len()));
}

/// `--sets DIR`: each board's set as DIR/BOARD.txt, and DIR/empty.txt.
fn write_sets(dir: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(format!("{dir}/empty.txt"), "").unwrap();
    for board in boards() {
        let puzzles = set(&board);
        std::fs::write(format!("{dir}/{}.txt", board.name), puzzles.join("\n") + "\n").unwrap();
        println!("{dir}/{}.txt: {} puzzles ({})", board.name, puzzles.len(), board.workbook);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let at = |flag: &str| args.iter().position(|a| a == flag).map(|i| &args[i + 1..]);
    if let Some(rest) = at("--once") {
        return once(&rest[0], rest.get(1).map_or(usize::MAX, |n| n.parse().unwrap()));
    }
    if let Some(rest) = at("--sets") {
        return write_sets(&rest[0]);
    }
    let mut c = Criterion::default().configure_from_args();
    against_native(&mut c);
    c.final_summary();
}
