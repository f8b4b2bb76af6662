//! MOD, INT, ABS, ROUND, SQRT, POWER, COS, SIN, PI, EXP, LN on small
//! sheets: normal use, Excel's coercions (empty 0, TRUE 1, numeric text),
//! error propagation, and element-wise work on arrays inside names.

use dataflow::sheet::Sheet;
use dataflow::value::{ErrorKind, Value};

fn n(x: f64) -> Value {
    Value::Number(x)
}

fn err(e: ErrorKind) -> Value {
    Value::Error(e)
}

/// A sheet with the given cells, recalculated.
fn sheet(cells: &[(&str, &str)]) -> Sheet {
    let mut s = Sheet::new();
    for (a, v) in cells {
        s.set(a, v);
    }
    s.recalc();
    s
}

fn eval(f: &str) -> Value {
    sheet(&[]).eval(f)
}

fn close(v: Value, want: f64) -> bool {
    matches!(v, Value::Number(x) if (x - want).abs() < 1e-12)
}

#[test]
fn mod_takes_the_divisor_sign() {
    assert_eq!(eval("=MOD(7,3)"), n(1.0));
    assert_eq!(eval("=MOD(-1,3)"), n(2.0));
    assert_eq!(eval("=MOD(1,-3)"), n(-2.0));
    assert_eq!(eval("=MOD(-7,-3)"), n(-1.0));
    assert_eq!(eval("=MOD(5.5,2)"), n(1.5));
    assert_eq!(eval("=MOD(5,0)"), err(ErrorKind::Div0));
    assert_eq!(eval("=MOD(0,5)"), n(0.0));
}

#[test]
fn int_abs_sqrt() {
    assert_eq!(eval("=INT(3.7)"), n(3.0));
    assert_eq!(eval("=INT(-0.5)"), n(-1.0));
    assert_eq!(eval("=ABS(-2.5)"), n(2.5));
    assert_eq!(eval("=SQRT(16)"), n(4.0));
    assert_eq!(eval("=SQRT(-1)"), err(ErrorKind::Num));
    assert_eq!(eval("=SQRT(0)"), n(0.0));
}

#[test]
fn round_half_away_from_zero() {
    assert_eq!(eval("=ROUND(2.5,0)"), n(3.0));
    assert_eq!(eval("=ROUND(-2.5,0)"), n(-3.0));
    assert_eq!(eval("=ROUND(2.675,2)"), n(2.68));
    assert_eq!(eval("=ROUND(1.005,2)"), n(1.01));
    assert_eq!(eval("=ROUND(1234.5678,-2)"), n(1200.0));
    assert_eq!(eval("=ROUND(-1250,-2)"), n(-1300.0));
    assert_eq!(eval("=ROUND(1.23456,2.9)"), n(1.23));
    assert_eq!(eval("=ROUND(0.3,-5)"), n(0.0));
    assert_eq!(sheet(&[]).eval("=ROUND(0.1+0.2,15)").to_string(), "0.3");
}

#[test]
fn power_follows_the_caret_operator() {
    assert_eq!(eval("=POWER(2,10)"), n(1024.0));
    assert_eq!(eval("=POWER(4,0.5)"), n(2.0));
    assert_eq!(eval("=POWER(-8,3)"), n(-512.0));
    assert_eq!(eval("=POWER(0,0)"), err(ErrorKind::Num));
    assert_eq!(eval("=POWER(0,-1)"), err(ErrorKind::Div0));
    assert_eq!(eval("=POWER(-8,1/3)"), err(ErrorKind::Num));
    assert_eq!(eval("=POWER(10,400)"), err(ErrorKind::Num));
    assert_eq!(eval("=POWER(2,10)"), eval("=2^10"));
}

