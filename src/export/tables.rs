//! Tables on export: a structured reference (`Sales[Qty]`, `[@Qty]`, a
//! table's name alone) is written as the plain absolute reference it names
//! from its cell (`Main!$C$3:$C$5`), or as the error it evaluates to. The
//! files then compute what dataflow computed without table parts of their
//! own; `export` warns that the tables became plain references.

use crate::address::{Area, CellAddr};
use crate::ast::{Axis, Expr, ExprKind, RefExpr, RefKind, TableRef};
use crate::sheets::Sheets;
use crate::table::{self, Table};

/// The tables in a workbook and the sheets that name their areas.
pub(super) struct Plain<'w> {
    pub tables: &'w [Table],
    pub sheets: &'w Sheets,
    /// Names the workbook defines: they win over a table's name alone.
    pub names: Vec<String>,
}

impl Plain<'_> {
    /// Rewrites `e`, a formula calculated in `cell`; true when anything
    /// was rewritten.
    pub fn rewrite(&self, e: &mut Expr, cell: CellAddr) -> bool {
        if self.tables.is_empty() {
            return false;
        }
        let whole = |n: &str| TableRef { table: Some(n.to_string()), rows: Default::default(), columns: None };
        let kind = match &mut e.kind {
            ExprKind::Table(t) => Some(self.named(t, cell)),
            ExprKind::Name(n) if table::find(self.tables, n).is_some() && !self.is_name(n) => {
                Some(self.named(&whole(n), cell))
            }
            ExprKind::Call { args, .. } => return args.iter_mut().fold(false, |any, a| self.rewrite(a, cell) | any),
            ExprKind::Unary { expr, .. } => return self.rewrite(expr, cell),
            ExprKind::Binary { lhs, rhs, .. } => return self.rewrite(lhs, cell) | self.rewrite(rhs, cell),
            _ => None,
        };
        kind.map(|k| e.kind = k).is_some()
    }

    fn is_name(&self, n: &str) -> bool {
        self.names.iter().any(|m| m.eq_ignore_ascii_case(n))
    }

    /// What `t` names from `cell`, as the binder resolves it.
    fn named(&self, t: &TableRef, cell: CellAddr) -> ExprKind {
        let found = match &t.table {
            Some(name) => table::find(self.tables, name),
            None => table::containing(self.tables, cell),
        };
        match found.map(|table| table.resolve(t, cell)) {
            Some(Ok(area)) => ExprKind::Ref(self.absolute(area)),
            Some(Err(kind)) => ExprKind::Error(kind),
            None => ExprKind::Error(crate::value::ErrorKind::Ref),
        }
    }

    fn absolute(&self, a: Area) -> RefExpr {
        let at = |index| Axis { index, abs: true };
        let kind = if a.r0 == a.r1 && a.c0 == a.c1 {
            RefKind::Cell { row: at(a.r0), col: at(a.c0) }
        } else {
            RefKind::Area { r0: at(a.r0), c0: at(a.c0), r1: at(a.r1), c1: at(a.c1) }
        };
        RefExpr { sheet: Some(self.sheets.name(a.sheet).to_string()), kind }
    }
}
