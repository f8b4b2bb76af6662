//! The workbook model and the file formats it is read from. The model
//! (`model.rs`) holds sheets, calculation settings, cell contents, names
//! with their anchors, the input and view areas the CLI uses, the reset
//! protocol and the source files; every formula is parsed and keeps where
//! its text came from. [`load`] picks the reader from the file's extension
//! (`.ron`: the RON workbook with its `.dfl` formula files, in `ron/`;
//! `.xlsx`: an Excel workbook, in `xlsx/`); a
//! reader checks everything and reports every problem in every file as a
//! located [`Diagnostic`] (it never stops at the first one and never
//! panics). The formats are described in `docs/formats.md`.

mod areas;
mod builder;
mod locate;
pub mod model;
mod refs;
pub mod relative;
pub mod ron;
mod symbols;
pub mod view;
pub mod write_ron;
pub mod xlsx;

pub use model::*;
pub use refs::{parse_cell_ref, parse_input_value};
pub use ron::ALL;
pub use symbols::{Symbol, alphabet_problem, symbol_of};

use crate::diagnostic::Diagnostic;
use std::path::Path;

/// Reads the workbook at `path` with the reader for its extension (in any
/// case). Paths in messages are shown as given.
pub fn load(path: &Path) -> Result<Workbook, Vec<Diagnostic>> {
    load_with(path, &[])
}

/// [`load`] with the workbook's optional parts named in `with` turned on
/// ([`ALL`]: every part). Names the workbook does not declare are ignored
/// here; [`Workbook::unknown_parts`] lists them.
pub fn load_with(path: &Path, with: &[String]) -> Result<Workbook, Vec<Diagnostic>> {
    let ext = path.extension().map(|e| e.to_string_lossy().to_lowercase());
    match ext.as_deref() {
        Some("ron") => ron::load(path, with),
        Some("xlsx") => xlsx::load(path),
        _ if path.is_dir() => {
            Err(vec![Diagnostic::new(format!("cannot read the workbook file `{}`: it is a directory", path.display()))])
        }
        _ => {
            let format = ext.map_or_else(|| "(no extension)".to_string(), |e| format!("`.{e}`"));
            Err(vec![
                Diagnostic::new(format!("unknown workbook format {format}: dataflow reads .ron and .xlsx workbooks"))
                    .with_note(format!("in `{}`", path.display())),
            ])
        }
    }
}

impl Workbook {
    /// The names in `with` that are not parts of this workbook (nor [`ALL`]).
    pub fn unknown_parts<'w>(&self, with: &'w [String]) -> Vec<&'w str> {
        let known = |w: &str| w.eq_ignore_ascii_case(ALL) || self.parts.iter().any(|p| p.name.eq_ignore_ascii_case(w));
        with.iter().map(String::as_str).filter(|w| !known(w)).collect()
    }

    /// Loads a workbook from its RON text (see [`ron::from_str`]).
    pub fn from_str(text: &str, path_for_messages: &Path, base_dir: &Path) -> Result<Workbook, Vec<Diagnostic>> {
        ron::from_str(text, path_for_messages, base_dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_picks_the_reader_by_extension() {
        let diags = load(Path::new("tests/data/book.ods")).unwrap_err();
        assert_eq!(diags[0].message, "unknown workbook format `.ods`: dataflow reads .ron and .xlsx workbooks");
        assert_eq!(diags[0].note.as_deref(), Some("in `tests/data/book.ods`"));
        let diags = load(Path::new("tests/data/none.XLSX")).unwrap_err();
        assert!(diags[0].message.starts_with("cannot read the workbook file `tests/data/none.XLSX`"));
        let diags = load(Path::new("README")).unwrap_err();
        assert_eq!(diags[0].message, "unknown workbook format (no extension): dataflow reads .ron and .xlsx workbooks");
        // Any case of `.ron` goes to the RON reader.
        let diags = load(Path::new("tests/data/none.RON")).unwrap_err();
        assert!(diags[0].message.starts_with("cannot read the workbook file `tests/data/none.RON`"));
        assert!(load(Path::new("workbooks/sudoku.ron")).is_ok());
    }
}
