//! Loading a workbook: a RON file (sheets, calculation settings, cells,
//! names, inputs, views, reset protocol) plus the formula files (`.dfl`) it
//! includes. Every formula is parsed; every problem in every file is
//! reported as a located [`Diagnostic`] (the loader never stops at the first
//! one and never panics). The formats are described in `docs/formats.md`.

mod build;
mod dfl;
mod extras;
mod include;
mod locate;
pub mod model;
mod raw;
mod refs;

pub use extras::{DEFAULT_ALPHABET, DEFAULT_BLANKS};
pub use model::*;
pub use refs::{parse_cell_ref, parse_input_value};

use crate::diagnostic::{Diagnostic, Source};
use std::path::Path;

/// Reads the workbook file at `path` and the formula files it includes
/// (relative to its directory). Paths in messages are shown as given.
pub fn load(path: &Path) -> Result<Workbook, Vec<Diagnostic>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| vec![Diagnostic::new(format!("cannot read the workbook file `{}`: {e}", path.display()))])?;
    let base = path.parent().unwrap_or(Path::new(""));
    Workbook::from_str(text.strip_prefix('\u{feff}').unwrap_or(&text), path, base)
}

impl Workbook {
    /// Loads a workbook from its RON text. `path_for_messages` names the
    /// text in diagnostics; included files are read relative to `base_dir`.
    pub fn from_str(text: &str, path_for_messages: &Path, base_dir: &Path) -> Result<Workbook, Vec<Diagnostic>> {
        let src = Source::new(path_for_messages, text);
        let raw = raw::parse_ron(&src).map_err(|d| vec![d])?;
        let mut b = build::Builder::new(&src);
        let (calc, inputs, views, reset) = build::from_raw(&mut b, &raw, &src);
        if !b.sheets.is_empty() {
            include::includes(&mut b, &build::Locator { src: &src }, &raw.include, base_dir);
        }
        if !b.diags.is_empty() {
            let mut diags = b.diags;
            // File order, then position: the workbook file, then each include.
            let rank = |d: &Diagnostic| {
                let file = d
                    .file
                    .as_ref()
                    .map_or(0, |f| 1 + b.sources.iter().position(|s| std::sync::Arc::ptr_eq(s, f)).unwrap_or(0));
                (file, d.span.start)
            };
            diags.sort_by_key(rank);
            return Err(diags);
        }
        Ok(Workbook {
            sheets: b.sheets,
            calc,
            cells: b.cells,
            names: b.names,
            inputs,
            views,
            reset,
            sources: b.sources,
        })
    }
}
