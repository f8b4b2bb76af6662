//! One missing name, one error (issue 11, item 6): a name used in many
//! formulas of several files, left out, is reported once, at its first use
//! in the files, with a note counting the uses and files and listing the
//! next places; another missing name is its own error.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::bad_input::render_all;
use common::expect_exit;
use dataflow::session::Session;
use std::path::Path;

const SIDE: &str = "tests/data/missing/side.ron";

#[test]
fn a_missing_name_is_one_error_listing_its_uses() {
    let diags = Session::load(Path::new(SIDE)).err().expect("`side` is missing");
    let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["unknown name `side`", "unknown name `nobody`"]);
    assert_eq!(diags[0].location().unwrap(), "tests/data/missing/side.ron:7:22");
    insta::assert_snapshot!("missing_side", render_all(&diags));
}

#[test]
fn check_prints_it_once() {
    let out = expect_exit(1, &["check", SIDE]);
    assert_eq!(out.stderr.matches("unknown name `side`").count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("used 8 times in 3 files"), "{}", out.stderr);
}
