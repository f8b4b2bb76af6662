//! Securities without coupons before maturity: discounted ones (PRICEDISC,
//! YIELDDISC, DISC, INTRATE, RECEIVED), ones paying interest at maturity
//! (PRICEMAT, YIELDMAT) and Treasury bills (TBILLPRICE, TBILLYIELD,
//! TBILLEQ). The span from settlement to maturity is counted as YEARFRAC
//! counts it: its days by the basis (DSM) over the basis's year (B).
//! Settlement not before maturity, a bad basis, a price, redemption,
//! investment or discount not above 0 are #NUM!, as Microsoft documents.

use super::coupons::day;
use super::finite;
use crate::functions::date::Basis;
use crate::value::ErrorKind;
use crate::value::date::{self, Day};

/// The span from settlement to maturity in years (DSM / B), with the
/// numbers given checked: settlement before maturity, every one of
/// `positive` above 0.
fn years(settlement: f64, maturity: f64, basis: f64, positive: &[f64]) -> Result<f64, ErrorKind> {
    let (settlement, maturity, basis) = (day(settlement)?, day(maturity)?, Basis::from_number(basis)?);
    if settlement >= maturity || positive.iter().any(|&x| x <= 0.0) {
        return Err(ErrorKind::Num);
    }
    Ok(basis.days(settlement, maturity) as f64 / basis.year(settlement, maturity))
}

/// PRICEDISC(settlement, maturity, discount, redemption, [basis]): the
/// price of a discounted security, redemption × (1 − discount × DSM/B).
pub fn pricedisc(v: &[f64]) -> Result<f64, ErrorKind> {
    let [settlement, maturity, discount, redemption, basis] = super::nums(v);
    let t = years(settlement, maturity, basis, &[discount, redemption])?;
    finite(redemption * (1.0 - discount * t))
}

/// YIELDDISC(settlement, maturity, pr, redemption, [basis]): the annual
/// yield of a discounted security, (redemption − pr) / pr × B/DSM.
pub fn yielddisc(v: &[f64]) -> Result<f64, ErrorKind> {
    let [settlement, maturity, pr, redemption, basis] = super::nums(v);
    let t = years(settlement, maturity, basis, &[pr, redemption])?;
    finite((redemption - pr) / pr / t)
}

/// DISC(settlement, maturity, pr, redemption, [basis]): the discount rate,
/// (1 − pr/redemption) × B/DSM.
pub fn disc(v: &[f64]) -> Result<f64, ErrorKind> {
    let [settlement, maturity, pr, redemption, basis] = super::nums(v);
    let t = years(settlement, maturity, basis, &[pr, redemption])?;
    finite((1.0 - pr / redemption) / t)
}

/// INTRATE(settlement, maturity, investment, redemption, [basis]): the
/// interest rate of a fully invested security.
pub fn intrate(v: &[f64]) -> Result<f64, ErrorKind> {
    let [settlement, maturity, investment, redemption, basis] = super::nums(v);
    let t = years(settlement, maturity, basis, &[investment, redemption])?;
    finite((redemption - investment) / investment / t)
}

/// RECEIVED(settlement, maturity, investment, discount, [basis]): the
/// amount received at maturity, investment / (1 − discount × DSM/B); a
/// discount that leaves nothing to divide by is #NUM!.
pub fn received(v: &[f64]) -> Result<f64, ErrorKind> {
    let [settlement, maturity, investment, discount, basis] = super::nums(v);
    let t = years(settlement, maturity, basis, &[investment, discount])?;
    let left = 1.0 - discount * t;
    if left <= 0.0 {
        return Err(ErrorKind::Num);
    }
    finite(investment / left)
}

/// The factors PRICEMAT and YIELDMAT share, counted from issue as Excel
/// does: B (the year from issue to settlement), DIM (issue to maturity),
/// A (issue to settlement), DSM = DIM − A. Issue must come before
/// settlement, settlement before maturity.
fn at_maturity(settlement: f64, maturity: f64, issue: f64, basis: f64) -> Result<[f64; 4], ErrorKind> {
    let (settlement, maturity, issue) = (day(settlement)?, day(maturity)?, day(issue)?);
    let basis = Basis::from_number(basis)?;
    if settlement >= maturity || issue >= settlement {
        return Err(ErrorKind::Num);
    }
    let b = basis.year(issue, settlement);
    let (dim, a) = (basis.days(issue, maturity) as f64, basis.days(issue, settlement) as f64);
    Ok([b, dim, a, dim - a])
}

