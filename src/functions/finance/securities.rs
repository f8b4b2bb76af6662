//! Bonds that pay periodic coupons: PRICE, YIELD, DURATION, MDURATION and
//! the accrued interest ACCRINT and ACCRINTM. Prices are per 100 of face
//! value, rates and yields annual; the coupon period at settlement (E, A,
//! DSC, the coupons left N) comes from `coupons`. The formulas are
//! Microsoft's, as its documented examples and the ExcelFinancialFunctions
//! library (built to match Excel) compute them: PRICE discounts by
//! (1 + yld/frequency) over k − 1 + DSC/E periods, with DSC taken as E − A;
//! with one coupon left it discounts simply. YIELD with one coupon left is
//! the closed form Microsoft gives; with more, the root of PRICE found by
//! Newton's method from 5% (at most 100 steps, as Microsoft documents, to
//! within 1e-10; not settling is #NUM!).

use super::coupons::{self, Bond, Schedule, day};
use super::{finite, solve};
use crate::functions::date::{Basis, us_30_360};
use crate::value::ErrorKind;
use crate::value::date::Day;

/// PRICE's formula for a bond at a yield.
fn price_at(bond: &Bond, rate: f64, yld: f64, redemption: f64) -> f64 {
    let f = bond.frequency as f64;
    let (e, a) = (bond.period_days(), bond.days_before());
    let dsc = e - a;
    let coupon = 100.0 * rate / f;
    let accrued = coupon * a / e;
    let n = bond.coupons;
    if n == 1 {
        return (redemption + coupon) / (1.0 + dsc / e * yld / f) - accrued;
    }
    let base = 1.0 + yld / f;
    let discount = |k: f64| base.powf(k - 1.0 + dsc / e);
    let coupons: f64 = (1..=n).map(|k| coupon / discount(k as f64)).sum();
    redemption / discount(n as f64) + coupons - accrued
}

/// PRICE(settlement, maturity, rate, yld, redemption, frequency, [basis]):
/// a rate or yield below 0, a redemption not above 0 are #NUM!.
pub fn price(v: &[f64]) -> Result<f64, ErrorKind> {
    let [settlement, maturity, rate, yld, redemption, frequency, basis] = super::nums(v);
    let bond = Bond::new(settlement, maturity, frequency, basis)?;
    if rate < 0.0 || yld < 0.0 || redemption <= 0.0 {
        return Err(ErrorKind::Num);
    }
    finite(price_at(&bond, rate, yld, redemption))
}

/// YIELD(settlement, maturity, rate, pr, redemption, frequency, [basis]):
/// a rate below 0, a price or redemption not above 0 are #NUM!.
pub fn yield_(v: &[f64]) -> Result<f64, ErrorKind> {
    let [settlement, maturity, rate, pr, redemption, frequency, basis] = super::nums(v);
    let bond = Bond::new(settlement, maturity, frequency, basis)?;
    if rate < 0.0 || pr <= 0.0 || redemption <= 0.0 {
        return Err(ErrorKind::Num);
    }
    if bond.coupons > 1 {
        return solve::newton_by_difference(0.05, 100, 1e-10, |y| price_at(&bond, rate, y, redemption) - pr);
    }
    let f = bond.frequency as f64;
    let (e, a) = (bond.period_days(), bond.days_before());
    let paid = pr / 100.0 + a / e * rate / f;
    finite((redemption / 100.0 + rate / f - paid) / paid * f * e / (e - a))
}

/// DURATION(settlement, maturity, coupon, yld, frequency, [basis]):
/// Macaulay duration in years; a coupon or yield below 0 is #NUM!.
pub fn duration(v: &[f64]) -> Result<f64, ErrorKind> {
    let [settlement, maturity, coupon, yld, frequency, basis] = super::nums(v);
    let bond = Bond::new(settlement, maturity, frequency, basis)?;
    if coupon < 0.0 || yld < 0.0 {
        return Err(ErrorKind::Num);
    }
    finite(macaulay(&bond, coupon, yld))
}

/// MDURATION: the modified duration, DURATION / (1 + yld/frequency).
pub fn mduration(v: &[f64]) -> Result<f64, ErrorKind> {
    let yld = v.get(3).copied().unwrap_or(0.0);
    let frequency = coupons::frequency(v.get(4).copied().unwrap_or(0.0))?;
    finite(duration(v)? / (1.0 + yld / frequency as f64))
}

