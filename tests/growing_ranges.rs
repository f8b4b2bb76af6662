//! Aggregates over growing ranges continue the fold the grid remembers
//! for the same columns from the same top row (`grid/folds.rs`), so each
//! of n cumulative sums reads only the rows below the one before it. The
//! results must be Excel's bit for bit: SUM is a left fold in row-major
//! order from +0.0 and the first error wins. These spreadsheets compare
//! every sum with a plain left fold computed here, after the edits that
//! would leave a remembered fold stale if a write failed to forget it: a
//! cell at the top, in the middle and on the last row of a range, a column
//! of formulas written between the sums, errors, ranges several columns
//! wide, different anchors and starts side by side, iterations, undo and
//! random edits.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use dataflow::session::{Session, Timeline};
use dataflow::testing::{Sheet, typed_value};
use dataflow::value::{ErrorKind, Value};
use dataflow::workbook::Workbook;
use dataflow::workbook::files::MemoryFiles;

/// A value as bits, so that `-0.0` and `0.0`, or two sums one rounding
/// apart, differ.
fn exact(v: &Value) -> String {
    match v {
        Value::Number(n) => format!("{n} ({:#018x})", n.to_bits()),
        other => format!("{other:?}"),
    }
}

/// SUM over `cells` (row-major): a left fold of the numbers from +0.0;
/// the first error is the result.
fn left_fold<'v>(cells: impl IntoIterator<Item = &'v Value>, from: f64) -> Value {
    let mut sum = from;
    for v in cells {
        match v {
            Value::Number(n) => sum += n,
            Value::Error(e) => return Value::Error(*e),
            _ => {}
        }
    }
    Value::Number(sum)
}

/// How many numbers COUNT counts in `cells`.
fn count<'v>(cells: impl IntoIterator<Item = &'v Value>) -> Value {
    Value::Number(cells.into_iter().filter(|v| matches!(v, Value::Number(_))).count() as f64)
}

fn assert_exact(s: &Sheet, cell: &str, expected: &Value, when: &str) {
    assert_eq!(exact(&s.value(cell)), exact(expected), "{cell} {when}");
}

/// Column A holds `a` (typed as these texts); B{i} = SUM($A$1:A{i}).
fn sums_of(a: &[String]) -> Sheet {
    let mut s = Sheet::new();
    for (i, text) in a.iter().enumerate() {
        s.set(&format!("A{}", i + 1), text);
        s.set(&format!("B{}", i + 1), &format!("=SUM($A$1:A{})", i + 1));
    }
    s
}

/// Types `new` into A{row} (and into `text`, column A's texts),
/// recalculates, and gives column A's values.
fn type_in(s: &mut Sheet, text: &mut [String], row: usize, new: &str) -> Vec<Value> {
    text[row - 1] = new.to_string();
    s.set(&format!("A{row}"), new);
    s.recalc();
    text.iter().map(|t| typed_value(t)).collect()
}

/// Every B{i} is the left fold of A1:A{i}.
fn assert_cumulative(s: &Sheet, a: &[Value], when: &str) {
    for i in 1..=a.len() {
        assert_exact(s, &format!("B{i}"), &left_fold(&a[..i], 0.0), when);
    }
}

/// Decimal texts whose sums round: 0.1, 1.7, 2.3, ...
fn decimals(rows: usize) -> Vec<String> {
    (1..=rows).map(|i| format!("{}.{}", i % 13, (i * 7) % 10)).collect()
}

#[test]
fn edits_at_the_top_middle_and_last_row_are_seen() {
    let mut text = decimals(200);
    let mut s = sums_of(&text);
    s.set("C1", "=SUM(A1:A200)");
    s.set("C2", "=AVERAGE(A1:A200)");
    s.set("C3", "=COUNT(A1:A200)");
    s.recalc();
    for (row, new) in [(1, "1000.3"), (100, "0.7"), (200, "-5.1"), (100, "words"), (1, ""), (200, "3")] {
        let a = type_in(&mut s, &mut text, row, new);
        let when = format!("after A{row} = {new:?}");
        assert_cumulative(&s, &a, &when);
        let (total, numbers) = (left_fold(&a, 0.0), count(&a));
        assert_exact(&s, "C1", &total, &when);
        let (Value::Number(t), Value::Number(n)) = (&total, &numbers) else { unreachable!() };
        assert_exact(&s, "C2", &Value::Number(t / n), &when);
        assert_exact(&s, "C3", &numbers, &when);
    }
}

