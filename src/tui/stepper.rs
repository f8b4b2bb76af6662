//! The interactive stepper's state, free of any terminal: the session in
//! the state shown, the history of how it got there (step 0 after the reset
//! protocol, then one entry per iteration or edit, each keeping only the
//! [`Delta`] that step made), the cursor into it, the mode (normal, help,
//! a prompt, the parts list, the explain panel), what step 0 was made
//! from, the cell cursor, the last search, the message
//! line and the scroll offset, and how the workbook was loaded (to load it
//! again with other parts). [`Stepper::on_key`] (in [`super::keys`]) is the
//! whole key map, so tests drive a `Stepper` with key events and draw it
//! into a test backend. Going back undoes the shown entry's delta and going forward
//! again replays it, so memory grows with what changed, not with the size
//! of the workbook; only a step past the newest entry calculates, as a pass
//! of the engine's one recalculation loop.

use super::board::{Board, by_cell};
use super::cursor::Cursor;
use super::draw;
use super::explain::{Origin, Panel};
use super::legend;
use crate::app::{Options, Prepared, Shown};
use dataflow::address::Area;
use dataflow::engine::{Change, Delta, EachPass, Engine, Flow, PassInfo, Recorder};
use dataflow::session::{ResetRun, Session};
use dataflow::value::Value;
use dataflow::workbook::parse_input_value;
use std::collections::VecDeque;

/// Changed cells kept across the whole history (the deltas of all entries
/// together); past it the oldest entries are dropped.
pub const HISTORY_CELLS: usize = 1 << 20;

/// The largest area one edit may set.
pub const MAX_EDIT_CELLS: u64 = 1 << 16;

/// How an entry of the history came about.
#[derive(Clone, Debug)]
pub enum Kind {
    /// Step 0: the prepared workbook, after the reset protocol when it ran.
    Start { reset: Option<ResetRun> },
    /// One iteration: one pass of the recalculation.
    Iteration(PassInfo),
    /// Cells set to a constant (`CELL=VALUE`); the iterations that follow
    /// are the next steps.
    Edit { text: String },
}

/// One step of the history.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Step number: 0 at the start and after a reset, then one more per entry.
    pub number: u32,
    pub kind: Kind,
    /// What the step changed from the previous entry (nothing for step 0).
    pub delta: Delta,
}

impl Entry {
    /// Whether another iteration would change nothing: the last pass
    /// converged.
    pub fn converged(&self) -> bool {
        match &self.kind {
            Kind::Start { .. } => false,
            Kind::Iteration(p) => p.converged,
            // The cells it set wait for the next step.
            Kind::Edit { .. } => false,
        }
    }

    /// `Some(p)` when the step's values repeat those of `p` iterations
    /// before: more iterations go round the same values.
    pub fn period(&self) -> Option<u32> {
        match &self.kind {
            Kind::Start { .. } => None,
            Kind::Iteration(p) => p.period,
            Kind::Edit { .. } => None,
        }
    }

    /// Whether iterating further is pointless: converged or oscillating.
    fn settled(&self) -> bool {
        self.converged() || self.period().is_some()
    }

    /// The cells the step changed, in calculation order.
    pub fn changes(&self) -> &[Change] {
        &self.delta.changes
    }
}

/// What the keys are doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    /// The help overlay; any key closes it.
    Help,
    /// Typing `CELL=VALUE`.
    Edit(String),
    /// Typing an address to jump to (`:` or `g`).
    Jump(String),
    /// Typing what to search for (`/`).
    Search(String),
    /// The list of the workbook's parts; a digit toggles one.
    Parts,
    /// The explain panel of a cell (`x`); scrolling keys scroll it, any
    /// other key closes it.
    Explain(Panel),
}

