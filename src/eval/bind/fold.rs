//! Folding: a node whose operands are all constants is computed at
//! binding by an evaluator that reads no cell, and replaced by its value
//! when it did not try to read one nor consulted the calendar (the date
//! system, the clock), within the workbook's folding budget
//! ([`MAX_FOLD_CELLS`](super::MAX_FOLD_CELLS)); and the function registry as the binder looks
//! names up in it.

use super::Binder;
use crate::ast::BinaryOp;
use crate::eval::{BExpr, Eval};
use crate::functions::{self, FnSpec};
use crate::value::Value;
use crate::value::date::Calendar;
use std::collections::HashMap;
use std::sync::OnceLock;

impl Binder<'_> {
    /// Replaces a node whose operands are all constants by its value, when
    /// computing it reads no cell (a volatile call is never replaced). Each
    /// call's work is bounded by the evaluation budgets (`value::MAX_WORK`,
    /// ...), and all folding together by [`MAX_FOLD_CELLS`](super::MAX_FOLD_CELLS): the array
    /// elements it consumes and produces.
    pub(super) fn fold(&mut self, e: BExpr) -> BExpr {
        let consumed = match &e {
            BExpr::Unary(_, x) => const_len(x),
            BExpr::Binary(_, lr) => const_len(&lr[0]).zip(const_len(&lr[1])).map(|(l, r)| l + r),
            BExpr::Call(f, args) if !f.volatile => args.iter().map(const_len).sum(),
            _ => None,
        };
        let Some(consumed) = consumed else { return e };
        if self.fold_left == 0 || consumed > self.fold_left {
            self.limits += 1;
            return e;
        }
        if reads_a_reference(&e) {
            return e;
        }
        // A value that depends on the date system or the clock is left to
        // the engine, which evaluates under the workbook's calendar.
        let calendar = Calendar::default().enter();
        let mut ev = Eval::folding(&self.empty, self.cell, self.array_depth > 0).in_block(self.block);
        let v = ev.eval(&e);
        if ev.touched() || calendar.consulted() {
            return e;
        }
        self.fold_left = self.fold_left.saturating_sub(consumed + array_len(&v));
        BExpr::Const(v)
    }
}

/// The function called `name`: looked up by its upper-case name (as the
/// parser writes it) in a table made once, else as [`functions::lookup`] does.
pub(super) fn function(name: &str) -> Option<&'static FnSpec> {
    static TABLE: OnceLock<rustc_hash::FxHashMap<&'static str, &'static FnSpec>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = HashMap::default();
        functions::all().for_each(|f| _ = table.entry(f.name).or_insert(f));
        table
    });
    table.get(name).copied().or_else(|| functions::lookup(name))
}

/// The elements of a constant's array (see [`array_len`]); none for a
/// node that is not a constant.
fn const_len(e: &BExpr) -> Option<u64> {
    match e {
        BExpr::Const(v) => Some(array_len(v)),
        _ => None,
    }
}

/// The elements of an array value (0 for a single value).
fn array_len(v: &Value) -> u64 {
    match v {
        Value::Array(a) => a.len() as u64,
        _ => 0,
    }
}

/// Whether evaluating `e` reads a cell whatever its operands: an operator
/// other than the reference operators (`:`, intersection, union) reads an
/// operand that is a reference, and folding would give up at that read.
fn reads_a_reference(e: &BExpr) -> bool {
    let is_ref = |x: &BExpr| matches!(x, BExpr::Const(Value::Ref(_)));
    match e {
        BExpr::Unary(_, x) => is_ref(x),
        BExpr::Binary(BinaryOp::Range | BinaryOp::Intersect | BinaryOp::Union, ..) => false,
        BExpr::Binary(_, lr) => lr.iter().any(is_ref),
        _ => false,
    }
}
