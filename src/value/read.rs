//! Text read as a number the way Excel (en-US) reads it: in arithmetic
//! (`"2020-01-01"+0`), wherever a function takes a number
//! ([`Value::to_number`](super::Value::to_number), kernels included), in
//! VALUE and TEXT, and in DATEVALUE and TIMEVALUE, which take the date or
//! the time alone ([`date_time`]). One reader for all of them:
//!
//! - numbers: `12`, ` -2.5e3 `, `+.5`, thousands separators in groups of
//!   three (`1,234,567.8`), a currency sign (`$12`, `-$3`, `$-3`),
//!   accounting negatives (`(100)`, `($1,234.50)`), a trailing percent
//!   (`5%`, `1,000%`), mixed fractions (`1 1/2`, `-0 3/4`);
//! - dates, month first as in the United States: `1/2/2020`, `1-2-2020`,
//!   `1/2/20`, ISO `2020-01-02` and `2020/1/2`, month names or their first
//!   three letters (`1 Jan 2020`, `1-Jan-2020`, `Jan 1, 2020`,
//!   `January 1 2020`), a month with its year only (`Jan 2020`, `1/2020`,
//!   `2020-01`: the first of the month), and a day and month without a
//!   year (`1/2`, `1-Jan`, `Jan 1`: the current year, from the clock
//!   TODAY reads). Two-digit years 00 to 29 are 2000 to 2029, 30 to 99 are
//!   1930 to 1999; years have two or four digits. 29 February 1900 is a
//!   date (serial 60), as in Excel;
//! - times: `12:30`, `12:30:45`, `12:30:45.5`, `12:30 PM`, `12:30pm`,
//!   `5 PM`, `5:30 a`, minutes and seconds with a fraction (`12:30.5` is
//!   12 minutes 30.5 seconds), hours past 24 without AM/PM (`30:15` is
//!   1.26...);
//! - a date and a time, in either order (`1/2/2020 12:30 PM`).
//!
//! A date outside the date system in effect ([`super::date`]) is not a
//! number. Not read: weekday names (`Monday, January 1, 2020`), the ISO
//! `T` (`2020-01-02T12:30`), day-first dates, other currencies than `$`,
//! a trailing minus (`100-`), the `.` or `,` of other locales.

mod date_time;

use super::date::{self, Day};
use super::parse_number;
pub use date_time::date_time;

/// What a text reads as.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reading {
    /// A plain or decorated number.
    Number(f64),
    /// A date, with the time of day when one was given.
    Date { day: Day, time: Option<f64> },
    /// A time alone, in days (past 1 for `30:15`).
    Time(f64),
}

/// The number `s` reads as, if any: a date as its serial in the date
/// system in effect (the time added), a time as a fraction of a day.
pub fn number(s: &str) -> Option<f64> {
    if let Some(n) = parse_number(s) {
        return Some(n);
    }
    match read(s)? {
        Reading::Number(n) => Some(n),
        Reading::Time(t) => Some(t),
        Reading::Date { day, time } => date::system().serial(day).ok().map(|d| d + time.unwrap_or(0.0)),
    }
}

/// How `s` reads (None when it is no number, date or time).
pub fn read(s: &str) -> Option<Reading> {
    let t = s.trim();
    if t.is_empty() {
        return None;
    }
    if let Some(n) = decorated(t) {
        return Some(Reading::Number(n));
    }
    date_time(t)
}

/// A number with Excel's decorations: sign, `$`, thousands separators,
/// `%`, accounting parentheses, a mixed fraction.
fn decorated(t: &str) -> Option<f64> {
    if let Some(n) = parse_number(t) {
        return Some(n);
    }
    if let Some(inner) = t.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
        let inner = inner.trim();
        if inner.starts_with(['-', '+']) {
            return None;
        }
        return decorated(inner).map(|n| -n);
    }
    let (t, scale) = match t.strip_suffix('%') {
        Some(rest) => (rest.trim_end(), 0.01),
        None => (t, 1.0),
    };
    let (sign, t) = split_sign(t);
    let (t, currency) = match t.strip_prefix('$') {
        Some(rest) => (rest.trim_start(), true),
        None => (t, false),
    };
    let (sign2, t) = if currency && sign == 1.0 { split_sign(t) } else { (1.0, t) };
    if t.starts_with(['+', '-', '$']) {
        return None;
    }
    let n = grouped(t).or_else(|| fraction(t))?;
    Some(sign * sign2 * n * scale)
}

/// A leading `-` or `+` (and the spaces after it).
fn split_sign(t: &str) -> (f64, &str) {
    match t.as_bytes().first() {
        Some(b'-') => (-1.0, t[1..].trim_start()),
        Some(b'+') => (1.0, t[1..].trim_start()),
        _ => (1.0, t),
    }
}

/// Digits with thousands separators in groups of three (`1,234.5`), or a
/// plain unsigned number.
fn grouped(t: &str) -> Option<f64> {
    if t.starts_with(['+', '-']) {
        return None;
    }
    if !t.contains(',') {
        return parse_number(t);
    }
    let (int, rest) = t.find(['.', 'e', 'E']).map_or((t, ""), |i| t.split_at(i));
    let groups: Vec<&str> = int.split(',').collect();
    let ok = (1..=3).contains(&groups[0].len())
        && groups[1..].iter().all(|g| g.len() == 3)
        && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit()));
    if !ok {
        return None;
    }
    parse_number(&format!("{}{rest}", groups.concat()))
}

