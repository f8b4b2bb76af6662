//! Painting an [`Stepper`] into a ratatui frame. The views are boxed boards laid
//! out left to right while they fit the terminal's width and wrapped onto
//! further rows otherwise (so the Sudoku's three boards stand side by side
//! on a wide terminal, and on 80 columns the two 9x9 boards sit above the
//! candidates board); the whole page is drawn off screen and the part the
//! scroll offset selects is copied into the frame. Below the page, three
//! status lines: the step and what it changed, the views' non-blank counts,
//! and the message, the edit prompt or the key hints. `?` draws the help
//! box over everything, `x` the explain panel; a board scrolled past its
//! top or left edge keeps its headers on screen ([`headers`]). Highlights: a cell that got
//! a value is bold green, one that went blank shows its old value dim red,
//! any other change is yellow; without colour (`NO_COLOR`) they are bold
//! reversed, dim crossed out and underlined. A cell of a region the view's
//! region map marks has a dark grey background (italic without colour).

use super::board::{Board, BoardCell, Counts, Mark};
use super::stepper::{Kind, Mode, Stepper};
use super::{explain, headers, legend, overlay};
use crate::app::{iterations, pass_state};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

/// Lines under the views.
pub const STATUS_LINES: u16 = 4;

/// Cell texts are cut to this many characters on screen.
pub const MAX_CELL_WIDTH: usize = 16;

/// Lines left for the views on a terminal `lines` high.
pub fn view_height(lines: u16) -> u16 {
    lines.saturating_sub(STATUS_LINES)
}

/// Where each board's box goes on the page, and the page's (width, height):
/// boxes left to right with one column between them, a new row of boxes
/// when the next one would pass `width`.
pub fn place(boards: &[Board], width: u16) -> (Vec<Rect>, u16, u16) {
    let (mut x, mut y, mut row_h, mut page_w) = (0u16, 0u16, 0u16, 0u16);
    let mut rects = Vec::with_capacity(boards.len());
    for b in boards {
        let w = (b.line_width() + 2).max(b.title.chars().count() + 4).min(u16::MAX as usize / 2) as u16;
        let h = (b.line_count() + 2).min(u16::MAX as usize / 2) as u16;
        if x > 0 && x.saturating_add(w) > width {
            y = y.saturating_add(row_h).saturating_add(1);
            x = 0;
            row_h = 0;
        }
        rects.push(Rect::new(x, y, w, h));
        page_w = page_w.max(x.saturating_add(w));
        row_h = row_h.max(h);
        x = x.saturating_add(w).saturating_add(1);
    }
    (rects, page_w, y.saturating_add(row_h))
}

/// The (width, height) of the page of `boards` on a terminal `width` wide.
pub fn page_extent(boards: &[Board], width: u16) -> (u16, u16) {
    let (_, w, h) = place(boards, width);
    (w, h)
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &Stepper) {
    let area = frame.area();
    let views = Rect { height: view_height(area.height), ..area };
    let status = Rect { y: area.y + views.height, height: area.height - views.height, ..area };
    let boards = app.boards();
    let top = draw_page(frame.buffer_mut(), views, &boards, app);
    draw_status(frame, status, &boards, app, (top, views.height));
    match &app.mode {
        Mode::Help => overlay::draw_help(frame.buffer_mut(), area, app.color),
        Mode::Parts => overlay::draw_parts(frame.buffer_mut(), area, &app.parts_lines()),
        Mode::Explain(panel) => explain::draw_explain(frame.buffer_mut(), area, panel, app.color),
        _ => {}
    }
}

/// Where cell (`row`, `col`) of board `b`, boxed at `r`, starts on the page.
pub fn cell_on_page(b: &Board, r: Rect, row: usize, col: usize) -> (u16, u16) {
    let (x, y) = b.cell_offset(row, col);
    (r.x.saturating_add(1).saturating_add(x as u16), r.y.saturating_add(1).saturating_add(y as u16))
}

/// The cursor's style over a cell's `style`: reversed on a blue background
/// with colour; reversed (or not, when it already was) and underlined without.
pub fn cursor_style(style: Style, color: bool) -> Style {
    if color {
        style.bg(Color::Blue).fg(Color::White).add_modifier(Modifier::BOLD)
    } else if style.add_modifier.contains(Modifier::REVERSED) {
        style.remove_modifier(Modifier::REVERSED).add_modifier(Modifier::UNDERLINED)
    } else {
        style.add_modifier(Modifier::REVERSED | Modifier::UNDERLINED)
    }
}

