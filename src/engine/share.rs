//! Shared subformulas. Once every formula is bound, identical subformulas
//! are found across all of them by hash-consing (each distinct subtree gets
//! one id, from its operator and its children's ids), and a subformula used
//! more than once becomes one [`BExpr::Shared`] node: evaluated once, its
//! value held by the engine and reused by every formula that uses it until a
//! cell it reads changes. In the Ellis workbook the 729 valid-values cells
//! count a digit in a row, column or box 2,187 times, but only 243 of these
//! counts differ.
//!
//! A subformula is shared only where its value cannot depend on who reads
//! it. Under a name (`BExpr::ArrayMode`) it is evaluated as an array, so
//! it never reads a reference by implicit intersection with the
//! calculating cell; elsewhere only operators over one-cell references,
//! constants and names are shared (`state="reset"`), and only over operands
//! that cannot give a reference of several cells (a name may: `INDEX(..):A1`),
//! which the operator would read by implicit intersection. In both, with no LET
//! variable, no volatile function, no reference computed at run time
//! (OFFSET's base, INDIRECT's text), no call without arguments (ROW()
//! left unfolded reads the calculating cell) and no SINGLE (`@`, which
//! intersects a reference with the calculating cell in either mode). A child is shared apart from
//! its shared parent only when it is used more often than the parent, or
//! when it is a count by an array of criteria or a COUNTIFS and counts
//! are kept (see `counted` and `ifs`: it is changed in place, its parent
//! computed again from it). Only
//! formulas that use a name are looked at (see `has_name`).
//!
//! The held values stay exact in both iteration orders because the engine
//! forgets a shared value whenever a cell of an area it reads changes
//! (`Engine::mark_readers_of`), exactly when it would mark the formulas
//! reading that area dirty: a formula calculated after a change within the
//! same pass recomputes the shared value from the new values, as
//! evaluating it in place would. For that, the areas a shared subformula
//! reads must be among those of every formula that uses it, which is
//! checked where it is used.
//!
//! The pass has two halves. Interning ([`Interned::new`]) only reads the
//! bound formulas, so `Program::build` runs it on a second thread while
//! the dependencies, the graph and the schedule are derived; rewriting
//! ([`share`]) needs those dependencies, and hands the subformulas it
//! replaces to a second thread to be dropped. Neither thread changes what
//! is found: the shared subformulas, their order and ids are those of one
//! thread.

mod counted;
mod ifs;
mod intern;

use super::cell::FormulaCell;
use super::graph::DepGraph;
use crate::address::Area;
use crate::eval::BExpr;
use crate::eval::deps::{self, Reads};
use crate::eval::touches::bit;
use crate::ids::{AreaId, FormulaId, SharedId};
use ifs::IfsCount;
use intern::{Interner, same};
use rustc_hash::FxHashMap;

pub use counted::{Counts, changes};
pub use ifs::Write;

/// The shared subformulas of a program.
#[derive(Clone, Debug, Default)]
pub struct Shared {
    /// Each shared subformula, by [`SharedId`]; it may use shared
    /// subformulas of larger ids (its parts, shared after it).
    pub exprs: Vec<BExpr>,
    /// For each area formulas read (by [`AreaId`]), the shared subformulas
    /// that read it; empty when nothing is shared.
    readers: Vec<Vec<SharedId>>,
    /// For each shared subformula, the [`bit`]s of the areas it reads
    /// (what an evaluation using it read, see `engine::touched`).
    pub bits: Vec<u64>,
    /// For each, whether it reads only through its own references
    /// (`deps::Reads::narrow`): then what one evaluation read is all its
    /// value depends on.
    pub narrow: Vec<bool>,
}

impl Shared {
    /// The shared subformulas that read area `a`.
    pub fn readers(&self, a: AreaId) -> &[SharedId] {
        self.readers.get(a.index()).map_or(&[], Vec::as_slice)
    }
}

/// Every node of the formulas that use a name (only there can anything be
/// shared, see `has_name`), hash-consed: the first half of the pass, which
/// reads the formulas only, so it can run beside the dependencies and the
/// graph.
#[derive(Default)]
pub struct Interned {
    ids: Interner,
    /// All their nodes in pre-order, ids and subtree sizes, in one buffer.
    walk: Vec<(u32, u32)>,
    /// Where formula k's nodes start in `walk`; none if it uses no name.
    starts: Vec<Option<usize>>,
}

impl Interned {
    /// Interns `formulas`: the formula cells (a block's cell holds a
    /// placeholder, which uses no name), then the block formulas.
    pub fn new<'e>(formulas: impl Iterator<Item = &'e BExpr>) -> Interned {
        let mut ids = Interner::default();
        let mut walk = Vec::new();
        let starts = formulas
            .map(|e| {
                has_name(e).then(|| {
                    let start = walk.len();
                    ids.intern(e, false, &mut walk);
                    start
                })
            })
            .collect();
        Interned { ids, walk, starts }
    }
}

