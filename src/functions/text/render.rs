//! TEXT's rendering of a value through a parsed format (`format`). A
//! number picks its section by sign (one section: every number, negatives
//! with a leading `-`; two: positive and zero, negative; three: positive,
//! negative, zero; a section chosen for a negative number shows no minus of
//! its own). Digits come from the number's 15 significant digits, rounded
//! half away from zero at the last decimal shown, so `1.005` with `0.00`
//! is `1.01` as Excel shows it. Integer digits fill the placeholders from
//! the right (extra digits go to the first one); fraction digits from the
//! left. Text goes through the text section: the fourth, or a last section
//! holding `@`; without one it is shown unchanged. A section of date and
//! time codes shows the number as a date (`date_codes`).

use super::date_codes;
use super::format::{Part, Section};
use crate::value::{ErrorKind, format_number};

/// The text section's index, if the format has one.
fn text_section(sections: &[Section]) -> Option<usize> {
    let last = sections.len() - 1;
    (sections.len() == 4 || sections[last].has(&Part::At)).then_some(last)
}

/// A text value through the format.
pub fn text(sections: &[Section], s: &str) -> String {
    let Some(i) = text_section(sections) else { return s.to_string() };
    let mut out = String::new();
    for p in &sections[i].parts {
        match p {
            Part::Lit(l) => out.push_str(l),
            Part::At => out.push_str(s),
            _ => {}
        }
    }
    out
}

/// A number through the format; #VALUE! for a date section given a
/// number that is no date.
pub fn number(sections: &[Section], x: f64) -> Result<String, ErrorKind> {
    let nums = &sections[..text_section(sections).unwrap_or(sections.len())];
    let (sec, minus) = match nums {
        [] => return Ok(format_number(x)),
        [one] => (one, x < 0.0),
        [_, neg, ..] if x < 0.0 => (neg, false),
        [_, _, zero, ..] if x == 0.0 => (zero, false),
        [pos, ..] => (pos, false),
    };
    if sec.is_date() {
        return date_codes::render(sec, x);
    }
    let body = section(sec, x.abs());
    Ok(if minus && !sec.parts.is_empty() { format!("-{body}") } else { body })
}

/// Renders `x` (not negative) through one section.
fn section(sec: &Section, x: f64) -> String {
    if !sec.has_digits() {
        return sec.parts.iter().map(|p| literal(p, x)).collect();
    }
    let x = x * 100f64.powi(sec.percent) / 1000f64.powi(sec.scale);
    let exp_at = sec.parts.iter().position(|p| matches!(p, Part::Exp { .. }));
    let point_at = sec.parts.iter().position(|p| *p == Part::Point);
    let end = exp_at.unwrap_or(sec.parts.len());
    let int_kinds = kinds(&sec.parts[..point_at.unwrap_or(end)]);
    let frac_kinds = point_at.map_or(Vec::new(), |p| kinds(&sec.parts[p + 1..end]));
    let (int, frac, exp) = match exp_at {
        None => {
            let (i, f) = fixed(x, frac_kinds.len(), 0);
            (i, f, 0)
        }
        Some(_) => scientific(x, &int_kinds, frac_kinds.len()),
    };
    let int_cells = group(place(&int, &int_kinds), sec.grouping);
    let frac_cells = fraction(&frac, &frac_kinds);
    let exp_cells = exp_at.map_or(Vec::new(), |e| place(&exp.unsigned_abs().to_string(), &kinds(&sec.parts[e + 1..])));
    let mut cells = int_cells.iter().chain(&frac_cells).chain(&exp_cells);
    let mut out = String::new();
    for p in &sec.parts {
        match p {
            Part::Digit(_) => out.push_str(cells.next().map_or("", String::as_str)),
            Part::Point if int_kinds.is_empty() => out.extend([int.as_str(), "."]),
            Part::Exp { plus } => out.push_str(match (exp < 0, plus) {
                (true, _) => "E-",
                (false, true) => "E+",
                (false, false) => "E",
            }),
            p => out.push_str(&literal(p, x)),
        }
    }
    out
}

/// What a part shows outside the digits: literals, the point, `General`.
fn literal(p: &Part, x: f64) -> String {
    match p {
        Part::Lit(s) => s.clone(),
        Part::Point => ".".into(),
        Part::General => format_number(x),
        _ => String::new(),
    }
}

/// The placeholder characters of some parts.
fn kinds(parts: &[Part]) -> Vec<char> {
    parts.iter().filter_map(|p| if let Part::Digit(c) = p { Some(*c) } else { None }).collect()
}

/// `x`'s 15 significant digits and decimal exponent: `x` is
/// `d0.d1d2… × 10^e`.
fn significant(x: f64) -> (Vec<u8>, i32) {
    let s = format!("{x:.14e}");
    let (mantissa, e) = s.split_once('e').unwrap_or((&s, "0"));
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
    (digits, e.parse().unwrap_or(0))
}

