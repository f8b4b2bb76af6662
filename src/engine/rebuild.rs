//! A program rebuilt after an edit, binding again only what the edit
//! touched. Binding is most of a load; what a formula binds to depends only
//! on its text, its anchor, the names it uses and the sheets, never on a
//! cell's value. So every formula cell that the edit did not change, and
//! that uses no name the edit changed, takes its binding from the program
//! the edit started from: its shared form (with `BExpr::Shared` nodes)
//! turned back into the kept form binding gives (each shared subformula
//! one `BExpr::Kept` part, made once), with the areas it reads, which are
//! not walked again. The rest (graph, schedule, sharing, kernels) is
//! derived from all the formulas as a load derives it, so a cycle that an
//! edit makes or breaks is found, and the program is one a fresh load of
//! the edited workbook could give, value for value.

use super::BuildIssue;
use super::program::{CellInput, FormulaCell, Inputs, Program};
use crate::address::{Area, CellAddr};
use crate::eval::BExpr;
use crate::ids::{EntryId, FormulaId};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// Formula cells whose reads were taken from the old program, with what
/// they read there.
pub(super) type Known = FxHashMap<CellAddr, OldReads>;

/// What a formula cell the edit left as it was read in the old program.
#[derive(Debug)]
pub(super) struct OldReads {
    pub volatile: bool,
    pub deps: Vec<Area>,
    pub reachable: Box<[Area]>,
}

/// What an edit leaves as it was: the old program, and what must be bound
/// again.
pub(super) struct Reuse<'p> {
    old: &'p Program,
    /// Cells whose content the edit changed, or that use a changed name.
    rebind: &'p FxHashSet<CellAddr>,
    /// The names (by index in the new inputs) the edit defined or changed.
    names: &'p FxHashSet<usize>,
    /// Each shared subformula of the old program in kept form, once made.
    kept: Vec<Option<Arc<BExpr>>>,
    /// The nodes each holds, expanded in place (what the total budget counts).
    sizes: Vec<Option<usize>>,
    /// Formula cells and blocks that were bound again.
    bound: usize,
}

impl<'p> Reuse<'p> {
    /// The binding of formula cell `addr` from the old program, when the
    /// edit left it as it was: the cell, what it read, and the nodes it
    /// holds.
    pub(super) fn cell(&mut self, addr: CellAddr, input: &CellInput) -> Option<(FormulaCell, OldReads, usize)> {
        let CellInput::Formula { origin, .. } = input else { return None };
        let f = self.old.formula_at(addr).filter(|&f| self.old.cell(f).block.is_none());
        let Some(f) = f.filter(|_| !self.rebind.contains(&addr)) else {
            self.bound += 1;
            return None;
        };
        let old = self.old.cell(f);
        let held = self.held(&old.expr);
        let expr = self.kept_form(&old.expr);
        let reads = OldReads {
            volatile: self.old.volatile.binary_search(&f).is_ok(),
            deps: self.old.graph.reads_of(f).collect(),
            reachable: self.old.graph.reachable(f).into(),
        };
        let cell = FormulaCell { narrow: old.narrow, ..FormulaCell::new(addr, *origin, expr) };
        Some((cell, reads, held))
    }

    /// The binding of the array formula over `block`, when the edit left
    /// it and its cells as they were, with the nodes it holds.
    pub(super) fn block(&mut self, block: Area, origin: EntryId) -> Option<(FormulaCell, usize)> {
        let id = self.old.blocks.iter().position(|b| *b == block);
        let Some(id) = id.filter(|_| !block.cells().any(|c| self.rebind.contains(&c))) else {
            self.bound += 1;
            return None;
        };
        let old = &self.old.block_formulas[id];
        let held = self.held(old);
        let expr = self.kept_form(old);
        let cell = FormulaCell::new(block.top_left(), origin, expr);
        Some((cell, held))
    }

    /// Whether the name `i` (of the new inputs) is one the edit defined or
    /// changed: only those are checked again from their anchors.
    pub(super) fn name_changed(&self, i: usize) -> bool {
        self.names.contains(&i)
    }

    /// `e` of the old program with each shared subformula as a kept part.
    fn kept_form(&mut self, e: &BExpr) -> BExpr {
        match e {
            BExpr::Shared(id) => BExpr::Kept(self.kept_shared(id.index())),
            BExpr::Const(_) | BExpr::Local(_) | BExpr::Kept(_) => e.clone(),
            BExpr::Unary(op, x) => BExpr::Unary(*op, Box::new(self.kept_form(x))),
            BExpr::Binary(op, lr) => BExpr::binary(*op, self.kept_form(&lr[0]), self.kept_form(&lr[1])),
            BExpr::Call(f, args) => BExpr::Call(f, args.iter().map(|a| self.kept_form(a)).collect()),
            BExpr::ArrayMode(x) => BExpr::ArrayMode(Box::new(self.kept_form(x))),
        }
    }

