//! The quick parse and the worded parse (`driver.rs`) agree: on every
//! formula of the formula corpus (`tests/formulas/*.txt`, cases and the
//! cells they set) and on the bad formulas of `tests/parse_errors.rs`,
//! both give the same tree or both fail. So do a parse rebuilt from a kept
//! tree of the same shape (`shapes.rs`) and a parse afresh.

use super::driver::{quick, worded};
use super::lexer::lex;
use super::{parse_formula, parse_formula_afresh, shapes};
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

#[test]
fn a_formula_rebuilt_from_its_shape_is_the_one_parsed_afresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let good = corpus(&root.join("tests/formulas"));
    let bad = bad(&std::fs::read_to_string(root.join("tests/parse_errors.rs")).expect("the error tests"));
    // Each cell-looking piece moved: `B7` -> `C8`, `$B$7` -> `$C$8`, ...
    let piece = regex::Regex::new(r"(\$?)([A-Z]{1,2})(\$?)([1-9][0-9]{0,3})\b").expect("a regex");
    let moved = |src: &str| {
        piece
            .replace_all(src, |c: &regex::Captures| {
                let col = crate::address::parse_col(&c[2]).map_or(0, |n| n + 1);
                let row: u32 = c[4].parse::<u32>().map_or(1, |n| n + 1);
                format!("{}{}{}{}", &c[1], crate::address::col_name(col), &c[3], row)
            })
            .into_owned()
    };
    let mut rebuilt = 0;
    for src in good.iter().chain(&bad) {
        let other = moved(src);
        // The second parse keeps the tree.
        for _ in 0..2 {
            assert_eq!(parse_formula(src), parse_formula_afresh(src), "{src:?}");
        }
        let (tokens, errors) = lex(&other);
        let shape = errors.is_empty().then(|| shapes::shape(&other, &tokens)).flatten();
        rebuilt += usize::from(other != *src && shape.as_ref().and_then(shapes::reuse).is_some());
        assert_eq!(parse_formula(&other), parse_formula_afresh(&other), "{src:?} moved to {other:?}");
    }
    // Most corpus formulas with a cell in them are rebuilt once moved.
    let with_cells = good.iter().filter(|s| moved(s) != **s).count();
    assert!(rebuilt * 10 > with_cells * 8, "{rebuilt} of {with_cells} rebuilt");
}
