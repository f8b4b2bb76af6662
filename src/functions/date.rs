//! Date and time functions: DATE, TIME, YEAR, MONTH, DAY, HOUR, MINUTE,
//! SECOND, WEEKDAY, WEEKNUM, ISOWEEKNUM, DATEVALUE, TIMEVALUE, EDATE,
//! EOMONTH, DAYS, TODAY and NOW here; DAYS360, DATEDIF and YEARFRAC in
//! `spans`; NETWORKDAYS, WORKDAY and their `.INTL` forms in `workdays`.
//!
//! Dates are serial numbers in the workbook's date system, which the
//! calendar in effect names (`value::date`: every calendar computation
//! lives there). A date argument is read as a number (text that reads as
//! a date is one: `YEAR("2020-07-04")`) and truncated to its day; one
//! before the system's first day or after 9999-12-31 is #NUM!. Scalar
//! functions are lifted element-wise over arrays (inside names). TODAY and
//! NOW are volatile and read the calendar's clock, one moment per
//! recalculation.

mod spans;
pub(crate) use spans::{Basis, us_30_360};
mod workdays;

use super::Excel::V2013;
use super::FnSpec;
use super::args::lift_res;
use crate::eval::{BExpr, Eval};
use crate::value::date::{self, Day};
use crate::value::read::{self, Reading};
use crate::value::{ErrorKind, Value};

/// The date and time category.
pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("DATE", 3, 3, |ev, a| lift_res(ev, a, date_)),
    FnSpec::new("TIME", 3, 3, |ev, a| lift_res(ev, a, time)),
    FnSpec::new("YEAR", 1, 1, |ev, a| lift_res(ev, a, |v| part(v, |(y, _, _)| y as f64))),
    FnSpec::new("MONTH", 1, 1, |ev, a| lift_res(ev, a, |v| part(v, |(_, m, _)| f64::from(m)))),
    FnSpec::new("DAY", 1, 1, |ev, a| lift_res(ev, a, |v| part(v, |(_, _, d)| f64::from(d)))),
    FnSpec::new("HOUR", 1, 1, |ev, a| lift_res(ev, a, |v| clock_part(v, |(h, _, _)| h))),
    FnSpec::new("MINUTE", 1, 1, |ev, a| lift_res(ev, a, |v| clock_part(v, |(_, m, _)| m))),
    FnSpec::new("SECOND", 1, 1, |ev, a| lift_res(ev, a, |v| clock_part(v, |(_, _, s)| s))),
    FnSpec::new("WEEKDAY", 1, 2, |ev, a| lift_res(ev, a, weekday)),
    FnSpec::new("WEEKNUM", 1, 2, |ev, a| lift_res(ev, a, weeknum)),
    FnSpec::new("ISOWEEKNUM", 1, 1, |ev, a| lift_res(ev, a, |v| Ok(Value::Number(iso_week(day_arg(&v[0])?) as f64))))
        .since(V2013),
    FnSpec::new("DATEVALUE", 1, 1, |ev, a| lift_res(ev, a, datevalue)),
    FnSpec::new("TIMEVALUE", 1, 1, |ev, a| lift_res(ev, a, timevalue)),
    FnSpec::new("EDATE", 2, 2, |ev, a| lift_res(ev, a, |v| shift_months(v, false))),
    FnSpec::new("EOMONTH", 2, 2, |ev, a| lift_res(ev, a, |v| shift_months(v, true))),
    FnSpec::new("DAYS", 2, 2, |ev, a| {
        lift_res(ev, a, |v| Ok(Value::Number((day_arg(&v[0])? - day_arg(&v[1])?) as f64)))
    })
    .since(V2013),
    FnSpec::new("DAYS360", 2, 3, |ev, a| lift_res(ev, a, spans::days360)),
    FnSpec::new("DATEDIF", 3, 3, |ev, a| lift_res(ev, a, spans::datedif)),
    FnSpec::new("YEARFRAC", 2, 3, |ev, a| lift_res(ev, a, spans::yearfrac)),
    FnSpec::new("NETWORKDAYS", 2, 3, workdays::networkdays),
    FnSpec::new("NETWORKDAYS.INTL", 2, 4, workdays::networkdays_intl)
        .since(super::Excel::V2010)
        .openformula("COM.MICROSOFT.NETWORKDAYS.INTL"),
    FnSpec::new("WORKDAY", 2, 3, workdays::workday),
    FnSpec::new("WORKDAY.INTL", 2, 4, workdays::workday_intl)
        .since(super::Excel::V2010)
        .openformula("COM.MICROSOFT.WORKDAY.INTL"),
    FnSpec::new("TODAY", 0, 0, today).volatile(),
    FnSpec::new("NOW", 0, 0, now).volatile(),
];

