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
//! (OFFSET's base, INDIRECT's text) and no call without arguments (ROW()
//! left unfolded reads the calculating cell). A child is shared apart from
//! its shared parent only when it is used more often than the parent. Only
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

use super::graph::DepGraph;
use super::program::FormulaCell;
use crate::address::Area;
use crate::ast::{BinaryOp, UnaryOp};
use crate::eval::BExpr;
use crate::eval::deps::dependencies;
use crate::functions::Arg;
use crate::ids::{AreaId, SharedId};
use crate::value::Value;
use rustc_hash::FxHashMap;
use std::hash::{Hash, Hasher};

/// The shared subformulas of a program.
#[derive(Clone, Debug, Default)]
pub struct Shared {
    /// Each shared subformula, by [`SharedId`]; it may use shared
    /// subformulas of larger ids (its parts, shared after it).
    pub exprs: Vec<BExpr>,
    /// For each area formulas read (by [`AreaId`]), the shared subformulas
    /// that read it; empty when nothing is shared.
    readers: Vec<Vec<SharedId>>,
}

impl Shared {
    /// The shared subformulas that read area `a`.
    pub fn readers(&self, a: AreaId) -> &[SharedId] {
        self.readers.get(a.index()).map_or(&[], Vec::as_slice)
    }
}

/// Replaces the repeated subformulas of `cells` and of the block formulas
/// `blocks` (reading `block_deps`) with shared nodes, in a workbook of
/// `sheets` sheets whose graph is `graph`.
pub fn share(
    cells: &mut [FormulaCell],
    blocks: &mut [BExpr],
    block_deps: &[Vec<Area>],
    sheets: usize,
    graph: &DepGraph,
) -> Shared {
    let mut ids = Interner::default();
    // The formulas that use a name (only there can anything be shared, see
    // `has_name`), and all their nodes in pre-order, ids and subtree sizes,
    // in one buffer: formula k's from `starts[k]`.
    let formulas = cells.iter().filter(|c| c.block.is_none()).map(|c| &c.expr).chain(blocks.iter());
    let mut walk = Vec::new();
    let starts: Vec<Option<usize>> = formulas
        .map(|e| {
            has_name(e).then(|| {
                let start = walk.len();
                ids.intern(e, false, &mut walk);
                start
            })
        })
        .collect();
    let mut sharer = Sharer { ids, sheets, exprs: Vec::new(), areas: Vec::new() };
    let mut starts = starts.into_iter();
    for c in cells.iter_mut().filter(|c| c.block.is_none()) {
        if let Some(Some(at)) = starts.next() {
            sharer.rewrite(&mut c.expr, 1, &c.deps, &walk, at);
        }
    }
    for (e, deps) in blocks.iter_mut().zip(block_deps) {
        if let Some(Some(at)) = starts.next() {
            sharer.rewrite(e, 1, deps, &walk, at);
        }
    }
    drop(walk);
    if sharer.exprs.is_empty() {
        return Shared::default();
    }
    let area_ids: FxHashMap<Area, AreaId> =
        graph.areas().iter().enumerate().map(|(i, a)| (*a, AreaId::at(i))).collect();
    let mut readers = vec![Vec::new(); graph.areas().len()];
    for (s, areas) in sharer.areas.iter().enumerate() {
        // Every area is one a formula using it reads (checked at each use).
        for id in areas.iter().filter_map(|a| area_ids.get(a)) {
            readers[id.index()].push(SharedId::at(s));
        }
    }
    Shared { exprs: sharer.exprs, readers }
}

/// Whether `e` uses a name (holds an `ArrayMode` node). A formula that does
/// not is left as it is: what it could share (operators over cells) costs
/// little to compute, and leaving it out keeps the pass's memory small on
/// sheets of plain formulas (a 100,000-cell chain).
fn has_name(e: &BExpr) -> bool {
    match e {
        BExpr::ArrayMode(_) => true,
        BExpr::Const(_) | BExpr::Local(_) | BExpr::Shared(_) => false,
        BExpr::Unary(_, x) => has_name(x),
        BExpr::Binary(_, l, r) => has_name(l) || has_name(r),
        BExpr::Call(_, args) => args.iter().any(has_name),
    }
}

