//! Engineering functions: conversions between binary, octal, decimal and
//! hexadecimal (`bases`: BIN2DEC, DEC2HEX, HEX2OCT, ... in Excel's
//! ten-digit two's complement, with `places`), and bitwise and comparison
//! functions of numbers (`bits`: BITAND, BITOR, BITXOR, BITLSHIFT,
//! BITRSHIFT, DELTA, GESTEP), and complex numbers written as text
//! (`complex` reads and writes them, `imaginary` has COMPLEX and the IM*
//! functions), the Bessel functions of integer order (`bessel`: BESSELI,
//! BESSELJ, BESSELK, BESSELY, to Excel's precision), and CONVERT between
//! units of measurement (`convert`, with its table of units).
//!
//! Every function is lifted ([`args::lift_values`]) so it works element by
//! element on arrays; the first error among its arguments is the result.
//! Numbers coerce as in arithmetic (numeric text is its number, an empty
//! cell 0) except booleans, which are #VALUE! as in Excel's Analysis
//! ToolPak functions (`number`).

mod bases;
mod bessel;
mod bits;
mod complex;
mod convert;
mod imaginary;

use super::Excel::V2013;
use super::args;
use super::distributions::special::Budget;
use super::{FnSpec, VARIADIC};
use crate::eval::{BExpr, Eval};
use crate::value::{ErrorKind, Value};
use bases::Radix::{Bin, Dec, Hex, Oct};
use complex::C;

pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("BIN2DEC", 1, 1, |ev, a| bases::convert(ev, a, Bin, Dec)),
    FnSpec::new("BIN2HEX", 1, 2, |ev, a| bases::convert(ev, a, Bin, Hex)),
    FnSpec::new("BIN2OCT", 1, 2, |ev, a| bases::convert(ev, a, Bin, Oct)),
    FnSpec::new("DEC2BIN", 1, 2, |ev, a| bases::convert(ev, a, Dec, Bin)),
    FnSpec::new("DEC2HEX", 1, 2, |ev, a| bases::convert(ev, a, Dec, Hex)),
    FnSpec::new("DEC2OCT", 1, 2, |ev, a| bases::convert(ev, a, Dec, Oct)),
    FnSpec::new("HEX2BIN", 1, 2, |ev, a| bases::convert(ev, a, Hex, Bin)),
    FnSpec::new("HEX2DEC", 1, 1, |ev, a| bases::convert(ev, a, Hex, Dec)),
    FnSpec::new("HEX2OCT", 1, 2, |ev, a| bases::convert(ev, a, Hex, Oct)),
    FnSpec::new("OCT2BIN", 1, 2, |ev, a| bases::convert(ev, a, Oct, Bin)),
    FnSpec::new("OCT2DEC", 1, 1, |ev, a| bases::convert(ev, a, Oct, Dec)),
    FnSpec::new("OCT2HEX", 1, 2, |ev, a| bases::convert(ev, a, Oct, Hex)),
    FnSpec::new("BITAND", 2, 2, |ev, a| numbers(ev, a, &[], bits::bitand)).since(V2013),
    FnSpec::new("BITOR", 2, 2, |ev, a| numbers(ev, a, &[], bits::bitor)).since(V2013),
    FnSpec::new("BITXOR", 2, 2, |ev, a| numbers(ev, a, &[], bits::bitxor)).since(V2013),
    FnSpec::new("BITLSHIFT", 2, 2, |ev, a| numbers(ev, a, &[], bits::bitlshift)).since(V2013),
    FnSpec::new("BITRSHIFT", 2, 2, |ev, a| numbers(ev, a, &[], bits::bitrshift)).since(V2013),
    FnSpec::new("DELTA", 1, 2, |ev, a| numbers(ev, a, &[None, Some(0.0)], bits::delta)),
    FnSpec::new("GESTEP", 1, 2, |ev, a| numbers(ev, a, &[None, Some(0.0)], bits::gestep)),
    FnSpec::new("COMPLEX", 2, 3, imaginary::complex),
    FnSpec::new("IMREAL", 1, 1, |ev, a| imaginary::to_number(ev, a, |z| Ok(z.re))),
    FnSpec::new("IMAGINARY", 1, 1, |ev, a| imaginary::to_number(ev, a, |z| Ok(z.im))),
    FnSpec::new("IMABS", 1, 1, |ev, a| imaginary::to_number(ev, a, imaginary::abs)),
    FnSpec::new("IMARGUMENT", 1, 1, |ev, a| imaginary::to_number(ev, a, imaginary::argument)),
    FnSpec::new("IMCONJUGATE", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::conjugate)),
    FnSpec::new("IMSUM", 1, VARIADIC, |ev, a| imaginary::fold(ev, a, C::new(0.0, 0.0), C::add)),
    FnSpec::new("IMPRODUCT", 1, VARIADIC, |ev, a| imaginary::fold(ev, a, C::new(1.0, 0.0), C::mul)),
    FnSpec::new("IMSUB", 2, 2, |ev, a| imaginary::binary(ev, a, |x, y| Ok(x.sub(y)))),
    FnSpec::new("IMDIV", 2, 2, |ev, a| imaginary::binary(ev, a, C::div)),
    FnSpec::new("IMPOWER", 2, 2, imaginary::impower),
    FnSpec::new("IMSQRT", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::sqrt)),
    FnSpec::new("IMEXP", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::exp)),
    FnSpec::new("IMLN", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::ln)),
    FnSpec::new("IMLOG10", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::log10)),
    FnSpec::new("IMLOG2", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::log2)),
    FnSpec::new("IMSIN", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::sin)),
    FnSpec::new("IMCOS", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::cos)),
    FnSpec::new("IMTAN", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::tan)).since(V2013),
    FnSpec::new("IMCOT", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::cot)).since(V2013),
    FnSpec::new("IMSEC", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::sec)).since(V2013),
    FnSpec::new("IMCSC", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::csc)).since(V2013),
    FnSpec::new("IMSINH", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::sinh)).since(V2013),
    FnSpec::new("IMCOSH", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::cosh)).since(V2013),
    FnSpec::new("IMSECH", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::sech)).since(V2013),
    FnSpec::new("IMCSCH", 1, 1, |ev, a| imaginary::unary(ev, a, imaginary::csch)).since(V2013),
    FnSpec::new("BESSELI", 2, 2, |ev, a| bessel_fn(ev, a, bessel::besseli)),
    FnSpec::new("BESSELJ", 2, 2, |ev, a| bessel_fn(ev, a, bessel::besselj)),
    FnSpec::new("BESSELK", 2, 2, |ev, a| bessel_fn(ev, a, bessel::besselk)),
    FnSpec::new("BESSELY", 2, 2, |ev, a| bessel_fn(ev, a, bessel::bessely)),
    FnSpec::new("CONVERT", 3, 3, convert::convert),
];

/// An argument read as a number the engineering functions' way: as in
/// arithmetic, but a boolean is #VALUE!.
pub(crate) fn number(v: &Value) -> Result<f64, ErrorKind> {
    match v {
        Value::Bool(_) => Err(ErrorKind::Value),
        v => v.to_number(),
    }
}

/// A function of numbers ([`number`]), lifted over arrays, an optional
/// argument that is absent or omitted taking its default
/// ([`args::read_or_default`]); a result that is not finite is #NUM!.
fn numbers(ev: &mut Eval, a: &[BExpr], defaults: &[Option<f64>], f: fn(&[f64]) -> Result<f64, ErrorKind>) -> Value {
    let vals = args::read_or_default(ev, a, defaults);
    args::lift_values(&vals, |v| {
        let mut nums = [0.0; 2];
        for (slot, x) in nums.iter_mut().zip(v) {
            match number(x) {
                Ok(n) => *slot = n,
                Err(e) => return Value::Error(e),
            }
        }
        args::num_result(f(&nums[..v.len().min(2)]))
    })
}

/// A Bessel function of (x, n): [`numbers`] within one work budget for
/// its recurrences, however large the array.
fn bessel_fn(ev: &mut Eval, a: &[BExpr], f: fn(&[f64]) -> Result<f64, ErrorKind>) -> Value {
    let _budget = Budget::start();
    numbers(ev, a, &[], f)
}
