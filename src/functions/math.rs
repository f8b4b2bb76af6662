//! Scalar math: MOD, INT, ABS, ROUND, SQRT, POWER, COS, SIN, PI, EXP, LN.
//! Every one is lifted ([`args::lift`]) so it works element by element on
//! arrays; arguments coerce as in arithmetic (empty is 0, TRUE is 1,
//! numeric text is its number, other text #VALUE!) and the first error
//! among them is the result. NaN and infinities become #NUM!.

use super::FnSpec;
use super::args;
use crate::ast::BinaryOp;
use crate::eval::{BExpr, Eval, binary};
use crate::value::{ErrorKind, Value};

pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("MOD", 2, 2, |ev, a| binary_fn(ev, a, modulo)),
    FnSpec::new("INT", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.floor()))),
    FnSpec::new("ABS", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.abs()))),
    FnSpec::new("ROUND", 2, 2, |ev, a| binary_fn(ev, a, |x, d| Value::num(round(x, d)))),
    FnSpec::new("SQRT", 1, 1, |ev, a| unary_fn(ev, a, sqrt)),
    FnSpec::new("POWER", 2, 2, |ev, a| binary_fn(ev, a, power)),
    FnSpec::new("COS", 1, 1, |ev, a| unary_fn(ev, a, |x| trig(x, f64::cos))),
    FnSpec::new("SIN", 1, 1, |ev, a| unary_fn(ev, a, |x| trig(x, f64::sin))),
    FnSpec::new("PI", 0, 0, |_, _| Value::Number(std::f64::consts::PI)),
    FnSpec::new("EXP", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.exp()))),
    FnSpec::new("LN", 1, 1, |ev, a| unary_fn(ev, a, ln)),
];

/// A one-argument numeric function, lifted over arrays.
fn unary_fn(ev: &mut Eval, a: &[BExpr], f: fn(f64) -> Value) -> Value {
    args::lift(ev, a, |v| match v[0].to_number() {
        Ok(x) => f(x),
        Err(e) => Value::Error(e),
    })
}

/// A two-argument numeric function, lifted over arrays.
fn binary_fn(ev: &mut Eval, a: &[BExpr], f: fn(f64, f64) -> Value) -> Value {
    args::lift(ev, a, |v| match (v[0].to_number(), v[1].to_number()) {
        (Ok(x), Ok(y)) => f(x, y),
        (Err(e), _) | (_, Err(e)) => Value::Error(e),
    })
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

/// ROUND: half away from zero at `digits` decimals (truncated to an
/// integer; negative rounds left of the point), decided on the number's 15
/// significant decimal digits as Excel does, so ROUND(2.675, 2) is 2.68
/// although the double is slightly below 2.675.
pub fn round(x: f64, digits: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let digits = digits.trunc().clamp(-400.0, 400.0) as i32;
    let s = format!("{:.14e}", x.abs());
    let Some((mantissa, exp)) = s.split_once('e') else { return x };
    let Ok(exp) = exp.parse::<i32>() else { return x };
    let sig: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    // The number is 0.d1d2...d15 x 10^(exp+1); keep `keep` digits.
    let keep = exp + 1 + digits;
    if keep >= sig.len() as i32 {
        return x;
    }
    if keep < 0 {
        return 0.0;
    }
    let keep = keep as usize;
    let mut n = sig[..keep].iter().fold(0u64, |n, d| n * 10 + (d - b'0') as u64);
    if sig[keep] >= b'5' {
        n += 1;
    }
    let r: f64 = format!("{n}e{}", exp + 1 - keep as i32).parse().unwrap_or(x.abs());
    r.copysign(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding() {
        assert_eq!(round(2.5, 0.0), 3.0);
        assert_eq!(round(-2.5, 0.0), -3.0);
        assert_eq!(round(2.675, 2.0), 2.68);
        assert_eq!(round(1.005, 2.0), 1.01);
        assert_eq!(round(1234.5678, -2.0), 1200.0);
        assert_eq!(round(5.0, -1.0), 10.0);
        assert_eq!(round(4.9, -1.0), 0.0);
        assert_eq!(round(0.4, -3.0), 0.0);
        assert_eq!(round(1.23449, 3.9), 1.234);
        assert_eq!(round(0.000123456, 5.0), 0.00012);
        assert_eq!(round(1e300, -299.0), 1e300);
        assert_eq!(round(123.0, 400.0), 123.0);
        assert_eq!(round(-0.05, 1.0), -0.1);
        assert_eq!(round(999.5, 0.0), 1000.0);
    }

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
    }
}
