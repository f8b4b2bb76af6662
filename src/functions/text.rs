//! Text functions: LEN, MID, LEFT, RIGHT, SUBSTITUTE, FIND, SEARCH, CHAR,
//! CODE, CONCATENATE, CONCAT, TEXTJOIN, VALUE, NUMBERVALUE (`number_value`),
//! TEXT (Excel number formats: `format` parses, `render` applies,
//! `date_codes` reads and shows dates and times), UPPER,
//! LOWER, TRIM, PROPER, CLEAN, UNICHAR, UNICODE, EXACT and REPT. Positions
//! and lengths count Unicode characters; numbers become text in Excel's
//! general format; a text result longer than
//! [`MAX_TEXT`] characters is #VALUE!. Scalar functions are lifted
//! element-wise over arrays (inside names); CONCAT and TEXTJOIN flatten
//! references and arrays instead. SEARCH uses the wildcard matcher of
//! `value` (also used by MATCH and the criteria).
//!
//! Excel 365's text functions live in their own files: FIXED and DOLLAR
//! (`money`, through TEXT's formats), VALUETOTEXT and ARRAYTOTEXT
//! (`totext`), TEXTBEFORE, TEXTAFTER and TEXTSPLIT (`split`), REGEXTEST, REGEXEXTRACT
//! and REGEXREPLACE (`regex`, whose patterns XLOOKUP's match mode 3 shares).
//! REPLACE is here; the byte-counting LENB, LEFTB, RIGHTB, MIDB, FINDB,
//! SEARCHB and REPLACEB count as their plain forms do, as Excel's do when
//! the default language is not a double-byte one.

mod date_codes;
pub(crate) mod format;
mod money;
mod number_value;
pub(crate) mod regex;
pub(crate) mod render;
mod split;
mod totext;

use super::Excel::{V365, V2013, V2019, V2021, V2024};
use super::args::{lift_res, lift_values, scalar};
use super::{FnSpec, VARIADIC};
use crate::eval::{BExpr, Eval};
use crate::value::{ErrorKind, MAX_TEXT, Value, Wildcard, read, too_long};

/// The text category.
pub const FUNCTIONS: &[FnSpec] = &[
    FnSpec::new("LEN", 1, 1, len),
    FnSpec::new("MID", 3, 3, mid),
    FnSpec::new("LEFT", 1, 2, left),
    FnSpec::new("RIGHT", 1, 2, right),
    FnSpec::new("SUBSTITUTE", 3, 4, substitute),
    FnSpec::new("FIND", 2, 3, find),
    FnSpec::new("SEARCH", 2, 3, search),
    FnSpec::new("CHAR", 1, 1, char_),
    FnSpec::new("CODE", 1, 1, code),
    FnSpec::new("CONCATENATE", 1, VARIADIC, concatenate),
    FnSpec::new("CONCAT", 1, VARIADIC, concat).since(V2019).openformula("COM.MICROSOFT.CONCAT"),
    FnSpec::new("TEXTJOIN", 3, VARIADIC, textjoin).since(V2019).openformula("COM.MICROSOFT.TEXTJOIN"),
    FnSpec::new("VALUE", 1, 1, value),
    FnSpec::new("NUMBERVALUE", 1, 3, |ev, a| lift_res(ev, a, number_value::number_value)).since(V2013),
    FnSpec::new("TEXT", 2, 2, |ev, a| lift_res(ev, a, text)),
    FnSpec::new("UPPER", 1, 1, upper),
    FnSpec::new("LOWER", 1, 1, lower),
    FnSpec::new("TRIM", 1, 1, trim),
    FnSpec::new("PROPER", 1, 1, proper),
    FnSpec::new("CLEAN", 1, 1, clean),
    FnSpec::new("UNICHAR", 1, 1, unichar).since(V2013),
    FnSpec::new("UNICODE", 1, 1, unicode).since(V2013),
    FnSpec::new("EXACT", 2, 2, exact),
    FnSpec::new("REPT", 2, 2, rept),
    // Added with Excel 365's text functions.
    FnSpec::new("REPLACE", 4, 4, replace),
    FnSpec::new("LENB", 1, 1, len),
    FnSpec::new("LEFTB", 1, 2, left),
    FnSpec::new("RIGHTB", 1, 2, right),
    FnSpec::new("MIDB", 3, 3, mid),
    FnSpec::new("FINDB", 2, 3, find),
    FnSpec::new("SEARCHB", 2, 3, search),
    FnSpec::new("REPLACEB", 4, 4, replace),
    FnSpec::new("FIXED", 1, 3, money::fixed),
    FnSpec::new("DOLLAR", 1, 2, money::dollar),
    FnSpec::new("VALUETOTEXT", 1, 2, totext::valuetotext)
        .since(V2021)
        .openformula("COM.MICROSOFT.VALUETOTEXT")
        .not_in_libreoffice(),
    FnSpec::new("ARRAYTOTEXT", 1, 2, totext::arraytotext)
        .since(V2021)
        .openformula("COM.MICROSOFT.ARRAYTOTEXT")
        .not_in_libreoffice(),
    FnSpec::new("TEXTBEFORE", 2, 6, split::textbefore)
        .since(V2024)
        .openformula("COM.MICROSOFT.TEXTBEFORE")
        .not_in_libreoffice(),
    FnSpec::new("TEXTAFTER", 2, 6, split::textafter)
        .since(V2024)
        .openformula("COM.MICROSOFT.TEXTAFTER")
        .not_in_libreoffice(),
    FnSpec::new("TEXTSPLIT", 2, 6, split::textsplit)
        .since(V2024)
        .openformula("COM.MICROSOFT.TEXTSPLIT")
        .not_in_libreoffice(),
    FnSpec::new("REGEXTEST", 2, 3, regex::regextest)
        .since(V365)
        .openformula("COM.MICROSOFT.REGEXTEST")
        .not_in_libreoffice(),
    FnSpec::new("REGEXEXTRACT", 2, 4, regex::regexextract)
        .since(V365)
        .openformula("COM.MICROSOFT.REGEXEXTRACT")
        .not_in_libreoffice(),
    FnSpec::new("REGEXREPLACE", 3, 5, regex::regexreplace)
        .since(V365)
        .openformula("COM.MICROSOFT.REGEXREPLACE")
        .not_in_libreoffice(),
];

