//! A workbook model written back as text: a `.ron` workbook file with the
//! sheets, the calculation settings, the constants and the short one-cell
//! formulas, and one `.dfl` formula file (which the `.ron` includes) with
//! the names, each with its anchor, and every other formula. It is what
//! `dataflow import` writes for an Excel or OpenDocument file: with the
//! inputs, views and reset protocol its dataflow part gives
//! (`write_own::fields`); the parts that were on are named in a comment
//! (their formulas are among the cells). A formula whose text holds a line
//! break goes into the `.ron` (a RON string keeps it exactly; a `.dfl`
//! line would need indenting).

use super::model::*;
use crate::parse::block_formula;
use crate::value::date::DateSystem;
use crate::value::{ErrorKind, Value};

/// The texts of the two files.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    pub ron: String,
    pub dfl: String,
}

/// A one-cell formula at most this long stays in the `.ron` file.
const SHORT: usize = 40;

/// Writes `wb`; `dfl_path` is how the `.ron` file names the formula file,
/// `origin` is named in the files' opening comments.
pub fn write(wb: &Workbook, dfl_path: &str, origin: &str) -> Written {
    let sheets: Vec<String> = wb.sheets.iter().map(|s| quoted(s)).collect();
    let c = &wb.calc;
    let mut ron = format!("// Imported from {origin} by `dataflow import`.\nWorkbook(\n");
    ron += &format!("    sheets: [{}],\n", sheets.join(", "));
    // The date system only when it is not the default 1900 one.
    let dates = match c.date_system {
        DateSystem::D1900 => String::new(),
        d => format!(", date_system: {}", quoted(d.as_str())),
    };
    ron += &format!(
        "    calc: (iterate: {}, max_iterations: {}, max_change: {}, order: {}{dates}),\n",
        c.iterate,
        c.max_iterations,
        number(c.max_change),
        quoted(c.order.as_str())
    );
    ron += &format!("    include: [{}],\n", quoted(dfl_path));
    if wb.excel_errors {
        // What Excel loads past, the imported workbook loads past too.
        ron += "    excel_errors: true,\n";
    }
    if wb.dynamic_arrays {
        // Every one-cell formula is then read back as a dynamic-array one.
        ron += "    dynamic_arrays: true,\n";
    }
    if !wb.tables.is_empty() {
        ron += &format!("    tables: {{\n{}    }},\n", tables(wb));
    }
    let mut dfl = format!("# Names and formulas imported from {origin} by `dataflow import`.\n");
    let mut cells = String::new();
    for entry in &wb.cells {
        let key = quoted(&wb.sheets.area(entry.area));
        match &entry.content {
            Content::Constant(v) => cells += &format!("        {key}: {},\n", constant(v)),
            Content::Formula(f) | Content::Array(f) | Content::Dynamic(f) => {
                let array = matches!(entry.content, Content::Array(_));
                // A piece of a range formula an edit cut keeps its range's
                // anchor: written moved to its own top-left cell.
                let moved;
                let text = match entry.anchor == entry.area.top_left() {
                    true => body(f),
                    false => {
                        moved = super::relative::moved_to(&f.expr, entry.anchor, entry.area.top_left()).to_string();
                        moved.as_str()
                    }
                };
                let (open, close) = if array { ("{=", "}") } else { ("=", "") };
                let short = !array && entry.area.is_cell() && text.chars().count() <= SHORT;
                if short || multiline(text) {
                    cells += &format!("        {key}: {},\n", quoted(&format!("{open}{text}{close}")));
                } else {
                    let shown = if array { format!("{{={text}}}") } else { text.to_string() };
                    dfl += &format!("\ncells {} = {shown}\n", wb.sheets.area(entry.area));
                }
            }
        }
    }
    let mut names = String::new();
    for n in &wb.names {
        let anchor = wb.sheets.cell(n.anchor);
        let text = body(&n.formula);
        if multiline(text) {
            let comment = n.comment.as_ref().map_or(String::new(), |c| format!(", comment: {}", quoted(c)));
            names += &format!(
                "        {}: (formula: {}, anchor: {}{comment}),\n",
                quoted(&n.name),
                quoted(text),
                quoted(&anchor)
            );
        } else {
            dfl.push('\n');
            for line in n.comment.iter().flat_map(|c| c.lines()) {
                dfl += &format!("# {line}\n");
            }
            dfl += &format!("name {} @ {anchor} = {text}\n", n.name);
        }
    }
    if !cells.is_empty() {
        ron += &format!("    cells: {{\n{cells}    }},\n");
    }
    if !names.is_empty() {
        ron += &format!("    names: {{\n{names}    }},\n");
    }
    ron += &super::write_own::fields(wb);
    let on: Vec<&str> = wb.parts.iter().filter(|p| p.on).map(|p| p.name.as_str()).collect();
    if !on.is_empty() {
        ron += &format!("    // Exported with the parts {} on: their formulas are among these.\n", on.join(", "));
    }
    ron += ")\n";
    Written { ron, dfl }
}

