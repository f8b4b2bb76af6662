//! Helpers of the export tests: a workbook calculated as `run` does, its
//! export read back with the xlsx reader, and the two compared cell by
//! cell (formulas in printed form, moved to each cell; names as Excel
//! stores them; values).

#![allow(dead_code)] // each test file uses its own subset

use dataflow::address::CellAddr;
use dataflow::export::{Format, export};
use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::{Content, Workbook, relative};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Loads a workbook, runs its reset protocol and recalculates.
pub fn calculated(path: &Path) -> Session {
    let mut s = Session::load(path).unwrap_or_else(|d| panic!("{}: {}", path.display(), render(&d)));
    s.reset().expect("the reset protocol runs");
    s.recalc();
    s
}

pub fn render(d: &[dataflow::diagnostic::Diagnostic]) -> String {
    d.iter().map(|d| d.render(false)).collect()
}

/// The session exported as xlsx and read back (its cached values as the
/// starting values), with the export's warnings.
pub fn round_trip(s: &Session) -> (Session, Vec<String>) {
    let out = export(s, Format::Xlsx).unwrap_or_else(|p| panic!("{p:?}"));
    let wb = dataflow::workbook::xlsx::from_bytes(&out.bytes, Path::new("export.xlsx"))
        .unwrap_or_else(|d| panic!("{}", render(&d)));
    (Session::new(wb).unwrap_or_else(|d| panic!("{}", render(&d))), out.warnings)
}

/// Every formula cell: its formula moved to it and printed, `{=...}` for
/// the top-left cell of a block array formula with the block, `spill =...`
/// for a dynamic-array formula.
pub fn formulas(wb: &Workbook) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for entry in &wb.cells {
        let origin = entry.area.top_left();
        match &entry.content {
            Content::Constant(_) => {}
            Content::Formula(f) => {
                for c in entry.area.cells() {
                    out.insert(wb.sheets.cell(c), format!("={}", relative::moved_to(&f.expr, origin, c)));
                }
            }
            Content::Array(f) => {
                out.insert(wb.sheets.area(entry.area), format!("{{={}}}", f.expr));
            }
            // A dynamic-array formula: marked, so a round trip keeps the kind.
            Content::Dynamic(f) => {
                out.insert(wb.sheets.area(entry.area), format!("spill ={}", f.expr));
            }
        }
    }
    out
}

/// Every name as Excel stores it: references on the anchor's sheet,
/// relative to A1 with wrap-around.
pub fn names(wb: &Workbook) -> BTreeMap<String, String> {
    wb.names
        .iter()
        .map(|n| {
            let mut e = (*n.formula.expr).clone();
            relative::qualify(&mut e, wb.sheets.name(n.anchor.sheet));
            relative::to_a1(&mut e, (n.anchor.row, n.anchor.col));
            (n.name.clone(), e.to_string())
        })
        .collect()
}

/// Every cell's value in the sheets' used areas of either session.
pub fn values(a: &Session, b: &Session) -> Vec<(CellAddr, Value, Value)> {
    let mut out = Vec::new();
    for sheet in 0..a.workbook().sheets.len() as u16 {
        let (ra, ca) = a.engine().grid().extent(sheet);
        let (rb, cb) = b.engine().grid().extent(sheet);
        for row in 0..ra.max(rb) {
            for col in 0..ca.max(cb) {
                let c = CellAddr::new(sheet, row, col);
                out.push((c, a.engine().get(c).clone(), b.engine().get(c).clone()));
            }
        }
    }
    out
}

/// A file under the test's temporary directory.
pub fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("export");
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir.join(name)
}

/// The text of one part of a zip package.
pub fn part(bytes: &[u8], name: &str) -> String {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip package");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut zip.by_name(name).expect("the part"), &mut text).expect("its text");
    text
}
