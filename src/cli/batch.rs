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

pub fn batch(
    common: &Options,
    show: &str,
    collect: &[String],
    expect: Option<&std::path::Path>,
    jobs: Option<usize>,
    format: BatchFormat,
) -> Result<(), Failure> {
    let usage = Failure::Usage;
    let mut base = crate::app::load(&common.workbook, &common.with)?;
    apply_settings(&mut base, common)?;
    let [input] = common.inputs.as_slice() else {
        return Err(usage("batch takes exactly one --input NAME=@FILE".into()));
    };
    let (name, spec) = input.split_once('=').ok_or_else(|| usage(format!("--input `{input}`: expected NAME=@FILE")))?;
    let path =
        spec.strip_prefix('@').ok_or_else(|| usage(format!("--input `{input}`: batch reads a file: NAME=@FILE")))?;
    let lines = input_line_file(path).map_err(usage)?;
    let def = base.workbook().input(name).ok_or_else(|| usage(format!("no input named `{name}`")))?.clone();
    let area = resolve_area(&base, show).map_err(|m| usage(format!("--show `{show}`: {m}")))?;
    let collect: Vec<Shown> = collect.iter().map(|k| resolve_key(&base, "--collect", k)).collect::<Result<_, _>>()?;
    let areas: Vec<Area> = collect.iter().map(|c| c.area).collect();
    let expected: Option<Vec<String>> = match expect {
        Some(p) => Some(input_line_file(&p.to_string_lossy()).map_err(usage)?.into_iter().map(|(_, l)| l).collect()),
        None => None,
    };
    if let Some(e) = expected.as_ref().filter(|e| e.len() < lines.len()) {
        return Err(usage(format!("--expect has {} lines for {} puzzles", e.len(), lines.len())));
    }
    if let Some(j) = jobs {
        rayon::ThreadPoolBuilder::new().num_threads(j.max(1)).build_global().ok();
    }
    let bar =
        if std::io::stderr().is_terminal() { ProgressBar::new(lines.len() as u64) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    // One detached copy of the program per worker thread, made on that
    // thread so its allocations sit in the thread's own memory (copies made
    // side by side would share cache lines, and every reference count a
    // worker bumps would bounce between cores). rayon's map_init would make
    // one per split, many more than threads.
    let workers: Vec<Session> = rayon::broadcast(|_| base.detached());
    let outcomes: Vec<PuzzleOutcome> = lines
        .par_iter()
        .enumerate()
        .map(|(i, (line_no, line))| {
            let worker = &workers[rayon::current_thread_index().unwrap_or(0) % workers.len()];
            let t = Instant::now();
            let res = solve(worker, name, line, &area, &def.alphabet, !common.no_reset, &areas);
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            bar.inc(1);
            match res {
                Ok(solved) => PuzzleOutcome {
                    line: *line_no,
                    status: solved.status(expected.as_ref().map(|e| e[i].as_str())),
                    iterations: solved.report.iterations,
                    period: solved.report.period,
                    ms,
                    collected: solved.collected.iter().map(collected).collect(),
                    grid: solved.grid,
                    message: None,
                },
                Err(m) => PuzzleOutcome {
                    line: *line_no,
                    status: Status::Error,
                    iterations: 0,
                    period: None,
                    ms,
                    grid: String::new(),
                    collected: Vec::new(),
                    message: Some(m),
                },
            }
        })
        .collect();
    bar.finish_and_clear();
    let elapsed = start.elapsed().as_secs_f64();
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
        BatchFormat::Text => format!("{}\n", batch_summary(&outcomes, &collect, elapsed)),
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
