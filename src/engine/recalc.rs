//! Recalculation, following Excel's iterative model. A *pass* walks the
//! schedule once: a dirty single cell is evaluated; a cycle is swept once,
//! row-major with each cell seeing the values already updated in this pass
//! (Gauss-Seidel), or synchronously from the previous pass's values. Cells
//! downstream of a cycle are thus brought up to date after every iteration.
//! Only dirty cells are evaluated: a cell none of whose precedents changed
//! since its last evaluation is skipped. With iteration on, passes repeat
//! until every cycle cell changed by less than `max_change` (see
//! [`crate::policy::change`]) or `max_iterations` passes were made. With
//! iteration off, cycle cells are not evaluated and keep their values; the
//! report lists the cycles. When an iteration's values repeat those of an
//! iteration p ≥ 2 before, the cycles oscillate with period p: the loop
//! stops (see `oscillation`). [`Engine::recalc_with`] is the loop; everything
//! that recalculates (single steps, traces, the stepping views) observes it
//! (see [`super::observe`]).

use super::Engine;
use super::graph::Stage;
use super::observe::{Flow, Observer, OnePass, PassInfo};
use super::program::Program;
use crate::address::{Area, CellAddr};
use crate::eval::kernel::{Bail, Reads};
use crate::eval::{Eval, SharedValues, Touches};
use crate::ids::FormulaId;
use crate::policy::{Order, change};
use crate::value::Value;

/// What a recalculation did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Passes over cycles made (0 when the workbook has no cycle).
    pub iterations: u32,
    /// Whether the last pass changed every cycle cell by less than `max_change`.
    pub converged: bool,
    /// `Some(p)` when the last iteration's values were those of the
    /// iteration p ≥ 2 before it: the cycles oscillate, and the run stopped.
    pub period: Option<u32>,
    /// The largest change of a cycle cell in the last pass.
    pub max_change: f64,
    /// Formula evaluations made.
    pub evaluated: u64,
    /// Cycles left uncalculated because iteration is off, as cell lists.
    pub circular: Vec<Vec<CellAddr>>,
    /// Cells still changing after the last pass's closing sweeps: a spill
    /// that feeds its own formula (directly or through others) or a
    /// run-time reference reading what it writes, which the dependency
    /// graph could not see as a cycle. They hold what the last sweep gave.
    pub unsettled: Vec<CellAddr>,
}

struct Pass {
    evaluated: u64,
    max_change: f64,
    cycles: bool,
    unsettled: Vec<CellAddr>,
}

impl Engine {
    /// Recalculates: up to `max_iterations` passes when there are cycles.
    pub fn recalc(&mut self) -> Report {
        self.recalc_with(&mut ())
    }

    /// One iteration: a single pass (Excel with max iterations 1, then F9).
    pub fn step(&mut self) -> Report {
        self.recalc_with(&mut OnePass(&mut ()))
    }

    /// One iteration, observed.
    pub fn step_with(&mut self, observer: &mut impl Observer) -> Report {
        self.recalc_with(&mut OnePass(observer))
    }

    /// The recalculation loop, the only one: passes over the schedule until
    /// the cycles converge, repeat an earlier iteration (oscillate),
    /// `max_iterations` passes were made, or the observer stops the run.
    /// Without cycles one pass is made.
    pub fn recalc_with(&mut self, observer: &mut impl Observer) -> Report {
        // TODAY and NOW see one moment for the whole recalculation.
        let _calendar = self.settings.calendar().enter();
        let _dense = crate::value::dense_arrays(self.dense);
        let cap = self.settings.max_iterations.max(1);
        let mut report = Report { converged: true, ..Report::default() };
        if !self.settings.iterate {
            report.circular =
                self.program.cycles().map(|c| c.iter().map(|&f| self.program.cell(f).addr).collect()).collect();
        }
        self.random.follow(self.settings.seed);
        let iterating = self.settings.iterate && self.program.cycles().next().is_some();
        self.watch.start(self.settings, iterating);
        let mut passes = 0;
        loop {
            let pass = self.pass(observer);
            report.evaluated += pass.evaluated;
            report.unsettled = pass.unsettled;
            if pass.cycles {
                report.iterations += 1;
                report.max_change = pass.max_change;
                report.converged = pass.max_change < self.settings.max_change;
                let (grid, program) = (&self.grid, &self.program);
                let period = self.watch.iteration(|f| super::spill::watched(grid, program, f));
                report.period = period.filter(|_| !report.converged);
            }
            passes += 1;
            let info = PassInfo {
                pass: passes,
                iteration: report.iterations,
                max_change: report.max_change,
                converged: report.converged,
                period: report.period,
                evaluated: pass.evaluated,
            };
            let flow = observer.pass(self, &info);
            let settled = report.converged || report.period.is_some();
            if !pass.cycles || settled || report.iterations >= cap || flow == Flow::Stop {
                return report;
            }
        }
    }

