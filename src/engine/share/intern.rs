//! Hash-consing for the sharing pass (`engine::share`): every distinct
//! subformula gets one id, found through an open-addressed table keyed by
//! one cheap hash of its operator, array mode and children's ids (or its
//! constant), with the keys kept in arenas; each node carries what the
//! rewrite needs to decide whether it is shared (how often it occurs,
//! whether its value depends only on the cells it reads, whether it is too
//! cheap to be worth it).

use crate::ast::{BinaryOp, UnaryOp};
use crate::eval::BExpr;
use crate::eval::bind::hash_value;
use crate::functions::{Arg, Intrinsic};
use crate::ids::SharedId;
use crate::value::Value;
use rustc_hash::FxHashMap;
use std::hash::Hasher;
use std::sync::Arc;

/// A subformula without its children: its operator (its children's ids
/// are kept apart, in [`Interner::kids`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
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
            Op::Unary(o) => 1 | u64::from(o.code()) << 3,
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
pub(super) struct Node {
    /// How many times it occurs in all the formulas.
    pub(super) count: u32,
    /// Whether its value depends on nothing but the cells it reads.
    pub(super) shareable: bool,
    /// Whether evaluating it costs no more than finding a held value.
    pub(super) trivial: bool,
    /// Whether its value may be a reference of several cells.
    pub(super) reference: bool,
    pub(super) shared: Option<SharedId>,
    /// Its key: operator, array mode, children (`kids[kids.0..kids.1]`)
    /// or constant (`consts[kids.0]`).
    pub(super) op: Op,
    pub(super) array: bool,
    pub(super) kids: (u32, u32),
}

/// Hash-consing of subformulas with every key in arenas: a node's
/// children's ids in `kids`, its constant in `consts`, and an open-addressed
/// table of node ids (linear probing, at most half full) found by the
/// key's hash, so interning allocates only for a new node and hashes each
/// key once. Each slot keeps the high half of its node's hash beside the
/// id: a probe past another key rarely reads that node, and growing the
/// table reads no node.
#[derive(Default)]
pub(super) struct Interner {
    /// Node ids with the high half of their hash, placed by the low bits
    /// of that half (id `u32::MAX`: free); its length is a power of two.
    table: Vec<(u32, u32)>,
    pub(super) nodes: Vec<Node>,
    kids: Vec<u32>,
    consts: Vec<Value>,
    /// The children's ids of the calls being interned, innermost last.
    stack: Vec<u32>,
    /// The node of each constant array met (by its address, and array
    /// mode), so that the many uses of one array are hashed once: the
    /// formulas hold every array while they are interned.
    arrays: FxHashMap<(usize, bool), u32>,
    /// Where the nodes of each kept part met (by its address, and array
    /// mode) sit in `walk`: met again, they are counted again from there,
    /// not hashed again.
    kept: FxHashMap<(usize, bool), (usize, usize)>,
}

impl Interner {
    /// The id of `e` evaluated in array mode or not (`array`), counting
    /// this occurrence; pushes the id and size of each node of `e` onto
    /// `walk`, in pre-order.
    pub(super) fn intern(&mut self, e: &BExpr, array: bool, walk: &mut Vec<(u32, u32)>) -> u32 {
        if let BExpr::Kept(x) = e {
            return self.intern_kept(x, array, walk);
        }
        let at = walk.len();
        walk.push((0, 0));
        let base = self.stack.len();
        let op = match e {
            BExpr::Const(_) => Op::Const,
            BExpr::Kept(_) => unreachable!("a kept part is interned as what it holds"),
            BExpr::Local(slot) => Op::Local(*slot),
            BExpr::Shared(s) => Op::Shared(s.0),
            BExpr::Unary(op, x) => {
                let x = self.intern(x, array, walk);
                self.stack.push(x);
                Op::Unary(*op)
            }
            BExpr::Binary(op, lr) => {
                let l = self.intern(&lr[0], array, walk);
                self.stack.push(l);
                let r = self.intern(&lr[1], array, walk);
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

    /// [`Interner::intern`] of a kept part `x`: the node it holds. Its
    /// nodes are hashed the first time it is met; after that, their ids
    /// and sizes are copied in `walk` and each counted once more.
    fn intern_kept(&mut self, x: &Arc<BExpr>, array: bool, walk: &mut Vec<(u32, u32)>) -> u32 {
        let key = (Arc::as_ptr(x) as usize, array);
        let at = walk.len();
        if let Some(&(from, len)) = self.kept.get(&key) {
            walk.extend_from_within(from..from + len);
            walk[at..].iter().for_each(|&(id, _)| self.nodes[id as usize].count += 1);
            return walk[at].0;
        }
        let id = self.intern(x, array, walk);
        self.kept.insert(key, (at, walk.len() - at));
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
            BExpr::Kept(_) => unreachable!("a kept part is interned as what it holds"),
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
            // by implicit intersection: only calls in array mode are shared,
            // and never SINGLE (`@`), which intersects in either mode.
            BExpr::Call(f, args) => {
                let computed = (0..args.len()).any(|i| matches!(f.arg(i), Arg::Reachable | Arg::Address));
                let single = f.intrinsic == Some(Intrinsic::Single);
                let shareable = array
                    && !f.volatile
                    && !single
                    && !args.is_empty()
                    && !computed
                    && (0..args.len()).all(|i| kid(i).shareable);
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

pub(super) use crate::eval::bind::same_value as same;

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
