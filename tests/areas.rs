//! Areas given by workbook names (issue 11, item 1): `cells` keys, formula
//! files' `cells` targets, inputs' and views' ranges, reset keys and parts'
//! views may name a name whose formula is a constant reference; a name
//! that is not one is a located error saying why; a literal range that
//! starts where a named area starts but differs from it is a located error
//! naming both places (fixtures in `tests/data/areas/`).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::bad_input::render_all;
use dataflow::address::Area;
use dataflow::diagnostic::Diagnostic;
use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::{Content, Workbook, load, load_with};
use std::path::Path;

const DIR: &str = "tests/data/areas";

fn errors(name: &str) -> Vec<Diagnostic> {
    match load(&Path::new(DIR).join(name)) {
        Ok(_) => panic!("{name} loaded without errors"),
        Err(e) => e.diagnostics,
    }
}

fn named() -> Workbook {
    load_with(&Path::new(DIR).join("named.ron"), &["extra".to_string()])
        .unwrap_or_else(|d| panic!("{}", render_all(&d)))
}

#[test]
fn every_place_that_takes_an_area_takes_a_name() {
    let wb = named();
    let board = Area::new(0, 1, 1, 3, 3);
    let state = Area::new(0, 1, 5, 1, 5);
    // `cells` keys: `state` (Main!F2) and `corner` (unqualified: the
    // anchor's sheet, Other!H2).
    assert_eq!(wb.cells[0].area, state);
    assert_eq!(wb.cells[0].content, Content::Constant(Value::text("solve")));
    assert_eq!(wb.cells[1].area, Area::new(1, 1, 7, 1, 7));
    // A formula file's `cells` target.
    assert_eq!(wb.cells[2].area, Area::new(1, 1, 1, 3, 3));
    assert_eq!(wb.input("puzzle").unwrap().area, board);
    // Names are case-insensitive, as everywhere.
    assert_eq!(wb.view("board").unwrap().area, board);
    assert_eq!(wb.view("twice").unwrap().area, Area::new(1, 1, 1, 3, 3));
    // A part's view.
    assert_eq!(wb.view("state").unwrap().area, state);
    let reset = wb.reset.as_ref().unwrap();
    assert_eq!(reset.set, [(state.top_left(), Value::text("reset"))]);
    assert_eq!(reset.then, [(state.top_left(), Value::text("solve"))]);
}

#[test]
fn named_areas_run() {
    let mut s = Session::new(named()).unwrap_or_else(|d| panic!("{}", render_all(&d)));
    s.recalc();
    let twice = s.read(&Area::new(1, 1, 1, 3, 3));
    let n = |x: f64| Value::Number(x);
    assert_eq!(twice[0], [n(2.0), n(0.0), n(6.0)]);
    assert_eq!(twice[2], [n(14.0), n(0.0), n(18.0)]);
}

#[test]
fn names_that_are_not_constant_references() {
    let diags = errors("bad_names.ron");
    insta::assert_snapshot!("not_constant_references", render_all(&diags));
    assert_eq!(diags.len(), 6, "{}", render_all(&diags));
}

#[test]
fn a_literal_range_that_disagrees_with_a_name() {
    let diags = errors("mismatch.ron");
    insta::assert_snapshot!("disagreeing_ranges", render_all(&diags));
    let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`Main!B2:D3` starts where the name `box` starts but is not its area (Main!B2:D4)",
            "`Main!W4:CH66` starts where the name `val_board` starts but is not its area (Main!W4:CH67)",
        ]
    );
}

#[test]
fn the_shipped_workbooks_agree_with_their_names() {
    for wb in ["workbooks/sudoku.ron", "workbooks/arrays.ron", "workbooks/circular.ron"] {
        load_with(Path::new(wb), &["all".to_string()]).unwrap_or_else(|d| panic!("{wb}:\n{}", render_all(&d)));
    }
}
