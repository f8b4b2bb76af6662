//! Logical functions as a user meets them in small spreadsheets: IF,
//! IFERROR, IFNA, AND, OR, NOT, CHOOSE, LET, TRUE and FALSE, with Excel's
//! coercions and errors, references returned by IF and CHOOSE, and
//! element-wise behaviour inside names (which evaluate as array formulas).

use dataflow::sheet::Sheet;
use dataflow::value::{ErrorKind, Value};

fn n(x: f64) -> Value {
    Value::Number(x)
}

fn err(e: ErrorKind) -> Value {
    Value::Error(e)
}

/// B1:B3 = 1, 2, 3; C1:C3 = TRUE, "abc", 0.
fn sheet() -> Sheet {
    let mut s = Sheet::new();
    for (cell, v) in [("B1", "1"), ("B2", "2"), ("B3", "3"), ("C1", "TRUE"), ("C2", "abc"), ("C3", "0")] {
        s.set(cell, v);
    }
    s
}

#[test]
fn if_picks_a_branch() {
    let mut s = sheet();
    s.set("A1", "=IF(B2>1,\"big\",\"small\")");
    s.set("A2", "=IF(B1>1,\"big\",\"small\")");
    s.set("A3", "=IF(B1>1,\"big\")");
    s.set("A4", "=IF(D9,1,2)");
    s.recalc();
    assert_eq!(s.text("A1"), "big");
    assert_eq!(s.text("A2"), "small");
    assert_eq!(s.value("A3"), Value::Bool(false));
    assert_eq!(s.value("A4"), n(2.0), "an empty condition is FALSE");
}

#[test]
fn if_condition_coercions_and_errors() {
    let mut s = sheet();
    s.recalc();
    assert_eq!(s.eval("=IF(\"abc\",1,2)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=IF(C2,1,2)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=IF(\"true\",1,2)"), n(1.0));
    assert_eq!(s.eval("=IF(0.5,1,2)"), n(1.0));
    assert_eq!(s.eval("=IF(1/0,1,2)"), err(ErrorKind::Div0));
    assert_eq!(s.eval("=IF(#N/A,1,2)"), err(ErrorKind::NA));
    assert_eq!(s.eval("=IF(TRUE,1,1/0)"), n(1.0));
    assert_eq!(s.eval("=IF(TRUE,D9,1)"), n(0.0), "an empty cell shows 0");
}

#[test]
fn if_returns_references() {
    let mut s = sheet();
    s.recalc();
    assert_eq!(s.eval("=SUM(IF(TRUE,B1:B3,B1))"), n(6.0));
    assert_eq!(s.eval("=ROWS(IF(FALSE,B1,B1:C3))"), n(3.0));
}

#[test]
fn if_with_array_conditions() {
    let mut s = sheet();
    s.name("picked", "=IF(B1:B3>1,B1:B3,0)");
    s.name("mixed", "=IF({TRUE,FALSE},{1;2},\"no\")");
    s.name("bad", "=IF(C1:C3,1,0)");
    s.recalc();
    assert_eq!(s.eval("=SUM(picked)"), n(5.0));
    assert_eq!(s.eval("=ROWS(mixed)*10+COLUMNS(mixed)"), n(22.0), "broadcast to 2x2");
    assert_eq!(s.eval("=INDEX(mixed,2,1)"), n(2.0));
    assert_eq!(s.eval("=INDEX(mixed,2,2)"), Value::text("no"));
    assert_eq!(s.eval("=INDEX(bad,2,1)"), err(ErrorKind::Value), "text condition element");
    assert_eq!(s.eval("=INDEX(bad,3,1)"), n(0.0));
    // A literal array condition works element by element in a cell too.
    assert_eq!(s.eval("=INDEX(IF({1,0},\"y\",\"n\"),1,2)"), Value::text("n"));
}

#[test]
fn if_in_a_cell_intersects_a_range_condition() {
    let mut s = sheet();
    s.set("D2", "=IF(B1:B3>1,\"y\",\"n\")");
    s.set("D1", "=IF(B1:B3>1,\"y\",\"n\")");
    s.set("D5", "=IF(B1:B3>1,\"y\",\"n\")");
    s.recalc();
    assert_eq!(s.text("D2"), "y");
    assert_eq!(s.text("D1"), "n");
    assert_eq!(s.text("D5"), "#VALUE!");
}

#[test]
fn iferror_and_ifna() {
    let mut s = sheet();
    s.name("safe", "=IFERROR(1/{1,0,2},-1)");
    s.name("found", "=IFNA(MATCH({1,9},B1:B3,0),0)");
    s.recalc();
    assert_eq!(s.eval("=IFERROR(1/0,\"x\")"), Value::text("x"));
    assert_eq!(s.eval("=IFERROR(5,\"x\")"), n(5.0));
    assert_eq!(s.eval("=IFERROR(C2,\"x\")"), Value::text("abc"));
    assert_eq!(s.eval("=IFERROR(D9,\"x\")"), n(0.0));
    assert_eq!(s.eval("=SUM(IFERROR(#REF!,B1:B3))"), n(6.0));
    assert_eq!(s.eval("=IFNA(NA(),1)"), n(1.0));
    assert_eq!(s.eval("=IFNA(1/0,1)"), err(ErrorKind::Div0));
    assert_eq!(s.eval("=SUM(safe)"), n(0.5));
    assert_eq!(s.eval("=SUM(found)"), n(1.0));
}

