//! What the page asks for, as JSON posted to `/api/act`: a step forward or
//! back, a run to the end, a reset, a jump to a recorded step (the
//! slider), an edit `CELL=VALUE` or `CELL==FORMULA`, a part toggled, a puzzle entered (a line
//! pasted, or line N of the input's `--input` file), or a cell's details.
//! Each is the terminal stepper's own operation ([`Stepper`]'s `forward`,
//! `back`, `run`, `reset`, `edit`, `enter_formula`, `toggle_part`, `cell_line`,
//! `open_explain`), so the page and the terminal say the same things; the
//! answer is the new state, or the cell's details. A request naming a view,
//! input or line that does not exist is refused (400) and changes nothing.

use super::state::App;
use crate::cli::watch::failure_text;
use crate::tui::cursor::Cursor;
use crate::tui::explain::Role;
use crate::tui::stepper::Mode;
use serde::Deserialize;
use serde_json::{Value as Json, json};

/// One request of the page.
#[derive(Debug, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    // The actions without fields are empty structs, so that an unknown
    // field is refused for them too (`{"do":"reset","extra":1}`).
    /// The state as it is.
    State {},
    Forward {},
    Back {},
    Run {},
    Reset {},
    /// To the recorded step numbered `to` (replaying or undoing the history).
    Goto {
        to: u32,
    },
    /// `CELL=VALUE`, as the stepper's `e` takes it, or `CELL==FORMULA`
    /// (`CELL={=FORMULA}` for an array formula), entered as in Excel.
    Edit {
        text: String,
    },
    /// Toggles part `index` (from 0) and loads the workbook again.
    Part {
        index: usize,
    },
    /// Fills input `name` with `line`, or with line `pick` (from 1) of its
    /// `--input` file, and loads the workbook again at step 0.
    Input {
        name: String,
        line: Option<String>,
        pick: Option<usize>,
    },
    /// The details of the cell shown at (`row`, `col`) of view `view`; in
    /// a compact view, of its pencil mark `mark` (from 0, row by row) when
    /// given, else of the group's first cell.
    Cell {
        view: usize,
        row: u32,
        col: u32,
        mark: Option<usize>,
    },
}

impl App {
    /// Carries out `action`; `Err` is a refused request (nothing changed).
    pub fn act(&mut self, action: Action) -> Result<Json, String> {
        if !matches!(action, Action::State {}) {
            // The message of the last action (or reload) lasts until the next.
            self.stepper.message = None;
        }
        let s = &mut self.stepper;
        match action {
            Action::State {} => {}
            Action::Forward {} => s.forward(),
            Action::Back {} => s.back(),
            Action::Run {} => s.run(),
            Action::Reset {} => s.reset(),
            Action::Goto { to } => self.goto(to),
            Action::Edit { text } => match text.split_once('=') {
                Some((cell, value)) if value.trim_start().starts_with('=') || value.trim_start().starts_with("{=") => {
                    s.enter_formula(cell.trim(), value.trim())
                }
                _ => s.edit(&text),
            },
            Action::Part { index } => s.toggle_part(index),
            Action::Input { name, line, pick } => self.input(&name, line, pick)?,
            Action::Cell { view, row, col, mark } => return self.cell(view, row, col, mark),
        }
        Ok(self.state())
    }

    /// Goes through the recorded history to step `to` (clamped to it).
    fn goto(&mut self, to: u32) {
        let s = &mut self.stepper;
        while s.current().number < to && s.cursor() + 1 < s.history_len() {
            s.forward();
        }
        while s.current().number > to && s.cursor() > 0 {
            s.back();
        }
    }

    /// Loads the workbook again with input `name` filled anew.
    fn input(&mut self, name: &str, line: Option<String>, pick: Option<usize>) -> Result<(), String> {
        if !self.stepper.session().workbook().inputs.iter().any(|i| i.name == name) {
            return Err(format!("the workbook has no input `{name}`"));
        }
        let value = match (line, pick) {
            // The line itself: `@FILE` would have the server read a file
            // the request names (its first symbols come back in the
            // message; `@/dev/zero` never ends), which no request may.
            (Some(line), None) if line.trim().starts_with('@') => {
                return Err("a puzzle line is its symbols; `@FILE` is for the command line's --input".into());
            }
            (Some(line), None) => line.trim().to_string(),
            (None, Some(n)) => {
                let file = self.files.iter().find(|f| f.name == name).ok_or("no --input file was given for it")?;
                if n == 0 || n > file.lines {
                    return Err(format!("`{}` has lines 1 to {}", file.path, file.lines));
                }
                format!("@{}:{n}", file.path)
            }
            _ => return Err("give either a line or a line number to pick".into()),
        };
        let mut options = self.current_options();
        options.inputs.retain(|i| i.split_once('=').is_none_or(|(n, _)| n != name));
        options.inputs.push(format!("{name}={value}"));
        match crate::tui::load(&options, &self.show) {
            Ok(mut next) => {
                next.message = Some(format!("{name} filled; loaded again, step 0"));
                self.stepper = next;
                self.options = options;
            }
            Err(f) => self.stepper.message = Some(failure_text(&f, false).trim_end().to_string()),
        }
        Ok(())
    }

    /// A cell's address, value, last change and formula (the stepper's
    /// status line), and its explain panel's lines with their roles.
    fn cell(&mut self, view: usize, row: u32, col: u32, mark: Option<usize>) -> Result<Json, String> {
        let s = &mut self.stepper;
        let v = s.views.get(view).ok_or_else(|| format!("there is no view {view}"))?;
        let (rows, cols) = v.shape();
        if row >= rows || col >= cols {
            return Err(format!("view `{}` has {rows} rows and {cols} columns", v.key));
        }
        let cell = match mark {
            Some(k) if v.display.compact.is_some() => v.display.cells(&v.area, row, col).cells().nth(k),
            _ => Some(v.cell_at(row, col)),
        };
        let cell = cell.ok_or_else(|| format!("the cell has no pencil mark {}", mark.unwrap_or(0)))?;
        s.at = Some(Cursor { view, row, col });
        let line = Some(s.cell_line_of(cell));
        s.open_explain_of(cell);
        let explain: Vec<Json> = match std::mem::replace(&mut s.mode, Mode::Normal) {
            Mode::Explain(panel) => panel.lines.iter().map(|(role, text)| json!([role_name(*role), text])).collect(),
            _ => Vec::new(),
        };
        let note = s.message.take();
        Ok(json!({ "line": line, "explain": explain, "note": note }))
    }
}

/// How the page draws an explain line.
fn role_name(r: Role) -> &'static str {
    match r {
        Role::Plain => "plain",
        Role::Past => "past",
        Role::Current => "current",
        Role::Ahead => "ahead",
    }
}
