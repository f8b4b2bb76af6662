//! Cell addresses and rectangular areas, in 0-based coordinates, plus the
//! A1 spelling of columns and cells. Sheet limits are Excel's: 1,048,576 rows
//! by 16,384 columns; relative references wrap around these edges.

use std::fmt;

/// Number of rows in a sheet (Excel's limit).
pub const MAX_ROWS: u32 = 1_048_576;
/// Number of columns in a sheet (Excel's limit, column XFD).
pub const MAX_COLS: u32 = 16_384;

/// Index of a sheet in the workbook, in the workbook's sheet order.
pub type SheetId = u16;

/// One cell: sheet, 0-based row and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellAddr {
    pub sheet: SheetId,
    pub row: u32,
    pub col: u32,
}

/// A rectangle of cells on one sheet, corners inclusive and 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Area {
    pub sheet: SheetId,
    pub r0: u32,
    pub c0: u32,
    pub r1: u32,
    pub c1: u32,
}

impl CellAddr {
    pub fn new(sheet: SheetId, row: u32, col: u32) -> Self {
        CellAddr { sheet, row, col }
    }
}

impl Area {
    /// The area between two corners given in any order.
    pub fn new(sheet: SheetId, ra: u32, ca: u32, rb: u32, cb: u32) -> Self {
        Area { sheet, r0: ra.min(rb), c0: ca.min(cb), r1: ra.max(rb), c1: ca.max(cb) }
    }
    pub fn cell(c: CellAddr) -> Self {
        Area { sheet: c.sheet, r0: c.row, c0: c.col, r1: c.row, c1: c.col }
    }
    pub fn rows(&self) -> u32 {
        self.r1 - self.r0 + 1
    }
    pub fn cols(&self) -> u32 {
        self.c1 - self.c0 + 1
    }
    /// Number of cells, as u64 so whole-sheet areas do not overflow.
    pub fn size(&self) -> u64 {
        self.rows() as u64 * self.cols() as u64
    }
    pub fn is_cell(&self) -> bool {
        self.r0 == self.r1 && self.c0 == self.c1
    }
    pub fn top_left(&self) -> CellAddr {
        CellAddr::new(self.sheet, self.r0, self.c0)
    }
    pub fn contains(&self, c: CellAddr) -> bool {
        c.sheet == self.sheet && (self.r0..=self.r1).contains(&c.row) && (self.c0..=self.c1).contains(&c.col)
    }

    /// The cell of `other` at `cell`'s place in this area (same row and
    /// column offsets); `None` when `cell` is outside it.
    pub fn aligned(&self, other: &Area, cell: CellAddr) -> Option<CellAddr> {
        self.contains(cell).then(|| CellAddr {
            sheet: other.sheet,
            row: other.r0 + (cell.row - self.r0),
            col: other.c0 + (cell.col - self.c0),
        })
    }

    /// The smallest area holding both (the `:` operator); None across sheets.
    pub fn union(&self, o: &Area) -> Option<Area> {
        (self.sheet == o.sheet).then(|| Area {
            sheet: self.sheet,
            r0: self.r0.min(o.r0),
            c0: self.c0.min(o.c0),
            r1: self.r1.max(o.r1),
            c1: self.c1.max(o.c1),
        })
    }
    /// The common part of two areas, if any.
    pub fn intersect(&self, o: &Area) -> Option<Area> {
        let a = Area {
            sheet: self.sheet,
            r0: self.r0.max(o.r0),
            c0: self.c0.max(o.c0),
            r1: self.r1.min(o.r1),
            c1: self.c1.min(o.c1),
        };
        (self.sheet == o.sheet && a.r0 <= a.r1 && a.c0 <= a.c1).then_some(a)
    }
    /// Every cell, row-major.
    pub fn cells(&self) -> impl Iterator<Item = CellAddr> + '_ {
        (self.r0..=self.r1).flat_map(move |r| (self.c0..=self.c1).map(move |c| CellAddr::new(self.sheet, r, c)))
    }
}

/// `0 -> "A"`, `25 -> "Z"`, `26 -> "AA"`.
pub fn col_name(col: u32) -> String {
    let mut s = String::with_capacity(3);
    push_col(&mut s, col);
    s
}

/// Appends the column's letters (see [`col_name`]).
fn push_col(s: &mut String, mut col: u32) {
    let mut letters = [0u8; 8];
    let mut at = letters.len();
    loop {
        at -= 1;
        letters[at] = b'A' + (col % 26) as u8;
        if col < 26 {
            break;
        }
        col = col / 26 - 1;
    }
    letters[at..].iter().for_each(|&b| s.push(b as char));
}

/// Appends `D4` for (row, col), 0-based: the one way a cell is spelled.
fn push_a1(s: &mut String, row: u32, col: u32) {
    push_col(s, col);
    let mut digits = [0u8; 10];
    let (mut at, mut n) = (digits.len(), u64::from(row) + 1);
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    digits[at..].iter().for_each(|&b| s.push(b as char));
}

/// `"A" -> 0`, `"xfd" -> 16383`; None when not letters or past XFD.
pub fn parse_col(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 3 {
        return None;
    }
    let mut n: u32 = 0;
    for b in s.bytes() {
        if !b.is_ascii_alphabetic() {
            return None;
        }
        n = n * 26 + (b.to_ascii_uppercase() - b'A' + 1) as u32;
    }
    (1..=MAX_COLS).contains(&n).then(|| n - 1)
}

/// `"12" -> 11`; None when not a row number of the sheet.
pub fn parse_row(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 7 || !s.bytes().all(|b| b.is_ascii_digit()) || s.starts_with('0') {
        return None;
    }
    let n: u32 = s.parse().ok()?;
    (1..=MAX_ROWS).contains(&n).then(|| n - 1)
}

/// Parses a plain `D4` (no `$`, no sheet) into (row, col).
pub fn parse_a1(s: &str) -> Option<(u32, u32)> {
    let split = s.find(|c: char| c.is_ascii_digit())?;
    Some((parse_row(&s[split..])?, parse_col(&s[..split])?))
}

/// Formats (row, col) as `D4`.
pub fn a1(row: u32, col: u32) -> String {
    let mut s = String::with_capacity(10);
    push_a1(&mut s, row, col);
    s
}

impl Area {
    /// Appends the sheet-less A1 text: `D4` or `D4:L12`.
    pub fn write_a1(&self, s: &mut String) {
        push_a1(s, self.r0, self.c0);
        if !self.is_cell() {
            s.push(':');
            push_a1(s, self.r1, self.c1);
        }
    }
}

impl fmt::Display for Area {
    /// Sheet-less A1 text: `D4` or `D4:L12`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(24);
        self.write_a1(&mut s);
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_round_trip() {
        for (n, s) in [(0, "A"), (25, "Z"), (26, "AA"), (41, "AP"), (16383, "XFD")] {
            assert_eq!(col_name(n), s);
            assert_eq!(parse_col(s), Some(n));
        }
        assert_eq!(parse_col("XFE"), None);
        assert_eq!(parse_a1("AB12"), Some((11, 27)));
        assert_eq!(parse_row("0"), None);
    }
}
