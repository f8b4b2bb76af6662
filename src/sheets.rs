//! The workbook's sheets: their names in workbook order, indexed by
//! [`SheetId`]. This is the one place where a sheet is found by name
//! (case-insensitively, as Excel does) and where a sheet-qualified address
//! is spelled (`Main!D4`, `'My Sheet'!D4:F6`): the name is quoted exactly
//! when a formula would quote it ([`crate::parse::sheet_prefix`]), so every
//! address dataflow prints (messages, traces, state files, DOT labels)
//! reads back as the same reference.

use crate::address::{Area, CellAddr, SheetId};
use crate::parse::sheet_prefix;
use std::ops::Deref;

/// Sheet names in workbook order; a [`SheetId`] is a position in the list.
/// Reads as a slice of names (`len`, `iter`, indexing).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sheets {
    names: Vec<String>,
    /// Each sheet's prefix (`Main!`, `'My Sheet'!`), spelled once.
    prefixes: Vec<String>,
}

impl Sheets {
    /// The sheet called `name`, matched case-insensitively.
    pub fn find(&self, name: &str) -> Option<SheetId> {
        find(&self.names, name)
    }

    /// The name of sheet `id`, as written in the workbook.
    pub fn name(&self, id: SheetId) -> &str {
        &self.names[id as usize]
    }

    /// Adds a sheet at the end; the caller checks the name.
    pub fn push(&mut self, name: String) {
        self.prefixes.push(sheet_prefix(&name));
        self.names.push(name);
    }

    /// `Main!D4`, `'My Sheet'!D4`.
    pub fn cell(&self, c: CellAddr) -> String {
        self.area(Area::cell(c))
    }

    /// `Main!D4:F6`, `'My Sheet'!D4:F6`; a one-cell area as a cell.
    pub fn area(&self, a: Area) -> String {
        let prefix = &self.prefixes[a.sheet as usize];
        let mut s = String::with_capacity(prefix.len() + 16);
        s.push_str(prefix);
        a.write_a1(&mut s);
        s
    }
}

/// The position of the sheet called `name` among `names`, matched
/// case-insensitively: [`Sheets::find`] for a plain list of names.
pub fn find(names: &[String], name: &str) -> Option<SheetId> {
    names.iter().position(|s| s.eq_ignore_ascii_case(name)).map(|i| i as SheetId)
}

impl Deref for Sheets {
    type Target = [String];
    fn deref(&self) -> &[String] {
        &self.names
    }
}

impl From<Vec<String>> for Sheets {
    fn from(names: Vec<String>) -> Self {
        let prefixes = names.iter().map(|n| sheet_prefix(n)).collect();
        Sheets { names, prefixes }
    }
}

impl FromIterator<String> for Sheets {
    fn from_iter<I: IntoIterator<Item = String>>(names: I) -> Self {
        Sheets::from(names.into_iter().collect::<Vec<_>>())
    }
}

impl<const N: usize> PartialEq<[&str; N]> for Sheets {
    fn eq(&self, names: &[&str; N]) -> bool {
        self.names == names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheets() -> Sheets {
        Sheets::from(vec!["Main".to_string(), "My Sheet".to_string(), "A1".to_string(), "Bob's".to_string()])
    }

    #[test]
    fn lookup_ignores_case() {
        let s = sheets();
        assert_eq!(s.find("main"), Some(0));
        assert_eq!(s.find("MY SHEET"), Some(1));
        assert_eq!(s.find("Other"), None);
        assert_eq!(s.name(1), "My Sheet");
    }

    #[test]
    fn qualified_names_quote_as_formulas_do() {
        let s = sheets();
        assert_eq!(s.cell(CellAddr::new(0, 3, 3)), "Main!D4");
        assert_eq!(s.area(Area::new(1, 3, 3, 5, 5)), "'My Sheet'!D4:F6");
        assert_eq!(s.cell(CellAddr::new(2, 0, 1)), "'A1'!B1");
        assert_eq!(s.cell(CellAddr::new(3, 0, 0)), "'Bob''s'!A1");
    }
}
