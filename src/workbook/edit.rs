//! Edits of a loaded workbook's content, as a user makes them in Excel:
//! text typed into a cell or over a range ([`typed`]: a constant, `=...` a
//! formula entered with Ctrl+Enter, `{=...}` an array formula over the
//! range), cells cleared, a name defined or changed. The model stays what
//! a file would give: entries never overlap, so an edit inside a range
//! formula cuts the range into pieces around the edited cells, each piece
//! keeping the range's anchor ([`CellEntry::anchor`]), so every other cell
//! keeps exactly the formula it had. An array formula's block is changed
//! whole or not at all, as in Excel. What the edit typed is parsed here;
//! its problems are located in the typed text, shown under the cell's name.

use super::model::*;
use super::refs::check_name;
use crate::address::{Area, CellAddr};
use crate::diagnostic::{Diagnostic, Source};
use crate::error::{Error, LoadError};
use crate::grid::MAX_FORMULA_CELLS;
use crate::parse::{block_formula, parse_formula};
use crate::sheets::Sheets;

/// What typing `text` into `area` puts there, as Excel reads a cell
/// entry: nothing for an empty text, `=...` a formula (relative to the
/// area's top-left cell), `{=...}` one array formula over the area, and
/// anything else a constant (a number, TRUE/FALSE, an error such as
/// `#N/A`, `'` before text that would read otherwise). A formula that does
/// not parse is a located error in the typed text.
pub fn typed(sheets: &Sheets, area: Area, text: &str) -> Result<Option<Content>, LoadError> {
    if text.is_empty() {
        return Ok(None);
    }
    let what = sheets.area(area);
    if let Some(inner) = block_formula(text) {
        return formula(&what, text, 1, inner).map(|f| Some(Content::Array(Box::new(f))));
    }
    if text.starts_with("{=") {
        let src = Source::new(&what, text);
        let d = Diagnostic::at(
            &src,
            text.len()..text.len(),
            format!("the array formula of {what} has no closing `}}`"),
            "expected `}`",
        );
        return Err(d.into());
    }
    if text.starts_with('=') {
        return formula(&what, text, 0, text).map(|f| Some(Content::Formula(Box::new(f))));
    }
    Ok(Some(Content::Constant(super::parse_input_value(text))))
}

/// The formula `body`, found at byte `offset` of the typed `text`, parsed
/// and placed in a source named after the cells it was typed into.
fn formula(what: &str, text: &str, offset: usize, body: &str) -> Result<Formula, LoadError> {
    let src = Source::new(what, text);
    match parse_formula(body) {
        Ok(expr) => Ok(Formula {
            expr: std::sync::Arc::new(expr),
            text: body.to_string(),
            origin: Origin { source: Some(src), offset },
        }),
        Err(errors) => Err(errors
            .into_iter()
            .map(|e| {
                let span = e.span.start + offset..e.span.end + offset;
                Diagnostic::at(&src, span, format!("cannot parse the formula of {what}"), e.message)
            })
            .collect::<Vec<_>>()
            .into()),
    }
}

