//! `dataflow.batch`: many puzzles through one workbook on the library's
//! streaming pool ([`dataflow::batch::stream`]), as `dataflow batch` runs
//! them, handed back one dict per puzzle in input order as soon as each is
//! due. The puzzles (and the expected lines) are Python iterables, read as
//! they come on the pool's reader thread, which takes the interpreter's
//! lock for each line only; waiting for a result releases it. Dropping the
//! iterator (or `close()`) drops the stream, which stops the reader and the
//! workers after the puzzles they hold.
//!
//! The semantics are the command line's (`src/cli/batch.rs`): the input
//! filled is the workbook's only one unless named; the answer is read from
//! `show` (a view or a range) through the input's alphabet; blank lines
//! are skipped but counted, so `line` is the puzzle's 1-based line; the
//! k-th expected line (blank lines skipped) grades the k-th puzzle, spelled
//! in the input's alphabet; `collect` reads more views or cells per puzzle.
//! Each dict has the keys of a JSON line: `line`, `status`, `iterations`,
//! `period` (None unless it oscillated), `ms`, `grid`, `collected` (when
//! asked, unless the puzzle failed) and `message` (when it failed).

use crate::types::usage;
use crate::values::to_py;
use crate::workbook::Workbook;
use dataflow::address::Area;
use dataflow::batch::{Finished, Stream, Task};
use dataflow::puzzle::{Collected, Status};
use dataflow::session::Session;
use dataflow::workbook::{InputDef, MAX_SHOWN_CELLS};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyIterator, PyString};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// What each puzzle carries beside its text: its line, and its expected answer.
type Tag = (usize, Option<String>);

/// Puzzles running on the pool, handed back in input order.
#[pyclass(module = "dataflow", name = "Batch")]
pub struct Batch {
    state: Mutex<State>,
    /// The `collect` keys, in the order asked.
    keys: Vec<String>,
}

/// The stream (None once it ended or was closed) and the puzzles it handed
/// back in a run that are not yet yielded: a run is taken whole, so the
/// puzzles already solved are yielded without waiting again.
struct State {
    stream: Option<Stream<Tag, PyErr>>,
    ready: VecDeque<Finished<Tag>>,
}

impl State {
    /// The next puzzle due: a ready one, or the next run's first (waiting).
    fn next(&mut self) -> Option<Result<Finished<Tag>, PyErr>> {
        if let Some(f) = self.ready.pop_front() {
            return Some(Ok(f));
        }
        match self.stream.as_mut()?.next_run() {
            Some(Ok(run)) => {
                self.ready.extend(run);
                self.ready.pop_front().map(Ok)
            }
            Some(Err(e)) => {
                self.stream = None;
                Some(Err(e))
            }
            None => {
                self.stream = None;
                None
            }
        }
    }
}

/// Starts a batch (see the module's text); `dataflow.batch` is the front.
#[pyfunction]
#[pyo3(signature = (workbook, puzzles, expect, jobs, show, collect, input, reset))]
#[allow(clippy::too_many_arguments)]
pub fn batch(
    py: Python<'_>,
    workbook: PyRef<'_, Workbook>,
    puzzles: &Bound<'_, PyAny>,
    expect: Option<&Bound<'_, PyAny>>,
    jobs: Option<usize>,
    show: &str,
    collect: Vec<String>,
    input: Option<&str>,
    reset: bool,
) -> PyResult<Batch> {
    let base = &workbook.session;
    let inputs = &base.workbook().inputs;
    let def = match (input, inputs.as_slice()) {
        (None, [only]) => only.clone(),
        (None, all) => {
            return Err(usage(py, format!("the workbook has {} inputs, not one: name one with input=", all.len())));
        }
        (Some(n), _) => base.workbook().input(n).cloned().ok_or_else(|| usage(py, format!("no input named `{n}`")))?,
    };
    let area = resolve(base, show).map_err(|m| usage(py, format!("show `{show}`: {m}")))?;
    let areas = collect.iter().map(|k| resolve(base, k).map_err(|m| usage(py, format!("collect `{k}`: {m}"))));
    let task = Task {
        input: def.name.clone(),
        alphabet: def.alphabet.clone(),
        show: area,
        collect: areas.collect::<PyResult<_>>()?,
        reset,
        sets: Vec::new(),
        // The views are not checked for error values here (the CLI's batch checks them).
        checked: Vec::new(),
    };
    let lines = Lines {
        puzzles: puzzles.try_iter()?.unbind(),
        expect: expect.map(|e| e.try_iter()).transpose()?.map(Bound::unbind),
        def,
        line: 0,
        expected: 0,
    };
    let stream = dataflow::batch::stream(base, &task, jobs, lines);
    Ok(Batch { state: Mutex::new(State { stream: Some(stream), ready: VecDeque::new() }), keys: collect })
}

