//! Painting an [`Stepper`] into a ratatui frame. The views are boxed boards laid
//! out left to right while they fit the terminal's width and wrapped onto
//! further rows otherwise (so the Sudoku's three boards stand side by side
//! on a wide terminal, and on 80 columns the two 9x9 boards sit above the
//! candidates board); the whole page is drawn off screen and the part the
//! scroll offset selects is copied into the frame. Below the page, three
//! status lines: the step and what it changed, the views' non-blank counts,
//! and the message, the edit prompt or the key hints. `?` draws the help
//! box over everything. Highlights: a cell that got a value is bold green,
//! one that went blank shows its old value dim red, any other change is
//! yellow; without colour (`NO_COLOR`) they are bold reversed, dim crossed
//! out and underlined.

use super::board::{Board, Counts, Mark};
use super::stepper::{Kind, Mode, Stepper};
use crate::app::{iterations, pass_state};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

/// Lines under the views.
pub const STATUS_LINES: u16 = 3;

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
    if app.mode == Mode::Help {
        draw_help(frame.buffer_mut(), area, app.color);
    }
}

/// Draws the visible part of the page; returns the first page line shown.
fn draw_page(buf: &mut Buffer, views: Rect, boards: &[Board], app: &Stepper) -> u16 {
    let (rects, page_w, page_h) = place(boards, views.width);
    let mut page = Buffer::empty(Rect::new(0, 0, page_w, page_h));
    for (b, r) in boards.iter().zip(&rects) {
        draw_board(&mut page, *r, b, app.color);
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
    sy
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
            spans.push(Span::styled(format!("{:>w$}", cell.text), mark_style(cell.mark, color)));
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
        Kind::Edit { text, report } => {
            let state = pass_state(report.converged, report.period);
            s.push_str(&format!(" │ edit {text}, {state} after {}", iterations(report.iterations)));
        }
    }
    if e.number > 0 {
        let n = Counts::of(e.changes());
        s.push_str(&format!(" │ changed {}: {}", n.total(), n.describe()));
    }
    s
}

const PROMPT: &str = "edit CELL=VALUE (Enter applies, Esc cancels): ";

/// The status lines; `(top, view_h)`: the first page line shown and how
/// many lines the views have.
fn draw_status(frame: &mut Frame, area: Rect, boards: &[Board], app: &Stepper, (top, view_h): (u16, u16)) {
    let counts: Vec<String> = boards.iter().map(|b| format!("{} {}/{}", b.title, b.non_blank, b.size)).collect();
    let mut views = counts.join(" · ");
    let (_, page_h) = page_extent(boards, area.width);
    if page_h > view_h && view_h > 0 {
        views.push_str(&format!(" │ lines {}-{}/{page_h} ↑↓", top + 1, top + view_h));
    }
    let third = match (&app.mode, &app.message) {
        (Mode::Edit(text), _) => Line::from(vec![
            Span::styled(PROMPT, Style::default().add_modifier(Modifier::BOLD)),
            Span::raw(text.clone()),
        ]),
        (_, Some(m)) => Line::styled(m.clone(), Style::default().add_modifier(Modifier::BOLD)),
        _ => Line::raw("space/n step · g run · b back · r reset · e edit · ? help · q quit"),
    };
    let lines =
        vec![Line::styled(step_line(app), Style::default().add_modifier(Modifier::BOLD)), Line::raw(views), third];
    Paragraph::new(lines).render(area, frame.buffer_mut());
    if let Mode::Edit(text) = &app.mode {
        let x = area.x + PROMPT.chars().count() as u16 + text.chars().count() as u16;
        if x < area.x + area.width && area.height >= 3 {
            frame.set_cursor_position(Position::new(x, area.y + 2));
        }
    }
}

const HELP: &[&str] = &[
    "space, n    one iteration (forward through history when stepped back)",
    "g           iterate until converged (at most max_iterations)",
    "b           one step back (instant: every step is kept)",
    "r           apply the reset protocol; that state becomes step 0",
    "e           edit a cell: CELL=VALUE (a constant), recalculated at once",
    "arrows      scroll; PgUp/PgDn a page; Home the top",
    "?           this help (any key closes it)",
    "q, Esc      quit (also Ctrl-C)",
];

fn draw_help(buf: &mut Buffer, area: Rect, color: bool) {
    let mut lines: Vec<Line> = HELP.iter().map(|l| Line::raw(*l)).collect();
    lines.push(Line::raw(""));
    let legend = [
        (Mark::Filled, "got a value"),
        (Mark::Blanked, "went blank (the old value is shown)"),
        (Mark::Changed, "other change"),
    ];
    for (mark, what) in legend {
        lines.push(Line::from(vec![Span::styled(" 7 ", mark_style(mark, color)), Span::raw(format!("  {what}"))]));
    }
    let w = (HELP.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16 + 4).min(area.width);
    let h = (lines.len() as u16 + 2).min(area.height);
    let r = Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h);
    Clear.render(r, buf);
    Paragraph::new(lines).block(Block::bordered().title(" keys ")).wrap(Wrap { trim: false }).render(r, buf);
}
