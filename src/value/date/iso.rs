//! ISO 8601 dates and times, `YYYY-MM-DD[(T| )hh:mm[:ss[.fff]]]`: the
//! moment `--now` pins the clock at, and the date cells of a workbook
//! saved as strict Open XML (`<c t="d"><v>2009-05-11</v>`), which give
//! dates as text rather than serial numbers.

use super::{DAY_1904, DateSystem, LAST_DAY, PHANTOM_DAY, SECONDS_PER_DAY, day_of, days_in_month};

/// The date's year, month and day and the seconds into the day, if `text`
/// is an ISO date (any year from 1000) with an optional time of day.
fn parse(text: &str) -> Option<(i64, i64, i64, f64)> {
    let t = text.trim();
    let (date, time) = match t.split_once(['T', 't', ' ']) {
        Some((d, tm)) => (d, Some(tm.trim())),
        None => (t, None),
    };
    let num = |s: &str, digits: std::ops::RangeInclusive<usize>| {
        (digits.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse::<i64>().ok()).flatten()
    };
    let mut parts = date.split('-');
    let (Some(y), Some(m), Some(d), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return None;
    };
    let (y, m, d) = (num(y, 4..=4)?, num(m, 1..=2)?, num(d, 1..=2)?);
    if y < 1000 || !(1..=12).contains(&m) || d < 1 || d > i64::from(days_in_month(y, m as u32)) {
        return None;
    }
    let secs = match time {
        None => 0.0,
        Some(tm) => {
            let f: Vec<&str> = tm.split(':').collect();
            if !(2..=3).contains(&f.len()) {
                return None;
            }
            let (h, mi) = (num(f[0], 1..=2)?, num(f[1], 2..=2)?);
            let s = match f.get(2) {
                None => 0.0,
                Some(s) if s.len() >= 2 && s.len() <= 12 && s.bytes().all(|b| b.is_ascii_digit() || b == b'.') => {
                    s.parse::<f64>().ok()?
                }
                Some(_) => return None,
            };
            if h > 23 || mi > 59 || s >= 60.0 {
                return None;
            }
            (h * 3600 + mi * 60) as f64 + s
        }
    };
    Some((y, m, d, secs))
}

/// A timestamp from 1900 to 9999 as a 1900-system serial: the day as
/// `day_of` numbers it, and the fraction of the day.
pub(super) fn timestamp(text: &str) -> Option<f64> {
    let (y, m, d, secs) = parse(text)?;
    (1900..=9999).contains(&y).then(|| day_of(y, m, d) as f64 + secs / SECONDS_PER_DAY)
}

/// The serial number of an ISO date and time in `system`, as Excel writes
/// dates in strict Open XML: in the 1900 system the days from 1899-12-30
/// (the OLE epoch, which counts as Excel does from 1 March 1900 on; Excel
/// writes serial 0 as `1899-12-30`), in the 1904 system from 1904-01-01.
/// None when the text is no such date or the date is outside the system.
pub fn serial_of_iso(text: &str, system: DateSystem) -> Option<f64> {
    let (y, m, d, secs) = parse(text)?;
    let day = day_of(y, m, d);
    let serial = match system {
        DateSystem::D1900 if day < PHANTOM_DAY => day + 1,
        DateSystem::D1900 => day,
        DateSystem::D1904 => day - DAY_1904,
    };
    (0..=LAST_DAY - system.offset()).contains(&serial).then(|| serial as f64 + secs / SECONDS_PER_DAY)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        assert_eq!(timestamp("2026-11-28T17:30:00"), Some(46_354.0 + 17.5 / 24.0));
        assert_eq!(timestamp("2026-11-28 06:00"), Some(46_354.25));
        assert_eq!(timestamp("2026-11-28T06:00:30.5"), Some(46_354.25 + 30.5 / SECONDS_PER_DAY));
        for bad in ["2026-02-30", "26-11-28", "2026-11-28T25:00", "now", "2026-11-28T1:3", "1899-12-31", ""] {
            assert_eq!(timestamp(bad), None, "{bad}");
        }
    }

    #[test]
    fn strict_open_xml_dates() {
        let (a, b) = (DateSystem::D1900, DateSystem::D1904);
        assert_eq!(serial_of_iso("2009-05-11", a), Some(39_944.0));
        assert_eq!(serial_of_iso("2009-05-11T18:00:00", a), Some(39_944.75));
        assert_eq!(serial_of_iso("1899-12-30", a), Some(0.0));
        assert_eq!(serial_of_iso("1899-12-30T12:00:00", a), Some(0.5));
        assert_eq!(serial_of_iso("1900-03-01", a), Some(61.0));
        assert_eq!(serial_of_iso("1899-12-29", a), None);
        assert_eq!(serial_of_iso("9999-12-31", a), Some(2_958_465.0));
        assert_eq!(serial_of_iso("2009-05-11", b), Some(39_944.0 - 1462.0));
        assert_eq!(serial_of_iso("1904-01-01", b), Some(0.0));
        assert_eq!(serial_of_iso("1903-12-31", b), None);
        assert_eq!(serial_of_iso("PT12H", a), None);
    }
}
