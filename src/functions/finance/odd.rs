//! Bonds with an odd first or last coupon period: ODDFPRICE, ODDFYIELD,
//! ODDLPRICE, ODDLYIELD. Microsoft's formulas, as Excel evaluates them
//! (the ExcelFinancialFunctions library's reading, built to match Excel):
//! a short first period is priced as a regular bond with a first coupon
//! of DFC/E; a long one is cut into quasi-coupon periods on the first
//! coupon's schedule, each counted over its normal length. An odd last
//! period is cut likewise on the last interest date's schedule (basis 0
//! measuring each with both ends moved to the 30th). ODDFYIELD solves
//! ODDFPRICE by Newton's method (at most 100 steps, as Microsoft
//! documents, to within 1e-10) from the library's first estimate;
//! ODDLYIELD has a closed form.
//!
//! ODDF*: maturity > first coupon > settlement > issue, and the first
//! coupon on the maturity's schedule; ODDL*: maturity > settlement > last
//! interest. A rate or yield below 0, a price or redemption not above 0,
//! a bad frequency or basis are #NUM!.

use super::coupons::{self, Schedule, day};
use super::{finite, solve};
use crate::functions::date::{Basis, us_30_360};
use crate::value::ErrorKind;
use crate::value::date::Day;

/// An odd-first-period bond, its arguments read and checked.
struct OddFirst {
    settlement: Day,
    maturity: Day,
    issue: Day,
    first: Day,
    rate: f64,
    redemption: f64,
    frequency: i64,
    basis: Basis,
}

impl OddFirst {
    /// settlement, maturity, issue, first_coupon, rate, (yld or pr),
    /// redemption, frequency, basis.
    fn new(v: &[f64]) -> Result<OddFirst, ErrorKind> {
        let [settlement, maturity, issue, first, rate, _, redemption, frequency, basis] = super::nums(v);
        let (settlement, maturity, issue, first) = (day(settlement)?, day(maturity)?, day(issue)?, day(first)?);
        let (frequency, basis) = (coupons::frequency(frequency)?, Basis::from_number(basis)?);
        let on_schedule = maturity > first && {
            let schedule = Schedule::new(maturity, frequency);
            schedule.date(schedule.periods(first)) == first
        };
        if !(on_schedule && first > settlement && settlement > issue) || rate < 0.0 || redemption <= 0.0 {
            return Err(ErrorKind::Num);
        }
        Ok(OddFirst { settlement, maturity, issue, first, rate, redemption, frequency, basis })
    }

    /// The basis's days from `a` to `b`, 0 when `b` comes first.
    fn days(&self, a: Day, b: Day) -> f64 {
        self.basis.days(a, b).max(0) as f64
    }

    /// ODDFPRICE's formula at a yield.
    fn price(&self, yld: f64) -> f64 {
        let m = self.frequency as f64;
        let coupon = 100.0 * self.rate / m;
        let base = 1.0 + yld / m;
        let before_first = Schedule::new(self.first, self.frequency);
        // The settlement's quasi-coupon period on the first coupon's schedule.
        let k = before_first.periods(self.settlement);
        let (pcd, ncd) = (before_first.date(k), before_first.date(k - 1));
        let e = coupons::period_length(self.basis, self.frequency, pcd, ncd);
        let dfc = self.days(self.issue, self.first);
        if dfc < e {
            let n = Schedule::new(self.maturity, self.frequency).periods(self.settlement);
            let y = self.days(self.settlement, self.first) / e;
            let a = self.days(self.issue, self.settlement);
            let coupons: f64 = (2..=n).map(|k| coupon / base.powf(k as f64 - 1.0 + y)).sum();
            return self.redemption / base.powf(n as f64 - 1.0 + y) + coupon * dfc / e / base.powf(y) + coupons
                - a / e * coupon;
        }
        // A long first period: its quasi-coupon periods, latest first.
        let quasi = before_first.periods(self.issue);
        let (mut dc, mut accrued) = (0.0, 0.0);
        for i in 1..=quasi {
            let (early, late) = (before_first.date(i), before_first.date(i - 1));
            let normal = if self.basis == Basis::Actual { self.days(early, late) } else { e };
            dc += if i < quasi { normal } else { self.days(self.issue, late) } / normal;
            accrued += self.days(self.issue.max(early), self.settlement.min(late)) / normal;
        }
        let dsc = match self.basis {
            Basis::Actual360 | Basis::Actual365 => self.days(self.settlement, ncd),
            basis => e - basis.days(pcd, self.settlement) as f64,
        };
        let (nq, y) = ((k - 1) as f64, dsc / e);
        let n = Schedule::new(self.maturity, self.frequency).periods(self.first);
        let coupons: f64 = (1..=n).map(|i| coupon / base.powf(i as f64 + nq + y)).sum();
        self.redemption / base.powf(y + nq + n as f64) + coupon * dc / base.powf(nq + y) + coupons - coupon * accrued
    }
}

