//! The interactive stepper's state, free of any terminal: the history of
//! every state shown (step 0 after the reset protocol, then one entry per
//! iteration or edit, each a whole [`Session`] with the changes that led to
//! it), the cursor into it, the mode (normal, help, editing), the message
//! line and the scroll offset. [`App::on_key`] is the whole key map, so
//! tests drive an `App` with key events and draw it into a test backend.
//! Going back and forward again through recorded history replays stored
//! states; only a step past the newest entry calculates.

use super::board::{Board, by_cell};
use super::draw;
use crate::address::Area;
use crate::cli::Prepared;
use crate::cli::output::Shown;
use crate::cli::output::iterations;
use crate::engine::Report;
use crate::session::{ResetRun, Session};
use crate::trace::{Change, changes};
use crate::value::Value;
use crate::workbook::parse_input_value;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::collections::VecDeque;

/// Values kept across the whole history (the grids of all entries
/// together); past it the oldest entries are dropped.
pub const HISTORY_CELLS: u64 = 1 << 23;

/// The largest area one edit may set.
pub const MAX_EDIT_CELLS: u64 = 1 << 16;

/// How an entry of the history came about.
#[derive(Clone, Debug)]
pub enum Kind {
    /// Step 0: the prepared workbook, after the reset protocol when it ran.
    Start { reset: Option<ResetRun> },
    /// One iteration (one pass of `Session::step`).
    Iteration(Report),
    /// A cell edited, then recalculated.
    Edit { text: String, report: Report },
}

/// One state of the history.
#[derive(Clone)]
pub struct Entry {
    pub session: Session,
    /// Step number: 0 at the start and after a reset, then one more per entry.
    pub number: u32,
    pub kind: Kind,
    /// What changed from the previous entry (none for step 0).
    pub changes: Vec<Change>,
}

impl Entry {
    /// Whether another iteration would change nothing: the last pass
    /// converged.
    pub fn converged(&self) -> bool {
        match &self.kind {
            Kind::Start { .. } => false,
            Kind::Iteration(r) | Kind::Edit { report: r, .. } => r.converged,
        }
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
}

pub struct App {
    pub views: Vec<Shown>,
    history: VecDeque<Entry>,
    cursor: usize,
    /// `--set` cells, applied again after each reset.
    sets: Vec<(Area, Value)>,
    max_entries: usize,
    pub mode: Mode,
    /// Shown in the last status line until the next key.
    pub message: Option<String>,
    /// Scroll offset of the views: (lines, columns).
    pub scroll: (u16, u16),
    /// The terminal's size: (columns, lines).
    pub size: (u16, u16),
    /// Colours for the highlights; bold, reverse, dim and so on otherwise.
    pub color: bool,
    pub quit: bool,
}

impl App {
    /// The app at step 0 for a prepared session, showing `views`, with
    /// colours on and an 80x24 terminal until told otherwise.
    pub fn new(prepared: Prepared, views: Vec<Shown>, sets: Vec<(Area, Value)>) -> App {
        let stored = prepared.session.engine.grid().stored().max(1);
        let max_entries = (HISTORY_CELLS / stored).clamp(16, 1 << 20) as usize;
        let start = Entry {
            session: prepared.session,
            number: 0,
            kind: Kind::Start { reset: prepared.reset },
            changes: Vec::new(),
        };
        let views_empty = views.is_empty();
        App {
            views,
            history: VecDeque::from([start]),
            cursor: 0,
            sets,
            max_entries,
            mode: Mode::Normal,
            message: views_empty.then(|| super::plain::NO_VIEWS.to_string()),
            scroll: (0, 0),
            size: (80, 24),
            color: true,
            quit: false,
        }
    }

    /// The entry shown.
    pub fn current(&self) -> &Entry {
        &self.history[self.cursor]
    }

    /// The newest entry.
    pub fn last(&self) -> &Entry {
        self.history.back().expect("the history is never empty")
    }

    /// Where the cursor is in the history (0 = oldest kept entry).
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Entries kept.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// The boards of the entry shown.
    pub fn boards(&self) -> Vec<Board> {
        let e = self.current();
        let changes = by_cell(&e.changes);
        self.views.iter().map(|v| Board::new(&e.session, v, &changes, draw::MAX_CELL_WIDTH)).collect()
    }

    pub fn resize(&mut self, columns: u16, lines: u16) {
        self.size = (columns, lines);
        self.clamp_scroll();
    }

