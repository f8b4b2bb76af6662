//! The formula each cell was entered with, for FORMULATEXT and ISFORMULA:
//! the tree of each workbook entry (a formula over a range is one entry)
//! with the cell it was written for, found through a formula cell's
//! `origin`. The text is the canonical one (`parse::print`: Excel's own
//! form, redundant parentheses and spaces dropped), each relative
//! reference moved to the asking cell, as Excel shows a copied formula; an
//! array formula is shown in braces. Kept per entry, so a range formula
//! over 810 cells holds one tree; the trees are the ones the binder
//! bound, shared (`Arc`), not copies.

use super::{CellInput, Inputs, Program};
use crate::address::CellAddr;
use crate::ast::Expr;
use crate::eval::Formulas;
use crate::workbook::relative::moved_to;
use std::sync::Arc;

/// One entry's formula: its tree, the cell its relative references are
/// written for, and whether it is an array formula (entered over a block).
#[derive(Clone, Debug)]
struct Source {
    expr: Arc<Expr>,
    anchor: CellAddr,
    array: bool,
}

/// The formulas of a program's cells, by the entry they came from.
#[derive(Clone, Debug, Default)]
pub struct Sources(Arc<Vec<Option<Source>>>);

impl Sources {
    /// The formula of every entry `model`'s cells came from.
    pub fn of(model: &Inputs) -> Sources {
        let mut by_entry: Vec<Option<Source>> = Vec::new();
        for (addr, input) in &model.cells {
            let (origin, source) = match input {
                CellInput::Constant(_) => continue,
                CellInput::Dynamic { expr, origin } => (origin, (expr, *addr, false)),
                CellInput::Formula { expr, anchor, origin } => (origin, (expr, *anchor, false)),
                CellInput::Array { expr, block, origin } => (origin, (expr, block.top_left(), true)),
            };
            let i = origin.index();
            if by_entry.len() <= i {
                by_entry.resize(i + 1, None);
            }
            if by_entry[i].is_none() {
                let (expr, anchor, array) = source;
                by_entry[i] = Some(Source { expr: expr.clone(), anchor, array });
            }
        }
        Sources(Arc::new(by_entry))
    }
}

impl Formulas for Program {
    fn calls_subtotal(&self, cell: CellAddr) -> bool {
        self.subtotals.0.get_or_init(|| super::nested::find(self)).contains(&cell)
    }

    fn formula_text(&self, cell: CellAddr) -> Option<String> {
        let f = self.formula_at(cell)?;
        let source = self.sources.0.get(self.cell(f).origin.index())?.as_ref()?;
        if source.array {
            return Some(format!("{{={}}}", source.expr));
        }
        Some(format!("={}", moved_to(&source.expr, source.anchor, cell)))
    }
}
