//! Complex numbers as Excel writes them: text such as `3+4i`, `-2.5j`,
//! `i` or `1E-3-i`, or a plain number for a real one. A number given as an
//! argument is that real number, a boolean #VALUE!, and text that is not a
//! complex number (empty text and an empty cell too) #NUM!. Results are
//! written back with the suffix of the arguments (`i` unless they use
//! `j`), each part in the general format (15 significant digits), a
//! coefficient of 1 left out (`i`, `2-i`); a part that is not finite is
//! #NUM!.

use super::number;
use crate::value::{ErrorKind, Value, format_number};

/// A complex number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct C {
    pub re: f64,
    pub im: f64,
}

impl C {
    pub const fn new(re: f64, im: f64) -> C {
        C { re, im }
    }

    pub fn add(self, o: C) -> C {
        C::new(self.re + o.re, self.im + o.im)
    }

    pub fn sub(self, o: C) -> C {
        C::new(self.re - o.re, self.im - o.im)
    }

    pub fn mul(self, o: C) -> C {
        C::new(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)
    }

    /// `self / o`; dividing by 0 is #NUM!.
    pub fn div(self, o: C) -> Result<C, ErrorKind> {
        let d = o.re * o.re + o.im * o.im;
        if d == 0.0 {
            return Err(ErrorKind::Num);
        }
        Ok(C::new((self.re * o.re + self.im * o.im) / d, (self.im * o.re - self.re * o.im) / d))
    }

    pub fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }

    pub fn arg(self) -> f64 {
        self.im.atan2(self.re)
    }

    pub fn is_zero(self) -> bool {
        self.re == 0.0 && self.im == 0.0
    }
}

/// The suffix of a complex number's text: `i` or `j`; `None` for a number
/// with no imaginary part written, which goes with either.
pub type Suffix = Option<char>;

/// A complex argument ([`parse`] for text) and the suffix it was written with.
pub fn read(v: &Value) -> Result<(C, Suffix), ErrorKind> {
    match v {
        Value::Bool(_) => Err(ErrorKind::Value),
        Value::Text(s) => parse(s),
        Value::Empty => Err(ErrorKind::Num),
        v => number(v).map(|n| (C::new(n, 0.0), None)),
    }
}

/// Complex text: `a`, `bi`, `a+bi`, `a-bi`, with `i` or `j` and `b` left
/// out when 1. Anything else, empty text too, is #NUM!.
pub fn parse(s: &str) -> Result<(C, Suffix), ErrorKind> {
    let Some(body) = s.strip_suffix(['i', 'j']) else {
        return real(s).map(|re| (C::new(re, 0.0), None));
    };
    let suffix = s.chars().last();
    // The sign that starts the imaginary part: the last + or − that is
    // neither the first character nor an exponent's.
    let bytes = body.as_bytes();
    let split =
        (1..bytes.len()).rev().find(|&k| matches!(bytes[k], b'+' | b'-') && !matches!(bytes[k - 1], b'e' | b'E'));
    let (re, im) = match split {
        Some(k) => (real(&body[..k])?, coefficient(&body[k..])?),
        None => (0.0, coefficient(body)?),
    };
    Ok((C::new(re, im), suffix))
}

/// An imaginary coefficient: a number, or a bare sign (or nothing) for ±1.
fn coefficient(s: &str) -> Result<f64, ErrorKind> {
    match s {
        "" | "+" => Ok(1.0),
        "-" => Ok(-1.0),
        s => real(s),
    }
}

/// A decimal number: digits, a point, an exponent, a leading sign.
fn real(s: &str) -> Result<f64, ErrorKind> {
    let plain = s.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    match s.parse::<f64>() {
        Ok(n) if plain && n.is_finite() && s.bytes().any(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(ErrorKind::Num),
    }
}

/// The suffix of several arguments: theirs if they agree, `i` if none has
/// one; `i` and `j` together are #VALUE!.
pub fn common(a: Suffix, b: Suffix) -> Result<Suffix, ErrorKind> {
    match (a, b) {
        (Some(x), Some(y)) if x != y => Err(ErrorKind::Value),
        (Some(x), _) | (_, Some(x)) => Ok(Some(x)),
        _ => Ok(None),
    }
}

/// `c` written as Excel writes a complex number; not finite is #NUM!.
pub fn write(c: C, suffix: Suffix) -> Value {
    if !c.re.is_finite() || !c.im.is_finite() {
        return Value::Error(ErrorKind::Num);
    }
    let i = suffix.unwrap_or('i');
    let re = format_number(c.re);
    let im = format_number(c.im);
    let coef = match im.as_str() {
        "1" => String::new(),
        "-1" => "-".into(),
        s => s.into(),
    };
    let text = match (re.as_str(), im.as_str()) {
        (_, "0") => re,
        ("0", _) => format!("{coef}{i}"),
        _ if c.im < 0.0 => format!("{re}{coef}{i}"),
        _ => format!("{re}+{coef}{i}"),
    };
    Value::text(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_excel_text() {
        assert_eq!(parse("3+4i"), Ok((C::new(3.0, 4.0), Some('i'))));
        assert_eq!(parse("-i"), Ok((C::new(0.0, -1.0), Some('i'))));
        assert_eq!(parse("2.5j"), Ok((C::new(0.0, 2.5), Some('j'))));
        assert_eq!(parse("1E-3-i"), Ok((C::new(0.001, -1.0), Some('i'))));
        assert_eq!(parse("1e+2"), Ok((C::new(100.0, 0.0), None)));
        assert_eq!(parse("3+4"), Err(ErrorKind::Num));
        assert_eq!(parse("3 + 4i"), Err(ErrorKind::Num));
        assert_eq!(parse("inf"), Err(ErrorKind::Num));
        assert_eq!(parse("i4"), Err(ErrorKind::Num));
        assert_eq!(write(C::new(3.0, 4.0), None), Value::text("3+4i"));
        assert_eq!(write(C::new(0.0, -1.0), Some('j')), Value::text("-j"));
        assert_eq!(write(C::new(2.0, 1.0), None), Value::text("2+i"));
        assert_eq!(write(C::new(0.0, 0.0), None), Value::text("0"));
        assert_eq!(write(C::new(f64::NAN, 0.0), None), Value::Error(ErrorKind::Num));
    }
}
