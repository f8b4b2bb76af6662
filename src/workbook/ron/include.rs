//! Reading the formula files a workbook includes. Include paths are
//! relative to the workbook file's directory; a file that cannot be read is
//! reported at its entry in the workbook's `include` list (so is one that
//! is not a regular file: a FIFO would block the reader forever), and the
//! others are still read. Each file's entries are checked like the workbook's own:
//! names (valid, defined once across all files), anchors, areas, formulas.
//! Names are added as the files are read; `cells` entries once every name
//! is known, since their areas may be names.

use super::dfl::{DflEntry, DflKind, parse_dfl};
use crate::address::CellAddr;
use crate::ast::Span;
use crate::diagnostic::Source;
use crate::workbook::builder::Builder;
use crate::workbook::model::{CellEntry, Name};
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// One file to include: its path as written and where it is written in
/// the workbook file, and the part that includes it (None: the workbook).
pub(crate) struct Include<'t> {
    pub text: &'t str,
    pub span: Span,
    pub part: Option<usize>,
}

/// A formula file read, its names added, its `cells` entries still to add
/// (with [`add_cells`], once every name is read).
pub(crate) struct Read {
    file: Arc<Source>,
    cells: Vec<DflEntry>,
}

/// Reads every included file, in order, and adds its names. A file listed
/// twice by the workbook, or twice by one part, is an error; one that
/// several parts (or the workbook and a part) include is read once.
pub(crate) fn includes(b: &mut Builder, src: &Arc<Source>, list: &[Include<'_>], base_dir: &Path) -> Vec<Read> {
    let mut read = Vec::new();
    let mut seen: Vec<(PathBuf, Option<usize>)> = Vec::new();
    for inc in list {
        let span = inc.span.clone();
        let full = base_dir.join(inc.text);
        let path = clean(&full);
        match seen.iter().find(|(p, _)| *p == path) {
            Some((_, owner)) if *owner == inc.part => {
                b.error(src, span, format!("`{}` is included twice", inc.text), "included again");
                continue;
            }
            Some(_) => continue,
            None => seen.push((path.clone(), inc.part)),
        }
        if let Some(what) = not_regular(&full) {
            b.error(src, span, format!("cannot read the included file `{}`: it is {what}", path.display()), what);
            continue;
        }
        let text = match std::fs::read_to_string(&full) {
            Ok(t) => t,
            Err(e) => {
                let why = match e.kind() {
                    io::ErrorKind::NotFound => "file not found".to_string(),
                    io::ErrorKind::InvalidData => "not UTF-8 text".to_string(),
                    _ => e.to_string(),
                };
                b.error(src, span, format!("cannot read the included file `{}`", path.display()), why);
                continue;
            }
        };
        let text = match text.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_string(),
            None => text,
        };
        let file = Source::new(path, text);
        b.sources.push(file.clone());
        let cells = names(b, &file);
        read.push(Read { file, cells });
    }
    read
}

/// What the file at `path` is when it exists but is not a regular file (a
/// directory, a FIFO, a device, a socket), which could never be read or
/// would block the reader forever; None otherwise.
pub(crate) fn not_regular(path: &Path) -> Option<&'static str> {
    let kind = std::fs::metadata(path).ok()?.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Some("a device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// Adds the names of one formula file; returns its `cells` entries.
fn names(b: &mut Builder, file: &Arc<Source>) -> Vec<DflEntry> {
    let (entries, diags) = parse_dfl(file);
    b.diags.extend(diags);
    let mut cells = Vec::new();
    for e in entries {
        let DflKind::Name { name, name_span, anchor } = &e.kind else {
            cells.push(e);
            continue;
        };
        let text = &file.text[e.formula.clone()];
        let anchor = match anchor {
            None => Some(CellAddr::new(0, 0, 0)),
            Some((a, span)) => b.cell(file, span.start, a, "a name's anchor"),
        };
        let formula = b.formula(file, e.formula.start, text, &format!("name `{name}`"));
        let def = match (anchor, formula) {
            (Some(anchor), Some(formula)) => {
                Some(Name { name: name.clone(), anchor, formula, comment: e.comment.clone() })
            }
            _ => None,
        };
        b.add_name(file, name_span.clone(), def, name);
    }
    cells
}

/// Adds the `cells` entries of the files read, in order.
pub(crate) fn add_cells(b: &mut Builder, read: Vec<Read>) {
    for Read { file, cells } in read {
        for e in cells {
            let DflKind::Cells { target, span } = &e.kind else { continue };
            let text = &file.text[e.formula.clone()];
            let area = b.area(&file, span.start, target);
            let what = area.map_or_else(|| target.clone(), |a| b.show(a));
            let content = b.cell_formula(&file, e.formula.start, text, &format!("cells {what}"));
            if let (Some(area), Some(content)) = (area, content) {
                b.add_cells(&file, span.clone(), CellEntry { area, content });
            }
        }
    }
}

/// Removes `.` and resolves `..` against the preceding component, so
/// messages show `formulas/x.dfl` rather than `workbooks/../formulas/x.dfl`.
pub(crate) fn clean(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    if out.is_empty() { PathBuf::from(".") } else { out.iter().collect() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleans_paths() {
        assert_eq!(clean(Path::new("workbooks/../formulas/./x.dfl")), PathBuf::from("formulas/x.dfl"));
        assert_eq!(clean(Path::new("../a/b")), PathBuf::from("../a/b"));
        assert_eq!(clean(Path::new("x.dfl")), PathBuf::from("x.dfl"));
    }
}
