//! Binding LAMBDA and calls of function values (see `functions::lambda`).
//! `LAMBDA(x, [y], body)` binds its parameters to fresh slots, as LET
//! does its variables, and becomes a function value: the slots' end, the
//! count of required parameters, the parameters and the body. A LET
//! variable whose value is one is replaced by it wherever it is used, so
//! calling it (`f(3)`) or passing it (`MAP(A1:A3, f)`) needs no run-time
//! function values. A workbook name holding a LAMBDA is called by its
//! name (`MyFn(3)`): inlined as other names are, except inside its own
//! expansion, where the call goes by the name's id at run time
//! (recursion). A function's bare name where a function is expected
//! ([`Arg::Function`]) is the function itself, and so is one among the
//! arguments of HSTACK or VSTACK: a vector of functions (GROUPBY's
//! `HSTACK(SUM, AVERAGE)`) is bound as the stack of the functions it
//! names, which GROUPBY and PIVOTBY read as written (elsewhere each such
//! function is an uncalled one, #CALC!).

use super::{Binder, UNKNOWN_FUNCTION, function};
use crate::address::CellAddr;
use crate::ast::{Expr, ExprKind, Span, TableRows};
use crate::eval::BExpr;
use crate::functions::{Arg, FnSpec, Intrinsic, lambda};
use crate::value::{ErrorKind, Value};

impl Binder<'_> {
    /// `LAMBDA(p1, ..., body)`.
    pub(super) fn lambda(&mut self, spec: &'static FnSpec, args: &[Expr], anchor: CellAddr) -> BExpr {
        let Some((body, params)) = args.split_last() else { return BExpr::Const(Value::Error(ErrorKind::Value)) };
        let (scope_len, lambdas_len) = (self.locals.len(), self.lambdas.len());
        let mut slots = Vec::with_capacity(params.len());
        let (mut required, mut optional) = (0, false);
        for p in params {
            let problem = match parameter(p) {
                None => Some("LAMBDA expects a parameter name here"),
                Some((_, false)) if optional => Some("a required LAMBDA parameter cannot follow an optional one"),
                Some((name, opt)) => {
                    optional |= opt;
                    required += usize::from(!opt);
                    self.locals.push((name.to_uppercase(), self.next_slot));
                    slots.push(BExpr::Local(self.next_slot));
                    self.next_slot += 1;
                    None
                }
            };
            if let Some(message) = problem {
                self.issue(&p.span, message.to_string());
                self.locals.truncate(scope_len);
                return BExpr::Const(Value::Error(ErrorKind::Value));
            }
        }
        let body = self.bind(body, anchor);
        self.locals.truncate(scope_len);
        self.lambdas.truncate(lambdas_len);
        let mut bound =
            vec![BExpr::Const(Value::Number(self.next_slot as f64)), BExpr::Const(Value::Number(required as f64))];
        bound.extend(slots);
        bound.push(body);
        BExpr::Call(spec, bound.into_boxed_slice())
    }

    /// Notes that LET variable `slot` holds `value` when that is a function.
    pub(super) fn note_local(&mut self, slot: usize, value: &BExpr) {
        if lambda::callable(value).is_some() {
            self.lambdas.push((slot, value.clone()));
        }
    }

    /// What LET variable `slot` stands for: the function it holds, or itself.
    pub(super) fn local(&self, slot: usize) -> BExpr {
        match self.lambdas.iter().rev().find(|(s, _)| *s == slot) {
            Some((_, f)) => f.clone(),
            None => BExpr::Local(slot),
        }
    }

    /// A call of something other than a function: the call suffix
    /// (`name` empty: the callee is the first argument), a LET variable, a
    /// workbook name; else an unknown function.
    pub(super) fn call_value(&mut self, name: &str, args: &[Expr], anchor: CellAddr, span: &Span) -> BExpr {
        if name.is_empty() {
            let Some((callee, rest)) = args.split_first() else { return BExpr::Const(Value::Error(ErrorKind::Value)) };
            let callee = self.bind(callee, anchor);
            return self.apply(callee, rest, anchor);
        }
        if let Some(&(_, slot)) = self.locals.iter().rev().find(|(l, _)| l.eq_ignore_ascii_case(name)) {
            let callee = self.local(slot);
            return self.apply(callee, args, anchor);
        }
        match self.name_index(name) {
            // Inside its own expansion: called by id at run time.
            Some(i) if self.stack.contains(&i) => {
                let mut bound = vec![BExpr::Const(Value::Number(i.index() as f64))];
                bound.extend(args.iter().map(|a| self.bind(a, anchor)));
                BExpr::Call(&lambda::NAMED, bound.into_boxed_slice())
            }
            Some(i) => {
                let callee = self.expand_name(i, span.clone());
                self.apply(callee, args, anchor)
            }
            None => {
                self.issue(span, format!("{UNKNOWN_FUNCTION} `{name}`"));
                BExpr::Const(Value::Error(ErrorKind::Name))
            }
        }
    }

    fn apply(&mut self, callee: BExpr, args: &[Expr], anchor: CellAddr) -> BExpr {
        let mut bound = Vec::with_capacity(args.len() + 1);
        bound.push(callee);
        bound.extend(args.iter().map(|a| self.bind(a, anchor)));
        BExpr::Call(&lambda::APPLY, bound.into_boxed_slice())
    }

    /// Argument `a` of a call to `spec` at position `i`, when it is a
    /// function's bare name where the contract wants a function, or an
    /// element of a function vector (HSTACK or VSTACK), and no variable or
    /// workbook name of that name hides it.
    pub(super) fn function_name(&self, spec: &FnSpec, i: usize, a: &Expr) -> Option<BExpr> {
        let ExprKind::Name(n) = &a.kind else { return None };
        if (spec.arg(i) != Arg::Function && !lambda::stacks_functions(spec))
            || self.locals.iter().any(|(l, _)| l.eq_ignore_ascii_case(n))
            || self.name_index(n).is_some()
        {
            return None;
        }
        let f = function(&n.to_uppercase()).filter(|f| f.intrinsic != Some(Intrinsic::Lambda) && !f.is_scoped())?;
        let uncalled = BExpr::Call(f, Box::new([]));
        Some(BExpr::Call(&lambda::ETA, Box::new([uncalled])))
    }
}

/// A parameter as written: its name, and whether it is optional (`[x]`,
/// which reads as a structured reference to column `x`).
fn parameter(p: &Expr) -> Option<(&str, bool)> {
    match &p.kind {
        ExprKind::Name(n) => Some((n, false)),
        ExprKind::Table(t) if t.table.is_none() && t.rows == TableRows::default() => match &t.columns {
            Some((a, b)) if a == b => Some((a, true)),
            _ => None,
        },
        _ => None,
    }
}
