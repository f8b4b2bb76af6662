//! Logical functions where recalculation matters: CHOOSE and LET results
//! follow the cells they read. Their plain value checks are in
//! `tests/formulas/logical.txt`.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::sheet::{n, sheet};

/// B1:B3 = 1, 2, 3; C1:C3 = TRUE, "abc", 0.
const CELLS: &[(&str, &str)] = &[("B1", "1"), ("B2", "2"), ("B3", "3"), ("C1", "TRUE"), ("C2", "abc"), ("C3", "0")];

#[test]
fn choose_returns_references() {
    let mut s = sheet(CELLS);
    s.set("A1", "=SUM(CHOOSE(2,B1,B1:B3))");
    s.recalc();
    assert_eq!(s.value("A1"), n(6.0));
    s.set("B3", "10");
    s.recalc();
    assert_eq!(s.value("A1"), n(13.0), "depends on the chosen range");
}

#[test]
fn let_variables_follow_their_cells() {
    let mut s = sheet(CELLS);
    s.set("A3", "=LET(x,B2,x*x)");
    s.recalc();
    assert_eq!(s.value("A3"), n(4.0));
    s.set("B2", "5");
    s.recalc();
    assert_eq!(s.value("A3"), n(25.0));
}