/// A view's area, or a range of at most [`MAX_SHOWN_CELLS`] cells.
fn resolve(base: &Session, key: &str) -> Result<Area, String> {
    if let Some(v) = base.workbook().view(key) {
        return Ok(v.area);
    }
    let area = base.area(key).map_err(|e| {
        let views: Vec<&str> = base.workbook().views.iter().map(|v| v.name.as_str()).collect();
        format!("neither a view ({}) nor a range: {e}", views.join(", "))
    })?;
    match area.size() > MAX_SHOWN_CELLS {
        true => Err(format!("the area has {} cells; at most {MAX_SHOWN_CELLS} can be read", area.size())),
        false => Ok(area),
    }
}

impl Batch {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[pymethods]
impl Batch {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next puzzle in input order: one already handed back at once,
    /// else waited for without the interpreter's lock (the batch's own
    /// lock is waited for without it too, so two threads iterating one
    /// batch take turns).
    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let ready = self.state.try_lock().ok().and_then(|mut state| state.ready.pop_front());
        let next = match ready {
            Some(done) => Some(Ok(done)),
            None => py.detach(|| self.lock().next()),
        };
        match next {
            Some(Ok(done)) => result(py, &self.keys, done).map(Some),
            Some(Err(e)) => Err(e),
            None => Ok(None),
        }
    }

    /// Stops the batch: the puzzles not yet handed back are dropped.
    fn close(&self, py: Python<'_>) {
        py.detach(|| {
            let mut state = self.lock();
            state.stream = None;
            state.ready.clear();
        });
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &self,
        py: Python<'_>,
        _kind: Option<&Bound<'_, PyAny>>,
        _value: Option<&Bound<'_, PyAny>>,
        _tb: Option<&Bound<'_, PyAny>>,
    ) {
        self.close(py);
    }
}

/// One finished puzzle as a dict (see the module's text).
fn result<'py>(py: Python<'py>, keys: &[String], done: Finished<Tag>) -> PyResult<Bound<'py, PyDict>> {
    let ((line, expected), ms) = (done.tag, done.ms);
    let d = PyDict::new(py);
    d.set_item("line", line)?;
    match done.result {
        Ok(solved) => {
            d.set_item("status", solved.status(expected.as_deref()).as_str())?;
            d.set_item("iterations", solved.report.iterations)?;
            d.set_item("period", solved.report.period)?;
            d.set_item("ms", ms)?;
            d.set_item("grid", &solved.grid)?;
            if !keys.is_empty() {
                let collected = PyDict::new(py);
                for (k, c) in keys.iter().zip(&solved.collected) {
                    match c {
                        Collected::Cell(v) => collected.set_item(k, to_py(py, v)?)?,
                        Collected::Line(l) => collected.set_item(k, l)?,
                    }
                }
                d.set_item("collected", collected)?;
            }
        }
        Err(e) => {
            d.set_item("status", Status::Error.as_str())?;
            d.set_item("iterations", 0)?;
            d.set_item("period", py.None())?;
            d.set_item("ms", ms)?;
            d.set_item("grid", "")?;
            d.set_item("message", e.to_string())?;
        }
    }
    Ok(d)
}

