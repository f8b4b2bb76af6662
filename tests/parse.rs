//! The formula parser's trees: precedence and associativity (every pair
//! of binary operators), spans, references of every form, names and
//! function calls, array constants, literals, whitespace, and the
//! reference operators (intersection, union) with omitted arguments.
//! Canonical text is in `parse_printing.rs`, error reports and deep
//! nesting in `parse_errors.rs`.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::parse::{errors, parse, without_spans};
use dataflow::ast::{Axis, Expr, ExprKind, RefExpr, RefKind};
use dataflow::value::{ErrorKind, Value};

/// The tree as an s-expression: operators by name, references and other
/// literals as canonical text, names as `name:x`.
fn sx(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Name(n) => format!("name:{n}"),
        ExprKind::Missing => "_".into(),
        ExprKind::Call { name, args } => {
            let args: Vec<String> = args.iter().map(sx).collect();
            format!("({name} {})", args.join(" ")).replace(" )", ")")
        }
        ExprKind::Unary { op, expr } => format!("({op:?} {})", sx(expr)),
        ExprKind::Binary { op, lhs, rhs } => format!("({op:?} {} {})", sx(lhs), sx(rhs)),
        _ => e.to_string(),
    }
}

fn shape(src: &str) -> String {
    sx(&parse(src))
}

fn reference(src: &str) -> RefExpr {
    match parse(src).kind {
        ExprKind::Ref(r) => r,
        k => panic!("{src:?} is not a reference: {k:?}"),
    }
}

fn rel(index: u32) -> Axis {
    Axis { index, abs: false }
}

fn abs(index: u32) -> Axis {
    Axis { index, abs: true }
}

#[test]
fn precedence() {
    assert_eq!(shape("-2^2"), "(Pow (Neg 2) 2)");
    assert_eq!(shape("-(2^2)"), "(Neg (Pow 2 2))");
    assert_eq!(shape("1+2*3"), "(Add 1 (Mul 2 3))");
    assert_eq!(shape("1*2+3"), "(Add (Mul 1 2) 3)");
    assert_eq!(shape("2^3^2"), "(Pow (Pow 2 3) 2)");
    assert_eq!(shape("1-2-3"), "(Sub (Sub 1 2) 3)");
    assert_eq!(shape("8/4/2"), "(Div (Div 8 4) 2)");
    assert_eq!(shape("A1:B2:C3"), "(Range A1:B2 C3)");
    assert_eq!(shape("INDEX(x,1,1):INDEX(x,2,2)"), "(Range (INDEX name:x 1 1) (INDEX name:x 2 2))");
    assert_eq!(shape("A1:INDEX(x,2,2)"), "(Range A1 (INDEX name:x 2 2))");
    assert_eq!(shape("\"a\"&1+2"), "(Concat \"a\" (Add 1 2))");
    assert_eq!(shape("1=1&\"x\""), "(Eq 1 (Concat 1 \"x\"))");
    assert_eq!(shape("1<2=TRUE"), "(Eq (Lt 1 2) TRUE)");
    assert_eq!(shape("1+-2"), "(Add 1 (Neg 2))");
    assert_eq!(shape("--A1"), "(Neg (Neg A1))");
    assert_eq!(shape("-A1%"), "(Percent (Neg A1))");
    assert_eq!(shape("2*50%"), "(Mul 2 (Percent 50))");
    assert_eq!(shape("2^50%"), "(Pow 2 (Percent 50))");
    assert_eq!(shape("-A1:B2"), "(Neg A1:B2)");
    assert_eq!(shape("+A1"), "(Plus A1)");
    assert_eq!(shape("1+2&3<4"), "(Lt (Concat (Add 1 2) 3) 4)");
    assert_eq!(shape("(1+2)*3"), "(Mul (Add 1 2) 3)");
    // Chains that climb to a tighter operator and come back down.
    assert_eq!(shape("1-2*3-4"), "(Sub (Sub 1 (Mul 2 3)) 4)");
    assert_eq!(shape("1*2^3*4"), "(Mul (Mul 1 (Pow 2 3)) 4)");
    assert_eq!(
        shape("1^2*3+4&5=6&7+8*9^10"),
        "(Eq (Concat (Add (Mul (Pow 1 2) 3) 4) 5) (Concat 6 (Add 7 (Mul 8 (Pow 9 10)))))"
    );
    assert_eq!(
        shape("1=2&3+4*5^6*7-8&9<>10"),
        "(Ne (Eq 1 (Concat (Concat 2 (Sub (Add 3 (Mul (Mul 4 (Pow 5 6)) 7)) 8)) 9)) 10)"
    );
}

