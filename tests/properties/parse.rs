//! Properties of the parser and the printer: no input makes `parse_formula`
//! panic, every error span lies inside the input, what parses prints
//! to a text that parses back to the same tree (spans aside) and prints the
//! same again, and a formula parsed after others of its shape (its cell
//! references changed) gives what parsing it afresh gives, spans and
//! errors included.

use super::formulas::{formula, token_soup};
use dataflow::ast::{Expr, ExprKind};
use dataflow::parse::{parse_formula, parse_formula_afresh};
use proptest::prelude::*;

/// The tree with every span set to `0..0`, for comparing trees parsed from
/// different texts.
fn strip(e: &Expr) -> Expr {
    let kind = match &e.kind {
        ExprKind::Call { name, args } => ExprKind::Call { name: name.clone(), args: args.iter().map(strip).collect() },
        ExprKind::Unary { op, expr } => ExprKind::Unary { op: *op, expr: Box::new(strip(expr)) },
        ExprKind::Binary { op, lhs, rhs } => {
            ExprKind::Binary { op: *op, lhs: Box::new(strip(lhs)), rhs: Box::new(strip(rhs)) }
        }
        other => other.clone(),
    };
    Expr::new(kind, 0..0)
}

/// Parses `src`; when it parses, checks the round trip, else that every
/// error lies inside the text.
fn check(src: &str) -> Result<(), TestCaseError> {
    match parse_formula(src) {
        Ok(tree) => {
            let printed = tree.to_string();
            let again = parse_formula(&printed)
                .map_err(|e| TestCaseError::fail(format!("{src:?} printed as {printed:?}, which fails: {e:?}")))?;
            prop_assert_eq!(strip(&again), strip(&tree), "{:?} printed as {:?}", src, printed);
            prop_assert_eq!(again.to_string(), printed);
        }
        Err(errors) => {
            prop_assert!(!errors.is_empty());
            for e in errors {
                prop_assert!(e.span.start <= e.span.end && e.span.end <= src.len(), "{:?}: {:?}", src, e);
                prop_assert!(!e.message.is_empty());
            }
        }
    }
    Ok(())
}

/// `src` with its `i`-th cell-looking piece (`A1`, `$B$7`, `xfd1`)
/// replaced by `cells[i % cells.len()]`, in text order.
fn with_cells(src: &str, cells: &[&str]) -> String {
    let piece = regex::Regex::new(r"\$?[A-Za-z]{1,3}\$?[0-9]{1,7}").unwrap();
    let mut i = 0;
    piece
        .replace_all(src, |_: &regex::Captures| {
            i += 1;
            cells[(i - 1) % cells.len()].to_string()
        })
        .into_owned()
}

/// Parses `src`, then the same text with other cells in its cell pieces,
/// then `src` again: each as parsing it afresh does.
fn check_shapes(src: &str, cells: &[&str]) -> Result<(), TestCaseError> {
    for text in [src.to_string(), with_cells(src, cells), with_cells(src, &cells[1..]), src.to_string()] {
        prop_assert_eq!(parse_formula(&text), parse_formula_afresh(&text), "{:?}", text);
    }
    Ok(())
}

const CELLS: [&str; 6] = ["B2", "$XFD$1048576", "c3", "AB$12", "$A1", "Q777"];

proptest! {
    #![proptest_config(super::config(512))]

    #[test]
    fn formulas_of_one_shape_parse_as_afresh(src in formula(), at in 0..6usize) {
        let cells: Vec<&str> = CELLS.iter().cycle().skip(at).take(6).copied().collect();
        check_shapes(&src, &cells)?;
        check_shapes(&format!("= {src} "), &cells)?;
    }

    #[test]
    fn token_soups_of_one_shape_parse_as_afresh(src in token_soup(), at in 0..6usize) {
        let cells: Vec<&str> = CELLS.iter().cycle().skip(at).take(6).copied().collect();
        check_shapes(&src, &cells)?;
    }

    #[test]
    fn any_string_parses_or_fails_cleanly(src in "\\PC{0,40}") {
        check(&src)?;
    }

    #[test]
    fn token_soup_parses_or_fails_cleanly(src in token_soup()) {
        check(&src)?;
    }

    #[test]
    fn formulas_round_trip(src in formula()) {
        check(&src)?;
        check(&format!("={src}"))?;
    }
}

#[test]
fn generated_formulas_mostly_parse() {
    // The grammar generator is meant to exercise the printer: most of what it
    // makes must parse, or the round trip would test nothing.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = formula();
    let parsed = (0..200)
        .filter(|_| parse_formula(&strategy.new_tree(&mut runner).expect("a formula").current()).is_ok())
        .count();
    assert!(parsed > 100, "only {parsed} of 200 generated formulas parse");
}
