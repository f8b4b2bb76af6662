//! The workbook model and the file formats it is read from. The model
//! (`model.rs`) holds sheets, calculation settings, cell contents, names
//! with their anchors, the input and view areas the CLI uses, the reset
//! protocol and the source files; every formula is parsed and keeps where
//! its text came from. [`load`] picks the reader from the file's extension
//! (`.ron`: the RON workbook with its `.dfl` formula files, in `ron/`;
//! `.xlsx`: an Excel workbook, in `xlsx/`; `.ods`: an OpenDocument
//! spreadsheet, in `ods/`); a
//! reader checks everything and reports every problem in every file as a
//! located [`Diagnostic`] (it never stops at the first one and never
//! panics). The formats are described in `docs/formats.md`.

mod areas;
mod builder;
pub mod bundle;
mod edit;
pub mod files;
mod listing;
mod locate;
pub mod model;
pub mod ods;
pub(crate) mod refs;
mod regroup;
pub mod relative;
pub mod ron;
mod symbols;
pub mod view;
pub mod write_own;
pub mod write_ron;
pub mod xlsx;

pub use edit::typed;
pub use model::*;
pub use refs::{parse_cell_ref, parse_input_value};
pub use ron::ALL;
pub use symbols::{Symbol, alphabet_problem, symbol_of};

use crate::diagnostic::Diagnostic;
use crate::error::LoadError;
use files::{Disk, Files, MemoryFiles};
use std::path::Path;

/// Reads the workbook at `path` with the reader for its extension (in any
/// case). Paths in messages are shown as given.
pub fn load(path: &Path) -> Result<Workbook, LoadError> {
    load_with(path, &[])
}

/// [`load`] with the workbook's optional parts named in `with` turned on
/// ([`ALL`]: every part). Names the workbook does not declare are ignored
/// here; [`Workbook::unknown_parts`] lists them.
pub fn load_with(path: &Path, with: &[String]) -> Result<Workbook, LoadError> {
    load_in(&Disk, path, with)
}

/// [`load_with`], every file read through `files` ([`Disk`], or
/// [`MemoryFiles`] for a workbook held in memory).
pub fn load_in(files: &dyn Files, path: &Path, with: &[String]) -> Result<Workbook, LoadError> {
    let ext = path.extension().map(|e| e.to_string_lossy().to_lowercase());
    match ext.as_deref() {
        Some("ron") => ron::load_in(files, path, with),
        // A macro-enabled workbook is an xlsx package; its macros are not read.
        // Parts that were off when the file was exported are turned on by
        // composing it from the sources it carries.
        Some("xlsx" | "xlsm") => bundle::compose(xlsx::load_in(files, path)?, path, with),
        Some("ods") => bundle::compose(ods::load_in(files, path)?, path, with),
        _ if path.is_dir() => {
            Err(LoadError::message(format!("cannot read the workbook file `{}`: it is a directory", path.display())))
        }
        _ => {
            let format = ext.map_or_else(|| "(no extension)".to_string(), |e| format!("`.{e}`"));
            Err(Diagnostic::new(format!(
                "unknown workbook format {format}: dataflow reads .ron, .xlsx, .xlsm and .ods workbooks"
            ))
            .with_note(format!("in `{}`", path.display()))
            .into())
        }
    }
}

impl Workbook {
    /// The names in `with` that are not parts of this workbook (nor [`ALL`]).
    pub fn unknown_parts<'w>(&self, with: &'w [String]) -> Vec<&'w str> {
        let known = |w: &str| w.eq_ignore_ascii_case(ALL) || self.parts.iter().any(|p| p.name.eq_ignore_ascii_case(w));
        with.iter().map(String::as_str).filter(|w| !known(w)).collect()
    }

    /// Loads a workbook from its RON text (see [`ron::from_str`]): included
    /// formula files are read from disk, relative to `base_dir`.
    pub fn from_str(text: &str, path_for_messages: &Path, base_dir: &Path) -> Result<Workbook, LoadError> {
        ron::from_str(text, path_for_messages, base_dir)
    }

    /// A workbook from its RON text and its formula files, given by the
    /// path its `include` list (or a part's) names them with; nothing is
    /// read from disk. The parts named in `with` are turned on.
    ///
    /// ```
    /// use dataflow::workbook::{Workbook, files::MemoryFiles};
    /// let files = MemoryFiles::new().with("f.dfl", "cells Main!B1 = A1*2\n");
    /// let ron = r#"(sheets: ["Main"], include: ["f.dfl"], cells: { "Main!A1": 21 })"#;
    /// let wb = Workbook::from_memory(ron, &files, &[]).expect("it loads");
    /// assert_eq!(wb.cells.len(), 2);
    /// ```
    pub fn from_memory(text: &str, files: &MemoryFiles, with: &[String]) -> Result<Workbook, LoadError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        ron::from_str_in(files, text, Path::new("workbook.ron"), Path::new(""), with)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_picks_the_reader_by_extension() {
        let diags = load(Path::new("tests/data/book.numbers")).unwrap_err();
        assert_eq!(
            diags[0].message,
            "unknown workbook format `.numbers`: dataflow reads .ron, .xlsx, .xlsm and .ods workbooks"
        );
        assert_eq!(diags[0].note.as_deref(), Some("in `tests/data/book.numbers`"));
        // `.ods` goes to the OpenDocument reader.
        let diags = load(Path::new("tests/data/none.ods")).unwrap_err();
        assert!(diags[0].message.starts_with("cannot read the workbook file `tests/data/none.ods`"));
        let diags = load(Path::new("tests/data/none.XLSX")).unwrap_err();
        assert!(diags[0].message.starts_with("cannot read the workbook file `tests/data/none.XLSX`"));
        let diags = load(Path::new("README")).unwrap_err();
        assert_eq!(
            diags[0].message,
            "unknown workbook format (no extension): dataflow reads .ron, .xlsx, .xlsm and .ods workbooks"
        );
        // Any case of `.ron` goes to the RON reader.
        let diags = load(Path::new("tests/data/none.RON")).unwrap_err();
        assert!(diags[0].message.starts_with("cannot read the workbook file `tests/data/none.RON`"));
        assert!(load(Path::new("workbooks/sudoku.ron")).is_ok());
    }
}