    fn pass(&mut self, observer: &mut impl Observer) -> Pass {
        let program = self.program.clone();
        // Cells may have been set since the last pass: no block value is reused.
        self.writes += 1;
        for f in &program.volatile {
            self.dirty[f.index()] = true;
        }
        let mut pass = Pass { evaluated: 0, max_change: 0.0, cycles: false, unsettled: Vec::new() };
        // An edit in place may have changed the schedule.
        if self.swept.len() != program.schedule.len() {
            self.swept = vec![u32::MAX; program.schedule.len()];
        }
        for (k, step) in program.schedule.iter().enumerate() {
            match step {
                Stage::Run { len, .. } if (*len as usize) < SCANNED => {
                    for f in step.run() {
                        pass.evaluated += self.calculate_if_dirty(f, observer);
                    }
                }
                Stage::Run { first, len } => {
                    let (mut at, end) = (first.index(), first.index() + *len as usize);
                    while let Some(i) = next_dirty(&self.dirty, at, end) {
                        pass.evaluated += self.calculate_if_dirty(FormulaId::at(i), observer);
                        at = i + 1;
                    }
                }
                Stage::Cycle(_) if !self.settings.iterate => {}
                Stage::Cycle(cells) => {
                    pass.cycles = true;
                    // A large cycle, or one whose last sweep calculated few
                    // of its cells, has its dirty flags scanned.
                    let scan = cells.len() >= SCANNED || (self.swept[k] as usize).saturating_mul(SPARSE) < cells.len();
                    let (n, delta) = match self.settings.order {
                        Order::RowMajor => self.sweep_in_place(cells, scan, observer),
                        Order::Synchronous => self.sweep_synchronous(cells, observer),
                    };
                    self.swept[k] = n as u32;
                    pass.evaluated += n;
                    pass.max_change = pass.max_change.max(delta);
                }
            }
        }
        // A cell with run-time references (INDIRECT, OFFSET) that read a
        // formula before it changed is dirty again: calculated again, with
        // what it feeds, until the pass is settled (one sweep per reader at
        // most: each settles at least one more of them).
        // Likewise a reader of cells a spill covers, which the graph could
        // not place after the anchor (see `spill`). A cell dirty after the
        // last sweep feeds itself: it is reported, not calculated again.
        let closing = Stage::run;
        let rounds = program.graph.runtime.len() + program.spilling;
        for round in 0..rounds {
            let last = round + 1 == rounds;
            let mut again = 0;
            for f in program.schedule.iter().flat_map(closing) {
                let n = self.calculate_if_dirty(f, observer);
                if last && n > 0 {
                    pass.unsettled.push(program.cell(f).addr);
                }
                again += n;
            }
            if again == 0 {
                break;
            }
            pass.evaluated += again;
        }
        // Still dirty after the last sweep: the cells that sweep calculated
        // are reported (the loop is among them, with readers it feeds).
        if !pass.unsettled.is_empty() && !program.schedule.iter().flat_map(closing).any(|f| self.dirty[f.index()]) {
            pass.unsettled.clear();
        }
        pass
    }

    /// Calculates a single cell if it is dirty; returns how many were (0 or 1).
    fn calculate_if_dirty(&mut self, f: FormulaId, observer: &mut impl Observer) -> u64 {
        if !self.dirty[f.index()] {
            return 0;
        }
        let v = self.evaluate(f, observer);
        self.write(f, v, observer);
        1
    }

