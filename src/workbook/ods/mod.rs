//! The OpenDocument reader (`.ods`, LibreOffice's own format): every part
//! of the package is size-checked first (`xlsx::bounds`, as for xlsx), then
//! `content.xml` is read in one pass (`content.rs`): the iteration
//! settings, the date system, each sheet's constants, formulas (OpenFormula,
//! turned into Excel's syntax by `formula.rs`) with their cached values, and
//! the named ranges and expressions with their base cells. A name whose
//! base cell is A1 is rebased as an xlsx name is (LibreOffice writes
//! relative references from A1 with wrap-around); another keeps its base
//! cell as its anchor. The rest is the xlsx reader's: a listing of what was
//! read, problems located in it, Excel's way with problems, copied
//! formulas regrouped into range formulas, and dataflow's own part
//! (`dataflow.xml`, see `ron::own`) when the file holds one.

mod content;
mod formula;

use super::files::{Disk, Files};
use super::listing::{FormulaKind, Listing};
use super::model::*;
use super::refs::check_sheet_name;
use super::xlsx::parts::{CalcPr, part};
use crate::LoadError;
use crate::address::{Area, CellAddr, parse_a1};
use crate::diagnostic::Diagnostic;
use crate::sheets::Sheets;
use std::io::Cursor;
use std::path::Path;

/// dataflow's own part in an ods package (see `export/ods.rs`).
const OWN_PART: &str = "dataflow.xml";

/// Reads the OpenDocument spreadsheet at `path`.
pub fn load(path: &Path) -> Result<Workbook, LoadError> {
    load_in(&Disk, path)
}

/// [`load`], the file read through `files`.
pub fn load_in(files: &dyn Files, path: &Path) -> Result<Workbook, LoadError> {
    from_bytes(&super::xlsx::read_package(files, path)?, path)
}

/// Reads an OpenDocument spreadsheet from the bytes of its file; `path` is
/// shown in messages.
pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Workbook, LoadError> {
    let fail =
        |m: String| LoadError::message(format!("cannot read `{}` as an OpenDocument spreadsheet: {m}", path.display()));
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| fail(format!("it is not a zip file ({e})")))?;
    super::xlsx::bounds::check(&mut zip).map_err(fail)?;
    let read = content::read(&part(&mut zip, "content.xml").map_err(fail)?).map_err(fail)?;
    let own = match zip.index_for_name(OWN_PART) {
        Some(_) => {
            let xml = part(&mut zip, OWN_PART).map_err(fail)?;
            let text = super::ron::own::unwrap(&xml).map_err(|m| fail(format!("the part `{OWN_PART}`: {m}")))?;
            text.map(|t| (t, path.join(OWN_PART)))
        }
        None => None,
    };
    let note = || format!("in `{}`", path.display());
    let mut diags = Vec::new();
    let mut sheets = Sheets::default();
    for s in &read.sheets {
        if let Err(m) = check_sheet_name(&s.name) {
            diags.push(Diagnostic::new(format!("the sheet name `{}`: {m}", s.name)).with_note(note()));
        } else if let Some(other) = sheets.find(&s.name) {
            let first = sheets.name(other);
            return Err(fail(format!("the sheets `{first}` and `{}` have the same name but for case", s.name)));
        }
        sheets.push(s.name.clone());
    }
    if read.sheets.is_empty() {
        return Err(fail("`content.xml` holds no sheet".into()));
    }
    let mut listing = Listing::default();
    let mut start = Vec::new();
    for (i, s) in read.sheets.into_iter().enumerate() {
        let at = |(r, c): (u32, u32)| CellAddr::new(i as u16, r, c);
        for (c, v) in s.constants {
            listing.constant(&sheets, at(c), v);
        }
        for f in s.formulas {
            let area = Area::new(i as u16, f.first.0, f.first.1, f.last.0, f.last.1);
            let kind = if f.array { FormulaKind::Block } else { FormulaKind::Plain };
            // What does not translate is listed as stored, reported there.
            listing.formula(&sheets, area, &formula::to_excel(&f.text).unwrap_or(f.text), kind);
        }
        start.extend(s.cached.into_iter().filter(|(_, v)| !v.is_empty()).map(|(c, v)| (at(c), v)));
    }
    for (name, expr, base, local) in &read.names {
        let text = formula::to_excel(expr).unwrap_or_else(|_| expr.clone());
        let (sheet, base) = match base.as_deref().map(|b| base_cell(b, &sheets)) {
            Some(Ok((sheet, (0, 0)))) => (sheet, None),
            Some(Ok((sheet, cell))) => (sheet, Some(cell)),
            Some(Err(m)) => {
                diags.push(Diagnostic::new(format!("the name `{name}`: {m}")).with_note(note()));
                (0, None)
            }
            None => (local.unwrap_or(0) as u16, None),
        };
        listing.name(&sheets, name, &text, sheet, base, false);
    }
    let settings = CalcPr { iterate: read.iterate, count: read.steps, delta: read.max_difference };
    let (mut calc, problems) = super::xlsx::calc(&settings, ["table:steps", "table:maximum-difference"]);
    diags.extend(problems.into_iter().map(|m| Diagnostic::new(m).with_note(note())));
    calc.date_system = read.dates;
    let mut wb = listing.build(path, sheets, diags, calc, own)?;
    wb.start = start;
    super::regroup::regroup(&mut wb);
    Ok(wb)
}

/// A name's base cell (`$Main.$A$1`): its sheet and (row, column).
fn base_cell(text: &str, sheets: &Sheets) -> Result<(u16, (u32, u32)), String> {
    let excel = formula::to_excel(&format!("[{text}]"))?;
    let (sheet, cell) = excel.rsplit_once('!').ok_or_else(|| format!("the base cell `{text}` names no sheet"))?;
    let sheet = sheet.trim_matches('\'').replace("''", "'");
    let id = sheets.find(&sheet).ok_or_else(|| format!("the base cell `{text}` is on no sheet of the file"))?;
    let (row, col) = parse_a1(&cell.replace('$', "")).ok_or_else(|| format!("the base cell `{text}` is not a cell"))?;
    Ok((id, (row, col)))
}
