//! A workbook driven from code the way a user drives a spreadsheet: `set`
//! cells, `recalc`, read `value`s and `text`. Tests are written with it:
//!
//! ```
//! use dataflow::testing::Sheet;
//! let mut s = Sheet::new();
//! s.set("A1", "=B1*2");
//! s.set("B1", "21");
//! s.recalc();
//! assert_eq!(s.text("A1"), "42");
//! ```
//!
//! Its methods panic with a message on malformed cell addresses or formulas,
//! which suits tests; programs load workbooks through `crate::workbook`.

// A test driver: a formula that does not parse or a workbook that does not
// fit is a bug in the test, reported by panicking at once.
#![allow(clippy::expect_used, clippy::panic)]

use crate::address::{Area, CellAddr, parse_a1};
use crate::engine::{CellInput, Engine, Inputs, Paths, Program, Report, Sharing};
use crate::eval::Eval;
use crate::eval::bind::{Binder, NameDef};
use crate::ids::EntryId;
use crate::parse::parse_formula;
use crate::policy::CalcSettings;
use crate::value::date::Clock;
use crate::value::{ErrorKind, Value, parse_number};
use std::sync::Arc;

/// An in-memory workbook with one or more sheets.
pub struct Sheet {
    model: Inputs,
    settings: CalcSettings,
    engine: Option<Engine>,
    stale: bool,
    evaluated: Vec<CellAddr>,
    issues: Vec<String>,
    /// The fast paths the sheet is built and evaluated with.
    paths: Paths,
    /// Entries made so far: each `set` of a formula is one, with its own
    /// `origin`, as each entry of a workbook file is.
    entries: usize,
    /// Whether `=...` enters a dynamic-array formula (Excel 365's entry,
    /// see [`Sheet::dynamic_arrays`]).
    dynamic: bool,
}

impl Default for Sheet {
    fn default() -> Self {
        Sheet::new()
    }
}

impl Sheet {
    /// The moment TODAY and NOW read in a sheet, 2026-11-28 17:30 (serial
    /// 46354.7291666...), so that tests give the same values every time;
    /// `settings_mut().clock` changes it.
    pub const NOW: f64 = 46_354.0 + 17.5 / 24.0;

    /// One sheet, `Sheet1`, iteration off.
    pub fn new() -> Self {
        Sheet::with_sheets(&["Sheet1"])
    }

    pub fn with_sheets(names: &[&str]) -> Self {
        let model = Inputs { sheets: names.iter().map(|s| s.to_string()).collect(), ..Inputs::default() };
        Sheet {
            model,
            settings: CalcSettings { clock: Clock::Fixed(Sheet::NOW), ..CalcSettings::default() },
            engine: None,
            stale: true,
            evaluated: Vec::new(),
            issues: Vec::new(),
            paths: Paths::ALL,
            entries: 0,
            dynamic: false,
        }
    }

    /// The same sheet entering every later `=...` as a dynamic-array
    /// formula, as Excel 365 does: calculated as an array and spilled.
    pub fn dynamic_arrays(mut self) -> Self {
        self.dynamic = true;
        self
    }

    /// Builds the formulas sharing repeated subformulas or not (the plain
    /// evaluation the shared one is compared with); on by default.
    pub fn sharing(&mut self, sharing: Sharing) -> &mut Self {
        self.paths(Paths::of_sharing(sharing))
    }

    /// Builds and evaluates the formulas with these fast paths (see
    /// [`Paths`]; every one by default): any combination gives the same
    /// values.
    pub fn paths(&mut self, paths: Paths) -> &mut Self {
        self.paths = paths;
        self.engine = None;
        self.stale = true;
        self
    }

    /// Turns iterative calculation on with these limits; panics on limits
    /// a workbook could not ask for (`policy`'s bounds).
    pub fn iterate(&mut self, max_iterations: u32, max_change: f64) -> &mut Self {
        let s = CalcSettings { iterate: true, ..self.settings };
        let s = s.with_max_iterations(max_iterations).and_then(|s| s.with_max_change(max_change));
        self.settings = s.unwrap_or_else(|e| panic!("iterate({max_iterations}, {max_change}): {e}"));
        self.apply_settings();
        self
    }

