//! The formula parser's errors: every error of a list of bad formulas with
//! its span and message (snapshotted), every lexing error reported at once,
//! and nesting (brackets, unary operators, calls, long operator chains)
//! refused past `MAX_NESTING` quickly and without a stack overflow, while
//! nesting up to the limit parses in a small stack.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::parse::{errors, parse};
use dataflow::parse::parse_formula;
use std::fmt::Write;
use std::time::{Duration, Instant};

/// Bad formulas and every error each reports, as `span message`.
const BAD: &[&str] = &[
    "",
    "=",
    "=1+",
    "=SUM(1,",
    "=SUM(1",
    "=\"abc",
    "=1 2",
    "=#FOO!",
    "=#FOO",
    "={1,2;3}",
    "={1,2;3,4;5}",
    "={}",
    "={1,,2}",
    "={A1}",
    "=A1:",
    "=)",
    "=(",
    "=1+2)",
    "=(1+)*(2+)",
    "=SUM(1,*)+{1,2;3}",
    "=1 @ 2 ? 3",
    "=#BAD! + \"open",
    "=$XFE$1",
    "=XFZ$1",
    "=$A$0",
    "=A$2000000",
    "=$A",
    "=$3",
    "=Main!",
    "=Main!abc(1)",
    "=SUM(Main!)",
    "=Main!\"x\"&1",
    "='My Sheet'A1",
    "='Unclosed!A1",
    "=''!A1",
    "='abc'",
    "=1+(2*",
    "=\"a\" \"b\"",
    "=1e999",
    "=1*/2",
    "=((1)",
    "={1,2",
    "==1",
    "=(A1,,B1)",
    "=SUM((A1,))",
    "=A1 +",
    "=Sales[Qty",
    "=SUM(Sales[[#Nope],[Qty]])",
    "=Sales[[A],[B]]",
    "=[@Qty",
];

#[test]
fn error_reports() {
    let mut out = String::new();
    for src in BAD {
        writeln!(out, "{src:?}").unwrap();
        for e in errors(src) {
            writeln!(out, "    {:?} {}", e.span, e.message).unwrap();
        }
    }
    insta::assert_snapshot!(out);
}

#[test]
fn every_lexing_error_is_reported() {
    let errs = errors("=#FOO + $XFZ1 + \"x");
    let spans: Vec<_> = errs.iter().map(|e| e.span.clone()).collect();
    assert_eq!(spans, vec![1..5, 8..13, 16..18]);
}

fn in_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(2 << 20).spawn(f).unwrap().join().unwrap()
}

fn assert_too_deep(src: String) {
    let start = Instant::now();
    let errs = in_small_stack(move || parse_formula(&src).unwrap_err());
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
    assert!(errs.iter().any(|e| e.message.starts_with("formula nested too deeply")), "{errs:?}");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    assert_too_deep("(".repeat(100_000) + "1" + &")".repeat(100_000));
    assert_too_deep("(".repeat(100_000));
    assert_too_deep("=".to_string() + &"-".repeat(5000) + "1");
    assert_too_deep("{".repeat(5000));
    assert_too_deep("1".to_string() + &"%".repeat(5000));
    assert_too_deep("IF(1,".repeat(3000) + "1" + &")".repeat(3000));
    assert_too_deep("-(".repeat(3000) + "1" + &")".repeat(3000));
}

#[test]
fn nesting_up_to_the_limit_parses_in_a_small_stack() {
    let limit = dataflow::parse::MAX_NESTING;
    let cases = [
        "(".repeat(limit) + "1" + &")".repeat(limit),
        "IF(1,".repeat(limit) + "1" + &")".repeat(limit),
        "-(".repeat(limit / 2) + "1" + &")".repeat(limit / 2),
        "-".repeat(limit) + "1",
        "SUM(".repeat(limit - 1) + "{1}" + &")".repeat(limit - 1),
    ];
    for src in cases {
        let text = in_small_stack(move || parse_formula(&src).map(|e| e.to_string()));
        assert!(text.is_ok(), "{text:?}");
    }
    // An error at the bottom of the nesting is reported too.
    let src = "(".repeat(limit - 1) + "1+" + &")".repeat(limit - 1);
    let errs = in_small_stack(move || parse_formula(&src).unwrap_err());
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].message, "expected an expression after `+`, found `)`");
}

#[test]
fn long_operator_chains_count_as_nesting() {
    // Chains fold into left-deep trees, so they are bounded like brackets.
    let limit = dataflow::parse::MAX_NESTING;
    let src = vec!["A1"; limit + 1].join("+");
    let text = in_small_stack(move || parse(&src).to_string());
    assert_eq!(text.len(), (limit + 1) * 3 - 1);
    assert_too_deep(vec!["A1"; 4000].join("+"));
    // Separate arguments do not add up.
    let args = vec!["A1+A2"; 4000].join(",");
    assert!(in_small_stack(move || parse_formula(&format!("SUM({args})")).is_ok()));
}
