//! Spilling, as Excel 365 does it. A dynamic-array formula
//! (`FormulaCell::spills`) is calculated as an array formula at its own
//! cell, the *anchor*; writing its value puts the top-left element in the
//! anchor and the others in the cells to the right and below, which it
//! then owns (`grid::spills`). The spill is stopped, and the anchor shows
//! `#SPILL!`, when a cell it needs holds a constant or a formula, belongs
//! to another anchor's spill, lies past the sheet's edge or past what the
//! grid may store ([`MAX_GRID_CELLS`](crate::grid::MAX_GRID_CELLS)).
//!
//! Writing a new value first clears the cells the old spill covered and
//! the new one does not, then writes the new spill: so a spill that changes
//! shape leaves nothing behind, in a cycle too (one iteration's spill is
//! cleared before the next is written). The cells written mark their
//! readers like any changed cell; an anchor whose spill changed (its area
//! or any element) also marks the readers of the anchor itself, which is
//! what `A1#` depends on. Released cells wake the anchors an obstacle
//! stopped there, and so does a cell set by hand (see `Engine::set`). A
//! reader scheduled before the anchor (the dependency graph knows the
//! anchor's precedents, not where it will spill) is marked dirty by the
//! write and calculated again in the same pass (see `recalc`).
//!
//! For the oscillation watch an anchor's value is its whole array, so an
//! iteration that spills another shape is another state.

use super::Engine;
use super::observe::Observer;
use super::program::Program;
use crate::address::{Area, CellAddr, MAX_COLS, MAX_ROWS};
use crate::grid::Grid;
use crate::grid::spills::Spill;
use crate::ids::FormulaId;
use crate::policy::change;
use crate::value::{ErrorKind, Value};

impl Engine {
    /// Writes the value of the dynamic-array formula `f` (an array, or a
    /// single value); returns the largest change of the cells written.
    pub(super) fn write_spill(&mut self, f: FormulaId, v: Value, observer: &mut impl Observer) -> f64 {
        let anchor = self.program.cell(f).addr;
        let v = match v {
            Value::Array(a) if a.len() == 1 => a.first().unwrap_or(Value::Empty),
            v => v,
        };
        let v = if v.is_empty() { Value::Number(0.0) } else { v };
        // An empty array (none is made today) shows #CALC!, as in Excel.
        let v = match v {
            Value::Array(a) if a.rows == 0 || a.cols == 0 => Value::Error(ErrorKind::Calc),
            v => v,
        };
        let (rows, cols) = match &v {
            Value::Array(a) => (a.rows as u32, a.cols as u32),
            _ => (1, 1),
        };
        let r1 = anchor.row.saturating_add(rows - 1);
        let c1 = anchor.col.saturating_add(cols - 1);
        let wanted = Area::new(anchor.sheet, anchor.row, anchor.col, r1.min(MAX_ROWS - 1), c1.min(MAX_COLS - 1));
        let fits = r1 < MAX_ROWS && c1 < MAX_COLS && self.spill_fits(anchor, wanted);
        let area = fits.then_some(wanted);
        let old = self.grid.spills().get(anchor).cloned();
        let mut delta = 0.0f64;
        let before = old.as_ref().and_then(|s| s.area);
        if let Some(before) = before {
            for c in before.cells().filter(|&c| c != anchor && !area.is_some_and(|a| a.contains(c))) {
                delta = delta.max(self.put_spilled(c, Value::Empty, observer));
            }
        }
        let changed = old.as_ref().is_none_or(|s| s.area != area || s.value != v);
        let old_value = old.map_or_else(|| self.grid.get(anchor).clone(), |s| s.value);
        self.grid.spills_mut().put(anchor, Spill { area, wanted, value: v.clone() });
        // Cells it gave up may be what a stopped anchor waits for.
        if let Some(before) = before.filter(|b| area != Some(*b)) {
            self.wake_blocked(before, Some(anchor));
        }
        let shown = if area.is_none() { Value::Error(ErrorKind::Spill) } else { super::recalc::element(&v, 0, 0) };
        if let Ok((before, now)) = self.grid.update(anchor, shown) {
            observer.write(anchor, &before, now);
            delta = delta.max(change(&before, now));
        }
        if let Some(a) = area {
            for c in a.cells().filter(|&c| c != anchor) {
                let e = super::recalc::element(&v, (c.row - a.r0) as usize, (c.col - a.c0) as usize);
                delta = delta.max(self.put_spilled(c, e, observer));
            }
        }
        if changed {
            self.watch.write(f, old_value, &v);
            self.mark_readers_of(anchor, Some(f), None);
            self.writes += 1;
        }
        delta
    }

