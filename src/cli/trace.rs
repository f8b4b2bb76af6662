//! `run --trace` and `run --trace-cell CELL`: the recalculation made one
//! iteration at a time, with a report after each of what changed.
//!
//! `--trace` prints, per iteration, a summary grouped by the workbook's
//! views (cells outside every view are grouped as "other"), then one line
//! per changed cell:
//!
//! ```text
//! iteration 3: solution: F18 ← 7; candidates: 41 eliminated in P22:R24 (all were 7)
//!   Main!F18: "" → 7
//! ```
//!
//! Within a view, cells that got a value are listed as `CELL ← value` (the
//! first ten, then "and N more"), cells that went blank are counted as
//! eliminated with the area they lie in (and their old value when they all
//! had the same), and any other change is shown as `CELL: old → new`.
//! `--trace-cell` (repeatable; a cell or a range) follows cells instead: a
//! single cell is printed every iteration (`iteration 3: Main!F18 = 7 (was
//! "")`), a range as the summary of its changes followed by the change lines.
//! Text is quoted (`""` is the empty text), `empty` is a never-set cell.

use super::RunArgs;
use crate::app::Failure;
use dataflow::address::Area;
use dataflow::engine::{Change, ChangeLog, Engine, Flow, Observer, PassInfo, Program};
use dataflow::session::Session;
use dataflow::value::Value;
use std::io::Write;

/// How many cells a summary names before "and N more".
const LISTED: usize = 10;

/// Where the trace goes and what it follows.
pub struct Tracer {
    log: ChangeLog,
    out: Box<dyn Write>,
    all: bool,
    follow: Vec<(String, Area)>,
    views: Vec<(String, Area)>,
}

impl Tracer {
    /// A tracer for `--trace`/`--trace-cell`, or None when neither was given.
    pub fn new(session: &Session, args: &RunArgs) -> Result<Option<Tracer>, Failure> {
        if !args.trace && args.trace_cells.is_empty() {
            if args.trace_file.is_some() {
                return Err(Failure::Usage("--trace-file needs --trace or --trace-cell".into()));
            }
            return Ok(None);
        }
        let follow = args
            .trace_cells
            .iter()
            .map(|t| {
                let area = session.area(t).map_err(|m| Failure::Usage(format!("--trace-cell `{t}`: {m}")))?;
                Ok((area_name(session.engine().program(), &area), area))
            })
            .collect::<Result<Vec<_>, Failure>>()?;
        let out: Box<dyn Write> = match &args.trace_file {
            None => Box::new(std::io::stderr()),
            Some(p) => {
                crate::app::refuse_own_file(session, "--trace-file", p)?;
                let file = std::fs::File::create(p)
                    .map_err(|e| Failure::Usage(format!("--trace-file `{}`: cannot create it: {e}", p.display())))?;
                Box::new(std::io::BufWriter::new(file))
            }
        };
        let views = session.workbook().views.iter().map(|v| (v.name.clone(), v.area)).collect();
        Ok(Some(Tracer { log: ChangeLog::default(), out, all: args.trace, follow, views }))
    }

    /// Reports one iteration (`n` from 1; 0 for a workbook without cycles,
    /// calculated in one pass), given the engine after it and its changes.
    fn iteration(&mut self, n: u32, after: &Engine, all: &[Change]) {
        let p = after.program();
        let label = if n == 0 { "calculation".to_string() } else { format!("iteration {n}") };
        let mut text = String::new();
        if self.all {
            text += &format!("{label}: {}\n", changes_summary(p, all, &self.views));
            for c in all {
                text += &format!("  {}: {} → {}\n", p.cell_name(c.cell), trace_value(&c.old), trace_value(&c.new));
            }
        }
        for (name, area) in &self.follow {
            if area.is_cell() {
                let new = after.get(area.top_left());
                let old = all.iter().find(|c| c.cell == area.top_left()).map_or(new, |c| &c.old);
                let was = if old == new { "unchanged".to_string() } else { format!("was {}", trace_value(old)) };
                text += &format!("{label}: {name} = {} ({was})\n", trace_value(new));
            } else {
                let inside: Vec<Change> = all.iter().filter(|c| area.contains(c.cell)).cloned().collect();
                let groups = [(name.clone(), *area)];
                if inside.is_empty() {
                    text += &format!("{label}: {name}: no changes\n");
                } else {
                    text += &format!("{label}: {}\n", changes_summary(p, &inside, &groups));
                }
                for c in &inside {
                    text += &format!("  {}: {} → {}\n", p.cell_name(c.cell), trace_value(&c.old), trace_value(&c.new));
                }
            }
        }
        // A trace that cannot be written (a closed pipe) is not worth failing the run.
        let _ = self.out.write_all(text.as_bytes()).and_then(|_| self.out.flush());
    }
}

/// The trace follows the recalculation: each pass is reported as it ends.
impl Observer for Tracer {
    fn write(&mut self, cell: dataflow::address::CellAddr, old: &Value, new: &Value) {
        self.log.record(cell, old, new);
    }

    fn pass(&mut self, engine: &Engine, pass: &PassInfo) -> Flow {
        let changes = self.log.take();
        self.iteration(pass.iteration, engine, &changes);
        Flow::Continue
    }
}

