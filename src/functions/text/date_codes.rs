//! TEXT's date and time codes: reading them in a format (`format` calls
//! [`code`], [`elapsed`] and [`resolve`]) and rendering a serial number
//! through a section that holds them ([`render`]).
//!
//! The codes, in any case: `y`/`yy` (two-digit year), `yyy`/`yyyy` and `e`
//! (the year); `m`/`mm` (month, padded), `mmm` (`Jan`), `mmmm` (`January`;
//! also six or more), `mmmmm` (`J`); `d`/`dd`, `ddd` (`Mon`), `dddd` and
//! more (`Monday`); `h`/`hh`, `m`/`mm` as minutes, `s`/`ss`; `.0` to
//! `.000` after the seconds (their fraction); `[h]`, `[m]`, `[s]` (also
//! `[hh]`, `[mm]`, `[ss]`: padded) for elapsed hours, minutes or seconds;
//! `AM/PM` (shown `AM` or `PM` whatever the case written) and `A/P` (each
//! letter in the case written: `a/p` shows `a` or `p`), which make the
//! hours run 1 to 12. An `m` is the minutes when the date or time code
//! before it is an hour or the one after it a second (`h:mm`, `mm:ss`),
//! else the month. The era codes `g` to `ggg` are #VALUE!, as are digit
//! placeholders beside date codes.
//!
//! A value is rounded to the smallest unit shown (the second, or the
//! fraction of it shown), carrying into the minutes, hours and the day,
//! then shown in the date system in effect (`value::date`): 0 is
//! 1900-01-00 in the 1900 system, 60 its 29 February. A negative value, or
//! one past 9999-12-31, is #VALUE! (Excel shows `####` in a cell).

use super::format::{Part, Section};
use crate::value::ErrorKind;
use crate::value::date::{self, DAY_NAMES, MONTH_NAMES};

/// A unit of elapsed time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Hours,
    Minutes,
    Seconds,
}

/// One date or time code of a section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateCode {
    /// `yy` (`four`: false) or `yyyy`.
    Year {
        four: bool,
    },
    /// `m` to `mmmmm` and more, by how many letters.
    Month(usize),
    /// `d` to `dddd` and more, by how many letters.
    Day(usize),
    Hour {
        pad: bool,
    },
    Minute {
        pad: bool,
    },
    Second {
        pad: bool,
    },
    /// `.0` to `.000` after the seconds: that many digits of their fraction.
    Fraction(usize),
    /// `[h]`, `[mm]`, ...: the whole time elapsed in that unit.
    Elapsed {
        unit: Unit,
        pad: bool,
    },
    /// `AM/PM` or `A/P`: what is shown before noon and after.
    Meridiem {
        am: &'static str,
        pm: &'static str,
    },
}

/// The date or time code at the start of `rest` (a date letter, `AM/PM`
/// or `A/P`) and how many characters it takes; None when `rest` starts
/// with none.
pub fn code(rest: &[char]) -> Option<Result<(DateCode, usize), ErrorKind>> {
    let first = rest.first()?.to_ascii_lowercase();
    let starts = |s: &str| rest.len() >= s.len() && rest[..s.len()].iter().collect::<String>().eq_ignore_ascii_case(s);
    if first == 'a' {
        if starts("AM/PM") {
            return Some(Ok((DateCode::Meridiem { am: "AM", pm: "PM" }, 5)));
        }
        if starts("A/P") {
            let am = if rest[0] == 'a' { "a" } else { "A" };
            let pm = if rest[2] == 'p' { "p" } else { "P" };
            return Some(Ok((DateCode::Meridiem { am, pm }, 3)));
        }
        return None;
    }
    if !"ymdhseg".contains(first) {
        return None;
    }
    let n = rest.iter().take_while(|c| c.to_ascii_lowercase() == first).count();
    let code = match first {
        'y' => DateCode::Year { four: n > 2 },
        'e' => DateCode::Year { four: true },
        'm' => DateCode::Month(n),
        'd' => DateCode::Day(n),
        'h' => DateCode::Hour { pad: n > 1 },
        's' => DateCode::Second { pad: n > 1 },
        _ => return Some(Err(ErrorKind::Value)),
    };
    Some(Ok((code, n)))
}

/// The code inside `[...]` when it is an elapsed time (`h`, `mm`, `sss`:
/// one letter repeated).
pub fn elapsed(inner: &str) -> Option<DateCode> {
    let first = inner.chars().next()?.to_ascii_lowercase();
    let unit = match first {
        'h' => Unit::Hours,
        'm' => Unit::Minutes,
        's' => Unit::Seconds,
        _ => return None,
    };
    inner.chars().all(|c| c.to_ascii_lowercase() == first).then_some(DateCode::Elapsed { unit, pad: inner.len() > 1 })
}

