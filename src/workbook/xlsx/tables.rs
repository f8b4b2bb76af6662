//! Excel tables in an xlsx package: each sheet's relationships
//! (`xl/worksheets/_rels/sheetN.xml.rels`) name its table parts
//! (`xl/tables/tableN.xml`), each holding a table's display name (what
//! formulas call it), its range, its header and totals row counts and its
//! column names.

use super::parts::{Zip, attr, part};
use quick_xml::Reader;
use quick_xml::events::Event;
use std::io::{Read, Seek};

/// A table as its part describes it.
#[derive(Debug, PartialEq)]
pub(super) struct RawTable {
    pub name: String,
    /// Its range as written (`A1:C10`).
    pub range: String,
    pub headers: bool,
    pub totals: bool,
    pub columns: Vec<String>,
}

/// The tables of the sheet whose part is `sheet` (`xl/worksheets/sheet1.xml`).
pub(super) fn tables<R: Read + Seek>(zip: &mut Zip<R>, sheet: &str) -> Result<Vec<RawTable>, String> {
    let (dir, file) = sheet.rsplit_once('/').unwrap_or(("", sheet));
    let rels = format!("{dir}/_rels/{file}.rels");
    if zip.by_name(&rels).is_err() {
        return Ok(Vec::new());
    }
    let text = part(zip, &rels)?;
    let mut xml = Reader::from_str(&text);
    let mut targets = Vec::new();
    loop {
        match xml.read_event().map_err(|e| format!("`{rels}` is not readable XML: {e}"))? {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "Relationship" => {
                let kind = attr(&e, "Type")?.unwrap_or_default();
                if let (true, Some(target)) = (kind.ends_with("/table"), attr(&e, "Target")?) {
                    targets.push(resolve(dir, &target));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    targets.iter().map(|t| table(zip, t)).collect()
}

/// A relationship's target, relative to the folder of the part naming it
/// (or absolute from the package's root).
fn resolve(dir: &str, target: &str) -> String {
    if let Some(abs) = target.strip_prefix('/') {
        return abs.to_string();
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for piece in target.split('/') {
        match piece {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            p => parts.push(p),
        }
    }
    parts.join("/")
}

fn table<R: Read + Seek>(zip: &mut Zip<R>, path: &str) -> Result<RawTable, String> {
    read_table(&part(zip, path)?, path)
}

/// A table part's text, read.
fn read_table(text: &str, path: &str) -> Result<RawTable, String> {
    let mut xml = Reader::from_str(text);
    let bad = |e: &dyn std::fmt::Display| format!("`{path}` is not readable XML: {e}");
    let mut t =
        RawTable { name: String::new(), range: String::new(), headers: true, totals: false, columns: Vec::new() };
    let mut root = false;
    loop {
        match xml.read_event().map_err(|e| bad(&e))? {
            // The first only: an extension (`<x14:table altTextSummary=…/>`)
            // has the same local name.
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "table" && !root => {
                root = true;
                let display = attr(&e, "displayName")?;
                t.name = display.or(attr(&e, "name")?).unwrap_or_default();
                t.range = attr(&e, "ref")?.unwrap_or_default();
                t.headers = attr(&e, "headerRowCount")?.is_none_or(|n| n != "0");
                t.totals = attr(&e, "totalsRowCount")?.is_some_and(|n| n != "0");
            }
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "tableColumn" => {
                t.columns.push(decode(&attr(&e, "name")?.unwrap_or_default()));
            }
            Event::Eof => return Ok(t),
            _ => {}
        }
    }
}

/// Excel's escapes in XML attribute text: `_xHHHH_` stands for the
/// character HHHH (a line break in a column name is `_x000a_`).
fn decode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("_x") {
        out.push_str(&rest[..i]);
        let code = rest.get(i + 2..i + 6).filter(|_| rest.get(i + 6..i + 7) == Some("_"));
        match code.and_then(|h| u32::from_str_radix(h, 16).ok()).and_then(char::from_u32) {
            Some(c) => {
                out.push(c);
                rest = &rest[i + 7..];
            }
            None => {
                out.push_str("_x");
                rest = &rest[i + 2..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_resolve_and_escapes_decode() {
        assert_eq!(resolve("xl/worksheets", "../tables/table1.xml"), "xl/tables/table1.xml");
        assert_eq!(resolve("xl/worksheets", "/xl/tables/t.xml"), "xl/tables/t.xml");
        assert_eq!(decode("Line_x000a_two"), "Line\ntwo");
        assert_eq!(decode("a_xb_c"), "a_xb_c");
    }

    #[test]
    fn an_extension_of_the_same_name_leaves_the_table_as_it_is() {
        let text = r#"<table xmlns="m" xmlns:x14="e" name="T1" displayName="Sales" ref="B2:C5">
            <tableColumns count="2"><tableColumn id="1" name="Qty"/><tableColumn id="2" name="Unit_x000a_price"/></tableColumns>
            <extLst><ext><x14:table altTextSummary="about"/></ext></extLst></table>"#;
        let t = read_table(text, "xl/tables/table1.xml").unwrap();
        assert_eq!((t.name.as_str(), t.range.as_str()), ("Sales", "B2:C5"));
        assert_eq!(t.columns, ["Qty", "Unit\nprice"]);
    }
}
