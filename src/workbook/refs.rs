//! Small text forms shared by the workbook files, the CLI and the engine:
//! cell and area references with an optional sheet (`Main!D4`,
//! `Main!D4:L12`, `D4`, `'My Sheet'!A1`), constants typed by a user
//! (`5`, `TRUE`, `#N/A`, `solve`), and the rules for workbook names and
//! sheet names. Errors carry a span relative to the text so the loader can
//! point at the faulty part.

use crate::address::{Area, SheetId, col_name, parse_col, parse_row};
use crate::ast::{Axis, Expr, ExprKind, RefExpr, RefKind, Span};
use crate::value::{ErrorKind, Value, parse_number};

/// A reference that did not read, with the part of the text at fault.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RefError {
    pub span: Span,
    pub message: String,
    pub label: &'static str,
}

/// Reads `Main!D4`, `Main!D4:L12`, `D4` (on `default_sheet`) or
/// `'My Sheet'!A1` (quotes doubled inside: `'Bob''s'!A1`). Sheet names match
/// case-insensitively; `$` signs are allowed and ignored; corners may come in
/// any order. The error says what is wrong, naming the known sheets when the
/// sheet is unknown.
pub fn parse_cell_ref(text: &str, sheets: &[String], default_sheet: SheetId) -> Result<Area, crate::Error> {
    parse_ref(text, sheets, default_sheet).map_err(|e| crate::Error::Reference(e.message))
}

pub(crate) fn parse_ref(text: &str, sheets: &[String], default_sheet: SheetId) -> Result<Area, RefError> {
    let lead = text.len() - text.trim_start().len();
    let body = text.trim();
    let all = lead..lead + body.len();
    if body.is_empty() {
        return Err(RefError {
            span: 0..text.len(),
            message: "empty cell reference".into(),
            label: "expected a cell like Main!D4",
        });
    }
    let (sheet, area_start) = split_sheet(body).map_err(|(span, message)| RefError {
        span: span.start + lead..span.end + lead,
        message,
        label: "bad sheet name",
    })?;
    let sheet = match sheet {
        None => default_sheet,
        Some((name, span)) => {
            let span = span.start + lead..span.end + lead;
            match crate::sheets::find(sheets, &name) {
                Some(i) => i,
                None => {
                    return Err(RefError {
                        span,
                        message: format!("unknown sheet `{name}` (the workbook's sheets: {})", sheets.join(", ")),
                        label: "unknown sheet",
                    });
                }
            }
        }
    };
    let area_text = &body[area_start..];
    let area_span = area_start + lead..all.end;
    if area_text.is_empty() {
        return Err(RefError {
            span: all,
            message: format!("`{body}` has no cell address after the sheet"),
            label: "expected a cell like D4",
        });
    }
    let mut corners = area_text.split(':');
    let first = corners.next().unwrap_or("");
    let second = corners.next();
    if corners.next().is_some() {
        return Err(RefError {
            span: area_span,
            message: format!("`{area_text}` is not a cell or a range"),
            label: "too many `:`",
        });
    }
    let a = cell(first).ok_or_else(|| RefError {
        span: area_start + lead..area_start + lead + first.len(),
        message: format!("`{first}` is not a cell address"),
        label: "expected a cell like D4",
    })?;
    let b = match second {
        None => a,
        Some(s) => {
            let at = area_start + lead + first.len() + 1;
            cell(s).ok_or_else(|| RefError {
                span: at..at + s.len(),
                message: format!("`{s}` is not a cell address (in the range `{area_text}`)"),
                label: "expected a cell like L12",
            })?
        }
    };
    Ok(Area::new(sheet, a.0, a.1, b.0, b.1))
}

