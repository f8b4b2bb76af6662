//! Binding: turns a parsed formula into a [`BExpr`] for one calculating
//! cell. Relative references are resolved against the formula's anchor (the
//! cell it was entered in, or a name's anchor) and wrap around the sheet
//! edges; names are inlined (each evaluated as an array formula) with their
//! own anchors; LET variables become slots; unknown names and functions,
//! wrong argument counts and name loops are recorded as [`Issue`]s and bind
//! to error values. Every subtree that reads no cell is folded to a
//! constant, so `INDEX(board, ROW(A1), 1)` in a name becomes a fixed
//! reference once per cell. Functions are handled by their contract
//! ([`FnSpec`]): its argument counts, scoped (LET) and array arguments,
//! and volatility (never folded).

mod canon;
mod fold;
mod lambda;
mod loops;
mod memo;
mod position;
mod scope;

use super::BExpr;
use crate::address::{Area, CellAddr, MAX_COLS, MAX_ROWS};
use crate::ast::{Axis, Expr, ExprKind, RefExpr, RefKind, Span, TableRef, UnaryOp};
use crate::functions::{Arg, FnSpec, Intrinsic};
use crate::grid::Grid;
use crate::ids::NameId;
use crate::value::{Array, ErrorKind, Value};
use std::sync::Arc;

pub(crate) use canon::{hash_value, same_value};
use fold::function;
pub use memo::Memo;
pub use scope::{Issue, NameDef, Scope, Site};
use scope::{UNKNOWN_FUNCTION, UNKNOWN_NAME};

/// Names inlined inside one another at most this deep.
pub const MAX_NAME_DEPTH: usize = 64;
/// A bound formula (with its names expanded) may hold at most this many nodes.
pub const MAX_BOUND_NODES: usize = 100_000;
/// A bound formula may be at most this deep once names are expanded.
pub const MAX_BOUND_DEPTH: usize = 400;
/// All the formulas of a workbook, bound cell by cell with their names
/// expanded, may hold at most this many nodes together (what the bound
/// formulas hold, after folding): binding stops at the formula that passes
/// it, so memory stays bounded.
pub const MAX_TOTAL_BOUND_NODES: usize = 1 << 22;
/// The binding of all the formulas of a workbook may go through at most
/// this many nodes (counted as [`MAX_BOUND_NODES`] counts them, before
/// folding): binding stops at the formula that passes it, so binding time
/// stays bounded even where everything folds away.
pub const MAX_TOTAL_BIND_WORK: usize = 1 << 25;
/// Folding (computing at binding a subformula that reads no cell) may
/// consume and produce at most this many array elements over the whole
/// workbook. Past it, such subformulas are left to the recalculation, so
/// loading and `check` stay quick whatever the formulas compute.
pub const MAX_FOLD_CELLS: u64 = 1 << 22;

/// Binds one formula for one cell.
pub struct Binder<'s> {
    scope: &'s Scope,
    cell: CellAddr,
    /// Names being expanded, innermost last (for loop detection).
    stack: Vec<NameId>,
    /// LET variables in scope: upper-case name and slot.
    locals: Vec<(String, usize)>,
    /// The LET variables in scope that hold a LAMBDA: slot and function.
    lambdas: Vec<(usize, BExpr)>,
    next_slot: usize,
    array_depth: usize,
    /// The block of a block array formula being bound.
    block: Option<Area>,
    depth: usize,
    nodes: usize,
    /// Array elements folding may still consume and produce (see [`MAX_FOLD_CELLS`]).
    fold_left: u64,
    empty: Grid,
    pub issues: Vec<Issue>,
    /// The names expanded so far (possibly repeated); with
    /// [`Binder::new_names_only`], only those not expanded by a reused binding.
    pub expanded: Vec<NameId>,
    /// Whether a reused binding adds the names it expanded to `expanded`.
    replay_names: bool,
    /// The bindings shared with the other binders of the workbook, if any.
    memo: Option<Memo>,
    /// Every issue met, new or not, in order (what a shared binding replays).
    tried: Vec<Issue>,
    /// How many times a limit was met (a binding that met one is not shared).
    limits: usize,
    /// The deepest nesting of nodes and of names reached (see `memo`).
    peak_depth: usize,
    peak_names: usize,
    /// The parts depending on this cell's row and column met so far, each
    /// with its binding once kept (see `memo`).
    met: Vec<memo::Met>,
}

