//! What follows from the bound formulas: each cell's dependencies, the
//! dependency graph, the schedule, the volatile formulas and the blocks'
//! dependencies, with the interning of the shared subformulas on a second
//! thread beside them.

use super::FormulaCell;
use crate::address::Area;
use crate::engine::graph::{DepGraph, Stage};
use crate::engine::rebuild::Known;
use crate::engine::share::Interned;
use crate::eval::BExpr;
use crate::eval::deps::{KeptReads, Reads, reads_kept};
use crate::ids::FormulaId;

/// What follows from the bound formulas (the cells' `exprs`, moved out of
/// `cells`, and the blocks' `block_formulas`), in a workbook of `sheets`
/// sheets: each cell's dependencies (filled in `cells`), the graph, the
/// schedule, the volatile formulas, the blocks' dependencies and, when
/// `sharing`, the formulas' nodes interned. The interning reads only the
/// formulas, so it runs on a second thread beside the rest; both results
/// are the same as one after the other.
#[allow(clippy::type_complexity)]
pub(super) fn derive(
    cells: &mut [FormulaCell],
    exprs: &[BExpr],
    block_formulas: &[BExpr],
    sheets: usize,
    sharing: bool,
    known: &Known,
) -> (DepGraph, Vec<Stage>, Vec<FormulaId>, Vec<Vec<Area>>, Interned) {
    std::thread::scope(|s| {
        let intern = || Interned::new(exprs.iter().chain(block_formulas));
        // Where no thread can be had, the interning is done here, after.
        let interning = sharing.then(|| std::thread::Builder::new().spawn_scoped(s, intern));
        let mut kept = KeptReads::default();
        let block_reads: Vec<Reads> = block_formulas.iter().map(|e| reads_kept(e, sheets, &mut kept)).collect();
        let mut volatile = Vec::new();
        for (f, (c, e)) in cells.iter_mut().zip(exprs).enumerate() {
            let (deps, reachable, vol, narrow) = match c.block {
                Some(b) => {
                    let r = &block_reads[b.id.index()];
                    (r.areas.as_slice().into(), r.reachable.as_slice().into(), r.volatile, false)
                }
                None => match known.get(&c.addr) {
                    // Reused from the program an edit started from: read then.
                    Some(&vol) => (std::mem::take(&mut c.deps), std::mem::take(&mut c.reachable), vol, c.narrow),
                    None => {
                        let r = reads_kept(e, sheets, &mut kept);
                        // Kept for the program's life: no room to grow.
                        (r.areas.into_boxed_slice(), r.reachable.into_boxed_slice(), r.volatile, r.narrow)
                    }
                },
            };
            if vol {
                volatile.push(FormulaId::at(f));
            }
            (c.deps, c.reachable, c.narrow) = (deps, reachable, narrow && !c.spills);
        }
        let graph = DepGraph::new(cells);
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
