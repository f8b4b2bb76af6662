//! The calculation engine: a shared [`Program`] plus this engine's values.
//! Setting a value marks the formulas that read it dirty; a recalculation
//! evaluates dirty cells only, in schedule order, iterating cycles as the
//! [`CalcSettings`] say (see `recalc`), told to an [`Observer`]; a step
//! can be undone and replayed from its [`Delta`]. A recalculation whose
//! cycles repeat an earlier iteration's values stops there (see
//! `oscillation`).

pub mod cell;
mod dirty;
pub mod graph;
mod lists;
mod nested;
pub mod observe;
mod oscillation;
mod patch;
mod paths;
pub mod program;
mod rebuild;
mod recalc;
mod schedule;
mod share;
mod sources;
mod spill;
mod tall;
mod touched;
mod undo;

use crate::Error;
use crate::address::{Area, CellAddr};
use crate::eval::Random;
use crate::grid::{Grid, MAX_GRID_CELLS};
use crate::ids::FormulaId;
use crate::policy::CalcSettings;
use crate::value::Value;
use dirty::Readers;
use oscillation::Watch;
use std::sync::Arc;
use touched::Touched;

pub use observe::{Change, ChangeLog, EachPass, Flow, Observer, OnePass, PassInfo};
pub use oscillation::MAX_WATCHED_CHANGES;
pub use patch::{PATCH_CELLS, Unpatch};
pub use paths::Paths;
pub use program::{BuildIssue, CellInput, Inputs, Program, Sharing};
pub use recalc::Report;
pub use undo::{Delta, Recorder};

/// Values and calculation state for one program. `clone_from` puts an
/// engine in the state of another over the same cells reusing its buffers:
/// a saved state restored this way behaves exactly as the engine it was
/// saved from (values, dirty flags, shared values, oscillation history).
pub struct Engine {
    program: Arc<Program>,
    grid: Grid,
    dirty: Vec<bool>,
    /// For each area read (by `AreaId`), what is known of the formulas
    /// reading it ([`Readers`]): when all are dirty, a write into it has
    /// nothing to mark.
    readers_dirty: Vec<Readers>,
    /// What is known of the readers of each segment's tall areas.
    tall_marks: tall::Marks,
    /// The last value of each block array formula, with the `writes` count
    /// it was calculated at (see `recalc`).
    blocks: Vec<Option<(u64, Value)>>,
    /// This engine's values of the program's shared subformulas (by
    /// `SharedId`): `None` until evaluated and once a cell they read changed.
    shared: Vec<Option<Value>>,
    /// Changed writes made by formulas so far: a block's value is reused
    /// while nothing else changed.
    writes: u64,
    /// The iterations' history, to see values repeat (see `oscillation`).
    watch: Watch,
    /// For each stage of the schedule, how many cells its last sweep
    /// calculated (a cycle's; `u32::MAX` before the first): a cycle whose
    /// last sweep calculated few of its cells has its dirty flags scanned.
    swept: Vec<u32>,
    /// Whether formulas with a kernel (`eval::kernel`) are run through it.
    kernels: bool,
    /// Whether arrays of numbers or booleans are kept dense (`Paths::dense`).
    dense: bool,
    /// Kernel runs that bailed out to the tree walker so far.
    bails: u64,
    /// Whether formulas are marked dirty only for what they last read
    /// (`Paths::reads`), and what each read (`touched`).
    reads: bool,
    touched: Touched,
    /// The random numbers RAND and RANDBETWEEN draw, from the settings' seed.
    random: Random,
    pub settings: CalcSettings,
}

