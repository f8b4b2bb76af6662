//! `batch`: runs every line of a puzzle file through a workbook, in
//! parallel (rayon, one engine per puzzle over one shared program, the
//! workbook parsed once), compares the shown view with the expected line,
//! and prints a summary or one JSON line per puzzle.

use super::BatchFormat;
use crate::app::{Failure, Options, apply_settings, input_line_file, print, resolve_area};
use dataflow::puzzle::{Status, classify, solve_one};
use dataflow::session::Session;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::json;
use std::io::IsTerminal;
use std::time::Instant;

/// One puzzle's result.
#[derive(Clone, Debug)]
pub struct PuzzleOutcome {
    pub line: usize,
    pub status: Status,
    pub iterations: u32,
    pub ms: f64,
    pub grid: String,
    pub message: Option<String>,
}

pub fn batch(
    common: &Options,
    show: &str,
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
            let res = solve_one(worker, name, line, &area, &def.alphabet, !common.no_reset);
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            bar.inc(1);
            match res {
                Ok((iterations, converged, grid)) => {
                    let exp = expected.as_ref().map(|e| e[i].as_str());
                    PuzzleOutcome {
                        line: *line_no,
                        status: classify(&grid, exp, converged),
                        iterations,
                        ms,
                        grid,
                        message: None,
                    }
                }
                Err(m) => PuzzleOutcome {
                    line: *line_no,
                    status: Status::Error,
                    iterations: 0,
                    ms,
                    grid: String::new(),
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
                if let Some(m) = &o.message {
                    obj["message"] = json!(m);
                }
                format!("{obj}\n")
            })
            .collect(),
        BatchFormat::Text => format!("{}\n", batch_summary(&outcomes, elapsed)),
    };
    print(&text)
}

/// The text summary: counts per status, iterations, throughput.
pub fn batch_summary(outcomes: &[PuzzleOutcome], seconds: f64) -> String {
    let count = |s| outcomes.iter().filter(|o| o.status == s).count();
    let mut its: Vec<u32> = outcomes.iter().map(|o| o.iterations).collect();
    its.sort_unstable();
    let median = its.get(its.len() / 2).copied().unwrap_or(0);
    let max = its.last().copied().unwrap_or(0);
    let mut out = format!(
        "puzzles: {}\nsolved: {}\nunsolved: {}\nwrong: {}\nnot converged: {}\nerrors: {}\niterations: median {median}, max {max}\ntime: {:.2} s, {:.0} puzzles/s",
        outcomes.len(),
        count(Status::Solved),
        count(Status::Unsolved),
        count(Status::Wrong),
        count(Status::NotConverged),
        count(Status::Error),
        seconds,
        outcomes.len() as f64 / seconds.max(1e-9)
    );
    for o in outcomes.iter().filter(|o| o.status == Status::Error).take(5) {
        out.push_str(&format!("\nline {}: {}", o.line, o.message.as_deref().unwrap_or("value outside the alphabet")));
    }
    out
}
