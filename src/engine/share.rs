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
//!
//! The pass has two halves. Interning ([`Interned::new`]) only reads the
//! bound formulas, so `Program::build` runs it on a second thread while
//! the dependencies, the graph and the schedule are derived; rewriting
//! ([`share`]) needs those dependencies, and hands the subformulas it
//! replaces to a second thread to be dropped. Neither thread changes what
//! is found: the shared subformulas, their order and ids are those of one
//! thread.

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
use std::sync::Arc;

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
/// is `graph`.
pub fn share(
    interned: Interned,
    cells: &mut [FormulaCell],
    blocks: &mut [BExpr],
    block_deps: &[Vec<Area>],
    sheets: usize,
    graph: &DepGraph,
) -> Shared {
    let Interned { ids, walk, starts } = interned;
    // The subformulas replaced by shared nodes are dropped on a second
    // thread, in batches, while the rewriting goes on.
    let (dropping, batches) = std::sync::mpsc::channel::<Vec<BExpr>>();
    let (exprs, areas) = std::thread::scope(|scope| {
        scope.spawn(move || batches.into_iter().for_each(drop));
        let garbage = Vec::new();
        let mut sharer = Sharer { ids, sheets, exprs: Vec::new(), areas: Vec::new(), garbage, dropping };
        let mut starts = starts.into_iter();
        for c in cells.iter_mut() {
            if let Some(Some(at)) = starts.next() {
                sharer.rewrite(&mut c.expr, 1, &c.deps, &walk, at);
            }
        }
        for (e, deps) in blocks.iter_mut().zip(block_deps) {
            if let Some(Some(at)) = starts.next() {
                sharer.rewrite(e, 1, deps, &walk, at);
            }
        }
        // The last batch; the sender dropped ends the dropping thread.
        let Sharer { exprs, areas, garbage, dropping, .. } = sharer;
        let _ = dropping.send(garbage);
        (exprs, areas)
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
    Shared { exprs, readers }
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

/// A subformula without its children: its operator (its children's ids
/// are kept apart, in [`Interner::kids`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    /// A constant, by its index in [`Interner::consts`] (compared bit for bit).
    Const,
    Unary(UnaryOp),
    Binary(BinaryOp),
    Call(&'static str),
    Local(usize),
    ArrayMode,
    Shared(u32),
}

impl Op {
    /// One word of the operator for the key's hash: equal operators give
    /// equal words (a function by its name's length and first bytes).
    fn word(self) -> u64 {
        match self {
            Op::Const => 0,
            Op::Unary(o) => 1 | (o as u64) << 3,
            Op::Binary(o) => 2 | (o as u64) << 3,
            Op::Call(name) => {
                let head = name.bytes().take(8).fold(0u64, |w, b| w << 8 | u64::from(b));
                3 | (name.len() as u64) << 3 ^ head << 8
            }
            Op::Local(slot) => 4 | (slot as u64) << 3,
            Op::ArrayMode => 5,
            Op::Shared(s) => 6 | u64::from(s) << 3,
        }
    }
}

/// One step of the key's hash (FxHash's): the high bits of the result are
/// well mixed, and they pick the slot.
fn mix(h: u64, word: u64) -> u64 {
    (h.rotate_left(5) ^ word).wrapping_mul(0xf135_7aea_2e62_a9c5)
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
    /// Its key: operator, array mode, children (`kids[kids.0..kids.1]`)
    /// or constant (`consts[kids.0]`).
    op: Op,
    array: bool,
    kids: (u32, u32),
}

/// Hash-consing of subformulas with every key in arenas: a node's
/// children's ids in `kids`, its constant in `consts`, and an open-addressed
/// table of node ids (linear probing, at most half full) found by the
/// key's hash, so interning allocates only for a new node and hashes each
/// key once. Each slot keeps the high half of its node's hash beside the
/// id: a probe past another key rarely reads that node, and growing the
/// table reads no node.
#[derive(Default)]
struct Interner {
    /// Node ids with the high half of their hash, placed by the low bits
    /// of that half (id `u32::MAX`: free); its length is a power of two.
    table: Vec<(u32, u32)>,
    nodes: Vec<Node>,
    kids: Vec<u32>,
    consts: Vec<Value>,
    /// The children's ids of the calls being interned, innermost last.
    stack: Vec<u32>,
    /// The node of each constant array met (by its address, and array
    /// mode), so that the many uses of one array are hashed once: the
    /// formulas hold every array while they are interned.
    arrays: FxHashMap<(usize, bool), u32>,
}

impl Interner {
    /// The id of `e` evaluated in array mode or not (`array`), counting
    /// this occurrence; pushes the id and size of each node of `e` onto
    /// `walk`, in pre-order.
    fn intern(&mut self, e: &BExpr, array: bool, walk: &mut Vec<(u32, u32)>) -> u32 {
        let at = walk.len();
        walk.push((0, 0));
        let base = self.stack.len();
        let op = match e {
            BExpr::Const(_) => Op::Const,
            BExpr::Local(slot) => Op::Local(*slot),
            BExpr::Shared(s) => Op::Shared(s.0),
            BExpr::Unary(op, x) => {
                let x = self.intern(x, array, walk);
                self.stack.push(x);
                Op::Unary(*op)
            }
            BExpr::Binary(op, l, r) => {
                let l = self.intern(l, array, walk);
                self.stack.push(l);
                let r = self.intern(r, array, walk);
                self.stack.push(r);
                Op::Binary(*op)
            }
            BExpr::ArrayMode(x) => {
                let x = self.intern(x, true, walk);
                self.stack.push(x);
                Op::ArrayMode
            }
            BExpr::Call(f, args) => {
                for a in args.iter() {
                    let id = self.intern(a, array, walk);
                    self.stack.push(id);
                }
                Op::Call(f.name)
            }
        };
        let id = match e {
            BExpr::Const(v @ Value::Array(a)) => {
                let at = (Arc::as_ptr(a) as usize, array);
                match self.arrays.get(&at) {
                    Some(&id) => id,
                    None => {
                        let id = self.find_or_add(e, op, array, base, Some(v));
                        self.arrays.insert(at, id);
                        id
                    }
                }
            }
            BExpr::Const(v) => self.find_const(e, v, array),
            _ => self.find_or_add(e, op, array, base, None),
        };
        self.stack.truncate(base);
        self.nodes[id as usize].count += 1;
        walk[at] = (id, (walk.len() - at) as u32);
        id
    }

    /// What a new node `e` (evaluated in array mode or not, its children's
    /// ids `stack[base..]`) is: shareable, trivial, a reference.
    fn facts(&self, e: &BExpr, array: bool, base: usize) -> (bool, bool, bool) {
        let kid = |i: usize| &self.nodes[self.stack[base + i] as usize];
        // Outside array mode an operator reads an operand of several cells
        // by implicit intersection with the calculating cell: it is shared
        // only over operands that cannot give such a reference.
        let plain = |n: &Node| n.shareable && (array || !n.reference);
        match e {
            BExpr::Const(v) => {
                let one_cell = !matches!(v, Value::Ref(a) if !a.is_cell()) && v.ref_array().is_none();
                (true, true, !one_cell)
            }
            BExpr::Local(_) | BExpr::Shared(_) => (false, true, true),
            BExpr::Unary(..) => (plain(kid(0)), false, false),
            BExpr::Binary(op, ..) => {
                let reference = matches!(op, BinaryOp::Range | BinaryOp::Intersect | BinaryOp::Union);
                ((array || !reference) && plain(kid(0)) && plain(kid(1)), false, reference)
            }
            // A name's value is the same in either mode, but it may be a
            // reference of several cells (`INDEX(..):A1`), which an
            // operator around it outside array mode intersects.
            BExpr::ArrayMode(x) => {
                let trivial = matches!(&**x, BExpr::Const(Value::Ref(a)) if a.is_cell())
                    || matches!(&**x, BExpr::Const(v) if !matches!(v, Value::Ref(_)));
                (kid(0).shareable, trivial, kid(0).reference)
            }
            // Outside array mode a function may read a reference argument
            // by implicit intersection: only calls in array mode are shared.
            BExpr::Call(f, args) => {
                let computed = (0..args.len()).any(|i| matches!(f.arg(i), Arg::Reachable | Arg::Address));
                let shareable =
                    array && !f.volatile && !args.is_empty() && !computed && (0..args.len()).all(|i| kid(i).shareable);
                (shareable, false, f.returns_ref)
            }
        }
    }

    /// The node of key (`op`, `array`, children `stack[base..]`, constant
    /// `konst`), added if new (`e` is the subformula, for its facts).
    fn find_or_add(&mut self, e: &BExpr, op: Op, array: bool, base: usize, konst: Option<&Value>) -> u32 {
        if 2 * (self.nodes.len() + 1) > self.table.len() {
            self.grow();
        }
        let kids = &self.stack[base..];
        let mut hash = mix(op.word(), u64::from(array));
        for pair in kids.chunks(2) {
            hash = mix(hash, u64::from(pair[0]) | u64::from(*pair.get(1).unwrap_or(&u32::MAX)) << 32);
        }
        if let Some(v) = konst {
            hash = mix(hash, value_word(v));
        }
        let high = (hash >> 32) as u32;
        let mask = self.table.len() - 1;
        let mut slot = high as usize & mask;
        loop {
            let (at, h) = self.table[slot];
            if at == u32::MAX {
                break;
            }
            let n = &self.nodes[at as usize];
            let same_key = h == high
                && n.op == op
                && n.array == array
                && match konst {
                    Some(v) => same(&self.consts[n.kids.0 as usize], v),
                    None => self.kids[n.kids.0 as usize..n.kids.1 as usize] == *kids,
                };
            if same_key {
                return at;
            }
            slot = (slot + 1) & mask;
        }
        let (shareable, trivial, reference) = self.facts(e, array, base);
        let kids = &self.stack[base..];
        let range = match konst {
            Some(v) => {
                self.consts.push(v.clone());
                ((self.consts.len() - 1) as u32, 0)
            }
            None => {
                let from = self.kids.len() as u32;
                self.kids.extend_from_slice(kids);
                (from, self.kids.len() as u32)
            }
        };
        let id = self.nodes.len() as u32;
        let node = Node { count: 0, shareable, trivial, reference, shared: None, op, array, kids: range };
        self.nodes.push(node);
        self.table[slot] = (id, high);
        id
    }

    /// [`Interner::find_or_add`] for a constant other than an array (about
    /// half the nodes): the same key and hash, a node already there found
    /// with less work.
    fn find_const(&mut self, e: &BExpr, v: &Value, array: bool) -> u32 {
        let high = (mix(mix(Op::Const.word(), u64::from(array)), value_word(v)) >> 32) as u32;
        let mask = self.table.len().wrapping_sub(1);
        let mut slot = high as usize & mask;
        while let Some(&(at, h)) = self.table.get(slot).filter(|(at, _)| *at != u32::MAX) {
            let n = &self.nodes[at as usize];
            if h == high && n.op == Op::Const && n.array == array && same(&self.consts[n.kids.0 as usize], v) {
                return at;
            }
            slot = (slot + 1) & mask;
        }
        self.find_or_add(e, Op::Const, array, self.stack.len(), Some(v))
    }

    /// Doubles the table (at least 1,024 slots), placing every node again.
    fn grow(&mut self) {
        let len = (2 * self.table.len()).max(1024);
        let old = std::mem::replace(&mut self.table, vec![(u32::MAX, 0); len]);
        for (id, high) in old.into_iter().filter(|&(id, _)| id != u32::MAX) {
            let mut slot = high as usize & (len - 1);
            while self.table[slot].0 != u32::MAX {
                slot = (slot + 1) & (len - 1);
            }
            self.table[slot] = (id, high);
        }
    }
}

struct Sharer {
    ids: Interner,
    sheets: usize,
    exprs: Vec<BExpr>,
    /// The areas each shared subformula reads, by [`SharedId`].
    areas: Vec<Vec<Area>>,
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
        if node.shareable && !node.trivial && node.count >= 2 && node.count > outer {
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

/// One word of a constant for the key's hash: equal constants (see
/// [`same`]) give equal words.
fn value_word(v: &Value) -> u64 {
    match v {
        Value::Number(n) => n.to_bits(),
        Value::Ref(a) => mix(
            mix(u64::from(a.sheet), u64::from(a.r0) | u64::from(a.c0) << 32),
            u64::from(a.r1) | u64::from(a.c1) << 32,
        ),
        _ => {
            let mut h = rustc_hash::FxHasher::default();
            hash_value(v, &mut h);
            h.finish()
        }
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