    /// Whether `anchor`'s value can spill over `area`: every cell but the
    /// anchor empty or its own, and the grid able to store the area.
    fn spill_fits(&mut self, anchor: CellAddr, area: Area) -> bool {
        let spills = self.grid.spills();
        // Cells past the stored grid read as empty and belong to nobody:
        // the grid grows only for a spill that will be written.
        let free = area.cells().filter(|&c| c != anchor).all(|c| {
            self.program.formula_at(c).is_none()
                && match spills.owner(c) {
                    Some(owner) => owner == anchor,
                    None => self.grid.get(c).is_empty(),
                }
        });
        free && self.grid.reserve(CellAddr::new(area.sheet, area.r1, area.c1))
    }

    /// Stores a spilled element (or clears a released cell), marking its
    /// readers when it changed; returns the change.
    fn put_spilled(&mut self, c: CellAddr, v: Value, observer: &mut impl Observer) -> f64 {
        if !self.grid.reserve(c) {
            return 0.0;
        }
        let Ok((old, new)) = self.grid.update(c, v) else { return 0.0 };
        observer.write(c, &old, new);
        let delta = change(&old, new);
        self.mark_readers_of(c, None, Some(&old));
        delta
    }

    /// Marks dirty the anchors (but `except`) stopped by an obstacle that
    /// want a cell of `area`, whose cells are free now or changed by hand:
    /// they try again. One look at each stopped anchor.
    pub(super) fn wake_blocked(&mut self, area: Area, except: Option<CellAddr>) {
        if self.grid.spills().is_empty() {
            return;
        }
        let woken: Vec<CellAddr> = self.grid.spills().blocked_wanting(area).filter(|&a| Some(a) != except).collect();
        for a in woken {
            if let Some(f) = self.program.formula_at(a) {
                self.dirty[f.index()] = true;
            }
        }
    }

    /// The cells the spills cover now, anchors left out: what an engine
    /// rebuilt after an edit does not copy (its formulas spill again).
    pub(super) fn spilled_cells(&self) -> Vec<CellAddr> {
        let mut cells = Vec::new();
        for (anchor, spill) in self.grid.spills().anchors() {
            if let Some(area) = spill.area {
                cells.extend(area.cells().filter(|&c| c != anchor));
            }
        }
        cells
    }

    /// Clears every spill (the cells spilled over emptied, without marking)
    /// and marks the spilling formulas dirty: the state a restored session
    /// starts from, where they spill again when calculated.
    pub fn clear_spills(&mut self) {
        let spills = self.grid.spills_shared();
        self.grid.set_spills(Default::default());
        for (anchor, spill) in spills.anchors() {
            if let Some(area) = spill.area {
                area.cells().filter(|&c| c != anchor).for_each(|c| self.grid.set(c, Value::Empty));
            }
            if let Some(f) = self.program.formula_at(anchor) {
                self.dirty[f.index()] = true;
            }
        }
    }

    /// Why a cell cannot be set by hand: it shows an element of a spill.
    pub fn spilled_into(&self, c: CellAddr) -> Option<String> {
        let anchor = self.grid.spills().owner(c)?;
        let area = self.grid.spills().get(anchor).and_then(|s| s.area)?;
        let p = &self.program;
        Some(format!(
            "{} shows part of the array {} spills over {}; edit {} instead",
            p.cell_name(c),
            p.cell_name(anchor),
            p.scope.sheets.area(area),
            p.cell_name(anchor)
        ))
    }
}

/// The value the oscillation watch knows formula `f` by: a spilling
/// formula's whole array, any other's shown value.
pub(super) fn watched<'v>(grid: &'v Grid, program: &Program, f: FormulaId) -> &'v Value {
    let cell = program.cell(f);
    match grid.spills().get(cell.addr) {
        Some(s) if cell.spills => &s.value,
        _ => grid.get(cell.addr),
    }
}
