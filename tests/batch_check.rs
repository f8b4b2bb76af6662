//! An input's check formula: the workbook's word on whether a puzzle is
//! solved. The Sudoku checks of `formulas/checks/` against an independent
//! Rust test of the units (a solution, near misses that keep the rows or
//! the rows and columns whole, the variants' extra units), `batch`
//! counting a full answer as solved only when the check or the expected
//! line says so, and a check that does not bind refused, located.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
use common::boards::{hyper_regions, plain_units, units};
use common::{GRID2_SOLVED, dataflow, temp_workbook};
use dataflow::session::Session;
use dataflow::value::Value;
use std::path::Path;

const X_SOLVED: &str = "371865294265914738849732516536429871198376452724158369452697183983541627617283945";
const HYPER_SOLVED: &str = "715384269936512748248976513627143985489257136153698472891465327572831694364729851";
const JIGSAW_REGIONS: &str = "112222333111222363111123363445525366444555666447585566747789999747888999777888899";
const JIGSAW_SOLVED: &str = "451932687218674953396781245687253419139546728574829136943168572825497361762315894";

/// A workbook whose solution board is an input (A1:I9), with a region map
/// (A11:I19), the check files included and `check` as the board's check.
fn check_workbook(tag: &str, check: &str) -> Session {
    let formulas = Path::new(env!("CARGO_MANIFEST_DIR")).join("formulas/checks");
    let text = format!(
        r#"Workbook(
    sheets: ["Main"],
    include: [{:?}, {:?}],
    names: {{ "sol_board": (formula: "=Main!$A$1:$I$9"), "region_map": (formula: "=Main!$A$11:$I$19") }},
    inputs: {{
        "board": (range: "Main!A1:I9", check: {check:?}),
        "regions": (range: "Main!A11:I19"),
    }},
)"#,
        formulas.join("sudoku.dfl"),
        formulas.join("regions.dfl"),
    );
    Session::load(Path::new(&temp_workbook("check", tag, &text))).unwrap()
}

/// What the check gives for `board` (with the region map `regions`).
fn check(s: &mut Session, board: &str, regions: &str) -> Value {
    s.set_input("board", board).unwrap();
    s.set_input("regions", regions).unwrap();
    s.recalc();
    s.check("board").expect("the board input declares a check")
}

/// The independent test: every unit holds each digit 1-9 once.
fn holds(board: &str, units: &[Vec<usize>]) -> bool {
    let digits: Vec<u32> = board.chars().map(|c| c.to_digit(10).unwrap_or(0)).collect();
    units.iter().all(|u| {
        let mut seen: Vec<u32> = u.iter().map(|&c| digits[c]).collect();
        seen.sort_unstable();
        seen == (1..=9).collect::<Vec<u32>>()
    })
}

fn swapped(board: &str, a: usize, b: usize) -> String {
    let mut c: Vec<char> = board.chars().collect();
    c.swap(a, b);
    c.into_iter().collect()
}

/// Rows and columns whole, boxes not: row r is 1..9 shifted by r.
fn latin_square() -> String {
    (0..81).map(|i| char::from_digit(((i / 9 + i % 9) % 9 + 1) as u32, 10).unwrap()).collect()
}

const NO_REGIONS: &str = ".................................................................................";

#[test]
fn sudoku_check_agrees_with_the_units() {
    let mut s = check_workbook("plain", "=sudoku_solved");
    let mut blank = GRID2_SOLVED.to_string();
    blank.replace_range(40..41, ".");
    let cases = [
        GRID2_SOLVED.to_string(),
        X_SOLVED.to_string(),
        swapped(GRID2_SOLVED, 0, 1), // rows whole, columns not
        latin_square(),              // rows and columns whole, boxes not
        blank,                       // one cell blank: FALSE, not an error
        JIGSAW_SOLVED.to_string(),   // rows and columns whole, its boxes are regions
    ];
    let expected = [true, true, false, false, false, false];
    for (board, want) in cases.iter().zip(expected) {
        assert_eq!(holds(board, &plain_units(3)), want, "the Rust test: {board}");
        assert_eq!(check(&mut s, board, NO_REGIONS), Value::Bool(want), "{board}");
    }
}

