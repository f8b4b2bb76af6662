//! `batch`: runs puzzles through a workbook, in parallel (one engine per
//! puzzle over one shared program, the workbook parsed once), compares the
//! shown view with the expected line, and prints a summary or one JSON line
//! per puzzle. The puzzles stream: read from files, a directory or standard
//! input as they come (`sources.rs`), solved on a pool that hands them back
//! in input order (`pool.rs`), each JSON line written and flushed as soon as
//! it is due, the summary counted as they go (`summary.rs`). `--collect`
//! reads more views or cells per puzzle (a status cell, a history), into
//! each JSON line and, for single cells, into the summary as counts per value.
//! Every view of the workbook is checked for error values after each puzzle
//! (a broken strategy board): each line names the views holding some, and
//! the summary counts the puzzles per view.

mod pool;
mod sources;
mod summary;

use super::BatchFormat;
use super::output::value_json;
use crate::app::{Failure, Options, Shown, apply_settings, input_line_file, print, resolve_area, resolve_key, warn};
use dataflow::puzzle::{Collected, Status};
use dataflow::render::cell_text;
use dataflow::session::{AreaErrors, Session};
use dataflow::workbook::InputDef;
use indicatif::{ProgressBar, ProgressStyle};
use pool::{Done, Puzzle, Task};
use serde_json::json;
use std::io::IsTerminal;
use std::time::Instant;
use summary::Summary;

/// One puzzle's result.
#[derive(Clone, Debug)]
pub struct PuzzleOutcome {
    pub line: usize,
    pub status: Status,
    pub iterations: u32,
    /// The period, when the iterations oscillated.
    pub period: Option<u32>,
    pub ms: f64,
    pub grid: String,
    /// The `--collect` values: as JSON (a cell's value, or a line), and as
    /// the summary counts them (what the cell shows).
    pub collected: Vec<(serde_json::Value, String)>,
    pub message: Option<String>,
    /// The workbook's views holding error values after the puzzle, each
    /// with its index among them.
    pub view_errors: Vec<(usize, AreaErrors)>,
}

/// The workbook loaded once (with its parts and settings) and how each
/// puzzle runs through it.
struct Setup {
    base: Session,
    def: InputDef,
    task: Task,
    collect: Vec<Shown>,
}

impl Setup {
    /// Loads the workbook; `name` is the input the puzzles fill (empty: the
    /// workbook's only input).
    fn new(common: &Options, name: &str, show: &str, collect: &[String]) -> Result<Setup, Failure> {
        let usage = Failure::Usage;
        let mut base = crate::app::load(&common.workbook, &common.with)?;
        crate::app::warn_passed_over(&base, crate::app::PASSED_OVER_SHOWN);
        apply_settings(&mut base, common)?;
        let def = match (name, base.workbook().inputs.as_slice()) {
            // No name: the workbook's only input.
            ("", [only]) => only.clone(),
            ("", all) => return Err(usage(format!("the workbook has {} inputs, not one", all.len()))),
            _ => base.workbook().input(name).ok_or_else(|| usage(format!("no input named `{name}`")))?.clone(),
        };
        let area = resolve_area(&base, show).map_err(|m| usage(format!("--show `{show}`: {m}")))?;
        let collect: Vec<Shown> =
            collect.iter().map(|k| resolve_key(&base, "--collect", k)).collect::<Result<_, _>>()?;
        let task = Task {
            input: def.name.clone(),
            alphabet: def.alphabet.clone(),
            show: area,
            collect: collect.iter().map(|c| c.area).collect(),
            reset: !common.no_reset,
            sets: crate::app::resolve_sets(&base, &common.sets)?,
            checked: base.workbook().views.iter().map(|v| v.area).collect(),
        };
        // A --set the workbook refuses (a formula cell, too large) is a usage
        // error before the first puzzle, as for `run`.
        crate::app::apply_sets(&mut base.clone(), common)?;
        Ok(Setup { base, def, task, collect })
    }
}

/// A batch over one file held in memory, as `watch --corpus` runs it: the
/// puzzle lines and their expected lines, which [`Plan::sample`] can thin.
pub struct Plan {
    setup: Setup,
    /// Each puzzle with its 1-based line number.
    pub lines: Vec<(usize, String)>,
    /// Line i is the expected result of puzzle i.
    expected: Option<Vec<String>>,
}

