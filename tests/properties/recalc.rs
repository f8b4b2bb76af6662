//! Properties of binding and recalculation on random small workbooks
//! (`workbooks.rs`): with cycles, array formulas over blocks and iteration
//! on, a recalculation never panics, makes at most the maximum number of
//! iterations and stores no NaN or infinity; on acyclic workbooks the two iteration orders and
//! iteration off all give the same values, with no cycle reported, and
//! changing a constant recalculates to what a fresh workbook gives; and
//! calculating only the formulas marked dirty gives, pass by pass, what
//! calculating every formula gives.

use super::workbooks::{CELLS, Content, cell, contents, formula, rectangle, resolve};
use dataflow::policy::Order;
use dataflow::testing::Sheet;
use dataflow::value::Value;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// A sheet holding `cells`, each formula's references resolved by `refs`
/// (given the cell number and the formula's text).
fn sheet(cells: &[Content], refs: impl Fn(usize, &str) -> String) -> Sheet {
    sheet_of(Sheet::new(), cells, refs)
}

/// [`sheet`], starting from `s` (a sheet with dynamic arrays, say).
fn sheet_of(mut s: Sheet, cells: &[Content], refs: impl Fn(usize, &str) -> String) -> Sheet {
    // RAND draws the same numbers in sheets built alike.
    s.settings_mut().seed = Some(1);
    for (i, c) in cells.iter().enumerate() {
        match c {
            Content::Empty => {}
            Content::Constant(v) => s.set(&cell(i), v),
            Content::Formula(f) => s.set(&cell(i), &format!("={}", refs(i, f))),
        }
    }
    s
}

/// References anywhere in the box: cycles welcome.
fn anywhere(text: &str) -> String {
    resolve(text, cell, |i, j| rectangle(i, j).0)
}

/// References only to cells before cell `at` in `order`: the cell itself
/// and later ones become G9 (outside the box, empty), an area holding one
/// of them its first corner alone. The workbook is then acyclic.
fn earlier(order: &[usize], at: usize, text: &str) -> String {
    let position = |c: usize| order.iter().position(|&o| o == c).expect("every cell is in the order");
    let before = |i: usize| position(i) < position(at);
    let one = |i: usize| if before(i) { cell(i) } else { "G9".to_string() };
    resolve(text, one, |i, j| {
        let (area, inside) = rectangle(i, j);
        if inside.iter().all(|&c| before(c)) { area } else { one(i) }
    })
}

/// A number that is NaN or infinite, anywhere in the value.
fn not_finite(v: &Value) -> bool {
    match v {
        Value::Number(n) => !n.is_finite(),
        Value::Array(a) => a.values().iter().any(not_finite),
        _ => false,
    }
}

fn values(s: &Sheet) -> Vec<Value> {
    (0..CELLS).map(|i| s.value(&cell(i))).collect()
}

/// A sheet of `cells` with references anywhere (cycles welcome), the
/// name `nm`, and array formulas over `blocks` (Ctrl+Shift+Enter) over
/// whatever was in their cells (a block overlapping an earlier one is left
/// out), calculated in the order asked.
fn cyclic(cells: &[Content], name: &str, blocks: &[(usize, usize, String)], synchronous: bool) -> Sheet {
    cyclic_of(Sheet::new(), cells, name, blocks, synchronous)
}

/// [`cyclic`], starting from `s`.
fn cyclic_of(s: Sheet, cells: &[Content], name: &str, blocks: &[(usize, usize, String)], synchronous: bool) -> Sheet {
    let mut s = sheet_of(s, cells, |_, f| anywhere(f));
    s.name("nm", &anywhere(name));
    let mut covered = [false; CELLS];
    for (i, j, f) in blocks {
        let (area, inside) = rectangle(*i, *j);
        if inside.iter().all(|&c| !covered[c]) {
            inside.iter().for_each(|&c| covered[c] = true);
            s.set(&area, &format!("{{={}}}", anywhere(f)));
        }
    }
    s.settings_mut().order = if synchronous { Order::Synchronous } else { Order::RowMajor };
    s
}

/// Recalculates `s` (iteration on, at most `cap` iterations) and steps it
/// once: the cap is kept and no cell holds NaN or infinity.
fn stops_within_the_cap(s: &mut Sheet, cap: u32) -> Result<(), TestCaseError> {
    let report = s.recalc();
    prop_assert!(report.iterations <= cap, "{} iterations, cap {}", report.iterations, cap);
    let report = s.step();
    prop_assert!(report.iterations <= 1, "a step made {} iterations", report.iterations);
    for (i, v) in values(s).iter().enumerate() {
        prop_assert!(!not_finite(v), "{} holds {:?}", cell(i), v);
    }
    Ok(())
}

/// Two sheets from `build`, one stepped with dirty tracking, the other
/// with every formula marked dirty before each pass: the same values after
/// each of six passes.
fn tracking_matches_full_passes(build: impl Fn() -> Sheet) -> Result<(), TestCaseError> {
    let (mut tracked, mut full) = (build(), build());
    for pass in 1..=6 {
        tracked.step();
        full.mark_all_dirty();
        full.step();
        prop_assert_eq!(values(&tracked), values(&full), "after pass {}", pass);
    }
    Ok(())
}

