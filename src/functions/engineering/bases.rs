//! Conversions between binary, octal, decimal and hexadecimal, as Excel
//! writes them: at most ten digits, a negative number in two's complement
//! over all ten (the top bit of the tenth digit is the sign), so binary
//! holds −512 to 511, octal −2^29 to 2^29−1 and hexadecimal −2^39 to
//! 2^39−1; a value outside the target's range is #NUM!.
//!
//! A binary, octal or hexadecimal `number` is read as text (a number as
//! the general format writes it: `BIN2DEC(1100100)` is 100): more than ten
//! characters, or one that is not a digit of the base (any case), is
//! #NUM!; empty text is 0. A decimal `number` is a number ([`number`],
//! truncated toward zero). `places` pads a non-negative result with zeros
//! to that many digits (truncated; below 0 or above 10, or fewer than the
//! result needs, #NUM!); a negative result is always ten digits. Omitted,
//! `places` is the digits needed; an empty cell is 0, so #NUM!.

use super::number;
use crate::eval::{BExpr, Eval};
use crate::functions::args;
use crate::value::{ErrorKind, Value, format_number};

/// A base a number is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Radix {
    Bin,
    Oct,
    Dec,
    Hex,
}

impl Radix {
    fn base(self) -> u32 {
        match self {
            Radix::Bin => 2,
            Radix::Oct => 8,
            Radix::Dec => 10,
            Radix::Hex => 16,
        }
    }

    /// The base to the tenth: the span of ten digits (two's complement).
    fn span(self) -> i64 {
        i64::from(self.base()).pow(10)
    }
}

/// FROM2TO(number, [places]), element by element over arrays.
pub fn convert(ev: &mut Eval, a: &[BExpr], from: Radix, to: Radix) -> Value {
    // An omitted `places` (`DEC2BIN(9,)`) is absent, not 0.
    let n = if args::given(a, 1).is_some() { 2 } else { 1 };
    let vals: Vec<Value> = a.iter().take(n).map(|e| ev.read(e)).collect();
    args::lift_values(&vals, |v| {
        let places = match v.get(1).map(places).transpose() {
            Ok(p) => p,
            Err(e) => return Value::Error(e),
        };
        match read(&v[0], from).and_then(|n| write(n, to, places)) {
            Ok(v) => v,
            Err(e) => Value::Error(e),
        }
    })
}

/// `places`: a number truncated, from 0 to 10 (else #NUM!).
fn places(v: &Value) -> Result<usize, ErrorKind> {
    let p = number(v)?.trunc();
    if (0.0..=10.0).contains(&p) { Ok(p as usize) } else { Err(ErrorKind::Num) }
}

/// The value of `number` written in `radix`.
fn read(v: &Value, radix: Radix) -> Result<i64, ErrorKind> {
    if radix == Radix::Dec {
        let n = number(v)?.trunc();
        // Beyond ±2^53 no target holds it; the check keeps the cast exact.
        return if n.abs() < 9.0e15 { Ok(n as i64) } else { Err(ErrorKind::Num) };
    }
    let text = match v {
        Value::Bool(_) => return Err(ErrorKind::Value),
        Value::Number(n) => format_number(*n).into(),
        v => v.to_text()?,
    };
    parse(&text, radix)
}

/// Ten digits at most of `radix`, the tenth's top bit the sign.
pub fn parse(text: &str, radix: Radix) -> Result<i64, ErrorKind> {
    if text.chars().count() > 10 {
        return Err(ErrorKind::Num);
    }
    let mut n: i64 = 0;
    for c in text.chars() {
        let d = c.to_digit(radix.base()).ok_or(ErrorKind::Num)?;
        n = n * i64::from(radix.base()) + i64::from(d);
    }
    let span = radix.span();
    Ok(if n >= span / 2 { n - span } else { n })
}

/// `n` written in `radix`: a number for decimal, else text (upper case),
/// padded to `places`.
fn write(n: i64, radix: Radix, places: Option<usize>) -> Result<Value, ErrorKind> {
    if radix == Radix::Dec {
        return Ok(Value::Number(n as f64));
    }
    let span = radix.span();
    if n < -span / 2 || n >= span / 2 {
        return Err(ErrorKind::Num);
    }
    if n < 0 {
        return Ok(Value::text(&digits(n + span, radix)));
    }
    let s = digits(n, radix);
    match places {
        None => Ok(Value::text(&s)),
        Some(p) if p < s.len() => Err(ErrorKind::Num),
        Some(p) => Ok(Value::text(&format!("{s:0>p$}"))),
    }
}

/// The digits of `n` ≥ 0 in `radix`, upper case.
fn digits(n: i64, radix: Radix) -> String {
    match radix {
        Radix::Bin => format!("{n:b}"),
        Radix::Oct => format!("{n:o}"),
        Radix::Dec => format!("{n}"),
        Radix::Hex => format!("{n:X}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_digits_in_twos_complement() {
        assert_eq!(parse("1111111111", Radix::Bin), Ok(-1));
        assert_eq!(parse("0111111111", Radix::Bin), Ok(511));
        assert_eq!(parse("ffffffff5b", Radix::Hex), Ok(-165));
        assert_eq!(parse("", Radix::Oct), Ok(0));
        assert_eq!(parse("12", Radix::Bin), Err(ErrorKind::Num));
        assert_eq!(parse("00000000001", Radix::Bin), Err(ErrorKind::Num));
        assert_eq!(write(-512, Radix::Bin, Some(2)), Ok(Value::text("1000000000")));
        assert_eq!(write(512, Radix::Bin, None), Err(ErrorKind::Num));
        assert_eq!(write(251, Radix::Hex, Some(4)), Ok(Value::text("00FB")));
        assert_eq!(write(64, Radix::Hex, Some(1)), Err(ErrorKind::Num));
    }
}