/// Whether the section's last code is a second: a `.` then is their fraction.
pub fn after_seconds(parts: &[Part]) -> bool {
    let last = parts.iter().rev().find_map(|p| if let Part::Date(c) = p { Some(*c) } else { None });
    matches!(last, Some(DateCode::Second { .. } | DateCode::Elapsed { unit: Unit::Seconds, .. }))
}

/// A section's codes settled once it is read: a `.` is literal text
/// (`dd.mm.yyyy`), each `m` next to an hour or a second becomes the
/// minutes (see the module's text); digit placeholders beside date codes
/// are #VALUE!.
pub fn resolve(parts: &mut [Part]) -> Result<(), ErrorKind> {
    let codes: Vec<usize> = (0..parts.len()).filter(|&i| matches!(parts[i], Part::Date(_))).collect();
    if codes.is_empty() {
        return Ok(());
    }
    for p in parts.iter_mut().filter(|p| **p == Part::Point) {
        *p = Part::Lit(".".into());
    }
    if parts.iter().any(|p| matches!(p, Part::Digit(_) | Part::Exp { .. })) {
        return Err(ErrorKind::Value);
    }
    let code = |parts: &[Part], i: usize| match parts[i] {
        Part::Date(c) => c,
        _ => DateCode::Fraction(0),
    };
    for (k, &i) in codes.iter().enumerate() {
        let DateCode::Month(n) = code(parts, i) else { continue };
        let hour_before = k > 0
            && matches!(code(parts, codes[k - 1]), DateCode::Hour { .. } | DateCode::Elapsed { unit: Unit::Hours, .. });
        let second_after = codes.get(k + 1).is_some_and(|&j| {
            matches!(code(parts, j), DateCode::Second { .. } | DateCode::Elapsed { unit: Unit::Seconds, .. })
        });
        if hour_before || second_after {
            parts[i] = Part::Date(DateCode::Minute { pad: n > 1 });
        }
    }
    Ok(())
}

/// The moment a value stands for, split as the section shows it.
struct Moment {
    /// The year, month and day, and the weekday (0 = Sunday).
    ymd: (i64, u32, u32),
    weekday: u32,
    /// Hours, minutes and seconds of the day, and the fraction of the
    /// second in `1 / scale` units.
    hms: (i64, i64, i64),
    fraction: i64,
    /// The whole time elapsed since serial 0, in `1 / scale` seconds.
    ticks: i64,
    scale: i64,
}

/// `x` through a date section (see the module's text).
pub fn render(sec: &Section, x: f64) -> Result<String, ErrorKind> {
    let digits = sec
        .parts
        .iter()
        .filter_map(|p| if let Part::Date(DateCode::Fraction(n)) = p { Some(*n) } else { None })
        .max()
        .unwrap_or(0);
    let m = moment(x, digits)?;
    let twelve = sec.parts.iter().any(|p| matches!(p, Part::Date(DateCode::Meridiem { .. })));
    let mut out = String::new();
    for p in &sec.parts {
        match p {
            Part::Date(c) => show(&mut out, *c, &m, twelve),
            Part::Lit(s) => out.push_str(s),
            Part::General => out.push_str(&crate::value::format_number(x)),
            _ => {}
        }
    }
    Ok(out)
}

/// `x` rounded to `10^-digits` seconds and split; #VALUE! outside the
/// date system.
fn moment(x: f64, digits: usize) -> Result<Moment, ErrorKind> {
    let system = date::system();
    if !(0.0..system.max_serial() + 1.0).contains(&x) {
        return Err(ErrorKind::Value);
    }
    let scale = 10i64.pow(digits as u32);
    let per_day = 86_400 * scale;
    let ticks = (x * per_day as f64).round() as i64;
    let day = system.day((ticks / per_day) as f64).map_err(|_| ErrorKind::Value)?;
    let in_day = ticks % per_day;
    let secs = in_day / scale;
    Ok(Moment {
        ymd: date::ymd(day),
        weekday: date::weekday(day),
        hms: (secs / 3600, secs / 60 % 60, secs % 60),
        fraction: in_day % scale,
        ticks,
        scale,
    })
}

