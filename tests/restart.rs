//! Cheap restarts (issue 12): a `puzzle::Runner` restores a saved fresh
//! state for every puzzle instead of building an engine. A sequence of
//! puzzles on one runner must give, puzzle by puzzle, exactly what a fresh
//! session per puzzle gives: the same report and values after every
//! iteration, in both orders, whatever the previous puzzle left behind
//! (solved, a contradiction, oscillating, capped), with and without a
//! reset protocol, through another alphabet and on a 16x16 board.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{GRID1, GRID1_SOLVED, GRID2, GRID2_SOLVED, SUDOKU};
use dataflow::address::Area;
use dataflow::engine::Report;
use dataflow::policy::Order;
use dataflow::puzzle::{Runner, Status, solve};
use dataflow::session::Session;
use dataflow::value::Value;
use std::path::Path;

/// The first 17-clue puzzle of the corpus's tier that singles do not solve.
const GIVES_UP: &str = ".......21..5.8....6...........67.3..12....5..4...........2.1.4...3.......8.......";

fn load(path: &str, with: &[&str]) -> Session {
    let with: Vec<String> = with.iter().map(|s| s.to_string()).collect();
    Session::load_with(&Path::new(env!("CARGO_MANIFEST_DIR")).join(path), &with)
        .unwrap_or_else(|d| panic!("{path}: {d:?}"))
}

/// Every value of the used part of each sheet.
fn values(s: &Session) -> Vec<Vec<Vec<Value>>> {
    let sheets = s.workbook().sheets.len() as dataflow::address::SheetId;
    (0..sheets)
        .map(|sheet| {
            let (rows, cols) = s.engine().grid().extent(sheet);
            if rows == 0 || cols == 0 {
                return Vec::new();
            }
            s.read(&Area { sheet, r0: 0, c0: 0, r1: rows - 1, c1: cols - 1 })
        })
        .collect()
}

/// Steps `s` one iteration at a time until it converges, oscillates or
/// reaches the cap: each step's report and the values after it.
fn steps(s: &mut Session) -> Vec<(Report, Vec<Vec<Vec<Value>>>)> {
    let cap = s.engine().settings.max_iterations;
    let mut out = Vec::new();
    for _ in 0..cap {
        let r = s.step();
        let done = r.converged || r.period.is_some() || r.iterations == 0;
        out.push((r, values(s)));
        if done {
            break;
        }
    }
    out
}

/// Runs `lines` in turn through one runner and each through a fresh
/// session made from `base` (a 9x9 board, answer in Main!D16:L24), comparing the state after the reset protocol,
/// every iteration, and `solve`'s outcome; returns the statuses.
fn same_as_fresh(base: &Session, input: &str, reset: bool, lines: &[&str]) -> Vec<Status> {
    let show = base.area("Main!D16:L24").unwrap();
    let alphabet = base.workbook().input(input).unwrap().alphabet.clone();
    let mut runner = Runner::new(base, input, reset);
    let mut solver = Runner::new(base, input, reset);
    let mut statuses = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let mut fresh = base.fresh();
        fresh.set_input(input, line).unwrap();
        if reset {
            fresh.reset().unwrap();
        }
        let restored = runner.start(line).unwrap();
        assert!(values(restored) == values(&fresh), "puzzle {i}: the state after the reset protocol");
        let (a, b) = (steps(restored), steps(&mut fresh));
        assert_eq!(a.len(), b.len(), "puzzle {i}: iterations");
        for (k, ((ra, va), (rb, vb))) in a.iter().zip(&b).enumerate() {
            assert_eq!(ra, rb, "puzzle {i}, iteration {k}");
            assert!(va == vb, "puzzle {i}, iteration {k}: values");
        }
        let (ours, theirs) = (
            solver.solve(line, &show, &alphabet, &[]).unwrap(),
            solve(base, input, line, &show, &alphabet, reset, &[]).unwrap(),
        );
        assert_eq!(ours.report, theirs.report, "puzzle {i}");
        assert_eq!(ours.grid, theirs.grid, "puzzle {i}");
        statuses.push(ours.status(None));
    }
    statuses
}

#[test]
fn sudoku_puzzles_in_sequence_run_as_on_fresh_engines_in_both_orders() {
    let contradiction = format!("1.......1{}", &GRID2[9..]);
    let lines = [GRID1, contradiction.as_str(), GRID2, GIVES_UP, GRID1];
    for order in [Order::RowMajor, Order::Synchronous] {
        let mut base = load(SUDOKU, &[]);
        base.settings_mut().order = order;
        let got = same_as_fresh(&base, "puzzle", true, &lines);
        assert_eq!(got[0], Status::Solved, "{order}");
        assert_eq!(got[2], Status::Solved, "{order}");
        assert_eq!(got[3], Status::Unsolved, "{order}");
    }
    // The answers themselves, read back through the runner.
    let base = load(SUDOKU, &[]);
    let show = base.area("Main!D16:L24").unwrap();
    let mut runner = Runner::new(&base, "puzzle", true);
    for (line, solved) in [(GRID2, GRID2_SOLVED), (GRID1, GRID1_SOLVED), (GRID2, GRID2_SOLVED)] {
        assert_eq!(runner.solve(line, &show, "123456789", &[]).unwrap().grid, solved);
    }
}

