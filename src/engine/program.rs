//! Building a [`Program`] from a [`Inputs`]: every formula cell is bound for
//! its own position (names inlined, position-only references folded), its
//! dependencies are collected as areas, and the dependency graph and the
//! schedule are derived. A program is immutable and shared between engines
//! (one per worker thread in batch runs).

use super::graph::{DepGraph, Stage};
use crate::address::{Area, CellAddr};
use crate::ast::Expr;
use crate::eval::BExpr;
use crate::eval::bind::{Binder, Issue, NameDef, Scope, Site};
use crate::eval::deps::dependencies;
use crate::ids::{EntryId, FormulaId, NameId};
use crate::sheets::Sheets;
use crate::value::Value;
use indexmap::IndexMap;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// What a cell holds before calculation.
#[derive(Clone, Debug, PartialEq)]
pub enum CellInput {
    Constant(Value),
    /// A formula entered at `anchor` (the cell itself, or the top-left cell
    /// of a range formula); `origin` identifies its source text for messages.
    Formula {
        expr: Arc<Expr>,
        anchor: CellAddr,
        origin: EntryId,
    },
}

/// A workbook as the engine sees it: sheets, names and cell inputs.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    pub sheets: Sheets,
    pub names: Vec<NameDef>,
    pub cells: IndexMap<CellAddr, CellInput>,
}

/// A binding problem found while building, with the formula it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildIssue {
    /// The first cell whose formula showed the problem.
    pub cell: CellAddr,
    /// The `origin` of that cell's formula; none for a name no cell uses.
    pub origin: Option<EntryId>,
    pub issue: Issue,
}

/// One formula cell, bound.
#[derive(Clone, Debug)]
pub struct FormulaCell {
    pub addr: CellAddr,
    /// The `origin` of its [`CellInput::Formula`]: which entry it came from.
    pub origin: EntryId,
    pub expr: BExpr,
    pub deps: Vec<Area>,
    /// Whole sheets its run-time references (OFFSET) can reach.
    pub reachable: Vec<Area>,
}

/// Everything needed to calculate a workbook, independent of its values.
#[derive(Clone, Debug)]
pub struct Program {
    pub(crate) scope: Scope,
    /// Formula cells sorted in sheet order, row-major: a cell's index is its
    /// position in Excel's calculation order.
    pub(crate) cells: Vec<FormulaCell>,
    pub(crate) index: HashMap<CellAddr, FormulaId>,
    pub(crate) constants: Vec<(CellAddr, Value)>,
    pub(crate) graph: DepGraph,
    pub(crate) schedule: Vec<Stage>,
}

impl Program {
    /// Binds every formula and derives the graph. Problems are returned
    /// beside the program (which then holds error values where they are).
    pub fn build(model: &Inputs) -> (Program, Vec<BuildIssue>) {
        let scope = Scope::new(model.sheets.to_vec(), model.names.clone());
        let mut issues = Vec::new();
        let mut seen: HashSet<(Option<EntryId>, Issue)> = HashSet::new();
        let mut cells = Vec::new();
        let mut constants = Vec::new();
        let mut used = vec![false; model.names.len()];
        for (&addr, input) in &model.cells {
            match input {
                CellInput::Constant(v) => constants.push((addr, v.clone())),
                CellInput::Formula { expr, anchor, origin } => {
                    let mut binder = Binder::new(&scope, addr);
                    let bound = binder.bind_formula(expr, *anchor);
                    binder.expanded.iter().for_each(|&n| used[n.index()] = true);
                    for issue in binder.issues {
                        // A name's problem is reported once, a formula's once per origin.
                        let key = match issue.site {
                            Site::Name(_) => (None, issue.clone()),
                            Site::Formula => (Some(*origin), issue.clone()),
                        };
                        if seen.insert(key) {
                            issues.push(BuildIssue { cell: addr, origin: Some(*origin), issue });
                        }
                    }
                    let (deps, reachable) = dependencies(&bound);
                    cells.push(FormulaCell { addr, origin: *origin, expr: bound, deps, reachable });
                }
            }
        }
        // Names no cell uses are checked too, from their anchors.
        for (i, n) in model.names.iter().enumerate() {
            if used[i] {
                continue;
            }
            let mut binder = Binder::new(&scope, n.anchor);
            binder.bind_name(NameId::at(i));
            binder.expanded.iter().for_each(|&n| used[n.index()] = true);
            for issue in binder.issues {
                if seen.insert((None, issue.clone())) {
                    issues.push(BuildIssue { cell: n.anchor, origin: None, issue });
                }
            }
        }
        cells.sort_by_key(|c| c.addr);
        let index = cells.iter().enumerate().map(|(i, c)| (c.addr, FormulaId::at(i))).collect();
        let graph = DepGraph::new(&cells, &index);
        let schedule = graph.schedule();
        (Program { scope, cells, index, constants, graph, schedule }, issues)
    }

    /// A copy sharing no reference-counted value with this one, for
    /// another thread: constants shared between threads would make every
    /// evaluation bump one counter from two cores.
    pub fn detached(&self) -> Program {
        let mut p = self.clone();
        for c in &mut p.cells {
            c.expr = c.expr.detached();
        }
        p.constants.iter_mut().for_each(|(_, v)| *v = v.detached());
        p
    }

    /// The sheets and names formulas were bound against.
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// The formula cells, in Excel's calculation order (sheet, row, column):
    /// a [`FormulaId`] is a position here.
    pub fn cells(&self) -> &[FormulaCell] {
        &self.cells
    }

    /// The formula in cell `c`, if it holds one.
    pub fn formula_at(&self, c: CellAddr) -> Option<FormulaId> {
        self.index.get(&c).copied()
    }

    /// The cells that hold constants, with their values.
    pub fn constants(&self) -> &[(CellAddr, Value)] {
        &self.constants
    }

    /// The dependency graph.
    pub fn graph(&self) -> &DepGraph {
        &self.graph
    }

    /// The stages of a pass, in dependency order.
    pub fn schedule(&self) -> &[Stage] {
        &self.schedule
    }

    /// One formula cell.
    pub fn cell(&self, f: FormulaId) -> &FormulaCell {
        &self.cells[f.index()]
    }

    /// The formula cells of every cycle, in calculation order.
    pub fn cycles(&self) -> impl Iterator<Item = &[FormulaId]> {
        self.schedule.iter().filter_map(|s| match s {
            Stage::Cycle(c) => Some(c.as_slice()),
            Stage::Cell(_) => None,
        })
    }

    /// `Main!D4` style text of a cell (see [`crate::sheets::Sheets::cell`]).
    pub fn cell_name(&self, c: CellAddr) -> String {
        self.scope.sheets.cell(c)
    }
}
