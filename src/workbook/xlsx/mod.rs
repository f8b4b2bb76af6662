//! The Excel reader (`.xlsx`): sheets, constants, formulas and cached
//! values through calamine (`cells.rs`), and what calamine drops through a
//! small pass over the package's XML (`parts.rs`): the iteration settings,
//! the date system (`date1904`; dates are kept as the serials stored, so
//! they count from 1904 there), each defined name's sheet scope and hidden
//! flag, array formula blocks.
//! Names stored A1-relative with wrap-around are anchored so they read as
//! their author wrote them (`names.rs`). The cached values of formula cells
//! become the workbook's starting values ([`Workbook::start`]).
//!
//! Every formula is parsed with dataflow's parser. So that a problem can be
//! shown in place, the reader lays out a listing of what it read, one line
//! per cell or name (`Main!B2: =A1+1`, `Main!C1:E3: {=...}`, `name left @
//! Main!B1: =Main!A1`), and reports problems at their line of that listing,
//! under the workbook's path; the listing is also the source a saved
//! state's fingerprint is taken from.

pub(in crate::workbook) mod bounds;
mod cells;
mod metadata;
mod names;
mod newer_errors;
mod own;
pub(in crate::workbook) mod parts;
mod tables;

use super::files::{Disk, Files};
use super::listing::Listing;
use super::model::*;
use super::refs::check_sheet_name;
use crate::LoadError;
use crate::address::CellAddr;
use crate::diagnostic::Diagnostic;
use crate::policy::SettingError;
use crate::sheets::Sheets;
use crate::value::date::DateSystem;
use crate::value::{ErrorKind, Value};
use calamine::{Reader, SheetType, Xlsx};
use std::io::Cursor;
use std::path::Path;

/// Reads the Excel workbook at `path`.
pub fn load(path: &Path) -> Result<Workbook, LoadError> {
    load_in(&Disk, path)
}

/// [`load`], the file read through `files`.
pub fn load_in(files: &dyn Files, path: &Path) -> Result<Workbook, LoadError> {
    from_bytes(&read_package(files, path)?, path)
}

/// The bytes of a zip package (xlsx or ods), at most [`MAX_XLSX_BYTES`].
pub(in crate::workbook) fn read_package(files: &dyn Files, path: &Path) -> Result<Vec<u8>, LoadError> {
    let fail = |m: String| LoadError::message(format!("cannot read the workbook file `{}`: {m}", path.display()));
    if let Some(size) = files.size(path)
        && size > MAX_XLSX_BYTES
    {
        return Err(fail(format!("it has {size} bytes, more than {MAX_XLSX_BYTES}")));
    }
    let bytes = files.read(path).map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > MAX_XLSX_BYTES {
        return Err(fail(format!("it has {} bytes, more than {MAX_XLSX_BYTES}", bytes.len())));
    }
    Ok(bytes)
}

/// The largest `.xlsx` (or `.ods`) file read: 1 GiB (it is read whole into memory).
pub const MAX_XLSX_BYTES: u64 = 1 << 30;

