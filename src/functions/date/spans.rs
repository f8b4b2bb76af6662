//! Spans between two dates: DAYS360, DATEDIF and YEARFRAC. Each reads
//! both dates as days (truncated, #NUM! outside the date system) and works
//! on their year, month and day in Excel's calendar (February 1900 has 29
//! days). YEARFRAC's day counts ([`Basis`], and basis 0's count of a
//! coupon period, [`us_30_360`]) serve the securities functions too.

use super::{Res, day_arg, int_or};
use crate::value::date::{self, Day};
use crate::value::{ErrorKind, Value};

/// A date as year, month, day.
type Ymd = (i64, u32, u32);

/// A day-count basis, as YEARFRAC and the securities functions
/// (`finance/coupons.rs`) take it: 0 US (NASD) 30/360, 1 actual/actual,
/// 2 actual/360, 3 actual/365, 4 European 30/360.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Basis {
    Us30360,
    Actual,
    Actual360,
    Actual365,
    Euro30360,
}

impl Basis {
    /// The basis a number names, truncated; another one is #NUM!.
    pub(crate) fn from_number(n: f64) -> Result<Basis, ErrorKind> {
        match n.trunc() {
            0.0 => Ok(Basis::Us30360),
            1.0 => Ok(Basis::Actual),
            2.0 => Ok(Basis::Actual360),
            3.0 => Ok(Basis::Actual365),
            4.0 => Ok(Basis::Euro30360),
            _ => Err(ErrorKind::Num),
        }
    }

    /// The days from `start` to `end` as the basis counts them, YEARFRAC's
    /// numerator: basis 0's 30/360 with Excel's February rules (see
    /// [`yearfrac`]), basis 4's with every 31st the 30th, else the actual
    /// days. Negative when `end` comes first.
    pub(crate) fn days(self, start: Day, end: Day) -> i64 {
        match self {
            Basis::Us30360 => us_30_360(start, end, false),
            Basis::Euro30360 => {
                let ((y1, m1, d1), (y2, m2, d2)) = (date::ymd(start), date::ymd(end));
                let day = |d: u32| i64::from(d.min(30));
                days_30_360((y1, i64::from(m1), day(d1)), (y2, i64::from(m2), day(d2)))
            }
            _ => end - start,
        }
    }

    /// The length of the year from `start` to a later `end`, YEARFRAC's
    /// denominator: 360 days, 365 for basis 3, and for basis 1 365 or 366
    /// by Excel's rules, or the average year past one (see [`yearfrac`]).
    pub(crate) fn year(self, start: Day, end: Day) -> f64 {
        match self {
            Basis::Actual => actual_year(date::ymd(start), date::ymd(end)),
            Basis::Actual365 => 365.0,
            _ => 360.0,
        }
    }
}

/// Whether a date is the last day of its February.
fn last_of_february((y, m, d): Ymd) -> bool {
    m == 2 && d == date::days_in_month(y, 2)
}

/// `y/m/d` differences counted in 30-day months and 360-day years.
fn days_30_360((y1, m1, d1): (i64, i64, i64), (y2, m2, d2): (i64, i64, i64)) -> i64 {
    (y2 - y1) * 360 + (m2 - m1) * 30 + (d2 - d1)
}

/// DAYS360(start, end, [method]): days between two dates in twelve 30-day
/// months. The US (NASD) method (FALSE, the default): a start on the last
/// day of its month (February's included) counts as the 30th; an end on the
/// 31st becomes the 1st of the next month when the start is before the
/// 30th, else the 30th. The European method (TRUE): a 31st is the 30th.
/// The dates are not swapped: a start after the end gives what the rules
/// give (`DAYS360("2000-03-31","1999-02-02")` is -418, where 419 is the
/// other way round), as Excel does.
pub(super) fn days360(v: &[Value]) -> Res {
    let (s, e) = (date::ymd(day_arg(&v[0])?), date::ymd(day_arg(&v[1])?));
    let european = match v.get(2) {
        None | Some(Value::Empty) => false,
        Some(m) => m.to_bool()?,
    };
    let (y1, m1, mut d1) = (s.0, i64::from(s.1), i64::from(s.2));
    let (mut y2, mut m2, mut d2) = (e.0, i64::from(e.1), i64::from(e.2));
    if d1 == 31 || (!european && last_of_february(s)) {
        d1 = 30;
    }
    if d2 == 31 {
        if !european && d1 < 30 {
            d2 = 1;
            (y2, m2) = if m2 == 12 { (y2 + 1, 1) } else { (y2, m2 + 1) };
        } else {
            d2 = 30;
        }
    }
    Ok(Value::Number(days_30_360((y1, m1, d1), (y2, m2, d2)) as f64))
}

