//! Math: MOD, INT, ABS, SIGN, QUOTIENT, SQRT, POWER, COS, SIN, PI, EXP,
//! LN; the rounding family ROUND, ROUNDUP, ROUNDDOWN, TRUNC, CEILING,
//! FLOOR, EVEN, ODD (`rounding`); the aggregates PRODUCT and SUMSQ; and
//! the base conversions BASE, DECIMAL, DEC2HEX, HEX2DEC (`radix`); and the
//! array functions MMULT, TRANSPOSE and SEQUENCE (`matrix`).
//! Scalar functions are lifted ([`args::lift`]) so they work element by
//! element on arrays; arguments coerce as in arithmetic (empty is 0, TRUE
//! is 1, numeric text is its number, other text #VALUE!) and the first
//! error among them is the result. NaN and infinities become #NUM!.
//! PRODUCT and SUMSQ walk their arguments as SUM does
//! ([`args::fold_numbers`]).

mod matrix;
mod radix;
mod rounding;

use super::Excel::{V2013, V2021};
use super::args;
use super::{Arg, FnSpec, VARIADIC};
use crate::ast::BinaryOp;
use crate::eval::{BExpr, Eval, binary};
use crate::value::{ErrorKind, Value};
use rounding::{Mode, round_to, to_multiple};

pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("MOD", 2, 2, |ev, a| binary_fn(ev, a, modulo)),
    FnSpec::new("INT", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.floor()))),
    FnSpec::new("ABS", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.abs()))),
    FnSpec::new("ROUND", 2, 2, |ev, a| binary_fn(ev, a, |x, d| Value::num(round_to(x, d, Mode::HalfUp)))),
    FnSpec::new("SQRT", 1, 1, |ev, a| unary_fn(ev, a, sqrt)),
    FnSpec::new("POWER", 2, 2, |ev, a| binary_fn(ev, a, power)),
    FnSpec::new("COS", 1, 1, |ev, a| unary_fn(ev, a, |x| trig(x, f64::cos))),
    FnSpec::new("SIN", 1, 1, |ev, a| unary_fn(ev, a, |x| trig(x, f64::sin))),
    FnSpec::new("PI", 0, 0, |_, _| Value::Number(std::f64::consts::PI)),
    FnSpec::new("EXP", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.exp()))),
    FnSpec::new("LN", 1, 1, |ev, a| unary_fn(ev, a, ln)),
    FnSpec::new("PRODUCT", 1, VARIADIC, product),
    FnSpec::new("SUMSQ", 1, VARIADIC, |ev, a| args::num_result(args::fold_numbers(ev, a, 0.0, |s, n| s + n * n))),
    FnSpec::new("QUOTIENT", 2, 2, |ev, a| binary_fn(ev, a, quotient)),
    FnSpec::new("SIGN", 1, 1, |ev, a| unary_fn(ev, a, sign)),
    FnSpec::new("TRUNC", 1, 2, |ev, a| binary_fn(ev, a, |x, d| Value::num(round_to(x, d, Mode::Down)))),
    FnSpec::new("ROUNDUP", 2, 2, |ev, a| binary_fn(ev, a, |x, d| Value::num(round_to(x, d, Mode::Up)))),
    FnSpec::new("ROUNDDOWN", 2, 2, |ev, a| binary_fn(ev, a, |x, d| Value::num(round_to(x, d, Mode::Down)))),
    FnSpec::new("CEILING", 2, 2, |ev, a| binary_fn(ev, a, |x, s| to_multiple(x, s, f64::ceil, Value::Number(0.0))))
        .openformula("COM.MICROSOFT.CEILING"),
    FnSpec::new("FLOOR", 2, 2, |ev, a| {
        binary_fn(ev, a, |x, s| to_multiple(x, s, f64::floor, Value::Error(ErrorKind::Div0)))
    })
    .openformula("COM.MICROSOFT.FLOOR"),
    FnSpec::new("EVEN", 1, 1, |ev, a| unary_fn(ev, a, rounding::even)),
    FnSpec::new("ODD", 1, 1, |ev, a| unary_fn(ev, a, rounding::odd)),
    FnSpec::new("BASE", 2, 3, |ev, a| lift_fallible(ev, a, radix::base)).since(V2013),
    FnSpec::new("DECIMAL", 2, 2, |ev, a| lift_fallible(ev, a, radix::decimal)).since(V2013),
    FnSpec::new("DEC2HEX", 1, 2, |ev, a| lift_fallible(ev, a, radix::dec2hex)),
    FnSpec::new("HEX2DEC", 1, 1, |ev, a| lift_fallible(ev, a, radix::hex2dec)),
    FnSpec::new("MMULT", 2, 2, matrix::mmult).args(&[Arg::Array]),
    FnSpec::new("TRANSPOSE", 1, 1, matrix::transpose).args(&[Arg::Array]),
    FnSpec::new("SEQUENCE", 1, 4, matrix::sequence)
        .since(V2021)
        .openformula("COM.MICROSOFT.SEQUENCE")
        .not_in_libreoffice(),
];

