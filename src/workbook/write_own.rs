//! What a workbook holds beyond its cells and names, written as the RON
//! workbook file writes it: its inputs, views and reset protocol
//! ([`fields`], which `import` writes into the `.ron` file it makes), and
//! dataflow's own part of an xlsx or ods file ([`own_part`]: those fields,
//! the optional parts that are on, the names' comments and the random
//! seed, as RON inside a `<dataflow>` XML element; read back by
//! `ron::own`, described in `docs/formats.md`).

use super::model::*;
use super::ron::own::{NAMESPACE, VERSION};
use super::write_ron::{constant, quoted};

/// The `inputs`, `views` and `reset` fields of a RON workbook file, each
/// line indented by four spaces and ending with `,` (none when empty).
pub fn fields(wb: &Workbook) -> String {
    let area = |a| quoted(&wb.sheets.area(a));
    let mut out = String::new();
    if !wb.inputs.is_empty() {
        out += "    inputs: {\n";
        for i in &wb.inputs {
            let value = i.value.as_ref().map_or(String::new(), |v| format!(", value: {}", quoted(v)));
            let check = i.check.as_ref().map_or(String::new(), |c| format!(", check: {}", quoted(&c.text)));
            out += &format!(
                "        {}: (range: {}, alphabet: {}, blanks: {}{value}{check}),\n",
                quoted(&i.name),
                area(i.area),
                quoted(&i.alphabet),
                quoted(&i.blanks)
            );
        }
        out += "    },\n";
    }
    if !wb.views.is_empty() {
        out += "    views: {\n";
        for v in &wb.views {
            out += &format!("        {}: ({}),\n", quoted(&v.name), view(wb, v).join(", "));
        }
        out += "    },\n";
    }
    if let Some(r) = &wb.reset {
        let cells = |cells: &[(crate::address::CellAddr, crate::value::Value)]| {
            let entries: Vec<String> =
                cells.iter().map(|(c, v)| format!("{}: {}", quoted(&wb.sheets.cell(*c)), constant(v))).collect();
            format!("{{ {} }}", entries.join(", "))
        };
        let reuse = if r.reuse { ", reuse: true" } else { "" };
        out += &format!("    reset: (set: {}, then: {}{reuse}),\n", cells(&r.set), cells(&r.then));
    }
    out
}

/// A view's fields, the defaults left out.
fn view(wb: &Workbook, v: &ViewDef) -> Vec<String> {
    let mut f = vec![format!("range: {}", quoted(&wb.sheets.area(v.area)))];
    if let Some((r, c)) = v.group {
        f.push(format!("group: ({r}, {c})"));
    }
    if v.blank != "." {
        f.push(format!("blank: {}", quoted(&v.blank)));
    }
    let d = &v.display;
    if let Some(a) = &d.alphabet {
        f.push(format!("alphabet: {}", quoted(&a.iter().collect::<String>())));
    }
    if let Some(n) = &d.format {
        f.push(format!("format: {}", quoted(n.text())));
    }
    if d.compact.is_some() {
        f.push("compact: true".into());
    }
    if let Some(r) = d.regions {
        f.push(format!("regions: {}", quoted(&wb.sheets.area(r))));
    }
    if let Some(r) = v.reasons {
        f.push(format!("reasons: {}", quoted(&wb.sheets.area(r))));
    }
    f
}

/// The RON text of dataflow's own part: [`fields`], the parts and whether
/// each is on (the formulas of those that are on are in the sheets), the
/// names' comments, the seed, and the sources carried for the parts that
/// are off (`bundle`; version 2, else 1).
pub fn own_ron(wb: &Workbook, bundle: Option<&Bundle>) -> String {
    let version = if bundle.is_some() { VERSION } else { 1 };
    let mut out = format!("Dataflow(\n    version: {version},\n");
    out += &fields(wb);
    if !wb.parts.is_empty() {
        out += "    parts: {\n";
        for p in &wb.parts {
            let rank = p.rank.map_or(String::new(), |r| format!(", rank: {r}"));
            let on = p.on;
            out += &format!("        {}: (about: {}{rank}, on: {on}),\n", quoted(&p.name), quoted(&p.about));
        }
        out += "    },\n";
    }
    let comments: Vec<String> = wb
        .names
        .iter()
        .filter_map(|n| Some(format!("        {}: {},\n", quoted(&n.name), quoted(n.comment.as_ref()?))))
        .collect();
    if !comments.is_empty() {
        out += &format!("    comments: {{\n{}    }},\n", comments.concat());
    }
    if let Some(seed) = wb.calc.seed {
        out += &format!("    seed: {seed},\n");
    }
    if let Some(b) = bundle {
        out += &format!("    sources: (\n        root: {},\n        files: {{\n", quoted(&b.root));
        for (path, text) in &b.files {
            out += &format!("            {}: {},\n", quoted(path), quoted(text));
        }
        out += "        },\n    ),\n";
    }
    out += ")\n";
    out
}

/// [`own_ron`] as the XML part: the RON text, escaped, in the root
/// element `<dataflow xmlns="urn:dataflow:workbook">`, starting on the
/// part's second line (so the RON's line n is the part's line n + 1).
pub fn own_part(wb: &Workbook, bundle: Option<&Bundle>) -> String {
    let ron =
        own_ron(wb, bundle).replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('\r', "&#13;");
    format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<dataflow xmlns=\"{NAMESPACE}\">\n{ron}</dataflow>\n")
}
