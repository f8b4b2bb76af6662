//! Turning the workbook's optional parts on and off from the stepper: `p`
//! lists them numbered (the overlay is drawn by [`super::draw`]), a digit
//! (past 9, a letter: `a` is the tenth) toggles one. The workbook is then loaded again with the new set of
//! parts and prepared as at the start (inputs, reset protocol, `--set`,
//! the same `--show` keys, or every view of the new workbook when none were
//! given), the history restarts at step 0, and the cursor stays on its cell
//! when a view still shows it. A load that fails keeps the workbook as it was.

use super::stepper::{Mode, Stepper};
use crate::app::{Failure, Options};

/// The key of part `i` (from 0) in the list: `1` to `9`, then `a` to `z`.
pub fn key_of(i: usize) -> char {
    match i {
        0..=8 => char::from(b'1' + i as u8),
        _ => char::from(b'a' + (i - 9).min(25) as u8),
    }
}

/// The part a key stands for (from 0), the inverse of [`key_of`].
pub fn part_of(c: char) -> Option<usize> {
    match c {
        '1'..='9' => Some(c as usize - '1' as usize),
        'a'..='z' => Some(c as usize - 'a' as usize + 9),
        _ => None,
    }
}

impl Stepper {
    /// `p`: lists the parts, or says there are none.
    pub fn show_parts(&mut self) {
        if self.session.workbook().parts.is_empty() {
            self.message = Some("this workbook declares no parts".into());
        } else {
            self.mode = Mode::Parts;
        }
    }

    /// The parts as the overlay lists them: `1 [x] name  about`.
    pub fn parts_lines(&self) -> Vec<String> {
        let parts = &self.session.workbook().parts;
        let width = parts.iter().map(|p| p.name.chars().count()).max().unwrap_or(0);
        let mark = |on: bool| if on { "[x]" } else { "[ ]" };
        parts
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{} {} {:width$}  {}", key_of(i), mark(p.on), p.name, p.about))
            .collect()
    }

    /// Turns part `n` (from 0) on or off and loads the workbook again.
    pub fn toggle_part(&mut self, n: usize) {
        let parts = &self.session.workbook().parts;
        let Some(part) = parts.get(n) else {
            self.message = Some(format!("there is no part {}", key_of(n)));
            return;
        };
        let with: Vec<String> =
            parts.iter().filter(|p| p.on != (p.name == part.name)).map(|p| p.name.clone()).collect();
        let options = Options { with: with.clone(), ..self.options.clone() };
        match super::load(&options, &self.show) {
            Ok(mut next) => {
                let cell = self.cell();
                (next.color, next.size, next.search) = (self.color, self.size, self.search.take());
                next.follow_changes = self.follow_changes;
                *self = next;
                if let Some(c) = cell {
                    self.put_cursor(c);
                }
                self.clamp_scroll();
                let on =
                    if with.is_empty() { "no parts on".to_string() } else { format!("parts on: {}", with.join(", ")) };
                self.message = Some(format!("{on}; loaded again, step 0"));
            }
            Err(f) => {
                let why = match f {
                    Failure::Workbook(d) => d.first().map_or_else(String::new, |d| d.message.clone()),
                    Failure::Usage(m) | Failure::Partial(m) => m,
                    Failure::Closed => String::new(),
                };
                self.message = Some(format!("loading with the parts {} failed: {why}", with.join(", ")));
            }
        }
    }
}
