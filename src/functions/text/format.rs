//! Excel number formats for TEXT: the parser. A format is up to four
//! sections separated by `;` (positive, negative, zero, text); each is a
//! list of [`Part`]s: digit placeholders (`0` pads with zeros, `#` shows
//! significant digits only, `?` pads with spaces), the decimal point, an
//! exponent (`E+`, `E-`), `General`, `@` (the text) and literal text
//! (`"quoted"`, `\x`, `_x` as a space, and characters shown as they are).
//! A `,` between digit placeholders groups thousands; `,` after the last
//! one divides by 1000 each; each `%` multiplies by 100. Colours (`[Red]`)
//! and `*x` fills are dropped, `[$€-407]` shows its symbol. Date and time
//! codes (`yyyy-mm-dd`, `h:mm AM/PM`, `[h]:mm:ss.00`) are read by
//! `date_codes`. Conditions (`[>100]`) and fractions (`# ?/?`) are not
//! supported: such a format is #VALUE!, as is one of more than four
//! sections. Rendering is in `render`.

use super::date_codes::{self, DateCode};
use crate::value::ErrorKind;

/// One element of a section.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Lit(String),
    /// A digit placeholder: `0`, `#` or `?`.
    Digit(char),
    /// The first `.` of the section.
    Point,
    /// `E+` (`plus`: the sign is always shown) or `E-`.
    Exp {
        plus: bool,
    },
    General,
    /// `@`: the text value.
    At,
    /// A date or time code.
    Date(DateCode),
}

/// One section of a format.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    pub parts: Vec<Part>,
    /// Thousands separators between digit placeholders.
    pub grouping: bool,
    /// Number of `,` after the last digit placeholder (each divides by 1000).
    pub scale: i32,
    /// Number of `%` (each multiplies by 100).
    pub percent: i32,
}

impl Section {
    pub fn has(&self, p: &Part) -> bool {
        self.parts.contains(p)
    }
    /// Whether the section places digits (otherwise it is literal text,
    /// `General` or a text section).
    pub fn has_digits(&self) -> bool {
        self.parts.iter().any(|p| matches!(p, Part::Digit(_)))
    }
    /// Whether the section shows a date or a time (holds date codes).
    pub fn is_date(&self) -> bool {
        self.parts.iter().any(|p| matches!(p, Part::Date(_)))
    }
}

/// Colour names Excel accepts in brackets (dropped: TEXT has no colour).
const COLOURS: [&str; 8] = ["black", "blue", "cyan", "green", "magenta", "red", "white", "yellow"];

/// Parses a format into its sections (at most four).
pub fn parse(fmt: &str) -> Result<Vec<Section>, ErrorKind> {
    let mut sections = vec![Section::default()];
    let chars: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let sec = sections.last_mut().ok_or(ErrorKind::Value)?;
        let next = chars.get(i + 1).copied();
        i += 1;
        match c {
            ';' => sections.push(Section::default()),
            '"' => {
                let end = chars[i..].iter().position(|&q| q == '"').ok_or(ErrorKind::Value)?;
                lit(sec, chars[i..i + end].iter().collect());
                i += end + 1;
            }
            '\\' => {
                lit(sec, next.map_or(String::from("\\"), String::from));
                i += 1;
            }
            '_' => {
                lit(sec, " ".into());
                i += 1;
            }
            '*' => i += 1,
            '[' => {
                let end = chars[i..].iter().position(|&q| q == ']').ok_or(ErrorKind::Value)?;
                bracket(sec, &chars[i..i + end].iter().collect::<String>())?;
                i += end + 1;
            }
            '0' | '#' | '?' => sec.parts.push(Part::Digit(c)),
            '.' if date_codes::after_seconds(&sec.parts) => {
                match chars[i..].iter().take_while(|&&z| z == '0').count() {
                    0 => lit(sec, ".".into()),
                    n @ 1..=3 => sec.parts.push(Part::Date(DateCode::Fraction(n))),
                    _ => return Err(ErrorKind::Value),
                }
                i += chars[i..].iter().take_while(|&&z| z == '0').count();
            }
            '.' if !sec.has(&Part::Point) && !sec.parts.iter().any(|p| matches!(p, Part::Exp { .. })) => {
                sec.parts.push(Part::Point)
            }
            ',' => comma(sec, next),
            '%' => {
                sec.percent += 1;
                lit(sec, "%".into());
            }
            '@' => sec.parts.push(Part::At),
            '/' if sec.has_digits() => return Err(ErrorKind::Value),
            'E' | 'e' if matches!(next, Some('+' | '-')) => {
                if !sec.has_digits() {
                    return Err(ErrorKind::Value);
                }
                sec.parts.push(Part::Exp { plus: next == Some('+') });
                i += 1;
            }
            'G' | 'g' if starts_general(&chars[i - 1..]) => {
                sec.parts.push(Part::General);
                i += "General".len() - 1;
            }
            _ => match date_codes::code(&chars[i - 1..]) {
                Some(code) => {
                    let (code, len) = code?;
                    sec.parts.push(Part::Date(code));
                    i += len - 1;
                }
                None => lit(sec, c.into()),
            },
        }
    }
    if sections.len() > 4 {
        return Err(ErrorKind::Value);
    }
    for sec in &mut sections {
        date_codes::resolve(&mut sec.parts)?;
    }
    Ok(sections)
}

