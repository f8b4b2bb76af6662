//! Live edits of a loaded session, as a user makes them in Excel: text
//! typed into a cell or over a range (a constant, a formula, an array
//! formula), cells cleared, a name defined or changed. The workbook model
//! takes the edit (`workbook/edit.rs`), then only what depends on it is
//! bound again (`Program::rebuild`: the edited cells, and for a name the
//! cells using it or a name that uses it) while the graph and schedule are
//! derived anew, so a cycle that appears or disappears is found. The
//! engine keeps every value the edit did not touch (`Engine::edited`); the
//! next recalculation computes what changed and what reads it.
//!
//! An edit that does not parse or bind (an unknown name, a name loop, a
//! wrong argument count) is a located error and leaves the session as it
//! was. Every edit returns the session as it was before ([`Undo`]), which
//! [`Session::undo_edit`] puts back, values and dirty flags included.

use super::{Session, inputs, issue_diagnostic, unknown_names_once};
use crate::address::{Area, CellAddr};
use crate::engine::{BuildIssue, Engine, Program, Unpatch};
use crate::error::{Error, LoadError};
use crate::grid::MAX_GRID_CELLS;
use crate::workbook::{Content, Workbook, typed};
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// A session as it was before an edit; [`Session::undo_edit`] puts it back.
pub struct Undo {
    workbook: Arc<Workbook>,
    how: How,
    /// Formula cells the edit bound again (a block array formula once).
    rebound: usize,
}

/// How an edit is undone: the engine it replaced, or (an edit made in
/// place) what it replaced in the engine.
enum How {
    Engine(Box<Engine>),
    Patch(Box<Unpatch>),
}

impl Undo {
    /// How many formula cells the edit bound again (a block array formula
    /// counting once); the others kept their binding.
    pub fn rebound(&self) -> usize {
        self.rebound
    }

    /// Whether the edit was made in place (see `engine::patch`), rather
    /// than by rebuilding the program.
    pub fn in_place(&self) -> bool {
        matches!(self.how, How::Patch(_))
    }
}

impl std::fmt::Debug for Undo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let in_place = matches!(self.how, How::Patch(_));
        f.debug_struct("Undo").field("in_place", &in_place).field("rebound", &self.rebound).finish_non_exhaustive()
    }
}

impl Session {
    /// Types `text` into every cell of `area`, as Excel's Ctrl+Enter does:
    /// `=...` a formula relative to the area's top-left cell, `{=...}` one
    /// array formula over the area (Ctrl+Shift+Enter), an empty text
    /// clears, anything else is a constant (see [`typed`]). A cell that
    /// held a formula loses it.
    pub fn enter(&mut self, area: Area, text: &str) -> Result<Undo, Error> {
        let content = match typed(&self.workbook.sheets, area, text)? {
            // Typed into one cell of a workbook with dynamic arrays, a
            // formula is a dynamic-array one, as Excel 365 enters it.
            Some(Content::Formula(f)) if self.workbook.dynamic_arrays && area.is_cell() => Some(Content::Dynamic(f)),
            c => c,
        };
        self.put(area, content)
    }

    /// Enters a formula (`=` optional; `{=...}` for an array formula) into
    /// every cell of `area`.
    pub fn set_formula(&mut self, area: Area, formula: &str) -> Result<Undo, Error> {
        match formula.starts_with('=') || formula.starts_with("{=") {
            true => self.enter(area, formula),
            false => self.enter(area, &format!("={formula}")),
        }
    }

    /// Empties every cell of `area`, formulas included.
    pub fn clear(&mut self, area: Area) -> Result<Undo, Error> {
        self.put(area, None)
    }

    /// Puts `content` (None: nothing) into every cell of `area`.
    pub fn put(&mut self, area: Area, content: Option<Content>) -> Result<Undo, Error> {
        if area.size() > MAX_GRID_CELLS {
            let (what, n) = (self.workbook.sheets.area(area), area.size());
            return Err(Error::Cell(format!("{what} has {n} cells; a workbook stores at most {MAX_GRID_CELLS}")));
        }
        // A cell a dynamic array spills over is edited through its formula.
        if let Some(c) = self.engine.grid().spills().covered_in(area) {
            return Err(Error::Cell(self.engine.spilled_into(c).unwrap_or_default()));
        }
        let mut wb = (*self.workbook).clone();
        wb.put(area, content)?;
        let changed: FxHashSet<CellAddr> = area.cells().collect();
        self.apply(wb, &changed, &changed, &FxHashSet::default())
    }

