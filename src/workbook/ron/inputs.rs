//! The workbook file's `inputs`: named blocks of cells the CLI fills from a
//! line of symbols such as a Sudoku puzzle. Checks each area, the alphabet
//! (not empty, no repeated symbol, no symbol that is also a blank, no
//! whitespace: input lines drop it, so it could never be typed), the blanks
//! (no whitespace either), the default value (it must fill the area) and
//! that each input is defined once (case-insensitively), and parses its
//! check formula (whether a puzzle is solved, bound when the session is
//! made). Whether its cells hold formulas is checked once every file is
//! read ([`Settable`]).

use super::raw::{Entries, RawInput, Str};
use super::read::Settable;
use super::spans::Node;
use crate::diagnostic::Source;
use crate::workbook::builder::Builder;
use crate::workbook::model::{DEFAULT_ALPHABET, DEFAULT_BLANKS, InputDef};
use crate::workbook::symbols::{DROPPED, alphabet_problem};
use std::sync::Arc;

pub(crate) fn inputs(
    b: &mut Builder,
    src: &Arc<Source>,
    raw: &Entries<Str<'_>, RawInput<'_>>,
    places: &Node,
    settable: &mut Vec<Settable>,
) -> Vec<InputDef> {
    let mut out: Vec<InputDef> = Vec::new();
    for (i, (key, def)) in raw.0.iter().enumerate() {
        let (key_at, at) = places.entry(i);
        let key_span = key_at.string();
        if out.iter().any(|i| i.name.eq_ignore_ascii_case(&key.text)) {
            b.error(src, key_span, format!("the input `{}` is defined twice", key.text), "repeated input");
            continue;
        }
        let range = at.field("range").string();
        let area = b.area(src, range.start, &def.range.text);
        let alphabet = def.alphabet.as_ref().map_or(DEFAULT_ALPHABET.to_string(), |a| a.text.to_string());
        let blanks = def.blanks.as_ref().map_or(DEFAULT_BLANKS.to_string(), |s| s.text.to_string());
        let mut ok = true;
        if let Some((m, label)) = def.alphabet.as_ref().and_then(|a| alphabet_problem(&a.text)) {
            b.error(src, at.field("alphabet").string(), m, label);
            ok = false;
        }
        if let Some(c) = def.blanks.as_ref().and_then(|s| whitespace(&s.text)) {
            let m = format!("an input's blanks cannot hold whitespace ({c:?}): {DROPPED}");
            b.error(src, at.field("blanks").string(), m, "whitespace");
            ok = false;
        }
        if let Some(c) = blanks.chars().find(|c| alphabet.contains(*c)) {
            let span = if def.blanks.is_some() { at.field("blanks").string() } else { key_span };
            b.error(src, span, format!("`{c}` is both a blank and a symbol of the alphabet"), "ambiguous symbol");
            ok = false;
        }
        let what = format!("the check of input `{}`", key.text);
        let check = match &def.check {
            None => None,
            Some(c) => match b.formula(src, at.field("check").string().start, &c.text, &|_| what.clone()) {
                Some(f) => Some(f),
                None => continue,
            },
        };
        if let (Some(area), true) = (area, ok) {
            let name = key.text.to_string();
            let value = def.value.as_ref().map(|v| v.text.to_string());
            let input = InputDef { name, area, alphabet, blanks, value, check };
            // The default value must fill the input as a command line would.
            if let Some(Err(m)) = input.value.as_deref().map(|v| input.decode(v)) {
                b.error(src, at.field("value").string(), format!("the default value of {m}"), "wrong default value");
                continue;
            }
            settable.push(Settable { area, span: range, what: format!("the input `{}`", key.text) });
            out.push(input);
        }
    }
    out
}

fn whitespace(s: &str) -> Option<char> {
    s.chars().find(|c| c.is_whitespace())
}
