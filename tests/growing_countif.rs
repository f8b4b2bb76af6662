//! COUNTIF over growing ranges continues the count the grid remembers for
//! the same columns, top row and criterion (`grid/folds.rs`,
//! `functions/stats/conditional.rs`), so running counts down n rows read
//! n rows in all. The counts must be the ones a whole read gives: these
//! spreadsheets compare every count with a count made here (numbers only)
//! and with the same spreadsheet built with folds off (COUNTIF's one
//! reading of a criterion, over the whole range), after edits at the top,
//! the middle and the last row, random edits of every kind of value, and
//! ranges reaching past the stored rows (empty cells a blank criterion
//! counts).

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use dataflow::engine::Paths;
use dataflow::testing::Sheet;
use dataflow::value::Value;

/// The criteria counted down column A, one column each from B on; the
/// last is the running occurrence count `COUNTIF($A$1:A{i},A{i})`.
const CRITERIA: [&str; 9] = ["3", "\"x\"", "\">2\"", "\"\"", "\"<>x\"", "\"a*\"", "TRUE", "\"#N/A\"", ""];

/// Column A holds `a`; column k+1 counts CRITERIA[k] over `$A$1:A{i}`;
/// K1 and K2 count blanks and non-"x" cells over A1:A1000, past the
/// stored rows.
fn counts_of(a: &[String], paths: Paths) -> Sheet {
    let mut s = Sheet::new();
    s.paths(paths);
    for (i, text) in a.iter().enumerate() {
        let row = i + 1;
        s.set(&format!("A{row}"), text);
        for (k, crit) in CRITERIA.iter().enumerate() {
            let crit = if crit.is_empty() { format!("A{row}") } else { crit.to_string() };
            s.set(&format!("{}{row}", column(k)), &format!("=COUNTIF($A$1:A{row},{crit})"));
        }
    }
    s.set("K1", "=COUNTIF(A1:A1000,\"\")");
    s.set("K2", "=COUNTIF(A1:A1000,\"<>x\")");
    s
}

fn column(k: usize) -> char {
    (b'B' + k as u8) as char
}

/// A value of any kind COUNTIF tells apart: numbers (some as text),
/// text in two cases, booleans, errors and blanks.
fn any_value(lcg: &mut common::Lcg) -> String {
    match lcg.below(12) {
        0 => "x".into(),
        1 => "X".into(),
        2 => "abc".into(),
        3 => "'3".into(),
        4 => "TRUE".into(),
        5 => "#N/A".into(),
        6 => String::new(),
        k => format!("{}", (k + lcg.below(3)) % 5),
    }
}

/// Every count of `s` equals the same cell of `whole` (folds off).
fn assert_same_counts(s: &Sheet, whole: &Sheet, rows: usize, when: &str) {
    let cells = (1..=rows).flat_map(|row| (0..CRITERIA.len()).map(move |k| format!("{}{row}", column(k))));
    for cell in cells.chain(["K1".to_string(), "K2".to_string()]) {
        assert_eq!(s.value(&cell), whole.value(&cell), "{cell} {when}");
    }
}

#[test]
fn running_counts_of_every_criterion_match_a_whole_read() {
    let rows = 300;
    let mut lcg = common::Lcg(31);
    let mut text: Vec<String> = (0..rows).map(|_| any_value(&mut lcg)).collect();
    let no_folds = Paths { folds: false, ..Paths::ALL };
    let (mut s, mut whole) = (counts_of(&text, Paths::ALL), counts_of(&text, no_folds));
    s.recalc();
    whole.recalc();
    assert_same_counts(&s, &whole, rows, "loaded");
    assert_eq!(s.value("K1"), Value::Number((1000 - rows + text.iter().filter(|t| t.is_empty()).count()) as f64));
    for round in 0..25 {
        let picks: Vec<usize> = match round {
            0 => vec![0],
            1 => vec![rows / 2],
            2 => vec![rows - 1],
            _ => lcg.picks(rows),
        };
        for i in picks {
            text[i] = any_value(&mut lcg);
            for sheet in [&mut s, &mut whole] {
                sheet.set(&format!("A{}", i + 1), &text[i]);
            }
        }
        s.recalc();
        whole.recalc();
        assert_same_counts(&s, &whole, rows, &format!("after round {round}"));
    }
}

/// Numbers only, counted here: B{i} = how many of A1:A{i} are 2.
#[test]
fn a_running_count_of_one_number_is_the_count_made_here() {
    let rows = 400;
    let mut a: Vec<u64> = (0..rows as u64).map(|i| (i * 7 + i / 3) % 4).collect();
    let mut s = Sheet::new();
    for (i, n) in a.iter().enumerate() {
        s.set(&format!("A{}", i + 1), &n.to_string());
        s.set(&format!("B{}", i + 1), &format!("=COUNTIF($A$1:A{},2)", i + 1));
    }
    for (row, new) in [(0, 0), (1, 2), (200, 2), (200, 3), (400, 2), (399, 2)] {
        if row > 0 {
            a[row - 1] = new;
            s.set(&format!("A{row}"), &new.to_string());
        }
        s.recalc();
        let mut twos = 0;
        for (i, n) in a.iter().enumerate() {
            twos += (*n == 2) as u64;
            assert_eq!(s.value(&format!("B{}", i + 1)), Value::Number(twos as f64), "B{} after A{row} = {new}", i + 1);
        }
    }
}
