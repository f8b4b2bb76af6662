//! Which formula cells call SUBTOTAL or AGGREGATE: those two leave such
//! cells out of their references, so that a total over subtotals does not
//! count them twice. Found by walking each cell's bound formula (names
//! inlined, shared subformulas and block formulas looked into once), the
//! first time a SUBTOTAL or AGGREGATE asks after a program is built or
//! patched, so that programs without them pay nothing.

use super::program::Program;
use crate::address::CellAddr;
use crate::eval::BExpr;
use crate::functions::Intrinsic;
use crate::ids::FormulaId;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::OnceLock;

/// The cells whose formula calls SUBTOTAL or AGGREGATE, found when first asked.
#[derive(Clone, Debug, Default)]
pub struct Subtotals(pub(super) OnceLock<FxHashSet<CellAddr>>);

/// Walks every formula of `p` once (each block formula and each shared
/// subformula once, however many cells use it).
pub(super) fn find(p: &Program) -> FxHashSet<CellAddr> {
    let mut walk = Walk { shared: p.shared(), memo: vec![None; p.shared().len()] };
    let mut blocks = FxHashMap::default();
    let mut found = FxHashSet::default();
    for (i, cell) in p.cells().iter().enumerate() {
        let formula = p.formula(FormulaId::at(i));
        let calls = match cell.block {
            Some(at) => *blocks.entry(at).or_insert_with(|| walk.calls(formula)),
            None => walk.calls(formula),
        };
        if calls {
            found.insert(cell.addr);
        }
    }
    found
}

struct Walk<'p> {
    shared: &'p [BExpr],
    /// Whether each shared subformula calls one, once known.
    memo: Vec<Option<bool>>,
}

impl Walk<'_> {
    fn calls(&mut self, e: &BExpr) -> bool {
        match e {
            BExpr::Call(f, args) => {
                matches!(f.intrinsic, Some(Intrinsic::Subtotal | Intrinsic::Aggregate))
                    || args.iter().any(|a| self.calls(a))
            }
            BExpr::Unary(_, x) | BExpr::ArrayMode(x) => self.calls(x),
            BExpr::Kept(x) => self.calls(x),
            BExpr::Binary(_, lr) => lr.iter().any(|x| self.calls(x)),
            BExpr::Shared(id) => {
                let i = id.index();
                if let Some(known) = self.memo.get(i).copied().flatten() {
                    return known;
                }
                let calls = self.shared.get(i).is_some_and(|s| self.calls(s));
                if let Some(slot) = self.memo.get_mut(i) {
                    *slot = Some(calls);
                }
                calls
            }
            BExpr::Const(_) | BExpr::Local(_) => false,
        }
    }
}
