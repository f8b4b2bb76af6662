//! The boards of every size on the shared formula files (formulas/boards/):
//! the 9×9 workbook iterates exactly as Ellis's own (workbooks/sudoku.ron),
//! hyper Sudoku's extra regions are data the formulas read (a cell sees 23
//! others in a region, 20 outside; another region map is another variant),
//! and the puzzle collections the repository ships (workbooks/puzzles/)
//! are solved exactly in their singles tier, with no wrong digit (with
//! `--with locked`, hyper's S+LC tier too, and PE96 as the article).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::policy::Order;
use dataflow::session::Session;
use dataflow::value::Value;
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

mod common;
use common::{GRID1, GRID2, expect_exit};

fn session(workbook: &str) -> Session {
    Session::load(Path::new(workbook)).unwrap_or_else(|d| panic!("{workbook} does not load: {d:?}"))
}

/// The values of a view, row by row.
fn view(s: &Session, name: &str) -> Vec<Vec<Value>> {
    s.read(&s.workbook().view(name).unwrap_or_else(|| panic!("no view {name}")).area)
}

// ------------------------------------------------ 9×9: Ellis's iterations

/// Runs `puzzle` on both workbooks pass by pass: after the reset protocol
/// and after every iteration, the solution and candidates boards agree.
/// With dynamic reads off (`reads`), both evaluate as many cells in each
/// pass; with them on, each evaluates what its own formulas last read.
fn same_iterations(puzzle: &str, order: Order, reads: bool) {
    let (mut ellis, mut shared) = (session("workbooks/sudoku.ron"), session("workbooks/sudoku9.ron"));
    for s in [&mut ellis, &mut shared] {
        s.engine_mut().set_dynamic_reads(reads);
        s.settings_mut().order = order;
        s.set_input("puzzle", puzzle).unwrap();
        s.reset().unwrap().expect("a reset protocol");
    }
    for i in 0..=100 {
        for v in ["solution", "candidates"] {
            assert_eq!(view(&ellis, v), view(&shared, v), "{v} after iteration {i} ({order:?})");
        }
        let (a, b) = (ellis.step(), shared.step());
        assert_eq!(a.converged, b.converged, "iteration {} ({order:?})", i + 1);
        if !reads {
            assert_eq!(a.evaluated, b.evaluated, "iteration {} ({order:?})", i + 1);
        }
        if a.converged {
            assert!(i >= 5, "{puzzle} converged after {} iterations", i + 1);
            assert!(!view(&shared, "solution").iter().flatten().any(|v| *v == Value::Text("".into())));
            return;
        }
    }
    panic!("no fixpoint in 100 iterations");
}

#[test]
fn sudoku9_iterates_as_ellis_on_pe96_grids_1_and_2() {
    for order in [Order::RowMajor, Order::Synchronous] {
        for reads in [false, true] {
            same_iterations(GRID1, order, reads);
            same_iterations(GRID2, order, reads);
        }
    }
}

// ------------------------------------------------ structure: the units a cell sees

/// How many other cells a digit at (row, col) rules out: the candidates
/// of that digit gone from other big cells after one iteration, on an
/// otherwise empty board.
fn peers(s: &Session, row: usize, col: usize) -> usize {
    let mut s = s.fresh();
    let mut line = vec!['.'; 81];
    line[(row - 1) * 9 + col - 1] = '5';
    s.set_input("puzzle", &line.iter().collect::<String>()).unwrap();
    s.reset().unwrap();
    s.step();
    let cand = view(&s, "candidates");
    // Digit 5 sits in the middle of each 3×3 big cell.
    let fives = (0..9)
        .flat_map(|r| (0..9).map(move |c| (r, c)))
        .filter(|&(r, c)| cand[r * 3 + 1][c * 3 + 1] == Value::Number(5.0));
    80 - fives.filter(|&(r, c)| (r, c) != (row - 1, col - 1)).count()
}

#[test]
fn a_hyper_cell_in_an_extra_region_sees_its_region_too() {
    let (plain, hyper) = (session("workbooks/sudoku9.ron"), session("workbooks/hyper.ron"));
    // r2c2 is in region 1 (r2-4, c2-4): 20 peers by row, column and box,
    // and r3c4, r4c3, r4c4 only by the region.
    assert_eq!(peers(&plain, 2, 2), 20);
    assert_eq!(peers(&hyper, 2, 2), 23);
    // r1c1 and r5c5 are in no extra region.
    assert_eq!(peers(&hyper, 1, 1), 20);
    assert_eq!(peers(&hyper, 5, 5), 20);
    // r4c4 is in region 1 and box 5: r2c2, r2c3, r3c2, r3c3 are its peers
    // only through the region.
    assert_eq!(peers(&hyper, 4, 4), 24);
}

