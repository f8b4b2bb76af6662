//! The elementary functions on one number: roots and logarithms (SQRT,
//! SQRTPI, LN, LOG, LOG10), the circular functions and their inverses
//! (SIN, COS, TAN, SEC, CSC, COT, ASIN, ACOS, ATAN, ATAN2, ACOT), the
//! hyperbolic ones (SINH, COSH, TANH, SECH, CSCH, COTH, ASINH, ACOSH,
//! ATANH, ACOTH), DEGREES and RADIANS. Outside a function's domain the
//! result is #NUM!, at a pole #DIV/0!, as Excel gives them; Excel refuses
//! circular (and SECH, CSCH, COTH) arguments of 2^27 and beyond (#NUM!).

use crate::value::{ErrorKind, Value};
use std::f64::consts::{FRAC_PI_2, PI};

/// The magnitude from which Excel refuses a trigonometric argument: 2^27.
const TRIG_LIMIT: f64 = 134_217_728.0;

const NUM: Value = Value::Error(ErrorKind::Num);
const DIV0: Value = Value::Error(ErrorKind::Div0);

pub fn sqrt(x: f64) -> Value {
    if x < 0.0 { NUM } else { Value::num(x.sqrt()) }
}

/// SQRTPI: √(x·π).
pub fn sqrtpi(x: f64) -> Value {
    sqrt(x * PI)
}

pub fn ln(x: f64) -> Value {
    if x <= 0.0 { NUM } else { Value::num(x.ln()) }
}

pub fn log10(x: f64) -> Value {
    if x <= 0.0 { NUM } else { Value::num(x.log10()) }
}

/// LOG(x, base): base 10 and 2 exactly; a base of 1 is #DIV/0!.
pub fn log(x: f64, base: f64) -> Value {
    if x <= 0.0 || base <= 0.0 {
        NUM
    } else if base == 1.0 {
        DIV0
    } else if base == 10.0 {
        log10(x)
    } else if base == 2.0 {
        Value::num(x.log2())
    } else {
        Value::num(x.ln() / base.ln())
    }
}

/// A circular function of `x`, refused from 2^27.
pub fn trig(x: f64, f: impl Fn(f64) -> f64) -> Value {
    if x.abs() >= TRIG_LIMIT { NUM } else { Value::num(f(x)) }
}

/// A reciprocal function (CSC, COT, CSCH, COTH): #DIV/0! at 0, refused
/// from 2^27.
fn reciprocal(x: f64, f: fn(f64) -> f64) -> Value {
    if x == 0.0 { DIV0 } else { trig(x, |x| 1.0 / f(x)) }
}

pub fn sec(x: f64) -> Value {
    trig(x, |x| 1.0 / x.cos())
}

pub fn csc(x: f64) -> Value {
    reciprocal(x, f64::sin)
}

pub fn cot(x: f64) -> Value {
    reciprocal(x, f64::tan)
}

pub fn sech(x: f64) -> Value {
    trig(x, |x| 1.0 / x.cosh())
}

pub fn csch(x: f64) -> Value {
    reciprocal(x, f64::sinh)
}

pub fn coth(x: f64) -> Value {
    reciprocal(x, f64::tanh)
}

/// ASIN and ACOS: defined from −1 to 1.
pub fn arc(x: f64, f: fn(f64) -> f64) -> Value {
    if x.abs() > 1.0 { NUM } else { Value::num(f(x)) }
}

/// ATAN2(x, y): the angle of the point (x, y); the origin is #DIV/0!.
pub fn atan2(x: f64, y: f64) -> Value {
    if x == 0.0 && y == 0.0 { DIV0 } else { Value::num(y.atan2(x)) }
}

/// ACOT: from 0 to π.
pub fn acot(x: f64) -> Value {
    Value::num(FRAC_PI_2 - x.atan())
}

/// ACOSH: from 1.
pub fn acosh(x: f64) -> Value {
    if x < 1.0 { NUM } else { Value::num(x.acosh()) }
}

/// ATANH: strictly between −1 and 1.
pub fn atanh(x: f64) -> Value {
    if x.abs() >= 1.0 { NUM } else { Value::num(x.atanh()) }
}

/// ACOTH: outside −1 to 1.
pub fn acoth(x: f64) -> Value {
    if x.abs() <= 1.0 { NUM } else { Value::num(0.5 * ((x + 1.0) / (x - 1.0)).ln()) }
}

pub fn degrees(x: f64) -> Value {
    Value::num(x * 180.0 / PI)
}

pub fn radians(x: f64) -> Value {
    Value::num(x * PI / 180.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Value::Number as N;

    #[test]
    fn domains_and_poles() {
        assert_eq!(log(8.0, 2.0), N(3.0));
        assert_eq!(log(100.0, 10.0), N(2.0));
        assert_eq!(log(8.0, 1.0), DIV0);
        assert_eq!(log(0.0, 2.0), NUM);
        assert_eq!(cot(0.0), DIV0);
        assert_eq!(sec(TRIG_LIMIT), NUM);
        assert_eq!(arc(1.5, f64::asin), NUM);
        assert_eq!(atan2(0.0, 0.0), DIV0);
        assert_eq!(acoth(1.0), NUM);
        assert_eq!(atanh(-1.0), NUM);
        assert_eq!(acosh(0.5), NUM);
        assert_eq!(degrees(PI), N(180.0));
        assert_eq!(sech(1000.0), N(0.0), "cosh overflows to infinity: 1/∞ is 0");
    }
}
