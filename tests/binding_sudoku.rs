//! The bound formulas of `workbooks/sudoku.ron` with every part on
//! (`--with all`), pinned: names bound once and shared between cells must
//! give exactly the trees that binding each cell on its own gave. A sample
//! of cells is shown in full (the first, middle and last cell of every
//! formula entry) and a digest covers every cell, so a change anywhere in
//! binding shows up here.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use dataflow::engine::{Program, Sharing};
use dataflow::eval::bind::unkept;
use dataflow::ids::FormulaId;
use dataflow::session::inputs;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// FNV-1a: a digest that stays the same from one Rust release to the next.
fn fnv(text: &str, mut h: u64) -> u64 {
    for b in text.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// The characters of a bound formula shown in full (a longer one is cut,
/// with its length and digest).
const SHOWN: usize = 600;

/// The bound formulas of the workbook with `with` parts on: sampled cells
/// in full, then the number of cells and a digest of them all.
fn bound(with: &[&str]) -> String {
    let with: Vec<String> = with.iter().map(|s| s.to_string()).collect();
    let wb = dataflow::workbook::load_with(Path::new(common::SUDOKU), &with).expect("the workbook loads");
    // Binding alone: shared subformulas (a later pass) would hide the trees.
    let (program, issues) = Program::build_with(&inputs(&wb).expect("inputs"), Sharing::Off);
    assert!(issues.is_empty(), "{issues:?}");
    let mut per_entry: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, c) in program.cells().iter().enumerate() {
        per_entry.entry(c.origin.index()).or_default().push(i);
    }
    let mut out = String::new();
    let mut digest = 0xcbf2_9ce4_8422_2325;
    // A program built without sharing keeps the parts bound once where they
    // are (`BExpr::Kept`): each formula is shown copied out, as binding it
    // on its own gives it.
    let tree = |i: usize| unkept(program.formula(FormulaId::at(i)).clone());
    for (i, c) in program.cells().iter().enumerate() {
        digest = fnv(&format!("{} {:?}\n", program.cell_name(c.addr), tree(i)), digest);
    }
    for cells in per_entry.values() {
        let mut sample = vec![cells[0], cells[cells.len() / 2], cells[cells.len() - 1]];
        sample.dedup();
        let mut shown = Vec::new();
        for i in sample {
            let text = format!("{:?}", tree(i));
            if shown.contains(&text) {
                continue; // the cells of a block array formula share it
            }
            let name = program.cell_name(program.cells()[i].addr);
            match text.char_indices().nth(SHOWN) {
                None => writeln!(out, "{name}: {text}").unwrap(),
                Some((cut, _)) => {
                    let (len, digest) = (text.len(), fnv(&text, 0xcbf2_9ce4_8422_2325));
                    writeln!(out, "{name}: {}... ({len} chars, digest {digest:016x})", &text[..cut]).unwrap();
                }
            }
            shown.push(text);
        }
    }
    writeln!(out, "{} formula cells, digest {digest:016x}", program.cells().len()).unwrap();
    out
}

#[test]
fn sudoku_bound_formulas_are_pinned() {
    insta::assert_snapshot!("sudoku_singles", bound(&[]));
}

#[test]
fn sudoku_with_all_parts_bound_formulas_are_pinned() {
    insta::assert_snapshot!("sudoku_all", bound(&["all"]));
}
