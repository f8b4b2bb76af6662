//! Helpers for the parser tests (`parse`, `parse_printing`, `parse_errors`):
//! parsing a formula that must parse, the errors of one that must not, and
//! a tree with its spans zeroed, to compare trees parsed from different text.

use dataflow::ast::{Expr, ExprKind};
use dataflow::parse::{ParseError, parse_formula};

pub fn parse(src: &str) -> Expr {
    parse_formula(src).unwrap_or_else(|e| panic!("{src:?} failed to parse: {e:?}"))
}

pub fn errors(src: &str) -> Vec<ParseError> {
    match parse_formula(src) {
        Ok(e) => panic!("{src:?} parsed as {e:?}"),
        Err(errs) => errs,
    }
}

/// The tree with every span zeroed, to compare trees parsed from
/// different text.
pub fn without_spans(e: &Expr) -> Expr {
    let kind = match &e.kind {
        ExprKind::Call { name, args } => {
            ExprKind::Call { name: name.clone(), args: args.iter().map(without_spans).collect() }
        }
        ExprKind::Unary { op, expr } => ExprKind::Unary { op: *op, expr: Box::new(without_spans(expr)) },
        ExprKind::Binary { op, lhs, rhs } => {
            ExprKind::Binary { op: *op, lhs: Box::new(without_spans(lhs)), rhs: Box::new(without_spans(rhs)) }
        }
        k => k.clone(),
    };
    Expr::new(kind, 0..0)
}