proptest! {
    #![proptest_config(super::config(64))]

    #[test]
    fn cycles_stop_within_the_cap_and_store_no_nan(
        cells in contents(false),
        name in formula(false),
        cap in 1u32..12,
        max_change in proptest::sample::select(&[0.0, 0.001, 1.0][..]),
        synchronous in any::<bool>(),
        blocks in proptest::collection::vec((0..CELLS, 0..CELLS, formula(false)), 0..3),
    ) {
        let mut s = cyclic(&cells, &name, &blocks, synchronous);
        s.iterate(cap, max_change);
        stops_within_the_cap(&mut s, cap)?;
    }

    /// The same with dynamic-array formulas: random formulas spill (and
    /// read spills with `#`, ANCHORARRAY) over each other, into cycles.
    #[test]
    fn spilling_cycles_stop_within_the_cap_and_store_no_nan(
        cells in contents(false),
        name in formula(false),
        cap in 1u32..12,
        synchronous in any::<bool>(),
        blocks in proptest::collection::vec((0..CELLS, 0..CELLS, formula(false)), 0..3),
    ) {
        let mut s = cyclic_of(Sheet::new().dynamic_arrays(), &cells, &name, &blocks, synchronous);
        s.iterate(cap, 0.001);
        stops_within_the_cap(&mut s, cap)?;
    }

    /// Dirty tracking with spills: what a pass calculating only what
    /// changed gives is what a pass calculating every formula gives.
    #[test]
    fn dirty_tracking_changes_no_spilled_value(
        cells in contents(true),
        name in formula(true),
        synchronous in any::<bool>(),
    ) {
        let build = || {
            let mut s = cyclic_of(Sheet::new().dynamic_arrays(), &cells, &name, &[], synchronous);
            s.iterate(100, 0.0);
            s
        };
        tracking_matches_full_passes(build)?;
    }

    #[test]
    fn dirty_tracking_changes_no_value(
        cells in contents(true),
        name in formula(true),
        synchronous in any::<bool>(),
        blocks in proptest::collection::vec((0..CELLS, 0..CELLS, formula(true)), 0..3),
    ) {
        // What a pass calculates only what changed gives what a pass
        // calculating every formula gives, pass after pass: in cycles, and
        // for array formulas over blocks that read their own block. (The
        // functions are those of `contents(true)`, references anywhere:
        // without run-time references, whose readers are marked by sheet
        // (`DepGraph::fed`), see docs/compatibility.md.)
        let build = || {
            let mut s = cyclic(&cells, &name, &blocks, synchronous);
            s.iterate(100, 0.0);
            s
        };
        tracking_matches_full_passes(build)?;
    }

    #[test]
    fn orders_agree_on_acyclic_workbooks(
        cells in contents(true),
        order in Just((0..CELLS).collect::<Vec<usize>>()).prop_shuffle(),
    ) {
        let run = |iterate: bool, ord: Order| {
            let mut s = sheet(&cells, |at, f| earlier(&order, at, f));
            s.name("nm", "2*3");
            s.settings_mut().iterate = iterate;
            s.settings_mut().order = ord;
            let report = s.recalc();
            (values(&s), report)
        };
        let (plain, report) = run(false, Order::RowMajor);
        prop_assert!(report.circular.is_empty(), "a cycle: {:?}", report.circular);
        for order in [Order::RowMajor, Order::Synchronous] {
            let (values, report) = run(true, order);
            prop_assert_eq!(report.iterations, 0, "{} iterated", order);
            prop_assert_eq!(&values, &plain, "{} differs from iteration off", order);
        }
    }

    #[test]
    fn changing_a_constant_recalculates_like_a_fresh_workbook(
        cells in contents(true),
        order in Just((0..CELLS).collect::<Vec<usize>>()).prop_shuffle(),
        changed in any::<proptest::sample::Index>(),
        new in proptest::sample::select(&["7", "-1", "0", "x", "TRUE", ""][..]),
    ) {
        // Only an empty or constant cell is set in place (a formula cell
        // would rebuild the workbook).
        let settable: Vec<usize> = (0..CELLS).filter(|&i| !matches!(cells[i], Content::Formula(_))).collect();
        if settable.is_empty() {
            return Ok(());
        }
        let changed = settable[changed.index(settable.len())];
        let mut s = sheet(&cells, |at, f| earlier(&order, at, f));
        s.name("nm", "2*3");
        s.recalc();
        s.set(&cell(changed), new);
        s.recalc();
        let mut after = cells.clone();
        after[changed] = if new.is_empty() { Content::Empty } else { Content::Constant(new.to_string()) };
        let mut fresh = sheet(&after, |at, f| earlier(&order, at, f));
        fresh.name("nm", "2*3");
        fresh.recalc();
        prop_assert_eq!(values(&s), values(&fresh), "after setting {} to {:?}", cell(changed), new);
    }
}
