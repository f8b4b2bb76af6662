//! `batch` and `watch --corpus` over the library's streaming pool
//! ([`dataflow::batch`]): puzzles read as they come, solved on worker
//! threads (one detached copy of the program and one runner each), handed
//! back in input order in runs, each run as soon as its first puzzle is
//! due, with at most [`WINDOW_PER_JOB`](dataflow::batch::WINDOW_PER_JOB)
//! puzzles per worker in flight. This file turns each into a
//! [`PuzzleOutcome`] with the file and line it came from.

use super::PuzzleOutcome;
use crate::app::Failure;
use dataflow::batch::Finished;
use dataflow::puzzle::{Fill, Status};
use dataflow::session::Session;
use std::sync::Arc;

pub use dataflow::batch::Task;

/// One puzzle as read: where it comes from, its text, and the answer
/// expected (spelled in the input's alphabet), if any.
pub struct Puzzle {
    /// The file it was read from (`-`: standard input), when the batch
    /// reads several.
    pub file: Option<Arc<str>>,
    /// Its 1-based line number in that file.
    pub line: usize,
    pub text: String,
    pub expected: Option<String>,
    /// Lines for the other inputs, read beside it (companion files).
    pub with: Vec<(Arc<str>, String)>,
}

/// Puzzles as they are read; an `Err` (a file that cannot be read) ends
/// the batch after the puzzles before it.
pub type Puzzles = Box<dyn Iterator<Item = Result<Puzzle, String>> + Send>;

/// A finished puzzle: the file it came from (see [`Puzzle::file`]) and its outcome.
pub type Done = (Option<Arc<str>>, PuzzleOutcome);

/// What a worker keeps of a puzzle besides its text.
type Tag = (Option<Arc<str>>, usize, Option<String>);

/// Runs `puzzles` through `base` on `jobs` worker threads (default: one
/// per core), calling `each` with every run of puzzles that are next in
/// input order as soon as they are solved. An error from `each` (the
/// reader of the output went away) stops the batch at once.
pub fn stream(
    base: &Session,
    task: &Task,
    jobs: Option<usize>,
    puzzles: Puzzles,
    mut each: impl FnMut(Vec<Done>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let tagged = puzzles.map(|p| p.map(|p| ((p.file, p.line, p.expected), Fill { line: p.text, with: p.with })));
    let mut results = dataflow::batch::stream(base, task, jobs, tagged);
    while let Some(run) = results.next_run() {
        let run: Vec<Finished<Tag>> = run?;
        each(run.into_iter().map(done).collect())?;
    }
    Ok(())
}

/// A finished puzzle with its file and outcome.
fn done(f: Finished<Tag>) -> Done {
    let (file, line, expected) = f.tag;
    (file, outcome(line, f.result, expected.as_deref(), f.ms))
}

/// One puzzle's outcome from what `solve` gave.
fn outcome(
    line: usize,
    res: Result<dataflow::puzzle::Solved, dataflow::Error>,
    expected: Option<&str>,
    ms: f64,
) -> PuzzleOutcome {
    match res {
        Ok(solved) => PuzzleOutcome {
            line,
            status: solved.status(expected),
            message: expected.and_then(|e| dataflow::puzzle::mismatch(&solved.grid, e)),
            iterations: solved.report.iterations,
            period: solved.report.period,
            ms,
            collected: solved.collected.iter().map(super::collected).collect(),
            grid: solved.grid,
            view_errors: solved.errors,
        },
        Err(m) => PuzzleOutcome {
            line,
            status: Status::Error,
            iterations: 0,
            period: None,
            ms,
            grid: String::new(),
            collected: Vec::new(),
            message: Some(m.to_string()),
            view_errors: Vec::new(),
        },
    }
}
