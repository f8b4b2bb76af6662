//! A small edit applied in place: the program and the engine changed where
//! the edit touched them, nothing rebuilt. It applies when the edit keeps
//! the set of formula cells (formulas replaced by formulas, constants by
//! constants or blanks), binds again at most [`PATCH_CELLS`] cells, touches
//! no array block and no formula with run-time references (OFFSET,
//! INDIRECT); otherwise the caller rebuilds the program
//! (`Program::rebuild`). The cells bound again get plain trees (they share
//! nothing; every other formula keeps its shared subformulas), their
//! kernels are compiled again, the graph follows their new reads
//! ([`DepGraph::update`](super::graph::DepGraph::update)) and the schedule
//! is derived again, so a cycle made or broken is found. What was replaced
//! is returned ([`Unpatch`]), so the edit is undone in place too: the
//! formulas, names and changed values as they were, and what they feed
//! calculated again.

use super::dirty::Tracked;
use super::share::Counts;
use super::sources::Sources;
use super::{BuildIssue, CellInput, Engine, Inputs, Program};
use crate::address::{Area, CellAddr};
use crate::eval::BExpr;
use crate::eval::bind::{Binder, Issue, MAX_TOTAL_BIND_WORK, MAX_TOTAL_BOUND_NODES, Scope, Site};
use crate::eval::deps::{KeptReads, Reads, reads_kept};
use crate::ids::{EntryId, FormulaId, NameId};
use crate::value::Value;
use rustc_hash::FxHashSet;
use std::collections::HashSet;
use std::sync::Arc;

/// The most formula cells an edit binds again in place; an edit binding
/// more (a name many formulas use) rebuilds the program, which shares
/// their repeated subformulas again.
pub const PATCH_CELLS: usize = 256;

/// A formula cell's binding with what it reads (a program's formula in
/// shared form reads what its shared parts read too, which a walk of the
/// tree alone would not find: so the reads travel with the tree).
struct Bound {
    f: FormulaId,
    expr: BExpr,
    deps: Box<[Area]>,
    /// Whether it reads at run time past its areas (whole sheets).
    reaches: bool,
    volatile: bool,
    narrow: bool,
}

impl Bound {
    /// A plain tree (no shared part) bound for formula `f`, with its reads.
    fn plain(f: FormulaId, expr: BExpr, sheets: usize) -> Bound {
        let Reads { areas: deps, reachable, volatile, narrow } = reads_kept(&expr, sheets, &mut KeptReads::default());
        Bound { f, expr, deps: deps.into(), reaches: !reachable.is_empty(), volatile, narrow }
    }
}

/// What a patch replaced, to put back ([`Engine::unpatch`]); putting it
/// back returns what undoes that in turn.
pub struct Unpatch {
    trees: Vec<Bound>,
    scope: Option<Scope>,
    origins: Vec<EntryId>,
    sources: Sources,
    constants: Vec<(CellAddr, Value)>,
    nodes: usize,
    /// The values of the cells the edit changed, and the formulas dirty,
    /// before it.
    values: Vec<(CellAddr, Value)>,
    dirty: Vec<FormulaId>,
}

impl Unpatch {
    /// How many formula cells the patch bound again.
    pub fn rebound(&self) -> usize {
        self.trees.len()
    }
}

impl Engine {
    /// Applies an edit in place (see the module's text): `model` is the
    /// edited workbook's inputs, `changed` the cells whose content changed,
    /// `rebind` the formula cells to bind again, `names` the names (by
    /// index in `model`) the edit defined or changed. None when the edit
    /// does not apply in place (nothing changed); the problems when a
    /// formula or name does not bind (nothing changed either).
    pub fn patch(
        &mut self,
        model: &Inputs,
        changed: &FxHashSet<CellAddr>,
        rebind: &FxHashSet<CellAddr>,
        names: &FxHashSet<usize>,
    ) -> Option<Result<Unpatch, Vec<BuildIssue>>> {
        let p = &self.program;
        // A workbook with dynamic-array formulas is rebuilt: an edit can
        // move what they spill over (`Engine::rebuild` calculates them again).
        if rebind.len() > PATCH_CELLS || !p.graph.updatable() || p.spilling > 0 {
            return None;
        }
        // The same formula cells, none of them in a block.
        let formula = |c: &CellAddr| match model.cells.get(c) {
            Some(CellInput::Formula { .. }) => Some(true),
            Some(CellInput::Array { .. } | CellInput::Dynamic { .. }) => None,
            Some(CellInput::Constant(_)) | None => Some(false),
        };
        for c in changed.iter().chain(rebind) {
            let old = p.formula_at(*c).map(|f| p.cell(f).block.is_none());
            if old == Some(false) || formula(c)? != old.is_some() {
                return None;
            }
        }
        let scope = (!names.is_empty())
            .then(|| Scope::new(model.sheets.to_vec(), model.names.clone()).with_tables(model.tables.clone()));
        let bound = match bind(p, model, scope.as_ref().unwrap_or(&p.scope), rebind, names) {
            Ok(b) => b,
            Err(issues) => return Some(Err(issues)),
        };
        let (trees, nodes) = bound?;
        let origins = (p.cells.iter().map(|c| origin(model, c.addr, c.origin)).collect(), Sources::of(model));
        let constants = model
            .cells
            .iter()
            .filter_map(|(a, i)| match i {
                CellInput::Constant(v) => Some((*a, v.clone())),
                _ => None,
            })
            .collect();
        // A cell past the grid's limit: the rebuild reports it.
        if !changed.iter().all(|&c| self.grid.reserve(c)) {
            return None;
        }
        let values: Vec<(CellAddr, Value)> = changed.iter().map(|&c| (c, self.grid.get(c).clone())).collect();
        let dirty = self.dirty_list();
        let rebound: Vec<FormulaId> = trees.iter().map(|b| b.f).collect();
        let mut undo = self.swap_in(trees, scope, origins, constants, nodes);
        (undo.values, undo.dirty) = (values, dirty);
        // The new values: a constant, a blank, or (a formula) the value it had.
        for (c, _) in &undo.values {
            let new = match model.cells.get(c) {
                Some(CellInput::Constant(v)) => v.clone(),
                Some(_) => self.grid.get(*c).clone(),
                None => Value::Empty,
            };
            if let Ok((old, _)) = self.grid.update(*c, new) {
                self.mark_readers(*c, Some(&old));
            }
        }
        rebound.iter().for_each(|f| self.dirty[f.index()] = true);
        Some(Ok(undo))
    }

