//! The formula file format (`.dfl`): one definition per entry, formulas
//! spread over indented lines, `#` comments at column 0.
//!
//! ```text
//! # The comment block right above an entry describes it.
//! name onetonine @ Main!A1 =
//!     MOD(COLUMN(A1)-1,3)+1+MOD(ROW(A1)-1,3)*3
//!
//! cells Main!P4:AP30 = IF(state="reset", onetonine, "")
//! ```
//!
//! An entry starts with a line whose first character (column 0) is not
//! blank and not `#`: `name NAME [@ ANCHOR] = formula`, `name NAME +=
//! formula` (an argument added to the call that is NAME's formula, see
//! `additions`), `cells AREA = formula`, `place NAME on SHELF` (NAME names
//! the next free place on the shelf SHELF) or `place NAME after SHELF` (NAME
//! moved after its places; see `places`; no formula). The formula begins after the `=` (on the same
//! line or the next) and runs on over every following line that is blank or
//! indented, up to the next line with something at column 0. Its text is
//! the exact slice of the file, trailing whitespace trimmed, so parser spans
//! map straight to file positions. This module only cuts the file into
//! entries; names, anchors and areas are checked by the loader.

use crate::ast::Span;
use crate::diagnostic::{Diagnostic, Source};
use std::sync::Arc;

/// One entry of a formula file, with byte spans into the file.
#[derive(Debug, Clone)]
pub(crate) struct DflEntry {
    pub kind: DflKind,
    /// The formula text (after the `=`, whitespace trimmed at both ends).
    pub formula: Span,
    /// The lines of `#` comments right above the entry, `#` and one space removed.
    pub comment: Option<String>,
}

#[derive(Debug, Clone)]
pub(crate) enum DflKind {
    /// `name NAME [@ ANCHOR] =`, or `name NAME +=` (`adds`: no anchor).
    Name { name: String, name_span: Span, anchor: Option<(String, Span)>, adds: bool },
    /// `cells AREA =`
    Cells { target: String, span: Span },
    /// `place NAME on SHELF`, or `place NAME after SHELF` (`after`); the
    /// entry's formula span is SHELF's.
    Place { name: String, name_span: Span, after: bool },
}

/// Cuts a formula file into entries, reporting every malformed entry (and
/// going on with the next one).
pub(crate) fn parse_dfl(src: &Arc<Source>) -> (Vec<DflEntry>, Vec<Diagnostic>) {
    let text = src.text.as_str();
    let lines = lines(text);
    let mut entries = Vec::new();
    let mut diags = Vec::new();
    let mut comment: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (start, line) = lines[i];
        i += 1;
        if line.trim().is_empty() {
            comment.clear();
            continue;
        }
        if let Some(c) = line.strip_prefix('#') {
            let c = c.trim_end();
            comment.push(c.strip_prefix(' ').unwrap_or(c));
            continue;
        }
        // The entry runs over the following blank or indented lines.
        let mut end = start + line.len();
        while i < lines.len() && !starts_entry(lines[i].1) {
            if !lines[i].1.trim().is_empty() {
                end = lines[i].0 + lines[i].1.len();
            }
            i += 1;
        }
        let description = (!comment.is_empty()).then(|| comment.join("\n"));
        comment.clear();
        if line.starts_with(char::is_whitespace) {
            // Only reached at the top of the file or after a comment: an
            // entry's own indented lines are consumed with it.
            let lead = line.len() - line.trim_start().len();
            diags.push(
                Diagnostic::at(src, start + lead..start + line.trim_end().len(), "indented line outside an entry", "not part of any formula")
                    .with_note("an entry starts at column 0 with `name`, `cells` or `place`; only the formula's continuation lines are indented"),
            );
            continue;
        }
        match entry(src, start, end) {
            Ok((kind, formula)) => entries.push(DflEntry { kind, formula, comment: description }),
            Err(d) => diags.push(d),
        }
    }
    (entries, diags)
}

/// Does this line begin a new entry or comment (something at column 0)?
fn starts_entry(line: &str) -> bool {
    !line.is_empty() && !line.starts_with(char::is_whitespace)
}

/// The lines of the text with their byte offsets, without their line
/// break: `\n`, or a `\r` not before `\n` (old Mac files; the `\r` of a
/// `\r\n` stays on its line and reads as a blank), as the diagnostics
/// count lines.
fn lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    while let Some(end) = line_break(text, start) {
        out.push((start, &text[start..end]));
        start = end + 1;
    }
    out.push((start, &text[start..]));
    out
}

/// Where the line starting at `from` ends: its `\n` or bare `\r`.
fn line_break(text: &str, from: usize) -> Option<usize> {
    let b = text.as_bytes();
    (from..b.len()).find(|&i| b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')))
}

/// A cursor over the header of an entry.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    end: usize,
}

