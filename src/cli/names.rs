//! `dataflow names`: the workbook's names as Excel's Name Manager lists
//! them. Each name with its scope (every name here is the workbook's; a
//! sheet-local xlsx name is imported as a workbook name anchored on its
//! sheet, see docs/compatibility.md), the cell it is entered from (its
//! relative references are relative to it), its formula as written and
//! what parts add to it (`+=`), its value after recalculation at its
//! anchor or at `--at`, the formula cells and names that use it, and the
//! first line of its comment.

use super::run::f9_text;
use crate::app::{Failure, Options, prepare, print};
use dataflow::ast::{Expr, ExprKind};
use dataflow::eval::Eval;
use dataflow::eval::bind::Binder;
use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::Workbook;

/// The longest value shown; a longer one is cut with `…`.
const VALUE_CHARS: usize = 60;
/// The users listed by name or area; the rest are counted.
const USERS_SHOWN: usize = 6;

pub fn names(options: &Options, wanted: &[String], at: Option<&str>) -> Result<(), Failure> {
    let mut p = prepare(options)?;
    p.session.recalc();
    let session = &p.session;
    let wb = session.workbook();
    if let Some(missing) = wanted.iter().find(|w| wb.name(w).is_none()) {
        return Err(Failure::usage(format!("`{}` has no name `{missing}`", options.workbook.display())));
    }
    let at = match at {
        Some(a) => Some(session.area(a).map_err(|m| Failure::usage(format!("--at `{a}`: {m}")))?.top_left()),
        None => None,
    };
    let mut shown: Vec<&dataflow::workbook::Name> = wb
        .names
        .iter()
        .filter(|n| wanted.is_empty() || wanted.iter().any(|w| w.eq_ignore_ascii_case(&n.name)))
        .collect();
    shown.sort_by_key(|n| n.name.to_lowercase());
    if shown.is_empty() {
        return print(&format!("{} defines no names\n", options.workbook.display()));
    }
    let mut text = String::new();
    for n in shown {
        let cell = at.unwrap_or(n.anchor);
        let anchor = session.engine().program().cell_name(n.anchor);
        let formula = n.formula.text.trim();
        let formula = formula.strip_prefix('=').unwrap_or(formula);
        // One line, as the Name Manager shows it.
        let formula = formula.lines().map(str::trim).collect::<Vec<_>>().join(" ");
        text += &format!("{}\n  scope: workbook; anchor: {anchor}\n  refers to: ={formula}\n", n.name);
        let adds = additions(wb, n);
        if !adds.is_empty() {
            text += &format!("  adds: {}\n", adds.join(", "));
        }
        let where_ = session.engine().program().cell_name(cell);
        text += &format!("  value at {where_}: {}\n", value_text(session, &n.name, cell));
        text += &format!("  used by: {}\n", users_text(wb, &n.name));
        if let Some(c) = n.comment.as_deref().and_then(|c| c.lines().next()) {
            text += &format!("  comment: {c}\n");
        }
    }
    print(&text)
}

/// The name's value evaluated at `cell`: one value as a cell shows it,
/// several as Excel's F9 writes them, cut at [`VALUE_CHARS`].
fn value_text(session: &Session, name: &str, cell: dataflow::address::CellAddr) -> String {
    let program = session.engine().program();
    let expr = Expr::new(ExprKind::Name(name.to_string()), 0..name.len());
    let mut binder = Binder::new(program.scope(), cell);
    let bound = binder.bind_formula(&expr, cell);
    let _calendar = session.engine().settings.calendar().enter();
    let mut ev = Eval::new(session.engine().grid(), cell).with_scope(program.scope()).with_formulas(&**program);
    let v = ev.eval(&bound);
    let text = match ev.array_value(v) {
        Value::Array(a) if a.len() > 1 => format!("{}x{} {}", a.rows, a.cols, f9_text(&a)),
        _ => ev.eval_cell(&bound).to_string(),
    };
    match text.char_indices().nth(VALUE_CHARS) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

/// The names parts add to `n`'s call (`name NAME += ...`, as `NAME.FILE`),
/// in order: the arguments past those written.
fn additions(wb: &Workbook, n: &dataflow::workbook::Name) -> Vec<String> {
    let ExprKind::Call { args, .. } = &n.formula.expr.kind else { return Vec::new() };
    let prefix = format!("{}.", n.name.to_lowercase());
    let added = |a: &Expr| match &a.kind {
        ExprKind::Name(x) if x.to_lowercase().starts_with(&prefix) && a.span.end == n.formula.expr.span.end => {
            wb.name(x).map(|d| d.name.clone())
        }
        _ => None,
    };
    args.iter().filter_map(added).collect()
}

/// The cells (as the areas they were entered over) and names whose
/// formulas use `name`, as written; `nothing` when none does.
fn users_text(wb: &Workbook, name: &str) -> String {
    let uses = |e: &Expr| {
        let mut found = false;
        e.each_name(&mut |n| found |= n.eq_ignore_ascii_case(name));
        found
    };
    let mut users: Vec<String> = wb
        .cells
        .iter()
        .filter(|c| c.content.formula().is_some_and(|f| uses(&f.expr)))
        .map(|c| wb.sheets.area(c.area))
        .collect();
    users.extend(
        wb.names.iter().filter(|n| !n.name.eq_ignore_ascii_case(name) && uses(&n.formula.expr)).map(|n| n.name.clone()),
    );
    if users.is_empty() {
        return "nothing".to_string();
    }
    let more = users.len().saturating_sub(USERS_SHOWN);
    let mut text = users[..users.len().min(USERS_SHOWN)].join(", ");
    if more > 0 {
        text += &format!(" and {more} more");
    }
    text
}