#[test]
fn spans_are_byte_offsets() {
    let e = parse("=SUM(A1, \"é\") + 1");
    assert_eq!(e.span, 1..18);
    let ExprKind::Binary { lhs, rhs, .. } = &e.kind else { panic!() };
    assert_eq!(lhs.span, 1..14);
    assert_eq!(rhs.span, 17..18);
    let ExprKind::Call { args, .. } = &lhs.kind else { panic!() };
    assert_eq!(args[0].span, 5..7);
    assert_eq!(args[1].span, 9..13);
    // Parentheses belong to the span of what they enclose.
    assert_eq!(parse("(1)+2").span, 0..5);
    assert_eq!(parse("-(1)").span, 0..4);
}

#[test]
fn references_of_every_form() {
    let cell = |row, col| RefKind::Cell { row, col };
    assert_eq!(reference("D4"), RefExpr { sheet: None, kind: cell(rel(3), rel(3)) });
    assert_eq!(reference("$D$4").kind, cell(abs(3), abs(3)));
    assert_eq!(reference("D$4").kind, cell(abs(3), rel(3)));
    assert_eq!(reference("$D4").kind, cell(rel(3), abs(3)));
    assert_eq!(reference("d4").kind, cell(rel(3), rel(3)));
    assert_eq!(reference("XFD1048576").kind, cell(rel(1_048_575), rel(16_383)));
    assert_eq!(reference("D4:L12").kind, RefKind::Area { r0: rel(3), c0: rel(3), r1: rel(11), c1: rel(11) });
    assert_eq!(reference("$D$4:L$12").kind, RefKind::Area { r0: abs(3), c0: abs(3), r1: abs(11), c1: rel(11) });
    assert_eq!(reference("D4 :\n L12"), reference("D4:L12"));
    assert_eq!(reference("A:A").kind, RefKind::Cols { c0: rel(0), c1: rel(0) });
    assert_eq!(reference("$B:D").kind, RefKind::Cols { c0: abs(1), c1: rel(3) });
    assert_eq!(reference("a:xfd").kind, RefKind::Cols { c0: rel(0), c1: rel(16_383) });
    assert_eq!(reference("3:5").kind, RefKind::Rows { r0: rel(2), r1: rel(4) });
    assert_eq!(reference("$3:$5").kind, RefKind::Rows { r0: abs(2), r1: abs(4) });
    assert_eq!(reference("Main!A1"), RefExpr { sheet: Some("Main".into()), kind: cell(rel(0), rel(0)) });
    assert_eq!(
        reference("Main!A1:B2"),
        RefExpr { sheet: Some("Main".into()), kind: RefKind::Area { r0: rel(0), c0: rel(0), r1: rel(1), c1: rel(1) } }
    );
    assert_eq!(reference("'My Sheet'!A1:B2").sheet.as_deref(), Some("My Sheet"));
    assert_eq!(reference("'It''s'!A1").sheet.as_deref(), Some("It's"));
    assert_eq!(
        reference("Main!A:A"),
        RefExpr { sheet: Some("Main".into()), kind: RefKind::Cols { c0: rel(0), c1: rel(0) } }
    );
    assert_eq!(reference("Main!$1:3").kind, RefKind::Rows { r0: abs(0), r1: rel(2) });
    // A sheet on the second corner makes `:` the range operator.
    assert_eq!(shape("Main!A1:Main!B2"), "(Range Main!A1 Main!B2)");
}

#[test]
fn names_and_cells() {
    assert!(matches!(parse("AB12").kind, ExprKind::Ref(_)));
    for name in ["XFE1", "A1B", "abc", "in_cell_from_sol", "sol.x", "_x", "\\x", "A0", "A1048577", "Été"] {
        assert_eq!(parse(name).kind, ExprKind::Name(name.into()), "{name:?}");
    }
    assert_eq!(parse("TRUE").kind, ExprKind::Bool(true));
    assert_eq!(parse("fAlSe").kind, ExprKind::Bool(false));
    assert_eq!(shape("true()"), "(TRUE)");
    assert_eq!(shape("LOG10(100)"), "(LOG10 100)");
    assert_eq!(shape("a1(2)"), "(A1 2)");
    assert_eq!(shape("sum(a1, 2)"), "(SUM A1 2)");
    assert_eq!(shape("_xlfn.concat(\"a\")"), "(_XLFN.CONCAT \"a\")");
    assert_eq!(shape("f()"), "(F)");
    // A name qualified by a sheet (Excel's sheet-local names) is the
    // workbook's name; a sheet before a call is still an error.
    assert_eq!(parse("'Loan schedule'!LoanIsGood").kind, ExprKind::Name("LoanIsGood".into()));
    assert_eq!(shape("Sheet1!rate*2"), "(Mul name:rate 2)");
    assert!(!errors("Sheet1!SUM(1)").is_empty());
}