/// Appends literal text, joining it to a literal just before.
fn lit(sec: &mut Section, s: String) {
    match sec.parts.last_mut() {
        Some(Part::Lit(prev)) => prev.push_str(&s),
        _ => sec.parts.push(Part::Lit(s)),
    }
}

/// A `,`: a thousands separator between digit placeholders, a scaling
/// after the last one (before the point, the exponent or the end of the
/// digits), literal text elsewhere.
fn comma(sec: &mut Section, next: Option<char>) {
    let after_digit = matches!(sec.parts.last(), Some(Part::Digit(_)));
    let before_digit = matches!(next, Some('0' | '#' | '?'));
    match (after_digit, before_digit) {
        (true, true) if !sec.has(&Part::Point) => {
            sec.grouping = true;
            sec.scale = 0;
        }
        (true, true) => {}
        (true, false) => sec.scale += 1,
        (false, _) => lit(sec, ",".into()),
    }
}

/// The inside of `[...]`: a colour (dropped), `$symbol-locale` (the
/// symbol), an elapsed time (`[h]`), anything else (conditions)
/// unsupported.
fn bracket(sec: &mut Section, inner: &str) -> Result<(), ErrorKind> {
    let lower = inner.to_ascii_lowercase();
    if COLOURS.contains(&lower.as_str()) || lower.strip_prefix("color").is_some_and(|n| n.parse::<u8>().is_ok()) {
        return Ok(());
    }
    if let Some(code) = date_codes::elapsed(inner) {
        sec.parts.push(Part::Date(code));
        return Ok(());
    }
    match inner.strip_prefix('$') {
        Some(cur) => {
            lit(sec, cur.split('-').next().unwrap_or("").into());
            Ok(())
        }
        None => Err(ErrorKind::Value),
    }
}

fn starts_general(rest: &[char]) -> bool {
    rest.len() >= 7 && rest[..7].iter().collect::<String>().eq_ignore_ascii_case("general")
}

#[cfg(test)]
mod tests {
    use super::*;
    use Part::{Digit as D, Lit as L};

    fn one(fmt: &str) -> Section {
        let mut s = parse(fmt).expect(fmt);
        assert_eq!(s.len(), 1, "{fmt}");
        s.remove(0)
    }

    #[test]
    fn placeholders_and_separators() {
        let s = one("#,##0.00");
        assert_eq!(s.parts, [D('#'), D('#'), D('#'), D('0'), Part::Point, D('0'), D('0')]);
        assert!(s.grouping && s.scale == 0);
        let s = one("#,##0,,");
        assert!(s.grouping && s.scale == 2);
        assert_eq!(one("0.0,,").scale, 2);
        assert_eq!(one(",0").parts, [L(",".into()), D('0')]);
        let s = one("0.0%");
        assert_eq!((s.percent, s.parts.last()), (1, Some(&L("%".into()))));
        assert_eq!(one("0.00E+00").parts[4], Part::Exp { plus: true });
        assert_eq!(one("0E-0").parts[1], Part::Exp { plus: false });
        assert_eq!(one("0.0.0").parts, [D('0'), Part::Point, D('0'), L(".".into()), D('0')]);
    }

    #[test]
    fn literals() {
        assert_eq!(one("\"a;b\"0").parts, [L("a;b".into()), D('0')]);
        assert_eq!(one("\\k0_)").parts, [L("k".into()), D('0'), L(" ".into())]);
        assert_eq!(one("$-+():!x0").parts, [L("$-+():!x".into()), D('0')]);
        assert_eq!(one("*-0").parts, [D('0')]);
        assert_eq!(one("[Red]0").parts, [D('0')]);
        assert_eq!(one("[$€-407] 0").parts, [L("€ ".into()), D('0')]);
        assert_eq!(one("\"x\"general").parts, [L("x".into()), Part::General]);
        assert_eq!(one("\"<\"@").parts, [L("<".into()), Part::At]);
    }

    #[test]
    fn sections_and_refusals() {
        assert_eq!(parse("0;(0);\"zero\";@").map(|s| s.len()), Ok(4));
        assert_eq!(parse(";;").map(|s| s.len()), Ok(3));
        assert_eq!(parse("").map(|s| s.len()), Ok(1));
        for bad in ["0;0;0;0;0", "0 d", "0 AM/PM", "[>3]0", "ss.0000", "# ?/?", "\"abc", "E+0", "0 kg", "ggg"] {
            assert_eq!(parse(bad), Err(ErrorKind::Value), "{bad}");
        }
    }
}
