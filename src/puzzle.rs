//! Puzzles given as lines of symbols (a Sudoku's 81 digits and dots): one
//! line solved through a session, as `dataflow batch` does for every line
//! of a file, and the answer graded against an expected line. Nothing here
//! knows the puzzle: the workbook's named input and alphabet say how a line
//! fills cells, and a view says where the answer is read.

use crate::session::Session;

/// How one puzzle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The shown view equals the expected line (or, with nothing expected, is full).
    Solved,
    /// Converged, no wrong symbol, some cells still blank.
    Unsolved,
    /// A symbol differs from the expected line.
    Wrong,
    /// The iteration cap was reached first.
    NotConverged,
    /// The puzzle could not be loaded, or the view holds something outside the alphabet.
    Error,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolved => "unsolved",
            Status::Wrong => "wrong",
            Status::NotConverged => "not_converged",
            Status::Error => "error",
        }
    }
}

/// Classifies a result line against the expected one.
pub fn classify(grid: &str, expected: Option<&str>, converged: bool) -> Status {
    if grid.contains('?') {
        return Status::Error;
    }
    if let Some(exp) = expected {
        let wrong = grid.chars().zip(exp.chars()).any(|(g, e)| g != '.' && g != e);
        if wrong || grid.len() != exp.len() {
            return Status::Wrong;
        }
    }
    if !converged {
        return Status::NotConverged;
    }
    if grid.contains('.') { Status::Unsolved } else { Status::Solved }
}

/// Runs one puzzle on a fresh engine made from `base`: the input `input`
/// filled from `line`, the reset protocol (when `reset`), recalculation;
/// returns the iterations, whether they converged, and `show` read back
/// through `alphabet` (see [`Session::read_line`]).
pub fn solve_one(
    base: &Session,
    input: &str,
    line: &str,
    show: &crate::address::Area,
    alphabet: &str,
    reset: bool,
) -> Result<(u32, bool, String), String> {
    let mut s = base.fresh();
    s.set_input(input, line)?;
    if reset {
        s.reset()?;
    }
    let r = s.recalc();
    Ok((r.iterations, r.converged, s.read_line(show, alphabet)))
}
