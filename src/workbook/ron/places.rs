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
//! `place NAME after SHELF` moves NAME, a name already holding one area (of
//! any size), down to the row where the next place on the shelf would start
//! once every `on` place is given, keeping its columns: what must come
//! after every place in a row-major pass (the strategies' gate memory)
//! stays there however many parts are on. Several names placed after one
//! shelf go to that same row (their columns must differ).
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
    /// `after`: NAME exists and is moved after the places.
    pub after: bool,
}

/// Defines the name of every place, in order, then moves the names placed
/// after a shelf.
pub(crate) fn resolve(b: &mut Builder, places: Vec<Place>) {
    let (after, on): (Vec<Place>, Vec<Place>) = places.into_iter().partition(|p| p.after);
    let mut taken: Vec<(String, u32)> = Vec::new();
    for p in on {
        let Some((first, anchor)) = shelf(b, &p) else { continue };
        let k = next(&mut taken, &p.shelf);
        let Some(area) = shifted(first, u64::from(k) * u64::from(first.rows() + GAP_ROWS)) else {
            let m = format!("no room left on the shelf `{}` for `{}`", p.shelf, p.name);
            b.error(&p.file, p.name_span, m, format!("place {} would pass the sheet's last row", k + 1));
            continue;
        };
        let def = Name { name: p.name.clone(), anchor, formula: formula(b, area), comment: p.comment };
        b.add_name(&p.file, p.name_span, Some(def), &p.name);
    }
    for p in after {
        let Some((first, _)) = shelf(b, &p) else { continue };
        let key = p.shelf.to_lowercase();
        let k = taken.iter().find(|(s, _)| *s == key).map_or(0, |(_, n)| n + 1);
        let name = p.name.to_lowercase();
        let Some(i) = b.names.iter().position(|n| n.name.to_lowercase() == name) else {
            b.error(
                &p.file,
                p.name_span,
                format!("`{}` is not defined", p.name),
                "define it first, as the area to move",
            );
            continue;
        };
        let own = match constant_area(&b.names[i].formula.expr, b.names[i].anchor.sheet, &b.sheets) {
            Ok(a) => a,
            Err(why) => {
                b.error(&p.file, p.name_span, format!("`{}` does not name one area", p.name), why);
                continue;
            }
        };
        let row = u64::from(first.r0) + u64::from(k) * u64::from(first.rows() + GAP_ROWS);
        let moved = shifted(Area::new(own.sheet, 0, own.c0, own.r1 - own.r0, own.c1), row);
        let Some(area) = moved else {
            let m = format!("no room left on the shelf `{}` for `{}`", p.shelf, p.name);
            b.error(&p.file, p.name_span, m, "it would pass the sheet's last row");
            continue;
        };
        b.names[i].formula = formula(b, area);
    }
}

/// The shelf's first place and its name's anchor, or the problem reported.
fn shelf(b: &mut Builder, p: &Place) -> Option<(Area, crate::address::CellAddr)> {
    let key = p.shelf.to_lowercase();
    let Some(shelf) = b.names.iter().find(|n| n.name.to_lowercase() == key) else {
        b.error(&p.file, p.shelf_span.clone(), format!("the shelf `{}` is not defined", p.shelf), "no such name");
        return None;
    };
    match constant_area(&shelf.formula.expr, shelf.anchor.sheet, &b.sheets) {
        Ok(a) => Some((a, shelf.anchor)),
        Err(why) => {
            let m = format!("the shelf `{}` does not name one area", shelf.name);
            b.error(&p.file, p.shelf_span.clone(), m, why);
            None
        }
    }
}

/// The index of the next place on `shelf` (from 0), counted.
fn next(taken: &mut Vec<(String, u32)>, shelf: &str) -> u32 {
    let key = shelf.to_lowercase();
    match taken.iter_mut().find(|(s, _)| *s == key) {
        Some((_, n)) => {
            *n += 1;
            *n
        }
        None => {
            taken.push((key, 0));
            0
        }
    }
}

/// The constant reference to `area`, as a name's formula.
fn formula(b: &Builder, area: Area) -> Formula {
    let text = absolute(b, area);
    let expr = parse_formula(&text).unwrap_or_else(|_| crate::ast::Expr::new(crate::ast::ExprKind::Missing, 0..0));
    Formula { expr: std::sync::Arc::new(expr), text, origin: Origin { source: None, offset: 0 } }
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
