//! A loaded workbook ready to run: the workbook model, its bound program and
//! an engine. This is where load-time problems found while binding become
//! located diagnostics, where named inputs fill their ranges from a line of
//! symbols, and where the workbook's reset protocol runs.

mod check;
mod edit;
mod timeline;

pub use check::BoundCheck;
pub use edit::Undo;
pub use timeline::{MAX_TIMELINE_CELLS, MAX_TIMELINE_EDITS, Timeline};

use crate::address::{Area, CellAddr};
use crate::diagnostic::Diagnostic;
use crate::engine::{BuildIssue, CellInput, Engine, Inputs, Paths, Program, Report, Sharing};
use crate::error::{Error, LoadError};
use crate::eval::bind::{NameDef, Site};
use crate::grid::MAX_GRID_CELLS;
use crate::ids::EntryId;
use crate::policy::CalcSettings;
use crate::value::Value;
use crate::workbook::{Content, Formula, Workbook, alphabet_problem, parse_cell_ref, symbol_of};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// What the reset protocol did.
#[derive(Clone, Debug, PartialEq)]
pub struct ResetRun {
    /// Recalculations made until the reset state was stable.
    pub report: Report,
}

/// The error values an area held after a run (see [`Session::errors_in`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AreaErrors {
    /// How many of its cells hold an error.
    pub count: u64,
    /// The first of them, in row-major order.
    pub first: CellAddr,
    /// The error it holds.
    pub error: crate::value::ErrorKind,
}

pub struct Session {
    workbook: Arc<Workbook>,
    engine: Engine,
}

/// `clone_from` restores a saved session into this one's buffers (see
/// [`Engine`]'s): what [`crate::puzzle::Runner`] does for every puzzle.
impl Clone for Session {
    fn clone(&self) -> Self {
        Session { workbook: self.workbook.clone(), engine: self.engine.clone() }
    }

    fn clone_from(&mut self, source: &Self) {
        if !Arc::ptr_eq(&self.workbook, &source.workbook) {
            self.workbook = source.workbook.clone();
        }
        self.engine.clone_from(&source.engine);
    }
}

impl Session {
    /// Loads a workbook file and binds every formula; every problem found
    /// is returned, located in its file.
    pub fn load(path: &Path) -> Result<Session, LoadError> {
        Session::new(crate::workbook::load(path)?)
    }

    /// [`Session::load`] with the workbook's parts named in `with` turned on
    /// (see [`crate::workbook::load_with`]).
    pub fn load_with(path: &Path, with: &[String]) -> Result<Session, LoadError> {
        Session::new(crate::workbook::load_with(path, with)?)
    }

    /// [`Session::load_with`] for checking the workbook, not calculating
    /// it: its program is built without the fast paths compiled for
    /// calculation ([`Paths::CHECK`]), which a check does not use. It
    /// reports the same problems and cycles, and calculates the same
    /// values, more slowly.
    pub fn load_checking(path: &Path, with: &[String]) -> Result<Session, LoadError> {
        Session::new_with(crate::workbook::load_with(path, with)?, Paths::CHECK)
    }

    /// A session over `workbook`, every formula bound. Binding problems
    /// refuse it, unless the workbook takes Excel's way with problems
    /// ([`Workbook::excel_errors`]): then they are added to its warnings
    /// ([`Session::warnings`]) and the cells show the error Excel shows.
    pub fn new(workbook: Workbook) -> Result<Session, LoadError> {
        Session::new_with(workbook, Paths::of_sharing(Sharing::On))
    }

    /// [`Session::new`] with the fast paths `paths`.
    fn new_with(mut workbook: Workbook, paths: Paths) -> Result<Session, LoadError> {
        let (program, warnings) = bind(&workbook, paths)?;
        workbook.warnings.extend(warnings);
        let checks = check::check_issues(&workbook, &program);
        match (checks.is_empty(), workbook.excel_errors) {
            (true, _) => {}
            (false, true) => workbook.warnings.extend(checks),
            (false, false) => return Err(checks.into()),
        }
        let program = Arc::new(program);
        let engine = Engine::new(program, workbook.calc).map_err(|e| LoadError::message(e.to_string()))?;
        let mut s = Session { workbook: Arc::new(workbook), engine };
        s.start();
        s.fill_defaults()
            .map_err(|(name, m)| LoadError::message(format!("the default value of input `{name}`: {m}")))?;
        Ok(s)
    }

