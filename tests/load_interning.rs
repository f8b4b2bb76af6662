//! Loading looks names up once per place they are written and interns
//! subformulas with their keys in arenas: what it finds must be what a
//! lookup per use and a key per node found (`engine::share`, `eval::bind`).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::engine::Sharing;
use dataflow::eval::BExpr;
use dataflow::testing::Sheet;

#[test]
fn a_name_written_in_any_case_in_many_cells_resolves_the_same_and_a_missing_one_is_reported() {
    let mut s = Sheet::new();
    s.name("Side", "=3");
    s.set("A1", "=side*2");
    s.set("A2", "=SIDE+side");
    s.set("A3", "=SiDe^2");
    s.set("A4", "=sied+1");
    s.set("A5", "=sied+side");
    s.recalc();
    assert_eq!([s.text("A1"), s.text("A2"), s.text("A3")], ["6", "6", "9"]);
    assert_eq!([s.text("A4"), s.text("A5")], ["#NAME?", "#NAME?"]);
    let issues = s.issues();
    assert!(issues.iter().any(|i| i.contains("sied")), "{issues:?}");
}

#[test]
fn equal_constant_arrays_bound_apart_are_one_shared_subformula() {
    let mut s = Sheet::new();
    s.sharing(Sharing::On);
    s.set("B1", "1");
    s.set("B2", "2");
    s.set("B3", "3");
    // Each name binds its own array {1;2;3}: equal contents, two allocations.
    s.name("a", "=SUM($B$1:$B$3*{1;2;3})");
    s.name("b", "=SUM($B$1:$B$3*{1;2;3})");
    s.name("c", "=SUM($B$1:$B$3*{1;2;4})");
    s.set("A1", "=a+c");
    s.set("A2", "=b*c");
    s.recalc();
    assert_eq!([s.text("A1"), s.text("A2")], ["31", "238"]);
    let (at1, at2) = (s.addr("A1"), s.addr("A2"));
    let program = s.engine_ref().program();
    // The two sums of {1;2;3} are one node, the sum of {1;2;4} another.
    assert_eq!(program.shared().len(), 2, "{:?}", program.shared());
    let a1 = program.formula(program.formula_at(at1).unwrap());
    let a2 = program.formula(program.formula_at(at2).unwrap());
    let (BExpr::Binary(_, x), BExpr::Binary(_, y)) = (a1, a2) else { panic!("{a1:?} {a2:?}") };
    assert!(matches!((&x[0], &y[0]), (BExpr::Shared(x), BExpr::Shared(y)) if x == y), "{a1:?} {a2:?}");
    assert!(matches!((&x[1], &y[1]), (BExpr::Shared(x), BExpr::Shared(y)) if x == y), "{a1:?} {a2:?}");
}
