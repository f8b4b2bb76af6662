//! `batch`: runs every line of a puzzle file through a workbook, in
//! parallel (rayon, one engine per puzzle over one shared program, the
//! workbook parsed once), compares the shown view with the expected line,
//! and prints a summary or one JSON line per puzzle. `--collect` reads more
//! views or cells per puzzle (a status cell, a history), into each JSON
//! line and, for single cells, into the summary as counts per value.

use super::BatchFormat;
use super::output::value_json;
use crate::app::{Failure, Options, Shown, apply_settings, input_line_file, print, resolve_area, resolve_key};
use dataflow::address::Area;
use dataflow::puzzle::{Collected, Status, solve};
use dataflow::render::cell_text;
use dataflow::session::Session;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::json;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::time::Instant;

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
}

/// A batch ready to run: the workbook loaded once (with its parts and
/// settings), the puzzle lines, what to read back and what to expect.
pub struct Plan {
    base: Session,
    /// The input the puzzles fill.
    input: String,
    alphabet: String,
    /// Each puzzle with its 1-based line number.
    pub lines: Vec<(usize, String)>,
    area: Area,
    collect: Vec<Shown>,
    /// Line i is the expected result of puzzle i.
    expected: Option<Vec<String>>,
    reset: bool,
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
        let mut base = crate::app::load(&common.workbook, &common.with)?;
        apply_settings(&mut base, common)?;
        let (name, spec) =
            input.split_once('=').ok_or_else(|| usage(format!("--input `{input}`: expected NAME=@FILE")))?;
        let path = spec
            .strip_prefix('@')
            .ok_or_else(|| usage(format!("--input `{input}`: batch reads a file: NAME=@FILE")))?;
        let lines = input_line_file(path).map_err(usage)?;
        let def = match (name, base.workbook().inputs.as_slice()) {
            // No name: the workbook's only input.
            ("", [only]) => only.clone(),
            ("", all) => return Err(usage(format!("the workbook has {} inputs, not one", all.len()))),
            _ => base.workbook().input(name).ok_or_else(|| usage(format!("no input named `{name}`")))?.clone(),
        };
        let area = resolve_area(&base, show).map_err(|m| usage(format!("--show `{show}`: {m}")))?;
        let collect: Vec<Shown> =
            collect.iter().map(|k| resolve_key(&base, "--collect", k)).collect::<Result<_, _>>()?;
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
            |(n, l): (usize, String)| def.canonical(&l).map_err(|m| usage(format!("--expect line {n}: {m}")));
        let expected = expected.map(|e| e.into_iter().map(canonical).collect::<Result<Vec<_>, _>>()).transpose()?;
        let (input, alphabet, reset) = (def.name, def.alphabet, !common.no_reset);
        Ok(Plan { base, input, alphabet, lines, area, collect, expected, reset })
    }

    /// The workbook the puzzles run through.
    pub fn session(&self) -> &Session {
        &self.base
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

    /// Runs every puzzle, in parallel; `bar` counts them.
    pub fn run(&self, bar: &ProgressBar) -> Vec<PuzzleOutcome> {
        // One detached copy of the program per worker thread, made on that
        // thread so its allocations sit in the thread's own memory (copies
        // made side by side would share cache lines, and every reference
        // count a worker bumps would bounce between cores). rayon's
        // map_init would make one per split, many more than threads.
        let workers: Vec<Session> = rayon::broadcast(|_| self.base.detached());
        let areas: Vec<Area> = self.collect.iter().map(|c| c.area).collect();
        self.lines
            .par_iter()
            .enumerate()
            .map(|(i, (line_no, line))| {
                let worker = &workers[rayon::current_thread_index().unwrap_or(0) % workers.len()];
                let t = Instant::now();
                let res = solve(worker, &self.input, line, &self.area, &self.alphabet, self.reset, &areas);
                let ms = t.elapsed().as_secs_f64() * 1000.0;
                bar.inc(1);
                let expected = self.expected.as_ref().map(|e| e[i].as_str());
                outcome(*line_no, res, expected, ms)
            })
            .collect()
    }
}