    /// Fills every input that has a default value with it (as loading does).
    fn fill_defaults(&mut self) -> Result<(), (String, Error)> {
        let defaults: Vec<(String, String)> =
            self.workbook.inputs.iter().filter_map(|i| Some((i.name.clone(), i.value.clone()?))).collect();
        for (name, line) in defaults {
            self.set_input(&name, &line).map_err(|m| (name, m))?;
        }
        Ok(())
    }

    /// A session over a copy of the program that shares no counted value
    /// with this one (see [`Program::detached`]), for another thread.
    pub fn detached(&self) -> Session {
        let engine = self.engine.fresh(Arc::new(self.engine.program().detached()));
        let mut s = Session { workbook: self.workbook.clone(), engine };
        s.start();
        // They were filled when the workbook loaded: they fill again.
        let _ = s.fill_defaults();
        s
    }

    /// A fresh engine over the same program (for another puzzle), its
    /// inputs holding their default values, as after loading (a `batch`
    /// fills one input per puzzle: a jigsaw's region map keeps its default).
    pub fn fresh(&self) -> Session {
        let engine = self.engine.fresh(self.engine.program().clone());
        let mut s = Session { workbook: self.workbook.clone(), engine };
        s.start();
        // They were filled when the workbook loaded: they fill again.
        let _ = s.fill_defaults();
        s
    }

    /// Puts the workbook's starting values (an Excel file's cached results)
    /// into its formula cells; every formula stays dirty.
    fn start(&mut self) {
        if self.workbook.start.is_empty() {
            return;
        }
        for (c, v) in &self.workbook.start {
            if self.engine.program().formula_at(*c).is_some() {
                self.engine.restore(*c, v.detached());
            }
        }
        self.engine.mark_all_dirty();
    }

    /// The workbook as loaded.
    pub fn workbook(&self) -> &Workbook {
        &self.workbook
    }