#[test]
fn array_constants() {
    let array = |src| match parse(src).kind {
        ExprKind::Array(rows) => rows,
        k => panic!("{src:?}: {k:?}"),
    };
    let n = Value::Number;
    assert_eq!(array("{1,2,3;4,5,6}"), vec![vec![n(1.0), n(2.0), n(3.0)], vec![n(4.0), n(5.0), n(6.0)]]);
    assert_eq!(array("{ -1 ; 2.5 }"), vec![vec![n(-1.0)], vec![n(2.5)]]);
    assert_eq!(
        array("{\"a\",TRUE,false,#DIV/0!}"),
        vec![vec![Value::text("a"), Value::Bool(true), Value::Bool(false), Value::Error(ErrorKind::Div0)]]
    );
    assert_eq!(shape("SUM({1,2}*2)"), "(SUM (Mul {1,2} 2))");
}

#[test]
fn literals() {
    let num = |src| match parse(src).kind {
        ExprKind::Number(n) => n,
        k => panic!("{src:?}: {k:?}"),
    };
    assert_eq!(num("1"), 1.0);
    assert_eq!(num("1.5"), 1.5);
    assert_eq!(num(".5"), 0.5);
    assert_eq!(num("1e3"), 1000.0);
    assert_eq!(num("1E-3"), 0.001);
    assert_eq!(num("2."), 2.0);
    assert_eq!(parse("\"a\"\"b\"").kind, ExprKind::Text("a\"b".into()));
    assert_eq!(parse("\"\"").kind, ExprKind::Text(String::new()));
    for kind in ErrorKind::ALL {
        assert_eq!(parse(kind.text()).kind, ExprKind::Error(kind));
        assert_eq!(parse(&kind.text().to_lowercase()).kind, ExprKind::Error(kind));
    }
}

#[test]
fn whitespace_and_newlines_separate_tokens() {
    let compact = parse("=IF(A1>0,SUM(B1:B3),-1)");
    for src in [
        "= IF( A1 > 0 , SUM( B1:B3 ) , -1 )",
        "=IF(\n  A1>0,\n  SUM(B1:B3),\n  -1\n)",
        "\t=IF(A1>0,\r\n\tSUM(B1 : B3),\r\n\t- 1)\n",
        "IF(A1>0,SUM(B1:B3),-1)",
    ] {
        assert_eq!(without_spans(&parse(src)), without_spans(&compact), "{src:?}");
    }
}

#[test]
fn operators_bind_by_their_table() {
    // Every binary operator, checked against its neighbours in the table.
    let ops = ["^", "*", "/", "+", "-", "&", "=", "<>", "<", ">", "<=", ">="];
    for a in ops {
        for b in ops {
            let tree = parse(&format!("1{a}2{b}3"));
            let ExprKind::Binary { op, lhs, .. } = &tree.kind else { panic!() };
            let left_first = matches!(lhs.kind, ExprKind::Binary { .. });
            let text = tree.to_string();
            let want = format!("1{a}2{b}3");
            // Left-associative: equal or higher power on the left groups first.
            assert_eq!(text, want, "{want}");
            assert_eq!(left_first, op.symbol() == b, "{want}: {tree:?}");
        }
    }
}