/// A1 = 0.1, A{i} = A{i-1} + 0.1: each A is written just before the sum
/// reading it, below the fold remembered for the sum above.
#[test]
fn a_column_of_formulas_between_the_sums() {
    let rows = 300;
    let mut s = Sheet::new();
    s.set("A1", "0.1");
    for i in 1..=rows {
        if i > 1 {
            s.set(&format!("A{i}"), &format!("=A{}+0.1", i - 1));
        }
        s.set(&format!("B{i}"), &format!("=SUM($A$1:A{i})"));
    }
    for first in [0.1, 0.7] {
        s.set("A1", &first.to_string());
        s.recalc();
        let mut x = first;
        let a: Vec<Value> = (0..rows)
            .map(|i| {
                x += if i > 0 { 0.1 } else { 0.0 };
                Value::Number(x)
            })
            .collect();
        assert_exact(&s, &format!("A{rows}"), &a[rows - 1], "the column itself");
        assert_cumulative(&s, &a, &format!("with A1 = {first}"));
    }
}

#[test]
fn the_first_error_wins() {
    let mut text = decimals(200);
    text[99] = "#N/A".into();
    text[149] = "#DIV/0!".into();
    let mut s = sums_of(&text);
    s.set("C1", "=SUM(A1:A200)");
    s.recalc();
    let check = |s: &Sheet, a: &[Value], when: &str| {
        assert_cumulative(s, a, when);
        assert_exact(s, "C1", &left_fold(a, 0.0), when);
    };
    check(&s, &text.iter().map(|t| typed_value(t)).collect::<Vec<_>>(), "loaded");
    assert_eq!(s.value("B120"), Value::Error(ErrorKind::NA));
    for (row, new) in [(100, "1"), (150, "2"), (10, "#VALUE!"), (10, "4"), (200, "#NUM!")] {
        let a = type_in(&mut s, &mut text, row, new);
        check(&s, &a, &format!("after A{row} = {new}"));
    }
    assert_eq!(s.value("C1"), Value::Error(ErrorKind::Num));
}

/// D{i} = SUM($A$1:C{i}): three columns, folded row by row.
#[test]
fn areas_several_columns_wide() {
    let rows = 150;
    let mut cols: Vec<Vec<String>> = (0..3).map(|c| decimals(rows + c).split_off(c)).collect();
    let mut s = Sheet::new();
    for i in 1..=rows {
        for (c, col) in cols.iter().enumerate() {
            s.set(&format!("{}{i}", ["A", "B", "C"][c]), &col[i - 1]);
        }
        s.set(&format!("D{i}"), &format!("=SUM($A$1:C{i})"));
    }
    s.set("E1", "=SUM(A1:C150)");
    s.set("E2", "=COUNT(A1:C150)");
    s.recalc();
    for (col, row, new) in [(2, 1, "0.9"), (1, 75, "12.1"), (2, 150, "-3.3"), (0, 150, "text"), (1, 1, "#REF!")] {
        cols[col][row - 1] = new.to_string();
        s.set(&format!("{}{row}", ["A", "B", "C"][col]), new);
        s.recalc();
        let values: Vec<Vec<Value>> = cols.iter().map(|c| c.iter().map(|t| typed_value(t)).collect()).collect();
        let row_major = |to: usize| (0..to).flat_map(|r| values.iter().map(move |c| &c[r])).collect::<Vec<_>>();
        let when = format!("after column {col} row {row} = {new}");
        for i in 1..=rows {
            assert_exact(&s, &format!("D{i}"), &left_fold(row_major(i), 0.0), &when);
        }
        assert_exact(&s, "E1", &left_fold(row_major(rows), 0.0), &when);
        assert_exact(&s, "E2", &count(row_major(rows)), &when);
    }
}

/// Ranges from row 1 and from row 50, a sum started from 0.5, a count and
/// an average, each growing down the same column.
#[test]
fn anchors_and_starts_side_by_side() {
    let rows = 200;
    let mut text = decimals(rows);
    let mut s = sums_of(&text);
    for i in 50..=rows {
        s.set(&format!("C{i}"), &format!("=SUM($A$50:A{i})"));
        s.set(&format!("F{i}"), &format!("=AVERAGE($A$50:A{i})"));
    }
    for i in 1..=rows {
        s.set(&format!("D{i}"), &format!("=SUM(0.5,$A$1:A{i})"));
        s.set(&format!("E{i}"), &format!("=COUNT($A$1:A{i})"));
    }
    for (row, new) in [(1, "1.1"), (50, "0.3"), (120, "x"), (200, "7.7")] {
        let a = type_in(&mut s, &mut text, row, new);
        let when = format!("after A{row} = {new}");
        assert_cumulative(&s, &a, &when);
        for i in 1..=rows {
            assert_exact(&s, &format!("D{i}"), &left_fold(&a[..i], 0.5), &when);
            assert_exact(&s, &format!("E{i}"), &count(&a[..i]), &when);
        }
        for i in 50..=rows {
            let (Value::Number(sum), Value::Number(n)) = (left_fold(&a[49..i], 0.0), count(&a[49..i])) else {
                unreachable!()
            };
            assert_exact(&s, &format!("C{i}"), &Value::Number(sum), &when);
            assert_exact(&s, &format!("F{i}"), &Value::Number(sum / n), &when);
        }
    }
}