impl<'s> Binder<'s> {
    pub fn new(scope: &'s Scope, cell: CellAddr) -> Self {
        Binder {
            scope,
            cell,
            stack: Vec::new(),
            locals: Vec::new(),
            lambdas: Vec::new(),
            next_slot: 0,
            array_depth: 0,
            block: None,
            depth: 0,
            nodes: 0,
            fold_left: MAX_FOLD_CELLS,
            empty: Grid::new(scope.sheets.len()),
            issues: Vec::new(),
            expanded: Vec::new(),
            replay_names: true,
            memo: None,
            tried: Vec::new(),
            limits: 0,
            peak_depth: 0,
            peak_names: 0,
            met: Vec::new(),
        }
    }

    /// Shares bindings with the other binders given `memo` (all binding
    /// formulas of the same scope): a part of a name bound the same way
    /// for this cell as for an earlier one is reused, not bound again.
    pub fn sharing(mut self, memo: &Memo) -> Self {
        self.memo = Some(memo.clone());
        self
    }

    /// Binds a cell formula entered at `anchor` (the cell, or a range's top-left cell).
    pub fn bind_formula(&mut self, e: &Expr, anchor: CellAddr) -> BExpr {
        let bound = self.bind_formula_kept(e, anchor);
        self.plain(bound)
    }

    /// [`Binder::bind_formula`], the parts shared with other binders held
    /// by reference ([`BExpr::Kept`], see [`unkept`]): for `Program::build`,
    /// whose sharing pass replaces them without copying them.
    pub fn bind_formula_kept(&mut self, e: &Expr, anchor: CellAddr) -> BExpr {
        self.bind(e, anchor)
    }

    /// Binds an array formula entered over `block` (Ctrl+Shift+Enter): one
    /// bound tree for the whole block, relative references read from its
    /// top-left cell, evaluated in array mode (see `Eval::in_block`).
    pub fn bind_block(&mut self, e: &Expr, block: Area) -> BExpr {
        let bound = self.bind_block_kept(e, block);
        self.plain(bound)
    }

    /// [`Binder::bind_block`] with kept parts, as [`Binder::bind_formula_kept`].
    pub fn bind_block_kept(&mut self, e: &Expr, block: Area) -> BExpr {
        (self.cell, self.block) = (block.top_left(), Some(block));
        self.array_depth += 1;
        let bound = self.bind(e, block.top_left());
        self.array_depth -= 1;
        bound
    }

    /// `bound` without kept parts (only a binder sharing a memo keeps any).
    fn plain(&self, bound: BExpr) -> BExpr {
        if self.memo.is_some() { unkept(bound) } else { bound }
    }

    /// Lists in `expanded` only the names this binder expands itself, not
    /// those a reused binding expanded: those were listed by the binder
    /// that bound it first. For `Program::build`, which only wants to know
    /// which names some formula uses; every binder sharing the memo must
    /// do the same (the bindings kept list no names).
    pub fn new_names_only(mut self) -> Self {
        self.replay_names = false;
        self
    }

    /// Lets folding consume and produce at most `cells` more array elements.
    pub fn folding_at_most(mut self, cells: u64) -> Self {
        self.fold_left = cells;
        self
    }

    /// The array elements folding has left to this binder.
    pub fn fold_left(&self) -> u64 {
        self.fold_left
    }

    /// The nodes bound so far, names expanded (see [`MAX_BOUND_NODES`]).
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// Binds a name as used from this binder's cell.
    pub fn bind_name(&mut self, index: NameId) -> BExpr {
        let bound = self.expand_name(index, 0..0);
        self.plain(bound)
    }

    fn site(&self) -> Site {
        self.stack.last().map_or(Site::Formula, |&i| Site::Name(i))
    }

    fn issue(&mut self, span: &Span, message: String) {
        self.note(Issue { site: self.site(), span: span.clone(), message });
    }

    /// Records an issue met (once in `issues`).
    fn note(&mut self, issue: Issue) {
        if !self.issues.contains(&issue) {
            self.issues.push(issue.clone());
        }
        self.tried.push(issue);
    }

