//! A view as the workbook defines it: a named block of cells the front
//! ends print as a grid ([`ViewDef`], at most [`MAX_SHOWN_CELLS`]), and its
//! [`Display`]: an alphabet (the number k shows as the alphabet's k-th
//! symbol, so a 16x16 board reads `A`..`G` past 9), a number format for the
//! other numbers (TEXT's formats, e.g. `0.00`, parsed once: [`NumberFormat`]),
//! the compact form (each group of cells shown as one cell, a valid-values
//! board's candidate string such as `137`) and a region map (an area of the
//! shape shown whose cells hold a region number), and the view's reason
//! area ([`ViewDef::reason_cell`]). This is data and the
//! geometry of what is shown where; how a display prints a value is
//! `render`'s (`render/display.rs`), so the model imports nothing from it.

use crate::address::{Area, CellAddr};
use crate::functions::text::format;

/// The largest area a view or `--show` prints (65,536 cells: a 256 x 256
/// block).
pub const MAX_SHOWN_CELLS: u64 = 1 << 16;

/// A block of cells the CLI prints as a grid, at most [`MAX_SHOWN_CELLS`].
#[derive(Clone, Debug, PartialEq)]
pub struct ViewDef {
    pub name: String,
    pub area: Area,
    /// Rule off every `rows` rows and `cols` columns, e.g. (3, 3).
    pub group: Option<(u32, u32)>,
    /// What a blank cell (empty or "") prints as; default `.`.
    pub blank: String,
    /// Symbols, number format, compact form and region map.
    pub display: Display,
    /// The reason area, of the view's shape: the text of its cell aligned
    /// with a view cell says why that cell holds its value (a strategy
    /// board's pattern, a single's unit); `explain` and the steppers show
    /// it for the cells that caused a change.
    pub reasons: Option<Area>,
}

impl ViewDef {
    /// The reason cell aligned with `cell`, when the view has reasons and
    /// covers it.
    pub fn reason_cell(&self, cell: CellAddr) -> Option<CellAddr> {
        self.area.aligned(&self.reasons?, cell)
    }
}

/// A number format as TEXT reads it, parsed once.
#[derive(Clone, Debug, PartialEq)]
pub struct NumberFormat {
    text: String,
    sections: Vec<format::Section>,
}

impl NumberFormat {
    /// Parses `text`; an error says the format is not one TEXT accepts,
    /// or shows dates (a view does not know the workbook's date system).
    pub(crate) fn parse(text: &str) -> Result<NumberFormat, String> {
        let sections =
            format::parse(text).ok().filter(|s| !s.iter().any(format::Section::is_date)).ok_or_else(|| {
                format!(
                    "`{text}` is not a number format for views (digits, `.`, `,`, `%`, `E+`, literal text; no dates)"
                )
            })?;
        Ok(NumberFormat { text: text.to_string(), sections })
    }

    /// The format as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The parsed sections, which `render` prints numbers through.
    pub(crate) fn sections(&self) -> &[format::Section] {
        &self.sections
    }
}

/// A view's symbols, compact form and region marks; the default shows
/// values as they are, one cell each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Display {
    /// Symbol k (1-based) stands for the number k.
    pub alphabet: Option<Vec<char>>,
    /// The format of the numbers the alphabet does not cover.
    pub format: Option<NumberFormat>,
    /// Shown compact: each block of (rows, columns) cells as one cell.
    pub compact: Option<(u32, u32)>,
    /// The region map, as many rows and columns as are shown.
    pub regions: Option<Area>,
}

impl Display {
    /// The (rows, columns) shown for `area`: a cell per group of cells
    /// when compact (a last, partial group counts as one).
    pub fn shape(&self, area: &Area) -> (u32, u32) {
        match self.compact {
            Some((gr, gc)) => (area.rows().div_ceil(gr), area.cols().div_ceil(gc)),
            None => (area.rows(), area.cols()),
        }
    }

    /// The cells of `area` shown at (`row`, `col`): one cell, or a group.
    pub fn cells(&self, area: &Area, row: u32, col: u32) -> Area {
        let (gr, gc) = self.compact.unwrap_or((1, 1));
        let (r, c) = (area.r0 + row * gr, area.c0 + col * gc);
        Area::new(area.sheet, r, c, r.saturating_add(gr - 1).min(area.r1), c.saturating_add(gc - 1).min(area.c1))
    }

    /// Where `cell` of `area` is shown: (row, column), `None` outside.
    pub fn position(&self, area: &Area, cell: CellAddr) -> Option<(u32, u32)> {
        if !area.contains(cell) {
            return None;
        }
        let (gr, gc) = self.compact.unwrap_or((1, 1));
        Some(((cell.row - area.r0) / gr, (cell.col - area.c0) / gc))
    }
}
