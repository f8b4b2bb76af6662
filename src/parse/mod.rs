//! Formula text to syntax tree, and back. [`parse_formula`] reads a formula
//! as typed in Excel's formula bar (English function names, A1 references,
//! comma separators, with or without the leading `=`, spread over several
//! lines if need be) into an [`Expr`]; `Display` on [`Expr`] prints it back
//! in canonical form.
//!
//! The work is split in stages: `lexer` turns text into tokens (it never
//! fails: unreadable text becomes an error token), a cheap scan of the tokens
//! rejects formulas nested more than [`MAX_NESTING`] levels deep (so the
//! recursive parser, and everything that later walks the tree recursively,
//! stays well inside a thread's stack), `parser` holds the grammar and the
//! precedence table, `driver` runs it (built once a thread, a quick pass
//! first, a worded one only for a formula that fails), `errors` words the
//! parser's errors, `print` prints
//! trees and `trim` handles the trim references (`A1:.E10`). Every problem
//! found is returned, each with the byte span of the text it concerns.

mod array;
mod driver;
mod errors;
mod lexer;
mod parser;
mod print;
#[cfg(test)]
mod quick_tests;
mod reference;
mod shapes;
mod structured;
mod trim;

pub use print::sheet_prefix;
pub use shapes::MAX_SHAPE;

use crate::ast::{Expr, Span};
use chumsky::span::SimpleSpan;
use lexer::Token;

/// One problem found while parsing a formula; the span is relative to the
/// text handed to [`parse_formula`].
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    pub span: Span,
    pub message: String,
}

/// How deep a formula's tree may grow, in levels: each open parenthesis or
/// brace is one, so is each prefix `-`/`+` waiting for its operand, each `%`
/// in a run (`1%%%`) and each binary operator in a chain (`1+2+3` is a tree
/// two levels deep: the parser folds chains to the left). Excel itself
/// allows 64 levels of nested functions, which cost at most 128 here
/// (`-F(`), leaving room for chains of a hundred terms or more. The limit
/// keeps the parser, and every later pass that walks the tree recursively
/// (clone, compare, print, evaluate), well inside a 2 MiB thread stack.
pub const MAX_NESTING: usize = 256;

/// The formula inside an array formula entered over a block, written as
/// Excel's formula bar shows it: `{=ROW()}` gives `=ROW()`; None for any
/// other text (an array constant `{1,2}` included).
pub fn block_formula(text: &str) -> Option<&str> {
    text.strip_prefix('{').and_then(|t| t.strip_suffix('}')).filter(|t| t.starts_with('='))
}

/// Parses a formula as pasted from Excel's formula bar, with or without the
/// leading `=`. Returns every error found, not only the first. A formula of
/// the shape of one parsed shortly before on this thread (the same text but
/// for its cell references) is lexed and its tree rebuilt from the earlier
/// one (see `shapes`): the same tree, spans included, as
/// [`parse_formula_afresh`] gives.
pub fn parse_formula(src: &str) -> Result<Expr, Vec<ParseError>> {
    let (tokens, errors) = lexer::lex(src);
    let shape = if errors.is_empty() { shapes::shape(src, &tokens) } else { None };
    if let Some(tree) = shape.as_ref().and_then(shapes::reuse) {
        return Ok(tree);
    }
    let parsed = parse_tokens(src, tokens, errors);
    if let (Ok(tree), Some(shape)) = (&parsed, shape) {
        shapes::keep(shape, tree);
    }
    parsed
}

/// Parses a formula as [`parse_formula`] does, without the trees kept
/// for formulas of the same shape: what they are checked against.
pub fn parse_formula_afresh(src: &str) -> Result<Expr, Vec<ParseError>> {
    let (tokens, errors) = lexer::lex(src);
    parse_tokens(src, tokens, errors)
}

/// Parses the `tokens` of `src`, found with the lexing `errors`.
fn parse_tokens(
    src: &str,
    tokens: Vec<(Token, SimpleSpan)>,
    mut errors: Vec<ParseError>,
) -> Result<Expr, Vec<ParseError>> {
    if let Err(e) = check_nesting(&tokens) {
        errors.push(e);
        return Err(errors);
    }
    let eoi = SimpleSpan::from(src.len()..src.len());
    let (expr, parse_errors) = driver::parse(&tokens, eoi);
    errors.extend(parse_errors.iter().filter_map(|e| errors::convert(e, src, &tokens)));
    match expr {
        Some(expr) if errors.is_empty() => Ok(expr),
        _ => {
            errors.sort_by_key(|e| (e.span.start, e.span.end));
            errors.dedup();
            if errors.is_empty() {
                errors.push(ParseError { span: 0..src.len(), message: "invalid formula".into() });
            }
            Err(errors)
        }
    }
}

