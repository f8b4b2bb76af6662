//! `run`, `check` and `eval`: load a workbook, fill inputs, apply the reset
//! protocol, recalculate, and print.

use super::output::{Shown, print_json, print_text};
use super::{CommonArgs, Failure, Format, RunArgs};
use crate::address::Area;
use crate::engine::Report;
use crate::eval::Eval;
use crate::eval::bind::Binder;
use crate::parse::parse_formula;
use crate::render::Layout;
use crate::session::{ResetRun, Session};
use crate::workbook::parse_input_value;
use std::path::Path;
use std::time::Instant;

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
    for set in &args.sets {
        let (cell, value) = set.split_once('=').ok_or_else(|| usage(format!("--set `{set}`: expected CELL=VALUE")))?;
        let area = session.area(cell).map_err(|m| usage(format!("--set `{set}`: {m}")))?;
        for c in area.cells() {
            session.set(c, parse_input_value(value)).map_err(|m| usage(format!("--set `{set}`: {m}")))?;
        }
    }
    Ok(Prepared { session, reset })
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
fn shown(session: &Session, keys: &[String]) -> Result<Vec<Shown>, Failure> {
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
    let mut p = prepare(&args.common)?;
    let views = shown(&p.session, &args.show)?;
    let start = Instant::now();
    let report = p.session.recalc();
    let elapsed = start.elapsed();
    warn_circular(&p.session, &report);
    match args.format {
        Format::Text => print_text(&p.session, &views, p.reset.as_ref(), &report, elapsed),
        Format::Json => print_json(&p.session, &views, &report, elapsed),
    }
    Ok(())
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
