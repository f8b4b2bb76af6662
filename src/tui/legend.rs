//! Which view caused a change: a cell of one view that went blank is
//! credited to another shown view when one of its precedents (the areas
//! its bound formula reads) lies in that view and changed since the cell
//! was last evaluated: in row-major order, a formula before it in
//! calculation order changed in the step shown, or one after it in the
//! step before (synchronously, any in the step before; a constant, in the
//! step shown). An edit's step holds several passes in one delta, so there
//! the rule is an approximation. When several views qualify, the
//! smallest precedent area wins: in the Sudoku a candidate reads its row,
//! column and box of the solution board and one cell of each strategy
//! board, so a strategy that listed the digit outranks the solution board.
//! The engine knows nothing of strategies; the rule only looks at views and
//! precedents. Each view has a colour ([`view_color`]) in which the cells it
//! caused are drawn, and the views line of the status names each view in
//! its colour: that is the legend.

use crate::app::Shown;
use dataflow::address::CellAddr;
use dataflow::engine::Change;
use dataflow::policy::Order;
use dataflow::session::Session;
use ratatui::style::Color;
use std::collections::{HashMap, HashSet};

/// The colours of the views, in view order (then round again). None of
/// them is a colour of the change marks (green, red, yellow).
const PALETTE: [Color; 6] =
    [Color::Cyan, Color::Magenta, Color::Blue, Color::LightCyan, Color::LightMagenta, Color::LightBlue];

/// The colour of view `i` in the legend.
pub fn view_color(i: usize) -> Color {
    PALETTE[i % PALETTE.len()]
}

/// For each cell of a view that went blank in `now`, the other view whose
/// cells it reads changed in `now` or `before` (the smallest such
/// precedent area's view), by cell.
pub fn causes(session: &Session, views: &[Shown], now: &[Change], before: &[Change]) -> HashMap<CellAddr, usize> {
    let mut out = HashMap::new();
    if views.len() < 2 {
        return out;
    }
    let now_set: HashSet<CellAddr> = now.iter().map(|c| c.cell).collect();
    let before_set: HashSet<CellAddr> = before.iter().map(|c| c.cell).collect();
    let program = session.engine().program();
    let row_major = session.engine().settings.order == Order::RowMajor;
    for ch in now.iter().filter(|c| c.blanked()) {
        let Some(f) = program.formula_at(ch.cell) else { continue };
        if !views.iter().any(|v| v.area.contains(ch.cell)) {
            continue;
        }
        let mut best: Option<(u64, usize)> = None;
        for dep in program.graph().reads_of(f) {
            for (i, v) in views.iter().enumerate().filter(|(_, v)| !v.area.contains(ch.cell)) {
                let Some(common) = dep.intersect(&v.area) else { continue };
                if best.is_some_and(|(size, _)| size <= dep.size()) {
                    continue;
                }
                let read_new = |c: CellAddr| match program.formula_at(c) {
                    Some(g) if row_major && g < f => now_set.contains(&c),
                    Some(_) => before_set.contains(&c),
                    None => now_set.contains(&c),
                };
                if common.cells().any(read_new) {
                    best = Some((dep.size(), i));
                }
            }
        }
        if let Some((_, i)) = best {
            out.insert(ch.cell, i);
        }
    }
    out
}
