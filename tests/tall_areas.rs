//! Areas taller than 64 rows are linked to the formula cells inside them
//! through segments of their columns (`engine/tall.rs`), so that growing
//! ranges (`SUM($A$1:A1)` filled down) cost rows · log rows edges instead
//! of rows². These spreadsheets check that a change recalculates exactly
//! what reads it, that cycles through tall areas are still cycles, that an
//! edit adding a tall area follows it, and that 20,000 cumulative sums
//! load (before, 2·10⁸ edges: 3 GB; 100,000 rows asked for 80 GB and
//! aborted).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use dataflow::session::Session;
use dataflow::testing::Sheet;
use dataflow::workbook::Workbook;
use dataflow::workbook::files::MemoryFiles;

/// Column A: `=$C$1+ROW()` but A150, `=D1`; column B the sums of A from
/// row 1 down to the row.
fn cumulative(rows: usize) -> Sheet {
    let mut s = Sheet::new();
    s.set("C1", "0");
    s.set("D1", "1000");
    for i in 1..=rows {
        s.set(&format!("A{i}"), if i == 150 { "=D1" } else { "=$C$1+ROW()" });
        s.set(&format!("B{i}"), &format!("=SUM($A$1:A{i})"));
    }
    s
}

#[test]
fn a_change_recalculates_exactly_the_sums_below_it() {
    let mut s = cumulative(300);
    s.recalc();
    let total: i64 = (1..=300).map(|i| if i == 150 { 1000 } else { i }).sum();
    assert_eq!(s.text("B300"), total.to_string());
    assert_eq!(s.text("B149"), (149 * 150 / 2).to_string());
    s.set("D1", "2000");
    s.recalc();
    let mut expected = vec!["A150".to_string()];
    expected.extend((150..=300).map(|i| format!("B{i}")));
    let mut evaluated = s.evaluated();
    evaluated.sort_by_key(|c| (c[..1].to_string(), c[1..].parse::<u32>().unwrap()));
    assert_eq!(evaluated, expected, "A150 and the sums from row 150 down, nothing above");
    assert_eq!(s.text("B300"), (total + 1000).to_string());
    // A constant inside the tall areas: C1 feeds every A but A150.
    s.set("C1", "1");
    s.recalc();
    assert_eq!(s.evaluated().len(), 299 + 300);
    assert_eq!(s.text("B300"), (total + 1000 + 299).to_string());
}

/// A formula reading a tall area that holds it is a cycle, as with a
/// short one; a tall area beside it is not.
#[test]
fn cycles_through_tall_areas_are_cycles() {
    for (rows, inside) in [(10, true), (100, true), (100, false), (5000, true)] {
        let mut s = Sheet::new();
        s.iterate(100, 0.001);
        for i in 1..=rows {
            s.set(&format!("A{i}"), "1");
        }
        let reader = if inside { format!("A{}", rows / 2) } else { "B1".to_string() };
        s.set(&reader, &format!("=SUM(A1:A{rows})/{}", rows * 2));
        let r = s.recalc();
        assert_eq!(r.iterations > 0, inside, "{rows} rows, reader {reader}: {r:?}");
    }
}

/// An edit that makes a formula read a tall area for the first time (the
/// graph followed in place) links it as a fresh load does.
#[test]
fn an_edit_adding_a_tall_area_is_followed() {
    let ron = r#"(sheets: ["Main"], cells: { "Main!A1:A500": "=ROW()", "Main!C1": 0, "Main!B1": "=C1" })"#;
    let wb = Workbook::from_memory(ron, &MemoryFiles::new(), &[]).unwrap();
    let mut s = Session::new(wb).unwrap();
    s.recalc();
    let b1 = s.area("Main!B1").unwrap();
    s.set_formula(b1, "=SUM(A1:A400)+C1").unwrap();
    s.recalc();
    let value = |s: &Session| s.engine().get(b1.top_left()).to_string();
    assert_eq!(value(&s), (400 * 401 / 2).to_string());
    let a = s.area("Main!A1:A500").unwrap();
    s.set_formula(a, "=ROW()*2").unwrap();
    s.recalc();
    assert_eq!(value(&s), (400 * 401).to_string(), "the tall area's cells changed: B1 follows");
}

/// 20,000 cumulative sums: loaded and calculated (the sums themselves
/// add 2·10⁸ cells, which is what remains quadratic).
#[test]
fn twenty_thousand_cumulative_sums_load() {
    let ron = r#"(sheets: ["Main"], cells: { "Main!A1:A20000": "=ROW()", "Main!B1:B20000": "=SUM($A$1:A1)" })"#;
    let wb = Workbook::from_memory(ron, &MemoryFiles::new(), &[]).unwrap();
    let mut s = Session::new(wb).unwrap();
    s.recalc();
    let last = s.area("Main!B20000").unwrap().top_left();
    assert_eq!(s.engine().get(last).to_string(), (20_000u64 * 20_001 / 2).to_string());
}

/// Random edits under cumulative sums (300 rows, tall from row 65): after
/// each recalculation every sum is the sum of the column above it, so no
/// write was wrongly skipped as marking readers already dirty.
#[test]
fn random_edits_keep_every_cumulative_sum_right() {
    let rows = 300;
    let mut s = Sheet::new();
    let mut e: Vec<i64> = (1..=rows as i64).collect();
    for i in 1..=rows {
        s.set(&format!("E{i}"), &e[i - 1].to_string());
        s.set(&format!("A{i}"), &format!("=E{i}*2"));
        s.set(&format!("B{i}"), &format!("=SUM($A$1:A{i})"));
    }
    s.recalc();
    let mut lcg = common::Lcg(12345);
    let mut next = |n: u64| lcg.below(n);
    for round in 0..40 {
        for _ in 0..=next(3) {
            let i = next(rows as u64) as usize;
            e[i] = next(1000) as i64 - 500;
            s.set(&format!("E{}", i + 1), &e[i].to_string());
        }
        s.recalc();
        let mut total = 0;
        for i in 1..=rows {
            total += 2 * e[i - 1];
            assert_eq!(s.text(&format!("B{i}")), total.to_string(), "round {round}, B{i}");
        }
    }
}