/// The time-weighted present values of the cash flows over their sum.
fn macaulay(bond: &Bond, coupon: f64, yld: f64) -> f64 {
    let f = bond.frequency as f64;
    let (e, n) = (bond.period_days(), bond.coupons as f64);
    let x1 = (e - bond.days_before()) / e;
    let base = 1.0 + yld / f;
    let last = x1 + n - 1.0;
    let (mut weighted, mut total) = (last * 100.0 / base.powf(last), 100.0 / base.powf(last));
    for k in 1..=bond.coupons {
        let t = k as f64 - 1.0 + x1;
        let flow = 100.0 * coupon / f / base.powf(t);
        weighted += flow * t;
        total += flow;
    }
    weighted / total / f
}

/// ACCRINTM(issue, settlement, rate, par, [basis]): interest accrued to
/// maturity (settlement), par × rate × YEARFRAC; a rate or par not above 0,
/// or issue not before settlement, is #NUM!.
pub fn accrintm(v: &[f64]) -> Result<f64, ErrorKind> {
    let [issue, settlement, rate, par, basis] = super::nums(v);
    let (issue, settlement, basis) = (day(issue)?, day(settlement)?, Basis::from_number(basis)?);
    if issue >= settlement || rate <= 0.0 || par <= 0.0 {
        return Err(ErrorKind::Num);
    }
    finite(par * rate * basis.days(issue, settlement) as f64 / basis.year(issue, settlement))
}

/// ACCRINT(issue, first_interest, settlement, rate, par, frequency,
/// [basis], [calc_method]): interest accrued from issue (or, with
/// `calc_method` FALSE and settlement after the first interest date, from
/// the coupon period before it) to settlement, summed period by period
/// over the schedule through `first_interest`: whole periods count 1
/// (with `calc_method` FALSE, 0), the partial ones their days over the
/// period's length (Excel's algorithm, as the ExcelFinancialFunctions
/// library reproduces it). Issue not before settlement, a rate or par not
/// above 0 are #NUM!.
pub fn accrint(v: &[f64]) -> Result<f64, ErrorKind> {
    let [issue, first, settlement, rate, par, frequency, basis, method] = super::nums(v);
    let (issue, first, settlement) = (day(issue)?, day(first)?, day(settlement)?);
    let (frequency, basis) = (coupons::frequency(frequency)?, Basis::from_number(basis)?);
    if issue >= settlement || rate <= 0.0 || par <= 0.0 {
        return Err(ErrorKind::Num);
    }
    let whole = if method != 0.0 { 1.0 } else { 0.0 };
    let schedule = Schedule::new(first, frequency);
    let f = frequency as f64;
    // The coupon date the walk back to issue starts from, and its period.
    let (start, k) = if settlement > first && whole == 1.0 {
        let k = schedule.on_or_after(settlement);
        (schedule.date(k), k)
    } else {
        (schedule.date(1), 1)
    };
    let length = |from: Day, to: Day| coupons::period_length(basis, frequency, from, to);
    // Its length: the period from `start` before the first interest date,
    // the one up to `start` after it.
    let first_length = if k == 1 { length(start, first) } else { length(schedule.date(k + 1), start) };
    let mut periods = basis.days(issue.max(start), settlement) as f64 / first_length;
    let mut j = k;
    while schedule.date(j) > issue {
        let (from, to) = (schedule.date(j + 1), schedule.date(j));
        periods += if issue <= from { whole } else { partial(basis, issue, from, to, f) };
        j += 1;
    }
    finite(par * rate / f * periods)
}

/// The part of the coupon period `from`–`to` after `issue`, in periods.
fn partial(basis: Basis, issue: Day, from: Day, to: Day, f: f64) -> f64 {
    let (days, length) = match basis {
        Basis::Us30360 => (us_30_360(issue, to, false), us_30_360(from, to, true) as f64),
        Basis::Actual365 => (basis.days(issue, to), 365.0 / f),
        Basis::Actual360 => (basis.days(issue, to), us_30_360(from, to, false) as f64),
        _ => (basis.days(issue, to), basis.days(from, to) as f64),
    };
    days as f64 / length
}
