//! The French accounting system's depreciation: AMORLINC (linear) and
//! AMORDEGRC (degressive, its rate multiplied by a coefficient that
//! depends on the asset's life, 1/rate rounded up: 1.5 for 3 to 4 years,
//! 2 for 5 to 6, 2.5 beyond; a life of 1/rate strictly between 0 and 3 or
//! 4 and 5 is #NUM!, as Microsoft documents). The first period runs from the purchase
//! to the end of the first period, pro rata by the basis (basis 2 is not
//! one of these functions' and is #NUM!; for bases 1 and 3 a purchase or
//! period end on 28 or 29 February of a leap year counts as the 28th).
//! AMORDEGRC rounds each period's depreciation to a whole number, takes
//! half of what is left in the period two before the end of the life
//! (the life counted with the first, partial period), all of it after.
//! Excel's algorithms, as the ExcelFinancialFunctions library reproduces
//! them. Periods are truncated; one past the life gives 0; more periods
//! than the work budget is #NUM!.

use super::coupons::day;
use super::finite;
use crate::functions::date::Basis;
use crate::value::date::{self, Day};
use crate::value::{ErrorKind, MAX_WORK};

/// An asset's arguments: cost, date_purchased, first_period, salvage,
/// period, rate, basis; checked.
struct Asset {
    cost: f64,
    salvage: f64,
    period: f64,
    rate: f64,
    /// The first period's depreciation at `rate` before it is capped.
    first_share: f64,
}

impl Asset {
    fn new(v: &[f64]) -> Result<Asset, ErrorKind> {
        let [cost, purchased, first, salvage, period, rate, basis] = super::nums(v);
        let (purchased, first, basis) = (day(purchased)?, day(first)?, Basis::from_number(basis)?);
        let period = period.trunc();
        let valid = cost >= 0.0 && salvage >= 0.0 && salvage < cost && period >= 0.0 && rate > 0.0;
        if !valid || purchased >= first || basis == Basis::Actual360 || period > MAX_WORK as f64 {
            return Err(ErrorKind::Num);
        }
        let leap_feb = |d: Day| {
            let (y, m, dd) = date::ymd(d);
            let feb = matches!(basis, Basis::Actual | Basis::Actual365) && date::is_leap(y) && m == 2 && dd >= 28;
            if feb { date::day_of(y, 2, 28) } else { d }
        };
        let year = match basis {
            Basis::Actual if date::is_leap(date::ymd(purchased).0) => 366.0,
            Basis::Actual => 365.0,
            basis => basis.year(purchased, purchased),
        };
        let first_share = basis.days(leap_feb(purchased), leap_feb(first)) as f64 / year;
        Ok(Asset { cost, salvage, period, rate, first_share })
    }

    /// The first period's depreciation at `rate` (a whole period's when the
    /// first is empty), at most cost less salvage, and whether it was a
    /// partial period (which lengthens the life by one).
    fn first(&self, rate: f64) -> (f64, bool) {
        let share = self.first_share * rate * self.cost;
        let depreciation = if share == 0.0 { self.cost * rate } else { share };
        (depreciation.min(self.cost - self.salvage), share != 0.0)
    }
}

/// AMORLINC(cost, date_purchased, first_period, salvage, period, rate,
/// [basis]).
pub fn amorlinc(v: &[f64]) -> Result<f64, ErrorKind> {
    let asset = Asset::new(v)?;
    let life = (1.0 / asset.rate).ceil();
    if asset.cost == asset.salvage || asset.period > life {
        return Ok(0.0);
    }
    let (first, _) = asset.first(asset.rate);
    if asset.period == 0.0 {
        return finite(first);
    }
    let (mut depreciation, mut left) = (asset.rate * asset.cost, asset.cost - asset.salvage - first);
    for _ in 0..asset.period as u64 {
        depreciation = depreciation.min(left);
        left = (left - depreciation).max(0.0);
    }
    finite(depreciation)
}

/// AMORDEGRC(cost, date_purchased, first_period, salvage, period, rate,
/// [basis]).
pub fn amordegrc(v: &[f64]) -> Result<f64, ErrorKind> {
    let asset = Asset::new(v)?;
    let years = 1.0 / asset.rate;
    if (years > 0.0 && years < 3.0) || (years > 4.0 && years < 5.0) {
        return Err(ErrorKind::Num);
    }
    let life = years.ceil();
    if asset.cost == asset.salvage || asset.period > life {
        return Ok(0.0);
    }
    let coefficient = match life {
        l if (3.0..=4.0).contains(&l) => 1.5,
        l if (5.0..=6.0).contains(&l) => 2.0,
        l if l > 6.0 => 2.5,
        _ => 1.0,
    };
    let mut rate = asset.rate * coefficient;
    let (first, partial) = asset.first(rate);
    let first = round(first);
    if asset.period == 0.0 {
        return Ok(first);
    }
    let life = if partial { life + 1.0 } else { life };
    let (mut depreciation, mut left) = (0.0, asset.cost - first);
    for counted in 2..=asset.period as u64 + 1 {
        let penultimate = (life - counted as f64 - 2.0).abs() < 1e-4;
        depreciation = if left < asset.salvage {
            0.0
        } else if penultimate {
            left * 0.5
        } else {
            rate * left
        };
        if penultimate {
            rate = 1.0;
        }
        left -= depreciation;
    }
    finite(round(depreciation))
}

/// Rounds half away from zero after rounding to 13 decimals, as Excel's
/// AMORDEGRC rounds each period.
fn round(x: f64) -> f64 {
    ((x * 1e13).round() / 1e13).round()
}
