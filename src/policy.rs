//! The cycle policy as data: whether circular references are iterated, how
//! many times, when to stop, and in which order cells are visited. Excel's
//! defaults are named constants; [`change`] is the one convergence measure.

use crate::value::Value;
use std::fmt;
use std::str::FromStr;

/// Excel's default "Maximum Iterations".
pub const DEFAULT_MAX_ITERATIONS: u32 = 100;
/// Excel's default "Maximum Change".
pub const DEFAULT_MAX_CHANGE: f64 = 0.001;

/// The order in which an iteration visits the cells of a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// Excel's: sheet by sheet, row by row (A1, B1, ..., A2, ...), each cell
    /// seeing the values already updated in this iteration (Gauss-Seidel).
    #[default]
    RowMajor,
    /// Every cell computed from the previous iteration's values (Jacobi).
    Synchronous,
}

impl Order {
    pub fn as_str(self) -> &'static str {
        match self {
            Order::RowMajor => "row-major",
            Order::Synchronous => "synchronous",
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Order {
    type Err = String;
    /// `row-major` or `synchronous` (any case; `_` may stand for `-`).
    fn from_str(s: &str) -> Result<Order, String> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "row-major" | "rowmajor" => Ok(Order::RowMajor),
            "synchronous" => Ok(Order::Synchronous),
            _ => Err(format!("unknown calculation order `{s}` (expected `row-major` or `synchronous`)")),
        }
    }
}

/// Calculation settings of a workbook (Excel's File > Options > Formulas).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CalcSettings {
    /// "Enable iterative calculation".
    pub iterate: bool,
    pub max_iterations: u32,
    pub max_change: f64,
    pub order: Order,
}

impl Default for CalcSettings {
    fn default() -> Self {
        CalcSettings {
            iterate: false,
            max_iterations: DEFAULT_MAX_ITERATIONS,
            max_change: DEFAULT_MAX_CHANGE,
            order: Order::RowMajor,
        }
    }
}

/// A maximum change as people read it: the number, or `non-numeric` when a
/// cell changed between values that are not both numbers (infinite change).
pub fn change_text(x: f64) -> String {
    if x.is_finite() { x.to_string() } else { "non-numeric".to_string() }
}

/// How much a cell changed in one iteration: the absolute difference for
/// two numbers (an empty cell counts as 0), 0 for any other value that is
/// unchanged, infinity for any other change. An iteration has converged
/// when every cell's change is strictly less than `max_change`.
#[inline(always)]
pub fn change(old: &Value, new: &Value) -> f64 {
    let as_num = |v: &Value| match v {
        Value::Number(n) => Some(*n),
        Value::Empty => Some(0.0),
        _ => None,
    };
    match (as_num(old), as_num(new)) {
        (Some(a), Some(b)) => (a - b).abs(),
        _ if old == new => 0.0,
        _ => f64::INFINITY,
    }
}
