//! What a part of a name's formula depends on when it is bound for a cell,
//! found once per name by walking its formula (and the names it uses):
//! relative references move with the calculating cell's row or column,
//! `ROW()` and `COLUMN()` without argument read the caller's rectangle (a
//! block's, in a block array formula), and everything else binds the same
//! for every cell. A LET or a LAMBDA (their slots are numbered per
//! formula), a call of a LAMBDA, a LET variable and a name in a loop are
//! bound apart every time: they are never shared.

use super::{MAX_BOUND_DEPTH, Scope};
use crate::ast::{Expr, ExprKind, RefExpr, RefKind, TableRef};
use crate::functions::{Arg, Intrinsic};
use crate::ids::NameId;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

/// What a subformula's binding depends on (a set of flags).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Dep(u8);

impl Dep {
    /// The same binding for every cell.
    pub const NONE: Dep = Dep(0);
    /// The calculating cell's row.
    pub const ROW: Dep = Dep(1);
    /// The calculating cell's column.
    pub const COL: Dep = Dep(2);
    /// The caller's rectangle: the cell, or the block of a block array formula.
    pub const CALLER: Dep = Dep(4);
    /// Bound apart for every use: never shared.
    pub const APART: Dep = Dep(8);

    pub fn has(self, d: Dep) -> bool {
        self.0 & d.0 != 0
    }

    fn with(self, d: Dep) -> Dep {
        Dep(self.0 | d.0)
    }
}

/// The dependence of every non-leaf node of the names analysed so far, by
/// node address (the formulas are held by the scope while binding).
#[derive(Default)]
pub(super) struct Analysis {
    names: HashMap<NameId, Dep, Fx>,
    nodes: HashMap<usize, Dep, Fx>,
    /// The moving parts of each node asked for (see [`Analysis::moving_parts`]).
    moving: HashMap<usize, Option<Moving>, Fx>,
}

/// A part of a formula that moves with the row alone or the column alone,
/// by its node's address (a name's formula for a name), and which.
pub(super) type Moving = Rc<[(usize, Dep)]>;

/// A multiplicative hash for the small integer keys of binding's tables.
pub(super) type Fx = BuildHasherDefault<FxHasher>;

