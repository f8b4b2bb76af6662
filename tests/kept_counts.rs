//! Shared counts kept across writes (`Paths::counts`,
//! `engine::share::counted`): a count shared through a name is kept while
//! the cells written leave its matches as they were, and the formulas
//! using it are calculated again only when it changes. Each test runs
//! with the path on and off: the values are the same, only what is
//! evaluated differs.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::engine::Paths;
use dataflow::testing::Sheet;

/// Every fast path, with kept counts on or off.
fn sheet(counts: bool) -> Sheet {
    let mut s = Sheet::new();
    s.paths(Paths { counts, ..Paths::ALL });
    s
}

/// The Ellis valid-values cell in small: the cells of row 2 offer the
/// digit 1 where row 1 holds none. A digit other than 1 written in row 1
/// leaves the count of 1s as it was: with kept counts only the cell below
/// it (which reads it) is calculated again.
#[test]
fn a_write_that_leaves_the_matches_as_they_were_keeps_the_count() {
    for counts in [true, false] {
        let mut s = sheet(counts);
        s.name_at("ones", "Sheet1!A2", "=COUNTIF(Sheet1!$A$1:$D$1,1)");
        s.set("A1", "1");
        for c in ["A2", "B2", "C2", "D2"] {
            s.set(c, &format!("=IF({}<>\"\",{0},IF(ones>0,\"\",1))", c.replace('2', "1")));
        }
        s.recalc();
        assert_eq!([s.text("A2"), s.text("B2"), s.text("C2"), s.text("D2")], ["1", "", "", ""]);
        s.set("C1", "2");
        s.recalc();
        let expected: &[&str] = if counts { &["C2"] } else { &["B2", "C2", "D2"] };
        assert_eq!(s.evaluated(), expected, "counts {counts}: the count of 1s stays 1");
        assert_eq!([s.text("B2"), s.text("C2"), s.text("D2")], ["", "2", ""]);
        // A second 1: the count changes, and the cells that read it are
        // calculated (C2, holding its own digit, did not read it).
        s.set("D1", "1");
        s.recalc();
        assert_eq!(s.evaluated(), ["B2", "D2"], "counts {counts}: the count of 1s goes to 2");
        assert_eq!(s.text("D2"), "1");
        // The 1 in A1 taken away: still one 1 (D1's), but the count changed.
        s.set("A1", "");
        s.recalc();
        assert_eq!(s.evaluated(), ["A2", "B2"], "counts {counts}");
        assert_eq!([s.text("A2"), s.text("B2"), s.text("C2"), s.text("D2")], ["", "", "2", "1"]);
        // The last 1 taken away: the count falls to 0 and the empty cells offer 1.
        s.set("D1", "");
        s.recalc();
        assert_eq!([s.text("A2"), s.text("B2"), s.text("C2"), s.text("D2")], ["1", "1", "2", "1"]);
    }
}

/// Criteria other than a number: a count of text by a wildcard, of empty
/// cells, and of numbers above a bound, each kept across the writes it
/// does not see, in the same workbook.
#[test]
fn every_kind_of_criterion_keeps_its_count_alike() {
    let run = |counts: bool| {
        let mut s = sheet(counts);
        s.name("words", "=COUNTIF(Sheet1!$A$1:$C$1,\"a*\")*10");
        s.name("blanks", "=COUNTIF(Sheet1!$A$1:$C$1,\"\")>1");
        s.name("big", "=-COUNTIF(Sheet1!$A$1:$C$1,\">2\")");
        for (c, f) in [("A3", "=words&A1"), ("B3", "=words"), ("A4", "=IF(blanks,B1,0)"), ("B4", "=blanks")] {
            s.set(c, f);
        }
        s.set("A5", "=big&C1");
        s.set("B5", "=big");
        s.recalc();
        let mut seen = Vec::new();
        for (c, v) in [("A1", "apple"), ("B1", "1"), ("C1", "5"), ("A1", "avocado"), ("B1", "b"), ("C1", "")] {
            s.set(c, v);
            s.recalc();
            let shown = ["A3", "B3", "A4", "B4", "A5", "B5"].map(|c| s.text(c));
            seen.push((shown, s.evaluated()));
        }
        seen
    };
    let (on, off) = (run(true), run(false));
    for ((shown_on, evaluated_on), (shown_off, evaluated_off)) in on.iter().zip(&off) {
        assert_eq!(shown_on, shown_off);
        assert!(evaluated_on.iter().all(|c| evaluated_off.contains(c)), "{evaluated_on:?} within {evaluated_off:?}");
    }
    // "avocado" for "apple": both meet "a*", so no count changes; only the
    // cells reading A1 itself are calculated.
    assert_eq!(on[3].1, ["A3"]);
    assert_eq!(on[3].0, ["10avocado", "10", "0", "FALSE", "-15", "-1"].map(String::from));
    assert_eq!(off[3].1, ["A3", "B3", "A4", "B4", "A5", "B5"]);
}

