//! LAMBDA at the workbook level (issue 27): named lambdas calling one
//! another and themselves, recalculation when a cell a lambda's body reads
//! changes, deep recursion bounded on a small thread stack, and an xlsx
//! round trip of a workbook using a named LAMBDA and MAP.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod export;

use dataflow::session::Session;
use dataflow::testing::Sheet;
use dataflow::value::{ErrorKind, Value};
use dataflow::workbook::Workbook;
use export::{formulas, names, round_trip, values};
use std::path::Path;

/// A sheet with named lambdas: one reading a cell, a recursive one, one
/// calling another.
fn sheet() -> Sheet {
    let mut s = Sheet::new();
    s.set("A1", "10");
    s.name("ADD_A1", "LAMBDA(x, x + $A$1)");
    s.name("TWICE_ADD", "LAMBDA(x, ADD_A1(ADD_A1(x)))");
    s.name("FACT_L", "LAMBDA(n, IF(n<2, 1, n*FACT_L(n-1)))");
    s.name("DEPTH", "LAMBDA(n, IF(n<=0, 0, 1+DEPTH(n-1)))");
    s.name("IS_EVEN", "LAMBDA(n, IF(n=0, TRUE, IS_ODD(n-1)))");
    s.name("IS_ODD", "LAMBDA(n, IF(n=0, FALSE, IS_EVEN(n-1)))");
    s
}

#[test]
fn named_lambdas_call_one_another_and_themselves() {
    let mut s = sheet();
    s.set("B1", "=ADD_A1(1)");
    s.set("B2", "=TWICE_ADD(1)");
    s.set("B3", "=FACT_L(10)");
    s.set("B4", "=IS_EVEN(7)");
    s.set("B5", "=SUM(MAP(A1:A2, ADD_A1))");
    s.recalc();
    assert_eq!(["B1", "B2", "B3", "B4", "B5"].map(|c| s.text(c)), ["11", "21", "3628800", "FALSE", "30"]);
    assert!(s.issues().is_empty(), "{:?}", s.issues());
}

/// The cells a named lambda's body reads are dependencies of the cells
/// calling it: an edit recalculates them.
#[test]
fn an_edit_of_a_cell_the_body_reads_recalculates() {
    let mut s = sheet();
    s.set("B1", "=ADD_A1(1)");
    s.set("B2", "=LET(f, LAMBDA(x, x*$A$2), f(3))");
    s.set("B3", "=BYROW(A1:A2, LAMBDA(r, SUM(r, $A$3)))");
    s.recalc();
    assert_eq!(["B1", "B2", "B3"].map(|c| s.text(c)), ["11", "0", "10"]);
    s.set("A1", "5");
    s.set("A2", "2");
    s.set("A3", "100");
    s.recalc();
    assert_eq!(["B1", "B2", "B3"].map(|c| s.text(c)), ["6", "6", "105"]);
}

/// Recursion past `MAX_LAMBDA_DEPTH` is #NUM!, never a stack overflow,
/// even on a thread with a small stack (the test harness's are 2 MiB).
#[test]
fn deep_recursion_is_bounded_on_a_small_stack() {
    let run = || {
        let mut s = sheet();
        s.set("B1", "=DEPTH(1000)");
        s.set("B2", "=DEPTH(1024)");
        s.set("B3", "=DEPTH(100000)");
        s.set("B4", "=FACT_L(170)");
        s.recalc();
        ["B1", "B2", "B3", "B4"].map(|c| s.value(c))
    };
    let got = std::thread::Builder::new().stack_size(512 << 10).spawn(run).unwrap().join().unwrap();
    let num = Value::Error(ErrorKind::Num);
    // DEPTH(n) nests n + 1 calls: DEPTH(1024) is one too many.
    assert_eq!(got, [Value::Number(1000.0), num.clone(), num, Value::Number((1..=170).map(f64::from).product())]);
}

