//! Finds dataflow's own part in an xlsx package: a custom XML part
//! (`customXml/itemN.xml`, which Excel keeps and may renumber) whose root
//! is `<dataflow xmlns="urn:dataflow:workbook">` (see `ron::own`). Each
//! candidate is read through [`part`], so its size is checked first.

use super::parts::{Zip, part};
use crate::workbook::ron::own::unwrap;
use std::io::{Read, Seek};
use std::path::{Path, PathBuf};

/// The part's RON text and the path its problems are shown under
/// (`BOOK.xlsx/customXml/item1.xml`); `None` when the package has none.
pub(super) fn find<R: Read + Seek>(zip: &mut Zip<R>, path: &Path) -> Result<Option<(String, PathBuf)>, String> {
    let mut names: Vec<String> = zip
        .file_names()
        .filter_map(Result::ok)
        .map(|n| n.to_string())
        .filter(|n| {
            n.strip_prefix("customXml/item")
                .and_then(|n| n.strip_suffix(".xml"))
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect();
    names.sort();
    for name in names {
        let xml = part(zip, &name)?;
        if let Some(text) = unwrap(&xml).map_err(|m| format!("the part `{name}`: {m}"))? {
            return Ok(Some((text, path.join(&name))));
        }
    }
    Ok(None)
}