#[test]
fn and_or_over_values_and_ranges() {
    let mut s = sheet();
    s.set("E1", "=1/0");
    s.recalc();
    assert_eq!(s.eval("=AND(TRUE,1)"), Value::Bool(true));
    assert_eq!(s.eval("=AND(TRUE,0)"), Value::Bool(false));
    assert_eq!(s.eval("=AND(\"true\",1)"), Value::Bool(true));
    assert_eq!(s.eval("=AND(\"abc\",1)"), err(ErrorKind::Value));
    assert_eq!(s.eval("=AND(C1:C2)"), Value::Bool(true), "text in a range is skipped");
    assert_eq!(s.eval("=AND(C1:C3)"), Value::Bool(false));
    assert_eq!(s.eval("=AND(C2)"), err(ErrorKind::Value), "nothing but text");
    assert_eq!(s.eval("=AND(D1:D9)"), err(ErrorKind::Value), "only empty cells");
    assert_eq!(s.eval("=OR(C2:C3)"), Value::Bool(false));
    assert_eq!(s.eval("=OR(FALSE,0,B1)"), Value::Bool(true));
    assert_eq!(s.eval("=OR({0,0,1})"), Value::Bool(true));
    assert_eq!(s.eval("=OR({\"x\",0})"), Value::Bool(false));
    assert_eq!(s.eval("=OR(TRUE,1/0)"), err(ErrorKind::Div0));
    assert_eq!(s.eval("=OR(B1:B3,E1)"), err(ErrorKind::Div0));
    assert_eq!(s.eval("=AND(A:A)"), err(ErrorKind::Value), "a whole empty column");
    assert_eq!(s.eval("=OR(B:B)"), Value::Bool(true));
}

#[test]
fn not_is_lifted() {
    let mut s = sheet();
    s.name("flags", "=NOT(B1:B3>1)");
    s.recalc();
    assert_eq!(s.eval("=NOT(0)"), Value::Bool(true));
    assert_eq!(s.eval("=NOT(D9)"), Value::Bool(true));
    assert_eq!(s.eval("=NOT(\"abc\")"), err(ErrorKind::Value));
    assert_eq!(s.eval("=NOT(#N/A)"), err(ErrorKind::NA));
    assert_eq!(s.eval("=SUM(--NOT({1,0,0}))"), n(2.0));
    assert_eq!(s.eval("=SUM(--flags)"), n(1.0));
    assert_eq!(s.eval("=AND(flags)"), Value::Bool(false));
    assert_eq!(s.eval("=OR(flags)"), Value::Bool(true));
    assert_eq!(s.eval("=AND(B1:B3>0)"), Value::Bool(true), "a comparison of a range in a cell intersects");
}

#[test]
fn choose_picks_one_argument() {
    let mut s = sheet();
    s.name("ch", "=CHOOSE({1,2,1},10,20)");
    s.recalc();
    assert_eq!(s.eval("=CHOOSE(2,\"a\",\"b\",\"c\")"), Value::text("b"));
    assert_eq!(s.eval("=CHOOSE(2.9,\"a\",\"b\",\"c\")"), Value::text("b"));
    assert_eq!(s.eval("=CHOOSE(\"3\",\"a\",\"b\",\"c\")"), Value::text("c"));
    assert_eq!(s.eval("=CHOOSE(0,\"a\",\"b\")"), err(ErrorKind::Value));
    assert_eq!(s.eval("=CHOOSE(3,\"a\",\"b\")"), err(ErrorKind::Value));
    assert_eq!(s.eval("=CHOOSE(\"x\",\"a\",\"b\")"), err(ErrorKind::Value));
    assert_eq!(s.eval("=CHOOSE(1/0,\"a\",\"b\")"), err(ErrorKind::Div0));
    assert_eq!(s.eval("=CHOOSE(1,\"a\",1/0)"), Value::text("a"));
    assert_eq!(s.eval("=SUM(ch)"), n(40.0));
}

#[test]
fn choose_returns_references() {
    let mut s = sheet();
    s.set("A1", "=SUM(CHOOSE(2,B1,B1:B3))");
    s.recalc();
    assert_eq!(s.value("A1"), n(6.0));
    assert_eq!(s.eval("=ROWS(CHOOSE(2,B1,B1:C3))"), n(3.0));
    assert_eq!(s.eval("=SUM(CHOOSE(1,B1,B2):B3)"), n(6.0));
    assert_eq!(s.eval("=COUNTIF(CHOOSE(2,B1,B1:B3),\">1\")"), n(2.0));
    s.set("B3", "10");
    s.recalc();
    assert_eq!(s.value("A1"), n(13.0), "depends on the chosen range");
}

#[test]
fn let_binds_variables() {
    let mut s = sheet();
    s.set("A1", "=LET(x,1,y,x+1,x+y)");
    s.set("A2", "=LET(r,B1:B3,SUM(r)*ROWS(r))");
    s.set("A3", "=LET(x,B2,x*x)");
    s.name("sq", "=LET(v,B1:B3,v*v)");
    s.recalc();
    assert_eq!(s.value("A1"), n(3.0));
    assert_eq!(s.value("A2"), n(18.0));
    assert_eq!(s.value("A3"), n(4.0));
    assert_eq!(s.eval("=SUM(sq)"), n(14.0));
    assert_eq!(s.eval("=LET(x,1/0,IFERROR(x,7))"), n(7.0));
    assert_eq!(s.eval("=LET(x,2,y,LET(x,10,x+1),x+y)"), n(13.0));
    s.set("B2", "5");
    s.recalc();
    assert_eq!(s.value("A3"), n(25.0));
}

#[test]
fn true_and_false_functions() {
    let mut s = sheet();
    s.recalc();
    assert_eq!(s.eval("=TRUE()"), Value::Bool(true));
    assert_eq!(s.eval("=FALSE()"), Value::Bool(false));
    assert_eq!(s.eval("=TRUE()+1"), n(2.0));
}
