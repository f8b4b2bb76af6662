//! Problems found in the user's files, each tied to a place in a source
//! file: a byte span, a message, a short label shown under the caret and an
//! optional note. `render` draws the report with ariadne in the style of a
//! compiler error (`error: message`, `file:line:col`, the source line with a
//! caret); with `color: false` the output is plain text, stable enough for
//! snapshot tests. Line and column numbers are 1-based and columns count
//! characters, as editors do.

use crate::ast::Span;
use ariadne::{CharSet, Color, Config, IndexType, Label, Report, ReportKind};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// A file as read: the path as it is displayed (relative paths stay
/// relative, as given) and its whole text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub path: PathBuf,
    pub text: String,
}

impl Source {
    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> Arc<Source> {
        Arc::new(Source { path: path.into(), text: text.into() })
    }

    /// The 1-based line and character column of a byte offset (clamped to
    /// the text, and moved back to a character boundary).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_boundary(&self.text, offset);
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    /// The byte offset of a 1-based line and character column; positions
    /// past the end of a line or of the text are clamped.
    pub fn offset_of(&self, line: usize, col: usize) -> usize {
        let mut start = 0;
        for _ in 1..line.max(1) {
            match self.text[start..].find('\n') {
                Some(i) => start += i + 1,
                None => return self.text.len(),
            }
        }
        let line_text = self.text[start..].split('\n').next().unwrap_or("");
        let within = line_text.char_indices().nth(col.saturating_sub(1)).map_or(line_text.len(), |(i, _)| i);
        start + within
    }
}

/// One problem, located in a file when there is one.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub file: Option<Arc<Source>>,
    /// Byte range in `file.text`.
    pub span: Span,
    pub message: String,
    /// Short text shown under the caret.
    pub label: String,
    pub note: Option<String>,
}

impl Diagnostic {
    /// A problem with no place in a file (for example a file that cannot be read).
    pub fn new(message: impl Into<String>) -> Diagnostic {
        Diagnostic { file: None, span: 0..0, message: message.into(), label: String::new(), note: None }
    }

    /// A problem at `span` (bytes) of `file`.
    pub fn at(file: &Arc<Source>, span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
        Diagnostic { file: Some(file.clone()), span, message: message.into(), label: label.into(), note: None }
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.note = Some(note.into());
        self
    }

    /// 1-based line and character column of the start of the span.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        self.file.as_ref().map(|f| f.line_col(self.span.start))
    }

    /// `path:line:col` of the start of the span, or None without a file.
    pub fn location(&self) -> Option<String> {
        let file = self.file.as_ref()?;
        let (line, col) = file.line_col(self.span.start);
        Some(format!("{}:{line}:{col}", file.path.display()))
    }

    /// The report as text: `error: message`, then `file:line:col`, the source
    /// line(s) with a caret under the span and its label, and the note.
    /// Without a file, only `error: message` (and the note).
    pub fn render(&self, color: bool) -> String {
        let Some(file) = &self.file else {
            let mut out = format!("{}: {}\n", paint("error", color), self.message);
            if let Some(note) = &self.note {
                out.push_str(&format!("  = note: {note}\n"));
            }
            return out;
        };
        let span = self.display_span(&file.text);
        let name = file.path.display().to_string();
        let config =
            Config::default().with_color(color).with_index_type(IndexType::Byte).with_char_set(CharSet::Unicode);
        let kind = if color { ReportKind::Custom("error", Color::Red) } else { ReportKind::Error };
        let mut label = Label::new((name.as_str(), span.clone()));
        if !self.label.is_empty() {
            label = label.with_message(&self.label);
        }
        if color {
            label = label.with_color(Color::Red);
        }
        let mut report = Report::build(kind, (name.as_str(), span))
            .with_config(config)
            .with_message(&self.message)
            .with_label(label);
        if let Some(note) = &self.note {
            report = report.with_note(note);
        }
        let mut out = Vec::new();
        let cache = (name.as_str(), ariadne::Source::from(file.text.as_str()));
        if report.finish().write(cache, &mut out).is_err() {
            return format!("error: {}\n", self.message);
        }
        let text = String::from_utf8_lossy(&out).into_owned();
        // ariadne spells the kind `Error:`; keep the compiler style `error:`.
        match text.strip_prefix("Error:") {
            Some(rest) => format!("error:{rest}"),
            None => text,
        }
    }

    /// The span clamped to the text and to character boundaries, widened to
    /// one character when empty so the caret shows.
    fn display_span(&self, text: &str) -> Span {
        let start = floor_boundary(text, self.span.start);
        let mut end = floor_boundary(text, self.span.end.max(start));
        if end == start {
            match text[start..].chars().next() {
                Some('\n') | None => {}
                Some(c) => end = start + c.len_utf8(),
            }
        }
        start..end
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::error::Error for Diagnostic {}

fn paint(word: &str, color: bool) -> String {
    if color { format!("\x1b[31m{word}\x1b[0m") } else { word.to_string() }
}

/// The largest character boundary at or before `i`, within the text.
fn floor_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip() {
        let src = Source::new("x.txt", "ab\ncdé f\n");
        assert_eq!(src.line_col(0), (1, 1));
        assert_eq!(src.line_col(3), (2, 1));
        assert_eq!(src.line_col(8), (2, 5));
        assert_eq!(src.offset_of(2, 5), 8);
        assert_eq!(src.offset_of(9, 1), src.text.len());
        assert_eq!(src.offset_of(1, 99), 2);
    }

    #[test]
    fn renders_plain_text() {
        let src = Source::new("dir/x.txt", "let x = 1 +;\n");
        let d = Diagnostic::at(&src, 11..12, "unexpected `;`", "expected a value").with_note("a note");
        let out = d.render(false);
        assert!(out.starts_with("error: unexpected `;`\n"), "{out}");
        assert!(out.contains("dir/x.txt:1:12"), "{out}");
        assert!(out.contains("expected a value"), "{out}");
        assert!(out.contains("a note"), "{out}");
        assert!(!out.contains('\x1b'), "{out}");
        assert_eq!(d.line_col(), Some((1, 12)));
        assert_eq!(Diagnostic::new("oops").render(false), "error: oops\n");
    }
}