impl<'a> Cursor<'a> {
    /// Skips spaces and tabs (not newlines: the header is one line).
    fn skip_blanks(&mut self) {
        while self.pos < self.end && matches!(self.text.as_bytes()[self.pos], b' ' | b'\t' | b'\r') {
            self.pos += 1;
        }
    }
    fn peek(&self) -> Option<char> {
        self.text[self.pos..self.end].chars().next()
    }
    /// A word up to a blank, `@`, `=` or the end of the line; `'...'`
    /// quotes (doubled inside) may hold blanks.
    fn token(&mut self) -> (String, Span) {
        let start = self.pos;
        let mut quoted = false;
        while let Some(c) = self.peek() {
            if c == '\'' {
                quoted = !quoted;
            } else if !quoted && (c.is_whitespace() || c == '@' || c == '=') {
                break;
            }
            self.pos += c.len_utf8();
        }
        (self.text[start..self.pos].to_string(), start..self.pos)
    }
    /// The span of the next character of the line (or the empty span at its end).
    fn here(&self) -> Span {
        self.pos..self.pos + self.peek().filter(|&c| c != '\n' && c != '\r').map_or(0, char::len_utf8)
    }
}

fn entry(src: &Arc<Source>, start: usize, end: usize) -> Result<(DflKind, Span), Diagnostic> {
    let text = src.text.as_str();
    let line_end = line_break(text, start).filter(|&i| i < end).unwrap_or(end);
    let mut cur = Cursor { text, pos: start, end: line_end };
    let (keyword, kw_span) = cur.token();
    let kind = match keyword.as_str() {
        "name" => {
            cur.skip_blanks();
            let (mut name, mut name_span) = cur.token();
            // `name a+= 1`: the `+` belongs to the `+=`.
            if name.len() > 1 && name.ends_with('+') && cur.peek() == Some('=') {
                name.pop();
                name_span.end -= 1;
                cur.pos -= 1;
            }
            if name.is_empty() {
                return Err(Diagnostic::at(src, cur.here(), "expected a name after `name`", "name expected here")
                    .with_note("an entry reads `name NAME [@ ANCHOR] = formula` or `name NAME += formula`"));
            }
            cur.skip_blanks();
            let anchor = if cur.peek() == Some('@') {
                cur.pos += 1;
                cur.skip_blanks();
                let (anchor, span) = cur.token();
                if anchor.is_empty() {
                    return Err(Diagnostic::at(
                        src,
                        cur.here(),
                        "expected a cell after `@`",
                        "anchor cell expected here",
                    )
                    .with_note("the anchor is the cell the name is entered from, e.g. `@ Main!D16`"));
                }
                Some((anchor, span))
            } else {
                None
            };
            DflKind::Name { name, name_span, anchor, adds: false }
        }
        "place" => return place(src, &mut cur, end),
        "cells" => {
            cur.skip_blanks();
            let (target, span) = cur.token();
            if target.is_empty() {
                return Err(Diagnostic::at(
                    src,
                    cur.here(),
                    "expected a cell or range after `cells`",
                    "cells expected here",
                )
                .with_note("an entry reads `cells AREA = formula`, e.g. `cells Main!P4:AP30 = ...`"));
            }
            DflKind::Cells { target, span }
        }
        _ => {
            return Err(Diagnostic::at(src, kw_span, format!("unknown keyword `{keyword}`"), "expected `name`, `cells` or `place`").with_note(
                "an entry starts at column 0 with `name`, `cells` or `place`; a formula's continuation lines must be indented, and comments start with `#` at column 0",
            ));
        }
    };
    cur.skip_blanks();
    let mut kind = kind;
    if let DflKind::Name { anchor, adds, .. } = &mut kind
        && text[cur.pos..line_end].starts_with("+=")
    {
        if let Some((_, span)) = anchor {
            return Err(Diagnostic::at(
                src,
                span.clone(),
                "an addition has no anchor of its own",
                "anchor not allowed here",
            )
            .with_note("`name NAME += formula` is entered from the anchor of the name it adds to"));
        }
        *adds = true;
        cur.pos += 1;
    }
    if cur.peek() != Some('=') {
        let rest = &text[cur.pos..line_end];
        let word: String = rest.split_whitespace().next().unwrap_or("").chars().take(20).collect();
        let what = if word.is_empty() { "the end of the line".to_string() } else { format!("`{word}`") };
        let span = cur.here();
        let span = if span.is_empty() { line_end.saturating_sub(1).max(start)..line_end } else { span };
        let form = match kind {
            DflKind::Name { .. } => "`name NAME [@ ANCHOR] = formula` or `name NAME += formula`",
            DflKind::Cells { .. } => "`cells AREA = formula`",
            DflKind::Place { .. } => "`place NAME on SHELF`",
        };
        return Err(Diagnostic::at(
            src,
            span,
            format!("expected `=` before the formula, found {what}"),
            "`=` expected here",
        )
        .with_note(format!("an entry reads {form}")));
    }
    let eq = cur.pos..cur.pos + 1;
    let body = &text[eq.end..end];
    let lead = body.len() - body.trim_start().len();
    let formula = eq.end + lead..eq.end + body.trim_end().len();
    if formula.is_empty() {
        return Err(Diagnostic::at(src, eq, "empty formula", "a formula should follow this `=`")
            .with_note("write the formula after `=`, on the same line or on indented lines below"));
    }
    Ok((kind, formula))
}

