//! Coupon schedules and the COUP* functions (COUPPCD, COUPNCD, COUPNUM,
//! COUPDAYS, COUPDAYBS, COUPDAYSNC), which the bond functions build on.
//!
//! A bond pays `frequency` coupons a year (1, 2 or 4, truncated; another
//! is #NUM!), the last one at maturity; its coupon dates step back from
//! maturity by 12/frequency months, each counted from maturity itself (no
//! drift through short months): on the maturity's day of the month, or the
//! month's last day when it is shorter, and always on the last day when
//! maturity is the last day of its month (the end-of-month rule Excel
//! applies). Settlement falls in the period from the previous coupon date
//! (on or before it) to the next (after it). Day counts follow the basis
//! (`date::Basis`, YEARFRAC's counting): the period's length E is the
//! actual days for basis 1, 365/frequency for basis 3, else 360/frequency;
//! the days from its start to settlement are the basis's count; basis 0
//! counts the days to the next coupon as E less those (Excel's reading,
//! which measures the period with both ends moved to the 30th), basis 4 as
//! 30/360 from settlement, the others as actual days.

use super::finite;
use crate::functions::date::{Basis, us_30_360};
use crate::value::ErrorKind;
use crate::value::date::{self, Day};

/// A date argument as its day: the serial truncated, #NUM! outside the
/// date system.
pub fn day(serial: f64) -> Result<Day, ErrorKind> {
    date::system().day(serial)
}

/// A day as a serial of the date system in effect.
fn serial(day: Day) -> Result<f64, ErrorKind> {
    date::system().serial(day)
}

/// The coupon frequency: 1, 2 or 4 (truncated), else #NUM!.
pub fn frequency(n: f64) -> Result<i64, ErrorKind> {
    match n.trunc() {
        1.0 => Ok(1),
        2.0 => Ok(2),
        4.0 => Ok(4),
        _ => Err(ErrorKind::Num),
    }
}

/// The dates a schedule anchored at one date (maturity, or a first or
/// last coupon) steps through, `months` apart.
#[derive(Clone, Copy)]
pub struct Schedule {
    year: i64,
    month: i64,
    day: u32,
    end_of_month: bool,
    months: i64,
}

impl Schedule {
    /// The schedule through `anchor`, `12 / frequency` months apart.
    pub fn new(anchor: Day, frequency: i64) -> Schedule {
        let (year, month, day) = date::ymd(anchor);
        let end_of_month = day == date::days_in_month(year, month);
        Schedule { year, month: i64::from(month), day, end_of_month, months: 12 / frequency }
    }

    /// The date `k` periods before the anchor (after it when negative).
    pub fn date(&self, k: i64) -> Day {
        let total = self.year * 12 + self.month - 1 - k * self.months;
        let (y, m) = (total.div_euclid(12), total.rem_euclid(12) as u32 + 1);
        let last = date::days_in_month(y, m);
        let d = if self.end_of_month { last } else { self.day.min(last) };
        date::day_of(y, i64::from(m), i64::from(d))
    }

    /// The number of periods from `day` (before the anchor) to the
    /// anchor: the `k` ≥ 1 with `date(k)` ≤ `day` < `date(k − 1)`.
    pub fn periods(&self, day: Day) -> i64 {
        let k = self.on_or_after(day);
        if self.date(k) == day { k } else { k + 1 }
    }

    /// The `k` of the first date on or after `day`: the largest `k` with
    /// `date(k)` ≥ `day` (negative past the anchor).
    pub fn on_or_after(&self, day: Day) -> i64 {
        let (y, m, _) = date::ymd(day);
        let months = self.year * 12 + self.month - y * 12 - i64::from(m);
        let mut k = months.div_euclid(self.months);
        while self.date(k) < day {
            k -= 1;
        }
        while self.date(k + 1) >= day {
            k += 1;
        }
        k
    }
}

/// E, the days of the coupon period from `from` to `to`: the actual days
/// for basis 1, 365/frequency for basis 3, else 360/frequency.
pub fn period_length(basis: Basis, frequency: i64, from: Day, to: Day) -> f64 {
    match basis {
        Basis::Actual => (to - from) as f64,
        Basis::Actual365 => 365.0 / frequency as f64,
        _ => 360.0 / frequency as f64,
    }
}

