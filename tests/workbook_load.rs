//! Loading workbooks (`.ron`) and the formula files they include (`.dfl`):
//! the model built from a complete example, the defaults, where formulas
//! sit in their files, and every kind of problem reported as a located,
//! rendered diagnostic (snapshots in `tests/snapshots/`).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::address::{Area, CellAddr};
use dataflow::ast::{BinaryOp, ExprKind};
use dataflow::diagnostic::Diagnostic;
use dataflow::value::{ErrorKind, Value};
use dataflow::workbook::{
    CalcSettings, Content, DEFAULT_MAX_CHANGE, DEFAULT_MAX_ITERATIONS, Formula, Order, Workbook, load, parse_cell_ref,
    parse_input_value,
};
use std::path::Path;

const DIR: &str = "tests/data/load";

fn fixture(name: &str) -> Result<Workbook, dataflow::LoadError> {
    load(&Path::new(DIR).join(name))
}

fn good() -> Workbook {
    match fixture("good.ron") {
        Ok(wb) => wb,
        Err(diags) => panic!("{}", render_all(&diags)),
    }
}

/// Every diagnostic rendered without color, trailing blanks removed.
fn render_all(diags: &[Diagnostic]) -> String {
    let text: Vec<String> = diags.iter().map(|d| d.render(false)).collect();
    text.join("\n").lines().map(str::trim_end).collect::<Vec<_>>().join("\n")
}

fn errors(name: &str) -> Vec<Diagnostic> {
    match fixture(name) {
        Ok(_) => panic!("{name} loaded without errors"),
        Err(e) => e.diagnostics,
    }
}

fn content<'a>(wb: &'a Workbook, a1: &str) -> &'a Content {
    let area = parse_cell_ref(a1, &wb.sheets, 0).unwrap();
    &wb.cells.iter().find(|c| c.area == area).unwrap_or_else(|| panic!("no entry for {a1}")).content
}

fn constant(wb: &Workbook, a1: &str) -> Value {
    match content(wb, a1) {
        Content::Constant(v) => v.clone(),
        c => panic!("{a1} is the formula {}", c.formula().unwrap().text),
    }
}

fn formula<'a>(wb: &'a Workbook, a1: &str) -> &'a Formula {
    match content(wb, a1) {
        Content::Formula(f) => f,
        c => panic!("{a1} is not a plain formula: {c:?}"),
    }
}

