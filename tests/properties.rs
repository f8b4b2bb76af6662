//! Property tests: generated inputs that the suite's hand-written cases
//! would not think of. The parser never panics and what it reads prints
//! back to the same tree; the workbook loader never panics and locates
//! every problem inside its input; binding and recalculation never panic,
//! stop within the iteration cap and never store NaN; row-major and
//! synchronous orders agree on acyclic workbooks; shared subformulas and kernels
//! give the plain evaluation's values at every iteration; live edits give
//! what a fresh load of the edited workbook gives. The input and output
//! paths too: a random workbook exported to .xlsx and .ods and imported
//! back gives every cell the same value and keeps its input, view, reset
//! protocol and settings; `dataflow serve` answers any stream of
//! malformed requests and goes on serving; `dataflow batch` over random
//! puzzle streams (file and standard input) writes one record per
//! non-blank line, in order, with a documented status and exit code, and
//! a summary that adds up. Each property runs a few hundred cases at most
//! so the file stays fast; run more with
//! `PROPTEST_CASES=10000 cargo test --release --test properties`.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "properties/batch_streams.rs"]
mod batch_streams;
#[path = "properties/counts.rs"]
mod counts;
#[path = "properties/edits.rs"]
mod edits;
#[path = "export/mod.rs"]
mod export;
#[path = "properties/formulas.rs"]
mod formulas;
#[path = "properties/io_roundtrip.rs"]
mod io_roundtrip;
#[path = "properties/kernel.rs"]
mod kernel;
#[path = "properties/load.rs"]
mod load;
#[path = "properties/parse.rs"]
mod parse;
#[path = "properties/recalc.rs"]
mod recalc;
#[path = "properties/serve_requests.rs"]
mod serve_requests;
#[path = "serve_support/mod.rs"]
mod serve_support;
#[path = "properties/sharing.rs"]
mod sharing;
#[path = "properties/workbooks.rs"]
mod workbooks;

/// `cases` cases per property, unless `PROPTEST_CASES` asks for another
/// number. Failures are not saved to files: each bug found becomes a plain
/// test beside the property that found it.
pub fn config(cases: u32) -> proptest::test_runner::Config {
    let default = proptest::test_runner::Config::default();
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() { default.cases } else { cases };
    proptest::test_runner::Config { cases, failure_persistence: None, ..default }
}
