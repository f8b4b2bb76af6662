//! The stepper's key map. Stepping: space or `.` one iteration, `G` run to
//! convergence, `b` back, `r` reset, `e` edit a cell. The cell cursor:
//! arrows or `hjkl` (the view scrolls to follow it), PgUp/PgDn/Home/End
//! scroll. Finding cells: `:` or `g` jumps to an address, `/` searches
//! values and formulas, `n`/`N` the next and previous match. `p` lists the
//! workbook's parts and a digit toggles one; `f` turns following changes
//! on or off (each step scrolls to the cells it changed); `x` explains the cell under
//! the cursor (its panel scrolls with the arrows, `jk`, PgUp/PgDn,
//! Home/End); `?` help, `q`/Esc quit. The
//! prompts (edit, jump, search) share one line editor: Enter applies, Esc
//! cancels, Backspace deletes.

use super::draw;
use super::stepper::{Mode, Stepper};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// What a key typed into a prompt did.
enum Typed {
    /// The text changed or stayed; the prompt stays open.
    Open(String),
    Enter(String),
    Cancel,
}

/// One key into a prompt holding `text`.
fn type_key(mut text: String, key: KeyEvent) -> Typed {
    match key.code {
        KeyCode::Esc => Typed::Cancel,
        KeyCode::Enter => Typed::Enter(text.trim().to_string()),
        KeyCode::Backspace => {
            text.pop();
            Typed::Open(text)
        }
        KeyCode::Char(c) => {
            text.push(c);
            Typed::Open(text)
        }
        _ => Typed::Open(text),
    }
}

impl Stepper {
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
        let shown = (self.cursor, self.history.len(), self.current().number);
        self.on_mode_key(key);
        if self.follow_changes && shown != (self.cursor, self.history.len(), self.current().number) {
            self.show_changes();
        }
    }

    /// A key in the current mode.
    fn on_mode_key(&mut self, key: KeyEvent) {
        match std::mem::replace(&mut self.mode, Mode::Normal) {
            Mode::Help => {}
            Mode::Parts => self.on_parts_key(key),
            Mode::Explain(panel) => self.on_explain_key(panel, key),
            Mode::Edit(text) => match type_key(text, key) {
                Typed::Open(t) => self.mode = Mode::Edit(t),
                Typed::Enter(t) => self.edit(&t),
                Typed::Cancel => self.message = Some("edit cancelled".into()),
            },
            Mode::Jump(text) => match type_key(text, key) {
                Typed::Open(t) => self.mode = Mode::Jump(t),
                Typed::Enter(t) => self.jump(&t),
                Typed::Cancel => {}
            },
            Mode::Search(text) => match type_key(text, key) {
                Typed::Open(t) => self.mode = Mode::Search(t),
                Typed::Enter(t) => self.find(&t),
                Typed::Cancel => {}
            },
            Mode::Normal => self.on_normal_key(key),
        }
    }

    fn on_normal_key(&mut self, key: KeyEvent) {
        let page = draw::view_height(self.size.1).max(1);
        match key.code {
            KeyCode::Char(' ') | KeyCode::Char('.') => self.forward(),
            KeyCode::Char('G') => self.run(),
            KeyCode::Char('b') => self.back(),
            KeyCode::Char('r') => self.reset(),
            KeyCode::Char('e') => self.mode = Mode::Edit(String::new()),
            KeyCode::Char(':') | KeyCode::Char('g') => self.mode = Mode::Jump(String::new()),
            KeyCode::Char('/') => self.mode = Mode::Search(String::new()),
            KeyCode::Char('n') => self.find_next(true),
            KeyCode::Char('N') => self.find_next(false),
            KeyCode::Char('p') => self.show_parts(),
            KeyCode::Char('x') => self.open_explain(),
            KeyCode::Char('f') => self.toggle_follow(),
            KeyCode::Char('?') => self.mode = Mode::Help,
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(-1, 0),
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(1, 0),
            KeyCode::Left | KeyCode::Char('h') => self.move_cursor(0, -1),
            KeyCode::Right | KeyCode::Char('l') => self.move_cursor(0, 1),
            KeyCode::PageUp => self.scroll.0 = self.scroll.0.saturating_sub(page),
            KeyCode::PageDown => self.scroll.0 = self.scroll.0.saturating_add(page),
            KeyCode::Home => self.scroll = (0, 0),
            KeyCode::End => self.scroll.0 = u16::MAX,
            _ => {}
        }
        self.clamp_scroll();
    }

    /// A key while the parts are listed: a digit (past 9, a letter) toggles
    /// that part; any other key closes the list.
    fn on_parts_key(&mut self, key: KeyEvent) {
        let parts = self.session.workbook().parts.len();
        match key.code {
            KeyCode::Char(c @ '1'..='9') => self.toggle_part(c as usize - '1' as usize),
            KeyCode::Char(c) => {
                if let Some(n) = super::parts::part_of(c).filter(|&n| n >= 9 && n < parts) {
                    self.toggle_part(n);
                }
            }
            _ => {}
        }
    }
}
