//! A file as read, with its lines indexed once (on first use), so that
//! locating a problem costs the length of its line, not of the file. Lines
//! end where ariadne ends them: `\n`, `\r\n`, a lone `\r`, VT, FF, NEL,
//! U+2028, U+2029.

use super::floor_boundary;
use crate::ast::Span;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// The characters that end a line (with `\r\n` as one break), as ariadne
/// splits lines.
const LINE_BREAKS: [char; 7] = ['\r', '\n', '\x0B', '\x0C', '\u{85}', '\u{2028}', '\u{2029}'];

/// A file as read: the path as it is displayed (relative paths stay
/// relative, as given) and its whole text.
#[derive(Clone, Debug)]
pub struct Source {
    pub path: PathBuf,
    pub text: String,
    /// Byte offset of the start of each line, built on first use.
    lines: OnceLock<Vec<usize>>,
}

impl PartialEq for Source {
    fn eq(&self, other: &Source) -> bool {
        self.path == other.path && self.text == other.text
    }
}

impl Eq for Source {}

impl Source {
    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> Arc<Source> {
        Arc::new(Source { path: path.into(), text: text.into(), lines: OnceLock::new() })
    }

    /// Byte offsets of the line starts (see [`LINE_BREAKS`]).
    pub(super) fn line_starts(&self) -> &[usize] {
        self.lines.get_or_init(|| {
            let mut starts = vec![0];
            let bytes = self.text.as_bytes();
            for (i, c) in self.text.match_indices(LINE_BREAKS) {
                if c == "\r" && bytes.get(i + 1) == Some(&b'\n') {
                    continue; // `\r\n`: the line ends after the `\n`
                }
                starts.push(i + c.len());
            }
            starts
        })
    }

    /// The 0-based line holding byte `offset`, and that line's text without
    /// its line break.
    pub(super) fn line_at(&self, offset: usize) -> (usize, Span) {
        let starts = self.line_starts();
        let line = starts.partition_point(|&s| s <= offset).saturating_sub(1);
        (line, self.line_span(line))
    }

    /// The byte range of a 0-based line, without its line break.
    pub(super) fn line_span(&self, line: usize) -> Span {
        let starts = self.line_starts();
        let start = starts[line];
        let end = starts.get(line + 1).map_or(self.text.len(), |&next| next - line_break_len(&self.text[start..next]));
        start..end
    }

    /// The 1-based line and character column of a byte offset (clamped to
    /// the text, and moved back to a character boundary).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_boundary(&self.text, offset);
        let (line, span) = self.line_at(offset);
        (line + 1, self.text[span.start..offset.max(span.start)].chars().count() + 1)
    }

    /// The byte offset of a 1-based line and character column as `ron`
    /// counts them (lines end at `\n` only); positions past the end of a
    /// line or of the text are clamped.
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

/// The length in bytes of the line break `line` (a line with its break)
/// ends with: 2 for `\r\n`, else the last character's.
fn line_break_len(line: &str) -> usize {
    if line.ends_with("\r\n") { 2 } else { line.chars().next_back().map_or(0, char::len_utf8) }
}