/// A circle: A{i} = IF($C$1>0, ROW()/10, 1), C1 = SUM(A1:A100) and B the
/// cumulative sums. The first iteration sums the ones, the second the
/// tenths; the fold remembered in the first must not answer the second.
#[test]
fn an_iterative_circle_reads_growing_sums() {
    let rows = 100;
    let mut s = Sheet::new();
    s.iterate(100, 0.0);
    for i in 1..=rows {
        s.set(&format!("A{i}"), "=IF($C$1>0,ROW()/10,1)");
        s.set(&format!("B{i}"), &format!("=SUM($A$1:A{i})"));
    }
    s.set("C1", &format!("=SUM(A1:A{rows})"));
    let r = s.recalc();
    assert!(r.iterations > 1, "{r:?}");
    let a: Vec<Value> = (1..=rows).map(|i| Value::Number(i as f64 / 10.0)).collect();
    assert_cumulative(&s, &a, "converged");
    assert_exact(&s, "C1", &left_fold(&a, 0.0), "converged");
}

/// Undo writes the old values back: the folds remembered over the new
/// ones are forgotten. C1 = SUM(A1:A200)+D1 is recalculated after the
/// undo by setting D1 alone.
#[test]
fn undo_forgets_the_folds_over_what_it_put_back() {
    let ron = r#"(sheets: ["Main"], cells: {
        "Main!A1:A149": "=ROW()/10", "Main!A150": 2.5, "Main!A151:A200": "=ROW()/10", "Main!D1": 0,
        "Main!B1:B200": "=SUM($A$1:A1)", "Main!C1": "=SUM(A1:A200)+D1" })"#;
    let mut s = Session::new(Workbook::from_memory(ron, &MemoryFiles::new(), &[]).unwrap()).unwrap();
    s.recalc();
    let cell = |s: &Session, a: &str| s.area(a).unwrap().top_left();
    let value = |s: &Session, a: &str| s.engine().get(cell(s, a)).clone();
    let mut a: Vec<Value> = (1..=200).map(|i| Value::Number(i as f64 / 10.0)).collect();
    a[149] = Value::Number(2.5);
    let check = |s: &Session, a: &[Value], d1: f64, when: &str| {
        for i in 1..=200 {
            assert_eq!(exact(&value(s, &format!("B{i}"))), exact(&left_fold(&a[..i], 0.0)), "B{i} {when}");
        }
        let Value::Number(sum) = left_fold(a, 0.0) else { unreachable!() };
        assert_eq!(exact(&value(s, "C1")), exact(&Value::Number(sum + d1)), "C1 {when}");
    };
    check(&s, &a, 0.0, "loaded");
    let mut t = Timeline::new();
    let a150 = cell(&s, "A150");
    t.set(&mut s, &[(a150, Value::Number(1000.25))]).unwrap();
    t.recalc(&mut s);
    let mut edited = a.clone();
    edited[149] = Value::Number(1000.25);
    check(&s, &edited, 0.0, "after A150 = 1000.25");
    assert!(t.back(&mut s) && t.back(&mut s));
    check(&s, &a, 0.0, "undone");
    s.set(cell(&s, "D1"), Value::Number(1.0)).unwrap();
    s.recalc();
    check(&s, &a, 1.0, "undone, then D1 = 1");
    assert!(t.forward(&mut s) && t.forward(&mut s));
    s.set(cell(&s, "D1"), Value::Number(2.0)).unwrap();
    s.recalc();
    check(&s, &edited, 2.0, "redone, then D1 = 2");
}

/// Random edits (numbers with fractions, text, errors, blanks) under
/// cumulative sums and two totals, compared after each recalculation
/// with the left fold of the column.
#[test]
fn random_edits_match_a_plain_left_fold() {
    let rows = 300;
    let mut text = decimals(rows);
    let mut s = sums_of(&text);
    s.set("C1", &format!("=SUM(A1:A{rows})"));
    s.set("C2", &format!("=SUM(A65:A{rows})"));
    s.recalc();
    let mut lcg = common::Lcg(2026);
    for round in 0..60 {
        for i in lcg.picks(rows) {
            text[i] = match lcg.below(20) {
                0 => "#N/A".into(),
                1 => "abc".into(),
                2 => String::new(),
                k => format!("{}.{}", lcg.below(2000) as i64 - 1000, k),
            };
            s.set(&format!("A{}", i + 1), &text[i]);
        }
        s.recalc();
        let a: Vec<Value> = text.iter().map(|t| typed_value(t)).collect();
        let when = format!("round {round}");
        assert_cumulative(&s, &a, &when);
        assert_exact(&s, "C1", &left_fold(&a, 0.0), &when);
        assert_exact(&s, "C2", &left_fold(&a[64..], 0.0), &when);
    }
}