#[test]
fn loads_a_complete_workbook() {
    let wb = good();
    assert_eq!(wb.sheets, ["Main", "Other Sheet"]);
    assert_eq!(
        wb.calc,
        CalcSettings {
            iterate: true,
            max_iterations: 50,
            max_change: 0.01,
            order: Order::Synchronous,
            ..CalcSettings::default()
        }
    );
    assert_eq!(wb.sources.len(), 2);
    assert_eq!(wb.sources[0].path, Path::new("tests/data/load/good.ron"));
    assert_eq!(wb.sources[1].path, Path::new("tests/data/load/good.dfl"));

    // Constants of every kind.
    assert_eq!(constant(&wb, "Main!A1"), Value::Number(5.0));
    assert_eq!(constant(&wb, "Main!A2"), Value::Number(2.5));
    assert_eq!(constant(&wb, "Main!A3"), Value::Number(-3.0));
    assert_eq!(constant(&wb, "Main!B1"), Value::Bool(true));
    assert_eq!(constant(&wb, "Main!B2"), Value::text("solve"));
    assert_eq!(constant(&wb, "Main!B3"), Value::text("=not a formula"));
    assert_eq!(constant(&wb, "Main!B4"), Value::Error(ErrorKind::NA));
    assert_eq!(constant(&wb, "Main!B5"), Value::Empty);
    assert_eq!(constant(&wb, "'Other Sheet'!A1:B2"), Value::Number(7.0));

    // Formulas, with the `=` as part of their text; an unqualified key is on the first sheet.
    let c1 = formula(&wb, "Main!C1");
    assert_eq!(c1.text, "=A1*2");
    assert!(matches!(c1.expr.kind, ExprKind::Binary { op: BinaryOp::Mul, .. }), "{:?}", c1.expr);
    assert_eq!(formula(&wb, "Main!C2").text, r#"=IF(B2="solve",1,2)"#);
    assert_eq!(formula(&wb, "Main!C3").text, r#"=IF(B2="solve",1,2)"#);
    assert_eq!(formula(&wb, "Main!D3").text, "=SUM(A1:B2)");
    // A formula over a range, from the workbook file and from the included file.
    assert_eq!(formula(&wb, "Main!P4:R6").text, "=ROW(A1)");
    let e1 = formula(&wb, "Main!E1:F3");
    assert!(e1.text.starts_with("IF(state=\"reset\", onetonine,\n       IF("), "{}", e1.text);
    assert!(e1.text.ends_with("#N/A))"), "{}", e1.text);
    // File order: the workbook's own cells, then the included file's.
    let areas: Vec<String> = wb.cells.iter().map(|c| c.area.to_string()).collect();
    assert_eq!(
        areas,
        ["A1", "A2", "A3", "B1", "B2", "B3", "B4", "B5", "C1", "C2", "C3", "A1:B2", "D3", "P4:R6", "E1:F3"]
    );
    assert_eq!(wb.cells[11].area.sheet, 1);

    // Names: the workbook's, then the included file's; anchors default to A1 of the first sheet.
    let names: Vec<&str> = wb.names.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(names, ["board", "Left", "onetonine", "in_cell_from_sol", "state"]);
    let board = wb.name("BOARD").unwrap();
    assert_eq!(board.anchor, CellAddr::new(0, 0, 0));
    assert_eq!(board.formula.text, "=Main!$D$4:$L$12");
    let left = wb.name("left").unwrap();
    assert_eq!(left.anchor, CellAddr::new(0, 0, 1));
    assert_eq!(left.comment.as_deref(), Some("the cell to the left"));
    let one = wb.name("onetonine").unwrap();
    assert_eq!(one.formula.text, "MOD(COLUMN(A1)-1,3)+1+MOD(ROW(A1)-1,3)*3");
    assert_eq!(one.comment.as_deref(), Some("1..9 laid out in every 3x3 block.\nA second line of description."));
    let in_cell = wb.name("in_cell_from_sol").unwrap();
    assert_eq!(in_cell.anchor, CellAddr::new(0, 15, 3));
    assert_eq!(in_cell.comment, None);
    assert_eq!(wb.name("state").unwrap().comment.as_deref(), Some("The state cell."));

    // Inputs (blanks default to ".0"), views, reset.
    let puzzle = wb.input("puzzle").unwrap();
    assert_eq!(
        (puzzle.area, puzzle.alphabet.as_str(), puzzle.blanks.as_str()),
        (Area::new(0, 3, 3, 11, 11), "123456789", ".0")
    );
    let word = wb.input("word").unwrap();
    assert_eq!((word.area, word.alphabet.as_str(), word.blanks.as_str()), (Area::new(0, 19, 0, 19, 4), "abc", ".0"));
    assert_eq!(wb.views.len(), 2);
    assert_eq!(
        (wb.views[0].name.as_str(), wb.views[0].area, wb.views[0].group),
        ("input", Area::new(0, 3, 3, 11, 11), None)
    );
    assert_eq!(wb.view("candidates").unwrap().group, Some((3, 3)));
    assert_eq!(wb.view("candidates").unwrap().area, Area::new(0, 3, 15, 29, 41));
    let reset = wb.reset.as_ref().unwrap();
    assert_eq!(reset.set, [(CellAddr::new(0, 26, 3), Value::text("reset"))]);
    assert_eq!(
        reset.then,
        [(CellAddr::new(0, 26, 3), Value::text("solve")), (CellAddr::new(0, 27, 3), Value::Number(1.0))]
    );
}

#[test]
fn defaults() {
    let wb = fixture("defaults.ron").unwrap();
    assert_eq!(wb.calc, CalcSettings::default());
    assert_eq!(
        wb.calc,
        CalcSettings {
            iterate: false,
            max_iterations: DEFAULT_MAX_ITERATIONS,
            max_change: DEFAULT_MAX_CHANGE,
            order: Order::RowMajor,
            ..CalcSettings::default()
        }
    );
    assert_eq!((DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_CHANGE), (100, 0.001));
    assert!(wb.cells.is_empty() && wb.names.is_empty() && wb.inputs.is_empty() && wb.views.is_empty());
    assert_eq!(wb.reset, None);
    assert_eq!(wb.sources.len(), 1);
}

#[test]
fn formulas_know_where_they_are() {
    let wb = good();
    let all = wb.cells.iter().filter_map(|c| c.content.formula());
    for f in all.chain(wb.names.iter().map(|n| &n.formula)) {
        let src = f.origin.source.as_ref().unwrap();
        if f.text.contains('"') && src.path.extension().unwrap() == "ron" {
            continue; // written with escapes or as a raw string: checked below
        }
        assert_eq!(&src.text[f.origin.offset..f.origin.offset + f.text.len()], f.text);
        let d = f.diagnostic(f.expr.span.clone(), "whole formula", "here");
        assert_eq!(d.span, f.origin.offset + f.expr.span.start..f.origin.offset + f.expr.span.end);
    }
    // The `*` of `=A1*2` (line 15 of good.ron).
    let c1 = formula(&wb, "Main!C1");
    assert_eq!(c1.diagnostic(3..4, "m", "l").line_col(), Some((15, 24)));
    // The `1` after `"solve",`, in a raw string and through `\"` escapes.
    let at = r#"=IF(B2="solve","#.len();
    assert_eq!(formula(&wb, "Main!C2").diagnostic(at..at + 1, "m", "l").line_col(), Some((16, 38)));
    let c3 = formula(&wb, "Main!C3").diagnostic(at..at + 1, "m", "l");
    assert_eq!(c3.line_col(), Some((17, 38)));
    assert_eq!(&c3.file.as_ref().unwrap().text[c3.span.clone()], "1");
    // A formula over several lines of the included file.
    let e1 = formula(&wb, "Main!E1:F3");
    let na = e1.text.find("#N/A").unwrap();
    assert_eq!(e1.diagnostic(na..na + 4, "m", "l").line_col(), Some((16, 31)));
}

#[test]
fn loads_from_text_with_a_base_directory() {
    let text = r#"Workbook(sheets: ["Main"], include: ["good.dfl"], cells: { "A1": "=state" })"#;
    let wb = Workbook::from_str(text, Path::new("inline.ron"), Path::new(DIR)).unwrap();
    assert_eq!(wb.sources[0].path, Path::new("inline.ron"));
    assert_eq!(wb.sources[1].path, Path::new("tests/data/load/good.dfl"));
    assert_eq!(wb.names.len(), 3);
    let text = r#"Workbook(sheets: ["Main"], include: ["good.dfl"])"#;
    let diags = Workbook::from_str(text, Path::new("inline.ron"), Path::new("nowhere")).unwrap_err();
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].message, "cannot read the included file `nowhere/good.dfl`");
    assert_eq!(diags[0].line_col(), Some((1, 39)));
}