    /// Handles one key press (releases and other kinds are ignored).
    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            self.quit = true;
            return;
        }
        self.message = None;
        match std::mem::replace(&mut self.mode, Mode::Normal) {
            Mode::Help => {}
            Mode::Edit(text) => self.on_edit_key(text, key),
            Mode::Normal => self.on_normal_key(key),
        }
    }

    fn on_normal_key(&mut self, key: KeyEvent) {
        let page = draw::view_height(self.size.1).max(1);
        match key.code {
            KeyCode::Char(' ') | KeyCode::Char('n') => self.forward(),
            KeyCode::Char('g') => self.run(),
            KeyCode::Char('b') => self.back(),
            KeyCode::Char('r') => self.reset(),
            KeyCode::Char('e') => self.mode = Mode::Edit(String::new()),
            KeyCode::Char('?') | KeyCode::Char('h') => self.mode = Mode::Help,
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            KeyCode::Up => self.scroll.0 = self.scroll.0.saturating_sub(1),
            KeyCode::Down => self.scroll.0 = self.scroll.0.saturating_add(1),
            KeyCode::PageUp => self.scroll.0 = self.scroll.0.saturating_sub(page),
            KeyCode::PageDown => self.scroll.0 = self.scroll.0.saturating_add(page),
            KeyCode::Home => self.scroll = (0, 0),
            KeyCode::End => self.scroll.0 = u16::MAX,
            KeyCode::Left => self.scroll.1 = self.scroll.1.saturating_sub(4),
            KeyCode::Right => self.scroll.1 = self.scroll.1.saturating_add(4),
            _ => {}
        }
        self.clamp_scroll();
    }

    fn on_edit_key(&mut self, mut text: String, key: KeyEvent) {
        match key.code {
            KeyCode::Esc => self.message = Some("edit cancelled".into()),
            KeyCode::Enter => self.edit(text.trim()),
            KeyCode::Backspace => {
                text.pop();
                self.mode = Mode::Edit(text);
            }
            KeyCode::Char(c) => {
                text.push(c);
                self.mode = Mode::Edit(text);
            }
            _ => self.mode = Mode::Edit(text),
        }
    }

    /// Keeps the scroll offset within the page drawn at the current size.
    fn clamp_scroll(&mut self) {
        let (page_w, page_h) = draw::page_extent(&self.boards(), self.size.0);
        let max_y = page_h.saturating_sub(draw::view_height(self.size.1));
        let max_x = page_w.saturating_sub(self.size.0);
        self.scroll = (self.scroll.0.min(max_y), self.scroll.1.min(max_x));
    }

    /// One step forward: the next recorded entry, or a new iteration when
    /// the cursor is at the newest one.
    pub fn forward(&mut self) {
        if self.cursor + 1 < self.history.len() {
            self.cursor += 1;
            return;
        }
        let current = self.current();
        let mut session = current.session.clone();
        let report = session.step();
        let entry = Entry {
            changes: changes(&current.session.engine, &session.engine),
            number: current.number + 1,
            session,
            kind: Kind::Iteration(report),
        };
        self.push(entry);
    }

    /// Steps forward until an iteration converges, at most `max_iterations`
    /// times (replaying recorded entries first).
    pub fn run(&mut self) {
        let cap = self.current().session.engine.settings.max_iterations.max(1);
        if self.current().converged() && self.cursor + 1 == self.history.len() {
            self.message = Some("already converged".into());
            return;
        }
        let mut n = 0;
        while n < cap {
            self.forward();
            n += 1;
            if self.current().converged() {
                self.message = Some(format!("converged at step {}", self.current().number));
                return;
            }
        }
        self.message = Some(format!("not converged after {n} more steps (max_iterations {cap})"));
    }

    /// One step back through the history; nothing at the oldest entry.
    pub fn back(&mut self) {
        if self.cursor == 0 {
            self.message = Some("this is the first step kept".into());
        } else {
            self.cursor -= 1;
        }
    }

    /// Applies the workbook's reset protocol to the state shown (then the
    /// `--set` cells) and starts a new history from it, as step 0.
    pub fn reset(&mut self) {
        let mut session = self.current().session.clone();
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
        for (area, v) in &self.sets {
            for c in area.cells() {
                if let Err(m) = session.set(c, v.clone()) {
                    self.message = Some(format!("--set {area}: {m}"));
                }
            }
        }
        let start = Entry { session, number: 0, kind: Kind::Start { reset: Some(run) }, changes: Vec::new() };
        self.history = VecDeque::from([start]);
        self.cursor = 0;
        self.message.get_or_insert_with(|| "reset".into());
    }

    /// Applies `CELL=VALUE` (a constant; `CELL` may be a range) to the state
    /// shown and recalculates; the result replaces any later history.
    pub fn edit(&mut self, text: &str) {
        let Some((cell, value)) = text.split_once('=') else {
            self.message = Some(format!("`{text}`: expected CELL=VALUE, e.g. Main!D4=5"));
            return;
        };
        let (cell, value) = (cell.trim(), value.trim());
        if value.starts_with('=') {
            self.message = Some("formulas can be edited in the formula files; use watch".into());
            return;
        }
        let current = self.current();
        let area = match current.session.area(cell) {
            Ok(a) if a.size() <= MAX_EDIT_CELLS => a,
            Ok(a) => {
                self.message = Some(format!("{cell} has {} cells; at most {MAX_EDIT_CELLS} can be set", a.size()));
                return;
            }
            Err(m) => {
                self.message = Some(format!("`{cell}`: {m}"));
                return;
            }
        };
        let mut session = current.session.clone();
        let v = parse_input_value(value);
        let mut edited = Vec::new();
        for c in area.cells() {
            let old = session.engine.get(c).clone();
            if let Err(m) = session.set(c, v.clone()) {
                self.message = Some(m);
                return;
            }
            if old != v {
                edited.push(Change { cell: c, old, new: v.clone() });
            }
        }
        let report = session.recalc();
        edited.extend(changes(&current.session.engine, &session.engine));
        let state = if report.converged { "converged" } else { "not converged" };
        let message = format!("{cell}={value}: recalculated, {state} after {}", iterations(report.iterations));
        let entry = Entry {
            number: current.number + 1,
            session,
            kind: Kind::Edit { text: format!("{cell}={value}"), report },
            changes: edited,
        };
        self.message = Some(message);
        self.history.truncate(self.cursor + 1);
        self.push(entry);
    }

    /// Appends an entry, moves the cursor to it and drops the oldest
    /// entries past the history's budget.
    fn push(&mut self, entry: Entry) {
        self.history.push_back(entry);
        while self.history.len() > self.max_entries {
            self.history.pop_front();
        }
        self.cursor = self.history.len() - 1;
    }
}
