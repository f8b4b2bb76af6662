//! An input's check formula: the workbook's word on whether a puzzle
//! filled into the input is solved (`check: "=sudoku_solved"` in the RON
//! file). It is bound against the program when the session is made (an
//! unknown name refuses the workbook, located in the check's text) and
//! evaluated after a run in the context of the input's first cell, as
//! `dataflow eval` evaluates a formula: it adds no cell, so the workbook's
//! recalculation is the same with or without it.

use super::Session;
use crate::address::CellAddr;
use crate::diagnostic::Diagnostic;
use crate::engine::Program;
use crate::eval::bind::{Binder, Site};
use crate::eval::{BExpr, Eval};
use crate::value::Value;
use crate::workbook::{InputDef, Workbook};

/// The located problems of every input's check bound against `program`.
pub(super) fn check_issues(wb: &Workbook, program: &Program) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for input in &wb.inputs {
        let Some(check) = &input.check else { continue };
        let cell = input.area.top_left();
        let mut binder = Binder::new(program.scope(), cell);
        binder.bind_formula(&check.expr, cell);
        for issue in binder.issues.iter().filter(|i| matches!(i.site, Site::Formula)) {
            let d = check.diagnostic(issue.span.clone(), issue.message_in(&check.text), "here");
            out.push(d.with_note(format!("in the check of input `{}`", input.name)));
        }
    }
    out
}

/// An input's check bound against a session's program, to evaluate after
/// every puzzle without binding it again (see [`Session::bound_check`]).
#[derive(Clone, Debug)]
pub struct BoundCheck {
    expr: BExpr,
    cell: CellAddr,
}

impl Session {
    /// What the check of the input `name` gives now (None when the input
    /// declares no check, or there is no such input).
    pub fn check(&self, name: &str) -> Option<Value> {
        self.bound_check(name).map(|c| self.run_check(&c))
    }

    /// The check of the input `name`, bound (None without one): valid for
    /// every session over the same program.
    pub fn bound_check(&self, name: &str) -> Option<BoundCheck> {
        let input: &InputDef = self.workbook.input(name)?;
        let formula = input.check.as_ref()?;
        let cell = input.area.top_left();
        let expr = Binder::new(self.engine.program().scope(), cell).bind_formula(&formula.expr, cell);
        Some(BoundCheck { expr, cell })
    }

    /// What a bound check gives against the current values, one value as
    /// its cell would show it.
    pub fn run_check(&self, check: &BoundCheck) -> Value {
        let program = self.engine.program();
        let _calendar = self.engine.settings.calendar().enter();
        let mut ev = Eval::new(self.engine.grid(), check.cell).with_scope(program.scope()).with_formulas(&**program);
        ev.eval_cell(&check.expr)
    }
}
