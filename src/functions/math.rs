//! Math: MOD, INT, ABS, SIGN, QUOTIENT, POWER, PI; the elementary
//! functions (`elementary`: roots, logarithms, circular and hyperbolic
//! functions and their inverses, DEGREES, RADIANS); the rounding family
//! ROUND, ROUNDUP, ROUNDDOWN, TRUNC, CEILING, FLOOR, EVEN, ODD, MROUND and
//! the .MATH and .PRECISE multiples (`rounding`); integers and counting
//! (`combin`: GCD, LCM, FACT, COMBIN, PERMUT, ...); the aggregates PRODUCT
//! and SUMSQ, SUBTOTAL and AGGREGATE (`subtotal`); sums of pairs and
//! series (`sums`); Roman numerals (`roman`); the base conversions BASE
//! and DECIMAL (`radix`; DEC2HEX and the others are in `engineering`); the array functions MMULT,
//! TRANSPOSE, SEQUENCE, MINVERSE, MDETERM, MUNIT (`matrix`); RAND and
//! RANDBETWEEN, volatile, drawing from the engine's stream (seeded by
//! [`CalcSettings::seed`](crate::policy::CalcSettings)).
//! Scalar functions are lifted ([`args::lift`]) so they work element by
//! element on arrays; arguments coerce as in arithmetic (empty is 0, TRUE
//! is 1, numeric text is its number, other text #VALUE!) and the first
//! error among them is the result. NaN and infinities become #NUM!.
//! PRODUCT and SUMSQ walk their arguments as SUM does
//! ([`args::fold_numbers`]).

mod combin;
mod elementary;
mod matrix;
mod radix;
mod roman;
mod rounding;
mod subtotal;
mod sums;

use super::Excel::{V2010, V2013, V2021};
use super::args;
use super::{Arg, FnSpec, Intrinsic, VARIADIC};
use crate::ast::BinaryOp;
use crate::eval::{BExpr, Eval, binary};
use crate::value::{ErrorKind, Value};
use elementary as el;
pub(crate) use rounding::snap;
pub(crate) use rounding::{Mode, round_to};
use rounding::{Way, precise, to_multiple};

pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("MOD", 2, 2, |ev, a| binary_fn(ev, a, modulo)),
    FnSpec::new("INT", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.floor()))),
    FnSpec::new("ABS", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.abs()))),
    FnSpec::new("ROUND", 2, 2, |ev, a| binary_fn(ev, a, |x, d| Value::num(round_to(x, d, Mode::HalfUp)))),
    FnSpec::new("SQRT", 1, 1, |ev, a| unary_fn(ev, a, el::sqrt)),
    FnSpec::new("POWER", 2, 2, |ev, a| binary_fn(ev, a, power)),
    FnSpec::new("COS", 1, 1, |ev, a| unary_fn(ev, a, |x| el::trig(x, f64::cos))),
    FnSpec::new("SIN", 1, 1, |ev, a| unary_fn(ev, a, |x| el::trig(x, f64::sin))),
    FnSpec::new("PI", 0, 0, |_, _| Value::Number(std::f64::consts::PI)),
    FnSpec::new("EXP", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.exp()))),
    FnSpec::new("LN", 1, 1, |ev, a| unary_fn(ev, a, el::ln)),
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
    FnSpec::new("MMULT", 2, 2, matrix::mmult).args(&[Arg::Array]),
    FnSpec::new("TRANSPOSE", 1, 1, matrix::transpose).args(&[Arg::Array]),
    FnSpec::new("SEQUENCE", 1, 4, matrix::sequence)
        .since(V2021)
        .openformula("COM.MICROSOFT.SEQUENCE")
        .not_in_libreoffice(),
    // Logarithms, roots, circular and hyperbolic functions (`elementary`).
    FnSpec::new("LOG", 1, 2, |ev, a| args::lift_numbers(ev, a, &[None, Some(10.0)], |n| el::log(n[0], n[1]))),
    FnSpec::new("LOG10", 1, 1, |ev, a| unary_fn(ev, a, el::log10)),
    FnSpec::new("SQRTPI", 1, 1, |ev, a| unary_fn(ev, a, el::sqrtpi)),
    FnSpec::new("TAN", 1, 1, |ev, a| unary_fn(ev, a, |x| el::trig(x, f64::tan))),
    FnSpec::new("ASIN", 1, 1, |ev, a| unary_fn(ev, a, |x| el::arc(x, f64::asin))),
    FnSpec::new("ACOS", 1, 1, |ev, a| unary_fn(ev, a, |x| el::arc(x, f64::acos))),
    FnSpec::new("ATAN", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.atan()))),
    FnSpec::new("ATAN2", 2, 2, |ev, a| binary_fn(ev, a, el::atan2)),
    FnSpec::new("SINH", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.sinh()))),
    FnSpec::new("COSH", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.cosh()))),
    FnSpec::new("TANH", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.tanh()))),
    FnSpec::new("ASINH", 1, 1, |ev, a| unary_fn(ev, a, |x| Value::num(x.asinh()))),
    FnSpec::new("ACOSH", 1, 1, |ev, a| unary_fn(ev, a, el::acosh)),
    FnSpec::new("ATANH", 1, 1, |ev, a| unary_fn(ev, a, el::atanh)),
    FnSpec::new("SEC", 1, 1, |ev, a| unary_fn(ev, a, el::sec)).since(V2013),
    FnSpec::new("CSC", 1, 1, |ev, a| unary_fn(ev, a, el::csc)).since(V2013),
    FnSpec::new("COT", 1, 1, |ev, a| unary_fn(ev, a, el::cot)).since(V2013),
    FnSpec::new("SECH", 1, 1, |ev, a| unary_fn(ev, a, el::sech)).since(V2013),
    FnSpec::new("CSCH", 1, 1, |ev, a| unary_fn(ev, a, el::csch)).since(V2013),
    FnSpec::new("COTH", 1, 1, |ev, a| unary_fn(ev, a, el::coth)).since(V2013),
    FnSpec::new("ACOT", 1, 1, |ev, a| unary_fn(ev, a, el::acot)).since(V2013),
    FnSpec::new("ACOTH", 1, 1, |ev, a| unary_fn(ev, a, el::acoth)).since(V2013),
    FnSpec::new("DEGREES", 1, 1, |ev, a| unary_fn(ev, a, el::degrees)),
    FnSpec::new("RADIANS", 1, 1, |ev, a| unary_fn(ev, a, el::radians)),
    // Integers and counting (`combin`).
    FnSpec::new("GCD", 1, VARIADIC, combin::gcd),
    FnSpec::new("LCM", 1, VARIADIC, combin::lcm),
    FnSpec::new("FACT", 1, 1, |ev, a| unary_fn(ev, a, combin::fact)),
    FnSpec::new("FACTDOUBLE", 1, 1, |ev, a| unary_fn(ev, a, combin::factdouble)),
    FnSpec::new("COMBIN", 2, 2, |ev, a| binary_fn(ev, a, combin::combin)),
    FnSpec::new("COMBINA", 2, 2, |ev, a| binary_fn(ev, a, combin::combina)).since(V2013),
    FnSpec::new("PERMUT", 2, 2, |ev, a| binary_fn(ev, a, combin::permut)),
    FnSpec::new("PERMUTATIONA", 2, 2, |ev, a| binary_fn(ev, a, combin::permutationa)).since(V2013),
    FnSpec::new("MULTINOMIAL", 1, VARIADIC, combin::multinomial),
    // Multiples (`rounding`).
    FnSpec::new("MROUND", 2, 2, |ev, a| binary_fn(ev, a, rounding::mround)),
    FnSpec::new("CEILING.MATH", 1, 3, |ev, a| multiple(ev, a, Way::Up))
        .since(V2013)
        .openformula("COM.MICROSOFT.CEILING.MATH"),
    FnSpec::new("FLOOR.MATH", 1, 3, |ev, a| multiple(ev, a, Way::Down))
        .since(V2013)
        .openformula("COM.MICROSOFT.FLOOR.MATH"),
    FnSpec::new("CEILING.PRECISE", 1, 2, |ev, a| multiple(ev, a, Way::Up))
        .since(V2010)
        .openformula("COM.MICROSOFT.CEILING.PRECISE"),
    FnSpec::new("FLOOR.PRECISE", 1, 2, |ev, a| multiple(ev, a, Way::Down))
        .since(V2010)
        .openformula("COM.MICROSOFT.FLOOR.PRECISE"),
    // Stored without a prefix: Microsoft's list of future functions names
    // it bare.
    FnSpec::new("ISO.CEILING", 1, 2, |ev, a| multiple(ev, a, Way::Up)).openformula("COM.MICROSOFT.ISO.CEILING"),
    // Roman numerals (`roman`).
    FnSpec::new("ROMAN", 1, 2, |ev, a| lift_fallible(ev, a, roman::roman)),
    FnSpec::new("ARABIC", 1, 1, |ev, a| lift_fallible(ev, a, roman::arabic)).since(V2013),
    // Aggregates leaving out nested subtotals (`subtotal`).
    FnSpec::new("SUBTOTAL", 2, VARIADIC, subtotal::subtotal).intrinsic(Intrinsic::Subtotal),
    FnSpec::new("AGGREGATE", 3, VARIADIC, subtotal::aggregate)
        .args(&[Arg::Value, Arg::Value, Arg::Array, Arg::Value])
        .intrinsic(Intrinsic::Aggregate)
        .since(V2010)
        .openformula("COM.MICROSOFT.AGGREGATE"),
    // Random numbers: volatile, never folded.
    FnSpec::new("RAND", 0, 0, |ev, _| Value::Number(ev.random())).volatile(),
    FnSpec::new("RANDBETWEEN", 2, 2, randbetween).volatile(),
    // Sums of pairs and series (`sums`).
    FnSpec::new("SUMX2MY2", 2, 2, sums::sumx2my2).args(&[Arg::Array]),
    FnSpec::new("SUMX2PY2", 2, 2, sums::sumx2py2).args(&[Arg::Array]),
    FnSpec::new("SUMXMY2", 2, 2, sums::sumxmy2).args(&[Arg::Array]),
    FnSpec::new("SERIESSUM", 4, 4, sums::seriessum).args(&[Arg::Value, Arg::Value, Arg::Value, Arg::Array]),
    // Matrices (`matrix`).
    FnSpec::new("MINVERSE", 1, 1, matrix::minverse).args(&[Arg::Array]),
    FnSpec::new("MDETERM", 1, 1, matrix::mdeterm).args(&[Arg::Array]),
    FnSpec::new("MUNIT", 1, 1, matrix::munit).since(V2013),
];