pub struct Stepper {
    pub views: Vec<Shown>,
    /// The workbook in the state of the entry at the cursor.
    pub(super) session: Session,
    pub(super) history: VecDeque<Entry>,
    pub(super) cursor: usize,
    /// Changed cells held by the history's deltas.
    held: usize,
    /// `--set` cells, applied again after each reset.
    pub(super) sets: Vec<(Area, Value)>,
    /// What step 0 was made from, for the explain panel.
    pub(super) origin: Origin,
    pub mode: Mode,
    /// The cell cursor (none when no view is shown).
    pub at: Option<Cursor>,
    /// The last search (`n` and `N` look for it again).
    pub search: Option<String>,
    /// How the workbook was loaded and which views were asked for, to load
    /// it again with other parts.
    pub(super) options: Options,
    pub(super) show: Vec<String>,
    /// Shown in the last status line until the next key.
    pub message: Option<String>,
    /// Scroll offset of the views: (lines, columns).
    pub scroll: (u16, u16),
    /// The terminal's size: (columns, lines).
    pub size: (u16, u16),
    /// Colours for the highlights; bold, reverse, dim and so on otherwise.
    pub color: bool,
    /// `f`: each step scrolls the page to the cells it changed.
    pub follow_changes: bool,
    pub quit: bool,
    /// The last reset made by `r`: the state it was applied to, the state
    /// it gave (before the `--set` cells) and its run. A reset from the
    /// same state again (after running to the same end) restores it.
    last_reset: Option<Box<(Session, Session, ResetRun)>>,
}

impl Stepper {
    /// The app at step 0 for a prepared session (made from `origin`),
    /// showing `views`, with colours on and an 80x24 terminal until told
    /// otherwise.
    pub fn new(prepared: Prepared, origin: Origin, views: Vec<Shown>, sets: Vec<(Area, Value)>) -> Stepper {
        let start = Entry { number: 0, kind: Kind::Start { reset: prepared.reset }, delta: Delta::default() };
        let views_empty = views.is_empty();
        Stepper {
            views,
            session: prepared.session,
            history: VecDeque::from([start]),
            cursor: 0,
            held: 0,
            sets,
            origin,
            mode: Mode::Normal,
            at: (!views_empty).then_some(Cursor::default()),
            search: None,
            options: Options::default(),
            show: Vec::new(),
            message: views_empty.then(|| super::plain::NO_VIEWS.to_string()),
            scroll: (0, 0),
            size: (80, 24),
            color: true,
            follow_changes: false,
            quit: false,
            last_reset: None,
        }
    }

    #[cfg(test)]
    /// Changed cells the history keeps, over all its entries.
    pub fn history_cells(&self) -> usize {
        self.held
    }

    /// The workbook as the entry shown left it.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The entry shown.
    pub fn current(&self) -> &Entry {
        &self.history[self.cursor]
    }

    /// The newest entry.
    pub fn last(&self) -> &Entry {
        &self.history[self.history.len() - 1]
    }

    /// Where the cursor is in the history (0 = oldest kept entry).
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Entries kept.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// The boards of the entry shown, each cell that went blank marked
    /// with the view that caused it (see [`legend::causes`]).
    pub fn boards(&self) -> Vec<Board> {
        let changes = by_cell(self.current().changes());
        let before = self.cursor.checked_sub(1).map(|i| self.history[i].changes());
        let causes = legend::causes(&self.session, &self.views, self.current().changes(), before.unwrap_or(&[]));
        self.views
            .iter()
            .map(|v| {
                let mut b = Board::new(self.session.engine(), v, &changes, draw::MAX_CELL_WIDTH);
                b.mark_causes(v, &causes);
                b
            })
            .collect()
    }

    pub fn resize(&mut self, columns: u16, lines: u16) {
        self.size = (columns, lines);
        self.clamp_scroll();
    }

    /// One step forward: the next recorded entry, or a new iteration when
    /// the cursor is at the newest one.
    pub fn forward(&mut self) {
        if self.cursor + 1 < self.history.len() {
            self.cursor += 1;
            self.session.engine_mut().redo(&self.history[self.cursor].delta);
        } else {
            self.calculate(1);
        }
    }