/// Draws the visible part of the page; returns the first page line shown.
fn draw_page(buf: &mut Buffer, views: Rect, boards: &[Board], app: &Stepper) -> u16 {
    let (rects, page_w, page_h) = place(boards, views.width);
    let mut page = Buffer::empty(Rect::new(0, 0, page_w, page_h));
    for (b, r) in boards.iter().zip(&rects) {
        draw_board(&mut page, *r, b, app.color);
    }
    if let Some(c) = app.at
        && let (Some(b), Some(r)) = (boards.get(c.view), rects.get(c.view))
    {
        let (x, y) = cell_on_page(b, *r, c.row as usize, c.col as usize);
        for dx in 0..b.width as u16 {
            if let Some(cell) = page.cell_mut(Position::new(x.saturating_add(dx), y)) {
                cell.set_style(cursor_style(cell.style(), app.color));
            }
        }
    }
    let sy = app.scroll.0.min(page_h.saturating_sub(views.height));
    let sx = app.scroll.1.min(page_w.saturating_sub(views.width));
    for y in 0..views.height.min(page_h - sy.min(page_h)) {
        for x in 0..views.width.min(page_w - sx.min(page_w)) {
            if let (Some(src), Some(dst)) =
                (page.cell(Position::new(x + sx, y + sy)), buf.cell_mut(Position::new(views.x + x, views.y + y)))
            {
                *dst = src.clone();
            }
        }
    }
    headers::draw_headers(buf, views, boards, &rects, (sy, sx), app.color);
    sy
}

/// The style of a board cell: its mark's, or with colour the colour of the
/// view that caused it to go blank.
pub fn cell_style(cell: &BoardCell, color: bool) -> Style {
    let style = match (cell.cause, color) {
        (Some(view), true) => Style::default().fg(legend::view_color(view)),
        _ => mark_style(cell.mark, color),
    };
    let style = if cell.region { region_style(style, color) } else { style };
    if cell.spill { spill_style(style, color) } else { style }
}

/// A cell of a dynamic array's spill range: on a blue background with
/// colour, italic without.
pub fn spill_style(style: Style, color: bool) -> Style {
    if color { style.bg(Color::Blue) } else { style.add_modifier(Modifier::ITALIC) }
}

/// A cell of a region the view's region map marks: on a dark grey
/// background with colour, italic without.
pub fn region_style(style: Style, color: bool) -> Style {
    if color { style.bg(Color::DarkGray) } else { style.add_modifier(Modifier::ITALIC) }
}

/// The style of a cell marked `mark`.
pub fn mark_style(mark: Mark, color: bool) -> Style {
    let s = Style::default();
    match (mark, color) {
        (Mark::Same, _) => s,
        (Mark::Filled, true) => s.fg(Color::Green).add_modifier(Modifier::BOLD),
        (Mark::Blanked, true) => s.fg(Color::Red).add_modifier(Modifier::DIM),
        (Mark::Changed, true) => s.fg(Color::Yellow),
        (Mark::Filled, false) => s.add_modifier(Modifier::BOLD | Modifier::REVERSED),
        (Mark::Blanked, false) => s.add_modifier(Modifier::DIM | Modifier::CROSSED_OUT),
        (Mark::Changed, false) => s.add_modifier(Modifier::UNDERLINED),
    }
}

fn draw_board(buf: &mut Buffer, r: Rect, b: &Board, color: bool) {
    let block = Block::bordered().title(format!(" {} {}/{} ", b.title, b.non_blank, b.size));
    let inner = block.inner(r);
    block.render(r, buf);
    let w = b.width;
    let mut y = inner.y;
    for (i, row) in b.rows.iter().enumerate() {
        if Board::rule_before(i, b.group.0) {
            let mut rule = String::new();
            for j in 0..row.len() {
                if j > 0 {
                    rule.push_str(if Board::rule_before(j, b.group.1) { "─┼─" } else { "─" });
                }
                rule.push_str(&"─".repeat(w));
            }
            let pad = (inner.width as usize).saturating_sub(rule.chars().count());
            rule.push_str(&"─".repeat(pad));
            buf.set_string(inner.x, y, rule, Style::default());
            // Join the rule to the box's sides.
            if let Some(c) = buf.cell_mut(Position::new(r.x, y)) {
                c.set_symbol("├");
            }
            if let Some(c) = buf.cell_mut(Position::new(r.right() - 1, y)) {
                c.set_symbol("┤");
            }
            y += 1;
        }
        let mut spans = Vec::with_capacity(row.len() * 2);
        for (j, cell) in row.iter().enumerate() {
            if j > 0 {
                spans.push(Span::raw(if Board::rule_before(j, b.group.1) { " │ " } else { " " }));
            }
            spans.push(Span::styled(format!("{:>w$}", cell.text), cell_style(cell, color)));
        }
        buf.set_line(inner.x, y, &Line::from(spans), inner.width);
        y += 1;
    }
}

