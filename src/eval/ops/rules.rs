//! Excel's rules for the arithmetic and comparison operators on two
//! numbers, and for a comparison of two values once they are ordered: the
//! one home of these rules. The general operators (`ops::binary`), the
//! dense-array loops (`ops::dense`) and the scalar kernel
//! (`eval::kernel::scalar`) all call them; none spells a rule out again.
//!
//! Arithmetic is computed on `f64` with Excel's errors coded in the result
//! ([`arith`]): NaN is #DIV/0! and an infinity #NUM!, so that a loop over
//! a buffer of numbers needs no branch per element; [`decode`] turns a
//! coded result into the value a cell shows. Operands are always finite
//! (no value holds a NaN or an infinity), so only these rules make them.

use crate::ast::BinaryOp;
use crate::value::{ErrorKind, Value, num_eq};
use std::cmp::Ordering;

/// `x op y` for an arithmetic operator (`+ - * / ^`), errors coded: NaN is
/// #DIV/0! (`x/0`, `0^-1`), an infinity #NUM! (overflow, `0^0`, a negative
/// base to a fractional power). Any other operator gives NaN; callers pass
/// only the five.
#[inline(always)]
pub fn arith(op: BinaryOp, x: f64, y: f64) -> f64 {
    match op {
        BinaryOp::Add => x + y,
        BinaryOp::Sub => x - y,
        BinaryOp::Mul => x * y,
        BinaryOp::Div => {
            if y == 0.0 {
                f64::NAN
            } else {
                x / y
            }
        }
        BinaryOp::Pow => power_coded(x, y),
        _ => f64::NAN,
    }
}

/// `x^y` as Excel: 0^0 and a negative base with a fractional exponent
/// are #NUM!, 0 to a negative power #DIV/0! (coded as [`arith`] codes).
#[inline]
fn power_coded(x: f64, y: f64) -> f64 {
    if x == 0.0 && y == 0.0 || x < 0.0 && y.fract() != 0.0 {
        f64::INFINITY
    } else if x == 0.0 && y < 0.0 {
        f64::NAN
    } else {
        x.powf(y)
    }
}

/// What an [`arith`] result is: the number when finite, else the error it
/// codes.
#[inline(always)]
pub fn decode(x: f64) -> Result<f64, ErrorKind> {
    if x.is_finite() {
        Ok(x)
    } else if x.is_nan() {
        Err(ErrorKind::Div0)
    } else {
        Err(ErrorKind::Num)
    }
}

/// [`decode`] as a value.
#[inline(always)]
pub fn decoded(x: f64) -> Value {
    match decode(x) {
        Ok(n) => Value::Number(n),
        Err(e) => Value::Error(e),
    }
}

/// Whether comparison `op` (`= <> < > <= >=`) holds between two numbers:
/// equal to 15 significant digits is equal (`num_eq`), and so neither
/// less nor greater. Any other operator gives false.
#[inline(always)]
pub fn num_holds(op: BinaryOp, x: f64, y: f64) -> bool {
    match op {
        BinaryOp::Eq => num_eq(x, y),
        BinaryOp::Ne => !num_eq(x, y),
        BinaryOp::Lt => x < y && !num_eq(x, y),
        BinaryOp::Gt => x > y && !num_eq(x, y),
        BinaryOp::Le => x <= y || num_eq(x, y),
        BinaryOp::Ge => x >= y || num_eq(x, y),
        _ => false,
    }
}

/// Whether comparison `op` holds for two values in the order `o` (as
/// `value::compare` orders them). Any other operator gives false.
#[inline]
pub fn holds(op: BinaryOp, o: Ordering) -> bool {
    match op {
        BinaryOp::Eq => o.is_eq(),
        BinaryOp::Ne => o.is_ne(),
        BinaryOp::Lt => o.is_lt(),
        BinaryOp::Gt => o.is_gt(),
        BinaryOp::Le => o.is_le(),
        BinaryOp::Ge => o.is_ge(),
        _ => false,
    }
}

/// Whether `op` is one of the six comparisons.
#[inline(always)]
pub fn is_comparison(op: BinaryOp) -> bool {
    use BinaryOp::*;
    matches!(op, Eq | Ne | Lt | Gt | Le | Ge)
}

/// Whether `op` is one of the five arithmetic operators.
#[inline(always)]
pub fn is_arithmetic(op: BinaryOp) -> bool {
    use BinaryOp::*;
    matches!(op, Add | Sub | Mul | Div | Pow)
}

#[cfg(test)]
mod tests {
    use super::*;
    use BinaryOp::*;

    #[test]
    fn arithmetic_codes_excel_errors() {
        assert_eq!(decode(arith(Div, 1.0, 0.0)), Err(ErrorKind::Div0));
        assert_eq!(decode(arith(Pow, 0.0, 0.0)), Err(ErrorKind::Num));
        assert_eq!(decode(arith(Pow, 0.0, -1.0)), Err(ErrorKind::Div0));
        assert_eq!(decode(arith(Pow, -8.0, 1.0 / 3.0)), Err(ErrorKind::Num));
        assert_eq!(decode(arith(Pow, -2.0, 3.0)), Ok(-8.0));
        assert_eq!(decode(arith(Mul, 1e308, 10.0)), Err(ErrorKind::Num));
        assert_eq!(decode(arith(Sub, 0.3, 0.1)), Ok(0.3 - 0.1));
    }

    #[test]
    fn comparisons_round_to_fifteen_digits() {
        let (x, y) = (0.1 + 0.2, 0.3);
        assert!(num_holds(Eq, x, y) && num_holds(Le, x, y) && num_holds(Ge, x, y));
        assert!(!num_holds(Ne, x, y) && !num_holds(Lt, y, x) && !num_holds(Gt, x, y));
        assert!(num_holds(Lt, 1.0, 2.0) && num_holds(Gt, 2.0, 1.0) && num_holds(Ne, 1.0, 2.0));
        assert!(holds(Le, Ordering::Less) && !holds(Gt, Ordering::Equal) && holds(Ne, Ordering::Greater));
    }
}
