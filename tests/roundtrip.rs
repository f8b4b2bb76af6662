//! Round trips that keep everything (issue 30): a workbook exported as
//! xlsx or ods carries dataflow's own part (inputs, views, reset protocol,
//! the parts that were on, the names' comments), so `run BOOK.xlsx --input
//! puzzle=...` solves as the RON workbook does; `import` gives back the
//! inputs, views and reset protocol, and range formulas rather than one
//! entry per cell; a broken own part is a located error, a newer one is
//! refused by its version, and a file without one loads as before.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod export;

use common::{PE96, PE96_SOLUTIONS, SUDOKU, expect_exit};
use dataflow::workbook::{Workbook, load, load_with};
use export::temp;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// `workbook` exported (with the parts `with` on) to a temporary `name`.
fn exported(workbook: &str, with: &str, name: &str) -> PathBuf {
    let path = temp(name);
    let mut args = vec!["export", workbook, "-o", s(&path), "--force"];
    if !with.is_empty() {
        args.extend(["--with", with]);
    }
    expect_exit(0, &args);
    path
}

/// The digits of the `solution` view `run` prints.
fn solution(out: &str) -> String {
    let view = out.split("solution:\n").nth(1).expect("a solution view");
    let board = view.split("\n\n").next().unwrap_or("");
    board.chars().filter(|c| c.is_ascii_digit() || *c == '.').collect()
}

#[test]
fn the_exported_solver_solves_pe96_puzzles_as_the_ron_workbook() {
    let xlsx = exported(SUDOKU, "", "rt_sudoku.xlsx");
    let ods = exported(SUDOKU, "", "rt_sudoku.ods");
    let puzzles = std::fs::read_to_string(PE96).unwrap();
    let solutions = std::fs::read_to_string(PE96_SOLUTIONS).unwrap();
    for (puzzle, solved) in puzzles.lines().zip(solutions.lines()).take(3) {
        let input = format!("puzzle={puzzle}");
        let ron = expect_exit(0, &["run", SUDOKU, "--input", &input]);
        assert_eq!(solution(&ron.stdout), solved.trim(), "the RON workbook solves {puzzle}");
        for book in [&xlsx, &ods] {
            let out = expect_exit(0, &["run", s(book), "--input", &input]);
            assert_eq!(solution(&out.stdout), solved.trim(), "{} solves {puzzle}", book.display());
            // Every view, the reset line and the iterations are the RON's.
            let shown = |t: &str| t.lines().filter(|l| !l.ends_with(" ms")).collect::<Vec<_>>().join("\n");
            assert_eq!(shown(&out.stdout), shown(&ron.stdout), "{}", book.display());
        }
    }
}

#[test]
fn inputs_views_reset_parts_and_comments_survive_both_formats() {
    let with = ["locked".to_string(), "reasons".to_string()];
    let ron = load_with(Path::new(SUDOKU), &with).unwrap_or_else(|d| panic!("{}", d[0].render(false)));
    for name in ["rt_parts.xlsx", "rt_parts.ods"] {
        let path = exported(SUDOKU, "locked,reasons", name);
        let back = load(&path).unwrap_or_else(|d| panic!("{}", d[0].render(false)));
        assert_eq!(without_origins(&back.inputs), without_origins(&ron.inputs), "{name}");
        assert_eq!(back.views, ron.views, "{name}");
        assert_eq!(back.reset, ron.reset, "{name}");
        let on: Vec<_> = ron.parts.iter().filter(|p| p.on).cloned().collect();
        assert_eq!(on.len(), 2, "locked and reasons are on");
        // Every part, each on or off as it was (the others travel as sources).
        assert_eq!(back.parts, ron.parts, "{name}");
        assert!(back.unknown_parts(&with).is_empty(), "--with locked,reasons is accepted again");
        let comment = |wb: &Workbook| wb.name("sol_reasons").and_then(|n| n.comment.clone());
        assert_eq!(comment(&back), comment(&ron), "{name}");
        assert!(comment(&back).is_some());
    }
}

#[test]
fn import_writes_range_formulas_and_the_own_part_back_into_ron() {
    for name in ["rt_import.xlsx", "rt_import.ods"] {
        let book = exported(SUDOKU, "", name);
        let dir = temp(&format!("{name}.import"));
        expect_exit(0, &["import", s(&book), "--out", s(&dir), "--force"]);
        let stem = name.trim_end_matches(".xlsx").trim_end_matches(".ods");
        let dfl = std::fs::read_to_string(dir.join(format!("{stem}.dfl"))).unwrap();
        let ranges: Vec<&str> = dfl.lines().filter(|l| l.starts_with("cells ")).collect();
        // Ellis's candidates and solution boards: one range formula each,
        // not 729 + 81 one-cell entries.
        assert!(ranges.iter().any(|l| l.starts_with("cells Main!P4:AP30 = ")), "{name}: {dfl}");
        assert!(ranges.iter().any(|l| l.starts_with("cells Main!D16:L24 = ")), "{name}: {dfl}");
        assert_eq!(ranges.len(), 2, "{name}: {dfl}");
        let ron = dir.join(format!("{stem}.ron"));
        let text = std::fs::read_to_string(&ron).unwrap();
        assert!(text.contains("    inputs: {\n        \"puzzle\": (range: \"Main!D4:L12\""), "{text}");
        let reset = "reset: (set: { \"Main!D27\": \"reset\" }, then: { \"Main!D27\": \"solve\" }, reuse: true)";
        assert!(text.contains(reset), "the reset protocol, reuse kept: {text}");
        let input = format!("puzzle={}", common::GRID1);
        let out = expect_exit(0, &["run", s(&ron), "--input", &input]);
        assert_eq!(solution(&out.stdout), common::GRID1_SOLVED, "{name}");
    }
}

