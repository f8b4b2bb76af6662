//! The workbook file as RON gives it, before any checking: field names and
//! types only. Maps are kept as [`Entries`] (a list of pairs in file order)
//! so that repeated keys can be reported instead of silently overwritten,
//! and so that entry `i` here is entry `i` of the scanned places
//! (`spans.rs`). A RON syntax or type error becomes one located diagnostic.

use crate::diagnostic::{Diagnostic, Source};
use crate::value::date::DateSystem;
use crate::workbook::model::Order;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

#[derive(Deserialize, Debug)]
#[serde(rename = "Workbook", deny_unknown_fields)]
pub(crate) struct RawWorkbook<'a> {
    #[serde(borrow)]
    pub sheets: Vec<Str<'a>>,
    #[serde(default)]
    pub calc: RawCalc,
    #[serde(default, borrow)]
    pub include: Vec<Str<'a>>,
    #[serde(default, borrow)]
    pub cells: Entries<Str<'a>, RawValue<'a>>,
    #[serde(default, borrow)]
    pub names: Entries<Str<'a>, RawName<'a>>,
    #[serde(default, borrow)]
    pub inputs: Entries<Str<'a>, RawInput<'a>>,
    #[serde(default, borrow)]
    pub views: Entries<Str<'a>, RawView<'a>>,
    #[serde(default, borrow)]
    pub reset: Option<RawReset<'a>>,
    #[serde(default, borrow)]
    pub parts: Entries<Str<'a>, RawPart<'a>>,
    /// Excel's way with problems (see `Workbook::excel_errors`).
    #[serde(default)]
    pub excel_errors: bool,
    /// One-cell formulas are dynamic-array formulas, which spill (Excel 365).
    #[serde(default)]
    pub dynamic_arrays: bool,
    #[serde(default, borrow)]
    pub tables: Entries<Str<'a>, RawTable<'a>>,
}

#[derive(Deserialize, Debug)]
#[serde(rename = "Table", deny_unknown_fields)]
pub(crate) struct RawTable<'a> {
    #[serde(borrow)]
    pub range: Str<'a>,
    #[serde(default)]
    pub header: Option<bool>,
    #[serde(default)]
    pub totals: Option<bool>,
    #[serde(default, borrow)]
    pub columns: Option<Vec<Str<'a>>>,
}

#[derive(Deserialize, Debug)]
#[serde(rename = "Part", deny_unknown_fields)]
pub(crate) struct RawPart<'a> {
    #[serde(borrow)]
    pub about: Str<'a>,
    #[serde(default)]
    pub rank: Option<u32>,
    #[serde(default)]
    pub max_iterations: Option<u32>,
    #[serde(default, borrow)]
    pub include: Vec<Str<'a>>,
    #[serde(default, borrow)]
    pub replace: Vec<Str<'a>>,
    #[serde(default, borrow)]
    pub views: Entries<Str<'a>, RawView<'a>>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(rename = "Calc", deny_unknown_fields, default)]
pub(crate) struct RawCalc {
    pub iterate: Option<bool>,
    pub max_iterations: Option<u32>,
    pub max_change: Option<f64>,
    pub order: Option<RawOrder>,
    pub date_system: Option<RawDateSystem>,
    pub seed: Option<u64>,
}

#[derive(Deserialize, Debug)]
#[serde(rename = "Name", deny_unknown_fields)]
pub(crate) struct RawName<'a> {
    #[serde(borrow)]
    pub formula: Str<'a>,
    #[serde(default, borrow)]
    pub anchor: Option<Str<'a>>,
    #[serde(default)]
    pub comment: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(rename = "Input", deny_unknown_fields)]
pub(crate) struct RawInput<'a> {
    #[serde(borrow)]
    pub range: Str<'a>,
    #[serde(default, borrow)]
    pub alphabet: Option<Str<'a>>,
    #[serde(default, borrow)]
    pub blanks: Option<Str<'a>>,
    #[serde(default, borrow)]
    pub value: Option<Str<'a>>,
    #[serde(default, borrow)]
    pub check: Option<Str<'a>>,
}

#[derive(Deserialize, Debug)]
#[serde(rename = "View", deny_unknown_fields)]
pub(crate) struct RawView<'a> {
    #[serde(borrow)]
    pub range: Str<'a>,
    #[serde(default)]
    pub group: Option<(u32, u32)>,
    #[serde(default, borrow)]
    pub blank: Option<Str<'a>>,
    /// Symbol k stands for the number k (`"123456789ABCDEFG"`).
    #[serde(default, borrow)]
    pub alphabet: Option<Str<'a>>,
    /// TEXT's number format for the other numbers (`"0.00"`).
    #[serde(default, borrow)]
    pub format: Option<Str<'a>>,
    /// Each group shown as one cell holding its non-blank symbols.
    #[serde(default)]
    pub compact: bool,
    /// The region map: cells holding a region number, 0 or blank for none.
    #[serde(default, borrow)]
    pub regions: Option<Str<'a>>,
    /// The reason area: as many rows and columns as the range, a text per
    /// cell saying why that cell holds its value.
    #[serde(default, borrow)]
    pub reasons: Option<Str<'a>>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(rename = "Reset", deny_unknown_fields)]
