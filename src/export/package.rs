//! The xlsx package as rust_xlsxwriter wrote it, finished by hand where it
//! has no API: `<calcPr>` in `xl/workbook.xml` gets the iteration settings
//! written out in full (`iterate`, `iterateCount`, `iterateDelta`;
//! LibreOffice reads a missing delta as 0.0001, not Excel's 0.001),
//! `<workbookPr>` gets `date1904="1"` for a workbook in the 1904 date
//! system, and
//! the cells whose cached value rust_xlsxwriter cannot type are rewritten
//! in their sheet's part: an error constant (`t="e"`), a formula never
//! calculated (no `<v>`), a text result that reads as a number, a boolean
//! or an error (`t="str"`); a plain formula rust_xlsxwriter wrote as a
//! dynamic array (it calls SEQUENCE, FILTER, ...) loses that mark, as the
//! workbook entered it. dataflow's own part is added as a custom XML
//! part (`customXml/item1.xml`, with its properties and relationships,
//! referenced from the workbook as Excel references its own). Every other
//! part is copied as it is.

use super::ods::esc;
use crate::address::parse_a1;
use std::collections::{HashMap, HashSet};
use std::io::{Cursor, Read, Write};

/// What a cell's `<c>` becomes: its type attribute, and what follows the
/// `<f>` it had (`<v>` with the value escaped, `<is>` for an inline text).
pub(super) struct Fix {
    pub t: Option<&'static str>,
    pub value: Option<String>,
    pub inline: bool,
}

/// Per sheet (0-based), the cells to rewrite.
pub(super) type Fixes = Vec<SheetFixes>;

/// One sheet's cells to rewrite: cached values by their `A1` reference,
/// and the (row, column) of its plain (legacy) formulas, which
/// rust_xlsxwriter writes as dynamic arrays when they call a function it
/// counts as one (SEQUENCE, FILTER, ...): those lose the dynamic mark.
#[derive(Default)]
pub(super) struct SheetFixes {
    pub cells: HashMap<String, Fix>,
    pub legacy: HashSet<(u32, u32)>,
}

/// The package with `calc_pr` (attributes) put into `<calcPr>`,
/// `date1904="1"` into `<workbookPr>` when the workbook counts dates from
/// 1904, and the cells of `fixes` rewritten.
pub(super) fn finish(bytes: &[u8], calc_pr: &str, date1904: bool, fixes: &Fixes, own: &str) -> Result<Vec<u8>, String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| err(&e))?;
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for i in 0..zip.len() {
        let name = zip.by_index_raw(i).map_err(|e| err(&e))?.name().map_err(|e| err(&e))?.to_string();
        let sheet = name
            .strip_prefix("xl/worksheets/sheet")
            .and_then(|n| n.strip_suffix(".xml"))
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|n| fixes.get(n.checked_sub(1)?))
            .filter(|f| !f.cells.is_empty() || !f.legacy.is_empty());
        if let Some(text) = own_references(&name, &mut zip, i)? {
            out.start_file(name, options).map_err(|e| err(&e))?;
            out.write_all(text.as_bytes()).map_err(|e| err(&e))?;
            continue;
        }
        if name != "xl/workbook.xml" && sheet.is_none() {
            out.raw_copy_file(zip.by_index_raw(i).map_err(|e| err(&e))?).map_err(|e| err(&e))?;
            continue;
        }
        let mut text = String::new();
        zip.by_index(i).map_err(|e| err(&e))?.read_to_string(&mut text).map_err(|e| err(&e))?;
        let text = match sheet {
            Some(fixes) => fix_cells(&text, fixes),
            None => {
                let text = match text.find("<calcPr") {
                    Some(at) => format!("{}<calcPr{calc_pr}{}", &text[..at], &text[at + "<calcPr".len()..]),
                    None => text.replace("</workbook>", &format!("<calcPr{calc_pr}/></workbook>")),
                };
                if date1904 { with_date1904(&text) } else { text }
            }
        };
        out.start_file(name, options).map_err(|e| err(&e))?;
        out.write_all(text.as_bytes()).map_err(|e| err(&e))?;
    }
    for (path, text) in [(OWN_ITEM, own), (OWN_PROPS, &own_props()), (OWN_RELS, OWN_RELS_XML)] {
        out.start_file(path, options).map_err(|e| err(&e))?;
        out.write_all(text.as_bytes()).map_err(|e| err(&e))?;
    }
    Ok(out.finish().map_err(|e| err(&e))?.into_inner())
}

