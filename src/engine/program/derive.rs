//! What follows from the bound formulas: each cell's dependencies, the
//! dependency graph, the schedule, the volatile formulas and the blocks'
//! dependencies, with the interning of the shared subformulas on a second
//! thread beside them.

use super::FormulaCell;
use crate::address::Area;
use crate::engine::graph::{CellReads, DepGraph, Stage};
use crate::engine::rebuild::Known;
use crate::engine::share::Interned;
use crate::eval::BExpr;
use crate::eval::deps::{KeptReads, Reads, reads_kept};
use crate::ids::FormulaId;

/// What follows from the bound formulas (the cells' and the blocks'
/// `block_formulas`), in a workbook of `sheets` sheets: the graph of what
/// each cell reads (whether it reads only what an evaluation reads is
/// filled in `cells`), the schedule, the volatile
/// formulas, the blocks' dependencies and, when `sharing`, the formulas'
/// nodes interned. The interning reads only the formulas, so it runs on a
/// second thread beside the graph and the schedule; both results are the
/// same as one after the other. The dependencies are found first, so that
/// the cells are only read while the thread runs (moving their formulas
/// out for it held 32 bytes a cell at the peak of loading).
#[allow(clippy::type_complexity)]
pub(super) fn derive(
    cells: &mut [FormulaCell],
    block_formulas: &[BExpr],
    sheets: usize,
    sharing: bool,
    known: &Known,
) -> (DepGraph, Vec<Stage>, Vec<FormulaId>, Vec<Vec<Area>>, Interned) {
    let mut kept = KeptReads::default();
    let block_reads: Vec<Reads> = block_formulas.iter().map(|e| reads_kept(e, sheets, &mut kept)).collect();
    let mut volatile = Vec::new();
    let mut read = CellReads::with_capacity(cells.len());
    for (f, c) in cells.iter_mut().enumerate() {
        let vol = match c.block {
            Some(b) => {
                let r = &block_reads[b.index()];
                read.push(&r.areas, &r.reachable);
                c.narrow = false;
                r.volatile
            }
            None => match known.get(&c.addr) {
                // Reused from the program an edit started from: read then.
                Some(old) => {
                    read.push(&old.deps, &old.reachable);
                    old.volatile
                }
                None => {
                    let r = reads_kept(&c.expr, sheets, &mut kept);
                    read.push(&r.areas, &r.reachable);
                    c.narrow = r.narrow && !c.spills;
                    r.volatile
                }
            },
        };
        if vol {
            volatile.push(FormulaId::at(f));
        }
    }
    drop(kept);
    let cells = &*cells;
    std::thread::scope(|s| {
        let intern = || Interned::new(cells.iter().map(|c| &c.expr).chain(block_formulas));
        // Where no thread can be had, the interning is done here, after.
        let interning = sharing.then(|| std::thread::Builder::new().spawn_scoped(s, intern));
        let graph = DepGraph::new(cells, &read);
        drop(read);
        let schedule = graph.schedule();
        let block_deps = block_reads.into_iter().map(|r| r.areas).collect();
        let interned = match interning {
            Some(Ok(h)) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Some(Err(_)) => intern(),
            None => Interned::default(),
        };
        (graph, schedule, volatile, block_deps, interned)
    })
}
