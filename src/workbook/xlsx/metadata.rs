//! Which array formulas of an xlsx are Excel 365 dynamic arrays. Excel
//! writes a spilling formula as an array formula over its spill
//! (`<f t="array" ref="A1:A3">`) whose cell carries `cm="k"`: the k-th
//! (from 1) cell-metadata block of `xl/metadata.xml`, which points at a
//! metadata type (`t`, from 1) and a record of it (`v`, from 0). The type
//! `XLDAPR` records dynamic-array properties; `fDynamic="1"` marks a
//! dynamic array. A package without that part has none.

use super::parts::{Zip, attr, part};
use quick_xml::Reader;
use quick_xml::events::Event;
use std::io::{Read, Seek};

/// The metadata part's path in the package.
const PART: &str = "xl/metadata.xml";

/// For each cell-metadata index `cm` (from 1, at `cm - 1`), whether it
/// marks a dynamic-array formula.
pub(super) fn dynamic_arrays<R: Read + Seek>(zip: &mut Zip<R>) -> Result<Vec<bool>, String> {
    if zip.by_name(PART).is_err() {
        return Ok(Vec::new());
    }
    let text = part(zip, PART)?;
    let mut xml = Reader::from_str(&text);
    let (mut types, mut dynamic, mut cells) = (Vec::new(), Vec::new(), Vec::new());
    // Where the reader is: inside `futureMetadata name="XLDAPR"`, inside
    // `cellMetadata`, and whether the current block's first record is read.
    let (mut in_xldapr, mut in_cells) = (false, false);
    loop {
        match xml.read_event().map_err(|e| format!("`{PART}` is not readable XML: {e}"))? {
            // An empty `<futureMetadata/>` or `<cellMetadata/>` holds nothing.
            Event::Empty(e) if matches!(e.local_name().as_ref(), "futureMetadata" | "cellMetadata") => {}
            Event::Start(e) | Event::Empty(e) => match e.local_name().as_ref() {
                "metadataType" => types.push(attr(&e, "name")?.unwrap_or_default()),
                "futureMetadata" => in_xldapr = attr(&e, "name")?.as_deref() == Some("XLDAPR"),
                "cellMetadata" => in_cells = true,
                "bk" if in_xldapr => dynamic.push(false),
                "bk" if in_cells => cells.push(Vec::new()),
                "dynamicArrayProperties" if in_xldapr => {
                    if let Some(d) = dynamic.last_mut() {
                        *d = matches!(attr(&e, "fDynamic")?.as_deref(), Some("1" | "true"));
                    }
                }
                "rc" if in_cells => {
                    let t = attr(&e, "t")?.and_then(|t| t.parse::<usize>().ok());
                    let v = attr(&e, "v")?.and_then(|v| v.parse::<usize>().ok());
                    if let Some(records) = cells.last_mut() {
                        records.push((t, v));
                    }
                }
                _ => {}
            },
            Event::End(e) => match e.local_name().as_ref() {
                "futureMetadata" => in_xldapr = false,
                "cellMetadata" => in_cells = false,
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    let is_xldapr = |t: usize| t.checked_sub(1).and_then(|i| types.get(i)).is_some_and(|n| n == "XLDAPR");
    let marks = |&(t, v): &(Option<usize>, Option<usize>)| matches!((t, v), (Some(t), Some(v)) if is_xldapr(t) && dynamic.get(v) == Some(&true));
    Ok(cells.iter().map(|records| records.iter().any(marks)).collect())
}
