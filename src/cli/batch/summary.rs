//! `batch`'s summary, counted as the puzzles finish, in memory that does
//! not grow with their number: puzzles per status, a histogram of the
//! iterations (for the median and maximum), each collected single cell's
//! values with their counts, the first errors, the puzzles after which
//! each view held error values (with the first of them). Written as text (the
//! `--format text` output) or as one JSON object (the last line on stderr
//! with `--format jsonl`).

use super::PuzzleOutcome;
use crate::app::Shown;
use dataflow::puzzle::Status;
use dataflow::session::{AreaErrors, Session};
use serde_json::json;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Errors listed by line in the text summary; the rest are counted with the others.
const LISTED_ERRORS: usize = 5;

/// The values shown in a summary line at most; the rest are counted.
const SUMMARY_VALUES: usize = 10;

/// Distinct values kept per collected area; a puzzle ending with yet
/// another value is only counted, so a collected area whose value differs
/// for every puzzle (a history line) cannot grow the summary without end.
const KEPT_VALUES: usize = 4096;

/// The counts so far.
#[derive(Default)]
pub struct Summary {
    puzzles: usize,
    /// Indexed by `Status as usize`.
    statuses: [usize; Status::ALL.len()],
    /// Iterations -> puzzles.
    iterations: BTreeMap<u32, usize>,
    /// Per collected area, its shown values with how many puzzles ended with each.
    values: Vec<HashMap<String, usize>>,
    /// The first errors: `line N: message`.
    errors: Vec<String>,
    /// Per view of the workbook (by index), the puzzles after which it
    /// held error values, and the first of them (`line N` or `FILE line N`).
    view_errors: Vec<(usize, Option<(String, AreaErrors)>)>,
}

impl Summary {
    /// Counts one finished puzzle (from `file`, when the batch names files).
    pub fn add(&mut self, file: Option<&Arc<str>>, o: &PuzzleOutcome) {
        self.puzzles += 1;
        self.statuses[o.status as usize] += 1;
        *self.iterations.entry(o.iterations).or_default() += 1;
        self.values.resize_with(self.values.len().max(o.collected.len()), HashMap::new);
        for (counts, (_, text)) in self.values.iter_mut().zip(&o.collected) {
            if let Some(n) = counts.get_mut(text) {
                *n += 1;
            } else if counts.len() < KEPT_VALUES {
                counts.insert(text.clone(), 1);
            } else {
                *counts.entry(OTHER.to_string()).or_default() += 1;
            }
        }
        let at = || format!("{}line {}", file.map(|f| format!("{f} ")).unwrap_or_default(), o.line);
        for (i, e) in &o.view_errors {
            if self.view_errors.len() <= *i {
                self.view_errors.resize(i + 1, (0, None));
            }
            let (count, first) = &mut self.view_errors[*i];
            *count += 1;
            first.get_or_insert_with(|| (at(), *e));
        }
        if o.status == Status::Error && self.errors.len() < LISTED_ERRORS {
            let file = file.map(|f| format!("{f} ")).unwrap_or_default();
            let message = o.message.as_deref().unwrap_or("value outside the alphabet");
            self.errors.push(format!("{file}line {}: {message}", o.line));
        }
    }

    pub(super) fn count(&self, s: Status) -> usize {
        self.statuses[s as usize]
    }

    /// The median and the maximum of the iterations (0 without puzzles).
    fn iterations(&self) -> (u32, u32) {
        let mut seen = 0;
        let median = self.iterations.iter().find_map(|(&its, &n)| {
            seen += n;
            (seen > self.puzzles / 2).then_some(its)
        });
        (median.unwrap_or(0), self.iterations.keys().last().copied().unwrap_or(0))
    }