    fn kept_shared(&mut self, id: usize) -> Arc<BExpr> {
        if let Some(k) = &self.kept[id] {
            return k.clone();
        }
        let k = Arc::new(self.kept_form(&self.old.shared.exprs[id]));
        self.kept[id] = Some(k.clone());
        k
    }

    /// The nodes `e` holds with its shared subformulas in place (as
    /// [`super::program::held`] counts a kept part).
    fn held(&mut self, e: &BExpr) -> usize {
        match e {
            BExpr::Shared(id) => self.held_shared(id.index()),
            BExpr::Kept(x) => super::program::held(x),
            BExpr::Const(_) | BExpr::Local(_) => 1,
            BExpr::Unary(_, x) | BExpr::ArrayMode(x) => 1 + self.held(x),
            BExpr::Binary(_, lr) => 1 + self.held(&lr[0]) + self.held(&lr[1]),
            BExpr::Call(_, args) => 1 + args.iter().map(|a| self.held(a)).sum::<usize>(),
        }
    }

    fn held_shared(&mut self, id: usize) -> usize {
        if let Some(n) = self.sizes[id] {
            return n;
        }
        let n = self.held(&self.old.shared.exprs[id]);
        self.sizes[id] = Some(n);
        n
    }
}

impl Program {
    /// The program of `model`, an edit of the workbook this program was
    /// built from: the cells in `rebind` (those whose content the edit
    /// changed and those using a name it changed) are bound again, with
    /// the names in `names` (by index in `model`) checked from their
    /// anchors; every other formula keeps its binding. Problems are those
    /// of the cells and names bound again. Also returns how many formula
    /// cells (a block array formula counting once) were bound again.
    pub fn rebuild(
        &self,
        model: &Inputs,
        rebind: &FxHashSet<CellAddr>,
        names: &FxHashSet<usize>,
    ) -> (Program, Vec<BuildIssue>, usize) {
        let n = self.shared.exprs.len();
        let mut reuse = Reuse { old: self, rebind, names, kept: vec![None; n], sizes: vec![None; n], bound: 0 };
        let (program, issues) = Program::assemble(model, self.paths, Some(&mut reuse));
        (program, issues, reuse.bound)
    }

    /// The fast paths this program was built with.
    pub fn paths(&self) -> super::Paths {
        self.paths
    }

    /// The volatile formulas, in calculation order.
    pub fn volatile(&self) -> &[FormulaId] {
        &self.volatile
    }
}

impl super::Engine {
    /// The engine for `program`, rebuilt from this engine's after an edit
    /// that changed the content of the cells `changed` and bound the cells
    /// `rebound` again (those, and the cells using a name it changed).
    /// Every cell the edit did not change keeps its value, constants
    /// typed in included, and every formula it did not bind again keeps
    /// its dirty flag, as in Excel, where an edit recalculates what it
    /// touched from the values the workbook holds (an iterative cycle goes
    /// on from them). A changed cell holds its new constant, or nothing;
    /// one that held a formula and holds one again keeps its value until
    /// it is calculated. The formulas bound again are dirty, and the
    /// readers of every changed value are marked.
    pub fn edited(
        &self,
        program: Arc<Program>,
        changed: &FxHashSet<CellAddr>,
        rebound: &FxHashSet<CellAddr>,
    ) -> Result<super::Engine, crate::Error> {
        let mut e = super::Engine::new(program.clone(), self.settings)?;
        (e.kernels, e.dense) = (self.kernels, self.dense);
        let was_formula = |a: &CellAddr| self.program.formula_at(*a).is_some();
        // What the dynamic arrays spilled is not copied: they spill again.
        let spilled: FxHashSet<CellAddr> = self.spilled_cells().into_iter().collect();
        for sheet in 0..self.grid.sheet_count() as u16 {
            let (rows, cols) = self.grid.extent(sheet);
            for row in 0..rows {
                for col in 0..cols {
                    let a = CellAddr::new(sheet, row, col);
                    let v = self.grid.get(a);
                    let keep = !spilled.contains(&a)
                        && (!changed.contains(&a) || (was_formula(&a) && program.formula_at(a).is_some()));
                    if v.is_empty() || !keep {
                        continue;
                    }
                    if !e.grid.reserve(a) {
                        return Err(super::too_large(&program, a));
                    }
                    e.grid.set(a, v.clone());
                }
            }
        }
        for (i, c) in program.cells.iter().enumerate() {
            e.dirty[i] = match self.program.formula_at(c.addr) {
                Some(old) if !rebound.contains(&c.addr) => self.dirty[old.index()] || c.spills,
                _ => true,
            };
        }
        for &a in changed.iter().chain(&spilled) {
            if self.grid.get(a) != e.grid.get(a) {
                e.mark_readers(a, Some(self.grid.get(a)));
            }
        }
        Ok(e)
    }
}
