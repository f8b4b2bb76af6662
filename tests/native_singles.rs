//! The native singles solver (`benches/native/singles.rs`, the reference
//! `benches/native.rs` measures the workbooks against) as an oracle: on the
//! shipped corpora it solves exactly the puzzles tiered `S` (singles alone
//! solve them), its solutions are the shipped ones and its digits are
//! always right; and on every puzzle (every 20th in a debug build) its
//! final grid, solved or not, is the one dataflow's `puzzle::Runner` leaves in the workbook's
//! solution view (the Ellis workbooks and their generalisations iterate to
//! the same singles fixpoint).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../benches/native/singles.rs"]
mod singles;

use dataflow::puzzle::Runner;
use dataflow::session::Session;
use singles::{Geometry, Solver};
use std::path::Path;

/// A corpus file's lines, and those of its `.solutions.txt` and `.tiers.txt`.
struct Corpus {
    puzzles: Vec<String>,
    solutions: Vec<String>,
    tiers: Vec<String>,
}

fn lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}")).lines().map(str::to_string).collect()
}

fn corpus(stem: &str) -> Corpus {
    let dir = "workbooks/puzzles";
    let c = Corpus {
        puzzles: lines(&format!("{dir}/{stem}.txt")),
        solutions: lines(&format!("{dir}/{stem}.solutions.txt")),
        tiers: lines(&format!("{dir}/{stem}.tiers.txt")),
    };
    assert_eq!(c.puzzles.len(), c.solutions.len(), "{stem}");
    assert_eq!(c.puzzles.len(), c.tiers.len(), "{stem}");
    c
}

/// The shipped corpora with tiers: file stem, the geometry, the workbook.
fn boards() -> Vec<(&'static str, Geometry, &'static str)> {
    vec![
        ("9x9/royle_17clue_2000", Geometry::sudoku(3), "workbooks/sudoku.ron"),
        ("9x9/project_euler_96", Geometry::sudoku(3), "workbooks/sudoku.ron"),
        ("16x16/hexadoku_4", Geometry::sudoku(4), "workbooks/sudoku16.ron"),
        ("25x25/alphadoku_7", Geometry::sudoku(5), "workbooks/sudoku25.ron"),
        ("hyper/sudoku_space_hyper_192", Geometry::hyper(), "workbooks/hyper.ron"),
    ]
}

#[test]
fn native_solves_exactly_the_tier_s_puzzles_with_the_shipped_solutions() {
    for (stem, geo, _) in boards() {
        let c = corpus(stem);
        let mut solver = Solver::new(&geo);
        let mut solved = 0;
        for (i, ((puzzle, solution), tier)) in c.puzzles.iter().zip(&c.solutions).zip(&c.tiers).enumerate() {
            let left = solver.solve(puzzle);
            let got = solver.line();
            assert_eq!(left == 0, tier == "S", "{stem} line {}: tier {tier}, {left} cells left", i + 1);
            // Solved or not, every digit placed is the solution's, every given kept.
            for (k, ((g, s), p)) in got.chars().zip(solution.chars()).zip(puzzle.chars()).enumerate() {
                assert!(g == '.' || g == s, "{stem} line {}: cell {k} holds {g}, the solution {s}", i + 1);
                assert!(p == '.' || p == '0' || g == p.to_ascii_uppercase(), "{stem} line {}: given {k} lost", i + 1);
            }
            solved += usize::from(left == 0);
        }
        let s = c.tiers.iter().filter(|t| *t == "S").count();
        assert_eq!(solved, s, "{stem}");
        eprintln!("{stem}: {solved} of {} solved by singles", c.puzzles.len());
    }
}

/// Every `step`-th puzzle of `stem` through the workbook's Runner and the
/// native solver: the same verdict and the same final grid. Returns (solved, unsolved) counts.
fn same_as_workbook(stem: &str, geo: &Geometry, workbook: &str, step: usize) -> (usize, usize) {
    let base = Session::load(Path::new(workbook)).unwrap();
    let show = base.workbook().view("solution").unwrap().area;
    let alphabet = base.workbook().input("puzzle").unwrap().alphabet.clone();
    assert_eq!(alphabet.as_bytes(), geo.alphabet.as_slice(), "{workbook}");
    let mut runner = Runner::new(&base, "puzzle", true);
    let mut solver = Solver::new(geo);
    let (mut solved, mut unsolved) = (0, 0);
    for (i, puzzle) in corpus(stem).puzzles.iter().enumerate().step_by(step) {
        let theirs = runner.solve(puzzle, &show, &alphabet, &[]).unwrap();
        assert!(theirs.report.converged, "{stem} line {}: {:?}", i + 1, theirs.report);
        let left = solver.solve(puzzle);
        assert_eq!(solver.line(), theirs.grid, "{stem} line {}: native, then {workbook}", i + 1);
        assert_eq!(left == 0, !theirs.grid.contains('.'), "{stem} line {}", i + 1);
        match left {
            0 => solved += 1,
            _ => unsolved += 1,
        }
    }
    eprintln!("{stem} through {workbook}: {solved} solved, {unsolved} unsolved, every grid the same");
    (solved, unsolved)
}

/// Every puzzle in a release build (2,253 in about 5 s); every 20th in a
/// debug build, whose engine is many times slower.
const STEP: usize = if cfg!(debug_assertions) { 20 } else { 1 };

#[test]
fn the_9x9_workbook_ends_where_the_native_solver_does() {
    let (s, u) = same_as_workbook("9x9/royle_17clue_2000", &Geometry::sudoku(3), "workbooks/sudoku.ron", STEP);
    assert!(s > 0 && u > 0, "the sample has solved and unsolved puzzles: {s} and {u}");
    let (s, _) = same_as_workbook("9x9/project_euler_96", &Geometry::sudoku(3), "workbooks/sudoku.ron", STEP);
    assert!(s > 0);
}

#[test]
fn the_larger_and_hyper_workbooks_end_where_the_native_solver_does() {
    for (stem, geo, workbook) in boards().into_iter().skip(2) {
        let step = if stem.starts_with("hyper") { STEP } else { 1 };
        let (s, u) = same_as_workbook(stem, &geo, workbook, step);
        assert!(s > 0 && u > 0, "{stem}: solved and unsolved puzzles in the sample: {s} and {u}");
    }
}
