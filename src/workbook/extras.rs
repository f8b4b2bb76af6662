//! The workbook file's `inputs` and `views`: named blocks of cells the CLI
//! fills from a puzzle string or prints as a grid. Checks their areas, the
//! input alphabets (no repeated symbol, no symbol that is also a blank) and
//! view groupings, and that each name is used once (case-insensitively).

use super::build::{Builder, Locator};
use super::model::{InputDef, ViewDef};
use super::raw::{Entries, RawInput, RawView, Str};

/// Default alphabet of an input: the digits 1 to 9.
pub const DEFAULT_ALPHABET: &str = "123456789";
/// Default characters meaning an empty cell in an input string.
pub const DEFAULT_BLANKS: &str = ".0";

pub(crate) fn inputs(b: &mut Builder, loc: &Locator<'_>, raw: &Entries<Str<'_>, RawInput<'_>>) -> Vec<InputDef> {
    let src = loc.src;
    let mut out: Vec<InputDef> = Vec::new();
    for (key, def) in &raw.0 {
        let at = loc.key(key, 0);
        let after = loc.after(at);
        if out.iter().any(|i| i.name.eq_ignore_ascii_case(&key.text)) {
            b.error(src, loc.content(at), format!("the input `{}` is defined twice", key.text), "repeated input");
            continue;
        }
        let r_at = loc.value(&def.range, after, Some("range"));
        let area = b.area(src, r_at, &def.range.text);
        let alphabet = def.alphabet.as_ref().map_or(DEFAULT_ALPHABET.to_string(), |a| a.text.to_string());
        let blanks = def.blanks.as_ref().map_or(DEFAULT_BLANKS.to_string(), |s| s.text.to_string());
        let mut ok = true;
        if let Some(a) = &def.alphabet {
            let a_at = loc.value(a, after, Some("alphabet"));
            let span = loc.content(a_at);
            if alphabet.is_empty() {
                b.error(src, span, "an input's alphabet cannot be empty", "empty alphabet");
                ok = false;
            } else if let Some(c) = repeated(&alphabet) {
                b.error(src, span, format!("`{c}` appears twice in the alphabet"), "repeated symbol");
                ok = false;
            }
        }
        if let Some(c) = blanks.chars().find(|c| alphabet.contains(*c)) {
            let span = match &def.blanks {
                Some(s) => loc.content(loc.value(s, after, Some("blanks"))),
                None => loc.content(at),
            };
            b.error(src, span, format!("`{c}` is both a blank and a symbol of the alphabet"), "ambiguous symbol");
            ok = false;
        }
        if let (Some(area), true) = (area, ok) {
            out.push(InputDef {
                name: key.text.to_string(),
                area,
                alphabet,
                blanks,
                value: def.value.as_ref().map(|v| v.text.to_string()),
            });
        }
    }
    out
}

pub(crate) fn views(b: &mut Builder, loc: &Locator<'_>, raw: &Entries<Str<'_>, RawView<'_>>) -> Vec<ViewDef> {
    let src = loc.src;
    let mut out: Vec<ViewDef> = Vec::new();
    for (key, def) in &raw.0 {
        let at = loc.key(key, 0);
        if out.iter().any(|v| v.name.eq_ignore_ascii_case(&key.text)) {
            b.error(src, loc.content(at), format!("the view `{}` is defined twice", key.text), "repeated view");
            continue;
        }
        let r_at = loc.value(&def.range, loc.after(at), Some("range"));
        let Some(area) = b.area(src, r_at, &def.range.text) else {
            continue;
        };
        if let Some((rows, cols)) = def.group
            && (rows == 0 || cols == 0)
        {
            let g = src.text[at..].find("group").map_or(at, |i| at + i);
            b.error(
                src,
                g..g + "group".len(),
                format!("a view's group must be at least (1, 1), not ({rows}, {cols})"),
                "zero group",
            );
            continue;
        }
        out.push(ViewDef {
            name: key.text.to_string(),
            area,
            group: def.group,
            blank: def.blank.as_ref().map_or_else(|| ".".to_string(), |b| b.text.to_string()),
        });
    }
    out
}

fn repeated(s: &str) -> Option<char> {
    s.char_indices().find(|&(i, c)| s[i + c.len_utf8()..].contains(c)).map(|(_, c)| c)
}
