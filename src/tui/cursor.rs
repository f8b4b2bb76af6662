//! The cell cursor: a cell of one of the shown views, moved with the arrows
//! (or `hjkl`) and by jumps and searches. Moving past a view's edge enters
//! the next view (or the previous one), keeping the row or column where the
//! next view has it. The scroll offset follows the cursor: after each move
//! the page is scrolled just enough to show the cell (and its view's top
//! border when it is on the view's first row, else the line above it, where
//! the frozen column headers go; likewise the row headers' columns). With "follow changes" on
//! (`f`), each step scrolls the page to the cells it changed instead,
//! unless one of them is on screen already.

use super::draw;
use super::stepper::Stepper;
use dataflow::address::CellAddr;

/// Where the cell cursor is: a view (by index) and a row and column in it,
/// from 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    pub view: usize,
    pub row: u32,
    pub col: u32,
}

impl Stepper {
    /// The cell under the cursor.
    pub fn cell(&self) -> Option<CellAddr> {
        let c = self.at?;
        Some(self.views.get(c.view)?.cell_at(c.row, c.col))
    }

    /// Moves the cursor one row (`dr`) or column (`dc`) on, into the next
    /// or previous view past an edge; stays at the first and last cell.
    pub fn move_cursor(&mut self, dr: i32, dc: i32) {
        let Some(mut c) = self.at else { return };
        let size = |v: usize| self.views[v].shape();
        let (rows, cols) = size(c.view);
        let (row, col) = (c.row as i64 + dr as i64, c.col as i64 + dc as i64);
        if (0..rows as i64).contains(&row) && (0..cols as i64).contains(&col) {
            (c.row, c.col) = (row as u32, col as u32);
        } else if dr + dc > 0 && c.view + 1 < self.views.len() {
            c.view += 1;
            let (rows, cols) = size(c.view);
            (c.row, c.col) = if dr > 0 { (0, c.col.min(cols - 1)) } else { (c.row.min(rows - 1), 0) };
        } else if dr + dc < 0 && c.view > 0 {
            c.view -= 1;
            let (rows, cols) = size(c.view);
            (c.row, c.col) = if dr < 0 { (rows - 1, c.col.min(cols - 1)) } else { (c.row.min(rows - 1), cols - 1) };
        }
        self.at = Some(c);
        self.follow();
    }

    /// Puts the cursor on `cell` in the first view that shows it; false
    /// when no view does.
    pub fn put_cursor(&mut self, cell: CellAddr) -> bool {
        let Some((view, (row, col))) =
            self.views.iter().enumerate().find_map(|(i, v)| Some((i, v.display.position(&v.area, cell)?)))
        else {
            return false;
        };
        self.at = Some(Cursor { view, row, col });
        self.follow();
        true
    }

    /// `:ADDRESS` (or `g ADDRESS`): the cursor to that cell, its view
    /// scrolled into sight.
    pub fn jump(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        match self.session.area(text) {
            Ok(area) => {
                let cell = area.top_left();
                if !self.put_cursor(cell) {
                    let name = self.session.engine().program().cell_name(cell);
                    self.message = Some(format!("{name} is in no view shown"));
                }
            }
            Err(m) => self.message = Some(format!("`{text}`: {m}")),
        }
    }

    /// Scrolls the page just enough to show the cursor's cell.
    pub(super) fn follow(&mut self) {
        if let Some(c) = self.at {
            self.scroll_to(c);
        }
    }

    /// `f`: turns following changes on or off; on, the page scrolls to the
    /// shown step's changes at once.
    pub fn toggle_follow(&mut self) {
        self.follow_changes = !self.follow_changes;
        self.message = Some(if self.follow_changes {
            self.show_changes();
            "follow changes: on (each step scrolls the page to the cells it changed)".into()
        } else {
            "follow changes: off".into()
        });
    }

    /// Scrolls to the changes of the step shown, unless one is on screen
    /// already: to the first changed cell of the page (top to bottom, then
    /// left to right).
    pub fn show_changes(&mut self) {
        let boards = self.boards();
        let (rects, _, _) = draw::place(&boards, self.size.0);
        let (view_w, view_h) = (self.size.0, draw::view_height(self.size.1));
        let on_screen = |x: u16, y: u16| {
            (self.scroll.1..self.scroll.1.saturating_add(view_w)).contains(&x)
                && (self.scroll.0..self.scroll.0.saturating_add(view_h)).contains(&y)
        };
        let mut first: Option<((u16, u16), Cursor)> = None;
        for ch in self.current().changes() {
            for (view, v) in self.views.iter().enumerate() {
                let Some((row, col)) = v.display.position(&v.area, ch.cell) else { continue };
                let (x, y) = draw::cell_on_page(&boards[view], rects[view], row as usize, col as usize);
                if on_screen(x, y) {
                    return;
                }
                if first.is_none_or(|(at, _)| (y, x) < at) {
                    first = Some(((y, x), Cursor { view, row, col }));
                }
            }
        }
        if let Some((_, c)) = first {
            self.scroll_to(c);
        }
    }

    /// Scrolls the page just enough to show cell `c`.
    fn scroll_to(&mut self, c: Cursor) {
        let boards = self.boards();
        let (rects, _, _) = draw::place(&boards, self.size.0);
        let (Some(b), Some(r)) = (boards.get(c.view), rects.get(c.view)) else { return };
        let (x, y) = draw::cell_on_page(b, *r, c.row as usize, c.col as usize);
        // Past the first row or column, room for the frozen headers too.
        let top = if c.row == 0 { r.y } else { y - 1 };
        let gutter = b.row_labels.iter().map(String::len).max().unwrap_or(0) as u16 + 1;
        let left = if c.col == 0 { r.x } else { x.saturating_sub(gutter) };
        let (view_w, view_h) = (self.size.0.max(1), draw::view_height(self.size.1).max(1));
        let w = (b.width as u16).min(view_w);
        self.scroll.0 = if top < self.scroll.0 {
            top
        } else if y >= self.scroll.0.saturating_add(view_h) {
            y + 1 - view_h
        } else {
            self.scroll.0
        };
        self.scroll.1 = if left < self.scroll.1 {
            left
        } else if x + w > self.scroll.1.saturating_add(view_w) {
            x + w - view_w
        } else {
            self.scroll.1
        };
        self.clamp_scroll();
    }

    /// Keeps the scroll offset within the page drawn at the current size.
    pub(super) fn clamp_scroll(&mut self) {
        let (page_w, page_h) = draw::page_extent(&self.boards(), self.size.0);
        let max_y = page_h.saturating_sub(draw::view_height(self.size.1));
        let max_x = page_w.saturating_sub(self.size.0);
        self.scroll = (self.scroll.0.min(max_y), self.scroll.1.min(max_x));
    }
}