/// The tables, one line each, with their column names (Excel's, which
/// the header cells may not spell exactly).
fn tables(wb: &Workbook) -> String {
    let mut out = String::new();
    for t in &wb.tables {
        let columns: Vec<String> = t.columns.iter().map(|c| quoted(c)).collect();
        out += &format!(
            "        {}: (range: {}, header: {}, totals: {}, columns: [{}]),\n",
            quoted(&t.name),
            quoted(&wb.sheets.area(t.area)),
            t.headers,
            t.totals,
            columns.join(", ")
        );
    }
    out
}

/// A formula's text without its leading `=`.
fn body(f: &Formula) -> &str {
    let t = f.text.trim();
    t.strip_prefix('=').unwrap_or(t)
}

fn multiline(text: &str) -> bool {
    text.contains(['\n', '\r'])
}

/// A RON string literal.
pub(super) fn quoted(s: &str) -> String {
    ron::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

fn number(n: f64) -> String {
    ron::to_string(&n).unwrap_or_else(|_| n.to_string())
}

/// A constant as the `cells` map writes it: text that would read as
/// something else (a formula, an error, an empty cell, a `'` escape) gets
/// a leading `'`.
pub(super) fn constant(v: &Value) -> String {
    match v {
        Value::Number(n) => number(*n),
        Value::Bool(b) => b.to_string(),
        Value::Error(e) => quoted(e.text()),
        Value::Text(t) => {
            let escape = t.is_empty()
                || t.starts_with(['=', '\''])
                || t.starts_with("{=")
                || block_formula(t).is_some()
                || ErrorKind::parse(t).is_some();
            quoted(&if escape { format!("'{t}") } else { t.to_string() })
        }
        _ => "()".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_workbook_writes_back_and_reads_the_same() {
        let text = r##"(sheets: ["Main", "My Sheet"],
            calc: (iterate: true, max_iterations: 7, max_change: 0.5, date_system: "1904"),
            cells: {
                "A1": 1.5, "A2": "'=not a formula", "A3": "'#N/A", "A4": "#DIV/0!", "A5": true, "A6": "'",
                "A7": "'{=not closed",
                "B1": "=A1*2", "C1:C3": "=ROW()+LONG_NAME_FOR_A_LONGER_FORMULA_TEXT_HERE", "D1:E2": "{=A1:B2}",
                "'My Sheet'!A1": "=\"two\nlines\"",
            },
            names: {
                "LONG_NAME_FOR_A_LONGER_FORMULA_TEXT_HERE": (formula: "=Main!A1", anchor: "Main!B2", comment: "up-left"),
                "broken": (formula: "=1+\n2"),
            })"##;
        let wb = Workbook::from_str(text, Path::new("t.ron"), Path::new(".")).expect("loads");
        let w = write(&wb, "t.dfl", "t.ron");
        let dir = std::env::temp_dir().join(format!("dataflow-write-ron-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a directory");
        std::fs::write(dir.join("t.dfl"), &w.dfl).expect("written");
        let back = Workbook::from_str(&w.ron, &dir.join("t.ron"), &dir).expect("the written workbook loads");
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(back.calc, wb.calc);
        assert_eq!(back.calc.date_system, DateSystem::D1904);
        assert_eq!(back.sheets, wb.sheets);
        let contents = |w: &Workbook| {
            let mut c: Vec<(String, String)> = w
                .cells
                .iter()
                .map(|e| {
                    let content = match &e.content {
                        Content::Constant(v) => format!("{v:?}"),
                        Content::Formula(f) | Content::Dynamic(f) => format!("={}", f.expr),
                        Content::Array(f) => format!("{{={}}}", f.expr),
                    };
                    (w.sheets.area(e.area), content)
                })
                .collect();
            c.sort();
            c
        };
        assert_eq!(contents(&back), contents(&wb));
        let names = |w: &Workbook| {
            let mut n: Vec<_> = w
                .names
                .iter()
                .map(|n| (n.name.clone(), n.anchor, n.formula.expr.to_string(), n.comment.clone()))
                .collect();
            n.sort_by(|a, b| a.0.cmp(&b.0));
            n
        };
        assert_eq!(names(&back), names(&wb));
        assert!(
            w.dfl.contains("# up-left\nname LONG_NAME_FOR_A_LONGER_FORMULA_TEXT_HERE @ Main!B2 = Main!A1\n"),
            "{}",
            w.dfl
        );
        assert!(w.dfl.contains("cells Main!D1:E2 = {=A1:B2}\n"), "{}", w.dfl);
        assert!(w.ron.contains(r#""Main!B1": "=A1*2","#), "{}", w.ron);
    }
}