#[test]
fn cell_refs_and_input_values() {
    let sheets = vec!["Main".to_string(), "My Sheet".to_string()];
    assert_eq!(parse_cell_ref("Main!D27", &sheets, 1), Ok(Area::new(0, 26, 3, 26, 3)));
    assert_eq!(parse_cell_ref("Main!D16:L24", &sheets, 1), Ok(Area::new(0, 15, 3, 23, 11)));
    assert_eq!(parse_cell_ref("B2", &sheets, 1), Ok(Area::new(1, 1, 1, 1, 1)));
    assert_eq!(parse_cell_ref("'My Sheet'!A1", &sheets, 0), Ok(Area::new(1, 0, 0, 0, 0)));
    assert!(parse_cell_ref("Other!A1", &sheets, 0).unwrap_err().to_string().contains("unknown sheet"));
    assert!(parse_cell_ref("Main!1A", &sheets, 0).is_err());
    assert_eq!(parse_input_value("solve"), Value::text("solve"));
    assert_eq!(parse_input_value("4"), Value::Number(4.0));
    assert_eq!(parse_input_value("FALSE"), Value::Bool(false));
    assert_eq!(parse_input_value("#DIV/0!"), Value::Error(ErrorKind::Div0));
    assert_eq!("synchronous".parse::<Order>(), Ok(Order::Synchronous));
    assert_eq!("row-major".parse::<Order>(), Ok(Order::RowMajor));
    assert!("diagonal".parse::<Order>().is_err());
}

