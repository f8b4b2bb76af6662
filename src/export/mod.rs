//! Writing a calculated workbook for Excel (`.xlsx`, `xlsx.rs`, with
//! rust_xlsxwriter) and LibreOffice (`.ods`, `ods.rs`, OpenDocument written
//! as zip + XML, formulas printed by `openformula.rs`). Both start from one
//! `Book`: every formula cell with its formula moved to that cell (a
//! formula over a range is written in each of its cells, as Excel stores
//! it), every block array formula once over its block, every other cell
//! holding a value as a constant, the names with their anchors, the
//! calculation settings, and each cell's current value, which becomes the
//! file's cached result. What the sheets cannot say (inputs, views, the
//! reset protocol, the parts and the sources of those that are off, the
//! names' comments) goes into
//! dataflow's own part of the file (`workbook::write_own`), which Excel and
//! LibreOffice keep without reading it. What a file cannot say is refused
//! ([`export`]'s problems) or listed (its warnings), never silently dropped.

mod ods;
mod openformula;
mod package;
mod tables;
mod xlsx;

/// A formula in OpenFormula's syntax, `of:=...` (as the ods writer puts it).
#[cfg(test)]
pub(crate) use openformula::formula as openformula_text;

use crate::address::{Area, CellAddr};
use crate::ast::{Expr, ExprKind, UnaryOp};
use crate::policy::{CalcSettings, Order};
use crate::session::Session;
use crate::sheets::Sheets;
use crate::value::Value;
use crate::workbook::{Content, relative};
use std::collections::BTreeMap;
use std::path::Path;

/// The file formats written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Xlsx,
    Ods,
}

impl Format {
    /// The format of a file name's extension (`.xlsx`, `.ods`, any case).
    pub fn of(path: &Path) -> Option<Format> {
        match path.extension()?.to_string_lossy().to_lowercase().as_str() {
            "xlsx" => Some(Format::Xlsx),
            "ods" => Some(Format::Ods),
            _ => None,
        }
    }
}

/// A written file, and what it could not say exactly.
#[derive(Debug)]
pub struct Exported {
    pub bytes: Vec<u8>,
    pub warnings: Vec<String>,
}

/// One cell of the exported workbook.
pub(crate) enum Cell {
    Constant(Value),
    /// A formula (moved to this cell) and its value.
    Formula(Expr, Value),
    /// A block array formula at its block's top-left cell.
    Array(Expr, Area, Value),
    /// A dynamic-array formula at its anchor, with the area it spills
    /// over now (the anchor alone when it does not spill).
    Spill(Expr, Area, Value),
    /// Another cell of a block or a spill: its element of the value.
    InBlock(Value),
}

/// A calculated workbook, cell by cell.
pub(crate) struct Book {
    pub sheets: Sheets,
    pub cells: BTreeMap<CellAddr, Cell>,
    /// (name, anchor, formula as written from the anchor).
    pub names: Vec<(String, CellAddr, Expr)>,
    pub calc: CalcSettings,
}

/// Writes the session's workbook with its current values (calculate it
/// first) in `format`; the problems that make the file a different
/// workbook are errors, the lesser ones warnings.
pub fn export(session: &Session, format: Format) -> Result<Exported, crate::Error> {
    let wb = session.workbook();
    let calc = session.engine().settings;
    if calc.order != Order::RowMajor {
        return Err(crate::Error::Export(vec![
            "the workbook iterates in synchronous order (all cells from the previous pass), which is dataflow's \
             own: Excel and LibreOffice iterate row by row (export it with `--order row-major`)"
                .to_string(),
        ]));
    }
    let mut warnings = Vec::new();
    // The parts that are off travel as their sources (`--with` turns them on).
    let bundle = crate::workbook::bundle::gather(wb, &mut warnings);
    let book = book(session, calc, &mut warnings);
    let own = crate::workbook::write_own::own_part(wb, bundle.as_ref());
    for (at, e) in book.formulas() {
        calls(e, &mut |name| {
            // A workbook name holding a LAMBDA is called by its name.
            let named = session.workbook().names.iter().any(|n| n.name.eq_ignore_ascii_case(name));
            if crate::functions::lookup(name).is_none() && !named {
                warnings.push(format!(
                    "{at} calls {name}, which dataflow does not know (#NAME? here); Excel may calculate it"
                ));
            }
        });
    }
    let bytes = match format {
        Format::Xlsx => xlsx::write(&book, &own).map_err(crate::Error::Export)?,
        Format::Ods => ods::write(&book, &own, &mut warnings).map_err(crate::Error::Export)?,
    };
    Ok(Exported { bytes, warnings })
}

/// `A1#` and `@x` as the calls files store them (`ANCHORARRAY(A1)`,
/// `SINGLE(x)`); `None` for anything else.
fn operator_call(e: &Expr) -> Option<Expr> {
    let ExprKind::Unary { op, expr } = &e.kind else { return None };
    let spec = crate::functions::operator(*op)?;
    let call = ExprKind::Call { name: spec.name.to_string(), args: vec![(**expr).clone()] };
    Some(Expr::new(call, e.span.clone()))
}