    /// Steps forward until an iteration converges or oscillates, at most
    /// `max_iterations` times: recorded entries are replayed first, the
    /// rest are the passes of one recalculation.
    pub fn run(&mut self) {
        let cap = self.session.engine().settings.max_iterations.max(1);
        if self.current().settled() && self.cursor + 1 == self.history.len() {
            self.message =
                Some(if self.current().converged() { "already converged" } else { "already oscillating" }.into());
            return;
        }
        let mut n = 0;
        while n < cap && self.cursor + 1 < self.history.len() && !self.current().settled() {
            self.forward();
            n += 1;
        }
        if n < cap && !self.current().settled() {
            n += self.calculate(cap - n);
        }
        let (number, period) = (self.current().number, self.current().period());
        self.message = Some(if self.current().converged() {
            format!("converged at step {number}")
        } else if let Some(p) = period {
            format!("oscillates with period {p} at step {number}")
        } else {
            format!("not converged after {n} more steps (max_iterations {cap})")
        });
    }

    /// Calculates up to `passes` iterations past the newest entry, one entry
    /// each; stops early when one converges or oscillates. Returns the
    /// passes made.
    fn calculate(&mut self, passes: u32) -> u32 {
        let mut number = self.current().number;
        let mut entries = Vec::new();
        let engine: &mut Engine = self.session.engine_mut();
        let mut each = EachPass::new(engine, |_: &Engine, pass: &PassInfo, delta: Delta| {
            number += 1;
            entries.push(Entry { number, kind: Kind::Iteration(*pass), delta });
            if pass.pass >= passes { Flow::Stop } else { Flow::Continue }
        });
        engine.recalc_with(&mut each);
        let made = entries.len() as u32;
        entries.into_iter().for_each(|e| self.push(e));
        made
    }

    /// One step back through the history; nothing at the oldest entry.
    pub fn back(&mut self) {
        if self.cursor == 0 {
            self.message = Some("this is the first step kept".into());
        } else {
            self.session.engine_mut().undo(&self.history[self.cursor].delta);
            self.cursor -= 1;
        }
    }

    /// Applies the workbook's reset protocol to the state shown (then the
    /// `--set` cells) and starts a new history from it, as step 0. From the
    /// state the last reset started from, its result is restored instead
    /// of calculated (see [`Session::resets_like`]).
    pub fn reset(&mut self) {
        let (mut session, run) = match self.last_reset.as_deref() {
            Some((before, after, run)) if self.session.resets_like(before) => (after.clone(), run.clone()),
            _ => {
                let mut session = self.session.clone();
                let run = match session.reset() {
                    Ok(Some(run)) => run,
                    Ok(None) => {
                        self.message = Some("this workbook has no reset protocol".into());
                        return;
                    }
                    Err(m) => {
                        self.message = Some(format!("reset failed: {m}"));
                        return;
                    }
                };
                self.last_reset = Some(Box::new((self.session.clone(), session.clone(), run.clone())));
                (session, run)
            }
        };
        for (area, v) in &self.sets {
            for c in area.cells() {
                if let Err(m) = session.set(c, v.clone()) {
                    self.message = Some(format!("--set {area}: {m}"));
                }
            }
        }
        self.origin = Origin { session: std::mem::replace(&mut self.session, session), reset: true };
        let start = Entry { number: 0, kind: Kind::Start { reset: Some(run) }, delta: Delta::default() };
        self.history = VecDeque::from([start]);
        self.cursor = 0;
        self.held = 0;
        self.message.get_or_insert_with(|| "reset".into());
    }