    /// One row-major sweep of a cycle: each of its cells dirty when the
    /// sweep reaches it is calculated, seeing the cells calculated before
    /// it. With `scan`, the cells are found by scanning the dirty flags over
    /// the span of its ids (its cells are sorted): a clean stretch is
    /// passed a machine word or more at a time, and a dirty cell outside
    /// the cycle (a cell of a later stage it feeds) is passed by.
    fn sweep_in_place(&mut self, cells: &[FormulaId], scan: bool, observer: &mut impl Observer) -> (u64, f64) {
        let (mut n, mut delta) = (0, 0.0f64);
        let mut calculate = |e: &mut Self, f: FormulaId| {
            let v = e.evaluate(f, observer);
            delta = delta.max(e.write(f, v, observer));
            n += 1;
        };
        match (cells.first(), cells.last()) {
            (Some(first), Some(last)) if scan => {
                // `cells[c]` is the first cell of the cycle not before
                // the dirty cell found: it is that cell, or it is not in
                // the cycle.
                let (mut at, end, mut c) = (first.index(), last.index() + 1, 0);
                while let Some(i) = next_dirty(&self.dirty, at, end) {
                    at = i + 1;
                    c = seek(cells, c, i);
                    if cells[c].index() == i {
                        calculate(self, cells[c]);
                    }
                }
            }
            _ => {
                for &f in cells {
                    if self.dirty[f.index()] {
                        calculate(self, f);
                    }
                }
            }
        }
        (n, delta)
    }

    fn sweep_synchronous(&mut self, cells: &[FormulaId], observer: &mut impl Observer) -> (u64, f64) {
        let todo: Vec<FormulaId> = cells.iter().copied().filter(|&f| self.dirty[f.index()]).collect();
        let values: Vec<Value> = todo.iter().map(|&f| self.evaluate(f, observer)).collect();
        let mut delta = 0.0f64;
        for (f, v) in todo.iter().zip(values) {
            delta = delta.max(self.write(*f, v, observer));
        }
        (todo.len() as u64, delta)
    }

    /// Evaluates formula `f`, noting what it read when it is one whose
    /// reads are followed (`engine::touched`).
    #[inline]
    fn evaluate(&mut self, f: FormulaId, observer: &mut impl Observer) -> Value {
        self.clean(f);
        let program = &*self.program;
        let cell = program.cell(f);
        observer.evaluate(cell.addr);
        let record = self.reads && cell.narrow;
        if self.kernels
            && let Some(k) = program.kernels.get(f.index())
        {
            let touched = self.reads.then_some(&mut self.touched.shared[..]);
            let shared = shared_values(program, &mut self.shared, touched);
            let touches = record.then(Touches::default);
            let mut reads =
                Reads { grid: &self.grid, cell: cell.addr, scope: &program.scope, shared, program, touches };
            match k.run(&mut reads) {
                Ok(v) => {
                    if let Some(t) = reads.touches {
                        self.touched.note(f, t);
                    }
                    return v;
                }
                Err(Bail) => self.bails += 1,
            }
        }
        let (v, touches) = self.evaluate_tree(f, record);
        if let Some(t) = touches {
            self.touched.note(f, t);
        }
        v
    }

    /// Evaluates a formula by walking its tree (out of line: most cells of
    /// the iterating workbooks run a kernel), with what it read when `record`.
    #[inline(never)]
    fn evaluate_tree(&mut self, f: FormulaId, record: bool) -> (Value, Option<Touches>) {
        let program = &*self.program;
        let cell = program.cell(f);
        let touched = self.reads.then_some(&mut self.touched.shared[..]);
        let shared = shared_values(program, &mut self.shared, touched);
        let ev = Eval::new(&self.grid, cell.addr)
            .with_scope(&program.scope)
            .with_shared(shared)
            .with_formulas(program)
            .with_random(&mut self.random);
        let mut ev = if record { ev.recording() } else { ev };
        // Block and spilling formulas are never narrow: nothing recorded.
        let Some(id) = cell.block else {
            if cell.spills {
                return (ev.in_block(Some(Area::cell(cell.addr))).eval_block(&cell.expr), None);
            }
            let v = ev.eval_cell(&cell.expr);
            return (v, ev.touches());
        };
        let block = program.block(id);
        let value = match &self.blocks[id.index()] {
            Some((writes, v)) if *writes == self.writes => v,
            _ => {
                let v = ev.in_block(Some(block)).eval_block(program.formula(f));
                // One formula, one value: every cell of the block takes its
                // element from this calculation (those before `f` in the
                // order in the next pass), not from an older one.
                mark_block(program, block, f, &mut self.dirty);
                &self.blocks[id.index()].insert((self.writes, v)).1
            }
        };
        let (row, col) = (cell.addr.row - block.r0, cell.addr.col - block.c0);
        (element(value, row as usize, col as usize), None)
    }

