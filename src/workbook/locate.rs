//! Finding things in the raw text of a workbook file. Strings read from RON
//! without escapes borrow from the file text, so their byte offset is exact
//! (pointer arithmetic on the slice); a string with escapes is a fresh copy,
//! so its literal is found by searching forward from the key before it, and
//! offsets inside it are mapped through the escapes by [`raw_offset`].

/// The byte offset of `part` within `whole`, when `part` is a slice of it.
pub(crate) fn offset_in(whole: &str, part: &str) -> Option<usize> {
    let base = whole.as_ptr() as usize;
    let at = part.as_ptr() as usize;
    (at >= base && at + part.len() <= base + whole.len()).then(|| at - base)
}

/// The offset just after the opening quote of the next string literal at
/// or after `from` (`"..."` or a raw `r#"..."#`), skipping `//` comments.
pub(crate) fn next_literal(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = from.min(text.len());
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return Some(i + 1),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(text.len(), |n| i + n);
            }
            b'r' if matches!(bytes.get(i + 1), Some(b'"' | b'#')) => {
                let hashes = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
                if bytes.get(i + 1 + hashes) == Some(&b'"') {
                    return Some(i + 2 + hashes);
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// The offset of the content of the first string literal at or after
/// `from` whose value is `content` (for strings written with escapes,
/// which do not borrow from the file).
pub(crate) fn find_literal(text: &str, from: usize, content: &str) -> Option<usize> {
    let mut at = from;
    while let Some(start) = next_literal(text, at) {
        let (value, end) = decode_literal(text, start);
        if value == content {
            return Some(start);
        }
        at = end.max(start + 1);
    }
    None
}

/// The value of the string literal whose content starts at `start`, and the
/// offset just past its closing quote (and `#`s for a raw string).
pub(crate) fn decode_literal(text: &str, start: usize) -> (String, usize) {
    let open = start.saturating_sub(1);
    let hashes = text[..open].bytes().rev().take_while(|&b| b == b'#').count();
    let is_raw = text[..open - hashes].ends_with('r');
    let rest = &text[start..];
    if is_raw {
        let close = format!("\"{}", "#".repeat(hashes));
        let len = rest.find(&close).unwrap_or(rest.len());
        return (rest[..len].to_string(), (start + len + close.len()).min(text.len()));
    }
    let mut out = String::new();
    let mut i = 0;
    while i < rest.len() {
        let c = rest[i..].chars().next().unwrap_or('"');
        match c {
            '"' => return (out, start + i + 1),
            '\\' => {
                let (raw_len, _) = escape_len(&rest[i..]);
                out.push_str(&unescape(&rest[i..i + raw_len]));
                i += raw_len.max(1);
            }
            c => {
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    (out, text.len())
}

/// The character(s) an escape such as `\n` or `\u{e9}` stands for.
fn unescape(esc: &str) -> String {
    let hex = |h: &str| u32::from_str_radix(h, 16).ok().and_then(char::from_u32);
    match esc.as_bytes().get(1) {
        Some(b'n') => "\n".into(),
        Some(b't') => "\t".into(),
        Some(b'r') => "\r".into(),
        Some(b'0') => "\0".into(),
        Some(b'u') => esc.get(3..esc.len().saturating_sub(1)).and_then(hex).map(String::from).unwrap_or_default(),
        Some(b'x') => esc.get(2..).and_then(hex).map(String::from).unwrap_or_default(),
        _ => esc.get(1..).unwrap_or("").to_string(),
    }
}

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
        if raw.starts_with(formula) { offset + i } else { offset + raw_offset(raw, i) }
    };
    map(span.start)..map(span.end.max(span.start))
}

/// Maps byte `decoded` of the value of an escaped RON string to the byte
/// offset in `raw`, the literal's text from just after its opening quote.
/// Understands `\\`, `\"`, `\n`-style single-character escapes, `\xNN` and
/// `\u{...}`; stops at the closing quote.
pub(crate) fn raw_offset(raw: &str, decoded: usize) -> usize {
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

    #[test]
    fn finds_literals() {
        let text = "a: // \"no\"\n  r#\"x\"#, \"y\"";
        assert_eq!(next_literal(text, 0), Some(text.find('x').unwrap()));
        assert_eq!(find_literal(text, 0, "y"), Some(text.len() - 2));
        let esc = r##"{"A\u{31}": 1, "a\"b": r#"c"d"#}"##;
        assert_eq!(find_literal(esc, 0, "A1"), Some(2));
        assert_eq!(find_literal(esc, 0, "a\"b"), Some(16));
        assert_eq!(decode_literal(esc, 16), ("a\"b".to_string(), 21));
        assert_eq!(decode_literal(esc, 26), ("c\"d".to_string(), 31));
        let s = &text[3..5];
        assert_eq!(offset_in(text, s), Some(3));
        assert_eq!(offset_in(text, "elsewhere"), None);
    }
}