#[test]
fn a_contradiction_and_a_capped_run_leave_nothing_behind() {
    // With the status cells, two 1s in a row end in a contradiction.
    let contradiction = format!("1.......1{}", &GRID2[9..]);
    let mut base = load(SUDOKU, &["locked"]);
    let lines = [contradiction.as_str(), GRID2, GIVES_UP, contradiction.as_str()];
    same_as_fresh(&base, "puzzle", true, &lines);
    // Capped after 3 iterations: not converged, then a full run again.
    base.settings_mut().max_iterations = 3;
    let got = same_as_fresh(&base, "puzzle", true, &[GRID1, GRID2]);
    assert!(got.iter().all(|s| *s == Status::NotConverged), "{got:?}");
}

#[test]
fn oscillating_puzzles_without_a_reset_protocol() {
    for order in [Order::RowMajor, Order::Synchronous] {
        let mut base = load("tests/data/oscillation/modes.ron", &[]);
        base.settings_mut().order = order;
        let mut runner = Runner::new(&base, "mode", true);
        let pair = base.area("Main!A1:B1").unwrap();
        for (line, status) in [("1", Status::Oscillating), ("2", Status::Solved), ("1", Status::Oscillating)] {
            let ours = runner.solve(line, &pair, "12", &[]).unwrap();
            let theirs = solve(&base, "mode", line, &pair, "12", true, &[]).unwrap();
            assert_eq!(ours.report, theirs.report, "{order} {line}");
            assert_eq!(ours.grid, theirs.grid, "{order} {line}");
            assert_eq!(ours.status(None), status, "{order} {line}: {:?}", ours.report);
        }
        // Step by step as well (no reset protocol: nothing primed).
        let mut fresh = base.fresh();
        fresh.set_input("mode", "1").unwrap();
        let restored = runner.start("1").unwrap();
        let (a, b) = (steps(restored), steps(&mut fresh));
        assert_eq!(a, b, "{order}");
        assert!(a.last().unwrap().0.period.is_some(), "{order}");
    }
}

#[test]
fn another_alphabet_on_a_16x16_board() {
    let mut base = load("workbooks/sudoku16.ron", &[]);
    let given = base.workbook().input("puzzle").unwrap().value.clone().unwrap();
    base.set_alphabet("ABCDEFGHIJKLMNOP").unwrap();
    let spelled: String = given
        .chars()
        .map(|c| match "123456789ABCDEFG".find(c) {
            Some(k) => "ABCDEFGHIJKLMNOP".as_bytes()[k] as char,
            None => c,
        })
        .collect();
    // The same puzzle, with its first given taken away, then again.
    let fewer = format!(".{}", &spelled[1..]);
    let input = base.workbook().input("puzzle").unwrap().area;
    let lines = [spelled.as_str(), fewer.as_str(), spelled.as_str()];
    let mut runner = Runner::new(&base, "puzzle", true);
    for line in lines {
        let mut fresh = base.fresh();
        fresh.set_input("puzzle", line).unwrap();
        fresh.reset().unwrap();
        let restored = runner.start(line).unwrap();
        assert_eq!(restored.read_line(&input, "ABCDEFGHIJKLMNOP"), line);
        assert_eq!(steps(restored), steps(&mut fresh));
    }
}

#[test]
fn a_reset_from_the_state_the_last_one_started_from_gives_the_same() {
    let mut s = load(SUDOKU, &[]);
    s.set_input("puzzle", GRID2).unwrap();
    s.reset().unwrap();
    s.recalc();
    // From the end of a run: the reset protocol, then the same run again.
    let end = s.clone();
    let first = s.reset().unwrap();
    let after = s.clone();
    s.recalc();
    assert!(s.resets_like(&end), "the run ends where it ended before");
    assert_eq!(s.reset().unwrap(), first);
    assert!(values(&s) == values(&after));
    assert_eq!(steps(&mut s), steps(&mut after.clone()));
    // Not from another state: one cell differs, or the protocol's cell
    // already holds what it sets (the oscillation history goes on), or
    // another cell is waiting to be calculated.
    let mut edited = end.clone();
    edited.set(edited.area("Main!A1").unwrap().top_left(), Value::Number(1.0)).unwrap();
    assert!(!edited.resets_like(&end));
    let mut state = end.clone();
    state.set(state.area("Main!D27").unwrap().top_left(), Value::Text("reset".into())).unwrap();
    assert!(!state.resets_like(&end) && !state.resets_like(&state.clone()));
    let mut dirty = end.clone();
    dirty.engine_mut().mark_all_dirty();
    assert!(!dirty.resets_like(&end));
    // Numbers compare bit for bit: -0 is not 0 here.
    let (mut zero, mut minus) = (end.clone(), end.clone());
    zero.set(zero.area("Main!A1").unwrap().top_left(), Value::Number(0.0)).unwrap();
    minus.set(minus.area("Main!A1").unwrap().top_left(), Value::Number(-0.0)).unwrap();
    assert!(zero.resets_like(&zero.clone()) && !zero.resets_like(&minus));
}
