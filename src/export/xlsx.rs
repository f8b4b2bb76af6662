//! The Excel writer: sheets, constants, formulas with their cached results
//! and block array formulas through rust_xlsxwriter; names as Excel stores
//! them (workbook scope, every reference on a sheet, relative to A1 with
//! wrap-around: `relative::to_a1`); functions newer than Excel 2007 with
//! the `_xlfn.` prefix Excel writes (the registry's `FnSpec::xlfn`), LET's
//! variables with `_xlpm.`. Then
//! `<calcPr>` in `xl/workbook.xml` is rewritten with the iteration
//! settings written out in full (`iterate`, `iterateCount`,
//! `iterateDelta`; LibreOffice reads a missing delta as 0.0001, not
//! Excel's 0.001), and `<workbookPr>` says `date1904="1"` for a workbook
//! in the 1904 date system: rust_xlsxwriter has no API for either.

use super::package::{Fix, Fixes, finish};
use super::{Book, Cell, number};
use crate::address::a1;
use crate::ast::{Expr, ExprKind, UnaryOp};
use crate::functions::{self, Arg, FnSpec, Intrinsic};
use crate::value::date::DateSystem;
use crate::value::{ErrorKind, Value};
use crate::workbook::relative;
use rust_xlsxwriter::{Formula, Workbook, Worksheet, XlsxError};

/// The workbook as xlsx bytes.
pub(super) fn write(book: &Book, own: &str) -> Result<Vec<u8>, Vec<String>> {
    let fail = |what: String, e: XlsxError| vec![format!("{what}: {e}")];
    let mut out = Workbook::new();
    for name in book.sheets.iter() {
        let sheet = out.add_worksheet();
        sheet.set_name(name).map_err(|e| fail(format!("the sheet `{name}`"), e))?;
        // An empty text result is written as one, not as rust_xlsxwriter's 0.
        sheet.set_formula_result_default("");
    }
    let mut fixes: Fixes = book.sheets.iter().map(|_| Default::default()).collect();
    for (c, cell) in &book.cells {
        let sheet = out.worksheet_from_index(c.sheet as usize).map_err(|e| fail("a sheet".into(), e))?;
        let (r, col) = (c.row, c.col as u16);
        let (done, fix) = match cell {
            // Other readers (calamine) refuse a `#CALC!` or `#SPILL!` value:
            // the constant is written as a formula, `=#CALC!`.
            Cell::Constant(Value::Error(e @ (ErrorKind::Calc | ErrorKind::Spill))) => {
                (sheet.write_formula(r, col, Formula::new(e.text())).map(|_| ()), result_fix(&Value::Empty))
            }
            Cell::Constant(v) | Cell::InBlock(v) => (constant(sheet, r, col, v), constant_fix(v)),
            Cell::Formula(e, v) => {
                fixes[c.sheet as usize].legacy.insert((c.row, c.col));
                (sheet.write_formula(r, col, formula(e, v)).map(|_| ()), result_fix(v))
            }
            Cell::Array(e, block, v) => (
                sheet
                    .write_array_formula(block.r0, block.c0 as u16, block.r1, block.c1 as u16, formula(e, v))
                    .map(|_| ()),
                result_fix(v),
            ),
            // Marked dynamic in the cell metadata: Excel 365 spills it.
            Cell::Spill(e, area, v) => (
                sheet
                    .write_dynamic_array_formula(area.r0, area.c0 as u16, area.r1, area.c1 as u16, formula(e, v))
                    .map(|_| ()),
                result_fix(v),
            ),
        };
        done.map_err(|e| fail(book.cell(*c), e))?;
        if let Some(fix) = fix {
            fixes[c.sheet as usize].cells.insert(a1(c.row, c.col), fix);
        }
    }
    for (name, anchor, expr) in &book.names {
        let mut e = book.name_formula(*anchor, expr);
        relative::to_a1(&mut e, (anchor.row, anchor.col));
        out.define_name(name, &format!("={}", excel_text(&e))).map_err(|e| fail(format!("the name `{name}`"), e))?;
    }
    let bytes = out.save_to_buffer().map_err(|e| fail("writing the workbook".into(), e))?;
    let c = &book.calc;
    let calc_pr = format!(
        r#" iterate="{}" iterateCount="{}" iterateDelta="{}""#,
        u8::from(c.iterate),
        c.max_iterations,
        number(c.max_change)
    );
    let date1904 = c.date_system == DateSystem::D1904;
    finish(&bytes, &calc_pr, date1904, &fixes, own).map_err(|m| vec![format!("finishing the xlsx package: {m}")])
}

