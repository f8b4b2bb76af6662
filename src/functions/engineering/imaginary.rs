//! The complex-number functions: COMPLEX builds the text, IMREAL,
//! IMAGINARY, IMABS and IMARGUMENT read a number out of it, and the others
//! compute a complex result (`complex` reads and writes them). IMSUM and
//! IMPRODUCT take any number of arguments, every cell of a reference or
//! element of an array counting but empty cells; the others are
//! lifted over arrays. Powers, roots and logarithms use the principal
//! value through the polar form (the argument in (−π, π]).

use super::complex::{self, C, Suffix};
use super::number;
use crate::eval::{BExpr, Eval};
use crate::functions::args;
use crate::value::{ErrorKind, Value};

/// COMPLEX(real_num, i_num, [suffix]): `suffix` is `i` or `j` (lower
/// case; empty or omitted `i`), anything else #VALUE!.
pub fn complex(ev: &mut Eval, a: &[BExpr]) -> Value {
    let vals = args::read_or_default(ev, a, &[]);
    args::lift_values(&vals, |v| {
        let (re, im) = match (number(&v[0]), number(&v[1])) {
            (Ok(re), Ok(im)) => (re, im),
            (Err(e), _) | (_, Err(e)) => return Value::Error(e),
        };
        let suffix = match v.get(2) {
            None | Some(Value::Empty) => 'i',
            Some(Value::Error(e)) => return Value::Error(*e),
            Some(Value::Text(s)) => match &**s {
                "" | "i" => 'i',
                "j" => 'j',
                _ => return Value::Error(ErrorKind::Value),
            },
            Some(_) => return Value::Error(ErrorKind::Value),
        };
        complex::write(C::new(re, im), Some(suffix))
    })
}

/// A function of one complex number giving a number, lifted.
pub fn to_number(ev: &mut Eval, a: &[BExpr], f: fn(C) -> Result<f64, ErrorKind>) -> Value {
    args::lift(ev, a, |v| args::num_result(complex::read(&v[0]).and_then(|(c, _)| f(c))))
}

/// A function of one complex number giving one, lifted.
pub fn unary(ev: &mut Eval, a: &[BExpr], f: fn(C) -> Result<C, ErrorKind>) -> Value {
    args::lift(ev, a, |v| match complex::read(&v[0]).and_then(|(c, s)| Ok((f(c)?, s))) {
        Ok((c, s)) => complex::write(c, s),
        Err(e) => Value::Error(e),
    })
}

/// A function of two complex numbers giving one, lifted (IMSUB, IMDIV).
pub fn binary(ev: &mut Eval, a: &[BExpr], f: fn(C, C) -> Result<C, ErrorKind>) -> Value {
    args::lift(ev, a, |v| {
        let r = complex::read(&v[0]).and_then(|(x, s)| {
            let (y, t) = complex::read(&v[1])?;
            Ok((f(x, y)?, complex::common(s, t)?))
        });
        match r {
            Ok((c, s)) => complex::write(c, s),
            Err(e) => Value::Error(e),
        }
    })
}

/// IMPOWER(inumber, number): the principal power, `number` real.
pub fn impower(ev: &mut Eval, a: &[BExpr]) -> Value {
    args::lift(ev, a, |v| {
        let r = complex::read(&v[0]).and_then(|(z, s)| Ok((power(z, number(&v[1])?)?, s)));
        match r {
            Ok((c, s)) => complex::write(c, s),
            Err(e) => Value::Error(e),
        }
    })
}

/// IMSUM(inumber1, ...) and IMPRODUCT(inumber1, ...): every operand
/// folded with `f` from `init`; the first error met is the result.
pub fn fold(ev: &mut Eval, a: &[BExpr], init: C, f: fn(C, C) -> C) -> Value {
    let mut acc: Result<(C, Suffix), ErrorKind> = Ok((init, None));
    args::for_each_operand(ev, a, |v, src| {
        if src == args::Source::Range && v.is_empty() {
            return;
        }
        if let Ok((c, s)) = acc {
            acc = complex::read(v).and_then(|(x, t)| Ok((f(c, x), complex::common(s, t)?)));
        }
    });
    match acc {
        Ok((c, s)) => complex::write(c, s),
        Err(e) => Value::Error(e),
    }
}

/// The polar form's `r·e^(iθ)`.
fn polar(r: f64, theta: f64) -> C {
    C::new(r * theta.cos(), r * theta.sin())
}

/// `z` to the real power `n`: 0 to a power above 0 is 0, otherwise #NUM!.
fn power(z: C, n: f64) -> Result<C, ErrorKind> {
    if z.is_zero() {
        return if n > 0.0 { Ok(C::new(0.0, 0.0)) } else { Err(ErrorKind::Num) };
    }
    Ok(polar(z.abs().powf(n), z.arg() * n))
}

/// IMABS.
pub fn abs(z: C) -> Result<f64, ErrorKind> {
    Ok(z.abs())
}