/// A mixed fraction, `1 1/2`: a whole number, spaces, a fraction of whole
/// numbers with a denominator above 0.
fn fraction(t: &str) -> Option<f64> {
    let (whole, frac) = t.split_once(' ')?;
    let (num, den) = frac.trim_start().split_once('/')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(num) || !digits(den) {
        return None;
    }
    let (w, n, d): (f64, f64, f64) = (whole.parse().ok()?, num.parse().ok()?, den.parse().ok()?);
    (d > 0.0).then(|| w + n / d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::date::{Calendar, Clock, DateSystem, SECONDS_PER_DAY, day_of};

    fn at_2026<T>(f: impl FnOnce() -> T) -> T {
        let _c = Calendar::new(DateSystem::D1900, Clock::Fixed(46_354.75)).enter();
        f()
    }

    #[test]
    fn numbers() {
        for (text, n) in [
            (" 12 ", 12.0),
            ("1,234.5", 1234.5),
            ("$1,234.50", 1234.5),
            ("-$3", -3.0),
            ("$-3", -3.0),
            ("(100)", -100.0),
            ("($1,234.50)", -1234.5),
            ("5%", 0.05),
            ("1,000%", 10.0),
            ("1 1/2", 1.5),
            ("-1 1/2", -1.5),
            ("1,234e2", 123_400.0),
        ] {
            assert_eq!(number(text), Some(n), "{text}");
        }
        for text in ["1,23", "abc", "", "(-5)", "$$5", "--5", "1 1/0", "5-", "1,2345"] {
            assert_eq!(number(text), None, "{text}");
        }
    }

    #[test]
    fn dates() {
        at_2026(|| {
            for (text, y, m, d) in [
                ("2020-01-01", 2020, 1, 1),
                ("1/2/2020", 2020, 1, 2),
                ("1-2-2020", 2020, 1, 2),
                ("1/2/20", 2020, 1, 2),
                ("1/2/99", 1999, 1, 2),
                ("2020/1/2", 2020, 1, 2),
                ("1 Jan 2020", 2020, 1, 1),
                ("1-Jan-2020", 2020, 1, 1),
                ("Jan 1, 2020", 2020, 1, 1),
                ("January 1 2020", 2020, 1, 1),
                ("SEPT 3, 2021", 2021, 9, 3),
                ("Jan 2020", 2020, 1, 1),
                ("1/2020", 2020, 1, 1),
                ("2020-01", 2020, 1, 1),
                ("1/2", 2026, 1, 2),
                ("5-Jul", 2026, 7, 5),
                ("Jul 5", 2026, 7, 5),
                ("1/32", 1932, 1, 1),
                ("2/29/1900", 1900, 2, 29),
            ] {
                assert_eq!(date_time(text), Some(Reading::Date { day: day_of(y, m, d), time: None }), "{text}");
            }
            for text in ["2/29/2021", "13/1/2020", "1/2/123", "Jan Feb 2020", "1//2020", "2020-01-02T10:00", "Monday"] {
                assert_eq!(date_time(text), None, "{text}");
            }
            assert_eq!(number("2020-01-01"), Some(43_831.0));
            assert_eq!(number("1/1/1900"), Some(1.0));
        });
    }

    #[test]
    fn times() {
        for (text, secs) in [
            ("12:30", 45_000.0),
            ("12:30:45", 45_045.0),
            ("12:30:45.5", 45_045.5),
            ("12:30 PM", 45_000.0),
            ("12:30 AM", 1800.0),
            ("12:30pm", 45_000.0),
            ("5 PM", 61_200.0),
            ("5PM", 61_200.0),
            ("5:30 a", 19_800.0),
            ("12:30.5", 750.5),
            ("30:15", 108_900.0),
        ] {
            assert_eq!(date_time(text), Some(Reading::Time(secs / SECONDS_PER_DAY)), "{text}");
        }
        for text in ["12:60", "13:00 PM", "12:30:60", "12:", ":30", "5", "1:2:3:4"] {
            assert_eq!(date_time(text), None, "{text}");
        }
    }

    #[test]
    fn dates_with_times() {
        let day = day_of(2020, 1, 2);
        for text in ["1/2/2020 12:30 PM", "2020-01-02 12:30", "12:30 1/2/2020", "Jan 2, 2020 12:30:00"] {
            assert_eq!(date_time(text), Some(Reading::Date { day, time: Some(0.5 + 1.0 / 48.0) }), "{text}");
        }
        assert_eq!(date_time("1/2/2020 30:00"), None);
        let _c = Calendar::new(DateSystem::D1904, Clock::System).enter();
        assert_eq!(number("1/2/2020 12:00"), Some((day - 1462) as f64 + 0.5));
        assert_eq!(number("1/1/1903"), None, "before the 1904 system's first day");
    }
}
