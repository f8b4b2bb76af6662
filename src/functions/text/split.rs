//! TEXTBEFORE and TEXTAFTER: the text before (after) the n-th delimiter.
//! The delimiter may be an array or a range of delimiters, any of which
//! counts (the longest where several match at one place); instances are
//! counted from the start, or from the end when `instance_num` is negative,
//! without overlapping. `match_mode` 1 compares without case; `match_end`
//! 1 lets the end of the text (the start, counting from the end) act as
//! one more delimiter. An empty delimiter matches at once: at the start
//! counting forward, at the end counting back. Not found: `if_not_found`
//! when given, else #N/A; instance 0 or beyond the text's length #VALUE!.
//! The other arguments are lifted over arrays. TEXTSPLIT cuts one text
//! into an array at column and row delimiters (of the same kinds).

use super::{flag, lift_flat, text_result};
use crate::eval::{BExpr, Eval};
use crate::functions::args::{array, given, scalar};
use crate::value::{Array, ErrorKind, MAX_ARRAY_CELLS, MAX_WORK, Value};
use std::sync::Arc;

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

/// `TEXTSPLIT(text, col_delimiter, [row_delimiter], [ignore_empty],
/// [match_mode], [pad_with])`: the text cut into rows at the row
/// delimiters, each row into columns at the column delimiters (an empty or
/// omitted delimiter cuts nothing); short rows padded with `pad_with`
/// (#N/A by default). With `ignore_empty`, empty pieces are dropped.
pub fn textsplit(ev: &mut Eval, args: &[BExpr]) -> Value {
    match textsplit_parts(ev, args) {
        Ok(v) => v,
        Err(e) => Value::Error(e),
    }
}

fn textsplit_parts(ev: &mut Eval, args: &[BExpr]) -> Result<Value, ErrorKind> {
    let text: Vec<char> = scalar(ev, &args[0]).to_text()?.chars().collect();
    let cols = given(args, 1).map_or(Ok(Vec::new()), |e| delimiters(ev, e))?;
    let rows = given(args, 2).map_or(Ok(Vec::new()), |e| delimiters(ev, e))?;
    let ignore_empty = given(args, 3).map_or(Ok(false), |e| scalar(ev, e).to_bool())?;
    let ignore_case = given(args, 4).map_or(Ok(false), |e| flag(&scalar(ev, e)))?;
    let pad = given(args, 5).map_or(Value::Error(ErrorKind::NA), |e| scalar(ev, e));
    if cols.iter().chain(&rows).all(Vec::is_empty) {
        return Err(ErrorKind::Value);
    }
    let fold = |c: char| if ignore_case { c.to_lowercase().next().unwrap_or(c) } else { c };
    let fold_all = |ds: Vec<Vec<char>>| -> Vec<Vec<char>> {
        ds.into_iter().filter(|d| !d.is_empty()).map(|d| d.into_iter().map(fold).collect()).collect()
    };
    let (cols, rows) = (fold_all(cols), fold_all(rows));
    let hay: Vec<char> = text.iter().map(|&c| fold(c)).collect();
    let piece = |(a, b): (usize, usize)| Value::text(&text[a..b].iter().collect::<String>());
    let mut table: Vec<Vec<Value>> = Vec::new();
    for (r0, r1) in cut(&hay, 0, hay.len(), &rows, ignore_empty) {
        let cells: Vec<Value> = cut(&hay, r0, r1, &cols, ignore_empty).into_iter().map(piece).collect();
        table.push(cells);
    }
    if table.is_empty() {
        table.push(Vec::new());
    }
    let width = table.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let height = table.len();
    if (width as u64) * (height as u64) > MAX_ARRAY_CELLS {
        return Err(ErrorKind::Num);
    }
    let mut data = Vec::with_capacity(width * height);
    for row in &table {
        data.extend(row.iter().cloned());
        data.extend(std::iter::repeat_n(pad.clone(), width - row.len()));
    }
    Ok(match data.len() {
        1 => data.swap_remove(0),
        _ => Value::Array(Arc::new(Array::new(height, width, data))),
    })
}

/// The pieces of `hay[from..to]` between delimiters (the longest where
/// several match at one place), as ranges; without delimiters the whole.
/// With `ignore_empty`, empty pieces are left out.
fn cut(hay: &[char], from: usize, to: usize, delims: &[Vec<char>], ignore_empty: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut start, mut i) = (from, from);
    while i < to {
        let len = delims.iter().filter(|d| hay[i..to].starts_with(d)).map(Vec::len).max();
        match len {
            Some(len) => {
                out.push((start, i));
                i += len;
                start = i;
            }
            None => i += 1,
        }
    }
    out.push((start, to));
    if ignore_empty {
        out.retain(|(a, b)| a < b);
    }
    out
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
    fn cutting_into_pieces() {
        let hay: Vec<char> = "a,,b;c".chars().collect();
        let d = [vec![','], vec![';']];
        assert_eq!(cut(&hay, 0, hay.len(), &d, false), [(0, 1), (2, 2), (3, 4), (5, 6)]);
        assert_eq!(cut(&hay, 0, hay.len(), &d, true), [(0, 1), (3, 4), (5, 6)]);
        assert_eq!(cut(&hay, 2, 4, &[], false), [(2, 4)]);
    }

    #[test]
    fn empty_delimiter_matches_at_once() {
        assert_eq!(at("abc", &[""], 1, false), Some((0, 0)));
        assert_eq!(at("abc", &[""], -1, false), Some((3, 0)));
        assert_eq!(at("abc", &[""], 2, false), Some((1, 0)));
    }
}