#[derive(Default)]
pub(super) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.write_u64(u64::from(b)));
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }

    fn write_u16(&mut self, v: u16) {
        self.write_u64(u64::from(v));
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl Analysis {
    /// The dependence of node `e` of the formula of name `top`.
    pub fn node(&mut self, scope: &Scope, top: NameId, e: &Expr) -> Dep {
        let key = e as *const Expr as usize;
        if let Some(&d) = self.nodes.get(&key) {
            return d;
        }
        self.name(scope, top, 0);
        self.nodes.get(&key).copied().unwrap_or(Dep::APART)
    }

    /// The parts of node `e` (already analysed, see [`Analysis::node`])
    /// that move with the row alone or the column alone, each a node the
    /// binder keeps per row or per column: when `e` depends on both, its
    /// binding for a cell is told by what they bind to there (a big cell's
    /// `ROUNDUP(ROW(here)/side, 0)` and its column's). None where a part
    /// moves otherwise (a reference relative in both, `ROW()`, a LET).
    pub fn moving_parts(&mut self, scope: &Scope, e: &Expr) -> Option<Moving> {
        let key = e as *const Expr as usize;
        if let Some(m) = self.moving.get(&key) {
            return m.clone();
        }
        let mut out = Vec::new();
        let m = self.moving_in(scope, e, &mut out, 0).then(|| Rc::from(out));
        self.moving.insert(key, m.clone());
        m
    }

    fn moving_in(&self, scope: &Scope, e: &Expr, out: &mut Vec<(usize, Dep)>, depth: usize) -> bool {
        let d = match &e.kind {
            ExprKind::Ref(r) => reference(r),
            ExprKind::Table(t) => table(t),
            ExprKind::Name(_) | ExprKind::Call { .. } | ExprKind::Unary { .. } | ExprKind::Binary { .. } => {
                match self.nodes.get(&(e as *const Expr as usize)) {
                    Some(&d) => d,
                    None => return false,
                }
            }
            _ => Dep::NONE,
        };
        if d == Dep::NONE {
            return true;
        }
        if depth > MAX_BOUND_DEPTH || d.has(Dep::APART) || d.has(Dep::CALLER) {
            return false;
        }
        let both = d.has(Dep::ROW) && d.has(Dep::COL);
        // A name is bound as its formula, with its own anchor.
        let e = match &e.kind {
            ExprKind::Name(n) => match scope.name_index(n).filter(|i| scope.in_loop[i.index()].is_none()) {
                Some(i) => &*scope.names[i.index()].expr,
                None => return false,
            },
            _ => e,
        };
        match &e.kind {
            // A leaf is not kept.
            ExprKind::Ref(_) | ExprKind::Table(_) | ExprKind::Number(_) | ExprKind::Text(_) | ExprKind::Bool(_) => {
                false
            }
            _ if !both => {
                out.push((e as *const Expr as usize, d));
                true
            }
            ExprKind::Name(_) => self.moving_in(scope, e, out, depth + 1),
            ExprKind::Call { args, .. } => args.iter().all(|a| self.moving_in(scope, a, out, depth + 1)),
            ExprKind::Unary { expr, .. } => self.moving_in(scope, expr, out, depth + 1),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.moving_in(scope, lhs, out, depth + 1) && self.moving_in(scope, rhs, out, depth + 1)
            }
            _ => false,
        }
    }

    fn name(&mut self, scope: &Scope, i: NameId, depth: usize) -> Dep {
        if let Some(&d) = self.names.get(&i) {
            return d;
        }
        if scope.in_loop[i.index()].is_some() {
            return Dep::APART;
        }
        let expr = scope.names[i.index()].expr.clone();
        let d = self.expr(scope, &expr, &mut Vec::new(), depth);
        self.names.insert(i, d);
        d
    }

    /// The dependence of `e`, recorded for each of its non-leaf nodes;
    /// `locals` are the LET variables in scope. Past [`MAX_BOUND_DEPTH`]
    /// nested nodes (names followed) a part is bound apart.
    fn expr(&mut self, scope: &Scope, e: &Expr, locals: &mut Vec<String>, depth: usize) -> Dep {
        if depth > MAX_BOUND_DEPTH {
            return Dep::APART;
        }
        let d = match &e.kind {
            ExprKind::Ref(r) => return reference(r),
            ExprKind::Table(t) => return table(t),
            ExprKind::Name(n) if locals.iter().any(|l| l.eq_ignore_ascii_case(n)) => Dep::APART,
            ExprKind::Name(n) => match scope.name_index(n) {
                Some(i) => self.name(scope, i, depth + 1),
                None => Dep::NONE,
            },
            ExprKind::Call { name, args } => self.call(scope, name, args, locals, depth),
            ExprKind::Unary { expr, .. } => self.expr(scope, expr, locals, depth + 1),
            ExprKind::Binary { lhs, rhs, .. } => {
                let l = self.expr(scope, lhs, locals, depth + 1);
                l.with(self.expr(scope, rhs, locals, depth + 1))
            }
            _ => return Dep::NONE,
        };
        self.nodes.insert(e as *const Expr as usize, d);
        d
    }

    /// A call as the binder binds it: an unknown function or a wrong count
    /// of arguments binds to an error; a LET's variables hide names.
    fn call(&mut self, scope: &Scope, name: &str, args: &[Expr], locals: &mut Vec<String>, depth: usize) -> Dep {
        let Some(spec) = super::function(name).filter(|s| s.arity_error(args.len()).is_none()) else {
            // A call of a LAMBDA (written out, in a LET variable or a
            // name): its slots are numbered per formula.
            let value = name.is_empty()
                || locals.iter().any(|l| l.eq_ignore_ascii_case(name))
                || scope.name_index(name).is_some();
            return if value { Dep::APART } else { Dep::NONE };
        };
        if spec.intrinsic == Some(Intrinsic::Lambda) {
            return Dep::APART;
        }
        if spec.is_scoped() {
            let scope_len = locals.len();
            let variables = args.chunks(2).filter(|pair| pair.len() == 2).map(|pair| &pair[0].kind);
            locals.extend(variables.filter_map(|v| if let ExprKind::Name(n) = v { Some(n.clone()) } else { None }));
            args.iter().for_each(|a| _ = self.expr(scope, a, locals, depth + 1));
            locals.truncate(scope_len);
            return Dep::APART;
        }
        let mut d = Dep::NONE;
        for a in args {
            d = d.with(self.expr(scope, a, locals, depth + 1));
        }
        match (spec.intrinsic, args) {
            // ROW() and COLUMN(): the caller's position.
            (_, []) if spec.arg(0) == Arg::Position => Dep::ROW.with(Dep::COL).with(Dep::CALLER),
            // ROW(A1) folds to the reference's rows, COLUMN(A1) to its columns.
            (Some(which @ (Intrinsic::Row | Intrinsic::Column)), [a]) => {
                let axis = if which == Intrinsic::Row { Dep::ROW } else { Dep::COL };
                position_of(scope, a, locals).map_or(d, |r| Dep(reference(r).0 & axis.0))
            }
            _ => d,
        }
    }
}

/// The reference `a` is, written out or as a name whose formula is one
/// (`ROW(val_here)` with `val_here` = `Main!A1`: its rows move with the
/// row alone, whatever the column).
fn position_of<'e>(scope: &'e Scope, a: &'e Expr, locals: &[String]) -> Option<&'e RefExpr> {
    match &a.kind {
        ExprKind::Ref(r) => Some(r),
        ExprKind::Name(n) if !locals.iter().any(|l| l.eq_ignore_ascii_case(n)) => {
            let i = scope.name_index(n).filter(|i| scope.in_loop[i.index()].is_none())?;
            match &scope.names[i.index()].expr.kind {
                ExprKind::Ref(r) => Some(r),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A reference moves with the rows (columns) it gives relatively (a
/// reference to an unknown sheet binds to an error whatever the cell).
/// A structured reference: `#This Row` moves with the row; one without its
/// table finds it from the calling cell.
fn table(t: &TableRef) -> Dep {
    let d = if t.rows.this_row { Dep::ROW } else { Dep::NONE };
    if t.table.is_none() { d.with(Dep::CALLER) } else { d }
}

fn reference(r: &RefExpr) -> Dep {
    let (rows, cols) = match r.kind {
        RefKind::Cell { row, col } => (!row.abs, !col.abs),
        RefKind::Area { r0, c0, r1, c1 } => (!r0.abs || !r1.abs, !c0.abs || !c1.abs),
        RefKind::Cols { c0, c1 } => (false, !c0.abs || !c1.abs),
        RefKind::Rows { r0, r1 } => (!r0.abs || !r1.abs, false),
    };
    let d = if rows { Dep::ROW } else { Dep::NONE };
    if cols { d.with(Dep::COL) } else { d }
}