    /// Puts back what a patch replaced: formulas, names, the changed
    /// cells' values and the dirty formulas as they were before it, the
    /// formulas put back dirty too; so, right after the patch (or after
    /// undoing in order what was done since), the engine before it, which
    /// recalculates to the same values. A changed cell whose value moved on
    /// since marks its readers. Returns what redoes the patch.
    pub fn unpatch(&mut self, u: Unpatch) -> Unpatch {
        let Unpatch { trees, scope, origins, sources, constants, nodes, values, dirty } = u;
        let now: Vec<(CellAddr, Value)> = values.iter().map(|(c, _)| (*c, self.grid.get(*c).clone())).collect();
        let mut redo = self.swap_in(trees, scope, (origins, sources), constants, nodes);
        (redo.values, redo.dirty) = (now, self.dirty_list());
        self.dirty.iter_mut().for_each(|d| *d = false);
        self.tall_marks = super::tall::Marks::new(self.program.tracked.skippable.len());
        dirty.iter().for_each(|f| self.dirty[f.index()] = true);
        // The formulas put back are calculated again: what they read may
        // have moved on since the patch (right after it, they give the
        // values they had).
        redo.trees.iter().for_each(|b| self.dirty[b.f.index()] = true);
        // Written without marking: no shared value is kept.
        self.shared.iter_mut().for_each(|v| *v = None);
        for (c, v) in values {
            if let Ok((old, _)) = self.grid.update(c, v) {
                self.mark_readers(c, Some(&old));
            }
        }
        redo
    }

    /// Puts `trees` (and `scope`, when given) into the program in place,
    /// with the graph, schedule, kernels and dirty tracking that follow;
    /// returns what they replaced.
    fn swap_in(
        &mut self,
        trees: Vec<Bound>,
        scope: Option<Scope>,
        (origins, sources): (Vec<EntryId>, Sources),
        constants: Vec<(CellAddr, Value)>,
        nodes: usize,
    ) -> Unpatch {
        let p = Arc::make_mut(&mut self.program);
        let scope = scope.map(|s| std::mem::replace(&mut p.scope, s));
        let mut old = Vec::with_capacity(trees.len());
        let mut now = Vec::with_capacity(trees.len());
        for Bound { f, expr, deps, reaches, volatile, narrow } in trees {
            let cell = &mut p.cells[f.index()];
            let kernel = p.paths.kernels.then_some(&expr);
            p.kernels.update(f.index(), kernel, cell.addr);
            let was_volatile = p.volatile.binary_search(&f).is_ok();
            // No formula reads at run time while the graph follows edits in place.
            debug_assert!(!reaches);
            now.push((f, deps));
            old.push(Bound {
                f,
                expr: std::mem::replace(&mut cell.expr, expr),
                deps: p.graph.reads_of(f).collect(),
                reaches: false,
                volatile: was_volatile,
                narrow: std::mem::replace(&mut cell.narrow, narrow),
            });
            match (p.volatile.binary_search(&f), volatile) {
                (Err(at), true) => p.volatile.insert(at, f),
                (Ok(at), false) => {
                    p.volatile.remove(at);
                }
                _ => {}
            }
        }
        // Which cells call SUBTOTAL or AGGREGATE is found again when asked.
        p.subtotals = Default::default();
        // The formulas using each kept count changed with the trees (what
        // each formula read is forgotten below, so none relies on the old).
        if !p.counts.is_empty() {
            p.counts = Counts::of(&p.shared, &p.cells, &p.block_formulas, p.graph.areas());
        }
        let origins = p.cells.iter_mut().zip(origins).map(|(c, o)| std::mem::replace(&mut c.origin, o)).collect();
        let sources = std::mem::replace(&mut p.sources, sources);
        let constants = std::mem::replace(&mut p.constants, constants);
        let nodes = std::mem::replace(&mut p.nodes, nodes);
        // The graph and schedule change only where a formula reads anew.
        let moved: Vec<(FormulaId, &[Area])> = old
            .iter()
            .zip(&now)
            .filter(|(before, (_, now))| {
                let key = |a: &Area| (a.sheet, a.r0, a.c0, a.r1, a.c1);
                let mut before = before.deps.to_vec();
                let mut now = now.to_vec();
                before.sort_unstable_by_key(key);
                now.sort_unstable_by_key(key);
                now.dedup();
                before != now
            })
            .map(|(_, (f, now))| (*f, &now[..]))
            .collect();
        if !moved.is_empty() {
            p.graph.update(&p.cells, &moved);
            p.schedule = p.graph.schedule();
            p.tracked = Tracked::new(&p.graph, &p.shared);
        }
        self.readers_dirty = p.tracked.start();
        // What each formula last read is told by position in its reads, which moved.
        self.touched.forget();
        // The graph may have gained segments: nothing known of any.
        self.tall_marks = super::tall::Marks::new(p.tracked.skippable.len());
        self.blocks.iter_mut().for_each(|b| *b = None);
        self.watch.clear();
        Unpatch { trees: old, scope, origins, sources, constants, nodes, values: Vec::new(), dirty: Vec::new() }
    }
}