impl Workbook {
    /// Puts `content` (None: nothing) into every cell of `area`, anchored
    /// at its top-left cell. An entry that `area` covers part of keeps its
    /// other cells (cut into at most four pieces around `area`, each with
    /// the entry's anchor); one it covers whole is gone. An array formula
    /// whose block `area` covers only part of is refused, naming the block.
    pub fn put(&mut self, area: Area, content: Option<Content>) -> Result<(), Error> {
        if let Some(block) = self
            .cells
            .iter()
            .find(|e| matches!(e.content, Content::Array(_)) && e.area.intersect(&area).is_some_and(|i| i != e.area))
        {
            return Err(Error::Cell(format!(
                "{} cuts the array formula over {}, which is edited as a whole",
                self.sheets.area(area),
                self.sheets.area(block.area)
            )));
        }
        // The formula cells after the edit: those outside the area, and the
        // area's when it gets a formula.
        let outside = |e: &CellEntry| match e.content {
            Content::Constant(_) => 0,
            _ => e.area.size() - e.area.intersect(&area).map_or(0, |i| i.size()),
        };
        let new = match content {
            None | Some(Content::Constant(_)) => 0,
            Some(_) => area.size(),
        };
        let formulas = self.cells.iter().map(outside).sum::<u64>() + new;
        if formulas > MAX_FORMULA_CELLS {
            return Err(Error::Cell(format!(
                "{} would make {formulas} formula cells; a workbook holds at most {MAX_FORMULA_CELLS}",
                self.sheets.area(area)
            )));
        }
        let mut cells = Vec::with_capacity(self.cells.len() + 4);
        for e in self.cells.drain(..) {
            match e.area.intersect(&area) {
                None => cells.push(e),
                Some(_) => cells.extend(around(e.area, area).into_iter().map(|a| CellEntry {
                    area: a,
                    content: e.content.clone(),
                    anchor: e.anchor,
                })),
            }
        }
        cells.extend(content.map(|c| CellEntry::new(area, c)));
        self.cells = cells;
        Ok(())
    }

    /// Defines the name `name` as `text` (a formula, with or without its
    /// `=`) relative to `anchor`, or changes the formula and anchor of the
    /// name of that name in any case (its spelling and comment stay).
    pub fn define_name(&mut self, name: &str, text: &str, anchor: CellAddr) -> Result<(), LoadError> {
        let what = format!("name `{name}`");
        if let Err(m) = check_name(name) {
            return Err(LoadError::message(format!("the name `{name}`: {m}")));
        }
        let formula = formula(&what, text, 0, text)?;
        match self.names.iter_mut().find(|n| n.name.eq_ignore_ascii_case(name)) {
            Some(n) => {
                n.formula = formula;
                n.anchor = anchor;
            }
            None => self.names.push(Name { name: name.to_string(), anchor, formula, comment: None }),
        }
        Ok(())
    }
}

/// The cells of `whole` outside `hole`, as at most four areas: the rows
/// above and below `hole`, then the columns left and right of it.
fn around(whole: Area, hole: Area) -> Vec<Area> {
    let Some(h) = whole.intersect(&hole) else { return vec![whole] };
    let piece = |r0, c0, r1, c1| Area { sheet: whole.sheet, r0, c0, r1, c1 };
    let mut out = Vec::new();
    if h.r0 > whole.r0 {
        out.push(piece(whole.r0, whole.c0, h.r0 - 1, whole.c1));
    }
    if h.r1 < whole.r1 {
        out.push(piece(h.r1 + 1, whole.c0, whole.r1, whole.c1));
    }
    if h.c0 > whole.c0 {
        out.push(piece(h.r0, whole.c0, h.r1, h.c0 - 1));
    }
    if h.c1 < whole.c1 {
        out.push(piece(h.r0, h.c1 + 1, h.r1, whole.c1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(r0: u32, c0: u32, r1: u32, c1: u32) -> Area {
        Area { sheet: 0, r0, c0, r1, c1 }
    }

    #[test]
    fn a_hole_leaves_four_pieces_that_cover_the_rest_once() {
        let whole = a(2, 3, 10, 12);
        for hole in [a(5, 5, 6, 7), a(0, 0, 3, 4), a(2, 3, 10, 12), a(10, 12, 20, 20), a(4, 0, 4, 40)] {
            let pieces = around(whole, hole);
            for c in whole.cells() {
                let n = pieces.iter().filter(|p| p.contains(c)).count();
                assert_eq!(n, usize::from(!hole.contains(c)), "{c:?} with hole {hole:?}");
            }
            assert!(
                pieces.iter().all(|p| p.r0 >= whole.r0 && p.r1 <= whole.r1 && p.c0 >= whole.c0 && p.c1 <= whole.c1)
            );
        }
        assert_eq!(around(whole, a(30, 30, 31, 31)), [whole]);
    }
}