/// `x / 10^shift` rounded half away from zero to `decimals` places: its
/// integer digits without leading zeros (empty for 0) and exactly
/// `decimals` fraction digits.
fn fixed(x: f64, decimals: usize, shift: i32) -> (String, String) {
    let (mut ds, e) = significant(x);
    let mut point = e + 1 - shift;
    if point < 0 {
        ds.splice(0..0, std::iter::repeat_n(0, point.unsigned_abs() as usize));
        point = 0;
    }
    let mut point = point as usize;
    let keep = point + decimals;
    if ds.len() > keep {
        let up = ds[keep] >= 5;
        ds.truncate(keep);
        if up && !carry(&mut ds) {
            ds.insert(0, 1);
            point += 1;
        }
    }
    ds.resize(point + decimals, 0);
    let text = |d: &[u8]| d.iter().map(|&b| char::from(b'0' + b)).collect::<String>();
    let int = text(&ds[..point]);
    (int.trim_start_matches('0').to_string(), text(&ds[point..]))
}

/// Adds one at the last digit; false when it carries out of the first.
fn carry(ds: &mut [u8]) -> bool {
    for d in ds.iter_mut().rev() {
        if *d == 9 {
            *d = 0;
        } else {
            *d += 1;
            return true;
        }
    }
    false
}

/// Scientific notation: the exponent leaves as many integer digits as
/// there are integer placeholders, or with `#` among them is a multiple of
/// their count (`##0.0E+0`: engineering notation). Returns the mantissa's
/// digits and the exponent.
fn scientific(x: f64, int_kinds: &[char], decimals: usize) -> (String, String, i32) {
    let k = int_kinds.len().max(1) as i32;
    let hash = int_kinds.contains(&'#');
    let e = if x == 0.0 { 0 } else { significant(x).1 };
    let mut exp = match (x == 0.0, hash) {
        (true, _) => 0,
        (false, true) => e.div_euclid(k) * k,
        (false, false) => e - (k - 1),
    };
    loop {
        let (int, frac) = fixed(x, decimals, exp);
        if int.len() as i32 <= k {
            return (int, frac, exp);
        }
        exp += if hash { k } else { 1 };
    }
}

/// Integer digits into their placeholders, right-aligned: missing digits
/// are `0` for `0`, a space for `?`, nothing for `#`; extra digits go to
/// the first placeholder.
fn place(digits: &str, kinds: &[char]) -> Vec<String> {
    let (n, len) = (kinds.len(), digits.len());
    let mut cells: Vec<String> = kinds
        .iter()
        .enumerate()
        .map(|(i, &k)| match (i + len).checked_sub(n) {
            Some(p) => digits[p..p + 1].to_string(),
            None if k == '0' => "0".into(),
            None if k == '?' => " ".into(),
            None => String::new(),
        })
        .collect();
    if len > n && n > 0 {
        cells[0].insert_str(0, &digits[..len - n]);
    }
    cells
}

/// Thousands separators among the placed integer digits, counted from the
/// right (a space where the digit is a `?` pad).
fn group(cells: Vec<String>, grouping: bool) -> Vec<String> {
    if !grouping {
        return cells;
    }
    let mut k = cells.iter().map(|c| c.chars().count()).sum::<usize>();
    cells
        .into_iter()
        .map(|cell| {
            let mut out = String::new();
            for c in cell.chars() {
                k -= 1;
                out.push(c);
                if k > 0 && k % 3 == 0 {
                    out.push(if c == ' ' { ' ' } else { ',' });
                }
            }
            out
        })
        .collect()
}

/// Fraction digits into their placeholders, left to right: a trailing
/// zero is dropped for `#` and a space for `?`.
fn fraction(digits: &str, kinds: &[char]) -> Vec<String> {
    kinds
        .iter()
        .enumerate()
        .map(|(j, &k)| match (k, digits[j..].bytes().all(|b| b == b'0')) {
            ('#', true) => String::new(),
            ('?', true) => " ".into(),
            _ => digits[j..j + 1].to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_on_fifteen_digits() {
        assert_eq!(fixed(1.005, 2, 0), ("1".into(), "01".into()));
        assert_eq!(fixed(2.5, 0, 0), ("3".into(), String::new()));
        assert_eq!(fixed(99.96, 1, 0), ("100".into(), "0".into()));
        assert_eq!(fixed(0.04, 1, 0), (String::new(), "0".into()));
        assert_eq!(fixed(0.000001234, 10, 0), (String::new(), "0000012340".into()));
        assert_eq!(fixed(12345.0, 1, 3), ("12".into(), "3".into()));
        assert_eq!(fixed(123456789012345678.0, 0, 0).0, "123456789012346000");
    }

    #[test]
    fn placing_digits() {
        assert_eq!(place("12", &['0', '0', '0']), ["0", "1", "2"]);
        assert_eq!(place("12345", &['#', '0']), ["1234", "5"]);
        assert_eq!(place("", &['#', '?', '0']), ["", " ", "0"]);
        assert_eq!(group(place("1234567", &['#', '#', '#', '0']), true).concat(), "1,234,567");
        assert_eq!(group(place("5", &['0', '0', '0', '0']), true).concat(), "0,005");
        assert_eq!(fraction("500", &['0', '#', '?']), ["5", "", " "]);
        assert_eq!(scientific(12345.0, &['#', '#', '0'], 1), ("12".into(), "3".into(), 3));
        assert_eq!(scientific(9.99, &['0'], 1), ("1".into(), "0".into(), 1));
    }
}
