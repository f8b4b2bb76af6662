//! Reading the formula files a workbook includes. Include paths are
//! relative to the workbook file's directory; a file that cannot be read is
//! reported at its entry in the workbook's `include` list (so is one that
//! is not a regular file: a FIFO would block the reader forever), and the
//! others are still read. Each file's entries are checked like the workbook's own:
//! names (valid, defined once across all files), anchors, areas, formulas.
//! Names are added as the files are read; `cells` entries once every name
//! is known, since their areas may be names.

use super::additions::Addition;
use super::dfl::{DflEntry, DflKind, parse_dfl};
use super::places::Place;
use crate::address::CellAddr;
use crate::ast::Span;
use crate::diagnostic::Source;
use crate::workbook::builder::Builder;
use crate::workbook::files::{FileError, Files, clean};
use crate::workbook::model::{CellEntry, Name};
use std::path::{Path, PathBuf};
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
pub(crate) fn includes(
    b: &mut Builder,
    files: &dyn Files,
    src: &Arc<Source>,
    list: &[Include<'_>],
    base_dir: &Path,
) -> Vec<Read> {
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
        let text = match files.read_text(&full) {
            Ok(t) => t,
            Err(FileError::NotRegular(what)) => {
                b.error(src, span, format!("cannot read the included file `{}`: it is {what}", path.display()), what);
                continue;
            }
            Err(e) => {
                b.error(src, span, format!("cannot read the included file `{}`", path.display()), e.to_string());
                continue;
            }
        };
        let file = Source::new(path, text);
        b.sources.push(file.clone());
        let cells = names(b, &file);
        read.push(Read { file, cells });
    }
    read
}

/// Adds the names of one formula file; returns its `cells` entries.
fn names(b: &mut Builder, file: &Arc<Source>) -> Vec<DflEntry> {
    let (entries, diags) = parse_dfl(file);
    b.diags.extend(diags);
    let mut cells = Vec::new();
    for e in entries {
        if let DflKind::Place { name, name_span, after } = &e.kind {
            let shelf = file.text[e.formula.clone()].to_string();
            let (name, name_span, shelf_span) = (name.clone(), name_span.clone(), e.formula.clone());
            let (comment, after) = (e.comment.clone(), *after);
            b.places.push(Place { name, name_span, shelf, shelf_span, file: file.clone(), comment, after });
            continue;
        }
        let DflKind::Name { name, name_span, anchor, adds } = &e.kind else {
            cells.push(e);
            continue;
        };
        let text = &file.text[e.formula.clone()];
        if *adds {
            if let Some(formula) = b.formula(file, e.formula.start, text, &|_| format!("the addition to `{name}`")) {
                let (to, span, comment) = (name.clone(), name_span.clone(), e.comment.clone());
                b.additions.push(Addition { to, formula, comment, file: file.clone(), span });
            }
            continue;
        }
        let anchor = match anchor {
            None => Some(CellAddr::new(0, 0, 0)),
            Some((a, span)) => b.cell(file, span.start, a, "a name's anchor"),
        };
        let formula = b.formula(file, e.formula.start, text, &|_| format!("name `{name}`"));
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
            let what =
                |s: &crate::sheets::Sheets| format!("cells {}", area.map_or_else(|| target.clone(), |a| s.area(a)));
            let content = b.cell_formula(&file, e.formula.start, text, &what);
            if let (Some(area), Some(content)) = (area, content) {
                b.add_cells(&file, span.clone(), CellEntry::new(area, content));
            }
        }
    }
}