pub(crate) struct RawReset<'a> {
    #[serde(default, borrow)]
    pub set: Entries<Str<'a>, RawValue<'a>>,
    #[serde(default, borrow)]
    pub then: Entries<Str<'a>, RawValue<'a>>,
    #[serde(default)]
    pub reuse: bool,
}

/// The calculation order, written as a string (`"row-major"`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RawOrder(pub Order);

impl<'de> Deserialize<'de> for RawOrder {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Str::deserialize(d)?;
        s.text.parse().map(RawOrder).map_err(de::Error::custom)
    }
}

/// The date system, written as a string (`"1904"`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RawDateSystem(pub DateSystem);

impl<'de> Deserialize<'de> for RawDateSystem {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Str::deserialize(d)?;
        s.text.parse().map(RawDateSystem).map_err(de::Error::custom)
    }
}

/// A string from the file, borrowed from its text when it has no escapes.
#[derive(Debug, Clone)]
pub(crate) struct Str<'a> {
    pub text: Cow<'a, str>,
}

impl<'de: 'a, 'a> Deserialize<'de> for Str<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Str<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Str<'a>, E> {
                Ok(Str { text: Cow::Borrowed(s) })
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Str<'a>, E> {
                Ok(Str { text: Cow::Owned(s.to_string()) })
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Str<'a>, E> {
                Ok(Str { text: Cow::Owned(s) })
            }
        }
        d.deserialize_str(V(PhantomData))
    }
}

/// A cell value as written: `5`, `2.5`, `true`, `"text"`, `"=formula"`,
/// or `()` for an explicitly empty cell.
#[derive(Debug, Clone)]
pub(crate) enum RawValue<'a> {
    Empty,
    Number(f64),
    Bool(bool),
    Text(Str<'a>),
}

impl<'de: 'a, 'a> Deserialize<'de> for RawValue<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = RawValue<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number, a boolean, a string or `()`")
            }
            fn visit_unit<E: de::Error>(self) -> Result<RawValue<'a>, E> {
                Ok(RawValue::Empty)
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<RawValue<'a>, E> {
                Ok(RawValue::Bool(b))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<RawValue<'a>, E> {
                Ok(RawValue::Number(n as f64))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<RawValue<'a>, E> {
                Ok(RawValue::Number(n as f64))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<RawValue<'a>, E> {
                if n.is_finite() { Ok(RawValue::Number(n)) } else { Err(E::custom("a cell number must be finite")) }
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<RawValue<'a>, E> {
                Ok(RawValue::Text(Str { text: Cow::Borrowed(s) }))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<RawValue<'a>, E> {
                Ok(RawValue::Text(Str { text: Cow::Owned(s.to_string()) }))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<RawValue<'a>, E> {
                Ok(RawValue::Text(Str { text: Cow::Owned(s) }))
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

/// A RON map kept as pairs in file order, repeated keys included.
#[derive(Debug)]
pub(crate) struct Entries<K, V>(pub Vec<(K, V)>);

impl<K, V> Default for Entries<K, V> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Entries<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct M<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for M<K, V> {
            type Value = Entries<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map `{ \"key\": value, ... }`")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(pair) = map.next_entry()? {
                    out.push(pair);
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(M(PhantomData))
    }
}

/// The fields of the top-level `Workbook(...)`.
const WORKBOOK_FIELDS: &[&str] = &[
    "sheets",
    "calc",
    "include",
    "cells",
    "names",
    "inputs",
    "views",
    "reset",
    "parts",
    "excel_errors",
    "dynamic_arrays",
    "tables",
];

/// Reads the workbook file's RON, or turns ron's error into a diagnostic at
/// the line and column it gives.
pub(crate) fn parse_ron(src: &Arc<Source>) -> Result<RawWorkbook<'_>, Diagnostic> {
    parse_as(src)
}