/// One snapshot per kind of problem: the rendered report says what, where
/// (file:line:col) and shows the caret.
macro_rules! error_snapshot {
    ($test:ident, $file:literal, $count:expr) => {
        #[test]
        fn $test() {
            let diags = errors($file);
            assert_eq!(diags.len(), $count, "{}", render_all(&diags));
            insta::assert_snapshot!(stringify!($test), render_all(&diags));
        }
    };
}

error_snapshot!(malformed_ron_missing_comma, "missing_comma.ron", 1);
error_snapshot!(malformed_ron_unclosed_paren, "unclosed_paren.ron", 1);
error_snapshot!(malformed_ron_unclosed_calc, "unclosed_calc.ron", 1);
error_snapshot!(unknown_field, "unknown_field.ron", 1);
error_snapshot!(missing_include, "missing_include.ron", 1);
error_snapshot!(bad_cell_key, "bad_cell_key.ron", 1);
error_snapshot!(unknown_sheet, "unknown_sheet.ron", 1);
error_snapshot!(formula_error_in_ron, "formula_error.ron", 1);
error_snapshot!(formula_error_in_dfl, "dfl_formula_error.ron", 1);
error_snapshot!(duplicate_name, "duplicate_name.ron", 1);
error_snapshot!(missing_equals, "missing_eq.ron", 1);

#[test]
fn many_errors_are_all_reported() {
    let diags = errors("many_errors.ron");
    let places: Vec<String> = diags
        .iter()
        .map(|d| {
            let (line, col) = d.line_col().unwrap();
            format!(
                "{}:{line}:{col} {}",
                d.file.as_ref().unwrap().path.file_name().unwrap().to_string_lossy(),
                d.message
            )
        })
        .collect();
    insta::assert_snapshot!("many_errors_list", places.join("\n"));
    insta::assert_snapshot!("many_errors", render_all(&diags));
}

#[test]
fn missing_workbook_file() {
    let diags = fixture("no_such_workbook.ron").unwrap_err();
    assert_eq!(diags.len(), 1);
    assert!(diags[0].file.is_none());
    assert!(
        diags[0]
            .render(false)
            .starts_with("error: cannot read the workbook file `tests/data/load/no_such_workbook.ron`")
    );
}

/// Cut the files anywhere: the loader reports problems, it never panics.
#[test]
fn never_panics_on_truncated_files() {
    let ron = std::fs::read_to_string(Path::new(DIR).join("good.ron")).unwrap();
    for (i, _) in ron.char_indices() {
        if let Err(diags) = Workbook::from_str(&ron[..i], Path::new("cut.ron"), Path::new(DIR)) {
            assert!(!diags.is_empty());
            for d in diags {
                let _ = d.render(false);
            }
        }
    }
    let dfl = std::fs::read_to_string(Path::new(DIR).join("good.dfl")).unwrap();
    let dir = std::env::temp_dir().join(format!("dataflow-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = r#"Workbook(sheets: ["Main"], include: ["cut.dfl"])"#;
    for (i, _) in dfl.char_indices() {
        std::fs::write(dir.join("cut.dfl"), &dfl[..i]).unwrap();
        if let Err(diags) = Workbook::from_str(text, Path::new("cut.ron"), &dir) {
            for d in diags {
                let _ = d.render(false);
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The project's showcase workbook loads cleanly.
#[test]
fn loads_the_sudoku_workbook() {
    let wb = load(Path::new("workbooks/sudoku.ron")).unwrap_or_else(|diags| panic!("{}", render_all(&diags)));
    assert!(wb.calc.iterate);
    assert!(wb.name("onetonine").is_some() && wb.name("single_sol_in_rcb").is_some());
    assert!(wb.input("puzzle").is_some() && wb.reset.is_some());
}
