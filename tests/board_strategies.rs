//! The `locked` part of the board workbooks (formulas/boards/strategies/):
//! locked candidates over every pair of intersecting units, hyper's extra
//! regions included. The board is checked pass by pass against a reference
//! implementation of the rule in Rust (both orders), and the 9×9 board
//! iterates exactly as `workbooks/sudoku.ron --with locked`. The corpora
//! with `--with locked` are in tests/boards.rs.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{GRID1, GRID2};
use dataflow::address::Area;
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

/// Candidates as `[cell][digit - 1]`, cells in reading order.
type Cands = Vec<Vec<bool>>;

/// A board shaped like the valid-values board (box side `n`) as candidates:
/// true where it holds a number.
fn board(s: &Session, name: &str, n: usize) -> Cands {
    let size = n * n;
    let mut c = vec![vec![false; size]; size * size];
    for (i, row) in view(s, name).iter().enumerate() {
        for (j, v) in row.iter().enumerate() {
            c[(i / n) * size + j / n][(i % n) * n + j % n] = matches!(v, Value::Number(_));
        }
    }
    c
}

/// The units of a board of box side `n` as lists of cells: rows, columns,
/// boxes, then the extra regions of `regions` (a region number per cell, 0
/// for none).
fn units(n: usize, regions: &[usize]) -> Vec<Vec<usize>> {
    let size = n * n;
    let mut u: Vec<Vec<usize>> = (0..size).map(|r| (0..size).map(|c| r * size + c).collect()).collect();
    u.extend((0..size).map(|c| (0..size).map(|r| r * size + c).collect()));
    u.extend((0..size).map(|b| (0..size).map(|p| (b / n * n + p / n) * size + b % n * n + p % n).collect()));
    let count = regions.iter().copied().max().unwrap_or(0);
    u.extend((1..=count).map(|k| (0..size * size).filter(|&c| regions[c] == k).collect()));
    u
}

/// hyper.ron's region map: four 3×3 regions at rows and columns 2-4 and 6-8.
fn hyper_regions() -> Vec<usize> {
    let band = |i: usize| match i {
        1..=3 => Some(0),
        5..=7 => Some(1),
        _ => None,
    };
    (0..81).map(|c| band(c / 9).zip(band(c % 9)).map_or(0, |(r, k)| 1 + 2 * r + k)).collect()
}

/// Locked candidates: for each unit U and digit, when its places (two or
/// more) all lie in another unit V, the digit is removed from V outside U.
/// `pairs` says which pairs of units (by index) are looked at.
fn locked(v: &Cands, units: &[Vec<usize>], pairs: impl Fn(usize, usize) -> bool) -> Cands {
    let mut e = vec![vec![false; v[0].len()]; v.len()];
    for d in 0..v[0].len() {
        for (i, a) in units.iter().enumerate() {
            let places: Vec<usize> = a.iter().copied().filter(|&c| v[c][d]).collect();
            if places.len() < 2 {
                continue;
            }
            for (j, b) in units.iter().enumerate() {
                if i == j || !pairs(i, j) || !places.iter().all(|p| b.contains(p)) {
                    continue;
                }
                b.iter().filter(|c| !a.contains(c)).for_each(|&c| e[c][d] = true);
            }
        }
    }
    e
}

/// The progress the board compares, as its formula counts it: candidates
/// left x (cells + 1) + digits placed.
fn progress(s: &Session, cands: &Cands) -> f64 {
    let placed = view(s, "solution").iter().flatten().filter(|v| matches!(v, Value::Number(_))).count();
    (cands.iter().flatten().filter(|&&x| x).count() * (cands.len() + 1) + placed) as f64
}

/// Counts the evaluations of cells inside an area (the strategy board) in a pass.
struct Evaluations(Area, usize);

impl dataflow::engine::Observer for Evaluations {
    fn evaluate(&mut self, cell: dataflow::address::CellAddr) {
        self.1 += usize::from(self.0.contains(cell));
    }
}

/// The snapshot row (the workbook's name `snapshot`: n⁴ bit masks, then
/// the progress they were taken at) as candidates and that progress; `None`
/// before one is taken (-1 everywhere).
fn snapshot(s: &Session, area: &str, n: usize) -> Option<(Cands, f64)> {
    let row = &s.read(&s.area(area).unwrap())[0];
    let cells = n.pow(4);
    assert_eq!(row.len(), cells + 1, "{area}");
    if row[cells] == Value::Number(-1.0) {
        assert!(row.iter().all(|v| *v == Value::Number(-1.0)), "{row:?}");
        return None;
    }
    let masks = row[..cells].iter().map(|v| match v {
        Value::Number(mask) => (0..n * n).map(|d| (*mask as u64) >> d & 1 == 1).collect(),
        _ => panic!("snapshot cell: {v:?}"),
    });
    let Value::Number(taken) = row[cells] else { panic!("{:?}", row[cells]) };
    Some((masks.collect(), taken))
}

