//! The circular heat grid against plain Rust: a 100×100 plate, the top edge
//! at 100 and the other edges at 0, each interior cell the mean of its four
//! neighbours, iterated 100 times with max change 0. Recalculated in
//! row-major order it must give, bit for bit, a straightforward row-major
//! Gauss–Seidel sweep; in synchronous order, a Jacobi sweep.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::address::Area;
use dataflow::policy::Order;
use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::Workbook;
use std::path::Path;

const N: usize = 100;
const ITERATIONS: usize = 100;

/// The workbook: `Main!A1:CV100`, formulas on `B2:CU99`.
fn heat(order: Order) -> Session {
    let text = r#"Workbook(sheets: ["Main"], calc: (iterate: true, max_iterations: 100, max_change: 0), cells: {
        "Main!A1:CV1": 100, "Main!A100:CV100": 0, "Main!A2:A99": 0, "Main!CV2:CV99": 0,
        "Main!B2:CU99": "=(A2+C2+B1+B3)/4" })"#;
    let mut s = Session::new(Workbook::from_str(text, Path::new("heat.ron"), Path::new(".")).unwrap()).unwrap();
    s.settings_mut().order = order;
    s
}

/// The plate before any iteration: the edges, and 0 (empty) inside.
fn plate() -> Vec<Vec<f64>> {
    let mut g = vec![vec![0.0; N]; N];
    g[0] = vec![100.0; N];
    g
}

fn mean(g: &[Vec<f64>], r: usize, c: usize) -> f64 {
    (g[r][c - 1] + g[r][c + 1] + g[r - 1][c] + g[r + 1][c]) / 4.0
}

/// Row-major Gauss–Seidel: each cell sees the cells before it updated.
fn gauss_seidel(iterations: usize) -> Vec<Vec<f64>> {
    let mut g = plate();
    for _ in 0..iterations {
        for r in 1..N - 1 {
            for c in 1..N - 1 {
                g[r][c] = mean(&g, r, c);
            }
        }
    }
    g
}

/// Jacobi: every cell from the previous iteration's values.
fn jacobi(iterations: usize) -> Vec<Vec<f64>> {
    let mut g = plate();
    for _ in 0..iterations {
        let prev = g.clone();
        for (r, row) in g.iter_mut().enumerate().take(N - 1).skip(1) {
            for (c, v) in row.iter_mut().enumerate().take(N - 1).skip(1) {
                *v = mean(&prev, r, c);
            }
        }
    }
    g
}

/// Recalculates and compares every cell's bits with `want`.
fn assert_same(order: Order, want: fn(usize) -> Vec<Vec<f64>>) {
    let mut s = heat(order);
    let report = s.recalc();
    assert_eq!(report.iterations as usize, ITERATIONS, "{report:?}");
    assert!(!report.converged, "{report:?}");
    let want = want(ITERATIONS);
    let got = s.read(&Area::new(0, 0, 0, N as u32 - 1, N as u32 - 1));
    let mut interior = 0;
    for (r, row) in got.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            let n = match v {
                Value::Number(n) => *n,
                other => panic!("{order:?}: cell ({r}, {c}) is {other:?}"),
            };
            assert_eq!(n.to_bits(), want[r][c].to_bits(), "{order:?}: cell ({r}, {c}): {n} against {}", want[r][c]);
            interior += usize::from(n != 0.0 && r > 0);
        }
    }
    // The heat has spread well into the plate (not a trivial match of zeros).
    assert!(interior > 1000, "{order:?}: {interior} warmed cells");
}

#[test]
fn row_major_iteration_is_gauss_seidel_bit_for_bit() {
    assert_same(Order::RowMajor, gauss_seidel);
}

#[test]
fn synchronous_iteration_is_jacobi_bit_for_bit() {
    assert_same(Order::Synchronous, jacobi);
}

#[test]
fn the_two_orders_differ() {
    // Guards the two references against each other: were they the same,
    // the tests above could not tell the orders apart.
    assert_ne!(gauss_seidel(ITERATIONS), jacobi(ITERATIONS));
}
