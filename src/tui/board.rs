//! One view as a grid of marked cells, shared by the interactive drawing and
//! the plain text: each cell's text through the view's display (alphabet,
//! number format; a blank shows the view's blank glyph; a cell that just
//! went blank shows the value it lost; a compact cell its group's symbols),
//! how the last step changed it ([`Mark`]), whether the region map marks
//! it, one column width for the whole view, and the counts the status
//! lines report (non-blank cells, changes by kind).

use crate::app::Shown;
use dataflow::address::{CellAddr, col_name};
use dataflow::engine::{Change, Engine};
use std::collections::HashMap;

/// How the last step changed a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Not changed.
    Same,
    /// Was blank, now shows a value (a Sudoku digit placed).
    Filled,
    /// Showed a value, now blank (a candidate eliminated); the text is the old value.
    Blanked,
    /// Any other change (a value replaced by another, or blank by blank).
    Changed,
}

impl Mark {
    pub fn of(change: &Change) -> Mark {
        if change.blanked() {
            Mark::Blanked
        } else if change.filled() {
            Mark::Filled
        } else {
            Mark::Changed
        }
    }
}

/// Changes counted by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub filled: usize,
    pub blanked: usize,
    pub changed: usize,
}

impl Counts {
    pub fn of<'c>(changes: impl IntoIterator<Item = &'c Change>) -> Counts {
        let mut n = Counts::default();
        for c in changes {
            match Mark::of(c) {
                Mark::Filled => n.filled += 1,
                Mark::Blanked => n.blanked += 1,
                _ => n.changed += 1,
            }
        }
        n
    }

    pub fn total(&self) -> usize {
        self.filled + self.blanked + self.changed
    }

    /// `12 filled, 141 blanked, 3 other`, leaving out the zeros; `none` when all are.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = [(self.filled, "filled"), (self.blanked, "blanked"), (self.changed, "other")]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect();
        if parts.is_empty() { "none".to_string() } else { parts.join(", ") }
    }
}

/// One cell as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardCell {
    pub text: String,
    pub mark: Mark,
    /// For a cell that went blank, the view (by index) whose change caused
    /// it, when one did (see [`super::legend::causes`]).
    pub cause: Option<usize>,
    /// The view's region map marks the cell.
    pub region: bool,
    /// The cell is in a dynamic array's spill range (its anchor or a cell
    /// it spills over).
    pub spill: bool,
}

/// A view's cells, row by row, ready to draw.
#[derive(Clone, Debug)]
pub struct Board {
    pub title: String,
    pub rows: Vec<Vec<BoardCell>>,
    /// Every cell's text fits in this many characters (at least 1).
    pub width: usize,
    /// Rule off every this many (rows, columns); 0 for none.
    pub group: (u32, u32),
    /// The view has a region map (its marked cells have `region` set).
    pub regions: bool,
    /// The sheet's column letters and row numbers of the cells shown (the
    /// first cell of each group when compact), for the frozen headers.
    pub col_labels: Vec<String>,
    pub row_labels: Vec<String>,
    /// Cells showing a value now.
    pub non_blank: usize,
    pub size: usize,
    /// The changes of the last step inside this view.
    pub counts: Counts,
}

/// The changes of a step by cell, for building boards.
pub fn by_cell(changes: &[Change]) -> HashMap<CellAddr, &Change> {
    changes.iter().map(|c| (c.cell, c)).collect()
}

impl Board {
    /// Builds the board of `view` from `engine`'s values, marking `changes`; cell
    /// texts longer than `max_width` characters are cut, ending in `…`.
    pub fn new(engine: &Engine, view: &Shown, changes: &HashMap<CellAddr, &Change>, max_width: usize) -> Board {
        let area = &view.area;
        let non_blank = area.cells().filter(|c| !engine.get(*c).is_blank()).count();
        let mut counts = Counts::default();
        let (n_rows, n_cols) = view.shape();
        let rows: Vec<Vec<BoardCell>> = (0..n_rows)
            .map(|i| {
                (0..n_cols)
                    .map(|j| {
                        let (text, mark) = shown_cell(engine, view, i, j, changes, &mut counts);
                        let region = view.display.in_region(engine.grid(), i, j);
                        let spill = in_spill(engine, view.display.cells(&view.area, i, j));
                        BoardCell { text: cut(text, max_width), mark, cause: None, region, spill }
                    })
                    .collect()
            })
            .collect();
        let width = rows.iter().flatten().map(|c| c.text.chars().count()).max().unwrap_or(1).max(1);
        Board {
            title: view.key.clone(),
            rows,
            width,
            group: view.layout.group.unwrap_or((0, 0)),
            regions: view.display.regions.is_some(),
            col_labels: (0..n_cols).map(|j| col_name(view.cell_at(0, j).col)).collect(),
            row_labels: (0..n_rows).map(|i| (view.cell_at(i, 0).row + 1).to_string()).collect(),
            non_blank,
            size: area.size() as usize,
            counts,
        }
    }

