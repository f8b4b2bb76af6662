//! What a spreadsheet file (xlsx, ods) holds, laid out as text: one line
//! per cell or name (`Main!B2: =A1+1`, `Main!C1:E3: {=...}`, `name left @
//! Main!B1: =Main!A1`), each formula in Excel's syntax. The formulas are
//! parsed with dataflow's parser and problems reported at their line of
//! the listing, under the file's path; the listing is also the source a
//! saved state's fingerprint is taken from. [`Listing::build`] makes the
//! workbook, with dataflow's own part of the file (inputs, views, reset
//! protocol, parts: `ron::own`) when the file holds one.

use super::builder::Builder;
use super::model::*;
use super::relative;
use crate::LoadError;
use crate::address::{Area, CellAddr};
use crate::ast::{Expr, ExprKind, Span};
use crate::diagnostic::{Diagnostic, Source};
use crate::parse::parse_formula;
use crate::sheets::Sheets;
use crate::value::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How a formula was entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FormulaKind {
    /// A plain (legacy) formula.
    Plain,
    /// An array formula over a block (Ctrl+Shift+Enter).
    Block,
    /// An Excel 365 dynamic-array formula, which spills.
    Dynamic,
}

/// What was read, laid out one line per entry, with where each formula's
/// text sits in that text.
#[derive(Default)]
pub(super) struct Listing {
    text: String,
    items: Vec<Item>,
    /// The sheet prefix (`Main!`) of the last constant's sheet, written
    /// once per sheet rather than once per constant.
    prefix: Option<(u16, String)>,
}

struct Item {
    /// The whole line, for messages about the entry.
    line: Span,
    /// Where the formula's text starts.
    at: usize,
    kind: Kind,
}

/// An entry: constants inline (an Excel data sheet lists millions), the
/// rarer formulas and names boxed, so a constant's item stays small.
enum Kind {
    Constant(CellAddr, Value),
    Formula(Box<(Area, String, FormulaKind)>),
    Name(Box<NameItem>),
}

struct NameItem {
    name: String,
    anchor: CellAddr,
    text: String,
    hidden: bool,
    /// Excel's text when it could not be parsed (the name is `#REF!`).
    unread: Option<String>,
}

/// `_xlfn.ANCHORARRAY(A1)` and `_xlfn.SINGLE(x)` as the operators Excel
/// shows them, `A1#` and `@x`: what dataflow writes back as those calls.
fn operators(mut e: Expr) -> Expr {
    use crate::ast::UnaryOp;
    let operator = |name: &str| {
        [UnaryOp::Spill, UnaryOp::At]
            .into_iter()
            .find(|&op| crate::functions::operator(op).is_some_and(|f| f.name.eq_ignore_ascii_case(name)))
    };
    e.kind = match e.kind {
        ExprKind::Call { name, mut args } => match operator(&name) {
            Some(op) if args.len() == 1 => {
                let arg = operators(args.remove(0));
                ExprKind::Unary { op, expr: Box::new(arg) }
            }
            _ => ExprKind::Call { name, args: args.into_iter().map(operators).collect() },
        },
        ExprKind::Unary { op, expr } => ExprKind::Unary { op, expr: Box::new(operators(*expr)) },
        ExprKind::Binary { op, lhs, rhs } => {
            ExprKind::Binary { op, lhs: Box::new(operators(*lhs)), rhs: Box::new(operators(*rhs)) }
        }
        kind => kind,
    };
    e
}

impl Listing {
    fn push(&mut self, head: String, text: &str, tail: &str, kind: Kind) {
        let start = self.text.len();
        self.text.push_str(&head);
        let at = self.text.len();
        self.text.push_str(text);
        self.text.push_str(tail);
        self.items.push(Item { line: start..self.text.len(), at, kind });
        self.text.push('\n');
    }

    /// A constant's line, `Main!B2: 5` (text quoted as in a formula),
    /// written straight into the text: an Excel data sheet lists millions.
    pub fn constant(&mut self, sheets: &Sheets, c: CellAddr, v: Value) {
        use std::fmt::Write;
        let prefix = match self.prefix.take() {
            Some((sheet, p)) if sheet == c.sheet => p,
            _ => crate::parse::sheet_prefix(sheets.name(c.sheet)),
        };
        let start = self.text.len();
        // Writing into a String cannot fail.
        let _ = write!(self.text, "{prefix}{}: ", Area::cell(c));
        let at = self.text.len();
        let _ = match &v {
            Value::Text(t) => write!(self.text, "\"{}\"", t.replace('"', "\"\"")),
            v => write!(self.text, "{v}"),
        };
        self.items.push(Item { line: start..self.text.len(), at, kind: Kind::Constant(c, v) });
        self.text.push('\n');
        self.prefix = Some((c.sheet, prefix));
    }