/// Replaces the repeated subformulas of `cells` and of the block formulas
/// `blocks` (reading `block_deps`) with shared nodes, from their nodes
/// `interned` (in that order), in a workbook of `sheets` sheets whose graph
/// is `graph`; with `counts` (kept counts), a count by an array of
/// criteria is shared apart from its parent.
pub fn share(
    interned: Interned,
    cells: &mut [FormulaCell],
    blocks: &mut [BExpr],
    block_deps: &[Vec<Area>],
    sheets: usize,
    counts: bool,
    graph: &DepGraph,
) -> Shared {
    let Interned { ids, walk, starts } = interned;
    // The subformulas replaced by shared nodes are dropped on a second
    // thread, in batches, while the rewriting goes on. Where no thread can
    // be had, the receiver goes with the failed spawn and each batch is
    // dropped where it is sent (the send fails and hands it back).
    let (dropping, batches) = std::sync::mpsc::channel::<Vec<BExpr>>();
    let (exprs, areas, narrow) = std::thread::scope(|scope| {
        let _ = std::thread::Builder::new().spawn_scoped(scope, move || batches.into_iter().for_each(drop));
        let garbage = Vec::new();
        let (exprs, areas, narrow) = (Vec::new(), Vec::new(), Vec::new());
        let mut sharer = Sharer { ids, sheets, counts, exprs, areas, narrow, garbage, dropping };
        let mut starts = starts.into_iter();
        let mut reads = Vec::new();
        for (f, c) in cells.iter_mut().enumerate() {
            if let Some(Some(at)) = starts.next() {
                reads.clear();
                reads.extend(graph.reads_of(FormulaId::at(f)));
                sharer.rewrite(&mut c.expr, 1, &reads, &walk, at);
            }
        }
        for (e, deps) in blocks.iter_mut().zip(block_deps) {
            if let Some(Some(at)) = starts.next() {
                sharer.rewrite(e, 1, deps, &walk, at);
            }
        }
        // The last batch; the sender dropped ends the dropping thread.
        let Sharer { exprs, areas, narrow, garbage, dropping, .. } = sharer;
        let _ = dropping.send(garbage);
        (exprs, areas, narrow)
    });
    drop(walk);
    if exprs.is_empty() {
        return Shared::default();
    }
    let area_ids: FxHashMap<Area, AreaId> =
        graph.areas().iter().enumerate().map(|(i, a)| (*a, AreaId::at(i))).collect();
    let mut readers = vec![Vec::new(); graph.areas().len()];
    for (s, areas) in areas.iter().enumerate() {
        // Every area is one a formula using it reads (checked at each use).
        for id in areas.iter().filter_map(|a| area_ids.get(a)) {
            readers[id.index()].push(SharedId::at(s));
        }
    }
    let bits = areas.iter().map(|list| list.iter().fold(0, |b, a| b | bit(a))).collect();
    Shared { exprs, readers, bits, narrow }
}

/// Whether `e` uses a name (holds an `ArrayMode` node). A formula that does
/// not is left as it is: what it could share (operators over cells) costs
/// little to compute, and leaving it out keeps the pass's memory small on
/// sheets of plain formulas (a 100,000-cell chain).
fn has_name(e: &BExpr) -> bool {
    match e {
        // A kept part is a part of a name's formula.
        BExpr::ArrayMode(_) | BExpr::Kept(_) => true,
        BExpr::Const(_) | BExpr::Local(_) | BExpr::Shared(_) => false,
        BExpr::Unary(_, x) => has_name(x),
        BExpr::Binary(_, lr) => lr.iter().any(has_name),
        BExpr::Call(_, args) => args.iter().any(has_name),
    }
}

struct Sharer {
    ids: Interner,
    sheets: usize,
    /// Whether counts by arrays of criteria are shared apart (kept counts).
    counts: bool,
    exprs: Vec<BExpr>,
    /// The areas each shared subformula reads, by [`SharedId`], and
    /// whether it reads only through them.
    areas: Vec<Vec<Area>>,
    narrow: Vec<bool>,
    /// Subformulas replaced by shared nodes, to be dropped, and where
    /// they go once there are [`GARBAGE_BATCH`].
    garbage: Vec<BExpr>,
    dropping: std::sync::mpsc::Sender<Vec<BExpr>>,
}

/// How many replaced subformulas are sent to be dropped at once.
const GARBAGE_BATCH: usize = 1024;