    /// Marks the cells of `view` (this board's) that `causes` lists with
    /// the view that caused their change (a compact cell: any of its cells).
    pub fn mark_causes(&mut self, view: &Shown, causes: &HashMap<CellAddr, usize>) {
        for (addr, cause) in causes {
            if let Some((i, j)) = view.display.position(&view.area, *addr)
                && let Some(cell) = self.rows.get_mut(i as usize).and_then(|r| r.get_mut(j as usize))
            {
                cell.cause.get_or_insert(*cause);
            }
        }
    }

    /// Where cell (`row`, `col`) starts inside the board's box: (column,
    /// line) from the box's inner top-left corner, rules counted.
    pub fn cell_offset(&self, row: usize, col: usize) -> (usize, usize) {
        let rules = |n: usize, group: u32| (1..=n).filter(|&i| Board::rule_before(i, group)).count();
        (col * (self.width + 1) + 2 * rules(col, self.group.1), row + rules(row, self.group.0))
    }

    pub fn n_rows(&self) -> usize {
        self.rows.len()
    }

    pub fn n_cols(&self) -> usize {
        self.rows.first().map_or(0, Vec::len)
    }

    /// Whether a group rule comes before row or column `i` (0-based).
    pub fn rule_before(i: usize, group: u32) -> bool {
        i > 0 && group > 0 && (i as u32).is_multiple_of(group)
    }

    /// Characters of one drawn row: cells joined by one space, ` │ ` (three
    /// characters) between column groups.
    pub fn line_width(&self) -> usize {
        let cols = self.n_cols();
        let rules = (0..cols).filter(|&j| Board::rule_before(j, self.group.1)).count();
        cols * self.width + cols.saturating_sub(1) + 2 * rules
    }

    /// Drawn lines: the rows plus one rule line between row groups.
    pub fn line_count(&self) -> usize {
        let rows = self.n_rows();
        rows + (0..rows).filter(|&i| Board::rule_before(i, self.group.0)).count()
    }
}

/// The text and mark of the cell shown at (`i`, `j`) of `view`, its
/// changes counted. One cell shows its value, or when it went blank the
/// value it lost; a compact cell shows its group's symbols now, marked as
/// its changed cells are when they all changed alike (blanked: candidates
/// eliminated), changed otherwise; a cell that stays blank marks nothing.
fn shown_cell(
    engine: &Engine,
    view: &Shown,
    i: u32,
    j: u32,
    changes: &HashMap<CellAddr, &Change>,
    counts: &mut Counts,
) -> (String, Mark) {
    let (display, blank) = (&view.display, &view.layout.blank);
    let cells = display.cells(&view.area, i, j);
    let mut mark = Mark::Same;
    let mut lost = None;
    for ch in cells.cells().filter_map(|c| changes.get(&c)) {
        let m = Mark::of(ch);
        match m {
            Mark::Filled => counts.filled += 1,
            Mark::Blanked => counts.blanked += 1,
            _ => counts.changed += 1,
        }
        if m == Mark::Blanked {
            lost = Some(&ch.old);
        }
        // A compact cell shows no blank: one that stays blank marks nothing.
        let unseen = display.compact.is_some() && ch.old.is_blank() && ch.new.is_blank();
        if !unseen {
            mark = if mark == Mark::Same || mark == m { m } else { Mark::Changed };
        }
    }
    let text = match lost {
        Some(old) if display.compact.is_none() => display.text(old, blank),
        _ => display.shown(engine.grid(), &view.area, i, j, blank),
    };
    (text, mark)
}

/// Whether `cells`, one cell shown, is in a spill range of more than one
/// cell (a compact group never is).
fn in_spill(engine: &Engine, cells: dataflow::address::Area) -> bool {
    let spills = engine.grid().spills();
    let c = cells.top_left();
    cells.is_cell() && (spills.owner(c).is_some() || spills.get(c).and_then(|s| s.area).is_some_and(|a| !a.is_cell()))
}

/// `text` cut to `max` characters, the last one `…` when cut.
fn cut(text: String, max: usize) -> String {
    if max == 0 || text.chars().count() <= max {
        return text;
    }
    let mut s: String = text.chars().take(max - 1).collect();
    s.push('…');
    s
}
