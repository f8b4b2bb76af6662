//! The workbook file's `views`: named blocks of cells the CLI prints as a
//! grid. Checks each area (at most [`MAX_SHOWN_CELLS`], as for `--show`),
//! the grouping (at least one row and one column) and that each view is
//! defined once (case-insensitively).

use super::raw::{Entries, RawView, Str};
use super::spans::Node;
use crate::diagnostic::Source;
use crate::workbook::builder::Builder;
use crate::workbook::model::{MAX_SHOWN_CELLS, ViewDef};
use std::sync::Arc;

pub(crate) fn views(
    b: &mut Builder,
    src: &Arc<Source>,
    raw: &Entries<Str<'_>, RawView<'_>>,
    places: &Node,
) -> Vec<ViewDef> {
    let mut out: Vec<ViewDef> = Vec::new();
    for (i, (key, def)) in raw.0.iter().enumerate() {
        let (key_at, at) = places.entry(i);
        if out.iter().any(|v| v.name.eq_ignore_ascii_case(&key.text)) {
            b.error(src, key_at.string(), format!("the view `{}` is defined twice", key.text), "repeated view");
            continue;
        }
        let range = at.field("range").string();
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
        out.push(ViewDef {
            name: key.text.to_string(),
            area,
            group: def.group,
            blank: def.blank.as_ref().map_or_else(|| ".".to_string(), |b| b.text.to_string()),
        });
    }
    out
}
