//! Exported workbooks opened by LibreOffice (`soffice --headless`, driven
//! through `../shared/tools/lo-oracle`): it reads the exported xlsx and ods
//! with their iteration settings and values, recalculating the convergent
//! circular workbook gives dataflow's values (within its maximum change),
//! the Ellis solver's ods (names with base cells) stays solved, and an xlsx
//! LibreOffice writes from an exported ods imports and runs to the same
//! values. Ignored by default (LibreOffice is not installed by CI); `.ci/run`
//! runs them when `soffice` and the oracle are there (`cargo test --release
//! --test lo_roundtrip -- --ignored`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod export;

use dataflow::export::{Format, export as write_book};
use dataflow::session::Session;
use dataflow::value::Value;
use export::{calculated, temp};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::Command;

const ORACLE: &str = "../shared/tools/lo-oracle";

/// Loads a file in LibreOffice, reads `range`, recalculates (hard) `recalcs`
/// times and reads it again.
const DRIVER: &str = r#"
import json, sys
sys.path.insert(0, sys.argv[1])
import lo_oracle as O
path, rng, recalcs = sys.argv[2], sys.argv[3], int(sys.argv[4])
with O.LibreOffice() as lo:
    doc = lo.load(path)
    wb = O.Workbook(lo, doc)
    s = wb.current_settings()
    out = {"settings": [s["IsIterationEnabled"], s["IterationCount"], s["IterationEpsilon"]]}
    out["loaded"] = wb.read_range(rng)
    for _ in range(recalcs):
        wb.recalc("hard")
    out["recalculated"] = wb.read_range(rng)
    doc.close(True)
    print(json.dumps(out))
"#;

/// One LibreOffice at a time (they are slow to start on a small machine).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// LibreOffice and the oracle are here, or the test fails saying so.
fn libreoffice() {
    let soffice = Command::new("soffice").arg("--version").output().is_ok_and(|o| o.status.success());
    let oracle = Path::new(ORACLE).join("lo_oracle.py").exists();
    assert!(soffice && oracle, "LibreOffice (`soffice` on PATH) and {ORACLE} are needed for this test");
}

/// `workbook` calculated and exported to a temporary `name`.
fn exported(workbook: &str, name: &str) -> (Session, PathBuf) {
    let s = calculated(Path::new(workbook));
    let format = Format::of(Path::new(name)).unwrap();
    let path = temp(name);
    std::fs::write(&path, write_book(&s, format).unwrap().bytes).unwrap();
    (s, path)
}

/// What LibreOffice shows of `range` in `path`, loaded and recalculated.
fn open(path: &Path, range: &str, recalcs: u32) -> Json {
    // A lock left by an interrupted run would make LibreOffice ask.
    let name = path.file_name().unwrap().to_string_lossy();
    let _ = std::fs::remove_file(path.with_file_name(format!(".~lock.{name}#")));
    let driver = temp("lo_driver.py");
    std::fs::write(&driver, DRIVER).unwrap();
    let out = Command::new("/usr/bin/python3")
        .args([driver.to_str().unwrap(), ORACLE, path.to_str().unwrap(), range, &recalcs.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// dataflow's value as LibreOffice reports it.
fn json(v: &Value) -> Json {
    match v {
        Value::Number(n) => serde_json::json!(n),
        Value::Text(t) => serde_json::json!(t.as_ref()),
        Value::Bool(b) => serde_json::json!(b),
        v => serde_json::json!(v.to_string()),
    }
}

/// Checks LibreOffice's values of `cells` against the session's, numbers
/// within `tolerance`.
fn agree(s: &Session, shown: &Json, cells: &[&str], tolerance: f64) {
    for cell in cells {
        let ours = s.engine().get(s.area(cell).unwrap().top_left());
        let theirs = &shown[cell];
        match (ours, theirs.as_f64()) {
            (Value::Number(x), Some(y)) => assert!((x - y).abs() <= tolerance, "{cell}: {x} here, {y} in LibreOffice"),
            _ => assert_eq!(json(ours), *theirs, "{cell}"),
        }
    }
}

const CIRCULAR: [&str; 4] = ["Sheet1!B1", "Sheet1!B2", "Sheet1!B3", "Sheet1!B4"];

#[test]
#[ignore = "needs LibreOffice (soffice) and ../shared/tools/lo-oracle (run by .ci/run when both are there)"]
fn libreoffice_reads_the_xlsx_settings_and_cached_values_and_recalculates_to_ours() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    libreoffice();
    let (s, path) = exported("workbooks/circular.ron", "circular.xlsx");
    let shown = open(&path, "Sheet1!A1:B4", 1);
    assert_eq!(shown["settings"], serde_json::json!([true, 100, 0.001]));
    // The cached values, as LibreOffice keeps them (15 significant digits).
    agree(&s, &shown["loaded"], &CIRCULAR, 1e-12);
    agree(&s, &shown["recalculated"], &CIRCULAR, s.workbook().calc.max_change);
}

#[test]
#[ignore = "needs LibreOffice (soffice) and ../shared/tools/lo-oracle (run by .ci/run when both are there)"]
fn libreoffice_reads_the_ods_settings_and_recalculates_to_ours() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    libreoffice();
    let (s, path) = exported("workbooks/circular.ron", "circular.ods");
    let shown = open(&path, "Sheet1!A1:B4", 1);
    assert_eq!(shown["settings"], serde_json::json!([true, 100, 0.001]));
    // LibreOffice recalculates an ods it did not write when it opens it.
    agree(&s, &shown["loaded"], &CIRCULAR, s.workbook().calc.max_change);
    agree(&s, &shown["recalculated"], &CIRCULAR, s.workbook().calc.max_change);
}

#[test]
#[ignore = "needs LibreOffice (soffice) and ../shared/tools/lo-oracle (run by .ci/run when both are there)"]
fn the_ellis_solver_as_ods_keeps_its_relative_names_in_libreoffice() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    libreoffice();
    let (s, path) = exported("workbooks/sudoku.ron", "sudoku.ods");
    let shown = open(&path, "Main!D16:L24", 1);
    let cells: Vec<String> = s.area("Main!D16:L24").unwrap().cells().map(|c| s.workbook().sheets.cell(c)).collect();
    let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
    agree(&s, &shown["loaded"], &cells, 0.0);
    agree(&s, &shown["recalculated"], &cells, 0.0);
}

#[test]
#[ignore = "needs LibreOffice (soffice) and ../shared/tools/lo-oracle (run by .ci/run when both are there)"]
fn an_xlsx_written_by_libreoffice_imports_and_runs_to_our_values() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    libreoffice();
    let (s, ods) = exported("workbooks/circular.ron", "lo_circular.ods");
    let dir = temp("lo_converted");
    let profile = format!("-env:UserInstallation=file://{}", temp("lo_profile").display());
    let out = Command::new("soffice")
        .args([
            &profile,
            "--headless",
            "--convert-to",
            "xlsx",
            "--outdir",
            dir.to_str().unwrap(),
            ods.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut back = Session::load(&dir.join("lo_circular.xlsx")).unwrap_or_else(|d| panic!("{}", export::render(&d)));
    let calc = &back.workbook().calc;
    assert_eq!((calc.iterate, calc.max_iterations, calc.max_change), (true, 100, 0.001));
    back.recalc();
    for cell in CIRCULAR {
        let (a, b) =
            (s.engine().get(s.area(cell).unwrap().top_left()), back.engine().get(back.area(cell).unwrap().top_left()));
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => assert!((x - y).abs() <= 0.001, "{cell}: {x} vs {y}"),
            _ => assert_eq!(a, b, "{cell}"),
        }
    }
}
