//! `explain WORKBOOK CELL`: why a cell's value changed, step by step. The
//! session is prepared as `run` prepares it; the cells set by hand after the
//! reset's recalculation (the protocol's `then` cells, `--set` cells) are
//! the changes of step 0. Then the recalculation runs pass by pass
//! ([`dataflow::explain::explain`]) and each change of the cell is printed
//! with the precedents that changed since its previous evaluation:
//!
//! ```text
//! Main!Q4 =IF(state="reset", onetonine, IF(sol_cell_from_val<>"", ...))
//!   entered over Main!P4:AP30 at workbooks/../formulas/ellis/candidates.dfl:31
//! step 0: 2
//! step 3: 2 -> "" (blank)  because Main!E16 "" -> 1 (step 3)
//! converged after 9 iterations; Main!Q4 changed once
//! ```
//!
//! When the cell or a cause lies in a view with a reason area, its reason
//! text follows on a `  why ...` line.
//!
//! A cell that is not a formula is a usage error, which says what it holds.

use super::trace::trace_value;
use crate::app::{
    Failure, Options, apply_sets, causes_text, change_text, history_outcome, prepare, print, reasons_text, resolve_sets,
};
use dataflow::address::CellAddr;
use dataflow::engine::{Change, Program};
use dataflow::explain::{Step, changed, entry, explain, reset, written};
use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::{CellEntry, Content};

pub fn explain_cell(options: &Options, cell: &str) -> Result<(), Failure> {
    let (session, before) = prepared(options)?;
    let fail = |m: String| Failure::usage(format!("explain `{cell}`: {m}"));
    let area = session.area(cell).map_err(|e| fail(e.to_string()))?;
    if area.size() != 1 {
        return Err(fail("explain follows one cell, not a range".into()));
    }
    let at = area.top_left();
    let program = session.engine().program();
    let found = entry(session.workbook(), program, at);
    let Some(history) = explain(session.engine(), at, &before, &session.workbook().views) else {
        let input = session.workbook().inputs.iter().find(|i| i.area.contains(at)).map(|i| i.name.as_str());
        return Err(fail(not_a_formula(program, at, found, input, session.engine().get(at))));
    };
    let mut text = header(program, at, found);
    text += &format!("step 0: {}\n", trace_value(&history.start));
    for step in &history.steps {
        text += &step_line(program, step);
    }
    text += &format!("{}\n", history_outcome(program, &history));
    print(&text)
}

/// The session as `run` prepares it, and the cells set by hand after the
/// reset protocol's recalculation, as changes.
fn prepared(options: &Options) -> Result<(Session, Vec<Change>), Failure> {
    let bare = Options { no_reset: true, sets: Vec::new(), ..options.clone() };
    let mut session = prepare(&bare)?.session;
    let mut before = if options.no_reset { Vec::new() } else { reset(&mut session).map_err(Failure::from)? };
    let mut held = Vec::new();
    for (area, _) in resolve_sets(&session, &options.sets)? {
        held.extend(area.cells().map(|c| (c, session.engine().get(c).clone())));
    }
    apply_sets(&mut session, options)?;
    for c in changed(session.engine(), held) {
        match before.iter_mut().find(|b| b.cell == c.cell) {
            Some(b) => b.new = c.new,
            None => before.push(c),
        }
    }
    before.retain(|b| b.old != b.new);
    Ok((session, before))
}

/// Why `cell` cannot be explained: what it holds instead of a formula.
fn not_a_formula(p: &Program, cell: CellAddr, found: Option<&CellEntry>, input: Option<&str>, value: &Value) -> String {
    let name = p.cell_name(cell);
    let value_text = if value.is_blank() { "blank".to_string() } else { trace_value(value) };
    if let Some(input) = input {
        return format!("{name} is a cell of the input `{input}`, now {value_text}; explain follows formula cells");
    }
    match found.map(|e| &e.content) {
        Some(Content::Constant(_)) => {
            format!("{name} holds a constant, {}; explain follows formula cells", trace_value(value))
        }
        _ if !value.is_blank() => format!("{name} holds no formula (its value is {})", trace_value(value)),
        _ => format!("{name} is empty: it holds no formula"),
    }
}

/// The cell, its formula as written, and where that formula was entered.
fn header(p: &Program, cell: CellAddr, found: Option<&CellEntry>) -> String {
    let name = p.cell_name(cell);
    let Some((entry, formula)) = found.and_then(|e| Some((e, e.content.formula()?))) else {
        return format!("{name}\n");
    };
    let (shown, array) = match entry.content {
        Content::Array(_) => (format!("{{{}}}", written(formula)), "array formula "),
        _ => (written(formula), ""),
    };
    let mut text = format!("{name} {shown}\n");
    let place = match &formula.origin.source {
        Some(src) => {
            let (line, _) = src.line_col(formula.origin.offset);
            format!(" at {}:{line}", src.path.display())
        }
        None => String::new(),
    };
    if entry.area.size() > 1 {
        text += &format!("  {array}entered over {}{place}\n", p.scope().sheets.area(entry.area));
    } else if !place.is_empty() {
        text += &format!("  {array}entered{place}\n");
    }
    text
}

/// `step 3: 2 -> "" (blank)  because Main!E16 "" -> 1 (step 3), ...`, then
/// a `  why ...` line per reason text.
fn step_line(p: &Program, step: &Step) -> String {
    let mut text = match causes_text(p, step, trace_value) {
        Ok(causes) => format!("{}  because {}\n", change_text(step, trace_value), causes.join(", ")),
        Err(why) => format!("{}  ({why})\n", change_text(step, trace_value)),
    };
    for line in reasons_text(p, step) {
        text += &format!("  {line}\n");
    }
    text
}