type Res = Result<Value, ErrorKind>;

/// A text result, #VALUE! past [`MAX_TEXT`] characters.
fn text_result(s: &str) -> Res {
    if too_long(s) { Err(ErrorKind::Value) } else { Ok(Value::text(s)) }
}

/// A character count or position argument: truncated, not negative.
fn count(v: &Value) -> Result<usize, ErrorKind> {
    let n = v.to_number()?.trunc();
    if n < 0.0 { Err(ErrorKind::Value) } else { Ok(n as usize) }
}

/// A 1-based start position argument (at least 1).
fn start(v: Option<&Value>) -> Result<usize, ErrorKind> {
    match v.map(count).transpose()? {
        Some(0) => Err(ErrorKind::Value),
        s => Ok(s.unwrap_or(1)),
    }
}

/// The `n` characters of `s` from the 0-based char index `from`.
fn chars(s: &str, from: usize, n: usize) -> String {
    s.chars().skip(from).take(n).collect()
}

fn len(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| Ok(Value::Number(v[0].to_text()?.chars().count() as f64)))
}

fn mid(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| {
        let s = v[0].to_text()?;
        let (from, n) = (start(Some(&v[1]))?, count(&v[2])?);
        Ok(Value::text(&chars(&s, from - 1, n)))
    })
}

fn left(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| {
        let s = v[0].to_text()?;
        let n = v.get(1).map_or(Ok(1), count)?;
        Ok(Value::text(&chars(&s, 0, n)))
    })
}

fn right(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| {
        let s = v[0].to_text()?;
        let n = v.get(1).map_or(Ok(1), count)?;
        let total = s.chars().count();
        Ok(Value::text(&chars(&s, total.saturating_sub(n), n)))
    })
}

fn substitute(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| {
        let (s, old, new) = (v[0].to_text()?, v[1].to_text()?, v[2].to_text()?);
        let instance = v.get(3).map(|i| start(Some(i))).transpose()?;
        if old.is_empty() {
            return Ok(Value::Text(s));
        }
        match instance {
            None => text_result(&s.replace(&*old, &new)),
            Some(k) => match s.match_indices(&*old).nth(k - 1) {
                Some((at, _)) => text_result(&format!("{}{}{}", &s[..at], new, &s[at + old.len()..])),
                None => Ok(Value::Text(s)),
            },
        }
    })
}

/// FIND and SEARCH: the 1-based position of `needle` in `hay` from `from`.
fn find_with(v: &[Value], wildcards: bool) -> Res {
    let (needle, hay) = (v[0].to_text()?, v[1].to_text()?);
    let from = start(v.get(2))?;
    let chars: Vec<char> = hay.chars().collect();
    if from > chars.len() + 1 {
        return Err(ErrorKind::Value);
    }
    let found = if wildcards {
        Wildcard::new(&needle).find(&hay, from - 1)
    } else {
        let needle: Vec<char> = needle.chars().collect();
        (from - 1..=chars.len().saturating_sub(needle.len())).find(|&i| chars[i..].starts_with(&needle))
    };
    found.map(|i| Value::Number((i + 1) as f64)).ok_or(ErrorKind::Value)
}

