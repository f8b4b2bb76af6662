//! Excel's calendar, in one place: serial numbers in the 1900 and 1904
//! date systems, the civil dates they stand for, times as fractions of a
//! day, and the calendar in effect while formulas are evaluated (which
//! date system, and what TODAY and NOW read).
//!
//! Every computation works on a [`Day`]: a day numbered as the 1900 system
//! numbers it, serial 1 = 1900-01-01, with Excel's phantom 29 February 1900
//! as day 60 (Lotus 1-2-3's leap-year bug, kept for compatibility), so day
//! 61 is 1900-03-01 and weekdays before it are Excel's (day 1 is a Sunday,
//! where the real 1900-01-01 was a Monday). The 1904 system's serial 0 is
//! 1904-01-01, day 1462; [`DateSystem`] converts serials to days and back,
//! refusing (#NUM!) a serial before its first day or after 9999-12-31.
//! Day 0 is Excel's "1900-01-00": `YEAR(0)` is 1900, `MONTH(0)` 1, `DAY(0)` 0.
//!
//! Civil dates are proleptic Gregorian, converted with Howard Hinnant's
//! `days_from_civil` / `civil_from_days` (exact for every year, no table).
//! No date crate is used for this: neither `chrono` nor `time` knows the
//! phantom day or day 0, and Excel's `DATE` normalises months and days
//! past their ends (`DATE(2020,14,0)`), which is plain arithmetic on day
//! numbers here. `chrono` only reads the system clock in local time.
//!
//! The calendar in effect is per thread (`calendar.rs`, [`Calendar::enter`]): the engine
//! enters the one its settings name (`CalcSettings::calendar`) for each
//! recalculation. Reading text as a number (`"2020-01-01"+0`,
//! `Value::to_number`) and the date functions consult it, so every path
//! that coerces agrees without each taking a parameter. The binder folds
//! no constant whose calculation consulted it ([`Entered::consulted`]):
//! `YEAR(1)` and `"1/2/2020"+0` depend on the date system, a date typed
//! without its year on the clock. Outside any, the calendar is the 1900
//! system and the system clock. ISO 8601 timestamps (`--now`, strict Open
//! XML's date cells) are read in `iso.rs`.

mod calendar;
mod iso;

pub use calendar::{Calendar, Clock, Entered, now, system};
pub use iso::serial_of_iso;

use super::ErrorKind;
use std::fmt;
use std::str::FromStr;

/// A day as the 1900 date system numbers it (see the module's text).
pub type Day = i64;

/// Seconds in a day.
pub const SECONDS_PER_DAY: f64 = 86_400.0;

/// Day 60: Excel's 29 February 1900, a day that never was.
pub const PHANTOM_DAY: Day = 60;

/// The last day Excel knows, 9999-12-31.
pub const LAST_DAY: Day = 2_958_465;

/// The 1904 system's serial 0, 1904-01-01, as a [`Day`].
pub const DAY_1904: Day = 1_462;

/// The months' English names, January first.
pub const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The weekdays' English names, Sunday first (as [`weekday`] counts them).
pub const DAY_NAMES: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/// A workbook's date system (Excel's "Use 1904 date system").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DateSystem {
    /// Serial 1 = 1900-01-01 (Excel for Windows' default).
    #[default]
    D1900,
    /// Serial 0 = 1904-01-01 (old Excel for the Mac).
    D1904,
}