/// The first status line: the step, how it came about, what it changed.
pub fn step_line(app: &Stepper) -> String {
    let e = app.current();
    let last = app.last().number;
    let mut s = format!("step {}/{last}", e.number);
    match &e.kind {
        Kind::Start { reset: Some(r) } => {
            s.push_str(&format!(" │ after the reset protocol ({})", iterations(r.report.iterations)))
        }
        Kind::Start { reset: None } => s.push_str(" │ start (no reset protocol run)"),
        Kind::Iteration(r) => {
            let state = pass_state(r.converged, r.period);
            s.push_str(&format!(" │ {state} │ max change {}", dataflow::policy::change_text(r.max_change)));
        }
        Kind::Edit { text } => s.push_str(&format!(" │ edit {text} (step to calculate what follows)")),
    }
    if e.number > 0 {
        let n = Counts::of(e.changes());
        s.push_str(&format!(" │ changed {}: {}", n.total(), n.describe()));
    }
    s
}

/// The prompt of a mode that reads a line, with the text typed so far.
fn prompt(mode: &Mode) -> Option<(&'static str, &str)> {
    match mode {
        Mode::Edit(t) => Some((
            "edit: VALUE or =FORMULA for the cell under the cursor, or CELL=VALUE (Enter applies, Esc cancels): ",
            t,
        )),
        Mode::Jump(t) => Some(("go to (a cell, e.g. Main!D16; Enter goes, Esc cancels): ", t)),
        Mode::Search(t) => Some(("search values and formulas (Enter finds, Esc cancels): /", t)),
        _ => None,
    }
}

/// The key hints of the last status line.
pub const HINTS: &str = "spc step · G run · b back · r reset · e edit · : go · / find · p parts · ? help";

/// The views line, which is also the legend: each view's name in the
/// colour its caused changes are drawn in (with colour on), its non-blank
/// count, and which lines of the page are shown when it does not fit.
fn views_line(boards: &[Board], color: bool, page: (u16, u16, u16)) -> Line<'static> {
    let mut spans = Vec::new();
    for (i, b) in boards.iter().enumerate() {
        if i > 0 {
            spans.push(Span::raw(" · "));
        }
        let style = if color { Style::default().fg(legend::view_color(i)) } else { Style::default() };
        spans.push(Span::styled(b.title.clone(), style));
        spans.push(Span::raw(format!(" {}/{}", b.non_blank, b.size)));
    }
    let (top, view_h, page_h) = page;
    if page_h > view_h && view_h > 0 {
        spans.push(Span::raw(format!(" │ lines {}-{}/{page_h} ↑↓", top + 1, top + view_h)));
    }
    Line::from(spans)
}

/// The status lines; `(top, view_h)`: the first page line shown and how
/// many lines the views have.
fn draw_status(frame: &mut Frame, area: Rect, boards: &[Board], app: &Stepper, (top, view_h): (u16, u16)) {
    let (_, page_h) = page_extent(boards, area.width);
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let last = match (prompt(&app.mode), &app.message) {
        (Some((p, text)), _) => Line::from(vec![Span::styled(p, bold), Span::raw(text.to_string())]),
        (_, Some(m)) => Line::styled(m.clone(), bold),
        _ => Line::raw(HINTS),
    };
    let lines = vec![
        Line::styled(step_line(app), bold),
        Line::raw(app.cell_line().unwrap_or_default()),
        views_line(boards, app.color, (top, view_h, page_h)),
        last,
    ];
    Paragraph::new(lines).render(area, frame.buffer_mut());
    if let Some((p, text)) = prompt(&app.mode) {
        let x = area.x + p.chars().count() as u16 + text.chars().count() as u16;
        if x < area.x + area.width && area.height >= STATUS_LINES {
            frame.set_cursor_position(Position::new(x, area.y + STATUS_LINES - 1));
        }
    }
}
