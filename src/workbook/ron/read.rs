//! Reads what the workbook file itself says into the [`Builder`]: sheet
//! names, calculation settings and names first ([`head`]), then, once every
//! file's names are read, cells and the reset protocol ([`body`]; inputs
//! and views have their own modules, included files `include.rs`), and,
//! once every file is read, whether the cells that inputs fill and the
//! reset protocol sets are free of formulas and fit the grid. Values
//! come from serde ([`RawWorkbook`]), places from the scanned tree
//! ([`Node`]): entry `i` of a map is entry `i` of both, so every problem
//! points at the key, value or field it is about.

use super::raw::{Entries, RawName, RawValue, RawWorkbook, Str};
use super::spans::Node;
use crate::address::{Area, CellAddr, SheetId};
use crate::ast::Span;
use crate::diagnostic::Source;
use crate::grid::MAX_GRID_CELLS;
use crate::policy::SettingError;
use crate::value::{ErrorKind, Value};
use crate::workbook::builder::Builder;
use crate::workbook::model::*;
use crate::workbook::refs::check_sheet_name;
use std::collections::HashMap;
use std::sync::Arc;

/// What the workbook file says beside the cells and names (kept in the
/// [`Builder`]).
pub(crate) struct FileParts {
    pub calc: CalcSettings,
    pub inputs: Vec<InputDef>,
    pub views: Vec<ViewDef>,
    pub reset: Option<ResetProtocol>,
    /// For [`check_settable`], once the included files' cells are read.
    pub settable: Vec<Settable>,
}

/// Cells that an input fills or the reset protocol sets, with the place to
/// blame: they may not hold formulas nor make the grid too large.
pub(crate) struct Settable {
    pub area: Area,
    pub span: Span,
    /// `the input `puzzle``, `the reset protocol`.
    pub what: String,
}

/// Reads the sheets, the calculation settings and the workbook file's
/// names: what must be known before any area is read.
pub(crate) fn head(b: &mut Builder, raw: &RawWorkbook<'_>, root: &Node, src: &Arc<Source>) -> CalcSettings {
    sheets(b, raw, root, src);
    let calc = calc(b, raw, root.field("calc"), src);
    if b.sheets.is_empty() {
        return calc;
    }
    let places = root.field("names");
    for (i, (key, def)) in raw.names.0.iter().enumerate() {
        let (key_at, def_at) = places.entry(i);
        let def = name(b, src, key, def, def_at);
        b.add_name(src, key_at.string(), def, &key.text);
    }
    calc
}

/// Builds the rest of what the workbook file says (once every file's names
/// are read, so its areas may be names): cells, inputs, views and the reset
/// protocol.
pub(crate) fn body(
    b: &mut Builder,
    raw: &RawWorkbook<'_>,
    root: &Node,
    src: &Arc<Source>,
    calc: CalcSettings,
) -> FileParts {
    let mut parts = FileParts { calc, inputs: Vec::new(), views: Vec::new(), reset: None, settable: Vec::new() };
    if b.sheets.is_empty() {
        return parts;
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
                match b.cell_formula(src, value_at.string().start, &s.text, &|s| format!("cell {}", s.area(area))) {
                    Some(content) => content,
                    None => continue,
                }
            }
            v => Content::Constant(constant(v)),
        };
        b.add_cells(src, span, CellEntry::new(area, content));
    }
    parts.inputs = super::inputs::inputs(b, src, &raw.inputs, root.field("inputs"), &mut parts.settable);
    parts.views = super::views::views(b, src, &raw.views, root.field("views"), false);
    super::tables::tables(b, src, &raw.tables, root.field("tables"));
    parts.reset = raw.reset.as_ref().map(|r| {
        let places = root.field("reset");
        ResetProtocol {
            set: reset_cells(b, src, &r.set, places.field("set"), &mut parts.settable),
            then: reset_cells(b, src, &r.then, places.field("then"), &mut parts.settable),
            reuse: r.reuse,
        }
    });
    parts
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
    calc.date_system = c.date_system.map_or(calc.date_system, |d| d.0);
    calc = calc.with_seed(c.seed);
    let mut refused = |field: &str, e: SettingError, value: String| {
        b.error(src, places.field_name(field), format!("{field} {e}, not {value}"), "out of range");
    };
    if let Some(n) = c.max_iterations {
        calc = calc.with_max_iterations(n).unwrap_or_else(|e| {
            refused("max_iterations", e, n.to_string());
            calc
        });
    }
    if let Some(x) = c.max_change {
        calc = calc.with_max_change(x).unwrap_or_else(|e| {
            refused("max_change", e, x.to_string());
            calc
        });
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
    let formula = b.formula(src, offset, &def.formula.text, &|_| format!("name `{}`", key.text))?;
    Some(Name { name: key.text.to_string(), anchor, formula, comment: def.comment.clone() })
}

pub(crate) fn reset_cells(
    b: &mut Builder,
    src: &Arc<Source>,
    entries: &Entries<Str<'_>, RawValue<'_>>,
    places: &Node,
    settable: &mut Vec<Settable>,
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
        settable.push(Settable { area: Area::cell(cell), span, what: "the reset protocol".into() });
        out.push((cell, constant(value)));
    }
    out
}

/// Reports each [`Settable`] area that covers a formula cell (setting it
/// would fail) or, with the cells and the areas before it, would make the
/// stored grid larger than [`MAX_GRID_CELLS`] (each sheet is stored from A1
/// to its last used row and column, as the builder counts).
pub(crate) fn check_settable(b: &mut Builder, src: &Arc<Source>, settable: &[Settable]) {
    let mut extents: HashMap<SheetId, (u64, u64)> = HashMap::new();
    for entry in &b.cells {
        grow(&mut extents, entry.area);
    }
    let formulas: Vec<Area> = b.cells.iter().filter(|e| e.content.formula().is_some()).map(|e| e.area).collect();
    for s in settable {
        if let Some(cell) = formulas.iter().find_map(|a| a.intersect(&s.area)) {
            let m = format!("{} sets {}, which holds a formula", s.what, b.show(Area::cell(cell.top_left())));
            b.error(src, s.span.clone(), m, "a formula cell");
            continue;
        }
        let mut grown = extents.clone();
        grow(&mut grown, s.area);
        let need: u64 = grown.values().map(|(r, c)| r * c).sum();
        if need > MAX_GRID_CELLS {
            let m = format!(
                "{} sets {}, which would make the stored grid {need} cells; a workbook stores at most {MAX_GRID_CELLS}",
                s.what,
                b.show(s.area)
            );
            b.error(src, s.span.clone(), m, "too large");
            continue;
        }
        extents = grown;
    }
}

/// Stretches a sheet's stored rows and columns (from A1) over `area`.
fn grow(extents: &mut HashMap<SheetId, (u64, u64)>, area: Area) {
    let e = extents.entry(area.sheet).or_default();
    *e = (e.0.max(area.r1 as u64 + 1), e.1.max(area.c1 as u64 + 1));
}
