//! Building a [`Program`] from a [`Inputs`]: every formula cell is bound for
//! its own position (names inlined, position-only references folded), its
//! dependencies are collected as areas, and the dependency graph and the
//! schedule are derived. A program is immutable and shared between engines
//! (one per worker thread in batch runs).

mod derive;
mod found;

pub use super::cell::FormulaCell;
use super::dirty::Tracked;
use super::graph::{DepGraph, Stage};
use super::nested::Subtotals;
use super::paths::Paths;
use super::rebuild::{Known, Reuse};
use super::share::{Counts, Shared, share};
use super::sources::Sources;
use crate::address::{Area, CellAddr};
use crate::ast::Expr;
use crate::eval::BExpr;
use crate::eval::bind::{Issue, MAX_FOLD_CELLS, NameDef, Scope, Site};
use crate::eval::kernel::Kernels;
use crate::ids::{BlockId, EntryId, FormulaId, NameId};
use crate::sheets::Sheets;
use crate::value::Value;
use derive::derive;
use found::Found;
pub use found::held;
use indexmap::IndexMap;
use std::collections::HashMap;
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
    /// A dynamic-array formula (Excel 365's every formula): calculated as
    /// an array formula at its own cell, its value spilling over the cells
    /// to the right and below (see `engine::spill`).
    Dynamic {
        expr: Arc<Expr>,
        origin: EntryId,
    },
    /// One cell of an array formula entered over `block` (Ctrl+Shift+Enter):
    /// the formula is calculated once for the block and each cell shows its
    /// element.
    Array {
        expr: Arc<Expr>,
        block: Area,
        origin: EntryId,
    },
}

/// A workbook as the engine sees it: sheets, names and cell inputs.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    pub sheets: Sheets,
    pub names: Vec<NameDef>,
    pub cells: IndexMap<CellAddr, CellInput, rustc_hash::FxBuildHasher>,
    /// Excel tables, which structured references name.
    pub tables: Vec<crate::table::Table>,
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

/// Everything needed to calculate a workbook, independent of its values.
#[derive(Clone, Debug)]
pub struct Program {
    pub(crate) scope: Scope,
    /// Formula cells sorted in sheet order, row-major: a cell's index is its
    /// position in Excel's calculation order, and the cell at an address is
    /// found by binary search ([`Program::formula_at`]; a hash map beside
    /// them was 22 bytes a cell).
    pub(crate) cells: Vec<FormulaCell>,
    pub(crate) constants: Vec<(CellAddr, Value)>,
    /// The areas of the block array formulas, by [`BlockId`].
    pub(crate) blocks: Vec<Area>,
    /// Their bound formulas, held once for all the cells of each block.
    pub(crate) block_formulas: Vec<BExpr>,
    /// The formulas calling a volatile function (INDIRECT): calculated on
    /// every pass.
    pub(crate) volatile: Vec<FormulaId>,
    pub(crate) graph: DepGraph,
    pub(crate) schedule: Vec<Stage>,
    /// The subformulas several formulas share (see `engine::share`).
    pub(crate) shared: Shared,
    /// Its counts kept across writes that leave them as they are (see
    /// `engine::share::counted`); empty without [`Paths::counts`].
    pub(crate) counts: Counts,
    /// The flat fast path of the formula cells that have one (see `eval::kernel`).
    pub(crate) kernels: Kernels,
    /// The areas whose readers engines track for dirty marking (see `engine::dirty`).
    pub(super) tracked: Tracked,
    /// The fast paths it was built with (an edit rebuilds alike) and its
    /// engines start with.
    pub(super) paths: Paths,
    /// The nodes the bound formulas hold, shared parts counted in place
    /// (what [`MAX_TOTAL_BOUND_NODES`] bounds).
    pub(super) nodes: usize,
    /// The cells whose formula calls SUBTOTAL or AGGREGATE, found when
    /// first asked (see `nested`).
    pub(super) subtotals: Subtotals,
    /// The formula each entry was written with, for FORMULATEXT (see
    /// `sources`).
    pub(super) sources: Sources,
    /// How many formula cells spill (dynamic-array formulas).
    pub(crate) spilling: usize,
}

/// Whether [`Program::build_with`] shares repeated subformulas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sharing {
    /// Shared subformulas (the default).
    On,
    /// Every formula evaluates all of its own: the plain evaluation the
    /// shared one is tested against.
    Off,
}

impl Program {
    /// Binds every formula and derives the graph. Problems are returned
    /// beside the program (which then holds error values where they are).
    pub fn build(model: &Inputs) -> (Program, Vec<BuildIssue>) {
        Program::build_with(model, Sharing::On)
    }

    /// [`Program::build`], sharing repeated subformulas or not.
    pub fn build_with(model: &Inputs, sharing: Sharing) -> (Program, Vec<BuildIssue>) {
        Program::build_paths(model, Paths::of_sharing(sharing))
    }

    /// [`Program::build`] with the fast paths `paths` (see [`Paths`]):
    /// its engines start with its kernels, dense arrays and folds switches.
    pub fn build_paths(model: &Inputs, paths: Paths) -> (Program, Vec<BuildIssue>) {
        Program::assemble(model, paths, None)
    }

