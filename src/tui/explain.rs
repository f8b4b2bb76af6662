//! The explain panel (`x`): why the cell under the cursor changed, step by
//! step, as `dataflow explain` prints it. The stepper keeps what step 0 was
//! made from (an [`Origin`]: the session before the reset protocol, at load,
//! reset and parts toggle); `x` runs the reset protocol and the `--set`
//! cells again on a copy of it, so that the cells they set count as changes
//! of step 0, then [`dataflow::explain::explain`] runs the recalculation to
//! its end. The panel lists the value at step 0, then each change with its
//! step, old and new value and the precedents that caused it; the change in
//! effect at the step shown is marked `▶`, later ones are dimmed; the
//! reason texts of the workbook's reason areas follow each change. Edits
//! (`e`) are not replayed: the panel explains the run from step 0 and says
//! so when an edit made the steps shown differ from it. A long panel
//! scrolls (arrows, `jk`, PgUp/PgDn, Home/End); any other key closes it.

use super::find::{formula_text, value_text};
use super::overlay;
use super::stepper::{Kind, Mode, Stepper};
use crate::app::{causes_text, change_text, history_outcome, reasons_text};
use crossterm::event::{KeyCode, KeyEvent};
use dataflow::address::CellAddr;
use dataflow::engine::Change;
use dataflow::explain::{History, Step, changed, explain, reset};
use dataflow::session::Session;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Block;

/// What step 0 was made from: the session before the reset protocol (and
/// the `--set` cells), and whether the protocol ran.
#[derive(Clone)]
pub struct Origin {
    pub session: Session,
    pub reset: bool,
}

/// How a line of the panel is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The cell and its formula, the note about edits, the outcome.
    Plain,
    /// A change up to the step shown.
    Past,
    /// The change in effect at the step shown (or step 0).
    Current,
    /// A change after the step shown.
    Ahead,
}

/// The explain panel of one cell, laid out as lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panel {
    pub title: String,
    pub lines: Vec<(Role, String)>,
    /// The first line shown.
    pub scroll: usize,
}

impl Panel {
    /// The index of the line marked current.
    fn current(&self) -> usize {
        self.lines.iter().position(|(r, _)| *r == Role::Current).unwrap_or(0)
    }
}

/// Lines of the panel a terminal `lines` high shows at once (its borders
/// left out).
pub fn panel_rows(lines: u16) -> usize {
    lines.saturating_sub(2).max(1) as usize
}

/// Draws `panel` in a box centred in `area`: the lines from its scroll
/// offset, the first (the cell and its formula) wrapped to the width so a
/// long formula reads whole, the others cut with `…`; the current change
/// reversed and marked `▶`, later ones dimmed; when it does not fit, which
/// lines are shown in the bottom border.
pub fn draw_explain(buf: &mut Buffer, area: Rect, panel: &Panel, color: bool) {
    let rows = panel_rows(area.height);
    let width = area.width.saturating_sub(4) as usize;
    let mut marked = false;
    let lines: Vec<Line> = panel
        .lines
        .iter()
        .enumerate()
        .skip(panel.scroll)
        .flat_map(|(i, (role, text))| {
            let first = *role == Role::Current && !marked && i == panel.current();
            marked |= first;
            let text = format!("{}{text}", if first { "▶ " } else { "  " });
            let texts = if i == 0 { wrap(&text, width.max(8)) } else { vec![cut(&text, width)] };
            let style = match (role, color) {
                (Role::Current, _) => Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED),
                (Role::Ahead, true) => Style::default().fg(Color::DarkGray),
                (Role::Ahead, false) => Style::default().add_modifier(Modifier::DIM),
                _ => Style::default(),
            };
            texts.into_iter().map(move |t| Line::styled(t, style))
        })
        .take(rows)
        .collect();
    let mut block = Block::bordered().title(panel.title.as_str());
    if panel.lines.len() > rows {
        let last = (panel.scroll + rows).min(panel.lines.len());
        let n = panel.lines.len();
        block = block.title_bottom(format!(" lines {}-{last} of {n} ↑↓ · any other key closes ", panel.scroll + 1));
    }
    overlay::draw_box(buf, area, block, lines);
}

/// `text` in lines of at most `width` characters, broken after the last
/// `, ` or space of a line when there is one in its second half; the
/// lines after the first indented by four spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut rest: Vec<char> = text.chars().collect();
    while !rest.is_empty() {
        let room = if lines.is_empty() { width } else { width - 4 };
        let end = if rest.len() <= room {
            rest.len()
        } else {
            (room / 2..room).rev().find(|&i| rest[i - 1] == ' ').unwrap_or(room)
        };
        let line: String = rest.drain(..end).collect();
        lines.push(if lines.is_empty() { line } else { format!("    {line}") });
    }
    lines
}

/// `text` cut to `width` characters, the last one `…` when cut.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut s: String = text.chars().take(width.saturating_sub(1)).collect();
    s.push('…');
    s
}

impl Stepper {
    /// `x`: opens the explain panel of the cell under the cursor, or says
    /// why there is none.
    pub fn open_explain(&mut self) {
        let Some(cell) = self.cell() else {
            self.message = Some("no cell under the cursor: no view is shown".into());
            return;
        };
        self.open_explain_of(cell);
    }

