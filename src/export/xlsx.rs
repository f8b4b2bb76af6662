//! The Excel writer: sheets, constants, formulas with their cached results
//! and block array formulas through rust_xlsxwriter; names as Excel stores
//! them (workbook scope, every reference on a sheet, relative to A1 with
//! wrap-around: `relative::to_a1`); functions newer than Excel 2010 with
//! the `_xlfn.` prefix Excel writes, LET's variables with `_xlpm.`. Then
//! `<calcPr>` in `xl/workbook.xml` is rewritten with the iteration
//! settings written out in full (`iterate`, `iterateCount`,
//! `iterateDelta`; LibreOffice reads a missing delta as 0.0001, not
//! Excel's 0.001), which rust_xlsxwriter has no API for.

use super::{Book, Cell, number};
use crate::ast::{Expr, ExprKind};
use crate::value::Value;
use crate::workbook::relative;
use rust_xlsxwriter::{Formula, Workbook, Worksheet, XlsxError};
use std::io::{Cursor, Read, Write};

/// The functions of dataflow's registry that Excel stores as `_xlfn.NAME`.
const PREFIXED: [&str; 17] = [
    "BASE",
    "CONCAT",
    "DECIMAL",
    "IFNA",
    "IFS",
    "LET",
    "MAXIFS",
    "MINIFS",
    "NUMBERVALUE",
    "SEQUENCE",
    "SWITCH",
    "TEXTJOIN",
    "UNICHAR",
    "UNICODE",
    "XLOOKUP",
    "XMATCH",
    "XOR",
];

/// The workbook as xlsx bytes.
pub(super) fn write(book: &Book, warnings: &mut Vec<String>) -> Result<Vec<u8>, Vec<String>> {
    let fail = |what: String, e: XlsxError| vec![format!("{what}: {e}")];
    let mut out = Workbook::new();
    for name in book.sheets.iter() {
        let sheet = out.add_worksheet();
        sheet.set_name(name).map_err(|e| fail(format!("the sheet `{name}`"), e))?;
        // An empty text result is written as one, not as rust_xlsxwriter's 0.
        sheet.set_formula_result_default("");
    }
    for (c, cell) in &book.cells {
        let sheet = out.worksheet_from_index(c.sheet as usize).map_err(|e| fail("a sheet".into(), e))?;
        let (r, col) = (c.row, c.col as u16);
        let at = || book.cell(*c);
        let done = match cell {
            Cell::Constant(v) | Cell::InBlock(v) => constant(sheet, r, col, v, &at, warnings),
            Cell::Formula(e, v) => sheet.write_formula(r, col, formula(e, v, &at, warnings)).map(|_| ()),
            Cell::Array(e, block, v) => sheet
                .write_array_formula(block.r0, block.c0 as u16, block.r1, block.c1 as u16, formula(e, v, &at, warnings))
                .map(|_| ()),
        };
        done.map_err(|e| fail(at(), e))?;
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
    with_calc_pr(&bytes, &calc_pr).map_err(|m| vec![format!("rewriting xl/workbook.xml: {m}")])
}

/// A constant (or a cached element of an array formula's block).
fn constant(
    sheet: &mut Worksheet,
    r: u32,
    c: u16,
    v: &Value,
    at: &dyn Fn() -> String,
    warnings: &mut Vec<String>,
) -> Result<(), XlsxError> {
    match v {
        Value::Number(n) => sheet.write_number(r, c, *n).map(|_| ()),
        Value::Text(t) => sheet.write_string(r, c, t.as_ref()).map(|_| ()),
        Value::Bool(b) => sheet.write_boolean(r, c, *b).map(|_| ()),
        Value::Error(e) => {
            warnings.push(format!("{}: the error constant {} is written as the formula ={}", at(), e.text(), e.text()));
            sheet.write_formula(r, c, Formula::new(e.text()).set_result(e.text())).map(|_| ())
        }
        Value::Empty | Value::Array(_) | Value::Ref(_) => Ok(()),
    }
}

/// A formula with its cached result.
fn formula(e: &Expr, v: &Value, at: &dyn Fn() -> String, warnings: &mut Vec<String>) -> Formula {
    let result = match v {
        Value::Number(n) => number(*n),
        Value::Bool(b) => (if *b { "TRUE" } else { "FALSE" }).to_string(),
        Value::Error(e) => e.text().to_string(),
        Value::Text(t) => {
            // rust_xlsxwriter types a result by its text.
            let looks = t.parse::<f64>().is_ok() || matches!(t.as_ref(), "TRUE" | "FALSE") || t.starts_with('#');
            if looks {
                warnings.push(format!("{}: the cached text result \"{t}\" is stored as a number or an error", at()));
            }
            t.to_string()
        }
        Value::Empty | Value::Array(_) | Value::Ref(_) => String::new(),
    };
    Formula::new(excel_text(e)).set_result(result)
}

/// A formula as Excel stores it: `_xlfn.` before newer functions and
/// `_xlpm.` before LET's variables.
pub(super) fn excel_text(e: &Expr) -> String {
    let mut e = e.clone();
    prefix(&mut e, &[]);
    e.to_string()
}

/// Adds the prefixes; `vars` are the LET variables in scope.
fn prefix(e: &mut Expr, vars: &[String]) {
    match &mut e.kind {
        ExprKind::Name(n) if vars.iter().any(|v| v.eq_ignore_ascii_case(n)) => *n = format!("_xlpm.{n}"),
        ExprKind::Call { name, args } => {
            let is_let = name == "LET";
            if PREFIXED.contains(&name.as_str()) {
                *name = format!("_xlfn.{name}");
            }
            let mut scope = vars.to_vec();
            let last = args.len().saturating_sub(1);
            for (i, a) in args.iter_mut().enumerate() {
                if is_let && i % 2 == 0 && i < last {
                    if let ExprKind::Name(n) = &mut a.kind {
                        scope.push(n.clone());
                        *n = format!("_xlpm.{n}");
                    }
                } else {
                    prefix(a, if is_let { &scope } else { vars });
                }
            }
        }
        ExprKind::Unary { expr, .. } => prefix(expr, vars),
        ExprKind::Binary { lhs, rhs, .. } => {
            prefix(lhs, vars);
            prefix(rhs, vars);
        }
        _ => {}
    }
}

/// The package with `attrs` added to `<calcPr>` (or a `<calcPr>` holding
/// them added) in `xl/workbook.xml`; every other part copied as it is.
fn with_calc_pr(bytes: &[u8], attrs: &str) -> Result<Vec<u8>, String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| err(&e))?;
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for i in 0..zip.len() {
        let name = zip.by_index_raw(i).map_err(|e| err(&e))?.name().map_err(|e| err(&e))?.to_string();
        if name == "xl/workbook.xml" {
            let mut text = String::new();
            zip.by_index(i).map_err(|e| err(&e))?.read_to_string(&mut text).map_err(|e| err(&e))?;
            let text = match text.find("<calcPr") {
                Some(at) => format!("{}<calcPr{attrs}{}", &text[..at], &text[at + "<calcPr".len()..]),
                None => text.replace("</workbook>", &format!("<calcPr{attrs}/></workbook>")),
            };
            let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
            out.start_file("xl/workbook.xml", options).map_err(|e| err(&e))?;
            out.write_all(text.as_bytes()).map_err(|e| err(&e))?;
        } else {
            out.raw_copy_file(zip.by_index_raw(i).map_err(|e| err(&e))?).map_err(|e| err(&e))?;
        }
    }
    Ok(out.finish().map_err(|e| err(&e))?.into_inner())
}
