//! Excel workbooks (`.xlsx`) read by `workbook::load`: fixtures built in
//! the test from raw XML parts (`xlsx/mod.rs`), never binary files.

mod common;
mod xlsx;

use common::{GRID2, GRID2_SOLVED};
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
