//! Bindings shared between cells. The formula cells of a workbook use the
//! same names over and over, and a name's formula, or a part of it, binds
//! the same for every cell that agrees on what it depends on
//! ([`position`](super::position)): nothing (`sol_board`, a constant
//! matrix), the row only, the column only. Such a part is bound once and
//! its binding reused: its bound tree cloned, and what binding it did to
//! the binder replayed (the nodes counted, the folding budget spent, the
//! issues met, the names expanded), so the result and every count are
//! exactly those of binding it again. A part that depends on both the row
//! and the column is shared only at a name's top (a name used several
//! times by one formula: kept the second time the formula meets it), and a
//! part that met a limit is never kept.

use super::canon::Canon;
use super::position::{Analysis, Dep, Fx, FxHasher};
use super::{Binder, Issue, MAX_BOUND_DEPTH, MAX_BOUND_NODES, MAX_NAME_DEPTH};
use crate::address::Area;
use crate::ast::{Expr, ExprKind};
use crate::eval::BExpr;
use crate::ids::NameId;
use crate::value::{ErrorKind, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::sync::Arc;

/// The bindings shared by the binders of one workbook's formulas (one
/// [`Scope`](super::Scope)): give each binder a clone ([`Binder::sharing`]).
#[derive(Clone, Default)]
pub struct Memo(Rc<RefCell<Table>>);

impl Memo {
    /// The nodes `bound`, a formula bound sharing this memo, holds: its
    /// kept parts counted as copied in place (see `Canon::held`).
    pub fn held(&self, bound: &BExpr) -> usize {
        self.0.borrow().canon.held(bound)
    }

    /// How many bindings are kept.
    #[cfg(test)]
    pub(super) fn kept(&self) -> usize {
        self.0.borrow().kept.len()
    }
}

#[derive(Default)]
struct Table {
    analysis: Analysis,
    kept: HashMap<Key, Entry, Fx>,
    /// Each name met in a name's formula, by the address and length of its
    /// text: looked up once, then by id.
    names: HashMap<(usize, usize), Option<NameId>, Fx>,
    /// Parts for one cell alone kept by what their moving parts bound to
    /// (see [`Binder::parts_key`]): a big cell's parts, for all its cells.
    /// By node, sheet and a hash of those bindings, which are kept beside
    /// the entry and compared exactly on a hit.
    by_parts: HashMap<(usize, u16, u64), (Bindings, Entry), Fx>,
    /// Emptied buffers for the bindings of moving parts, reused.
    spare: Vec<Bindings>,
    /// How often each such part was found there, and not.
    tries: HashMap<usize, (u32, u32), Fx>,
    canon: Canon,
}

/// After this many misses and no hit, a part is no longer looked up by its
/// moving parts (see [`Binder::parts_of`]).
const GIVE_UP: u32 = 64;

/// Whether a part may be told by its moving parts (see [`Binder::parts_key`]).
pub(super) enum Parts {
    /// No: it is not for one cell alone, or is never shared so.
    Never,
    /// Once its moving parts are kept (after binding it).
    Later,
    Key(PartsKey),
}

/// A part depending on both the row and the column (by address, and the
/// sheet), told apart by what each of its moving parts (see
/// `Analysis::moving_parts`) bound to for the calculating cell, with the
/// folding budget that binding spent (`parts`, and their hash).
pub(super) struct PartsKey {
    node: usize,
    sheet: u16,
    hash: u64,
    parts: Bindings,
}

/// What each moving part of a part bound to, with the folding budget spent.
type Bindings = Vec<(Part, u64)>;

impl PartsKey {
    fn at(&self) -> (usize, u16, u64) {
        (self.node, self.sheet, self.hash)
    }
}

/// What a moving part bound to: a constant, or a kept binding (by address).
#[derive(Hash, PartialEq, Eq)]
pub(super) enum Part {
    Empty,
    Number(u64),
    Text(Arc<str>),
    Bool(bool),
    Error(ErrorKind),
    Ref(Area),
    At(usize),
}

impl Part {
    fn of(bound: &BExpr) -> Option<Part> {
        Some(match bound {
            BExpr::Const(Value::Empty) => Part::Empty,
            BExpr::Const(Value::Number(n)) => Part::Number(n.to_bits()),
            BExpr::Const(Value::Text(t)) => Part::Text(t.clone()),
            BExpr::Const(Value::Bool(b)) => Part::Bool(*b),
            BExpr::Const(Value::Error(e)) => Part::Error(*e),
            BExpr::Const(Value::Ref(a)) => Part::Ref(*a),
            // Held by the kept binding, so the address is no other's meanwhile.
            BExpr::Const(Value::Array(a)) => Part::At(Arc::as_ptr(a) as usize),
            BExpr::Kept(x) => Part::At(Arc::as_ptr(x) as usize),
            _ => return None,
        })
    }
}

/// A node (by address) and the part of the calculating cell it depends on
/// (sheet, row, column; `NONE` where it does not).
pub(super) type Key = (usize, u16, u32, u32);
const NONE: u32 = u32::MAX;

/// A kept binding and what binding it did.
#[derive(Clone)]
struct Entry {
    bound: BExpr,
    nodes: usize,
    /// How much deeper than its top binding went, in nodes and in names.
    depth: usize,
    names: usize,
    fold_used: u64,
    /// The issues met, in order, each whether or not it was new then.
    issues: Vec<Issue>,
    expanded: Vec<NameId>,
}

/// A part for one cell alone met by a binder: whether it was met again,
/// and its binding once kept.
pub(super) struct Met {
    key: Key,
    again: bool,
    entry: Option<Entry>,
}

impl Binder<'_> {
    /// How many parts for this cell alone the binder keeps.
    #[cfg(test)]
    pub(super) fn kept_for_cell(&self) -> usize {
        self.met.iter().filter(|m| m.entry.is_some()).count()
    }
}