    pub fn settings_mut(&mut self) -> &mut CalcSettings {
        self.stale = self.stale || self.engine.is_none();
        &mut self.settings
    }

    fn apply_settings(&mut self) {
        if let Some(e) = &mut self.engine {
            e.settings = self.settings;
        }
    }

    /// Parses `Sheet1!B2` or `B2` (first sheet).
    pub fn addr(&self, cell: &str) -> CellAddr {
        let (sheet, a1) = match cell.rsplit_once('!') {
            Some((s, a)) => {
                let s = s.trim_matches('\'');
                let i = self.model.sheets.find(s);
                (i.unwrap_or_else(|| panic!("unknown sheet in `{cell}`")), a)
            }
            None => (0, cell),
        };
        let (row, col) = parse_a1(&a1.replace('$', "")).unwrap_or_else(|| panic!("not a cell: `{cell}`"));
        CellAddr::new(sheet, row, col)
    }

    /// Parses `B2:D4` (or a single cell) on the first sheet or the one named.
    pub fn area(&self, range: &str) -> Area {
        let (first, last) = range.split_once(':').unwrap_or((range, range));
        let sheet = first.rsplit_once('!').map_or("", |(s, _)| s);
        let last = if last.contains('!') || sheet.is_empty() { last.to_string() } else { format!("{sheet}!{last}") };
        let (a, b) = (self.addr(first), self.addr(&last));
        Area::new(a.sheet, a.row.min(b.row), a.col.min(b.col), a.row.max(b.row), a.col.max(b.col))
    }

    /// Enters what a user types: `=...` is a formula; otherwise a number,
    /// TRUE/FALSE, an error literal, or text. An empty string clears.
    /// `{=...}` enters one array formula over the block `cell` names
    /// (`set("C1:C3", "{=ROW()}")`), as Ctrl+Shift+Enter.
    pub fn set(&mut self, cell: &str, input: &str) {
        if let Some(f) = crate::parse::block_formula(input) {
            let (block, expr, origin) = (self.area(cell), Arc::new(parse(f)), self.entry());
            for at in block.cells() {
                self.model.cells.insert(at, CellInput::Array { expr: expr.clone(), block, origin });
            }
            self.stale = true;
            return;
        }
        let at = self.addr(cell);
        if let Some(f) = input.strip_prefix('=') {
            let (expr, origin) = (Arc::new(parse(f)), self.entry());
            let input = match self.dynamic {
                true => CellInput::Dynamic { expr, origin },
                false => CellInput::Formula { expr, anchor: at, origin },
            };
            self.model.cells.insert(at, input);
            self.stale = true;
            return;
        }
        let v = typed_value(input);
        let was_formula = !matches!(self.model.cells.get(&at), Some(CellInput::Constant(_)) | None);
        self.model.cells.insert(at, CellInput::Constant(v.clone()));
        match &mut self.engine {
            Some(e) if !was_formula && !self.stale => e.set(at, v).expect("cell fits the grid"),
            _ => self.stale = true,
        }
    }

    /// Sets a constant as [`Sheet::set`] does, giving back the engine's
    /// refusal (a cell a spill covers, a formula cell) as its message.
    pub fn try_set(&mut self, cell: &str, input: &str) -> Result<(), String> {
        let at = self.addr(cell);
        let v = typed_value(input);
        self.engine_ref();
        let e = self.engine.as_mut().expect("an engine once asked for");
        e.set(at, v.clone()).map_err(|e| e.to_string())?;
        self.model.cells.insert(at, CellInput::Constant(v));
        Ok(())
    }

    /// A new entry's id.
    fn entry(&mut self) -> EntryId {
        self.entries += 1;
        EntryId::at(self.entries - 1)
    }

    /// Defines a workbook name anchored at A1 of the first sheet.
    pub fn name(&mut self, name: &str, formula: &str) {
        self.name_at(name, "A1", formula)
    }

    /// Defines a name whose relative references are relative to `anchor`.
    pub fn name_at(&mut self, name: &str, anchor: &str, formula: &str) {
        let anchor = self.addr(anchor);
        let expr = Arc::new(parse(formula));
        self.model.names.retain(|n| !n.name.eq_ignore_ascii_case(name));
        self.model.names.push(NameDef { name: name.to_string(), anchor, expr });
        self.stale = true;
    }

