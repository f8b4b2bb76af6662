//! Numbers written in other bases: BASE and DECIMAL for radixes 2 to 36
//! (DEC2HEX and the other conversions of ten-digit two's complement are
//! the engineering functions'). Non-integer numeric arguments are truncated;
//! arguments out of their range, and digits the radix does not have, are
//! #NUM!.

use crate::value::{ErrorKind, Value};

/// BASE(number, radix, [min_length]): `number` (0 to 2^53) written in
/// `radix`, padded with zeros to `min_length` (0 to 255).
pub fn base(v: &[Value]) -> Result<Value, ErrorKind> {
    let n = integer(&v[0])?;
    let radix = radix(&v[1])?;
    let width = v.get(2).map(integer).transpose()?.unwrap_or(0.0);
    if !(0.0..9_007_199_254_740_992.0).contains(&n) || !(0.0..=255.0).contains(&width) {
        return Err(ErrorKind::Num);
    }
    Ok(Value::text(&padded(digits(n as u64, radix), width as usize)))
}

/// DECIMAL(text, radix): the number `text` writes in `radix` (any case).
pub fn decimal(v: &[Value]) -> Result<Value, ErrorKind> {
    let text = v[0].to_text()?;
    let radix = radix(&v[1])?;
    if text.chars().count() > 255 {
        return Err(ErrorKind::Value);
    }
    Ok(Value::num(parse(&text, radix)?))
}

/// A numeric argument truncated to an integer.
fn integer(v: &Value) -> Result<f64, ErrorKind> {
    v.to_number().map(f64::trunc)
}

/// A radix argument: 2 to 36 after truncation.
fn radix(v: &Value) -> Result<u32, ErrorKind> {
    let r = integer(v)?;
    if (2.0..=36.0).contains(&r) { Ok(r as u32) } else { Err(ErrorKind::Num) }
}

/// `n` in `radix`, upper-case letters for digits past 9.
fn digits(mut n: u64, radix: u32) -> String {
    let mut out = Vec::new();
    loop {
        let d = (n % radix as u64) as u32;
        out.push(char::from_digit(d, radix).unwrap_or('?').to_ascii_uppercase());
        n /= radix as u64;
        if n == 0 {
            break;
        }
    }
    out.iter().rev().collect()
}

/// `s` with leading zeros up to `width` characters.
fn padded(s: String, width: usize) -> String {
    format!("{s:0>width$}")
}

/// The number the digits of `s` write in `radix` (any case); empty is 0,
/// any other character #NUM!.
fn parse(s: &str, radix: u32) -> Result<f64, ErrorKind> {
    s.chars().try_fold(0.0, |n, c| match c.to_digit(radix) {
        Some(d) => Ok(n * radix as f64 + d as f64),
        None => Err(ErrorKind::Num),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_both_ways() {
        assert_eq!(digits(0, 2), "0");
        assert_eq!(digits(255, 16), "FF");
        assert_eq!(digits(45745, 36), "ZAP");
        assert_eq!(parse("zap", 36), Ok(45745.0));
        assert_eq!(parse("", 2), Ok(0.0));
        assert_eq!(parse("12", 2), Err(ErrorKind::Num));
        assert_eq!(padded("7".into(), 3), "007");
        assert_eq!(padded("1234".into(), 3), "1234");
    }
}
