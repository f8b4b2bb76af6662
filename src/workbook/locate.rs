//! From a span in a formula's text to a span in its file. A formula from a
//! `.dfl` file or a raw RON string sits in the file verbatim, so spans only
//! shift; one from a RON string with escapes (`\"`, `\\`, `\u{..}`) is
//! mapped through them, so a caret still lands on the right character.

/// The file span of `span` (relative to a formula's text) for a formula
/// whose text starts at byte `offset` of the file: a plain shift when the
/// file holds the text verbatim, else mapped through RON escapes.
pub(crate) fn formula_span(
    file: &str,
    offset: usize,
    formula: &str,
    span: std::ops::Range<usize>,
) -> std::ops::Range<usize> {
    let raw = file.get(offset..).unwrap_or("");
    let map = |i: usize| {
        let i = i.min(formula.len());
        // The text may run on past the file's (a name's additions).
        if raw.starts_with(formula.get(..i).unwrap_or(formula)) { offset + i } else { offset + raw_offset(raw, i) }
    };
    map(span.start)..map(span.end.max(span.start))
}

/// Maps byte `decoded` of the value of an escaped RON string to the byte
/// offset in `raw`, the literal's text from just after its opening quote.
/// Understands `\\`, `\"`, `\n`-style single-character escapes, `\xNN` and
/// `\u{...}`; stops at the closing quote.
fn raw_offset(raw: &str, decoded: usize) -> usize {
    let mut r = 0;
    let mut d = 0;
    let bytes = raw.as_bytes();
    while d < decoded && r < raw.len() {
        match bytes[r] {
            b'"' => break,
            b'\\' => {
                let (raw_len, out_len) = escape_len(&raw[r..]);
                r += raw_len;
                d += out_len;
            }
            _ => {
                let n = raw[r..].chars().next().map_or(1, char::len_utf8);
                r += n;
                d += n;
            }
        }
    }
    r.min(raw.len())
}

/// (bytes in the raw text, bytes of the decoded value) of the escape at the
/// start of `s` (which starts with a backslash).
fn escape_len(s: &str) -> (usize, usize) {
    let mut chars = s.char_indices().skip(1);
    match chars.next() {
        Some((_, 'u')) => {
            let end = s.find('}').map_or(s.len(), |i| i + 1);
            let hex = s.get(3..end.saturating_sub(1)).unwrap_or("");
            let len = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32).map_or(1, char::len_utf8);
            (end, len)
        }
        Some((_, 'x')) => (s.char_indices().nth(4).map_or(s.len(), |(i, _)| i), 1),
        Some((i, c)) => (i + c.len_utf8(), 1),
        None => (s.len().max(1), 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_through_escapes() {
        // The value is `=IF(a="x",1)`; in the file: `=IF(a=\"x\",1)`.
        let raw = r#"=IF(a=\"x\",1)" , rest"#;
        assert_eq!(raw_offset(raw, 0), 0);
        assert_eq!(raw_offset(raw, 6), 6);
        assert_eq!(raw_offset(raw, 7), 8);
        assert_eq!(raw_offset(raw, 9), 11);
        assert_eq!(raw_offset(raw, 11), 13);
        assert_eq!(raw_offset(r"\u{e9}b", 2), 6);
    }
}