    /// Defines the workbook name `name` as `formula` (`=` optional),
    /// relative to `anchor`, or changes an existing name's formula (and
    /// its anchor, when given; a new name's default is A1 of the first
    /// sheet). Every cell using the name, or a name that uses it, is bound
    /// again.
    pub fn define_name(&mut self, name: &str, formula: &str, anchor: Option<CellAddr>) -> Result<Undo, Error> {
        let old = self.workbook.name(name).map(|n| n.anchor);
        let anchor = anchor.or(old).unwrap_or(CellAddr::new(0, 0, 0));
        let mut wb = (*self.workbook).clone();
        wb.define_name(name, formula, anchor)?;
        let (cells, names) = users(&wb, name);
        self.apply(wb, &FxHashSet::default(), &cells, &names)
    }

    /// Puts back the session as it was before the edit `undo` came from
    /// (the last edit made, or one undone in order); returns the session as
    /// it is now, which this call with it puts back in turn (redo).
    pub fn undo_edit(&mut self, undo: Undo) -> Undo {
        let how = match undo.how {
            How::Engine(e) => How::Engine(Box::new(std::mem::replace(&mut self.engine, *e))),
            How::Patch(u) => How::Patch(Box::new(self.engine.unpatch(*u))),
        };
        Undo { workbook: std::mem::replace(&mut self.workbook, undo.workbook), how, rebound: 0 }
    }

    /// Makes `wb` this session's workbook: the cells `rebind` and the
    /// names `names` bound again, the cells `changed` holding their new
    /// content. Nothing changes when it does not bind.
    fn apply(
        &mut self,
        wb: Workbook,
        changed: &FxHashSet<CellAddr>,
        rebind: &FxHashSet<CellAddr>,
        names: &FxHashSet<usize>,
    ) -> Result<Undo, Error> {
        let model = inputs(&wb)?;
        let refused = |issues: Vec<BuildIssue>, p: &Program| {
            let diags = issues.iter().map(|i| issue_diagnostic(&wb, p, i)).collect();
            let diags = crate::diagnostic::cap_per_file(unknown_names_once(&wb, &issues, diags));
            Error::from(LoadError::from(diags))
        };
        let (how, rebound) = match self.engine.patch(&model, changed, rebind, names) {
            Some(Ok(unpatch)) => {
                let rebound = unpatch.rebound();
                (How::Patch(Box::new(unpatch)), rebound)
            }
            Some(Err(issues)) => return Err(refused(issues, self.engine.program())),
            None => {
                let (program, issues, rebound) = self.engine.program().rebuild(&model, rebind, names);
                if !issues.is_empty() {
                    return Err(refused(issues, &program));
                }
                let engine = self.engine.edited(Arc::new(program), changed, rebind)?;
                (How::Engine(Box::new(std::mem::replace(&mut self.engine, engine))), rebound)
            }
        };
        Ok(Undo { workbook: std::mem::replace(&mut self.workbook, Arc::new(wb)), how, rebound })
    }
}

/// The cells whose formulas use the name `name` of `wb`, or a name that
/// uses it (at any depth), and those names (by index), `name` included.
fn users(wb: &Workbook, name: &str) -> (FxHashSet<CellAddr>, FxHashSet<usize>) {
    let lower = |n: &str| n.to_lowercase();
    // Which names each name's formula uses, as written.
    let uses: Vec<FxHashSet<String>> = wb
        .names
        .iter()
        .map(|n| {
            let mut used = FxHashSet::default();
            n.formula.expr.each_name(&mut |u| {
                used.insert(lower(u));
            });
            used
        })
        .collect();
    let mut changed: FxHashSet<String> = FxHashSet::from_iter([lower(name)]);
    let mut names = FxHashSet::default();
    // Until nothing is added: a name using a changed name is changed.
    loop {
        let before = names.len();
        for (i, n) in wb.names.iter().enumerate() {
            if changed.contains(&lower(&n.name)) || uses[i].iter().any(|u| changed.contains(u)) {
                names.insert(i);
                changed.insert(lower(&n.name));
            }
        }
        if names.len() == before {
            break;
        }
    }
    let mut cells = FxHashSet::default();
    for entry in &wb.cells {
        let Some(f) = entry.content.formula() else { continue };
        let mut uses_changed = false;
        f.expr.each_name(&mut |u| uses_changed |= changed.contains(&lower(u)));
        if uses_changed {
            cells.extend(entry.area.cells());
        }
    }
    (cells, names)
}