/// A bond's coupon period at settlement: the arguments the COUP*
/// functions, PRICE, YIELD and DURATION share.
pub struct Bond {
    pub settlement: Day,
    pub frequency: i64,
    pub basis: Basis,
    /// Coupons left: settlement's period to maturity.
    pub coupons: i64,
    /// The previous and the next coupon date.
    pub pcd: Day,
    pub ncd: Day,
}

impl Bond {
    /// Settlement, maturity, frequency and basis as numbers: settlement
    /// not before maturity, a bad frequency or basis, a date outside the
    /// system are #NUM!.
    pub fn new(settlement: f64, maturity: f64, frequency: f64, basis: f64) -> Result<Bond, ErrorKind> {
        let (settlement, maturity) = (day(settlement)?, day(maturity)?);
        let (frequency, basis) = (self::frequency(frequency)?, Basis::from_number(basis)?);
        if settlement >= maturity {
            return Err(ErrorKind::Num);
        }
        let schedule = Schedule::new(maturity, frequency);
        let coupons = schedule.periods(settlement);
        let (pcd, ncd) = (schedule.date(coupons), schedule.date(coupons - 1));
        Ok(Bond { settlement, frequency, basis, coupons, pcd, ncd })
    }

    /// The arguments of a COUP* function: settlement, maturity,
    /// frequency, basis (0 when omitted).
    fn of(v: &[f64]) -> Result<Bond, ErrorKind> {
        let [settlement, maturity, frequency, basis] = super::nums(v);
        Bond::new(settlement, maturity, frequency, basis)
    }

    /// E: the days of the coupon period.
    pub fn period_days(&self) -> f64 {
        period_length(self.basis, self.frequency, self.pcd, self.ncd)
    }

    /// A: the days from the period's start to settlement.
    pub fn days_before(&self) -> f64 {
        self.basis.days(self.pcd, self.settlement) as f64
    }

    /// DSC: the days from settlement to the next coupon.
    pub fn days_after(&self) -> f64 {
        match self.basis {
            Basis::Us30360 => {
                (us_30_360(self.pcd, self.ncd, true) - us_30_360(self.pcd, self.settlement, false)) as f64
            }
            basis => basis.days(self.settlement, self.ncd) as f64,
        }
    }
}

/// COUPPCD(settlement, maturity, frequency, [basis]): the previous coupon
/// date, a serial.
pub fn couppcd(v: &[f64]) -> Result<f64, ErrorKind> {
    serial(Bond::of(v)?.pcd)
}

/// COUPNCD: the next coupon date.
pub fn coupncd(v: &[f64]) -> Result<f64, ErrorKind> {
    serial(Bond::of(v)?.ncd)
}

/// COUPNUM: the coupons payable from settlement to maturity.
pub fn coupnum(v: &[f64]) -> Result<f64, ErrorKind> {
    Ok(Bond::of(v)?.coupons as f64)
}

/// COUPDAYS: the days of the settlement's coupon period.
pub fn coupdays(v: &[f64]) -> Result<f64, ErrorKind> {
    finite(Bond::of(v)?.period_days())
}

/// COUPDAYBS: the days from the period's start to settlement.
pub fn coupdaybs(v: &[f64]) -> Result<f64, ErrorKind> {
    Ok(Bond::of(v)?.days_before())
}

/// COUPDAYSNC: the days from settlement to the next coupon.
pub fn coupdaysnc(v: &[f64]) -> Result<f64, ErrorKind> {
    Ok(Bond::of(v)?.days_after())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_keep_the_day_and_the_month_end() {
        let s = Schedule::new(date::day_of(2011, 8, 30), 2);
        assert_eq!(date::ymd(s.date(1)), (2011, 2, 28));
        assert_eq!(date::ymd(s.date(2)), (2010, 8, 30), "no drift through February");
        let s = Schedule::new(date::day_of(2011, 2, 28), 2);
        assert_eq!(date::ymd(s.date(1)), (2010, 8, 31), "the month's end");
        assert_eq!(date::ymd(s.date(-2)), (2012, 2, 29));
        assert_eq!(s.periods(date::day_of(2010, 8, 31)), 1);
        assert_eq!(s.periods(date::day_of(2010, 8, 30)), 2);
    }
}