    pub fn formula(&mut self, sheets: &Sheets, area: Area, text: &str, kind: FormulaKind) {
        let (head, tail) = if kind == FormulaKind::Block { ("{=", "}") } else { ("=", "") };
        let kind = Kind::Formula(Box::new((area, text.to_string(), kind)));
        self.push(format!("{}: {head}", sheets.area(area)), text, tail, kind);
    }

    /// A name, with its formula in Excel's syntax as the file stores it:
    /// relative to `base` (a cell of sheet `sheet`), or, without one,
    /// relative to A1 with wrap-around and rebased (see `relative::rebase`).
    /// A formula that does not parse is listed as stored, to be reported
    /// where it is.
    pub fn name(
        &mut self,
        sheets: &Sheets,
        name: &str,
        stored: &str,
        sheet: u16,
        base: Option<(u32, u32)>,
        hidden: bool,
    ) {
        // A definition dataflow cannot read (`Sheet1!#REF!` left by a
        // deleted range, `[1]Sheet1!$A$1` into another file) does not stop
        // the workbook: the name is `#REF!`, an error only where it is used.
        let (anchor, text, unread) = match parse_formula(stored) {
            Ok(mut e) => {
                let (row, col) = match base {
                    Some(at) => at,
                    None => relative::rebase(&mut e),
                };
                (CellAddr::new(sheet, row, col), e.to_string(), None)
            }
            Err(_) => (CellAddr::new(sheet, 0, 0), "#REF!".to_string(), Some(stored.to_string())),
        };
        let head = format!("name {name} @ {}: =", sheets.cell(anchor));
        let kind =
            Kind::Name(Box::new(NameItem { name: name.to_string(), anchor, text: text.clone(), hidden, unread }));
        self.push(head, &text, "", kind);
    }

    /// Parses every formula and builds the workbook, or reports every problem.
    /// `own`: the text of dataflow's own part of the file and the path
    /// its problems are shown under (see `ron::own`).
    pub fn build(
        self,
        path: &Path,
        sheets: Sheets,
        diags: Vec<Diagnostic>,
        calc: CalcSettings,
        own: Option<(String, PathBuf)>,
    ) -> Result<Workbook, LoadError> {
        let src: Arc<Source> = Source::new(path, self.text);
        let mut b = Builder::new(&src);
        b.sheets = sheets;
        // An Excel file loads as Excel loads it: what dataflow cannot read
        // is a warning, its cells show #NAME?.
        b.excel_errors = true;
        b.warnings = diags;
        for item in self.items {
            match item.kind {
                Kind::Constant(c, v) => {
                    b.add_cells(&src, item.line, CellEntry::new(Area::cell(c), Content::Constant(v)))
                }
                Kind::Formula(formula) => {
                    let (area, text, kind) = *formula;
                    if let Some(f) = b.formula(&src, item.at, &text, &|s| format!("cell {}", s.area(area))) {
                        let f = Box::new(Formula { expr: Arc::new(operators(Arc::unwrap_or_clone(f.expr))), ..f });
                        let content = match kind {
                            FormulaKind::Block => Content::Array(f),
                            FormulaKind::Dynamic => Content::Dynamic(f),
                            FormulaKind::Plain => Content::Formula(f),
                        };
                        b.add_cells(&src, item.line, CellEntry::new(area, content));
                    }
                }
                Kind::Name(named) => {
                    let NameItem { name, anchor, text, hidden, unread } = *named;
                    let formula = b.formula(&src, item.at, &text, &|_| format!("name `{name}`"));
                    let unread = unread.map(|t| format!("Excel's definition `{t}` cannot be read: #REF! here"));
                    let hidden = hidden.then(|| "hidden in Excel".to_string());
                    let comment = match (hidden, unread) {
                        (Some(h), Some(u)) => Some(format!("{h}; {u}")),
                        (h, u) => h.or(u),
                    };
                    let def = formula.map(|formula| Name { name: name.clone(), anchor, formula, comment });
                    b.add_name(&src, item.line, def, &name);
                }
            }
        }
        b.names_read();
        match own {
            Some((text, shown)) => {
                let own = super::ron::own::read(&mut b, &text, &shown);
                let calc = calc.with_seed(own.seed.or(calc.seed));
                let mut wb = b.finish(calc, own.inputs, own.views, own.reset, own.parts)?;
                wb.bundle = own.bundle.map(std::sync::Arc::new);
                Ok(wb)
            }
            None => b.finish(calc, Vec::new(), Vec::new(), None, Vec::new()),
        }
    }
}
