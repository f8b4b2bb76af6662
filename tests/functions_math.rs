//! Math functions where recalculation matters: COS iterated to its fixed
//! point. The plain value checks are in `tests/formulas/math.txt`.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::testing::Sheet;
use dataflow::value::Value;

#[test]
fn cos_fixed_point_by_iteration() {
    let mut s = Sheet::new();
    s.iterate(1000, 1e-12);
    s.set("A1", "=COS(A1)");
    s.recalc();
    let x = s.value("A1");
    assert!(matches!(x, Value::Number(x) if (x - 0.739_085_133_215_160_6).abs() < 1e-9), "{x:?}");
}
