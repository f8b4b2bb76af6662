//! Structured references to Excel tables, as text: how the bracketed part
//! is cut out of a formula, read and written back. What the reference means
//! is `crate::table`'s.
//!
//! ```text
//! specifier := "[" "]"                          all columns, data rows
//!            | "[" column "]"                   one column, data rows
//!            | "[" keyword "]"                  #All #Data #Headers #Totals #This Row
//!            | "[" "@" (column | "[" column "]")? "]"   this row
//!            | "[" item ("," item)* "]"
//! item      := "[" keyword "]" | "[" column "]" (":" "[" column "]")?
//! ```
//!
//! Inside a column name `'` escapes the next character (`'[`, `']`, `'#`,
//! `''`), as Excel writes names holding them; keywords are read in any case.

use crate::ast::{TableRef, TableRows};
use std::fmt;

/// The length in bytes of the bracketed text `text` starts with (its `[`
/// included): brackets nest and `'` escapes the next character. None when
/// it is not closed.
pub(crate) fn bracket_len(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\'' => {
                chars.next();
            }
            '[' => depth += 1,
            ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The rows and columns a bracketed specifier (with its brackets) names.
pub(crate) fn specifier(text: &str) -> Result<(TableRows, Option<(String, String)>), String> {
    let inner = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')).ok_or("a structured reference is `[...]`")?;
    let mut rows = TableRows::default();
    let trimmed = inner.trim();
    if trimmed.is_empty() {
        return Ok((rows, None));
    }
    if let Some(rest) = trimmed.strip_prefix('@') {
        rows.this_row = true;
        let rest = rest.trim();
        let column = match rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            Some(c) => unescape(c),
            None if rest.is_empty() => return Ok((rows, None)),
            None => unescape(rest),
        };
        return Ok((rows, Some((column.clone(), column))));
    }
    if !trimmed.starts_with('[') {
        if trimmed.starts_with('#') {
            keyword(trimmed, &mut rows)?;
            return Ok((rows, None));
        }
        let column = unescape(inner);
        return Ok((rows, Some((column.clone(), column))));
    }
    let mut columns: Option<(String, String)> = None;
    let mut rest = trimmed;
    loop {
        let piece = item(rest)?;
        rest = rest[piece.len()..].trim_start();
        let body = &piece[1..piece.len() - 1];
        if body.trim_start().starts_with('#') {
            keyword(body.trim(), &mut rows)?;
        } else {
            let first = unescape(body);
            let last = match rest.strip_prefix(':') {
                Some(after) => {
                    let next = item(after.trim_start())?;
                    rest = after.trim_start()[next.len()..].trim_start();
                    unescape(&next[1..next.len() - 1])
                }
                None => first.clone(),
            };
            if columns.replace((first, last)).is_some() {
                return Err("a structured reference names one column or one range of columns".into());
            }
        }
        match rest.strip_prefix(',') {
            Some(after) => rest = after.trim_start(),
            None if rest.is_empty() => break,
            None => return Err(format!("unexpected `{rest}` in a structured reference")),
        }
    }
    Ok((rows, columns))
}

/// The bracketed item `text` starts with.
fn item(text: &str) -> Result<&str, String> {
    match text.starts_with('[').then(|| bracket_len(text)).flatten() {
        Some(n) => Ok(&text[..n]),
        None => Err(format!("expected `[...]` in a structured reference, found `{text}`")),
    }
}

/// Sets the rows a keyword names.
fn keyword(word: &str, rows: &mut TableRows) -> Result<(), String> {
    match word.to_ascii_lowercase().as_str() {
        "#all" => (rows.headers, rows.data, rows.totals) = (true, true, true),
        "#data" => rows.data = true,
        "#headers" => rows.headers = true,
        "#totals" => rows.totals = true,
        "#this row" => rows.this_row = true,
        _ => return Err(format!("unknown item `{word}`: #All, #Data, #Headers, #Totals or #This Row")),
    }
    Ok(())
}

/// A column name as written: `'` before a character stands for it.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\'' { chars.next().unwrap_or('\'') } else { c });
    }
    out
}

/// A column name written inside brackets.
fn escape(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '[' | ']' | '#' | '\'') {
            out.push('\'');
        }
        out.push(c);
    }
    out
}

/// The reference as Excel stores it: `Sales[Qty]`, `Sales[[#This Row],[Qty]]`,
/// `Sales[[#Headers],[Item]:[Qty]]`, `Sales[]`.
impl fmt::Display for TableRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(t) = &self.table {
            f.write_str(t)?;
        }
        let r = self.rows;
        let mut items: Vec<String> = Vec::new();
        if r.headers && r.data && r.totals {
            items.push("[#All]".into());
        } else {
            let named =
                [(r.headers, "[#Headers]"), (r.data, "[#Data]"), (r.totals, "[#Totals]"), (r.this_row, "[#This Row]")];
            items.extend(named.iter().filter(|(on, _)| *on).map(|(_, k)| k.to_string()));
        }
        match &self.columns {
            Some((a, b)) if a == b && items.is_empty() && a.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                return write!(f, "[{a}]");
            }
            Some((a, b)) if a == b => items.push(format!("[{}]", escape(a))),
            Some((a, b)) => items.push(format!("[{}]:[{}]", escape(a), escape(b))),
            None => {}
        }
        match items.as_slice() {
            [] => f.write_str("[]"),
            [one] if !one.contains(':') && one.starts_with("[#") => f.write_str(one),
            _ => write!(f, "[{}]", items.join(",")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (TableRows, Option<(String, String)>) {
        specifier(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn cols(a: &str, b: &str) -> Option<(String, String)> {
        Some((a.into(), b.into()))
    }

    #[test]
    fn every_form_reads_and_prints_back() {
        let this = TableRows { this_row: true, ..TableRows::default() };
        assert_eq!(read("[]"), (TableRows::default(), None));
        assert_eq!(read("[Qty]"), (TableRows::default(), cols("Qty", "Qty")));
        assert_eq!(read("[Unit price]"), (TableRows::default(), cols("Unit price", "Unit price")));
        assert_eq!(read("[@Qty]"), (this, cols("Qty", "Qty")));
        assert_eq!(read("[@[Unit price]]"), (this, cols("Unit price", "Unit price")));
        assert_eq!(read("[[#This Row],[Qty]]"), (this, cols("Qty", "Qty")));
        assert_eq!(read("[#totals]").0, TableRows { totals: true, ..TableRows::default() });
        assert_eq!(read("[[#Headers],[#Data],[Item]:[Qty]]").1, cols("Item", "Qty"));
        assert_eq!(read("[Column'#]"), (TableRows::default(), cols("Column#", "Column#")));
        assert_eq!(read("[[Column'[]]"), (TableRows::default(), cols("Column[", "Column[")));
        assert!(specifier("[#Nope]").is_err());
        assert!(specifier("[[A],[B]]").is_err(), "two columns without a range");
        for text in
            ["[]", "[Qty]", "[[#This Row],[Qty]]", "[#All]", "[[#Headers],[#Data],[Item]:[Qty]]", "[[Column'#]]"]
        {
            let (rows, columns) = read(text);
            let printed = TableRef { table: Some("T".into()), rows, columns }.to_string();
            assert_eq!(printed, format!("T{text}"), "{text}");
        }
        assert_eq!(bracket_len("[a[b]c]+1"), Some(7));
        assert_eq!(bracket_len("[a']]+1"), Some(5), "an escaped bracket");
        assert_eq!(bracket_len("[a"), None);
    }
}
