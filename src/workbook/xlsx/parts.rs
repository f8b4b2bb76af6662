//! The small pass over the xlsx package's XML for what calamine does not
//! give: from `xl/workbook.xml` the sheets in order (with the part each
//! one's cells are in, through `xl/_rels/workbook.xml.rels`), every
//! `<definedName>` with its `localSheetId` and `hidden` flags, and
//! `<calcPr iterate iterateCount iterateDelta>`, `<workbookPr date1904>`;
//! from a sheet's part, the
//! blocks of its array formulas (`<f t="array" ref="A1:C3">`), which
//! calamine reads as a formula of the top-left cell alone.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use std::collections::HashMap;
use std::io::{Read, Seek};
use zip::ZipArchive;

/// What `xl/workbook.xml` says.
#[derive(Debug, Default)]
pub(super) struct Book {
    /// Sheet names, in order, each with the path of its part in the zip.
    pub sheets: Vec<(String, String)>,
    pub names: Vec<DefinedName>,
    pub calc: CalcPr,
    /// `<workbookPr date1904="1">`: the workbook counts dates from 1904.
    pub date1904: bool,
}

/// One `<definedName>`: its formula as stored (A1-relative, no `=`).
#[derive(Debug)]
pub(super) struct DefinedName {
    pub name: String,
    pub formula: String,
    /// The 0-based sheet it is local to (`localSheetId`), if any.
    pub local_sheet: Option<usize>,
    pub hidden: bool,
}

/// `<calcPr>`'s iteration attributes, as written (absent when missing).
#[derive(Debug, Default)]
pub(in crate::workbook) struct CalcPr {
    pub iterate: bool,
    pub count: Option<String>,
    pub delta: Option<String>,
}

pub(in crate::workbook) type Zip<R> = ZipArchive<R>;

/// The text of one part of the package.
pub(in crate::workbook) fn part<R: Read + Seek>(zip: &mut Zip<R>, path: &str) -> Result<String, String> {
    let file = zip.by_name(path).map_err(|e| format!("the part `{path}` is missing ({e})"))?;
    if file.size() > MAX_PART_BYTES {
        return Err(format!("the part `{path}` unpacks to {} bytes, more than {MAX_PART_BYTES}", file.size()));
    }
    // The size in the zip's directory can lie: read at most one byte more.
    let mut text = String::new();
    file.take(MAX_PART_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("cannot read the part `{path}`: {e}"))?;
    if text.len() as u64 > MAX_PART_BYTES {
        return Err(format!("the part `{path}` unpacks to more than {MAX_PART_BYTES} bytes"));
    }
    Ok(text)
}

/// The largest part of a package read as text (`xl/workbook.xml`, a
/// sheet's XML when it holds array formulas): 256 MiB, so a zip bomb is
/// refused instead of filling memory.
pub const MAX_PART_BYTES: u64 = 256 << 20;

/// An array formula as a sheet part stores it: its cell, its block (the
/// `ref`), and the cell's metadata index (`cm`), which marks a dynamic
/// array (see `metadata`).
pub(super) struct ArrayBlock {
    pub cell: String,
    pub block: String,
    pub cm: Option<usize>,
}

/// The value of attribute `key` (any namespace prefix), unescaped.
pub(in crate::workbook) fn attr(e: &BytesStart<'_>, key: &str) -> Result<Option<String>, String> {
    for a in e.attributes() {
        let a = a.map_err(|e| e.to_string())?;
        if a.key.local_name().as_ref() == key {
            let v = a.normalized_value(quick_xml::XmlVersion::Implicit1_0).map_err(|e| e.to_string())?;
            return Ok(Some(v.into_owned()));
        }
    }
    Ok(None)
}

fn is_true(v: Option<&str>) -> bool {
    matches!(v, Some("1" | "true"))
}

