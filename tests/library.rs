//! The library as a program uses it: a workbook built in memory (no file
//! touched), errors that work with `?`, located problems in the files
//! given by name.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::session::Session;
use dataflow::value::Value;
use dataflow::workbook::Workbook;
use dataflow::workbook::files::MemoryFiles;
use dataflow::{Error, LoadError};

const BOOK: &str = r#"(sheets: ["Main"], calc: (iterate: true), include: ["f.dfl"], cells: { "Main!A1": 2 })"#;

/// What a user's `main` looks like: every step with `?`.
fn double_it(a1: f64) -> Result<Value, Box<dyn std::error::Error>> {
    let files = MemoryFiles::new().with("f.dfl", "cells Main!B1 = A1*2\n");
    let mut s = Session::new(Workbook::from_memory(BOOK, &files, &[])?)?;
    let a1_cell = s.area("Main!A1")?.top_left();
    s.set(a1_cell, Value::Number(a1))?;
    s.recalc();
    Ok(s.engine().get(s.area("B1")?.top_left()).clone())
}

#[test]
fn a_workbook_in_memory_runs_and_errors_work_with_question_marks() {
    assert_eq!(double_it(21.0).unwrap(), Value::Number(42.0));
    // A formula cell cannot take a constant: a typed error, through `?`.
    let files = MemoryFiles::new().with("f.dfl", "cells Main!B1 = A1*2\n");
    let mut s = Session::new(Workbook::from_memory(BOOK, &files, &[]).unwrap()).unwrap();
    let b1 = s.area("B1").unwrap().top_left();
    let e = s.set(b1, Value::Number(1.0)).unwrap_err();
    assert!(matches!(&e, Error::Cell(m) if m == "Main!B1 holds a formula"), "{e:?}");
    assert!(matches!(s.area("Nowhere!A1"), Err(Error::Reference(_))));
    assert!(matches!(s.set_input("puzzle", "1"), Err(Error::Input(_))));
}

#[test]
fn problems_in_files_given_by_name_are_located_in_them() {
    let files = MemoryFiles::new().with("f.dfl", "# two lines\ncells Main!B1 = A1*\n");
    let e: LoadError = Workbook::from_memory(BOOK, &files, &[]).unwrap_err();
    assert_eq!(e.len(), 1);
    let d = &e[0];
    assert_eq!(d.file.as_ref().map(|f| f.path.to_string_lossy().into_owned()).as_deref(), Some("f.dfl"));
    assert_eq!(d.line_col(), Some((2, 19)), "at the `*`: {e}");
    assert!(e.to_string().contains("f.dfl:2:19"), "rendered as the command line does: {e}");
    // A file the workbook includes but nobody gave: at its include entry.
    let e = Workbook::from_memory(BOOK, &MemoryFiles::new(), &[]).unwrap_err();
    assert_eq!(e[0].message, "cannot read the included file `f.dfl`");
    assert_eq!(e[0].label, "file not found");
    assert_eq!(e[0].location().as_deref(), Some("workbook.ron:1:54"));
    // As a general error it is the load kind, and still prints whole.
    let general: Error = e.clone().into();
    assert!(matches!(general, Error::Load(_)));
    assert_eq!(general.to_string(), e.to_string());
}

#[test]
fn memory_and_disk_give_the_same_workbook() {
    let text = std::fs::read_to_string("workbooks/sudoku.ron").unwrap();
    let mut files = MemoryFiles::new();
    for dir in ["formulas/ellis", "formulas/checks"] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            files.insert(
                std::path::Path::new("..").join(dir).join(path.file_name().unwrap()),
                std::fs::read(&path).unwrap(),
            );
        }
    }
    let in_memory = Session::new(Workbook::from_memory(&text, &files, &[]).unwrap()).unwrap();
    let on_disk = Session::load("workbooks/sudoku.ron".as_ref()).unwrap();
    assert_eq!(in_memory.workbook().cells.len(), on_disk.workbook().cells.len());
    assert_eq!(in_memory.workbook().names.len(), on_disk.workbook().names.len());
    let (mut a, mut b) = (in_memory, on_disk);
    let (ra, rb) = (a.recalc(), b.recalc());
    assert_eq!((ra.iterations, ra.converged), (rb.iterations, rb.converged));
    let all = a.area("Main!A1:AP40").unwrap();
    assert_eq!(a.read(&all), b.read(&all));
}

#[test]
fn a_binding_problem_names_its_cell() {
    let files = MemoryFiles::new().with("f.dfl", "cells Main!B1:B3 = A1+nowhere\n");
    let e = Session::new(Workbook::from_memory(BOOK, &files, &[]).unwrap()).err().expect("an unknown name");
    assert_eq!(e.len(), 1, "{e}");
    assert_eq!(e[0].cell.as_deref(), Some("Main!B1"));
    assert_eq!(e[0].location().as_deref(), Some("f.dfl:1:23"));
}
