//! The time value of money: an annuity of `nper` equal payments `pmt` at
//! `rate` per period, made at the end of each period (`type` 0) or at its
//! start (1), between a present value `pv` and a future value `fv`, tied by
//!
//! ```text
//! pv·(1+rate)^nper + pmt·(1+rate·type)·((1+rate)^nper − 1)/rate + fv = 0
//! ```
//!
//! (`pv + pmt·nper + fv = 0` at rate 0). PV, FV, PMT and NPER solve it for
//! one unknown in closed form, RATE by Newton's method (`solve`); IPMT and
//! PPMT split a payment into interest and principal, CUMIPMT and CUMPRINC
//! add them over a run of periods, ISPMT is the interest of a loan repaid
//! in equal parts of principal; PDURATION and RRI are compound growth.

use super::{due, finite, solve};
use crate::value::{ErrorKind, MAX_WORK};

/// (1+rate)^nper.
fn growth(rate: f64, nper: f64) -> f64 {
    (1.0 + rate).powf(nper)
}

/// ((1+rate)^nper − 1)/rate: the future value of payments of 1 (nper at 0).
fn annuity(rate: f64, nper: f64) -> f64 {
    if rate == 0.0 { nper } else { (growth(rate, nper) - 1.0) / rate }
}

/// The future value of `pv` and the payments.
pub(super) fn fv_of(rate: f64, nper: f64, pmt: f64, pv: f64, due: f64) -> f64 {
    -(pv * growth(rate, nper) + pmt * (1.0 + rate * due) * annuity(rate, nper))
}

/// The payment that takes `pv` to `fv`.
fn pmt_of(rate: f64, nper: f64, pv: f64, fv: f64, due: f64) -> f64 {
    -(pv * growth(rate, nper) + fv) / ((1.0 + rate * due) * annuity(rate, nper))
}

/// The interest part of payment `per` (1-based).
fn ipmt_of(rate: f64, per: f64, nper: f64, pv: f64, fv: f64, due: f64) -> f64 {
    let pmt = pmt_of(rate, nper, pv, fv, due);
    let balance = match (per == 1.0, due == 1.0) {
        (true, true) => 0.0,
        (true, false) => -pv,
        (false, true) => fv_of(rate, per - 2.0, pmt, pv, 1.0) - pmt,
        (false, false) => fv_of(rate, per - 1.0, pmt, pv, 0.0),
    };
    balance * rate
}

/// PV(rate, nper, pmt, [fv], [type]).
pub fn pv(v: &[f64]) -> Result<f64, ErrorKind> {
    let [rate, nper, pmt, fv, kind] = super::nums(v);
    let paid = pmt * (1.0 + rate * due(kind)) * annuity(rate, nper);
    finite(-(fv + paid) / growth(rate, nper))
}

/// FV(rate, nper, pmt, [pv], [type]).
pub fn fv(v: &[f64]) -> Result<f64, ErrorKind> {
    let [rate, nper, pmt, pv, kind] = super::nums(v);
    finite(fv_of(rate, nper, pmt, pv, due(kind)))
}

/// PMT(rate, nper, pv, [fv], [type]); no periods is #NUM!.
pub fn pmt(v: &[f64]) -> Result<f64, ErrorKind> {
    let [rate, nper, pv, fv, kind] = super::nums(v);
    if nper == 0.0 {
        return Err(ErrorKind::Num);
    }
    finite(pmt_of(rate, nper, pv, fv, due(kind)))
}

/// IPMT(rate, per, nper, pv, [fv], [type]); `per` outside 1 to `nper` is #NUM!.
pub fn ipmt(v: &[f64]) -> Result<f64, ErrorKind> {
    let [rate, per, nper, pv, fv, kind] = super::nums(v);
    if per < 1.0 || per > nper {
        return Err(ErrorKind::Num);
    }
    finite(ipmt_of(rate, per, nper, pv, fv, due(kind)))
}

/// PPMT(rate, per, nper, pv, [fv], [type]): the payment less its interest.
pub fn ppmt(v: &[f64]) -> Result<f64, ErrorKind> {
    let [rate, per, nper, pv, fv, kind] = super::nums(v);
    if per < 1.0 || per > nper {
        return Err(ErrorKind::Num);
    }
    let due = due(kind);
    finite(pmt_of(rate, nper, pv, fv, due) - ipmt_of(rate, per, nper, pv, fv, due))
}

/// NPER(rate, pmt, pv, [fv], [type]); #NUM! when no number of periods
/// gets there.
pub fn nper(v: &[f64]) -> Result<f64, ErrorKind> {
    let [rate, pmt, pv, fv, kind] = super::nums(v);
    if rate == 0.0 {
        return if pmt == 0.0 { Err(ErrorKind::Num) } else { finite(-(pv + fv) / pmt) };
    }
    let paid = pmt * (1.0 + rate * due(kind));
    let ratio = (paid - fv * rate) / (paid + pv * rate);
    if !(ratio > 0.0 && ratio.is_finite()) {
        return Err(ErrorKind::Num);
    }
    finite(ratio.ln() / rate.ln_1p())
}

