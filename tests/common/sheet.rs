//! Helpers for the tests that drive the in-memory [`Sheet`]: the values
//! they compare with (`n(2.0)`, `t("x")`, `err(ErrorKind::NA)`) and a sheet
//! built from a list of cells and recalculated.

use dataflow::sheet::Sheet;
use dataflow::value::{ErrorKind, Value};

pub fn n(x: f64) -> Value {
    Value::Number(x)
}

pub fn t(s: &str) -> Value {
    Value::text(s)
}

pub fn err(e: ErrorKind) -> Value {
    Value::Error(e)
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
