//! Dates and times read from text, for [`read`](super::read) and for
//! DATEVALUE and TIMEVALUE ([`date_time`]): the text split into numbers,
//! words and separators, then read as a time, a date (month first, month
//! names, two-digit years), or both in either order.

use super::Reading;
use crate::value::date::{self, Day, SECONDS_PER_DAY};

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
