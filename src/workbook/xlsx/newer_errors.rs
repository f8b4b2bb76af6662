//! Error values newer than the xlsx reading crate (calamine) knows —
//! Excel 365's `#SPILL!`, `#CALC!`, `#BLOCKED!`, `#CONNECT!`, `#FIELD!`,
//! `#UNKNOWN!`, `#BUSY!`, `#PYTHON!`, `#EXTERNAL!` — make it refuse a whole
//! sheet when a cell caches one. Before it reads the package, each sheet
//! part holding one as a cell's value (`<c t="e"><v>#SPILL!</v>`) is
//! rewritten with `#N/A` there, the other parts copied as they are, and
//! the true errors are returned by cell, to be put back: `#CALC!` and
//! `#SPILL!` as themselves, the rest (what an external connection or
//! Python would answer) as `#N/A`. A package without them is not touched.

use super::parts::{Zip, attr, part};
use crate::address::{CellAddr, parse_a1};
use crate::value::ErrorKind;
use quick_xml::Reader;
use quick_xml::Writer;
use quick_xml::events::{BytesText, Event};
use std::io::{Cursor, Write};

/// The error texts calamine does not read.
const NEWER: [&str; 9] =
    ["#SPILL!", "#CALC!", "#BLOCKED!", "#CONNECT!", "#FIELD!", "#UNKNOWN!", "#BUSY!", "#PYTHON!", "#EXTERNAL!"];

/// The error a newer error text stands for here.
fn kind(text: &str) -> ErrorKind {
    match text {
        "#CALC!" => ErrorKind::Calc,
        "#SPILL!" => ErrorKind::Spill,
        _ => ErrorKind::NA,
    }
}

/// Newer cached errors by cell (the sheet by its position in the parts).
pub(super) type Found = Vec<(CellAddr, ErrorKind)>;

/// The package with every newer cached error masked, and those errors by
/// cell (sheet by its position in `parts`); None when there is none.
pub(super) fn mask(
    bytes: &[u8],
    zip: &mut Zip<Cursor<&[u8]>>,
    parts: &[String],
) -> Result<Option<(Vec<u8>, Found)>, String> {
    let mut found = Vec::new();
    let mut rewritten = Vec::new();
    for (sheet, path) in parts.iter().enumerate() {
        if zip.by_name(path).is_err() {
            continue;
        }
        let text = part(zip, path)?;
        if !NEWER.iter().any(|e| text.contains(&format!(">{e}<"))) {
            continue;
        }
        let (xml, errors) = masked(&text, sheet as u16).map_err(|e| format!("`{path}` is not readable XML: {e}"))?;
        found.extend(errors);
        rewritten.push((path.clone(), xml));
    }
    if rewritten.is_empty() {
        return Ok(None);
    }
    Ok(Some((repack(bytes, &rewritten)?, found)))
}

/// A sheet part's text with its newer cached errors as `#N/A`, and them.
fn masked(text: &str, sheet: u16) -> Result<(Vec<u8>, Found), quick_xml::Error> {
    let mut reader = Reader::from_str(text);
    let mut writer = Writer::new(Vec::with_capacity(text.len()));
    let mut found = Vec::new();
    // The error cell being read (its address), and whether inside its `<v>`.
    let (mut cell, mut in_value) = (None, false);
    loop {
        let event = reader.read_event()?;
        match &event {
            Event::Start(e) if e.local_name().as_ref() == "c" => {
                let is_error = attr(e, "t").ok().flatten().is_some_and(|t| t == "e");
                cell = attr(e, "r").ok().flatten().filter(|_| is_error).and_then(|r| parse_a1(&r));
            }
            Event::End(e) if e.local_name().as_ref() == "c" => cell = None,
            Event::Start(e) if e.local_name().as_ref() == "v" => in_value = true,
            Event::End(e) if e.local_name().as_ref() == "v" => in_value = false,
            Event::Text(t) if in_value => {
                let value = t.xml10_content();
                if let (Some((row, col)), Some(e)) = (cell, NEWER.iter().find(|e| **e == value.trim())) {
                    found.push((CellAddr::new(sheet, row, col), kind(e)));
                    writer.write_event(Event::Text(BytesText::new("#N/A")))?;
                    continue;
                }
            }
            Event::Eof => break,
            _ => {}
        }
        writer.write_event(event)?;
    }
    Ok((writer.into_inner(), found))
}

/// The package `bytes` with the parts `rewritten` replaced, every other
/// entry copied unchanged.
fn repack(bytes: &[u8], rewritten: &[(String, Vec<u8>)]) -> Result<Vec<u8>, String> {
    let bad = |e: &dyn std::fmt::Display| format!("cannot rewrite the package: {e}");
    let mut source = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| bad(&e))?;
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::with_capacity(bytes.len())));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for i in 0..source.len() {
        let file = source.by_index_raw(i).map_err(|e| bad(&e))?;
        let name = file.name().map_err(|e| bad(&e))?.to_string();
        match rewritten.iter().find(|(p, _)| *p == name) {
            Some((path, xml)) => {
                let path = path.clone();
                drop(file);
                out.start_file(path, options).map_err(|e| bad(&e))?;
                out.write_all(xml).map_err(|e| bad(&e))?;
            }
            None => out.raw_copy_file(file).map_err(|e| bad(&e))?,
        }
    }
    Ok(out.finish().map_err(|e| bad(&e))?.into_inner())
}
