//! dataflow's own part of an xlsx or ods file: what a workbook holds that
//! a sheet cannot say (its inputs, views, reset protocol, the optional
//! parts that were on, the names' comments, the random seed), written by
//! `export` (`write_own.rs`) as RON inside an XML element that Excel and
//! LibreOffice keep but do not read (`docs/formats.md`, "dataflow's own
//! part"). The RON is read with the workbook file's own structures and
//! checks (`inputs.rs`, `views.rs`, `read.rs`), so a problem in it is
//! located in its text, shown under `BOOK.xlsx/customXml/item1.xml`.

use super::raw::{Entries, RawInput, RawReset, RawView, Str, parse_as};
use super::read::{Settable, check_settable, reset_cells};
use super::spans::{Node, scan};
use crate::diagnostic::Source;
use crate::workbook::builder::Builder;
use crate::workbook::model::{Bundle, InputDef, Part, ResetProtocol, ViewDef};
use serde::Deserialize;
use std::path::Path;
use std::sync::Arc;

/// The newest version of the part this dataflow reads (every version from
/// 1): 2 carries `sources`, and is written only when it does, so a file
/// without them stays readable by a dataflow that reads version 1.
pub const VERSION: u32 = 2;

/// The XML namespace of the part's root element, `<dataflow>`.
pub const NAMESPACE: &str = "urn:dataflow:workbook";

#[derive(Deserialize, Debug)]
#[serde(rename = "Dataflow", deny_unknown_fields)]
struct RawOwn<'a> {
    /// Checked by [`RawVersion`] first.
    #[serde(rename = "version")]
    _version: u32,
    #[serde(default, borrow)]
    inputs: Entries<Str<'a>, RawInput<'a>>,
    #[serde(default, borrow)]
    views: Entries<Str<'a>, RawView<'a>>,
    #[serde(default, borrow)]
    reset: Option<RawReset<'a>>,
    #[serde(default, borrow)]
    parts: Entries<Str<'a>, RawPartState<'a>>,
    #[serde(default, borrow)]
    comments: Entries<Str<'a>, Str<'a>>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default, borrow)]
    sources: Option<RawSources<'a>>,
}

/// The workbook file and formula files carried for the parts that were off.
#[derive(Deserialize, Debug)]
#[serde(rename = "Sources", deny_unknown_fields)]
struct RawSources<'a> {
    #[serde(borrow)]
    root: Str<'a>,
    #[serde(borrow)]
    files: Entries<Str<'a>, Str<'a>>,
}

/// Only the version, read first so a newer part is refused by its
/// version rather than by a field this dataflow does not know.
#[derive(Deserialize, Debug)]
#[serde(rename = "Dataflow")]
struct RawVersion {
    version: u32,
}

#[derive(Deserialize, Debug)]
#[serde(rename = "Part", deny_unknown_fields)]
struct RawPartState<'a> {
    #[serde(borrow)]
    about: Str<'a>,
    #[serde(default)]
    rank: Option<u32>,
    #[serde(default)]
    on: bool,
}

/// What the part adds to the workbook read from the sheets.
#[derive(Default)]
pub(crate) struct Own {
    pub inputs: Vec<InputDef>,
    pub views: Vec<ViewDef>,
    pub reset: Option<ResetProtocol>,
    pub parts: Vec<Part>,
    pub seed: Option<u64>,
    pub bundle: Option<Bundle>,
}

/// The RON text of the part, from its XML: the text of a root element
/// `<dataflow xmlns="urn:dataflow:workbook">`; `None` when the root is
/// another element (another program's custom XML).
pub fn unwrap(xml: &str) -> Result<Option<String>, String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let bad = |e: &dyn std::fmt::Display| format!("it is not readable XML: {e}");
    let mut text = String::new();
    let mut depth = 0usize;
    loop {
        match reader.read_event().map_err(|e| bad(&e))? {
            Event::Start(e) if depth == 0 => {
                let ours = e.local_name().as_ref() == "dataflow"
                    && e.attributes().flatten().any(|a| {
                        a.key.as_ref() == "xmlns"
                            && a.normalized_value(quick_xml::XmlVersion::Implicit1_0).is_ok_and(|v| v == NAMESPACE)
                    });
                if !ours {
                    return Ok(None);
                }
                depth = 1;
            }
            Event::Empty(_) if depth == 0 => return Ok(None),
            Event::Start(_) => return Err("its `<dataflow>` element holds an element; it holds only text".into()),
            Event::Text(t) if depth == 1 => text.push_str(&t.xml10_content()),
            Event::CData(t) if depth == 1 => text.push_str(t.as_ref()),
            Event::GeneralRef(r) if depth == 1 => {
                let entity = r.xml10_content();
                match quick_xml::escape::resolve_predefined_entity(&entity) {
                    Some(s) => text.push_str(s),
                    None => text.extend(r.resolve_char_ref().map_err(|e| bad(&e))?),
                }
            }
            Event::End(_) if depth == 1 => return Ok(Some(text)),
            Event::Eof if depth == 1 => {
                return Err("its `<dataflow>` element is not closed (the part is cut short)".into());
            }
            Event::Eof => return Ok(None),
            _ => {}
        }
    }
}

