//! The `locked` part of the board workbooks (formulas/boards/shelf/):
//! locked candidates over every pair of intersecting units, hyper's extra
//! regions included. The board is checked pass by pass against a reference
//! implementation of the rule in Rust (both orders, tests/common/boards.rs),
//! and the 9×9 board iterates exactly as `workbooks/sudoku.ron --with
//! locked`. The other strategies are in tests/board_subsets.rs. The corpora
//! with `--with locked` are in tests/boards.rs.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::boards::{Cands, check_boards, hyper_regions, locked, units};
use common::{GRID1, GRID2};
use dataflow::policy::Order;
use dataflow::session::Session;
use dataflow::value::Value;
use std::path::Path;

const HYPER: &str = "workbooks/hyper.ron";
const SUDOKU9: &str = "workbooks/sudoku9.ron";
const SUDOKU16: &str = "workbooks/sudoku16.ron";

fn locked_session(workbook: &str) -> Session {
    Session::load_with(Path::new(workbook), &["locked".to_string()])
        .unwrap_or_else(|d| panic!("{workbook} --with locked does not load: {d:?}"))
}

/// The values of a view, row by row.
fn view(s: &Session, name: &str) -> Vec<Vec<Value>> {
    s.read(&s.workbook().view(name).unwrap_or_else(|| panic!("no view {name}")).area)
}

/// Runs `puzzle` pass by pass with `--with locked` and checks the board
/// against the rule over every pair of units, the gate and the turns
/// (common::boards::check_boards). Returns the removals listed in the end,
/// and how many removals the board's searches found that only a pair with
/// an extra region finds.
fn check_board(workbook: &str, n: usize, regions: &[usize], puzzle: &str, order: Order) -> (usize, usize) {
    let size = n * n;
    let units = units(n, regions);
    let regional = std::cell::Cell::new(0);
    let rule = |c: &Cands| {
        let (all, plain) = (locked(c, &units, |_, _| true), locked(c, &units, |i, j| i < 3 * size && j < 3 * size));
        let only = (0..c.len()).flat_map(|x| (0..size).map(move |d| (x, d)));
        regional.set(regional.get() + only.filter(|&(x, d)| all[x][d] && !plain[x][d] && c[x][d]).count());
        all
    };
    let (listed, _) = check_boards(locked_session(workbook), n, &[("locked_board", &rule)], puzzle, order, false);
    (listed[0], regional.get())
}

// Three hyper puzzles of tier S+LC (sudoku_space_hyper_192 lines 13, 18
// and 29): singles alone leave them unsolved; locked candidates fire, some only
// through an extra region.
const HYPER_LC: [&str; 3] = [
    "...9.13...........49.2.....9.8.6.7........8.1.........7..8.26..265.1......159....",
    "2..76.....5....9.....2.......3...15.7..13......9.4...7.3......5....94.....2.8....",
    "..3..7..9....18....5......4.6..3.....2.8.....3.1...8.5.3........8.4..75.......14.",
];

#[test]
fn hyper_locked_board_lists_exactly_its_rules_removals_regions_included() {
    let regions = hyper_regions();
    for order in [Order::RowMajor, Order::Synchronous] {
        let (mut total, mut regional) = (0, 0);
        for p in HYPER_LC {
            let (t, r) = check_board(HYPER, 3, &regions, p, order);
            (total, regional) = (total + t, regional + r);
        }
        assert!(total > 0, "locked candidates fire ({order:?})");
        assert!(regional > 0, "some removals come only from a pair with an extra region ({order:?})");
    }
}

// Three 17-clue puzzles of tier S+LC+PT (as in tests/strategies.rs), where
// locked candidates fire and leave the puzzle unsolved.
const PT: [&str; 3] = [
    ".......31.8.....7....92....4.1.........2..8..3.........9....25.....8.6.......1...",
    ".....13..2.......45.........6....13.4..75.......2......38....6.....7...5.........",
    ".....19..7...3....2.........5.....7..1...4......2.........6.1.58..7...3.......4..",
];

#[test]
fn sudoku9_locked_board_lists_exactly_its_rules_removals() {
    for order in [Order::RowMajor, Order::Synchronous] {
        let total: usize = PT.iter().map(|p| check_board(SUDOKU9, 3, &[0; 81], p, order).0).sum();
        assert!(total > 0, "locked candidates fire ({order:?})");
    }
}