    /// Applies an edit typed at `e` to the state shown: `VALUE` or
    /// `=FORMULA` for the cell under the cursor, `CELL=VALUE` or
    /// `CELL==FORMULA` for another cell or a range. A constant is set and
    /// nothing recalculated yet: the edit is a step of its own, and the
    /// iterations that follow it are watched step by step (the result
    /// replaces any later history). A formula goes to
    /// [`Stepper::enter_formula`].
    pub fn edit(&mut self, text: &str) {
        let (cell, value) = match text.split_once('=') {
            Some((c, v)) if !c.trim().is_empty() && self.session.area(c.trim()).is_ok() => {
                (c.trim().to_string(), v.trim().to_string())
            }
            _ => match self.cell() {
                Some(c) => (self.session.workbook().sheets.cell(c), text.trim().to_string()),
                None => {
                    self.message = Some(format!("`{text}`: expected CELL=VALUE, e.g. Main!D4=5"));
                    return;
                }
            },
        };
        if value.starts_with('=') || value.starts_with("{=") {
            return self.enter_formula(&cell, &value);
        }
        let Some(area) = self.edit_area(&cell) else { return };
        let v = parse_input_value(&value);
        let engine = self.session.engine_mut();
        let mut recorder = Recorder::start(engine);
        if let Err(m) = area.cells().try_for_each(|c| recorder.set(engine, c, v.clone())) {
            // A refused cell (a formula, a grid too large) refuses the whole
            // edit: the cells already set are put back.
            engine.undo(&recorder.finish(engine));
            self.message = Some(m.to_string());
            return;
        }
        let delta = recorder.finish(engine);
        self.message.get_or_insert(format!("{cell}={value}: set; step to calculate what follows, G to run"));
        let entry =
            Entry { number: self.current().number + 1, kind: Kind::Edit { text: format!("{cell}={value}") }, delta };
        self.truncate_after_cursor();
        self.push(entry);
    }

    /// Enters `text` (a formula, `=...` or `{=...}`) into `cell` (a cell or
    /// a range) of the state shown, as typing it into Excel does
    /// ([`Session::enter`]); a formula that does not parse or bind is
    /// refused with its located message and changes nothing. The recorded
    /// steps replay the old formulas, so the history starts again at step
    /// 0 from the edited state (the values kept, the edited cells and what
    /// reads them waiting for the next step), and explain starts from it.
    /// The web page's edits (`dataflow serve`) come here.
    pub fn enter_formula(&mut self, cell: &str, text: &str) {
        let Some(area) = self.edit_area(cell) else { return };
        let mut session = self.session.clone();
        if let Err(e) = session.enter(area, text) {
            self.message = Some(e.to_string());
            return;
        }
        let origin = Origin { session: session.clone(), reset: false };
        let mut next = Stepper::new(Prepared { session, reset: None }, origin, self.views.clone(), self.sets.clone());
        (next.options, next.show, next.at) = (self.options.clone(), self.show.clone(), self.at);
        (next.color, next.size, next.follow_changes) = (self.color, self.size, self.follow_changes);
        next.message = Some(format!("{cell}={text}: entered; the history starts again at step 0 (step to calculate)"));
        *self = next;
    }

    /// The area `cell` names for an edit, or `None` with the message why
    /// not (not an address or name, more than [`MAX_EDIT_CELLS`] cells).
    fn edit_area(&mut self, cell: &str) -> Option<Area> {
        let why = match self.session.area(cell) {
            Ok(a) if a.size() <= MAX_EDIT_CELLS => return Some(a),
            Ok(a) => format!("{cell} has {} cells; at most {MAX_EDIT_CELLS} can be set", a.size()),
            Err(m) => format!("`{cell}`: {m}"),
        };
        self.message = Some(why);
        None
    }

    /// Drops the entries after the cursor (a new branch of the history).
    fn truncate_after_cursor(&mut self) {
        let dropped: usize = self.history.drain(self.cursor + 1..).map(|e| e.delta.len()).sum();
        self.held -= dropped;
    }

    /// Appends an entry (the step just made on the session), moves the
    /// cursor to it and drops the oldest entries past the history's budget.
    fn push(&mut self, entry: Entry) {
        self.held += entry.delta.len();
        self.history.push_back(entry);
        while self.held > HISTORY_CELLS && self.history.len() > 1 {
            if let Some(e) = self.history.pop_front() {
                self.held -= e.delta.len();
            }
        }
        self.cursor = self.history.len() - 1;
    }
}
