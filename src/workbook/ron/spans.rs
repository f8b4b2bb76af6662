//! Where each part of a workbook file sits. serde gives the loader the
//! values of the RON text but not their places, so the text is walked a
//! second time (after `ron` has accepted it) into a tree of [`Node`]s that
//! mirrors its structure: structs with their field names, maps with their
//! entries in file order, lists, strings with the span of their content.
//! The walk skips comments (`//`, nested `/* */`) and reads strings whole,
//! so a field name is found only where it is a field, never in a comment or
//! a string before it. Map entries come in the same order as the loader's
//! `Entries`, so entry `i` of one is entry `i` of the other.

use crate::ast::Span;

/// A value of the RON text and the bytes it covers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    /// For a string, its content (inside the quotes); else the whole value.
    pub span: Span,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    /// `(a: 1)` or `Name(a: 1)`: each field's name, the span of the name and its value.
    Fields(Vec<(String, Span, Node)>),
    /// `{ key: value }`, in file order.
    Map(Vec<(Node, Node)>),
    /// `[a, b]`, `(a, b)`, `Some(a)`, `()`.
    Items(Vec<Node>),
    /// `"..."` or `r#"..."#`.
    Str,
    /// A number, a boolean, a character or another bare word.
    Other,
}

/// What a look-up gives when the part is not there (it always is in a
/// file serde has read, unless the scanner lost its way).
static MISSING: Node = Node { span: 0..0, kind: Kind::Other };

impl Node {
    /// The value of a struct's field, looking through `Some(...)`.
    pub fn field(&self, name: &str) -> &Node {
        match &self.some().kind {
            Kind::Fields(fields) => fields.iter().find(|(n, ..)| n == name).map_or(&MISSING, |(_, _, v)| v),
            _ => &MISSING,
        }
    }

    /// The span of a struct's field name.
    pub fn field_name(&self, name: &str) -> Span {
        match &self.some().kind {
            Kind::Fields(fields) => fields.iter().find(|(n, ..)| n == name).map_or(0..0, |(_, s, _)| s.clone()),
            _ => 0..0,
        }
    }

    /// Entry `i` of a map: its key and its value.
    pub fn entry(&self, i: usize) -> (&Node, &Node) {
        match &self.some().kind {
            Kind::Map(entries) => entries.get(i).map_or((&MISSING, &MISSING), |(k, v)| (k, v)),
            _ => (&MISSING, &MISSING),
        }
    }

    /// Item `i` of a list.
    pub fn item(&self, i: usize) -> &Node {
        match &self.kind {
            Kind::Items(items) => items.get(i).unwrap_or(&MISSING),
            _ => &MISSING,
        }
    }

    /// The span of a string's content, looking through `Some(...)`.
    pub fn string(&self) -> Span {
        let node = self.some();
        if node.kind == Kind::Str { node.span.clone() } else { 0..0 }
    }

    /// The node itself, or what it wraps when written `Some(x)`.
    fn some(&self) -> &Node {
        match &self.kind {
            Kind::Items(items) if items.len() == 1 => items[0].some(),
            _ => self,
        }
    }
}

/// The tree of a RON text that `ron` has read without error. On text it
/// cannot follow it stops early, returning what it has (never panics).
pub(crate) fn scan(text: &str) -> Node {
    let mut s = Scanner { text, pos: 0 };
    s.skip();
    // `#![enable(...)]` extension attributes before the value.
    while s.rest().starts_with("#!") {
        s.pos = s.rest().find(']').map_or(text.len(), |i| s.pos + i + 1);
        s.skip();
    }
    s.value()
}

struct Scanner<'t> {
    text: &'t str,
    pos: usize,
}