    /// Stores a formula's new value; returns how much it changed.
    #[inline]
    fn write(&mut self, f: FormulaId, v: Value, observer: &mut impl Observer) -> f64 {
        let cell = self.program.cell(f);
        if cell.spills {
            return self.write_spill(f, v, observer);
        }
        let addr = cell.addr;
        // Most writes in an iteration leave the value as it was: no change
        // to measure (`change` of equal values is 0).
        let Ok((old, new)) = self.grid.update(addr, v) else {
            return 0.0;
        };
        let delta = change(&old, new);
        observer.write(addr, &old, new);
        self.mark_readers_of(addr, Some(f), Some(&old));
        self.watch.write(f, old, self.grid.get(addr));
        // A block's own cells taking their elements do not make its value stale.
        let writes = self.writes;
        self.writes += 1;
        if let Some(at) = self.program.cell(f).block
            && let Some((w, _)) = &mut self.blocks[at.index()]
            && *w == writes
        {
            *w = self.writes;
        }
        delta
    }
}

/// The program's shared subformulas with an engine's `values` of them,
/// and what each read when the engine follows it (`touched`).
fn shared_values<'a>(
    program: &'a Program,
    values: &'a mut [Option<Value>],
    touched: Option<&'a mut [Touches]>,
) -> SharedValues<'a> {
    let s = &program.shared;
    SharedValues { exprs: &s.exprs, values, bits: &s.bits, narrow: &s.narrow, counted: &program.counts.bits, touched }
}

/// Marks the cells of `block` but `f` dirty. A block's cells are formula
/// cells, consecutive in each of its rows (cells are sorted by sheet, row,
/// column).
fn mark_block(program: &Program, block: Area, f: FormulaId, dirty: &mut [bool]) {
    for row in block.r0..=block.r1 {
        if let Some(first) = program.formula_at(CellAddr::new(block.sheet, row, block.c0)) {
            let cells = first.index()..first.index() + (block.c1 - block.c0) as usize + 1;
            dirty[cells].iter_mut().for_each(|d| *d = true);
        }
    }
    dirty[f.index()] = false;
}

/// What the cell at (`row`, `col`) of a block (or a spill) shows of its value:
/// its element, with a single row or column stretched and #N/A outside the
/// value's size; a single value fills the block. Empty shows as 0.
pub(super) fn element(v: &Value, row: usize, col: usize) -> Value {
    match v.broadcast(row, col) {
        Value::Empty => Value::Number(0.0),
        v => v.clone(),
    }
}

/// How many cells a stage has at least for its passes to scan the dirty
/// flags (a call of `memchr` per dirty cell found) rather than test its
/// cells one by one: where many cells are dirty, as in a small cycle
/// iterating, the test is cheaper.
const SCANNED: usize = 1024;

/// A smaller cycle has its dirty flags scanned when its last sweep
/// calculated fewer than one cell in this many (the 17 reason boards of
/// 729 cells of `--with all`, which change only when a strategy fires).
const SPARSE: usize = 8;

/// The position of the first of `cells` (sorted) at or after formula
/// `i`, searched from position `c` (before it, every cell is before `i`)
/// in steps doubling from one: the dirty cells of a sweep lie mostly
/// close together, and a walk cell by cell over a cycle of 13,000 cells
/// cost a sweep as much as its calculations. The last cell must not be
/// before `i`.
fn seek(cells: &[FormulaId], c: usize, i: usize) -> usize {
    if cells[c].index() >= i {
        return c;
    }
    // `cells[lo]` is before `i`; the answer lies past `lo`, before `hi`.
    let (mut lo, mut step) = (c, 1);
    let mut hi = c + 1;
    while hi < cells.len() && cells[hi].index() < i {
        lo = hi;
        step *= 2;
        hi = lo + step;
    }
    let hi = hi.min(cells.len());
    lo + 1 + cells[lo + 1..hi].partition_point(|f| f.index() < i)
}

/// The first dirty formula among `from..end` (by index), if any: the
/// flags seen as bytes and searched by `memchr`.
fn next_dirty(dirty: &[bool], from: usize, end: usize) -> Option<usize> {
    let flags: &[u8] = bytemuck::cast_slice(dirty.get(from..end)?);
    memchr::memchr(1, flags).map(|i| from + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// From every start, for every index up to the last cell, the seek
    /// finds what a walk cell by cell finds.
    #[test]
    fn seek_finds_what_a_walk_finds() {
        let cells: Vec<FormulaId> = [0usize, 3, 4, 9, 10, 11, 30, 31, 64, 100].into_iter().map(FormulaId::at).collect();
        for c in 0..cells.len() {
            for i in cells[c].index()..=100 {
                let mut walk = c;
                while cells[walk].index() < i {
                    walk += 1;
                }
                assert_eq!(seek(&cells, c, i), walk, "from {c} to {i}");
            }
        }
    }
}