    fn bind(&mut self, e: &Expr, anchor: CellAddr) -> BExpr {
        let key = self.shared_key(e, false);
        self.bind_keyed(e, anchor, key)
    }

    /// Binds `e`, reusing or keeping its binding under `key` when given.
    fn bind_keyed(&mut self, e: &Expr, anchor: CellAddr, key: Option<memo::Key>) -> BExpr {
        let Some(key) = key else { return self.bind_here(e, anchor) };
        if let Some(b) = self.reuse(&key) {
            return b;
        }
        let parts = self.parts_of(e, &key);
        if let Some(b) = self.reuse_parts(&parts) {
            self.recycle(parts);
            return b;
        }
        self.meet(key);
        let mark = self.mark(key);
        let b = self.bind_here(e, anchor);
        self.keep(mark, b, e, parts)
    }

    fn bind_here(&mut self, e: &Expr, anchor: CellAddr) -> BExpr {
        self.nodes += 1;
        self.peak_depth = self.peak_depth.max(self.depth + 1);
        if self.depth >= MAX_BOUND_DEPTH || self.nodes > MAX_BOUND_NODES {
            self.limits += 1;
            let what = if self.depth >= MAX_BOUND_DEPTH { "nested deeper than" } else { "larger than" };
            let limit = if self.depth >= MAX_BOUND_DEPTH { MAX_BOUND_DEPTH } else { MAX_BOUND_NODES };
            let message = format!("formula with its names expanded is {what} {limit}");
            // Once per formula: every node past the budget would say the same.
            if !self.issues.iter().any(|i| i.message == message) {
                self.issue(&e.span, message);
            }
            return BExpr::Const(Value::Error(ErrorKind::Num));
        }
        self.depth += 1;
        let b = self.bind_inner(e, anchor);
        self.depth -= 1;
        b
    }

