//! `import BOOK.xlsx --out DIR`: an Excel workbook (or an OpenDocument
//! spreadsheet, `BOOK.ods`) written as a RON workbook (`DIR/BOOK.ron`,
//! with the inputs, views and reset protocol of dataflow's own part of the
//! file, when it has one) and a formula file (`DIR/BOOK.dfl`), so its
//! formulas can be edited as text; with the cached values of its formula
//! cells, also a state file (`DIR/BOOK.state.ron`) that `run --state`
//! starts from, as Excel's F9 starts from them. A file exported with parts
//! off carries the workbook and formula files they come from: they are
//! written as they were (`DIR/BOOK.sources/...`), so the original workbook
//! with all its parts can be run and edited again. Existing files are kept
//! unless `--force`. The written workbook is loaded back and bound before
//! the command succeeds, so its problems are reported in the new files.

use crate::app::{Failure, print};
use dataflow::address::CellAddr;
use dataflow::session::Session;
use dataflow::state::{Cells, State, VERSION, fingerprint};
use dataflow::value::Value;
use dataflow::workbook::{Content, Workbook, write_ron};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub fn import(book: &Path, out: &Path, force: bool) -> Result<(), Failure> {
    let ext = book.extension().map(|e| e.to_string_lossy().to_lowercase());
    if !matches!(ext.as_deref(), Some("xlsx" | "xlsm" | "ods")) {
        return Err(Failure::usage(format!(
            "`{}`: import reads Excel workbooks (.xlsx, .xlsm) and OpenDocument spreadsheets (.ods)",
            book.display()
        )));
    }
    let wb = dataflow::workbook::load(book).map_err(Failure::from)?;
    let stem = book.file_stem().map_or("book".into(), |s| s.to_string_lossy().to_string());
    let ron = out.join(format!("{stem}.ron"));
    let dfl = out.join(format!("{stem}.dfl"));
    let state = (!wb.start.is_empty()).then(|| out.join(format!("{stem}.state.ron")));
    let sources = out.join(format!("{stem}.sources"));
    let carried: Vec<(PathBuf, &str)> =
        wb.bundle.iter().flat_map(|b| b.files.iter().map(|(p, t)| (sources.join(p), t.as_str()))).collect();
    let files: Vec<&PathBuf> = [&ron, &dfl].into_iter().chain(&state).chain(carried.iter().map(|(p, _)| p)).collect();
    if !force && let Some(f) = files.iter().find(|f| f.exists()) {
        return Err(Failure::usage(format!("`{}` exists; --force overwrites it", f.display())));
    }
    let io = |p: &Path, e: std::io::Error| Failure::usage(format!("cannot write `{}`: {e}", p.display()));
    std::fs::create_dir_all(out).map_err(|e| io(out, e))?;
    let written = write_ron::write(&wb, &format!("{stem}.dfl"), &book.display().to_string());
    std::fs::write(&ron, &written.ron).map_err(|e| io(&ron, e))?;
    std::fs::write(&dfl, &written.dfl).map_err(|e| io(&dfl, e))?;
    let session = Session::load(&ron).map_err(Failure::from)?;
    let mut text = format!("wrote {} and {}", ron.display(), dfl.display());
    if let Some(path) = &state {
        let saved = starting_state(&wb, session.workbook(), &ron);
        saved.save(path).map_err(|m| Failure::usage(format!("cannot write `{}`: {m}", path.display())))?;
        text += &format!(
            "\nwrote {} (Excel's cached values: `dataflow run {} --state {}` starts from them)",
            path.display(),
            ron.display(),
            path.display()
        );
    }
    if let Some(b) = &wb.bundle {
        for (path, contents) in &carried {
            path.parent().map_or(Ok(()), std::fs::create_dir_all).map_err(|e| io(path, e))?;
            std::fs::write(path, contents).map_err(|e| io(path, e))?;
        }
        let parts: Vec<String> = wb.parts.iter().filter(|p| !p.on).map(|p| format!("`{}`", p.name)).collect();
        text += &format!(
            "\nwrote the {} files `{}` carries for its parts that were off ({}), as exported: `dataflow run {} --with PART`",
            carried.len(),
            book.display(),
            parts.join(", "),
            sources.join(&b.root).display()
        );
    }
    print(&format!("{text}\n"))
}

/// A state holding the constants and the cached values of `wb`, for the
/// workbook written from it (`written`, loaded from `ron`).
fn starting_state(wb: &Workbook, written: &Workbook, ron: &Path) -> State {
    let mut values: BTreeMap<CellAddr, Value> = BTreeMap::new();
    for entry in &wb.cells {
        if let Content::Constant(v) = &entry.content {
            values.extend(entry.area.cells().map(|c| (c, v.clone())));
        }
    }
    values.extend(wb.start.iter().cloned());
    let cells = values.into_iter().filter(|(_, v)| !v.is_empty()).map(|(c, v)| (wb.sheets.cell(c), v)).collect();
    State {
        version: VERSION,
        workbook: ron.display().to_string(),
        fingerprint: fingerprint(written),
        iterations_total: 0,
        cells: Cells(cells),
    }
}
