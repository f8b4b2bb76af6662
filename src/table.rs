//! Excel tables (Insert > Table) and what a structured reference to one
//! means: the one home of those rules. A table is a block of rows on one
//! sheet with named columns, a header row (usually) and a totals row
//! (sometimes); a structured reference names the table, which of its rows
//! (`#All`, `#Data`, `#Headers`, `#Totals`, `#This Row` / `@`) and which
//! columns (`[Col]`, `[[Col1]:[Col2]]`), and stands for the area they cover.
//! A reference inside a table may leave the table out (`[@Amount]`,
//! `SUBTOTAL(109,[Amount])`): it is the table the calculating cell is in.

use crate::address::{Area, CellAddr};
use crate::ast::{TableRef, TableRows};
use crate::value::ErrorKind;

/// One table: its name, the whole area it covers (header and totals rows
/// included), whether it has a header row and a totals row, and its column
/// names in order (as many as the area has columns).
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub name: String,
    pub area: Area,
    pub headers: bool,
    pub totals: bool,
    pub columns: Vec<String>,
}

impl Table {
    /// The first and last data rows.
    fn data_rows(&self) -> (u32, u32) {
        (self.area.r0 + u32::from(self.headers), self.area.r1 - u32::from(self.totals))
    }

    /// The column `name` (any case), as an offset from the first column.
    pub fn column(&self, name: &str) -> Option<u32> {
        self.columns.iter().position(|c| c.eq_ignore_ascii_case(name)).map(|i| i as u32)
    }

    /// The area `r`'s rows and columns cover, for a formula calculated in
    /// `cell`: `#REF!` for a column the table lacks or rows it has not (a
    /// totals row it does not show), `#VALUE!` for `#This Row` from a row
    /// outside its data. `r`'s table is not looked at: the caller found it.
    pub fn resolve(&self, r: &TableRef, cell: CellAddr) -> Result<Area, ErrorKind> {
        let (c0, c1) = match &r.columns {
            None => (self.area.c0, self.area.c1),
            Some((first, last)) => {
                let a = self.column(first).ok_or(ErrorKind::Ref)?;
                let b = self.column(last).ok_or(ErrorKind::Ref)?;
                (self.area.c0 + a.min(b), self.area.c0 + a.max(b))
            }
        };
        let (d0, d1) = self.data_rows();
        let TableRows { headers, data, totals, this_row } = r.rows;
        let (r0, r1) = if headers && data && totals {
            // `#All`: the whole table, whatever rows it shows.
            (self.area.r0, self.area.r1)
        } else if this_row {
            if cell.sheet != self.area.sheet || cell.row < d0 || cell.row > d1 {
                return Err(ErrorKind::Value);
            }
            (cell.row, cell.row)
        } else {
            let header = headers.then(|| self.headers.then_some(self.area.r0).ok_or(ErrorKind::Ref)).transpose()?;
            let total = totals.then(|| self.totals.then_some(self.area.r1).ok_or(ErrorKind::Ref)).transpose()?;
            // Only neighbouring parts make one area: headers and totals
            // without the data between them are no reference.
            let data = data || (!headers && !totals);
            if headers && totals && !data {
                return Err(ErrorKind::Ref);
            }
            let first = header.unwrap_or(d0);
            let last = total.unwrap_or(d1);
            match (data, header, total) {
                (false, Some(h), None) => (h, h),
                (false, None, Some(t)) => (t, t),
                _ => (first, last),
            }
        };
        if r0 > r1 {
            return Err(ErrorKind::Ref);
        }
        Ok(Area { sheet: self.area.sheet, r0, c0, r1, c1 })
    }
}

/// The table named `name` (any case).
pub fn find<'t>(tables: &'t [Table], name: &str) -> Option<&'t Table> {
    tables.iter().find(|t| t.name.eq_ignore_ascii_case(name))
}

/// The table `cell` is in.
pub fn containing(tables: &[Table], cell: CellAddr) -> Option<&Table> {
    tables.iter().find(|t| t.area.contains(cell))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        // Main!B2:D7: header row 2, data 3..6, totals 7; columns Item, Qty, Price.
        let area = Area { sheet: 0, r0: 1, c0: 1, r1: 6, c1: 3 };
        Table {
            name: "Sales".into(),
            area,
            headers: true,
            totals: true,
            columns: vec!["Item".into(), "Qty".into(), "Price".into()],
        }
    }

    fn rows(headers: bool, data: bool, totals: bool, this_row: bool) -> TableRows {
        TableRows { headers, data, totals, this_row }
    }

    fn r(rows: TableRows, columns: Option<(&str, &str)>) -> TableRef {
        TableRef { table: Some("Sales".into()), rows, columns: columns.map(|(a, b)| (a.into(), b.into())) }
    }

    #[test]
    fn rows_and_columns_resolve_to_areas() {
        let t = table();
        let at = CellAddr::new(0, 3, 5);
        let area = |rows, cols| t.resolve(&r(rows, cols), at);
        let a = |r0, c0, r1, c1| Ok(Area { sheet: 0, r0, c0, r1, c1 });
        assert_eq!(area(TableRows::default(), None), a(2, 1, 5, 3), "the data rows");
        assert_eq!(area(TableRows::default(), Some(("qty", "qty"))), a(2, 2, 5, 2));
        assert_eq!(area(TableRows::default(), Some(("Price", "Item"))), a(2, 1, 5, 3), "in either order");
        assert_eq!(area(rows(true, true, true, false), None), a(1, 1, 6, 3), "#All");
        assert_eq!(area(rows(true, false, false, false), Some(("Qty", "Qty"))), a(1, 2, 1, 2), "#Headers");
        assert_eq!(area(rows(false, false, true, false), None), a(6, 1, 6, 3), "#Totals");
        assert_eq!(area(rows(true, true, false, false), None), a(1, 1, 5, 3), "#Headers,#Data");
        assert_eq!(area(rows(false, true, true, false), None), a(2, 1, 6, 3), "#Data,#Totals");
        assert_eq!(area(rows(false, false, false, true), Some(("Qty", "Qty"))), a(3, 2, 3, 2), "#This Row");
        assert_eq!(area(rows(true, false, true, false), None), Err(ErrorKind::Ref), "not one area");
        assert_eq!(area(TableRows::default(), Some(("Cost", "Cost"))), Err(ErrorKind::Ref));
        let outside = t.resolve(&r(rows(false, false, false, true), None), CellAddr::new(0, 9, 1));
        assert_eq!(outside, Err(ErrorKind::Value), "#This Row from outside the data");
        let bare = Table { totals: false, headers: false, ..table() };
        assert_eq!(bare.resolve(&r(rows(true, true, true, false), None), at), a(1, 1, 6, 3), "#All of a bare table");
        assert_eq!(bare.resolve(&r(rows(false, false, true, false), None), at), Err(ErrorKind::Ref));
        assert_eq!(bare.resolve(&r(TableRows::default(), None), at), a(1, 1, 6, 3));
    }
}
