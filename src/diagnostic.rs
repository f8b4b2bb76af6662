//! Problems found in the user's files, each tied to a place in a source
//! file: a byte span, a message, a short label shown under the caret and an
//! optional note. `render` draws the report with ariadne in the style of a
//! compiler error (`error: message`, `file:line:col`, the source line with a
//! caret); with `color: false` the output is plain text, stable enough for
//! snapshot tests. Line and column numbers are 1-based and columns count
//! characters, as editors do. Lines end where ariadne ends them (`\n`,
//! `\r\n`, a lone `\r`, VT, FF, NEL, U+2028, U+2029): [`Source`] indexes
//! its lines once, so locating and drawing a problem costs the length of its
//! line, not of the file. Whatever a user wrote, a report stays small: the
//! source shown is clipped to [`SHOWN_CHARS`] characters around the caret,
//! long quoted pieces of messages are shortened, and [`cap_per_file`] keeps
//! [`MAX_PER_FILE`] problems per file.

use crate::ast::Span;
use ariadne::{CharSet, Color, Config, IndexType, Label, Report, ReportKind};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

mod source;
pub use source::Source;

/// At most this many characters of a source line are shown in a report.
pub const SHOWN_CHARS: usize = 200;
/// At most this many lines of a span are shown in a report.
const SHOWN_LINES: usize = 8;
/// A piece of a message between backticks longer than this many characters
/// is shortened to its first [`QUOTE_KEPT`] characters and `…`.
const MAX_QUOTED: usize = 100;
const QUOTE_KEPT: usize = 40;
/// At most this many problems are reported per file; the rest are counted.
pub const MAX_PER_FILE: usize = 100;

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
    /// The cell whose formula showed the problem (`Main!B1`), when there
    /// is one: a binding problem's first cell.
    pub cell: Option<Box<str>>,
    /// For the notice that ends a capped list ([`cap_per_file`]): how many
    /// problems it stands for; 0 for a problem.
    pub omitted: usize,
}

impl Diagnostic {
    /// A problem with no place in a file (for example a file that cannot be read).
    pub fn new(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: None,
            span: 0..0,
            message: message.into(),
            label: String::new(),
            note: None,
            cell: None,
            omitted: 0,
        }
    }

    /// A problem at `span` (bytes) of `file`.
    pub fn at(file: &Arc<Source>, span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: Some(file.clone()),
            span,
            message: message.into(),
            label: label.into(),
            note: None,
            cell: None,
            omitted: 0,
        }
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.note = Some(note.into());
        self
    }

    /// The same, naming the cell whose formula showed it.
    pub fn in_cell(mut self, cell: impl Into<String>) -> Diagnostic {
        self.cell = Some(cell.into().into_boxed_str());
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
        self.render_as(color, "error")
    }

    /// [`Diagnostic::render`] as a warning: `warning: message`, in yellow
    /// with `color` (a problem loading passed over, see
    /// `Workbook::excel_errors`).
    pub fn render_warning(&self, color: bool) -> String {
        self.render_as(color, "warning")
    }

    fn render_as(&self, color: bool, kind: &str) -> String {
        let message = shorten_quotes(&self.message);
        let note = self.note.as_deref().map(shorten_quotes);
        let hue = if kind == "error" { Color::Red } else { Color::Yellow };
        let Some(file) = &self.file else {
            let mut out = format!("{}: {message}\n", paint(kind, hue, color));
            if let Some(note) = &note {
                out.push_str(&format!("  = note: {note}\n"));
            }
            return out;
        };
        let shown = Excerpt::new(file, &self.span);
        let span = shown.span.clone();
        let name = file.path.display().to_string();
        let config =
            Config::default().with_color(color).with_index_type(IndexType::Byte).with_char_set(CharSet::Unicode);
        let report_kind = match (color, kind == "error") {
            (false, true) => ReportKind::Error,
            (false, false) => ReportKind::Warning,
            (true, _) => ReportKind::Custom(kind, hue),
        };
        let mut label = Label::new((name.as_str(), span.clone()));
        let label_text = shorten_quotes(&self.label);
        if !label_text.is_empty() {
            label = label.with_message(&label_text);
        }
        if color {
            label = label.with_color(hue);
        }
        let mut report = Report::build(report_kind, (name.as_str(), span))
            .with_config(config)
            .with_message(&message)
            .with_label(label);
        if let Some(note) = &note {
            report = report.with_note(note);
        }
        let mut out = Vec::new();
        let source = ariadne::Source::from(shown.text.as_str()).with_display_line_offset(shown.first_line);
        // (The offset numbers the header's line; `renumber` does the gutter's.)
        if report.finish().write((name.as_str(), source), &mut out).is_err() {
            return format!("{kind}: {message}\n");
        }
        let text = renumber(&String::from_utf8_lossy(&out), shown.first_line, shown.lines);
        // ariadne counts the column in the clipped line; give the file's.
        let (line, col) = file.line_col(self.span.start);
        let text = text.replacen(&format!("{name}:{line}:{} ]", shown.caret_col), &format!("{name}:{line}:{col} ]"), 1);
        // ariadne spells the kind `Error:`; keep the compiler style `error:`.
        match text.strip_prefix("Error:").or_else(|| text.strip_prefix("Warning:")) {
            Some(rest) => format!("{kind}:{rest}"),
            None => text,
        }
    }
}