    /// The views of `base` that held error values, with the puzzles after which each did.
    fn views<'a>(&'a self, base: &'a Session) -> impl Iterator<Item = (&'a str, usize, &'a (String, AreaErrors))> {
        let views = &base.workbook().views;
        self.view_errors
            .iter()
            .enumerate()
            .filter_map(|(i, (n, first))| Some((views[i].name.as_str(), *n, first.as_ref()?)))
    }

    /// The text summary: counts per status (filled only when some were),
    /// iterations, the collected single cells' values with their counts,
    /// the views of `base` that held error values (a line each, only when
    /// some did), throughput, the first errors.
    pub fn text(&self, collect: &[Shown], base: &Session, seconds: f64) -> String {
        let (median, max) = self.iterations();
        let mut out = format!(
            "puzzles: {}\nsolved: {}\nunsolved: {}\nwrong: {}\nnot converged: {}\noscillating: {}\nerrors: {}\niterations: median {median}, max {max}\n",
            self.puzzles,
            self.count(Status::Solved),
            self.count(Status::Unsolved),
            self.count(Status::Wrong),
            self.count(Status::NotConverged),
            self.count(Status::Oscillating),
            self.count(Status::Error),
        );
        // Only when some were: a workbook that declares a check never has any.
        if self.count(Status::Filled) > 0 {
            out += &format!("filled, nothing checks them: {}\n", self.count(Status::Filled));
        }
        let empty = HashMap::new();
        for (i, c) in collect.iter().enumerate().filter(|(_, c)| c.area.is_cell()) {
            out += &format!("{}: {}\n", c.key, value_counts(self.values.get(i).unwrap_or(&empty)));
        }
        out += &self.view_lines(base);
        out += &format!("time: {seconds:.2} s, {:.0} puzzles/s", self.puzzles as f64 / seconds.max(1e-9));
        for e in &self.errors {
            out += &format!("\n{e}");
        }
        out
    }

    /// A line for each view of `base` that held error values after some
    /// puzzles: how many, and the first (empty when none did).
    pub fn view_lines(&self, base: &Session) -> String {
        let mut out = String::new();
        for (view, n, (at, e)) in self.views(base) {
            out += &format!(
                "view `{view}` held error values after {} (first {at}: {} cells, first {}: {})\n",
                crate::app::plural(n as u64, "puzzle"),
                e.count,
                base.engine().program().cell_name(e.first),
                e.error.text()
            );
        }
        out
    }

    /// The summary as one JSON object: `{"summary":{"puzzles":…,"solved":…,…}}`;
    /// `view_errors` maps each view of `base` that held error values to the
    /// number of puzzles after which it did (`{}` when none did).
    pub fn json(&self, base: &Session, seconds: f64) -> serde_json::Value {
        let views: serde_json::Map<String, serde_json::Value> =
            self.views(base).map(|(v, n, _)| (v.to_string(), json!(n))).collect();
        json!({"summary": {
            "puzzles": self.puzzles,
            "solved": self.count(Status::Solved),
            "unsolved": self.count(Status::Unsolved),
            "wrong": self.count(Status::Wrong),
            "not_converged": self.count(Status::NotConverged),
            "oscillating": self.count(Status::Oscillating),
            "errors": self.count(Status::Error),
            "filled": self.count(Status::Filled),
            "seconds": seconds,
            "puzzles_per_s": self.puzzles as f64 / seconds.max(1e-9),
            "view_errors": views,
        }})
    }
}

/// Where the puzzles ending with a value past [`KEPT_VALUES`] are counted,
/// shown as `(other values)` (a key starting with a control character, so
/// no ordinary shown value collides with it).
const OTHER: &str = "\u{1}other values";

/// `solved 40, Give UP 10`: each distinct value with how many puzzles
/// ended with it, the most frequent first (then by text); past [`SUMMARY_VALUES`] values, how many more there are.
fn value_counts(counts: &HashMap<String, usize>) -> String {
    let mut counts: Vec<(&str, usize)> = counts.iter().map(|(v, &n)| (v.as_str(), n)).collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let shown = |v: &str| if v == OTHER { "(other values)".to_string() } else { v.to_string() };
    let mut parts: Vec<String> = counts.iter().take(SUMMARY_VALUES).map(|(v, n)| format!("{} {n}", shown(v))).collect();
    if counts.len() > SUMMARY_VALUES {
        parts.push(format!("... ({} more values)", counts.len() - SUMMARY_VALUES));
    }
    parts.join(", ")
}
