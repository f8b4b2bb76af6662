//! `run`, `check` and `eval`: load a workbook, fill inputs, apply the reset
//! protocol, recalculate, and print. `run --trace`/`--trace-cell` iterate
//! one pass at a time and report each (see `trace.rs`); `run --state FILE`
//! starts from the values saved in FILE, when it exists, and saves them
//! back (see `crate::state`).

use super::output::{Shown, print_json, text};
use super::trace::Tracer;
use super::{CommonArgs, Failure, Format, RunArgs};
use crate::address::Area;
use crate::diagnostic::Diagnostic;
use crate::engine::Report;
use crate::eval::Eval;
use crate::eval::bind::Binder;
use crate::parse::parse_formula;
use crate::render::Layout;
use crate::session::{ResetRun, Session};
use crate::state::State;
use crate::workbook::parse_input_value;
use std::path::Path;
use std::time::{Duration, Instant};

/// A session with inputs filled and the reset protocol applied, ready to iterate.
pub struct Prepared {
    pub session: Session,
    pub reset: Option<ResetRun>,
}

/// Loads the workbook and applies the command line's settings, inputs,
/// reset protocol (unless `--no-reset`) and `--set` cells, in that order.
pub fn prepare(args: &CommonArgs) -> Result<Prepared, Failure> {
    let mut session = Session::load(&args.workbook).map_err(Failure::Workbook)?;
    apply_settings(&mut session, args)?;
    for input in &args.inputs {
        let (name, value) =
            input.split_once('=').ok_or_else(|| usage(format!("--input `{input}`: expected NAME=VALUE")))?;
        let line = input_line(value).map_err(usage)?;
        session.set_input(name, &line).map_err(usage)?;
    }
    let reset = if args.no_reset { None } else { session.reset().map_err(usage)? };
    apply_sets(&mut session, args)?;
    Ok(Prepared { session, reset })
}

/// Applies the `--set` cells.
fn apply_sets(session: &mut Session, args: &CommonArgs) -> Result<(), Failure> {
    for set in &args.sets {
        let (cell, value) = set.split_once('=').ok_or_else(|| usage(format!("--set `{set}`: expected CELL=VALUE")))?;
        let area = session.area(cell).map_err(|m| usage(format!("--set `{set}`: {m}")))?;
        for c in area.cells() {
            session.set(c, parse_input_value(value)).map_err(|m| usage(format!("--set `{set}`: {m}")))?;
        }
    }
    Ok(())
}

/// Applies `--max-iter`, `--max-change` and `--order`.
pub fn apply_settings(session: &mut Session, args: &CommonArgs) -> Result<(), Failure> {
    let s = session.settings_mut();
    if let Some(n) = args.max_iter {
        s.max_iterations = n;
    }
    if let Some(x) = args.max_change {
        if !(x.is_finite() && x >= 0.0) {
            return Err(Failure::Usage(format!("--max-change must be a number >= 0, got {x}")));
        }
        s.max_change = x;
    }
    if let Some(o) = args.order {
        s.order = o.into();
    }
    Ok(())
}

fn usage(m: String) -> Failure {
    Failure::Usage(m)
}

/// Every non-blank line of a file with its 1-based line number.
pub fn input_line_file(path: &str) -> Result<Vec<(usize, String)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    Ok(text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).map(|(i, l)| (i + 1, l.to_string())).collect())
}

