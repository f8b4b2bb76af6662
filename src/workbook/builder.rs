//! The model under construction, whatever file format it is read from: the
//! sheets, cells and names added so far and every problem found, so that
//! readers report them all rather than stopping at the first. The
//! [`Builder`] checks what does not depend on the format: references and
//! single cells, formulas (parsed on the spot, errors placed in their file),
//! cells that overlap or would make the grid too large, names that are
//! invalid or defined twice (across every file of the workbook).

use super::areas::NamedAreas;
use super::model::*;
use super::refs::{check_name, parse_ref};
use crate::address::{Area, CellAddr, SheetId};
use crate::ast::{Expr, ExprKind, Span};
use crate::diagnostic::{Diagnostic, Source};
use crate::grid::{MAX_FORMULA_CELLS, MAX_GRID_CELLS};
use crate::parse::{block_formula, parse_formula};
use crate::sheets::Sheets;
use crate::value::ErrorKind;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// What a formula is the formula of (`cell Main!A2`, `name `rate``), for
/// its parse errors: written from the sheets only when there is one.
pub(crate) type What<'a> = &'a dyn Fn(&Sheets) -> String;

/// The model under construction and the problems found so far.
pub(crate) struct Builder {
    pub sheets: Sheets,
    pub diags: Vec<Diagnostic>,
    pub cells: Vec<CellEntry>,
    /// Where each entry of `cells` was set (file and byte offset), for
    /// overlap notes: the line and column are worked out only for a message.
    cell_places: Vec<(Arc<Source>, usize)>,
    /// Per sheet, the entries of `cells` by top-left corner, to find overlaps.
    placed: HashMap<SheetId, Placed>,
    pub names: Vec<Name>,
    /// Lower-cased name -> where it was first defined.
    name_places: HashMap<String, String>,
    pub sources: Vec<Arc<Source>>,
    /// Per sheet, the rows and columns stored so far (from A1).
    extents: HashMap<SheetId, (u64, u64)>,
    /// The formula cells of the entries added so far.
    formula_cells: u64,
    /// The areas the names stand for, once every name is read
    /// ([`Builder::names_read`]); until then areas are literal only.
    named: Option<NamedAreas>,
    /// Excel's way with a formula it cannot read (see
    /// [`Workbook::excel_errors`]): the cell shows `#NAME?` and the problem
    /// is a warning; so is a name that is invalid or defined twice (the
    /// first is kept).
    pub excel_errors: bool,
    /// Whether one-cell formulas are dynamic-array formulas
    /// (`dynamic_arrays: true`, see [`Content::Dynamic`]).
    pub dynamic_arrays: bool,
    /// The problems that did not refuse the workbook (`excel_errors`).
    pub warnings: Vec<Diagnostic>,
    /// The tables read (see [`Workbook::tables`]).
    pub tables: Vec<crate::table::Table>,
    /// The `name NAME += formula` entries of the formula files, in order
    /// (added once every name is read, see `ron::additions`).
    pub(crate) additions: Vec<crate::workbook::ron::additions::Addition>,
    /// The `place NAME on SHELF` entries, in order (see `ron::places`).
    pub(crate) places: Vec<crate::workbook::ron::places::Place>,
}

impl Builder {
    pub fn new(src: &Arc<Source>) -> Builder {
        Builder {
            sheets: Sheets::default(),
            diags: Vec::new(),
            cells: Vec::new(),
            cell_places: Vec::new(),
            placed: HashMap::new(),
            names: Vec::new(),
            name_places: HashMap::new(),
            sources: vec![src.clone()],
            extents: HashMap::new(),
            formula_cells: 0,
            named: None,
            excel_errors: false,
            dynamic_arrays: false,
            warnings: Vec::new(),
            tables: Vec::new(),
            additions: Vec::new(),
            places: Vec::new(),
        }
    }

    /// A problem Excel would load past: a warning with `excel_errors`, else
    /// an error.
    pub fn soft(&mut self, d: Diagnostic) {
        match self.excel_errors {
            true => self.warnings.push(d),
            false => self.diags.push(d),
        }
    }

    pub fn error(&mut self, src: &Arc<Source>, span: Span, message: impl Into<String>, label: impl Into<String>) {
        self.diags.push(Diagnostic::at(src, span, message, label));
    }

    /// Every name is read: from now on an area may be a name holding a
    /// constant reference, and literal ranges are checked against them.
    pub fn names_read(&mut self) {
        self.named = Some(NamedAreas::new(&self.names, &self.sheets));
    }

