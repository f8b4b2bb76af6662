//! The loan of `workbooks/loan.ron`, built as a user builds it: interest on
//! the year's average balance, a repayment that sweeps a share of the
//! balance and its interest, so each year's interest, repayment and
//! closing balance feed one another (a circular reference, iterated). Its
//! converged values are checked against the closed form:
//!
//! ```text
//! I = r·(O + C)/2,  R = s·(O + I),  C = O + I − R
//! ⇒ I = k·O with k = r·(2 − s) / (2 − r·(1 − s)),  C = (1 − s)·(1 + k)·O
//! ```
//!
//! and the lender's cash flows (−P, the repayments, the last balance) have
//! IRR k: every year earns k on its opening balance.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::session::Session;
use dataflow::value::Value;
use std::path::Path;

fn number(s: &Session, cell: &str) -> f64 {
    let area = s.area(cell).unwrap();
    match s.engine().get(area.top_left()) {
        Value::Number(x) => *x,
        v => panic!("{cell} is {v:?}"),
    }
}

fn close(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() <= 1e-9 * want.abs().max(1.0), "{what}: {got} != {want}");
}

/// The workbook recalculated with `sweep` (and its own principal and rate).
fn converged(sweep: Option<f64>) -> Session {
    let mut s = Session::load(Path::new("workbooks/loan.ron")).unwrap();
    if let Some(x) = sweep {
        let at = s.area("Loan!B3").unwrap().top_left();
        s.set(at, Value::Number(x)).unwrap();
    }
    let report = s.recalc();
    assert!(report.converged, "{report:?}");
    assert!(report.iterations > 1, "the rows are circular: {report:?}");
    s
}

fn check(s: &Session) {
    let (p, r, sw) = (number(s, "Loan!B1"), number(s, "Loan!B2"), number(s, "Loan!B3"));
    let k = r * (2.0 - sw) / (2.0 - r * (1.0 - sw));
    let mut opening = p;
    let mut total = 0.0;
    for row in 6..=10 {
        let interest = k * opening;
        let repayment = sw * (opening + interest);
        let closing = opening + interest - repayment;
        close(number(s, &format!("Loan!B{row}")), opening, &format!("opening, row {row}"));
        close(number(s, &format!("Loan!C{row}")), interest, &format!("interest, row {row}"));
        close(number(s, &format!("Loan!D{row}")), repayment, &format!("repayment, row {row}"));
        close(number(s, &format!("Loan!E{row}")), closing, &format!("closing, row {row}"));
        total += interest;
        opening = closing;
    }
    close(number(s, "Loan!B13"), total, "total interest");
    close(number(s, "Loan!B12"), k, "the effective rate is k");
    assert_eq!(number(s, "Loan!B14"), 0.0, "NPV at the IRR");
}

#[test]
fn the_circular_loan_converges_to_its_closed_form() {
    let s = converged(None);
    check(&s);
    // 8% on the average balance with a 30% sweep earns 6.99588...% a year.
    close(number(&s, "Loan!B12"), 0.136 / 1.944, "k for 8% and 30%");
}

#[test]
fn another_sweep_converges_to_its_own_closed_form() {
    for sweep in [0.0, 0.5, 1.0] {
        check(&converged(Some(sweep)));
    }
}