/// A cycle whose cells count a digit in their own row, as the Ellis
/// boards do: iteration by iteration, the same values with the path on
/// and off, and with it on fewer cells calculated.
#[test]
fn a_cycle_counting_its_own_row_iterates_alike() {
    let run = |counts: bool| {
        let mut s = sheet(counts);
        s.iterate(100, 0.001);
        for d in 1..=3 {
            s.name(&format!("has{d}"), &format!("=COUNTIF(Sheet1!$A$1:$D$1,{d})>0"));
        }
        // Each cell takes the smallest digit its row does not hold yet.
        for c in ["A1", "B1", "C1", "D1"] {
            s.set(c, "=IF(NOT(has1),1,IF(NOT(has2),2,IF(NOT(has3),3,0)))");
        }
        let mut shown = Vec::new();
        let mut evaluated = 0;
        for _ in 0..8 {
            s.step();
            evaluated += s.evaluated().len();
            shown.push(["A1", "B1", "C1", "D1"].map(|c| s.text(c)));
        }
        (shown, evaluated)
    };
    let (on, off) = (run(true), run(false));
    assert_eq!(on.0, off.0);
    assert!(on.1 <= off.1, "{} evaluated with kept counts, {} without", on.1, off.1);
}

/// The hyper boards' count in small: how many cells of each region
/// (row 1, a region map) hold each digit (row 2), by `COUNTIFS` with the
/// region numbers as a criterion shared apart. Writes into the board
/// change the count in place; a write into the region map (the other
/// range, and what the region numbers read) counts again. The values are
/// the same with the path on and off, and are those counted by hand.
#[test]
fn a_count_by_region_and_digit_follows_every_write() {
    for counts in [true, false] {
        let mut s = sheet(counts);
        let regions = "SEQUENCE(1,MAX(Sheet1!$A$1:$D$1))";
        let count = format!("COUNTIFS(Sheet1!$A$1:$D$1,{regions},Sheet1!$A$2:$D$2,{{1;2;3}})");
        // The region numbers used twice, so shared apart from the count.
        s.name("in_regions", &format!("={count}+0*COUNT({regions})"));
        // The board's cells hold 0 (no digit) to start with: each write
        // below changes a value, not what the workbook holds.
        for (i, v) in ["1", "2", "1", "2"].iter().enumerate() {
            s.set(&format!("{}1", char::from(b'A' + i as u8)), v);
            s.set(&format!("{}2", char::from(b'A' + i as u8)), "0");
        }
        // Digit d (row) in region r (column) of the count.
        let cells = [("A4", 1, 1), ("B4", 1, 2), ("A5", 2, 1), ("B5", 2, 2), ("A6", 3, 1), ("B6", 3, 2)];
        for (c, d, r) in cells {
            s.set(c, &format!("=INDEX(in_regions,{d},{r})"));
        }
        let table = |s: &Sheet| cells.iter().map(|(c, ..)| s.text(c)).collect::<Vec<_>>().join(" ");
        s.set("A2", "1");
        s.set("B2", "3");
        s.recalc();
        assert_eq!(table(&s), "1 0 0 0 0 1", "counts {counts}");
        // Into the board: changed in place.
        s.set("C2", "1");
        s.recalc();
        assert_eq!(table(&s), "2 0 0 0 0 1", "counts {counts}");
        s.set("A2", "2");
        s.set("D2", "2");
        s.recalc();
        assert_eq!(table(&s), "1 0 1 1 0 1", "counts {counts}");
        s.set("C2", "0");
        s.recalc();
        assert_eq!(table(&s), "0 0 1 1 0 1", "counts {counts}");
        // Into the region map: A1 moves to region 2, and a third region
        // appears (the count grows a column).
        s.set("A1", "2");
        s.set("B1", "3");
        s.recalc();
        assert_eq!(table(&s), "0 0 0 2 0 0", "counts {counts}");
        s.set("B2", "2");
        s.recalc();
        assert_eq!(table(&s), "0 0 0 2 0 0", "counts {counts}: B2 is in region 3");
        s.set("D2", "3");
        s.recalc();
        assert_eq!(table(&s), "0 0 0 1 0 1", "counts {counts}");
    }
}

/// A COUNTIFS whose criterion is a shared subformula giving a reference
/// (one cell, found at run time): COUNTIFS reads the cell's value, so a
/// write into the counted range changes it by that value, as counting
/// again does (the count held never takes the reference for a criterion).
#[test]
fn a_criterion_held_as_a_reference_is_read_as_countifs_reads_it() {
    for counts in [true, false] {
        let mut s = sheet(counts);
        let first = "INDEX(Sheet1!$A$5:$D$6,1,1+0*MAX(Sheet1!$A$5:$D$6))";
        s.name("nm", &format!("=COUNTIFS(Sheet1!$A$1:$D$1,{first},Sheet1!$A$2:$D$2,{{1;2;3}})+0*COUNT({first})"));
        for (i, c) in ["A", "B", "C", "D"].iter().enumerate() {
            s.set(&format!("{c}1"), &format!("{}", i % 2 + 1));
            s.set(&format!("{c}2"), "0");
            s.set(&format!("{c}5"), &format!("{}", i + 1));
        }
        for c in ["A8", "B8", "C8"] {
            s.set(c, "=SUM(nm)");
        }
        s.recalc();
        let mut seen = vec![s.text("A8")];
        for (c, v) in [("A2", "1"), ("B2", "2"), ("C2", "1"), ("A2", "3")] {
            s.set(c, v);
            s.recalc();
            seen.push(s.text("A8"));
        }
        // Region 1 (A5) holds columns A and C: the digits written there count.
        assert_eq!(seen, ["0", "1", "1", "2", "2"], "counts {counts}");
    }
}
