//! The streaming pool behind `batch` and `watch --corpus`: puzzles are read
//! on a thread of their own as they come, solved on a rayon pool (one
//! detached copy of the program per worker thread), and handed back in
//! input order as soon as each is the next one due. Each worker runs its
//! puzzles through one [`Runner`]: a saved fresh state restored per puzzle,
//! never a new engine. At most
//! [`WINDOW_PER_JOB`] puzzles per worker are in flight (read but not yet
//! handed back), so memory stays bounded whatever the input's length, and
//! nothing waits for the input to end.

use super::PuzzleOutcome;
use crate::app::Failure;
use dataflow::address::Area;
use dataflow::puzzle::{Runner, Status};
use dataflow::session::Session;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Puzzles in flight per worker thread: read, being solved, or solved and
/// waiting for an earlier, slower one to be handed back first.
pub const WINDOW_PER_JOB: usize = 64;

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
}

/// Puzzles as they are read; an `Err` (a file that cannot be read) ends
/// the batch after the puzzles before it.
pub type Puzzles = Box<dyn Iterator<Item = Result<Puzzle, String>> + Send>;

/// A finished puzzle: the file it came from (see [`Puzzle::file`]) and its outcome.
pub type Done = (Option<Arc<str>>, PuzzleOutcome);

/// How each puzzle is run: the input it fills and what is read back.
#[derive(Clone)]
pub struct Task {
    pub input: String,
    pub alphabet: String,
    pub area: Area,
    pub collect: Vec<Area>,
    pub reset: bool,
}

impl Task {
    fn run(&self, worker: &Mutex<Runner>, puzzle: Puzzle) -> Done {
        let t = Instant::now();
        // Only this worker's thread takes its runner; a panic left it to be
        // restored by the next puzzle like any other state.
        let mut runner = worker.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let res = runner.solve(&puzzle.text, &self.area, &self.alphabet, &self.collect);
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        (puzzle.file, outcome(puzzle.line, res, puzzle.expected.as_deref(), ms))
    }
}

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
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(j) = jobs {
        builder = builder.num_threads(j.max(1));
    }
    let pool = builder.build().map_err(|e| Failure::usage(format!("cannot start the worker threads: {e}")))?;
    // One detached copy of the program per worker thread, made on that
    // thread so its allocations sit in the thread's own memory (copies
    // made side by side would share cache lines, and every reference
    // count a worker bumps would bounce between cores), with its runner.
    let workers: Arc<Vec<Mutex<Runner>>> =
        Arc::new(pool.broadcast(|_| Mutex::new(Runner::new(&base.detached(), &task.input, task.reset))));
    let task = Arc::new(task.clone());
    // A slot is taken before a puzzle is handed to the pool and given back
    // when its outcome is; the reader waits while every slot is taken.
    let (slots, freed) = sync_channel::<()>(pool.current_num_threads() * WINDOW_PER_JOB);
    let (done_tx, done) = channel();
    // The reader is not joined when the batch stops early: it may be
    // waiting for input that never comes, and ends with the process.
    let reader = std::thread::spawn(move || -> Result<(), String> {
        for (seq, puzzle) in puzzles.enumerate() {
            let puzzle = puzzle?;
            if slots.send(()).is_err() {
                return Ok(());
            }
            let (workers, task, done) = (workers.clone(), task.clone(), done_tx.clone());
            pool.spawn(move || {
                let worker = &workers[rayon::current_thread_index().unwrap_or(0) % workers.len()];
                let _ = done.send((seq, catch_unwind(AssertUnwindSafe(|| task.run(worker, puzzle)))));
            });
        }
        Ok(())
    });
    let mut pending = BTreeMap::new();
    let mut next = 0;
    // Ends when the reader and every puzzle it started are done.
    while let Ok(first) = done.recv() {
        for (seq, result) in std::iter::once(first).chain(done.try_iter()) {
            pending.insert(seq, result.unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        let mut ready = Vec::new();
        while let Some(d) = pending.remove(&next) {
            ready.push(d);
            next += 1;
            let _ = freed.try_recv();
        }
        if !ready.is_empty() {
            each(ready)?;
        }
    }
    match reader.join() {
        Ok(read) => read.map_err(Failure::from),
        Err(panic) => std::panic::resume_unwind(panic),
    }
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
            iterations: solved.report.iterations,
            period: solved.report.period,
            ms,
            collected: solved.collected.iter().map(super::collected).collect(),
            grid: solved.grid,
            message: None,
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
        },
    }
}