type Res = Result<Value, ErrorKind>;

/// A date argument as its day (see `value::date::Day`): read as a number,
/// truncated; #NUM! outside the date system.
fn day_arg(v: &Value) -> Result<Day, ErrorKind> {
    date::system().day(v.to_number()?)
}

/// A date's serial in the system in effect, #NUM! outside it.
fn serial(day: Day) -> Res {
    date::system().serial(day).map(Value::Number)
}

/// A whole-number argument: truncated.
fn int(v: &Value) -> Result<i64, ErrorKind> {
    let n = v.to_number()?.trunc();
    if n.abs() > 1e12 { Err(ErrorKind::Num) } else { Ok(n as i64) }
}

/// An optional whole-number argument: `default` when absent or omitted.
fn int_or(v: Option<&Value>, default: i64) -> Result<i64, ErrorKind> {
    match v {
        None | Some(Value::Empty) => Ok(default),
        Some(v) => int(v),
    }
}

fn date_(v: &[Value]) -> Res {
    let (y, m, d) = (v[0].to_number()?, v[1].to_number()?, v[2].to_number()?);
    date::system().date(y, m, d).map(Value::Number)
}

fn time(v: &[Value]) -> Res {
    date::time(v[0].to_number()?, v[1].to_number()?, v[2].to_number()?).map(Value::Number)
}

/// YEAR, MONTH and DAY: a part of the date.
fn part(v: &[Value], f: fn((i64, u32, u32)) -> f64) -> Res {
    Ok(Value::Number(f(date::ymd(day_arg(&v[0])?))))
}

/// HOUR, MINUTE and SECOND: a part of the time of day, rounded to the
/// second; the serial must be a date of the system.
fn clock_part(v: &[Value], f: fn((u32, u32, u32)) -> u32) -> Res {
    let n = date::system().check(v[0].to_number()?)?;
    Ok(Value::Number(f64::from(f(date::hms(n)))))
}

/// The weekday (0 = Sunday) a week starts on for WEEKDAY's and WEEKNUM's
/// return types 2 and 11 to 17.
fn week_start(kind: i64) -> Option<u32> {
    match kind {
        11..=17 => Some(((kind - 10) % 7) as u32),
        _ => None,
    }
}

/// WEEKDAY(serial, [return_type]): 1 (Sunday = 1, the default), 2 (Monday
/// = 1), 3 (Monday = 0), 11 to 17 (Monday to Sunday = 1); any other type is
/// #NUM!.
fn weekday(v: &[Value]) -> Res {
    let wd = date::weekday(day_arg(&v[0])?);
    let kind = int_or(v.get(1), 1)?;
    let (start, from) = match kind {
        1 => (0, 1),
        2 => (1, 1),
        3 => (1, 0),
        k => (week_start(k).ok_or(ErrorKind::Num)?, 1),
    };
    Ok(Value::Number(f64::from((wd + 7 - start) % 7 + from)))
}

/// WEEKNUM(serial, [return_type]): the week of the year, the week holding
/// 1 January being week 1 (system 1), weeks starting on Sunday (1, the
/// default, and 17), Monday (2 and 11), ... Saturday (16); 21 is the ISO
/// week (system 2, ISOWEEKNUM). Any other type is #NUM!.
fn weeknum(v: &[Value]) -> Res {
    let day = day_arg(&v[0])?;
    let start = match int_or(v.get(1), 1)? {
        1 => 0,
        2 => 1,
        21 => return Ok(Value::Number(iso_week(day) as f64)),
        k => week_start(k).ok_or(ErrorKind::Num)?,
    };
    let jan1 = date::day_of(date::ymd(day).0, 1, 1);
    let offset = i64::from((date::weekday(jan1) + 7 - start) % 7);
    Ok(Value::Number(((day - jan1 + offset).div_euclid(7) + 1) as f64))
}

/// The ISO 8601 week of a day: weeks start on Monday, week 1 holds the
/// year's first Thursday.
fn iso_week(day: Day) -> i64 {
    let monday_based = i64::from((date::weekday(day) + 6) % 7);
    let thursday = day - monday_based + 3;
    // Day 0 is 1899-12-31 here, not Excel's 1900-01-00.
    let year = if thursday == 0 { 1899 } else { date::ymd(thursday).0 };
    (thursday - date::day_of(year, 1, 1)).div_euclid(7) + 1
}