/// CEILING.MATH, FLOOR.MATH, the .PRECISE ones and ISO.CEILING: `number`,
/// [`significance`] (1), [`mode`] (0; only the .MATH ones take it).
fn multiple(ev: &mut Eval, a: &[BExpr], way: Way) -> Value {
    args::lift_numbers(ev, a, &[None, Some(1.0), Some(0.0)], |n| precise(n[0], n[1], way, n[2] != 0.0))
}

/// RANDBETWEEN(bottom, top): an integer from ⌈bottom⌉ to ⌊top⌋, each as
/// likely; none between them is #NUM!.
fn randbetween(ev: &mut Eval, a: &[BExpr]) -> Value {
    let (bottom, top) = match (args::number(ev, &a[0]), args::number(ev, &a[1])) {
        (Ok(b), Ok(t)) => (b.ceil(), t.floor()),
        (Err(e), _) | (_, Err(e)) => return Value::Error(e),
    };
    if bottom > top {
        return Value::Error(ErrorKind::Num);
    }
    Value::num((bottom + (ev.random() * (top - bottom + 1.0)).floor()).min(top))
}

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

/// POWER is the `^` operator (0^0 #NUM!, 0^-1 #DIV/0!, (-8)^(1/3) #NUM!).
fn power(x: f64, y: f64) -> Value {
    binary(BinaryOp::Pow, Value::Number(x), Value::Number(y))
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
        assert_eq!(power(0.0, 0.0), Value::Error(ErrorKind::Num));
        assert_eq!(power(0.0, -1.0), Value::Error(ErrorKind::Div0));
        assert_eq!(power(-8.0, 1.0 / 3.0), Value::Error(ErrorKind::Num));
        assert_eq!(power(2.0, 10.0), Value::Number(1024.0));
        assert_eq!(power(10.0, 400.0), Value::Error(ErrorKind::Num));
        assert_eq!(quotient(-10.0, 3.0), Value::Number(-3.0));
        assert_eq!(quotient(0.3, 0.1), Value::Number(3.0));
        assert_eq!(quotient(1.0, 0.0), Value::Error(ErrorKind::Div0));
        assert_eq!(sign(-0.5), Value::Number(-1.0));
        assert_eq!(sign(0.0), Value::Number(0.0));
    }
}