/// `book` with its part `part` replaced by `text` (written to `name`).
fn with_part(book: &Path, part: &str, text: &str, name: &str) -> PathBuf {
    let bytes = std::fs::read(book).unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).unwrap();
        let path = f.name().unwrap().to_string();
        let mut data = Vec::new();
        f.read_to_end(&mut data).unwrap();
        out.start_file(path.as_str(), options).unwrap();
        out.write_all(if path == part { text.as_bytes() } else { &data }).unwrap();
    }
    let path = temp(name);
    std::fs::write(&path, out.finish().unwrap().into_inner()).unwrap();
    path
}

fn own_text(book: &Path, part: &str) -> String {
    export::part(&std::fs::read(book).unwrap(), part)
}

#[test]
fn a_broken_own_part_is_a_located_error() {
    for (name, part) in [("rt_broken.xlsx", "customXml/item1.xml"), ("rt_broken.ods", "dataflow.xml")] {
        let book = exported(SUDOKU, "", name);
        let text = own_text(&book, part);
        let line = text.lines().position(|l| l.contains("\"input\": (range:")).expect("the input view") as u32;
        // A range that is no range, on the view's line of the part.
        let broken = with_part(&book, part, &text.replace("\"Main!D4:L12\", group", "\"Main!D4:L1Z\", group"), name);
        let out = expect_exit(1, &["check", s(&broken)]);
        // The RON text starts on the part's second line.
        let at = format!("{}/{part}:{line}:", broken.display());
        assert!(out.stderr.contains(&at), "{name}: {at} in {out:?}");
        assert!(out.stderr.contains("Main!D4:L1Z"), "{out:?}");
        // A comment for a name the workbook lacks, and a newer version.
        let stray = text.replace("comments: {", "comments: {\n        \"nowhere\": \"x\",");
        let out = expect_exit(1, &["check", s(&with_part(&book, part, &stray, name))]);
        assert!(out.stderr.contains("a comment for the name `nowhere`, which the workbook does not define"), "{out:?}");
        let newer = text.replace("version: 2,", "version: 3, future: true,");
        let out = expect_exit(1, &["check", s(&with_part(&book, part, &newer, name))]);
        assert!(
            out.stderr.contains("dataflow's own part is version 3; this dataflow reads versions 1 to 2"),
            "{out:?}"
        );
        let unreadable = text.replace("Dataflow(", "Dataflow(\n    inputs: 3,");
        let out = expect_exit(1, &["check", s(&with_part(&book, part, &unreadable, name))]);
        assert!(out.stderr.contains(&format!("{}/{part}:", broken.display())), "{out:?}");
    }
}

#[test]
fn files_without_the_part_or_with_another_programs_load_as_before() {
    let book = exported("workbooks/circular.ron", "", "rt_plain.xlsx");
    let other = r#"<?xml version="1.0"?><other xmlns="urn:else">Dataflow(version: 9)</other>"#;
    let book = with_part(&book, "customXml/item1.xml", other, "rt_other.xlsx");
    let wb = load(&book).unwrap_or_else(|d| panic!("{}", d[0].render(false)));
    assert!(wb.views.is_empty() && wb.inputs.is_empty() && wb.reset.is_none());
    let excel = load(Path::new("tests/data/excel/nissl-lab-npoi-StDevAndVar.xlsx")).expect("loads");
    assert!(excel.views.is_empty() && excel.parts.is_empty());
}