/// A one-argument numeric function, lifted over arrays.
fn unary_fn(ev: &mut Eval, a: &[BExpr], f: fn(f64) -> Value) -> Value {
    args::lift(ev, a, |v| match v[0].to_number() {
        Ok(x) => f(x),
        Err(e) => Value::Error(e),
    })
}

/// A two-argument numeric function, lifted over arrays; an omitted
/// optional second argument is 0 (TRUNC's digits).
fn binary_fn(ev: &mut Eval, a: &[BExpr], f: fn(f64, f64) -> Value) -> Value {
    args::lift(ev, a, |v| match (v[0].to_number(), v.get(1).map_or(Ok(0.0), Value::to_number)) {
        (Ok(x), Ok(y)) => f(x, y),
        (Err(e), _) | (_, Err(e)) => Value::Error(e),
    })
}

/// A function of values that may fail, lifted over arrays.
fn lift_fallible(ev: &mut Eval, a: &[BExpr], f: fn(&[Value]) -> Result<Value, ErrorKind>) -> Value {
    args::lift(ev, a, |v| f(v).unwrap_or_else(Value::Error))
}

/// PRODUCT: the product of the numbers SUM would add; 0 when there is none.
fn product(ev: &mut Eval, a: &[BExpr]) -> Value {
    let p = args::fold_numbers(ev, a, None, |p: Option<f64>, n| Some(p.map_or(n, |p| p * n)));
    args::num_result(p.map(|p| p.unwrap_or(0.0)))
}

/// QUOTIENT: the integer part of x / d, read to 15 digits; d = 0 is #DIV/0!.
fn quotient(x: f64, d: f64) -> Value {
    if d == 0.0 {
        return Value::Error(ErrorKind::Div0);
    }
    Value::num(round_to(x / d, 0.0, Mode::Down))
}

/// SIGN: 1, -1 or 0.
fn sign(x: f64) -> Value {
    Value::Number(if x == 0.0 { 0.0 } else { x.signum() })
}

/// MOD: the remainder takes the divisor's sign; MOD(x, 0) is #DIV/0!.
fn modulo(x: f64, d: f64) -> Value {
    if d == 0.0 {
        return Value::Error(ErrorKind::Div0);
    }
    let r = x % d;
    Value::num(if r != 0.0 && (r < 0.0) != (d < 0.0) { r + d } else { r })
}

fn sqrt(x: f64) -> Value {
    if x < 0.0 { Value::Error(ErrorKind::Num) } else { Value::num(x.sqrt()) }
}

fn ln(x: f64) -> Value {
    if x <= 0.0 { Value::Error(ErrorKind::Num) } else { Value::num(x.ln()) }
}

/// POWER is the `^` operator (0^0 #NUM!, 0^-1 #DIV/0!, (-8)^(1/3) #NUM!).
fn power(x: f64, y: f64) -> Value {
    binary(BinaryOp::Pow, Value::Number(x), Value::Number(y))
}

/// SIN and COS: Excel refuses arguments of 2^27 and beyond (#NUM!).
fn trig(x: f64, f: fn(f64) -> f64) -> Value {
    if x.abs() >= 134_217_728.0 { Value::Error(ErrorKind::Num) } else { Value::num(f(x)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_rules() {
        assert_eq!(modulo(-1.0, 3.0), Value::Number(2.0));
        assert_eq!(modulo(1.0, -3.0), Value::Number(-2.0));
        assert_eq!(modulo(-4.0, -3.0), Value::Number(-1.0));
        assert_eq!(modulo(5.5, 2.0), Value::Number(1.5));
        assert_eq!(modulo(6.0, 3.0), Value::Number(0.0));
        assert_eq!(modulo(1.0, 0.0), Value::Error(ErrorKind::Div0));
        assert_eq!(sqrt(-1.0), Value::Error(ErrorKind::Num));
        assert_eq!(ln(0.0), Value::Error(ErrorKind::Num));
        assert_eq!(power(0.0, 0.0), Value::Error(ErrorKind::Num));
        assert_eq!(power(0.0, -1.0), Value::Error(ErrorKind::Div0));
        assert_eq!(power(-8.0, 1.0 / 3.0), Value::Error(ErrorKind::Num));
        assert_eq!(power(2.0, 10.0), Value::Number(1024.0));
        assert_eq!(power(10.0, 400.0), Value::Error(ErrorKind::Num));
        assert_eq!(trig(2f64.powi(27), f64::sin), Value::Error(ErrorKind::Num));
        assert_eq!(quotient(-10.0, 3.0), Value::Number(-3.0));
        assert_eq!(quotient(0.3, 0.1), Value::Number(3.0));
        assert_eq!(quotient(1.0, 0.0), Value::Error(ErrorKind::Div0));
        assert_eq!(sign(-0.5), Value::Number(-1.0));
        assert_eq!(sign(0.0), Value::Number(0.0));
    }
}