    fn bind_inner(&mut self, e: &Expr, anchor: CellAddr) -> BExpr {
        match &e.kind {
            ExprKind::Number(n) => BExpr::Const(Value::num(*n)),
            ExprKind::Text(s) => BExpr::Const(Value::text(s)),
            ExprKind::Bool(b) => BExpr::Const(Value::Bool(*b)),
            ExprKind::Error(k) => BExpr::Const(Value::Error(*k)),
            // Excel reads an omitted argument as 0, "" or FALSE, as the
            // function needs: what an empty value coerces to.
            ExprKind::Missing => BExpr::Const(Value::Empty),
            ExprKind::Array(rows) => {
                let cols = rows.first().map_or(0, Vec::len);
                let data = rows.iter().flatten().cloned().collect();
                BExpr::Const(Value::Array(Arc::new(Array::new(rows.len(), cols, data))))
            }
            ExprKind::Ref(r) => BExpr::Const(self.reference(r, anchor, &e.span)),
            ExprKind::Table(t) => BExpr::Const(self.table_ref(t, &e.span)),
            ExprKind::Name(n) => self.name(n, &e.span),
            ExprKind::Call { name, args } => self.call(name, args, anchor, &e.span),
            // `A1:.E10` is `TRIMRANGE(A1:E10, 2, 2)`.
            ExprKind::Unary { op: UnaryOp::Trim(t), expr } => {
                let x = self.bind(expr, anchor);
                let n = BExpr::Const(Value::Number(f64::from(*t as u8)));
                let args = Box::new([x, n.clone(), n]);
                self.fold(BExpr::Call(crate::functions::lookup::TRIMRANGE, args))
            }
            ExprKind::Unary { op, expr } => {
                let x = self.bind(expr, anchor);
                // `A1#` and `@x` are bound as the calls they stand for.
                match crate::functions::operator(*op) {
                    Some(f) => self.fold(BExpr::Call(f, Box::new([x]))),
                    None => self.fold(BExpr::Unary(*op, Box::new(x))),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let (l, r) = (self.bind(lhs, anchor), self.bind(rhs, anchor));
                self.fold(BExpr::binary(*op, l, r))
            }
        }
    }

    /// A structured reference for the calculating cell: the area it names,
    /// or the error Excel shows (an unknown table or column is an issue too).
    fn table_ref(&mut self, t: &TableRef, span: &Span) -> Value {
        let found = match &t.table {
            Some(name) => crate::table::find(&self.scope.tables, name),
            None => crate::table::containing(&self.scope.tables, self.cell),
        };
        let Some(table) = found else {
            let message = match &t.table {
                Some(name) => format!("unknown table `{name}`"),
                None => format!("`{t}` names no table: the cell is in none"),
            };
            self.issue(span, message);
            return Value::Error(ErrorKind::Ref);
        };
        match table.resolve(t, self.cell) {
            Ok(area) => Value::Ref(area),
            Err(ErrorKind::Ref) => {
                let missing = t.columns.iter().flat_map(|(a, b)| [a, b]).find(|c| table.column(c).is_none());
                let message = match missing {
                    Some(c) => format!("table `{}` has no column `{c}`", table.name),
                    None => format!("table `{}` has no such rows: `{t}`", table.name),
                };
                self.issue(span, message);
                Value::Error(ErrorKind::Ref)
            }
            Err(k) => Value::Error(k),
        }
    }

    fn reference(&mut self, r: &RefExpr, anchor: CellAddr, span: &Span) -> Value {
        let sheet = match &r.sheet {
            None => anchor.sheet,
            Some(s) => match self.scope.sheets.find(s) {
                Some(i) => i,
                None => {
                    self.issue(span, format!("unknown sheet `{s}`"));
                    return Value::Error(ErrorKind::Ref);
                }
            },
        };
        let row = |a: Axis| shift(a, anchor.row, self.cell.row, MAX_ROWS);
        let col = |a: Axis| shift(a, anchor.col, self.cell.col, MAX_COLS);
        let area = match r.kind {
            RefKind::Cell { row: r0, col: c0 } => Area::new(sheet, row(r0), col(c0), row(r0), col(c0)),
            RefKind::Area { r0, c0, r1, c1 } => Area::new(sheet, row(r0), col(c0), row(r1), col(c1)),
            RefKind::Cols { c0, c1 } => Area::new(sheet, 0, col(c0), MAX_ROWS - 1, col(c1)),
            RefKind::Rows { r0, r1 } => Area::new(sheet, row(r0), 0, row(r1), MAX_COLS - 1),
        };
        Value::Ref(area)
    }

    fn name(&mut self, n: &str, span: &Span) -> BExpr {
        if let Some((_, slot)) = self.locals.iter().rev().find(|(l, _)| l.eq_ignore_ascii_case(n)) {
            return self.local(*slot);
        }
        match self.name_index(n) {
            Some(i) => self.expand_name(i, span.clone()),
            // A table's name alone is its data rows (`SUM(Sales)`).
            None if crate::table::find(&self.scope.tables, n).is_some() => {
                let whole = TableRef { table: Some(n.to_string()), rows: Default::default(), columns: None };
                BExpr::Const(self.table_ref(&whole, span))
            }
            None => {
                self.issue(span, format!("{UNKNOWN_NAME}{n}`"));
                BExpr::Const(Value::Error(ErrorKind::Name))
            }
        }
    }

    fn expand_name(&mut self, i: NameId, span: Span) -> BExpr {
        // Following a loop of names: reported once, as the loop (see `Scope::name_loops`).
        let in_loop = self.scope.in_loop[i.index()];
        if let Some(l) = in_loop
            && self.stack.last().is_some_and(|top| self.scope.in_loop[top.index()] == in_loop)
        {
            self.note(self.scope.loop_issues[l].clone());
            return BExpr::Const(Value::Error(ErrorKind::Name));
        }
        self.peak_names = self.peak_names.max(self.stack.len() + 1);
        if self.stack.len() >= MAX_NAME_DEPTH {
            self.limits += 1;
            self.issue(&span, format!("names nested more than {MAX_NAME_DEPTH} deep"));
            return BExpr::Const(Value::Error(ErrorKind::Name));
        }
        self.expanded.push(i);
        let scope = self.scope;
        let (expr, anchor) = (&scope.names[i.index()].expr, scope.names[i.index()].anchor);
        // LET variables do not reach into a name's formula.
        let locals = std::mem::take(&mut self.locals);
        self.stack.push(i);
        self.array_depth += 1;
        let b = self.bind_keyed(expr, anchor, self.shared_key(expr, true));
        self.array_depth -= 1;
        self.stack.pop();
        self.locals = locals;
        match b {
            c @ BExpr::Const(_) => c,
            b => BExpr::ArrayMode(Box::new(b)),
        }
    }

    fn call(&mut self, name: &str, args: &[Expr], anchor: CellAddr, span: &Span) -> BExpr {
        let Some(spec) = function(name) else { return self.call_value(name, args, anchor, span) };
        if let Some(message) = spec.arity_error(args.len()) {
            self.issue(span, message);
            return BExpr::Const(Value::Error(ErrorKind::Value));
        }
        if spec.intrinsic == Some(Intrinsic::Lambda) {
            return self.lambda(spec, args, anchor);
        }
        if spec.is_scoped() {
            return self.let_call(spec, args, anchor);
        }
        let mut bound = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            if let Some(f) = self.function_name(spec, i, a) {
                bound.push(f);
                continue;
            }
            // An argument evaluated as an array formula in any cell
            // (SUMPRODUCT's, and INDEX's base when it is computed) is
            // folded as inside a name.
            let array = spec.arg(i) == Arg::Array || (i == 0 && spec.intrinsic == Some(Intrinsic::Index));
            self.array_depth += array as usize;
            bound.push(self.bind(a, anchor));
            self.array_depth -= array as usize;
        }
        self.fold(BExpr::Call(spec, bound.into_boxed_slice()))
    }