impl Plan {
    /// Loads the workbook and the files: `input` is `NAME=@FILE` (`=@FILE`:
    /// the workbook's only input).
    pub fn new(
        common: &Options,
        input: &str,
        show: &str,
        collect: &[String],
        expect: Option<&std::path::Path>,
    ) -> Result<Plan, Failure> {
        let usage = Failure::Usage;
        let (name, spec) =
            input.split_once('=').ok_or_else(|| usage(format!("--input `{input}`: expected NAME=@FILE")))?;
        let path = spec
            .strip_prefix('@')
            .ok_or_else(|| usage(format!("--input `{input}`: batch reads a file: NAME=@FILE")))?;
        let setup = Setup::new(common, name, show, collect)?;
        let lines = input_line_file(path).map_err(usage)?;
        let expected: Option<Vec<(usize, String)>> = match expect {
            Some(p) => Some(input_line_file(&p.to_string_lossy()).map_err(usage)?),
            None => None,
        };
        if let Some(e) = expected.as_ref().filter(|e| e.len() < lines.len()) {
            return Err(usage(format!("--expect has {} lines for {} puzzles", e.len(), lines.len())));
        }
        // Expected lines are read as the input reads lines (numbers, either
        // case) and spelled in its alphabet, as the answers are read back.
        let canonical =
            |(n, l): (usize, String)| setup.def.canonical(&l).map_err(|m| usage(format!("--expect line {n}: {m}")));
        let expected = expected.map(|e| e.into_iter().map(canonical).collect::<Result<Vec<_>, _>>()).transpose()?;
        Ok(Plan { setup, lines, expected })
    }

    /// The workbook the puzzles run through.
    pub fn session(&self) -> &Session {
        &self.setup.base
    }

    /// Keeps `n` puzzles spread evenly over the file (all when there are
    /// no more than `n`), with their expected lines.
    pub fn sample(&mut self, n: usize) {
        let len = self.lines.len();
        if n >= len {
            return;
        }
        let picks: Vec<usize> = (0..n).map(|k| k * len / n).collect();
        self.lines = picks.iter().map(|&i| self.lines[i].clone()).collect();
        if let Some(e) = &mut self.expected {
            *e = picks.iter().map(|&i| e[i].clone()).collect();
        }
    }

    /// A line for each view that held error values after some of
    /// `outcomes`, as `batch`'s summary gives (empty when none did).
    pub fn view_lines(&self, outcomes: &[PuzzleOutcome]) -> String {
        let mut summary = Summary::default();
        outcomes.iter().for_each(|o| summary.add(None, o));
        summary.view_lines(&self.setup.base)
    }

    /// Runs every puzzle, in parallel (one thread per core); `bar` counts them.
    pub fn run(&self, bar: &ProgressBar) -> Vec<PuzzleOutcome> {
        let expected =
            self.expected.clone().map_or_else(|| vec![None; self.lines.len()], |e| e.into_iter().map(Some).collect());
        let puzzles = self
            .lines
            .clone()
            .into_iter()
            .zip(expected)
            .map(|((line, text), expected)| Ok(Puzzle { file: None, line, text, expected, with: Vec::new() }));
        let mut outcomes = Vec::with_capacity(self.lines.len());
        let each = |done: Vec<Done>| {
            bar.inc(done.len() as u64);
            outcomes.extend(done.into_iter().map(|(_, o)| o));
            Ok(())
        };
        // Reading memory never fails and collecting never stops the run.
        let _ = pool::stream(&self.setup.base, &self.setup.task, None, Box::new(puzzles), each);
        outcomes
    }
}

pub fn batch(
    common: &Options,
    show: &str,
    collect: &[String],
    expect: Option<&std::path::Path>,
    jobs: Option<usize>,
    format: BatchFormat,
) -> Result<(), Failure> {
    let found = sources::sources(&common.inputs, expect)?;
    let setup = Setup::new(common, &found.name, show, collect)?;
    for (input, _) in &found.companions {
        if setup.base.workbook().input(input).is_none() {
            return Err(Failure::usage(format!("no input named `{input}`")));
        }
    }
    let terminal = std::io::stderr().is_terminal();
    let total = sources::check(&found.sources, &setup.def, terminal)?;
    let bar = match (terminal, total) {
        (false, _) => ProgressBar::hidden(),
        (true, Some(n)) => ProgressBar::new(n as u64),
        (true, None) => ProgressBar::no_length(),
    };
    let template = match total {
        Some(_) => "{bar:40} {pos}/{len} puzzles, {per_sec}, eta {eta}",
        None => "{pos} puzzles, {per_sec}",
    };
    bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    let start = Instant::now();
    let mut summary = Summary::default();
    if format == BatchFormat::Csv {
        print(&csv_header(&setup.collect))?;
    }
    let each = |done: Vec<Done>| {
        bar.inc(done.len() as u64);
        let mut text = String::new();
        for (file, o) in &done {
            summary.add(file.as_ref(), o);
            match format {
                BatchFormat::Jsonl => text += &format!("{}\n", json_line(file.as_deref(), o, &setup)),
                BatchFormat::Csv => text += &csv_line(file.as_deref(), o, &setup),
                BatchFormat::Text => {}
            }
        }
        if text.is_empty() { Ok(()) } else { print(&text) }
    };
    let puzzles = sources::puzzles(found, setup.def.clone());
    let ran = pool::stream(&setup.base, &setup.task, jobs, puzzles, each);
    bar.finish_and_clear();
    ran?;
    let seconds = start.elapsed().as_secs_f64();
    match format {
        BatchFormat::Jsonl => warn(&summary.json(&setup.base, seconds).to_string()),
        BatchFormat::Csv => warn(&summary.text(&setup.collect, &setup.base, seconds)),
        BatchFormat::Text => print(&format!("{}\n", summary.text(&setup.collect, &setup.base, seconds)))?,
    }
    // Records that could not be run (a line the input refuses, an answer
    // outside the alphabet) make the exit code 1, so that a caller running
    // batches (Spark's `checkCode`, a shell's `set -e`) sees them.
    match summary.count(Status::Error) {
        0 => Ok(()),
        n => {
            Err(Failure::Partial(format!("{} could not be run (status error)", crate::app::plural(n as u64, "puzzle"))))
        }
    }
}

