//! Turns the raw workbook file into the model, checking everything and
//! collecting every problem rather than stopping at the first: sheet names,
//! calculation settings, cell keys and values, names, inputs, views and the
//! reset protocol. The [`Builder`] also holds what the included formula
//! files add to (see `include.rs`): the cells already set and the names
//! already defined, so overlaps and duplicates are caught across files.

use super::locate::{decode_literal, find_literal, next_literal};
use super::model::*;
use super::raw::{Entries, RawName, RawValue, RawWorkbook, Str};
use super::refs::{check_name, check_sheet_name, parse_ref};
use crate::address::{Area, CellAddr, SheetId};
use crate::ast::Span;
use crate::diagnostic::{Diagnostic, Source};
use crate::grid::MAX_GRID_CELLS;
use crate::parse::parse_formula;
use crate::value::{ErrorKind, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// The model under construction and the problems found so far.
pub(crate) struct Builder {
    pub sheets: Vec<String>,
    pub diags: Vec<Diagnostic>,
    pub cells: Vec<CellEntry>,
    /// Where each entry of `cells` was set (`file:line:col`), for overlap notes.
    cell_places: Vec<String>,
    pub names: Vec<NameDef>,
    /// Lower-cased name -> where it was first defined.
    name_places: HashMap<String, String>,
    pub sources: Vec<Arc<Source>>,
    /// Per sheet, the rows and columns stored so far (from A1).
    extents: HashMap<SheetId, (u64, u64)>,
}

impl Builder {
    pub fn new(src: &Arc<Source>) -> Builder {
        Builder {
            sheets: Vec::new(),
            diags: Vec::new(),
            cells: Vec::new(),
            cell_places: Vec::new(),
            names: Vec::new(),
            name_places: HashMap::new(),
            sources: vec![src.clone()],
            extents: HashMap::new(),
        }
    }

    pub fn error(&mut self, src: &Arc<Source>, span: Span, message: impl Into<String>, label: impl Into<String>) {
        self.diags.push(Diagnostic::at(src, span, message, label));
    }

    /// Reads a cell or area written at byte `at` of `src`; reports and
    /// returns None when it does not read.
    pub fn area(&mut self, src: &Arc<Source>, at: usize, text: &str) -> Option<Area> {
        match parse_ref(text, &self.sheets, 0) {
            Ok(a) => Some(a),
            Err(e) => {
                self.error(src, at + e.span.start..at + e.span.end, e.message, e.label);
                None
            }
        }
    }

    /// Like [`Builder::area`], for a place that takes one cell only.
    pub fn cell(&mut self, src: &Arc<Source>, at: usize, text: &str, what: &str) -> Option<CellAddr> {
        let area = self.area(src, at, text)?;
        if !area.is_cell() {
            self.error(
                src,
                at..at + text.len(),
                format!("{what} must be a single cell, not the range `{text}`"),
                "a range",
            );
            return None;
        }
        Some(area.top_left())
    }

    /// Parses a formula whose text starts at byte `offset` of `src`,
    /// reporting every parse error at its place in the file.
    pub fn formula(&mut self, src: &Arc<Source>, offset: usize, text: &str, what: &str) -> Option<Formula> {
        let origin = Origin { source: Some(src.clone()), offset };
        match parse_formula(text) {
            Ok(expr) => Some(Formula { expr, text: text.to_string(), origin }),
            Err(errors) => {
                for e in errors {
                    let span = super::locate::formula_span(&src.text, offset, text, e.span);
                    self.error(src, span, format!("cannot parse the formula of {what}"), e.message);
                }
                None
            }
        }
    }

    /// Adds a cell entry unless it overlaps one already set.
    pub fn add_cells(&mut self, src: &Arc<Source>, span: Span, entry: CellEntry) {
        let place = place(src, span.start);
        // Each sheet is stored densely from A1 to its last used cell.
        let a = &entry.area;
        let old = self.extents.get(&a.sheet).copied().unwrap_or_default();
        let new = (old.0.max(a.r1 as u64 + 1), old.1.max(a.c1 as u64 + 1));
        let need = self.extents.values().map(|(r, c)| r * c).sum::<u64>() - old.0 * old.1 + new.0 * new.1;
        if need > MAX_GRID_CELLS {
            let d = Diagnostic::at(
                src,
                span,
                format!(
                    "{} would make the stored grid {need} cells; a workbook stores at most {MAX_GRID_CELLS}",
                    self.show(entry.area)
                ),
                "too large",
            )
            .with_note("each sheet is stored from A1 to its last used row and column");
            self.diags.push(d);
            return;
        }
        if let Some(i) = self.cells.iter().position(|c| c.area.intersect(&entry.area).is_some()) {
            let other = self.cells[i].area;
            let d = Diagnostic::at(
                src,
                span,
                if other == entry.area {
                    format!("{} is set twice", self.show(other))
                } else {
                    format!("{} overlaps {} set before", self.show(entry.area), self.show(other))
                },
                "already set",
            )
            .with_note(format!("{} is set at {}", self.show(other), self.cell_places[i]));
            self.diags.push(d);
            return;
        }
        self.extents.insert(entry.area.sheet, new);
        self.cells.push(entry);
        self.cell_places.push(place);
    }

    /// Checks a name (validity, not yet defined in any case) and adds it.
    pub fn add_name(&mut self, src: &Arc<Source>, span: Span, def: Option<NameDef>, name: &str) {
        if let Err(e) = check_name(name) {
            self.error(src, span, e, "invalid name");
            return;
        }
        let key = name.to_lowercase();
        if let Some(first) = self.name_places.get(&key) {
            let d = Diagnostic::at(src, span, format!("the name `{name}` is defined twice"), "defined again here")
                .with_note(format!("first defined at {first} (names are case-insensitive)"));
            self.diags.push(d);
            return;
        }
        self.name_places.insert(key, place(src, span.start));
        if let Some(def) = def {
            self.names.push(def);
        }
    }

    /// `Main!D4:L12` for messages.
    pub fn show(&self, a: Area) -> String {
        let sheet = self.sheets.get(a.sheet as usize).map_or("?", String::as_str);
        if sheet.contains(|c: char| !c.is_alphanumeric() && c != '_') {
            format!("'{}'!{a}", sheet.replace('\'', "''"))
        } else {
            format!("{sheet}!{a}")
        }
    }
}

/// `path:line:col` of a byte offset.
pub(crate) fn place(src: &Source, offset: usize) -> String {
    let (line, col) = src.line_col(offset);
    format!("{}:{line}:{col}", src.path.display())
}

/// Finds strings of the workbook file in its text: exactly for strings
/// without escapes, by searching for the others.
pub(crate) struct Locator<'s> {
    pub src: &'s Arc<Source>,
}

