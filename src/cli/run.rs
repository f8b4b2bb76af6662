//! `run`, `check` and `eval`: prepare a session (see [`crate::app`]),
//! recalculate, and print. `run --trace`/`--trace-cell` observe the
//! recalculation and report each pass (see `trace.rs`); `run --state FILE`
//! starts from the values saved in FILE, when it exists, and saves them
//! back (see `dataflow::state`).

use super::output::{csv_output, json_output};
use super::trace::Tracer;
use super::{Format, RunArgs};
use crate::app::{self, Failure, Options, Shown, apply_sets, apply_settings, prepare, print, resolve_views, warn};
use dataflow::ast::{Expr, ExprKind};
use dataflow::diagnostic::Diagnostic;
use dataflow::engine::Report;
use dataflow::ids::FormulaId;
use dataflow::session::{ResetRun, Session};
use dataflow::state::State;
use dataflow::value::{Array, Value};
use std::path::Path;
use std::time::{Duration, Instant};

pub fn run(args: &RunArgs) -> Result<(), Failure> {
    let o = calculate(args)?;
    warn_circular(&o.session, &o.report);
    if let Some(note) = &o.state_note {
        warn(note);
    }
    let printed = match args.format {
        Format::Text => print(&text_output(&o)),
        Format::Json => print(&json_output(&o.session, &o.views, &o.report, o.elapsed)),
        Format::Csv => print(&csv_output(&o.session, &o.views)),
    };
    // Last, where a terminal shows it beside the status line.
    app::warn_view_errors(&o.session);
    printed
}

/// A finished `run`, ready to print.
pub struct Calculated {
    pub session: Session,
    pub reset: Option<ResetRun>,
    pub views: Vec<Shown>,
    pub report: Report,
    pub elapsed: Duration,
    /// What `--state` did, for stderr.
    pub state_note: Option<String>,
}

/// Everything `run` does but printing: prepares the session (fresh, or
/// from the `--state` file), recalculates (iteration by iteration when
/// tracing) and saves the state file.
pub fn calculate(args: &RunArgs) -> Result<Calculated, Failure> {
    let options = args.common.options();
    let (mut session, reset, before) = match &args.state {
        Some(path) => from_state(&options, path)?,
        None => {
            let p = prepare(&options)?;
            (p.session, p.reset, None)
        }
    };
    let views = resolve_views(&session, &args.show)?;
    let tracer = Tracer::new(&session, args)?;
    let start = Instant::now();
    let report = match tracer {
        Some(mut t) => session.engine_mut().recalc_with(&mut t),
        None => session.recalc(),
    };
    let elapsed = start.elapsed();
    let state_note = match &args.state {
        Some(path) => Some(save_state(&session, &args.common.workbook, path, before, report.iterations)?),
        None => None,
    };
    Ok(Calculated { session, reset, views, report, elapsed, state_note })
}

/// A state file problem: exit 1, with the way out.
fn state_failure(path: &Path, m: impl std::fmt::Display) -> Failure {
    Failure::Workbook(vec![Diagnostic::new(format!(
        "state file `{}`: {m}; delete the file to start over",
        path.display()
    ))])
}

/// Starts from the state file when it exists: the workbook is loaded, the
/// saved values replace its inputs and the reset protocol (neither is
/// applied), `--set` applies on top, and every formula is marked dirty.
/// Without the file: the usual fresh start. The last item is the number of
/// iterations saved so far, when the file existed.
fn from_state(args: &Options, path: &Path) -> Result<(Session, Option<ResetRun>, Option<u64>), Failure> {
    let Some(state) = State::read(path).map_err(|m| state_failure(path, m))? else {
        let p = prepare(args)?;
        return Ok((p.session, p.reset, None));
    };
    let mut session = app::load(&args.workbook, &args.with)?;
    apply_settings(&mut session, args)?;
    state.apply(&mut session).map_err(|m| state_failure(path, m))?;
    if !args.inputs.is_empty() || args.no_reset {
        warn(&format!(
            "warning: --input and --no-reset are ignored: the run continues from the values saved in `{}`",
            path.display()
        ));
    }
    apply_sets(&mut session, args)?;
    Ok((session, None, Some(state.iterations_total)))
}

fn save_state(
    session: &Session,
    workbook: &Path,
    path: &Path,
    before: Option<u64>,
    iterations: u32,
) -> Result<String, Failure> {
    // Saturates: a hand-edited count near 2^64 must not wrap (or panic).
    let total = before.unwrap_or(0).saturating_add(iterations as u64);
    let state = State::capture(session, &workbook.display().to_string(), total);
    state.save(path).map_err(|m| Failure::Workbook(vec![Diagnostic::new(m.to_string())]))?;
    let start = match before {
        Some(n) => format!("continued from `{}` ({} before this run)", path.display(), app::plural(n, "iteration")),
        None => format!("`{}` did not exist: started afresh", path.display()),
    };
    Ok(format!("state: {start}; saved ({} in all)", app::plural(total, "iteration")))
}

/// The text `run` prints for an outcome, for `watch`.
pub fn text_output(o: &Calculated) -> String {
    app::run_text(&o.session, &o.views, o.reset.as_ref(), &o.report, o.elapsed)
}

