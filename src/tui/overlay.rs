//! The boxes drawn over the stepper's screen: the help (`?`: every key,
//! the change marks, the region shading and the frozen headers) and the list of the workbook's parts (`p`), each
//! centred and closed by the next key; the explain panel (`x`) is drawn in
//! the same kind of box.

use super::board::Mark;
use super::draw::{mark_style, region_style};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

const HELP: &[&str] = &[
    "space, .    one iteration (forward through history when stepped back)",
    "G           iterate until converged (at most max_iterations)",
    "b           one step back (instant: every step is kept)",
    "r           apply the reset protocol; that state becomes step 0",
    "e           edit here: VALUE, =FORMULA (or CELL=VALUE); then step",
    "arrows, hjkl  move the cell cursor (across views); the page follows",
    ": or g      go to a cell: type its address, Enter",
    "/           search values and formulas; n next, N previous match",
    "p           the workbook's parts; a part's key (1-9, a-z) turns it on or off",
    "x           explain the cell under the cursor: its changes and why",
    "f           follow changes: each step scrolls the page to the cells it changed",
    "PgUp/PgDn   scroll a page; Home the top, End the bottom",
    "?           this help (any key closes it)",
    "q, Esc      quit (also Ctrl-C)",
];

/// Draws `lines` in the box `block`, centred in `area`.
pub fn draw_box(buf: &mut Buffer, area: Rect, block: Block, lines: Vec<Line>) {
    let widest = lines.iter().map(Line::width).max().unwrap_or(0);
    let w = (widest as u16).saturating_add(4).min(area.width);
    let h = (lines.len() as u16).saturating_add(2).min(area.height);
    let r = Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h);
    Clear.render(r, buf);
    Paragraph::new(lines).block(block).wrap(Wrap { trim: false }).render(r, buf);
}

/// The help box: the keys, then the change marks.
pub fn draw_help(buf: &mut Buffer, area: Rect, color: bool) {
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
    if color {
        lines.push(Line::raw("went blank through another view: in its colour (its name below)"));
    }
    lines.push(Line::from(vec![
        Span::styled(" 7 ", region_style(Style::default(), color)),
        Span::raw("  a cell of the view's regions (its region map)"),
    ]));
    lines.push(Line::raw("scrolled past its edges, a board keeps its headers on screen"));
    draw_box(buf, area, Block::bordered().title(" keys "), lines);
}

/// The parts box: one numbered line per part, `[x]` when it is on, cut
/// with `…` to the screen's width so that every part keeps one line.
pub fn draw_parts(buf: &mut Buffer, area: Rect, parts: &[String]) {
    let room = usize::from(area.width.saturating_sub(4)).max(1);
    let cut = |l: &String| match l.char_indices().nth(room - 1) {
        Some((i, _)) if l.chars().count() > room => format!("{}…", &l[..i]),
        _ => l.clone(),
    };
    let mut lines: Vec<Line> = parts.iter().map(|l| Line::raw(cut(l))).collect();
    lines.push(Line::raw(""));
    lines.push(Line::raw("its key (1-9, then a-z) turns a part on or off; any other key closes"));
    draw_box(buf, area, Block::bordered().title(" parts "), lines);
}
