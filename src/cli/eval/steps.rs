//! `eval --steps`: the sub-expressions of a formula and their values in
//! the order they are calculated, innermost first and left to right, as
//! Excel's Evaluate Formula shows them. Each reference, name and
//! operation is a step (constants are not); IF shows only the branch its
//! condition takes; LET and LAMBDA are one step (their variables mean
//! nothing outside them). Each step is its own text from the formula,
//! bound and evaluated in the cell's context.

use dataflow::ast::{Expr, ExprKind};
use dataflow::functions::{FnSpec, Intrinsic, lookup};

/// What a call is to the steps: one step (LET, LAMBDA: their variables
/// mean nothing outside them), IF (the branch taken only), or any other.
enum Call {
    Whole,
    If,
    Other,
}

fn call(name: &str) -> Call {
    match lookup(name) {
        Some(f) if f.is_scoped() || f.intrinsic == Some(Intrinsic::Lambda) => Call::Whole,
        Some(FnSpec { intrinsic: Some(Intrinsic::If), .. }) => Call::If,
        _ => Call::Other,
    }
}

/// The steps of `expr` (parsed from `text`), one line each: `text = value`;
/// `value` evaluates a sub-expression as `eval` prints a formula.
pub(super) fn steps(expr: &Expr, text: &str, value: &mut dyn FnMut(&Expr) -> String) -> String {
    let mut out = String::new();
    walk(expr, text, value, &mut out);
    out
}

fn walk(e: &Expr, text: &str, value: &mut dyn FnMut(&Expr) -> String, out: &mut String) {
    match &e.kind {
        ExprKind::Number(_)
        | ExprKind::Text(_)
        | ExprKind::Bool(_)
        | ExprKind::Error(_)
        | ExprKind::Array(_)
        | ExprKind::Missing => return,
        ExprKind::Ref(_) | ExprKind::Name(_) | ExprKind::Table(_) => {}
        ExprKind::Call { name, .. } if matches!(call(name), Call::Whole) => {}
        ExprKind::Call { name, args } if matches!(call(name), Call::If) && !args.is_empty() => {
            walk(&args[0], text, value, out);
            let taken = match value(&args[0]).as_str() {
                "TRUE" => args.get(1),
                "FALSE" => args.get(2),
                _ => None,
            };
            if let Some(branch) = taken {
                walk(branch, text, value, out);
            }
        }
        ExprKind::Call { args, .. } => args.iter().for_each(|a| walk(a, text, value, out)),
        ExprKind::Unary { expr, .. } => walk(expr, text, value, out),
        ExprKind::Binary { lhs, rhs, .. } => {
            walk(lhs, text, value, out);
            walk(rhs, text, value, out);
        }
    }
    let shown = text.get(e.span.clone()).unwrap_or_default().trim();
    out.push_str(&format!("{shown} = {}\n", value(e)));
}