fn find(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| find_with(v, false))
}

fn search(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| find_with(v, true))
}

/// Windows-1252 characters 0x80 ..= 0x9F (the unassigned ones map to the
/// C1 control of the same code, as Windows does).
const CP1252_HIGH: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž', '\u{8F}', '\u{90}', '‘', '’',
    '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}', 'ž', 'Ÿ',
];

fn char_(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| {
        let n = v[0].to_number()?.trunc();
        if !(1.0..=255.0).contains(&n) {
            return Err(ErrorKind::Value);
        }
        let n = n as u32;
        let c =
            if (0x80..0xA0).contains(&n) { CP1252_HIGH[(n - 0x80) as usize] } else { char::from_u32(n).unwrap_or('?') };
        Ok(Value::text(c.encode_utf8(&mut [0; 4])))
    })
}

fn code(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| {
        let c = v[0].to_text()?.chars().next().ok_or(ErrorKind::Value)?;
        let n = match c as u32 {
            n if n < 0x80 || (0xA0..=0xFF).contains(&n) => n,
            _ => CP1252_HIGH.iter().position(|&x| x == c).map_or(63, |i| 0x80 + i as u32),
        };
        Ok(Value::Number(n as f64))
    })
}

fn concatenate(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| {
        let mut s = String::new();
        for x in v {
            s.push_str(&x.to_text()?);
        }
        text_result(&s)
    })
}

/// Appends the texts of one argument to `out`: every cell of a reference
/// and every element of an array, row by row. With `skip_empty`, empty
/// cells and empty texts are left out. Stops with #VALUE! once `out` holds
/// more than `limit` texts (the caller's result would be too long).
fn collect_texts(
    ev: &mut Eval,
    e: &BExpr,
    skip_empty: bool,
    limit: usize,
    out: &mut Vec<String>,
) -> Result<(), ErrorKind> {
    let mut error = None;
    let mut push = |v: &Value, out: &mut Vec<String>| match v.to_text() {
        Err(e) => {
            error.get_or_insert(e);
        }
        Ok(t) if skip_empty && t.is_empty() => {}
        Ok(t) => out.push(t.to_string()),
    };
    let v = ev.eval(e);
    match (v.area_list(), v) {
        // Every area of a reference (or of several). Empty cells add
        // nothing when skipped, so visiting the stored part is enough;
        // otherwise every cell is read in order.
        (Some(areas), _) => {
            for area in areas {
                if skip_empty {
                    ev.visit(&area, |v| push(v, out));
                    continue;
                }
                for c in area.cells() {
                    push(&ev.cell_value(c), out);
                    if out.len() > limit {
                        return Err(ErrorKind::Value);
                    }
                }
            }
        }
        (None, Value::Array(a)) => a.each(|v| push(v, out)),
        (None, v) => push(&v, out),
    }
    match error {
        Some(e) => Err(e),
        None if out.len() > limit => Err(ErrorKind::Value),
        None => Ok(()),
    }
}

fn concat(ev: &mut Eval, args: &[BExpr]) -> Value {
    let mut parts = Vec::new();
    for a in args {
        if let Err(e) = collect_texts(ev, a, true, MAX_TEXT, &mut parts) {
            return Value::Error(e);
        }
    }
    text_result(&parts.concat()).unwrap_or_else(Value::Error)
}

fn textjoin(ev: &mut Eval, args: &[BExpr]) -> Value {
    join(ev, args).unwrap_or_else(Value::Error)
}

fn join(ev: &mut Eval, args: &[BExpr]) -> Res {
    let mut delims = Vec::new();
    collect_texts(ev, &args[0], false, MAX_TEXT, &mut delims)?;
    let ignore_empty = scalar(ev, &args[1]).to_bool()?;
    // Empty parts change nothing when every delimiter is empty too.
    let skip = ignore_empty || delims.iter().all(|d| d.is_empty());
    // Past this many parts, the non-empty delimiters alone are too long.
    let limit = (MAX_TEXT + 1).saturating_mul(delims.len().max(1));
    let mut parts = Vec::new();
    for a in &args[2..] {
        collect_texts(ev, a, skip, limit, &mut parts)?;
    }
    let mut s = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 && !delims.is_empty() {
            s.push_str(&delims[(i - 1) % delims.len()]);
        }
        s.push_str(p);
    }
    text_result(&s)
}

fn value(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| match &v[0] {
        Value::Number(n) => Ok(Value::Number(*n)),
        Value::Empty => Ok(Value::Number(0.0)),
        Value::Text(s) => read::number(s).map(Value::Number).ok_or(ErrorKind::Value),
        Value::Error(e) => Err(*e),
        _ => Err(ErrorKind::Value),
    })
}