/// `place NAME on SHELF`, after the keyword: the rest of the line.
fn place(src: &Arc<Source>, cur: &mut Cursor<'_>, end: usize) -> Result<(DflKind, Span), Diagnostic> {
    let form = "an entry reads `place NAME on SHELF` or `place NAME after SHELF`, e.g. `place locked_board on strategy_boards`";
    let mut word = |what: &str| {
        cur.skip_blanks();
        let (w, span) = cur.token();
        if w.is_empty() {
            return Err(Diagnostic::at(src, cur.here(), format!("expected {what}"), format!("{what} expected here"))
                .with_note(form));
        }
        Ok((w, span))
    };
    let (name, name_span) = word("a name after `place`")?;
    let (on, on_span) = word("`on` or `after` after the name")?;
    if on != "on" && on != "after" {
        let m = format!("expected `on` or `after`, found `{on}`");
        return Err(Diagnostic::at(src, on_span, m, "`on` or `after` expected here").with_note(form));
    }
    let (_, shelf) = word("a shelf (a name) after `on` or `after`")?;
    cur.skip_blanks();
    let rest = &src.text[cur.pos..end];
    if !rest.trim().is_empty() {
        let lead = rest.len() - rest.trim_start().len();
        let span = cur.pos + lead..cur.pos + rest.trim_end().len();
        return Err(
            Diagnostic::at(src, span, "unexpected text after the shelf", "nothing expected here").with_note(form)
        );
    }
    Ok((DflKind::Place { name, name_span, after: on == "after" }, shelf))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str) -> (Vec<DflEntry>, Vec<Diagnostic>) {
        parse_dfl(&Source::new("t.dfl", text))
    }

    #[test]
    fn entries_and_comments() {
        let text = "# one\n# two\nname a @ Main!B2 =\n    1 +\n\n    2\n\n# lone\n\ncells 'My S'!A1:B2 = x\nname b=3\n";
        let (entries, diags) = cut(text);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(entries.len(), 3);
        assert_eq!(&text[entries[0].formula.clone()], "1 +\n\n    2");
        assert_eq!(entries[0].comment.as_deref(), Some("one\ntwo"));
        assert!(
            matches!(&entries[0].kind, DflKind::Name { name, anchor: Some((a, _)), adds: false, .. } if name == "a" && a == "Main!B2")
        );
        assert!(matches!(&entries[1].kind, DflKind::Cells { target, .. } if target == "'My S'!A1:B2"));
        assert_eq!(entries[1].comment, None);
        assert_eq!(&text[entries[2].formula.clone()], "3");
    }

    #[test]
    fn additions() {
        let text = "name a += 1\nname b+=\n    2\nname c @ A1 += 3\n";
        let (entries, diags) = cut(text);
        assert_eq!(entries.len(), 2);
        assert!(entries.iter().all(|e| matches!(e.kind, DflKind::Name { adds: true, .. })));
        assert_eq!(&text[entries[1].formula.clone()], "2");
        let msgs: Vec<_> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(msgs, ["an addition has no anchor of its own"]);
    }

    #[test]
    fn places() {
        let text = "place a on shelf\nplace b shelf\nplace c on s x\nplace d on\nplace e on s\n  more\n";
        let (entries, diags) = cut(text);
        assert_eq!(entries.len(), 1);
        assert!(matches!(&entries[0].kind, DflKind::Place { name, .. } if name == "a"));
        assert_eq!(&text[entries[0].formula.clone()], "shelf");
        let msgs: Vec<_> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "expected `on` or `after`, found `shelf`",
                "unexpected text after the shelf",
                "expected a shelf (a name) after `on` or `after`",
                "unexpected text after the shelf"
            ]
        );
    }

    #[test]
    fn errors_go_on() {
        let text = "nmae a = 1\n    + 2\nname b 1\nname c =\n  \nname d = 4\n  stray\n";
        let (entries, diags) = cut(text);
        assert_eq!(entries.len(), 1);
        let msgs: Vec<_> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(msgs, ["unknown keyword `nmae`", "expected `=` before the formula, found `1`", "empty formula"]);
    }
}
