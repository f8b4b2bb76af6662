//! Numbers written in other bases: BASE and DECIMAL for radixes 2 to 36,
//! DEC2HEX and HEX2DEC for hexadecimal with negative numbers as 10-digit
//! (40-bit) two's complement. Non-integer numeric arguments are truncated;
//! arguments out of their range, and digits the radix does not have, are
//! #NUM!.

use crate::value::{ErrorKind, Value};

/// DEC2HEX's range: 40-bit two's complement.
const HEX_LIMIT: f64 = 549_755_813_888.0;
/// 2^40, the modulus of DEC2HEX's two's complement.
const HEX_MODULUS: f64 = 1_099_511_627_776.0;

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

/// DEC2HEX(number, [places]): a negative number is 10 digits of two's
/// complement and ignores `places`; otherwise padded to `places` (1 to 10),
/// #NUM! when the digits do not fit.
pub fn dec2hex(v: &[Value]) -> Result<Value, ErrorKind> {
    let n = integer(&v[0])?;
    let places = v.get(1).map(integer).transpose()?;
    if !(-HEX_LIMIT..HEX_LIMIT).contains(&n) {
        return Err(ErrorKind::Num);
    }
    if n < 0.0 {
        return Ok(Value::text(&digits((n + HEX_MODULUS) as u64, 16)));
    }
    let hex = digits(n as u64, 16);
    match places {
        None => Ok(Value::text(&hex)),
        Some(p) if p > 10.0 || p < hex.len() as f64 => Err(ErrorKind::Num),
        Some(p) => Ok(Value::text(&padded(hex, p as usize))),
    }
}

/// HEX2DEC(number): up to 10 hexadecimal digits, the 40th bit the sign.
pub fn hex2dec(v: &[Value]) -> Result<Value, ErrorKind> {
    let text = v[0].to_text()?;
    if text.len() > 10 {
        return Err(ErrorKind::Num);
    }
    let n = parse(&text, 16)?;
    Ok(Value::Number(if n >= HEX_LIMIT { n - HEX_MODULUS } else { n }))
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

    fn call(f: fn(&[Value]) -> Result<Value, ErrorKind>, v: &[Value]) -> Value {
        f(v).unwrap_or_else(Value::Error)
    }

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

    #[test]
    fn hexadecimal_twos_complement() {
        let n = |x: f64| Value::Number(x);
        assert_eq!(call(dec2hex, &[n(-1.0)]), Value::text("FFFFFFFFFF"));
        assert_eq!(call(dec2hex, &[n(-549_755_813_888.0)]), Value::text("8000000000"));
        assert_eq!(call(dec2hex, &[n(549_755_813_888.0)]), Value::Error(ErrorKind::Num));
        assert_eq!(call(dec2hex, &[n(64.0), n(1.0)]), Value::Error(ErrorKind::Num));
        assert_eq!(call(dec2hex, &[n(1.0), n(11.0)]), Value::Error(ErrorKind::Num));
        assert_eq!(call(hex2dec, &[Value::text("8000000000")]), n(-549_755_813_888.0));
        assert_eq!(call(hex2dec, &[Value::text("7FFFFFFFFF")]), n(549_755_813_887.0));
        assert_eq!(call(hex2dec, &[Value::text("10000000000")]), Value::Error(ErrorKind::Num));
    }
}