/// What a report shows of its file: the lines of the span (at most
/// [`SHOWN_LINES`]), each clipped to [`SHOWN_CHARS`] characters around the
/// span (`…` marks a cut), joined with `\n`; the span within that text.
struct Excerpt {
    text: String,
    span: Span,
    /// 0-based line of the file the excerpt starts with.
    first_line: usize,
    /// How many lines it has.
    lines: usize,
    /// The 1-based character column of the span's start in the excerpt.
    caret_col: usize,
}

impl Excerpt {
    fn new(file: &Source, span: &Span) -> Excerpt {
        let text = file.text.as_str();
        let start = floor_boundary(text, span.start);
        let end = floor_boundary(text, span.end.max(start));
        let (first_line, _) = file.line_at(start);
        let (mut last_line, _) = file.line_at(end);
        last_line = last_line.min(first_line + SHOWN_LINES - 1);
        let lines = last_line - first_line + 1;
        let mut shown = Excerpt { text: String::new(), span: 0..0, first_line, lines, caret_col: 1 };
        let (mut from, mut to) = (None, None);
        for line in first_line..=last_line {
            let bounds = file.line_span(line);
            if line > first_line {
                shown.text.push('\n');
            }
            // The window is placed around the span's start on its first
            // line, around its end on its last, else at the line's start.
            let around = if line == first_line {
                start
            } else if end <= bounds.end {
                end
            } else {
                bounds.start
            };
            let (window, cut_before, cut_after) = clip(text, bounds.clone(), around);
            let at = shown.text.len() + if cut_before { '…'.len_utf8() } else { 0 };
            if cut_before {
                shown.text.push('…');
            }
            shown.text.push_str(&text[window.clone()]);
            if cut_after {
                shown.text.push('…');
            }
            let place = |i: usize| at + i.clamp(window.start, window.end) - window.start;
            if line == first_line {
                from = Some(place(start));
                shown.caret_col = shown.text[..place(start)].rsplit('\n').next().unwrap_or("").chars().count() + 1;
            }
            if end <= bounds.end || line == last_line {
                to = Some(place(end.min(bounds.end)));
            }
        }
        // As in the file, the last line shown ends with its line break
        // (ariadne draws a multi-line label's arrow past it).
        if file.line_starts().len() > last_line + 1 {
            shown.text.push('\n');
        }
        let from = from.unwrap_or(0);
        let mut to = to.unwrap_or(from).max(from);
        // An empty span is widened to one character so the caret shows.
        if to == from
            && let Some(c) = shown.text[from..].chars().next().filter(|&c| c != '\n')
        {
            to = from + c.len_utf8();
        }
        shown.span = from..to;
        shown
    }
}

/// ariadne 0.6 numbers the gutter from 1, whatever the display offset: puts
/// the file's line numbers there (the excerpt starts at 0-based line
/// `first_line` and has `lines` lines, so ariadne's numbers have one digit)
/// and widens the gutter to fit them. Colour escapes are kept.
fn renumber(report: &str, first_line: usize, lines: usize) -> String {
    const { assert!(SHOWN_LINES < 10) };
    if first_line == 0 {
        return report.to_string();
    }
    let width = (first_line + lines).to_string().len();
    let extra = width - 1;
    let mut out = String::with_capacity(report.len() + 64);
    let mut in_report = false;
    for line in report.split_inclusive('\n') {
        let visible = strip_escapes(line);
        in_report = in_report || visible.trim_start_matches(' ').starts_with('╭');
        let number =
            visible.strip_prefix(' ').and_then(|v| v.split_once(" │")).and_then(|(n, _)| n.parse::<usize>().ok());
        if !in_report {
            out.push_str(line);
        } else if visible.starts_with('─') {
            let at = line.find('─').unwrap_or(0);
            out.push_str(&line[..at]);
            out.push_str(&"─".repeat(extra));
            out.push_str(&line[at..]);
        } else if let Some(n) = number {
            let at = format!("{n} │");
            out.push_str(&line.replacen(&at, &format!("{:>width$} │", n + first_line), 1));
        } else {
            out.push_str(&" ".repeat(extra));
            out.push_str(line);
        }
    }
    out
}

/// A line of output without its colour escapes (`ESC [ ... m`).
fn strip_escapes(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            chars.by_ref().find(|&c| c == 'm');
        } else {
            out.push(c);
        }
    }
    out
}