    /// The problems loading and binding passed over, Excel's way (see
    /// [`Workbook::excel_errors`]): each located, with its cell.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.workbook.warnings
    }

    /// The engine: values, calculation settings, the bound program.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, to set cells, recalculate with an observer, or undo.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    pub fn settings_mut(&mut self) -> &mut CalcSettings {
        &mut self.engine.settings
    }

    /// Parses `Main!D4`, `D4:L12` (first sheet when none is given), or a
    /// workbook name standing for one area (`locked_board`).
    pub fn area(&self, text: &str) -> Result<Area, Error> {
        parse_cell_ref(text, &self.workbook.sheets, 0).or_else(|e| {
            let name = self.workbook.names.iter().find(|n| n.name.eq_ignore_ascii_case(text)).ok_or(e)?;
            crate::workbook::refs::constant_area(&name.formula.expr, name.anchor.sheet, &self.workbook.sheets)
                .map_err(Error::Reference)
        })
    }

    /// Sets one cell to a constant typed by a user.
    pub fn set(&mut self, cell: CellAddr, v: Value) -> Result<(), Error> {
        self.engine.set(cell, v)
    }

    /// Fills a named input's range from a line of symbols.
    pub fn set_input(&mut self, name: &str, line: &str) -> Result<(), Error> {
        let input = input_def(&self.workbook, name)?;
        let values = input.decode(line)?;
        for (cell, v) in input.area.cells().zip(values) {
            self.engine.set(cell, v)?;
        }
        Ok(())
    }

    /// The cells a named input's range takes from a line of symbols, with
    /// their values, set nowhere yet (for [`Timeline::reset`]).
    pub fn input_cells(&self, name: &str, line: &str) -> Result<Vec<(CellAddr, Value)>, Error> {
        let input = input_def(&self.workbook, name)?;
        Ok(input.area.cells().zip(input.decode(line)?).collect())
    }

    /// Reads every input through `alphabet` instead of the workbook's (the
    /// CLI's `--alphabet`, for one run); a character of it that was one of
    /// an input's blanks is a symbol now, no longer a blank. Answers read
    /// back through an input's alphabet ([`Session::read_line`] with
    /// [`InputDef::alphabet`](crate::workbook::InputDef)) use it too.
    pub fn set_alphabet(&mut self, alphabet: &str) -> Result<(), Error> {
        if let Some((m, _)) = alphabet_problem(alphabet) {
            return Err(Error::Input(m));
        }
        let n = alphabet.chars().count();
        if let Some(i) = self.workbook.inputs.iter().find(|i| i.alphabet.chars().count() != n) {
            let m = i.alphabet.chars().count();
            return Err(Error::Input(format!(
                "{n} symbols, but the input `{}` has {m} (`{}`): the alphabet names the same numbers in other symbols",
                i.name, i.alphabet
            )));
        }
        for input in &mut Arc::make_mut(&mut self.workbook).inputs {
            input.alphabet = alphabet.to_string();
            input.blanks.retain(|c| !alphabet.contains(c));
        }
        Ok(())
    }

    /// Runs the reset protocol, if the workbook has one: set its cells,
    /// recalculate until stable, then set the `then` cells (not yet
    /// recalculated). Returns None when there is none.
    pub fn reset(&mut self) -> Result<Option<ResetRun>, Error> {
        if self.workbook.reset.is_none() {
            return Ok(None);
        }
        self.reset_set()?;
        self.reset_finish().map(Some)
    }

    /// Whether the reset protocol run from this state gives exactly what
    /// it gave from `before` (the state it was last run from): the same
    /// values and dirty flags (see [`Engine::same_state`]), and its `set`
    /// cells change a value here, so the oscillation history (the one
    /// other state a recalculation reads) starts again, as it did then.
    pub fn resets_like(&self, before: &Session) -> bool {
        let Some(reset) = &self.workbook.reset else { return false };
        Arc::ptr_eq(&self.workbook, &before.workbook)
            && reset.set.iter().any(|(c, v)| self.engine.get(*c) != v)
            && self.engine.same_state(&before.engine)
    }

    /// The reset protocol's first step: its `set` cells set (nothing
    /// without a protocol).
    pub(crate) fn reset_set(&mut self) -> Result<(), Error> {
        let Some(reset) = &self.workbook.reset else { return Ok(()) };
        // Detached copies: text shared with other threads' engines would
        // bump one reference count from every core on each read.
        reset.set.iter().try_for_each(|(c, v)| self.engine.set(*c, v.detached()))
    }

    /// The rest of the reset protocol, after [`Session::reset_set`]:
    /// recalculate, then set the `then` cells.
    pub(crate) fn reset_finish(&mut self) -> Result<ResetRun, Error> {
        let report = self.engine.recalc();
        if let Some(reset) = &self.workbook.reset {
            reset.then.iter().try_for_each(|(c, v)| self.engine.set(*c, v.detached()))?;
        }
        Ok(ResetRun { report })
    }

    pub fn recalc(&mut self) -> Report {
        self.engine.recalc()
    }

    pub fn step(&mut self) -> Report {
        self.engine.step()
    }

    /// The values of an area, row by row.
    pub fn read(&self, area: &Area) -> Vec<Vec<Value>> {
        (area.r0..=area.r1)
            .map(|r| (area.c0..=area.c1).map(|c| self.engine.get(CellAddr::new(area.sheet, r, c)).clone()).collect())
            .collect()
    }

    /// Reads an input-shaped area back as one line of symbols: the number k
    /// as the alphabet's k-th symbol, blanks as `.`, anything else as `?`.
    pub fn read_line(&self, area: &Area, alphabet: &str) -> String {
        let symbols: Vec<char> = alphabet.chars().collect();
        area.cells()
            .map(|c| match self.engine.get(c) {
                Value::Empty => '.',
                Value::Text(t) if t.is_empty() => '.',
                Value::Number(n) => symbol_of(&symbols, *n).unwrap_or('?'),
                _ => '?',
            })
            .collect()
    }

    /// The error values `area` holds: how many, and the first in row-major
    /// order (None when it holds none). What the front ends warn about
    /// after a run: a strategy board full of `#VALUE!` is a broken formula
    /// file, not a puzzle the strategies cannot solve.
    pub fn errors_in(&self, area: &Area) -> Option<AreaErrors> {
        let mut found: Option<AreaErrors> = None;
        for c in area.cells() {
            if let Value::Error(e) = self.engine.get(c) {
                match &mut found {
                    Some(f) => f.count += 1,
                    None => found = Some(AreaErrors { count: 1, first: c, error: *e }),
                }
            }
        }
        found
    }
}

