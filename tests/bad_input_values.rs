//! Bad values have a defined outcome: references that leave the sheet wrap
//! around its edges, a literal too large does not parse, a diverging cycle
//! ends in #NUM! rather than infinity, and input lines with symbols outside
//! the alphabet or of the wrong length are refused with a clear message
//! (in a session and from the command line). Fixtures live in
//! `tests/data/bad/`; the helpers are in `common/bad_input.rs`.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::bad_input::{cell, dataflow, err, session};
use dataflow::parse::parse_formula;
use dataflow::testing::Sheet;
use dataflow::value::{ErrorKind, Value};
use std::path::Path;

// ------------------------------------------------------------ references outside the sheet

#[test]
fn references_outside_the_sheet() {
    let mut s = Sheet::new();
    // (A1048576 and XFD1 both set would need the whole sheet stored.)
    s.set("XFD1", "7");
    // A name entered from B1 reading A1 means "the cell to the left": from A1, it wraps to XFD1.
    s.name_at("left", "B1", "=A1");
    // Entered from A2 reading A1, "the cell above": from A1, it wraps to A1048576.
    s.name_at("up", "A2", "=A1");
    s.set("B2", "=left");
    s.set("C3", "=ROW(up)");
    s.set("D3", "=COLUMN(left)");
    s.set("A1", "=left");
    s.set("B1", "=up");
    s.recalc();
    assert_eq!(s.value("A1"), Value::Number(7.0), "left of A1 wraps to XFD1");
    assert_eq!(s.value("B1"), Value::Number(0.0), "above B1 wraps to B1048576, empty");
    assert_eq!(s.value("B2"), Value::Number(0.0), "A2 is empty");
    assert_eq!(s.value("C3"), Value::Number(2.0));
    assert_eq!(s.value("D3"), Value::Number(3.0));
    assert_eq!(s.eval_at("A1", "=ROW(up)"), Value::Number(1_048_576.0));
    assert_eq!(s.eval_at("A1", "=COLUMN(left)"), Value::Number(16_384.0));
    // OFFSET and INDEX past the sheet's edges: tests/formulas/lookup.txt.
}

// ------------------------------------------------------------ numbers

// Overflow, NaN and division by zero in formulas: tests/formulas/numbers.txt.

#[test]
fn a_literal_too_large_does_not_parse() {
    assert!(parse_formula("=1E999").is_err());
}

#[test]
fn a_diverging_cycle_ends_in_num_not_infinity() {
    let mut s = Sheet::new();
    s.iterate(2000, 0.001);
    s.set("A1", "=A1*10+1");
    let r = s.recalc();
    assert_eq!(s.value("A1"), err(ErrorKind::Num));
    assert!(r.iterations <= 2000);
    assert!(!r.max_change.is_nan(), "{r:?}");
}

// ------------------------------------------------------------ inputs

const HEX: &str = "123456789ABCDEFG";

#[test]
fn a_16_symbol_alphabet_input() {
    let mut s = session("hex.ron");
    let board = s.area("Main!A1:P16").unwrap();
    let line = HEX.repeat(16);
    s.set_input("puzzle", &line).expect("256 symbols of the alphabet");
    s.recalc();
    assert_eq!(cell(&s, "Main!R1"), Value::Number(16.0 * 136.0));
    assert_eq!(cell(&s, "Main!R2"), Value::Number(256.0));
    assert_eq!(cell(&s, "Main!R3"), Value::Number(16.0), "G is 16");
    assert_eq!(s.read_line(&board, HEX), line, "read back through the alphabet");
    // Blanks and whitespace.
    let sparse = format!("G{}", ".".repeat(255));
    s.set_input("puzzle", &sparse.replace("..", ". .")).unwrap();
    s.recalc();
    assert_eq!(cell(&s, "Main!R1"), Value::Number(16.0));
    assert_eq!(s.read_line(&board, HEX), sparse);

    let mut bad = |line: String| s.set_input("puzzle", &line).expect_err("refused").to_string();
    assert_eq!(
        bad(format!("{}H", &line[..255])),
        "input `puzzle`: symbol `H` at position 256 is not in the alphabet `123456789ABCDEFG` nor a blank (`.`)"
    );
    assert!(bad(format!("h{}", &line[1..])).contains("symbol `h` at position 1"), "in neither case");
    assert!(bad(format!("0{}", &line[1..])).contains("symbol `0` at position 1"), "0 is no blank here");
    assert!(bad(format!("é{}", &line[1..])).contains("symbol `é` at position 1"));
    assert_eq!(bad(line[..255].to_string()), "input `puzzle` needs 256 symbols for A1:P16, got 255");
    assert_eq!(bad(HEX.repeat(17)), "input `puzzle` needs 256 symbols for A1:P16, got 272");
    assert!(bad(String::new()).contains("got 0"));
}

#[test]
fn a_16_symbol_alphabet_input_from_the_cli() {
    let line = HEX.repeat(16);
    let (code, stdout, stderr) = dataflow(&[
        "run",
        "tests/data/bad/hex.ron",
        "--input",
        &format!("puzzle={line}"),
        "--format",
        "json",
        "--show",
        "Main!R1:R3",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(v["ranges"]["Main!R1:R3"], serde_json::json!([[2176.0], [256.0], [16.0]]));

    let (code, _, stderr) = dataflow(&["run", "tests/data/bad/hex.ron", "--input", &format!("puzzle={}", &line[..81])]);
    assert_eq!(code, Some(2));
    assert_eq!(stderr, "error: input `puzzle` needs 256 symbols for A1:P16, got 81\n");

    let corpus = "workbooks/puzzles/16x16/hexadoku_4.txt";
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(corpus)).expect("shipped puzzles");
    let puzzle = text.lines().next().expect("a puzzle");
    let (code, stdout, stderr) = dataflow(&[
        "run",
        "tests/data/bad/hex.ron",
        "--input",
        &format!("puzzle=@{corpus}:1"),
        "--format",
        "json",
        "--show",
        "Main!R1:R3",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let given: Vec<usize> = puzzle.chars().filter_map(|c| HEX.find(c).map(|k| k + 1)).collect();
    let sum = given.iter().sum::<usize>() as f64;
    assert_eq!(v["ranges"]["Main!R1:R3"], serde_json::json!([[sum], [given.len() as f64], [16.0]]));
}
