//! Excel 365's regular-expression functions, REGEXTEST, REGEXEXTRACT and
//! REGEXREPLACE, on the `regex` crate ([`compile`], shared with XLOOKUP's
//! and XMATCH's match mode 3). Matching is case-sensitive unless the
//! `case_sensitivity` argument is 1 (only 0 and 1 are allowed); a pattern
//! the crate cannot read is #VALUE!. The crate's syntax is close to
//! Excel's PCRE2 but has no lookaround, no backreferences inside the
//! pattern and no possessive quantifiers (`docs/compatibility.md`); it
//! runs in time linear in the text, so no pattern can take long on
//! Excel's 32,767-character texts. REGEXEXTRACT's modes 1 (every match,
//! as a column) and 2 (the first match's capture groups, as a row) give
//! arrays; lifted over an array of texts, each element keeps only its
//! first value. REGEXREPLACE reads `$n`, `${n}`, `${name}` and `$$` in
//! the replacement.

use super::{flag, lift_flat, text_result};
use crate::eval::{BExpr, Eval};
use crate::functions::args::read_or_default;
use crate::value::{Array, ErrorKind, Value};
use regex::{Regex, RegexBuilder};
use std::cell::RefCell;
use std::sync::Arc;

/// Bound on a compiled pattern and on its lazy DFA (bytes): a pattern such
/// as `(a{1000}){1000}` is refused (#VALUE!) rather than built.
const SIZE_LIMIT: usize = 1 << 22;

/// A pattern as the regex functions read it; #VALUE! when it is invalid
/// (or too large to build).
pub(crate) fn compile(pattern: &str, ignore_case: bool) -> Result<Regex, ErrorKind> {
    RegexBuilder::new(pattern)
        .case_insensitive(ignore_case)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .build()
        .map_err(|_| ErrorKind::Value)
}

/// The last pattern compiled, so that a call lifted over an array of
/// texts with one pattern compiles it once.
#[derive(Default)]
struct Cache(RefCell<Option<(Arc<str>, bool, Regex)>>);

impl Cache {
    fn get(&self, pattern: &Value, case: Option<&Value>) -> Result<Regex, ErrorKind> {
        let pattern = pattern.to_text()?;
        let ignore_case = case.map_or(Ok(false), flag)?;
        let mut slot = self.0.borrow_mut();
        if let Some((p, i, re)) = &*slot
            && *p == pattern
            && *i == ignore_case
        {
            return Ok(re.clone());
        }
        let re = compile(&pattern, ignore_case)?;
        *slot = Some((pattern, ignore_case, re.clone()));
        Ok(re)
    }
}

/// `REGEXTEST(text, pattern, [case_sensitivity])`: whether any part of
/// the text matches.
pub fn regextest(ev: &mut Eval, args: &[BExpr]) -> Value {
    let vals = read_or_default(ev, args, &[None, None, Some(0.0)]);
    let cache = Cache::default();
    lift_flat(&vals, |v| {
        let re = cache.get(&v[1], v.get(2))?;
        Ok(Value::Bool(re.is_match(&v[0].to_text()?)))
    })
}

/// `REGEXEXTRACT(text, pattern, [return_mode], [case_sensitivity])`:
/// mode 0 the first match, 1 every match (a column), 2 the first match's
/// capture groups (a row; a group that took no part is empty text); no
/// match #N/A, another mode #VALUE!.
pub fn regexextract(ev: &mut Eval, args: &[BExpr]) -> Value {
    let vals = read_or_default(ev, args, &[None, None, Some(0.0), Some(0.0)]);
    let cache = Cache::default();
    lift_flat(&vals, |v| {
        let re = cache.get(&v[1], v.get(3))?;
        let text = v[0].to_text()?;
        let mode = v[2].to_number()?.trunc();
        let texts = |items: Vec<&str>, column: bool| -> Result<Value, ErrorKind> {
            let n = items.len();
            let data = items.into_iter().map(Value::text).collect();
            let (rows, cols) = if column { (n, 1) } else { (1, n) };
            Ok(Value::Array(Arc::new(Array::new(rows, cols, data))))
        };
        match mode {
            0.0 => re.find(&text).map(|m| Value::text(m.as_str())).ok_or(ErrorKind::NA),
            1.0 => match re.find_iter(&text).map(|m| m.as_str()).collect::<Vec<_>>() {
                found if found.is_empty() => Err(ErrorKind::NA),
                found => texts(found, true),
            },
            2.0 => {
                let caps = re.captures(&text).ok_or(ErrorKind::NA)?;
                if caps.len() < 2 {
                    return Err(ErrorKind::NA);
                }
                texts(caps.iter().skip(1).map(|g| g.map_or("", |m| m.as_str())).collect(), false)
            }
            _ => Err(ErrorKind::Value),
        }
    })
}

/// `REGEXREPLACE(text, pattern, replacement, [occurrence],
/// [case_sensitivity])`: every match replaced (occurrence 0), or only the
/// n-th (counted from the end when negative; past the last, the text
/// unchanged).
pub fn regexreplace(ev: &mut Eval, args: &[BExpr]) -> Value {
    let vals = read_or_default(ev, args, &[None, None, None, Some(0.0), Some(0.0)]);
    let cache = Cache::default();
    lift_flat(&vals, |v| {
        let re = cache.get(&v[1], v.get(4))?;
        let (text, with) = (v[0].to_text()?, dollar_groups(&v[2].to_text()?));
        let n = v[3].to_number()?.trunc();
        let matches: Vec<regex::Captures> = re.captures_iter(&text).collect();
        let chosen = match n {
            0.0 => None,
            n if n.abs() > matches.len() as f64 => return Ok(Value::Text(text)),
            n if n > 0.0 => Some(n as usize - 1),
            n => Some(matches.len() - n.abs() as usize),
        };
        let (mut out, mut last) = (String::new(), 0);
        for (i, caps) in matches.iter().enumerate() {
            if chosen.is_some_and(|c| c != i) {
                continue;
            }
            let Some(m) = caps.get(0) else { continue };
            out.push_str(&text[last..m.start()]);
            caps.expand(&with, &mut out);
            last = m.end();
            if out.len() > 4 * crate::value::MAX_TEXT {
                return Err(ErrorKind::Value);
            }
        }
        out.push_str(&text[last..]);
        text_result(&out)
    })
}

/// The replacement with each `$n` written `${n}`, so that `$1a` is group 1
/// then `a`, as PCRE2 reads it (the crate would look for a group `1a`).
fn dollar_groups(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c != '$' {
            continue;
        }
        match chars.peek() {
            Some('$') => out.extend(chars.next()),
            Some(d) if d.is_ascii_digit() => {
                out.push('{');
                while let Some(d) = chars.next_if(char::is_ascii_digit) {
                    out.push(d);
                }
                out.push('}');
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replacement_groups() {
        assert_eq!(dollar_groups("$2, $1"), "${2}, ${1}");
        assert_eq!(dollar_groups("$1a$$x${name}"), "${1}a$$x${name}");
        assert_eq!(dollar_groups("cost $"), "cost $");
    }

    #[test]
    fn invalid_and_huge_patterns() {
        assert_eq!(compile("(", false).err(), Some(ErrorKind::Value));
        assert_eq!(compile("(?<=a)b", false).err(), Some(ErrorKind::Value));
        assert_eq!(compile("(a{1000}){1000}", false).err(), Some(ErrorKind::Value));
        assert!(compile("[A-Z]", true).is_ok_and(|r| r.is_match("abc")));
    }
}
