//! The cycle policy as data: whether circular references are iterated, how
//! many times, when to stop, and in which order cells are visited. Excel's
//! defaults and bounds are named constants; [`change`] is the one
//! convergence measure. The bounds are checked here and nowhere else:
//! every reader of settings (the RON `calc`, an xlsx `<calcPr>`, the
//! command line's `--max-iter` and `--max-change`, `testing::Sheet`) sets
//! them through [`CalcSettings::with_max_iterations`] and
//! [`CalcSettings::with_max_change`] and words a refusal around the
//! [`SettingError`] they give.

use crate::value::Value;
use crate::value::date::{Calendar, Clock, DateSystem};
use std::fmt;
use std::str::FromStr;

/// Excel's default "Maximum Iterations".
pub const DEFAULT_MAX_ITERATIONS: u32 = 100;
/// Excel's default "Maximum Change".
pub const DEFAULT_MAX_CHANGE: f64 = 0.001;
/// The fewest iterations a workbook may ask for.
pub const MIN_ITERATIONS: u32 = 1;
/// The most iterations a workbook may ask for: Excel's "Maximum
/// Iterations" takes 1 to 32,767.
pub const MAX_ITERATIONS_LIMIT: u32 = 32767;

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

/// Calculation settings of a workbook (Excel's File > Options > Formulas,
/// and Advanced > "Use 1904 date system"), and the clock TODAY and NOW
/// read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CalcSettings {
    /// "Enable iterative calculation".
    pub iterate: bool,
    pub max_iterations: u32,
    pub max_change: f64,
    pub order: Order,
    /// The workbook's date system. Formulas already calculated keep their
    /// values when it changes on a live engine: mark every formula dirty
    /// (`Engine::mark_all_dirty`) to recalculate them, as Excel does.
    pub date_system: DateSystem,
    /// What TODAY and NOW read: the system clock (local time), or a fixed
    /// moment for reproducible runs. Not part of the workbook: no file
    /// stores it.
    pub clock: Clock,
    /// The seed of the random numbers RAND and RANDBETWEEN draw: with one,
    /// a workbook recalculated from the same state draws the same numbers
    /// every run (reproducible runs, tests); without one (the default),
    /// each engine starts from a random seed, as Excel does.
    pub seed: Option<u64>,
}

impl Default for CalcSettings {
    fn default() -> Self {
        CalcSettings {
            iterate: false,
            max_iterations: DEFAULT_MAX_ITERATIONS,
            max_change: DEFAULT_MAX_CHANGE,
            order: Order::RowMajor,
            date_system: DateSystem::D1900,
            clock: Clock::System,
            seed: None,
        }
    }
}

/// A setting out of the range Excel allows. Its text says what the setting
/// must be (`must be between 1 and 32767`); the reader names the setting
/// and the value it was given around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingError {
    /// Maximum iterations outside [`MIN_ITERATIONS`]..=[`MAX_ITERATIONS_LIMIT`]
    /// (or, in a file, not a whole number).
    MaxIterations,
    /// A maximum change that is negative, NaN or infinite (`1e400` read
    /// as a number is infinite): convergence would mean nothing.
    MaxChange,
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::MaxIterations => write!(f, "must be between {MIN_ITERATIONS} and {MAX_ITERATIONS_LIMIT}"),
            SettingError::MaxChange => f.write_str("must be a number >= 0"),
        }
    }
}

impl std::error::Error for SettingError {}

impl CalcSettings {
    /// The calendar formulas are evaluated under: the date system and the clock.
    pub fn calendar(&self) -> Calendar {
        Calendar::new(self.date_system, self.clock)
    }

    /// These settings with `n` maximum iterations, if Excel allows it.
    pub fn with_max_iterations(self, n: u32) -> Result<CalcSettings, SettingError> {
        match n {
            MIN_ITERATIONS..=MAX_ITERATIONS_LIMIT => Ok(CalcSettings { max_iterations: n, ..self }),
            _ => Err(SettingError::MaxIterations),
        }
    }

    /// These settings with RAND and RANDBETWEEN drawing from `seed` (or
    /// from a random seed, for `None`).
    pub fn with_seed(self, seed: Option<u64>) -> CalcSettings {
        CalcSettings { seed, ..self }
    }

    /// These settings with `x` as the maximum change, if it is a finite
    /// number >= 0.
    pub fn with_max_change(self, x: f64) -> Result<CalcSettings, SettingError> {
        if x.is_finite() && x >= 0.0 {
            Ok(CalcSettings { max_change: x, ..self })
        } else {
            Err(SettingError::MaxChange)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterations_from_one_to_excels_limit() {
        let s = CalcSettings::default();
        assert_eq!(s.with_max_iterations(0), Err(SettingError::MaxIterations));
        assert_eq!(s.with_max_iterations(1).map(|s| s.max_iterations), Ok(1));
        assert_eq!(s.with_max_iterations(32767).map(|s| s.max_iterations), Ok(32767));
        assert_eq!(s.with_max_iterations(32768), Err(SettingError::MaxIterations));
        assert_eq!(s.with_max_iterations(u32::MAX), Err(SettingError::MaxIterations));
        assert_eq!(SettingError::MaxIterations.to_string(), "must be between 1 and 32767");
    }

    #[test]
    fn a_change_is_a_finite_number_at_least_zero() {
        let s = CalcSettings::default();
        for ok in [0.0, -0.0, 1e-300, 0.001, 1.0, f64::MAX] {
            assert_eq!(s.with_max_change(ok).map(|s| s.max_change), Ok(ok), "{ok}");
        }
        let read_1e400: f64 = "1e400".parse().expect("a float");
        for bad in [-1e-300, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, read_1e400] {
            assert_eq!(s.with_max_change(bad), Err(SettingError::MaxChange), "{bad}");
        }
        assert_eq!(SettingError::MaxChange.to_string(), "must be a number >= 0");
    }

    #[test]
    fn a_refused_setting_leaves_the_others() {
        let s = CalcSettings { iterate: true, order: Order::Synchronous, ..CalcSettings::default() };
        let t = s.with_max_iterations(7).and_then(|t| t.with_max_change(0.5)).expect("in range");
        assert_eq!(t, CalcSettings { max_iterations: 7, max_change: 0.5, ..s });
    }
}
