//! Kernels change no value: on random small workbooks with cycles whose
//! formulas are the scalar shapes kernels take (arithmetic, comparisons,
//! IF, AND/OR/NOT, one-cell references, constants of every kind, a shared
//! name and INDEX of a shared column; 1e300 for steps that overflow), and
//! on arithmetic only (which kernels compute on plain floats), the engine
//! under each fast path (`Paths::EACH`) and the tree walker alone evaluate
//! the same cells and hold the same values after every iteration, in both
//! orders, and after a constant is changed.

use super::sharing::{Holds, every_path_agrees, holds, sheet};
use super::workbooks::CELLS;
use dataflow::engine::Paths;
use dataflow::policy::Order;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

/// The names every workbook defines besides `nm`: a shared column of
/// booleans and one of numbers, for INDEX.
const NAMES: &[(&str, &str)] = &[("col", "$A$1:$A$4>2"), ("num", "$B$1:$B$3*2")];

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0..CELLS).prop_map(|i| format!("«{i}»")),
        3 => (-3i32..10).prop_map(|n| n.to_string()),
        1 => Just("nm".to_string()),
        1 => (proptest::sample::select(&["col", "num"][..]), 1..5u32).prop_map(|(n, k)| format!("INDEX({n},{k})")),
        1 => proptest::sample::select(&[
            "0.5", "1e300", "\"\"", "\"a\"", "\"1\"", "\"TRUE\"", "TRUE", "FALSE", "#N/A", "#DIV/0!",
        ][..])
        .prop_map(String::from),
    ]
}

/// A scalar formula of at most a few levels, kernel shapes only.
fn scalar_formula() -> impl Strategy<Value = String> {
    let ops = &["+", "-", "*", "/", "^", "=", "<>", "<", ">", "<=", ">="][..];
    leaf().prop_recursive(3, 16, 3, move |inner| {
        prop_oneof![
            3 => (inner.clone(), proptest::sample::select(ops), inner.clone())
                .prop_map(|(a, op, b)| format!("({a}{op}{b})")),
            1 => inner.clone().prop_map(|e| format!("-{e}%")),
            2 => (inner.clone(), inner.clone(), proptest::option::of(inner.clone())).prop_map(|(c, a, b)| match b {
                Some(b) => format!("IF({c},{a},{b})"),
                None => format!("IF({c},{a})"),
            }),
            1 => (proptest::sample::select(&["AND", "OR"][..]), proptest::collection::vec(inner.clone(), 1..4))
                .prop_map(|(f, args)| format!("{f}({})", args.join(","))),
            1 => inner.prop_map(|e| format!("NOT({e})")),
        ]
    })
}

/// Arithmetic over cells and numbers only: the `f64` form's shapes, with
/// zero divisors, empty and non-number cells, and overflow.
fn arithmetic_formula() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        3 => (0..CELLS).prop_map(|i| format!("«{i}»")),
        2 => proptest::sample::select(&["0", "1", "2", "4", "0.1", "-3", "1e300"][..]).prop_map(String::from),
    ];
    leaf.prop_recursive(3, 16, 2, |inner| {
        prop_oneof![
            4 => (inner.clone(), proptest::sample::select(&["+", "-", "*", "/"][..]), inner.clone())
                .prop_map(|(a, op, b)| format!("({a}{op}{b})")),
            1 => inner.clone().prop_map(|e| format!("-{e}")),
            1 => inner.prop_map(|e| format!("{e}%")),
        ]
    })
}

fn kernel_sheet(cells: &[Holds], formulas: &[String], name: &str, paths: Paths) -> dataflow::testing::Sheet {
    let mut s = sheet(cells, formulas, name, paths);
    for (n, f) in NAMES {
        s.name(n, f);
    }
    s
}

/// The generator gives kernels: most of its formulas, in a cell, have one.
#[test]
fn most_generated_formulas_have_a_kernel() {
    let mut runner = TestRunner::deterministic();
    let mut with = 0;
    for _ in 0..64 {
        let f = scalar_formula().new_tree(&mut runner).expect("a formula").current();
        let mut s = kernel_sheet(&[Holds::Formula(0)], &[f], "1", Paths::ALL);
        with += s.engine_ref().program().kernel_count();
    }
    assert!(with >= 48, "{with} of 64 formulas have a kernel");
}

proptest! {
    #![proptest_config(super::config(128))]

    #[test]
    fn kernels_and_every_path_agree_at_every_iteration(
        cells in proptest::collection::vec(holds(), CELLS),
        formulas in proptest::collection::vec(scalar_formula(), 3),
        name in scalar_formula(),
        synchronous in any::<bool>(),
        changed in 0..CELLS,
    ) {
        let order = if synchronous { Order::Synchronous } else { Order::RowMajor };
        every_path_agrees(|paths| kernel_sheet(&cells, &formulas, &name, paths), order, changed)?;
    }

    #[test]
    fn arithmetic_kernels_and_every_path_agree_at_every_iteration(
        cells in proptest::collection::vec(holds(), CELLS),
        formulas in proptest::collection::vec(arithmetic_formula(), 3),
        synchronous in any::<bool>(),
        changed in 0..CELLS,
    ) {
        let order = if synchronous { Order::Synchronous } else { Order::RowMajor };
        every_path_agrees(|paths| kernel_sheet(&cells, &formulas, "1", paths), order, changed)?;
    }
}