/// One puzzle's outcome from what `solve` gave.
fn outcome(
    line: usize,
    res: Result<dataflow::puzzle::Solved, String>,
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
            collected: solved.collected.iter().map(collected).collect(),
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
            message: Some(m),
        },
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
    let [input] = common.inputs.as_slice() else {
        return Err(Failure::usage("batch takes exactly one --input NAME=@FILE"));
    };
    let plan = Plan::new(common, input, show, collect, expect)?;
    if let Some(j) = jobs {
        rayon::ThreadPoolBuilder::new().num_threads(j.max(1)).build_global().ok();
    }
    let bar =
        if std::io::stderr().is_terminal() { ProgressBar::new(plan.lines.len() as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    let outcomes = plan.run(&bar);
    bar.finish_and_clear();
    let elapsed = start.elapsed().as_secs_f64();
    let collect = &plan.collect;
    let text = match format {
        BatchFormat::Jsonl => outcomes
            .iter()
            .map(|o| {
                let mut obj = json!({"line": o.line, "status": o.status.as_str(), "iterations": o.iterations, "ms": o.ms, "grid": o.grid});
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
                format!("{obj}\n")
            })
            .collect(),
        BatchFormat::Text => format!("{}\n", batch_summary(&outcomes, collect, elapsed)),
    };
    print(&text)
}

/// A collected area as JSON (a cell's value, or the line read) and as
/// text (what the cell shows, blank as `(blank)`).
fn collected(c: &Collected) -> (serde_json::Value, String) {
    match c {
        Collected::Cell(v) => (value_json(v), cell_text(v, "(blank)")),
        Collected::Line(l) => (json!(l), l.clone()),
    }
}

/// The text summary: counts per status, iterations, the collected single
/// cells' values with their counts, throughput.
fn batch_summary(outcomes: &[PuzzleOutcome], collect: &[Shown], seconds: f64) -> String {
    let count = |s| outcomes.iter().filter(|o| o.status == s).count();
    let mut its: Vec<u32> = outcomes.iter().map(|o| o.iterations).collect();
    its.sort_unstable();
    let median = its.get(its.len() / 2).copied().unwrap_or(0);
    let max = its.last().copied().unwrap_or(0);
    let mut out = format!(
        "puzzles: {}\nsolved: {}\nunsolved: {}\nwrong: {}\nnot converged: {}\noscillating: {}\nerrors: {}\niterations: median {median}, max {max}\n",
        outcomes.len(),
        count(Status::Solved),
        count(Status::Unsolved),
        count(Status::Wrong),
        count(Status::NotConverged),
        count(Status::Oscillating),
        count(Status::Error),
    );
    for (i, c) in collect.iter().enumerate().filter(|(_, c)| c.area.is_cell()) {
        let values = outcomes.iter().filter_map(|o| o.collected.get(i).map(|(_, t)| t.as_str()));
        out += &format!("{}: {}\n", c.key, value_counts(values));
    }
    out += &format!("time: {seconds:.2} s, {:.0} puzzles/s", outcomes.len() as f64 / seconds.max(1e-9));
    for o in outcomes.iter().filter(|o| o.status == Status::Error).take(5) {
        out.push_str(&format!("\nline {}: {}", o.line, o.message.as_deref().unwrap_or("value outside the alphabet")));
    }
    out
}

/// The values shown in a summary line at most; the rest are counted.
const SUMMARY_VALUES: usize = 10;

/// `solved 40, Give UP 10`: each distinct value with how many puzzles
/// ended with it, the most frequent first (then by text); past [`SUMMARY_VALUES`] values, how many more there are.
fn value_counts<'v>(values: impl Iterator<Item = &'v str>) -> String {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for v in values {
        *counts.entry(v).or_default() += 1;
    }
    let mut counts: Vec<(&str, usize)> = counts.into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let mut parts: Vec<String> = counts.iter().take(SUMMARY_VALUES).map(|(v, n)| format!("{v} {n}")).collect();
    if counts.len() > SUMMARY_VALUES {
        parts.push(format!("... ({} more values)", counts.len() - SUMMARY_VALUES));
    }
    parts.join(", ")
}