/// Reads the part's RON `text` (shown as `shown` in messages) into `b`,
/// whose cells and names are read: every problem is a located error.
pub(crate) fn read(b: &mut Builder, text: &str, shown: &Path) -> Own {
    let src = Source::new(shown, text);
    let root = scan(&src.text);
    match parse_as::<RawVersion>(&src) {
        Ok(v) if !(1..=VERSION).contains(&v.version) => {
            let span = root.field("version").span.clone();
            let m = format!(
                "dataflow's own part is version {}; this dataflow reads versions 1 to {VERSION} (is it newer?)",
                v.version
            );
            b.error(&src, span, m, "unknown version");
            return Own::default();
        }
        _ => {}
    }
    let raw: RawOwn<'_> = match parse_as(&src) {
        Ok(raw) => raw,
        Err(d) => {
            b.diags.push(d);
            return Own::default();
        }
    };
    let mut settable: Vec<Settable> = Vec::new();
    let inputs = super::inputs::inputs(b, &src, &raw.inputs, root.field("inputs"), &mut settable);
    let views = super::views::views(b, &src, &raw.views, root.field("views"), false);
    let reset = raw.reset.as_ref().map(|r| {
        let places = root.field("reset");
        ResetProtocol {
            set: reset_cells(b, &src, &r.set, places.field("set"), &mut settable),
            then: reset_cells(b, &src, &r.then, places.field("then"), &mut settable),
            reuse: r.reuse,
        }
    });
    check_settable(b, &src, &settable);
    let parts = parts(b, &src, &raw.parts, root.field("parts"));
    comments(b, &src, &raw.comments, root.field("comments"));
    let bundle =
        raw.sources.as_ref().and_then(|r| sources(b, &src, r, parts.iter().any(|p| !p.on), root.field("sources")));
    Own { inputs, views, reset, parts, seed: raw.seed, bundle }
}

/// The parts, as they were when the file was written (their formulas are
/// in the sheets).
fn parts(b: &mut Builder, src: &Arc<Source>, raw: &Entries<Str<'_>, RawPartState<'_>>, places: &Node) -> Vec<Part> {
    let mut out: Vec<Part> = Vec::new();
    for (i, (key, p)) in raw.0.iter().enumerate() {
        if out.iter().any(|q| q.name.eq_ignore_ascii_case(&key.text)) {
            let m = format!("the part `{}` is listed twice", key.text);
            b.error(src, places.entry(i).0.string(), m, "repeated part");
            continue;
        }
        out.push(Part { name: key.text.to_string(), about: p.about.text.to_string(), on: p.on, rank: p.rank });
    }
    out
}

/// The carried sources: the root must be one of the files, each file named
/// once, by a relative path that stays in its folder.
fn sources(b: &mut Builder, src: &Arc<Source>, raw: &RawSources<'_>, off: bool, places: &Node) -> Option<Bundle> {
    let before = b.diags.len();
    let mut files: Vec<(String, String)> = Vec::new();
    for (i, (key, text)) in raw.files.0.iter().enumerate() {
        let path = Path::new(key.text.as_ref());
        let outside = path.is_absolute() || path.components().any(|c| matches!(c, std::path::Component::ParentDir));
        if outside {
            let m = format!("the carried file `{}` is not a path inside the files' folder", key.text);
            b.error(src, places.field("files").entry(i).0.string(), m, "not a relative path");
        } else if files.iter().any(|(p, _)| *p == key.text) {
            let m = format!("the carried file `{}` is listed twice", key.text);
            b.error(src, places.field("files").entry(i).0.string(), m, "repeated file");
        }
        files.push((key.text.to_string(), text.text.to_string()));
    }
    if !files.iter().any(|(p, _)| *p == raw.root.text) {
        let m = format!("the root `{}` is not one of the carried files", raw.root.text);
        b.error(src, places.field("root").string(), m, "unknown root");
    }
    if !off {
        let m = "sources are carried for the parts that were off, and every part was on".to_string();
        b.error(src, places.span.clone(), m, "no part off");
    }
    (b.diags.len() == before).then(|| Bundle { root: raw.root.text.to_string(), files })
}

/// Each name's comment, which the sheets cannot hold.
fn comments(b: &mut Builder, src: &Arc<Source>, raw: &Entries<Str<'_>, Str<'_>>, places: &Node) {
    for (i, (key, comment)) in raw.0.iter().enumerate() {
        match b.names.iter_mut().find(|n| n.name.eq_ignore_ascii_case(&key.text)) {
            Some(n) => n.comment = Some(comment.text.to_string()),
            None => {
                let m = format!("a comment for the name `{}`, which the workbook does not define", key.text);
                b.error(src, places.entry(i).0.string(), m, "unknown name");
            }
        }
    }
}
