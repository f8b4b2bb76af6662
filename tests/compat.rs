//! Old workbooks keep loading: copies of the board workbooks as they were
//! shipped before the strategy shelf (tests/data/compat/, from commit
//! 5cadb0b, their include paths pointing at the repository's formula
//! files) load with today's formula files and solve their puzzle as today's
//! workbooks do, with and without their `locked` part (whose files they
//! name are kept as they were in formulas/boards/strategies/; the shipped
//! workbooks read formulas/boards/shelf/).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::expect_exit;

/// The solution view as `run WORKBOOK --with WITH` prints it.
fn solution(workbook: &str, with: &str) -> String {
    let mut args = vec!["run", workbook, "--show", "solution"];
    if !with.is_empty() {
        args.extend(["--with", with]);
    }
    let out = expect_exit(0, &args).stdout;
    let grid: Vec<&str> = out.lines().skip_while(|l| *l != "solution:").take_while(|l| !l.is_empty()).collect();
    assert!(grid.len() > 9, "{out}");
    grid.join("\n")
}

#[test]
fn copies_of_the_board_workbooks_from_before_the_shelf_still_solve() {
    for (w, with) in [("hyper", ""), ("sudoku16", ""), ("hyper", "locked"), ("sudoku16", "locked")] {
        let old = solution(&format!("tests/data/compat/{w}.ron"), with);
        assert_eq!(old, solution(&format!("workbooks/{w}.ron"), with), "{w} --with {with}");
        assert!(!old.contains('.'), "{w} is solved:\n{old}");
    }
}
