//! The workbook file's `parts`: optional sets of formula files and views,
//! turned on by name when the workbook is loaded (`--with NAME`, `--with
//! all`). A part may also *replace* some of the workbook's own includes by
//! its files (a Sudoku strategy swaps the candidates formula for one that
//! reads the strategy's board). Every part is checked whether it is on or
//! not: its name, its one-line description, that what it replaces is an
//! include of the workbook, and its views (a view of a part that is off
//! may name what only that part's files define, such as a board it places:
//! such a name is checked when the part is on). Only the files of the parts that
//! are on are read, by `rank` (then as declared: a part without one ranks
//! 0); a file that several parts include is read once, where it is first.
//! A part may raise the workbook's `max_iterations` while it is on (the
//! largest asked for counts; it never lowers it).

use super::include::Include;
use super::raw::{Entries, RawPart, Str};
use super::spans::Node;
use crate::ast::Span;
use crate::diagnostic::Source;
use crate::workbook::builder::Builder;
use crate::workbook::files::clean;
use crate::workbook::model::{Part, ViewDef};
use std::path::Path;
use std::sync::Arc;

/// The name that turns every part on.
pub const ALL: &str = "all";

/// What the parts add to the workbook, for the parts that are on.
pub(crate) struct Chosen<'t> {
    /// Every declared part, with whether it is on.
    pub parts: Vec<Part>,
    /// The files to read: the workbook's includes (less what a part that is
    /// on replaces), then the files of each part that is on, in file order.
    pub includes: Vec<Include<'t>>,
    /// The declared parts with a valid name (their index among the
    /// declared ones), whose views [`views`] checks once the names are read.
    valid: Vec<usize>,
    /// The most iterations a part that is on asks for (`max_iterations`).
    pub max_iterations: Option<u32>,
}

/// Reads the declared parts and chooses the files and views of those named
/// in `with` (case-insensitively; [`ALL`] names every part). Names in `with`
/// that the workbook does not declare are left to the caller to report.
pub(crate) fn choose<'t>(
    b: &mut Builder,
    src: &Arc<Source>,
    raw: &'t Entries<Str<'t>, RawPart<'t>>,
    places: &Node,
    base: (&'t [Str<'t>], &Node),
    base_dir: &Path,
    with: &[String],
) -> Chosen<'t> {
    let (base_list, base_places) = base;
    let key = |text: &str| clean(&base_dir.join(text));
    let base_paths: Vec<_> = base_list.iter().map(|s| key(&s.text)).collect();
    let mut chosen = Chosen { parts: Vec::new(), includes: Vec::new(), valid: Vec::new(), max_iterations: None };
    let mut replaced = Vec::new();
    let mut extra = Vec::new();
    for (i, (name, part)) in raw.0.iter().enumerate() {
        let (key_at, at) = places.entry(i);
        let on = with.iter().any(|w| w.eq_ignore_ascii_case(ALL) || w.eq_ignore_ascii_case(&name.text));
        if let Err((m, label)) = check_name(&name.text, &chosen.parts) {
            b.error(src, key_at.string(), m, label);
            continue;
        }
        let about = part.about.text.trim();
        if about.is_empty() || about.contains('\n') {
            let m = format!("the part `{}` needs a one-line `about`", name.text);
            b.error(src, at.field("about").string(), m, "one line, not empty");
        }
        for (j, r) in part.replace.iter().enumerate() {
            let path = key(&r.text);
            if !base_paths.contains(&path) {
                let m = format!("the part `{}` replaces `{}`, which the workbook does not include", name.text, r.text);
                b.error(src, at.field("replace").item(j).string(), m, "not an include of the workbook");
            } else if on {
                replaced.push(path);
            }
        }
        if let Some(n) = part.max_iterations {
            if let Err(e) = crate::policy::CalcSettings::default().with_max_iterations(n) {
                b.error(src, at.field_name("max_iterations"), format!("max_iterations {e}, not {n}"), "out of range");
            } else if on {
                chosen.max_iterations = chosen.max_iterations.max(Some(n));
            }
        }
        chosen.parts.push(Part { name: name.text.to_string(), about: about.to_string(), on, rank: part.rank });
        chosen.valid.push(i);
        if on {
            let list = at.field("include");
            extra.extend(part.include.iter().enumerate().map(|(j, inc)| {
                let include = Include { text: &inc.text, span: list.item(j).string(), part: Some(i) };
                (part.rank.unwrap_or(0), include)
            }));
        }
    }
    // By rank; a stable sort keeps the declared order within one.
    extra.sort_by_key(|(rank, _)| *rank);
    for (i, inc) in base_list.iter().enumerate() {
        if !replaced.contains(&base_paths[i]) {
            chosen.includes.push(Include { text: &inc.text, span: base_places.item(i).string(), part: None });
        }
    }
    chosen.includes.extend(extra.into_iter().map(|(_, include)| include));
    chosen
}

/// Checks the views of every part (once every name is read: their ranges
/// may be names) and returns those of the parts that are on, each with its
/// part's name and where that is declared.
pub(crate) fn views(
    b: &mut Builder,
    src: &Arc<Source>,
    raw: &Entries<Str<'_>, RawPart<'_>>,
    places: &Node,
    chosen: &Chosen<'_>,
) -> Vec<(ViewDef, Span, String)> {
    let mut out = Vec::new();
    for (&i, part) in chosen.valid.iter().zip(&chosen.parts) {
        let (key_at, at) = places.entry(i);
        let views = super::views::views(b, src, &raw.0[i].1.views, at.field("views"), !part.on);
        if part.on {
            out.extend(views.into_iter().map(|v| (v, key_at.string(), part.name.clone())));
        }
    }
    out
}

/// Adds the views of the parts that are on to the workbook's `views`. A
/// view defined alike by several parts is kept once; one defined otherwise
/// than a view of the same name is an error at the part.
pub(crate) fn add_views(
    b: &mut Builder,
    src: &Arc<Source>,
    views: &mut Vec<ViewDef>,
    extra: Vec<(ViewDef, Span, String)>,
) {
    for (v, span, part) in extra {
        match views.iter().find(|w| w.name.eq_ignore_ascii_case(&v.name)) {
            Some(w) if *w == v => {}
            Some(_) => {
                let m = format!("the part `{part}` defines the view `{}`, which is already defined otherwise", v.name);
                b.error(src, span, m, "another view of that name");
            }
            None => views.push(v),
        }
    }
}

/// A part's name: letters, digits, `-` and `_`, not `all`, declared once.
/// The error is a message and a label for the name.
fn check_name(name: &str, before: &[Part]) -> Result<(), (String, &'static str)> {
    let valid = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    if !valid {
        return Err((format!("a part's name is letters, digits, `-` and `_`, not `{name}`"), "not a part name"));
    }
    if name.eq_ignore_ascii_case(ALL) {
        return Err((format!("`{ALL}` names every part; a part cannot be called so"), "reserved"));
    }
    if before.iter().any(|p| p.name.eq_ignore_ascii_case(name)) {
        return Err((format!("the part `{name}` is declared twice"), "declared again"));
    }
    Ok(())
}
