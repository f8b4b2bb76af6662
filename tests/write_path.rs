//! The write path of a recalculation (issue 12): storing a changed value,
//! keeping the column block summaries exact, marking the readers dirty and
//! hashing the state for the oscillation watch are done with cheaper
//! bookkeeping; these pin what that bookkeeping must keep: aggregates over
//! tall columns whose numbers move between safe integers and fractions,
//! repeats of values that only moved between cells, and which cells each
//! iteration evaluates when areas have several readers.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::policy::Order;
use dataflow::testing::Sheet;
use dataflow::value::Value;

/// A column of 130 self-referencing cells (three blocks of 64 rows), each
/// flipping between two values every iteration: fractions and safe
/// integers in turn (odd rows), two integers (rows ≡ 0 mod 4), two
/// fractions (rows ≡ 2 mod 4). SUM and COUNT over the column read the block
/// summaries, which every write must keep exact.
#[test]
fn sums_over_a_tall_column_follow_numbers_crossing_between_integers_and_fractions() {
    let mut s = Sheet::new();
    s.iterate(1, 0.0);
    let pair = |row: u32| match row {
        r if r % 2 == 1 => (0.5, 3.0),
        r if r % 4 == 0 => (4.0, 7.0),
        _ => (0.25, 0.75),
    };
    for row in 1..=130 {
        let (a, b) = pair(row);
        s.set(&format!("A{row}"), &format!("=IF(A{row}={a},{b},{a})"));
    }
    s.set("B1", "=SUM(A1:A130)");
    s.set("C1", "=COUNT(A1:A130)");
    s.set("D1", "=SUM(A2:A129)");
    for step in 0..5 {
        s.step();
        // Step 0 gives every cell its first value (empty reads as 0, not `a`).
        let value = |row: u32| if step % 2 == 0 { pair(row).0 } else { pair(row).1 };
        let sum = |rows: std::ops::RangeInclusive<u32>| rows.map(value).sum::<f64>();
        assert_eq!(s.value("B1"), Value::Number(sum(1..=130)), "step {step}");
        assert_eq!(s.value("D1"), Value::Number(sum(2..=129)), "step {step}");
        assert_eq!(s.value("C1"), Value::Number(130.0), "step {step}");
    }
}

/// Three cells passing their values round (synchronous order): every
/// iteration holds the same values in other cells, so only a hash that
/// tells cells apart (and the exact check) finds the real repeat, after
/// three iterations.
#[test]
fn values_rotating_between_cells_repeat_after_the_rotation() {
    let mut s = Sheet::new();
    s.iterate(100, 0.001);
    s.settings_mut().order = Order::Synchronous;
    s.set("A1", "=IF(ISNUMBER(C1),C1,1)");
    s.set("B1", "=IF(ISNUMBER(A1),A1,2)");
    s.set("C1", "=IF(ISNUMBER(B1),B1,3)");
    let r = s.recalc();
    assert_eq!((r.period, r.iterations, r.converged), (Some(3), 4, false));
    assert_eq!([s.value("A1"), s.value("B1"), s.value("C1")], [1.0, 2.0, 3.0].map(Value::Number));
}

/// An area read by several formulas of a cycle: after a write marks its
/// readers, calculating one of them leaves the others dirty, and the next
/// write into the area marks the calculated one again. Each iteration
/// evaluates exactly the cells whose precedents changed.
#[test]
fn cells_reading_one_area_are_evaluated_again_after_each_write_into_it() {
    let mut s = Sheet::new();
    s.iterate(1, 0.0);
    s.set("A1", "=MIN(A1+1,3)");
    s.set("B1", "=A1*2");
    s.set("C1", "=A1+B1");
    s.set("D1", "=C1+A1-C1");
    s.set("A2", "=A1+D1");
    s.set("A1", "=MIN(A2-A1+1,3)");
    let mut seen = Vec::new();
    for _ in 0..5 {
        s.step();
        seen.push((s.evaluated().join(" "), s.text("A1"), s.text("A2")));
    }
    let expected = [
        ("A1 B1 C1 D1 A2", "1", "2"),
        ("A1 B1 C1 D1 A2", "2", "4"),
        ("A1 B1 C1 D1 A2", "3", "6"),
        ("A1", "3", "6"),
        ("", "3", "6"),
    ];
    let expected: Vec<_> = expected.iter().map(|(e, a, b)| (e.to_string(), a.to_string(), b.to_string())).collect();
    assert_eq!(seen, expected);
}
