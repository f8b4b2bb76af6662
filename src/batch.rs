//! Many puzzles through one workbook, in parallel, in input order: what
//! `dataflow batch` and the Python package's `batch` run. The puzzles are
//! read on a thread of their own as they come and solved on `jobs` worker
//! threads; each worker makes its own detached copy of the program (on its
//! own thread, so the copy's allocations sit in that thread's memory and
//! no reference count bounces between cores) and runs every puzzle through
//! one [`Runner`]: a saved fresh state restored per puzzle, never a new
//! engine. A [`Stream`] hands the results back in input order as soon as
//! each is the next one due. At most [`WINDOW_PER_JOB`] puzzles per worker
//! are in flight (read but not yet handed back), so memory stays bounded
//! whatever the input's length, and nothing waits for the input to end.
//! Dropping the stream stops the reader and the workers after the puzzles
//! they hold.

use crate::address::Area;
use crate::error::Error;
use crate::puzzle::{Fill, Runner, Solved};
use crate::session::Session;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

/// Puzzles in flight per worker thread: read, being solved, or solved and
/// waiting for an earlier, slower one to be handed back first.
pub const WINDOW_PER_JOB: usize = 64;

/// The most worker threads a batch starts (`--jobs`, `jobs=`): more than
/// any machine has cores, few enough that their engines fit in memory.
pub const MAX_JOBS: usize = 256;

/// How each puzzle is run: the input it fills, whether the reset protocol
/// runs, the cells set after it (`--set`), the area read back through
/// `alphabet`, the areas collected, and the areas checked for error values
/// afterwards (the workbook's views, for `dataflow batch`: see
/// [`Solved::errors`]).
#[derive(Clone, Debug)]
pub struct Task {
    pub input: String,
    pub alphabet: String,
    pub show: Area,
    pub collect: Vec<Area>,
    pub reset: bool,
    pub sets: Vec<(Area, crate::value::Value)>,
    pub checked: Vec<Area>,
}

/// One puzzle solved: what it was given with (`tag`: its line, its file,
/// what is expected of it), the result and the milliseconds it took.
#[derive(Debug)]
pub struct Finished<T> {
    pub tag: T,
    pub result: Result<Solved, Error>,
    pub ms: f64,
}

/// A puzzle handed to the workers: its place in the input, tag and text.
type Job<T> = (usize, T, Fill);
/// A puzzle back from a worker, or the panic it ended in.
type Back<T> = (usize, std::thread::Result<Finished<T>>);

/// The results of a batch in input order (see the module's text). The
/// iterator ends when every puzzle is handed back; an `Err` from the
/// puzzles' source (a file that cannot be read) comes after the puzzles
/// before it, and ends the stream.
pub struct Stream<T, E> {
    done: Receiver<Back<T>>,
    pending: BTreeMap<usize, Finished<T>>,
    next: usize,
    /// A slot is given back for every puzzle handed back.
    freed: Receiver<()>,
    stop: Arc<AtomicBool>,
    reader: Option<JoinHandle<Result<(), E>>>,
}

/// Starts solving `puzzles` (each a tag and a line) with `base`'s program
/// on `jobs` worker threads (default: one per core; at most [`MAX_JOBS`]).
pub fn stream<T, E, L, I>(base: &Session, task: &Task, jobs: Option<usize>, puzzles: I) -> Stream<T, E>
where
    T: Send + 'static,
    E: Send + 'static,
    L: Into<Fill>,
    I: Iterator<Item = Result<(T, L), E>> + Send + 'static,
{
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = jobs.unwrap_or(cores).clamp(1, MAX_JOBS);
    let stop = Arc::new(AtomicBool::new(false));
    let (slots, freed) = sync_channel::<()>(jobs * WINDOW_PER_JOB);
    let (work, queue) = sync_channel::<Job<T>>(jobs);
    let queue = Arc::new(Mutex::new(queue));
    let (done_tx, done) = channel();
    for _ in 0..jobs {
        let (base, task, queue, done_tx) = (base.clone(), task.clone(), queue.clone(), done_tx.clone());
        std::thread::spawn(move || worker(&base, &task, &queue, &done_tx));
    }
    let reader = {
        let stop = stop.clone();
        std::thread::spawn(move || read(puzzles, &slots, &work, &stop))
    };
    Stream { done, pending: BTreeMap::new(), next: 0, freed, stop, reader: Some(reader) }
}

