//! Text functions beyond the `text` category's: HYPERLINK, which in a
//! calculation is only the text its cell shows (there is no link to
//! follow in dataflow): the friendly name when one is given, else the
//! link location, either as it is (a number stays a number, an error is
//! the result). Lifted element-wise over arrays.

use super::FnSpec;
use super::args::{given, lift};
use crate::eval::{BExpr, Eval};
use crate::value::Value;

/// The extra text category.
pub const FUNCTIONS: &[FnSpec] = &[FnSpec::new("HYPERLINK", 1, 2, hyperlink)];

/// `HYPERLINK(link_location, [friendly_name])`: what the cell shows.
fn hyperlink(ev: &mut Eval, args: &[BExpr]) -> Value {
    let shown = given(args, 1).unwrap_or(&args[0]);
    lift(ev, std::slice::from_ref(shown), |v| v[0].clone())
}
