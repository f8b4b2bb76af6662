//! TEXTBEFORE and TEXTAFTER: the text before (after) the n-th delimiter.
//! The delimiter may be an array or a range of delimiters, any of which
//! counts (the longest where several match at one place); instances are
//! counted from the start, or from the end when `instance_num` is negative,
//! without overlapping. `match_mode` 1 compares without case; `match_end`
//! 1 lets the end of the text (the start, counting from the end) act as
//! one more delimiter. An empty delimiter matches at once: at the start
//! counting forward, at the end counting back. Not found: `if_not_found`
//! when given, else #N/A; instance 0 or beyond the text's length #VALUE!.
//! The other arguments are lifted over arrays.

use super::{flag, lift_flat, text_result};
use crate::eval::{BExpr, Eval};
use crate::functions::args::{array, given};
use crate::value::{ErrorKind, MAX_WORK, Value};

/// `TEXTBEFORE(text, delimiter, [instance_num], [match_mode], [match_end],
/// [if_not_found])`.
pub fn textbefore(ev: &mut Eval, args: &[BExpr]) -> Value {
    split(ev, args, false)
}

/// `TEXTAFTER(...)`, with TEXTBEFORE's arguments.
pub fn textafter(ev: &mut Eval, args: &[BExpr]) -> Value {
    split(ev, args, true)
}

fn split(ev: &mut Eval, args: &[BExpr], after: bool) -> Value {
    let delims = match delimiters(ev, &args[1]) {
        Ok(d) => d,
        Err(e) => return Value::Error(e),
    };
    let defaults = [None, Some(1.0), Some(0.0), Some(0.0)];
    let vals: Vec<Value> = [0, 2, 3, 4]
        .into_iter()
        .zip(defaults)
        .map(|(i, d)| match (given(args, i), d) {
            (Some(e), _) => ev.read(e),
            (None, Some(d)) => Value::Number(d),
            (None, None) => Value::Empty,
        })
        .collect();
    let fallback = given(args, 5).map(|a| ev.read(a));
    lift_flat(&vals, |v| {
        let text: Vec<char> = v[0].to_text()?.chars().collect();
        let n = v[1].to_number()?.trunc();
        let (ignore_case, end) = (flag(&v[2])?, flag(&v[3])?);
        if n == 0.0 || n.abs() > text.len().max(1) as f64 {
            return Err(ErrorKind::Value);
        }
        if !after && text.is_empty() {
            return Ok(Value::text(""));
        }
        let fold = |c: char| if ignore_case { c.to_lowercase().next().unwrap_or(c) } else { c };
        let delims: Vec<Vec<char>> = delims.iter().map(|d| d.iter().map(|&c| fold(c)).collect()).collect();
        let hay: Vec<char> = text.iter().map(|&c| fold(c)).collect();
        match find(&hay, &delims, n as i64, end) {
            Some((at, len)) => {
                let part: String = if after { text[at + len..].iter().collect() } else { text[..at].iter().collect() };
                text_result(&part)
            }
            None => fallback.clone().ok_or(ErrorKind::NA),
        }
    })
}

/// The delimiters as character lists: every element of an array or a
/// range (an error among them is the result); at most as much work as
/// [`MAX_WORK`] allows against a text of the longest length.
fn delimiters(ev: &mut Eval, e: &BExpr) -> Result<Vec<Vec<char>>, ErrorKind> {
    let arr = array(ev, e)?;
    let mut out = Vec::with_capacity(arr.len());
    for v in arr.values() {
        out.push(v.to_text()?.chars().collect::<Vec<char>>());
    }
    out.sort();
    out.dedup();
    let chars: u64 = out.iter().map(|d| d.len().max(1) as u64).sum();
    if chars.saturating_mul(crate::value::MAX_TEXT as u64) > MAX_WORK {
        return Err(ErrorKind::Num);
    }
    Ok(out)
}

/// The `n`-th delimiter (from the end when negative) in `hay`: its start
/// and length, in characters. With `end`, the end of the text (the start,
/// counting back) is one more, empty, delimiter.
fn find(hay: &[char], delims: &[Vec<char>], n: i64, end: bool) -> Option<(usize, usize)> {
    let longest = |ends_at: Option<usize>, starts_at: Option<usize>| {
        delims
            .iter()
            .filter(|d| match (starts_at, ends_at) {
                (Some(s), _) => hay[s..].starts_with(d),
                (_, Some(e)) => hay[..e].ends_with(d),
                _ => false,
            })
            .map(Vec::len)
            .max()
    };
    let mut count = 0;
    if n > 0 {
        let mut i = 0;
        while i <= hay.len() {
            if let Some(len) = longest(None, Some(i)) {
                count += 1;
                if count == n {
                    return Some((i, len));
                }
                i += len.max(1);
                continue;
            }
            i += 1;
        }
        (end && count + 1 == n).then_some((hay.len(), 0))
    } else {
        let mut j = hay.len() as i64;
        while j >= 0 {
            let e = j as usize;
            if let Some(len) = longest(Some(e), None) {
                count += 1;
                if count == -n {
                    return Some((e - len, len));
                }
                j -= len.max(1) as i64;
                continue;
            }
            j -= 1;
        }
        (end && count + 1 == -n).then_some((0, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(hay: &str, delims: &[&str], n: i64, end: bool) -> Option<(usize, usize)> {
        let hay: Vec<char> = hay.chars().collect();
        let delims: Vec<Vec<char>> = delims.iter().map(|d| d.chars().collect()).collect();
        find(&hay, &delims, n, end)
    }

    #[test]
    fn instances_both_ways() {
        assert_eq!(at("a-b-c", &["-"], 1, false), Some((1, 1)));
        assert_eq!(at("a-b-c", &["-"], 2, false), Some((3, 1)));
        assert_eq!(at("a-b-c", &["-"], 3, false), None);
        assert_eq!(at("a-b-c", &["-"], 3, true), Some((5, 0)));
        assert_eq!(at("a-b-c", &["-"], -1, false), Some((3, 1)));
        assert_eq!(at("a-b-c", &["-"], -3, true), Some((0, 0)));
        assert_eq!(at("aaa", &["aa"], 1, false), Some((0, 2)));
        assert_eq!(at("aaa", &["aa"], -1, false), Some((1, 2)));
        assert_eq!(at("a, b", &[",", ", "], 1, false), Some((1, 2)));
    }

    #[test]
    fn empty_delimiter_matches_at_once() {
        assert_eq!(at("abc", &[""], 1, false), Some((0, 0)));
        assert_eq!(at("abc", &[""], -1, false), Some((3, 0)));
        assert_eq!(at("abc", &[""], 2, false), Some((1, 0)));
    }
}
