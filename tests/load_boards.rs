//! The board workbooks against the binding budgets: what their bound
//! formulas hold (after folding, before sharing) leaves ample room under
//! `MAX_TOTAL_BOUND_NODES`, so a bigger board or a strategy fits.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::engine::program::held;
use dataflow::engine::{Program, Sharing};
use dataflow::eval::bind::MAX_TOTAL_BOUND_NODES;
use dataflow::ids::FormulaId;
use std::path::Path;

/// The nodes the formulas of `program` hold, a block's formula once.
fn total(program: &Program) -> usize {
    let cells = program.cells().iter().enumerate();
    let own = cells.filter(|(_, c)| c.block.is_none_or(|b| b.row == 0 && b.col == 0));
    own.map(|(f, _)| held(program.formula(FormulaId::at(f)))).sum()
}

#[test]
fn every_board_holds_at_most_half_the_node_budget() {
    for name in ["sudoku", "sudoku9", "hyper", "sudoku16", "sudoku25"] {
        let wb = dataflow::workbook::load(Path::new(&format!("workbooks/{name}.ron"))).unwrap();
        let inputs = dataflow::session::inputs(&wb).unwrap();
        let (program, issues) = Program::build_with(&inputs, Sharing::Off);
        assert!(issues.is_empty(), "{name}: {issues:?}");
        let nodes = total(&program);
        assert!(nodes <= MAX_TOTAL_BOUND_NODES / 2, "{name}: {nodes} nodes of {MAX_TOTAL_BOUND_NODES}");
        if name == "sudoku25" {
            // 16,250 formula cells: the largest board is the one with the
            // least room, yet it holds less than a fifth of the budget.
            assert!(nodes <= MAX_TOTAL_BOUND_NODES / 5, "{name}: {nodes} nodes");
        }
    }
}
