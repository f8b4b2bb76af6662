//! Text output of areas: a grid of the values the cells show, every column
//! padded to one width (the widest number or symbol of the grid; a column
//! holding wider text is as wide as that), with rules every
//! `group` rows and columns (3 for a Sudoku, so the valid-values board
//! shows its 3x3 big cells ruled off like the article's picture). Blank
//! cells (empty, or the empty text "") print as the view's blank glyph,
//! right-aligned as numbers are. A view's [`Display`] (`display`) adds an
//! alphabet, a number format, the compact form and region marks: a cell
//! the region map marks prints as `[v]`, the others as ` v `.

mod display;

pub use display::{Display, NumberFormat};

use crate::address::Area;
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

/// Pushes a padded cell's text: as it is when the view has no region map,
/// else `[text]` inside a region and ` text ` outside, so columns stay
/// aligned.
pub fn push_marked(line: &mut String, padded: &str, regions: bool, region: bool) {
    match (regions, region) {
        (false, _) => line.push_str(padded),
        (true, true) => line.push_str(&format!("[{padded}]")),
        (true, false) => line.push_str(&format!(" {padded} ")),
    }
}

/// One cell as printed: its text, whether it is left-aligned (text) and
/// whether the region map marks it.
struct Printed {
    text: String,
    left: bool,
    region: bool,
}

/// Draws `area` as text lines: every column as wide as the widest number
/// (or wider text of its own), numbers and blanks right-aligned and everything else left-aligned, as a
/// spreadsheet shows them.
pub fn render_area(grid: &Grid, area: &Area, layout: &Layout) -> String {
    render_view(grid, area, layout, &Display::default())
}

/// Draws `area` as [`render_area`] does, through `display`: symbols,
/// number format, compact groups, `[v]` around the cells in a region.
pub fn render_view(grid: &Grid, area: &Area, layout: &Layout, display: &Display) -> String {
    let (rows, cols) = display.shape(area);
    let cells: Vec<Vec<Printed>> = (0..rows)
        .map(|i| {
            (0..cols)
                .map(|j| Printed {
                    text: display.shown(grid, area, i, j, &layout.blank),
                    left: display.left_aligned(grid.get(display.cells(area, i, j).top_left())),
                    region: display.in_region(grid, i, j),
                })
                .collect()
        })
        .collect();
    print_cells(&cells, layout, display.regions.is_some())
}

/// Draws rows of values (of equal length) as [`render_area`] draws a grid's.
pub fn render_rows(rows: &[Vec<&Value>], layout: &Layout) -> String {
    let d = Display::default();
    let cells: Vec<Vec<Printed>> = rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|v| Printed { text: d.text(v, &layout.blank), left: d.left_aligned(v), region: false })
                .collect()
        })
        .collect();
    print_cells(&cells, layout, false)
}

/// The lines of a grid of printed cells: numbers and blanks of every column
/// padded to one width, a column holding wider text as wide as that; with
/// `regions`, each cell between brackets (marked) or spaces.
fn print_cells(cells: &[Vec<Printed>], layout: &Layout, regions: bool) -> String {
    let len = |c: &Printed| c.text.chars().count();
    let aligned = cells.iter().flatten().filter(|c| !c.left).map(len).max().unwrap_or(1);
    let ncols = cells.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..ncols)
        .map(|j| cells.iter().filter(|row| row[j].left).map(|row| len(&row[j])).fold(aligned, usize::max))
        .collect();
    let (gr, gc) = layout.group.unwrap_or((0, 0));
    let mut lines = Vec::new();
    for row in cells {
        let mut line = String::new();
        for (j, c) in row.iter().enumerate() {
            if j > 0 {
                line.push(' ');
                if gc > 0 && (j as u32).is_multiple_of(gc) {
                    line.push_str("| ");
                }
            }
            let (s, w) = (&c.text, widths[j]);
            let padded = if c.left { format!("{s:<w$}") } else { format!("{s:>w$}") };
            push_marked(&mut line, &padded, regions, c.region);
        }
        lines.push(line);
    }
    ruled(&lines, gr)
}