/// `SYMBOLS`, `@FILE` (its first line) or `@FILE:LINE` (1-based).
pub fn input_line(value: &str) -> Result<String, String> {
    let Some(spec) = value.strip_prefix('@') else { return Ok(value.to_string()) };
    let (path, line) = match spec.rsplit_once(':') {
        Some((p, n)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
            (p, n.parse::<usize>().map_err(|e| format!("line number `{n}`: {e}"))?)
        }
        _ => (spec, 1),
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
    if line == 0 {
        return Err("line numbers start at 1".into());
    }
    text.lines()
        .nth(line - 1)
        .map(str::to_string)
        .ok_or_else(|| format!("`{path}` has {} lines; line {line} asked for", text.lines().count()))
}

/// The largest range `--show` prints (65,536 cells: a 256 x 256 block).
pub const MAX_SHOWN_CELLS: u64 = 1 << 16;

/// Resolves `--show` keys (view names or ranges) to areas and layouts.
pub(crate) fn shown(session: &Session, keys: &[String]) -> Result<Vec<Shown>, Failure> {
    let wb = &session.workbook;
    if keys.is_empty() {
        return Ok(wb.views.iter().map(Shown::view).collect());
    }
    keys.iter()
        .map(|k| match wb.view(k) {
            Some(v) => Ok(Shown { key: k.clone(), ..Shown::view(v) }),
            None => {
                let area = session.area(k).map_err(|m| {
                    let views: Vec<&str> = wb.views.iter().map(|v| v.name.as_str()).collect();
                    usage(format!("--show `{k}` is neither a view ({}) nor a range: {m}", views.join(", ")))
                })?;
                if area.size() > MAX_SHOWN_CELLS {
                    return Err(usage(format!(
                        "--show `{k}` has {} cells; at most {MAX_SHOWN_CELLS} can be shown",
                        area.size()
                    )));
                }
                Ok(Shown { key: k.clone(), area, layout: Layout::default() })
            }
        })
        .collect()
}

pub fn run(args: &RunArgs) -> Result<(), Failure> {
    let o = calculate(args)?;
    warn_circular(&o.session, &o.report);
    if let Some(note) = &o.state_note {
        eprintln!("{note}");
    }
    match args.format {
        Format::Text => print!("{}", text_output(&o)),
        Format::Json => print_json(&o.session, &o.views, &o.report, o.elapsed),
    }
    Ok(())
}

/// A finished `run`, ready to print.
pub struct Outcome {
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
pub fn calculate(args: &RunArgs) -> Result<Outcome, Failure> {
    let (mut session, reset, before) = match &args.state {
        Some(path) => from_state(&args.common, path)?,
        None => {
            let p = prepare(&args.common)?;
            (p.session, p.reset, None)
        }
    };
    let views = shown(&session, &args.show)?;
    let mut tracer = Tracer::new(&session, args)?;
    let start = Instant::now();
    let report = match &mut tracer {
        Some(t) => recalc_traced(&mut session, t),
        None => session.recalc(),
    };
    let elapsed = start.elapsed();
    let state_note = match &args.state {
        Some(path) => Some(save_state(&session, &args.common.workbook, path, before, report.iterations)?),
        None => None,
    };
    Ok(Outcome { session, reset, views, report, elapsed, state_note })
}

/// The same passes as [`Session::recalc`], made one [`Session::step`] at a
/// time so the tracer sees each iteration.
fn recalc_traced(session: &mut Session, tracer: &mut Tracer) -> Report {
    let cap = session.engine.settings.max_iterations.max(1);
    let mut total = Report { converged: true, ..Report::default() };
    loop {
        let before = session.engine.clone();
        let r = session.step();
        total.evaluated += r.evaluated;
        total.circular = r.circular;
        if r.iterations == 0 {
            tracer.iteration(0, &before, &session.engine);
            return total;
        }
        total.iterations += r.iterations;
        total.max_change = r.max_change;
        total.converged = r.converged;
        tracer.iteration(total.iterations, &before, &session.engine);
        if r.converged || total.iterations >= cap {
            return total;
        }
    }
}

/// A state file problem: exit 1, with the way out.
fn state_failure(path: &Path, m: String) -> Failure {
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
fn from_state(args: &CommonArgs, path: &Path) -> Result<(Session, Option<ResetRun>, Option<u64>), Failure> {
    let Some(state) = State::read(path).map_err(|m| state_failure(path, m))? else {
        let p = prepare(args)?;
        return Ok((p.session, p.reset, None));
    };
    let mut session = Session::load(&args.workbook).map_err(Failure::Workbook)?;
    apply_settings(&mut session, args)?;
    state.apply(&mut session).map_err(|m| state_failure(path, m))?;
    if !args.inputs.is_empty() || args.no_reset {
        eprintln!(
            "warning: --input and --no-reset are ignored: the run continues from the values saved in `{}`",
            path.display()
        );
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
    let total = before.unwrap_or(0) + iterations as u64;
    let state = State::capture(session, &workbook.display().to_string(), total);
    state.save(path).map_err(|m| Failure::Workbook(vec![Diagnostic::new(m)]))?;
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    let start = match before {
        Some(n) => format!("continued from `{}` ({n} iteration{} before this run)", path.display(), plural(n)),
        None => format!("`{}` did not exist: started afresh", path.display()),
    };
    Ok(format!("state: {start}; saved ({total} iteration{} in all)", plural(total)))
}

/// The text `run` prints for an outcome, for `watch`.
pub fn text_output(o: &Outcome) -> String {
    text(&o.session, &o.views, o.reset.as_ref(), &o.report, o.elapsed)
}

/// Excel's circular-reference warning, when iteration is off.
fn warn_circular(session: &Session, report: &Report) {
    let p = session.engine.program();
    for cycle in &report.circular {
        let names: Vec<String> = cycle.iter().take(8).map(|c| p.cell_name(*c)).collect();
        let more = if cycle.len() > 8 { format!(" and {} more", cycle.len() - 8) } else { String::new() };
        eprintln!(
            "warning: circular reference ({} cells: {}{more}); iteration is off, so these cells keep their last values",
            cycle.len(),
            names.join(", ")
        );
    }
}

pub fn check(path: &Path) -> Result<(), Failure> {
    let session = Session::load(path).map_err(Failure::Workbook)?;
    let p = session.engine.program();
    println!(
        "{}: {} sheets, {} names, {} formula cells, {} constants",
        path.display(),
        p.scope.sheets.len(),
        p.scope.names.len(),
        p.cells.len(),
        p.constants.len()
    );
    let cycles: Vec<&[u32]> = p.cycles().collect();
    if cycles.is_empty() {
        println!("no circular references");
    }
    for (i, c) in cycles.iter().enumerate() {
        let names: Vec<String> = c.iter().take(8).map(|&f| p.cell_name(p.cells[f as usize].addr)).collect();
        let more = if c.len() > 8 { format!(", ... ({} more)", c.len() - 8) } else { String::new() };
        println!("cycle {}: {} cells: {}{more}", i + 1, c.len(), names.join(", "));
    }
    if !session.workbook.calc.iterate && !cycles.is_empty() {
        println!("iteration is off: these cells will not be calculated (set calc.iterate: true)");
    }
    Ok(())
}

pub fn eval(common: &CommonArgs, formula: &str, at: &str, refs: bool) -> Result<(), Failure> {
    let mut p = prepare(common)?;
    p.session.recalc();
    let cell = p.session.area(at).map_err(|m| usage(format!("--at `{at}`: {m}")))?.top_left();
    let expr = parse_formula(formula).map_err(|errs| {
        let msgs: Vec<String> = errs.iter().map(|e| format!("column {}: {}", e.span.start + 1, e.message)).collect();
        usage(format!("the formula does not parse: {}", msgs.join("; ")))
    })?;
    let program = p.session.engine.program().clone();
    let mut binder = Binder::new(&program.scope, cell);
    let bound = binder.bind_formula(&expr, cell);
    for i in &binder.issues {
        eprintln!("warning: {}", i.message);
    }
    let mut ev = Eval::new(p.session.engine.grid(), cell);
    if refs {
        match ev.eval(&bound) {
            crate::value::Value::Ref(a) => println!("{}", area_text(&p.session, &a)),
            v => return Err(usage(format!("the formula gives the value {v}, not a reference"))),
        }
    } else {
        println!("{}", ev.eval_cell(&bound));
    }
    Ok(())
}

fn area_text(s: &Session, a: &Area) -> String {
    format!("{}!{a}", s.workbook.sheets[a.sheet as usize])
}
