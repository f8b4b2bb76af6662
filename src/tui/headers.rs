//! Frozen headers, as a spreadsheet's frozen panes: when the page is
//! scrolled so that a board's top border is above the screen while the
//! board goes on below it, the first line of the views shows the board's
//! column letters over its columns; when its left border is left of the
//! screen, the first columns show its row numbers beside its rows. The
//! labels are the sheet's (the first cell of each group of a compact view);
//! a column letter wider than its column covers its neighbours, so labels
//! are written left to right where they fit, one space apart.

use super::board::Board;
use super::draw::cell_on_page;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

/// The headers' style: black on grey with colour, reversed without.
pub fn header_style(color: bool) -> Style {
    if color {
        Style::default().fg(Color::Black).bg(Color::Gray)
    } else {
        Style::default().add_modifier(Modifier::REVERSED)
    }
}

/// Draws the frozen headers of the boards (boxed at `rects` on the page)
/// over the views area `views`, which shows the page from `(sy, sx)`.
pub fn draw_headers(
    buf: &mut Buffer,
    views: Rect,
    boards: &[Board],
    rects: &[Rect],
    (sy, sx): (u16, u16),
    color: bool,
) {
    let style = header_style(color);
    // What page column `x` and page line `y` are on screen, if shown.
    let screen_x = |x: u16| x.checked_sub(sx).filter(|&d| d < views.width).map(|d| views.x + d);
    let screen_y = |y: u16| y.checked_sub(sy).filter(|&d| d < views.height).map(|d| views.y + d);
    for (b, r) in boards.iter().zip(rects) {
        let (inner_left, inner_right) = (r.x + 1, r.right().saturating_sub(1));
        let (inner_top, inner_bottom) = (r.y + 1, r.bottom().saturating_sub(1));
        let rows = r.y < sy && sy < inner_bottom;
        let cols = r.x < sx && sx < inner_right;
        let gutter = b.row_labels.iter().map(String::len).max().unwrap_or(0) as u16 + 1;
        if cols {
            for y in inner_top.max(sy)..inner_bottom {
                if let Some(line) = screen_y(y) {
                    buf.set_stringn(views.x, line, " ".repeat(gutter as usize), gutter as usize, style);
                }
            }
            for (i, label) in b.row_labels.iter().enumerate() {
                let (_, y) = cell_on_page(b, *r, i, 0);
                if let Some(line) = screen_y(y) {
                    buf.set_stringn(
                        views.x,
                        line,
                        format!("{label:>w$}", w = gutter as usize - 1),
                        gutter as usize,
                        style,
                    );
                }
            }
        }
        if rows {
            let (from, to) = (inner_left.max(sx), inner_right.min(sx.saturating_add(views.width)));
            if let Some(x0) = screen_x(from) {
                let n = to.saturating_sub(from) as usize;
                buf.set_stringn(x0, views.y, " ".repeat(n), n, style);
            }
            let mut free = 0u16;
            for (j, label) in b.col_labels.iter().enumerate() {
                let (x, _) = cell_on_page(b, *r, 0, j);
                let len = label.len() as u16;
                let x = if (len as usize) < b.width { x.saturating_add(b.width as u16 - len) } else { x };
                if x < free || x.saturating_add(len) > inner_right {
                    continue;
                }
                free = x.saturating_add(len).saturating_add(1);
                for (k, ch) in label.chars().enumerate() {
                    if let Some(col) = screen_x(x.saturating_add(k as u16)) {
                        buf.set_stringn(col, views.y, ch.to_string(), 1, style);
                    }
                }
            }
            if cols {
                buf.set_stringn(views.x, views.y, " ".repeat(gutter as usize), gutter as usize, style);
            }
        }
    }
}