/// Reads an Excel workbook from the bytes of its file; `path` is shown in
/// messages.
pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Workbook, LoadError> {
    let fail = |m: String| LoadError::message(format!("cannot read `{}` as an Excel workbook: {m}", path.display()));
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| fail(format!("it is not a zip file ({e})")))?;
    bounds::check(&mut zip).map_err(fail)?;
    let book = parts::book(&mut zip).map_err(fail)?;
    // Excel 365's newer cached errors, masked for calamine, put back below.
    let part_paths: Vec<String> = book.sheets.iter().map(|(_, p)| p.clone()).collect();
    let masked = newer_errors::mask(bytes, &mut zip, &part_paths).map_err(fail)?;
    let newer: Vec<(CellAddr, ErrorKind)> = masked.as_ref().map(|(_, f)| f.clone()).unwrap_or_default();
    let read_from: &[u8] = masked.as_ref().map_or(bytes, |(b, _)| b.as_slice());
    let mut xlsx: Xlsx<_> = Xlsx::new(Cursor::new(read_from)).map_err(|e| fail(e.to_string()))?;
    let dynamic = metadata::dynamic_arrays(&mut zip).map_err(fail)?;
    let kinds: Vec<(String, SheetType)> = xlsx.sheets_metadata().iter().map(|s| (s.name.clone(), s.typ)).collect();
    let mut sheets = Sheets::default();
    let mut diags = Vec::new();
    for (name, _) in &book.sheets {
        if let Err(m) = check_sheet_name(name) {
            diags.push(
                Diagnostic::new(format!("the sheet name `{name}`: {m}")).with_note(format!("in `{}`", path.display())),
            );
        } else if let Some(other) = sheets.find(name) {
            // Names are matched case-insensitively: the second could never
            // be reached (Excel refuses such names too).
            let first = sheets.name(other);
            return Err(fail(format!("the sheets `{first}` and `{name}` have the same name but for case")));
        }
        sheets.push(name.clone());
    }
    if book.sheets.is_empty() {
        return Err(fail("`xl/workbook.xml` lists no sheet".into()));
    }
    let mut listing = Listing::default();
    let mut start = Vec::new();
    let dates = if book.date1904 { DateSystem::D1904 } else { DateSystem::D1900 };
    let mut tables = Vec::new();
    for (i, (name, part)) in book.sheets.iter().enumerate() {
        if !kinds.iter().any(|(n, t)| n == name && *t == SheetType::WorkSheet) {
            continue;
        }
        let mut read = cells::read(&mut xlsx, &mut zip, i as u16, name, part, dates, &dynamic)
            .map_err(|m| fail(format!("sheet `{name}`: {m}")))?;
        for (at, e) in newer.iter().filter(|(at, _)| at.sheet == i as u16) {
            let cells = read.cached.iter_mut().chain(read.constants.iter_mut());
            cells.filter(|(c, _)| c == at).for_each(|(_, v)| *v = Value::Error(*e));
        }
        for (c, v) in read.constants {
            listing.constant(&sheets, c, v);
        }
        for (area, text, kind) in read.formulas {
            listing.formula(&sheets, area, &excel_text(&text), kind);
        }
        start.extend(read.cached.into_iter().filter(|(_, v)| !v.is_empty()));
        if let Some(first) = read.kept.first() {
            diags.push(Diagnostic::new(format!(
                "sheet `{name}`: {} with an empty formula (where a dynamic array spills or a data table \
                 fills) {} the value Excel saved, first {}",
                crate::words::plural(read.kept.len() as u64, "cell"),
                if read.kept.len() == 1 { "keeps" } else { "keep" },
                sheets.cell(*first)
            )));
        }
        match tables::tables(&mut zip, part) {
            Ok(found) => tables.extend(found.into_iter().map(|t| (i as u16, t))),
            Err(m) => diags.push(Diagnostic::new(format!("the tables of sheet `{name}`: {m}"))),
        }
    }
    let sheet_names: Vec<String> = sheets.iter().map(|s| s.to_string()).collect();
    let (kept, problems) = names::scoped(&book.names, &sheet_names);
    diags.extend(problems.into_iter().map(|m| Diagnostic::new(m).with_note(format!("in `{}`", path.display()))));
    for (def, sheet) in kept {
        listing.name(&sheets, &def.name, &excel_text(&def.formula), sheet as u16, None, def.hidden);
    }
    let (mut calc, problems) = calc(&book.calc, ["iterateCount", "iterateDelta"]);
    diags.extend(problems.into_iter().map(|m| Diagnostic::new(m).with_note(format!("in `{}`", path.display()))));
    calc.date_system = dates;
    let tables = tables
        .into_iter()
        .filter_map(|(sheet, t)| match table(&sheet_names, sheet, t) {
            Ok(t) => Some(t),
            Err(m) => {
                diags.push(Diagnostic::new(m).with_note(format!("in `{}`", path.display())));
                None
            }
        })
        .collect();
    let own = own::find(&mut zip, path).map_err(fail)?;
    let mut wb = listing.build(path, sheets, diags, calc, own)?;
    wb.start = start;
    wb.tables = tables;
    super::regroup::regroup(&mut wb);
    Ok(wb)
}

/// A table of sheet `sheet` as the workbook holds it: its range read, as
/// many column names as it has columns.
fn table(sheets: &[String], sheet: u16, t: tables::RawTable) -> Result<crate::table::Table, String> {
    let area = super::refs::parse_cell_ref(&t.range, sheets, sheet)
        .map_err(|e| format!("the table `{}` has the range `{}`, which does not read: {e}", t.name, t.range))?;
    let width = area.cols() as usize;
    let mut columns = t.columns;
    columns.resize_with(width, String::new);
    for (i, c) in columns.iter_mut().enumerate().filter(|(_, c)| c.is_empty()) {
        *c = format!("Column{}", i + 1);
    }
    let headers_and_totals = u32::from(t.headers) + u32::from(t.totals);
    if area.rows() <= headers_and_totals {
        return Err(format!("the table `{}` ({}) has no data row", t.name, t.range));
    }
    Ok(crate::table::Table { name: t.name, area, headers: t.headers, totals: t.totals, columns })
}