impl Clone for Engine {
    fn clone(&self) -> Self {
        Engine {
            program: self.program.clone(),
            grid: self.grid.clone(),
            dirty: self.dirty.clone(),
            readers_dirty: self.readers_dirty.clone(),
            tall_marks: self.tall_marks.clone(),
            blocks: self.blocks.clone(),
            shared: self.shared.clone(),
            writes: self.writes,
            watch: self.watch.clone(),
            swept: self.swept.clone(),
            kernels: self.kernels,
            dense: self.dense,
            bails: self.bails,
            reads: self.reads,
            touched: self.touched.clone(),
            random: self.random.clone(),
            settings: self.settings,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        // Every field named, so that a new one cannot be left out.
        let Engine {
            program,
            grid,
            dirty,
            readers_dirty,
            tall_marks,
            blocks,
            shared,
            writes,
            watch,
            swept,
            kernels,
            dense,
            bails,
            reads,
            touched,
            random,
            settings,
        } = source;
        if !Arc::ptr_eq(&self.program, program) {
            self.program = program.clone();
        }
        self.grid.clone_from(grid);
        self.dirty.clone_from(dirty);
        self.readers_dirty.clone_from(readers_dirty);
        self.tall_marks.clone_from(tall_marks);
        self.blocks.clone_from(blocks);
        self.shared.clone_from(shared);
        self.writes = *writes;
        self.watch.clone_from(watch);
        self.swept.clone_from(swept);
        self.kernels = *kernels;
        self.dense = *dense;
        self.bails = *bails;
        self.reads = *reads;
        self.touched.clone_from(touched);
        self.random.clone_from(random);
        self.settings = *settings;
    }
}

impl Engine {
    /// A fresh engine: constants written, every formula dirty and reading
    /// as empty until calculated. Fails when the cells need a grid larger
    /// than [`MAX_GRID_CELLS`].
    pub fn new(program: Arc<Program>, settings: CalcSettings) -> Result<Engine, Error> {
        let cells = program.cells.iter().map(|c| c.addr).chain(program.constants.iter().map(|(a, _)| *a));
        match Grid::holding(program.scope.sheets.len(), cells) {
            Ok(grid) => Ok(Engine::start(program, grid, settings)),
            Err(c) => Err(too_large(&program, c)),
        }
    }

    /// An engine over a grid that fits the program: its constants written,
    /// every formula dirty.
    fn start(program: Arc<Program>, mut grid: Grid, settings: CalcSettings) -> Engine {
        grid.remember_folds(program.paths.folds);
        for (a, v) in &program.constants {
            grid.set(*a, v.clone());
        }
        let dirty = vec![true; program.cells.len()];
        let blocks = vec![None; program.blocks.len()];
        let readers_dirty = program.tracked.start();
        let tall_marks = tall::Marks::new(program.tracked.skippable.len());
        let shared = vec![None; program.shared.exprs.len()];
        let watch = Watch::default();
        let swept = vec![u32::MAX; program.schedule.len()];
        let Paths { kernels, dense, reads, .. } = program.paths;
        let touched = Touched::new(program.cells.len(), program.shared.exprs.len());
        Engine {
            program,
            grid,
            dirty,
            readers_dirty,
            tall_marks,
            blocks,
            shared,
            writes: 0,
            watch,
            swept,
            kernels,
            dense,
            bails: 0,
            reads,
            touched,
            random: Random::new(settings.seed),
            settings,
        }
    }

    /// A fresh engine (as [`Engine::new`] makes) for `program`, which has
    /// the same cells as this engine's (it, or a detached copy): the grid
    /// takes this one's shape, so nothing can be too large.
    pub fn fresh(&self, program: Arc<Program>) -> Engine {
        Engine::start(program, self.grid.blank_like(), self.settings)
    }

    /// A new engine for `program` keeping this engine's values: only the
    /// formulas that are new or changed are dirty.
    pub fn rebuild(&self, program: Arc<Program>) -> Result<Engine, Error> {
        let mut e = Engine::new(program.clone(), self.settings)?;
        for (i, c) in program.cells.iter().enumerate() {
            match self.program.formula_at(c.addr) {
                // Still a formula: keep its value; dirty if it changed.
                Some(o) => {
                    e.grid.set(c.addr, self.grid.get(c.addr).clone());
                    let (old, new) = (self.program.formula(o), program.formula(FormulaId::at(i)));
                    e.dirty[i] = self.dirty[o.index()]
                        || !share::same_formula(old, &self.program.shared.exprs, new, &program.shared.exprs);
                }
                None => e.dirty[i] = true,
            }
            // What it spilled is not kept: calculated again, it spills again.
            e.dirty[i] |= c.spills;
        }
        // Every cell that reads differently now (a changed constant, a
        // formula that became a constant or the reverse, a removed cell)
        // marks its readers.
        let old = self.program.cells.iter().map(|c| c.addr).chain(self.program.constants.iter().map(|(a, _)| *a));
        let new = program.cells.iter().map(|c| c.addr).chain(program.constants.iter().map(|(a, _)| *a));
        // And every cell a spill covered: its formula spills it again.
        let spilled = self.spilled_cells();
        let touched: std::collections::HashSet<CellAddr> = old.chain(new).chain(spilled).collect();
        for a in touched {
            if self.grid.get(a) != e.grid.get(a) {
                e.mark_readers(a, Some(self.grid.get(a)));
            }
        }
        Ok(e)
    }

