//! Dynamic reads (`Paths::reads`): a change marks dirty only the formulas
//! whose last evaluation read it. IF's branch not taken, a CHOOSE's other
//! choices and a shared count behind an IF are not read, so a change there
//! evaluates nothing; once the condition switches, the other branch is
//! read and followed. Formulas that can read past their own references
//! (a sized range, `:` with a computed side) are followed by everything
//! they may read. Each test runs with the path on and off: the values are
//! the same, only what is evaluated differs.

// Tests fail by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use dataflow::engine::Paths;
use dataflow::testing::Sheet;

/// Every fast path, with dynamic reads on or off.
fn sheet(reads: bool) -> Sheet {
    let mut s = Sheet::new();
    s.paths(Paths { reads, ..Paths::ALL });
    s
}

#[test]
fn a_branch_not_taken_is_not_followed_until_it_is_taken() {
    for reads in [true, false] {
        let mut s = sheet(reads);
        s.set("A1", "TRUE");
        s.set("B1", "1");
        s.set("C1", "2");
        s.set("D1", "=IF(A1,B1,C1)");
        s.set("E1", "=D1*10");
        s.recalc();
        assert_eq!(s.text("E1"), "10");
        s.set("C1", "5");
        s.recalc();
        let expected: &[&str] = if reads { &[] } else { &["D1"] };
        assert_eq!(s.evaluated(), expected, "reads {reads}: C1 is the branch not taken");
        assert_eq!(s.text("E1"), "10");
        // The condition switches: the other branch is read from now on.
        s.set("A1", "FALSE");
        s.recalc();
        assert_eq!(s.evaluated(), ["D1", "E1"]);
        assert_eq!(s.text("E1"), "50");
        s.set("C1", "7");
        s.recalc();
        assert_eq!(s.evaluated(), ["D1", "E1"]);
        assert_eq!(s.text("E1"), "70");
        s.set("B1", "3");
        s.recalc();
        let expected: &[&str] = if reads { &[] } else { &["D1"] };
        assert_eq!(s.evaluated(), expected, "reads {reads}: now B1 is the branch not taken");
        assert_eq!(s.text("E1"), "70");
    }
}

#[test]
fn choose_reads_only_its_choice() {
    for reads in [true, false] {
        let mut s = sheet(reads);
        for (c, v) in [("A1", "2"), ("B1", "10"), ("B2", "20"), ("B3", "30")] {
            s.set(c, v);
        }
        s.set("C1", "=CHOOSE(A1,B1,B2,SUM(B3,B4))");
        s.recalc();
        assert_eq!(s.text("C1"), "20");
        for (cell, v) in [("B1", "11"), ("B3", "31"), ("B4", "1")] {
            s.set(cell, v);
            s.recalc();
            assert_eq!(s.evaluated().len(), usize::from(!reads), "reads {reads}: {cell} is not chosen");
        }
        s.set("A1", "3");
        s.recalc();
        assert_eq!(s.text("C1"), "32");
        s.set("B4", "2");
        s.recalc();
        assert_eq!((s.evaluated().len(), s.text("C1")), (1, "33".to_string()));
    }
}

/// The Ellis valid-values cell in small: a count over a row that a name
/// shares between cells, behind an IF on the cell's own digit. Cells with
/// a digit read only that digit; the others read the shared count.
#[test]
fn a_shared_count_behind_an_if_is_read_only_where_it_is_reached() {
    for reads in [true, false] {
        let mut s = sheet(reads);
        s.name_at("placed", "Sheet1!A2", "=COUNTIF(Sheet1!$A$1:$C$1,1)");
        s.set("A1", "1");
        for c in ["A2", "B2", "C2"] {
            s.set(c, &format!("=IF({}<>\"\",{0},IF(placed>0,\"\",1))", c.replace('2', "1")));
        }
        s.recalc();
        assert_eq!([s.text("A2"), s.text("B2"), s.text("C2")], ["1", "", ""]);
        // A second 1, in C1, changes the row's count: the cells that read
        // the count are evaluated, A2 (its own digit) is not.
        s.set("C1", "1");
        s.recalc();
        let mut evaluated = s.evaluated();
        evaluated.sort();
        let expected: &[&str] = if reads { &["B2", "C2"] } else { &["A2", "B2", "C2"] };
        assert_eq!(evaluated, expected, "reads {reads}");
        assert_eq!([s.text("A2"), s.text("B2"), s.text("C2")], ["1", "", "1"]);
        // Clearing the placed 1s: the count falls to 0 and every cell offers 1 again.
        s.set("A1", "");
        s.set("C1", "");
        s.recalc();
        assert_eq!([s.text("A2"), s.text("B2"), s.text("C2")], ["1", "1", "1"]);
    }
}