/// DATEDIF(start, end, unit): whole years (`Y`), months (`M`) or days
/// (`D`) from start to end; `YM` the months beyond the whole years, `YD`
/// the days beyond them, counted with the end moved into the start's year
/// (or the next one when it would come before the start; a 29 February
/// moved into a common year is 1 March), so that the end's leap day does
/// not count (`DATEDIF("2010-01-01","2016-07-21","YD")` is 201, and
/// 1988-06-22 to 2012-05-11 is 323, as Excel gives); `MD` the days beyond the whole
/// months with Excel's quirk: when the end's day is before the start's,
/// counted from the start's day in the month before the end's, which can
/// be negative (`DATEDIF("2011-01-31","2011-03-01","MD")` is -2). The unit
/// ignores case; another unit, or a start after the end, is #NUM!.
pub(super) fn datedif(v: &[Value]) -> Res {
    let (start, end) = (day_arg(&v[0])?, day_arg(&v[1])?);
    let unit = v[2].to_text()?;
    if start > end {
        return Err(ErrorKind::Num);
    }
    let ((y1, m1, d1), (y2, m2, d2)) = (date::ymd(start), date::ymd(end));
    let months = (y2 - y1) * 12 + i64::from(m2) - i64::from(m1) - i64::from(d2 < d1);
    let n = match unit.to_ascii_uppercase().as_str() {
        "D" => end - start,
        "M" => months,
        "Y" => months.div_euclid(12),
        "YM" => months.rem_euclid(12),
        "MD" if d2 >= d1 => i64::from(d2 - d1),
        "MD" => end - date::day_of(y2, i64::from(m2) - 1, i64::from(d1)),
        "YD" => {
            let y = if (m2, d2) >= (m1, d1) { y1 } else { y1 + 1 };
            date::day_of(y, i64::from(m2), i64::from(d2)) - start
        }
        _ => return Err(ErrorKind::Num),
    };
    Ok(Value::Number(n as f64))
}

/// YEARFRAC(start, end, [basis]): the fraction of a year between two dates
/// (in either order), by day-count basis: 0 (the default) US 30/360, 1
/// actual/actual, 2 actual/360, 3 actual/365, 4 European 30/360; another
/// basis is #NUM!. As Excel computes them (David A. Wheeler's analysis of
/// Excel 2007, which Microsoft's own financial-functions library follows):
///
/// - basis 0: a start on the 31st, or on the last day of February, counts
///   as the 30th; an end on the 31st counts as the 30th when the start was
///   on the 30th or 31st; an end on the last day of February counts as the
///   30th when the start is one too;
/// - basis 1: the days between, over 366 when the dates lie within one year
///   (the same year, or up to the same day of the next) and that span holds
///   a 29 February (or ends on one, or lies in a leap year), else over 365;
///   dates further apart divide by the average length of the years from
///   the start's to the end's, both included;
/// - basis 4: every 31st counts as the 30th.
pub(super) fn yearfrac(v: &[Value]) -> Res {
    let (mut start, mut end) = (day_arg(&v[0])?, day_arg(&v[1])?);
    let basis = Basis::from_number(int_or(v.get(2), 0)? as f64)?;
    if start > end {
        std::mem::swap(&mut start, &mut end);
    }
    if start == end {
        return Ok(Value::Number(0.0));
    }
    Ok(Value::Number(basis.days(start, end) as f64 / basis.year(start, end)))
}

/// YEARFRAC's basis 0 count (see [`yearfrac`]). With `both`, as the
/// securities functions count the length of a coupon period, an end on
/// the 31st or the last day of February is the 30th whatever the start.
pub(crate) fn us_30_360(start: Day, end: Day, both: bool) -> i64 {
    let (s, e) = (date::ymd(start), date::ymd(end));
    let (mut d1, mut d2) = (i64::from(s.2), i64::from(e.2));
    if last_of_february(e) && (both || last_of_february(s)) {
        d2 = 30;
    }
    if d2 == 31 && (both || d1 >= 30) {
        d2 = 30;
    }
    if d1 == 31 || last_of_february(s) {
        d1 = 30;
    }
    days_30_360((s.0, i64::from(s.1), d1), (e.0, i64::from(e.1), d2))
}

/// YEARFRAC's basis 1 year length from an earlier date to a later one
/// (see [`yearfrac`]).
fn actual_year((y1, m1, d1): Ymd, (y2, m2, d2): Ymd) -> f64 {
    let within_a_year = y1 == y2 || (y2 == y1 + 1 && (m1 > m2 || (m1 == m2 && d1 >= d2)));
    if !within_a_year {
        let days = date::day_of(y2 + 1, 1, 1) - date::day_of(y1, 1, 1);
        return days as f64 / (y2 - y1 + 1) as f64;
    }
    let feb29_between = if y1 == y2 {
        date::is_leap(y1)
    } else if date::is_leap(y1) {
        m1 <= 2
    } else {
        date::is_leap(y2) && m2 > 2
    };
    if feb29_between || (m2 == 2 && d2 == 29) { 366.0 } else { 365.0 }
}