impl DateSystem {
    pub fn as_str(self) -> &'static str {
        match self {
            DateSystem::D1900 => "1900",
            DateSystem::D1904 => "1904",
        }
    }

    /// The day serial 0 stands for.
    pub fn offset(self) -> Day {
        match self {
            DateSystem::D1900 => 0,
            DateSystem::D1904 => DAY_1904,
        }
    }

    /// The largest serial of a date: 9999-12-31 (2,958,465 in the 1900
    /// system, 2,957,003 in the 1904 system).
    pub fn max_serial(self) -> f64 {
        (LAST_DAY - self.offset()) as f64
    }

    /// The day of a serial (its integer part; the time is dropped), #NUM!
    /// when the serial is negative or past 9999-12-31.
    pub fn day(self, serial: f64) -> Result<Day, ErrorKind> {
        self.check(serial)?;
        Ok(serial.floor() as Day + self.offset())
    }

    /// `serial` unchanged when it is a date of this system (0 up to the end
    /// of 9999-12-31), else #NUM!.
    pub fn check(self, serial: f64) -> Result<f64, ErrorKind> {
        if serial >= 0.0 && serial < self.max_serial() + 1.0 { Ok(serial) } else { Err(ErrorKind::Num) }
    }

    /// The serial of a day, #NUM! outside this system's dates.
    pub fn serial(self, day: Day) -> Result<f64, ErrorKind> {
        if (self.offset()..=LAST_DAY).contains(&day) { Ok((day - self.offset()) as f64) } else { Err(ErrorKind::Num) }
    }

    /// DATE(year, month, day) on truncated arguments: a year from 0 to 1899
    /// is taken as 1900 more (`DATE(108,1,2)` is 2008-01-02), a year below 0
    /// or from 10000 is #NUM!; months and days past their ends carry over
    /// (`DATE(2008,14,2)` is 2009-02-02, day 0 is the month's eve); a date
    /// outside the system is #NUM!.
    pub fn date(self, year: f64, month: f64, day: f64) -> Result<f64, ErrorKind> {
        let (y, m, d) = (year.trunc(), month.trunc(), day.trunc());
        if !(0.0..10_000.0).contains(&y) || m.abs() > 1e9 || d.abs() > 1e9 {
            return Err(ErrorKind::Num);
        }
        let y = if y < 1900.0 { y + 1900.0 } else { y };
        self.serial(day_of(y as i64, m as i64, d as i64))
    }
}

impl fmt::Display for DateSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for DateSystem {
    type Err = String;
    /// `1900` or `1904`.
    fn from_str(s: &str) -> Result<DateSystem, String> {
        match s.trim() {
            "1900" => Ok(DateSystem::D1900),
            "1904" => Ok(DateSystem::D1904),
            _ => Err(format!("unknown date system `{s}` (expected `1900` or `1904`)")),
        }
    }
}

/// Days from 1970-01-01 to a proleptic Gregorian date (any month and day
/// in range; Howard Hinnant's algorithm).
const fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date `z` days after 1970-01-01.
const fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    (y, m, d)
}

/// 1899-12-31 from 1970-01-01: day 0 of the 1900 system before the phantom day.
const EPOCH: i64 = days_from_civil(1899, 12, 31);

/// The day of `year`-`month`-`day` in Excel's calendar (the Gregorian one
/// with 29 February 1900): months outside 1 to 12 carry into the year,
/// days count from the month's first (day 0 is the day before it). Any
/// year; the result may lie outside every date system.
pub fn day_of(year: i64, month: i64, day: i64) -> Day {
    let months = year * 12 + (month - 1);
    let (y, m) = (months.div_euclid(12), months.rem_euclid(12) + 1);
    let first = days_from_civil(y, m, 1) - EPOCH;
    let first = if first >= PHANTOM_DAY { first + 1 } else { first };
    first + day - 1
}

/// The year, month and day of a day (0 is 1900-01-00, 60 is 1900-02-29).
pub fn ymd(day: Day) -> (i64, u32, u32) {
    match day {
        0 => (1900, 1, 0),
        PHANTOM_DAY => (1900, 2, 29),
        d if d < PHANTOM_DAY => civil_from_days(EPOCH + d),
        d => civil_from_days(EPOCH + d - 1),
    }
}

/// Whether `year` has a 29 February in Excel's calendar (1900 does).
pub fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 || year == 1900
}

/// The number of days of a month in Excel's calendar.
pub fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The day of the week as Excel counts it, 0 = Sunday to 6 = Saturday
/// (day 1, 1900-01-01, is a Sunday for Excel).
pub fn weekday(day: Day) -> u32 {
    (day - 1).rem_euclid(7) as u32
}

/// The time of day of a serial, rounded to the nearest second as HOUR,
/// MINUTE and SECOND read it: hours 0 to 23, minutes, seconds (a time
/// that rounds up to midnight is 0:00:00).
pub fn hms(serial: f64) -> (u32, u32, u32) {
    let secs = ((serial - serial.floor()) * SECONDS_PER_DAY).round() as u32 % 86_400;
    (secs / 3600, secs / 60 % 60, secs % 60)
}