/// hyper.ron with its region map replaced by `regions` (RON cell entries),
/// loaded from a temporary copy (formula files found by absolute path).
fn variant(regions: &str) -> Session {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(Path::new(root).join("workbooks/hyper.ron")).unwrap();
    let map = "        \"Main!E31:G33\": 1,\n        \"Main!I31:K33\": 2,\n        \"Main!E35:G37\": 3,\n        \"Main!I35:K37\": 4,\n";
    assert!(text.contains(map), "hyper.ron's region map moved");
    let text = text.replace(map, regions).replace("\"../formulas/", &format!("\"{root}/formulas/"));
    let dir = std::env::temp_dir().join(format!("dataflow-boards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join("variant.ron");
    std::fs::write(&path, text).unwrap();
    let s = Session::load(&path).unwrap_or_else(|d| panic!("the variant does not load: {d:?}"));
    std::fs::remove_dir_all(&dir).unwrap();
    s
}

#[test]
fn another_variant_is_another_region_map() {
    // One region: the main diagonal. r1c1 sees r4c4..r9c9 through it (r2c2
    // and r3c3 are in its box already); r1c9 is on no diagonal cell.
    let diagonal: String = (0..9).map(|i| format!("        \"Main!{}{}\": 1,\n", (b'D' + i) as char, 30 + i)).collect();
    let s = variant(&diagonal);
    assert_eq!(peers(&s, 1, 1), 26);
    assert_eq!(peers(&s, 5, 5), 26);
    assert_eq!(peers(&s, 1, 9), 20);
    // No region at all: a plain Sudoku.
    let s = variant("");
    assert_eq!(peers(&s, 2, 2), 20);
}

// ------------------------------------------------ corpora

const CORPORA: &str = "workbooks/puzzles";

/// Runs `dataflow batch` over a corpus, with `extra` arguments (`--with`,
/// `--order`); returns each puzzle's status with its tier ("" for a corpus
/// without a tiers file). No puzzle may reach 100 iterations (every board's puzzles take
/// far fewer; the cap is 100 or more).
fn batch_with(workbook: &str, corpus: &str, extra: &[&str]) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = format!("{CORPORA}/{corpus}");
    assert!(root.join(format!("{file}.txt")).exists(), "{file}.txt is missing");
    let (input, expect) = (format!("puzzle=@{file}.txt"), format!("{file}.solutions.txt"));
    let args = ["batch", workbook, "--input", &input, "--expect", &expect, "--format", "jsonl"];
    let out = expect_exit(0, &[&args[..], extra].concat());
    let tiers = std::fs::read_to_string(root.join(format!("{file}.tiers.txt"))).unwrap_or_default();
    let tiers: Vec<&str> = tiers.lines().collect();
    let results: Vec<(String, String)> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Json>(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .map(|o| {
            assert!(o["iterations"].as_u64().unwrap() < 100, "{workbook} {extra:?}: near the iteration cap: {o}");
            let line = o["line"].as_u64().unwrap() as usize;
            (tiers.get(line - 1).unwrap_or(&"").to_string(), o["status"].as_str().unwrap().to_string())
        })
        .collect();
    results
}

/// [`batch_with`] with the workbook's defaults.
fn batch(workbook: &str, corpus: &str) -> Vec<(String, String)> {
    let results = batch_with(workbook, corpus, &[]);
    let lines = std::fs::read_to_string(format!("{CORPORA}/{corpus}.txt")).unwrap().lines().count();
    assert_eq!(results.len(), lines, "{corpus}: one result per puzzle");
    results
}

/// Every puzzle of tier S (singles) solved, every other one unsolved (so
/// none wrong, none not converged); returns how many were solved.
fn singles_tier_exactly(workbook: &str, corpus: &str) -> usize {
    let results = batch(workbook, corpus);
    for (i, (tier, status)) in results.iter().enumerate() {
        let want = if tier == "S" { "solved" } else { "unsolved" };
        assert_eq!(status, want, "{corpus} line {}: tier {tier}", i + 1);
    }
    results.iter().filter(|(_, s)| s == "solved").count()
}

#[test]
fn hexadoku_lines_1_2_4_are_solved_none_wrong() {
    assert_eq!(singles_tier_exactly("workbooks/sudoku16.ron", "16x16/hexadoku_4"), 3);
}

#[test]
fn alphadoku_line_6_is_solved_none_wrong() {
    // Line 6 is the corpus's one singles puzzle.
    assert_eq!(singles_tier_exactly("workbooks/sudoku25.ron", "25x25/alphadoku_7"), 1);
}

#[test]
fn hyper_solves_the_121_singles_puzzles_none_wrong() {
    assert_eq!(singles_tier_exactly("workbooks/hyper.ron", "hyper/sudoku_space_hyper_192"), 121);
}

// ------------------------------------------------ corpora, --with locked

#[test]
fn hyper_with_locked_solves_exactly_the_s_and_lc_tiers_in_both_orders() {
    for order in ["row-major", "synchronous"] {
        let extra = ["--with", "locked", "--order", order];
        let results = batch_with("workbooks/hyper.ron", "hyper/sudoku_space_hyper_192", &extra);
        for (i, (tier, status)) in results.iter().enumerate() {
            let want = if tier == "S" || tier == "S+LC" { "solved" } else { "unsolved" };
            assert_eq!(status, want, "{order}: line {}, tier {tier}", i + 1);
        }
        assert_eq!(results.iter().filter(|(_, s)| s == "solved").count(), 121 + 55, "{order}");
    }
}

#[test]
fn hexadoku_with_locked_solves_lines_1_2_4_none_wrong() {
    let results = batch_with("workbooks/sudoku16.ron", "16x16/hexadoku_4", &["--with", "locked"]);
    let statuses: Vec<&str> = results.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(statuses, ["solved", "solved", "unsolved", "solved"]);
}

#[test]
fn sudoku9_with_locked_solves_44_of_pe96_as_the_article() {
    let results = batch_with("workbooks/sudoku9.ron", "9x9/project_euler_96", &["--with", "locked"]);
    let count = |s: &str| results.iter().filter(|(_, r)| r == s).count();
    assert_eq!((count("solved"), count("wrong"), count("unsolved")), (44, 0, 6));
}
