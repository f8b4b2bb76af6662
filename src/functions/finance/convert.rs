//! Conversions: EFFECT and NOMINAL between a nominal annual rate and the
//! effective rate of `npery` compoundings a year (`npery` truncated; a
//! rate not above 0 or fewer than one compounding is #NUM!), and DOLLARDE
//! and DOLLARFR between a decimal price and one written with a fraction
//! (1.02 with `fraction` 16 is 1 2/16 = 1.125): the digits after the point
//! count in units of 1/`fraction`, written with as many digits as
//! `fraction` has. A `fraction` (truncated) below 0 is #NUM!, below 1
//! #DIV/0!. Results are read to 15 significant digits, so the decimal
//! digits come out as written.

use super::finite;
use crate::functions::math::snap;
use crate::value::ErrorKind;

/// EFFECT(nominal_rate, npery).
pub fn effect(v: &[f64]) -> Result<f64, ErrorKind> {
    let (rate, n) = compounding(v)?;
    finite((1.0 + rate / n).powf(n) - 1.0)
}

/// NOMINAL(effect_rate, npery).
pub fn nominal(v: &[f64]) -> Result<f64, ErrorKind> {
    let (rate, n) = compounding(v)?;
    finite(n * ((1.0 + rate).powf(1.0 / n) - 1.0))
}

/// A rate above 0 and a count of compoundings of at least 1, truncated.
fn compounding(v: &[f64]) -> Result<(f64, f64), ErrorKind> {
    let [rate, n] = super::nums(v);
    let n = n.trunc();
    if rate <= 0.0 || n < 1.0 { Err(ErrorKind::Num) } else { Ok((rate, n)) }
}

/// DOLLARDE(fractional_dollar, fraction): 1.02, 16 is 1.125.
pub fn dollarde(v: &[f64]) -> Result<f64, ErrorKind> {
    let (x, fraction, scale) = dollar(v)?;
    finite(snap(x.trunc() + snap(x.fract()) * scale / fraction))
}

/// DOLLARFR(decimal_dollar, fraction): 1.125, 16 is 1.02.
pub fn dollarfr(v: &[f64]) -> Result<f64, ErrorKind> {
    let (x, fraction, scale) = dollar(v)?;
    finite(snap(x.trunc() + snap(x.fract()) * fraction / scale))
}

/// The price, the fraction (truncated) and 10 to the number of its digits.
fn dollar(v: &[f64]) -> Result<(f64, f64, f64), ErrorKind> {
    let [x, fraction] = super::nums(v);
    let fraction = fraction.trunc();
    if fraction < 0.0 {
        return Err(ErrorKind::Num);
    }
    if fraction < 1.0 {
        return Err(ErrorKind::Div0);
    }
    Ok((x, fraction, 10f64.powf(fraction.log10().ceil())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_both_ways() {
        assert_eq!(dollarde(&[1.02, 16.0]), Ok(1.125));
        assert_eq!(dollarfr(&[1.125, 16.0]), Ok(1.02));
        assert_eq!(dollarde(&[-1.02, 16.0]), Ok(-1.125));
        assert_eq!(dollarde(&[1.1, 32.0]), Ok(1.3125));
        assert_eq!(dollarfr(&[1.125, 32.0]), Ok(1.04));
        assert_eq!(dollarde(&[1.5, 0.5]), Err(ErrorKind::Div0));
        assert_eq!(dollarde(&[1.5, -1.0]), Err(ErrorKind::Num));
    }
}
