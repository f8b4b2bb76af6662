//! What binding the formula cells finds as it goes: each problem reported
//! once (a name's once, a formula's once per origin), the names used, and
//! the workbook's totals against the binding limits (the nodes bound
//! formulas hold, the nodes bound on the way, the folding budget); the
//! formula that passes a total gets the issue, and the cells after it are
//! left unbound (`#NUM!`).

use super::{BuildIssue, FormulaCell};
use crate::address::CellAddr;
use crate::ast::Span;
use crate::eval::BExpr;
use crate::eval::bind::{Binder, Issue, MAX_TOTAL_BIND_WORK, MAX_TOTAL_BOUND_NODES, Memo, Scope, Site};
use crate::ids::EntryId;
use crate::value::{ErrorKind, Value};
use std::collections::HashSet;

/// What binding found so far: the problems (each reported once) and the
/// names some formula used.
#[derive(Default)]
pub(super) struct Found {
    pub issues: Vec<BuildIssue>,
    pub seen: HashSet<(Option<EntryId>, Issue)>,
    pub used: Vec<bool>,
    /// Nodes the bound formulas hold so far (after folding), over all formulas.
    pub nodes: usize,
    /// Nodes bound so far, names expanded, before folding, over all formulas.
    pub work: usize,
    /// Whether `nodes` passed [`MAX_TOTAL_BOUND_NODES`] or `work`
    /// [`MAX_TOTAL_BIND_WORK`]: nothing more is bound.
    pub over: bool,
    /// Array elements folding may still consume and produce
    /// ([`MAX_FOLD_CELLS`](crate::eval::bind::MAX_FOLD_CELLS)).
    pub fold_left: u64,
    /// The bindings of names shared between the formulas (which also
    /// counts the nodes bound formulas hold).
    pub memo: Memo,
    /// Whether binders share `memo` (`Paths::bind_memo`).
    pub bind_memo: bool,
    /// How many names the last formula expanded: the next binder's list
    /// starts that long, not grown a name at a time.
    pub expanded: usize,
}

impl Found {
    /// Records what `binder` found while binding the formula of `addr`.
    pub(super) fn issues_of(&mut self, binder: Binder, addr: CellAddr, origin: Option<EntryId>) {
        binder.expanded.iter().for_each(|&n| self.used[n.index()] = true);
        self.expanded = binder.expanded.len();
        for issue in binder.issues {
            // A name's problem is reported once, a formula's once per origin.
            let key = match issue.site {
                Site::Name(_) => (None, issue.clone()),
                Site::Formula => (origin, issue.clone()),
            };
            if self.seen.insert(key) {
                self.issues.push(BuildIssue { cell: addr, origin, issue });
            }
        }
    }

    /// A binder for `cell`, given what is left of the folding budget.
    pub(super) fn binder<'s>(&self, scope: &'s Scope, cell: CellAddr) -> Binder<'s> {
        // Which names are used is all that is asked of `expanded`.
        let mut binder = Binder::new(scope, cell).folding_at_most(self.fold_left).new_names_only();
        if self.bind_memo {
            binder = binder.sharing(&self.memo);
        }
        binder.expanded.reserve(self.expanded);
        binder
    }

    /// Adds what `binder` bound (`bound`) to the workbook's totals; the
    /// formula that passes [`MAX_TOTAL_BOUND_NODES`] or
    /// [`MAX_TOTAL_BIND_WORK`] gets an issue over its whole `span`.
    pub(super) fn count(&mut self, binder: &mut Binder, bound: &BExpr, site: Site, span: &Span) {
        self.nodes += self.memo.held(bound);
        self.work += binder.nodes();
        self.fold_left = binder.fold_left();
        if self.over {
            return;
        }
        let message = if self.nodes > MAX_TOTAL_BOUND_NODES {
            format!(
                "the workbook's formulas with their names expanded reach {} nodes here, more than {MAX_TOTAL_BOUND_NODES} in all",
                self.nodes
            )
        } else if self.work > MAX_TOTAL_BIND_WORK {
            format!(
                "binding the workbook's formulas with their names expanded goes through {} nodes here, more than {MAX_TOTAL_BIND_WORK} in all",
                self.work
            )
        } else {
            return;
        };
        self.over = true;
        binder.issues.push(Issue { site, span: span.clone(), message });
    }

    /// A formula cell left unbound past the total budget: `#NUM!`.
    pub(super) fn unbound(addr: CellAddr, origin: EntryId) -> FormulaCell {
        FormulaCell::new(addr, origin, BExpr::Const(Value::Error(ErrorKind::Num)))
    }

    /// The bound formula cell `addr`, its problems recorded.
    pub(super) fn cell(&mut self, binder: Binder, expr: BExpr, addr: CellAddr, origin: EntryId) -> FormulaCell {
        self.issues_of(binder, addr, Some(origin));
        FormulaCell::new(addr, origin, expr)
    }
}

/// The nodes a bound formula holds (what [`MAX_TOTAL_BOUND_NODES`] counts;
/// binding counts them as it goes, see `Memo::held`).
pub fn held(e: &BExpr) -> usize {
    1 + match e {
        // A kept part holds what it would hold copied in place.
        BExpr::Kept(x) => held(x) - 1,
        BExpr::Const(_) | BExpr::Local(_) | BExpr::Shared(_) => 0,
        BExpr::Unary(_, x) | BExpr::ArrayMode(x) => held(x),
        BExpr::Binary(_, lr) => lr.iter().map(held).sum(),
        BExpr::Call(_, args) => args.iter().map(held).sum(),
    }
}
