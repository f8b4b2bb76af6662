//! FIXED and DOLLAR: a number rounded (half away from zero, on its 15
//! significant digits, as ROUND does; negative decimals round left of the
//! point) and shown through the number formats TEXT uses (`format`,
//! `render`): FIXED as `#,##0.00` (`0.00` with `no_commas`), DOLLAR in the
//! en-US currency format `$#,##0.00;($#,##0.00)`. The decimals are
//! truncated; more than 127 is #VALUE!. Lifted over arrays.

use super::{Res, format, render, text_result};
use crate::eval::{BExpr, Eval};
use crate::functions::args::{lift_values, read_or_default};
use crate::functions::math::{Mode, round_to};
use crate::value::{ErrorKind, Value};

/// Most decimals FIXED and DOLLAR take.
const MAX_DECIMALS: f64 = 127.0;

/// `FIXED(number, [decimals], [no_commas])`.
pub fn fixed(ev: &mut Eval, args: &[BExpr]) -> Value {
    let vals = read_or_default(ev, args, &[None, Some(2.0), None]);
    lift_values(&vals, |v| {
        let shown = v[2].to_bool().and_then(|no_commas| {
            show(&v[0], &v[1], |digits| if no_commas { digits } else { format!("#,##{digits}") })
        });
        shown.unwrap_or_else(Value::Error)
    })
}

/// `DOLLAR(number, [decimals])`.
pub fn dollar(ev: &mut Eval, args: &[BExpr]) -> Value {
    let vals = read_or_default(ev, args, &[None, Some(2.0)]);
    lift_values(&vals, |v| {
        show(&v[0], &v[1], |digits| format!("$#,##{digits};($#,##{digits})")).unwrap_or_else(Value::Error)
    })
}

/// `x` rounded to `decimals` and shown through the format `fmt` makes of
/// its digit placeholders (`0.00`, or `0` for no decimals).
fn show(x: &Value, decimals: &Value, fmt: impl Fn(String) -> String) -> Res {
    let x = x.to_number()?;
    let d = decimals.to_number()?.trunc();
    if d > MAX_DECIMALS {
        return Err(ErrorKind::Value);
    }
    let x = round_to(x, d, Mode::HalfUp);
    let digits = match d {
        d if d >= 1.0 => format!("0.{}", "0".repeat(d as usize)),
        _ => "0".into(),
    };
    text_result(&render::number(&format::parse(&fmt(digits))?, x)?)
}