/// IMARGUMENT: the angle in (−π, π]; of 0 #DIV/0!.
pub fn argument(z: C) -> Result<f64, ErrorKind> {
    if z.is_zero() { Err(ErrorKind::Div0) } else { Ok(z.arg()) }
}

/// IMCONJUGATE.
pub fn conjugate(z: C) -> Result<C, ErrorKind> {
    Ok(C::new(z.re, -z.im))
}

/// IMSQRT: the principal root.
pub fn sqrt(z: C) -> Result<C, ErrorKind> {
    Ok(polar(z.abs().sqrt(), z.arg() / 2.0))
}

/// IMEXP.
pub fn exp(z: C) -> Result<C, ErrorKind> {
    Ok(polar(z.re.exp(), z.im))
}

/// IMLN: the principal logarithm; of 0 #NUM!.
pub fn ln(z: C) -> Result<C, ErrorKind> {
    if z.is_zero() { Err(ErrorKind::Num) } else { Ok(C::new(z.abs().ln(), z.arg())) }
}

/// IMLOG10.
pub fn log10(z: C) -> Result<C, ErrorKind> {
    ln(z).map(|l| C::new(l.re / std::f64::consts::LN_10, l.im / std::f64::consts::LN_10))
}

/// IMLOG2.
pub fn log2(z: C) -> Result<C, ErrorKind> {
    ln(z).map(|l| C::new(l.re / std::f64::consts::LN_2, l.im / std::f64::consts::LN_2))
}

/// IMSIN: sin a·cosh b + i·cos a·sinh b.
pub fn sin(z: C) -> Result<C, ErrorKind> {
    Ok(C::new(z.re.sin() * z.im.cosh(), z.re.cos() * z.im.sinh()))
}

/// IMCOS: cos a·cosh b − i·sin a·sinh b.
pub fn cos(z: C) -> Result<C, ErrorKind> {
    Ok(C::new(z.re.cos() * z.im.cosh(), -(z.re.sin() * z.im.sinh())))
}

/// IMSINH: sinh a·cos b + i·cosh a·sin b.
pub fn sinh(z: C) -> Result<C, ErrorKind> {
    Ok(C::new(z.re.sinh() * z.im.cos(), z.re.cosh() * z.im.sin()))
}

/// IMCOSH: cosh a·cos b + i·sinh a·sin b.
pub fn cosh(z: C) -> Result<C, ErrorKind> {
    Ok(C::new(z.re.cosh() * z.im.cos(), z.re.sinh() * z.im.sin()))
}

/// IMTAN: (sin 2a + i·sinh 2b) / (cos 2a + cosh 2b), which gives
/// Microsoft's documented digits where sin/cos does not.
pub fn tan(z: C) -> Result<C, ErrorKind> {
    let scale = 1.0 / ((2.0 * z.re).cos() + (2.0 * z.im).cosh());
    Ok(C::new((2.0 * z.re).sin() * scale, (2.0 * z.im).sinh() * scale))
}

/// IMCOT: (sin 2a − i·sinh 2b) / (cosh 2b − cos 2a); of 0 not finite, so
/// #NUM!.
pub fn cot(z: C) -> Result<C, ErrorKind> {
    let scale = 1.0 / ((2.0 * z.im).cosh() - (2.0 * z.re).cos());
    Ok(C::new((2.0 * z.re).sin() * scale, -((2.0 * z.im).sinh() * scale)))
}

/// IMSEC: 2(cos a·cosh b + i·sin a·sinh b) / (cosh 2b + cos 2a).
pub fn sec(z: C) -> Result<C, ErrorKind> {
    let scale = 2.0 / ((2.0 * z.im).cosh() + (2.0 * z.re).cos());
    Ok(C::new(z.re.cos() * z.im.cosh() * scale, z.re.sin() * z.im.sinh() * scale))
}

/// IMCSC: 1/sin; of 0 #NUM!.
pub fn csc(z: C) -> Result<C, ErrorKind> {
    C::new(1.0, 0.0).div(sin(z)?)
}

/// IMSECH: 1/cosh.
pub fn sech(z: C) -> Result<C, ErrorKind> {
    C::new(1.0, 0.0).div(cosh(z)?)
}

/// IMCSCH: 1/sinh; of 0 #NUM!.
pub fn csch(z: C) -> Result<C, ErrorKind> {
    C::new(1.0, 0.0).div(sinh(z)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn principal_values() {
        assert_eq!(power(C::new(0.0, 0.0), 0.0), Err(ErrorKind::Num));
        assert_eq!(power(C::new(0.0, 0.0), 2.0), Ok(C::new(0.0, 0.0)));
        assert_eq!(argument(C::new(0.0, 0.0)), Err(ErrorKind::Div0));
        assert_eq!(ln(C::new(0.0, 0.0)), Err(ErrorKind::Num));
        assert_eq!(csc(C::new(0.0, 0.0)), Err(ErrorKind::Num));
        let r = sqrt(C::new(-4.0, 0.0)).unwrap_or(C::new(0.0, 0.0));
        assert!((r.im - 2.0).abs() < 1e-15 && r.re.abs() < 1e-15);
    }
}
