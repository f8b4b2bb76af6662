//! The function registry. Each category module exports one const table,
//! `FUNCTIONS`, of [`FnSpec`] entries; [`lookup`] searches them all. A
//! function receives its arguments unevaluated (so IF, IFERROR, CHOOSE and
//! LET evaluate only what they need) together with the evaluator; the shared
//! helpers in [`args`] read them with Excel's coercions.

pub mod args;
pub mod criteria;
pub mod logical;
pub mod lookup;
pub mod math;
pub mod stats;
pub mod text;

use crate::eval::{BExpr, Eval};
use crate::value::Value;
use std::fmt;

/// How a function is evaluated: unevaluated arguments in, a value out.
pub type EvalFn = fn(&mut Eval, &[BExpr]) -> Value;

/// Upper bound used for "any number of arguments" (Excel allows 255).
pub const VARIADIC: usize = 255;

/// One entry of a category table.
pub struct FnSpec {
    /// Upper-case name, as looked up.
    pub name: &'static str,
    pub min_args: usize,
    pub max_args: usize,
    pub eval: EvalFn,
}

impl fmt::Debug for FnSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)
    }
}

impl PartialEq for FnSpec {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// Every category table, searched in this order.
const TABLES: [&[FnSpec]; 5] =
    [math::FUNCTIONS, logical::FUNCTIONS, lookup::FUNCTIONS, stats::FUNCTIONS, text::FUNCTIONS];

/// The function called `name` (any case), if there is one.
pub fn lookup(name: &str) -> Option<&'static FnSpec> {
    TABLES.iter().flat_map(|t| t.iter()).find(|f| f.name.eq_ignore_ascii_case(name))
}

/// Every registered function, for documentation and tests.
pub fn all() -> impl Iterator<Item = &'static FnSpec> {
    TABLES.into_iter().flatten()
}