/// Appends what one code shows.
fn show(out: &mut String, code: DateCode, m: &Moment, twelve: bool) {
    let num = |out: &mut String, n: i64, pad: bool| {
        if pad {
            out.push_str(&format!("{n:02}"));
        } else {
            out.push_str(&n.to_string());
        }
    };
    let (y, mo, d) = m.ymd;
    let (h, mi, s) = m.hms;
    match code {
        DateCode::Year { four: true } => out.push_str(&y.to_string()),
        DateCode::Year { four: false } => num(out, y % 100, true),
        DateCode::Month(n @ 1..=2) => num(out, i64::from(mo), n == 2),
        DateCode::Month(3) => out.push_str(&MONTH_NAMES[mo as usize - 1][..3]),
        DateCode::Month(5) => out.push_str(&MONTH_NAMES[mo as usize - 1][..1]),
        DateCode::Month(_) => out.push_str(MONTH_NAMES[mo as usize - 1]),
        DateCode::Day(n @ 1..=2) => num(out, i64::from(d), n == 2),
        DateCode::Day(3) => out.push_str(&DAY_NAMES[m.weekday as usize][..3]),
        DateCode::Day(_) => out.push_str(DAY_NAMES[m.weekday as usize]),
        DateCode::Hour { pad } if twelve => num(out, (h + 11) % 12 + 1, pad),
        DateCode::Hour { pad } => num(out, h, pad),
        DateCode::Minute { pad } => num(out, mi, pad),
        DateCode::Second { pad } => num(out, s, pad),
        DateCode::Fraction(n) => {
            let digits = format!("{:0width$}", m.fraction, width = m.scale.ilog10() as usize);
            out.push('.');
            out.push_str(&digits[..n.min(digits.len())]);
        }
        DateCode::Elapsed { unit, pad } => {
            let secs = m.ticks / m.scale;
            let n = match unit {
                Unit::Hours => secs / 3600,
                Unit::Minutes => secs / 60,
                Unit::Seconds => secs,
            };
            num(out, n, pad);
        }
        DateCode::Meridiem { am, pm } => out.push_str(if h < 12 { am } else { pm }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::functions::text::format::parse;

    fn fmt(f: &str, x: f64) -> Result<String, ErrorKind> {
        let s = parse(f)?;
        render(&s[0], x)
    }

    #[test]
    fn dates() {
        let d = 43_831.0 + 0.75; // Wednesday 2020-01-01 18:00
        assert_eq!(fmt("yyyy-mm-dd", d).as_deref(), Ok("2020-01-01"));
        assert_eq!(fmt("dddd, mmmm d, yy", d).as_deref(), Ok("Wednesday, January 1, 20"));
        assert_eq!(fmt("ddd mmm mmmmm", d).as_deref(), Ok("Wed Jan J"));
        assert_eq!(fmt("YYYY/M/D", d).as_deref(), Ok("2020/1/1"));
        assert_eq!(fmt("dd.mm.yyyy", d).as_deref(), Ok("01.01.2020"));
        assert_eq!(fmt("d mmm yyyy", 60.0).as_deref(), Ok("29 Feb 1900"));
        assert_eq!(fmt("yyyy-mm-dd dddd", 0.0).as_deref(), Ok("1900-01-00 Saturday"));
        assert_eq!(fmt("yyyy", -1.0), Err(ErrorKind::Value));
        assert_eq!(fmt("yyyy", 2_958_466.0), Err(ErrorKind::Value));
        assert_eq!(fmt("ggg", 1.0), Err(ErrorKind::Value));
        assert_eq!(fmt("0 d", 1.0), Err(ErrorKind::Value));
    }

    #[test]
    fn times() {
        let t = 0.75 + 5.0 / 1440.0 + 9.25 / 86_400.0; // 18:05:09.25
        assert_eq!(fmt("h:mm:ss", t).as_deref(), Ok("18:05:09"));
        assert_eq!(fmt("hh:mm AM/PM", t).as_deref(), Ok("06:05 PM"));
        assert_eq!(fmt("h:mm am/pm", 0.25).as_deref(), Ok("6:00 AM"));
        assert_eq!(fmt("h a/p", t).as_deref(), Ok("6 p"));
        assert_eq!(fmt("h A/P", 0.0).as_deref(), Ok("12 A"));
        assert_eq!(fmt("mm:ss.00", t).as_deref(), Ok("05:09.25"));
        assert_eq!(fmt("ss.0", 59.96 / 86_400.0).as_deref(), Ok("00.0"), "rounds into the minute");
        assert_eq!(fmt("[h]:mm", 1.5).as_deref(), Ok("36:00"));
        assert_eq!(fmt("[mm]:ss", 0.1).as_deref(), Ok("144:00"));
        assert_eq!(fmt("[s]", 1.0).as_deref(), Ok("86400"));
        assert_eq!(fmt("h:mm", 0.999_999_9).as_deref(), Ok("0:00"), "rounded to the second");
        assert_eq!(fmt("yyyy-mm-dd h:mm", 43_831.999_999_9).as_deref(), Ok("2020-01-02 0:00"));
        assert_eq!(fmt("m/d h:m", 43_831.5 + 7.0 / 1440.0).as_deref(), Ok("1/1 12:7"));
    }
}