/// The area a workbook name stands for when its formula is a constant
/// reference (`Main!$D$16:$L$24`, `$D$27`: every row and column fixed with
/// `$`; no sheet means the anchor's sheet). The error says why the formula
/// is not one, for a message "the name `x` ...".
pub(crate) fn constant_area(expr: &Expr, anchor_sheet: SheetId, sheets: &[String]) -> Result<Area, String> {
    let (sheet, r0, c0, r1, c1) = match &expr.kind {
        ExprKind::Ref(RefExpr { sheet, kind: RefKind::Cell { row, col } }) => (sheet, *row, *col, *row, *col),
        ExprKind::Ref(RefExpr { sheet, kind: RefKind::Area { r0, c0, r1, c1 } }) => (sheet, *r0, *c0, *r1, *c1),
        ExprKind::Ref(_) => return Err("is whole rows or columns, not a block of cells".into()),
        _ => return Err("is a formula, not a reference".into()),
    };
    if ![r0, c0, r1, c1].iter().all(|a| a.abs) {
        let fixed = |r: Axis, c: Axis| format!("${}${}", col_name(c.index), r.index + 1);
        let mut fix = fixed(r0, c0);
        if (r0, c0) != (r1, c1) {
            fix = format!("{fix}:{}", fixed(r1, c1));
        }
        return Err(format!(
            "is a relative reference (it moves with the cell that uses it): fix every row and column with `$`, as `{fix}`"
        ));
    }
    let sheet = match sheet {
        None => anchor_sheet,
        Some(name) => crate::sheets::find(sheets, name).ok_or_else(|| format!("is on the unknown sheet `{name}`"))?,
    };
    Ok(Area::new(sheet, r0.index, c0.index, r1.index, c1.index))
}

/// Splits `Sheet!rest` into the sheet name (unquoted, with its span) and the
/// offset of the rest; no `!` means no sheet.
type SheetPart = (Option<(String, Span)>, usize);

fn split_sheet(body: &str) -> Result<SheetPart, (Span, String)> {
    if let Some(quoted) = body.strip_prefix('\'') {
        let mut name = String::new();
        let mut chars = quoted.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c == '\'' {
                if let Some((_, '\'')) = chars.peek() {
                    chars.next();
                    name.push('\'');
                    continue;
                }
                let after = 1 + i + 1;
                if body[after..].starts_with('!') {
                    return Ok((Some((name, 0..after)), after + 1));
                }
                return Err((0..after, format!("expected `!` after the sheet name in `{body}`")));
            }
            name.push(c);
        }
        return Err((0..body.len(), format!("unclosed quote in `{body}`")));
    }
    match body.find('!') {
        Some(0) => Err((0..1, format!("missing sheet name before `!` in `{body}`"))),
        Some(i) => Ok((Some((body[..i].to_string(), 0..i)), i + 1)),
        None => Ok((None, 0)),
    }
}

/// `D4` or `$D$4` to 0-based (row, col).
fn cell(s: &str) -> Option<(u32, u32)> {
    let s = s.strip_prefix('$').unwrap_or(s);
    let split = s.find(|c: char| c == '$' || c.is_ascii_digit())?;
    let col = parse_col(&s[..split])?;
    let rest = &s[split..];
    let row = parse_row(rest.strip_prefix('$').unwrap_or(rest))?;
    Some((row, col))
}

/// A constant as a user types it into a cell (CLI `--set`, reset values
/// given as text): empty text is an empty cell, text that reads as a number
/// is that number (`3`, `-2.5e3`, `50%`), `TRUE`/`FALSE` (any case) are
/// booleans, an Excel error spelling (`#N/A`, `#DIV/0!`, any case) is that
/// error, a leading `'` keeps the rest as text (`'123` is the text "123"),
/// and anything else is text. A leading `=` means a formula; that is the
/// caller's business (this function would return it as text).
pub fn parse_input_value(text: &str) -> Value {
    if text.is_empty() {
        return Value::Empty;
    }
    if let Some(rest) = text.strip_prefix('\'') {
        return Value::text(rest);
    }
    if let Some(n) = parse_number(text) {
        return Value::Number(n);
    }
    let t = text.trim();
    if t.eq_ignore_ascii_case("TRUE") {
        return Value::Bool(true);
    }
    if t.eq_ignore_ascii_case("FALSE") {
        return Value::Bool(false);
    }
    if let Some(e) = ErrorKind::parse(t) {
        return Value::Error(e);
    }
    Value::text(text)
}