/// DATEVALUE(date_text): the serial of the date a text names, its time
/// dropped; #VALUE! for anything but a text naming a date of the system.
fn datevalue(v: &[Value]) -> Res {
    match &v[0] {
        Value::Text(s) => match read::date_time(s) {
            Some(Reading::Date { day, .. }) => {
                date::system().serial(day).map(Value::Number).map_err(|_| ErrorKind::Value)
            }
            _ => Err(ErrorKind::Value),
        },
        Value::Error(e) => Err(*e),
        _ => Err(ErrorKind::Value),
    }
}

/// TIMEVALUE(time_text): the time of day a text names, as a fraction of a
/// day (a date alone is 0, `30:00` is 0.25); #VALUE! for anything but a
/// text naming a time or a date.
fn timevalue(v: &[Value]) -> Res {
    match &v[0] {
        Value::Text(s) => match read::date_time(s) {
            Some(Reading::Date { time, .. }) => Ok(Value::Number(time.unwrap_or(0.0))),
            Some(Reading::Time(t)) => Ok(Value::Number(t - t.floor())),
            _ => Err(ErrorKind::Value),
        },
        Value::Error(e) => Err(*e),
        _ => Err(ErrorKind::Value),
    }
}

/// EDATE(start, months): the same day `months` later (truncated), the
/// month's last day when it has fewer; EOMONTH: the last day of that month.
/// A month before 1900 is #NUM! (no 31 December 1899 as serial 0), as is
/// a date outside the system.
fn shift_months(v: &[Value], end_of_month: bool) -> Res {
    let (y, m, d) = date::ymd(day_arg(&v[0])?);
    let months = int(&v[1])?;
    if months.abs() > 200_000 {
        return Err(ErrorKind::Num);
    }
    let total = y * 12 + i64::from(m) - 1 + months;
    let (y, m) = (total.div_euclid(12), total.rem_euclid(12) + 1);
    if y < 1900 {
        return Err(ErrorKind::Num);
    }
    let day = if end_of_month {
        date::day_of(y, m + 1, 0)
    } else {
        date::day_of(y, m, i64::from(d.min(date::days_in_month(y, m as u32))))
    };
    serial(day)
}

fn today(_: &mut Eval, _: &[BExpr]) -> Value {
    serial(date::now().floor() as Day).unwrap_or_else(Value::Error)
}

fn now(_: &mut Eval, _: &[BExpr]) -> Value {
    let t = date::now();
    let system = date::system();
    system.check(t - system.offset() as f64).map_or_else(Value::Error, Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::date::{Calendar, Clock, DateSystem};

    fn n(x: f64) -> Value {
        Value::Number(x)
    }

    #[test]
    fn weekdays_and_weeks() {
        let d = n(43_831.0); // 2020-01-01, a Wednesday
        assert_eq!(weekday(std::slice::from_ref(&d)), Ok(n(4.0)));
        assert_eq!(weekday(&[d.clone(), n(2.0)]), Ok(n(3.0)));
        assert_eq!(weekday(&[d.clone(), n(3.0)]), Ok(n(2.0)));
        assert_eq!(weekday(&[d.clone(), n(13.0)]), Ok(n(1.0)));
        assert_eq!(weekday(&[d.clone(), n(17.0)]), Ok(n(4.0)));
        assert_eq!(weekday(&[d.clone(), n(4.0)]), Err(ErrorKind::Num));
        assert_eq!(weeknum(&[n(43_835.0)]), Ok(n(2.0)), "Sunday 2020-01-05 starts week 2");
        assert_eq!(weeknum(&[n(43_835.0), n(2.0)]), Ok(n(1.0)));
        assert_eq!(iso_week(date::day_of(2021, 1, 3)), 53);
        assert_eq!(iso_week(date::day_of(2020, 12, 31)), 53);
        assert_eq!(iso_week(date::day_of(2019, 12, 30)), 1);
    }

    #[test]
    fn the_clock_and_the_system() {
        let _c = Calendar::new(DateSystem::D1904, Clock::Fixed(46_354.75)).enter();
        assert_eq!(serial(46_354), Ok(n(46_354.0 - 1462.0)));
        assert_eq!(shift_months(&[n(0.0), n(-1.0)], false), Err(ErrorKind::Num), "before 1904");
    }
}
