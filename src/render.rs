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

/// `1 cell`, `9 cells`: a count with its noun, plural unless it is one.
pub fn plural(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// Joins a grid's text lines, trailing spaces cut, with a rule before every
/// `group`-th line (none when `group` is 0). The rule follows the first
/// line: `+` under each `|`, `-` elsewhere.
pub fn ruled(lines: &[String], group: u32) -> String {
    let rule: String =
        lines.first().map(|l| l.chars().map(|ch| if ch == '|' { '+' } else { '-' }).collect()).unwrap_or_default();
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i > 0 && group > 0 && (i as u32).is_multiple_of(group) {
            out.push_str(&rule);
            out.push('\n');
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
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
    let rows: Vec<Vec<&Value>> = (area.r0..=area.r1)
        .map(|r| (area.c0..=area.c1).map(|c| grid.get(CellAddr::new(area.sheet, r, c))).collect())
        .collect();
    render_rows(&rows, layout)
}

/// Draws rows of values (of equal length) as [`render_area`] draws a grid's.
pub fn render_rows(rows: &[Vec<&Value>], layout: &Layout) -> String {
    let cells: Vec<Vec<(String, bool)>> = rows
        .iter()
        .map(|row| row.iter().map(|v| (cell_text(v, &layout.blank), matches!(v, Value::Number(_)))).collect())
        .collect();
    let ncols = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> =
        (0..ncols).map(|j| cells.iter().map(|row| row[j].0.chars().count()).max().unwrap_or(1)).collect();
    let (gr, gc) = layout.group.unwrap_or((0, 0));
    let mut lines = Vec::new();
    for row in &cells {
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
        lines.push(line);
    }
    ruled(&lines, gr)
}