impl Locator<'_> {
    /// The offset of a key's content.
    pub fn key(&self, key: &Str, hint: usize) -> usize {
        let text = &self.src.text;
        key.offset(text)
            .or_else(|| find_literal(text, hint, &key.text))
            .or_else(|| find_literal(text, 0, &key.text))
            .unwrap_or(hint)
    }

    /// The offset of a value's content, the value coming after `after`
    /// (the key's end), behind `field:` when given.
    pub fn value(&self, value: &Str, after: usize, field: Option<&str>) -> usize {
        let text = &self.src.text;
        value.offset(text).unwrap_or_else(|| {
            let from = field.and_then(|f| text.get(after..)?.find(f).map(|i| after + i + f.len())).unwrap_or(after);
            next_literal(text, from).unwrap_or(after)
        })
    }

    /// The offset just past the closing quote of the literal whose content
    /// starts at `at`.
    pub fn after(&self, at: usize) -> usize {
        decode_literal(&self.src.text, at).1
    }

    /// The span of the content of the literal starting at `at`.
    pub fn content(&self, at: usize) -> Span {
        let text = &self.src.text;
        let end = self.after(at);
        let close = text[..end].rfind('"').unwrap_or(end).max(at);
        at..close
    }

    /// The offset of a field name (for settings that are not strings).
    pub fn field(&self, name: &str) -> usize {
        self.src.text.find(name).unwrap_or(0)
    }
}

/// Builds everything the workbook file itself says.
pub(crate) fn from_raw(
    b: &mut Builder,
    raw: &RawWorkbook<'_>,
    src: &Arc<Source>,
) -> (CalcSettings, Vec<InputDef>, Vec<ViewDef>, Option<ResetProtocol>) {
    let loc = Locator { src };
    sheets(b, raw, &loc);
    let calc = calc(b, raw, &loc);
    if b.sheets.is_empty() {
        return (calc, Vec::new(), Vec::new(), None);
    }
    for (key, value) in &raw.cells.0 {
        let at = loc.key(key, 0);
        let Some(area) = b.area(src, at, &key.text) else {
            continue;
        };
        let content = match value {
            RawValue::Text(s) if s.text.starts_with('=') => {
                let offset = loc.value(s, loc.after(at), None);
                match b.formula(src, offset, &s.text, &format!("cell {}", b.show(area))) {
                    Some(f) => Content::Formula(f),
                    None => continue,
                }
            }
            v => Content::Constant(constant(v)),
        };
        b.add_cells(src, loc.content(at), CellEntry { area, content });
    }
    for (key, def) in &raw.names.0 {
        let at = loc.key(key, 0);
        let def = name(b, &loc, at, key, def);
        b.add_name(src, loc.content(at), def, &key.text);
    }
    let inputs = super::extras::inputs(b, &loc, &raw.inputs);
    let views = super::extras::views(b, &loc, &raw.views);
    let reset = raw
        .reset
        .as_ref()
        .map(|r| ResetProtocol { set: reset_cells(b, &loc, &r.set), then: reset_cells(b, &loc, &r.then) });
    (calc, inputs, views, reset)
}