/// PRICEMAT(settlement, maturity, issue, rate, yld, [basis]): the price
/// of a security paying its interest at maturity; a rate or yield below 0
/// is #NUM!.
pub fn pricemat(v: &[f64]) -> Result<f64, ErrorKind> {
    let [settlement, maturity, issue, rate, yld, basis] = super::nums(v);
    let [b, dim, a, dsm] = at_maturity(settlement, maturity, issue, basis)?;
    if rate < 0.0 || yld < 0.0 {
        return Err(ErrorKind::Num);
    }
    finite((100.0 + dim / b * rate * 100.0) / (1.0 + dsm / b * yld) - a / b * rate * 100.0)
}

/// YIELDMAT(settlement, maturity, issue, rate, pr, [basis]): its annual
/// yield; a rate below 0 or a price not above 0 is #NUM!.
pub fn yieldmat(v: &[f64]) -> Result<f64, ErrorKind> {
    let [settlement, maturity, issue, rate, pr, basis] = super::nums(v);
    let [b, dim, a, dsm] = at_maturity(settlement, maturity, issue, basis)?;
    if rate < 0.0 || pr <= 0.0 {
        return Err(ErrorKind::Num);
    }
    let paid = pr / 100.0 + a / b * rate;
    finite((dim / b * rate + 1.0 - paid) / paid * b / dsm)
}

/// A Treasury bill's days from settlement to maturity: settlement before
/// maturity, maturity at most a year after it (the same day of the next
/// year, 28 February for a 29th).
fn bill_days(settlement: f64, maturity: f64) -> Result<f64, ErrorKind> {
    let (settlement, maturity) = (day(settlement)?, day(maturity)?);
    if settlement >= maturity || maturity > a_year_after(settlement) {
        return Err(ErrorKind::Num);
    }
    Ok((maturity - settlement) as f64)
}

fn a_year_after(day: Day) -> Day {
    let (y, m, d) = date::ymd(day);
    date::day_of(y + 1, i64::from(m), i64::from(d.min(date::days_in_month(y + 1, m))))
}

/// TBILLPRICE(settlement, maturity, discount): 100 × (1 − discount ×
/// DSM/360); a discount not above 0, or a price not above 0, is #NUM!.
pub fn tbillprice(v: &[f64]) -> Result<f64, ErrorKind> {
    let [settlement, maturity, discount] = super::nums(v);
    let dsm = bill_days(settlement, maturity)?;
    let price = 100.0 * (1.0 - discount * dsm / 360.0);
    if discount <= 0.0 || price <= 0.0 {
        return Err(ErrorKind::Num);
    }
    finite(price)
}

/// TBILLYIELD(settlement, maturity, pr): (100 − pr) / pr × 360/DSM; a
/// price not above 0 is #NUM!.
pub fn tbillyield(v: &[f64]) -> Result<f64, ErrorKind> {
    let [settlement, maturity, pr] = super::nums(v);
    let dsm = bill_days(settlement, maturity)?;
    if pr <= 0.0 {
        return Err(ErrorKind::Num);
    }
    finite((100.0 - pr) / pr * 360.0 / dsm)
}

/// TBILLEQ(settlement, maturity, discount): the bond-equivalent yield,
/// 365 × discount / (360 − discount × DSM) up to 182 days, as Microsoft
/// documents; past half a year the yield of a bond paying one coupon
/// before maturity (the root of its quadratic), as Excel computes it. A
/// discount not above 0, or no such root, is #NUM!.
pub fn tbilleq(v: &[f64]) -> Result<f64, ErrorKind> {
    let [settlement, maturity, discount] = super::nums(v);
    let dsm = bill_days(settlement, maturity)?;
    if discount <= 0.0 {
        return Err(ErrorKind::Num);
    }
    if dsm <= 182.0 {
        return finite(365.0 * discount / (360.0 - discount * dsm));
    }
    let price = 1.0 - discount * dsm / 360.0;
    let year = if dsm == 366.0 { 366.0 } else { 365.0 };
    let t = dsm / year;
    let square = t * t - (2.0 * t - 1.0) * (1.0 - 1.0 / price);
    if square < 0.0 || price <= 0.0 {
        return Err(ErrorKind::Num);
    }
    finite(2.0 * (square.sqrt() - t) / (2.0 * t - 1.0))
}
