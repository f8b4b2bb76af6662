//! The workbook file's `tables`: Excel tables, which formulas name in
//! structured references (`Sales[Qty]`, `[@Qty]`). Each has a range (its
//! header and totals rows included), whether it has a header row (default
//! yes) and a totals row (default no), and its column names: given, else
//! the texts of its header row's cells, else `Column1`, `Column2`, ....
//! Checked: a valid name, not a workbook name and not defined twice (any
//! case), one column name per column, at least one data row, no overlap.

use super::raw::{Entries, RawTable, Str};
use super::spans::Node;
use crate::diagnostic::Source;
use crate::table::Table;
use crate::value::Value;
use crate::workbook::builder::Builder;
use crate::workbook::model::Content;
use crate::workbook::refs::check_name;
use std::sync::Arc;

/// Reads the tables; their column names from the header row are found
/// once every cell is read ([`header_names`]).
pub(crate) fn tables(b: &mut Builder, src: &Arc<Source>, raw: &Entries<Str<'_>, RawTable<'_>>, places: &Node) {
    for (i, (key, def)) in raw.0.iter().enumerate() {
        let (key_at, at) = places.entry(i);
        let (name, key_span) = (key.text.to_string(), key_at.string());
        if let Err(m) = check_name(&name) {
            b.error(src, key_span, format!("the table name `{name}`: {m}"), "invalid table name");
            continue;
        }
        if b.tables.iter().any(|t| t.name.eq_ignore_ascii_case(&name)) {
            b.error(src, key_span, format!("the table `{name}` is defined twice"), "repeated table");
            continue;
        }
        let Some(area) = b.area(src, at.field("range").string().start, &def.range.text) else { continue };
        let (headers, totals) = (def.header.unwrap_or(true), def.totals.unwrap_or(false));
        if area.rows() <= u32::from(headers) + u32::from(totals) {
            let m = format!("the table `{name}` ({}) has no data row", b.show(area));
            b.error(src, at.field("range").string(), m, "no data row");
            continue;
        }
        let columns: Vec<String> = def.columns.iter().flatten().map(|c| c.text.to_string()).collect();
        if def.columns.is_some() && columns.len() != area.cols() as usize {
            let m = format!("the table `{name}` has {} columns but {} column names", area.cols(), columns.len());
            b.error(src, at.field("columns").string(), m, "one name per column");
            continue;
        }
        if let Some(other) = b.tables.iter().find(|t| t.area.intersect(&area).is_some()) {
            let m = format!("the table `{name}` overlaps the table `{}`", other.name);
            b.error(src, at.field("range").string(), m, "overlapping tables");
            continue;
        }
        b.tables.push(Table { name, area, headers, totals, columns });
    }
}

/// Names the columns of the tables given none: the texts in their header
/// rows, or `ColumnN` where there is none (as Excel names them).
pub(crate) fn header_names(b: &mut Builder) {
    for i in 0..b.tables.len() {
        if !b.tables[i].columns.is_empty() {
            continue;
        }
        let t = &b.tables[i];
        let names = (t.area.c0..=t.area.c1)
            .enumerate()
            .map(|(k, col)| {
                let cell = crate::address::CellAddr::new(t.area.sheet, t.area.r0, col);
                let text = b.cells.iter().find(|e| t.headers && e.area.contains(cell)).and_then(|e| match &e.content {
                    Content::Constant(Value::Text(s)) if !s.is_empty() => Some(s.to_string()),
                    _ => None,
                });
                text.unwrap_or_else(|| format!("Column{}", k + 1))
            })
            .collect();
        b.tables[i].columns = names;
    }
}
