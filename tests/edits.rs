//! Live edits of a loaded session: formulas set and cleared in one cell or
//! over a range, names defined and changed, constants typed over formulas.
//! An edit gives what a fresh load of the edited workbook gives, value for
//! value and evaluation for evaluation; only what depends on it is bound
//! again; a formula that does not bind is a located error that leaves the
//! session as it was; every edit can be undone and redone.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::address::Area;
use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::Workbook;
use dataflow::workbook::files::MemoryFiles;
use dataflow::{Error, LoadError};

/// A one-sheet workbook: the RON `cells` given, iteration on, and a formula
/// file `f.dfl`.
fn book(cells: &str, dfl: &str) -> Session {
    let ron = format!(r#"(sheets: ["Main"], calc: (iterate: true), include: ["f.dfl"], cells: {{ {cells} }})"#);
    let files = MemoryFiles::new().with("f.dfl", dfl);
    Session::new(Workbook::from_memory(&ron, &files, &[]).unwrap()).unwrap()
}

fn at(s: &Session, a: &str) -> Area {
    s.area(a).unwrap()
}

fn value(s: &Session, a: &str) -> Value {
    s.engine().get(at(s, a).top_left()).clone()
}

fn n(x: f64) -> Value {
    Value::Number(x)
}

/// The edited session and a fresh one over its workbook, each run with
/// `run`, end with the same reports and the same values in every cell of
/// `area`. (For a session calculated before the edit, the reports differ:
/// it calculates only what the edit touched.) With dynamic reads off both
/// evaluate the same cells; with them on (as `s` goes on), what each
/// evaluates follows what its formulas last read, which the edit forgot,
/// so only the counts of cells evaluated may differ.
fn same_as_fresh(s: &mut Session, area: &str, run: impl Fn(&mut Session) -> Vec<String>) {
    let (mut edited, mut fresh) = (s.clone(), Session::new(s.workbook().clone()).unwrap());
    for x in [&mut edited, &mut fresh] {
        x.engine_mut().set_dynamic_reads(false);
    }
    assert_eq!(run(&mut edited), run(&mut fresh), "the reports");
    same_values(&edited, &fresh, area);
    let mut fresh = Session::new(s.workbook().clone()).unwrap();
    let uncounted = |reports: Vec<String>| -> Vec<String> {
        reports
            .iter()
            .map(|r| r.split(", evaluated: ").map(|p| p.trim_start_matches(char::is_numeric)).collect())
            .collect()
    };
    assert_eq!(uncounted(run(s)), uncounted(run(&mut fresh)), "the reports but the counts");
    same_values(s, &fresh, area);
}

fn same_values(s: &Session, fresh: &Session, area: &str) {
    let a = at(s, area);
    for c in a.cells() {
        let (x, y) = (s.engine().get(c), fresh.engine().get(c));
        let same = match (x, y) {
            (Value::Number(p), Value::Number(q)) => p.to_bits() == q.to_bits(),
            _ => x == y,
        };
        assert!(same, "{}: {x:?} after the edit, {y:?} on a fresh load", s.engine().program().cell_name(c));
    }
}

fn recalc(s: &mut Session) -> Vec<String> {
    vec![format!("{:?}", s.recalc())]
}

#[test]
fn a_formula_set_in_one_cell_is_calculated_and_undone() {
    let mut s = book(r#""Main!A1": 2"#, "cells Main!B1 = A1*2\ncells Main!C1 = B1+1\n");
    s.recalc();
    assert_eq!(value(&s, "C1"), n(5.0));
    let undo = s.set_formula(at(&s, "B1"), "=A1*10").unwrap();
    let report = s.recalc();
    assert_eq!((value(&s, "B1"), value(&s, "C1")), (n(20.0), n(21.0)));
    assert_eq!(report.evaluated, 2, "B1 and its reader C1, nothing else");
    // Undo puts back the formula and the cell's value; what the
    // recalculation since changed is calculated again; redo the edit.
    let redo = s.undo_edit(undo);
    assert_eq!(value(&s, "B1"), n(4.0));
    s.recalc();
    assert_eq!((value(&s, "B1"), value(&s, "C1")), (n(4.0), n(5.0)));
    assert_eq!(s.workbook().cells.iter().filter(|e| e.content.formula().is_some()).count(), 2);
    s.undo_edit(redo);
    s.recalc();
    assert_eq!((value(&s, "B1"), value(&s, "C1")), (n(20.0), n(21.0)));
    // A constant typed over a formula replaces it, as in Excel.
    s.enter(at(&s, "B1"), "7").unwrap();
    s.recalc();
    assert_eq!(value(&s, "C1"), n(8.0));
    assert!(s.engine().program().formula_at(at(&s, "B1").top_left()).is_none());
    // And clearing it empties it.
    s.clear(at(&s, "B1")).unwrap();
    s.recalc();
    assert_eq!((value(&s, "B1"), value(&s, "C1")), (Value::Empty, n(1.0)));
}

#[test]
fn an_edit_inside_a_range_formula_leaves_its_other_cells_as_they_were() {
    let mut s = book(
        r#""Main!A1": 1, "Main!A2": 2, "Main!A3": 3, "Main!A4": 4, "Main!A5": 5"#,
        "cells Main!B1:C5 = $A1*10+COLUMN()\n",
    );
    s.set_formula(at(&s, "B3"), "=-1").unwrap();
    same_as_fresh(&mut s, "A1:D6", recalc);
    let b: Vec<Value> = (1..=5).map(|r| value(&s, &format!("B{r}"))).collect();
    assert_eq!(b, [n(12.0), n(22.0), n(-1.0), n(42.0), n(52.0)]);
    assert_eq!(value(&s, "C3"), n(33.0));
    // The pieces keep the range's anchor: written as a fresh load reads them.
    let pieces: Vec<String> = s.workbook().cells.iter().map(|e| s.workbook().sheets.area(e.area)).collect();
    assert!(pieces.contains(&"Main!B4:C5".to_string()), "{pieces:?}");
    // Over a whole range at once, Ctrl+Enter: relative to its top-left.
    s.set_formula(at(&s, "D1:D5"), "=A1+100").unwrap();
    s.recalc();
    assert_eq!(value(&s, "D5"), n(105.0));
}

#[test]
fn array_formulas_are_edited_whole() {
    let mut s = book(r#""Main!A1": 1, "Main!A2": 2, "Main!A3": 3"#, "cells Main!B1:B3 = {=A1:A3*2}\n");
    s.recalc();
    let e = s.set_formula(at(&s, "B2"), "=1").unwrap_err();
    assert_eq!(e.to_string(), "Main!B2 cuts the array formula over Main!B1:B3, which is edited as a whole");
    s.set_formula(at(&s, "B1:B3"), "{=A1:A3*3}").unwrap();
    s.recalc();
    assert_eq!(value(&s, "B3"), n(9.0));
    s.clear(at(&s, "A1:B3")).unwrap();
    s.recalc();
    assert_eq!(value(&s, "B3"), Value::Empty);
}

#[test]
fn a_name_changed_rebinds_every_cell_using_it_through_other_names() {
    let mut s = book(
        r#""Main!A1": 3"#,
        "name rate = 2\nname twice = $A1*rate\ncells Main!B1:B2 = twice+1\ncells Main!C1 = A1\n",
    );
    s.recalc();
    assert_eq!(value(&s, "B1"), n(7.0));
    s.define_name("RATE", "=10", None).unwrap();
    let report = s.recalc();
    assert_eq!((value(&s, "B1"), value(&s, "B2")), (n(31.0), n(1.0)), "B2's twice reads A2");
    assert_eq!(report.evaluated, 2, "B1:B2 only: C1 uses no name");
    assert_eq!(s.workbook().name("rate").unwrap().name, "rate", "the name keeps its spelling");
    // A new name, then a cell using it.
    s.define_name("bonus", "=100", None).unwrap();
    s.set_formula(at(&s, "C1"), "=A1+bonus").unwrap();
    s.recalc();
    assert_eq!(value(&s, "C1"), n(103.0));
    let mut fresh = Session::new(s.workbook().clone()).unwrap();
    fresh.recalc();
    same_values(&s, &fresh, "A1:C3");
}

#[test]
fn a_cycle_made_by_an_edit_is_found_and_one_broken_is_gone() {
    let mut s = book(r#""Main!A1": 1"#, "cells Main!B1 = A1+1\ncells Main!C1 = B1/2\n");
    assert_eq!(s.engine().program().cycles().count(), 0);
    s.set_formula(at(&s, "A1"), "=C1+1").unwrap();
    assert_eq!(s.engine().program().cycles().count(), 1);
    let report = s.recalc();
    assert!(report.converged && report.iterations > 1, "{report:?}");
    // A1 = (A1+1)/2 + 1 converges to 3.
    assert!((value(&s, "A1").to_number().unwrap() - 3.0).abs() < 0.01);
    s.enter(at(&s, "A1"), "1").unwrap();
    assert_eq!(s.engine().program().cycles().count(), 0);
    s.recalc();
    assert_eq!(value(&s, "C1"), n(1.0));
}

#[test]
fn a_formula_that_does_not_bind_or_parse_is_a_located_error_and_changes_nothing() {
    let mut s = book(r#""Main!A1": 2"#, "cells Main!B1 = A1*2\n");
    s.recalc();
    let before = s.workbook().clone();
    let e = s.set_formula(at(&s, "B1"), "=A1+nowhere").unwrap_err();
    let Error::Load(LoadError { diagnostics }) = &e else { panic!("{e:?}") };
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].location().as_deref(), Some("Main!B1:1:5"), "{e}");
    assert!(diagnostics[0].message.contains("nowhere"), "{e}");
    assert_eq!(diagnostics[0].cell.as_deref(), Some("Main!B1"));
    let e = s.set_formula(at(&s, "B1"), "=A1+").unwrap_err();
    assert!(e.to_string().contains("Main!B1:1:4"), "{e}");
    let e = s.set_formula(at(&s, "B1"), "=SUM(A1,").unwrap_err();
    assert!(matches!(e, Error::Load(_)), "{e:?}");
    let e = s.define_name("loop", "=loop+1", None).unwrap_err();
    assert!(e.to_string().contains("loop"), "{e}");
    let e = s.define_name("A1", "=1", None).unwrap_err();
    assert!(e.to_string().contains("the name `A1`"), "{e}");
    assert_eq!(*s.workbook(), before);
    assert_eq!(s.recalc().evaluated, 0);
    assert_eq!(value(&s, "B1"), n(4.0));
}

#[test]
fn an_edit_of_the_ellis_workbook_gives_what_a_fresh_load_gives() {
    let puzzle = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let solve = |s: &mut Session| {
        s.set_input("puzzle", puzzle).unwrap();
        let reset = s.reset().unwrap();
        vec![format!("{reset:?}"), format!("{:?}", s.recalc())]
    };
    // One valid-values cell changed: the rest of the range keeps its formula.
    let mut s = Session::load("workbooks/sudoku.ron".as_ref()).unwrap();
    let undo = s.set_formula(at(&s, "Main!Q5"), "=IF(state=\"reset\",onetonine,\"\")").unwrap();
    assert_eq!(undo.rebound(), 1, "Q5 alone is bound again");
    assert!(undo.in_place(), "a formula replaced by a formula");
    same_as_fresh(&mut s, "Main!A1:AP40", solve);
    // A name changed: every valid-values cell is bound again.
    let mut s = Session::load("workbooks/sudoku.ron".as_ref()).unwrap();
    let sol = s.workbook().name("solution_in_rcb").unwrap().formula.text.clone();
    let swapped = sol.replacen("COUNTIF(sol_row_from_val, onetonine)>0", "COUNTIF(sol_row_from_val, onetonine)>=1", 1);
    assert_ne!(swapped, sol, "the name's text as written");
    let undo = s.define_name("solution_in_rcb", &swapped, None).unwrap();
    assert_eq!(undo.rebound(), 729, "the valid-values cells use it, no other");
    assert!(!undo.in_place(), "more than PATCH_CELLS cells: rebuilt, shared again");
    same_as_fresh(&mut s, "Main!A1:AP40", solve);
    // A constant typed over a solution cell, then cleared.
    let mut s = Session::load("workbooks/sudoku.ron".as_ref()).unwrap();
    let undo = s.enter(at(&s, "Main!E17"), "5").unwrap();
    assert_eq!(undo.rebound(), 0, "a constant binds nothing");
    assert!(!undo.in_place(), "a formula cell became a constant");
    same_as_fresh(&mut s, "Main!A1:AP40", solve);
    s.clear(at(&s, "Main!E17")).unwrap();
    same_as_fresh(&mut s, "Main!A1:AP40", solve);
}

#[test]
fn every_shipped_workbook_edited_gives_what_a_fresh_load_gives() {
    let paths = std::fs::read_dir("workbooks").unwrap().map(|e| e.unwrap().path());
    for path in paths.filter(|p| p.extension().is_some_and(|e| e == "ron")) {
        let mut s = Session::load(&path).unwrap();
        // The last formula entry's top-left cell (a block array formula's
        // whole block), set to its own formula written again: bound anew.
        let (area, text) = {
            let wb = s.workbook();
            let e = wb.cells.iter().rev().find(|e| e.content.formula().is_some()).unwrap();
            let f = e.content.formula().unwrap();
            match e.content {
                dataflow::workbook::Content::Array(_) => (e.area, format!("{{={}}}", f.expr)),
                _ => (Area::cell(e.area.top_left()), format!("={}", f.expr)),
            }
        };
        s.set_formula(area, &text).unwrap();
        same_as_fresh(&mut s, "A1:AZ60", recalc);
    }
}

#[test]
fn a_timeline_goes_back_and_forth_over_steps_edits_and_typed_constants() {
    use dataflow::session::Timeline;
    let mut s = book(r#""Main!A1": 1"#, "cells Main!B1 = B1+A1\ncells Main!C1 = B1*2\n");
    let snapshot = |s: &Session| (value(s, "A1"), value(s, "B1"), value(s, "C1"), s.workbook().cells.len());
    let mut t = Timeline::new();
    let mut seen = vec![snapshot(&s)];
    let (_, changes) = t.step(&mut s);
    assert_eq!(changes.len(), 2, "B1 and C1 change in the first iteration: {changes:?}");
    seen.push(snapshot(&s));
    t.edit(&mut s, |s| s.set_formula(s.area("C1").unwrap(), "=B1*10")).unwrap();
    seen.push(snapshot(&s));
    t.step(&mut s);
    seen.push(snapshot(&s));
    let a1 = at(&s, "A1").top_left();
    t.set(&mut s, &[(a1, n(5.0))]).unwrap();
    seen.push(snapshot(&s));
    t.step(&mut s);
    seen.push(snapshot(&s));
    assert_eq!(seen[5].0, n(5.0));
    let (d1, b1) = (at(&s, "D1").top_left(), at(&s, "B1").top_left());
    assert!(t.set(&mut s, &[(d1, n(1.0)), (b1, n(1.0))]).is_err(), "B1 holds a formula");
    assert_eq!(snapshot(&s), seen[5], "a refused set sets nothing");
    // A failed edit records nothing.
    assert!(t.edit(&mut s, |s| s.set_formula(s.area("C1").unwrap(), "=nowhere")).is_err());
    assert_eq!(t.len(), (5, 0));
    for i in (0..5).rev() {
        assert!(t.back(&mut s));
        assert_eq!(snapshot(&s), seen[i], "back to {i}");
    }
    assert!(!t.back(&mut s));
    for (i, state) in seen.iter().enumerate().skip(1) {
        assert!(t.forward(&mut s));
        assert_eq!(&snapshot(&s), state, "forward to {i}");
    }
    // Back twice, then something new: what was ahead is gone.
    t.back(&mut s);
    t.back(&mut s);
    t.step(&mut s);
    assert_eq!(t.len(), (4, 0));
}
