//! Excel workbooks (`.xlsx`) read by `workbook::load`: fixtures built in
//! the test from raw XML parts (`xlsx/mod.rs`), never binary files.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod xlsx;

use common::{GRID2, GRID2_SOLVED, expect_exit};
use dataflow::session::Session;
use dataflow::value::Value;

fn session(book: &xlsx::Book, name: &str) -> Session {
    let path = book.write(name);
    match Session::load(&path) {
        Ok(s) => s,
        Err(d) => panic!("{}", d.iter().map(|d| d.render(false)).collect::<String>()),
    }
}

fn get(s: &Session, cell: &str) -> Value {
    s.engine().get(s.area(cell).expect("a cell").top_left()).clone()
}

#[test]
fn the_ellis_solver_imports_with_its_names_at_their_anchors_and_solves_pe96_grid_2() {
    let mut s = session(&xlsx::ellis::book(GRID2), "ellis.xlsx");
    let wb = s.workbook();
    assert!(wb.calc.iterate);
    assert_eq!((wb.calc.max_iterations, wb.calc.max_change), (100, 0.001));
    let name = wb.name("in_cell_from_sol").expect("imported");
    assert_eq!((s.workbook().sheets.cell(name.anchor), name.formula.text.as_str()), ("Main!A13".into(), "Main!A1"));
    let report = s.recalc();
    assert!(report.converged, "{report:?}");
    let area = s.area("Main!D16:L24").expect("an area");
    assert_eq!(s.read_line(&area, "123456789"), GRID2_SOLVED);
}

