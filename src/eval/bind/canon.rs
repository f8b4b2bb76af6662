//! Kept bindings made one: a part kept per row binds to the same tree for
//! every row of a big cell (`COUNTIF(sol_row_from_val, digits)` is the same
//! for the rows of one solution row), and keeping it once for all of them
//! lets a part that depends on both the row and the column be told by
//! which kept bindings its moving parts bound to (see `memo::PartsKey`),
//! and lets the sharing pass meet one kept tree instead of several. Two
//! trees are the same when they are node for node, their kept parts by
//! address (each made one before its parents).

use super::position::{Fx, FxHasher};
use crate::eval::BExpr;
use crate::value::Value;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The kept bindings made so far, by hash, and the nodes each holds (by
/// address: each is held here, so its address is no other's meanwhile).
#[derive(Default)]
pub(super) struct Canon {
    trees: HashMap<u64, Vec<Arc<BExpr>>, Fx>,
    held: HashMap<usize, usize, Fx>,
}

impl Canon {
    /// `bound` (not a constant) held by reference: the kept binding that
    /// is the same tree if there is one, else a new one.
    pub fn one(&mut self, bound: BExpr) -> BExpr {
        let mut h = FxHasher::default();
        hash(&bound, &mut h);
        let list = self.trees.entry(h.finish()).or_default();
        if let Some(k) = list.iter().find(|k| same(k, &bound)) {
            return BExpr::Kept(k.clone());
        }
        let k = Arc::new(bound);
        list.push(k.clone());
        let held = self.held(&k);
        self.held.insert(Arc::as_ptr(&k) as usize, held);
        BExpr::Kept(k)
    }

    /// The nodes `e` holds, each kept part counted as copied in place
    /// (what `MAX_TOTAL_BOUND_NODES` counts), a kept part made here
    /// counted once, when it was made.
    pub fn held(&self, e: &BExpr) -> usize {
        1 + match e {
            BExpr::Kept(x) => self.held.get(&(Arc::as_ptr(x) as usize)).map_or_else(|| self.held(x), |&n| n) - 1,
            BExpr::Const(_) | BExpr::Local(_) | BExpr::Shared(_) => 0,
            BExpr::Unary(_, x) | BExpr::ArrayMode(x) => self.held(x),
            BExpr::Binary(_, lr) => self.held(&lr[0]) + self.held(&lr[1]),
            BExpr::Call(_, args) => args.iter().map(|a| self.held(a)).sum(),
        }
    }
}

fn hash(e: &BExpr, h: &mut FxHasher) {
    std::mem::discriminant(e).hash(h);
    match e {
        BExpr::Const(v) => hash_value(v, h),
        BExpr::Unary(op, x) => {
            op.hash(h);
            hash(x, h);
        }
        BExpr::Binary(op, lr) => {
            op.hash(h);
            hash(&lr[0], h);
            hash(&lr[1], h);
        }
        BExpr::Call(f, args) => {
            (*f as *const _ as usize).hash(h);
            args.iter().for_each(|a| hash(a, h));
        }
        BExpr::Local(slot) => slot.hash(h),
        BExpr::ArrayMode(x) => hash(x, h),
        BExpr::Shared(s) => s.0.hash(h),
        BExpr::Kept(x) => (Arc::as_ptr(x) as usize).hash(h),
    }
}

/// A constant's hash, equal for the same constants (see [`same_value`]).
pub fn hash_value<H: Hasher>(v: &Value, h: &mut H) {
    std::mem::discriminant(v).hash(h);
    match v {
        Value::Empty => {}
        Value::Number(n) => n.to_bits().hash(h),
        Value::Text(t) => t.hash(h),
        Value::Bool(b) => b.hash(h),
        Value::Error(e) => e.hash(h),
        Value::Array(a) => {
            (a.rows, a.cols).hash(h);
            a.values().iter().for_each(|v| hash_value(v, h));
        }
        Value::Ref(a) => a.hash(h),
    }
}

/// Whether `x` and `y` are the same constant, numbers bit for bit (so
/// that folding them gives the same).
pub fn same_value(x: &Value, y: &Value) -> bool {
    match (x, y) {
        (Value::Number(x), Value::Number(y)) => x.to_bits() == y.to_bits(),
        (Value::Array(x), Value::Array(y)) => {
            Arc::ptr_eq(x, y)
                || (x.rows == y.rows && x.cols == y.cols)
                    && x.values().iter().zip(y.values()).all(|(x, y)| same_value(x, y))
        }
        (Value::Array(_), _) | (_, Value::Array(_)) => false,
        (x, y) => x == y,
    }
}

/// Whether `a` and `b` are the same tree (see the module's note).
fn same(a: &BExpr, b: &BExpr) -> bool {
    match (a, b) {
        (BExpr::Const(x), BExpr::Const(y)) => same_value(x, y),
        (BExpr::Unary(o, x), BExpr::Unary(p, y)) => o == p && same(x, y),
        (BExpr::Binary(o, x), BExpr::Binary(p, y)) => o == p && same(&x[0], &y[0]) && same(&x[1], &y[1]),
        (BExpr::Call(f, x), BExpr::Call(g, y)) => {
            std::ptr::eq(*f, *g) && x.len() == y.len() && x.iter().zip(y.iter()).all(|(x, y)| same(x, y))
        }
        (BExpr::Local(x), BExpr::Local(y)) => x == y,
        (BExpr::ArrayMode(x), BExpr::ArrayMode(y)) => same(x, y),
        (BExpr::Shared(x), BExpr::Shared(y)) => x == y,
        (BExpr::Kept(x), BExpr::Kept(y)) => Arc::ptr_eq(x, y),
        _ => false,
    }
}
