//! The Excel-saved workbooks the repository ships (`tests/data/excel/`,
//! with their provenance): each is loaded, recalculated, and every formula
//! cell must equal the value Excel cached (numbers within a relative 1e-9,
//! the rest exactly), as `tests/excel_files.rs` compares the whole
//! collection in `../shared` — these run on a bare clone. A workbook
//! dropped in the folder is picked up.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::excel::same;
use dataflow::session::Session;
use dataflow::value::{ErrorKind, Value};

#[test]
fn shipped_excel_workbooks_compute_what_excel_cached() {
    let mut paths: Vec<_> = std::fs::read_dir("tests/data/excel")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "xlsx"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 8, "the shipped workbooks are missing");
    let (mut compared, mut wrong) = (0, Vec::new());
    for path in &paths {
        let mut s = Session::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let expected = s.workbook().start.clone();
        // A warning only where Excel shows #NAME? too (readxl's `=su(B4)`).
        for w in s.warnings() {
            let at = w.cell.as_deref().and_then(|c| s.area(c).ok()).map(|a| a.top_left());
            let excel = at.and_then(|c| expected.iter().find(|(e, _)| *e == c)).map(|(_, v)| v);
            assert_eq!(excel, Some(&Value::Error(ErrorKind::Name)), "{}: {}", path.display(), w.message);
        }
        assert!(!expected.is_empty(), "{}: no formula cells", path.display());
        s.recalc();
        for (c, excel) in &expected {
            compared += 1;
            let ours = s.engine().get(*c);
            if !same(excel, ours) {
                let cell = s.workbook().sheets.cell(*c);
                wrong.push(format!("{} {cell}: Excel {excel:?}, dataflow {ours:?}", path.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "{} of {compared} cells differ:\n{}", wrong.len(), wrong.join("\n"));
    assert!(compared >= 5_700, "{compared} cells compared");
}