/// The part of the line `bounds` of `text` shown, at most [`SHOWN_CHARS`]
/// characters placed around byte `around`, and whether it was cut before
/// and after.
fn clip(text: &str, bounds: Span, around: usize) -> (Span, bool, bool) {
    let line = &text[bounds.clone()];
    if line.len() <= SHOWN_CHARS || line.chars().count() <= SHOWN_CHARS {
        return (bounds, false, false);
    }
    let around = around.clamp(bounds.start, bounds.end) - bounds.start;
    let before = line[..around].chars().count();
    let first = before.saturating_sub(SHOWN_CHARS / 2);
    let mut chars = line.char_indices().map(|(i, _)| i).chain([line.len()]).skip(first);
    let start = chars.next().unwrap_or(line.len());
    let end = chars.nth(SHOWN_CHARS - 1).unwrap_or(line.len());
    (bounds.start + start..bounds.start + end, start > 0, end < line.len())
}

/// A message with each piece between backticks that is longer than
/// [`MAX_QUOTED`] characters shortened to its first [`QUOTE_KEPT`] and `…`.
fn shorten_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    for (i, piece) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 && piece.chars().nth(MAX_QUOTED).is_some() {
            out.extend(piece.chars().take(QUOTE_KEPT));
            out.push('…');
        } else {
            out.push_str(piece);
        }
    }
    out
}

/// Keeps the first [`MAX_PER_FILE`] problems of each file, in order, and
/// ends the list with one "and N more problems in FILE" line per file that
/// had more.
pub fn cap_per_file(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut counts: Vec<(Option<PathBuf>, usize)> = Vec::new();
    let mut kept = Vec::new();
    for d in diags {
        let key = d.file.as_ref().map(|f| f.path.clone());
        let i = counts.iter().position(|(k, _)| *k == key).unwrap_or_else(|| {
            counts.push((key, 0));
            counts.len() - 1
        });
        counts[i].1 += 1;
        if counts[i].1 <= MAX_PER_FILE {
            kept.push(d);
        }
    }
    for (key, n) in counts {
        if n > MAX_PER_FILE {
            let place = key.map_or_else(|| "the workbook".to_string(), |p| format!("`{}`", p.display()));
            let more = n - MAX_PER_FILE;
            let notice =
                format!("and {more} more problems in {place} (only the first {MAX_PER_FILE} of a file are shown)");
            kept.push(Diagnostic { omitted: more, ..Diagnostic::new(notice) });
        }
    }
    kept
}

/// How many problems a list of diagnostics reports, counting what the
/// notices of a capped list stand for.
pub fn problem_count(diags: &[Diagnostic]) -> usize {
    diags.iter().map(|d| if d.omitted > 0 { d.omitted } else { 1 }).sum()
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(false))
    }
}

impl std::error::Error for Diagnostic {}

fn paint(word: &str, hue: Color, color: bool) -> String {
    let code = if hue == Color::Red { 31 } else { 33 };
    if color { format!("\x1b[{code}m{word}\x1b[0m") } else { word.to_string() }
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

    #[test]
    fn every_line_break_ends_a_line() {
        let src = Source::new("x", "a\rb\r\nc\u{2028}d\x0Be\u{85}f\ng");
        let at = |c: char| src.line_col(src.text.find(c).unwrap());
        assert_eq!(
            [at('a'), at('b'), at('c'), at('d'), at('e'), at('f'), at('g')],
            [1, 2, 3, 4, 5, 6, 7].map(|l| (l, 1))
        );
        // `ron` counts `\n` only: `offset_of` reads its positions.
        assert_eq!(src.offset_of(2, 1), src.text.find('c').unwrap());
    }

    #[test]
    fn long_quotes_and_lines_are_shortened() {
        let long = "k".repeat(5000);
        let src = Source::new("x", format!("{long}\n"));
        let d = Diagnostic::at(&src, 0..5000, format!("`{long}` is bad"), "a key").with_note(format!("see `{long}`"));
        let out = d.render(false);
        assert!(out.len() < 1500, "{out}");
        assert!(out.contains(&format!("`{}…` is bad", "k".repeat(40))), "{out}");
    }

    #[test]
    fn the_cap_counts_the_rest() {
        let src = Source::new("x.dfl", "abc");
        let diags: Vec<_> =
            (0..150).map(|_| Diagnostic::at(&src, 0..1, "bad", "")).chain([Diagnostic::new("other")]).collect();
        let kept = cap_per_file(diags);
        assert_eq!(kept.len(), MAX_PER_FILE + 2);
        assert_eq!(kept[MAX_PER_FILE].message, "other");
        assert!(kept[MAX_PER_FILE + 1].message.starts_with("and 50 more problems in `x.dfl`"));
    }
}
