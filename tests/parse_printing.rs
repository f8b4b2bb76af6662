//! The formula printer: the canonical text of a list of formulas
//! (snapshotted), printing then parsing gives the same tree and the same
//! text, and parentheses are printed only where precedence needs them.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::parse::{parse, without_spans};
use dataflow::parse::parse_formula;
use std::fmt::Write;

/// Formulas that parse; their canonical text is snapshotted and each must
/// survive print-then-parse unchanged.
const FORMULAS: &[&str] = &[
    "=1+2*3",
    "= 1 + 2 * 3",
    "(1+2)*3",
    "-2^2",
    "-(2^2)",
    "(-2)^2",
    "2^3^2",
    "2^(3^2)",
    "2^-1",
    "1-(2-3)",
    "(1-2)-3",
    "1+-2",
    "--A1",
    "-A1%",
    "-(A1%)",
    "A1%%",
    "(1+2)%",
    "A1#",
    "SUM(Sheet1!$A$1#)*2",
    "A1#*2",
    "@A1:A3",
    "-@A1:A3",
    "@SEQUENCE(3)+A1#%",
    "+A1+B1",
    "\"a\"&1+2",
    "(\"a\"&1)+2",
    "1=1&\"x\"",
    "(1=1)&\"x\"",
    "1<>2",
    "A1<=B1",
    "A1>=-1",
    "1<2=TRUE",
    "sum(a1, 2)",
    "Sum(A1:B2,C3)",
    "IF(A1>0,\"pos\",IF(A1<0,\"neg\",\"zero\"))",
    "f()",
    "TRUE()",
    "true",
    "False",
    "_xlfn.XLOOKUP(A1,B:B,C:C)",
    "STDEV.S(A1:A10)",
    "LOG10(100)",
    "$D$4+D$4+$D4+D4",
    "D4:L12",
    "$D$4:L$12",
    "A:A",
    "$B:D",
    "3:5",
    "$3:$5",
    "Main!A1",
    "main!a1:b2",
    "Main!A:A",
    "Main!$3:5",
    "'My Sheet'!A1:B2",
    "'It''s'!A1",
    "'2019'!A1",
    "'A1'!B2",
    "'R1C1'!B2",
    "SUM(Data!B2:B9)*Rates!$C$1",
    "A1:B2:C3",
    "(A1:B2):C3",
    "A1:(B2:C3)",
    "(A1):B2",
    "(A):B",
    "(1):3",
    "Main!A1:(B2)",
    "INDEX(x,1,1):INDEX(x,2,2)",
    "A1:INDEX(A:A,3)",
    "A1:LOG10(5)",
    "-A1:B2",
    "abc",
    "in_cell_from_sol",
    "sol.x",
    "\\path",
    "XFE1",
    "A1B",
    "XFD1048576",
    "A1048577",
    "\"\"",
    "\"a\"\"b\"",
    "\"say \"\"hi\"\"\"",
    "1.5",
    ".5",
    "1e3",
    "1E-3",
    "123456789012345678",
    "0.1",
    "1.23456789012345678",
    "#NULL!",
    "#div/0!",
    "#VALUE!",
    "#REF!",
    "#NAME?",
    "#NUM!",
    "#N/A",
    "{1,2,3;4,5,6}",
    "{-1,+2,\"a\";TRUE,false,#N/A}",
    "{1}",
    "{\"x\";\"y\"}",
    "=SUM(\n    A1,\n    B2\n)",
];

#[test]
fn canonical_text() {
    let mut out = String::new();
    for src in FORMULAS {
        writeln!(out, "{src:?} => {}", parse(src)).unwrap();
    }
    insta::assert_snapshot!(out);
}

#[test]
fn printing_then_parsing_gives_the_same_tree() {
    for src in FORMULAS {
        let tree = parse(src);
        let text = tree.to_string();
        let again = parse_formula(&text).unwrap_or_else(|e| panic!("{src:?} printed as {text:?}: {e:?}"));
        assert_eq!(without_spans(&again), without_spans(&tree), "{src:?} printed as {text:?}");
        assert_eq!(again.to_string(), text, "printing is stable for {src:?}");
    }
}

#[test]
fn printing_adds_parentheses_only_where_needed() {
    let cases = [
        ("(1+2)", "1+2"),
        ("((A1))", "A1"),
        ("1+(2*3)", "1+2*3"),
        ("(1+2)+3", "1+2+3"),
        ("1+(2+3)", "1+(2+3)"),
        ("(2^3)^2", "2^3^2"),
        ("(-2)^2", "-2^2"),
        ("-(2)^2", "-2^2"),
        ("-(2^2)", "-(2^2)"),
        ("(-A1)%", "-A1%"),
        ("-(A1%)", "-(A1%)"),
        ("-(A1:B2)", "-A1:B2"),
        ("SUM( A1 , (B2) )", "SUM(A1,B2)"),
    ];
    for (src, want) in cases {
        assert_eq!(parse(src).to_string(), want, "{src:?}");
    }
}