/// Where a binder stood when it started binding a part to keep.
pub(super) struct Mark {
    key: Key,
    nodes: usize,
    depth: usize,
    names: usize,
    fold_left: u64,
    limits: usize,
    tried: usize,
    expanded: usize,
    peaks: (usize, usize),
}

impl Binder<'_> {
    /// The name written `n` in a formula, resolved once per place it is
    /// written in a name's formula (held by the scope, so the place stays
    /// its own while binding; a cell's formula may be freed after it).
    pub(super) fn name_index(&self, n: &str) -> Option<NameId> {
        let (Some(memo), Some(_)) = (&self.memo, self.stack.last()) else { return self.scope.name_index(n) };
        let key = (n.as_ptr() as usize, n.len());
        let mut table = memo.0.borrow_mut();
        *table.names.entry(key).or_insert_with(|| self.scope.name_index(n))
    }

    /// The key of `e` when its binding may be shared: a non-leaf node of a
    /// name's formula, bound for any cell (a name's `top`) or for cells
    /// that agree on at most one of row and column.
    pub(super) fn shared_key(&self, e: &Expr, top: bool) -> Option<Key> {
        let (memo, &name) = (self.memo.as_ref()?, self.stack.last()?);
        if matches!(e.kind, ExprKind::Ref(_) | ExprKind::Number(_) | ExprKind::Text(_) | ExprKind::Bool(_)) {
            return None;
        }
        let dep = memo.0.borrow_mut().analysis.node(self.scope, name, e);
        let both = dep.has(Dep::ROW) && dep.has(Dep::COL);
        if dep.has(Dep::APART) || (dep.has(Dep::CALLER) && self.block.is_some()) || (both && !top) {
            return None;
        }
        let row = if dep.has(Dep::ROW) { self.cell.row } else { NONE };
        let col = if dep.has(Dep::COL) { self.cell.col } else { NONE };
        let sheet = if dep == Dep::NONE { u16::MAX } else { self.cell.sheet };
        Some((e as *const Expr as usize, sheet, row, col))
    }

    /// Notes that binding meets the part under `key`. A part for one cell
    /// alone (its row and its column) is kept by the binder, not in the
    /// memo (no other cell asks for it), and only when it binds to a
    /// constant or the second time this cell's formula meets it (see
    /// [`Binder::keep`]), as most such parts are met once and copying them
    /// would cost more than it saves.
    pub(super) fn meet(&mut self, key: Key) {
        if !for_one_cell(&key) {
            return;
        }
        match self.met.iter_mut().find(|m| m.key == key) {
            Some(m) => m.again = true,
            None => self.met.push(Met { key, again: false, entry: None }),
        }
    }

    /// The kept binding for `key`, its work replayed, if it binds here as
    /// it did then: no limit is met on the way.
    pub(super) fn reuse(&mut self, key: &Key) -> Option<BExpr> {
        if for_one_cell(key) {
            let at = self.met.iter().position(|m| m.key == *key)?;
            let entry = self.met[at].entry.take()?;
            let bound = self.replay(&entry);
            self.met[at].entry = Some(entry);
            return bound;
        }
        let memo = self.memo.clone()?;
        let table = memo.0.borrow();
        self.replay(table.kept.get(key)?)
    }

    /// The key of the part `e` (under `key`, for one cell alone) by what
    /// its moving parts bound to for this cell, once each is kept; its
    /// buffer is one the memo had spare (given back by [`Binder::recycle`]).
    fn parts_key(&self, e: &Expr, key: &Key) -> Option<PartsKey> {
        let memo = self.memo.as_ref()?;
        let mut table = memo.0.borrow_mut();
        let table = &mut *table;
        // `e` was analysed when its `key` was made (`Binder::shared_key`).
        let moving = table.analysis.moving_parts(self.scope, e)?;
        let mut parts = table.spare.pop().unwrap_or_default();
        let mut h = FxHasher::default();
        for &(at, dep) in moving.iter() {
            let row = if dep.has(Dep::ROW) { self.cell.row } else { NONE };
            let col = if dep.has(Dep::COL) { self.cell.col } else { NONE };
            let part =
                table.kept.get(&(at, self.cell.sheet, row, col)).and_then(|k| Some((Part::of(&k.bound)?, k.fold_used)));
            let Some(part) = part else {
                parts.clear();
                table.spare.push(parts);
                return None;
            };
            part.hash(&mut h);
            parts.push(part);
        }
        Some(PartsKey { node: key.0, sheet: key.1, hash: h.finish(), parts })
    }

    /// Gives the buffer of `parts` back to the memo.
    pub(super) fn recycle(&self, parts: Parts) {
        if let (Parts::Key(mut key), Some(memo)) = (parts, &self.memo) {
            key.parts.clear();
            memo.0.borrow_mut().spare.push(key.parts);
        }
    }

    /// How part `e` (under `key`) may be told by its moving parts (see
    /// [`Binder::parts_key`]) for this cell.
    pub(super) fn parts_of(&self, e: &Expr, key: &Key) -> Parts {
        let Some(memo) = &self.memo else { return Parts::Never };
        if !for_one_cell(key) {
            return Parts::Never;
        }
        // A part told by its moving parts that no other cell has shared
        // after many tries (each cell's own digit) is not tried again.
        let (hits, misses) = memo.0.borrow().tries.get(&key.0).copied().unwrap_or_default();
        if hits == 0 && misses >= GIVE_UP {
            return Parts::Never;
        }
        self.parts_key(e, key).map_or(Parts::Later, Parts::Key)
    }

    /// The binding kept for another cell where the moving parts of a part
    /// bound as they do here (`parts`), its work replayed, as [`Binder::reuse`].
    pub(super) fn reuse_parts(&mut self, parts: &Parts) -> Option<BExpr> {
        let Parts::Key(key) = parts else { return None };
        let memo = self.memo.clone()?;
        let table = memo.0.borrow();
        let entry = table.by_parts.get(&key.at()).filter(|(parts, _)| *parts == key.parts);
        let bound = entry.and_then(|(_, entry)| self.replay(entry));
        drop(table);
        let mut table = memo.0.borrow_mut();
        let tries = table.tries.entry(key.node).or_default();
        if bound.is_some() {
            tries.0 += 1
        } else {
            tries.1 += 1
        }
        bound
    }

    /// `entry`'s binding, its work replayed, if it binds here as it did
    /// then: no limit is met on the way.
    fn replay(&mut self, entry: &Entry) -> Option<BExpr> {
        let fits = self.depth + entry.depth <= MAX_BOUND_DEPTH
            && self.nodes + entry.nodes <= MAX_BOUND_NODES
            && (entry.names == 0 || self.stack.len() + entry.names <= MAX_NAME_DEPTH)
            && self.fold_left > entry.fold_used;
        if !fits {
            return None;
        }
        self.nodes += entry.nodes;
        self.fold_left -= entry.fold_used;
        self.peak_depth = self.peak_depth.max(self.depth + entry.depth);
        if entry.names > 0 {
            self.peak_names = self.peak_names.max(self.stack.len() + entry.names);
        }
        entry.issues.iter().for_each(|i| self.note(i.clone()));
        if self.replay_names {
            self.expanded.extend_from_slice(&entry.expanded);
        }
        Some(entry.bound.clone())
    }

    /// Starts recording the binding of the part under `key`.
    pub(super) fn mark(&mut self, key: Key) -> Mark {
        let peaks = (self.peak_depth, self.peak_names);
        (self.peak_depth, self.peak_names) = (self.depth, self.stack.len());
        Mark {
            key,
            nodes: self.nodes,
            depth: self.depth,
            names: self.stack.len(),
            fold_left: self.fold_left,
            limits: self.limits,
            tried: self.tried.len(),
            expanded: self.expanded.len(),
            peaks,
        }
    }

    /// Keeps `bound`, the binding recorded since `m`, unless it met a limit
    /// (or spent the folding budget to its end); gives it back, held by
    /// reference ([`BExpr::Kept`]) once kept, unless it is a constant: its
    /// reuses then copy nothing.
    pub(super) fn keep(&mut self, m: Mark, bound: BExpr, e: &Expr, parts: Parts) -> BExpr {
        let (depth, names) = (self.peak_depth - m.depth, self.peak_names - m.names);
        self.peak_depth = self.peak_depth.max(m.peaks.0);
        self.peak_names = self.peak_names.max(m.peaks.1);
        if self.limits != m.limits || self.fold_left == 0 {
            return bound;
        }
        let Some(memo) = self.memo.clone() else { return bound };
        // A part for one cell alone is kept for the other cells where its
        // moving parts bind the same, and by this cell when met again.
        let parts = match parts {
            Parts::Never => None,
            Parts::Later => self.parts_key(e, &m.key),
            Parts::Key(key) => Some(key),
        };
        let one_cell = match self.met.iter().position(|met| met.key == m.key) {
            Some(at) if self.met[at].again || matches!(bound, BExpr::Const(_)) => Some(Some(at)),
            Some(_) => None,
            None => Some(None),
        };
        if one_cell.is_none() && parts.is_none() {
            return bound;
        }
        let bound = match bound {
            b @ (BExpr::Const(_) | BExpr::Kept(_)) => b,
            b => memo.0.borrow_mut().canon.one(b),
        };
        let entry = Entry {
            bound: bound.clone(),
            nodes: self.nodes - m.nodes,
            depth,
            names,
            fold_used: m.fold_left - self.fold_left,
            issues: self.tried[m.tried..].to_vec(),
            expanded: if self.replay_names { self.expanded[m.expanded..].to_vec() } else { Vec::new() },
        };
        if let Some(key) = parts {
            memo.0.borrow_mut().by_parts.insert(key.at(), (key.parts, entry.clone()));
        }
        match one_cell {
            Some(Some(at)) => self.met[at].entry = Some(entry),
            Some(None) => _ = memo.0.borrow_mut().kept.insert(m.key, entry),
            None => {}
        }
        bound
    }
}

/// Whether a part under `key` depends on both the row and the column of
/// the calculating cell: it binds as it does for that one cell alone.
fn for_one_cell(key: &Key) -> bool {
    key.2 != NONE && key.3 != NONE
}
