//! Excel workbooks built from raw XML parts, as Excel lays them out, with
//! the zip crate: no binary fixture is checked in. [`Book`] collects the
//! sheets (their `<sheetData>` rows), the defined names and `<calcPr>`;
//! [`Book::bytes`] packs them; [`Book::write`] puts them in a file under the
//! test's temporary directory. [`cell`] and friends write one `<c>`.

#![allow(dead_code)] // each test file uses its own subset

pub mod ellis;

use std::io::Write;
use std::path::PathBuf;
use zip::write::SimpleFileOptions;

#[derive(Default)]
pub struct Book {
    /// (name, the cells: `<c>` elements, in row order).
    pub sheets: Vec<(String, Vec<(u32, String)>)>,
    /// `<definedName>` elements.
    pub names: Vec<String>,
    /// The `<calcPr>` element.
    pub calc: String,
    /// Shared strings, referenced by index from `t="s"` cells.
    pub strings: Vec<String>,
}

/// Escapes text for XML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A number cell.
pub fn num(r: &str, v: f64) -> String {
    format!(r#"<c r="{r}"><v>{v}</v></c>"#)
}

/// An inline text cell.
pub fn text(r: &str, v: &str) -> String {
    format!(r#"<c r="{r}" t="inlineStr"><is><t>{}</t></is></c>"#, esc(v))
}

/// A formula cell with a cached number (or none).
pub fn formula(r: &str, f: &str, cached: Option<f64>) -> String {
    let v = cached.map_or(String::new(), |v| format!("<v>{v}</v>"));
    format!(r#"<c r="{r}"><f>{}</f>{v}</c>"#, esc(f))
}

/// A formula cell with a cached text.
pub fn formula_str(r: &str, f: &str, cached: &str) -> String {
    format!(r#"<c r="{r}" t="str"><f>{}</f><v>{}</v></c>"#, esc(f), esc(cached))
}

/// The row number of a cell like `AB12`.
pub fn row_of(r: &str) -> u32 {
    r.trim_start_matches(|c: char| c.is_ascii_alphabetic()).parse().expect("a cell reference")
}

impl Book {
    pub fn sheet(mut self, name: &str, cells: Vec<String>) -> Book {
        let cells = cells
            .into_iter()
            .map(|c| {
                let r = c.split('"').nth(1).expect("a cell with r=").to_string();
                (row_of(&r), c)
            })
            .collect();
        self.sheets.push((name.to_string(), cells));
        self
    }

    /// A defined name as Excel stores it (`formula` without `=`).
    pub fn name(mut self, name: &str, formula: &str, attrs: &str) -> Book {
        self.names.push(format!(r#"<definedName name="{name}"{attrs}>{}</definedName>"#, esc(formula)));
        self
    }

    pub fn calc(mut self, calc: &str) -> Book {
        self.calc = calc.to_string();
        self
    }

    /// The parts of the package, by path.
    pub fn parts(&self) -> Vec<(String, String)> {
        let mut parts = Vec::new();
        let mut overrides = String::new();
        let mut rels = String::new();
        let mut sheets = String::new();
        for (i, (name, cells)) in self.sheets.iter().enumerate() {
            let n = i + 1;
            sheets.push_str(&format!(r#"<sheet name="{}" sheetId="{n}" r:id="rId{n}"/>"#, esc(name)));
            rels.push_str(&format!(
                r#"<Relationship Id="rId{n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet{n}.xml"/>"#
            ));
            overrides.push_str(&format!(
                r#"<Override PartName="/xl/worksheets/sheet{n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>"#
            ));
            let mut rows = String::new();
            let mut sorted: Vec<&(u32, String)> = cells.iter().collect();
            sorted.sort_by_key(|(r, _)| *r);
            let mut i = 0;
            while i < sorted.len() {
                let r = sorted[i].0;
                rows.push_str(&format!(r#"<row r="{r}">"#));
                while i < sorted.len() && sorted[i].0 == r {
                    rows.push_str(&sorted[i].1);
                    i += 1;
                }
                rows.push_str("</row>");
            }
            parts.push((
                format!("xl/worksheets/sheet{n}.xml"),
                format!(
                    r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheetData>{rows}</sheetData></worksheet>"#
                ),
            ));
        }
        let k = self.sheets.len() + 1;
        rels.push_str(&format!(
            r#"<Relationship Id="rId{k}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>"#
        ));
        let strings: String = self.strings.iter().map(|s| format!("<si><t>{}</t></si>", esc(s))).collect();
        parts.push((
            "xl/sharedStrings.xml".into(),
            format!(
                r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{0}" uniqueCount="{0}">{strings}</sst>"#,
                self.strings.len()
            ),
        ));
        let names = if self.names.is_empty() {
            String::new()
        } else {
            format!("<definedNames>{}</definedNames>", self.names.concat())
        };
        parts.push((
            "xl/workbook.xml".into(),
            format!(
                r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><workbookPr/><sheets>{sheets}</sheets>{names}{}</workbook>"#,
                self.calc
            ),
        ));
        parts.push((
            "xl/_rels/workbook.xml.rels".into(),
            format!(
                r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{rels}</Relationships>"#
            ),
        ));
        parts.push((
            "_rels/.rels".into(),
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#
                .into(),
        ));
        parts.push((
            "[Content_Types].xml".into(),
            format!(
                r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>{overrides}<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>"#
            ),
        ));
        parts
    }

    /// The package as the bytes of a zip file.
    pub fn bytes(&self) -> Vec<u8> {
        zip_parts(&self.parts())
    }

    /// Writes the package to `NAME` in the tests' temporary directory.
    pub fn write(&self, name: &str) -> PathBuf {
        write_file(name, &self.bytes())
    }
}

/// Packs parts into a zip file.
pub fn zip_parts(parts: &[(String, String)]) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (path, text) in parts {
        z.start_file(path.as_str(), options).expect("a zip entry");
        z.write_all(text.as_bytes()).expect("written");
    }
    z.finish().expect("a zip file").into_inner()
}

/// A file in a fresh directory under the tests' temporary directory.
pub fn write_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = temp_dir(name);
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("the fixture is written");
    path
}

/// A fresh, empty directory for one test, named after `name`.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("xlsx").join(name.replace('.', "_"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}