/// A formula cell's origin in `model`, or `old` when it is not there.
fn origin(model: &Inputs, c: CellAddr, old: EntryId) -> EntryId {
    match model.cells.get(&c) {
        Some(
            CellInput::Formula { origin, .. } | CellInput::Array { origin, .. } | CellInput::Dynamic { origin, .. },
        ) => *origin,
        _ => old,
    }
}

/// The cells `rebind` bound from `model` with `scope` (plain trees, in
/// calculation order) and the program's node count after the patch, the
/// names `names` checked from their anchors; the problems when any does
/// not bind. None when a formula would read at run time (OFFSET with
/// computed arguments, INDIRECT): the graph cannot follow it in place.
#[allow(clippy::type_complexity)]
fn bind(
    p: &Program,
    model: &Inputs,
    scope: &Scope,
    rebind: &FxHashSet<CellAddr>,
    names: &FxHashSet<usize>,
) -> Result<Option<(Vec<Bound>, usize)>, Vec<BuildIssue>> {
    let mut cells: Vec<(FormulaId, CellAddr)> = rebind.iter().filter_map(|c| Some((p.formula_at(*c)?, *c))).collect();
    cells.sort_unstable();
    let (mut issues, mut seen) = (Vec::new(), HashSet::new());
    let mut report = |binder: Binder, cell: CellAddr, origin: Option<EntryId>| {
        for issue in binder.issues {
            let key = match issue.site {
                Site::Name(_) => (None, issue.clone()),
                Site::Formula => (origin, issue.clone()),
            };
            if seen.insert(key) {
                issues.push(BuildIssue { cell, origin, issue });
            }
        }
    };
    let (mut trees, mut work) = (Vec::with_capacity(cells.len()), 0);
    let mut nodes = p.nodes;
    for (f, c) in cells {
        let Some(CellInput::Formula { expr, anchor, origin }) = model.cells.get(&c) else { continue };
        let mut binder = Binder::new(scope, c);
        let tree = binder.bind_formula(expr, *anchor);
        work += binder.nodes();
        nodes = (nodes + super::program::held(&tree)).saturating_sub(p.held_in_place(p.formula(f)));
        if work > MAX_TOTAL_BIND_WORK || nodes > MAX_TOTAL_BOUND_NODES {
            let message = format!(
                "the edit binds {work} nodes and the workbook's formulas hold {nodes}: more than \
                 {MAX_TOTAL_BIND_WORK} and {MAX_TOTAL_BOUND_NODES} in all"
            );
            binder.issues.push(Issue { site: Site::Formula, span: expr.span.clone(), message });
        }
        report(binder, c, Some(*origin));
        trees.push(Bound::plain(f, tree, p.scope.sheets.len()));
    }
    for &i in names {
        let Some(n) = model.names.get(i) else { continue };
        let mut binder = Binder::new(scope, n.anchor);
        binder.bind_name(NameId::at(i));
        report(binder, n.anchor, None);
    }
    if !issues.is_empty() {
        return Err(issues);
    }
    let reads_at_run_time = trees.iter().any(|b| b.reaches);
    Ok((!reads_at_run_time).then_some((trees, nodes)))
}
