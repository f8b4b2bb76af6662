//! Text output of areas: a grid of the values the cells show, columns padded
//! to one width, with rules every `group` rows and columns (3 for a Sudoku,
//! so the valid-values board shows its 3x3 big cells ruled off like the
//! article's picture). Blank cells (empty, or the empty text "") print as
//! the view's blank glyph.

use crate::address::{Area, CellAddr};
use crate::grid::Grid;
use crate::value::Value;

/// How one area is drawn.
#[derive(Clone, Debug)]
pub struct Layout {
    pub group: Option<(u32, u32)>,
    /// What a blank cell prints as.
    pub blank: String,
}

impl Default for Layout {
    fn default() -> Self {
        Layout { group: None, blank: ".".into() }
    }
}

/// What a cell shows, with blanks as `blank`.
pub fn cell_text(v: &Value, blank: &str) -> String {
    match v {
        Value::Empty => blank.to_string(),
        Value::Text(s) if s.is_empty() => blank.to_string(),
        v => v.to_string(),
    }
}

/// Draws `area` as text lines: each column as wide as its widest value,
/// numbers right-aligned and everything else left-aligned, as a
/// spreadsheet shows them.
pub fn render_area(grid: &Grid, area: &Area, layout: &Layout) -> String {
    let cells: Vec<Vec<(String, bool)>> = (area.r0..=area.r1)
        .map(|r| {
            (area.c0..=area.c1)
                .map(|c| {
                    let v = grid.get(CellAddr::new(area.sheet, r, c));
                    (cell_text(v, &layout.blank), matches!(v, Value::Number(_)))
                })
                .collect()
        })
        .collect();
    let ncols = area.cols() as usize;
    let widths: Vec<usize> =
        (0..ncols).map(|j| cells.iter().map(|row| row[j].0.chars().count()).max().unwrap_or(1)).collect();
    let (gr, gc) = layout.group.unwrap_or((0, 0));
    let mut out = String::new();
    let mut rule = String::new();
    for (i, row) in cells.iter().enumerate() {
        let mut line = String::new();
        for (j, (s, number)) in row.iter().enumerate() {
            if j > 0 {
                line.push(' ');
                if gc > 0 && (j as u32).is_multiple_of(gc) {
                    line.push_str("| ");
                }
            }
            let w = widths[j];
            if *number { line.push_str(&format!("{s:>w$}")) } else { line.push_str(&format!("{s:<w$}")) }
        }
        if rule.is_empty() {
            rule = line.chars().map(|ch| if ch == '|' { '+' } else { '-' }).collect();
        }
        if i > 0 && gr > 0 && (i as u32).is_multiple_of(gr) {
            out.push_str(&rule);
            out.push('\n');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
