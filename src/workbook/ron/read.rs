//! Reads what the workbook file itself says into the [`Builder`]: sheet
//! names, calculation settings, cells, names and the reset protocol (inputs
//! and views have their own modules, included files `include.rs`). Values
//! come from serde ([`RawWorkbook`]), places from the scanned tree
//! ([`Node`]): entry `i` of a map is entry `i` of both, so every problem
//! points at the key, value or field it is about.

use super::raw::{Entries, RawName, RawValue, RawWorkbook, Str};
use super::spans::Node;
use crate::address::{Area, CellAddr, SheetId};
use crate::diagnostic::Source;
use crate::value::{ErrorKind, Value};
use crate::workbook::builder::Builder;
use crate::workbook::model::*;
use crate::workbook::refs::check_sheet_name;
use std::sync::Arc;

/// Builds everything the workbook file itself says.
pub(crate) fn from_raw(
    b: &mut Builder,
    raw: &RawWorkbook<'_>,
    root: &Node,
    src: &Arc<Source>,
) -> (CalcSettings, Vec<InputDef>, Vec<ViewDef>, Option<ResetProtocol>) {
    sheets(b, raw, root, src);
    let calc = calc(b, raw, root.field("calc"), src);
    if b.sheets.is_empty() {
        return (calc, Vec::new(), Vec::new(), None);
    }
    let places = root.field("cells");
    for (i, (key, value)) in raw.cells.0.iter().enumerate() {
        let (key_at, value_at) = places.entry(i);
        let span = key_at.string();
        let Some(area) = b.area(src, span.start, &key.text) else {
            continue;
        };
        let content = match value {
            RawValue::Text(s) if s.text.starts_with('=') || s.text.starts_with("{=") => {
                match b.cell_formula(src, value_at.string().start, &s.text, &format!("cell {}", b.show(area))) {
                    Some(content) => content,
                    None => continue,
                }
            }
            v => Content::Constant(constant(v)),
        };
        b.add_cells(src, span, CellEntry { area, content });
    }
    let places = root.field("names");
    for (i, (key, def)) in raw.names.0.iter().enumerate() {
        let (key_at, def_at) = places.entry(i);
        let def = name(b, src, key, def, def_at);
        b.add_name(src, key_at.string(), def, &key.text);
    }
    let inputs = super::inputs::inputs(b, src, &raw.inputs, root.field("inputs"));
    let views = super::views::views(b, src, &raw.views, root.field("views"));
    let reset = raw.reset.as_ref().map(|r| {
        let places = root.field("reset");
        ResetProtocol {
            set: reset_cells(b, src, &r.set, places.field("set")),
            then: reset_cells(b, src, &r.then, places.field("then")),
        }
    });
    (calc, inputs, views, reset)
}

fn sheets(b: &mut Builder, raw: &RawWorkbook<'_>, root: &Node, src: &Arc<Source>) {
    if raw.sheets.is_empty() {
        b.error(src, root.field_name("sheets"), "a workbook needs at least one sheet", "no sheets");
        return;
    }
    let places = root.field("sheets");
    for (i, s) in raw.sheets.iter().enumerate() {
        let span = places.item(i).string();
        if let Err(e) = check_sheet_name(&s.text) {
            b.error(src, span, e, "invalid sheet name");
        } else if b.sheets.find(&s.text).is_some() {
            b.error(src, span, format!("the sheet `{}` is listed twice", s.text), "repeated sheet");
        } else if b.sheets.len() > SheetId::MAX as usize {
            b.error(src, span, "too many sheets", "one too many");
        }
        // Keep every sheet (even a bad one) so indexes match the file.
        b.sheets.push(s.text.to_string());
    }
}

fn calc(b: &mut Builder, raw: &RawWorkbook<'_>, places: &Node, src: &Arc<Source>) -> CalcSettings {
    let c = &raw.calc;
    let mut calc = CalcSettings::default();
    calc.iterate = c.iterate.unwrap_or(calc.iterate);
    calc.order = c.order.map_or(calc.order, |o| o.0);
    if let Some(n) = c.max_iterations {
        if (1..=32767).contains(&n) {
            calc.max_iterations = n;
        } else {
            let span = places.field_name("max_iterations");
            b.error(src, span, format!("max_iterations must be between 1 and 32767, not {n}"), "out of range");
        }
    }
    if let Some(x) = c.max_change {
        if x.is_finite() && x >= 0.0 {
            calc.max_change = x;
        } else {
            let span = places.field_name("max_change");
            b.error(src, span, format!("max_change must be a number >= 0, not {x}"), "out of range");
        }
    }
    calc
}

/// A constant cell value: numbers and booleans as such, `()` and `""` for
/// an empty cell, a string that is an Excel error spelling (`#N/A`) for
/// that error, a leading `'` for literal text, any other string as text.
pub(crate) fn constant(v: &RawValue<'_>) -> Value {
    match v {
        RawValue::Empty => Value::Empty,
        RawValue::Number(n) => Value::Number(*n),
        RawValue::Bool(x) => Value::Bool(*x),
        RawValue::Text(s) if s.text.is_empty() => Value::Empty,
        RawValue::Text(s) => match s.text.strip_prefix('\'') {
            Some(rest) => Value::text(rest),
            None => ErrorKind::parse(&s.text).map_or_else(|| Value::text(&s.text), Value::Error),
        },
    }
}

fn name(b: &mut Builder, src: &Arc<Source>, key: &Str<'_>, def: &RawName<'_>, places: &Node) -> Option<Name> {
    let anchor = match &def.anchor {
        None => CellAddr::new(0, 0, 0),
        Some(a) => b.cell(src, places.field("anchor").string().start, &a.text, "a name's anchor")?,
    };
    let offset = places.field("formula").string().start;
    let formula = b.formula(src, offset, &def.formula.text, &format!("name `{}`", key.text))?;
    Some(Name { name: key.text.to_string(), anchor, formula, comment: def.comment.clone() })
}

fn reset_cells(
    b: &mut Builder,
    src: &Arc<Source>,
    entries: &Entries<Str<'_>, RawValue<'_>>,
    places: &Node,
) -> Vec<(CellAddr, Value)> {
    let mut out = Vec::new();
    for (i, (key, value)) in entries.0.iter().enumerate() {
        let (key_at, value_at) = places.entry(i);
        let span = key_at.string();
        let Some(cell) = b.cell(src, span.start, &key.text, "a reset cell") else {
            continue;
        };
        if out.iter().any(|(c, _)| *c == cell) {
            b.error(src, span, format!("{} is set twice", b.show(Area::cell(cell))), "set again");
            continue;
        }
        if let RawValue::Text(s) = value
            && s.text.starts_with('=')
        {
            b.error(src, value_at.string(), "reset values are constants, not formulas", "a formula");
            continue;
        }
        out.push((cell, constant(value)));
    }
    out
}