/// The input of `wb` named `name` (in any case); the error lists the inputs.
fn input_def<'w>(wb: &'w Workbook, name: &str) -> Result<&'w crate::workbook::InputDef, Error> {
    wb.input(name).ok_or_else(|| {
        let known: Vec<&str> = wb.inputs.iter().map(|i| i.name.as_str()).collect();
        Error::Input(format!("no input named `{name}` (inputs: {})", known.join(", ")))
    })
}

/// The engine's view of a workbook: range formulas filled cell by cell
/// (later entries win), names with their anchors.
pub fn inputs(wb: &Workbook) -> Result<Inputs, LoadError> {
    let mut m = Inputs { sheets: wb.sheets.clone(), tables: wb.tables.clone(), ..Inputs::default() };
    m.names = wb
        .names
        .iter()
        .map(|n| NameDef { name: n.name.clone(), anchor: n.anchor, expr: n.formula.expr.clone() })
        .collect();
    let mut diags = Vec::new();
    // Room for every cell at once: an Excel data sheet lists millions, and
    // growing by doubling would hold twice the room while it rehashes.
    let cells: u64 = wb.cells.iter().map(|e| e.area.size()).filter(|&n| n <= MAX_GRID_CELLS).sum();
    m.cells.reserve(cells.min(MAX_GRID_CELLS) as usize);
    for (i, entry) in wb.cells.iter().enumerate() {
        if entry.area.size() > MAX_GRID_CELLS {
            diags.push(Diagnostic::new(format!(
                "{} has {} cells; a workbook stores at most {MAX_GRID_CELLS}",
                entry.area,
                entry.area.size()
            )));
            continue;
        }
        match &entry.content {
            Content::Constant(v) => {
                for c in entry.area.cells() {
                    m.cells.insert(c, CellInput::Constant(v.clone()));
                }
            }
            Content::Formula(f) => {
                let expr = f.expr.clone();
                for c in entry.area.cells() {
                    let input = CellInput::Formula { expr: expr.clone(), anchor: entry.anchor, origin: EntryId::at(i) };
                    m.cells.insert(c, input);
                }
            }
            Content::Dynamic(f) => {
                let expr = f.expr.clone();
                let input = CellInput::Dynamic { expr, origin: EntryId::at(i) };
                entry.area.cells().for_each(|c| {
                    m.cells.insert(c, input.clone());
                });
            }
            Content::Array(f) => {
                let expr = f.expr.clone();
                for c in entry.area.cells() {
                    m.cells
                        .insert(c, CellInput::Array { expr: expr.clone(), block: entry.area, origin: EntryId::at(i) });
                }
            }
        }
    }
    if diags.is_empty() { Ok(m) } else { Err(diags.into()) }
}

/// Binds every formula of the workbook; binding problems become diagnostics.
pub fn build_program(wb: &Workbook) -> Result<Program, LoadError> {
    bind(wb, Paths::of_sharing(Sharing::On)).map(|(program, _)| program)
}