#[test]
fn the_variants_checks_add_their_units() {
    let regions: String = hyper_regions().iter().map(|&r| char::from_digit(r as u32, 10).unwrap()).collect();
    let regions = regions.replace('0', ".");
    let mut hyper = check_workbook("hyper", "=AND(sudoku_solved, regions_hold_every_digit)");
    let hyper_units = units(3, &hyper_regions());
    for (board, want) in [(HYPER_SOLVED, true), (GRID2_SOLVED, false)] {
        assert_eq!(holds(board, &hyper_units), want, "the Rust test: {board}");
        assert_eq!(check(&mut hyper, board, &regions), Value::Bool(want), "hyper {board}");
    }

    let mut x = check_workbook("x", "=AND(sudoku_solved, diagonals_hold_every_digit)");
    let mut x_units = plain_units(3);
    x_units.push((0..9).map(|i| i * 10).collect());
    x_units.push((0..9).map(|i| i * 8 + 8).collect());
    for (board, want) in [(X_SOLVED, true), (GRID2_SOLVED, false)] {
        assert_eq!(holds(board, &x_units), want, "the Rust test: {board}");
        assert_eq!(check(&mut x, board, NO_REGIONS), Value::Bool(want), "x {board}");
    }

    let jigsaw_check = "=AND(check_digits, rows_hold_every_digit, columns_hold_every_digit, regions_hold_every_digit)";
    let mut jigsaw = check_workbook("jigsaw", jigsaw_check);
    let map: Vec<usize> = JIGSAW_REGIONS.chars().map(|c| c.to_digit(10).unwrap() as usize).collect();
    let mut jigsaw_units = plain_units(3)[..18].to_vec();
    jigsaw_units.extend((1..=9).map(|k| (0..81).filter(|&c| map[c] == k).collect::<Vec<usize>>()));
    for (board, want) in [(JIGSAW_SOLVED, true), (GRID2_SOLVED, false), (latin_square().as_str(), false)] {
        assert_eq!(holds(board, &jigsaw_units), want, "the Rust test: {board}");
        assert_eq!(check(&mut jigsaw, board, JIGSAW_REGIONS), Value::Bool(want), "jigsaw {board}");
    }
}

/// Four cells copied from the input: the answer. `check` (a RON field, or
/// nothing) says whether it is solved: each of 1 to 4 once.
fn copying_workbook(tag: &str, check: &str) -> String {
    let text = format!(
        r#"Workbook(
    sheets: ["Main"],
    cells: {{ "Main!A3:D3": "=IF(A1=\"\", \"\", A1)" }},
    inputs: {{ "p": (range: "Main!A1:D1", alphabet: "1234", blanks: "."{check}) }},
    views: {{ "solution": (range: "Main!A3:D3") }},
)"#
    );
    temp_workbook("check", tag, &text)
}

/// The status `batch` gives each of `lines` (written to the file `tag`).
fn statuses(workbook: &str, tag: &str, lines: &str) -> Vec<String> {
    let puzzles = temp_workbook("check", tag, lines);
    let out = dataflow(&["batch", workbook, "--input", &format!("p=@{puzzles}"), "--format", "jsonl"]);
    out.stdout
        .lines()
        .filter_map(|l| {
            let j: serde_json::Value = serde_json::from_str(l).unwrap();
            j["status"].as_str().map(str::to_string)
        })
        .collect()
}

#[test]
fn batch_counts_a_full_answer_as_solved_only_when_the_check_says_so() {
    let checked = copying_workbook("checked", r#", check: "=AND(COUNTIF(A3:D3, {1,2,3,4})=1)""#);
    assert_eq!(
        statuses(&checked, "checked-lines", "1234\n4321\n1111\n12..\n"),
        ["solved", "solved", "wrong", "unsolved"]
    );
    let unchecked = copying_workbook("unchecked", "");
    assert_eq!(statuses(&unchecked, "unchecked-lines", "1234\n1111\n12..\n"), ["filled", "filled", "unsolved"]);
    let one = temp_workbook("check", "one-line", "1111\n");
    let out = dataflow(&["batch", &unchecked, "--input", &format!("p=@{one}")]);
    assert!(out.stdout.contains("\nsolved: 0\n") && out.stdout.contains("filled, nothing checks them: 1"), "{out:?}");
    // A check giving an error value is the puzzle's error, not a verdict.
    let broken = copying_workbook("broken", r#", check: "=1/0""#);
    assert_eq!(statuses(&broken, "broken-lines", "1234\n"), ["error"]);
}

#[test]
fn a_check_that_does_not_bind_is_refused_where_it_is_written() {
    let wb = copying_workbook("unknown", r#", check: "=AND(solved_board, TRUE)""#);
    let out = dataflow(&["check", &wb]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("unknown name `solved_board`"), "{out:?}");
    assert!(out.stderr.contains("unknown.ron:4:"), "located in the check: {out:?}");
    assert!(out.stderr.contains("in the check of input `p`"), "{out:?}");
    let wb = copying_workbook("unparsed", r#", check: "=AND(1,""#);
    let out = dataflow(&["check", &wb]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("cannot parse the formula of the check of input `p`"), "{out:?}");
}

#[test]
fn the_shipped_sudoku_workbooks_declare_a_check_that_holds_for_their_puzzle() {
    for wb in ["sudoku", "sudoku9", "sudoku16", "sudoku25", "hyper", "jigsaw"] {
        let mut s = Session::load(Path::new(&format!("workbooks/{wb}.ron"))).unwrap();
        s.reset().unwrap();
        s.recalc();
        assert_eq!(s.check("puzzle"), Some(Value::Bool(true)), "{wb}: its default puzzle is solved by singles");
        // Before the run the solution board is the givens: not solved.
        s.reset().unwrap();
        assert_eq!(s.check("puzzle"), Some(Value::Bool(false)), "{wb} after the reset");
    }
}
