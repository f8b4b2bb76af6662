//! The quick parse and the worded parse (`driver.rs`) agree: on every
//! formula of the formula corpus (`tests/formulas/*.txt`, cases and the
//! cells they set) and on the bad formulas of `tests/parse_errors.rs`,
//! both give the same tree or both fail.

use super::driver::{quick, worded};
use super::lexer::lex;
use chumsky::span::SimpleSpan;
use std::path::Path;

/// The formulas of the corpus files: each case (`=...  ->  value`) and
/// each cell set to a formula (`B2 = =...`).
fn corpus(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir).expect("the corpus").map(|e| e.expect("an entry").path()).collect();
    files.sort();
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "txt")) {
        for line in std::fs::read_to_string(path).expect("a corpus file").lines() {
            if line.starts_with('=') {
                out.push(line.split("  ->  ").next().unwrap_or(line).to_string());
            } else if let Some((_, f)) = line.split_once(" = ").filter(|(_, f)| f.starts_with('=')) {
                out.push(f.to_string());
            }
        }
    }
    out
}

/// The string literals of `tests/parse_errors.rs`'s list of bad formulas.
fn bad(test: &str) -> Vec<String> {
    let list = test.split("const BAD: &[&str] = &[").nth(1).expect("the list").split("];").next().expect("its end");
    list.lines()
        .filter_map(|l| l.trim().strip_prefix('"')?.strip_suffix("\",").map(|s| s.replace("\\\"", "\"")))
        .collect()
}

#[test]
fn the_quick_parse_accepts_what_the_worded_one_does() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let good = corpus(&root.join("tests/formulas"));
    let bad = bad(&std::fs::read_to_string(root.join("tests/parse_errors.rs")).expect("the error tests"));
    assert!(good.len() > 1000 && bad.len() > 40, "{} corpus formulas, {} bad ones", good.len(), bad.len());
    let mut failed = 0;
    for src in good.iter().chain(&bad) {
        let (tokens, _) = lex(src);
        let eoi = SimpleSpan::from(src.len()..src.len());
        let (fast, wrong) = quick(&tokens, eoi);
        let (slow, errors) = worded(&tokens, eoi);
        assert_eq!(wrong, !errors.is_empty(), "{src:?}: {errors:?}");
        assert_eq!(fast, slow, "{src:?}");
        failed += usize::from(wrong || fast.is_none());
    }
    // The bad formulas fail (most for the parser, a few only for the lexer).
    assert!(failed >= bad.len() / 2, "{failed} of {} failed", bad.len());
}
