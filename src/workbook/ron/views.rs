//! The workbook file's `views`: named blocks of cells the CLI prints as a
//! grid. Checks each area (at most [`MAX_SHOWN_CELLS`], as for `--show`),
//! the grouping (at least one row and one column), that each view is
//! defined once (case-insensitively), and its display: the alphabet, the
//! number format, the compact form, the region map and the reason area
//! (of the range's shape).

use super::raw::{Entries, RawView, Str};
use super::spans::Node;
use crate::address::Area;
use crate::diagnostic::Source;
use crate::workbook::alphabet_problem;
use crate::workbook::builder::Builder;
use crate::workbook::view::{Display, MAX_SHOWN_CELLS, NumberFormat, ViewDef};
use std::sync::Arc;

/// The views declared at `places`. `off`: they belong to a part that is
/// off, so a range naming what only that part's files define (a board it
/// places) is passed over, not refused.
pub(crate) fn views(
    b: &mut Builder,
    src: &Arc<Source>,
    raw: &Entries<Str<'_>, RawView<'_>>,
    places: &Node,
    off: bool,
) -> Vec<ViewDef> {
    let mut out: Vec<ViewDef> = Vec::new();
    for (i, (key, def)) in raw.0.iter().enumerate() {
        let (key_at, at) = places.entry(i);
        if out.iter().any(|v| v.name.eq_ignore_ascii_case(&key.text)) {
            b.error(src, key_at.string(), format!("the view `{}` is defined twice", key.text), "repeated view");
            continue;
        }
        let range = at.field("range").string();
        if off && b.unknown_name(&def.range.text) {
            continue;
        }
        let Some(area) = b.area(src, range.start, &def.range.text) else {
            continue;
        };
        if area.size() > MAX_SHOWN_CELLS {
            let m =
                format!("the view `{}` has {} cells; at most {MAX_SHOWN_CELLS} can be shown", key.text, area.size());
            b.error(src, range, m, "too large");
            continue;
        }
        if let Some((rows, cols)) = def.group
            && (rows == 0 || cols == 0)
        {
            b.error(
                src,
                at.field_name("group"),
                format!("a view's group must be at least (1, 1), not ({rows}, {cols})"),
                "zero group",
            );
            continue;
        }
        let Some(display) = display(b, src, def, at, &area) else {
            continue;
        };
        let reasons = match &def.reasons {
            Some(r) if off && b.unknown_name(&r.text) => None,
            Some(r) => match reasons(b, src, &r.text, at, &area) {
                Some(a) => Some(a),
                None => continue,
            },
            None => None,
        };
        out.push(ViewDef {
            name: key.text.to_string(),
            area,
            group: def.group,
            blank: def.blank.as_ref().map_or_else(|| ".".to_string(), |b| b.text.to_string()),
            display,
            reasons,
        });
    }
    out
}

/// A view's reason area, of the view's rows and columns; `None` when it
/// is not, reported.
fn reasons(b: &mut Builder, src: &Arc<Source>, text: &str, at: &Node, area: &Area) -> Option<Area> {
    let span = at.field("reasons").string();
    let reasons = b.area(src, span.start, text)?;
    if (reasons.rows(), reasons.cols()) != (area.rows(), area.cols()) {
        let m = format!(
            "the reason area has {} rows and {} columns; the view's range has {} and {}",
            reasons.rows(),
            reasons.cols(),
            area.rows(),
            area.cols()
        );
        b.error(src, span, m, "another shape");
        return None;
    }
    Some(reasons)
}

/// A view's alphabet (no symbol twice), number format, compact form (which
/// needs a group) and region map (of the shape the view shows); `None`
/// when one of them is wrong, reported.
fn display(b: &mut Builder, src: &Arc<Source>, def: &RawView<'_>, at: &Node, area: &Area) -> Option<Display> {
    let mut d = Display::default();
    let before = b.diags.len();
    if let Some(a) = &def.alphabet {
        if let Some((m, label)) = alphabet_problem(&a.text) {
            b.error(src, at.field("alphabet").string(), m, label);
        }
        d.alphabet = Some(a.text.chars().collect());
    }
    if let Some(f) = &def.format {
        match NumberFormat::parse(&f.text) {
            Ok(f) => d.format = Some(f),
            Err(m) => b.error(src, at.field("format").string(), m, "not a number format"),
        }
    }
    if def.compact {
        match def.group {
            Some(group) => d.compact = Some(group),
            None => b.error(src, at.field_name("compact"), "a compact view needs a group: (rows, columns)", "no group"),
        }
    }
    if let Some(r) = &def.regions {
        let span = at.field("regions").string();
        if let Some(map) = b.area(src, span.start, &r.text) {
            let (rows, cols) = d.shape(area);
            if (map.rows(), map.cols()) != (rows, cols) {
                let m = format!(
                    "the region map has {} rows and {} columns; the view shows {rows} and {cols}",
                    map.rows(),
                    map.cols()
                );
                b.error(src, span, m, "another shape");
            }
            d.regions = Some(map);
        }
    }
    (b.diags.len() == before).then_some(d)
}