    fn engine(&mut self) -> &mut Engine {
        if self.stale || self.engine.is_none() {
            let (program, issues) = Program::build_paths(&self.model, self.paths);
            self.issues =
                issues.iter().map(|i| format!("{}: {}", program.cell_name(i.cell), i.issue.message)).collect();
            let program = Arc::new(program);
            let engine = match &self.engine {
                Some(old) => old.rebuild(program).expect("grid fits"),
                None => Engine::new(program, self.settings).expect("grid fits"),
            };
            self.engine = Some(engine);
            self.stale = false;
        }
        let engine = self.engine.as_mut().expect("engine built above");
        // `settings_mut` changes take effect on the next use.
        engine.settings = self.settings;
        engine
    }

    /// Recalculates what changed; see [`Engine::recalc`].
    pub fn recalc(&mut self) -> Report {
        let mut evaluated = Vec::new();
        let r = self.engine().recalc_with(&mut evaluated);
        self.evaluated = evaluated;
        r
    }

    /// One iteration (max iterations 1, then F9).
    pub fn step(&mut self) -> Report {
        let mut evaluated = Vec::new();
        let r = self.engine().step_with(&mut evaluated);
        self.evaluated = evaluated;
        r
    }

    /// The cells the last `recalc` or `step` evaluated, as `A1` text, in order.
    pub fn evaluated(&self) -> Vec<String> {
        self.evaluated.iter().map(|c| self.cell_text(*c)).collect()
    }

    /// A cell's address as the other methods take it (`A1`, `Sheet2!B3`).
    pub fn cell_text(&self, c: CellAddr) -> String {
        let a = crate::address::a1(c.row, c.col);
        if c.sheet == 0 { a } else { self.model.sheets.cell(c) }
    }

    /// Problems found when the formulas were last bound (unknown names, ...).
    pub fn issues(&mut self) -> Vec<String> {
        self.engine();
        self.issues.clone()
    }

    pub fn value(&self, cell: &str) -> Value {
        let at = self.addr(cell);
        self.engine.as_ref().map_or(Value::Empty, |e| e.get(at).clone())
    }

    /// What the cell shows.
    pub fn text(&self, cell: &str) -> String {
        self.value(cell).to_string()
    }

    /// Evaluates a formula in A1's context, without storing it.
    pub fn eval(&mut self, formula: &str) -> Value {
        self.eval_at("A1", formula)
    }

    /// Evaluates a formula in `cell`'s context, without storing it.
    pub fn eval_at(&mut self, cell: &str, formula: &str) -> Value {
        let at = self.addr(cell);
        let expr = parse(formula);
        let e = self.engine();
        let _dense = crate::value::dense_arrays(e.dense_arrays());
        let mut binder = Binder::new(&e.program().scope, at);
        let bound = binder.bind_formula(&expr, at);
        let _calendar = e.settings.calendar().enter();
        let program = &**e.program();
        Eval::new(e.grid(), at).with_scope(&program.scope).with_formulas(program).eval_cell(&bound)
    }

    /// Marks every formula dirty, as a full recalculation does: the next
    /// `step` calculates every formula, not only those whose inputs changed.
    pub fn mark_all_dirty(&mut self) {
        self.engine().mark_all_dirty();
    }

    pub fn engine_ref(&mut self) -> &Engine {
        self.engine()
    }
}

fn parse(formula: &str) -> crate::ast::Expr {
    parse_formula(formula).unwrap_or_else(|errs| panic!("formula `{formula}` does not parse: {errs:?}"))
}

/// A constant as a user types it.
pub fn typed_value(input: &str) -> Value {
    if input.is_empty() {
        return Value::Empty;
    }
    if let Some(n) = parse_number(input) {
        return Value::Number(n);
    }
    if input.eq_ignore_ascii_case("TRUE") || input.eq_ignore_ascii_case("FALSE") {
        return Value::Bool(input.eq_ignore_ascii_case("TRUE"));
    }
    match ErrorKind::parse(input) {
        Some(e) => Value::Error(e),
        None => Value::text(input),
    }
}