/// TIME(hour, minute, second) on truncated arguments: each from -32,768 to
/// 32,767 (else #NUM!), their sum a time of day (a day past 24 hours is
/// dropped), #NUM! when negative.
pub fn time(hour: f64, minute: f64, second: f64) -> Result<f64, ErrorKind> {
    let parts = [hour, minute, second].map(f64::trunc);
    if parts.iter().any(|p| !(-32_768.0..=32_767.0).contains(p)) {
        return Err(ErrorKind::Num);
    }
    let secs = parts[0] * 3600.0 + parts[1] * 60.0 + parts[2];
    if secs < 0.0 {
        return Err(ErrorKind::Num);
    }
    Ok(secs.rem_euclid(SECONDS_PER_DAY) / SECONDS_PER_DAY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_1900_system_and_its_phantom_day() {
        assert_eq!(day_of(1900, 1, 1), 1);
        assert_eq!(day_of(1900, 2, 28), 59);
        assert_eq!(day_of(1900, 2, 29), 60);
        assert_eq!(day_of(1900, 3, 1), 61);
        assert_eq!(day_of(1900, 3, 0), 60);
        assert_eq!(day_of(1900, 1, 0), 0);
        assert_eq!(day_of(2008, 1, 1), 39_448);
        assert_eq!(day_of(9999, 12, 31), LAST_DAY);
        assert_eq!(day_of(1904, 1, 1), DAY_1904);
        assert_eq!(day_of(2008, 14, 2), day_of(2009, 2, 2));
        assert_eq!(day_of(2008, -3, 2), day_of(2007, 9, 2));
        assert_eq!(day_of(2008, 0, 1), day_of(2007, 12, 1));
        for d in [0, 1, 59, 60, 61, 366, 39_448, LAST_DAY] {
            let (y, m, dd) = ymd(d);
            assert_eq!(day_of(y, i64::from(m), i64::from(dd)), d, "{d}");
        }
        assert_eq!(ymd(61), (1900, 3, 1));
        assert_eq!(ymd(59), (1900, 2, 28));
        assert_eq!(ymd(43_831), (2020, 1, 1));
    }

    #[test]
    fn weekdays_as_excel_counts_them() {
        assert_eq!(weekday(1), 0, "1900-01-01 is a Sunday for Excel");
        assert_eq!(weekday(0), 6);
        assert_eq!(weekday(day_of(2024, 11, 28)), 4, "a Thursday");
        assert_eq!(weekday(DAY_1904), 5, "1904-01-01 was a Friday");
    }

    #[test]
    fn systems() {
        let (a, b) = (DateSystem::D1900, DateSystem::D1904);
        assert_eq!(a.date(2008.0, 1.0, 1.0), Ok(39_448.0));
        assert_eq!(a.date(108.0, 1.0, 2.0), Ok(39_449.0));
        assert_eq!(b.date(2008.0, 1.0, 1.0), Ok(39_448.0 - 1462.0));
        assert_eq!(b.date(1900.0, 1.0, 1.0), Err(ErrorKind::Num));
        assert_eq!(a.date(1900.0, 1.0, -1.0), Err(ErrorKind::Num));
        assert_eq!(a.date(10_000.0, 1.0, 1.0), Err(ErrorKind::Num));
        assert_eq!(a.date(9999.0, 12.0, 32.0), Err(ErrorKind::Num));
        assert_eq!(a.max_serial(), 2_958_465.0);
        assert_eq!(b.max_serial(), 2_957_003.0);
        assert_eq!(a.day(-0.5), Err(ErrorKind::Num));
        assert_eq!(a.day(2_958_465.9), Ok(LAST_DAY));
        assert_eq!(a.day(2_958_466.0), Err(ErrorKind::Num));
        assert_eq!(b.day(0.0), Ok(DAY_1904));
    }

    #[test]
    fn times() {
        assert_eq!(time(12.0, 0.0, 0.0), Ok(0.5));
        assert_eq!(time(27.0, 0.0, 0.0), Ok(0.125));
        assert_eq!(time(0.0, -1.0, 120.0), Ok(60.0 / SECONDS_PER_DAY));
        assert_eq!(time(0.0, 0.0, -1.0), Err(ErrorKind::Num));
        assert_eq!(time(32_768.0, 0.0, 0.0), Err(ErrorKind::Num));
        assert_eq!(hms(0.5), (12, 0, 0));
        assert_eq!(hms(0.999_999_9), (0, 0, 0));
        assert_eq!(hms(1.0 / 3.0), (8, 0, 0));
    }
}