impl Sharer {
    /// Shares the repeated subformulas of `e`, in place, inside a
    /// subformula used `outer` times, in a formula (or shared subformula)
    /// that reads `reads` (sorted); `e`'s nodes are `walk` from `at` (see
    /// `intern`).
    fn rewrite(&mut self, e: &mut BExpr, outer: u32, reads: &[Area], walk: &[(u32, u32)], at: usize) {
        let id = walk[at].0 as usize;
        let node = &self.ids.nodes[id];
        let apart = node.count > outer || (self.counts && (counted::is_array_count(e) || IfsCount::is_one(e)));
        if node.shareable && !node.trivial && node.count >= 2 && apart {
            let shared = match node.shared {
                Some(s) => Some(s),
                None => self.make_shared(e, id, reads, walk, at),
            };
            if let Some(s) = shared
                && self.areas[s.index()].iter().all(|a| reads.binary_search(a).is_ok())
            {
                let replaced = std::mem::replace(e, BExpr::Shared(s));
                self.garbage.push(replaced);
                if self.garbage.len() == GARBAGE_BATCH {
                    // The other end is dropped only after the rewriting.
                    let _ = self.dropping.send(std::mem::take(&mut self.garbage));
                }
                return;
            }
        }
        self.rewrite_children(e, outer, reads, walk, at);
    }

    /// Shares the repeated subformulas of `e`'s children (`e` is at `at`
    /// in `walk`).
    fn rewrite_children(&mut self, e: &mut BExpr, outer: u32, reads: &[Area], walk: &[(u32, u32)], at: usize) {
        // The first child's nodes follow `e`'s; each next child's follow those.
        let mut next = at + 1;
        // A kept part (`walk` has no node of its own for it) is copied in
        // place, one level: its children are copied as they are visited.
        if let BExpr::Kept(x) = e {
            let inner = BExpr::clone(x);
            *e = inner;
        }
        let mut child = |sharer: &mut Sharer, x: &mut BExpr| {
            let here = next;
            next += walk[here].1 as usize;
            sharer.rewrite(x, outer, reads, walk, here);
        };
        match e {
            BExpr::Const(_) | BExpr::Local(_) | BExpr::Shared(_) | BExpr::Kept(_) => {}
            BExpr::Unary(_, x) | BExpr::ArrayMode(x) => child(self, x),
            BExpr::Binary(_, lr) => lr.iter_mut().for_each(|a| child(self, a)),
            BExpr::Call(_, args) => args.iter_mut().for_each(|a| child(self, a)),
        }
    }

    /// Makes subformula `e` (node `id`, at `at` in `walk`) shared, unless
    /// what it reads is decided at run time. Where its formula reads
    /// `reads` it is taken from there (`e` is then replaced), elsewhere copied.
    fn make_shared(
        &mut self,
        e: &mut BExpr,
        id: usize,
        reads: &[Area],
        walk: &[(u32, u32)],
        at: usize,
    ) -> Option<SharedId> {
        let Reads { areas, reachable, narrow, .. } = deps::reads(e, self.sheets);
        if !reachable.is_empty() {
            self.ids.nodes[id].shareable = false;
            return None;
        }
        // Its id is taken before its parts, which may be shared in turn.
        let s = SharedId::at(self.exprs.len());
        let mut inner = match areas.iter().all(|a| reads.binary_search(a).is_ok()) {
            true => std::mem::replace(e, BExpr::Shared(s)),
            false => e.clone(),
        };
        self.exprs.push(BExpr::Shared(s));
        self.areas.push(areas.clone());
        self.narrow.push(narrow);
        self.ids.nodes[id].shared = Some(s);
        // Its parts used more often than itself are shared in turn.
        let count = self.ids.nodes[id].count;
        self.rewrite_children(&mut inner, count, &areas, walk, at);
        self.exprs[s.index()] = inner;
        Some(s)
    }
}

/// Whether formula `a` of a program whose shared subformulas are `sa` reads
/// and computes the same as formula `b` of one whose are `sb`.
pub fn same_formula(a: &BExpr, sa: &[BExpr], b: &BExpr, sb: &[BExpr]) -> bool {
    let same_all =
        |x: &[BExpr], y: &[BExpr]| x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_formula(x, sa, y, sb));
    match (a, b) {
        (BExpr::Kept(x), y) => same_formula(x, sa, y, sb),
        (x, BExpr::Kept(y)) => same_formula(x, sa, y, sb),
        (BExpr::Shared(x), y) => same_formula(&sa[x.index()], sa, y, sb),
        (x, BExpr::Shared(y)) => same_formula(x, sa, &sb[y.index()], sb),
        (BExpr::Unary(o, x), BExpr::Unary(p, y)) => o == p && same_formula(x, sa, y, sb),
        (BExpr::Binary(o, x), BExpr::Binary(p, y)) => {
            o == p && same_formula(&x[0], sa, &y[0], sb) && same_formula(&x[1], sa, &y[1], sb)
        }
        (BExpr::Call(f, x), BExpr::Call(g, y)) => f.name == g.name && same_all(x, y),
        (BExpr::ArrayMode(x), BExpr::ArrayMode(y)) => same_formula(x, sa, y, sb),
        (BExpr::Const(x), BExpr::Const(y)) => same(x, y),
        (BExpr::Local(x), BExpr::Local(y)) => x == y,
        _ => false,
    }
}
