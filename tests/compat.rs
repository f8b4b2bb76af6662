//! Old workbooks keep loading: copies of the board workbooks as they were
//! shipped before the strategy shelf (tests/data/compat/, from commit
//! 5cadb0b, their include paths pointing at the repository's formula
//! files) load with today's formula files and solve their puzzle as today's
//! workbooks do. (With `--with locked` such copies do not load today: their
//! own placement of the locked board meets the shelf; docs/strategies.md
//! says how to update a copy.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::expect_exit;

/// The solution view as `run` prints it.
fn solution(workbook: &str) -> String {
    let out = expect_exit(0, &["run", workbook, "--show", "solution"]).stdout;
    let grid: Vec<&str> = out.lines().skip_while(|l| *l != "solution:").take_while(|l| !l.is_empty()).collect();
    assert!(grid.len() > 9, "{out}");
    grid.join("\n")
}

#[test]
fn copies_of_the_board_workbooks_from_before_the_shelf_still_solve() {
    for w in ["hyper", "sudoku16"] {
        let old = solution(&format!("tests/data/compat/{w}.ron"));
        assert_eq!(old, solution(&format!("workbooks/{w}.ron")), "{w}");
        assert!(!old.contains('.'), "{w} is solved:\n{old}");
    }
}