/// A shared subformula follows what its own evaluation read: behind its
/// IF, the count it did not reach does not make it (or the cells using it)
/// calculate again, the boards' `kept_digits` of a solved cell.
#[test]
fn a_shared_value_keeps_while_what_it_read_stays() {
    for reads in [true, false] {
        let mut s = sheet(reads);
        s.name_at("kept", "Sheet1!A1", "=IF(Sheet1!$A$1<>\"\",10,COUNTIF(Sheet1!$B$1:$D$1,1))");
        s.set("A1", "x");
        s.set("E1", "=kept*2");
        s.set("E2", "=kept*3");
        s.recalc();
        assert_eq!([s.text("E1"), s.text("E2")], ["20", "30"]);
        s.set("C1", "1");
        s.recalc();
        assert_eq!(s.evaluated().len(), if reads { 0 } else { 2 }, "reads {reads}: the count was not reached");
        s.set("A1", "");
        s.recalc();
        assert_eq!(s.evaluated(), ["E1", "E2"]);
        assert_eq!([s.text("E1"), s.text("E2")], ["2", "3"]);
        s.set("D1", "1");
        s.recalc();
        assert_eq!(s.evaluated(), ["E1", "E2"]);
        assert_eq!([s.text("E1"), s.text("E2")], ["4", "6"]);
    }
}

/// Formulas that may read past the references they evaluate take every
/// change of what they may read: SUMIF's sum range read at its criteria
/// range's size, `:` with a computed side.
#[test]
fn formulas_that_read_past_their_references_follow_every_change() {
    let mut s = sheet(true);
    for (c, v) in [("A1", "TRUE"), ("B1", "1"), ("B2", "1"), ("B3", "1"), ("C1", "5"), ("C2", "6"), ("D1", "3")] {
        s.set(c, v);
    }
    s.set("E1", "=IF(A1,SUMIF(B1:B3,1,C1),0)");
    s.set("E2", "=IF(A1,SUM(C1:INDEX(C1:C5,D1)),0)");
    s.recalc();
    assert_eq!([s.text("E1"), s.text("E2")], ["11", "11"]);
    s.set("C3", "7");
    s.recalc();
    assert_eq!(s.evaluated(), ["E1", "E2"]);
    assert_eq!([s.text("E1"), s.text("E2")], ["18", "18"]);
}

/// An iterative cycle whose cells switch branches as it converges gives,
/// iteration by iteration, the values it gives with the path off.
#[test]
fn a_cycle_switching_branches_iterates_alike_with_the_path_on_and_off() {
    let run = |reads: bool| {
        let mut s = sheet(reads);
        s.iterate(100, 0.001);
        s.set("A1", "=IF(B1>20,B1,B1+C1)");
        s.set("B1", "=IF(A1<30,A1+1,A1)");
        s.set("C1", "=IF(A1>10,0,2)");
        let mut shown = Vec::new();
        for _ in 0..40 {
            s.step();
            shown.push([s.text("A1"), s.text("B1"), s.text("C1")]);
        }
        (shown, s.evaluated().len())
    };
    let (on, off) = (run(true), run(false));
    assert_eq!(on.0, off.0);
    assert_eq!(on.0.last().unwrap(), &["30", "30", "0"].map(String::from));
}
