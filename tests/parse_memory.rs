//! Parsing a formula keeps nothing once its tree is dropped. The grammar's
//! recursive parsers once held themselves (a `Recursive::declare` defined
//! through its own clone), so every formula parsed left its parser behind:
//! about 5 KB each, 770 MB for a workbook of 100,000 one-cell formulas.
//! A counting allocator measures the bytes still held after parsing.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::counting::{Counting, live};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn parsing_leaves_nothing_behind() {
    let formulas = ["=A1+1", "=SUM(A1:B2, (C1, C2))", "=IF(A1>0, {1,2;3,4}, -B1%)", "=1+", "=Sheet1!A1#:B2 C3"];
    // The first parses may set up what lasts (lazy statics, the thread's
    // parser).
    for f in formulas {
        let _ = dataflow::parse::parse_formula(f);
    }
    let before = live();
    for _ in 0..200 {
        for f in formulas {
            let _ = dataflow::parse::parse_formula(f);
        }
    }
    let held = live() - before;
    assert!(held < 4096, "1,000 formulas parsed hold {held} bytes");
}
