//! Loading a workbook holds a bounded number of bytes per formula cell.
//! Issue 31 asks for at most 300 bytes a formula cell: a range formula
//! `A2:A100000 = A1+1` held about 900 bytes a cell at the peak of loading
//! (massif), the most inside `Program::assemble`: the cells' vector grown
//! by doubling, the schedule's components kept as one vector each, every
//! area's readers and every cell's reads and containing areas in vectors
//! of their own, the workbook's input cells kept while the graph was
//! derived, and one kernel per cell (now one for all the cells of the
//! shape), a second adjacency beside the graph's lists (petgraph's nodes
//! and edges), each cell's reads held on the cell as well as in the graph,
//! a hash map from address to cell, three numbers a node in the
//! schedule's walk, and the graph's lists held in place, 24 bytes each,
//! three a cell (now flat: `engine/lists.rs`). A counting allocator
//! measures the most bytes held at once while the session is built and
//! calculated once (as `dataflow check`), against 250 bytes a cell (240
//! measured; the issue asks for 300), so a change that brings any of
//! those back fails.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::counting::{Counting, peak, reset_peak};
use dataflow::address::CellAddr;
use dataflow::engine::CellInput;
use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::Workbook;
use dataflow::workbook::model::Content;
use std::path::Path;
use std::sync::Arc;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Formula cells of the chain.
const CELLS: isize = 99_999;

#[test]
fn a_range_formula_over_100000_cells_loads_in_bounded_memory() {
    let text = format!(r#"Workbook(sheets: ["Main"], cells: {{ "Main!A1": 1, "Main!A2:A{}": "=A1+1" }})"#, CELLS + 1);
    let wb = Workbook::from_str(&text, Path::new("chain.ron"), Path::new(".")).unwrap();
    let before = reset_peak();
    let mut session = Session::new(wb).unwrap();
    session.recalc();
    let per_cell = (peak() - before) / CELLS;
    // Calculated: each cell one more than the one above.
    assert_eq!(session.engine().get(CellAddr::new(0, 99_999, 0)), &Value::Number(100_000.0));
    println!("loading held {per_cell} bytes a formula cell at most");
    assert!(per_cell <= 250, "loading held {per_cell} bytes a formula cell at its peak");
}

/// The engine's inputs hold the workbook's parsed trees, not copies: a
/// chain of one-cell formulas (a RON file written cell by cell) keeps one
/// tree per entry, however many layers hold it.
#[test]
fn the_engines_inputs_share_the_workbooks_formula_trees() {
    let cells: Vec<String> = (2..=20).map(|r| format!(r#""Main!A{r}": "=A{}+1""#, r - 1)).collect();
    let text = format!(r#"Workbook(sheets: ["Main"], cells: {{ "Main!A1": 1, {} }})"#, cells.join(", "));
    let wb = Workbook::from_str(&text, Path::new("chain.ron"), Path::new(".")).unwrap();
    let inputs = dataflow::session::inputs(&wb).unwrap();
    let mut shared = 0;
    for entry in &wb.cells {
        let Content::Formula(f) = &entry.content else { continue };
        let Some(CellInput::Formula { expr, .. }) = inputs.cells.get(&entry.area.top_left()) else {
            panic!("no formula input at {}", entry.area)
        };
        assert!(Arc::ptr_eq(expr, &f.expr), "{} holds a copy of its tree", entry.area);
        shared += 1;
    }
    assert_eq!(shared, 19);
}