impl<'t> Scanner<'t> {
    fn rest(&self) -> &'t str {
        self.text.get(self.pos..).unwrap_or("")
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// Skips blanks and comments.
    fn skip(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            if trimmed.starts_with("//") {
                self.pos = trimmed.find('\n').map_or(self.text.len(), |i| self.pos + i);
            } else if trimmed.starts_with("/*") {
                self.block_comment();
            } else {
                return;
            }
        }
    }

    /// A `/* ... */` comment, which may hold others.
    fn block_comment(&mut self) {
        let mut depth = 0;
        while self.pos < self.text.len() {
            let rest = self.rest();
            if rest.starts_with("/*") {
                depth += 1;
                self.pos += 2;
            } else if rest.starts_with("*/") {
                depth -= 1;
                self.pos += 2;
                if depth == 0 {
                    return;
                }
            } else {
                self.pos += rest.chars().next().map_or(1, char::len_utf8);
            }
        }
    }

    /// Consumes `c` (after blanks) if it comes next.
    fn eat(&mut self, c: u8) -> bool {
        self.skip();
        let yes = self.peek() == Some(c);
        if yes {
            self.pos += 1;
        }
        yes
    }

    fn value(&mut self) -> Node {
        self.skip();
        let start = self.pos;
        let rest = self.rest();
        match self.peek() {
            Some(b'"') => self.string(start + 1, "\"", true),
            Some(b'r') if rest[1..].starts_with(['"', '#']) => self.raw_string(start + 1),
            Some(b'b') if rest[1..].starts_with('"') => self.string(start + 2, "\"", true),
            Some(b'b') if rest[1..].starts_with("r\"") || rest[1..].starts_with("r#") => self.raw_string(start + 2),
            Some(b'\'') => {
                self.string(start + 1, "'", true);
                Node { span: start..self.pos, kind: Kind::Other }
            }
            Some(b'[') => {
                self.pos += 1;
                let items = self.list(b']', Scanner::value);
                Node { span: start..self.pos, kind: Kind::Items(items) }
            }
            Some(b'{') => {
                self.pos += 1;
                let entries = self.list(b'}', |s| {
                    let key = s.value();
                    let value = if s.eat(b':') { s.value() } else { Node { span: s.pos..s.pos, kind: Kind::Other } };
                    (key, value)
                });
                Node { span: start..self.pos, kind: Kind::Map(entries) }
            }
            Some(b'(') => self.group(start),
            Some(_) => {
                let word = self.word();
                self.skip();
                if !word.is_empty()
                    && self.peek() == Some(b'(')
                    && word.starts_with(|c: char| c.is_alphabetic() || c == '_')
                {
                    return self.group(start);
                }
                if word.is_empty() {
                    self.pos = self.text.len();
                }
                Node { span: start..start + word.len(), kind: Kind::Other }
            }
            None => Node { span: start..start, kind: Kind::Other },
        }
    }

    /// `(...)` at the current position: fields when it starts with `name:`.
    fn group(&mut self, start: usize) -> Node {
        self.pos += 1;
        self.skip();
        let save = self.pos;
        let name = self.word();
        let is_fields = !name.is_empty() && self.eat(b':') && self.peek() != Some(b':');
        self.pos = save;
        let kind = if is_fields {
            Kind::Fields(self.list(b')', |s| {
                s.skip();
                let at = s.pos;
                let word = s.word();
                let span = at..at + word.len();
                let name = word.strip_prefix("r#").unwrap_or(word).to_string();
                s.eat(b':');
                (name, span, s.value())
            }))
        } else {
            Kind::Items(self.list(b')', Scanner::value))
        };
        Node { span: start..self.pos, kind }
    }

    /// Items separated by commas up to `close` (a trailing comma allowed).
    fn list<T>(&mut self, close: u8, mut item: impl FnMut(&mut Self) -> T) -> Vec<T> {
        let mut out = Vec::new();
        loop {
            if self.eat(close) || self.pos >= self.text.len() {
                return out;
            }
            out.push(item(self));
            if !self.eat(b',') {
                self.eat(close);
                return out;
            }
        }
    }

    /// A quoted string whose content starts at `content`; `\` escapes.
    fn string(&mut self, content: usize, close: &str, escapes: bool) -> Node {
        let bytes = self.text.as_bytes();
        let mut i = content;
        while i < bytes.len() && !bytes[i..].starts_with(close.as_bytes()) {
            i += if escapes && bytes[i] == b'\\' { 2 } else { 1 };
        }
        let end = i.min(self.text.len());
        self.pos = (end + close.len()).min(self.text.len());
        Node { span: content..end, kind: Kind::Str }
    }

    /// `r"..."` or `r#"..."#`; `at` is just past the `r`.
    fn raw_string(&mut self, at: usize) -> Node {
        let hashes = self.text[at..].bytes().take_while(|&b| b == b'#').count();
        let close = format!("\"{}", "#".repeat(hashes));
        self.string(at + hashes + 1, &close, false)
    }

    /// A bare word (identifier, number, `r#ident`) at the current position.
    fn word(&mut self) -> &'t str {
        let start = self.pos;
        let rest = self.rest();
        let len = rest.find(|c: char| c.is_whitespace() || "()[]{},:\"/".contains(c)).unwrap_or(rest.len());
        self.pos += len;
        &self.text[start..self.pos]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_maps_and_strings() {
        let text = r##"#![enable(implicit_some)]
// sheets: ["no"] /* max_change */
Workbook(
    /* calc: (max_change: 1) /* nested */ */
    sheets: ["Main", r#"a "b""#],
    calc: Calc(max_change: -1, order: "a\"b"),
    cells: { "A1": 1, "B\u{32}": "=x", },
    reset: Some((set: { "C3": () })),
)"##;
        let root = scan(text);
        let at = |s: Span| &text[s];
        assert_eq!(at(root.field_name("sheets")), "sheets");
        let sheets = root.field("sheets");
        assert_eq!((at(sheets.item(0).string()), at(sheets.item(1).string())), ("Main", r#"a "b""#));
        assert_eq!(sheets.item(2), &MISSING);
        let calc = root.field("calc");
        let mc = calc.field_name("max_change");
        assert_eq!((at(mc.clone()), text[..mc.start].matches('\n').count()), ("max_change", 5));
        assert_eq!(at(calc.field("order").string()), r#"a\"b"#);
        let cells = root.field("cells");
        assert_eq!(at(cells.entry(1).0.string()), r"B\u{32}");
        assert_eq!(at(cells.entry(1).1.string()), "=x");
        assert_eq!(cells.entry(2).0, &MISSING);
        assert_eq!(at(root.field("reset").field("set").entry(0).0.string()), "C3");
        assert_eq!(root.field("nope").field_name("x"), 0..0);
    }

    #[test]
    fn never_panics_on_cut_text() {
        let text = r##"W(a: [1, "x\"é", 'c', r#"q"#], b: { "k": (x: 1.5e-3) }, c: Some(true)) // end"##;
        for (i, _) in text.char_indices() {
            let _ = scan(&text[..i]);
        }
        assert_eq!(scan(text).field("c").span, text.find("Some").unwrap()..text.find(") //").unwrap());
    }
}