/// ODDFPRICE(settlement, maturity, issue, first_coupon, rate, yld,
/// redemption, frequency, [basis]).
pub fn oddfprice(v: &[f64]) -> Result<f64, ErrorKind> {
    let bond = OddFirst::new(v)?;
    let yld = v[5];
    if yld < 0.0 {
        return Err(ErrorKind::Num);
    }
    finite(bond.price(yld))
}

/// ODDFYIELD(settlement, maturity, issue, first_coupon, rate, pr,
/// redemption, frequency, [basis]).
pub fn oddfyield(v: &[f64]) -> Result<f64, ErrorKind> {
    let bond = OddFirst::new(v)?;
    let pr = v[5];
    if pr <= 0.0 {
        return Err(ErrorKind::Num);
    }
    let days = bond.basis.days(bond.settlement, bond.maturity) as f64;
    let gain = pr - 100.0;
    let guess = (bond.rate * days * 100.0 - gain) / (gain / 4.0 + days * gain / 2.0 + days * 100.0);
    solve::newton_by_difference(guess, 100, 1e-10, |y| bond.price(y) - pr)
}

/// ODDLPRICE and ODDLYIELD: settlement, maturity, last_interest, rate,
/// (yld or pr), redemption, frequency, basis; `price` for ODDLPRICE.
fn odd_last(v: &[f64], price: bool) -> Result<f64, ErrorKind> {
    let [settlement, maturity, last, rate, given, redemption, frequency, basis] = super::nums(v);
    let (settlement, maturity, last) = (day(settlement)?, day(maturity)?, day(last)?);
    let (frequency, basis) = (coupons::frequency(frequency)?, Basis::from_number(basis)?);
    let bad_given = if price { given < 0.0 } else { given <= 0.0 };
    if !(maturity > settlement && settlement > last) || rate < 0.0 || redemption <= 0.0 || bad_given {
        return Err(ErrorKind::Num);
    }
    let days = |a: Day, b: Day| basis.days(a, b).max(0) as f64;
    let length = |a: Day, b: Day| match basis {
        Basis::Us30360 => us_30_360(a, b, true).max(0) as f64,
        _ => days(a, b),
    };
    let quasi = Schedule::new(maturity, frequency).periods(last);
    let after_last = Schedule::new(last, frequency);
    let (mut dc, mut accrued, mut to_come) = (0.0, 0.0, 0.0);
    for i in 1..=quasi {
        let (early, late) = (after_last.date(1 - i), after_last.date(-i));
        let normal = length(early, late);
        let dci = if i < quasi { normal } else { length(early, maturity) };
        let a = if late < settlement {
            dci
        } else if early < settlement {
            days(early, settlement)
        } else {
            0.0
        };
        dc += dci / normal;
        accrued += a / normal;
        to_come += days(settlement.max(early), maturity.min(late)) / normal;
    }
    let m = frequency as f64;
    let coupon = 100.0 * rate / m;
    let total = dc * coupon + redemption;
    if price {
        return finite(total / (to_come * given / m + 1.0) - accrued * coupon);
    }
    let paid = accrued * coupon + given;
    finite((total - paid) / paid * m / to_come)
}

/// ODDLPRICE(settlement, maturity, last_interest, rate, yld, redemption,
/// frequency, [basis]).
pub fn oddlprice(v: &[f64]) -> Result<f64, ErrorKind> {
    odd_last(v, true)
}

/// ODDLYIELD(settlement, maturity, last_interest, rate, pr, redemption,
/// frequency, [basis]).
pub fn oddlyield(v: &[f64]) -> Result<f64, ErrorKind> {
    odd_last(v, false)
}