/// Excel's circular-reference warning, when iteration is off.
fn warn_circular(session: &Session, report: &Report) {
    let p = session.engine().program();
    for cycle in report.circular.iter().take(SHOWN_CYCLES) {
        let names: Vec<String> = cycle.iter().take(8).map(|c| p.cell_name(*c)).collect();
        let more = if cycle.len() > 8 { format!(" and {} more", cycle.len() - 8) } else { String::new() };
        warn(&format!(
            "warning: circular reference ({} cells: {}{more}); iteration is off, so these cells keep their last values",
            cycle.len(),
            names.join(", ")
        ));
    }
    if let Some(more) = report.circular.len().checked_sub(SHOWN_CYCLES).filter(|&n| n > 0) {
        warn(&format!("warning: ... and {more} more circular references"));
    }
    if !report.unsettled.is_empty() {
        let names: Vec<String> = report.unsettled.iter().take(8).map(|c| p.cell_name(*c)).collect();
        let more = if report.unsettled.len() > 8 {
            format!(" and {} more", report.unsettled.len() - 8)
        } else {
            String::new()
        };
        warn(&format!(
            "warning: circular reference through a spill or a run-time reference ({}{more}): these cells feed themselves; they hold what the last calculation gave",
            names.join(", ")
        ));
    }
}

/// Cycles listed by `check` and by the circular-reference warning; the
/// rest are counted.
const SHOWN_CYCLES: usize = 100;

/// `check`: the workbook's problems, parts and cycles; with `run`, then
/// one run as `run` does it (see [`check_run`]).
pub fn check(path: &Path, with: &[String], run: bool) -> Result<(), Failure> {
    // A check that does not run builds no fast path for calculating.
    let session = match run {
        true => app::load(path, with)?,
        false => app::load_checking(path, with)?,
    };
    app::warn_passed_over(&session, usize::MAX);
    let p = session.engine().program();
    let mut text = format!(
        "{}: {} sheets, {} names, {} formula cells, {} constants\n",
        path.display(),
        p.scope().sheets.len(),
        p.scope().names.len(),
        p.cells().len(),
        p.constants().len()
    );
    text += &parts_text(&session.workbook().parts);
    let passed = dataflow::diagnostic::problem_count(session.warnings());
    if passed > 0 {
        text += &format!(
            "{} passed over as Excel does (listed above): their cells show #NAME? or the error Excel shows\n",
            app::plural(passed as u64, "problem")
        );
    }
    let cycles: Vec<&[FormulaId]> = p.cycles().collect();
    if cycles.is_empty() {
        text += "no circular references\n";
    }
    for (i, c) in cycles.iter().enumerate().take(SHOWN_CYCLES) {
        let names: Vec<String> = c.iter().take(8).map(|&f| p.cell_name(p.cell(f).addr)).collect();
        let more = if c.len() > 8 { format!(", ... ({} more)", c.len() - 8) } else { String::new() };
        text += &format!("cycle {}: {} cells: {}{more}\n", i + 1, c.len(), names.join(", "));
    }
    if cycles.len() > SHOWN_CYCLES {
        text += &format!("... and {} more\n", cycles.len() - SHOWN_CYCLES);
    }
    if !session.workbook().calc.iterate && !cycles.is_empty() {
        text += "iteration is off: these cells will not be calculated (set calc.iterate: true)\n";
    }
    let session = match run {
        true => check_run(session, path, with, &mut text)?,
        false => session,
    };
    // The process ends here: freeing the program cell by cell would only cost time.
    std::mem::forget(session);
    print(&text)
}

/// `check --run`: the loaded workbook run once with its own inputs and
/// reset protocol, as `run` runs it: the reset and status lines appended to
/// `text`, with how many views hold error values, each of which is warned
/// about on stderr as `run` does. The exit code stays 0: a view holding
/// errors is the formulas' outcome, not a problem loading them.
fn check_run(session: Session, path: &Path, with: &[String], text: &mut String) -> Result<Session, Failure> {
    let options = Options { workbook: path.to_path_buf(), with: with.to_vec(), ..Options::default() };
    let mut p = app::prepare_loaded(session, &options)?;
    let start = Instant::now();
    let report = p.session.recalc();
    let elapsed = start.elapsed();
    *text += "run with the workbook's inputs:\n";
    *text += &app::run_text(&p.session, &[], p.reset.as_ref(), &report, elapsed);
    *text += &match app::view_errors(&p.session).len() {
        0 => "no view holds an error value\n".to_string(),
        n => format!("{} holding error values (see the warnings)\n", app::plural(n as u64, "view")),
    };
    app::warn_view_errors(&p.session);
    Ok(p.session)
}

/// The optional parts `check` lists, each with whether it is on.
fn parts_text(parts: &[dataflow::workbook::Part]) -> String {
    if parts.is_empty() {
        return String::new();
    }
    let width = parts.iter().map(|p| p.name.chars().count()).max().unwrap_or(0);
    let mut text = "parts (turn on with --with PART[,PART...] or --with all):\n".to_string();
    for p in parts {
        let on = if p.on { "on " } else { "off" };
        let rank = p.rank.map_or_else(String::new, |r| format!(" (rank {r})"));
        text += &format!("  {on} {:width$}  {}{rank}\n", p.name, p.about);
    }
    text
}

/// An array as Excel's F9 writes it: `{1,2;3,4}`, `,` between columns and
/// `;` between rows, text quoted (`""` inside), an empty cell as 0.
pub(super) fn f9_text(a: &Array) -> String {
    let rows: Vec<Vec<Value>> = a
        .values()
        .chunks(a.cols.max(1))
        .map(|r| r.iter().map(|v| if v.is_empty() { Value::Number(0.0) } else { v.clone() }).collect())
        .collect();
    Expr::new(ExprKind::Array(rows), 0..0).to_string()
}