#[test]
fn cached_values_are_where_iteration_starts_as_with_f9() {
    // A1 = B1+1, B1 = A1, one iteration, saved with A1 = B1 = 5: Excel's
    // F9 evaluates the cycle row by row from the cached values, so A1 =
    // 5+1 and then B1 = 6.
    let book = xlsx::Book::default()
        .sheet("Main", vec![xlsx::formula("A1", "B1+1", Some(5.0)), xlsx::formula("B1", "A1", Some(5.0))])
        .calc(r#"<calcPr iterate="1" iterateCount="1"/>"#);
    let mut s = session(&book, "cycle.xlsx");
    assert_eq!((get(&s, "A1"), get(&s, "B1")), (Value::Number(5.0), Value::Number(5.0)));
    assert_eq!(s.workbook().calc.max_change, 0.001, "Excel's default iterateDelta");
    s.recalc();
    assert_eq!((get(&s, "A1"), get(&s, "B1")), (Value::Number(6.0), Value::Number(6.0)));
    // Without cached values it starts from empty cells.
    let bare = xlsx::Book::default()
        .sheet("Main", vec![xlsx::formula("A1", "B1+1", None), xlsx::formula("B1", "A1", None)])
        .calc(r#"<calcPr iterate="1" iterateCount="1"/>"#);
    let mut s = session(&bare, "cycle_bare.xlsx");
    s.recalc();
    assert_eq!(get(&s, "A1"), Value::Number(1.0));
}

#[test]
fn shared_and_array_formulas_become_range_and_block_formulas() {
    let shared = |r: &str, f: &str| format!(r#"<c r="{r}">{f}<v>0</v></c>"#);
    let book = xlsx::Book::default().sheet(
        "Main",
        vec![
            xlsx::num("A1", 1.0),
            xlsx::num("A2", 2.0),
            xlsx::num("A3", 3.0),
            // B1:B3 share `A1*10` (the whole range): one range formula.
            shared("B1", r#"<f t="shared" ref="B1:B3" si="0">A1*10</f>"#),
            shared("B2", r#"<f t="shared" si="0"/>"#),
            shared("B3", r#"<f t="shared" si="0"/>"#),
            // C1:C3 declared, C2 overridden: C1 and C3 each get their own.
            shared("C1", r#"<f t="shared" ref="C1:C3" si="1">$A$1+A1</f>"#),
            xlsx::formula("C2", "_xlfn.XLOOKUP(2,A1:A3,A1:A3)", Some(0.0)),
            shared("C3", r#"<f t="shared" si="1"/>"#),
            // D1:E2 = one array formula; D2, E1, E2 hold cached values only.
            r#"<c r="D1"><f t="array" ref="D1:E2">A1:A2*{1,10}</f><v>1</v></c>"#.into(),
            xlsx::num("E1", 10.0),
            xlsx::num("D2", 2.0),
            xlsx::num("E2", 20.0),
        ],
    );
    let mut s = session(&book, "shared.xlsx");
    let wb = s.workbook();
    let shown: Vec<String> = wb.cells.iter().map(|e| wb.sheets.area(e.area)).collect();
    // Cells in the sheet's (row-major) order, then the shared groups.
    assert_eq!(shown, ["Main!A1", "Main!A2", "Main!A3", "Main!D1:E2", "Main!C2", "Main!B1:B3", "Main!C1", "Main!C3"]);
    s.recalc();
    let values: Vec<Value> =
        ["B1", "B2", "B3", "C1", "C2", "C3", "D1", "E1", "D2", "E2"].iter().map(|c| get(&s, c)).collect();
    let n = |v: &[f64]| v.iter().map(|&x| Value::Number(x)).collect::<Vec<_>>();
    assert_eq!(values, n(&[10.0, 20.0, 30.0, 2.0, 2.0, 4.0, 1.0, 10.0, 2.0, 20.0]));
}

/// Names stored A1-relative with wrap-around, used at every sheet edge.
#[test]
fn relative_names_wrap_around_every_sheet_edge() {
    let book = xlsx::Book::default()
        .sheet(
            "Tall",
            vec![
                xlsx::num("A1", 1.0),
                xlsx::num("A2", 2.0),
                xlsx::num("A1048575", 3.0),
                xlsx::num("A1048576", 4.0),
                xlsx::formula("B1", "up_left", None),
                xlsx::formula("B2", "up_left", None),
                xlsx::formula("B1048575", "down_left", None),
                xlsx::formula("B1048576", "down_left", None),
            ],
        )
        .sheet(
            "Wide",
            vec![
                xlsx::num("A1", 1.0),
                xlsx::num("B1", 2.0),
                xlsx::num("XFC1", 3.0),
                xlsx::num("XFD1", 4.0),
                xlsx::formula("A2", "above_left", None),
                xlsx::formula("B2", "above_left", None),
                xlsx::formula("XFC2", "above_right", None),
                xlsx::formula("XFD2", "above_right", None),
            ],
        )
        // Defined at B2 as "the cell up and left" (Tall!A1): A1 + (-1, -1).
        .name("up_left", "Tall!XFD1048576", "")
        // Defined at B1 as "the cell down and left" (Tall!A2): A1 + (+1, -1).
        .name("down_left", "Tall!XFD2", "")
        .name("above_left", "Wide!XFD1048576", "")
        // Defined at A2 as "the cell up and right" (Wide!B1): A1 + (-1, +1).
        .name("above_right", "Wide!B1048576", "");
    let mut s = session(&book, "edges.xlsx");
    let wb = s.workbook();
    let name = |n: &str| {
        let n = wb.name(n).expect("imported");
        (wb.sheets.cell(n.anchor), n.formula.text.clone())
    };
    assert_eq!(name("up_left"), ("Tall!B2".into(), "Tall!A1".into()));
    assert_eq!(name("down_left"), ("Tall!B1".into(), "Tall!A2".into()));
    // A workbook name is anchored on the first sheet (its sheet matters
    // only for references without one).
    assert_eq!(name("above_right"), ("Tall!A2".into(), "Wide!B1".into()));
    s.recalc();
    let n = Value::Number;
    // Row 1 and the last row, column A from column B.
    assert_eq!(get(&s, "Tall!B1"), n(4.0), "up from row 1 wraps to the last row");
    assert_eq!(get(&s, "Tall!B2"), n(1.0));
    assert_eq!(get(&s, "Tall!B1048575"), n(4.0));
    assert_eq!(get(&s, "Tall!B1048576"), n(1.0), "down from the last row wraps to row 1");
    // Column A and column XFD.
    assert_eq!(get(&s, "Wide!A2"), n(4.0), "left of column A wraps to XFD");
    assert_eq!(get(&s, "Wide!B2"), n(1.0));
    assert_eq!(get(&s, "Wide!XFC2"), n(4.0));
    assert_eq!(get(&s, "Wide!XFD2"), n(1.0), "right of XFD wraps to column A");
}

#[test]
fn sheet_local_names_are_imported_when_their_spelling_is_theirs_alone() {
    let book = xlsx::Book::default()
        .sheet("Main", vec![xlsx::num("A1", 7.0), xlsx::formula("B1", "local+hid", None)])
        .sheet("Other", vec![])
        .name("local", "Other!XFD1", r#" localSheetId="1""#)
        .name("hid", "Main!$A$1", r#" hidden="1""#)
        .name("_xlnm.Print_Area", "Main!$A$1:$B$2", r#" localSheetId="0""#)
        .name("_xlnm.Print_Area", "Other!$A$1:$B$2", r#" localSheetId="1""#);
    let mut s = session(&book, "scope.xlsx");
    let wb = s.workbook();
    assert_eq!(wb.names.len(), 2, "built-in names are skipped");
    let local = wb.name("local").expect("imported");
    assert_eq!(wb.sheets.cell(local.anchor), "Other!B1", "anchored on its own sheet");
    assert_eq!(wb.name("hid").and_then(|n| n.comment.as_deref()), Some("hidden in Excel"));
    s.recalc();
    assert_eq!(get(&s, "B1"), Value::Number(7.0));
    let twice = xlsx::Book::default()
        .sheet("Main", vec![])
        .sheet("Other", vec![])
        .name("x", "Main!$A$1", r#" localSheetId="0""#)
        .name("X", "Other!$A$1", r#" localSheetId="1""#);
    let path = twice.write("twice.xlsx");
    // Loaded as Excel loads it; the names dataflow cannot hold are a warning.
    let wb = dataflow::workbook::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        wb.warnings[0].message,
        "the name `x` is defined 2 times (sheet `Main`, sheet `Other`); dataflow has workbook names only, so each name needs its own spelling"
    );
    assert!(wb.name("x").is_none());
}

#[test]
fn broken_files_are_clear_errors_and_unreadable_formulas_warnings() {
    let dir = xlsx::temp_dir("broken");
    let not_zip = dir.join("text.xlsx");
    std::fs::write(&not_zip, "Workbook(sheets: [\"Main\"])").expect("written");
    let out = expect_exit(1, &["check", not_zip.to_str().expect("a path")]);
    assert!(out.stderr.contains("text.xlsx` as an Excel workbook: it is not a zip file"), "{out:?}");
    let good = xlsx::Book::default().sheet("Main", vec![xlsx::num("A1", 1.0)]).bytes();
    let truncated = dir.join("truncated.xlsx");
    std::fs::write(&truncated, &good[..good.len() / 2]).expect("written");
    let out = expect_exit(1, &["run", truncated.to_str().expect("a path")]);
    assert!(out.stderr.contains("truncated.xlsx` as an Excel workbook: it is not a zip file"), "{out:?}");
    let parts: Vec<(String, String)> = xlsx::Book::default()
        .sheet("Main", vec![])
        .parts()
        .into_iter()
        .filter(|(p, _)| p != "xl/workbook.xml")
        .collect();
    let missing = dir.join("missing.xlsx");
    std::fs::write(&missing, xlsx::zip_parts(&parts)).expect("written");
    let out = expect_exit(1, &["check", missing.to_str().expect("a path")]);
    assert!(out.stderr.contains("the part `xl/workbook.xml` is missing"), "{out:?}");

    let bad = xlsx::Book::default()
        .sheet("Main", vec![xlsx::formula("A1", "1+*2", None), xlsx::formula("B7", "NOPE(1)+1", None)])
        .write("bad.xlsx");
    // An Excel file loads as Excel loads it: a formula dataflow cannot read
    // shows #NAME? and is a warning with its place, which `check` lists.
    let path = bad.to_str().expect("a path");
    let out = expect_exit(0, &["check", path]);
    assert!(out.stderr.contains("warning: cannot parse the formula of cell Main!A1"), "{out:?}");
    assert!(out.stderr.contains("Main!A1: =1+*2"), "the listing line names the cell: {out:?}");
    assert!(out.stderr.contains("warning: unknown function `NOPE`"), "{out:?}");
    assert!(out.stdout.contains("2 problems passed over as Excel does"), "{out:?}");
    let out = expect_exit(0, &["run", path, "--show", "Main!A1:B7", "--format", "json"]);
    assert!(out.stderr.contains("in cell Main!B7"), "{out:?}");
    assert_eq!(out.stdout.matches("#NAME?").count(), 2, "{out:?}");
}

#[test]
fn import_writes_a_workbook_that_runs_to_the_same_values() {
    let book = xlsx::ellis::book(GRID2).write("ellis_import.xlsx");
    let out_dir = xlsx::temp_dir("ellis_out");
    let (book, dir) = (book.to_str().expect("a path"), out_dir.to_str().expect("a path"));
    let out = expect_exit(0, &["import", book, "--out", dir]);
    assert!(out.stdout.contains("ellis_import.state.ron"), "{out:?}");
    let dfl = std::fs::read_to_string(out_dir.join("ellis_import.dfl")).expect("written");
    assert!(dfl.contains("name in_cell_from_sol @ Main!A13 = Main!A1\n"), "{dfl}");
    assert!(dfl.contains("name val_bigcell_from_sol @ Main!D16 = INDEX(val_board,ROW(Main!A1)*3-2,"), "{dfl}");
    assert!(dfl.contains("cells Main!P4:AP30 = IF(state=\"reset\",onetonine,"), "{dfl}");
    // Existing files are kept unless --force.
    let again = expect_exit(2, &["import", book, "--out", dir]);
    assert!(again.stderr.contains("exists; --force overwrites it"), "{again:?}");
    expect_exit(0, &["import", book, "--out", dir, "--force"]);

    let show = ["--show", "Main!D16:L24", "--show", "Main!P4:AP30"];
    let direct = expect_exit(0, &[&["run", book][..], &show].concat());
    let ron = out_dir.join("ellis_import.ron");
    let ron = ron.to_str().expect("a path");
    let state = out_dir.join("ellis_import.state.ron");
    let state = state.to_str().expect("a path");
    let from_state = expect_exit(0, &[&["run", ron, "--state", state][..], &show].concat());
    // The same values and iterations; only the time taken differs.
    let untimed = |s: &str| s.rsplit_once("; ").map_or(s.to_string(), |(head, _)| head.to_string());
    assert_eq!(untimed(&from_state.stdout), untimed(&direct.stdout));
    assert!(direct.stdout.contains("converged after 9 iterations"), "{direct:?}");
    assert!(direct.stdout.contains("2 4 5 9 8 1 3 7 6\n1 6 9 2 7 3 5 8 4\n"), "{direct:?}");
    // Without the cached values, from empty cells: the same solution here.
    let fresh = expect_exit(0, &[&["run", ron][..], &show].concat());
    assert!(fresh.stdout.contains("2 4 5 9 8 1 3 7 6\n1 6 9 2 7 3 5 8 4\n"), "{fresh:?}");
}

/// An xlsx written by LibreOffice (our fixture, opened and saved again by
/// `soffice --convert-to xlsx`) imports and runs to the same values.
/// Needs LibreOffice: ignored by default, run by `.ci/run` when `soffice`
/// is there.
#[test]
#[ignore = "needs LibreOffice (soffice on PATH, or LO_SOFFICE)"]
fn an_xlsx_written_by_libreoffice_runs_to_the_same_values() {
    let soffice = std::env::var("LO_SOFFICE").unwrap_or_else(|_| "soffice".into());
    let found = std::process::Command::new(&soffice).arg("--version").output();
    assert!(found.is_ok(), "`{soffice}` is not installed (LibreOffice); set LO_SOFFICE to use another");
    // A convergent cycle (A1 and B1 tend to 10), a shared formula and a
    // relative name ("the cell to the left"), iteration on.
    let book = xlsx::Book::default()
        .sheet(
            "Main",
            vec![
                xlsx::formula("A1", "(B1+10)/2", Some(0.0)),
                xlsx::formula("B1", "A1", Some(0.0)),
                xlsx::num("A3", 1.0),
                xlsx::num("A4", 2.0),
                r#"<c r="B3"><f t="shared" ref="B3:B4" si="0">left*3</f><v>3</v></c>"#.into(),
                r#"<c r="B4"><f t="shared" si="0"/><v>6</v></c>"#.into(),
            ],
        )
        .name("left", "Main!XFD1", "")
        .calc(r#"<calcPr iterate="1" iterateCount="100" iterateDelta="0.001"/>"#);
    let ours = book.write("lo_source.xlsx");
    let out = xlsx::temp_dir("lo_out");
    let profile = xlsx::temp_dir("lo_profile");
    let status = std::process::Command::new(&soffice)
        .arg(format!("-env:UserInstallation=file://{}", profile.display()))
        .args(["--headless", "--convert-to", "xlsx", "--outdir"])
        .arg(&out)
        .arg(&ours)
        .output()
        .expect("soffice runs");
    assert!(status.status.success(), "{status:?}");
    let theirs = out.join("lo_source.xlsx");
    let show = ["--show", "Main!A1:B4"];
    let a = expect_exit(0, &[&["run", ours.to_str().expect("a path")][..], &show].concat());
    let b = expect_exit(0, &[&["run", theirs.to_str().expect("a path")][..], &show].concat());
    let grid = |s: &str| s.lines().take(5).collect::<Vec<_>>().join("\n");
    assert_eq!(grid(&b.stdout), grid(&a.stdout), "LibreOffice's file: {b:?}");
    assert!(a.stdout.contains("9.99"), "{a:?}");
}