    /// Opens the explain panel of `cell` (the page's click on a pencil
    /// mark explains that candidate's cell, not the group's first).
    pub fn open_explain_of(&mut self, cell: CellAddr) {
        let (start, before) = match self.step_0() {
            Ok(s) => s,
            Err(m) => {
                self.message = Some(format!("explain: step 0 could not be made again: {m}"));
                return;
            }
        };
        match explain(start.engine(), cell, &before, &start.workbook().views) {
            Some(h) => {
                let mut panel = self.panel(&h);
                let rows = panel_rows(self.size.1);
                panel.scroll = (panel.current() + 1).saturating_sub(rows);
                self.mode = Mode::Explain(panel);
            }
            None => self.message = Some(self.not_a_formula(cell)),
        }
    }

    /// A key while the panel is open: scrolling keys scroll, any other closes it.
    pub(super) fn on_explain_key(&mut self, mut panel: Panel, key: KeyEvent) {
        let rows = panel_rows(self.size.1);
        let last = panel.lines.len().saturating_sub(rows);
        panel.scroll = match key.code {
            KeyCode::Down | KeyCode::Char('j') => panel.scroll + 1,
            KeyCode::Up | KeyCode::Char('k') => panel.scroll.saturating_sub(1),
            KeyCode::PageDown => panel.scroll + rows,
            KeyCode::PageUp => panel.scroll.saturating_sub(rows),
            KeyCode::Home => 0,
            KeyCode::End => last,
            _ => return,
        }
        .min(last);
        self.mode = Mode::Explain(panel);
    }

    /// Step 0 made again from the origin, and the cells the reset's `then`
    /// and the `--set` cells changed after its recalculation, as changes.
    fn step_0(&self) -> Result<(Session, Vec<Change>), String> {
        let mut s = self.origin.session.clone();
        let mut before = if self.origin.reset { reset(&mut s).map_err(|e| e.to_string())? } else { Vec::new() };
        let set: Vec<CellAddr> =
            self.sets.iter().flat_map(|(a, _)| a.cells()).filter(|c| before.iter().all(|b| b.cell != *c)).collect();
        let held = set.iter().map(|c| (*c, s.engine().get(*c).clone())).collect();
        for (area, v) in &self.sets {
            area.cells().try_for_each(|c| s.set(c, v.clone())).map_err(|e| e.to_string())?;
        }
        for b in &mut before {
            b.new = s.engine().get(b.cell).clone();
        }
        before.extend(changed(s.engine(), held));
        before.retain(|b| b.old != b.new);
        Ok((s, before))
    }

    /// The panel's lines for `h`: the cell and formula, a note about edits,
    /// step 0, each change with its causes, the outcome.
    fn panel(&self, h: &History) -> Panel {
        let program = self.session.engine().program();
        let name = program.cell_name(h.cell);
        let mut lines =
            vec![(Role::Plain, format!("{name} {}", formula_text(&self.session, h.cell).unwrap_or_default()))];
        let shown = self.current().number;
        let edit = self.history.range(..=self.cursor).find_map(|e| match &e.kind {
            Kind::Edit { text, .. } => Some(format!("step {}: {text}", e.number)),
            _ => None,
        });
        if let Some(edit) = edit {
            lines.push((Role::Plain, format!("explained from step 0 without your edits ({edit}); later steps differ")));
        }
        let now = h.steps.iter().rposition(|s| s.step <= shown);
        let role = |i: Option<usize>, step: u32| {
            if i == now {
                Role::Current
            } else if step > shown {
                Role::Ahead
            } else {
                Role::Past
            }
        };
        lines.push((role(None, 0), format!("step 0: {}", value_text(&h.start))));
        for (i, step) in h.steps.iter().enumerate() {
            let r = role(Some(i), step.step);
            lines.extend(self.step_lines(step).into_iter().map(|l| (r, l)));
        }
        lines.push((Role::Plain, history_outcome(program, h)));
        Panel { title: format!(" explain {name} "), lines, scroll: 0 }
    }

    /// `step 2: 6 -> ""`, then one line per cause: `because Main!E16 "" -> 4
    /// (step 1)`, then the reason texts: `why Main!AB40: X-Wing ...`.
    fn step_lines(&self, step: &Step) -> Vec<String> {
        let mut lines = vec![change_text(step, value_text)];
        match causes_text(self.session.engine().program(), step, value_text) {
            Ok(causes) => lines.extend(
                causes.into_iter().enumerate().map(|(i, c)| format!("{:>12}{c}", if i == 0 { "because " } else { "" })),
            ),
            Err(why) => lines.push(format!("{:12}({why})", "")),
        }
        lines.extend(reasons_text(self.session.engine().program(), step).into_iter().map(|l| format!("{:12}{l}", "")));
        lines
    }

    /// Why `cell` has no panel: what it holds instead of a formula.
    fn not_a_formula(&self, cell: CellAddr) -> String {
        let name = self.session.engine().program().cell_name(cell);
        let value = self.session.engine().get(cell);
        let input = self.session.workbook().inputs.iter().find(|i| i.area.contains(cell));
        match input {
            Some(i) => {
                format!("{name} is a cell of the input `{}`, now {}: no formula to explain", i.name, value_text(value))
            }
            None if value.is_blank() => format!("{name} is empty: no formula to explain"),
            None => format!("{name} holds a constant, {}: no formula to explain", value_text(value)),
        }
    }
}