/// One line for a set of changes, grouped by `groups` (named areas; a cell
/// goes to the first that contains it) and then "other":
/// `solution: F18 ← 7; candidates: 41 eliminated in P22:R24 (all were 7)`.
pub fn changes_summary(p: &Program, changes: &[Change], groups: &[(String, Area)]) -> String {
    if changes.is_empty() {
        return "no changes".into();
    }
    let mut buckets: Vec<Vec<&Change>> = vec![Vec::new(); groups.len() + 1];
    for c in changes {
        let i = groups.iter().position(|(_, a)| a.contains(c.cell)).unwrap_or(groups.len());
        buckets[i].push(c);
    }
    let mut parts = Vec::new();
    for (i, bucket) in buckets.iter().enumerate() {
        if bucket.is_empty() {
            continue;
        }
        let (name, local) = match groups.get(i) {
            Some((name, _)) => (name.as_str(), true),
            None => ("other", false),
        };
        parts.push(format!("{name}: {}", group_summary(p, bucket, local)));
    }
    parts.join("; ")
}

/// The changes of one group: values gained, eliminations, other changes.
fn group_summary(p: &Program, changes: &[&Change], local: bool) -> String {
    let cell = |c: &Change| if local { Area::cell(c.cell).to_string() } else { p.cell_name(c.cell) };
    let gained = |c: &Change| c.filled();
    let filled: Vec<String> =
        changes.iter().filter(|c| gained(c)).map(|c| format!("{} ← {}", cell(c), trace_value(&c.new))).collect();
    let blanked: Vec<&&Change> = changes.iter().filter(|c| c.blanked()).collect();
    let other: Vec<String> = changes
        .iter()
        .filter(|c| !c.blanked() && !gained(c))
        .map(|c| format!("{}: {} → {}", cell(c), trace_value(&c.old), trace_value(&c.new)))
        .collect();
    let mut parts = Vec::new();
    if !filled.is_empty() {
        parts.push(listed(&filled));
    }
    if let Some(first) = blanked.first() {
        let bounds = blanked.iter().fold(Area::cell(first.cell), |a, c| a.union(&Area::cell(c.cell)).unwrap_or(a));
        let at = if local { bounds.to_string() } else { area_name(p, &bounds) };
        let same = blanked.iter().all(|c| c.old == first.old);
        parts.push(match (blanked.len(), same) {
            (1, _) => format!("{at} eliminated (was {})", trace_value(&first.old)),
            (n, true) => format!("{n} eliminated in {at} (all were {})", trace_value(&first.old)),
            (n, false) => format!("{n} eliminated in {at}"),
        });
    }
    if !other.is_empty() {
        parts.push(listed(&other));
    }
    parts.join(", ")
}

/// The first [`LISTED`] items, then "and N more".
fn listed(items: &[String]) -> String {
    let mut text = items.iter().take(LISTED).cloned().collect::<Vec<_>>().join(", ");
    if items.len() > LISTED {
        text += &format!(" and {} more", items.len() - LISTED);
    }
    text
}

/// `Main!F18` or `Main!P4:AP30`.
fn area_name(p: &Program, a: &Area) -> String {
    p.scope().sheets.area(*a)
}

/// A value in a trace: text quoted (quotes doubled, as in formulas), a
/// never-set cell as `empty`, anything else as the cell shows it.
pub fn trace_value(v: &Value) -> String {
    match v {
        Value::Empty => "empty".into(),
        Value::Text(t) => format!("\"{}\"", t.replace('"', "\"\"")),
        v => v.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dataflow::address::CellAddr;
    use dataflow::engine::Inputs;

    fn change(r: u32, c: u32, old: Value, new: Value) -> Change {
        Change { cell: CellAddr::new(0, r, c), old, new }
    }

    #[test]
    fn summaries_group_by_view() {
        let p = Program::build(&Inputs { sheets: vec!["Main".to_string()].into(), ..Inputs::default() }).0;
        let views = vec![
            ("solution".to_string(), Area::new(0, 15, 3, 23, 11)),
            ("candidates".to_string(), Area::new(0, 3, 15, 29, 41)),
        ];
        let seven = || Value::Number(7.0);
        let mut list = vec![change(17, 5, Value::text(""), seven())];
        for r in 21..24 {
            for c in 15..18 {
                list.push(change(r, c, seven(), Value::text("")));
            }
        }
        list.push(change(0, 0, Value::Empty, Value::text("x\"y")));
        list.push(change(16, 4, Value::Number(1.0), Value::Number(2.0)));
        assert_eq!(
            changes_summary(&p, &list, &views),
            "solution: F18 ← 7, E17: 1 → 2; candidates: 9 eliminated in P22:R24 (all were 7); \
             other: Main!A1 ← \"x\"\"y\""
        );
        let many: Vec<Change> = (0..12).map(|c| change(0, c, Value::Empty, Value::Number(1.0))).collect();
        assert!(changes_summary(&p, &many, &[]).ends_with("Main!J1 ← 1 and 2 more"));
        assert_eq!(changes_summary(&p, &list[1..2], &views), "candidates: P22 eliminated (was 7)");
        assert_eq!(changes_summary(&p, &[], &views), "no changes");
    }
}