    /// [`Program::build`] from a model no longer needed: its cells are
    /// dropped once bound, before the graph and the schedule are derived,
    /// so the two are never held together (8 MB for 100,000 formula cells).
    pub fn build_from(model: Inputs) -> (Program, Vec<BuildIssue>) {
        Program::build_from_paths(model, Paths::of_sharing(Sharing::On))
    }

    /// [`Program::build_from`] with the fast paths `paths`.
    pub fn build_from_paths(model: Inputs, paths: Paths) -> (Program, Vec<BuildIssue>) {
        Program::assemble(model, paths, None)
    }

    /// Binds the formulas of `model`, or takes their bindings from the
    /// program an edit started from (`reuse`), and derives the rest.
    pub(super) fn assemble(
        inputs: impl std::borrow::Borrow<Inputs>,
        paths: Paths,
        mut reuse: Option<&mut Reuse>,
    ) -> (Program, Vec<BuildIssue>) {
        let model = inputs.borrow();
        // Arrays folded while binding are stored as the engines will store theirs.
        let _dense = crate::value::dense_arrays(paths.dense);
        let scope = Scope::new(model.sheets.to_vec(), model.names.clone()).with_tables(model.tables.clone());
        let mut found = Found {
            used: vec![false; model.names.len()],
            fold_left: MAX_FOLD_CELLS,
            bind_memo: paths.bind_memo,
            ..Found::default()
        };
        // Room for every formula cell at once: their vector grown by
        // doubling held up to twice their size (16 MB at 100,000 cells).
        let formulas = model.cells.values().filter(|c| !matches!(c, CellInput::Constant(_))).count();
        let mut cells = Vec::with_capacity(formulas);
        let mut constants = Vec::with_capacity(model.cells.len() - formulas);
        // Each block array formula is bound once; its cells share the binding.
        let mut blocks: IndexMap<Area, FormulaCell> = IndexMap::new();
        let mut known = Known::default();
        for (&addr, input) in &model.cells {
            if let Some(r) = reuse.as_deref_mut()
                && let Some((cell, reads, held)) = r.cell(addr, input)
            {
                found.nodes += held;
                known.insert(addr, reads);
                cells.push(cell);
                continue;
            }
            match input {
                CellInput::Constant(v) => constants.push((addr, v.clone())),
                CellInput::Formula { origin, .. } if found.over => cells.push(Found::unbound(addr, *origin)),
                CellInput::Formula { expr, anchor, origin } => {
                    let mut binder = found.binder(&scope, addr);
                    let bound = binder.bind_formula_kept(expr, *anchor);
                    found.count(&mut binder, &bound, Site::Formula, &expr.span);
                    cells.push(found.cell(binder, bound, addr, *origin));
                }
                CellInput::Dynamic { origin, .. } if found.over => cells.push(Found::unbound(addr, *origin)),
                CellInput::Dynamic { expr, origin } => {
                    let mut binder = found.binder(&scope, addr);
                    let bound = binder.bind_block_kept(expr, Area::cell(addr));
                    found.count(&mut binder, &bound, Site::Formula, &expr.span);
                    let cell = found.cell(binder, bound, addr, *origin);
                    cells.push(FormulaCell { spills: true, ..cell });
                }
                CellInput::Array { expr, block, origin } => {
                    let id = match blocks.get_index_of(block) {
                        Some(id) => id,
                        None if let Some((cell, held)) =
                            reuse.as_deref_mut().and_then(|r| r.block(*block, *origin)) =>
                        {
                            found.nodes += held;
                            blocks.insert(*block, cell);
                            blocks.len() - 1
                        }
                        None if found.over => {
                            blocks.insert(*block, Found::unbound(block.top_left(), *origin));
                            blocks.len() - 1
                        }
                        None => {
                            let mut binder = found.binder(&scope, block.top_left());
                            let bound = binder.bind_block_kept(expr, *block);
                            found.count(&mut binder, &bound, Site::Formula, &expr.span);
                            blocks.insert(*block, found.cell(binder, bound, block.top_left(), *origin));
                            blocks.len() - 1
                        }
                    };
                    // Its dependencies are its block's, taken with every cell's.
                    let cell = FormulaCell::new(addr, blocks[id].origin, BExpr::Const(Value::Empty));
                    cells.push(FormulaCell { block: Some(BlockId::at(id)), ..cell });
                }
            }
        }
        // Names no cell uses are checked too, from their anchors.
        for (i, n) in model.names.iter().enumerate() {
            // After an edit, the names it left as they were were checked before.
            if found.used[i] || found.over || reuse.as_deref().is_some_and(|r| !r.name_changed(i)) {
                continue;
            }
            let mut binder = found.binder(&scope, n.anchor);
            let bound = binder.bind_name(NameId::at(i));
            found.count(&mut binder, &bound, Site::Name(NameId::at(i)), &n.expr.span);
            found.issues_of(binder, n.anchor, None);
        }
        let (sheets, sources) = (model.sheets.len(), Sources::of(model));
        drop(inputs);
        cells.sort_by_key(|c| c.addr);
        let (blocks, mut block_formulas): (Vec<Area>, Vec<BExpr>) =
            blocks.into_iter().map(|(area, cell)| (area, cell.expr)).unzip();
        let (graph, schedule, volatile, block_deps, interned) =
            derive(&mut cells, &block_formulas, sheets, paths.sharing, &known);
        let shared = if paths.sharing {
            share(interned, &mut cells, &mut block_formulas, &block_deps, sheets, paths.counts, &graph)
        } else {
            // The kept parts stay where they are: the evaluator reads them
            // in place, each formula evaluating all of its own.
            Shared::default()
        };
        let counts = match paths.counts {
            true => Counts::of(&shared, &cells, &block_formulas, graph.areas()),
            false => Counts::default(),
        };
        let kernels = Kernels::new(
            cells.iter().map(|c| (paths.kernels && c.block.is_none() && !c.spills).then_some((&c.expr, c.addr))),
        );
        let tracked = Tracked::new(&graph, &shared);
        let program = Program {
            scope,
            cells,
            constants,
            blocks,
            block_formulas,
            volatile,
            graph,
            schedule,
            shared,
            counts,
            kernels,
            tracked,
            paths,
            nodes: found.nodes,
            subtotals: Subtotals::default(),
            sources,
            spilling: 0,
        };
        let program = Program { spilling: program.cells.iter().filter(|c| c.spills).count(), ..program };
        (program, found.issues)
    }