    /// A scoped call, `LET(x, v, [y, w, ...], body)`: variables become slots
    /// in scope for the later arguments.
    fn let_call(&mut self, spec: &'static FnSpec, args: &[Expr], anchor: CellAddr) -> BExpr {
        let scope_len = self.locals.len();
        let mut bound = Vec::with_capacity(args.len());
        let (pairs, body) = args.split_at(args.len() - 1);
        for pair in pairs.chunks(2) {
            let slot = self.next_slot;
            self.next_slot += 1;
            match (&pair[0].kind, pair.get(1)) {
                (ExprKind::Name(n), Some(v)) => {
                    bound.push(BExpr::Local(slot));
                    let v = self.bind(v, anchor);
                    self.note_local(slot, &v);
                    bound.push(v);
                    self.locals.push((n.to_uppercase(), slot));
                }
                (_, Some(_)) => {
                    self.issue(&pair[0].span, format!("{} expects a variable name here", spec.name));
                    self.locals.truncate(scope_len);
                    return BExpr::Const(Value::Error(ErrorKind::Value));
                }
                (_, None) => {
                    self.issue(&pair[0].span, format!("{} needs a value after each variable name", spec.name));
                    self.locals.truncate(scope_len);
                    return BExpr::Const(Value::Error(ErrorKind::Value));
                }
            }
        }
        bound.push(self.bind(&body[0], anchor));
        self.locals.truncate(scope_len);
        BExpr::Call(spec, bound.into_boxed_slice())
    }
}

/// `e` with every kept part ([`BExpr::Kept`]) copied in place: the same
/// formula, held by no one else.
pub fn unkept(e: BExpr) -> BExpr {
    match e {
        BExpr::Kept(x) => unkept(Arc::unwrap_or_clone(x)),
        BExpr::Unary(op, x) => BExpr::Unary(op, Box::new(unkept(*x))),
        BExpr::Binary(op, lr) => {
            let [l, r] = *lr;
            BExpr::binary(op, unkept(l), unkept(r))
        }
        BExpr::Call(f, args) => BExpr::Call(f, args.into_iter().map(unkept).collect()),
        BExpr::ArrayMode(x) => BExpr::ArrayMode(Box::new(unkept(*x))),
        e @ (BExpr::Const(_) | BExpr::Local(_) | BExpr::Shared(_)) => e,
    }
}

/// Resolves one coordinate: absolute stays, relative moves with the
/// calculating cell and wraps around the sheet edge.
fn shift(a: Axis, anchor: u32, cell: u32, max: u32) -> u32 {
    if a.abs { a.index } else { (a.index as i64 - anchor as i64 + cell as i64).rem_euclid(max as i64) as u32 }
}

#[cfg(test)]
mod tests;