/// The part is referenced as Excel references custom XML: a relationship
/// from the workbook, its properties' content type, their relationship.
#[test]
fn the_xlsx_part_is_referenced_as_custom_xml() {
    let book = std::fs::read(exported("workbooks/circular.ron", "", "rt_refs.xlsx")).unwrap();
    let rels = export::part(&book, "xl/_rels/workbook.xml.rels");
    assert!(rels.contains(r#"relationships/customXml" Target="../customXml/item1.xml"/>"#), "{rels}");
    let types = export::part(&book, "[Content_Types].xml");
    assert!(types.contains(r#"<Override PartName="/customXml/itemProps1.xml" ContentType="application/vnd.openxmlformats-officedocument.customXmlProperties+xml"/>"#));
    let props = export::part(&book, "customXml/_rels/item1.xml.rels");
    assert!(props.contains(r#"Target="itemProps1.xml""#));
    let item = export::part(&book, "customXml/item1.xml");
    assert!(item.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<dataflow xmlns=\"urn:dataflow:workbook\">\nDataflow(\n    version: 1,\n"), "{item}");
    let ods = std::fs::read(exported("workbooks/circular.ron", "", "rt_refs.ods")).unwrap();
    let manifest = export::part(&ods, "META-INF/manifest.xml");
    assert!(manifest.contains(r#"manifest:full-path="dataflow.xml""#), "{manifest}");
}

/// The inputs with their check formulas' origins (which file, where) left
/// out: the same check read from the RON file or from the own part.
fn without_origins(inputs: &[dataflow::workbook::InputDef]) -> Vec<dataflow::workbook::InputDef> {
    let mut inputs = inputs.to_vec();
    for c in inputs.iter_mut().filter_map(|i| i.check.as_mut()) {
        c.origin = dataflow::workbook::Origin { source: None, offset: 0 };
    }
    inputs
}

/// The views `run` prints, the timing lines left out.
fn shown(t: &str) -> String {
    t.lines().filter(|l| !l.ends_with(" ms")).collect::<Vec<_>>().join("\n")
}

/// Parts that were off when the file was exported travel as the sources
/// they come from: `--with` turns them on, composing the workbook as the
/// RON workbook with those parts (every view and iteration the same), and
/// says that the sheets as saved are not what runs then.
#[test]
fn parts_that_were_off_are_turned_on_from_the_carried_sources() {
    let input = format!("puzzle=@{PE96}:3");
    for name in ["rt_off.xlsx", "rt_off.ods"] {
        let book = exported(SUDOKU, "", name);
        for with in ["locked", "all"] {
            let ron = expect_exit(0, &["run", SUDOKU, "--with", with, "--input", &input]);
            let out = expect_exit(0, &["run", s(&book), "--with", with, "--input", &input]);
            assert_eq!(shown(&out.stdout), shown(&ron.stdout), "{name} --with {with}");
            assert!(out.stderr.contains("composes the workbook from the workbook and formula files the file carries"));
        }
        // Exported again (to the other format), the sources travel on.
        let again = temp(&format!("{name}.again.ods"));
        expect_exit(0, &["export", s(&book), "-o", s(&again), "--force"]);
        let out = expect_exit(0, &["run", s(&again), "--with", "locked", "--input", &input]);
        let ron = expect_exit(0, &["run", SUDOKU, "--with", "locked", "--input", &input]);
        assert_eq!(shown(&out.stdout), shown(&ron.stdout), "{name} exported again");
    }
}

/// A part listed off in a file that carries no sources (a hand-edited or
/// older part) cannot be turned on: a clear error. Carried paths that
/// leave their folder, and a root that is not among them, are located
/// errors in the part.
#[test]
fn carried_sources_are_checked() {
    let (name, part) = ("rt_sources.xlsx", "customXml/item1.xml");
    let book = exported(SUDOKU, "", name);
    let text = own_text(&book, part);
    let cut = text.find("    sources: (").expect("the sources");
    let without = format!("{})\n</dataflow>\n", &text[..cut]).replace("version: 2,", "version: 1,");
    // Cut short without its closing tag, the part is an error, not absent.
    let out = expect_exit(1, &["run", s(&with_part(&book, part, &text[..cut], name))]);
    assert!(out.stderr.contains("its `<dataflow>` element is not closed"), "{out:?}");
    let out = expect_exit(1, &["run", s(&with_part(&book, part, &without, name)), "--with", "locked"]);
    assert!(out.stderr.contains("carries no sources to turn them on"), "{out:?}");
    let outside = text.replacen("\"formulas/", "\"../formulas/", 1);
    let out = expect_exit(1, &["check", s(&with_part(&book, part, &outside, name))]);
    assert!(out.stderr.contains("is not a path inside the files' folder"), "{out:?}");
    let rootless = text.replace("root: \"workbooks/sudoku.ron\"", "root: \"elsewhere.ron\"");
    let out = expect_exit(1, &["check", s(&with_part(&book, part, &rootless, name))]);
    assert!(out.stderr.contains("the root `elsewhere.ron` is not one of the carried files"), "{out:?}");
    assert!(out.stderr.contains(&format!("{}/{part}:", book.with_file_name(name).display())), "{out:?}");
}

/// `import` writes the carried sources as they were: the original
/// workbook runs with its parts from there.
#[test]
fn import_writes_the_carried_sources() {
    let book = exported(SUDOKU, "", "rt_carried.xlsx");
    let dir = temp("rt_carried.import");
    let out = expect_exit(0, &["import", s(&book), "--out", s(&dir), "--force"]);
    let root = dir.join("rt_carried.sources/workbooks/sudoku.ron");
    assert!(out.stdout.contains(&format!("`dataflow run {} --with PART`", root.display())), "{out:?}");
    assert_eq!(std::fs::read_to_string(&root).unwrap(), std::fs::read_to_string(SUDOKU).unwrap());
    let input = format!("puzzle=@{PE96}:3");
    let ours = expect_exit(0, &["run", s(&root), "--with", "locked", "--input", &input]);
    let ron = expect_exit(0, &["run", SUDOKU, "--with", "locked", "--input", &input]);
    assert_eq!(shown(&ours.stdout), shown(&ron.stdout));
}