/// TEXT(value, format): a number (or text VALUE reads as one, or an empty
/// cell as 0) in the format; other text and booleans through its text
/// section.
fn text(v: &[Value]) -> Res {
    if let Value::Error(e) = v[0] {
        return Err(e);
    }
    let sections = format::parse(&v[1].to_text()?)?;
    let out = match &v[0] {
        Value::Empty => render::number(&sections, 0.0)?,
        Value::Number(n) => render::number(&sections, *n)?,
        Value::Text(s) => match read::number(s) {
            Some(n) => render::number(&sections, n)?,
            None => render::text(&sections, s),
        },
        v => render::text(&sections, &v.to_text()?),
    };
    text_result(&out)
}

fn upper(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| Ok(Value::text(&v[0].to_text()?.to_uppercase())))
}

fn lower(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| Ok(Value::text(&v[0].to_text()?.to_lowercase())))
}

/// Removes leading and trailing spaces and collapses inner runs to one
/// (only the ASCII space, as Excel).
fn trim(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| {
        Ok(Value::text(&v[0].to_text()?.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ")))
    })
}

/// Upper-cases the first letter of the text and every letter that follows
/// a character that is not a letter, lower-cases the others:
/// `76BUDGET` → `76Budget`, `o'neil` → `O'Neil`.
fn proper(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| {
        let mut after_letter = false;
        let mut out = String::new();
        for c in v[0].to_text()?.chars() {
            if after_letter {
                out.extend(c.to_lowercase())
            } else {
                out.extend(c.to_uppercase())
            }
            after_letter = c.is_alphabetic();
        }
        Ok(Value::text(&out))
    })
}

/// Removes the non-printing characters 0 to 31.
fn clean(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| Ok(Value::text(&v[0].to_text()?.chars().filter(|&c| c as u32 >= 32).collect::<String>())))
}

/// The character of a Unicode code point (truncated); `#N/A` for a
/// surrogate, `#VALUE!` for 0 or past U+10FFFF (Excel's documented errors).
fn unichar(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| {
        let n = v[0].to_number()?.trunc();
        if !(1.0..=1_114_111.0).contains(&n) {
            return Err(ErrorKind::Value);
        }
        let c = char::from_u32(n as u32).ok_or(ErrorKind::NA)?;
        Ok(Value::text(c.encode_utf8(&mut [0; 4])))
    })
}

/// The code point of the first character; `#VALUE!` for the empty text.
fn unicode(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| {
        let c = v[0].to_text()?.chars().next().ok_or(ErrorKind::Value)?;
        Ok(Value::Number(c as u32 as f64))
    })
}

fn exact(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| Ok(Value::Bool(v[0].to_text()? == v[1].to_text()?)))
}

/// `REPLACE(text, start, n, new)`: `n` characters from `start` replaced
/// by `new` (past the end, `new` is appended).
fn replace(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| {
        let s = v[0].to_text()?;
        let (from, n) = (start(Some(&v[1]))? - 1, count(&v[2])?);
        let new = v[3].to_text()?;
        let head = chars(&s, 0, from);
        text_result(&format!("{head}{new}{}", chars(&s, from.saturating_add(n), usize::MAX)))
    })
}

/// A 0-or-1 mode argument (a match mode, a case sensitivity, a format),
/// truncated; any other number #VALUE!.
fn flag(v: &Value) -> Result<bool, ErrorKind> {
    match v.to_number()?.trunc() {
        0.0 => Ok(false),
        1.0 => Ok(true),
        _ => Err(ErrorKind::Value),
    }
}

/// `f` on scalar arguments, whose result may be an array (REGEXEXTRACT's
/// matches, TEXTBEFORE's `if_not_found`); lifted over array arguments,
/// each element keeps the first value of its result.
fn lift_flat(vals: &[Value], f: impl Fn(&[Value]) -> Res) -> Value {
    if !vals.iter().any(|v| matches!(v, Value::Array(_))) {
        return f(vals).unwrap_or_else(Value::Error);
    }
    lift_values(vals, |v| match f(v) {
        Ok(Value::Array(a)) => a.first().unwrap_or(Value::Error(ErrorKind::Value)),
        r => r.unwrap_or_else(Value::Error),
    })
}

fn rept(ev: &mut Eval, args: &[BExpr]) -> Value {
    lift_res(ev, args, |v| {
        let (s, n) = (v[0].to_text()?, count(&v[1])?);
        if s.chars().count().saturating_mul(n) > MAX_TEXT {
            return Err(ErrorKind::Value);
        }
        Ok(Value::text(&s.repeat(n)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_page() {
        assert_eq!(CP1252_HIGH.len(), 32);
        assert_eq!(CP1252_HIGH[0], '€');
        assert_eq!(CP1252_HIGH[0x99 - 0x80], '™');
    }
}
