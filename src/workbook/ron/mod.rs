//! The RON workbook format: a workbook file (`.ron`: sheets, calculation
//! settings, cells, names, inputs, views, reset protocol, included files)
//! plus the formula files (`.dfl`) it includes, read into a [`Workbook`].
//! serde reads the values (`raw.rs`); a scan of the same text (`spans.rs`)
//! says where each of them sits, so every problem is reported at its key,
//! value or field. The format is described in `docs/formats.md`.

pub(crate) mod additions;
mod dfl;
mod include;
mod inputs;
pub(crate) mod own;
mod parts;
pub(crate) mod places;
mod raw;
mod read;
mod spans;
mod tables;
mod views;

pub use parts::ALL;

use crate::LoadError;
use crate::diagnostic::{Diagnostic, Source};
use crate::workbook::Workbook;
use crate::workbook::builder::Builder;
use crate::workbook::files::{Disk, Files};
use std::path::Path;

/// Reads the workbook file at `path` and the formula files it includes
/// (relative to its directory), with the parts named in `with` turned on.
/// Paths in messages are shown as given.
pub fn load(path: &Path, with: &[String]) -> Result<Workbook, LoadError> {
    load_in(&Disk, path, with)
}

/// [`load`], every file read through `files`.
pub fn load_in(files: &dyn Files, path: &Path, with: &[String]) -> Result<Workbook, LoadError> {
    let text = files
        .read_text(path)
        .map_err(|e| vec![Diagnostic::new(format!("cannot read the workbook file `{}`: {e}", path.display()))])?;
    let base = path.parent().unwrap_or(Path::new(""));
    from_str_in(files, &text, path, base, with)
}

/// Reads a workbook from its RON text. `path_for_messages` names the text
/// in diagnostics; included files are read relative to `base_dir`.
pub fn from_str(text: &str, path_for_messages: &Path, base_dir: &Path) -> Result<Workbook, LoadError> {
    from_str_in(&Disk, text, path_for_messages, base_dir, &[])
}

/// [`from_str`] with the parts named in `with` turned on.
pub fn from_str_with(
    text: &str,
    path_for_messages: &Path,
    base_dir: &Path,
    with: &[String],
) -> Result<Workbook, LoadError> {
    from_str_in(&Disk, text, path_for_messages, base_dir, with)
}

/// [`from_str_with`], the included files read through `files`.
pub fn from_str_in(
    files: &dyn Files,
    text: &str,
    path_for_messages: &Path,
    base_dir: &Path,
    with: &[String],
) -> Result<Workbook, LoadError> {
    let src = Source::new(path_for_messages, text);
    let raw = raw::parse_ron(&src).map_err(|d| vec![d])?;
    let root = spans::scan(&src.text);
    let mut b = Builder::new(&src);
    b.excel_errors = raw.excel_errors;
    b.dynamic_arrays = raw.dynamic_arrays;
    let calc = read::head(&mut b, &raw, &root, &src);
    let base = (raw.include.as_slice(), root.field("include"));
    let chosen = parts::choose(&mut b, &src, &raw.parts, root.field("parts"), base, base_dir, with);
    let read = if b.sheets.is_empty() {
        Vec::new()
    } else {
        include::includes(&mut b, files, &src, &chosen.includes, base_dir)
    };
    let places = std::mem::take(&mut b.places);
    places::resolve(&mut b, places);
    let additions = std::mem::take(&mut b.additions);
    additions::resolve(&mut b, additions);
    b.names_read();
    let mut file = read::body(&mut b, &raw, &root, &src, calc);
    if let Some(n) = chosen.max_iterations.filter(|&n| n > file.calc.max_iterations) {
        file.calc.max_iterations = n;
    }
    let part_views = parts::views(&mut b, &src, &raw.parts, root.field("parts"), &chosen);
    parts::add_views(&mut b, &src, &mut file.views, part_views);
    include::add_cells(&mut b, read);
    tables::header_names(&mut b);
    read::check_settable(&mut b, &src, &file.settable);
    b.finish(file.calc, file.inputs, file.views, file.reset, chosen.parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (line, column, the text under the caret) of each problem.
    fn places(text: &str) -> Vec<(usize, usize, String)> {
        let diags = from_str(text, Path::new("t.ron"), Path::new(".")).expect_err("problems");
        let at = |d: &Diagnostic| {
            let (line, col) = d.line_col().expect("located");
            (line, col, text[d.span.clone()].to_string())
        };
        diags.iter().map(at).collect()
    }

    #[test]
    fn fields_named_in_comments_and_strings_are_not_blamed() {
        let text = r#"// Set max_change and max_iterations below; a view's group too.
Workbook(
    sheets: ["Main"], /* calc: (max_change: 0) */
    calc: (max_iterations: 0, max_change: -1),
    views: { "group": (blank: "group", range: "A1", group: (0, 1)) },
)"#;
        assert_eq!(
            places(text),
            [(4, 12, "max_iterations".into()), (4, 31, "max_change".into()), (5, 53, "group".into()),]
        );
    }

    #[test]
    fn escaped_strings_are_placed_where_they_are() {
        // The value of A1 reads `C1` too: the key `C\u{31}` is still found
        // at its own place, and so is its formula; so is `D\u{31}`.
        let text = r#"Workbook(sheets: ["Main"], cells: {
  "A1": "C\u{31}",
  "C\u{31}": "=1+",
  "D\u{31}": 1,
  "D1": 2,
})"#;
        assert_eq!(places(text), [(3, 17, "+".into()), (5, 4, "D1".into())]);
        let diags = from_str(text, Path::new("t.ron"), Path::new(".")).unwrap_err();
        assert_eq!(diags[1].note.as_deref(), Some("Main!D1 is set at t.ron:4:4"));
    }
}
