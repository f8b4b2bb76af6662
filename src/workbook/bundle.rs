//! The sources an exported file carries for the optional parts that were
//! off when it was written. A part's formulas live in formula files that
//! the sheets of an xlsx or ods cannot hold apart from the rest, so
//! `export` puts the RON workbook file and every formula file any of its
//! parts reads into dataflow's own part ([`gather`]); `run s.xlsx --with
//! locked` then composes the workbook from them as `run sudoku.ron` with
//! the parts that were on and `locked` would ([`compose`]), with a warning
//! that changes made to the sheets since the export are not in it.
//!
//! Paths are kept relative to the folder holding all the files (the
//! workbook file `workbooks/sudoku.ron`, its formulas `formulas/...`), and
//! read back under the exported file's path, so a problem in a carried
//! file is shown as `s.xlsx/formulas/strategies/locked.dfl:3:5`.

use super::files::{MemoryFiles, clean};
use super::model::{Bundle, Workbook};
use crate::diagnostic::Diagnostic;
use crate::error::LoadError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The sources of `wb`'s parts that are off, with the workbook file's: the
/// bundle it was loaded with, or the files read from disk when each of
/// those parts is turned on in turn (a part that does not load is left
/// out, and named in `warnings`). `None` when every part is on.
pub fn gather(wb: &Workbook, warnings: &mut Vec<String>) -> Option<Bundle> {
    let off: Vec<&str> = wb.parts.iter().filter(|p| !p.on).map(|p| p.name.as_str()).collect();
    if off.is_empty() {
        return None;
    }
    if let Some(b) = &wb.bundle {
        return Some((**b).clone());
    }
    let root = wb.sources.first()?.path.clone();
    let on: Vec<String> = wb.parts.iter().filter(|p| p.on).map(|p| p.name.clone()).collect();
    let mut files: BTreeMap<PathBuf, String> = wb.sources.iter().map(|s| (absolute(&s.path), s.text.clone())).collect();
    for part in off {
        let with: Vec<String> = on.iter().cloned().chain([part.to_string()]).collect();
        match super::load_with(&root, &with) {
            Ok(w) => files.extend(w.sources.iter().map(|s| (absolute(&s.path), s.text.clone()))),
            Err(_) => warnings.push(format!("the optional part `{part}` does not load: the file cannot turn it on")),
        }
    }
    let folder = common_folder(files.keys());
    let relative = |p: &Path| p.strip_prefix(&folder).unwrap_or(p).to_string_lossy().replace('\\', "/");
    Some(Bundle {
        root: relative(&absolute(&root)),
        files: files.iter().map(|(p, text)| (relative(p), text.clone())).collect(),
    })
}

fn absolute(path: &Path) -> PathBuf {
    clean(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// The deepest folder holding every path.
fn common_folder<'p>(paths: impl Iterator<Item = &'p PathBuf>) -> PathBuf {
    let mut common: Option<PathBuf> = None;
    for p in paths {
        let folder = p.parent().map(Path::to_path_buf).unwrap_or_default();
        common = Some(match common {
            None => folder,
            Some(c) => c.components().zip(folder.components()).take_while(|(a, b)| a == b).map(|(a, _)| a).collect(),
        });
    }
    common.unwrap_or_default()
}

/// `wb` (read from the exported file `path`) with the parts `with` names
/// turned on: itself when they are on already, else the workbook composed
/// from the sources it carries with the parts that were on and those.
pub fn compose(wb: Workbook, path: &Path, with: &[String]) -> Result<Workbook, LoadError> {
    let all = with.iter().any(|w| w.eq_ignore_ascii_case(super::ALL));
    let asked = |name: &str| all || with.iter().any(|w| w.eq_ignore_ascii_case(name));
    let turned_on: Vec<&str> = wb.parts.iter().filter(|p| !p.on && asked(&p.name)).map(|p| p.name.as_str()).collect();
    if turned_on.is_empty() {
        return Ok(wb);
    }
    let names = turned_on.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ");
    let Some(bundle) = wb.bundle.clone() else {
        return Err(LoadError::message(format!(
            "`{}` was written with the optional parts {names} off and carries no sources to turn them on \
             (export it again with --with)",
            path.display()
        )));
    };
    let mut files = MemoryFiles::new();
    for (p, text) in &bundle.files {
        files.insert(path.join(p), text.clone());
    }
    let on: Vec<String> = wb.parts.iter().filter(|p| p.on || asked(&p.name)).map(|p| p.name.clone()).collect();
    let mut composed = super::ron::load_in(&files, &path.join(&bundle.root), &on)?;
    composed.bundle = Some(bundle);
    composed.warnings.push(Diagnostic::new(format!(
        "`{}`: turning on {names} composes the workbook from the workbook and formula files the file carries \
         (as exported); changes made to its sheets since are not in it",
        path.display()
    )));
    Ok(composed)
}
