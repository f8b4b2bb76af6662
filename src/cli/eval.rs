//! `dataflow eval`: a formula evaluated in a cell's context after the
//! recalculation (or after `--iteration N` iterations of it), printed as
//! Excel's F9 shows it; with `--steps`, each sub-expression's value in the
//! order it is calculated, as Excel's Evaluate Formula shows them
//! (`steps`).

mod steps;

use super::run::f9_text;
use crate::app::{Failure, Options, prepare, print, warn};
use dataflow::address::{Area, CellAddr};
use dataflow::ast::Expr;
use dataflow::engine::Program;
use dataflow::eval::Eval;
use dataflow::eval::bind::{Binder, Site};
use dataflow::parse::parse_formula;
use dataflow::render::{Layout, render_rows};
use dataflow::session::Session;
use dataflow::value::Value;

/// How `eval` evaluates and prints.
#[derive(Clone, Copy, Debug, Default)]
pub struct How {
    /// Print the cells a reference-valued formula points to.
    pub refs: bool,
    /// Evaluate after this many iterations, not after the recalculation.
    pub iteration: Option<u32>,
    /// Print each sub-expression's value, innermost first.
    pub steps: bool,
}

/// `n` iterations of the recalculation (0: as the reset protocol left it),
/// one pass each, fewer when it converges before (said on stderr).
fn iterate(s: &mut Session, n: u32) {
    for i in 0..n {
        if s.step().converged {
            warn(&format!("note: converged after {} iterations, before {n}", i + 1));
            return;
        }
    }
}

/// A binder for sub-expressions of a formula entered at `cell`.
fn binder_at(program: &Program, cell: CellAddr) -> Binder<'_> {
    Binder::new(program.scope(), cell)
}

/// A sub-expression's value as `eval` prints a formula's: several values
/// as F9 writes them, one as the cell would show it.
fn shown(binder: &mut Binder, ev: &mut Eval, e: &Expr) -> String {
    let bound = binder.bind_formula(e, ev.caller().top_left());
    let v = ev.eval(&bound);
    match ev.array_value(v) {
        Value::Array(a) if a.len() > 1 => f9_text(&a),
        _ => ev.eval_cell(&bound).to_string(),
    }
}

/// `dataflow eval`: `formula` in the context of the cell `at` (for `{=...}`,
/// over the block `at`), printed as `how` says.
pub fn eval(options: &Options, formula: &str, at: &str, how: How) -> Result<(), Failure> {
    let mut p = prepare(options)?;
    match how.iteration {
        None => _ = p.session.recalc(),
        Some(n) => iterate(&mut p.session, n),
    }
    let area = p.session.area(at).map_err(|m| Failure::usage(format!("--at `{at}`: {m}")))?;
    let cell = area.top_left();
    // `{=...}`: an array formula, entered over the `--at` block.
    let array = dataflow::parse::block_formula(formula);
    let text = array.unwrap_or(formula);
    let expr = parse_formula(text).map_err(|errs| {
        // Columns count characters of what was typed (the `{` included), not bytes.
        let column =
            |at: usize| usize::from(array.is_some()) + text.char_indices().take_while(|(i, _)| *i < at).count() + 1;
        let msgs: Vec<String> =
            errs.iter().map(|e| format!("column {}: {}", column(e.span.start), e.message)).collect();
        Failure::usage(format!("the formula does not parse: {}", msgs.join("; ")))
    })?;
    let program = p.session.engine().program().clone();
    let mut binder = Binder::new(program.scope(), cell);
    let bound = if array.is_some() { binder.bind_block(&expr, area) } else { binder.bind_formula(&expr, cell) };
    for i in &binder.issues {
        let site = match i.site {
            Site::Formula => Some(text),
            Site::Name(n) => p.session.workbook().names.get(n.index()).map(|n| n.formula.text.as_str()),
        };
        warn(&format!("warning: {}", site.map_or_else(|| i.message.clone(), |t| i.message_in(t))));
    }
    let _calendar = p.session.engine().settings.calendar().enter();
    let mut ev = Eval::new(p.session.engine().grid(), cell).with_scope(program.scope()).with_formulas(&*program);
    if array.is_some() {
        print(&array_text(&ev.in_block(Some(area)).eval_block(&bound)))
    } else if how.steps {
        let steps = steps::steps(&expr, text, &mut |e| shown(&mut binder_at(&program, cell), &mut ev, e));
        print(&steps)
    } else if how.refs {
        match ev.eval(&bound) {
            dataflow::value::Value::Ref(a) => print(&format!("{}\n", area_text(&p.session, &a))),
            v => Err(Failure::usage(format!("the formula gives the value {v}, not a reference"))),
        }
    } else {
        // Several values (an array, a reference to several cells): all of
        // them, as Excel's F9 shows them; one value as the cell would show it.
        let v = ev.eval(&bound);
        match ev.array_value(v) {
            Value::Array(a) if a.len() > 1 => print(&format!("{}\n", f9_text(&a))),
            _ => print(&format!("{}\n", ev.eval_cell(&bound))),
        }
    }
}

/// An array formula's whole result, row by row (a single value alone).
fn array_text(v: &Value) -> String {
    let Value::Array(a) = v else { return format!("{v}\n") };
    let rows: Vec<Vec<&Value>> = a.values().chunks(a.cols.max(1)).map(|r| r.iter().collect()).collect();
    render_rows(&rows, &Layout { group: None, blank: String::new() })
}

fn area_text(s: &Session, a: &Area) -> String {
    s.workbook().sheets.area(*a)
}