#[test]
fn the_board_is_idle_on_a_puzzle_the_singles_solve() {
    // No snapshot is taken (the singles never stall), so the board lists
    // nothing and check_board asserts it is not calculated after the first
    // pass: the valid-values board it no longer reads changes in every pass.
    let hyper = ".....4..9...........897..13.27....8......7..615....4.......53.7..2....9....72....";
    for order in [Order::RowMajor, Order::Synchronous] {
        assert_eq!(check_board(SUDOKU9, 3, &[0; 81], GRID2, order), (0, 0), "{order:?}");
        assert_eq!(check_board(HYPER, 3, &hyper_regions(), hyper, order), (0, 0), "{order:?}");
    }
}

#[test]
fn sudoku16_locked_board_lists_exactly_its_rules_removals() {
    // hexadoku_4 line 3 (sudsoln, MIT), the one puzzle singles leave unsolved.
    let p = "F.........9..7.2..A...4G.D....96.72.6C...A.4..D..4..3...7.....B.E......C..3...24.9.B.752.....8AF1...G.9.A.8.B.6..........2D..1..........B...4.7..1.6.5..2F.....D.D.84.1........GAF4.C.B.....8..1...DA.8.9..G...3B3...6.9...8EF..4.F....5..E.2....26...E.D..F.A.9";
    assert_eq!(p.len(), 256);
    for order in [Order::RowMajor, Order::Synchronous] {
        assert!(check_board(SUDOKU16, 4, &[0; 256], p, order).0 > 0, "locked candidates fire ({order:?})");
    }
}

/// Runs `puzzle` on two sessions pass by pass: after the reset protocol
/// and after every iteration, the solution, candidates and locked views
/// agree; with `fixpoint_only` in synchronous order, at the fixpoint only
/// (the article's boards read a snapshot of the candidates taken in the
/// pass before, so their removals appear a pass later).
fn same_iterations(mut a: Session, mut b: Session, puzzle: &str, order: Order, fixpoint_only: bool) {
    for s in [&mut a, &mut b] {
        s.settings_mut().order = order;
        s.set_input("puzzle", puzzle).unwrap();
        s.reset().unwrap().expect("a reset protocol");
    }
    let mut done = [false; 2];
    for i in 0..=100 {
        if order == Order::RowMajor || !fixpoint_only || done == [true; 2] {
            for v in ["solution", "candidates", "locked"] {
                assert_eq!(view(&a, v), view(&b, v), "{puzzle}: {v} after iteration {i} ({order:?})");
            }
        }
        // The article's part adds status cells, which settle one pass after
        // the boards: a workbook that has converged is not stepped again.
        if done == [true; 2] {
            return;
        }
        done[0] = done[0] || a.step().converged;
        done[1] = done[1] || b.step().converged;
    }
    panic!("{puzzle}: no fixpoint in 100 iterations");
}

#[test]
fn sudoku9_with_locked_iterates_as_the_article_with_locked() {
    for order in [Order::RowMajor, Order::Synchronous] {
        for p in [GRID1, GRID2].iter().chain(&PT) {
            same_iterations(locked_session(common::SUDOKU), locked_session(SUDOKU9), p, order, true);
        }
    }
}

#[test]
fn every_board_has_a_locked_part_with_a_board_shaped_like_its_candidates() {
    for workbook in [SUDOKU9, HYPER, SUDOKU16, "workbooks/sudoku25.ron"] {
        let s = locked_session(workbook);
        let area = |name: &str| s.workbook().view(name).unwrap_or_else(|| panic!("{workbook}: no view {name}")).area;
        let (board, candidates) = (area("locked"), area("candidates"));
        assert_eq!((board.rows(), board.cols()), (candidates.rows(), candidates.cols()), "{workbook}");
        // Under the candidates, in the same columns (read after them in a row-major pass).
        assert!(board.r0 > candidates.r1 && board.c0 == candidates.c0, "{workbook}: {board:?}");
        // Off by default: no locked view, the article's singles.
        let plain = Session::load(Path::new(workbook)).unwrap();
        assert!(plain.workbook().view("locked").is_none(), "{workbook}");
    }
}

#[test]
fn hyper_with_an_empty_region_map_iterates_as_sudoku9_with_locked() {
    // The pairs come from the region map: with no region, hyper's part is
    // the plain rule exactly.
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(Path::new(root).join(HYPER)).unwrap();
    let map = "        \"Main!E31:G33\": 1,\n        \"Main!I31:K33\": 2,\n        \"Main!E35:G37\": 3,\n        \"Main!I35:K37\": 4,\n";
    assert!(text.contains(map), "hyper.ron's region map moved");
    let text = text.replace(map, "").replace("\"../formulas/", &format!("\"{root}/formulas/"));
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hyper-no-regions.ron");
    std::fs::write(&path, text).unwrap();
    for order in [Order::RowMajor, Order::Synchronous] {
        same_iterations(locked_session(path.to_str().unwrap()), locked_session(SUDOKU9), PT[0], order, false);
    }
}