    /// Runs the formulas that have a kernel through it (the default) or
    /// through the tree walker only: the same values either way.
    pub fn set_kernels(&mut self, on: bool) {
        self.kernels = on;
    }

    /// Marks formulas dirty for only what their last evaluation read (the
    /// default, [`Paths::reads`]) or for everything they may read: the
    /// same values either way. Switched, every formula and shared value is
    /// taken to have read everything until evaluated again.
    pub fn set_dynamic_reads(&mut self, on: bool) {
        self.reads = on;
        self.touched.forget();
    }

    /// Whether arrays of numbers or booleans are kept dense while this
    /// engine evaluates (see [`Paths::dense`]; from its program's paths).
    pub fn dense_arrays(&self) -> bool {
        self.dense
    }

    /// How many kernel runs bailed out to the tree walker so far.
    pub fn kernel_bails(&self) -> u64 {
        self.bails
    }

    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// Whether `other` holds exactly this engine's values (numbers bit for
    /// bit) and dirty flags, over the same program and settings. Then a
    /// recalculation started from either, once the oscillation history is
    /// cleared, writes the same values: what else an engine holds (shared
    /// and block values, the readers-dirty flags, what each formula last
    /// read) only saves work, never changes a result. (It may evaluate
    /// more cells from one of them: a formula whose value was put back
    /// from outside is taken to have read everything.)
    pub fn same_state(&self, other: &Engine) -> bool {
        let identical = |a: &Value, b: &Value| match (a, b) {
            (Value::Number(x), Value::Number(y)) => x.to_bits() == y.to_bits(),
            _ => a == b,
        };
        let sheets = self.program.scope.sheets.len() as crate::address::SheetId;
        Arc::ptr_eq(&self.program, &other.program)
            && self.settings == other.settings
            && self.grid.spills() == other.grid.spills()
            && self.dirty == other.dirty
            && (0..sheets).all(|sheet| {
                let (rows, cols) = self.grid.extent(sheet);
                other.grid.extent(sheet) == (rows, cols)
                    && (0..rows).all(|row| {
                        (0..cols).all(|col| {
                            let c = CellAddr::new(sheet, row, col);
                            identical(self.grid.get(c), other.grid.get(c))
                        })
                    })
            })
    }

    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    pub fn get(&self, c: CellAddr) -> &Value {
        self.grid.get(c)
    }

    /// Sets a cell that holds no formula; formulas reading it become dirty.
    pub fn set(&mut self, c: CellAddr, v: Value) -> Result<(), Error> {
        if let Some(why) = self.spilled_into(c) {
            return Err(Error::Cell(why));
        }
        if let Some(f) = self.program.formula_at(c) {
            let name = self.program.cell_name(c);
            return Err(Error::Cell(match self.program.cell(f).block {
                Some(b) => {
                    let block = self.program.scope.sheets.area(self.program.block(b));
                    format!("{name} is part of the array formula over {block}, which is edited as a whole")
                }
                None => format!("{name} holds a formula"),
            }));
        }
        if !self.grid.reserve(c) {
            return Err(too_large(&self.program, c));
        }
        if let Ok((old, _)) = self.grid.update(c, v) {
            self.mark_readers(c, Some(&old));
            self.watch.clear();
            self.wake_blocked(Area::cell(c), None);
        }
        Ok(())
    }

    /// Overwrites a formula cell's current value (as loaded from a saved
    /// state), marking its readers dirty but not the cell itself.
    pub fn restore(&mut self, c: CellAddr, v: Value) {
        // A spilling formula stays dirty: calculated again, it spills again.
        if let Some(f) = self.program.formula_at(c)
            && !self.program.cell(f).spills
        {
            self.clean(f);
            // Its value comes from outside: no evaluation read anything.
            self.touched.forget_one(f);
        }
        if self.grid.reserve(c)
            && let Ok((old, _)) = self.grid.update(c, v)
        {
            self.mark_readers(c, Some(&old));
            self.watch.clear();
        }
    }

    /// Marks every formula dirty (a full recalculation, Ctrl+Alt+F9).
    pub fn mark_all_dirty(&mut self) {
        self.dirty.iter_mut().for_each(|d| *d = true);
    }
}

fn too_large(p: &Program, c: CellAddr) -> Error {
    Error::Cell(format!("cell {} would make the stored grid larger than {MAX_GRID_CELLS} cells", p.cell_name(c)))
}