/// Hands the puzzles to the workers, each once a slot is free, until the
/// input ends, a puzzle cannot be read, or the stream was dropped.
fn read<T, E, L: Into<Fill>>(
    puzzles: impl Iterator<Item = Result<(T, L), E>>,
    slots: &SyncSender<()>,
    work: &SyncSender<Job<T>>,
    stop: &AtomicBool,
) -> Result<(), E> {
    for (seq, puzzle) in puzzles.enumerate() {
        let (tag, line) = puzzle?;
        if stop.load(Ordering::Relaxed) || slots.send(()).is_err() || work.send((seq, tag, line.into())).is_err() {
            break;
        }
    }
    Ok(())
}

/// One worker: its own detached session and runner, then puzzles from the
/// queue until it is closed.
fn worker<T>(base: &Session, task: &Task, queue: &Mutex<Receiver<Job<T>>>, done: &std::sync::mpsc::Sender<Back<T>>) {
    let mut runner = Runner::new(&base.detached(), &task.input, task.reset).with_sets(task.sets.clone());
    loop {
        // The lock is held only while waiting for the next puzzle.
        let job = queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).recv();
        let Ok((seq, tag, line)) = job else { return };
        let t = Instant::now();
        let run = catch_unwind(AssertUnwindSafe(|| {
            let mut solved = runner.solve_with(&line, &task.show, &task.alphabet, &task.collect)?;
            solved.errors = runner.errors_in(&task.checked);
            Ok(solved)
        }));
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        // A panic leaves the runner to be restored by the next puzzle like
        // any other state; the consumer raises it again.
        if done.send((seq, run.map(|result| Finished { tag, result, ms }))).is_err() {
            return;
        }
    }
}

impl<T, E> Stream<T, E> {
    /// Waits for the next puzzle due, then returns it with every puzzle
    /// after it that is already solved (a run to write at once); None once
    /// every puzzle is handed back.
    pub fn next_run(&mut self) -> Option<Result<Vec<Finished<T>>, E>> {
        let first = self.next()?;
        let mut run = match first {
            Ok(f) => vec![f],
            Err(e) => return Some(Err(e)),
        };
        for (seq, back) in self.done.try_iter() {
            self.pending.insert(seq, back.unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        while let Some(f) = self.due() {
            run.push(f);
        }
        Some(Ok(run))
    }

    /// The next puzzle in input order, if it is solved.
    fn due(&mut self) -> Option<Finished<T>> {
        let f = self.pending.remove(&self.next)?;
        self.next += 1;
        let _ = self.freed.try_recv();
        Some(f)
    }
}

impl<T, E> Iterator for Stream<T, E> {
    type Item = Result<Finished<T>, E>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(f) = self.due() {
                return Some(Ok(f));
            }
            match self.done.recv() {
                Ok((seq, back)) => {
                    self.pending.insert(seq, back.unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
                }
                // Every worker is gone: the reader finished long before.
                Err(_) => {
                    let reader = self.reader.take()?;
                    return match reader.join() {
                        Ok(Ok(())) => None,
                        Ok(Err(e)) => Some(Err(e)),
                        Err(panic) => std::panic::resume_unwind(panic),
                    };
                }
            }
        }
    }
}

impl<T, E> Drop for Stream<T, E> {
    fn drop(&mut self) {
        // The reader stops at its next puzzle (it is never joined here: it
        // may be waiting for input that never comes); the workers stop once
        // their queue closes, and drop what they still send.
        self.stop.store(true, Ordering::Relaxed);
        while self.freed.try_recv().is_ok() {}
    }
}