/// [`build_program`], with the binding problems of a workbook that takes
/// Excel's way with problems as warnings (one per missing name).
fn bind(wb: &Workbook, paths: Paths) -> Result<(Program, Vec<Diagnostic>), LoadError> {
    let (program, issues) = Program::build_from_paths(inputs(wb)?, paths);
    if issues.is_empty() {
        return Ok((program, Vec::new()));
    }
    let diags = issues.iter().map(|i| issue_diagnostic(wb, &program, i)).collect();
    let diags = crate::diagnostic::cap_per_file(unknown_names_once(wb, &issues, diags));
    match wb.excel_errors {
        true => Ok((program, diags)),
        false => Err(diags.into()),
    }
}

/// Shows at most this many of a missing name's other uses in its note.
const USES_SHOWN: usize = 5;

/// One diagnostic per missing name, however many formulas use it: at its
/// first use in the files (the workbook file, then the included ones), the
/// note counting the uses and files and listing the next few places.
/// `diags` are the `issues`' diagnostics, in the same order.
fn unknown_names_once(wb: &Workbook, issues: &[BuildIssue], diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let rank = |d: &Diagnostic| {
        let file = d.file.as_ref().map_or(0, |f| 1 + wb.sources.iter().position(|s| Arc::ptr_eq(s, f)).unwrap_or(0));
        (file, d.span.start)
    };
    // Per missing name (any case): its uses, each place once, in file order.
    let mut uses: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, issue) in issues.iter().enumerate() {
        if let Some(name) = issue.issue.unknown_name() {
            uses.entry(name.to_lowercase()).or_default().push(i);
        }
    }
    let mut keep = vec![true; diags.len()];
    let mut notes: Vec<(usize, String)> = Vec::new();
    for mut at in uses.into_values() {
        at.sort_by_key(|&i| rank(&diags[i]));
        at.dedup_by(|a, b| diags[*a].file.is_some() && rank(&diags[*a]) == rank(&diags[*b]));
        at.iter().for_each(|&i| keep[i] = false);
        keep[at[0]] = true;
        if at.len() > 1 {
            let mut files: Vec<_> = at.iter().filter_map(|&i| diags[i].file.as_ref().map(|f| &f.path)).collect();
            files.dedup();
            let places: Vec<String> = at[1..].iter().take(USES_SHOWN).filter_map(|&i| diags[i].location()).collect();
            let more = at.len() - 1 - places.len();
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            let first = diags[at[0]].note.as_deref().unwrap_or_default();
            let note = format!(
                "used {} times in {} {}; first {first}; also at {}{more}",
                at.len(),
                files.len(),
                if files.len() == 1 { "file" } else { "files" },
                places.join(", ")
            );
            notes.push((at[0], note));
        }
    }
    let mut diags = diags;
    for (i, note) in notes {
        diags[i].note = Some(note);
        diags[i].label = "first use".into();
    }
    diags.into_iter().zip(keep).filter_map(|(d, k)| k.then_some(d)).collect()
}

fn issue_diagnostic(wb: &Workbook, p: &Program, i: &BuildIssue) -> Diagnostic {
    let formula: Option<&Formula> = match i.issue.site {
        Site::Name(n) => wb.names.get(n.index()).map(|n| &n.formula),
        Site::Formula => i.origin.and_then(|e| wb.cells.get(e.index())).and_then(|e| e.content.formula()),
    };
    let d = match formula {
        Some(f) => f.diagnostic(i.issue.span.clone(), i.issue.message_in(&f.text), "here"),
        None => Diagnostic::new(i.issue.message.clone()),
    };
    let site = match i.issue.site {
        Site::Name(n) => format!("in name `{}`, evaluated at {}", wb.names[n.index()].name, p.cell_name(i.cell)),
        Site::Formula => format!("in cell {}", p.cell_name(i.cell)),
    };
    d.with_note(site).in_cell(p.cell_name(i.cell))
}
