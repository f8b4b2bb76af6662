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

use super::date::{self, Day, SECONDS_PER_DAY};
use super::parse_number;

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

/// One piece of a date or a time.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Token<'a> {
    /// Digits, with how many there were.
    Num(i64, usize),
    Word(&'a str),
    /// `/`, `-`, `,`, `:`, `.`, or a run of spaces as `' '`.
    Sep(char),
}

fn tokens(t: &str) -> Option<Vec<Token<'_>>> {
    let bytes = t.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let b = bytes[i];
        if b.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if i - start > 9 {
                return None;
            }
            out.push(Token::Num(t[start..i].parse().ok()?, i - start));
        } else if b.is_ascii_alphabetic() {
            while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                i += 1;
            }
            out.push(Token::Word(&t[start..i]));
        } else if b == b' ' {
            while i < bytes.len() && bytes[i] == b' ' {
                i += 1;
            }
            out.push(Token::Sep(' '));
        } else if matches!(b, b'/' | b'-' | b',' | b':' | b'.') {
            i += 1;
            out.push(Token::Sep(b as char));
        } else {
            return None;
        }
    }
    Some(out)
}

/// A date, a time, or both, as DATEVALUE and TIMEVALUE read text.
pub fn date_time(s: &str) -> Option<Reading> {
    let toks = tokens(s.trim())?;
    // The time is the run from the first `:` back to its number, or a
    // number followed by AM/PM; the date is what is left on either side.
    let colon = toks.iter().position(|t| *t == Token::Sep(':'));
    let ampm_at = toks.iter().position(|t| matches!(t, Token::Word(w) if meridiem(w).is_some()));
    let start = match (colon, ampm_at) {
        (Some(c), _) if c > 0 => Some(c - 1),
        (Some(_), _) => return None,
        (None, Some(a)) => {
            let n = if a > 0 && toks[a - 1] == Token::Sep(' ') { a.checked_sub(2)? } else { a.checked_sub(1)? };
            Some(n)
        }
        (None, None) => None,
    };
    let Some(start) = start else {
        return date(&toks).map(|day| Reading::Date { day, time: None });
    };
    let end = time_end(&toks, start);
    let (time, hours_free) = time(&toks[start..end])?;
    let before = trim_seps(&toks[..start]);
    let after = trim_seps(&toks[end..]);
    let date_part = match (before.is_empty(), after.is_empty()) {
        (true, true) => None,
        (false, true) => Some(before),
        (true, false) => Some(after),
        (false, false) => return None,
    };
    // Glued to its date by a space only.
    let glue_ok = |side: &[Token<'_>]| side.is_empty() || matches!(side.last(), Some(Token::Sep(' ')));
    if !glue_ok(&toks[..start]) || !(toks[end..].is_empty() || toks[end] == Token::Sep(' ')) {
        return None;
    }
    match date_part {
        None => Some(Reading::Time(time)),
        Some(_) if hours_free && time >= 1.0 => None,
        Some(d) => date(d).map(|day| Reading::Date { day, time: Some(time) }),
    }
}

/// `am`/`a` as 0 hours, `pm`/`p` as 12.
fn meridiem(w: &str) -> Option<i64> {
    match w.to_ascii_lowercase().as_str() {
        "am" | "a" => Some(0),
        "pm" | "p" => Some(12),
        _ => None,
    }
}

/// Where the time starting at `start` ends: numbers joined by `:` (and one
/// `.` for a fraction of a second), then an AM/PM word, glued or after
/// one space.
fn time_end(toks: &[Token<'_>], start: usize) -> usize {
    let mut i = start + 1;
    while i + 1 < toks.len() && matches!(toks[i], Token::Sep(':' | '.')) && matches!(toks[i + 1], Token::Num(..)) {
        i += 2;
    }
    match (toks.get(i), toks.get(i + 1)) {
        (Some(Token::Word(w)), _) if meridiem(w).is_some() => i + 1,
        (Some(Token::Sep(' ')), Some(Token::Word(w))) if meridiem(w).is_some() => i + 2,
        _ => i,
    }
}

/// Leading and trailing spaces and commas dropped.
fn trim_seps<'t, 'a>(toks: &'t [Token<'a>]) -> &'t [Token<'a>] {
    let sep = |t: &Token<'_>| matches!(t, Token::Sep(' ' | ','));
    let start = toks.iter().position(|t| !sep(t)).unwrap_or(toks.len());
    let end = toks.iter().rposition(|t| !sep(t)).map_or(start, |e| e + 1);
    &toks[start..end.max(start)]
}

