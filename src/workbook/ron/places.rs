//! Places: `place NAME on SHELF` in a formula file defines NAME as the next
//! free place on a *shelf*, so that an optional part's board needs no rows
//! picked by hand. A shelf is a workbook name holding one constant area,
//! the first place (`name strategy_boards @ Main!A1 = Main!$P$34:$AP$60`);
//! every place on it has its size, and the k-th (from 0, in the order the
//! files are read: the workbook's includes, then the parts that are on, by
//! rank) lies k × (its rows + 3) rows below the first: three blank rows
//! between two places, room for a label. NAME is then an ordinary name for
//! that area (`cells NAME = ...`, a view's `range: "NAME"`).
//!
//! Where a place lies changes nothing a formula computes, except through
//! the order of a row-major pass: places on one shelf come after the shelf's
//! first row and in file order, which is what the strategy boards need.

use crate::address::{Area, MAX_ROWS, a1};
use crate::ast::Span;
use crate::diagnostic::Source;
use crate::parse::{parse_formula, sheet_prefix};
use crate::workbook::builder::Builder;
use crate::workbook::model::{Formula, Name, Origin};
use crate::workbook::refs::constant_area;
use std::sync::Arc;

/// Blank rows between two places on a shelf.
pub const GAP_ROWS: u32 = 3;

/// One `place NAME on SHELF` entry.
pub(crate) struct Place {
    pub name: String,
    pub name_span: Span,
    pub shelf: String,
    pub shelf_span: Span,
    pub file: Arc<Source>,
    pub comment: Option<String>,
}

/// Defines the name of every place, in order.
pub(crate) fn resolve(b: &mut Builder, places: Vec<Place>) {
    let mut taken: Vec<(String, u32)> = Vec::new();
    for p in places {
        let key = p.shelf.to_lowercase();
        let Some(shelf) = b.names.iter().find(|n| n.name.to_lowercase() == key) else {
            let m = format!("the shelf `{}` is not defined", p.shelf);
            b.error(&p.file, p.shelf_span, m, "no such name");
            continue;
        };
        let first = match constant_area(&shelf.formula.expr, shelf.anchor.sheet, &b.sheets) {
            Ok(a) => a,
            Err(why) => {
                let m = format!("the shelf `{}` does not name one area", shelf.name);
                b.error(&p.file, p.shelf_span, m, why);
                continue;
            }
        };
        let k = match taken.iter_mut().find(|(s, _)| *s == key) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                taken.push((key, 0));
                0
            }
        };
        let down = u64::from(k) * u64::from(first.rows() + GAP_ROWS);
        let Some(area) = shifted(first, down) else {
            let m = format!("no room left on the shelf `{}` for `{}`", shelf.name, p.name);
            b.error(&p.file, p.name_span, m, format!("place {} would pass the sheet's last row", k + 1));
            continue;
        };
        let text = absolute(b, area);
        let Ok(expr) = parse_formula(&text) else { continue };
        let formula = Formula { expr, text, origin: Origin { source: None, offset: 0 } };
        let def = Name { name: p.name.clone(), anchor: shelf.anchor, formula, comment: p.comment };
        b.add_name(&p.file, p.name_span, Some(def), &p.name);
    }
}

/// `area` moved `down` rows, if it still fits on the sheet.
fn shifted(area: Area, down: u64) -> Option<Area> {
    let r1 = u64::from(area.r1) + down;
    (r1 < u64::from(MAX_ROWS)).then(|| {
        let d = down as u32;
        Area::new(area.sheet, area.r0 + d, area.c0, area.r1 + d, area.c1)
    })
}

/// `Main!$P$64:$AP$90`.
fn absolute(b: &Builder, a: Area) -> String {
    let cell = |r: u32, c: u32| {
        let t = a1(r, c);
        let digits = t.find(|ch: char| ch.is_ascii_digit()).unwrap_or(t.len());
        format!("${}${}", &t[..digits], &t[digits..])
    };
    format!("{}{}:{}", sheet_prefix(b.sheets.name(a.sheet)), cell(a.r0, a.c0), cell(a.r1, a.c1))
}