/// dataflow's own part, as a custom XML part of the workbook (Excel keeps
/// those it does not read), with its properties and their relationship.
const OWN_ITEM: &str = "customXml/item1.xml";
const OWN_PROPS: &str = "customXml/itemProps1.xml";
const OWN_RELS: &str = "customXml/_rels/item1.xml.rels";
const OWN_RELS_XML: &str = concat!(
    r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
    r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
    r#"<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXmlProps" Target="itemProps1.xml"/>"#,
    r#"</Relationships>"#
);

/// The part's properties: its data store id and the namespace it holds.
fn own_props() -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?><ds:datastoreItem ds:itemID="{{6D1E8A7C-5B0F-4C3E-9A2D-DA7AF10E0001}}" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"><ds:schemaRefs><ds:schemaRef ds:uri="{}"/></ds:schemaRefs></ds:datastoreItem>"#,
        crate::workbook::ron::own::NAMESPACE
    )
}

/// `[Content_Types].xml` with the properties' type, and the workbook's
/// relationships with one to the custom XML part; `None` for other parts.
fn own_references<R: Read + std::io::Seek>(
    name: &str,
    zip: &mut zip::ZipArchive<R>,
    i: usize,
) -> Result<Option<String>, String> {
    let (marker, added) = match name {
        "[Content_Types].xml" => (
            "</Types>",
            format!(
                r#"<Override PartName="/{OWN_PROPS}" ContentType="application/vnd.openxmlformats-officedocument.customXmlProperties+xml"/>"#
            ),
        ),
        "xl/_rels/workbook.xml.rels" => (
            "</Relationships>",
            format!(
                r#"<Relationship Id="rIdDataflow1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml" Target="../{OWN_ITEM}"/>"#
            ),
        ),
        _ => return Ok(None),
    };
    let mut text = String::new();
    zip.by_index(i).map_err(|e| e.to_string())?.read_to_string(&mut text).map_err(|e| e.to_string())?;
    match text.rfind(marker) {
        Some(at) => Ok(Some(format!("{}{added}{}", &text[..at], &text[at..]))),
        None => Err(format!("`{name}` has no `{marker}`")),
    }
}

/// `xl/workbook.xml` saying `date1904="1"` in its `<workbookPr>` (made
/// before `<bookViews>`, where the schema puts it, when there is none).
fn with_date1904(text: &str) -> String {
    match text.find("<workbookPr") {
        Some(at) => format!("{}<workbookPr date1904=\"1\"{}", &text[..at], &text[at + "<workbookPr".len()..]),
        None => match text.find("<bookViews") {
            Some(at) => format!("{}<workbookPr date1904=\"1\"/>{}", &text[..at], &text[at..]),
            None => text.to_string(),
        },
    }
}