/// A time as a fraction of a day, and whether its hours were free (no
/// AM/PM: past 24 allowed). Numbers joined by `:`, a fraction of a second
/// after the last (`h:mm:ss.f`, or `m:ss.f` whose minutes may pass 59),
/// then AM/PM.
fn time(toks: &[Token<'_>]) -> Option<(f64, bool)> {
    let mut nums = Vec::new();
    let mut i = 0;
    loop {
        let Some(Token::Num(n, _)) = toks.get(i) else { return None };
        nums.push(*n);
        i += 1;
        if toks.get(i) != Some(&Token::Sep(':')) {
            break;
        }
        i += 1;
    }
    let mut frac = None;
    if toks.get(i) == Some(&Token::Sep('.')) {
        let Some(Token::Num(n, len)) = toks.get(i + 1) else { return None };
        frac = Some(*n as f64 / 10f64.powi(*len as i32));
        i += 2;
    }
    if toks.get(i) == Some(&Token::Sep(' ')) {
        i += 1;
    }
    let mut ampm = None;
    if let Some(Token::Word(w)) = toks.get(i) {
        ampm = Some(meridiem(w)?);
        i += 1;
    }
    if i != toks.len() {
        return None;
    }
    let (h, m, s) = match (nums.as_slice(), frac, ampm) {
        ([h], None, Some(_)) => (*h, 0, 0.0),
        ([m, s], Some(f), None) => (0, *m, *s as f64 + f),
        ([h, m], None, _) if *m < 60 => (*h, *m, 0.0),
        ([h, m, s], f, _) if *m < 60 => (*h, *m, *s as f64 + f.unwrap_or(0.0)),
        _ => return None,
    };
    if s >= 60.0 || m > 9999 {
        return None;
    }
    let h = match ampm {
        Some(add) if (0..=12).contains(&h) => h % 12 + add,
        Some(_) => return None,
        None if h > 9999 => return None,
        None => h,
    };
    Some((((h * 3600 + m * 60) as f64 + s) / SECONDS_PER_DAY, ampm.is_none()))
}

/// The month a word names: its full English name or its first three
/// letters (and `Sept`), any case.
fn month_name(w: &str) -> Option<i64> {
    if w.len() < 3 {
        return None;
    }
    let i = date::MONTH_NAMES.iter().position(|n| {
        n.eq_ignore_ascii_case(w)
            || (w.len() == 3 && n[..3].eq_ignore_ascii_case(w))
            || (w.eq_ignore_ascii_case("sept") && n.starts_with("Sep"))
    })?;
    Some(i as i64 + 1)
}

/// One field of a date.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Field {
    Num(i64, usize),
    Month(i64),
}

/// The day a date's tokens name, if they are one.
fn date(toks: &[Token<'_>]) -> Option<Day> {
    let mut fields = Vec::new();
    let mut seps = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match *t {
            Token::Num(n, len) => fields.push(Field::Num(n, len)),
            Token::Word(w) => fields.push(Field::Month(month_name(w)?)),
            Token::Sep(c @ ('/' | '-' | ' ' | ',')) => {
                // Separators only between fields, one per gap (a comma
                // may take a space after it).
                let prev = toks.get(i.wrapping_sub(1));
                match prev {
                    Some(Token::Sep(',')) if c == ' ' => continue,
                    Some(Token::Num(..) | Token::Word(_)) => seps.push(c),
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
    if fields.len() != seps.len() + 1 || !(2..=3).contains(&fields.len()) {
        return None;
    }
    // A comma only after the day of `Jan 1, 2020`.
    if seps.contains(&',')
        && !(matches!(fields[..], [Field::Month(_), Field::Num(..), Field::Num(..)]) && seps[1] == ',')
    {
        return None;
    }
    let names = fields.iter().filter(|f| matches!(f, Field::Month(_))).count();
    // Numbers alone are joined all by `/` or all by `-` (`1 1/2` is a
    // fraction, not a date).
    if names > 1 || (names == 0 && !(seps.iter().all(|&c| c == '/') || seps.iter().all(|&c| c == '-'))) {
        return None;
    }
    let num = |f: Field| match f {
        Field::Num(n, len) => Some((n, len)),
        Field::Month(_) => None,
    };
    let (y, m, d) = match fields[..] {
        [Field::Month(m), d, y] => (year(num(y)?)?, m, num(d)?.0),
        [d, Field::Month(m), y] => (year(num(y)?)?, m, num(d)?.0),
        [Field::Month(m), x] => day_or_year(m, num(x)?)?,
        [x, Field::Month(m)] => (current_year(), m, num(x)?.0),
        [a, b, c] if num(a)?.1 == 4 => (year(num(a)?)?, num(b)?.0, num(c)?.0),
        [a, b, c] => (year(num(c)?)?, num(a)?.0, num(b)?.0),
        [a, b] if num(a)?.1 == 4 => (year(num(a)?)?, num(b)?.0, 1),
        [a, b] => day_or_year(num(a)?.0, num(b)?)?,
        _ => return None,
    };
    if !(1..=12).contains(&m) || d < 1 || d > i64::from(date::days_in_month(y, m as u32)) {
        return None;
    }
    Some(date::day_of(y, m, d))
}

/// After a month, a day of this year when it can be one (`Jan 5`, `1/31`),
/// else a year (`Jan 2020`, `1/32` is January 1932): the first of the month.
fn day_or_year(m: i64, (x, len): (i64, usize)) -> Option<(i64, i64, i64)> {
    if len <= 2 && (1..=12).contains(&m) && x >= 1 {
        let y = current_year();
        if x <= i64::from(date::days_in_month(y, m as u32)) {
            return Some((y, m, x));
        }
    }
    Some((year((x, len))?, m, 1))
}

/// A year as written: two digits (00-29 are 2000-2029, 30-99 1930-1999) or
/// four (1900 to 9999).
fn year((n, len): (i64, usize)) -> Option<i64> {
    match len {
        1 | 2 if n < 30 => Some(2000 + n),
        1 | 2 => Some(1900 + n),
        4 if (1900..=9999).contains(&n) => Some(n),
        _ => None,
    }
}

/// The year of the clock in effect (what TODAY reads).
fn current_year() -> i64 {
    date::ymd(date::now().floor() as Day).0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::date::{Calendar, Clock, DateSystem, day_of};

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