/// [`parse_ron`] as any of the file's structures (dataflow's own part of
/// an xlsx or ods file is read with it too: `own.rs`).
pub(crate) fn parse_as<'a, T: Deserialize<'a>>(src: &'a Arc<Source>) -> Result<T, Diagnostic> {
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    options.from_str::<T>(&src.text).map_err(|e| {
        let text = src.text.as_str();
        let start = src.offset_of(e.span.start.line, e.span.start.col);
        let end = src.offset_of(e.span.end.line, e.span.end.col).max(start);
        let (message, label) = describe(&e.code);
        if let Some(at) = string_across_lines(&text[..end.min(text.len())]) {
            // The real mistake is usually a closing quote left out earlier:
            // RON then reads on to the next quote and stumbles there.
            return Diagnostic::at(
                src,
                at..at + 1,
                "malformed workbook file: a string runs past the end of its line",
                "this string",
            )
            .with_note(format!(
                "is its closing `\"` missing? RON read on and then found: {}",
                message.trim_start_matches("malformed workbook file: ")
            ));
        }
        match &e.code {
            ron::Error::ExpectedComma => {
                // Point at the end of the item before, where the comma belongs.
                let before = text[..start].trim_end();
                let span = match before.chars().next_back() {
                    Some(c) => before.len() - c.len_utf8()..before.len(),
                    None => start..end,
                };
                Diagnostic::at(src, span, message, "expected `,` after this")
                    .with_note("RON separates fields, list items and map entries with `,`")
            }
            ron::Error::NoSuchStructField { found, outer, .. }
                if WORKBOOK_FIELDS.contains(&found.as_str()) && outer.as_deref() != Some("Workbook") =>
            {
                Diagnostic::at(src, start..end, message, label)
                    .with_note(format!("`{found}` is a field of the workbook: is a `)` missing before it?"))
            }
            ron::Error::Eof => {
                let end = text.trim_end().len();
                let at = end.saturating_sub(text[..end].chars().next_back().map_or(0, char::len_utf8));
                Diagnostic::at(src, at..end, message, label).with_note("is a closing `)`, `]` or `}` missing?")
            }
            ron::Error::TrailingCharacters => {
                let at = start + (text[start..].len() - text[start..].trim_start().len());
                let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
                Diagnostic::at(src, at..end, message, "after the end of the workbook")
            }
            ron::Error::ExpectedNamedStructLike(name) => match shape(name) {
                Some(note) => Diagnostic::at(src, start..end, message, label).with_note(note),
                None => Diagnostic::at(src, start..end, message, label),
            },
            _ => Diagnostic::at(src, start..end, message, label),
        }
    })
}
/// A message (lower-case start, as the other diagnostics) and a caret label
/// for ron's error.
fn describe(code: &ron::Error) -> (String, &'static str) {
    use ron::Error as E;
    let label = match code {
        E::NoSuchStructField { .. } => "unknown field",
        E::MissingStructField { .. } => "missing field",
        E::DuplicateStructField { .. } => "repeated field",
        E::InvalidValueForType { .. } | E::Message(_) => "wrong value",
        E::Eof => "the file ends here",
        _ => "not expected here",
    };
    let text = code.to_string();
    let mut chars = text.chars();
    let message = match chars.next() {
        Some(c) if chars.clone().next().is_some_and(char::is_lowercase) => c.to_lowercase().chain(chars).collect(),
        _ => text.clone(),
    };
    (format!("malformed workbook file: {message}"), label)
}

/// How a part of the workbook is written, for a note when RON expected it.
fn shape(name: &str) -> Option<&'static str> {
    Some(match name {
        "Calc" => {
            "calc reads `(iterate: true, max_iterations: 100, max_change: 0.001, order: \"row-major\")`, \
             and `seed: 42` for reproducible random numbers"
        }
        "Name" => "a name reads `(formula: \"=...\", anchor: \"Main!A1\", comment: \"...\")`",
        "Input" => {
            "an input reads `(range: \"Main!D4:L12\", alphabet: \"123456789\", blanks: \".0\", check: \"=solved\")`"
        }
        "View" => "a view reads `(range: \"Main!D4:L12\", group: (3, 3))`",
        "Reset" => "reset reads `(set: { \"Main!D27\": \"reset\" }, then: { \"Main!D27\": \"solve\" })`",
        _ => return None,
    })
}

/// The start of the first ordinary string literal in `text` that runs over a
/// line break (raw strings `r#"..."#` may; comments are skipped).
fn string_across_lines(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => i = text[i..].find('\n').map_or(b.len(), |n| i + n),
            b'/' if b.get(i + 1) == Some(&b'*') => i = text[i + 2..].find("*/").map_or(b.len(), |n| i + n + 4),
            b'r' if matches!(b.get(i + 1), Some(b'#') | Some(b'"')) => {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                let close = format!("\"{}", "#".repeat(hashes));
                let body = i + 2 + hashes;
                i = text.get(body..).and_then(|t| t.find(&close)).map_or(b.len(), |n| body + n + close.len());
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    match b[i] {
                        b'\\' => i += 2,
                        b'\n' => return Some(start),
                        _ => i += 1,
                    }
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}