/// A sheet's part with the `<c>` elements of `fixes` rewritten, in one
/// pass: cached values typed, and plain formulas written as dynamic
/// arrays made plain again (no `cm` mark, `<f>` without `t="array"`).
fn fix_cells(text: &str, fixes: &SheetFixes) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("<c r=\"") {
        out.push_str(&rest[..at]);
        let cell = &rest[at..];
        let r_end = cell[6..].find('"').map_or(6, |i| 6 + i);
        let open_end = cell.find('>').map_or(cell.len(), |i| i + 1);
        let end =
            if cell[..open_end].ends_with("/>") { open_end } else { cell.find("</c>").map_or(cell.len(), |i| i + 4) };
        let (element, after) = cell.split_at(end);
        let open = &cell[..open_end];
        let cm = cm_of(open);
        let legacy = !cm.is_empty() && parse_a1(&cell[6..r_end]).is_some_and(|rc| fixes.legacy.contains(&rc));
        let written = element.find("<f").map_or("", |s| &element[s..element.find("</f>").map_or(s, |e| e + 4)]);
        let plain;
        let (cm, f) = match legacy {
            true => {
                plain = written.find('>').map_or(String::new(), |gt| format!("<f>{}", &written[gt + 1..]));
                ("", plain.as_str())
            }
            // The mark of a dynamic-array formula stays (Excel spills it).
            false => (cm, written),
        };
        match fixes.cells.get(&cell[6..r_end]) {
            Some(fix) => {
                let t = fix.t.map_or(String::new(), |t| format!(" t=\"{t}\""));
                let v = match &fix.value {
                    Some(v) if fix.inline => format!("<is><t>{}</t></is>", esc(v)),
                    Some(v) => format!("<v>{}</v>", esc(v)),
                    None => String::new(),
                };
                out.push_str(&format!("<c r=\"{}\"{cm}{t}>{f}{v}</c>", &cell[6..r_end]));
            }
            // The element as written, its mark dropped and its `<f>` plain.
            None if legacy => out.push_str(&element.replacen(written, f, 1).replacen(cm_of(open), "", 1)),
            None => out.push_str(element),
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The ` cm="…"` attribute of an opening tag (empty without one).
fn cm_of(open: &str) -> &str {
    open.find(" cm=\"").map_or("", |s| &open[s..open[s + 5..].find('"').map_or(s, |e| s + 6 + e)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_in_xml_holds_no_control_character() {
        assert_eq!(esc("a<b&\"c\"\t\n\r\u{1}\u{1f}é"), "a&lt;b&amp;&quot;c&quot;&#9;&#10;&#13;\u{FFFD}\u{FFFD}é");
    }

    #[test]
    fn only_the_fixed_cells_change() {
        let sheet =
            r#"<row r="1"><c r="A1"><v>0</v></c><c r="B1" t="str"><f>C1</f><v>5</v></c><c r="C1" s="1"/></row>"#;
        let cells = HashMap::from([
            ("A1".to_string(), Fix { t: Some("e"), value: Some("#N/A".into()), inline: false }),
            ("B1".to_string(), Fix { t: None, value: None, inline: false }),
        ]);
        let fixes = SheetFixes { cells, legacy: HashSet::new() };
        assert_eq!(
            fix_cells(sheet, &fixes),
            r#"<row r="1"><c r="A1" t="e"><v>#N/A</v></c><c r="B1"><f>C1</f></c><c r="C1" s="1"/></row>"#
        );
    }

    #[test]
    fn a_plain_formula_written_as_a_dynamic_array_loses_the_mark() {
        let sheet = concat!(
            r#"<row r="1"><c r="A1" cm="1"><f t="array" ref="A1">_xlfn.SEQUENCE(2)</f><v>1</v></c>"#,
            r#"<c r="B1" cm="1"><f t="array" ref="B1:B2">_xlfn.SEQUENCE(2)</f><v>1</v></c></row>"#
        );
        // A1 is plain (legacy); B1 is a dynamic-array formula and keeps it.
        let fixes = SheetFixes { cells: HashMap::new(), legacy: HashSet::from([(0, 0)]) };
        assert_eq!(
            fix_cells(sheet, &fixes),
            concat!(
                r#"<row r="1"><c r="A1"><f>_xlfn.SEQUENCE(2)</f><v>1</v></c>"#,
                r#"<c r="B1" cm="1"><f t="array" ref="B1:B2">_xlfn.SEQUENCE(2)</f><v>1</v></c></row>"#
            )
        );
    }
}