/// Why `name` cannot be a workbook name, following Excel's rules: it starts
/// with a letter, `_` or `\`, goes on with letters, digits, `_`, `.` or
/// `\`, is at most 255 characters, and does not read as a cell reference
/// (`A1`, `XFD10`) or as `R`/`C`/R1C1.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return Err("a name cannot be empty".into());
    };
    if !(first.is_alphabetic() || first == '_' || first == '\\') {
        return Err(format!("`{name}` is not a valid name: it must start with a letter, `_` or `\\`"));
    }
    if let Some(bad) = chars.find(|c| !(c.is_alphanumeric() || matches!(c, '_' | '.' | '\\'))) {
        return Err(format!("`{name}` is not a valid name: `{bad}` is not allowed (letters, digits, `_`, `.`, `\\`)"));
    }
    if name.chars().count() > 255 {
        return Err(format!("`{name}` is not a valid name: longer than 255 characters"));
    }
    if cell(name).is_some() || is_r1c1(name) {
        return Err(format!("`{name}` is not a valid name: it reads as a cell reference"));
    }
    Ok(())
}

fn is_r1c1(name: &str) -> bool {
    let u = name.to_ascii_uppercase();
    if u == "R" || u == "C" {
        return true;
    }
    let Some(rest) = u.strip_prefix('R') else {
        return u.strip_prefix('C').is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &rest[digits..];
    rest.is_empty() || rest.strip_prefix('C').is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
}

/// Why `name` cannot be a sheet name (Excel's rules): not empty, at most 31
/// characters, none of `[ ] : * ? / \`, not starting or ending with `'`.
pub(crate) fn check_sheet_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("a sheet name cannot be empty".into());
    }
    if name.chars().count() > 31 {
        return Err(format!("sheet name `{name}` is longer than 31 characters"));
    }
    if let Some(c) = name.chars().find(|c| "[]:*?/\\".contains(*c)) {
        return Err(format!("sheet name `{name}` contains `{c}`, which Excel does not allow"));
    }
    if name.starts_with('\'') || name.ends_with('\'') {
        return Err(format!("sheet name `{name}` starts or ends with `'`"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheets() -> Vec<String> {
        vec!["Main".into(), "My Sheet".into()]
    }

    #[test]
    fn references() {
        let s = sheets();
        assert_eq!(parse_cell_ref("Main!D4", &s, 1), Ok(Area::new(0, 3, 3, 3, 3)));
        assert_eq!(parse_cell_ref("main!D4:L12", &s, 1), Ok(Area::new(0, 3, 3, 11, 11)));
        assert_eq!(parse_cell_ref("D4", &s, 1), Ok(Area::new(1, 3, 3, 3, 3)));
        assert_eq!(parse_cell_ref("'My Sheet'!$A$1", &s, 0), Ok(Area::new(1, 0, 0, 0, 0)));
        assert_eq!(parse_cell_ref(" L12:D4 ", &s, 0), Ok(Area::new(0, 3, 3, 11, 11)));
        assert!(parse_cell_ref("Other!A1", &s, 0).unwrap_err().to_string().contains("unknown sheet `Other`"));
        assert!(parse_cell_ref("Main!", &s, 0).is_err());
        assert!(parse_cell_ref("Main!D0", &s, 0).is_err());
        assert!(parse_cell_ref("A1:B2:C3", &s, 0).is_err());
        assert!(parse_cell_ref("'Main!A1", &s, 0).is_err());
        let e = parse_ref("Main!D4:ZZZZ1", &s, 0).unwrap_err();
        assert_eq!(e.span, 8..13);
        let e = parse_ref("Nope!D4", &s, 0).unwrap_err();
        assert_eq!(e.span, 0..4);
    }

    #[test]
    fn input_values() {
        assert_eq!(parse_input_value("5"), Value::Number(5.0));
        assert_eq!(parse_input_value("-2.5e1"), Value::Number(-25.0));
        assert_eq!(parse_input_value("true"), Value::Bool(true));
        assert_eq!(parse_input_value("#n/a"), Value::Error(ErrorKind::NA));
        assert_eq!(parse_input_value("solve"), Value::text("solve"));
        assert_eq!(parse_input_value("'42"), Value::text("42"));
        assert_eq!(parse_input_value(""), Value::Empty);
    }

    #[test]
    fn names() {
        assert!(check_name("onetonine").is_ok());
        assert!(check_name("_x.y1").is_ok());
        assert!(check_name("A1").is_err());
        assert!(check_name("r2c3").is_err());
        assert!(check_name("R").is_err());
        assert!(check_name("1abc").is_err());
        assert!(check_name("a-b").is_err());
        assert!(check_name("rc_total").is_ok());
        assert!(check_sheet_name("Main").is_ok());
        assert!(check_sheet_name("a/b").is_err());
    }
}