/// A constant (or a cached element of an array formula's block).
fn constant(sheet: &mut Worksheet, r: u32, c: u16, v: &Value) -> Result<(), XlsxError> {
    match v {
        Value::Number(n) => sheet.write_number(r, c, *n).map(|_| ()),
        // "" is a placeholder, typed by `constant_fix`.
        Value::Text(t) if t.is_empty() => sheet.write_number(r, c, 0.0).map(|_| ()),
        Value::Text(t) => sheet.write_string(r, c, t.as_ref()).map(|_| ()),
        Value::Bool(b) => sheet.write_boolean(r, c, *b).map(|_| ()),
        // A placeholder, typed by `constant_fix`.
        Value::Error(_) => sheet.write_number(r, c, 0.0).map(|_| ()),
        Value::Empty | Value::Array(_) | Value::Ref(_) => Ok(()),
    }
}

/// A formula with its cached result (typed by rust_xlsxwriter from its
/// text; `result_fix` says where that text misleads it).
fn formula(e: &Expr, v: &Value) -> Formula {
    let result = match v {
        Value::Number(n) => number(*n),
        Value::Bool(b) => (if *b { "TRUE" } else { "FALSE" }).to_string(),
        Value::Error(e) => e.text().to_string(),
        Value::Text(t) => t.to_string(),
        Value::Empty | Value::Array(_) | Value::Ref(_) => String::new(),
    };
    Formula::new(braced(excel_text(e))).set_result(result)
}

/// rust_xlsxwriter's `Formula::new` takes a leading `{` and a trailing `}`
/// for the formula bar's array braces and drops them, so a formula that
/// starts or ends with an array constant (`{1,2}`, `A1+{1,2}`) is written
/// in parentheses, which keep its braces.
fn braced(text: String) -> String {
    if text.starts_with('{') || text.ends_with('}') { format!("({text})") } else { text }
}

/// A constant written by hand: an error (rust_xlsxwriter has no error
/// constant) or an empty text (it writes none). A `#CALC!`, which
/// calamine cannot read, is left without a value (Excel, and the reader,
/// calculate it again).
fn constant_fix(v: &Value) -> Option<Fix> {
    match v {
        Value::Error(ErrorKind::Calc | ErrorKind::Spill) => Some(Fix { t: None, value: None, inline: false }),
        Value::Error(e) => Some(Fix { t: Some("e"), value: Some(e.text().to_string()), inline: false }),
        Value::Text(t) if t.is_empty() => Some(Fix { t: Some("inlineStr"), value: Some(String::new()), inline: true }),
        _ => None,
    }
}

/// A cached result rust_xlsxwriter would mistype: an error, a formula
/// never calculated (no value), a text that reads as a number, a boolean
/// or an error.
fn result_fix(v: &Value) -> Option<Fix> {
    match v {
        Value::Error(_) => constant_fix(v),
        Value::Empty => Some(Fix { t: None, value: None, inline: false }),
        Value::Text(t) if t.parse::<f64>().is_ok() || matches!(t.as_ref(), "TRUE" | "FALSE") || t.starts_with('#') => {
            Some(Fix { t: Some("str"), value: Some(t.to_string()), inline: false })
        }
        _ => None,
    }
}

/// A formula as Excel stores it: `_xlfn.` before newer functions,
/// `_xlpm.` before LET's variables and LAMBDA's parameters, `_xleta.`
/// before a function passed by its name (`BYROW(A1:C3, SUM)`).
pub(super) fn excel_text(e: &Expr) -> String {
    let mut e = e.clone();
    prefix(&mut e, &[]);
    e.to_string()
}