/// Reference operators and omitted arguments: each formula, its canonical
/// text (which must read back to the same tree) and its tree.
const REFERENCE_SYNTAX: &[(&str, &str, &str)] = &[
    ("IF(A1,,2)", "IF(A1,,2)", "(IF A1 _ 2)"),
    ("IF(TRUE,)", "IF(TRUE,)", "(IF TRUE _)"),
    ("SUM( 1 , , 2 )", "SUM(1,,2)", "(SUM 1 _ 2)"),
    ("F(,)", "F(,)", "(F _ _)"),
    ("INDEX(B1:C3,,2)", "INDEX(B1:C3,,2)", "(INDEX B1:C3 _ 2)"),
    ("SUM(A1:A5 A3:B4)", "SUM(A1:A5 A3:B4)", "(SUM (Intersect A1:A5 A3:B4))"),
    ("=A1:A5  A3", "A1:A5 A3", "(Intersect A1:A5 A3)"),
    ("rowname colname", "rowname colname", "(Intersect name:rowname name:colname)"),
    ("A:A 3:3", "A:A 3:3", "(Intersect A:A 3:3)"),
    ("$A$1:$B$9 Main!A2:C2", "$A$1:$B$9 Main!A2:C2", "(Intersect $A$1:$B$9 Main!A2:C2)"),
    ("A1:B2 B2:C3 B1:B9", "A1:B2 B2:C3 B1:B9", "(Intersect (Intersect A1:B2 B2:C3) B1:B9)"),
    ("INDEX(x,1,1) A1", "INDEX(x,1,1) A1", "(Intersect (INDEX name:x 1 1) A1)"),
    ("(A1) (B1)", "A1 B1", "(Intersect A1 B1)"),
    ("-A1 B1", "-A1 B1", "(Neg (Intersect A1 B1))"),
    ("A1:B2 C1:C3", "A1:B2 C1:C3", "(Intersect A1:B2 C1:C3)"),
    ("(5) A1", "(5) A1", "(Intersect 5 A1)"),
    ("(x) (A1,B1)", "(x) (A1,B1)", "(Intersect name:x (Union A1 B1))"),
    ("SUM((A1,A3,A5))", "SUM((A1,A3,A5))", "(SUM (Union (Union A1 A3) A5))"),
    ("SUM((A1,(A3,A5)))", "SUM((A1,(A3,A5)))", "(SUM (Union A1 (Union A3 A5)))"),
    ("SUM(((A1,A3),A5))", "SUM((A1,A3,A5))", "(SUM (Union (Union A1 A3) A5))"),
    ("INDEX((A1:B2,D1:E2),1,1,2)", "INDEX((A1:B2,D1:E2),1,1,2)", "(INDEX (Union A1:B2 D1:E2) 1 1 2)"),
    ("(A1:B2 B1,C3)", "(A1:B2 B1,C3)", "(Union (Intersect A1:B2 B1) C3)"),
    ("(A1,B1) C1", "(A1,B1) C1", "(Intersect (Union A1 B1) C1)"),
    ("(A1+1,B1)", "A1+(1,B1)", "(Add A1 (Union 1 B1))"),
    ("(-A1,B1)", "-(A1,B1)", "(Neg (Union A1 B1))"),
    ("((-A1),B1)", "((-A1),B1)", "(Union (Neg A1) B1)"),
    ("AREAS((A1,B2,C3))", "AREAS((A1,B2,C3))", "(AREAS (Union (Union A1 B2) C3))"),
    ("A1:A5 (A2,A3)", "A1:A5 (A2,A3)", "(Intersect A1:A5 (Union A2 A3))"),
    ("A1 (B1)", "A1 B1", "(Intersect A1 B1)"),
];

#[test]
fn reference_operators_and_omitted_arguments() {
    for (src, text, tree) in REFERENCE_SYNTAX {
        let e = parse(src);
        assert_eq!(e.to_string(), *text, "{src:?}");
        assert_eq!(sx(&e), *tree, "{src:?}");
        let again = parse(text);
        assert_eq!(without_spans(&again), without_spans(&e), "{src:?} printed as {text:?}");
    }
    // An omitted argument has an empty span where it would be.
    let ExprKind::Call { args, .. } = parse("IF(A1,,2)").kind else { panic!() };
    assert_eq!((args[1].kind.clone(), args[1].span.clone()), (ExprKind::Missing, 6..6));
}

#[test]
fn whitespace_is_an_operator_only_between_references() {
    // Spacing that meant nothing before still means nothing.
    for (spaced, compact) in [
        ("IF( A1 , B1 )", "IF(A1,B1)"),
        ("= A1 + B1", "A1+B1"),
        ("A1 :B2", "A1:B2"),
        ("A1: B2", "A1:B2"),
        ("SUM (A1)", "SUM(A1)"),
        ("SUM( A1:B2 )", "SUM(A1:B2)"),
        ("A1 & \"x\"", "A1&\"x\""),
        ("(A1) + (B1)", "A1+B1"),
        ("{1, 2} ", "{1,2}"),
        ("A1 %", "A1%"),
    ] {
        assert_eq!(without_spans(&parse(spaced)), without_spans(&parse(compact)), "{spaced:?}");
    }
    // Between other operands it is still an error.
    for bad in ["1 2", "\"a\" A1", "A1 \"a\"", "A1 1", "TRUE 1"] {
        errors(bad);
    }
}