/// Where each workbook keeps its snapshot (the name `snapshot`).
fn snapshot_area(workbook: &str) -> &'static str {
    match workbook {
        HYPER => "Main!P62:CS62",
        SUDOKU9 => "Main!P32:CS32",
        SUDOKU16 => "Main!W69:JS69",
        _ => panic!("{workbook}: no snapshot area known"),
    }
}

/// Runs `puzzle` pass by pass with `--with locked` and checks that the
/// snapshot is taken (the candidates and progress read, row-major: this
/// pass's; synchronous: the last pass's) only in a pass whose progress
/// equals the one read in the pass before (the singles stalled) and not
/// every digit is placed, and kept otherwise; that the board adds exactly
/// what the rule removes from the snapshot it read (row-major: this pass's;
/// synchronous: the last pass's) where the snapshot holds the candidate,
/// and drops nothing; and that the board is not even calculated in a pass
/// where neither that snapshot nor the board changed. Returns the removals
/// listed in the end, and how many of them only a pair with an extra
/// region finds.
fn check_board(workbook: &str, n: usize, regions: &[usize], puzzle: &str, order: Order) -> (usize, usize) {
    let size = n * n;
    let units = units(n, regions);
    let mut s = locked_session(workbook);
    s.settings_mut().order = order;
    s.set_input("puzzle", puzzle).unwrap();
    s.reset().unwrap();
    let board_area = s.workbook().view("locked").unwrap().area;
    let mut listed = board(&s, "locked", n);
    assert!(listed.iter().flatten().all(|&x| !x), "the reset protocol clears the board");
    let cands = board(&s, "candidates", n);
    let mut before = (progress(&s, &cands), cands);
    let (mut regional, mut seen, mut taken, mut searched, mut board_changed) = (0, None, None, None, true);
    for pass in 1..200 {
        let mut evaluations = Evaluations(board_area, 0);
        let report = s.engine_mut().step_with(&mut evaluations);
        let cands = board(&s, "candidates", n);
        let after = (progress(&s, &cands), cands);
        let read = if order == Order::RowMajor { &after } else { &before };
        let cells = (size * size) as f64;
        let stalled = seen == Some(read.0) && read.0 % (cells + 1.0) < cells;
        seen = Some(read.0);
        let last_taken = taken.clone();
        if stalled {
            taken = Some((read.1.clone(), read.0));
        }
        assert_eq!(snapshot(&s, snapshot_area(workbook), n), taken, "{workbook} {puzzle}: snapshot, pass {pass}");
        let read_by_board = if order == Order::RowMajor { taken.clone() } else { last_taken };
        if read_by_board == searched && !board_changed {
            assert_eq!(evaluations.1, 0, "{workbook} {puzzle}: board calculated in pass {pass} with nothing new");
        }
        searched = read_by_board;
        let nothing = vec![vec![false; size]; size * size];
        let (snap, found, plain) = match &searched {
            // Pairs of rows, columns and boxes only: what a plain Sudoku's rule sees.
            Some((c, _)) => {
                (c.clone(), locked(c, &units, |_, _| true), locked(c, &units, |i, j| i < 3 * size && j < 3 * size))
            }
            None => (nothing.clone(), nothing.clone(), nothing),
        };
        let now = board(&s, "locked", n);
        for (c, d) in (0..size * size).flat_map(|c| (0..size).map(move |d| (c, d))) {
            let new = found[c][d] && snap[c][d];
            let expected = listed[c][d] || new;
            assert_eq!(
                now[c][d],
                expected,
                "{workbook} {puzzle}, pass {pass}, r{}c{} digit {}",
                c / size + 1,
                c % size + 1,
                d + 1
            );
            regional += usize::from(new && !listed[c][d] && !plain[c][d]);
        }
        board_changed = now != listed;
        listed = now;
        before = after;
        if report.converged {
            return (listed.iter().flatten().filter(|&&x| x).count(), regional);
        }
    }
    panic!("{workbook} {puzzle}: no fixpoint");
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