/// `--format csv`'s header row: the fixed columns, then each `--collect`,
/// the message, and the views holding error values.
fn csv_header(collect: &[Shown]) -> String {
    let mut fields: Vec<String> =
        ["file", "line", "status", "iterations", "period", "ms", "grid"].map(String::from).to_vec();
    fields.extend(collect.iter().map(|c| super::output::csv_text(&c.key)));
    fields.extend(["message", "view_errors"].map(String::from));
    format!("{}\n", fields.join(","))
}

/// One puzzle's CSV row, columns as [`csv_header`]'s (a collected value as
/// its cell shows it; blank, or nothing collected after an error, as an
/// empty field; the views holding error values as [`view_errors_field`]).
fn csv_line(file: Option<&str>, o: &PuzzleOutcome, setup: &Setup) -> String {
    let collected = setup.collect.len();
    let mut fields = vec![
        super::output::csv_text(file.unwrap_or("")),
        o.line.to_string(),
        o.status.as_str().to_string(),
        o.iterations.to_string(),
        o.period.map_or(String::new(), |p| p.to_string()),
        format!("{:.3}", o.ms),
        super::output::csv_text(&o.grid),
    ];
    let shown = |t: &String| if t == "(blank)" { String::new() } else { super::output::csv_text(t) };
    fields.extend((0..collected).map(|i| o.collected.get(i).map_or(String::new(), |(_, t)| shown(t))));
    fields.push(super::output::csv_text(o.message.as_deref().unwrap_or("")));
    fields.push(super::output::csv_text(&view_errors_field(o, &setup.base)));
    format!("{}\n", fields.join(","))
}

/// The views holding error values after a puzzle, for its CSV row:
/// `locked: 729 at Main!P34 #VALUE!` for each, separated by `; ` (empty
/// when none).
fn view_errors_field(o: &PuzzleOutcome, base: &Session) -> String {
    let views = &base.workbook().views;
    let name = |c| base.engine().program().cell_name(c);
    let each = o
        .view_errors
        .iter()
        .map(|(i, e)| format!("{}: {} at {} {}", views[*i].name, e.count, name(e.first), e.error.text()));
    each.collect::<Vec<_>>().join("; ")
}

/// The views holding error values after a puzzle, for its JSON line: one
/// object per view, `{"view", "count", "first", "error"}`.
fn view_errors_json(o: &PuzzleOutcome, base: &Session) -> serde_json::Value {
    let views = &base.workbook().views;
    let each = o.view_errors.iter().map(|(i, e)| {
        json!({"view": views[*i].name, "count": e.count, "first": base.engine().program().cell_name(e.first),
               "error": e.error.text()})
    });
    serde_json::Value::Array(each.collect())
}

/// One puzzle's JSON line (without its newline): `file` when the batch
/// reads several, `period` when it oscillated, the collected values under
/// `collected`, keyed as given, `message` for an error, and `view_errors`
/// when views hold error values (see [`view_errors_json`]).
fn json_line(file: Option<&str>, o: &PuzzleOutcome, setup: &Setup) -> serde_json::Value {
    let collect = &setup.collect;
    let mut obj =
        json!({"line": o.line, "status": o.status.as_str(), "iterations": o.iterations, "ms": o.ms, "grid": o.grid});
    if let Some(f) = file {
        obj["file"] = json!(f);
    }
    if let Some(p) = o.period {
        obj["period"] = json!(p);
    }
    if !collect.is_empty() && o.message.is_none() {
        let values = collect.iter().zip(&o.collected).map(|(c, (v, _))| (c.key.clone(), v.clone()));
        obj["collected"] = serde_json::Value::Object(values.collect());
    }
    if let Some(m) = &o.message {
        obj["message"] = json!(m);
    }
    if !o.view_errors.is_empty() {
        obj["view_errors"] = view_errors_json(o, &setup.base);
    }
    obj
}

/// A collected area as JSON (a cell's value, or the line read) and as
/// text (what the cell shows, blank as `(blank)`).
fn collected(c: &Collected) -> (serde_json::Value, String) {
    match c {
        Collected::Cell(v) => (value_json(v), cell_text(v, "(blank)")),
        Collected::Line(l) => (json!(l), l.clone()),
    }
}
