//! The board workbooks against the binding budgets: what their bound
//! formulas hold (after folding, before sharing) leaves ample room under
//! `MAX_TOTAL_BOUND_NODES`, so a bigger board or a strategy fits.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::engine::program::held;
use dataflow::engine::{Program, Sharing};
use dataflow::eval::bind::MAX_TOTAL_BOUND_NODES;
use dataflow::eval::deps::dependencies;
use dataflow::ids::FormulaId;
use std::path::Path;

/// The nodes the formulas of `program` hold, a block's formula once.
fn total(program: &Program) -> usize {
    let cells = program.cells().iter().enumerate();
    let own = cells.filter(|(_, c)| c.block.is_none_or(|b| program.block(b).top_left() == c.addr));
    own.map(|(f, _)| held(program.formula(FormulaId::at(f)))).sum()
}

#[test]
fn every_board_holds_at_most_half_the_node_budget() {
    for name in ["sudoku", "sudoku9", "hyper", "sudoku16", "sudoku25", "sudokux", "jigsaw"] {
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

/// A part kept for many cells (`BExpr::Kept`) is walked once for the
/// dependencies of all of them: each cell still reads exactly what a walk
/// of its own whole formula finds (with `--with all`, so the strategy
/// boards' formulas are there too).
#[test]
fn each_cell_reads_what_its_whole_formula_reads() {
    for name in ["sudoku", "hyper", "sudoku16"] {
        let path = format!("workbooks/{name}.ron");
        let wb = dataflow::workbook::load_with(Path::new(&path), &["all".to_string()]).unwrap();
        let inputs = dataflow::session::inputs(&wb).unwrap();
        let (program, _) = Program::build_with(&inputs, Sharing::Off);
        let sheets = inputs.sheets.len();
        for (f, c) in program.cells().iter().enumerate() {
            let (areas, reachable) = dependencies(program.formula(FormulaId::at(f)), sheets);
            let g = program.graph();
            assert_eq!(
                (g.reads_of(FormulaId::at(f)).collect::<Vec<_>>(), g.reachable(FormulaId::at(f))),
                (areas, reachable.as_slice()),
                "{name}: {}",
                program.cell_name(c.addr)
            );
        }
    }
}