#[test]
fn trigonometry_and_logarithms() {
    assert_eq!(eval("=COS(0)"), n(1.0));
    assert!(close(eval("=SIN(PI()/2)"), 1.0));
    assert!(close(eval("=PI()"), std::f64::consts::PI));
    assert!(close(eval("=EXP(1)"), std::f64::consts::E));
    assert!(close(eval("=LN(EXP(2))"), 2.0));
    assert_eq!(eval("=LN(0)"), err(ErrorKind::Num));
    assert_eq!(eval("=LN(-1)"), err(ErrorKind::Num));
    assert_eq!(eval("=EXP(1000)"), err(ErrorKind::Num), "no infinity escapes");
    assert_eq!(eval("=SIN(2^27)"), err(ErrorKind::Num));
}

#[test]
fn arguments_coerce_as_in_arithmetic() {
    let mut s = sheet(&[("B1", "TRUE"), ("B2", "=\"4\""), ("B3", "abc")]);
    assert_eq!(s.eval("=ABS(B1)"), n(1.0));
    assert_eq!(s.eval("=SQRT(B2)"), n(2.0));
    assert_eq!(s.eval("=ABS(B9)"), n(0.0), "empty is 0");
    assert_eq!(s.eval("=MOD(\"7\",TRUE+1)"), n(1.0));
    assert_eq!(s.eval("=INT(\" 2.5 \")"), n(2.0));
    assert_eq!(s.eval("=ABS(B3)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=ROUND(\"x\",1)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=LN(\"\")"), err(ErrorKind::Value));
}

#[test]
fn errors_propagate_first_argument_first() {
    let mut s = sheet(&[("B1", "#N/A"), ("B2", "=1/0")]);
    assert_eq!(s.eval("=ABS(B1)"), err(ErrorKind::NA));
    assert_eq!(s.eval("=MOD(B2,B1)"), err(ErrorKind::Div0));
    assert_eq!(s.eval("=MOD(B1,0)"), err(ErrorKind::NA));
    assert_eq!(s.eval("=ROUND(1.5,B1)"), err(ErrorKind::NA));
    assert_eq!(s.eval("=POWER(B2,2)"), err(ErrorKind::Div0));
    s.set("C1", "=SQRT(B2)");
    s.recalc();
    assert_eq!(s.text("C1"), "#DIV/0!");
}

#[test]
fn lifted_over_arrays() {
    let mut s = sheet(&[("B1", "-1"), ("B2", "-2"), ("B3", "-3")]);
    assert_eq!(s.eval("=SUM(ABS({-1,-2,3}))"), n(6.0));
    assert_eq!(s.eval("=SUM(MOD({1,2;3,4},{2,3}))"), n(1.0 + 2.0 + 1.0 + 1.0));
    assert_eq!(s.eval("=SUM(ROUND({1.25,2.35},1))"), n(3.7));
    s.name("arr", "=ROW($A$1:$A$9)");
    s.name("mods", "=MOD(arr,3)");
    s.name("abs_b", "=ABS($B$1:$B$3)");
    s.name("sq", "=SQRT(arr-5)");
    s.set("D1", "=SUM(mods)");
    s.set("D2", "=SUM(abs_b)");
    s.set("D3", "=COUNT(sq)");
    s.set("D4", "=MAX(POWER(arr,2))");
    s.recalc();
    assert_eq!(s.text("D1"), "9");
    assert_eq!(s.text("D2"), "6");
    assert_eq!(s.text("D3"), "5", "SQRT of negatives is #NUM!, which COUNT skips");
    assert_eq!(s.text("D4"), "81");
}

#[test]
fn plain_cells_intersect_references() {
    let mut s = sheet(&[("B1", "-1"), ("B2", "-2"), ("B3", "-3"), ("C2", "=ABS(B1:B3)"), ("C5", "=ABS(B1:B3)")]);
    assert_eq!(s.text("C2"), "2");
    assert_eq!(s.text("C5"), "#VALUE!");
    assert_eq!(s.eval_at("E3", "=INT(B1:B3/2)"), n(-2.0));
}

#[test]
fn cos_fixed_point_by_iteration() {
    let mut s = Sheet::new();
    s.iterate(1000, 1e-12);
    s.set("A1", "=COS(A1)");
    s.recalc();
    let x = s.value("A1");
    assert!(matches!(x, Value::Number(x) if (x - 0.739_085_133_215_160_6).abs() < 1e-9), "{x:?}");
}