/// An exponential recursion ends at the call budget rather than hanging.
#[test]
fn an_exponential_recursion_ends() {
    let mut s = Sheet::new();
    s.name("FIB", "LAMBDA(n, IF(n<2, n, FIB(n-1)+FIB(n-2)))");
    s.set("B1", "=FIB(15)");
    s.set("B2", "=FIB(60)");
    s.recalc();
    assert_eq!(s.value("B1"), Value::Number(610.0));
    assert_eq!(s.value("B2"), Value::Error(ErrorKind::Num));
}

#[test]
fn a_lambda_workbook_round_trips_through_xlsx() {
    let text = r#"Workbook(
        sheets: ["Main"],
        cells: {
            "Main!A1": 1, "Main!A2": 2, "Main!A3": 3,
            "Main!B1": "=SUM(MAP(A1:A3, LAMBDA(v, SCALE(v))))",
            "Main!B2": "=FACT_L(5)",
            "Main!B3": "=SUM(BYROW(A1:A3, SUM))",
            "Main!B4": "=LAMBDA(x, [y], IF(ISOMITTED(y), x, x+y))(4)",
            "Main!B5": "=LET(f, LAMBDA(x, x+1), f(A3))",
        },
        names: {
            "SCALE": (formula: "=LAMBDA(x, x*10)", anchor: "Main!A1"),
            "FACT_L": (formula: "=LAMBDA(n, IF(n<2, 1, n*FACT_L(n-1)))", anchor: "Main!A1"),
        },
    )"#;
    let wb = Workbook::from_str(text, Path::new("lambda.ron"), Path::new(".")).unwrap();
    let mut s = Session::new(wb).unwrap();
    s.recalc();
    let shown: Vec<Value> = values(&s, &s).into_iter().filter(|(c, ..)| c.col == 1).map(|(_, v, _)| v).collect();
    assert_eq!(shown, [60.0, 120.0, 6.0, 4.0, 4.0].map(Value::Number));
    let (mut back, warnings) = round_trip(&s);
    assert!(warnings.is_empty(), "{warnings:?}");
    // The writer stores a formula calling a dynamic-array function as a
    // dynamic-array formula (as Excel 365 does), which reads back as one
    // (`spill =...`); these give one value, so the same.
    let plain = |f: String| f.strip_prefix("spill ").map(str::to_string).unwrap_or(f);
    let back_formulas: Vec<(String, String)> =
        formulas(back.workbook()).into_iter().map(|(c, f)| (c, plain(f))).collect();
    assert_eq!(back_formulas, formulas(s.workbook()).into_iter().collect::<Vec<_>>());
    assert_eq!(names(back.workbook()), names(s.workbook()));
    back.recalc();
    for (c, a, b) in values(&s, &back) {
        assert_eq!(a, b, "{c:?}");
    }
}

/// Defining a named lambda again recalculates the cells that call it.
#[test]
fn redefining_a_named_lambda_recalculates_its_callers() {
    let text = r#"Workbook(
        sheets: ["Main"],
        cells: { "Main!A1": 3, "Main!B1": "=TRIPLE(A1)", "Main!B2": "=SUM(MAP(A1, TRIPLE))" },
        names: { "TRIPLE": (formula: "=LAMBDA(x, x*3)", anchor: "Main!A1") },
    )"#;
    let wb = Workbook::from_str(text, Path::new("lambda.ron"), Path::new(".")).unwrap();
    let mut s = Session::new(wb).unwrap();
    s.recalc();
    let b = |s: &Session, c: &str| s.engine().get(s.area(c).unwrap().top_left()).clone();
    assert_eq!((b(&s, "Main!B1"), b(&s, "Main!B2")), (Value::Number(9.0), Value::Number(9.0)));
    s.define_name("TRIPLE", "=LAMBDA(x, x*4)", None).unwrap();
    s.recalc();
    assert_eq!((b(&s, "Main!B1"), b(&s, "Main!B2")), (Value::Number(12.0), Value::Number(12.0)));
}