    /// The nodes `e` (one of this program's formulas) holds with its
    /// shared subformulas in place, as binding counted them.
    pub(super) fn held_in_place(&self, e: &BExpr) -> usize {
        fn walk(p: &Program, e: &BExpr, memo: &mut HashMap<usize, usize>) -> usize {
            match e {
                BExpr::Shared(id) => {
                    if let Some(&n) = memo.get(&id.index()) {
                        return n;
                    }
                    let n = walk(p, &p.shared.exprs[id.index()], memo);
                    memo.insert(id.index(), n);
                    n
                }
                BExpr::Kept(x) => walk(p, x, memo),
                BExpr::Const(_) | BExpr::Local(_) => 1,
                BExpr::Unary(_, x) | BExpr::ArrayMode(x) => 1 + walk(p, x, memo),
                BExpr::Binary(_, lr) => 1 + walk(p, &lr[0], memo) + walk(p, &lr[1], memo),
                BExpr::Call(_, args) => 1 + args.iter().map(|a| walk(p, a, memo)).sum::<usize>(),
            }
        }
        walk(self, e, &mut HashMap::new())
    }

    /// A copy sharing no reference-counted value with this one, for
    /// another thread: constants shared between threads would make every
    /// evaluation bump one counter from two cores.
    pub fn detached(&self) -> Program {
        let mut p = self.clone();
        for c in &mut p.cells {
            c.expr = c.expr.detached();
        }
        p.block_formulas.iter_mut().for_each(|e| *e = e.detached());
        p.shared.exprs.iter_mut().for_each(|e| *e = e.detached());
        p.constants.iter_mut().for_each(|(_, v)| *v = v.detached());
        p.kernels = self.kernels.detached();
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
        self.cells.binary_search_by_key(&c, |f| f.addr).ok().map(FormulaId::at)
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

    /// The subformulas several formulas share, by `SharedId` (see `engine::share`).
    pub fn shared(&self) -> &[BExpr] {
        &self.shared.exprs
    }

    /// How many formula cells have a kernel, the flat fast path for
    /// scalar formulas (see `eval::kernel`).
    pub fn kernel_count(&self) -> usize {
        self.kernels.count()
    }

    /// How many distinct kernels those cells share (the cells of one shape,
    /// compiled one after another, share one: see `eval::kernel`).
    pub fn kernel_shapes(&self) -> usize {
        self.kernels.distinct()
    }

    /// The area of a block array formula.
    pub fn block(&self, b: BlockId) -> Area {
        self.blocks[b.index()]
    }

    /// The bound formula of cell `f`: its own, or its block's.
    pub fn formula(&self, f: FormulaId) -> &BExpr {
        let cell = &self.cells[f.index()];
        match cell.block {
            Some(at) => &self.block_formulas[at.index()],
            None => &cell.expr,
        }
    }

    /// One formula cell.
    pub fn cell(&self, f: FormulaId) -> &FormulaCell {
        &self.cells[f.index()]
    }

    /// The formula cells of every cycle, in calculation order.
    pub fn cycles(&self) -> impl Iterator<Item = &[FormulaId]> {
        self.schedule.iter().filter_map(|s| match s {
            Stage::Cycle(c) => Some(c.as_slice()),
            Stage::Run { .. } => None,
        })
    }

    /// `Main!D4` style text of a cell (see [`crate::sheets::Sheets::cell`]).
    pub fn cell_name(&self, c: CellAddr) -> String {
        self.scope.sheets.cell(c)
    }
}