/// `<calcPr>` as settings: Excel's defaults (100 iterations, 0.001) for a
/// missing count or delta, and Excel's row-major order; a count or delta
/// out of `policy`'s bounds (a delta of `INF` or `1e400` among them) is
/// refused.
/// `names`: how the file calls the count and the delta (`iterateCount`,
/// `iterateDelta`; an ods file's `table:steps`, `table:maximum-difference`).
pub(in crate::workbook) fn calc(c: &parts::CalcPr, names: [&str; 2]) -> (CalcSettings, Vec<String>) {
    let mut s = CalcSettings { iterate: c.iterate, ..CalcSettings::default() };
    let mut problems = Vec::new();
    if let Some(n) = &c.count {
        let count = n.parse().map_err(|_| SettingError::MaxIterations);
        match count.and_then(|n| s.with_max_iterations(n)) {
            Ok(t) => s = t,
            Err(e) => problems.push(format!("{}=\"{n}\" {e}; Excel's default {} is used", names[0], s.max_iterations)),
        }
    }
    if let Some(d) = &c.delta {
        let delta = d.parse().map_err(|_| SettingError::MaxChange);
        match delta.and_then(|d| s.with_max_change(d)) {
            Ok(t) => s = t,
            Err(e) => problems.push(format!("{}=\"{d}\" {e}; Excel's default {} is used", names[1], s.max_change)),
        }
    }
    (s, problems)
}

/// A formula as Excel stores it, without the prefixes it writes before
/// newer functions and their parameters (`_xlfn.XLOOKUP`, `_xlfn._xlws.SORT`,
/// `_xlpm.x` in LET and LAMBDA, `_xleta.SUM` for a function passed by its
/// name), outside strings and quoted sheet names.
fn excel_text(text: &str) -> String {
    const PREFIXES: [&str; 4] = ["_xlfn.", "_xlws.", "_xlpm.", "_xleta."];
    let mut out = String::with_capacity(text.len());
    let mut quote: Option<char> = None;
    let mut rest = text;
    while let Some(ch) = rest.chars().next() {
        let word_start = !out.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.');
        if quote.is_none()
            && word_start
            && let Some(p) = PREFIXES.iter().find(|p| rest.get(..p.len()).is_some_and(|s| s.eq_ignore_ascii_case(p)))
        {
            rest = &rest[p.len()..];
            continue;
        }
        match (quote, ch) {
            (None, '"' | '\'') => quote = Some(ch),
            (Some(q), _) if q == ch => quote = None,
            _ => {}
        }
        out.push(ch);
        rest = &rest[ch.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excel_prefixes_are_dropped_outside_strings() {
        assert_eq!(excel_text("_xlfn.XLOOKUP(A1,B:B,C:C)"), "XLOOKUP(A1,B:B,C:C)");
        assert_eq!(excel_text("_xlfn._xlws.SORT(A1:A3)"), "SORT(A1:A3)");
        assert_eq!(excel_text("_xlfn._xlws.FILTER(A1:A3,_xlfn.TAKE(B1:B3,3)>0)"), "FILTER(A1:A3,TAKE(B1:B3,3)>0)");
        assert_eq!(excel_text("_xlfn.LET(_xlpm.x,1,_xlpm.x+1)"), "LET(x,1,x+1)");
        assert_eq!(excel_text("_xlfn.MAP(A1:A3,_xlfn.LAMBDA(_xlpm.v,_xlpm.v*2))"), "MAP(A1:A3,LAMBDA(v,v*2))");
        assert_eq!(excel_text("_xlfn.BYROW(A1:C3,_xleta.SUM)"), "BYROW(A1:C3,SUM)");
        assert_eq!(excel_text("\"_xlfn.x\"&'_xlfn.s'!A1"), "\"_xlfn.x\"&'_xlfn.s'!A1");
        assert_eq!(excel_text("my_xlfn.x"), "my_xlfn.x");
    }
}