/// Rejects formulas nested more than [`MAX_NESTING`] levels deep, pointing
/// at the token that goes one level too far. Counts from the tokens alone,
/// erring on the deep side (`1*2+3*4` counts three levels, the tree has two).
fn check_nesting(tokens: &[(Token, SimpleSpan)]) -> Result<(), ParseError> {
    // Per open bracket, the `(prefix, chain)` counts of the operand list it
    // interrupted, restored when it closes.
    let mut open: Vec<(usize, usize)> = Vec::new();
    // Levels held by open brackets and what they interrupted.
    let mut base = 0;
    // Prefix operators waiting for the operand being read.
    let mut prefix = 0;
    // Binary operators so far in the current argument or array value.
    let mut chain = 0;
    // Length of the current run of `%`.
    let mut percents = 0;
    for (i, (tok, span)) in tokens.iter().enumerate() {
        let after_operand = i.checked_sub(1).is_some_and(|p| tokens[p].0.ends_operand());
        percents = if matches!(tok, Token::Percent | Token::Hash) { percents + 1 } else { 0 };
        match tok {
            Token::Plus | Token::Minus if !after_operand => prefix += 1,
            Token::At => prefix += 1,
            Token::LParen | Token::LBrace => {
                open.push((prefix, chain));
                base += prefix + chain + 1;
                (prefix, chain) = (0, 0);
            }
            Token::RParen | Token::RBrace => {
                if let Some((p, c)) = open.pop() {
                    base -= p + c + 1;
                    chain = c;
                }
                prefix = 0;
            }
            Token::Comma | Token::Semi => (prefix, chain) = (0, 0),
            // A leading `=` starts the formula; it is no operator.
            t if i > 0 && parser::binary_op(t).is_some() => chain += 1,
            // A function name: its operand ends with its `)`.
            Token::Ident(_) if tokens.get(i + 1).is_some_and(|(t, _)| *t == Token::LParen) => {}
            t if t.ends_operand() => prefix = 0,
            _ => {}
        }
        if base + prefix + chain + percents > MAX_NESTING {
            let message = format!("formula nested too deeply (more than {MAX_NESTING} levels)");
            return Err(ParseError { span: span.into_range(), message });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{BinaryOp, ExprKind, UnaryOp};

    #[test]
    fn parses_and_prints_with_spans() {
        let e = parse_formula("= 1 + SUM(A1, 2)").unwrap();
        assert_eq!(e.span, 2..16);
        let ExprKind::Binary { op: BinaryOp::Add, rhs, .. } = &e.kind else { panic!("{e:?}") };
        assert_eq!(rhs.span, 6..16);
        assert_eq!(e.to_string(), "1+SUM(A1,2)");
    }

    fn too_deep(src: &str) -> bool {
        check_nesting(&lexer::lex(src).0).is_err()
    }

    #[test]
    fn nesting_is_counted_from_brackets_prefix_runs_and_chains() {
        let brackets = |n| "(".repeat(n) + "1" + &")".repeat(n);
        assert!(!too_deep(&brackets(MAX_NESTING)));
        assert!(too_deep(&brackets(MAX_NESTING + 1)));
        let err = check_nesting(&lexer::lex(&brackets(MAX_NESTING + 1)).0).unwrap_err();
        assert_eq!(err.span, MAX_NESTING..MAX_NESTING + 1);
        // Runs of prefix signs and chains of operators nest too...
        assert!(!too_deep(&("-".repeat(MAX_NESTING) + "1")));
        assert!(too_deep(&("-".repeat(MAX_NESTING + 1) + "1")));
        assert!(!too_deep(&("1".to_string() + &"-1".repeat(MAX_NESTING))));
        assert!(too_deep(&("1".to_string() + &"-1".repeat(MAX_NESTING + 1))));
        // ...`-(` costs two levels...
        let half = MAX_NESTING / 2;
        assert!(!too_deep(&("-(".repeat(half) + "1" + &")".repeat(half))));
        assert!(too_deep(&("-(".repeat(half + 1) + "1" + &")".repeat(half + 1))));
        // ...but separate arguments, and brackets once closed, do not add up.
        assert!(!too_deep(&format!("SUM({})", vec!["1+1"; 10 * MAX_NESTING].join(","))));
        assert!(!too_deep(&vec![brackets(MAX_NESTING - 1); 10].join(",")));
    }

    #[test]
    fn precedence_table_orders_the_levels() {
        use parser::{binary_power, unary_power};
        let range = binary_power(BinaryOp::Range);
        assert!(range > unary_power(UnaryOp::Neg));
        assert_eq!(unary_power(UnaryOp::Neg), unary_power(UnaryOp::Plus));
        assert!(unary_power(UnaryOp::Neg) > unary_power(UnaryOp::Percent));
        assert!(unary_power(UnaryOp::Percent) > binary_power(BinaryOp::Pow));
        assert!(parser::ATOM_POWER > range);
    }
}
