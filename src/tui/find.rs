//! What the status line says about the cell under the cursor, and the
//! search. A cell's formula is the text of the workbook entry that defines
//! it, as written (names not inlined; runs of whitespace shown as one
//! space), found through the formula cell's origin; a cell's last change is
//! the newest step, up to the one shown, whose delta lists it. `/` looks
//! for a text in the shown cells' values and formulas (so a name matches
//! the cells whose formulas use it), ignoring case; `n` and `N` go to the
//! next and previous match in view order, row by row, round the end.

use super::cursor::Cursor;
use super::stepper::Stepper;
use dataflow::address::CellAddr;
use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::Content;
use std::collections::HashMap;

/// The formula that defines `cell`, as written, starting with `=` (`{=...}`
/// for an array formula); `None` for a constant or an empty cell.
pub fn formula_text(session: &Session, cell: CellAddr) -> Option<String> {
    let entry = entry_of(session, cell)?;
    let (f, array) = match &session.workbook().cells[entry].content {
        Content::Formula(f) | Content::Dynamic(f) => (f, false),
        Content::Array(f) => (f, true),
        Content::Constant(_) => return None,
    };
    let text = f.text.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = if text.starts_with('=') { text } else { format!("={text}") };
    Some(if array { format!("{{{text}}}") } else { text })
}

/// The index in the workbook's `cells` of the entry defining formula cell `cell`.
fn entry_of(session: &Session, cell: CellAddr) -> Option<usize> {
    let program = session.engine().program();
    program.formula_at(cell).map(|f| program.cell(f).origin.index())
}

/// A value as the status line shows it: texts quoted, `blank` for nothing.
pub(super) fn value_text(v: &Value) -> String {
    match v {
        Value::Empty => "blank".into(),
        Value::Text(s) => format!("{s:?}"),
        v => v.to_string(),
    }
}

impl Stepper {
    /// The status line of the cell under the cursor: address, value, the
    /// step that last changed it, its formula.
    pub fn cell_line(&self) -> Option<String> {
        Some(self.cell_line_of(self.cell()?))
    }

    /// The status line of `cell`.
    pub fn cell_line_of(&self, cell: CellAddr) -> String {
        let name = self.session.engine().program().cell_name(cell);
        let value = value_text(self.session.engine().get(cell));
        let mut s = format!("{name} = {value} │ {}", self.last_change(cell));
        if let Some(f) = formula_text(&self.session, cell) {
            s.push_str(&format!(" │ {f}"));
        }
        s
    }

    /// `changed in step N`, the newest step up to the one shown that
    /// changed `cell`; `unchanged since step N` (the oldest kept) otherwise.
    pub fn last_change(&self, cell: CellAddr) -> String {
        let steps = self.history.range(..=self.cursor).rev();
        match steps.into_iter().find(|e| e.changes().iter().any(|c| c.cell == cell)) {
            Some(e) => format!("changed in step {}", e.number),
            None => format!("unchanged since step {}", self.history[0].number),
        }
    }

    /// `/TEXT`: remembers the search and goes to the first match after the cursor.
    pub fn find(&mut self, query: &str) {
        if !query.is_empty() {
            self.search = Some(query.to_string());
            self.find_next(true);
        }
    }

    /// The next (or previous) match of the last search, round the end.
    pub fn find_next(&mut self, forward: bool) {
        let Some(query) = self.search.clone() else {
            self.message = Some("nothing searched yet: / searches".into());
            return;
        };
        let cells = self.shown_cells();
        let matches = self.matches(&query, &cells);
        if matches.is_empty() {
            self.message = Some(format!("/{query}: not found in the views shown"));
            return;
        }
        let here = self.at.and_then(|at| cells.iter().position(|(c, _)| *c == at));
        let k = match (here, forward) {
            (None, _) => 0,
            (Some(h), true) => matches.iter().position(|&m| m > h).unwrap_or(0),
            (Some(h), false) => matches.iter().rposition(|&m| m < h).unwrap_or(matches.len() - 1),
        };
        self.at = Some(cells[matches[k]].0);
        self.follow();
        self.message = Some(format!("/{query}: match {} of {}", k + 1, matches.len()));
    }

    /// Every shown cell with its cursor position, view by view, row by row.
    fn shown_cells(&self) -> Vec<(Cursor, CellAddr)> {
        let mut out = Vec::new();
        for (view, v) in self.views.iter().enumerate() {
            for cell in v.area.cells() {
                let (row, col) = v.display.position(&v.area, cell).unwrap_or_default();
                out.push((Cursor { view, row, col }, cell));
            }
        }
        out
    }

    /// The indexes in `cells` of those whose value or formula contains
    /// `query`, ignoring case.
    fn matches(&self, query: &str, cells: &[(Cursor, CellAddr)]) -> Vec<usize> {
        let q = query.to_lowercase();
        let mut entries: HashMap<usize, bool> = HashMap::new();
        let mut found = Vec::new();
        for (i, (_, cell)) in cells.iter().enumerate() {
            let value = self.session.engine().get(*cell).to_string().to_lowercase();
            let mut formula = || {
                entry_of(&self.session, *cell).is_some_and(|e| {
                    *entries.entry(e).or_insert_with(|| {
                        formula_text(&self.session, *cell).is_some_and(|f| f.to_lowercase().contains(&q))
                    })
                })
            };
            if value.contains(&q) || formula() {
                found.push(i);
            }
        }
        found
    }
}