/// Adds the prefixes; `vars` are the LET variables in scope.
fn prefix(e: &mut Expr, vars: &[String]) {
    if let Some(call) = super::operator_call(e) {
        *e = call;
    }
    match &mut e.kind {
        ExprKind::Name(n) if vars.iter().any(|v| v.eq_ignore_ascii_case(n)) => *n = format!("_xlpm.{n}"),
        ExprKind::Call { name, args } => {
            let spec = functions::lookup(name);
            let is_let = spec.is_some_and(FnSpec::is_scoped);
            // LAMBDA's parameters: every argument but the last.
            let is_lambda = spec.is_some_and(|s| s.intrinsic == Some(Intrinsic::Lambda));
            if let Some(spec) = spec.filter(|s| s.xlfn()) {
                *name = format!("{}{name}", spec.xlsx_prefix());
            } else if vars.iter().any(|v| v.eq_ignore_ascii_case(name)) {
                // A call of a LET variable holding a LAMBDA.
                *name = format!("_xlpm.{name}");
            }
            let mut scope = vars.to_vec();
            let last = args.len().saturating_sub(1);
            for (i, a) in args.iter_mut().enumerate() {
                if is_lambda && i < last {
                    match &mut a.kind {
                        ExprKind::Name(n) => {
                            scope.push(n.clone());
                            *n = format!("_xlpm.{n}");
                        }
                        // An optional parameter, `[x]`.
                        ExprKind::Table(t) => {
                            if let Some((c, _)) = &t.columns {
                                scope.push(c.clone());
                            }
                        }
                        _ => {}
                    }
                } else if let (ExprKind::Name(n), Some(spec)) = (&mut a.kind, spec)
                    && (spec.arg(i) == Arg::Function || functions::lambda::stacks_functions(spec))
                    && !vars.iter().any(|v| v.eq_ignore_ascii_case(n))
                    && functions::lookup(n).is_some()
                {
                    // A function passed by its name.
                    *n = format!("_xleta.{n}");
                } else if is_let && i % 2 == 0 && i < last {
                    if let ExprKind::Name(n) = &mut a.kind {
                        scope.push(n.clone());
                        *n = format!("_xlpm.{n}");
                    }
                } else {
                    prefix(a, if is_let || is_lambda { &scope } else { vars });
                }
            }
        }
        // A trim reference is stored as a call: `_xlfn._TRO_TRAILING(A1:E10)`.
        ExprKind::Unary { op: UnaryOp::Trim(t), expr } => {
            let mut x = std::mem::replace(expr.as_mut(), Expr::new(ExprKind::Missing, 0..0));
            prefix(&mut x, vars);
            let name = format!("_xlfn.{}", t.stored_name());
            e.kind = ExprKind::Call { name, args: vec![x] };
        }
        ExprKind::Unary { expr, .. } => prefix(expr, vars),
        ExprKind::Binary { lhs, rhs, .. } => {
            prefix(lhs, vars);
            prefix(rhs, vars);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_formula;

    #[test]
    fn newer_functions_and_let_variables_get_excels_prefixes() {
        let text = |f: &str| excel_text(&parse_formula(f).unwrap());
        assert_eq!(
            text("LET(x,A1,y,x+1,XLOOKUP(y,B:B,C:C))+x"),
            "_xlfn.LET(_xlpm.x,A1,_xlpm.y,_xlpm.x+1,_xlfn.XLOOKUP(_xlpm.y,B:B,C:C))+x"
        );
        assert_eq!(text("IFNA(SUM(A1),\"LET(x\")"), "_xlfn.IFNA(SUM(A1),\"LET(x\")");
        assert_eq!(
            text("MAP(A1:A3,LAMBDA(v,v*2))+BYROW(A1:B2,SUM)+LAMBDA(x,x+1)(2)"),
            "_xlfn.MAP(A1:A3,_xlfn.LAMBDA(_xlpm.v,_xlpm.v*2))+_xlfn.BYROW(A1:B2,_xleta.SUM)+_xlfn.LAMBDA(_xlpm.x,_xlpm.x+1)(2)"
        );
        assert_eq!(
            text("GROUPBY(A1:A9,B1:B9,HSTACK(SUM,AVERAGE))+HSTACK(x,1)"),
            "_xlfn.GROUPBY(A1:A9,B1:B9,_xlfn.HSTACK(_xleta.SUM,_xleta.AVERAGE))+_xlfn.HSTACK(x,1)"
        );
        assert_eq!(text("LET(f,LAMBDA(x,x+1),f(2))"), "_xlfn.LET(_xlpm.f,_xlfn.LAMBDA(_xlpm.x,_xlpm.x+1),_xlpm.F(2))");
        assert_eq!(
            text("SORT(FILTER(A1:A9,A1:A9>0))+SUM(SORTBY(A1:A9,B1:B9),UNIQUE(A1:A9),TAKE(A1:A9,2))"),
            "_xlfn._xlws.SORT(_xlfn._xlws.FILTER(A1:A9,A1:A9>0))+SUM(_xlfn.SORTBY(A1:A9,B1:B9),_xlfn.UNIQUE(A1:A9),_xlfn.TAKE(A1:A9,2))"
        );
    }
}