/// The session's workbook and values as a [`Book`].
fn book(session: &Session, calc: CalcSettings, warnings: &mut Vec<String>) -> Book {
    let wb = session.workbook();
    let engine = session.engine();
    let plain = tables::Plain {
        tables: &wb.tables,
        sheets: &wb.sheets,
        names: wb.names.iter().map(|n| n.name.clone()).collect(),
    };
    let mut rewrote = false;
    let mut plain_at = |mut e: Expr, c: CellAddr| {
        rewrote |= plain.rewrite(&mut e, c);
        e
    };
    let value = |c: CellAddr| engine.get(c).clone();
    let mut cells = BTreeMap::new();
    for entry in &wb.cells {
        let origin = entry.anchor;
        match &entry.content {
            Content::Constant(_) => {}
            Content::Formula(f) => {
                for c in entry.area.cells() {
                    cells.insert(c, Cell::Formula(plain_at(relative::moved_to(&f.expr, origin, c), c), value(c)));
                }
            }
            Content::Dynamic(f) => {
                let spilled = engine.grid().spills().get(origin).and_then(|s| s.area);
                let area = spilled.unwrap_or(entry.area);
                for c in area.cells().filter(|&c| c != origin) {
                    cells.insert(c, Cell::InBlock(value(c)));
                }
                cells.insert(origin, Cell::Spill(plain_at((*f.expr).clone(), origin), area, value(origin)));
            }
            Content::Array(f) => {
                for c in entry.area.cells() {
                    let cell = if c == origin {
                        Cell::Array(plain_at((*f.expr).clone(), c), entry.area, value(c))
                    } else {
                        Cell::InBlock(value(c))
                    };
                    cells.insert(c, cell);
                }
            }
        }
    }
    let grid = engine.grid();
    for sheet in 0..wb.sheets.iter().count() {
        let (rows, cols) = grid.extent(sheet as u16);
        for row in 0..rows {
            for col in 0..cols {
                let c = CellAddr::new(sheet as u16, row, col);
                let v = grid.get(c);
                if !v.is_empty() && !cells.contains_key(&c) {
                    cells.insert(c, Cell::Constant(v.clone()));
                }
            }
        }
    }
    let names =
        wb.names.iter().map(|n| (n.name.clone(), n.anchor, plain_at((*n.formula.expr).clone(), n.anchor))).collect();
    if rewrote {
        let list: Vec<String> = wb.tables.iter().map(|t| format!("`{}`", t.name)).collect();
        warnings.push(format!(
            "the tables {} are written as plain references (`Sales[Qty]` as `Main!$C$3:$C$5`): the file computes \
             the same values but has no tables",
            list.join(", ")
        ));
    }
    Book { sheets: wb.sheets.clone(), cells, names, calc }
}

impl Book {
    /// Every formula, with where it is (`Main!B2`, `name x`).
    fn formulas(&self) -> Vec<(String, &Expr)> {
        let mut out = Vec::new();
        for (c, cell) in &self.cells {
            if let Cell::Formula(e, _) | Cell::Array(e, _, _) | Cell::Spill(e, _, _) = cell {
                out.push((self.cell(*c), e));
            }
        }
        out.extend(self.names.iter().map(|(n, _, e)| (format!("the name {n}"), e)));
        out
    }

    /// `Main!B2`.
    pub fn cell(&self, c: CellAddr) -> String {
        self.sheets.cell(c)
    }

    /// A name's formula with every reference given a sheet (the anchor's
    /// when it had none): a file's names carry no sheet of their own.
    pub fn name_formula(&self, anchor: CellAddr, expr: &Expr) -> Expr {
        let mut e = expr.clone();
        relative::qualify(&mut e, self.sheets.name(anchor.sheet));
        e
    }
}

/// Calls `f` with the name of every function `e` calls by name (not a
/// call suffix, `LAMBDA(x,x+1)(2)`, nor a call of a LET variable or a
/// LAMBDA parameter holding a function).
pub(crate) fn calls(e: &Expr, f: &mut impl FnMut(&str)) {
    calls_in(e, &mut Vec::new(), f);
}

fn calls_in(e: &Expr, locals: &mut Vec<String>, f: &mut impl FnMut(&str)) {
    match &e.kind {
        ExprKind::Call { name, args } => {
            if !name.is_empty() && !locals.iter().any(|l| l.eq_ignore_ascii_case(name)) {
                f(name);
            }
            // LET's variables and LAMBDA's parameters are in scope after them.
            let scoped = crate::functions::lookup(name)
                .filter(|s| s.is_scoped() || s.intrinsic == Some(crate::functions::Intrinsic::Lambda));
            let len = locals.len();
            for (i, a) in args.iter().enumerate() {
                match (&a.kind, scoped) {
                    (ExprKind::Name(n), Some(s)) if i + 1 < args.len() && (!s.is_scoped() || i % 2 == 0) => {
                        locals.push(n.clone())
                    }
                    _ => calls_in(a, locals, f),
                }
            }
            locals.truncate(len);
        }
        // A trim reference is a TRIMRANGE call.
        ExprKind::Unary { op: UnaryOp::Trim(_), expr } => {
            f(crate::functions::lookup::TRIMRANGE.name);
            calls_in(expr, locals, f)
        }
        ExprKind::Unary { expr, .. } => calls_in(expr, locals, f),
        ExprKind::Binary { lhs, rhs, .. } => {
            calls_in(lhs, locals, f);
            calls_in(rhs, locals, f);
        }
        _ => {}
    }
}

/// A number as a file's value text: shortest exact form, exponent for the
/// very large and very small.
pub(crate) fn number(n: f64) -> String {
    if n == 0.0 || (1e-5..1e15).contains(&n.abs()) { format!("{n}") } else { format!("{n:e}") }
}