    /// Reads a cell or area written at byte `at` of `src` (once the names
    /// are read, also a name holding a constant reference); reports and
    /// returns None when it does not read or a literal range disagrees with
    /// a name (see `areas.rs`).
    pub fn area(&mut self, src: &Arc<Source>, at: usize, text: &str) -> Option<Area> {
        let span = at..at + text.len();
        let e =
            match parse_ref(text, &self.sheets, 0) {
                Ok(a) => {
                    let Some((i, named)) = self.named.as_ref().and_then(|n| n.disagreeing(a)) else { return Some(a) };
                    let name = &self.names[i];
                    let m = format!(
                        "`{text}` starts where the name `{}` starts but is not its area ({})",
                        name.name,
                        self.show(named)
                    );
                    let d = Diagnostic::at(src, span, m, format!("not the area of `{}`", name.name))
                        .with_note(format!("{}; write `{}` here to keep the two in step", defined(name), name.name));
                    self.diags.push(d);
                    return None;
                }
                Err(e) => e,
            };
        match self.named.as_ref().and_then(|n| n.lookup(text.trim())) {
            Some((_, Ok(a))) => Some(*a),
            Some((i, Err(why))) => {
                let name = &self.names[i];
                let formula = name.formula.text.trim_start_matches('=');
                let m = format!("the name `{}` does not stand for an area: its formula `{formula}` {why}", name.name);
                let d = Diagnostic::at(src, span, m, "not a constant reference").with_note(defined(name));
                self.diags.push(d);
                None
            }
            None if self.named.is_some() && check_name(text).is_ok() && !looks_like_cell(text) => {
                let m = format!("`{text}` is neither a cell address nor a workbook name");
                self.error(src, span, m, "expected a cell like Main!D4 or a name");
                None
            }
            None => {
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
    /// reporting every parse error at its place in the file, for what
    /// `what` says (written only when there is an error to report).
    pub fn formula(&mut self, src: &Arc<Source>, offset: usize, text: &str, what: What) -> Option<Formula> {
        let origin = Origin { source: Some(src.clone()), offset };
        match parse_formula(text) {
            Ok(expr) => Some(Formula { expr: Arc::new(expr), text: text.to_string(), origin }),
            Err(errors) => {
                let what = what(&self.sheets);
                for e in errors {
                    let span = super::locate::formula_span(&src.text, offset, text, e.span);
                    self.soft(Diagnostic::at(src, span, format!("cannot parse the formula of {what}"), e.message));
                }
                // Excel's way: the cell keeps its text and shows #NAME?.
                let expr = Expr::new(ExprKind::Error(ErrorKind::Name), 0..text.len());
                self.excel_errors.then(|| Formula { expr: Arc::new(expr), text: text.to_string(), origin })
            }
        }
    }

    /// The content of a `cells` entry written as a formula: `=...` (or, in a
    /// formula file, the formula alone), or `{=...}` for one array formula
    /// over the entry's whole area (Excel's Ctrl+Shift+Enter).
    pub fn cell_formula(&mut self, src: &Arc<Source>, offset: usize, text: &str, what: What) -> Option<Content> {
        if let Some(inner) = block_formula(text) {
            return self.formula(src, offset + 1, inner, what).map(|f| Content::Array(Box::new(f)));
        }
        if text.starts_with("{=") {
            let end = offset + text.len();
            let m = format!("the array formula of {} has no closing `}}`", what(&self.sheets));
            self.error(src, end..end, m, "expected `}`");
            return None;
        }
        self.formula(src, offset, text, what).map(|f| Content::Formula(Box::new(f)))
    }

    /// Adds a cell entry unless it overlaps one already set.
    pub fn add_cells(&mut self, src: &Arc<Source>, span: Span, mut entry: CellEntry) {
        if self.dynamic_arrays && entry.area.is_cell() {
            entry.content = match entry.content {
                Content::Formula(f) => Content::Dynamic(f),
                c => c,
            };
        }
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
        let formulas = match entry.content {
            Content::Constant(_) => 0,
            _ => entry.area.size(),
        };
        if self.formula_cells + formulas > MAX_FORMULA_CELLS {
            let d = Diagnostic::at(
                src,
                span,
                format!(
                    "{} would make {} formula cells; a workbook holds at most {MAX_FORMULA_CELLS}",
                    self.show(entry.area),
                    self.formula_cells + formulas
                ),
                "too many formulas",
            )
            .with_note("each formula cell takes about 450 bytes: the cap is about 2 GB");
            self.diags.push(d);
            return;
        }
        let placed = self.placed.entry(entry.area.sheet).or_default();
        if let Some(i) = placed.first_overlap(&self.cells, &entry.area) {
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
            .with_note(format!(
                "{} is set at {}",
                self.show(other),
                place(&self.cell_places[i].0, self.cell_places[i].1)
            ));
            self.diags.push(d);
            return;
        }
        placed.add(&entry.area, self.cells.len());
        self.extents.insert(entry.area.sheet, new);
        self.formula_cells += formulas;
        self.cells.push(entry);
        self.cell_places.push((src.clone(), span.start));
    }

    /// Checks a name (validity, not yet defined in any case) and adds it.
    pub fn add_name(&mut self, src: &Arc<Source>, span: Span, def: Option<Name>, name: &str) {
        if let Err(e) = check_name(name) {
            self.soft(Diagnostic::at(src, span, e, "invalid name"));
            return;
        }
        let key = name.to_lowercase();
        if let Some(first) = self.name_places.get(&key) {
            let d = Diagnostic::at(src, span, format!("the name `{name}` is defined twice"), "defined again here")
                .with_note(format!("first defined at {first} (names are case-insensitive)"));
            self.soft(d);
            return;
        }
        self.name_places.insert(key, place(src, span.start));
        if let Some(def) = def {
            self.names.push(def);
        }
    }

    /// Where `name` was first defined (`file:line:col`), if it was.
    pub fn defined_at(&self, name: &str) -> Option<&str> {
        self.name_places.get(&name.to_lowercase()).map(String::as_str)
    }

    /// Whether `text` reads as a name (not a reference) that is not defined
    /// so far. A misspelt reference (`Main!P34:AP6O`) is no name.
    pub fn unknown_name(&self, text: &str) -> bool {
        parse_ref(text, &self.sheets, 0).is_err() && check_name(text).is_ok() && self.defined_at(text).is_none()
    }

    /// `Main!D4:L12` for messages.
    pub fn show(&self, a: Area) -> String {
        self.sheets.area(a)
    }
}

/// The entries of one sheet by (top row, left column), and the height of
/// the tallest: an entry meeting an area starts at most that many rows above
/// it. Entries never overlap, so those starting on one row have disjoint
/// columns: only the last one starting left of the area (or at its left
/// edge) and those starting within its columns can meet it.
#[derive(Default)]
struct Placed {
    by_corner: BTreeMap<(u32, u32), usize>,
    tallest: u32,
}

impl Placed {
    fn add(&mut self, a: &Area, entry: usize) {
        self.by_corner.insert((a.r0, a.c0), entry);
        self.tallest = self.tallest.max(a.r1 - a.r0 + 1);
    }

    /// The first entry (in `cells` order) that `a` overlaps, visiting only
    /// the rows where an entry meeting it can start.
    fn first_overlap(&self, cells: &[CellEntry], a: &Area) -> Option<usize> {
        let mut first: Option<usize> = None;
        let mut row = a.r0.saturating_sub(self.tallest.saturating_sub(1));
        while let Some((&(r, _), _)) = self.by_corner.range((row, 0)..).next() {
            if r > a.r1 {
                break;
            }
            let left = self.by_corner.range((r, 0)..=(r, a.c0)).next_back();
            let within = (a.c1 > a.c0).then(|| self.by_corner.range((r, a.c0 + 1)..=(r, a.c1)));
            for (_, &i) in left.into_iter().chain(within.into_iter().flatten()) {
                if cells[i].area.intersect(a).is_some() {
                    first = Some(first.map_or(i, |f| f.min(i)));
                }
            }
            row = r + 1;
        }
        first
    }
}

/// Where a name is defined, for a note.
fn defined(name: &Name) -> String {
    match &name.formula.origin.source {
        Some(src) => format!("`{}` is defined at {}", name.name, place(src, name.formula.origin.offset)),
        None => format!("`{}` is a name of the workbook", name.name),
    }
}

/// Letters then digits (`A0`, `ZZZZ1`): a mistyped cell rather than a name.
fn looks_like_cell(text: &str) -> bool {
    let digits = text.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    digits.len() < text.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `path:line:col` of a byte offset.
pub(crate) fn place(src: &Source, offset: usize) -> String {
    let (line, col) = src.line_col(offset);
    format!("{}:{line}:{col}", src.path.display())
}

impl Builder {
    /// The workbook, or every problem found, sorted by file (the workbook
    /// file, then each included file) and position, at most
    /// [`MAX_PER_FILE`](crate::diagnostic::MAX_PER_FILE) per file.
    pub fn finish(
        self,
        calc: CalcSettings,
        inputs: Vec<InputDef>,
        views: Vec<ViewDef>,
        reset: Option<ResetProtocol>,
        parts: Vec<Part>,
    ) -> Result<Workbook, crate::LoadError> {
        if !self.diags.is_empty() {
            let mut diags = self.diags;
            let sources = self.sources;
            let rank = |d: &Diagnostic| {
                let file =
                    d.file.as_ref().map_or(0, |f| 1 + sources.iter().position(|s| Arc::ptr_eq(s, f)).unwrap_or(0));
                (file, d.span.start)
            };
            diags.sort_by_key(rank);
            return Err(crate::diagnostic::cap_per_file(diags).into());
        }
        let dynamic_arrays = self.dynamic_arrays || self.cells.iter().any(|e| matches!(e.content, Content::Dynamic(_)));
        Ok(Workbook {
            sheets: self.sheets,
            calc,
            cells: self.cells,
            names: self.names,
            inputs,
            views,
            reset,
            sources: self.sources,
            parts,
            start: Vec::new(),
            excel_errors: self.excel_errors,
            dynamic_arrays,
            warnings: self.warnings,
            tables: self.tables,
            bundle: None,
        })
    }
}