fn sheets(b: &mut Builder, raw: &RawWorkbook<'_>, loc: &Locator<'_>) {
    let src = loc.src;
    if raw.sheets.is_empty() {
        let at = loc.field("sheets");
        b.error(src, at..at + "sheets".len(), "a workbook needs at least one sheet", "no sheets");
        return;
    }
    let mut hint = 0;
    for s in &raw.sheets {
        let at = loc.key(s, hint);
        hint = at;
        let span = loc.content(at);
        if let Err(e) = check_sheet_name(&s.text) {
            b.error(src, span, e, "invalid sheet name");
        } else if b.sheets.iter().any(|t| t.eq_ignore_ascii_case(&s.text)) {
            b.error(src, span, format!("the sheet `{}` is listed twice", s.text), "repeated sheet");
        } else if b.sheets.len() > SheetId::MAX as usize {
            b.error(src, span, "too many sheets", "one too many");
        }
        // Keep every sheet (even a bad one) so indexes match the file.
        b.sheets.push(s.text.to_string());
    }
}

fn calc(b: &mut Builder, raw: &RawWorkbook<'_>, loc: &Locator<'_>) -> CalcSettings {
    let c = &raw.calc;
    let mut calc = CalcSettings::default();
    calc.iterate = c.iterate.unwrap_or(calc.iterate);
    calc.order = c.order.map_or(calc.order, |o| o.0);
    if let Some(n) = c.max_iterations {
        if (1..=32767).contains(&n) {
            calc.max_iterations = n;
        } else {
            let at = loc.field("max_iterations");
            b.error(
                loc.src,
                at..at + "max_iterations".len(),
                format!("max_iterations must be between 1 and 32767, not {n}"),
                "out of range",
            );
        }
    }
    if let Some(x) = c.max_change {
        if x.is_finite() && x >= 0.0 {
            calc.max_change = x;
        } else {
            let at = loc.field("max_change");
            b.error(
                loc.src,
                at..at + "max_change".len(),
                format!("max_change must be a number >= 0, not {x}"),
                "out of range",
            );
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

fn name(b: &mut Builder, loc: &Locator<'_>, at: usize, key: &Str<'_>, def: &RawName<'_>) -> Option<NameDef> {
    let src = loc.src;
    let anchor = match &def.anchor {
        None => CellAddr::new(0, 0, 0),
        Some(a) => {
            let a_at = loc.value(a, loc.after(at), Some("anchor"));
            b.cell(src, a_at, &a.text, "a name's anchor")?
        }
    };
    let offset = loc.value(&def.formula, loc.after(at), Some("formula"));
    let formula = b.formula(src, offset, &def.formula.text, &format!("name `{}`", key.text))?;
    Some(NameDef { name: key.text.to_string(), anchor, formula, comment: def.comment.clone() })
}

fn reset_cells(b: &mut Builder, loc: &Locator<'_>, entries: &Entries<Str<'_>, RawValue<'_>>) -> Vec<(CellAddr, Value)> {
    let src = loc.src;
    let mut out = Vec::new();
    for (key, value) in &entries.0 {
        let at = loc.key(key, 0);
        let Some(cell) = b.cell(src, at, &key.text, "a reset cell") else {
            continue;
        };
        if out.iter().any(|(c, _)| *c == cell) {
            b.error(src, loc.content(at), format!("{} is set twice", b.show(Area::cell(cell))), "set again");
            continue;
        }
        if let RawValue::Text(s) = value
            && s.text.starts_with('=')
        {
            let v_at = loc.value(s, loc.after(at), None);
            b.error(src, loc.content(v_at), "reset values are constants, not formulas", "a formula");
            continue;
        }
        out.push((cell, constant(value)));
    }
    out
}
