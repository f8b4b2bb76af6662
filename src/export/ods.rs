//! The OpenDocument writer (`.ods`), for LibreOffice: a zip whose first
//! entry is `mimetype`, stored uncompressed, then the manifest, a minimal
//! `styles.xml` and `meta.xml`, and `content.xml` holding the calculation
//! settings (`table:calculation-settings`: Excel's case-insensitive
//! comparison and wildcards, the null date of the 1904 date system, and
//! `table:iteration` with its status, steps and maximum difference), each sheet's cells (formulas as `of:=...` with
//! their cached values, a block array formula on its top-left cell with
//! the block's size) and the named expressions, each with its own base
//! cell (`table:base-cell-address`), which LibreOffice honours: a name is
//! written as dataflow holds it, relative to its anchor. dataflow's own
//! part is `dataflow.xml`, listed in the manifest.

use super::openformula;
use super::{Book, Cell, number};
use crate::address::{CellAddr, col_name};
use crate::value::Value;
use crate::value::date::DateSystem;
use std::fmt::Write as _;
use std::io::{Cursor, Write};
use zip::write::SimpleFileOptions;

const NS: &str = r#"xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.3""#;

/// The workbook as ods bytes.
pub(super) fn write(book: &Book, own: &str, warnings: &mut Vec<String>) -> Result<Vec<u8>, Vec<String>> {
    for (at, e) in book.formulas() {
        super::calls(e, &mut |name| {
            if crate::functions::lookup(name).is_some_and(|f| !f.in_libreoffice) {
                warnings.push(format!("{at} calls {name}, which LibreOffice 7.4 does not have"));
            }
        });
    }
    for (c, cell) in &book.cells {
        if let Cell::Constant(Value::Error(e)) = cell {
            let at = book.cell(*c);
            warnings.push(format!("{at}: the error constant {0} is written as the formula ={0}", e.text()));
        }
        if let Cell::Spill(_, area, _) = cell {
            warnings.push(format!(
                "{}: the dynamic-array formula is written as an array formula over what it spills now ({}); \
                 LibreOffice 7.4 does not spill, so its size stays fixed",
                book.cell(*c),
                book.sheets.area(*area)
            ));
        }
    }
    let files = [
        ("META-INF/manifest.xml", manifest()),
        ("styles.xml", format!(r#"<?xml version="1.0" encoding="UTF-8"?><office:document-styles {NS}/>"#)),
        (
            "meta.xml",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8"?><office:document-meta {NS}><office:meta><meta:generator>dataflow {}</meta:generator></office:meta></office:document-meta>"#,
                env!("CARGO_PKG_VERSION")
            ),
        ),
        ("content.xml", content(book)),
        (OWN_PART, own.to_string()),
    ];
    let fail = |e: &dyn std::fmt::Display| vec![format!("writing the OpenDocument package: {e}")];
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let stored = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("mimetype", stored).map_err(|e| fail(&e))?;
    zip.write_all(b"application/vnd.oasis.opendocument.spreadsheet").map_err(|e| fail(&e))?;
    let deflated = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (path, text) in files {
        zip.start_file(path, deflated).map_err(|e| fail(&e))?;
        zip.write_all(text.as_bytes()).map_err(|e| fail(&e))?;
    }
    Ok(zip.finish().map_err(|e| fail(&e))?.into_inner())
}

/// dataflow's own part (`workbook::write_own`), listed in the manifest;
/// LibreOffice does not read it.
pub(crate) const OWN_PART: &str = "dataflow.xml";

fn manifest() -> String {
    let entry = |path: &str, kind: &str, version: &str| {
        format!(r#"<manifest:file-entry manifest:full-path="{path}"{version} manifest:media-type="{kind}"/>"#)
    };
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">{}{}{}{}{}</manifest:manifest>"#,
        entry("/", "application/vnd.oasis.opendocument.spreadsheet", r#" manifest:version="1.3""#),
        entry("content.xml", "text/xml", ""),
        entry("styles.xml", "text/xml", ""),
        entry("meta.xml", "text/xml", ""),
        entry(OWN_PART, "text/xml", ""),
    )
}

/// The `table:null-date` of a date system: the day serial 0 stands for.
/// The 1904 system's is 1904-01-01. The 1900 system's is left out:
/// OpenDocument's default, 1899-12-30, gives the same serial to every date
/// from 1900-03-01 on (LibreOffice has no 29 February 1900, so its earlier
/// serials name the day after Excel's).
fn null_date(system: DateSystem) -> &'static str {
    match system {
        DateSystem::D1900 => "",
        DateSystem::D1904 => r#"<table:null-date table:date-value="1904-01-01"/>"#,
    }
}

/// `content.xml`.
fn content(book: &Book) -> String {
    let c = &book.calc;
    let mut out = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content {NS}><office:body><office:spreadsheet><table:calculation-settings table:case-sensitive="false" table:search-criteria-must-apply-to-whole-cell="true" table:use-wildcards="true" table:use-regular-expressions="false" table:automatic-find-labels="false">{}<table:iteration table:status="{}" table:steps="{}" table:maximum-difference="{}"/></table:calculation-settings>"#,
        null_date(c.date_system),
        if c.iterate { "enable" } else { "disable" },
        c.max_iterations,
        number(c.max_change)
    );
    for (id, name) in book.sheets.iter().enumerate() {
        let _ = write!(out, r#"<table:table table:name="{}">"#, esc(name));
        sheet(&mut out, book, id as u16);
        out.push_str("</table:table>");
    }
    out.push_str("<table:named-expressions>");
    for (name, anchor, expr) in &book.names {
        let e = book.name_formula(*anchor, expr);
        let base = format!(
            "{}.${}${}",
            openformula::sheet(book.sheets.name(anchor.sheet)),
            col_name(anchor.col),
            anchor.row + 1
        );
        let text = openformula::formula(&e);
        let _ = write!(
            out,
            r#"<table:named-expression table:name="{}" table:base-cell-address="{}" table:expression="{}"/>"#,
            esc(name),
            esc(&base),
            esc(&text)
        );
    }
    out.push_str("</table:named-expressions></office:spreadsheet></office:body></office:document-content>");
    out
}

/// One sheet's rows; empty rows and cells as repeats.
fn sheet(out: &mut String, book: &Book, id: u16) {
    let cells = book.cells.range(CellAddr::new(id, 0, 0)..CellAddr::new(id + 1, 0, 0));
    let mut row = 0u32;
    let mut col = 0u32;
    let mut open = false;
    out.push_str("<table:table-column/>");
    for (c, cell) in cells {
        if !open || c.row != row {
            if open {
                out.push_str("</table:table-row>");
            }
            if c.row > row + u32::from(open) {
                let gap = c.row - row - u32::from(open);
                let _ = write!(
                    out,
                    r#"<table:table-row table:number-rows-repeated="{gap}"><table:table-cell/></table:table-row>"#
                );
            }
            out.push_str("<table:table-row>");
            (row, col, open) = (c.row, 0, true);
        }
        if c.col > col {
            let _ = write!(out, r#"<table:table-cell table:number-columns-repeated="{}"/>"#, c.col - col);
        }
        table_cell(out, cell);
        col = c.col + 1;
    }
    if open {
        out.push_str("</table:table-row>");
    } else {
        out.push_str("<table:table-row><table:table-cell/></table:table-row>");
    }
}

fn table_cell(out: &mut String, cell: &Cell) {
    let (formula, value) = match cell {
        Cell::Constant(Value::Error(e)) => (format!(r#" table:formula="of:={}""#, esc(e.text())), &Value::Error(*e)),
        Cell::Constant(v) | Cell::InBlock(v) => (String::new(), v),
        Cell::Formula(e, v) => (format!(r#" table:formula="{}""#, esc(&openformula::formula(e))), v),
        // LibreOffice reads a spill as an array formula over its area.
        Cell::Array(e, block, v) | Cell::Spill(e, block, v) => (
            format!(
                r#" table:formula="{}" table:number-matrix-columns-spanned="{}" table:number-matrix-rows-spanned="{}""#,
                esc(&openformula::formula(e)),
                block.cols(),
                block.rows()
            ),
            v,
        ),
    };
    let (attrs, shown) = match value {
        Value::Number(n) => (format!(r#" office:value-type="float" office:value="{}""#, number(*n)), number(*n)),
        Value::Bool(b) => {
            let t = if *b { "true" } else { "false" };
            (format!(r#" office:value-type="boolean" office:boolean-value="{t}""#), t.to_uppercase())
        }
        Value::Text(t) => (format!(r#" office:value-type="string" office:string-value="{}""#, esc(t)), t.to_string()),
        Value::Error(e) => (
            r#" office:value-type="string" office:string-value="" calcext:value-type="error""#.to_string(),
            e.text().to_string(),
        ),
        Value::Empty | Value::Array(_) | Value::Ref(_) => (String::new(), String::new()),
    };
    let _ = write!(out, "<table:table-cell{formula}{attrs}>");
    if !shown.is_empty() {
        let _ = write!(out, "<text:p>{}</text:p>", esc(&shown));
    }
    out.push_str("</table:table-cell>");
}

/// Escapes text for XML (attribute values and content).
/// Text for XML content or attributes (one escaping for ods and the xlsx
/// cells `package.rs` rewrites).
pub(super) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            '\r' => out.push_str("&#13;"),
            // XML 1.0 cannot hold the other control characters, even as
            // references: they are written as U+FFFD (docs/compatibility.md).
            c if c < ' ' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}