/// Reads `xl/workbook.xml` and the relationships naming each sheet's part.
pub(super) fn book<R: Read + Seek>(zip: &mut Zip<R>) -> Result<Book, String> {
    let targets = relationships(&part(zip, "xl/_rels/workbook.xml.rels")?)?;
    let text = part(zip, "xl/workbook.xml")?;
    let bad = |e: &dyn std::fmt::Display| format!("`xl/workbook.xml` is not readable XML: {e}");
    let mut xml = Reader::from_str(&text);
    let mut book = Book::default();
    let mut open_name: Option<DefinedName> = None;
    loop {
        match xml.read_event().map_err(|e| bad(&e))? {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "sheet" => {
                let name = attr(&e, "name").map_err(|e| bad(&e))?.unwrap_or_default();
                let id = attr(&e, "id").map_err(|e| bad(&e))?.unwrap_or_default();
                let target =
                    targets.get(&id).ok_or_else(|| format!("the sheet `{name}` has no part (relationship `{id}`)"))?;
                let path = match target.strip_prefix('/') {
                    Some(abs) => abs.to_string(),
                    None => format!("xl/{target}"),
                };
                book.sheets.push((name, path));
            }
            Event::Start(e) if e.local_name().as_ref() == "definedName" => {
                let local = attr(&e, "localSheetId").map_err(|e| bad(&e))?;
                open_name = Some(DefinedName {
                    name: attr(&e, "name").map_err(|e| bad(&e))?.unwrap_or_default(),
                    formula: String::new(),
                    local_sheet: local.and_then(|l| l.parse().ok()),
                    hidden: is_true(attr(&e, "hidden").map_err(|e| bad(&e))?.as_deref()),
                });
            }
            Event::Text(t) => {
                if let Some(n) = &mut open_name {
                    n.formula.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) => {
                if let Some(n) = &mut open_name {
                    let entity = r.xml10_content();
                    match quick_xml::escape::resolve_predefined_entity(&entity) {
                        Some(s) => n.formula.push_str(s),
                        None => n.formula.extend(r.resolve_char_ref().map_err(|e| bad(&e))?),
                    }
                }
            }
            Event::End(e) if e.local_name().as_ref() == "definedName" => book.names.extend(open_name.take()),
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "workbookPr" => {
                book.date1904 = is_true(attr(&e, "date1904").map_err(|e| bad(&e))?.as_deref());
            }
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "calcPr" => {
                book.calc = CalcPr {
                    iterate: is_true(attr(&e, "iterate").map_err(|e| bad(&e))?.as_deref()),
                    count: attr(&e, "iterateCount").map_err(|e| bad(&e))?,
                    delta: attr(&e, "iterateDelta").map_err(|e| bad(&e))?,
                };
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(book)
}

/// Relationship id -> target, from a `.rels` part.
fn relationships(text: &str) -> Result<HashMap<String, String>, String> {
    let mut xml = Reader::from_str(text);
    let mut map = HashMap::new();
    loop {
        match xml.read_event().map_err(|e| format!("`xl/_rels/workbook.xml.rels` is not readable XML: {e}"))? {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "Relationship" => {
                if let (Some(id), Some(target)) = (attr(&e, "Id")?, attr(&e, "Target")?) {
                    map.insert(id, target);
                }
            }
            Event::Eof => return Ok(map),
            _ => {}
        }
    }
}

/// The array formulas of a sheet's part: (the cell holding the formula, the
/// block it is entered over), both as written (`A1`, `A1:C3`).
pub(super) fn array_blocks<R: Read + Seek>(zip: &mut Zip<R>, path: &str) -> Result<Vec<ArrayBlock>, String> {
    let text = part(zip, path)?;
    let mut xml = Reader::from_str(&text);
    let (mut cell, mut cm) = (String::new(), None);
    let mut blocks = Vec::new();
    loop {
        match xml.read_event().map_err(|e| format!("`{path}` is not readable XML: {e}"))? {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == "c" => {
                cell = attr(&e, "r")?.unwrap_or_default();
                cm = attr(&e, "cm")?.and_then(|k| k.parse().ok());
            }
            Event::Start(e) | Event::Empty(e)
                if e.local_name().as_ref() == "f" && attr(&e, "t")?.as_deref() == Some("array") =>
            {
                let block = attr(&e, "ref")?.unwrap_or_else(|| cell.clone());
                blocks.push(ArrayBlock { cell: cell.clone(), block, cm });
            }
            Event::Eof => return Ok(blocks),
            _ => {}
        }
    }
}