/// RATE(nper, pmt, pv, [fv], [type], [guess]): Newton's method on the
/// annuity equation from `guess` (10%), at most 20 steps, done when a step
/// moves the rate by less than 1e-7 (Microsoft's documented limits).
pub fn rate(v: &[f64]) -> Result<f64, ErrorKind> {
    let [nper, pmt, pv, fv, kind, guess] = super::nums(v);
    let t = due(kind);
    solve::newton(guess, 20, 1e-7, |r| {
        if r == 0.0 {
            let slope = pv * nper + pmt * (t * nper + nper * (nper - 1.0) / 2.0);
            return (pv + pmt * nper + fv, slope);
        }
        let (g, a) = (growth(r, nper), annuity(r, nper));
        let dg = nper * g / (1.0 + r);
        let da = (dg * r - (g - 1.0)) / (r * r);
        (pv * g + pmt * (1.0 + r * t) * a + fv, pv * dg + pmt * (t * a + (1.0 + r * t) * da))
    })
}

/// CUMIPMT's and CUMPRINC's arguments checked, `nper`, the periods and
/// `type` truncated: #NUM! for a rate, `nper` or `pv` not above 0, periods
/// not within 1 to `nper` in order, or a type other than 0 or 1.
fn cumulative(v: &[f64]) -> Result<(f64, f64, f64, u64, u64, f64), ErrorKind> {
    let [rate, nper, pv, start, end, kind] = super::nums(v);
    let (nper, start, end, kind) = (nper.trunc(), start.trunc(), end.trunc(), kind.trunc());
    let valid = rate > 0.0 && nper > 0.0 && pv > 0.0 && start >= 1.0 && start <= end && end <= nper;
    if !valid || !(kind == 0.0 || kind == 1.0) || end - start >= MAX_WORK as f64 {
        return Err(ErrorKind::Num);
    }
    Ok((rate, nper, pv, start as u64, end as u64, kind))
}

/// CUMIPMT(rate, nper, pv, start, end, type): the interest paid from
/// period `start` to `end`.
pub fn cumipmt(v: &[f64]) -> Result<f64, ErrorKind> {
    let (rate, nper, pv, start, end, due) = cumulative(v)?;
    let sum: f64 = (start..=end).map(|p| ipmt_of(rate, p as f64, nper, pv, 0.0, due)).sum();
    finite(sum)
}

/// CUMPRINC(rate, nper, pv, start, end, type): the principal repaid from
/// period `start` to `end`.
pub fn cumprinc(v: &[f64]) -> Result<f64, ErrorKind> {
    let (rate, nper, pv, start, end, due) = cumulative(v)?;
    let pmt = pmt_of(rate, nper, pv, 0.0, due);
    let sum: f64 = (start..=end).map(|p| pmt - ipmt_of(rate, p as f64, nper, pv, 0.0, due)).sum();
    finite(sum)
}

/// ISPMT(rate, per, nper, pv): the interest of period `per` (counted from
/// 0) of a loan repaid in `nper` equal parts of principal.
pub fn ispmt(v: &[f64]) -> Result<f64, ErrorKind> {
    let [rate, per, nper, pv] = super::nums(v);
    if nper == 0.0 {
        return Err(ErrorKind::Div0);
    }
    finite(pv * rate * (per / nper - 1.0))
}

/// PDURATION(rate, pv, fv): the periods `pv` takes to grow to `fv`; every
/// argument must be above 0.
pub fn pduration(v: &[f64]) -> Result<f64, ErrorKind> {
    let [rate, pv, fv] = super::nums(v);
    if rate <= 0.0 || pv <= 0.0 || fv <= 0.0 {
        return Err(ErrorKind::Num);
    }
    finite((fv.ln() - pv.ln()) / rate.ln_1p())
}

/// RRI(nper, pv, fv): the rate per period that takes `pv` to `fv` in
/// `nper` periods; `nper` not above 0 or `pv` 0 is #NUM!.
pub fn rri(v: &[f64]) -> Result<f64, ErrorKind> {
    let [nper, pv, fv] = super::nums(v);
    if nper <= 0.0 || pv == 0.0 {
        return Err(ErrorKind::Num);
    }
    finite((fv / pv).powf(1.0 / nper) - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_equation_holds_both_ways() {
        // 48 payments of 200 repay 8000 at RATE's answer, 0.77% a month.
        let r = rate(&[48.0, -200.0, 8000.0, 0.0, 0.0, 0.1]).unwrap_or(f64::NAN);
        assert!((r - 0.007_701_472_488_246).abs() < 1e-12, "{r}");
        let p = pmt(&[r, 48.0, 8000.0, 0.0, 0.0]).unwrap_or(f64::NAN);
        assert!((p + 200.0).abs() < 1e-9, "{p}");
        assert_eq!(pv(&[0.0, 10.0, -100.0, 0.0, 0.0]), Ok(1000.0));
        assert_eq!(nper(&[0.0, 0.0, 100.0, 0.0, 0.0]), Err(ErrorKind::Num));
        assert_eq!(pmt(&[0.1, 0.0, 100.0, 0.0, 0.0]), Err(ErrorKind::Num));
    }

    #[test]
    fn interest_and_principal_add_up_to_the_payment() {
        for due in [0.0, 1.0] {
            let p = pmt(&[0.01, 12.0, 1000.0, 0.0, due]).unwrap_or(f64::NAN);
            let i = cumipmt(&[0.01, 12.0, 1000.0, 1.0, 12.0, due]).unwrap_or(f64::NAN);
            let c = cumprinc(&[0.01, 12.0, 1000.0, 1.0, 12.0, due]).unwrap_or(f64::NAN);
            assert!((c + 1000.0).abs() < 1e-9, "the principal is repaid: {c}");
            assert!((i + c - 12.0 * p).abs() < 1e-9, "{i} {c} {p}");
        }
    }
}
