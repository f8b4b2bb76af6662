//! Helpers for the tests that drive the in-memory [`Sheet`]: numbers to
//! compare with (`n(2.0)`) and a sheet built from a list of cells and
//! recalculated. Plain `formula -> value` checks belong in the corpus,
//! `tests/formulas/*.txt`.

use dataflow::testing::Sheet;
use dataflow::value::Value;

pub fn n(x: f64) -> Value {
    Value::Number(x)
}

/// A sheet with the given cells (as typed: `"1"`, `"=B1*2"`, `"abc"`), recalculated.
pub fn sheet(cells: &[(&str, &str)]) -> Sheet {
    let mut s = Sheet::new();
    for (cell, input) in cells {
        s.set(cell, input);
    }
    s.recalc();
    s
}