/// The puzzles and their expected lines, read from Python iterators on the
/// pool's reader thread, the interpreter's lock taken for each line.
struct Lines {
    puzzles: Py<PyIterator>,
    expect: Option<Py<PyIterator>>,
    def: InputDef,
    /// Lines of the puzzles read so far, blank ones included.
    line: usize,
    /// Lines of the expected answers read so far, blank ones included.
    expected: usize,
}

impl Iterator for Lines {
    type Item = Result<(Tag, String), PyErr>;

    fn next(&mut self) -> Option<Self::Item> {
        let _inside = Inside::enter()?;
        Python::attach(|py| {
            let (line, text) = loop {
                let item = match self.puzzles.bind(py).clone().next()? {
                    Ok(item) => item,
                    Err(e) => return Some(Err(e)),
                };
                self.line += 1;
                match text_of(&item, "puzzles") {
                    Ok(t) if t.trim().is_empty() => continue,
                    Ok(t) => break (self.line, t),
                    Err(e) => return Some(Err(e)),
                }
            };
            match self.expected_line(py) {
                Ok(expected) => Some(Ok(((line, expected), text))),
                Err(e) => Some(Err(e)),
            }
        })
    }
}

/// Readers inside the interpreter now (reading a line, or waiting to).
static INSIDE: AtomicUsize = AtomicUsize::new(0);
/// Set once the interpreter is about to finalize: readers read no more.
static SHUTTING_DOWN: AtomicBool = AtomicBool::new(false);
/// How long [`shutdown`] waits for the readers inside the interpreter.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(2);

/// A reader counted in [`INSIDE`] while it lives.
struct Inside;

impl Inside {
    /// Counts a reader in, unless the interpreter is shutting down.
    fn enter() -> Option<Inside> {
        INSIDE.fetch_add(1, Ordering::SeqCst);
        let inside = Inside;
        (!SHUTTING_DOWN.load(Ordering::SeqCst)).then_some(inside)
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        INSIDE.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Called at exit (`atexit`, before the interpreter finalizes): the
/// readers of running batches read no more lines, and those reading one
/// now (a generator may wait on its source) are given a moment to come
/// out. A thread taking the interpreter's lock once it finalizes is ended
/// by Python in a way Rust code cannot survive.
#[pyfunction]
pub fn _shutdown(py: Python<'_>) {
    SHUTTING_DOWN.store(true, Ordering::SeqCst);
    py.detach(|| {
        let start = Instant::now();
        while INSIDE.load(Ordering::SeqCst) > 0 && start.elapsed() < SHUTDOWN_WAIT {
            std::thread::sleep(Duration::from_millis(1));
        }
    });
}

impl Lines {
    /// The next non-blank expected line, spelled in the input's alphabet.
    fn expected_line(&mut self, py: Python<'_>) -> PyResult<Option<String>> {
        let Some(expect) = &self.expect else { return Ok(None) };
        loop {
            let Some(item) = expect.bind(py).clone().next() else {
                return Err(usage(py, format!("expect has {} lines, fewer than the puzzles", self.expected)));
            };
            self.expected += 1;
            let text = text_of(&item?, "expect")?;
            if text.trim().is_empty() {
                continue;
            }
            let n = self.expected;
            return self.def.canonical(&text).map(Some).map_err(|m| usage(py, format!("expect line {n}: {m}")));
        }
    }
}

/// A line as text, its line break cut (as a file's lines come).
fn text_of(item: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let s = item.cast::<PyString>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!("{what} are lines of text (str), not {}", type_name(item)))
    })?;
    let s = s.to_cow()?;
    let s: &str = &s;
    let s = s.strip_suffix('\n').unwrap_or(s);
    Ok(s.strip_suffix('\r').unwrap_or(s).to_string())
}

fn type_name(item: &Bound<'_, PyAny>) -> String {
    item.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}