/// A subformula without its children: its operator and its children's ids.
#[derive(PartialEq, Eq, Hash)]
enum Key {
    Const(ConstKey),
    Unary(UnaryOp, u32),
    Binary(BinaryOp, u32, u32),
    Call(&'static str, Box<[u32]>),
    Local(usize),
    ArrayMode(u32),
    Shared(u32),
}

/// What is known of one distinct subformula.
struct Node {
    /// How many times it occurs in all the formulas.
    count: u32,
    /// Whether its value depends on nothing but the cells it reads.
    shareable: bool,
    /// Whether evaluating it costs no more than finding a held value.
    trivial: bool,
    /// Whether its value may be a reference of several cells.
    reference: bool,
    shared: Option<SharedId>,
}

#[derive(Default)]
struct Interner {
    /// Each distinct subformula, and whether it is evaluated in array mode.
    ids: FxHashMap<(Key, bool), u32>,
    nodes: Vec<Node>,
}

impl Interner {
    /// The id of `e` evaluated in array mode or not (`array`), counting
    /// this occurrence; pushes the id and size of each node of `e` onto
    /// `walk`, in pre-order.
    fn intern(&mut self, e: &BExpr, array: bool, walk: &mut Vec<(u32, u32)>) -> u32 {
        let at = walk.len();
        walk.push((0, 0));
        // Outside array mode an operator reads an operand of several cells
        // by implicit intersection with the calculating cell: it is shared
        // only over operands that cannot give such a reference.
        let plain = |nodes: &[Node], id: u32| {
            let n = &nodes[id as usize];
            n.shareable && (array || !n.reference)
        };
        let (key, shareable, trivial, reference) = match e {
            BExpr::Const(v) => {
                let one_cell = !matches!(v, Value::Ref(a) if !a.is_cell()) && v.ref_array().is_none();
                (Key::Const(ConstKey(v.clone())), true, true, !one_cell)
            }
            BExpr::Local(slot) => (Key::Local(*slot), false, true, true),
            BExpr::Shared(s) => (Key::Shared(s.0), false, true, true),
            BExpr::Unary(op, x) => {
                let x = self.intern(x, array, walk);
                (Key::Unary(*op, x), plain(&self.nodes, x), false, false)
            }
            BExpr::Binary(op, l, r) => {
                let (l, r) = (self.intern(l, array, walk), self.intern(r, array, walk));
                let reference = matches!(op, BinaryOp::Range | BinaryOp::Intersect | BinaryOp::Union);
                let shareable = (array || !reference) && plain(&self.nodes, l) && plain(&self.nodes, r);
                (Key::Binary(*op, l, r), shareable, false, reference)
            }
            // A name's value is the same in either mode, but it may be a
            // reference of several cells (`INDEX(..):A1`), which an
            // operator around it outside array mode intersects.
            BExpr::ArrayMode(x) => {
                let trivial = matches!(&**x, BExpr::Const(Value::Ref(a)) if a.is_cell())
                    || matches!(&**x, BExpr::Const(v) if !matches!(v, Value::Ref(_)));
                let x = self.intern(x, true, walk);
                let inner = &self.nodes[x as usize];
                (Key::ArrayMode(x), inner.shareable, trivial, inner.reference)
            }
            // Outside array mode a function may read a reference argument
            // by implicit intersection: only calls in array mode are shared.
            BExpr::Call(f, args) => {
                let ids: Box<[u32]> = args.iter().map(|a| self.intern(a, array, walk)).collect();
                let computed = (0..args.len()).any(|i| matches!(f.arg(i), Arg::Reachable | Arg::Address));
                let shareable = array
                    && !f.volatile
                    && !args.is_empty()
                    && !computed
                    && ids.iter().all(|&i| self.nodes[i as usize].shareable);
                (Key::Call(f.name, ids), shareable, false, f.returns_ref)
            }
        };
        let nodes = &mut self.nodes;
        let id = *self.ids.entry((key, array)).or_insert_with(|| {
            nodes.push(Node { count: 0, shareable, trivial, reference, shared: None });
            (nodes.len() - 1) as u32
        });
        self.nodes[id as usize].count += 1;
        walk[at] = (id, (walk.len() - at) as u32);
        id
    }
}

struct Sharer {
    ids: Interner,
    sheets: usize,
    exprs: Vec<BExpr>,
    /// The areas each shared subformula reads, by [`SharedId`].
    areas: Vec<Vec<Area>>,
}

impl Sharer {
    /// Shares the repeated subformulas of `e`, in place, inside a
    /// subformula used `outer` times, in a formula (or shared subformula)
    /// that reads `reads` (sorted); `e`'s nodes are `walk` from `at` (see
    /// `intern`).
    fn rewrite(&mut self, e: &mut BExpr, outer: u32, reads: &[Area], walk: &[(u32, u32)], at: usize) {
        let id = walk[at].0 as usize;
        let node = &self.ids.nodes[id];
        if node.shareable && !node.trivial && node.count >= 2 && node.count > outer {
            let shared = match node.shared {
                Some(s) => Some(s),
                None => self.make_shared(e, id, reads, walk, at),
            };
            if let Some(s) = shared
                && self.areas[s.index()].iter().all(|a| reads.binary_search(a).is_ok())
            {
                *e = BExpr::Shared(s);
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
        let mut child = |sharer: &mut Sharer, x: &mut BExpr| {
            let here = next;
            next += walk[here].1 as usize;
            sharer.rewrite(x, outer, reads, walk, here);
        };
        match e {
            BExpr::Const(_) | BExpr::Local(_) | BExpr::Shared(_) => {}
            BExpr::Unary(_, x) | BExpr::ArrayMode(x) => child(self, x),
            BExpr::Binary(_, l, r) => {
                child(self, l);
                child(self, r);
            }
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
        let (areas, reachable) = dependencies(e, self.sheets);
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
        self.ids.nodes[id].shared = Some(s);
        // Its parts used more often than itself are shared in turn.
        let count = self.ids.nodes[id].count;
        self.rewrite_children(&mut inner, count, &areas, walk, at);
        self.exprs[s.index()] = inner;
        Some(s)
    }
}

/// A constant compared bit for bit (numbers by their bits), so that it can
/// be hashed.
struct ConstKey(Value);

impl PartialEq for ConstKey {
    fn eq(&self, other: &Self) -> bool {
        same(&self.0, &other.0)
    }
}

impl Eq for ConstKey {}

impl Hash for ConstKey {
    fn hash<H: Hasher>(&self, h: &mut H) {
        hash_value(&self.0, h);
    }
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.to_bits() == y.to_bits(),
        (Value::Array(x), Value::Array(y)) => {
            x.rows == y.rows && x.cols == y.cols && x.values().iter().zip(y.values()).all(|(a, b)| same(a, b))
        }
        (Value::Array(_), _) | (_, Value::Array(_)) => false,
        (a, b) => a == b,
    }
}

fn hash_value<H: Hasher>(v: &Value, h: &mut H) {
    std::mem::discriminant(v).hash(h);
    match v {
        Value::Empty => {}
        Value::Number(n) => n.to_bits().hash(h),
        Value::Text(t) => t.hash(h),
        Value::Bool(b) => b.hash(h),
        Value::Error(e) => e.hash(h),
        Value::Ref(a) => a.hash(h),
        Value::Array(a) => {
            (a.rows, a.cols).hash(h);
            a.values().iter().for_each(|v| hash_value(v, h));
        }
    }
}

/// Whether formula `a` of a program whose shared subformulas are `sa` reads
/// and computes the same as formula `b` of one whose are `sb`.
pub fn same_formula(a: &BExpr, sa: &[BExpr], b: &BExpr, sb: &[BExpr]) -> bool {
    let same_all =
        |x: &[BExpr], y: &[BExpr]| x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_formula(x, sa, y, sb));
    match (a, b) {
        (BExpr::Shared(x), y) => same_formula(&sa[x.index()], sa, y, sb),
        (x, BExpr::Shared(y)) => same_formula(x, sa, &sb[y.index()], sb),
        (BExpr::Unary(o, x), BExpr::Unary(p, y)) => o == p && same_formula(x, sa, y, sb),
        (BExpr::Binary(o, l, r), BExpr::Binary(p, m, s)) => {
            o == p && same_formula(l, sa, m, sb) && same_formula(r, sa, s, sb)
        }
        (BExpr::Call(f, x), BExpr::Call(g, y)) => f.name == g.name && same_all(x, y),
        (BExpr::ArrayMode(x), BExpr::ArrayMode(y)) => same_formula(x, sa, y, sb),
        (BExpr::Const(x), BExpr::Const(y)) => same(x, y),
        (BExpr::Local(x), BExpr::Local(y)) => x == y,
        _ => false,
    }
}
